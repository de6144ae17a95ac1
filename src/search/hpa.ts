import { TilenavError, describe } from '../errors.js';
import type { NavGrid, SearchView } from '../grid/navgrid.js';
import { NodeHeap } from './heap.js';
import { DX as DX_, DY as DY_, K as K_, SQRT2 as SQRT2_, seedSearch, type SearchScratch } from './jps.js';

// Module-local copies: some loaders (tsx) turn imported bindings into getter calls in hot loops.
const DX = DX_;
const DY = DY_;
const K = K_;
const SQRT2 = SQRT2_;

/**
 * A two-level hierarchy for big maps, HPA*-style (Botea, Müller & Schaeffer 2004): the grid is cut
 * into square clusters; where walkable cells face each other across a cluster border (an
 * entrance), one pair of cells (three, at the ends and the middle, for an entrance 6 cells or
 * longer) become abstract nodes; each cluster stores the cheapest in-cluster cost between its nodes. A query links start and
 * goal into their clusters, searches the abstract graph, and refines each abstract step into cells.
 *
 * Works on any layer, with terrain costs (edge costs are real in-cluster path costs), for `octile`
 * and `cardinal` movement. Not exact: the abstract path runs through fixed entrance cells and
 * in-cluster paths; refinement then searches exactly between every second border crossing, which
 * straightens most of that out. Mean excess over optimal on the Moving AI maps (cluster 16): 0 %
 * maze, 0.4 % AcrosstheCape, 0.7 % random, 0.8 % room, 1.3 % rmtst01; a test bounds it. A tile change marks its
 * clusters (and their neighbours, whose border nodes may move) for rebuilding at the next query.
 *
 * Memory: 2 bytes per cell (node slot), plus per cluster its nodes and an m x m cost matrix.
 */
export interface HierarchyOptions {
  /** Cluster side in cells (4-128). @default 16 */
  clusterSize?: number;
}

/** @default 16 */
export const DEFAULT_CLUSTER_SIZE = 16;

export class Hierarchy {
  readonly clusterSize: number;
  readonly layer: number;
  readonly cardinal: boolean;
  /** Time of the first (full) build, ms. */
  buildMs = 0;
  /** Clusters rebuilt by the last refresh (after a tile change: the touched ones and their neighbours). */
  rebuiltClusters = 0;
  private readonly grid: NavGrid;
  private readonly view: SearchView;
  private readonly scratch: SearchScratch;
  private readonly cols: number;
  private readonly rows: number;
  /** Per padded cell: its index among its cluster's nodes, -1 when it is not a node. */
  private readonly slot: Int16Array;
  private readonly nodes: Int32Array[];
  private readonly costs: Float64Array[];
  private readonly dirty: Uint8Array;
  private anyDirty = true;
  // Cluster-local Dijkstra scratch.
  private readonly ld: Float64Array;
  private readonly lstamp: Uint32Array;
  private lgen = 0;
  private readonly lheap: NodeHeap;
  /** Local distances from the query's start (forward) and to its goal (reverse). */
  private readonly fromStart: Float64Array;
  private readonly toGoal: Float64Array;
  private readonly unsubscribe: () => void;

  constructor(grid: NavGrid, view: SearchView, scratch: SearchScratch, layer: number, cardinal: boolean, options: HierarchyOptions = {}) {
    const c = options.clusterSize ?? DEFAULT_CLUSTER_SIZE;
    if (!Number.isInteger(c) || c < 4 || c > 128) throw new TilenavError(`expected an integer 4..128, got ${describe(c)}`, { element: 'clusterSize' });
    this.grid = grid;
    this.view = view;
    this.scratch = scratch;
    this.layer = layer;
    this.cardinal = cardinal;
    this.clusterSize = c;
    this.cols = Math.ceil(grid.width / c);
    this.rows = Math.ceil(grid.height / c);
    const n = this.cols * this.rows;
    this.slot = new Int16Array(view.pass.length).fill(-1);
    this.nodes = new Array<Int32Array>(n);
    this.costs = new Array<Float64Array>(n);
    this.dirty = new Uint8Array(n).fill(1);
    this.ld = new Float64Array(c * c);
    this.lstamp = new Uint32Array(c * c);
    this.lheap = new NodeHeap(c * c);
    this.fromStart = new Float64Array(c * c);
    this.toGoal = new Float64Array(c * c);
    this.unsubscribe = grid.onChange((ch) => {
      if (ch.layer !== layer) return;
      // One cell beyond the rectangle: a border cell's change moves the nodes on both sides.
      const cx0 = Math.max(0, Math.floor((ch.x - 1) / c));
      const cy0 = Math.max(0, Math.floor((ch.y - 1) / c));
      const cx1 = Math.min(this.cols - 1, Math.floor((ch.x + ch.width) / c));
      const cy1 = Math.min(this.rows - 1, Math.floor((ch.y + ch.height) / c));
      for (let y = cy0; y <= cy1; y++) for (let x = cx0; x <= cx1; x++) this.dirty[y * this.cols + x] = 1;
      this.anyDirty = true;
    });
    const t = performance.now();
    this.refresh();
    this.buildMs = performance.now() - t;
  }

