/**
 * The LDtk loader on LDtk's own sample projects (test/fixtures/ldtk/, MIT): one file, levels saved
 * apart, Free and GridVania worlds; checked against counts taken here from the files' own JSON.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { PNG } from 'pngjs';
import { DEFAULT_TERRAINS, findPath, TilenavError, type NavGrid } from '../src/index.js';
import { DEFAULT_LDTK_MAPPING, parseLdtk, parseLdtkAsync, type LdtkEntityRef, type LdtkProject, type LdtkOptions } from '../src/loaders/index.js';
import { loadLdtk } from '../src/loaders/node.js';
import { fixture } from './fixtures.js';
import { refDistances } from './reference.js';
import { mulberry32 } from '../src/query/index.js';
import { runCli } from './helpers-cli.js';

const path = (name: string) => fixture(`ldtk/${name}`);
const readFile = (p: string) => readFileSync(p);
const load = (name: string, options: LdtkOptions = {}) => parseLdtk(readFileSync(path(name)), { file: path(name), readFile, ...options });

// ---- an independent reading of the JSON: what each level's cells should be ----------------------

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A level's layer instances, from the project or from its own file. */
function layersOf(projectPath: string, level: Json): Json[] {
  if (level.layerInstances !== null) return level.layerInstances;
  const dir = projectPath.slice(0, projectPath.lastIndexOf('/') + 1);
  return JSON.parse(readFileSync(dir + level.externalRelPath, 'utf8')).layerInstances;
}

/** What the default conventions make of one IntGrid value: block, open, a terrain's cost, or nothing. */
type Meaning = { walkable: 0 | 1 | -1; cost: number } | null;

/**
 * The documented conventions (DEFAULT_LDTK_MAPPING, DEFAULT_TERRAINS), read afresh: a value or its
 * group named like a wall blocks, one named like a floor opens, one named after a terrain takes its
 * cost (or blocks, for lava), and any other value of a layer named like a collision layer blocks.
 */
function meaningOf(layer: string, value: Json, groups: Json[]): Meaning {
  const names = [value.identifier, groups.find((g) => g.uid === value.groupUid)?.identifier].filter((n) => typeof n === 'string' && n !== '').map((n: string) => n.toLowerCase());
  const has = (list: readonly string[]) => names.some((n) => list.some((m) => m.toLowerCase() === n));
  if (has(DEFAULT_LDTK_MAPPING.blockingValues)) return { walkable: 0, cost: NaN };
  if (has(DEFAULT_LDTK_MAPPING.openValues)) return { walkable: 1, cost: NaN };
  const terrain = DEFAULT_TERRAINS.find((t) => names.includes(t.name.toLowerCase()));
  if (terrain !== undefined) return { walkable: terrain.walkable ? -1 : 0, cost: terrain.cost };
  if (DEFAULT_LDTK_MAPPING.collisionLayers.some((m) => m.toLowerCase() === layer.toLowerCase())) return { walkable: 0, cost: NaN };
  return null;
}

/** The project's nav cell size: the finest grid among IntGrid layers with a value that means something (else among all). */
function expectedCellSize(json: Json): number {
  const intGrids = json.defs.layers.filter((d: Json) => d.type === 'IntGrid');
  const meaningful = intGrids.filter((d: Json) => d.intGridValues.some((v: Json) => meaningOf(d.identifier, v, d.intGridValuesGroups ?? []) !== null));
  const from = meaningful.length > 0 ? meaningful : intGrids;
  return from.length > 0 ? Math.min(...from.map((d: Json) => d.gridSize)) : json.defaultGridSize;
}

/**
 * Per cell of a level's `cs`-pixel grid: walkable (1 or 0) and cost, from its IntGrid layers taken
 * from the bottom one up, each nav cell looking up every layer cell whose pixels overlap its own.
 */
function expectedCells(projectPath: string, level: Json, defs: Json[], cs: number): { walkable: Uint8Array; cost: Float64Array } {
  const w = Math.ceil(level.pxWid / cs);
  const h = Math.ceil(level.pxHei / cs);
  const walkable = new Uint8Array(w * h).fill(1);
  const cost = new Float64Array(w * h).fill(1);
  for (const li of [...layersOf(projectPath, level)].reverse()) {
    if (li.__type !== 'IntGrid') continue;
    const def = defs.find((d) => d.uid === li.layerDefUid);
    const meaning = new Map<number, Meaning>(def.intGridValues.map((v: Json) => [v.value, meaningOf(def.identifier, v, def.intGridValuesGroups ?? [])]));
    const g = li.__gridSize;
    const ox = li.__pxTotalOffsetX;
    const oy = li.__pxTotalOffsetY;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        // Layer cells cx with ox + cx * g < (x + 1) * cs and ox + (cx + 1) * g > x * cs.
        const cx0 = Math.max(0, Math.floor((x * cs - ox) / g));
        const cx1 = Math.min(li.__cWid - 1, Math.ceil(((x + 1) * cs - ox) / g) - 1);
        const cy0 = Math.max(0, Math.floor((y * cs - oy) / g));
        const cy1 = Math.min(li.__cHei - 1, Math.ceil(((y + 1) * cs - oy) / g) - 1);
        for (let cy = cy0; cy <= cy1; cy++) {
          for (let cx = cx0; cx <= cx1; cx++) {
            const m = meaning.get(li.intGridCsv[cy * li.__cWid + cx]);
            if (m === undefined || m === null) continue;
            if (m.cost === m.cost) cost[y * w + x] = m.cost;
            if (m.walkable >= 0) walkable[y * w + x] = m.walkable;
          }
        }
      }
    }
  }
  return { walkable, cost };
}

