import { TilenavError, assertLimit, assertOptionsObject, describe } from '../errors.js';
import type { CellRect, GridChange, NavGrid } from '../grid/navgrid.js';
import { assertFieldCells, checkFlowFieldQuery, flowFieldCache, type FlowField, type FlowFieldOptions } from '../agents/flowfield.js';
import type { FindPathOptions, PathRefusal, PathResult, PathStatus } from '../search/result.js';
import { MOVEMENT_NAMES } from '../search/movement.js';
import { checkQuery, newQuery, type Query } from '../search/pathfinder.js';
import { DONE_FIELDS, FIELD_FIELDS, RUN_FIELDS, WIRE_ALGORITHM, WIRE_REASON, WIRE_STATUS, canShareMemory, gridFromMeta, gridMeta, packRect, unpackRect, type FromWorker, type ToWorker } from './protocol.js';
import { epochNow } from './worker-core.js';

/**
 * One worker as the pool sees it; each environment supplies these (Node: `nodeWorkerFactory`,
 * browsers: `webWorkerFactory`).
 */
export interface WorkerPort {
  /** Sends a message of the pool's own protocol to the worker, moving the buffers in `transfer`; pass it on unchanged. */
  post(message: ToWorker, transfer: ArrayBuffer[]): void;
  /**
   * Connects the handlers. `onFailure` is called when the worker throws an uncaught error or
   * exits without being asked to; the pool calls it at most once per worker.
   */
  start(onMessage: (message: FromWorker) => void, onFailure: (error: Error) => void): void;
  /** Stops the worker; `close()` waits for a returned promise. */
  terminate(): Promise<unknown> | void;
}

/** Starts a worker running `serveWorker` (worker-core.ts). */
export type WorkerFactory = () => WorkerPort;

/**
 * What happens to a request that arrives when `queueLimit` requests are already waiting:
 * - `reject`: the new request is answered at once with status `rejected`.
 * - `drop-oldest`: the oldest waiting request of the same `requester` is answered `dropped` and the
 *   new one takes its place (a unit that re-paths twice wants only its latest path); when that
 *   requester has nothing waiting, the new request is `rejected`.
 * - `wait`: `findPath` waits for room before queueing; `request`, which cannot wait, answers
 *   `rejected` as with `reject`.
 */
export type OverflowPolicy = 'reject' | 'drop-oldest' | 'wait';

/** Options of a {@link PathService}. */
export interface PathServiceOptions {
  /** Starts each worker. Required; the environment entries (`createPathService`) pass theirs. */
  factory: WorkerFactory;
  /** Pool size, at least 1. @default 1 here; `createPathService` uses the cores available minus one, at least 1 */
  workers?: number;
  /**
   * Share the grid's memory with the workers: `auto` when the environment allows it
   * (SharedArrayBuffer), `never` to give each worker a copy and send it every change.
   * @default 'auto'
   */
  share?: 'auto' | 'never';
  /** Requests waiting for a worker, at most (running ones do not count). @default 10_000 */
  queueLimit?: number;
  /** What happens to a request that finds the queue full. @default 'reject' */
  overflow?: OverflowPolicy;
  /** Requests sent to a worker in one message, at most; short queries gain most from batching. @default 32 */
  maxBatch?: number;
  /** Batches a worker may hold at once, so it never waits for the next message. @default 2 */
  batchesPerWorker?: number;
  /** When a worker dies: run its requests again on another (`retry`) or answer them `error` (`fail`). @default 'retry' */
  onWorkerFailure?: 'retry' | 'fail';
  /** With `retry`: a request is answered `error` after its worker died under it this many times. @default 3 */
  maxAttempts?: number;
  /**
   * A result computed on a grid version older than the grid's current one (or the request's
   * `minVersion`): `flag` sets `stale: true`, `recompute` runs it again (twice at most, then flags).
   * @default 'flag'
   */
  staleResults?: 'flag' | 'recompute';
}

/** The defaults of {@link PathServiceOptions}. */
export const DEFAULT_SERVICE_OPTIONS = Object.freeze({
  /** Pool size (`createPathService` uses the cores available minus one instead). */
  workers: 1,
  /** Share the grid's memory when the environment allows it. */
  share: 'auto' as const,
  /** Requests waiting for a worker, at most. */
  queueLimit: 10_000,
  /** A request that finds the queue full is rejected. */
  overflow: 'reject' as OverflowPolicy,
  /** Requests per message to a worker, at most. */
  maxBatch: 32,
  /** Batches a worker may hold at once. */
  batchesPerWorker: 2,
  /** A dead worker's requests run again on another. */
  onWorkerFailure: 'retry' as const,
  /** Worker deaths a request survives before it is answered `error`. */
  maxAttempts: 3,
  /** Results from an older grid version are flagged `stale`. */
  staleResults: 'flag' as const,
});

/**
 * A path question to the service: {@link FindPathOptions} (the same options every `findPath`
 * takes; `out`, `obstacles`, `obstacleOptions`, `anyAngle` and `goals` stay on the main thread and are
 * refused by name), plus how the service queues it.
 */
export interface ServiceRequestOptions extends FindPathOptions {
  /** Higher runs first; equal priorities run in arrival order. @default 0 */
  priority?: number;
  /** Answer `deadline` if no result is ready this many milliseconds after the request. @default none */
  timeoutMs?: number;
  /** Who asks (a unit id): the `drop-oldest` overflow policy drops within one requester. @default undefined */
  requester?: string | number;
  /** The grid version the result must be computed on at least. @default the grid's version now */
  minVersion?: number;
}

