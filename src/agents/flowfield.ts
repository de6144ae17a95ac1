/**
 * Flow fields to a goal cell, shared by every unit and every group heading there: exact costs to
 * the goal, computed lazily and stored per sector of 32 x 32 cells, kept by the grid
 * ({@link flowFieldCache}) and repaired in place when the grid changes.
 *
 * One field is one resumable Dijkstra from the goal over the reversed moves (the cost of a move is
 * its length times the cost of the cell it enters, as in every search of the library). Asking for a
 * cell runs the search on until that cell is settled, and no further: a cell's cost is settled
 * once every cell cheaper than it is, so the field only ever computes the cells at most as far
 * from the goal as the farthest cell asked, and a sector's storage (9 bytes per cell) exists only
 * once the search reaches it. Costs are the cheapest paths' (test/flowfield-sectors.test.ts holds
 * them to the reference Dijkstra), and each settled cell keeps the neighbour its cost came from:
 * following those steps from any cell walks a cheapest path to the goal.
 *
 * Why no portal graph between sectors: its costs would be exact only if every border cell of
 * every sector were a node with exact in-sector costs to every other, which costs more to build
 * and to search than the cells themselves (a 32 x 32 sector has up to 124 border cells). Sectors
 * here are the unit of storage, of laziness and of repair.
 */
import { TilenavError, assertArrayLike, assertInteger, assertOptionsObject, describe } from '../errors.js';
import type { CellRect, Derived, GridChange, MemoryEntry, NavGrid, SearchView } from '../grid/navgrid.js';
import { exitMask, pad } from '../grid/padded.js';
import { MonotoneQueue, type QueueSnapshot } from '../search/kernel/heap.js';
import type { ComponentLabels } from '../search/bounds/components.js';
import type { MovementModel, MovementName } from '../search/movement.js';
import { pathfinderOf, type Pathfinder } from '../search/pathfinder.js';

/** Cells per sector side: a field's costs are stored, computed and repaired per sector of this many cells square. */
export const FLOW_SECTOR_SIZE = 32;
const SHIFT = 5;
const MASK = FLOW_SECTOR_SIZE - 1;
const AREA = FLOW_SECTOR_SIZE * FLOW_SECTOR_SIZE;

/** Cell states, in a sector's `state` bytes: the low two bits; bits 2-5 hold the direction code. */
const UNSEEN = 0;
const OPEN = 1;
const SETTLED = 2;
/** Marks a cell during a repair (bit 6): listed already (in the ring, then among the cells reset). */
const MARK = 64;
/** Direction code of "no step" (the goal, or not computed): (dx, dy) = (0, 0). */
const NONE = 4;

/** Bytes per cell of a sector's storage: a float64 cost and a state byte. */
const BYTES_PER_CELL = 9;

/**
 * The limits of a grid's flow field cache ({@link flowFieldCache}): past either, the least
 * recently asked fields that no order holds give their memory back.
 */
export interface FlowFieldLimits {
  /** Fields kept at most (held ones count, and are never dropped). @default 16 */
  maxFields: number;
  /** Bytes of sector storage kept at most, all fields together. @default 67_108_864 (64 MB) */
  maxBytes: number;
}

/** The defaults of {@link FlowFieldLimits}. */
export const DEFAULT_FLOW_FIELD_LIMITS: Readonly<FlowFieldLimits> = Object.freeze({ maxFields: 16, maxBytes: 64 * 1024 * 1024 });

/** A step between neighbouring cells: each of dx, dy is -1, 0 or 1. */
export interface FlowStep {
  /** Column change. */
  dx: number;
  /** Row change. */
  dy: number;
}

/** What a flow field's last repair recomputed ({@link FlowField.lastRepair}). */
export interface FlowRepair {
  /** Cells reset or lowered. */
  cells: number;
  /** Sectors those cells lie in. */
  sectors: number;
}

/** Options of {@link flowFieldTo}. */
export interface FlowFieldOptions {
  /** Layer index or name. @default 0 */
  layer?: number | string;
  /** How units step. @default the grid's own, `grid.movement` */
  movement?: MovementName;
}

/**
 * A field's computed state as a PathService worker hands it over (see {@link FlowField.handOver}):
 * numbers and typed arrays only, each sector's storage its own buffer, so the message moves them
 * rather than copying a cell. It travels in the PathService's messages, whose declarations name it.
 */
export interface FlowFieldSnapshot {
  /** Per sector reached: its index (sector row * sectors per row + sector column) and its settled cells, in pairs. */
  sectors: Int32Array;
  /** Per sector, in the same order: its storage, the costs (a float64 a cell) then the state bytes. */
  storage: ArrayBuffer[];
  /** The search's queue: the cells it would settle next. */
  queue: QueueSnapshot;
  /** The last key settled, the queue's bucket bounds lo and hi, the settled cells, 1 when nothing is left to search. */
  numbers: Float64Array;
}

/**
 * What a unit follows: the next cell toward a goal and the cost left from a cell. A
 * {@link FlowField} is one; a chase (NavigationSystem.chase) answers from the newest of its fields
 * that has the cell settled. @internal
 */
export interface UnitField {
  /** The goal cell (index y * width + x). */
  readonly goal: number;
  /** True for a chase: units never leave it for a slot of their own. */
  readonly chasing: boolean;
  /** The cell to step to from cell i, -1 at the goal or where it cannot be reached. */
  next(i: number): number;
  /** The cost to the goal from cell i, Infinity where it cannot be reached. */
  cost(i: number): number;
  /**
   * Whether a unit in cell i walks straight at its target for now instead of reading the field:
   * the cell is not computed yet, and the field grows a step at a time or comes from a worker.
   */
  waits(i: number): boolean;
  /** Whether cell i is known, without computing anything, to be unable to reach the goal (blocked, another component). */
  cannotReach(i: number): boolean;
}

/** One sector's storage. */
interface Sector {
  /** Cost to the goal per cell (Infinity until reached). */
  readonly cost: Float64Array;
  /** State (UNSEEN, OPEN, SETTLED) | direction code << 2 | MARK during a repair. */
  readonly state: Uint8Array;
  /** Settled cells in it. */
  settled: number;
}

