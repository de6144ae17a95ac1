/**
 * What a grid search returns and the options it takes: the types shared by the Pathfinder facade
 * and its callers (queries, agents, the path service).
 */
import type { SearchView } from '../grid/navgrid.js';
import type { MovementName } from './movement.js';

/**
 * What {@link Pathfinder.findPath} and {@link findPath} answer:
 * - `found`: `cells` runs from start to goal, `cost` is its cost.
 * - `no-path`: the goal cannot be reached; `cells` is empty, `cost` Infinity.
 * - `limit-reached`: `maxIterations` expansions ran out before the search ended.
 * - `invalid-start` / `invalid-goal`: that cell is outside the grid or blocked on the layer.
 */
export type PathStatus = 'found' | 'no-path' | 'limit-reached' | 'invalid-start' | 'invalid-goal';

/**
 * A {@link PathStatus}, or `partial` from the nearest-reachable searches ({@link Pathfinder.search}
 * with `nearest`, findPathToNearest, planPath): the goal is out of reach and `cells` ends at the
 * reached cell nearest to it.
 */
export type SearchStatus = PathStatus | 'partial';

export interface PathResult {
  status: PathStatus;
  /** Cell indices (`y * width + x`) from start to goal inclusive; one cell when start == goal. */
  cells: Int32Array;
  /** Sum over steps of step length x traversal cost of the cell entered; Infinity without a path. */
  cost: number;
  /** Nodes expanded (taken off the open list and their neighbours generated). */
  expanded: number;
}

export interface FindPathOptions {
  /** Layer index or name. @default 0 */
  layer?: number | string;
  /** @default 'octile' */
  movement?: MovementName;
  /**
   * Stop after this many expansions with status `limit-reached`. The default, Infinity, lets the
   * search run to the end; on a finite grid it always ends, at most once per walkable cell.
   * @default Infinity
   */
  maxIterations?: number;
  /**
   * Heuristic weight w. 1 is A* (optimal). w > 1 is weighted A*: usually fewer expansions, and a
   * path that costs at most w times the optimum (not optimal). 0 is Dijkstra.
   * @default 1
   */
  weight?: number;
  /**
   * A buffer to write the path into, so a game loop can search without allocating: when it is long
   * enough, `cells` is a view of its first cells; otherwise a new array is allocated.
   */
  out?: Int32Array;
  /**
   * - `astar`: A* on every cell (any layer, model, weight).
   * - `jps`: jump point search; exact, for layers without one-way flags, with `octile` or
   *   `cardinal` movement and weight 1 (on layers whose costs differ, weighted jump point search:
   *   jumps stop where costs change; its cost comparisons need the dearest cost times the layer's
   *   cells below 2^43 times the cheapest, about 1e7 times on 1024 x 1024). Throws otherwise.
   * - `jps+`: jump point search reading precomputed jump distances (JPS+), `octile` only, same
   *   conditions as `jps`. The table (16 bytes per cell) is built by the first such query or by
   *   `prepare`, then updated in place by each tile change (only the rows, columns and diagonals
   *   the change reaches; a change over more than an eighth of the grid drops it for the next
   *   `jps+` query to rebuild).
   * - `hpa`: a cluster hierarchy for big maps (see {@link Pathfinder.hierarchy}); not exact (mean
   *   excess over optimal 0-0.6 % on the uniform Moving AI maps and benchmark worlds, 0.5-2 % on
   *   those maps under terrain regions, 9-11 % on the 1024 x 1024 terrain world), `octile` or `cardinal`, any costs, no one-way
   *   flags. Built on the first such query per layer and movement. `maxIterations`, `weight` and
   *   `out` do not apply to it; `expanded` counts abstract nodes.
   * - `auto`: `jps` where it applies, `astar` elsewhere. On a layer whose costs differ it also
   *   reads landmark bounds (exact: same optimal cost, far fewer cells opened), built by
   *   `Pathfinder.prepare` or by the searches once they have done enough work; with `cardinal`
   *   movement it runs `astar` until the layer has them. See `Pathfinder.prepare`'s `landmarks`.
   * @default 'auto'
   */
  algorithm?: SearchAlgorithm;
  /**
   * Answer a goal in another connected component of the layer than the start at once: status
   * `no-path`, `expanded` 0, no search. The components (labels per layer and movement connectivity,
   * 4 bytes per cell each, built by the first query that needs them in O(cells), a few
   * milliseconds per million cells, and kept current under grid changes) are shared by the grid's
   * Pathfinders. On layers with one-way cells they only rule out goals no move chain joins, in
   * either direction; the search decides the rest. Not applied in nearest mode, which still
   * returns its partial path. `false` searches as if there were no labels (the start's whole
   * component is explored before `no-path`).
   * @default true
   */
  reachabilityCheck?: boolean;
}

/** Search algorithms of {@link FindPathOptions.algorithm}. */
export type SearchAlgorithm = 'astar' | 'jps' | 'jps+' | 'hpa' | 'auto';

/** Options of {@link Pathfinder.search}: findPath's, plus nearest-reachable and an overlay view. */
export interface SearchOptions extends FindPathOptions {
  /**
   * When the goal cannot be reached, return the path to the reached cell closest to the goal
   * (Euclidean in cells, ties to the lower index) with status `partial`, or `no-path` with no
   * cells when that cell is the start. The goal may then be a blocked cell. @default false
   */
  nearest?: boolean;
  /**
   * Search this padded view instead of the layer's own: a copy of `grid.searchView(layer)` with
   * extra cells blocked (dynamic obstacles, unit clearance). Start and goal are tested against it.
   * @internal
   */
  view?: SearchView;
}

/** A {@link Pathfinder.search} result: `reached` is the cell the path ends at, -1 without one. */
export interface SearchResult extends Omit<PathResult, 'status'> {
  status: SearchStatus;
  reached: number;
}

/**
 * What {@link Pathfinder.hierarchy} reports about the cluster hierarchy behind `algorithm: 'hpa'`
 * on one layer and movement: its shape and what it costs. The hierarchy keeps itself in step with
 * the grid; `refresh` applies pending grid changes now rather than at the next query.
 */
export interface HierarchyInfo {
  /** Cluster side in cells. */
  readonly clusterSize: number;
  /** Group (a square of clusters, the second level) side in cells. */
  readonly groupSize: number;
  /** The layer index it searches. */
  readonly layer: number;
  /** True for `cardinal` movement, false for `octile`. */
  readonly cardinal: boolean;
  /** Time of the first (full) build, in milliseconds. */
  readonly buildMs: number;
  /** Abstract nodes (border crossings) on the first level. */
  readonly nodeCount: number;
  /** Abstract nodes on the second level. */
  readonly groupNodeCount: number;
  /** Memory held, in bytes. */
  readonly bytes: number;
  /** Clusters rebuilt by the last refresh (a tile change touches its cluster and the neighbours). */
  readonly rebuiltClusters: number;
  /** Groups rebuilt by the last refresh. */
  readonly rebuiltGroups: number;
  /** Rebuilds what grid changes since the last query or refresh touched. */
  refresh(): void;
}

/** The defaults of {@link FindPathOptions}. */
export const DEFAULT_FIND_PATH_OPTIONS = Object.freeze({ layer: 0, movement: 'octile' as MovementName, maxIterations: Infinity, weight: 1, algorithm: 'auto' as SearchAlgorithm, reachabilityCheck: true });

export interface DistanceMapOptions {
  layer?: number | string;
  /** @default 'octile' */
  movement?: MovementName;
  /** Cells costlier than this to reach are left at Infinity (the search stops there). @default Infinity */
  maxCost?: number;
}
