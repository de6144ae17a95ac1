import { hypot } from './hypot.js';
import { AGENT_ACTIVE, type AgentStore } from './store.js';

/**
 * The active agents bucketed by squares of `bucket` x `bucket` cells, the buckets hashed into a
 * table sized by agent count, not map size, so a big sparse map costs nothing. Rebuilt from the
 * positions whenever a stage needs it; between builds it describes where agents stood then.
 *
 * Reading a neighbourhood: its distinct slots come from `slotsAround(bx, by)` (3 x 3 buckets, all
 * at once) or `beginRect(bx0, bx1, by0, by1)` then `nextSlot()` until -1 (any rectangle, one at a
 * time, so a search can stop early); each slot s holds the ids `items[start[s]]` ..
 * `items[start[s + 1] - 1]`, ascending. Several buckets may share a slot, so a slot holds agents
 * that may be far apart: callers test distances themselves. Each slot is given out once per
 * neighbourhood, or a pair would be pushed twice.
 */
export class SpatialHash {
  /** Side of a bucket (cells): at least every agent's diameter, so touching agents share or neighbour a bucket. */
  bucket = 1;
  /** Slot s holds items[start[s]] .. items[start[s + 1] - 1]. */
  start = new Int32Array(0);
  /** Agent ids, slot by slot, ascending within a slot. */
  items = new Int32Array(0);
  /** Each agent's slot at the last build; -1 for inactive ones. */
  slotOf = new Int32Array(0);
  private mask = 63;
  /** Slots already given out by the current walk: those stamped with its generation. */
  private seen = new Stamps(0);
  /** The slots found by the last slotsAround. */
  readonly around = new Int32Array(9);
  // The walk begun by beginRect or beginSegment: the next bucket to look at (walkX, walkY), the
  // buckets left in its row and the rows left after it, the steps between them (+1 or -1), and
  // the rectangle's columns or the segment.
  private walkX = 0;
  private walkY = 0;
  private colsLeft = 0;
  private rowsLeft = 0;
  private stepX = 1;
  private stepY = 1;
  private walkX0 = 0;
  private walkX1 = 0;
  private walkSegment = false;
  private segSX = 0;
  private segSY = 0;
  private segEX = 0;
  private segEY = 0;
  private segReach = 0;

  /** Widens the buckets to hold an agent of radius `r` (cells); they never shrink. */
  fitRadius(r: number): void {
    this.bucket = Math.max(this.bucket, Math.ceil(2 * r), 1);
  }

  /** The bucket row or column holding cell coordinate v. */
  bucketOf(v: number): number {
    return Math.floor((v + 0.5) / this.bucket);
  }

  /** Counting sort of the active agents (those `keep` accepts, when given) into their slots, in id order. */
  build(agents: AgentStore, keep?: (id: number) => boolean): void {
    const n = agents.count;
    let size = 64;
    while (size < 2 * n) size *= 2;
    if (this.start.length !== size + 1) {
      this.start = new Int32Array(size + 1);
      this.seen = new Stamps(size);
    }
    if (this.items.length < agents.x.length) {
      this.items = new Int32Array(agents.x.length);
      this.slotOf = new Int32Array(agents.x.length);
    }
    this.mask = size - 1;
    const start = this.start;
    const slotOf = this.slotOf;
    const flags = agents.flags;
    const x = agents.x;
    const y = agents.y;
    start.fill(0);
    for (let i = 0; i < n; i++) {
      if ((flags[i] & AGENT_ACTIVE) === 0 || (keep !== undefined && !keep(i))) {
        slotOf[i] = -1;
        continue;
      }
      const s = this.slot(this.bucketOf(x[i]), this.bucketOf(y[i]));
      slotOf[i] = s;
      start[s + 1]++;
    }
    for (let s = 0; s < size; s++) start[s + 1] += start[s];
    const items = this.items;
    // The prefix sums serve as cursors, then shift back by one slot.
    for (let i = 0; i < n; i++) {
      const s = slotOf[i];
      if (s >= 0) items[start[s]++] = i;
    }
    for (let s = size; s > 0; s--) start[s] = start[s - 1];
    start[0] = 0;
  }

  /** Whether a slot of the buckets bx0..bx1 x by0..by1 holds an agent (perhaps one of another bucket sharing the slot). */
  anyInRect(bx0: number, bx1: number, by0: number, by1: number): boolean {
    const start = this.start;
    for (let by = by0; by <= by1; by++) {
      for (let bx = bx0; bx <= bx1; bx++) {
        const s = this.slot(bx, by);
        if (start[s] < start[s + 1]) return true;
      }
    }
    return false;
  }

