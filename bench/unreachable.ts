/**
 * `npm run bench unreachable`: goals the start cannot reach, answered from the component labels
 * (findPath's default) against a search of the start's whole component (`reachabilityCheck: false`).
 * 1. The Moving AI maps of test/fixtures/movingai and a seeded 1024 x 1024 map of islands: a start in
 *    the largest component, goals in other components. The first query on a fresh grid builds the
 *    labels (the search view is built beforehand and not counted); then the mean and worst query.
 * 2. Doors on the islands map toggled between queries, after untimed toggles that compile the
 *    code: the time to bring the labels up to date after each toggle (closing a door splits its
 *    island off, opening joins it), the grid change itself and the next query.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { NavGrid, Pathfinder } from '../src/index.js';
import { mulberry32 } from '../src/query/index.js';
import { parseMovingAiMap } from '../src/loaders/index.js';
import { componentsOf } from '../src/search/bounds/components.js';
import { SearchScratch } from '../src/search/kernel/scratch.js';
import { movementModel } from '../src/search/movement.js';
import { paddedSize } from '../src/grid/padded.js';
import { fixture } from '../test/fixtures.js';
import { islands } from './worldgen.js';

const QUERIES_ON = 2000;
const QUERIES_OFF = 20;
const TOGGLES = 400;
const WARMUP_TOGGLES = 100;
const us = (ms: number) => (ms * 1000).toFixed(1);
/** Mean, median, 99th percentile and worst of times in ms. */
function summary(v: number[]): { mean: number; median: number; p99: number; worst: number } {
  const s = [...v].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { mean: s.reduce((a, b) => a + b, 0) / s.length, median: at(0.5), p99: at(0.99), worst: s[s.length - 1] };
}

/** Component of every cell under octile moves without corner cutting (a plain flood), -1 when blocked. */
function components(grid: NavGrid): { comp: Int32Array; sizes: number[] } {
  const walk = grid.layers[0].walkable;
  const { width: w, height: h } = grid;
  const comp = new Int32Array(grid.size).fill(-1);
  const sizes: number[] = [];
  const queue = new Int32Array(grid.size);
  const open = (x: number, y: number) => x >= 0 && y >= 0 && x < w && y < h && walk[y * w + x] === 1;
  for (let i = 0; i < grid.size; i++) {
    if (walk[i] !== 1 || comp[i] >= 0) continue;
    const c = sizes.length;
    let head = 0;
    let tail = 0;
    queue[tail++] = i;
    comp[i] = c;
    while (head < tail) {
      const j = queue[head++];
      const x = j % w;
      const y = (j - x) / w;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          if ((dx === 0 && dy === 0) || !open(x + dx, y + dy)) continue;
          if (dx !== 0 && dy !== 0 && !(open(x + dx, y) && open(x, y + dy))) continue;
          const n = (y + dy) * w + x + dx;
          if (comp[n] < 0) {
            comp[n] = c;
            queue[tail++] = n;
          }
        }
      }
    }
    sizes.push(tail);
  }
  return { comp, sizes };
}

/** Up to `n` (start, goal) cell pairs: starts in the largest component, goals in any other. */
function unreachablePairs(grid: NavGrid, n: number, seed: number): number[][] {
  const { comp, sizes } = components(grid);
  if (sizes.length < 2) return [];
  const main = sizes.indexOf(Math.max(...sizes));
  const starts: number[] = [];
  const goals: number[] = [];
  for (let i = 0; i < grid.size; i++) {
    if (comp[i] === main) starts.push(i);
    else if (comp[i] >= 0) goals.push(i);
  }
  const rnd = mulberry32(seed);
  return Array.from({ length: n }, () => [starts[Math.floor(rnd() * starts.length)], goals[Math.floor(rnd() * goals.length)]]);
}

interface Row {
  first: number;
  /** CPU time of the first query (user + system), less sensitive than wall time to a busy machine. */
  firstCpu: number;
  mean: number;
  median: number;
  p99: number;
  worst: number;
  expanded: number;
}

/** First query on a fresh Pathfinder and grid labels, then mean / p99 / worst of the rest (ms). */
function run(make: () => NavGrid, pairs: number[][], check: boolean, count: number): Row {
  const grid = make();
  // The search view is built beforehand; the first query builds the labels (with them) or the
  // jump point search's bit planes (without: the search runs).
  grid.searchView(0);
  const finder = new Pathfinder(grid);
  const w = grid.width;
  const query = (p: number[]) => finder.findPath(p[0] % w, Math.floor(p[0] / w), p[1] % w, Math.floor(p[1] / w), { reachabilityCheck: check });
  const cpu0 = process.cpuUsage();
  let t = performance.now();
  const r = query(pairs[0]);
  const first = performance.now() - t;
  const cpu = process.cpuUsage(cpu0);
  const firstCpu = (cpu.user + cpu.system) / 1000;
  if (r.status !== 'no-path') throw new Error(`expected no-path, got ${r.status}`);
  const times: number[] = [];
  let expanded = 0;
  for (let k = 1; k <= count; k++) {
    const p = pairs[k % pairs.length];
    t = performance.now();
    const q = query(p);
    times.push(performance.now() - t);
    expanded += q.expanded;
  }
  return { first, firstCpu, ...summary(times), expanded: expanded / count };
}

