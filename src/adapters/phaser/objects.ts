/**
 * A Phaser tilemap's object layers, read by the Tiled loader's own code: Phaser keeps Tiled's
 * objects nearly as the TMJ file writes them, so they go through the TMJ reader's object reader
 * and then the loader's collision shapes, edge walls and links (src/loaders/tiled).
 */
import { TilenavError } from '../../errors.js';
import { FLAG_WALL_MASK, type NavGrid } from '../../grid/navgrid.js';
import { DEFAULT_MAX_RASTER_WORK, RasterBudget } from '../../loaders/limits.js';
import { tiledProjection, type TiledMapping } from '../../loaders/tiled/build.js';
import { applyObjectConventions, type FlatLayer, type Surface } from '../../loaders/tiled/collide.js';
import { readJsonObjects, readJsonProperties } from '../../loaders/tiled/json.js';
import { addObjectLinks } from '../../loaders/tiled/links.js';
import { GID_FLIP_D, GID_FLIP_H, GID_FLIP_V, quote, type Ctx } from '../../loaders/tiled/model.js';
import { addObjectWalls } from '../../loaders/tiled/walls.js';
import type { ObjectLayerLike, TiledObjectLike, TilemapLike } from './types.js';

/** What the objects put on a grid that re-reading the tiles must keep: per navigation layer, null where they put nothing. */
export interface ObjectNav {
  /** 1 where an object's shape blocks the cell. */
  blocked: (Uint8Array | null)[];
  /** The edge wall bits (FLAG_WALL_*) the objects put up. */
  walls: (Uint8Array | null)[];
}

/** Where the adapter's conventions are read from: the map's orientation name and the checked mapping. */
export interface ObjectSettings {
  orientation: 'orthogonal' | 'isometric' | 'staggered' | 'hexagonal';
  mapping: TiledMapping;
  /** Lower-cased collision property names. */
  collideNames: Set<string>;
  /** The navigation layer an object layer feeds, from its properties (`collisionLayer`). */
  navLayer: (properties: unknown, element: string) => number;
  warn: (message: string) => void;
}

/**
 * Reads `tilemap.objects` as the Tiled loader reads a map's object layers: shapes of a collision
 * layer, type or property block the cells they cover, edge wall objects wall tile edges, `linkTo`
 * objects add links (the last two go on `grid` here). Returns what sync must keep.
 * @throws TilenavError naming the object layer and object for an object Phaser could not have made (a non-number x, ...).
 */
export function applyObjects(tilemap: TilemapLike, grid: NavGrid, s: ObjectSettings): ObjectNav {
  const out: ObjectNav = { blocked: grid.layers.map(() => null), walls: grid.layers.map(() => null) };
  const list = tilemap.objects;
  if (list === undefined || list === null) return out;
  if (!Array.isArray(list)) throw new TilenavError('expected an array of object layers', { element: 'tilemap.objects' });
  const ctx: Ctx = { file: 'tilemap.objects', warnings: [] };
  const flat: FlatLayer[] = [];
  const nav = new Map<FlatLayer, number>();
  (list as readonly ObjectLayerLike[]).forEach((layer, k) => {
    if (layer === null || typeof layer !== 'object') throw new TilenavError('expected an object layer', { element: `tilemap.objects[${k}]` });
    const path = typeof layer.name === 'string' ? layer.name : '';
    const element = `object layer ${quote(path, 60)}`;
    // Phaser names a layer inside groups `group/layer`; the conventions match the layer's own name.
    const name = path.slice(path.lastIndexOf('/') + 1);
    const properties = readJsonProperties(ctx, element, layer.properties ?? [], (layer as { propertyTypes?: unknown }).propertyTypes);
    const objects = readJsonObjects(ctx, element, Array.isArray(layer.objects) ? layer.objects.map(withFlipBits) : layer.objects);
    const visible = layer.visible !== false;
    const raw = { kind: 'object' as const, name, visible, offsetX: 0, offsetY: 0, properties, element, objects };
    const info = { name, path: element, type: 'object' as const, visible, properties, inherited: properties, navigation: null, objects };
    // Phaser has already moved the objects by their layer's and groups' offsets.
    const l: FlatLayer = { raw, visible, props: new Map(properties), data: null, info, groups: [], offX: 0, offY: 0 };
    if (!visible && !s.mapping.hiddenLayers) return;
    flat.push(l);
    nav.set(l, s.navLayer(layer.properties, element));
  });
  for (const w of ctx.warnings!) s.warn(w);
  if (flat.length === 0) return out;

  const W = grid.width;
  const H = grid.height;
  const tw = tilemap.tileWidth;
  const th = tilemap.tileHeight;
  // Objects are in Tiled's pixels: placed on cells as the Tiled loader places them, whatever the
  // grid's own projection (Phaser's drawing, moved and scaled like the world layer).
  const { projection } = tiledProjection({ orientation: s.orientation, tileWidth: tw, tileHeight: th, height: H, staggerAxis: tilemap.staggerAxis === 'x' ? 'x' : 'y', staggerIndex: tilemap.staggerIndex === 'even' ? 'even' : 'odd', hexSideLength: tilemap.hexSideLength ?? 0 }, 0, 0);
  const budget = new RasterBudget(DEFAULT_MAX_RASTER_WORK, (element, max) => {
    throw new TilenavError(`drawing the collision shapes takes more than ${max} cell visits; the map's shapes are too many or too large for its grid`, { file: ctx.file, element });
  });
  const blocked = new Uint8Array(W * H);
  const surface: Surface = { W, H, ox: 0, oy: 0, tw, th, orientation: s.orientation, projection, blocked, budget, stamps: new Map(), runs: null, bounds: null };
  const navIndex = (l: FlatLayer) => nav.get(l) ?? s.mapping.layer;
  for (let n = 0; n < grid.layers.length; n++) {
    blocked.fill(0);
    for (const l of flat) if (navIndex(l) === n) applyObjectConventions(l, s.mapping, s.collideNames, surface);
    if (blocked.includes(1)) out.blocked[n] = blocked.slice();
  }
  addObjectLinks(grid, flat, navIndex, surface, s.mapping.hiddenLayers, s.warn);
  addObjectWalls(grid, flat, navIndex, surface, s.mapping, s.warn);
  // The grid is new: every wall bit on it now is an object's.
  grid.layers.forEach((layer, n) => {
    if (!layer.flags.some((f) => (f & FLAG_WALL_MASK) !== 0)) return;
    out.walls[n] = layer.flags.map((f) => f & FLAG_WALL_MASK);
  });
  return out;
}

/** A Phaser object as Tiled wrote it: a tile object's gid with the flip bits Phaser split off. */
function withFlipBits(o: TiledObjectLike): unknown {
  if (o === null || typeof o !== 'object' || typeof o.gid !== 'number' || o.gid === 0) return o;
  const flips = (o.flippedHorizontal === true ? GID_FLIP_H : 0) | (o.flippedVertical === true ? GID_FLIP_V : 0) | (o.flippedAntiDiagonal === true ? GID_FLIP_D : 0);
  return { ...o, gid: (o.gid | flips) >>> 0 };
}
