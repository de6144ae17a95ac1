/**
 * Hostile and oversized input for the map loaders: every case ends, quickly and within bounded
 * memory, in a loaded map or a one-line TilenavError naming the file and what was wrong.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TilenavError } from '../src/index.js';
import { loadTiled } from '../src/loaders/index.js';

/** Runs `fn`, asserting it returned or threw in less than `ms` milliseconds. */
function within<T>(ms: number, fn: () => T): T {
  const t0 = performance.now();
  try {
    return fn();
  } finally {
    const took = performance.now() - t0;
    assert.ok(took < ms, `took ${Math.round(took)} ms, expected under ${ms}`);
  }
}

/** Asserts `fn` throws a one-line TilenavError whose message matches every pattern. */
function refuses(fn: () => unknown, ...patterns: RegExp[]): TilenavError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof TilenavError, `expected a TilenavError, got ${caught instanceof Error ? `${caught.name}: ${caught.message.slice(0, 200)}` : String(caught)}`);
  assert.ok(!/[\n\r\u2028\u2029]/.test(caught.message), `message on more than one line: ${JSON.stringify(caught.message.slice(0, 300))}`);
  for (const p of patterns) assert.match(caught.message, p);
  return caught;
}

const tmx = (w: number, h: number, layer: string, extra = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="orthogonal" renderorder="right-down" width="${w}" height="${h}" tilewidth="16" tileheight="16" infinite="0">\n${extra}${layer}\n</map>\n`;

// ---- TMX payloads

test('a 4096 x 4096 CSV layer loads (the payload is read by a linear scan, not a regular expression)', () => {
  const n = 4096;
  const rows: string[] = [];
  const row = '0,'.repeat(n);
  for (let y = 0; y < n; y++) rows.push(y === n - 1 ? row.slice(0, -1) : row);
  rows[5] = '1,' + rows[5].slice(2);
  const text = tmx(n, n, `<layer id="1" name="walls" width="${n}" height="${n}"><data encoding="csv">\n${rows.join('\n')}\n</data></layer>`);
  const m = within(20000, () => loadTiled(text, { file: 'big.tmx', mapping: { collisionProperties: ['x'] } }));
  assert.equal(m.grid.width, n);
  assert.equal(m.grid.height, n);
});

test('a 1024 x 1024 uncompressed base64 layer loads', () => {
  const n = 1024;
  const bytes = new Uint8Array(n * n * 4);
  bytes[0] = 1;
  const b64 = Buffer.from(bytes).toString('base64');
  const text = tmx(n, n, `<layer id="1" name="walls" width="${n}" height="${n}"><properties><property name="collides" type="bool" value="true"/></properties><data encoding="base64">\n${b64}\n</data></layer>`);
  const m = within(10000, () => loadTiled(text, { file: 'b64.tmx' }));
  assert.equal(m.grid.isWalkable(0, 0), false);
  assert.equal(m.grid.isWalkable(1, 0), true);
});

test('240 KB of unterminated <data tags is refused in linear time', () => {
  const text = tmx(2, 2, '"<data '.repeat(34000));
  refuses(() => within(3000, () => loadTiled(text, { file: 'junk.tmx' })), /junk\.tmx/, /XML/);
  const text2 = tmx(2, 2, '<data '.repeat(40000));
  refuses(() => within(3000, () => loadTiled(text2, { file: 'junk2.tmx' })), /junk2\.tmx/);
});

test('CSV with a long run of spaces after a value reads in linear time', () => {
  const text = tmx(2, 1, `<layer id="1" name="a" width="2" height="1"><data encoding="csv">1${' '.repeat(1_000_000)},2</data></layer>`);
  const m = within(2000, () => loadTiled(text, { file: 'spaces.tmx' }));
  assert.equal(m.grid.width, 2);
});
