import { hypot } from './hypot.js';
import type { CellRect, GridChange, NavGrid } from '../grid/navgrid.js';
import { addChangedRect } from '../grid/rects.js';
import { segmentCost } from '../path/los.js';
import { movementModel } from '../search/movement.js';
import { ShortcutCheck } from '../world/shortcuts.js';
import { Pathfinder } from '../search/pathfinder.js';
import type { MovementModel, MovementName } from '../search/movement.js';
import { flowFieldCache, type FlowField, type FlowFieldCache, type UnitField } from './flowfield.js';
import { Chase, type ChaseTarget } from './chase.js';
import type { PathService } from '../service/service.js';
import { TilenavError, describe } from '../errors.js';
import type { NavigationOptions } from './options.js';
import { GridPlanner, cellIndexAt, segmentDistance, type AgentObstacle, type AgentPlanner } from './planner.js';
import type { SpatialHash } from './spatial.js';
import { AGENT_NUDGED, AGENT_ACTIVE, AGENT_BLOCKED, AGENT_DIRTY, AGENT_FLOW, AGENT_HAS_PATH, AGENT_INTENT, AGENT_PATHFINDING, AGENT_UNREACHABLE, type AgentStore } from './store.js';
import type { NavigationStats } from './system.js';

/**
 * Decides when agents plan and plans them: a first plan for a new order, a replan when a mover
 * comes near a walker's next segment, when a grid change crosses its remaining path, or when it
 * has made no progress for `stuckTime` (after `stuckRetries` of those it gives up, flagged
 * AGENT_BLOCKED). Holds the group orders' flow fields (the grid's cache keeps them and repairs them
 * after grid changes) and moves the chases' goals.
 */
export class Replanner {
  /** Each group order's flow field or chase, by group id; null (or a hole) when the group plans per unit. */
  readonly fields: (UnitField | null)[] = [];
  /** Group orders whose field has not reached all their units yet (see growFields). */
  private readonly growing: number[] = [];
  /** Units per group following its field, counted each step to let go of fields no unit follows. */
  private followers = new Int32Array(0);
  private readonly cache: FlowFieldCache;
  private readonly model: MovementModel;
  private readonly agents: AgentStore;
  private readonly hash: SpatialHash;
  private readonly grid: NavGrid;
  private readonly layer: number;
  private readonly movement: MovementName;
  private readonly options: Readonly<NavigationOptions>;
  private readonly stats: NavigationStats;
  private readonly planner: AgentPlanner;
  private readonly finder: Pathfinder;
  /** The standing agents handed to the planner, and the objects reused for them. */
  private readonly obstacles: AgentObstacle[] = [];
  private readonly obstaclePool: AgentObstacle[] = [];
  /** Rectangles grid changes opened since the last shortcut check (shortcutFactor > 0 only). */
  private opened: CellRect[] = [];
  private shortcuts: ShortcutCheck | null = null;
  /** Which of every STUCK_EVERY walkers checkStuck looks at this step. */
  private stuckPhase = 0;
  /** The agent planning starts from at the next step (see planWhereNeeded). */
  private turn = 0;
  /** What {@link remaining} measured (cells). */
  private readonly wayLeft = new Float64Array(1);
  /** Builds the group orders' and chases' fields in its workers (null: here, a budget a step). */
  private readonly service: PathService | null;

  constructor(agents: AgentStore, hash: SpatialHash, grid: NavGrid, layer: number, movement: MovementName, options: Readonly<NavigationOptions>, stats: NavigationStats, planner: AgentPlanner, service: PathService | null = null) {
    this.service = service;
    this.agents = agents;
    this.hash = hash;
    this.grid = grid;
    this.layer = layer;
    this.movement = movement;
    this.options = options;
    this.stats = stats;
    this.planner = planner;
    // One Pathfinder for the flow fields and the default planner's plans: its scratch and jump
    // point planes are built once for the map, not once per user.
    this.finder = planner instanceof GridPlanner && planner.grid === grid ? planner.pathfinder : new Pathfinder(grid);
    this.cache = flowFieldCache(grid);
    this.cache.useFinder(this.finder);
    this.model = grid.movementModel(movement);
  }

  /** Builds the search structures planning reads (see NavigationSystem.prepare). */
  prepare(): void {
    this.finder.prepare({ layer: this.layer, movement: this.movement });
    // A planner sharing the finder finds it built; its own call costs nothing then.
    this.planner.prepare?.(this.layer, this.movement);
  }

