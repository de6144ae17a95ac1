/**
 * tilenav/phaser against a fake tilemap shaped like Phaser's (no Phaser needed): conversion,
 * blocking and costs from properties, navigation layers, sync/watch after tile changes, world <->
 * cell, debug drawing and sprites following agents.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findPath, Pathfinder, TilenavError, TerrainTable } from '../src/index.js';
import { NavigationSystem } from '../src/agents/index.js';
import { OVERLAY_COLORS } from '../src/render/index.js';
import { tilemapToNavGrid, sync, watch, unwatch, cellToWorld, worldToCell, drawDebug, colorNumber, AgentSprites, TilenavPlugin, DEFAULT_DEBUG_DRAW_OPTIONS, type TilemapLike, type TileLike, type GraphicsLike } from '../src/adapters/phaser/index.js';

/** Tileset tile properties by index, Tiled's array form as Phaser keeps it. */
const TILESET: Record<number, { name: string; value: unknown }[]> = {
  1: [],
  2: [{ name: 'collides', value: true }],
  3: [{ name: 'terrainType', value: 'Mud' }],
  4: [{ name: 'cost', value: 3 }],
  5: [{ name: 'terrainType', value: 'Lava' }],
};
const tileset = { getTileProperties: (i: number) => TILESET[i] ?? null };

/** The fake tilemap: Phaser's shape plus the tile-changing methods watch wraps. */
type FakeMap = TilemapLike & { putTileAt(index: number, x: number, y: number, recalc?: boolean, layer?: number): unknown; removeTileAt(x: number, y: number): void; setCollision(indexes: number[], collides?: boolean): void };

/** A fake Phaser tilemap from rows of tile indexes (0 / '.' empty), orthogonal 16 x 16 unless told. */
function fakeMap(layers: Record<string, string[]>, extra: Partial<TilemapLike> = {}, layerProps: Record<string, unknown> = {}): FakeMap {
  const rows = Object.values(layers)[0];
  const height = rows.length;
  const width = rows[0].length;
  const tile = (index: number, x: number, y: number): TileLike & { collideLeft: boolean } => ({ index, x, y, collideLeft: false, get collides() { return this.collideLeft; }, properties: {}, tileset });
  const map: FakeMap = {
    width,
    height,
    tileWidth: 16,
    tileHeight: 16,
    orientation: 0,
    layers: Object.entries(layers).map(([name, r]) => ({
      name,
      width,
      height,
      properties: layerProps[name] ?? [],
      data: r.map((row, y) => [...row].map((ch, x) => tile(ch === '.' ? -1 : Number(ch), x, y))),
      tilemapLayer: null,
    })),
    putTileAt(index: number, x: number, y: number, _r?: boolean, layer = 0): unknown {
      const t = tile(index, x, y);
      (map.layers[layer as number].data[y][x] as unknown) = t;
      return t;
    },
    removeTileAt(x: number, y: number, _n?: boolean, _r?: boolean, layer = 0): void {
      map.layers[layer as number].data[y][x] = tile(-1, x, y);
    },
    setCollision(indexes: number[], collides = true): void {
      for (const l of map.layers) for (const row of l.data) for (const t of row) if (t && indexes.includes(t.index)) (t as unknown as { collideLeft: boolean }).collideLeft = collides;
    },
    ...extra,
  };
  return map;
}

const WALLED = ['1111111', '1112111', '1112111', '1111111'];

test('phaser: an orthogonal tilemap converts to an octile grid; collides properties block, terrainType and cost set costs', () => {
  const map = fakeMap({ ground: ['1111111', '1132411', '1115111', '1111111'] });
  const grid = tilemapToNavGrid(map);
  assert.equal(grid.movement, 'octile', 'the grid carries the map\'s movement model');
  assert.equal(grid.width, 7);
  assert.equal(grid.height, 4);
  assert.equal(grid.isWalkable(3, 1), false, 'collides property blocks');
  assert.equal(grid.isWalkable(3, 2), false, 'Lava terrain blocks');
  assert.equal(grid.getCost(2, 1), 1.5, 'Mud costs 1.5');
  assert.equal(grid.getTerrain(2, 1), 'Mud');
  assert.equal(grid.getCost(4, 1), 3, 'cost property');
  assert.equal(grid.getCost(0, 0), 1);
});

