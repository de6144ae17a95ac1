import { hypot } from './hypot.js';
import { TilenavError } from '../errors.js';
import type { CellPoint } from '../grid/projection.js';
import type { NavGrid, SearchView } from '../grid/navgrid.js';
import { movementModel, type CornerRule, type MovementName } from '../search/movement.js';
import { lineOfSight } from '../path/los.js';
import type { InternalPathOptions, PathResult } from '../search/result.js';
import type { PathSearch } from '../search/path-search.js';
import { ObstacleOverlay, type DynamicObstacle } from '../query/obstacles.js';
import { Pathfinder } from '../search/pathfinder.js';
import { canSmooth, cellStep, cellsToPoints, isLinkStep, smoothPath } from '../path/smooth.js';

/**
 * A standing agent that should be walked around when planning: centre in cell coordinates and
 * the radius to block (already scaled by the radius fraction), in cells.
 */
export interface AgentObstacle {
  /** Centre column, in cells (fractional). */
  x: number;
  /** Centre row, in cells (fractional). */
  y: number;
  /** Radius to block, in cells. */
  radius: number;
}

/** One planning request. Positions are cell coordinates: cell (x, y)'s centre is (x, y). */
export interface PlanRequest {
  /** The agent's id. */
  agent: number;
  /** Where the agent is: x in cell coordinates. */
  fromX: number;
  /** Where the agent is: y in cell coordinates. */
  fromY: number;
  /** The target: x in cell coordinates. */
  toX: number;
  /** The target: y in cell coordinates. */
  toY: number;
  /** Standing agents near the way; empty when none. Valid only during the call. */
  obstacles: readonly AgentObstacle[];
  /** The grid layer the agent walks on, by index. */
  layer: number;
  /** The target's layer, by index: reached through links between layers (stairs). @default layer */
  goalLayer?: number;
  /** The agent's movement model. */
  movement: MovementName;
  /**
   * Search work this plan may do (what is left of the step's `planBudget`, in the measure of
   * findPath's `maxIterations`); a planner that needs more sets `lastPending` and is asked again
   * at a later step. @default Infinity
   */
  maxWork?: number;
}

/**
 * Turns a request into waypoints. Implementations may snap, smooth or approach the nearest
 * reachable point; the system only follows what comes back. `lastPartial`, when a planner has it,
 * says the last plan stops short of an unreachable goal.
 */
export interface AgentPlanner {
  /**
   * Waypoints to walk through as [x0, y0, x1, y1, ...] in cell coordinates, not including the
   * agent's own position and ending at the goal (or wherever the planner decided to stop); null
   * when there is no way. Must be deterministic.
   */
  plan(request: PlanRequest): Float64Array | null;
  /** True when the last plan stops short of an unreachable goal (the system flags the agent unreachable). */
  readonly lastPartial?: boolean;
  /**
   * After a plan whose path takes a link of the layer (`grid.addLink`: a teleporter, a door
   * between far rooms): the link's far end in cell coordinates, the waypoints then ending at its
   * near end. The system moves the unit there on arrival at the last waypoint and plans on from
   * there. Null (or absent) when the plan takes no link.
   */
  readonly lastLink?: Readonly<LinkEnd> | null;
  /** Builds what planning on `layer` reads before the first plan (optional; see NavigationSystem.prepare). */
  prepare?(layer: number, movement: MovementName): void;
  /**
   * Planners that answer later (see ServicePlanner) set this after a `plan` call that has no
   * waypoints yet: the system then leaves the agent as it is (standing, or on its old path) and
   * asks again at a later step, skipping it while `pending(agent)` is true. `beginStep` runs once
   * at the start of each step's planning, to collect what arrived.
   */
  readonly lastPending?: boolean;
  /** Whether `agent` still waits for an answer; the system skips it while true. */
  pending?(agent: number): boolean;
  /** Runs once at the start of each step's planning, to collect the answers that arrived. */
  beginStep?(): void;
  /**
   * Search work the last `plan` call did (every search it ran, cut short or not, as findPath's
   * `maxIterations` counts it), counted against the step's `planBudget`; a planner without it is
   * not bounded by the budget.
   */
  readonly lastWork?: number;
}

