import { MOVEMENT_NAMES, Pathfinder, TilenavError, type FindPathOptions, type MovementName, type NavGrid, type PathResult } from 'tilenav';
import { AnyAngleFinder, findAnyAnglePath, polylineLength, smoothPath } from 'tilenav/path';
import { AGENT_UNREACHABLE } from 'tilenav/agents';
import { OVERLAY_COLORS, OVERLAY_COST_BANDS, movementFor } from 'tilenav/render';
import { BUNDLED_MAPS, COMPANION_EXTENSIONS, FILE_LOADERS, loaderFor, type DemoMap } from './maps.js';
import { Units } from './units.js';
import { GridView } from './view.js';

/**
 * Search algorithms the page offers, one line per FindPathOptions.algorithm (Dijkstra is A* with
 * weight 0). The strict ones (jps, jps+, hpa) refuse layers and models they do not support: the
 * page shows their message as the query's status.
 */
const ALGORITHMS: Record<string, { label: string; run(f: Pathfinder, sx: number, sy: number, gx: number, gy: number, o: FindPathOptions): PathResult }> = {
  astar: { label: 'A*', run: (f, sx, sy, gx, gy, o) => f.findPath(sx, sy, gx, gy, { ...o, algorithm: 'astar' }) },
  dijkstra: { label: 'Dijkstra', run: (f, sx, sy, gx, gy, o) => f.findPath(sx, sy, gx, gy, { ...o, weight: 0, algorithm: 'astar' }) },
  // 'auto' rather than 'jps': a layer with terrain costs (or hex movement) falls back to A*.
  jps: { label: 'Jump point search (auto)', run: (f, sx, sy, gx, gy, o) => f.findPath(sx, sy, gx, gy, { ...o, algorithm: 'auto' }) },
  jpsStrict: { label: 'JPS (uniform cost only)', run: (f, sx, sy, gx, gy, o) => f.findPath(sx, sy, gx, gy, { ...o, algorithm: 'jps' }) },
  jpsPlus: { label: 'JPS+ (octile, uniform cost)', run: (f, sx, sy, gx, gy, o) => f.findPath(sx, sy, gx, gy, { ...o, algorithm: 'jps+' }) },
  hpa: { label: 'Hierarchy (HPA*, near-optimal)', run: (f, sx, sy, gx, gy, o) => f.findPath(sx, sy, gx, gy, { ...o, algorithm: 'hpa' }) },
};

/** Path smoothing modes: the grid path as is, string pulled (smoothPath), or any-angle (Theta*, octile only). */
const SMOOTHING: Record<string, string> = { none: 'none', string: 'string pulling', anyangle: 'any-angle (octile)' };

