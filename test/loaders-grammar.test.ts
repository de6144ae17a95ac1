/**
 * The loaders' one grammar: `parseX(textOrBytes, options)` in tilenav/loaders returns
 * `{ grid, warnings, ...extras }`; under Node `loadX(path, options)` is `parseX` on the file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NavGrid, TilenavError } from '../src/index.js';
import * as core from '../src/loaders/index.js';
import * as node from '../src/loaders/node-index.js';
import { fixture, movingAi } from './fixtures.js';

const { formatBinaryGrid, formatTextGrid, parseBinaryGrid, parseLdtk, parseMovingAiMap, parsePolygonConfig, parseScenario, parseTextGrid, parseTiled } = core;
const { loadBinaryGrid, loadLdtk, loadMovingAiMap, loadPolygonConfig, loadScenario, loadTextGrid, loadTiled } = node;

const ISLAND = fixture('tiled/tiled-examples/rpg/island.tmx');
const ROOM = movingAi('room-100-10.map');
const LDTK = fixture('ldtk/SeparateLevelFiles.ldtk');   // its levels saved apart, in .ldtkl files beside it
const POLYGON = JSON.stringify({ cellSize: 0.5, areas: [{ name: 'hall', polygon: [[0, 0], [6, 0], [6, 3], [0, 3]] }], obstacles: [{ polygon: [[2, 1], [3, 1], [3, 2]] }] });

/** A folder with one file of each format this test writes itself: a text grid, a polygon config and a binary grid. */
function files(): { dir: string; txt: string; json: string; tnav: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tilenav-grammar-'));
  const grid = parseMovingAiMap(readFileSync(ROOM, 'utf8')).grid;
  const txt = join(dir, 'room.txt');
  writeFileSync(txt, formatTextGrid(grid, { params: { extra: [['agentRadius', 0.3]] } }));
  const json = join(dir, 'hall.json');
  writeFileSync(json, POLYGON);
  const tnav = join(dir, 'room.tnav');
  writeFileSync(tnav, new Uint8Array(formatBinaryGrid(grid)));
  return { dir, txt, json, tnav };
}

function sameGrid(a: NavGrid, b: NavGrid, what: string): void {
  assert.ok(a instanceof NavGrid && b instanceof NavGrid, what);
  assert.deepEqual([a.width, a.height, a.layers.length], [b.width, b.height, b.layers.length], what);
  assert.deepEqual(a.projection.spec, b.projection.spec, what);
  a.layers.forEach((l, k) => {
    assert.deepEqual(l.walkable, b.layers[k].walkable, `${what}: walkable of layer ${k}`);
    assert.deepEqual(l.cost, b.layers[k].cost, `${what}: cost of layer ${k}`);
  });
}

test('every parseX returns { grid, warnings } with its extras beside them', () => {
  const room = readFileSync(ROOM, 'utf8');
  const grid = parseMovingAiMap(room).grid;
  const results: [string, { grid: unknown; warnings: unknown }][] = [
    ['parseMovingAiMap', parseMovingAiMap(room)],
    ['parseTextGrid', parseTextGrid(formatTextGrid(grid))],
    ['parsePolygonConfig', parsePolygonConfig(POLYGON)],
    ['parseBinaryGrid', parseBinaryGrid(formatBinaryGrid(grid))],
    ['parseTiled', parseTiled(readFileSync(ISLAND), { file: ISLAND, readFile: (p) => readFileSync(p) })],
    ['parseLdtk', parseLdtk(readFileSync(LDTK), { file: LDTK, readFile: (p) => readFileSync(p) })],
  ];
  for (const [name, r] of results) {
    assert.ok(r.grid instanceof NavGrid, `${name}: grid`);
    assert.ok(Array.isArray(r.warnings) && r.warnings.every((w) => typeof w === 'string'), `${name}: warnings`);
  }
  assert.deepEqual(results.map(([, r]) => (r.warnings as string[]).length > 0), [false, false, false, false, true, false], 'only the island warns (nothing in it blocks)');
  assert.deepEqual(parseTextGrid(formatTextGrid(grid, { params: { extra: [['agentRadius', 0.3]] } })).params.extra, [['agentRadius', 0.3]]);
  assert.equal(parsePolygonConfig(POLYGON).config.areas[0].name, 'hall');
});

test('under Node every format with a parseX has a loadX, and the browser entry has no loadX', () => {
  const parsers = Object.keys(core).filter((k) => /^parse[A-Z]/.test(k) && !k.endsWith('Async'));
  assert.deepEqual(parsers.sort(), ['parseBinaryGrid', 'parseLdtk', 'parseMovingAiMap', 'parsePolygonConfig', 'parseScenario', 'parseTextGrid', 'parseTiled']);
  for (const p of parsers) assert.equal(typeof (node as Record<string, unknown>)[p.replace(/^parse/, 'load')], 'function', p);
  assert.deepEqual(Object.keys(core).filter((k) => /^load[A-Z]/.test(k)), []);
});

