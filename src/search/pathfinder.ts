/**
 * The grid search facade: checks a query's arguments, picks the algorithm (A*, jump point search,
 * JPS+, the cluster hierarchy), runs it on the one search scratch it owns and wraps the outcome.
 * How the pieces fit and who keeps which scratch: docs/search.md.
 */
import { TilenavError, assertArrayLike, assertOptionsObject, describe } from '../errors.js';
import { NavGrid, type SearchView } from '../grid/navgrid.js';
import { GridAStar } from './astar.js';
import { componentsOf } from './components.js';
import { dijkstra } from './dijkstra.js';
import { Hierarchy, type HierarchyOptions } from './hierarchy/index.js';
import { JumpPointSearch } from './jps/jps.js';
import { landmarksOf } from './landmarks.js';
import { SearchScratch, outcome } from './kernel.js';
import { movementModel, type MovementModel, type MovementName } from './movement.js';
import { padXY, paddedSize, strideOf, unpad } from '../grid/padded.js';
import type { DistanceMapOptions, FindPathOptions, HierarchyInfo, PathResult, PathStatus, SearchAlgorithm, SearchOptions, SearchResult, SearchStatus } from './result.js';

const EMPTY = new Int32Array(0);

/**
 * Weighted jump point search compares path costs to prune: with the dearest path (maxCost per step
 * over every cell) past 2^43 cheapest steps, a 64-bit sum keeps less than 1/256 of the cheapest
 * cost, cheap detours tie, and pruning picked dearer ways round (costs 1 and 1e20: 3e20 for A*'s
 * 2e20). Past that span a weighted layer is A*'s, which pays at most the rounding.
 */
const JPS_COST_SPAN = 2 ** 43;

/**
 * Searches one grid. Holds the search scratch (g, parent, generation stamps, heap) for the grid's
 * size and reuses it across queries: nothing is cleared between queries and nothing is allocated
 * per node. The grid is only read, so several Pathfinders (one per worker) may share one grid.
 *
 * Scratch: about 20 bytes per cell (cost, parent, stamp and heap position, over the grid and its
 * one-cell border), plus 20 per queued cell as the open list grows. Create one per grid (and per
 * worker) and keep it: the free functions {@link findPath} and {@link distanceMap} allocate a new
 * one on every call. A goal the start cannot reach is answered from component labels without a
 * search (see {@link FindPathOptions.reachabilityCheck}): 4 bytes per cell per layer and
 * connectivity queried, kept with the grid and shared by its Pathfinders.
 */
export class Pathfinder {
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
  private readonly hierarchies = new Map<string, Hierarchy>();

  constructor(grid: NavGrid) {
    if (!(grid instanceof NavGrid)) throw new TilenavError(`expected a NavGrid, got ${describe(grid)}`, { element: 'grid' });
    this.grid = grid;
    this.stride = strideOf(grid.width);
    this.scratch = new SearchScratch(paddedSize(grid.width, grid.height));
    this.astar = new GridAStar(this.scratch, grid.width);
  }

  /**
   * The cheapest path from (sx, sy) to (gx, gy). Coordinates outside the grid or on a blocked cell
   * give status `invalid-start` / `invalid-goal`; coordinates that are not integers throw. A goal in
   * another component than the start gives `no-path` with `expanded` 0, without a search (see
   * {@link FindPathOptions.reachabilityCheck}).
   */
  findPath(sx: number, sy: number, gx: number, gy: number, options: FindPathOptions = {}): PathResult {
    const r = this.search(sx, sy, gx, gy, options);
    // Without `nearest` the search never answers 'partial'.
    return result(r.status as PathStatus, r.cells, r.cost, r.expanded);
  }