/** The moves of a model as the search reads them, per parity, relative to the cell settled. */
interface MoveTable {
  count: number;
  corner: number;
  /** Per parity: x and y offsets to the neighbour p. */
  dx: Int32Array[];
  dy: Int32Array[];
  /** Per parity: padded offset to p; the two side cells of a diagonal (0: none to test). */
  padded: Int32Array[];
  sideA: Int32Array[];
  sideB: Int32Array[];
  /** Per parity: the move's length, the one-way bits that forbid p's step back, p's direction code (shifted). */
  length: Float64Array[];
  exit: Uint8Array[];
  code: Uint8Array[];
  /** 0: one table; 1: x parity; 2: y parity. */
  axis: number;
  longest: number;
}

function moveTable(model: MovementModel, stride: number): MoveTable {
  const t: MoveTable = { count: model.steps[0].length, corner: model.corner, dx: [], dy: [], padded: [], sideA: [], sideB: [], length: [], exit: [], code: [], axis: model.parityAxis === 'x' ? 1 : model.parityAxis === 'y' ? 2 : 0, longest: 1 };
  for (const steps of model.steps) {
    t.dx.push(Int32Array.from(steps, (s) => s.dx));
    t.dy.push(Int32Array.from(steps, (s) => s.dy));
    t.padded.push(Int32Array.from(steps, (s) => s.dy * stride + s.dx));
    // The side cells of the diagonal p -> c are those of c -> p: (c.x + dx, c.y) and (c.x, c.y + dy).
    const checked = (s: (typeof steps)[number]) => s.diagonal && model.corner < 2;
    t.sideA.push(Int32Array.from(steps, (s) => (checked(s) ? s.dx : 0)));
    t.sideB.push(Int32Array.from(steps, (s) => (checked(s) ? s.dy * stride : 0)));
    t.length.push(Float64Array.from(steps, (s) => s.length));
    t.exit.push(Uint8Array.from(steps, (s) => exitMask(-s.dx, -s.dy)));
    t.code.push(Uint8Array.from(steps, (s) => codeOf(-s.dx, -s.dy) << 2));
    for (const s of steps) t.longest = Math.max(t.longest, s.length);
  }
  return t;
}

/**
 * A sector whose storage is `bytes` (AREA * BYTES_PER_CELL of them: the costs, then the state
 * bytes): one buffer per sector, so a worker can move a field's sectors to the main thread.
 */
function sectorOn(bytes: ArrayBuffer, settled: number): Sector {
  return { cost: new Float64Array(bytes, 0, AREA), state: new Uint8Array(bytes, AREA * 8, AREA), settled };
}

/** The direction code of a step (dx, dy), each -1..1: 0..8, 4 for none. */
function codeOf(dx: number, dy: number): number {
  return (dy + 1) * 3 + dx + 1;
}

/**
 * Exact costs to one goal cell over one layer under one movement model, computed lazily per
 * sector and kept by the grid's cache ({@link flowFieldTo}). Read it per cell: {@link costAt} /
 * {@link directionAt} by coordinates, {@link cost} / {@link next} by cell index (the game loop's
 * calls: no allocation). A cell not computed yet is computed by the call (the search runs on
 * until it is settled); {@link cover} computes a set of cells ahead, with a budget.
 *
 * Grid changes on the layer are repaired at the next read: the cells whose cheapest way crossed a
 * changed cell are reset and computed again from their neighbours, and cells a change made
 * cheaper are lowered; every other cell keeps its cost. Answers stay exact.
 */
export class FlowField {
  /** The grid the field covers. */
  readonly grid: NavGrid;
  /** The goal cell's index (y * width + x). */
  readonly goal: number;
  /** The goal cell's column. */
  readonly goalX: number;
  /** The goal cell's row. */
  readonly goalY: number;
  /** The layer, by index. */
  readonly layer: number;
  /** The movement model the costs are measured with. */
  readonly movement: MovementName;
  /** A flow field is not a chase. @internal */
  readonly chasing = false;
  /** Grid changes repaired so far (one per read after a burst of change events). */
  repairs = 0;
  /** Times the field started over (too large a change, a new cheapest or dearest cost on the layer, the goal blocked, or dropped by the cache). */
  restarts = 0;
  /** What the last repair recomputed: the cells reset or lowered, and the sectors they lie in. */
  lastRepair: FlowRepair = { cells: 0, sectors: 0 };
  /** Orders holding the field: the cache never drops a held field. @internal */
  holders = 0;
  /**
   * Builds of this field running in a PathService's workers (`service.flowField`): while one
   * runs, a NavigationSystem does not grow the field itself, it waits for the worker's. @internal
   */
  workerBuilds = 0;

  private readonly model: MovementModel;
  private cache: FlowFieldCache;
  private readonly width: number;
  private readonly sectorsWide: number;
  /** The search queue holds cells as (y << xBits) | x: no division per cell taken off it. */
  private readonly xBits: number;
  private readonly moves: MoveTable;
  /** Cell index delta per direction code. */
  private readonly codeDelta: Int32Array;
  private sectors: (Sector | undefined)[];
  private sectorCount = 0;
  private settledCount = 0;
  private readonly queue = new MonotoneQueue();
  /** The bucket bounds the queue was reset with. */
  private lo = 0;
  private hi = 0;
  /** The key of the cell settled last: every cell cheaper than this (less a bucket) is settled. */
  private key = 0;
  /** Nothing left to search: every cell not settled is unreachable. */
  private exhausted = false;
  private started = false;
  /** Changed rectangles not yet repaired; null when none. */
  private pending: CellRect[] | null = null;
  private pendingArea = 0;
  private labels: ComponentLabels | null = null;
  /** The sector where {@link settledAt} last found a settled cell. */
  private found: Sector | undefined;
  /** In the cache's listing (false after the cache dropped it: the next read takes it back). @internal */
  cached = true;
  /** When it was last asked for (the cache's clock). @internal */
  asked = 0;

  /** Made by the grid's cache (see {@link FlowFieldCache.get}). @internal */
  static make(cache: FlowFieldCache, goal: number, layer: number, model: MovementModel): FlowField {
    return new FlowField(cache, goal, layer, model);
  }

