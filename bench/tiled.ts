/**
 * Tiled loader: a 1000 x 1000 map with two 1,000,000-tile zlib layers (target: < 300 ms),
 * built in memory, as TMJ and as TMX. Also CSV, for scale. Prints medians and p95 over several runs.
 */
import { deflateSync } from 'node:zlib';
import { parseTiled } from '../src/loaders/index.js';

const N = 1000;
const RUNS = 9;

function layerBytes(fill: (x: number, y: number) => number): Buffer {
  const b = Buffer.alloc(N * N * 4);
  for (let y = 0; y < N; y++) for (let x = 0; x < N; x++) b.writeUInt32LE(fill(x, y) >>> 0, (y * N + x) * 4);
  return b;
}

// A level-like pattern, not a constant: a few floor variants, rooms of walls, water, flipped tiles.
let seed = 1;
const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
const ground = layerBytes((x, y) => (x % 97 === 0 && y % 89 === 0 ? 0 : (x >> 4) % 7 === 3 && (y >> 4) % 5 === 1 ? 3 : 1 + Math.floor(rnd() * 2)));
const walls = layerBytes((x, y) => (x % 50 === 0 || y % 40 === 0 ? (rnd() < 0.9 ? (rnd() < 0.2 ? 0x80000002 : 2) : 0) : rnd() < 0.02 ? 2 : 0));
const tiles = [
  { id: 2, properties: [{ name: 'terrainType', type: 'string', value: 'Water' }] },
  { id: 1, properties: [{ name: 'slowMultiplier', type: 'float', value: 1.5 }] },
];
const nav = (walkable: boolean) => [{ name: 'isTilesetWalkable', type: 'bool', value: walkable }];

const tmj = (encode: (b: Buffer) => Record<string, unknown>) =>
  JSON.stringify({
    type: 'map',
    orientation: 'orthogonal',
    width: N,
    height: N,
    tilewidth: 16,
    tileheight: 16,
    infinite: false,
    tilesets: [{ firstgid: 1, name: 'bench', tilewidth: 16, tileheight: 16, tilecount: 4, tiles }],
    layers: [
      { type: 'tilelayer', name: 'Ground', width: N, height: N, properties: nav(true), ...encode(ground) },
      { type: 'tilelayer', name: 'Walls', width: N, height: N, properties: nav(false), ...encode(walls) },
    ],
  });

const zlibTmj = tmj((b) => ({ encoding: 'base64', compression: 'zlib', data: deflateSync(b).toString('base64') }));
const gids = (b: Buffer) => Array.from({ length: N * N }, (_, i) => b.readUInt32LE(i * 4));
const csvTmj = tmj((b) => ({ data: gids(b) }));
const layerXml = (name: string, walkable: boolean, b: Buffer) =>
  `<layer name="${name}" width="${N}" height="${N}"><properties><property name="isTilesetWalkable" type="bool" value="${walkable}"/></properties><data encoding="base64" compression="zlib">${deflateSync(b).toString('base64')}</data></layer>`;
const zlibTmx = `<?xml version="1.0" encoding="UTF-8"?><map orientation="orthogonal" width="${N}" height="${N}" tilewidth="16" tileheight="16"><tileset firstgid="1" name="bench" tilewidth="16" tileheight="16" tilecount="4"><tile id="2"><properties><property name="terrainType" value="Water"/></properties></tile><tile id="1"><properties><property name="slowMultiplier" type="float" value="1.5"/></properties></tile></tileset>${layerXml('Ground', true, ground)}${layerXml('Walls', false, walls)}</map>`;

function time(label: string, source: string): Record<string, string | number> {
  const ms: number[] = [];
  let walkable = 0;
  // The first load in a process pays for compiling the parsers and decoders: shown on its own.
  const c0 = performance.now();
  parseTiled(source, { file: label });
  const cold = performance.now() - c0;
  for (let r = 0; r < RUNS; r++) {
    globalThis.gc?.();
    const t0 = performance.now();
    const m = parseTiled(source, { file: label });
    ms.push(performance.now() - t0);
    walkable = m.grid.stats()[0].walkable;
  }
  ms.sort((a, b) => a - b);
  return { map: label, 'file MB': +(source.length / 1e6).toFixed(2), 'median ms': +ms[RUNS >> 1].toFixed(1), 'p95 ms': +ms[Math.min(RUNS - 1, Math.floor(RUNS * 0.95))].toFixed(1), 'min ms': +ms[0].toFixed(1), 'first load ms': +cold.toFixed(1), walkable };
}

console.log(`\nTiled loader: ${N} x ${N}, two ${N * N}-tile layers, ${RUNS} runs (target: zlib under 300 ms)`);
console.table([time('tmj base64+zlib', zlibTmj), time('tmx base64+zlib', zlibTmx), time('tmj csv array', csvTmj)]);