  /**
   * The flow field to `goal` (a cell index), from the grid's cache (shared with every order to that
   * cell), computed as far as every unit at (xs[k], ys[k]) that can reach it, at most `budget`
   * cells of it now; with a service, none: a worker builds it (see {@link buildElsewhere}). The
   * time is counted in the stats, and so is the field when the cache had to make it.
   */
  buildField(goal: number, xs: Float64Array, ys: Float64Array, budget = Infinity): FlowField {
    const t0 = performance.now();
    const builds = this.cache.builds;
    const field = this.cache.get(goal, this.layer, this.model);
    const cells = new Int32Array(xs.length);
    for (let k = 0; k < xs.length; k++) cells[k] = cellIndexAt(this.grid, xs[k], ys[k]);
    if (this.service === null || !this.buildElsewhere(field, cells)) field.cover(cells, budget);
    this.stats.planMs += performance.now() - t0;
    this.stats.flowFields += this.cache.builds - builds;
    return field;
  }

  /**
   * Asks the service's workers for `field` as far as `cells` need (unless it reaches them already,
   * or a worker builds it now); it is installed in the grid's cache when it comes, and the group
   * orders and chases that hold it read it from then on. False when the service cannot take it
   * (closed): the field grows here then.
   */
  private buildElsewhere(field: FlowField, cells: Int32Array): boolean {
    if (field.workerBuilds > 0 || field.covers(cells, Infinity)) return true;
    try {
      this.service!.enqueueField(field.goalX, field.goalY, { layer: field.layer, movement: field.movement, cells }, () => undefined);
      return true;
    } catch (e) {
      if (e instanceof TilenavError) return false;
      throw e;
    }
  }

  /**
   * Sets group order `group`'s flow field or chase (null: its units plan one by one); the group
   * holds it. `growing`: some of its units' cells are not computed yet; the field grows by
   * `flowFieldBudget` cells a step until they are (see refreshFields).
   */
  setField(group: number, field: UnitField | null, growing = false): void {
    this.fields[group] = field;
    if (field !== null && !field.chasing) (field as FlowField).holders++;
    if (field !== null && growing) this.growing.push(group);
  }

  /**
   * Grows the flow fields of the group orders whose units are not all reached yet by
   * `flowFieldBudget` cells each; once a field is complete, its units whose cells it never reached
   * (they cannot reach the goal) stand, flagged AGENT_UNREACHABLE.
   */
  private growFields(): void {
    const t0 = performance.now();
    for (let k = this.growing.length - 1; k >= 0; k--) {
      const g = this.growing[k];
      const field = this.fields[g];
      if (field === null || field === undefined || field.chasing) {
        this.growing.splice(k, 1);
        continue;
      }
      const f = field as FlowField;
      // A worker builds it: the units walk straight meanwhile.
      if (f.workerBuilds > 0) continue;
      // Grown only while a unit waits (a field from a worker may reach them all already).
      const grown = this.waitingFor(g, f, -1) > 0 ? f.grow(this.options.flowFieldBudget) : 0;
      if (this.waitingFor(g, f, grown) === 0) this.growing.splice(k, 1);
    }
    this.stats.planMs += performance.now() - t0;
  }

  /**
   * The units of group `g` on field `f` whose cell it has not settled. With `grown` 0 (the field
   * is complete) those stand, flagged unreachable, and are not counted; -1 only counts.
   */
  private waitingFor(g: number, f: FlowField, grown: number): number {
    const a = this.agents;
    let waiting = 0;
    for (let i = 0; i < a.count; i++) {
      if (a.group[i] !== g || (a.flags[i] & AGENT_FLOW) === 0) continue;
      const c = cellIndexAt(this.grid, a.x[i], a.y[i]);
      if (c >= 0 && f.isSettled(c)) continue;
      if (grown !== -1 && (grown === 0 || c < 0)) a.markUnreachable(i);
      else waiting++;
    }
    return waiting;
  }