/** Expansions the search around standing agents may always use (see GridPlanner). */
const AROUND_BUDGET_BASE = 1024;
/** Further expansions per cell of the octile distance from start to goal. */
const AROUND_BUDGET_PER_CELL = 64;
/** Expansions of the search from the goal that comes first (see GridPlanner's search). */
const PROBE_BUDGET = 256;

/** What a search the budget left no room for answers. */
const LIMITED: PathResult = Object.freeze({ status: 'limit-reached', cells: new Int32Array(0), cost: Infinity, costMeasure: 'steps', expanded: 0, reached: -1, reason: null, avoided: true, points: null, layers: null }) as PathResult;

/**
 * What one A* expansion counts against `planBudget`, in its unit: a cell a jump point search
 * scans, about 8 ns; an A* expansion (a heap pop, eight neighbours) costs some 30 times that. @internal
 */
export const ASTAR_WORK = 32;

/** Searches spread over steps at once (each holds a search slot: about 20 bytes per cell of the map). */
const MAX_SLICED = 2;

/** Expansions per slice of the searches GridPlanner.prepare runs: many slices, so resuming a search is run too. */
const WARM_SLICE = 4096;

/** Work per expansion a spread jump point search is first taken to do (see GridPlanner's stepSliced). */
const JUMP_WORK_GUESS = 16;

/** A search of an agent's spread over steps: the goal cell it searches for, whether as near as it gets, whether it jumps (its work counts cells, not expansions). */
interface Sliced {
  search: PathSearch;
  gx: number;
  gy: number;
  nearest: boolean;
  jump: boolean;
}

/** Cells of a path searched for the one an agent that walked on while the search ran joins it at (see joinIndex). */
const JOIN_SCAN = 512;

type InternalFindOptions = InternalPathOptions;

/** Rounds a cell coordinate to the cell holding it (a cell spans its centre ± 0.5). */
export function cellOf(v: number): number {
  return Math.floor(v + 0.5);
}

/** Index of the cell holding point (x, y) (cell coordinates), or -1 off the grid. */
export function cellIndexAt(grid: NavGrid, x: number, y: number): number {
  const cx = cellOf(x);
  const cy = cellOf(y);
  return cx >= 0 && cy >= 0 && cx < grid.width && cy < grid.height ? cy * grid.width + cx : -1;
}

/** Whether the cell holding point (x, y) (cell coordinates) is on the grid and walkable on `layer`. */
export function walkableAt(grid: NavGrid, layer: number, x: number, y: number): boolean {
  const cx = Math.floor(x + 0.5);
  const cy = Math.floor(y + 0.5);
  return cx >= 0 && cy >= 0 && cx < grid.width && cy < grid.height && grid.layers[layer].walkable[cy * grid.width + cx] === 1;
}

/**
 * Whether a disc may move straight from (x0, y0) to (x1, y1) (cell coordinates) on `layer`: the
 * cell it ends in is walkable and, on a layer with walls on cell edges ({@link NavGrid.setEdgeWall}),
 * the segment crosses or touches none (the exact segment test of line of sight, corners not
 * checked against blocked cells). Pushes and slides use it, so no shove carries a unit through a
 * fence.
 */
export function canMoveTo(grid: NavGrid, layer: number, x0: number, y0: number, x1: number, y1: number): boolean {
  if (!walkableAt(grid, layer, x1, y1)) return false;
  const view = grid.searchView(layer);
  return view.walls === null || lineOfSight(view, x0, y0, x1, y1, 2);
}

