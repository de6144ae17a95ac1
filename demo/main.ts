import { Pathfinder, TilenavError, type FindPathOptions, type MovementName } from 'tilenav';
import { AnyAngleFinder, findAnyAnglePath, forEachTouchedCell, polylineLength, smoothPath } from 'tilenav/path';
import { gridBounds, movementFor } from 'tilenav/render';
import { drawArt } from './art.js';
import { BUNDLED_MAPS, COMPANION_EXTENSIONS, FILE_LOADERS, loaderFor, movementsFor, pickedPath, type DemoMap } from './maps.js';
import { Units } from './units.js';
import { ALGORITHMS, LEGEND_HTML, SMOOTHING, hintFor, option, type Smoothed } from './panel.js';
import { GridView } from './view.js';
import { pageApi, type PageApi, type State } from './api.js';
import { TilePalette } from './palette.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const screen = $<HTMLCanvasElement>('screen');
const ctx = screen.getContext('2d')!;
const ui = {
  map: $<HTMLSelectElement>('map'),
  file: $<HTMLInputElement>('file'),
  folder: $<HTMLInputElement>('folder'),
  error: $<HTMLDivElement>('error'),
  missing: $<HTMLDivElement>('missing'),
  notice: $<HTMLDivElement>('notice'),
  hint: $<HTMLDivElement>('hint'),
  overlay: $<HTMLInputElement>('overlay'),
  opacity: $<HTMLInputElement>('opacity'),
  tool: $<HTMLSelectElement>('tool'),
  brush: $<HTMLSelectElement>('brush'),
  algorithm: $<HTMLSelectElement>('algorithm'),
  movement: $<HTMLSelectElement>('movement'),
  weight: $<HTMLInputElement>('weight'),
  layer: $<HTMLSelectElement>('layer'),
  smoothing: $<HTMLSelectElement>('smoothing'),
  expanded: $<HTMLInputElement>('expanded'),
  result: $<HTMLDivElement>('result'),
  stats: $<HTMLDivElement>('stats'),
  units: $<HTMLDivElement>('units'),
};

let state: State;
const palette = new TilePalette({ changed: () => updateStats() });
let drag: 'start' | 'goal' | 'paint' | 'pan' | 'box' | null = null;
/** The Units tool's selection rectangle (screen pixels: x0, y0, x1, y1) while dragging. */
let box: [number, number, number, number] | null = null;
/** Where a right-button press began: a press that does not pan orders the selection there. */
let rightDown: [number, number] | null = null;
/** Route clicks alternate: start, goal, start, ... */
let nextIsStart = true;
let dirty = true;
let queryPending = false;
let inputAt = -1;
const frameLog: { queryMs: number; frameMs: number; inputToFrameMs: number }[] = [];

const bundledGroup = document.createElement('optgroup');
bundledGroup.label = 'Bundled';
const diskGroup = document.createElement('optgroup');
diskGroup.label = 'From disk';
ui.map.append(bundledGroup, diskGroup);
for (const m of BUNDLED_MAPS) option(bundledGroup, m.id, m.label);
for (const [id, a] of Object.entries(ALGORITHMS)) option(ui.algorithm, id, a.label);
// The library's default search (auto: JPS where it applies, A* elsewhere), as in the CLI.
ui.algorithm.value = 'jps';
for (const [id, label] of Object.entries(SMOOTHING)) if (id !== 'none') option(ui.smoothing, id, label);
$('smoothing-row').hidden = Object.keys(SMOOTHING).length <= 1;
ui.file.accept = [...FILE_LOADERS.flatMap((l) => l.extensions), ...COMPANION_EXTENSIONS].join(',');
ui.file.multiple = true;
ui.folder.webkitdirectory = true;
$('legend').innerHTML = LEGEND_HTML;

/** What a left click does with the chosen tool, shown under the tool picker. */
function showHint(): void {
  ui.hint.textContent = hintFor(ui.tool.value);
}

