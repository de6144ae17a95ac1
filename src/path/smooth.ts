import { TilenavError, assertArrayLike, assertCellIndices, assertOptionsObject } from '../errors.js';
import type { NavGrid, SearchView } from '../grid/navgrid.js';
import type { Projection, WorldPoint } from '../grid/projection.js';
import { movementModel, type MovementName } from '../search/movement.js';
import { segmentCost } from './los.js';
import { pad } from '../grid/padded.js';

/** Options of {@link smoothPath} and {@link polylineCost}. */
export interface SmoothOptions {
  /** Layer index or name. @default 0 */
  layer?: number | string;
  /** The movement model the path was found with; its corner rule applies at corners. @default the grid's own, `grid.movement` */
  movement?: MovementName;
  /** Search view to test sight against (an overlay with obstacles). @default the layer's own @internal */
  view?: SearchView;
}

/** Costs within this relative margin count as equal (float noise in summing lengths). */
const COST_EPS = 1e-9;

let prefix = new Float64Array(256);

/**
 * Whether string pulling fits a movement model: square and isometric grids with Euclidean steps.
 * Hexagonal and staggered grids shift every other row or column by half a cell, so a line that
 * is straight in cell coordinates is not straight on the map; Chebyshev models count steps (a
 * diagonal costs as much as a straight step), so a straight segment, measured by its length,
 * would change what the path costs. Their paths stay cell centres.
 */
export function canSmooth(movement: MovementName = 'octile'): boolean {
  const h = movementModel(movement).heuristic;
  return h === 'octile' || h === 'manhattan';
}

/**
 * String pulling with exact line of sight: compresses a cell path (indices from a search, start
 * first) into the fewest waypoints the greedy pass finds, each consecutive pair joined by a
 * segment with exact line of sight ({@link segmentCost}: every touched cell walkable, corners as
 * the movement model allows, one-way flags and edge walls honoured).
 *
 * A shortcut is taken only when its cost (length in each cell x that cell's cost) is no more than
 * the same measure along the grid path it replaces, so smoothing never trades a detour through
 * cheap terrain for a dearer straight line: the smoothed path costs at most the grid path
 * (measured as {@link polylineCost}).
 *
 * Returns [x0, y0, x1, y1, ...] in cell coordinates (a waypoint at a cell is its centre), start
 * and goal cells included; `out` is reused when large enough. An empty path gives an empty array.
 * No shortcut spans a step that takes a link of the layer (`grid.addLink`): both its ends stay
 * waypoints, one after the other, and the unit takes the link between them.
 * Hexagonal and staggered models have no straight lines in cell space and Chebyshev models count
 * steps, not lengths ({@link canSmooth}): they throw.
 */
export function smoothPath(grid: NavGrid, cells: ArrayLike<number>, options: SmoothOptions = {}, out?: Float64Array): Float64Array {
  assertOptionsObject(options, 'options');
  assertCellIndices(cells, grid.size, 'cells');
  const model = grid.movementModel(options.movement);
  if (model.heuristic === 'chebyshev') throw new TilenavError('a Chebyshev path costs its steps, diagonals as much as straight ones; string pulling measures segments by their length and would change its cost: keep its cell centres (cellsToPoints)', { element: `movement "${model.name}"` });
  if (!canSmooth(model.name)) throw new TilenavError('smoothing needs a square or isometric grid; hexagonal and staggered paths have no straight segments in cell space', { element: `movement "${model.name}"` });
  const view = options.view ?? grid.searchView(grid.layerIndex(options.layer ?? 0));
  const corner = model.corner;
  const n = cells.length;
  const w = grid.width;
  if (n === 0) return out ? out.subarray(0, 0) : new Float64Array(0);
  if (prefix.length < n) prefix = new Float64Array(Math.max(n, prefix.length * 2));
  // The grid path's cost in the same measure as a shortcut's: each step as a segment.
  prefix[0] = 0;
  const layer = grid.layerIndex(options.layer ?? 0);
  for (let k = 1; k < n; k++) {
    const a = cells[k - 1];
    const b = cells[k];
    // A link's step is never spanned (see below): it adds nothing the shortcuts compare.
    const c = isLinkStep(grid, layer, a, b) ? 0 : segmentCost(view, a % w, (a - (a % w)) / w, b % w, (b - (b % w)) / w, 2);
    prefix[k] = prefix[k - 1] + (c < 0 ? Infinity : c);
  }
  // The first step at or after `a + 1` that takes a link: shortcuts from `a` stop before it.
  let link = 0;
  const res = out && out.length >= 2 * n ? out : new Float64Array(2 * n);
  let m = 0;
  let a = 0;
  res[m++] = cells[0] % w;
  res[m++] = (cells[0] - (cells[0] % w)) / w;
  while (a < n - 1) {
    const ax = cells[a] % w;
    const ay = (cells[a] - ax) / w;
    let best = a + 1;
    if (link <= a) for (link = a + 1; link < n && !isLinkStep(grid, layer, cells[link - 1], cells[link]); link++);
    for (let j = a + 2; j < n && j < link; j++) {
      const bx = cells[j] % w;
      const by = (cells[j] - bx) / w;
      const c = segmentCost(view, ax, ay, bx, by, corner);
      if (c < 0) break;
      const along = prefix[j] - prefix[a];
      if (c <= along + COST_EPS * along) best = j;
    }
    const b = cells[best];
    res[m++] = b % w;
    res[m++] = (b - (b % w)) / w;
    a = best;
  }
  return res.subarray(0, m);
}

