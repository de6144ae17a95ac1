/**
 * One path question, one answer: every door (a kept Pathfinder, the free findPath, planPath, the
 * path service's request and findPath) checks the same options the same way, and the options
 * `nearest`, `radius`, `obstacles` and `anyAngle` answer as a reference Dijkstra on the grid they
 * describe. Also what the grid keeps for the searches (`grid.memory()`, `releaseDerived()`) and the
 * grid's own movement on hexagons.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, Pathfinder, TilenavError, checkPath, findPath, hexagonal, orthogonal, type FindPathOptions, type MovementName, type PathResult } from '../src/index.js';
import { clearanceOf, planPath } from '../src/query/index.js';
import { smoothPath } from '../src/path/index.js';
import { PathService, type ServiceResult } from '../src/service/node.js';
import { paddedSize } from '../src/grid/padded.js';
import { VARYING_COSTS, applyChange, gridArb, gridFor, onCells } from './grids.js';
import { inProcess } from './helpers-service.js';
import { refDistances } from './reference.js';

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

/** A 6 x 5 grid with a wall at x = 2, rows 1-3. */
function walled(): NavGrid {
  const g = new NavGrid(6, 5);
  g.fillRect(2, 1, 1, 3, { walkable: false });
  return g;
}

/** A copy of `grid` with the cells `keep` refuses blocked: the grid a reference search runs on. */
function restricted(grid: NavGrid, keep: (i: number) => boolean): NavGrid {
  const copy = onCells(grid, grid.projection, grid.movement);
  const walk = copy.layers[0].walkable;
  for (let i = 0; i < copy.size; i++) if (!keep(i)) walk[i] = 0;
  copy.refresh();
  return copy;
}

/** The service's answer to request `id`, once it comes out of fetchCompleted (copied: the service reuses its objects). */
async function answerOf(svc: PathService, id: number): Promise<ServiceResult> {
  for (let k = 0; k < 2000; k++) {
    const r = svc.fetchCompleted().find((a) => a.id === id);
    if (r !== undefined) return { ...r, cells: r.cells.slice() };
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`request ${id} was never answered`);
}

/** The error `fn` throws (synchronously, or as a rejected promise), or null when it returns. */
async function errorOf(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (e) {
    return e;
  }
  return null;
}

/** One misuse: a query (cell coordinates) and the element every door's TilenavError names. */
interface Misuse {
  name: string;
  at: [number, number, number, number];
  options?: Record<string, unknown>;
  /** The element named: exactly, or followed by the value at fault (`layer an object`, `movement "warp"`). */
  element: string;
}

const MISUSE: readonly Misuse[] = [
  { name: 'a non-integer coordinate', at: [0.5, 0, 5, 4], element: 'start x' },
  { name: 'a NaN coordinate', at: [0, 0, NaN, 4], element: 'goal x' },
  { name: 'layer {}', at: [0, 0, 5, 4], options: { layer: {} }, element: 'layer' },
  { name: "maxIterations 'x'", at: [0, 0, 5, 4], options: { maxIterations: 'x' }, element: 'maxIterations' },
  { name: 'weight -1', at: [0, 0, 5, 4], options: { weight: -1 }, element: 'weight' },
  { name: "nearest 'yes'", at: [0, 0, 5, 4], options: { nearest: 'yes' }, element: 'nearest' },
  { name: 'radius NaN', at: [0, 0, 5, 4], options: { radius: NaN }, element: 'radius' },
  { name: 'obstacles {}', at: [0, 0, 5, 4], options: { obstacles: {} }, element: 'obstacles' },
  { name: "algorithm 'fast'", at: [0, 0, 5, 4], options: { algorithm: 'fast' }, element: 'algorithm' },
  { name: "movement 'hex' on square cells", at: [0, 0, 5, 4], options: { movement: 'hex' }, element: 'movement' },
  { name: "movement 'warp'", at: [0, 0, 5, 4], options: { movement: 'warp' }, element: 'movement' },
  { name: "anyAngle 'yes'", at: [0, 0, 5, 4], options: { anyAngle: 'yes' }, element: 'anyAngle' },
];

function assertNames(e: unknown, element: string, label: string): void {
  assert.ok(e instanceof TilenavError, `${label}: expected a TilenavError, got ${String(e)}`);
  const named = e.element ?? '';
  assert.ok(named === element || named.startsWith(`${element} `), `${label}: names '${named}', expected '${element}'`);
}

