/**
 * A search spread over frames (`Pathfinder.begin`, `PathSearch.step`): whatever the slices, the
 * answer findPath gives with the same options, on every algorithm (A*, JPS, JPS+, the hierarchy,
 * A* across links), and the reference Dijkstra's cost; several at once; restarts after grid and
 * link changes; cancel; the same mistakes throwing the same errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, Pathfinder, PathSearch, TilenavError, type FindPathOptions, type MovementName, type PathResult } from '../src/index.js';
import { mulberry32 } from '../src/query/index.js';
import { gridArb, randomGrid } from './grids.js';
import { refDistances } from './reference.js';

/** Steps `search` to its answer, each step's budget drawn by `slice` (1 by default). */
function finish(search: PathSearch, slice: () => number = () => 1): PathResult {
  for (let guard = 0; guard < 1e7; guard++) {
    const r = search.step({ maxExpansions: slice() });
    if (r !== null) return r;
  }
  throw new Error('the search did not end');
}

const MOVEMENTS: readonly MovementName[] = ['octile', 'cardinal', 'octile-always', 'octile-one-obstacle'];

test('path search: one expansion a step answers as findPath, and costs what the reference Dijkstra says (random grids)', () => {
  const grids = gridArb({ width: [1, 24], height: [1, 18], costs: ['uniform', 'mixed', 'integer'], oneWay: true });
  const query = fc.record({
    movement: fc.constantFrom(...MOVEMENTS),
    nearest: fc.boolean(),
    weight: fc.constantFrom(1, 1, 1.5),
    maxIterations: fc.oneof(fc.constant(Infinity), fc.nat(60)),
    reachabilityCheck: fc.boolean(),
    algorithm: fc.constantFrom('auto' as const, 'astar' as const),
  });
  fc.assert(
    fc.property(grids, query, ({ grid, rnd }, o) => {
      const finder = new Pathfinder(grid);
      for (let k = 0; k < 4; k++) {
        const sx = Math.floor(rnd() * grid.width);
        const sy = Math.floor(rnd() * grid.height);
        // With nearest, sometimes a goal off the grid (it stands for the nearest cell).
        const gx = Math.floor(rnd() * (grid.width + (o.nearest ? 4 : 0))) - (o.nearest ? 2 : 0);
        const gy = Math.floor(rnd() * grid.height);
        const options: FindPathOptions = { ...o };
        const label = `${grid.width}x${grid.height} (${sx},${sy})->(${gx},${gy}) ${JSON.stringify(o)}`;
        const stepped = finish(finder.begin(sx, sy, gx, gy, options));
        const once = finder.findPath(sx, sy, gx, gy, options);
        assert.deepEqual(stepped, once, label);
        if (stepped.status === 'found' && o.weight === 1) {
          const ref = refDistances(grid, 0, o.movement, [sy * grid.width + sx])[stepped.reached];
          assert.ok(Math.abs(stepped.cost - ref) <= 1e-9 * Math.max(1, ref), `${label}: cost ${stepped.cost}, reference ${ref}`);
        }
      }
    }),
    { numRuns: 150 },
  );
});

test('path search: slices of any size (and of time) give the same answer', () => {
  const rnd = mulberry32(5);
  const grid = randomGrid(70, 50, rnd, { wallRate: 0.3, costs: 'mixed' });
  const finder = new Pathfinder(grid);
  for (let k = 0; k < 30; k++) {
    const [sx, gx] = [Math.floor(rnd() * 70), Math.floor(rnd() * 70)];
    const [sy, gy] = [Math.floor(rnd() * 50), Math.floor(rnd() * 50)];
    // Named algorithms: 'auto' reads landmark tables that findPath's searches build as they go.
    const algorithm = k % 2 === 0 ? 'astar' : 'jps';
    const once = finder.findPath(sx, sy, gx, gy, { algorithm });
    assert.deepEqual(finish(finder.begin(sx, sy, gx, gy, { algorithm }), () => 1 + Math.floor(rnd() * 40)), once);
    const timed = finder.begin(sx, sy, gx, gy, { algorithm });
    let r: PathResult | null = null;
    while (r === null) r = timed.step({ budgetMs: 0 });
    assert.deepEqual(r, once);
    assert.deepEqual(finder.begin(sx, sy, gx, gy, { algorithm }).step(), once, 'no budget: to the end in one step');
  }
});

