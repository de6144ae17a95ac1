import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, World, pathsAffectedBy, findPath, MAX_CHANGE_RECTS, type CellRect, type GridChange } from '../src/index.js';
import { addChangedRect } from '../src/grid/rects.js';
import { NavigationSystem } from '../src/agents/index.js';

const HUTS: CellRect[] = [
  { x: 1, y: 1, width: 3, height: 3 },
  { x: 56, y: 1, width: 3, height: 3 },
  { x: 1, y: 56, width: 3, height: 3 },
];

test('a flush that builds three huts in three corners reports three rectangles, not the map between them', () => {
  const g = new NavGrid(60, 60);
  const world = new World(g);
  const events: GridChange[] = [];
  g.onChange((c) => events.push(c));
  HUTS.forEach((r, k) => world.register(`hut${k}`, r));
  world.flush();
  assert.equal(events.length, 1);
  const [c] = events;
  assert.deepEqual({ x: c.x, y: c.y, width: c.width, height: c.height }, { x: 1, y: 1, width: 58, height: 58 }, 'the bounding rectangle');
  const sorted = [...c.rects].sort((a, b) => a.y - b.y || a.x - b.x);
  assert.deepEqual(sorted, HUTS);
  // A path across the middle is far from every hut; one past a hut's side is not.
  const middle = { points: [30, 10, 30, 50] };
  const pastHut = { points: [10, 2, 59, 2] };
  const cells = findPath(g, 5, 30, 50, 30);
  assert.deepEqual(pathsAffectedBy(c, [middle, pastHut, cells], 60), [1]);
  assert.deepEqual(pathsAffectedBy(c.rects, [middle, pastHut], 60), [1]);
  assert.deepEqual(pathsAffectedBy({ x: c.x, y: c.y, width: c.width, height: c.height }, [middle, pastHut], 60), [0, 1], 'the bounding rectangle alone flags both');
});

test('agents replan only when a changed rectangle crosses their way: one far from all huts does not', () => {
  const g = new NavGrid(60, 60);
  const world = new World(g);
  const sys = new NavigationSystem(g);
  const far = sys.addAgent({ x: 20, y: 30 });
  const near = sys.addAgent({ x: 10, y: 2 });
  sys.moveTo(far, 40, 30);
  sys.moveTo(near, 59, 2);
  sys.step();
  assert.equal(sys.stats.plans, 2);
  HUTS.forEach((r, k) => world.register(`hut${k}`, r));
  world.flush();
  assert.deepEqual([sys.replanCount[far], sys.replanCount[near]], [0, 0]);
  sys.step();
  assert.equal(sys.replanCount[far], 0, 'the agent far from every hut kept its path');
  assert.equal(sys.replanCount[near], 1, 'the agent whose way passes a hut replanned');
});

test('changed rectangles: touching ones merge, at most MAX_CHANGE_RECTS, every added cell covered', () => {
  fc.assert(
    fc.property(fc.array(fc.record({ x: fc.integer({ min: 0, max: 60 }), y: fc.integer({ min: 0, max: 60 }), width: fc.integer({ min: 1, max: 4 }), height: fc.integer({ min: 1, max: 4 }) }), { maxLength: 40 }), (added) => {
      const list: CellRect[] = [];
      for (const r of added) addChangedRect(list, r);
      assert.ok(list.length <= MAX_CHANGE_RECTS);
      for (const r of added) {
        for (let y = r.y; y < r.y + r.height; y++) {
          for (let x = r.x; x < r.x + r.width; x++) assert.ok(list.some((q) => x >= q.x && x < q.x + q.width && y >= q.y && y < q.y + q.height), `cell (${x}, ${y}) dropped`);
        }
      }
    }),
  );
  const cells: CellRect[] = [];
  for (let y = 0; y < 3; y++) for (let x = 0; x < 3; x++) addChangedRect(cells, { x: 5 + x, y: 7 + y, width: 1, height: 1 });
  assert.deepEqual(cells, [{ x: 5, y: 7, width: 3, height: 3 }], 'a hut written cell by cell is one rectangle');
});

test('a wall built in a closed doorway stays when the door opens', () => {
  const g = new NavGrid(9, 3);
  g.fillRect(4, 0, 1, 3, { walkable: false });
  g.setWalkable(4, 1, true);
  const world = new World(g);
  world.addDoor('gate', { x: 4, y: 1, width: 1, height: 1 }, { open: false });
  g.setWalkable(4, 1, false);
  world.setDoor('gate', true);
  assert.equal(g.isWalkable(4, 1), false, 'the wall vanished with the door');
  assert.equal(findPath(g, 0, 1, 8, 1).status, 'no-path');
  // Knocked down while the door is closed, the doorway still blocks until the door opens.
  world.setDoor('gate', false);
  g.setWalkable(4, 1, true);
  assert.equal(findPath(g, 0, 1, 8, 1).status, 'no-path', 'a closed door has a hole');
  world.setDoor('gate', true);
  assert.equal(findPath(g, 0, 1, 8, 1).status, 'found');
  // A footprint too: terrain written under it is what shows when it goes.
  world.register('hut', { x: 0, y: 0, width: 2, height: 2 });
  world.flush();
  g.setWalkable(1, 1, false);
  world.remove('hut');
  world.flush();
  assert.deepEqual([g.isWalkable(0, 0), g.isWalkable(1, 1)], [true, false]);
});

test('pathsAffectedBy refuses a rectangle that is not whole cells, naming it', () => {
  const paths = [{ points: [0, 0, 5, 5] }];
  for (const bad of [{ x: NaN, y: 0, width: 2, height: 2 }, { x: 0, y: 0, width: Infinity, height: 1 }, { x: 0.5, y: 0, width: 1, height: 1 }, { x: 0, y: 0, width: 0, height: 1 }, null]) {
    assert.throws(() => pathsAffectedBy(bad as CellRect, paths, 10), (e: Error) => e.name === 'TilenavError' && /rect/.test(e.message), JSON.stringify(bad));
  }
  assert.throws(() => pathsAffectedBy([{ x: 0, y: 0, width: 1, height: 1 }, { x: 0, y: NaN, width: 1, height: 1 }], paths, 10), /rect 1/);
  assert.throws(() => pathsAffectedBy({ x: 0, y: 0, width: 1, height: 1 }, paths, NaN), /width/);
});
