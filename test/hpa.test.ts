import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, Pathfinder, checkPath } from '../src/index.js';
import { parseMovingAiMap, parseScenario } from '../src/loaders/index.js';
import { TargetStamps } from '../src/search/algorithms/hierarchy/local-search.js';
import { readFixture } from './fixtures.js';
import { gridArb } from './grids.js';

const read = (name: string): string => readFixture(`movingai/${name}`);

/** Checks a hierarchy answer against A*'s: same status, a legal path, never cheaper than optimal. */
function check(grid: NavGrid, finder: Pathfinder, sx: number, sy: number, gx: number, gy: number, movement: 'octile' | 'cardinal', label: string): number {
  const a = finder.findPath(sx, sy, gx, gy, { algorithm: 'astar', movement });
  const h = finder.findPath(sx, sy, gx, gy, { algorithm: 'hpa', movement });
  assert.equal(h.status, a.status, `${label}: status`);
  if (a.status !== 'found' || a.cost === 0) return 1;
  const c = checkPath(grid, h.cells, { movement });
  assert.ok(c.valid, `${label}: ${c.problem}`);
  assert.ok(Math.abs(c.cost - h.cost) <= 1e-9 * h.cost, `${label}: path costs ${c.cost}, reported ${h.cost}`);
  assert.equal(h.cells[0], sy * grid.width + sx);
  assert.equal(h.cells[h.cells.length - 1], gy * grid.width + gx);
  assert.ok(h.cost >= a.cost - 1e-9 * a.cost, `${label}: hierarchy ${h.cost} beats the optimum ${a.cost}`);
  return h.cost / a.cost;
}

test('hpa: legal paths, complete, never below optimal, on random grids with terrain costs and tile changes', () => {
  fc.assert(
    fc.property(
      // Cluster 4 makes 32-cell groups, so the larger grids have several: level 2 and landmarks run.
      // A uniform layer has symmetric costs (one landmark table); a cost change below ends that.
      // Extreme costs (up to 5000 x the cheapest) take the Dijkstra queues past their bucket range.
      gridArb({ width: [5, 100], height: [5, 70], wallRate: [0.3, 0.3], costs: ['uniform', 'uniform', 'integer', 'mixed', 'extreme'] }),
      fc.constantFrom('octile' as const, 'cardinal' as const),
      fc.integer({ min: 4, max: 12 }),
      ({ grid, rnd: rand }, movement, clusterSize) => {
        const { width, height } = grid;
        const finder = new Pathfinder(grid);
        finder.hierarchy(0, movement, { clusterSize });
        const pick = (): [number, number] => [Math.floor(rand() * width), Math.floor(rand() * height)];
        for (let round = 0; round < 4; round++) {
          for (let q = 0; q < 6; q++) check(grid, finder, ...pick(), ...pick(), movement, `${width}x${height} c${clusterSize} round ${round}`);
          const [x, y] = pick();
          grid.fillRect(x, y, 1 + Math.min(2, width - x - 1), 1, rand() < 0.5 ? { walkable: rand() < 0.5 } : { cost: 1 + Math.floor(rand() * 3) });
        }
      },
    ),
    { numRuns: 120 },
  );
});

test('hpa: a tile change rebuilds only the clusters around it', () => {
  const grid = new NavGrid(200, 120);
  const finder = new Pathfinder(grid);
  const h = finder.hierarchy(0, 'octile', { clusterSize: 16 });
  assert.equal(h.rebuiltClusters, 13 * 8);
  grid.setWalkable(40, 40, false);
  assert.equal(finder.findPath(0, 0, 199, 119, { algorithm: 'hpa' }).status, 'found');
  // (40, 40) lies inside cluster (2, 2), away from its borders: itself and its neighbours at most.
  assert.ok(h.rebuiltClusters >= 1 && h.rebuiltClusters <= 9, `rebuilt ${h.rebuiltClusters}`);
  // Its group (8 x 8 clusters) alone.
  assert.equal(h.rebuiltGroups, 1);
});