test('path search: radius and obstacles answer as findPath (around them, and through them when there is no way round)', () => {
  const grid = new NavGrid(30, 12);
  grid.fillRect(10, 0, 1, 11, { walkable: false });
  grid.fillRect(20, 1, 1, 11, { walkable: false });
  const finder = new Pathfinder(grid);
  const cases: FindPathOptions[] = [
    { obstacles: [{ x: 5.5, y: 11.5, radius: 0.4 }] },
    // Blocks the only gap at (10, 11): through it, avoided false.
    { obstacles: [{ x: 10.5, y: 11.5, radius: 0.4 }], obstacleOptions: { influence: 100 } },
    { obstacles: [{ x: 10.5, y: 11.5, radius: 0.4 }], obstacleOptions: { influence: 100 }, nearest: true },
    { radius: 0.9 },
    { radius: 0.9, obstacles: [{ x: 15.5, y: 6.5, radius: 1 }] },
    { obstacles: [{ x: 28.5, y: 5.5, radius: 0.4 }] },
  ];
  for (const options of cases) {
    for (const [gx, gy] of [
      [28, 5],
      [5, 5],
      [15, 0],
    ]) {
      const once = finder.findPath(1, 1, gx, gy, options);
      const stepped = finish(finder.begin(1, 1, gx, gy, options));
      assert.deepEqual(stepped, once, `${JSON.stringify(options)} to ${gx},${gy}`);
    }
  }
  const through = finish(finder.begin(1, 1, 28, 5, cases[1]));
  assert.equal(through.status, 'found');
  assert.equal(through.avoided, false);
});

test('path search: several searches at once, interleaved with findPath on the same Pathfinder', () => {
  const rnd = mulberry32(9);
  const grid = randomGrid(60, 45, rnd, { wallRate: 0.25 });
  const finder = new Pathfinder(grid);
  const idle = finder.bytes;
  const queries: [number, number, number, number, FindPathOptions][] = [];
  for (let k = 0; k < 6; k++) {
    const q: [number, number, number, number, FindPathOptions] = [
      Math.floor(rnd() * 60),
      Math.floor(rnd() * 45),
      Math.floor(rnd() * 60),
      Math.floor(rnd() * 45),
      k % 3 === 0 ? { movement: 'cardinal' } : k % 3 === 1 ? { nearest: true } : {},
    ];
    queries.push(q);
  }
  const expected = queries.map(([sx, sy, gx, gy, o]) => finder.findPath(sx, sy, gx, gy, o));
  const searches = queries.map(([sx, sy, gx, gy, o]) => finder.begin(sx, sy, gx, gy, o));
  const running = searches.filter((s) => s.state === 'running');
  assert.ok(running.length >= 3, 'several searches run at once');
  for (const s of running) assert.ok(s.bytes >= 20 * grid.size, 'each running search holds a slot of its own');
  let slotBytes = 0;
  const answers: (PathResult | null)[] = searches.map((s) => s.result);
  for (let round = 0; answers.some((a) => a === null); round++) {
    for (let i = 0; i < searches.length; i++) {
      if (answers[i] !== null) continue;
      slotBytes = Math.max(slotBytes, searches[i].bytes);
      answers[i] = searches[i].step({ maxExpansions: 1 + ((round * 7 + i) % 5) });
      // A findPath on the same Pathfinder between two steps does not disturb them.
      if (round % 3 === 0) finder.findPath(0, 0, 59, 44);
    }
  }
  assert.deepEqual(answers, expected);
  for (const s of searches) {
    assert.equal(s.state, 'done');
    assert.equal(s.bytes, 0);
  }
  // Two idle slots are kept for the next searches; the rest went to the garbage collector.
  const kept = finder.bytes - idle;
  assert.ok(kept >= 2 * 20 * grid.size && kept <= 2 * slotBytes, `idle slots: ${kept} bytes, a slot up to ${slotBytes}`);
  const again = finder.begin(...queries[0].slice(0, 4) as [number, number, number, number], queries[0][4]);
  assert.deepEqual(finish(again), expected[0]);
});

