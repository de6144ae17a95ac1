/**
 * The grid search facade: checks a query's arguments, picks the algorithm (A*, jump point search,
 * JPS+, the cluster hierarchy), runs it on the one search scratch it owns and wraps the outcome.
 * How the pieces fit and who keeps which scratch: docs/search.md.
 */
import { TilenavError, assertArrayLike, assertCellIndices, assertOptionsObject, describe } from '../errors.js';
import { NavGrid, type Derived, type MemoryEntry, type SearchView } from '../grid/navgrid.js';
import { GridAStar, NEAREST, PLAIN, type GenericMode } from './algorithms/astar/astar.js';
import { GOAL_ESTIMATE_LIMIT, GoalSet } from './algorithms/astar/goals.js';
import { RangeAnswer, SettledCells, rangeSearch } from './algorithms/astar/range.js';
import { LinkBounds, linkedSearch, type LinkedSearch } from './algorithms/astar/linked.js';
import type { LinkIndex } from '../grid/links.js';
import { AnyAngleFinder } from '../path/anyangle.js';
import { ObstacleOverlay, type DynamicObstacle, type DynamicObstacleOptions } from '../query/obstacles.js';
import { clearanceOf } from '../query/clearance.js';
import { componentsOf, type ComponentLabels } from './bounds/components.js';
import { dijkstra } from './algorithms/astar/dijkstra.js';
import { Hierarchy, type HierarchyOptions } from './algorithms/hierarchy/index.js';
import { JumpPointSearch } from './algorithms/jps/jps.js';
import { SubgoalSearch, subgoalsOf } from './algorithms/subgoal/search.js';
import type { SubgoalGraph } from './algorithms/subgoal/graph.js';
import { landmarksOf, type LandmarkBounds } from './bounds/landmarks/landmark-bounds.js';
import { SearchScratch, outcome, type SearchOutcome } from './kernel/scratch.js';
import { PathSearch, slotBytes, type SearchSlot } from './path-search.js';
import type { MovementModel, MovementName } from './movement.js';
import { pad, padXY, paddedSize, strideOf, unpad } from '../grid/padded.js';
import type { DistanceMapOptions, FindPathOptions, HierarchyInfo, InternalPathOptions, MovementRange, PathRefusal, PathResult, PathStatus, RangeOptions, SearchAlgorithm } from './result.js';

const EMPTY = new Int32Array(0);

/**
 * Weighted jump point search compares path costs to prune: with the dearest path (maxCost per step
 * over every cell) past 2^43 cheapest steps, a 64-bit sum keeps less than 1/256 of the cheapest
 * cost, cheap detours tie, and pruning picked dearer ways round (costs 1 and 1e20: 3e20 for A*'s
 * 2e20). Past that span a weighted layer is A*'s, which pays at most the rounding.
 */
const JPS_COST_SPAN = 2 ** 43;

/**
 * A movement range counts a cell up to this much over its budget, relatively: costs are float32,
 * so ten steps on a cost of 0.1 (stored as 0.100000001) cost 1.0000000149. A float32 cost is
 * within 2^-24 of the number given, and so is every sum of them.
 */
const RANGE_BUDGET_EPS = 1e-7;

/** What runs a query: picked by {@link choose} from the query and the layer, once per query. @internal */
export type Runner = 'octile' | 'generic' | 'jps' | 'jps+' | 'hpa' | 'linked' | 'subgoal';

/** What {@link Pathfinder.planned} decided for a query: its runner and what that reads. @internal */
export interface Plan {
  runner: Runner;
  /** The grid's landmark bounds when `auto` reads or builds them for this query, else null. */
  marks: ReturnType<typeof landmarksOf> | null;
  tables: LandmarkBounds | null;
  /** Why jump point search cannot answer (null: it can). */
  jpsWhy: string | null;
  links: LinkIndex | null;
  /** Searches to several goals: the start node, and the heuristic scale of the one-layer search. */
  start: number;
  hs: number;
}

/** An empty plan. @internal */
export function newPlan(): Plan {
  return { runner: 'octile', marks: null, tables: null, jpsWhy: null, links: null, start: 0, hs: 0 };
}

/** A query after its options were checked: one object per Pathfinder, rewritten by every query. @internal */
export interface Query {
  layer: number;
  /** The goal's layer: `layer` unless links lead elsewhere. */
  goalLayer: number;
  /** Take only the links that start and end on `layer`. */
  stayOnLayer: boolean;
  /** The unit's radius (world units), 0 for a point. */
  radius: number;
  model: MovementModel;
  algorithm: SearchAlgorithm;
  maxIterations: number;
  weight: number;
  nearest: boolean;
  reachabilityCheck: boolean;
  /** The layer's view, or a copy with cells blocked (clearance, obstacles): then no JPS or hierarchy. */
  view: SearchView;
  /** The goal layer's view (`view` when it is the same layer; its clearance view for a unit radius). */
  goalView: SearchView;
  overlay: boolean;
  out: Int32Array | undefined;
  /** The query's goals besides (gx, gy), in {@link goalSet}; null for one goal. */
  goals: GoalSet | null;
  /** The goal set this query record reuses (made by the first query with goals). */
  goalSet: GoalSet | null;
}

const ALGORITHMS: readonly SearchAlgorithm[] = ['astar', 'jps', 'jps+', 'hpa', 'subgoal', 'auto'];

/** The algorithm names, as error messages list them. */
const ALGORITHM_LIST = "'astar', 'jps', 'jps+', 'hpa', 'subgoal' or 'auto'";

/**
 * Why jump point search (or for `subgoal`, the subgoal graph) cannot answer `q` on `view`, or null
 * when it can. Pure: reads the query and the layer's view only.
 */
function jpsRefusal(q: Query, view: SearchView): string | null {
  const name = q.model.name;
  const octileOnly = q.algorithm === 'jps+' || q.algorithm === 'subgoal';
  if (octileOnly && name !== 'octile') return `movement '${name}' (it needs 'octile')`;
  if (name !== 'octile' && name !== 'cardinal') return `movement '${name}' (it needs 'octile' or 'cardinal')`;
  if (octileOnly && !view.uniform) return 'a layer whose costs differ from cell to cell';
  if (!view.uniform && !(view.maxCost * view.pass.length < view.minCost * JPS_COST_SPAN)) return `costs ${view.minCost} to ${view.maxCost}, too far apart for its exact comparisons on a layer of this size`;
  if (view.exits !== null) return view.walls !== null ? 'a layer with edge walls' : 'a layer with one-way flags';
  if (q.weight !== 1) return `weight ${q.weight} (it needs 1)`;
  if (q.nearest || q.overlay) return 'nearest mode, a unit radius or obstacles';
  return null;
}

/**
 * The algorithm that answers `q`: the one asked for, or for `auto` the subgoal graph where one was
 * built and no change came since, else jump point search where it applies (on weighted cardinal
 * layers only once they have landmark bounds: alone it gained too little there) and A* elsewhere.
 * Throws when an algorithm asked for by name cannot run.
 * @param jpsWhy {@link jpsRefusal} of the query, computed once by the caller.
 * @param bounded whether the layer has landmark tables.
 * @param graphed whether the layer has a subgoal graph built since its last change.
 */
function choose(q: Query, view: SearchView, jpsWhy: string | null, bounded: boolean, linked: boolean, graphed = false): Runner {
  if (linked) {
    if (q.algorithm === 'auto' || q.algorithm === 'astar') return 'linked';
    const name = q.algorithm === 'hpa' ? 'the hierarchy' : q.algorithm === 'subgoal' ? 'the subgoal graph' : 'jump point search';
    throw new TilenavError(`${name} does not follow links, and layer ${q.layer} has enabled links (grid.addLink); use algorithm 'auto' or 'astar'`, { element: 'algorithm' });
  }
  const astar = aStarLoop(q, view);
  switch (q.algorithm) {
    case 'astar':
      return astar;
    case 'hpa':
      if (q.nearest || q.overlay) throw new TilenavError("the hierarchy does not support nearest, a unit radius or obstacles; use algorithm 'auto' or 'astar'", { element: 'algorithm' });
      if (view.exits !== null) throw new TilenavError(`the hierarchy cannot search a layer with ${view.walls !== null ? 'edge walls' : 'one-way flags'}; use algorithm 'auto' or 'astar'`, { element: 'algorithm' });
      return 'hpa';
    case 'jps':
    case 'jps+':
      if (jpsWhy !== null) throw new TilenavError(`jump point search cannot run on ${jpsWhy}; use algorithm 'auto' or 'astar'`, { element: 'algorithm' });
      return q.algorithm;
    case 'subgoal':
      if (jpsWhy !== null) throw new TilenavError(`the subgoal graph cannot search ${jpsWhy}; use algorithm 'auto' or 'astar'`, { element: 'algorithm' });
      return 'subgoal';
    default:
      if (graphed && jpsWhy === null && view.uniform && q.model.name === 'octile') return 'subgoal';
      return jpsWhy === null && (view.uniform || q.model.name === 'octile' || bounded) ? 'jps' : astar;
  }
}

/**
 * The A* loop that answers `q` on `view`: the octile one for octile movement without one-way
 * flags or nearest mode, the generic one otherwise.
 */
function aStarLoop(q: Query, view: SearchView): 'octile' | 'generic' {
  return !q.nearest && q.model.name === 'octile' && view.exits === null ? 'octile' : 'generic';
}

