/**
 * tilenav/compat/easystar against EasyStar.js 0.4 itself: each test below, written from
 * EasyStar.js's README and its API comments, runs once on the real package and once on the compat
 * entry with the same code. Then fast-check compares both with a small Dijkstra written here from
 * EasyStar.js's documented rules (a step enters a cell whose tile is acceptable, not avoided, and
 * whose directional condition allows the side it comes from; costs multiply step length): the
 * compat entry finds exactly the cheapest cost with diagonals of sqrt 2, EasyStar.js (whose
 * diagonals cost 1.4) the same without diagonals and never less with them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import * as compat from '../src/compat/easystar.js';
import EasyStarDefault from '../src/compat/easystar.js';
import { TilenavError } from '../src/index.js';
import { mulberry32 } from '../src/query/index.js';

// The real package is driven through the compat entry's types.
const real = createRequire(import.meta.url)('easystarjs') as typeof compat;
const LIBS: [string, typeof compat][] = [
  ['EasyStar.js', real],
  ['tilenav/compat/easystar', compat],
];

type Point = { x: number; y: number };
type Lib = typeof compat;

/** A sync-mode finder on `rows` with the walkable tiles `acceptable`. */
function finder(ES: Lib, rows: number[][], acceptable: number[] = [0]): compat.js {
  const es = new ES.js();
  es.setGrid(rows);
  es.setAcceptableTiles(acceptable);
  es.enableSync();
  return es;
}

/** One search in sync mode: its answer, after checking the callback ran exactly once. */
function solve(es: compat.js, sx: number, sy: number, ex: number, ey: number): Point[] | null {
  let answer: Point[] | null | undefined;
  let calls = 0;
  es.findPath(sx, sy, ex, ey, (p) => {
    answer = p;
    calls++;
  });
  es.calculate();
  assert.equal(calls, 1, 'the callback ran once');
  return answer!;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const has = (path: Point[] | null, x: number, y: number) => path !== null && path.some((p) => p.x === x && p.y === y);

// ---- EasyStar.js's rules, written out for the checks ----------------------------------------------

const NAMES: Record<string, compat.Direction> = { '0,-1': 'TOP', '1,-1': 'TOP_RIGHT', '1,0': 'RIGHT', '1,1': 'BOTTOM_RIGHT', '0,1': 'BOTTOM', '-1,1': 'BOTTOM_LEFT', '-1,0': 'LEFT', '-1,-1': 'TOP_LEFT' };

interface World {
  rows: number[][];
  acceptable: number[];
  tileCost: Map<number, number>;
  pointCost: Map<string, number>;
  avoid: Set<string>;
  conditions: Map<string, compat.Direction[]>;
  diagonals: boolean;
  cutting: boolean;
}

/** Whether a step from (fx, fy) may enter (x, y); beside a diagonal (`side`), avoided points count as free. */
function enters(w: World, x: number, y: number, fx: number, fy: number, side: boolean): boolean {
  if (y < 0 || y >= w.rows.length || x < 0 || x >= w.rows[0].length) return false;
  if (!w.acceptable.includes(w.rows[y][x])) return false;
  if (!side && w.avoid.has(`${x},${y}`)) return false;
  const c = w.conditions.get(`${x},${y}`);
  return c === undefined || c.includes(NAMES[`${fx - x},${fy - y}`]);
}

/** The cost of the step (x0, y0) -> (x1, y1) with diagonals costing `diagonal`, or NaN when the rules forbid it. */
function stepCost(w: World, x0: number, y0: number, x1: number, y1: number, diagonal: number): number {
  const dx = x1 - x0;
  const dy = y1 - y0;
  if (Math.abs(dx) > 1 || Math.abs(dy) > 1 || (dx === 0 && dy === 0)) return NaN;
  const diag = dx !== 0 && dy !== 0;
  if (diag && !w.diagonals) return NaN;
  if (!enters(w, x1, y1, x0, y0, false)) return NaN;
  if (diag && !w.cutting && !(enters(w, x0, y1, x0, y0, true) && enters(w, x1, y0, x0, y0, true))) return NaN;
  const cost = w.pointCost.get(`${x1},${y1}`) ?? w.tileCost.get(w.rows[y1][x1]) ?? 1;
  return (diag ? diagonal : 1) * cost;
}

/** What a path costs under the rules (NaN when a step breaks them); it must run from s to e. */
function costOf(w: World, path: Point[], s: Point, e: Point, diagonal = Math.SQRT2): number {
  if (path.length === 0) return s.x === e.x && s.y === e.y ? 0 : NaN;
  if (path[0].x !== s.x || path[0].y !== s.y || path[path.length - 1].x !== e.x || path[path.length - 1].y !== e.y) return NaN;
  let sum = 0;
  for (let k = 1; k < path.length; k++) sum += stepCost(w, path[k - 1].x, path[k - 1].y, path[k].x, path[k].y, diagonal);
  return sum;
}

/** The cheapest cost from s to e under the rules (diagonals sqrt 2), by a plain Dijkstra; Infinity without a path. */
function cheapest(w: World, s: Point, e: Point): number {
  const width = w.rows[0].length;
  const n = width * w.rows.length;
  const dist = new Float64Array(n).fill(Infinity);
  const done = new Uint8Array(n);
  dist[s.y * width + s.x] = 0;
  for (;;) {
    let u = -1;
    for (let i = 0; i < n; i++) if (!done[i] && dist[i] < Infinity && (u < 0 || dist[i] < dist[u])) u = i;
    if (u < 0) return Infinity;
    const ux = u % width;
    const uy = (u - ux) / width;
    if (ux === e.x && uy === e.y) return dist[u];
    done[u] = 1;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const c = stepCost(w, ux, uy, ux + dx, uy + dy, Math.SQRT2);
        if (Number.isNaN(c)) continue;
        const v = (uy + dy) * width + ux + dx;
        if (dist[u] + c < dist[v]) dist[v] = dist[u] + c;
      }
    }
  }
}

