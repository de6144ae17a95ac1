import { TilenavError, assertOptionsObject, assertPoint, describe } from '../errors.js';
import type { NavGrid } from '../grid/navgrid.js';
import type { WorldPoint } from '../grid/projection.js';
import { Pathfinder, pathfinderOf } from '../search/pathfinder.js';
import type { FindPathOptions, PathResult } from '../search/result.js';
import { clearanceOf } from './clearance.js';
import { padXY, strideOf } from '../grid/padded.js';
import { canSmooth, cellsToPoints, smoothPath, toWorldWaypoints, planeOf, worldToCellPoint } from '../path/smooth.js';
import { nearestWalkable, DEFAULT_NEAREST_RADIUS } from './nearest.js';

/** Options of {@link planPath}: every path option, plus how to snap, smooth and reuse. */
export interface PlanOptions extends FindPathOptions {
  /**
   * Search with this Pathfinder (of the same grid). Without one the call uses the one the grid
   * keeps for the free functions.
   */
  pathfinder?: Pathfinder;
  /** Snap a blocked or off-grid start or goal to the nearest walkable cell within this radius, in world units. @default 8 */
  snapRadius?: number;
  /** String-pull the path (see smoothPath). Hexagonal and staggered paths are never pulled: their waypoints are the cell centres. @default true */
  smooth?: boolean;
  /** Drop the first waypoint when within this fraction of a cell of the start. @default 0.75 */
  trimFactor?: number;
}

/**
 * A planned path in world coordinates: the {@link PathResult} of the search (`nearest` on: status
 * `found` or `partial`, or `invalid-start` / `invalid-goal` when nothing walkable lies near an
 * off-grid point), plus the waypoints to walk. `points` holds the smoothed waypoints in cell
 * coordinates `[x0, y0, ...]` (a cell's centre is an integer pair).
 */
export interface WorldPath extends PathResult {
  /** World waypoints to walk through, in order; the unit's own position is not included. */
  waypoints: WorldPoint[];
  points: Float64Array;
}

/**
 * The whole planner for a unit in the world: snap start (and a blocked goal) to the
 * nearest walkable cell within `snapRadius`, run `findPath` with `nearest`, smooth, convert to world
 * waypoints through the projection (floorY on each), trim the first waypoint and put the exact
 * requested end on the last when it lies in the goal cell. Points are world positions. It follows
 * the links of its layer (`grid.addLink`) and no others: where the path takes one, its two ends are
 * consecutive waypoints, and the unit takes the link between them.
 */
export function planPath(grid: NavGrid, start: WorldPoint, end: WorldPoint, options: PlanOptions = {}): WorldPath {
  assertOptionsObject(options, 'options');
  assertPoint(start, 'start');
  assertPoint(end, 'end');
  const proj = grid.projection;
  const layer = grid.layerIndex(options.layer ?? 0);
  const radius = options.snapRadius ?? DEFAULT_NEAREST_RADIUS;
  const finder = options.pathfinder ?? pathfinderOf(grid);
  if (!(finder instanceof Pathfinder) || finder.grid !== grid) throw new TilenavError('expected a Pathfinder of the same grid', { element: 'pathfinder' });
  const movement = grid.movementModel(options.movement).name;
  if (options.goalLayer !== undefined && grid.layerIndex(options.goalLayer) !== layer) throw new TilenavError('planPath plans on one layer; ask findPath for a path to another layer', { element: 'goalLayer' });
  // planPath always goes as near as it can, on the grid: these two are checked as findPath checks them, then set.
  for (const name of ['nearest', 'anyAngle'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'boolean') throw new TilenavError(`expected true or false, got ${describe(options[name])}`, { element: name });
  }
  const [sa, sb] = planeOf(proj, start);
  const [ea, eb] = planeOf(proj, end);
  if (![sa, sb, ea, eb].every(Number.isFinite)) throw new TilenavError('expected world points with finite coordinates', { element: 'start/end' });
  const empty = (status: 'invalid-start' | 'invalid-goal', x: number, y: number): WorldPath => ({
    status,
    waypoints: [],
    cells: new Int32Array(0),
    points: new Float64Array(0),
    cost: Infinity,
    costMeasure: 'steps',
    expanded: 0,
    reached: -1,
    // Nothing usable within the snap radius: say what the point itself is.
    reason: !grid.inBounds(x, y) ? 'outside' : base !== undefined && grid.isWalkable(x, y, layer) ? 'unit-does-not-fit' : 'blocked',
    avoided: true,
    layers: null,
  });
  const sc = worldToCellPoint(proj, sa, sb);
  // Snap to cells the unit fits in.
  const unit = options.radius ?? 0;
  const base = typeof unit === 'number' && unit > 0 ? clearanceOf(grid, layer, unit).view(unit) : undefined;
  const startCell = proj.worldToCell(sa, sb);
  const s = nearestWalkable(grid, sc.x, sc.y, { layer, radius, view: base });
  if (s < 0) return empty('invalid-start', startCell.x, startCell.y);
  const ec = worldToCellPoint(proj, ea, eb);
  const eCell = proj.worldToCell(ea, eb);
  const fits = grid.inBounds(eCell.x, eCell.y) && (base ?? grid.searchView(layer)).pass[padXY(strideOf(grid.width), eCell.x, eCell.y)] > 0;
  const g = fits ? eCell.y * grid.width + eCell.x : nearestWalkable(grid, ec.x, ec.y, { layer, radius, view: base });
  const gx = g >= 0 ? grid.xOf(g) : eCell.x;
  const gy = g >= 0 ? grid.yOf(g) : eCell.y;
  const { snapRadius: _s, smooth: _m, trimFactor: _t, pathfinder: _p, ...search } = options;
  // World waypoints lie on one layer: the links followed are the layer's own.
  const r = finder.findPathOn(grid.xOf(s), grid.yOf(s), gx, gy, { ...search, layer, movement, nearest: true, anyAngle: false, stayOnLayer: true });
  if (r.cells.length === 0) return { ...r, waypoints: [], points: new Float64Array(0) };
  // Smooth against what the search avoided: the obstacles when the path goes around them.
  const obstacles = options.obstacles ?? [];
  const view = obstacles.length > 0 && r.avoided ? finder.obstacleView(layer, obstacles, grid.xOf(r.cells[0]), grid.yOf(r.cells[0]), gx, gy, options.obstacleOptions, base) : base;
  const points = options.smooth === false || !canSmooth(movement) ? cellsToPoints(grid, r.cells) : smoothPath(grid, r.cells, { layer, movement, view });
  const waypoints = toWorldWaypoints(grid, points, {
    layer,
    movement,
    start,
    end: r.status === 'found' ? end : undefined,
    trimFactor: options.trimFactor,
    view,
  });
  return { ...r, waypoints, points };
}
