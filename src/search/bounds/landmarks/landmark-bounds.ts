/**
 * Landmark lower bounds (the ALT heuristic of Goldberg and Harrelson, 2005) for searches on layers
 * whose cells cost different amounts. The plain distance heuristic has to assume every cell costs
 * the layer's cheapest cost (a road's), so A* and jump point search open most cells between a
 * start and a goal behind a lake of water. A landmark bound knows better: with the cost from a
 * landmark L to every cell stored, the cost from n to goal t is at least |cost(L, t) - cost(L, n)|
 * (the triangle inequality), and the largest of these over a few landmarks spread over the map is
 * usually close to the true cost. The path found is the same optimal one; only fewer cells are
 * opened on the way.
 *
 * The costs stored are those of a symmetric stand-in for the layer: a step between two cells costs
 * its length times the *cheaper* of the two cells' costs. Every real step costs at least that (a
 * step costs its length times the cost of the cell it enters), so stand-in costs are lower bounds
 * of real ones in both directions, and one table per landmark serves both (`|a - b|`).
 *
 * Exactness rests on one inequality: for every allowed step n -> m, the stored costs satisfy
 * `|D(m) - D(n)| <= cost of the step`. Then the bound never overestimates and never drops by more
 * than a step costs (it is consistent), so the search settles each cell at its true cost. It holds:
 * - under rounding: costs are stored as 32-bit floats rounded *down*, each computed from the
 *   stored cost of the cell before, and lowered again whenever a lower value reaches a cell (see
 *   {@link LandmarkBounds.settle}), so it holds for the stored numbers themselves;
 * - after a cell is blocked or made dearer: real steps only got dearer, the stored numbers still
 *   satisfy it;
 * - after a cell is opened or made cheaper: {@link LandmarkBounds.repair} lowers the stored costs the
 *   change lowers, spreading from the changed cells (work in proportion to the area whose costs
 *   fall); a landmark whose repair would pass a budget is retired instead: its table is set to 0
 *   everywhere (a bound of 0 satisfies the inequality trivially) and rebuilt a slice per search.
 */
import { TilenavError, describe } from '../../../errors.js';
import type { CellRect, Derived, MemoryEntry, NavGrid, SearchView } from '../../../grid/navgrid.js';
import { MonotoneQueue } from '../../kernel/heap.js';
import { padXY } from '../../../grid/padded.js';
import { farthest } from './placement.js';

const SQRT2 = Math.SQRT2;
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** Stored costs past this could overflow 32-bit floats along a path: landmarks are not built. */
const MAX_STORED = 1e36;

/** x >= 0 rounded down to a 32-bit float. */
function down32(x: number): number {
  f32[0] = x;
  if (f32[0] > x) u32[0]--; // rounding to nearest went up: the next float down (bits order like values)
  return f32[0];
}

/**
 * The landmark tables of one layer, for octile movement without corner cutting (a cardinal path is
 * an octile one too, so the bounds hold for cardinal searches as well). Node ids are padded cell
 * indices. Memory: 4 bytes per padded cell per landmark.
 */
export class LandmarkBounds {
  /** Table slots per cell: the number of landmarks asked for. */
  readonly slots: number;
  /**
   * Slots in use, at most `slots`: each built, or waiting for a rebuild (then all zero, a bound of
   * 0 that never misleads). The first `count` of `cells`.
   */
  count = 0;
  /** The landmarks' padded cell indices. */
  readonly cells: Int32Array;
  /**
   * `dist[n * slots + k]` for k < count: the stand-in cost between landmark k and padded cell n,
   * rounded down; Infinity when they were apart when the table was built or last repaired.
   */
  readonly dist: Float32Array;
  private readonly view: SearchView;
  private readonly pass: Float32Array;
  private readonly stride: number;
  /** The queue of repairs and of whole builds (emptied by each). */
  private readonly queue: MonotoneQueue;
  /** The queue of the build in progress, kept between calls of {@link grow}. */
  private readonly growQueue = new MonotoneQueue();
  private lo = 1;
  private hi = 1;
  /** Each cell's least cost from the landmarks built, while new ones are to come (then null). */
  private near: Float32Array | null;
  /** The next new landmark's cell, -1 when no cell is left to place one on. */
  private next: number;
  /** The cells landmarks may go on ({@link rimOf}). */
  private readonly rim: Int32Array;
  /** Slots whose table is to be built, the first one in progress when `one` is set. */
  private readonly todo: number[] = [];
  /** The table being built (one cost per cell), or null. */
  private one: Float32Array | null = null;