  /** Stops following the grid. */
  dispose(): void {
    this.unsubscribe();
  }

  /** Abstract nodes in all clusters. */
  get nodeCount(): number {
    let n = 0;
    for (const a of this.nodes) n += a.length;
    return n;
  }

  /** Bytes held: node slots, node lists, cost matrices. */
  get bytes(): number {
    let b = this.slot.byteLength;
    for (let k = 0; k < this.nodes.length; k++) b += this.nodes[k].byteLength + this.costs[k].byteLength;
    return b;
  }

  /** Rebuilds the clusters marked dirty (all of them at first). */
  refresh(): void {
    if (!this.anyDirty) return;
    this.anyDirty = false;
    const dirty = this.dirty;
    let n = 0;
    for (let k = 0; k < dirty.length; k++) if (dirty[k] === 1) this.placeNodes(k);
    for (let k = 0; k < dirty.length; k++) {
      if (dirty[k] === 1) {
        this.linkCluster(k);
        dirty[k] = 0;
        n++;
      }
    }
    this.rebuiltClusters = n;
  }

  /**
   * Abstract search from padded cell `start` to `goal` (distinct, walkable). Returns the abstract
   * path as padded cells (start first), or null when there is none; `expanded` counts abstract
   * expansions.
   */
  search(start: number, goal: number, out: { expanded: number }): number[] | null {
    this.refresh();
    const { g, parent, stamp, heap } = this.scratch;
    const W = this.view.stride;
    const pass = this.view.pass;
    const hs = this.view.minCost;
    const c = this.clusterSize;
    const sk = this.clusterOf(start);
    const gk = this.clusterOf(goal);
    this.localDijkstra(sk, start, false, this.fromStart);
    this.localDijkstra(gk, goal, true, this.toGoal);
    const gyy = (goal / W) | 0;
    const gxx = goal - gyy * W;
    const open = seedSearch(this.scratch, start);
    const closed = open + 1;
    const relax = (q: number, ng: number, from: number): void => {
      const s = stamp[q];
      if (s === closed || (s === open && ng >= g[q])) return;
      const qy = (q / W) | 0;
      const dx = Math.abs(q - qy * W - gxx);
      const dy = Math.abs(qy - gyy);
      const f = ng + (this.cardinal ? dx + dy : dx > dy ? dx + K * dy : dy + K * dx) * hs;
      g[q] = ng;
      parent[q] = from;
      if (s === open) heap.decrease(q, f, ng);
      else {
        stamp[q] = open;
        heap.push(q, f, ng);
      }
    };
    let expanded = 0;
    const gx0 = (gk % this.cols) * c;
    const gy0 = Math.floor(gk / this.cols) * c;
    const gw = Math.min(c, this.grid.width - gx0);
    while (heap.size > 0) {
      const p = heap.pop();
      stamp[p] = closed;
      if (p === goal) break;
      expanded++;
      const gp = g[p];
      const k = this.clusterOf(p);
      const nodes = this.nodes[k];
      const i = this.slot[p];
      if (p === start) {
        const x0 = (k % this.cols) * c;
        const y0 = Math.floor(k / this.cols) * c;
        const w = Math.min(c, this.grid.width - x0);
        for (let j = 0; j < nodes.length; j++) {
          const q = nodes[j];
          const qy = ((q / W) | 0) - 1;
          const d = this.fromStart[(qy - y0) * w + (q - (qy + 1) * W - 1 - x0)];
          if (d < Infinity && q !== p) relax(q, gp + d, p);
        }
      } else if (i >= 0) {
        const m = nodes.length;
        const row = this.costs[k];
        for (let j = 0; j < m; j++) {
          const d = row[i * m + j];
          if (j !== i && d < Infinity) relax(nodes[j], gp + d, p);
        }
      }
      if (i >= 0) {
        // Across a cluster border: the facing cell, when it is a node too.
        for (let dir = 0; dir < 4; dir++) {
          const q = p + DY[dir] * W + DX[dir];
          if (this.slot[q] >= 0 && pass[q] > 0 && this.clusterOf(q) !== k) relax(q, gp + pass[q], p);
        }
      }
      if (k === gk) {
        const py = ((p / W) | 0) - 1;
        const d = this.toGoal[(py - gy0) * gw + (p - (py + 1) * W - 1 - gx0)];
        if (d < Infinity) relax(goal, gp + d, p);
      }
    }
    out.expanded = expanded;
    if (stamp[goal] !== closed) return null;
    const path: number[] = [];
    for (let p = goal; p !== -1; p = parent[p]) path.push(p);
    return path.reverse();
  }

