import { TilenavError, describe } from '../errors.js';
import type { NavGrid } from '../grid/navgrid.js';
import { lineOfSight } from '../path/los.js';
import { movementRange } from '../search/pathfinder.js';
import { mulberry32 } from '../query/random.js';
import { movementModel, type MovementName } from '../search/movement.js';
import type { WorldPoint } from '../grid/projection.js';
import { Avoidance } from './avoidance.js';
import { Collision } from './collision.js';
import type { ChaseOrder, ChaseTarget } from './chase.js';
import type { FlowField, UnitField } from './flowfield.js';
import { planFormation, type Formation } from './formation.js';
import { DEFAULT_NAVIGATION_OPTIONS, type NavigationOptions } from './options.js';
import { ASTAR_WORK, GridPlanner, cellIndexAt, hasLinksFrom, walkableAt, type AgentPlanner } from './planner.js';
import { ServicePlanner } from './async-planner.js';
import type { PathService } from '../service/service.js';
import { Replanner } from './replanning.js';
import { SpatialHash, agentAt, agentsInRect } from './spatial.js';
import { StepAside } from './stepaside.js';
import { Steering } from './steering.js';
import { AGENT_FLOW, AGENT_INTENT, AgentStore, type AgentSpec, type MoveIntent } from './store.js';

/** A group order's outcome. */
export interface GroupOrder {
  /** 'formation': one plan per unit to its slot; 'flow': one flow field shared by all. */
  mode: 'formation' | 'flow';
  /** The slots given (null when nothing walkable lies near the click: every unit is unreachable). */
  formation: Formation | null;
  /** Units known at once to be unable to reach the goal. */
  unreachable: number;
}

/** Counters since the system was created. */
export interface NavigationStats {
  /** Fixed steps run. */
  steps: number;
  /** Planner calls, first plans and replans alike. */
  plans: number;
  /** Plans caused by movers, grid changes or failed moves (not first plans). */
  replans: number;
  /** Flow fields built. */
  flowFields: number;
  /** Milliseconds spent planning (planner calls and flow fields). */
  planMs: number;
  /** Search work of the planner's plans (see `planBudget`; a planner that does not count it adds nothing). */
  planWork: number;
  /** The most search work of the plans of one step (at most `planBudget` with the default planner, but for a search longer than a whole step's budget: see planBudget). */
  maxStepPlanWork: number;
  /** Deepest overlap between two agents' discs seen after collision resolution (cells); measured when `measureOverlap`. */
  maxOverlap: number;
}

/** Options of a {@link NavigationSystem}: the tuning constants of {@link NavigationOptions} plus its collaborators. */
export interface NavigationSystemOptions extends Partial<NavigationOptions> {
  /** Plans paths (snapping to walkable cells, walking around standing agents, smoothing). @default new GridPlanner(grid) */
  planner?: AgentPlanner;
  /**
   * Plan through this PathService (from `tilenav/service`, on this grid) instead: the searches
   * run on its workers and the step never waits; units stand (or keep their old path) until their
   * answer arrives. Shorthand for `planner: new ServicePlanner(service)`; ignored when `planner` is given.
   * Group orders' and chases' flow fields are built on its workers too (`service.flowField`), with
   * or without `planner`: their units walk straight at their slots (the target) until it comes.
   */
  service?: PathService;
  /** Layer agents walk on. @default 0 */
  layer?: number | string;
  /** @default the grid's own, `grid.movement` */
  movement?: MovementName;
  /** Called for every arrival, after the agent's own callback. */
  onArrived?: (id: number) => void;
  /** Track stats.maxOverlap (one extra pass over the near pairs per step). @default false */
  measureOverlap?: boolean;
}

/**
 * Cells of a group order's flow field computed in the moveGroup call (round the goal; with a
 * service too, unless it is built there): a handful, so the call stays short. With none, 50 units
 * sent across AcrosstheCape pressed into one another more deeply than the push-apart allows
 * (test/simulate-cli.test.ts).
 */
const ORDER_FIELD_CELLS = 64;