  /** The table slot of bucket (bx, by). */
  slot(bx: number, by: number): number {
    return (Math.imul(bx, 73856093) ^ Math.imul(by, 19349663)) & this.mask;
  }

  /**
   * The distinct slots of the 3 x 3 buckets centred on bucket (bx, by), row by row, in `around`;
   * returns how many. The eager form of a walk, for the many small neighbourhoods of collision.
   */
  slotsAround(bx: number, by: number): number {
    const gen = this.seen.next();
    const seen = this.seen.stamp;
    const around = this.around;
    let count = 0;
    for (let y = by - 1; y <= by + 1; y++) {
      for (let x = bx - 1; x <= bx + 1; x++) {
        const s = this.slot(x, y);
        if (seen[s] === gen) continue;
        seen[s] = gen;
        around[count++] = s;
      }
    }
    return count;
  }

  /**
   * Starts a walk over the distinct slots of buckets bx0..bx1 x by0..by1, row by row. Walks do
   * not nest, nor interleave with slotsAround.
   */
  beginRect(bx0: number, bx1: number, by0: number, by1: number): void {
    this.seen.next();
    this.walkSegment = false;
    this.stepX = 1;
    this.stepY = 1;
    this.walkX0 = bx0;
    this.walkX1 = bx1;
    this.walkY = by0;
    this.rowsLeft = by1 - by0;
    this.walkX = bx0;
    this.colsLeft = by1 >= by0 ? bx1 - bx0 + 1 : 0;
  }

  /**
   * Starts a walk like `beginRect`'s over the buckets that may hold a point within `reach` of the
   * segment (sx, sy)-(ex, ey): row by row from the (sx, sy) end, each row only across the part of
   * the segment within `reach` of it, widened by `reach` (not the segment's whole bounding box: a
   * long diagonal would cover the map), so a search for something near the start stops early.
   */
  beginSegment(sx: number, sy: number, ex: number, ey: number, reach: number): void {
    this.seen.next();
    this.walkSegment = true;
    this.segSX = sx;
    this.segSY = sy;
    this.segEX = ex;
    this.segEY = ey;
    this.segReach = reach;
    this.stepX = ex >= sx ? 1 : -1;
    this.stepY = ey >= sy ? 1 : -1;
    const first = this.bucketOf(sy - this.stepY * reach);
    const last = this.bucketOf(ey + this.stepY * reach);
    this.walkY = first;
    this.rowsLeft = Math.abs(last - first);
    this.segmentRow();
  }

  /** The buckets of row walkY that the segment walk reads, from the segment's start side (walkX, colsLeft). */
  private segmentRow(): void {
    const b = this.bucket;
    const reach = this.segReach;
    const ya = this.walkY * b - 0.5 - reach;
    const yb = (this.walkY + 1) * b - 0.5 + reach;
    const sx = this.segSX;
    const sy = this.segSY;
    const dx = this.segEX - sx;
    const dy = this.segEY - sy;
    let t0 = 0;
    let t1 = 1;
    if (dy === 0) {
      if (sy < ya || sy > yb) t1 = -1;
    } else {
      const ta = (ya - sy) / dy;
      const tb = (yb - sy) / dy;
      if ((ta < tb ? ta : tb) > t0) t0 = ta < tb ? ta : tb;
      if ((ta < tb ? tb : ta) < t1) t1 = ta < tb ? tb : ta;
    }
    if (t0 > t1) {
      this.colsLeft = 0;
      return;
    }
    const xa = sx + t0 * dx;
    const xb = sx + t1 * dx;
    const bx0 = this.bucketOf((xa < xb ? xa : xb) - reach);
    const bx1 = this.bucketOf((xa < xb ? xb : xa) + reach);
    this.walkX = this.stepX > 0 ? bx0 : bx1;
    this.colsLeft = bx1 - bx0 + 1;
  }

  /** The next slot of the walk begun by `beginRect` or `beginSegment`, or -1 when it is done. */
  nextSlot(): number {
    const gen = this.seen.generation;
    const seen = this.seen.stamp;
    for (;;) {
      if (this.colsLeft <= 0) {
        if (this.rowsLeft <= 0) return -1;
        this.rowsLeft--;
        this.walkY += this.stepY;
        if (this.walkSegment) this.segmentRow();
        else {
          this.walkX = this.walkX0;
          this.colsLeft = this.walkX1 - this.walkX0 + 1;
        }
        continue;
      }
      const s = this.slot(this.walkX, this.walkY);
      this.walkX += this.stepX;
      this.colsLeft--;
      if (seen[s] === gen) continue;
      seen[s] = gen;
      return s;
    }
  }


}