/** Shows a map: a new view, finder and scratch; the old grid's listener is dropped. */
function show(name: string, m: DemoMap): void {
  state?.unsubscribe();
  state?.units?.dispose();
  const grid = m.grid;
  const view = new GridView(grid, 0);
  const cell = (p?: [number, number]) => (p && grid.isWalkable(p[0], p[1]) ? p[1] * grid.width + p[0] : null);
  state = {
    mapName: name,
    grid,
    finder: new Pathfinder(grid),
    view,
    marks: new Uint8Array(grid.size),
    start: cell(m.start),
    goal: cell(m.goal),
    result: null,
    smoothed: { points: null, length: 0, note: '' },
    queryError: '',
    lastQueryMs: 0,
    lastFrameMs: 0,
    lastInputToFrameMs: 0,
    units: null,
    artReady: m.art === undefined,
    unsubscribe: grid.onChange((c) => {
      if (c.layer === state.view.layer) state.view.redrawCells(c);
      // A brush stroke changes the grid many times between two frames: search once per frame.
      queryPending = true;
      dirty = true;
    }),
  };
  nextIsStart = true;
  // Only the models that fit the map's cells: square ones on square and isometric maps, the map's
  // own on hexagonal and staggered ones.
  ui.movement.replaceChildren();
  for (const mv of movementsFor(grid.projection, m.movement)) option(ui.movement, mv, mv);
  ui.movement.value = m.movement;
  ui.layer.replaceChildren();
  grid.layers.forEach((l, i) => option(ui.layer, String(i), l.name));
  ui.tool.replaceChildren();
  option(ui.tool, 'route', 'Route (start / goal)');
  option(ui.tool, 'units', 'Units (select, right-click to move)');
  option(ui.tool, 'wall', 'Wall');
  option(ui.tool, 'erase', 'Erase (Ground)');
  for (const t of grid.terrain.entries()) if (t.walkable && t.name !== 'Ground') option(ui.tool, `terrain:${t.name}`, `${t.name} (cost ${t.cost})`);
  if (m.tiled !== undefined) option(ui.tool, 'tile-rule', 'Tile rule (the tile under the cursor)');
  palette.show(m.tiled ?? null, grid);
  showHint();
  ui.error.textContent = '';
  ui.notice.textContent = '';
  ui.missing.textContent = '';
  $('overlay-row').hidden = true;
  resize();
  view.fit(screen.width, screen.height);
  query();
  updateStats();
  showUnits();
  const shown = state;
  m.art
    ?.then((a) => {
      if (state !== shown) return;
      palette.setArt(a);
      const drawnArt = drawArt(a, gridBounds(grid));
      // Without a single tile (every image missing) the overlay stays opaque, as on other maps.
      if (drawnArt.tiles > 0) view.setArt(drawnArt);
      $('overlay-row').hidden = drawnArt.tiles === 0;
      view.overlayVisible = ui.overlay.checked;
      view.overlayOpacity = Number(ui.opacity.value) / 100;
      if (a.missing.length > 0) ui.missing.textContent = `Not picked, so not drawn: ${a.missing.join(', ')}. Pick them with the map (or pick its folder).`;
      view.fit(screen.width, screen.height);
    })
    .catch((e: unknown) => {
      if (state === shown) ui.missing.textContent = `The map's tiles cannot be drawn: ${e instanceof Error ? e.message : String(e)}`;
    })
    .finally(() => {
      shown.artReady = true;
      dirty = true;
    });
}

/** The heuristic weight the search runs with: the field's value once it passed {@link checkWeight}. */
let weight = 1;

function options(): FindPathOptions {
  return { layer: Number(ui.layer.value), movement: ui.movement.value as MovementName, weight };
}

/** Takes the weight field's value when the search can use it (0 to 10), else says why and restores the last one. */
function checkWeight(): void {
  const text = ui.weight.value.trim();
  const w = Number(text);
  if (text === '' || !Number.isFinite(w) || w < 0 || w > 10) {
    ui.notice.textContent = `Weight ${JSON.stringify(ui.weight.value)} cannot be used: give a number from 0 (Dijkstra) to 10 (1 keeps paths optimal). Kept ${weight}.`;
    ui.weight.value = String(weight);
    return;
  }
  ui.notice.textContent = '';
  weight = w;
  query();
}

