/**
 * The adapter in a real Phaser game (built against Phaser 4, or Phaser 3 with TILENAV_PHASER=3):
 * orthogonal, isometric and hexagonal tilemaps made from data, converted (the orthogonal one by
 * the free functions, the others by the scene plugin), searched, a door tile put with putTileAt,
 * world <-> cell checked against where Phaser draws the tiles, and the scene's input listeners
 * compared before and after all of it; the Tiled fixtures with edge walls, blocking objects and
 * links loaded by Phaser and converted. The results go to `window.__check` for the e2e test.
 */
import * as Phaser from 'phaser';
import { findPath, type FindPathOptions, type NavGrid, type PathResult } from 'tilenav';
import { tilemapToNavGrid, watch, cellToWorld, worldToCell, drawDebug, TILENAV_SCENE_PLUGIN, type TilemapLike } from 'tilenav/phaser';
import edgeWalls from '../../test/fixtures/tiled/walls/edge-walls.tmj?raw';
import edgeWallObjects from '../../test/fixtures/tiled/walls/edge-wall-objects.tmj?raw';
import links from '../../test/fixtures/tiled/links/links.tmj?raw';

interface MapCheck {
  movement: string;
  size: [number, number];
  before: { status: string; cost: number; cells: number };
  after: { status: string; cost: number; crossesDoor: boolean };
  doorBlocked: boolean;
  reopened: number;
  /** Cells whose drawn tile centre (Phaser's tile.pixelX/Y + half a tile) converts back to them. */
  centresOk: number;
  /** Same count through Phaser's own worldToTileXY (orthogonal only: elsewhere Phaser's conversion differs from its drawing). */
  phaserAgrees: number;
  cells: number;
  /** Largest distance between the adapter's cell centre and Phaser's drawn tile centre (pixels). */
  centreError: number;
}

/** A Tiled fixture as the adapter converts it from Phaser's tilemap: per navigation layer, its cells and flags. */
interface TiledCheck {
  walkable: number[][];
  flags: number[][];
  links: { from: unknown; to: unknown; cost: number; bidirectional: boolean }[];
  /** The path from (5, 3) to (2, 0): around edge-walls.tmj's L-shaped fence. */
  cost: number;
}

declare global {
  interface Window {
    __check?: { version: string; maps: Record<string, MapCheck>; tiled?: Record<string, TiledCheck>; input?: { before: Record<string, number>; after: Record<string, number> }; error?: string; done: boolean };
  }
}

const W = 9;
const H = 5;
/** 1 floor, 2 wall; a wall down column 4 with two gaps: row 2 (the door) and row 4 (the way around). */
const ROWS = Array.from({ length: H }, (_, y) => Array.from({ length: W }, (_, x) => (x === 4 && y !== 2 && y !== 4 ? 2 : 1)));
const DOOR = { x: 4, y: 2 };

function tiledJson(orientation: string, tw: number, th: number, extra: Record<string, unknown>): unknown {
  return {
    type: 'map', version: '1.10', orientation, renderorder: 'right-down', width: W, height: H, tilewidth: tw, tileheight: th, infinite: false, nextlayerid: 2, nextobjectid: 1, ...extra,
    layers: [{ id: 1, name: 'ground', type: 'tilelayer', x: 0, y: 0, width: W, height: H, opacity: 1, visible: true, data: ROWS.flat() }],
    tilesets: [{ firstgid: 1, name: 'tiles', image: 'tiles.png', imagewidth: tw * 2, imageheight: th, tilewidth: tw, tileheight: th, tilecount: 2, columns: 2, margin: 0, spacing: 0, tiles: [{ id: 1, properties: [{ name: 'collides', type: 'bool', value: true }] }] }],
  };
}

/** A converted and watched tilemap: its grid and how to search it. */
interface Converted {
  grid: NavGrid;
  findPath(sx: number, sy: number, gx: number, gy: number, options?: FindPathOptions): PathResult;
}