  /**
   * A chase of `target` by the units `ids`, its first field to the target's cell computed as far
   * as every unit (counted in the stats); null when the target is gone or stands on no walkable
   * cell. Its target position is read into `chase.x`, `chase.y`.
   */
  newChase(target: ChaseTarget, ids: ArrayLike<number>): Chase | null {
    const at = { x: 0, y: 0 };
    if (!this.readTarget(target, at)) return null;
    const goal = this.goalCell(at.x, at.y, -1);
    if (goal < 0) return null;
    const a = this.agents;
    const xs = new Float64Array(ids.length);
    const ys = new Float64Array(ids.length);
    for (let k = 0; k < ids.length; k++) {
      xs[k] = a.x[ids[k]];
      ys[k] = a.y[ids[k]];
    }
    const build = this.service === null ? null : (f: FlowField, cells: Int32Array) => void this.buildElsewhere(f, cells);
    const chase = new Chase(this.cache, this.layer, this.model, target, ids, this.buildField(goal, xs, ys), build);
    chase.x = at.x;
    chase.y = at.y;
    return chase;
  }

  /** The flow field agent i follows now, or null (see NavigationSystem.flowFieldOf). */
  fieldOf(i: number): FlowField | null {
    const a = this.agents;
    if ((a.flags[i] & AGENT_FLOW) === 0) return null;
    const field = this.fields[a.group[i]];
    if (field === null || field === undefined) return null;
    if (!field.chasing) return field as FlowField;
    const c = cellIndexAt(this.grid, a.x[i], a.y[i]);
    return c < 0 ? null : (field as Chase).fieldFor(c);
  }

  /** Makes `chase` group order `group`'s. */
  startChase(group: number, chase: Chase): void {
    this.fields[group] = chase;
  }

  /**
   * Plans the agents whose order waits for a first plan or a replan (not flow-field followers),
   * in turn from where the last step stopped, within `planBudget` search expansions: once they
   * are spent the others wait for the next steps (walking straight at their targets meanwhile).
   */
  planWhereNeeded(): void {
    const n = this.agents.count;
    const flags = this.agents.flags;
    this.planner.beginStep?.();
    const budget = this.options.planBudget;
    let spent = 0;
    const first = this.turn < n ? this.turn : 0;
    for (let k = 0; k < n; k++) {
      const i = first + k < n ? first + k : first + k - n;
      const f = flags[i];
      if ((f & AGENT_INTENT) === 0 || (f & AGENT_PATHFINDING) === 0 || (f & AGENT_FLOW) !== 0 || ((f & AGENT_DIRTY) === 0 && (f & AGENT_HAS_PATH) !== 0) || this.planner.pending?.(i) === true) continue;
      // A quarter of the budget left: the next search would most likely be cut short, its work lost.
      if (spent > 0 && 4 * (budget - spent) < budget) {
        this.turn = i;
        break;
      }
      this.plan(i, budget - spent);
      const work = this.planner.lastWork ?? 0;
      spent += work;
      // A plan cut short (it worked and has no answer yet) ends the step's planning too: it comes
      // first at the next step, with the whole budget.
      const cut = work > 0 && this.planner.lastPending === true;
      if (spent >= budget || cut) {
        // Out of budget: the next step goes on from here (from this agent again when its plan was cut short).
        this.turn = this.planner.lastPending === true ? i : i + 1;
        break;
      }
    }
    this.stats.planWork += spent;
    if (spent > this.stats.maxStepPlanWork) this.stats.maxStepPlanWork = spent;
  }

