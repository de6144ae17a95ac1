/**
 * `tilenav/service` in Node: the PathService on worker_threads.
 *
 * @module tilenav/service (Node)
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import type { NavGrid } from '../grid/navgrid.js';
import { PathService, type PathServiceOptions, type WorkerFactory, type WorkerPort } from './service.js';

export * from './common.js';

/** The cores available minus one (the main thread needs one), at least 1. */
export function defaultPoolSize(): number {
  return Math.max(1, availableParallelism() - 1);
}

/** A Node worker port; `worker` is exposed for tests that need to kill one from outside. */
export interface NodeWorkerPort extends WorkerPort {
  /** The worker thread. */
  readonly worker: Worker;
}

/**
 * Starts workers running node-worker.js from beside this module. Under a TypeScript loader (this
 * module is a .ts file, as in the tests run with `node --import tsx`) the worker gets the .ts
 * script, and registers tsx itself first: Node 20 does not apply `--import` hooks to a worker's
 * entry module.
 */
export function nodeWorkerFactory(): WorkerFactory {
  const here = import.meta.url;
  const typescript = here.endsWith('.ts');
  const script = new URL(typescript ? './node-worker.ts' : './node-worker.js', here);
  let source: string | null = null;
  if (typescript) {
    let api: string | null = null;
    try {
      api = import.meta.resolve('tsx/esm/api');
    } catch {
      // Another loader: rely on the execArgv the worker inherits.
    }
    if (api !== null) source = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(script.href)}); })`;
  }
  // Workers inherit the process's flags, silently dropping the process-wide ones, except
  // --input-type (from `node -e`), which a worker refuses: leave that one out by hand.
  let execArgv: string[] | undefined = process.execArgv.some((a) => a.startsWith('--input-type')) ? process.execArgv.filter((a) => !a.startsWith('--input-type')) : undefined;
  const start = (): Worker => (source !== null ? new Worker(source, { eval: true, execArgv }) : new Worker(script, { execArgv }));
  return () => {
    let worker: Worker;
    try {
      worker = start();
    } catch (e) {
      // Flags given explicitly are checked (e.g. --expose-gc beside --input-type): run without them.
      if ((e as NodeJS.ErrnoException).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw e;
      execArgv = [];
      worker = start();
    }
    let stopping = false;
    const port: NodeWorkerPort = {
      worker,
      post: (message, transfer) => worker.postMessage(message, transfer),
      start(onMessage, onFailure) {
        worker.on('message', onMessage);
        worker.on('error', onFailure);
        worker.on('messageerror', onFailure);
        worker.on('exit', (code) => {
          if (!stopping) onFailure(new Error(`the worker exited with code ${code}`));
        });
      },
      terminate() {
        stopping = true;
        return worker.terminate();
      },
    };
    return port;
  };
}

/**
 * A PathService on Node worker_threads over `grid`.
 * Options as {@link PathServiceOptions}; `workers` defaults to {@link defaultPoolSize}.
 */
export function createPathService(grid: NavGrid, options: Partial<PathServiceOptions> = {}): PathService {
  return new PathService(grid, { ...options, factory: options.factory ?? nodeWorkerFactory(), workers: options.workers ?? defaultPoolSize() });
}