  /**
   * Room for `slots` landmarks spread around the layer's rim: `rim[0]`, then each next one the
   * cell of `rim` whose cost from every landmark built is largest. Builds none: {@link grow} does.
   * @param view the layer's padded search view (read at each growth and repair: it follows the grid).
   * @param rim walkable padded cells (see {@link rimOf}), at least one.
   */
  constructor(view: SearchView, slots: number, rim: Int32Array, queue: MonotoneQueue = new MonotoneQueue()) {
    this.view = view;
    this.pass = view.pass;
    this.stride = view.stride;
    this.queue = queue;
    this.slots = slots;
    this.cells = new Int32Array(slots);
    this.dist = new Float32Array(view.pass.length * slots);
    this.near = new Float32Array(view.pass.length).fill(Infinity);
    this.rim = rim;
    this.next = rim[0];
  }

  /** Whether every landmark is built (or the layer has no cell left to place one on) and current. */
  get complete(): boolean {
    return this.near === null && this.todo.length === 0;
  }

  /**
   * Builds tables for at most `budget` cells settled (one Dijkstra search of the layer per table,
   * spread in a table of its own, whose reads and writes stay near each other, then interleaved so
   * a search reads one cell's costs from one place): new landmarks, and slots waiting for a
   * rebuild. A build cut short by the budget goes on at the next call. Returns whether anything
   * was left to build.
   */
  grow(budget = Infinity): boolean {
    const size = this.pass.length;
    let left = budget;
    while (left > 0) {
      let one = this.one;
      if (one === null) {
        if (this.todo.length === 0 && !this.claim()) return false;
        const slot = this.todo[0];
        const cell = this.walkableNear(this.cells[slot]);
        if (cell < 0) {
          this.todo.length = 0;
          this.near = null;
          return false;
        }
        this.cells[slot] = cell;
        one = this.one = new Float32Array(size).fill(Infinity);
        this.range(this.view);
        this.growQueue.reset(this.lo, this.hi);
        one[cell] = 0;
        this.growQueue.push(cell, 0);
      }
      const used = this.settle(one, 1, 0, this.growQueue, left);
      if (used < 0) return true;
      left -= used;
      const slot = this.todo.shift()!;
      const slots = this.slots;
      const dist = this.dist;
      const near = slot === this.count ? this.near : null;
      for (let n = 0, i = slot; n < size; n++, i += slots) {
        const d = one[n];
        dist[i] = d;
        if (near !== null && d < near[n]) near[n] = d;
      }
      this.one = null;
      if (near !== null) {
        this.count = slot + 1;
        this.next = this.count < slots ? farthest(near, this.rim) : -1;
        if (this.count === slots) this.near = null;
      }
    }
    return true;
  }

  /** Queues a new landmark's slot (at `next`); false when none is left to place. */
  private claim(): boolean {
    const near = this.near;
    const next = this.next;
    if (near === null || this.count >= this.slots || next < 0 || !(near[next] > 0)) {
      this.near = null;
      return false;
    }
    this.cells[this.count] = next;
    this.todo.push(this.count);
    return true;
  }

  /** `cell` if walkable, else the first walkable padded cell after it (wrapping), -1 when none. */
  private walkableNear(cell: number): number {
    const pass = this.pass;
    for (let k = 0; k < pass.length; k++) {
      const p = (cell + k) % pass.length;
      if (pass[p] > 0) return p;
    }
    return -1;
  }

  /** Bytes held by the tables, and by the build in progress. */
  get bytes(): number {
    return this.dist.byteLength + this.cells.byteLength + (this.near?.byteLength ?? 0) + (this.one?.byteLength ?? 0);
  }

