/**
 * Maps as Tiled writes them: object templates (.tx, .tj), list properties, property types this
 * loader does not know, layer offsets, a map saved as .json with its layers first, and Tiled's
 * own template-based example (Sticker Knight, public domain).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseTiled, parseTiledAsync, type TiledMap } from '../src/loaders/index.js';
import { loadTiled } from '../src/loaders/node.js';
import { runCli } from './helpers-cli.js';

const F = fileURLToPath(new URL('./fixtures/loaders/', import.meta.url));
const readFile = (p: string) => readFileSync(p);
const load = (name: string, options = {}) => parseTiled(readFileSync(F + name), { file: F + name, readFile, ...options });

function picture(m: TiledMap): string[] {
  const rows: string[] = [];
  for (let y = 0; y < m.grid.height; y++) {
    let r = '';
    for (let x = 0; x < m.grid.width; x++) r += m.grid.isWalkable(x, y) ? '.' : '#';
    rows.push(r);
  }
  return rows;
}

const run = runCli;

const TEMPLATED = [
  '........',
  '.##...#.', // wall.tx 32 x 16; pillar.tx polygon
  '........',
  '........',
  '.#...#..', // crate.tj tile object (hangs from its bottom-left); a wall whose instance narrows it to 16
  '.......#', // a crate whose instance overrides a property
];

test('template objects take their shape, type and properties from .tx and .tj files, shifted by layer and group offsets', async () => {
  const m = load('templated.tmx');
  assert.deepEqual(picture(m), TEMPLATED);
  const objects = m.properties.layers.find((l) => l.name === 'objects')!.objects!;
  assert.deepEqual(objects.map((o) => [o.id, o.type, o.width]), [[1, 'wall', 32], [2, 'wall', 16], [3, 'obstacle', 16], [4, 'obstacle', 0], [5, 'obstacle', 16]]);
  // The template's gid 2 counts in its own tileset (firstgid 1); the map has that tileset at 5.
  assert.equal(objects[2].gid, 6);
  assert.equal(objects[2].properties.get('weight')!.value, 5);
  assert.equal(objects[4].properties.get('weight')!.value, 9);
  // The same through parseTiledAsync (files fetched first) and the Node file loader.
  assert.deepEqual(picture(await parseTiledAsync(readFileSync(F + 'templated.tmx'), { file: F + 'templated.tmx', readFile: async (p) => readFileSync(p) })), TEMPLATED);
  assert.deepEqual(picture(await loadTiled(F + 'templated.tmx')), TEMPLATED);
  const r = await run('info', F + 'templated.tmx');
  assert.equal(r.code, 0, r.err.join('\n'));
});

test('each template file is read once, however many objects use it', () => {
  const reads = new Map<string, number>();
  parseTiled(readFileSync(F + 'templated.tmx'), { file: F + 'templated.tmx', readFile: (p) => (reads.set(p, (reads.get(p) ?? 0) + 1), readFileSync(p)) });
  assert.deepEqual([...reads.values()], [1, 1, 1, 1]);
});

test('list properties (Tiled 1.11) read as arrays of values, in XML and JSON; unknown types load with a warning', () => {
  for (const name of ['lists.tmx', 'lists.tmj']) {
    const m = load(name);
    const spawns = m.properties.map.get('spawns')!;
    assert.equal(spawns.type, 'list');
    const [n, s, nested, point] = spawns.value as unknown[];
    assert.equal(n, 3);
    assert.equal(s, 'north gate');
    assert.deepEqual(nested, [true]);
    assert.equal((point as Map<string, { value: unknown }>).get('x')!.value, 4);
    assert.equal(m.properties.map.has('future'), false);
    assert.ok(m.warnings.some((w) => w.includes('"future"') && w.includes('unknown property type "vector2" skipped')), name);
  }
});

test('a Tiled map saved as .json with its layers first is read as a Tiled map, by the CLI too', async () => {
  const m = load('layers-first.json');
  assert.equal(m.orientation, 'staggered');
  assert.equal(m.movement, 'staggered-even-q');
  assert.equal(m.grid.stats()[0].blocked, 1);
  const r = await run('info', F + 'layers-first.json');
  assert.equal(r.code, 0, r.err.join('\n'));
  assert.match(r.out.join('\n'), /tiled staggered/);
});

test('Sticker Knight: every templated object resolves (tiles from the template\'s tileset), its blocks block', async () => {
  const m = load('sticker-knight/sandbox.tmx', { mapping: { collisionLayerNames: ['game'] } });
  const game = m.properties.layers.find((l) => l.name === 'game')!.objects!;
  assert.equal(game.length, 9);
  for (const o of game) assert.ok(o.gid > 0 && o.width > 0 && o.height > 0, `object ${o.id}`);
  const block = game.find((o) => o.id === 111)!;
  assert.deepEqual([block.name, block.gid, block.width, block.properties.get('bodyType')!.value], ['block', 44, 96, 'dynamic']);
  // The block at (594, 571), 96 px, hanging from its bottom-left corner: cells x 18-21, y 14-17.
  assert.equal(m.grid.isWalkable(19, 16), false);
  assert.equal(m.grid.isWalkable(23, 16), true);
  assert.ok(!m.warnings.some((w) => w.includes('template')));
  const r = await run('info', F + 'sticker-knight/sandbox.tmx');
  assert.equal(r.code, 0, r.err.join('\n'));
});

test("Tiled's first JSON format: properties as objects with propertytypes, tileproperties by tile id", () => {
  const m = load('legacy-v1.json');
  assert.equal(m.properties.map.get('navigationLayers')!.value, 1);
  assert.equal(m.properties.layers[1].objects![0].properties.get('hp')!.value, 12);
  assert.deepEqual(picture(m), ['.#.']);
  assert.equal(m.properties.tiles.get(2)!.get('slowMultiplier')!.value, 2);
});
