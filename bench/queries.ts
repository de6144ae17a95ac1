/**
 * `npm run bench queries`: path quality and the living-world updates.
 * 1. Smoothed (string-pulled) and any-angle (Theta*) path length against the octile optimum on the
 *    Moving AI scenarios of test/fixtures/movingai, with a check that no smoothed path touches a blocked cell.
 * 2. An unreachable goal on AcrosstheCape: findPath with `nearest` (it searches the start's whole
 *    component for the cell nearest the goal) against the reachability index's nearest reachable
 *    cell plus a search to it, plain findPath (the component labels answer no-path) and plain A*
 *    without the labels (which explores the whole component).
 * 3. Local tile changes on a 1024 x 1024 grid: the time the reachability index (the grid's
 *    component labels, relabelled at the next question) and the clearance map add to a change.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { NavGrid, Pathfinder } from '../src/index.js';
import { ReachabilityIndex, ClearanceMap, mulberry32 } from '../src/query/index.js';
import { smoothPath, polylineLength, forEachTouchedCell } from '../src/path/index.js';
import { parseMovingAiMap, parseScenario } from '../src/loaders/index.js';
import { fixture } from '../test/fixtures.js';

const mapsDir = fixture('movingai/');
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { mean: s.reduce((a, b) => a + b, 0) / s.length, median: at(0.5), p95: at(0.95) };
};
const f = (v: number, d = 3) => v.toFixed(d);

// ---- 1. path quality -------------------------------------------------------------------------
const PER_MAP = 150;
console.log(`\nqueries 1: path length vs the octile optimum (${PER_MAP} scenarios per map, spread over the buckets)`);
console.log('map                 n   smoothed/opt  any-angle/opt  smooth us (median)  any-angle us (median)  A* us (median)  smoothed touching blocked');
for (const file of readdirSync(mapsDir).filter((n) => n.endsWith('.map')).sort()) {
  const grid = parseMovingAiMap(readFileSync(mapsDir + file, 'utf8'), { file }).grid;
  const scen = parseScenario(readFileSync(mapsDir + file + '.scen', 'utf8')).filter((q) => q.optimal > 0);
  const step = Math.max(1, Math.floor(scen.length / PER_MAP));
  const walk = grid.layers[0].walkable;
  const sm: number[] = [];
  const th: number[] = [];
  const tS: number[] = [];
  const tT: number[] = [];
  const tA: number[] = [];
  let touching = 0;
  // Kept per map, as a game would: the timings leave out allocating the search scratch.
  const finder = new Pathfinder(grid);
  for (let k = 0; k < scen.length; k += step) {
    const q = scen[k];
    let t0 = performance.now();
    const r = finder.findPath(q.startX, q.startY, q.goalX, q.goalY);
    tA.push((performance.now() - t0) * 1000);
    if (r.status !== 'found') continue;
    t0 = performance.now();
    const pts = smoothPath(grid, r.cells);
    tS.push((performance.now() - t0) * 1000);
    t0 = performance.now();
    const a = finder.findPath(q.startX, q.startY, q.goalX, q.goalY, { anyAngle: true });
    tT.push((performance.now() - t0) * 1000);
    sm.push(polylineLength(pts) / q.optimal);
    th.push(a.cost / q.optimal);
    let bad = false;
    for (let j = 2; j < pts.length; j += 2) {
      forEachTouchedCell(pts[j - 2], pts[j - 1], pts[j], pts[j + 1], (x, y) => {
        if (!grid.inBounds(x, y) || walk[y * grid.width + x] === 0) bad = true;
      });
    }
    if (bad) touching++;
  }
  console.log(`${file.padEnd(18)} ${String(sm.length).padStart(3)}   ${f(stats(sm).mean, 4).padStart(12)}  ${f(stats(th).mean, 4).padStart(13)}  ${f(stats(tS).median, 0).padStart(18)}  ${f(stats(tT).median, 0).padStart(18)}  ${f(stats(tA).median, 0).padStart(14)}  ${touching}`);
}

// ---- 2. unreachable goal ---------------------------------------------------------------------
{
  const file = 'AcrosstheCape.map';
  const grid = parseMovingAiMap(readFileSync(mapsDir + file, 'utf8'), { file }).grid;
  const t0 = performance.now();
  const index = new ReachabilityIndex(grid);
  const buildMs = performance.now() - t0;
  // The start of a long scenario, and the walkable cell of another component nearest to it.
  const scen = parseScenario(readFileSync(mapsDir + file + '.scen', 'utf8'));
  const q = scen[scen.length - 1];
  const home = index.componentOf(q.startX, q.startY);
  let goal = -1;
  let best = Infinity;
  for (let i = 0; i < grid.size; i++) {
    const x = grid.xOf(i);
    const y = grid.yOf(i);
    const c = index.componentOf(x, y);
    if (c < 0 || c === home) continue;
    const d = Math.hypot(x - q.goalX, y - q.goalY);
    if (d < best) {
      best = d;
      goal = i;
    }
  }
  const gx = grid.xOf(goal);
  const gy = grid.yOf(goal);
  const time = (fn: () => unknown, reps: number) => {
    const xs: number[] = [];
    for (let k = 0; k < reps; k++) {
      const s = performance.now();
      fn();
      xs.push(performance.now() - s);
    }
    return stats(xs);
  };
  const connected = time(() => index.connected(q.startX, q.startY, gx, gy), 2000);
  const pathfinder = new Pathfinder(grid);
  const start = q.startY * grid.width + q.startX;
  // The index's nearest reachable cell, then a search to it: what a caller can do by hand.
  const viaIndex = () => {
    const t = index.nearestReachableCell(start, gx, gy);
    return pathfinder.findPath(q.startX, q.startY, grid.xOf(t), grid.yOf(t));
  };
  const withIndex = time(viaIndex, 200);
  const nearest = time(() => pathfinder.findPath(q.startX, q.startY, gx, gy, { nearest: true }), 10);
  const labels = time(() => pathfinder.findPath(q.startX, q.startY, gx, gy), 200);
  const plain = time(() => pathfinder.findPath(q.startX, q.startY, gx, gy, { reachabilityCheck: false }), 10);
  const a = viaIndex();
  const b = pathfinder.findPath(q.startX, q.startY, gx, gy, { nearest: true });
  const l = pathfinder.findPath(q.startX, q.startY, gx, gy);
  const p = pathfinder.findPath(q.startX, q.startY, gx, gy, { reachabilityCheck: false });
  console.log(`\nqueries 2: unreachable goal on ${file} (${q.startX},${q.startY}) -> (${gx},${gy}); index built in ${f(buildMs, 1)} ms`);
  console.log('query                                          status    expanded   median ms    p95 ms');
  console.log(`index.connected (is there a path?)             ${String(index.connected(q.startX, q.startY, gx, gy)).padEnd(8)}  ${'0'.padStart(8)}   ${f(connected.median, 4).padStart(9)}  ${f(connected.p95, 4).padStart(8)}`);
  console.log(`index.nearestReachableCell + findPath to it    ${a.status.padEnd(8)}  ${String(a.expanded).padStart(8)}   ${f(withIndex.median).padStart(9)}  ${f(withIndex.p95).padStart(8)}`);
  console.log(`findPath, nearest                              ${b.status.padEnd(8)}  ${String(b.expanded).padStart(8)}   ${f(nearest.median).padStart(9)}  ${f(nearest.p95).padStart(8)}`);
  console.log(`findPath (the component labels answer)         ${l.status.padEnd(8)}  ${String(l.expanded).padStart(8)}   ${f(labels.median, 4).padStart(9)}  ${f(labels.p95, 4).padStart(8)}`);
  console.log(`findPath, reachabilityCheck false (plain A*)   ${p.status.padEnd(8)}  ${String(p.expanded).padStart(8)}   ${f(plain.median).padStart(9)}  ${f(plain.p95).padStart(8)}`);
  console.log(`same reached cell: ${a.reached === b.reached}, same cost: ${Math.abs(a.cost - b.cost) < 1e-9}`);
}

// ---- 3. tile changes on 1024 x 1024 ----------------------------------------------------------
{
  const N = 1024;
  const random = mulberry32(2026);
  const build = () => {
    const grid = new NavGrid(N, N);
    const walk = grid.layers[0].walkable;
    // Rooms: walls every 64 cells with doorways, plus 15% scattered blocks.
    for (let i = 0; i < N * N; i++) if (random() < 0.15) walk[i] = 0;
    for (let k = 0; k < N; k += 64) {
      for (let j = 0; j < N; j++) {
        if (j % 64 < 60) {
          walk[k * N + j] = 0;
          walk[j * N + k] = 0;
        }
      }
    }
    grid.refresh();
    grid.searchView(0);
    return grid;
  };
  const CHANGES = 2000;
  const changes: [number, number, number, boolean][] = [];
  for (let k = 0; k < CHANGES; k++) {
    const size = random() < 0.8 ? 1 : 2 + Math.floor(random() * 3);
    changes.push([Math.floor(random() * (N - size)), Math.floor(random() * (N - size)), size, random() < 0.5]);
  }
  // `setup` returns what runs after each change: the reachability index relabels at its next question.
  const run = (setup: (g: NavGrid) => (x: number, y: number) => void) => {
    const grid = build();
    const after = setup(grid);
    const xs: number[] = [];
    for (const [x, y, s, w] of changes) {
      const t = performance.now();
      grid.fillRect(x, y, s, s, { walkable: w });
      after(x, y);
      xs.push((performance.now() - t) * 1000);
    }
    return stats(xs);
  };
  const none = () => {};
  const base = run(() => none);
  const reach = run((g) => {
    const index = new ReachabilityIndex(g);
    return (x, y) => index.componentOf(x, y);
  });
  const clear = run((g) => {
    new ClearanceMap(g);
    return none;
  });
  const both = run((g) => {
    const index = new ReachabilityIndex(g);
    new ClearanceMap(g);
    return (x, y) => index.componentOf(x, y);
  });
  console.log(`\nqueries 3: ${CHANGES} local changes (80% single cells, 20% 2x2-4x4 rectangles, half blocking) on ${N} x ${N}; microseconds per change`);
  console.log('listeners                              mean    median     p95');
  for (const [name, s] of [['none (fillRect + view copy)', base], ['ReachabilityIndex + a question', reach], ['ClearanceMap (cap 16)', clear], ['both', both]] as const) {
    console.log(`${name.padEnd(36)} ${f(s.mean, 1).padStart(7)}  ${f(s.median, 1).padStart(7)}  ${f(s.p95, 1).padStart(7)}`);
  }
}
