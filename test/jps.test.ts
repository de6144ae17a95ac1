import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, Pathfinder, TilenavError, checkPath } from '../src/index.js';
import { parseMovingAiMap, parseScenario } from '../src/loaders/index.js';
import { readFixture } from './fixtures.js';
import { gridArb } from './grids.js';
import { buildJumpTable, updateJumpTable } from '../src/search/algorithms/jps/jps-plus.js';
import { WalkBits } from '../src/search/algorithms/jps/bits.js';

const MAPS = ['AcrosstheCape', 'maze-100-1', 'random-100-33', 'rmtst01', 'room-100-10'];

/** Asserts that JPS and A* agree on one query (status, cost) and that JPS's path is a legal one. */
function agree(grid: NavGrid, finder: Pathfinder, sx: number, sy: number, gx: number, gy: number, movement: 'octile' | 'cardinal', label: string, algorithm: 'jps' | 'jps+' = 'jps'): void {
  const a = finder.findPath(sx, sy, gx, gy, { algorithm: 'astar', movement });
  const j = finder.findPath(sx, sy, gx, gy, { algorithm, movement });
  assert.equal(j.status, a.status, `${label}: status`);
  if (a.status !== 'found') return;
  assert.ok(Math.abs(j.cost - a.cost) <= 1e-9 * Math.max(1, a.cost), `${label}: jps cost ${j.cost}, astar ${a.cost}`);
  const c = checkPath(grid, j.cells, { movement });
  assert.ok(c.valid, `${label}: ${c.problem}`);
  assert.ok(Math.abs(c.cost - j.cost) <= 1e-9 * Math.max(1, j.cost), `${label}: path costs ${c.cost}, reported ${j.cost}`);
  assert.equal(j.cells[0], sy * grid.width + sx);
  assert.equal(j.cells[j.cells.length - 1], gy * grid.width + gx);
}

/** Uniform-cost grids (what jps searches), non-square, up to 70 x 40. */
const randomGrid = gridArb({ width: [1, 70], height: [1, 40] });

for (const movement of ['octile', 'cardinal'] as const) {
  test(`jps: same cost as A* on random grids (${movement})`, () => {
    fc.assert(
      fc.property(randomGrid, ({ grid, rnd: rand }) => {
        const { width, height } = grid;
        const finder = new Pathfinder(grid);
        for (let q = 0; q < 12; q++) {
          const sx = Math.floor(rand() * width);
          const sy = Math.floor(rand() * height);
          const gx = Math.floor(rand() * width);
          const gy = Math.floor(rand() * height);
          agree(grid, finder, sx, sy, gx, gy, movement, `${width}x${height} (${sx},${sy})->(${gx},${gy})`);
          if (movement === 'octile') agree(grid, finder, sx, sy, gx, gy, movement, `jps+ ${width}x${height} (${sx},${sy})->(${gx},${gy})`, 'jps+');
        }
      }),
      { numRuns: 300 },
    );
  });
}

test('jps and jps+: stay exact through random sequences of tile changes', () => {
  fc.assert(
    fc.property(randomGrid, fc.array(fc.tuple(fc.nat(), fc.boolean(), fc.nat(3)), { minLength: 1, maxLength: 30 }), ({ grid, rnd: rand }, changes) => {
      const { width, height } = grid;
      const finder = new Pathfinder(grid);
      finder.findPath(0, 0, width - 1, height - 1, { algorithm: 'auto' }); // builds the bit planes before the changes
      for (const [at, walkable, size] of changes) {
        const x = at % width;
        const y = Math.floor(at / width) % height;
        const w = Math.min(size + 1, width - x);
        const h = Math.min(size + 1, height - y);
        if (at % 3 === 0) grid.batch(() => grid.fillRect(x, y, w, h, { walkable }));
        else grid.fillRect(x, y, w, h, { walkable });
        for (let q = 0; q < 4; q++) {
          const movement = q === 2 ? 'cardinal' : 'octile';
          // jps+ must follow the change: its table is updated in place.
          agree(grid, finder, Math.floor(rand() * width), Math.floor(rand() * height), Math.floor(rand() * width), Math.floor(rand() * height), movement, 'after change', q === 3 ? 'jps+' : 'jps');
        }
      }
    }),
    { numRuns: 150 },
  );
});

/** Fills a rectangle of up to 5 x 5 cells placed by `at` with `walkable`; returns it as x, y, width, height. */
function fillChange(grid: NavGrid, at: number, walkable: boolean, sw: number, sh: number): [number, number, number, number] {
  const x = at % grid.width;
  const y = Math.floor(at / grid.width) % grid.height;
  const w = Math.min(sw + 1, grid.width - x);
  const h = Math.min(sh + 1, grid.height - y);
  grid.fillRect(x, y, w, h, { walkable });
  return [x, y, w, h];
}