  /** The cost range of the layer's steps, for the queue's buckets. */
  private range(view: SearchView): void {
    this.lo = Math.max(view.minCost, 1e-30);
    this.hi = Math.max(view.maxCost, this.lo) * SQRT2;
  }

  /**
   * Spreads lower costs from the cells queued on `q` until none lowers any more, or until
   * `budget` cells have been settled (the queue then holds the rest, for a later call): a cell
   * popped at its current stored cost offers each neighbour it has a step to that cost plus the
   * step's stand-in cost, rounded down, and a neighbour whose stored cost is higher takes it and
   * is queued again. When the queue empties every step satisfies the inequality in this file's
   * comment. Returns the number of cells settled, or -1 when the budget ran out first.
   */
  private settle(table: Float32Array, count: number, k: number, q: MonotoneQueue, budget: number): number {
    const pass = this.pass;
    const W = this.stride;
    let pops = 0;
    while (q.size > 0) {
      if (pops >= budget) return -1;
      const cur = q.pop();
      const d = table[cur * count + k];
      if (q.key > d) continue;
      pops++;
      const own = pass[cur];
      const n = pass[cur - W] > 0;
      const e = pass[cur + 1] > 0;
      const s = pass[cur + W] > 0;
      const w = pass[cur - 1] > 0;
      if (n) offer(table, count, k, q, pass, cur - W, d, own, 1);
      if (e) offer(table, count, k, q, pass, cur + 1, d, own, 1);
      if (s) offer(table, count, k, q, pass, cur + W, d, own, 1);
      if (w) offer(table, count, k, q, pass, cur - 1, d, own, 1);
      if (n && e) offer(table, count, k, q, pass, cur - W + 1, d, own, SQRT2);
      if (s && e) offer(table, count, k, q, pass, cur + W + 1, d, own, SQRT2);
      if (s && w) offer(table, count, k, q, pass, cur + W - 1, d, own, SQRT2);
      if (n && w) offer(table, count, k, q, pass, cur - W - 1, d, own, SQRT2);
    }
    return pops;
  }

  /**
   * Brings the tables up to date after cells in `rects` (unpadded) were opened or made cheaper
   * (blocking or raising costs needs nothing). Each cell of a rectangle and its one-cell ring (a
   * cell opened makes diagonal steps between its neighbours possible) takes the lowest cost its
   * neighbours offer, and lower costs spread from there. A landmark whose repair would settle
   * more than `budget` cells (an opening that shortens the way to much of the layer) is zeroed
   * and queued for a rebuild by {@link grow}; so is a build in progress, restarted.
   */
  repair(view: SearchView, rects: readonly CellRect[], width: number, height: number, budget: number): void {
    this.range(view);
    if (!(view.maxCost < MAX_STORED / view.pass.length)) {
      for (let k = 0; k < this.count; k++) this.retire(k);
      return;
    }
    // A build in progress read costs that are now lower: start it again.
    this.one = null;
    const slots = this.slots;
    const dist = this.dist;
    const pass = this.pass;
    const W = this.stride;
    for (let k = 0; k < this.count; k++) {
      if (this.todo.includes(k)) continue;
      this.queue.reset(this.lo, this.hi);
      for (const r of rects) {
        const x0 = Math.max(0, r.x - 1);
        const y0 = Math.max(0, r.y - 1);
        const x1 = Math.min(width, r.x + r.width + 1);
        const y1 = Math.min(height, r.y + r.height + 1);
        for (let y = y0; y < y1; y++) {
          for (let p = padXY(W, x0, y), x = x0; x < x1; x++, p++) {
            const c = pass[p];
            if (!(c > 0)) continue;
            const best = bestOffer(dist, slots, k, pass, W, p, c);
            if (best < dist[p * slots + k]) {
              dist[p * slots + k] = best;
              this.queue.push(p, best);
            }
          }
        }
      }
      if (this.settle(dist, slots, k, this.queue, budget) < 0) this.retire(k);
    }
  }