function allLevels(json: Json): Json[] {
  return json.levels.length > 0 ? json.levels : json.worlds.flatMap((w: Json) => w.levels);
}

function blocked(grid: NavGrid): number {
  return grid.stats()[0].blocked;
}

// ---- samples ---------------------------------------------------------------------------------------

/** Every project in the fixtures folder, and every level file beside them. */
const DIR = fixture('ldtk');
const PROJECTS = readdirSync(DIR).filter((f) => f.endsWith('.ldtk')).sort();
const LEVEL_FILES = readdirSync(DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ldtkl')).map((f) => f.split(sep).join('/')).sort();

test('every sample loads: each level blocks exactly the cells its IntGrid values block, and terrain values cost their terrain', () => {
  // LDtk ships 14 sample projects, one of them with its levels saved apart in 3 files.
  assert.equal(PROJECTS.length, 14);
  assert.equal(LEVEL_FILES.length, 3);
  const levelFilesRead = new Set<string>();
  let blockedTotal = 0;
  for (const name of PROJECTS) {
    const json = JSON.parse(readFileSync(path(name), 'utf8'));
    const p = parseLdtk(readFileSync(path(name)), { file: path(name), readFile: (f) => (levelFilesRead.add(f.slice(DIR.length + 1).split(sep).join('/')), readFileSync(f)) });
    const levels = allLevels(json);
    const cs = expectedCellSize(json);
    assert.equal(p.levels.length, levels.length, name);
    assert.equal(p.cellSize, cs, name);
    // Warnings speak only of values that mean nothing to navigation.
    for (const w of p.warnings) assert.match(w, /means? nothing to navigation/, `${name}: ${w}`);
    levels.forEach((raw: Json, k: number) => {
      const where = `${name} level ${raw.identifier}`;
      const level = p.levels[k];
      assert.equal(level.name, raw.identifier, where);
      const want = expectedCells(path(name), raw, json.defs.layers, cs);
      const L = level.grid.layers[0];
      assert.equal(level.grid.size, want.walkable.length, where);
      const walls = want.walkable.reduce((n, v) => n + (v === 0 ? 1 : 0), 0);
      assert.ok(walls > 0, `${where} has walls to check`);
      assert.equal(blocked(level.grid), walls, where);
      const wrong = want.walkable.findIndex((v, i) => L.walkable[i] !== v || Math.abs(L.cost[i] - want.cost[i]) > 1e-6);
      assert.equal(wrong, -1, `${where}: cell ${wrong} is walkable ${L.walkable[wrong]} cost ${L.cost[wrong]}, expected ${want.walkable[wrong]} cost ${want.cost[wrong]}`);
      blockedTotal += walls;
    });
  }
  assert.deepEqual([...levelFilesRead].sort(), LEVEL_FILES, 'every level file was read by its project');
  assert.ok(blockedTotal > 10000);
});

test('levels saved apart (.ldtkl) load through readFile, through parseLdtkAsync and through loadLdtk alike', async () => {
  const sync = load('SeparateLevelFiles.ldtk');
  const text = readFileSync(path('SeparateLevelFiles.ldtk'), 'utf8');
  const read: string[] = [];
  const viaAsync = await parseLdtkAsync(text, { file: path('SeparateLevelFiles.ldtk'), readFile: async (p) => (read.push(p), readFileSync(p)) });
  const viaNode = await loadLdtk(path('SeparateLevelFiles.ldtk'));
  assert.deepEqual(read.map((p) => p.slice(p.lastIndexOf('/') + 1)), ['World_Level_0.ldtkl', 'World_Level_1.ldtkl', 'World_Level_2.ldtkl']);
  for (const p of [sync, viaAsync, viaNode]) {
    assert.deepEqual(p.levels.map((l) => [l.name, l.grid.width, l.grid.height, blocked(l.grid)]), [
      ['World_Level_0', 15, 15, 18],
      ['World_Level_1', 15, 15, 20],
      ['World_Level_2', 15, 15, 13],
    ]);
    assert.ok(p.levels.every((l) => l.file.endsWith('.ldtkl')));
    // A linear layout has no world positions: nothing to stitch.
    assert.equal(p.worlds.length, 0);
    assert.equal(p.world, undefined);
  }
});

test('a GridVania world stitches its levels side by side; each world cell is its level cell', () => {
  const p = load('Typical_TopDown_example.ldtk');
  const w = p.world!;
  assert.equal(p.worlds.length, 1);
  assert.deepEqual([w.layout, w.depth, w.grid.width, w.grid.height], ['GridVania', 0, 64, 16]);
  assert.deepEqual(w.levels.map((l) => [l.name, l.x, l.y, l.width, l.height]), [
    ['World_Level_0', 16, 0, 32, 16],
    ['World_Level_1', 0, 0, 16, 16],
    ['World_Level_2', 48, 0, 16, 16],
  ]);
  // The levels tile the world's box: no cell is left to the void.
  assert.equal(blocked(w.grid), p.levels.reduce((n, l) => n + blocked(l.grid), 0));
  for (const place of w.levels) {
    const lg = p.levels[place.index].grid;
    for (let y = 0; y < lg.height; y++) for (let x = 0; x < lg.width; x++) assert.equal(w.grid.isWalkable(place.x + x, place.y + y), lg.isWalkable(x, y));
  }
  // The world grid's pixels are LDtk's world pixels: World_Level_0 starts at worldX 256.
  const c = w.grid.projection.cellToWorld(16, 0, { x: 0, y: 0, z: 0 });
  assert.deepEqual([c.x, c.y], [256 + 8, 8]);
  assert.deepEqual(p.levels[0].neighbours.map((n) => [n.dir, n.level]), [['w', 'World_Level_1'], ['e', 'World_Level_2']]);
});

test('a Free world stitches one grid per depth; cells no level covers are blocked', () => {
  const json = JSON.parse(readFileSync(path('WorldMap_Free_layout.ldtk'), 'utf8'));
  const p = load('WorldMap_Free_layout.ldtk');
  assert.deepEqual(p.worlds.map((w) => w.depth), [-1, 0, 1]);
  assert.equal(p.world, undefined);
  for (const w of p.worlds) {
    const raws = json.levels.filter((l: Json) => l.worldDepth === w.depth);
    assert.deepEqual(w.levels.map((l) => l.name).sort(), raws.map((l: Json) => l.identifier).sort());
    const x0 = Math.min(...raws.map((l: Json) => l.worldX));
    const y0 = Math.min(...raws.map((l: Json) => l.worldY));
    const x1 = Math.max(...raws.map((l: Json) => l.worldX + l.pxWid));
    const y1 = Math.max(...raws.map((l: Json) => l.worldY + l.pxHei));
    assert.deepEqual([w.grid.width, w.grid.height], [(x1 - x0) / 16, (y1 - y0) / 16]);
    // Levels of one depth do not overlap in this sample: the walkable cells add up, the rest is void.
    let walkable = 0;
    for (const raw of raws) walkable += expectedCells(path('WorldMap_Free_layout.ldtk'), raw, json.defs.layers, 16).walkable.filter((c) => c === 1).length;
    assert.equal(w.grid.stats()[0].walkable, walkable, `depth ${w.depth}`);
  }
  assert.ok(!p.warnings.some((s) => /overlaps/.test(s)), 'levels of different depths are not overlaps');
});

test('entities: cells of their pivot and box, typed fields, references resolved through the project', () => {
  const p = load('Typical_TopDown_example.ldtk');
  const [l0] = p.levels;
  const player = l0.entities.find((e) => e.name === 'Player')!;
  assert.deepEqual([player.x, player.y, player.layer, player.level], [10, 10, 'Entities', 'World_Level_0']);
  assert.deepEqual(player.cells, { x: 10, y: 10, width: 1, height: 1 });
  assert.deepEqual([player.fields.get('life'), player.fields.get('ammo')], [{ type: 'Int', value: 100 }, { type: 'Int', value: 10 }]);
  // A door 16 x 48 pixels with its pivot at the top-left covers three cells down.
  const door = l0.entities.find((e) => e.iid.startsWith('a1e0c860'))!;
  assert.deepEqual(door.cells, { x: 7, y: 9, width: 1, height: 3 });
  assert.deepEqual(door.fields.get('lockedWith'), { type: 'LocalEnum.Item', value: 'KeyA' });
  assert.equal(l0.grid.isWalkable(door.x, door.y), true, 'the door stands in a gap of the walls');
  const button = l0.entities.find((e) => e.name === 'Button')!;
  const targets = button.fields.get('targets')!;
  assert.equal(targets.type, 'Array<EntityRef>');
  const linked = (targets.value as LdtkEntityRef[]).map((r) => p.entities.get(r.entityIid)!);
  assert.deepEqual(linked.map((e) => [e.name, e.level, e.x, e.y]), [['Door', 'World_Level_0', 18, 7]]);
  // In the stitched world the same player stands 16 cells right (World_Level_0 starts at cell 16).
  const inWorld = p.world!.entities.find((e) => e.iid === player.iid)!;
  assert.deepEqual([inWorld.x, inWorld.y, inWorld.px.x, inWorld.px.y], [26, 10, 256 + 168, 168]);
  assert.equal(p.world!.entities.length, p.levels.reduce((n, l) => n + l.entities.length, 0));

  const all = load('Test_file_for_API_showing_all_features.ldtk');
  const e = all.entities.get('a3030e7b-66b0-11ec-9cd7-81a9b1cce297')!;
  const f = (k: string) => e.fields.get(k)!.value;
  assert.deepEqual([f('Integer'), f('Float'), f('Boolean'), f('String_singleLine'), f('Color'), f('Enum'), f('ExternEnum'), f('FilePath')], [1, 1.5, false, 'foo', '#D181E8', 'A', 'Value1', 'README.md']);
  assert.deepEqual(f('Point'), { x: 4, y: 17 });
  assert.deepEqual(f('Array_points'), [{ x: 14, y: 19 }, { x: 14, y: 17 }, { x: 18, y: 17 }, { x: 18, y: 19 }]);
  assert.deepEqual(f('Array_Integer'), [1, 2, 3]);
  const refTest = all.levels[0].entities.filter((x) => x.name === 'EntityRefTest');
  assert.ok(refTest.length > 0 && refTest.every((x) => all.entities.has((x.fields.get('target')!.value as LdtkEntityRef).entityIid)));
});

test('tile layers are kept for drawing: tile ids, positions with the layer offset, tileset paths, bottom layer first', () => {
  const json = JSON.parse(readFileSync(path('Typical_TopDown_example.ldtk'), 'utf8'));
  const p = load('Typical_TopDown_example.ldtk');
  const level = p.levels[0];
  const raw = json.levels[0].layerInstances;
  assert.deepEqual(level.tileLayers.map((t) => [t.name, t.type]), [['Default_floor', 'AutoLayer'], ['Custom_floor', 'Tiles'], ['Collisions', 'IntGrid'], ['Wall_tops', 'AutoLayer']]);
  const tops = level.tileLayers[3];
  const rawTops = raw.find((l: Json) => l.__identifier === 'Wall_tops');
  assert.equal(tops.count, rawTops.autoLayerTiles.length);
  assert.equal(tops.offsetY, -16);
  const t0 = rawTops.autoLayerTiles[0];
  assert.deepEqual([tops.x[0], tops.y[0], tops.id[0], tops.srcX[0], tops.srcY[0], tops.flip[0]], [t0.px[0], t0.px[1] - 16, t0.t, t0.src[0], t0.src[1], t0.f]);
  assert.equal(p.tilesets[tops.tileset].path, path('atlas/TopDown_by_deepnight.png'));
  assert.equal(p.tilesets.find((t) => t.name === 'Internal_Icons')!.embedded, 'LdtkIcons');
  assert.deepEqual(level.intGrids.map((g) => [g.name, g.width, g.height, g.values.filter((v) => v === 1).length]), [['Collisions', 32, 16, raw[2].intGridCsv.filter((v: number) => v === 1).length]]);
});

test('a path on a sample level and across a stitched world costs what the reference Dijkstra says', () => {
  const p = load('Typical_TopDown_example.ldtk');
  for (const grid of [p.levels[0].grid, p.world!.grid]) {
    const player = (grid === p.world!.grid ? p.world!.entities : p.levels[0].entities).find((e) => e.name === 'Player')!;
    const start = player.y * grid.width + player.x;
    const dist = refDistances(grid, 0, 'octile', [start]);
    let far = -1;
    for (let i = 0; i < grid.size; i++) if (dist[i] < Infinity && (far < 0 || dist[i] > dist[far])) far = i;
    assert.ok(dist[far] > 10, 'the farthest reachable cell is some way off');
    const r = findPath(grid, player.x, player.y, far % grid.width, Math.floor(far / grid.width), { movement: 'octile' });
    assert.equal(r.status, 'found');
    assert.ok(Math.abs(r.cost - dist[far]) < 1e-6, `${r.cost} vs ${dist[far]}`);
    for (const c of r.cells) assert.equal(grid.layers[0].walkable[c], 1);
  }
  // Water costs 2 in the Free world: a path there agrees with the reference on costs too.
  const free = load('WorldMap_Free_layout.ldtk');
  const cove = free.levels.find((l) => l.name === 'Underwater_cove')!.grid;
  const water = [...cove.layers[0].cost].findIndex((c) => c === 2);
  assert.ok(water >= 0);
  const dist = refDistances(cove, 0, 'octile', [water]);
  for (let i = 0; i < cove.size; i += 7) {
    if (dist[i] === Infinity || i === water) continue;
    const r = findPath(cove, water % cove.width, Math.floor(water / cove.width), i % cove.width, Math.floor(i / cove.width), { movement: 'octile' });
    assert.ok(Math.abs(r.cost - dist[i]) < 1e-6);
  }
});

// ---- small projects written here: conventions, rules, bad files ---------------------------------------

const WALL = 1;
const WATER = 2;
const LADDER = 3;
const FLOOR = 4;

/** An IntGrid layer instance from rows of characters: '#' wall, '~' water, 'H' ladder, '_' floor, '.' empty. */
function intGrid(name: string, uid: number, rows: string[], grid = 16): Json {
  const codes: Record<string, number> = { '.': 0, '#': WALL, '~': WATER, H: LADDER, _: FLOOR };
  return { __identifier: name, __type: 'IntGrid', __cWid: rows[0].length, __cHei: rows.length, __gridSize: grid, __pxTotalOffsetX: 0, __pxTotalOffsetY: 0, layerDefUid: uid, visible: true, intGridCsv: rows.join('').split('').map((c) => codes[c]), autoLayerTiles: [], gridTiles: [], entityInstances: [] };
}

function levelJson(name: string, x: number, y: number, layers: Json[], extra: Json = {}): Json {
  const top = layers.find((l) => l.__type === 'IntGrid');
  return { identifier: name, iid: `iid-${name}`, uid: 1, worldX: x, worldY: y, worldDepth: 0, pxWid: top.__cWid * 16, pxHei: top.__cHei * 16, fieldInstances: [], __neighbours: [], externalRelPath: null, layerInstances: layers, ...extra };
}

/** A project with IntGrid layers "Collisions" (uid 1: walls, water, ladder, floor) and "Decor" (uid 2: values without identifiers). */
function project(levels: Json[], layout = 'GridVania'): Json {
  const values = [
    { value: WALL, identifier: 'walls', groupUid: 0 },
    { value: WATER, identifier: 'water', groupUid: 0 },
    { value: LADDER, identifier: 'ladder', groupUid: 0 },
    { value: FLOOR, identifier: 'floor', groupUid: 0 },
  ];
  return {
    jsonVersion: '1.5.3',
    worldLayout: layout,
    defaultGridSize: 16,
    defs: {
      layers: [
        { identifier: 'Collisions', __type: 'IntGrid', uid: 1, gridSize: 16, intGridValues: values, intGridValuesGroups: [] },
        { identifier: 'Decor', __type: 'IntGrid', uid: 2, gridSize: 16, intGridValues: [{ value: 1, identifier: null, groupUid: 0 }], intGridValuesGroups: [] },
        { identifier: 'Entities', __type: 'Entities', uid: 3, gridSize: 16 },
      ],
      tilesets: [],
    },
    levels,
    worlds: [],
  };
}

function picture(grid: NavGrid, layer = 0): string[] {
  const rows: string[] = [];
  for (let y = 0; y < grid.height; y++) {
    let r = '';
    for (let x = 0; x < grid.width; x++) r += grid.isWalkable(x, y, layer) ? (grid.getCost(x, y, layer) === 1 ? '.' : '~') : '#';
    rows.push(r);
  }
  return rows;
}

const parse = (json: Json, options: LdtkOptions = {}): LdtkProject => parseLdtk(JSON.stringify(json), { file: 'mini.ldtk', ...options });

/** Runs `fn`, which must throw a TilenavError naming `file` (and an element matching `element`), with a message matching `message`. */
function refuses(fn: () => unknown, file: string, element: RegExp | null, message: RegExp): TilenavError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof TilenavError, `expected a TilenavError, got ${e}`);
    assert.equal(e.file, file);
    if (element !== null) assert.match(e.element ?? '', element);
    assert.match(e.message, message);
    return e;
  }
  assert.fail('expected a TilenavError');
}