  /**
   * Marks dirty the walkers a mover (an agent that moved more than `movedEps` this step, not of
   * the walker's own group order) came within `replanTriggerDist` of, measured to the segment
   * from the walker to its next waypoint; at most once per `replanCooldown` per walker.
   */
  triggerReplans(now: number): void {
    const o = this.options;
    const a = this.agents;
    const n = a.count;
    const eps2 = o.movedEps * o.movedEps;
    // A walker whose only movers are its own group's has nothing to look for (the usual case in
    // a big order), and skips the search around its segment. `soleGroup` is the group order every
    // mover belongs to, -1 when they belong to several or some to none: a number, not a count
    // per group, so the step allocates nothing.
    let movers = 0;
    let soleGroup = -1;
    for (let i = 0; i < n; i++) {
      const dx = a.x[i] - a.prevX[i];
      const dy = a.y[i] - a.prevY[i];
      if (dx * dx + dy * dy <= eps2 || foreseen(a.flags[i])) continue;
      movers++;
      if (movers === 1) soleGroup = a.group[i];
      else if (a.group[i] !== soleGroup) soleGroup = -1;
    }
    if (movers === 0) return;
    this.hash.build(a);
    for (let w = 0; w < n; w++) {
      if ((a.flags[w] & (AGENT_HAS_PATH | AGENT_FLOW | AGENT_DIRTY)) !== AGENT_HAS_PATH) continue;
      if (now - a.lastReplan[w] < o.replanCooldown) continue;
      if (a.group[w] >= 0 && a.group[w] === soleGroup) continue;
      const path = a.paths[w]!;
      const k = a.waypointIndex[w];
      // The segment's first stretch ahead: what a mover there may block soon (and the area
      // searched stays small however long the segment across an open room).
      const x = a.x[w];
      const y = a.y[w];
      let ex = path[k * 2];
      let ey = path[k * 2 + 1];
      const len = hypot(ex - x, ey - y);
      const ahead = 2 * o.replanTriggerDist;
      if (len > ahead) {
        ex = x + ((ex - x) * ahead) / len;
        ey = y + ((ey - y) * ahead) / len;
      }
      if (this.moverNear(w, x, y, ex, ey, eps2)) {
        a.flags[w] |= AGENT_DIRTY;
        a.lastReplan[w] = now;
      }
    }
  }

  /**
   * Whether a mover outside walker w's group order stands within `replanTriggerDist` of the
   * segment (sx, sy)-(ex, ey); reads the hash as built this step.
   */
  private moverNear(w: number, sx: number, sy: number, ex: number, ey: number, eps2: number): boolean {
    const a = this.agents;
    const hash = this.hash;
    const { start, items } = hash;
    const T = this.options.replanTriggerDist;
    const group = a.group[w];
    hash.beginSegment(sx, sy, ex, ey, T);
    for (let s = hash.nextSlot(); s >= 0; s = hash.nextSlot()) {
      for (let q = start[s]; q < start[s + 1]; q++) {
        const m = items[q];
        // Units of one group order travel together; they do not make each other replan.
        if (m === w || (group >= 0 && a.group[m] === group)) continue;
        // Nor do walkers on a way of their own (a path or a flow field): they keep walking, the
        // plan would not walk round them (only standing units are in its way), and in a crowd
        // crossing itself every walker is near some other's segment all the time. Movers the
        // walker cannot foresee count: a unit pushed, stepping aside, or walking without a plan.
        if (foreseen(a.flags[m])) continue;
        const dx = a.x[m] - a.prevX[m];
        const dy = a.y[m] - a.prevY[m];
        if (dx * dx + dy * dy <= eps2) continue;
        if (segmentDistance(a.x[m], a.y[m], sx, sy, ex, ey) <= T) return true;
      }
    }
    return false;
  }

  /**
   * A walker whose way left to its target (see {@link remaining}) has not shrunk by `stuckDist`
   * within `stuckTime`:
   * within `crowdedArrivalDist` of its target it has arrived (a crowd holds the exact spot; the
   * spot where it stands becomes the one it returns to after a nudge). Farther, it tries again:
   * a flow-field walker keeps following the field (its way is crowded, not wrong) for
   * `stuckRetries` tries and then plans its own way; a walker on its own path replans. After
   * `stuckRetries` replans it gives up: its order ends (callbacks fire), flagged AGENT_BLOCKED.
   */
  checkStuck(now: number): void {
    const o = this.options;
    const a = this.agents;
    // Each walker is looked at every STUCK_EVERY steps (its progress summed along its path is
    // what costs): a step looks at one in STUCK_EVERY of them, in turn.
    const phase = this.stuckPhase;
    this.stuckPhase = phase + 1 === STUCK_EVERY ? 0 : phase + 1;
    for (let i = phase; i < a.count; i += STUCK_EVERY) {
      if ((a.flags[i] & AGENT_INTENT) === 0) continue;
      // A chasing crowd jams round its target: that is the chase going well, not being stuck.
      if ((a.flags[i] & AGENT_FLOW) !== 0 && this.fields[a.group[i]]?.chasing === true) continue;
      if (this.planner.pending?.(i) === true || (a.flags[i] & (AGENT_PATHFINDING | AGENT_FLOW | AGENT_HAS_PATH)) === AGENT_PATHFINDING) {
        // Waiting for a plan (from another thread, or for its turn in the step's budget) is not
        // being stuck, even for a unit walking straight into a wall meanwhile.
        a.anchorTime[i] = now;
        continue;
      }
      this.remaining(i);
      const left = this.wayLeft[0];
      if (left < a.bestRemaining[i] - o.stuckDist || a.bestRemaining[i] === Infinity) {
        a.bestRemaining[i] = left;
        a.anchorTime[i] = now;
        continue;
      }
      if (now - a.anchorTime[i] < o.stuckTime) continue;
      a.anchorTime[i] = now;
      if (hypot(a.x[i] - a.targetX[i], a.y[i] - a.targetY[i]) <= o.crowdedArrivalDist) {
        if (a.homeX[i] === a.targetX[i] && a.homeY[i] === a.targetY[i]) {
          a.homeX[i] = a.x[i];
          a.homeY[i] = a.y[i];
        }
        a.arrive(i, now);
      } else if ((a.flags[i] & AGENT_FLOW) !== 0) {
        // The field still leads the right way; after stuckRetries tries, plan around the crowd.
        if (++a.retries[i] >= o.stuckRetries) {
          a.retries[i] = 0;
          a.flags[i] = (a.flags[i] & ~AGENT_FLOW) | AGENT_DIRTY;
        }
      } else if (a.retries[i] < o.stuckRetries) {
        // Try again on its own path: the crowd may have moved, or a way round may be free now.
        a.retries[i]++;
        a.flags[i] |= AGENT_DIRTY;
      } else {
        a.arrive(i, now);
        a.flags[i] |= AGENT_BLOCKED;
      }
    }
  }

