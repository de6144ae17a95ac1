import { hypot } from './hypot.js';
import { TilenavError, describe } from '../errors.js';
import type { NavigationOptions } from './options.js';

/** Agent flag bits (the `flags` array). */
export const AGENT_ACTIVE = 1;
/** The agent has an order: it walks, or waits for its plan. */
export const AGENT_INTENT = 2;
/** Plan around walls; without it the agent walks straight at the target. */
export const AGENT_PATHFINDING = 4;
/** The agent has waypoints to follow (see `path(id)`). */
export const AGENT_HAS_PATH = 8;
/** Plan again at the next step (goal or grid changed, or a replan trigger). */
export const AGENT_DIRTY = 16;
/** The player: never nudged aside, stops in place when pushed while standing. */
export const AGENT_PLAYER = 32;
/** Following its group's flow field. */
export const AGENT_FLOW = 64;
/** The last order could not be reached; cleared by the next order. */
export const AGENT_UNREACHABLE = 128;
/** Walking a short step aside to let a walker pass, or walking back afterwards. */
export const AGENT_NUDGED = 256;
/** Gave up the last order, hemmed in by other agents for `stuckTime` (see NavigationOptions). */
export const AGENT_BLOCKED = 512;

/** A new agent. Positions are cell coordinates: cell (x, y)'s centre is (x, y). */
export interface AgentSpec {
  /** Start position: x in cell coordinates (fractional; cell (x, y)'s centre is (x, y)). */
  x: number;
  /** Start position: y in cell coordinates. */
  y: number;
  /** Collision radius (cells). @default options.collisionRadius */
  radius?: number;
  /** Cells per second. @default options.walkSpeed */
  walkSpeed?: number;
  /** Radians per second. @default options.rotationSpeed */
  rotationSpeed?: number;
  /** Initial heading (radians, atan2(y, x) convention). @default 0 */
  heading?: number;
  /** The player: never nudged aside, stops in place when pushed while standing. @default false */
  player?: boolean;
  /**
   * The grid layer it stands on (index or name): an upper floor, a cellar. Links between layers
   * (stairs, ladders: `grid.addLink`) take it from layer to layer. @default the system's `layer`
   */
  layer?: number | string;
}

/** How an agent walks to the target of an order (the target itself is given separately). */
export interface MoveIntent {
  /** Fraction of the agent's walkSpeed. @default 1 */
  desiredSpeed?: number;
  /** Plan around walls; false walks straight at the target. @default true */
  usePathfinding?: boolean;
  /** Within this of the target counts as arrived (cells). @default options.arrivalThreshold */
  arrivalThreshold?: number;
  /** Called once, after the step in which the agent arrives (or gives up, AGENT_BLOCKED). */
  onArrived?: (id: number) => void;
  /**
   * The target's layer (index or name): the agent walks there through links between layers
   * (stairs, ladders). @default the layer the agent stands on when ordered
   */
  layer?: number | string;
}

/** The intent of orders the system gives itself (stepping aside, walking back): all defaults. */
export const DEFAULT_INTENT: Readonly<MoveIntent> = Object.freeze({});

/**
 * Every agent's state as struct-of-arrays indexed by agent id, and the transitions between
 * states (ordered, arrived, stopped, unreachable) that the step's stages share. Arrays are
 * replaced when the store grows, so readers re-read them after `add`.
 */