test('jps+: a jump table updated after each tile change equals one built from scratch', () => {
  fc.assert(
    fc.property(randomGrid, fc.array(fc.tuple(fc.nat(), fc.boolean(), fc.nat(4), fc.nat(4)), { minLength: 1, maxLength: 20 }), ({ grid }, changes) => {
      const table = buildJumpTable(grid.searchView(0));
      for (const [at, walkable, sw, sh] of changes) {
        const [x, y, w, h] = fillChange(grid, at, walkable, sw, sh);
        const view = grid.searchView(0);
        updateJumpTable(table, view, x, y, w, h);
        const fresh = buildJumpTable(view).jumps;
        const k = fresh.findIndex((v, i) => table.jumps[i] !== v);
        assert.equal(k, -1, `entry ${k} (cell ${k >> 3}, direction ${k & 7}): updated ${table.jumps[k]}, rebuilt ${fresh[k]}`);
      }
    }),
    { numRuns: 200 },
  );
});

test('jps: bit and stop planes updated after each tile change equal ones built from scratch', () => {
  fc.assert(
    fc.property(randomGrid, fc.array(fc.tuple(fc.nat(), fc.boolean(), fc.nat(4), fc.nat(4)), { minLength: 1, maxLength: 20 }), ({ grid }, changes) => {
      const planes = new WalkBits(grid, 0);
      planes.stops();
      for (const [at, walkable, sw, sh] of changes) {
        const [x, y, w, h] = fillChange(grid, at, walkable, sw, sh);
        planes.update(x, y, w, h);
        const fresh = new WalkBits(grid, 0);
        fresh.stops();
        for (const name of ['rows', 'cols', 'east', 'west', 'south', 'north'] as const) {
          const a = planes[name]!;
          const b = fresh[name]!;
          const k = b.findIndex((v, i) => a[i] !== v);
          assert.equal(k, -1, `${name} word ${k}: updated ${a[k]}, rebuilt ${b[k]}`);
        }
      }
    }),
    { numRuns: 200 },
  );
});

test('jps and jps+: optimal on every query of the Moving AI fixtures (octile), cardinal agrees with A* on a sample', () => {
  for (const name of MAPS) {
    const grid = parseMovingAiMap(readFixture(`movingai/${name}.map`)).grid;
    const queries = parseScenario(readFixture(`movingai/${name}.map.scen`));
    const finder = new Pathfinder(grid);
    for (const q of queries) for (const algorithm of ['jps', 'jps+'] as const) {
      const r = finder.findPath(q.startX, q.startY, q.goalX, q.goalY, { algorithm });
      const same = q.startX === q.goalX && q.startY === q.goalY;
      if (q.optimal === 0 && !same) {
        assert.equal(r.status, 'no-path', `${name} line ${q.line}`);
        continue;
      }
      assert.equal(r.status, 'found', `${name} line ${q.line}`);
      assert.ok(Math.abs(r.cost - q.optimal) <= 1e-4 * Math.max(1, q.optimal), `${name} line ${q.line}: cost ${r.cost}, optimal ${q.optimal}`);
      const c = checkPath(grid, r.cells);
      assert.ok(c.valid && Math.abs(c.cost - r.cost) < 1e-6 * r.cost, `${name} line ${q.line}: ${c.problem ?? 'cost mismatch'}`);
    }
    // A* is slow on the big map: every 100th query there, every 4th elsewhere.
    const every = name === 'AcrosstheCape' ? 100 : 4;
    for (let k = 0; k < queries.length; k += every) {
      const q = queries[k];
      agree(grid, finder, q.startX, q.startY, q.goalX, q.goalY, 'cardinal', `${name} line ${q.line}`);
    }
  }
});