/**
 * Navigation agents as struct-of-arrays (read `x`, `y`, `heading`, `radius`, `flags` directly;
 * re-read them after `addAgent`, which may grow them), planned, moved along waypoints, pushed
 * apart and replanned on a fixed time step.
 *
 * Each step: plan the agents that need it; move every walker toward its waypoint (or its group's
 * flow field), with `avoidance: 'orca'` at the velocity that keeps it clear of the others and of
 * the walls (src/agents/avoidance.ts), and turn it toward the way it goes; push overlapping agents apart
 * (`collisionIterations` passes over the pairs near enough to touch, only into walkable cells); send the standing
 * units a walker is about to reach (or touches) a cell or so out of its way, and units that made
 * way back to their posts once the way is clear; replan walkers that a mover came near; fire
 * arrival callbacks.
 *
 * Deterministic: agents are visited in id order, nothing depends on time or randomness, so the
 * same calls give the same positions bit for bit.
 */
export class NavigationSystem {
  /** The grid the agents walk on. */
  readonly grid: NavGrid;
  /** The tuning constants in use: the defaults with the given options over them. */
  readonly options: Readonly<NavigationOptions>;
  /** Turns orders into waypoints. */
  readonly planner: AgentPlanner;
  /** The grid layer the agents walk on, by index. */
  readonly layer: number;
  /** The agents' movement model. */
  readonly movement: MovementName;
  /** Counters since the system was created. */
  readonly stats: NavigationStats = newStats();
  /** Track `stats.maxOverlap` (one extra pass over the near pairs per step). */
  measureOverlap: boolean;

  private readonly agents: AgentStore;
  private readonly hash = new SpatialHash();
  private readonly steering: Steering;
  private readonly collision: Collision;
  private readonly stepAside: StepAside;
  private readonly replanner: Replanner;
  private readonly onArrivedAll: ((id: number) => void) | undefined;
  private readonly unsubscribe: () => void;
  private nextGroup = 0;
  private accumulator = 0;
  private time = 0;
  private readonly scratch = { x: 0, y: 0 };
  /** Units wandering (see {@link wander}), by id. */
  private readonly wanderers = new Map<number, Wanderer>();

  /**
   * An empty system on `grid`; it listens to the grid's changes until `dispose()`. Throws a
   * TilenavError naming the option when a tuning constant is out of its range, the layer does not
   * exist, or `service` is over another grid.
   */
  constructor(grid: NavGrid, options: NavigationSystemOptions = {}) {
    this.grid = grid;
    const merged: NavigationOptions = { ...DEFAULT_NAVIGATION_OPTIONS };
    for (const key of Object.keys(DEFAULT_NAVIGATION_OPTIONS) as (keyof NavigationOptions)[]) {
      const v = options[key];
      if (v === undefined) continue;
      if (key === 'avoidance') {
        if (v !== 'orca' && v !== 'none') throw new TilenavError(`expected 'orca' or 'none', got ${describe(v)}`, { element: key });
        merged.avoidance = v;
        continue;
      }
      if (typeof DEFAULT_NAVIGATION_OPTIONS[key] === 'boolean') {
        if (typeof v !== 'boolean') throw new TilenavError(`expected true or false, got ${describe(v)}`, { element: key });
      } else if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new TilenavError(`expected a finite number >= 0, got ${describe(v)}`, { element: key });
      (merged as unknown as Record<string, number | boolean>)[key] = v;
    }
    if (!(merged.fixedStep > 0)) throw new TilenavError('expected a step > 0 seconds', { element: 'fixedStep' });
    if (merged.shortcutFactor !== 0 && !(merged.shortcutFactor >= 1)) throw new TilenavError(`expected 0 (off) or a factor >= 1 (1.2: replan walkers more than 20 % dearer than needed), got ${describe(merged.shortcutFactor)}`, { element: 'shortcutFactor' });
    if (!(merged.timeHorizon > 0)) throw new TilenavError('expected a time horizon > 0 seconds', { element: 'timeHorizon' });
    if (!(merged.timeHorizonObstacles > 0)) throw new TilenavError('expected a time horizon > 0 seconds', { element: 'timeHorizonObstacles' });
    if (!Number.isInteger(merged.maxNeighbours)) throw new TilenavError(`expected a whole number >= 0, got ${describe(merged.maxNeighbours)}`, { element: 'maxNeighbours' });
    if (!Number.isInteger(merged.shortcutSearchLimit) || merged.shortcutSearchLimit < 1) throw new TilenavError(`expected a whole number >= 1, got ${describe(merged.shortcutSearchLimit)}`, { element: 'shortcutSearchLimit' });
    if (!Number.isInteger(merged.planBudget) || merged.planBudget < ASTAR_WORK) throw new TilenavError(`expected a whole number >= ${ASTAR_WORK} (search work per step: a cell a jump point search scans counts 1, an A* expansion ${ASTAR_WORK}), got ${describe(merged.planBudget)}`, { element: 'planBudget' });
    if (!Number.isInteger(merged.flowFieldBudget) || merged.flowFieldBudget < 1) throw new TilenavError(`expected a whole number >= 1 (cells per step), got ${describe(merged.flowFieldBudget)}`, { element: 'flowFieldBudget' });
    const o = Object.freeze(merged);
    this.options = o;
    this.layer = grid.layerIndex(options.layer ?? 0);
    this.movement = grid.movementModel(options.movement).name;
    if (options.service !== undefined && options.service.grid !== grid) throw new TilenavError('expected a PathService over the same grid as the system', { element: 'service' });
    this.planner = options.planner ?? (options.service !== undefined ? new ServicePlanner(options.service, { layer: this.layer }) : new GridPlanner(grid));
    this.onArrivedAll = options.onArrived;
    this.measureOverlap = options.measureOverlap ?? false;
    this.agents = new AgentStore(o);
    this.replanner = new Replanner(this.agents, this.hash, grid, this.layer, this.movement, o, this.stats, this.planner, options.service ?? null);
    const avoidance = o.avoidance === 'orca' ? new Avoidance(this.agents, grid, this.layer, o) : null;
    this.steering = new Steering(this.agents, grid, this.layer, o, this.replanner.fields, avoidance);
    this.stepAside = new StepAside(this.agents, this.hash, grid, this.layer, this.movement, o, this.replanner.fields);
    this.collision = new Collision(this.agents, grid, this.layer, o, this.stats, this.stepAside);
    this.unsubscribe = grid.onChange((c) => this.replanner.gridChanged(c));
    this.agents.canRetarget = (id, x, y) => this.lastLegClear(id, x, y);
  }