test('misuse: the same TilenavError from every door; the service throws from request and rejects from findPath', async () => {
  const grid = walled();
  const kept = new Pathfinder(grid);
  const svc = new PathService(grid, { factory: inProcess(), workers: 1 });
  const world = (x: number, y: number) => grid.projection.cellToWorld(x, y);
  try {
    for (const row of MISUSE) {
      const [sx, sy, gx, gy] = row.at;
      const options = (row.options ?? {}) as FindPathOptions;
      const first = await errorOf(() => kept.findPath(sx, sy, gx, gy, options));
      assertNames(first, row.element, `${row.name}, Pathfinder.findPath`);
      const message = (first as Error).message;
      const free = await errorOf(() => findPath(grid, sx, sy, gx, gy, options));
      assertNames(free, row.element, `${row.name}, findPath`);
      assert.equal((free as Error).message, message, `${row.name}: the free findPath's message`);
      const request = await errorOf(() => svc.request(sx, sy, gx, gy, options));
      assertNames(request, row.element, `${row.name}, service.request`);
      const promise = svc.findPath(sx, sy, gx, gy, options);
      assert.ok(promise instanceof Promise);
      assertNames(await errorOf(() => promise), row.element, `${row.name}, service.findPath`);
      // planPath takes world points: its coordinates are any finite numbers, its options the same.
      const plan = () => planPath(grid, world(sx, sy), world(gx, gy), options);
      if (row.options !== undefined) {
        const e = await errorOf(plan);
        assertNames(e, row.element, `${row.name}, planPath`);
        assert.equal((e as Error).message, message, `${row.name}: planPath's message`);
      } else if (Number.isNaN(gx)) {
        const e = await errorOf(plan);
        assert.ok(e instanceof TilenavError && /end/.test(e.element ?? ''), `${row.name}, planPath: names the end point`);
      } else {
        assert.equal(plan().status, 'found', `${row.name}, planPath: a world point anywhere in a cell`);
      }
    }
    assert.deepEqual([svc.stats().queued, svc.stats().running, svc.stats().failed], [0, 0, 0], 'no misuse was queued');
  } finally {
    await svc.close();
  }
});

test('misuse: coordinates off the grid are invalid-start / invalid-goal with reason outside from every door; planPath snaps', async () => {
  const grid = walled();
  const kept = new Pathfinder(grid);
  const svc = new PathService(grid, { factory: inProcess(), workers: 1 });
  try {
    for (const [at, status] of [
      [[-1, 0, 5, 4], 'invalid-start'],
      [[0, 5, 5, 4], 'invalid-start'],
      [[0, 0, 6, 4], 'invalid-goal'],
      [[0, 0, 5, -3], 'invalid-goal'],
    ] as const) {
      const [sx, sy, gx, gy] = at;
      const answers: [string, PathResult | ServiceResult][] = [
        ['Pathfinder.findPath', kept.findPath(sx, sy, gx, gy)],
        ['findPath', findPath(grid, sx, sy, gx, gy)],
        ['service.request', await answerOf(svc, svc.request(sx, sy, gx, gy))],
        ['service.findPath', await svc.findPath(sx, sy, gx, gy)],
      ];
      for (const [door, r] of answers) {
        assert.deepEqual([r.status, r.reason, r.cells.length, r.cost, r.reached], [status, 'outside', 0, Infinity, -1], `${door} ${at}`);
      }
    }
    // planPath snaps a point off the grid to the nearest walkable cell within snapRadius.
    const near = planPath(grid, { x: -0.5, y: 0.5, z: 0 }, { x: 6.5, y: 4.5, z: 0 });
    assert.equal(near.status, 'found');
    assert.equal(near.cells[0], 0, 'the start snapped onto (0, 0)');
    assert.equal(near.reached, 4 * 6 + 5, 'the goal snapped onto (5, 4)');
    // Nothing walkable within snapRadius of the start: invalid-start, nothing to walk.
    const far = planPath(grid, { x: -100, y: 0.5, z: 0 }, { x: 4.5, y: 4.5, z: 0 });
    assert.deepEqual([far.status, far.cells.length, far.waypoints.length, far.reached], ['invalid-start', 0, 0, -1]);
    // A goal far off the grid: the grid's cell nearest it stands for it (nearest's rule), and the
    // last waypoint is that cell's centre, not the point off the grid.
    const toward = planPath(grid, { x: 0.5, y: 0.5, z: 0 }, { x: 100, y: 4.5, z: 0 });
    assert.equal(toward.status, 'found');
    assert.equal(toward.reached, 4 * 6 + 5);
    assert.deepEqual(toward.waypoints[toward.waypoints.length - 1], grid.projection.cellToWorld(5, 4));
  } finally {
    await svc.close();
  }
});