export class AgentStore {
  /** Number of agent slots in use (ids are 0..count-1; removed ones are inactive). */
  count = 0;
  x = new Float64Array(0);
  y = new Float64Array(0);
  /** Positions at the start of the last step (for interpolation and for telling movers). */
  prevX = new Float64Array(0);
  prevY = new Float64Array(0);
  heading = new Float64Array(0);
  radius = new Float64Array(0);
  walkSpeed = new Float64Array(0);
  rotationSpeed = new Float64Array(0);
  targetX = new Float64Array(0);
  targetY = new Float64Array(0);
  desiredSpeed = new Float64Array(0);
  arrivalThreshold = new Float64Array(0);
  /** AGENT_* bits. */
  flags = new Uint16Array(0);
  /** The waypoint pair walked toward. */
  waypointIndex = new Int32Array(0);
  /** Group order id, -1 when none. */
  group = new Int32Array(0);
  /** Plans after the first for the current order. */
  replanCount = new Uint32Array(0);
  /** Simulated time of the last replan a mover or a failed move caused (seconds). */
  lastReplan = new Float64Array(0);
  /** 1 when the agent was pushed by another in the last step (crowded: waypoints count as reached sooner). */
  contact = new Uint8Array(0);
  /**
   * Stuck detection: the least way left to the target seen on the current order (cells; along the
   * path or the flow field, so circling round a taken spot is no progress), and when it last
   * shrank by `stuckDist` (seconds).
   */
  bestRemaining = new Float64Array(0);
  anchorTime = new Float64Array(0);
  /** Stuck retries used on the current order. */
  retries = new Uint8Array(0);
  /**
   * The agent's post: where a unit that stepped aside or was shoved walks back to (see
   * `returnToPost`); NaN for none. An order (not a step aside) sets it to its target.
   */
  homeX = new Float64Array(0);
  homeY = new Float64Array(0);
  /** When a unit that made way (stepped aside or was shoved) walks back to its post (seconds); 0 for never. */
  returnAt = new Float64Array(0);
  /**
   * Where the path takes a link (`grid.addLink`): the far end, in cell coordinates, where the unit
   * appears on reaching its path's last waypoint (the link's near end) before planning on; NaN
   * when its path takes none. Set with each plan; read only while the agent has a path.
   */
  linkX = new Float64Array(0);
  linkY = new Float64Array(0);
  /** The layer of that far end (a link between layers changes the agent's {@link layer}). */
  linkLayer = new Uint8Array(0);
  /** The grid layer each agent stands on (index); links between layers change it. */
  layer = new Uint8Array(0);
  /** The layer of each agent's target (index). */
  goalLayer = new Uint8Array(0);
  /** Waypoints [x0, y0, ...] of each agent, null without a path. */
  readonly paths: (Float64Array | null)[] = [];
  /** Each agent's arrival callback for its current order. */
  readonly callbacks: (((id: number) => void) | undefined)[] = [];
  /** Agents that arrived (or gave up) during the step, in that order; the system calls back after the step. */
  arrived: number[] = [];
  /**
   * Whether agent `id` can walk straight from its path's second-to-last waypoint (or from where it
   * stands, on its last leg) to (x, y): the system sets it to a line-of-sight test, so a target
   * moved within `retargetDist` keeps the path only when its last leg stays clear.
   */
  canRetarget: (id: number, x: number, y: number) => boolean = () => false;
  /** Removed ids, highest first, so the lowest is reused first. */
  private readonly free: number[] = [];
  private readonly options: Readonly<NavigationOptions>;

  constructor(options: Readonly<NavigationOptions>) {
    this.options = options;
    this.grow(16);
  }

  /** Adds a standing agent (spec validated, defaults from the options) and returns its id. */
  add(spec: AgentSpec): number {
    if (spec === null || typeof spec !== 'object') throw new TilenavError('expected an agent spec object', { element: 'agent' });
    for (const k of ['x', 'y'] as const) {
      if (typeof spec[k] !== 'number' || !Number.isFinite(spec[k])) throw new TilenavError(`expected a finite number, got ${describe(spec[k])}`, { element: `agent.${k}` });
    }
    const o = this.options;
    if (spec.heading !== undefined && (typeof spec.heading !== 'number' || !Number.isFinite(spec.heading))) throw new TilenavError(`expected a finite angle in radians, got ${describe(spec.heading)}`, { element: 'agent.heading' });
    if (spec.player !== undefined && typeof spec.player !== 'boolean') throw new TilenavError(`expected true or false, got ${describe(spec.player)}`, { element: 'agent.player' });
    const radius = positive(spec.radius, o.collisionRadius, 'agent.radius');
    const id = this.free.length > 0 ? this.free.pop()! : this.count++;
    if (id >= this.x.length) this.grow(this.x.length * 2);
    this.x[id] = this.prevX[id] = spec.x;
    this.y[id] = this.prevY[id] = spec.y;
    this.heading[id] = spec.heading === undefined ? 0 : Math.atan2(Math.sin(spec.heading), Math.cos(spec.heading));
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
    // Its post is where it was put; without returnToPost a unit never ordered stays where pushed.
    this.homeX[id] = o.returnToPost ? spec.x : NaN;
    this.homeY[id] = o.returnToPost ? spec.y : NaN;
    this.returnAt[id] = 0;
    this.retries[id] = 0;
    this.linkX[id] = NaN;
    this.linkY[id] = NaN;
    this.paths[id] = null;
    this.callbacks[id] = undefined;
    return id;
  }

