import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, Pathfinder, TilenavError, checkPath, findPath } from '../src/index.js';
import { parseMovingAiMap, parseScenario } from '../src/loaders/index.js';
import { readFixture } from './fixtures.js';
import { gridArb } from './grids.js';
import { refDistances } from './reference.js';
import { subgoalsOf } from '../src/search/algorithms/subgoal/search.js';

const MAPS = ['AcrosstheCape', 'maze-100-1', 'random-100-33', 'rmtst01', 'room-100-10'];

/**
 * Asserts that the subgoal graph's answer from (sx, sy) to (gx, gy) is the reference Dijkstra's:
 * the same status, the same cost to 1e-9, a legal path whose cells cost what is reported.
 */
function matches(grid: NavGrid, finder: Pathfinder, dist: Float64Array, sx: number, sy: number, gx: number, gy: number, label: string, algorithm: 'subgoal' | 'auto' = 'subgoal'): void {
  const r = finder.findPath(sx, sy, gx, gy, { algorithm });
  const s = sy * grid.width + sx;
  const g = gy * grid.width + gx;
  const w = grid.layers[0].walkable;
  if (w[s] === 0) return assert.equal(r.status, 'invalid-start', label);
  if (w[g] === 0) return assert.equal(r.status, 'invalid-goal', label);
  const want = dist[g];
  if (want === Infinity) return assert.equal(r.status, 'no-path', label);
  assert.equal(r.status, 'found', `${label}: status`);
  assert.ok(Math.abs(r.cost - want) <= 1e-9 * Math.max(1, want), `${label}: cost ${r.cost}, reference ${want}`);
  assert.equal(r.cells[0], s, `${label}: first cell`);
  assert.equal(r.cells[r.cells.length - 1], g, `${label}: last cell`);
  const c = checkPath(grid, r.cells);
  assert.ok(c.valid, `${label}: ${c.problem}`);
  assert.ok(Math.abs(c.cost - r.cost) <= 1e-9 * Math.max(1, r.cost), `${label}: path costs ${c.cost}, reported ${r.cost}`);
}

/** Uniform-cost grids, non-square, 1 to 60 x 1 to 35, walls 0 to 45 %. */
const randomGrid = gridArb({ width: [1, 60], height: [1, 35] });

test('subgoal: the reference Dijkstra cost on random grids (every start against a few goals)', () => {
  fc.assert(
    fc.property(randomGrid, ({ grid, rnd }) => {
      const { width, height } = grid;
      const finder = new Pathfinder(grid);
      for (let q = 0; q < 4; q++) {
        const sx = Math.floor(rnd() * width);
        const sy = Math.floor(rnd() * height);
        const dist = refDistances(grid, 0, 'octile', [sy * width + sx]);
        for (let k = 0; k < 6; k++) {
          const gx = Math.floor(rnd() * width);
          const gy = Math.floor(rnd() * height);
          matches(grid, finder, dist, sx, sy, gx, gy, `${width}x${height} (${sx},${sy})->(${gx},${gy})`);
        }
      }
    }),
    { numRuns: 250 },
  );
});

test('subgoal: exact through tile changes; auto falls back to JPS after a change until the graph is built again', () => {
  fc.assert(
    fc.property(randomGrid, fc.array(fc.tuple(fc.nat(), fc.boolean(), fc.nat(3), fc.nat(3)), { minLength: 1, maxLength: 12 }), ({ grid, rnd }, changes) => {
      const { width, height } = grid;
      const finder = new Pathfinder(grid);
      finder.prepare({ algorithm: 'subgoal' });
      for (const [at, walkable, sw, sh] of changes) {
        const x = at % width;
        const y = Math.floor(at / width) % height;
        grid.fillRect(x, y, Math.min(sw + 1, width - x), Math.min(sh + 1, height - y), { walkable });
        const sx = Math.floor(rnd() * width);
        const sy = Math.floor(rnd() * height);
        const dist = refDistances(grid, 0, 'octile', [sy * width + sx]);
        const gx = Math.floor(rnd() * width);
        const gy = Math.floor(rnd() * height);
        // Right after the change the graph is gone: auto answers with JPS, exactly.
        assert.ok(!grid.memory().entries.some((e) => e.name === 'subgoal graph'), 'the change dropped the graph');
        matches(grid, finder, dist, sx, sy, gx, gy, `auto after change (${sx},${sy})->(${gx},${gy})`, 'auto');
        // Asked for by name, it is built again from the changed grid.
        matches(grid, finder, dist, sx, sy, gx, gy, `subgoal after change (${sx},${sy})->(${gx},${gy})`);
        matches(grid, finder, dist, sx, sy, Math.floor(rnd() * width), Math.floor(rnd() * height), 'auto on the rebuilt graph', 'auto');
      }
    }),
    { numRuns: 150 },
  );
});

