import type { NavGrid } from '../grid/navgrid.js';
import type { Pathfinder } from '../search/pathfinder.js';
import type { MovementName } from '../search/movement.js';
import { DX as DX_, DY as DY_ } from '../search/padded.js';

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
 * walkable, like the search.
 */
export class FlowField {
  readonly grid: NavGrid;
  readonly goal: number;
  readonly layer: number;
  readonly movement: MovementName;
  /** Path cost from each cell to the goal; Infinity where unreachable or beyond the bound. */
  readonly dist: Float64Array;
  /** The cost bound used to build it (Infinity: the whole component). */
  readonly maxCost: number;
  private readonly nextCell: Int32Array;

  constructor(grid: NavGrid, finder: Pathfinder, goal: number, layer: number, movement: MovementName, maxCost = Infinity) {
    this.grid = grid;
    this.goal = goal;
    this.layer = layer;
    this.movement = movement;
    this.maxCost = maxCost;
    this.dist = finder.distanceMap([goal], { layer, movement, maxCost });
    // -2: not computed yet; -1: no way on (unreachable or the goal itself).
    this.nextCell = new Int32Array(grid.size).fill(-2);
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
    let mx = 0;
    let my = 0;
    for (let k = 0; k < n; k++) {
      mx += grid.xOf(cells[k]) / n;
      my += grid.yOf(cells[k]) / n;
    }
    let mid = -1;
    let best = Infinity;
    for (let k = 0; k < n; k++) {
      const d = Math.hypot(grid.xOf(cells[k]) - mx, grid.yOf(cells[k]) - my);
      if (cells[k] >= 0 && d < best) {
        best = d;
        mid = cells[k];
      }
    }
    let spread = 0;
    for (let k = 0; k < n; k++) if (cells[k] >= 0) spread = Math.max(spread, Math.hypot(grid.xOf(cells[k]) - grid.xOf(mid), grid.yOf(cells[k]) - grid.yOf(mid)));
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
    let n = this.nextCell[i];
    if (n !== -2) return n;
    n = -1;
    const grid = this.grid;
    const dist = this.dist;
    let best = dist[i];
    if (best !== Infinity && i !== this.goal) {
      const x = grid.xOf(i);
      const y = grid.yOf(i);
      const walk = grid.layers[this.layer].walkable;
      const diagonal = this.movement !== 'cardinal' && this.movement !== 'iso';
      for (let k = 0; k < (diagonal ? 8 : 4); k++) {
        const nx = x + DX[k];
        const ny = y + DY[k];
        if (nx < 0 || ny < 0 || nx >= grid.width || ny >= grid.height) continue;
        if (k >= 4 && (walk[y * grid.width + nx] === 0 || walk[ny * grid.width + x] === 0)) continue;
        const j = ny * grid.width + nx;
        if (dist[j] < best) {
          best = dist[j];
          n = j;
        }
      }
    }
    this.nextCell[i] = n;
    return n;
  }

  /** Forgets the cached steps (after the grid changed and `dist` was not rebuilt). */
  clearSteps(): void {
    this.nextCell.fill(-2);
  }
}
