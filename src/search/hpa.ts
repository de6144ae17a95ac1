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
 * A two-level hierarchy for big maps, HPA*-style (Botea, Müller & Schaeffer 2004, with the
 * second level of their multi-level variant).
 *
 * Level 1: the grid is cut into square clusters (16 x 16 cells by default). Where walkable cells
 * face each other across a cluster border (an entrance), one pair of cells (three, at the ends and
 * the middle, for an entrance 6 cells or longer) become nodes; each cluster keeps the cheapest
 * in-cluster cost between its nodes.
 * Level 2: groups of 8 x 8 clusters. Along a group border, the middle level-1 node pair of each
 * entrance piece (an entrance cut at cluster borders) becomes a level-2 node pair; each group
 * keeps the cheapest in-group cost between its level-2 nodes (Dijkstra over the level-1 graph).
 * Both levels drop the edges another node of the same cluster (group) matches in cost, which
 * changes no distance and removes about half of them. Landmark distances (ALT) on the level-2
 * graph give its search a tighter heuristic than the octile distance.
 *
 * A query links start and goal into their clusters and groups, searches the level-2 graph, refines
 * each level-2 step inside its group on the level-1 graph, then turns the level-1 path into cells
 * with exact searches, each from one border crossing to the second next, inside the clusters the
 * path visits between them (which straightens out most detours through fixed entrance cells).
 * Start and goal in one group skip level 2. Components of the level-2 graph answer "no path"
 * without searching.
 *
 * Works on any layer, with terrain costs, for `octile` and `cardinal` movement. Not exact: the
 * mean excess over optimal on the Moving AI maps is measured and bounded in test/hpa.test.ts
 * (README). A tile change marks its clusters (and their neighbours, whose border nodes may move)
 * and their groups, rebuilt at the next query; the landmarks are recomputed once more than an
 * eighth of the groups changed (until then, changed groups fall back to the octile heuristic and
 * stale distances elsewhere can only make the level-2 path less direct, never wrong).
 *
 * Memory: 2 bytes per cell (node slots), plus per cluster and per group its nodes and pruned
 * edge lists, per level-2 node 8 landmark distances (float32; twice with terrain costs).
 */
export interface HierarchyOptions {
  /** Cluster side in cells (4-128); a group is 8 x 8 clusters. @default 16 */
  clusterSize?: number;
}

/** @default 16 */
export const DEFAULT_CLUSTER_SIZE = 16;

/** Clusters per group side. */
const GROUP = 8;

/**
 * Refinement searches run from one kept border crossing to the SKIP-th next, inside the clusters
 * the level-1 path visits between them.
 */
const SKIP = 2;
/** Entrances this long or longer get three nodes (both ends and the middle), shorter ones one. */
const LONG = 6;
/** Landmarks for the level-2 search's heuristic. */
const LANDMARKS = 8;

