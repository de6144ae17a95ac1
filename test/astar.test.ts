import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, Pathfinder, MOVEMENT_NAMES, checkPath, distanceMap, findPath, TilenavError, stepDistance, movementModel } from '../src/index.js';
import { GraphAStar, aStarGraph } from '../src/graph/index.js';
import type { MovementName } from '../src/index.js';
import { refDistances } from './reference.js';
import { gridArb as randomGrids, gridFor } from './grids.js';

/** A random grid: non-square, 1-3 layers, random walls, costs (some below 1) and sometimes one-way flags. */
const gridArb = randomGrids({ width: [1, 17], height: [1, 13], layers: [1, 3], costs: ['uniform', 'uniform-low', 'mixed'], oneWay: true });

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

for (const movement of MOVEMENT_NAMES) {
  test(`A* cost equals the reference Dijkstra: ${movement}`, () => {
    fc.assert(
      fc.property(gridArb, fc.nat(), fc.nat(), fc.nat(), (g, a, b, layerPick) => {
        const grid = gridFor(g.grid, movement);
        const layer = layerPick % grid.layers.length;
        const start = a % grid.size;
        const goal = b % grid.size;
        const sx = grid.xOf(start);
        const sy = grid.yOf(start);
        const gx = grid.xOf(goal);
        const gy = grid.yOf(goal);
        const r = new Pathfinder(grid).findPath(sx, sy, gx, gy, { movement, layer });
        const L = grid.layers[layer];
        if (L.walkable[start] === 0) return r.status === 'invalid-start';
        if (L.walkable[goal] === 0) return r.status === 'invalid-goal';
        const ref = refDistances(grid, layer, movement, [start])[goal];
        if (ref === Infinity) {
          assert.equal(r.status, 'no-path');
          assert.equal(r.cells.length, 0);
          return true;
        }
        assert.equal(r.status, 'found');
        assert.ok(close(r.cost, ref), `cost ${r.cost} vs reference ${ref}`);
        assert.equal(r.cells[0], start);
        assert.equal(r.cells[r.cells.length - 1], goal);
        const check = checkPath(grid, r.cells, { layer, movement });
        assert.ok(check.valid, check.problem);
        assert.ok(close(check.cost, r.cost), `recomputed ${check.cost} vs reported ${r.cost}`);
        return true;
      }),
      { numRuns: 400, seed: 20261122 + MOVEMENT_NAMES.indexOf(movement) },
    );
  });
}

test('the heuristic never overestimates (admissible for every model and cost table)', () => {
  fc.assert(
    fc.property(gridArb, fc.constantFrom(...MOVEMENT_NAMES), fc.nat(), (g, movement, a) => {
      const { grid } = g;
      const goal = a % grid.size;
      if (grid.layers[0].walkable[goal] === 0) return true;
      let minCost = Infinity;
      for (let i = 0; i < grid.size; i++) if (grid.layers[0].walkable[i]) minCost = Math.min(minCost, grid.layers[0].cost[i]);
      const dist = refDistances(grid, 0, movement, [goal]);
      const m = movementModel(movement);
      for (let i = 0; i < grid.size; i++) {
        if (dist[i] === Infinity) continue;
        // The search's h is stepDistance x the layer's smallest cost; distances here run goal -> i,
        // which equals i -> goal up to which cell's cost is paid, so compare against the cheapest.
        const h = stepDistance(m, grid.xOf(i), grid.yOf(i), grid.xOf(goal), grid.yOf(goal)) * minCost;
        const back = refDistances(grid, 0, movement, [i])[goal];
        assert.ok(h <= back + 1e-9, `h ${h} > true ${back} from ${i} to ${goal} (${movement})`);
      }
      return true;
    }),
    { numRuns: 60, seed: 7 },
  );
});

test('Manhattan with Ice at 0.8: scaled by the smallest cost the heuristic stays admissible', () => {
  const grid = new NavGrid(9, 1);
  grid.fillRect(0, 0, 9, 1, { terrain: 'Ice' });
  const r = findPath(grid, 0, 0, 8, 0, { movement: 'cardinal' });
  assert.equal(r.status, 'found');
  assert.ok(close(r.cost, 8 * Math.fround(0.8)), `cost ${r.cost}`);
  // A cheaper detour through ice must be found even when the straight line is plain ground.
  const g2 = new NavGrid(5, 3);
  g2.fillRect(1, 0, 3, 1, { terrain: 'Mud' });
  g2.fillRect(0, 1, 5, 1, { terrain: 'Ice' });
  const r2 = findPath(g2, 0, 0, 4, 0, { movement: 'cardinal' });
  const ref = refDistances(g2, 0, 'cardinal', [0])[4];
  assert.ok(close(r2.cost, ref), `${r2.cost} vs ${ref}`);
});

