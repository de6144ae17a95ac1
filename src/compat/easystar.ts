/**
 * tilenav/compat/easystar: code written for EasyStar.js 0.4 runs on tilenav's search after
 * changing only its import:
 *
 * ```ts
 * import EasyStar from 'tilenav/compat/easystar';   // was: import EasyStar from 'easystarjs'
 * const easystar = new EasyStar.js();
 * easystar.setGrid(rows);
 * easystar.setAcceptableTiles([0]);
 * easystar.findPath(0, 0, 4, 0, (path) => console.log(path));   // [{ x, y }, ...] or null
 * easystar.calculate();
 * ```
 *
 * Behind it sit one NavGrid and one kept tilenav `Pathfinder`, brought up to date before each
 * search from the caller's rows (read again, as EasyStar.js reads them live), tile costs, point
 * costs and avoided points, writing only the cells that changed.
 *
 * One difference on purpose: a diagonal step costs sqrt 2 (times the cost of the cell entered), not
 * EasyStar.js's 1.4, so every path is a shortest one; with 1.4, EasyStar.js trades a diagonal for
 * straight steps wrongly and returns a longer path on many long queries (docs/from-easystar.md
 * gives the measured share). Costs are kept as float32, as in every NavGrid. See that page for the
 * other differences and the measured speed.
 */
import { TilenavError, assertCost, describe } from '../errors.js';
import { GraphAStar, type Graph, type GraphSearch } from '../search/graph/graph-astar.js';
import type { MovementName } from '../search/movement.js';
import type { PathSearch } from '../search/path-search.js';
import { CompatEngine } from './engine.js';

/** Entered from the cell above: one of the eight directions {@link js.setDirectionalCondition} takes. */
export const TOP = 'TOP';
/** Entered from the cell above and to the right. */
export const TOP_RIGHT = 'TOP_RIGHT';
/** Entered from the cell to the right. */
export const RIGHT = 'RIGHT';
/** Entered from the cell below and to the right. */
export const BOTTOM_RIGHT = 'BOTTOM_RIGHT';
/** Entered from the cell below. */
export const BOTTOM = 'BOTTOM';
/** Entered from the cell below and to the left. */
export const BOTTOM_LEFT = 'BOTTOM_LEFT';
/** Entered from the cell to the left. */
export const LEFT = 'LEFT';
/** Entered from the cell above and to the left. */
export const TOP_LEFT = 'TOP_LEFT';

/** Where the cell a step comes from lies, seen from the cell it enters. */
export type Direction = 'TOP' | 'TOP_RIGHT' | 'RIGHT' | 'BOTTOM_RIGHT' | 'BOTTOM' | 'BOTTOM_LEFT' | 'LEFT' | 'TOP_LEFT';

/** A found path, start first, or null when there is none. */
export type Path = {
  /** Column. */
  x: number;
  /** Row. */
  y: number;
}[];
/** What {@link js.findPath} calls with the answer: the path, or null when there is none. */
export type PathCallback = (path: Path | null) => void;

/** Bit of each direction in a cell's allowed-entry mask; index (dy + 1) * 3 + (dx + 1) of the source's offset. */
const DIRECTIONS: readonly (Direction | null)[] = [TOP_LEFT, TOP, TOP_RIGHT, LEFT, null, RIGHT, BOTTOM_LEFT, BOTTOM, BOTTOM_RIGHT];
const BIT = Uint8Array.from(DIRECTIONS, (d, k) => (d === null ? 0 : 1 << (k < 4 ? k : k - 1)));
/** No condition: every direction allowed. */
const ANY = 0xff;

// Step order: up, right, down, left, then the diagonals.
const DX = [0, 1, 0, -1, -1, 1, 1, -1];
const DY = [-1, 0, 1, 0, -1, 1, -1, 1];

/**
 * The search running across calculate() calls: its request, the search (the grid's, or the graph
 * A*'s when entry conditions or avoided corners need EasyStar's own steps), and the edits and
 * movement it began with (after any other, it begins again).
 */
interface Running {
  request: Request;
  search: PathSearch | GraphSearch;
  edits: number;
  movement: MovementName;
  graph: boolean;
}

