import { hypot } from './hypot.js';
import { TilenavError } from '../errors.js';
import type { NavGrid } from '../grid/navgrid.js';
import type { Pathfinder } from '../search/pathfinder.js';
import { MonotoneQueue } from '../search/kernel/heap.js';
import type { MovementName } from '../search/movement.js';
import { DX as DX_, DY as DY_, exitMask, octileDeltas, padXY, strideOf } from '../grid/padded.js';

/** Cells of margin either side of a corridor field's route (see FlowField.corridor). */
const CORRIDOR_MARGIN = 12;

// Module-local copies: some loaders (tsx) turn imported bindings into getter calls in loops.
const DX = DX_;
const DY = DY_;

/**
 * One Dijkstra from a goal cell that every unit of a big group follows (a group move without one
 * A* per unit): `dist` is the path cost to the goal, and `next(i)` the neighbour to
 * step to, chosen lazily the first time a unit stands in cell i, so building the field costs one
 * distance map and nothing per cell.
 *
 * Octile steps without corner cutting (the default movement model); a diagonal needs both sides
 * walkable, like the search; one-way flags and edge walls are honoured.
 */
export class FlowField {
  /** The grid the field covers. */
  readonly grid: NavGrid;
  /** The goal's cell index (y * width + x). */
  readonly goal: number;
  /** The grid layer, by index. */
  readonly layer: number;
  /** The movement model the distances were measured with. */
  readonly movement: MovementName;
  /** Path cost from each cell to the goal; Infinity where unreachable or beyond the bound. */
  readonly dist: Float64Array;
  /** The cost bound used to build it (Infinity: the whole component). */
  readonly maxCost: number;
  private readonly nextCell: Int32Array;

  /**
   * A field to `goal` over the whole map: one Dijkstra bounded by `maxCost` (Infinity: the goal's
   * whole component), or over the distances given in `dist` when the caller computed them.
   */
  constructor(grid: NavGrid, finder: Pathfinder | null, goal: number, layer: number, movement: MovementName, maxCost = Infinity, dist?: Float64Array) {
    this.grid = grid;
    this.goal = goal;
    this.layer = layer;
    this.movement = movement;
    this.maxCost = maxCost;
    if (dist === undefined && finder === null) throw new TilenavError('expected a Pathfinder or the distances', { element: 'finder' });
    this.dist = dist ?? finder!.distanceMap([goal], { layer, movement, maxCost });
    // The step plus 2: 0 not computed yet (a fresh array needs no fill), 1 no way on (unreachable or the goal itself).
    this.nextCell = new Int32Array(grid.size);
  }

  /**
   * The field a group order follows, built as cheaply as it can be: along a corridor around the
   * route (see {@link corridor}) when every unit in `cells` lies in it, else {@link covering}.
   */
  static build(grid: NavGrid, finder: Pathfinder, goal: number, cells: ArrayLike<number>, layer: number, movement: MovementName): FlowField {
    return FlowField.corridor(grid, finder, goal, cells, layer, movement) ?? FlowField.covering(grid, finder, goal, cells, layer, movement);
  }