test('weighted A* stays within weight x optimal, and weight 0 is Dijkstra', () => {
  fc.assert(
    fc.property(gridArb, fc.nat(), fc.nat(), fc.constantFrom(1.5, 2, 4), (g, a, b, weight) => {
      const { grid } = g;
      const start = a % grid.size;
      const goal = b % grid.size;
      if (!grid.layers[0].walkable[start] || !grid.layers[0].walkable[goal]) return true;
      const opt = refDistances(grid, 0, 'octile', [start])[goal];
      const f = new Pathfinder(grid);
      const w = f.findPath(grid.xOf(start), grid.yOf(start), grid.xOf(goal), grid.yOf(goal), { weight });
      const d = f.findPath(grid.xOf(start), grid.yOf(start), grid.xOf(goal), grid.yOf(goal), { weight: 0 });
      if (opt === Infinity) return w.status === 'no-path' && d.status === 'no-path';
      assert.ok(w.cost <= weight * opt + 1e-9, `weighted ${w.cost} > ${weight} x ${opt}`);
      assert.ok(close(d.cost, opt));
      assert.ok(checkPath(grid, w.cells).valid);
      return true;
    }),
    { numRuns: 300, seed: 3 },
  );
});

test('distance maps from several sources equal the reference', () => {
  fc.assert(
    fc.property(gridArb, fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), fc.constantFrom(...MOVEMENT_NAMES), (g, picks, movement) => {
      const grid = gridFor(g.grid, movement);
      const sources = picks.map((p) => p % grid.size);
      const got = distanceMap(grid, sources, { movement });
      const want = refDistances(grid, 0, movement, sources);
      for (let i = 0; i < grid.size; i++) assert.ok(got[i] === want[i] || close(got[i], want[i]), `cell ${i}: ${got[i]} vs ${want[i]}`);
      return true;
    }),
    { numRuns: 200, seed: 11 },
  );
});

test('a distance map capped by maxCost leaves farther cells at Infinity', () => {
  const grid = new NavGrid(10, 1);
  const d = distanceMap(grid, [0], { maxCost: 3.5 });
  assert.deepEqual(Array.from(d.slice(0, 5)), [0, 1, 2, 3, Infinity]);
});

test('start == goal gives one cell at cost 0; blocked or outside ends are statuses, not exceptions', () => {
  const grid = new NavGrid(4, 3);
  grid.setWalkable(3, 2, false);
  assert.deepEqual(Array.from(findPath(grid, 1, 1, 1, 1).cells), [5]);
  assert.equal(findPath(grid, 1, 1, 1, 1).cost, 0);
  assert.equal(findPath(grid, 3, 2, 0, 0).status, 'invalid-start');
  assert.equal(findPath(grid, 0, 0, 3, 2).status, 'invalid-goal');
  assert.equal(findPath(grid, -1, 0, 0, 0).status, 'invalid-start');
  assert.equal(findPath(grid, 0, 0, 4, 0).status, 'invalid-goal');
  assert.throws(() => findPath(grid, 0.5, 0, 1, 1), TilenavError);
  assert.throws(() => findPath(grid, 0, 0, 1, 1, { layer: 'Sky' }), /unknown layer/);
  assert.throws(() => findPath(grid, 0, 0, 1, 1, { movement: 'diagonal' as MovementName }), /unknown movement/);
  assert.throws(() => findPath(grid, 0, 0, 1, 1, { weight: -1 }), /weight/);
});

test('a walled-off goal is no-path; maxIterations stops the search with limit-reached', () => {
  const grid = new NavGrid(30, 20);
  grid.fillRect(20, 0, 1, 20, { walkable: false });
  const r = findPath(grid, 0, 0, 29, 19, { algorithm: 'astar', reachabilityCheck: false });
  assert.equal(r.status, 'no-path');
  assert.equal(r.expanded, 20 * 20, 'without the component check A* settles the whole start side');
  assert.equal(findPath(grid, 0, 0, 29, 19, { algorithm: 'astar' }).expanded, 0, 'with it, no search');
  const limited = findPath(grid, 0, 0, 19, 19, { maxIterations: 5, algorithm: 'astar' });
  assert.equal(limited.status, 'limit-reached');
  assert.equal(limited.expanded, 5);
  assert.equal(findPath(grid, 0, 0, 19, 19, { maxIterations: 10_000 }).status, 'found');
});

test('ties break the same way every time: same query, same cells', () => {
  const grid = new NavGrid(40, 25);
  const a = Array.from(new Pathfinder(grid).findPath(0, 0, 39, 24).cells);
  const f = new Pathfinder(grid);
  for (let k = 0; k < 5; k++) f.findPath(k, 0, 39 - k, 20);
  assert.deepEqual(Array.from(f.findPath(0, 0, 39, 24).cells), a);
});

test('scratch is reused across grids of a size and many queries without leaking state', () => {
  const grid = new NavGrid(12, 9);
  const f = new Pathfinder(grid);
  grid.fillRect(5, 0, 1, 8, { walkable: false });
  const first = f.findPath(0, 0, 11, 0);
  for (let k = 0; k < 200; k++) f.findPath(k % 12, 8, 11 - (k % 12), 8);
  const again = f.findPath(0, 0, 11, 0);
  assert.equal(again.cost, first.cost);
  // A change after the first search is seen by the next one.
  grid.fillRect(5, 8, 1, 1, { walkable: false });
  assert.equal(f.findPath(0, 0, 11, 0).status, 'no-path');
});

