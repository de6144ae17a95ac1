import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, Pathfinder, TilenavError, checkPath } from '../src/index.js';
import { parseMovingAiMap } from '../src/loaders/index.js';
import { paintRegions } from '../bench/regions.js';
import { readFixture } from './fixtures.js';
import { VARYING_COSTS, applyChange, gridArb } from './grids.js';
import { agreeWithReference } from './agree.js';
import { mulberry32 } from '../src/query/index.js';

type Movement = 'octile' | 'cardinal';

/** Weighted grids: noise costs (below 1 included) or painted regions over them, non-square. */
const weighted = fc.tuple(gridArb({ width: [1, 40], height: [1, 30], costs: VARYING_COSTS }), fc.boolean(), fc.integer());

function prepare([{ grid, rnd }, regions, seed]: [{ grid: NavGrid; rnd: () => number }, boolean, number]): { grid: NavGrid; rnd: () => number } {
  if (regions) {
    grid.layers[0].cost.fill(1);
    paintRegions(grid, seed, { blobs: 2 + (seed & 7), maxRadius: 2 + (seed & 3), roads: seed & 1 });
  }
  return { grid, rnd };
}

function cell(rnd: () => number, grid: NavGrid): number {
  return Math.floor(rnd() * grid.size);
}

for (const movement of ['octile', 'cardinal'] as const) {
  test(`weighted jps: the reference Dijkstra's cost on random weighted grids (${movement})`, () => {
    fc.assert(
      fc.property(weighted, (arb) => {
        const { grid, rnd } = prepare(arb);
        const finder = new Pathfinder(grid);
        for (let q = 0; q < 3; q++) {
          const s = cell(rnd, grid);
          const goals = Array.from({ length: 8 }, () => cell(rnd, grid));
          agreeWithReference(grid, finder, movement, s % grid.width, Math.floor(s / grid.width), goals, `${grid.width}x${grid.height}`);
        }
      }),
      { numRuns: 250 },
    );
  });
}

/** Costs for stripes and bands: below 1 (cheaper than plain ground and roads), 1, and dearer. */
const STRIPE_COSTS = [0.5, 0.75, 0.9, 1, 1.25, 1.5, 2, 3, 4];

/**
 * A long grid whose costs change every few cells along it: stripes across it (straight edges), or
 * bands along a diagonal (stair-step edges), optionally inside a corridor 1 to 3 cells wide with
 * a few walls scattered in it, and stood on end when `upright` (so column scans cross the edges).
 */
function stripedGrid(seed: number, upright: boolean, diagonal: boolean, corridor: number): NavGrid {
  const rnd = mulberry32(seed);
  const long = 16 + Math.floor(rnd() * 60);
  const across = corridor > 0 ? corridor + 2 : 2 + Math.floor(rnd() * 10);
  const grid = upright ? new NavGrid(across, long) : new NavGrid(long, across);
  const cost = grid.layers[0].cost;
  const walk = grid.layers[0].walkable;
  // Stripe widths of 1 to 6 cells, each at a cost drawn from STRIPE_COSTS.
  const bands: number[] = [];
  while (bands.length < long + across) {
    const c = STRIPE_COSTS[Math.floor(rnd() * STRIPE_COSTS.length)];
    for (let w = 1 + Math.floor(rnd() * 6); w > 0; w--) bands.push(c);
  }
  for (let a = 0; a < long; a++) {
    for (let b = 0; b < across; b++) {
      const i = upright ? a * across + b : b * long + a;
      cost[i] = bands[diagonal ? a + b : a];
      if (corridor > 0 && (b === 0 || b === across - 1)) walk[i] = 0;
      else if (rnd() < 0.04) walk[i] = 0;
    }
  }
  grid.refresh();
  return grid;
}