test('conventions: "walls" and collision layers block, "water" costs as Water, "floor" opens the cells below, a value without meaning is a warning', () => {
  const p = parse(project([
    levelJson('A', 0, 0, [
      intGrid('Decor', 2, ['....', '..#.', '....']),
      intGrid('Collisions', 1, ['#~H_', '#...', '....']),
      intGrid('Collisions', 1, ['...#', '....', '....']),
    ]),
  ]));
  // Upper layers first in LDtk: the floor painted above a wall opens it; Decor's unnamed value means nothing.
  assert.deepEqual(picture(p.levels[0].grid), ['#~#.', '#...', '....']);
  assert.ok(p.warnings.some((w) => /layer "Decor": value 1 means nothing to navigation/.test(w)), p.warnings.join('\n'));
  // A ladder has no meaning of its own, but it lies on a layer called Collisions, so it blocks.
  assert.ok(!p.warnings.some((w) => /ladder/.test(w)));
});

test('rules pick what values do: by number, identifier or whole layer, with terrain, cost and navigation layer; mistakes name the rules file and key', () => {
  const lv = [levelJson('A', 0, 0, [intGrid('Decor', 2, ['#...']), intGrid('Collisions', 1, ['.~H#'])])];
  const p = parse(project(lv), {
    rules: { values: { Collisions: { water: { walkable: false }, '3': { terrain: 'Mud', layer: 'Sky' } } }, layers: { Decor: { cost: 3 } } },
  });
  const g = p.levels[0].grid;
  assert.equal(g.layers.length, 2);
  assert.deepEqual(picture(g), ['~#.#']);
  assert.equal(g.getCost(0, 0), 3);
  assert.deepEqual([g.getTerrain(2, 0, 'Sky'), g.getCost(2, 0, 'Sky')], ['Mud', 1.5]);
  // Mapping conventions can be changed too: here ladders are walkable and Collisions is no collision layer.
  const q = parse(project(lv), { mapping: { openValues: ['ladder'], collisionLayers: [] } });
  assert.deepEqual(picture(q.levels[0].grid), ['..~.#'.slice(1)]);

  const warned = parse(project(lv), { rules: { values: { Collisions: { lava: { walkable: false } }, Nothing: { '1': { walkable: false } } } }, rulesFile: 'my.rules.json' });
  assert.ok(warned.warnings.some((w) => /my\.rules\.json: IntGrid layer "Collisions" has no value "lava"/.test(w)));
  assert.ok(warned.warnings.some((w) => /my\.rules\.json: the project has no IntGrid layer "Nothing"/.test(w)));

  refuses(() => parse(project(lv), { rules: { values: { Collisions: { water: { terrain: 'Swamp' } } } }, rulesFile: 'r.json' }), 'r.json', /values\["Collisions"\]\["water"\]\.terrain/, /unknown terrain "Swamp"/);
  refuses(() => parse(project(lv), { rules: '{ "values": { "Collisions": { "1": { "layer": 9, "walkable": false } } } }', rulesFile: 'r.json' }), 'r.json', /\.layer$/, /navigation layer index from 0 to 7/);
  refuses(() => parse(project(lv), { rules: '{ "values": ', rulesFile: 'r.json' }), 'r.json', null, /malformed JSON/);
  refuses(() => parse(project(lv), { rules: { values: { Collisions: { '1': {} } } }, rulesFile: 'r.json' }), 'r.json', /values\["Collisions"\]\["1"\]/, /the rule is empty/);
});

