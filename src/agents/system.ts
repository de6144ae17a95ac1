import { TilenavError, describe } from '../errors.js';
import type { GridChange, NavGrid } from '../grid/navgrid.js';
import { Pathfinder } from '../search/pathfinder.js';
import type { MovementName } from '../search/movement.js';
import type { WorldPoint } from '../grid/projection.js';
import { DEFAULT_NAVIGATION_OPTIONS, type NavigationOptions } from './options.js';
import { GridPlanner, cellOf, type AgentObstacle, type AgentPlanner } from './planner.js';
import { FlowField } from './flowfield.js';
import { planFormation, type Formation } from './formation.js';

/** Agent flag bits (the `flags` array). */
export const AGENT_ACTIVE = 1;
/** Seed 000's MoveIntent.hasIntent: the agent is walking (or waiting for its plan). */
export const AGENT_INTENT = 2;
/** MoveIntent.usePathfinding: plan around walls; without it the agent walks straight at the target. */
export const AGENT_PATHFINDING = 4;
/** NavigationAgent.hasPath. */
export const AGENT_HAS_PATH = 8;
/** NavigationAgent.dirty: plan again at the next step (goal or grid changed, or a replan trigger). */
export const AGENT_DIRTY = 16;
/** The player: never nudged aside, stops in place when pushed while standing. */
export const AGENT_PLAYER = 32;
/** Following its group's flow field. */
export const AGENT_FLOW = 64;
/** The last order could not be reached; cleared by the next order. */
export const AGENT_UNREACHABLE = 128;
/** Gave up the last order, hemmed in by other agents for `stuckTime` (see NavigationOptions). */
export const AGENT_BLOCKED = 512;
/** Walking a short step aside to let another pass (seed 001's nudge). */
export const AGENT_NUDGED = 256;

/** A new agent. Positions are cell coordinates: cell (x, y)'s centre is (x, y). */
export interface AgentSpec {
  x: number;
  y: number;
  /** Collision radius (cells). @default options.collisionRadius */
  radius?: number;
  /** Cells per second. @default options.walkSpeed */
  walkSpeed?: number;
  /** Radians per second. @default options.rotationSpeed */
  rotationSpeed?: number;
  /** Initial heading (radians, atan2(y, x) convention). @default 0 */
  heading?: number;
  /** The player (seed 001): never nudged aside. @default false */
  player?: boolean;
}

/** Seed 000's MoveIntent, less the target (given separately). */
export interface MoveIntent {
  /** Fraction of the agent's walkSpeed. @default 1 */
  desiredSpeed?: number;
  /** Plan around walls; false walks straight at the target. @default true */
  usePathfinding?: boolean;
  /** Within this of the target counts as arrived (cells). @default options.arrivalThreshold */
  arrivalThreshold?: number;
  /** Called once, after the step in which the agent arrives (or gives up, AGENT_BLOCKED). */
  onArrived?: (id: number) => void;
}

/** A group order's outcome. */
export interface GroupOrder {
  /** 'formation': one plan per unit to its slot; 'flow': one flow field shared by all. */
  mode: 'formation' | 'flow';
  /** The slots given (null when nothing walkable lies near the click: every unit is unreachable). */
  formation: Formation | null;
  /** Units known at once to be unable to reach the goal. */
  unreachable: number;
}

/** Counters since the system was created (or since `resetStats`). */
export interface NavigationStats {
  steps: number;
  /** Planner calls, first plans and replans alike. */
  plans: number;
  /** Plans caused by movers, grid changes or failed moves (not first plans). */
  replans: number;
  /** Flow fields built. */
  flowFields: number;
  /** Milliseconds spent planning (planner calls and flow fields). */
  planMs: number;
  /** Deepest overlap between two agents' discs seen after collision resolution (cells); measured when `measureOverlap`. */
  maxOverlap: number;
}

/** Options of a {@link NavigationSystem}: seed 001's constants plus its collaborators. */
export interface NavigationSystemOptions extends Partial<NavigationOptions> {
  /** Plans paths (snapping, seed 001's cascade, smoothing). @default new GridPlanner(grid) */
  planner?: AgentPlanner;
  /** Layer agents walk on. @default 0 */
  layer?: number | string;
  /** @default 'octile' */
  movement?: MovementName;
  /** Called for every arrival, after the agent's own callback. */
  onArrived?: (id: number) => void;
  /** Track stats.maxOverlap (one extra pass over the spatial hash per step). @default false */
  measureOverlap?: boolean;
}

const TWO_PI = Math.PI * 2;

/**
 * Seed 000's NavigationSystem over seed 001's characters: agents as struct-of-arrays (read `x`,
 * `y`, `heading`, `radius`, `flags` directly; re-read them after `addAgent`, which may grow them),
 * planned, moved along waypoints, pushed apart and replanned on a fixed time step.
 *
 * Each step: plan the agents that need it; move every walker toward its waypoint (or its group's
 * flow field) and turn it toward the way it goes; push overlapping agents apart
 * (`collisionIterations` passes over a spatial hash, only into walkable cells, nudging standing
 * units out of a walker's way); replan walkers that a mover came near; fire arrival callbacks.
 *
 * Deterministic: agents are visited in id order, nothing depends on time or randomness, so the
 * same calls give the same positions bit for bit.
 */
export class NavigationSystem {
  readonly grid: NavGrid;
  readonly options: Readonly<NavigationOptions>;
  readonly planner: AgentPlanner;
  readonly layer: number;
  readonly movement: MovementName;
  readonly stats: NavigationStats = { steps: 0, plans: 0, replans: 0, flowFields: 0, planMs: 0, maxOverlap: 0 };
  measureOverlap: boolean;