/**
 * - a path status ({@link PathStatus}: `found`, `partial`, `no-path`, `limit-reached`,
 *   `invalid-start`, `invalid-goal`), as from `Pathfinder.findPath`,
 * - `error`: a worker failed (see `error`); a caller's mistake is never a status: `request`
 *   throws and `findPath` rejects with a TilenavError, as every `findPath` does,
 * - `cancelled`: by `cancel(id)` or `close()`,
 * - `deadline`: `timeoutMs` passed first,
 * - `rejected` / `dropped`: the queue was full (see {@link OverflowPolicy}).
 */
export type ServiceStatus = PathStatus | 'error' | 'cancelled' | 'deadline' | 'rejected' | 'dropped';

/**
 * A flow field question to the service ({@link PathService.flowField}): the options of
 * `flowFieldTo` (layer, movement), how far to build, and how the service queues it.
 */
export interface ServiceFlowFieldOptions extends FlowFieldOptions {
  /**
   * Build no cell dearer than this (the cost of the cheapest path to the goal, as `findPath`
   * counts it; a few cells just beyond may come too). Farther cells are computed on the main
   * thread if they are ever read. @default Infinity
   */
  maxCost?: number;
  /**
   * Build only as far as these cells need (indices y * width + x; -1 entries skipped): a group's
   * cells. The worker stops once each is computed or known to be unable to reach the goal.
   * @default every cell that can reach the goal (up to maxCost)
   */
  cells?: ArrayLike<number>;
  /** Higher runs first, among paths and fields alike. @default 0 */
  priority?: number;
  /** Answer `deadline` if the field is not built this many milliseconds after the request. @default none */
  timeoutMs?: number;
}

/**
 * How a flow field request ended: `built` (in a worker, or found built already), `error` (a worker
 * failed), `cancelled`, `deadline`, `rejected` (the queue was full).
 */
export type ServiceFieldStatus = 'built' | 'error' | 'cancelled' | 'deadline' | 'rejected';

/** A flow field request's answer ({@link PathService.flowField}). */
export interface ServiceFieldResult {
  /** The request's id (among the path requests' ids: `cancel(id)` takes it). */
  id: number;
  /** How the request ended. */
  status: ServiceFieldStatus;
  /**
   * The grid's flow field to that goal (the one `flowFieldTo` returns, shared by every unit and
   * group heading there). Whatever the status it answers every cell; when the worker's build did
   * not come, the cells are computed where they are read, on the main thread, as always.
   */
  field: FlowField;
  /** The grid version the worker built on; -1 when no worker built it. */
  version: number;
  /** Grid changes made while the worker built it, repaired in place at the field's next read (0: none). */
  changes: number;
  /** What went wrong, for `error` (and why, for `cancelled` / `rejected`); otherwise null. */
  error: string | null;
  /** Milliseconds from the request to its answer. */
  latencyMs: number;
}

/** What a flow field request carries beside the queue's bookkeeping. */
interface FieldAsk {
  readonly field: FlowField;
  /** The cells to reach (null: all, up to maxCost). */
  readonly cells: Int32Array | null;
  readonly maxCost: number;
  /** The rectangles of the field's layer changed since the request, with the version after each. */
  readonly changes: (CellRect & { version: number })[];
  readonly resolve: (r: ServiceFieldResult) => void;
}

/** A service answer: a {@link PathResult} with the service's own statuses and bookkeeping. */
export interface ServiceResult extends Omit<PathResult, 'status'> {
  /** The request's id, as `request()` returned it. */
  id: number;
  /** How the request ended; see {@link ServiceStatus}. */
  status: ServiceStatus;
  /** The grid version the search ran on; -1 when no search ran. */
  version: number;
  /** The grid changed after this result was computed (or it is older than the request's `minVersion`). */
  stale: boolean;
  /** What went wrong, for `error` (and why, for `cancelled`/`rejected`/`dropped`); otherwise null. */
  error: string | null;
  /** Milliseconds from the request to its answer. */
  latencyMs: number;
}

/** Counters of a service since it started. */
export interface ServiceStats {
  /** Workers in the pool. */
  workers: number;
  /** Waiting for a worker. */
  queued: number;
  /** Sent to a worker, not yet answered. */
  running: number;
  /** Answered with a search result. */
  done: number;
  /** Answered `error`. */
  failed: number;
  /** Answered `cancelled`. */
  cancelled: number;
  /** Answered `deadline`. */
  deadline: number;
  /** Answered `rejected`. */
  rejected: number;
  /** Answered `dropped`. */
  dropped: number;
  /** Workers replaced after dying. */
  restarts: number;
  /** Mean milliseconds from request to a search result, over `done`. */
  meanLatencyMs: number;
  /**
   * Milliseconds the workers spent answering, summed over the workers (from their own clocks).
   * Against `workers` times the time passed, it says how much of the time they waited for work.
   */
  busyMs: number;
  /** Messages of requests sent to the workers (each carries up to `maxBatch` requests, or one flow field). */
  batches: number;
  /** Flow fields the workers built and the main thread took over (counted in `done` too). */
  fields: number;
}

