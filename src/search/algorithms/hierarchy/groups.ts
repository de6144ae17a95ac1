/**
 * Level 2: groups of 8 x 8 clusters. Along a group border, the middle level-1 node of each piece of
 * an entrance becomes a level-2 node; each group keeps the cheapest in-group cost between every two
 * of its level-2 nodes (pruned), the level-1 path of each edge kept, and links to the facing level-2
 * nodes of the neighbouring groups. Owns all of that, the level-2 id tables (cell and coordinates
 * per level-2 id), and the connected components of the level-2 graph.
 */
import type { SearchView } from '../../../grid/navgrid.js';
import { DX as DX_, DY as DY_, paddedX, paddedY } from '../../../grid/padded.js';
import type { Clusters } from './clusters.js';
import { scanEntrances } from './clusters.js';
import { GROUP_CLUSTERS, GROUP_SIDE as GROUP_SIDE_, SLOT_BITS as SLOT_BITS_, type ClusterLayout, type CompactIds } from './ids.js';
import { BLOCK_HEADER as BLOCK_HEADER_, crossTable, levelTwoIndices, outTable, pruneEdges, type ClusterStore, type Edges, type Links } from './store.js';

// Module-local copies: some loaders (tsx) turn imported bindings into getter calls in hot loops.
const DX = DX_;
const DY = DY_;
const GROUP_SIDE = GROUP_SIDE_;
const SLOT_BITS = SLOT_BITS_;
const BLOCK_HEADER = BLOCK_HEADER_;

/**
 * One group's level-1 graph with its nodes numbered densely (cluster by cluster: first[local
 * cluster] + slot): per node its cell, packed id (local cluster << SLOT_BITS | slot), level-2 index
 * (-1: none), and outgoing edges off/to/cost.
 */
export class GroupGraph {
  n = 0;
  /** The cheapest and dearest edge (either way). */
  cheapest = Infinity;
  dearest = 0;
  /** Per local cluster: its first dense id (one more entry: the node count). */
  readonly first = new Int32Array(GROUP_CLUSTERS + 1);
  cell = new Int32Array(0);
  packed = new Uint16Array(0);
  levelTwo = new Int16Array(0);
  off = new Int32Array(1);
  to = new Int32Array(0);
  cost = new Float32Array(0);

  /** Room for n nodes and `edges` edges. */
  reserve(n: number, edges: number): void {
    if (this.cell.length < n) {
      const size = Math.max(n, this.cell.length * 2);
      this.cell = new Int32Array(size);
      this.packed = new Uint16Array(size);
      this.levelTwo = new Int16Array(size);
      this.off = new Int32Array(size + 1);
    }
    if (this.to.length < edges) {
      const size = Math.max(edges, this.to.length * 2);
      this.to = new Int32Array(size);
      this.cost = new Float32Array(size);
    }
  }
}

/** The level-2 graph: per group its nodes, edges, stored paths and cross links. */
export class Groups {
  /** Per group: its level-2 nodes' cells (padded). */
  readonly nodes: Int32Array[];
  /** Per group: edges between its level-2 nodes, outgoing and incoming (the same object when costs are symmetric). */
  readonly edgesOut: Edges[];
  readonly edgesIn: Edges[];
  /**
   * Per group: the level-1 path of each level-2 edge (indexed like edgesOut's edges), after its
   * source node up to its target, as packed group-local node ids (local cluster << SLOT_BITS |
   * slot): edgePaths[G][edgePathStart[G][x] .. edgePathStart[G][x + 1]). Queries read them instead
   * of searching. Symmetric costs: only edges i -> k with i < k hold one; k -> i reads it backwards.
   */
  readonly edgePaths: Uint16Array[];
  readonly edgePathStart: Int32Array[];
  /** Per group, per level-2 node: its edges to the facing level-2 nodes of neighbouring groups. */
  readonly crossLinks: Links[];
  /** Per group: the dearest step inside it, either way (the range of a bucket queue over it). */
  readonly dearestStep: Float64Array;
  /** Per group, per level-2 node: its connected component (see refreshComponents). */
  readonly component: Int32Array[];
  componentsStale = true;
  /** Per level-2 id: its cell (padded), and the cell's x and y. */
  levelTwoCell = new Int32Array(0);
  levelTwoX = new Int32Array(0);
  levelTwoY = new Int32Array(0);
  private readonly layout: ClusterLayout;
  private readonly view: SearchView;
  private readonly store: ClusterStore;
  private readonly clusters: Clusters;
  private readonly ids: CompactIds;
  /** The group graph link() loads. */
  private readonly graph = new GroupGraph();
  /** link()'s scratch for pair paths (grown on demand). */
  private pairPaths = new Int32Array(1024);

