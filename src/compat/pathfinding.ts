/**
 * tilenav/compat/pathfinding: code written for PathFinding.js 0.4 runs on tilenav's search after
 * changing only its import:
 *
 * ```ts
 * import PF from 'tilenav/compat/pathfinding';   // was: import PF from 'pathfinding'
 * const grid = new PF.Grid(matrix);
 * const path = new PF.AStarFinder({ diagonalMovement: PF.DiagonalMovement.OnlyWhenNoObstacles }).findPath(0, 0, 4, 6, grid);
 * ```
 *
 * The grid keeps its walkability in one typed array and its clones share one tilenav `Pathfinder`,
 * brought up to date from whichever grid is searched by writing only the cells that differ. A
 * search leaves the grid as it was, so cloning it before each search (which PathFinding.js needs)
 * is no longer necessary; code that still clones pays one copy of a byte per cell.
 *
 * Every finder returns a shortest path (fewest octile steps, diagonals sqrt 2) under its diagonal
 * rule, including those that PathFinding.js lets return longer ones by design (best-first,
 * weighted, bidirectional, and jump point search with its default heuristic). `heuristic` and
 * `weight` are accepted and kept on the finder, but do not change the path. See
 * docs/from-pathfinding.md for the differences, measured speed and how to move on to tilenav's own API.
 */
import { TilenavError, describe } from '../errors.js';
import type { MovementName } from '../search/movement.js';
import { CompatEngine } from './engine.js';

// ---- diagonal rules and heuristics --------------------------------------------------------------

/**
 * When a path may step diagonally, by how many of the step's two side cells are blocked (the same
 * numbers as PathFinding.js, so stored settings keep their meaning):
 * - `Always` (1): even between two blocked side cells (tilenav's `octile-always`);
 * - `Never` (2): four neighbours only (`cardinal`);
 * - `IfAtMostOneObstacle` (3): when at least one side cell is free (`octile-one-obstacle`);
 * - `OnlyWhenNoObstacles` (4): when both are free, no corner cutting (`octile`).
 */
export const DiagonalMovement = Object.freeze({
  /** Diagonal steps even between two blocked side cells (`octile-always`). */
  Always: 1,
  /** No diagonal steps (`cardinal`). */
  Never: 2,
  /** Diagonal steps when at least one side cell is free (`octile-one-obstacle`). */
  IfAtMostOneObstacle: 3,
  /** Diagonal steps when both side cells are free (`octile`). */
  OnlyWhenNoObstacles: 4,
} as const);

/** One of the {@link DiagonalMovement} values. */
export type DiagonalMovementValue = (typeof DiagonalMovement)[keyof typeof DiagonalMovement];

const MOVEMENT: Record<DiagonalMovementValue, MovementName> = { 1: 'octile-always', 2: 'cardinal', 3: 'octile-one-obstacle', 4: 'octile' };

/** A distance estimate from the absolute coordinate differences of two cells. */
export type HeuristicFunction = (dx: number, dy: number) => number;

/**
 * Distance estimates between cells `dx` apart in x and `dy` apart in y (both >= 0). The finders
 * here keep the one they are given but search with tilenav's own (exact) estimate.
 */
export const Heuristic = Object.freeze({
  /** dx + dy: steps on four neighbours. */
  manhattan: (dx: number, dy: number): number => dx + dy,
  /** The straight-line distance. */
  euclidean: (dx: number, dy: number): number => Math.sqrt(dx * dx + dy * dy),
  /** Length on eight neighbours with diagonals of sqrt 2: the longer side plus (sqrt 2 - 1) x the shorter. */
  octile: (dx: number, dy: number): number => (dx > dy ? dx + (Math.SQRT2 - 1) * dy : dy + (Math.SQRT2 - 1) * dx),
  /** The longer side: steps on eight neighbours when a diagonal counts 1. */
  chebyshev: (dx: number, dy: number): number => Math.max(dx, dy),
});

// ---- nodes and the grid ---------------------------------------------------------------------------

