/**
 * The goals of one search for the nearest of several goals (findPath's `goals`): the padded cells,
 * sorted so that a settled cell is looked up in log time, and the estimate A* reads.
 *
 * The estimate is the step distance to the nearest goal while there are at most
 * {@link GOAL_ESTIMATE_LIMIT} of them, and past that the distance to their bounding box (in axial
 * coordinates for hex and staggered models: the larger of the two axes' gaps, which no step closes
 * by more than one). Both are consistent: each is the minimum of consistent estimates, or a
 * distance to a set that one step changes by at most its length. So the first goal A* settles is a
 * nearest one, at its exact cost.
 */
import { offsetToAxial, type CellPoint } from '../../../grid/projection.js';
import { axialDistance, type MovementModel } from '../../movement.js';
import { OCTILE_K, pad } from '../../../grid/padded.js';

/** Up to this many goals the estimate is the nearest goal's step distance; past it, the goals' bounding box's. */
export const GOAL_ESTIMATE_LIMIT = 16;

/** Goals of one query, reused across queries (nothing per cell of the grid). @internal */
export class GoalSet {
  /** Goal cell indices as checked (every one on the grid): {@link length} of them. */
  cells = new Int32Array(8);
  /** How many of {@link cells} are set. */
  length = 0;
  /** Each goal's layer (index), beside {@link cells}. */
  layers = new Uint8Array(8);
  /** After {@link prepare}: the goal nodes kept (padded cells, or across links node ids), ascending and unique, {@link count} of them. */
  nodes = new Int32Array(8);
  /** How many of {@link nodes} are set. */
  count = 0;
  /** The kept goals in the estimate's coordinates (x, y; axial q, r for hex and staggered models). */
  private qs = new Float64Array(8);
  private rs = new Float64Array(8);
  private kind: MovementModel['heuristic'] = 'octile';
  private layout: MovementModel['hexLayout'] = 'axial';
  private q0 = 0;
  private q1 = 0;
  private r0 = 0;
  private r1 = 0;
  private readonly at: CellPoint = { x: 0, y: 0 };

  /** Forgets every goal. */
  clear(): void {
    this.length = 0;
    this.count = 0;
  }

  /** Adds goal cell `cell` (an index on the grid) on layer index `layer`; duplicates are merged by {@link prepare}. */
  add(cell: number, layer = 0): void {
    if (this.length === this.cells.length) {
      this.cells = grow(this.cells);
      const layers = new Uint8Array(this.cells.length);
      layers.set(this.layers);
      this.layers = layers;
    }
    this.layers[this.length] = layer;
    this.cells[this.length++] = cell;
  }

  /** Whether every goal is on layer index `layer`. */
  allOn(layer: number): boolean {
    for (let k = 0; k < this.length; k++) if (this.layers[k] !== layer) return false;
    return true;
  }

  /**
   * Keeps the goals whose node passes `keep` (usable, reachable), sorted and unique, and readies
   * the estimate for `model`. Returns how many are kept. A goal's node is its padded cell, or
   * with `slotOf` (a search across links: node `slot * size + padded cell`, see linked.ts) the
   * one of its layer's slot; goals on a layer without a slot (-1) are dropped.
   */
  prepare(width: number, model: MovementModel, keep: (node: number) => boolean, slotOf: Int8Array | null = null, size = 0): number {
    if (this.nodes.length < this.length) this.nodes = new Int32Array(this.cells.length);
    let n = 0;
    for (let k = 0; k < this.length; k++) {
      let p = pad(width, this.cells[k]);
      if (slotOf !== null) {
        const slot = slotOf[this.layers[k]];
        if (slot < 0) continue;
        p += slot * size;
      }
      if (keep(p)) this.nodes[n++] = p;
    }
    const sorted = this.nodes.subarray(0, n).sort();
    let u = 0;
    for (let k = 0; k < n; k++) if (k === 0 || sorted[k] !== sorted[k - 1]) this.nodes[u++] = sorted[k];
    this.count = u;
    this.kind = model.heuristic;
    this.layout = model.hexLayout;
    if (this.qs.length < u) {
      this.qs = new Float64Array(this.nodes.length);
      this.rs = new Float64Array(this.nodes.length);
    }
    const W = width + 2;
    this.q0 = this.r0 = Infinity;
    this.q1 = this.r1 = -Infinity;
    for (let k = 0; k < u; k++) {
      const p = slotOf === null ? this.nodes[k] : this.nodes[k] % size;
      const y = ((p / W) | 0) - 1;
      const a = this.coords(p - (y + 1) * W - 1, y);
      this.qs[k] = a.x;
      this.rs[k] = a.y;
      if (a.x < this.q0) this.q0 = a.x;
      if (a.x > this.q1) this.q1 = a.x;
      if (a.y < this.r0) this.r0 = a.y;
      if (a.y > this.r1) this.r1 = a.y;
    }
    return u;
  }

  /** Whether padded cell `node` is a kept goal. */
  has(node: number): boolean {
    return sortedHas(this.nodes, this.count, node);
  }

  /** The estimate at cell (x, y) in steps, before scaling by the layer's smallest cost (see the file's comment). */
  estimate(x: number, y: number): number {
    const a = this.coords(x, y);
    const kind = this.kind;
    if (this.count <= GOAL_ESTIMATE_LIMIT) {
      let best = Infinity;
      for (let k = 0; k < this.count; k++) {
        const d = distance(kind, a.x - this.qs[k], a.y - this.rs[k]);
        if (d < best) best = d;
      }
      return best;
    }
    const dq = a.x < this.q0 ? this.q0 - a.x : a.x > this.q1 ? a.x - this.q1 : 0;
    const dr = a.y < this.r0 ? this.r0 - a.y : a.y > this.r1 ? a.y - this.r1 : 0;
    return kind === 'octile' || kind === 'manhattan' || kind === 'chebyshev' ? distance(kind, dq, dr) : Math.max(dq, dr);
  }

  /** (x, y) in the estimate's coordinates, in a reused point. */
  private coords(x: number, y: number): CellPoint {
    const at = this.at;
    if (this.kind === 'octile' || this.kind === 'manhattan' || this.kind === 'chebyshev') {
      at.x = x;
      at.y = y;
      return at;
    }
    return offsetToAxial(this.layout, x, y, at);
  }
}

/** Step distance of a difference under a heuristic kind (axial for hex and staggered kinds). */
function distance(kind: MovementModel['heuristic'], dx: number, dy: number): number {
  const ax = Math.abs(dx);
  const ay = Math.abs(dy);
  switch (kind) {
    case 'octile':
      return ax > ay ? ax + OCTILE_K * ay : ay + OCTILE_K * ax;
    case 'chebyshev':
      return ax > ay ? ax : ay;
    case 'manhattan':
      return ax + ay;
    default:
      return axialDistance(kind, dx, dy);
  }
}

/** Whether the first `n` entries of ascending `a` hold `v` (a binary search). @internal */
export function sortedHas(a: Int32Array, n: number, v: number): boolean {
  let lo = 0;
  let hi = n - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const x = a[mid];
    if (x === v) return true;
    if (x < v) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

function grow(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}
