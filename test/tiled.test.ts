import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync, deflateSync, gzipSync } from 'node:zlib';
import { TilenavError, FLAG_SAFE_ZONE, FLAG_NO_EXIT_NORTH, Pathfinder, TerrainTable } from '../src/index.js';
import { mulberry32 } from '../src/query/index.js';
import { parseTiled, parseTiledAsync, resolveTiledPath, type TiledOptions } from '../src/loaders/index.js';
import { main } from '../src/cli/main.js';
import { DESIGN, H, W } from './fixtures/tiled/generate.js';
import { fixture } from './fixtures.js';
import { fillRandom } from './grids.js';

/** The real Tiled maps (made outside this project): tiled-examples/ and workadventure/. */
const REAL = fixture('tiled/');
/** The generated fixtures, at the top of test/fixtures/tiled/ (generate.ts writes them). */
const FIXTURES = fixture('tiled/');
const readFile = (p: string) => readFileSync(p);
const load = (path: string, options: TiledOptions = {}) => parseTiled(readFileSync(path), { file: path, readFile, ...options });

/** Every real map: the .tmx and .tmj files in tiled-examples/ and workadventure/. */
function realMaps(): string[] {
  return ['tiled-examples', 'workadventure'].flatMap((d) => mapsUnder(join(REAL, d)));
}

/** The generated .tmx and .tmj fixtures (not the real maps in the subfolders). */
function generatedMaps(): string[] {
  return readdirSync(FIXTURES).filter((f) => /\.tm[xj]$/.test(f)).map((f) => join(FIXTURES, f));
}

function mapsUnder(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) out.push(...mapsUnder(p));
    else if (/\.(tmx|tmj)$/.test(f)) out.push(p);
  }
  return out.sort();
}

// ---- an independent reading of the real maps: regular expressions and node:zlib, nothing of the loader

interface IndependentLayer {
  cells: Map<string, number>;
}

/** Every tile layer's non-empty cells, keyed "x,y" in Tiled's coordinates, read without the loader. */
function independentTmxLayers(text: string): IndependentLayer[] {
  const layers: IndependentLayer[] = [];
  const layerRe = /<layer\b[^>]*\bwidth="(\d+)"[^>]*>([\s\S]*?)<\/layer>/g;
  for (const m of text.matchAll(layerRe)) {
    const width = Number(m[1]);
    const body = m[2];
    const dataOpen = /<data\b([^>]*)>/.exec(body)!;
    const enc = /encoding="(\w+)"/.exec(dataOpen[1])?.[1];
    const comp = /compression="(\w+)"/.exec(dataOpen[1])?.[1];
    const decode = (payload: string): number[] => {
      if (enc === 'csv') return payload.split(',').map((s) => Number(s.trim()));
      const bytes = Buffer.from(payload.trim(), 'base64');
      const raw = comp === 'zlib' ? inflateSync(bytes) : bytes;
      const out: number[] = [];
      for (let i = 0; i < raw.length; i += 4) out.push(raw.readUInt32LE(i));
      return out;
    };
    const cells = new Map<string, number>();
    const chunks = [...body.matchAll(/<chunk x="(-?\d+)" y="(-?\d+)" width="(\d+)" height="(\d+)">([\s\S]*?)<\/chunk>/g)];
    if (chunks.length > 0) {
      for (const c of chunks) {
        const [cx, cy, cw] = [Number(c[1]), Number(c[2]), Number(c[3])];
        decode(c[5]).forEach((g, i) => {
          if ((g & 0x0fffffff) !== 0) cells.set(`${cx + (i % cw)},${cy + Math.floor(i / cw)}`, g);
        });
      }
    } else {
      const payload = /<data\b[^>]*>([\s\S]*?)<\/data>/.exec(body)![1];
      decode(payload).forEach((g, i) => {
        if ((g & 0x0fffffff) !== 0) cells.set(`${i % width},${Math.floor(i / width)}`, g);
      });
    }
    layers.push({ cells });
  }
  return layers;
}

function jsonTileLayers(layers: any[]): any[] {
  return layers.flatMap((l) => (l.type === 'group' ? jsonTileLayers(l.layers) : l.type === 'tilelayer' ? [l] : []));
}

const OBSTACLE_PROPERTY = '<properties><property name="isTilesetWalkable" type="bool" value="false"/></properties>';

const NOTHING_BLOCKS = 'no layer or tile of this map says which tiles block';

test('every real Tiled map loads; one where nothing blocks says how to pick blocking tiles', () => {
  const maps = realMaps();
  assert.ok(maps.length >= 11, `found ${maps.length} maps`);
  let warned = 0;
  for (const path of maps) {
    const m = load(path);
    assert.ok(m.grid.size > 0, path);
    const blocked = m.grid.stats().reduce((n, s) => n + s.blocked, 0);
    const w = m.warnings.find((x) => x.includes(NOTHING_BLOCKS));
    assert.equal(w !== undefined, blocked === 0, `${path}: ${blocked} blocked; ${m.warnings.join('; ')}`);
    if (w !== undefined) {
      warned++;
      assert.match(w, /rules file.*--rules FILE.*bool property collides/);
    }
  }
  assert.ok(warned >= 3, `${warned} maps warned`);
});

test('real TMX maps: with every tile layer an obstacle layer, the blocked cells are exactly the non-empty ones', () => {
  for (const path of realMaps().filter((p) => p.endsWith('.tmx'))) {
    const text = readFileSync(path, 'utf8');
    const layers = independentTmxLayers(text);
    assert.ok(layers.length > 0, path);
    const union = new Set<string>();
    for (const l of layers) for (const k of l.cells.keys()) union.add(k);
    const obstacles = text.replace(/(<layer\b[^>]*>)/g, `$1${OBSTACLE_PROPERTY}`);
    const m = parseTiled(obstacles, { file: path, readFile });
    const s = m.grid.stats()[0];
    assert.equal(s.blocked, union.size, `${path}: blocked`);
    assert.equal(s.walkable, m.grid.size - union.size, `${path}: walkable`);
    for (const key of union) {
      const [x, y] = key.split(',').map(Number);
      assert.equal(m.grid.isWalkable(x - m.offset.x, y - m.offset.y), false, `${path}: (${key}) should be blocked`);
    }
    assert.equal(m.warnings.filter((w) => w.includes(NOTHING_BLOCKS)).length, 0);
  }
});