test('phaser: Phaser collision flags (setCollision) block, and watch keeps the next path in step with putTileAt', () => {
  const map = fakeMap({ ground: ['1111111', '1111111', '1111111'] });
  map.setCollision([9]);
  const grid = tilemapToNavGrid(map);
  const open = findPath(grid, 0, 1, 6, 1);
  assert.equal(open.cost, 6);
  const stop = watch(map, grid);
  // A door tile (index 9, colliding) dropped in the middle column: the next path goes around.
  for (const y of [0, 1]) map.putTileAt(9, 3, y);
  map.setCollision([9]);
  assert.equal(grid.isWalkable(3, 0), false);
  const around = findPath(grid, 0, 1, 6, 1);
  assert.equal(around.status, 'found');
  assert.ok(around.cost > open.cost, `around ${around.cost} > straight ${open.cost}`);
  assert.ok(!Array.from(around.cells).some((c) => c % 7 === 3 && c < 14));
  // Opening the door: removeTileAt frees the cell at once.
  map.removeTileAt(3, 1);
  assert.equal(grid.isWalkable(3, 1), true);
  assert.equal(findPath(grid, 0, 1, 6, 1).cost, 6);
  stop();
  assert.equal(Object.prototype.hasOwnProperty.call(map, 'putTileAt'), true, 'own methods are put back as own');
  map.putTileAt(2, 3, 1);
  assert.equal(grid.isWalkable(3, 1), true, 'unwatched: the grid no longer follows');
  sync(map, grid, { x: 3, y: 1, width: 1, height: 1 });
  assert.equal(grid.isWalkable(3, 1), false, 'sync reads the change');
  sync(map, grid, { x: -5, y: -5, width: 100, height: 100 });
  assert.equal(grid.isWalkable(3, 1), false, 'a rectangle past the map is clipped');
  assert.throws(() => sync(map, grid, { x: NaN, y: 0, width: 1, height: 1 }), (e: unknown) => e instanceof TilenavError && /rect/.test(e.message));
  unwatch(grid);
});

test('phaser: watch patches a prototype method on the instance and unwatch removes the patch', () => {
  class Layer {
    count = 0;
    putTileAt(): void {
      this.count++;
    }
  }
  const map = fakeMap({ ground: ['11', '11'] });
  const layer = new Layer() as unknown as Record<string, unknown>;
  Object.assign(layer, { x: 0, y: 0, scaleX: 1, scaleY: 1, layer: map.layers[0] });
  map.layers[0].tilemapLayer = layer as never;
  const grid = tilemapToNavGrid(map);
  watch(map, grid);
  assert.equal(Object.prototype.hasOwnProperty.call(layer, 'putTileAt'), true);
  (layer.putTileAt as (i: number, x: number, y: number) => void)(2, 0, 0);
  assert.equal((layer as { count: number }).count, 1, 'the original runs');
  unwatch(grid);
  assert.equal(Object.prototype.hasOwnProperty.call(layer, 'putTileAt'), false);
});

test('phaser: layers option, collisionLayer and navigationLayers pick what counts where', () => {
  const map = fakeMap(
    { ground: ['111', '111'], walls: ['.2.', '...'], sky: ['..2', '...'] },
    { properties: [{ name: 'navigationLayers', value: 2 }] },
    { sky: [{ name: 'collisionLayer', value: 1 }] },
  );
  const all = tilemapToNavGrid(map);
  assert.equal(all.layers.length, 2);
  assert.equal(all.isWalkable(1, 0, 0), false);
  assert.equal(all.isWalkable(2, 0, 0), true, 'sky tiles feed layer 1 only');
  assert.equal(all.isWalkable(2, 0, 1), false);
  const groundOnly = tilemapToNavGrid(map, { layers: ['ground'] });
  assert.equal(groundOnly.isWalkable(1, 0), true);
  assert.throws(() => tilemapToNavGrid(map, { layers: ['roof'] }), (e: unknown) => e instanceof TilenavError && /roof/.test(e.message) && /ground/.test(e.message));
});

