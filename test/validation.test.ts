import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NavGrid, TerrainTable, TilenavError, findPath } from '../src/index.js';
import { formatBinaryGrid, parseBinaryGrid } from '../src/loaders/index.js';

/** Asserts `fn` throws a TilenavError whose message names `name`. */
function refuses(fn: () => unknown, name: string | RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof TilenavError, `expected a TilenavError, got ${String(e)}`);
    if (typeof name === 'string') assert.ok(e.message.includes(name), `message ${JSON.stringify(e.message)} names ${name}`);
    else assert.match(e.message, name);
    return true;
  });
}

test('costs a float32 cannot hold are refused by setCost, fillRect and TerrainTable.define', () => {
  const g = new NavGrid(3, 3);
  refuses(() => g.setCost(1, 1, 1e-50), 'cost');
  refuses(() => g.setCost(1, 1, 1e39), 'cost');
  refuses(() => g.setCost(1, 1, 2 ** -127), 'cost');
  refuses(() => g.fillRect(0, 0, 2, 2, { cost: 1e-50 }), 'cost');
  refuses(() => g.fillRect(0, 0, 2, 2, { cost: 1e39 }), 'cost');
  refuses(() => new TerrainTable().define('Tar', 1e-50), 'terrain "Tar" cost');
  refuses(() => new TerrainTable().define('Tar', 1e39), 'terrain "Tar" cost');
  assert.equal(g.getCost(1, 1), 1, 'a refused cost leaves the cell as it was');
  assert.equal(findPath(g, 0, 0, 2, 2).status, 'found');
  // The float32 range ends are accepted and stored exactly.
  g.setCost(1, 1, 2 ** -126);
  assert.equal(g.getCost(1, 1), 2 ** -126);
  g.setCost(1, 1, 3.4028234663852886e38);
  assert.equal(g.getCost(1, 1), 3.4028234663852886e38);
  assert.equal(new TerrainTable().define('Tar', 2 ** -126) >= 0, true);
});

test('maxCells that is not a number >= 0 is refused instead of switching the limit off', () => {
  for (const bad of [NaN, 'x', -1]) {
    refuses(() => new NavGrid(4, 4, { maxCells: bad as number }), 'maxCells');
  }
  const bytes = formatBinaryGrid(new NavGrid(4, 4));
  for (const bad of [NaN, 'x', -1]) refuses(() => parseBinaryGrid(bytes, { maxCells: bad as number }), 'maxCells');
  refuses(() => parseBinaryGrid(bytes, { maxCells: 10 }), 'maxCells');
  assert.equal(new NavGrid(4, 4, { maxCells: Infinity }).size, 16);
});

test('parseBinaryGrid names the file when the header repeats a layer name', () => {
  const bytes = new Uint8Array(formatBinaryGrid(new NavGrid(2, 2, { layers: ['Aa', 'Bb'] })));
  const text = new TextDecoder('latin1').decode(bytes);
  const at = text.indexOf('"Bb"');
  assert.ok(at > 0);
  bytes[at + 1] = 'A'.charCodeAt(0);
  bytes[at + 2] = 'a'.charCodeAt(0);
  refuses(() => parseBinaryGrid(bytes, { file: 'maps/level1.tnav' }), /maps\/level1\.tnav.*"Aa" appears twice/);
});

test('NavGrid options of the wrong kind are refused naming the option', () => {
  refuses(() => new NavGrid(2, 2, { storageOffset: -4, storage: new ArrayBuffer(64) }), 'storageOffset');
  refuses(() => new NavGrid(2, 2, { storageOffset: -4 }), 'storageOffset');
  refuses(() => new NavGrid(2, 2, { projection: 'iso' as never }), 'projection');
  refuses(() => new NavGrid(2, 2, { terrain: 'x' as never }), 'terrain');
  refuses(() => new NavGrid(2, 2, null as never), 'options');
  refuses(() => new NavGrid(2, 2).fillRect(0, 0, 1, 1, null as never), 'values');
  refuses(() => new NavGrid(2, 2).fillRect(0, 0, 1, 1, { terrain: 'x' }), 'terrain "x"');
});