  constructor(layout: ClusterLayout, view: SearchView, store: ClusterStore, clusters: Clusters, ids: CompactIds) {
    this.layout = layout;
    this.view = view;
    this.store = store;
    this.clusters = clusters;
    this.ids = ids;
    const n = layout.groupCount;
    this.nodes = new Array<Int32Array>(n).fill(new Int32Array(0));
    this.edgesOut = new Array<Edges>(n);
    this.edgesIn = new Array<Edges>(n);
    this.crossLinks = new Array<Links>(n);
    this.edgePaths = new Array<Uint16Array>(n);
    this.edgePathStart = new Array<Int32Array>(n);
    this.component = new Array<Int32Array>(n);
    this.dearestStep = new Float64Array(n);
  }

  /** Level-2 nodes in all groups. */
  get nodeCount(): number {
    let n = 0;
    for (const a of this.nodes) n += a.length;
    return n;
  }

  /** Bytes held by the level-2 graph, its paths, components and id tables. */
  get bytes(): number {
    const edges = (a: Edges, b: Edges): number => a.off.byteLength + a.to.byteLength + a.cost.byteLength + (a === b ? 0 : b.off.byteLength + b.to.byteLength + b.cost.byteLength);
    let b = 3 * this.levelTwoCell.byteLength;
    for (let G = 0; G < this.nodes.length; G++) {
      b += this.nodes[G].byteLength + edges(this.edgesOut[G], this.edgesIn[G]) + (this.component[G]?.byteLength ?? 0);
      const c = this.crossLinks[G];
      b += (this.edgePaths[G]?.byteLength ?? 0) + (this.edgePathStart[G]?.byteLength ?? 0) + (c ? c.off.byteLength + c.to.byteLength + c.cost.byteLength : 0);
    }
    return b;
  }

  /**
   * Finds group G's level-2 nodes: along each group border, per maximal run of facing walkable
   * cells, the level-1 node nearest the middle of each cluster-long piece of the run (both sides
   * pick the same pairs), and records their indices in the cluster blocks.
   */
  placeNodes(G: number): void {
    const layout = this.layout;
    const I = this.store.ints;
    const blockOf = this.store.blockOf;
    const slot = this.clusters.slotOfCell;
    for (const p of this.nodes[G]) {
      const s = slot[p];
      const b = blockOf[layout.clusterOf(p)];
      if (s >= 0 && b >= 0 && s < I[b]) I[levelTwoIndices(b, I[b]) + s] = -1;
    }
    const c = layout.groupSize;
    const cs = layout.clusterSize;
    const x0 = (G % layout.groupColumns) * c;
    const y0 = Math.floor(G / layout.groupColumns) * c;
    const x1 = Math.min(x0 + c, layout.width) - 1;
    const y1 = Math.min(y0 + c, layout.height) - 1;
    const found: number[] = [];
    // The run's level-1 nodes sit where Clusters.placeNodes puts them in each cluster-long piece of
    // it (the two lines alone decide, so both sides pick the same pairs): keep the middle one of each
    // piece, so a level-2 node is never more than half a cluster from where a path may want to cross.
    scanEntrances(layout, this.view.pass, x0, y0, x1, y1, (first, step, run, end) => {
      for (let a = run; a < end; ) {
        const b = Math.min(end, (Math.floor(a / cs) + 1) * cs);
        found.push(first + (a + ((b - a - 1) >> 1)) * step);
        a = b;
      }
    });
    const nodes = Int32Array.from(new Set(found));
    for (let j = 0; j < nodes.length; j++) {
      const b = blockOf[layout.clusterOf(nodes[j])];
      I[levelTwoIndices(b, I[b]) + slot[nodes[j]]] = j;
    }
    this.nodes[G] = nodes;
  }

