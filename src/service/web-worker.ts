/** The script each Web Worker of a PathService runs (a module worker). */
import { serveWorker } from './worker-core.js';
import { WORKER_LOADED } from './web-handshake.js';

const scope = globalThis as unknown as {
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  addEventListener(type: 'message', listener: (event: { data: never }) => void): void;
};
serveWorker({ post: (m, transfer) => scope.postMessage(m, transfer), listen: (handler) => scope.addEventListener('message', (e) => handler(e.data)) });
// Tells the page the script and its imports loaded: until then it holds the grid back, so a
// worker that fails to load can be replaced without losing the buffers transferred to it.
scope.postMessage(WORKER_LOADED, []);
