/**
 * PathService benchmark: throughput of 1 vs 2 workers on AcrosstheCape queries (and the main
 * thread alone for reference), and latency percentiles under a burst of 10,000 requests.
 * Runs the built package (dist/, as `npm run bench` builds first), so the workers are plain JS.
 */
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import type * as ServiceModule from '../src/service/node.js';
import type * as CoreModule from '../src/index.js';
import type * as LoadersModule from '../src/loaders/index.js';
import { readFixture } from '../test/fixtures.js';

const dist = new URL('../dist/', import.meta.url);
if (!existsSync(new URL('service/node.js', dist))) throw new Error('bench/service: run `npm run build` first (npm run bench does)');
const { createPathService } = (await import(new URL('service/node.js', dist).href)) as typeof ServiceModule;
const { Pathfinder } = (await import(new URL('index.js', dist).href)) as typeof CoreModule;
const { parseMovingAiMap, parseScenario } = (await import(new URL('loaders/index.js', dist).href)) as typeof LoadersModule;

const grid = parseMovingAiMap(readFixture('movingai/AcrosstheCape.map')).grid;
const all = parseScenario(readFixture('movingai/AcrosstheCape.map.scen'));
// Every 24th query: all lengths, 123 queries, about two seconds per run on a free core.
const queries = all.filter((_, i) => i % 24 === 0);
const ROUNDS = Number(process.env.SERVICE_BENCH_ROUNDS ?? 5);
/** How often the benchmark collects answers (fetchCompleted), in ms. @default 1 */
const POLL_MS = Number(process.env.SERVICE_BENCH_POLL ?? 1);

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const r1 = (v: number) => Math.round(v * 10) / 10;

let syncCpuMs = 0;
function syncRun(): number {
  const finder = new Pathfinder(grid);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (const q of queries) finder.findPath(q.startX, q.startY, q.goalX, q.goalY);
  const cpu = process.cpuUsage(cpu0);
  syncCpuMs = (cpu.user + cpu.system) / 1000;
  return performance.now() - t0;
}

/**
 * Wall ms for all queries through the pool, the main thread's busy ms meanwhile, and the CPU ms
 * of the whole process (all threads): CPU time does not grow when other programs share the
 * cores, so it says what the pool would do on a quiet machine.
 */
async function poolRun(service: ServiceModule.PathService): Promise<{ wallMs: number; mainMs: number; cpuMs: number }> {
  const elu0 = performance.eventLoopUtilization();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let left = queries.length;
  for (const q of queries) service.request(q.startX, q.startY, q.goalX, q.goalY);
  while (left > 0) {
    // SERVICE_BENCH_POLL=16 polls like a 60 Hz game loop instead.
    await new Promise((r) => setTimeout(r, POLL_MS));
    left -= service.fetchCompleted().length;
  }
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wallMs, mainMs: performance.eventLoopUtilization(elu0).active, cpuMs: (cpu.user + cpu.system) / 1000 };
}

const rows: Record<string, string | number>[] = [];
const sync: number[] = [];
for (let k = 0; k < ROUNDS; k++) sync.push(syncRun());
rows.push({ setup: 'main thread (Pathfinder)', queries: queries.length, medianMs: r1(median(sync)), qps: Math.round(queries.length / (median(sync) / 1000)), 'main busy ms': '', 'cpu ms': r1(syncCpuMs), speedup: '' });

const qps: Record<number, number> = {};
const cpuPerQuery: Record<number, number> = {};
let mainPerQueryMs = 0;
for (const workers of [1, 2]) {
  const service = createPathService(grid, { workers });
  await service.ready();
  await poolRun(service); // warm-up: the workers' JIT
  const walls: number[] = [];
  const mains: number[] = [];
  const cpus: number[] = [];
  for (let k = 0; k < ROUNDS; k++) {
    const { wallMs, mainMs, cpuMs } = await poolRun(service);
    walls.push(wallMs);
    mains.push(mainMs);
    cpus.push(cpuMs);
  }
  await service.close();
  qps[workers] = queries.length / (median(walls) / 1000);
  cpuPerQuery[workers] = median(cpus) / queries.length;
  if (workers === 2) mainPerQueryMs = median(mains) / queries.length;
  rows.push({ setup: `PathService, ${workers} worker${workers > 1 ? 's' : ''}`, queries: queries.length, medianMs: r1(median(walls)), qps: Math.round(qps[workers]), 'main busy ms': r1(median(mains)), 'cpu ms': r1(median(cpus)), speedup: workers === 1 ? '1.00x' : `${(qps[2] / qps[1]).toFixed(2)}x` });
}
console.log(`\nPathService throughput, AcrosstheCape (${queries.length} queries, median of ${ROUNDS}; ${availableParallelism()} cores, load average ${loadavg()[0].toFixed(1)})`);
console.table(rows);

