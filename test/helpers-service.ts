/**
 * A path service for tests whose workers run in this thread: the worker code (serveWorker) behind
 * ports that pass each message as a structured clone in its own macrotask, as across threads.
 */
import { serveWorker, type WorkerFactory, type WorkerPort } from '../src/service/node.js';
import type { FromWorker, ToWorker } from '../src/service/protocol.js';

/**
 * Workers in this thread, one message per macrotask each way (structured clone with transfer, as
 * across threads): deterministic and fast, and `hold` lets a test keep answers back.
 */
export function inProcess(options: { failOnRun?: () => boolean; failAtStart?: boolean } = {}): WorkerFactory & { ports: (WorkerPort & { crash(): void; hold: boolean; held: FromWorker[]; release(): void })[] } {
  const ports: (WorkerPort & { crash(): void; hold: boolean; held: FromWorker[]; release(): void })[] = [];
  const factory = (() => {
    let toMain: ((m: FromWorker) => void) | null = null;
    let fail: ((e: Error) => void) | null = null;
    let toWorker: ((m: ToWorker) => void) | null = null;
    let dead = false;
    const held: FromWorker[] = [];
    serveWorker({
      post: (m, transfer) => {
        const copy = structuredClone(m, { transfer });
        setImmediate(() => {
          if (dead) return;
          if (port.hold) held.push(copy);
          else toMain!(copy);
        });
      },
      listen: (h) => (toWorker = h),
    });
    const port = {
      hold: false,
      /** The answers kept back while `hold` is set. */
      held,
      post(m: ToWorker, transfer: ArrayBuffer[]) {
        const copy = structuredClone(m, { transfer });
        setImmediate(() => {
          if (dead) return;
          if (options.failAtStart || ((copy.t === 'run' || copy.t === 'field') && options.failOnRun?.())) {
            port.crash();
            return;
          }
          toWorker!(copy);
        });
      },
      start(onMessage: (m: FromWorker) => void, onFailure: (e: Error) => void) {
        toMain = onMessage;
        fail = onFailure;
      },
      terminate() {
        dead = true;
      },
      crash() {
        if (dead) return;
        dead = true;
        fail!(new Error('simulated crash'));
      },
      release() {
        port.hold = false;
        for (const m of held.splice(0)) toMain!(m);
      },
    };
    ports.push(port);
    return port;
  }) as unknown as WorkerFactory & { ports: typeof ports };
  factory.ports = ports;
  return factory;
}

