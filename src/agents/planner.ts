import { hypot } from './hypot.js';
import { TilenavError } from '../errors.js';
import type { CellPoint } from '../grid/projection.js';
import type { NavGrid, SearchView } from '../grid/navgrid.js';
import { movementModel, type MovementName } from '../search/movement.js';
import { lineOfSight } from '../path/los.js';
import type { PathResult } from '../search/result.js';
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
}

/** Expansions the search around standing agents may always use (see GridPlanner). */
const AROUND_BUDGET_BASE = 1024;
/** Further expansions per cell of the octile distance from start to goal. */
const AROUND_BUDGET_PER_CELL = 64;
/** Expansions of the search from the goal that comes first (see GridPlanner's search). */
const PROBE_BUDGET = 256;

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

  /** Builds the search view and jump point planes of `layer` that plans read. */
  prepare(layer: number, movement: MovementName): void {
    this.pathfinder.prepare({ layer, movement });
  }

  plan(req: PlanRequest): Float64Array | null {
    const grid = this.grid;
    this.lastPartial = false;
    this.lastLink = null;
    const sx = cellOf(req.fromX);
    const sy = cellOf(req.fromY);
    const gx = cellOf(req.toX);
    const gy = cellOf(req.toY);
    const goalLayer = req.goalLayer ?? req.layer;
    if (!grid.isWalkable(sx, sy, req.layer) || !grid.inBounds(gx, gy)) return null;
    if (!this.nearest && !grid.isWalkable(gx, gy, goalLayer)) return null;
    const hex = !canSmooth(req.movement);
    // The straight line past the walls: the plan when no standing agent is near it, and the path
    // through them when the way around them fails (what the search and string pulling would give).
    const line = this.smooth && !hex && goalLayer === req.layer && this.lineClear(req, gx, gy);
    if (line && this.clearOfAgents(req)) {
      this.straightPlans++;
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
    if (r === null) {
      this.straightPlans++;
      return Float64Array.of(req.toX, req.toY);
    }
    if (r.status === 'partial' && !this.nearest) return null;
    // Partial with the start alone: already as near as it gets, nothing to walk.
    if ((r.status !== 'found' && r.status !== 'partial') || r.cells.length === 0 || (r.status === 'partial' && r.cells.length === 1)) return null;
    this.lastPartial = r.status === 'partial';
    // Up to the first link the path takes: the unit takes it there, then plans on (see lastLink).
    const jump = firstLinkStep(grid, req.layer, r.cells, r.layers);
    const cells = jump < 0 ? r.cells : r.cells.subarray(0, jump);
    if (jump >= 0) this.lastLink = { x: grid.xOf(r.cells[jump]), y: grid.yOf(r.cells[jump]), layer: r.layers === null ? req.layer : r.layers[jump] };
    // Smooth over what the search saw: through the obstacle overlay when the path went around them.
    const view = r.avoided && obstacles.length > 0 ? this.aroundView : undefined;
    const pts = this.smooth && !hex ? smoothPath(grid, cells, { layer: req.layer, movement: req.movement, view }) : cellsToPoints(grid, cells);
    // Drop the start cell: the agent stands in it already. The exact target replaces the goal centre.
    const n = pts.length / 2 - 1;
    const out = new Float64Array(Math.max(1, n) * 2);
    out.set(pts.subarray(2, 2 + 2 * n));
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
    if (obstacles.length > 0 && grid.isWalkable(gx, gy, goalLayer)) {
      const overlay = (this.overlays[layer] ??= new ObstacleOverlay(grid, layer));
      const view = (this.aroundView = overlay.stamp(obstacles, sx, sy, gx, gy, { radiusFraction: 1, influence: Infinity }));
      // Ways are the same both ways round unless cells have one-way exits: a short search from the
      // goal proves at once a goal walled in by standing units (the search from the start would
      // spend its whole budget), and on uniform costs the path it finds, reversed, is the plan.
      let walledIn = false;
      // Links may be one way: then a way back is no way there.
      if (view.exits === null && !hasLinksFrom(grid, layer) && goalLayer === layer) {
        const probe = this.pathfinder.findPathOn(gx, gy, sx, sy, { layer, movement, view, maxIterations: PROBE_BUDGET });
        if (probe.status === 'found' && view.uniform) return { ...probe, cells: probe.cells.slice().reverse(), reached: gy * grid.width + gx, avoided: true };
        walledIn = probe.status === 'no-path' || probe.status === 'invalid-start';
      }
      if (!walledIn) {
        const dx = Math.abs(gx - sx);
        const dy = Math.abs(gy - sy);
        const maxIterations = AROUND_BUDGET_BASE + AROUND_BUDGET_PER_CELL * (Math.max(dx, dy) + (Math.SQRT2 - 1) * Math.min(dx, dy));
        const around = this.pathfinder.findPathOn(sx, sy, gx, gy, { layer, goalLayer, movement, view, maxIterations });
        if (around.status === 'found') return { ...around, avoided: true };
      }
      if (line) return null;
    }
    // Links take it across the layer, and to other layers (stairs): the path says where (its layers).
    return this.pathfinder.findPathOn(sx, sy, gx, gy, { layer, goalLayer, movement, nearest: true });
  }

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

/** Distance from point (px, py) to the segment (ax, ay)-(bx, by) (any units; a point segment is fine). */
export function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const vx = bx - ax;
  const vy = by - ay;
  const len2 = vx * vx + vy * vy;
  let t = len2 > 0 ? ((px - ax) * vx + (py - ay) * vy) / len2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return hypot(px - (ax + t * vx), py - (ay + t * vy));
}
