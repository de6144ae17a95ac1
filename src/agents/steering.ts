import type { NavGrid } from '../grid/navgrid.js';
import { isLinkStep } from '../path/smooth.js';
import { canMoveTo } from './planner.js';
import type { Avoidance } from './avoidance.js';
import type { UnitField } from './flowfield.js';
import type { NavigationOptions } from './options.js';
import { AGENT_DIRTY, AGENT_FLOW, AGENT_HAS_PATH, AGENT_INTENT, AGENT_PATHFINDING, type AgentStore } from './store.js';

const TWO_PI = Math.PI * 2;

// What an agent walks toward this step (see Steering.aim).
/** Nothing this step: no path yet, or it just left its group's flow field. */
const AIM_NONE = 0;
/** It stands this step: a chaser in reach of its target, or with no way to it from here. */
const AIM_STAND = 4;
/** A waypoint of its path before the last. */
const AIM_WAYPOINT = 1;
/** The order's target: its path's last waypoint, or the target itself without pathfinding. */
const AIM_TARGET = 2;
/** The next cell of its group's flow field (its centre), or a chaser's target in the target's cell. */
const AIM_CELL = 3;
/** Its path's last waypoint, a link's near end (AgentStore.linkX): reached, the agent takes the link. */
const AIM_LINK = 5;

/** Nearer its target than this an agent is on it (cells): rounding in the last step's move. */
const ON_TARGET = 1e-9;

/**
 * With avoidance, the time a walker at full speed takes to brake to a stop at its target
 * (seconds): it slows down over the last walkSpeed x 0.125 cells (half a cell at 4 cells per
 * second) and its last step ends on the target.
 */
const BRAKE_TIME = 0.25;

/**
 * Walks agents with an order one step: along their waypoints, down their group's flow field, or
 * straight at the target; slides along walls, turns toward the way it went, and ends the order
 * at the target. With avoidance, each walker's preferred velocity (toward what it aims at, braking
 * before its target) goes to the avoidance first, which chooses the velocities it walks with.
 */
export class Steering {
  private readonly agents: AgentStore;
  private readonly grid: NavGrid;
  /** The layer of the agent being walked (set per agent: links between layers move agents between layers). */
  private layer: number;
  private readonly options: Readonly<NavigationOptions>;
  /** Each group order's flow field or chase (by group id), shared with the replanner that holds them. */
  private readonly fields: readonly (UnitField | null)[];
  /** Simulated time of the step being walked (seconds). */
  private now = 0;
  /**
   * A point (x, y) handed to tryMove and turn, and the step's length in seconds: numbers passed to a call the compiler does not
   * inline are boxed on the heap, an allocation per agent per step; here they stay unboxed.
   */
  private readonly point = new Float64Array(3);
  /** The point `aim` found (cell coordinates). */
  private readonly goal = new Float64Array(2);
  /** Chooses the walkers' velocities; null: none, walkers go straight at what they aim at. */
  private readonly avoidance: Avoidance | null;

  constructor(agents: AgentStore, grid: NavGrid, layer: number, options: Readonly<NavigationOptions>, fields: readonly (UnitField | null)[], avoidance: Avoidance | null = null) {
    this.agents = agents;
    this.grid = grid;
    this.layer = layer;
    this.options = options;
    this.fields = fields;
    this.avoidance = avoidance;
  }

  /** Moves every agent with an order by up to its speed x `dt` seconds, at simulated time `now`, in id order. */
  walkAll(dt: number, now: number): void {
    this.now = now;
    const n = this.agents.count;
    const flags = this.agents.flags;
    this.point[2] = dt;
    const avoidance = this.avoidance;
    if (avoidance === null) {
      for (let i = 0; i < n; i++) if ((flags[i] & AGENT_INTENT) !== 0) this.walk(i);
      return;
    }
    // (walk and walkAvoiding read the walker's own layer: see `layer`.)
    // Every velocity is chosen from the step's starting positions before anyone moves.
    avoidance.begin();
    for (let i = 0; i < n; i++) if ((flags[i] & AGENT_INTENT) !== 0) this.prefer(i);
    avoidance.solve(dt);
    for (let i = 0; i < n; i++) if (avoidance.active[i] === 1) this.walkAvoiding(i);
  }