test('phaser: bad input is a TilenavError naming what was wrong', () => {
  assert.throws(() => tilemapToNavGrid(null as never), TilenavError);
  assert.throws(() => tilemapToNavGrid(fakeMap({ g: ['1'] }, { orientation: 7 })), (e: unknown) => e instanceof TilenavError && /orientation/.test(e.message));
  TILESET[6] = [{ name: 'cost', value: -2 }];
  assert.throws(() => tilemapToNavGrid(fakeMap({ g: ['16'] })), (e: unknown) => e instanceof TilenavError && /"cost"/.test(e.message) && /\(1, 0\)/.test(e.message));
  delete TILESET[6];
  const grid = tilemapToNavGrid(fakeMap({ g: ['11'] }));
  assert.throws(() => sync(fakeMap({ g: ['11'] }), new (grid.constructor as never as new (w: number, h: number) => typeof grid)(2, 1)), /not made by tilemapToNavGrid/);
});

test('phaser: tile sizes, a hex side or a layer scale that give no finite pixel coordinates are refused, naming the field', () => {
  const layerAt = (scaleX: number, scaleY: number) => ({ x: 0, y: 0, scaleX, scaleY });
  const cases: [Partial<TilemapLike>, string, ReturnType<typeof layerAt> | null][] = [
    [{ tileWidth: 1e308 }, 'tileWidth', null],
    [{ tileHeight: 1e308 }, 'tileHeight', null],
    [{ tileWidth: 5e-324 }, 'tileWidth', null],
    [{ orientation: 1, tileWidth: 1e308 }, 'tileWidth', null],
    [{ orientation: 3, staggerAxis: 'x', hexSideLength: 1e308 } as Partial<TilemapLike>, 'hexSideLength', null],
    // Finite tiles, but the world layer's scale takes them past the largest double.
    [{ tileWidth: 1e300 }, 'tileWidth', layerAt(1e10, 1)],
  ];
  for (const [extra, field, at] of cases) {
    const map = fakeMap({ g: ['11111', '11111'] }, extra);
    if (at !== null) (map.layers[0] as { tilemapLayer: unknown }).tilemapLayer = at;
    assert.throws(
      () => tilemapToNavGrid(map),
      (e: unknown) => e instanceof TilenavError && e.element === `tilemap.${field}` && /expected a size that gives finite pixel coordinates/.test(e.message),
      JSON.stringify(extra),
    );
  }
  assert.equal(tilemapToNavGrid(fakeMap({ g: ['11111', '11111'] }, { tileWidth: 1e300 })).width, 5);
});

test('phaser: a custom terrain table and blocks rule', () => {
  const terrain = new TerrainTable();
  terrain.define('Mud', 4);
  const map = fakeMap({ g: ['131'] });
  const grid = tilemapToNavGrid(map, { terrain, blocks: (t) => t.x === 0 });
  assert.equal(grid.getCost(1, 0), 4);
  assert.equal(grid.isWalkable(0, 0), false);
});