test('a plug-in graph: neighbours, distance and estimate functions', () => {
  // A 5-node ring with a costly shortcut.
  const edges: Record<number, [number, number][]> = { 0: [[1, 1], [4, 10]], 1: [[2, 1]], 2: [[3, 1]], 3: [[4, 1]], 4: [] };
  const graph = { nodeCount: 5, neighbours: (n: number, visit: (m: number, c: number) => void) => edges[n].forEach(([m, c]) => visit(m, c)), estimate: () => 0 };
  const r = aStarGraph(graph, 0, 4);
  assert.equal(r.status, 'found');
  assert.deepEqual(Array.from(r.nodes), [0, 1, 2, 3, 4]);
  assert.equal(r.cost, 4);
  assert.equal(aStarGraph(graph, 4, 0).status, 'no-path');
  assert.equal(aStarGraph(graph, 0, 9).status, 'invalid-goal');
  const bad = { nodeCount: 2, neighbours: (_n: number, visit: (m: number, c: number) => void) => visit(1, -1) };
  assert.throws(() => aStarGraph(bad, 0, 1), /cost -1/);
});

test('GraphAStar reuses its scratch across queries and graphs of different sizes, with the one-shot answers', () => {
  const line = (n: number) => ({ nodeCount: n, neighbours: (k: number, visit: (m: number, c: number) => void) => (k + 1 < n ? visit(k + 1, 2) : undefined) });
  const astar = new GraphAStar();
  for (const n of [5, 50, 3, 50]) {
    const r = astar.findPath(line(n), 0, n - 1);
    assert.equal(r.status, 'found');
    assert.equal(r.cost, 2 * (n - 1));
    assert.deepEqual(Array.from(r.nodes), Array.from(aStarGraph(line(n), 0, n - 1).nodes));
    assert.equal(astar.findPath(line(n), n - 1, 0).status, 'no-path');
  }
  assert.equal(astar.findPath(line(4), 0, 4).status, 'invalid-goal');
  assert.equal(astar.findPath(line(4), -1, 2).status, 'invalid-start');
});

test('a plug-in grid graph agrees with the grid search', () => {
  const grid = new NavGrid(15, 11);
  grid.fillRect(4, 2, 1, 8, { walkable: false });
  grid.fillRect(8, 0, 1, 8, { terrain: 'Water' });
  const W = grid.width;
  const graph = {
    nodeCount: grid.size,
    neighbours(n: number, visit: (m: number, c: number) => void) {
      const x = n % W;
      const y = (n - x) / W;
      for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        if (grid.isWalkable(x + dx, y + dy)) visit((y + dy) * W + x + dx, grid.getCost(x + dx, y + dy));
      }
    },
    estimate: (n: number, goal: number) => Math.abs((n % W) - (goal % W)) + Math.abs(Math.floor(n / W) - Math.floor(goal / W)),
  };
  const viaGraph = aStarGraph(graph, 0, grid.index(14, 10));
  const viaGrid = findPath(grid, 0, 0, 14, 10, { movement: 'cardinal' });
  assert.ok(close(viaGraph.cost, viaGrid.cost));
});

test('out: the path is written into a caller buffer when it fits', () => {
  const grid = new NavGrid(10, 4);
  const buf = new Int32Array(64);
  const r = findPath(grid, 0, 0, 9, 3, { out: buf });
  assert.equal(r.cells.buffer, buf.buffer);
  assert.deepEqual(Array.from(r.cells), Array.from(findPath(grid, 0, 0, 9, 3).cells));
  const small = findPath(grid, 0, 0, 9, 3, { out: new Int32Array(2) });
  assert.equal(small.cells.length, 10);
});

test('the octile loop settles nodes in the heap order the generic loop does: the same path and expansion count', () => {
  const plainGrids = randomGrids({ width: [1, 24], height: [1, 18], costs: ['uniform', 'mixed'] });
  fc.assert(
    fc.property(plainGrids, fc.nat(), fc.nat(), (g, a, b) => {
      const { grid } = g;
      const start = a % grid.size;
      const goal = b % grid.size;
      const args = [grid.xOf(start), grid.yOf(start), grid.xOf(goal), grid.yOf(goal)] as const;
      const pf = new Pathfinder(grid);
      const fast = pf.findPath(...args, { algorithm: 'astar', reachabilityCheck: false });
      // `nearest` sends the query to the generic loop (which then also tracks the cell nearest the
      // goal): a reachable goal is found the same way, an unreachable one after the same expansions.
      const generic = pf.findPath(...args, { algorithm: 'astar', nearest: true });
      if (fast.status === 'invalid-start' || fast.status === 'invalid-goal') return;
      assert.equal(generic.status, fast.status === 'found' ? 'found' : 'partial');
      assert.equal(fast.expanded, generic.expanded);
      if (fast.status === 'found') assert.deepEqual(Array.from(fast.cells), Array.from(generic.cells));
    }),
    { numRuns: 300 },
  );
});