/** Sample queries that decide whether `auto` searches a layer's subgoal graph (Pathfinder.subgoalGraph). */
const SUBGOAL_SAMPLE = 64;
/**
 * Above this many edges looked at per jump point, the subgoal graph is judged slower than jump
 * point search. Measured on the Moving AI fixtures and two 1024 x 1024 maps (CPU per query,
 * docs/search.md): the sample came out at 0.5-23 edges per jump point where the graph was faster
 * (maze 0.5, random walls 0.8, rooms 2.3, ost100d 9.9, TheFrozenSea 12.7, AcrosstheCape 22.6),
 * and at 97 on the nearly empty rmtst01, where JPS expands about 12 jump points a query and is
 * many times faster.
 */
const EDGES_PER_JUMP_POINT = 40;

/** Idle search slots a Pathfinder keeps for its {@link PathSearch}es; more are made while more run. */
const IDLE_SLOTS_KEPT = 2;

/**
 * Searches one grid. Holds the search scratch (g, parent, generation stamps, heap) for the grid's
 * size and reuses it across queries: nothing is cleared between queries and nothing is allocated
 * per node. The grid is only read, so several Pathfinders (one per worker) may share one grid.
 *
 * Scratch: about 20 bytes per padded cell (cost, parent, stamp and heap position), plus 20 per
 * queued cell as the open list grows. Keep one per grid (and per worker); the free
 * {@link findPath} and {@link distanceMap} use one the grid keeps. What the grid derives for the
 * searches (component labels, landmark tables, clearance) is the grid's, shared by its
 * Pathfinders: see `NavGrid.memory`.
 */
export class Pathfinder {
  /** The grid it searches. */
  readonly grid: NavGrid;
  /** The search state every algorithm of this Pathfinder runs on (padded grid size). */
  private readonly scratch: SearchScratch;
  private readonly stride: number;
  private readonly astar: GridAStar;
  /** The last search's outcome, filled in place. */
  private readonly last = outcome();
  /** The generation of the last search whose stamps {@link expandedInto} reports; -1 when none. */
  private traced = -1;
  /** The scratch of that search and the first node of the query layer's cells in it (searches across links). */
  private tracedScratch: SearchScratch;
  private tracedBase = 0;
  /** Searches across links: their heuristic, their per-query record and, across layers, a scratch of slots x padded cells. */
  private linkBounds: LinkBounds | undefined;
  private linkSearch: LinkedSearch | undefined;
  private layersScratch: SearchScratch | undefined;
  private jps: JumpPointSearch | undefined;
  private subgoalSearch: SubgoalSearch | undefined;
  private anyAngleFinder: AnyAngleFinder | undefined;
  private readonly overlays: (ObstacleOverlay | undefined)[] = [];
  private readonly hierarchies = new Map<string, Hierarchy>();
  private readonly query: Query;
  /** The generic search's mode for several goals (made by the first such query). */
  private goalsMode: GenericMode | undefined;
  /** The cells a movement range settled, in order (grows, reused). */
  private settled: SettledCells | undefined;
  /** The query's layer alone in slot 0, for goals of which some lie on layers no link reaches. */
  private layerSlots: Int8Array | undefined;
  /** The plan of the query being answered. */
  private readonly plan = newPlan();
  /** Search slots returned by finished {@link PathSearch}es, for the next ones to borrow. */
  private readonly idle: SearchSlot[] = [];

  /** A Pathfinder for `grid`: allocates its search scratch now (about 20 bytes per padded cell). */
  constructor(grid: NavGrid) {
    if (!(grid instanceof NavGrid)) throw new TilenavError(`expected a NavGrid, got ${describe(grid)}`, { element: 'grid' });
    this.grid = grid;
    this.stride = strideOf(grid.width);
    this.scratch = new SearchScratch(paddedSize(grid.width, grid.height));
    this.astar = new GridAStar(this.scratch, grid.width);
    this.query = newQuery(grid);
    this.tracedScratch = this.scratch;
  }

  /**
   * What this Pathfinder holds, in `grid.memory()`'s form: its search scratch, and what it built
   * on demand (JPS planes and tables, hierarchies, obstacle overlays, the any-angle scratch).
   */
  memory(): MemoryEntry[] {
    const out: MemoryEntry[] = [{ name: 'search scratch', layer: null, bytes: this.scratch.bytes }];
    this.jps?.memory(out);
    if (this.subgoalSearch !== undefined) out.push({ name: 'subgoal search lists', layer: null, bytes: this.subgoalSearch.bytes });
    for (const [key, h] of this.hierarchies) out.push({ name: `hierarchy (${key.split(':')[1]})`, layer: Number(key.split(':')[0]), bytes: h.bytes });
    this.overlays.forEach((o, layer) => {
      if (o !== undefined) out.push({ name: 'obstacle overlay', layer, bytes: o.bytes });
    });
    if (this.anyAngleFinder !== undefined) out.push({ name: 'any-angle scratch', layer: null, bytes: this.anyAngleFinder.bytes });
    if (this.layersScratch !== undefined) out.push({ name: 'search scratch across layers', layer: null, bytes: this.layersScratch.bytes });
    if (this.idle.length > 0) out.push({ name: 'idle path search slots', layer: null, bytes: this.idleBytes() });
    return out;
  }

  /**
   * Bytes of this Pathfinder's own scratch and of the idle slots it keeps for {@link begin}'s
   * searches (not the grid's derived data, nor the slots running searches hold: see
   * {@link PathSearch.bytes}).
   */
  get bytes(): number {
    return this.scratch.bytes + this.idleBytes();
  }

  private idleBytes(): number {
    let b = 0;
    for (const slot of this.idle) b += slotBytes(slot);
    return b;
  }

  /**
   * The cheapest path from cell (sx, sy) to cell (gx, gy), or as near as it gets with `nearest`,
   * or to the cheapest of (gx, gy) and `goals`, for a unit of `radius`, around `obstacles`,
   * any-angle with `anyAngle` (see {@link FindPathOptions}). Cells outside the grid or blocked
   * give `invalid-start` / `invalid-goal` with a `reason`; a goal in another component than the
   * start gives `no-path` with `expanded` 0, without a search. A caller's mistake (coordinates that are not integers,
   * an unknown layer, movement or algorithm, an option of the wrong type) throws a TilenavError
   * naming the argument.
   */
  findPath(sx: number, sy: number, gx: number, gy: number, options: FindPathOptions = {}): PathResult {
    this.lastWork = 0;
    const o = options as InternalPathOptions;
    const q = this.check(sx, sy, gx, gy, o);
    const grid = this.grid;
    const radius = o.radius ?? 0;
    const obstacles = o.obstacles;
    const anyAngle = o.anyAngle === true;
    this.traced = -1;
    const view = this.frame(q, radius, o.view);
    if (anyAngle && (q.goalLayer !== q.layer || this.linksFrom(q) !== null)) {
      const why = q.goalLayer !== q.layer ? 'stay on one layer, and goalLayer differs from layer' : `do not follow links, and layer ${q.layer} has enabled links (grid.addLink)`;
      throw new TilenavError(`any-angle paths ${why}; leave anyAngle out`, { element: 'anyAngle' });
    }
    if (q.goals !== null) return this.toGoals(sx, sy, q, radius, anyAngle);
    // Off-grid goals stand for the nearest cell of the grid when going as near as it can.
    if (q.nearest) {
      gx = Math.min(grid.width - 1, Math.max(0, gx));
      gy = Math.min(grid.height - 1, Math.max(0, gy));
    }
    this.refuseNamed(q, view);
    const refused = this.refusal(sx, sy, gx, gy, q, radius);
    if (refused !== null) {
      if (anyAngle) refused.costMeasure = 'segments';
      return refused;
    }
    if (anyAngle && !q.nearest && (obstacles === undefined || obstacles.length === 0)) return this.anyAngle(sx, sy, gx, gy, q, 0);
    let r: PathResult | null = null;
    let expanded = 0;
    if (obstacles !== undefined && obstacles.length > 0) {
      // Around the obstacles first; through them when that is the only way.
      const overlay = (this.overlays[q.layer] ??= new ObstacleOverlay(grid, q.layer));
      q.view = overlay.stamp(obstacles, sx, sy, gx, gy, o.obstacleOptions, view);
      q.overlay = true;
      if (q.goalLayer === q.layer) q.goalView = q.view;
      const around = this.searchOnce(sx, sy, gx, gy, q, false);
      q.view = view;
      q.overlay = view !== grid.searchView(q.layer);
      if (q.goalLayer === q.layer) q.goalView = view;
      if (around.status === 'found') {
        around.avoided = true;
        r = around;
      } else expanded = around.expanded;
    }
    if (r === null) {
      r = this.searchOnce(sx, sy, gx, gy, q, q.nearest);
      r.expanded += expanded;
      r.avoided = obstacles === undefined || obstacles.length === 0;
    }
    if (anyAngle && r.cells.length > 1) {
      const a = this.anyAngle(sx, sy, grid.xOf(r.reached), grid.yOf(r.reached), q, r.expanded);
      a.status = r.status;
      a.avoided = r.avoided;
      return a;
    }
    return r;
  }