/** A world with default settings around `rows`. */
const world = (rows: number[][], acceptable = [0]): World => ({ rows, acceptable, tileCost: new Map(), pointCost: new Map(), avoid: new Set(), conditions: new Map(), diagonals: false, cutting: true });

/** Rows of tile numbers from strings of digits. */
const rowsOf = (rows: string[]): number[][] => rows.map((r) => [...r].map(Number));

for (const [name, ES] of LIBS) {
  test(`${name}: the README's example: a path round the wall from (0, 0) to (4, 0), start first, end last`, () => {
    const rows = rowsOf(['00100', '00100', '00100', '00100', '00000']);
    const path = solve(finder(ES, rows), 0, 0, 4, 0)!;
    assert.deepEqual(path[0], { x: 0, y: 0 });
    assert.deepEqual(path[path.length - 1], { x: 4, y: 0 });
    // Down 4, across 4, up 4.
    assert.equal(costOf(world(rows), path, { x: 0, y: 0 }, { x: 4, y: 0 }), 12);
    assert.equal(path.length, 13);
  });

  test(`${name}: without sync the callback runs after calculate(), from a timer; findPath returns a non-zero id`, async () => {
    const es = new ES.js();
    es.setGrid(rowsOf(['000', '000']));
    es.setAcceptableTiles([0]);
    let answer: Point[] | null | undefined;
    const id = es.findPath(0, 0, 2, 1, (p) => (answer = p));
    assert.equal(typeof id, 'number');
    assert.notEqual(id, 0);
    es.calculate();
    assert.equal(answer, undefined, 'not yet');
    await tick();
    assert.equal(costOf(world(rowsOf(['000', '000'])), answer!, { x: 0, y: 0 }, { x: 2, y: 1 }), 3);
  });

  test(`${name}: null without a path; null at once for an end tile that is not acceptable; [] from a cell to itself`, () => {
    const es = finder(ES, rowsOf(['010', '010']));
    assert.equal(solve(es, 0, 0, 2, 0), null);
    let early: Point[] | null | undefined;
    es.findPath(0, 0, 1, 0, (p) => (early = p));
    assert.equal(early, null, 'answered inside findPath with sync on');
    let same: Point[] | null | undefined;
    es.findPath(2, 1, 2, 1, (p) => (same = p));
    assert.deepEqual(same, []);
  });

  test(`${name}: findPath throws before setAcceptableTiles, before setGrid, and for a point outside the grid`, () => {
    const noTiles = new ES.js();
    noTiles.setGrid([[0]]);
    assert.throws(() => noTiles.findPath(0, 0, 0, 0, () => {}), Error);
    const noGrid = new ES.js();
    noGrid.setAcceptableTiles([0]);
    assert.throws(() => noGrid.findPath(0, 0, 0, 0, () => {}), Error);
    const es = finder(ES, rowsOf(['00', '00']));
    assert.throws(() => es.findPath(0, 0, 2, 0, () => {}), Error);
    assert.throws(() => es.findPath(0, -1, 1, 1, () => {}), Error);
  });

  test(`${name}: setAcceptableTiles takes one number as well as an array`, () => {
    const rows = rowsOf(['121', '111']);
    const es = finder(ES, rows, [1]);
    es.setAcceptableTiles(1);
    const path = solve(es, 0, 0, 2, 0)!;
    assert.equal(costOf(world(rows, [1]), path, { x: 0, y: 0 }, { x: 2, y: 0 }), 4);
  });

  test(`${name}: avoidAdditionalPoint keeps paths off a point; stopAvoidingAdditionalPoint and stopAvoidingAllAdditionalPoints let them back`, () => {
    const rows = rowsOf(['00000', '00000', '00000']);
    const es = finder(ES, rows);
    assert.equal(solve(es, 0, 1, 4, 1)!.length, 5);
    es.avoidAdditionalPoint(2, 1);
    const round = solve(es, 0, 1, 4, 1)!;
    assert.ok(!has(round, 2, 1));
    assert.equal(round.length, 7);
    es.stopAvoidingAdditionalPoint(2, 1);
    assert.equal(solve(es, 0, 1, 4, 1)!.length, 5);
    es.avoidAdditionalPoint(2, 0);
    es.avoidAdditionalPoint(2, 1);
    es.avoidAdditionalPoint(2, 2);
    assert.equal(solve(es, 0, 1, 4, 1), null);
    es.stopAvoidingAllAdditionalPoints();
    assert.equal(solve(es, 0, 1, 4, 1)!.length, 5);
  });

  test(`${name}: setTileCost sends paths round dear tiles when that is cheaper; setAdditionalPointCost overrides a tile's cost`, () => {
    const rows = rowsOf(['00200', '00200', '00000']);
    const w = world(rows, [0, 2]);
    const es = finder(ES, rows, [0, 2]);
    assert.equal(costOf(w, solve(es, 0, 0, 4, 0)!, { x: 0, y: 0 }, { x: 4, y: 0 }), 4);
    es.setTileCost(2, 10);
    w.tileCost.set(2, 10);
    const round = solve(es, 0, 0, 4, 0)!;
    // Straight across costs 1 + 10 + 1 + 1; round the band by the bottom row, 8 steps of 1.
    assert.equal(costOf(w, round, { x: 0, y: 0 }, { x: 4, y: 0 }), 8);
    assert.ok(!has(round, 2, 0) && !has(round, 2, 1));
    es.setAdditionalPointCost(2, 0, 1);
    w.pointCost.set('2,0', 1);
    assert.equal(costOf(w, solve(es, 0, 0, 4, 0)!, { x: 0, y: 0 }, { x: 4, y: 0 }), 4);
    es.removeAdditionalPointCost(2, 0);
    w.pointCost.delete('2,0');
    assert.equal(costOf(w, solve(es, 0, 0, 4, 0)!, { x: 0, y: 0 }, { x: 4, y: 0 }), 8);
    es.setAdditionalPointCost(2, 0, 1);
    es.setAdditionalPointCost(2, 2, 5);
    es.removeAllAdditionalPointCosts();
    assert.equal(costOf(w, solve(es, 0, 0, 4, 0)!, { x: 0, y: 0 }, { x: 4, y: 0 }), 8);
  });

  test(`${name}: setDirectionalCondition lets a cell be entered only from the listed sides; [] closes it; removeAllDirectionalConditions lifts them`, () => {
    const rows = rowsOf(['000', '000', '000']);
    const es = finder(ES, rows);
    assert.equal(solve(es, 0, 1, 2, 1)!.length, 3);
    es.setDirectionalCondition(1, 1, [ES.TOP]);
    const path = solve(es, 0, 1, 2, 1)!;
    assert.equal(path.length, 5);
    for (let k = 1; k < path.length; k++) if (path[k].x === 1 && path[k].y === 1) assert.deepEqual(path[k - 1], { x: 1, y: 0 }, 'entered from the top');
    es.setDirectionalCondition(1, 1, []);
    assert.ok(!has(solve(es, 0, 1, 2, 1), 1, 1));
    // The end too: (2, 1) only from below.
    es.setDirectionalCondition(2, 1, [ES.BOTTOM]);
    const up = solve(es, 0, 1, 2, 1)!;
    assert.deepEqual(up[up.length - 2], { x: 2, y: 2 });
    es.removeAllDirectionalConditions();
    assert.equal(solve(es, 0, 1, 2, 1)!.length, 3);
  });

  test(`${name}: enableDiagonals steps diagonally; corner cutting (on by default) passes blocked sides, disableCornerCutting does not`, () => {
    const open = finder(ES, rowsOf(['000', '000', '000']));
    assert.equal(solve(open, 0, 0, 2, 2)!.length, 5);
    open.enableDiagonals();
    assert.deepEqual(solve(open, 0, 0, 2, 2), [{ x: 0, y: 0 }, { x: 1, y: 1 }, { x: 2, y: 2 }]);
    open.disableDiagonals();
    assert.equal(solve(open, 0, 0, 2, 2)!.length, 5);
    const one = finder(ES, rowsOf(['00', '10']));
    one.enableDiagonals();
    assert.equal(solve(one, 0, 0, 1, 1)!.length, 2);
    one.disableCornerCutting();
    assert.equal(solve(one, 0, 0, 1, 1)!.length, 3);
    const two = finder(ES, rowsOf(['01', '10']));
    two.enableDiagonals();
    assert.equal(solve(two, 0, 0, 1, 1)!.length, 2);
    two.disableCornerCutting();
    assert.equal(solve(two, 0, 0, 1, 1), null);
    two.enableCornerCutting();
    assert.equal(solve(two, 0, 0, 1, 1)!.length, 2);
  });

  test(`${name}: with corner cutting off, an avoided point still counts as free beside a diagonal, a cell whose condition refuses the step's start does not`, () => {
    const es = finder(ES, rowsOf(['00', '00']));
    es.enableDiagonals();
    es.disableCornerCutting();
    es.avoidAdditionalPoint(1, 0);
    assert.deepEqual(solve(es, 0, 0, 1, 1), [{ x: 0, y: 0 }, { x: 1, y: 1 }]);
    es.stopAvoidingAllAdditionalPoints();
    // Seen from (1, 0), the step's start (0, 0) lies to the LEFT: only BOTTOM is allowed.
    es.setDirectionalCondition(1, 0, [ES.BOTTOM]);
    assert.deepEqual(solve(es, 0, 0, 1, 1), [{ x: 0, y: 0 }, { x: 0, y: 1 }, { x: 1, y: 1 }]);
    es.setDirectionalCondition(1, 0, [ES.LEFT]);
    assert.deepEqual(solve(es, 0, 0, 1, 1), [{ x: 0, y: 0 }, { x: 1, y: 1 }]);
  });

  test(`${name}: cancelPath drops a queued search (true, its callback never runs), false for an id it does not hold`, async () => {
    const es = new ES.js();
    es.setGrid(rowsOf(['000', '000']));
    es.setAcceptableTiles([0]);
    let calls = 0;
    const id = es.findPath(0, 0, 2, 1, () => calls++)!;
    const kept = es.findPath(0, 0, 2, 0, () => calls++)!;
    assert.equal(es.cancelPath(id), true);
    assert.equal(es.cancelPath(id), false);
    assert.equal(es.cancelPath(kept + 1000), false);
    es.calculate();
    await tick();
    assert.equal(calls, 1, 'only the search left in the queue answered');
  });

  test(`${name}: with few iterations per calculation, calling calculate() again and again answers every path`, async () => {
    const rows = Array.from({ length: 20 }, () => new Array(20).fill(0));
    const es = new ES.js();
    es.setGrid(rows);
    es.setAcceptableTiles([0]);
    es.setIterationsPerCalculation(3);
    const answers: (Point[] | null)[] = [];
    es.findPath(0, 0, 19, 19, (p) => answers.push(p));
    es.findPath(19, 0, 0, 19, (p) => answers.push(p));
    for (let k = 0; k < 2000; k++) es.calculate();
    await tick();
    assert.equal(answers.length, 2);
    for (const a of answers) assert.equal(a!.length, 39);
  });

  test(`${name}: changes to the grid's rows after setGrid are seen by the next search`, () => {
    const rows = rowsOf(['000', '000']);
    const es = finder(ES, rows);
    assert.equal(solve(es, 0, 0, 2, 0)!.length, 3);
    rows[0][1] = 1;
    const path = solve(es, 0, 0, 2, 0)!;
    assert.ok(!has(path, 1, 0));
    assert.equal(path.length, 5);
    rows[1][1] = 1;
    assert.equal(solve(es, 0, 0, 2, 0), null);
  });

  test(`${name}: a search leaves a start whose tile is not acceptable (a unit on its own cell)`, () => {
    const es = finder(ES, rowsOf(['100', '000']));
    assert.equal(solve(es, 0, 0, 2, 0)!.length, 3);
  });

  test(`${name}: queued searches are answered in the order they were asked`, () => {
    const es = finder(ES, rowsOf(['0000', '0000']));
    const order: number[] = [];
    es.findPath(0, 0, 3, 1, () => order.push(1));
    es.findPath(3, 1, 0, 0, () => order.push(2));
    es.findPath(1, 0, 2, 1, () => order.push(3));
    es.calculate();
    assert.deepEqual(order, [1, 2, 3]);
    assert.deepEqual([ES.TOP, ES.TOP_RIGHT, ES.RIGHT, ES.BOTTOM_RIGHT, ES.BOTTOM, ES.BOTTOM_LEFT, ES.LEFT, ES.TOP_LEFT], ['TOP', 'TOP_RIGHT', 'RIGHT', 'BOTTOM_RIGHT', 'BOTTOM', 'BOTTOM_LEFT', 'LEFT', 'TOP_LEFT']);
  });
}

