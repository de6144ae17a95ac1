/**
 * The Chebyshev movement models (8 neighbours, every step of length 1): exact in every search that
 * takes them (A*, distanceMap, nearest, unit radius, component labels), against the reference
 * Dijkstra written from the rules; refused by name where they do not fit (JPS, the hierarchy,
 * any-angle paths, smoothing, hexagonal cells).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, Pathfinder, TilenavError, checkPath, hexagonal, movementModel, stepDistance, type MovementName } from '../src/index.js';
import { canSmooth, smoothPath } from '../src/path/index.js';
import { refDistances } from './reference.js';
import { applyChange, asciiGrid } from './grids.js';
import { acrossChanges, changesArb, close, questionGrids, throwsNaming } from './helpers-moves.js';

const CHEBYSHEV: readonly MovementName[] = ['chebyshev', 'chebyshev-one-obstacle', 'chebyshev-always'];

test('a Chebyshev path on an open uniform layer costs its number of steps: max(|dx|, |dy|)', () => {
  const grid = new NavGrid(12, 7);
  const r = new Pathfinder(grid).findPath(1, 1, 9, 4, { movement: 'chebyshev' });
  assert.equal(r.status, 'found');
  assert.equal(r.cost, 8);
  assert.equal(r.cells.length, 9);
  assert.equal(stepDistance(movementModel('chebyshev'), 1, 1, 9, 4), 8);
  // The same query under octile pays sqrt 2 per diagonal.
  assert.ok(Math.abs(new Pathfinder(grid).findPath(1, 1, 9, 4).cost - (5 + 3 * Math.SQRT2)) < 1e-9);
});

test('the Chebyshev corner rules: no cutting, one blocked side, always', () => {
  const grid = asciiGrid(['.@', '..']);
  const pf = new Pathfinder(grid);
  // (0, 0) to (1, 1): the diagonal has one blocked side cell, (1, 0).
  assert.equal(pf.findPath(0, 0, 1, 1, { movement: 'chebyshev' }).cost, 2);
  assert.equal(pf.findPath(0, 0, 1, 1, { movement: 'chebyshev-one-obstacle' }).cost, 1);
  const both = asciiGrid(['.@', '@.']);
  const pb = new Pathfinder(both);
  assert.equal(pb.findPath(0, 0, 1, 1, { movement: 'chebyshev-one-obstacle' }).status, 'no-path');
  assert.equal(pb.findPath(0, 0, 1, 1, { movement: 'chebyshev-always' }).cost, 1);
});

const queryArb = fc.record({ start: fc.nat(), goal: fc.nat() });

for (const movement of CHEBYSHEV) {
  test(`${movement}: A* (auto and astar) and distanceMap cost what the reference Dijkstra does, across tile changes`, () => {
    acrossChanges(
      movement,
      queryArb,
      4242 + CHEBYSHEV.indexOf(movement),
      (grid, layer, pf, query) => {
        const start = query.start % grid.size;
        const goal = query.goal % grid.size;
        const ref = refDistances(grid, layer, movement, [start]);
        const dist = pf.distanceMap([start], { layer, movement });
        for (let i = 0; i < grid.size; i++) assert.ok(dist[i] === ref[i] || close(dist[i], ref[i]), `distanceMap at ${i}: ${dist[i]} vs ${ref[i]}`);
        for (const algorithm of ['auto', 'astar'] as const) {
          const r = pf.findPath(grid.xOf(start), grid.yOf(start), grid.xOf(goal), grid.yOf(goal), { layer, movement, algorithm });
          const L = grid.layers[layer];
          if (L.walkable[start] === 0) assert.equal(r.status, 'invalid-start');
          else if (L.walkable[goal] === 0) assert.equal(r.status, 'invalid-goal');
          else if (ref[goal] === Infinity) assert.equal(r.status, 'no-path');
          else {
            assert.equal(r.status, 'found');
            assert.ok(close(r.cost, ref[goal]), `${algorithm}: cost ${r.cost} vs reference ${ref[goal]}`);
            const c = checkPath(grid, r.cells, { layer, movement });
            assert.ok(c.valid, c.problem);
            assert.ok(close(c.cost, r.cost));
          }
        }
      },
      250,
    );
  });
}

test('chebyshev: the estimate max(|dx|, |dy|) x the smallest cost never overestimates', () => {
  fc.assert(
    fc.property(questionGrids, fc.nat(), ({ grid }, a) => {
      const goal = a % grid.size;
      if (grid.layers[0].walkable[goal] === 0) return;
      let minCost = Infinity;
      for (let i = 0; i < grid.size; i++) if (grid.layers[0].walkable[i] === 1) minCost = Math.min(minCost, grid.layers[0].cost[i]);
      const dist = refDistances(grid, 0, 'chebyshev', [goal]);
      for (let i = 0; i < grid.size; i++) {
        if (dist[i] === Infinity) continue;
        const h = stepDistance(movementModel('chebyshev'), grid.xOf(i), grid.yOf(i), grid.xOf(goal), grid.yOf(goal)) * minCost;
        assert.ok(h <= dist[i] + 1e-9, `estimate ${h} over the cost ${dist[i]}`);
      }
    }),
    { numRuns: 150, seed: 77 },
  );
});

test('chebyshev with nearest: the partial path ends at the reachable cell nearest the goal, at its exact cost', () => {
  fc.assert(
    fc.property(questionGrids, fc.nat(), fc.nat(), ({ grid }, a, b) => {
      const start = a % grid.size;
      const goal = b % grid.size;
      if (grid.layers[0].walkable[start] === 0) return;
      const r = new Pathfinder(grid).findPath(grid.xOf(start), grid.yOf(start), grid.xOf(goal), grid.yOf(goal), { movement: 'chebyshev', nearest: true });
      const ref = refDistances(grid, 0, 'chebyshev', [start]);
      if (ref[goal] < Infinity) {
        assert.equal(r.status, 'found');
        assert.ok(close(r.cost, ref[goal]));
        return;
      }
      assert.equal(r.status, 'partial');
      const d2 = (i: number) => (grid.xOf(i) - grid.xOf(goal)) ** 2 + (grid.yOf(i) - grid.yOf(goal)) ** 2;
      let best = Infinity;
      for (let i = 0; i < grid.size; i++) if (ref[i] < Infinity) best = Math.min(best, d2(i));
      assert.equal(d2(r.reached), best, 'nearest reachable cell');
      assert.ok(close(r.cost, ref[r.reached]), `cost ${r.cost} vs reference ${ref[r.reached]}`);
    }),
    { numRuns: 200, seed: 99 },
  );
});

/** Distance from cell (x, y)'s centre to the nearest blocked square or the grid's edge, by brute force. */
function clearance(grid: NavGrid, x: number, y: number): number {
  let best = Math.min(x, y, grid.width - 1 - x, grid.height - 1 - y) + 0.5;
  for (let j = 0; j < grid.size; j++) {
    if (grid.layers[0].walkable[j] === 1) continue;
    const dx = Math.max(0, Math.abs(grid.xOf(j) - x) - 0.5);
    const dy = Math.max(0, Math.abs(grid.yOf(j) - y) - 0.5);
    best = Math.min(best, Math.hypot(dx, dy));
  }
  return grid.layers[0].walkable[y * grid.width + x] === 1 ? best : 0;
}