test('phaser: world <-> cell follows the layer position and scale; every orientation round-trips cell centres', () => {
  const map = fakeMap({ g: ['1111', '1111', '1111'] });
  map.layers[0].tilemapLayer = { x: 100, y: 50, scaleX: 2, scaleY: 2, layer: map.layers[0] };
  const grid = tilemapToNavGrid(map);
  assert.deepEqual(cellToWorld(grid, 0, 0), { x: 116, y: 66 });
  assert.deepEqual(worldToCell(grid, 100 + 32 * 3 + 1, 50 + 32 * 2 + 31), { x: 3, y: 2 });
  assert.equal(worldToCell(grid, 99, 60), null);
  for (const [orientation, extra, movement] of [
    [1, {}, 'iso'],
    [2, {}, 'staggered-odd-r'],
    [3, { hexSideLength: 8, staggerAxis: 'y', staggerIndex: 'odd' }, 'hex-odd-r'],
    [3, { hexSideLength: 8, staggerAxis: 'x', staggerIndex: 'even' }, 'hex-even-q'],
  ] as const) {
    const m = fakeMap({ g: ['1111', '1111', '1111'] }, { orientation, ...extra });
    const grid = tilemapToNavGrid(m);
    assert.equal(grid.movement, movement);
    for (let y = 0; y < 3; y++) for (let x = 0; x < 4; x++) {
      const w = cellToWorld(grid, x, y);
      assert.deepEqual(worldToCell(grid, w.x, w.y), { x, y }, `orientation ${orientation} cell ${x},${y}`);
    }
  }
  // Isometric: tile (0, 0) drawn with its box's top-left at the layer origin, so its centre is half a tile in.
  const iso = tilemapToNavGrid(fakeMap({ g: ['11', '11'] }, { orientation: 1, tileWidth: 64, tileHeight: 32 }));
  assert.deepEqual(cellToWorld(iso, 0, 0), { x: 32, y: 16 });
  assert.deepEqual(cellToWorld(iso, 1, 0), { x: 64, y: 32 });
});

/** Records Graphics calls. */
function fakeGraphics(): GraphicsLike & { calls: string[]; fills: number[] } {
  const calls: string[] = [];
  const fills: number[] = [];
  const rec = (name: string) => (...a: unknown[]) => {
    calls.push(name);
    if (name === 'fillStyle') fills.push(a[0] as number);
  };
  return { calls, fills, clear: rec('clear'), fillStyle: rec('fillStyle'), lineStyle: rec('lineStyle'), beginPath: rec('beginPath'), moveTo: rec('moveTo'), lineTo: rec('lineTo'), closePath: rec('closePath'), fillPath: rec('fillPath'), strokePath: rec('strokePath'), fillCircle: rec('fillCircle') };
}

test('phaser: drawDebug draws the paths it is given and nothing else unless asked: no cell tints by default', () => {
  const grid = tilemapToNavGrid(fakeMap({ g: WALLED }));
  const finder = new Pathfinder(grid);
  const path = finder.findPath(0, 1, 6, 1, { algorithm: 'astar' });
  const g = fakeGraphics();
  drawDebug(g, grid, { paths: [path] });
  assert.equal(g.calls[0], 'clear');
  assert.equal(g.calls.filter((c) => c === 'fillPath').length, 0, 'no cell filled');
  assert.deepEqual(g.fills, [colorNumber(OVERLAY_COLORS.goal)], 'one fill colour: the dot on the last cell');
  assert.equal(g.calls.filter((c) => c === 'strokePath').length, 1);
  assert.equal(g.calls.filter((c) => c === 'lineTo').length, path.cells.length - 1);
  const empty = fakeGraphics();
  drawDebug(empty, grid);
  assert.deepEqual(empty.calls, ['clear'], 'no options: the graphics is only cleared');
  assert.equal(DEFAULT_DEBUG_DRAW_OPTIONS.cells, false);
  assert.throws(() => drawDebug(fakeGraphics(), grid, { layer: 'Roof' }), TilenavError, 'a wrong layer throws without cell tints too');
  // The dot's size is an option; 0 draws none; a wrong one throws naming it.
  const circles: number[] = [];
  const sized = { ...fakeGraphics(), fillCircle: (_x: number, _y: number, r: number) => circles.push(r) };
  drawDebug(sized, grid, { paths: [path], dotRadius: 1.5 });
  drawDebug(sized, grid, { paths: [path], dotRadius: 0 });
  assert.deepEqual(circles, [1.5]);
  assert.throws(() => drawDebug(fakeGraphics(), grid, { paths: [path], dotRadius: -1 }), (e: unknown) => e instanceof TilenavError && e.element === 'dotRadius');
});