test('nearest: a start already as near as it gets is partial, one cell, reached = start, from every door', async () => {
  // Two rooms; the goal (4, 2) in the sealed right one; (1, 2) is the left room's cell nearest it.
  const grid = new NavGrid(6, 5);
  grid.fillRect(2, 0, 1, 5, { walkable: false });
  const start = 2 * 6 + 1;
  const svc = new PathService(grid, { factory: inProcess(), workers: 1 });
  try {
    const answers: [string, PathResult | ServiceResult][] = [
      ['Pathfinder.findPath', new Pathfinder(grid).findPath(1, 2, 4, 2, { nearest: true })],
      ['findPath', findPath(grid, 1, 2, 4, 2, { nearest: true })],
      ['findPath, astar', findPath(grid, 1, 2, 4, 2, { nearest: true, algorithm: 'astar' })],
      ['findPath, radius', findPath(grid, 1, 2, 4, 2, { nearest: true, radius: 0.4 })],
      ['service.findPath', await svc.findPath(1, 2, 4, 2, { nearest: true })],
      ['service.request', await answerOf(svc, svc.request(1, 2, 4, 2, { nearest: true }))],
      ['planPath', planPath(grid, grid.projection.cellToWorld(1, 2), grid.projection.cellToWorld(4, 2))],
    ];
    for (const [door, r] of answers) {
      assert.equal(r.status, 'partial', door);
      assert.deepEqual(Array.from(r.cells), [start], door);
      assert.equal(r.reached, start, door);
      assert.equal(r.cost, 0, door);
    }
    // Without nearest the goal is simply out of reach.
    assert.equal(findPath(grid, 1, 2, 4, 2).status, 'no-path');
  } finally {
    await svc.close();
  }
});

const NEAREST_MOVES: readonly MovementName[] = ['octile', 'cardinal', 'octile-always', 'hex-odd-r'];

test('property: nearest reaches a cell no reachable cell beats on distance to the goal, at the reference cost', () => {
  fc.assert(
    fc.property(
      // Many walls, so that goals are often out of reach; goals off the grid too.
      gridArb({ wallRate: [0.25, 0.6], costs: ['uniform', ...VARYING_COSTS] }),
      fc.constantFrom(...NEAREST_MOVES),
      fc.nat(),
      fc.integer({ min: -2, max: 15 }),
      fc.integer({ min: -2, max: 15 }),
      ({ grid: drawn }, movement, a, gx, gy) => {
        const grid = gridFor(drawn, movement);
        // The start: a walkable cell when there is one.
        const open = [...grid.layers[0].walkable.keys()].filter((i) => grid.layers[0].walkable[i] === 1);
        const s = open.length > 0 ? open[a % open.length] : a % grid.size;
        const [sx, sy] = [grid.xOf(s), grid.yOf(s)];
        const r = findPath(grid, sx, sy, gx, gy, { nearest: true });
        if (grid.layers[0].walkable[s] !== 1) {
          assert.deepEqual([r.status, r.reason], ['invalid-start', 'blocked']);
          return;
        }
        // A goal off the grid stands for the grid's cell nearest it.
        const cx = Math.min(grid.width - 1, Math.max(0, gx));
        const cy = Math.min(grid.height - 1, Math.max(0, gy));
        const goal = cy * grid.width + cx;
        const dist = refDistances(grid, 0, movement, [s]);
        const d2 = (c: number) => (grid.xOf(c) - cx) ** 2 + (grid.yOf(c) - cy) ** 2;
        let best = Infinity;
        for (let c = 0; c < grid.size; c++) if (dist[c] < Infinity) best = Math.min(best, d2(c));
        if (dist[goal] < Infinity) assert.equal(r.status, 'found');
        else assert.equal(r.status, 'partial');
        assert.ok(r.reached >= 0 && dist[r.reached] < Infinity, 'reached a reachable cell');
        assert.equal(d2(r.reached), best, `no reachable cell is nearer (${cx}, ${cy})`);
        // Ties go to the start, then to the cheaper path, then to the lower index.
        let want = -1;
        for (let c = 0; c < grid.size; c++) {
          if (dist[c] === Infinity || d2(c) !== best) continue;
          if (want < 0 || dist[c] < dist[want] - 1e-9 * Math.max(1, dist[want])) want = c;
        }
        assert.equal(r.reached, d2(s) === best ? s : want, 'the tie rule');
        assert.ok(close(r.cost, dist[r.reached]), `cost ${r.cost} vs reference ${dist[r.reached]}`);
        assert.equal(r.cells[0], s);
        assert.equal(r.cells[r.cells.length - 1], r.reached);
        const check = checkPath(grid, r.cells, { movement });
        assert.ok(check.valid, check.problem);
        assert.ok(close(check.cost, r.cost));
      },
    ),
    { numRuns: 300 },
  );
});