  /**
   * Agent i's way left to its target (cells), into `wayLeft[0]`: down its group's flow field,
   * along its waypoints from where it stands, or straight when it has neither. Written to a
   * scratch array, not returned: a fractional number returned from a call the compiler does not
   * inline is boxed on the heap, once per walker per step.
   */
  private remaining(i: number): void {
    const a = this.agents;
    const x = a.x[i];
    const y = a.y[i];
    const out = this.wayLeft;
    if ((a.flags[i] & AGENT_FLOW) !== 0) {
      const field = this.fields[a.group[i]]!;
      const c = cellIndexAt(this.grid, x, y);
      // A cell the field has not reached yet (it grows a step at a time): straight, below.
      const left = c < 0 || field.waits(c) ? Infinity : field.cost(c);
      if (left !== Infinity) {
        out[0] = left;
        return;
      }
    }
    const path = a.paths[i];
    if ((a.flags[i] & AGENT_HAS_PATH) === 0 || path === null) {
      out[0] = hypot(a.targetX[i] - x, a.targetY[i] - y);
      return;
    }
    let k = a.waypointIndex[i] * 2;
    let sum = hypot(path[k] - x, path[k + 1] - y);
    for (k += 2; k + 1 < path.length; k += 2) sum += hypot(path[k] - path[k - 2], path[k + 1] - path[k - 1]);
    out[0] = sum;
  }

  /**
   * A grid change marks dirty exactly the agents whose remaining path (from where they stand,
   * through their waypoints) crosses one of the changed rectangles (`c.rects`, corners included:
   * a diagonal step beside a new wall would cut its corner); they replan once, at the next step.
   * Three huts built in three corners replan the agents near them, not every agent in between.
   * Flow fields repair themselves at their next read (see FlowField).
   */
  gridChanged(c: GridChange): void {
    // Agents walk the system's layer unless links between layers took them elsewhere.
    if (c.layer !== this.layer && this.grid.linksVersion === 0) return;
    const a = this.agents;
    const rects = c.rects ?? [c];
    for (let i = 0; i < a.count; i++) {
      if ((a.flags[i] & (AGENT_ACTIVE | AGENT_HAS_PATH | AGENT_DIRTY)) !== (AGENT_ACTIVE | AGENT_HAS_PATH)) continue;
      if (a.layer[i] !== c.layer) {
        // A path up to a link was chosen for what lies beyond it, on other layers too: plan again.
        if (a.linkX[i] === a.linkX[i]) a.flags[i] |= AGENT_DIRTY;
        continue;
      }
      const path = a.paths[i]!;
      let px = a.x[i];
      let py = a.y[i];
      for (let k = a.waypointIndex[i] * 2; k < path.length && (a.flags[i] & AGENT_DIRTY) === 0; k += 2) {
        for (const r of rects) {
          if (segmentHitsRect(px, py, path[k], path[k + 1], r.x - 0.5, r.y - 0.5, r.x + r.width - 0.5, r.y + r.height - 0.5)) {
            a.flags[i] |= AGENT_DIRTY;
            break;
          }
        }
        px = path[k];
        py = path[k + 1];
      }
    }
    if (this.options.shortcutFactor > 0 && c.opened !== false) for (const r of rects) addChangedRect(this.opened, r);
  }