  /** Zeroes landmark k's table (a bound of 0 everywhere) and queues it for a rebuild. */
  retire(k: number): void {
    const dist = this.dist;
    for (let i = k; i < dist.length; i += this.slots) dist[i] = 0;
    if (!this.todo.includes(k)) this.todo.push(k);
  }

  /** How many landmarks are waiting to be built or rebuilt. */
  get waiting(): number {
    return this.todo.length + (this.near === null ? 0 : this.slots - this.count - (this.todo.includes(this.count) ? 1 : 0));
  }
}

/** Offers neighbour m the cost d + length * min(own, cost of m), rounded down. */
function offer(table: Float32Array, count: number, k: number, q: MonotoneQueue, pass: Float32Array, m: number, d: number, own: number, length: number): void {
  const at = m * count + k;
  const old = table[at];
  if (!(old > d)) return; // a step never offers less than the cost it starts from
  const c = pass[m];
  if (!(c > 0)) return; // a diagonal's side cells are open, its far cell may not be
  const nd = down32(d + (c < own ? length * c + 0.5 * (own - c) : length * own + 0.5 * (c - own)));
  if (nd < old) {
    table[at] = nd;
    q.push(m, nd);
  }
}

/** The lowest cost the walkable neighbours of padded cell p (cost c) offer it. */
function bestOffer(dist: Float32Array, count: number, k: number, pass: Float32Array, W: number, p: number, c: number): number {
  let best = Infinity;
  const n = pass[p - W] > 0;
  const e = pass[p + 1] > 0;
  const s = pass[p + W] > 0;
  const w = pass[p - 1] > 0;
  const at = (m: number, length: number): void => {
    const d = dist[m * count + k];
    const cm = pass[m];
    if (d === Infinity || !(cm > 0)) return;
    const v = down32(d + (cm < c ? length * cm + 0.5 * (c - cm) : length * c + 0.5 * (cm - c)));
    if (v < best) best = v;
  };
  if (n) at(p - W, 1);
  if (e) at(p + 1, 1);
  if (s) at(p + W, 1);
  if (w) at(p - 1, 1);
  if (n && e) at(p - W + 1, SQRT2);
  if (s && e) at(p + W + 1, SQRT2);
  if (s && w) at(p + W - 1, SQRT2);
  if (n && w) at(p - W - 1, SQRT2);
  return best;
}

/** How many landmarks a layer gets unless `prepare` says otherwise. */
export const DEFAULT_LANDMARKS = 8;

/** One layer's landmark state. */
interface LayerLandmarks {
  tables: LandmarkBounds | null;
  /** Landmarks wanted; 0: never build them on this layer. */
  count: number;
  /** Search work (expanded nodes) done on the layer without tables, towards building them. */
  work: number;
  /** Rectangles opened or made cheaper since the last repair. */
  pending: CellRect[];
  /** Too many openings to repair one by one: rebuild every landmark. */
  stale: boolean;
}

/**
 * The landmark tables of one grid, per layer, shared by the grid's Pathfinders. A layer's tables
 * are built by `Pathfinder.prepare`, or by the searches themselves once they have done about half
 * as much work without them as building them takes (see {@link GridLandmarks.charge}). Grid
 * changes are followed: blocking and raising costs need nothing, openings are repaired before the
 * next search reads the tables.
 */
export class GridLandmarks implements Derived {
  private readonly grid: NavGrid;
  private readonly layers: (LayerLandmarks | undefined)[] = [];
  private readonly queue = new MonotoneQueue();
  private readonly unsubscribe: () => void;

  constructor(grid: NavGrid) {
    this.grid = grid;
    this.unsubscribe = grid.onChange((c) => {
      const s = this.layers[c.layer];
      if (s === undefined || s.tables === null || s.stale || !c.opened) return;
      for (const r of c.rects) s.pending.push({ x: r.x, y: r.y, width: r.width, height: r.height });
      if (s.pending.length > 64) s.stale = true;
    });
  }

  /** Bytes held by every table of this grid. */
  get bytes(): number {
    let b = 0;
    for (const s of this.layers) if (s?.tables) b += s.tables.bytes;
    return b;
  }

