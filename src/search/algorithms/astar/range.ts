/**
 * Movement range: Dijkstra from one cell within a cost budget, with cells that cannot be entered
 * (occupied) and cells that end the move (zone of control), recording the cells in the order it
 * settles them (cheapest first) so that the answer is sized by the cells reached, not the map.
 */
import type { SearchView } from '../../../grid/navgrid.js';
import type { GridAStar } from './astar.js';
import type { SearchOutcome } from '../../kernel/scratch.js';
import { sortedHas } from './goals.js';
import type { MovementModel } from '../../movement.js';
import { pad } from '../../../grid/padded.js';
import { TilenavError, describe } from '../../../errors.js';
import type { MovementRange, PathRefusal, PathResult } from '../../result.js';

/** Cells settled in order, in a buffer that grows and is reused across searches. @internal */
export class SettledCells {
  nodes = new Int32Array(64);
  count = 0;

  push(node: number): void {
    if (this.count === this.nodes.length) {
      const b = new Int32Array(this.nodes.length * 2);
      b.set(this.nodes);
      this.nodes = b;
    }
    this.nodes[this.count++] = node;
  }
}

/** How a range search treats some cells: which cannot be entered, which end the move. @internal */
export interface RangeRules {
  /** Cell indices that cannot be entered or passed (the start excepted). */
  readonly occupied: ArrayLike<number> | null;
  /** Padded cells that end the move, ascending (null: none, or see `stopIf`). */
  readonly stops: Int32Array | null;
  /** Cells (cell indices) that end the move, as a predicate; asked once per cell settled. */
  readonly stopIf: ((cell: number) => boolean) | null;
}

/**
 * Settles every cell of padded `start`'s reach whose cost is at most `budget` on `search`'s
 * scratch, cheapest first (ties: the heap's order, then the lower index), into `settled`, and
 * returns the number of cells expanded: the generic A* loop with no goal and no estimate. A cell
 * in `rules.occupied` is marked settled before the search, so no step enters it (the corner rule
 * still reads the map alone: a diagonal may pass between two occupied cells where the map allows
 * it). A stop cell is settled but not expanded, except the start: a unit may leave the cell it
 * stands on. Costs and parents stay in the scratch until its next search.
 */
export function rangeSearch(search: GridAStar, view: SearchView, model: MovementModel, width: number, start: number, budget: number, rules: RangeRules, settled: SettledCells, out: SearchOutcome): number {
  const scratch = search.scratch;
  const open = scratch.begin();
  const occupied = rules.occupied;
  if (occupied !== null) {
    for (let k = 0; k < occupied.length; k++) scratch.stamp[pad(width, occupied[k])] = open + 1;
  }
  scratch.place(start, 0);
  scratch.heap.push(start, 0, 0);
  const { stops, stopIf } = rules;
  const W = width + 2;
  settled.count = 0;
  const settle = (p: number): boolean => {
    settled.push(p);
    if (p === start) return true;
    if (stops !== null && sortedHas(stops, stops.length, p)) return false;
    if (stopIf === null) return true;
    const y = ((p / W) | 0) - 1;
    return !stopIf(y * width + p - (y + 1) * W - 1);
  };
  search.generic(view, model, start, -1, 0, Infinity, out, { maxCost: budget, seeded: true, nearest: false, settle });
  return out.expanded;
}

const EMPTY = new Int32Array(0);

/** The answer of a movement range query: arrays sized by the cells in range, one parent per cell. @internal */
export class RangeAnswer implements MovementRange {
  readonly cells: Int32Array;
  readonly costs: Float64Array;
  readonly expanded: number;
  readonly reason: PathRefusal | null;
  /** `parents[k]`: the position in `cells` of the cell before `cells[k]` on its path, -1 for the start. */
  private readonly parents: Int32Array;
  private readonly size: number;
  /** Positions in `cells` sorted by cell index, made by the first {@link indexOf}. */
  private byCell: Int32Array | null = null;

  constructor(cells: Int32Array, costs: Float64Array, parents: Int32Array, expanded: number, reason: PathRefusal | null, size: number) {
    this.cells = cells;
    this.costs = costs;
    this.parents = parents;
    this.expanded = expanded;
    this.reason = reason;
    this.size = size;
  }

  indexOf(cell: number): number {
    const cells = this.cells;
    const order = (this.byCell ??= Int32Array.from(cells, (_, k) => k).sort((a, b) => cells[a] - cells[b]));
    let lo = 0;
    let hi = order.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = cells[order[mid]];
      if (c === cell) return order[mid];
      if (c < cell) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  pathTo(cell: number, out?: Int32Array): PathResult {
    if (typeof cell !== 'number' || !Number.isInteger(cell) || cell < 0 || cell >= this.size) throw new TilenavError(`expected a cell index 0..${this.size - 1}, got ${describe(cell)}`, { element: 'cell' });
    if (out !== undefined && !(out instanceof Int32Array)) throw new TilenavError(`expected an Int32Array, got ${describe(out)}`, { element: 'out' });
    const k = this.indexOf(cell);
    if (k < 0) return { status: 'no-path', cells: EMPTY, cost: Infinity, costMeasure: 'steps', expanded: 0, reached: -1, reason: null, avoided: true, points: null, layers: null };
    const parents = this.parents;
    let len = 0;
    for (let j = k; j !== -1; j = parents[j]) len++;
    const path = out !== undefined && out.length >= len ? out.subarray(0, len) : new Int32Array(len);
    for (let j = k, i = len; j !== -1; j = parents[j]) path[--i] = this.cells[j];
    return { status: 'found', cells: path, cost: this.costs[k], costMeasure: 'steps', expanded: 0, reached: cell, reason: null, avoided: true, points: null, layers: null };
  }
}