  /**
   * A field restricted to a corridor: one A* from the goal to the unit nearest the group's centre
   * gives the route, and a Dijkstra from the goal runs only over the walkable cells within
   * `CORRIDOR_MARGIN` cells (plus the group's spread) of it, so a route across a big map costs a
   * few thousand cells instead of the whole map. Null when the movement is not a square grid's
   * (octile or cardinal), the route is not found, the band would cover a quarter of the map or
   * more (a short route, a wide group), or a unit cannot reach the goal inside the
   * corridor (the caller then builds a field over the whole map). Cells outside the corridor are
   * Infinity: a unit pushed just out of it steps back in (see next), one pushed farther leaves
   * the field and plans its own way.
   */
  static corridor(grid: NavGrid, finder: Pathfinder, goal: number, cells: ArrayLike<number>, layer: number, movement: MovementName): FlowField | null {
    if (movement !== 'octile' && movement !== 'cardinal') return null;
    const { mid, spread } = groupCentre(grid, cells);
    if (mid < 0 || grid.layers[layer].walkable[mid] === 0) return null;
    const route = finder.findPath(grid.xOf(goal), grid.yOf(goal), grid.xOf(mid), grid.yOf(mid), { layer, movement });
    if (route.status !== 'found') return null;
    const W = grid.width;
    const H = grid.height;
    const R = CORRIDOR_MARGIN + Math.ceil(spread);
    // A band that would cover much of the map saves nothing over the whole-map field.
    if (route.cells.length * (2 * R + 1) > grid.size / 4) return null;
    const inside = new Uint8Array(grid.size);
    const row = (y: number, x0: number, x1: number) => {
      if (y >= 0 && y < H) inside.fill(1, y * W + Math.max(0, x0), y * W + Math.min(W - 1, x1) + 1);
    };
    const rc = route.cells;
    // The square of radius R around each route cell. Consecutive cells are neighbours, so a square
    // adds to the one before it only the row and the column on the side it moved to.
    let px = -Infinity;
    let py = -Infinity;
    for (let k = 0; k < rc.length; k++) {
      const x = grid.xOf(rc[k]);
      const y = grid.yOf(rc[k]);
      if (Math.abs(x - px) > 1 || Math.abs(y - py) > 1) {
        for (let yy = y - R; yy <= y + R; yy++) row(yy, x - R, x + R);
      } else {
        if (y !== py) row(y + (y > py ? R : -R), x - R, x + R);
        const cx = x + (x > px ? R : -R);
        if (x !== px && cx >= 0 && cx < W) for (let yy = Math.max(0, y - R); yy <= Math.min(H - 1, y + R); yy++) inside[yy * W + cx] = 1;
      }
      px = x;
      py = y;
    }
    // The group's bounding box too, with the margin: every unit starts inside the corridor.
    let bx0 = W;
    let by0 = H;
    let bx1 = -1;
    let by1 = -1;
    for (let k = 0; k < cells.length; k++) {
      if (cells[k] < 0) continue;
      bx0 = Math.min(bx0, grid.xOf(cells[k]));
      bx1 = Math.max(bx1, grid.xOf(cells[k]));
      by0 = Math.min(by0, grid.yOf(cells[k]));
      by1 = Math.max(by1, grid.yOf(cells[k]));
    }
    for (let yy = by0 - CORRIDOR_MARGIN; yy <= by1 + CORRIDOR_MARGIN; yy++) row(yy, bx0 - CORRIDOR_MARGIN, bx1 + CORRIDOR_MARGIN);
    const dist = corridorDistances(grid, layer, goal, inside, movement === 'octile');
    for (let k = 0; k < cells.length; k++) {
      const c = cells[k];
      if (c >= 0 && dist[c] === Infinity && grid.layers[layer].walkable[c] === 1) return null;
    }
    return new FlowField(grid, null, goal, layer, movement, Infinity, dist);
  }

  /**
   * Builds a field that reaches every cell in `cells` that can reach the goal at all, exploring
   * as little of a big map as it can: one A* from the goal to the unit nearest the group's centre
   * gives the route's real cost C, and the Dijkstra stops at C plus twice the group's spread
   * (plus 8). A unit left out (a very different route) doubles the bound, up to the whole
   * component (which also proves a unit unreachable).
   */
  static covering(grid: NavGrid, finder: Pathfinder, goal: number, cells: ArrayLike<number>, layer: number, movement: MovementName): FlowField {
    const n = cells.length;
    const { mid, spread } = groupCentre(grid, cells);
    let bound = Infinity;
    if (mid >= 0 && grid.layers[layer].walkable[mid] === 1) {
      const r = finder.findPath(grid.xOf(goal), grid.yOf(goal), grid.xOf(mid), grid.yOf(mid), { layer, movement });
      if (r.status === 'found') bound = r.cost + 2 * spread * Math.SQRT2 + 8;
    }
    for (let tries = 0; ; tries++) {
      const field = new FlowField(grid, finder, goal, layer, movement, tries < 3 ? bound * 2 ** tries : Infinity);
      if (field.maxCost === Infinity) return field;
      let covered = true;
      for (let k = 0; k < n && covered; k++) covered = cells[k] < 0 || field.dist[cells[k]] !== Infinity || grid.layers[layer].walkable[cells[k]] === 0;
      if (covered) return field;
    }
  }

  /** The cell to step to from cell i, or -1 at the goal or where the goal cannot be reached. */
  next(i: number): number {
    // Kept this small so the compiler inlines it into the walking step (with the search in its
    // own method, the step's inlining budget had no room left and boxed its numbers).
    const known = this.nextCell[i];
    return known !== 0 ? known - 2 : this.findNext(i);
  }