// The two queries below scan every agent rather than the hash: the hash holds where agents stood
// at its last build, stale after addAgent, an order or a direct write to x/y between steps.

/** Ids of agents whose centres lie in the rectangle (cell coordinates, any corner order), ascending, in `out`. */
export function agentsInRect(agents: AgentStore, x0: number, y0: number, x1: number, y1: number, out: number[]): number[] {
  out.length = 0;
  const ax = Math.min(x0, x1);
  const bx = Math.max(x0, x1);
  const ay = Math.min(y0, y1);
  const by = Math.max(y0, y1);
  const { x, y, flags } = agents;
  for (let i = 0; i < agents.count; i++) {
    if ((flags[i] & AGENT_ACTIVE) !== 0 && x[i] >= ax && x[i] <= bx && y[i] >= ay && y[i] <= by) out.push(i);
  }
  return out;
}

/** The agent whose disc contains (x, y) and whose centre is nearest it (the lowest id on a tie), or -1. */
export function agentAt(agents: AgentStore, x: number, y: number): number {
  let best = -1;
  let bestD = Infinity;
  for (let i = 0; i < agents.count; i++) {
    if ((agents.flags[i] & AGENT_ACTIVE) === 0) continue;
    const d = hypot(agents.x[i] - x, agents.y[i] - y);
    if (d <= agents.radius[i] && d < bestD) {
      best = i;
      bestD = d;
    }
  }
  return best;
}
import { Stamps } from '../search/kernel/scratch.js';

/**
 * The active agents sorted into a dense grid of square buckets over the box they stand in (not
 * the map): bucket (bx, by) holds the ids `items[start[by * cols + bx]]` .. before
 * `items[start[by * cols + bx + 1]]`, ascending, so a run of buckets along a row is one run of
 * `items`. Buckets are a cell wide, wider (doubling) when the box would need more than
 * max(4096, 16 x agents) of them: memory and the per-build clearing follow the agent count, not
 * the map. For nearest-neighbour queries (see Avoidance): a query reads a few short runs, no
 * hashing and no slot given out twice.
 */
export class AgentGrid {
  /** Side of a bucket (cells). */
  side = 1;
  /** Cell coordinates of the box's top-left corner: bucket (0, 0) starts there. */
  originX = 0;
  originY = 0;
  cols = 0;
  rows = 0;
  start = new Int32Array(1);
  items = new Int32Array(0);
  private bucketOfAgent = new Int32Array(0);

  /** Counting sort of the active agents into buckets, in id order. */
  build(agents: AgentStore): void {
    const n = agents.count;
    const { x, y, flags } = agents;
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < n; i++) {
      if ((flags[i] & AGENT_ACTIVE) === 0) continue;
      if (x[i] < minX) minX = x[i];
      if (x[i] > maxX) maxX = x[i];
      if (y[i] < minY) minY = y[i];
      if (y[i] > maxY) maxY = y[i];
    }
    if (minX === Infinity) {
      this.cols = this.rows = 0;
      return;
    }
    const cap = Math.max(4096, 16 * n);
    let side = 1;
    while ((Math.floor((maxX - minX) / side) + 1) * (Math.floor((maxY - minY) / side) + 1) > cap) side *= 2;
    this.side = side;
    this.originX = minX;
    this.originY = minY;
    const cols = (this.cols = Math.floor((maxX - minX) / side) + 1);
    this.rows = Math.floor((maxY - minY) / side) + 1;
    const cells = cols * this.rows;
    if (this.start.length < cells + 1) this.start = new Int32Array(Math.max(cells + 1, 2 * this.start.length));
    if (this.items.length < agents.x.length) {
      this.items = new Int32Array(agents.x.length);
      this.bucketOfAgent = new Int32Array(agents.x.length);
    }
    const start = this.start;
    const of = this.bucketOfAgent;
    start.fill(0, 0, cells + 1);
    for (let i = 0; i < n; i++) {
      if ((flags[i] & AGENT_ACTIVE) === 0) {
        of[i] = -1;
        continue;
      }
      const b = Math.floor((y[i] - minY) / side) * cols + Math.floor((x[i] - minX) / side);
      of[i] = b;
      start[b + 1]++;
    }
    for (let b = 0; b < cells; b++) start[b + 1] += start[b];
    const items = this.items;
    for (let i = 0; i < n; i++) {
      const b = of[i];
      if (b >= 0) items[start[b]++] = i;
    }
    for (let b = cells; b > 0; b--) start[b] = start[b - 1];
    start[0] = 0;
  }
}
