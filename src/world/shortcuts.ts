/**
 * Shortcuts a grid change opened: which stored paths are now much longer than the best route,
 * because a wall was removed or cells got cheaper somewhere they could pass. A cheap bound picks
 * the candidates; a bounded search confirms each.
 */
import { TilenavError, describe } from '../errors.js';
import type { CellRect, GridChange, NavGrid, SearchView } from '../grid/navgrid.js';
import { segmentCost } from '../path/los.js';
import { movementModel, stepDistance, type MovementModel, type MovementName } from '../search/movement.js';
import { Pathfinder } from '../search/pathfinder.js';

/** What {@link shortcutPaths} and `pathsAffectedBy(..., { shortcuts })` need to judge a shortcut. */
export interface ShortcutOptions {
  /** The grid the paths run on, as it is after the change. */
  grid: NavGrid;
  /**
   * A path is flagged when the best route from its first to its last cell costs less than its own
   * cost divided by this: 1.2 flags paths more than 20 % dearer than needed. A finite number >= 1.
   */
  factor: number;
  /** Layer index or name the paths run on. @default 0 */
  layer?: number | string;
  /** The movement model the paths were planned with. @default the grid's own, `grid.movement` */
  movement?: MovementName;
  /**
   * Expansions the confirming search may take per candidate path; a candidate whose search runs
   * out is not flagged. A whole number >= 1, or Infinity. @default 4096
   */
  maxIterations?: number;
  /**
   * A Pathfinder over `grid` for the confirming searches, reused across calls; without one each
   * call that has a candidate to confirm makes its own (about 20 bytes per cell).
   */
  pathfinder?: Pathfinder;
}

/** Default expansions of one confirming search. */
export const SHORTCUT_SEARCH_LIMIT = 4096;

/**
 * Judges one path at a time against the rectangles a change opened. The cheap test, per
 * rectangle R holding a walkable cell: the model's step distance (octile, Manhattan, hex) from the
 * path's start to R plus from R to its goal (for hex and staggered models, start to goal alone:
 * the nearest cell of a rectangle is not where its box clamps), times the layer's smallest cost, is
 * a lower bound on any route through R. Only when the path costs more than `factor` times that
 * bound does an A* search (at most `maxIterations` expansions, without the component labels,
 * which may not have seen the change yet) find the best route; the path is flagged when it costs
 * more than `factor` times that. @internal
 */
export class ShortcutCheck {
  readonly factor: number;
  private readonly grid: NavGrid;
  private readonly layer: number;
  private readonly model: MovementModel;
  private readonly maxIterations: number;
  private finder: Pathfinder | null;
  private rects: CellRect[] = [];

  /** `finder`: a Pathfinder over `grid` to search with; null makes one on the first search. */
  constructor(grid: NavGrid, factor: number, layer: number, movement: MovementName, maxIterations: number, finder: Pathfinder | null) {
    this.grid = grid;
    this.factor = factor;
    this.layer = layer;
    this.model = movementModel(movement);
    this.maxIterations = maxIterations;
    this.finder = finder;
  }

  /** The rectangles to judge paths against: those of `rects` with a walkable cell now. O(their area) at worst. */
  setRects(rects: readonly CellRect[]): void {
    const walk = this.grid.layers[this.layer].walkable;
    const w = this.grid.width;
    this.rects = rects.filter((r) => {
      for (let y = r.y; y < r.y + r.height; y++) for (let i = y * w + r.x, e = i + r.width; i < e; i++) if (walk[i] === 1) return true;
      return false;
    });
  }

  /** Whether any rectangle is left to judge against. */
  get active(): boolean {
    return this.rects.length > 0;
  }

  /**
   * Whether the way from cell (sx, sy) to cell (tx, ty), which costs `cost` now, is more than
   * `factor` times dearer than the best route, where a route through an opened rectangle might
   * be that much cheaper.
   */
  flags(sx: number, sy: number, tx: number, ty: number, cost: number): boolean {
    if (!(cost > 0) || this.rects.length === 0) return false;
    const m = this.model;
    const square = m.heuristic === 'octile' || m.heuristic === 'manhattan' || m.heuristic === 'chebyshev';
    let bound = Infinity;
    for (const r of this.rects) {
      const d = square ? stepDistance(m, sx, sy, clamp(sx, r.x, r.width), clamp(sy, r.y, r.height)) + stepDistance(m, clamp(tx, r.x, r.width), clamp(ty, r.y, r.height), tx, ty) : stepDistance(m, sx, sy, tx, ty);
      if (d < bound) bound = d;
    }
    const view = this.grid.searchView(this.layer);
    if (cost <= this.factor * bound * view.minCost) return false;
    this.finder ??= new Pathfinder(this.grid);
    const r = this.finder.findPath(sx, sy, tx, ty, { layer: this.layer, movement: m.name, algorithm: 'astar', reachabilityCheck: false, maxIterations: this.maxIterations });
    return r.status === 'found' && cost > this.factor * r.cost;
  }
}

function clamp(v: number, lo: number, size: number): number {
  return v < lo ? lo : v > lo + size - 1 ? lo + size - 1 : v;
}

/**
 * The cost of a stored path on a view: a cell path step by step (step length x the cost of the
 * cell entered, as the searches count), a waypoint path segment by segment ({@link segmentCost});
 * Infinity when a segment is blocked now (any route is then shorter). @internal
 */