test('bad files: truncated JSON, wrong types and unknown shapes are TilenavErrors naming the file and the element', () => {
  const topDown = readFileSync(path('Typical_TopDown_example.ldtk'), 'utf8');
  const e = refuses(() => parseLdtk(topDown.slice(0, 5000), { file: 'top.ldtk' }), 'top.ldtk', /project/, /malformed JSON at line \d+, column \d+/);
  assert.ok(e.line !== undefined && e.line > 1);

  const ok = () => project([levelJson('A', 0, 0, [intGrid('Collisions', 1, ['#.'])])]);
  const mutate = (fn: (j: Json) => void) => {
    const j = ok();
    fn(j);
    return j;
  };
  refuses(() => parse(mutate((j) => (j.levels[0].pxWid = 'wide'))), 'mini.ldtk', /^level "A"$/, /"pxWid" must be a whole number/);
  refuses(() => parse(mutate((j) => (j.levels[0].layerInstances[0].intGridCsv = [1, 'x']))), 'mini.ldtk', /^level "A" layer "Collisions"$/, /value 1 \(cell 1, 0\) must be a whole number/);
  refuses(() => parse(mutate((j) => (j.levels[0].layerInstances[0].intGridCsv = [1]))), 'mini.ldtk', /layer "Collisions"/, /holds 1 values; a 2 x 1 layer needs 2/);
  refuses(() => parse(mutate((j) => (j.levels[0].layerInstances = 'none'))), 'mini.ldtk', /^level "A"$/, /"layerInstances" must be a list or null/);
  refuses(() => parse(mutate((j) => (j.defs.layers[0].intGridValues[0].value = -1))), 'mini.ldtk', /Collisions.*intGridValues\[0\]/, /"value" must be a whole number/);
  refuses(() => parse(mutate((j) => delete j.levels[0].layerInstances[0].intGridCsv)), 'mini.ldtk', /layer "Collisions"/, /"intGridCsv" is missing/);
  refuses(() => parse(mutate((j) => (j.levels[0].layerInstances[0].intGrid = [], delete j.levels[0].layerInstances[0].intGridCsv))), 'mini.ldtk', /layer "Collisions"/, /before version 0\.8/);
  const door = { __identifier: 'Door', iid: 'd1', px: [16, 0], __pivot: [0, 0], width: 16, height: 16, __tags: [], fieldInstances: [{ __identifier: 'locked', __type: 'Bool', __value: 'yes' }] };
  const entities = { __identifier: 'Entities', __type: 'Entities', __cWid: 2, __cHei: 1, __gridSize: 16, layerDefUid: 3, entityInstances: [door] };
  refuses(() => parse(mutate((j) => j.levels[0].layerInstances.unshift(entities))), 'mini.ldtk', /^level "A" layer "Entities" entity "Door" field "locked"$/, /holds true or false, got the text "yes"/);
  refuses(() => parse([1, 2]), 'mini.ldtk', /project/, /expected an LDtk project/);
  refuses(() => parse({ levels: [] }), 'mini.ldtk', /project/, /not an LDtk project/);
  refuses(() => parse(project([])), 'mini.ldtk', /^project$/, /the project has no levels/);
  refuses(() => parse(ok().levels[0]), 'mini.ldtk', /project/, /one level of an LDtk project.*load the project/);
  refuses(() => parseLdtk('maps/world.ldtk'), '<project>', /project/, /looks like a file path/);
  refuses(() => parseLdtk(new Uint8Array([0x7b, 0xff, 0x7d]), { file: 'bin.ldtk' }), 'bin.ldtk', /project/, /not valid UTF-8/);
  refuses(() => parse(ok(), { maxCells: Number.NaN }), undefined as unknown as string, /^maxCells$/, /expected a number >= 0/);
  refuses(() => parse(ok(), { cellSize: 0 }), undefined as unknown as string, /^cellSize$/, /whole number of pixels/);
  refuses(() => parse(ok(), { mapping: { layer: 8 } }), undefined as unknown as string, /^mapping\.layer$/, /navigation layer index from 0 to 7/);
  refuses(() => parse(ok(), { mapping: { blockingValues: 'walls' as unknown as string[] } }), undefined as unknown as string, /^mapping\.blockingValues$/, /a list of names/);
});