test('subgoal: optimal on every query of the Moving AI fixtures', () => {
  for (const name of MAPS) {
    const grid = parseMovingAiMap(readFixture(`movingai/${name}.map`)).grid;
    const queries = parseScenario(readFixture(`movingai/${name}.map.scen`));
    const finder = new Pathfinder(grid);
    finder.prepare({ algorithm: 'subgoal' });
    // The searches run over levels: some subgoals taken out, some shortcuts opened on the way.
    const graph = subgoalsOf(grid).fresh(0)!;
    assert.ok(graph.levels.coreCount < graph.count, `${name}: ${graph.levels.coreCount} of ${graph.count} subgoals in the core`);
    if (name === 'AcrosstheCape') assert.ok(graph.levels.shortcuts > 0, `${name}: shortcuts`);
    for (const q of queries) {
      const r = finder.findPath(q.startX, q.startY, q.goalX, q.goalY, { algorithm: 'subgoal' });
      if (q.optimal === 0 && (q.startX !== q.goalX || q.startY !== q.goalY)) {
        assert.equal(r.status, 'no-path', `${name} line ${q.line}`);
        continue;
      }
      assert.equal(r.status, 'found', `${name} line ${q.line}`);
      assert.ok(Math.abs(r.cost - q.optimal) <= 1e-4 * Math.max(1, q.optimal), `${name} line ${q.line}: cost ${r.cost}, optimal ${q.optimal}`);
      const c = checkPath(grid, r.cells);
      assert.ok(c.valid && Math.abs(c.cost - r.cost) <= 1e-9 * Math.max(1, r.cost), `${name} line ${q.line}: ${c.problem ?? `path costs ${c.cost}, reported ${r.cost}`}`);
    }
  }
});

test('subgoal: auto takes the graph once prepared, the grid owns it (memory, releaseDerived), results fill out', () => {
  // A winding corridor (walls from alternate sides): the sample judges the graph faster here.
  const grid = new NavGrid(30, 12);
  for (let x = 2; x < 29; x += 3) grid.fillRect(x, x % 2 === 0 ? 0 : 2, 1, 10, { walkable: false });
  const finder = new Pathfinder(grid);
  const jps = finder.findPath(0, 0, 29, 11, { algorithm: 'jps' });
  assert.equal(finder.findPath(0, 0, 29, 11).expanded, jps.expanded, 'auto runs jps before prepare');
  finder.prepare({ algorithm: 'subgoal' });
  const entry = grid.memory().entries.find((e) => e.name === 'subgoal graph');
  assert.ok(entry !== undefined && entry.layer === 0 && entry.bytes > 0, 'listed in grid.memory()');
  const sub = finder.findPath(0, 0, 29, 11, { algorithm: 'subgoal' });
  assert.ok(Math.abs(sub.cost - jps.cost) < 1e-9, `subgoal ${sub.cost}, jps ${jps.cost}`);
  assert.ok(sub.expanded > 0 && sub.expanded !== jps.expanded, `subgoal expanded ${sub.expanded}, jps ${jps.expanded}`);
  const auto = finder.findPath(0, 0, 29, 11);
  assert.equal(auto.expanded, sub.expanded, 'auto searches the graph once it is built');
  assert.deepEqual([...auto.cells], [...sub.cells]);
  // The free findPath shares the grid's graph.
  assert.equal(findPath(grid, 0, 0, 29, 11).expanded, sub.expanded);
  // The caller's buffer is filled when long enough.
  const out = new Int32Array(200);
  const into = finder.findPath(0, 0, 29, 11, { algorithm: 'subgoal', out });
  assert.equal(into.cells.buffer, out.buffer);
  assert.deepEqual([...into.cells], [...sub.cells]);
  // A limit is a result.
  const limited = finder.findPath(0, 0, 29, 11, { algorithm: 'subgoal', maxIterations: 1 });
  assert.equal(limited.status, 'limit-reached');
  // A uniform cost other than 1 scales the cost.
  grid.fillRect(0, 0, 30, 12, { cost: 2 });
  grid.refresh(); // the cost bounds only widen on a write; refresh makes the layer uniform again
  const two = finder.findPath(0, 0, 29, 11, { algorithm: 'subgoal' });
  assert.ok(Math.abs(two.cost - 2 * sub.cost) < 1e-9, `cost ${two.cost}`);
  grid.releaseDerived();
  assert.ok(!grid.memory().entries.some((e) => e.name === 'subgoal graph'), 'releaseDerived frees it');
  assert.equal(finder.findPath(0, 0, 29, 11).expanded, jps.expanded, 'auto is back on jps');
});