  /**
   * Begins a search to spread over frames, for games without workers: the same question as
   * {@link findPath} with the same options, checked the same way (the same TilenavError for the
   * same mistake), answered a slice at a time by {@link PathSearch.step}. It runs the algorithm
   * findPath runs (A*, jump point search, JPS+, A* across links to `goalLayer`; `hpa` answers in
   * the first step, whole), so its answer is the one `findPath` gives: the same cells, cost and
   * `expanded`. One expansion is one node expanded (for jump point search a jump point, with its
   * scans); `maxIterations` counts as in findPath (jump point scans included), over every step.
   * `auto` reads the landmark tables the layer has when it starts, and does not build them.
   * `nearest`, `radius`, `obstacles` (read when the search starts, and again if it restarts),
   * `weight`, `reachabilityCheck` and `out` work as in findPath; what findPath refuses, begin
   * refuses with the same TilenavError; `goals` (several goals) are searched a slice at a time
   * too. What runs in one call only throws a TilenavError naming it: `anyAngle`. Answers that need no search (an invalid start or goal, start
   * = goal, a goal the component labels rule out) are ready at once in {@link PathSearch.result}.
   *
   * Several searches may run at once, each on its own search slot (its own scratch: about 20
   * bytes per padded cell, plus 20 per queued node, plus 4 per padded cell with `obstacles`, 0.5
   * with jump point search, and across k layers a scratch of k padded grids),
   * borrowed from this Pathfinder when it begins and given back when it finishes or is
   * cancelled; the Pathfinder keeps two idle slots for the next searches. A change to the grid
   * between two steps makes the next step start the search again (see {@link PathSearch.step}).
   */
  begin(sx: number, sy: number, gx: number, gy: number, options: FindPathOptions = {}): PathSearch {
    const q = checkQuery(this.grid, newQuery(this.grid), sx, sy, gx, gy, options);
    if (options.anyAngle === true) throw new TilenavError('a search spread over frames returns grid paths; for an any-angle path call findPath with anyAngle', { element: 'anyAngle' });
    return PathSearch.begin(this, q, sx, sy, gx, gy, options);
  }

  /** Throws the TilenavError of an algorithm asked for by name that cannot answer `q` on `view`, whatever the cells. @internal */
  refuseNamed(q: Query, view: SearchView): void {
    if (q.algorithm !== 'auto' && q.algorithm !== 'astar') choose(q, view, jpsRefusal(q, view), false, this.linksFrom(q) !== null);
  }

  /** A search slot for a {@link PathSearch}: an idle one, or a new one. @internal */
  borrowSlot(): SearchSlot {
    const slot = this.idle.pop();
    if (slot !== undefined) return slot;
    const scratch = new SearchScratch(this.scratch.size);
    return { scratch, astar: new GridAStar(scratch, this.grid.width), overlays: [] };
  }

  /** Takes back a slot a {@link PathSearch} no longer needs (kept while fewer than two are idle). @internal */
  returnSlot(slot: SearchSlot): void {
    if (this.idle.length < IDLE_SLOTS_KEPT) this.idle.push(slot);
  }

  /**
   * The goal findPath searches for: (gx, gy), or with `q.nearest` the grid's cell nearest to it
   * (an off-grid goal stands for it), written into `into` as [x, y]. @internal
   */
  goalOf(q: Query, gx: number, gy: number, into: [number, number]): [number, number] {
    into[0] = q.nearest ? Math.min(this.grid.width - 1, Math.max(0, gx)) : gx;
    into[1] = q.nearest ? Math.min(this.grid.height - 1, Math.max(0, gy)) : gy;
    return into;
  }

  /** Which A* loop answers `q` on its view (see {@link aStarLoop}). @internal */
  aStarLoop(q: Query): 'octile' | 'generic' {
    return aStarLoop(q, q.view);
  }

  /**
   * Points `q.view` at what the query searches (the layer's view, `given`, or for a unit of
   * `radius` its clearance view), `q.goalView` at the goal layer's, and sets `q.overlay`;
   * returns the view. @internal
   */
  frame(q: Query, radius: number, given?: SearchView): SearchView {
    const grid = this.grid;
    let view = given ?? grid.searchView(q.layer);
    if (radius > 0) view = clearanceOf(grid, q.layer, radius).view(radius);
    q.view = view;
    q.overlay = view !== grid.searchView(q.layer);
    q.goalView = q.goalLayer === q.layer ? view : this.layerView(q.goalLayer, radius);
    return view;
  }

  /**
   * The work of the last findPath, in the measure `maxIterations` bounds: nodes expanded, plus for
   * jump point search the cells its jumps scanned (every search it ran). @internal
   */
  lastWork = 0;

  /**
   * Whether a plain query (no obstacles, not `nearest`) on `layer` with `movement` may run jump
   * point search, whose work can pass `maxIterations` by up to two scans (twice the grid's longer
   * side). @internal
   */
  mayJump(layer: number, movement: MovementName): boolean {
    const view = this.grid.searchView(layer);
    const q: Query = { ...this.query, layer, model: this.grid.movementModel(movement), algorithm: 'auto', weight: 1, nearest: false, overlay: false, view };
    return jpsRefusal(q, view) === null;
  }

  /** Adds a search's expansions to {@link lastWork} and returns it. */
  private counted(r: PathResult): PathResult {
    this.lastWork += r.expanded;
    return r;
  }

  /** findPath's query for modules of the library: as findPath, with an internal search view. @internal */
  findPathOn(sx: number, sy: number, gx: number, gy: number, options: InternalPathOptions): PathResult {
    return this.findPath(sx, sy, gx, gy, options);
  }

  /**
   * The layer's view (or `base`) with `obstacles` stamped as findPath stamps them, on the overlay
   * this Pathfinder keeps for the layer: valid until its next query with obstacles. @internal
   */
  obstacleView(layer: number, obstacles: readonly DynamicObstacle[], sx: number, sy: number, gx: number, gy: number, options: DynamicObstacleOptions | undefined, base?: SearchView): SearchView {
    const overlay = (this.overlays[layer] ??= new ObstacleOverlay(this.grid, layer));
    return overlay.stamp(obstacles, sx, sy, gx, gy, options, base);
  }

  /**
   * The component labels the grid keeps for `layer` and `model`'s connectivity, brought up to date
   * (with `rebuild`, relabelled from scratch) using this Pathfinder's scratch for the floods. @internal
   */
  componentLabels(layer: number, model: MovementModel, rebuild = false): ComponentLabels {
    const components = componentsOf(this.grid);
    if (rebuild) components.invalidate(layer);
    return components.labels(layer, model, this.grid.searchView(layer).pass, this.scratch);
  }

  /**
   * The component of padded cell `p` on `layer` under `model`'s connectivity as links join them
   * (equal numbers: a path may join the cells; -1: blocked), brought up to date with this
   * Pathfinder's scratch. @internal
   */
  joinedComponent(layer: number, model: MovementModel, p: number): number {
    return componentsOf(this.grid).joinedComponent(layer, model, p, this.scratch);
  }

  /** Checks a query's arguments (the same TilenavError from every door) into the reused query. */
  private check(sx: number, sy: number, gx: number, gy: number, o: InternalPathOptions): Query {
    const q = checkQuery(this.grid, this.query, sx, sy, gx, gy, o);
    if (o.view !== undefined) {
      const base = this.grid.searchView(q.layer);
      if (o.view.pass.length !== base.pass.length) throw new TilenavError(`expected a view of ${base.pass.length} padded cells, got ${o.view.pass.length}`, { element: 'view' });
    }
    return q;
  }

  /** The invalid-start / invalid-goal answer for this query, or null when both cells may be used. @internal */
  refusal(sx: number, sy: number, gx: number, gy: number, q: Query, radius: number): PathResult | null {
    const s = this.refusalOf(sx, sy, q.view, q.layer, radius);
    if (s !== null) return refusedResult('invalid-start', s);
    const g = q.nearest ? null : this.refusalOf(gx, gy, q.goalView, q.goalLayer, radius);
    if (g !== null) return refusedResult('invalid-goal', g);
    return null;
  }

  /** Why cell (x, y) cannot start or end a path on `view`, or null when it can. */
  private refusalOf(x: number, y: number, view: SearchView, layer: number, radius: number): PathRefusal | null {
    const grid = this.grid;
    if (!grid.inBounds(x, y)) return 'outside';
    if (view.pass[padXY(this.stride, x, y)] > 0) return null;
    return radius > 0 && grid.isWalkable(x, y, layer) ? 'unit-does-not-fit' : 'blocked';
  }

  /**
   * The path to the cheapest of several goals (the query's `goals` and (gx, gy) when on the grid):
   * the usable ones kept, those the component labels rule out dropped, then one A* estimating with
   * the nearest goal. Any-angle: Theta* to the goal reached.
   */
  private toGoals(sx: number, sy: number, q: Query, radius: number, anyAngle: boolean): PathResult {
    const grid = this.grid;
    const plan = this.plan;
    const settled = this.goalsPlanned(sx, sy, q, radius, plan);
    if (settled !== null) return settled;
    if (plan.runner === 'linked') {
      const s = this.linkSearch!;
      const scratch = this.linkScratch(s.views.length);
      const out = linkedSearch(scratch, s, plan.start, -1, q.maxIterations, this.last);
      s.goals = null;
      this.traced = scratch.generation;
      this.tracedScratch = scratch;
      this.tracedBase = s.slotOf[q.layer] * s.size;
      return this.linkedGoalsAnswer(out, scratch, s, q);
    }
    const out = this.last;
    const mode = (this.goalsMode ??= { maxCost: Infinity, seeded: false, nearest: false, goals: q.goals });
    this.astar.generic(q.view, q.model, plan.start, -1, plan.hs, q.maxIterations, out, mode);
    this.traced = this.scratch.generation;
    this.tracedScratch = this.scratch;
    this.tracedBase = 0;
    const r = this.goalsAnswer(out, this.astar, q);
    if (!anyAngle || r.cells.length < 2) return r;
    const a = this.anyAngle(sx, sy, grid.xOf(r.reached), grid.yOf(r.reached), q, r.expanded);
    a.status = r.status;
    return a;
  }

