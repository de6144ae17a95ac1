/**
 * The worker side of the PathService, independent of the environment: the Node entry
 * (node-worker.ts) and the browser entry (web-worker.ts) only connect it to their message port.
 */
import type { NavGrid } from '../grid/navgrid.js';
import type { InternalPathOptions } from '../search/result.js';
import { Pathfinder } from '../search/pathfinder.js';
import { MOVEMENT_NAMES } from '../search/movement.js';
import { buildFlowField, flowFieldCache } from '../agents/flowfield.js';
import { DONE_FIELDS, RUN_FIELDS, WIRE_ALGORITHM, WIRE_REASON, WIRE_STATUS, fieldTransfers, gridFromMeta, unpackRect, type FromWorker, type ToWorker } from './protocol.js';

/** The two calls a worker needs from its environment. */
export interface WorkerEndpoint {
  /** Sends a message of the pool's protocol to the main thread, moving the buffers in `transfer`. */
  post(message: FromWorker, transfer: ArrayBuffer[]): void;
  /** Calls `handler` with every message the main thread sends. */
  listen(handler: (message: ToWorker) => void): void;
}

const STATUS_CODE = new Map<string, number>(WIRE_STATUS.map((s, i) => [s, i]));
const ERROR = STATUS_CODE.get('error')!;
const DEADLINE = STATUS_CODE.get('deadline')!;

/** Epoch milliseconds, comparable across threads (each thread's performance.now() has its own origin). */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

/** Answers `run` messages on `endpoint` until the thread is stopped. */
export function serveWorker(endpoint: WorkerEndpoint): void {
  let grid: NavGrid | null = null;
  let finder: Pathfinder | null = null;
  let version = 0;
  // Grows to the largest batch's path lengths and is reused; each answer copies out what it used.
  let scratch = new Int32Array(1024);

  endpoint.listen((msg) => {
    if (msg.t === 'init') {
      grid = gridFromMeta(msg.meta, msg.storage, msg.storageOffset);
      finder = new Pathfinder(grid);
      // Flow fields read the component labels through the same Pathfinder as the paths.
      flowFieldCache(grid).useFinder(finder);
      version = msg.meta.version;
      endpoint.post({ t: 'ready' }, []);
    } else if (msg.t === 'change') {
      if (grid === null) return;
      if (msg.data !== null) unpackRect(grid, msg.layer, msg.x, msg.y, msg.width, msg.height, msg.data);
      // The padded copy the search reads must follow the cells, shared or copied.
      grid.refresh(msg.layer, msg);
      version = msg.version;
    } else if (msg.t === 'links') {
      grid?.replaceLinks(msg.links);
    } else if (msg.t === 'field') {
      if (grid === null) throw new Error('tilenav worker: field before init');
      const began = performance.now();
      const d = msg.data;
      let reply: FromWorker;
      if (d[5] > 0 && epochNow() > d[5]) {
        reply = { t: 'field-done', batch: msg.batch, version, field: null, error: null, busyMs: 0 };
      } else {
        try {
          const field = buildFlowField(grid, d[1], d[2], grid.movementModel(MOVEMENT_NAMES[d[3]]), msg.cells, d[4]);
          reply = { t: 'field-done', batch: msg.batch, version, field, error: null, busyMs: performance.now() - began };
        } catch (e) {
          reply = { t: 'field-done', batch: msg.batch, version, field: null, error: e instanceof Error ? e.message : String(e), busyMs: performance.now() - began };
        }
      }
      endpoint.post(reply, reply.t === 'field-done' && reply.field !== null ? fieldTransfers(reply.field) : []);
    } else if (msg.t === 'run') {
      if (finder === null) throw new Error('tilenav worker: run before init');
      const began = performance.now();
      const data = msg.data;
      const count = data.length / RUN_FIELDS;
      const meta = new Float64Array(count * DONE_FIELDS);
      let errors: (string | null)[] | null = null;
      let used = 0;
      for (let k = 0; k < count; k++) {
        const o = k * RUN_FIELDS;
        const m = k * DONE_FIELDS;
        meta[m] = data[o];
        meta[m + 4] = version;
        meta[m + 5] = used;
        meta[m + 2] = Infinity;
        if (data[o + 9] > 0 && epochNow() > data[o + 9]) {
          meta[m + 1] = DEADLINE;
          continue;
        }
        try {
          const r = finder.findPath(data[o + 1], data[o + 2], data[o + 3], data[o + 4], {
            layer: data[o + 5],
            movement: MOVEMENT_NAMES[data[o + 6]],
            maxIterations: data[o + 7],
            weight: data[o + 8],
            algorithm: WIRE_ALGORITHM[data[o + 10]],
            nearest: data[o + 11] === 1,
            radius: data[o + 12],
            reachabilityCheck: data[o + 13] === 1,
            goalLayer: data[o + 14],
            stayOnLayer: data[o + 15] === 1,
          } as InternalPathOptions);
          meta[m + 7] = r.reached;
          meta[m + 8] = r.reason === null ? 0 : WIRE_REASON.indexOf(r.reason) + 1;
          meta[m + 1] = STATUS_CODE.get(r.status)!;
          meta[m + 2] = r.cost;
          meta[m + 3] = r.expanded;
          meta[m + 6] = r.cells.length;
          meta[m + 9] = r.layers === null ? 0 : 1;
          const n = r.layers === null ? r.cells.length : 2 * r.cells.length;
          if (used + n > scratch.length) {
            const bigger = new Int32Array(Math.max(scratch.length * 2, used + n));
            bigger.set(scratch.subarray(0, used));
            scratch = bigger;
          }
          scratch.set(r.cells, used);
          if (r.layers !== null) scratch.set(r.layers, used + r.cells.length);
          used += n;
        } catch (e) {
          meta[m + 1] = ERROR;
          errors ??= [];
          errors[k] = e instanceof Error ? e.message : String(e);
        }
      }
      // One buffer for the batch: the answers' numbers, then their cells.
      const out = new ArrayBuffer(meta.byteLength + 4 * used);
      new Float64Array(out, 0, meta.length).set(meta);
      new Int32Array(out, meta.byteLength, used).set(scratch.subarray(0, used));
      endpoint.post({ t: 'done', batch: msg.batch, data: out, cellsAt: meta.byteLength, errors, busyMs: performance.now() - began }, [out]);
    }
  });
}