for (const movement of ['octile', 'cardinal'] as const) {
  test(`weighted jps: long stripes and corridors crossing many cost edges, costs below 1 included (${movement})`, () => {
    fc.assert(
      fc.property(fc.integer(), fc.boolean(), fc.boolean(), fc.integer({ min: 0, max: 3 }), (seed, upright, diagonal, corridor) => {
        const grid = stripedGrid(seed, upright, diagonal, corridor);
        const finder = new Pathfinder(grid);
        const rnd = mulberry32(seed ^ 0x51);
        const long = upright ? grid.height : grid.width;
        const across = upright ? grid.width : grid.height;
        // From near one end to the whole far end (every cost edge crossed), and between random cells.
        const at = (a: number, b: number): number => (upright ? a * across + b : b * long + a);
        for (let q = 0; q < 2; q++) {
          const s = at(Math.floor(rnd() * 3), Math.floor(rnd() * across));
          const goals = [...Array.from({ length: across }, (_, b) => at(long - 1 - Math.floor(rnd() * 2), b)), cell(rnd, grid), cell(rnd, grid)];
          agreeWithReference(grid, finder, movement, s % grid.width, Math.floor(s / grid.width), goals, `stripes ${grid.width}x${grid.height}`);
        }
      }),
      { numRuns: 150 },
    );
  });
}

test('weighted jps: stays exact through random cost and wall changes', () => {
  fc.assert(
    fc.property(weighted, fc.array(fc.tuple(fc.nat(), fc.nat(4), fc.nat(2)), { minLength: 1, maxLength: 20 }), (arb, changes) => {
      const { grid, rnd } = prepare(arb);
      const finder = new Pathfinder(grid);
      finder.findPath(0, 0, grid.width - 1, grid.height - 1, { algorithm: 'jps' }); // builds the planes before the changes
      for (const [at, kind, size] of changes) {
        applyChange(grid, at, kind, size);
        const s = cell(rnd, grid);
        const movement: Movement = at % 2 === 0 ? 'octile' : 'cardinal';
        agreeWithReference(grid, finder, movement, s % grid.width, Math.floor(s / grid.width), [cell(rnd, grid), cell(rnd, grid)], 'after change');
      }
    }),
    { numRuns: 150 },
  );
});

test('weighted jps: searches cut short by maxIterations, and A* searches on the same scratch, leave the next search exact', () => {
  fc.assert(
    fc.property(weighted, fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat(30)), { minLength: 1, maxLength: 8 }), (arb, cuts) => {
      const { grid, rnd } = prepare(arb);
      const finder = new Pathfinder(grid);
      for (const [a, b, limit] of cuts) {
        const from = a % grid.size;
        const to = b % grid.size;
        const movement: Movement = limit % 2 === 0 ? 'octile' : 'cardinal';
        const algorithm = limit % 3 === 0 ? 'astar' : 'jps';
        finder.findPath(from % grid.width, Math.floor(from / grid.width), to % grid.width, Math.floor(to / grid.width), { algorithm, movement, maxIterations: limit });
        const s = cell(rnd, grid);
        agreeWithReference(grid, finder, movement, s % grid.width, Math.floor(s / grid.width), [cell(rnd, grid), cell(rnd, grid)], `after a search limited to ${limit}`);
      }
    }),
    { numRuns: 200 },
  );
});

test('weighted jps: a Moving AI map under terrain regions costs what A* finds, with fewer expansions', () => {
  const grid = paintRegions(parseMovingAiMap(readFixture('movingai/room-100-10.map')).grid, 7, { roads: 3 });
  assert.equal(grid.searchView(0).uniform, false);
  const finder = new Pathfinder(grid);
  let jpsExpanded = 0;
  let astarExpanded = 0;
  let longest: number[] = [];
  for (let k = 0; k < 60; k++) {
    const sx = (k * 37) % 100;
    const sy = (k * 53 + 11) % 100;
    const gx = (k * 71 + 5) % 100;
    const gy = (k * 29 + 43) % 100;
    const a = finder.findPath(sx, sy, gx, gy, { algorithm: 'astar' });
    const j = finder.findPath(sx, sy, gx, gy, { algorithm: 'jps' });
    assert.equal(j.status, a.status, `query ${k}`);
    if (a.status !== 'found') continue;
    assert.ok(Math.abs(j.cost - a.cost) <= 1e-9 * a.cost, `query ${k}: jps ${j.cost}, astar ${a.cost}`);
    jpsExpanded += j.expanded;
    astarExpanded += a.expanded;
    if (longest.length === 0 || a.expanded > longest[4]) longest = [sx, sy, gx, gy, a.expanded];
  }
  assert.ok(jpsExpanded * 3 < astarExpanded, `jps expanded ${jpsExpanded}, astar ${astarExpanded}`);
  // 'auto': weighted JPS with octile movement (fewer expansions than A*), A* with cardinal.
  const [sx, sy, gx, gy] = longest;
  const cardinal = { movement: 'cardinal' } as const;
  assert.ok(finder.findPath(sx, sy, gx, gy, { algorithm: 'auto' }).expanded < finder.findPath(sx, sy, gx, gy, { algorithm: 'astar' }).expanded);
  assert.equal(finder.findPath(sx, sy, gx, gy, { ...cardinal, algorithm: 'auto' }).expanded, finder.findPath(sx, sy, gx, gy, { ...cardinal, algorithm: 'astar' }).expanded);
});

