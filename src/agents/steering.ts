import { hypot } from './hypot.js';
import type { NavGrid } from '../grid/navgrid.js';
import type { FlowField } from './flowfield.js';
import type { NavigationOptions } from './options.js';
import { cellIndexAt, walkableAt } from './planner.js';
import { AGENT_DIRTY, AGENT_FLOW, AGENT_INTENT, AGENT_PATHFINDING, type AgentStore } from './store.js';

const TWO_PI = Math.PI * 2;

/**
 * Walks agents with an order one step: along their waypoints, down their group's flow field, or
 * straight at the target; slides along walls, turns toward the way it went, and ends the order
 * at the target.
 */
export class Steering {
  private readonly agents: AgentStore;
  private readonly grid: NavGrid;
  private readonly layer: number;
  private readonly options: Readonly<NavigationOptions>;
  /** Each group order's flow field (by group id), shared with the replanner that builds them. */
  private readonly fields: readonly (FlowField | null)[];
  /** Simulated time of the step being walked (seconds). */
  private now = 0;
  /**
   * A point (x, y) handed to tryMove and turn: numbers passed to a call the compiler does not
   * inline are boxed on the heap, an allocation per agent per step; here they stay unboxed.
   */
  private readonly point = new Float64Array(2);

  constructor(agents: AgentStore, grid: NavGrid, layer: number, options: Readonly<NavigationOptions>, fields: readonly (FlowField | null)[]) {
    this.agents = agents;
    this.grid = grid;
    this.layer = layer;
    this.options = options;
    this.fields = fields;
  }

  /** Moves every agent with an order by up to its speed x `dt` seconds, at simulated time `now`, in id order. */
  walkAll(dt: number, now: number): void {
    this.now = now;
    const n = this.agents.count;
    const flags = this.agents.flags;
    for (let i = 0; i < n; i++) if ((flags[i] & AGENT_INTENT) !== 0) this.walk(i, dt);
  }

  private walk(i: number, dt: number): void {
    const o = this.options;
    const a = this.agents;
    const grid = this.grid;
    const f = a.flags[i];
    let remaining = a.walkSpeed[i] * a.desiredSpeed[i] * dt;
    const x0 = a.x[i];
    const y0 = a.y[i];
    // Several short waypoints can fall within one step's reach; 8 bounds the work per step.
    for (let guard = 0; guard < 8 && remaining > 0; guard++) {
      let wx: number;
      let wy: number;
      let last: boolean;
      if ((a.flags[i] & AGENT_FLOW) !== 0) {
        const field = this.fields[a.group[i]]!;
        const c = cellIndexAt(grid, a.x[i], a.y[i]);
        const next = c < 0 ? -1 : field.next(c);
        const slotD = hypot(a.targetX[i] - grid.xOf(field.goal), a.targetY[i] - grid.yOf(field.goal));
        if (next < 0 || field.dist[c] <= o.flowSlotHandoff + slotD) {
          // Close enough: leave the field and plan the last stretch to this unit's own slot.
          a.flags[i] &= ~AGENT_FLOW;
          return;
        }
        wx = grid.xOf(next);
        wy = grid.yOf(next);
        last = false;
      } else if ((f & AGENT_PATHFINDING) === 0) {
        wx = a.targetX[i];
        wy = a.targetY[i];
        last = true;
      } else {
        const path = a.paths[i];
        if (path === null) return;
        const k = a.waypointIndex[i];
        wx = path[k * 2];
        wy = path[k * 2 + 1];
        last = k * 2 + 2 >= path.length;
      }
      const dx = wx - a.x[i];
      const dy = wy - a.y[i];
      const d = Math.sqrt(dx * dx + dy * dy);
      // In a crowd several units aim at one waypoint and jostle around it without ever standing on
      // it; a unit in contact takes an intermediate waypoint as reached within its own diameter.
      // A flow-field unit aims at the next cell's centre, recomputed each time it enters a cell,
      // so it has no waypoint to count as reached early (that would stall it short of the cell).
      const flow = (a.flags[i] & AGENT_FLOW) !== 0;
      const reach = flow ? 0 : last ? Math.max(o.walkThreshold, a.arrivalThreshold[i]) : a.contact[i] === 1 ? Math.max(o.walkThreshold, 2 * a.radius[i]) : o.walkThreshold;
      if (d <= remaining || d <= reach) {
        if (d <= remaining) {
          this.point[0] = wx;
          this.point[1] = wy;
          if (!this.tryMove(i)) break;
        }
        remaining -= Math.min(d, remaining);
        if (last) {
          a.arrive(i, this.now);
          break;
        }
        if (!flow) a.waypointIndex[i]++;
      } else {
        this.point[0] = a.x[i] + (dx / d) * remaining;
        this.point[1] = a.y[i] + (dy / d) * remaining;
        if (!this.tryMove(i)) break;
        remaining = 0;
      }
    }
    this.point[0] = a.x[i] - x0;
    this.point[1] = a.y[i] - y0;
    this.turn(i, dt);
  }

  /** Moves agent i to `point` if its cell is walkable, else slides along one axis; false if it cannot move. */
  private tryMove(i: number): boolean {
    const a = this.agents;
    const nx = this.point[0];
    const ny = this.point[1];
    if (walkableAt(this.grid, this.layer, nx, ny)) {
      a.x[i] = nx;
      a.y[i] = ny;
      return true;
    }
    if (walkableAt(this.grid, this.layer, nx, a.y[i])) {
      a.x[i] = nx;
      return true;
    }
    if (walkableAt(this.grid, this.layer, a.x[i], ny)) {
      a.y[i] = ny;
      return true;
    }
    // Pushed somewhere the path no longer leads from: plan again from here.
    if ((a.flags[i] & (AGENT_PATHFINDING | AGENT_FLOW)) === AGENT_PATHFINDING && this.now - a.lastReplan[i] >= this.options.replanCooldown) {
      a.flags[i] |= AGENT_DIRTY;
      a.lastReplan[i] = this.now;
    }
    return false;
  }

  /** Turns agent i toward the way it moved, `point` = (dx, dy), by at most its rotation speed x dt. */
  private turn(i: number, dt: number): void {
    const dx = this.point[0];
    const dy = this.point[1];
    if (dx * dx + dy * dy < 1e-18) return;
    const heading = this.agents.heading;
    const want = Math.atan2(dy, dx);
    let diff = want - heading[i];
    // Math.round, spelled with floor: Math.round here made the compiled step box numbers.
    const turns = diff / TWO_PI;
    const down = Math.floor(turns);
    diff -= TWO_PI * (turns - down >= 0.5 ? down + 1 : down);
    const max = this.agents.rotationSpeed[i] * dt;
    let h = heading[i] + (diff > max ? max : diff < -max ? -max : diff);
    if (h > Math.PI) h -= TWO_PI;
    else if (h <= -Math.PI) h += TWO_PI;
    heading[i] = h;
  }
}
