import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { NavGrid, TerrainTable, TilenavError, hexagonal } from '../src/index.js';
import { mulberry32 } from '../src/query/index.js';
import { parseTextGrid, formatTextGrid, parsePolygonConfig, formatBinaryGrid, parseBinaryGrid } from '../src/loaders/index.js';

const SPICE = ['0', '1', '-', '.', 'e', ' ', '\n', '\r', '"', '[', ']', '{', '}', ',', ':', 'NaN', '1e400', '-1', '99999999', '__proto__', 'null', 'true', '\u0000', '\uffff'];

/** One random edit of a byte array: flip, overwrite, delete, insert, duplicate or truncate. */
function mutate(input: Uint8Array, r: () => number): Uint8Array {
  const n = input.length;
  const at = Math.floor(r() * (n + 1));
  const len = 1 + Math.floor(r() * 8);
  const pick = Math.floor(r() * 6);
  if (pick === 0) {
    const b = input.slice();
    if (n > 0) b[Math.min(at, n - 1)] ^= 1 << Math.floor(r() * 8);
    return b;
  }
  if (pick === 1) {
    const b = input.slice();
    for (let k = 0; k < len && at + k < n; k++) b[at + k] = Math.floor(r() * 256);
    return b;
  }
  if (pick === 2) return concat(input.subarray(0, at), input.subarray(Math.min(n, at + len)));
  if (pick === 3) return concat(input.subarray(0, at), new TextEncoder().encode(SPICE[Math.floor(r() * SPICE.length)]), input.subarray(at));
  if (pick === 4) return concat(input.subarray(0, at), input.subarray(at, at + len * 4), input.subarray(at));
  return input.subarray(0, at);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Replaces one random value deep in a parsed JSON document with a value of a random type. */
function mutateJson(doc: unknown, r: () => number): unknown {
  const copy = JSON.parse(JSON.stringify(doc)) as unknown;
  const values: unknown[] = [0, -1, 1e308, 'x', null, true, [], {}, [1], [[0, 0]], { __proto__: 1 }];
  let target = copy as Record<string, unknown>;
  for (let depth = 0; depth < 6; depth++) {
    const keys = target && typeof target === 'object' ? Object.keys(target) : [];
    if (keys.length === 0) break;
    const k = keys[Math.floor(r() * keys.length)];
    const child = target[k];
    if (child === null || typeof child !== 'object' || r() < 0.3) {
      if (r() < 0.2) delete target[k];
      else target[k] = values[Math.floor(r() * values.length)];
      break;
    }
    target = child as Record<string, unknown>;
  }
  return copy;
}

function loadsOrThrowsOurs(fn: () => unknown, what: string): 'ok' | 'error' {
  try {
    fn();
    return 'ok';
  } catch (e) {
    if (!(e instanceof TilenavError)) assert.fail(`${what}: threw ${(e as Error)?.stack ?? String(e)}`);
    return 'error';
  }
}

const MAX_CELLS = 200_000;

test('fuzz: mutated text grids, polygon configs and binary grids load or throw TilenavError', () => {
  const r = mulberry32(20261122);
  const txt = new TextEncoder().encode(formatTextGrid(parseTextGrid('cellSize 0.5\nagentRadius 0.45\nfloorY 0\nminX -3\nminZ 2\ngridWidth 9\ngridDepth 4\n111111111\n100000001\n101111101\n111111111\n').grid, { params: { extra: [['agentRadius', 0.45]] } }));
  const houseText = readFileSync(new URL('../examples/house.json', import.meta.url), 'utf8');
  const house = new TextEncoder().encode(houseText);
  const terrain = new TerrainTable();
  terrain.define('Tar', 4);
  const g = new NavGrid(11, 6, { layers: ['Ground', 'Air'], projection: hexagonal(8, { layout: 'odd-r' }), terrain });
  g.fillRect(1, 1, 4, 2, { terrain: 'Tar' });
  g.fillRect(6, 0, 1, 6, { walkable: false }, 'Air');
  const bin = new Uint8Array(formatBinaryGrid(g));
  const tally = { ok: 0, error: 0 };
  const decoder = new TextDecoder();
  for (let i = 0; i < 1500; i++) {
    let t: Uint8Array = txt;
    let h: Uint8Array = house;
    let b: Uint8Array = bin;
    const edits = 1 + Math.floor(r() * 3);
    for (let k = 0; k < edits; k++) {
      t = mutate(t, r);
      h = mutate(h, r);
      b = mutate(b, r);
    }
    tally[loadsOrThrowsOurs(() => parseTextGrid(decoder.decode(t), { maxCells: MAX_CELLS }), `txt #${i}`)]++;
    tally[loadsOrThrowsOurs(() => parsePolygonConfig(decoder.decode(h), { maxCells: MAX_CELLS }), `polygon #${i}`)]++;
    tally[loadsOrThrowsOurs(() => parseBinaryGrid(b, { maxCells: MAX_CELLS }), `binary #${i}`)]++;
    const doc = mutateJson(JSON.parse(houseText), r);
    tally[loadsOrThrowsOurs(() => parsePolygonConfig(doc as object, { maxCells: MAX_CELLS }), `polygon value #${i}`)]++;
  }
  // Both outcomes occur, so the mutations neither always break nor never touch the inputs.
  assert.ok(tally.ok > 100 && tally.error > 100, JSON.stringify(tally));
});