test('path search: a grid change between steps starts the search again on the changed grid', () => {
  const grid = new NavGrid(40, 30);
  const finder = new Pathfinder(grid);
  // A* (jump point search, which 'auto' runs here, would cross the open grid in a few expansions).
  const search = finder.begin(0, 15, 39, 15, { algorithm: 'astar' });
  assert.equal(search.step({ maxExpansions: 10 }), null);
  assert.ok(search.expanded === 10);
  // A wall across the straight way, with a gap at the bottom.
  grid.fillRect(20, 0, 1, 28, { walkable: false });
  const r = finish(search, () => 5);
  assert.equal(search.restarts, 1);
  assert.deepEqual(r, finder.findPath(0, 15, 39, 15, { algorithm: 'astar' }));
  assert.ok(r.cells.includes(28 * 40 + 20) || r.cells.includes(29 * 40 + 20), 'the path goes through the gap');
  // A change after the answer leaves it as it was.
  grid.fillRect(20, 28, 1, 2, { walkable: false });
  assert.equal(search.step(), r);
  assert.equal(search.restarts, 1);
  // A change that makes the goal blocked: the restart answers invalid-goal.
  const open = new NavGrid(40, 30);
  const s2 = new Pathfinder(open).begin(0, 0, 39, 29, { algorithm: 'astar' });
  assert.equal(s2.step({ maxExpansions: 3 }), null);
  open.setWalkable(39, 29, false);
  const r2 = s2.step({ maxExpansions: 3 });
  assert.equal(r2?.status, 'invalid-goal');
  assert.equal(s2.restarts, 1);
  // Changes on another layer restart too (the grid's version moved), with the same answer.
  const layered = new NavGrid(30, 20, { layers: 2 });
  const f2 = new Pathfinder(layered);
  const s3 = f2.begin(0, 0, 29, 19, { algorithm: 'astar' });
  s3.step({ maxExpansions: 2 });
  layered.setWalkable(5, 5, false, 1);
  assert.deepEqual(finish(s3), f2.findPath(0, 0, 29, 19, { algorithm: 'astar' }));
  assert.equal(s3.restarts, 1);
});

test('path search: cancel stops it, gives its slot back; stepping after throws naming the search', () => {
  const grid = new NavGrid(50, 50);
  grid.fillRect(25, 0, 1, 49, { walkable: false });
  const finder = new Pathfinder(grid);
  const before = finder.bytes;
  const search = finder.begin(0, 0, 49, 0, { algorithm: 'astar' });
  assert.equal(search.step({ maxExpansions: 20 }), null);
  assert.ok(search.bytes > 0);
  search.cancel();
  assert.equal(search.state, 'cancelled');
  assert.equal(search.result, null);
  assert.equal(search.bytes, 0);
  assert.ok(finder.bytes > before, 'the slot is idle in the Pathfinder');
  assert.throws(() => search.step(), (e: unknown) => e instanceof TilenavError && e.element === 'search');
  search.cancel();
  // The next search reuses the slot: the Pathfinder holds no more than before it began.
  const next = finder.begin(0, 0, 49, 0);
  const idleWhileRunning = finder.bytes;
  assert.equal(idleWhileRunning, before);
  assert.equal(finish(next, () => 100).status, 'found');
  // Cancelling a search that has answered changes nothing.
  next.cancel();
  assert.equal(next.state, 'done');
  assert.notEqual(next.result, null);
});

test('path search: answers that need no search are there at once', () => {
  const grid = new NavGrid(20, 10);
  grid.setWalkable(5, 5, false);
  grid.fillRect(10, 0, 1, 10, { walkable: false });
  const finder = new Pathfinder(grid);
  const cases: [number, number, number, number, FindPathOptions][] = [
    [-1, 0, 3, 3, {}],
    [0, 0, 5, 5, {}],
    [2, 2, 2, 2, {}],
    [0, 0, 15, 5, {}],
    [0, 0, 15, 5, { nearest: true, maxIterations: 0 }],
  ];
  for (const [sx, sy, gx, gy, o] of cases) {
    const s = finder.begin(sx, sy, gx, gy, o);
    const once = finder.findPath(sx, sy, gx, gy, o);
    if (o.nearest) {
      assert.equal(s.state, 'running');
      assert.deepEqual(finish(s), once);
      continue;
    }
    assert.equal(s.state, 'done', `${sx},${sy} -> ${gx},${gy}`);
    assert.deepEqual(s.result, once);
    assert.equal(s.step(), s.result);
    assert.equal(s.bytes, 0);
  }
});

/** The TilenavError (element and message) `fn` throws. */
function thrown(fn: () => unknown): { element: string | undefined; message: string } {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof TilenavError, `expected a TilenavError, got ${String(e)}`);
    return { element: e.element, message: e.message };
  }
  assert.fail('expected a TilenavError');
}

