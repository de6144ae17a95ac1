/** The script each Node worker of a PathService runs. */
import { parentPort } from 'node:worker_threads';
import { serveWorker } from './worker-core.js';

const port = parentPort;
if (port === null) throw new Error('tilenav: node-worker is started by the PathService, not run directly');
serveWorker({ post: (m, transfer) => port.postMessage(m, transfer), listen: (handler) => port.on('message', handler) });