// ---- random grids --------------------------------------------------------------------------------

const DIRS = Object.values(NAMES);

/** A random world: tiles 0 (walkable), 1 (wall), 2 (walkable, cost 3), a few avoided points and conditions. */
const arbWorld = fc
  .record({
    w: fc.integer({ min: 2, max: 11 }),
    h: fc.integer({ min: 2, max: 9 }),
    seed: fc.integer(),
    diagonals: fc.boolean(),
    cutting: fc.boolean(),
    avoidRate: fc.constantFrom(0, 0.05, 0.2),
    conditionRate: fc.constantFrom(0, 0, 0.08),
  })
  .chain((g) => fc.record({ g: fc.constant(g), s: fc.record({ x: fc.nat(g.w - 1), y: fc.nat(g.h - 1) }), e: fc.record({ x: fc.nat(g.w - 1), y: fc.nat(g.h - 1) }) }));

function build(g: { w: number; h: number; seed: number; diagonals: boolean; cutting: boolean; avoidRate: number; conditionRate: number }): World {
  const rnd = mulberry32(g.seed);
  const rows = Array.from({ length: g.h }, () => Array.from({ length: g.w }, () => (rnd() < 0.25 ? 1 : rnd() < 0.2 ? 2 : 0)));
  const w = world(rows, [0, 2]);
  w.tileCost.set(2, 3);
  w.diagonals = g.diagonals;
  w.cutting = g.cutting;
  for (let y = 0; y < g.h; y++) {
    for (let x = 0; x < g.w; x++) {
      if (rnd() < g.avoidRate) w.avoid.add(`${x},${y}`);
      if (rnd() < g.conditionRate) w.conditions.set(`${x},${y}`, DIRS.filter(() => rnd() < 0.5));
    }
  }
  return w;
}

