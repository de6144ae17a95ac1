import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, World, pathsAffectedBy, findPath, type GridChange } from '../src/index.js';
import { ReachabilityIndex } from '../src/query/index.js';
import { smoothPath } from '../src/path/index.js';
import { segmentTouchesCell } from './helpers-queries.js';
import { gridArb } from './grids.js';

test('doors open and close at once; events carry the rectangle; version increases', () => {
  const g = new NavGrid(9, 3);
  g.fillRect(4, 0, 1, 3, { walkable: false });
  g.setWalkable(4, 1, true);
  const world = new World(g);
  const events: GridChange[] = [];
  g.onChange((c) => events.push(c));
  const door = world.addDoor('gate', { x: 4, y: 1, width: 1, height: 1 });
  assert.equal(findPath(g, 0, 1, 8, 1).status, 'found');
  const v = world.version;
  world.setDoor('gate', false);
  assert.equal(door.open, false);
  assert.equal(findPath(g, 0, 1, 8, 1).status, 'no-path');
  assert.ok(world.version > v);
  assert.deepEqual({ ...events[events.length - 1], version: 0 }, { layer: 0, x: 4, y: 1, width: 1, height: 1, version: 0, rects: [{ x: 4, y: 1, width: 1, height: 1 }], opened: false });
  world.setDoor('gate', true);
  assert.equal(events[events.length - 1].opened, true, 'an opening door opens a way');
  assert.equal(findPath(g, 0, 1, 8, 1).status, 'found');
  assert.throws(() => world.setDoor('nope', true), /no door named "nope"/);
  assert.throws(() => world.addDoor('gate', { x: 0, y: 0, width: 1, height: 1 }), /exists already/);
});

test('footprints are queued as dirty regions and applied lazily; overlaps undo cleanly', () => {
  const g = new NavGrid(10, 10);
  g.setWalkable(0, 0, false); // ground truth underneath: stays blocked after removal
  const world = new World(g);
  const index = new ReachabilityIndex(g);
  world.register('barracks', { x: 0, y: 0, width: 3, height: 3 });
  world.register('tower', { x: 2, y: 2, width: 2, height: 2 });
  assert.ok(world.pending);
  assert.ok(g.isWalkable(1, 1), 'not applied before flush');
  let events = 0;
  g.onChange(() => events++);
  world.flush();
  assert.equal(events, 1, 'one batched event');
  assert.ok(!g.isWalkable(1, 1) && !g.isWalkable(3, 3));
  world.remove('barracks');
  world.move('tower', 5, 5);
  world.flush();
  assert.ok(g.isWalkable(1, 1) && g.isWalkable(2, 2) && g.isWalkable(3, 3));
  assert.ok(!g.isWalkable(0, 0), 'what was blocked underneath stays blocked');
  assert.ok(!g.isWalkable(5, 5) && !g.isWalkable(6, 6));
  assert.equal(index.componentOf(5, 5), -1, 'listeners follow the lazy update');
  assert.throws(() => world.move('barracks', 1, 1), /no footprint "barracks"/);
  assert.throws(() => world.register('wall', { x: 8, y: 8, width: 5, height: 1 }), /inside the 10 x 10 grid/);
});

test('property: pathsAffectedBy is exact for cell paths and smoothed paths', () => {
  fc.assert(
    fc.property(gridArb({ width: [2, 12], height: [2, 12] }), fc.nat(), fc.nat(), fc.nat(), fc.nat(), ({ grid: g }, a, b, c, d) => {
      const n = g.size;
      const r = findPath(g, g.xOf(a % n), g.yOf(a % n), g.xOf(b % n), g.yOf(b % n));
      if (r.status !== 'found') return;
      const pts = smoothPath(g, r.cells);
      const rect = { x: c % g.width, y: d % g.height, width: 1 + (c % 3), height: 1 + (d % 2) };
      const inRect = (x: number, y: number) => x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height;
      // Brute force for cells: any cell, or a diagonal step's side cell, in the rectangle.
      let cellHit = false;
      for (let k = 0; k < r.cells.length; k++) {
        const x = g.xOf(r.cells[k]);
        const y = g.yOf(r.cells[k]);
        if (inRect(x, y)) cellHit = true;
        if (k > 0) {
          const px = g.xOf(r.cells[k - 1]);
          const py = g.yOf(r.cells[k - 1]);
          if (px !== x && py !== y && (inRect(px, y) || inRect(x, py))) cellHit = true;
        }
      }
      // Brute force for segments: slab test against every cell of the rectangle.
      let segHit = pts.length === 2 && inRect(pts[0], pts[1]);
      for (let k = 2; k < pts.length; k += 2) {
        for (let y = rect.y; y < rect.y + rect.height; y++) {
          for (let x = rect.x; x < rect.x + rect.width; x++) if (segmentTouchesCell(pts[k - 2], pts[k - 1], pts[k], pts[k + 1], x, y)) segHit = true;
        }
      }
      assert.deepEqual(pathsAffectedBy(rect, [{ cells: r.cells }, { points: pts }], g.width), [...(cellHit ? [0] : []), ...(segHit ? [1] : [])]);
    }),
    { numRuns: 400 },
  );
});

test('queued footprint changes apply lazily before the next search, with no explicit flush', () => {
  const grid = new NavGrid(12, 5);
  const world = new World(grid);
  const events: number[] = [];
  grid.onChange((c) => events.push(c.version));
  world.register('barracks', { x: 5, y: 0, width: 2, height: 4 });
  world.register('tower', { x: 8, y: 1, width: 1, height: 4 });
  assert.equal(grid.isWalkable(5, 0), true, 'nothing applied yet');
  assert.equal(events.length, 0);
  const r = findPath(grid, 0, 0, 11, 0);
  assert.equal(r.status, 'found');
  for (const i of r.cells) assert.ok(!(grid.xOf(i) >= 5 && grid.xOf(i) <= 6 && grid.yOf(i) <= 3), 'the path avoids the new building');
  assert.equal(events.length, 1, 'both footprints arrived as one change event');
  world.remove('barracks');
  assert.equal(findPath(grid, 0, 0, 11, 0).cost, 11, 'the barracks is gone; the tower does not touch row 0');
});