  /** Fields are made by the grid's cache: use {@link flowFieldTo}. */
  private constructor(cache: FlowFieldCache, goal: number, layer: number, model: MovementModel) {
    const grid = cache.grid;
    this.grid = grid;
    this.cache = cache;
    this.goal = goal;
    this.goalX = grid.xOf(goal);
    this.goalY = grid.yOf(goal);
    this.layer = layer;
    this.model = model;
    this.movement = model.name;
    this.width = grid.width;
    this.sectorsWide = Math.ceil(grid.width / FLOW_SECTOR_SIZE);
    this.xBits = Math.ceil(Math.log2(grid.width + 1));
    this.sectors = new Array<Sector | undefined>(this.sectorsWide * Math.ceil(grid.height / FLOW_SECTOR_SIZE));
    this.moves = moveTable(model, grid.width + 2);
    this.codeDelta = new Int32Array(9);
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) this.codeDelta[codeOf(dx, dy)] = dy * grid.width + dx;
  }

  /** Cells whose cost is settled. */
  get settledCells(): number {
    return this.settledCount;
  }

  /** Sectors holding storage (the search has reached them). */
  get sectorsComputed(): number {
    return this.sectorCount;
  }

  /** Bytes held: 9 per cell of each sector reached, and the search's queue. */
  get bytes(): number {
    return this.sectorCount * AREA * BYTES_PER_CELL + this.queue.size * 20;
  }

  // ---- reading ------------------------------------------------------------------------------

  /**
   * The cost of the cheapest path from cell (x, y) to the goal (entered cells' costs times step
   * lengths, as `findPath` counts), 0 at the goal, Infinity where the goal cannot be reached
   * (a blocked cell included). Throws a TilenavError naming `cell` outside the grid.
   */
  costAt(x: number, y: number): number {
    return this.cost(this.grid.index(x, y));
  }

  /**
   * The step a unit in cell (x, y) takes: `{ dx, dy }`, each -1, 0 or 1, toward the next cell of a
   * cheapest path to the goal; `{ dx: 0, dy: 0 }` at the goal and where it cannot be reached.
   * Fills and returns `out`. Throws a TilenavError naming `cell` outside the grid.
   */
  directionAt(x: number, y: number, out: FlowStep = { dx: 0, dy: 0 }): FlowStep {
    const i = this.grid.index(x, y);
    const n = this.next(i);
    out.dx = n < 0 ? 0 : this.grid.xOf(n) - x;
    out.dy = n < 0 ? 0 : this.grid.yOf(n) - y;
    return out;
  }

  /** {@link directionAt} by cell index: the next cell's index, -1 at the goal or where it cannot be reached. */
  next(i: number): number {
    if (this.pending !== null || !this.started) this.sync();
    const l = this.settledAt(i);
    if (l >= 0) {
      const code = this.found!.state[l] >> 2;
      return code === NONE ? -1 : i + this.codeDelta[code];
    }
    return this.ensure(i) ? this.next(i) : -1;
  }

  /** {@link costAt} by cell index. */
  cost(i: number): number {
    if (this.pending !== null || !this.started) this.sync();
    const l = this.settledAt(i);
    if (l >= 0) return this.found!.cost[l];
    return this.ensure(i) ? this.cost(i) : Infinity;
  }

  /** Whether cell i's cost is settled now (nothing is computed). @internal */
  isSettled(i: number): boolean {
    if (this.pending !== null) this.sync();
    return this.settledAt(i) >= 0;
  }

  /** Cell i's index in its sector when it is settled (the sector in `found`), else -1. */
  private settledAt(i: number): number {
    const W = this.width;
    const x = i % W;
    const y = (i - x) / W;
    const s = this.sectors[(y >> SHIFT) * this.sectorsWide + (x >> SHIFT)];
    if (s === undefined) return -1;
    const l = ((y & MASK) << SHIFT) | (x & MASK);
    if ((s.state[l] & 3) !== SETTLED) return -1;
    this.found = s;
    return l;
  }

  /** A group's field: a unit waits while its cell is not settled (see {@link UnitField.waits}). @internal */
  waits(i: number): boolean {
    return !this.isSettled(i);
  }

  /** Whether cell i certainly cannot reach the goal (see {@link UnitField.cannotReach}). @internal */
  cannotReach(i: number): boolean {
    if (this.pending !== null) this.sync();
    return this.unreachable(i);
  }

  /** Whether cell i's answer is known now: settled, or certainly unreachable (nothing is computed). @internal */
  isKnown(i: number): boolean {
    return this.isSettled(i) || this.unreachable(i);
  }

  /**
   * Computes the cells `cells` (indices; -1 entries are skipped) ahead, settling at most `budget`
   * cells (Infinity: as many as it takes): true when every one is settled or known to be
   * unreachable. A chase grows its next field this way, a step at a time.
   */
  cover(cells: ArrayLike<number>, budget = Infinity): boolean {
    assertFieldCells(cells, this.grid.size);
    if (typeof budget !== 'number' || !(budget >= 0)) throw new TilenavError(`expected a number of cells >= 0, got ${describe(budget)}`, { element: 'budget' });
    this.sync();
    let left = budget;
    for (let k = 0; k < cells.length; k++) {
      const c = cells[k];
      if (c < 0) continue;
      while (!this.isSettled(c) && !this.unreachable(c)) {
        if (left <= 0) return false;
        left -= this.search(Math.min(left, 1 << 16), c);
      }
    }
    return true;
  }

  /** Settles up to `cells` more cells (the nearest to the goal not settled yet); returns how many (0: the field is complete). */
  grow(cells: number): number {
    if (typeof cells !== 'number' || !(cells >= 0)) throw new TilenavError(`expected a number of cells >= 0, got ${describe(cells)}`, { element: 'cells' });
    this.sync();
    return this.search(cells, -1);
  }

  /**
   * Computes the cells `cells` (indices; -1 entries skipped), or with null every cell that can
   * reach the goal, but no cell dearer than `maxCost` (Infinity: no bound) beyond a few just
   * past it: what a PathService worker runs before it hands the field over. @internal
   */
  computeTo(cells: ArrayLike<number> | null, maxCost: number): void {
    this.sync();
    // In bucket mode the queue's next key may be a bucket (lo) above the least one waiting.
    const cap = maxCost === Infinity ? Infinity : maxCost + this.lo;
    if (cells === null) {
      while (this.search(1 << 16, -1, cap) > 0);
      return;
    }
    for (let k = 0; k < cells.length; k++) {
      const c = cells[k];
      if (c < 0) continue;
      while (!this.isSettled(c) && !this.unreachable(c)) if (this.search(1 << 16, c, cap) === 0) break;
    }
  }

  /** Whether {@link computeTo} with these arguments has nothing to compute (and no change waits to be repaired). @internal */
  covers(cells: ArrayLike<number> | null, maxCost: number): boolean {
    if (!this.started || this.pending !== null || !this.cached) return false;
    if (this.exhausted) return true;
    const past = maxCost !== Infinity && this.queue.peekKey() > maxCost + this.lo;
    if (cells === null || past) return past;
    for (let k = 0; k < cells.length; k++) if (cells[k] >= 0 && !this.isKnown(cells[k])) return false;
    return true;
  }

  /**
   * Hands the computed state over (a PathService worker's answer; see {@link adopt}): its
   * sectors' buffers and its queue's arrays, to be moved to another thread. The field forgets
   * them (they are not recycled) and starts again at its next read. @internal
   */
  handOver(): FlowFieldSnapshot {
    const index: number[] = [];
    const storage: ArrayBuffer[] = [];
    for (let k = 0; k < this.sectors.length; k++) {
      const s = this.sectors[k];
      if (s === undefined) continue;
      index.push(k, s.settled);
      storage.push(s.cost.buffer as ArrayBuffer);
    }
    const snapshot: FlowFieldSnapshot = { sectors: Int32Array.from(index), storage, queue: this.queue.snapshot(), numbers: Float64Array.of(this.key, this.lo, this.hi, this.settledCount, this.exhausted ? 1 : 0) };
    this.forget();
    return snapshot;
  }

  /**
   * Takes over the state {@link handOver} gave on another thread, for this field's goal, layer and
   * movement on a copy of this grid, in place of what the field held. `changes`: the rectangles
   * of this layer changed since the state was computed; they are repaired at the next read, as
   * any change is. No cell is copied: the sectors are views on the buffers handed over. @internal
   */
  adopt(snapshot: FlowFieldSnapshot, changes: readonly CellRect[]): void {
    if (!this.cached) {
      this.cache = flowFieldCache(this.grid);
      this.cache.readmit(this);
    }
    if (this.started || this.sectorCount > 0) this.clear();
    const index = snapshot.sectors;
    for (let j = 0; j < snapshot.storage.length; j++) {
      const k = index[2 * j];
      if (!(k >= 0 && k < this.sectors.length)) throw new Error(`tilenav: a flow field sector ${k} outside this grid's ${this.sectors.length}`);
      this.sectors[k] = sectorOn(snapshot.storage[j], index[2 * j + 1]);
      this.sectorCount++;
      this.cache.grew(this);
    }
    this.queue.restore(snapshot.queue);
    const v = snapshot.numbers;
    this.key = v[0];
    this.lo = v[1];
    this.hi = v[2];
    this.settledCount = v[3];
    this.exhausted = v[4] === 1;
    this.started = true;
    this.labels = null;
    this.pending = null;
    this.pendingArea = 0;
    for (const r of changes) {
      (this.pending ??= []).push({ x: r.x, y: r.y, width: r.width, height: r.height });
      this.pendingArea += r.width * r.height;
    }
  }

  /** Brings the field up to date with the grid: starts it on first use, repairs it after changes. @internal */
  sync(): void {
    const view = this.grid.searchView(this.layer);
    if (!this.cached) {
      // Dropped by the cache (or the grid released its derived data): kept again by the grid's cache now.
      this.cache = flowFieldCache(this.grid);
      this.cache.readmit(this);
    }
    if (!this.started) {
      this.start(view);
      return;
    }
    if (this.pending === null) return;
    const rects = this.pending;
    this.pending = null;
    const area = this.pendingArea;
    this.pendingArea = 0;
    this.labels = null;
    const minStep = this.lo;
    // A cheaper or dearer step than the queue's buckets allow, a goal blocked now or when the
    // field last started (nothing was seeded then), or a change over much of the grid: start
    // again (lazily) rather than repair.
    if (view.minCost < minStep || view.maxCost * this.moves.longest > this.hi || view.pass[pad(this.width, this.goal)] <= 0 || !this.seeded() || area * 8 > this.grid.size) {
      this.restarts++;
      this.start(view);
      return;
    }
    this.repair(view, rects);
  }

  /** A change event on the field's layer: queued until the next read. @internal */
  changed(c: GridChange): void {
    if (!this.started) return;
    const list = (this.pending ??= []);
    for (const r of c.rects ?? [c]) {
      list.push({ x: r.x, y: r.y, width: r.width, height: r.height });
      this.pendingArea += r.width * r.height;
    }
  }

  /** Gives the storage back; the next read starts again. @internal */
  clear(): void {
    for (let k = 0; k < this.sectors.length; k++) {
      const s = this.sectors[k];
      if (s !== undefined) this.cache.recycle(s);
    }
    this.forget();
    this.queue.reset(1, 1);
  }

  /** Drops the sectors (recycled or handed over by the caller) and the search's state: the next read starts again. */
  private forget(): void {
    this.sectors = new Array<Sector | undefined>(this.sectors.length);
    this.sectorCount = 0;
    this.settledCount = 0;
    this.started = false;
    this.pending = null;
    this.pendingArea = 0;
    this.labels = null;
  }

  // ---- the search ---------------------------------------------------------------------------

  private start(view: SearchView): void {
    if (this.sectorCount > 0) this.clear();
    this.started = true;
    this.pending = null;
    this.pendingArea = 0;
    this.lo = view.minCost;
    this.hi = view.maxCost * this.moves.longest;
    this.queue.reset(this.lo, this.hi);
    this.key = 0;
    this.exhausted = true;
    if (view.pass[pad(this.width, this.goal)] <= 0) return;
    const s = this.sectorOf(this.goalX, this.goalY);
    const l = ((this.goalY & MASK) << SHIFT) | (this.goalX & MASK);
    s.cost[l] = 0;
    s.state[l] = OPEN | (NONE << 2);
    this.queue.push(this.packed(this.goal), 0);
    this.exhausted = false;
  }

  /** Whether the goal holds its cost 0 (false when the field started while the goal was blocked). */
  private seeded(): boolean {
    const s = this.sectorAt(this.goal);
    return s !== undefined && s.cost[this.localOf(this.goal)] === 0;
  }

  /** Whether cell i certainly cannot reach the goal: blocked, in another component, or the search is over without it. */
  private unreachable(i: number): boolean {
    if (this.exhausted) return !this.isSettled(i);
    const view = this.grid.searchView(this.layer);
    const p = pad(this.width, i);
    if (view.pass[p] <= 0) return true;
    this.labels ??= this.cache.finder().componentLabels(this.layer, this.model);
    const a = this.labels.root(p);
    const b = this.labels.root(pad(this.width, this.goal));
    return a !== b;
  }

  /** Runs the search until cell i is settled or shown unreachable; whether it is settled. */
  private ensure(i: number): boolean {
    if (!(Number.isInteger(i) && i >= 0 && i < this.grid.size)) throw new TilenavError(`expected a cell index 0..${this.grid.size - 1}, got ${describe(i)}`, { element: 'cell' });
    while (!this.isSettled(i)) {
      if (this.unreachable(i)) return false;
      this.search(1 << 16, i);
    }
    return true;
  }

  /** The storage of sector (sx, sy) of cell (x, y), made on first use. */
  private sectorOf(x: number, y: number): Sector {
    const k = (y >> SHIFT) * this.sectorsWide + (x >> SHIFT);
    return this.sectors[k] ?? this.newSector(k);
  }

  private newSector(k: number): Sector {
    const s = this.cache.sector();
    this.sectors[k] = s;
    this.sectorCount++;
    this.cache.grew(this);
    return s;
  }

  /**
   * Settles up to `limit` cells, stopping early once cell `stop` is settled (-1: no such cell)
   * or once the queue's next key is above `maxKey`. Returns the cells settled. The step into a settled cell c from a neighbour p costs the move's
   * length times c's cost; p learns c as its next cell when that gives it a lower cost.
   */
  private search(limit: number, stop: number, maxKey = Infinity): number {
    const view = this.grid.searchView(this.layer);
    if (this.pending !== null) this.sync();
    const pass = view.pass;
    const exits = view.exits;
    const S = view.stride;
    const XB = this.xBits;
    const XM = (1 << XB) - 1;
    const SW = this.sectorsWide;
    const sectors = this.sectors;
    const q = this.queue;
    const m = this.moves;
    const count = m.count;
    const corner = m.corner;
    const axis = m.axis;
    const stopAt = stop < 0 ? -1 : this.packed(stop);
    let n = 0;
    while (n < limit && q.size > 0) {
      if (maxKey !== Infinity && q.peekKey() > maxKey) break;
      const e = q.pop();
      const key = q.key;
      const x = e & XM;
      const y = e >> XB;
      const sec = sectors[(y >> SHIFT) * SW + (x >> SHIFT)]!;
      const l = ((y & MASK) << SHIFT) | (x & MASK);
      const st = sec.state[l];
      // A stale entry: the cell is settled, or its cost changed since (lowered, or reset by a repair).
      if ((st & 3) === SETTLED || sec.cost[l] !== key) continue;
      sec.state[l] = (st & ~3) | SETTLED;
      sec.settled++;
      n++;
      this.key = key;
      const p = (y + 1) * S + x + 1;
      const enter = pass[p];
      const par = axis === 0 ? 0 : (axis === 1 ? x : y) & 1;
      const dxs = m.dx[par];
      const dys = m.dy[par];
      const pd = m.padded[par];
      const sa = m.sideA[par];
      const sb = m.sideB[par];
      const len = m.length[par];
      const exb = m.exit[par];
      const code = m.code[par];
      for (let k = 0; k < count; k++) {
        const pp = p + pd[k];
        if (pass[pp] <= 0) continue;
        const a = sa[k];
        if (a !== 0 && (pass[p + a] > 0 ? 0 : 1) + (pass[p + sb[k]] > 0 ? 0 : 1) > corner) continue;
        if (exits !== null && (exits[pp] & exb[k]) !== 0) continue;
        const nx = x + dxs[k];
        const ny = y + dys[k];
        const ks = (ny >> SHIFT) * SW + (nx >> SHIFT);
        const ns = sectors[ks] ?? this.newSector(ks);
        const nl = ((ny & MASK) << SHIFT) | (nx & MASK);
        const d = key + len[k] * enter;
        if (d < ns.cost[nl] && (ns.state[nl] & 3) !== SETTLED) {
          ns.cost[nl] = d;
          ns.state[nl] = OPEN | code[k];
          q.push((ny << XB) | nx, d);
        }
      }
      if (e === stopAt) break;
    }
    this.settledCount += n;
    this.exhausted = q.size === 0;
    return n;
  }

  /** Cell index c as the search queue holds it. */
  private packed(c: number): number {
    const x = c % this.width;
    return (((c - x) / this.width) << this.xBits) | x;
  }

  // ---- repair -------------------------------------------------------------------------------

  /**
   * Brings the settled and open cells in line with the grid after the cells of `rects` changed.
   *
   * 1. The ring (the rectangles grown by one cell: every move whose ends, cost or corner rule a
   *    change can touch has both ends in it) gives the roots: cells reached whose step to their
   *    next cell is no longer allowed or no longer costs what it did.
   * 2. The roots and every cell whose chain of next cells runs through one are reset.
   * 3. Every reset cell and every cell of the ring takes the best cost its settled neighbours
   *    offer, and a Dijkstra over those (a heap) settles again every cell at most as costly as the
   *    main search's last key, lowering neighbours as it goes (which also carries a way a change
   *    opened to the settled cells behind it); dearer cells go back to the main search's queue.
   */
  private repair(view: SearchView, rects: CellRect[]): void {
    const pass = view.pass;
    const exits = view.exits;
    const S = view.stride;
    const W = this.width;
    const H = this.grid.height;
    const reset: number[] = [];
    const ring: number[] = [];
    // The ring, each cell once (MARK while listed), and its roots.
    for (const r of rects) {
      const x0 = Math.max(0, r.x - 1);
      const y0 = Math.max(0, r.y - 1);
      const x1 = Math.min(W - 1, r.x + r.width);
      const y1 = Math.min(H - 1, r.y + r.height);
      for (let y = y0; y <= y1; y++) {
        for (let x = x0; x <= x1; x++) {
          const s = this.sectors[(y >> SHIFT) * this.sectorsWide + (x >> SHIFT)];
          const l = ((y & MASK) << SHIFT) | (x & MASK);
          if (s === undefined) {
            // Never reached: only a way the change opened can reach it, from a settled neighbour.
            if (pass[(y + 1) * S + x + 1] > 0) ring.push(y * W + x);
            continue;
          }
          if ((s.state[l] & MARK) !== 0) continue;
          s.state[l] |= MARK;
          ring.push(y * W + x);
        }
      }
    }
    for (const c of ring) {
      const s = this.sectorAt(c);
      if (s === undefined) continue;
      const l = this.localOf(c);
      s.state[l] &= ~MARK;
    }
    for (const c of ring) {
      const s = this.sectorAt(c);
      if (s === undefined) continue;
      const l = this.localOf(c);
      const st = s.state[l];
      if ((st & 3) === UNSEEN || (st & MARK) !== 0 || c === this.goal) continue;
      const nxt = (st >> 2) === NONE ? -1 : c + this.codeDelta[st >> 2];
      if (nxt < 0 || this.stepCost(view, c, nxt) + this.storedCost(nxt) !== s.cost[l]) {
        s.state[l] |= MARK;
        reset.push(c);
      }
    }
    // The roots' subtrees: every cell reached whose next cell is marked.
    for (let k = 0; k < reset.length; k++) {
      const c = reset[k];
      const x = c % W;
      const y = (c - x) / W;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if ((dx === 0 && dy === 0) || nx < 0 || ny < 0 || nx >= W || ny >= H) continue;
          const s = this.sectors[(ny >> SHIFT) * this.sectorsWide + (nx >> SHIFT)];
          if (s === undefined) continue;
          const l = ((ny & MASK) << SHIFT) | (nx & MASK);
          const st = s.state[l];
          if ((st & 3) === UNSEEN || (st & MARK) !== 0 || st >> 2 !== codeOf(-dx, -dy)) continue;
          s.state[l] = st | MARK;
          reset.push(ny * W + nx);
        }
      }
    }
    const touched = new Set<number>();
    for (const c of reset) {
      const x = c % W;
      const y = (c - x) / W;
      const k = (y >> SHIFT) * this.sectorsWide + (x >> SHIFT);
      const s = this.sectors[k]!;
      const l = ((y & MASK) << SHIFT) | (x & MASK);
      if ((s.state[l] & 3) === SETTLED) {
        s.settled--;
        this.settledCount--;
      }
      s.state[l] = UNSEEN | (NONE << 2);
      s.cost[l] = Infinity;
      touched.add(k);
    }
    // Reseed the reset cells and the ring from their settled neighbours, then settle again what
    // is at most as costly as the main search has gone.
    const local = this.cache.repairQueue();
    local.reset(0, 1);
    const K = this.key;
    let lowered = 0;
    // The dearest cost handed to the main search: a change can raise costs behind it far above K.
    let farthest = -1;
    for (const list of [reset, ring]) {
      for (const c of list) {
        if (pass[pad(W, c)] <= 0 || c === this.goal) continue;
        const best = this.bestFromNeighbours(view, c);
        if (best.cost === Infinity) continue;
        const x = c % W;
        const y = (c - x) / W;
        const k = (y >> SHIFT) * this.sectorsWide + (x >> SHIFT);
        const s = this.sectors[k] ?? this.newSector(k);
        const l = ((y & MASK) << SHIFT) | (x & MASK);
        if (!(best.cost < s.cost[l])) continue;
        if ((s.state[l] & 3) === SETTLED) {
          s.settled--;
          this.settledCount--;
        }
        s.cost[l] = best.cost;
        s.state[l] = OPEN | (best.code << 2);
        touched.add(k);
        lowered++;
        if (best.cost <= K) local.push(c, best.cost);
        else {
          this.queue.push(this.packed(c), best.cost);
          if (best.cost > farthest) farthest = best.cost;
        }
      }
    }
    while (local.size > 0) {
      const c = local.pop();
      const key = local.key;
      const x = c % W;
      const y = (c - x) / W;
      const s = this.sectors[(y >> SHIFT) * this.sectorsWide + (x >> SHIFT)]!;
      const l = ((y & MASK) << SHIFT) | (x & MASK);
      const st = s.state[l];
      if ((st & 3) === SETTLED || s.cost[l] !== key) continue;
      s.state[l] = (st & ~3) | SETTLED;
      s.settled++;
      this.settledCount++;
      const p = (y + 1) * S + x + 1;
      const enter = pass[p];
      const m = this.moves;
      const par = m.axis === 0 ? 0 : ((m.axis === 1 ? x : y) & 1);
      for (let k = 0; k < m.count; k++) {
        const pp = p + m.padded[par][k];
        if (pass[pp] <= 0) continue;
        const a = m.sideA[par][k];
        if (a !== 0 && (pass[p + a] > 0 ? 0 : 1) + (pass[p + m.sideB[par][k]] > 0 ? 0 : 1) > m.corner) continue;
        if (exits !== null && (exits[pp] & m.exit[par][k]) !== 0) continue;
        const nx = x + m.dx[par][k];
        const ny = y + m.dy[par][k];
        const ks = (ny >> SHIFT) * this.sectorsWide + (nx >> SHIFT);
        const ns = this.sectors[ks] ?? this.newSector(ks);
        const nl = ((ny & MASK) << SHIFT) | (nx & MASK);
        const d = key + m.length[par][k] * enter;
        if (!(d < ns.cost[nl])) continue;
        if ((ns.state[nl] & 3) === SETTLED) {
          ns.settled--;
          this.settledCount--;
        }
        ns.cost[nl] = d;
        ns.state[nl] = OPEN | m.code[par][k];
        touched.add(ks);
        lowered++;
        const j = ny * W + nx;
        if (d <= K) local.push(j, d);
        else {
          this.queue.push(this.packed(j), d);
          if (d > farthest) farthest = d;
        }
      }
    }
    // The main search's ring of buckets scans on from its last pop, which stale entries may have
    // taken up to hi past K, and holds keys about hi apart: the cells handed to it lie from K to
    // `farthest`, so it scans from K again, and grows when they spread wider.
    if (farthest >= 0) this.queue.rewind(K, farthest - K + this.hi);
    this.exhausted = this.queue.size === 0;
    this.repairs++;
    this.lastRepair = { cells: reset.length + lowered, sectors: touched.size };
  }

  private sectorAt(c: number): Sector | undefined {
    const x = c % this.width;
    const y = (c - x) / this.width;
    return this.sectors[(y >> SHIFT) * this.sectorsWide + (x >> SHIFT)];
  }

  private localOf(c: number): number {
    const x = c % this.width;
    const y = (c - x) / this.width;
    return ((y & MASK) << SHIFT) | (x & MASK);
  }

  /** The settled cost of cell c, Infinity when it is not settled. */
  private storedCost(c: number): number {
    const s = this.sectorAt(c);
    if (s === undefined) return Infinity;
    const l = this.localOf(c);
    return (s.state[l] & 3) === SETTLED && (s.state[l] & MARK) === 0 ? s.cost[l] : Infinity;
  }

  /** The cost of the move from cell `from` to its neighbour `to` now, Infinity when the move is not allowed. */
  private stepCost(view: SearchView, from: number, to: number): number {
    const W = this.width;
    const fx = from % W;
    const fy = (from - fx) / W;
    const dx = (to % W) - fx;
    const dy = (to - (to % W)) / W - fy;
    const m = this.moves;
    const par = m.axis === 0 ? 0 : ((m.axis === 1 ? to % W : (to - (to % W)) / W) & 1);
    // The table lists moves relative to the cell entered (`to`): the neighbour at (-dx, -dy).
    for (let k = 0; k < m.count; k++) {
      if (m.dx[par][k] !== -dx || m.dy[par][k] !== -dy) continue;
      const p = pad(W, to);
      const pp = p + m.padded[par][k];
      const pass = view.pass;
      if (pass[pp] <= 0 || pass[p] <= 0) return Infinity;
      const a = m.sideA[par][k];
      if (a !== 0 && (pass[p + a] > 0 ? 0 : 1) + (pass[p + m.sideB[par][k]] > 0 ? 0 : 1) > m.corner) return Infinity;
      if (view.exits !== null && (view.exits[pp] & m.exit[par][k]) !== 0) return Infinity;
      return m.length[par][k] * pass[p];
    }
    return Infinity;
  }

  private readonly best = { cost: Infinity, code: NONE };

  /** The least cost cell c gets through one move to a settled neighbour, and that move's direction code. */
  private bestFromNeighbours(view: SearchView, c: number): { cost: number; code: number } {
    const W = this.width;
    const H = this.grid.height;
    const x = c % W;
    const y = (c - x) / W;
    const out = this.best;
    out.cost = Infinity;
    out.code = NONE;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        if ((dx === 0 && dy === 0) || nx < 0 || ny < 0 || nx >= W || ny >= H) continue;
        const j = ny * W + nx;
        const g = this.storedCost(j);
        if (g === Infinity) continue;
        const d = g + this.stepCost(view, c, j);
        if (d < out.cost) {
          out.cost = d;
          out.code = codeOf(dx, dy);
        }
      }
    }
    return out;
  }
}