  /** {@link next} the first time cell i is asked: the lowest-distance neighbour, then cached. */
  private findNext(i: number): number {
    let n = -1;
    const grid = this.grid;
    const dist = this.dist;
    // A cell outside a corridor field (a unit pushed out of it) steps back to the nearest cell in it.
    let best = dist[i];
    if (i !== this.goal) {
      const x = grid.xOf(i);
      const y = grid.yOf(i);
      const walk = grid.layers[this.layer].walkable;
      const diagonal = this.movement !== 'cardinal' && this.movement !== 'iso';
      const exits = grid.searchView(this.layer).exits;
      const ex = exits === null ? 0 : exits[padXY(strideOf(grid.width), x, y)];
      for (let k = 0; k < (diagonal ? 8 : 4); k++) {
        const nx = x + DX[k];
        const ny = y + DY[k];
        if (nx < 0 || ny < 0 || nx >= grid.width || ny >= grid.height) continue;
        if (k >= 4 && (walk[y * grid.width + nx] === 0 || walk[ny * grid.width + x] === 0)) continue;
        if (ex !== 0 && (ex & exitMask(DX[k], DY[k])) !== 0) continue;
        const j = ny * grid.width + nx;
        if (dist[j] < best) {
          best = dist[j];
          n = j;
        }
      }
    }
    this.nextCell[i] = n + 2;
    return n;
  }

  /** Forgets the cached steps (after the grid changed and `dist` was not rebuilt). */
  clearSteps(): void {
    this.nextCell.fill(0);
  }
}

/** The unit cell nearest the group's mean position (-1 when none is on the grid) and the group's radius around it (cells). */
function groupCentre(grid: NavGrid, cells: ArrayLike<number>): { mid: number; spread: number } {
  let mx = 0;
  let my = 0;
  let n = 0;
  for (let k = 0; k < cells.length; k++) {
    if (cells[k] < 0) continue;
    mx += grid.xOf(cells[k]);
    my += grid.yOf(cells[k]);
    n++;
  }
  mx /= n;
  my /= n;
  let mid = -1;
  let best = Infinity;
  for (let k = 0; k < cells.length; k++) {
    const d = hypot(grid.xOf(cells[k]) - mx, grid.yOf(cells[k]) - my);
    if (cells[k] >= 0 && d < best) {
      best = d;
      mid = cells[k];
    }
  }
  let spread = 0;
  for (let k = 0; k < cells.length; k++) if (cells[k] >= 0) spread = Math.max(spread, hypot(grid.xOf(cells[k]) - grid.xOf(mid), grid.yOf(cells[k]) - grid.yOf(mid)));
  return { mid, spread };
}

/**
 * Path costs to `goal` over the walkable cells with `inside[i]` set (Infinity elsewhere), with the
 * search's step costs: the entered cell's cost times the step's length, diagonals only when both
 * side cells are walkable (no corner cutting), one-way flags and edge walls honoured (for the
 * step a unit takes, toward the goal). The search's monotone queue: a cell is pushed again
 * when its cost drops, and stale entries are skipped when popped.
 */
function corridorDistances(grid: NavGrid, layer: number, goal: number, inside: Uint8Array, diagonal: boolean): Float64Array {
  const W = grid.width;
  const dist = new Float64Array(grid.size).fill(Infinity);
  const view = grid.searchView(layer);
  // The padded view: its border is blocked, so a neighbour needs no bounds test, and its entries
  // are the cells' costs (0 blocked).
  const pass = view.pass;
  const S = view.stride;
  const queue = new MonotoneQueue();
  queue.reset(view.minCost, view.maxCost * Math.SQRT2);
  dist[goal] = 0;
  queue.push(goal, 0);
  const dirs = diagonal ? 8 : 4;
  // Each direction's step in the padded view (and its two sides' for a diagonal) and in cells.
  const step = octileDeltas(S);
  const side = Int32Array.from(DY, (dy) => dy * S);
  const cellStep = octileDeltas(W);
  const exits = view.exits;
  // A unit steps from the cell reached (j) back to c: the reverse of direction k.
  const back = Uint8Array.from(DX, (dx, k) => exitMask(-dx, -DY[k]));
  while (queue.size > 0) {
    const c = queue.pop();
    const key = queue.key;
    if (key > dist[c]) continue;
    const x = c % W;
    const p = c + 2 * ((c - x) / W) + S + 1;
    for (let k = 0; k < dirs; k++) {
      const cost = pass[p + step[k]];
      if (cost <= 0) continue;
      const j = c + cellStep[k];
      if (inside[j] === 0) continue;
      if (k >= 4 && (pass[p + DX[k]] <= 0 || pass[p + side[k]] <= 0)) continue;
      if (exits !== null && (exits[p + step[k]] & back[k]) !== 0) continue;
      const d = key + (k >= 4 ? cost * Math.SQRT2 : cost);
      if (d < dist[j]) {
        dist[j] = d;
        queue.push(j, d);
      }
    }
  }
  return dist;
}