/** A sync finder set up as `w` says. */
function finderFor(ES: Lib, w: World): compat.js {
  const es = finder(ES, w.rows, w.acceptable);
  for (const [tile, cost] of w.tileCost) es.setTileCost(tile, cost);
  for (const [k, cost] of w.pointCost) es.setAdditionalPointCost(Number(k.split(',')[0]), Number(k.split(',')[1]), cost);
  for (const k of w.avoid) es.avoidAdditionalPoint(Number(k.split(',')[0]), Number(k.split(',')[1]));
  for (const [k, dirs] of w.conditions) es.setDirectionalCondition(Number(k.split(',')[0]), Number(k.split(',')[1]), dirs);
  if (w.diagonals) es.enableDiagonals();
  if (!w.cutting) es.disableCornerCutting();
  return es;
}

test('random grids: the compat entry finds the cheapest cost (diagonals sqrt 2); EasyStar.js finds a path exactly then, of the same cost without diagonals, never cheaper with them (fast-check)', () => {
  fc.assert(
    fc.property(arbWorld, ({ g, s, e }) => {
      const w = build(g);
      const best = cheapest(w, s, e);
      const ours = solve(finderFor(compat, w), s.x, s.y, e.x, e.y);
      const theirs = solve(finderFor(real, w), s.x, s.y, e.x, e.y);
      const endOk = w.acceptable.includes(w.rows[e.y][e.x]) || (s.x === e.x && s.y === e.y);
      if (best === Infinity || !endOk) {
        assert.equal(ours, null);
        assert.equal(theirs, null);
        return;
      }
      assert.notEqual(ours, null);
      assert.notEqual(theirs, null);
      assert.ok(Math.abs(costOf(w, ours!, s, e) - best) < 1e-9, `compat ${costOf(w, ours!, s, e)}, cheapest ${best}`);
      const theirCost = costOf(w, theirs!, s, e);
      if (!w.diagonals) assert.ok(Math.abs(theirCost - best) < 1e-9, `EasyStar.js ${theirCost}, cheapest ${best}`);
      else assert.ok(theirCost >= best - 1e-9, `EasyStar.js ${theirCost} below the cheapest ${best}`);
    }),
    { numRuns: 500, seed: 2405 },
  );
});

