/**
 * Dijkstra inside one cluster, on a private copy of its costs: the in-cluster costs between a
 * cluster's nodes (at build time) and the costs from a query's start and to its goal (at query
 * time). Owns the copy, the per-cell stamps and target marks, and the queues.
 */
import type { SearchView } from '../../../grid/navgrid.js';
import { NodeHeap } from '../../kernel/heap.js';
import { Stamps } from '../../kernel/scratch.js';
import { DX as DX_, DY as DY_, SQRT2 as SQRT2_, padXY } from '../../../grid/padded.js';
import type { ClusterLayout } from './ids.js';

// Module-local copies: some loaders (tsx) turn imported bindings into getter calls in hot loops.
const DX = DX_;
const DY = DY_;
const SQRT2 = SQRT2_;

/**
 * Generation stamps with a second array of target marks that shares their generation: a cell is a
 * target of the current search when its mark equals the open stamp. Both are cleared on a wrap.
 */
export class TargetStamps extends Stamps {
  readonly mark: Uint32Array;

  constructor(size: number) {
    super(size);
    this.mark = new Uint32Array(size);
  }

  override next(): number {
    const open = super.next();
    // The first generation after a wrap (or the very first): marks from before are meaningless.
    if (open === 2) this.mark.fill(0);
    return open;
  }
}

/**
 * Searches inside one cluster. Local index of a cell: its place in the cluster with a ring of one
 * blocked cell around it (rows clusterSize + 2 long), so no step needs a bounds check and no step
 * reads the big grid arrays.
 */
export class ClusterSearch {
  private readonly layout: ClusterLayout;
  private readonly view: SearchView;
  private readonly cardinal: boolean;
  /** The cluster whose costs `localCosts` holds (-1: none, or the grid changed since). */
  private loadedCluster = -1;
  /** The loaded cluster's cell costs, 0 (blocked) on the ring around it. */
  private readonly localCosts: Float32Array;
  /** Local index step per direction N E S W NE SE SW NW. */
  private readonly localSteps = new Int32Array(8);
  /** Per local cell: open / closed stamps, and the target marks of the current search. */
  readonly stamps: TargetStamps;
  /** How many marked targets the next search waits for before it stops. */
  targets = 0;
  private readonly heap: NodeHeap;
  /** Uniform costs: FIFO queues of cells reached by a straight step and by a diagonal one, with their costs. */
  private readonly straightQueue: Int32Array;
  private readonly diagonalQueue: Int32Array;
  private readonly straightCosts: Float64Array;
  private readonly diagonalCosts: Float64Array;

  constructor(layout: ClusterLayout, view: SearchView, cardinal: boolean) {
    this.layout = layout;
    this.view = view;
    this.cardinal = cardinal;
    const L = layout.clusterSize + 2;
    const cells = L * L;
    this.localCosts = new Float32Array(cells);
    for (let dir = 0; dir < 8; dir++) this.localSteps[dir] = DY[dir] * L + DX[dir];
    this.stamps = new TargetStamps(cells);
    this.heap = new NodeHeap(cells);
    // A cell is queued at most once per neighbour.
    this.straightQueue = new Int32Array(4 * cells + 8);
    this.diagonalQueue = new Int32Array(4 * cells + 8);
    this.straightCosts = new Float64Array(4 * cells + 8);
    this.diagonalCosts = new Float64Array(4 * cells + 8);
  }

  /** Cells in a cluster's local arrays. */
  get localSize(): number {
    return this.localCosts.length;
  }

  /** Drops the loaded costs (the grid changed). */
  forget(): void {
    this.loadedCluster = -1;
  }

  /**
   * Starts a new generation with cluster k's nodes (and padded cell `extra`, if >= 0) as the
   * targets of the next {@link costsFrom}.
   */
  markTargets(k: number, nodes: Int32Array, extra: number): void {
    const mark = this.stamps.next();
    const marks = this.stamps.mark;
    let n = 0;
    for (let j = 0; j < nodes.length; j++) {
      const l = this.layout.localCell(k, nodes[j]);
      if (marks[l] !== mark) {
        marks[l] = mark;
        n++;
      }
    }
    if (extra >= 0) {
      const l = this.layout.localCell(k, extra);
      if (marks[l] !== mark) {
        marks[l] = mark;
        n++;
      }
    }
    this.targets = n;
  }