test('the infinite staggered map becomes its chunks\' bounding box', () => {
  const path = join(REAL, 'tiled-examples/isometric_staggered_grass_and_water.tmx');
  const text = readFileSync(path, 'utf8');
  const chunks = [...text.matchAll(/<chunk x="(-?\d+)" y="(-?\d+)" width="(\d+)" height="(\d+)"/g)].map((c) => c.slice(1).map(Number));
  const x0 = Math.min(...chunks.map((c) => c[0]));
  const y0 = Math.min(...chunks.map((c) => c[1]));
  const x1 = Math.max(...chunks.map((c) => c[0] + c[2]));
  const y1 = Math.max(...chunks.map((c) => c[1] + c[3]));
  const m = load(path);
  assert.deepEqual(m.offset, { x: x0, y: y0 });
  assert.equal(m.grid.width, x1 - x0);
  assert.equal(m.grid.height, y1 - y0);
  assert.equal(m.movement, 'staggered-odd-r');
  assert.equal(m.projection.spec.kind, 'staggered');
});

test('office.tmj: cells under a tile whose `collides` is true are blocked, counted from the JSON directly', () => {
  const path = join(REAL, 'workadventure/office.tmj');
  const json = JSON.parse(readFileSync(path, 'utf8'));
  const colliding = new Set<number>();
  for (const ts of json.tilesets) for (const t of ts.tiles ?? []) if (t.properties?.some((p: any) => p.name === 'collides' && p.value === true)) colliding.add(ts.firstgid + t.id);
  assert.ok(colliding.size > 0);
  const blocked = new Set<number>();
  for (const l of jsonTileLayers(json.layers)) l.data.forEach((g: number, i: number) => colliding.has(g & 0x0fffffff) && blocked.add(i));
  const m = load(path);
  const s = m.grid.stats()[0];
  assert.equal(s.blocked, blocked.size);
  assert.equal(s.walkable, json.width * json.height - blocked.size);
  assert.ok(m.properties.map.get('mapName')?.value === 'Office');
  const walls = m.properties.layers.find((l) => l.name === 'walls1')!;
  assert.match(walls.path, /walls.*walls1/);
  assert.equal(walls.type, 'tile');
  // The navigation properties turn the conventions into what the level designer said instead.
  const seeded = structuredClone(json);
  for (const l of jsonTileLayers(seeded.layers)) if (l.name === 'floor1') l.properties = [{ name: 'isTilesetWalkable', type: 'bool', value: true }];
  const floor = jsonTileLayers(json.layers).find((l) => l.name === 'floor1')!.data.map((g: number, i: number) => ((g & 0x0fffffff) !== 0 && !blocked.has(i) ? 1 : 0));
  const m2 = parseTiled(JSON.stringify(seeded), { file: path });
  assert.equal(m2.grid.stats()[0].walkable, floor.reduce((a: number, b: number) => a + b, 0));
});

// ---- own fixtures: the same hand-drawn level in every encoding and layout

const FIXTURE_KIND: Record<string, [string, string]> = {
  'hex-even-r.tmj': ['hexagonal', 'hex-even-r'],
  'hex-odd-q.tmj': ['hexagonal', 'hex-odd-q'],
  'staggered-even-q.tmj': ['staggered', 'staggered-even-q'],
  'staggered-odd-r.tmj': ['staggered', 'staggered-odd-r'],
  'ortho-zstd.tmx': ['orthogonal', 'octile'],
  'ortho-base64.tmx': ['orthogonal', 'octile'],
  'ortho-xml.tmx': ['orthogonal', 'octile'],
  'infinite.tmj': ['orthogonal', 'octile'],
};

test('own fixtures: every encoding, tileset format and layout gives the hand-drawn level', () => {
  const files = readdirSync(FIXTURES).filter((f) => /\.tm[xj]$/.test(f));
  assert.deepEqual(files.sort(), Object.keys(FIXTURE_KIND).sort());
  for (const f of files) {
    const m = load(join(FIXTURES, f));
    assert.deepEqual([m.orientation, m.movement], FIXTURE_KIND[f], f);
    assert.deepEqual(m.warnings, [], f);
    const g = m.grid;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const c = DESIGN[y][x];
        const at = `${f} (${x}, ${y}) '${c}'`;
        assert.equal(g.isWalkable(x, y), c !== ' ' && c !== '#', at);
        assert.equal(g.getTerrain(x, y), c === 'w' ? 'Water' : 'Ground', at);
        assert.equal(g.getCost(x, y), c === 'w' || c === 'm' ? 2 : 1, at);
        assert.equal(g.getFlags(x, y), c === 's' ? FLAG_SAFE_ZONE : c === 'n' ? FLAG_NO_EXIT_NORTH : 0, at);
      }
    }
    if (f === 'infinite.tmj') {
      assert.deepEqual(m.offset, { x: -4, y: -2 });
      assert.deepEqual([g.width, g.height], [8, 8]);
      assert.equal(g.stats()[0].walkable, 35);
      assert.deepEqual(g.projection.cellToWorld(0, 0), { x: -128 + 16, y: -64 + 16, z: 0 });
    }
  }
});

