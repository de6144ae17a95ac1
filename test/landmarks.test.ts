import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FLAG_NO_EXIT_NORTH, NavGrid, Pathfinder, TilenavError, checkPath } from '../src/index.js';
import { parseMovingAiMap } from '../src/loaders/index.js';
import { landmarksOf, type LandmarkBounds } from '../src/search/bounds/landmarks/landmark-bounds.js';
import { paintRegions } from '../bench/regions.js';
import { readFixture } from './fixtures.js';
import { VARYING_COSTS, applyChange, gridArb, gridFor } from './grids.js';
import { refDistances } from './reference.js';
import { agreeWithReference } from './agree.js';

const SQRT2 = Math.SQRT2;

/** Weighted grids, non-square, costs below 1 included, and sometimes painted terrain regions. */
const weighted = fc.tuple(gridArb({ width: [1, 36], height: [1, 28], costs: VARYING_COSTS }), fc.boolean(), fc.integer());

function build([{ grid, rnd }, regions, seed]: [{ grid: NavGrid; rnd: () => number }, boolean, number]): { grid: NavGrid; rnd: () => number } {
  if (regions) {
    grid.layers[0].cost.fill(1);
    paintRegions(grid, seed, { blobs: 2 + (seed & 7), maxRadius: 2 + (seed & 3), roads: seed & 1 });
  }
  return { grid, rnd };
}

/**
 * The property everything rests on: for every octile step n -> m (no corner cutting) the stored
 * costs of each landmark differ by at most the step's stand-in cost (its length times the cheaper
 * cell's cost, plus half the two costs' difference), and that stand-in, plus half of m's cost,
 * minus half of n's, is at most what the step costs. Checked on the stored numbers.
 */
function assertConsistent(grid: NavGrid, lm: LandmarkBounds, label: string): void {
  const view = grid.searchView(0);
  const pass = view.pass;
  const W = view.stride;
  const K = lm.slots;
  for (let p = 0; p < pass.length; p++) {
    if (!(pass[p] > 0)) continue;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        if (dx === 0 && dy === 0) continue;
        const m = p + dy * W + dx;
        if (!(pass[m] > 0)) continue;
        if (dx !== 0 && dy !== 0 && !(pass[p + dx] > 0 && pass[p + dy * W] > 0)) continue;
        const length = dx !== 0 && dy !== 0 ? SQRT2 : 1;
        const step = length * pass[m];
        const standIn = length * Math.min(pass[p], pass[m]) + 0.5 * Math.abs(pass[p] - pass[m]);
        // Equal in the worst case: allow the rounding of the large terms that cancel.
        assert.ok(standIn + 0.5 * (pass[m] - pass[p]) <= step + 1e-12 * Math.max(pass[p], pass[m]), `${label}: stand-in ${standIn} over the step's cost ${step}`);
        for (let k = 0; k < lm.count; k++) {
          const a = lm.dist[p * K + k];
          const b = lm.dist[m * K + k];
          if (a === Infinity && b === Infinity) continue;
          assert.ok(Math.abs(a - b) <= standIn, `${label}: landmark ${k}, step ${p} -> ${m} has stand-in cost ${standIn}, stored ${a} and ${b}`);
        }
      }
    }
  }
}

/** 'auto' against the reference Dijkstra from cell s to each goal. */
function agree(grid: NavGrid, finder: Pathfinder, s: number, goals: number[], label: string): void {
  agreeWithReference(grid, finder, 'octile', s % grid.width, Math.floor(s / grid.width), goals, label, ['auto']);
}

test('landmarks: every step satisfies the stored-cost inequality, and the bounds never exceed the true cost', () => {
  fc.assert(
    fc.property(weighted, fc.integer({ min: 1, max: 6 }), (arb, count) => {
      const { grid } = build(arb);
      const marks = landmarksOf(grid);
      marks.prepare(0, count);
      const lm = marks.tables(0);
      if (grid.searchView(0).uniform || grid.layers[0].walkable.every((w) => w === 0)) return;
      assert.ok(lm !== null);
      assert.ok(lm.count >= 1 && lm.count <= count && lm.slots === count && lm.complete);
      const pass = grid.searchView(0).pass;
      for (let k = 0; k < lm.count; k++) assert.ok(pass[lm.cells[k]] > 0, `landmark ${k} on a walkable cell`);
      assertConsistent(grid, lm, `${grid.width}x${grid.height}`);
      // Admissible: |D(L, t) - D(L, n)| + (cost of t - cost of n) / 2 <= cost(n, t) for a sample of pairs.
      const W = grid.width + 2;
      for (let s = 0; s < grid.size; s += 7) {
        if (grid.layers[0].walkable[s] !== 1) continue;
        const dist = refDistances(grid, 0, 'octile', [s]);
        const ps = (Math.floor(s / grid.width) + 1) * W + (s % grid.width) + 1;
        for (let t = 0; t < grid.size; t++) {
          if (dist[t] === Infinity) continue;
          const pt = (Math.floor(t / grid.width) + 1) * W + (t % grid.width) + 1;
          for (let k = 0; k < lm.count; k++) {
            const bound = Math.abs(lm.dist[pt * lm.slots + k] - lm.dist[ps * lm.slots + k]) + 0.5 * (pass[pt] - pass[ps]);
            if (Number.isNaN(bound)) continue;
            assert.ok(bound <= dist[t] * (1 + 1e-12), `bound ${bound} over cost ${dist[t]}`);
          }
        }
      }
    }),
    { numRuns: 150 },
  );
});

