import { MOVEMENT_NAMES, Pathfinder, TilenavError, type FindPathOptions, type MovementName, type NavGrid, type PathResult } from 'tilenav';
import { OVERLAY_COLORS, OVERLAY_COST_BANDS, movementFor } from 'tilenav/render';
import { BUNDLED_MAPS, FILE_LOADERS, loaderFor, type DemoMap } from './maps.js';
import { GridView } from './view.js';

/**
 * Search algorithms the page offers: one line each. Dijkstra is A* with weight 0; jump point
 * search and the hierarchy add their lines when they land.
 */
const ALGORITHMS: Record<string, { label: string; run(f: Pathfinder, sx: number, sy: number, gx: number, gy: number, o: FindPathOptions): PathResult }> = {
  astar: { label: 'A*', run: (f, sx, sy, gx, gy, o) => f.findPath(sx, sy, gx, gy, { ...o, algorithm: 'astar' }) },
  dijkstra: { label: 'Dijkstra', run: (f, sx, sy, gx, gy, o) => f.findPath(sx, sy, gx, gy, { ...o, weight: 0, algorithm: 'astar' }) },
  // 'auto' rather than 'jps': a layer with terrain costs (or hex movement) falls back to A*.
  jps: { label: 'Jump point search (auto)', run: (f, sx, sy, gx, gy, o) => f.findPath(sx, sy, gx, gy, { ...o, algorithm: 'auto' }) },
};

/** Path smoothing modes; hidden until the smoothing module (issue 5) lands and adds its entries. */
const SMOOTHING: Record<string, string> = { none: 'none' };

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
  lastQueryMs: number;
  lastFrameMs: number;
  /** From an input event (paint, drag, control) to the end of the frame that shows its result. */
  lastInputToFrameMs: number;
  unsubscribe: () => void;
}
let state: State;
let drag: 'start' | 'goal' | 'paint' | 'pan' | null = null;
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
for (const m of MOVEMENT_NAMES) option(ui.movement, m, m);
for (const [id, label] of Object.entries(SMOOTHING)) if (id !== 'none') option(ui.smoothing, id, label);
$('smoothing-row').hidden = Object.keys(SMOOTHING).length <= 1;
ui.file.accept = FILE_LOADERS.flatMap((l) => l.extensions).join(',');
$('legend').innerHTML = [
  [OVERLAY_COLORS.normal, `cost <= ${OVERLAY_COST_BANDS.normal}`],
  [OVERLAY_COLORS.slow, `cost <= ${OVERLAY_COST_BANDS.slow}`],
  [OVERLAY_COLORS.verySlow, `cost > ${OVERLAY_COST_BANDS.slow}`],
  [OVERLAY_COLORS.blocked, 'blocked'],
  [OVERLAY_COLORS.expanded, 'expanded'],
  [OVERLAY_COLORS.path, 'path'],
  [OVERLAY_COLORS.start, 'start'],
  [OVERLAY_COLORS.goal, 'goal'],
]
  .map(([c, t]) => `<div><span style="background:rgb(${c})"></span>${t}</div>`)
  .join('');

/** Shows a map: a new view, finder and scratch; the old grid's listener is dropped. */
function show(name: string, m: DemoMap): void {
  state?.unsubscribe();
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
    lastQueryMs: 0,
    lastFrameMs: 0,
    lastInputToFrameMs: 0,
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
  option(ui.tool, 'wall', 'Wall');
  option(ui.tool, 'erase', 'Erase (Ground)');
  for (const t of grid.terrain.entries()) if (t.walkable && t.name !== 'Ground') option(ui.tool, `terrain:${t.name}`, `${t.name} (cost ${t.cost})`);
  ui.error.textContent = '';
  resize();
  view.fit(screen.width, screen.height);
  query();
  updateStats();
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
  if (s.start === null || s.goal === null) {
    s.result = null;
    s.view.setExpanded(null);
    showResult();
    return;
  }
  const W = s.grid.width;
  const algorithm = ALGORITHMS[ui.algorithm.value] ?? ALGORITHMS.astar;
  const t0 = performance.now();
  s.result = algorithm.run(s.finder, s.start % W, (s.start / W) | 0, s.goal % W, (s.goal / W) | 0, options());
  s.lastQueryMs = performance.now() - t0;
  if (ui.expanded.checked) {
    s.finder.expandedInto(s.marks);
    s.view.setExpanded(s.marks);
  }
  showResult();
}

function showResult(): void {
  const r = state.result;
  const rows: [string, string][] = [
    ['status', r?.status ?? 'set start and goal'],
    ['cost', r && r.status === 'found' ? r.cost.toFixed(3) : '-'],
    ['steps', r && r.status === 'found' ? String(r.cells.length - 1) : '-'],
    ['expanded', r ? String(r.expanded) : '-'],
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

function frame(): void {
  if (queryPending) query();
  if (dirty) {
    dirty = false;
    const s = state;
    const t0 = performance.now();
    s.view.draw(ctx, s.result?.status === 'found' ? s.result.cells : null, s.start, s.goal, ui.expanded.checked && s.result !== null);
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
screen.addEventListener('pointerup', () => {
  if (drag === 'paint') updateStats();
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

/** Reads a map file with the loader its extension names; errors go to the page, not the console. */
async function loadFile(file: File): Promise<void> {
  const loader = loaderFor(file.name);
  try {
    if (loader === undefined) throw new TilenavError(`no loader for this file; expected ${FILE_LOADERS.flatMap((l) => l.extensions).join(', ')}`, { file: file.name });
    const grid = await loader.read(file);
    show(file.name, { grid, movement: movementFor(grid.projection) });
  } catch (e) {
    if (!(e instanceof TilenavError)) throw e;
    ui.error.textContent = e.message;
  }
}

ui.map.addEventListener('change', () => loadBundled(ui.map.value));
ui.file.addEventListener('change', () => {
  const f = ui.file.files?.[0];
  if (f) void loadFile(f);
});
for (const el of [ui.algorithm, ui.movement, ui.weight, ui.expanded, ui.smoothing]) el.addEventListener('change', query);
ui.layer.addEventListener('change', () => {
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
   * intervals and the draw times, to measure the frame rate on big maps.
   */
  measureFrames(ms: number): Promise<{ intervals: number[]; draws: number[] }> {
    return new Promise((resolve) => {
      const intervals: number[] = [];
      const draws: number[] = [];
      const end = performance.now() + ms;
      let last = -1;
      const tick = (t: number) => {
        if (last >= 0) {
          intervals.push(t - last);
          draws.push(state.lastFrameMs);
        }
        last = t;
        state.view.panX += 0.25;
        dirty = true;
        if (t < end) requestAnimationFrame(tick);
        else resolve({ intervals, draws });
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
};
(window as unknown as { __tilenav: typeof api }).__tilenav = api;
