/**
 * PathService benchmark: throughput of 1 vs 2 workers on AcrosstheCape queries (and the main
 * thread alone for reference), with what scaling depends on: the main thread's CPU time per
 * request, the workers' time waiting for a batch and on a CPU, the messages sent, and the
 * machine's load (another program on the cores makes the wall-clock ratio meaningless: take it
 * below a load of 1.5); then latency percentiles under a burst of 10,000 requests, and batching.
 * Runs the built package (dist/, as `npm run bench` builds first), so the workers are plain JS.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import type * as ServiceModule from '../src/service/node.js';
import type * as CoreModule from '../src/index.js';
import type * as LoadersModule from '../src/loaders/index.js';
import { readFixture } from '../test/fixtures.js';

// SERVICE_BENCH_DIST=/path/to/dist/ runs another build of the package (an A/B against an older one).
const dist = process.env.SERVICE_BENCH_DIST ? new URL(`file://${process.env.SERVICE_BENCH_DIST.replace(/\/?$/, '/')}`) : new URL('../dist/', import.meta.url);
if (!existsSync(new URL('service/node.js', dist))) throw new Error('bench/service: run `npm run build` first (npm run bench does)');
const { createPathService } = (await import(new URL('service/node.js', dist).href)) as typeof ServiceModule;
const { Pathfinder } = (await import(new URL('index.js', dist).href)) as typeof CoreModule;
const { parseMovingAiMap, parseScenario } = (await import(new URL('loaders/index.js', dist).href)) as typeof LoadersModule;

const grid = parseMovingAiMap(readFixture('movingai/AcrosstheCape.map')).grid;
const all = parseScenario(readFixture('movingai/AcrosstheCape.map.scen'));
// Every 24th query: all lengths, 123 queries; a run sends them STREAM times over (1,968 requests, about
// 250 ms for one worker on a free core), all at once, so that the pool is measured working, not
// starting and draining (each run's first and last milliseconds, when a worker waits for its first
// batch or for the other to finish, would weigh more on the shorter runs of two workers).
const queries = all.filter((_, i) => i % 24 === 0);
const STREAM = Number(process.env.SERVICE_BENCH_STREAM ?? 16);
const ROUNDS = Number(process.env.SERVICE_BENCH_ROUNDS ?? 5);
/**
 * How often the throughput runs collect answers (fetchCompleted), in ms: a 60 Hz game's frame.
 * A run's time ends at its last answer's arrival (its request's time plus its latency), not at
 * the poll that collects it, so polling less often only spares the main thread. @default 16
 */
const POLL_MS = Number(process.env.SERVICE_BENCH_POLL ?? 16);
const REQUESTS = queries.length * STREAM;

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const r1 = (v: number) => Math.round(v * 10) / 10;
const load0 = loadavg()[0];

let syncCpuMs = 0;
function syncRun(): number {
  const finder = new Pathfinder(grid);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let k = 0; k < STREAM; k++) for (const q of queries) finder.findPath(q.startX, q.startY, q.goalX, q.goalY);
  const cpu = process.cpuUsage(cpu0);
  syncCpuMs = (cpu.user + cpu.system) / 1000;
  return performance.now() - t0;
}

/**
 * CPU nanoseconds of this process's threads `tids` so far (Linux: /proc/self/task/TID/schedstat,
 * whose first field is the thread's time on a CPU), NaN where that cannot be read. Unlike the
 * wall-clock figures, a thread's CPU time does not grow while other programs hold the cores.
 */
function threadCpuNs(tids: number[]): number {
  let ns = 0;
  for (const tid of tids) {
    try {
      ns += Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      return NaN;
    }
  }
  return ns;
}

/** This process's thread ids (Linux), empty elsewhere. */
function threadIds(): number[] {
  try {
    return readdirSync('/proc/self/task').map(Number);
  } catch {
    return [];
  }
}