test("landmarks: 'auto' with landmark tables finds the reference Dijkstra's cost, also after random walls, openings and cost changes", () => {
  fc.assert(
    fc.property(weighted, fc.array(fc.tuple(fc.nat(), fc.nat(4), fc.nat(3)), { minLength: 1, maxLength: 16 }), (arb, changes) => {
      const { grid, rnd } = build(arb);
      const finder = new Pathfinder(grid);
      finder.prepare({ landmarks: 4 });
      const cell = (): number => Math.floor(rnd() * grid.size);
      agree(grid, finder, cell(), [cell(), cell(), cell()], 'before changes');
      for (const [at, kind, size] of changes) {
        const [x, y] = applyChange(grid, at, kind, size);
        agree(grid, finder, cell(), [cell(), cell()], `after change ${kind} at ${x},${y}`);
        const lm = landmarksOf(grid).tables(0);
        if (lm !== null) assertConsistent(grid, lm, `after change ${kind} at ${x},${y}`);
      }
    }),
    { numRuns: 150 },
  );
});

test('landmarks: a Moving AI map under terrain regions: the same costs as A*, far fewer expansions than weighted JPS alone', () => {
  const grid = paintRegions(parseMovingAiMap(readFixture('movingai/room-100-10.map')).grid, 7, { roads: 3 });
  const finder = new Pathfinder(grid);
  finder.prepare();
  const lm = landmarksOf(grid).tables(0);
  assert.ok(lm !== null && lm.count === 8, 'prepare builds 8 landmarks on a weighted layer');
  assert.equal(landmarksOf(grid).bytes, lm.dist.byteLength + lm.cells.byteLength);
  assert.equal(lm.dist.byteLength, 4 * 8 * 102 * 102, '4 bytes per padded cell per landmark');
  let plain = 0;
  let bounded = 0;
  for (let k = 0; k < 60; k++) {
    const sx = (k * 37) % 100;
    const sy = (k * 53 + 11) % 100;
    const gx = (k * 71 + 5) % 100;
    const gy = (k * 29 + 43) % 100;
    const a = finder.findPath(sx, sy, gx, gy, { algorithm: 'astar' });
    const j = finder.findPath(sx, sy, gx, gy, { algorithm: 'jps' });
    const l = finder.findPath(sx, sy, gx, gy);
    assert.equal(l.status, a.status, `query ${k}`);
    if (a.status !== 'found') continue;
    assert.ok(Math.abs(l.cost - a.cost) <= 1e-9 * a.cost, `query ${k}: auto ${l.cost}, astar ${a.cost}`);
    plain += j.expanded;
    bounded += l.expanded;
  }
  assert.ok(bounded * 2 < plain, `with landmarks ${bounded} expanded, weighted JPS alone ${plain}`);
});

test("landmarks: cardinal movement: 'auto' reads them too, with the reference Dijkstra's cost", () => {
  fc.assert(
    fc.property(weighted, (arb) => {
      const { grid, rnd } = build(arb);
      const finder = new Pathfinder(grid);
      finder.prepare({ movement: 'cardinal', landmarks: 3 });
      for (let q = 0; q < 3; q++) {
        const s = Math.floor(rnd() * grid.size);
        const dist = refDistances(grid, 0, 'cardinal', [s]);
        for (let k = 0; k < 4; k++) {
          const t = Math.floor(rnd() * grid.size);
          const r = finder.findPath(s % grid.width, Math.floor(s / grid.width), t % grid.width, Math.floor(t / grid.width), { movement: 'cardinal' });
          if (r.status !== 'found') {
            assert.ok(dist[t] === Infinity || grid.layers[0].walkable[s] !== 1, `${r.status} but Dijkstra ${dist[t]}`);
            continue;
          }
          assert.ok(Math.abs(r.cost - dist[t]) <= 1e-9 * Math.max(1, dist[t]), `cost ${r.cost}, Dijkstra ${dist[t]}`);
          assert.ok(checkPath(grid, r.cells, { movement: 'cardinal' }).valid);
        }
      }
    }),
    { numRuns: 150 },
  );
  // On a map, with tables the weighted cardinal search goes to jump point search and expands less.
  const grid = paintRegions(parseMovingAiMap(readFixture('movingai/room-100-10.map')).grid, 7, { roads: 3 });
  const finder = new Pathfinder(grid);
  finder.prepare({ landmarks: 0 });
  // The walkable cells nearest two opposite corners, in row order.
  const walk = grid.layers[0].walkable;
  const a = walk.indexOf(1);
  const b = walk.lastIndexOf(1);
  const q = [a % 100, Math.floor(a / 100), b % 100, Math.floor(b / 100)] as const;
  const before = finder.findPath(...q, { movement: 'cardinal' });
  finder.prepare({ movement: 'cardinal', landmarks: 8 });
  const after = finder.findPath(...q, { movement: 'cardinal' });
  assert.equal(before.status, 'found');
  assert.ok(Math.abs(after.cost - before.cost) <= 1e-9 * before.cost);
  assert.ok(after.expanded * 3 < before.expanded, `with tables ${after.expanded}, A* ${before.expanded}`);
});

