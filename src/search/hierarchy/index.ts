/**
 * A two-level cluster hierarchy for big maps (HPA*): the `Hierarchy` class that ties the modules
 * of this folder together, and its options. docs/hierarchy.md describes the design.
 *
 * - ids.ts: cluster and group geometry, compact ids and the search arrays indexed by them;
 * - store.ts: the clusters' flat pools, edge lists and edge pruning;
 * - local-search.ts: Dijkstra inside one cluster;
 * - clusters.ts: level 1 (nodes on cluster borders, their edges and cross links);
 * - groups.ts: level 2 (nodes on group borders, edges with stored level-1 paths, components);
 * - landmarks.ts: the landmark heuristic of the level-2 search;
 * - query.ts: a query's abstract search over both levels;
 * - refine.ts: the abstract path turned into cells;
 * - lines.ts: clear straight lines on uniform-cost cells;
 * - dirty.ts: tile changes and the rebuild of what they touched;
 * - parts.ts: the parts as the coordinator hands them on.
 */
import { TilenavError, describe } from '../../errors.js';
import type { NavGrid, SearchView } from '../../grid/navgrid.js';
import type { JumpPointSearch } from '../jps/jps.js';
import type { SearchScratch } from '../kernel.js';
import { Clusters } from './clusters.js';
import { ChangeTracker } from './dirty.js';
import { Groups } from './groups.js';
import { ClusterLayout, CompactIds } from './ids.js';
import { Landmarks } from './landmarks.js';
import { ClusterSearch } from './local-search.js';
import type { HierarchyParts } from './parts.js';
import { AbstractSearch } from './query.js';
import { Refiner } from './refine.js';
import { ClusterStore } from './store.js';

/** Options of {@link Hierarchy} (through `Pathfinder.hierarchy`). */
export interface HierarchyOptions {
  /** Cluster side in cells (4-128); a group is 8 x 8 clusters. @default 16 */
  clusterSize?: number;
}

/** @default 16 */
export const DEFAULT_CLUSTER_SIZE = 16;

/**
 * A two-level hierarchy for big maps, HPA*-style (Botea, Müller & Schaeffer 2004, with the second
 * level of their multi-level variant). Level 1: the grid cut into square clusters (16 x 16 cells by
 * default), nodes where walkable cells face each other across a cluster border, and the in-cluster
 * costs between them. Level 2: groups of 8 x 8 clusters, nodes on group borders, the in-group costs
 * between them with their level-1 paths, and landmark distances for the search's heuristic.
 *
 * A query links start and goal to both levels, searches the level-2 graph (or the level-1 graph when
 * they share a group), and refines the abstract path into cells with exact searches between kept
 * border crossings. Works on any layer, with terrain costs, for `octile` and `cardinal` movement.
 * Not exact: the mean excess over optimal on the Moving AI maps is measured and bounded in
 * test/hpa.test.ts (the figures: docs/benchmarks.md); the level-2 search is weighted by 1.01. A tile change marks its
 * clusters and groups, rebuilt at the next query.
 *
 * Memory (see `bytes`): 2 bytes per cell of node slots; the cluster pools; per group its level-2
 * nodes, pruned edges, and their level-1 paths; 32 landmark distances per level-2 node (float32;
 * twice with terrain costs). About 3 bytes per cell on the rooms-and-corridors benchmark map, 10 on
 * the cave map. docs/hierarchy.md has the details.
 */
export class Hierarchy {
  readonly clusterSize: number;
  /** Group (level-2 cluster) side in cells. */
  readonly groupSize: number;
  readonly layer: number;
  readonly cardinal: boolean;
  /** Time of the first (full) build, ms. */
  buildMs = 0;
  private readonly view: SearchView;
  private readonly layout: ClusterLayout;
  private readonly store: ClusterStore;
  private readonly clusters: Clusters;
  private readonly groups: Groups;
  private readonly landmarks: Landmarks;
  private readonly changes: ChangeTracker;
  private readonly abstractSearch: AbstractSearch;
  private readonly refiner: Refiner;

