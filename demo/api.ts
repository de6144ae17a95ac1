/**
 * The page's state and actions as `window.__tilenav`, for the end-to-end tests and the console.
 * Cells are [x, y].
 */
import type { NavGrid, Pathfinder, PathResult } from 'tilenav';
import { AGENT_UNREACHABLE } from 'tilenav/agents';
import type { Smoothed } from './panel.js';
import type { Units } from './units.js';
import { tileButtonCentre, type TilePalette } from './palette.js';
import type { GridView } from './view.js';

/** Everything the page knows about the map in view. */
export interface State {
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
  /** The map's tiles are drawn (or it has none to draw). */
  artReady: boolean;
  unsubscribe: () => void;
}

/** What the API reads and calls in the page. */
export interface Page {
  readonly state: State;
  /** True once the last change has been searched and drawn (and the map's tiles, when it has some). */
  readonly drawn: boolean;
  /** The layer selected. */
  readonly layer: number;
  readonly screen: HTMLCanvasElement;
  readonly frameLog: { queryMs: number; frameMs: number; inputToFrameMs: number }[];
  markDirty(): void;
  /** Starts the input-to-frame clock, as a mouse event does. */
  markInput(): void;
  paint(x: number, y: number, tool?: string): void;
  query(): void;
  load(id: string): void;
  addUnits(n: number, x?: number, y?: number): number[];
  units(): Units;
  orderUnits(x: number, y: number): string | null;
  showUnits(): void;
  palette: TilePalette;
  startCrowd(scene: string, avoidance: boolean): number;
  crowdFigures(): { units: number; walking: number; stepMs: number; meanStepMs: number; meanFrameMs: number; meanGapMs: number } | null;
}

export type PageApi = ReturnType<typeof pageApi>;