test('phaser: drawDebug with cells and expandedBy fills cells in the overlay colours, the expanded cells and the path', () => {
  const grid = tilemapToNavGrid(fakeMap({ g: WALLED }));
  const finder = new Pathfinder(grid);
  const path = finder.findPath(0, 1, 6, 1, { algorithm: 'astar' });
  const g = fakeGraphics();
  drawDebug(g, grid, { cells: true, paths: [path], expandedBy: finder });
  assert.equal(g.calls[0], 'clear');
  assert.equal(g.fills.filter((c) => c === colorNumber(OVERLAY_COLORS.blocked)).length, 2);
  assert.equal(g.fills.filter((c) => c === colorNumber(OVERLAY_COLORS.normal)).length, 26);
  assert.ok(g.fills.filter((c) => c === colorNumber(OVERLAY_COLORS.expanded)).length >= path.cells.length - 1);
  assert.equal(g.calls.filter((c) => c === 'strokePath').length, 1);
  assert.equal(g.calls.filter((c) => c === 'lineTo').length, 28 * 3 + g.fills.filter((c) => c === colorNumber(OVERLAY_COLORS.expanded) || c === colorNumber(OVERLAY_COLORS.open)).length * 3 + path.cells.length - 1);
});

test('phaser: AgentSprites steps the system and places sprites at world pixels, arriving on the goal cell', () => {
  const map = fakeMap({ g: WALLED });
  const grid = tilemapToNavGrid(map);
  const system = new NavigationSystem(grid, { movement: grid.movement });
  const sprites = new AgentSprites(system);
  const id = system.addAgent({ x: 0, y: 1 });
  const sprite = sprites.bind(id, { x: 0, y: 0 });
  assert.deepEqual(sprite, { x: 8, y: 24 });
  system.moveTo(id, 6, 1);
  for (let k = 0; k < 300 && (system.isMoving(id) || k === 0); k++) sprites.update(1000 / 60);
  assert.equal(system.isMoving(id), false);
  assert.deepEqual(worldToCell(grid, sprite.x, sprite.y), { x: 6, y: 1 });
  assert.ok(Math.abs(sprite.x - (6 * 16 + 8)) < 3 && Math.abs(sprite.y - 24) < 3);
  system.removeAgent(id);
  sprites.update(16);
  assert.equal(sprites.sprite(id), undefined);
  assert.throws(() => sprites.bind(42, { x: 0, y: 0 }), TilenavError);
});

/** A fake scene: its events (shutdown, destroy) and an input plugin that records every call made on it. */
function fakeScene() {
  const handlers: Record<string, (() => void)[]> = {};
  const inputCalls: string[] = [];
  const input = new Proxy({}, { get: (_t, name) => (...args: unknown[]) => inputCalls.push(`${String(name)}(${args.map((a) => typeof a).join(', ')})`) });
  const add = (e: string, fn: () => void) => (handlers[e] ??= []).push(fn);
  const scene = { sys: { events: { on: add, once: add } }, input };
  const emit = (e: string) => {
    for (const fn of handlers[e] ?? []) fn();
  };
  return { scene, emit, inputCalls, handlers };
}

test('phaser: the scene plugin converts and watches, finds paths with the map\'s movement, adds no input handler, and unwatches on shutdown and destroy', () => {
  const { scene, emit, inputCalls, handlers } = fakeScene();
  const plugin = new TilenavPlugin(scene, null, 'tilenav');
  plugin.boot();
  assert.deepEqual(Object.keys(handlers).sort(), ['destroy', 'shutdown'], 'the plugin listens to the scene\'s shutdown and destroy, nothing else');
  assert.throws(() => plugin.findPath(0, 0, 1, 0), (e: unknown) => e instanceof TilenavError && /fromTilemap/.test(e.message));
  const map = fakeMap({ g: ['111', '111'] });
  const nav = plugin.fromTilemap(map);
  map.putTileAt(2, 1, 0);
  assert.equal(nav.grid.isWalkable(1, 0), false);
  assert.equal(plugin.findPath(0, 0, 2, 0).cost, 4, 'around the wall without cutting corners');
  assert.equal(plugin.navigation, nav);
  const sprites = nav.agents({ walkSpeed: 6 });
  assert.equal(sprites.system.movement, 'octile');
  assert.equal(sprites.system.options.walkSpeed, 6);
  drawDebug(fakeGraphics(), nav.grid, { paths: [plugin.findPath(0, 0, 2, 1)] });
  sprites.update(16);
  assert.deepEqual(inputCalls, [], 'no call on scene.input: no pointer handler added');
  emit('shutdown');
  map.putTileAt(2, 2, 1);
  assert.equal(nav.grid.isWalkable(2, 1), true, 'no longer watched after the scene shut down');
  assert.throws(() => plugin.navigation, TilenavError, 'a restarted scene converts its tilemap again');
  // Restarted: the next create() converts again; destroy unwatches that one too.
  const again = plugin.fromTilemap(map);
  emit('destroy');
  map.putTileAt(2, 0, 1);
  assert.equal(again.grid.isWalkable(0, 1), true, 'no longer watched after the scene was destroyed');
});