  /**
   * With `shortcutFactor` set, marks dirty the walkers on their own path (flow fields repair
   * themselves after every change) whose remaining way, from where they stand along their waypoints,
   * costs more than `shortcutFactor` times the best route now that the changes since the last
   * step opened their rectangles (see ShortcutCheck: a bound per walker, a bounded search only
   * for candidates). Runs once per step, before planning, so a burst of changes costs one check.
   */
  checkShortcuts(): void {
    if (this.opened.length === 0) return;
    const o = this.options;
    this.shortcuts ??= new ShortcutCheck(this.grid, o.shortcutFactor, this.layer, this.movement, o.shortcutSearchLimit, this.finder);
    const check = this.shortcuts;
    check.setRects(this.opened);
    this.opened = [];
    if (!check.active) return;
    const a = this.agents;
    const view = this.grid.searchView(this.layer);
    const corner = movementModel(this.movement).corner;
    const t0 = performance.now();
    for (let i = 0; i < a.count; i++) {
      if ((a.flags[i] & (AGENT_ACTIVE | AGENT_HAS_PATH | AGENT_DIRTY | AGENT_FLOW)) !== (AGENT_ACTIVE | AGENT_HAS_PATH)) continue;
      // The check measures ways on the system's layer: not for a walker elsewhere or bound for a link.
      if (a.layer[i] !== this.layer || a.linkX[i] === a.linkX[i]) continue;
      const path = a.paths[i]!;
      const from = cellIndexAt(this.grid, a.x[i], a.y[i]);
      if (from < 0 || path.length < 2) continue;
      let cost = 0;
      let px = a.x[i];
      let py = a.y[i];
      for (let k = a.waypointIndex[i] * 2; k + 1 < path.length; k += 2) {
        const c = segmentCost(view, px, py, path[k], path[k + 1], corner);
        // A blocked leg is the change crossing the path: gridChanged has marked it already.
        cost = c < 0 ? Infinity : cost + c;
        px = path[k];
        py = path[k + 1];
      }
      const tx = Math.round(path[path.length - 2]);
      const ty = Math.round(path[path.length - 1]);
      if (!this.grid.inBounds(tx, ty)) continue;
      if (check.flags(this.grid.xOf(from), this.grid.yOf(from), tx, ty, cost)) a.flags[i] |= AGENT_DIRTY;
    }
    this.stats.planMs += performance.now() - t0;
  }

  /**
   * Once per step, before the units walk: moves each chase's goal to its target's cell and grows
   * its fields by `flowFieldBudget` cells, ends the chases whose target is gone (their units
   * arrive: they stand, and their callbacks fire), and lets go of the fields no unit follows any
   * more. Grid changes are repaired here too, by the fields' first reads.
   */
  refreshFields(now: number): void {
    const fields = this.fields;
    if (fields.length === 0) return;
    if (this.growing.length > 0) this.growFields();
    const a = this.agents;
    if (this.followers.length < fields.length) this.followers = new Int32Array(fields.length * 2);
    const followers = this.followers;
    followers.fill(0, 0, fields.length);
    for (let i = 0; i < a.count; i++) if ((a.flags[i] & AGENT_FLOW) !== 0 && a.group[i] >= 0) followers[a.group[i]]++;
    for (let g = 0; g < fields.length; g++) {
      const field = fields[g];
      if (field === null || field === undefined) continue;
      if (followers[g] === 0) {
        this.dropField(g);
        continue;
      }
      if (field.chasing) this.moveChase(g, field as Chase, now);
    }
  }

  /** Lets go of every group's field and chase (the system is disposed). */
  dropFields(): void {
    for (let g = 0; g < this.fields.length; g++) this.dropField(g);
  }