interface Request {
  id: number;
  sx: number;
  sy: number;
  ex: number;
  ey: number;
  callback: PathCallback;
}

/**
 * One path finder over one grid of tile values, as EasyStar.js's `js` class: set the grid and the
 * walkable tiles, ask for paths with {@link findPath}, and call {@link calculate} (each frame, say)
 * to have them answered through their callbacks.
 */
export class js {
  #sync = false;
  #diagonals = false;
  #cornerCutting = true;
  #iterations = Number.MAX_VALUE;
  #rows: unknown[][] | null = null;
  #acceptable: Set<unknown> | null = null;
  readonly #tileCost = new Map<unknown, number>();
  // Points are kept by "x,y" whether or not they lie on the grid (they may be set before it).
  readonly #pointCost = new Map<string, number>();
  readonly #avoided = new Set<string>();
  readonly #conditions = new Map<string, number>();

  // Per cell of the grid last read, index y * width + x.
  #width = 0;
  #height = 0;
  /** The tile values as last read. */
  #seen: unknown[] = [];
  #accept = new Uint8Array(0);
  #avoid = new Uint8Array(0);
  /** Point cost, 0 when none. */
  #cost = new Float64Array(0);
  /** Allowed-entry mask, {@link ANY} without a condition. */
  #entry = new Uint8Array(0);
  #avoidCount = 0;
  #conditionCount = 0;
  /** Cells to write at the next read: their point data changed. */
  #pending: number[] = [];
  /** Every cell must be written at the next read: the walkable tiles or tile costs changed. */
  #all = true;
  #changed = new Int32Array(0);
  #engine: CompatEngine | null = null;
  #graphSearch: GraphAStar | null = null;
  #graph: Graph | null = null;
  /** The smallest cost of a walkable cell (a lower bound), read before each graph search. */
  #minCost = 1;

  readonly #queue: Request[] = [];
  /** Requests asked and not yet answered or cancelled, the running one included. */
  readonly #open = new Map<number, Request>();
  #running: Running | null = null;
  /** Counts what changes the cells a search sees: cells written, points avoided or conditioned, a new size. */
  #edits = 0;
  #nextId = 1;

  /** The tile values that can be walked on: an array of them, or one number. */
  setAcceptableTiles(tiles: readonly unknown[] | number): void {
    if (Array.isArray(tiles)) this.#acceptable = new Set(tiles);
    else if (typeof tiles === 'number' && Number.isFinite(tiles)) this.#acceptable = new Set([tiles]);
    else throw new TilenavError(`expected an array of tile values or one number, got ${describe(tiles)}`, { element: 'tiles' });
    this.#all = true;
  }

  /** Callbacks run inside {@link findPath} and {@link calculate}, and one calculate answers every queued path. */
  enableSync(): void {
    this.#sync = true;
  }

  /** Callbacks run later, from a timer (the default). */
  disableSync(): void {
    this.#sync = false;
  }

  /** Paths may step diagonally (length sqrt 2). */
  enableDiagonals(): void {
    this.#diagonals = true;
  }

  /** Paths step to the four side neighbours only (the default). */
  disableDiagonals(): void {
    this.#diagonals = false;
  }

  /**
   * The grid of tile values, as rows (`grid[y][x]`). It is kept, not copied: changes to it are
   * seen by the searches that start after them, as in EasyStar.js. Every row must have the first
   * row's length; a grid that is not rows of cells throws a TilenavError.
   */
  setGrid(grid: unknown[][]): void {
    checkRows(grid);
    this.#rows = grid;
  }

  /** Entering a cell of this tile costs `cost` times the step length. A cost is a finite number > 0. */
  setTileCost(tileType: unknown, cost: number): void {
    assertCost(cost, 'cost');
    this.#tileCost.set(tileType, cost);
    this.#all = true;
  }

  /** Entering cell (x, y) costs `cost` times the step length, whatever its tile. */
  setAdditionalPointCost(x: number, y: number, cost: number): void {
    assertCost(cost, 'cost');
    this.#pointCost.set(key(x, y), cost);
    this.#point(x, y, (i) => (this.#cost[i] = cost));
  }