/** A batch takes at most 1/SHARE of the requests waiting per batch slot of the ready workers. */
const SHARE = 2;

const QUEUED = 0;
const RUNNING = 1;
const ANSWERED = 2;
const EMPTY = new Int32Array(0);

/** One request while it is unanswered. */
class Req {
  state = QUEUED;
  attempts = 0;
  recomputes = 0;
  batch = -1;
  constructor(
    readonly id: number,
    readonly seq: number,
    readonly data: Float64Array,
    readonly priority: number,
    readonly deadline: number,
    readonly requester: string | number | undefined,
    readonly minVersion: number,
    readonly t0: number,
    readonly resolve: ((r: ServiceResult) => void) | null,
    /** A flow field request's own part; null for a path. */
    readonly field: FieldAsk | null = null,
  ) {}
}

interface Slot {
  port: WorkerPort;
  ready: boolean;
  dead: boolean;
  inflight: Map<number, Req[]>;
}

/**
 * Paths off the main thread: a pool of workers sharing one grid. Ask with `request()` and collect
 * with `fetchCompleted()` once per frame (no promise per request), or with `findPath()` (a
 * Promise). Every request gets exactly one answer, even when a worker dies (see
 * {@link ServiceStatus}). Changes to the grid reach the workers before their next search; each
 * result carries the grid version it was computed on.
 *
 * The workers keep the process alive until `close()`.
 */
export class PathService {
  /** The grid the requests refer to; change it as usual, the workers follow. */
  readonly grid: NavGrid;
  /** True when the workers read the grid's cells through shared memory. */
  readonly shared: boolean;
  private readonly opts: Required<Omit<PathServiceOptions, 'factory'>>;
  private readonly factory: WorkerFactory;
  /** The SharedArrayBuffer copy the workers read when the grid's own storage is not shared. */
  private readonly mirror: NavGrid | null;
  /** The grid's links version the workers last heard of. */
  private linksSent: number;
  private readonly slots: Slot[] = [];
  private readonly heap: Req[] = [];
  private readonly live = new Map<number, Req>();
  private completed: ServiceResult[] = [];
  private handedOut: ServiceResult[] = [];
  private readonly pool: ServiceResult[] = [];
  private readonly waiters: (() => void)[] = [];
  private readyWaiters: ((error?: TilenavError) => void)[] = [];
  private readonly unsubscribe: () => void;
  private nextId = 1;
  private nextSeq = 0;
  private nextBatch = 0;
  private queued = 0;
  private running = 0;
  private dispatchScheduled = false;
  private deadlineTimer: ReturnType<typeof setTimeout> | null = null;
  private deadlineAt = Infinity;
  private startupFailures = 0;
  private broken: string | null = null;
  /** The last request checked, as `Pathfinder.findPath` checks it. */
  private checked: Query | undefined;
  private closed = false;
  private closing: Promise<void> | null = null;
  /** The flow field requests not answered yet: they hear the grid's changes. */
  private readonly fieldAsks = new Set<Req>();
  private readonly counts = { done: 0, failed: 0, cancelled: 0, deadline: 0, rejected: 0, dropped: 0, restarts: 0, latency: 0, busy: 0, batches: 0, fields: 0 };

  /**
   * Starts the pool over `grid`. Usually made by `createPathService` of `tilenav/service`, which
   * supplies the environment's worker factory. Throws a TilenavError naming the option when one is
   * out of range.
   */
  constructor(grid: NavGrid, options: PathServiceOptions) {
    if (options === undefined || typeof options.factory !== 'function') throw new TilenavError('expected a worker factory; use createPathService from tilenav/service', { element: 'factory' });
    const o = { ...DEFAULT_SERVICE_OPTIONS, ...stripUndefined(options) };
    checkCount(o.workers, 'workers', 1);
    checkCount(o.queueLimit, 'queueLimit', 1);
    checkCount(o.maxBatch, 'maxBatch', 1);
    checkCount(o.batchesPerWorker, 'batchesPerWorker', 1);
    checkCount(o.maxAttempts, 'maxAttempts', 1);
    checkChoice(o.overflow, 'overflow', ['reject', 'drop-oldest', 'wait']);
    checkChoice(o.onWorkerFailure, 'onWorkerFailure', ['retry', 'fail']);
    checkChoice(o.staleResults, 'staleResults', ['flag', 'recompute']);
    checkChoice(o.share, 'share', ['auto', 'never']);
    const { factory: _factory, ...rest } = o;
    this.opts = rest as Required<Omit<PathServiceOptions, 'factory'>>;
    this.factory = options.factory;
    this.grid = grid;
    const sab = typeof SharedArrayBuffer === 'function' && grid.storage instanceof SharedArrayBuffer;
    this.shared = o.share === 'auto' && (sab || canShareMemory());
    this.mirror = this.shared && !sab ? shareGrid(grid) : null;
    this.linksSent = grid.linksVersion;
    this.unsubscribe = grid.onChange((c) => this.forwardChange(c));
    for (let i = 0; i < o.workers; i++) this.slots.push(this.spawn());
  }