test('phaser: the grid carries the map\'s movement model; the plugin, its agents and its findPath use it, options.movement overrides it', () => {
  const plugin = new TilenavPlugin(fakeScene().scene);
  plugin.boot();
  // Hexagonal, odd rows shifted: six neighbours of step length 1.
  const hex = plugin.fromTilemap(fakeMap({ g: ['1111', '1111', '1111'] }, { orientation: 3, hexSideLength: 8, staggerAxis: 'y', staggerIndex: 'odd' }));
  assert.equal(hex.grid.movement, 'hex-odd-r');
  assert.equal(hex.agents().system.movement, 'hex-odd-r');
  assert.equal(hex.findPath(0, 0, 3, 2).cost, 4, 'hex steps (octile would give 2 sqrt 2 + 1)');
  assert.equal(plugin.findPath(0, 0, 3, 2).cost, 4);
  const staggeredGrid = tilemapToNavGrid(fakeMap({ g: ['1111', '1111'] }, { orientation: 2 }));
  assert.equal(staggeredGrid.movement, 'staggered-odd-r');
  // An orthogonal map walked in four directions.
  const four = plugin.fromTilemap(fakeMap({ g: ['1111', '1111', '1111'] }), { movement: 'cardinal' });
  assert.equal(four.grid.movement, 'cardinal');
  assert.equal(four.findPath(0, 0, 3, 2).cost, 5, 'manhattan');
  assert.equal(four.findPath(0, 0, 3, 2, { movement: 'octile' }).cost, 2 * Math.SQRT2 + 1, 'a query may still ask for another model');
  assert.equal(four.agents().system.movement, 'cardinal');
  assert.equal(four.agents({ movement: 'octile' }).system.movement, 'octile');
});

test('phaser: docs/phaser.md shows the scene the e2e test runs in Phaser 3 and 4, and the example map is the current copy of frontier.tmx', async () => {
  const { readFileSync } = await import('node:fs');
  const { tmxToTmj } = await import('../examples/phaser/make-map.js');
  const root = new URL('..', import.meta.url);
  const page = readFileSync(new URL('docs/phaser.md', root), 'utf8');
  const section = page.slice(page.indexOf('## In a scene'));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  assert.equal(block, readFileSync(new URL('examples/phaser/walk-scene.ts', root), 'utf8'));
  assert.equal(readFileSync(new URL('examples/phaser/frontier.tmj', root), 'utf8'), tmxToTmj(readFileSync(new URL('examples/frontier.tmx', root), 'utf8')), 'run node --import tsx examples/phaser/make-map.ts');
});

test('phaser: package.json exports tilenav/phaser, makes Phaser an optional peer, and its example script names files that exist', async () => {
  const { existsSync, readFileSync } = await import('node:fs');
  const root = new URL('..', import.meta.url);
  const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
  assert.deepEqual(pkg.exports['./phaser'], { types: './dist/adapters/phaser/index.d.ts', default: './dist/adapters/phaser/index.js' });
  assert.equal(pkg.peerDependencies.phaser, '>=3.60 <5');
  assert.equal(pkg.peerDependenciesMeta.phaser.optional, true);
  const files = [...(pkg.scripts['example:phaser'] as string).matchAll(/\S+\.ts\b/g)].map((m) => m[0]);
  assert.ok(files.length >= 2, files.join(' '));
  for (const f of files) assert.ok(existsSync(new URL(f, root)), `${f} exists`);
});