  /** Cell (x, y) costs what its tile costs again. */
  removeAdditionalPointCost(x: number, y: number): void {
    this.#pointCost.delete(key(x, y));
    this.#point(x, y, (i) => (this.#cost[i] = 0));
  }

  /** Every cell costs what its tile costs again. */
  removeAllAdditionalPointCosts(): void {
    for (const k of this.#pointCost.keys()) this.#pointAt(k, (i) => (this.#cost[i] = 0));
    this.#pointCost.clear();
  }

  /** Paths never enter cell (x, y), whatever its tile. It still counts as free beside a diagonal step. */
  avoidAdditionalPoint(x: number, y: number): void {
    this.#avoided.add(key(x, y));
    this.#point(x, y, (i) => this.#setAvoid(i, 1));
  }

  /** Paths may enter cell (x, y) again when its tile is accepted. */
  stopAvoidingAdditionalPoint(x: number, y: number): void {
    this.#avoided.delete(key(x, y));
    this.#point(x, y, (i) => this.#setAvoid(i, 0));
  }

  /** Paths may enter every avoided cell again. */
  stopAvoidingAllAdditionalPoints(): void {
    for (const k of this.#avoided) this.#pointAt(k, (i) => this.#setAvoid(i, 0));
    this.#avoided.clear();
  }

  /** Diagonal steps may pass beside blocked cells, even between two (the default). */
  enableCornerCutting(): void {
    this.#cornerCutting = true;
  }

  /** A diagonal step needs both cells beside it walkable (their tile accepted, their conditions met). */
  disableCornerCutting(): void {
    this.#cornerCutting = false;
  }

  /**
   * Cell (x, y) may only be entered from the listed directions: `[TOP]` lets a path step onto it
   * from the cell above, nowhere else; [] closes it. With corner cutting off, a cell beside a
   * diagonal step must also allow the step's start as a direction, as in EasyStar.js.
   */
  setDirectionalCondition(x: number, y: number, allowedDirections: readonly Direction[]): void {
    if (!Array.isArray(allowedDirections)) throw new TilenavError(`expected an array of directions such as [TOP, LEFT], got ${describe(allowedDirections)}`, { element: 'allowedDirections' });
    let mask = 0;
    for (const d of allowedDirections) {
      const k = DIRECTIONS.indexOf(d);
      if (d === null || k < 0) throw new TilenavError(`expected one of ${DIRECTIONS.filter((n) => n !== null).join(', ')}, got ${describe(d)}`, { element: 'allowedDirections' });
      mask |= BIT[k];
    }
    this.#conditions.set(key(x, y), mask);
    this.#point(x, y, (i) => this.#setEntry(i, mask));
  }

  /** Every cell may be entered from every side again. */
  removeAllDirectionalConditions(): void {
    for (const k of this.#conditions.keys()) this.#pointAt(k, (i) => this.#setEntry(i, ANY));
    this.#conditions.clear();
  }

  /**
   * How many nodes one {@link calculate} call may expand (a number > 0), as in EasyStar.js: a
   * search that needs more pauses and goes on at the next call (at least one node a call).
   * @default Number.MAX_VALUE
   */
  setIterationsPerCalculation(iterations: number): void {
    if (typeof iterations !== 'number' || !(iterations > 0)) throw new TilenavError(`expected a number > 0, got ${describe(iterations)}`, { element: 'iterations' });
    this.#iterations = iterations;
  }

  /**
   * Queues a search from (startX, startY) to (endX, endY); `callback` gets the path as `{ x, y }`
   * points, start first, or null. Returns the search's id for {@link cancelPath}. Answered at once,
   * with no id (undefined), when start and end are the same cell (the path is []) or the end's tile
   * is not walkable (null): the callback then runs now with sync on, else from a timer. A blocked
   * start is searched from, as in EasyStar.js.
   *
   * Throws a TilenavError before setAcceptableTiles or setGrid, for coordinates that are not
   * integers on the grid, and for a callback that is not a function.
   */
  findPath(startX: number, startY: number, endX: number, endY: number, callback: PathCallback): number | undefined {
    if (this.#acceptable === null) throw new TilenavError('no walkable tiles yet: call setAcceptableTiles() before findPath()', { element: 'acceptableTiles' });
    const rows = this.#rows;
    if (rows === null) throw new TilenavError('no grid yet: call setGrid() before findPath()', { element: 'grid' });
    const w = rows[0].length;
    const h = rows.length;
    checkCoordinate(startX, w, 'startX');
    checkCoordinate(startY, h, 'startY');
    checkCoordinate(endX, w, 'endX');
    checkCoordinate(endY, h, 'endY');
    if (typeof callback !== 'function') throw new TilenavError(`expected a function (path) => void, got ${describe(callback)}`, { element: 'callback' });
    if (startX === endX && startY === endY) {
      this.#answer(callback, []);
      return undefined;
    }
    if (!this.#acceptable.has(rows[endY][endX])) {
      this.#answer(callback, null);
      return undefined;
    }
    const request: Request = { id: this.#nextId++, sx: startX, sy: startY, ex: endX, ey: endY, callback };
    this.#queue.push(request);
    this.#open.set(request.id, request);
    return request.id;
  }

  /** Drops a search not yet answered (queued, or paused part way): true then, false otherwise; its callback never runs. */
  cancelPath(instanceId: number): boolean {
    return this.#open.delete(instanceId);
  }

  /**
   * Answers queued searches in the order they were asked, on the grid as it is when the search
   * runs: all of them with sync on, else until the nodes expanded in this call reach
   * {@link setIterationsPerCalculation}'s figure; a search that needs more pauses there and goes
   * on at the next call (from the start again if the rows, points or settings changed in
   * between). Does nothing before setGrid and setAcceptableTiles.
   */
  calculate(): void {
    if ((this.#queue.length === 0 && this.#running === null) || this.#rows === null || this.#acceptable === null) return;
    let spent = 0;
    let fresh = false;
    while ((this.#running !== null || this.#queue.length > 0) && (this.#sync || spent < this.#iterations)) {
      // Read the rows once per call, and again after a callback that ran in between. A read that
      // throws (rows of different lengths) leaves the queue as it was.
      if (!fresh) this.#read();
      fresh = true;
      let run = this.#running;
      if (run !== null && !this.#open.has(run.request.id)) {
        run.search.cancel();
        this.#running = null;
        continue;
      }
      if (run === null) {
        const request = this.#queue.shift()!;
        if (!this.#open.has(request.id)) continue;
        run = this.#running = this.#begin(request);
      } else if (run.edits !== this.#edits || run.movement !== this.#movement() || run.graph !== this.#needsGraph()) {
        run.search.cancel();
        run = this.#running = this.#begin(run.request);
      }
      const before = run.search.expanded;
      const result = run.search.step({ maxExpansions: this.#sync ? Infinity : Math.max(1, Math.ceil(this.#iterations - spent)) });
      spent += Math.max(1, (result === null ? run.search.expanded : result.expanded) - before);
      if (result === null) continue;
      this.#running = null;
      this.#open.delete(run.request.id);
      fresh = !this.#sync;
      const cells = result.status !== 'found' ? null : 'cells' in result ? result.cells : result.nodes;
      this.#answer(run.request.callback, this.#pathOf(cells));
    }
  }

  #answer(callback: PathCallback, path: Path | null): void {
    if (this.#sync) callback(path);
    else setTimeout(() => callback(path));
  }

  /** How units step now: the diagonal and corner settings as tilenav's movement model. */
  #movement(): MovementName {
    return !this.#diagonals ? 'cardinal' : this.#cornerCutting ? 'octile-always' : 'octile';
  }

  /**
   * Whether searches take the graph A*: entry conditions, and avoided cells that still count as
   * free beside a diagonal, are more than a NavGrid's cells say, and the graph's steps follow
   * EasyStar's rules.
   */
  #needsGraph(): boolean {
    return this.#conditionCount > 0 || (this.#diagonals && !this.#cornerCutting && this.#avoidCount > 0);
  }

  /** Begins the search of one request on the cells as last read. */
  #begin(r: Request): Running {
    const w = this.#width;
    const movement = this.#movement();
    const edits = this.#edits;
    if (this.#needsGraph()) {
      const search = (this.#graphSearch ??= new GraphAStar());
      this.#minCost = this.#engine!.grid.searchView(0).minCost;
      return { request: r, search: search.begin((this.#graph ??= this.#graphOf()), r.sy * w + r.sx, r.ey * w + r.ex), edits, movement, graph: true };
    }
    return { request: r, search: this.#engine!.begin(r.sx, r.sy, r.ex, r.ey, movement), edits, movement, graph: false };
  }

  /** A found path's cells as EasyStar.js's points, or null. */
  #pathOf(cells: ArrayLike<number> | null): Path | null {
    if (cells === null) return null;
    const w = this.#width;
    const path: Path = new Array(cells.length);
    for (let k = 0; k < cells.length; k++) path[k] = { x: cells[k] % w, y: (cells[k] / w) | 0 };
    return path;
  }

  /**
   * The grid as a graph of EasyStar.js's steps: a cell is entered when its tile is accepted, it is
   * not avoided and its condition allows the side the step comes from; with corner cutting off, a
   * diagonal also needs both cells beside it accepted and allowing the step's start. Costs are the
   * engine's (step length x cost of the cell entered); the estimate is octile (or Manhattan)
   * distance x the smallest cost, a lower bound, so the path is a cheapest one.
   */
  #graphOf(): Graph {
    const engine = this.#engine!;
    const w = this.#width;
    const h = this.#height;
    const cost = engine.grid.layers[0].cost;
    const open = (i: number, fromX: number, fromY: number) => (this.#entry[i] & BIT[(fromY + 1) * 3 + fromX + 1]) !== 0;
    const beside = (x: number, y: number, fromX: number, fromY: number) => this.#accept[y * w + x] === 1 && open(y * w + x, fromX, fromY);
    return {
      nodeCount: w * h,
      neighbours: (node, visit) => {
        const x = node % w;
        const y = (node - x) / w;
        const steps = this.#diagonals ? 8 : 4;
        for (let k = 0; k < steps; k++) {
          const dx = DX[k];
          const dy = DY[k];
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const n = ny * w + nx;
          if (this.#accept[n] === 0 || this.#avoid[n] === 1 || !open(n, -dx, -dy)) continue;
          if (k >= 4 && !this.#cornerCutting && !(beside(x, ny, 0, -dy) && beside(nx, y, -dx, 0))) continue;
          visit(n, (k >= 4 ? Math.SQRT2 : 1) * cost[n]);
        }
      },
      estimate: (node, goal) => {
        const dx = Math.abs((node % w) - (goal % w));
        const dy = Math.abs(((node / w) | 0) - ((goal / w) | 0));
        const steps = !this.#diagonals ? dx + dy : dx > dy ? dx + (Math.SQRT2 - 1) * dy : dy + (Math.SQRT2 - 1) * dx;
        return steps * this.#minCost;
      },
    };
  }

  /**
   * Reads the caller's rows and writes every cell whose tile, point cost or avoidance changed
   * since the last read into the engine (all of them after a new grid size, new walkable tiles or
   * new tile costs).
   */
  #read(): void {
    const rows = this.#rows!;
    checkRows(rows);
    const w = rows[0].length;
    const h = rows.length;
    if (this.#engine === null || w !== this.#width || h !== this.#height) this.#resize(w, h);
    const seen = this.#seen;
    const accept = this.#accept;
    const acceptable = this.#acceptable!;
    const all = this.#all;
    const changed = this.#changed;
    let count = 0;
    for (let y = 0, i = 0; y < h; y++) {
      const row = rows[y];
      for (let x = 0; x < w; x++, i++) {
        const v = row[x];
        if (all || v !== seen[i]) {
          seen[i] = v;
          accept[i] = acceptable.has(v) ? 1 : 0;
          changed[count++] = i;
        }
      }
    }
    if (count + this.#pending.length > changed.length) {
      count = changed.length;
      for (let i = 0; i < count; i++) changed[i] = i;
    } else for (const i of this.#pending) changed[count++] = i;
    this.#pending = [];
    this.#all = false;
    if (count > 0) this.#edits++;
    const avoid = this.#avoid;
    const point = this.#cost;
    const tileCost = this.#tileCost;
    this.#engine!.write(changed, count, (i) => accept[i] === 1 && avoid[i] === 0, (i) => point[i] || (tileCost.get(seen[i]) ?? 1));
  }

  /** A new engine and per-cell state for a w x h grid, with the points that lie on it. */
  #resize(w: number, h: number): void {
    const n = w * h;
    this.#edits++;
    this.#width = w;
    this.#height = h;
    this.#engine = new CompatEngine(w, h);
    this.#graph = null;
    this.#seen = new Array(n);
    this.#accept = new Uint8Array(n);
    this.#avoid = new Uint8Array(n);
    this.#cost = new Float64Array(n);
    this.#entry = new Uint8Array(n).fill(ANY);
    this.#changed = new Int32Array(n);
    this.#avoidCount = 0;
    this.#conditionCount = 0;
    this.#pending = [];
    this.#all = true;
    for (const [k, c] of this.#pointCost) this.#pointAt(k, (i) => (this.#cost[i] = c));
    for (const k of this.#avoided) this.#pointAt(k, (i) => this.#setAvoid(i, 1));
    for (const [k, m] of this.#conditions) this.#pointAt(k, (i) => this.#setEntry(i, m));
  }

  #setAvoid(i: number, v: number): void {
    this.#edits++;
    this.#avoidCount += v - this.#avoid[i];
    this.#avoid[i] = v;
  }

  #setEntry(i: number, mask: number): void {
    this.#edits++;
    this.#conditionCount += (mask !== ANY ? 1 : 0) - (this.#entry[i] !== ANY ? 1 : 0);
    this.#entry[i] = mask;
  }

  /** Runs `set` on the cell of point (x, y) when it lies on the grid last read, and queues its write. */
  #point(x: number, y: number, set: (i: number) => void): void {
    if (x < 0 || y < 0 || x >= this.#width || y >= this.#height) return;
    const i = y * this.#width + x;
    set(i);
    this.#pending.push(i);
  }

  #pointAt(k: string, set: (i: number) => void): void {
    const comma = k.indexOf(',');
    this.#point(Number(k.slice(0, comma)), Number(k.slice(comma + 1)), set);
  }
}

function key(x: number, y: number): string {
  if (typeof x !== 'number' || !Number.isInteger(x)) throw new TilenavError(`expected an integer, got ${describe(x)}`, { element: 'x' });
  if (typeof y !== 'number' || !Number.isInteger(y)) throw new TilenavError(`expected an integer, got ${describe(y)}`, { element: 'y' });
  return `${x},${y}`;
}

function checkRows(grid: unknown): asserts grid is unknown[][] {
  if (!Array.isArray(grid) || grid.length < 1 || !Array.isArray(grid[0]) || grid[0].length < 1) {
    throw new TilenavError(`expected rows of tile values (grid[y][x]), at least one row and one column, got ${describe(grid)}`, { element: 'grid' });
  }
  const w = grid[0].length;
  for (let y = 1; y < grid.length; y++) {
    const row: unknown = grid[y];
    if (!Array.isArray(row) || row.length !== w) throw new TilenavError(`expected ${w} tiles (the first row's length), got ${describe(row)}`, { element: `grid row ${y}` });
  }
}

function checkCoordinate(v: unknown, size: number, name: string): void {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= size) throw new TilenavError(`expected an integer 0..${size - 1} on the grid, got ${describe(v)}`, { element: name });
}

/** Everything above as one object, for `import EasyStar from 'tilenav/compat/easystar'` (each part is documented under its own name). @hidden */
const EasyStar = Object.freeze({ js, TOP, TOP_RIGHT, RIGHT, BOTTOM_RIGHT, BOTTOM, BOTTOM_LEFT, LEFT, TOP_LEFT });

export default EasyStar;