test('property: a radius searches the cells the unit fits in, as the reference does, also after tile changes', () => {
  const query = fc.tuple(fc.nat(), fc.nat());
  fc.assert(
    fc.property(
      gridArb({ width: [2, 16], height: [2, 16], costs: ['uniform', 'mixed'] }),
      fc.constantFrom(1, 0.5),
      fc.double({ min: 0.05, max: 2.5, noNaN: true }),
      fc.array(query, { minLength: 1, maxLength: 3 }),
      fc.array(fc.tuple(fc.nat(), fc.nat(4), fc.nat(3)), { maxLength: 4 }),
      ({ grid: drawn }, tile, radius, queries, changes) => {
        // Tiles of `tile` world units: the radius is in world units, clearance in cells.
        const grid = onCells(drawn, orthogonal(tile, tile));
        const kept = new Pathfinder(grid);
        const check = () => {
          const values = clearanceOf(grid, 0, radius).values;
          const walk = grid.layers[0].walkable;
          const fits = (i: number) => walk[i] === 1 && values[i] >= radius / tile - 1e-6;
          const narrow = restricted(grid, fits);
          for (const [a, b] of queries) {
            const s = a % grid.size;
            const t = b % grid.size;
            const args = [grid.xOf(s), grid.yOf(s), grid.xOf(t), grid.yOf(t)] as const;
            const r = findPath(grid, ...args, { radius });
            const label = `radius ${radius} on tiles of ${tile}: ${s} -> ${t}`;
            assert.deepEqual([kept.findPath(...args, { radius }).status, kept.findPath(...args, { radius }).cost], [r.status, r.cost], `${label}: a kept Pathfinder agrees`);
            if (!fits(s)) {
              assert.deepEqual([r.status, r.reason], ['invalid-start', walk[s] === 1 ? 'unit-does-not-fit' : 'blocked'], label);
              continue;
            }
            if (!fits(t)) {
              assert.deepEqual([r.status, r.reason], ['invalid-goal', walk[t] === 1 ? 'unit-does-not-fit' : 'blocked'], label);
              continue;
            }
            const want = refDistances(narrow, 0, 'octile', [s])[t];
            assert.equal(r.status, want < Infinity ? 'found' : 'no-path', label);
            assert.equal(r.reason, null);
            if (want < Infinity) {
              assert.ok(close(r.cost, want), `${label}: cost ${r.cost} vs reference ${want}`);
              for (const c of r.cells) assert.ok(fits(c), `${label}: cell ${c} is too narrow`);
            }
          }
        };
        check();
        for (const [at, kind, size] of changes) {
          applyChange(grid, at, kind, size);
          check();
        }
      },
    ),
    { numRuns: 150 },
  );
});

