import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { NavGrid, TilenavError, findPath, continuous, hexagonal, isometric, orthogonal } from '../src/index.js';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const PF: any = require('pathfinding');

/** The TilenavError `fn` throws, checked to name `element`. */
function refuses(fn: () => unknown, element: string, message?: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof TilenavError, String(e));
    assert.equal(e.element, element, e.message);
    if (message) assert.match(e.message, message);
    return true;
  });
}

test('fromMatrix: rows[y][x], 0 walkable and other numbers blocked, on a 3 x 2 grid', () => {
  const g = NavGrid.fromMatrix([
    [0, 0, 1],
    [7, 0, 0],
  ]);
  assert.equal(g.width, 3);
  assert.equal(g.height, 2);
  const walk = [0, 1].map((y) => [0, 1, 2].map((x) => g.isWalkable(x, y)));
  assert.deepEqual(walk, [
    [true, true, false],
    [false, true, true],
  ]);
  assert.equal(g.getCost(1, 0), 1);
  const r = findPath(g, 0, 0, 2, 1);
  assert.equal(r.status, 'found');
  assert.deepEqual(g.cellsToXY(r.cells)[0], [0, 0]);
  assert.deepEqual(g.cellsToXY(r.cells).at(-1), [2, 1]);
});

test('fromMatrix reads a PathFinding.js matrix as PathFinding.js does (random 9 x 4 and 4 x 9 matrices)', () => {
  fc.assert(
    fc.property(fc.boolean(), fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 36, maxLength: 36 }), (tall, flat) => {
      const [w, h] = tall ? [4, 9] : [9, 4];
      const rows = Array.from({ length: h }, (_, y) => flat.slice(y * w, y * w + w));
      const ours = NavGrid.fromMatrix(rows);
      const theirs = new PF.Grid(rows);
      assert.equal(ours.width, theirs.width);
      assert.equal(ours.height, theirs.height);
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) assert.equal(ours.isWalkable(x, y), theirs.isWalkableAt(x, y), `(${x}, ${y})`);
    }),
    { numRuns: 50 },
  );
});

test('fromMatrix with costs: true: each number is the cost and 0 blocks', () => {
  const g = NavGrid.fromMatrix(
    [
      [1, 5, 1, 1],
      [1, 2.5, 1, 0],
    ],
    { costs: true },
  );
  assert.equal(g.getCost(1, 0), 5);
  assert.equal(g.getCost(1, 1), 2.5);
  assert.equal(g.isWalkable(3, 1), false);
  assert.equal(g.isWalkable(3, 0), true);
  // Through the 5 the path costs 5 + 1 + 1; around it, 1 + 2.5 + 1 + 1 + 1.
  const r = findPath(g, 0, 0, 3, 0, { movement: 'cardinal' });
  assert.equal(r.status, 'found');
  assert.equal(r.cost, 6.5);
  assert.deepEqual(g.cellsToXY(r.cells), [[0, 0], [0, 1], [1, 1], [2, 1], [2, 0], [3, 0]]);
});

test('fromMatrix of booleans: true walkable, false blocked, as walkable reads everywhere in a grid', () => {
  const g = NavGrid.fromMatrix([
    [true, false],
    [true, true],
    [false, true],
  ]);
  assert.equal(g.width, 2);
  assert.equal(g.height, 3);
  assert.deepEqual(g.stats()[0], { name: 'Ground', total: 6, walkable: 4, blocked: 2 });
  assert.equal(g.isWalkable(1, 0), false);
  assert.equal(g.isWalkable(0, 2), false);
  assert.equal(NavGrid.fromMatrix([[true, false]], { costs: true }).isWalkable(1, 0), false);
});

test('fromMatrix passes the constructor options through; the matrix fills the first layer', () => {
  const g = NavGrid.fromMatrix([[0, 1, 0]], { projection: isometric(64, 32), layers: ['Walkers', 'Boats'] });
  assert.equal(g.projection.spec.kind, 'isometric');
  assert.deepEqual(g.layers.map((l) => l.name), ['Walkers', 'Boats']);
  assert.equal(g.isWalkable(1, 0, 'Walkers'), false);
  assert.equal(g.isWalkable(1, 0, 'Boats'), true);
  refuses(() => NavGrid.fromMatrix([[0, 0, 0], [0, 0, 0]], { maxCells: 5 }), 'width/height', /exceeds maxCells 5/);
});

