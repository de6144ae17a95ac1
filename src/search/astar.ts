import { TilenavError, describe } from '../errors.js';
import type { NavGrid, SearchView } from '../grid/navgrid.js';
import { FLAG_NO_EXIT_EAST, FLAG_NO_EXIT_NORTH, FLAG_NO_EXIT_SOUTH, FLAG_NO_EXIT_WEST } from '../grid/navgrid.js';
import { NodeHeap } from './heap.js';
import { axialDistance, movementModel, type MovementModel, type MovementName } from './movement.js';
import { JumpPointSearch } from './jps.js';
import { Hierarchy, type HierarchyOptions } from './hierarchy/index.js';
import { adaptJumpPointSearch, sharedScratch } from './jps/jps.js';

/**
 * - `found`: `cells` runs from start to goal, `cost` is its cost.
 * - `no-path`: the goal cannot be reached; `cells` is empty, `cost` Infinity.
 * - `limit-reached`: `maxIterations` expansions ran out before the search ended.
 * - `invalid-start` / `invalid-goal`: that cell is outside the grid or blocked on the layer.
 * - `partial` (only from {@link Pathfinder.search} with `nearest`): the goal is out of reach and
 *   `cells` ends at the reached cell nearest to it.
 */
export type SearchStatus = 'found' | 'no-path' | 'limit-reached' | 'invalid-start' | 'invalid-goal' | 'partial';

export interface PathResult {
  status: SearchStatus;
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
   * - `jps`: jump point search; exact, for layers whose walkable cells all cost the same and carry
   *   no one-way flags, with `octile` or `cardinal` movement and weight 1. Throws otherwise.
   * - `jps+`: jump point search reading precomputed jump distances (JPS+), `octile` only, same
   *   conditions as `jps`. The table (16 bytes per cell) is built by the first such query or by
   *   `prepare`, and any change to the layer drops it until the next `jps+` query rebuilds it:
   *   for maps that rarely change.
   * - `hpa`: a cluster hierarchy for big maps (see {@link Pathfinder.hierarchy}); not exact (a few
   *   percent above optimal on the Moving AI maps), `octile` or `cardinal`, any costs, no one-way
   *   flags. Built on the first such query per layer and movement. `maxIterations`, `weight` and
   *   `out` do not apply to it; `expanded` counts abstract nodes.
   * - `auto`: `jps` where it applies, `astar` elsewhere.
   * @default 'auto'
   */
  algorithm?: SearchAlgorithm;
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
export interface SearchResult extends PathResult {
  reached: number;
}

/** The defaults of {@link FindPathOptions}. */
export const DEFAULT_FIND_PATH_OPTIONS = Object.freeze({ layer: 0, movement: 'octile' as MovementName, maxIterations: Infinity, weight: 1, algorithm: 'auto' as SearchAlgorithm });

export interface DistanceMapOptions {
  layer?: number | string;
  /** @default 'octile' */
  movement?: MovementName;
  /** Cells costlier than this to reach are left at Infinity (the search stops there). @default Infinity */
  maxCost?: number;
}

const EMPTY = new Int32Array(0);
const SQRT2 = Math.SQRT2;
const K = SQRT2 - 1;
/** Octile directions in the order N E S W NE SE SW NW. */
const DX = Int32Array.of(0, 1, 0, -1, 1, 1, -1, -1);
const DY = Int32Array.of(-1, 0, 1, 0, -1, 1, 1, -1);

/** Per-model step tables in padded index deltas. */
interface StepTable {
  count: number;
  delta: Int32Array[];
  length: Float64Array[];
  sideA: Int32Array[];
  sideB: Int32Array[];
  diagonal: Uint8Array[];
  exitMask: Uint8Array[];
}

/**
 * Searches one grid. Holds the search scratch (g, parent, generation stamps, heap) for the grid's
 * size and reuses it across queries: nothing is cleared between queries and nothing is allocated
 * per node. The grid is only read, so several Pathfinders (one per worker) may share one grid.
 *
 * Scratch: 24 bytes per cell, plus up to 12 per cell of heap as the open list grows.
 */
export class Pathfinder {
  readonly grid: NavGrid;
  private readonly stride: number;
  /** @internal shared with the jump point search */
  readonly g: Float64Array;
  /** @internal shared with the jump point search */
  readonly parent: Int32Array;
  /** @internal shared with the jump point search */
  readonly stamp: Uint32Array;
  /** @internal shared with the jump point search */
  readonly heap: NodeHeap;
  private gen = 0;
  /** The generation of the last search whose stamps {@link expandedInto} reports; -1 when none. */
  private traced = -1;
  /** The closed cell nearest the goal in the last tracking search (padded index). */
  private best = -1;
  private readonly tables = new Map<MovementName, StepTable>();
  /** Padded index deltas N E S W NE SE SW NW. */
  private readonly octileDelta: Int32Array;
  private jps: JumpPointSearch | undefined;
  private readonly hierarchies = new Map<string, Hierarchy>();