test('property: obstacles are gone round when the reference finds a way round, and walked through at the plain cost otherwise', () => {
  // Obstacles stand on cells of the plain path (where they matter), anywhere within the cell.
  const obstacle = fc.record({ at: fc.nat(), dx: fc.double({ min: 0, max: 0.99, noNaN: true }), dy: fc.double({ min: 0, max: 0.99, noNaN: true }), radius: fc.double({ min: 0, max: 2.5, noNaN: true }) });
  const options = fc.option(fc.record({ radiusFraction: fc.double({ min: 0, max: 1, noNaN: true }), influence: fc.double({ min: 0, max: 8, noNaN: true }) }), { nil: undefined });
  fc.assert(
    fc.property(gridArb({ costs: ['uniform', ...VARYING_COSTS] }), fc.array(obstacle, { minLength: 1, maxLength: 4 }), options, fc.nat(), fc.nat(), ({ grid }, picks, obstacleOptions, a, b) => {
      const s = a % grid.size;
      const t = b % grid.size;
      const [sx, sy, gx, gy] = [grid.xOf(s), grid.yOf(s), grid.xOf(t), grid.yOf(t)];
      const on = findPath(grid, sx, sy, gx, gy).cells;
      const obstacles = picks.map((p) => {
        const c = on.length > 0 ? on[p.at % on.length] : p.at % grid.size;
        return { x: grid.xOf(c) + p.dx, y: grid.yOf(c) + p.dy, radius: p.radius };
      });
      const r = findPath(grid, sx, sy, gx, gy, { obstacles, obstacleOptions });
      const walk = grid.layers[0].walkable;
      if (walk[s] !== 1 || walk[t] !== 1) {
        assert.equal(r.status, walk[s] !== 1 ? 'invalid-start' : 'invalid-goal');
        return;
      }
      // The stamped cells, from the obstacles' definition (orthogonal(1, 1): cell (x, y)'s centre
      // is (x + 0.5, y + 0.5)): obstacles within `influence` of the start-goal segment stamp the
      // cell holding their centre and every cell whose centre lies within radius x radiusFraction;
      // never the start.
      const fraction = obstacleOptions?.radiusFraction ?? 0.6;
      const influence = obstacleOptions?.influence ?? 6;
      const stamped = new Set<number>();
      for (const o of obstacles) {
        if (segmentDistance(o.x, o.y, sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5) > influence) continue;
        stamped.add(Math.floor(o.y) * grid.width + Math.floor(o.x));
        for (let i = 0; i < grid.size; i++) if (Math.hypot(grid.xOf(i) + 0.5 - o.x, grid.yOf(i) + 0.5 - o.y) <= o.radius * fraction) stamped.add(i);
      }
      stamped.delete(s);
      const plain = refDistances(grid, 0, 'octile', [s])[t];
      const around = refDistances(restricted(grid, (i) => !stamped.has(i)), 0, 'octile', [s])[t];
      if (plain === Infinity) {
        assert.deepEqual([r.status, r.cells.length], ['no-path', 0]);
        return;
      }
      assert.equal(r.status, 'found');
      if (around < Infinity) {
        assert.equal(r.avoided, true, 'a way round exists');
        assert.ok(close(r.cost, around), `round the obstacles: cost ${r.cost} vs reference ${around}`);
        for (const c of r.cells) assert.ok(!stamped.has(c), `the path touches stamped cell ${c}`);
      } else {
        assert.equal(r.avoided, false, 'no way round');
        assert.ok(close(r.cost, plain), `through the obstacles: cost ${r.cost} vs reference ${plain}`);
      }
      assert.ok(checkPath(grid, r.cells).valid);
    }),
    { numRuns: 300 },
  );
});

/** Euclidean distance from point (px, py) to the segment (ax, ay)-(bx, by). */
function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.min(1, Math.max(0, ((px - ax) * dx + (py - ay) * dy) / len2));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