  /** Number of agent slots in use (ids are 0..count-1; removed ones are inactive). */
  count = 0;
  /** Positions now, in cell coordinates. */
  x = new Float64Array(0);
  y = new Float64Array(0);
  /** Positions at the start of the last step; render at prev + (pos - prev) * alpha. */
  prevX = new Float64Array(0);
  prevY = new Float64Array(0);
  /** Facing (radians). */
  heading = new Float64Array(0);
  radius = new Float64Array(0);
  walkSpeed = new Float64Array(0);
  rotationSpeed = new Float64Array(0);
  /** MoveIntent: the target, speed fraction and arrival threshold. */
  targetX = new Float64Array(0);
  targetY = new Float64Array(0);
  desiredSpeed = new Float64Array(0);
  arrivalThreshold = new Float64Array(0);
  /** AGENT_* bits. */
  flags = new Uint16Array(0);
  /** NavigationAgent.currentWaypointIndex: the waypoint pair walked toward. */
  waypointIndex = new Int32Array(0);
  /** Group order id, -1 when none. */
  group = new Int32Array(0);
  /** Plans after the first for the current order. */
  replanCount = new Uint32Array(0);
  /** Simulated time of the last mover-triggered replan (seconds). */
  private lastReplan = new Float64Array(0);
  /** 1 when the agent was pushed by another in the last step (crowded: waypoints count as reached sooner). */
  private contact = new Uint8Array(0);
  /** Where and when the agent last made real progress (stuck detection). */
  private anchorX = new Float64Array(0);
  private anchorY = new Float64Array(0);
  private anchorTime = new Float64Array(0);
  /** Stuck retries used on the current order. */
  private retries = new Uint8Array(0);
  /** Where the last order (not a nudge) leads: a nudged unit walks back there; NaN for none. */
  private homeX = new Float64Array(0);
  private homeY = new Float64Array(0);
  /** When a nudged unit that has stepped aside walks home (seconds); 0 for never. */
  private returnAt = new Float64Array(0);
  /** NavigationAgent.currentPath: [x0, y0, ...] waypoints, null without one. */
  private paths: (Float64Array | null)[] = [];
  private callbacks: (((id: number) => void) | undefined)[] = [];
  private free: number[] = [];
  private fields: (FlowField | null)[] = [];
  private fieldStale: boolean[] = [];
  private nextGroup = 0;
  private readonly finder: Pathfinder;
  private readonly onArrivedAll: ((id: number) => void) | undefined;
  private readonly unsubscribe: () => void;
  private accumulator = 0;
  private time = 0;
  private arrivedQueue: number[] = [];
  private obstacles: AgentObstacle[] = [];
  private readonly scratch = { x: 0, y: 0 };
  private readonly moversByGroup = new Map<number, number>();
  // Spatial hash: agents bucketed by squares of `bucket` cells, hashed into a table sized by agent count.
  private bucket = 1;
  private mask = 63;
  private bucketStart = new Int32Array(0);
  private slotSeen = new Uint32Array(0);
  private seenGen = 0;
  private bucketItems = new Int32Array(0);
  private bucketOf = new Int32Array(0);

  constructor(grid: NavGrid, options: NavigationSystemOptions = {}) {
    this.grid = grid;
    const merged: NavigationOptions = { ...DEFAULT_NAVIGATION_OPTIONS };
    for (const key of Object.keys(DEFAULT_NAVIGATION_OPTIONS) as (keyof NavigationOptions)[]) {
      const v = options[key];
      if (v === undefined) continue;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new TilenavError(`expected a finite number >= 0, got ${describe(v)}`, { element: key });
      merged[key] = v;
    }
    if (!(merged.fixedStep > 0)) throw new TilenavError('expected a step > 0 seconds', { element: 'fixedStep' });
    this.options = Object.freeze(merged);
    this.layer = grid.layerIndex(options.layer ?? 0);
    this.movement = options.movement ?? 'octile';
    this.finder = new Pathfinder(grid);
    this.planner = options.planner ?? new GridPlanner(grid);
    this.onArrivedAll = options.onArrived;
    this.measureOverlap = options.measureOverlap ?? false;
    this.unsubscribe = grid.onChange((c) => this.gridChanged(c));
    this.grow(16);
  }

  /** Stops listening to the grid. */
  dispose(): void {
    this.unsubscribe();
  }

  /** Simulated seconds so far (steps x fixedStep). */
  get now(): number {
    return this.time;
  }

  /** How far between the last step and the next the accumulator stands, 0..1, for interpolation. */
  get alpha(): number {
    return this.accumulator / this.options.fixedStep;
  }

  // ---- agents ------------------------------------------------------------------------------

  /** Adds a standing agent and returns its id (a removed agent's id may be reused). */
  addAgent(spec: AgentSpec): number {
    if (spec === null || typeof spec !== 'object') throw new TilenavError('expected an agent spec object', { element: 'agent' });
    for (const k of ['x', 'y'] as const) {
      if (typeof spec[k] !== 'number' || !Number.isFinite(spec[k])) throw new TilenavError(`expected a finite number, got ${describe(spec[k])}`, { element: `agent.${k}` });
    }
    const o = this.options;
    const radius = positive(spec.radius, o.collisionRadius, 'agent.radius');
    const id = this.free.length > 0 ? this.free.pop()! : this.count++;
    if (id >= this.x.length) this.grow(this.x.length * 2);
    this.x[id] = this.prevX[id] = spec.x;
    this.y[id] = this.prevY[id] = spec.y;
    this.heading[id] = spec.heading ?? 0;
    this.radius[id] = radius;
    this.walkSpeed[id] = positive(spec.walkSpeed, o.walkSpeed, 'agent.walkSpeed');
    this.rotationSpeed[id] = positive(spec.rotationSpeed, o.rotationSpeed, 'agent.rotationSpeed');
    this.targetX[id] = spec.x;
    this.targetY[id] = spec.y;
    this.desiredSpeed[id] = 1;
    this.arrivalThreshold[id] = o.arrivalThreshold;
    this.flags[id] = AGENT_ACTIVE | (spec.player ? AGENT_PLAYER : 0);
    this.waypointIndex[id] = 0;
    this.group[id] = -1;
    this.replanCount[id] = 0;
    this.lastReplan[id] = -Infinity;
    // Never ordered: nudged aside, it stays at the new spot (seed 001).
    this.homeX[id] = NaN;
    this.homeY[id] = NaN;
    this.returnAt[id] = 0;
    this.retries[id] = 0;
    this.paths[id] = null;
    this.callbacks[id] = undefined;
    this.updateBucketSize(radius);
    return id;
  }