  /**
   * What a search of `q` to its several goals from (sx, sy) runs, written into `plan`: `generic`
   * (A* on the layer, from padded cell `plan.start` with heuristic scale `plan.hs`, the goals in
   * `q.goals`) or `linked` (A* across links on the record `into` or this Pathfinder's, from node
   * `plan.start`, its goals and heuristic prepared). Or the answer when no search is needed: an
   * invalid start, no usable goal, the start a goal, every goal out of reach. @internal
   */
  goalsPlanned(sx: number, sy: number, q: Query, radius: number, plan: Plan, into?: LinkedSearch): PathResult | null {
    const grid = this.grid;
    // The start as findPath checks it; the goals are sorted out below, one by one.
    const refused = this.refusalOf(sx, sy, q.view, q.layer, radius);
    if (refused !== null) return refusedResult('invalid-start', refused);
    const goals = q.goals!;
    const links = this.linksFrom(q);
    plan.links = links;
    if (links !== null) return this.goalsAcrossLinks(sx, sy, q, radius, links, plan, into);
    plan.runner = 'generic';
    // Goals on other layers, which no link reaches from this one: dropped.
    const only = goals.allOn(q.layer) ? null : (this.layerSlots ??= new Int8Array(grid.layers.length));
    if (only !== null) {
      only.fill(-1);
      only[q.layer] = 0;
    }
    if (only !== null && !this.anyGoalUsable(q, radius)) return this.noUsableGoal(q, radius);
    const pass = q.view.pass;
    if (goals.prepare(grid.width, q.model, (p) => pass[p] > 0, only, this.scratch.size) === 0) return only === null ? this.noUsableGoal(q, radius) : pathResult('no-path', EMPTY, Infinity, 0, -1);
    const start = padXY(this.stride, sx, sy);
    const startCell = sy * grid.width + sx;
    if (goals.has(start)) return pathResult('found', Int32Array.of(startCell), 0, 0, startCell);
    if (q.reachabilityCheck && goals.prepare(grid.width, q.model, (p) => pass[p] > 0 && !this.outOfReachOn(q, start, p, q.layer), only, this.scratch.size) === 0) return pathResult('no-path', EMPTY, Infinity, 0, -1);
    plan.start = start;
    // Past GOAL_ESTIMATE_LIMIT goals the estimate is the distance to their bounding box: 0 all the
    // way from a start inside it, where computing it only costs time (64 goals spread over a map:
    // 1.6 times Dijkstra's), so such a search runs as Dijkstra.
    const estimate = goals.count <= GOAL_ESTIMATE_LIMIT || goals.estimate(sx, sy) > 0;
    plan.hs = estimate ? q.view.minCost * q.weight : 0;
    return null;
  }

  /** The answer of a search to several goals on one layer that ended as `out`, read from `astar`'s scratch. @internal */
  goalsAnswer(out: SearchOutcome, astar: GridAStar, q: Query): PathResult {
    if (!out.reached) return pathResult(out.limited ? 'limit-reached' : 'no-path', EMPTY, Infinity, out.expanded, -1);
    const node = astar.reachedGoal;
    return pathResult('found', this.cellPath(astar.scratch, node, q.out), astar.scratch.g[node], out.expanded, unpad(this.grid.width, node));
  }

  /** The answer of a search to several goals across links that ended as `out`, read from `scratch`. @internal */
  linkedGoalsAnswer(out: SearchOutcome, scratch: SearchScratch, s: LinkedSearch, q: Query): PathResult {
    if (!out.reached) return pathResult(out.limited ? 'limit-reached' : 'no-path', EMPTY, Infinity, out.expanded, -1);
    return this.linkedPath(scratch, s, q, s.reached, 'found', out.expanded);
  }

  /**
   * `invalid-goal` when no goal of `q.goals` is usable: `unit-does-not-fit` when one is walkable
   * but too narrow for `radius`, else `blocked`. `views` by layer slot (`slotOf`), or the query's
   * view for every goal.
   */
  private noUsableGoal(q: Query, radius: number): PathResult {
    const goals = q.goals!;
    let fits = true;
    for (let k = 0; k < goals.length && fits; k++) fits = !(radius > 0 && this.grid.layers[goals.layers[k]].walkable[goals.cells[k]] === 1);
    return refusedResult('invalid-goal', fits ? 'blocked' : 'unit-does-not-fit');
  }

  /** Whether some goal of `q.goals` may end a path (walkable on its layer, room for `radius`), whichever layers links reach. */
  private anyGoalUsable(q: Query, radius: number): boolean {
    const goals = q.goals!;
    for (let k = 0; k < goals.length; k++) {
      const l = goals.layers[k];
      const view = l === q.layer ? q.view : this.layerView(l, radius);
      if (view.pass[pad(this.grid.width, goals.cells[k])] > 0) return true;
    }
    return false;
  }

  /**
   * {@link goalsPlanned} when links lead off the start's layer: one A* over (layer, cell) nodes
   * (linked.ts) to the nearest goal, goals on layers no link reaches dropped, the estimate the
   * nearest goal's across shortcuts.
   */
  private goalsAcrossLinks(sx: number, sy: number, q: Query, radius: number, links: LinkIndex, plan: Plan, into?: LinkedSearch): PathResult | null {
    const grid = this.grid;
    const goals = q.goals!;
    const start = padXY(this.stride, sx, sy);
    const s = this.linkRecord(q, links, into);
    plan.runner = 'linked';
    const P = s.size;
    const startNode = s.slotOf[q.layer] * P + start;
    const views = s.views;
    if (!this.anyGoalUsable(q, radius)) return this.noUsableGoal(q, radius);
    if (goals.prepare(grid.width, q.model, (n) => views[(n / P) | 0].pass[n % P] > 0, s.slotOf, P) === 0) return pathResult('no-path', EMPTY, Infinity, 0, -1);
    const startCell = sy * grid.width + sx;
    if (goals.has(startNode)) return pathResult('found', Int32Array.of(startCell), 0, 0, startCell);
    const keep = (n: number): boolean => views[(n / P) | 0].pass[n % P] > 0 && !this.outOfReachOn(q, start, n % P, s.layerOf[(n / P) | 0]);
    if (q.reachabilityCheck && goals.prepare(grid.width, q.model, keep, s.slotOf, P) === 0) return pathResult('no-path', EMPTY, Infinity, 0, -1);
    s.goals = goals;
    s.goalSlot = 0;
    s.bounds.prepare(q.model, s.index, this.reachMask(q, s.index), q.stayOnLayer ? q.layer : -1, s.minCost, q.weight, 0, 0, this.stride, goals);
    plan.start = startNode;
    return null;
  }

  /** One search on the query's view; with `nearest`, the partial path when the goal is out of reach. */
  private searchOnce(sx: number, sy: number, gx: number, gy: number, q: Query, nearest: boolean): PathResult {
    const settled = this.opening(sx, sy, gx, gy, q, nearest, false);
    if (settled !== null) return settled;
    const goal = padXY(this.stride, gx, gy);
    const saved = q.nearest;
    q.nearest = nearest;
    try {
      return this.run(padXY(this.stride, sx, sy), goal, gy * this.grid.width + gx, q, q.view, q.goalView.pass[goal] <= 0);
    } finally {
      q.nearest = saved;
    }
  }

  /**
   * The answer a search on the query's view needs not be run for: start = goal (`found`, one
   * cell), a blocked goal when not going as near as it can (`invalid-goal`), and with `reach` a
   * walkable goal the component labels put out of reach (`no-path`, as {@link run} answers for
   * A*); else null. @internal
   */
  opening(sx: number, sy: number, gx: number, gy: number, q: Query, nearest: boolean, reach: boolean): PathResult | null {
    const start = padXY(this.stride, sx, sy);
    const goal = padXY(this.stride, gx, gy);
    const goalCell = gy * this.grid.width + gx;
    if (start === goal && q.layer === q.goalLayer) return pathResult('found', Int32Array.of(goalCell), 0, 0, goalCell);
    const blockedGoal = q.goalView.pass[goal] <= 0;
    if (blockedGoal && !nearest) return refusedResult('invalid-goal', 'blocked');
    if (reach && !nearest && !blockedGoal && this.outOfReach(q, start, goal)) return pathResult('no-path', EMPTY, Infinity, 0, -1);
    return null;
  }

  private run(start: number, goal: number, goalCell: number, q: Query, view: SearchView, blockedGoal: boolean): PathResult {
    const plan = this.plan;
    const settled = this.planned(start, goal, goalCell, q, view, blockedGoal, plan);
    if (settled !== null) return settled;
    const { runner, marks, tables, jpsWhy } = plan;
    if (runner === 'linked') return this.counted(this.acrossLinks(start, goal, goalCell, q, plan.links!));
    const out = this.last;
    const hs = view.minCost * q.weight;
    const cardinal = q.model.name === 'cardinal';
    const jps = runner === 'jps' || runner === 'jps+' ? this.jumpPointSearch() : null;
    if (jps !== null) jps.search(view, q.layer, start, goal, cardinal, q.maxIterations, runner === 'jps+', out, tables);
    else if (runner === 'octile') this.astar.octile(view, start, goal, hs, q.maxIterations, out);
    else this.astar.generic(view, q.model, start, goal, hs, q.maxIterations, out, q.nearest ? NEAREST : PLAIN);
    this.lastWork += jps !== null ? jps.lastWork : out.expanded;
    // Work in Dijkstra steps, only where jump point search reads the tables: an expanded jump point costs about four.
    if (marks !== null && (tables === null || !tables.complete) && jpsWhy === null) marks.charge(q.layer, jps !== null ? 4 * out.expanded : out.expanded);
    this.traced = this.scratch.generation;
    this.tracedScratch = this.scratch;
    this.tracedBase = 0;
    return this.answer(out, this.astar, jps, cardinal, q, goal, goalCell);
  }