  /** Group G's cross links: per level-2 node, the facing level-2 nodes of neighbouring groups (dir | index << 2). */
  linkAcross(G: number): void {
    const layout = this.layout;
    const nodes = this.nodes[G];
    const m = nodes.length;
    const off = new Int32Array(m + 1);
    const to: number[] = [];
    const cost: number[] = [];
    const I = this.store.ints;
    const blockOf = this.store.blockOf;
    for (let i = 0; i < m; i++) {
      off[i] = to.length;
      const p = nodes[i];
      const k = layout.clusterOf(p);
      const s = this.clusters.slotOfCell[p];
      const b = blockOf[k];
      const c = crossTable(b, I[b]);
      for (let x = b + I[c + s]; x < b + I[c + s + 1]; x++) {
        const t = I[x];
        const d = t & 3;
        const kq = k + DY[d] * layout.clusterColumns + DX[d];
        const bq = blockOf[kq];
        const u = I[levelTwoIndices(bq, I[bq]) + (t >> 2)];
        if (layout.groupOfCluster[kq] === G || u < 0) continue;
        to.push(d | (u << 2));
        cost.push(this.store.floats[x]);
      }
    }
    off[m] = to.length;
    this.crossLinks[G] = { off, to: Int32Array.from(to), cost: Float32Array.from(cost) };
  }

  /**
   * Rewrites the level-2 id tables of the groups marked in `dirty`, or of every group when `all`
   * (the ids changed meaning); reallocates them then.
   */
  indexCells(dirty: Uint8Array, all: boolean): void {
    const sh = this.ids.levelTwoShift;
    const W = this.layout.stride;
    if (all) {
      this.levelTwoCell = new Int32Array(this.nodes.length << sh);
      this.levelTwoX = new Int32Array(this.levelTwoCell.length);
      this.levelTwoY = new Int32Array(this.levelTwoCell.length);
    }
    for (let G = 0; G < this.nodes.length; G++) {
      if (!all && dirty[G] === 0) continue;
      const nodes = this.nodes[G];
      for (let i = 0; i < nodes.length; i++) {
        const q = (G << sh) | i;
        this.levelTwoCell[q] = nodes[i];
        this.levelTwoX[q] = paddedX(W, nodes[i]);
        this.levelTwoY[q] = paddedY(W, nodes[i]);
      }
    }
  }

  /**
   * The in-group cost between every two of group G's level-2 nodes (Dijkstra over the level-1
   * graph), as pruned edges, and for each edge kept its level-1 path (see edgePaths).
   */
  link(G: number): void {
    const layout = this.layout;
    const nodes = this.nodes[G];
    const m = nodes.length;
    const costs = new Float32Array(m * m).fill(Infinity);
    const S = this.ids.groupScratch;
    const gr = this.graph;
    this.loadGraph(gr, G);
    const { g, parent, stamp } = S;
    const { levelTwo, off, to, cost, packed } = gr;
    const Q = this.ids.queue;
    // Every pair's path, source first, as packed ids (see edgePaths): pairs[start[i * m + j] ..] (length len[...]).
    const start = new Int32Array(m * m);
    const len = new Int32Array(m * m);
    const dense = new Int32Array(m);
    for (let i = 0; i < m; i++) dense[i] = gr.first[layout.localCluster(layout.clusterOf(nodes[i]))] + this.clusters.slotOfCell[nodes[i]];
    let pairs = this.pairPaths;
    let used = 0;
    // Symmetric costs: row i needs only the nodes after i (and the search stops once they are settled).
    const sym = this.view.uniform;
    for (let i = 0; i < (sym ? m - 1 : m); i++) {
      const open = S.begin();
      const closed = open + 1;
      const src = dense[i];
      S.place(src, 0);
      Q.reset(gr.cheapest, gr.dearest);
      Q.push(src, 0);
      costs[i * m + i] = 0;
      let left = sym ? m - 1 - i : m;
      while (Q.size > 0) {
        const p = Q.pop();
        if (stamp[p] === closed || Q.key > g[p]) continue;
        stamp[p] = closed;
        const gp = g[p];
        const u = levelTwo[p];
        if (u >= 0 && (sym ? u > i : true)) {
          costs[i * m + u] = gp;
          if (sym) costs[u * m + i] = gp;
          if (--left === 0) break;
        }
        for (let x = off[p]; x < off[p + 1]; x++) S.reach(Q, to[x], gp + cost[x], p);
      }
      // The paths to this row's targets, read off the search tree (goal first, then reversed).
      for (let u = sym ? i + 1 : 0; u < m; u++) {
        const t = dense[u];
        if (u === i || stamp[t] !== closed) continue;
        const from = used;
        for (let p = t; p !== -1; p = parent[p]) {
          if (used === pairs.length) this.pairPaths = pairs = growInt32(pairs);
          pairs[used++] = packed[p];
        }
        pairs.subarray(from, used).reverse();
        start[i * m + u] = from;
        len[i * m + u] = used - from;
      }
    }
    // The dearest step either way (for the query's queue): in-cluster edges, and steps into any node's cell.
    let hi = gr.dearest;
    for (let d = 0; d < gr.n; d++) hi = Math.max(hi, this.view.pass[gr.cell[d]]);
    this.dearestStep[G] = hi;
    const [out, inc] = pruneEdges(m, costs, sym);
    this.edgesOut[G] = out;
    this.edgesIn[G] = inc;
    // Each kept edge's path after its source.
    const poff = new Int32Array(out.to.length + 1);
    let total = 0;
    for (let i = 0; i < m; i++) {
      for (let x = out.off[i]; x < out.off[i + 1]; x++) {
        poff[x] = total;
        const k = out.to[x];
        if (!sym || k > i) total += len[i * m + k] - 1;
      }
    }
    poff[out.to.length] = total;
    const path = new Uint16Array(total);
    for (let i = 0; i < m; i++) {
      for (let x = out.off[i]; x < out.off[i + 1]; x++) {
        const k = out.to[x];
        if (sym && k < i) continue;
        const a = start[i * m + k];
        path.set(pairs.subarray(a + 1, a + len[i * m + k]), poff[x]);
      }
    }
    this.edgePaths[G] = path;
    this.edgePathStart[G] = poff;
  }