  constructor(grid: NavGrid) {
    this.grid = grid;
    this.stride = grid.width + 2;
    const n = this.stride * (grid.height + 2);
    this.g = new Float64Array(n);
    this.parent = new Int32Array(n);
    this.stamp = new Uint32Array(n);
    this.heap = new NodeHeap(n);
    const W = this.stride;
    this.octileDelta = Int32Array.of(-W, 1, W, -1, 1 - W, 1 + W, W - 1, -W - 1);
  }

  /**
   * The cheapest path from (sx, sy) to (gx, gy). Coordinates outside the grid or on a blocked cell
   * give status `invalid-start` / `invalid-goal`; coordinates that are not integers throw.
   */
  findPath(sx: number, sy: number, gx: number, gy: number, options: FindPathOptions = {}): PathResult {
    const r = this.search(sx, sy, gx, gy, options);
    return result(r.status, r.cells, r.cost, r.expanded);
  }

  /**
   * findPath with two extensions: `nearest` (seed 001's nearest-reachable A*) and an overlay
   * `view`. Nearest mode runs the generic loop, which tracks the closed cell nearest the goal.
   */
  search(sx: number, sy: number, gx: number, gy: number, options: SearchOptions = {}): SearchResult {
    const grid = this.grid;
    checkInt(sx, 'start x');
    checkInt(sy, 'start y');
    checkInt(gx, 'goal x');
    checkInt(gy, 'goal y');
    const layer = grid.layerIndex(options.layer ?? 0);
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
    const W = this.stride;
    const start = (sy + 1) * W + sx + 1;
    const goal = (gy + 1) * W + gx + 1;
    if (!grid.inBounds(sx, sy) || view.pass[start] <= 0) return searchResult('invalid-start', EMPTY, Infinity, 0, -1);
    if (!grid.inBounds(gx, gy) || (!nearest && view.pass[goal] <= 0)) return searchResult('invalid-goal', EMPTY, Infinity, 0, -1);
    if (start === goal) return searchResult('found', Int32Array.of(sy * grid.width + sx), 0, 0, sy * grid.width + sx);

    const algorithm = options.algorithm ?? 'auto';
    // Nearest mode and overlay views are A*'s: 'auto' keeps them there, the others refuse them.
    const plain = !nearest && options.view === undefined;
    if (algorithm === 'hpa') {
      if (!plain) throw new TilenavError("the hierarchy does not support nearest or an overlay view; use algorithm 'auto' or 'astar'", { element: 'algorithm' });
      const r = this.hierarchical(layer, model, start, goal);
      return searchResult(r.status, r.cells, r.cost, r.expanded, r.status === 'found' ? gy * grid.width + gx : -1);
    }
    const jps = algorithm !== 'astar' && this.jpsApplies(algorithm, view, model, weight, plain) ? (this.jps ??= new JumpPointSearch(grid, this)) : null;
    const hs = view.minCost * weight;
    const expanded =
      jps !== null
        ? jps.search(view, layer, start, goal, model.name === 'cardinal', maxIterations, algorithm === 'jps+')
        : !nearest && model.name === 'octile' && view.exits === null
          ? this.octile(view, start, goal, hs, maxIterations)
          : this.generic(view, model, start, goal, hs, maxIterations, Infinity, false, nearest);
    this.traced = this.gen;
    const count = expanded < 0 ? -expanded - 1 : expanded;
    if (this.stamp[goal] === this.gen + 1) {
      const cells = jps !== null ? jps.reconstruct(goal, W, model.name === 'cardinal', options.out) : this.reconstruct(goal, options.out);
      return searchResult('found', cells, this.g[goal], count, gy * grid.width + gx);
    }
    if (nearest && this.best !== start) {
      const b = this.best;
      return searchResult('partial', this.reconstruct(b), this.g[b], count, this.cellOf(b));
    }
    return searchResult(expanded < 0 ? 'limit-reached' : 'no-path', EMPTY, Infinity, count, -1);
  }