  /**
   * What a search of `q` on `view` from padded cell `start` to `goal` runs, written into `plan`:
   * the runner {@link choose} picks, the landmark tables `auto` reads, the links it follows. Or
   * the answer when no search is needed: no link leads to the goal's layer, the component labels
   * rule the goal out, or the hierarchy or the subgoal graph (`hpa`, `subgoal`, answered here in one
   * call). @internal
   */
  planned(start: number, goal: number, goalCell: number, q: Query, view: SearchView, blockedGoal: boolean, plan: Plan): PathResult | null {
    const grid = this.grid;
    const links = this.linksFrom(q);
    // 'auto' on a layer whose costs differ reads the landmark bounds (bounds/landmarks/landmark-bounds.ts) when the layer
    // has them, and otherwise counts its work towards building them. Not across links: the bounds know only the steps.
    const plainAuto = q.algorithm === 'auto' && links === null && !q.nearest && !q.overlay && !view.uniform && q.weight === 1 && view.exits === null;
    const marks = plainAuto && (q.model.name === 'octile' || q.model.name === 'cardinal') ? landmarksOf(grid) : null;
    const tables = marks === null ? null : marks.tables(q.layer);
    const jpsWhy = q.algorithm === 'astar' ? 'A* asked for' : jpsRefusal(q, view);
    // 'auto' searches the layer's subgoal graph once one was built (prepare, or a 'subgoal' query)
    // and no change came since, where the graph was judged faster than jump point search (subgoalGraph).
    const graphed = q.algorithm === 'auto' && links === null && view.uniform && jpsWhy === null && subgoalsOf(grid).autoPick(q.layer) === true;
    const runner = choose(q, view, jpsWhy, tables !== null, links !== null, graphed);
    plan.runner = runner;
    plan.marks = marks;
    plan.tables = tables;
    plan.jpsWhy = jpsWhy;
    plan.links = links;
    // No link leads from the start's layer to the goal's: nothing to search, and the start is as near as it gets.
    if (q.goalLayer !== q.layer && (links === null || ((this.reachMask(q, links) >>> q.goalLayer) & 1) === 0)) {
      const startCell = unpad(grid.width, start);
      return q.nearest ? pathResult('partial', Int32Array.of(startCell), 0, 0, startCell) : pathResult('no-path', EMPTY, Infinity, 0, -1);
    }
    if (runner === 'hpa') return this.counted(this.hierarchical(q, start, goal, goalCell));
    if (!q.nearest && !blockedGoal && this.outOfReach(q, start, goal)) return pathResult('no-path', EMPTY, Infinity, 0, -1);
    if (runner === 'subgoal') return this.onSubgoals(q, view, start, goal, goalCell);
    return null;
  }

  /** The jump point search of this Pathfinder (its bit planes and tables), made on first use. @internal */
  jumpPoints(): JumpPointSearch {
    return this.jumpPointSearch();
  }

  /**
   * The answer of a grid search that ended as `out` says, read from `astar`'s scratch (or, for
   * jump point search, `jps`'s paths, on this Pathfinder's scratch): found, partial with
   * `q.nearest`, limit-reached or no-path. Writes the path into `q.out` when it fits. @internal
   */
  answer(out: SearchOutcome, astar: GridAStar, jps: JumpPointSearch | null, cardinal: boolean, q: Query, goal: number, goalCell: number): PathResult {
    const scratch = astar.scratch;
    if (out.reached) {
      const cells = jps !== null ? jps.reconstruct(goal, cardinal, q.out, scratch) : this.cellPath(scratch, goal, q.out);
      return pathResult('found', cells, scratch.g[goal], out.expanded, goalCell);
    }
    if (q.nearest && !out.limited) {
      // The start itself when nothing reachable is nearer: already as near as it gets.
      const best = astar.best;
      return pathResult('partial', this.cellPath(scratch, best, q.out), scratch.g[best], out.expanded, unpad(this.grid.width, best));
    }
    return pathResult(out.limited ? 'limit-reached' : 'no-path', EMPTY, Infinity, out.expanded, -1);
  }

  /** Theta* from (sx, sy) to (gx, gy) on the query's view; `expanded` adds the grid search's work. */
  private anyAngle(sx: number, sy: number, gx: number, gy: number, q: Query, expanded: number): PathResult {
    const finder = (this.anyAngleFinder ??= new AnyAngleFinder(this.grid, this));
    const a = finder.findPath(sx, sy, gx, gy, { layer: q.layer, maxIterations: q.maxIterations, view: q.view });
    const width = this.grid.width;
    const pts = a.points;
    const cells = new Int32Array(pts.length / 2);
    for (let k = 0; k < cells.length; k++) cells[k] = pts[2 * k + 1] * width + pts[2 * k];
    const status = a.status === 'invalid-start' || a.status === 'invalid-goal' ? a.status : a.status;
    const r = pathResult(status as PathStatus, cells, a.cost, a.expanded + expanded, cells.length > 0 ? cells[cells.length - 1] : -1);
    r.costMeasure = 'segments';
    r.points = pts;
    if (status === 'invalid-start' || status === 'invalid-goal') r.reason = 'blocked';
    return r;
  }

  /**
   * Builds what `algorithm` needs on `layer` before the first query (the padded search view, the
   * component labels of `movement`; for JPS its walkability bit planes; for `auto` on a layer whose
   * costs differ, with octile or cardinal movement, the landmark tables), so that query costs no
   * more than the others.
   *
   * `landmarks`: how many landmark tables `auto` keeps for the layer's weighted searches (default
   * 8; 0 turns them off and frees them). They make weighted searches open far fewer cells (the
   * path is the same optimal one), cost 4 bytes per cell per landmark, kept by the grid, and take
   * about one Dijkstra search of the layer each to build (build times: docs/benchmarks.md).
   * Without `prepare` the searches build them themselves
   * once they have done about half as much work as that, a slice per search (an eighth of one
   * landmark's build), so no search pauses for long; `prepare` at load time has them all from the
   * first query.
   *
   * `algorithm: 'subgoal'` builds the layer's subgoal graph (octile movement, uniform costs; it
   * throws a TilenavError naming `algorithm` for a layer it cannot search), kept by the grid and
   * listed by `grid.memory()`, and judges on a fixed sample of queries whether it is faster than
   * JPS on that layer (a count, the same on every machine; docs/search.md): where it is, `auto`
   * searches it on that layer until a change to the layer drops it (then `auto` runs JPS until it
   * is built again); where it is not (open maps), `auto` stays on JPS and only `subgoal` queries
   * read the graph. Build times and bytes per cell: docs/benchmarks.md.
   */
  prepare(options: { layer?: number | string; algorithm?: SearchAlgorithm; movement?: MovementName; landmarks?: number } = {}): void {
    assertOptionsObject(options, 'options');
    const layer = this.grid.layerIndex(options.layer ?? 0);
    const model = this.grid.movementModel(options.movement);
    componentsOf(this.grid).labels(layer, model, this.grid.searchView(layer).pass, this.scratch);
    const algorithm = options.algorithm ?? 'auto';
    if (!ALGORITHMS.includes(algorithm)) throw new TilenavError(`expected ${ALGORITHM_LIST}, got ${describe(algorithm)}`, { element: 'algorithm' });
    if (options.landmarks !== undefined || algorithm === 'auto') {
      // Built only where 'auto' reads them: weighted jump point search's layers and movements.
      const view = this.grid.searchView(layer);
      const q: Query = { ...this.query, layer, model, algorithm: 'auto', weight: 1, nearest: false, overlay: false, view };
      landmarksOf(this.grid).prepare(layer, options.landmarks, jpsRefusal(q, view) === null && !view.uniform);
    }
    if (algorithm === 'astar') return;
    if (algorithm === 'hpa') {
      this.hierarchy(layer, model.name);
      return;
    }
    if (algorithm === 'subgoal') {
      const view = this.grid.searchView(layer);
      const q: Query = { ...this.query, layer, model, algorithm, weight: 1, nearest: false, overlay: false, view };
      const why = this.linksFrom(q) !== null ? `layer ${layer}, which has enabled links (grid.addLink)` : jpsRefusal(q, view);
      if (why !== null) throw new TilenavError(`the subgoal graph cannot search ${why}; use algorithm 'auto' or 'jps+'`, { element: 'algorithm' });
      this.subgoalGraph(layer, view);
      return;
    }
    const jps = this.jumpPointSearch();
    jps.bits(layer);
    if (algorithm === 'jps+') jps.table(this.grid.searchView(layer), layer);
  }

  /**
   * The cluster hierarchy `algorithm: 'hpa'` searches on `layer` with `movement` (`octile` or
   * `cardinal`): built on first use, then kept in step with the grid, rebuilding only the clusters
   * a change touches. Returns what it costs and how it is shaped ({@link HierarchyInfo}); a
   * `clusterSize` different from the current one rebuilds it. Throws for other movement models.
   */
  hierarchy(layer: number | string = 0, movement: MovementName = 'octile', options?: HierarchyOptions): HierarchyInfo {
    return this.hierarchyOf(layer, movement, options);
  }