test('NavGrid storage must be an ArrayBuffer or SharedArrayBuffer large enough; a typed array is refused by name, never copied', () => {
  const bytes = NavGrid.storageBytes(4, 4, 1);
  refuses(() => new NavGrid(4, 4, { layers: 1, storage: { byteLength: 1000 } as never }), /^storage: expected an ArrayBuffer or SharedArrayBuffer, got an object/);
  refuses(() => new NavGrid(4, 4, { layers: 1, storage: new Uint8Array(1000) as never }), /^storage: expected an ArrayBuffer or SharedArrayBuffer, got a Uint8Array; pass its buffer \(and its byteOffset as storageOffset\)/);
  refuses(() => new NavGrid(4, 4, { layers: 1, storage: new DataView(new ArrayBuffer(1000)) as never }), /got a DataView/);
  refuses(() => new NavGrid(4, 4, { layers: 1, storage: 'x' as never }), /^storage: expected an ArrayBuffer or SharedArrayBuffer, got "x"/);
  refuses(() => new NavGrid(4, 4, { layers: 1, storage: new ArrayBuffer(bytes - 1) }), /^storage: storage of \d+ bytes at offset 0 cannot hold 1 layers of 4 x 4/);
  // Shared: a write through the grid shows in the buffer, and the other way round.
  for (const buffer of [new ArrayBuffer(bytes + 8), new SharedArrayBuffer(bytes + 8)]) {
    const view = new Uint8Array(buffer, 8);
    const g = new NavGrid(4, 4, { layers: 1, storage: view.buffer, storageOffset: view.byteOffset });
    assert.equal(g.storage, buffer);
    g.setWalkable(1, 0, false);
    assert.equal(new Uint8Array(buffer)[8 + 16 * 4 + 1], 0);
    new Uint8Array(buffer)[8 + 16 * 4 + 2] = 0;
    assert.equal(g.isWalkable(2, 0), false);
  }
});

test('grids follow their terrain table: a new cost for Mud reaches the painted cells, on every layer and grid, with a change event', () => {
  const terrain = new TerrainTable();
  const g = new NavGrid(5, 3, { layers: 2, terrain });
  const other = new NavGrid(2, 2, { terrain });
  g.fillRect(1, 0, 3, 3, { terrain: 'Mud' });
  g.setTerrain(4, 2, 'Mud', 1);
  g.setCost(2, 2, 3); // set on its own: keeps its cost
  other.setTerrain(0, 0, 'Mud');
  // A search before the change builds the grid's search copy; the one after must see the new cost.
  assert.equal(findPath(g, 0, 0, 4, 0).cost, 1.5 * 3 + 1);
  const events: unknown[] = [];
  g.onChange((c) => events.push({ layer: c.layer, x: c.x, y: c.y, width: c.width, height: c.height }));
  terrain.define('Mud', 2);
  assert.equal(g.getCost(1, 0), 2);
  assert.equal(g.getCost(3, 2), 2);
  assert.equal(g.getCost(2, 2), 3);
  assert.equal(g.getCost(0, 0), 1, 'ground stays ground');
  assert.equal(g.getCost(4, 2, 1), 2, 'layer 1 follows too');
  assert.equal(other.getCost(0, 0), 2, 'every grid made with the table follows');
  assert.deepEqual(events, [{ layer: 0, x: 1, y: 0, width: 3, height: 3 }, { layer: 1, x: 4, y: 2, width: 1, height: 1 }]);
  assert.equal(findPath(g, 0, 0, 4, 0).cost, 2 * 3 + 1);
  // Cheaper than ground now: the search's heuristic scale follows, so the path stays optimal.
  terrain.define('Mud', 0.25);
  const cheap = findPath(g, 0, 0, 4, 0);
  assert.equal(cheap.cost, 0.25 * 3 + 1);
  // No change of cost, no event.
  events.length = 0;
  terrain.define('Mud', 0.25);
  assert.deepEqual(events, []);
});

test('a terrain cells hold cannot change walkability under them: define says so and leaves the table as it was', () => {
  const terrain = new TerrainTable();
  const g = new NavGrid(3, 1, { terrain });
  g.setTerrain(1, 0, 'Water');
  refuses(() => terrain.define('Water', 2, false), /^terrain "Water": cells of a grid using this table hold this terrain, so it cannot become impassable under them; repaint them/);
  assert.equal(terrain.get(terrain.id('Water')).walkable, true);
  assert.equal(g.isWalkable(1, 0), true);
  // Terrains no cell holds change freely; so does Water once its cells are repainted.
  assert.equal(terrain.define('Lava', 1, true), terrain.id('Lava'));
  g.setTerrain(1, 0, 'Ground');
  terrain.define('Water', 2, false);
  assert.equal(terrain.get(terrain.id('Water')).walkable, false);
});