  memory(out: MemoryEntry[]): void {
    this.layers.forEach((s, layer) => {
      if (s?.tables) out.push({ name: 'landmark tables', layer, bytes: s.tables.bytes });
    });
  }

  release(): void {
    this.unsubscribe();
    this.layers.length = 0;
  }

  private state(layer: number): LayerLandmarks {
    return (this.layers[layer] ??= { tables: null, count: DEFAULT_LANDMARKS, work: 0, pending: [], stale: false });
  }

  /**
   * Sets how many landmarks `layer` keeps (0 drops them and stops the searches building any) and,
   * with `build`, builds them now when the layer's costs differ. A count other than the current
   * one rebuilds.
   */
  prepare(layer: number, count = this.state(layer).count, build = true): void {
    if (!Number.isInteger(count) || count < 0 || count > 64) throw new TilenavError(`expected an integer 0..64, got ${describe(count)}`, { element: 'landmarks' });
    const s = this.state(layer);
    if (count !== s.count) {
      s.count = count;
      s.tables = null;
      s.pending.length = 0;
      s.work = 0;
    }
    if (build && count > 0 && !this.grid.searchView(layer).uniform) this.current(layer, s, 'all');
  }

  /**
   * The tables a search on `layer` reads now (repaired after openings; at least one landmark
   * built), or null when the layer has none yet. `build` builds every landmark first.
   */
  tables(layer: number, build = false): LandmarkBounds | null {
    const s = this.layers[layer];
    if (s === undefined) return build ? this.current(layer, this.state(layer), 'all') : null;
    return this.current(layer, s, build ? 'all' : 'none');
  }

  /**
   * Counts `work` (in Dijkstra steps, one per cell expanded by A*) done by a search on `layer`
   * without tables. Once the count passes half of what building them all takes (one step per cell
   * per landmark), this and each following search, until all are built, spend an eighth of a
   * Dijkstra search of the layer on building them (so no search pauses for long), and each table
   * is read as soon as it is complete: a few searches never pay for tables, many pay for them once,
   * early. Rebuilds after large openings go the same way.
   */
  charge(layer: number, work: number): void {
    const s = this.state(layer);
    if (s.count === 0) return;
    if (s.tables !== null) {
      if (!s.tables.complete) this.current(layer, s, 'some');
      return;
    }
    s.work += work;
    if (s.work * 2 >= s.count * this.grid.searchView(layer).pass.length) this.current(layer, s, 'some');
  }

  /**
   * Brings the layer's tables up to date, then builds: every landmark (`all`), a slice of one
   * search's worth (`some`: {@link GROW_SHARE} of the layer's cells settled), or nothing.
   */
  private current(layer: number, s: LayerLandmarks, build: 'none' | 'some' | 'all'): LandmarkBounds | null {
    if (s.count === 0) return null;
    const view = this.grid.searchView(layer);
    const t0 = s.tables;
    if (t0 !== null && (s.stale || s.pending.length > 0)) {
      if (s.stale) for (let k = 0; k < t0.count; k++) t0.retire(k);
      else t0.repair(view, s.pending, this.grid.width, this.grid.height, Math.max(1024, view.pass.length >>> REPAIR_SHIFT));
      s.pending.length = 0;
      s.stale = false;
    }
    if (t0 === null && build !== 'none') {
      s.pending.length = 0;
      s.work = 0;
      // Stored costs must stay finite along every path; with costs near the float range, no tables.
      if (!(view.maxCost < MAX_STORED / view.pass.length)) return null;
      const rim = rimOf(view, s.count);
      if (rim.length === 0) return null;
      s.tables = new LandmarkBounds(view, s.count, rim, this.queue);
    }
    const t = s.tables;
    if (t === null) return null;
    if (build === 'all') t.grow();
    else if (build === 'some') t.grow(Math.max(1024, Math.ceil(view.pass.length / GROW_SHARE)));
    return t.count > 0 ? t : null;
  }
}

/** A search without every landmark built spends on building them at most 1/GROW_SHARE of a layer's cells. */
const GROW_SHARE = 8;
/** A repair settles at most 1/2^REPAIR_SHIFT of the layer's cells per landmark before it rebuilds that one instead. */
const REPAIR_SHIFT = 6;