  /**
   * What agent i walks toward now, into `goal`: the next cell of its group's flow field (a
   * chaser in the target's cell: the target itself), the target itself without pathfinding, or
   * its path's current waypoint (with avoidance, a target moved off the walls by the agent's
   * radius). AIM_NONE when it has no path yet, or when a flow-field walker has come near its slot
   * (it leaves the field, to plan its last stretch at the next step); AIM_STAND when a chaser
   * stands this step.
   */
  private aim(i: number): number {
    const a = this.agents;
    const grid = this.grid;
    const f = a.flags[i];
    if ((f & AGENT_FLOW) !== 0) {
      const field = this.fields[a.group[i]]!;
      const c = this.cellAt(i);
      if (c >= 0 && field.waits(c)) {
        // The group's field has not reached this unit yet (it grows a step at a time, or comes
        // from a worker): it walks straight at its slot meanwhile, and down the field once its
        // cell is reached.
        this.goal[0] = a.targetX[i];
        this.goal[1] = a.targetY[i];
        return AIM_CELL;
      }
      const next = c < 0 ? -1 : field.next(c);
      if (field.chasing) {
        // A chaser keeps the field: in the target's cell it walks at the target itself, and
        // stands within its arrival threshold of it (or where no way leads to it).
        if (next < 0 && (c !== field.goal || this.withinArrival(i))) return AIM_STAND;
        this.goal[0] = next < 0 ? a.targetX[i] : grid.xOf(next);
        this.goal[1] = next < 0 ? a.targetY[i] : grid.yOf(next);
        return AIM_CELL;
      }
      if (next < 0 || this.nearSlot(i, field, c)) {
        // Close enough: leave the field and plan the last stretch to this unit's own slot.
        a.flags[i] &= ~AGENT_FLOW;
        return AIM_NONE;
      }
      this.goal[0] = grid.xOf(next);
      this.goal[1] = grid.yOf(next);
      return AIM_CELL;
    }
    let kind = AIM_TARGET;
    if ((f & AGENT_PATHFINDING) === 0) {
      this.goal[0] = a.targetX[i];
      this.goal[1] = a.targetY[i];
    } else {
      const path = a.paths[i];
      if (path === null) {
        // Waiting for its first plan (the step's budget went to others, or the answer is on its
        // way from a PathService): it walks straight at its target meanwhile, as the crow flies,
        // sliding along the walls, and takes its exact path from where it stands once planned.
        if ((f & AGENT_HAS_PATH) !== 0) return AIM_NONE;
        this.goal[0] = a.targetX[i];
        this.goal[1] = a.targetY[i];
        if (this.avoidance !== null) this.avoidance.fitInWalls(this.goal, i);
        return AIM_TARGET;
      }
      const k = a.waypointIndex[i];
      this.goal[0] = path[k * 2];
      this.goal[1] = path[k * 2 + 1];
      // The path's end is a link's near end (see AgentStore.linkX): reached, the unit takes it.
      if (k * 2 + 2 < path.length) kind = AIM_WAYPOINT;
      else if (a.linkX[i] === a.linkX[i]) kind = AIM_LINK;
    }
    // Avoidance keeps discs off the walls: a target against one moves to where the disc fits.
    if (kind === AIM_TARGET && this.avoidance !== null) this.avoidance.fitInWalls(this.goal, i);
    return kind;
  }