/**
 * The default planner, built on the core's queries: the cascade of
 * `findPath` with `nearest` and obstacles (around the standing agents, then through them, then to the reachable
 * cell nearest the goal), string pulling with the exact line of sight ({@link smoothPath}) and the
 * exact target as the last waypoint when the goal was reached. Obstacles arrive in cells already
 * scaled by the radius fraction, so they are passed on in world units with a fraction of 1.
 */
export class GridPlanner implements AgentPlanner {
  /** The grid planned on. */
  readonly grid: NavGrid;
  /**
   * True when the goal cannot be reached and the last plan approaches the reachable cell nearest
   * it instead (the system flags the agent unreachable while it walks there).
   */
  lastPartial = false;
  /** The far end of the link the last plan's waypoints lead to, or null (see {@link AgentPlanner.lastLink}). */
  lastLink: LinkEnd | null = null;
  /**
   * Walk as close as possible to an unreachable goal; false: no plan (the agent stands, flagged
   * unreachable).
   * @default true
   */
  readonly nearest: boolean;
  /** Straighten paths by string pulling; false keeps cell centres. @default true */
  readonly smooth: boolean;
  private readonly worldObstacles: DynamicObstacle[] = [];
  /** The overlay the last search around standing agents read (valid until the next plan). */
  private aroundView: SearchView | undefined;
  /** Plans answered by a straight line without a search (see lineClear). */
  straightPlans = 0;
  /**
   * The searches' scratch and jump point planes, reused across plans; a NavigationSystem builds
   * its group orders' flow fields with the same one, so the map's search tables exist once.
   */
  readonly pathfinder: Pathfinder;
  /** Obstacle overlays (one per layer), reused across plans. */
  private readonly overlays: ObstacleOverlay[] = [];
  /** True after a plan that ran out of its `maxExpansions`: ask again at a later step (see AgentPlanner.lastPending). */
  lastPending = false;
  /** Search work the last plan did (see AgentPlanner.lastWork). */
  lastWork = 0;
  /** Expansions left to the plan being made. */
  private left = Infinity;
  /** The last search of the plan being made was (or would have been) a jump point search. */
  private jumped = false;
  /** The plan being made ran out of its budget. */
  private cut = false;
  /** The agent the plan being made is for. */
  private agentNow = -1;
  /** Agents whose last plan ran out of its budget (once more, and their search is spread over steps). */
  private readonly cutOnce = new Set<number>();
  /** Agents whose search is spread over steps (see Sliced). */
  private readonly sliced = new Map<number, Sliced>();
  /** Agents whose search is to be spread over steps once a search slot is free: true for a jump point search, false for A* as near as it gets. */
  private readonly queued = new Map<number, boolean>();
  /** Agents whose next plan runs whole: their search could not be spread (a layer with links). */
  private readonly unbounded = new Set<number>();

  /**
   * `pathfinder`: the Pathfinder on `grid` to search with (one another planner or the caller
   * shares); a TilenavError when it searches another grid. @default a new Pathfinder(grid)
   */
  constructor(grid: NavGrid, options: { nearest?: boolean; smooth?: boolean; pathfinder?: Pathfinder } = {}) {
    this.grid = grid;
    this.nearest = options.nearest ?? true;
    this.smooth = options.smooth ?? true;
    if (options.pathfinder !== undefined && options.pathfinder.grid !== grid) throw new TilenavError('expected a Pathfinder over the same grid as the planner', { element: 'pathfinder' });
    this.pathfinder = options.pathfinder ?? new Pathfinder(grid);
  }