test('chebyshev with a unit radius: exact on the cells the disc fits in (diagonals need both sides, as octile)', () => {
  fc.assert(
    fc.property(questionGrids, fc.nat(), fc.nat(), fc.constantFrom(0.7, 1, 1.3), ({ grid }, a, b, radius) => {
      const start = a % grid.size;
      const goal = b % grid.size;
      const fits = new NavGrid(grid.width, grid.height);
      for (let i = 0; i < grid.size; i++) {
        fits.layers[0].walkable[i] = clearance(grid, grid.xOf(i), grid.yOf(i)) >= radius - 1e-6 ? 1 : 0;
        fits.layers[0].cost[i] = grid.layers[0].cost[i];
        fits.layers[0].flags[i] = grid.layers[0].flags[i];
      }
      fits.refresh();
      const r = new Pathfinder(grid).findPath(grid.xOf(start), grid.yOf(start), grid.xOf(goal), grid.yOf(goal), { movement: 'chebyshev', radius });
      if (fits.layers[0].walkable[start] === 0) return assert.equal(r.status, 'invalid-start');
      if (fits.layers[0].walkable[goal] === 0) return assert.equal(r.status, 'invalid-goal');
      const ref = refDistances(fits, 0, 'chebyshev', [start])[goal];
      if (ref === Infinity) return assert.equal(r.status, 'no-path');
      assert.equal(r.status, 'found');
      assert.ok(close(r.cost, ref), `cost ${r.cost} vs reference ${ref}`);
    }),
    { numRuns: 150, seed: 31337 },
  );
});