export class Hierarchy {
  readonly clusterSize: number;
  /** Group (level-2 cluster) side in cells. */
  readonly groupSize: number;
  readonly layer: number;
  readonly cardinal: boolean;
  /** Time of the first (full) build, ms. */
  buildMs = 0;
  /** Clusters rebuilt by the last refresh (after a tile change: the touched ones and their neighbours). */
  rebuiltClusters = 0;
  /** Groups rebuilt by the last refresh. */
  rebuiltGroups = 0;
  private readonly grid: NavGrid;
  private readonly view: SearchView;
  private readonly scratch: SearchScratch;
  private readonly W: number;
  private readonly cols: number;
  private readonly rows: number;
  private readonly cols2: number;
  private readonly rows2: number;
  /** Per padded cell: its index among its cluster's nodes, -1 when it is not a node. */
  private readonly slot: Int16Array;
  private readonly nodes: Int32Array[];
  /** Per cluster: its in-cluster edges between nodes, outgoing and incoming (pruned, see pruneEdges). */
  private readonly out: Edges[];
  private readonly in: Edges[];
  /** Per cluster, per node: its index among its group's level-2 nodes, -1 when it is not one. */
  private readonly up: Int16Array[];
  private readonly dirty: Uint8Array;
  private readonly nodes2: Int32Array[];
  private readonly out2: Edges[];
  private readonly in2: Edges[];
  private readonly dirty2: Uint8Array;
  private anyDirty = true;
  /** Per group, per level-2 node: its connected component; rebuilt lazily after a change. */
  private readonly comp: Int32Array[];
  private compStale = true;
  // Cluster-local Dijkstra scratch (heap for mixed costs, two FIFO queues for uniform ones).
  private readonly ld: Float64Array;
  private readonly lstamp: Uint32Array;
  private readonly lmark: Uint32Array;
  private lgen = 0;
  private readonly lheap: NodeHeap;
  private readonly q1: Int32Array;
  private readonly q2: Int32Array;
  private readonly qd1: Float64Array;
  private readonly qd2: Float64Array;
  /** Local distances from the query's start (forward) and to its goal (reverse). */
  private readonly fromStart: Float64Array;
  private readonly toGoal: Float64Array;
  /** Costs from the start to its group's level-2 nodes, and from the goal's group's to the goal. */
  private s2 = new Float64Array(64);
  private g2 = new Float64Array(64);
  // Refinement window scratch (grown on demand).
  private wg = new Float64Array(0);
  private wparent = new Int32Array(0);
  private wstamp = new Uint32Array(0);
  private wgen = 0;
  private wheap = new NodeHeap(1);
  // Landmarks (ALT) on the level-2 graph: per group, per node, per landmark.
  private readonly lmFwd: Float32Array[];
  private readonly lmBwd: Float32Array[];
  /** Per group: 1 when its landmark rows are current (0 after a rebuild of the group). */
  private readonly lmValid: Uint8Array;
  /** Groups rebuilt since the landmarks were computed. */
  private lmStale = 0;
  private lmOn = false;
  private readonly lmToGoal = new Float64Array(LANDMARKS);
  private readonly lmFromGoal = new Float64Array(LANDMARKS);
  /** Whether the landmark tables were computed as symmetric (one table for both directions). */
  private lmSym = true;
  // The current query.
  private goalX = 0;
  private goalY = 0;
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
    this.groupSize = c * GROUP;
    this.W = view.stride;
    this.cols = Math.ceil(grid.width / c);
    this.rows = Math.ceil(grid.height / c);
    this.cols2 = Math.ceil(this.cols / GROUP);
    this.rows2 = Math.ceil(this.rows / GROUP);
    const n = this.cols * this.rows;
    const n2 = this.cols2 * this.rows2;
    this.slot = new Int16Array(view.pass.length).fill(-1);
    this.nodes = new Array<Int32Array>(n);
    this.out = new Array<Edges>(n);
    this.in = new Array<Edges>(n);
    this.up = new Array<Int16Array>(n);
    this.dirty = new Uint8Array(n).fill(1);
    this.nodes2 = new Array<Int32Array>(n2).fill(new Int32Array(0));
    this.out2 = new Array<Edges>(n2);
    this.in2 = new Array<Edges>(n2);
    this.comp = new Array<Int32Array>(n2);
    this.dirty2 = new Uint8Array(n2).fill(1);
    this.lmFwd = new Array<Float32Array>(n2);
    this.lmBwd = new Array<Float32Array>(n2);
    this.lmValid = new Uint8Array(n2);
    const cc = c * c;
    this.ld = new Float64Array(cc);
    this.lstamp = new Uint32Array(cc);
    this.lmark = new Uint32Array(cc);
    this.lheap = new NodeHeap(cc);
    this.q1 = new Int32Array(4 * cc + 8);
    this.q2 = new Int32Array(4 * cc + 8);
    this.qd1 = new Float64Array(4 * cc + 8);
    this.qd2 = new Float64Array(4 * cc + 8);
    this.fromStart = new Float64Array(cc);
    this.toGoal = new Float64Array(cc);
    this.unsubscribe = grid.onChange((ch) => {
      if (ch.layer !== layer) return;
      // One cell beyond the rectangle: a border cell's change moves the nodes on both sides.
      const cx0 = Math.max(0, Math.floor((ch.x - 1) / c));
      const cy0 = Math.max(0, Math.floor((ch.y - 1) / c));
      const cx1 = Math.min(this.cols - 1, Math.floor((ch.x + ch.width) / c));
      const cy1 = Math.min(this.rows - 1, Math.floor((ch.y + ch.height) / c));
      for (let y = cy0; y <= cy1; y++) {
        for (let x = cx0; x <= cx1; x++) {
          this.dirty[y * this.cols + x] = 1;
          this.dirty2[Math.floor(y / GROUP) * this.cols2 + Math.floor(x / GROUP)] = 1;
        }
      }
      this.anyDirty = true;
    });
    const t = performance.now();
    this.refresh();
    this.components();
    this.landmarks();
    this.buildMs = performance.now() - t;
  }

  /** Every walkable cell of the layer costs the same, so every cost here is symmetric. */
  private get symmetric(): boolean {
    return this.view.uniform;
  }

  /** Stops following the grid. */
  dispose(): void {
    this.unsubscribe();
  }

  /** Level-1 nodes in all clusters. */
  get nodeCount(): number {
    let n = 0;
    for (const a of this.nodes) n += a.length;
    return n;
  }

  /** Level-2 nodes in all groups. */
  get groupNodeCount(): number {
    let n = 0;
    for (const a of this.nodes2) n += a.length;
    return n;
  }

  /** Bytes held: node slots, node lists, cost matrices, on both levels. */
  get bytes(): number {
    let b = this.slot.byteLength;
    const edges = (a: Edges, b: Edges): number => a.off.byteLength + a.to.byteLength + a.cost.byteLength + (a === b ? 0 : b.off.byteLength + b.to.byteLength + b.cost.byteLength);
    for (let k = 0; k < this.nodes.length; k++) b += this.nodes[k].byteLength + edges(this.out[k], this.in[k]) + this.up[k].byteLength;
    for (let k = 0; k < this.nodes2.length; k++) {
      b += this.nodes2[k].byteLength + edges(this.out2[k], this.in2[k]) + (this.comp[k]?.byteLength ?? 0);
      b += (this.lmFwd[k]?.byteLength ?? 0) + (this.lmBwd[k] !== this.lmFwd[k] ? (this.lmBwd[k]?.byteLength ?? 0) : 0);
    }
    return b;
  }

  /** Rebuilds the clusters and groups marked dirty (all of them at first). */
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
    const dirty2 = this.dirty2;
    n = 0;
    for (let k = 0; k < dirty2.length; k++) if (dirty2[k] === 1) this.placeGroupNodes(k);
    for (let k = 0; k < dirty2.length; k++) {
      if (dirty2[k] === 1) {
        this.linkGroup(k);
        dirty2[k] = 0;
        this.lmValid[k] = 0;
        n++;
      }
    }
    this.lmStale += n;
    this.rebuiltGroups = n;
    if (n > 0) this.compStale = true;
  }

  /**
   * A path from padded cell `start` to `goal` (distinct, walkable) as cell indices, with its cost;
   * null when there is none. `out.expanded` counts abstract expansions on both levels.
   * @internal called by `Pathfinder.findPath(..., { algorithm: 'hpa' })`, which checks the input.
   */
  findPath(start: number, goal: number, out: { expanded: number }): { cells: Int32Array; cost: number } | null {
    const abstract = this.search(start, goal, out);
    return abstract === null ? null : this.refine(abstract);
  }

  /**
   * The level-1 path from padded cell `start` to `goal` (distinct, walkable): padded cells, start
   * first; null when there is none. `out.expanded` counts abstract expansions.
   * @internal
   */
  search(start: number, goal: number, out: { expanded: number }): number[] | null {
    this.refresh();
    const W = this.W;
    const sk = this.clusterOf(start);
    const gk = this.clusterOf(goal);
    const sg = this.groupOf(start);
    const gg = this.groupOf(goal);
    this.goalY = ((goal / W) | 0) - 1;
    this.goalX = goal - (this.goalY + 1) * W - 1;
    // Local distances: to the start cluster's nodes, and from the goal cluster's nodes (and the start).
    this.markTargets(sk, -1);
    this.localDijkstra(sk, start, false, this.fromStart);
    this.markTargets(gk, sk === gk ? start : -1);
    this.localDijkstra(gk, goal, true, this.toGoal);
    out.expanded = 0;
    this.qStart = start;
    this.qGoal = goal;
    const path = [start];
    if (sg === gg) {
      // One group: reachable inside it, or through the level-2 graph; then the level-1 graph, unbounded.
      const inside = this.connect(start, sk, sg, false, true, gk);
      if (!inside) {
        if (this.nodes2[sg].length === 0) return null;
        this.connect(goal, gk, gg, true, false, -1);
        if (!this.linked(sg, gg)) return null;
      }
      return this.searchLevel1(start, goal, -1, out, path) ? path : null;
    }
    this.connect(start, sk, sg, false, false, -1);
    this.connect(goal, gk, gg, true, false, -1);
    if (!this.linked(sg, gg)) return null;
    const top = this.searchLevel2(start, goal, out);
    if (top === null) return null;
    // Each level-2 step: across a group border (one cell), or a level-1 search inside its group.
    for (let k = 1; k < top.length; k++) {
      const a = top[k - 1];
      const b = top[k];
      const G = this.groupOf(a);
      if (this.groupOf(b) !== G) path.push(b);
      else if (!this.searchLevel1(a, b, G, out, path)) return null;
    }
    return path;
  }

  private qStart = -1;
  private qGoal = -1;

  /** Cluster index of padded cell p. */
  private clusterOf(p: number): number {
    const W = this.W;
    const y = ((p / W) | 0) - 1;
    const x = p - (y + 1) * W - 1;
    const c = this.clusterSize;
    return ((y / c) | 0) * this.cols + ((x / c) | 0);
  }

  /** Group index of padded cell p. */
  private groupOf(p: number): number {
    const W = this.W;
    const y = ((p / W) | 0) - 1;
    const x = p - (y + 1) * W - 1;
    const c = this.groupSize;
    return ((y / c) | 0) * this.cols2 + ((x / c) | 0);
  }

  /** Index of padded cell p inside cluster k's local arrays. */
  private local(k: number, p: number): number {
    const W = this.W;
    const c = this.clusterSize;
    const x0 = (k % this.cols) * c;
    const y0 = Math.floor(k / this.cols) * c;
    const w = Math.min(c, this.grid.width - x0);
    const y = ((p / W) | 0) - 1;
    return (y - y0) * w + (p - (y + 1) * W - 1 - x0);
  }

  /** Octile (or Manhattan) distance from padded cell p to the goal, scaled by the cheapest cost. */
  private h(p: number): number {
    const W = this.W;
    const y = ((p / W) | 0) - 1;
    const dx = Math.abs(p - (y + 1) * W - 1 - this.goalX);
    const dy = Math.abs(y - this.goalY);
    return (this.cardinal ? dx + dy : dx > dy ? dx + K * dy : dy + K * dx) * this.view.minCost;
  }

  /** Relaxes padded cell q to cost ng via `from` in the shared scratch (A* keys). */
  private relax(q: number, ng: number, from: number, open: number, astar: boolean): void {
    const { g, stamp, parent, heap } = this.scratch;
    const s = stamp[q];
    if (s === open + 1 || (s === open && ng >= g[q])) return;
    const f = astar ? ng + this.h(q) : ng;
    g[q] = ng;
    parent[q] = from;
    if (s === open) heap.decrease(q, f, ng);
    else {
      stamp[q] = open;
      heap.push(q, f, ng);
    }
  }

  /**
   * Level-1 A* from `from` to `to` (each the query's start or goal, or a level-1 node), appending
   * the path after `from` to `path`. `within`: -1 anywhere, G >= 0 only inside group G. Returns
   * false when there is no path.
   */
  private searchLevel1(from: number, to: number, within: number, out: { expanded: number }, path: number[]): boolean {
    const scratch = this.scratch;
    const { g, parent, stamp, heap } = scratch;
    const W = this.W;
    const pass = this.view.pass;
    const slot = this.slot;
    const start = this.qStart;
    const goal = this.qGoal;
    const sk = this.clusterOf(start);
    const gk = to === goal ? this.clusterOf(goal) : -1;
    this.goalY = ((to / W) | 0) - 1;
    this.goalX = to - (this.goalY + 1) * W - 1;
    const open = seedSearch(scratch, from);
    const closed = open + 1;
    let expanded = 0;
    while (heap.size > 0) {
      const p = heap.pop();
      stamp[p] = closed;
      if (p === to) break;
      expanded++;
      const gp = g[p];
      const k = this.clusterOf(p);
      const nodes = this.nodes[k];
      const i = slot[p];
      if (p === start) {
        const fs = this.fromStart;
        for (let j = 0; j < nodes.length; j++) {
          const q = nodes[j];
          const d = fs[this.local(sk, q)];
          if (d < Infinity && q !== p) this.relax(q, gp + d, p, open, true);
        }
      } else if (i >= 0) {
        const e = this.out[k];
        for (let x = e.off[i]; x < e.off[i + 1]; x++) this.relax(nodes[e.to[x]], gp + e.cost[x], p, open, true);
      }
      if (i >= 0) {
        // Across a cluster border: the facing cell, when it is a node too.
        for (let dir = 0; dir < 4; dir++) {
          const q = p + DY[dir] * W + DX[dir];
          if (slot[q] < 0 || pass[q] <= 0 || this.clusterOf(q) === k) continue;
          if (within >= 0 && this.groupOf(q) !== within) continue;
          this.relax(q, gp + pass[q], p, open, true);
        }
      }
      if (k === gk) {
        const d = this.toGoal[this.local(gk, p)];
        if (d < Infinity) this.relax(goal, gp + d, p, open, true);
      }
    }
    out.expanded += expanded;
    if (stamp[to] !== closed) return false;
    const at = path.length;
    for (let p = to; p !== from; p = parent[p]) path.push(p);
    reverseFrom(path, at);
    return true;
  }

  /**
   * Level-2 A* from start to goal through the groups' level-2 nodes (linked to start and goal by
   * {@link connect}): the level-2 path (padded cells, start first), or null.
   */
  private searchLevel2(start: number, goal: number, out: { expanded: number }): number[] | null {
    const scratch = this.scratch;
    const { g, parent, stamp, heap } = scratch;
    const W = this.W;
    const pass = this.view.pass;
    const slot = this.slot;
    const gg = this.groupOf(goal);
    this.prepareLandmarks(gg);
    const open = seedSearch(scratch, start);
    const closed = open + 1;
    let expanded = 0;
    while (heap.size > 0) {
      const p = heap.pop();
      stamp[p] = closed;
      if (p === goal) break;
      expanded++;
      const gp = g[p];
      const G = this.groupOf(p);
      const nodes = this.nodes2[G];
      const s1 = slot[p];
      const i = s1 >= 0 ? this.up[this.clusterOf(p)][s1] : -1;
      if (p === start) {
        for (let j = 0; j < nodes.length; j++) if (this.s2[j] < Infinity && nodes[j] !== p) this.relax2(nodes[j], gp + this.s2[j], p, open);
      } else if (i >= 0) {
        const e = this.out2[G];
        for (let x = e.off[i]; x < e.off[i + 1]; x++) this.relax2(nodes[e.to[x]], gp + e.cost[x], p, open);
      }
      if (i >= 0) {
        for (let dir = 0; dir < 4; dir++) {
          const q = p + DY[dir] * W + DX[dir];
          const t = slot[q];
          if (t < 0 || pass[q] <= 0 || this.groupOf(q) === G || this.up[this.clusterOf(q)][t] < 0) continue;
          this.relax2(q, gp + pass[q], p, open);
        }
        if (G === gg && this.g2[i] < Infinity) this.relax2(goal, gp + this.g2[i], p, open);
      }
    }
    out.expanded += expanded;
    if (stamp[goal] !== closed) return null;
    const path: number[] = [];
    for (let p = goal; p !== -1; p = parent[p]) path.push(p);
    return path.reverse();
  }

  /** Relaxes level-2 node (or the goal) q; the key uses the landmark heuristic. */
  private relax2(q: number, ng: number, from: number, open: number): void {
    const { g, stamp, parent, heap } = this.scratch;
    const s = stamp[q];
    if (s === open + 1 || (s === open && ng >= g[q])) return;
    if (s === open) {
      // Queued already: its heuristic is its key minus its old g.
      const h = heap.keyOf(q) - g[q];
      g[q] = ng;
      parent[q] = from;
      heap.decrease(q, ng + h, ng);
      return;
    }
    let h = this.h(q);
    if (q !== this.qGoal && this.lmOn) {
      const G = this.groupOf(q);
      if (this.lmValid[G] === 1) {
        const i = this.up[this.clusterOf(q)][this.slot[q]];
        const f = this.lmFwd[G];
        const b = this.lmBwd[G];
        const o = i * LANDMARKS;
        const tf = this.lmToGoal;
        const tb = this.lmFromGoal;
        for (let l = 0; l < LANDMARKS; l++) {
          const a = tf[l] - f[o + l];
          if (a > h) h = a;
          const c = b[o + l] - tb[l];
          if (c > h) h = c;
        }
      }
    }
    g[q] = ng;
    parent[q] = from;
    stamp[q] = open;
    heap.push(q, ng + h, ng);
  }

  /**
   * The landmark terms for this query's goal: lmToGoal[l] = d(L, goal) and lmFromGoal[l] = d(goal, L)
   * on the level-2 graph, through the goal group's nodes (g2). Terms that could overestimate are
   * set so that they never win (-Infinity / +Infinity). Recomputes the landmarks first when many
   * groups changed since they were computed.
   */
  private prepareLandmarks(gg: number): void {
    // A layer that stopped being uniform needs the two-table form.
    if (this.lmStale > Math.max(4, this.nodes2.length >> 3) || (this.lmSym && !this.symmetric)) this.landmarks();
    this.lmOn = false;
    const tf = this.lmToGoal;
    const tb = this.lmFromGoal;
    tf.fill(-Infinity);
    tb.fill(Infinity);
    if (this.lmValid[gg] !== 1) return;
    const f = this.lmFwd[gg];
    const b = this.lmBwd[gg];
    const m = this.nodes2[gg].length;
    for (let l = 0; l < LANDMARKS; l++) {
      let to = Infinity;
      let from = Infinity;
      for (let j = 0; j < m; j++) {
        const d = this.g2[j];
        if (!(d < Infinity)) continue;
        to = Math.min(to, f[j * LANDMARKS + l] + d);
        // d(goal, j) = d(j, goal) only when costs are symmetric.
        if (this.lmSym) from = Math.min(from, b[j * LANDMARKS + l] + d);
      }
      // Unreachable from (or to) the landmark: no bound from it.
      if (to < Infinity) {
        tf[l] = to;
        this.lmOn = true;
      }
      if (from < Infinity) {
        tb[l] = from;
        this.lmOn = true;
      }
    }
  }

  /**
   * Picks LANDMARKS level-2 nodes far apart (each the farthest from those already picked) and
   * stores every node's distance from (lmFwd) and to (lmBwd) each of them (ALT, Goldberg & Harrelson
   * 2005): the level-2 search's heuristic.
   */
  private landmarks(): void {
    this.lmStale = 0;
    this.lmSym = this.symmetric;
    const n2 = this.nodes2.length;
    const base = new Int32Array(n2 + 1);
    for (let G = 0; G < n2; G++) base[G + 1] = base[G] + this.nodes2[G].length;
    const total = base[n2];
    for (let G = 0; G < n2; G++) {
      const m = this.nodes2[G].length;
      this.lmFwd[G] = new Float32Array(m * LANDMARKS).fill(Infinity);
      this.lmBwd[G] = this.symmetric ? this.lmFwd[G] : new Float32Array(m * LANDMARKS).fill(Infinity);
      this.lmValid[G] = 1;
    }
    if (total === 0) return;
    const near = new Float64Array(total).fill(Infinity);
    // Start from the node farthest from an arbitrary one.
    let first = 0;
    while (this.nodes2[first].length === 0) first++;
    let pick = this.farthest(this.nodes2[first][0], base, near, -1);
    near.fill(Infinity);
    for (let l = 0; l < LANDMARKS; l++) {
      const next = this.farthest(pick, base, near, l);
      if (!this.symmetric) this.level2Dijkstra(pick, true, l);
      pick = next;
    }
  }

  /**
   * Dijkstra from level-2 node `src`; with l >= 0 stores the distances as landmark l's; lowers
   * near[] (each node's distance to the nearest landmark so far) and returns the node with the
   * largest finite near[].
   */
  private farthest(src: number, base: Int32Array, near: Float64Array, l: number): number {
    this.level2Dijkstra(src, false, l);
    const { g, stamp } = this.scratch;
    const closed = this.lmGen + 1;
    let best = src;
    let bestD = -1;
    for (let G = 0; G < this.nodes2.length; G++) {
      const nodes = this.nodes2[G];
      for (let j = 0; j < nodes.length; j++) {
        const p = nodes[j];
        if (stamp[p] !== closed) continue;
        const k = base[G] + j;
        if (g[p] < near[k]) near[k] = g[p];
        if (near[k] > bestD) {
          bestD = near[k];
          best = p;
        }
      }
    }
    return best;
  }

  private lmGen = 0;

  /** Dijkstra over the level-2 graph from (reverse: to) `src`; with l >= 0 stores landmark l's distances. */
  private level2Dijkstra(src: number, reverse: boolean, l: number): void {
    const scratch = this.scratch;
    const { g, stamp, heap } = scratch;
    const W = this.W;
    const pass = this.view.pass;
    const slot = this.slot;
    const open = (this.lmGen = seedSearch(scratch, src));
    const closed = open + 1;
    while (heap.size > 0) {
      const p = heap.pop();
      stamp[p] = closed;
      const gp = g[p];
      const G = this.groupOf(p);
      const i = this.up[this.clusterOf(p)][slot[p]];
      if (l >= 0) (reverse ? this.lmBwd : this.lmFwd)[G][i * LANDMARKS + l] = gp;
      const nodes = this.nodes2[G];
      const e = (reverse ? this.in2 : this.out2)[G];
      for (let x = e.off[i]; x < e.off[i + 1]; x++) this.relax(nodes[e.to[x]], gp + e.cost[x], p, open, false);
      for (let dir = 0; dir < 4; dir++) {
        const q = p + DY[dir] * W + DX[dir];
        const t = slot[q];
        if (t < 0 || pass[q] <= 0 || this.groupOf(q) === G || this.up[this.clusterOf(q)][t] < 0) continue;
        this.relax(q, gp + (reverse ? pass[p] : pass[q]), p, open, false);
      }
    }
  }

  /**
   * Dijkstra over the level-1 graph inside group G from `src` (seeded with the local distances of
   * its cluster k's nodes; `reverse`: distances to src). Writes the costs to G's level-2 nodes into
   * s2 (forward) or g2 (reverse). With `full`, runs to the end and returns whether it reached the
   * goal cluster `gk`'s nodes that reach the goal (or the goal directly); else stops once every
   * level-2 node is settled and returns false.
   */
  private connect(src: number, k: number, G: number, reverse: boolean, full: boolean, gk: number): boolean {
    const scratch = this.scratch;
    const { g, parent, stamp, heap } = scratch;
    const W = this.W;
    const pass = this.view.pass;
    const slot = this.slot;
    const m2 = this.nodes2[G].length;
    if (this.s2.length < m2) {
      this.s2 = new Float64Array(m2 * 2);
      this.g2 = new Float64Array(m2 * 2);
    }
    const res = reverse ? this.g2 : this.s2;
    res.fill(Infinity, 0, m2);
    const open = scratch.nextGen();
    const closed = open + 1;
    heap.clear();
    const seeds = this.nodes[k];
    const local = reverse ? this.toGoal : this.fromStart;
    for (let j = 0; j < seeds.length; j++) {
      const d = local[this.local(k, seeds[j])];
      if (d < Infinity) {
        g[seeds[j]] = d;
        parent[seeds[j]] = -1;
        stamp[seeds[j]] = open;
        heap.push(seeds[j], d, d);
      }
    }
    let left = m2;
    while (heap.size > 0) {
      const p = heap.pop();
      stamp[p] = closed;
      const gp = g[p];
      const kp = this.clusterOf(p);
      const i = slot[p];
      const u = this.up[kp][i];
      if (u >= 0) {
        res[u] = gp;
        if (--left === 0 && !full) break;
      }
      const nodes = this.nodes[kp];
      const e = (reverse ? this.in : this.out)[kp];
      for (let x = e.off[i]; x < e.off[i + 1]; x++) this.relax(nodes[e.to[x]], gp + e.cost[x], p, open, false);
      for (let dir = 0; dir < 4; dir++) {
        const q = p + DY[dir] * W + DX[dir];
        if (slot[q] < 0 || pass[q] <= 0 || this.clusterOf(q) === kp || this.groupOf(q) !== G) continue;
        this.relax(q, gp + (reverse ? pass[p] : pass[q]), p, open, false);
      }
    }
    if (!full) return false;
    // Does the start reach the goal without leaving the group?
    if (k === gk && this.toGoal[this.local(gk, src)] < Infinity) return true;
    const gn = this.nodes[gk];
    for (let j = 0; j < gn.length; j++) if (stamp[gn[j]] === closed && this.toGoal[this.local(gk, gn[j])] < Infinity) return true;
    return false;
  }

  /** Whether some level-2 node the start reaches (s2) and some that reaches the goal (g2) share a component. */
  private linked(sg: number, gg: number): boolean {
    if (this.compStale) this.components();
    const a = this.comp[sg];
    const b = this.comp[gg];
    for (let i = 0; i < a.length; i++) {
      if (this.s2[i] === Infinity) continue;
      for (let j = 0; j < b.length; j++) if (this.g2[j] < Infinity && a[i] === b[j]) return true;
    }
    return false;
  }

  /** Connected components of the level-2 graph (union-find over its edges). */
  private components(): void {
    this.compStale = false;
    const n2 = this.nodes2.length;
    const base = new Int32Array(n2 + 1);
    for (let G = 0; G < n2; G++) base[G + 1] = base[G] + this.nodes2[G].length;
    const parent = new Int32Array(base[n2]);
    for (let i = 0; i < parent.length; i++) parent[i] = i;
    const find = (x: number): number => {
      while (parent[x] !== x) x = parent[x] = parent[parent[x]];
      return x;
    };
    const union = (a: number, b: number): void => {
      const ra = find(a);
      const rb = find(b);
      if (ra !== rb) parent[ra < rb ? rb : ra] = ra < rb ? ra : rb;
    };
    const W = this.W;
    const pass = this.view.pass;
    for (let G = 0; G < n2; G++) {
      const nodes = this.nodes2[G];
      const m = nodes.length;
      const e = this.out2[G];
      for (let i = 0; i < m; i++) {
        for (let x = e.off[i]; x < e.off[i + 1]; x++) union(base[G] + i, base[G] + e.to[x]);
        const p = nodes[i];
        for (let dir = 0; dir < 4; dir++) {
          const q = p + DY[dir] * W + DX[dir];
          const t = this.slot[q];
          if (t < 0 || pass[q] <= 0) continue;
          const H = this.groupOf(q);
          const u = this.up[this.clusterOf(q)][t];
          if (H !== G && u >= 0) union(base[G] + i, base[H] + u);
        }
      }
    }
    for (let G = 0; G < n2; G++) {
      const m = this.nodes2[G].length;
      const c = new Int32Array(m);
      for (let i = 0; i < m; i++) c[i] = find(base[G] + i);
      this.comp[G] = c;
    }
  }

  /** Finds cluster k's nodes: entrance cells on its side of each of its four borders. */
  private placeNodes(k: number): void {
    const old = this.nodes[k];
    if (old !== undefined) for (const p of old) this.slot[p] = -1;
    const c = this.clusterSize;
    const W = this.W;
    const pass = this.view.pass;
    const x0 = (k % this.cols) * c;
    const y0 = Math.floor(k / this.cols) * c;
    const x1 = Math.min(x0 + c, this.grid.width) - 1;
    const y1 = Math.min(y0 + c, this.grid.height) - 1;
    const found: number[] = [];
    for (const [bx, by, step, len, across] of this.borders(x0, y0, x1, y1)) {
      const first = (by + 1) * W + bx + 1;
      let run = -1;
      for (let t = 0; t <= len; t++) {
        const p = first + t * step;
        const ok = t < len && pass[p] > 0 && pass[p + across] > 0;
        if (ok && run < 0) run = t;
        if (!ok && run >= 0) {
          const n = t - run;
          // Both sides compute the same runs, so the pairs line up.
          if (n < LONG) found.push(first + (run + ((n - 1) >> 1)) * step);
          else {
            found.push(first + run * step, first + (t - 1) * step);
            found.push(first + (run + ((n - 1) >> 1)) * step);
          }
          run = -1;
        }
      }
    }
    const nodes = Int32Array.from(new Set(found));
    for (let j = 0; j < nodes.length; j++) this.slot[nodes[j]] = j;
    this.nodes[k] = nodes;
    this.up[k] = new Int16Array(nodes.length).fill(-1);
  }

  /**
   * Each border of the rectangle x0..x1, y0..y1 that is not the map's edge: its first cell, the step
   * along it (padded), its length and the step to the facing cell.
   */
  private borders(x0: number, y0: number, x1: number, y1: number): [number, number, number, number, number][] {
    const W = this.W;
    const b: [number, number, number, number, number][] = [];
    if (y0 > 0) b.push([x0, y0, 1, x1 - x0 + 1, -W]);
    if (y1 < this.grid.height - 1) b.push([x0, y1, 1, x1 - x0 + 1, W]);
    if (x0 > 0) b.push([x0, y0, W, y1 - y0 + 1, -1]);
    if (x1 < this.grid.width - 1) b.push([x1, y0, W, y1 - y0 + 1, 1]);
    return b;
  }

  /**
   * Finds group G's level-2 nodes: along each group border, per maximal run of facing walkable
   * cells, the level-1 node pair nearest the run's middle (both sides pick the same pair).
   */
  private placeGroupNodes(G: number): void {
    const old = this.nodes2[G];
    for (const p of old) {
      const s = this.slot[p];
      const u = this.up[this.clusterOf(p)];
      if (s >= 0 && s < u.length) u[s] = -1;
    }
    const c = this.groupSize;
    const W = this.W;
    const pass = this.view.pass;
    const slot = this.slot;
    const cs = this.clusterSize;
    const x0 = (G % this.cols2) * c;
    const y0 = Math.floor(G / this.cols2) * c;
    const x1 = Math.min(x0 + c, this.grid.width) - 1;
    const y1 = Math.min(y0 + c, this.grid.height) - 1;
    const found: number[] = [];
    for (const [bx, by, step, len, across] of this.borders(x0, y0, x1, y1)) {
      const first = (by + 1) * W + bx + 1;
      let run = -1;
      for (let t = 0; t <= len; t++) {
        const p = first + t * step;
        const ok = t < len && pass[p] > 0 && pass[p + across] > 0;
        if (ok && run < 0) run = t;
        if (!ok && run >= 0) {
          // The run's level-1 nodes sit where placeNodes puts them in each cluster-long piece
          // of it (the two lines alone decide, so both sides pick the same pairs): keep the
          // middle one of each piece, so a level-2 node is never more than half a cluster
          // from where a path may want to cross.
          for (let a = run; a < t; ) {
            const b = Math.min(t, (Math.floor(a / cs) + 1) * cs);
            found.push(first + (a + ((b - a - 1) >> 1)) * step);
            a = b;
          }
          run = -1;
        }
      }
    }
    const nodes = Int32Array.from(new Set(found));
    for (let j = 0; j < nodes.length; j++) this.up[this.clusterOf(nodes[j])][slot[nodes[j]]] = j;
    this.nodes2[G] = nodes;
  }

  /** The in-group cost between every two of group G's level-2 nodes: Dijkstra over the level-1 graph. */
  private linkGroup(G: number): void {
    const nodes = this.nodes2[G];
    const m = nodes.length;
    const costs = new Float32Array(m * m).fill(Infinity);
    const scratch = this.scratch;
    const { g, stamp, heap } = scratch;
    const W = this.W;
    const pass = this.view.pass;
    const slot = this.slot;
    // Symmetric costs: row i needs only the nodes after i (and the search stops once they are settled).
    const sym = this.symmetric;
    for (let i = 0; i < (sym ? m - 1 : m); i++) {
      const open = seedSearch(scratch, nodes[i]);
      const closed = open + 1;
      costs[i * m + i] = 0;
      let left = sym ? m - 1 - i : m;
      while (heap.size > 0) {
        const p = heap.pop();
        stamp[p] = closed;
        const gp = g[p];
        const kp = this.clusterOf(p);
        const s = slot[p];
        const u = this.up[kp][s];
        if (u >= 0 && (sym ? u > i : true)) {
          costs[i * m + u] = gp;
          if (sym) costs[u * m + i] = gp;
          if (--left === 0) break;
        }
        const kn = this.nodes[kp];
        const e = this.out[kp];
        const off = e.off;
        const to = e.to;
        const ec = e.cost;
        for (let x = off[s]; x < off[s + 1]; x++) this.relax(kn[to[x]], gp + ec[x], p, open, false);
        for (let dir = 0; dir < 4; dir++) {
          const q = p + DY[dir] * W + DX[dir];
          if (slot[q] < 0 || pass[q] <= 0 || this.clusterOf(q) === kp || this.groupOf(q) !== G) continue;
          this.relax(q, gp + pass[q], p, open, false);
        }
      }
    }
    [this.out2[G], this.in2[G]] = pruneEdges(m, costs, this.symmetric);
  }

  /** Marks cluster k's nodes (and padded cell `extra`, if >= 0) as the local Dijkstra's targets. */
  private markTargets(k: number, extra: number): number {
    this.lgen += 2;
    if (this.lgen > 0xfffffff0) {
      this.lstamp.fill(0);
      this.lmark.fill(0);
      this.lgen = 2;
    }
    const mark = this.lgen;
    const nodes = this.nodes[k];
    let n = 0;
    for (let j = 0; j < nodes.length; j++) {
      const l = this.local(k, nodes[j]);
      if (this.lmark[l] !== mark) {
        this.lmark[l] = mark;
        n++;
      }
    }
    if (extra >= 0) {
      const l = this.local(k, extra);
      if (this.lmark[l] !== mark) {
        this.lmark[l] = mark;
        n++;
      }
    }
    this.targets = n;
    return n;
  }

  private targets = 0;

  /** The in-cluster cost between every two of cluster k's nodes. */
  private linkCluster(k: number): void {
    const nodes = this.nodes[k];
    const m = nodes.length;
    const costs = new Float32Array(m * m).fill(Infinity);
    const uniform = this.uniformCluster(k);
    for (let i = 0; i < m; i++) {
      // Uniform costs are symmetric: row i needs only the nodes after i.
      if (uniform && i === m - 1) break;
      this.lgen += 2;
      if (this.lgen > 0xfffffff0) {
        this.lstamp.fill(0);
        this.lmark.fill(0);
        this.lgen = 2;
      }
      const mark = this.lgen;
      let n = 0;
      for (let j = uniform ? i + 1 : 0; j < m; j++) {
        // Uniform costs: an octile-length path that is clear costs the least possible.
        if (uniform) {
          const d = this.straight(nodes[i], nodes[j]);
          if (d >= 0) {
            costs[i * m + j] = costs[j * m + i] = d;
            continue;
          }
        }
        this.lmark[this.local(k, nodes[j])] = mark;
        n++;
      }
      if (n === 0) continue;
      this.targets = n;
      this.localDijkstra(k, nodes[i], false, this.ld, uniform);
      for (let j = uniform ? i + 1 : 0; j < m; j++) {
        const l = this.local(k, nodes[j]);
        if (this.lmark[l] !== mark) continue;
        const d = this.ld[l];
        costs[i * m + j] = d;
        if (uniform) costs[j * m + i] = d;
      }
    }
    [this.out[k], this.in[k]] = pruneEdges(m, costs, uniform);
  }

  /**
   * On a uniform-cost cluster: the cost of the path from padded cell a to b that goes diagonally
   * first, then straight (cardinal movement: along x, then y), when every cell of it is walkable
   * and no diagonal step cuts a corner; -1 when it is blocked. That path has the octile
   * (Manhattan) length, so nothing is cheaper.
   */
  private straight(a: number, b: number): number {
    const W = this.W;
    const pass = this.view.pass;
    const ay = (a / W) | 0;
    const by = (b / W) | 0;
    const dx = b - by * W - (a - ay * W);
    const dy = by - ay;
    const sx = dx > 0 ? 1 : dx < 0 ? -1 : 0;
    const sy = dy > 0 ? W : dy < 0 ? -W : 0;
    const nx = Math.abs(dx);
    const ny = Math.abs(dy);
    const diagonals = this.cardinal ? 0 : Math.min(nx, ny);
    let p = a;
    for (let t = 0; t < diagonals; t++) {
      if (pass[p + sx] <= 0 || pass[p + sy] <= 0) return -1;
      p += sx + sy;
      if (pass[p] <= 0) return -1;
    }
    const rest = nx - diagonals;
    for (let t = 0; t < rest; t++) if (pass[(p += sx)] <= 0) return -1;
    const down = ny - diagonals;
    for (let t = 0; t < down; t++) if (pass[(p += sy)] <= 0) return -1;
    return (nx + ny - 2 * diagonals + SQRT2 * diagonals) * pass[a];
  }

  /** Whether every walkable cell of cluster k costs the same. */
  private uniformCluster(k: number): boolean {
    const c = this.clusterSize;
    const W = this.W;
    const pass = this.view.pass;
    const x0 = (k % this.cols) * c;
    const y0 = Math.floor(k / this.cols) * c;
    const w = Math.min(c, this.grid.width - x0);
    const h = Math.min(c, this.grid.height - y0);
    let cost = 0;
    for (let y = 0; y < h; y++) {
      const row = (y0 + y + 1) * W + x0 + 1;
      for (let x = 0; x < w; x++) {
        const v = pass[row + x];
        if (v <= 0) continue;
        if (cost === 0) cost = v;
        else if (v !== cost) return false;
      }
    }
    return true;
  }

  /**
   * Dijkstra inside cluster k from padded cell `src`: `out[local]` is the cost from src (or, with
   * `reverse`, to src), Infinity where the cluster alone does not connect them. Stops once the
   * cells marked by the current `lgen` (this.targets of them) are settled; other cells may then
   * hold tentative costs. `uniform`: every walkable cell of the cluster costs the same, so two FIFO
   * queues (one per step length) replace the heap.
   */
  private localDijkstra(k: number, src: number, reverse: boolean, out: Float64Array, uniform = false): void {
    const c = this.clusterSize;
    const W = this.W;
    const pass = this.view.pass;
    const x0 = (k % this.cols) * c;
    const y0 = Math.floor(k / this.cols) * c;
    const w = Math.min(c, this.grid.width - x0);
    const h = Math.min(c, this.grid.height - y0);
    out.fill(Infinity, 0, w * h);
    const stamp = this.lstamp;
    const mark = this.lmark;
    const open = this.lgen;
    const closed = open + 1;
    let left = this.targets;
    const sy = ((src / W) | 0) - 1;
    const sx = src - (sy + 1) * W - 1;
    const s0 = (sy - y0) * w + (sx - x0);
    out[s0] = 0;
    stamp[s0] = open;
    const dirs = this.cardinal ? 4 : 8;
    if (uniform) {
      const q1 = this.q1;
      const q2 = this.q2;
      const d1 = this.qd1;
      const d2 = this.qd2;
      let h1 = 0;
      let t1 = 0;
      let h2 = 0;
      let t2 = 0;
      q1[t1] = s0;
      d1[t1++] = 0;
      const unit = pass[src];
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
        const ly = (l / w) | 0;
        const lx = l - ly * w;
        const p = (ly + y0 + 1) * W + lx + x0 + 1;
        for (let dir = 0; dir < dirs; dir++) {
          const nx = lx + DX[dir];
          const ny = ly + DY[dir];
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const q = p + DY[dir] * W + DX[dir];
          if (pass[q] <= 0) continue;
          if (dir >= 4 && (pass[p + DX[dir]] <= 0 || pass[p + DY[dir] * W] <= 0)) continue;
          const n = ny * w + nx;
          if (stamp[n] === closed) continue;
          const nd = d + (dir >= 4 ? diag : unit);
          if (stamp[n] === open && nd >= out[n]) continue;
          out[n] = nd;
          stamp[n] = open;
          if (dir >= 4) {
            q2[t2] = n;
            d2[t2++] = nd;
          } else {
            q1[t1] = n;
            d1[t1++] = nd;
          }
        }
      }
      return;
    }
    const heap = this.lheap;
    heap.clear();
    heap.push(s0, 0, 0);
    while (heap.size > 0) {
      const l = heap.pop();
      stamp[l] = closed;
      if (mark[l] === open && --left <= 0) return;
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

  /**
   * Turns a level-1 path (padded cells) into cells: keeps the start, the goal and the far side of
   * every SKIP-th border crossing, and joins each two kept cells by an exact search inside the
   * clusters the level-1 path visits between them (so a path always exists there). Returns null
   * only if the hierarchy is out of step with the grid (cannot happen: it refreshes first).
   * @internal
   */
  refine(abstract: number[]): { cells: Int32Array; cost: number } | null {
    const W = this.W;
    const c = this.clusterSize;
    const keep: number[] = [0];
    for (let k = 1, crossings = 0; k < abstract.length - 1; k++) {
      const d = Math.abs(abstract[k] - abstract[k - 1]);
      if ((d === 1 || d === W) && ++crossings % SKIP === 0) keep.push(k);
    }
    keep.push(abstract.length - 1);
    const cells: number[] = [];
    const width = this.grid.width;
    const y = ((abstract[0] / W) | 0) - 1;
    cells.push(y * width + abstract[0] - (y + 1) * W - 1);
    let cost = 0;
    for (let s = 1; s < keep.length; s++) {
      let x0 = Infinity;
      let y0 = Infinity;
      let x1 = -1;
      let y1 = -1;
      for (let k = keep[s - 1]; k <= keep[s]; k++) {
        const p = abstract[k];
        const py = ((p / W) | 0) - 1;
        const px = p - (py + 1) * W - 1;
        const cx = ((px / c) | 0) * c;
        const cy = ((py / c) | 0) * c;
        if (cx < x0) x0 = cx;
        if (cy < y0) y0 = cy;
        if (cx + c - 1 > x1) x1 = cx + c - 1;
        if (cy + c - 1 > y1) y1 = cy + c - 1;
      }
      const d = this.segment(abstract[keep[s - 1]], abstract[keep[s]], x0, y0, Math.min(x1, width - 1), Math.min(y1, this.grid.height - 1), cells);
      if (d < 0) return null;
      cost += d;
    }
    return { cells: Int32Array.from(cells), cost };
  }

  /**
   * Exact A* from padded cell a to b inside the box x0..x1, y0..y1 (cells); appends the path's
   * cells after a (as cell indices) to `out` and returns its cost, or -1 when the box holds no path.
   */
  private segment(a: number, b: number, x0: number, y0: number, x1: number, y1: number, out: number[]): number {
    const W = this.W;
    const pass = this.view.pass;
    const bw = x1 - x0 + 1;
    const n = bw * (y1 - y0 + 1);
    if (this.wstamp.length < n) {
      this.wg = new Float64Array(n);
      this.wparent = new Int32Array(n);
      this.wstamp = new Uint32Array(n);
      this.wheap = new NodeHeap(n);
      this.wgen = 0;
    }
    this.wgen += 2;
    if (this.wgen > 0xfffffff0) {
      this.wstamp.fill(0);
      this.wgen = 2;
    }
    const g = this.wg;
    const parent = this.wparent;
    const stamp = this.wstamp;
    const heap = this.wheap;
    const open = this.wgen;
    const closed = open + 1;
    const hs = this.view.minCost;
    const cardinal = this.cardinal;
    const dirs = cardinal ? 4 : 8;
    const by = ((b / W) | 0) - 1;
    const bx = b - (by + 1) * W - 1;
    const ay = ((a / W) | 0) - 1;
    const ax = a - (ay + 1) * W - 1;
    const la = (ay - y0) * bw + (ax - x0);
    const lb = (by - y0) * bw + (bx - x0);
    heap.clear();
    g[la] = 0;
    parent[la] = -1;
    stamp[la] = open;
    heap.push(la, 0, 0);
    const rows = y1 - y0 + 1;
    while (heap.size > 0) {
      const l = heap.pop();
      stamp[l] = closed;
      if (l === lb) break;
      const ly = (l / bw) | 0;
      const lx = l - ly * bw;
      const p = (ly + y0 + 1) * W + lx + x0 + 1;
      const gp = g[l];
      for (let dir = 0; dir < dirs; dir++) {
        const nx = lx + DX[dir];
        const ny = ly + DY[dir];
        if (nx < 0 || ny < 0 || nx >= bw || ny >= rows) continue;
        const q = p + DY[dir] * W + DX[dir];
        const cq = pass[q];
        if (cq <= 0) continue;
        if (dir >= 4 && (pass[p + DX[dir]] <= 0 || pass[p + DY[dir] * W] <= 0)) continue;
        const nl = ny * bw + nx;
        const s = stamp[nl];
        if (s === closed) continue;
        const ng = gp + (dir >= 4 ? SQRT2 * cq : cq);
        if (s === open && ng >= g[nl]) continue;
        const dx = Math.abs(nx + x0 - bx);
        const dy = Math.abs(ny + y0 - by);
        const f = ng + (cardinal ? dx + dy : dx > dy ? dx + K * dy : dy + K * dx) * hs;
        g[nl] = ng;
        parent[nl] = l;
        if (s === open) heap.decrease(nl, f, ng);
        else {
          stamp[nl] = open;
          heap.push(nl, f, ng);
        }
      }
    }
    if (stamp[lb] !== closed) return -1;
    const start = out.length;
    const width = this.grid.width;
    for (let l = lb; l !== la; l = parent[l]) {
      const ly = (l / bw) | 0;
      out.push((ly + y0) * width + (l - ly * bw) + x0);
    }
    reverseFrom(out, start);
    return g[lb];
  }
}