/**
 * The flow fields a grid keeps, one per (goal cell, layer, movement), least recently asked first
 * out past {@link FlowFieldLimits}; fields an order holds are never dropped. Listed by
 * `grid.memory()` (one entry per field) and freed by `grid.releaseDerived()`. Get it with
 * {@link flowFieldCache}.
 */
export class FlowFieldCache {
  /** The grid. */
  readonly grid: NavGrid;
  /** Fields kept at most (see {@link FlowFieldLimits}). */
  maxFields = DEFAULT_FLOW_FIELD_LIMITS.maxFields;
  /** Bytes of sector storage kept at most (see {@link FlowFieldLimits}). */
  maxBytes = DEFAULT_FLOW_FIELD_LIMITS.maxBytes;
  /** Fields made so far (a field asked again is not made again). */
  builds = 0;
  /** Fields dropped so far to stay within the limits. */
  evictions = 0;
  /** Every field kept: they hear the grid's changes and are listed. */
  private readonly live = new Set<FlowField>();
  /** The field asked for each key. */
  private readonly byKey = new Map<string, FlowField>();
  private readonly spare: Sector[] = [];
  private readonly unsubscribe: () => void;
  private finderUsed: Pathfinder | null = null;
  private local: MonotoneQueue | null = null;
  private bytesHeld = 0;
  private tick = 0;