interface PoolRun {
  wallMs: number;
  /** The main thread's busy time (event loop utilisation: its handlers, not its waiting). */
  mainMs: number;
  /** CPU time of the whole process (every thread). */
  cpuMs: number;
  /** The workers' own time spent answering, summed. */
  busyMs: number;
  batches: number;
  /** CPU ms of the main thread, and of the worker threads (NaN where not known). */
  mainCpuMs: number;
  workerCpuMs: number;
}

/**
 * One run through the pool: wall ms for all requests, the main thread's busy ms meanwhile, the
 * CPU ms of the whole process (all threads: CPU time does not grow when other programs share the
 * cores, so it says what the pool would do on a quiet machine), the workers' busy ms and the
 * messages sent.
 */
async function poolRun(service: ServiceModule.PathService, workerTids: number[]): Promise<PoolRun> {
  const s0 = service.stats();
  const main0 = threadCpuNs([process.pid]);
  const work0 = threadCpuNs(workerTids);
  const elu0 = performance.eventLoopUtilization();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let left = REQUESTS;
  const asked = new Map<number, number>();
  for (let k = 0; k < STREAM; k++) for (const q of queries) asked.set(service.request(q.startX, q.startY, q.goalX, q.goalY), performance.now());
  let last = t0;
  while (left > 0) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    const done = service.fetchCompleted();
    for (const r of done) last = Math.max(last, asked.get(r.id)! + r.latencyMs);
    left -= done.length;
  }
  const wallMs = last - t0;
  const cpu = process.cpuUsage(cpu0);
  const s1 = service.stats();
  const mainCpuMs = (threadCpuNs([process.pid]) - main0) / 1e6;
  const workerCpuMs = (threadCpuNs(workerTids) - work0) / 1e6;
  return { wallMs, mainMs: performance.eventLoopUtilization(elu0).active, cpuMs: (cpu.user + cpu.system) / 1000, busyMs: s1.busyMs - s0.busyMs, batches: s1.batches - s0.batches, mainCpuMs, workerCpuMs };
}

const rows: Record<string, string | number>[] = [];
const sync: number[] = [];
for (let k = 0; k < ROUNDS; k++) sync.push(syncRun());
rows.push({ setup: 'main thread (Pathfinder)', requests: REQUESTS, medianMs: r1(median(sync)), qps: Math.round(REQUESTS / (median(sync) / 1000)), 'main cpu us/request': '', 'workers on cpu': '', 'workers idle': '', messages: '', 'cpu ms': r1(syncCpuMs), speedup: '' });

const qps: Record<number, number> = {};
const cpuPerQuery: Record<number, number> = {};
const mainPerQuery: Record<number, number> = {};
const idle: Record<number, number> = {};
const mainCpu: Record<number, number> = {};
const workerCpu: Record<number, number> = {};
for (const workers of [1, 2]) {
  const before = new Set(threadIds());
  const service = createPathService(grid, { workers });
  await service.ready();
  // The threads the workers added (with their helper threads, which idle).
  const workerTids = threadIds().filter((t) => !before.has(t));
  await poolRun(service, workerTids); // warm-up: the workers' JIT
  const runs: PoolRun[] = [];
  for (let k = 0; k < ROUNDS; k++) runs.push(await poolRun(service, workerTids));
  await service.close();
  const mid = runs.slice().sort((a, b) => a.wallMs - b.wallMs)[runs.length >> 1];
  qps[workers] = REQUESTS / (mid.wallMs / 1000);
  cpuPerQuery[workers] = median(runs.map((r) => r.cpuMs)) / REQUESTS;
  mainPerQuery[workers] = median(runs.map((r) => r.mainMs)) / REQUESTS;
  // Worker time not spent answering: waiting for a batch, or preempted (the workers' clocks are wall clocks).
  idle[workers] = median(runs.map((r) => 1 - r.busyMs / (workers * r.wallMs)));
  mainCpu[workers] = median(runs.map((r) => r.mainCpuMs)) / REQUESTS;
  // The workers' CPU time over what they could have had (two cores less the main thread's share).
  workerCpu[workers] = median(runs.map((r) => r.workerCpuMs / (workers * r.wallMs)));
  rows.push({
    setup: `PathService, ${workers} worker${workers > 1 ? 's' : ''}`,
    requests: REQUESTS,
    medianMs: r1(mid.wallMs),
    qps: Math.round(qps[workers]),
    'main cpu us/request': r1(mainCpu[workers] * 1000),
    'workers on cpu': `${(100 * workerCpu[workers]).toFixed(1)} %`,
    'workers idle': `${(100 * idle[workers]).toFixed(1)} %`,
    messages: median(runs.map((r) => r.batches)),
    'cpu ms': r1(median(runs.map((r) => r.cpuMs))),
    speedup: workers === 1 ? '1.00x' : `${(qps[2] / qps[1]).toFixed(2)}x`,
  });
}
const load1 = loadavg()[0];
console.log(`\nPathService throughput, AcrosstheCape (${queries.length} queries x ${STREAM} = ${REQUESTS} requests per run, all at once; median of ${ROUNDS}; ${availableParallelism()} cores, load average ${load0.toFixed(2)} before, ${load1.toFixed(2)} after)`);
console.table(rows);