test('landmarks: built by the searches, a slice per search, once they have done about half the work of building them; never with landmarks: 0', () => {
  const make = (): NavGrid => paintRegions(parseMovingAiMap(readFixture('movingai/room-100-10.map')).grid, 3, { roads: 2 });
  const grid = make();
  const finder = new Pathfinder(grid);
  const off = make();
  const offFinder = new Pathfinder(off);
  offFinder.prepare({ landmarks: 0 });
  let built = -1;
  for (let k = 0; k < 400 && built < 0; k++) {
    const q = [(k * 37) % 100, (k * 53 + 11) % 100, (k * 71 + 5) % 100, (k * 29 + 43) % 100] as const;
    finder.findPath(...q);
    offFinder.findPath(...q);
    if (landmarksOf(grid).tables(0) !== null) built = k;
  }
  assert.ok(built > 0, `tables built after ${built} queries (not on the first)`);
  const lm = landmarksOf(grid).tables(0)!;
  assert.equal(lm.count, 1, 'the first landmark is read as soon as it is built');
  assert.equal(lm.complete, false);
  // Each following search builds a slice more (an eighth of the layer), exact all along.
  let queries = 0;
  for (let last = lm.count; !lm.complete && queries < 200; queries++) {
    const a = finder.findPath(5, 5, 94, 93, { algorithm: 'astar' });
    const r = finder.findPath(5, 5, 94, 93);
    assert.ok(a.status === r.status && (a.status !== 'found' || Math.abs(a.cost - r.cost) <= 1e-9 * a.cost), `with ${lm.count} landmarks`);
    assert.ok(lm.count >= last && lm.count <= last + 1, `one landmark at a time: ${last} -> ${lm.count}`);
    last = lm.count;
  }
  assert.equal(lm.complete, true);
  assert.equal(lm.count, 8);
  assert.ok(queries >= 7 * 4, `about an eighth of the layer per search: built in ${queries} searches`);
  assert.equal(landmarksOf(off).tables(0), null, 'landmarks: 0 keeps them off');
  assert.equal(landmarksOf(off).bytes, 0);
  // A uniform layer never gets any: the plain heuristic is exact enough there.
  const uniform = parseMovingAiMap(readFixture('movingai/room-100-10.map')).grid;
  new Pathfinder(uniform).prepare();
  assert.equal(landmarksOf(uniform).tables(0), null);
});

test('landmarks: an opening that shortens the way to much of the map rebuilds the landmarks it affects a slice per search, exact all along', () => {
  // Terrain regions over rooms, cut in two by a wall with one door, far from where it opens.
  const grid = paintRegions(parseMovingAiMap(readFixture('movingai/room-100-10.map')).grid, 5, { roads: 2 });
  grid.fillRect(50, 0, 1, 100, { walkable: false });
  grid.fillRect(50, 96, 1, 2, { walkable: true });
  const finder = new Pathfinder(grid);
  finder.prepare();
  const lm = landmarksOf(grid).tables(0)!;
  assert.ok(lm.complete && lm.count === 8);
  // A gap in the middle of the wall: the way between the halves gets much shorter.
  grid.fillRect(50, 45, 1, 6, { walkable: true });
  const walk = grid.layers[0].walkable;
  const a = walk.indexOf(1);
  const b = walk.lastIndexOf(1);
  const check = (label: string): void => {
    agree(grid, finder, a, [b, 52 * 100 + 60, 48 * 100 + 40], label);
    assertConsistent(grid, landmarksOf(grid).tables(0)!, label);
  };
  check('after the opening');
  assert.ok(lm.waiting > 0, 'the landmarks whose costs fall across half the map are rebuilt, not repaired');
  let queries = 0;
  while (!lm.complete && queries < 300) {
    check(`rebuilding, ${lm.waiting} waiting`);
    queries++;
  }
  assert.ok(lm.complete, `rebuilt within ${queries} searches`);
  assert.ok(queries > 1, 'spread over several searches');
  check('rebuilt');
});

