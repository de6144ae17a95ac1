/**
 * Jump point search against A* and PathFinding.js's JumpPointFinder on every Moving AI map in
 * test/fixtures/movingai, and on the large maps bench/fetch-maps.sh puts in bench/maps/ (ost100d,
 * a dense Dragon Age map, and TheFrozenSea, an open StarCraft one; TILENAV_BENCH_MAPS_DIR names
 * another folder): mean / median / p95 microseconds per query (wall clock, and process CPU time
 * per query, which is steadier on a shared machine), optimal answers, preprocessing time and
 * memory (search scratch, JPS bit planes, JPS+ table, hierarchy, subgoal graph). The hierarchy is not exact: its
 * row also prints its mean excess over the optimum.
 *
 * Then the native anchors on the same queries (bench/native.ts): the tight C++ A*
 * (bench/native/astar-ref.cpp, g++ -O3; its time covers search and parent walk) against our A*,
 * and warthog's JPS and JPS2+ (bench/native/warthog.sh; its timer covers the search alone) against
 * our JPS and JPS+. Our rows are given with the path and result built (findPath) and for the
 * search alone (the search loop called directly, a bench-only hook), so each ratio compares like
 * with like. A* runs on an evenly spaced sample of the queries on the large maps (said in the table).
 *
 * `npm run bench speed`; TILENAV_BENCH_MAPS=a,b limits the maps.
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pathfinder, type NavGrid, type SearchAlgorithm } from '../src/index.js';
import { parseMovingAiMap, parseScenario, type ScenarioQuery } from '../src/loaders/index.js';
import { padXY, strideOf } from '../src/grid/padded.js';
import type { GridAStar } from '../src/search/algorithms/astar/astar.js';
import type { JumpPointSearch } from '../src/search/algorithms/jps/jps.js';
import { outcome, type SearchScratch } from '../src/search/kernel/scratch.js';
import { subgoalsOf, type SubgoalSearch } from '../src/search/algorithms/subgoal/search.js';
import { fixture } from '../test/fixtures.js';
import { PEERS, octileLength } from './peers.js';
import { nativeAstar, runNativeAstar, runWarthog, warthogAvailable, writeScenario, type NativeRun } from './native.js';

const MAPS = fixture('movingai/');
const NAMES = ['rmtst01', 'maze-100-1', 'random-100-33', 'room-100-10', 'AcrosstheCape'];
/** The large maps, when fetched (bench/fetch-maps.sh): a dense one and an open one, 1024 x 1024. */
const LARGE_DIR = process.env.TILENAV_BENCH_MAPS_DIR ?? fileURLToPath(new URL('./maps/', import.meta.url));
const LARGE = ['ost100d', 'TheFrozenSea'];
/** Queries per map for the slow rows (evenly spaced): A* ~15 ms and PathFinding.js ~200 ms a query on AcrosstheCape. */
const SLOW_SAMPLE: Record<string, number> = { AcrosstheCape: 40, ost100d: 10, TheFrozenSea: 10 };
const ASTAR_SAMPLE: Record<string, number> = { AcrosstheCape: 400, ost100d: 200, TheFrozenSea: 200 };

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

/** The Pathfinder's own search objects, for the search-only rows (a bench-only hook). */
interface Internals {
  astar: GridAStar;
  scratch: SearchScratch;
  jumpPointSearch(): JumpPointSearch;
  subgoalSearch: SubgoalSearch | undefined;
}

/**
 * The search alone, as warthog times it: the loop of `algorithm` called directly, no path cells,
 * no result object, no reachability check (the scenarios hold reachable queries only). Returns the cost.
 */
function searchOnly(finder: Pathfinder, grid: NavGrid, algorithm: 'astar' | 'jps' | 'jps+' | 'subgoal'): (q: ScenarioQuery) => number {
  const f = finder as unknown as Internals;
  const view = grid.searchView(0);
  const W = strideOf(grid.width);
  const out = outcome();
  if (algorithm === 'subgoal') {
    // The graph search alone (joining start and goal included, the path's cells not written).
    const graph = subgoalsOf(grid).graph(0, view);
    const search = f.subgoalSearch!;
    return (q) => {
      const s = padXY(W, q.startX, q.startY);
      const g = padXY(W, q.goalX, q.goalY);
      return s === g ? 0 : search.search(graph, view.pass, s, g, Infinity, out);
    };
  }
  const jps = algorithm === 'astar' ? null : f.jumpPointSearch();
  const plus = algorithm === 'jps+';
  return (q) => {
    const s = padXY(W, q.startX, q.startY);
    const g = padXY(W, q.goalX, q.goalY);
    if (s === g) return 0;
    if (jps === null) f.astar.octile(view, s, g, view.minCost, Infinity, out);
    else jps.search(view, 0, s, g, false, Infinity, plus, out);
    return out.reached ? f.scratch.g[g] : Infinity;
  };
}