  /**
   * Resolves once every worker has started (loaded its script and the grid), e.g. before timing
   * a benchmark; requests made earlier simply wait for them. Resolves at once after `close()`.
   * Rejects with a TilenavError saying why when the workers cannot start at all (each one failed
   * before it was ready, three times in a row); every request is then answered `error`.
   */
  ready(): Promise<void> {
    if (this.broken !== null) return Promise.reject(this.brokenError());
    if (this.closed || this.slots.every((s) => s.ready || s.dead)) return Promise.resolve();
    return new Promise((resolve, reject) => this.readyWaiters.push((e) => (e === undefined ? resolve() : reject(e))));
  }

  private brokenError(): TilenavError {
    return new TilenavError(this.broken!, { element: 'workers' });
  }

  /** Queues a path query; its answer comes out of `fetchCompleted()`. Returns the request id. */
  request(sx: number, sy: number, gx: number, gy: number, options?: ServiceRequestOptions): number {
    return this.enqueue(sx, sy, gx, gy, options, null, false);
  }

  /**
   * The same query as a Promise. It resolves with any {@link ServiceStatus}, and rejects with a
   * TilenavError for a caller's mistake (the error `Pathfinder.findPath` throws for the same
   * arguments) or when the service is closed.
   */
  async findPath(sx: number, sy: number, gx: number, gy: number, options?: ServiceRequestOptions): Promise<ServiceResult> {
    while (this.opts.overflow === 'wait' && this.queued >= this.opts.queueLimit && !this.closed) {
      await new Promise<void>((r) => this.waiters.push(r));
    }
    return new Promise((resolve, reject) => {
      try {
        this.enqueue(sx, sy, gx, gy, options, resolve, true);
      } catch (e) {
        reject(e);
      }
    });
  }

  /**
   * Answers that arrived since the last call, in arrival order. The array and its results are
   * reused: they stay valid until the next call, so copy what you keep (the `cells` too).
   */
  fetchCompleted(): readonly ServiceResult[] {
    for (const r of this.handedOut) {
      r.cells = EMPTY;
      this.pool.push(r);
    }
    this.handedOut.length = 0;
    const out = this.completed;
    this.completed = this.handedOut;
    this.handedOut = out;
    return out;
  }

  /** Answers a waiting or running request `cancelled`. False when it was already answered. */
  cancel(id: number): boolean {
    const req = this.live.get(id);
    if (req === undefined) return false;
    this.answerEmpty(req, 'cancelled', 'cancelled by the caller');
    return true;
  }

  /**
   * Builds the flow field to cell (goalX, goalY) in a worker and installs it in the grid's flow
   * field cache (`flowFieldCache(grid)`, the field `flowFieldTo` returns), so every unit and group
   * heading to that goal follows it without computing it on the main thread. The worker moves the
   * field's sectors back (its buffers, not a copy of each cell); the main thread keeps repairing it
   * as the grid changes. A change made while the worker builds is repaired in place when the field
   * is installed (`changes` counts them), as any change is. A field already built that far
   * answers at once, without a worker.
   *
   * A full queue answers `rejected`, or with the `wait` overflow policy waits for room first.
   * Resolves with any {@link ServiceFieldStatus}; rejects with a TilenavError for a caller's
   * mistake (the error `flowFieldTo` throws for the same goal, layer or movement; `maxCost`,
   * `cells`, `priority`, `timeoutMs` named) or when the service is closed.
   * @example const { field } = await service.flowField(40, 12, { cells: unitCells }); field.directionAt(3, 4)
   */
  async flowField(goalX: number, goalY: number, options?: ServiceFlowFieldOptions): Promise<ServiceFieldResult> {
    // The `wait` overflow policy waits for room here, as findPath does.
    while (this.opts.overflow === 'wait' && this.queued >= this.opts.queueLimit && !this.closed) {
      await new Promise<void>((r) => this.waiters.push(r));
    }
    return new Promise((resolve, reject) => {
      try {
        this.enqueueField(goalX, goalY, options, resolve);
      } catch (e) {
        reject(e);
      }
    });
  }

  /**
   * {@link flowField} for a caller that wants no promise (a NavigationSystem): throws a
   * caller's mistake, calls `resolve` with the answer (at once when the field is built that far
   * already), returns the request id. @internal
   */
  enqueueField(goalX: number, goalY: number, options: ServiceFlowFieldOptions | undefined, resolve: (r: ServiceFieldResult) => void): number {
    if (this.closed) throw new TilenavError('the service is closed', { element: 'request' });
    const q = checkFlowFieldQuery(this.grid, goalX, goalY, options);
    const o = options ?? {};
    assertLimit(o.maxCost, 'maxCost');
    if (o.cells !== undefined) assertFieldCells(o.cells, this.grid.size);
    const { priority, deadline } = checkQueueing(o);
    const id = this.nextId++;
    const field = flowFieldCache(this.grid).get(q.goal, q.layer, q.model);
    const cells = o.cells === undefined ? null : Int32Array.from(o.cells);
    const maxCost = o.maxCost ?? Infinity;
    const ask: FieldAsk = { field, cells, maxCost, changes: [], resolve };
    const data = new Float64Array(FIELD_FIELDS);
    data.set([id, q.goal, q.layer, MOVEMENT_NAMES.indexOf(q.model.name), maxCost, 0]);
    const req = new Req(id, this.nextSeq++, data, priority, deadline, undefined, this.grid.version, performance.now(), null, ask);
    // Held while the worker builds it, so the cache does not drop it meanwhile.
    field.holders++;
    field.workerBuilds++;
    if (this.broken !== null) {
      this.answerEmpty(req, 'error', this.broken);
      return id;
    }
    if (field.covers(cells, maxCost)) {
      this.answerField(req, 'built', -1, 0, null);
      return id;
    }
    if (this.queued >= this.opts.queueLimit) {
      this.answerEmpty(req, 'rejected', `the queue is full (${this.opts.queueLimit} waiting)`);
      return id;
    }
    this.live.set(id, req);
    this.fieldAsks.add(req);
    this.queued++;
    this.push(req);
    if (deadline > 0 && deadline < this.deadlineAt) this.armDeadline(deadline);
    this.scheduleDispatch();
    return id;
  }