  private cellOf(p: number): number {
    const W = this.stride;
    const y = ((p / W) | 0) - 1;
    return y * this.grid.width + (p - (y + 1) * W - 1);
  }

  /**
   * Builds what `algorithm` needs on `layer` before the first query (the padded search view; for
   * JPS its walkability bit planes), so that query costs no more than the others.
   */
  prepare(options: { layer?: number | string; algorithm?: SearchAlgorithm; movement?: MovementName } = {}): void {
    const layer = this.grid.layerIndex(options.layer ?? 0);
    this.grid.searchView(layer);
    const algorithm = options.algorithm ?? 'auto';
    if (algorithm === 'astar') return;
    if (algorithm === 'hpa') {
      this.hierarchy(layer, options.movement);
      return;
    }
    const jps = (this.jps ??= new JumpPointSearch(this.grid, this));
    jps.bits(layer);
    if (algorithm === 'jps+') jps.table(this.grid.searchView(layer), layer);
  }

  /**
   * The cluster hierarchy `algorithm: 'hpa'` searches on `layer` with `movement` (`octile` or
   * `cardinal`): built on first use (its `buildMs`, `nodeCount` and `bytes` report the cost), then
   * kept in step with the grid, rebuilding only the clusters a change touches.
   */
  hierarchy(layer: number | string = 0, movement: MovementName = 'octile', options?: HierarchyOptions): Hierarchy {
    const l = this.grid.layerIndex(layer);
    const model = movementModel(movement);
    if (model.name !== 'octile' && model.name !== 'cardinal') throw new TilenavError(`the hierarchy needs 'octile' or 'cardinal' movement, got '${model.name}'`, { element: 'movement' });
    const key = `${l}:${model.name}`;
    let h = this.hierarchies.get(key);
    if (h === undefined || (options?.clusterSize !== undefined && options.clusterSize !== h.clusterSize)) {
      h?.dispose();
      h = new Hierarchy(this.grid, this.grid.searchView(l), sharedScratch(this), l, model.name === 'cardinal', options, adaptJumpPointSearch(() => (this.jps ??= new JumpPointSearch(this.grid, this)), this, this.grid.width));
      this.hierarchies.set(key, h);
    }
    return h;
  }

  private hierarchical(layer: number, model: MovementModel, start: number, goal: number): PathResult {
    const view = this.grid.searchView(layer);
    if (view.exits !== null) throw new TilenavError('the hierarchy cannot search a layer with one-way flags; use algorithm \'auto\' or \'astar\'', { element: 'algorithm' });
    const h = this.hierarchy(layer, model.name);
    const stats = { expanded: 0 };
    const refined = h.findPath(start, goal, stats);
    if (refined === null) return result('no-path', EMPTY, Infinity, stats.expanded);
    return result('found', refined.cells, refined.cost, stats.expanded);
  }

  /** Whether the query goes to jump point search; throws when `jps` was asked for and cannot run. */
  private jpsApplies(algorithm: SearchAlgorithm, view: SearchView, model: MovementModel, weight: number, plain: boolean): boolean {
    if (algorithm !== 'jps' && algorithm !== 'jps+' && algorithm !== 'auto') throw new TilenavError(`expected 'astar', 'jps', 'jps+', 'hpa' or 'auto', got ${describe(algorithm)}`, { element: 'algorithm' });
    const why =
      algorithm === 'jps+' && model.name !== 'octile'
        ? `movement '${model.name}' (it needs 'octile')`
        : model.name !== 'octile' && model.name !== 'cardinal'
        ? `movement '${model.name}' (it needs 'octile' or 'cardinal')`
        : !view.uniform
          ? 'a layer whose costs differ from cell to cell'
          : view.exits !== null
            ? 'a layer with one-way flags'
            : weight !== 1
              ? `weight ${weight} (it needs 1)`
              : !plain
                ? 'nearest mode or an overlay view'
                : null;
    if (why === null) return true;
    if (algorithm !== 'auto') throw new TilenavError(`jump point search cannot run on ${why}; use algorithm 'auto' or 'astar'`, { element: 'algorithm' });
    return false;
  }

