import type { NavGrid } from '../grid/navgrid.js';
import { movementModel, type MovementName } from '../search/movement.js';
import { findPathToNearest } from '../query/navigate.js';
import { overlayFor, type DynamicObstacle } from '../query/obstacles.js';
import { cellStep, cellsToPoints, smoothPath } from '../path/smooth.js';

/**
 * A standing agent that should be walked around when planning: centre in cell coordinates and
 * the radius to block (already scaled by the radius fraction), in cells.
 */
export interface AgentObstacle {
  x: number;
  y: number;
  radius: number;
}

/** One planning request. Positions are cell coordinates: cell (x, y)'s centre is (x, y). */
export interface PlanRequest {
  agent: number;
  fromX: number;
  fromY: number;
  toX: number;
  toY: number;
  /** Standing agents near the way; empty when none. Valid only during the call. */
  obstacles: readonly AgentObstacle[];
  layer: number;
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
  readonly lastPartial?: boolean;
  /**
   * Planners that answer later (see ServicePlanner) set this after a `plan` call that has no
   * waypoints yet: the system then leaves the agent as it is (standing, or on its old path) and
   * asks again at a later step, skipping it while `pending(agent)` is true. `beginStep` runs once
   * at the start of each step's planning, to collect what arrived.
   */
  readonly lastPending?: boolean;
  pending?(agent: number): boolean;
  beginStep?(): void;
}

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
 * The default planner, built on the core's queries: the cascade of
 * {@link findPathToNearest} (around the standing agents, then through them, then to the reachable
 * cell nearest the goal), string pulling with the exact line of sight ({@link smoothPath}) and the
 * exact target as the last waypoint when the goal was reached. Obstacles arrive in cells already
 * scaled by the radius fraction, so they are passed on in world units with a fraction of 1.
 */
export class GridPlanner implements AgentPlanner {
  readonly grid: NavGrid;
  /**
   * True when the goal cannot be reached and the last plan approaches the reachable cell nearest
   * it instead (the system flags the agent unreachable while it walks there).
   */
  lastPartial = false;
  /**
   * Walk as close as possible to an unreachable goal; false: no plan (the agent stands, flagged
   * unreachable).
   * @default true
   */
  readonly nearest: boolean;
  /** Straighten paths by string pulling; false keeps cell centres. @default true */
  readonly smooth: boolean;
  private readonly worldObstacles: DynamicObstacle[] = [];

  constructor(grid: NavGrid, options: { nearest?: boolean; smooth?: boolean } = {}) {
    this.grid = grid;
    this.nearest = options.nearest ?? true;
    this.smooth = options.smooth ?? true;
  }

  plan(req: PlanRequest): Float64Array | null {
    const grid = this.grid;
    this.lastPartial = false;
    const sx = cellOf(req.fromX);
    const sy = cellOf(req.fromY);
    const gx = cellOf(req.toX);
    const gy = cellOf(req.toY);
    if (!grid.isWalkable(sx, sy, req.layer) || !grid.inBounds(gx, gy)) return null;
    if (!this.nearest && !grid.isWalkable(gx, gy, req.layer)) return null;
    const proj = grid.projection;
    const step = cellStep(proj);
    const obstacles = this.worldObstacles;
    obstacles.length = 0;
    for (const o of req.obstacles) {
      const w = proj.cellToWorld(o.x, o.y);
      obstacles.push({ x: w.x, y: w.y, z: w.z, radius: o.radius * step });
    }
    const r = findPathToNearest(grid, sx, sy, gx, gy, { layer: req.layer, movement: req.movement, obstacles, radiusFraction: 1, influence: Infinity });
    if (r.status === 'partial' && !this.nearest) return null;
    if ((r.status !== 'found' && r.status !== 'partial') || r.cells.length === 0) return null;
    this.lastPartial = r.status === 'partial';
    const hex = movementModel(req.movement).heuristic !== 'octile' && movementModel(req.movement).heuristic !== 'manhattan';
    // Smooth over what the search saw: through the obstacle overlay when the path went around them.
    const view = r.avoided && obstacles.length > 0 ? overlayFor(grid, req.layer).stamp(obstacles, sx, sy, gx, gy, { radiusFraction: 1, influence: Infinity }) : undefined;
    const pts = this.smooth && !hex ? smoothPath(grid, r.cells, { layer: req.layer, movement: req.movement, view }) : cellsToPoints(grid, r.cells);
    // Drop the start cell: the agent stands in it already. The exact target replaces the goal centre.
    const n = pts.length / 2 - 1;
    const out = new Float64Array(Math.max(1, n) * 2);
    out.set(pts.subarray(2, 2 + 2 * n));
    if (n === 0) {
      out[0] = pts[0];
      out[1] = pts[1];
    }
    if (r.status === 'found') {
      out[out.length - 2] = req.toX;
      out[out.length - 1] = req.toY;
    }
    return out;
  }
}
