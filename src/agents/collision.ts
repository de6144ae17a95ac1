import { hypot } from './hypot.js';
import type { NavGrid } from '../grid/navgrid.js';
import type { NavigationOptions } from './options.js';
import { walkableAt } from './planner.js';
import type { SpatialHash } from './spatial.js';
import type { NavigationStats } from './system.js';
import { AGENT_ACTIVE, AGENT_INTENT, AGENT_NUDGED, AGENT_PLAYER, DEFAULT_INTENT, type AgentStore } from './store.js';

/**
 * Keeps agents' discs apart: `collisionIterations` passes over the spatial hash push every
 * overlapping pair apart, only into walkable cells. A standing unit that a walker pushes steps
 * aside (a short order `nudgeDist` away, flagged AGENT_NUDGED) and walks back to where its last
 * order left it once it has stood `returnAfterNudge` seconds; a standing player pushed just
 * stops where the push left it.
 */
export class Collision {
  private readonly agents: AgentStore;
  private readonly hash: SpatialHash;
  private readonly grid: NavGrid;
  private readonly layer: number;
  private readonly options: Readonly<NavigationOptions>;
  private readonly stats: NavigationStats;
  /** Simulated time of the step being resolved (seconds). */
  private now = 0;

  constructor(agents: AgentStore, hash: SpatialHash, grid: NavGrid, layer: number, options: Readonly<NavigationOptions>, stats: NavigationStats) {
    this.agents = agents;
    this.hash = hash;
    this.grid = grid;
    this.layer = layer;
    this.options = options;
    this.stats = stats;
  }

  /**
   * Pushes overlapping agents apart at simulated time `now`, marking pushed agents in `contact`;
   * with `measure`, one more pass raises `stats.maxOverlap` to the deepest overlap left.
   */
  resolve(now: number, measure: boolean): void {
    this.now = now;
    const iterations = this.options.collisionIterations;
    for (let it = 0; it < iterations; it++) {
      this.hash.build(this.agents);
      this.visitPairs(true);
    }
    if (measure) {
      this.hash.build(this.agents);
      this.visitPairs(false);
    }
  }

  /**
   * Agents that stepped aside and have stood until their `returnAt` time walk back to where
   * their last order left them (unless already within their arrival threshold of it).
   */
  sendNudgedHome(now: number): void {
    const a = this.agents;
    for (let i = 0; i < a.count; i++) {
      if (a.returnAt[i] === 0 || now < a.returnAt[i] || (a.flags[i] & (AGENT_ACTIVE | AGENT_INTENT)) !== AGENT_ACTIVE) continue;
      a.returnAt[i] = 0;
      if (hypot(a.x[i] - a.homeX[i], a.y[i] - a.homeY[i]) > a.arrivalThreshold[i]) {
        a.order(i, a.homeX[i], a.homeY[i], DEFAULT_INTENT, a.group[i], now, true);
        a.flags[i] |= AGENT_NUDGED;
      }
    }
  }

  /** Visits every overlapping pair once (i < j, in id order): pushes them apart, or only measures. */
  private visitPairs(push: boolean): void {
    const hash = this.hash;
    const { start, items, slotOf, around } = hash;
    const a = this.agents;
    const n = a.count;
    const x = a.x;
    const y = a.y;
    const r = a.radius;
    for (let i = 0; i < n; i++) {
      if (slotOf[i] < 0) continue;
      // From where i stands now: earlier pushes in this pass may have moved it out of its bucket.
      const bx = hash.bucketOf(x[i]);
      const by = hash.bucketOf(y[i]);
      const slots = hash.slotsAround(bx, by);
      for (let q = 0; q < slots; q++) {
        const s = around[q];
        for (let k = start[s]; k < start[s + 1]; k++) {
          const j = items[k];
          if (j <= i) continue;
          const dx = x[j] - x[i];
          const dy = y[j] - y[i];
          const rs = r[i] + r[j];
          const d2 = dx * dx + dy * dy;
          if (d2 >= rs * rs) continue;
          if (!push) {
            const d = Math.sqrt(d2);
            if (rs - d > this.stats.maxOverlap) this.stats.maxOverlap = rs - d;
            continue;
          }
          this.pushApart(i, j);
        }
      }
    }
  }

