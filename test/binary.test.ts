import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NavGrid, TerrainTable, TilenavError, isometric, findPath } from '../src/index.js';
import { formatBinaryGrid, parseBinaryGrid, BINARY_VERSION } from '../src/loaders/index.js';

/** A non-square two-layer grid with every kind of cell value set. */
function sample(): NavGrid {
  const terrain = new TerrainTable();
  terrain.define('Tar', 3.5);
  const g = new NavGrid(13, 7, { layers: ['Ground', 'Air'], projection: isometric(64, 32, 5, -3), terrain });
  g.fillRect(2, 1, 3, 4, { walkable: false });
  g.fillRect(6, 0, 2, 7, { terrain: 'Tar' });
  g.setCost(12, 6, 2.25);
  g.setFlags(0, 6, 0x1f);
  g.fillRect(0, 0, 13, 2, { walkable: false }, 'Air');
  g.setTerrain(9, 3, 'Lava', 'Air');
  return g;
}

function assertSameGrid(a: NavGrid, b: NavGrid): void {
  assert.equal(b.width, a.width);
  assert.equal(b.height, a.height);
  assert.deepEqual(b.projection.spec, a.projection.spec);
  assert.deepEqual(b.terrain.entries(), a.terrain.entries());
  assert.deepEqual(b.layers.map((l) => l.name), a.layers.map((l) => l.name));
  for (let l = 0; l < a.layers.length; l++) {
    for (const key of ['walkable', 'cost', 'flags', 'terrain'] as const) assert.deepEqual(b.layers[l][key], a.layers[l][key], `layer ${l} ${key}`);
  }
}

test('binary: round trip is exact (layers, costs, flags, terrain table, projection)', () => {
  const g = sample();
  const buf = formatBinaryGrid(g);
  assert.ok(buf instanceof ArrayBuffer);
  assert.equal(new TextDecoder().decode(new Uint8Array(buf, 0, 4)), 'TNAV');
  const back = parseBinaryGrid(buf).grid;
  assertSameGrid(g, back);
  assert.deepEqual(new Uint8Array(formatBinaryGrid(back)), new Uint8Array(buf), 'saving the loaded grid gives the same bytes');
  // The loaded grid searches like the original.
  const a = findPath(g, 0, 0, 12, 6);
  const b = findPath(back, 0, 0, 12, 6);
  assert.equal(b.status, a.status);
  assert.equal(b.cost, a.cost);
  assert.deepEqual(b.cells, a.cells);
});

test('binary: parseBinaryGrid adopts the buffer without copying, and the layer data is 8-byte aligned', () => {
  const buf = formatBinaryGrid(sample());
  const g = parseBinaryGrid(buf).grid;
  assert.equal(g.storage, buf);
  assert.equal(g.storageOffset % 8, 0);
  g.setWalkable(12, 0, false);
  assert.equal(parseBinaryGrid(buf).grid.isWalkable(12, 0), false, 'writes go into the buffer');
});

test('binary: SharedArrayBuffer round trip, both grids see one memory', () => {
  const g = sample();
  const sab = formatBinaryGrid(g, { shared: true });
  assert.ok(sab instanceof SharedArrayBuffer);
  const a = parseBinaryGrid(sab).grid;
  const b = parseBinaryGrid(sab).grid;
  assertSameGrid(g, a);
  assert.equal(a.storage, sab);
  a.setCost(1, 6, 7.5);
  assert.equal(b.getCost(1, 6), 7.5);
  assert.equal(g.getCost(1, 6), 1, 'the shared buffer is a copy of the saved grid');
});

test('binary: a Uint8Array is adopted when aligned and copied when not', () => {
  const g = sample();
  const bytes = new Uint8Array(formatBinaryGrid(g));
  const big = new Uint8Array(bytes.length + 8);
  big.set(bytes, 8);
  const aligned = parseBinaryGrid(big.subarray(8)).grid;
  assert.equal(aligned.storage, big.buffer);
  assertSameGrid(g, aligned);
  const odd = new Uint8Array(bytes.length + 3);
  odd.set(bytes, 3);
  const copied = parseBinaryGrid(odd.subarray(3)).grid;
  assert.notEqual(copied.storage, odd.buffer);
  assertSameGrid(g, copied);
});