  /**
   * findPath with two extensions: `nearest` (the path to the reachable cell nearest the goal when
   * the goal is out of reach) and an overlay `view`. Nearest mode runs the generic A* loop, which
   * tracks the closed cell nearest the goal.
   */
  search(sx: number, sy: number, gx: number, gy: number, options: SearchOptions = {}): SearchResult {
    const grid = this.grid;
    if (options === null || typeof options !== 'object') throw new TilenavError(`expected an options object, got ${describe(options)}`, { element: 'options' });
    // A unit size is not a search option: ignoring it would route a wide unit through gaps it cannot pass.
    if ((options as { radius?: unknown }).radius !== undefined) throw new TilenavError("findPath has no radius: search for a unit of some size with ClearanceMap.findPath (tilenav/query)", { element: 'radius' });
    checkInt(sx, 'start x');
    checkInt(sy, 'start y');
    checkInt(gx, 'goal x');
    checkInt(gy, 'goal y');
    const layer = grid.layerIndex(options.layer ?? 0);
    if (options.out !== undefined && !(options.out instanceof Int32Array)) throw new TilenavError(`expected an Int32Array, got ${describe(options.out)}`, { element: 'out' });
    const model = movementModel(options.movement ?? 'octile');
    const maxIterations = options.maxIterations ?? Infinity;
    if (typeof maxIterations !== 'number' || !(maxIterations >= 0)) throw new TilenavError(`expected a number >= 0, got ${describe(maxIterations)}`, { element: 'maxIterations' });
    const weight = options.weight ?? 1;
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) throw new TilenavError(`expected a finite number >= 0, got ${describe(weight)}`, { element: 'weight' });
    this.traced = -1;
    const nearest = options.nearest === true;

    const base = grid.searchView(layer);
    const view = options.view ?? base;
    if (view.pass.length !== base.pass.length) throw new TilenavError(`expected a view of ${base.pass.length} padded cells, got ${view.pass.length}`, { element: 'view' });
    const start = padXY(this.stride, sx, sy);
    const goal = padXY(this.stride, gx, gy);
    if (!grid.inBounds(sx, sy) || view.pass[start] <= 0) return searchResult('invalid-start', EMPTY, Infinity, 0, -1);
    if (!grid.inBounds(gx, gy) || (!nearest && view.pass[goal] <= 0)) return searchResult('invalid-goal', EMPTY, Infinity, 0, -1);
    const goalCell = gy * grid.width + gx;
    if (start === goal) return searchResult('found', Int32Array.of(goalCell), 0, 0, goalCell);