test('chebyshev: the component labels answer unreachable goals without a search, and follow tile changes', () => {
  fc.assert(
    fc.property(questionGrids, fc.nat(), fc.nat(), changesArb, fc.constantFrom<MovementName>('chebyshev', 'chebyshev-always'), ({ grid }, a, b, changes, movement) => {
      const pf = new Pathfinder(grid);
      for (let round = 0; round <= changes.length; round++) {
        if (round > 0) applyChange(grid, ...changes[round - 1]);
        const start = a % grid.size;
        const goal = b % grid.size;
        const L = grid.layers[0];
        if (L.walkable[start] === 0 || L.walkable[goal] === 0) continue;
        const sx = grid.xOf(start);
        const sy = grid.yOf(start);
        const gx = grid.xOf(goal);
        const gy = grid.yOf(goal);
        const ref = refDistances(grid, 0, movement, [start])[goal];
        const labelled = pf.findPath(sx, sy, gx, gy, { movement });
        const searched = pf.findPath(sx, sy, gx, gy, { movement, reachabilityCheck: false });
        assert.equal(labelled.status, ref === Infinity ? 'no-path' : 'found');
        assert.equal(searched.status, labelled.status);
        // Without one-way flags the labels are exact: a goal out of reach costs no search.
        if (ref === Infinity && !L.flags.some((f) => f !== 0)) assert.equal(labelled.expanded, 0);
      }
    }),
    { numRuns: 200, seed: 555 },
  );
});

test('jump point search and the hierarchy refuse Chebyshev movement by name; auto runs A*', () => {
  const grid = new NavGrid(20, 12);
  grid.fillRect(8, 0, 1, 10, { walkable: false });
  const pf = new Pathfinder(grid);
  // Jump point search names the algorithm asked for, the hierarchy the movement it cannot take.
  for (const [algorithm, element] of [['jps', 'algorithm'], ['jps+', 'algorithm'], ['hpa', 'movement']] as const) {
    throwsNaming(() => pf.findPath(0, 0, 19, 0, { movement: 'chebyshev', algorithm }), element);
    assert.throws(() => pf.findPath(0, 0, 19, 0, { movement: 'chebyshev', algorithm }), /'chebyshev'/, `${algorithm} says which movement`);
  }
  throwsNaming(() => pf.hierarchy(0, 'chebyshev'), 'movement');
  const auto = pf.findPath(0, 0, 19, 0, { movement: 'chebyshev' });
  const astar = pf.findPath(0, 0, 19, 0, { movement: 'chebyshev', algorithm: 'astar' });
  assert.equal(auto.status, 'found');
  assert.deepEqual([...auto.cells], [...astar.cells]);
  assert.equal(auto.expanded, astar.expanded);
});

test('Chebyshev paths are not smoothed or drawn any-angle: both measure straight segments, Chebyshev counts steps', () => {
  const grid = new NavGrid(10, 10);
  const pf = new Pathfinder(grid);
  const r = pf.findPath(0, 0, 9, 5, { movement: 'chebyshev' });
  for (const movement of CHEBYSHEV) {
    assert.equal(canSmooth(movement), false, movement);
    assert.throws(() => smoothPath(grid, r.cells, { movement }), (e: unknown) => e instanceof TilenavError && e.element === `movement "${movement}"`);
    throwsNaming(() => pf.findPath(0, 0, 9, 5, { movement, anyAngle: true }), 'anyAngle');
  }
  assert.equal(canSmooth('octile'), true);
});

test('Chebyshev movement fits square cells only: refused on hexagons, naming movement', () => {
  const hex = new NavGrid(6, 6, { projection: hexagonal(1) });
  throwsNaming(() => new Pathfinder(hex).findPath(0, 0, 3, 3, { movement: 'chebyshev' }), 'movement');
  throwsNaming(() => new NavGrid(6, 6, { projection: hexagonal(1), movement: 'chebyshev' }), 'movement');
  const square = new NavGrid(6, 6, { movement: 'chebyshev' });
  assert.equal(square.movement, 'chebyshev');
  assert.equal(new Pathfinder(square).findPath(0, 0, 5, 5).cost, 5, 'the grid movement is the default');
});