test('binary: a 1 x 1 grid and an 8-layer grid round trip', () => {
  for (const g of [new NavGrid(1, 1), new NavGrid(3, 5, { layers: 8, walkable: false })]) assertSameGrid(g, parseBinaryGrid(formatBinaryGrid(g)).grid);
  // Odd sizes put layer arrays at unaligned offsets: a bad value in a tail byte is still found.
  const g = new NavGrid(3, 5, { layers: 8 });
  const bytes = new Uint8Array(formatBinaryGrid(g));
  const dataOffset = new DataView(bytes.buffer).getUint32(12, true);
  const n = 15;
  bytes[dataOffset + 8 * n * 5 - 1] = 3;
  assert.throws(() => parseBinaryGrid(bytes), /layer "Custom4": cell \(2, 4\) holds walkable 3/);
  bytes[dataOffset + 8 * n * 5 - 1] = 1;
  bytes[dataOffset + 8 * n * 7 - 1] = 9;
  assert.throws(() => parseBinaryGrid(bytes), /layer "Custom4": cell \(2, 4\) holds terrain id 9 \(the table has 9\)/);
});

function expectError(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (e: unknown) => e instanceof TilenavError && pattern.test(e.message), `expected TilenavError matching ${pattern}`);
}

test('binary: wrong magic, version, truncation, trailing bytes, bad header and bad cells are clear errors', () => {
  const good = new Uint8Array(formatBinaryGrid(sample()));
  const mutate = (fn: (b: Uint8Array, dv: DataView) => void): Uint8Array => {
    const b = good.slice();
    fn(b, new DataView(b.buffer));
    return b;
  };
  expectError(() => parseBinaryGrid(mutate((b) => (b[0] = 0x50)), { file: 'x.tnav' }), /^x\.tnav: magic: not a tilenav binary grid.*"PNAV"/);
  expectError(() => parseBinaryGrid(mutate((_, dv) => dv.setUint32(4, 99, true))), /unsupported format version 99; this tilenav reads version 1/);
  expectError(() => parseBinaryGrid(good.subarray(0, 10)), /truncated: 10 bytes/);
  expectError(() => parseBinaryGrid(good.subarray(0, good.length - 1)), /layer data: truncated/);
  const longer = new Uint8Array(good.length + 8);
  longer.set(good);
  expectError(() => parseBinaryGrid(longer), /trailing bytes/);
  expectError(() => parseBinaryGrid(mutate((_, dv) => dv.setUint32(8, 0xffffff, true))), /header length/);
  expectError(() => parseBinaryGrid(mutate((_, dv) => dv.setUint32(12, 4, true))), /data offset 4/);
  expectError(() => parseBinaryGrid(mutate((b) => (b[24] = 0x7b + 1))), /header: the header is not valid UTF-8 JSON/);
  expectError(() => parseBinaryGrid(mutate((_, dv) => dv.setUint32(16, 0, true))), /at least 1 x 1/);
  expectError(() => parseBinaryGrid(good, { maxCells: 50 }), /exceeds maxCells 50/);
  const dataOffset = new DataView(good.buffer).getUint32(12, true);
  expectError(() => parseBinaryGrid(mutate((_, dv) => dv.setFloat32(dataOffset + 4 * 5, NaN, true))), /layer "Ground": cell \(5, 0\) holds cost NaN/);
  const n = 13 * 7;
  expectError(() => parseBinaryGrid(mutate((b) => (b[dataOffset + 2 * n * 4 + 3] = 2))), /cell \(3, 0\) holds walkable 2/);
  expectError(() => parseBinaryGrid(mutate((b) => (b[dataOffset + 2 * n * 6 + 4] = 200))), /terrain id 200/);
  expectError(() => parseBinaryGrid('TNAV' as unknown as ArrayBuffer), /expected an ArrayBuffer/);
  assert.equal(BINARY_VERSION, 1);
});

test('binary: a projection or terrain table the header cannot describe is an error naming the header', () => {
  const g = new NavGrid(4, 3);
  const bytes = new Uint8Array(formatBinaryGrid(g));
  const dv = new DataView(bytes.buffer);
  const len = dv.getUint32(8, true);
  const json = new TextDecoder().decode(bytes.subarray(24, 24 + len));
  for (const [from, to, pattern] of [
    ['"kind":"orthogonal"', '"kind":"weird!!!!!"', /header: projection: expected kind orthogonal/],
    ['"cost":1.2', '"cost":-12', /header: .*cost/],
    ['"walkable":false', '"walkable":"no!"', /header\.terrain\[8\]/],
  ] as const) {
    assert.ok(json.includes(from), from);
    const changed = new TextEncoder().encode(json.replace(from, to));
    assert.equal(changed.length, len, 'same-length edit');
    const b = bytes.slice();
    b.set(changed, 24);
    expectError(() => parseBinaryGrid(b), pattern);
  }
});