test('random changes between searches: the rows, tiles, costs, avoided points and conditions in force are the ones each search sees (fast-check)', () => {
  const W = 8;
  const H = 6;
  const xy = { x: fc.nat(W - 1), y: fc.nat(H - 1) };
  const op = fc.oneof(
    fc.record({ kind: fc.constant('tile' as const), ...xy, tile: fc.constantFrom(0, 1, 2) }),
    fc.record({ kind: fc.constant('avoid' as const), ...xy, on: fc.boolean() }),
    fc.record({ kind: fc.constant('pointCost' as const), ...xy, cost: fc.constantFrom(0, 0.5, 2, 7) }),
    fc.record({ kind: fc.constant('tileCost' as const), cost: fc.constantFrom(1, 3, 0.25) }),
    fc.record({ kind: fc.constant('acceptable' as const), two: fc.boolean() }),
    fc.record({ kind: fc.constant('condition' as const), ...xy, dirs: fc.subarray(DIRS) }),
    fc.record({ kind: fc.constant('clear' as const), what: fc.constantFrom('avoid', 'costs', 'conditions') }),
    fc.record({ kind: fc.constant('diagonals' as const), diagonals: fc.boolean(), cutting: fc.boolean() }),
    fc.record({ kind: fc.constant('search' as const), s: fc.record(xy), e: fc.record(xy) }),
  );
  fc.assert(
    fc.property(fc.integer(), fc.array(op, { maxLength: 30 }), (seed, ops) => {
      const w = build({ w: W, h: H, seed, diagonals: false, cutting: true, avoidRate: 0, conditionRate: 0 });
      const es = finderFor(compat, w);
      for (const o of ops) {
        const k = 'x' in o ? `${o.x},${o.y}` : '';
        switch (o.kind) {
          case 'tile':
            w.rows[o.y][o.x] = o.tile;
            break;
          case 'avoid':
            if (o.on) es.avoidAdditionalPoint(o.x, o.y), w.avoid.add(k);
            else es.stopAvoidingAdditionalPoint(o.x, o.y), w.avoid.delete(k);
            break;
          case 'pointCost':
            if (o.cost === 0) es.removeAdditionalPointCost(o.x, o.y), w.pointCost.delete(k);
            else es.setAdditionalPointCost(o.x, o.y, o.cost), w.pointCost.set(k, o.cost);
            break;
          case 'tileCost':
            es.setTileCost(2, o.cost);
            w.tileCost.set(2, o.cost);
            break;
          case 'acceptable':
            w.acceptable = o.two ? [0, 2] : [0];
            es.setAcceptableTiles(w.acceptable);
            break;
          case 'condition':
            es.setDirectionalCondition(o.x, o.y, o.dirs);
            w.conditions.set(k, o.dirs);
            break;
          case 'clear':
            if (o.what === 'avoid') es.stopAvoidingAllAdditionalPoints(), w.avoid.clear();
            else if (o.what === 'costs') es.removeAllAdditionalPointCosts(), w.pointCost.clear();
            else es.removeAllDirectionalConditions(), w.conditions.clear();
            break;
          case 'diagonals':
            w.diagonals = o.diagonals;
            w.cutting = o.cutting;
            if (o.diagonals) es.enableDiagonals();
            else es.disableDiagonals();
            if (o.cutting) es.enableCornerCutting();
            else es.disableCornerCutting();
            break;
          case 'search': {
            const ours = solve(es, o.s.x, o.s.y, o.e.x, o.e.y);
            const same = o.s.x === o.e.x && o.s.y === o.e.y;
            const best = same ? 0 : w.acceptable.includes(w.rows[o.e.y][o.e.x]) ? cheapest(w, o.s, o.e) : Infinity;
            if (best === Infinity) assert.equal(ours, null);
            else assert.ok(Math.abs(costOf(w, ours!, o.s, o.e) - best) < 1e-6 * Math.max(1, best), `${costOf(w, ours!, o.s, o.e)} vs ${best}`);
          }
        }
      }
    }),
    { numRuns: 300, seed: 2406 },
  );
});