  // ---- the agents' arrays (replaced when addAgent grows them) ------------------------------

  /** Number of agent slots in use (ids are 0..count-1; removed ones are inactive). */
  get count(): number {
    return this.agents.count;
  }
  /** Positions now, in cell coordinates. */
  get x(): Float64Array {
    return this.agents.x;
  }
  /** Positions now: y in cell coordinates. */
  get y(): Float64Array {
    return this.agents.y;
  }
  /** Positions at the start of the last step; render at prev + (pos - prev) * alpha. */
  get prevX(): Float64Array {
    return this.agents.prevX;
  }
  /** Positions at the start of the last step: y. */
  get prevY(): Float64Array {
    return this.agents.prevY;
  }
  /** Facing (radians, atan2(y, x) convention). */
  get heading(): Float64Array {
    return this.agents.heading;
  }
  /** Collision radius (cells). */
  get radius(): Float64Array {
    return this.agents.radius;
  }
  /** Cells per second at full speed. */
  get walkSpeed(): Float64Array {
    return this.agents.walkSpeed;
  }
  /** Radians per second. */
  get rotationSpeed(): Float64Array {
    return this.agents.rotationSpeed;
  }
  /** The current order's target (cell coordinates); where the agent stands when it has none. */
  get targetX(): Float64Array {
    return this.agents.targetX;
  }
  /** The current order's target: y. */
  get targetY(): Float64Array {
    return this.agents.targetY;
  }
  /** The current order's fraction of walkSpeed. */
  get desiredSpeed(): Float64Array {
    return this.agents.desiredSpeed;
  }
  /** The current order's arrival threshold (cells). */
  get arrivalThreshold(): Float64Array {
    return this.agents.arrivalThreshold;
  }
  /** AGENT_* bits. */
  get flags(): Uint16Array {
    return this.agents.flags;
  }
  /** The waypoint pair of `path(id)` walked toward. */
  get waypointIndex(): Int32Array {
    return this.agents.waypointIndex;
  }
  /**
   * The grid layer each agent stands on (index): `layer` (the system's) unless it was added on
   * another (`addAgent({ layer })`) or a link between layers (stairs, a ladder) took it there.
   */
  get layers(): Uint8Array {
    return this.agents.layer;
  }
  /** Group order id, -1 when none. */
  get group(): Int32Array {
    return this.agents.group;
  }
  /** Plans after the first for the current order. */
  get replanCount(): Uint32Array {
    return this.agents.replanCount;
  }

  /** Stops listening to the grid, and lets go of the flow fields its orders hold (the grid's cache may drop them). */
  dispose(): void {
    this.unsubscribe();
    this.replanner.dropFields();
  }

