/**
 * tilenav/phaser reads what the Tiled loader reads beyond tile collision: edge walls from tile
 * properties (turned with the tile's flips) and from object-layer lines, blocking object shapes
 * and links. Each Tiled fixture is made into a tilemap as Phaser 4 and Phaser 3 make it (their own
 * object layer, tileset and gid parsers; the tiles built as ParseTileLayers builds them, since its
 * Tile class needs a browser) and compared with `parseTiled` on the same file.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { findPath, FLAG_WALL_MASK, FLAG_WALL_NORTH, FLAG_WALL_WEST, TilenavError, type NavGrid } from '../src/index.js';
import { parseTiled } from '../src/loaders/index.js';
import { sync, tilemapToNavGrid, watch, type TilemapLike, type TilemapNavOptions, type TileLike } from '../src/adapters/phaser/index.js';

const root = new URL('..', import.meta.url);
const require = createRequire(import.meta.url);

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

/** Phaser's Tiled parsers of one major version. */
function parsers(pkg: string) {
  const at = (name: string) => require(new URL(`node_modules/${pkg}/src/tilemaps/parsers/tiled/${name}.js`, root).pathname);
  return { ParseGID: at('ParseGID'), ParseObjectLayers: at('ParseObjectLayers'), ParseTilesets: at('ParseTilesets') };
}

const PHASERS = [['Phaser 4', parsers('phaser')], ['Phaser 3', parsers('phaser3')]] as const;

/** A tilemap as Phaser makes it from Tiled JSON, with the tile-changing methods `watch` wraps. */
type PhaserMap = TilemapLike & { putTileAt(index: number, x: number, y: number, recalc?: boolean, layer?: number): TileLike; removeTileAt(x: number, y: number, replace?: boolean, recalc?: boolean, layer?: number): void };

function phaserMap(P: ReturnType<typeof parsers>, text: string): PhaserMap {
  const json: Json = JSON.parse(text);
  // Phaser keeps per-tile properties only for tilesets with an image (the rest become image collections).
  const withImages: Json = JSON.parse(text);
  for (const t of withImages.tilesets) Object.assign(t, { image: `${t.name}.png`, imagewidth: t.columns * t.tilewidth, imageheight: t.tileheight });
  const { tilesets } = P.ParseTilesets(withImages);
  const setOf = (gid: number) => tilesets.filter((t: Json) => t.firstgid <= gid).pop() ?? null;
  // As ParseTileLayers: the gid's flip bits become the tile's rotation and flipX.
  const tile = (raw: number, x: number, y: number): TileLike | null => {
    const g = P.ParseGID(raw);
    return g.gid > 0 ? { index: g.gid, x, y, collides: false, properties: {}, rotation: g.rotation, flipX: g.flipped, flipY: false, tileset: setOf(g.gid) } : null;
  };
  const layers = json.layers
    .filter((l: Json) => l.type === 'tilelayer')
    .map((l: Json) => ({ name: l.name, width: l.width, height: l.height, properties: l.properties ?? [], tilemapLayer: null, data: Array.from({ length: l.height }, (_, y) => Array.from({ length: l.width }, (_, x) => tile(l.data[y * l.width + x], x, y))) }));
  const map: PhaserMap = {
    width: json.width,
    height: json.height,
    tileWidth: json.tilewidth,
    tileHeight: json.tileheight,
    orientation: json.orientation,
    hexSideLength: json.hexsidelength,
    staggerAxis: json.staggeraxis,
    staggerIndex: json.staggerindex,
    properties: json.properties ?? [],
    layers,
    objects: P.ParseObjectLayers(JSON.parse(text)),
    putTileAt(index, x, y, _recalc, layer = 0) {
      const t = tile(index, x, y)!;
      map.layers[layer].data[y][x] = t;
      return t;
    },
    removeTileAt(x, y, _replace, _recalc, layer = 0) {
      map.layers[layer].data[y][x] = null;
    },
  };
  return map;
}

const fixture = (name: string) => readFileSync(new URL(`test/fixtures/tiled/${name}`, root), 'utf8');

/** Blocked cells, edge walls and links of every navigation layer, to compare two grids. */
function navOf(grid: NavGrid) {
  return {
    layers: grid.layers.map((l) => ({ walkable: Array.from(l.walkable), walls: Array.from(l.flags, (f) => f & FLAG_WALL_MASK) })),
    links: grid.links().map((k) => ({ from: k.from, to: k.to, cost: k.cost, bidirectional: k.bidirectional, enabled: k.enabled })),
  };
}