/** Runs the current query and records its time; the next frame draws it. */
function query(): void {
  const s = state;
  queryPending = false;
  dirty = true;
  s.smoothed = { points: null, length: 0, note: '' };
  if (s.start === null || s.goal === null) {
    s.result = null;
    s.view.setExpanded(null);
    showResult();
    return;
  }
  const W = s.grid.width;
  const algorithm = ALGORITHMS[ui.algorithm.value] ?? ALGORITHMS.jps;
  const t0 = performance.now();
  try {
    s.result = algorithm.run(s.finder, s.start % W, (s.start / W) | 0, s.goal % W, (s.goal / W) | 0, options());
    s.queryError = '';
  } catch (e) {
    if (!(e instanceof TilenavError)) throw e;
    s.result = null;
    s.queryError = `${ui.algorithm.selectedOptions[0]?.textContent ?? ui.algorithm.value}: ${e.message}`;
  }
  s.lastQueryMs = performance.now() - t0;
  s.smoothed = smooth(s.start % W, (s.start / W) | 0, s.goal % W, (s.goal / W) | 0);
  if (ui.expanded.checked && s.result !== null) {
    s.finder.expandedInto(s.marks);
    s.view.setExpanded(s.marks);
  }
  showResult();
}

/** The any-angle finder of the map shown, kept across queries. */
let anyAngle: AnyAngleFinder | null = null;

/** The smoothed polyline of the current route in the selected mode. */
function smooth(sx: number, sy: number, gx: number, gy: number): Smoothed {
  const s = state;
  const o = options();
  const mode = ui.smoothing.value;
  const none = (note = ''): Smoothed => ({ points: null, length: 0, note });
  if (mode === 'none' || s.result?.status !== 'found') return none();
  try {
    if (mode === 'string') {
      const points = smoothPath(s.grid, s.result.cells, { layer: o.layer, movement: o.movement });
      return { points, length: polylineLength(points), note: '' };
    }
    if (o.movement !== 'octile') return none('any-angle needs octile movement');
    // One finder per map: a fresh one per query would allocate its scratch (20 bytes per cell) each time.
    if (anyAngle?.grid !== s.grid) anyAngle = new AnyAngleFinder(s.grid);
    const r = findAnyAnglePath(s.grid, sx, sy, gx, gy, { layer: o.layer, finder: anyAngle });
    return r.status === 'found' ? { points: r.points, length: polylineLength(r.points), note: '' } : none(`any-angle: ${r.status}`);
  } catch (e) {
    if (!(e instanceof TilenavError)) throw e;
    return none(e.message);
  }
}

function showResult(): void {
  const r = state.result;
  const rows: [string, string][] = [
    ['status', r?.status ?? (state.queryError || 'set start and goal')],
    ['cost', r && r.status === 'found' ? r.cost.toFixed(3) : '-'],
    ['steps', r && r.status === 'found' ? String(r.cells.length - 1) : '-'],
    ['expanded', r ? String(r.expanded) : '-'],
    ['smoothed', state.smoothed.points !== null ? `${state.smoothed.length.toFixed(3)} (${state.smoothed.points.length / 2} points)` : state.smoothed.note || '-'],
    ['query', `${state.lastQueryMs.toFixed(2)} ms`],
    ['frame', `${state.lastFrameMs.toFixed(2)} ms`],
  ];
  ui.result.innerHTML = rows.map(([k, v]) => `<div><span>${k}</span><b data-k="${k}">${v}</b></div>`).join('');
}

function updateStats(): void {
  const g = state.grid;
  const pct = (n: number, t: number) => `${((100 * n) / t).toFixed(1)}%`;
  ui.stats.innerHTML =
    `<div><span>size</span><b>${g.width} x ${g.height}</b></div><div><span>projection</span><b>${g.projection.spec.kind}</b></div>` +
    g
      .stats()
      .map((l) => `<div><span>${l.name}</span><b>${l.total}</b></div><div><span>&nbsp; navigable</span><b>${l.walkable} (${pct(l.walkable, l.total)})</b></div><div><span>&nbsp; blocked</span><b>${l.blocked} (${pct(l.blocked, l.total)})</b></div>`)
      .join('');
}

let unitsShownAt = 0;
let unitsWereMoving = false;