    const algorithm = options.algorithm ?? 'auto';
    // Nearest mode and overlay views are A*'s: 'auto' keeps them there, the others refuse them.
    const plain = !nearest && options.view === undefined;
    if (algorithm === 'hpa') {
      if (!plain) throw new TilenavError("the hierarchy does not support nearest or an overlay view; use algorithm 'auto' or 'astar'", { element: 'algorithm' });
      const r = this.hierarchical(layer, model, start, goal, options);
      return searchResult(r.status, r.cells, r.cost, r.expanded, r.status === 'found' ? goalCell : -1);
    }
    // 'auto' on a layer whose costs differ reads the landmark bounds (landmarks.ts) when the layer
    // has them, and otherwise counts its work towards building them.
    const marks = algorithm === 'auto' && plain && !view.uniform && weight === 1 && view.exits === null && (model.name === 'octile' || model.name === 'cardinal') ? landmarksOf(grid) : null;
    const tables = marks === null ? null : marks.tables(layer);
    const jps = algorithm !== 'astar' && this.jpsApplies(algorithm, view, model, weight, plain, tables !== null) ? this.jumpPointSearch() : null;
    if (!nearest && this.outOfReach(layer, model, start, goal, options)) return searchResult('no-path', EMPTY, Infinity, 0, -1);
    const cardinal = model.name === 'cardinal';
    const hs = view.minCost * weight;
    const out = this.last;
    if (jps !== null) jps.search(view, layer, start, goal, cardinal, maxIterations, algorithm === 'jps+', out, tables);
    else if (!nearest && model.name === 'octile' && view.exits === null) this.astar.octile(view, start, goal, hs, maxIterations, out);
    else this.astar.generic(view, model, start, goal, hs, maxIterations, Infinity, false, nearest, out);
    // Work in Dijkstra steps: an expanded jump point costs about four.
    // Only where jump point search would read them (not past its cost span).
    if (marks !== null && (tables === null || !tables.complete) && (jps !== null || this.jpsApplies(algorithm, view, model, weight, plain, true))) marks.charge(layer, jps !== null ? 4 * out.expanded : out.expanded);
    this.traced = this.scratch.generation;
    if (out.reached) {
      const cells = jps !== null ? jps.reconstruct(goal, cardinal, options.out) : this.cellPath(goal, options.out);
      return searchResult('found', cells, this.scratch.g[goal], out.expanded, goalCell);
    }
    const best = this.astar.best;
    if (nearest && best !== start) return searchResult('partial', this.cellPath(best), this.scratch.g[best], out.expanded, unpad(grid.width, best));
    return searchResult(out.limited ? 'limit-reached' : 'no-path', EMPTY, Infinity, out.expanded, -1);
  }

  /**
   * Builds what `algorithm` needs on `layer` before the first query (the padded search view, the
   * component labels of `movement`; for JPS its walkability bit planes; for `auto` on a layer whose
   * costs differ, with octile or cardinal movement, the landmark tables), so that query costs no
   * more than the others.
   *
   * `landmarks`: how many landmark tables `auto` keeps for the layer's weighted searches (default
   * 8; 0 turns them off and frees them). They make weighted searches several times faster (the
   * path is the same optimal one), cost 4 bytes per cell per landmark, shared by the grid's
   * Pathfinders, and take about one Dijkstra search of the layer each to build (a 768 x 768 map:
   * 0.5-1.1 s for 8; 1024 x 1024: 1.3-2 s). Without `prepare` the searches build them themselves
   * once they have done about half as much work as that, a slice per search (an eighth of one
   * landmark's build), so no search pauses for long; `prepare` at load time has them all from the
   * first query.
   */
  prepare(options: { layer?: number | string; algorithm?: SearchAlgorithm; movement?: MovementName; landmarks?: number } = {}): void {
    assertOptionsObject(options, 'options');
    const layer = this.grid.layerIndex(options.layer ?? 0);
    const model = movementModel(options.movement ?? 'octile');
    componentsOf(this.grid).labels(layer, model, this.grid.searchView(layer).pass, this.scratch);
    const algorithm = options.algorithm ?? 'auto';
    if (options.landmarks !== undefined || algorithm === 'auto') {
      // Built only where 'auto' reads them: weighted jump point search's layers and movements.
      const view = this.grid.searchView(layer);
      landmarksOf(this.grid).prepare(layer, options.landmarks, this.jpsApplies('auto', view, model, 1, true, true) && !view.uniform);
    }
    if (algorithm === 'astar') return;
    if (algorithm === 'hpa') {
      this.hierarchy(layer, options.movement);
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
    const model = movementModel(movement);
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
   * Whether the component labels (built on first use, shared by the grid's Pathfinders) put the
   * padded cells `start` and `goal` apart: then no search can reach the goal.
   */
  private outOfReach(layer: number, model: MovementModel, start: number, goal: number, options: FindPathOptions): boolean {
    if (options.reachabilityCheck === false) return false;
    return componentsOf(this.grid).separated(layer, model, this.grid.searchView(layer).pass, start, goal, this.scratch);
  }

  private jumpPointSearch(): JumpPointSearch {
    return (this.jps ??= new JumpPointSearch(this.grid, this.scratch));
  }

  private hierarchical(layer: number, model: MovementModel, start: number, goal: number, options: FindPathOptions): PathResult {
    const view = this.grid.searchView(layer);
    if (view.exits !== null) throw new TilenavError('the hierarchy cannot search a layer with one-way flags; use algorithm \'auto\' or \'astar\'', { element: 'algorithm' });
    const h = this.hierarchyOf(layer, model.name);
    if (this.outOfReach(layer, model, start, goal, options)) return result('no-path', EMPTY, Infinity, 0);
    const stats = { expanded: 0 };
    const refined = h.findPath(start, goal, stats);
    if (refined === null) return result('no-path', EMPTY, Infinity, stats.expanded);
    return result('found', refined.cells, refined.cost, stats.expanded);
  }

  /** Whether the query goes to jump point search; throws when `jps` was asked for and cannot run. */
  private jpsApplies(algorithm: SearchAlgorithm, view: SearchView, model: MovementModel, weight: number, plain: boolean, bounded: boolean): boolean {
    if (algorithm !== 'jps' && algorithm !== 'jps+' && algorithm !== 'auto') throw new TilenavError(`expected 'astar', 'jps', 'jps+', 'hpa' or 'auto', got ${describe(algorithm)}`, { element: 'algorithm' });
    const why =
      algorithm === 'jps+' && model.name !== 'octile'
        ? `movement '${model.name}' (it needs 'octile')`
        : model.name !== 'octile' && model.name !== 'cardinal'
        ? `movement '${model.name}' (it needs 'octile' or 'cardinal')`
        : algorithm === 'jps+' && !view.uniform
          ? 'a layer whose costs differ from cell to cell'
          : !view.uniform && !(view.maxCost * view.pass.length < view.minCost * JPS_COST_SPAN)
            ? `costs ${view.minCost} to ${view.maxCost}, too far apart for its exact comparisons on a layer of this size`
            : view.exits !== null
            ? 'a layer with one-way flags'
            : weight !== 1
              ? `weight ${weight} (it needs 1)`
              : !plain
                ? 'nearest mode or an overlay view'
                : null;
    // Weighted cardinal layers stay on A* under 'auto' until they have landmark bounds: weighted JPS
    // alone measured no steadier gain there (bench/weighted.ts: 0.6-2.6x), with them 1.9-5.9x.
    if (why === null) return algorithm !== 'auto' || view.uniform || model.name === 'octile' || bounded;
    if (algorithm !== 'auto') throw new TilenavError(`jump point search cannot run on ${why}; use algorithm 'auto' or 'astar'`, { element: 'algorithm' });
    return false;
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
    const model = movementModel(options.movement ?? 'octile');
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
   * into `out[i]` for every cell it expanded (closed), 2 for every cell left on the open list, 0
   * elsewhere, and returns the number of 1s. Reads the search's generation stamps, so it costs one
   * pass over the grid and nothing during the search. After a query that ran no search (start ==
   * goal, invalid start or goal) it writes all zeros.
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

  /** The A* path ending at padded cell `last` as cell indices, start first. */
  private cellPath(last: number, out?: Int32Array): Int32Array {
    const width = this.grid.width;
    return this.scratch.path(last, (p) => unpad(width, p), out);
  }
}

function result(status: PathStatus, cells: Int32Array, cost: number, expanded: number): PathResult {
  return { status, cells, cost, expanded };
}

function searchResult(status: SearchStatus, cells: Int32Array, cost: number, expanded: number, reached: number): SearchResult {
  return { status, cells, cost, expanded, reached };
}

function checkInt(v: unknown, name: string): void {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new TilenavError(`expected an integer cell coordinate, got ${describe(v)}`, { element: name });
}

/**
 * The cheapest path between two cells of `grid`: {@link Pathfinder.findPath} on a Pathfinder made
 * for this call. That allocates the search scratch, about 20 bytes per cell: pass queries to one
 * kept `new Pathfinder(grid)` to reuse it across queries.
 */
export function findPath(grid: NavGrid, sx: number, sy: number, gx: number, gy: number, options?: FindPathOptions): PathResult {
  return new Pathfinder(grid).findPath(sx, sy, gx, gy, options);
}

/**
 * The cost from the nearest of `sources` to every cell of `grid`: {@link Pathfinder.distanceMap}
 * on a Pathfinder made for this call. That allocates the search scratch, about 20 bytes per cell:
 * call `distanceMap` on one kept `new Pathfinder(grid)` to reuse it across queries.
 */
export function distanceMap(grid: NavGrid, sources: ArrayLike<number>, options?: DistanceMapOptions, out?: Float64Array): Float64Array {
  return new Pathfinder(grid).distanceMap(sources, options, out);
}
