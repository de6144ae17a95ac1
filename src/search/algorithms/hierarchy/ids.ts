/**
 * Cluster geometry and compact ids: which cluster and group a padded cell lies in, a cluster's
 * index inside its group, and the search arrays the hierarchy indexes by compact ids instead of
 * padded cells.
 *
 * Compact ids. Inside group G, level-1 node `slot` of the cluster at (x, y) of the group's 8 x 8 is
 * `((y * 8 + x) << nodeShift) | slot`; level-2 node i of group G is `(G << levelTwoShift) | i`. The
 * shifts grow (never shrink) when a rebuild gives some cluster or group more nodes than fit.
 */
import { MonotoneQueue } from '../../kernel/heap.js';
import { SearchScratch } from '../../kernel/scratch.js';

/** Clusters per group side: a group is GROUP_SIDE x GROUP_SIDE clusters. */
export const GROUP_SIDE = 8;
/** Clusters per group. */
export const GROUP_CLUSTERS = GROUP_SIDE * GROUP_SIDE;
/**
 * Bits of a node's slot in a packed group-local id (`local cluster << SLOT_BITS | slot`, 16 bits in
 * all): a cluster has at most 4 x 128 nodes.
 */
export const SLOT_BITS = 9;

/** Where clusters and groups lie on a grid `width` x `height` cut into clusters `clusterSize` wide. */
export class ClusterLayout {
  readonly clusterSize: number;
  /** Group side in cells. */
  readonly groupSize: number;
  readonly width: number;
  readonly height: number;
  /** Padded row length. */
  readonly stride: number;
  readonly clusterColumns: number;
  readonly clusterRows: number;
  readonly groupColumns: number;
  readonly groupRows: number;
  /** Per cluster: its group. */
  readonly groupOfCluster: Int32Array;

  constructor(width: number, height: number, clusterSize: number) {
    this.clusterSize = clusterSize;
    this.groupSize = clusterSize * GROUP_SIDE;
    this.width = width;
    this.height = height;
    this.stride = width + 2;
    this.clusterColumns = Math.ceil(width / clusterSize);
    this.clusterRows = Math.ceil(height / clusterSize);
    this.groupColumns = Math.ceil(this.clusterColumns / GROUP_SIDE);
    this.groupRows = Math.ceil(this.clusterRows / GROUP_SIDE);
    const cols = this.clusterColumns;
    this.groupOfCluster = new Int32Array(cols * this.clusterRows);
    for (let k = 0; k < this.groupOfCluster.length; k++) {
      this.groupOfCluster[k] = Math.floor(Math.floor(k / cols) / GROUP_SIDE) * this.groupColumns + Math.floor((k % cols) / GROUP_SIDE);
    }
  }

  get clusterCount(): number {
    return this.groupOfCluster.length;
  }

  get groupCount(): number {
    return this.groupColumns * this.groupRows;
  }

  /** Cluster index of padded cell p. */
  clusterOf(p: number): number {
    const W = this.stride;
    const y = ((p / W) | 0) - 1;
    const x = p - (y + 1) * W - 1;
    const c = this.clusterSize;
    return ((y / c) | 0) * this.clusterColumns + ((x / c) | 0);
  }

  /** Cluster k's index among its group's 8 x 8 (row by row). */
  localCluster(k: number): number {
    const cols = this.clusterColumns;
    return (((k / cols) | 0) % GROUP_SIDE) * GROUP_SIDE + ((k % cols) % GROUP_SIDE);
  }

  /** Cluster k's first cell column. */
  clusterX(k: number): number {
    return (k % this.clusterColumns) * this.clusterSize;
  }

  /** Cluster k's first cell row. */
  clusterY(k: number): number {
    return Math.floor(k / this.clusterColumns) * this.clusterSize;
  }

  /**
   * Index of padded cell p in cluster k's local arrays: the cluster with a ring of one cell around
   * it, rows `clusterSize + 2` long.
   */
  localCell(k: number, p: number): number {
    const W = this.stride;
    const c = this.clusterSize;
    const cols = this.clusterColumns;
    const y = ((p / W) | 0) - 1;
    // Written out (not through clusterX / clusterY): builds call this for every pair of nodes.
    return (y - Math.floor(k / cols) * c + 1) * (c + 2) + (p - (y + 1) * W - (k % cols) * c);
  }
}

/**
 * Search arrays over compact ids: one group's level-1 nodes (group-local ids, with the table that
 * maps a local cluster index back to its cluster) or the level-2 nodes. One class for both, so the
 * relaxations below see one shape in every search.
 */
