/**
 * The compatibility entries against the packages they stand in for (`npm run bench compat`): the
 * same queries of the Moving AI maps in test/fixtures/movingai, answered by PathFinding.js and by
 * tilenav/compat/pathfinding with the same calling code, by EasyStar.js and tilenav/compat/easystar
 * likewise, and by tilenav's own Pathfinder for scale. Octile movement without corner cutting (what
 * the scenarios' optimal costs assume). Mean and p95 wall time, CPU time per query, the share of
 * answers at the optimal cost, and how many times faster the compat entry is. Then the share of
 * EasyStar.js's paths that cost more than the cheapest on random grids (its diagonals cost 1.4).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { Pathfinder } from '../src/index.js';
import { parseMovingAiMap, parseScenario, type ScenarioQuery } from '../src/loaders/index.js';
import { mulberry32 } from '../src/query/index.js';
import * as PFC from '../src/compat/pathfinding.js';
import * as ESC from '../src/compat/easystar.js';
import { fixture } from '../test/fixtures.js';
import { octileLength, type Point } from './peers.js';

const require = createRequire(import.meta.url);
const PF = require('pathfinding') as typeof PFC;
const ES = require('easystarjs') as typeof ESC;

const NAMES = ['rmtst01', 'maze-100-1', 'random-100-33', 'room-100-10', 'AcrosstheCape'];
/** Queries per map, evenly spaced through the scenario: the originals take ~0.2 s a query on AcrosstheCape. */
const SAMPLE: Record<string, number> = { AcrosstheCape: 30 };
const DEFAULT_SAMPLE = 100;
const WARMUP = 10;

interface Row {
  name: string;
  meanUs: number;
  p95Us: number;
  cpuUs: number;
  optimal: number;
}

/** Times `run` (which returns the octile cost of its answer, Infinity for none) on every query. */
function measure(name: string, queries: ScenarioQuery[], run: (q: ScenarioQuery) => number): Row {
  for (const q of queries.slice(0, WARMUP)) run(q);
  const times: number[] = [];
  let optimal = 0;
  const c0 = process.cpuUsage();
  for (const q of queries) {
    const t = performance.now();
    const cost = run(q);
    times.push((performance.now() - t) * 1000);
    if (Math.abs(cost - q.optimal) <= 1e-4 * Math.max(1, q.optimal)) optimal++;
  }
  const cpu = process.cpuUsage(c0);
  times.sort((a, b) => a - b);
  return {
    name,
    meanUs: times.reduce((a, b) => a + b, 0) / times.length,
    p95Us: times[Math.min(times.length - 1, Math.floor(0.95 * times.length))],
    cpuUs: (cpu.user + cpu.system) / queries.length,
    optimal: optimal / queries.length,
  };
}

function sample<T>(list: T[], n: number): T[] {
  if (list.length <= n) return list;
  const step = list.length / n;
  return Array.from({ length: n }, (_, k) => list[Math.floor(k * step)]);
}

const lengthOf = (path: number[][]) => (path.length === 0 ? Infinity : octileLength(path as Point[]));
const pointsLength = (path: { x: number; y: number }[] | null) => (path === null ? Infinity : octileLength(path.map((p) => [p.x, p.y] as Point)));

/** An EasyStar.js-shaped finder in sync mode, octile without corner cutting, and a one-query runner. */
function easyStar(lib: typeof ESC, rows: number[][]): (q: ScenarioQuery) => number {
  const es = new lib.js();
  es.setGrid(rows);
  es.setAcceptableTiles([0]);
  es.enableDiagonals();
  es.disableCornerCutting();
  es.enableSync();
  return (q) => {
    let cost = Infinity;
    es.findPath(q.startX, q.startY, q.goalX, q.goalY, (p) => (cost = pointsLength(p)));
    es.calculate();
    return cost;
  };
}