  /** Made by the grid on first use (see {@link flowFieldCache}). @internal */
  static make(grid: NavGrid): FlowFieldCache {
    return new FlowFieldCache(grid);
  }

  /** The cache is made by the grid on first use: see {@link flowFieldCache}. */
  private constructor(grid: NavGrid) {
    this.grid = grid;
    this.unsubscribe = grid.onChange((c) => {
      for (const f of this.live) if (f.layer === c.layer) f.changed(c);
    });
  }

  /** The field to cell `goal` (an index) on `layer` under `model`: the kept one, or a new one (nothing computed yet). @internal */
  get(goal: number, layer: number, model: MovementModel): FlowField {
    const key = keyOf(goal, layer, model.name);
    let f = this.byKey.get(key);
    if (f !== undefined) {
      f.asked = ++this.tick;
      return f;
    }
    f = FlowField.make(this, goal, layer, model);
    this.builds++;
    f.asked = ++this.tick;
    this.byKey.set(key, f);
    this.live.add(f);
    this.trim(f);
    return f;
  }

  /** The fields kept now, least recently asked first. */
  list(): FlowField[] {
    return [...this.live].sort((a, b) => a.asked - b.asked);
  }

  /** Bytes held by the fields' sectors (and the spare sectors kept for reuse). */
  get bytes(): number {
    let b = this.spare.length * AREA * BYTES_PER_CELL;
    for (const f of this.live) b += f.bytes;
    return b;
  }