/**
 * A cell as an object, for code that reads `grid.nodes` or `getNodeAt`. A node of a grid reads and
 * writes that grid's walkability (`node.walkable = false` blocks the cell for the next search); a
 * node made with `new Node(x, y)` keeps its own. Searches never create nodes: a grid makes them,
 * one per cell, the first time `nodes`, `getNodeAt` or `getNeighbors` is used. Fields a search of
 * PathFinding.js wrote on them (`g`, `f`, `opened`, `closed`, `parent`) are not written here.
 */
export class Node {
  /** Its column. */
  x: number;
  /** Its row. */
  y: number;
  /** The node before this one on a path, for `Util.backtrace`. Searches here do not set it. */
  parent?: Node | null;
  [field: string]: unknown;
  #grid: Grid | null = null;
  #walkable: boolean;

  /** A node of its own (not a grid's) at (x, y), walkable unless `walkable` is false. */
  constructor(x: number, y: number, walkable?: boolean) {
    this.x = x;
    this.y = y;
    this.#walkable = walkable === undefined ? true : Boolean(walkable);
  }

  /** Whether the cell can be walked: a grid's node reads and writes its grid's cell. */
  get walkable(): boolean {
    return this.#grid === null ? this.#walkable : this.#grid.isWalkableAt(this.x, this.y);
  }

  /** Blocks (false) or opens (true) the cell; a grid's node writes its grid's cell. */
  set walkable(value: boolean) {
    if (this.#grid === null) this.#walkable = Boolean(value);
    else this.#grid.setWalkableAt(this.x, this.y, value);
  }

  /** A node reading and writing cell (x, y) of `grid`. @internal */
  static of(grid: Grid, x: number, y: number): Node {
    const node = new Node(x, y);
    node.#grid = grid;
    return node;
  }
}

/** A grid and its clones: the engine they share and the numbering of their contents. */
interface Family {
  engine: CompatEngine | null;
  /** The contents the engine holds (a {@link Grid} content number), 0 before it exists. */
  synced: number;
  /** The next content number. */
  next: number;
  /** Cell list for a full comparison, grown to the grid size on first use. */
  diff: Int32Array | null;
}

/** Rows of cells: 0, false or null walkable, anything else blocked. */
export type Matrix = ArrayLike<ArrayLike<unknown>>;

/**
 * A width x height grid of walkable and blocked cells; x grows right, y down.
 *
 * `new Grid(matrix)` or `new Grid(width, height, matrix?)`: in the matrix (rows of cells) 0, false
 * or null mean walkable and anything else blocked; without one every cell is walkable. A matrix
 * whose rows differ in length from the width throws a TilenavError naming the row.
 *
 * Memory: one byte per cell, plus for the first grid of a family searched a NavGrid (7 bytes per
 * cell) and its Pathfinder (about 20), shared with every clone.
 */
export class Grid {
  /** Columns. */
  readonly width: number;
  /** Rows. */
  readonly height: number;
  /** 1 walkable, 0 blocked, index `y * width + x`. */
  readonly #walk: Uint8Array;
  #family: Family;
  /** Content number: changes with every write that changes a cell; equal numbers, equal contents. */
  #state: number;
  /** The content number the dirty list starts from. */
  #base: number;
  #dirty = new Int32Array(16);
  #dirtyCount = 0;
  /** More cells changed than the dirty list holds: the next search compares every cell. */
  #overflow = false;
  #nodes: Node[][] | null = null;