  /**
   * Dijkstra inside cluster k from padded cell `src`: `out[local]` is the cost from src (or, with
   * `reverse`, to src), Infinity where the cluster alone does not connect them. Runs in the current
   * generation of `stamps` (the caller marked `targets` cells with it) and stops once those are
   * settled; other cells may then hold tentative costs. `uniform`: every walkable cell of the
   * cluster costs the same, so two FIFO queues (one per step length) replace the heap. Without
   * `fill`, only the cells stamped by this search hold costs (the caller checks the stamps).
   */
  costsFrom(k: number, src: number, reverse: boolean, out: Float64Array, uniform = false, fill = true): void {
    if (this.loadedCluster !== k) this.load(k);
    const lp = this.localCosts;
    const L = this.layout.clusterSize + 2;
    const step = this.localSteps;
    if (fill) out.fill(Infinity, 0, L * L);
    const stamp = this.stamps.stamp;
    const mark = this.stamps.mark;
    const open = this.stamps.generation;
    const closed = open + 1;
    let left = this.targets;
    const s0 = this.layout.localCell(k, src);
    out[s0] = 0;
    stamp[s0] = open;
    const dirs = this.cardinal ? 4 : 8;
    if (uniform) {
      const q1 = this.straightQueue;
      const q2 = this.diagonalQueue;
      const d1 = this.straightCosts;
      const d2 = this.diagonalCosts;
      let h1 = 0;
      let t1 = 0;
      let h2 = 0;
      let t2 = 0;
      q1[t1] = s0;
      d1[t1++] = 0;
      const unit = lp[s0];
      const diag = SQRT2 * unit;
      while (h1 < t1 || h2 < t2) {
        let l: number;
        let d: number;
        if (h2 >= t2 || (h1 < t1 && d1[h1] <= d2[h2])) {
          l = q1[h1];
          d = d1[h1++];
        } else {
          l = q2[h2];
          d = d2[h2++];
        }
        if (stamp[l] === closed || d > out[l]) continue;
        stamp[l] = closed;
        if (mark[l] === open && --left <= 0) return;
        const nd1 = d + unit;
        // Cardinal steps first (unrolled: this loop is most of the build), noting which are open;
        // a diagonal needs both cardinals beside it open (no corner cutting).
        const n0 = l - L;
        const n1 = l + 1;
        const n2 = l + L;
        const n3 = l - 1;
        const o0 = lp[n0] > 0;
        const o1 = lp[n1] > 0;
        const o2 = lp[n2] > 0;
        const o3 = lp[n3] > 0;
        if (o0 && stamp[n0] !== closed && (stamp[n0] !== open || nd1 < out[n0])) {
          out[n0] = nd1;
          stamp[n0] = open;
          q1[t1] = n0;
          d1[t1++] = nd1;
        }
        if (o1 && stamp[n1] !== closed && (stamp[n1] !== open || nd1 < out[n1])) {
          out[n1] = nd1;
          stamp[n1] = open;
          q1[t1] = n1;
          d1[t1++] = nd1;
        }
        if (o2 && stamp[n2] !== closed && (stamp[n2] !== open || nd1 < out[n2])) {
          out[n2] = nd1;
          stamp[n2] = open;
          q1[t1] = n2;
          d1[t1++] = nd1;
        }
        if (o3 && stamp[n3] !== closed && (stamp[n3] !== open || nd1 < out[n3])) {
          out[n3] = nd1;
          stamp[n3] = open;
          q1[t1] = n3;
          d1[t1++] = nd1;
        }
        if (dirs === 4) continue;
        const nd2 = d + diag;
        // NE, SE, SW, NW.
        for (let dir = 4; dir < 8; dir++) {
          if (!(dir === 4 ? o0 && o1 : dir === 5 ? o1 && o2 : dir === 6 ? o2 && o3 : o3 && o0)) continue;
          const n = l + step[dir];
          if (lp[n] <= 0 || stamp[n] === closed || (stamp[n] === open && nd2 >= out[n])) continue;
          out[n] = nd2;
          stamp[n] = open;
          q2[t2] = n;
          d2[t2++] = nd2;
        }
      }
      return;
    }
    const heap = this.heap;
    heap.clear();
    heap.push(s0, 0, 0);
    while (heap.size > 0) {
      const l = heap.pop();
      stamp[l] = closed;
      if (mark[l] === open && --left <= 0) return;
      const d = out[l];
      for (let dir = 0; dir < dirs; dir++) {
        const n = l + step[dir];
        const cn = lp[n];
        if (cn <= 0) continue;
        if (dir >= 4 && (lp[l + DX[dir]] <= 0 || lp[l + DY[dir] * L] <= 0)) continue;
        const s = stamp[n];
        if (s === closed) continue;
        // Forward: the cost of entering n; reverse (towards src): the cost of entering l from n.
        const nd = d + (dir >= 4 ? SQRT2 : 1) * (reverse ? lp[l] : cn);
        if (s === open) {
          if (nd < out[n]) {
            out[n] = nd;
            heap.decrease(n, nd, 0);
          }
        } else {
          out[n] = nd;
          stamp[n] = open;
          heap.push(n, nd, 0);
        }
      }
    }
  }

  /** Copies cluster k's costs into localCosts (0 on the ring around it). */
  private load(k: number): void {
    this.loadedCluster = k;
    const layout = this.layout;
    const c = layout.clusterSize;
    const L = c + 2;
    const W = layout.stride;
    const pass = this.view.pass;
    const lp = this.localCosts;
    lp.fill(0);
    const x0 = layout.clusterX(k);
    const y0 = layout.clusterY(k);
    const w = Math.min(c, layout.width - x0);
    const h = Math.min(c, layout.height - y0);
    for (let y = 0; y < h; y++) {
      const row = padXY(W, x0, y0 + y);
      lp.set(pass.subarray(row, row + w), (y + 1) * L + 1);
    }
  }
}
