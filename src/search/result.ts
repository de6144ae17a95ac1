/**
 * What a grid search returns and the options it takes: the types shared by the Pathfinder facade
 * and its callers (queries, agents, the path service).
 */
import type { SearchView } from '../grid/navgrid.js';
import type { MovementName } from './movement.js';
import type { DynamicObstacle, DynamicObstacleOptions } from '../query/obstacles.js';

/**
 * How a path question ended ({@link PathResult.status}):
 * - `found`: `cells` runs from start to goal.
 * - `partial`: with `nearest`, the goal is out of reach and `cells` ends at the reachable cell
 *   nearest to it (`reached`); one cell, the start, when the unit is already as near as it gets.
 * - `no-path`: the goal cannot be reached; `cells` is empty, `cost` Infinity.
 * - `limit-reached`: the work bound `maxIterations` ran out before the search ended.
 * - `invalid-start` / `invalid-goal`: that cell is outside the grid, blocked, or too narrow for the
 *   unit's `radius` ({@link PathResult.reason} says which).
 */
export type PathStatus = 'found' | 'partial' | 'no-path' | 'limit-reached' | 'invalid-start' | 'invalid-goal';

/** Why a start or goal was refused: outside the grid, a blocked cell, or a walkable cell the unit's disc does not fit in. */
export type PathRefusal = 'outside' | 'blocked' | 'unit-does-not-fit';

/**
 * What a path costs: `steps` sums, over the grid steps, the step's length (1, or sqrt 2 for a
 * diagonal) times the cost of the cell entered; `segments` (any-angle paths) sums, over straight
 * segments, the length inside each cell times that cell's cost.
 */
export type CostMeasure = 'steps' | 'segments';

/** The one answer to a path question (every `findPath`, the service, the agents' planner). */
export interface PathResult {
  /** How the question ended: see {@link PathStatus}. */
  status: PathStatus;
  /**
   * The path as cell indices `y * width + x`, start first: start to goal (`found`), start to the
   * nearest reachable cell (`partial`), empty otherwise. `grid.cellsToXY(cells)` turns them into
   * `[x, y]` pairs. With `anyAngle`, the cells of the waypoints in `points`. Consecutive cells
   * are neighbours, except where the path takes a link (`grid.addLink`): then the next cell is
   * the link's far end, on the layer {@link layers} says.
   */
  cells: Int32Array;
  /**
   * The layer of each cell of `cells` (same length), when the path leaves the query's `layer`
   * through links (stairs, ladders, teleporters to another layer; see `grid.addLink`); null when
   * every cell is on that layer, which is every path on a grid without links between layers.
   */
  layers: Uint8Array | null;
  /** The path's cost, measured as {@link costMeasure} says; 0 for a one-cell path, Infinity without cells. */
  cost: number;
  /** `steps` (grid paths) or `segments` (any-angle paths): see {@link CostMeasure}. */
  costMeasure: CostMeasure;
  /**
   * Search nodes expanded (taken off the open list, their neighbours generated); 0 when no search
   * ran. The goal is taken off the open list but not expanded, so it is not counted
   * (`Pathfinder.expandedInto` counts closed cells: the goal too).
   */
  expanded: number;
  /** The cell index the path ends at (the goal, or the nearest reachable cell), -1 without cells. */
  reached: number;
  /** With `invalid-start` / `invalid-goal`: why that cell was refused; otherwise null. */
  reason: PathRefusal | null;
  /** Whether the path keeps clear of the query's `obstacles` (true when there are none). */
  avoided: boolean;
  /** With `anyAngle`: the waypoints `[x0, y0, x1, y1, ...]` in cell coordinates; otherwise null. */
  points: Float64Array | null;
}

/**
 * The options of every path question: {@link Pathfinder.findPath}, the free {@link findPath}, the
 * path service's `findPath` and `request`, and `Pathfinder.begin` (a search spread over frames,
 * which runs the same algorithm a slice at a time, and refuses `anyAngle`).
 * All optional.
 */