  /** Drops every field no order holds, and the spare sectors. */
  clear(): void {
    for (const f of [...this.live]) if (f.holders === 0) this.drop(f);
    this.spare.length = 0;
  }

  /** One entry per field (and the spare sectors), for `grid.memory()`. @internal */
  memory(out: MemoryEntry[]): void {
    for (const f of this.list()) out.push({ name: `flow field to (${f.goalX}, ${f.goalY}) ${f.movement}`, layer: f.layer, bytes: f.bytes });
    if (this.spare.length > 0) out.push({ name: 'flow field spare sectors', layer: null, bytes: this.spare.length * AREA * BYTES_PER_CELL });
  }

  /** Drops every field and stops following the grid: `grid.releaseDerived()`. @internal */
  release(): void {
    this.unsubscribe();
    for (const f of [...this.live]) this.drop(f);
    this.spare.length = 0;
  }

  /** Lets the fields use `finder`'s scratch for the component labels (instead of the grid's own Pathfinder). @internal */
  useFinder(finder: Pathfinder): void {
    this.finderUsed ??= finder;
  }

  /** @internal */
  finder(): Pathfinder {
    return (this.finderUsed ??= pathfinderOf(this.grid));
  }

  /** A dropped field read again: kept again (under its key unless another field has it since). @internal */
  readmit(f: FlowField): void {
    const key = keyOf(f.goal, f.layer, f.movement);
    if (!this.byKey.has(key)) this.byKey.set(key, f);
    this.live.add(f);
    f.cached = true;
    f.asked = ++this.tick;
    this.trim(f);
  }

