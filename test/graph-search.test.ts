/**
 * The graph door's search spread over frames (`GraphAStar.begin` -> `GraphSearch.step`): its
 * answer is findPath's whatever the slices, it checks what findPath checks with the same errors,
 * and it refuses a step budget the way the grid's `PathSearch.step` does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { GraphAStar, type Graph } from '../src/graph/index.js';
import { NavGrid, Pathfinder, TilenavError } from '../src/index.js';

/** A random directed graph: n nodes, edges as (from, to, cost), an estimate of 0 or none. */
const graphArb = fc
  .integer({ min: 1, max: 40 })
  .chain((n) =>
    fc.record({
      n: fc.constant(n),
      edges: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1), fc.constantFrom(0, 0.5, 1, 2, 3.25)), { maxLength: 4 * n }),
      start: fc.nat(n - 1),
      goal: fc.nat(n - 1),
      maxIterations: fc.constantFrom(Infinity, Infinity, 3, 10),
      slice: fc.integer({ min: 1, max: 5 }),
    }),
  );

function graphOf(n: number, edges: [number, number, number][]): Graph {
  const out: [number, number][][] = Array.from({ length: n }, () => []);
  for (const [a, b, c] of edges) out[a].push([b, c]);
  return { nodeCount: n, neighbours: (node, visit) => out[node].forEach(([b, c]) => visit(b, c)) };
}

test('graph search over frames: stepping a few expansions at a time gives findPath\'s answer', () => {
  const astar = new GraphAStar();
  fc.assert(
    fc.property(graphArb, ({ n, edges, start, goal, maxIterations, slice }) => {
      const graph = graphOf(n, edges);
      const whole = new GraphAStar().findPath(graph, start, goal, { maxIterations });
      const search = astar.begin(graph, start, goal, { maxIterations });
      let r = search.result;
      let steps = 0;
      while (r === null) {
        assert.equal(search.state, 'running');
        r = search.step({ maxExpansions: slice });
        assert.ok(++steps <= 4 * n + 2, 'the search ends');
      }
      assert.equal(search.state, 'done');
      assert.equal(search.bytes, 0);
      assert.equal(r.status, whole.status);
      assert.equal(r.cost, whole.cost);
      assert.equal(r.expanded, whole.expanded);
      assert.deepEqual(Array.from(r.nodes), Array.from(whole.nodes));
      assert.equal(search.step(), r, 'a done search returns its answer again');
    }),
    { numRuns: 300 },
  );
});

test('graph search over frames: several at once, cancel, and the answers that need no search', () => {
  const n = 1000;
  const line: Graph = { nodeCount: n, neighbours: (v, visit) => (v + 1 < n ? visit(v + 1, 1) : undefined), estimate: (v, goal) => Math.abs(goal - v) };
  const astar = new GraphAStar();
  const a = astar.begin(line, 0, n - 1);
  const b = astar.begin(line, 10, 500);
  assert.equal(a.step({ maxExpansions: 100 }), null);
  assert.equal(b.step({ maxExpansions: 100 }), null);
  assert.ok(a.bytes > 0 && a.expanded === 100);
  assert.equal(a.step()!.cost, n - 1);
  assert.equal(b.step()!.nodes.length, 491);
  const c = astar.begin(line, 0, n - 1);
  c.step({ maxExpansions: 5 });
  c.cancel();
  assert.equal(c.state, 'cancelled');
  assert.equal(c.result, null);
  assert.throws(() => c.step(), (e: unknown) => e instanceof TilenavError && e.element === 'search');
  // No search needed: ready at once.
  assert.equal(astar.begin(line, 3, 3).result!.status, 'found');
  assert.equal(astar.begin(line, -1, 3).result!.status, 'invalid-start');
  assert.equal(astar.begin(line, 3, n).state, 'done');
  assert.equal(astar.begin(line, 3, n).result!.status, 'invalid-goal');
  // A budget in time: at least one expansion a step, and the answer at the end.
  const timed = astar.begin(line, 0, n - 1);
  let r = timed.step({ budgetMs: 0 });
  assert.ok(timed.expanded >= 1);
  while (r === null) r = timed.step({ budgetMs: 1 });
  assert.equal(r.cost, n - 1);
});

test('graph search over frames: the same mistake gets the same error as findPath, and a bad budget the one the grid search gives', () => {
  const graph: Graph = { nodeCount: 3, neighbours: (v, visit) => visit((v + 1) % 3, 1) };
  const astar = new GraphAStar();
  const mistakes: [Graph, Record<string, unknown>][] = [
    [{ nodeCount: 2.5, neighbours: () => {} }, {}],
    [graph, { maxIterations: -1 }],
    [graph, { weight: NaN }],
  ];
  for (const [g, options] of mistakes) {
    const expected = (() => {
      try {
        astar.findPath(g, 0, 1, options);
      } catch (e) {
        return e as TilenavError;
      }
      assert.fail('findPath accepts a mistake');
    })();
    assert.throws(() => astar.begin(g, 0, 1, options), (e: unknown) => e instanceof TilenavError && e.message === expected.message && e.element === expected.element);
  }
  // An edge out of range throws from the step that meets it, naming graph.neighbours.
  const broken: Graph = { nodeCount: 3, neighbours: (_v, visit) => visit(7, 1) };
  assert.throws(() => astar.begin(broken, 0, 2).step(), (e: unknown) => e instanceof TilenavError && e.element === 'graph.neighbours');
  // Step budgets: the grid's PathSearch and the graph's refuse the same values with the same errors.
  const grid = new NavGrid(30, 1);
  for (const budget of [{ maxExpansions: 0 }, { maxExpansions: 1.5 }, { budgetMs: -1 }, { budgetMs: 'soon' }]) {
    const gridSearch = new Pathfinder(grid).begin(0, 0, 29, 0);
    const graphSearch = astar.begin(graph, 0, 2);
    let gridError: TilenavError | undefined;
    try {
      gridSearch.step(budget as never);
    } catch (e) {
      gridError = e as TilenavError;
    }
    assert.ok(gridError instanceof TilenavError, JSON.stringify(budget));
    assert.throws(() => graphSearch.step(budget as never), (e: unknown) => e instanceof TilenavError && e.message === gridError.message && e.element === gridError.element);
  }
});

test('graph search over frames: after the graph throws part way through a node, the next step goes on to findPath\'s answer', () => {
  // A grid-like graph 10 x 10; node 5's neighbours throw once, after visiting one edge.
  const side = 10;
  let failOnce = false;
  const graph: Graph = {
    nodeCount: side * side,
    neighbours(v, visit) {
      const x = v % side;
      const y = Math.floor(v / side);
      if (x + 1 < side) visit(v + 1, 1);
      if (v === 5 && failOnce) {
        failOnce = false;
        throw new Error('the game lost its map for a moment');
      }
      if (y + 1 < side) visit(v + side, 1);
      if (x > 0) visit(v - 1, 1);
      if (y > 0) visit(v - side, 1);
    },
  };
  const whole = new GraphAStar().findPath(graph, 0, 99);
  failOnce = true;
  const search = new GraphAStar().begin(graph, 0, 99);
  assert.throws(() => search.step(), /lost its map/);
  assert.equal(search.state, 'running');
  const r = search.step()!;
  assert.equal(r.status, 'found');
  assert.equal(r.cost, whole.cost);
  assert.equal(r.expanded, whole.expanded);
  assert.deepEqual(Array.from(r.nodes), Array.from(whole.nodes));
});
