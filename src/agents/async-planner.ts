/**
 * Planning agents through a PathService: the searches run on worker threads, the fixed step
 * never waits for them. Only types come from the service, so `tilenav/agents` stays free of Node
 * and the DOM; give it the service of your environment (`tilenav/service`).
 */
import type { NavGrid } from '../grid/navgrid.js';
import { canSmooth, cellsToPoints, smoothPath } from '../path/smooth.js';
import type { PathService, ServiceResult } from '../service/service.js';
import { cellOf, firstLinkStep, type AgentPlanner, type LinkEnd, type PlanRequest } from './planner.js';

/** What the planner knows about one agent's path request. */
interface Asked {
  /** The service's request id; -1 once the answer has arrived. */
  id: number;
  sx: number;
  sy: number;
  gx: number;
  gy: number;
  /** The target's layer. */
  gl: number;
  /** The answer's status, once it arrived. */
  status: string;
  cells: Int32Array | null;
  /** Each cell's layer when the path changes layer (stairs), else null. */
  layers: Uint8Array | null;
  stale: boolean;
  /** Requests made for this plan so far (re-asked when stale or when the agent moved off it). */
  asks: number;
}

/** Options of {@link ServicePlanner}. */
export interface ServicePlannerOptions {
  /** Straighten paths by string pulling (on the main thread, when the answer arrives). @default true */
  smooth?: boolean;
  /**
   * Milliseconds per step spent in `plan`: sending requests and turning arrived answers into
   * waypoints (string pulling costs up to a millisecond per long path); the agents left over are
   * planned at the next steps. @default 1
   */
  budgetMs?: number;
  /** The layer the agents walk on, whose search view is built now rather than in a frame. @default 0 */
  layer?: number | string;
}

/** Path cells string-pulled at once (see ServicePlanner.pulled). */
const SMOOTH_WINDOW = 8;

/** Asks for a path again at most this many times for one plan before taking what came back. */
const MAX_ASKS = 3;

/**
 * An {@link AgentPlanner} over a {@link PathService}. The first `plan` of an agent sends a request
 * and reports `lastPending`: the system leaves the agent as it is (standing, or walking its old
 * path) and skips it while {@link pending} says so. Answers are collected once per step
 * ({@link beginStep}); the next `plan` of that agent turns its answer into waypoints. An answer
 * computed on an older grid (`stale`) is asked again, as is one whose path the agent has since
 * left (it was pushed while waiting).
 *
 * Differences from {@link GridPlanner}: the searches do not walk around standing agents
 * (collision still pushes agents apart), and a goal that cannot be reached gives no plan (the
 * agent stands, flagged unreachable) instead of a walk to the nearest reachable cell.
 */
export class ServicePlanner implements AgentPlanner {
  /** The service the searches run on. */
  readonly service: PathService;
  /** The service's grid. */
  readonly grid: NavGrid;
  /** Whether paths are string-pulled (see {@link ServicePlannerOptions.smooth}). */
  readonly smooth: boolean;
  /** Milliseconds per step spent in `plan` (see {@link ServicePlannerOptions.budgetMs}). */
  readonly budgetMs: number;
  /** True after a `plan` call that sent a request (or still waits for one): no waypoints yet. */
  lastPending = false;
  /** Always false: an unreachable goal gives no plan rather than a partial one. */
  readonly lastPartial = false;
  /** The far end of the link the last plan's waypoints lead to, or null (see AgentPlanner.lastLink). */
  lastLink: LinkEnd | null = null;
  private readonly asked = new Map<number, Asked>();
  private readonly byId = new Map<number, number>();
  private spent = 0;

  /** A planner on `service`; with `smooth`, builds the search view of `options.layer` now. */
  constructor(service: PathService, options: ServicePlannerOptions = {}) {
    this.service = service;
    this.grid = service.grid;
    this.smooth = options.smooth ?? true;
    this.budgetMs = options.budgetMs ?? 1;
    // String pulling reads the grid's padded search view. The main thread never searches when the
    // workers do, so the view would otherwise be built (a copy of every cell) by the first answer's frame.
    if (this.smooth) this.grid.searchView(this.grid.layerIndex(options.layer ?? 0));
  }

  /** Collects the answers that arrived since the last step. Called by the system once per step. */
  beginStep(): void {
    this.spent = 0;
    for (const r of this.service.fetchCompleted()) this.take(r);
  }

  /** Whether agent `agent` waits for an answer still on its way. */
  pending(agent: number): boolean {
    const a = this.asked.get(agent);
    return a !== undefined && a.id >= 0;
  }

  /**
   * Waypoints from the agent's arrived answer, or a request (`lastPending` true, null returned);
   * null with `lastPending` false when there is no way (off the grid, walled start, no path).
   */
  plan(req: PlanRequest): Float64Array | null {
    // Over budget: come back next step (a thousand units ordered at once ask over a few frames).
    if (this.spent >= this.budgetMs) return this.wait();
    const t0 = performance.now();
    const out = this.planNow(req);
    this.spent += performance.now() - t0;
    return out;
  }