  /** A sector's storage, reused when one is spare. @internal */
  sector(): Sector {
    const s = this.spare.pop();
    if (s !== undefined) {
      s.cost.fill(Infinity);
      s.state.fill(0);
      s.settled = 0;
      return s;
    }
    const made = sectorOn(new ArrayBuffer(AREA * BYTES_PER_CELL), 0);
    made.cost.fill(Infinity);
    return made;
  }

  /** A field gave a sector back: kept for the next field (a chase makes one per goal cell), within `maxBytes`. @internal */
  recycle(s: Sector): void {
    this.spare.push(s);
  }

  /** A field took a new sector: drop others past the byte limit. @internal */
  grew(f: FlowField): void {
    this.bytesHeld += AREA * BYTES_PER_CELL;
    // Summing the fields on every new sector would cost a pass over them each time: a running
    // count, recounted only when it says the limit is passed.
    if (this.bytesHeld > this.maxBytes) {
      this.bytesHeld = this.bytes;
      if (this.bytesHeld > this.maxBytes) this.trim(f);
    }
  }

  /** The heap a repair settles its cells with (one per cache: repairs never overlap). @internal */
  repairQueue(): MonotoneQueue {
    return (this.local ??= new MonotoneQueue());
  }

  /** Drops spare sectors, then the least recently asked fields no order holds (never `keep`), until within the limits. */
  private trim(keep: FlowField): void {
    for (;;) {
      let bytes = this.bytes;
      const sector = AREA * BYTES_PER_CELL;
      while (bytes > this.maxBytes && this.spare.length > 0) {
        this.spare.pop();
        bytes -= sector;
      }
      this.bytesHeld = bytes;
      if (this.live.size <= this.maxFields && bytes <= this.maxBytes) return;
      let oldest: FlowField | null = null;
      for (const f of this.live) if (f !== keep && f.holders === 0 && (oldest === null || f.asked < oldest.asked)) oldest = f;
      if (oldest === null) return;
      this.drop(oldest);
      this.evictions++;
    }
  }