  /** A grid the size of `matrix`, its cells as the matrix says. */
  constructor(matrix: Matrix);
  /** A width x height grid, every cell walkable, or as `matrix` says. */
  constructor(width: number, height: number, matrix?: Matrix);
  constructor(widthOrMatrix: number | Matrix, height?: number, matrix?: Matrix) {
    let width: number;
    if (typeof widthOrMatrix === 'number') {
      width = widthOrMatrix;
      if (!Number.isInteger(width) || width < 0) throw new TilenavError(`expected a whole number of columns, got ${describe(width)}`, { element: 'width' });
      if (typeof height !== 'number' || !Number.isInteger(height) || height < 0) throw new TilenavError(`expected a whole number of rows, got ${describe(height)}`, { element: 'height' });
    } else {
      matrix = widthOrMatrix;
      if (matrix === null || typeof matrix !== 'object' || matrix.length < 1 || matrix[0] === null || typeof matrix[0] !== 'object') {
        throw new TilenavError(`expected a matrix: rows of cells, at least one row, got ${describe(matrix)}`, { element: 'matrix' });
      }
      height = matrix.length;
      width = matrix[0].length;
    }
    this.width = width;
    this.height = height;
    this.#walk = new Uint8Array(width * height).fill(1);
    if (matrix !== undefined) {
      if (matrix === null || typeof matrix !== 'object' || matrix.length !== height) {
        throw new TilenavError(`expected ${height} rows of ${width} cells, got ${describe(matrix)}`, { element: 'matrix' });
      }
      for (let y = 0; y < height; y++) {
        const row = matrix[y];
        if (row === null || typeof row !== 'object' || row.length !== width) {
          throw new TilenavError(`expected ${width} cells (the width), got ${describe(row)}`, { element: `matrix row ${y}` });
        }
        for (let x = 0; x < width; x++) if (row[x]) this.#walk[y * width + x] = 0;
      }
    }
    this.#family = { engine: null, synced: 0, next: 2, diff: null };
    this.#state = this.#base = 1;
  }

  /** Whether (x, y) is a cell of the grid. */
  isInside(x: number, y: number): boolean {
    return Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < this.width && y < this.height;
  }

  /** Whether (x, y) can be walked on; false outside the grid. */
  isWalkableAt(x: number, y: number): boolean {
    return this.isInside(x, y) && this.#walk[y * this.width + x] === 1;
  }