test('async loading with an async readFile gives the same grid', async () => {
  const path = join(FIXTURES, 'hex-even-r.tmj');
  const m = await parseTiledAsync(readFileSync(path, 'utf8'), { file: path, readFile: async (p) => readFileSync(p, 'utf8') });
  const s = load(path);
  assert.deepEqual(Array.from(m.grid.layers[0].walkable), Array.from(s.grid.layers[0].walkable));
  await assert.rejects(parseTiledAsync(readFileSync(path), { file: path, readFile: async () => Promise.reject(new Error('offline')) }), (e: unknown) => e instanceof TilenavError && /nav\.tsj.*offline/.test(e.message));
});

test('tileset paths resolve relative to the map', () => {
  assert.equal(resolveTiledPath('maps/level1.tmx', '../tilesets/a.tsx'), 'tilesets/a.tsx');
  assert.equal(resolveTiledPath('/x/y/m.tmj', './t.tsj'), '/x/y/t.tsj');
  assert.equal(resolveTiledPath('m.tmj', 't.tsj'), 't.tsj');
  assert.equal(resolveTiledPath('a/m.tmj', 'https://cdn/t.tsj'), 'https://cdn/t.tsj');
});

// ---- hexagonal and staggered neighbours against hand-drawn layouts

function neighbours(m: { movement: string }, grid: { width: number; height: number }, x: number, y: number): string[] {
  // Ask the search itself: a 1-step path exists to exactly the neighbours.
  const out: string[] = [];
  const pf = new Pathfinder(grid as any);
  for (let yy = 0; yy < grid.height; yy++) {
    for (let xx = 0; xx < grid.width; xx++) {
      if (xx === x && yy === y) continue;
      const r = pf.findPath(x, y, xx, yy, { movement: m.movement as any });
      if (r.status === 'found' && r.cells.length === 2) out.push(`${xx},${yy}`);
    }
  }
  return out.sort();
}

function openMap(orientation: string, axis: string, index: string, w = 5, h = 5): string {
  return JSON.stringify({ type: 'map', orientation, staggeraxis: axis, staggerindex: index, hexsidelength: orientation === 'hexagonal' ? 16 : undefined, width: w, height: h, tilewidth: 32, tileheight: orientation === 'hexagonal' ? 28 : 16, infinite: false, tilesets: [], layers: [{ type: 'tilelayer', name: 'g', width: w, height: h, data: new Array(w * h).fill(0) }] });
}

test('staggered isometric neighbours match the drawn diamonds (Tiled topLeft/topRight/bottomLeft/bottomRight)', () => {
  // stagger axis y, index odd: odd rows sit half a diamond to the right.
  //   row 0:  (0,0)   (1,0)   (2,0)
  //   row 1:      (0,1)   (1,1)   (2,1)
  //   row 2:  (0,2)   (1,2)   (2,2)
  const cases: [string, string, [number, number], string[]][] = [
    ['y', 'odd', [1, 1], ['1,0', '2,0', '1,2', '2,2']],
    ['y', 'odd', [2, 2], ['1,1', '2,1', '1,3', '2,3']],
    // index even: the even rows are the shifted ones.
    ['y', 'even', [2, 2], ['2,1', '3,1', '2,3', '3,3']],
    ['y', 'even', [1, 1], ['0,0', '1,0', '0,2', '1,2']],
    // stagger axis x, index odd: odd columns sit half a diamond lower.
    //   col:   0     1     2
    //   y=0: (0,0)       (2,0)
    //              (1,0)
    //   y=1: (0,1)       (2,1)
    ['x', 'odd', [1, 1], ['0,1', '2,1', '0,2', '2,2']],
    ['x', 'odd', [2, 2], ['1,1', '3,1', '1,2', '3,2']],
    ['x', 'even', [2, 2], ['1,2', '3,2', '1,3', '3,3']],
  ];
  for (const [axis, index, [x, y], expected] of cases) {
    const m = parseTiled(openMap('staggered', axis, index), { file: `staggered-${axis}-${index}` });
    assert.deepEqual(neighbours(m, m.grid, x, y), [...expected].sort(), `${axis} ${index} (${x}, ${y})`);
    // Geometry agrees: an edge neighbour's centre is half a tile away on both axes.
    const c = m.projection.cellToWorld(x, y);
    for (const e of expected) {
      const [ex, ey] = e.split(',').map(Number);
      const d = m.projection.cellToWorld(ex, ey);
      assert.deepEqual([Math.abs(d.x - c.x), Math.abs(d.y - c.y)], [16, 8], `${axis} ${index} ${e}`);
    }
  }
});

test('hexagonal neighbours match the drawn hexes: the six nearest tile centres in Tiled\'s layout', () => {
  const cases: [string, string, [number, number], string[]][] = [
    // stagger y, odd: odd rows shifted right. (2,1) touches (2,0) (3,0) left/right (1,1) (3,1) and (2,2) (3,2).
    ['y', 'odd', [2, 1], ['2,0', '3,0', '1,1', '3,1', '2,2', '3,2']],
    ['y', 'odd', [2, 2], ['1,1', '2,1', '1,2', '3,2', '1,3', '2,3']],
    ['y', 'even', [2, 2], ['2,1', '3,1', '1,2', '3,2', '2,3', '3,3']],
    // stagger x, odd: odd columns shifted down.
    ['x', 'odd', [1, 1], ['1,0', '1,2', '0,1', '0,2', '2,1', '2,2']],
    ['x', 'even', [1, 1], ['1,0', '1,2', '0,0', '0,1', '2,0', '2,1']],
  ];
  for (const [axis, index, [x, y], expected] of cases) {
    const m = parseTiled(openMap('hexagonal', axis, index), { file: `hex-${axis}-${index}` });
    assert.deepEqual(neighbours(m, m.grid, x, y), [...expected].sort(), `${axis} ${index} (${x}, ${y})`);
    const c = m.projection.cellToWorld(x, y);
    const byDistance: [number, string][] = [];
    for (let yy = 0; yy < 5; yy++) for (let xx = 0; xx < 5; xx++) {
      if (xx === x && yy === y) continue;
      const d = m.projection.cellToWorld(xx, yy);
      byDistance.push([Math.hypot(d.x - c.x, d.y - c.y), `${xx},${yy}`]);
    }
    byDistance.sort((a, b) => a[0] - b[0]);
    assert.deepEqual(byDistance.slice(0, 6).map((b) => b[1]).sort(), [...expected].sort(), `geometry ${axis} ${index}`);
  }
});

