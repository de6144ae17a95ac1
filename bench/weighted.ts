/**
 * Weighted search on maps with terrain regions: A*, weighted jump point search alone (`jps`),
 * `auto` (weighted jump point search reading the landmark bounds, built by `prepare` before the
 * timing, for octile and cardinal movement) and the cluster hierarchy. Maps: every Moving AI
 * fixture with seeded regions of sand, mud, water... painted over it, and a seeded 1024 x 1024
 * game-like world. Per map and algorithm: mean and median microseconds per query (the middle of
 * three passes, after a warm-up of at least 300 ms), `auto`'s
 * speed-up over A*, how many costs differ from A*'s (must be 0), the nodes each expands (cells for A*,
 * jump points for `auto`: the same on any machine at any load), the landmarks' build time and
 * memory, the hierarchy's mean excess over the optimal cost, and heap growth per query.
 */
import { Pathfinder, type NavGrid, type SearchAlgorithm } from '../src/index.js';
import { landmarksOf } from '../src/search/bounds/landmarks/landmark-bounds.js';
import { mulberry32 } from '../src/query/index.js';
import { parseMovingAiMap, parseScenario } from '../src/loaders/index.js';
import { readFixture } from '../test/fixtures.js';
import { paintRegions, terrainWorld } from './regions.js';

const NAMES = ['rmtst01', 'maze-100-1', 'random-100-33', 'room-100-10', 'AcrosstheCape'];
const SAMPLE = 150;
const WARMUP = 10;
const PASSES = 3;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

type Query = [number, number, number, number];

interface Timing {
  mean: number;
  median: number;
  costs: Float64Array;
  bytes: number;
  /** Mean nodes expanded per query (cells for A*, jump points for JPS): the same on every machine and load. */
  expanded: number;
}

function time(finder: Pathfinder, queries: Query[], algorithm: SearchAlgorithm, movement: 'octile' | 'cardinal'): Timing {
  // Warm-up: the queries in turn, at least WARMUP of them and for at least 300 ms, so the
  // optimising compiler is done with this algorithm's loop before the clock starts (a small map's
  // whole run takes less, and code compiled for a few queries is recompiled for the others).
  const until = performance.now() + 300;
  for (let k = 0; k < WARMUP || performance.now() < until; k++) {
    const q = queries[k % queries.length];
    finder.findPath(q[0], q[1], q[2], q[3], { algorithm, movement });
  }
  // Three timed passes over the queries; the pass with the middle mean is reported (a shared
  // machine's noise moves one pass of a small map by a factor of two). Bytes: the first pass.
  const costs = new Float64Array(queries.length);
  const passes: Float64Array[] = [];
  let bytes = 0;
  let expanded = 0;
  for (let pass = 0; pass < PASSES; pass++) {
    const times = new Float64Array(queries.length);
    gc();
    const h0 = process.memoryUsage().heapUsed;
    for (let k = 0; k < queries.length; k++) {
      const q = queries[k];
      const t = performance.now();
      const r = finder.findPath(q[0], q[1], q[2], q[3], { algorithm, movement });
      times[k] = (performance.now() - t) * 1000;
      costs[k] = r.cost;
      if (pass === 0) expanded += r.expanded;
    }
    if (pass === 0) bytes = Math.max(0, process.memoryUsage().heapUsed - h0) / queries.length;
    passes.push(times);
  }
  const meanOf = (t: Float64Array): number => t.reduce((a, b) => a + b, 0) / t.length;
  passes.sort((a, b) => meanOf(a) - meanOf(b));
  const times = passes[passes.length >> 1];
  const sorted = times.slice().sort();
  return { mean: meanOf(times), median: sorted[sorted.length >> 1], costs, bytes, expanded: expanded / queries.length };
}