/** The adapter's grid and its warnings. */
function convert(map: TilemapLike, options: TilemapNavOptions = {}): { grid: NavGrid; warnings: string[] } {
  const warnings: string[] = [];
  return { grid: tilemapToNavGrid(map, { ...options, onWarning: (w) => warnings.push(w) }), warnings };
}

for (const [major, P] of PHASERS) {
  test(`phaser tiled (${major}): tile edge walls, flipped tiles included, give parseTiled's walls and path costs`, () => {
    const text = fixture('walls/edge-walls.tmj');
    const tiled = parseTiled(text, { file: 'edge-walls.tmj' });
    const { grid, warnings } = convert(phaserMap(P, text));
    assert.deepEqual(navOf(grid), navOf(tiled.grid));
    assert.ok(navOf(grid).layers[0].walls.some((w) => w !== 0), 'the map has walls to compare');
    assert.equal(grid.hasEdgeWall(0, 1, 'south'), true, 'the diagonally flipped fence tile at (0, 1) walls its east side, turned south');
    const path = findPath(grid, 5, 3, 2, 0);
    assert.equal(path.cost.toFixed(2), '5.41', 'around the L-shaped fence, not through its corner (4.24)');
    assert.equal(path.cost, findPath(tiled.grid, 5, 3, 2, 0).cost);
    assert.deepEqual(warnings, []);
  });

  test(`phaser tiled (${major}): object-layer fences, thin walls and outlines wall edges; a "rock" in the Walls layer blocks; as parseTiled`, () => {
    const text = fixture('walls/edge-wall-objects.tmj');
    const tiled = parseTiled(text, { file: 'edge-wall-objects.tmj' });
    const { grid, warnings } = convert(phaserMap(P, text));
    assert.deepEqual(navOf(grid), navOf(tiled.grid));
    assert.equal(grid.isWalkable(0, 5), false, 'the rock rectangle at (0, 5) blocks its cell');
    assert.equal(grid.hasEdgeWall(1, 2, 'north'), true, 'the fence polyline along y = 2');
    assert.equal(grid.isWalkable(1, 2), true, 'a fence blocks no cell');
    for (let y = 0; y < grid.height; y++) for (let x = 0; x < grid.width; x++) {
      if (grid.isWalkable(x, y)) assert.equal(findPath(grid, 7, 0, x, y).cost, findPath(tiled.grid, 7, 0, x, y).cost, `path to (${x}, ${y})`);
    }
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /object 4 "slanted": a line of it does not lie along a tile edge/);
  });

  test(`phaser tiled (${major}): links declared by objects (linkTo, linkCost, linkOneWay, collisionLayer) are the grid's links, as parseTiled's`, () => {
    const text = fixture('links/links.tmj');
    const tiled = parseTiled(text, { file: 'links.tmj' });
    const { grid, warnings } = convert(phaserMap(P, text));
    assert.equal(grid.layers.length, 2);
    assert.deepEqual(navOf(grid), navOf(tiled.grid));
    assert.ok(grid.links().length >= 2);
    assert.deepEqual(warnings.map((w) => w.replace(/^object layer/, 'layer')), tiled.warnings.filter((w) => /linkTo/.test(w)));
  });
}

test('phaser tiled: each of the eight gid flips turns a tile\'s walls as parseTiled turns them, on orthogonal and isometric maps', () => {
  const P = parsers('phaser');
  for (const orientation of ['orthogonal', 'isometric']) {
    for (let flips = 0; flips < 8; flips++) {
      // A 3 x 3 map, its centre a tile walled north and east, flipped (H << 2 | V << 1 | D).
      const gid = (2 | (flips << 29)) >>> 0;
      const json = {
        type: 'map', version: '1.10', orientation, renderorder: 'right-down', width: 3, height: 3, tilewidth: 16, tileheight: 16, infinite: false,
        tilesets: [{ firstgid: 1, name: 'walls', tilewidth: 16, tileheight: 16, tilecount: 2, columns: 2, tiles: [{ id: 1, properties: [{ name: 'wallNorth', type: 'bool', value: true }, { name: 'wallEast', type: 'bool', value: true }] }] }],
        layers: [{ type: 'tilelayer', name: 'g', width: 3, height: 3, visible: true, opacity: 1, x: 0, y: 0, data: [1, 1, 1, 1, gid, 1, 1, 1, 1] }],
      };
      const text = JSON.stringify(json);
      const walls = navOf(tilemapToNavGrid(phaserMap(P, text))).layers[0].walls;
      assert.deepEqual(walls, navOf(parseTiled(text, { file: 'flips.tmj' }).grid).layers[0].walls, `${orientation}, flips ${flips}`);
      assert.equal(walls.reduce((n, w) => n + ((w & FLAG_WALL_NORTH) !== 0 ? 1 : 0) + ((w & FLAG_WALL_WEST) !== 0 ? 1 : 0), 0), 2, 'two walls');
    }
  }
});