  /** Removes an agent; its id may be handed out again by addAgent. */
  removeAgent(id: number): void {
    this.check(id);
    this.flags[id] = 0;
    this.paths[id] = null;
    this.callbacks[id] = undefined;
    this.free.push(id);
    // Lowest ids first, so reuse does not depend on removal order.
    this.free.sort((a, b) => b - a);
  }

  /** Whether `id` names a live agent. */
  has(id: number): boolean {
    return Number.isInteger(id) && id >= 0 && id < this.count && (this.flags[id] & AGENT_ACTIVE) !== 0;
  }

  /** True while the agent walks (or waits for its plan): seed 001's isMoving. */
  isMoving(id: number): boolean {
    return (this.flags[id] & AGENT_INTENT) !== 0;
  }

  /** The agent's waypoints [x0, y0, ...] (cell coordinates), or null without a path. Do not modify. */
  path(id: number): Float64Array | null {
    this.check(id);
    return this.paths[id];
  }

  /**
   * Seed 001's setTarget / seed 000's MoveIntent: walk to (x, y) (cell coordinates). Planned at
   * the next step; an order to the same target as the current path keeps the path (path caching).
   */
  moveTo(id: number, x: number, y: number, intent: MoveIntent = {}): void {
    this.check(id);
    if (typeof x !== 'number' || typeof y !== 'number' || !Number.isFinite(x) || !Number.isFinite(y)) throw new TilenavError(`expected a finite target, got ${describe(x)}, ${describe(y)}`, { element: 'target' });
    this.order(id, x, y, intent, -1);
  }

  /**
   * Orders a group to (x, y): formation slots around the point (see planFormation), then one
   * plan per unit, or one flow field for all when the group has at least `flowFieldMinGroup`
   * units (`mode` forces either).
   */
  moveGroup(ids: ArrayLike<number>, x: number, y: number, intent: MoveIntent & { mode?: 'auto' | 'formation' | 'flow' } = {}): GroupOrder {
    for (let k = 0; k < ids.length; k++) this.check(ids[k]);
    if (!Number.isFinite(x) || !Number.isFinite(y)) throw new TilenavError(`expected a finite target, got ${describe(x)}, ${describe(y)}`, { element: 'target' });
    const n = ids.length;
    const mode = intent.mode === 'formation' || intent.mode === 'flow' ? intent.mode : n >= this.options.flowFieldMinGroup ? 'flow' : 'formation';
    const xs = new Float64Array(n);
    const ys = new Float64Array(n);
    let maxR = 0;
    for (let k = 0; k < n; k++) {
      xs[k] = this.x[ids[k]];
      ys[k] = this.y[ids[k]];
      maxR = Math.max(maxR, this.radius[ids[k]]);
    }
    const g = this.nextGroup++;
    const formation = planFormation(this.grid, this.layer, xs, ys, x, y, Math.max(2 * maxR * this.options.formationSpacing, 1e-3));
    let unreachable = 0;
    if (formation === null) {
      for (let k = 0; k < n; k++) this.markUnreachable(ids[k]);
      return { mode, formation, unreachable: n };
    }
    let field: FlowField | null = null;
    if (mode === 'flow') {
      const t0 = performance.now();
      const cells = new Int32Array(n);
      for (let k = 0; k < n; k++) cells[k] = this.cellIndex(xs[k], ys[k]);
      field = FlowField.covering(this.grid, this.finder, formation.center, cells, this.layer, this.movement);
      this.stats.planMs += performance.now() - t0;
      this.stats.flowFields++;
    }
    this.fields[g] = field;
    this.fieldStale[g] = false;
    for (let k = 0; k < n; k++) {
      const id = ids[k];
      this.order(id, formation.slots[k * 2], formation.slots[k * 2 + 1], intent, g);
      if (field !== null) {
        const c = this.cellIndex(this.x[id], this.y[id]);
        if (c < 0 || field.dist[c] === Infinity) {
          this.markUnreachable(id);
          unreachable++;
        } else {
          this.flags[id] |= AGENT_FLOW;
        }
      }
    }
    return { mode, formation, unreachable };
  }

  /** Seed 001's stopInPlace: forget the target and path and stand where the agent is. */
  stopInPlace(id: number): void {
    this.check(id);
    this.flags[id] &= AGENT_ACTIVE | AGENT_PLAYER;
    this.targetX[id] = this.x[id];
    this.targetY[id] = this.y[id];
    this.homeX[id] = NaN;
    this.homeY[id] = NaN;
    this.returnAt[id] = 0;
    this.paths[id] = null;
    this.group[id] = -1;
  }

  // ---- selection (for a UI) ----------------------------------------------------------------

  /** Ids of agents whose centres lie in the rectangle (cell coordinates, any corner order), ascending. */
  agentsInRect(x0: number, y0: number, x1: number, y1: number, out: number[] = []): number[] {
    out.length = 0;
    const ax = Math.min(x0, x1);
    const bx = Math.max(x0, x1);
    const ay = Math.min(y0, y1);
    const by = Math.max(y0, y1);
    for (let i = 0; i < this.count; i++) {
      if ((this.flags[i] & AGENT_ACTIVE) !== 0 && this.x[i] >= ax && this.x[i] <= bx && this.y[i] >= ay && this.y[i] <= by) out.push(i);
    }
    return out;
  }

  /** The agent whose disc contains (x, y) and whose centre is nearest it, or -1. */
  agentAt(x: number, y: number): number {
    let best = -1;
    let bestD = Infinity;
    for (let i = 0; i < this.count; i++) {
      if ((this.flags[i] & AGENT_ACTIVE) === 0) continue;
      const d = Math.hypot(this.x[i] - x, this.y[i] - y);
      if (d <= this.radius[i] && d < bestD) {
        best = i;
        bestD = d;
      }
    }
    return best;
  }