const maps: { name: string; dir: string }[] = NAMES.map((name) => ({ name, dir: MAPS }));
const missing: string[] = [];
for (const name of LARGE) {
  if (existsSync(join(LARGE_DIR, `${name}.map`)) && existsSync(join(LARGE_DIR, `${name}.map.scen`))) maps.push({ name, dir: LARGE_DIR });
  else missing.push(name);
}
const native = nativeAstar();
const warthog = warthogAvailable();
const why = (r: { reason: string }) => r.reason;
console.log(`\n## Jump point search on the Moving AI maps (Node ${process.version})`);
console.log(`Native anchors: tight C++ A* ${typeof native === 'string' ? '(bench/native/astar-ref.cpp, g++ -O3)' : `skipped: ${why(native)}`}; warthog JPS / JPS2+ ${warthog === true ? '(bench/native/warthog.sh)' : `skipped: ${why(warthog)}`}.`);
if (missing.length > 0) console.log(`Large maps ${missing.join(', ')} not in ${LARGE_DIR}: run bench/fetch-maps.sh (or set TILENAV_BENCH_MAPS_DIR) to add them.`);
const only = process.env.TILENAV_BENCH_MAPS?.split(',');
const pfJps = PEERS.find((p) => p.name === 'PathFinding.js JPS (with clone)');
for (const { name: mapName, dir } of maps) {
  if (only && !only.includes(mapName)) continue;
  const mapFile = join(dir, `${mapName}.map`);
  const grid = parseMovingAiMap(readFileSync(mapFile, 'utf8')).grid;
  const all = parseScenario(readFileSync(join(dir, `${mapName}.map.scen`), 'utf8'));
  const rows: { name: string; t: Timing; prepMs: number; bytes: string }[] = [];
  const scratchBytes = (grid.width + 2) * (grid.height + 2) * 24;
  const astarQueries = evenly(all, ASTAR_SAMPLE[mapName] ?? Infinity);
  /** Search-only timings and the native anchors, by algorithm. */
  const bare = new Map<string, Timing>();
  const anchors = new Map<string, NativeRun | { reason: string }>();
  for (const algorithm of ['astar', 'jps', 'jps+', 'hpa', 'subgoal', 'auto'] as SearchAlgorithm[]) {
    const t0 = performance.now();
    const finder = new Pathfinder(grid);
    finder.prepare({ algorithm });
    const prepMs = performance.now() - t0;
    const queries = algorithm === 'astar' ? astarQueries : all;
    const t = timeQueries(queries, (q) => finder.findPath(q.startX, q.startY, q.goalX, q.goalY, { algorithm }).cost);
    if (algorithm === 'subgoal') bare.set(algorithm, timeQueries(queries, searchOnly(finder, grid, algorithm)));
    if (algorithm === 'astar' || algorithm === 'jps' || algorithm === 'jps+') {
      bare.set(algorithm, timeQueries(queries, searchOnly(finder, grid, algorithm)));
      // The anchor right after our rows, on the same queries.
      const scen = writeScenario(queries, mapName, grid.width, grid.height);
      anchors.set(algorithm, algorithm === 'astar' ? runNativeAstar(mapFile, scen) : runWarthog(mapFile, scen, algorithm === 'jps' ? 'jps' : 'jps2+'));
    }
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
  console.log(`\n${mapName} against the native anchors, same queries, same run (mean us per query; ratio = tilenav / native, lower is better):`);
  console.log('| tilenav | queries | findPath us (search + path + result) | search only us | optimal (ours, search only) | native anchor | native us | native optimal | ratio findPath | ratio search only | ratio, CPU time | target |');
  console.log('|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|');
  const anchorName: Record<string, string> = { astar: 'tight C++ A* (search + parent walk)', jps: 'warthog jps (search only)', 'jps+': 'warthog jps2+ (search only)' };
  const target: Record<string, string> = { astar: '2.0', jps: '1.2', 'jps+': '1.2' };
  for (const algorithm of ['astar', 'jps', 'jps+']) {
    const full = rows.find((r) => r.name === `tilenav ${algorithm}`)!.t;
    const b = bare.get(algorithm)!;
    const a = anchors.get(algorithm)!;
    const sampled = full.queries < all.length ? ` (sample of ${all.length})` : '';
    const head = `| ${algorithm} | ${full.queries}${sampled} | ${full.meanUs.toFixed(1)} | ${b.meanUs.toFixed(1)} | ${full.optimal}/${full.queries}, ${b.optimal}/${b.queries} | ${anchorName[algorithm]}`;
    if ('reason' in a) console.log(`${head} | skipped: ${a.reason} | | | | | ${target[algorithm]} |`);
    else {
      // CPU time where the anchor's is measured (the native A*: process CPU, map load included):
      // steadier than wall time when other processes share the machine.
      const cpu = Number.isNaN(a.cpuUs) ? '' : `${(full.cpuUs / a.cpuUs).toFixed(2)} (${full.cpuUs.toFixed(0)} / ${a.cpuUs.toFixed(0)} us)`;
      console.log(`${head} | ${a.meanUs.toFixed(1)} | ${a.correct}/${a.queries} | ${(full.meanUs / a.meanUs).toFixed(2)} | ${(b.meanUs / a.meanUs).toFixed(2)} | ${cpu} | ${target[algorithm]} |`);
    }
  }
  // The subgoal graph against warthog's fastest, on the same queries as JPS+ (findPath only).
  // (search only: the graph search with the start and goal joined, CPU beside our JPS+'s search-only CPU in the same run)
  const sub = rows.find((r) => r.name === 'tilenav subgoal')?.t;
  const subBare = bare.get('subgoal');
  const plusBare = bare.get('jps+');
  const w2 = anchors.get('jps+');
  if (sub !== undefined && subBare !== undefined && plusBare !== undefined && w2 !== undefined && !('reason' in w2)) {
    const cpu = `${(subBare.cpuUs / plusBare.cpuUs).toFixed(2)} of our jps+ (${subBare.cpuUs.toFixed(0)} / ${plusBare.cpuUs.toFixed(0)} us)`;
    console.log(`| subgoal | ${sub.queries} | ${sub.meanUs.toFixed(1)} | ${subBare.meanUs.toFixed(1)} | ${sub.optimal}/${sub.queries}, ${subBare.optimal}/${subBare.queries} | ${anchorName['jps+']} | ${w2.meanUs.toFixed(1)} | ${w2.correct}/${w2.queries} | ${(sub.meanUs / w2.meanUs).toFixed(2)} | ${(subBare.meanUs / w2.meanUs).toFixed(2)} | ${cpu} | < 1 |`);
  }
}