test('huge sizes are refused before anything that size is made: a level, an IntGrid layer, a stitched world, all grids together', () => {
  const big = project([levelJson('Huge', 0, 0, [intGrid('Collisions', 1, ['#.'])], { pxWid: 2 ** 30, pxHei: 2 ** 30 })]);
  refuses(() => parse(big), 'mini.ldtk', /^level "Huge"$/, /cells exceeds maxCells 67108864/);
  const layer = project([levelJson('A', 0, 0, [{ ...intGrid('Collisions', 1, ['#.']), __cWid: 2 ** 20, __cHei: 2 ** 20 }], { pxWid: 32, pxHei: 16 })]);
  refuses(() => parse(layer), 'mini.ldtk', /^level "A" layer "Collisions"$/, /exceeds maxCells/);
  const apart = project([levelJson('A', 0, 0, [intGrid('Collisions', 1, ['#.'])]), levelJson('B', 16 * 2 ** 20, 16 * 2 ** 20, [intGrid('Collisions', 1, ['#.'])])]);
  refuses(() => parse(apart), 'mini.ldtk', /^world$/, /exceeds maxCells.*stitch: false/);
  assert.equal(parse(apart, { stitch: false }).levels.length, 2);
  const many = project(Array.from({ length: 5 }, (_, k) => levelJson(`L${k}`, 0, 0, [intGrid('Collisions', 1, ['#...', '....'])])), 'LinearHorizontal');
  refuses(() => parse(many, { maxCells: 30 }), 'mini.ldtk', /^level "L3"$/, /grids together come to more than maxCells 30/);
});