/** `count` seeded queries between walkable cells (reachability not required). */
function randomQueries(grid: NavGrid, count: number, seed: number): Query[] {
  const rnd = mulberry32(seed);
  const walk = grid.layers[0].walkable;
  const pick = (): [number, number] => {
    for (;;) {
      const i = Math.floor(rnd() * grid.size);
      if (walk[i] === 1) return [i % grid.width, Math.floor(i / grid.width)];
    }
  };
  return Array.from({ length: count }, () => [...pick(), ...pick()] as Query);
}

function fmt(us: number): string {
  return us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(0)} µs`;
}

const maps: { name: string; grid: NavGrid; queries: Query[] }[] = [];
for (const [k, name] of NAMES.entries()) {
  const grid = paintRegions(parseMovingAiMap(readFixture(`movingai/${name}.map`)).grid, 100 + k, { roads: 2 });
  const scen = parseScenario(readFixture(`movingai/${name}.map.scen`));
  const step = Math.max(1, Math.floor(scen.length / SAMPLE));
  const queries: Query[] = [];
  for (let i = 0; i < scen.length && queries.length < SAMPLE; i += step) queries.push([scen[i].startX, scen[i].startY, scen[i].goalX, scen[i].goalY]);
  maps.push({ name: `${name}+regions`, grid, queries });
}
const world = terrainWorld(1024, 1);
maps.push({ name: 'terrain-1024', grid: world, queries: randomQueries(world, 100, 2) });

console.log("\nWeighted maps (terrain regions): A*, weighted JPS alone, 'auto' (weighted JPS with landmark bounds) and hpa, same queries; costs must not differ");
const rows: Record<string, string | number>[] = [];
for (const { name, grid, queries } of maps) {
  for (const movement of ['octile', 'cardinal'] as const) {
    const finder = new Pathfinder(grid);
    finder.prepare({ algorithm: 'jps', landmarks: 0 });
    const a = time(finder, queries, 'astar', movement);
    const j = time(finder, queries, 'jps', movement);
    // The landmark tables, built before the timing as a game would at load (prepare), once per grid.
    const lb = performance.now();
    finder.prepare({ movement, landmarks: 8 });
    const landmarksMs = performance.now() - lb;
    const l = time(finder, queries, 'auto', movement);
    let differ = 0;
    for (const other of [j, l]) {
      for (let k = 0; k < queries.length; k++) if (!(Math.abs(a.costs[k] - other.costs[k]) <= 1e-9 * Math.max(1, a.costs[k])) && a.costs[k] !== other.costs[k]) differ++;
    }
    const row: Record<string, string | number> = {
      map: name,
      movement,
      queries: queries.length,
      'A* mean': fmt(a.mean),
      'jps mean': fmt(j.mean),
      'auto mean': fmt(l.mean),
      'auto median': fmt(l.median),
      'auto speed-up (mean)': `${(a.mean / l.mean).toFixed(1)}x`,
      'auto speed-up (median)': `${(a.median / l.median).toFixed(1)}x`,
      'costs differing': differ,
      'A* expanded': Math.round(a.expanded),
      'auto expanded': Math.round(l.expanded),
      'landmarks build': `${landmarksMs.toFixed(0)} ms`,
      'landmarks MB': (landmarksOf(grid).bytes / 2 ** 20).toFixed(1),
      'A* B/query': Math.round(a.bytes),
      'auto B/query': Math.round(l.bytes),
    };
    const hb = performance.now();
    finder.prepare({ algorithm: 'hpa', movement });
    const build = performance.now() - hb;
    const h = time(finder, queries, 'hpa', movement);
    let excess = 0;
    let found = 0;
    for (let k = 0; k < queries.length; k++) {
      if (a.costs[k] === Infinity || a.costs[k] === 0) continue;
      excess += h.costs[k] / a.costs[k] - 1;
      found++;
    }
    row['hpa mean'] = fmt(h.mean);
    row['hpa excess'] = `${((100 * excess) / Math.max(1, found)).toFixed(2)} %`;
    row['hpa build'] = `${build.toFixed(0)} ms`;
    rows.push(row);
  }
}
console.table(rows);