// ---- the compat entry alone ------------------------------------------------------------------------

test('tilenav/compat/easystar: a diagonal costs sqrt 2, so long diagonal paths are shortest where EasyStar.js (1.4) takes a longer one', () => {
  // 200 random 16 x 12 grids, left edge to right edge. EasyStar.js prices a diagonal at 1.4 and
  // its estimate adds 1.4 per diagonal to every straight step, which overshoots: it settles for
  // paths that cost more than the cheapest, measured here with diagonals of sqrt 2.
  let longer = 0;
  const rnd = mulberry32(24);
  for (let t = 0; t < 200; t++) {
    const rows = Array.from({ length: 12 }, () => Array.from({ length: 16 }, () => (rnd() < 0.2 ? 1 : 0)));
    const s = { x: 0, y: Math.floor(rnd() * 12) };
    const e = { x: 15, y: Math.floor(rnd() * 12) };
    rows[s.y][s.x] = 0;
    rows[e.y][e.x] = 0;
    const w = world(rows);
    w.diagonals = true;
    w.cutting = false;
    const ours = solve(finderFor(compat, w), s.x, s.y, e.x, e.y);
    const theirs = solve(finderFor(real, w), s.x, s.y, e.x, e.y);
    if (ours === null) continue;
    assert.ok(Math.abs(costOf(w, ours, s, e) - cheapest(w, s, e)) < 1e-9);
    if (costOf(w, theirs!, s, e) > costOf(w, ours, s, e) + 1e-9) longer++;
  }
  assert.ok(longer > 0, 'EasyStar.js returned a longer path at least once in 200 queries');
});