const [l1, l5, l15] = loadavg();
console.log(`\n## Compatibility entries against PathFinding.js 0.4 and EasyStar.js 0.4 (Node ${process.version}, load ${l1.toFixed(2)} ${l5.toFixed(2)} ${l15.toFixed(2)})`);
for (const mapName of NAMES) {
  const { grid } = parseMovingAiMap(readFileSync(fixture(`movingai/${mapName}.map`), 'utf8'));
  const all = parseScenario(readFileSync(fixture(`movingai/${mapName}.map.scen`), 'utf8'));
  const queries = sample(all, SAMPLE[mapName] ?? DEFAULT_SAMPLE);
  const walk = grid.layers[0].walkable;
  const matrix: number[][] = [];
  for (let y = 0; y < grid.height; y++) matrix.push(Array.from(walk.subarray(y * grid.width, (y + 1) * grid.width), (w) => (w ? 0 : 1)));
  const rule = { diagonalMovement: PFC.DiagonalMovement.OnlyWhenNoObstacles };

  // PathFinding.js writes its search onto the grid's nodes: its documented way is a clone per query.
  const realGrid = new PF.Grid(matrix);
  const realAStar = new PF.AStarFinder(rule);
  const realJps = PF.JumpPointFinder(rule);
  const ourGrid = new PFC.Grid(matrix);
  const ourAStar = new PFC.AStarFinder(rule);
  const ourJps = PFC.JumpPointFinder(rule);
  const finder = new Pathfinder(grid);
  const groups: [Row, Row[]][] = [
    [
      measure('PathFinding.js A*, clone per query', queries, (q) => lengthOf(realAStar.findPath(q.startX, q.startY, q.goalX, q.goalY, realGrid.clone()))),
      [
        measure('compat A*, same code (clone per query)', queries, (q) => lengthOf(ourAStar.findPath(q.startX, q.startY, q.goalX, q.goalY, ourGrid.clone()))),
        measure('compat A*, one grid (no clone)', queries, (q) => lengthOf(ourAStar.findPath(q.startX, q.startY, q.goalX, q.goalY, ourGrid))),
      ],
    ],
    [
      measure('PathFinding.js JumpPointFinder, clone per query', queries, (q) => lengthOf(realJps.findPath(q.startX, q.startY, q.goalX, q.goalY, realGrid.clone()))),
      [measure('compat JumpPointFinder, one grid', queries, (q) => lengthOf(ourJps.findPath(q.startX, q.startY, q.goalX, q.goalY, ourGrid)))],
    ],
    [measure('EasyStar.js, sync', queries, easyStar(ES, matrix)), [measure('compat EasyStar, sync', queries, easyStar(ESC, matrix))]],
  ];
  const direct = measure('tilenav Pathfinder.findPath (for scale)', queries, (q) => finder.findPath(q.startX, q.startY, q.goalX, q.goalY).cost);
  console.log(`\n### ${mapName} (${grid.width} x ${grid.height}): ${queries.length} of ${all.length} queries`);
  console.log('| code | mean us | p95 us | CPU us | optimal | compat is x faster (mean) |');
  console.log('|---|---:|---:|---:|---:|---:|');
  const line = (r: Row, ratio: string) => console.log(`| ${r.name} | ${r.meanUs.toFixed(1)} | ${r.p95Us.toFixed(1)} | ${r.cpuUs.toFixed(1)} | ${(r.optimal * 100).toFixed(1)}% | ${ratio} |`);
  for (const [theirs, ours] of groups) {
    line(theirs, '');
    for (const r of ours) line(r, (theirs.meanUs / r.meanUs).toFixed(1));
  }
  line(direct, '');
}

// EasyStar.js prices a diagonal at 1.4: how often is its path dearer than the cheapest (sqrt 2)?
const rnd = mulberry32(2024);
let found = 0;
let dearer = 0;
let excess = 0;
let worst = 0;
const SIDE = 64;
for (let t = 0; t < 20; t++) {
  const rows = Array.from({ length: SIDE }, () => Array.from({ length: SIDE }, () => (rnd() < 0.25 ? 1 : 0)));
  const theirs = easyStar(ES, rows);
  const ours = easyStar(ESC, rows);
  for (let k = 0; k < 50; k++) {
    const q = { startX: Math.floor(rnd() * SIDE), startY: Math.floor(rnd() * SIDE), goalX: Math.floor(rnd() * SIDE), goalY: Math.floor(rnd() * SIDE) } as ScenarioQuery;
    rows[q.startY][q.startX] = 0;
    rows[q.goalY][q.goalX] = 0;
    const a = theirs(q);
    const b = ours(q);
    if (b === Infinity || b === 0) continue;
    found++;
    if (a > b + 1e-9) {
      dearer++;
      excess += a / b - 1;
      worst = Math.max(worst, a / b - 1);
    }
  }
}
console.log(`\nEasyStar.js on ${found} random queries (64 x 64, 25% walls, octile without corner cutting): ${((dearer / found) * 100).toFixed(1)}% of its paths cost more than the cheapest (sqrt 2 diagonals), by ${dearer ? ((excess / dearer) * 100).toFixed(2) : '0'}% on average, ${(worst * 100).toFixed(2)}% at worst; the compat entry's cost the least every time.`);
