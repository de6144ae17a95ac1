/** The script each Web Worker of a PathService runs (a module worker). */
import { serveWorker } from './worker-core.js';

const scope = globalThis as unknown as {
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  addEventListener(type: 'message', listener: (event: { data: never }) => void): void;
};
serveWorker({ post: (m, transfer) => scope.postMessage(m, transfer), listen: (handler) => scope.addEventListener('message', (e) => handler(e.data)) });