  /**
   * Moves overlapping i and j apart along the line from i to j by their overlap, half each where
   * both can go. It takes the ids alone and measures the pair again: numbers passed to a call the
   * compiler does not inline are boxed on the heap, one allocation each per pushed pair.
   */
  private pushApart(i: number, j: number): void {
    const a = this.agents;
    const x = a.x;
    const y = a.y;
    const dx = x[j] - x[i];
    const dy = y[j] - y[i];
    const d = Math.sqrt(dx * dx + dy * dy);
    const pen = a.radius[i] + a.radius[j] - d;
    let nx: number;
    let ny: number;
    if (d > 1e-9) {
      nx = dx / d;
      ny = dy / d;
    } else {
      // Exactly on top of each other: a direction from the ids alone keeps this deterministic.
      const angle = ((i * 7 + j * 13) % 16) * (Math.PI / 8);
      nx = Math.cos(angle);
      ny = Math.sin(angle);
    }
    const movingA = (a.flags[i] & AGENT_INTENT) !== 0;
    const movingB = (a.flags[j] & AGENT_INTENT) !== 0;
    if (movingA && movingB) {
      // Head-on walkers would push each other straight back forever: both keep to their right.
      const vx = x[i] - a.prevX[i] - (x[j] - a.prevX[j]);
      const vy = y[i] - a.prevY[i] - (y[j] - a.prevY[j]);
      const v = hypot(vx, vy);
      if (v > 1e-9 && nx * vx + ny * vy > 0.9 * v) {
        // Right of A's relative motion, in y-down coordinates, is (-vy, vx); A moves away from it.
        nx += (vy / v) * 0.75;
        ny -= (vx / v) * 0.75;
        const m = hypot(nx, ny);
        nx /= m;
        ny /= m;
      }
    }
    const h = pen / 2;
    const ax = x[i] - nx * h;
    const ay = y[i] - ny * h;
    const bx = x[j] + nx * h;
    const by = y[j] + ny * h;
    const okA = walkableAt(this.grid, this.layer, ax, ay);
    const okB = walkableAt(this.grid, this.layer, bx, by);
    if (okA && okB) {
      x[i] = ax;
      y[i] = ay;
      x[j] = bx;
      y[j] = by;
    } else if (okA) {
      // B is against a wall: A takes the whole push if it can.
      const fx = x[i] - nx * pen;
      const fy = y[i] - ny * pen;
      const full = walkableAt(this.grid, this.layer, fx, fy);
      x[i] = full ? fx : ax;
      y[i] = full ? fy : ay;
    } else if (okB) {
      const fx = x[j] + nx * pen;
      const fy = y[j] + ny * pen;
      const full = walkableAt(this.grid, this.layer, fx, fy);
      x[j] = full ? fx : bx;
      y[j] = full ? fy : by;
    } else {
      return;
    }
    a.contact[i] = 1;
    a.contact[j] = 1;
    this.afterPush(i, movingA, j, movingB, okA);
    this.afterPush(j, movingB, i, movingA, okB);
  }

  /** A standing player pushed stops in place; a standing unit a walker pushed steps aside. */
  private afterPush(s: number, sMoving: boolean, other: number, otherMoving: boolean, moved: boolean): void {
    if (sMoving || !moved) return;
    const a = this.agents;
    if ((a.flags[s] & AGENT_PLAYER) !== 0) {
      a.stop(s);
      return;
    }
    // Only a walker on a real order nudges: one stepping aside or walking back (AGENT_NUDGED) just
    // pushes, or groups settling into formation would nudge each other back and forth for ever.
    if (otherMoving && (a.flags[other] & AGENT_NUDGED) === 0) this.nudgeAside(s, other);
    else if (this.options.returnAfterNudge > 0 && Number.isFinite(a.homeX[s]) && a.returnAt[s] === 0) a.returnAt[s] = this.now + this.options.returnAfterNudge;
  }

  /**
   * Orders standing unit s `nudgeDist` out of walker `from`'s way: straight away from it, else to
   * its left or right, else back past it; the first target in a walkable cell wins (none: s stays).
   */
  private nudgeAside(s: number, from: number): void {
    const a = this.agents;
    let dx = a.x[s] - a.x[from];
    let dy = a.y[s] - a.y[from];
    const d = hypot(dx, dy);
    if (d < 1e-9) {
      dx = 1;
      dy = 0;
    } else {
      dx /= d;
      dy /= d;
    }
    const dist = this.options.nudgeDist;
    for (let k = 0; k < 4; k++) {
      const ux = k === 0 ? dx : k === 1 ? -dy : k === 2 ? dy : -dx;
      const uy = k === 0 ? dy : k === 1 ? dx : k === 2 ? -dx : -dy;
      const tx = a.x[s] + ux * dist;
      const ty = a.y[s] + uy * dist;
      if (!walkableAt(this.grid, this.layer, tx, ty)) continue;
      // It stays in its group: stepping aside for a comrade must not make the group replan.
      a.order(s, tx, ty, DEFAULT_INTENT, a.group[s], this.now, true);
      a.flags[s] |= AGENT_NUDGED;
      return;
    }
  }
}