function frame(now: number): void {
  if (queryPending) query();
  if (state.units !== null) {
    let moved = false;
    try {
      moved = state.units.tick(now);
    } catch (e) {
      // The simulation refused something (a TilenavError): say so on the page and drop the units.
      ui.error.textContent = `units: ${e instanceof Error ? e.message : String(e)}`;
      state.units.dispose();
      state.units = null;
    }
    if (moved) dirty = true;
    // The panel follows the units a few times a second while they move, once more when they stop.
    if ((moved || unitsWereMoving) && now - unitsShownAt > 250) {
      showUnits();
      unitsWereMoving = moved;
    }
  }
  if (dirty) {
    dirty = false;
    const s = state;
    const t0 = performance.now();
    s.view.draw(ctx, s.result?.status === 'found' ? s.result.cells : null, s.start, s.goal, ui.expanded.checked && s.result !== null, s.smoothed.points);
    if (s.units !== null || box !== null) s.view.drawUnits(ctx, s.units?.frame() ?? EMPTY_UNITS, box);
    const t1 = performance.now();
    s.lastFrameMs = t1 - t0;
    if (inputAt >= 0) {
      s.lastInputToFrameMs = t1 - inputAt;
      frameLog.push({ queryMs: s.lastQueryMs, frameMs: s.lastFrameMs, inputToFrameMs: s.lastInputToFrameMs });
      if (frameLog.length > 1000) frameLog.shift();
      inputAt = -1;
    }
    const f = ui.result.querySelector('[data-k=frame]');
    if (f) f.textContent = `${s.lastFrameMs.toFixed(2)} ms`;
  }
  requestAnimationFrame(frame);
}

const EMPTY_UNITS = { count: 0, x: new Float64Array(0), y: new Float64Array(0), radius: new Float64Array(0), selected: new Uint8Array(0), routes: [] };

/** The units of the shown map, created on first use with the current layer and movement. */
function units(): Units {
  state.units ??= new Units(state.grid, Number(ui.layer.value), ui.movement.value as MovementName);
  return state.units;
}

/**
 * Rebuilds the units for a new layer or movement model (the system walks one of each): they
 * stand where they were (those on cells walkable in the new layer), orders forgotten.
 */
function rebuildUnits(): void {
  const old = state.units;
  if (old === null) return;
  const at = old.ids().map((i) => [Math.round(old.sys.x[i]), Math.round(old.sys.y[i])]);
  old.dispose();
  state.units = null;
  const u = units();
  for (const [x, y] of at) u.add(1, x, y);
  showUnits();
}

/** The cell units are added around: the one at the view centre (the map's middle when off the map). */
function spawnCell(): [number, number] {
  const s = state;
  return s.view.cellAt(screen.width / 2, screen.height / 2) ?? [s.grid.width >> 1, s.grid.height >> 1];
}

function addUnits(n: number, x?: number, y?: number): number[] {
  const [cx, cy] = x === undefined || y === undefined ? spawnCell() : [x, y];
  // Never on the route's markers, so both stay visible and clickable.
  const markers = [state.start, state.goal].filter((c): c is number => c !== null);
  const ids = units().add(n, cx, cy, markers);
  if (ids.length < n) ui.error.textContent = ids.length === 0 ? `no free walkable cell near (${cx}, ${cy}) for a unit` : `only ${ids.length} of ${n} units fit near (${cx}, ${cy})`;
  dirty = true;
  showUnits();
  return ids;
}

function orderUnits(x: number, y: number): string | null {
  const u = state.units;
  const o = u?.order(x, y) ?? null;
  state.view.orderTarget = o === null ? state.view.orderTarget : [x, y];
  dirty = true;
  showUnits();
  return o === null ? null : o.mode;
}

/** Selects the units whose centres lie in a screen rectangle, or the one under a click. */
function selectOnScreen(x0: number, y0: number, x1: number, y1: number): void {
  const u = state.units;
  if (u === null) return;
  u.selected.clear();
  const click = Math.abs(x1 - x0) < 4 && Math.abs(y1 - y0) < 4;
  let best = -1;
  let bestD = Infinity;
  for (const i of u.ids()) {
    const [sx, sy] = state.view.cellToScreen(u.sys.x[i], u.sys.y[i]);
    if (click) {
      const d = Math.hypot(sx - x0, sy - y0);
      const reach = Math.max(6, u.sys.radius[i] * state.view.unitPixels());
      if (d <= reach && d < bestD) {
        best = i;
        bestD = d;
      }
    } else if (sx >= Math.min(x0, x1) && sx <= Math.max(x0, x1) && sy >= Math.min(y0, y1) && sy <= Math.max(y0, y1)) u.selected.add(i);
  }
  if (best >= 0) u.selected.add(best);
  dirty = true;
  showUnits();
}