  /** Simulated seconds so far (steps x fixedStep). */
  get now(): number {
    return this.time;
  }

  /** How far between the last step and the next the accumulator stands, 0..1, for interpolation. */
  get alpha(): number {
    return this.accumulator / this.options.fixedStep;
  }

  /**
   * Builds what planning reads (the layer's search view, the jump point planes of the system's
   * and the planner's searches) now rather than in the first order, and readies the default
   * planner's searches spread over steps (their search slots, about 20 bytes a cell each, made and
   * run once: see GridPlanner.prepare): call it while a level loads. Optional; the time it takes
   * (a fraction of a second on a 1024 x 1024 map) is not counted in `stats.planMs`.
   */
  prepare(): void {
    this.replanner.prepare();
  }

  /**
   * Throws a TilenavError naming the coordinate unless (x, y) is a finite point within the
   * grid's rectangle grown by the grid's own size on every side ({@link NavigationSystem.addAgent}).
   * Farther points are refused: an agent 1e16 cells away has nothing to walk to, and the regions
   * a step scans around it would be unbounded.
   */
  private checkPoint(x: number, y: number, nameX: string, nameY: string): void {
    const { width: W, height: H } = this.grid;
    for (const [v, extent, name] of [[x, W, nameX], [y, H, nameY]] as const) {
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new TilenavError(`expected a finite number, got ${describe(v)}`, { element: name });
      if (v < -extent || v > 2 * extent) throw new TilenavError(`expected ${-extent} .. ${2 * extent} (the ${W} x ${H} grid grown by its size on each side), got ${v}`, { element: name });
    }
  }

  /** Whether agent id's last leg, from the waypoint before its path's end (or from where it stands), still sees (x, y). */
  private lastLegClear(id: number, x: number, y: number): boolean {
    const model = movementModel(this.movement);
    // Line of sight is a square grid's; elsewhere (hexagons) and off the grid the order replans.
    const a = this.agents;
    const layer = a.layer[id];
    if ((model.heuristic !== 'octile' && model.heuristic !== 'manhattan') || !walkableAt(this.grid, layer, x, y)) return false;
    // A path ending at a link's near end does not end at the target.
    if (a.linkX[id] === a.linkX[id] || a.goalLayer[id] !== layer) return false;
    const path = a.paths[id]!;
    const k = path.length / 2 - 2;
    const onLast = k < a.waypointIndex[id];
    const sx = onLast ? a.x[id] : path[k * 2];
    const sy = onLast ? a.y[id] : path[k * 2 + 1];
    return lineOfSight(this.grid.searchView(layer), sx, sy, x, y, model.corner);
  }

  // ---- agents ------------------------------------------------------------------------------

  /**
   * Adds a standing agent and returns its id (a removed agent's id may be reused, lowest first).
   * Positions (and order targets) must be finite and lie within the grid's rectangle grown by the
   * grid's size on every side: -width .. 2 width, -height .. 2 height (cell coordinates); a
   * TilenavError names the coordinate otherwise.
   */
  addAgent(spec: AgentSpec): number {
    let layer = this.layer;
    if (spec !== null && typeof spec === 'object') {
      this.checkPoint(spec.x, spec.y, 'agent.x', 'agent.y');
      if (spec.layer !== undefined) layer = this.layerOf(spec.layer, 'agent.layer');
    }
    const id = this.agents.add(spec);
    this.agents.layer[id] = layer;
    this.hash.fitRadius(this.agents.radius[id]);
    return id;
  }

  /** Removes an agent; its id may be handed out again by addAgent. */
  removeAgent(id: number): void {
    this.wanderers.delete(id);
    this.agents.remove(id);
  }

  /** Whether `id` names a live agent. */
  has(id: number): boolean {
    return this.agents.has(id);
  }

  /** True while the agent walks (or waits for its plan). */
  isMoving(id: number): boolean {
    return (this.agents.flags[id] & AGENT_INTENT) !== 0;
  }

  /** The agent's waypoints [x0, y0, ...] (cell coordinates), or null without a path. Do not modify. */
  path(id: number): Float64Array | null {
    this.agents.check(id);
    return this.agents.paths[id];
  }

  /**
   * Walk to (x, y) (cell coordinates). Planned at the next step; an order to the same target as
   * the current path keeps the path.
   */
  moveTo(id: number, x: number, y: number, intent: MoveIntent = {}): void {
    this.agents.check(id);
    this.checkPoint(x, y, 'target x', 'target y');
    this.wanderers.delete(id);
    this.agents.order(id, x, y, this.resolved(intent), -1, this.time);
  }