  /**
   * Loads group G's level-1 graph into gr: nodes numbered densely cluster by cluster, edges inside
   * clusters and across cluster borders inside the group (outgoing).
   */
  private loadGraph(gr: GroupGraph, G: number): void {
    const layout = this.layout;
    const cols = layout.clusterColumns;
    const x0 = (G % layout.groupColumns) * GROUP_SIDE;
    const y0 = Math.floor(G / layout.groupColumns) * GROUP_SIDE;
    const first = gr.first;
    const I = this.store.ints;
    const F = this.store.floats;
    const blockOf = this.store.blockOf;
    let n = 0;
    let edges = 0;
    for (let lc = 0; lc < GROUP_CLUSTERS; lc++) {
      first[lc] = n;
      const x = x0 + (lc % GROUP_SIDE);
      const y = y0 + ((lc / GROUP_SIDE) | 0);
      if (x >= cols || y >= layout.clusterRows) continue;
      const b = blockOf[y * cols + x];
      const m = I[b];
      n += m;
      // Out edges and cross links: from the out table's first offset to the block's end.
      edges += I[b + 1] - I[outTable(b, m)];
    }
    first[GROUP_CLUSTERS] = n;
    gr.reserve(n, edges);
    const { cell, packed, levelTwo, off, to, cost } = gr;
    let e = 0;
    let lo = Infinity;
    let hi = 0;
    for (let lc = 0; lc < GROUP_CLUSTERS; lc++) {
      const x = x0 + (lc % GROUP_SIDE);
      const y = y0 + ((lc / GROUP_SIDE) | 0);
      if (x >= cols || y >= layout.clusterRows) continue;
      const b = blockOf[y * cols + x];
      const m = I[b];
      const o = outTable(b, m);
      const c = crossTable(b, m);
      const d0 = first[lc];
      const lx = lc % GROUP_SIDE;
      const ly = (lc / GROUP_SIDE) | 0;
      for (let s = 0; s < m; s++) {
        const d = d0 + s;
        cell[d] = I[b + BLOCK_HEADER + s];
        packed[d] = (lc << SLOT_BITS) | s;
        levelTwo[d] = I[b + BLOCK_HEADER + m + s];
        off[d] = e;
        for (let t = b + I[o + s]; t < b + I[o + s + 1]; t++) {
          to[e] = d0 + I[t];
          cost[e++] = F[t];
        }
        for (let t = b + I[c + s]; t < b + I[c + s + 1]; t++) {
          const dir = I[t] & 3;
          const nx = lx + DX[dir];
          const ny = ly + DY[dir];
          if (nx < 0 || ny < 0 || nx >= GROUP_SIDE || ny >= GROUP_SIDE) continue;
          to[e] = first[ny * GROUP_SIDE + nx] + (I[t] >> 2);
          cost[e++] = F[t];
        }
      }
    }
    off[n] = e;
    gr.n = n;
    for (let x = 0; x < e; x++) {
      if (cost[x] < lo) lo = cost[x];
      if (cost[x] > hi) hi = cost[x];
    }
    gr.cheapest = lo;
    gr.dearest = hi;
  }