  /** The interpolated position for rendering, at `alpha` between the last two steps. */
  interpolated(id: number, out: { x: number; y: number } = { x: 0, y: 0 }): { x: number; y: number } {
    const a = this.alpha;
    out.x = this.prevX[id] + (this.x[id] - this.prevX[id]) * a;
    out.y = this.prevY[id] + (this.y[id] - this.prevY[id]) * a;
    return out;
  }

  /**
   * The agent's rendering position in world coordinates (the grid's projection), interpolated
   * by `alpha`: what a renderer draws each frame between fixed steps.
   */
  toWorld(id: number, out: WorldPoint = { x: 0, y: 0, z: 0 }): WorldPoint {
    const p = this.interpolated(id, this.scratch);
    return this.grid.projection.cellToWorld(p.x, p.y, out);
  }

  // ---- stepping ----------------------------------------------------------------------------

  /**
   * Advances by `dt` seconds of real time: runs as many whole fixed steps as the accumulator
   * holds (at most maxStepsPerUpdate; the rest is dropped so a stall does not snowball) and keeps
   * the remainder for `alpha`. Returns the number of steps run.
   */
  update(dt: number): number {
    if (typeof dt !== 'number' || !(dt >= 0) || !Number.isFinite(dt)) throw new TilenavError(`expected a finite dt >= 0 seconds, got ${describe(dt)}`, { element: 'dt' });
    const h = this.options.fixedStep;
    this.accumulator += dt;
    let steps = 0;
    while (this.accumulator >= h) {
      if (steps === this.options.maxStepsPerUpdate) {
        this.accumulator = 0;
        break;
      }
      this.step();
      this.accumulator -= h;
      steps++;
    }
    return steps;
  }

  /** Runs exactly one fixed step. */
  step(): void {
    const n = this.count;
    const flags = this.flags;
    this.prevX.set(this.x.subarray(0, n));
    this.prevY.set(this.y.subarray(0, n));
    this.refreshFields();
    for (let i = 0; i < n; i++) {
      const f = flags[i];
      if ((f & AGENT_INTENT) !== 0 && (f & AGENT_PATHFINDING) !== 0 && (f & AGENT_FLOW) === 0 && ((f & AGENT_DIRTY) !== 0 || (f & AGENT_HAS_PATH) === 0)) this.plan(i);
    }
    const dt = this.options.fixedStep;
    for (let i = 0; i < n; i++) if ((flags[i] & AGENT_INTENT) !== 0) this.moveAgent(i, dt);
    this.contact.fill(0);
    this.resolveCollisions();
    this.checkStuck();
    this.triggerReplans();
    this.time += dt;
    this.stats.steps++;
    const arrived = this.arrivedQueue;
    if (arrived.length > 0) {
      this.arrivedQueue = [];
      for (const id of arrived) {
        const cb = this.callbacks[id];
        this.callbacks[id] = undefined;
        cb?.(id);
        this.onArrivedAll?.(id);
      }
    }
  }

  // ---- internals ---------------------------------------------------------------------------

  private order(id: number, x: number, y: number, intent: MoveIntent, group: number, nudge = false): void {
    const f = this.flags[id];
    this.retries[id] = 0;
    this.returnAt[id] = 0;
    if (!nudge) {
      this.homeX[id] = x;
      this.homeY[id] = y;
    }
    const usePathfinding = intent.usePathfinding ?? true;
    const same = (f & AGENT_HAS_PATH) !== 0 && this.targetX[id] === x && this.targetY[id] === y && (f & AGENT_PATHFINDING) !== 0 === usePathfinding;
    this.targetX[id] = x;
    this.targetY[id] = y;
    this.desiredSpeed[id] = positive(intent.desiredSpeed, 1, 'desiredSpeed');
    this.arrivalThreshold[id] = positive(intent.arrivalThreshold, this.options.arrivalThreshold, 'arrivalThreshold');
    this.callbacks[id] = intent.onArrived;
    this.group[id] = group;
    // Seed 000's path caching: the same goal keeps the path; anything else plans afresh.
    this.flags[id] = (f & (AGENT_ACTIVE | AGENT_PLAYER | (same ? AGENT_HAS_PATH : 0))) | AGENT_INTENT | (usePathfinding ? AGENT_PATHFINDING : 0);
    if (!same) {
      this.paths[id] = null;
      this.replanCount[id] = 0;
    }
    this.anchorX[id] = this.x[id];
    this.anchorY[id] = this.y[id];
    this.anchorTime[id] = this.time;
  }

  private checkStuck(): void {
    const o = this.options;
    for (let i = 0; i < this.count; i++) {
      if ((this.flags[i] & AGENT_INTENT) === 0) continue;
      if (Math.hypot(this.x[i] - this.anchorX[i], this.y[i] - this.anchorY[i]) > o.stuckDist) {
        this.anchorX[i] = this.x[i];
        this.anchorY[i] = this.y[i];
        this.anchorTime[i] = this.time;
      } else if (this.time - this.anchorTime[i] >= o.stuckTime) {
        if (this.retries[i] < o.stuckRetries) {
          // Try again on its own path: the crowd may have moved, or a way round may be free now.
          this.retries[i]++;
          this.anchorTime[i] = this.time;
          this.flags[i] = (this.flags[i] & ~AGENT_FLOW) | AGENT_DIRTY;
        } else {
          this.arrive(i);
          this.flags[i] |= AGENT_BLOCKED;
        }
      }
    }
    // Units that stepped aside walk back to where their order left them (returnAfterNudge).
    for (let i = 0; i < this.count; i++) {
      if (this.returnAt[i] === 0 || this.time < this.returnAt[i] || (this.flags[i] & (AGENT_ACTIVE | AGENT_INTENT)) !== AGENT_ACTIVE) continue;
      this.returnAt[i] = 0;
      if (Math.hypot(this.x[i] - this.homeX[i], this.y[i] - this.homeY[i]) > this.arrivalThreshold[i]) {
        this.order(i, this.homeX[i], this.homeY[i], {}, this.group[i], true);
        this.flags[i] |= AGENT_NUDGED;
      }
    }
  }