  private clusterOf(p: number): number {
    const W = this.view.stride;
    const y = ((p / W) | 0) - 1;
    const x = p - (y + 1) * W - 1;
    return Math.floor(y / this.clusterSize) * this.cols + Math.floor(x / this.clusterSize);
  }

  /** Finds cluster k's nodes: entrance cells on its side of each of its four borders. */
  private placeNodes(k: number): void {
    const old = this.nodes[k];
    if (old !== undefined) for (const p of old) this.slot[p] = -1;
    const c = this.clusterSize;
    const W = this.view.stride;
    const pass = this.view.pass;
    const x0 = (k % this.cols) * c;
    const y0 = Math.floor(k / this.cols) * c;
    const x1 = Math.min(x0 + c, this.grid.width) - 1;
    const y1 = Math.min(y0 + c, this.grid.height) - 1;
    const found: number[] = [];
    // Each border: a line of cells on our side, and the step to the facing cell.
    const borders: [number, number, number, number, number][] = [];
    if (y0 > 0) borders.push([x0, y0, 1, x1 - x0 + 1, -W]);
    if (y1 < this.grid.height - 1) borders.push([x0, y1, 1, x1 - x0 + 1, W]);
    if (x0 > 0) borders.push([x0, y0, W, y1 - y0 + 1, -1]);
    if (x1 < this.grid.width - 1) borders.push([x1, y0, W, y1 - y0 + 1, 1]);
    for (const [bx, by, step, len, across] of borders) {
      const first = (by + 1) * W + bx + 1;
      let run = -1;
      for (let t = 0; t <= len; t++) {
        const p = first + t * step;
        const ok = t < len && pass[p] > 0 && pass[p + across] > 0;
        if (ok && run < 0) run = t;
        if (!ok && run >= 0) {
          const n = t - run;
          // Both sides compute the same runs, so the pairs line up.
          if (n < 6) found.push(first + (run + ((n - 1) >> 1)) * step);
          else {
            found.push(first + run * step, first + (t - 1) * step);
            found.push(first + (run + ((n - 1) >> 1)) * step);
          }
          run = -1;
        }
      }
    }
    const uniq = [...new Set(found)];
    const nodes = Int32Array.from(uniq);
    for (let j = 0; j < nodes.length; j++) this.slot[nodes[j]] = j;
    this.nodes[k] = nodes;
  }

  /** The in-cluster cost between every pair of cluster k's nodes. */
  private linkCluster(k: number): void {
    const nodes = this.nodes[k];
    const m = nodes.length;
    const costs = new Float64Array(m * m).fill(Infinity);
    const c = this.clusterSize;
    const W = this.view.stride;
    const x0 = (k % this.cols) * c;
    const y0 = Math.floor(k / this.cols) * c;
    const w = Math.min(c, this.grid.width - x0);
    for (let i = 0; i < m; i++) {
      this.localDijkstra(k, nodes[i], false, this.ld);
      for (let j = 0; j < m; j++) {
        const q = nodes[j];
        const qy = ((q / W) | 0) - 1;
        costs[i * m + j] = this.ld[(qy - y0) * w + (q - (qy + 1) * W - 1 - x0)];
      }
    }
    this.costs[k] = costs;
  }