function showUnits(): void {
  unitsShownAt = performance.now();
  const u = state.units;
  const rows: [string, string][] = u === null
    ? [['units', '0']]
    : [
        ['units', String(u.size)],
        ['selected', String(u.selected.size)],
        ['moving', String(u.ids().filter((i) => u.busy(i)).length)],
        ['replans', String(u.sys.stats.replans)],
        ['step', `${u.lastStepMs.toFixed(2)} ms`],
      ];
  ui.units.innerHTML = rows.map(([k, v]) => `<div><span>${k}</span><b data-k="${k}">${v}</b></div>`).join('');
}

function resize(): void {
  const r = screen.getBoundingClientRect();
  const w = Math.max(1, Math.round(r.width));
  const h = Math.max(1, Math.round(r.height));
  if (screen.width !== w || screen.height !== h) {
    screen.width = w;
    screen.height = h;
  }
  dirty = true;
}

// ---- editing ----------------------------------------------------------------------------------

/** Paints one brush stamp centred on (x, y) with `tool` (wall, erase, terrain:NAME). */
function paint(x: number, y: number, tool = ui.tool.value): void {
  const g = state.grid;
  const b = Number(ui.brush.value) || 1;
  const x0 = Math.max(0, x - ((b - 1) >> 1));
  const y0 = Math.max(0, y - ((b - 1) >> 1));
  const w = Math.min(g.width, x0 + b) - x0;
  const h = Math.min(g.height, y0 + b) - y0;
  const layer = Number(ui.layer.value);
  if (tool === 'wall') g.fillRect(x0, y0, w, h, { walkable: false }, layer);
  else if (tool === 'erase') g.fillRect(x0, y0, w, h, { terrain: 'Ground' }, layer);
  else if (tool.startsWith('terrain:')) g.fillRect(x0, y0, w, h, { terrain: tool.slice(8) }, layer);
}

/** The cell the brush stroke reached last: the next pointer event paints on from there. */
let strokeAt: [number, number] = [0, 0];

/**
 * Paints every cell from the stroke's last cell to (x, y), in one change: pointer events come a
 * few cells apart on a quick drag, and a wall painted only where they landed had gaps.
 */
function paintStroke(x: number, y: number): void {
  const [x0, y0] = strokeAt;
  strokeAt = [x, y];
  state.grid.batch(() => forEachTouchedCell(x0, y0, x, y, (cx, cy) => paint(cx, cy)));
}

let lastPan: [number, number] = [0, 0];

function pointer(e: PointerEvent): [number, number] {
  const r = screen.getBoundingClientRect();
  return [e.clientX - r.left, e.clientY - r.top];
}

/** Moves the start or goal to (x, y); a blocked cell is refused with a message. Returns whether it moved. */
function setPoint(which: 'start' | 'goal', x: number, y: number): boolean {
  const layer = Number(ui.layer.value);
  if (!state.grid.isWalkable(x, y, layer)) {
    ui.notice.textContent = `(${x}, ${y}) is blocked on layer ${state.grid.layers[layer].name}: pick a walkable cell for the ${which}.`;
    dirty = true;
    return false;
  }
  ui.notice.textContent = '';
  state[which] = y * state.grid.width + x;
  query();
  return true;
}