  private markUnreachable(id: number): void {
    this.flags[id] = (this.flags[id] & (AGENT_ACTIVE | AGENT_PLAYER)) | AGENT_UNREACHABLE;
    this.paths[id] = null;
  }

  private plan(i: number): void {
    const o = this.options;
    const replan = (this.flags[i] & AGENT_HAS_PATH) !== 0 || this.paths[i] !== null || this.replanCount[i] > 0 || (this.flags[i] & AGENT_DIRTY) !== 0;
    const fx = this.x[i];
    const fy = this.y[i];
    const tx = this.targetX[i];
    const ty = this.targetY[i];
    // Seed 001 §6: standing agents near the start-goal segment block the plan (at a fraction of their radius).
    const obstacles = this.obstacles;
    obstacles.length = 0;
    for (let j = 0; j < this.count; j++) {
      if (j === i || (this.flags[j] & (AGENT_ACTIVE | AGENT_INTENT)) !== AGENT_ACTIVE) continue;
      if (segmentDistance(this.x[j], this.y[j], fx, fy, tx, ty) > o.obstacleInfluenceDist) continue;
      obstacles.push({ x: this.x[j], y: this.y[j], radius: this.radius[j] * o.obstacleRadiusFraction });
    }
    const t0 = performance.now();
    const wp = this.planner.plan({ agent: i, fromX: fx, fromY: fy, toX: tx, toY: ty, obstacles, layer: this.layer, movement: this.movement });
    this.stats.planMs += performance.now() - t0;
    this.stats.plans++;
    if (replan) {
      this.stats.replans++;
      this.replanCount[i]++;
    }
    if (wp === null || wp.length < 2) {
      this.markUnreachable(i);
      return;
    }
    this.paths[i] = wp;
    this.waypointIndex[i] = 0;
    // A partial plan walks as close as it can (seed 001 §5) and still says the goal is out of reach.
    const partial = this.planner.lastPartial === true ? AGENT_UNREACHABLE : 0;
    this.flags[i] = ((this.flags[i] | AGENT_HAS_PATH) & ~(AGENT_DIRTY | AGENT_UNREACHABLE)) | partial;
  }

  private moveAgent(i: number, dt: number): void {
    const o = this.options;
    const f = this.flags[i];
    let remaining = this.walkSpeed[i] * this.desiredSpeed[i] * dt;
    const x0 = this.x[i];
    const y0 = this.y[i];
    for (let guard = 0; guard < 8 && remaining > 0; guard++) {
      let wx: number;
      let wy: number;
      let last: boolean;
      if ((this.flags[i] & AGENT_FLOW) !== 0) {
        const field = this.fields[this.group[i]]!;
        const c = this.cellIndex(this.x[i], this.y[i]);
        const next = c < 0 ? -1 : field.next(c);
        const slotD = Math.hypot(this.targetX[i] - this.grid.xOf(field.goal), this.targetY[i] - this.grid.yOf(field.goal));
        if (next < 0 || field.dist[c] <= o.flowSlotHandoff + slotD) {
          // Close enough: leave the field and plan the last stretch to this unit's own slot.
          this.flags[i] &= ~AGENT_FLOW;
          return;
        }
        wx = this.grid.xOf(next);
        wy = this.grid.yOf(next);
        last = false;
      } else if ((f & AGENT_PATHFINDING) === 0) {
        wx = this.targetX[i];
        wy = this.targetY[i];
        last = true;
      } else {
        const path = this.paths[i];
        if (path === null) return;
        const k = this.waypointIndex[i];
        wx = path[k * 2];
        wy = path[k * 2 + 1];
        last = k * 2 + 2 >= path.length;
      }
      const dx = wx - this.x[i];
      const dy = wy - this.y[i];
      const d = Math.sqrt(dx * dx + dy * dy);
      // In a crowd several units aim at one waypoint and jostle around it without ever standing on
      // it; a unit in contact takes an intermediate waypoint as reached within its own diameter.
      // A flow-field unit aims at the next cell's centre, recomputed each time it enters a cell,
      // so it has no waypoint to count as reached early (that would stall it short of the cell).
      const flow = (this.flags[i] & AGENT_FLOW) !== 0;
      const reach = flow ? 0 : last ? Math.max(o.walkThreshold, this.arrivalThreshold[i]) : this.contact[i] === 1 ? Math.max(o.walkThreshold, 2 * this.radius[i]) : o.walkThreshold;
      if (d <= remaining || d <= reach) {
        if (d <= remaining && !this.tryMove(i, wx, wy)) break;
        remaining -= Math.min(d, remaining);
        if (last) {
          this.arrive(i);
          break;
        }
        if (!flow) this.waypointIndex[i]++;
      } else {
        if (!this.tryMove(i, this.x[i] + (dx / d) * remaining, this.y[i] + (dy / d) * remaining)) break;
        remaining = 0;
      }
    }
    this.turn(i, this.x[i] - x0, this.y[i] - y0, dt);
  }

  /** Moves to (nx, ny) if its cell is walkable, else slides along one axis; false if stuck. */
  private tryMove(i: number, nx: number, ny: number): boolean {
    if (this.walkableAt(nx, ny)) {
      this.x[i] = nx;
      this.y[i] = ny;
      return true;
    }
    if (this.walkableAt(nx, this.y[i])) {
      this.x[i] = nx;
      return true;
    }
    if (this.walkableAt(this.x[i], ny)) {
      this.y[i] = ny;
      return true;
    }
    // Pushed somewhere the path no longer leads from: plan again from here.
    if ((this.flags[i] & (AGENT_PATHFINDING | AGENT_FLOW)) === AGENT_PATHFINDING && this.time - this.lastReplan[i] >= this.options.replanCooldown) {
      this.flags[i] |= AGENT_DIRTY;
      this.lastReplan[i] = this.time;
    }
    return false;
  }