function check(scene: Phaser.Scene, map: Phaser.Tilemaps.Tilemap, layer: Phaser.Tilemaps.TilemapLayer, nav: Converted, orthogonal: boolean): MapCheck {
  const { grid } = nav;
  const doorIndex = DOOR.y * W + DOOR.x;
  const before = nav.findPath(0, 2, W - 1, 2);
  // The door closes: a wall tile (index 2: colliding by setCollision or by its collides property) put in the gap.
  layer.putTileAt(2, DOOR.x, DOOR.y);
  const doorBlocked = !grid.isWalkable(DOOR.x, DOOR.y);
  const after = nav.findPath(0, 2, W - 1, 2);
  drawDebug(scene.add.graphics(), grid, { paths: [before, after] });
  layer.putTileAt(1, DOOR.x, DOOR.y);
  const reopened = nav.findPath(0, 2, W - 1, 2).cost;
  let centresOk = 0;
  let phaserAgrees = 0;
  let centreError = 0;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const tile = layer.getTileAt(x, y, true);
      const cx = layer.x + (tile.pixelX + map.tileWidth / 2) * layer.scaleX;
      const cy = layer.y + (tile.pixelY + map.tileHeight / 2) * layer.scaleY;
      const c = worldToCell(grid, cx, cy);
      if (c && c.x === x && c.y === y) centresOk++;
      const w = cellToWorld(grid, x, y);
      centreError = Math.max(centreError, Math.hypot(w.x - cx, w.y - cy));
      if (orthogonal) {
        const p = map.worldToTileXY(cx, cy, true, undefined, scene.cameras.main, layer) as Phaser.Math.Vector2;
        if (p.x === x && p.y === y) phaserAgrees++;
      }
    }
  }
  return {
    movement: grid.movement,
    size: [grid.width, grid.height],
    before: { status: before.status, cost: before.cost, cells: before.cells.length },
    after: { status: after.status, cost: after.cost, crossesDoor: Array.from(after.cells).includes(doorIndex) },
    doorBlocked,
    reopened,
    centresOk,
    phaserAgrees,
    cells: W * H,
    centreError,
  };
}

function tilesTexture(scene: Phaser.Scene, key: string, tw: number, th: number, columns = 2): void {
  const canvas = scene.textures.createCanvas(key, tw * columns, th) as Phaser.Textures.CanvasTexture;
  const ctx = canvas.getContext();
  ctx.fillStyle = '#4a7';
  ctx.fillRect(0, 0, tw, th);
  ctx.fillStyle = '#555';
  ctx.fillRect(tw, 0, tw, th);
  canvas.refresh();
}

/**
 * A Tiled fixture loaded by Phaser, its tile layers drawn, converted by the scene plugin. Phaser
 * keeps per-tile properties only for tilesets with an image, so each tileset gets one.
 */
function tiledCheck(scene: Phaser.Scene, key: string, text: string): TiledCheck {
  const json = JSON.parse(text);
  for (const t of json.tilesets) Object.assign(t, { image: `${t.name}.png`, imagewidth: t.columns * t.tilewidth, imageheight: t.tileheight });
  scene.cache.tilemap.add(key, { format: Phaser.Tilemaps.Formats.TILED_JSON, data: json });
  const map = scene.make.tilemap({ key });
  const sets = json.tilesets.map((t: { name: string; tilewidth: number; tileheight: number; columns: number }) => {
    tilesTexture(scene, `${key}-${t.name}`, t.tilewidth, t.tileheight, t.columns);
    return map.addTilesetImage(t.name, `${key}-${t.name}`)!;
  });
  if (sets.length > 0) for (const l of map.layers) map.createLayer(l.name, sets, 0, 0);
  const { grid, findPath } = scene.tilenav.fromTilemap(map);
  return {
    walkable: grid.layers.map((l) => Array.from(l.walkable)),
    flags: grid.layers.map((l) => Array.from(l.flags)),
    links: grid.links().map((k) => ({ from: k.from, to: k.to, cost: k.cost, bidirectional: k.bidirectional })),
    cost: grid.width > 5 && grid.height > 3 ? findPath(5, 3, 2, 0).cost : NaN,
  };
}

