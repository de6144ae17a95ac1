/**
 * Level 1: the nodes on cluster borders and the edges between them. Places a cluster's nodes on its
 * entrances, computes the in-cluster cost between every two of them (pruned, then written to the
 * ClusterStore), and links each node to the facing nodes of the neighbouring clusters. Owns the
 * per-cell slot table (which cells are nodes) and the build scratch.
 */
import type { SearchView } from '../../../grid/navgrid.js';
import { DX, DY, padXY } from '../../../grid/padded.js';
import type { ClusterLayout } from './ids.js';
import { clearLineCost } from './lines.js';
import type { ClusterSearch } from './local-search.js';
import { EdgeScratch, pruneEdges, type ClusterStore, type Links } from './store.js';

/** Entrances this long or longer get three nodes (both ends and the middle), shorter ones one. */
const LONG_ENTRANCE = 8;

/**
 * Each entrance along the borders of the rectangle x0..x1, y0..y1 (cells) that are not the map's
 * edge: a maximal run of walkable cells facing walkable cells across the border. `visit` gets the
 * border's first cell (padded), the step along it, and the run as positions run..end-1 along it.
 * Both sides of a border see the same runs, so the nodes each side places line up.
 */
export function scanEntrances(
  layout: ClusterLayout,
  pass: Float32Array,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  visit: (first: number, step: number, run: number, end: number) => void,
): void {
  const W = layout.stride;
  const scan = (bx: number, by: number, step: number, len: number, across: number): void => {
    const first = padXY(W, bx, by);
    let run = -1;
    for (let t = 0; t <= len; t++) {
      const p = first + t * step;
      const ok = t < len && pass[p] > 0 && pass[p + across] > 0;
      if (ok && run < 0) run = t;
      if (!ok && run >= 0) {
        visit(first, step, run, t);
        run = -1;
      }
    }
  };
  if (y0 > 0) scan(x0, y0, 1, x1 - x0 + 1, -W);
  if (y1 < layout.height - 1) scan(x0, y1, 1, x1 - x0 + 1, W);
  if (x0 > 0) scan(x0, y0, W, y1 - y0 + 1, -1);
  if (x1 < layout.width - 1) scan(x1, y0, W, y1 - y0 + 1, 1);
}

/** Builds and rebuilds the clusters' level-1 nodes and edges. */
export class Clusters {
  /** Per padded cell: its index (slot) among its cluster's nodes, -1 when it is not a node. */
  readonly slotOfCell: Int16Array;
  private readonly layout: ClusterLayout;
  private readonly view: SearchView;
  private readonly cardinal: boolean;
  private readonly store: ClusterStore;
  private readonly clusterSearch: ClusterSearch;
  /** During a rebuild: the new nodes of the clusters being rebuilt. */
  private pendingNodes: (Int32Array | undefined)[] = [];
  /** Build scratch: a cluster's cost matrix, its pruned edges, its cross links, its local costs. */
  private costMatrix = new Float32Array(0);
  private readonly edgeScratch = new EdgeScratch();
  private readonly linkScratch: Links = { off: new Int32Array(1), to: new Int32Array(0), cost: new Float32Array(0) };
  private readonly localCosts: Float64Array;

  constructor(layout: ClusterLayout, view: SearchView, cardinal: boolean, store: ClusterStore, clusterSearch: ClusterSearch) {
    this.layout = layout;
    this.view = view;
    this.cardinal = cardinal;
    this.store = store;
    this.clusterSearch = clusterSearch;
    this.slotOfCell = new Int16Array(view.pass.length).fill(-1);
    this.localCosts = new Float64Array(clusterSearch.localSize);
  }

  /** Starts a rebuild of some of `clusters` clusters (placeNodes, then linkCluster for each). */
  beginRebuild(clusters: number): void {
    this.pendingNodes = new Array<Int32Array | undefined>(clusters);
  }

  endRebuild(): void {
    this.pendingNodes = [];
  }

  /**
   * Finds cluster k's nodes (entrance cells on its side of each of its four borders) and gives
   * them their slots; returns their count. Its edges come with {@link linkCluster}.
   */
  placeNodes(k: number): number {
    for (const p of this.store.nodes(k)) this.slotOfCell[p] = -1;
    const layout = this.layout;
    const c = layout.clusterSize;
    const x0 = layout.clusterX(k);
    const y0 = layout.clusterY(k);
    const x1 = Math.min(x0 + c, layout.width) - 1;
    const y1 = Math.min(y0 + c, layout.height) - 1;
    const found: number[] = [];
    scanEntrances(layout, this.view.pass, x0, y0, x1, y1, (first, step, run, end) => {
      const n = end - run;
      if (n >= LONG_ENTRANCE) found.push(first + run * step, first + (end - 1) * step);
      found.push(first + (run + ((n - 1) >> 1)) * step);
    });
    const nodes = Int32Array.from(new Set(found));
    for (let j = 0; j < nodes.length; j++) this.slotOfCell[nodes[j]] = j;
    this.pendingNodes[k] = nodes;
    return nodes.length;
  }