  private turn(i: number, dx: number, dy: number, dt: number): void {
    if (dx * dx + dy * dy < 1e-18) return;
    const want = Math.atan2(dy, dx);
    let diff = want - this.heading[i];
    diff -= TWO_PI * Math.round(diff / TWO_PI);
    const max = this.rotationSpeed[i] * dt;
    let h = this.heading[i] + (diff > max ? max : diff < -max ? -max : diff);
    if (h > Math.PI) h -= TWO_PI;
    else if (h <= -Math.PI) h += TWO_PI;
    this.heading[i] = h;
  }

  private arrive(i: number): void {
    const back = this.options.returnAfterNudge;
    if ((this.flags[i] & AGENT_NUDGED) !== 0 && back > 0 && Number.isFinite(this.homeX[i])) this.returnAt[i] = this.time + back;
    this.flags[i] &= AGENT_ACTIVE | AGENT_PLAYER;
    this.paths[i] = null;
    this.arrivedQueue.push(i);
  }

  private walkableAt(x: number, y: number): boolean {
    const cx = Math.floor(x + 0.5);
    const cy = Math.floor(y + 0.5);
    return cx >= 0 && cy >= 0 && cx < this.grid.width && cy < this.grid.height && this.grid.layers[this.layer].walkable[cy * this.grid.width + cx] === 1;
  }

  private cellIndex(x: number, y: number): number {
    const cx = cellOf(x);
    const cy = cellOf(y);
    return cx >= 0 && cy >= 0 && cx < this.grid.width && cy < this.grid.height ? cy * this.grid.width + cx : -1;
  }

  // ---- collision (seed 001 §8) ---------------------------------------------------------------

  private updateBucketSize(radius: number): void {
    this.bucket = Math.max(this.bucket, Math.ceil(2 * radius), 1);
  }

  /**
   * Counting sort of the active agents into hashed buckets of `bucket` x `bucket` cells; the
   * table is sized by agent count, not map size, so a big sparse map costs nothing. Items keep id
   * order within a slot.
   */
  private buildHash(): void {
    const n = this.count;
    let size = 64;
    while (size < 2 * n) size *= 2;
    if (this.bucketStart.length !== size + 1) {
      this.bucketStart = new Int32Array(size + 1);
      this.slotSeen = new Uint32Array(size);
    }
    this.mask = size - 1;
    const start = this.bucketStart;
    start.fill(0);
    for (let i = 0; i < n; i++) {
      if ((this.flags[i] & AGENT_ACTIVE) === 0) {
        this.bucketOf[i] = -1;
        continue;
      }
      const b = this.slot(Math.floor((this.x[i] + 0.5) / this.bucket), Math.floor((this.y[i] + 0.5) / this.bucket));
      this.bucketOf[i] = b;
      start[b + 1]++;
    }
    for (let b = 0; b < size; b++) start[b + 1] += start[b];
    const fill = this.bucketItems;
    // The prefix sums serve as cursors, then shift back by one slot.
    for (let i = 0; i < n; i++) {
      const b = this.bucketOf[i];
      if (b >= 0) fill[start[b]++] = i;
    }
    for (let b = size; b > 0; b--) start[b] = start[b - 1];
    start[0] = 0;
  }

  private slot(bx: number, by: number): number {
    return (Math.imul(bx, 73856093) ^ Math.imul(by, 19349663)) & this.mask;
  }

  /**
   * Calls `visit(slot)` once for each distinct hash slot of the buckets bx0..bx1 x by0..by1
   * (several buckets may share a slot; visiting it twice would push a pair twice).
   */
  private visitSlots(bx0: number, bx1: number, by0: number, by1: number, visit: (slot: number) => boolean): void {
    if (++this.seenGen === 0xffffffff) {
      this.slotSeen.fill(0);
      this.seenGen = 1;
    }
    const gen = this.seenGen;
    for (let by = by0; by <= by1; by++) {
      for (let bx = bx0; bx <= bx1; bx++) {
        const s = this.slot(bx, by);
        if (this.slotSeen[s] === gen) continue;
        this.slotSeen[s] = gen;
        if (visit(s)) return;
      }
    }
  }

  private resolveCollisions(): void {
    const iterations = this.options.collisionIterations;
    for (let it = 0; it < iterations; it++) {
      this.buildHash();
      this.forEachPair(true);
    }
    if (this.measureOverlap) {
      this.buildHash();
      this.forEachPair(false);
    }
  }

  /** Visits every overlapping pair once (i < j, in id order): pushes them apart, or only measures. */
  private forEachPair(push: boolean): void {
    const n = this.count;
    const start = this.bucketStart;
    const items = this.bucketItems;
    const x = this.x;
    const y = this.y;
    const r = this.radius;
    const B = this.bucket;
    let i = 0;
    const visit = (s: number): boolean => {
      for (let k = start[s]; k < start[s + 1]; k++) {
        const j = items[k];
        if (j <= i) continue;
        const dx = x[j] - x[i];
        const dy = y[j] - y[i];
        const rs = r[i] + r[j];
        const d2 = dx * dx + dy * dy;
        if (d2 >= rs * rs) continue;
        const d = Math.sqrt(d2);
        if (!push) {
          if (rs - d > this.stats.maxOverlap) this.stats.maxOverlap = rs - d;
          continue;
        }
        this.pushApart(i, j, dx, dy, d, rs - d);
      }
      return false;
    };
    for (; i < n; i++) {
      if (this.bucketOf[i] < 0) continue;
      const bx = Math.floor((x[i] + 0.5) / B);
      const by = Math.floor((y[i] + 0.5) / B);
      this.visitSlots(bx - 1, bx + 1, by - 1, by + 1, visit);
    }
  }

