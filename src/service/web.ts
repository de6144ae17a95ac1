/**
 * `tilenav/service` in browsers: the PathService on Web Workers. The grid is shared when the page
 * is cross-origin isolated (SharedArrayBuffer), else each worker gets a copy and every change.
 *
 * @module tilenav/service (browsers)
 */
import type { NavGrid } from '../grid/navgrid.js';
import { PathService, type PathServiceOptions, type WorkerFactory } from './service.js';
import { isLoaded } from './web-handshake.js';

export * from './common.js';

/** The part of a browser `Worker` the pool uses. */
export interface WebWorkerLike {
  /** Sends `message`, moving the buffers in `transfer`. */
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  /** Listens to the worker's messages and failures. */
  addEventListener(type: 'message' | 'error' | 'messageerror', listener: (event: { data?: unknown; message?: string }) => void): void;
  /** Stops the worker at once. */
  terminate(): void;
}

/** One way to start a worker, tried in turn until one loads. */
interface WorkerSource {
  /** Where the script comes from, for the error that lists what was tried. */
  what: string;
  start(): WebWorkerLike | Promise<WebWorkerLike>;
}

// The browser's constructors, declared here so the core needs no DOM typings.
declare const Worker: new (url: string | URL, options: { type: 'module' }) => WebWorkerLike;
declare const Blob: new (parts: string[], options: { type: string }) => object;

/**
 * Starts a module worker on web-worker.js beside this module. Written out literally on purpose:
 * `new Worker(new URL('./web-worker.js', import.meta.url), { type: 'module' })` is the form Vite
 * and webpack 5 look for to bundle the worker with the page.
 */
function workerFromFile(): WebWorkerLike {
  return new Worker(new URL('./web-worker.js', import.meta.url), { type: 'module' });
}

let blobUrl: Promise<string> | null = null;

/**
 * Starts the same worker from its bundled text in a `blob:` URL: for bundlers that copy this
 * module into the page's bundle but not web-worker.js (esbuild, Vite's dev server), where the
 * file beside `import.meta.url` does not exist. The text is loaded only when needed.
 */
async function workerFromSource(): Promise<WebWorkerLike> {
  blobUrl ??= import('./web-worker-source.js').then((m) => {
    if (m.default === '') throw new Error('this copy of tilenav was not built (npm run build bundles the worker)');
    const url = (globalThis as unknown as { URL: { createObjectURL(blob: object): string } }).URL;
    return url.createObjectURL(new Blob([m.default], { type: 'text/javascript' }));
  });
  const url = await blobUrl;
  return new Worker(url, { type: 'module' });
}

const DEFAULT_SOURCES: WorkerSource[] = [
  { what: 'web-worker.js beside tilenav/service', start: workerFromFile },
  { what: 'the bundled worker text as a blob: URL', start: workerFromSource },
];

const HOW_TO_FIX =
  "If the page has a Content-Security-Policy, allow workers from the page's origin and blob: (worker-src 'self' blob:). " +
  "Otherwise start the worker yourself: createPathService(grid, { createWorker: () => new Worker(new URL('<where tilenav/dist/service/web-worker.js is served>', import.meta.url), { type: 'module' }) }).";

/**
 * Ports over Web Workers. Each port starts a worker from the first of `sources` that loads (the
 * worker posts `loaded` once its script and imports have run); messages wait until then, so a
 * worker that fails to load is replaced by the next source with nothing lost. When none loads, the
 * port fails with what each source said and how to fix it.
 */
function sourcesFactory(sources: WorkerSource[]): WorkerFactory {
  // Once a source has failed (or worked), the pool's other workers start from the one that works.
  let first = 0;
  // What each source said last time it failed: a port that starts past a failed one still reports it.
  const problems: string[] = sources.map(() => '');
  return () => {
    const held: [unknown, ArrayBuffer[]][] = [];
    let worker: WebWorkerLike | null = null;
    let loaded = false;
    let stopped = false;
    let onMessage: (message: never) => void = () => {};
    let onFailure: (error: Error) => void = () => {};

    const attempt = async (k: number): Promise<void> => {
      if (stopped) return;
      if (k >= sources.length) {
        onFailure(new Error(`the browser could not start a Web Worker: ${problems.filter((p) => p !== '').join('; ')}. ${HOW_TO_FIX}`));
        return;
      }
      const source = sources[k];
      const giveUp = (why: string): void => {
        problems[k] = `from ${source.what}: ${why}`;
        first = Math.max(first, k + 1);
        void attempt(k + 1);
      };
      let w: WebWorkerLike;
      try {
        w = await source.start();
      } catch (e) {
        giveUp(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
        return;
      }
      if (stopped) {
        w.terminate();
        return;
      }
      worker = w;
      w.addEventListener('message', (e) => {
        if (loaded) onMessage(e.data as never);
        else if (isLoaded(e.data)) {
          loaded = true;
          if (first > k) first = k;
          for (const [m, t] of held.splice(0)) w.postMessage(m, t);
        }
      });
      w.addEventListener('error', (e) => {
        if (loaded) return onFailure(new Error(e.message ?? 'the worker failed'));
        w.terminate();
        giveUp(e.message ?? 'the script did not load (missing, not served as JavaScript, or one of its imports could not be resolved)');
      });
      w.addEventListener('messageerror', () => onFailure(new Error('a message could not be read')));
    };

    return {
      post(message, transfer) {
        if (loaded) worker!.postMessage(message, transfer);
        else held.push([message, transfer]);
      },
      start(message, failure) {
        onMessage = message as (message: never) => void;
        onFailure = failure;
        void attempt(Math.min(first, sources.length - 1));
      },
      terminate() {
        stopped = true;
        worker?.terminate();
      },
    };
  };
}

/** Ports over `create()`d Web Workers, each running web-worker.js. */
export function webWorkerFactory(create: () => WebWorkerLike): WorkerFactory {
  return sourcesFactory([{ what: 'createWorker', start: create }]);
}

/** The cores the browser reports minus one, at least 1. */
export function defaultPoolSize(): number {
  const n = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? 2;
  return Math.max(1, n - 1);
}

/**
 * A PathService on Web Workers over `grid`. With no `createWorker`, each worker runs
 * web-worker.js beside this module (bundled by Vite and webpack 5 from the literal
 * `new Worker(new URL(...))`), or, when that file is not where the page looks for it (esbuild,
 * Vite's dev server), the same script from a `blob:` URL. When no worker can start (a
 * Content-Security-Policy that forbids them), `ready()` rejects with a TilenavError saying why.
 */
export function createPathService(grid: NavGrid, options: Partial<PathServiceOptions> & { createWorker?: () => WebWorkerLike } = {}): PathService {
  const { createWorker, ...rest } = options;
  const factory = rest.factory ?? (createWorker !== undefined ? webWorkerFactory(createWorker) : sourcesFactory(DEFAULT_SOURCES));
  return new PathService(grid, { ...rest, factory, workers: rest.workers ?? defaultPoolSize() });
}