test('hpa: a change that multiplies entrances (more nodes per cluster and group than at build) keeps answers right', () => {
  // Open 96 x 72 map, clusters of 4 (groups of 32): few, long entrances at first. Then a comb of
  // walls along rows and columns splits every border into one-cell entrances, so clusters and groups
  // get more nodes than any had when their compact ids were sized.
  const grid = new NavGrid(96, 72);
  const finder = new Pathfinder(grid);
  const h = finder.hierarchy(0, 'octile', { clusterSize: 4 });
  const before = { nodes: h.nodeCount, top: h.groupNodeCount };
  for (let y = 3; y < 72; y += 4) for (let x = 0; x < 96; x += 2) grid.setWalkable(x, y, false);
  for (let x = 3; x < 96; x += 4) for (let y = 1; y < 72; y += 2) grid.setWalkable(x, y, false);
  const pairs = [
    [0, 0, 94, 70],
    [1, 70, 94, 2],
    [50, 34, 5, 60],
  ];
  for (const [sx, sy, gx, gy] of pairs) check(grid, finder, sx, sy, gx, gy, 'octile', 'comb');
  assert.ok(h.nodeCount > 1.3 * before.nodes, `${h.nodeCount} nodes, ${before.nodes} before`);
  assert.ok(h.groupNodeCount > 1.3 * before.top, `${h.groupNodeCount} top-level nodes, ${before.top} before`);
});

test('hpa: a neighbour cluster whose cross links grow in number keeps a consistent block', () => {
  // Clusters of 8. Opening (11..15, 7) makes the top run of cluster (1, 1) 8 long, so its end (8, 8)
  // becomes a node: cluster (0, 1), not rebuilt, gains a cross link. Then many rebuilds of a far
  // cluster force the pools to be packed, which copies blocks by their size word.
  const grid = new NavGrid(24, 24);
  for (let x = 0; x < 7; x++) grid.setWalkable(x, 7, false);
  for (let x = 11; x < 16; x++) grid.setWalkable(x, 7, false);
  for (let y = 11; y < 16; y++) grid.setWalkable(7, y, false);
  const finder = new Pathfinder(grid);
  const h = finder.hierarchy(0, 'octile', { clusterSize: 8 });
  grid.fillRect(11, 7, 5, 1, { walkable: true });
  h.refresh();
  for (let t = 0; t < 200; t++) {
    grid.setWalkable(20, 20, t % 2 === 0);
    h.refresh();
  }
  for (let sy = 0; sy < 24; sy += 2) for (let sx = 0; sx < 24; sx += 3) check(grid, finder, sx, sy, 23 - sx, 23 - sy, 'octile', `(${sx}, ${sy})`);
});

test("hpa: the start side's level-2 costs survive a goal group with more level-2 nodes", () => {
  // 3 x 2 groups of 128 x 128; the goal's group has more level-2 nodes than the start's.
  const grid = new NavGrid(384, 256);
  for (let y = 128; y < 192; y++) grid.setWalkable(127, y, false);
  for (let y = 193; y < 256; y += 2) grid.setWalkable(127, y, false);
  for (let y = 129; y < 256; y += 2) grid.setWalkable(256, y, false);
  for (let x = 0; x < 127; x++) grid.setWalkable(x, 192, false);
  grid.setCost(383, 0, 2);
  const finder = new Pathfinder(grid);
  finder.hierarchy(0, 'octile', { clusterSize: 16 });
  check(grid, finder, 10, 140, 200, 250, 'octile', 'first query');
});