/**
 * Whether the step from cell `a` to cell `b` (indices) on `layer` takes an enabled link of the
 * grid (one that leads from `a` on `layer` to `b` on `toLayer`, by default the same layer). @internal
 */
export function isLinkStep(grid: NavGrid, layer: number, a: number, b: number, toLayer = layer): boolean {
  if (grid.linksVersion === 0) return false;
  const index = grid.linkIndex();
  const bits = index.bits[layer];
  if (bits === null) return false;
  const pa = pad(grid.width, a);
  if (((bits[pa >>> 5] >>> (pa & 31)) & 1) === 0) return false;
  const pb = pad(grid.width, b);
  const end = index.start[layer + 1];
  for (let e = index.first(layer, pa); e >= 0 && e < end && index.fromCell[e] === pa; e++) if (index.toLayer[e] === toLayer && index.toCell[e] === pb) return true;
  return false;
}

/**
 * The cost of a polyline [x0, y0, x1, y1, ...] in cell coordinates: the sum of its segments'
 * {@link segmentCost}. Infinity when a segment is blocked. With every traversal cost 1 it is the
 * Euclidean length.
 */
export function polylineCost(grid: NavGrid, points: ArrayLike<number>, options: SmoothOptions = {}): number {
  assertOptionsObject(options, 'options');
  assertArrayLike(points, 'points');
  const view = options.view ?? grid.searchView(grid.layerIndex(options.layer ?? 0));
  const corner = grid.movementModel(options.movement).corner;
  let cost = 0;
  for (let k = 2; k + 1 < points.length; k += 2) {
    const c = segmentCost(view, points[k - 2], points[k - 1], points[k], points[k + 1], corner);
    if (c < 0) return Infinity;
    cost += c;
  }
  return cost;
}

/** The Euclidean length of a polyline [x0, y0, x1, y1, ...] (in whatever units its points are). */
export function polylineLength(points: ArrayLike<number>): number {
  let len = 0;
  for (let k = 2; k + 1 < points.length; k += 2) len += Math.hypot(points[k] - points[k - 2], points[k + 1] - points[k - 1]);
  return len;
}

/** The cell path as waypoints [x0, y0, ...] at the cell centres, unsmoothed. */
export function cellsToPoints(grid: NavGrid, cells: ArrayLike<number>, out?: Float64Array): Float64Array {
  assertCellIndices(cells, grid.size, 'cells');
  const n = cells.length;
  const res = out && out.length >= 2 * n ? out.subarray(0, 2 * n) : new Float64Array(2 * n);
  for (let k = 0; k < n; k++) {
    res[2 * k] = grid.xOf(cells[k]);
    res[2 * k + 1] = grid.yOf(cells[k]);
  }
  return res;
}

/**
 * The distance in world units between the centres of two neighbouring cells along x: the world
 * size of a cell (cellSize for the continuous world, tileWidth for orthogonal maps).
 */
export function cellStep(projection: Projection): number {
  const a = projection.cellToWorld(0, 0);
  const b = projection.cellToWorld(1, 0);
  return Math.hypot(b.x - a.x, b.y - a.y, b.z - a.z);
}

/** The two plane coordinates of a world point: (x, z) in the continuous world, else (x, y). */
export function planeOf(projection: Projection, p: WorldPoint): [number, number] {
  return projection.spec.kind === 'continuous' ? [p.x, p.z] : [p.x, p.y];
}