// What a quiet machine would do, from CPU time (process-wide, so it includes the main thread's
// m per query): a worker costs w = cpu - m per query. One worker with the main thread on the other
// core: 1/w1 q/s. Two workers on two cores share them with the main thread: 2/(w2 + m). Eight
// workers on nine cores: 8/w8 with w8 ~ w2, until the main thread saturates at 1/m.
const m = mainPerQueryMs;
const w1 = cpuPerQuery[1] - m;
const w2 = cpuPerQuery[2] - m;
// Measured above 1 is noise: a worker does not get faster for having a neighbour.
const efficiency = Math.min(1, w1 / w2);
const twoOnTwo = (2 * w1) / (w1 / efficiency + m);
const eightOnNine = Math.min(8 * efficiency, w1 / m);
console.log(`measured speed-up 2 vs 1 workers: ${(qps[2] / qps[1]).toFixed(2)}x wall time (other programs share these cores: see the load average)`);
console.log(`CPU per query: ${r1(cpuPerQuery[1])} ms with 1 worker, ${r1(cpuPerQuery[2])} ms with 2 (per-worker efficiency ${(efficiency * 100).toFixed(0)}%); main thread ${(m * 1000).toFixed(0)} us per query`);
console.log(`predicted on a quiet machine: 2 workers on 2 cores ${twoOnTwo.toFixed(2)}x one worker; 8 workers on 9 cores ${eightOnNine.toFixed(1)}x (the main thread caps the pool at ~${Math.round(1000 / m)} q/s)`);

// Burst: 10,000 requests at once (short and medium queries, cycled), latency from request to answer.
const burstQueries = all.filter((q) => q.bucket < 60);
const BURST = 10_000;
const service = createPathService(grid, { workers: 2, queueLimit: BURST });
await service.ready();
const latencies: number[] = [];
const t0 = performance.now();
for (let k = 0; k < BURST; k++) {
  const q = burstQueries[k % burstQueries.length];
  service.request(q.startX, q.startY, q.goalX, q.goalY);
}
while (latencies.length < BURST) {
  await new Promise((r) => setTimeout(r, 1));
  for (const r of service.fetchCompleted()) latencies.push(r.latencyMs);
}
const burstMs = performance.now() - t0;
const stats = service.stats();
await service.close();
latencies.sort((a, b) => a - b);
console.log(`\nBurst of ${BURST} requests (AcrosstheCape buckets < 60), 2 workers: all answered in ${r1(burstMs)} ms (${Math.round(BURST / (burstMs / 1000))} q/s)`);
console.table([{ p50Ms: r1(pct(latencies, 0.5)), p90Ms: r1(pct(latencies, 0.9)), p95Ms: r1(pct(latencies, 0.95)), p99Ms: r1(pct(latencies, 0.99)), maxMs: r1(latencies[latencies.length - 1]), meanMs: r1(stats.meanLatencyMs), failed: stats.failed }]);

// Batching: many short queries, one request per message vs up to 32.
const short = all.filter((q) => q.bucket < 8);
const SHORT = 5_000;
const batchRows: Record<string, string | number>[] = [];
for (const maxBatch of [1, 32]) {
  const svc = createPathService(grid, { workers: 2, queueLimit: SHORT, maxBatch });
  await svc.ready();
  const walls: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const t = performance.now();
    for (let k = 0; k < SHORT; k++) {
      const q = short[k % short.length];
      svc.request(q.startX, q.startY, q.goalX, q.goalY);
    }
    let left = SHORT;
    while (left > 0) {
      await new Promise((r) => setTimeout(r, 1));
      left -= svc.fetchCompleted().length;
    }
    walls.push(performance.now() - t);
  }
  await svc.close();
  batchRows.push({ maxBatch, queries: SHORT, medianMs: r1(median(walls)), qps: Math.round(SHORT / (median(walls) / 1000)) });
}
console.log(`\nBatching, ${SHORT} short queries (AcrosstheCape buckets < 8), 2 workers, median of ${ROUNDS}`);
console.table(batchRows);