interface Smoothed {
  /** Waypoints [x0, y0, ...] in cell coordinates, or null when the mode does not apply. */
  points: Float64Array | null;
  length: number;
  /** Why there is no polyline (e.g. any-angle on a non-octile model). */
  note: string;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const screen = $<HTMLCanvasElement>('screen');
const ctx = screen.getContext('2d')!;
const ui = {
  map: $<HTMLSelectElement>('map'),
  file: $<HTMLInputElement>('file'),
  error: $<HTMLDivElement>('error'),
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

interface State {
  mapName: string;
  grid: NavGrid;
  finder: Pathfinder;
  view: GridView;
  marks: Uint8Array;
  start: number | null;
  goal: number | null;
  result: PathResult | null;
  smoothed: Smoothed;
  /** Why the last query was refused (an algorithm that does not apply), or ''. */
  queryError: string;
  lastQueryMs: number;
  lastFrameMs: number;
  /** From an input event (paint, drag, control) to the end of the frame that shows its result. */
  lastInputToFrameMs: number;
  /** The units on this map and layer (created with the first one). */
  units: Units | null;
  unsubscribe: () => void;
}
let state: State;
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

function option(sel: HTMLSelectElement, value: string, label: string): void {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = label;
  sel.append(o);
}

for (const m of BUNDLED_MAPS) option(ui.map, m.id, m.label);
for (const [id, a] of Object.entries(ALGORITHMS)) option(ui.algorithm, id, a.label);
// The library's default search (auto: JPS where it applies, A* elsewhere), as in the CLI.
ui.algorithm.value = 'jps';
for (const m of MOVEMENT_NAMES) option(ui.movement, m, m);
for (const [id, label] of Object.entries(SMOOTHING)) if (id !== 'none') option(ui.smoothing, id, label);
$('smoothing-row').hidden = Object.keys(SMOOTHING).length <= 1;
ui.file.accept = [...FILE_LOADERS.flatMap((l) => l.extensions), ...COMPANION_EXTENSIONS].join(',');
ui.file.multiple = true;
$('legend').innerHTML = [
  [OVERLAY_COLORS.normal, `cost <= ${OVERLAY_COST_BANDS.normal}`],
  [OVERLAY_COLORS.slow, `cost <= ${OVERLAY_COST_BANDS.slow}`],
  [OVERLAY_COLORS.verySlow, `cost > ${OVERLAY_COST_BANDS.slow}`],
  [OVERLAY_COLORS.blocked, 'blocked'],
  [OVERLAY_COLORS.expanded, 'expanded'],
  [OVERLAY_COLORS.path, 'path'],
  [OVERLAY_COLORS.start, 'start'],
  [OVERLAY_COLORS.goal, 'goal'],
  [[255, 167, 38], 'smoothed path'],
  [[232, 232, 240], 'unit'],
  [[68, 204, 255], 'selected unit'],
]
  .map(([c, t]) => `<div><span style="background:rgb(${c})"></span>${t}</div>`)
  .join('');

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
    unsubscribe: grid.onChange((c) => {
      if (c.layer === state.view.layer) state.view.redrawCells(c);
      // A brush stroke changes the grid many times between two frames: search once per frame.
      queryPending = true;
      dirty = true;
    }),
  };
  nextIsStart = true;
  ui.movement.value = m.movement;
  ui.layer.replaceChildren();
  grid.layers.forEach((l, i) => option(ui.layer, String(i), l.name));
  ui.tool.replaceChildren();
  option(ui.tool, 'route', 'Route (start / goal)');
  option(ui.tool, 'units', 'Units (select, right-click to move)');
  option(ui.tool, 'wall', 'Wall');
  option(ui.tool, 'erase', 'Erase (Ground)');
  for (const t of grid.terrain.entries()) if (t.walkable && t.name !== 'Ground') option(ui.tool, `terrain:${t.name}`, `${t.name} (cost ${t.cost})`);
  ui.error.textContent = '';
  resize();
  view.fit(screen.width, screen.height);
  query();
  updateStats();
  showUnits();
}

