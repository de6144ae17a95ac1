/**
 * The adapter in a real Phaser game (built against Phaser 4, or Phaser 3 with TILENAV_PHASER=3):
 * orthogonal, isometric and hexagonal tilemaps made from data, converted, searched, a door tile
 * put with putTileAt, world <-> cell checked against where Phaser draws the tiles. The results go
 * to `window.__check` for the e2e test.
 */
import * as Phaser from 'phaser';
import { findPath, type NavGrid } from 'tilenav';
import { tilemapToNavGrid, watch, cellToWorld, worldToCell, type TilemapLike } from 'tilenav/phaser';
import { addNavigation } from './readme-example';

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

declare global {
  interface Window {
    __check?: { version: string; maps: Record<string, MapCheck>; readme?: { movement: string; open: number; closed: number; crossesDoor: boolean; offMap: boolean }; error?: string; done: boolean };
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

function check(scene: Phaser.Scene, map: Phaser.Tilemaps.Tilemap, layer: Phaser.Tilemaps.TilemapLayer, orthogonal: boolean): MapCheck {
  const tm = map as unknown as TilemapLike;
  const { grid, movement } = tilemapToNavGrid(tm);
  watch(tm, grid);
  const doorIndex = DOOR.y * W + DOOR.x;
  const before = findPath(grid, 0, 2, W - 1, 2, { movement });
  // The door closes: a wall tile (index 2: colliding by setCollision or by its collides property) put in the gap.
  layer.putTileAt(2, DOOR.x, DOOR.y);
  const doorBlocked = !grid.isWalkable(DOOR.x, DOOR.y);
  const after = findPath(grid, 0, 2, W - 1, 2, { movement });
  layer.putTileAt(1, DOOR.x, DOOR.y);
  const reopened = findPath(grid, 0, 2, W - 1, 2, { movement }).cost;
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
    movement,
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

function tilesTexture(scene: Phaser.Scene, key: string, tw: number, th: number): void {
  const canvas = scene.textures.createCanvas(key, tw * 2, th) as Phaser.Textures.CanvasTexture;
  const ctx = canvas.getContext();
  ctx.fillStyle = '#4a7';
  ctx.fillRect(0, 0, tw, th);
  ctx.fillStyle = '#555';
  ctx.fillRect(tw, 0, tw, th);
  canvas.refresh();
}

class CheckScene extends Phaser.Scene {
  create(): void {
    const maps: Record<string, MapCheck> = {};
    // Orthogonal, from a data array; walls collide through Phaser's own setCollision.
    tilesTexture(this, 'ortho', 16, 16);
    const ortho = this.make.tilemap({ data: ROWS, tileWidth: 16, tileHeight: 16 });
    // First gid 1, so index 1 is floor and 2 wall as in the Tiled maps.
    const orthoSet = ortho.addTilesetImage('ortho', 'ortho', 16, 16, 0, 0, 1)!;
    const orthoLayer = ortho.createLayer(0, orthoSet, 8, 8) as Phaser.Tilemaps.TilemapLayer;
    ortho.setCollision([2]);
    maps.orthogonal = check(this, ortho, orthoLayer, true);
    // Isometric and hexagonal, from Tiled JSON; walls collide through the tile property.
    for (const [name, json, tw, th] of [
      ['isometric', tiledJson('isometric', 32, 16, {}), 32, 16],
      ['hexagonal', tiledJson('hexagonal', 28, 32, { hexsidelength: 16, staggeraxis: 'y', staggerindex: 'odd' }), 28, 32],
    ] as const) {
      tilesTexture(this, name, tw, th);
      this.cache.tilemap.add(name, { format: Phaser.Tilemaps.Formats.TILED_JSON, data: json });
      const map = this.make.tilemap({ key: name });
      const set = map.addTilesetImage('tiles', name)!;
      const layer = map.createLayer('ground', set, 200, 100) as Phaser.Tilemaps.TilemapLayer;
      maps[name] = check(this, map, layer, false);
    }
    // docs/phaser.md's example, as written there, on a data tilemap; the door put through the tilemap's own putTileAt.
    const readmeMap = this.make.tilemap({ data: ROWS, tileWidth: 16, tileHeight: 16 });
    readmeMap.createLayer(0, readmeMap.addTilesetImage('ortho', 'ortho', 16, 16, 0, 0, 1)!, 0, 200);
    readmeMap.setCollision([2]);
    const nav = addNavigation(this, readmeMap, { x: 0, y: 2 });
    const goal = cellToWorld(nav.grid, W - 1, 2);
    const open = nav.goTo(goal.x, goal.y)!.cost;
    readmeMap.putTileAt(2, DOOR.x, DOOR.y);
    const closed = nav.goTo(goal.x, goal.y)!;
    const readme = { movement: nav.movement, open, closed: closed.cost, crossesDoor: Array.from(closed.cells).includes(DOOR.y * W + DOOR.x), offMap: nav.goTo(-50, -50) === null };
    window.__check = { version: Phaser.VERSION, maps, readme, done: true };
  }
}

try {
  new Phaser.Game({ type: Phaser.AUTO, width: 480, height: 320, backgroundColor: '#111', scene: CheckScene, banner: false, audio: { noAudio: true } });
} catch (e) {
  window.__check = { version: Phaser.VERSION, maps: {}, error: String(e), done: true };
}