  /** Makes (x, y) walkable or blocked (any truthy value walks). Throws a TilenavError outside the grid. */
  setWalkableAt(x: number, y: number, walkable: boolean): void {
    const i = this.#cell(x, y, 'x', 'y');
    const v = walkable ? 1 : 0;
    if (this.#walk[i] === v) return;
    this.#walk[i] = v;
    this.#state = this.#family.next++;
    if (this.#overflow) return;
    if (this.#dirtyCount === this.#dirty.length) {
      if (this.#dirty.length >= Math.max(64, this.#walk.length >> 5)) {
        this.#overflow = true;
        return;
      }
      const grown = new Int32Array(this.#dirty.length * 2);
      grown.set(this.#dirty);
      this.#dirty = grown;
    }
    this.#dirty[this.#dirtyCount++] = i;
  }

  /** The rows of nodes, `nodes[y][x]`, made on first use (one object per cell). */
  get nodes(): Node[][] {
    if (this.#nodes === null) {
      const rows: Node[][] = [];
      for (let y = 0; y < this.height; y++) {
        const row: Node[] = [];
        for (let x = 0; x < this.width; x++) row.push(Node.of(this, x, y));
        rows.push(row);
      }
      this.#nodes = rows;
    }
    return this.#nodes;
  }

  /** The node of cell (x, y). Throws a TilenavError outside the grid. */
  getNodeAt(x: number, y: number): Node {
    this.#cell(x, y, 'x', 'y');
    return this.nodes[y][x];
  }

  /**
   * The walkable neighbours of `node` a step may reach under `diagonalMovement`: up, right, down,
   * left, then up-left, up-right, down-right, down-left. Throws a TilenavError for another value.
   */
  getNeighbors(node: { x: number; y: number }, diagonalMovement: DiagonalMovementValue): Node[] {
    const rule = checkDiagonal(diagonalMovement, 'diagonalMovement');
    const { x, y } = node;
    const nodes = this.nodes;
    const out: Node[] = [];
    const up = this.isWalkableAt(x, y - 1);
    const right = this.isWalkableAt(x + 1, y);
    const down = this.isWalkableAt(x, y + 1);
    const left = this.isWalkableAt(x - 1, y);
    if (up) out.push(nodes[y - 1][x]);
    if (right) out.push(nodes[y][x + 1]);
    if (down) out.push(nodes[y + 1][x]);
    if (left) out.push(nodes[y][x - 1]);
    if (rule === DiagonalMovement.Never) return out;
    // Each corner with the two side cells it lies between.
    const corners: [number, number, boolean, boolean][] = [
      [-1, -1, left, up],
      [1, -1, up, right],
      [1, 1, right, down],
      [-1, 1, down, left],
    ];
    for (const [dx, dy, a, b] of corners) {
      const ok = rule === DiagonalMovement.Always || (rule === DiagonalMovement.IfAtMostOneObstacle ? a || b : a && b);
      if (ok && this.isWalkableAt(x + dx, y + dy)) out.push(nodes[y + dy][x + dx]);
    }
    return out;
  }

  /**
   * A grid with the same cells, changed independently from then on. It shares this grid's search
   * state, so cloning costs one copy of a byte per cell and the clone's first search starts warm.
   */
  clone(): Grid {
    const copy = new Grid(this.width, this.height);
    copy.#walk.set(this.#walk);
    copy.#family = this.#family;
    copy.#state = copy.#base = this.#state;
    return copy;
  }

  /**
   * The shortest path from (sx, sy) to (ex, ey) under `movement` as [x, y] pairs, start first; []
   * without one. A blocked start is searched from, as PathFinding.js does. @internal
   */
  searchPath(sx: number, sy: number, ex: number, ey: number, movement: MovementName): number[][] {
    this.#cell(sx, sy, 'startX', 'startY');
    const goal = this.#cell(ex, ey, 'endX', 'endY');
    if (sx === ex && sy === ey) return [[sx, sy]];
    if (this.#walk[goal] === 0) return [];
    const cells = this.#engine().findPath(sx, sy, ex, ey, movement);
    if (cells === null) return [];
    const w = this.width;
    const path: number[][] = new Array(cells.length);
    for (let k = 0; k < cells.length; k++) path[k] = [cells[k] % w, (cells[k] / w) | 0];
    return path;
  }

  /** The family's engine, holding this grid's cells. */
  #engine(): CompatEngine {
    const family = this.#family;
    let engine = family.engine;
    const walk = this.#walk;
    const walkable = (i: number) => walk[i] === 1;
    if (engine === null) {
      engine = family.engine = new CompatEngine(this.width, this.height);
      engine.grid.layers[0].walkable.set(walk);
    } else if (family.synced !== this.#state) {
      if (family.synced === this.#base && !this.#overflow) {
        engine.write(this.#dirty, this.#dirtyCount, walkable);
      } else {
        const held = engine.grid.layers[0].walkable;
        const diff = (family.diff ??= new Int32Array(walk.length));
        let count = 0;
        for (let i = 0; i < walk.length; i++) if (held[i] !== walk[i]) diff[count++] = i;
        engine.write(diff, count, walkable);
      }
    }
    family.synced = this.#base = this.#state;
    this.#dirtyCount = 0;
    this.#overflow = false;
    return engine;
  }

  /** The index of (x, y), or a TilenavError naming the coordinate outside the grid. */
  #cell(x: number, y: number, nx: string, ny: string): number {
    if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x >= this.width) throw new TilenavError(`expected an integer 0..${this.width - 1} (the grid is ${this.width} x ${this.height}), got ${describe(x)}`, { element: nx });
    if (typeof y !== 'number' || !Number.isInteger(y) || y < 0 || y >= this.height) throw new TilenavError(`expected an integer 0..${this.height - 1} (the grid is ${this.width} x ${this.height}), got ${describe(y)}`, { element: ny });
    return y * this.width + x;
  }
}

function checkDiagonal(value: unknown, name: string): DiagonalMovementValue {
  if (value === 1 || value === 2 || value === 3 || value === 4) return value;
  throw new TilenavError(`expected a DiagonalMovement value (Always 1, Never 2, IfAtMostOneObstacle 3, OnlyWhenNoObstacles 4), got ${describe(value)}`, { element: name });
}

// ---- finders --------------------------------------------------------------------------------------

/** Options every finder takes; each keeps them as properties of the same names. */
export interface FinderOptions {
  /** When a path may step diagonally. @default DiagonalMovement.Never (jump point search: IfAtMostOneObstacle) */
  diagonalMovement?: DiagonalMovementValue;
  /** The older switch: true means IfAtMostOneObstacle, or OnlyWhenNoObstacles with `dontCrossCorners`. @default false */
  allowDiagonal?: boolean;
  /** With `allowDiagonal`: never pass beside a blocked cell diagonally. @default false */
  dontCrossCorners?: boolean;
  /** Kept on the finder; the search uses tilenav's exact estimate. @default Heuristic.manhattan without diagonals, else Heuristic.octile */
  heuristic?: HeuristicFunction;
  /** Kept on the finder (a number > 0); the path is a shortest one whatever its value. @default 1 */
  weight?: number;
  /** IDAStarFinder's time limit in seconds; kept, never reached here. */
  timeLimit?: number;
  /** IDAStarFinder's and the jump point finders' debugging switches; kept, no effect. */
  trackRecursion?: boolean;
  /** The jump point finders' debugging switch; kept, no effect. */
  trackJumpRecursion?: boolean;
}

/** What every finder has: its settings and `findPath`. */
abstract class GridFinder {
  /** When its paths step diagonally, from `diagonalMovement` or the older `allowDiagonal` / `dontCrossCorners`. */
  readonly diagonalMovement: DiagonalMovementValue;
  /** The `allowDiagonal` option as given. */
  readonly allowDiagonal: boolean | undefined;
  /** The `dontCrossCorners` option as given. */
  readonly dontCrossCorners: boolean | undefined;
  /** The estimate given, or the default for its diagonal rule; kept, the search uses its own exact one. */
  readonly heuristic: HeuristicFunction;
  /** The weight given (1 by default); kept, paths are shortest whatever it is. */
  readonly weight: number;

  /** A finder with `options` (see {@link FinderOptions}); a wrong option throws a TilenavError naming it. */
  constructor(options?: FinderOptions) {
    if (options !== undefined && (options === null || typeof options !== 'object')) throw new TilenavError(`expected an options object, got ${describe(options)}`, { element: 'options' });
    const o = options ?? {};
    this.allowDiagonal = o.allowDiagonal;
    this.dontCrossCorners = o.dontCrossCorners;
    const rule = this.ruleOf(o);
    this.diagonalMovement = rule;
    if (o.heuristic !== undefined && typeof o.heuristic !== 'function') throw new TilenavError(`expected a function (dx, dy) => estimate, got ${describe(o.heuristic)}`, { element: 'heuristic' });
    this.heuristic = o.heuristic ?? (rule === DiagonalMovement.Never ? Heuristic.manhattan : Heuristic.octile);
    if (o.weight !== undefined && o.weight !== 0 && (typeof o.weight !== 'number' || !Number.isFinite(o.weight) || o.weight < 0)) throw new TilenavError(`expected a finite number > 0, got ${describe(o.weight)}`, { element: 'weight' });
    this.weight = o.weight || 1;
  }

  /** The diagonal rule `options` choose: `diagonalMovement`, else the older `allowDiagonal` and `dontCrossCorners`. */
  protected ruleOf(options: FinderOptions): DiagonalMovementValue {
    // 0, null and undefined all mean "not given", as in PathFinding.js.
    if (options.diagonalMovement) return checkDiagonal(options.diagonalMovement, 'diagonalMovement');
    if (!options.allowDiagonal) return DiagonalMovement.Never;
    return options.dontCrossCorners ? DiagonalMovement.OnlyWhenNoObstacles : DiagonalMovement.IfAtMostOneObstacle;
  }

  /**
   * A shortest path from (startX, startY) to (endX, endY) on `grid` (a Grid of this module) as
   * [x, y] pairs including both ends, or [] when there is none or the end is blocked. A blocked
   * start is searched from, as PathFinding.js does. The grid is left as it was: no clone needed.
   * From a cell to itself every finder gives `[[x, y]]` (PathFinding.js's jump point finders give
   * [], its bidirectional ones a round trip through a neighbour). Coordinates outside the grid, or
   * a grid of another library, throw a TilenavError (PathFinding.js returns [] for an end outside).
   */
  findPath(startX: number, startY: number, endX: number, endY: number, grid: Grid): number[][] {
    if (!(grid instanceof Grid)) throw new TilenavError(`expected a Grid made by tilenav/compat/pathfinding, got ${describe(grid)}`, { element: 'grid' });
    return grid.searchPath(startX, startY, endX, endY, MOVEMENT[this.diagonalMovement]);
  }
}

/** A*: a shortest path, as in PathFinding.js (which with a `weight` above 1 may return a longer one; here it is still a shortest). */
export class AStarFinder extends GridFinder {}

/** Best-first search: PathFinding.js's returns a path fast but often not a shortest one; this one returns a shortest. */
export class BestFirstFinder extends AStarFinder {}

/** Dijkstra's algorithm: a shortest path. */
export class DijkstraFinder extends AStarFinder {}

/**
 * Breadth-first search. PathFinding.js's returns the path with the fewest steps, which with
 * diagonal moves can be longer than a shortest one; this one returns a shortest (it may take more steps).
 */
export class BreadthFirstFinder extends GridFinder {}

/** Bidirectional A*: PathFinding.js's stops where the two searches meet, often off a shortest path; this one returns a shortest. */
export class BiAStarFinder extends GridFinder {}

/** Bidirectional best-first search: a shortest path here (PathFinding.js's often is not). */
export class BiBestFirstFinder extends BiAStarFinder {}

/** Bidirectional Dijkstra: a shortest path here (PathFinding.js's misses it at times when diagonals are allowed). */
export class BiDijkstraFinder extends BiAStarFinder {}

/**
 * Bidirectional breadth-first search: a shortest path here (PathFinding.js's has the fewest steps,
 * at times not the shortest length with diagonals).
 */
export class BiBreadthFirstFinder extends GridFinder {}

/**
 * Iterative deepening A*: a shortest path, found by tilenav's A* in the time of one search (no
 * depth-first repetition, so `timeLimit` is never reached).
 */
export class IDAStarFinder extends GridFinder {
  /** The time limit given in seconds (Infinity without one); kept, never reached. */
  readonly timeLimit: number;

  /** A finder with `options` (see {@link FinderOptions}). */
  constructor(options?: FinderOptions) {
    super(options);
    this.timeLimit = options?.timeLimit || Infinity;
  }
}

/**
 * The jump point finders. PathFinding.js's read only `diagonalMovement` (default
 * IfAtMostOneObstacle; `allowDiagonal` is ignored) and at times return a longer path; these
 * return a shortest one, listing every cell as PathFinding.js does after expanding its jumps.
 */
export class JumpPointFinderBase extends GridFinder {
  protected override ruleOf(options: FinderOptions): DiagonalMovementValue {
    return options.diagonalMovement ? checkDiagonal(options.diagonalMovement, 'diagonalMovement') : DiagonalMovement.IfAtMostOneObstacle;
  }
}

/** Jump point search on four neighbours. */
export class JPFNeverMoveDiagonally extends JumpPointFinderBase {
  protected override ruleOf(): DiagonalMovementValue {
    return DiagonalMovement.Never;
  }
}

/** Jump point search with diagonals even between two blocked cells. */
export class JPFAlwaysMoveDiagonally extends JumpPointFinderBase {
  protected override ruleOf(): DiagonalMovementValue {
    return DiagonalMovement.Always;
  }
}

/** Jump point search with diagonals past at most one blocked cell. */
export class JPFMoveDiagonallyIfAtMostOneObstacle extends JumpPointFinderBase {
  protected override ruleOf(): DiagonalMovementValue {
    return DiagonalMovement.IfAtMostOneObstacle;
  }
}

/** Jump point search with diagonals only between two free cells. */
export class JPFMoveDiagonallyIfNoObstacles extends JumpPointFinderBase {
  protected override ruleOf(): DiagonalMovementValue {
    return DiagonalMovement.OnlyWhenNoObstacles;
  }
}

/** {@link JumpPointFinder}: called with or without `new`, like PathFinding.js's. */
export interface JumpPointFinderFactory {
  /** The jump point finder for `options.diagonalMovement`, with `new`. */
  new (options?: FinderOptions): JumpPointFinderBase;
  /** The jump point finder for `options.diagonalMovement`, without `new`. */
  (options?: FinderOptions): JumpPointFinderBase;
}

/**
 * The jump point finder for `options.diagonalMovement` (default IfAtMostOneObstacle): one of the
 * four JPF classes, as PathFinding.js's factory returns.
 */
export const JumpPointFinder = function JumpPointFinder(options?: FinderOptions): JumpPointFinderBase {
  const rule = options?.diagonalMovement;
  if (rule === DiagonalMovement.Never) return new JPFNeverMoveDiagonally(options);
  if (rule === DiagonalMovement.Always) return new JPFAlwaysMoveDiagonally(options);
  if (rule === DiagonalMovement.OnlyWhenNoObstacles) return new JPFMoveDiagonallyIfNoObstacles(options);
  if (rule) checkDiagonal(rule, 'diagonalMovement');
  return new JPFMoveDiagonallyIfAtMostOneObstacle(options);
} as unknown as JumpPointFinderFactory;

// ---- path utilities -------------------------------------------------------------------------------

/** A node chain as `Util.backtrace` reads it. */
export interface TraceNode {
  /** Its column. */
  x: number;
  /** Its row. */
  y: number;
  /** The node before it; the chain ends at a node without one. */
  parent?: TraceNode | null;
}

/**
 * The cells of the line from (x0, y0) to (x1, y1), both ends included, by Bresenham's algorithm
 * (integer steps; a diagonal step where x and y both advance).
 */
function interpolate(x0: number, y0: number, x1: number, y1: number): number[][] {
  const dx = Math.abs(x1 - x0);
  const dy = Math.abs(y1 - y0);
  const stepX = x0 < x1 ? 1 : -1;
  const stepY = y0 < y1 ? 1 : -1;
  const line: number[][] = [[x0, y0]];
  let x = x0;
  let y = y0;
  // err tracks dx * (distance covered in y) - dy * (distance covered in x), doubled below.
  let err = dx - dy;
  while (x !== x1 || y !== y1) {
    const twice = 2 * err;
    if (twice > -dy) {
      err -= dy;
      x += stepX;
    }
    if (twice < dx) {
      err += dx;
      y += stepY;
    }
    line.push([x, y]);
  }
  return line;
}

/** The path ending at `node`, following `parent` links back to the start: [x, y] pairs, start first. */
function backtrace(node: TraceNode): number[][] {
  const path: number[][] = [];
  for (let n: TraceNode | null | undefined = node; n; n = n.parent) path.push([n.x, n.y]);
  return path.reverse();
}

/** A path meeting in the middle: the chain back from `a`, then the chain back from `b` reversed. */
function biBacktrace(a: TraceNode, b: TraceNode): number[][] {
  return backtrace(a).concat(backtrace(b).reverse());
}

/** The Euclidean length of a path of [x, y] points. */
function pathLength(path: readonly (readonly number[])[]): number {
  let sum = 0;
  for (let k = 1; k < path.length; k++) sum += Math.hypot(path[k][0] - path[k - 1][0], path[k][1] - path[k - 1][1]);
  return sum;
}

/**
 * Every cell along a path given by its corners: each segment filled in with {@link interpolate}.
 * A path of one point comes back as that point (PathFinding.js gives []); an empty one as [].
 */
function expandPath(path: readonly (readonly number[])[]): number[][] {
  if (path.length === 0) return [];
  const out: number[][] = [];
  for (let k = 0; k + 1 < path.length; k++) {
    const line = interpolate(path[k][0], path[k][1], path[k + 1][0], path[k + 1][1]);
    for (let j = 0; j + 1 < line.length; j++) out.push(line[j]);
  }
  const last = path[path.length - 1];
  out.push([last[0], last[1]]);
  return out;
}

/**
 * The corners of a path: points where its direction changes, plus both ends. The input is not
 * modified; a path of fewer than three points is returned as given.
 */
function compressPath<T extends readonly number[]>(path: readonly T[]): T[] | number[][] {
  if (path.length < 3) return path as T[];
  const out: number[][] = [[path[0][0], path[0][1]]];
  for (let k = 1; k + 1 < path.length; k++) {
    const ax = path[k][0] - path[k - 1][0];
    const ay = path[k][1] - path[k - 1][1];
    const bx = path[k + 1][0] - path[k][0];
    const by = path[k + 1][1] - path[k][1];
    // Same direction: parallel (cross product 0) and pointing the same way (dot product > 0).
    if (ax * by - ay * bx !== 0 || ax * bx + ay * by <= 0) out.push([path[k][0], path[k][1]]);
  }
  const last = path[path.length - 1];
  out.push([last[0], last[1]]);
  return out;
}

/**
 * A shorter polyline through the same free cells: from each kept point, the path is followed as
 * far as the straight line to the next point ({@link interpolate}) crosses only walkable cells of
 * `grid`, and the last point before it does not is kept. Corners are not tested, as in
 * PathFinding.js. Returns a new path (ends included); the input is not modified. A path of fewer
 * than two points comes back as a copy.
 */
function smoothenPath(grid: Grid, path: readonly (readonly number[])[]): number[][] {
  if (path.length < 2) return path.map((p) => [p[0], p[1]]);
  let sx = path[0][0];
  let sy = path[0][1];
  const out: number[][] = [[sx, sy]];
  for (let k = 2; k < path.length; k++) {
    const line = interpolate(sx, sy, path[k][0], path[k][1]);
    let clear = true;
    for (let j = 1; j < line.length && clear; j++) clear = grid.isWalkableAt(line[j][0], line[j][1]);
    if (!clear) {
      sx = path[k - 1][0];
      sy = path[k - 1][1];
      out.push([sx, sy]);
    }
  }
  const last = path[path.length - 1];
  out.push([last[0], last[1]]);
  return out;
}

/** PathFinding.js's path helpers: the same results on the same input (see each for its edge cases). */
export const Util = Object.freeze({
  /** The path ending at a node, following `parent` links back to the start: [x, y] pairs, start first. */
  backtrace,
  /** A path meeting in the middle: the chain back from `a`, then the chain back from `b` reversed. */
  biBacktrace,
  /** The Euclidean length of a path of [x, y] points. */
  pathLength,
  /** The cells of the line from (x0, y0) to (x1, y1), both ends included (Bresenham's line). */
  interpolate,
  /** A path of corners expanded into every cell between them. */
  expandPath,
  /** A path with the cells between its corners left out. */
  compressPath,
  /** PathFinding.js's smoothing: a corner is dropped while the straight line past it crosses no blocked cell. */
  smoothenPath,
});

/** Everything above as one object, for `import PF from 'tilenav/compat/pathfinding'` (each part is documented under its own name). @hidden */
const PF = Object.freeze({
  Node,
  Grid,
  Util,
  DiagonalMovement,
  Heuristic,
  AStarFinder,
  BestFirstFinder,
  BreadthFirstFinder,
  DijkstraFinder,
  BiAStarFinder,
  BiBestFirstFinder,
  BiBreadthFirstFinder,
  BiDijkstraFinder,
  IDAStarFinder,
  JumpPointFinder,
  JumpPointFinderBase,
  JPFNeverMoveDiagonally,
  JPFAlwaysMoveDiagonally,
  JPFMoveDiagonallyIfAtMostOneObstacle,
  JPFMoveDiagonallyIfNoObstacles,
});

export default PF;