  /**
   * Sends unit `id` away from a threat at (fromX, fromY) (cell coordinates): to the cell within
   * `distance` movement points of where it stands (its movement range, as
   * `Pathfinder.movementRange` counts them: walls, costs and the system's movement) that lies
   * farthest, in a straight line, from the threat; of equally far cells the cheapest to reach. A
   * plain order follows (as {@link moveTo}, with `intent`). Call it again while the threat comes
   * on. Returns false, giving no order, when no cell in range lies farther from the threat than
   * the unit's own (cornered). Throws a TilenavError naming `distance` (a number > 0 expected),
   * `threat x` or `threat y` (finite numbers).
   */
  flee(id: number, fromX: number, fromY: number, intent: MoveIntent & { distance?: number } = {}): boolean {
    this.agents.check(id);
    if (!Number.isFinite(fromX)) throw new TilenavError(`expected a finite number, got ${describe(fromX)}`, { element: 'threat x' });
    if (!Number.isFinite(fromY)) throw new TilenavError(`expected a finite number, got ${describe(fromY)}`, { element: 'threat y' });
    const distance = intent.distance ?? 8;
    if (typeof distance !== 'number' || !(distance > 0) || distance === Infinity) throw new TilenavError(`expected a distance in movement points, a finite number > 0, got ${describe(distance)}`, { element: 'distance' });
    const a = this.agents;
    const grid = this.grid;
    const at = cellIndexAt(grid, a.x[id], a.y[id]);
    if (at < 0) return false;
    const range = movementRange(grid, grid.xOf(at), grid.yOf(at), { budget: distance, layer: a.layer[id], movement: this.movement });
    let best = -1;
    let far = (grid.xOf(at) - fromX) ** 2 + (grid.yOf(at) - fromY) ** 2;
    // Cheapest first: a strictly farther cell wins, so ties go to the cheaper one.
    for (let k = 0; k < range.cells.length; k++) {
      const c = range.cells[k];
      const d = (grid.xOf(c) - fromX) ** 2 + (grid.yOf(c) - fromY) ** 2;
      if (d > far + 1e-9) {
        far = d;
        best = c;
      }
    }
    if (best < 0) return false;
    const { distance: _, ...order } = intent;
    this.moveTo(id, grid.xOf(best), grid.yOf(best), { ...order, layer: a.layer[id] });
    return true;
  }

  /**
   * Lets unit `id` wander: it walks to a cell picked at random within `radius` cells (straight-line
   * distance) of where it stands now, among those it can reach from there, stands `pause`
   * seconds, and walks to the next, until it is given another order ({@link moveTo}, a group
   * order, a chase, {@link stopInPlace}) or removed. The picks come from a generator seeded with
   * `seed` (default: the unit's id), so the same calls give the same walk. Throws a TilenavError
   * naming `radius` (a finite number > 0), `pause` (a number >= 0) or `seed` (an integer).
   */
  wander(id: number, options: Omit<MoveIntent, 'onArrived' | 'layer'> & { radius?: number; pause?: number; seed?: number } = {}): void {
    this.agents.check(id);
    const { radius = 5, pause = 1, seed = id, ...intent } = options;
    if (typeof radius !== 'number' || !(radius > 0) || radius === Infinity) throw new TilenavError(`expected a radius in cells, a finite number > 0, got ${describe(radius)}`, { element: 'radius' });
    if (typeof pause !== 'number' || !(pause >= 0) || pause === Infinity) throw new TilenavError(`expected a pause in seconds, a finite number >= 0, got ${describe(pause)}`, { element: 'pause' });
    if (!Number.isInteger(seed)) throw new TilenavError(`expected an integer, got ${describe(seed)}`, { element: 'seed' });
    const a = this.agents;
    const grid = this.grid;
    const at = cellIndexAt(grid, a.x[id], a.y[id]);
    this.stopInPlace(id);
    if (at < 0) return;
    const hx = grid.xOf(at);
    const hy = grid.yOf(at);
    // Reachable within the disc: a path there is at most the disc's walk round its walls, so the
    // range's budget is generous and the disc test does the choosing.
    const range = movementRange(grid, hx, hy, { budget: radius * 4, layer: a.layer[id], movement: this.movement });
    const spots: number[] = [];
    for (let k = 0; k < range.cells.length; k++) {
      const c = range.cells[k];
      if ((grid.xOf(c) - hx) ** 2 + (grid.yOf(c) - hy) ** 2 <= radius * radius) spots.push(c);
    }
    if (spots.length < 2) return;
    this.wanderers.set(id, { spots: Int32Array.from(spots), pause, next: this.time, random: mulberry32(seed >>> 0), intent: this.resolved({ ...intent, layer: a.layer[id] }) });
  }