  /**
   * Builds the search view and jump point planes of `layer` that plans read, and readies the
   * searches spread over steps (a plan longer than a step's budget): their two search slots are
   * made and written over (a search over the component of the layer's first walkable cell, in
   * slices, on each), and a jump point search runs in slices too; the plans' own search scratch
   * is written over by one more such search, whole. Without this, the first long plans of a game
   * run on memory the process has not touched yet (a page fault every few cells) and through code
   * the compiler has not seen run, a step of them taking several times its budget's time. The
   * slots stay with the Pathfinder (about 20 bytes per cell each, see Pathfinder.begin).
   */
  prepare(layer: number, movement: MovementName): void {
    this.pathfinder.prepare({ layer, movement });
    const walkable = this.grid.layers[layer].walkable;
    const first = walkable.indexOf(1);
    const last = walkable.lastIndexOf(1);
    if (first < 0 || first === last || hasLinksFrom(this.grid, layer)) return;
    const grid = this.grid;
    const [sx, sy, gx, gy] = [grid.xOf(first), grid.yOf(first), grid.xOf(last), grid.yOf(last)];
    const searches: PathSearch[] = [];
    for (let k = 0; k < MAX_SLICED; k++) searches.push(this.pathfinder.begin(sx, sy, gx, gy, { layer, movement, nearest: true }));
    const reached = finish(searches[0]).reached;
    for (let k = 1; k < MAX_SLICED; k++) finish(searches[k]);
    if (reached >= 0 && reached !== first) finish(this.pathfinder.begin(sx, sy, grid.xOf(reached), grid.yOf(reached), { layer, movement }));
    // The plans' own searches: their scratch written over the same way.
    this.pathfinder.findPath(sx, sy, gx, gy, { layer, movement, nearest: true });
  }

  plan(req: PlanRequest): Float64Array | null {
    const grid = this.grid;
    this.lastPartial = false;
    this.lastLink = null;
    this.lastPending = false;
    this.lastWork = 0;
    this.left = req.maxWork ?? Infinity;
    this.cut = false;
    this.agentNow = req.agent;
    const sx = cellOf(req.fromX);
    const sy = cellOf(req.fromY);
    const gx = cellOf(req.toX);
    const gy = cellOf(req.toY);
    const goalLayer = req.goalLayer ?? req.layer;
    const running = this.sliced.get(req.agent);
    if (running !== undefined) {
      if (running.gx === gx && running.gy === gy && grid.isWalkable(sx, sy, req.layer)) return this.stepSliced(req, running);
      this.forget(req.agent);
    }
    if (!grid.isWalkable(sx, sy, req.layer) || !grid.inBounds(gx, gy)) return this.forget(req.agent);
    if (!this.nearest && !grid.isWalkable(gx, gy, goalLayer)) return this.forget(req.agent);
    const jump = this.queued.get(req.agent);
    if (jump !== undefined) {
      // Waits for a search slot (at most MAX_SLICED searches are spread at once), doing no work.
      if (this.sliced.size >= MAX_SLICED) return this.wait();
      this.queued.delete(req.agent);
      return this.slice(req, sx, sy, gx, gy, jump && grid.isWalkable(gx, gy, req.layer) ? false : this.nearest);
    }
    const hex = !canSmooth(req.movement);
    // The straight line past the walls: the plan when no standing agent is near it, and the path
    // through them when the way around them fails (what the search and string pulling would give).
    const line = this.smooth && !hex && goalLayer === req.layer && this.lineClear(req, gx, gy);
    if (line && this.clearOfAgents(req)) {
      this.straightPlans++;
      this.forget(req.agent);
      return Float64Array.of(req.toX, req.toY);
    }
    const proj = grid.projection;
    const step = cellStep(proj);
    const obstacles = this.worldObstacles;
    obstacles.length = 0;
    for (const o of req.obstacles) {
      const w = proj.cellToWorld(o.x, o.y);
      obstacles.push({ x: w.x, y: w.y, z: w.z, radius: o.radius * step });
    }
    const r = this.search(sx, sy, gx, gy, req.layer, goalLayer, req.movement, line);
    if (this.cut) {
      // Out of this step's budget. Cut short twice (the second time with a whole step's budget,
      // as the system plans it first then): the search is longer than one step may run, and goes
      // on as a search spread over the next steps (a jump point search where one applies). But
      // a jump point search after the way around standing agents failed runs whole at its next
      // turn, the search around them included: a search spread over steps does not walk around
      // them, and a unit walled in by a crowd would find the same blocked way again.
      if (!this.cutOnce.has(req.agent)) this.cutOnce.add(req.agent);
      else if (this.jumped && obstacles.length > 0) this.unbounded.add(req.agent);
      else this.queued.set(req.agent, this.jumped);
      return this.wait();
    }
    this.cutOnce.delete(req.agent);
    if (r === null) {
      this.straightPlans++;
      return Float64Array.of(req.toX, req.toY);
    }
    return this.waypoints(req, r, r.avoided && obstacles.length > 0 ? this.aroundView : undefined, false);
  }

