/**
 * A* against the libraries users pick instead, on the same queries of every Moving AI map in
 * test/fixtures/movingai, in one process: mean and p95 microseconds per query, the share of optimal
 * answers (octile cost recomputed from each library's path), bytes allocated per query, and our
 * speed ratio against each. The tight native C++ A* (bench/native/astar-ref.cpp, built with g++
 * -O3 by bench/native.ts when g++ exists) gives the scale line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { Pathfinder } from '../src/index.js';
import { parseMovingAiMap, parseScenario, type ScenarioQuery } from '../src/loaders/index.js';
import { fixture } from '../test/fixtures.js';
import { PEERS, octileLength, type Point } from './peers.js';
import { nativeAstar, runNativeAstar, writeScenario } from './native.js';

const MAPS = fixture('movingai/');
const NAMES = ['rmtst01', 'maze-100-1', 'random-100-33', 'room-100-10', 'AcrosstheCape'];
/** Peer queries per map (evenly spaced through the scenario): PathFinding.js takes ~0.2 s a query on AcrosstheCape. */
const PEER_SAMPLE: Record<string, number> = { AcrosstheCape: 40 };
const DEFAULT_SAMPLE = 200;
/** Untimed queries each library runs first. */
const WARMUP = 20;

let gcCount = 0;
new PerformanceObserver((list) => (gcCount += list.getEntries().length)).observe({ entryTypes: ['gc'] });
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const used = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

interface Row {
  name: string;
  queries: number;
  meanUs: number;
  /** Process CPU time per query: steadier than wall time on a shared machine. */
  cpuUs: number;
  p95Us: number;
  optimal: number;
  bytesPerQuery: string;
}

function measure(name: string, queries: ScenarioQuery[], run: (q: ScenarioQuery) => number, before?: () => void): Row {
  // Every library gets the same warm-up (JIT, and growth of its own arrays) before timing.
  for (const q of queries.slice(0, Math.min(WARMUP, queries.length))) {
    before?.();
    run(q);
  }
  const times: number[] = [];
  let optimal = 0;
  gc();
  const gc0 = gcCount;
  const h0 = used();
  const c0 = process.cpuUsage();
  for (const q of queries) {
    before?.();
    const t = performance.now();
    const cost = run(q);
    times.push((performance.now() - t) * 1000);
    const unreachable = q.optimal === 0 && (q.startX !== q.goalX || q.startY !== q.goalY);
    if (unreachable ? Number.isNaN(cost) || cost === Infinity : Math.abs(cost - q.optimal) <= 1e-4 * Math.max(1, q.optimal)) optimal++;
  }
  const cpu = process.cpuUsage(c0);
  const grown = used() - h0;
  const collected = gcCount !== gc0;
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const perQuery = Math.max(0, grown) / queries.length;
  return {
    name,
    queries: queries.length,
    meanUs: mean,
    cpuUs: (cpu.user + cpu.system) / queries.length,
    p95Us: times[Math.min(times.length - 1, Math.floor(0.95 * times.length))],
    optimal: optimal / queries.length,
    // A collection during the run hides some of what was allocated: then the figure is a floor.
    bytesPerQuery: (collected ? '>= ' : '') + fmtBytes(perQuery),
  };
}

function fmtBytes(b: number): string {
  return b >= 1 << 20 ? `${(b / (1 << 20)).toFixed(1)} MB` : b >= 1024 ? `${(b / 1024).toFixed(1)} KB` : `${Math.round(b)} B`;
}

function sample<T>(list: T[], n: number): T[] {
  if (list.length <= n) return list;
  const step = list.length / n;
  return Array.from({ length: n }, (_, k) => list[Math.floor(k * step)]);
}

const native = nativeAstar();
console.log(`\n## A* on the Moving AI maps (Node ${process.version}; native reference: ${typeof native === 'string' ? 'g++ -O3 bench/native/astar-ref.cpp' : `skipped: ${native.reason}`})`);
const only = process.env.TILENAV_BENCH_MAPS?.split(',');
for (const mapName of NAMES) {
  if (only && !only.includes(mapName)) continue;
  const grid = parseMovingAiMap(readFileSync(join(MAPS, `${mapName}.map`), 'utf8')).grid;
  const all = parseScenario(readFileSync(join(MAPS, `${mapName}.map.scen`), 'utf8'));
  const queries = sample(all, PEER_SAMPLE[mapName] ?? DEFAULT_SAMPLE);
  const finder = new Pathfinder(grid);
  const ours = (q: ScenarioQuery) => finder.findPath(q.startX, q.startY, q.goalX, q.goalY, { algorithm: 'astar' }).cost;
  const rows: Row[] = [];
  rows.push(measure('tilenav A*', queries, ours));
  let pathCells = 0;
  for (const q of queries) pathCells += finder.findPath(q.startX, q.startY, q.goalX, q.goalY, { algorithm: 'astar' }).cells.length;
  const walk = grid.layers[0].walkable;
  for (const peer of PEERS) {
    peer.prepare(walk, grid.width, grid.height);
    rows.push(
      measure(peer.name, queries, (q) => {
        const p: Point[] = peer.find(q.startX, q.startY, q.goalX, q.goalY);
        return p.length === 0 ? Infinity : octileLength(p);
      }, peer.before),
    );
  }
  console.log(`\n### ${mapName} (${grid.width} x ${grid.height}): ${queries.length} of ${all.length} queries; mean path ${(pathCells / queries.length).toFixed(0)} cells`);
  console.log('| library | mean us | p95 us | optimal | allocated per query | tilenav is x faster (mean) |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const ratio = r.name === 'tilenav A*' ? '1' : (r.meanUs / rows[0].meanUs).toFixed(1);
    console.log(`| ${r.name} | ${r.meanUs.toFixed(1)} | ${r.p95Us.toFixed(1)} | ${(r.optimal * 100).toFixed(1)}% | ${r.bytesPerQuery} | ${ratio} |`);
  }
  // Every query, ours and native, for the scale line; our jump point searches beside it.
  const full = measure('tilenav A* (all queries)', all, ours);
  let nativeLine = '';
  const j = runNativeAstar(join(MAPS, `${mapName}.map`), writeScenario(all, mapName, grid.width, grid.height));
  if (!('reason' in j)) {
    // Wall time: the native run happens just after ours, on the same queries.
    nativeLine = `; native C++ A* ${j.meanUs.toFixed(1)} us, optimal ${j.correct}/${j.queries} (tilenav / native = ${(full.meanUs / j.meanUs).toFixed(2)})`;
    for (const algorithm of ['jps', 'jps+'] as const) {
      finder.prepare({ algorithm });
      const r = measure(`tilenav ${algorithm}`, all, (q) => finder.findPath(q.startX, q.startY, q.goalX, q.goalY, { algorithm }).cost);
      nativeLine += `; tilenav ${algorithm} ${r.meanUs.toFixed(1)} us (native A* / ${algorithm} = ${(j.meanUs / r.meanUs).toFixed(1)})`;
    }
  } else if (typeof native === 'string') nativeLine = `; native C++ A*: ${j.reason}`;
  console.log(`All ${all.length} queries: tilenav A* mean ${full.meanUs.toFixed(1)} us, p95 ${full.p95Us.toFixed(1)} us, optimal ${(full.optimal * 100).toFixed(1)}%, allocated ${full.bytesPerQuery} per query${nativeLine}`);
}