  /** The counters now (a new object each call). */
  stats(): ServiceStats {
    const c = this.counts;
    return {
      workers: this.slots.length,
      queued: this.queued,
      running: this.running,
      done: c.done,
      failed: c.failed,
      cancelled: c.cancelled,
      deadline: c.deadline,
      rejected: c.rejected,
      dropped: c.dropped,
      restarts: c.restarts,
      meanLatencyMs: c.done === 0 ? 0 : c.latency / c.done,
      busyMs: c.busy,
      batches: c.batches,
      fields: c.fields,
    };
  }

  /**
   * Answers every unanswered request `cancelled`, stops the workers and stops following the grid.
   * Calling it again returns the same promise. Afterwards `request()` throws and `findPath()`
   * rejects, with a TilenavError saying the service is closed.
   */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.closed = true;
    this.unsubscribe();
    if (this.deadlineTimer !== null) clearTimeout(this.deadlineTimer);
    this.deadlineTimer = null;
    for (const req of [...this.live.values()]) this.answerEmpty(req, 'cancelled', 'the service was closed');
    this.heap.length = 0;
    for (const w of this.waiters.splice(0)) w();
    for (const w of this.readyWaiters.splice(0)) w();
    const stops = this.slots.map((s) => {
      s.dead = true;
      return Promise.resolve(s.port.terminate()).catch(() => undefined);
    });
    this.closing = Promise.all(stops).then(() => undefined);
    return this.closing;
  }

  // ---- queueing ----------------------------------------------------------------------------

  private enqueue(sx: number, sy: number, gx: number, gy: number, options: ServiceRequestOptions | undefined, resolve: ((r: ServiceResult) => void) | null, fromPromise: boolean): number {
    if (this.closed) throw new TilenavError('the service is closed', { element: 'request' });
    assertOptionsObject(options, 'options');
    const o = options ?? {};
    // A caller's mistake throws here (and rejects findPath's promise), before anything is queued.
    const id = this.nextId;
    const data = this.encode(id, sx, sy, gx, gy, o);
    const { priority, deadline } = checkQueueing(o);
    if (o.minVersion !== undefined && typeof o.minVersion !== 'number') throw new TilenavError(`expected a grid version number, got ${describe(o.minVersion)}`, { element: 'minVersion' });
    this.nextId++;
    const t0 = performance.now();
    const problem: string | null = this.broken;
    void fromPromise;
    const req = new Req(id, this.nextSeq++, data, priority, deadline, o.requester, o.minVersion ?? this.grid.version, t0, resolve);
    if (problem !== null) {
      this.answerEmpty(req, 'error', problem);
      return id;
    }
    // Off the grid: answered at once, with the status findPath gives (a blocked cell is the worker's).
    if (!this.grid.inBounds(sx, sy) || (!this.grid.inBounds(gx, gy) && o.nearest !== true)) {
      this.answerEmpty(req, this.grid.inBounds(sx, sy) ? 'invalid-goal' : 'invalid-start', null, 'outside');
      return id;
    }
    if (this.queued >= this.opts.queueLimit) {
      const victim = this.opts.overflow === 'drop-oldest' && o.requester !== undefined ? this.oldestOf(o.requester) : null;
      if (victim === null) {
        this.answerEmpty(req, 'rejected', `the queue is full (${this.opts.queueLimit} waiting)`);
        return id;
      }
      this.answerEmpty(victim, 'dropped', `replaced by request ${id} of the same requester`);
    }
    this.live.set(id, req);
    this.queued++;
    this.push(req);
    if (deadline > 0 && deadline < this.deadlineAt) this.armDeadline(deadline);
    this.scheduleDispatch();
    return id;
  }

  /**
   * Validates a request and packs it as the worker reads it. Throws the TilenavError
   * `Pathfinder.findPath` throws for the same arguments (its checks run here on the same grid).
   */
  private encode(id: number, sx: number, sy: number, gx: number, gy: number, o: ServiceRequestOptions): Float64Array {
    for (const name of ['out', 'obstacles', 'obstacleOptions', 'anyAngle', 'goals'] as const) {
      if (o[name] !== undefined) throw new TilenavError('not available through the path service: ask the main thread\'s Pathfinder', { element: name });
    }
    const q = checkQuery(this.grid, (this.checked ??= newQuery(this.grid)), sx, sy, gx, gy, o);
    return Float64Array.of(id, sx, sy, gx, gy, q.layer, MOVEMENT_NAMES.indexOf(q.model.name), q.maxIterations, q.weight, 0, WIRE_ALGORITHM.indexOf(q.algorithm), q.nearest ? 1 : 0, o.radius ?? 0, q.reachabilityCheck ? 1 : 0, q.goalLayer, q.stayOnLayer ? 1 : 0);
  }

  /** The waiting request of `requester` that came first, or null. */
  private oldestOf(requester: string | number): Req | null {
    let best: Req | null = null;
    for (const r of this.heap) if (r.state === QUEUED && r.requester === requester && (best === null || r.seq < best.seq)) best = r;
    return best;
  }

  private scheduleDispatch(): void {
    if (this.dispatchScheduled) return;
    this.dispatchScheduled = true;
    // Requests made in one turn of the caller's loop go out together, in full batches.
    queueMicrotask(() => {
      this.dispatchScheduled = false;
      this.dispatch();
    });
  }

  private dispatch(): void {
    if (this.closed) return;
    const ready = this.slots.filter((s) => s.ready && !s.dead);
    if (ready.length === 0) return;
    const { maxBatch, batchesPerWorker } = this.opts;
    let progress = true;
    while (progress && this.queued > 0) {
      progress = false;
      for (const slot of ready) {
        if (slot.inflight.size >= batchesPerWorker || this.queued === 0) continue;
        // Small enough that the queue is never all handed out at once (long queries sent in a few
        // big batches would leave one worker busy while the other idles at the end), large enough
        // that a long queue goes out in few messages: each answer message wakes this thread, which
        // takes a core from the workers for a moment. A share of what waits, shrinking as the
        // queue does, so the last batches are the smallest.
        const size = Math.min(maxBatch, Math.max(1, Math.ceil(this.queued / (ready.length * batchesPerWorker * SHARE))));
        const reqs: Req[] = [];
        const now = epochNow();
        while (reqs.length < size && this.heap.length > 0) {
          const r = this.pop();
          if (r.state !== QUEUED) continue;
          if (r.deadline > 0 && now > r.deadline) {
            this.answerEmpty(r, 'deadline', null);
            continue;
          }
          if (r.field !== null && reqs.length > 0) {
            // A flow field goes in a message of its own: back on top of the queue for the next.
            this.push(r);
            break;
          }
          this.queued--;
          reqs.push(r);
          if (r.field !== null) break;
        }
        if (reqs.length === 0) continue;
        const batch = this.nextBatch++;
        if (reqs[0].field !== null) {
          const r = reqs[0];
          r.state = RUNNING;
          r.batch = batch;
          const data = Float64Array.from(r.data);
          data[5] = r.deadline;
          this.running++;
          this.counts.batches++;
          slot.inflight.set(batch, reqs);
          slot.port.post({ t: 'field', batch, data, cells: r.field!.cells }, []);
          progress = true;
          continue;
        }
        const data = new Float64Array(reqs.length * RUN_FIELDS);
        for (let k = 0; k < reqs.length; k++) {
          const r = reqs[k];
          r.state = RUNNING;
          r.batch = batch;
          data.set(r.data, k * RUN_FIELDS);
          data[k * RUN_FIELDS + 9] = r.deadline;
        }
        this.running += reqs.length;
        this.counts.batches++;
        slot.inflight.set(batch, reqs);
        slot.port.post({ t: 'run', batch, data }, [data.buffer]);
        progress = true;
      }
    }
    // Wake only as many as there is room for; each re-checks before it queues.
    for (let room = this.opts.queueLimit - this.queued; room > 0 && this.waiters.length > 0; room--) this.waiters.shift()!();
  }

  // ---- answers -----------------------------------------------------------------------------

  private onMessage(slot: Slot, msg: FromWorker): void {
    if (slot.dead) return;
    if (msg.t === 'ready') {
      slot.ready = true;
      this.startupFailures = 0;
      if (this.slots.every((s) => s.ready || s.dead)) for (const w of this.readyWaiters.splice(0)) w();
      this.dispatch();
      return;
    }
    const reqs = slot.inflight.get(msg.batch);
    if (reqs === undefined) return;
    slot.inflight.delete(msg.batch);
    this.counts.busy += msg.busyMs;
    if (msg.t === 'field-done') {
      const req = reqs[0];
      // Cancelled or timed out meanwhile: already answered.
      if (req.state === RUNNING && req.batch === msg.batch) {
        if (msg.field === null) this.answerEmpty(req, msg.error === null ? 'deadline' : 'error', msg.error);
        else if (req.deadline > 0 && epochNow() > req.deadline) this.answerEmpty(req, 'deadline', null);
        else {
          // The worker built on version msg.version: the changes made since are repaired in place.
          const since = req.field!.changes.filter((c) => c.version > msg.version);
          req.field!.field.adopt(msg.field, since);
          this.counts.fields++;
          this.answerField(req, 'built', msg.version, since.length, null);
        }
      }
      this.dispatch();
      return;
    }
    const meta = new Float64Array(msg.data, 0, msg.cellsAt / 8);
    const all = new Int32Array(msg.data, msg.cellsAt);
    const now = epochNow();
    for (let k = 0; k < reqs.length; k++) {
      const req = reqs[k];
      const m = k * DONE_FIELDS;
      // Cancelled or timed out meanwhile: already answered.
      if (req.state !== RUNNING || req.batch !== msg.batch || meta[m] !== req.id) continue;
      const status = WIRE_STATUS[meta[m + 1]];
      if (status === 'error') {
        this.answerEmpty(req, 'error', msg.errors?.[k] ?? 'the worker failed');
        continue;
      }
      if (status === 'deadline' || (req.deadline > 0 && now > req.deadline)) {
        this.answerEmpty(req, 'deadline', null);
        continue;
      }
      const version = meta[m + 4];
      const stale = version < this.grid.version || version < req.minVersion;
      if (stale && this.opts.staleResults === 'recompute' && req.recomputes < 2) {
        req.recomputes++;
        this.running--;
        req.state = QUEUED;
        this.queued++;
        this.push(req);
        continue;
      }
      const cells = meta[m + 6] > 0 ? all.subarray(meta[m + 5], meta[m + 5] + meta[m + 6]) : EMPTY;
      const layers = meta[m + 9] === 1 ? Uint8Array.from(all.subarray(meta[m + 5] + meta[m + 6], meta[m + 5] + 2 * meta[m + 6])) : null;
      this.answer(req, status, cells, meta[m + 2], meta[m + 3], version, stale, null, meta[m + 8] > 0 ? WIRE_REASON[meta[m + 8] - 1] : null, meta[m + 7], layers);
    }
    this.dispatch();
  }

  private answerEmpty(req: Req, status: ServiceStatus, error: string | null, reason: PathRefusal | null = null): void {
    this.answer(req, status, EMPTY, Infinity, 0, -1, false, error, reason, -1);
  }

  private answer(req: Req, status: ServiceStatus, cells: Int32Array, cost: number, expanded: number, version: number, stale: boolean, error: string | null, reason: PathRefusal | null, reached: number, layers: Uint8Array | null = null): void {
    if (req.field !== null) {
      this.answerField(req, status as ServiceFieldStatus, version, 0, error);
      return;
    }
    if (req.state === QUEUED && this.live.has(req.id)) this.queued--;
    if (req.state === RUNNING) this.running--;
    req.state = ANSWERED;
    this.live.delete(req.id);
    const latencyMs = performance.now() - req.t0;
    const c = this.counts;
    switch (status) {
      case 'error':
        c.failed++;
        break;
      case 'cancelled':
      case 'deadline':
      case 'rejected':
      case 'dropped':
        c[status]++;
        break;
      default:
        c.done++;
        c.latency += latencyMs;
    }
    const r = req.resolve !== null ? ({} as ServiceResult) : (this.pool.pop() ?? ({} as ServiceResult));
    r.id = req.id;
    r.status = status;
    r.cells = cells;
    r.cost = cost;
    r.costMeasure = 'steps';
    r.expanded = expanded;
    r.reached = reached;
    r.reason = reason;
    r.avoided = true;
    r.points = null;
    r.layers = layers;
    r.version = version;
    r.stale = stale;
    r.error = error;
    r.latencyMs = latencyMs;
    if (req.resolve !== null) req.resolve(r);
    else this.completed.push(r);
  }

  /** Answers flow field request `req`: lets go of its field and resolves its promise. */
  private answerField(req: Req, status: ServiceFieldStatus, version: number, changes: number, error: string | null): void {
    if (req.state === QUEUED && this.live.has(req.id)) this.queued--;
    if (req.state === RUNNING) this.running--;
    req.state = ANSWERED;
    this.live.delete(req.id);
    this.fieldAsks.delete(req);
    const ask = req.field!;
    ask.field.holders--;
    ask.field.workerBuilds--;
    const latencyMs = performance.now() - req.t0;
    const c = this.counts;
    if (status === 'built') {
      c.done++;
      c.latency += latencyMs;
    } else if (status === 'error') c.failed++;
    else c[status]++;
    ask.resolve({ id: req.id, status, field: ask.field, version, changes, error, latencyMs });
  }

  // ---- deadlines ---------------------------------------------------------------------------

  private armDeadline(at: number): void {
    if (this.deadlineTimer !== null) clearTimeout(this.deadlineTimer);
    this.deadlineAt = at;
    // A few milliseconds of slack lets one sweep answer a cluster of deadlines together.
    this.deadlineTimer = setTimeout(() => this.sweepDeadlines(), Math.max(0, at - epochNow()) + 2);
  }

  private sweepDeadlines(): void {
    this.deadlineTimer = null;
    this.deadlineAt = Infinity;
    const now = epochNow();
    let next = Infinity;
    for (const req of [...this.live.values()]) {
      if (req.deadline === 0) continue;
      if (req.deadline <= now) this.answerEmpty(req, 'deadline', null);
      else if (req.deadline < next) next = req.deadline;
    }
    if (next < Infinity && !this.closed) this.armDeadline(next);
  }

  // ---- workers -----------------------------------------------------------------------------

  private spawn(): Slot {
    const port = this.factory();
    const slot: Slot = { port, ready: false, dead: false, inflight: new Map() };
    let failed = false;
    port.start(
      (m) => this.onMessage(slot, m),
      (e) => {
        if (failed) return;
        failed = true;
        this.onFailure(slot, e);
      },
    );
    const grid = this.mirror ?? this.grid;
    const meta = gridMeta(this.grid);
    if (this.shared) {
      port.post({ t: 'init', meta, storage: grid.storage, storageOffset: grid.storageOffset, shared: true }, []);
    } else {
      // A plain ArrayBuffer even when the grid's is shared: a SharedArrayBuffer cannot be transferred.
      const bytes = new ArrayBuffer(storageBytesOf(grid));
      new Uint8Array(bytes).set(new Uint8Array(grid.storage, grid.storageOffset, bytes.byteLength));
      port.post({ t: 'init', meta, storage: bytes, storageOffset: 0, shared: false }, [bytes]);
    }
    return slot;
  }

  private onFailure(slot: Slot, error: Error): void {
    if (slot.dead) return;
    slot.dead = true;
    Promise.resolve()
      .then(() => slot.port.terminate())
      .catch(() => undefined);
    const message = `a worker failed: ${error?.message ?? String(error)}`;
    for (const reqs of slot.inflight.values()) {
      for (const req of reqs) {
        if (req.state !== RUNNING) continue;
        req.attempts++;
        if (this.opts.onWorkerFailure === 'retry' && req.attempts < this.opts.maxAttempts) {
          this.running--;
          req.state = QUEUED;
          this.queued++;
          this.push(req);
        } else {
          this.answerEmpty(req, 'error', message);
        }
      }
    }
    slot.inflight.clear();
    if (this.closed) return;
    const i = this.slots.indexOf(slot);
    if (!slot.ready) this.startupFailures++;
    if (this.startupFailures >= 3 && !this.slots.some((s) => s.ready && !s.dead)) {
      // Workers that die before they start would be replaced forever: give up and say why.
      this.broken = `the workers cannot start (${message})`;
      for (const w of this.readyWaiters.splice(0)) w(this.brokenError());
      for (const req of [...this.live.values()]) this.answerEmpty(req, 'error', this.broken);
      this.heap.length = 0;
      this.slots.splice(i, 1);
      return;
    }
    this.counts.restarts++;
    this.slots[i] = this.spawn();
    this.dispatch();
  }

  private forwardChange(c: GridChange): void {
    for (const req of this.fieldAsks) {
      if (req.field!.field.layer !== c.layer) continue;
      for (const r of c.rects ?? [c]) req.field!.changes.push({ x: r.x, y: r.y, width: r.width, height: r.height, version: c.version });
    }
    if (this.grid.linksVersion !== this.linksSent) {
      // Links live beside the cells, not in the shared buffer: every worker gets the new list.
      this.linksSent = this.grid.linksVersion;
      const links: ToWorker = { t: 'links', links: this.grid.links() };
      for (const s of this.slots) if (!s.dead) s.port.post(links, []);
    }
    let data: Uint8Array | null = null;
    if (this.mirror !== null) {
      unpackRect(this.mirror, c.layer, c.x, c.y, c.width, c.height, packRect(this.grid, c.layer, c.x, c.y, c.width, c.height));
    } else if (!this.shared) {
      data = packRect(this.grid, c.layer, c.x, c.y, c.width, c.height);
    }
    const msg: ToWorker = { t: 'change', layer: c.layer, x: c.x, y: c.y, width: c.width, height: c.height, version: c.version, data };
    for (const s of this.slots) if (!s.dead) s.port.post(msg, []);
  }

  // ---- priority queue: higher priority first, then arrival order ---------------------------

  private push(r: Req): void {
    const h = this.heap;
    let i = h.length;
    h.push(r);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(r, h[p])) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = r;
  }

  private pop(): Req {
    const h = this.heap;
    const top = h[0];
    const last = h.pop()!;
    const n = h.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const c = l + 1 < n && before(h[l + 1], h[l]) ? l + 1 : l;
        if (!before(h[c], last)) break;
        h[i] = h[c];
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}