  /**
   * Waypoints along search answer `r` (string-pulled over `view`, the overlay the search saw
   * when it went around standing agents): without the start cell (the agent stands in it) unless
   * `keepFirst`, ending at the exact target when the goal was reached, or at the near end of the
   * first link the path takes (see lastLink); null when there is nothing to walk.
   */
  private waypoints(req: PlanRequest, r: PathResult, view: SearchView | undefined, keepFirst: boolean): Float64Array | null {
    const grid = this.grid;
    if (r.status === 'partial' && !this.nearest) return null;
    // Partial with the start alone: already as near as it gets, nothing to walk.
    if ((r.status !== 'found' && r.status !== 'partial') || r.cells.length === 0 || (r.status === 'partial' && r.cells.length === 1 && !keepFirst)) return null;
    this.lastPartial = r.status === 'partial';
    // Up to the first link the path takes: the unit takes it there, then plans on (see lastLink).
    const jump = firstLinkStep(grid, req.layer, r.cells, r.layers);
    const cells = jump < 0 ? r.cells : r.cells.subarray(0, jump);
    if (jump >= 0) this.lastLink = { x: grid.xOf(r.cells[jump]), y: grid.yOf(r.cells[jump]), layer: r.layers === null ? req.layer : r.layers[jump] };
    const pts = this.smooth && canSmooth(req.movement) ? smoothPath(grid, cells, { layer: req.layer, movement: req.movement, view }) : cellsToPoints(grid, cells);
    // Drop the start cell: the agent stands in it already. The exact target replaces the goal centre.
    const skip = keepFirst ? 0 : 1;
    const n = pts.length / 2 - skip;
    const out = new Float64Array(Math.max(1, n) * 2);
    out.set(pts.subarray(2 * skip, 2 * skip + 2 * n));
    if (n === 0) {
      out[0] = pts[0];
      out[1] = pts[1];
    }
    if (r.status === 'found' && jump < 0) {
      out[out.length - 2] = req.toX;
      out[out.length - 1] = req.toY;
    }
    return out;
  }

  /**
   * Starts agent `req.agent`'s search as one spread over steps ({@link Pathfinder.begin}: with
   * `nearest` false (a jump point search cut short, to a walkable goal) the search findPath runs,
   * a jump point search where the layer allows, and A* as near as it gets when that finds no path;
   * else A* as near as it gets) and runs its first slice, stepped with what is left of each step's
   * budget. On a layer with links (which such a search does not follow)
   * the search runs whole at the next plan.
   */
  private slice(req: PlanRequest, sx: number, sy: number, gx: number, gy: number, nearest: boolean): Float64Array | null {
    this.cutOnce.delete(req.agent);
    if (hasLinksFrom(this.grid, req.layer) || (req.goalLayer ?? req.layer) !== req.layer) {
      this.unbounded.add(req.agent);
      return this.wait();
    }
    if (nearest && !this.nearest) return null;
    const search = this.pathfinder.begin(sx, sy, gx, gy, { layer: req.layer, movement: req.movement, nearest });
    const entry: Sliced = { search, gx, gy, nearest, jump: !nearest && this.pathfinder.mayJump(req.layer, req.movement) };
    this.sliced.set(req.agent, entry);
    return this.stepSliced(req, entry);
  }

