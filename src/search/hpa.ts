import { TilenavError, describe } from '../errors.js';
import type { NavGrid, SearchView } from '../grid/navgrid.js';
import { MonotoneQueue, NodeHeap } from './heap.js';
import { ClusterStore, EdgeScratch, GROUP as GROUP_, GroupGraph, NODES as NODES_, PACK as PACK_, Scratch, pruneEdges, type Edges, type Links } from './hpa-data.js';
import type { JumpPointSearch } from './jps/jps.js';
import { outcome, type SearchScratch } from './kernel.js';
import { DX as DX_, DY as DY_, OCTILE_K as K_, SQRT2 as SQRT2_ } from './padded.js';

// Module-local copies: some loaders (tsx) turn imported bindings into getter calls in hot loops.
const DX = DX_;
const DY = DY_;
const K = K_;
const SQRT2 = SQRT2_;
const GROUP = GROUP_;
const NODES = NODES_;
const PACK = PACK_;

/** Options of {@link Hierarchy} (through `Pathfinder.hierarchy`). */
export interface HierarchyOptions {
  /** Cluster side in cells (4-128); a group is 8 x 8 clusters. @default 16 */
  clusterSize?: number;
}

/** @default 16 */
export const DEFAULT_CLUSTER_SIZE = 16;

/**
 * With terrain costs, refinement searches run from one kept border crossing to the SKIP-th next,
 * inside the clusters the level-1 path visits between them.
 */
const SKIP = 2;
/**
 * On uniform-cost layers refinement runs jump point search over the whole layer (exact, and cheap
 * enough for longer stretches: fewer fixed crossings, a path closer to optimal).
 */
const SKIP_JPS = 8;
/** On uniform layers, refinement tries a straight line up to this many kept cells ahead. */
const REACH = 4;
/** Entrances this long or longer get three nodes (both ends and the middle), shorter ones one. */
const LONG = 8;
/** Landmarks for the level-2 search's heuristic. */
const LANDMARKS = 32;
/** The level-2 search's heuristic weight (weighted A*: within this factor of the best level-2 path). */
const L2_WEIGHT = 1.01;
/** Landmarks a query's heuristic reads: those with the best bounds at its start. */
const ACTIVE = 8;