screen.addEventListener('contextmenu', (e) => e.preventDefault());
screen.addEventListener('pointerdown', (e) => {
  inputAt = performance.now();
  const [sx, sy] = pointer(e);
  screen.setPointerCapture(e.pointerId);
  if (e.button !== 0) {
    drag = 'pan';
    lastPan = [sx, sy];
    rightDown = e.button === 2 && ui.tool.value === 'units' ? [sx, sy] : null;
    return;
  }
  if (ui.tool.value === 'units') {
    const c = state.view.cellAt(sx, sy);
    if (e.shiftKey) {
      if (c !== null) addUnits(1, c[0], c[1]);
      return;
    }
    drag = 'box';
    box = [sx, sy, sx, sy];
    return;
  }
  const c = state.view.cellAt(sx, sy);
  if (c === null) return;
  const i = c[1] * state.grid.width + c[0];
  if (ui.tool.value === 'tile-rule') {
    palette.ruleAtCell(c[0], c[1]);
    return;
  }
  if (ui.tool.value !== 'route') {
    drag = 'paint';
    strokeAt = c;
    paint(c[0], c[1]);
    updateStats();
    return;
  }
  if (i === state.start || i === state.goal) {
    drag = i === state.start ? 'start' : 'goal';
    return;
  }
  // A refused (blocked) cell leaves the turn: the next click still sets the same marker.
  if (setPoint(nextIsStart ? 'start' : 'goal', c[0], c[1])) nextIsStart = !nextIsStart;
});
screen.addEventListener('pointermove', (e) => {
  if (ui.tool.value === 'tile-rule') {
    const c = state.view.cellAt(...pointer(e));
    ui.hint.textContent = `${hintFor('tile-rule')} ${c === null ? '' : palette.describeAt(c[0], c[1])}`;
  }
  if (drag === null) return;
  const [sx, sy] = pointer(e);
  if (drag === 'box') {
    box![2] = sx;
    box![3] = sy;
    dirty = true;
    return;
  }
  if (drag === 'pan') {
    state.view.panX += sx - lastPan[0];
    state.view.panY += sy - lastPan[1];
    lastPan = [sx, sy];
    dirty = true;
    return;
  }
  const c = state.view.cellAt(sx, sy);
  if (c === null) return;
  inputAt = performance.now();
  if (drag === 'paint') paintStroke(c[0], c[1]);
  else if (c[1] * state.grid.width + c[0] !== state[drag]) setPoint(drag, c[0], c[1]);
});
screen.addEventListener('pointerup', (e) => {
  if (drag === 'paint') updateStats();
  if (drag === 'box' && box !== null) {
    selectOnScreen(box[0], box[1], box[2], box[3]);
    box = null;
  }
  if (rightDown !== null) {
    const [sx, sy] = pointer(e);
    const c = Math.hypot(sx - rightDown[0], sy - rightDown[1]) < 4 ? state.view.cellAt(sx, sy) : null;
    if (c !== null) orderUnits(c[0], c[1]);
    rightDown = null;
  }
  drag = null;
});
screen.addEventListener(
  'wheel',
  (e) => {
    e.preventDefault();
    const [sx, sy] = [e.offsetX, e.offsetY];
    const v = state.view;
    const f = Math.exp(-e.deltaY * 0.0015);
    v.panX = sx - (sx - v.panX) * f;
    v.panY = sy - (sy - v.panY) * f;
    v.zoom *= f;
    dirty = true;
  },
  { passive: false },
);

// ---- controls ---------------------------------------------------------------------------------

function loadBundled(id: string): void {
  const m = BUNDLED_MAPS.find((b) => b.id === id) ?? BUNDLED_MAPS[0];
  ui.map.value = m.id;
  show(m.id, m.load());
}

/** The files picked last (a folder, or a map with its tilesets and images); their maps are listed. */
let picked: File[] = [];
/** The value the map list showed before the last pick, to return to when the pick fails. */
let shownValue = '';

/**
 * Reads one picked map with the loader its extension names (the other picked files serve as its
 * tilesets and images); errors go to the page, naming the file, never to the console.
 */
async function loadPicked(file: File): Promise<void> {
  const loader = loaderFor(file.name);
  const name = pickedPath(file);
  try {
    if (loader === undefined) throw new TilenavError(`no loader for this file; expected ${FILE_LOADERS.flatMap((l) => l.extensions).join(', ')} (with ${COMPANION_EXTENSIONS.join(', ')} files beside a Tiled map)`, { file: name });
    const m = await loader.read(file, picked.filter((f) => f !== file));
    show(name, { grid: m.grid, movement: m.movement ?? movementFor(m.grid.projection), art: m.art, tiled: m.tiled });
    ui.map.value = `disk:${name}`;
  } catch (e) {
    ui.map.value = shownValue;
    ui.error.textContent = e instanceof TilenavError ? e.message : `${name}: ${e instanceof Error ? e.message : String(e)}`;
  }
  shownValue = ui.map.value;
}