function options(): FindPathOptions {
  const weight = Number(ui.weight.value);
  return { layer: Number(ui.layer.value), movement: ui.movement.value as MovementName, weight: Number.isFinite(weight) && weight >= 0 ? weight : 1 };
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

/** The cell units are added around: the route's start if set, else the cell at the view centre. */
function spawnCell(): [number, number] {
  const s = state;
  if (s.start !== null) return [s.start % s.grid.width, (s.start / s.grid.width) | 0];
  return s.view.cellAt(screen.width / 2, screen.height / 2) ?? [s.grid.width >> 1, s.grid.height >> 1];
}

function addUnits(n: number, x?: number, y?: number): number[] {
  const [cx, cy] = x === undefined || y === undefined ? spawnCell() : [x, y];
  const ids = units().add(n, cx, cy);
  if (ids.length < n) ui.error.textContent = ids.length === 0 ? `no free walkable cell near (${cx}, ${cy}) for a unit` : `only ${ids.length} of ${n} units fit near (${cx}, ${cy})`;
  dirty = true;
  showUnits();
  return ids;
}

function orderUnits(x: number, y: number): string | null {
  const u = state.units;
  const o = u?.order(x, y) ?? null;
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

let lastPan: [number, number] = [0, 0];

function pointer(e: PointerEvent): [number, number] {
  const r = screen.getBoundingClientRect();
  return [e.clientX - r.left, e.clientY - r.top];
}

function setPoint(which: 'start' | 'goal', x: number, y: number): void {
  if (!state.grid.isWalkable(x, y, Number(ui.layer.value))) return;
  state[which] = y * state.grid.width + x;
  query();
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
  if (ui.tool.value !== 'route') {
    drag = 'paint';
    paint(c[0], c[1]);
    updateStats();
    return;
  }
  if (i === state.start || i === state.goal) {
    drag = i === state.start ? 'start' : 'goal';
    return;
  }
  setPoint(nextIsStart ? 'start' : 'goal', c[0], c[1]);
  nextIsStart = !nextIsStart;
});
screen.addEventListener('pointermove', (e) => {
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
  if (drag === 'paint') paint(c[0], c[1]);
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

/**
 * Reads the picked map with the loader its extension names (the other picked files serve as its
 * tilesets); errors go to the page, naming the file, never to the console.
 */
async function loadFiles(files: readonly File[]): Promise<void> {
  const file = files.find((f) => loaderFor(f.name) !== undefined) ?? files[0];
  const loader = loaderFor(file.name);
  try {
    if (loader === undefined) throw new TilenavError(`no loader for this file; expected ${FILE_LOADERS.flatMap((l) => l.extensions).join(', ')} (with ${COMPANION_EXTENSIONS.join(', ')} tilesets beside a Tiled map)`, { file: file.name });
    const m = await loader.read(file, files.filter((f) => f !== file));
    show(file.name, { grid: m.grid, movement: m.movement ?? movementFor(m.grid.projection) });
  } catch (e) {
    ui.error.textContent = e instanceof TilenavError ? e.message : `${file.name}: ${e instanceof Error ? e.message : String(e)}`;
  }
}

ui.map.addEventListener('change', () => loadBundled(ui.map.value));
ui.file.addEventListener('change', () => {
  const files = [...(ui.file.files ?? [])];
  // Cleared so picking the same file again (after fixing it) loads it again.
  ui.file.value = '';
  if (files.length > 0) void loadFiles(files);
});
for (const el of [ui.algorithm, ui.movement, ui.weight, ui.expanded, ui.smoothing]) el.addEventListener('change', query);
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
requestAnimationFrame(frame);

/** The page's state for tests and the console. Cells are [x, y]. */
const api = {
  get map() {
    return state.mapName;
  },
  get size() {
    return [state.grid.width, state.grid.height];
  },
  get start() {
    return state.start === null ? null : [state.start % state.grid.width, (state.start / state.grid.width) | 0];
  },
  get goal() {
    return state.goal === null ? null : [state.goal % state.grid.width, (state.goal / state.grid.width) | 0];
  },
  get status() {
    return state.result?.status ?? null;
  },
  get cost() {
    return state.result?.cost ?? null;
  },
  get expanded() {
    return state.result?.expanded ?? null;
  },
  /** The smoothed polyline ([x, y] in cell coordinates) and its length, or the reason there is none. */
  get smoothed() {
    const p = state.smoothed.points;
    const points: [number, number][] = [];
    if (p !== null) for (let k = 0; k < p.length; k += 2) points.push([p[k], p[k + 1]]);
    return { points, length: state.smoothed.length, note: state.smoothed.note };
  },
  get path() {
    const r = state.result;
    return r ? Array.from(r.cells, (i) => [i % state.grid.width, (i / state.grid.width) | 0]) : [];
  },
  get stats() {
    return state.grid.stats();
  },
  get lastQueryMs() {
    return state.lastQueryMs;
  },
  get lastFrameMs() {
    return state.lastFrameMs;
  },
  get lastInputToFrameMs() {
    return state.lastInputToFrameMs;
  },
  frameLog,
  /** True once the last change has been searched and drawn. */
  get drawn() {
    return !dirty && !queryPending;
  },
  /**
   * Redraws every frame for `ms` milliseconds (as while panning) and resolves with the frame
   * intervals, the draw times and the units' simulation time per frame, to measure the frame
   * rate on big maps and with many units.
   */
  measureFrames(ms: number): Promise<{ intervals: number[]; draws: number[]; unitSteps: number[] }> {
    return new Promise((resolve) => {
      const intervals: number[] = [];
      const draws: number[] = [];
      const unitSteps: number[] = [];
      const end = performance.now() + ms;
      let last = -1;
      const tick = (t: number) => {
        if (last >= 0) {
          intervals.push(t - last);
          draws.push(state.lastFrameMs);
          unitSteps.push(state.units?.lastStepMs ?? 0);
        }
        last = t;
        state.view.panX += 0.25;
        dirty = true;
        if (t < end) requestAnimationFrame(tick);
        else resolve({ intervals, draws, unitSteps });
      };
      requestAnimationFrame(tick);
    });
  },
  isWalkable: (x: number, y: number) => state.grid.isWalkable(x, y, Number(ui.layer.value)),
  /** Page coordinates of a cell's centre, for a real mouse click. */
  cellToClient(x: number, y: number) {
    const [sx, sy] = state.view.cellToScreen(x, y);
    const r = screen.getBoundingClientRect();
    return { x: r.left + sx, y: r.top + sy };
  },
  /** Paints as the mouse would (tool: wall, erase, terrain:NAME) and times it like a mouse paint. */
  paint(x: number, y: number, tool?: string) {
    inputAt = performance.now();
    paint(x, y, tool);
  },
  /** Sets start and goal (cells) and runs the query. */
  route(sx: number, sy: number, gx: number, gy: number) {
    inputAt = performance.now();
    state.start = sy * state.grid.width + sx;
    state.goal = gy * state.grid.width + gx;
    query();
  },
  load: loadBundled,
  /** Units: [id, x, y, moving, unreachable] per active unit (cell coordinates). */
  get units() {
    const u = state.units;
    return u === null ? [] : u.ids().map((i) => ({ id: i, x: u.sys.x[i], y: u.sys.y[i], moving: u.busy(i), unreachable: (u.sys.flags[i] & AGENT_UNREACHABLE) !== 0 }));
  },
  get selected() {
    return state.units === null ? [] : [...state.units.selected].sort((a, b) => a - b);
  },
  /** The navigation system's counters (plans, replans, steps, planMs, ...). */
  get unitStats() {
    return state.units === null ? null : { ...state.units.sys.stats };
  },
  get lastUnitsStepMs() {
    return state.units?.lastStepMs ?? 0;
  },
  /** Adds n units around (x, y) (default: the start, else the view centre); returns their ids. */
  addUnits,
  selectUnits(ids: number[]) {
    const u = units();
    u.selected.clear();
    for (const i of ids) if (u.sys.has(i)) u.selected.add(i);
    dirty = true;
    showUnits();
  },
  /** Orders the selection to cell (x, y) as one group; returns the group mode, null without a selection. */
  orderUnits,
  /** Remaining waypoints of a unit ([x, y] cells), empty without a path. */
  unitPath(id: number) {
    const p = state.units?.sys.path(id) ?? null;
    const k = state.units?.sys.waypointIndex[id] ?? 0;
    const out: [number, number][] = [];
    if (p !== null) for (let j = k * 2; j < p.length; j += 2) out.push([p[j], p[j + 1]]);
    return out;
  },
  /** Stops (or resumes) real-time stepping, so only stepUnits advances the units: runs repeat exactly. */
  pauseUnits(paused: boolean) {
    units().paused = paused;
  },
  /** Runs n fixed simulation steps at once (faster than real time, for tests). */
  stepUnits(n: number) {
    state.units?.step(n);
    dirty = true;
    showUnits();
  },
  /** Screen position of a unit (for a real mouse drag box around units). */
  unitToClient(id: number) {
    const u = state.units!;
    const [sx, sy] = state.view.cellToScreen(u.sys.x[id], u.sys.y[id]);
    const r = screen.getBoundingClientRect();
    return { x: r.left + sx, y: r.top + sy };
  },
};
(window as unknown as { __tilenav: typeof api }).__tilenav = api;