test('staggered projection matches Tiled\'s pixel layout and inverts', () => {
  // hexagonal-mini: 14 x 12 tiles, side 6, stagger y odd: column width 7, row height 9.
  const m = load(join(REAL, 'tiled-examples/hexagonal-mini.tmx'));
  assert.deepEqual(m.projection.cellToWorld(1, 1), { x: 14 + 7 + 7, y: 9 + 6, z: 0 });
  assert.deepEqual(m.projection.cellToWorld(1, 2), { x: 14 + 7, y: 18 + 6, z: 0 });
  for (const path of [join(FIXTURES, 'staggered-even-q.tmj'), join(FIXTURES, 'hex-odd-q.tmj'), join(FIXTURES, 'hex-even-r.tmj')]) {
    const p = load(path).projection;
    for (let y = -3; y < 6; y++) for (let x = -3; x < 6; x++) {
      const w = p.cellToWorld(x, y);
      assert.deepEqual(p.worldToCell(w.x, w.y), { x, y }, `${path} (${x}, ${y})`);
      // A point a little off the centre still lands in the same tile.
      assert.deepEqual(p.worldToCell(w.x + 3, w.y - 2), { x, y }, `${path} (${x}, ${y}) off-centre`);
    }
  }
});

test('A* on staggered models finds Dijkstra\'s cost on random grids', () => {
  const rnd = mulberry32(7);
  for (const [axis, index] of [['y', 'odd'], ['y', 'even'], ['x', 'odd'], ['x', 'even']]) {
    const m = parseTiled(openMap('staggered', axis, index, 14, 11), { file: 'random' });
    const g = m.grid;
    for (let trial = 0; trial < 15; trial++) {
      fillRandom(g, rnd, { wallRate: 0.25, costs: 'mixed' });
      const pf = new Pathfinder(g);
      for (let q = 0; q < 10; q++) {
        const [sx, sy, tx, ty] = [rnd() * 14, rnd() * 11, rnd() * 14, rnd() * 11].map(Math.floor);
        const a = pf.findPath(sx, sy, tx, ty, { movement: m.movement });
        const d = pf.findPath(sx, sy, tx, ty, { movement: m.movement, weight: 0 });
        assert.equal(a.status, d.status);
        if (a.status === 'found') assert.ok(Math.abs(a.cost - d.cost) < 1e-9, `${axis} ${index}: ${a.cost} vs ${d.cost}`);
      }
    }
  }
});

// ---- the navigation properties and the mapping conventions, on small in-memory maps

type Layer = Record<string, unknown>;
function mapJson(layers: Layer[], extra: Record<string, unknown> = {}, tiles: unknown[] = []): string {
  return JSON.stringify({ type: 'map', orientation: 'orthogonal', width: 6, height: 4, tilewidth: 16, tileheight: 16, infinite: false, tilesets: [{ firstgid: 1, name: 't', tilewidth: 16, tileheight: 16, tilecount: 8, tiles }], layers, ...extra });
}
const bool = (name: string, value: boolean) => ({ name, type: 'bool', value });
const tiles = (rows: string[]) => rows.join('').split('').map((c) => (c === '.' ? 0 : Number(c)));
const pic = (m: ReturnType<typeof parseTiled>, layer = 0) => {
  const rows: string[] = [];
  for (let y = 0; y < m.grid.height; y++) {
    let r = '';
    for (let x = 0; x < m.grid.width; x++) r += m.grid.isWalkable(x, y, layer) ? '.' : '#';
    rows.push(r);
  }
  return rows;
};

test('useTilesetBorder blocks the empty cells around a layer\'s tiles', () => {
  const walls = tiles(['......', '..1...', '......', '......']);
  const m = parseTiled(mapJson([{ type: 'tilelayer', name: 'Walls', width: 6, height: 4, data: walls, properties: [bool('isTilesetWalkable', false), bool('useTilesetBorder', true)] }]), { file: 'border' });
  assert.deepEqual(pic(m), ['.###..', '.###..', '.###..', '......']);
});

test('navigationLayers is clamped with a warning, and collisionLayer picks the layer', () => {
  const sky = tiles(['1.....', '......', '......', '......']);
  const m = parseTiled(mapJson([{ type: 'tilelayer', name: 'High', width: 6, height: 4, data: sky, properties: [bool('isTilesetWalkable', false), { name: 'collisionLayer', type: 'int', value: 1 }] }], { properties: [{ name: 'navigationLayers', type: 'int', value: 12 }] }), { file: 'layers' });
  assert.equal(m.grid.layers.length, 8);
  assert.ok(m.warnings.some((w) => /navigationLayers 12 is not a whole number from 1 to 8; 8 navigation layers are used/.test(w)));
  assert.equal(m.grid.isWalkable(0, 0, 0), true);
  assert.equal(m.grid.isWalkable(0, 0, 1), false);
  const zero = parseTiled(mapJson([], { properties: [{ name: 'navigationLayers', type: 'int', value: 0 }] }), { file: 'zero' });
  assert.equal(zero.grid.layers.length, 1);
  assert.ok(zero.warnings.some((w) => /; 1 navigation layer is used/.test(w)));
});

