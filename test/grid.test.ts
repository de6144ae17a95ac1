import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, TerrainTable, DEFAULT_TERRAINS, TilenavError, findPath, orthogonal, isometric, hexagonal, continuous, createProjection, FLAG_NO_EXIT_EAST } from '../src/index.js';
import type { GridChange, HexLayout } from '../src/index.js';

test('index, xOf and yOf agree on a non-square grid; outside is an error, never a wrap', () => {
  const grid = new NavGrid(7, 3);
  for (let y = 0; y < 3; y++) for (let x = 0; x < 7; x++) {
    const i = grid.index(x, y);
    assert.equal(i, y * 7 + x);
    assert.equal(grid.xOf(i), x);
    assert.equal(grid.yOf(i), y);
  }
  assert.throws(() => grid.index(7, 0), /not a cell of this 7 x 3 grid/);
  assert.throws(() => grid.index(0, 3), TilenavError);
  assert.throws(() => grid.index(-1, 1), TilenavError);
  assert.throws(() => grid.setWalkable(7, 0, false), TilenavError);
  assert.equal(grid.isWalkable(7, 0), false, 'reads outside the grid are false, not row 1');
  assert.equal(grid.isWalkable(0, 1), true);
});

test('layers: 1 to 8, default names, custom names, lookups by name', () => {
  const g = new NavGrid(2, 2, { layers: 8 });
  assert.deepEqual(g.layers.map((l) => l.name), ['Ground', 'Sky', 'Underground', 'Volume', 'Custom1', 'Custom2', 'Custom3', 'Custom4']);
  assert.throws(() => new NavGrid(2, 2, { layers: 9 }), /1 to 8 layers/);
  assert.throws(() => new NavGrid(2, 2, { layers: 0 }), /1 to 8 layers/);
  assert.throws(() => new NavGrid(2, 2, { layers: ['A', 'A'] }), /appears twice/);
  const named = new NavGrid(3, 2, { layers: ['Walkers', 'Boats'] });
  named.setWalkable(1, 1, false, 'Boats');
  assert.equal(named.isWalkable(1, 1, 'Walkers'), true);
  assert.equal(named.isWalkable(1, 1, 'Boats'), false);
  assert.equal(named.isWalkable(1, 1, 1), false);
  assert.throws(() => named.isWalkable(0, 0, 'Sky'), /unknown layer; this grid has 0 "Walkers", 1 "Boats"/);
});

test('layers are independent for the search', () => {
  const g = new NavGrid(5, 3, { layers: 2 });
  g.fillRect(2, 0, 1, 3, { walkable: false }, 'Ground');
  assert.equal(findPath(g, 0, 1, 4, 1, { layer: 'Ground' }).status, 'no-path');
  assert.equal(findPath(g, 0, 1, 4, 1, { layer: 'Sky' }).cost, 4);
});

test("terrain table: the default costs, Lava impassable, overridable", () => {
  const t = new TerrainTable();
  const cost = (n: string) => t.get(t.id(n)).cost;
  assert.deepEqual(
    ['Ground', 'Grass', 'Sand', 'Mud', 'Water', 'Ice', 'Snow', 'Rock'].map(cost),
    [1.0, 1.0, 1.2, 1.5, 2.0, 0.8, 1.3, 1.1],
  );
  assert.equal(t.get(t.id('Lava')).walkable, false);
  assert.ok(DEFAULT_TERRAINS.every((d) => d.cost < 999), 'no 999 stand-in for impassable');
  t.define('Water', 3);
  assert.equal(cost('Water'), 3);
  t.define('Road', 0.5);
  assert.equal(cost('Road'), 0.5);
  assert.throws(() => t.define('Bad', 0), /finite number > 0/);
  assert.throws(() => t.define('Bad', Infinity), TilenavError);
  assert.throws(() => t.id('Swamp'), /unknown terrain/);

  const g = new NavGrid(4, 1, { terrain: t });
  g.setTerrain(1, 0, 'Lava');
  g.setTerrain(2, 0, 'Road');
  assert.equal(g.isWalkable(1, 0), false);
  assert.equal(g.getTerrain(2, 0), 'Road');
  assert.equal(g.getCost(2, 0), 0.5);
});

test('costs must be finite and > 0; impassable is walkable: false', () => {
  const g = new NavGrid(3, 3);
  for (const bad of [0, -1, Infinity, NaN, 999 * Infinity]) assert.throws(() => g.setCost(1, 1, bad), /cost/);
  assert.throws(() => g.setFlags(1, 1, 256), /flags 0..255/);
  g.setCost(1, 1, 2.5);
  g.setWalkable(1, 1, false);
  assert.equal(g.getCost(1, 1), 2.5, 'a blocked cell keeps its cost for when it reopens');
  g.setWalkable(1, 1, true);
  assert.equal(findPath(g, 1, 0, 1, 1, { movement: 'cardinal' }).cost, 2.5);
});

test('fillRect writes exactly its rectangle and rejects rectangles outside the grid', () => {
  const g = new NavGrid(6, 4);
  g.fillRect(1, 1, 3, 2, { walkable: false, flags: FLAG_NO_EXIT_EAST });
  let blocked = 0;
  for (let y = 0; y < 4; y++) for (let x = 0; x < 6; x++) {
    const inside = x >= 1 && x <= 3 && y >= 1 && y <= 2;
    assert.equal(g.isWalkable(x, y), !inside, `(${x}, ${y})`);
    assert.equal(g.getFlags(x, y), inside ? FLAG_NO_EXIT_EAST : 0);
    blocked += inside ? 1 : 0;
  }
  assert.equal(g.stats()[0].blocked, blocked);
  assert.throws(() => g.fillRect(4, 0, 3, 1, { walkable: false }), /does not lie inside/);
  assert.throws(() => g.fillRect(0, 0, 0, 1, { walkable: false }), /at least 1 x 1/);
});