  /** Sends the wanderers whose pause is over to their next spot (at the start of a step). */
  private wanderOn(): void {
    for (const [id, w] of this.wanderers) {
      if (!this.agents.has(id)) {
        this.wanderers.delete(id);
        continue;
      }
      if (w.next > this.time) continue;
      const grid = this.grid;
      const here = cellIndexAt(grid, this.agents.x[id], this.agents.y[id]);
      let c = w.spots[Math.floor(w.random() * w.spots.length)];
      if (c === here) c = w.spots[(w.spots.indexOf(c) + 1) % w.spots.length];
      w.next = Infinity;
      const onArrived = (): void => {
        if (this.wanderers.get(id) === w) w.next = this.time + w.pause;
      };
      this.agents.order(id, grid.xOf(c), grid.yOf(c), { ...w.intent, onArrived }, -1, this.time);
    }
  }

  /** `intent` with its `layer` as an index (a TilenavError naming `layer` for an unknown one). */
  private resolved<T extends MoveIntent>(intent: T): T {
    if (intent === null || typeof intent !== 'object' || intent.layer === undefined || typeof intent.layer === 'number') {
      if (intent !== null && typeof intent === 'object' && typeof intent.layer === 'number') this.layerOf(intent.layer, 'layer');
      return intent;
    }
    return { ...intent, layer: this.layerOf(intent.layer, 'layer') };
  }

  /** The index of grid layer `layer`, or a TilenavError naming `element`. */
  private layerOf(layer: number | string, element: string): number {
    try {
      return this.grid.layerIndex(layer);
    } catch (e) {
      if (!(e instanceof TilenavError)) throw e;
      throw new TilenavError(e.message.slice((e.element?.length ?? -2) + 2), { element });
    }
  }

  /**
   * Orders a group to (x, y): formation slots around the point (see planFormation), then one
   * plan per unit, or one flow field for all when the group has at least `flowFieldMinGroup`
   * units (`mode` forces either). The target lies on `intent.layer` (default: the system's layer,
   * whatever layer each unit stands on); a target on another layer than the system's, or a layer
   * with links, is planned unit by unit (flow fields know no links and lie on the system's layer;
   * `mode: 'flow'` there throws a TilenavError naming `mode`).
   */
  moveGroup(ids: ArrayLike<number>, x: number, y: number, intent: MoveIntent & { mode?: 'auto' | 'formation' | 'flow' } = {}): GroupOrder {
    const agents = this.agents;
    if (ids === null || typeof ids !== 'object' || typeof ids.length !== 'number') throw new TilenavError(`expected an array of agent ids, got ${describe(ids)}`, { element: 'ids' });
    for (let k = 0; k < ids.length; k++) agents.check(ids[k]);
    this.checkPoint(x, y, 'target x', 'target y');
    for (let k = 0; k < ids.length; k++) this.wanderers.delete(ids[k]);
    const asked = intent.mode ?? 'auto';
    if (asked !== 'auto' && asked !== 'formation' && asked !== 'flow') throw new TilenavError(`expected 'auto', 'formation' or 'flow', got ${describe(asked)}`, { element: 'mode' });
    intent = this.resolved(intent);
    const n = ids.length;
    // The target's layer (the system's unless the order names one): the formation's slots lie
    // there, and every unit goes there, whatever layer it stands on.
    const layer = typeof intent.layer === 'number' ? intent.layer : this.layer;
    if (asked === 'flow' && layer !== this.layer) throw new TilenavError(`flow fields lie on the system's layer (${this.layer}); for a target on layer ${layer} use mode 'formation' or 'auto'`, { element: 'mode' });
    if (intent.layer !== layer) intent = { ...intent, layer };
    // Flow fields do not follow links, and lie on the system's layer: on a layer with links (of its
    // own or to others), or for a target on another layer, each unit plans its own way.
    const mode = asked !== 'auto' ? asked : n >= this.options.flowFieldMinGroup && layer === this.layer && !hasLinksFrom(this.grid, this.layer) ? 'flow' : 'formation';
    const xs = new Float64Array(n);
    const ys = new Float64Array(n);
    let maxR = 0;
    for (let k = 0; k < n; k++) {
      xs[k] = agents.x[ids[k]];
      ys[k] = agents.y[ids[k]];
      maxR = Math.max(maxR, agents.radius[ids[k]]);
    }
    // Taken even when the order fails, so group ids count orders.
    const g = this.nextGroup++;
    const formation = planFormation(this.grid, layer, xs, ys, x, y, Math.max(2 * maxR * this.options.formationSpacing, 1e-3));
    let unreachable = 0;
    if (formation === null) {
      for (let k = 0; k < n; k++) agents.markUnreachable(ids[k]);
      return { mode, formation, unreachable: n };
    }
    // A few cells of the field are computed in the call, round the goal (ORDER_FIELD_CELLS: the
    // call stays short even when its code is new to the process, and the field starts with its
    // goal seeded); it grows by `flowFieldBudget` cells a step until it reaches every unit (or
    // comes from the service's workers), and the units it has not reached yet walk straight at
    // their slots meanwhile (every unit moves at the next step, whatever the map).
    const field: FlowField | null = mode === 'flow' ? this.replanner.buildField(formation.center, xs, ys, ORDER_FIELD_CELLS) : null;
    let growing = false;
    for (let k = 0; k < n; k++) {
      const id = ids[k];
      agents.order(id, formation.slots[k * 2], formation.slots[k * 2 + 1], intent, g, this.time);
      if (field === null) continue;
      const c = cellIndexAt(this.grid, agents.x[id], agents.y[id]);
      if (c >= 0 && !field.isKnown(c)) {
        agents.flags[id] |= AGENT_FLOW;
        growing = true;
      } else if (!this.follow(id, field)) unreachable++;
    }
    this.replanner.setField(g, field, growing);
    return { mode, formation, unreachable };
  }

