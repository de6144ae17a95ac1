import type { NavGrid } from '../grid/navgrid.js';
import { Pathfinder } from '../search/astar.js';
import type { MovementName } from '../search/movement.js';

/**
 * A standing agent that should be walked around when planning (seed 001 §6): centre in cell
 * coordinates and the radius to block (already scaled by the radius fraction), in cells.
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
 * reachable point; the system only follows what comes back.
 *
 * Issue 5 (branch `queries`) plugs in here: a planner whose `plan` calls `planPath(grid, start,
 * end, { obstacles, layer, movement })` (snapping, findPathToNearest's cascade, string pulling)
 * and returns its `points` replaces {@link GridPlanner} as the default in `NavigationSystem`'s
 * constructor (`options.planner ?? new GridPlanner(grid)`).
 */
export interface AgentPlanner {
  /**
   * Waypoints to walk through as [x0, y0, x1, y1, ...] in cell coordinates, not including the
   * agent's own position and ending at the goal (or wherever the planner decided to stop); null
   * when there is no way. Must be deterministic.
   */
  plan(request: PlanRequest): Float64Array | null;
}

/** Rounds a cell coordinate to the cell holding it (a cell spans its centre ± 0.5). */
export function cellOf(v: number): number {
  return Math.floor(v + 0.5);
}

/**
 * The default planner: the core's A* from the cell holding the agent to the cell holding the
 * target, cell centres as waypoints, the exact target as the last one. Standing agents are
 * stamped blocked for one search and the search is retried without them when that fails (seed
 * 001's fallback: a unit in a doorway is walked through and nudged aside). No snapping, no
 * smoothing and no nearest-reachable approach: those are issue 5's and plug in through
 * {@link AgentPlanner}.
 */
export class GridPlanner implements AgentPlanner {
  readonly grid: NavGrid;
  readonly finder: Pathfinder;
  private stamped = new Int32Array(256);
  private saved = new Float32Array(256);

  /**
   * Expansions allowed to the search around standing agents, per cell of octile distance between
   * start and goal (plus 256): when they wall the goal in, the search would otherwise explore the
   * start's whole region before the fallback runs.
   * @default 64
   */
  readonly obstacleSearchFactor: number;

  constructor(grid: NavGrid, finder: Pathfinder = new Pathfinder(grid), obstacleSearchFactor = 64) {
    this.grid = grid;
    this.finder = finder;
    this.obstacleSearchFactor = obstacleSearchFactor;
  }

  plan(req: PlanRequest): Float64Array | null {
    const grid = this.grid;
    const sx = cellOf(req.fromX);
    const sy = cellOf(req.fromY);
    const gx = cellOf(req.toX);
    const gy = cellOf(req.toY);
    if (!grid.isWalkable(sx, sy, req.layer) || !grid.isWalkable(gx, gy, req.layer)) return null;
    const opts = { layer: req.layer, movement: req.movement };
    let cells: Int32Array | null = null;
    if (req.obstacles.length > 0) {
      const n = this.stamp(req, sx, sy, gx, gy);
      try {
        const dx = Math.abs(gx - sx);
        const dy = Math.abs(gy - sy);
        const maxIterations = 256 + this.obstacleSearchFactor * (Math.max(dx, dy) + 0.5 * Math.min(dx, dy));
        const r = this.finder.findPath(sx, sy, gx, gy, { ...opts, maxIterations });
        if (r.status === 'found') cells = r.cells;
      } finally {
        this.unstamp(req.layer, n);
      }
    }
    if (cells === null) {
      const r = this.finder.findPath(sx, sy, gx, gy, opts);
      if (r.status !== 'found') return null;
      cells = r.cells;
    }
    // Drop the start cell: the agent stands in it already; the exact target replaces the goal centre.
    const n = cells.length - 1;
    const out = new Float64Array(Math.max(1, n) * 2);
    for (let k = 1; k < n; k++) {
      out[(k - 1) * 2] = grid.xOf(cells[k]);
      out[(k - 1) * 2 + 1] = grid.yOf(cells[k]);
    }
    out[out.length - 2] = req.toX;
    out[out.length - 1] = req.toY;
    return out;
  }

  /**
   * Blocks, in the search's padded copy of the layer, each cell whose centre lies inside an
   * obstacle circle (and the cell holding its centre), never the start or goal cell. Restored by
   * unstamp before anything else can read the view; the grid's own arrays are never written.
   */
  private stamp(req: PlanRequest, sx: number, sy: number, gx: number, gy: number): number {
    const grid = this.grid;
    const view = grid.searchView(req.layer);
    const W = view.stride;
    let n = 0;
    for (const o of req.obstacles) {
      const r = o.radius;
      const x0 = Math.max(0, Math.floor(o.x - r));
      const x1 = Math.min(grid.width - 1, Math.ceil(o.x + r));
      const y0 = Math.max(0, Math.floor(o.y - r));
      const y1 = Math.min(grid.height - 1, Math.ceil(o.y + r));
      const cx = cellOf(o.x);
      const cy = cellOf(o.y);
      for (let y = y0; y <= y1; y++) {
        for (let x = x0; x <= x1; x++) {
          if ((x === sx && y === sy) || (x === gx && y === gy)) continue;
          const dx = x - o.x;
          const dy = y - o.y;
          if (dx * dx + dy * dy > r * r && !(x === cx && y === cy)) continue;
          const p = (y + 1) * W + x + 1;
          if (view.pass[p] === 0) continue;
          if (n === this.stamped.length) this.grow();
          this.stamped[n] = p;
          this.saved[n] = view.pass[p];
          view.pass[p] = 0;
          n++;
        }
      }
    }
    return n;
  }

  private unstamp(layer: number, n: number): void {
    const pass = this.grid.searchView(layer).pass;
    for (let k = n - 1; k >= 0; k--) pass[this.stamped[k]] = this.saved[k];
  }

  private grow(): void {
    const s = new Int32Array(this.stamped.length * 2);
    s.set(this.stamped);
    this.stamped = s;
    const v = new Float32Array(this.saved.length * 2);
    v.set(this.saved);
    this.saved = v;
  }
}
