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
  // The walk begun by beginRect: the rectangle's bounds and the next bucket to look at.
  private walkX0 = 0;
  private walkX1 = 0;
  private walkY1 = 0;
  private walkX = 0;
  private walkY = 0;

  /** Widens the buckets to hold an agent of radius `r` (cells); they never shrink. */
  fitRadius(r: number): void {
    this.bucket = Math.max(this.bucket, Math.ceil(2 * r), 1);
  }

  /** The bucket row or column holding cell coordinate v. */
  bucketOf(v: number): number {
    return Math.floor((v + 0.5) / this.bucket);
  }

  /** Counting sort of the active agents into their slots, in id order. */
  build(agents: AgentStore): void {
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
      if ((flags[i] & AGENT_ACTIVE) === 0) {
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
    this.walkX0 = bx0;
    this.walkX1 = bx1;
    this.walkY1 = by1;
    this.walkX = bx0;
    this.walkY = by0;
  }

  /** The next slot of the walk begun by `beginRect`, or -1 when it is done. */
  nextSlot(): number {
    const gen = this.seen.generation;
    const seen = this.seen.stamp;
    while (this.walkY <= this.walkY1) {
      if (this.walkX > this.walkX1) {
        this.walkX = this.walkX0;
        this.walkY++;
        continue;
      }
      const s = this.slot(this.walkX++, this.walkY);
      if (seen[s] === gen) continue;
      seen[s] = gen;
      return s;
    }
    return -1;
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
