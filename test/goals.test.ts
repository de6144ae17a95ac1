/**
 * The nearest of several goals in one search (findPath's `goals`): exact against the reference
 * Dijkstra (the cheapest goal's cost, `reached` one of the cheapest), for cardinal, octile,
 * Chebyshev and hex movement, few goals and many (the bounding-box estimate), across tile changes;
 * and the statuses and refusals around it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, Pathfinder, TilenavError, checkPath, findPath, type FindPathOptions } from '../src/index.js';
import { refDistances } from './reference.js';
import { gridArb } from './grids.js';
import { QUESTION_MOVEMENTS, acrossChanges, close, onCellsOf, throwsNaming } from './helpers-moves.js';
import { createPathService } from '../src/service/node.js';

const queryArb = fc.record({
  start: fc.nat(),
  first: fc.nat(),
  goals: fc.array(fc.nat(), { minLength: 1, maxLength: 24 }),
  pairs: fc.boolean(),
  algorithm: fc.constantFrom<'auto' | 'astar'>('auto', 'astar'),
  weight: fc.constantFrom(1, 1, 0),
});

for (const movement of QUESTION_MOVEMENTS) {
  test(`several goals (${movement}): the cheapest goal at its exact cost, as the reference Dijkstra, across tile changes`, () => {
    acrossChanges(movement, queryArb, 2024 + QUESTION_MOVEMENTS.indexOf(movement), (grid, layer, pf, query) => {
      const { algorithm, weight, pairs } = query;
      const start = query.start % grid.size;
      const first = query.first % grid.size;
      const cells = query.goals.map((k) => k % grid.size);
      const goals = pairs ? cells.map((c) => [grid.xOf(c), grid.yOf(c)] as [number, number]) : cells;
      const r = pf.findPath(grid.xOf(start), grid.yOf(start), grid.xOf(first), grid.yOf(first), { layer, movement, algorithm, weight, goals });
      const L = grid.layers[layer];
      const all = [first, ...cells];
      if (L.walkable[start] === 0) {
        assert.equal(r.status, 'invalid-start');
        return;
      }
      const usable = all.filter((c) => L.walkable[c] === 1);
      if (usable.length === 0) {
        assert.equal(r.status, 'invalid-goal');
        assert.equal(r.reason, 'blocked');
        return;
      }
      const ref = refDistances(grid, layer, movement, [start]);
      const best = Math.min(...usable.map((c) => ref[c]));
      if (best === Infinity) {
        assert.equal(r.status, 'no-path');
        assert.equal(r.reached, -1);
        return;
      }
      assert.equal(r.status, 'found');
      assert.ok(usable.includes(r.reached), `reached ${r.reached} is a goal`);
      assert.ok(close(r.cost, best), `cost ${r.cost} vs the cheapest goal's ${best}`);
      assert.ok(close(ref[r.reached], best), 'the goal reached is a cheapest one');
      assert.equal(r.cells[0], start);
      assert.equal(r.cells[r.cells.length - 1], r.reached);
      const c = checkPath(grid, r.cells, { layer, movement });
      assert.ok(c.valid, c.problem);
      assert.ok(close(c.cost, r.cost));
    });
  });
}

test('the same path from every door and order: (gx, gy) is one goal among the others', () => {
  const grid = new NavGrid(30, 20);
  grid.fillRect(10, 0, 1, 15, { walkable: false });
  grid.fillRect(0, 12, 6, 2, { cost: 3 });
  const goals: [number, number][] = [[25, 2], [3, 18], [12, 19], [28, 17]];
  const pf = new Pathfinder(grid);
  const a = pf.findPath(2, 2, 25, 2, { goals });
  const b = pf.findPath(2, 2, 3, 18, { goals: goals.slice(1).map(([x, y]) => grid.index(x, y)).concat(grid.index(25, 2)) });
  const c = findPath(grid, 2, 2, 28, 17, { goals: goals.slice(0, 3) });
  for (const r of [a, b, c]) {
    assert.equal(r.status, 'found');
    assert.equal(r.reached, grid.index(3, 18));
  }
  assert.deepEqual([...b.cells], [...a.cells]);
  assert.deepEqual([...c.cells], [...a.cells]);
  // One search: with the estimate, fewer cells than Dijkstra (weight 0), the same cost.
  const dijkstra = pf.findPath(2, 2, 25, 2, { goals, weight: 0 });
  assert.ok(close(dijkstra.cost, a.cost));
  assert.ok(a.expanded < dijkstra.expanded, `${a.expanded} expanded with the estimate, ${dijkstra.expanded} without`);
});

test('many goals (past 16, the bounding-box estimate): exact for every movement model', () => {
  const wide = gridArb({ width: [8, 16], height: [6, 12], costs: ['uniform', 'mixed'], oneWay: true });
  fc.assert(
    fc.property(wide, fc.constantFrom(...QUESTION_MOVEMENTS), fc.nat(), fc.array(fc.nat(), { minLength: 20, maxLength: 40 }), (g, movement, a, picks) => {
      const grid = onCellsOf(g.grid, movement);
      const start = a % grid.size;
      if (grid.layers[0].walkable[start] === 0) return;
      const goals = picks.map((k) => k % grid.size);
      const usable = goals.filter((c) => grid.layers[0].walkable[c] === 1);
      const r = new Pathfinder(grid).findPath(grid.xOf(start), grid.yOf(start), grid.xOf(goals[0]), grid.yOf(goals[0]), { movement, goals });
      if (usable.length === 0) return assert.equal(r.status, 'invalid-goal');
      const ref = refDistances(grid, 0, movement, [start]);
      const best = Math.min(...usable.map((c) => ref[c]));
      if (best === Infinity) return assert.equal(r.status, 'no-path');
      assert.equal(r.status, 'found');
      assert.ok(close(r.cost, best), `${movement}: cost ${r.cost} vs the cheapest goal's ${best}`);
    }),
    { numRuns: 300, seed: 616 },
  );
});

test('many goals (past 16): the bounding-box estimate stays exact and still saves work', () => {
  const grid = new NavGrid(120, 80);
  grid.fillRect(60, 10, 2, 70, { walkable: false });
  const goals: number[] = [];
  for (let k = 0; k < 40; k++) goals.push(grid.index(90 + (k % 8) * 3, 20 + Math.floor(k / 8) * 9));
  const pf = new Pathfinder(grid);
  const r = pf.findPath(5, 70, 90, 20, { goals });
  const ref = refDistances(grid, 0, 'octile', [grid.index(5, 70)]);
  assert.ok(close(r.cost, Math.min(...goals.map((c) => ref[c]))));
  const dijkstra = pf.findPath(5, 70, 90, 20, { goals, weight: 0 });
  assert.ok(r.expanded < dijkstra.expanded, `${r.expanded} expanded with the box, ${dijkstra.expanded} without`);
});

test('goals: the start among them, goals blocked or too narrow, out of reach, limits, any-angle', () => {
  const grid = new NavGrid(12, 8);
  grid.fillRect(6, 0, 1, 8, { walkable: false });
  const pf = new Pathfinder(grid);
  const here = pf.findPath(1, 1, 9, 1, { goals: [[1, 1]] });
  assert.equal(here.status, 'found');
  assert.deepEqual([...here.cells], [grid.index(1, 1)]);
  assert.equal(here.reached, grid.index(1, 1));
  // (gx, gy) outside the grid and a blocked goal are skipped; the usable one is reached.
  const skip = pf.findPath(1, 1, -5, 40, { goals: [[6, 3], [3, 6]] });
  assert.equal(skip.status, 'found');
  assert.equal(skip.reached, grid.index(3, 6));
  const blocked = pf.findPath(1, 1, 6, 2, { goals: [[6, 3]] });
  assert.equal(blocked.status, 'invalid-goal');
  assert.equal(blocked.reason, 'blocked');
  // Beyond the wall: ruled out by the component labels, without a search.
  const away = pf.findPath(1, 1, 9, 1, { goals: [[10, 6]] });
  assert.equal(away.status, 'no-path');
  assert.equal(away.expanded, 0);
  assert.equal(pf.findPath(1, 1, 9, 1, { goals: [[10, 6]], reachabilityCheck: false }).expanded > 0, true);
  const limited = pf.findPath(0, 0, 5, 7, { goals: [[4, 7]], maxIterations: 2 });
  assert.equal(limited.status, 'limit-reached');
  // A unit of radius 1.2 fits the middle of an open 10 x 10 room, not its corners (0.5 from the edge).
  const room = new NavGrid(10, 10);
  const tight = new Pathfinder(room).findPath(5, 5, 0, 0, { goals: [[9, 9]], radius: 1.2 });
  assert.equal(tight.status, 'invalid-goal');
  assert.equal(tight.reason, 'unit-does-not-fit');
  const angled = pf.findPath(0, 7, 5, 0, { goals: [[2, 1]], anyAngle: true });
  assert.equal(angled.status, 'found');
  assert.equal(angled.costMeasure, 'segments');
  assert.equal(angled.reached, grid.index(2, 1));
  assert.deepEqual([...angled.points!.subarray(-2)], [2, 1]);
});

test('goals misuse throws a TilenavError naming the option', () => {
  const grid = new NavGrid(8, 6);
  const pf = new Pathfinder(grid);
  const ask = (o: FindPathOptions) => () => pf.findPath(0, 0, 7, 5, o);
  throwsNaming(ask({ goals: [] }), 'goals');
  throwsNaming(ask({ goals: [48] }), 'goals');
  throwsNaming(ask({ goals: [-1] }), 'goals');
  throwsNaming(ask({ goals: [2.5] }), 'goals');
  throwsNaming(ask({ goals: [[8, 0]] }), 'goals');
  throwsNaming(ask({ goals: [[1, 2, 3]] as unknown as [number, number][] }), 'goals');
  throwsNaming(ask({ goals: 'all' as unknown as number[] }), 'goals');
  throwsNaming(ask({ goals: [3], nearest: true }), 'goals');
  throwsNaming(ask({ goals: [3], obstacles: [{ x: 3, y: 3, radius: 1 }] }), 'goals');
  for (const algorithm of ['jps', 'jps+', 'hpa'] as const) throwsNaming(ask({ goals: [3], algorithm }), 'algorithm');
  // The free door throws the same.
  throwsNaming(() => findPath(grid, 0, 0, 7, 5, { goals: [] }), 'goals');
});

test('the path service refuses goals by name: they stay on the main thread', async () => {
  const svc = createPathService(new NavGrid(8, 6), { workers: 1 });
  try {
    await assert.rejects(svc.findPath(0, 0, 7, 5, { goals: [3] }), (e: unknown) => e instanceof TilenavError && e.element === 'goals');
  } finally {
    await svc.close();
  }
});