test('group layers pass properties and visibility down; hidden layers can be left out', () => {
  const data = tiles(['1.....', '......', '......', '......']);
  const json = mapJson([{ type: 'group', name: 'walls', visible: false, properties: [bool('isTilesetWalkable', false)], layers: [{ type: 'group', name: 'inner', layers: [{ type: 'tilelayer', name: 'w1', width: 6, height: 4, data }] }] }]);
  const m = parseTiled(json, { file: 'groups' });
  assert.equal(m.grid.isWalkable(0, 0), false);
  const w1 = m.properties.layers.find((l) => l.name === 'w1')!;
  assert.equal(w1.visible, false);
  assert.equal(w1.inherited.get('isTilesetWalkable')?.value, false);
  assert.equal(w1.properties.size, 0);
  assert.deepEqual(w1.navigation, { layer: 0, walkable: false, border: false });
  const hidden = parseTiled(json, { file: 'groups', mapping: { hiddenLayers: false } });
  assert.equal(hidden.grid.isWalkable(0, 0), true);
});

test('collision object layers: rectangles, ellipses, polygons and wide polylines cover the cells they overlap', () => {
  const objects = [
    { id: 1, x: 16, y: 16, width: 32, height: 16 }, // exactly cells (1,1) and (2,1)
    { id: 2, x: 80, y: 0, width: 8, height: 8, ellipse: true }, // inside (5,0)
    { id: 3, x: 0, y: 48, polygon: [{ x: 0, y: 0 }, { x: 20, y: 0 }, { x: 0, y: 15 }] }, // (0,3) and a corner of (1,3)
    { id: 4, x: 56, y: 56, polyline: [{ x: 0, y: 0 }, { x: 32, y: 0 }], properties: [{ name: 'lineWidth', type: 'float', value: 4 }] }, // row 3, x 3.5..5.5
    { id: 5, x: 0, y: 0, width: 16, height: 16, properties: [bool('collides', false)] }, // opted out
  ];
  const m = parseTiled(mapJson([{ type: 'objectgroup', name: 'Collision', objects }]), { file: 'objects' });
  assert.deepEqual(pic(m), ['.....#', '.##...', '......', '##.###']);
  // Objects on any layer count when their type says so.
  const typed = parseTiled(mapJson([{ type: 'objectgroup', name: 'misc', objects: [{ id: 1, type: 'Wall', x: 0, y: 0, width: 16, height: 16 }, { id: 2, type: 'spawn', x: 32, y: 0, width: 16, height: 16 }] }]), { file: 'typed' });
  assert.deepEqual(pic(typed)[0], '#.....');
  const templated = parseTiled(mapJson([{ type: 'objectgroup', name: 'collision', objects: [{ id: 9, template: 'wall.tx', x: 0, y: 0 }] }]), { file: 'tpl' });
  assert.equal(templated.grid.stats()[0].blocked, 0);
  assert.ok(templated.warnings.some((w) => w.includes('object 9') && w.includes('wall.tx')));
  // A rotated square: 45 degrees about its top-left corner.
  const rot = parseTiled(mapJson([{ type: 'objectgroup', name: 'solid', objects: [{ id: 1, x: 48, y: 8, width: 8, height: 8, rotation: 45 }] }]), { file: 'rot' });
  // Its corners: (48, 8), (53.7, 13.7), (48, 19.3), (42.3, 13.7).
  assert.deepEqual(pic(rot), ['..##..', '..##..', '......', '......']);
});

test('isometric object coordinates: a tile is tileHeight x tileHeight pixels of object space', () => {
  const json = JSON.parse(mapJson([{ type: 'objectgroup', name: 'walls', objects: [{ id: 1, x: 16, y: 16, width: 16, height: 32 }] }]));
  Object.assign(json, { orientation: 'isometric', tilewidth: 32, tileheight: 16 });
  const m = parseTiled(JSON.stringify(json), { file: 'iso' });
  assert.equal(m.movement, 'iso');
  assert.deepEqual(pic(m), ['......', '.#....', '.#....', '......']);
  // Tiled puts tile (0, 0)'s top corner at x = map height x tile width / 2.
  assert.deepEqual(m.projection.cellToWorld(0, 0), { x: 4 * 16, y: 8, z: 0 });
});

test('hexagonal object layers: a cell is covered when its centre is inside or the outline crosses it', () => {
  const json = JSON.parse(openMap('hexagonal', 'y', 'odd'));
  // Cell (2, 2): an unshifted row, its box at (64, 44), centre (80, 58).
  json.layers.push({ type: 'objectgroup', name: 'collision', objects: [{ id: 1, x: 76, y: 54, width: 8, height: 8 }] });
  const m = parseTiled(JSON.stringify(json), { file: 'hexobj' });
  assert.deepEqual(m.grid.layers[0].walkable.reduce((a: number[], v, i) => (v ? a : [...a, i]), []), [2 * 5 + 2]);
  // A long thin line crosses every hex of row 2 between the centres of (0, 2) and (4, 2).
  json.layers[1].objects = [{ id: 2, x: 16, y: 58, polyline: [{ x: 0, y: 0 }, { x: 128, y: 0 }] }];
  const line = parseTiled(JSON.stringify(json), { file: 'hexline' });
  assert.deepEqual(pic(line)[2], '#####');
  assert.equal(line.grid.stats()[0].blocked, 5);
});

test('terrain types use the grid\'s terrain table; unknown names fall back to Ground with a warning', () => {
  const tilesWithTerrain = [{ id: 0, properties: [{ name: 'terrainType', type: 'string', value: 'Lava' }] }, { id: 1, properties: [{ name: 'terrainType', type: 'string', value: 'Quicksand' }] }, { id: 2, properties: [{ name: 'terrainType', type: 'string', value: 'Mud' }, { name: 'slowMultiplier', type: 'float', value: 2 }] }];
  const data = tiles(['123...', '......', '......', '......']);
  const json = mapJson([{ type: 'tilelayer', name: 'g', width: 6, height: 4, data: data.map((g) => g || 1), properties: [bool('isTilesetWalkable', true)] }], {}, tilesWithTerrain);
  const m = parseTiled(json, { file: 'terrain' });
  assert.equal(m.grid.isWalkable(0, 0), false, 'Lava is impassable');
  assert.equal(m.grid.getTerrain(1, 0), 'Ground');
  assert.ok(m.warnings.some((w) => w.includes('unknown terrainType "Quicksand"')));
  assert.equal(m.grid.getCost(2, 0), 3);
  const custom = new TerrainTable([{ name: 'Ground', cost: 1, walkable: true }, { name: 'Quicksand', cost: 4, walkable: true }]);
  const c = parseTiled(json, { file: 'terrain', terrain: custom });
  assert.equal(c.grid.getTerrain(1, 0), 'Quicksand');
  assert.equal(c.grid.getCost(1, 0), 4);
});