/**
 * The cells landmarks may go on: the rim of the layer's largest area (cells joined by octile steps
 * without corner cutting), the one farthest from the area's centre of mass first, then the others
 * around it. A landmark bounds a search well when it lies "behind" the goal or the start, seen
 * from the other; one amid the map lies behind almost nothing, and the farthest cell from the
 * landmarks placed so far is often amid the map once the corners have theirs. So the rim: around
 * the centre, {@link RIM_SECTORS} equal angles (8 per landmark when that is more), and in each the
 * cell farthest from the centre. Padded cells; empty when no cell is walkable. One flood of the
 * layer and one pass over its largest area.
 */
export function rimOf(view: SearchView, count: number): Int32Array {
  const pass = view.pass;
  const W = view.stride;
  // Each walkable cell's area, numbered from 1.
  const area = new Int32Array(pass.length);
  const stack = new Int32Array(pass.length);
  let best = 0;
  let bestSize = 0;
  let areas = 0;
  for (let p0 = 0; p0 < pass.length; p0++) {
    if (area[p0] !== 0 || !(pass[p0] > 0)) continue;
    const id = ++areas;
    area[p0] = id;
    let top = 0;
    let size = 0;
    stack[top++] = p0;
    while (top > 0) {
      const p = stack[--top];
      size++;
      const n = pass[p - W] > 0;
      const e = pass[p + 1] > 0;
      const s = pass[p + W] > 0;
      const w = pass[p - 1] > 0;
      // A diagonal's side cells are open; its far cell may not be.
      const visit = (q: number): void => {
        if (area[q] === 0 && pass[q] > 0) {
          area[q] = id;
          stack[top++] = q;
        }
      };
      if (n) visit(p - W);
      if (e) visit(p + 1);
      if (s) visit(p + W);
      if (w) visit(p - 1);
      if (n && e) visit(p - W + 1);
      if (s && e) visit(p + W + 1);
      if (s && w) visit(p + W - 1);
      if (n && w) visit(p - W - 1);
    }
    if (size > bestSize) {
      bestSize = size;
      best = id;
    }
  }
  if (best === 0) return new Int32Array(0);
  let sx = 0;
  let sy = 0;
  for (let p = 0; p < pass.length; p++) {
    if (area[p] !== best) continue;
    const y = (p / W) | 0;
    sx += p - y * W;
    sy += y;
  }
  const cx = sx / bestSize;
  const cy = sy / bestSize;
  // The rim: per sector of angle around the centre, the cell farthest from it.
  const sectors = Math.max(RIM_SECTORS, 8 * count);
  const rim = new Int32Array(sectors).fill(-1);
  const reach = new Float64Array(sectors).fill(-1);
  for (let p = 0; p < pass.length; p++) {
    if (area[p] !== best) continue;
    const y = (p / W) | 0;
    const dx = p - y * W - cx;
    const dy = y - cy;
    const k = Math.min(sectors - 1, Math.floor(((Math.atan2(dy, dx) + Math.PI) / (2 * Math.PI)) * sectors));
    const d = dx * dx + dy * dy;
    if (d > reach[k]) {
      reach[k] = d;
      rim[k] = p;
    }
  }
  // The rim cells, the one farthest from the centre first.
  const rimCells: number[] = [];
  let first = 0;
  let firstD = -1;
  for (let k = 0; k < sectors; k++) {
    if (rim[k] < 0) continue;
    if (reach[k] > firstD) {
      firstD = reach[k];
      first = rimCells.length;
    }
    rimCells.push(rim[k]);
  }
  [rimCells[0], rimCells[first]] = [rimCells[first], rimCells[0]];
  return Int32Array.from(rimCells);
}

/** Sectors of angle {@link rimOf} finds the rim in, at least. */
const RIM_SECTORS = 64;

/** The landmark tables `grid` keeps (created on first use; see NavGrid.memory and releaseDerived). */
export function landmarksOf(grid: NavGrid): GridLandmarks {
  return grid.derived('landmarks', (g) => new GridLandmarks(g));
}