  /**
   * `view`: the layer's search view; `scratch`: padded-cell search arrays shared with the owner (and
   * its jump point search). `jps`: the owner's jump point search, for refinement on uniform-cost
   * layers (null: box-bounded A* everywhere). Builds every cluster and group now (`buildMs`).
   * Throws a TilenavError when `options.clusterSize` is not an integer 4..128.
   */
  constructor(grid: NavGrid, view: SearchView, scratch: SearchScratch, layer: number, cardinal: boolean, options: HierarchyOptions = {}, jps: (() => JumpPointSearch) | null = null) {
    const c = options.clusterSize ?? DEFAULT_CLUSTER_SIZE;
    if (!Number.isInteger(c) || c < 4 || c > 128) throw new TilenavError(`expected an integer 4..128, got ${describe(c)}`, { element: 'clusterSize' });
    this.view = view;
    this.layer = layer;
    this.cardinal = cardinal;
    this.clusterSize = c;
    const layout = new ClusterLayout(grid.width, grid.height, c);
    this.layout = layout;
    this.groupSize = layout.groupSize;
    const n = layout.clusterCount;
    const ids = new CompactIds();
    this.store = new ClusterStore(n, n * (8 + 8 * c));
    const clusterSearch = new ClusterSearch(layout, view, cardinal);
    this.clusters = new Clusters(layout, view, cardinal, this.store, clusterSearch);
    this.groups = new Groups(layout, view, this.store, this.clusters, ids);
    this.landmarks = new Landmarks(layout, view, this.groups, ids);
    const parts: HierarchyParts = { layout, view, cardinal, scratch, store: this.store, clusterSearch, clusters: this.clusters, groups: this.groups, landmarks: this.landmarks, ids };
    this.changes = new ChangeTracker(grid, layer, parts);
    this.abstractSearch = new AbstractSearch(parts);
    this.refiner = new Refiner(layout, view, layer, cardinal, scratch, jps);
    const t = performance.now();
    this.refresh();
    this.store.trim();
    this.groups.refreshComponents();
    this.landmarks.compute();
    // Refinement's jump point search reads the layer's walkability bits: build them now, not in the first query.
    if (view.uniform && jps !== null) jps().bits(layer);
    this.buildMs = performance.now() - t;
  }

  /** Clusters rebuilt by the last refresh (after a tile change: the touched ones and their neighbours). */
  get rebuiltClusters(): number {
    return this.changes.rebuiltClusters;
  }

  /** Groups rebuilt by the last refresh. */
  get rebuiltGroups(): number {
    return this.changes.rebuiltGroups;
  }

  /** Stops following the grid. */
  dispose(): void {
    this.changes.dispose();
  }

  /** Level-1 nodes in all clusters. */
  get nodeCount(): number {
    let n = 0;
    for (let k = 0; k < this.layout.clusterCount; k++) n += this.store.count(k);
    return n;
  }

  /** Level-2 nodes in all groups. */
  get groupNodeCount(): number {
    return this.groups.nodeCount;
  }

  /** Bytes held: node slots, the cluster pools, and per group its nodes, edges, paths and landmark rows. */
  get bytes(): number {
    return this.clusters.slotOfCell.byteLength + this.store.bytes + this.groups.bytes + this.landmarks.bytes;
  }

  /** Rebuilds the clusters and groups a change touched since the last refresh (queries call it first). */
  refresh(): void {
    this.changes.refresh();
  }

  /**
   * A path from padded cell `start` to `goal` (distinct, walkable) as cell indices, with its cost;
   * null when there is none. `out.expanded` counts abstract expansions on both levels.
   * @internal called by `Pathfinder.findPath(..., { algorithm: 'hpa' })`, which checks the input.
   */
  findPath(start: number, goal: number, out: { expanded: number }): { cells: Int32Array; cost: number } | null {
    const abstract = this.search(start, goal, out);
    return abstract === null ? null : this.refiner.refine(abstract);
  }

  /**
   * The level-1 path from padded cell `start` to `goal` (distinct, walkable): padded cells, start
   * first; null when there is none. `out.expanded` counts abstract expansions.
   * @internal
   */
  search(start: number, goal: number, out: { expanded: number }): number[] | null {
    this.refresh();
    return this.abstractSearch.search(start, goal, out);
  }

  /**
   * The cells of a path along the level-1 path `abstract` (from {@link search}), with its cost.
   * @internal
   */
  refine(abstract: number[]): { cells: Int32Array; cost: number } | null {
    return this.refiner.refine(abstract);
  }
}