/** The API over a page. */
export function pageApi(p: Page) {
  const screen = p.screen;
  return {
  get map() {
    return p.state.mapName;
  },
  get size() {
    return [p.state.grid.width, p.state.grid.height];
  },
  get start() {
    return p.state.start === null ? null : [p.state.start % p.state.grid.width, (p.state.start / p.state.grid.width) | 0];
  },
  get goal() {
    return p.state.goal === null ? null : [p.state.goal % p.state.grid.width, (p.state.goal / p.state.grid.width) | 0];
  },
  get status() {
    return p.state.result?.status ?? null;
  },
  get cost() {
    return p.state.result?.cost ?? null;
  },
  get expanded() {
    return p.state.result?.expanded ?? null;
  },
  /** The smoothed polyline ([x, y] in cell coordinates) and its length, or the reason there is none. */
  get smoothed() {
    const pts = p.state.smoothed.points;
    const points: [number, number][] = [];
    if (pts !== null) for (let k = 0; k < pts.length; k += 2) points.push([pts[k], pts[k + 1]]);
    return { points, length: p.state.smoothed.length, note: p.state.smoothed.note };
  },
  get path() {
    const r = p.state.result;
    return r ? Array.from(r.cells, (i) => [i % p.state.grid.width, (i / p.state.grid.width) | 0]) : [];
  },
  get stats() {
    return p.state.grid.stats();
  },
  get lastQueryMs() {
    return p.state.lastQueryMs;
  },
  get lastFrameMs() {
    return p.state.lastFrameMs;
  },
  get lastInputToFrameMs() {
    return p.state.lastInputToFrameMs;
  },
  frameLog: p.frameLog,
  /** True once the last change has been searched and drawn (and the map's tiles, when it has some). */
  get drawn() {
    return p.drawn;
  },
  /** Whether the map's own tiles are drawn under the overlay. */
  get hasArt() {
    return p.state.view.hasArt;
  },
  /** The map's box on screen, relative to the canvas: [x0, y0, x1, y1]. */
  get screenExtent() {
    return p.state.view.screenExtent();
  },
  /** Zooms by `f` about the canvas centre (as the wheel does about the pointer). */
  zoomBy(f: number) {
    const v = p.state.view;
    v.panX = screen.width / 2 - (screen.width / 2 - v.panX) * f;
    v.panY = screen.height / 2 - (screen.height / 2 - v.panY) * f;
    v.zoom *= f;
    p.markDirty();
  },
  /** Centres the view on a cell. */
  centreOn(x: number, y: number) {
    const [sx, sy] = p.state.view.cellToScreen(x, y);
    p.state.view.panX += screen.width / 2 - sx;
    p.state.view.panY += screen.height / 2 - sy;
    p.markDirty();
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
          draws.push(p.state.lastFrameMs);
          unitSteps.push(p.state.units?.lastStepMs ?? 0);
        }
        last = t;
        p.state.view.panX += 0.25;
        p.markDirty();
        if (t < end) requestAnimationFrame(tick);
        else resolve({ intervals, draws, unitSteps });
      };
      requestAnimationFrame(tick);
    });
  },
  isWalkable: (x: number, y: number) => p.state.grid.isWalkable(x, y, p.layer),
  /** Page coordinates of a cell's centre, for a real mouse click. */
  cellToClient(x: number, y: number) {
    const [sx, sy] = p.state.view.cellToScreen(x, y);
    const r = screen.getBoundingClientRect();
    return { x: r.left + sx, y: r.top + sy };
  },
  /** Paints as the mouse would (tool: wall, erase, terrain:NAME) and times it like a mouse paint. */
  paint(x: number, y: number, tool?: string) {
    p.markInput();
    p.paint(x, y, tool);
  },
  /** Sets start and goal (cells) and runs the query. */
  route(sx: number, sy: number, gx: number, gy: number) {
    p.markInput();
    p.state.start = sy * p.state.grid.width + sx;
    p.state.goal = gy * p.state.grid.width + gx;
    p.query();
  },
  load: (id: string) => p.load(id),
  /** Units: [id, x, y, moving, unreachable] per active unit (cell coordinates). */
  get units() {
    const u = p.state.units;
    return u === null ? [] : u.ids().map((i) => ({ id: i, x: u.sys.x[i], y: u.sys.y[i], moving: u.busy(i), unreachable: (u.sys.flags[i] & AGENT_UNREACHABLE) !== 0 }));
  },
  get selected() {
    return p.state.units === null ? [] : [...p.state.units.selected].sort((a, b) => a - b);
  },
  /** The navigation system's counters (plans, replans, steps, planMs, ...). */
  get unitStats() {
    return p.state.units === null ? null : { ...p.state.units.sys.stats };
  },
  get lastUnitsStepMs() {
    return p.state.units?.lastStepMs ?? 0;
  },
  /** Adds n units around (x, y) (default: the start, else the view centre); returns their ids. */
  addUnits: (n: number, x?: number, y?: number) => p.addUnits(n, x, y),
  selectUnits(ids: number[]) {
    const u = p.units();
    u.selected.clear();
    for (const i of ids) if (u.sys.has(i)) u.selected.add(i);
    p.markDirty();
    p.showUnits();
  },
  /** Orders the selection to cell (x, y) as one group; returns the group mode, null without a selection. */
  orderUnits: (x: number, y: number) => p.orderUnits(x, y),
  /** Remaining waypoints of a unit ([x, y] cells), empty without a path. */
  unitPath(id: number) {
    const path = p.state.units?.sys.path(id) ?? null;
    const k = p.state.units?.sys.waypointIndex[id] ?? 0;
    const out: [number, number][] = [];
    if (path !== null) for (let j = k * 2; j < path.length; j += 2) out.push([path[j], path[j + 1]]);
    return out;
  },
  /** Stops (or resumes) real-time stepping, so only stepUnits advances the units: runs repeat exactly. */
  pauseUnits(paused: boolean) {
    p.units().paused = paused;
  },
  /** Runs n fixed simulation steps at once (faster than real time, for tests). */
  stepUnits(n: number) {
    p.state.units?.step(n);
    p.markDirty();
    p.showUnits();
  },
  /** Starts a crowd scene ('crossing' or 'circle') with avoidance 'orca' (true) or 'none'; returns the number of units. */
  startCrowd: (scene: string, avoidance: boolean) => p.startCrowd(scene, avoidance),
  /** The running crowd scene's figures (units, walking, step and frame times in ms), or null. */
  get crowd() {
    return p.crowdFigures();
  },
  /** The collision rules picked in the Tiles panel, as a rules file holds them. */
  get rules() {
    return structuredClone(p.palette.rules);
  },
  /** The Tiled map's tilesets: name, firstgid, tile grid (tileWidth, columns, margin, spacing), image. */
  get tilesets() {
    return p.palette.tilesets;
  },
  /** The tile drawn on top at a cell: { tileset, id } (its local id), or null. */
  tileAt: (x: number, y: number) => p.palette.tileAt(x, y),
  /** Page coordinates of a used tile's button in the palette (scrolled into view), for a real click. */
  tileButton: (tileset: string, id: number) => tileButtonCentre(tileset, id),
  /** Screen position of a unit (for a real mouse drag box around units). */
  unitToClient(id: number) {
    const u = p.state.units!;
    const [sx, sy] = p.state.view.cellToScreen(u.sys.x[id], u.sys.y[id]);
    const r = screen.getBoundingClientRect();
    return { x: r.left + sx, y: r.top + sy };
  },

  };
}