test('fromMatrix refuses ragged rows, NaN, negative, infinite and mixed values, naming rows[y][x]', () => {
  refuses(() => NavGrid.fromMatrix([[0, 0, 0], [0, 0]]), 'rows[1]', /has 2 cells, rows\[0\] has 3/);
  refuses(() => NavGrid.fromMatrix([[0, 0], [0, 0, 0]]), 'rows[1]');
  refuses(() => NavGrid.fromMatrix([[], []]), 'rows[0]');
  refuses(() => NavGrid.fromMatrix([]), 'rows', /no rows/);
  refuses(() => NavGrid.fromMatrix('0,1' as never), 'rows');
  refuses(() => NavGrid.fromMatrix([[0, 0], 5] as never), 'rows[1]', /expected a row/);
  refuses(() => NavGrid.fromMatrix([[0, 0, 0], [0, 0, NaN]]), 'rows[1][2]', /got NaN/);
  refuses(() => NavGrid.fromMatrix([[0, -1]]), 'rows[0][1]', /got -1/);
  refuses(() => NavGrid.fromMatrix([[Infinity, 0]], { costs: true }), 'rows[0][0]');
  refuses(() => NavGrid.fromMatrix([[0, true]] as never), 'rows[0][1]', /a number like rows\[0\]\[0\]/);
  refuses(() => NavGrid.fromMatrix([[true, 0]] as never), 'rows[0][1]', /a boolean like rows\[0\]\[0\]/);
  refuses(() => NavGrid.fromMatrix([['0', '1']] as never), 'rows[0][0]');
  refuses(() => NavGrid.fromMatrix([[1, 1e-40]], { costs: true }), 'rows[0][1]', /float32/);
  refuses(() => NavGrid.fromMatrix([[0]], { walkable: false } as never), 'walkable');
});

test('cellsToXY and cellsToWorld on a 5 x 2 grid: [x, y] pairs and cell centres through the projection', () => {
  const g = new NavGrid(5, 2, { projection: orthogonal(32, 16) });
  const cells = Int32Array.from([0, 4, 9, 5]);
  assert.deepEqual(g.cellsToXY(cells), [[0, 0], [4, 0], [4, 1], [0, 1]]);
  assert.deepEqual(g.cellsToWorld(cells), [
    { x: 16, y: 8, z: 0 },
    { x: 144, y: 8, z: 0 },
    { x: 144, y: 24, z: 0 },
    { x: 16, y: 24, z: 0 },
  ]);
  assert.deepEqual(g.cellsToXY([]), []);
  refuses(() => g.cellsToXY([10]), 'cells', /entry 0 is 10, not a cell index 0\.\.9/);
  refuses(() => g.cellsToWorld([1.5]), 'cells');
  refuses(() => g.cellsToWorld(null as never), 'cells');
});

test('cellsToWorld follows every projection: the same point as projection.cellToWorld of each cell', () => {
  for (const projection of [isometric(64, 32), hexagonal(10, { layout: 'odd-r' }), continuous(0.5, -3, 2, 1.25)]) {
    const g = new NavGrid(3, 7, { projection });
    const cells = [0, 2, 20, 13];
    assert.deepEqual(
      g.cellsToWorld(cells),
      cells.map((i) => projection.cellToWorld(i % 3, Math.floor(i / 3))),
      projection.spec.kind,
    );
  }
  // The continuous world lies in the XZ plane: cell (2, 6) of cellSize 0.5 from (-3, 2) at floor 1.25.
  assert.deepEqual(new NavGrid(3, 7, { projection: continuous(0.5, -3, 2, 1.25) }).cellsToWorld([20]), [{ x: -1.75, y: 1.25, z: 5.25 }]);
});