export interface FindPathOptions {
  /** Layer index or name: the start's layer, and the goal's unless `goalLayer` says otherwise. @default 0 */
  layer?: number | string;
  /**
   * The goal's layer (index or name), when links (`grid.addLink`: stairs, ladders, teleporters)
   * lead there from `layer`. Searches with `astar` or `auto`; the path's {@link PathResult.layers}
   * says where it changes layer. A goal layer no enabled link leads to gives `no-path` at once.
   * @default `layer`
   */
  goalLayer?: number | string;
  /**
   * How units step from cell to cell; it must fit the grid's cells (hex models on hexagons...).
   * @default the grid's own, `grid.movement`
   */
  movement?: MovementName;
  /**
   * A bound on the search's work: once spent, the search stops with status `limit-reached`. One
   * unit is one expanded node, plus, for jump point search, one per cell its scans step over (from
   * where a scan starts to where it stops, at a jump point or a wall; the steps of a diagonal or
   * vertical run); JPS+, which reads one table entry per jump however long, adds one per diagonal
   * hop. So N bounds the cells any algorithm looks at to a small constant times N (A*: each
   * expanded node and its up to 8 neighbours; JPS: one to three 32-cell words per 32 cells scanned),
   * however far the jumps reach: a search checks the bound after every expansion and every jump,
   * and stops within one scan of it. The same N therefore stops jump point search after fewer
   * expansions than A* on open ground, where one expansion scans far. `expanded` still counts
   * expanded nodes only. A search
   * the bound does not stop answers exactly as without it. The hierarchy (`hpa`) does not read it
   * (its searches are bounded by its cluster and group sizes); with `anyAngle`, it counts the
   * any-angle search's expansions, not its line-of-sight checks. The default, Infinity, lets the
   * search run to the end; on a finite grid it always ends.
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
   * - `astar`: A* on every cell (any layer, movement, weight, unit size).
   * - `jps`: jump point search; exact, for layers without one-way flags or edge walls, with
   *   `octile` or `cardinal` movement and weight 1, for point-sized units (on layers whose costs differ,
   *   weighted jump point search: jumps stop where costs change; its cost comparisons need the
   *   dearest cost times the layer's cells below 2^43 times the cheapest). Throws otherwise.
   * - `jps+`: jump point search reading precomputed jump distances (JPS+), `octile` only, uniform
   *   costs, same conditions as `jps`. The table (16 bytes per cell) is built by the first such
   *   query or by `prepare`, then updated in place by each tile change.
   * - `hpa`: a cluster hierarchy for big maps (see `Pathfinder.hierarchy`); not exact (its
   *   excess over optimal is measured in docs/benchmarks.md), `octile` or `cardinal`, any costs, no
   *   one-way flags or edge walls, no `nearest`, `radius` or `obstacles`. `maxIterations`,
   *   `weight` and `out` do not apply to it; `expanded` counts abstract nodes.
   * - `subgoal`: a subgoal graph (subgoals at the convex corners of walls, joined where a
   *   straight-line-length path links them, in levels: most subgoals of open areas taken out
   *   behind shortcuts; exact), for maps that rarely change: `octile`, uniform costs, same
   *   conditions as `jps+`. Built by `Pathfinder.prepare({ algorithm: 'subgoal' })` or by the
   *   first such query (build times and bytes per cell: docs/benchmarks.md), kept by the grid
   *   (`grid.memory()`, freed by `releaseDerived`). Any change to the layer drops it: `auto` runs
   *   `jps` there until `prepare` or a `subgoal` query builds it again. `expanded` counts graph
   *   nodes.
   * - `auto`: the subgoal graph where one was built for the layer and nothing changed since, the
   *   query is one it can answer, and the build judged it faster than `jps` on that layer (a
   *   fixed sample of queries, counted the same way on every machine: mazes, rooms and dense
   *   walls yes, open maps no; docs/search.md); else `jps` where it applies, `astar` elsewhere. On a layer whose costs differ it also
   *   reads landmark bounds (exact: same optimal cost, far fewer cells opened), built by
   *   `Pathfinder.prepare` or by the searches once they have done enough work. On a layer with
   *   enabled links (`grid.addLink`) it runs A* over the links, without landmark bounds; `jps`,
   *   `jps+` and `hpa` throw there, naming the links.
   * @default 'auto'
   */
  algorithm?: SearchAlgorithm;
  /**
   * Answer a goal in another connected component of the layer than the start at once: status
   * `no-path`, `expanded` 0, no search. The grid keeps the component labels (4 bytes per cell per
   * layer and connectivity, built by the first query that needs them, kept current under grid
   * changes). On layers with one-way cells they only rule out goals no move chain joins, in
   * either direction; the search decides the rest. `false` searches as if there were no labels.
   * @default true
   */
  reachabilityCheck?: boolean;
  /**
   * Go as near as the unit can: when the goal cannot be reached (it may be blocked, or outside
   * the grid: then the nearest cell of the grid stands for it), the path to the reachable cell
   * nearest the goal (Euclidean in cells; ties to the start, then the cheaper path, then the lower
   * index) with status `partial`. A unit already as near as it gets gets `partial` with one cell,
   * the start. Runs A*. @default false
   */
  nearest?: boolean;
  /**
   * The unit's radius in world units: the path only uses cells its disc fits in (exact: the disc
   * keeps clear of every blocked square along every step). The grid keeps the clearance (8 bytes
   * per cell per layer: the distances and their update scratch; 4 per padded cell per radius asked). Start and goal cells too narrow give
   * `invalid-start` / `invalid-goal` with reason `unit-does-not-fit`. Runs A*. @default 0
   */
  radius?: number;
  /**
   * Things standing in the way for this query only (other units, a cart): the path goes around
   * them when it can (`avoided` true), through them when that is the only way (`avoided` false: a
   * unit in a doorway is asked to step aside). They stand on the start's layer. Runs A*. @default []
   */
  obstacles?: readonly DynamicObstacle[];
  /** How much of each obstacle is stamped and which obstacles count. @default DEFAULT_DYNAMIC_OBSTACLE_OPTIONS */
  obstacleOptions?: DynamicObstacleOptions;
  /**
   * An any-angle path (Theta*): straight segments that bend only at corners, in `points`, with
   * `cost` measured along them (`costMeasure` `segments`). Square cells with Euclidean steps only
   * (refused for hex, staggered and Chebyshev movement: a Chebyshev path counts steps, which a
   * straight segment does not). Never dearer than the exact grid path between the same cells. Not
   * across links: a TilenavError naming `anyAngle` on a layer with enabled links.
   * @default false
   */
  anyAngle?: boolean;
  /**
   * More goals: the path goes to the cheapest to reach of (gx, gy) and these, and `reached` says
   * which (when several tie, one of them, the same on every machine). Entries are cell
   * indices `y * width + x` or `[x, y]` pairs, all on the grid, on `goalLayer` (default `layer`),
   * or `[x, y, layer]` triples for a goal on a layer of its own (index or name); pass your whole
   * list here and any one of it as (gx, gy), or the first as (gx, gy) and the rest here. Goals
   * that are blocked (or too narrow for `radius`), on a layer no enabled link leads to, and (gx,
   * gy) outside the grid, are skipped; `invalid-goal` only when none is left. One search, exact:
   * A* estimating with the nearest goal (up to 16 goals; past that, with the goals' bounding box,
   * and from a start inside it, Dijkstra), across links (stairs, teleporters: `grid.addLink`) as
   * one search over (layer, cell), its estimate kept exact across cheap teleporters (docs/paths.md);
   * the path's {@link PathResult.layers} gives the layer of the goal reached. So `algorithm`
   * `auto` runs A*; `jps`, `jps+` and `hpa` are refused, and so are `nearest` and `obstacles`
   * (both measured towards one goal). Goals in another component than the start are dropped
   * before the search (`reachabilityCheck`). Not available through the path service; `Pathfinder.begin` searches them a slice at a time.
   */
  goals?: ArrayLike<number> | readonly (readonly [number, number] | readonly [number, number, number | string])[];
}