  /** Lets go of group g's field or chase. */
  private dropField(g: number): void {
    const field = this.fields[g];
    if (field === null || field === undefined) return;
    if (field.chasing) (field as Chase).end();
    else (field as FlowField).holders--;
    this.fields[g] = null;
  }

  /** Reads where chase g's target is now, aims its units there, and grows its fields. */
  private moveChase(g: number, chase: Chase, now: number): void {
    const a = this.agents;
    const t0 = performance.now();
    if (!this.readTarget(chase.target, chase)) {
      // The target is gone: the chase is over for every unit still in it.
      for (const id of chase.members) if (a.group[id] === g && (a.flags[id] & AGENT_ACTIVE) !== 0 && (a.flags[id] & AGENT_INTENT) !== 0) a.arrive(id, now);
      this.dropField(g);
      return;
    }
    const tx = chase.x;
    const ty = chase.y;
    const goal = this.goalCell(tx, ty, chase.goal);
    const members = chase.members;
    for (let k = 0; k < members.length; k++) {
      const id = members[k];
      if (a.group[id] !== g || (a.flags[id] & AGENT_FLOW) === 0) {
        chase.cells[k] = -1;
        continue;
      }
      a.targetX[id] = tx;
      a.targetY[id] = ty;
      chase.cells[k] = cellIndexAt(this.grid, a.x[id], a.y[id]);
    }
    const builds = this.cache.builds;
    chase.step(goal, this.options.flowFieldBudget);
    this.stats.flowFields += this.cache.builds - builds;
    this.stats.planMs += performance.now() - t0;
  }

  /**
   * The cell a chase aims at for a target at (x, y): the target's own cell when walkable, else the
   * walkable cell of the eight around it whose centre is nearest the target (a player brushing a
   * wall), else `fallback`.
   */
  private goalCell(x: number, y: number, fallback: number): number {
    const grid = this.grid;
    const walk = grid.layers[this.layer].walkable;
    const c = cellIndexAt(grid, x, y);
    if (c >= 0 && walk[c] === 1) return c;
    const cx = Math.floor(x + 0.5);
    const cy = Math.floor(y + 0.5);
    let best = fallback;
    let bestD = Infinity;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const nx = cx + dx;
        const ny = cy + dy;
        if (!grid.inBounds(nx, ny) || walk[ny * grid.width + nx] === 0) continue;
        const d = (nx - x) * (nx - x) + (ny - y) * (ny - y);
        if (d < bestD) {
          bestD = d;
          best = ny * grid.width + nx;
        }
      }
    }
    return best;
  }

  /**
   * Reads where a chase's target is now (cell coordinates) into `out`: false when it is gone. A
   * TilenavError naming `target` for a bad answer of a target function.
   */
  private readTarget(t: ChaseTarget, out: { x: number; y: number }): boolean {
    if (typeof t === 'number') {
      const a = this.agents;
      if (!a.has(t)) return false;
      out.x = a.x[t];
      out.y = a.y[t];
      return true;
    }
    const at = t();
    if (at === null || at === undefined) return false;
    if (typeof at !== 'object' || typeof at.x !== 'number' || typeof at.y !== 'number' || !Number.isFinite(at.x) || !Number.isFinite(at.y)) {
      throw new TilenavError(`the chase's target function returned ${describe(at)}; expected { x, y } (finite cell coordinates) or null to end the chase`, { element: 'target' });
    }
    out.x = at.x;
    out.y = at.y;
    return true;
  }

  /**
   * Plans agent i from where it stands to its target, around the standing agents near the way
   * (within `obstacleInfluenceDist` of the straight segment, blocking `obstacleRadiusFraction` of
   * their radius; none for a unit stepping aside, AGENT_NUDGED, though one walking back to its
   * post has them). No plan: the
   * agent stands, flagged AGENT_UNREACHABLE; a partial one (the
   * planner's `lastPartial`) walks as close as it can, flagged likewise.
   */
  private plan(i: number, maxWork: number): void {
    const o = this.options;
    const a = this.agents;
    const replan = (a.flags[i] & AGENT_HAS_PATH) !== 0 || a.paths[i] !== null || a.replanCount[i] > 0 || (a.flags[i] & AGENT_DIRTY) !== 0;
    const fx = a.x[i];
    const fy = a.y[i];
    const tx = a.targetX[i];
    const ty = a.targetY[i];
    const obstacles = this.obstacles;
    const pool = this.obstaclePool;
    obstacles.length = 0;
    // A step aside (a cell or so, to a spot chosen clear of standing units) plans past walls only.
    // The way back to a post is planned around standing units like any order: shoving a comrade
    // off its post sends it back through this one's, and the two would trade places for ever.
    const aside = (a.flags[i] & AGENT_NUDGED) !== 0 && (tx !== a.homeX[i] || ty !== a.homeY[i]);
    for (let j = 0; j < a.count && !aside; j++) {
      if (j === i || (a.flags[j] & (AGENT_ACTIVE | AGENT_INTENT)) !== AGENT_ACTIVE || a.layer[j] !== a.layer[i]) continue;
      if (segmentDistance(a.x[j], a.y[j], fx, fy, tx, ty) > o.obstacleInfluenceDist) continue;
      // Objects are reused from plan to plan: the planner may read them only during its call.
      const ob = pool[obstacles.length] ?? (pool[obstacles.length] = { x: 0, y: 0, radius: 0 });
      ob.x = a.x[j];
      ob.y = a.y[j];
      ob.radius = a.radius[j] * o.obstacleRadiusFraction;
      obstacles.push(ob);
    }
    const t0 = performance.now();
    const wp = this.planner.plan({ agent: i, fromX: fx, fromY: fy, toX: tx, toY: ty, obstacles, layer: a.layer[i], goalLayer: a.goalLayer[i], movement: this.movement, maxWork });
    this.stats.planMs += performance.now() - t0;
    // Asked, not answered yet: the agent stays as it is (see AgentPlanner.lastPending).
    if (this.planner.lastPending === true) return;
    this.stats.plans++;
    if (replan) {
      this.stats.replans++;
      a.replanCount[i]++;
    }
    if (wp === null || wp.length < 2) {
      a.markUnreachable(i);
      return;
    }
    a.paths[i] = wp;
    a.waypointIndex[i] = 0;
    const link = this.planner.lastLink ?? null;
    a.linkX[i] = link === null ? NaN : link.x;
    a.linkY[i] = link === null ? NaN : link.y;
    a.linkLayer[i] = link === null ? a.layer[i] : (link.layer ?? a.layer[i]);
    const partial = this.planner.lastPartial === true ? AGENT_UNREACHABLE : 0;
    a.flags[i] = ((a.flags[i] | AGENT_HAS_PATH) & ~(AGENT_DIRTY | AGENT_UNREACHABLE)) | partial;
    // Progress is measured along the new path from here on; the stuck clock keeps running, so
    // replanning over and over in a crowd does not hide that the walker gets nowhere.
    this.remaining(i);
    a.bestRemaining[i] = this.wayLeft[0];
  }
}