test('levels saved apart: a missing or unreadable level file, no reader, an absolute path; errors inside one name that file', async () => {
  const text = readFileSync(path('SeparateLevelFiles.ldtk'), 'utf8');
  const file = path('SeparateLevelFiles.ldtk');
  const missing = (p: string) => {
    if (p.endsWith('World_Level_1.ldtkl')) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${p}'`), { code: 'ENOENT' });
    return readFileSync(p);
  };
  refuses(() => parseLdtk(text, { file, readFile: missing }), file, /^level "World_Level_1"$/, /cannot read the level file ".*World_Level_1\.ldtkl" \(ENOENT/);
  refuses(() => parseLdtk(text, { file }), file, /^level "World_Level_0"$/, /needs options\.readFile/);
  await assert.rejects(parseLdtkAsync(text, { file, readFile: async (p) => missing(p) }), (e: unknown) => e instanceof TilenavError && /World_Level_1/.test(e.message));
  await assert.rejects(loadLdtk(fixture('ldtk/README.md').replace(/README\.md$/, 'Missing.ldtk')), (e: unknown) => e instanceof TilenavError && /Missing\.ldtk/.test(e.file ?? '') && /ENOENT/.test(e.message));

  const absolute = JSON.parse(text);
  absolute.levels[0].externalRelPath = '/etc/World_Level_0.ldtkl';
  refuses(() => parseLdtk(JSON.stringify(absolute), { file, readFile }), file, /^level "World_Level_0"$/, /absolute or a URL/);
  const climbing = JSON.parse(text);
  climbing.levels[0].externalRelPath = '../../../../../../../../../../etc/passwd';
  refuses(() => parseLdtk(JSON.stringify(climbing), { file, readFile }), file, /^level "World_Level_0"$/, /climbs above the filesystem root/);

  // A bad level file: the error names it, not the project.
  const bad = (p: string) => (p.endsWith('World_Level_2.ldtkl') ? readFileSync(p, 'utf8').replace(/"intGridCsv": \[\s*\d+/, '"intGridCsv": ["x"') : readFileSync(p));
  refuses(() => parseLdtk(text, { file, readFile: bad }), path('SeparateLevelFiles/World_Level_2.ldtkl'), /^level "World_Level_2" layer "IntGrid"$/, /"intGridCsv" value 0/);
  const truncated = (p: string) => (p.endsWith('World_Level_0.ldtkl') ? readFileSync(p, 'utf8').slice(0, 300) : readFileSync(p));
  refuses(() => parseLdtk(text, { file, readFile: truncated }), path('SeparateLevelFiles/World_Level_0.ldtkl'), /^level "World_Level_0"$/, /ends early/);
});

test('IntGrid layers of different grid sizes: the grid takes the finest one navigation reads, and a coarse cell covers every cell under it', () => {
  const json = JSON.parse(readFileSync(path('Test_file_for_API_showing_all_features.ldtk'), 'utf8'));
  const rules = { values: { IntGrid_8px_grid: { '1': { walkable: false } } } };
  const fine = load('Test_file_for_API_showing_all_features.ldtk', { rules });
  const coarse = load('Test_file_for_API_showing_all_features.ldtk', { rules, cellSize: 16 });
  assert.equal(fine.cellSize, 8);
  json.levels.forEach((raw: Json, k: number) => {
    const byName = (n: string) => raw.layerInstances.find((l: Json) => l.__identifier === n);
    const eight = byName('IntGrid_8px_grid');
    const walls = byName('IntGrid_with_rules');
    for (const [p, cs] of [[fine, 8], [coarse, 16]] as const) {
      const g = p.levels[k].grid;
      assert.deepEqual([g.width, g.height], [Math.ceil(raw.pxWid / cs), Math.ceil(raw.pxHei / cs)]);
      const want = new Uint8Array(g.size);
      for (const [layer, size] of [[eight, 8], [walls, 16]] as const) {
        layer.intGridCsv.forEach((v: number, i: number) => {
          if (v === 0) return;
          const px = (i % layer.__cWid) * size;
          const py = Math.floor(i / layer.__cWid) * size;
          for (let y = Math.floor(py / cs); y < Math.ceil((py + size) / cs); y++) for (let x = Math.floor(px / cs); x < Math.ceil((px + size) / cs); x++) if (x < g.width && y < g.height) want[y * g.width + x] = 1;
        });
      }
      const got = g.layers[0].walkable.map((w) => 1 - w);
      assert.deepEqual(got, want, `${raw.identifier} at ${cs} px`);
      assert.ok(want.some((c) => c === 1));
    }
  });
});

test('a project with any one value swapped for another type, or any list shortened, loads or throws a TilenavError, never another error', () => {
  const door = { __identifier: 'Door', iid: 'd1', px: [16, 0], __pivot: [0.5, 1], width: 16, height: 32, __tags: ['x'], fieldInstances: [
    { __identifier: 'to', __type: 'EntityRef', __value: { entityIid: 'd1', layerIid: 'l', levelIid: 'iid-A', worldIid: 'w' } },
    { __identifier: 'path', __type: 'Array<Point>', __value: [{ cx: 1, cy: 0 }] },
    { __identifier: 'n', __type: 'Float', __value: 1.5 },
  ] };
  const tiles = { __identifier: 'Art', __type: 'Tiles', __cWid: 2, __cHei: 1, __gridSize: 16, __tilesetDefUid: 9, gridTiles: [{ px: [0, 0], src: [16, 0], f: 1, t: 1, a: 1 }] };
  const base = project([
    levelJson('A', 0, 0, [{ __identifier: 'Entities', __type: 'Entities', __cWid: 2, __cHei: 1, __gridSize: 16, layerDefUid: 3, entityInstances: [door] }, tiles, intGrid('Collisions', 1, ['#~'])], { __neighbours: [{ levelIid: 'iid-B', dir: 'e' }] }),
    levelJson('B', 32, 0, [intGrid('Collisions', 1, ['_H'])]),
  ]);
  base.defs.tilesets = [{ uid: 9, identifier: 'T', relPath: 't.png', pxWid: 32, pxHei: 16, tileGridSize: 16, enumTags: [{ enumValueId: 'Wall', tileIds: [1] }] }];
  base.defs.layers[0].intGridValuesGroups = [{ uid: 5, identifier: 'solid' }];
  assert.equal(parse(base).levels.length, 2);
  const odd: unknown[] = [null, 'x', -1, 0, 1.5, 2 ** 40, Number.MAX_VALUE, true, [], {}, [1, 2], { a: 1 }, '__proto__'];
  const slots: [Json, string | number][] = [];
  const collect = (v: Json) => {
    if (v === null || typeof v !== 'object') return;
    for (const k of Object.keys(v)) {
      slots.push([v, Array.isArray(v) ? Number(k) : k]);
      collect(v[k]);
    }
  };
  collect(base);
  const r = mulberry32(24);
  let refused = 0;
  for (let run = 0; run < 1500; run++) {
    const [holder, key] = slots[Math.floor(r() * slots.length)];
    const before = holder[key];
    const list = Array.isArray(before) && r() < 0.3;
    holder[key] = list ? before.slice(0, Math.floor(r() * before.length)) : odd[Math.floor(r() * odd.length)];
    try {
      parse(base);
    } catch (e) {
      if (!(e instanceof TilenavError)) assert.fail(`${String(key)} = ${JSON.stringify(holder[key])}: ${(e as Error).stack}`);
      assert.equal(e.file, 'mini.ldtk');
      refused++;
    } finally {
      holder[key] = before;
    }
  }
  assert.ok(refused > 300, `${refused} of 1500 refused`);
});

// ---- the command line ------------------------------------------------------------------------------------

test('the CLI reads .ldtk: info lists levels and worlds, --level picks one, path walks the stitched world, render draws its tiles', async () => {
  const topDown = path('Typical_TopDown_example.ldtk');
  const info = await runCli('info', topDown);
  assert.equal(info.code, 0, info.err.join('\n'));
  assert.match(info.out[0], /ldtk world, 3 levels stitched, 64 x 16 \(1024 cells\)/);
  assert.ok(info.out.includes('  level "World_Level_1": 16 x 16'));
  const p = load('Typical_TopDown_example.ldtk');
  assert.ok(info.out.some((l) => l.includes(`${p.world!.grid.stats()[0].blocked} blocked`)));

  const one = await runCli('info', path('SeparateLevelFiles.ldtk'), '--level', 'World_Level_1', '--json');
  const j = JSON.parse(one.out[0]);
  assert.deepEqual([j.format, j.width, j.height, j.layers[0].blocked], ['ldtk level "World_Level_1"', 15, 15, 20]);
  const depth = await runCli('info', path('WorldMap_Free_layout.ldtk'), '--level', 'world:1');
  assert.match(depth.out[0], /ldtk world:1, 3 levels stitched, 67 x 38/);

  const bad = await runCli('info', topDown, '--level', 'Nowhere');
  assert.equal(bad.code, 2);
  assert.match(bad.err[0], /--level: the project has no level "Nowhere"; it has World_Level_0, World_Level_1, World_Level_2, world$/);
  const notLdtk = await runCli('info', fixture('tiled/ortho-xml.tmx'), '--level', 'A');
  assert.match(notLdtk.err[0], /--level: picks a level of an LDtk project/);

  // The player (26, 10) to the right-hand room (50, 8) crosses from World_Level_0 into World_Level_2.
  const walk = await runCli('path', topDown, '--from', '26,10', '--to', '50,8', '--json');
  assert.equal(walk.code, 0, walk.err.join('\n'));
  const r = JSON.parse(walk.out[0]);
  assert.equal(r.status, 'found');
  const dist = refDistances(p.world!.grid, 0, 'octile', [10 * 64 + 26]);
  assert.ok(Math.abs(r.cost - dist[8 * 64 + 50]) < 1e-4);

  const dir = mkdtempSync(join(tmpdir(), 'tilenav-ldtk-'));
  try {
    const out = join(dir, 'level.png');
    const drawn = await runCli('render', topDown, '--level', 'World_Level_1', '--out', out, '--opacity', '0');
    assert.equal(drawn.code, 0, drawn.err.join('\n'));
    const level = p.levels[1];
    const tiles = level.tileLayers.reduce((n, t) => n + t.count, 0);
    assert.match(drawn.out[0], new RegExp(`, ${tiles} tiles`));
    // With the overlay fully transparent the picture is the level's own art: not one flat colour.
    const png = PNG.sync.read(readFileSync(out));
    const colours = new Set<number>();
    for (let i = 0; i < png.data.length; i += 4 * 97) colours.add(png.data.readUInt32BE(i));
    assert.ok(colours.size > 10, `${colours.size} colours`);
    // A project whose tileset images are not beside it still renders, naming what it could not read.
    const free = await runCli('render', path('WorldMap_Free_layout.ldtk'), '--out', join(dir, 'free.png'));
    assert.equal(free.code, 0);
    assert.ok(free.err.some((l) => /cannot read .*NuclearBlaze_by_deepnight\.aseprite/.test(l)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const rules = await runCli('info', path('WorldMap_Free_layout.ldtk'), '--rules', fixture('ldtk/README.md'));
  assert.equal(rules.code, 2);
  assert.match(rules.err[0], /README\.md:\d*:? ?malformed JSON|README\.md: malformed JSON/);
});