test('path search: the same mistakes throw the same errors as findPath; what begin cannot run is refused by name; links added while it runs restart it', () => {
  const grid = new NavGrid(10, 10);
  const finder = new Pathfinder(grid);
  const misuse: [number, number, number, number, unknown][] = [
    [0.5, 0, 1, 1, {}],
    [0, 0, NaN, 1, {}],
    [0, 0, 1, 1, { layer: 'Nowhere' }],
    [0, 0, 1, 1, { movement: 'hex' }],
    [0, 0, 1, 1, { algorithm: 'dijkstra' }],
    [0, 0, 1, 1, { maxIterations: -1 }],
    [0, 0, 1, 1, { weight: Infinity }],
    [0, 0, 1, 1, { nearest: 'yes' }],
    [0, 0, 1, 1, { out: [] }],
    [0, 0, 1, 1, { radius: -2 }],
    [0, 0, 1, 1, { obstacles: {} }],
    [0, 0, 5, 5, { obstacles: [{ x: 'a', y: 1, radius: 1 }] }],
    [0, 0, 1, 1, null],
  ];
  for (const [sx, sy, gx, gy, o] of misuse) {
    const a = thrown(() => finder.findPath(sx, sy, gx, gy, o as FindPathOptions));
    const b = thrown(() => finder.begin(sx, sy, gx, gy, o as FindPathOptions));
    assert.deepEqual(b, a, JSON.stringify(o));
  }
  // What an algorithm cannot answer is refused as findPath refuses it.
  const walled = new NavGrid(10, 10);
  walled.setEdgeWall(3, 3, 'north', true);
  for (const algorithm of ['jps', 'jps+', 'hpa'] as const) {
    const wf = new Pathfinder(walled);
    assert.deepEqual(thrown(() => wf.begin(0, 0, 9, 9, { algorithm })), thrown(() => wf.findPath(0, 0, 9, 9, { algorithm })));
    assert.deepEqual(thrown(() => finder.begin(0, 0, 9, 9, { algorithm, nearest: true })), thrown(() => finder.findPath(0, 0, 9, 9, { algorithm, nearest: true })));
  }
  assert.equal(thrown(() => finder.begin(0, 0, 9, 9, { anyAngle: true })).element, 'anyAngle');
  // A link added while a search runs: the next step starts again, and follows it.
  const later = new NavGrid(30, 30);
  const lf = new Pathfinder(later);
  const running = lf.begin(0, 0, 29, 29, { algorithm: 'astar' });
  assert.equal(running.step({ maxExpansions: 2 }), null);
  later.addLink({ from: { x: 1, y: 1 }, to: { x: 28, y: 28 }, cost: 1 });
  const viaLink = finish(running);
  assert.equal(running.restarts, 1);
  assert.deepEqual(viaLink, lf.findPath(0, 0, 29, 29, { algorithm: 'astar' }));
  assert.ok(viaLink.cost < 5, 'the teleporter is taken');
  const s = finder.begin(0, 0, 9, 9);
  for (const [options, element] of [
    [{ maxExpansions: 0 }, 'maxExpansions'],
    [{ maxExpansions: 1.5 }, 'maxExpansions'],
    [{ budgetMs: -1 }, 'budgetMs'],
    [{ budgetMs: 'soon' }, 'budgetMs'],
  ] as const) {
    assert.equal(thrown(() => s.step(options as never)).element, element);
  }
  assert.equal(thrown(() => s.step(3 as never)).element, 'options');
  assert.equal(finish(s).status, 'found');
});

/** Draws 0, 1 or 2 links on `grid` (between its layers), from `rnd`. */
function drawLinks(grid: NavGrid, rnd: () => number): void {
  const count = Math.floor(rnd() * 3);
  for (let k = 0; k < count; k++) {
    const a = Math.floor(rnd() * grid.size);
    const b = Math.floor(rnd() * grid.size);
    const la = Math.floor(rnd() * grid.layers.length);
    const lb = Math.floor(rnd() * grid.layers.length);
    if (a === b && la === lb) continue;
    grid.addLink({ from: { x: grid.xOf(a), y: grid.yOf(a), layer: la }, to: { x: grid.xOf(b), y: grid.yOf(b), layer: lb }, cost: rnd() < 0.5 ? rnd() : 1 + 5 * rnd(), bidirectional: rnd() < 0.5 });
  }
}

