/**
 * Movement range on a budget (`movementRange`): the cells in range, their costs and the path to
 * each, with occupied cells and zone-of-control cells, against the reference written from the
 * rules (test/reference.ts, refRange), for cardinal, octile, Chebyshev and hex movement.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, Pathfinder, checkPath, movementRange, type MovementName } from '../src/index.js';
import { refRange } from './reference.js';
import { QUESTION_MOVEMENTS, acrossChanges, close, throwsNaming } from './helpers-moves.js';

/** A query: start, budget, and picks for the occupied and stop cells. */
const queryArb = fc.record({
  start: fc.nat(),
  budget: fc.constantFrom(0, 1, 2.5, 4, 6, Infinity),
  occupied: fc.array(fc.nat(), { maxLength: 6 }),
  stops: fc.array(fc.nat(), { maxLength: 6 }),
  predicate: fc.boolean(),
});

for (const movement of QUESTION_MOVEMENTS) {
  test(`movement range (${movement}): the cells, costs and paths of the reference, with occupied and zone-of-control cells, across tile changes`, () => {
    acrossChanges(movement, queryArb, 9001 + QUESTION_MOVEMENTS.indexOf(movement), (grid, layer, pf, query) => {
      const { budget, predicate } = query;
      const start = query.start % grid.size;
      const occupied = query.occupied.map((k) => k % grid.size);
      const stopAt = query.stops.map((k) => k % grid.size);
      const stopSet = new Set(stopAt);
      const r = pf.movementRange(grid.xOf(start), grid.yOf(start), { budget, layer, movement, occupied, stopAt: predicate ? (c) => stopSet.has(c) : stopAt });
      const ref = refRange(grid, layer, movement, start, budget, { occupied, stopAt });
      const label = `${movement}, start ${start}, budget ${budget}`;
      if (grid.layers[layer].walkable[start] === 0) {
        assert.equal(r.reason, 'blocked', label);
        assert.equal(r.cells.length, 0, label);
        return;
      }
      assert.equal(r.reason, null);
      const want = [...ref.keys()].filter((i) => ref[i] < Infinity);
      assert.deepEqual([...r.cells].sort((a, b) => a - b), want, `${label}: the cells in range`);
      assert.equal(r.cells[0], start, 'the unit cell first');
      assert.equal(r.costs.length, r.cells.length);
      const occupiedSet = new Set(occupied);
      for (let k = 0; k < r.cells.length; k++) {
        const cell = r.cells[k];
        assert.ok(close(r.costs[k], ref[cell]), `${label}: cost of ${cell} ${r.costs[k]} vs ${ref[cell]}`);
        if (k > 0) assert.ok(r.costs[k] >= r.costs[k - 1], 'cheapest first');
        assert.equal(r.indexOf(cell), k);
        const p = r.pathTo(cell);
        assert.equal(p.status, 'found');
        assert.equal(p.reached, cell);
        assert.equal(p.cells[0], start);
        assert.equal(p.cells[p.cells.length - 1], cell);
        assert.ok(close(p.cost, r.costs[k]));
        const c = checkPath(grid, p.cells, { layer, movement });
        assert.ok(c.valid, c.problem);
        assert.ok(close(c.cost, p.cost), `the path to ${cell} costs ${c.cost}, said ${p.cost}`);
        for (let j = 1; j < p.cells.length; j++) {
          assert.ok(!occupiedSet.has(p.cells[j]), `the path to ${cell} enters occupied ${p.cells[j]}`);
          if (j < p.cells.length - 1) assert.ok(!stopSet.has(p.cells[j]), `the path to ${cell} leaves stop cell ${p.cells[j]}`);
        }
      }
      for (let i = 0; i < grid.size; i++) {
        if (ref[i] === Infinity) {
          assert.equal(r.indexOf(i), -1);
          assert.equal(r.pathTo(i).status, 'no-path');
        }
      }
    });
  });
}

test('a tactics board: 6 movement points, mud costs 2, an enemy and its zone of control', () => {
  // . . . . . . .
  // . U . . E . .     U the unit at (1, 1), E an enemy at (4, 1): its four neighbours end movement
  // . . . . . . .
  const board = new NavGrid(7, 3);
  board.fillRect(2, 0, 1, 3, { cost: 2 });
  const enemy = board.index(4, 1);
  const zone = [board.index(3, 1), board.index(5, 1), board.index(4, 0), board.index(4, 2)];
  const r = new Pathfinder(board).movementRange(1, 1, { budget: 6, movement: 'cardinal', occupied: [enemy], stopAt: zone });
  const at = (x: number, y: number) => r.costs[r.indexOf(board.index(x, y))];
  assert.equal(at(1, 1), 0);
  assert.equal(at(2, 1), 2, 'mud costs 2');
  assert.equal(at(3, 1), 3, 'the zone of control can be entered');
  assert.equal(r.indexOf(enemy), -1, 'the enemy cell cannot');
  assert.equal(at(4, 0), 5);
  assert.deepEqual(board.cellsToXY(r.pathTo(board.index(4, 0)).cells), [[1, 1], [1, 0], [2, 0], [3, 0], [4, 0]]);
  // Column 4 is the enemy and its zone: every way past it stops there.
  assert.equal(r.indexOf(board.index(5, 0)), -1);
  const unlimited = new Pathfinder(board).movementRange(1, 1, { budget: Infinity, movement: 'cardinal', occupied: [enemy], stopAt: zone });
  assert.equal(unlimited.indexOf(board.index(5, 0)), -1, 'whatever the budget');
  assert.equal(unlimited.cells.length, 12 + 2, 'columns 0-3 and the two zone cells of column 4 above and below the enemy');
});