test('tile collision shapes and tile / layer `collides` properties block cells', () => {
  const shapeTile = { id: 0, objectgroup: { type: 'objectgroup', objects: [{ id: 1, x: 0, y: 8, width: 16, height: 8 }] } };
  const collideTile = { id: 1, properties: [bool('solid', true)] };
  const data = tiles(['1.2...', '......', '......', '......']);
  const layer2 = tiles(['......', '...1..', '......', '......']);
  const m = parseTiled(mapJson([{ type: 'tilelayer', name: 'a', width: 6, height: 4, data }, { type: 'tilelayer', name: 'b', width: 6, height: 4, data: layer2.map((g) => (g ? 3 : 0)), properties: [bool('collision', true)] }], {}, [shapeTile, collideTile]), { file: 'tileshapes' });
  assert.deepEqual(pic(m), ['#.#...', '...#..', '......', '......']);
  assert.equal(m.properties.tiles.get(2)?.get('solid')?.value, true);
  // A flipped tile's shape flips with it: flipped vertically the half-height shape sits in the top half, still in the cell.
  const flipped = parseTiled(mapJson([{ type: 'tilelayer', name: 'a', width: 6, height: 4, data: [(1 | 0x40000000) >>> 0, ...new Array(23).fill(0)] }], {}, [shapeTile]), { file: 'flip' });
  assert.equal(flipped.grid.isWalkable(0, 0), false);
  assert.equal(flipped.grid.isWalkable(0, 1), true);
  assert.deepEqual(parseTiled(mapJson([{ type: 'tilelayer', name: 'a', width: 6, height: 4, data }], {}, [shapeTile, collideTile]), { file: 'off', mapping: { tileShapes: false, collisionProperties: [] } }).grid.stats()[0].blocked, 0);
});

test('every Tiled property type parses; names that could pollute a prototype are refused', () => {
  const props = [
    bool('b', true),
    { name: 'i', type: 'int', value: 3 },
    { name: 'f', type: 'float', value: 1.5 },
    { name: 's', type: 'string', value: 'x' },
    { name: 'c', type: 'color', value: '#ff00ff00' },
    { name: 'file', type: 'file', value: 'a.png' },
    { name: 'o', type: 'object', value: 12 },
    { name: 'k', type: 'class', propertytype: 'Door', value: { open: true, hp: 2.5, inner: { x: 1 } } },
  ];
  const m = parseTiled(mapJson([], { properties: props }), { file: 'props' });
  const p = m.properties.map;
  assert.deepEqual([...p.keys()], ['b', 'i', 'f', 's', 'c', 'file', 'o', 'k']);
  assert.deepEqual([p.get('b')!.value, p.get('i')!.value, p.get('f')!.value, p.get('c')!.type, p.get('o')!.value], [true, 3, 1.5, 'color', 12]);
  const k = p.get('k')!;
  assert.equal(k.propertyType, 'Door');
  assert.equal((k.value as Map<string, any>).get('inner').value.get('x').value, 1);
  const xml = `<map orientation="orthogonal" width="1" height="1" tilewidth="8" tileheight="8"><properties><property name="k" type="class" propertytype="Door"><properties><property name="open" type="bool" value="true"/></properties></property><property name="t">multi
line</property></properties><layer name="l" width="1" height="1"><data encoding="csv">0</data></layer></map>`;
  const x = parseTiled(xml, { file: 'props.tmx' });
  assert.equal(((x.properties.map.get('k')!.value as Map<string, any>).get('open')).value, true);
  assert.equal(x.properties.map.get('t')!.value, 'multi\nline');
  for (const name of ['__proto__', 'constructor']) {
    const bad = mapJson([], { properties: [{ name, type: 'string', value: 'polluted' }] });
    assert.throws(() => parseTiled(bad, { file: 'evil.tmj' }), (e: unknown) => e instanceof TilenavError && e.message.includes('evil.tmj') && e.message.includes(name));
    const badClass = mapJson([], { properties: [{ name: 'k', type: 'class', value: JSON.parse(`{"${name}": {"polluted": true}}`) }] });
    assert.throws(() => parseTiled(badClass, { file: 'evil.tmj' }), TilenavError);
  }
  assert.equal(({} as any).polluted, undefined);
});

// ---- bad input: one clear TilenavError naming the file and the element

function expectError(source: string | Uint8Array, pattern: RegExp, options: TiledOptions = {}) {
  assert.throws(
    () => parseTiled(source, { file: 'bad.map', ...options }),
    (e: unknown) => {
      assert.ok(e instanceof TilenavError, `not a TilenavError: ${e}`);
      assert.match(e.message, pattern);
      return true;
    },
  );
}

const csvTmx = (data: string, attrs = 'orientation="orthogonal"', dataAttrs = 'encoding="csv"') => `<?xml version="1.0"?><map ${attrs} width="3" height="2" tilewidth="8" tileheight="8"><layer name="L" width="3" height="2"><data ${dataAttrs}>${data}</data></layer></map>`;
const b64Tmx = (bytes: Buffer, compression: string, w = 3, h = 2) => `<map orientation="orthogonal" width="${w}" height="${h}" tilewidth="8" tileheight="8"><layer name="L" width="${w}" height="${h}"><data encoding="base64"${compression ? ` compression="${compression}"` : ''}>${bytes.toString('base64')}</data></layer></map>`;
const gids = (n: number) => Buffer.alloc(n * 4, 0);

