/**
 * Jump point search against A* and PathFinding.js's JumpPointFinder on every Moving AI map in
 * test/fixtures/movingai: mean / median / p95 microseconds per query (wall clock, and process CPU time
 * per query, which is steadier on a shared machine), optimal answers, preprocessing time and
 * memory (search scratch, JPS bit planes, JPS+ table, hierarchy, subgoal graph). The hierarchy is not exact: its
 * row also prints its mean excess over the optimum. A native C++ A* (bench/native/astar.cpp, built here when g++ exists) gives the scale.
 *
 * `npm run bench speed`; TILENAV_BENCH_MAPS=a,b limits the maps.
 */
import { readFileSync, existsSync, mkdtempSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pathfinder, type NavGrid, type SearchAlgorithm } from '../src/index.js';
import { parseMovingAiMap, parseScenario, type ScenarioQuery } from '../src/loaders/index.js';
import { fixture } from '../test/fixtures.js';
import { PEERS, octileLength } from './peers.js';

const MAPS = fixture('movingai/');
const NAMES = ['rmtst01', 'maze-100-1', 'random-100-33', 'room-100-10', 'AcrosstheCape'];
/** Queries per map for the slow rows (evenly spaced): A* ~15 ms and PathFinding.js ~200 ms a query on AcrosstheCape. */
const SLOW_SAMPLE: Record<string, number> = { AcrosstheCape: 40 };
const ASTAR_SAMPLE: Record<string, number> = { AcrosstheCape: 400 };

interface Timing {
  meanUs: number;
  medianUs: number;
  p95Us: number;
  cpuUs: number;
  optimal: number;
  queries: number;
}

/**
 * Warms the JIT up (200 queries, repeated until at least 300 ms have passed, so the optimising
 * compiler has finished with the search loops before the clock starts: the first map of a run
 * otherwise pays for it, and the process CPU time counts the compiler's threads), then times every
 * query; `run` returns the path cost.
 */
export function timeQueries(queries: ScenarioQuery[], run: (q: ScenarioQuery) => number): Timing {
  const warm = queries.slice(0, 200);
  const until = performance.now() + 300;
  do for (const q of warm) run(q);
  while (performance.now() < until);
  const times = new Float64Array(queries.length);
  let optimal = 0;
  const c0 = process.cpuUsage();
  for (let k = 0; k < queries.length; k++) {
    const q = queries[k];
    const t = performance.now();
    const cost = run(q);
    times[k] = (performance.now() - t) * 1000;
    const unreachable = q.optimal === 0 && (q.startX !== q.goalX || q.startY !== q.goalY);
    if (unreachable ? !Number.isFinite(cost) : Math.abs(cost - q.optimal) <= 1e-4 * Math.max(1, q.optimal)) optimal++;
  }
  const cpu = process.cpuUsage(c0);
  times.sort();
  let sum = 0;
  for (const t of times) sum += t;
  return {
    meanUs: sum / times.length,
    medianUs: times[times.length >> 1],
    p95Us: times[Math.min(times.length - 1, Math.floor(0.95 * times.length))],
    cpuUs: (cpu.user + cpu.system) / queries.length,
    optimal,
    queries: queries.length,
  };
}

export function evenly<T>(list: T[], n: number): T[] {
  if (list.length <= n) return list;
  return Array.from({ length: n }, (_, k) => list[Math.floor((k * list.length) / n)]);
}

/** The JPS bit planes' bytes for a grid: walkability by rows and by columns, and the four stop planes (6 bits per padded cell plus row padding). */
export function jpsBytes(grid: NavGrid): number {
  const W = grid.width + 2;
  const H = grid.height + 2;
  return 3 * (((W + 31) >>> 5) * H + ((H + 31) >>> 5) * W + 4) * 4;
}

function compileNative(name: string): string | null {
  const src = fileURLToPath(new URL(`./native/${name}.cpp`, import.meta.url));
  if (!existsSync(src)) return null;
  try {
    execFileSync('g++', ['--version'], { stdio: 'ignore' });
  } catch {
    return null;
  }
  const out = join(mkdtempSync(join(tmpdir(), 'tilenav-speed-')), name);
  const r = spawnSync('g++', ['-O2', '-o', out, src], { encoding: 'utf8' });
  return r.status === 0 && existsSync(out) ? out : null;
}