test('subgoal: after prepare, auto takes the graph only where a fixed sample judges it faster (mazes, rooms, open maps with many obstacles), not on a nearly empty map; the same choice every time', () => {
  const cases: [string, boolean][] = [
    ['maze-100-1', true],
    ['room-100-10', true],
    ['AcrosstheCape', true],
    ['rmtst01', false],
  ];
  for (const [name, graphWanted] of cases) {
    const grid = parseMovingAiMap(readFixture(`movingai/${name}.map`)).grid;
    const queries = parseScenario(readFixture(`movingai/${name}.map.scen`));
    const finder = new Pathfinder(grid);
    finder.prepare({ algorithm: 'subgoal' });
    assert.ok(grid.memory().entries.some((e) => e.name === 'subgoal graph'), `${name}: built either way`);
    // The longest queries, where the two searches' expansion counts tell them apart.
    let told = 0;
    for (const q of queries.slice(-20)) {
      const sub = finder.findPath(q.startX, q.startY, q.goalX, q.goalY, { algorithm: 'subgoal' });
      const jps = finder.findPath(q.startX, q.startY, q.goalX, q.goalY, { algorithm: 'jps' });
      if (sub.expanded === jps.expanded) continue;
      const auto = finder.findPath(q.startX, q.startY, q.goalX, q.goalY);
      assert.equal(auto.expanded, graphWanted ? sub.expanded : jps.expanded, `${name} line ${q.line}: auto ran ${graphWanted ? 'jps' : 'the graph'}`);
      assert.ok(Math.abs(auto.cost - q.optimal) <= 1e-4 * Math.max(1, q.optimal), `${name} line ${q.line}: cost ${auto.cost}`);
      told++;
    }
    assert.ok(told > 0, `${name}: some query tells the two apart`);
    // Another grid of the same map, another Pathfinder: the same choice (a count, not a clock).
    const again = parseMovingAiMap(readFixture(`movingai/${name}.map`)).grid;
    const other = new Pathfinder(again);
    other.prepare({ algorithm: 'subgoal' });
    const q = queries[queries.length - 1];
    assert.equal(other.findPath(q.startX, q.startY, q.goalX, q.goalY).expanded, finder.findPath(q.startX, q.startY, q.goalX, q.goalY).expanded, `${name}: same choice`);
  }
});