test('bad input: malformed or truncated XML and JSON', () => {
  const good = csvTmx('1,0,0,0,0,1');
  assert.equal(parseTiled(good, { file: 'ok' }).grid.size, 6);
  expectError(good.slice(0, good.length / 2), /bad\.map: XML line \d+: malformed XML/);
  expectError('<map><layer></map>', /bad\.map: XML line 1: malformed XML/);
  expectError('{"type":"map","width":3', /bad\.map: JSON: malformed JSON/);
  expectError('[1,2]', /bad\.map: JSON: expected a map object/);
  expectError('', /bad\.map: map: the file is empty/);
  expectError(new Uint8Array([0xff, 0xfe, 0x3c]), /not valid UTF-8/);
  expectError('<tileset/>', /expected a <map> element/);
  // Entity expansion (billion laughs) is not performed: the value stays as written.
  const laughs = `<?xml version="1.0"?><!DOCTYPE map [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]><map orientation="orthogonal" width="1" height="1" tilewidth="8" tileheight="8"><properties><property name="x" value="&d;"/></properties><layer name="l" width="1" height="1"><data encoding="csv">0</data></layer></map>`;
  assert.ok(String(parseTiled(laughs, { file: 'lol.tmx' }).properties.map.get('x')!.value).length < 100);
});

test('bad input: data length, base64, compression, encoding, orientation', () => {
  expectError(csvTmx('1,0,0,0,0'), /layer name="L"> <data>: CSV has 5 values; the layer size needs 6/);
  expectError(csvTmx('1,0,0,0,0,0,0'), /more than the 6 values/);
  expectError(csvTmx('1,0,x,0,0,0'), /unexpected character "x"/);
  expectError(b64Tmx(gids(5), ''), /data has 20 bytes; the layer size needs 6 x 4 = 24/);
  expectError(b64Tmx(gids(6), '').replace('AAAA', 'AA!A'), /invalid base64: unexpected character "!"/);
  expectError(b64Tmx(gids(6), '').replace('</data>', 'A</data>'), /invalid base64/);
  const z = deflateSync(gids(6));
  z[5] ^= 0xff;
  z[6] ^= 0x55;
  expectError(b64Tmx(z, 'zlib'), /corrupt zlib data|zlib data decompresses to/);
  expectError(b64Tmx(Buffer.from('not gzip at all'), 'gzip'), /corrupt gzip data/);
  expectError(b64Tmx(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00]), 'zstd'), /corrupt zstd data|zstd data decompresses to/);
  expectError(b64Tmx(deflateSync(gids(5)), 'zlib'), /zlib data decompresses to 20 bytes; the layer size needs exactly 24/);
  expectError(b64Tmx(gids(6), 'lz4'), /unknown compression "lz4"/);
  expectError(csvTmx('1,0,0,0,0,0', 'orientation="orthogonal"', 'encoding="hex"'), /unknown encoding "hex"/);
  expectError(csvTmx('1,0,0,0,0,0', 'orientation="octagonal"'), /<map> orientation: unknown orientation "octagonal"/);
  expectError(csvTmx('1,0,0,0,0,0', 'orientation="hexagonal" staggeraxis="z"'), /staggeraxis: expected "x" or "y"/);
  expectError(mapJson([{ type: 'tilelayer', name: 'L', width: 6, height: 4, data: [1, 2] }]), /layer "L" data: data has 2 values; the layer size needs 24/);
  expectError(mapJson([{ type: 'tilelayer', name: 'L', width: 6, height: 4, data: new Array(24).fill(-1) }]), /data\[0\] must be a gid/);
  expectError(mapJson([{ type: 'weird', name: 'L' }]), /layer "L": unknown layer type "weird"/);
  // An unknown property type is skipped with a warning: a map from a newer Tiled still loads.
  assert.ok(parseTiled(mapJson([], { properties: [{ name: 'p', type: 'vector', value: 1 }] }), { file: 'bad.map' }).warnings.some((w) => /map property "p": unknown property type "vector" skipped/.test(w)));
});

test('bad input: decompression bombs stop at the layer size and at maxDecompressedBytes', () => {
  const bomb = deflateSync(Buffer.alloc(64 * 1024 * 1024));
  assert.ok(bomb.length < 100_000);
  const before = process.memoryUsage().arrayBuffers;
  expectError(b64Tmx(bomb, 'zlib', 10, 10), /zlib data decompresses to more than 400 bytes/);
  expectError(b64Tmx(gzipSync(Buffer.alloc(16 * 1024 * 1024)), 'gzip', 10, 10), /gzip data decompresses to more than 400 bytes/);
  // A zstd frame of 2000 RLE blocks of 128 KiB each claims 256 MiB from 8 KB.
  const blocks: number[] = [0x28, 0xb5, 0x2f, 0xfd, 0x00, 7 << 3];
  for (let i = 0; i < 2000; i++) {
    const header = (131072 << 3) | (1 << 1) | (i === 1999 ? 1 : 0);
    blocks.push(header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff, 0);
  }
  expectError(b64Tmx(Buffer.from(blocks), 'zstd', 10, 10), /zstd data decompresses to more than 400 bytes/);
  // Forged frame headers: a declared size of 2^40 bytes, and a 2 GiB window, refused before any allocation.
  expectError(b64Tmx(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xc0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0]), 'zstd', 10, 10), /its frame declares 1099511627776/);
  expectError(b64Tmx(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 21 << 3, 1, 0, 0, 0]), 'zstd', 10, 10), /zstd frame asks for a 2147483648-byte window/);
  assert.ok(process.memoryUsage().arrayBuffers - before < 64 * 1024 * 1024, 'a bomb must not allocate its claimed size');
  expectError(b64Tmx(deflateSync(gids(100)), 'zlib', 10, 10), /over maxDecompressedBytes 100/, { maxDecompressedBytes: 100 });
  expectError(b64Tmx(bomb, 'zlib', 20000, 20000), /20000 x 20000 = 400000000 tiles exceeds maxCells/);
  expectError(csvTmx('0,0,0,0,0,0'), /exceeds maxCells 4/, { maxCells: 4 });
});

