import { TilenavError, assertOptionsObject, assertPoint, describe } from '../errors.js';
import type { NavGrid, SearchView } from '../grid/navgrid.js';
import type { WorldPoint } from '../grid/projection.js';
import { Pathfinder } from '../search/pathfinder.js';
import type { FindPathOptions, SearchResult } from '../search/result.js';
import { padXY, strideOf } from '../grid/padded.js';
import { canSmooth, cellsToPoints, smoothPath, toWorldWaypoints, planeOf, worldToCellPoint } from '../path/smooth.js';
import { nearestWalkable, DEFAULT_NEAREST_RADIUS } from './nearest.js';
import { ObstacleOverlay, type DynamicObstacle, type DynamicObstacleOptions } from './obstacles.js';

/** Hooks other query modules plug into findPathToNearest (kept as an interface to avoid import cycles). */
export interface NearestHooks {
  /**
   * Given start and goal cells, return -1 when the goal may be reachable (search normally), or the
   * cell of the start's component nearest the goal when the goal is known to be out of reach.
   */
  nearestReachable?(layer: number, movement: string, start: number, gx: number, gy: number): number;
  /** A view with cells the unit does not fit in blocked, or null for none. */
  clearanceView?(layer: number, movement: string): SearchView | null;
}

export interface NearestPathOptions extends FindPathOptions, DynamicObstacleOptions {
  /** Obstacles for step 1 of the cascade; none skips it. @default [] */
  obstacles?: readonly DynamicObstacle[];
  /** A reachability index or clearance map plugged in (see ReachabilityIndex.hooks). */
  hooks?: NearestHooks;
  /**
   * Search with this Pathfinder (of the same grid). Without one the call creates its own, which
   * allocates the search scratch, about 20 bytes per cell: pass a Pathfinder to reuse it across
   * queries.
   */
  pathfinder?: Pathfinder;
  /**
   * Stamp the obstacles on this overlay (of the same grid and layer). Without one a call with
   * obstacles creates its own, a copy of the layer's view (4 bytes per cell): pass an overlay to
   * reuse it across queries.
   */
  overlay?: ObstacleOverlay;
}

/**
 * A findPathToNearest result. `status` is `found` (the goal was reached), `partial` (cells end at
 * the reachable cell nearest the goal, `reached`), `no-path` (the start is isolated: no cells),
 * `invalid-start`, or `limit-reached`. `avoided` says whether the path avoids the obstacles.
 */
export interface NearestPathResult extends SearchResult {
  avoided: boolean;
}

/**
 * The cascade for "take me as close as you can":
 * 1. a path that avoids the dynamic obstacles (when there are any);
 * 2. a path through them (an NPC in a doorway is ignored; collision resolution nudges it);
 * 3. nearest-reachable A*: the path to the reached cell closest (Euclidean) to the goal, status
 *    `partial`, or `no-path` with no cells when the start itself is (one of) the nearest: it
 *    stays. Ties between equally near cells go to the start, then to the cheaper path, then to
 *    the lower cell index (with a reachability index in `hooks`, which does not search: to the
 *    start, then the lower index).
 * The goal may be a blocked cell; one outside the grid is clamped to it first. With a
 * reachability index in `hooks`, a goal in another component goes straight to step 3's answer
 * without exploring the start's whole component.
 */
export function findPathToNearest(grid: NavGrid, sx: number, sy: number, gx: number, gy: number, options: NearestPathOptions = {}): NearestPathResult {
  assertOptionsObject(options, 'options');
  if (options.obstacles !== undefined && !Array.isArray(options.obstacles)) throw new TilenavError(`expected an array of obstacles, got ${describe(options.obstacles)}`, { element: 'obstacles' });
  const layer = grid.layerIndex(options.layer ?? 0);
  const finder = pathfinderOf(grid, options.pathfinder);
  const movement = options.movement ?? 'octile';
  const base = options.hooks?.clearanceView?.(layer, movement) ?? undefined;
  const cgx = Math.min(grid.width - 1, Math.max(0, Math.round(gx)));
  const cgy = Math.min(grid.height - 1, Math.max(0, Math.round(gy)));
  const search = { layer, movement, maxIterations: options.maxIterations, weight: options.weight, view: base };
  const obstacles = options.obstacles ?? [];
  const free = obstacles.length === 0;
  // An index that knows the goal is out of reach skips steps 1-2 and step 3's exhaustive search.
  const hook = options.hooks?.nearestReachable;
  if (hook !== undefined && base === undefined && grid.inBounds(sx, sy) && grid.isWalkable(sx, sy, layer)) {
    const start = sy * grid.width + sx;
    let target = hook(layer, movement, start, cgx, cgy);
    // The start stays when it is as near the goal as the index's answer.
    if (target >= 0 && (sx - cgx) ** 2 + (sy - cgy) ** 2 <= (grid.xOf(target) - cgx) ** 2 + (grid.yOf(target) - cgy) ** 2) target = start;
    if (target === start) return { status: 'no-path', cells: new Int32Array(0), cost: Infinity, expanded: 0, reached: -1, avoided: free };
    if (target >= 0) {
      const r = finder.search(sx, sy, grid.xOf(target), grid.yOf(target), search);
      if (r.status === 'found') return { ...r, status: 'partial', avoided: free };
    }
  }
  if (!free && grid.inBounds(sx, sy)) {
    const view = overlayOf(grid, layer, options.overlay).stamp(obstacles, sx, sy, cgx, cgy, options, base);
    const r = finder.search(sx, sy, cgx, cgy, { ...search, view });
    if (r.status === 'found') return { ...r, avoided: true };
  }
  const direct = finder.search(sx, sy, cgx, cgy, search);
  if (direct.status === 'found' || direct.status === 'invalid-start' || direct.status === 'limit-reached') return { ...direct, avoided: free };
  const r = finder.search(sx, sy, cgx, cgy, { ...search, nearest: true });
  return { ...r, expanded: r.expanded + direct.expanded, avoided: free };
}

