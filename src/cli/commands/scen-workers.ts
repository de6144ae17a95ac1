import type { NavGrid } from '../../grid/navgrid.js';
import type { PathResult } from '../../search/result.js';
import type { MovementName } from '../../search/movement.js';
import type { ScenarioQuery } from '../../loaders/movingai.js';
import { createPathService } from '../../service/node.js';

/** What `scen --workers N` measured: the answers in query order and the wall time they took. */
export interface WorkerRun {
  results: PathResult[];
  /** Microseconds from each request to its answer (queueing included). */
  latenciesUs: number[];
  /** Milliseconds from the first request to the last answer, after the workers started. */
  wallMs: number;
}

/**
 * Runs every query through a PathService of `workers` workers, all requested at once, and
 * collects the answers with fetchCompleted as a game loop would.
 */
export async function runOnWorkers(grid: NavGrid, queries: readonly ScenarioQuery[], layer: number, movement: MovementName, workers: number): Promise<WorkerRun> {
  const service = createPathService(grid, { workers, queueLimit: Math.max(10_000, queries.length) });
  try {
    await service.ready();
    const results: PathResult[] = new Array(queries.length);
    const latenciesUs: number[] = new Array(queries.length);
    const slot = new Map<number, number>();
    const t0 = performance.now();
    for (let k = 0; k < queries.length; k++) {
      const q = queries[k];
      slot.set(service.request(q.startX, q.startY, q.goalX, q.goalY, { layer, movement }), k);
    }
    let left = queries.length;
    while (left > 0) {
      // A timer, not setImmediate: a busy main thread would take a core from the workers.
      await new Promise((r) => setTimeout(r, 1));
      for (const r of service.fetchCompleted()) {
        const k = slot.get(r.id)!;
        if (r.status === 'error' || r.status === 'cancelled' || r.status === 'deadline' || r.status === 'rejected' || r.status === 'dropped') {
          throw new Error(`query ${k + 1}: the service answered ${r.status}${r.error ? ` (${r.error})` : ''}`);
        }
        results[k] = { ...r, status: r.status, cells: r.cells.slice() };
        latenciesUs[k] = r.latencyMs * 1000;
        left--;
      }
    }
    return { results, latenciesUs, wallMs: performance.now() - t0 };
  } finally {
    await service.close();
  }
}
