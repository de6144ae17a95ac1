/**
 * The grid search facade: checks a query's arguments, picks the algorithm (A*, jump point search,
 * JPS+, the cluster hierarchy), runs it on the one search scratch it owns and wraps the outcome.
 * How the pieces fit and who keeps which scratch: docs/search.md.
 */
import { TilenavError, assertArrayLike, assertOptionsObject, describe } from '../errors.js';
import { NavGrid, type Derived, type MemoryEntry, type SearchView } from '../grid/navgrid.js';
import { GridAStar, NEAREST, PLAIN } from './algorithms/astar/astar.js';
import { AnyAngleFinder } from '../path/anyangle.js';
import { ObstacleOverlay, type DynamicObstacle, type DynamicObstacleOptions } from '../query/obstacles.js';
import { clearanceOf } from '../query/clearance.js';
import { componentsOf, type ComponentLabels } from './bounds/components.js';
import { dijkstra } from './algorithms/astar/dijkstra.js';
import { Hierarchy, type HierarchyOptions } from './algorithms/hierarchy/index.js';
import { JumpPointSearch } from './algorithms/jps/jps.js';
import { landmarksOf } from './bounds/landmarks/landmark-bounds.js';
import { SearchScratch, outcome, type SearchOutcome } from './kernel/scratch.js';
import { PathSearch, slotBytes, type SearchSlot } from './path-search.js';
import type { MovementModel, MovementName } from './movement.js';
import { padXY, paddedSize, strideOf, unpad } from '../grid/padded.js';
import type { DistanceMapOptions, FindPathOptions, HierarchyInfo, InternalPathOptions, PathRefusal, PathResult, PathStatus, SearchAlgorithm } from './result.js';

const EMPTY = new Int32Array(0);

/**
 * Weighted jump point search compares path costs to prune: with the dearest path (maxCost per step
 * over every cell) past 2^43 cheapest steps, a 64-bit sum keeps less than 1/256 of the cheapest
 * cost, cheap detours tie, and pruning picked dearer ways round (costs 1 and 1e20: 3e20 for A*'s
 * 2e20). Past that span a weighted layer is A*'s, which pays at most the rounding.
 */
const JPS_COST_SPAN = 2 ** 43;

/** What runs a query: picked by {@link choose} from the query and the layer, once per query. */
type Runner = 'octile' | 'generic' | 'jps' | 'jps+' | 'hpa';

/** A query after its options were checked: one object per Pathfinder, rewritten by every query. @internal */
export interface Query {
  layer: number;
  model: MovementModel;
  algorithm: SearchAlgorithm;
  maxIterations: number;
  weight: number;
  nearest: boolean;
  reachabilityCheck: boolean;
  /** The layer's view, or a copy with cells blocked (clearance, obstacles): then no JPS or hierarchy. */
  view: SearchView;
  overlay: boolean;
  out: Int32Array | undefined;
}

const ALGORITHMS: readonly SearchAlgorithm[] = ['astar', 'jps', 'jps+', 'hpa', 'auto'];

/**
 * Why jump point search cannot answer `q` on `view`, or null when it can. Pure: reads the query and
 * the layer's view only.
 */
function jpsRefusal(q: Query, view: SearchView): string | null {
  const name = q.model.name;
  if (q.algorithm === 'jps+' && name !== 'octile') return `movement '${name}' (it needs 'octile')`;
  if (name !== 'octile' && name !== 'cardinal') return `movement '${name}' (it needs 'octile' or 'cardinal')`;
  if (q.algorithm === 'jps+' && !view.uniform) return 'a layer whose costs differ from cell to cell';
  if (!view.uniform && !(view.maxCost * view.pass.length < view.minCost * JPS_COST_SPAN)) return `costs ${view.minCost} to ${view.maxCost}, too far apart for its exact comparisons on a layer of this size`;
  if (view.exits !== null) return 'a layer with one-way flags';
  if (q.weight !== 1) return `weight ${q.weight} (it needs 1)`;
  if (q.nearest || q.overlay) return 'nearest mode, a unit radius or obstacles';
  return null;
}