  /**
   * Slices of agent `req.agent`'s spread search, as many as what is left of the step's budget
   * allows; once it answers, the waypoints from where the agent stands now.
   */
  private stepSliced(req: PlanRequest, entry: Sliced): Float64Array | null {
    const search = entry.search;
    let r = search.result;
    // A jump point search's expansions scan runs of cells: a slice asks for as many as the
    // budget left allows at the work per expansion seen so far (its `work` counts them exactly).
    const unit = entry.jump ? 1 : ASTAR_WORK;
    while (r === null) {
      const per = entry.jump ? Math.max(JUMP_WORK_GUESS, search.expanded > 0 ? search.work / search.expanded : 0) : 1;
      const expansions = Math.floor(this.left / (unit * per));
      if (!(expansions >= 1)) break;
      const before = search.work;
      r = search.step({ maxExpansions: expansions });
      const work = Math.max(1, search.work - before) * unit;
      this.lastWork += work;
      this.left -= work;
    }
    if (r === null) return this.wait();
    this.sliced.delete(req.agent);
    // No path to the goal itself (the grid changed meanwhile): as near as it gets, spread as well.
    if (r.status === 'no-path' && !entry.nearest) return this.slice(req, cellOf(req.fromX), cellOf(req.fromY), entry.gx, entry.gy, true);
    if (r.status !== 'found' && r.status !== 'partial') return null;
    // The agent walked on while the search ran: it joins the path where that is shortest.
    const cells = r.cells;
    const view = this.grid.searchView(req.layer);
    const k = joinIndex(this.grid, view, cells, req.fromX, req.fromY, movementModel(req.movement).corner);
    const here = cellIndexAt(this.grid, req.fromX, req.fromY);
    const from = k < 0 ? 0 : k;
    const rest = from > 0 ? { ...r, cells: cells.subarray(from) } : r;
    return this.waypoints(req, rest, undefined, rest.cells[0] !== here);
  }

  /** Drops agent `agent`'s spread search, if any; null. */
  private forget(agent: number): null {
    const s = this.sliced.get(agent);
    if (s !== undefined) {
      s.search.cancel();
      this.sliced.delete(agent);
    }
    this.cutOnce.delete(agent);
    this.unbounded.delete(agent);
    this.queued.delete(agent);
    return null;
  }

  private wait(): null {
    this.lastPending = true;
    return null;
  }

  /**
   * One search of the plan, bounded by what is left of the plan's budget (and by `cap`, its own
   * bound), its work counted; a search the budget (not `cap`) stopped sets `cut`.
   */
  private find(sx: number, sy: number, gx: number, gy: number, options: InternalFindOptions, cap = Infinity): PathResult {
    // Jump point search may pass its limit by up to two scans: it gets that much less. An A*
    // expansion costs ASTAR_WORK units of the budget (`cap` counts expansions).
    const layer = this.grid.layerIndex(options.layer ?? 0);
    const jump = options.nearest !== true && options.view === undefined && (options.goalLayer ?? layer) === layer && !hasLinksFrom(this.grid, layer) && this.pathfinder.mayJump(layer, options.movement ?? 'octile');
    const slack = jump ? 2 * Math.max(this.grid.width, this.grid.height) : 0;
    const unit = jump ? 1 : ASTAR_WORK;
    const limit = Math.min(cap, Math.floor((this.left - slack) / unit));
    this.jumped = jump;
    if (!(limit >= 1)) {
      this.cut = true;
      return LIMITED;
    }
    if (limit !== Infinity) options.maxIterations = limit;
    const r = this.pathfinder.findPathOn(sx, sy, gx, gy, options);
    // Counted as maxIterations counts (jump point search: its jumps' cells too), at least one per search.
    const work = Math.max(1, this.pathfinder.lastWork) * unit;
    this.lastWork += work;
    this.left -= work;
    if (r.status === 'limit-reached' && limit < cap) this.cut = true;
    return r;
  }

