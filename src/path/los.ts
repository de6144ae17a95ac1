import type { SearchView } from '../grid/navgrid.js';
import { FLAG_NO_EXIT_EAST, FLAG_NO_EXIT_NORTH, FLAG_NO_EXIT_SOUTH, FLAG_NO_EXIT_WEST } from '../grid/navgrid.js';
import type { CornerRule } from '../search/movement.js';
import { EXIT_CORNER_NE, EXIT_CORNER_NW, EXIT_CORNER_SE, EXIT_CORNER_SW, padXY } from '../grid/padded.js';

/** Ties closer than this (in units of the segment's parameter t) count as passing exactly through a corner. */
const CORNER_EPS = 1e-9;

/**
 * Exact line of sight and cost of the straight segment (x0, y0) -> (x1, y1) in cell coordinates
 * (integers are cell centres; cell (x, y) spans x - 0.5 .. x + 0.5). Every cell the segment
 * touches is visited (a supercover, no sampling), so it cannot step over a thin wall:
 * - a cell the segment passes through must be walkable in `view`;
 * - where it passes exactly through a corner, the two side cells obey the corner rule (0: both
 *   walkable, as octile movement without corner cutting; 1: at most one blocked; 2: ignored);
 * - a segment lying on a cell boundary touches, and so needs, the cells on both sides;
 * - leaving a cell against its one-way flags (`view.exits`) blocks the segment;
 * - edge walls (`view.exits`, `view.walls`): crossing a walled edge blocks the segment, and so
 *   does touching a wall: passing exactly through a corner point a wall ends at (whatever the
 *   corner rule), or running along a walled edge or through a wall's end on a cell boundary.
 *
 * Returns the segment's cost, the sum over the cells crossed of (length inside the cell) x (its
 * traversal cost), or -1 when the segment is blocked. Allocation-free.
 */
export function segmentCost(view: SearchView, x0: number, y0: number, x1: number, y1: number, corner: CornerRule = 0): number {
  const W = view.stride;
  const pass = view.pass;
  const exits = view.exits;
  const walls = view.walls;
  // Shift so cell (x, y) spans [x, x + 1): boundaries are integers.
  const u0 = x0 + 0.5;
  const v0 = y0 + 0.5;
  const du = x1 - x0;
  const dv = y1 - y0;
  const len = Math.sqrt(du * du + dv * dv);
  let cx = Math.floor(u0);
  let cy = Math.floor(v0);
  const ex = Math.floor(x1 + 0.5);
  const ey = Math.floor(y1 + 0.5);
  const sx = du > 0 ? 1 : du < 0 ? -1 : 0;
  const sy = dv > 0 ? 1 : dv < 0 ? -1 : 0;
  // On a boundary line: the neighbouring column (row) is touched all along.
  const alongX = du === 0 && u0 === cx ? 1 : 0;
  const alongY = dv === 0 && v0 === cy ? 1 : 0;
  let p = padXY(W, cx, cy);
  if (!(cx >= -1 && cy >= -1 && p < pass.length)) return -1;
  let c = pass[p];
  if (c <= 0) return -1;
  if (alongX && pass[p - 1] <= 0) return -1;
  if (alongY && pass[p - W] <= 0) return -1;
  if (walls !== null && (alongX || alongY) && alongWall(walls, p, W, alongX, alongY)) return -1;
  if (len === 0) return 0;
  let t = 0;
  let cost = 0;
  const maxSteps = Math.abs(ex - cx) + Math.abs(ey - cy) + 2;
  for (let step = 0; (cx !== ex || cy !== ey) && step < maxSteps; step++) {
    const tx = sx === 0 ? Infinity : ((sx > 0 ? cx + 1 : cx) - u0) / du;
    const ty = sy === 0 ? Infinity : ((sy > 0 ? cy + 1 : cy) - v0) / dv;
    const ex0 = exits === null ? 0 : exits[p];
    let tn: number;
    let np: number;
    if (Math.abs(tx - ty) <= CORNER_EPS) {
      tn = Math.min(tx, ty);
      const cornerBit = sy > 0 ? (sx > 0 ? EXIT_CORNER_SE : EXIT_CORNER_SW) : sx > 0 ? EXIT_CORNER_NE : EXIT_CORNER_NW;
      if (ex0 !== 0 && (ex0 & ((sx > 0 ? FLAG_NO_EXIT_EAST : FLAG_NO_EXIT_WEST) | (sy > 0 ? FLAG_NO_EXIT_SOUTH : FLAG_NO_EXIT_NORTH) | cornerBit)) !== 0) return -1;
      const blocked = (pass[p + sx] > 0 ? 0 : 1) + (pass[p + sy * W] > 0 ? 0 : 1);
      if (blocked > corner) return -1;
      np = p + sx + sy * W;
      cx += sx;
      cy += sy;
    } else if (tx < ty) {
      tn = tx;
      if (ex0 !== 0 && (ex0 & (sx > 0 ? FLAG_NO_EXIT_EAST : FLAG_NO_EXIT_WEST)) !== 0) return -1;
      if (alongY && walls !== null && (walls[p] & (sx > 0 ? EXIT_CORNER_NE : EXIT_CORNER_NW)) !== 0) return -1;
      np = p + sx;
      cx += sx;
    } else {
      tn = ty;
      if (ex0 !== 0 && (ex0 & (sy > 0 ? FLAG_NO_EXIT_SOUTH : FLAG_NO_EXIT_NORTH)) !== 0) return -1;
      // Along a vertical boundary the segment crosses the row boundary at a corner point.
      if (alongX && walls !== null && (walls[p] & (sy > 0 ? EXIT_CORNER_SW : EXIT_CORNER_NW)) !== 0) return -1;
      np = p + sy * W;
      cy += sy;
    }
    if (tn > 1) tn = 1;
    cost += (tn - t) * len * c;
    t = tn;
    p = np;
    c = pass[p];
    if (c <= 0) return -1;
    if (alongX && pass[p - 1] <= 0) return -1;
    if (alongY && pass[p - W] <= 0) return -1;
    if (walls !== null && (alongX || alongY) && alongWall(walls, p, W, alongX, alongY)) return -1;
  }
  cost += (1 - t) * len * c;
  return cost;
}