  private hierarchyOf(layer: number | string, movement: MovementName, options?: HierarchyOptions): Hierarchy {
    const l = this.grid.layerIndex(layer);
    const model = this.grid.movementModel(movement);
    if (model.name !== 'octile' && model.name !== 'cardinal') throw new TilenavError(`the hierarchy needs 'octile' or 'cardinal' movement, got '${model.name}'`, { element: 'movement' });
    const key = `${l}:${model.name}`;
    let h = this.hierarchies.get(key);
    if (h === undefined || (options?.clusterSize !== undefined && options.clusterSize !== h.clusterSize)) {
      h?.dispose();
      const grid = this.grid;
      h = new Hierarchy(grid, grid.searchView(l), this.scratch, l, model.name === 'cardinal', options, () => (this.jps ??= new JumpPointSearch(grid, this.scratch)));
      this.hierarchies.set(key, h);
    }
    return h;
  }

  /**
   * Whether the component labels (built on first use, kept by the grid; joined where links join
   * them) put the padded cells `start` and `goal` apart: then no search can reach the goal.
   */
  private outOfReach(q: Query, start: number, goal: number): boolean {
    if (!q.reachabilityCheck) return false;
    return componentsOf(this.grid).separated(q.layer, q.model, this.grid.searchView(q.layer).pass, start, goal, this.scratch, q.goalLayer);
  }

  /** {@link outOfReach} for a goal on `goalLayer`. */
  private outOfReachOn(q: Query, start: number, goal: number, goalLayer: number): boolean {
    if (!q.reachabilityCheck) return false;
    return componentsOf(this.grid).separated(q.layer, q.model, this.grid.searchView(q.layer).pass, start, goal, this.scratch, goalLayer);
  }

  /** The links a search of `q` may take (the grid's compiled index), or null when none starts on its layer. */
  private linksFrom(q: Query): LinkIndex | null {
    const grid = this.grid;
    if (grid.linksVersion === 0) return null;
    const index = grid.linkIndex();
    if (q.stayOnLayer) return index.sameLayer[q.layer] === 1 ? index : null;
    return index.start[q.layer + 1] > index.start[q.layer] ? index : null;
  }

  /** The layers a search of `q` may enter through `links`, a bit per layer. */
  private reachMask(q: Query, links: LinkIndex): number {
    return q.stayOnLayer ? 1 << q.layer : links.reach[q.layer];
  }

  /** The view a search reads on `layer` for a unit of `radius` (0: a point): the layer's own, or its clearance view. */
  private layerView(layer: number, radius: number): SearchView {
    return radius > 0 ? clearanceOf(this.grid, layer, radius).view(radius) : this.grid.searchView(layer);
  }

  /**
   * A* across links (algorithms/astar/linked.ts) from padded cell `start` on the query's layer to
   * `goal` on its goal layer, over the layers the links reach: on this Pathfinder's scratch when
   * they all stay on the layer, else on a scratch of one padded grid per layer reached (made on
   * first use, kept, and counted in {@link bytes}).
   */
  private acrossLinks(start: number, goal: number, goalCell: number, q: Query, links: LinkIndex): PathResult {
    const s = this.linkRecord(q, links);
    const { startNode, goalNode } = this.linkEnds(q, s, start, goal, goalCell);
    const scratch = this.linkScratch(s.views.length);
    const out = linkedSearch(scratch, s, startNode, goalNode, q.maxIterations, this.last);
    this.traced = scratch.generation;
    this.tracedScratch = scratch;
    this.tracedBase = s.slotOf[q.layer] * s.size;
    return this.linkedAnswer(out, scratch, s, q, goalNode);
  }

  /**
   * The record of a search across links for `q` (this Pathfinder's, or `into`): the layers the
   * links reach from the query's layer, in slots, with their views (the query's own for its layer
   * and goal layer), the model's step table. `links` null: the query's layer alone. @internal
   */
  linkRecord(q: Query, links: LinkIndex | null, into?: LinkedSearch): LinkedSearch {
    const grid = this.grid;
    const P = this.scratch.size;
    const s = into ?? (this.linkSearch ??= newLinkedSearch(grid, P, this.stride, (this.linkBounds ??= new LinkBounds())));
    const mask = links === null ? 1 << q.layer : this.reachMask(q, links);
    if (links !== null) s.index = links;
    s.model = q.model;
    s.steps = this.astar.table(q.model);
    s.views.length = 0;
    s.slotOf.fill(-1);
    s.goals = null;
    let minCost = Infinity;
    for (let l = 0; l < grid.layers.length; l++) {
      if (((mask >>> l) & 1) === 0) continue;
      const v = l === q.layer ? q.view : l === q.goalLayer ? q.goalView : this.layerView(l, q.radius);
      s.slotOf[l] = s.views.length;
      s.layerOf[s.views.length] = l;
      s.views.push(v);
      if (v.minCost < minCost) minCost = v.minCost;
    }
    s.minCost = minCost;
    s.nearest = q.nearest;
    return s;
  }

  /** The start and goal nodes of a search across links on record `s`, its heuristic prepared. @internal */
  linkEnds(q: Query, s: LinkedSearch, start: number, goal: number, goalCell: number): { startNode: number; goalNode: number } {
    const P = s.size;
    s.goalSlot = s.slotOf[q.goalLayer];
    s.bounds.prepare(q.model, s.index, this.reachMask(q, s.index), q.stayOnLayer ? q.layer : -1, s.minCost, q.weight, this.grid.xOf(goalCell), this.grid.yOf(goalCell), this.stride);
    return { startNode: s.slotOf[q.layer] * P + start, goalNode: s.goalSlot * P + goal };
  }

  /** This Pathfinder's scratch for a search across `slots` layers: its own for one, else one of slots x padded cells. */
  private linkScratch(slots: number): SearchScratch {
    if (slots <= 1) return this.scratch;
    const P = this.scratch.size;
    if (this.layersScratch === undefined || this.layersScratch.size < slots * P) this.layersScratch = new SearchScratch(slots * P);
    return this.layersScratch;
  }

  /** The answer of a search across links that ended as `out`, read from `scratch`: found, partial with nearest, limit-reached or no-path. @internal */
  linkedAnswer(out: SearchOutcome, scratch: SearchScratch, s: LinkedSearch, q: Query, goalNode: number): PathResult {
    const last = out.reached ? goalNode : q.nearest && !out.limited ? s.best : -1;
    if (last < 0) return pathResult(out.limited ? 'limit-reached' : 'no-path', EMPTY, Infinity, out.expanded, -1);
    return this.linkedPath(scratch, s, q, last, out.reached ? 'found' : 'partial', out.expanded);
  }

  /** The path of a search across links ending at node `last`, with its layers when it leaves the query's layer. */
  private linkedPath(scratch: SearchScratch, s: LinkedSearch, q: Query, last: number, status: PathStatus, expanded: number): PathResult {
    const P = s.size;
    const width = this.grid.width;
    const cells = scratch.path(last, (n) => unpad(width, n % P), q.out);
    let layers: Uint8Array | null = null;
    for (let n = last, k = cells.length - 1; n !== -1; n = scratch.parent[n], k--) {
      const l = s.layerOf[(n / P) | 0];
      if (l !== q.layer) layers ??= new Uint8Array(cells.length).fill(q.layer);
      if (layers !== null) layers[k] = l;
    }
    const r = pathResult(status, cells, scratch.g[last], expanded, cells[cells.length - 1]);
    r.layers = layers;
    return r;
  }

  /**
   * The layer's subgoal graph (built now when missing or dropped by a change) searched from padded
   * cell `start` to `goal`; the path walked back into cells.
   */
  private onSubgoals(q: Query, view: SearchView, start: number, goal: number, goalCell: number): PathResult {
    const graph = this.subgoalGraph(q.layer, view);
    const s = (this.subgoalSearch ??= new SubgoalSearch(this.scratch));
    const out = this.last;
    const units = s.search(graph, view.pass, start, goal, q.maxIterations, out);
    if (!out.reached) return pathResult(out.limited ? 'limit-reached' : 'no-path', EMPTY, Infinity, out.expanded, -1);
    const n = s.cellCount;
    const cells = s.cells(view.pass, q.out !== undefined && q.out.length >= n ? q.out : new Int32Array(n));
    return pathResult('found', cells, units * view.minCost, out.expanded, goalCell);
  }

  /**
   * The layer's subgoal graph, built now when missing, and with it the choice `auto` makes on the
   * layer while the graph lasts: the graph where it looks cheaper than jump point search on a
   * fixed sample of queries ({@link SUBGOAL_SAMPLE} pairs of open cells drawn by a fixed
   * sequence, those in one component): where its search looks at fewer than
   * {@link EDGES_PER_JUMP_POINT} edges per jump point JPS expands. A count, not a clock, so every
   * machine makes the same choice (and returns the same paths).
   */
  private subgoalGraph(layer: number, view: SearchView): SubgoalGraph {
    const subgoals = subgoalsOf(this.grid);
    const graph = subgoals.graph(layer, view);
    if (subgoals.autoPick(layer) !== null) return graph;
    const s = (this.subgoalSearch ??= new SubgoalSearch(this.scratch));
    const jps = this.jumpPointSearch();
    const components = componentsOf(this.grid);
    const model = this.grid.movementModel('octile');
    const pass = view.pass;
    const out = this.last;
    let seed = 0x2545f491;
    const draw = (): number => {
      for (let tries = 0; tries < 64; tries++) {
        seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
        const p = seed % pass.length;
        if (pass[p] > 0) return p;
      }
      return -1;
    };
    let edges = 0;
    let jumpPoints = 0;
    for (let k = 0; k < SUBGOAL_SAMPLE; k++) {
      const a = draw();
      const b = draw();
      if (a < 0 || b < 0 || a === b || components.separated(layer, model, pass, a, b, this.scratch, layer)) continue;
      s.search(graph, pass, a, b, Infinity, out);
      edges += s.scanned;
      jps.search(view, layer, a, b, false, Infinity, false, out);
      jumpPoints += out.expanded;
    }
    subgoals.decide(layer, edges < EDGES_PER_JUMP_POINT * jumpPoints);
    return graph;
  }