  /**
   * Whether the straight line from (req.fromX, req.fromY) to the target is the shortest way past
   * the walls: the goal cell is walkable, every step costs the same, and the line of sight is
   * clear under the movement's corner rule. What the search and string pulling would return, for
   * the price of one line walk: most orders of a unit near its goal (a group's last stretch to its
   * slot, a step aside and back) are such lines.
   */
  private lineClear(req: PlanRequest, gx: number, gy: number): boolean {
    const grid = this.grid;
    if (!grid.isWalkable(gx, gy, req.layer) || hasLinksFrom(grid, req.layer)) return false;
    const view = grid.searchView(req.layer);
    if (!view.uniform) return false;
    return lineOfSight(view, req.fromX, req.fromY, req.toX, req.toY, movementModel(req.movement).corner);
  }

  /** Whether the straight line to the target passes no standing agent (its stamped radius plus half a cell). */
  private clearOfAgents(req: PlanRequest): boolean {
    for (const o of req.obstacles) {
      if (segmentDistance(o.x, o.y, req.fromX, req.fromY, req.toX, req.toY) <= o.radius + 0.5) return false;
    }
    return true;
  }

  /**
   * The cascade of `findPath` with obstacles and `nearest`, with a bounded first step: a path around the standing agents
   * (first searched from the goal for at most `PROBE_BUDGET` expansions, then from the start for
   * at most `AROUND_BUDGET_BASE` nodes plus `AROUND_BUDGET_PER_CELL` per cell of the octile
   * distance), then the path through them (or to the nearest reachable cell). A goal
   * walled in by standing units (a slot in a packed crowd) would otherwise make the search around
   * them explore the start's whole component, hundreds of milliseconds on a big map, before
   * settling for the path through them. Null when the way around fails and `line` says the
   * straight line is the path through them: no search over the map for what one line walk gave.
   */
  private search(sx: number, sy: number, gx: number, gy: number, layer: number, goalLayer: number, movement: MovementName, line: boolean): PathResult | null {
    const grid = this.grid;
    const obstacles = this.worldObstacles;
    if (this.unbounded.delete(this.agentNow)) this.left = Infinity;
    if (obstacles.length > 0 && grid.isWalkable(gx, gy, goalLayer)) {
      const overlay = (this.overlays[layer] ??= new ObstacleOverlay(grid, layer));
      const view = (this.aroundView = overlay.stamp(obstacles, sx, sy, gx, gy, { radiusFraction: 1, influence: Infinity }));
      // Ways are the same both ways round unless cells have one-way exits: a short search from the
      // goal proves at once a goal walled in by standing units (the search from the start would
      // spend its whole budget), and on uniform costs the path it finds, reversed, is the plan.
      let walledIn = false;
      // Links may be one way: then a way back is no way there.
      if (view.exits === null && !hasLinksFrom(grid, layer) && goalLayer === layer) {
        const probe = this.find(gx, gy, sx, sy, { layer, movement, view }, PROBE_BUDGET);
        if (this.cut) return null;
        if (probe.status === 'found' && view.uniform) return { ...probe, cells: probe.cells.slice().reverse(), reached: gy * grid.width + gx, avoided: true };
        walledIn = probe.status === 'no-path' || probe.status === 'invalid-start';
      }
      if (!walledIn) {
        const dx = Math.abs(gx - sx);
        const dy = Math.abs(gy - sy);
        const cap = AROUND_BUDGET_BASE + AROUND_BUDGET_PER_CELL * (Math.max(dx, dy) + (Math.SQRT2 - 1) * Math.min(dx, dy));
        const around = this.find(sx, sy, gx, gy, { layer, goalLayer, movement, view }, cap);
        if (this.cut) return null;
        if (around.status === 'found') return { ...around, avoided: true };
      }
      if (line) return null;
    }
    // Links take it across the layer, and to other layers (stairs): the path says where (its
    // layers). A reachable goal first, without `nearest` (jump point search answers that where it
    // applies, and the component labels say at once when the goal is out of reach); as near as it
    // gets only then.
    if (grid.isWalkable(gx, gy, goalLayer)) {
      const r = this.find(sx, sy, gx, gy, { layer, goalLayer, movement });
      if (r.status !== 'no-path' || this.cut) return r;
    }
    return this.find(sx, sy, gx, gy, { layer, goalLayer, movement, nearest: true });
  }

}