test('auto picks jps only where it is exact; jps and jps+ refuse layers they cannot search', () => {
  const grid = new NavGrid(9, 5);
  grid.fillRect(4, 0, 1, 4, { walkable: false });
  const finder = new Pathfinder(grid);
  const jps = finder.findPath(0, 0, 8, 0, { algorithm: 'auto' });
  const astar = finder.findPath(0, 0, 8, 0, { algorithm: 'astar' });
  assert.equal(jps.cost, astar.cost);
  assert.ok(jps.expanded < astar.expanded, `jps expanded ${jps.expanded}, astar ${astar.expanded}`);
  assert.throws(() => finder.findPath(0, 0, 8, 0, { algorithm: 'jps', movement: 'hex' }), TilenavError);
  assert.throws(() => finder.findPath(0, 0, 8, 0, { algorithm: 'jps', weight: 2 }), TilenavError);
  assert.throws(() => finder.findPath(0, 0, 8, 0, { algorithm: 'jps+', movement: 'cardinal' }), /needs 'octile'/);
  assert.throws(() => finder.findPath(0, 0, 8, 0, { algorithm: 'bfs' as never }), /expected 'astar'/);
  grid.setCost(2, 2, 5);
  // A weighted layer: jps runs its weighted form (same cost as A*), jps+ refuses it.
  assert.equal(finder.findPath(0, 0, 8, 0, { algorithm: 'jps' }).cost, finder.findPath(0, 0, 8, 0, { algorithm: 'astar' }).cost);
  assert.throws(() => finder.findPath(0, 0, 8, 0, { algorithm: 'jps+' }), /costs differ/);
  const auto = finder.findPath(0, 0, 8, 4, { algorithm: 'auto' });
  assert.equal(auto.cost, finder.findPath(0, 0, 8, 4, { algorithm: 'astar' }).cost);
  grid.setCost(2, 2, 1);
  grid.refresh();
  grid.setFlags(1, 1, 0x04);
  assert.throws(() => finder.findPath(0, 0, 8, 0, { algorithm: 'jps' }), /one-way/);
});

for (const algorithm of ['jps', 'jps+'] as const) {
  test(`${algorithm}: uniform cost other than 1 scales the cost; limit and no-path are results`, () => {
    const grid = new NavGrid(6, 3);
    grid.fillRect(0, 0, 6, 3, { cost: 2 });
    const finder = new Pathfinder(grid);
    const r = finder.findPath(0, 0, 5, 2, { algorithm });
    assert.ok(Math.abs(r.cost - 2 * (3 + 2 * Math.SQRT2)) < 1e-9, `cost ${r.cost}`);
    grid.fillRect(3, 0, 1, 3, { walkable: false });
    assert.equal(finder.findPath(0, 0, 5, 2, { algorithm }).status, 'no-path');
    grid.fillRect(3, 1, 1, 1, { walkable: true });
    const limited = finder.findPath(0, 0, 5, 2, { algorithm, maxIterations: 1 });
    assert.equal(limited.status, 'limit-reached');
    assert.equal(limited.expanded, 1);
    assert.equal(finder.findPath(0, 0, 5, 2, { algorithm }).status, 'found');
  });
}

test('nearest mode, obstacles and a unit radius stay on A* under auto; jps and hpa refuse them', () => {
  const grid = new NavGrid(12, 7);
  grid.fillRect(6, 0, 1, 7, { walkable: false });
  const finder = new Pathfinder(grid);
  const near = finder.findPath(0, 3, 11, 3, { nearest: true });
  assert.equal(near.status, 'partial');
  assert.equal(near.reached, 3 * 12 + 5);
  assert.throws(() => finder.findPath(0, 3, 11, 3, { nearest: true, algorithm: 'jps' }), /nearest mode/);
  assert.throws(() => finder.findPath(0, 3, 11, 3, { nearest: true, algorithm: 'hpa' }), /nearest/);
  // Obstacles on (2, 0..5): auto must go round them, as A* does.
  const obstacles = [0, 1, 2, 3, 4, 5].map((y) => ({ x: 2.5, y: y + 0.5, radius: 0.1 }));
  const a = finder.findPath(0, 0, 4, 0, { obstacles, algorithm: 'astar' });
  const auto = finder.findPath(0, 0, 4, 0, { obstacles });
  assert.equal(auto.cost, a.cost);
  assert.equal(auto.avoided, true);
  assert.ok(auto.cost > 4, `the obstacles force a detour (cost ${auto.cost})`);
  assert.throws(() => finder.findPath(0, 0, 4, 0, { obstacles, algorithm: 'jps' }), /obstacles/);
  assert.throws(() => finder.findPath(0, 0, 4, 0, { obstacles, algorithm: 'hpa' }), /obstacles/);
  // A unit radius: the same.
  const wide = finder.findPath(1, 3, 4, 3, { radius: 0.6 });
  assert.equal(wide.status, 'found');
  assert.equal(wide.cost, finder.findPath(1, 3, 4, 3, { radius: 0.6, algorithm: 'astar' }).cost);
  assert.throws(() => finder.findPath(1, 3, 4, 3, { radius: 0.6, algorithm: 'jps' }), /unit radius/);
});