test('bad input: missing, unreadable or malformed tilesets name the tileset', () => {
  const withTs = (source: string) => `<map orientation="orthogonal" width="1" height="1" tilewidth="8" tileheight="8"><tileset firstgid="1" source="${source}"/><layer name="L" width="1" height="1"><data encoding="csv">1</data></layer></map>`;
  expectError(withTs('gone.tsx'), /bad\.map: <tileset> 1 "gone\.tsx": the external tileset "gone\.tsx" needs options\.readFile/);
  const missing = join(FIXTURES, 'missing.tmx');
  assert.throws(() => parseTiled(withTs('../nowhere/gone.tsx'), { file: missing, readFile }), (e: unknown) => e instanceof TilenavError && e.message.includes('missing.tmx') && e.message.includes('nowhere/gone.tsx') && e.message.includes('ENOENT'));
  const files: Record<string, string> = { 'ts/bad.tsx': '<tileset name="x"><tile id="1"><properties><property name="p" type="bool" value="maybe"/></properties></tile></tileset>', 'ts/broken.tsj': '{"tiles": [', 'ts/empty.tsx': '' };
  const mem = (p: string) => {
    if (!(p in files)) throw new Error('no such file');
    return files[p];
  };
  assert.throws(() => parseTiled(withTs('bad.tsx'), { file: 'ts/m.tmx', readFile: mem }), /ts\/bad\.tsx: <tileset> <tile id="1"> property "p": a bool must be "true" or "false"/);
  assert.throws(() => parseTiled(withTs('broken.tsj'), { file: 'ts/m.tmx', readFile: mem }), /ts\/broken\.tsj: JSON: malformed JSON/);
  assert.throws(() => parseTiled(withTs('empty.tsx'), { file: 'ts/m.tmx', readFile: mem }), /ts\/empty\.tsx: tileset: the tileset file is empty/);
});

// ---- fuzz: random mutations of the real maps either load or throw a TilenavError

test('fuzz: mutated maps and tilesets load or throw TilenavError, nothing else', () => {
  const maps = [...realMaps(), ...generatedMaps()];
  const originals = new Map<string, Buffer>(maps.map((m) => [m, readFileSync(m)]));
  const random = mulberry32(20261122);
  const rnd = (n: number) => Math.floor(random() * n);
  const mutate = (b: Buffer): Buffer => {
    let out = Buffer.from(b);
    const k = 1 + rnd(4);
    for (let j = 0; j < k; j++) {
      const at = rnd(out.length);
      switch (rnd(5)) {
        case 0:
          out[at] = rnd(256);
          break;
        case 1:
          out = Buffer.concat([out.subarray(0, at), out.subarray(Math.min(out.length, at + 1 + rnd(40)))]);
          break;
        case 2:
          out = Buffer.concat([out.subarray(0, at), Buffer.from([rnd(2) ? rnd(256) : '<>,"={}[]0123456789-'.charCodeAt(rnd(20))]), out.subarray(at)]);
          break;
        case 3:
          out = out.subarray(0, at);
          break;
        default: {
          const len = 1 + rnd(60);
          out = Buffer.concat([out.subarray(0, at + len), out.subarray(at, at + len), out.subarray(at + len)]);
        }
      }
      if (out.length === 0) break;
    }
    return out;
  };
  const t0 = performance.now();
  let loaded = 0;
  let refused = 0;
  for (let i = 0; i < 400; i++) {
    const path = maps[rnd(maps.length)];
    const mutateTileset = rnd(4) === 0;
    const source = mutateTileset ? originals.get(path)! : mutate(originals.get(path)!);
    const read = (p: string) => (mutateTileset ? mutate(readFileSync(p)) : readFileSync(p));
    try {
      parseTiled(source, { file: path, readFile: read, maxCells: 1 << 20, maxDecompressedBytes: 1 << 24 });
      loaded++;
    } catch (e) {
      if (!(e instanceof TilenavError)) assert.fail(`case ${i} (${path}): ${(e as Error)?.stack ?? e}`);
      refused++;
    }
  }
  assert.equal(loaded + refused, 400);
  assert.ok(refused > 50 && loaded > 20, `loaded ${loaded}, refused ${refused}`);
  assert.ok(performance.now() - t0 < 20_000);
});

// ---- CLI

function runCli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  return main(args, { out: (l) => out.push(l), err: (l) => err.push(l), columns: undefined, errIsTty: false }).then((code) => ({ code, out, err }));
}

test('CLI: info, path and scen read Tiled maps; a bad file exits 2 with one line', async () => {
  const office = join(REAL, 'workadventure/office.tmj');
  const info = await runCli(['info', office]);
  assert.equal(info.code, 0);
  assert.match(info.out[0], /tiled orthogonal, 31 x 21/);
  // Its tiles' `collides` properties say what blocks, so nothing needs picking.
  assert.ok(info.out.some((l) => /layer "Ground": \d+ walkable .*, [1-9]\d* blocked/.test(l)), info.out.join('\n'));
  assert.ok(!info.out.some((l) => l.includes(NOTHING_BLOCKS)), info.out.join('\n'));
  const hex = await runCli(['path', join(FIXTURES, 'hex-even-r.tmj'), '--from', '0,1', '--to', '7,4', '--json']);
  assert.equal(hex.code, 0);
  const r = JSON.parse(hex.out[0]);
  assert.equal(r.status, 'found');
  assert.equal(r.movement, 'hex-even-r');
  const bad = join(FIXTURES, 'generate.ts');
  const res = await runCli(['info', bad, '--format', 'tiled']);
  assert.equal(res.code, 2);
  assert.equal(res.err.length, 1);
  assert.match(res.err[0], /generate\.ts: JSON: malformed JSON/);
});