  private drop(f: FlowField): void {
    this.live.delete(f);
    const key = keyOf(f.goal, f.layer, f.movement);
    if (this.byKey.get(key) === f) this.byKey.delete(key);
    f.cached = false;
    f.clear();
  }
}

function keyOf(goal: number, layer: number, movement: MovementName): string {
  return `${layer} ${movement} ${goal}`;
}

/**
 * The flow field cache `grid` keeps (made on first use): its limits ({@link FlowFieldLimits}) are
 * settable properties, `list()` the fields kept.
 */
export function flowFieldCache(grid: NavGrid): FlowFieldCache {
  // A Derived by its shape: memory() and release().
  return grid.derived('flow fields', (g) => FlowFieldCache.make(g) as FlowFieldCache & Derived);
}

/**
 * The flow field to cell (goalX, goalY): the one the grid keeps for that goal, layer and movement,
 * or a new one. Nothing is computed until a cell is read (then only as far from the goal as that
 * cell), so asking is cheap and every unit and group heading to one goal shares one field.
 * Throws a TilenavError naming `goal` outside the grid, or the option for a bad layer or movement.
 * A blocked goal gives a field where nothing reaches it (every cost Infinity).
 * @example const field = flowFieldTo(grid, 40, 12); field.directionAt(3, 4) // { dx: 1, dy: 1 }
 */
export function flowFieldTo(grid: NavGrid, goalX: number, goalY: number, options: FlowFieldOptions = {}): FlowField {
  const q = checkFlowFieldQuery(grid, goalX, goalY, options);
  return flowFieldCache(grid).get(q.goal, q.layer, q.model);
}

/** Throws a TilenavError naming `cells` unless it is an array of cell indices 0..size-1 (or -1, skipped). @internal */
export function assertFieldCells(cells: unknown, size: number): asserts cells is ArrayLike<number> {
  assertArrayLike(cells, 'cells');
  for (let k = 0; k < cells.length; k++) {
    const c = cells[k];
    if (c !== -1 && !(Number.isInteger(c) && c >= 0 && c < size)) throw new TilenavError(`expected cell indices 0..${size - 1} (or -1 to skip), got ${describe(c)} at ${k}`, { element: 'cells' });
  }
}

/**
 * The goal cell (index), layer and movement model of a flow field question, checked as
 * {@link flowFieldTo} checks them: the PathService's `flowField` asks through this too, so both
 * doors refuse the same arguments with the same TilenavError. @internal
 */
export function checkFlowFieldQuery(grid: NavGrid, goalX: number, goalY: number, options: FlowFieldOptions | undefined): { goal: number; layer: number; model: MovementModel } {
  assertOptionsObject(options, 'options');
  options ??= {};
  assertInteger(goalX, 'goal x');
  assertInteger(goalY, 'goal y');
  if (!grid.inBounds(goalX, goalY)) throw new TilenavError(`(${describe(goalX)}, ${describe(goalY)}) is not a cell of this ${grid.width} x ${grid.height} grid`, { element: 'goal' });
  return { goal: goalY * grid.width + goalX, layer: grid.layerIndex(options.layer ?? 0), model: grid.movementModel(options.movement) };
}

/**
 * What a PathService worker runs for a flow field request: the grid's field to `goal` computed as
 * {@link FlowField.computeTo} says, then handed over (its storage leaves the worker). @internal
 */
export function buildFlowField(grid: NavGrid, goal: number, layer: number, model: MovementModel, cells: ArrayLike<number> | null, maxCost: number): FlowFieldSnapshot {
  const field = flowFieldCache(grid).get(goal, layer, model);
  field.computeTo(cells, maxCost);
  return field.handOver();
}