/** Search algorithms of {@link FindPathOptions.algorithm}. */
export type SearchAlgorithm = 'astar' | 'jps' | 'jps+' | 'hpa' | 'subgoal' | 'auto';

/** findPath's options as the library's own modules pass them: plus a search view to search instead of the layer's. @internal */
export interface InternalPathOptions extends FindPathOptions {
  /**
   * Search this padded view instead of the layer's own: a copy of `grid.searchView(layer)` with
   * extra cells blocked (dynamic obstacles, unit clearance). Start and goal are tested against it.
   */
  view?: SearchView;
  /** Follow only the links that start and end on `layer` (a unit that cannot change layer: the agents). */
  stayOnLayer?: boolean;
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
export const DEFAULT_FIND_PATH_OPTIONS = Object.freeze({
  /** The first layer. */
  layer: 0,
  /** No limit. */
  maxIterations: Infinity,
  /** Plain A*: optimal. */
  weight: 1,
  /** Jump point search where it applies, A* elsewhere. */
  algorithm: 'auto' as SearchAlgorithm,
  /** Unreachable goals answered from the component labels. */
  reachabilityCheck: true,
  /** Only the goal itself. */
  nearest: false,
  /** A point-sized unit. */
  radius: 0,
  /** A grid path. */
  anyAngle: false,
});

/**
 * Options of {@link Pathfinder.movementRange}: the budget, and the cells other units hold.
 */
export interface RangeOptions {
  /**
   * Movement points: cells whose cheapest cost from the unit is at most this are in range (a step
   * costs its length times the cost of the cell entered, as in every search). Costs are stored as
   * float32 (a cost of 0.1 is 0.100000001), so a cell within a relative 1e-7 over the budget still
   * counts. Required; a number >= 0 (Infinity: everything the unit can reach).
   */
  budget: number;
  /** Layer index or name. @default 0 */
  layer?: number | string;
  /** How the unit steps: `cardinal`, `octile`, `chebyshev`, `hex`... @default the grid's own, `grid.movement` */
  movement?: MovementName;
  /**
   * Cells the unit can neither enter nor pass (enemy units), as cell indices. The unit's own cell
   * is never one of them. They are not walls: the corner rule reads the map alone, so a diagonal
   * may pass between two of them where the map allows it. Cells it may pass but not stop on
   * (allies) are not occupied: leave them out of the answer's `cells` yourself.
   * @default none
   */
  occupied?: ArrayLike<number>;
  /**
   * Cells that end the move (zone of control): the unit may enter one but not leave it, so every
   * path goes through none of them and at most ends on one. As cell indices, or a predicate asked
   * once per cell the search settles. The cell it starts on never stops it. @default none
   */
  stopAt?: ArrayLike<number> | ((cell: number) => boolean);
}

/**
 * What {@link Pathfinder.movementRange} returns: the cells in range, cheapest first, with their
 * costs and the way to each. Its arrays are sized by the cells in range, not the map; the paths
 * are kept in it (one parent per cell), so `pathTo` still answers after other searches.
 */
export interface MovementRange {
  /** Cells in range, cell indices, cheapest first (ties in search order), the unit's own cell first; empty when `reason` is set. */
  readonly cells: Int32Array;
  /** `costs[k]`: the cheapest cost of `cells[k]`. */
  readonly costs: Float64Array;
  /** Cells expanded by the search (in range, and not ending the move). */
  readonly expanded: number;
  /** Why the range is empty: the unit's cell is `outside` the grid or `blocked`; otherwise null. */
  readonly reason: PathRefusal | null;
  /** The position of `cell` in {@link cells}, or -1 when it is out of range. */
  indexOf(cell: number): number;
  /**
   * The cheapest path to `cell` within the rules: status `found` (start first, `cost` its cost,
   * `expanded` 0: no search runs) or `no-path` when the cell is out of range. `out` as
   * {@link FindPathOptions.out}. Throws a TilenavError naming `cell` for a value that is not a cell index.
   */
  pathTo(cell: number, out?: Int32Array): PathResult;
}

/** Options of {@link Pathfinder.distanceMap}. */
export interface DistanceMapOptions {
  /** Layer index or name. @default 0 */
  layer?: number | string;
  /** @default 'octile' */
  movement?: MovementName;
  /** Cells costlier than this to reach are left at Infinity (the search stops there). @default Infinity */
  maxCost?: number;
}
