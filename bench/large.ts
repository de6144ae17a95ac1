/**
 * Large worlds: 4096 x 4096 (16.8 M cells) rooms-and-corridors and cave maps from the seeded
 * generators in bench/worldgen.ts. Reports generation and preprocessing time, measured memory
 * (ArrayBuffer bytes per cell: grid, search view, search scratch, JPS bit planes, JPS+ table), and
 * query times for JPS, JPS+, A* and the hierarchy between random walkable cells. Each algorithm first
 * answers WARMUP other queries untimed (compilation, first touches of the scratch arrays), as a
 * long-running game would have done.
 *
 * `npm run bench large`; TILENAV_LARGE_SIZE=1024 for a quicker run.
 */
import { Pathfinder, type NavGrid } from '../src/index.js';
import { caves, rng, roomsAndCorridors } from './worldgen.js';

const SIZE = Number(process.env.TILENAV_LARGE_SIZE ?? 4096);
const JPS_QUERIES = 100;
const ASTAR_QUERIES = 5;
const WARMUP = 20;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const buffers = (): number => {
  gc();
  return process.memoryUsage().arrayBuffers;
};

function randomWalkable(grid: NavGrid, rand: () => number): [number, number] {
  const walk = grid.layers[0].walkable;
  for (;;) {
    const i = Math.floor(rand() * grid.size);
    if (walk[i] === 1) return [grid.xOf(i), grid.yOf(i)];
  }
}

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[s.length >> 1];
}

console.log(`\n## Large worlds: ${SIZE} x ${SIZE} (${((SIZE * SIZE) / 1e6).toFixed(1)} M cells)`);
console.log('| map | walkable | generate ms | grid B/cell | view B/cell | scratch B/cell | JPS planes B/cell | JPS prep ms | JPS mean us | JPS median us | found | A* mean ms (5 queries) | A* / JPS | JPS+ table B/cell | JPS+ build ms | JPS+ mean us | JPS+ median us | hpa B/cell | hpa build ms | hpa mean us | hpa median us | hpa mean excess |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const [name, make] of [
  ['rooms-and-corridors', roomsAndCorridors],
  ['caves', caves],
] as const) {
  const m0 = buffers();
  let t = performance.now();
  const grid = make(SIZE, SIZE, 4);
  const genMs = performance.now() - t;
  const m1 = buffers();
  const stats = grid.stats()[0];
  t = performance.now();
  grid.searchView(0);
  const m2 = buffers();
  const finder = new Pathfinder(grid);
  const m3 = buffers();
  finder.prepare({ algorithm: 'jps' });
  const prepMs = performance.now() - t;
  const m4 = buffers();
  const rand = rng(99);
  const pairs = Array.from({ length: JPS_QUERIES }, () => [...randomWalkable(grid, rand), ...randomWalkable(grid, rand)]);
  const warmRand = rng(7);
  const warm = Array.from({ length: WARMUP }, () => [...randomWalkable(grid, warmRand), ...randomWalkable(grid, warmRand)]);
  const warmUp = (algorithm: 'jps' | 'jps+' | 'hpa'): void => {
    for (const [sx, sy, gx, gy] of warm) finder.findPath(sx, sy, gx, gy, { algorithm });
    gc();
  };
  warmUp('jps');
  const jps: number[] = [];
  const jpsCost: number[] = [];
  let found = 0;
  for (const [sx, sy, gx, gy] of pairs) {
    const s = performance.now();
    const r = finder.findPath(sx, sy, gx, gy, { algorithm: 'jps' });
    jps.push((performance.now() - s) * 1000);
    jpsCost.push(r.cost);
    if (r.status === 'found') found++;
  }
  const astar: number[] = [];
  for (let k = 0; k < ASTAR_QUERIES; k++) {
    const [sx, sy, gx, gy] = pairs[k];
    const s = performance.now();
    const r = finder.findPath(sx, sy, gx, gy, { algorithm: 'astar' });
    astar.push(performance.now() - s);
    if (Math.abs(r.cost - jpsCost[k]) > 1e-6 * Math.max(1, r.cost) && !(r.cost === Infinity && jpsCost[k] === Infinity)) {
      throw new Error(`${name}: A* and JPS disagree on query ${k}: ${r.cost} vs ${jpsCost[k]}`);
    }
  }
  const m5 = buffers();
  t = performance.now();
  finder.prepare({ algorithm: 'jps+' });
  const plusMs = performance.now() - t;
  const m6 = buffers();
  warmUp('jps+');
  const plus: number[] = [];
  for (let k = 0; k < pairs.length; k++) {
    const [sx, sy, gx, gy] = pairs[k];
    const s = performance.now();
    const r = finder.findPath(sx, sy, gx, gy, { algorithm: 'jps+' });
    plus.push((performance.now() - s) * 1000);
    if (Math.abs(r.cost - jpsCost[k]) > 1e-6 * Math.max(1, r.cost) && !(r.cost === Infinity && jpsCost[k] === Infinity)) {
      throw new Error(`${name}: JPS+ and JPS disagree on query ${k}: ${r.cost} vs ${jpsCost[k]}`);
    }
  }
  // The hierarchy: drop the JPS+ table first, so its memory is not counted twice.
  finder.prepare({ algorithm: 'astar' });
  const h = finder.hierarchy(0, 'octile');
  warmUp('hpa');
  const hpa: number[] = [];
  let excess = 0;
  let exact = 0;
  for (let k = 0; k < pairs.length; k++) {
    const [sx, sy, gx, gy] = pairs[k];
    const s = performance.now();
    const r = finder.findPath(sx, sy, gx, gy, { algorithm: 'hpa' });
    hpa.push((performance.now() - s) * 1000);
    if (r.status === 'found' && jpsCost[k] > 0) {
      excess += r.cost / jpsCost[k];
      exact++;
    }
  }
  const n = grid.size;
  const per = (b: number): string => (b / n).toFixed(2);
  const jpsMean = jps.reduce((a, b) => a + b, 0) / jps.length;
  const astarMean = astar.reduce((a, b) => a + b, 0) / astar.length;
  const jpsFirst = jps.slice(0, ASTAR_QUERIES).reduce((a, b) => a + b, 0) / ASTAR_QUERIES;
  console.log(
    `| ${name} | ${((100 * stats.walkable) / n).toFixed(0)}% | ${genMs.toFixed(0)} | ${per(m1 - m0)} | ${per(m2 - m1)} | ${per(m3 - m2)} | ${per(m4 - m3)} | ${prepMs.toFixed(0)} | ${jpsMean.toFixed(0)} | ${median(jps).toFixed(0)} | ${found}/${JPS_QUERIES} | ${astarMean.toFixed(0)} | ${((astarMean * 1000) / jpsFirst).toFixed(1)} | ${per(m6 - m5)} | ${plusMs.toFixed(0)} | ${(plus.reduce((a, b) => a + b, 0) / plus.length).toFixed(0)} | ${median(plus).toFixed(0)} | ${per(h.bytes)} | ${h.buildMs.toFixed(0)} | ${(hpa.reduce((a, b) => a + b, 0) / hpa.length).toFixed(0)} | ${median(hpa).toFixed(0)} | ${((excess / exact - 1) * 100).toFixed(2)} % |`,
  );
}
console.log('Scratch grows by up to 20 B per cell of heap (node i32, f f64, g f64) as the open list grows (not counted above: it is allocated on demand).');
