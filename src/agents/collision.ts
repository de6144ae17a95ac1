import { hypot } from './hypot.js';
import type { NavGrid } from '../grid/navgrid.js';
import type { NavigationOptions } from './options.js';
import { canMoveTo } from './planner.js';
import { NearPairs } from './pairs.js';
import type { NavigationStats } from './system.js';
import type { StepAside } from './stepaside.js';
import { AGENT_INTENT, AGENT_NUDGED, AGENT_PLAYER, type AgentStore } from './store.js';

/**
 * Keeps agents' discs apart: `collisionIterations` passes over the pairs near enough to touch
 * push every overlapping pair apart, only into walkable cells. A standing unit that a walker pushes steps
 * aside (see {@link StepAside}: flagged AGENT_NUDGED, it walks back to its post later); a standing
 * player pushed just stops where the push left it.
 */
export class Collision {
  private readonly agents: AgentStore;
  /** The pairs near enough to touch, kept between steps. */
  private readonly pairs = new NearPairs();
  private readonly grid: NavGrid;
  private readonly layer: number;
  private readonly options: Readonly<NavigationOptions>;
  private readonly stats: NavigationStats;
  private readonly stepAside: StepAside;
  /** Simulated time of the step being resolved (seconds). */
  private now = 0;

  constructor(agents: AgentStore, grid: NavGrid, layer: number, options: Readonly<NavigationOptions>, stats: NavigationStats, stepAside: StepAside) {
    this.agents = agents;
    this.grid = grid;
    this.layer = layer;
    this.options = options;
    this.stats = stats;
    this.stepAside = stepAside;
  }

  /**
   * Pushes overlapping agents apart at simulated time `now`, marking pushed agents in `contact`;
   * with `measure`, one more pass raises `stats.maxOverlap` to the deepest overlap left. Each
   * pass reads the near pairs (see {@link NearPairs}), renewed only when agents moved far enough
   * since it was built that a pair missing from it could touch.
   */
  resolve(now: number, measure: boolean): void {
    this.now = now;
    const iterations = this.options.collisionIterations;
    for (let it = 0; it < iterations; it++) {
      this.pairs.update(this.agents);
      this.visitPairs(true);
    }
    if (measure) {
      this.pairs.update(this.agents);
      this.visitPairs(false);
    }
  }

  /** Visits every overlapping pair once, in the list's order: pushes them apart, or only measures. */
  private visitPairs(push: boolean): void {
    const { first, second, count } = this.pairs;
    const a = this.agents;
    const x = a.x;
    const y = a.y;
    const r = a.radius;
    for (let k = 0; k < count; k++) {
      const i = first[k];
      const j = second[k];
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
    const okA = canMoveTo(this.grid, a.layer[i], x[i], y[i], ax, ay);
    const okB = canMoveTo(this.grid, a.layer[j], x[j], y[j], bx, by);
    if (okA && okB) {
      x[i] = ax;
      y[i] = ay;
      x[j] = bx;
      y[j] = by;
    } else if (okA) {
      // B is against a wall: A takes the whole push if it can.
      const fx = x[i] - nx * pen;
      const fy = y[i] - ny * pen;
      const full = canMoveTo(this.grid, a.layer[i], x[i], y[i], fx, fy);
      x[i] = full ? fx : ax;
      y[i] = full ? fy : ay;
    } else if (okB) {
      const fx = x[j] + nx * pen;
      const fy = y[j] + ny * pen;
      const full = canMoveTo(this.grid, a.layer[j], x[j], y[j], fx, fy);
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

  /** A standing player pushed stops in place; a standing unit a walker pushed steps aside (see StepAside); one shoved otherwise walks back later. */
  private afterPush(s: number, sMoving: boolean, other: number, otherMoving: boolean, moved: boolean): void {
    if (sMoving || !moved) return;
    const a = this.agents;
    if ((a.flags[s] & AGENT_PLAYER) !== 0) {
      a.stop(s);
      return;
    }
    // Only a walker on a real order nudges: one stepping aside or walking back (AGENT_NUDGED) just
    // pushes, or groups settling into formation would nudge each other back and forth for ever.
    if (otherMoving && (a.flags[other] & AGENT_NUDGED) === 0) this.stepAside.sendAside(s, other, this.now, true);
    else this.stepAside.waitToReturn(s, this.now);
  }
}