/** Edges between a cluster's (or group's) nodes: node i's are to[off[i]..off[i+1]) with cost[...]. */
interface Edges {
  off: Int32Array;
  to: Int16Array;
  cost: Float32Array;
}

/**
 * The m x m in-cluster cost matrix `d` (Infinity: not connected) as outgoing and incoming edge
 * lists, without the edges i -> k that a third node j matches (d[i][j] + d[j][k] <= d[i][k]): the
 * path through j costs the same, so every distance in the graph stays the same, and on a grid
 * (where many shortest paths pass by other border nodes) most edges go. `symmetric`: d is
 * symmetric, so the incoming lists are the outgoing ones.
 */
function pruneEdges(m: number, d: Float32Array, symmetric: boolean): [Edges, Edges] {
  const keep = new Uint8Array(m * m);
  let count = 0;
  for (let i = 0; i < m; i++) {
    for (let k = 0; k < m; k++) {
      const dik = d[i * m + k];
      if (k === i || !(dik < Infinity)) continue;
      // Float32 sums: a tolerance far below any step cost.
      const limit = dik + dik * 1e-6;
      let kept = 1;
      for (let j = 0; j < m; j++) {
        if (j !== i && j !== k && d[i * m + j] + d[j * m + k] <= limit) {
          kept = 0;
          break;
        }
      }
      keep[i * m + k] = kept;
      count += kept;
    }
  }
  const build = (incoming: boolean): Edges => {
    const off = new Int32Array(m + 1);
    const to = new Int16Array(count);
    const cost = new Float32Array(count);
    let x = 0;
    for (let i = 0; i < m; i++) {
      off[i] = x;
      for (let k = 0; k < m; k++) {
        const e = incoming ? k * m + i : i * m + k;
        if (keep[e] === 1) {
          to[x] = k;
          cost[x++] = d[e];
        }
      }
    }
    off[m] = x;
    return { off, to, cost };
  };
  const out = build(false);
  return [out, symmetric ? out : build(true)];
}

/** Reverses a[from..] in place (paths are collected goal first). */
function reverseFrom(a: number[], from: number): void {
  for (let i = from, j = a.length - 1; i < j; i++, j--) {
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}