test('phaser tiled: sync and watch re-read tile walls and keep what the objects put up', () => {
  const P = parsers('phaser');
  const fences = phaserMap(P, fixture('walls/edge-walls.tmj'));
  const grid = tilemapToNavGrid(fences);
  const start = navOf(grid);
  watch(fences, grid);
  // The fence tile at (1, 0) walls its east side: taking it away opens that edge.
  assert.equal(grid.hasEdgeWall(1, 0, 'east'), true);
  fences.removeTileAt(1, 0, false, false, 1);
  assert.equal(grid.hasEdgeWall(1, 0, 'east'), false, 'removeTileAt took the tile\'s wall down');
  fences.putTileAt(2, 1, 0, false, 1);
  assert.deepEqual(navOf(grid), start, 'putTileAt put it back');
  // A wall the game put up itself on an edge no tile walls stays through a full sync.
  grid.setEdgeWall(4, 0, 'south', true);
  sync(fences, grid);
  assert.equal(grid.hasEdgeWall(4, 0, 'south'), true);

  const objects = phaserMap(P, fixture('walls/edge-wall-objects.tmj'));
  const walled = tilemapToNavGrid(objects);
  const before = navOf(walled);
  watch(objects, walled);
  // Ground tiles put on the fence's cells and the rock's: the objects' walls and blocking stay.
  for (const [x, y] of [[1, 2], [1, 1], [0, 5], [3, 3]]) objects.putTileAt(1, x, y);
  sync(objects, walled);
  assert.deepEqual(navOf(walled), before);
  assert.equal(walled.isWalkable(0, 5), false);
  // What the grid keeps for that is listed by grid.memory(): the objects' blocked cells and walls, 8 x 6 bytes each.
  assert.deepEqual(walled.memory().entries.filter((e) => e.name === 'phaser tilemap'), [{ name: 'phaser tilemap', layer: 0, bytes: 2 * 48 }]);
  assert.deepEqual(grid.memory().entries.filter((e) => e.name === 'phaser tilemap'), [{ name: 'phaser tilemap', layer: 0, bytes: 6 * 4 }], 'the tiles\' walls, 6 x 4 bytes');
});

test('phaser tiled: the mapping option takes the Tiled loader\'s conventions and is checked as loadTiled checks it', () => {
  const P = parsers('phaser');
  const text = fixture('walls/edge-wall-objects.tmj');
  const mapping = { collisionLayerNames: [], edgeWallTypes: [] };
  const { grid } = convert(phaserMap(P, text), { mapping });
  assert.deepEqual(navOf(grid), navOf(parseTiled(text, { file: 'edge-wall-objects.tmj', mapping }).grid));
  assert.equal(grid.isWalkable(0, 5), true, 'with no collision layer names the rock blocks nothing');
  assert.equal(grid.hasEdgeWall(6, 0, 'west'), false, 'the EdgeWall-class post row is no wall without its class');
  assert.equal(convert(phaserMap(P, text), { collisionProperties: ['solid'], mapping: { collisionProperties: ['nothing'] } }).grid.isWalkable(0, 5), false, 'collisionProperties wins over mapping.collisionProperties');
  assert.throws(() => tilemapToNavGrid(phaserMap(P, text), { mapping: { edgeWalls: [] } as never }), (e: unknown) => e instanceof TilenavError && e.element === 'mapping.edgeWalls');
  assert.throws(() => tilemapToNavGrid(phaserMap(P, text), { mapping: { layer: 1 } }), (e: unknown) => e instanceof TilenavError && e.element === 'mapping.layer');
  assert.throws(() => tilemapToNavGrid(phaserMap(P, text), { onWarning: true as never }), (e: unknown) => e instanceof TilenavError && e.element === 'onWarning');
  // An object layer's collisionLayer names a navigation layer the map does not have.
  const bad = phaserMap(P, text);
  (bad.objects![0] as { properties: unknown }).properties = [{ name: 'collisionLayer', type: 'int', value: 3 }];
  assert.throws(() => tilemapToNavGrid(bad), (e: unknown) => e instanceof TilenavError && /object layer "Walls"/.test(e.message) && /collisionLayer 3/.test(e.message));
});