test('loadX(path) gives what parseX gives on the file, warnings and extras included', async () => {
  const f = files();
  try {
    const text = (p: string) => readFileSync(p, 'utf8');
    const ai = await loadMovingAiMap(ROOM);
    sameGrid(ai.grid, parseMovingAiMap(text(ROOM)).grid, 'movingai');
    assert.deepEqual(ai.warnings, []);
    assert.deepEqual(await loadScenario(ROOM + '.scen'), parseScenario(text(ROOM + '.scen')));
    const txt = await loadTextGrid(f.txt);
    sameGrid(txt.grid, parseTextGrid(text(f.txt)).grid, 'txt');
    assert.deepEqual(txt.params, parseTextGrid(text(f.txt)).params);
    const poly = await loadPolygonConfig(f.json);
    sameGrid(poly.grid, parsePolygonConfig(POLYGON).grid, 'polygon');
    assert.deepEqual(poly.config, parsePolygonConfig(POLYGON).config);
    assert.notEqual(poly.setAreaAvailable('hall', false), null, 'the loaded config still opens and closes its areas');
    assert.equal(poly.grid.stats()[0].walkable, 0);
    const bin = await loadBinaryGrid(f.tnav);
    sameGrid(bin.grid, ai.grid, 'binary');
    const island = await loadTiled(ISLAND);
    const parsed = parseTiled(readFileSync(ISLAND), { file: ISLAND, readFile: (p) => readFileSync(p) });
    sameGrid(island.grid, parsed.grid, 'tiled');
    assert.deepEqual(island.warnings, parsed.warnings);
    assert.ok(island.warnings.length > 0);
    assert.equal(island.movement, parsed.movement);
    const project = await loadLdtk(LDTK);
    const read = parseLdtk(readFileSync(LDTK), { file: LDTK, readFile: (p) => readFileSync(p) });
    sameGrid(project.grid, read.grid, 'ldtk');
    assert.equal(project.grid, project.levels[0].grid, 'no stitched world: the first level');
    assert.deepEqual(project.levels.map((l) => l.name), read.levels.map((l) => l.name));
    assert.deepEqual(project.warnings, read.warnings);
  } finally {
    rmSync(f.dir, { recursive: true, force: true });
  }
});

test('loadX names the file in its errors and honours maxFileBytes; a parser option passes through', async () => {
  const f = files();
  try {
    const broken = join(f.dir, 'broken.map');
    writeFileSync(broken, 'type octile\nheight 2\nwidth 2\nmap\n..\n.x\n');
    await assert.rejects(loadMovingAiMap(broken), (e: unknown) => e instanceof TilenavError && e.file === broken && e.line === 6);
    await assert.rejects(loadMovingAiMap(ROOM, { maxCells: 100 }), /exceeds maxCells 100/);
    const loads: [string, (p: string, o: { maxFileBytes: number }) => Promise<unknown>][] = [
      [ROOM, loadMovingAiMap],
      [ROOM + '.scen', loadScenario],
      [f.txt, loadTextGrid],
      [f.json, loadPolygonConfig],
      [f.tnav, loadBinaryGrid],
      [ISLAND, loadTiled],
      [LDTK, loadLdtk],
    ];
    for (const [path, load] of loads) {
      await assert.rejects(load(path, { maxFileBytes: 10 }), (e: unknown) => e instanceof TilenavError && e.file === path && /over the 10-byte limit \(maxFileBytes\)/.test(e.message), `${load.name}`);
    }
    const missing = join(f.dir, 'nope.txt');
    await assert.rejects(loadTextGrid(missing), (e: unknown) => e instanceof TilenavError && e.file === missing && /ENOENT/.test(e.message));
    const latin1 = join(f.dir, 'latin1.map');
    writeFileSync(latin1, Buffer.from([0x74, 0xe9, 0x0a]));
    await assert.rejects(loadMovingAiMap(latin1), (e: unknown) => e instanceof TilenavError && e.file === latin1 && /not valid UTF-8/.test(e.message));
  } finally {
    rmSync(f.dir, { recursive: true, force: true });
  }
});

test("a file's contents where a path belongs, and a path where contents belong, each name the other function", async () => {
  const room = readFileSync(ROOM, 'utf8');
  await assert.rejects(loadMovingAiMap(room), (e: unknown) => e instanceof TilenavError && e.element === 'path' && /looks like a file's contents.*call parseMovingAiMap with the contents/.test(e.message));
  await assert.rejects(loadPolygonConfig(POLYGON), /path: looks like a file's contents.*parsePolygonConfig/);
  await assert.rejects(loadTiled('<map orientation="orthogonal"/>'), /path: looks like a file's contents.*parseTiled/);
  await assert.rejects(loadLdtk(readFileSync(LDTK, 'utf8')), /path: looks like a file's contents.*parseLdtk/);
  await assert.rejects(loadTextGrid(42 as never), /path: expected a file path, got 42/);
  await assert.rejects(loadBinaryGrid(ROOM, 'big' as never), /options: expected an options object/);
  assert.throws(() => parseTiled('maps/a.tmx'), /looks like a file path; .*loadTiled\(path\)/);
  assert.throws(() => parsePolygonConfig('levels/hall.json'), /looks like a file path; .*loadPolygonConfig\(path\)/);
  assert.throws(() => parseLdtk('levels/world.ldtk'), /looks like a file path; .*loadLdtk reads a project by its path/);
});