  private pushApart(i: number, j: number, dx: number, dy: number, d: number, pen: number): void {
    let nx: number;
    let ny: number;
    if (d > 1e-9) {
      nx = dx / d;
      ny = dy / d;
    } else {
      // Exactly on top of each other: a direction from the ids alone keeps this deterministic.
      const a = ((i * 7 + j * 13) % 16) * (Math.PI / 8);
      nx = Math.cos(a);
      ny = Math.sin(a);
    }
    const movingA = (this.flags[i] & AGENT_INTENT) !== 0;
    const movingB = (this.flags[j] & AGENT_INTENT) !== 0;
    if (movingA && movingB) {
      // Head-on walkers would push each other straight back forever: both keep to their right.
      const vx = this.x[i] - this.prevX[i] - (this.x[j] - this.prevX[j]);
      const vy = this.y[i] - this.prevY[i] - (this.y[j] - this.prevY[j]);
      const v = Math.hypot(vx, vy);
      if (v > 1e-9 && nx * vx + ny * vy > 0.9 * v) {
        // Right of A's relative motion, in y-down coordinates, is (-vy, vx); A moves away from it.
        nx += (vy / v) * 0.75;
        ny -= (vx / v) * 0.75;
        const m = Math.hypot(nx, ny);
        nx /= m;
        ny /= m;
      }
    }
    const h = pen / 2;
    const ax = this.x[i] - nx * h;
    const ay = this.y[i] - ny * h;
    const bx = this.x[j] + nx * h;
    const by = this.y[j] + ny * h;
    const okA = this.walkableAt(ax, ay);
    const okB = this.walkableAt(bx, by);
    if (okA && okB) {
      this.x[i] = ax;
      this.y[i] = ay;
      this.x[j] = bx;
      this.y[j] = by;
    } else if (okA) {
      // B is against a wall: A takes the whole push if it can.
      const fx = this.x[i] - nx * pen;
      const fy = this.y[i] - ny * pen;
      const full = this.walkableAt(fx, fy);
      this.x[i] = full ? fx : ax;
      this.y[i] = full ? fy : ay;
    } else if (okB) {
      const fx = this.x[j] + nx * pen;
      const fy = this.y[j] + ny * pen;
      const full = this.walkableAt(fx, fy);
      this.x[j] = full ? fx : bx;
      this.y[j] = full ? fy : by;
    } else {
      return;
    }
    this.contact[i] = 1;
    this.contact[j] = 1;
    this.afterPush(i, movingA, j, movingB, okA);
    this.afterPush(j, movingB, i, movingA, okB);
  }

  /** Seed 001: a standing player pushed stops in place; a standing unit a walker pushed steps aside. */
  private afterPush(s: number, sMoving: boolean, other: number, otherMoving: boolean, moved: boolean): void {
    if (sMoving || !moved) return;
    if ((this.flags[s] & AGENT_PLAYER) !== 0) {
      this.stopInPlace(s);
      return;
    }
    // Only a walker on a real order nudges: one stepping aside or walking back (AGENT_NUDGED) just
    // pushes, or groups settling into formation would nudge each other back and forth for ever.
    if (otherMoving && (this.flags[other] & AGENT_NUDGED) === 0) this.nudgeAside(s, other);
    else if (this.options.returnAfterNudge > 0 && Number.isFinite(this.homeX[s]) && this.returnAt[s] === 0) this.returnAt[s] = this.time + this.options.returnAfterNudge;
  }

  /** seed 001's nudgeCharacterAside: the first walkable of four targets at nudgeDist, straight away first. */
  private nudgeAside(s: number, from: number): void {
    let dx = this.x[s] - this.x[from];
    let dy = this.y[s] - this.y[from];
    const d = Math.hypot(dx, dy);
    if (d < 1e-9) {
      dx = 1;
      dy = 0;
    } else {
      dx /= d;
      dy /= d;
    }
    const dist = this.options.nudgeDist;
    const cand = [dx, dy, -dy, dx, dy, -dx, -dx, -dy];
    for (let k = 0; k < 8; k += 2) {
      const tx = this.x[s] + cand[k] * dist;
      const ty = this.y[s] + cand[k + 1] * dist;
      if (!this.walkableAt(tx, ty)) continue;
      // It stays in its group: stepping aside for a comrade must not make the group replan.
      this.order(s, tx, ty, {}, this.group[s], true);
      this.flags[s] |= AGENT_NUDGED;
      return;
    }
  }

  // ---- replanning (seed 001 §9, seed 000's invalidation) ---------------------------------------

  private triggerReplans(): void {
    const o = this.options;
    const n = this.count;
    const eps2 = o.movedEps * o.movedEps;
    // Movers per group: a walker whose only movers are its own group's has nothing to look for
    // (the usual case in a big order), and skips the search around its segment.
    const byGroup = this.moversByGroup;
    byGroup.clear();
    let movers = 0;
    for (let i = 0; i < n; i++) {
      const dx = this.x[i] - this.prevX[i];
      const dy = this.y[i] - this.prevY[i];
      if (dx * dx + dy * dy <= eps2) continue;
      movers++;
      if (this.group[i] >= 0) byGroup.set(this.group[i], (byGroup.get(this.group[i]) ?? 0) + 1);
    }
    if (movers === 0) return;
    this.buildHash();
    const B = this.bucket;
    const T = o.replanTriggerDist;
    for (let w = 0; w < n; w++) {
      if ((this.flags[w] & (AGENT_HAS_PATH | AGENT_FLOW | AGENT_DIRTY)) !== AGENT_HAS_PATH) continue;
      if (this.time - this.lastReplan[w] < o.replanCooldown) continue;
      if (this.group[w] >= 0 && movers === byGroup.get(this.group[w])) continue;
      const path = this.paths[w]!;
      const k = this.waypointIndex[w];
      const sx = this.x[w];
      const sy = this.y[w];
      const ex = path[k * 2];
      const ey = path[k * 2 + 1];
      let hit = false;
      const group = this.group[w];
      this.visitSlots(
        Math.floor((Math.min(sx, ex) - T + 0.5) / B),
        Math.floor((Math.max(sx, ex) + T + 0.5) / B),
        Math.floor((Math.min(sy, ey) - T + 0.5) / B),
        Math.floor((Math.max(sy, ey) + T + 0.5) / B),
        (slot) => {
          for (let q = this.bucketStart[slot]; q < this.bucketStart[slot + 1]; q++) {
            const m = this.bucketItems[q];
            // Units of one group order travel together; they do not make each other replan.
            if (m === w || (group >= 0 && this.group[m] === group)) continue;
            const dx = this.x[m] - this.prevX[m];
            const dy = this.y[m] - this.prevY[m];
            if (dx * dx + dy * dy <= eps2) continue;
            if (segmentDistance(this.x[m], this.y[m], sx, sy, ex, ey) <= T) return (hit = true);
          }
          return false;
        },
      );
      if (hit) {
        this.flags[w] |= AGENT_DIRTY;
        this.lastReplan[w] = this.time;
      }
    }
  }