test('change events carry the rectangle and the version; batch coalesces', () => {
  const g = new NavGrid(10, 10);
  const seen: GridChange[] = [];
  const off = g.onChange((c) => seen.push(c));
  g.setWalkable(2, 3, false);
  assert.deepEqual(seen[0], { layer: 0, x: 2, y: 3, width: 1, height: 1, version: 1, rects: [{ x: 2, y: 3, width: 1, height: 1 }], opened: false });
  g.batch(() => {
    g.setWalkable(1, 1, false);
    g.setCost(5, 7, 2);
  });
  assert.equal(seen.length, 2);
  // The bounding rectangle, and the two cells apart in `rects`.
  assert.deepEqual(seen[1], { layer: 0, x: 1, y: 1, width: 5, height: 7, version: 2, rects: [{ x: 1, y: 1, width: 1, height: 1 }, { x: 5, y: 7, width: 1, height: 1 }], opened: false }, 'a wall and a dearer cell open nothing');
  off();
  g.setWalkable(0, 0, false);
  assert.equal(seen.length, 2);
  assert.equal(g.version, 3);
});

test('a grid adopts a SharedArrayBuffer: two grids on one buffer see each other', () => {
  const bytes = NavGrid.storageBytes(5, 4, 2);
  const shared = new SharedArrayBuffer(bytes);
  const a = new NavGrid(5, 4, { layers: 2, storage: shared });
  a.fillRect(0, 0, 5, 4, { walkable: true, cost: 1 }, 0);
  a.setWalkable(3, 2, false);
  const b = new NavGrid(5, 4, { layers: 2, storage: shared });
  assert.equal(b.isWalkable(3, 2), false);
  assert.equal(b.isWalkable(2, 2), true);
  assert.throws(() => new NavGrid(5, 4, { layers: 3, storage: shared }), /cannot hold/);
});

test('size limits are explicit: maxCells', () => {
  assert.throws(() => new NavGrid(1000, 1000, { maxCells: 999_999 }), /exceeds maxCells 999999/);
  assert.throws(() => new NavGrid(0, 5), /at least 1 x 1/);
  assert.throws(() => new NavGrid(2.5, 5), /integer/);
});

const PROJECTIONS: [string, () => ReturnType<typeof orthogonal>][] = [
  ['orthogonal 32 x 16', () => orthogonal(32, 16, 5, -3)],
  ['isometric 64 x 32', () => isometric(64, 32, 400, 10)],
  ['continuous 0.4 m', () => continuous(0.4, -5, -7.5, 1.25)],
  ...(['axial', 'odd-r', 'even-r', 'odd-q', 'even-q'] as HexLayout[]).map((layout): [string, () => ReturnType<typeof orthogonal>] => [`hexagonal ${layout}`, () => hexagonal(10, { layout, originX: 3 })]),
  ['hexagonal axial flat', () => hexagonal(7, { layout: 'axial', orientation: 'flat' })],
];

for (const [name, make] of PROJECTIONS) {
  test(`projection round trip, cell -> world -> cell, non-square grid: ${name}`, () => {
    const p = make();
    for (let y = 0; y < 13; y++) for (let x = 0; x < 29; x++) {
      const w = p.cellToWorld(x, y);
      const c = p.spec.kind === 'continuous' ? p.worldToCell(w.x, w.z) : p.worldToCell(w.x, w.y);
      assert.deepEqual([c.x, c.y], [x, y], `${name} (${x}, ${y})`);
    }
    // And from the spec, as a binary grid or a worker would rebuild it.
    const q = createProjection(p.spec);
    assert.deepEqual(q.cellToWorld(3, 11), p.cellToWorld(3, 11));
  });
}

test('projection world -> cell -> world stays inside the cell (points near edges too)', () => {
  fc.assert(
    fc.property(fc.double({ min: -500, max: 500, noNaN: true }), fc.double({ min: -500, max: 500, noNaN: true }), (a, b) => {
      for (const [, make] of PROJECTIONS) {
        const p = make();
        const c = p.worldToCell(a, b);
        const centre = p.cellToWorld(c.x, c.y);
        const back = p.spec.kind === 'continuous' ? p.worldToCell(centre.x, centre.z) : p.worldToCell(centre.x, centre.y);
        assert.deepEqual([back.x, back.y], [c.x, c.y]);
      }
    }),
    { numRuns: 300, seed: 5 },
  );
});

test('projection specifics: orthogonal centres, isometric diamond, continuous floorY on XZ', () => {
  assert.deepEqual(orthogonal(32, 16).cellToWorld(2, 1), { x: 80, y: 24, z: 0 });
  const iso = isometric(64, 32);
  assert.deepEqual(iso.cellToWorld(0, 0), { x: 0, y: 16, z: 0 });
  assert.deepEqual(iso.cellToWorld(1, 0), { x: 32, y: 32, z: 0 });
  assert.deepEqual(iso.cellToWorld(0, 1), { x: -32, y: 32, z: 0 });
  const c = continuous(0.4, -5, -5, 2);
  const w = c.cellToWorld(0, 0);
  assert.ok(Math.abs(w.x + 4.8) < 1e-12 && w.y === 2 && Math.abs(w.z + 4.8) < 1e-12);
  assert.deepEqual(c.worldToCell(-5, -4.61), { x: 0, y: 0 });
  assert.deepEqual(c.worldToCell(-4.6, -5), { x: 1, y: 0 });
  assert.throws(() => orthogonal(0, 1), /tileWidth/);
  assert.throws(() => createProjection({ kind: 'polar' } as never), /expected kind/);
});
