import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NavGrid, findPath } from '../src/index.js';

test('a path around a wall on a non-square grid', () => {
  const grid = new NavGrid(7, 4);
  grid.fillRect(3, 0, 1, 3, { walkable: false });
  const r = findPath(grid, 0, 0, 6, 0);
  assert.equal(r.status, 'found');
  assert.equal(r.cells[0], 0);
  assert.equal(r.cells[r.cells.length - 1], 6);
  assert.ok(Math.abs(r.cost - (4 + 4 * Math.SQRT2)) < 1e-9, `cost ${r.cost}`);
});