  /** Removes an agent; its id may be handed out again by `add`. Throws for an unknown id. */
  remove(id: number): void {
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

  /** Throws a TilenavError naming the id unless it names a live agent. */
  check(id: number): void {
    if (!this.has(id)) throw new TilenavError(`no agent with id ${describe(id)}`, { element: 'agent id' });
  }

  /**
   * Gives agent `id` an order to (x, y) at simulated time `now`. `nudge`: a step aside (or back),
   * which keeps the home the last real order set. The same target as the current path keeps the
   * path, and so does one within `retargetDist` of it when {@link canRetarget} allows (the path's
   * end moves to it); anything else plans afresh at the next step.
   */
  order(id: number, x: number, y: number, intent: MoveIntent, group: number, now: number, nudge = false): void {
    const f = this.flags[id];
    this.returnAt[id] = 0;
    if (!nudge) {
      this.homeX[id] = x;
      this.homeY[id] = y;
    }
    const usePathfinding = intent.usePathfinding ?? true;
    const path = this.paths[id];
    const moved = hypot(x - this.targetX[id], y - this.targetY[id]);
    // The target's layer: resolved to an index by the system (the agent's own when not given).
    const goalLayer = typeof intent.layer === 'number' ? intent.layer : this.layer[id];
    const kept = (f & AGENT_HAS_PATH) !== 0 && path !== null && (f & AGENT_PATHFINDING) !== 0 === usePathfinding && goalLayer === this.goalLayer[id];
    this.goalLayer[id] = goalLayer;
    // A partial path (to the reachable cell nearest an unreachable target) does not end at the target: it cannot just move its end.
    const same = kept && (moved === 0 || ((f & AGENT_UNREACHABLE) === 0 && moved <= this.options.retargetDist && this.canRetarget(id, x, y)));
    if (same && moved > 0) {
      // A target that moved a little keeps the path; only its end moves (a copy: callers may hold the old one).
      const p = path.slice();
      p[p.length - 2] = x;
      p[p.length - 1] = y;
      this.paths[id] = p;
    }
    this.targetX[id] = x;
    this.targetY[id] = y;
    this.desiredSpeed[id] = positive(intent.desiredSpeed, 1, 'desiredSpeed');
    this.arrivalThreshold[id] = positive(intent.arrivalThreshold, this.options.arrivalThreshold, 'arrivalThreshold');
    this.callbacks[id] = intent.onArrived;
    this.group[id] = group;
    this.flags[id] = (f & (AGENT_ACTIVE | AGENT_PLAYER | (same ? AGENT_HAS_PATH : 0))) | AGENT_INTENT | (usePathfinding ? AGENT_PATHFINDING : 0);
    if (!same) {
      this.paths[id] = null;
      this.replanCount[id] = 0;
    }
    // Chasing a target that keeps moving a little is the same order: the stuck clock runs on.
    if (same && moved > 0) return;
    this.retries[id] = 0;
    this.bestRemaining[id] = Infinity;
    this.anchorTime[id] = now;
  }

  /**
   * Ends agent i's order as done (arrived or given up) at time `now` and queues its callbacks.
   * A step aside ends waiting to walk back; an order that ended short of its target (crowded,
   * given up, partial) makes where the unit stands its post, with `returnToPost`.
   */
  arrive(i: number, now: number): void {
    const back = this.options.returnAfterNudge;
    if ((this.flags[i] & AGENT_NUDGED) !== 0) {
      if (back > 0 && Number.isFinite(this.homeX[i])) this.returnAt[i] = now + back;
    } else if (this.options.returnToPost && hypot(this.x[i] - this.targetX[i], this.y[i] - this.targetY[i]) > this.arrivalThreshold[i]) {
      this.homeX[i] = this.x[i];
      this.homeY[i] = this.y[i];
    }
    this.flags[i] &= AGENT_ACTIVE | AGENT_PLAYER;
    this.paths[i] = null;
    this.arrived.push(i);
  }

  /**
   * Forgets agent id's target, path and group: it stands where it is, which becomes its post
   * with `returnToPost` (without it, it has none).
   */
  stop(id: number): void {
    this.flags[id] &= AGENT_ACTIVE | AGENT_PLAYER;
    this.targetX[id] = this.x[id];
    this.targetY[id] = this.y[id];
    this.homeX[id] = this.options.returnToPost ? this.x[id] : NaN;
    this.homeY[id] = this.options.returnToPost ? this.y[id] : NaN;
    this.returnAt[id] = 0;
    this.paths[id] = null;
    this.group[id] = -1;
  }

  /**
   * Drops agent id's order and path and flags it AGENT_UNREACHABLE (it stands; where it stands
   * becomes its post with `returnToPost`, unless the order was a step aside).
   */
  markUnreachable(id: number): void {
    if (this.options.returnToPost && (this.flags[id] & AGENT_NUDGED) === 0) {
      this.homeX[id] = this.x[id];
      this.homeY[id] = this.y[id];
    }
    this.flags[id] = (this.flags[id] & (AGENT_ACTIVE | AGENT_PLAYER)) | AGENT_UNREACHABLE;
    this.paths[id] = null;
  }

  private grow(capacity: number): void {
    this.x = grown(this.x, capacity);
    this.y = grown(this.y, capacity);
    this.prevX = grown(this.prevX, capacity);
    this.prevY = grown(this.prevY, capacity);
    this.heading = grown(this.heading, capacity);
    this.radius = grown(this.radius, capacity);
    this.walkSpeed = grown(this.walkSpeed, capacity);
    this.rotationSpeed = grown(this.rotationSpeed, capacity);
    this.targetX = grown(this.targetX, capacity);
    this.targetY = grown(this.targetY, capacity);
    this.desiredSpeed = grown(this.desiredSpeed, capacity);
    this.arrivalThreshold = grown(this.arrivalThreshold, capacity);
    this.flags = grown(this.flags, capacity);
    this.waypointIndex = grown(this.waypointIndex, capacity);
    this.group = grown(this.group, capacity);
    this.replanCount = grown(this.replanCount, capacity);
    this.lastReplan = grown(this.lastReplan, capacity);
    this.contact = grown(this.contact, capacity);
    this.bestRemaining = grown(this.bestRemaining, capacity);
    this.anchorTime = grown(this.anchorTime, capacity);
    this.retries = grown(this.retries, capacity);
    this.homeX = grown(this.homeX, capacity);
    this.homeY = grown(this.homeY, capacity);
    this.returnAt = grown(this.returnAt, capacity);
    this.linkX = grown(this.linkX, capacity);
    this.linkY = grown(this.linkY, capacity);
    this.linkLayer = grown(this.linkLayer, capacity);
    this.layer = grown(this.layer, capacity);
    this.goalLayer = grown(this.goalLayer, capacity);
  }
}

type AgentArray = Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array;

/** A copy of `a` in a new array of the same type, `capacity` long (zeros after the old end). */
function grown<T extends AgentArray>(a: T, capacity: number): T {
  const b = new (a.constructor as new (length: number) => T)(capacity);
  b.set(a as ArrayLike<number>);
  return b;
}

/** `v` when given (a finite number >= 0, else a TilenavError naming `name`), else `fallback`. */
function positive(v: number | undefined, fallback: number, name: string): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new TilenavError(`expected a finite number >= 0, got ${describe(v)}`, { element: name });
  return v;
}