test('subgoal: refuses by name what it cannot search (weighted costs, other movements, one-way flags, edge walls, links, several goals); begin answers whole', () => {
  const grid = new NavGrid(9, 5);
  grid.fillRect(4, 0, 1, 4, { walkable: false });
  const finder = new Pathfinder(grid);
  const refused = (fn: () => unknown, why: RegExp) =>
    assert.throws(fn, (e: unknown) => e instanceof TilenavError && e.element === 'algorithm' && why.test(e.message), `expected a TilenavError naming algorithm and ${why}`);
  refused(() => finder.findPath(0, 0, 8, 0, { algorithm: 'subgoal', movement: 'cardinal' }), /subgoal graph.*needs 'octile'/);
  refused(() => finder.prepare({ algorithm: 'subgoal', movement: 'cardinal' }), /subgoal graph.*needs 'octile'/);
  refused(() => finder.findPath(0, 0, 8, 0, { algorithm: 'subgoal', weight: 2 }), /weight 2/);
  refused(() => finder.findPath(0, 0, 8, 0, { algorithm: 'subgoal', nearest: true }), /nearest/);
  refused(() => finder.findPath(0, 0, 8, 0, { algorithm: 'subgoal', goals: [[8, 4]] }), /one goal/);
  // A search spread over frames gets the whole answer in its first step, as findPath's.
  const spread = finder.begin(0, 0, 8, 0, { algorithm: 'subgoal' });
  const done = spread.result ?? spread.step({ maxExpansions: 1 });
  assert.ok(done !== null, 'answered in the first step');
  const whole = finder.findPath(0, 0, 8, 0, { algorithm: 'subgoal' });
  assert.deepEqual([done.status, done.cost, done.expanded, [...done.cells]], [whole.status, whole.cost, whole.expanded, [...whole.cells]]);
  grid.setCost(2, 2, 5);
  refused(() => finder.findPath(0, 0, 8, 0, { algorithm: 'subgoal' }), /costs differ/);
  refused(() => finder.prepare({ algorithm: 'subgoal' }), /costs differ/);
  // auto stays exact on the weighted layer, with or without a graph built before.
  assert.equal(finder.findPath(0, 0, 8, 4).cost, finder.findPath(0, 0, 8, 4, { algorithm: 'astar' }).cost);
  grid.setCost(2, 2, 1);
  grid.refresh();
  grid.setFlags(1, 1, 0x04);
  refused(() => finder.findPath(0, 0, 8, 0, { algorithm: 'subgoal' }), /one-way/);
  grid.setFlags(1, 1, 0x20); // a wall on the cell's north edge
  refused(() => finder.findPath(0, 0, 8, 0, { algorithm: 'subgoal' }), /edge walls/);
  grid.setFlags(1, 1, 0);
  grid.refresh();
  finder.prepare({ algorithm: 'subgoal' });
  grid.addLink({ from: { x: 0, y: 4 }, to: { x: 8, y: 4 }, cost: 1 });
  refused(() => finder.findPath(0, 0, 8, 0, { algorithm: 'subgoal' }), /subgoal graph does not follow links/);
  refused(() => finder.prepare({ algorithm: 'subgoal' }), /links/);
  assert.throws(() => finder.findPath(0, 0, 8, 0, { algorithm: 'bfs' as never }), /'subgoal'/);
});

test('subgoal: one graph per layer; a change drops only its own layer', () => {
  const grid = new NavGrid(24, 10, { layers: 2 });
  grid.fillRect(8, 0, 1, 8, { walkable: false }, 0);
  grid.fillRect(12, 2, 1, 8, { walkable: false }, 1);
  const finder = new Pathfinder(grid);
  finder.prepare({ algorithm: 'subgoal', layer: 1 });
  const graphs = () => grid.memory().entries.filter((e) => e.name === 'subgoal graph').map((e) => e.layer);
  assert.deepEqual(graphs(), [1]);
  const jps0 = finder.findPath(0, 9, 23, 0, { algorithm: 'jps', layer: 0 });
  assert.equal(finder.findPath(0, 9, 23, 0, { layer: 0 }).expanded, jps0.expanded, 'layer 0 has no graph: auto runs jps');
  const sub1 = finder.findPath(0, 0, 23, 9, { algorithm: 'subgoal', layer: 1 });
  assert.equal(finder.findPath(0, 0, 23, 9, { layer: 1 }).expanded, sub1.expanded, 'layer 1: auto searches its graph');
  assert.ok(Math.abs(sub1.cost - finder.findPath(0, 0, 23, 9, { algorithm: 'astar', layer: 1 }).cost) < 1e-9);
  grid.fillRect(3, 3, 1, 1, { walkable: false }, 0);
  assert.deepEqual(graphs(), [1], 'a change on layer 0 keeps layer 1 graph');
  grid.fillRect(3, 3, 1, 1, { walkable: false }, 1);
  assert.deepEqual(graphs(), [], 'a change on layer 1 drops it');
});