export class CompactScratch extends SearchScratch {
  /** The group the cluster table describes (-1: none yet). */
  group = -1;
  /** Per local cluster index: the cluster, -1 off the map. */
  readonly clusterOfLocal = new Int32Array(GROUP_CLUSTERS);

  /** @param withHeap for the level-2 A*; the Dijkstra searches bring a bucket queue. */
  constructor(size: number, withHeap: boolean) {
    super(size, withHeap);
  }

  /** Points the cluster table at group G. */
  enter(layout: ClusterLayout, G: number): void {
    if (this.group === G) return;
    this.group = G;
    const x0 = (G % layout.groupColumns) * GROUP_SIDE;
    const y0 = Math.floor(G / layout.groupColumns) * GROUP_SIDE;
    const cols = layout.clusterColumns;
    for (let y = 0; y < GROUP_SIDE; y++) {
      for (let x = 0; x < GROUP_SIDE; x++) {
        this.clusterOfLocal[y * GROUP_SIDE + x] = x0 + x < cols && y0 + y < layout.clusterRows ? (y0 + y) * cols + x0 + x : -1;
      }
    }
  }

  /**
   * Dijkstra relaxation with a bucket queue: lowers `node` to cost `ng` via `from` and queues it
   * again (the queue skips stale entries by their key).
   */
  reach(queue: MonotoneQueue, node: number, ng: number, from: number): void {
    const open = this.generation;
    const s = this.stamp[node];
    if (s === open + 1 || (s === open && ng >= this.g[node])) return;
    this.g[node] = ng;
    this.parent[node] = from;
    this.stamp[node] = open;
    queue.push(node, ng);
  }

  /**
   * A* relaxation that keeps a queued node's heuristic (the level-2 search reads the landmark
   * bound once per node): a new node is queued with key `ng + h`; a queued one whose cost drops
   * keeps the heuristic its key holds; a closed one, or no improvement, is left alone.
   */
  relaxKeepingHeuristic(node: number, ng: number, from: number, h: number): void {
    const open = this.generation;
    const s = this.stamp[node];
    if (s === open + 1 || (s === open && ng >= this.g[node])) return;
    if (s === open) {
      const queuedH = this.heap.keyOf(node) - this.g[node];
      this.g[node] = ng;
      this.parent[node] = from;
      this.heap.decrease(node, ng + queuedH, ng);
      return;
    }
    this.g[node] = ng;
    this.parent[node] = from;
    this.stamp[node] = open;
    this.heap.push(node, ng + h, ng);
  }
}

/** The compact-id widths and the search arrays indexed by them, resized when a rebuild widens the ids. */
export class CompactIds {
  /** Bits of a node's slot in a group-local level-1 id. */
  nodeShift = 0;
  /** Bits of a node's index in a level-2 id. */
  levelTwoShift = 0;
  /** Group-local arrays of the query's start side (forward search; keeps its paths for the query). */
  startScratch = new CompactScratch(1, false);
  /** Group-local arrays of the query's goal side (reverse search). */
  goalScratch = new CompactScratch(1, false);
  /** Group-local arrays of every other group search (a group's rebuild, reading a stored path). */
  groupScratch = new CompactScratch(1, false);
  /** Level-2 arrays. */
  levelTwoScratch = new CompactScratch(1, true);
  /** The queue of every Dijkstra search over compact ids (one runs at a time). */
  readonly queue = new MonotoneQueue();

  /** Widens the level-1 ids to hold `most` nodes per cluster; reallocates the group arrays when they grew. */
  fitClusterNodes(most: number): void {
    while (1 << this.nodeShift < most) this.nodeShift++;
    const size = GROUP_CLUSTERS << this.nodeShift;
    if (this.groupScratch.size < size) {
      this.startScratch = new CompactScratch(size, false);
      this.goalScratch = new CompactScratch(size, false);
      this.groupScratch = new CompactScratch(size, false);
    }
  }

  /**
   * Widens the level-2 ids to hold `most` nodes per group of `groups`; reallocates the level-2
   * arrays when they grew. Returns whether the ids changed meaning.
   */
  fitGroupNodes(groups: number, most: number): boolean {
    const before = this.levelTwoShift;
    while (1 << this.levelTwoShift < most) this.levelTwoShift++;
    const size = (groups << this.levelTwoShift) + 2;
    if (this.levelTwoScratch.size < size) this.levelTwoScratch = new CompactScratch(size, true);
    return this.levelTwoShift !== before;
  }
}