/**
 * A two-level hierarchy for big maps, HPA*-style (Botea, Müller & Schaeffer 2004, with the
 * second level of their multi-level variant).
 *
 * Level 1: the grid is cut into square clusters (16 x 16 cells by default). Where walkable cells
 * face each other across a cluster border (an entrance), one pair of cells (three, at the ends and
 * the middle, for an entrance 8 cells or longer) become nodes; each cluster keeps the cheapest
 * in-cluster cost between its nodes.
 * Level 2: groups of 8 x 8 clusters. Along a group border, the middle level-1 node pair of each
 * entrance piece (an entrance cut at cluster borders) becomes a level-2 node pair; each group
 * keeps the cheapest in-group cost between its level-2 nodes (Dijkstra over the level-1 graph)
 * and the level-1 path that achieves it. Both levels drop the edges another node of the same
 * cluster (group) matches in cost, which changes no distance and removes about half of them.
 * Landmark distances (ALT) on the level-2 graph give its search a tighter heuristic than the
 * octile distance; each query reads the few landmarks that bound its start best. The level-2
 * search weighs the heuristic by L2_WEIGHT (1.01): its path costs at most 1 % more than the best
 * level-2 path (a guarantee while the landmark rows are current, the heuristic then being
 * consistent), for half the expansions on the cave benchmark map.
 *
 * A query links start and goal into their clusters and groups (Dijkstra inside each group),
 * searches the level-2 graph, reads each level-2 step's stored level-1 path, then turns the level-1
 * path into cells with exact searches between kept border crossings: on uniform-cost layers a
 * clear straight line or jump point search over the whole layer between every eighth crossing; with
 * terrain costs, A* inside the clusters the path visits between every second crossing. That
 * straightens out most detours through fixed entrance cells. Start and goal in one group skip
 * level 2. Components of the level-2 graph answer "no path" without searching.
 *
 * Works on any layer, with terrain costs, for `octile` and `cardinal` movement. Not exact: the
 * mean excess over optimal on the Moving AI maps is measured and bounded in test/hpa.test.ts
 * (README). A tile change marks its clusters (and their neighbours, whose border nodes may move)
 * and their groups, rebuilt at the next query; the landmarks are recomputed once more than an
 * eighth of the groups changed (until then, changed groups fall back to the octile heuristic and
 * stale distances elsewhere can only make the level-2 path less direct, never wrong).
 *
 * Layout: the clusters' nodes and edges live in two flat pools (ClusterStore), the level-2 graph
 * per group, and searches index small arrays by compact ids (a group's level-1 nodes, or the
 * level-2 nodes) rather than the grid's padded cells. Dijkstra searches over these graphs use a
 * bucket queue (MonotoneQueue).
 *
 * Memory (see `bytes`): 2 bytes per cell of node slots; the cluster pools; per group its level-2
 * nodes, pruned edges, and their level-1 paths (2 bytes per level-1 node, each pair stored once
 * when costs are symmetric); 32 landmark distances per level-2 node (float32; twice with terrain
 * costs). About 3 bytes per cell on the rooms-and-corridors benchmark map, 10 on the cave map.
 */
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
  /** Every cluster's nodes, edges (pruned, see pruneEdges), cross links and level-2 indices. */
  private readonly store: ClusterStore;
  /** During a refresh: the new nodes of the clusters being rebuilt. */
  private pendingNodes: (Int32Array | undefined)[] = [];
  /** Build scratch: a cluster's cost matrix, its pruned edges and cross links (copied into the store). */
  private ccosts = new Float32Array(0);
  private readonly cedges = new EdgeScratch();
  private readonly clinks: Links = { off: new Int32Array(1), to: new Int32Array(0), cost: new Float32Array(0) };
  /** Per cluster: its group. */
  private readonly kgroup: Int32Array;
  /**
   * Compact ids. Inside group G, level-1 node s of the cluster at (x, y) in the group's 8 x 8 is
   * ((y * 8 + x) << sh1) | s; level-2 node i of group G is (G << sh2) | i. Searches bounded by a
   * group, and every level-2 search, index small arrays with these instead of padded cells.
   */
  private sh1 = 0;
  private sh2 = 0;
  /** Group-local search arrays: the query's start side, its goal side, and everything else. */
  private sa = new Scratch(1);
  private sb = new Scratch(1);
  private sc = new Scratch(1);
  /** The group graph linkGroup loads (see loadGroup). */
  private readonly gc = new GroupGraph();
  /** Per group: the dearest level-1 edge inside it, either way. */
  private readonly groupHi: Float64Array;
  /** The queue of the Dijkstra searches over group graphs. */
  private readonly queue = new MonotoneQueue();
  /** Level-2 search arrays (two more ids: the query's start and goal). */
  private sl = new Scratch(1, true);
  private readonly dirty: Uint8Array;
  private readonly nodes2: Int32Array[];
  private readonly out2: Edges[];
  private readonly in2: Edges[];
  /**
   * Per group: the level-1 path of each level-2 edge (indexed like out2's edges), after its source
   * node up to its target, as packed group-local node ids (local cluster << PACK | slot):
   * paths2[G][pathOff2[G][x] .. pathOff2[G][x + 1]). Queries read them instead of searching.
   */
  private readonly paths2: Uint16Array[];
  private readonly pathOff2: Int32Array[];
  /** Per group, per level-2 node: its edges to the facing level-2 nodes of neighbouring groups. */
  private readonly cross2: Links[];
  private readonly dirty2: Uint8Array;
  private anyDirty = true;
  /** Per group, per level-2 node: its connected component; rebuilt lazily after a change. */
  private readonly comp: Int32Array[];
  private compStale = true;
  // Cluster-local Dijkstra scratch (heap for mixed costs, two FIFO queues for uniform ones).
  private readonly ld: Float64Array;
  /** The cluster the local Dijkstra last loaded, and its cells' costs with a ring of 0 (blocked) around. */
  private lk = -1;
  private readonly lpass: Float32Array;
  /** Padded-local index step per direction. */
  private readonly lstep = new Int32Array(8);
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
  /** Per level-2 id ((G << sh2) | i), per landmark: distance from it (lmFwd) and to it (lmBwd, the same array when symmetric). */
  private lmFwd = new Float32Array(0);
  private lmBwd = new Float32Array(0);
  /** Per level-2 id: its cell (padded), and the cell's x and y. */
  private cell2 = new Int32Array(0);
  private x2 = new Int32Array(0);
  private y2 = new Int32Array(0);
  /** Per group: 1 when its landmark rows are current (0 after a rebuild of the group). */
  private readonly lmValid: Uint8Array;
  /** Groups rebuilt since the landmarks were computed. */
  private lmStale = 0;
  private lmOn = false;
  private readonly lmToGoal = new Float64Array(LANDMARKS);
  /** This query's active landmarks (see prepareLandmarks) and their ranking scratch. */
  private readonly lmActive = new Int32Array(ACTIVE);
  private readonly lmScore = new Float64Array(LANDMARKS);
  private readonly lmFromGoal = new Float64Array(LANDMARKS);
  /** Whether the landmark tables were computed as symmetric (one table for both directions). */
  private lmSym = true;
  // The current query.
  private goalX = 0;
  private goalY = 0;
  private readonly unsubscribe: () => void;
  private readonly jps: (() => JumpPointSearch) | null;
  /** Cells of the last jump point segment. */
  private jpsCells = new Int32Array(256);
  private readonly jpsOutcome = outcome();

  /**
   * `jps`: the owner's jump point search, for refinement on uniform-cost layers (null: box-bounded
   * A* everywhere).
   */
  constructor(grid: NavGrid, view: SearchView, scratch: SearchScratch, layer: number, cardinal: boolean, options: HierarchyOptions = {}, jps: (() => JumpPointSearch) | null = null) {
    this.jps = jps;
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
    this.store = new ClusterStore(n, n * (8 + 8 * c));
    this.kgroup = new Int32Array(n);
    for (let k = 0; k < n; k++) this.kgroup[k] = Math.floor(Math.floor(k / this.cols) / GROUP) * this.cols2 + Math.floor((k % this.cols) / GROUP);
    this.dirty = new Uint8Array(n).fill(1);
    this.nodes2 = new Array<Int32Array>(n2).fill(new Int32Array(0));
    this.out2 = new Array<Edges>(n2);
    this.in2 = new Array<Edges>(n2);
    this.cross2 = new Array<Links>(n2);
    this.paths2 = new Array<Uint16Array>(n2);
    this.groupHi = new Float64Array(n2);
    this.pathOff2 = new Array<Int32Array>(n2);
    this.comp = new Array<Int32Array>(n2);
    this.dirty2 = new Uint8Array(n2).fill(1);
    this.lmValid = new Uint8Array(n2);
    const cc = (c + 2) * (c + 2);
    this.lpass = new Float32Array(cc);
    for (let dir = 0; dir < 8; dir++) this.lstep[dir] = DY[dir] * (c + 2) + DX[dir];
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
      this.lk = -1;
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
    this.store.trim();
    this.components();
    this.landmarks();
    // Refinement's jump point search reads the layer's walkability bits: build them now, not in the first query.
    if (this.symmetric && jps !== null) jps().bits(layer);
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
    for (let k = 0; k < this.dirty.length; k++) n += this.store.count(k);
    return n;
  }

  /** Level-2 nodes in all groups. */
  get groupNodeCount(): number {
    let n = 0;
    for (const a of this.nodes2) n += a.length;
    return n;
  }

  /** Bytes held: node slots, the cluster pools, and per group its nodes, edges, paths and landmark rows. */
  get bytes(): number {
    let b = this.slot.byteLength + 3 * this.cell2.byteLength + this.lmFwd.byteLength + (this.lmBwd !== this.lmFwd ? this.lmBwd.byteLength : 0);
    const edges = (a: Edges, b: Edges): number => a.off.byteLength + a.to.byteLength + a.cost.byteLength + (a === b ? 0 : b.off.byteLength + b.to.byteLength + b.cost.byteLength);
    b += this.store.bytes;
    for (let k = 0; k < this.nodes2.length; k++) {
      b += this.nodes2[k].byteLength + edges(this.out2[k], this.in2[k]) + (this.comp[k]?.byteLength ?? 0);
      b += (this.paths2[k]?.byteLength ?? 0) + (this.pathOff2[k]?.byteLength ?? 0) + (this.cross2[k] ? this.cross2[k].off.byteLength + this.cross2[k].to.byteLength + this.cross2[k].cost.byteLength : 0);
    }
    return b;
  }

  /** Rebuilds the clusters and groups marked dirty (all of them at first). */
  refresh(): void {
    if (!this.anyDirty) return;
    this.anyDirty = false;
    const dirty = this.dirty;
    const store = this.store;
    this.pendingNodes = new Array<Int32Array | undefined>(dirty.length);
    let most = 0;
    for (let k = 0; k < dirty.length; k++) {
      if (dirty[k] === 1) most = Math.max(most, this.placeNodes(k));
    }
    // Neighbours of changed clusters keep their nodes and edges, but the facing nodes may have moved
    // or come and gone: new cross links, maybe more or fewer. (Changed clusters get theirs in linkCluster.)
    const relink = new Uint8Array(dirty.length);
    this.around(dirty, relink, this.cols, this.rows);
    for (let k = 0; k < relink.length; k++) if (relink[k] === 1 && dirty[k] === 0) store.relink(k, this.crossLinks(k));
    while (1 << this.sh1 < most) this.sh1++;
    if (this.sc.size < GROUP * GROUP << this.sh1) {
      const size = GROUP * GROUP << this.sh1;
      this.sa = new Scratch(size);
      this.sb = new Scratch(size);
      this.sc = new Scratch(size);
    }
    let n = 0;
    for (let k = 0; k < dirty.length; k++) {
      if (dirty[k] === 1) {
        this.linkCluster(k);
        dirty[k] = 0;
        n++;
      }
    }
    this.pendingNodes = [];
    this.rebuiltClusters = n;
    const dirty2 = this.dirty2;
    most = 0;
    for (let G = 0; G < dirty2.length; G++) {
      if (dirty2[G] === 1) {
        this.placeGroupNodes(G);
        most = Math.max(most, this.nodes2[G].length);
      }
    }
    const relink2 = new Uint8Array(dirty2.length);
    this.around(dirty2, relink2, this.cols2, this.rows2);
    for (let G = 0; G < relink2.length; G++) if (relink2[G] === 1) this.crossLinks2(G);
    const sh2 = this.sh2;
    while (1 << this.sh2 < most) this.sh2++;
    if (this.sl.size < (dirty2.length << this.sh2) + 2) this.sl = new Scratch((dirty2.length << this.sh2) + 2, true);
    // Level-2 ids changed meaning: every cell2 entry moves, the landmark tables are recomputed.
    const moved = this.sh2 !== sh2 || this.cell2.length === 0;
    if (moved) {
      this.cell2 = new Int32Array(dirty2.length << this.sh2);
      this.x2 = new Int32Array(this.cell2.length);
      this.y2 = new Int32Array(this.cell2.length);
      this.lmStale = Infinity;
    }
    for (let G = 0; G < dirty2.length; G++) {
      if (!moved && dirty2[G] === 0) continue;
      const nodes = this.nodes2[G];
      for (let i = 0; i < nodes.length; i++) {
        const q = (G << this.sh2) | i;
        const y = ((nodes[i] / this.W) | 0) - 1;
        this.cell2[q] = nodes[i];
        this.x2[q] = nodes[i] - (y + 1) * this.W - 1;
        this.y2[q] = y;
      }
    }
    n = 0;
    for (let G = 0; G < dirty2.length; G++) {
      if (dirty2[G] === 1) {
        this.linkGroup(G);
        dirty2[G] = 0;
        this.lmValid[G] = 0;
        n++;
      }
    }
    this.lmStale += n;
    this.rebuiltGroups = n;
    if (n > 0) this.compStale = true;
  }

  /** Marks in `out` every cell of a cols x rows array that is marked in `marks` or next to one. */
  private around(marks: Uint8Array, out: Uint8Array, cols: number, rows: number): void {
    for (let k = 0; k < marks.length; k++) {
      if (marks[k] !== 1) continue;
      const x = k % cols;
      out[k] = 1;
      if (x > 0) out[k - 1] = 1;
      if (x < cols - 1) out[k + 1] = 1;
      if (k >= cols) out[k - cols] = 1;
      if (k + cols < rows * cols) out[k + cols] = 1;
    }
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
    const sg = this.kgroup[sk];
    const gg = this.kgroup[gk];
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
      return this.searchLevel1(start, goal, out, path) ? path : null;
    }
    this.connect(start, sk, sg, false, false, -1);
    this.connect(goal, gk, gg, true, false, -1);
    if (!this.linked(sg, gg)) return null;
    const top = this.searchLevel2(sg, gg, out);
    if (top === null) return null;
    const sh2 = this.sh2;
    const mask2 = (1 << sh2) - 1;
    // The start side from the start group's search, then each level-2 step: across a group border
    // (one cell) or a level-1 search inside its group, then the goal side from the goal group's search.
    this.chain(this.sa, this.nodes2[sg][top[0] & mask2], path, true);
    for (let k = 1; k < top.length; k++) {
      const u = top[k - 1];
      const v = top[k];
      const G = u >> sh2;
      if (v >> sh2 !== G) path.push(this.nodes2[v >> sh2][v & mask2]);
      else this.step(G, u & mask2, v & mask2, path);
    }
    this.chain(this.sb, this.nodes2[gg][top[top.length - 1] & mask2], path, false);
    if (path[path.length - 1] !== goal) path.push(goal);
    return path;
  }

  /**
   * Appends the path a group search (scratch S, group-local ids, seeded from the start's or goal's
   * cluster) holds for node cell p: `forward`, from the seeds to p (the start side); else from after
   * p to the seeds (the goal side, searched in reverse).
   */
  private chain(S: Scratch, p: number, path: number[], forward: boolean): void {
    const sh = this.sh1;
    const mask = (1 << sh) - 1;
    const from = path.length;
    let u = this.lid(p);
    if (!forward) u = S.parent[u];
    const I = this.store.i;
    const at = this.store.at;
    for (; u !== -1; u = S.parent[u]) path.push(I[at[S.ks[u >> sh]] + NODES + (u & mask)]);
    if (forward) reverseFrom(path, from);
    // The start (goal) may be a node itself, then the first (last) seed.
    if (forward && path.length > from && path[from] === path[from - 1]) path.splice(from, 1);
  }

  /** Group-local id of level-1 node cell p (in its own group). */
  private lid(p: number): number {
    return (this.lcOf(this.clusterOf(p)) << this.sh1) | this.slot[p];
  }

  /** Cluster k's index among its group's 8 x 8. */
  private lcOf(k: number): number {
    const cols = this.cols;
    return (((k / cols) | 0) % GROUP) * GROUP + ((k % cols) % GROUP);
  }

  /** Points scratch S's cluster table at group G: S.ks[local cluster] = cluster index (-1 off the map). */
  private enter(S: Scratch, G: number): void {
    if (S.group === G) return;
    S.group = G;
    const x0 = (G % this.cols2) * GROUP;
    const y0 = Math.floor(G / this.cols2) * GROUP;
    for (let y = 0; y < GROUP; y++) {
      for (let x = 0; x < GROUP; x++) {
        S.ks[y * GROUP + x] = x0 + x < this.cols && y0 + y < this.rows ? (y0 + y) * this.cols + x0 + x : -1;
      }
    }
  }

  /**
   * Appends the level-1 path of level-2 edge i -> k inside group G (stored by linkGroup) to `path`,
   * after node i's cell.
   */
  private step(G: number, i: number, k: number, path: number[]): void {
    const S = this.sc;
    this.enter(S, G);
    const ks = S.ks;
    const e = this.out2[G];
    const stored = this.paths2[G];
    const off = this.pathOff2[G];
    const mask = (1 << PACK) - 1;
    const I = this.store.i;
    const at = this.store.at;
    let x = e.off[i];
    while (e.to[x] !== k) x++;
    // A stored path is never empty (it ends at k); an empty one is stored the other way round.
    if (off[x + 1] > off[x]) {
      for (let y = off[x]; y < off[x + 1]; y++) {
        const u = stored[y];
        path.push(I[at[ks[u >> PACK]] + NODES + (u & mask)]);
      }
      return;
    }
    // Stored the other way round (k -> i, ending at i): backwards without i, then k.
    x = e.off[k];
    while (e.to[x] !== i) x++;
    for (let y = off[x + 1] - 2; y >= off[x]; y--) {
      const u = stored[y];
      path.push(I[at[ks[u >> PACK]] + NODES + (u & mask)]);
    }
    path.push(this.nodes2[G][k]);
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

  /** Index of padded cell p inside cluster k's local arrays (the cluster with a ring around it). */
  private local(k: number, p: number): number {
    const W = this.W;
    const c = this.clusterSize;
    const x0 = (k % this.cols) * c;
    const y0 = Math.floor(k / this.cols) * c;
    const y = ((p / W) | 0) - 1;
    return (y - y0 + 1) * (c + 2) + (p - (y + 1) * W - x0);
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
   * Level-1 A* over the whole map (on padded cells) from the query's start to its goal, appending the
   * path after `from` to `path`; for start and goal in one group. Returns false when there is no path.
   */
  private searchLevel1(from: number, to: number, out: { expanded: number }, path: number[]): boolean {
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
    const open = scratch.start(from);
    const closed = open + 1;
    let expanded = 0;
    while (heap.size > 0) {
      const p = heap.pop();
      stamp[p] = closed;
      if (p === to) break;
      expanded++;
      const gp = g[p];
      const k = this.clusterOf(p);
      const I = this.store.i;
      const b = this.store.at[k];
      const m = I[b];
      const i = slot[p];
      if (p === start) {
        const fs = this.fromStart;
        for (let j = 0; j < m; j++) {
          const q = I[b + NODES + j];
          const d = fs[this.local(sk, q)];
          if (d < Infinity && q !== p) this.relax(q, gp + d, p, open, true);
        }
      } else if (i >= 0) {
        const o = b + NODES + 2 * m;
        const F = this.store.f;
        for (let x = b + I[o + i]; x < b + I[o + i + 1]; x++) this.relax(I[b + NODES + I[x]], gp + F[x], p, open, true);
      }
      if (i >= 0) {
        // Across a cluster border: the facing cell, when it is a node too.
        for (let dir = 0; dir < 4; dir++) {
          const q = p + DY[dir] * W + DX[dir];
          if (slot[q] < 0 || pass[q] <= 0 || this.clusterOf(q) === k) continue;
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
   * Level-2 A* from the start (linked to group sg's level-2 nodes by s2) to the goal (from group gg's,
   * by g2): the level-2 ids on the path, first to last, or null.
   */
  private searchLevel2(sg: number, gg: number, out: { expanded: number }): number[] | null {
    const S = this.sl;
    const { g, parent, stamp, heap } = S;
    const sh = this.sh2;
    const mask = (1 << sh) - 1;
    const cols2 = this.cols2;
    const start = this.nodes2.length << sh;
    const goal = start + 1;
    this.prepareLandmarks(sg, gg);
    const open = S.begin();
    const closed = open + 1;
    S.seed(start, 0, open);
    heap.push(start, 0, 0);
    let expanded = 0;
    while (heap.size > 0) {
      const p = heap.pop();
      stamp[p] = closed;
      if (p === goal) break;
      expanded++;
      const gp = g[p];
      if (p === start) {
        const s2 = this.s2;
        for (let j = 0; j < this.nodes2[sg].length; j++) if (s2[j] < Infinity) this.relax2(sg, j, s2[j], p, open);
        continue;
      }
      const G = p >> sh;
      const i = p & mask;
      const e = this.out2[G];
      for (let x = e.off[i]; x < e.off[i + 1]; x++) this.relax2(G, e.to[x], gp + e.cost[x], p, open);
      const c = this.cross2[G];
      for (let x = c.off[i]; x < c.off[i + 1]; x++) {
        const t = c.to[x];
        this.relax2(G + DY[t & 3] * cols2 + DX[t & 3], t >> 2, gp + c.cost[x], p, open);
      }
      if (G === gg && this.g2[i] < Infinity) S.relaxA(goal, gp + this.g2[i], p, open, 0);
    }
    out.expanded += expanded;
    if (stamp[goal] !== closed) return null;
    const path: number[] = [];
    for (let p = parent[goal]; p !== start; p = parent[p]) path.push(p);
    return path.reverse();
  }

  /** Relaxes level-2 node i of group G; a new node's key uses the landmark heuristic. */
  private relax2(G: number, i: number, ng: number, from: number, open: number): void {
    const S = this.sl;
    const q = (G << this.sh2) | i;
    const s = S.stamp[q];
    if (s === open + 1 || (s === open && ng >= S.g[q])) return;
    if (s === open) {
      S.relaxA(q, ng, from, open, 0);
      return;
    }
    const dx = Math.abs(this.x2[q] - this.goalX);
    const dy = Math.abs(this.y2[q] - this.goalY);
    let h = (this.cardinal ? dx + dy : dx > dy ? dx + K * dy : dy + K * dx) * this.view.minCost;
    if (this.lmOn && this.lmValid[G] === 1) {
      const f = this.lmFwd;
      const b = this.lmBwd;
      const o = q * LANDMARKS;
      const tf = this.lmToGoal;
      const tb = this.lmFromGoal;
      const act = this.lmActive;
      for (let a = 0; a < ACTIVE; a++) {
        const l = act[a];
        const x = tf[l] - f[o + l];
        if (x > h) h = x;
        const c = b[o + l] - tb[l];
        if (c > h) h = c;
      }
    }
    S.relaxA(q, ng, from, open, h * L2_WEIGHT);
  }

  /**
   * The landmark terms for this query's goal: lmToGoal[l] = d(L, goal) and lmFromGoal[l] = d(goal, L)
   * on the level-2 graph, through the goal group's nodes (g2). Terms that could overestimate are
   * set so that they never win (-Infinity / +Infinity). Recomputes the landmarks first when many
   * groups changed since they were computed.
   */
  private prepareLandmarks(sg: number, gg: number): void {
    // A layer that stopped being uniform needs the two-table form.
    if (this.lmStale > Math.max(4, this.nodes2.length >> 3) || (this.lmSym && !this.symmetric)) this.landmarks();
    this.lmOn = false;
    const tf = this.lmToGoal;
    const tb = this.lmFromGoal;
    tf.fill(-Infinity);
    tb.fill(Infinity);
    if (this.lmValid[gg] !== 1) return;
    const f = this.lmFwd;
    const b = this.lmBwd;
    const m = this.nodes2[gg].length;
    const o = (gg << this.sh2) * LANDMARKS;
    for (let l = 0; l < LANDMARKS; l++) {
      let to = Infinity;
      let from = Infinity;
      for (let j = 0; j < m; j++) {
        const d = this.g2[j];
        if (!(d < Infinity)) continue;
        to = Math.min(to, f[o + j * LANDMARKS + l] + d);
        // d(goal, j) = d(j, goal) only when costs are symmetric.
        if (this.lmSym) from = Math.min(from, b[o + j * LANDMARKS + l] + d);
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
    // The landmarks that bound the start best do the work (Goldberg & Harrelson's active set):
    // rank each by its bound at the start, through the start group's nodes (s2). A start group
    // rebuilt since the landmarks were computed has no rows: the first ACTIVE landmarks then.
    const act = this.lmActive;
    if (this.lmValid[sg] !== 1) {
      for (let a = 0; a < ACTIVE; a++) act[a] = a;
      return;
    }
    const score = this.lmScore;
    const ms = this.nodes2[sg].length;
    const os = (sg << this.sh2) * LANDMARKS;
    for (let l = 0; l < LANDMARKS; l++) {
      let ls = Infinity;
      let sl = Infinity;
      for (let j = 0; j < ms; j++) {
        const d = this.s2[j];
        if (!(d < Infinity)) continue;
        ls = Math.min(ls, f[os + j * LANDMARKS + l] + d);
        sl = Math.min(sl, b[os + j * LANDMARKS + l] + d);
      }
      const v = Math.max(tf[l] - ls, sl - tb[l]);
      score[l] = v > -Infinity ? v : -Infinity;
    }
    for (let a = 0; a < ACTIVE; a++) {
      let best = 0;
      for (let l = 1; l < LANDMARKS; l++) if (score[l] > score[best]) best = l;
      act[a] = best;
      // Taken (a landmark with no bound at all may be taken twice: it adds nothing either way).
      score[best] = -Infinity;
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
    const sh = this.sh2;
    let first = -1;
    const size = (n2 << sh) * LANDMARKS;
    if (this.lmFwd.length !== size) this.lmFwd = new Float32Array(size);
    this.lmFwd.fill(Infinity);
    if (this.symmetric) this.lmBwd = this.lmFwd;
    else {
      if (this.lmBwd.length !== size || this.lmBwd === this.lmFwd) this.lmBwd = new Float32Array(size);
      this.lmBwd.fill(Infinity);
    }
    for (let G = 0; G < n2; G++) {
      this.lmValid[G] = 1;
      if (first < 0 && this.nodes2[G].length > 0) first = G << sh;
    }
    if (first < 0) return;
    const near = new Float64Array(n2 << sh).fill(Infinity);
    // Start from the node farthest from an arbitrary one.
    const hi = this.level2Hi();
    let pick = this.farthest(first, near, -1, hi);
    near.fill(Infinity);
    for (let l = 0; l < LANDMARKS; l++) {
      const next = this.farthest(pick, near, l, hi);
      if (!this.symmetric) this.level2Dijkstra(pick, true, l, hi);
      pick = next;
    }
  }

  /**
   * Dijkstra from level-2 node `src`; with l >= 0 stores the distances as landmark l's; lowers
   * near[] (each node's distance to the nearest landmark so far) and returns the node with the
   * largest finite near[].
   */
  private farthest(src: number, near: Float64Array, l: number, hi: number): number {
    this.level2Dijkstra(src, false, l, hi);
    const { g, stamp } = this.sl;
    const closed = this.sl.gen + 1;
    const sh = this.sh2;
    let best = src;
    let bestD = -1;
    for (let G = 0; G < this.nodes2.length; G++) {
      const m = this.nodes2[G].length;
      for (let j = 0; j < m; j++) {
        const p = (G << sh) | j;
        if (stamp[p] !== closed) continue;
        if (g[p] < near[p]) near[p] = g[p];
        if (near[p] > bestD) {
          bestD = near[p];
          best = p;
        }
      }
    }
    return best;
  }

  /** Dijkstra over the level-2 graph from (reverse: to) node `src`; with l >= 0 stores landmark l's distances. */
  private level2Dijkstra(src: number, reverse: boolean, l: number, hi: number): void {
    const S = this.sl;
    const { g, stamp } = S;
    const sh = this.sh2;
    const mask = (1 << sh) - 1;
    const cols2 = this.cols2;
    const pass = this.view.pass;
    const open = S.begin();
    const closed = open + 1;
    S.seed(src, 0, open);
    const Q = this.queue;
    Q.reset(this.view.minCost, hi);
    Q.push(src, 0);
    while (Q.size > 0) {
      const p = Q.pop();
      if (stamp[p] === closed || Q.key > g[p]) continue;
      stamp[p] = closed;
      const gp = g[p];
      const G = p >> sh;
      const i = p & mask;
      if (l >= 0) (reverse ? this.lmBwd : this.lmFwd)[p * LANDMARKS + l] = gp;
      const e = (reverse ? this.in2 : this.out2)[G];
      const base = G << sh;
      for (let x = e.off[i]; x < e.off[i + 1]; x++) this.reach(S, base | e.to[x], gp + e.cost[x], p, open);
      const c = this.cross2[G];
      // Reverse: the edge from the facing node into p costs p's cell.
      const rc = pass[this.cell2[p]];
      for (let x = c.off[i]; x < c.off[i + 1]; x++) {
        const t = c.to[x];
        this.reach(S, ((G + DY[t & 3] * cols2 + DX[t & 3]) << sh) | (t >> 2), gp + (reverse ? rc : c.cost[x]), p, open);
      }
    }
  }

  /** The dearest level-2 edge, either way (for level2Dijkstra's queue). */
  private level2Hi(): number {
    const pass = this.view.pass;
    let hi = 0;
    for (let G = 0; G < this.nodes2.length; G++) {
      for (const e of [this.out2[G], this.in2[G], this.cross2[G]]) for (let x = 0; x < e.cost.length; x++) hi = Math.max(hi, e.cost[x]);
      for (const p of this.nodes2[G]) hi = Math.max(hi, pass[p]);
    }
    return hi;
  }

  /**
   * Dijkstra over the level-1 graph inside group G from `src` (seeded with the local distances of
   * its cluster k's nodes; `reverse`: distances to src), in scratch sa (forward) or sb (reverse) on
   * group-local ids, which keep the paths for {@link chain}. Reads the clusters' own edge lists
   * (loading the group graph would touch every cluster of the group). Writes the costs to G's
   * level-2 nodes into s2 (forward) or g2 (reverse). With `full`, runs to the end and returns
   * whether it reached the goal cluster `gk`'s nodes that reach the goal (or the goal directly);
   * else stops once every level-2 node is settled and returns false.
   */
  private connect(src: number, k: number, G: number, reverse: boolean, full: boolean, gk: number): boolean {
    const S = reverse ? this.sb : this.sa;
    this.enter(S, G);
    const { g, stamp, ks } = S;
    const sh = this.sh1;
    const mask = (1 << sh) - 1;
    const m2 = this.nodes2[G].length;
    // Grow only the side being written: the start side's costs must survive the goal side's search.
    if (reverse && this.g2.length < m2) this.g2 = new Float64Array(m2 * 2);
    if (!reverse && this.s2.length < m2) this.s2 = new Float64Array(m2 * 2);
    const res = reverse ? this.g2 : this.s2;
    res.fill(Infinity, 0, m2);
    const open = S.begin();
    const closed = open + 1;
    const I = this.store.i;
    const F = this.store.f;
    const at = this.store.at;
    const seeds = this.store.nodes(k);
    const local = reverse ? this.toGoal : this.fromStart;
    const lk = this.lcOf(k) << sh;
    const Q = this.queue;
    let far = this.groupHi[G];
    for (let j = 0; j < seeds.length; j++) {
      const d = local[this.local(k, seeds[j])];
      if (d < Infinity && d > far) far = d;
    }
    // Every edge costs at least the cheapest cell (one step).
    Q.reset(this.view.minCost, far);
    for (let j = 0; j < seeds.length; j++) {
      const d = local[this.local(k, seeds[j])];
      if (d < Infinity) {
        S.seed(lk | j, d, open);
        Q.push(lk | j, d);
      }
    }
    let left = m2;
    while (Q.size > 0) {
      const p = Q.pop();
      if (stamp[p] === closed || Q.key > g[p]) continue;
      stamp[p] = closed;
      const gp = g[p];
      const lc = p >> sh;
      const s = p & mask;
      const b = at[ks[lc]];
      const m = I[b];
      const u = I[b + NODES + m + s];
      if (u >= 0) {
        res[u] = gp;
        if (--left === 0 && !full) break;
      }
      const o = b + NODES + (reverse ? 3 * m + 1 : 2 * m);
      const base = lc << sh;
      for (let x = b + I[o + s]; x < b + I[o + s + 1]; x++) this.reach(S, base | I[x], gp + F[x], p, open);
      // Across cluster borders inside the group; in reverse, the step into p costs p's cell.
      const c = b + NODES + 4 * m + 2;
      const rc = reverse ? F[b + NODES + s] : -1;
      const lx = lc & (GROUP - 1);
      const ly = (lc / GROUP) | 0;
      for (let x = b + I[c + s]; x < b + I[c + s + 1]; x++) {
        const t = I[x];
        const d = t & 3;
        const nx = lx + DX[d];
        const ny = ly + DY[d];
        if (nx < 0 || ny < 0 || nx >= GROUP || ny >= GROUP) continue;
        this.reach(S, ((ny * GROUP + nx) << sh) | (t >> 2), gp + (rc >= 0 ? rc : F[x]), p, open);
      }
    }
    if (!full) return false;
    // Does the start reach the goal without leaving the group?
    if (k === gk && this.toGoal[this.local(gk, src)] < Infinity) return true;
    const gn = this.store.nodes(gk);
    const lg = this.lcOf(gk) << sh;
    for (let j = 0; j < gn.length; j++) if (stamp[lg | j] === closed && this.toGoal[this.local(gk, gn[j])] < Infinity) return true;
    return false;
  }

  /** Lowers node q of scratch S (in a search with this.queue) to cost ng via `from`. */
  private reach(S: Scratch, q: number, ng: number, from: number, open: number): void {
    const st = S.stamp[q];
    if (st === open + 1 || (st === open && ng >= S.g[q])) return;
    S.g[q] = ng;
    S.parent[q] = from;
    S.stamp[q] = open;
    this.queue.push(q, ng);
  }

  /**
   * Loads group G's level-1 graph into gr: nodes numbered densely cluster by cluster, edges inside
   * clusters and across cluster borders inside the group (outgoing).
   */
  private loadGroup(gr: GroupGraph, G: number): void {
    const x0 = (G % this.cols2) * GROUP;
    const y0 = Math.floor(G / this.cols2) * GROUP;
    const base = gr.base;
    const I = this.store.i;
    const F = this.store.f;
    const at = this.store.at;
    let n = 0;
    let edges = 0;
    for (let lc = 0; lc < GROUP * GROUP; lc++) {
      base[lc] = n;
      const x = x0 + (lc % GROUP);
      const y = y0 + ((lc / GROUP) | 0);
      if (x >= this.cols || y >= this.rows) continue;
      const b = at[y * this.cols + x];
      const m = I[b];
      n += m;
      // Out edges and cross links: from the out table's first offset to the block's end.
      edges += I[b + 1] - I[b + NODES + 2 * m];
    }
    base[GROUP * GROUP] = n;
    gr.reserve(n, edges);
    const { cell, packed, up, off, to, cost } = gr;
    let e = 0;
    let lo = Infinity;
    let hi = 0;
    for (let lc = 0; lc < GROUP * GROUP; lc++) {
      const x = x0 + (lc % GROUP);
      const y = y0 + ((lc / GROUP) | 0);
      if (x >= this.cols || y >= this.rows) continue;
      const b = at[y * this.cols + x];
      const m = I[b];
      const o = b + NODES + 2 * m;
      const c = b + NODES + 4 * m + 2;
      const d0 = base[lc];
      const lx = lc % GROUP;
      const ly = (lc / GROUP) | 0;
      for (let s = 0; s < m; s++) {
        const d = d0 + s;
        cell[d] = I[b + NODES + s];
        packed[d] = (lc << PACK) | s;
        up[d] = I[b + NODES + m + s];
        off[d] = e;
        for (let t = b + I[o + s]; t < b + I[o + s + 1]; t++) {
          to[e] = d0 + I[t];
          cost[e++] = F[t];
        }
        for (let t = b + I[c + s]; t < b + I[c + s + 1]; t++) {
          const dir = I[t] & 3;
          const nx = lx + DX[dir];
          const ny = ly + DY[dir];
          if (nx < 0 || ny < 0 || nx >= GROUP || ny >= GROUP) continue;
          to[e] = base[ny * GROUP + nx] + (I[t] >> 2);
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
    gr.lo = lo;
    gr.hi = hi;
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
    const sh = this.sh2;
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
      const m = this.nodes2[G].length;
      const e = this.out2[G];
      const c = this.cross2[G];
      for (let i = 0; i < m; i++) {
        const a = (G << sh) | i;
        for (let x = e.off[i]; x < e.off[i + 1]; x++) union(a, (G << sh) | e.to[x]);
        for (let x = c.off[i]; x < c.off[i + 1]; x++) {
          const t = c.to[x];
          union(a, ((G + DY[t & 3] * this.cols2 + DX[t & 3]) << sh) | (t >> 2));
        }
      }
    }
    for (let G = 0; G < n2; G++) {
      const m = this.nodes2[G].length;
      const c = new Int32Array(m);
      for (let i = 0; i < m; i++) c[i] = find((G << sh) | i);
      this.comp[G] = c;
    }
  }

  /**
   * Cluster k's cross links: per node, the facing nodes of neighbouring clusters (dir | slot << 2),
   * in scratch (valid until the next call; `off[m]` links).
   */
  private crossLinks(k: number): Links {
    const nodes = this.nodesOf(k);
    const m = nodes.length;
    const W = this.W;
    const pass = this.view.pass;
    const slot = this.slot;
    const L = this.clinks;
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
        if (t < 0 || pass[q] <= 0 || this.clusterOf(q) === k) continue;
        L.to[x] = d | (t << 2);
        L.cost[x++] = pass[q];
      }
    }
    L.off[m] = x;
    return L;
  }

  /** Group G's cross links: per level-2 node, the facing level-2 nodes of neighbouring groups (dir | index << 2). */
  private crossLinks2(G: number): void {
    const nodes = this.nodes2[G];
    const m = nodes.length;
    const off = new Int32Array(m + 1);
    const to: number[] = [];
    const cost: number[] = [];
    for (let i = 0; i < m; i++) {
      off[i] = to.length;
      const p = nodes[i];
      const k = this.clusterOf(p);
      const s = this.slot[p];
      const I = this.store.i;
      const b = this.store.at[k];
      const c = b + NODES + 4 * I[b] + 2;
      for (let x = b + I[c + s]; x < b + I[c + s + 1]; x++) {
        const t = I[x];
        const d = t & 3;
        const kq = k + DY[d] * this.cols + DX[d];
        const bq = this.store.at[kq];
        const u = I[bq + NODES + I[bq] + (t >> 2)];
        if (this.kgroup[kq] === G || u < 0) continue;
        to.push(d | (u << 2));
        cost.push(this.store.f[x]);
      }
    }
    off[m] = to.length;
    this.cross2[G] = { off, to: Int32Array.from(to), cost: Float32Array.from(cost) };
  }

  /** Finds cluster k's nodes (entrance cells on its side of each of its four borders) into pendingNodes; returns their count. */
  private placeNodes(k: number): number {
    for (const p of this.store.nodes(k)) this.slot[p] = -1;
    const c = this.clusterSize;
    const x0 = (k % this.cols) * c;
    const y0 = Math.floor(k / this.cols) * c;
    const x1 = Math.min(x0 + c, this.grid.width) - 1;
    const y1 = Math.min(y0 + c, this.grid.height) - 1;
    const found: number[] = [];
    // Both sides compute the same runs, so the pairs line up.
    this.entrances(x0, y0, x1, y1, (first, step, run, end) => {
      const n = end - run;
      if (n >= LONG) found.push(first + run * step, first + (end - 1) * step);
      found.push(first + (run + ((n - 1) >> 1)) * step);
    });
    const nodes = Int32Array.from(new Set(found));
    for (let j = 0; j < nodes.length; j++) this.slot[nodes[j]] = j;
    this.pendingNodes[k] = nodes;
    return nodes.length;
  }

  /** Cluster k's nodes: the new ones during a refresh that rebuilds it, else the stored ones. */
  private nodesOf(k: number): Int32Array {
    return this.pendingNodes[k] ?? this.store.nodes(k);
  }

  /**
   * Each entrance along the borders of the rectangle x0..x1, y0..y1 that are not the map's edge: a
   * maximal run of walkable cells facing walkable cells across the border. `visit` gets the border's
   * first cell (padded), the step along it, and the run as positions run..end-1 along it.
   */
  private entrances(x0: number, y0: number, x1: number, y1: number, visit: (first: number, step: number, run: number, end: number) => void): void {
    const W = this.W;
    const pass = this.view.pass;
    const scan = (bx: number, by: number, step: number, len: number, across: number): void => {
      const first = (by + 1) * W + bx + 1;
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
    if (y1 < this.grid.height - 1) scan(x0, y1, 1, x1 - x0 + 1, W);
    if (x0 > 0) scan(x0, y0, W, y1 - y0 + 1, -1);
    if (x1 < this.grid.width - 1) scan(x1, y0, W, y1 - y0 + 1, 1);
  }

  /**
   * Finds group G's level-2 nodes: along each group border, per maximal run of facing walkable
   * cells, the level-1 node pair nearest the run's middle (both sides pick the same pair).
   */
  private placeGroupNodes(G: number): void {
    const old = this.nodes2[G];
    const I = this.store.i;
    for (const p of old) {
      const s = this.slot[p];
      const b = this.store.at[this.clusterOf(p)];
      if (s >= 0 && b >= 0 && s < I[b]) I[b + NODES + I[b] + s] = -1;
    }
    const c = this.groupSize;
    const slot = this.slot;
    const cs = this.clusterSize;
    const x0 = (G % this.cols2) * c;
    const y0 = Math.floor(G / this.cols2) * c;
    const x1 = Math.min(x0 + c, this.grid.width) - 1;
    const y1 = Math.min(y0 + c, this.grid.height) - 1;
    const found: number[] = [];
    // The run's level-1 nodes sit where placeNodes puts them in each cluster-long piece of it (the
    // two lines alone decide, so both sides pick the same pairs): keep the middle one of each
    // piece, so a level-2 node is never more than half a cluster from where a path may want to cross.
    this.entrances(x0, y0, x1, y1, (first, step, run, end) => {
      for (let a = run; a < end; ) {
        const b = Math.min(end, (Math.floor(a / cs) + 1) * cs);
        found.push(first + (a + ((b - a - 1) >> 1)) * step);
        a = b;
      }
    });
    const nodes = Int32Array.from(new Set(found));
    for (let j = 0; j < nodes.length; j++) {
      const b = this.store.at[this.clusterOf(nodes[j])];
      I[b + NODES + I[b] + slot[nodes[j]]] = j;
    }
    this.nodes2[G] = nodes;
  }

  /**
   * The in-group cost between every two of group G's level-2 nodes (Dijkstra over the level-1 graph),
   * as pruned edges, and for each edge kept its level-1 path (see paths2).
   */
  private linkGroup(G: number): void {
    const nodes = this.nodes2[G];
    const m = nodes.length;
    const costs = new Float32Array(m * m).fill(Infinity);
    const S = this.sc;
    const gr = this.gc;
    this.loadGroup(gr, G);
    const { g, parent, stamp } = S;
    const { up, off, to, cost, packed } = gr;
    const Q = this.queue;
    // Every pair's path, source first, as packed ids (see paths2): pairs[at[i * m + j] ..] (length len[...]).
    const at = new Int32Array(m * m);
    const len = new Int32Array(m * m);
    const dense = new Int32Array(m);
    for (let i = 0; i < m; i++) dense[i] = gr.base[this.lcOf(this.clusterOf(nodes[i]))] + this.slot[nodes[i]];
    let pairs = this.pairBuf;
    let used = 0;
    // Symmetric costs: row i needs only the nodes after i (and the search stops once they are settled).
    const sym = this.symmetric;
    for (let i = 0; i < (sym ? m - 1 : m); i++) {
      const open = S.begin();
      const closed = open + 1;
      const src = dense[i];
      S.seed(src, 0, open);
      Q.reset(gr.lo, gr.hi);
      Q.push(src, 0);
      costs[i * m + i] = 0;
      let left = sym ? m - 1 - i : m;
      while (Q.size > 0) {
        const p = Q.pop();
        if (stamp[p] === closed || Q.key > g[p]) continue;
        stamp[p] = closed;
        const gp = g[p];
        const u = up[p];
        if (u >= 0 && (sym ? u > i : true)) {
          costs[i * m + u] = gp;
          if (sym) costs[u * m + i] = gp;
          if (--left === 0) break;
        }
        for (let x = off[p]; x < off[p + 1]; x++) this.reach(S, to[x], gp + cost[x], p, open);
      }
      // The paths to this row's targets, read off the search tree (goal first, then reversed).
      for (let u = sym ? i + 1 : 0; u < m; u++) {
        const t = dense[u];
        if (u === i || stamp[t] !== closed) continue;
        const from = used;
        for (let p = t; p !== -1; p = parent[p]) {
          if (used === pairs.length) this.pairBuf = pairs = growInt32(pairs);
          pairs[used++] = packed[p];
        }
        pairs.subarray(from, used).reverse();
        at[i * m + u] = from;
        len[i * m + u] = used - from;
      }
    }
    // The dearest edge either way (for connect's queue): in-cluster edges, and steps into any node's cell.
    let hi = gr.hi;
    for (let d = 0; d < gr.n; d++) hi = Math.max(hi, this.view.pass[gr.cell[d]]);
    this.groupHi[G] = hi;
    const [out, inc] = pruneEdges(m, costs, sym);
    this.out2[G] = out;
    this.in2[G] = inc;
    // Each kept edge's path after its source. Symmetric costs: only edges i -> k with i < k hold
    // one; k -> i reads it backwards (see step).
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
        const a = at[i * m + k];
        path.set(pairs.subarray(a + 1, a + len[i * m + k]), poff[x]);
      }
    }
    this.paths2[G] = path;
    this.pathOff2[G] = poff;
  }

  /** linkGroup's scratch for pair paths (grown on demand). */
  private pairBuf = new Int32Array(1024);

  /** Marks cluster k's nodes (and padded cell `extra`, if >= 0) as the local Dijkstra's targets. */
  private markTargets(k: number, extra: number): void {
    this.lgen += 2;
    if (this.lgen > 0xfffffff0) {
      this.lstamp.fill(0);
      this.lmark.fill(0);
      this.lgen = 2;
    }
    const mark = this.lgen;
    const nodes = this.store.nodes(k);
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
  }

  private targets = 0;

  /** The in-cluster cost between every two of cluster k's nodes. */
  private linkCluster(k: number): void {
    const nodes = this.pendingNodes[k] as Int32Array;
    const m = nodes.length;
    if (this.ccosts.length < m * m) this.ccosts = new Float32Array(2 * m * m);
    const costs = this.ccosts;
    costs.fill(Infinity, 0, m * m);
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
      this.localDijkstra(k, nodes[i], false, this.ld, uniform, false);
      for (let j = uniform ? i + 1 : 0; j < m; j++) {
        const l = this.local(k, nodes[j]);
        if (this.lmark[l] !== mark) continue;
        // Settled, or never reached (then its cost slot may be stale: no fill).
        const d = this.lstamp[l] === mark + 1 ? this.ld[l] : Infinity;
        costs[i * m + j] = d;
        if (uniform) costs[j * m + i] = d;
      }
    }
    const [out, inc] = pruneEdges(m, costs, uniform, this.cedges);
    this.store.write(k, nodes, this.view.pass, out, inc, this.crossLinks(k));
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

  /** Appends the cells of the path {@link straight} checked, after a, as cell indices. */
  private straightCells(a: number, b: number, out: number[]): void {
    const W = this.W;
    const width = this.grid.width;
    const ay = (a / W) | 0;
    const by = (b / W) | 0;
    const dx = b - by * W - (a - ay * W);
    const dy = by - ay;
    const sx = dx > 0 ? 1 : dx < 0 ? -1 : 0;
    const sy = dy > 0 ? 1 : dy < 0 ? -1 : 0;
    const nx = Math.abs(dx);
    const ny = Math.abs(dy);
    const diagonals = this.cardinal ? 0 : Math.min(nx, ny);
    let x = a - ay * W - 1;
    let y = ay - 1;
    for (let t = 0; t < diagonals; t++) out.push((y += sy) * width + (x += sx));
    for (let t = diagonals; t < nx; t++) out.push(y * width + (x += sx));
    for (let t = diagonals; t < ny; t++) out.push((y += sy) * width + x);
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

  /** Copies cluster k's costs into lpass (0 outside the cluster). */
  private loadCluster(k: number): void {
    this.lk = k;
    const c = this.clusterSize;
    const L = c + 2;
    const W = this.W;
    const pass = this.view.pass;
    const lp = this.lpass;
    lp.fill(0);
    const x0 = (k % this.cols) * c;
    const y0 = Math.floor(k / this.cols) * c;
    const w = Math.min(c, this.grid.width - x0);
    const h = Math.min(c, this.grid.height - y0);
    for (let y = 0; y < h; y++) {
      const row = (y0 + y + 1) * W + x0 + 1;
      lp.set(pass.subarray(row, row + w), (y + 1) * L + 1);
    }
  }

  /**
   * Dijkstra inside cluster k from padded cell `src`: `out[local]` is the cost from src (or, with
   * `reverse`, to src), Infinity where the cluster alone does not connect them. Stops once the
   * cells marked by the current `lgen` (this.targets of them) are settled; other cells may then
   * hold tentative costs. `uniform`: every walkable cell of the cluster costs the same, so two FIFO
   * queues (one per step length) replace the heap. Runs on a copy of the cluster's costs with a
   * blocked ring around it (no bounds checks, no reads of the big grid arrays). Without `fill`, only
   * the cells stamped by this search hold costs (the caller checks lstamp).
   */
  private localDijkstra(k: number, src: number, reverse: boolean, out: Float64Array, uniform = false, fill = true): void {
    if (this.lk !== k) this.loadCluster(k);
    const lp = this.lpass;
    const L = this.clusterSize + 2;
    const step = this.lstep;
    if (fill) out.fill(Infinity, 0, L * L);
    const stamp = this.lstamp;
    const mark = this.lmark;
    const open = this.lgen;
    const closed = open + 1;
    let left = this.targets;
    const s0 = this.local(k, src);
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
    const heap = this.lheap;
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

  /**
   * Turns a level-1 path (padded cells) into cells: keeps the start, the goal and the far side of
   * every SKIP-th border crossing, and joins each two kept cells by an exact search: on uniform-cost
   * layers a clear straight line when there is one (up to REACH kept cells ahead), else jump point
   * search over the whole layer (every SKIP_JPS-th crossing); with terrain costs, A* inside the
   * clusters the level-1 path visits between them (so a path always exists there). Returns null
   * only if the hierarchy is out of step with the grid (cannot happen: it refreshes first).
   * @internal
   */
  refine(abstract: number[]): { cells: Int32Array; cost: number } | null {
    const W = this.W;
    const c = this.clusterSize;
    const jps = this.symmetric ? this.jps : null;
    const skip = jps !== null ? SKIP_JPS : SKIP;
    const keep: number[] = [0];
    for (let k = 1, crossings = 0; k < abstract.length - 1; k++) {
      const d = Math.abs(abstract[k] - abstract[k - 1]);
      if ((d === 1 || d === W) && ++crossings % skip === 0) keep.push(k);
    }
    keep.push(abstract.length - 1);
    const cells: number[] = [];
    const width = this.grid.width;
    const y = ((abstract[0] / W) | 0) - 1;
    cells.push(y * width + abstract[0] - (y + 1) * W - 1);
    let cost = 0;
    // Uniform costs: a clear octile line between two kept cells is a cheapest path between them;
    // take the farthest one within reach, else search to the next kept cell.
    const uniform = this.symmetric;
    for (let s = 0; s < keep.length - 1; ) {
      const a = abstract[keep[s]];
      if (uniform) {
        let t = Math.min(keep.length - 1, s + REACH);
        let d = -1;
        for (; t > s; t--) if ((d = this.straight(a, abstract[keep[t]])) >= 0) break;
        if (t > s) {
          this.straightCells(a, abstract[keep[t]], cells);
          cost += d;
          s = t;
          continue;
        }
      }
      let x0 = Infinity;
      let y0 = Infinity;
      let x1 = -1;
      let y1 = -1;
      for (let k = keep[s]; k <= keep[s + 1]; k++) {
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
      const b = abstract[keep[s + 1]];
      const d = jps !== null ? this.jumpSegment(jps(), a, b, cells) : -1;
      const e = d >= 0 ? d : this.segment(a, b, x0, y0, Math.min(x1, width - 1), Math.min(y1, this.grid.height - 1), cells);
      if (e < 0) return null;
      cost += e;
      s++;
    }
    return { cells: Int32Array.from(cells), cost };
  }

  /**
   * Jump point search from padded cell a to b over the whole layer (uniform costs only): appends the
   * path's cells after a to `out` and returns its cost, -1 when it found none (the caller then
   * searches its box). Exact, so never dearer than the box search; and a path inside the box
   * exists, which bounds how far it looks.
   */
  private jumpSegment(jps: JumpPointSearch, a: number, b: number, out: number[]): number {
    if (a === b) return 0;
    if (!jps.search(this.view, this.layer, a, b, this.cardinal, Infinity, false, this.jpsOutcome).reached) return -1;
    const cells = jps.reconstruct(b, this.cardinal, this.jpsCells);
    for (let i = 1; i < cells.length; i++) out.push(cells[i]);
    if (cells.buffer !== this.jpsCells.buffer) this.jpsCells = new Int32Array(cells.length * 2);
    return this.scratch.g[b];
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

/** A copy of `a` twice as long. */
function growInt32(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** Reverses a[from..] in place (paths are collected goal first). */
function reverseFrom(a: number[], from: number): void {
  for (let i = from, j = a.length - 1; i < j; i++, j--) {
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}