  /**
   * Whether agent i has reached the waypoint in `goal` (one before the last): within
   * walkThreshold, or in a crowd (pushed at the last step, or held back by others' avoidance)
   * within its own diameter, as several units aiming at one waypoint jostle around it without
   * ever standing on it. A boolean, not the distance: see cellAt's note on boxing.
   */
  private reachedWaypoint(i: number): boolean {
    const a = this.agents;
    const dx = this.goal[0] - a.x[i];
    const dy = this.goal[1] - a.y[i];
    const crowded = a.contact[i] === 1 || (this.avoidance !== null && this.avoidance.held[i] === 1);
    const reach = crowded ? Math.max(this.options.walkThreshold, 2 * a.radius[i]) : this.options.walkThreshold;
    return dx * dx + dy * dy <= reach * reach;
  }

  /**
   * With avoidance: passes the waypoints agent i has reached, then sets its preferred velocity
   * toward what it aims at, at its speed, braking within reach of its target so that it stops on
   * it (marks it active); an agent already on its target arrives.
   */
  private prefer(i: number): void {
    const a = this.agents;
    const avoidance = this.avoidance!;
    const dt = this.point[2];
    for (let guard = 0; guard < 8; guard++) {
      const kind = this.aim(i);
      if (kind === AIM_NONE || kind === AIM_STAND) return;
      const dx = this.goal[0] - a.x[i];
      const dy = this.goal[1] - a.y[i];
      const d = Math.sqrt(dx * dx + dy * dy);
      if (kind === AIM_WAYPOINT && this.reachedWaypoint(i)) {
        a.waypointIndex[i]++;
        continue;
      }
      if (kind === AIM_LINK && this.reachedWaypoint(i)) {
        this.takeLink(i);
        return;
      }
      if (kind === AIM_TARGET && d <= ON_TARGET) {
        a.arrive(i, this.now);
        return;
      }
      let speed = a.walkSpeed[i] * a.desiredSpeed[i];
      if (kind === AIM_TARGET) {
        // Constant deceleration to a stop on the target, and the last step lands on it.
        const brake = Math.sqrt((2 * speed * d) / BRAKE_TIME);
        if (brake < speed) speed = brake;
        if (d / dt < speed) speed = d / dt;
      }
      avoidance.prefX[i] = (dx / d) * speed;
      avoidance.prefY[i] = (dy / d) * speed;
      avoidance.active[i] = 1;
      avoidance.lastLeg[i] = kind === AIM_TARGET ? 1 : 0;
      return;
    }
  }

  /**
   * With avoidance: moves agent i by the velocity the avoidance chose (sliding along walls), then
   * passes a waypoint it reached, or arrives: on the target, or within its arrival threshold when
   * others keep it from the exact spot.
   */
  private walkAvoiding(i: number): void {
    this.layer = this.agents.layer[i];
    const a = this.agents;
    const avoidance = this.avoidance!;
    const dt = this.point[2];
    const x0 = a.x[i];
    const y0 = a.y[i];
    this.point[0] = x0 + avoidance.vx[i] * dt;
    this.point[1] = y0 + avoidance.vy[i] * dt;
    this.tryMove(i);
    const kind = this.aim(i);
    if (kind !== AIM_NONE && kind !== AIM_STAND) {
      const dx = this.goal[0] - a.x[i];
      const dy = this.goal[1] - a.y[i];
      const d = Math.sqrt(dx * dx + dy * dy);
      if (kind === AIM_WAYPOINT) {
        if (this.reachedWaypoint(i)) a.waypointIndex[i]++;
      } else if (kind === AIM_LINK) {
        if (this.reachedWaypoint(i)) {
          // The move there and the link's far end are this step's; its heading stays.
          this.takeLink(i);
          return;
        }
      } else if (kind === AIM_TARGET) {
        // Pushed, or turned from its way by others at all: the exact spot may be out of reach.
        const crowded = a.contact[i] === 1 || avoidance.turned[i] === 1;
        if (d <= ON_TARGET) {
          // Rounding aside, the last step ended on the target: stand exactly there.
          this.point[0] = this.goal[0];
          this.point[1] = this.goal[1];
          if (this.pointWalkable(i)) {
            a.x[i] = this.goal[0];
            a.y[i] = this.goal[1];
          }
          a.arrive(i, this.now);
        } else if (crowded && d <= Math.max(this.options.walkThreshold, a.arrivalThreshold[i])) {
          a.arrive(i, this.now);
        }
      }
    }
    this.point[0] = a.x[i] - x0;
    this.point[1] = a.y[i] - y0;
    this.turn(i);
  }