test('grid.memory lists what the searches derived, at the bytes they hold; releaseDerived frees it and the answers stay', () => {
  // 20 x 15: 374 padded cells, fewer than the open list's first allocation (1024), so the open
  // list holds one entry per padded cell from the start.
  const grid = new NavGrid(20, 15);
  grid.fillRect(8, 0, 1, 11, { walkable: false });
  grid.fillRect(12, 4, 5, 6, { cost: 3 });
  const cells = grid.size;
  const padded = paddedSize(20, 15);
  const queries: [string, () => PathResult][] = [
    ['plain', () => findPath(grid, 0, 0, 19, 14)],
    ['radius', () => findPath(grid, 1, 1, 18, 13, { radius: 0.8 })],
    ['weighted auto', () => findPath(grid, 0, 14, 19, 0, { algorithm: 'auto' })],
    ['nearest', () => findPath(grid, 0, 0, 8, 5, { nearest: true })],
    ['obstacles', () => findPath(grid, 0, 0, 19, 14, { obstacles: [{ x: 9.5, y: 12.5, radius: 1 }] })],
    ['anyAngle', () => findPath(grid, 0, 0, 19, 14, { anyAngle: true })],
  ];
  const answer = (r: PathResult) => [r.status, r.cost, Array.from(r.cells), r.avoided, r.points === null ? null : Array.from(r.points)];
  const before = queries.map(([, q]) => answer(q()));
  new Pathfinder(grid).prepare({ landmarks: 8 });
  const m = grid.memory();
  const entry = (name: string) => m.entries.filter((e) => e.name === name);
  assert.deepEqual(entry('layers'), [{ name: 'layers', layer: null, bytes: 7 * cells }]);
  assert.deepEqual(entry('search view'), [{ name: 'search view', layer: 0, bytes: 4 * padded }]);
  // g (8), parent (4), stamp (4), the open list's slot (8 key + 8 g + 4 node) and position (4).
  assert.deepEqual(entry('search scratch'), [{ name: 'search scratch', layer: null, bytes: (8 + 4 + 4 + 20 + 4) * padded }]);
  // The values (4 per cell), the column scratch of the first full count (4 per cell) and the one radius's padded view.
  assert.deepEqual(entry('clearance'), [{ name: 'clearance', layer: 0, bytes: 4 * cells + 4 * cells + 4 * padded }]);
  // Eight landmarks: 4 bytes per padded cell each, and their cells.
  assert.deepEqual(entry('landmark tables'), [{ name: 'landmark tables', layer: 0, bytes: 4 * padded * 8 + 4 * 8 }]);
  const labels = m.entries.filter((e) => e.name.startsWith('component labels'));
  assert.equal(labels.length, 1, 'one connectivity asked for');
  assert.equal(labels[0].layer, 0);
  // A label per padded cell, and the union-find over at most two ids per walkable cell.
  assert.ok(labels[0].bytes >= 4 * padded + 4 * 256 && labels[0].bytes <= 4 * padded + 4 * (2 * cells + 256), `labels ${labels[0].bytes}`);
  assert.equal(m.total, m.entries.reduce((sum, e) => sum + e.bytes, 0));

  grid.releaseDerived();
  const freed = grid.memory();
  assert.deepEqual(freed.entries.map((e) => e.name).sort(), ['layers', 'search view'], 'only the layers and their views stay');
  assert.equal(freed.total, 7 * cells + 4 * padded);
  assert.deepEqual(queries.map(([, q]) => answer(q())), before, 'the same answers, from data built again');
  // The clearance and the labels built again follow the grid's changes.
  assert.equal(findPath(grid, 1, 1, 3, 12, { radius: 0.8 }).status, 'found');
  grid.fillRect(0, 9, 20, 1, { walkable: false });
  assert.equal(findPath(grid, 1, 1, 3, 12, { radius: 0.8 }).status, 'no-path');
  const split = findPath(grid, 1, 1, 3, 12);
  assert.deepEqual([split.status, split.expanded], ['no-path', 0], 'the labels answer');
});

test('a hexagonal grid moves as its hexagons: findPath needs no movement; anyAngle, smoothing and square moves are refused', () => {
  const grid = new NavGrid(9, 7, { projection: hexagonal(1, { layout: 'odd-r' }) });
  grid.fillRect(4, 0, 1, 5, { walkable: false });
  assert.equal(grid.movement, 'hex-odd-r');
  const own = findPath(grid, 0, 0, 8, 0);
  const told = findPath(grid, 0, 0, 8, 0, { movement: 'hex-odd-r' });
  assert.equal(own.status, 'found');
  assert.deepEqual([own.cost, Array.from(own.cells)], [told.cost, Array.from(told.cells)]);
  assert.ok(close(own.cost, refDistances(grid, 0, 'hex-odd-r', [0])[8]), 'the hex reference cost');
  assert.ok(checkPath(grid, own.cells, { movement: 'hex-odd-r' }).valid);
  const names = (fn: () => unknown, element: string) => assert.throws(fn, (e: unknown) => e instanceof TilenavError && e.element === element, element);
  names(() => findPath(grid, 0, 0, 8, 0, { anyAngle: true }), 'anyAngle');
  names(() => new Pathfinder(grid).findPath(0, 0, 8, 0, { anyAngle: true, nearest: true }), 'anyAngle');
  names(() => findPath(grid, 0, 0, 8, 0, { movement: 'octile' }), 'movement');
  names(() => findPath(grid, 0, 0, 8, 0, { movement: 'hex-even-r' }), 'movement');
  names(() => new NavGrid(4, 4, { projection: hexagonal(1, { layout: 'odd-r' }), movement: 'cardinal' }), 'movement');
  assert.throws(() => smoothPath(grid, own.cells, { movement: grid.movement }), /no straight segments/);
  assert.throws(() => smoothPath(grid, own.cells), /no straight segments/, 'without a movement: the grid\'s own');
  // planPath keeps the cell centres.
  const p = planPath(grid, grid.projection.cellToWorld(0, 0), grid.projection.cellToWorld(8, 0));
  assert.equal(p.status, 'found');
  assert.equal(p.points.length, 2 * p.cells.length);
});

