/**
 * `maxIterations` bounds the work of every algorithm, jumps included: one unit per expanded node
 * and one per cell a jump steps over. Measured from outside the search: every read of the grid's
 * data (the padded view, the JPS bit and stop planes and cost boundaries, the JPS+ table) goes through a
 * counting proxy.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, Pathfinder, type FindPathOptions, type MovementName, type PathResult, type SearchAlgorithm } from '../src/index.js';
import { mulberry32 } from '../src/query/index.js';
import { gridArb } from './grids.js';

type Case = { algorithm: SearchAlgorithm; movement: MovementName };

/** Every grid-search loop `maxIterations` reaches: A* (octile loop, generic loop), JPS (uniform loop, weighted and cardinal loop), JPS+. */
const CASES: readonly Case[] = [
  { algorithm: 'astar', movement: 'octile' },
  { algorithm: 'astar', movement: 'cardinal' },
  { algorithm: 'jps', movement: 'octile' },
  { algorithm: 'jps', movement: 'cardinal' },
  { algorithm: 'jps+', movement: 'octile' },
];

const SIDE = 200;

/** A SIDE x SIDE map: open, with a fifth of the cells walls, or walls and costs 1 to 3. */
function map(kind: 'open' | 'walls' | 'weighted', seed = 7): NavGrid {
  const rnd = mulberry32(seed);
  const grid = new NavGrid(SIDE, SIDE);
  const layer = grid.layers[0];
  if (kind !== 'open') {
    for (let i = 0; i < grid.size; i++) {
      if (rnd() < 0.2) layer.walkable[i] = 0;
      if (kind === 'weighted' && rnd() < 0.3) layer.cost[i] = 1 + Math.floor(rnd() * 3);
    }
  }
  grid.refresh();
  return grid;
}