  /** Walks agent i one step of `point[2]` seconds. */
  private walk(i: number): void {
    this.layer = this.agents.layer[i];
    const dt = this.point[2];
    const o = this.options;
    const a = this.agents;
    let remaining = a.walkSpeed[i] * a.desiredSpeed[i] * dt;
    const x0 = a.x[i];
    const y0 = a.y[i];
    // Several short waypoints can fall within one step's reach; 8 bounds the work per step.
    for (let guard = 0; guard < 8 && remaining > 0; guard++) {
      const kind = this.aim(i);
      if (kind === AIM_NONE) return;
      if (kind === AIM_STAND) break;
      const wx = this.goal[0];
      const wy = this.goal[1];
      const link = kind === AIM_LINK;
      const last = link || kind === AIM_TARGET;
      const dx = wx - a.x[i];
      const dy = wy - a.y[i];
      const d = Math.sqrt(dx * dx + dy * dy);
      // In a crowd several units aim at one waypoint and jostle around it without ever standing on
      // it; a unit in contact takes an intermediate waypoint as reached within its own diameter.
      // A flow-field unit aims at the next cell's centre, recomputed each time it enters a cell,
      // so it has no waypoint to count as reached early (that would stall it short of the cell).
      const flow = kind === AIM_CELL;
      // A link's near end is taken like a waypoint on the way (a crowd may hold its centre).
      const reach = flow ? 0 : last && !link ? Math.max(o.walkThreshold, a.arrivalThreshold[i]) : a.contact[i] === 1 ? Math.max(o.walkThreshold, 2 * a.radius[i]) : o.walkThreshold;
      if (d <= remaining || d <= reach) {
        if (d <= remaining) {
          this.point[0] = wx;
          this.point[1] = wy;
          if (!this.tryMove(i)) break;
        }
        remaining -= Math.min(d, remaining);
        if (link) {
          // The move there and the link's far end are this step's; its heading stays.
          this.takeLink(i);
          return;
        }
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
    this.turn(i);
  }

  /**
   * Agent i stands at its path's end, a link's near end (AgentStore.linkX): it appears at the
   * link's far end at once (the link's cost is the path's, not a wait) and plans on from there at
   * the next step. A link switched off or removed since the plan, or a far end blocked, leaves it
   * where it stands, to plan again.
   */
  private takeLink(i: number): void {
    const a = this.agents;
    const grid = this.grid;
    const fx = a.linkX[i];
    const fy = a.linkY[i];
    const from = a.layer[i];
    const to = a.linkLayer[i];
    const path = a.paths[i]!;
    const nx = path[path.length - 2];
    const ny = path[path.length - 1];
    const near = nx >= 0 && ny >= 0 && nx < grid.width && ny < grid.height ? ny * grid.width + nx : -1;
    a.linkX[i] = NaN;
    a.linkY[i] = NaN;
    a.paths[i] = null;
    a.flags[i] &= ~AGENT_HAS_PATH;
    if (near < 0 || !isLinkStep(grid, from, near, fy * grid.width + fx, to) || grid.layers[to].walkable[fy * grid.width + fx] !== 1) return;
    // Seen as standing still by what compares positions across the step (movers, interpolation).
    a.x[i] = a.prevX[i] = fx;
    a.y[i] = a.prevY[i] = fy;
    // Stairs and ladders: on the far end's layer from now on.
    a.layer[i] = to;
    this.layer = to;
  }

  /*
   * cellAt, nearSlot and pointWalkable take ids or nothing, answer an integer or a boolean and call nothing that takes a
   * fractional number: the step stays unboxed whether or not the compiler inlines them (a number
   * passed to or returned from a call it does not inline is boxed on the heap, and the walking
   * step is at the edge of its inlining budget, so which calls get inlined varies run to run).
   */

  /** Index of the cell agent i stands in, or -1 off the grid (as cellIndexAt). */
  private cellAt(i: number): number {
    const grid = this.grid;
    const cx = Math.floor(this.agents.x[i] + 0.5);
    const cy = Math.floor(this.agents.y[i] + 0.5);
    // `| 0` (the index is a small integer already) types the answer as an integer, which a call
    // returns unboxed; Math.floor's result is a float the compiler would box.
    return cx >= 0 && cy >= 0 && cx < grid.width && cy < grid.height ? (cy * grid.width + cx) | 0 : -1;
  }

  /**
   * Whether flow-field walker i in cell c is within `flowSlotHandoff` of its own slot: its way
   * down the field to the field's goal is no longer than that plus the goal's distance from its slot.
   */
  private nearSlot(i: number, field: UnitField, c: number): boolean {
    const a = this.agents;
    const grid = this.grid;
    // hypot(), written out (see above).
    const ax = Math.abs(a.targetX[i] - grid.xOf(field.goal));
    const ay = Math.abs(a.targetY[i] - grid.yOf(field.goal));
    const max = Math.max(ax, ay);
    const nx = ax / max;
    const ny = ay / max;
    const r = Math.sqrt(nx * nx + ny * ny) * max;
    const slotD = ax === Infinity || ay === Infinity ? Infinity : max === 0 ? 0 : r;
    return field.cost(c) <= this.options.flowSlotHandoff + slotD;
  }

  /** Whether agent i stands within its arrival threshold of its target. */
  private withinArrival(i: number): boolean {
    const a = this.agents;
    const dx = a.targetX[i] - a.x[i];
    const dy = a.targetY[i] - a.y[i];
    const r = a.arrivalThreshold[i];
    return dx * dx + dy * dy <= r * r;
  }

  /**
   * Whether agent i may move from where it stands to `point`: the cell holding it is on the grid
   * and walkable (as walkableAt), and, on a layer with walls on cell edges, the move crosses none
   * (as canMoveTo).
   */
  private pointWalkable(i: number): boolean {
    const grid = this.grid;
    const cx = Math.floor(this.point[0] + 0.5);
    const cy = Math.floor(this.point[1] + 0.5);
    if (!(cx >= 0 && cy >= 0 && cx < grid.width && cy < grid.height && grid.layers[this.layer].walkable[cy * grid.width + cx] === 1)) return false;
    return grid.searchView(this.layer).walls === null || canMoveTo(grid, this.layer, this.agents.x[i], this.agents.y[i], this.point[0], this.point[1]);
  }

  /** Moves agent i to `point` if its cell is walkable, else slides along one axis; false if it cannot move. */
  private tryMove(i: number): boolean {
    const a = this.agents;
    const p = this.point;
    const nx = p[0];
    const ny = p[1];
    if (this.pointWalkable(i)) {
      a.x[i] = nx;
      a.y[i] = ny;
      return true;
    }
    p[1] = a.y[i];
    if (this.pointWalkable(i)) {
      a.x[i] = nx;
      return true;
    }
    p[0] = a.x[i];
    p[1] = ny;
    if (this.pointWalkable(i)) {
      a.y[i] = ny;
      return true;
    }
    // Pushed somewhere the path no longer leads from: plan again from here (a unit waiting for
    // its first plan gets it from where it stands anyway).
    if ((a.flags[i] & (AGENT_PATHFINDING | AGENT_FLOW | AGENT_HAS_PATH)) === (AGENT_PATHFINDING | AGENT_HAS_PATH) && this.now - a.lastReplan[i] >= this.options.replanCooldown) {
      a.flags[i] |= AGENT_DIRTY;
      a.lastReplan[i] = this.now;
    }
    return false;
  }

  /** Turns agent i toward the way it moved, `point` = (dx, dy), by at most its rotation speed x the step (`point[2]` seconds). */
  private turn(i: number): void {
    const dt = this.point[2];
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