test('phaser tiled: collision shapes of every kind block the cells parseTiled blocks, on orthogonal, isometric and hexagonal maps', () => {
  const P = parsers('phaser');
  const bool = (name: string) => [{ name, type: 'bool', value: true }];
  const objects = [
    { id: 1, name: 'rotated', type: '', x: 40, y: 8, width: 40, height: 12, rotation: 30, visible: true },
    { id: 2, name: 'pond', type: '', x: 100, y: 60, width: 36, height: 20, rotation: 0, visible: true, ellipse: true },
    { id: 3, name: 'rock', type: 'Obstacle', x: 20, y: 90, width: 0, height: 0, rotation: 0, visible: true, polygon: [{ x: 0, y: 0 }, { x: 30, y: 10 }, { x: 10, y: 30 }] },
    { id: 4, name: 'hedge', type: '', x: 150, y: 10, width: 0, height: 0, rotation: 0, visible: true, polyline: [{ x: 0, y: 0 }, { x: 0, y: 70 }], properties: [...bool('solid'), { name: 'lineWidth', type: 'float', value: 10 }] },
    // A tile object flipped both ways (its gid's flip bits, which Phaser splits off) hangs from its bottom-left corner.
    { id: 5, name: 'crate', type: '', x: 60, y: 120, width: 32, height: 16, rotation: 0, visible: true, gid: (1 | 0x80000000 | 0x40000000) >>> 0, properties: bool('collides') },
    { id: 6, name: 'hidden', type: '', x: 0, y: 0, width: 16, height: 16, rotation: 0, visible: false, properties: bool('collides') },
    { id: 7, name: 'marker', type: '', x: 90, y: 90, width: 0, height: 0, rotation: 0, visible: true, point: true, properties: bool('collides') },
  ];
  // Stagger index even: Phaser draws the hexagons half a tile from where Tiled does, and the objects must still fall on Tiled's cells.
  for (const [orientation, extra] of [['orthogonal', {}], ['isometric', {}], ['hexagonal', { hexsidelength: 8, staggeraxis: 'y', staggerindex: 'even' }]] as const) {
    const json = {
      type: 'map', version: '1.10', orientation, renderorder: 'right-down', width: 12, height: 10, tilewidth: 16, tileheight: 16, infinite: false, ...extra,
      tilesets: [{ firstgid: 1, name: 'crates', tilewidth: 16, tileheight: 16, tilecount: 1, columns: 1 }],
      layers: [
        { type: 'tilelayer', name: 'Ground', width: 12, height: 10, visible: true, opacity: 1, x: 0, y: 0, data: new Array(120).fill(0) },
        { type: 'objectgroup', name: 'Things', visible: true, opacity: 1, x: 0, y: 0, objects: objects.slice(0, 5) },
        { type: 'objectgroup', name: 'Collision', visible: true, opacity: 1, x: 0, y: 0, objects: objects.slice(5) },
      ],
    };
    const text = JSON.stringify(json);
    const tiled = navOf(parseTiled(text, { file: `${orientation}.tmj` }).grid);
    const got = navOf(tilemapToNavGrid(phaserMap(P, text)));
    assert.deepEqual(got, tiled, orientation);
    const blocked = got.layers[0].walkable.filter((w) => w === 0).length;
    assert.ok(blocked > 10, `${orientation}: the shapes block cells (${blocked})`);
    const shown = navOf(tilemapToNavGrid(phaserMap(P, text), { mapping: { hiddenLayers: false, collisionTypes: [] } }));
    assert.deepEqual(shown, navOf(parseTiled(text, { file: `${orientation}.tmj`, mapping: { hiddenLayers: false, collisionTypes: [] } }).grid), `${orientation}, other mapping`);
    assert.ok(shown.layers[0].walkable.filter((w) => w === 0).length < blocked, `${orientation}: without the Obstacle class the rock blocks nothing`);
  }
});