test('hpa: edges between nodes linked by very cheap cells are not pruned away in pairs', () => {
  // One group of 2 x 2 clusters of 8; cluster (0, 0) costs 5000 per cell except row 7 (0.001), is
  // entered only at (7, 0) and left only at (3, 7) and (5, 7).
  for (const movement of ['octile', 'cardinal'] as const) {
    const grid = new NavGrid(16, 16);
    for (let y = 0; y < 7; y++) for (let x = 0; x < 8; x++) grid.setCost(x, y, 5000);
    for (let x = 0; x < 8; x++) grid.setCost(x, 7, 0.001);
    grid.fillRect(8, 1, 8, 15, { walkable: false });
    for (const x of [0, 1, 2, 4, 6, 7]) grid.setWalkable(x, 8, false);
    const finder = new Pathfinder(grid);
    finder.hierarchy(0, movement, { clusterSize: 8 });
    check(grid, finder, 12, 0, 3, 12, movement, movement);
  }
});

test('hpa: no path between two halves of a big map, answered without a search', () => {
  const grid = new NavGrid(300, 200);
  grid.fillRect(150, 0, 1, 200, { walkable: false });
  const finder = new Pathfinder(grid);
  finder.hierarchy(0, 'octile', { clusterSize: 8 });
  const r = finder.findPath(5, 5, 290, 190, { algorithm: 'hpa' });
  assert.equal(r.status, 'no-path');
  assert.equal(r.expanded, 0);
  // A door in the wall: found, and the level-2 graph is what found it (several groups apart).
  grid.setWalkable(150, 100, true);
  const d = finder.findPath(5, 5, 290, 190, { algorithm: 'hpa' });
  assert.equal(d.status, 'found');
  assert.ok(d.cells.includes(100 * 300 + 150));
  const a = finder.findPath(5, 5, 290, 190, { algorithm: 'astar' });
  assert.ok(d.cost <= a.cost * 1.02, `${d.cost} vs optimal ${a.cost}`);
});

test('hpa: distance from optimal on the Moving AI scenarios is measured and bounded', () => {
  // Measured (cluster 16, octile, every query): mean excess 0 % maze, 0.07 % random, 0.13 % rmtst01,
  // 0.08 % room, 0.23 % AcrosstheCape (the one map with several groups); the bounds leave a margin.
  const bounds: Record<string, number> = { 'maze-100-1': 0.0005, 'random-100-33': 0.0015, rmtst01: 0.0025, 'room-100-10': 0.0015, AcrosstheCape: 0.004 };
  for (const [name, bound] of Object.entries(bounds)) {
    const grid = parseMovingAiMap(read(`${name}.map`)).grid;
    const queries = parseScenario(read(`${name}.map.scen`));
    const finder = new Pathfinder(grid);
    let sum = 0;
    let n = 0;
    const every = name === 'AcrosstheCape' ? 5 : 1;
    for (let k = 0; k < queries.length; k += every) {
      const q = queries[k];
      if (q.optimal === 0) continue;
      const r = finder.findPath(q.startX, q.startY, q.goalX, q.goalY, { algorithm: 'hpa' });
      assert.equal(r.status, 'found', `${name} line ${q.line}`);
      const c = checkPath(grid, r.cells);
      assert.ok(c.valid, `${name} line ${q.line}: ${c.problem}`);
      assert.ok(r.cost >= q.optimal * (1 - 1e-5), `${name} line ${q.line}: ${r.cost} < optimal ${q.optimal}`);
      sum += r.cost / q.optimal;
      n++;
    }
    const excess = sum / n - 1;
    assert.ok(excess <= bound, `${name}: mean excess ${(excess * 100).toFixed(3)} % over ${(bound * 100).toFixed(2)} %`);
  }
});

test('hpa: cluster-local target marks are cleared with the stamps when the generation counter wraps', () => {
  const s = new TargetStamps(4);
  const first = s.next();
  s.mark[1] = first;
  s.stamp[2] = first + 1;
  // Run the counter up to its last generation: the next one starts over at the first.
  s.generation = 0xfffffff0 - 2;
  assert.equal(s.next(), first);
  assert.equal(s.mark[1], 0, 'a mark from before the wrap would make cell 1 a target again');
  assert.equal(s.stamp[2], 0);
});