function before(a: Req, b: Req): boolean {
  return a.priority !== b.priority ? a.priority > b.priority : a.seq < b.seq;
}

function storageBytesOf(grid: NavGrid): number {
  return grid.size * grid.layers.length * 7;
}

/**
 * A copy of `grid` whose cells live in a SharedArrayBuffer, so workers can read them without a
 * copy each. Build grids this way (or load them into one) to let a PathService use the grid's own
 * memory; otherwise the service keeps such a copy itself and copies each change into it.
 */
export function shareGrid(grid: NavGrid): NavGrid {
  const bytes = storageBytesOf(grid);
  const sab = new SharedArrayBuffer(bytes);
  new Uint8Array(sab).set(new Uint8Array(grid.storage, grid.storageOffset, bytes));
  const copy = gridFromMeta(gridMeta(grid), sab, 0);
  copy.version = grid.version;
  return copy;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A request's `priority` and `timeoutMs`, checked (a TilenavError naming either), as the queue keeps them: the deadline in epoch ms, 0 for none. */
function checkQueueing(o: { priority?: number; timeoutMs?: number }): { priority: number; deadline: number } {
  const priority = o.priority ?? 0;
  const timeout = o.timeoutMs;
  if (typeof priority !== 'number' || !Number.isFinite(priority)) throw new TilenavError(`expected a finite number, got ${describe(priority)}`, { element: 'priority' });
  if (timeout !== undefined && (typeof timeout !== 'number' || !(timeout > 0))) throw new TilenavError(`expected milliseconds > 0, got ${describe(timeout)}`, { element: 'timeoutMs' });
  return { priority, deadline: timeout === undefined ? 0 : epochNow() + timeout };
}

function checkCount(v: unknown, name: string, min: number): void {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new TilenavError(`expected a whole number >= ${min}, got ${describe(v)}`, { element: name });
}

function checkChoice(v: unknown, name: string, choices: string[]): void {
  if (typeof v !== 'string' || !choices.includes(v)) throw new TilenavError(`expected one of ${choices.join(', ')}, got ${describe(v)}`, { element: name });
}