test('tilenav/compat/easystar: mistakes throw a TilenavError naming the argument', () => {
  const es = finder(compat, rowsOf(['00', '00']));
  const names = (fn: () => unknown, element: string) => assert.throws(fn, (e: unknown) => e instanceof TilenavError && e.element === element);
  names(() => new compat.js().findPath(0, 0, 1, 1, () => {}), 'acceptableTiles');
  names(() => es.findPath(2, 0, 1, 1, () => {}), 'startX');
  names(() => es.findPath(0, 0, 1, 1.5, () => {}), 'endY');
  names(() => es.findPath(0, 0, 1, 1, 'done' as unknown as compat.PathCallback), 'callback');
  names(() => es.setGrid([]), 'grid');
  names(() => es.setGrid([[0, 0], [0]]), 'grid row 1');
  names(() => es.setAcceptableTiles('0' as unknown as number), 'tiles');
  names(() => es.setTileCost(0, 0), 'cost');
  names(() => es.setAdditionalPointCost(0, 0, -1), 'cost');
  names(() => es.avoidAdditionalPoint(0.5, 0), 'x');
  names(() => es.setDirectionalCondition(0, 0, ['UP' as compat.Direction]), 'allowedDirections');
  names(() => es.setIterationsPerCalculation(0), 'iterations');
  // A grid made ragged after setGrid is caught when it is read; the search waits for a good one.
  const rows = rowsOf(['00', '00']);
  const later = finder(compat, rows);
  rows[1].pop();
  let answer: Point[] | null | undefined;
  later.findPath(0, 0, 1, 0, (p) => (answer = p));
  names(() => later.calculate(), 'grid row 1');
  rows[1].push(0);
  later.calculate();
  assert.deepEqual(answer, [{ x: 0, y: 0 }, { x: 1, y: 0 }]);
});