test('the free findPath keeps one scratch per grid: no per-map allocation after the first call of each kind', () => {
  const grid = new NavGrid(128, 128);
  grid.fillRect(60, 0, 1, 100, { walkable: false });
  grid.fillRect(80, 20, 20, 20, { cost: 2 });
  const kinds: ((k: number) => PathResult)[] = [
    (k) => findPath(grid, k, 0, 127 - k, 127),
    (k) => findPath(grid, k, 3, 127 - k, 120, { algorithm: 'astar' }),
    (k) => findPath(grid, k, 5, 60, 50, { nearest: true }),
    (k) => findPath(grid, 2 + k, 2, 120, 120, { radius: 1.2 }),
    (k) => findPath(grid, k, 0, 127, 127 - k, { obstacles: [{ x: 70.5, y: 110.5, radius: 2 }] }),
    (k) => findPath(grid, k, 0, 127, 100, { anyAngle: true }),
  ];
  for (const q of kinds) assert.notEqual(q(0).status, 'invalid-start');
  const total = grid.memory().total;
  const scratch = grid.memory().entries.find((e) => e.name === 'search scratch')!.bytes;
  const buffers = process.memoryUsage().arrayBuffers;
  for (let k = 0; k < 100; k++) kinds[k % kinds.length](k % 40);
  assert.equal(grid.memory().total, total, 'grid.memory() unchanged across 100 calls');
  // Measured apart from memory(): 100 calls allocate their paths, far less than one scratch.
  const grew = process.memoryUsage().arrayBuffers - buffers;
  assert.ok(grew < scratch, `array buffers grew ${grew} bytes over 100 calls; one scratch is ${scratch}`);
});

test('a hexagonal Tiled map moves as its hexagons without being told: searches, agents, smoothing and any-angle refused', async () => {
  const { parseTiled } = await import('../src/loaders/index.js');
  const { readFixture } = await import('./fixtures.js');
  const { NavigationSystem } = await import('../src/agents/index.js');
  const map = parseTiled(readFixture('tiled/tiled-examples/hexagonal-mini.tmx'), { file: 'hexagonal-mini.tmx' });
  const grid = map.grid;
  assert.equal(grid.movement, 'hex-odd-r', 'the map\'s own hex layout');
  assert.equal(grid.movement, map.movement);
  const walk = grid.layers[0].walkable;
  const cells = [...walk.keys()].filter((i) => walk[i] === 1);
  const [a, b] = [cells[0], cells[cells.length - 1]];
  const own = findPath(grid, grid.xOf(a), grid.yOf(a), grid.xOf(b), grid.yOf(b));
  const told = findPath(grid, grid.xOf(a), grid.yOf(a), grid.xOf(b), grid.yOf(b), { movement: 'hex-odd-r' });
  assert.deepEqual([own.status, own.cost, Array.from(own.cells)], [told.status, told.cost, Array.from(told.cells)]);
  assert.ok(checkPath(grid, own.cells).valid, 'checkPath reads the grid\'s movement too');
  assert.throws(() => smoothPath(grid, own.cells), /no straight segments/);
  assert.throws(() => findPath(grid, grid.xOf(a), grid.yOf(a), grid.xOf(b), grid.yOf(b), { anyAngle: true }), (e: unknown) => e instanceof TilenavError && e.element === 'anyAngle');
  const units = new NavigationSystem(grid);
  assert.equal(units.movement, 'hex-odd-r', 'the agents move as the grid does');
  const id = units.addAgent({ x: grid.xOf(a), y: grid.yOf(a) });
  units.moveTo(id, grid.xOf(b), grid.yOf(b));
  for (let k = 0; k < 60 * 60 && units.isMoving(id); k++) units.update(1 / 60);
  assert.equal(units.isMoving(id), false, 'the unit arrived');
});