  private jumpPointSearch(): JumpPointSearch {
    return (this.jps ??= new JumpPointSearch(this.grid, this.scratch));
  }

  private hierarchical(q: Query, start: number, goal: number, goalCell: number): PathResult {
    const h = this.hierarchyOf(q.layer, q.model.name);
    if (this.outOfReach(q, start, goal)) return pathResult('no-path', EMPTY, Infinity, 0, -1);
    const stats = { expanded: 0 };
    const refined = h.findRoute(start, goal, stats);
    if (refined === null) return pathResult('no-path', EMPTY, Infinity, stats.expanded, -1);
    return pathResult('found', refined.cells, refined.cost, stats.expanded, goalCell);
  }

  /**
   * Dijkstra from one or more source cells (indices `y * width + x`; blocked ones are ignored):
   * the cost of the cheapest path from the nearest source to every cell, Infinity where none.
   * The base of flow fields and nearest-point queries.
   */
  distanceMap(sources: ArrayLike<number>, options: DistanceMapOptions = {}, out?: Float64Array): Float64Array {
    assertOptionsObject(options, 'options');
    assertArrayLike(sources, 'sources');
    const grid = this.grid;
    const layer = grid.layerIndex(options.layer ?? 0);
    const model = grid.movementModel(options.movement);
    const maxCost = options.maxCost ?? Infinity;
    if (typeof maxCost !== 'number' || Number.isNaN(maxCost)) throw new TilenavError(`expected a number, got ${describe(maxCost)}`, { element: 'maxCost' });
    const dist = out ?? new Float64Array(grid.size);
    if (dist.length !== grid.size) throw new TilenavError(`expected a Float64Array of ${grid.size} cells, got ${dist.length}`, { element: 'out' });
    dist.fill(Infinity);
    for (let k = 0; k < sources.length; k++) {
      const i = sources[k];
      if (!Number.isInteger(i) || i < 0 || i >= grid.size) throw new TilenavError(`source ${describe(i)} is not a cell index 0..${grid.size - 1}`, { element: 'sources' });
    }
    dijkstra(this.astar, grid.searchView(layer), model, grid.width, grid.height, sources, maxCost, dist, this.last);
    this.traced = this.scratch.generation;
    this.tracedScratch = this.scratch;
    this.tracedBase = 0;
    return dist;
  }

  /**
   * The cells a unit on cell (sx, sy) can reach with `budget` movement points (tactics movement
   * range), cheapest first, with their costs and the path to each ({@link MovementRange}): one
   * Dijkstra cut at the budget, under any movement model (`cardinal`, `octile`, `chebyshev`,
   * `hex`...), where `occupied` cells cannot be entered or passed and `stopAt` cells (zone of
   * control) can be entered but not left. Exact: every cell whose cheapest path under these rules
   * costs at most the budget, at that cost.
   *
   * Its own call rather than an option of {@link distanceMap}: the answer is the set in range,
   * sized by it (two arrays and one parent per cell in range) rather than a cost for every cell
   * of the map, and it keeps the paths. It runs on this Pathfinder's scratch: nothing the size of
   * the map is allocated per call. The unit's cell outside the grid or blocked gives an empty
   * range with `reason` `outside` / `blocked`. A `stopAt` predicate must not search with this
   * Pathfinder. Afterwards {@link expandedInto} reports nothing (all zeros).
   *
   * Throws a TilenavError naming `budget` (missing, negative or not a number), `occupied` or
   * `stopAt` (not cell indices), the coordinates, layer or movement.
   */
  movementRange(sx: number, sy: number, options: RangeOptions): MovementRange {
    if (options === null || typeof options !== 'object') throw new TilenavError(`expected an options object with a budget, got ${describe(options)}`, { element: 'options' });
    checkInt(sx, 'start x');
    checkInt(sy, 'start y');
    const grid = this.grid;
    const budget = options.budget;
    if (typeof budget !== 'number' || !(budget >= 0)) throw new TilenavError(`expected movement points, a number >= 0, got ${describe(budget)}`, { element: 'budget' });
    const layer = grid.layerIndex(options.layer ?? 0);
    const model = grid.movementModel(options.movement);
    const occupied = options.occupied ?? null;
    if (occupied !== null) assertCellIndices(occupied, grid.size, 'occupied');
    const stopAt = options.stopAt;
    let stops: Int32Array | null = null;
    if (stopAt !== undefined && typeof stopAt !== 'function') {
      if (stopAt === null || typeof stopAt !== 'object') throw new TilenavError(`expected cell indices or a predicate (cell) => boolean, got ${describe(stopAt)}`, { element: 'stopAt' });
      assertCellIndices(stopAt, grid.size, 'stopAt');
      stops = Int32Array.from(stopAt, (i) => pad(grid.width, i)).sort();
    }
    this.traced = -1;
    if (!grid.inBounds(sx, sy)) return new RangeAnswer(EMPTY, new Float64Array(0), EMPTY, 0, 'outside', grid.size);
    const view = grid.searchView(layer);
    const start = padXY(this.stride, sx, sy);
    if (view.pass[start] <= 0) return new RangeAnswer(EMPTY, new Float64Array(0), EMPTY, 0, 'blocked', grid.size);
    const settled = (this.settled ??= new SettledCells());
    const rules = { occupied, stops, stopIf: typeof stopAt === 'function' ? stopAt : null };
    const expanded = rangeSearch(this.astar, view, model, grid.width, start, budget * (1 + RANGE_BUDGET_EPS), rules, settled, this.last);
    const n = settled.count;
    const cells = new Int32Array(n);
    const costs = new Float64Array(n);
    const parents = new Int32Array(n);
    const { g, parent } = this.scratch;
    // Settled in order, so a cell's parent comes before it: once read, each cell's cost slot holds
    // its position, which its children read as their parent's.
    for (let k = 0; k < n; k++) {
      const p = settled.nodes[k];
      cells[k] = unpad(grid.width, p);
      costs[k] = g[p];
      parents[k] = k === 0 ? -1 : g[parent[p]];
      g[p] = k;
    }
    return new RangeAnswer(cells, costs, parents, expanded, null, grid.size);
  }

  /**
   * What the last `findPath` or `distanceMap` of this Pathfinder touched, for debug views: writes 1
   * into `out[i]` for every cell it closed, 2 for every cell left on the open list, 0 elsewhere,
   * and returns the number of 1s. Closed cells include the goal, which the search takes off the
   * open list but does not expand: after a `found` A* search the count is the result's `expanded`
   * plus one. (Jump point search closes only its jump points, so the count is theirs.) Reads the
   * search's generation stamps, so it costs one pass over the grid and nothing during the search.
   * After a query that ran no search (start == goal, invalid start or goal) it writes all zeros.
   * @param out one byte per cell (`grid.size`), reused across calls.
   */
  expandedInto(out: Uint8Array): number {
    const grid = this.grid;
    if (!(out instanceof Uint8Array) || out.length !== grid.size) throw new TilenavError(`expected a Uint8Array of ${grid.size} cells`, { element: 'out' });
    if (this.traced < 0) {
      out.fill(0);
      return 0;
    }
    const open = this.traced;
    const closed = open + 1;
    const stamp = this.tracedScratch.stamp;
    let count = 0;
    for (let y = 0, i = 0; y < grid.height; y++) {
      let p = this.tracedBase + padXY(this.stride, 0, y);
      for (let x = 0; x < grid.width; x++, p++, i++) {
        const s = stamp[p];
        if (s === closed) {
          out[i] = 1;
          count++;
        } else out[i] = s === open ? 2 : 0;
      }
    }
    return count;
  }

  /** The A* path on `scratch` ending at padded cell `last` as cell indices, start first. */
  private cellPath(scratch: SearchScratch, last: number, out?: Int32Array): Int32Array {
    const width = this.grid.width;
    return scratch.path(last, (p) => unpad(width, p), out);
  }
}

/**
 * Checks a path question's arguments as every `findPath` does (the same TilenavError from every
 * door, the path service's included) and writes them, normalised, into `q`. @internal
 */