/**
 * The algorithm that answers `q`: the one asked for, or for `auto` jump point search where it
 * applies (on weighted cardinal layers only once they have landmark bounds: alone it gained too
 * little there) and A* elsewhere. Throws when an algorithm asked for by name cannot run.
 * @param jpsWhy {@link jpsRefusal} of the query, computed once by the caller.
 * @param bounded whether the layer has landmark tables.
 */
function choose(q: Query, view: SearchView, jpsWhy: string | null, bounded: boolean): Runner {
  const astar = aStarLoop(q, view);
  switch (q.algorithm) {
    case 'astar':
      return astar;
    case 'hpa':
      if (q.nearest || q.overlay) throw new TilenavError("the hierarchy does not support nearest, a unit radius or obstacles; use algorithm 'auto' or 'astar'", { element: 'algorithm' });
      if (view.exits !== null) throw new TilenavError("the hierarchy cannot search a layer with one-way flags; use algorithm 'auto' or 'astar'", { element: 'algorithm' });
      return 'hpa';
    case 'jps':
    case 'jps+':
      if (jpsWhy !== null) throw new TilenavError(`jump point search cannot run on ${jpsWhy}; use algorithm 'auto' or 'astar'`, { element: 'algorithm' });
      return q.algorithm;
    default:
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
  private jps: JumpPointSearch | undefined;
  private anyAngleFinder: AnyAngleFinder | undefined;
  private readonly overlays: (ObstacleOverlay | undefined)[] = [];
  private readonly hierarchies = new Map<string, Hierarchy>();
  private readonly query: Query;
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
  }

  /**
   * Bytes of this Pathfinder's own scratch and of the idle slots it keeps for {@link begin}'s
   * searches (not the grid's derived data, nor the slots running searches hold: see
   * {@link PathSearch.bytes}).
   */
  get bytes(): number {
    let b = this.scratch.bytes;
    for (const slot of this.idle) b += slotBytes(slot);
    return b;
  }

  /**
   * The cheapest path from cell (sx, sy) to cell (gx, gy), or as near as it gets with `nearest`,
   * for a unit of `radius`, around `obstacles`, any-angle with `anyAngle` (see
   * {@link FindPathOptions}). Cells outside the grid or blocked give `invalid-start` /
   * `invalid-goal` with a `reason`; a goal in another component than the start gives `no-path`
   * with `expanded` 0, without a search. A caller's mistake (coordinates that are not integers,
   * an unknown layer, movement or algorithm, an option of the wrong type) throws a TilenavError
   * naming the argument.
   */
  findPath(sx: number, sy: number, gx: number, gy: number, options: FindPathOptions = {}): PathResult {
    const o = options as InternalPathOptions;
    const q = this.check(sx, sy, gx, gy, o);
    const grid = this.grid;
    const radius = o.radius ?? 0;
    const obstacles = o.obstacles;
    const anyAngle = o.anyAngle === true;
    const view = this.frame(q, radius, o.view);
    if (q.nearest) {
      gx = clampTo(grid.width, gx);
      gy = clampTo(grid.height, gy);
    }
    this.traced = -1;
    const refused = this.refusal(sx, sy, gx, gy, q, radius);
    if (refused !== null) return refused;
    if (anyAngle && !q.nearest && (obstacles === undefined || obstacles.length === 0)) return this.anyAngle(sx, sy, gx, gy, q, 0);
    let r: PathResult | null = null;
    let expanded = 0;
    if (obstacles !== undefined && obstacles.length > 0) {
      // Around the obstacles first; through them when that is the only way.
      const overlay = (this.overlays[q.layer] ??= new ObstacleOverlay(grid, q.layer));
      q.view = overlay.stamp(obstacles, sx, sy, gx, gy, o.obstacleOptions, view);
      q.overlay = true;
      const around = this.searchOnce(sx, sy, gx, gy, q, false);
      q.view = view;
      q.overlay = view !== grid.searchView(q.layer);
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
   * same mistake), answered a slice at a time by {@link PathSearch.step}. It runs A* (`auto` and
   * `astar`; `jps`, `jps+` and `hpa` throw a TilenavError naming `algorithm`, `anyAngle` one naming
   * `anyAngle`), so its answer is the one `findPath` gives with `algorithm: 'astar'`: the same
   * cells, cost and `expanded` (and the same cost as every exact algorithm). `nearest`, `radius`,
   * `obstacles` (read when the search starts, and again if it restarts), `weight`,
   * `maxIterations` (expansions in all, over every step), `reachabilityCheck` and `out` work as in
   * findPath. Answers that need no search (an invalid start or goal, start = goal, a goal the
   * component labels rule out) are ready at once in {@link PathSearch.result}.
   *
   * Several searches may run at once, each on its own search slot (its own scratch: about 20
   * bytes per padded cell, plus 20 per queued node, plus 4 per padded cell with `obstacles`),
   * borrowed from this Pathfinder when it begins and given back when it finishes or is
   * cancelled; the Pathfinder keeps two idle slots for the next searches. A change to the grid
   * between two steps makes the next step start the search again (see {@link PathSearch.step}).
   */
  begin(sx: number, sy: number, gx: number, gy: number, options: FindPathOptions = {}): PathSearch {
    const q = checkQuery(this.grid, newQuery(this.grid), sx, sy, gx, gy, options);
    if (q.algorithm === 'jps' || q.algorithm === 'jps+' || q.algorithm === 'hpa') {
      throw new TilenavError(`a search spread over frames runs A*; algorithm '${q.algorithm}' runs in one call only: use 'auto' or 'astar' with begin, or findPath`, { element: 'algorithm' });
    }
    if (options.anyAngle === true) throw new TilenavError('a search spread over frames returns grid paths; for an any-angle path call findPath with anyAngle', { element: 'anyAngle' });
    return new PathSearch(this, q, sx, sy, gx, gy, options);
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
    into[0] = q.nearest ? clampTo(this.grid.width, gx) : gx;
    into[1] = q.nearest ? clampTo(this.grid.height, gy) : gy;
    return into;
  }

  /** Which A* loop answers `q` on its view (see {@link aStarLoop}). @internal */
  aStarLoop(q: Query): 'octile' | 'generic' {
    return aStarLoop(q, q.view);
  }

  /**
   * Points `q.view` at what the query searches (the layer's view, `given`, or for a unit of
   * `radius` its clearance view) and sets `q.overlay`; returns that view. @internal
   */
  frame(q: Query, radius: number, given?: SearchView): SearchView {
    const grid = this.grid;
    let view = given ?? grid.searchView(q.layer);
    if (radius > 0) view = clearanceOf(grid, q.layer, radius).view(radius);
    q.view = view;
    q.overlay = view !== grid.searchView(q.layer);
    return view;
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
    const grid = this.grid;
    const pass = q.view.pass;
    const why = (x: number, y: number): PathRefusal | null => {
      if (!grid.inBounds(x, y)) return 'outside';
      if (pass[padXY(this.stride, x, y)] > 0) return null;
      return radius > 0 && grid.isWalkable(x, y, q.layer) ? 'unit-does-not-fit' : 'blocked';
    };
    const s = why(sx, sy);
    if (s !== null) return refusedResult('invalid-start', s);
    const g = q.nearest ? null : why(gx, gy);
    if (g !== null) return refusedResult('invalid-goal', g);
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
      return this.run(padXY(this.stride, sx, sy), goal, gy * this.grid.width + gx, q, q.view, q.view.pass[goal] <= 0);
    } finally {
      q.nearest = saved;
    }
  }

  /**
   * The answer a search on the query's view needs not be run for: start = goal (`found`, one
   * cell), a blocked goal when not going as near as it can (`invalid-goal`), and with `reach` a
   * walkable goal the component labels put out of reach (`no-path`, as A* gets from {@link run});
   * else null. @internal
   */
  opening(sx: number, sy: number, gx: number, gy: number, q: Query, nearest: boolean, reach: boolean): PathResult | null {
    const start = padXY(this.stride, sx, sy);
    const goal = padXY(this.stride, gx, gy);
    const goalCell = gy * this.grid.width + gx;
    if (start === goal) return pathResult('found', Int32Array.of(goalCell), 0, 0, goalCell);
    const blockedGoal = q.view.pass[goal] <= 0;
    if (blockedGoal && !nearest) return refusedResult('invalid-goal', 'blocked');
    if (reach && !nearest && !blockedGoal && this.outOfReach(q, start, goal)) return pathResult('no-path', EMPTY, Infinity, 0, -1);
    return null;
  }

  private run(start: number, goal: number, goalCell: number, q: Query, view: SearchView, blockedGoal: boolean): PathResult {
    const grid = this.grid;
    // 'auto' on a layer whose costs differ reads the landmark bounds (bounds/landmarks/landmark-bounds.ts) when the layer
    // has them, and otherwise counts its work towards building them.
    const plainAuto = q.algorithm === 'auto' && !q.nearest && !q.overlay && !view.uniform && q.weight === 1 && view.exits === null;
    const marks = plainAuto && (q.model.name === 'octile' || q.model.name === 'cardinal') ? landmarksOf(grid) : null;
    const tables = marks === null ? null : marks.tables(q.layer);
    const jpsWhy = q.algorithm === 'astar' ? 'A* asked for' : jpsRefusal(q, view);
    const runner = choose(q, view, jpsWhy, tables !== null);
    if (runner === 'hpa') return this.hierarchical(q, start, goal, goalCell);
    if (!q.nearest && !blockedGoal && this.outOfReach(q, start, goal)) return pathResult('no-path', EMPTY, Infinity, 0, -1);
    const out = this.last;
    const hs = view.minCost * q.weight;
    const cardinal = q.model.name === 'cardinal';
    const jps = runner === 'jps' || runner === 'jps+' ? this.jumpPointSearch() : null;
    if (jps !== null) jps.search(view, q.layer, start, goal, cardinal, q.maxIterations, runner === 'jps+', out, tables);
    else if (runner === 'octile') this.astar.octile(view, start, goal, hs, q.maxIterations, out);
    else this.astar.generic(view, q.model, start, goal, hs, q.maxIterations, out, q.nearest ? NEAREST : PLAIN);
    // Work in Dijkstra steps, only where jump point search reads the tables: an expanded jump point costs about four.
    if (marks !== null && (tables === null || !tables.complete) && jpsWhy === null) marks.charge(q.layer, jps !== null ? 4 * out.expanded : out.expanded);
    this.traced = this.scratch.generation;
    return this.answer(out, this.astar, jps, cardinal, q, goal, goalCell);
  }

  /**
   * The answer of a grid search that ended as `out` says, read from `astar`'s scratch (or, for
   * jump point search, `jps`'s paths, on this Pathfinder's scratch): found, partial with
   * `q.nearest`, limit-reached or no-path. Writes the path into `q.out` when it fits. @internal
   */
  answer(out: SearchOutcome, astar: GridAStar, jps: JumpPointSearch | null, cardinal: boolean, q: Query, goal: number, goalCell: number): PathResult {
    const scratch = astar.scratch;
    if (out.reached) {
      const cells = jps !== null ? jps.reconstruct(goal, cardinal, q.out) : this.cellPath(scratch, goal, q.out);
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
   */
  prepare(options: { layer?: number | string; algorithm?: SearchAlgorithm; movement?: MovementName; landmarks?: number } = {}): void {
    assertOptionsObject(options, 'options');
    const layer = this.grid.layerIndex(options.layer ?? 0);
    const model = this.grid.movementModel(options.movement);
    componentsOf(this.grid).labels(layer, model, this.grid.searchView(layer).pass, this.scratch);
    const algorithm = options.algorithm ?? 'auto';
    if (!ALGORITHMS.includes(algorithm)) throw new TilenavError(`expected 'astar', 'jps', 'jps+', 'hpa' or 'auto', got ${describe(algorithm)}`, { element: 'algorithm' });
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
   * Whether the component labels (built on first use, kept by the grid) put the padded cells
   * `start` and `goal` apart: then no search can reach the goal.
   */
  private outOfReach(q: Query, start: number, goal: number): boolean {
    if (!q.reachabilityCheck) return false;
    return componentsOf(this.grid).separated(q.layer, q.model, this.grid.searchView(q.layer).pass, start, goal, this.scratch);
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
    return dist;
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
    const stamp = this.scratch.stamp;
    let count = 0;
    for (let y = 0, i = 0; y < grid.height; y++) {
      let p = padXY(this.stride, 0, y);
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
  q.model = grid.movementModel(o.movement);
  const algorithm = o.algorithm ?? 'auto';
  if (!ALGORITHMS.includes(algorithm)) throw new TilenavError(`expected 'astar', 'jps', 'jps+', 'hpa' or 'auto', got ${describe(algorithm)}`, { element: 'algorithm' });
  q.algorithm = algorithm;
  const maxIterations = o.maxIterations ?? Infinity;
  if (typeof maxIterations !== 'number' || !(maxIterations >= 0)) throw new TilenavError(`expected a number >= 0, got ${describe(maxIterations)}`, { element: 'maxIterations' });
  q.maxIterations = maxIterations;
  const weight = o.weight ?? 1;
  if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) throw new TilenavError(`expected a finite number >= 0, got ${describe(weight)}`, { element: 'weight' });
  q.weight = weight;
  q.nearest = checkFlag(o.nearest, 'nearest');
  q.reachabilityCheck = o.reachabilityCheck === undefined ? true : checkFlag(o.reachabilityCheck, 'reachabilityCheck');
  checkFlag(o.anyAngle, 'anyAngle');
  if (o.out !== undefined && !(o.out instanceof Int32Array)) throw new TilenavError(`expected an Int32Array, got ${describe(o.out)}`, { element: 'out' });
  q.out = o.out;
  const radius = o.radius ?? 0;
  if (typeof radius !== 'number' || !Number.isFinite(radius) || radius < 0) throw new TilenavError(`expected a unit radius >= 0 in world units, got ${describe(radius)}`, { element: 'radius' });
  if (o.obstacles !== undefined && !Array.isArray(o.obstacles)) throw new TilenavError(`expected an array of obstacles, got ${describe(o.obstacles)}`, { element: 'obstacles' });
  if (o.obstacleOptions !== undefined) assertOptionsObject(o.obstacleOptions, 'obstacleOptions');
  if (o.anyAngle === true && (q.model.name.startsWith('hex') || q.model.name.startsWith('staggered'))) {
    throw new TilenavError(`any-angle paths need square cells; movement '${q.model.name}' steps between cell centres only`, { element: 'anyAngle' });
  }
  return q;
}

/** A fresh query record for {@link checkQuery}. @internal */
export function newQuery(grid: NavGrid): Query {
  return { layer: 0, model: grid.movementModel(), algorithm: 'auto', maxIterations: Infinity, weight: 1, nearest: false, reachabilityCheck: true, view: null as unknown as SearchView, overlay: false, out: undefined };
}

/** `v` moved into 0 .. size - 1: an off-grid goal stands for the nearest cell of the grid with `nearest`. */
function clampTo(size: number, v: number): number {
  return Math.min(size - 1, Math.max(0, v));
}

function pathResult(status: PathStatus, cells: Int32Array, cost: number, expanded: number, reached: number): PathResult {
  return { status, cells, cost, costMeasure: 'steps', expanded, reached, reason: null, avoided: true, points: null };
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
    out.push({ name: 'search scratch', layer: null, bytes: this.finder.bytes });
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