test("weighted jps: 'jps' searches weighted layers, 'jps+' refuses them, one-way layers go to A* under 'auto'", () => {
  const grid = new NavGrid(6, 4);
  grid.fillRect(2, 0, 2, 3, { cost: 3 });
  const finder = new Pathfinder(grid);
  const r = finder.findPath(0, 0, 5, 0, { algorithm: 'jps' });
  // Around the costly block through row 3 (four diagonals, three straight steps) beats 9 straight through it.
  assert.equal(r.status, 'found');
  assert.ok(Math.abs(r.cost - (3 + 4 * Math.SQRT2)) < 1e-9, `cost ${r.cost}`);
  assert.equal(r.cost, finder.findPath(0, 0, 5, 0, { algorithm: 'astar' }).cost);
  assert.throws(() => finder.findPath(0, 0, 5, 0, { algorithm: 'jps+' }), (e: unknown) => e instanceof TilenavError && /costs differ/.test(e.message));
  grid.setFlags(1, 1, 4);
  assert.throws(() => finder.findPath(0, 0, 5, 0, { algorithm: 'jps' }), (e: unknown) => e instanceof TilenavError && /one-way/.test(e.message));
  const auto = finder.findPath(0, 3, 5, 3, { algorithm: 'auto' });
  assert.equal(auto.cost, finder.findPath(0, 3, 5, 3, { algorithm: 'astar' }).cost);
});

test("weighted jps: costs so far apart that path sums round the cheapest steps away: 'auto' runs A* (exact), 'jps' refuses", () => {
  // '.' costs 1, '#' 1e20, '@' is a wall. Past 2^53 a sum of costs no longer registers a cost of 1,
  // so cheap detours tie with each other and jump point search's pruning, which relies on exact
  // comparisons of path costs, skipped the cheap way round (3e20 against A*'s 2e20).
  const rows = [
    '.#..#@#.@####@.@..##', '...#..#.#.......##.@', '.####.@#..#.##..@###', '#.......##@@..#@.@##', '@.#.....#@.#.##.###@',
    '..@.....#..##.#..@..', '###.....###@#@@##.##', '#.#......#.##.##..#.', '.@##...###.#.#..#.##', '.#@@@#.....@.#..##.#',
    '...#...@.#@..@#.#..#', '..#...@##.@####@.##.', '.#.#.##.#...#..##@.@', '##..#@##.###@##.###.', '..#.#@.#..@...@..#..',
  ];
  const grid = new NavGrid(20, 15);
  rows.forEach((row, y) => [...row].forEach((c, x) => grid.fillRect(x, y, 1, 1, c === '@' ? { walkable: false } : { cost: c === '#' ? 1e20 : 1 })));
  const finder = new Pathfinder(grid);
  const astar = finder.findPath(14, 11, 12, 2, { algorithm: 'astar' });
  assert.equal(astar.status, 'found');
  assert.ok(astar.cost < 2.1e20, `A* ${astar.cost}`);
  assert.equal(finder.findPath(14, 11, 12, 2).cost, astar.cost);
  assert.throws(() => finder.findPath(14, 11, 12, 2, { algorithm: 'jps' }), (e: unknown) => e instanceof TilenavError && /costs .*apart/.test(e.message));
  // Costs 1 to 5000 (the random grids' extreme mode) stay on jump point search (refresh: the
  // layer's cost range only widens on writes).
  grid.fillRect(0, 0, 20, 15, { cost: 5000 });
  grid.fillRect(0, 0, 20, 5, { cost: 1 });
  grid.refresh();
  assert.equal(finder.findPath(14, 11, 12, 2, { algorithm: 'jps' }).status, 'found');
});