/**
 * A world point in fractional cell coordinates (a cell's centre is an integer pair): exact for
 * orthogonal, isometric and continuous projections; hex projections give the containing cell.
 */
export function worldToCellPoint(projection: Projection, a: number, b: number, out: { x: number; y: number } = { x: 0, y: 0 }): {
  /** Fractional column. */
  x: number;
  /** Fractional row. */
  y: number;
} {
  const s = projection.spec;
  switch (s.kind) {
    case 'continuous':
      out.x = (a - (s.minX ?? 0)) / s.cellSize - 0.5;
      out.y = (b - (s.minZ ?? 0)) / s.cellSize - 0.5;
      return out;
    case 'orthogonal':
      out.x = (a - (s.originX ?? 0)) / s.tileWidth - 0.5;
      out.y = (b - (s.originY ?? 0)) / s.tileHeight - 0.5;
      return out;
    case 'isometric': {
      const px = (a - (s.originX ?? 0)) / s.tileWidth;
      const py = (b - (s.originY ?? 0)) / s.tileHeight;
      out.x = py + px - 0.5;
      out.y = py - px - 0.5;
      return out;
    }
    default: {
      const c = projection.worldToCell(a, b);
      out.x = c.x;
      out.y = c.y;
      return out;
    }
  }
}

/** Options of {@link toWorldWaypoints}. */
export interface WorldWaypointOptions {
  /** Layer index or name, for the sight tests of trimming and precision. @default 0 */
  layer?: number | string;
  /** @default the grid's own, `grid.movement` */
  movement?: MovementName;
  /**
   * Where the unit actually stands. When given and the first waypoint is within `cellStep x
   * trimFactor` of it (and the second waypoint is in sight of it), the first waypoint is dropped:
   * the unit is already there, and turning back to that cell's centre would look wrong.
   */
  start?: WorldPoint;
  /**
   * The exact requested end point. When it lies in the last waypoint's cell, it replaces that
   * cell's centre (appended after it when not in sight of the previous waypoint).
   */
  end?: WorldPoint;
  /** Fraction of a cell within which the first waypoint is dropped. @default 0.75 */
  trimFactor?: number;
  /** Search view for the sight tests. @internal */
  view?: SearchView;
}

/**
 * Waypoints in cell coordinates ([x0, y0, ...], e.g. from {@link smoothPath}) to world points
 * through the grid's projection (the continuous projection puts its floorY in y on each), with
 * the first waypoint trimmed when the unit is already there and the exact end point put on the last.
 */
export function toWorldWaypoints(grid: NavGrid, points: ArrayLike<number>, options: WorldWaypointOptions = {}): WorldPoint[] {
  assertOptionsObject(options, 'options');
  assertArrayLike(points, 'points');
  const proj = grid.projection;
  const view = options.view ?? grid.searchView(grid.layerIndex(options.layer ?? 0));
  const corner = grid.movementModel(options.movement).corner;
  const trimFactor = options.trimFactor ?? 0.75;
  const n = points.length >> 1;
  const out: WorldPoint[] = [];
  let first = 0;
  if (options.start !== undefined && n >= 1) {
    const [a, b] = planeOf(proj, options.start);
    const w0 = proj.cellToWorld(points[0], points[1]);
    const [wa, wb] = planeOf(proj, w0);
    if (Math.hypot(wa - a, wb - b) <= cellStep(proj) * trimFactor) {
      const s = worldToCellPoint(proj, a, b);
      if (n === 1 || segmentCost(view, s.x, s.y, points[2], points[3], corner) >= 0) first = 1;
    }
  }
  for (let k = first; k < n; k++) out.push(proj.cellToWorld(points[2 * k], points[2 * k + 1]));
  if (options.end !== undefined && n >= 1) {
    const [a, b] = planeOf(proj, options.end);
    const c = proj.worldToCell(a, b);
    if (c.x === points[2 * n - 2] && c.y === points[2 * n - 1]) {
      const exact = proj.cellToWorld(0, 0);
      exact.x = options.end.x;
      if (proj.spec.kind === 'continuous') exact.z = options.end.z;
      else exact.y = options.end.y;
      const e = worldToCellPoint(proj, a, b);
      const prevInSight = n >= 2 && segmentCost(view, points[2 * n - 4], points[2 * n - 3], e.x, e.y, corner) >= 0;
      if (out.length > 0 && (n === 1 ? first === 0 : prevInSight)) out[out.length - 1] = exact;
      else out.push(exact);
    }
  }
  return out;
}