console.log('\n## Unreachable goals: component labels (default) vs a search of the start component');
console.log(`${QUERIES_ON} queries with labels, ${QUERIES_OFF} without; octile; times in us; the first query on a fresh grid builds the labels`);
console.log('| map | cells | components | labels: first | first CPU | mean | median | p99 | worst | expanded | no labels: first | mean | median | worst | expanded |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
const mapsDir = fixture('movingai/');
const maps: [string, () => NavGrid][] = readdirSync(mapsDir)
  .filter((n) => n.endsWith('.map'))
  .sort()
  .map((file) => [file, () => parseMovingAiMap(readFileSync(mapsDir + file, 'utf8'), { file }).grid]);
maps.push(['islands 1024 x 1024', () => islands(1024, 42).grid]);
for (const [name, make] of maps) {
  const sample = make();
  const pairs = unreachablePairs(sample, 512, 7);
  const n = components(sample).sizes.length;
  if (pairs.length === 0) {
    console.log(`| ${name} | ${sample.size} | ${n} | one component: no unreachable goal ||||||||||`);
    continue;
  }
  const on = run(make, pairs, true, QUERIES_ON);
  const off = run(make, pairs, false, QUERIES_OFF);
  console.log(`| ${name} | ${sample.size} | ${n} | ${us(on.first)} | ${us(on.firstCpu)} | ${us(on.mean)} | ${us(on.median)} | ${us(on.p99)} | ${us(on.worst)} | ${on.expanded.toFixed(0)} | ${us(off.first)} | ${us(off.mean)} | ${us(off.median)} | ${us(off.worst)} | ${off.expanded.toFixed(0)} |`);
}

// ---- 2. doors toggled between queries ------------------------------------------------------------
{
  const { grid, doors, inner } = islands(1024, 42);
  const finder = new Pathfinder(grid);
  finder.prepare();
  const { comp, sizes } = components(grid);
  const main = sizes.indexOf(Math.max(...sizes));
  const land: number[] = [];
  for (let i = 0; i < grid.size; i++) if (comp[i] === main) land.push(i);
  const pick = mulberry32(11);
  const pairs = Array.from({ length: 512 }, () => [land[Math.floor(pick() * land.length)], inner[Math.floor(pick() * inner.length)]]);
  const w = grid.width;
  const query = (p: number[]) => finder.findPath(p[0] % w, Math.floor(p[0] / w), p[1] % w, Math.floor(p[1] / w));
  query(pairs[0]);
  // The labels brought up to date directly (what the next query does first), on a scratch of our own.
  const labels = componentsOf(grid);
  const scratch = new SearchScratch(paddedSize(grid.width, grid.height));
  const model = movementModel('octile');
  const refresh = () => labels.labels(0, model, grid.searchView(0).pass, scratch);
  const rnd = mulberry32(5);
  const times = { open: [] as number[], close: [] as number[], grid: [] as number[], query: [] as number[] };
  // The first toggles compile the update code; a running game has long done that: untimed.
  for (let k = 0; k < WARMUP_TOGGLES; k++) {
    const door = doors[Math.floor(rnd() * doors.length)];
    grid.setWalkable(door % w, Math.floor(door / w), grid.layers[0].walkable[door] === 0);
    refresh();
  }
  for (let k = 0; k < TOGGLES; k++) {
    const door = doors[Math.floor(rnd() * doors.length)];
    const opening = grid.layers[0].walkable[door] === 0;
    let t = performance.now();
    grid.setWalkable(door % w, Math.floor(door / w), opening);
    times.grid.push(performance.now() - t);
    t = performance.now();
    refresh();
    (opening ? times.open : times.close).push(performance.now() - t);
    t = performance.now();
    const r = query(pairs[k % pairs.length]);
    times.query.push(performance.now() - t);
    if (r.status !== 'no-path' || r.expanded !== 0) throw new Error('a goal on a doorless island was searched for');
  }
  console.log(`\nDoors on the islands map (islands 12 to 60 cells across), ${TOGGLES} toggles after ${WARMUP_TOGGLES} untimed: the labels brought up to date after each`);
  console.log('| | count | mean us | median us | p99 us | max us |');
  console.log('|---|---:|---:|---:|---:|---:|');
  const line = (name: string, v: number[]) => {
    const s = summary(v);
    console.log(`| ${name} | ${v.length} | ${us(s.mean)} | ${us(s.median)} | ${us(s.p99)} | ${us(s.worst)} |`);
  };
  line('labels: door opened (joins an island)', times.open);
  line('labels: door closed (splits it off)', times.close);
  line('the grid change itself (view, other listeners)', times.grid);
  line('the next unreachable query', times.query);
}