/** Runs `search` to its answer in slices of WARM_SLICE expansions (see GridPlanner.prepare). */
function finish(search: PathSearch): PathResult {
  while (search.result === null) search.step({ maxExpansions: WARM_SLICE });
  return search.result;
}

/** A link's far end an agent's plan leads to: a cell, and its layer when the link leads to another (else the agent's). */
export interface LinkEnd extends CellPoint {
  /** The far end's layer (index), when the link leads to another layer than the agent's. */
  layer?: number;
}

/** Whether `layer` has an enabled link that starts and ends on it. @internal */
export function hasLayerLinks(grid: NavGrid, layer: number): boolean {
  return grid.linksVersion !== 0 && grid.linkIndex().sameLayer[layer] === 1;
}

/** Whether an enabled link starts on `layer` (to it or to another layer). @internal */
export function hasLinksFrom(grid: NavGrid, layer: number): boolean {
  if (grid.linksVersion === 0) return false;
  const index = grid.linkIndex();
  return index.start[layer + 1] > index.start[layer];
}

/**
 * The index k of the first step cells[k - 1] -> cells[k] that takes a link: to another layer
 * (`layers`, a path's {@link PathResult.layers}, changes there) or one of `layer` itself; -1 when none.
 * @internal
 */
export function firstLinkStep(grid: NavGrid, layer: number, cells: Int32Array, layers: Uint8Array | null = null): number {
  if (layers !== null) {
    for (let k = 1; k < cells.length; k++) if (layers[k] !== layers[k - 1] || (layers[k] === layer && isLinkStep(grid, layer, cells[k - 1], cells[k]))) return k;
    return -1;
  }
  if (!hasLayerLinks(grid, layer)) return -1;
  for (let k = 1; k < cells.length; k++) if (isLinkStep(grid, layer, cells[k - 1], cells[k])) return k;
  return -1;
}

/**
 * Where an agent at (x, y) that walked on while its path was searched from (cells[0]) joins it:
 * the index k, among the first JOIN_SCAN cells, of the cell in line of sight that makes its way
 * shortest (straight to cells[k], then along the path), or -1 when none is in sight. @internal
 */
export function joinIndex(grid: NavGrid, view: SearchView, cells: Int32Array, x: number, y: number, corner: CornerRule): number {
  const w = grid.width;
  const n = Math.min(cells.length, JOIN_SCAN);
  let along = 0;
  let best = -1;
  let bestScore = Infinity;
  for (let k = 0; k < n; k++) {
    const c = cells[k];
    const cx = c % w;
    const cy = (c - cx) / w;
    if (k > 0) {
      const p = cells[k - 1];
      along += hypot(cx - (p % w), cy - ((p - (p % w)) / w));
    }
    // The way from here along the path, less what the whole path costs from its start.
    const score = hypot(cx - x, cy - y) - along;
    if (score < bestScore - 1e-9 && lineOfSight(view, x, y, cx, cy, corner)) {
      best = k;
      bestScore = score;
    }
  }
  return best;
}

/** Distance from point (px, py) to the segment (ax, ay)-(bx, by) (any units; a point segment is fine). */
export function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const vx = bx - ax;
  const vy = by - ay;
  const len2 = vx * vx + vy * vy;
  let t = len2 > 0 ? ((px - ax) * vx + (py - ay) * vy) / len2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return hypot(px - (ax + t * vx), py - (ay + t * vy));
}