test('landmarks: not built where no search would read them (hex movement, one-way flags, costs too far apart for jump point search)', () => {
  const weightedGrid = (): NavGrid => {
    const g = new NavGrid(30, 20);
    g.fillRect(10, 0, 8, 20, { cost: 3 });
    return g;
  };
  const hex = gridFor(weightedGrid(), 'hex-odd-r');
  new Pathfinder(hex).prepare({ landmarks: 4 });
  assert.equal(landmarksOf(hex).tables(0), null, 'hex movement, the grid\'s own');
  new Pathfinder(hex).prepare({ movement: 'hex-odd-r', landmarks: 4 });
  assert.equal(landmarksOf(hex).tables(0), null, 'hex movement, asked for');
  const oneWay = weightedGrid();
  oneWay.setFlags(3, 3, FLAG_NO_EXIT_NORTH);
  new Pathfinder(oneWay).prepare({ landmarks: 4 });
  assert.equal(landmarksOf(oneWay).tables(0), null, 'one-way flags');
  const far = weightedGrid();
  far.fillRect(10, 0, 8, 20, { cost: 1e20 });
  const f = new Pathfinder(far);
  f.prepare();
  for (let k = 0; k < 300; k++) f.findPath(0, k % 20, 29, (k * 7) % 20);
  assert.equal(landmarksOf(far).tables(0), null, 'costs 1 to 1e20: A* searches, and builds no tables');
  assert.equal(landmarksOf(far).bytes, 0);
});

test('landmarks: bad counts are refused by name; costs near the float range build none and stay exact', () => {
  const grid = new NavGrid(8, 6);
  grid.setCost(3, 3, 2);
  const finder = new Pathfinder(grid);
  for (const bad of [-1, 1.5, 65, Number.NaN, '4', null]) {
    assert.throws(
      () => finder.prepare({ landmarks: bad as number }),
      (e: unknown) => e instanceof TilenavError && /landmarks/.test(`${e.message} ${JSON.stringify(e)}`),
      `landmarks ${String(bad)}`,
    );
  }
  const huge = new NavGrid(12, 4);
  huge.fillRect(0, 0, 12, 4, { cost: 1e37 });
  huge.setCost(5, 1, 3e37);
  const f = new Pathfinder(huge);
  f.prepare();
  assert.equal(landmarksOf(huge).tables(0), null);
  const r = f.findPath(0, 0, 11, 3);
  assert.equal(r.status, 'found');
  assert.ok(Number.isFinite(r.cost));
});

test('landmarks: a search inside grid.batch sees the writes made so far in the batch, with their openings repaired', () => {
  // A weighted field cut by a wall open at one end; the batch opens the wall and lays a cheap road across it, then
  // searches before the batch ends.
  const grid = new NavGrid(30, 10);
  grid.fillRect(5, 0, 20, 10, { cost: 5 });
  grid.fillRect(15, 0, 1, 9, { walkable: false });
  const finder = new Pathfinder(grid);
  finder.prepare();
  assert.ok(landmarksOf(grid).tables(0) !== null);
  const around = refDistances(grid, 0, 'octile', [0])[29];
  assert.ok(Math.abs(finder.findPath(0, 0, 29, 0).cost - around) <= 1e-9 * around, 'around the wall');
  const costs: number[] = [];
  grid.batch(() => {
    grid.fillRect(0, 0, 30, 1, { cost: 1 });
    grid.fillRect(15, 0, 1, 9, { walkable: true });
    for (const algorithm of ['auto', 'astar', 'jps'] as const) costs.push(finder.findPath(0, 0, 29, 0, { algorithm }).cost);
  });
  assert.deepEqual(costs, [29, 29, 29], 'the straight road, for every algorithm');
  const lm = landmarksOf(grid).tables(0);
  assert.ok(lm !== null);
  assertConsistent(grid, lm, 'after the batch');
  assert.equal(finder.findPath(0, 0, 29, 0).cost, 29);
  // A wall across the whole grid: before its opening is heard of, the component labels say 'no-path'.
  const cut = new NavGrid(12, 6);
  cut.fillRect(6, 0, 1, 6, { walkable: false });
  cut.setCost(2, 2, 3);
  const f = new Pathfinder(cut);
  f.prepare();
  assert.equal(f.findPath(0, 0, 11, 0).status, 'no-path');
  const found: string[] = [];
  cut.batch(() => {
    cut.setWalkable(6, 0, true);
    for (const algorithm of ['auto', 'astar', 'jps'] as const) found.push(`${f.findPath(0, 0, 11, 0, { algorithm }).cost}`);
  });
  assert.deepEqual(found, ['11', '11', '11']);
});