  /**
   * Orders units to chase a moving target: an agent's id (the player), or a function the system
   * calls once per step that returns where the target is (cell coordinates), or null when the
   * chase is over. Every unit follows flow fields to the target's cell (shared with every order
   * to that cell through the grid's cache), each step toward it along a cheapest path: the units
   * near the target to where it is now, the farthest ones to where it was a little while ago
   * (`flowFieldBudget` cells of fields are computed per step; see docs/agents.md). In the
   * target's cell a unit walks at the target itself and stands within `arrivalThreshold` of it;
   * it keeps chasing when the target moves on. The chase ends for a unit given another order,
   * and for all of them when the target is gone (they stand; `onArrived` fires then). Units that
   * cannot reach the target's cell now stand, flagged AGENT_UNREACHABLE. Throws a TilenavError
   * naming `ids` or `target` (an unknown agent, one of the chasers, not a function).
   */
  chase(ids: ArrayLike<number>, target: ChaseTarget, intent: Omit<MoveIntent, 'usePathfinding'> = {}): ChaseOrder {
    const agents = this.agents;
    if (ids === null || typeof ids !== 'object' || typeof ids.length !== 'number') throw new TilenavError(`expected an array of agent ids, got ${describe(ids)}`, { element: 'ids' });
    for (let k = 0; k < ids.length; k++) agents.check(ids[k]);
    if (typeof target === 'number') {
      if (!agents.has(target)) throw new TilenavError(`no agent with id ${describe(target)} to chase`, { element: 'target' });
      for (let k = 0; k < ids.length; k++) if (ids[k] === target) throw new TilenavError(`agent ${target} cannot chase itself`, { element: 'target' });
    } else if (typeof target !== 'function') {
      throw new TilenavError(`expected an agent id or a function returning { x, y }, got ${describe(target)}`, { element: 'target' });
    }
    for (let k = 0; k < ids.length; k++) this.wanderers.delete(ids[k]);
    const g = this.nextGroup++;
    const chase = this.replanner.newChase(target, ids);
    if (chase === null) {
      for (let k = 0; k < ids.length; k++) agents.markUnreachable(ids[k]);
      return { group: g, unreachable: ids.length };
    }
    this.replanner.startChase(g, chase);
    let unreachable = 0;
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k];
      agents.order(id, chase.x, chase.y, intent, g, this.time);
      if (!this.follow(id, chase)) unreachable++;
    }
    return { group: g, unreachable };
  }

  /** Puts ordered agent id on `field` (AGENT_FLOW); false, and it stands flagged AGENT_UNREACHABLE, when its cell cannot reach the field's goal. */
  private follow(id: number, field: UnitField): boolean {
    const agents = this.agents;
    const c = cellIndexAt(this.grid, agents.x[id], agents.y[id]);
    // A cell the field has not computed yet (a worker builds it) is asked only whether it can reach the goal at all.
    if (c < 0 || (field.waits(c) ? field.cannotReach(c) : field.cost(c) === Infinity)) {
      agents.markUnreachable(id);
      return false;
    }
    agents.flags[id] |= AGENT_FLOW;
    return true;
  }

  /**
   * The flow field agent `id` follows now (read its `next`, `cost` and `goal` for debug arrows):
   * its group's field, or for a chase the newest of the chase's fields that has the agent's cell;
   * null when it follows none (its own path, no order).
   */
  flowFieldOf(id: number): FlowField | null {
    this.agents.check(id);
    return this.replanner.fieldOf(id);
  }

  /** Forgets the agent's target and path: it stands where it is. */
  stopInPlace(id: number): void {
    this.agents.check(id);
    this.wanderers.delete(id);
    this.agents.stop(id);
  }

  // ---- selection and rendering (for a UI) --------------------------------------------------

  /** Ids of agents whose centres lie in the rectangle (cell coordinates, any corner order), ascending. */
  agentsInRect(x0: number, y0: number, x1: number, y1: number, out: number[] = []): number[] {
    return agentsInRect(this.agents, x0, y0, x1, y1, out);
  }

  /** The agent whose disc contains (x, y) and whose centre is nearest it, or -1. */
  agentAt(x: number, y: number): number {
    return agentAt(this.agents, x, y);
  }

  /** The interpolated position for rendering, at `alpha` between the last two steps. */
  interpolated(id: number, out: { x: number; y: number } = { x: 0, y: 0 }): {
    /** x in cell coordinates. */
    x: number;
    /** y in cell coordinates. */
    y: number;
  } {
    this.agents.check(id);
    const a = this.alpha;
    const agents = this.agents;
    out.x = agents.prevX[id] + (agents.x[id] - agents.prevX[id]) * a;
    out.y = agents.prevY[id] + (agents.y[id] - agents.prevY[id]) * a;
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
    const agents = this.agents;
    const n = agents.count;
    const now = this.time;
    // A loop, not set(subarray): a subarray is a new view object every step.
    const { x, y, prevX, prevY } = agents;
    for (let i = 0; i < n; i++) {
      prevX[i] = x[i];
      prevY[i] = y[i];
    }
    if (this.wanderers.size > 0) this.wanderOn();
    this.replanner.refreshFields(now);
    this.replanner.checkShortcuts();
    this.replanner.planWhereNeeded();
    const dt = this.options.fixedStep;
    this.steering.walkAll(dt, now);
    agents.contact.fill(0);
    this.collision.resolve(now, this.measureOverlap);
    this.replanner.checkStuck(now);
    this.stepAside.yieldToWalkers(now);
    this.stepAside.sendHome(now);
    this.replanner.triggerReplans(now);
    this.time += dt;
    this.stats.steps++;
    const arrived = agents.arrived;
    if (arrived.length > 0) {
      // A fresh queue first: a callback may order agents or even step the system again.
      agents.arrived = [];
      for (const id of arrived) {
        const cb = agents.callbacks[id];
        agents.callbacks[id] = undefined;
        cb?.(id);
        this.onArrivedAll?.(id);
      }
    }
  }
}

/** Zeroed stats. */
function newStats(): NavigationStats {
  const stats = { steps: 0, plans: 0, replans: 0, flowFields: 0, planMs: 0, planWork: 0, maxStepPlanWork: 0, maxOverlap: 0 };
  // Stored as fractions once, these are held as doubles from the start: planWork passes 2^30 (the
  // engine's small integers) some 12,000 steps into a big order, and the others take fractions.
  // Else the stats' shape would change then, and the functions that read them would be thrown back
  // to unoptimized code in the middle of a game.
  stats.planWork = stats.planMs = stats.maxOverlap = 0.5;
  stats.planWork = stats.planMs = stats.maxOverlap = 0;
  return stats;
}

/** A wandering unit's state (see {@link NavigationSystem.wander}). */
interface Wanderer {
  /** The cells it may walk to. */
  readonly spots: Int32Array;
  /** Seconds it stands at each. */
  readonly pause: number;
  /** Simulated time it walks on at (Infinity while it walks). */
  next: number;
  readonly random: () => number;
  readonly intent: MoveIntent;
}