test('path search on every algorithm: one expansion a step gives the path findPath gives (astar, jps, jps+, hpa, auto; across links; several goals; random grids)', () => {
  const grids = gridArb({ width: [1, 30], height: [1, 22], layers: [1, 2], costs: ['uniform', 'uniform', 'mixed', 'integer'] });
  const query = fc.record({
    algorithm: fc.constantFrom('astar' as const, 'jps' as const, 'jps+' as const, 'hpa' as const, 'auto' as const),
    movement: fc.constantFrom<MovementName>('octile', 'octile', 'cardinal'),
    maxIterations: fc.oneof(fc.constant(Infinity), fc.constant(Infinity), fc.nat(80)),
    links: fc.boolean(),
    nearest: fc.constantFrom(false, false, true),
    goals: fc.option(fc.array(fc.tuple(fc.nat(), fc.nat(1)), { minLength: 1, maxLength: 6 }), { nil: undefined, freq: 3 }),
  });
  fc.assert(
    fc.property(grids, query, ({ grid, rnd }, o) => {
      if (o.links) drawLinks(grid, rnd);
      const finder = new Pathfinder(grid);
      const L = grid.layers.length;
      for (let k = 0; k < 4; k++) {
        const sx = Math.floor(rnd() * grid.width);
        const sy = Math.floor(rnd() * grid.height);
        const gx = Math.floor(rnd() * grid.width);
        const gy = Math.floor(rnd() * grid.height);
        const options: FindPathOptions = { algorithm: o.algorithm, movement: o.movement, maxIterations: o.maxIterations, nearest: o.nearest, layer: Math.floor(rnd() * L), goalLayer: Math.floor(rnd() * L) };
        // Several goals, some on the other layer.
        if (o.goals !== undefined) options.goals = o.goals.map(([c, l]) => [(c % grid.size) % grid.width, Math.floor((c % grid.size) / grid.width), l % L] as const);
        const label = `${grid.width}x${grid.height} (${sx},${sy})->(${gx},${gy}) ${JSON.stringify(options)} links ${JSON.stringify(grid.links())}`;
        // begin first: findPath's searches under 'auto' build landmark tables as they go, which
        // the next search reads (begin's do not build them).
        let stepped: PathResult;
        try {
          stepped = finish(finder.begin(sx, sy, gx, gy, options));
        } catch (e) {
          // What begin refuses, findPath refuses with the same error.
          assert.ok(e instanceof TilenavError, label);
          assert.deepEqual(thrown(() => finder.findPath(sx, sy, gx, gy, options)), { element: e.element, message: e.message }, label);
          continue;
        }
        assert.deepEqual(stepped, finder.findPath(sx, sy, gx, gy, options), label);
      }
    }),
    { numRuns: 400 },
  );
});

test('path search with jump point search: a slice expands as many jump points as asked, and maxIterations counts its scans over the steps', () => {
  const rnd = mulberry32(31);
  const grid = randomGrid(120, 80, rnd, { wallRate: 0.2 });
  const finder = new Pathfinder(grid);
  for (const algorithm of ['jps', 'jps+'] as const) {
    const once = finder.findPath(0, 0, 119, 79, { algorithm });
    if (once.status !== 'found') continue;
    const search = finder.begin(0, 0, 119, 79, { algorithm });
    let steps = 0;
    let r: PathResult | null = null;
    while (r === null) {
      const before = search.expanded;
      r = search.step({ maxExpansions: 3 });
      steps++;
      if (r === null) assert.equal(search.expanded - before, 3, 'a paused slice expanded what it was given');
    }
    assert.deepEqual(r, once);
    assert.ok(steps >= Math.floor(once.expanded / 3), `${steps} steps for ${once.expanded} expansions`);
    // maxIterations: the same limit over slices as in one call (scans counted).
    for (const maxIterations of [5, 50, 400]) {
      assert.deepEqual(finish(finder.begin(0, 0, 119, 79, { algorithm, maxIterations })), finder.findPath(0, 0, 119, 79, { algorithm, maxIterations }));
    }
  }
  // On a weighted layer 'auto' runs weighted jump point search, sliced too.
  const weighted = randomGrid(60, 40, mulberry32(4), { wallRate: 0.15, costs: 'mixed' });
  const wf = new Pathfinder(weighted);
  const a = finish(wf.begin(0, 0, 59, 39, { algorithm: 'jps' }));
  assert.deepEqual(a, wf.findPath(0, 0, 59, 39, { algorithm: 'jps' }));
  const ref = refDistances(weighted, 0, 'octile', [0])[39 * 60 + 59];
  if (a.status === 'found') assert.ok(Math.abs(a.cost - ref) <= 1e-6 * ref);
});