  private planNow(req: PlanRequest): Float64Array | null {
    this.lastPending = false;
    this.lastLink = null;
    const grid = this.grid;
    const sx = cellOf(req.fromX);
    const sy = cellOf(req.fromY);
    const gx = cellOf(req.toX);
    const gy = cellOf(req.toY);
    if (!grid.isWalkable(sx, sy, req.layer) || !grid.inBounds(gx, gy)) return this.forget(req.agent);
    const a = this.asked.get(req.agent);
    if (a === undefined || a.gx !== gx || a.gy !== gy || a.gl !== (req.goalLayer ?? req.layer)) return this.ask(req, sx, sy, gx, gy, 1);
    if (a.id >= 0) return this.wait();
    if (a.status !== 'found' || a.cells === null) {
      // A search cut short (deadline, queue full, a failed worker) is worth another try; no path is an answer.
      if ((a.status === 'deadline' || a.status === 'rejected' || a.status === 'dropped' || a.status === 'error') && a.asks < MAX_ASKS) return this.ask(req, sx, sy, gx, gy, a.asks + 1);
      return this.forget(req.agent);
    }
    // The start of the path the agent stands on now; -1 when it was pushed off the path meanwhile.
    const here = sy * grid.width + sx;
    let from = -1;
    for (let k = 0; k < a.cells.length && from < 0; k++) if (a.cells[k] === here && (a.layers === null || a.layers[k] === req.layer)) from = k;
    if ((a.stale || from < 0) && a.asks < MAX_ASKS) return this.ask(req, sx, sy, gx, gy, a.asks + 1);
    const cells = from > 0 ? a.cells.subarray(from) : a.cells;
    const layers = a.layers === null ? null : from > 0 ? a.layers.subarray(from) : a.layers;
    this.asked.delete(req.agent);
    return this.waypoints(req, cells, layers, from < 0);
  }

  /**
   * Waypoints through `cells` ending at the exact target, or at the near end of the first link the
   * path takes (then {@link lastLink} says where it leads); `prependStart` walks to the path's first
   * cell first.
   */
  private waypoints(req: PlanRequest, all: Int32Array, layers: Uint8Array | null, prependStart: boolean): Float64Array {
    const jump = firstLinkStep(this.grid, req.layer, all, layers);
    const cells = jump < 0 ? all : all.subarray(0, jump);
    if (jump >= 0) this.lastLink = { x: this.grid.xOf(all[jump]), y: this.grid.yOf(all[jump]), layer: layers === null ? req.layer : layers[jump] };
    const pts = this.smooth && canSmooth(req.movement) ? this.pulled(cells, req) : cellsToPoints(this.grid, cells);
    const skip = prependStart || pts.length <= 2 ? 0 : 2;
    const out = new Float64Array(Math.max(2, pts.length - skip));
    out.set(pts.subarray(skip, skip + out.length));
    if (jump < 0) {
      out[out.length - 2] = req.toX;
      out[out.length - 1] = req.toY;
    }
    return out;
  }

  /**
   * String pulling window by window: on one long path, a shortcut search from every waypoint to
   * every later cell costs up to the cube of its length (hundreds of milliseconds on a 1,000-cell
   * path across open rooms), too much for a frame; windows of SMOOTH_WINDOW cells bound it to
   * about a millisecond and keep most of the straightening.
   */
  private pulled(cells: Int32Array, req: PlanRequest): Float64Array {
    if (cells.length <= SMOOTH_WINDOW + 1) return smoothPath(this.grid, cells, { layer: req.layer, movement: req.movement });
    const out: number[] = [];
    for (let i = 0; i < cells.length - 1; i += SMOOTH_WINDOW) {
      const part = smoothPath(this.grid, cells.subarray(i, Math.min(cells.length, i + SMOOTH_WINDOW + 1)), { layer: req.layer, movement: req.movement });
      // Each window starts where the last one ended.
      for (let k = i === 0 ? 0 : 2; k < part.length; k++) out.push(part[k]);
    }
    return Float64Array.from(out);
  }

  private ask(req: PlanRequest, sx: number, sy: number, gx: number, gy: number, asks: number): null {
    const old = this.asked.get(req.agent);
    if (old !== undefined && old.id >= 0) {
      this.byId.delete(old.id);
      this.service.cancel(old.id);
    }
    let id: number;
    try {
      // Links take it across the layer and to other layers (stairs); the answer's layers say where.
      id = this.service.request(sx, sy, gx, gy, { layer: req.layer, goalLayer: req.goalLayer ?? req.layer, movement: req.movement, requester: req.agent });
    } catch {
      // The service was closed: nothing can be planned any more.
      return this.forget(req.agent);
    }
    this.asked.set(req.agent, { id, sx, sy, gx, gy, gl: req.goalLayer ?? req.layer, status: '', cells: null, layers: null, stale: false, asks });
    this.byId.set(id, req.agent);
    return this.wait();
  }

  private wait(): null {
    this.lastPending = true;
    return null;
  }

  private forget(agent: number): null {
    const a = this.asked.get(agent);
    if (a !== undefined && a.id >= 0) {
      this.byId.delete(a.id);
      this.service.cancel(a.id);
    }
    this.asked.delete(agent);
    return null;
  }

  private take(r: ServiceResult): void {
    const agent = this.byId.get(r.id);
    if (agent === undefined) return;
    this.byId.delete(r.id);
    const a = this.asked.get(agent);
    if (a === undefined || a.id !== r.id) return;
    a.id = -1;
    a.status = r.status;
    a.stale = r.stale || r.version < this.grid.version;
    // The service reuses its result objects: keep a copy of the cells.
    a.cells = r.status === 'found' ? r.cells.slice() : null;
    a.layers = r.status === 'found' && r.layers !== null ? r.layers.slice() : null;
  }
}