  /** Cluster k's nodes: the new ones during a rebuild that places them, else the stored ones. */
  private nodesOf(k: number): Int32Array {
    return this.pendingNodes[k] ?? this.store.nodes(k);
  }

  /**
   * Cluster k's cross links: per node, the facing nodes of neighbouring clusters (dir | slot << 2),
   * in scratch (valid until the next call; `off[m]` links).
   */
  crossLinks(k: number): Links {
    const nodes = this.nodesOf(k);
    const m = nodes.length;
    const W = this.layout.stride;
    const pass = this.view.pass;
    const slot = this.slotOfCell;
    const L = this.linkScratch;
    if (L.off.length < m + 1) L.off = new Int32Array(2 * m + 2);
    // At most four facing cells per node.
    if (L.to.length < 4 * m) {
      L.to = new Int32Array(8 * m);
      L.cost = new Float32Array(8 * m);
    }
    let x = 0;
    for (let s = 0; s < m; s++) {
      L.off[s] = x;
      const p = nodes[s];
      for (let d = 0; d < 4; d++) {
        const q = p + DY[d] * W + DX[d];
        const t = slot[q];
        if (t < 0 || pass[q] <= 0 || this.layout.clusterOf(q) === k) continue;
        L.to[x] = d | (t << 2);
        L.cost[x++] = pass[q];
      }
    }
    L.off[m] = x;
    return L;
  }

  /** Writes cluster k (placed by placeNodes in this rebuild) to the store: the in-cluster cost between every two of its nodes, pruned, and its cross links. */
  linkCluster(k: number): void {
    const nodes = this.pendingNodes[k] as Int32Array;
    const m = nodes.length;
    if (this.costMatrix.length < m * m) this.costMatrix = new Float32Array(2 * m * m);
    const costs = this.costMatrix;
    costs.fill(Infinity, 0, m * m);
    const uniform = this.uniformCluster(k);
    const search = this.clusterSearch;
    const layout = this.layout;
    const pass = this.view.pass;
    const stamps = search.stamps;
    const distances = this.localCosts;
    for (let i = 0; i < m; i++) {
      // Uniform costs are symmetric: row i needs only the nodes after i.
      if (uniform && i === m - 1) break;
      const mark = stamps.next();
      let n = 0;
      for (let j = uniform ? i + 1 : 0; j < m; j++) {
        // Uniform costs: an octile-length path that is clear costs the least possible.
        if (uniform) {
          const d = clearLineCost(pass, layout.stride, this.cardinal, nodes[i], nodes[j]);
          if (d >= 0) {
            costs[i * m + j] = costs[j * m + i] = d;
            continue;
          }
        }
        stamps.mark[layout.localCell(k, nodes[j])] = mark;
        n++;
      }
      if (n === 0) continue;
      search.targets = n;
      search.costsFrom(k, nodes[i], false, distances, uniform, false);
      for (let j = uniform ? i + 1 : 0; j < m; j++) {
        const l = layout.localCell(k, nodes[j]);
        if (stamps.mark[l] !== mark) continue;
        // Settled, or never reached (then its cost slot may be stale: no fill).
        const d = stamps.stamp[l] === mark + 1 ? distances[l] : Infinity;
        costs[i * m + j] = d;
        if (uniform) costs[j * m + i] = d;
      }
    }
    const [out, inc] = pruneEdges(m, costs, uniform, this.edgeScratch);
    this.store.write(k, nodes, pass, out, inc, this.crossLinks(k));
  }

  /** Whether every walkable cell of cluster k costs the same. */
  private uniformCluster(k: number): boolean {
    const layout = this.layout;
    const c = layout.clusterSize;
    const W = layout.stride;
    const pass = this.view.pass;
    const x0 = layout.clusterX(k);
    const y0 = layout.clusterY(k);
    const w = Math.min(c, layout.width - x0);
    const h = Math.min(c, layout.height - y0);
    let cost = 0;
    for (let y = 0; y < h; y++) {
      const row = padXY(W, x0, y0 + y);
      for (let x = 0; x < w; x++) {
        const v = pass[row + x];
        if (v <= 0) continue;
        if (cost === 0) cost = v;
        else if (v !== cost) return false;
      }
    }
    return true;
  }
}