/** Lists the picked maps under "From disk" and opens the first (Tiled maps first). */
function pick(files: File[]): void {
  shownValue = ui.map.value;
  // Tiled maps first: a folder's other files may carry a map extension (a LICENSE.map text).
  const tiled = (f: File) => (/\.tm[xj]$/i.test(f.name) ? 0 : 1);
  const maps = files.filter((f) => loaderFor(f.name) !== undefined).sort((a, b) => tiled(a) - tiled(b) || pickedPath(a).localeCompare(pickedPath(b)));
  if (maps.length === 0) {
    ui.error.textContent = `${files.map(pickedPath).join(', ')}: no loader for ${files.length === 1 ? 'this file' : 'these files'}; expected ${FILE_LOADERS.flatMap((l) => l.extensions).join(', ')} (with ${COMPANION_EXTENSIONS.join(', ')} files beside a Tiled map)`;
    return;
  }
  picked = files;
  diskGroup.replaceChildren();
  // Paths inside a picked folder start with the folder's name: it goes to the group's title, so
  // the options stay short enough to read whole.
  const paths = maps.map(pickedPath);
  const folder = paths.every((p) => p.includes('/')) ? paths[0].slice(0, paths[0].indexOf('/') + 1) : '';
  const common = folder !== '' && paths.every((p) => p.startsWith(folder)) ? folder : '';
  diskGroup.label = common === '' ? 'From disk' : `From disk: ${common}`;
  for (const f of maps) option(diskGroup, `disk:${pickedPath(f)}`, pickedPath(f).slice(common.length));
  void loadPicked(maps[0]);
}

ui.map.addEventListener('change', () => {
  const v = ui.map.value;
  if (!v.startsWith('disk:')) {
    loadBundled(v);
    shownValue = v;
    return;
  }
  const f = picked.find((p) => `disk:${pickedPath(p)}` === v);
  if (f !== undefined) void loadPicked(f);
});
for (const input of [ui.file, ui.folder]) {
  input.addEventListener('change', () => {
    const files = [...(input.files ?? [])];
    // Cleared so picking the same file again (after fixing it) loads it again.
    input.value = '';
    if (files.length > 0) pick(files);
  });
}
ui.tool.addEventListener('change', showHint);
ui.overlay.addEventListener('change', () => {
  state.view.overlayVisible = ui.overlay.checked;
  dirty = true;
});
ui.opacity.addEventListener('input', () => {
  state.view.overlayOpacity = Number(ui.opacity.value) / 100;
  dirty = true;
});
for (const el of [ui.algorithm, ui.movement, ui.expanded, ui.smoothing]) el.addEventListener('change', query);
ui.weight.addEventListener('change', checkWeight);
ui.movement.addEventListener('change', rebuildUnits);
$('add-units').addEventListener('click', () => addUnits(12));
$('clear-units').addEventListener('click', () => {
  state.units?.dispose();
  state.units = null;
  dirty = true;
  showUnits();
});
ui.layer.addEventListener('change', () => {
  rebuildUnits();
  state.view.layer = Number(ui.layer.value);
  state.view.redrawCells({ x: 0, y: 0, width: state.grid.width, height: state.grid.height });
  query();
});
$('fit').addEventListener('click', () => {
  state.view.fit(screen.width, screen.height);
  dirty = true;
});
$('clear').addEventListener('click', () => {
  state.start = state.goal = null;
  nextIsStart = true;
  query();
});
window.addEventListener('resize', resize);

loadBundled(new URLSearchParams(location.search).get('map') ?? BUNDLED_MAPS[0].id);
shownValue = ui.map.value;
requestAnimationFrame(frame);

(window as unknown as { __tilenav: PageApi }).__tilenav = pageApi({
  get state() {
    return state;
  },
  get drawn() {
    return !dirty && !queryPending && state.artReady;
  },
  get layer() {
    return Number(ui.layer.value);
  },
  screen,
  frameLog,
  markDirty: () => {
    dirty = true;
  },
  markInput: () => {
    inputAt = performance.now();
  },
  paint,
  query,
  load: loadBundled,
  addUnits,
  units,
  orderUnits,
  showUnits,
  palette,
});