export function checkQuery(grid: NavGrid, q: Query, sx: number, sy: number, gx: number, gy: number, o: FindPathOptions): Query {
  if (o === null || typeof o !== 'object') throw new TilenavError(`expected an options object, got ${describe(o)}`, { element: 'options' });
  checkInt(sx, 'start x');
  checkInt(sy, 'start y');
  checkInt(gx, 'goal x');
  checkInt(gy, 'goal y');
  q.layer = grid.layerIndex(o.layer ?? 0);
  q.goalLayer = q.layer;
  if (o.goalLayer !== undefined) {
    try {
      q.goalLayer = grid.layerIndex(o.goalLayer);
    } catch (e) {
      if (!(e instanceof TilenavError)) throw e;
      throw new TilenavError(e.message.slice((e.element?.length ?? -2) + 2), { element: `goalLayer ${describe(o.goalLayer)}` });
    }
  }
  q.stayOnLayer = (o as InternalPathOptions).stayOnLayer === true;
  q.model = grid.movementModel(o.movement);
  const algorithm = o.algorithm ?? 'auto';
  if (!ALGORITHMS.includes(algorithm)) throw new TilenavError(`expected ${ALGORITHM_LIST}, got ${describe(algorithm)}`, { element: 'algorithm' });
  q.algorithm = algorithm;
  const maxIterations = o.maxIterations ?? Infinity;
  if (typeof maxIterations !== 'number' || !(maxIterations >= 0)) throw new TilenavError(`expected a number >= 0, got ${describe(maxIterations)}`, { element: 'maxIterations' });
  q.maxIterations = maxIterations;
  const weight = o.weight ?? 1;
  if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) throw new TilenavError(`expected a finite number >= 0, got ${describe(weight)}`, { element: 'weight' });
  q.weight = weight;
  q.nearest = checkFlag(o.nearest, 'nearest');
  q.reachabilityCheck = o.reachabilityCheck === undefined ? true : checkFlag(o.reachabilityCheck, 'reachabilityCheck');
  const anyAngle = checkFlag(o.anyAngle, 'anyAngle');
  if (o.out !== undefined && !(o.out instanceof Int32Array)) throw new TilenavError(`expected an Int32Array, got ${describe(o.out)}`, { element: 'out' });
  q.out = o.out;
  const radius = o.radius ?? 0;
  if (typeof radius !== 'number' || !Number.isFinite(radius) || radius < 0) throw new TilenavError(`expected a unit radius >= 0 in world units, got ${describe(radius)}`, { element: 'radius' });
  q.radius = radius;
  if (o.obstacles !== undefined && !Array.isArray(o.obstacles)) throw new TilenavError(`expected an array of obstacles, got ${describe(o.obstacles)}`, { element: 'obstacles' });
  if (o.obstacleOptions !== undefined) assertOptionsObject(o.obstacleOptions, 'obstacleOptions');
  if (anyAngle && (q.model.name.startsWith('hex') || q.model.name.startsWith('staggered'))) {
    throw new TilenavError(`any-angle paths need square cells; movement '${q.model.name}' steps between cell centres only`, { element: 'anyAngle' });
  }
  if (anyAngle && q.model.heuristic === 'chebyshev') {
    throw new TilenavError(`any-angle paths are measured along straight segments; movement '${q.model.name}' counts steps (a diagonal costs as much as a straight step)`, { element: 'anyAngle' });
  }
  q.goals = null;
  if (o.goals !== undefined) {
    const set = (q.goalSet ??= new GoalSet());
    readGoals(grid, o.goals, gx, gy, q.goalLayer, set);
    if (q.nearest) throw new TilenavError('nearest goes as near as it can to one goal; ask for several goals without it', { element: 'goals' });
    if (o.obstacles !== undefined && o.obstacles.length > 0) throw new TilenavError('obstacles are weighed along the way to one goal; ask for several goals without them', { element: 'goals' });
    if (algorithm === 'jps' || algorithm === 'jps+' || algorithm === 'hpa' || algorithm === 'subgoal') throw new TilenavError(`'${algorithm}' searches for one goal; with goals use algorithm 'auto' or 'astar'`, { element: 'algorithm' });
    q.goals = set;
  }
  return q;
}

/**
 * Reads findPath's `goals` into `set`: (gx, gy) when on the grid, then every entry, a cell index
 * or an [x, y] pair on the grid (on `layer`, the query's goal layer), or an [x, y, layer] triple
 * (a layer index or name). Throws a TilenavError naming `goals` for an empty list or an entry
 * that is none of these.
 */
function readGoals(grid: NavGrid, goals: unknown, gx: number, gy: number, layer: number, set: GoalSet): void {
  if (goals === null || typeof goals !== 'object' || typeof (goals as { length?: unknown }).length !== 'number') {
    throw new TilenavError(`expected an array of cell indices, [x, y] pairs or [x, y, layer] triples, got ${describe(goals)}`, { element: 'goals' });
  }
  const list = goals as ArrayLike<unknown>;
  if (list.length === 0) throw new TilenavError('expected at least one goal (cell indices, [x, y] pairs or [x, y, layer] triples); for (gx, gy) alone leave the option out', { element: 'goals' });
  set.clear();
  if (grid.inBounds(gx, gy)) set.add(gy * grid.width + gx, layer);
  for (let k = 0; k < list.length; k++) {
    const e = list[k];
    if (typeof e === 'number') {
      if (!Number.isInteger(e) || e < 0 || e >= grid.size) throw new TilenavError(`entry ${k} is ${describe(e)}, not a cell index 0..${grid.size - 1}`, { element: 'goals' });
      set.add(e, layer);
    } else if (Array.isArray(e) && (e.length === 2 || e.length === 3) && Number.isInteger(e[0]) && Number.isInteger(e[1])) {
      if (!grid.inBounds(e[0], e[1])) throw new TilenavError(`entry ${k} is (${e[0]}, ${e[1]}), outside the ${grid.width} x ${grid.height} grid`, { element: 'goals' });
      let l = layer;
      if (e.length === 3) {
        try {
          l = grid.layerIndex(e[2]);
        } catch (err) {
          if (!(err instanceof TilenavError)) throw err;
          throw new TilenavError(`entry ${k}: ${err.message.slice((err.element?.length ?? -2) + 2)}`, { element: 'goals' });
        }
      }
      set.add(e[1] * grid.width + e[0], l);
    } else throw new TilenavError(`entry ${k} is ${describe(e)}, not a cell index, an [x, y] pair of integers or an [x, y, layer] triple`, { element: 'goals' });
  }
}

/** An empty record for searches across links on `grid` (P padded cells, `stride` wide). @internal */
export function newLinkedSearch(grid: NavGrid, P: number, stride: number, bounds: LinkBounds): LinkedSearch {
  const none = null as unknown as LinkIndex;
  const model = grid.movementModel();
  return { size: P, stride, views: [], layerOf: new Uint8Array(grid.layers.length), slotOf: new Int8Array(grid.layers.length), index: none, bounds, model, steps: null as unknown as LinkedSearch['steps'], goalSlot: 0, nearest: false, best: -1, bestD: Infinity, goals: null, reached: -1, paused: false, minCost: 1 };
}

/** A fresh query record for {@link checkQuery}. @internal */
export function newQuery(grid: NavGrid): Query {
  const view = null as unknown as SearchView;
  return { layer: 0, goalLayer: 0, stayOnLayer: false, radius: 0, model: grid.movementModel(), algorithm: 'auto', maxIterations: Infinity, weight: 1, nearest: false, reachabilityCheck: true, view, goalView: view, overlay: false, out: undefined, goals: null, goalSet: null };
}

function pathResult(status: PathStatus, cells: Int32Array, cost: number, expanded: number, reached: number): PathResult {
  return { status, cells, cost, costMeasure: 'steps', expanded, reached, reason: null, avoided: true, points: null, layers: null };
}

function refusedResult(status: 'invalid-start' | 'invalid-goal', reason: PathRefusal): PathResult {
  const r = pathResult(status, EMPTY, Infinity, 0, -1);
  r.reason = reason;
  return r;
}

function checkFlag(v: unknown, name: string): boolean {
  if (v !== undefined && typeof v !== 'boolean') throw new TilenavError(`expected true or false, got ${describe(v)}`, { element: name });
  return v === true;
}

function checkInt(v: unknown, name: string): void {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new TilenavError(`expected an integer cell coordinate, got ${describe(v)}`, { element: name });
}

/** The Pathfinder a grid keeps for the free functions: its scratch is the grid's `search scratch`. */
class GridPathfinder implements Derived {
  readonly finder: Pathfinder;
  constructor(grid: NavGrid) {
    this.finder = new Pathfinder(grid);
  }
  memory(out: MemoryEntry[]): void {
    for (const e of this.finder.memory()) out.push(e);
  }
  release(): void {}
}

/** The Pathfinder `grid` keeps for the free {@link findPath} and {@link distanceMap} (made on first use). @internal */
export function pathfinderOf(grid: NavGrid): Pathfinder {
  if (!(grid instanceof NavGrid)) throw new TilenavError(`expected a NavGrid, got ${describe(grid)}`, { element: 'grid' });
  return grid.derived('pathfinder', (g) => new GridPathfinder(g)).finder;
}

/**
 * The cheapest path between two cells of `grid`: {@link Pathfinder.findPath} on the Pathfinder the
 * grid keeps for the free functions (made by the first call: its scratch, about 20 bytes per cell,
 * is listed by `grid.memory()`). Every call after the first costs what a kept Pathfinder's does.
 */
export function findPath(grid: NavGrid, sx: number, sy: number, gx: number, gy: number, options?: FindPathOptions): PathResult {
  return pathfinderOf(grid).findPath(sx, sy, gx, gy, options);
}

/**
 * The cost from the nearest of `sources` to every cell of `grid`: {@link Pathfinder.distanceMap}
 * on the Pathfinder the grid keeps for the free functions (see {@link findPath}).
 */
export function distanceMap(grid: NavGrid, sources: ArrayLike<number>, options?: DistanceMapOptions, out?: Float64Array): Float64Array {
  return pathfinderOf(grid).distanceMap(sources, options, out);
}

/**
 * The cells a unit on (sx, sy) can reach with `options.budget` movement points:
 * {@link Pathfinder.movementRange} on the Pathfinder the grid keeps for the free functions (see
 * {@link findPath}).
 */
export function movementRange(grid: NavGrid, sx: number, sy: number, options: RangeOptions): MovementRange {
  return pathfinderOf(grid).movementRange(sx, sy, options);
}