/** Counts reads by index of a typed array; every other property is the array's own. */
function counting<T extends object>(array: T, tally: { reads: number }): T {
  return new Proxy(array, {
    get(target, key) {
      if (typeof key === 'string') {
        const c = key.charCodeAt(0);
        if ((c >= 48 && c <= 57) || c === 45) tally.reads++;
      }
      const v = Reflect.get(target, key);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/**
 * A Pathfinder on `grid` whose searches for `c` count every read of the grid data they search
 * into the returned tally (the planes and tables built first, so building them is not counted).
 */
function instrumented(grid: NavGrid, c: Case): { finder: Pathfinder; tally: { reads: number } } {
  const finder = new Pathfinder(grid);
  finder.findPath(0, 0, grid.width - 1, grid.height - 1, { ...c, reachabilityCheck: false });
  const tally = { reads: 0 };
  type Planes = { rows: Int32Array; cols: Int32Array; east?: Int32Array | null; west?: Int32Array | null; south?: Int32Array | null; north?: Int32Array | null };
  const view = grid.searchView(0) as { pass: Float32Array; uniform: boolean };
  view.pass = counting(view.pass, tally);
  if (c.algorithm !== 'astar') {
    const jps = (finder as unknown as { jumpPointSearch(): { bits(l: number): Planes; boundaries(l: number): Planes; table(v: unknown, l: number): { jumps: Int16Array } } }).jumpPointSearch();
    const planes: Planes[] = [jps.bits(0)];
    if (!view.uniform) planes.push(jps.boundaries(0));
    for (const p of planes) {
      p.rows = counting(p.rows, tally);
      p.cols = counting(p.cols, tally);
      // The uniform scans' stop planes (built with the walkability planes on uniform layers).
      for (const k of ['east', 'west', 'south', 'north'] as const) {
        const plane = p[k];
        if (plane) p[k] = counting(plane, tally);
      }
    }
    if (c.algorithm === 'jps+') {
      const t = jps.table(view, 0);
      t.jumps = counting(t.jumps, tally);
    }
  }
  return { finder, tally };
}

/**
 * The reads a search limited to N units may make: about 12 per A* expansion (four sides, eight
 * neighbours), up to ~9 per unit of a jump (one to three words per 32 cells of a scan, three cells per
 * diagonal step), plus one scan past the limit (a 200-cell row: at most ~45 reads).
 */
const readsAllowed = (n: number): number => 16 * n + 64;

test('work limit: JPS limited to 500 on an open 200 x 200 map answers limit-reached; with enough, the unlimited answer', () => {
  const grid = map('open');
  const finder = new Pathfinder(grid);
  for (const algorithm of ['jps', 'auto'] as const) {
    const limited = finder.findPath(0, 0, SIDE - 1, SIDE - 1, { algorithm, maxIterations: 500 });
    assert.equal(limited.status, 'limit-reached', algorithm);
    assert.equal(limited.cells.length, 0);
    const free = finder.findPath(0, 0, SIDE - 1, SIDE - 1, { algorithm });
    assert.equal(free.status, 'found');
    // One expansion (the start) whose diagonal run scans every row and column: about 2 x 200^2 / 2 cells.
    assert.ok(free.expanded <= 2, `${algorithm}: expanded ${free.expanded}`);
    assert.deepEqual(finder.findPath(0, 0, SIDE - 1, SIDE - 1, { algorithm, maxIterations: 2 * SIDE * SIDE }), free, algorithm);
  }
  // A* needs 199 expansions here, well within 500. JPS+ reads one table entry per jump whatever
  // its length, and counts so: one expansion and one diagonal hop.
  assert.equal(finder.findPath(0, 0, SIDE - 1, SIDE - 1, { algorithm: 'astar', maxIterations: 500 }).status, 'found');
  assert.equal(finder.findPath(0, 0, SIDE - 1, SIDE - 1, { algorithm: 'jps+', maxIterations: 500 }).status, 'found');
});

for (const kind of ['open', 'walls', 'weighted'] as const) {
  for (const c of CASES) {
    if (kind === 'weighted' && c.algorithm === 'jps+') continue;
    test(`work limit: ${c.algorithm} ${c.movement} on a ${kind} map reads O(maxIterations) cells`, () => {
      const grid = map(kind);
      const { finder, tally } = instrumented(grid, c);
      const rnd = mulberry32(11);
      let limitedSeen = 0;
      for (const n of [0, 1, 3, 10, 50, 200, 1000, 4000]) {
        for (let q = 0; q < 8; q++) {
          const [sx, sy, gx, gy] = [0, 0, 0, 0].map(() => Math.floor(rnd() * SIDE));
          tally.reads = 0;
          const r = finder.findPath(sx, sy, gx, gy, { ...c, maxIterations: n, reachabilityCheck: false });
          assert.ok(tally.reads <= readsAllowed(n), `${sx},${sy} -> ${gx},${gy} limit ${n}: ${tally.reads} reads (${r.status}, ${r.expanded} expanded)`);
          if (r.status === 'limit-reached') limitedSeen++;
          assert.ok(r.expanded <= n, 'expanded counts expanded nodes, at most the limit');
        }
      }
      assert.ok(limitedSeen > 0, 'some searches were stopped by the limit');
    });
  }
}

test('work limit: A* closes at most maxIterations + 1 cells and opens at most 8 per expansion (expandedInto)', () => {
  const grid = map('walls');
  grid.layers[0].walkable[5 * SIDE + 3] = 1;
  grid.layers[0].walkable[180 * SIDE + 190] = 1;
  grid.refresh();
  const finder = new Pathfinder(grid);
  const marks = new Uint8Array(grid.size);
  for (const n of [1, 10, 100, 1000]) {
    const r = finder.findPath(3, 5, 190, 180, { algorithm: 'astar', maxIterations: n });
    assert.equal(r.status, 'limit-reached');
    const closed = finder.expandedInto(marks);
    let open = 0;
    for (const m of marks) if (m === 2) open++;
    assert.equal(r.expanded, n);
    assert.ok(closed <= n + 1, `closed ${closed}`);
    assert.ok(closed + open <= 9 * n + 1, `touched ${closed + open}`);
  }
});

test('work limit: the hierarchy does not read maxIterations', () => {
  const grid = map('open');
  const finder = new Pathfinder(grid);
  const r = finder.findPath(0, 0, SIDE - 1, SIDE - 1, { algorithm: 'hpa', maxIterations: 1 });
  assert.equal(r.status, 'found');
});

/** The smallest limit that lets the query run to its end, found by doubling then halving. */
function threshold(run: (n: number) => PathResult): number {
  let hi = 1;
  while (run(hi).status === 'limit-reached') hi *= 2;
  let lo = 0;
  if (run(0).status !== 'limit-reached') return 0;
  // run(lo) is limited, run(hi) is not.
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (run(mid).status === 'limit-reached') lo = mid;
    else hi = mid;
  }
  return hi;
}

test('work limit: below a threshold every limit answers limit-reached, from it on the unlimited answer (random grids, every algorithm)', () => {
  const grids = gridArb({ width: [1, 40], height: [1, 30], costs: ['uniform', 'mixed'] });
  fc.assert(
    fc.property(grids, fc.nat(1000), ({ grid, rnd }, extra) => {
      const finder = new Pathfinder(grid);
      const uniform = grid.searchView(0).uniform;
      for (const c of CASES) {
        if (!uniform && c.algorithm === 'jps+') continue;
        for (let q = 0; q < 3; q++) {
          const sx = Math.floor(rnd() * grid.width);
          const sy = Math.floor(rnd() * grid.height);
          const gx = Math.floor(rnd() * grid.width);
          const gy = Math.floor(rnd() * grid.height);
          const options: FindPathOptions = { ...c, reachabilityCheck: false };
          const run = (n: number): PathResult => finder.findPath(sx, sy, gx, gy, { ...options, maxIterations: n });
          const free = finder.findPath(sx, sy, gx, gy, options);
          const t = threshold(run);
          const label = `${c.algorithm} ${c.movement} ${grid.width}x${grid.height} (${sx},${sy})->(${gx},${gy}) threshold ${t}`;
          assert.deepEqual(run(t), free, label);
          assert.deepEqual(run(t + extra), free, label);
          if (t > 0) {
            const below = run(Math.max(0, t - 1 - (extra % t)));
            assert.equal(below.status, 'limit-reached', label);
            assert.ok(below.expanded <= free.expanded, label);
          }
        }
      }
    }),
    { numRuns: 100 },
  );
});