/**
 * Whether a segment lying on the boundary west of padded cell `p` (`alongX`) or north of it
 * (`alongY`) runs along a walled edge there: the wall between `p` and its west (north) neighbour.
 */
function alongWall(walls: Uint8Array, p: number, W: number, alongX: number, alongY: number): boolean {
  return (alongX === 1 && (walls[p] & FLAG_NO_EXIT_WEST) !== 0) || (alongY === 1 && (walls[p] & FLAG_NO_EXIT_NORTH) !== 0);
}

/** True when the segment is clear: {@link segmentCost} >= 0. */
export function lineOfSight(view: SearchView, x0: number, y0: number, x1: number, y1: number, corner: CornerRule = 0): boolean {
  return segmentCost(view, x0, y0, x1, y1, corner) >= 0;
}

/**
 * Calls `visit(x, y)` for every cell the segment (x0, y0) -> (x1, y1) touches, in order, corner
 * side cells included, walkable or not. The same traversal as {@link segmentCost}; used to tell
 * which cells a smoothed path passes over (path invalidation, tests).
 */
export function forEachTouchedCell(x0: number, y0: number, x1: number, y1: number, visit: (x: number, y: number) => void): void {
  const u0 = x0 + 0.5;
  const v0 = y0 + 0.5;
  const du = x1 - x0;
  const dv = y1 - y0;
  let cx = Math.floor(u0);
  let cy = Math.floor(v0);
  const ex = Math.floor(x1 + 0.5);
  const ey = Math.floor(y1 + 0.5);
  const sx = du > 0 ? 1 : du < 0 ? -1 : 0;
  const sy = dv > 0 ? 1 : dv < 0 ? -1 : 0;
  const alongX = du === 0 && u0 === cx;
  const alongY = dv === 0 && v0 === cy;
  const emit = (x: number, y: number) => {
    visit(x, y);
    if (alongX) visit(x - 1, y);
    if (alongY) visit(x, y - 1);
  };
  emit(cx, cy);
  const maxSteps = Math.abs(ex - cx) + Math.abs(ey - cy) + 2;
  for (let step = 0; (cx !== ex || cy !== ey) && step < maxSteps; step++) {
    const tx = sx === 0 ? Infinity : ((sx > 0 ? cx + 1 : cx) - u0) / du;
    const ty = sy === 0 ? Infinity : ((sy > 0 ? cy + 1 : cy) - v0) / dv;
    if (Math.abs(tx - ty) <= CORNER_EPS) {
      visit(cx + sx, cy);
      visit(cx, cy + sy);
      cx += sx;
      cy += sy;
    } else if (tx < ty) cx += sx;
    else cy += sy;
    emit(cx, cy);
  }
}