  /**
   * Dijkstra inside cluster k from padded cell `src`: `out[local]` is the cost from src (or, with
   * `reverse`, to src), Infinity where the cluster alone does not connect them.
   */
  private localDijkstra(k: number, src: number, reverse: boolean, out: Float64Array): void {
    const c = this.clusterSize;
    const W = this.view.stride;
    const pass = this.view.pass;
    const x0 = (k % this.cols) * c;
    const y0 = Math.floor(k / this.cols) * c;
    const w = Math.min(c, this.grid.width - x0);
    const h = Math.min(c, this.grid.height - y0);
    out.fill(Infinity, 0, w * h);
    const stamp = this.lstamp;
    this.lgen += 2;
    if (this.lgen > 0xfffffff0) {
      stamp.fill(0);
      this.lgen = 2;
    }
    const open = this.lgen;
    const closed = open + 1;
    const heap = this.lheap;
    heap.clear();
    const sy = ((src / W) | 0) - 1;
    const sx = src - (sy + 1) * W - 1;
    const s0 = (sy - y0) * w + (sx - x0);
    out[s0] = 0;
    stamp[s0] = open;
    heap.push(s0, 0, 0);
    const dirs = this.cardinal ? 4 : 8;
    while (heap.size > 0) {
      const l = heap.pop();
      stamp[l] = closed;
      const ly = (l / w) | 0;
      const lx = l - ly * w;
      const p = (ly + y0 + 1) * W + lx + x0 + 1;
      const d = out[l];
      for (let dir = 0; dir < dirs; dir++) {
        const nx = lx + DX[dir];
        const ny = ly + DY[dir];
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        const q = p + DY[dir] * W + DX[dir];
        if (pass[q] <= 0) continue;
        if (dir >= 4 && (pass[p + DX[dir]] <= 0 || pass[p + DY[dir] * W] <= 0)) continue;
        const n = ny * w + nx;
        const s = stamp[n];
        if (s === closed) continue;
        // Forward: the cost of entering q; reverse (towards src): the cost of entering p from q.
        const nd = d + (dir >= 4 ? SQRT2 : 1) * (reverse ? pass[p] : pass[q]);
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
}

/**
 * Refinement searches from one kept border crossing to the SKIP-th next. On the Moving AI maps the
 * mean excess over optimal is 1.4-2.7 % with 1, 0.4-1.3 % with 2, 0.4-0.8 % with 3 at twice the
 * query time of 2.
 */
const SKIP = 2;

/** What {@link refinePath} needs of the Pathfinder: an exact search between two cells. */
export type SegmentSearch = (sx: number, sy: number, gx: number, gy: number) => { status: string; cells: Int32Array; cost: number };

/**
 * Turns an abstract path (padded cells) into a full cell path (unpadded indices) by exact searches
 * between every SKIP-th border crossing (short searches, across a few clusters).
 * Returns null if a segment has no path (cannot happen while the hierarchy is up to date).
 */
export function refinePath(abstract: number[], stride: number, width: number, search: SegmentSearch): { cells: Int32Array; cost: number } | null {
  // Keep the start, the goal and the far side of every SKIP-th border crossing: the exact search
  // between two of them may cross borders anywhere, not just at the entrance cells, which removes
  // most of the detours the fixed entrance cells cause.
  const keep: number[] = [abstract[0]];
  for (let k = 1, crossings = 0; k < abstract.length - 1; k++) {
    const d = Math.abs(abstract[k] - abstract[k - 1]);
    if ((d === 1 || d === stride) && ++crossings % SKIP === 0) keep.push(abstract[k]);
  }
  keep.push(abstract[abstract.length - 1]);
  abstract = keep;
  const parts: Int32Array[] = [];
  let cost = 0;
  let total = 1;
  const xy = (p: number): [number, number] => {
    const y = ((p / stride) | 0) - 1;
    return [p - (y + 1) * stride - 1, y];
  };
  for (let k = 1; k < abstract.length; k++) {
    const a = abstract[k - 1];
    const b = abstract[k];
    const [ax, ay] = xy(a);
    const [bx, by] = xy(b);
    const r = search(ax, ay, bx, by);
    if (r.status !== 'found') return null;
    parts.push(r.cells.slice(1));
    cost += r.cost;
    total += r.cells.length - 1;
  }
  const cells = new Int32Array(total);
  const [sx, sy] = xy(abstract[0]);
  cells[0] = sy * width + sx;
  let o = 1;
  for (const part of parts) {
    cells.set(part, o);
    o += part.length;
  }
  return { cells, cost };
}