export interface PlanOptions extends NearestPathOptions {
  /** Snap a blocked or off-grid start or goal to the nearest walkable cell within this radius, in world units. @default 8 */
  snapRadius?: number;
  /** String-pull the path (see smoothPath). Hexagonal and staggered paths are never pulled: their waypoints are the cell centres. @default true */
  smooth?: boolean;
  /** Drop the first waypoint when within this fraction of a cell of the start. @default 0.75 */
  trimFactor?: number;
}

/** A planned path in world coordinates. */
export interface WorldPath {
  /** As findPathToNearest's, plus `invalid-goal` when nothing walkable lies near an off-grid goal. */
  status: NearestPathResult['status'];
  /** World waypoints to walk through, in order; the unit's own position is not included. */
  waypoints: WorldPoint[];
  /** The grid path found (cell indices), before smoothing. */
  cells: Int32Array;
  /** Waypoints in cell coordinates [x0, y0, ...] (a cell's centre is an integer pair). */
  points: Float64Array;
  cost: number;
  expanded: number;
  avoided: boolean;
}

/**
 * The whole planner for a unit in the world: snap start (and a blocked goal) to the
 * nearest walkable cell within `snapRadius`, run {@link findPathToNearest}, smooth, convert to world
 * waypoints through the projection (floorY on each), trim the first waypoint and put the exact
 * requested end on the last when it lies in the goal cell. Points are world positions.
 */
export function planPath(grid: NavGrid, start: WorldPoint, end: WorldPoint, options: PlanOptions = {}): WorldPath {
  assertOptionsObject(options, 'options');
  assertPoint(start, 'start');
  assertPoint(end, 'end');
  const proj = grid.projection;
  const layer = grid.layerIndex(options.layer ?? 0);
  const radius = options.snapRadius ?? DEFAULT_NEAREST_RADIUS;
  const [sa, sb] = planeOf(proj, start);
  const [ea, eb] = planeOf(proj, end);
  if (![sa, sb, ea, eb].every(Number.isFinite)) throw new TilenavError('expected world points with finite coordinates', { element: 'start/end' });
  const empty = (status: WorldPath['status']): WorldPath => ({ status, waypoints: [], cells: new Int32Array(0), points: new Float64Array(0), cost: Infinity, expanded: 0, avoided: false });
  const sc = worldToCellPoint(proj, sa, sb);
  // Snap to cells the unit fits in when a clearance map is plugged in.
  const base = options.hooks?.clearanceView?.(layer, options.movement ?? 'octile') ?? undefined;
  const s = nearestWalkable(grid, sc.x, sc.y, { layer, radius, view: base });
  if (s < 0) return empty('invalid-start');
  const ec = worldToCellPoint(proj, ea, eb);
  const eCell = proj.worldToCell(ea, eb);
  const fits = grid.inBounds(eCell.x, eCell.y) && (base ?? grid.searchView(layer)).pass[padXY(strideOf(grid.width), eCell.x, eCell.y)] > 0;
  const g = fits ? eCell.y * grid.width + eCell.x : nearestWalkable(grid, ec.x, ec.y, { layer, radius, view: base });
  let gx: number;
  let gy: number;
  if (g >= 0) {
    gx = grid.xOf(g);
    gy = grid.yOf(g);
  } else {
    gx = eCell.x;
    gy = eCell.y;
  }
  const obstacles = options.obstacles ?? [];
  // One overlay for the call: the search stamps it, smoothing stamps it again for the path found.
  const overlay = obstacles.length > 0 ? overlayOf(grid, layer, options.overlay) : undefined;
  const r = findPathToNearest(grid, grid.xOf(s), grid.yOf(s), gx, gy, { ...options, overlay });
  if (r.cells.length === 0) return { ...empty(r.status), expanded: r.expanded };
  // Smooth against what the search avoided: the obstacle overlay when the path goes around them.
  const view = overlay !== undefined && r.avoided ? overlay.stamp(obstacles, grid.xOf(r.cells[0]), grid.yOf(r.cells[0]), gx, gy, options, base) : base;
  const points = options.smooth === false || !canSmooth(options.movement) ? cellsToPoints(grid, r.cells) : smoothPath(grid, r.cells, { layer, movement: options.movement, view });
  const waypoints = toWorldWaypoints(grid, points, {
    layer,
    movement: options.movement,
    start,
    end: r.status === 'found' ? end : undefined,
    trimFactor: options.trimFactor,
    view,
  });
  return { status: r.status, waypoints, cells: r.cells, points, cost: r.cost, expanded: r.expanded, avoided: r.avoided };
}


/** The caller's Pathfinder (checked to be of `grid`), or a new one for this call. */
function pathfinderOf(grid: NavGrid, given: Pathfinder | undefined): Pathfinder {
  if (given === undefined) return new Pathfinder(grid);
  if (!(given instanceof Pathfinder) || given.grid !== grid) throw new TilenavError('expected a Pathfinder of the same grid', { element: 'pathfinder' });
  return given;
}

/** The caller's overlay (checked to be of `grid` and `layer`), or a new one for this call. */
function overlayOf(grid: NavGrid, layer: number, given: ObstacleOverlay | undefined): ObstacleOverlay {
  if (given === undefined) return new ObstacleOverlay(grid, layer);
  if (!(given instanceof ObstacleOverlay) || given.grid !== grid || given.layer !== layer) throw new TilenavError(`expected an ObstacleOverlay of the same grid and layer ${layer}`, { element: 'overlay' });
  return given;
}