  /**
   * A grid change marks dirty exactly the agents whose remaining path (from where they stand,
   * through their waypoints) crosses the changed rectangle, corners included (a diagonal step
   * beside a new wall would cut its corner); they replan once, at the next step. Flow fields on
   * the layer are rebuilt once, at the next step.
   */
  private gridChanged(c: GridChange): void {
    if (c.layer !== this.layer) return;
    const x0 = c.x - 0.5;
    const y0 = c.y - 0.5;
    const x1 = c.x + c.width - 0.5;
    const y1 = c.y + c.height - 0.5;
    for (let i = 0; i < this.count; i++) {
      if ((this.flags[i] & (AGENT_ACTIVE | AGENT_HAS_PATH | AGENT_DIRTY)) !== (AGENT_ACTIVE | AGENT_HAS_PATH)) continue;
      const path = this.paths[i]!;
      let px = this.x[i];
      let py = this.y[i];
      for (let k = this.waypointIndex[i] * 2; k < path.length; k += 2) {
        if (segmentHitsRect(px, py, path[k], path[k + 1], x0, y0, x1, y1)) {
          this.flags[i] |= AGENT_DIRTY;
          break;
        }
        px = path[k];
        py = path[k + 1];
      }
    }
    for (let g = 0; g < this.fields.length; g++) if (this.fields[g] !== null) this.fieldStale[g] = true;
  }

  private refreshFields(): void {
    for (let g = 0; g < this.fields.length; g++) {
      const old = this.fields[g];
      if (old === null || !this.fieldStale[g]) continue;
      this.fieldStale[g] = false;
      let any = false;
      for (let i = 0; i < this.count && !any; i++) any = this.group[i] === g && (this.flags[i] & AGENT_FLOW) !== 0;
      if (!any) {
        this.fields[g] = null;
        continue;
      }
      const t0 = performance.now();
      this.fields[g] = new FlowField(this.grid, this.finder, old.goal, this.layer, this.movement);
      this.stats.planMs += performance.now() - t0;
      this.stats.flowFields++;
    }
  }

  private grow(capacity: number): void {
    const f64 = (a: Float64Array) => {
      const b = new Float64Array(capacity);
      b.set(a);
      return b;
    };
    this.x = f64(this.x);
    this.y = f64(this.y);
    this.prevX = f64(this.prevX);
    this.prevY = f64(this.prevY);
    this.heading = f64(this.heading);
    this.radius = f64(this.radius);
    this.walkSpeed = f64(this.walkSpeed);
    this.rotationSpeed = f64(this.rotationSpeed);
    this.targetX = f64(this.targetX);
    this.targetY = f64(this.targetY);
    this.desiredSpeed = f64(this.desiredSpeed);
    this.arrivalThreshold = f64(this.arrivalThreshold);
    this.lastReplan = f64(this.lastReplan);
    this.anchorX = f64(this.anchorX);
    this.anchorY = f64(this.anchorY);
    this.anchorTime = f64(this.anchorTime);
    this.homeX = f64(this.homeX);
    this.homeY = f64(this.homeY);
    this.returnAt = f64(this.returnAt);
    const retries = new Uint8Array(capacity);
    retries.set(this.retries);
    this.retries = retries;
    const flags = new Uint16Array(capacity);
    flags.set(this.flags);
    this.flags = flags;
    const wi = new Int32Array(capacity);
    wi.set(this.waypointIndex);
    this.waypointIndex = wi;
    const g = new Int32Array(capacity);
    g.set(this.group);
    this.group = g;
    const contact = new Uint8Array(capacity);
    contact.set(this.contact);
    this.contact = contact;
    const rc = new Uint32Array(capacity);
    rc.set(this.replanCount);
    this.replanCount = rc;
    this.bucketItems = new Int32Array(capacity);
    this.bucketOf = new Int32Array(capacity);
  }

  private check(id: number): void {
    if (!this.has(id)) throw new TilenavError(`no agent with id ${describe(id)}`, { element: 'agent id' });
  }
}

function positive(v: number | undefined, fallback: number, name: string): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new TilenavError(`expected a finite number >= 0, got ${describe(v)}`, { element: name });
  return v;
}

/** Distance from point (px, py) to the segment (ax, ay)-(bx, by). */
export function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const vx = bx - ax;
  const vy = by - ay;
  const len2 = vx * vx + vy * vy;
  let t = len2 > 0 ? ((px - ax) * vx + (py - ay) * vy) / len2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return Math.hypot(px - (ax + t * vx), py - (ay + t * vy));
}

/** Whether the segment touches the closed rectangle (Liang-Barsky clipping). */
function segmentHitsRect(ax: number, ay: number, bx: number, by: number, x0: number, y0: number, x1: number, y1: number): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = bx - ax;
  const dy = by - ay;
  const p = [-dx, dx, -dy, dy];
  const q = [ax - x0, x1 - ax, ay - y0, y1 - ay];
  for (let k = 0; k < 4; k++) {
    if (p[k] === 0) {
      if (q[k] < 0) return false;
    } else {
      const t = q[k] / p[k];
      if (p[k] < 0) {
        if (t > t1) return false;
        if (t > t0) t0 = t;
      } else {
        if (t < t0) return false;
        if (t < t1) t1 = t;
      }
    }
  }
  return true;
}