/** checkStuck looks at each walker once every this many steps. */
const STUCK_EVERY = 8;

/**
 * Whether an agent with flags `f` walks a way of its own (a path, or a flow field, toward an
 * order's target; not a step aside): as a mover it makes no walker replan (see triggerReplans).
 */
function foreseen(f: number): boolean {
  return (f & AGENT_INTENT) !== 0 && (f & AGENT_PATHFINDING) !== 0 && (f & AGENT_NUDGED) === 0;
}

/** The part [t0, t1] of a segment still inside the rectangle while segmentHitsRect clips it. */
const clipRange = new Float64Array(2);

/** Whether the segment touches the closed rectangle [x0, x1] x [y0, y1] (Liang-Barsky clipping). */
function segmentHitsRect(ax: number, ay: number, bx: number, by: number, x0: number, y0: number, x1: number, y1: number): boolean {
  const dx = bx - ax;
  const dy = by - ay;
  clipRange[0] = 0;
  clipRange[1] = 1;
  return clipEdge(-dx, ax - x0) && clipEdge(dx, x1 - ax) && clipEdge(-dy, ay - y0) && clipEdge(dy, y1 - ay);
}

/** Narrows clipRange by one rectangle edge (p: the segment's speed toward it, q: the room before it); false when nothing is left. */
function clipEdge(p: number, q: number): boolean {
  if (p === 0) return !(q < 0);
  const t = q / p;
  if (p < 0) {
    if (t > clipRange[1]) return false;
    if (t > clipRange[0]) clipRange[0] = t;
  } else {
    if (t < clipRange[0]) return false;
    if (t < clipRange[1]) clipRange[1] = t;
  }
  return true;
}