/** Rows of a w x h field with a wall down every third column, its gap at the bottom and top in turn: a long winding way. */
function serpentine(w: number, h: number): number[][] {
  const rows = Array.from({ length: h }, () => new Array(w).fill(0));
  for (let x = 2, k = 0; x < w - 1; x += 3, k++) for (let y = 0; y < h; y++) if (y !== (k % 2 === 0 ? h - 1 : 0)) rows[y][x] = 1;
  return rows;
}

/** Calls calculate() (then lets the timers run) until `done()` or `max` calls; returns the calls made. */
async function calculateUntil(es: compat.js, done: () => boolean, max = 10_000): Promise<number> {
  let calls = 0;
  while (!done() && calls < max) {
    es.calculate();
    calls++;
    await tick();
  }
  return calls;
}

test('tilenav/compat/easystar: a search longer than the iterations per calculation pauses and goes on at the next call; the default export holds every named export', async () => {
  const rows = serpentine(30, 12);
  const whole = solve(finder(compat, rows), 0, 0, 29, 11)!;
  const es = new compat.js();
  es.setGrid(rows);
  es.setAcceptableTiles([0]);
  es.setIterationsPerCalculation(2);
  let first: Point[] | null | undefined;
  let second: Point[] | null | undefined;
  es.findPath(0, 0, 29, 11, (p) => (first = p));
  es.findPath(29, 11, 0, 0, (p) => (second = p));
  const calls = await calculateUntil(es, () => first !== undefined);
  assert.deepEqual(first, whole);
  assert.ok(calls > 3, `the first search took ${calls} calls of 2 nodes`);
  assert.equal(second, undefined, 'the second waits for the first');
  await calculateUntil(es, () => second !== undefined);
  assert.equal(second!.length, whole.length);
  for (const [k, v] of Object.entries(compat)) if (k !== 'default') assert.equal((EasyStarDefault as Record<string, unknown>)[k], v, k);
});

test('tilenav/compat/easystar: a paused search sees the rows changed before the next call, cancelPath drops it, and a blocked start does not restart it', async () => {
  const rows = serpentine(30, 12);
  const es = new compat.js();
  es.setGrid(rows);
  es.setAcceptableTiles([0]);
  es.setIterationsPerCalculation(2);
  // In a record: the callback sets it, which narrowing after an assertion does not see.
  const got: { path?: Point[] | null } = {};
  es.findPath(0, 0, 29, 11, (p) => (got.path = p));
  es.calculate();
  await tick();
  assert.equal(got.path === undefined, true, 'paused after 2 nodes');
  // The first wall's gap moves from the bottom to the top: the answer is the one on the new rows.
  rows[11][2] = 1;
  rows[0][2] = 0;
  await calculateUntil(es, () => got.path !== undefined);
  assert.deepEqual(got.path, solve(finder(compat, rows), 0, 0, 29, 11));
  assert.ok(got.path!.some((p) => p.x === 2 && p.y === 0), 'through the new gap');
  // A paused search cancelled: its callback never runs, and the next one answers.
  let dropped = 0;
  const id = es.findPath(0, 0, 29, 11, () => dropped++)!;
  es.calculate();
  assert.equal(es.cancelPath(id), true);
  let next: Point[] | null | undefined;
  es.findPath(0, 0, 1, 0, (p) => (next = p));
  await calculateUntil(es, () => next !== undefined);
  assert.equal(dropped, 0);
  assert.equal(next!.length, 2);
  // A blocked start (a unit on its own cell) does not make a paused search start over each call.
  rows[0][0] = 1;
  let fromBlocked = undefined as Point[] | null | undefined;
  es.findPath(0, 0, 29, 11, (p) => (fromBlocked = p));
  const taken = await calculateUntil(es, () => fromBlocked !== undefined, 500);
  assert.ok(fromBlocked !== undefined && fromBlocked !== null, `answered within ${taken} calls`);
  assert.equal(fromBlocked.length, got.path!.length);
});