export function storedPathCost(view: SearchView, model: MovementModel, path: { cells: ArrayLike<number> } | { points: ArrayLike<number> }, width: number): number {
  let sum = 0;
  if ('cells' in path) {
    const cells = path.cells;
    for (let j = 1; j < cells.length; j++) {
      const x = cells[j] % width;
      const y = (cells[j] - x) / width;
      const px = cells[j - 1] % width;
      const py = (cells[j - 1] - px) / width;
      const c = view.pass[(y + 1) * view.stride + x + 1];
      if (c <= 0) return Infinity;
      // Only octile models have steps changing both coordinates that are longer than 1.
      sum += (x !== px && y !== py && model.heuristic === 'octile' ? Math.SQRT2 : 1) * c;
    }
    return sum;
  }
  const pts = path.points;
  for (let j = 2; j + 1 < pts.length; j += 2) {
    const c = segmentCost(view, pts[j - 2], pts[j - 1], pts[j], pts[j + 1], model.corner);
    if (c < 0) return Infinity;
    sum += c;
  }
  return sum;
}

/** Checks {@link ShortcutOptions} and builds the check; errors name `where`.field. @internal */
export function shortcutCheck(options: ShortcutOptions, where = 'shortcuts'): ShortcutCheck {
  if (options === null || typeof options !== 'object') throw new TilenavError(`expected { grid, factor }, got ${describe(options)}`, { element: where });
  const { grid, factor } = options;
  if (grid === null || typeof grid !== 'object' || typeof (grid as NavGrid).searchView !== 'function') throw new TilenavError(`expected the NavGrid the paths run on, got ${describe(grid)}`, { element: `${where}.grid` });
  if (typeof factor !== 'number' || !Number.isFinite(factor) || factor < 1) throw new TilenavError(`expected a finite number >= 1 (1.2: flag paths more than 20 % dearer than the best route), got ${describe(factor)}`, { element: `${where}.factor` });
  const limit = options.maxIterations ?? SHORTCUT_SEARCH_LIMIT;
  if (typeof limit !== 'number' || !(limit === Infinity || (Number.isInteger(limit) && limit >= 1))) throw new TilenavError(`expected a whole number >= 1 or Infinity, got ${describe(limit)}`, { element: `${where}.maxIterations` });
  const finder = options.pathfinder;
  if (finder !== undefined && (!(finder instanceof Pathfinder) || finder.grid !== grid)) throw new TilenavError(`expected a Pathfinder over shortcuts.grid, got ${describe(finder)}`, { element: `${where}.pathfinder` });
  const layer = grid.layerIndex(options.layer ?? 0);
  const movement = grid.movementModel(options.movement).name;
  return new ShortcutCheck(grid, factor, layer, movement, limit, finder ?? null);
}

/**
 * Which stored paths a change made much longer than needed: a wall removed (or a cell made
 * cheaper, or a one-way flag cleared) that opens a route from a path's first cell to its last
 * costing less than the path's own cost divided by `options.factor`. A grid change event whose
 * `opened` is false (it only added walls or raised costs) flags nothing; of plain rectangles, those
 * without a walkable cell are skipped. The test is cheap per path and searches only for
 * candidates, at most `maxIterations` expansions each (see ShortcutCheck's bound); a candidate
 * whose search runs out is not flagged. Paths with fewer than two cells or points are never
 * flagged. Returns the indices into `paths` of the flagged ones, in order.
 */
export function shortcutPaths(change: readonly CellRect[] | GridChange, paths: readonly ({ cells: ArrayLike<number> } | { points: ArrayLike<number> })[], options: ShortcutOptions): number[] {
  const check = shortcutCheck(options);
  if (!Array.isArray(change) && !Array.isArray((change as GridChange | null)?.rects)) throw new TilenavError(`expected a list of rectangles or a grid change event, got ${describe(change)}`, { element: 'change' });
  if (!Array.isArray(paths)) throw new TilenavError(`expected an array of stored paths, got ${describe(paths)}`, { element: 'paths' });
  const rects = Array.isArray(change) ? (change as readonly CellRect[]) : (change as GridChange).opened === false ? [] : (change as GridChange).rects;
  check.setRects(rects);
  if (!check.active) return [];
  const grid = options.grid;
  const w = grid.width;
  const model = grid.movementModel(options.movement);
  const view = grid.searchView(grid.layerIndex(options.layer ?? 0));
  const out: number[] = [];
  paths.forEach((path, k) => {
    let sx: number;
    let sy: number;
    let tx: number;
    let ty: number;
    if ('cells' in path) {
      const c = path.cells;
      if (c.length < 2) return;
      sx = c[0] % w;
      sy = (c[0] - sx) / w;
      tx = c[c.length - 1] % w;
      ty = (c[c.length - 1] - tx) / w;
    } else {
      const p = path.points;
      if (p.length < 4) return;
      sx = Math.round(p[0]);
      sy = Math.round(p[1]);
      tx = Math.round(p[p.length - 2]);
      ty = Math.round(p[p.length - 1]);
    }
    if (!grid.inBounds(sx, sy) || !grid.inBounds(tx, ty)) return;
    if (check.flags(sx, sy, tx, ty, storedPathCost(view, model, path, w))) out.push(k);
  });
  return out;
}