// What a quiet machine would do, from CPU time (process-wide, so it includes the main thread's
// m per query): a worker costs w = cpu - m per query. One worker with the main thread on the other
// core: 1/w1 q/s. Two workers on two cores share them with the main thread: 2/(w2 + m). Eight
// workers on nine cores: 8/w8 with w8 ~ w2, until the main thread saturates at 1/m. The main
// thread's own CPU time where the system gives it (Linux), else its event loop's busy time.
const known = Number.isFinite(mainCpu[1]) && Number.isFinite(mainCpu[2]);
const m = known ? mainCpu[2] : mainPerQuery[2];
const w1 = cpuPerQuery[1] - (known ? mainCpu[1] : mainPerQuery[1]);
const w2 = cpuPerQuery[2] - m;
// Measured above 1 is noise: a worker does not get faster for having a neighbour.
const efficiency = Math.min(1, w1 / w2);
const twoOnTwo = (2 * w1) / (w1 / efficiency + m);
const eightOnNine = Math.min(8 * efficiency, w1 / m);
const quiet = Math.max(load0, load1) < 1.5;
console.log(`measured speed-up 2 vs 1 workers: ${(qps[2] / qps[1]).toFixed(2)}x wall time, at load ${load0.toFixed(2)}-${load1.toFixed(2)}${quiet ? '' : ' (other programs share these cores: take this figure on a quiet machine, load below 1.5)'}`);
console.log(`main thread: ${r1(mainCpu[1] * 1000)} us CPU per request with 1 worker, ${r1(mainCpu[2] * 1000)} us with 2 (busy ${r1(mainPerQuery[1] * 1000)} and ${r1(m * 1000)} us by its event loop's clock, which counts time it was preempted); workers waiting for a batch ${(100 * idle[1]).toFixed(1)} % (1 worker), ${(100 * idle[2]).toFixed(1)} % (2) of their time; on a CPU ${(100 * workerCpu[1]).toFixed(1)} % and ${(100 * workerCpu[2]).toFixed(1)} %`);
console.log(`CPU per query: ${r1(cpuPerQuery[1] * 1000)} us with 1 worker, ${r1(cpuPerQuery[2] * 1000)} us with 2 (per-worker efficiency ${(efficiency * 100).toFixed(0)}%)`);
console.log(`predicted on a quiet machine: 2 workers on 2 cores ${twoOnTwo.toFixed(2)}x one worker; 8 workers on 9 cores ${eightOnNine.toFixed(1)}x (the main thread caps the pool at ~${Math.round(1000 / m)} q/s)`);

// Burst: 10,000 requests at once (short and medium queries, cycled), latency from request to answer.
// SERVICE_BENCH_THROUGHPUT_ONLY=1: the throughput runs above, not the burst and batching ones below.
if (!process.env.SERVICE_BENCH_THROUGHPUT_ONLY) {
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
}