test('the budget counts float32 costs: ten steps of 0.1 fit a budget of 1', () => {
  const grid = new NavGrid(12, 1);
  grid.fillRect(0, 0, 12, 1, { cost: 0.1 });
  const r = new Pathfinder(grid).movementRange(0, 0, { budget: 1, movement: 'cardinal' });
  assert.equal(r.cells.length, 11);
  assert.ok(r.costs[10] > 1, 'the float32 sum is just over 1');
});

test('a unit that starts in a zone of control may leave it; a stop cell under the unit does not stop it', () => {
  const grid = new NavGrid(5, 1);
  const r = new Pathfinder(grid).movementRange(0, 0, { budget: 4, movement: 'cardinal', stopAt: [0, 2], occupied: [0] });
  assert.deepEqual([...r.cells], [0, 1, 2]);
  assert.deepEqual([...r.costs], [0, 1, 2]);
});

test('the range is sized by the cells reached, runs on the Pathfinder scratch, and keeps its paths after other searches', () => {
  const grid = new NavGrid(400, 300);
  const pf = new Pathfinder(grid);
  const before = pf.bytes;
  const r = pf.movementRange(200, 150, { budget: 3, movement: 'chebyshev' });
  assert.equal(r.cells.length, 49, 'a 7 x 7 square');
  assert.equal(r.costs.length, 49);
  assert.equal(pf.bytes, before, 'no scratch of its own');
  const memory = grid.memory().total;
  for (let k = 0; k < 20; k++) pf.movementRange(10 + k, 10, { budget: 5 });
  assert.equal(grid.memory().total, memory, 'nothing kept by the grid per call');
  pf.findPath(0, 0, 399, 299);
  const p = r.pathTo(grid.index(203, 147));
  assert.equal(p.status, 'found');
  assert.equal(p.cost, 3);
  const out = new Int32Array(10);
  assert.equal(r.pathTo(grid.index(203, 147), out).cells.buffer, out.buffer, 'written into out');
  const free = movementRange(grid, 200, 150, { budget: 3, movement: 'chebyshev' });
  assert.deepEqual([...free.cells], [...r.cells]);
});

test('a unit outside the grid or on a blocked cell has an empty range, with the reason', () => {
  const grid = new NavGrid(4, 4);
  grid.setWalkable(1, 1, false);
  const pf = new Pathfinder(grid);
  const outside = pf.movementRange(-1, 0, { budget: 3 });
  assert.equal(outside.reason, 'outside');
  assert.equal(outside.cells.length, 0);
  const blocked = pf.movementRange(1, 1, { budget: 3 });
  assert.equal(blocked.reason, 'blocked');
  assert.equal(blocked.pathTo(0).status, 'no-path');
});

test('movement range misuse throws a TilenavError naming the option', () => {
  const grid = new NavGrid(6, 4);
  const pf = new Pathfinder(grid);
  for (const budget of [undefined, -1, NaN, '3', null]) throwsNaming(() => pf.movementRange(0, 0, { budget } as unknown as { budget: number }), 'budget');
  throwsNaming(() => pf.movementRange(0, 0, undefined as unknown as { budget: number }), 'options');
  throwsNaming(() => pf.movementRange(0.5, 0, { budget: 1 }), 'start x');
  throwsNaming(() => pf.movementRange(0, 0, { budget: 1, occupied: [24] }), 'occupied');
  throwsNaming(() => pf.movementRange(0, 0, { budget: 1, occupied: 3 as unknown as number[] }), 'occupied');
  throwsNaming(() => pf.movementRange(0, 0, { budget: 1, stopAt: [-1] }), 'stopAt');
  throwsNaming(() => pf.movementRange(0, 0, { budget: 1, stopAt: 'zone' as unknown as number[] }), 'stopAt');
  throwsNaming(() => pf.movementRange(0, 0, { budget: 1, movement: 'hex' as MovementName }), 'movement');
  throwsNaming(() => pf.movementRange(0, 0, { budget: 1, layer: 'Nowhere' }), 'layer "Nowhere"');
  const r = pf.movementRange(0, 0, { budget: 1 });
  throwsNaming(() => r.pathTo(1.5), 'cell');
  throwsNaming(() => r.pathTo(24), 'cell');
  throwsNaming(() => r.pathTo(0, [] as unknown as Int32Array), 'out');
});