/** Every event the scene's input plugin (and its keyboard, when there is one) has listeners for, with their counts. */
function inputListeners(scene: Phaser.Scene): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [prefix, emitter] of [['', scene.input], ['keyboard:', scene.input.keyboard]] as const) {
    for (const name of emitter?.eventNames() ?? []) out[prefix + String(name)] = emitter!.listenerCount(name);
  }
  return out;
}

class CheckScene extends Phaser.Scene {
  create(): void {
    const input = { before: inputListeners(this), after: {} };
    const maps: Record<string, MapCheck> = {};
    // Orthogonal, from a data array; walls collide through Phaser's own setCollision. The free functions.
    tilesTexture(this, 'ortho', 16, 16);
    const ortho = this.make.tilemap({ data: ROWS, tileWidth: 16, tileHeight: 16 });
    // First gid 1, so index 1 is floor and 2 wall as in the Tiled maps.
    const orthoSet = ortho.addTilesetImage('ortho', 'ortho', 16, 16, 0, 0, 1)!;
    const orthoLayer = ortho.createLayer(0, orthoSet, 8, 8) as Phaser.Tilemaps.TilemapLayer;
    ortho.setCollision([2]);
    const grid = tilemapToNavGrid(ortho as unknown as TilemapLike);
    watch(ortho as unknown as TilemapLike, grid);
    maps.orthogonal = check(this, ortho, orthoLayer, { grid, findPath: (sx, sy, gx, gy, o) => findPath(grid, sx, sy, gx, gy, o) }, true);
    // Isometric and hexagonal, from Tiled JSON; walls collide through the tile property. The scene plugin.
    for (const [name, json, tw, th] of [
      ['isometric', tiledJson('isometric', 32, 16, {}), 32, 16],
      ['hexagonal', tiledJson('hexagonal', 28, 32, { hexsidelength: 16, staggeraxis: 'y', staggerindex: 'odd' }), 28, 32],
    ] as const) {
      tilesTexture(this, name, tw, th);
      this.cache.tilemap.add(name, { format: Phaser.Tilemaps.Formats.TILED_JSON, data: json });
      const map = this.make.tilemap({ key: name });
      const set = map.addTilesetImage('tiles', name)!;
      const layer = map.createLayer('ground', set, 200, 100) as Phaser.Tilemaps.TilemapLayer;
      maps[name] = check(this, map, layer, this.tilenav.fromTilemap(map), false);
    }
    this.tilenav.navigation.agents().update(16);
    input.after = inputListeners(this);
    const tiled = { 'edge-walls': tiledCheck(this, 'edge-walls', edgeWalls), 'edge-wall-objects': tiledCheck(this, 'edge-wall-objects', edgeWallObjects), links: tiledCheck(this, 'links', links) };
    window.__check = { version: Phaser.VERSION, maps, tiled, input, done: true };
  }
}

/** Never called: `this.tilenav` is typed (not any) in a scene, so a wrong argument is a type error. */
export function typedInScene(scene: Phaser.Scene): void {
  // @ts-expect-error findPath takes cell coordinates, not a string
  scene.tilenav.findPath('a', 0, 1, 1);
  // @ts-expect-error the plugin has no such method
  scene.tilenav.findPaths();
}

try {
  new Phaser.Game({ type: Phaser.AUTO, width: 480, height: 320, backgroundColor: '#111', scene: CheckScene, banner: false, audio: { noAudio: true }, plugins: { scene: [TILENAV_SCENE_PLUGIN] } });
} catch (e) {
  window.__check = { version: Phaser.VERSION, maps: {}, error: String(e), done: true };
}
