import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { findPath, TilenavError, type NavGrid } from '../src/index.js';
import { applyRulesToTileset, checkTiledRules, formatTiledRules, GID_FLIP_D, GID_FLIP_H, GID_FLIP_V, parseTiled, parseTiledAsync, type TiledRules } from '../src/loaders/index.js';
import { fixture } from './fixtures.js';
import { runCli } from './helpers-cli.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ISLAND = fixture('tiled/tiled-examples/rpg/island.tmx');
const TILESET = fixture('tiled/tiled-examples/rpg/beach_tileset.tsx');
const RULES_FILE = join(ROOT, 'examples/island.rules.json');
const RULES = readFileSync(RULES_FILE, 'utf8');
const read = (p: string) => readFileSync(p);
const island = (extra: Parameters<typeof parseTiled>[1] = {}) => parseTiled(read(ISLAND), { file: ISLAND, readFile: read, ...extra });

/** The island's water, read from the tileset image: tiles whose pixels are all sea (foam edges included). */
const WATER = new Set(Object.entries(JSON.parse(RULES).tilesets.beach_tileset).filter(([, r]) => (r as { walkable: boolean }).walkable === false).map(([id]) => Number(id)));

/** The local tile ids (flip bits dropped, -1 empty) per cell of a layer of island.tmx, decoded here from its base64 zlib data. */
function layerIds(name: string): Int32Array {
  const m = new RegExp(`<layer [^>]*name="${name}"[^>]*>\\s*<data encoding="base64" compression="zlib">\\s*([^<]*?)\\s*</data>`).exec(readFileSync(ISLAND, 'utf8'))!;
  const raw = inflateSync(Buffer.from(m[1], 'base64'));
  const out = new Int32Array(raw.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = (raw.readUInt32LE(i * 4) & 0x0fffffff) - 1;
  return out;
}
const W = 58;
const ground = layerIds('Ground');
const fringe = layerIds('Fringe');
const BRIDGES = new Set(Object.entries(JSON.parse(RULES).tilesets.beach_tileset).filter(([, r]) => (r as { walkable: boolean }).walkable === true).map(([id]) => Number(id)));

test('island.tmx has nothing that says what blocks: all walkable, with a warning that says how to pick blocking tiles', () => {
  const m = island();
  assert.equal(m.grid.stats()[0].blocked, 0);
  const w = m.warnings.find((x) => x.includes('says which tiles block'));
  assert.ok(w, m.warnings.join('; '));
  assert.match(w, /rules file \(the rules option, or --rules FILE\).*bool property collides set to true/);
  assert.doesNotMatch(w, /seed|§/);
});

test('examples/island.rules.json blocks the sea and the island\'s pools, and leaves the beach and the piers walkable', () => {
  const m = island({ rules: RULES, rulesFile: RULES_FILE });
  assert.deepEqual(m.warnings, []);
  const s = m.grid.stats()[0];
  assert.ok(s.blocked > 1500 && s.walkable > 500, JSON.stringify(s));
  // The top row is open sea; a cell of the island's middle is sand; the pier at x 21-23 runs out over the sea.
  for (let x = 0; x < m.grid.width; x++) assert.equal(m.grid.isWalkable(x, 0), false, `sea (${x}, 0)`);
  assert.equal(m.grid.isWalkable(40, 20), true);
  for (let y = 13; y <= 17; y++) for (let x = 21; x <= 23; x++) assert.equal(m.grid.isWalkable(x, y), true, `pier (${x}, ${y})`);
  assert.equal(m.grid.isWalkable(20, 14), false, 'the sea beside the pier');
  assert.equal(m.grid.isWalkable(24, 14), false, 'the sea beside the pier');
});

test('island with the rules: every water tile not under a pier is blocked, every other cell walkable', () => {
  const m = island({ rules: RULES, rulesFile: RULES_FILE });
  const plain = island();
  assert.equal(m.grid.size, ground.length);
  let water = 0;
  let piers = 0;
  for (let i = 0; i < m.grid.size; i++) {
    const pier = BRIDGES.has(fringe[i]);
    if (pier) piers++;
    const expect = pier || !WATER.has(ground[i]);
    if (!expect) water++;
    assert.equal(m.grid.layers[0].walkable[i] === 1, expect, `cell ${i % m.grid.width}, ${(i / m.grid.width) | 0}: tile ${ground[i]}${pier ? ' under a pier' : ''}`);
  }
  assert.ok(water > 1500, `${water} water cells`);
  assert.equal(piers, 30);
  assert.equal(plain.grid.stats()[0].blocked, 0);
});

test('a path from the beach into the sea is refused (invalid goal); paths across the island touch no water', () => {
  const m = island({ rules: RULES, rulesFile: RULES_FILE });
  assert.equal(findPath(m.grid, 40, 20, 40, 2, { movement: m.movement }).status, 'invalid-goal');
  // West lobe to east shore: the straight line crosses the pools in between.
  const r = findPath(m.grid, 10, 25, 40, 20, { movement: m.movement });
  assert.equal(r.status, 'found');
  for (let k = 0; k < r.cells.length; k += 2) {
    const id = ground[r.cells[k + 1] * W + r.cells[k]];
    assert.ok(!WATER.has(id), `(${r.cells[k]}, ${r.cells[k + 1]}) is water tile ${id}`);
  }
  // The pier's far end, out at sea, is reached along the pier.
  const pier = findPath(m.grid, 22, 18, 22, 13, { movement: m.movement });
  assert.equal(pier.status, 'found');
  assert.equal(pier.cost, 5);
});

test('CLI: path with --rules avoids the water; info counts blocked cells; a bad rules file exits 2 naming it', async () => {
  const p = await runCli('path', ISLAND, '--from', '10,25', '--to', '40,20', '--rules', RULES_FILE, '--json');
  assert.equal(p.code, 0, p.err.join('\n'));
  const r = JSON.parse(p.out[0]);
  assert.equal(r.status, 'found');
  const cells: [number, number][] = r.path ?? r.cells;
  assert.ok(Array.isArray(cells) && cells.length > 10, p.out[0].slice(0, 200));
  for (const c of cells) {
    const [x, y] = Array.isArray(c) ? c : [(c as { x: number }).x, (c as { y: number }).y];
    assert.ok(!WATER.has(ground[y * W + x]), `(${x}, ${y}) is water`);
  }
  const info = await runCli('info', ISLAND, '--rules', RULES_FILE, '--json');
  assert.equal(info.code, 0);
  const j = JSON.parse(info.out[0]);
  assert.ok(j.layers[0].blocked > 1500);
  assert.deepEqual(j.warnings, []);
  const sea = await runCli('path', ISLAND, '--from', '40,20', '--to', '40,2', '--rules', RULES_FILE, '--json');
  assert.equal(JSON.parse(sea.out[0]).status, 'invalid-goal');

  const bad = await runCli('info', ISLAND, '--rules', ISLAND);
  assert.equal(bad.code, 2);
  assert.equal(bad.err.length, 1);
  assert.match(bad.err[0], /island\.tmx(:1)?: not valid JSON/);
  const missing = await runCli('info', ISLAND, '--rules', join(ROOT, 'examples/nope.rules.json'));
  assert.equal(missing.code, 2);
  assert.match(missing.err[0], /nope\.rules\.json.*cannot read/);
  const other = await runCli('info', join(ROOT, 'examples/arena.map'), '--rules', RULES_FILE);
  assert.equal(other.code, 2);
  assert.match(other.err[0], /--rules: collision rules apply to Tiled maps/);
  for (const cmd of ['info', 'path', 'render', 'scen', 'simulate', 'convert']) {
    const help = await runCli(cmd, '--help');
    assert.ok(help.out.some((l) => l.includes('--rules FILE')), `${cmd} --help`);
  }
});

test('the built CLI: node dist/cli/main.js path ... --rules examples/island.rules.json avoids the water', { timeout: 120_000 }, () => {
  const build = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, build.stdout + build.stderr);
  const r = spawnSync(process.execPath, ['dist/cli/main.js', 'path', 'test/fixtures/tiled/tiled-examples/rpg/island.tmx', '--from', '10,25', '--to', '40,20', '--rules', 'examples/island.rules.json'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /status: found/);
  const cells = /path: (.*)/.exec(r.stdout)![1].split(' ').map((c) => c.split(',').map(Number));
  for (const [x, y] of cells) assert.ok(!WATER.has(ground[y * W + x]), `(${x}, ${y}) is water`);
});

// ---- precedence, flips and checks on small in-memory maps

const T = 16;
function small(layers: { name: string; data: number[]; properties?: unknown[]; group?: string }[], tileProps: Record<number, unknown[]> = {}): string {
  const tiles = Object.entries(tileProps).map(([id, properties]) => ({ id: Number(id), properties }));
  const out: unknown[] = [];
  for (const l of layers) {
    const layer = { type: 'tilelayer', name: l.name, width: 4, height: 1, data: l.data, properties: l.properties ?? [] };
    out.push(l.group === undefined ? layer : { type: 'group', name: l.group, layers: [layer] });
  }
  return JSON.stringify({ type: 'map', orientation: 'orthogonal', width: 4, height: 1, tilewidth: T, tileheight: T, infinite: false, tilesets: [{ firstgid: 1, name: 'ts', tilewidth: T, tileheight: T, tilecount: 8, tiles }], layers: out });
}
const row = (g: NavGrid) => [...g.layers[0].walkable].map((w) => (w ? '.' : '#')).join('');
const costs = (g: NavGrid) => [...g.layers[0].cost].map((c) => Math.round(c * 100) / 100);
const terrains = (g: NavGrid) => [...g.layers[0].terrain].map((t) => g.terrain.get(t).name);

test('a tile rule matches its tile on every tile layer, whatever its flip bits', () => {
  const flips = [1, (1 | GID_FLIP_H) >>> 0, (1 | GID_FLIP_V | GID_FLIP_D) >>> 0, 2];
  const m = parseTiled(small([{ name: 'a', data: [0, 0, 0, 0] }, { name: 'b', data: flips }]), { rules: { tilesets: { ts: { '0': { walkable: false } } } } });
  assert.equal(row(m.grid), '###.');
  const empty = parseTiled(small([{ name: 'a', data: [1, 0, 0, 0] }]), { rules: { tilesets: { ts: { '1': { walkable: false } } } } });
  assert.equal(row(empty.grid), '....');
  assert.ok(empty.warnings.some((w) => w.includes('nothing blocks: the rules in <rules> block no cell')), empty.warnings.join('; '));
});

test('precedence: blocking wins; a rule\'s terrain and cost replace the map\'s; a tile rule beats a layer rule', () => {
  const props = { 0: [{ name: 'collides', type: 'bool', value: true }], 1: [{ name: 'terrainType', type: 'string', value: 'Mud' }], 2: [{ name: 'terrainType', type: 'string', value: 'Mud' }] };
  // The map blocks tile 0; a rule calls it a bridge on the same layer: the map's blocking wins.
  const a = parseTiled(small([{ name: 'L', data: [1, 2, 3, 4] }], props), { rules: { tilesets: { ts: { '0': { walkable: true } } } } });
  assert.equal(row(a.grid), '#...');
  assert.deepEqual(terrains(a.grid), ['Ground', 'Mud', 'Mud', 'Ground']);
  // Layer rule Sand on every tile of L; a tile rule Snow on tile 1 (map: Mud) wins there; tile 2 (map: Mud) takes the layer's Sand.
  const b = parseTiled(small([{ name: 'L', data: [1, 2, 3, 4] }], props), { rules: { tilesets: { ts: { '1': { terrain: 'Snow' }, '3': { cost: 4 } } }, layers: { L: { terrain: 'Sand' } } } });
  assert.deepEqual(terrains(b.grid), ['Sand', 'Snow', 'Sand', 'Ground']);
  assert.deepEqual(costs(b.grid), [1.2, 1.3, 1.2, 4]);
  // A layer that blocks beats a bridge tile on it; the layer's collides: false does not stop a tile rule that blocks.
  const c = parseTiled(small([{ name: 'L', data: [5, 6, 0, 0], properties: [{ name: 'collides', type: 'bool', value: false }] }, { name: 'M', data: [0, 0, 7, 0] }]), { rules: { tilesets: { ts: { '4': { walkable: false }, '6': { walkable: true } } }, layers: { M: { walkable: false } } } });
  assert.equal(row(c.grid), '#.#.');
  // A layer rule on a group covers the layers in it.
  const d = parseTiled(small([{ name: 'inner', group: 'Walls', data: [0, 8, 8, 0] }]), { rules: { layers: { Walls: { walkable: false } } } });
  assert.equal(row(d.grid), '.##.');
});

test('bridges: a bridge tile clears what the layers below block, not what a layer above blocks', () => {
  const rules: TiledRules = { tilesets: { ts: { '0': { walkable: false }, '1': { walkable: true } } } };
  const m = parseTiled(small([{ name: 'sea', data: [1, 1, 1, 1] }, { name: 'pier', data: [2, 2, 0, 0] }, { name: 'rocks', data: [0, 1, 0, 0] }]), { rules });
  assert.equal(row(m.grid), '.###');
  const layer = parseTiled(small([{ name: 'sea', data: [1, 1, 1, 1] }, { name: 'deck', data: [0, 3, 3, 0] }]), { rules: { tilesets: { ts: { '0': { walkable: false } } }, layers: { deck: { walkable: true } } } });
  assert.equal(row(layer.grid), '#..#');
});

test('rules are checked: each error names the rules file and the key at fault', () => {
  const map = small([{ name: 'L', data: [1, 2, 3, 4] }]);
  const bad = (rules: unknown, re: RegExp) => {
    try {
      parseTiled(map, { rules: rules as TiledRules, rulesFile: 'level.rules.json' });
    } catch (e) {
      assert.ok(e instanceof TilenavError, String(e));
      assert.match(e.message, re);
      assert.equal(e.file, 'level.rules.json');
      return;
    }
    assert.fail(`accepted ${JSON.stringify(rules)}`);
  };
  bad('{\n  "tilesets": {\n    "ts": { "1": { "walkable": false }, }\n  }\n}', /^level\.rules\.json:3: not valid JSON/);
  bad('', /the rules file is empty/);
  bad('[]', /expected a JSON object/);
  bad({ tileset: {} }, /: tileset: unknown key "tileset"; expected "version", "tilesets" or "layers"/);
  bad({ version: 2 }, /version: this reader knows rules version 1/);
  bad({ tilesets: { ts: { x1: { walkable: false } } } }, /tilesets\["ts"\]\["x1"\]: a tile id is the tile's local id/);
  bad({ tilesets: { ts: { '-1': { walkable: false } } } }, /\["-1"\]: a tile id/);
  bad({ tilesets: { ts: { '1': {} } } }, /\["1"\]: the rule is empty/);
  bad({ tilesets: { ts: { '1': { walkable: 'no' } } } }, /\["1"\]\.walkable: expected true or false/);
  bad({ tilesets: { ts: { '1': { blocks: true } } } }, /\["1"\]\.blocks: unknown rule field "blocks"; expected walkable, terrain, cost/);
  for (const cost of [0, -1, NaN, Infinity, 1e39, 1e-39, '2'] as unknown[]) bad({ tilesets: { ts: { '1': { cost } } } }, /\["1"\]\.cost: expected a cost > 0 that a 32-bit float holds/);
  bad({ tilesets: { ts: { '1': { terrain: 'Swamp' } } } }, /tilesets\["ts"\]\["1"\]\.terrain: unknown terrain "Swamp"; the terrain names are Ground, Grass, Sand, Mud, Water/);
  bad({ layers: { L: { terrain: 'Swamp' } } }, /layers\["L"\]\.terrain: unknown terrain "Swamp"/);
  bad({ layers: { L: 3 } }, /layers\["L"\]: expected a rule such as/);
});

test('a tileset or layer name the map does not have, or a tile id past the tileset, is a warning naming what the map has', () => {
  const m = parseTiled(small([{ name: 'Ground', data: [1, 2, 3, 4] }]), { rules: { tilesets: { beach: { '1': { walkable: false } }, ts: { '99': { walkable: false }, '0': { walkable: false } } }, layers: { Walls: { walkable: false } } }, rulesFile: 'r.json' });
  assert.equal(row(m.grid), '#...');
  assert.ok(m.warnings.includes('r.json: the map has no tileset named "beach", so its rules match nothing; the map\'s tilesets are "ts"'), m.warnings.join('\n'));
  assert.ok(m.warnings.includes('r.json: the map has no layer named "Walls", so its rule matches nothing; the map\'s layers are "Ground"'), m.warnings.join('\n'));
  assert.ok(m.warnings.some((w) => w.startsWith('r.json: tileset "ts" has 8 tiles (ids 0 to 7); the rule for tile 99 matches nothing')), m.warnings.join('\n'));
});

test('formatTiledRules writes a stable file that reads back to the same rules', () => {
  const rules: TiledRules = { tilesets: { b: { '10': { cost: 2.5 }, '2': { walkable: false, terrain: 'Water' } } }, layers: { Deck: { walkable: true } } };
  const text = formatTiledRules(rules);
  assert.equal(text, '{\n  "version": 1,\n  "tilesets": {\n    "b": {\n      "2": { "walkable": false, "terrain": "Water" },\n      "10": { "cost": 2.5 }\n    }\n  },\n  "layers": {\n    "Deck": { "walkable": true }\n  }\n}\n');
  assert.deepEqual(checkTiledRules(text), checkTiledRules(rules));
  assert.equal(formatTiledRules(text), text);
  assert.equal(formatTiledRules(RULES), RULES);
  assert.throws(() => formatTiledRules({ layers: { x: { cost: 0 } } }, 'mine.json'), /^TilenavError: mine\.json: layers\["x"\]\.cost/);
});

test('applyRulesToTileset: the island with the written .tsx and no rules gives the same grid as the rules', () => {
  const tsx = readFileSync(TILESET, 'utf8');
  const written = applyRulesToTileset(tsx, 'beach_tileset', RULES, { file: TILESET });
  // Everything the file had is still there, animations included.
  assert.equal((written.match(/<animation>/g) ?? []).length, (tsx.match(/<animation>/g) ?? []).length);
  assert.match(written, /<tile id="38">\n  <properties>\n   <property name="collides" type="bool" value="true"\/>\n  <\/properties>\n  <animation>/);
  const withRules = island({ rules: RULES });
  const exported = parseTiled(read(ISLAND), { file: ISLAND, readFile: (p) => (p === TILESET ? written : read(p)) });
  assert.deepEqual(exported.warnings, []);
  assert.deepEqual([...exported.grid.layers[0].walkable], [...withRules.grid.layers[0].walkable]);
  assert.throws(() => applyRulesToTileset(tsx, 'beach', RULES, { file: TILESET }), /beach_tileset\.tsx: the tileset is named "beach_tileset", not "beach"/);
  // Written twice, the properties are replaced, not repeated.
  assert.equal(applyRulesToTileset(written, 'beach_tileset', RULES, { file: TILESET }), written);
});

test('applyRulesToTileset: terrain, cost, walls and bridges round-trip through .tsx and .tsj, other properties kept', () => {
  const rules: TiledRules = { tilesets: { ts: { '0': { walkable: false }, '1': { terrain: 'Sand', cost: 3 }, '2': { walkable: true }, '3': { terrain: 'Mud' }, '5': { cost: 0.5 } } } };
  const tsx = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<tileset version="1.10" name="ts" tilewidth="16" tileheight="16" tilecount="8" columns="8">',
    ' <image source="ts.png" width="128" height="16"/>',
    ' <tile id="1">',
    '  <properties>',
    '   <property name="terrainType" value="Water"/>',
    '   <property name="note" value="keep &amp; me"/>',
    '   <property name="cfg" type="class" propertytype="C">',
    '    <properties>',
    '     <property name="cost" type="int" value="9"/>',
    '    </properties>',
    '   </property>',
    '  </properties>',
    ' </tile>',
    ' <tile id="3"/>',
    ' <tile id="5">',
    '  <objectgroup draworder="index">',
    '   <object id="1" x="0" y="0" width="1" height="1">',
    '    <properties>',
    '     <property name="cost" type="float" value="7"/>',
    '    </properties>',
    '   </object>',
    '  </objectgroup>',
    ' </tile>',
    '</tileset>',
    '',
  ].join('\n');
  const tsj = JSON.stringify({ type: 'tileset', name: 'ts', tilewidth: 16, tileheight: 16, tilecount: 8, columns: 8, tiles: [{ id: 1, properties: [{ name: 'terrainType', type: 'string', value: 'Water' }, { name: 'note', type: 'string', value: 'keep' }] }] });
  const mapOf = (source: string) => JSON.stringify({ type: 'map', orientation: 'orthogonal', width: 6, height: 2, tilewidth: 16, tileheight: 16, infinite: false, tilesets: [{ firstgid: 1, source }], layers: [
    { type: 'tilelayer', name: 'low', width: 6, height: 2, data: [1, 1, 2, 4, 6, 7, 0, 0, 0, 0, 0, 0] },
    { type: 'tilelayer', name: 'high', width: 6, height: 2, data: [0, 3, 0, 0, 0, 0, 2, 0, 4, 6, 0, 0] },
  ] });
  for (const [name, text] of [['ts.tsx', tsx], ['ts.tsj', tsj]]) {
    const written = applyRulesToTileset(text, 'ts', rules, { file: name });
    const ruled = parseTiled(mapOf(name), { file: 'm.tmj', readFile: () => text, rules, mapping: { tileShapes: false } });
    const kept = parseTiled(mapOf(name), { file: 'm.tmj', readFile: () => written, mapping: { tileShapes: false } });
    for (const k of ['walkable', 'cost', 'terrain'] as const) assert.deepEqual([...kept.grid.layers[0][k]], [...ruled.grid.layers[0][k]], `${name} ${k}`);
    assert.deepEqual(terrains(kept.grid).slice(0, 6), ['Ground', 'Ground', 'Sand', 'Mud', 'Ground', 'Ground']);
    assert.deepEqual(costs(kept.grid).slice(0, 6), [1, 1, 3, 1.5, 0.5, 1]);
    assert.equal(row(kept.grid), '#...........');
    assert.deepEqual(kept.properties.tiles.get(2)?.get('note')?.value, name.endsWith('x') ? 'keep & me' : 'keep');
  }
  const written = applyRulesToTileset(tsx, 'ts', rules, { file: 'ts.tsx' });
  // The class member named cost and the collision object's cost are not the tile's: left as they were.
  assert.match(written, /<property name="cost" type="int" value="9"\/>/);
  assert.match(written, /<property name="cost" type="float" value="7"\/>/);
  assert.match(written, /<tile id="0">\n  <properties>\n   <property name="collides" type="bool" value="true"\/>/);
});

test('parseTiledAsync takes rules the same way', async () => {
  const m = await parseTiledAsync(readFileSync(ISLAND), { file: ISLAND, readFile: async (p) => readFileSync(p), rules: RULES });
  assert.deepEqual([...m.grid.layers[0].walkable], [...island({ rules: RULES }).grid.layers[0].walkable]);
  await assert.rejects(parseTiledAsync(readFileSync(ISLAND), { file: ISLAND, readFile: async (p) => readFileSync(p), rules: '{', rulesFile: 'x.json' }), /^TilenavError: x\.json:1: not valid JSON/);
});

test('map.tilesets: what a palette of rules needs: name, image, grid and the tiles the map uses', () => {
  const m = island();
  assert.equal(m.tilesets.length, 1);
  const ts = m.tilesets[0];
  assert.deepEqual({ ...ts, used: undefined }, { name: 'beach_tileset', firstgid: 1, tileCount: 936, columns: 36, tileWidth: 16, tileHeight: 16, margin: 0, spacing: 0, image: { source: TILESET.replace(/\.tsx$/, '.png'), width: 576, height: 416 }, file: TILESET, used: undefined });
  // Counted independently from the decoded layers: every non-empty cell of the three tile layers.
  const expect = new Map<number, number>();
  for (const id of [...ground, ...fringe, ...layerIds('Over')]) if (id >= 0) expect.set(id, (expect.get(id) ?? 0) + 1);
  assert.deepEqual(new Map([...ts.used].sort((a, b) => a[0] - b[0])), new Map([...expect].sort((a, b) => a[0] - b[0])));
  assert.equal(ts.used.get(148), 1875);
  const flipped = parseTiled(small([{ name: 'a', data: [(2 | GID_FLIP_H) >>> 0, 2, 0, 9] }]));
  assert.deepEqual([...flipped.tilesets[0].used], [[1, 2]]);
});
