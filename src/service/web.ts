/**
 * `tilenav/service` in browsers: the PathService on Web Workers. The grid is shared when the page
 * is cross-origin isolated (SharedArrayBuffer), else each worker gets a copy and every change.
 */
import type { NavGrid } from '../grid/navgrid.js';
import { PathService, type PathServiceOptions, type WorkerFactory } from './service.js';

export * from './common.js';

/** The part of a browser `Worker` the pool uses. */
export interface WebWorkerLike {
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  addEventListener(type: 'message' | 'error' | 'messageerror', listener: (event: { data?: unknown; message?: string }) => void): void;
  terminate(): void;
}

/** Ports over `create()`d Web Workers, each running web-worker.js. */
export function webWorkerFactory(create: () => WebWorkerLike): WorkerFactory {
  return () => {
    const worker = create();
    return {
      post: (message, transfer) => worker.postMessage(message, transfer),
      start(onMessage, onFailure) {
        worker.addEventListener('message', (e) => onMessage(e.data as never));
        worker.addEventListener('error', (e) => onFailure(new Error(e.message ?? 'the worker failed')));
        worker.addEventListener('messageerror', () => onFailure(new Error('a message could not be read')));
      },
      terminate: () => worker.terminate(),
    };
  };
}

/** The cores the browser reports minus one, at least 1. */
export function defaultPoolSize(): number {
  const n = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? 2;
  return Math.max(1, n - 1);
}

/**
 * A PathService on Web Workers over `grid`. `createWorker` defaults to a module worker on
 * web-worker.js beside this module (the `new URL(..., import.meta.url)` form bundlers follow).
 */
export function createPathService(grid: NavGrid, options: Partial<PathServiceOptions> & { createWorker?: () => WebWorkerLike } = {}): PathService {
  const { createWorker, ...rest } = options;
  const make =
    createWorker ??
    (() => {
      const W = (globalThis as unknown as { Worker: new (url: URL, options: { type: 'module' }) => WebWorkerLike }).Worker;
      return new W(new URL('./web-worker.js', import.meta.url), { type: 'module' });
    });
  return new PathService(grid, { ...rest, factory: rest.factory ?? webWorkerFactory(make), workers: rest.workers ?? defaultPoolSize() });
}