const nativeAstar = compileNative('astar');
console.log(`\n## Jump point search on the Moving AI maps (Node ${process.version}; native reference: ${nativeAstar ? 'g++ -O2 bench/native/astar.cpp' : 'no g++, skipped'})`);
const only = process.env.TILENAV_BENCH_MAPS?.split(',');
const pfJps = PEERS.find((p) => p.name === 'PathFinding.js JPS (with clone)');
for (const mapName of NAMES) {
  if (only && !only.includes(mapName)) continue;
  const grid = parseMovingAiMap(readFileSync(join(MAPS, `${mapName}.map`), 'utf8')).grid;
  const all = parseScenario(readFileSync(join(MAPS, `${mapName}.map.scen`), 'utf8'));
  const rows: { name: string; t: Timing; prepMs: number; bytes: string }[] = [];
  const scratchBytes = (grid.width + 2) * (grid.height + 2) * 24;
  for (const algorithm of ['astar', 'jps', 'jps+', 'hpa', 'subgoal', 'auto'] as SearchAlgorithm[]) {
    const t0 = performance.now();
    const finder = new Pathfinder(grid);
    finder.prepare({ algorithm });
    const prepMs = performance.now() - t0;
    const queries = algorithm === 'astar' ? evenly(all, ASTAR_SAMPLE[mapName] ?? Infinity) : all;
    const t = timeQueries(queries, (q) => finder.findPath(q.startX, q.startY, q.goalX, q.goalY, { algorithm }).cost);
    // The subgoal graph is the grid's (grid.memory()), its search lists the Pathfinder's.
    const held = (name: string) => [...grid.memory().entries, ...finder.memory()].filter((e) => e.name === name).reduce((sum, e) => sum + e.bytes, 0);
    const bytes =
      algorithm === 'astar'
        ? scratchBytes
        : algorithm === 'hpa'
          ? scratchBytes + jpsBytes(grid) + finder.hierarchy().bytes
          : algorithm === 'subgoal'
            ? scratchBytes + held('subgoal graph') + held('subgoal search lists')
            : scratchBytes + jpsBytes(grid) + (algorithm === 'jps+' ? (grid.width + 2) * (grid.height + 2) * 16 : 0);
    if (algorithm === 'hpa') {
      let ratio = 0;
      let n = 0;
      for (const q of all) {
        if (q.optimal === 0) continue;
        ratio += finder.findPath(q.startX, q.startY, q.goalX, q.goalY, { algorithm }).cost / q.optimal;
        n++;
      }
      console.log(`(${mapName}: hpa mean excess over optimal ${((ratio / n - 1) * 100).toFixed(2)} %)`);
    }
    rows.push({ name: `tilenav ${algorithm}`, t, prepMs, bytes: `${(bytes / 1024).toFixed(0)} KB (${(bytes / grid.size).toFixed(2)} B/cell)` });
    // The subgoal graph is the grid's: drop it so the next rows (auto) run as without it.
    if (algorithm === 'subgoal') grid.releaseDerived();
  }
  if (pfJps) {
    const t0 = performance.now();
    pfJps.prepare(grid.layers[0].walkable, grid.width, grid.height);
    const prepMs = performance.now() - t0;
    const t = timeQueries(evenly(all, SLOW_SAMPLE[mapName] ?? 200), (q) => {
      const p = pfJps.find(q.startX, q.startY, q.goalX, q.goalY);
      return p.length === 0 ? Infinity : octileLength(p);
    });
    rows.push({ name: 'PathFinding.js JumpPointFinder (grid clone per query)', t, prepMs, bytes: 'one object per cell' });
  }
  const astar = rows[0].t.meanUs;
  console.log(`\n### ${mapName} (${grid.width} x ${grid.height}, ${all.length} queries)`);
  console.log('| algorithm | queries | mean us | median us | p95 us | CPU us/query | optimal (hpa: within 1e-4) | x faster than our A* (mean) | preprocessing ms | search memory |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const t = r.t;
    console.log(`| ${r.name} | ${t.queries} | ${t.meanUs.toFixed(1)} | ${t.medianUs.toFixed(1)} | ${t.p95Us.toFixed(1)} | ${t.cpuUs.toFixed(1)} | ${t.optimal}/${t.queries} | ${(astar / t.meanUs).toFixed(1)} | ${r.prepMs.toFixed(1)} | ${r.bytes} |`);
  }
  if (nativeAstar) {
    const out = spawnSync(nativeAstar, [join(MAPS, `${mapName}.map`), join(MAPS, `${mapName}.map.scen`)], { encoding: 'utf8' });
    if (out.status === 0) {
      const j = JSON.parse(out.stdout.trim());
      // Wall and CPU time: the native run happens at another moment, and on a shared machine CPU
      // time is the fairer of the two.
      const ratio = (name: string) => {
        const r = rows.find((x) => x.name === `tilenav ${name}`);
        return r === undefined ? '' : `; tilenav ${name} ${r.t.meanUs.toFixed(1)} us, CPU ${r.t.cpuUs.toFixed(1)} (native A* / ${name} = ${(j.meanUs / r.t.meanUs).toFixed(1)}, CPU ${(j.cpuUs / r.t.cpuUs).toFixed(1)})`;
      };
      const a = rows[0].t;
      console.log(`native C++ A* (all ${j.queries} queries): mean ${j.meanUs.toFixed(1)} us, CPU ${j.cpuUs.toFixed(1)} us; tilenav A* / native A* = ${(a.meanUs / j.meanUs).toFixed(2)}, CPU ${(a.cpuUs / j.cpuUs).toFixed(2)}${ratio('jps')}${ratio('jps+')}${ratio('subgoal')}`);
    }
  }
}