  /**
   * Dijkstra from one or more source cells (indices `y * width + x`; blocked ones are ignored):
   * the cost of the cheapest path from the nearest source to every cell, Infinity where none.
   * The base of flow fields and nearest-point queries.
   */
  distanceMap(sources: ArrayLike<number>, options: DistanceMapOptions = {}, out?: Float64Array): Float64Array {
    const grid = this.grid;
    const layer = grid.layerIndex(options.layer ?? 0);
    const model = movementModel(options.movement ?? 'octile');
    const maxCost = options.maxCost ?? Infinity;
    if (typeof maxCost !== 'number' || Number.isNaN(maxCost)) throw new TilenavError(`expected a number, got ${describe(maxCost)}`, { element: 'maxCost' });
    const dist = out ?? new Float64Array(grid.size);
    if (dist.length !== grid.size) throw new TilenavError(`expected a Float64Array of ${grid.size} cells, got ${dist.length}`, { element: 'out' });
    dist.fill(Infinity);
    const view = grid.searchView(layer);
    const W = this.stride;
    const gen = this.nextGen();
    const heap = this.heap;
    heap.clear();
    for (let k = 0; k < sources.length; k++) {
      const i = sources[k];
      if (!Number.isInteger(i) || i < 0 || i >= grid.size) throw new TilenavError(`source ${describe(i)} is not a cell index 0..${grid.size - 1}`, { element: 'sources' });
      const p = (grid.yOf(i) + 1) * W + grid.xOf(i) + 1;
      if (view.pass[p] === 0 || this.stamp[p] === gen) continue;
      this.g[p] = 0;
      this.parent[p] = -1;
      this.stamp[p] = gen;
      heap.push(p, 0, 0);
    }
    this.generic(view, model, -1, -1, 0, Infinity, maxCost, true);
    this.traced = gen;
    const closed = gen + 1;
    const stamp = this.stamp;
    const g = this.g;
    for (let y = 0; y < grid.height; y++) {
      let p = (y + 1) * W + 1;
      let i = y * grid.width;
      for (let x = 0; x < grid.width; x++, p++, i++) if (stamp[p] === closed) dist[i] = g[p];
    }
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
    const stamp = this.stamp;
    const W = this.stride;
    let count = 0;
    for (let y = 0, i = 0; y < grid.height; y++) {
      let p = (y + 1) * W + 1;
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

  /** @internal */
  get generation(): number {
    return this.gen;
  }

  /** @internal */
  nextGen(): number {
    this.gen += 2;
    if (this.gen >= 0xfffffff0) {
      this.stamp.fill(0);
      this.gen = 2;
    }
    return this.gen;
  }

  /**
   * Octile without corner cutting, the default model and the benchmark's. The four cardinal
   * neighbours' passability makes a bit mask of the allowed moves (a diagonal needs both its side
   * cells), and one loop relaxes them: no call or allocation per node.
   */
  private octile(view: SearchView, start: number, goal: number, hs: number, maxIterations: number): number {
    const W = this.stride;
    const pass = view.pass;
    const g = this.g;
    const parent = this.parent;
    const stamp = this.stamp;
    const heap = this.heap;
    const open = this.nextGen();
    const closed = open + 1;
    const gy = (goal / W) | 0;
    const gx = goal - gy * W;
    const delta = this.octileDelta;
    heap.clear();
    g[start] = 0;
    parent[start] = -1;
    stamp[start] = open;
    heap.push(start, 0, 0);
    let expanded = 0;
    while (heap.size > 0) {
      const cur = heap.pop();
      stamp[cur] = closed;
      if (cur === goal) break;
      if (expanded >= maxIterations) return -expanded - 1;
      expanded++;
      const gc = g[cur];
      const cy = (cur / W) | 0;
      const cdx = cur - cy * W - gx;
      const cdy = cy - gy;
      // Bits 0-3: N E S W walkable; bits 4-7: NE SE SW NW allowed (both sides walkable).
      let moves = (pass[cur - W] > 0 ? 1 : 0) | (pass[cur + 1] > 0 ? 2 : 0) | (pass[cur + W] > 0 ? 4 : 0) | (pass[cur - 1] > 0 ? 8 : 0);
      moves |= ((moves & 3) === 3 ? 16 : 0) | ((moves & 6) === 6 ? 32 : 0) | ((moves & 12) === 12 ? 64 : 0) | ((moves & 9) === 9 ? 128 : 0);
      for (let k = 0; moves !== 0; k++, moves >>= 1) {
        if ((moves & 1) === 0) continue;
        const n = cur + delta[k];
        const c = pass[n];
        if (c <= 0) continue;
        const s = stamp[n];
        if (s === closed) continue;
        const ng = k < 4 ? gc + c : gc + SQRT2 * c;
        if (s !== open) {
          g[n] = ng;
          parent[n] = cur;
          stamp[n] = open;
          const dx = Math.abs(cdx + DX[k]);
          const dy = Math.abs(cdy + DY[k]);
          heap.push(n, ng + (dx > dy ? dx + K * dy : dy + K * dx) * hs, ng);
        } else if (ng < g[n]) {
          g[n] = ng;
          parent[n] = cur;
          const dx = Math.abs(cdx + DX[k]);
          const dy = Math.abs(cdy + DY[k]);
          heap.decrease(n, ng + (dx > dy ? dx + K * dy : dy + K * dx) * hs, ng);
        }
      }
    }
    return expanded;
  }

  /**
   * Any model, one-way flags, optional goal (-1: none, a Dijkstra), cost cap. With `seeded` the
   * caller has already pushed the sources under the current generation.
   * Returns expansions, or -(expansions + 1) when maxIterations stopped it.
   */
  private generic(view: SearchView, model: MovementModel, start: number, goal: number, hs: number, maxIterations: number, maxCost: number, seeded = false, track = false): number {
    const W = this.stride;
    const pass = view.pass;
    const exits = view.exits;
    const g = this.g;
    const parent = this.parent;
    const stamp = this.stamp;
    const heap = this.heap;
    const t = this.table(model);
    const open = seeded ? this.gen : this.nextGen();
    const closed = open + 1;
    const gy = goal >= 0 ? ((goal / W) | 0) - 1 : 0;
    const gx = goal >= 0 ? goal - (gy + 1) * W - 1 : 0;
    const kind = model.heuristic;
    const axis = model.parityAxis;
    const corner = model.corner;
    const hexLayout = model.hexLayout;
    const a = { x: 0, y: 0 };
    const b = hexLayout !== 'axial' ? offsetAxial(hexLayout, gx, gy, { x: 0, y: 0 }) : { x: gx, y: gy };
    const h = (n: number): number => {
      if (hs === 0) return 0;
      const y = ((n / W) | 0) - 1;
      const x = n - (y + 1) * W - 1;
      if (kind === 'octile') {
        const dx = Math.abs(x - gx);
        const dy = Math.abs(y - gy);
        return (dx > dy ? dx + K * dy : dy + K * dx) * hs;
      }
      if (kind === 'manhattan') return (Math.abs(x - gx) + Math.abs(y - gy)) * hs;
      const p = hexLayout !== 'axial' ? offsetAxial(hexLayout, x, y, a) : ((a.x = x), (a.y = y), a);
      return axialDistance(kind, p.x - b.x, p.y - b.y) * hs;
    };
    if (!seeded) {
      heap.clear();
      g[start] = 0;
      parent[start] = -1;
      stamp[start] = open;
      heap.push(start, h(start), 0);
    }
    let expanded = 0;
    let best = start;
    let bestD = Infinity;
    while (heap.size > 0) {
      const cur = heap.pop();
      const gc = g[cur];
      if (gc > maxCost) break;
      stamp[cur] = closed;
      if (track) {
        const y = ((cur / W) | 0) - 1;
        const dx = cur - (y + 1) * W - 1 - gx;
        const dy = y - gy;
        const d = dx * dx + dy * dy;
        if (d < bestD || (d === bestD && cur < best)) {
          bestD = d;
          best = cur;
        }
        this.best = best;
      }
      if (cur === goal) break;
      if (expanded >= maxIterations) return -expanded - 1;
      expanded++;
      const parity = axis === null ? 0 : axis === 'y' ? (((cur / W) | 0) - 1) & 1 : ((cur % W) - 1) & 1;
      const delta = t.delta[parity];
      const length = t.length[parity];
      const diag = t.diagonal[parity];
      const ex = exits === null ? 0 : exits[cur];
      for (let k = 0; k < t.count; k++) {
        if (ex !== 0 && (ex & t.exitMask[parity][k]) !== 0) continue;
        const n = cur + delta[k];
        const c = pass[n];
        if (c <= 0) continue;
        if (diag[k] === 1) {
          const blocked = (pass[cur + t.sideA[parity][k]] > 0 ? 0 : 1) + (pass[cur + t.sideB[parity][k]] > 0 ? 0 : 1);
          if (blocked > corner) continue;
        }
        const ng = gc + length[k] * c;
        const s = stamp[n];
        if (s === open) {
          if (ng < g[n]) {
            g[n] = ng;
            parent[n] = cur;
            heap.decrease(n, ng + h(n), ng);
          }
        } else if (s !== closed) {
          g[n] = ng;
          parent[n] = cur;
          stamp[n] = open;
          heap.push(n, ng + h(n), ng);
        }
      }
    }
    return expanded;
  }

  private table(model: MovementModel): StepTable {
    let t = this.tables.get(model.name);
    if (t !== undefined) return t;
    const W = this.stride;
    const count = model.steps[0].length;
    t = { count, delta: [], length: [], sideA: [], sideB: [], diagonal: [], exitMask: [] };
    for (const steps of model.steps) {
      t.delta.push(Int32Array.from(steps, (s) => s.dy * W + s.dx));
      t.length.push(Float64Array.from(steps, (s) => s.length));
      t.sideA.push(Int32Array.from(steps, (s) => s.dx));
      t.sideB.push(Int32Array.from(steps, (s) => s.dy * W));
      t.diagonal.push(Uint8Array.from(steps, (s) => (s.diagonal ? 1 : 0)));
      t.exitMask.push(Uint8Array.from(steps, (s) => exitMask(s.dx, s.dy)));
    }
    this.tables.set(model.name, t);
    return t;
  }

  private reconstruct(goal: number, out?: Int32Array): Int32Array {
    const parent = this.parent;
    const W = this.stride;
    const width = this.grid.width;
    let len = 0;
    for (let p = goal; p !== -1; p = parent[p]) len++;
    const cells = out !== undefined && out.length >= len ? out.subarray(0, len) : new Int32Array(len);
    let k = len;
    for (let p = goal; p !== -1; p = parent[p]) {
      const y = ((p / W) | 0) - 1;
      cells[--k] = y * width + (p - (y + 1) * W - 1);
    }
    return cells;
  }
}

/** The one-way bits that forbid a step (dx, dy) out of a cell (seed 003's CanMoveFrom). */
export function exitMask(dx: number, dy: number): number {
  return (dy < 0 ? FLAG_NO_EXIT_NORTH : 0) | (dx > 0 ? FLAG_NO_EXIT_EAST : 0) | (dy > 0 ? FLAG_NO_EXIT_SOUTH : 0) | (dx < 0 ? FLAG_NO_EXIT_WEST : 0);
}

function offsetAxial(layout: string, x: number, y: number, out: { x: number; y: number }): { x: number; y: number } {
  switch (layout) {
    case 'odd-r':
      out.x = x - (y - (y & 1)) / 2;
      out.y = y;
      break;
    case 'even-r':
      out.x = x - (y + (y & 1)) / 2;
      out.y = y;
      break;
    case 'odd-q':
      out.x = x;
      out.y = y - (x - (x & 1)) / 2;
      break;
    default:
      out.x = x;
      out.y = y - (x + (x & 1)) / 2;
  }
  return out;
}

function result(status: SearchStatus, cells: Int32Array, cost: number, expanded: number): PathResult {
  return { status, cells, cost, expanded };
}

function searchResult(status: SearchStatus, cells: Int32Array, cost: number, expanded: number, reached: number): SearchResult {
  return { status, cells, cost, expanded, reached };
}

function checkInt(v: unknown, name: string): void {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new TilenavError(`expected an integer cell coordinate, got ${describe(v)}`, { element: name });
}

const finders = new WeakMap<NavGrid, Pathfinder>();

/** The Pathfinder this module keeps for `grid` (one per grid, created on first use). */
export function pathfinderFor(grid: NavGrid): Pathfinder {
  let f = finders.get(grid);
  if (f === undefined) {
    f = new Pathfinder(grid);
    finders.set(grid, f);
  }
  return f;
}

/** `pathfinderFor(grid).findPath(...)`: the cheapest path between two cells. */
export function findPath(grid: NavGrid, sx: number, sy: number, gx: number, gy: number, options?: FindPathOptions): PathResult {
  return pathfinderFor(grid).findPath(sx, sy, gx, gy, options);
}

/** `pathfinderFor(grid).distanceMap(...)`. */
export function distanceMap(grid: NavGrid, sources: ArrayLike<number>, options?: DistanceMapOptions, out?: Float64Array): Float64Array {
  return pathfinderFor(grid).distanceMap(sources, options, out);
}