  /**
   * Appends the level-1 path of level-2 edge i -> k inside group G (stored by link) to `path`, as
   * padded cells after node i's cell.
   */
  appendEdgePath(G: number, i: number, k: number, path: number[]): void {
    const S = this.ids.groupScratch;
    S.enter(this.layout, G);
    const clusterOfLocal = S.clusterOfLocal;
    const e = this.edgesOut[G];
    const stored = this.edgePaths[G];
    const off = this.edgePathStart[G];
    const mask = (1 << SLOT_BITS) - 1;
    const I = this.store.ints;
    const blockOf = this.store.blockOf;
    let x = e.off[i];
    while (e.to[x] !== k) x++;
    // A stored path is never empty (it ends at k); an empty one is stored the other way round.
    if (off[x + 1] > off[x]) {
      for (let y = off[x]; y < off[x + 1]; y++) {
        const u = stored[y];
        path.push(I[blockOf[clusterOfLocal[u >> SLOT_BITS]] + BLOCK_HEADER + (u & mask)]);
      }
      return;
    }
    // Stored the other way round (k -> i, ending at i): backwards without i, then k.
    x = e.off[k];
    while (e.to[x] !== i) x++;
    for (let y = off[x + 1] - 2; y >= off[x]; y--) {
      const u = stored[y];
      path.push(I[blockOf[clusterOfLocal[u >> SLOT_BITS]] + BLOCK_HEADER + (u & mask)]);
    }
    path.push(this.nodes[G][k]);
  }

  /** The dearest level-2 edge, either way (the range of a bucket queue over the level-2 graph). */
  dearestEdge(): number {
    const pass = this.view.pass;
    let hi = 0;
    for (let G = 0; G < this.nodes.length; G++) {
      for (const e of [this.edgesOut[G], this.edgesIn[G], this.crossLinks[G]]) for (let x = 0; x < e.cost.length; x++) hi = Math.max(hi, e.cost[x]);
      for (const p of this.nodes[G]) hi = Math.max(hi, pass[p]);
    }
    return hi;
  }

  /**
   * Whether some level-2 node of group sg the start reaches (startCosts[i] finite) and some of
   * group gg that reaches the goal (goalCosts[j] finite) share a component.
   */
  connected(sg: number, gg: number, startCosts: Float64Array, goalCosts: Float64Array): boolean {
    if (this.componentsStale) this.refreshComponents();
    const a = this.component[sg];
    const b = this.component[gg];
    for (let i = 0; i < a.length; i++) {
      if (startCosts[i] === Infinity) continue;
      for (let j = 0; j < b.length; j++) if (goalCosts[j] < Infinity && a[i] === b[j]) return true;
    }
    return false;
  }

  /** Connected components of the level-2 graph (union-find over its edges). */
  refreshComponents(): void {
    this.componentsStale = false;
    const n2 = this.nodes.length;
    const sh = this.ids.levelTwoShift;
    const cols2 = this.layout.groupColumns;
    const parent = new Int32Array(n2 << sh);
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
    for (let G = 0; G < n2; G++) {
      const m = this.nodes[G].length;
      const e = this.edgesOut[G];
      const c = this.crossLinks[G];
      for (let i = 0; i < m; i++) {
        const a = (G << sh) | i;
        for (let x = e.off[i]; x < e.off[i + 1]; x++) union(a, (G << sh) | e.to[x]);
        for (let x = c.off[i]; x < c.off[i + 1]; x++) {
          const t = c.to[x];
          union(a, ((G + DY[t & 3] * cols2 + DX[t & 3]) << sh) | (t >> 2));
        }
      }
    }
    for (let G = 0; G < n2; G++) {
      const m = this.nodes[G].length;
      const c = new Int32Array(m);
      for (let i = 0; i < m; i++) c[i] = find((G << sh) | i);
      this.component[G] = c;
    }
  }
}

/** A copy of `a` twice as long. */
function growInt32(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}
