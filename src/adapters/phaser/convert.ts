/**
 * A Phaser tilemap as a NavGrid: which tiles block, what they cost, and keeping the grid in step
 * when the game changes tiles.
 */
import { NavGrid, TerrainTable, TilenavError, orthogonal, isometric, staggered } from '../../index.js';
import { describe } from '../../errors.js';
import type { MovementName, Projection } from '../../index.js';
import type { CellRect, Derived, MemoryEntry } from '../../grid/navgrid.js';
import { FINITE_PROJECTION_RULE, projectionExtent, unfitAxis } from '../../grid/projection.js';
import { FLAG_WALL_MASK } from '../../grid/navgrid.js';
import type { TiledMapping } from '../../loaders/tiled/build.js';
import { lower } from '../../loaders/tiled/collide.js';
import { checkMapping } from '../../loaders/tiled/options.js';
import { putTileWalls, tileWallSides, wallFlipTable, wallNames } from '../../loaders/tiled/tile-walls.js';
import { applyObjects, type ObjectNav } from './objects.js';
import type { LayerDataLike, TileLike, TilemapLayerLike, TilemapLike } from './types.js';

/** Options of {@link tilemapToNavGrid}; {@link sync} and {@link watch} reuse the ones a grid was made with. */
export interface TilemapNavOptions {
  /** Tile layers that count, by name or index in `tilemap.layers`. @default every tile layer */
  layers?: readonly (string | number)[];
  /** Tiles Phaser marks colliding (`setCollision*`, `tile.collides`) block. @default true */
  phaserCollision?: boolean;
  /**
   * Bool properties that block when true, on a tile, an object layer or an object (the Tiled
   * loader's `mapping.collisionProperties`; this wins when both are given).
   * @default ['collides', 'collision', 'solid']
   */
  collisionProperties?: readonly string[];
  /**
   * The Tiled loader's conventions for the map's object layers (`loadTiled`'s `mapping`, checked the
   * same way; unknown keys throw): `collisionTypes`, `collisionLayerNames`, `edgeWallProperties`,
   * `edgeWallTypes`, `lineWidth`, `lineWidthProperty`, `hiddenLayers`, and `layer` (the navigation
   * layer a layer without `collisionLayer` feeds, tile layers included). `tileShapes` has no effect:
   * the adapter does not read tiles' collision shapes.
   * @default DEFAULT_TILED_MAPPING
   */
  mapping?: Partial<TiledMapping>;
  /**
   * Called with each warning the Tiled loader would give about the map's objects (an edge wall
   * off the tile edges, a link to a missing object, ...) and tile walls on a map without square
   * cells. @default none: warnings are dropped
   */
  onWarning?: (message: string) => void;
  /** Terrain names for the `terrainType` tile property. @default new TerrainTable() */
  terrain?: TerrainTable;
  /** Your own rule, consulted after the built-in ones for every non-empty tile: true blocks. */
  blocks?: (tile: TileLike, layer: LayerDataLike) => boolean;
  /** The tilemap layer whose position and scale place the grid in the world. @default the first counted layer drawn by a TilemapLayer */
  worldLayer?: string | number;
  /**
   * The movement model the grid carries (`grid.movement`), which searches, agents, the plugin and
   * AgentSprites use unless told otherwise. One that does not fit the map's cells (hex on square
   * tiles) throws a TilenavError naming `movement`.
   * @default the map's: orthogonal 'octile', isometric 'iso', staggered 'staggered-odd-r',
   * hexagonal 'hex-{odd,even}-{r,q}' (its stagger index and axis)
   */
  movement?: MovementName;
}

interface State {
  options: TilemapNavOptions;
  /** Per counted tile layer: its data, navigation layer index and `isTilesetWalkable` (undefined when unset). */
  layers: { data: LayerDataLike; nav: number; floor: boolean | undefined }[];
  names: readonly string[];
  /** Cells blocked and walls put up by the map's objects, read once: every sync keeps them. */
  objects: ObjectNav;
  /** Where a tile's walls turn with its flips (`wallFlipTable`); null on maps without square cells. */
  wallFlips: Uint8Array | null;
  /** Per navigation layer, the wall bits tiles put up at the last sync (null until a tile had walls). */
  tileWalls: (Uint8Array | null)[];
  /** Tile indexes already warned about (walls on a map without square cells). */
  warned: Set<number>;
}

/**
 * What ties a grid to the tilemap it was made from: the options to sync with and, while watched,
 * the wrapped methods. Kept by the grid (listed by `grid.memory()`, not freed by `releaseDerived`).
 */
class TilemapLink implements Derived {
  readonly kept = true;
  state: State | null = null;
  patches: Patch[] | null = null;
  /** The per-cell arrays it keeps: the objects' blocked cells and walls, the tiles' walls (per navigation layer, where there are any). */
  memory(out: MemoryEntry[]): void {
    const state = this.state;
    if (state === null) return;
    state.tileWalls.forEach((a, layer) => {
      const bytes = (a?.byteLength ?? 0) + (state.objects.blocked[layer]?.byteLength ?? 0) + (state.objects.walls[layer]?.byteLength ?? 0);
      if (bytes > 0) out.push({ name: 'phaser tilemap', layer, bytes });
    });
  }
  release(): void {}
}

/** The grid's tie to its tilemap (made on first use). */
function linkOf(grid: NavGrid): TilemapLink {
  return grid.derived('phaser tilemap', () => new TilemapLink());
}

/** Reads one property from Phaser's array form (`[{ name, value }]`) or an object; undefined when absent. */
export function propertyOf(props: unknown, name: string): unknown {
  if (props === null || typeof props !== 'object') return undefined;
  if (Array.isArray(props)) {
    for (const p of props) if (p !== null && typeof p === 'object' && (p as { name?: unknown }).name === name) return (p as { value?: unknown }).value;
    return undefined;
  }
  return (props as Record<string, unknown>)[name];
}

const ORIENTATIONS = ['orthogonal', 'isometric', 'staggered', 'hexagonal'] as const;
type Orientation = (typeof ORIENTATIONS)[number];

function orientationOf(tilemap: TilemapLike): Orientation {
  const o = tilemap.orientation;
  const name = typeof o === 'number' ? ORIENTATIONS[o] : ORIENTATIONS.find((n) => n === o);
  if (name === undefined) throw new TilenavError(`expected orientation 0-3 or orthogonal, isometric, staggered, hexagonal; got ${JSON.stringify(o)}`, { element: 'tilemap.orientation' });
  return name;
}

/**
 * The projection placing cells where Phaser draws the tiles (Tile#updatePixelXY: tile (x, y)'s
 * image has its top-left at pixelX, pixelY inside the layer), moved and scaled like the layer.
 * Phaser's staggered maps always shift odd rows; its hexagonal ones shift odd rows (columns) right
 * (down) for stagger index odd and left (up) for even, which is Tiled's even layout half a tile over.
 */
function projectionOf(tilemap: TilemapLike, orientation: Orientation, at: TilemapLayerLike | null): { projection: Projection; movement: MovementName } {
  const x0 = at?.x ?? 0;
  const y0 = at?.y ?? 0;
  const sx = at?.scaleX ?? 1;
  const sy = at?.scaleY ?? 1;
  const tw = tilemap.tileWidth * sx;
  const th = tilemap.tileHeight * sy;
  if (!(tw > 0 && th > 0)) throw new TilenavError(`expected tile sizes > 0, got ${tilemap.tileWidth} x ${tilemap.tileHeight} at scale ${sx} x ${sy}`, { element: 'tilemap.tileWidth/tileHeight' });
  const sideScale = tilemap.staggerAxis === 'x' ? sx : sy;
  for (const [field, value, scale] of [['tileWidth', tilemap.tileWidth, sx], ['tileHeight', tilemap.tileHeight, sy], ['hexSideLength', orientation === 'hexagonal' ? tilemap.hexSideLength ?? 0 : 0, sideScale]] as const) {
    if (!Number.isFinite(value * scale)) throw new TilenavError(`${field} ${value} at scale ${scale} is ${value * scale} pixels; ${FINITE_PROJECTION_RULE}`, { element: `tilemap.${field}` });
  }
  switch (orientation) {
    case 'orthogonal':
      return { projection: orthogonal(tw, th, x0, y0), movement: 'octile' };
    case 'isometric':
      return { projection: isometric(tw, th, x0 + tw / 2, y0), movement: 'iso' };
    case 'staggered':
      return { projection: staggered(tw, th, { staggerAxis: 'y', staggerIndex: 'odd', originX: x0, originY: y0 }), movement: 'staggered-odd-r' };
    default: {
      const axis = tilemap.staggerAxis === 'x' ? 'x' : 'y';
      const index = tilemap.staggerIndex === 'even' ? 'even' : 'odd';
      const side = (tilemap.hexSideLength ?? 0) * (axis === 'x' ? sx : sy);
      const shiftX = axis === 'y' && index === 'even' ? -tw / 2 : 0;
      const shiftY = axis === 'x' && index === 'even' ? -th / 2 : 0;
      const projection = staggered(tw, th, { staggerAxis: axis, staggerIndex: index, hexSideLength: side, originX: x0 + shiftX, originY: y0 + shiftY });
      return { projection, movement: `hex-${index}-${axis === 'x' ? 'q' : 'r'}` as MovementName };
    }
  }
}

/**
 * Refuses tile sizes (or a hexagon side) that, at the world layer's scale, put the map's cells at
 * non-finite pixels: the rule every grid follows (`unfitAxis`), naming the tilemap field at fault.
 */
function checkExtent(tilemap: TilemapLike, projection: Projection, at: TilemapLayerLike | null): void {
  const extent = projectionExtent(projection, tilemap.width, tilemap.height);
  const axis = unfitAxis(extent);
  if (axis === null) return;
  const hex = orientationOf(tilemap) === 'hexagonal' && (tilemap.staggerAxis === 'x') === (axis === 'x');
  const tile = axis === 'x' ? tilemap.tileWidth : tilemap.tileHeight;
  const side = hex ? tilemap.hexSideLength ?? 0 : 0;
  const field = side > tile ? 'hexSideLength' : axis === 'x' ? 'tileWidth' : 'tileHeight';
  const scale = axis === 'x' ? at?.scaleX ?? 1 : at?.scaleY ?? 1;
  const span = axis === 'x' ? extent.spanX : extent.spanY;
  throw new TilenavError(`${field} ${side > tile ? side : tile} at scale ${scale} on a ${tilemap.width} x ${tilemap.height} tile map spans ${span} pixels ${axis === 'x' ? 'across' : 'down'}; ${FINITE_PROJECTION_RULE}`, { element: `tilemap.${field}` });
}

function layerIndex(tilemap: TilemapLike, ref: string | number, what: string): number {
  const i = typeof ref === 'number' ? ref : tilemap.layers.findIndex((l) => l.name === ref);
  if (!Number.isInteger(i) || i < 0 || i >= tilemap.layers.length) {
    throw new TilenavError(`no tile layer ${JSON.stringify(ref)}; the map has ${tilemap.layers.map((l) => JSON.stringify(l.name)).join(', ') || 'none'}`, { element: what });
  }
  return i;
}

function checkTilemap(tilemap: TilemapLike): void {
  if (tilemap === null || typeof tilemap !== 'object' || !Array.isArray(tilemap.layers)) throw new TilenavError('expected a Phaser tilemap (an object with a layers array)', { element: 'tilemap' });
  if (!Number.isInteger(tilemap.width) || !Number.isInteger(tilemap.height) || tilemap.width < 1 || tilemap.height < 1) {
    throw new TilenavError(`expected a map of at least 1 x 1 tiles, got ${tilemap.width} x ${tilemap.height}`, { element: 'tilemap.width/height' });
  }
}

/**
 * Builds a navigation grid from a Phaser tilemap: one cell per tile, the projection of the map's
 * orientation with cell centres where Phaser draws the tiles of the world layer (its position and
 * scale), in world pixels, and the map's movement model as `grid.movement` (orthogonal: octile;
 * isometric: iso; staggered: staggered-odd-r; hexagonal: hex-{odd,even}-{r,q}; `options.movement`
 * overrides it).
 *
 * A cell is blocked when a tile on a counted layer collides in Phaser (`setCollision*`), or has a
 * true `collides` / `collision` / `solid` property, or an unwalkable `terrainType`, or `blocks`
 * says so. Its cost is the `terrainType`'s cost, or the tile's `cost` property, times its
 * `slowMultiplier` (upper layers win over lower ones). Empty cells are walkable at cost 1.
 *
 * Edge walls, collision objects and links, as the Tiled loader reads them and by its code: the
 * tile properties `wallNorth` ... `wallWest` wall the tile's sides (turned with its flips and
 * rotation); the map's object layers (`tilemap.objects`) block cells with collision shapes, wall
 * tile edges with wall objects and add links from `linkTo` objects, by the conventions of
 * `options.mapping`. Orthogonal and isometric maps only for walls.
 *
 * Layer properties, as the Tiled loader reads them: the map property `navigationLayers` (1-8)
 * gives the navigation layers' count, a tile layer's `collisionLayer` (index or name) the one it
 * feeds (default 0); `isTilesetWalkable` true makes a layer the floor (where a navigation layer has
 * one, only cells it covers are walkable), false makes every tile on it block.
 * @throws TilenavError for a tilemap that is not one, an unknown layer, a bad cost, a movement that does not fit the map's cells, a bad `mapping` or `onWarning`, an object layer's unknown `collisionLayer`.
 */
export function tilemapToNavGrid(tilemap: TilemapLike, options: TilemapNavOptions = {}): NavGrid {
  checkTilemap(tilemap);
  const orientation = orientationOf(tilemap);
  const counted = options.layers === undefined ? tilemap.layers.map((_, i) => i) : options.layers.map((r) => layerIndex(tilemap, r, 'options.layers'));
  const navCountRaw = Number(propertyOf(tilemap.properties, 'navigationLayers') ?? 1);
  const navCount = Number.isFinite(navCountRaw) ? Math.min(8, Math.max(1, Math.round(navCountRaw))) : 1;
  const worldAt = options.worldLayer !== undefined ? tilemap.layers[layerIndex(tilemap, options.worldLayer, 'options.worldLayer')].tilemapLayer ?? null : counted.map((i) => tilemap.layers[i].tilemapLayer).find((l) => l != null) ?? null;
  const { projection, movement } = projectionOf(tilemap, orientation, worldAt);
  checkExtent(tilemap, projection, worldAt);
  const mapping = checkMapping(options.mapping);
  if (options.onWarning !== undefined && typeof options.onWarning !== 'function') {
    throw new TilenavError(`expected a function (message) => void, got ${describe(options.onWarning)}`, { element: 'onWarning' });
  }
  if (mapping.layer >= navCount) throw new TilenavError(`navigation layer ${mapping.layer} is not one of this map's ${navCount} (the map property navigationLayers says how many)`, { element: 'mapping.layer' });
  const grid = new NavGrid(tilemap.width, tilemap.height, { layers: navCount, projection, terrain: options.terrain, movement: options.movement ?? movement });
  const navLayer = (properties: unknown, element: string): number => {
    const p = propertyOf(properties, 'collisionLayer');
    if (p === undefined) return mapping.layer;
    if (typeof p === 'number' && Number.isInteger(p) && p >= 0 && p < navCount) return p;
    if (typeof p === 'string' && grid.layers.some((l) => l.name === p)) return grid.layerIndex(p);
    throw new TilenavError(`collisionLayer ${JSON.stringify(p)} is not one of the map's ${navCount} navigation layers (${grid.layers.map((l) => l.name).join(', ')})`, { element });
  };
  const layers = counted.map((i) => {
    const data = tilemap.layers[i];
    const w = propertyOf(data.properties, 'isTilesetWalkable');
    return { data, nav: navLayer(data.properties, `layer ${JSON.stringify(data.name)}`), floor: typeof w === 'boolean' ? w : undefined };
  });
  const names = options.collisionProperties ?? mapping.collisionProperties;
  const warn = (message: string) => options.onWarning?.(message);
  const objects = applyObjects(tilemap, grid, { orientation, mapping, collideNames: lower(names), navLayer, warn });
  const wallFlips = orientation === 'orthogonal' || orientation === 'isometric' ? wallFlipTable(orientation) : null;
  linkOf(grid).state = { options, layers, names, objects, wallFlips, tileWalls: grid.layers.map(() => null), warned: new Set() };
  sync(tilemap, grid);
  return grid;
}

/** A tile's navigation properties: its tileset's (Tiled's per-tile properties) under its own. */
function tileProperty(tile: TileLike, name: string): unknown {
  const own = propertyOf(tile.properties, name);
  if (own !== undefined) return own;
  const ts = tile.tileset;
  return ts && typeof ts.getTileProperties === 'function' ? propertyOf(ts.getTileProperties(tile.index), name) : undefined;
}

/** What a tile's properties say about navigation. */
interface TileNav {
  blocks: boolean;
  /** Terrain id, or -1 without a known terrainType. */
  terrain: number;
  /** The `cost` property, or 0 without one. */
  cost: number;
  slow: number;
  /** The sides the tile walls (1 north, 2 east, 4 south, 8 west), before its flips. */
  walls: number;
}

function hasOwnProperties(tile: TileLike): boolean {
  const p = tile.properties;
  if (p === null || typeof p !== 'object') return false;
  return Array.isArray(p) ? p.length > 0 : Object.keys(p).length > 0;
}

function tileNav(tile: TileLike, names: readonly string[], terrain: TerrainTable, where: string): TileNav {
  let blocks = names.some((name) => tileProperty(tile, name) === true);
  let id = -1;
  const tt = tileProperty(tile, 'terrainType');
  if (typeof tt === 'string' && terrain.has(tt)) {
    id = terrain.id(tt);
    if (!terrain.get(id).walkable) blocks = true;
  }
  const c = tileProperty(tile, 'cost');
  const slow = tileProperty(tile, 'slowMultiplier');
  const walls = tileWallSides((name) => tileProperty(tile, name) === true);
  return { blocks, terrain: id, cost: c === undefined ? 0 : positive(c, `${where} property "cost"`), slow: slow === undefined ? 1 : positive(slow, `${where} property "slowMultiplier"`), walls };
}

function positive(v: unknown, what: string): number {
  if (typeof v !== 'number' || !(v > 0) || !Number.isFinite(Math.fround(v)) || Math.fround(v) === 0) throw new TilenavError(`expected a number > 0 that a 32-bit float holds, got ${JSON.stringify(v)}`, { element: what });
  return v;
}

/**
 * Recomputes the grid's cells in `rect` (default: the whole map) from the tilemap, after the game
 * changed tiles (putTileAt, removeTileAt, fill, setCollision ...). Uses the options the grid was
 * made with; one change event per navigation layer, so agents replan once. The tiles' edge walls
 * are re-read too; the cells the map's objects block and the walls they put up stay (the objects
 * are read once, by {@link tilemapToNavGrid}), and so does a wall put up with `grid.setEdgeWall`
 * on an edge no tile walled. A rectangle reaching past the map is clipped to it.
 * @throws TilenavError when `grid` was not made by {@link tilemapToNavGrid}, `rect` is not finite, or a tile's cost is bad.
 */
export function sync(tilemap: TilemapLike, grid: NavGrid, rect?: CellRect): void {
  const state = grid.derivedIfBuilt<TilemapLink>('phaser tilemap')?.state ?? undefined;
  if (state === undefined) throw new TilenavError('this grid was not made by tilemapToNavGrid', { element: 'grid' });
  const r = rect ?? { x: 0, y: 0, width: grid.width, height: grid.height };
  if (![r.x, r.y, r.width, r.height].every((v) => typeof v === 'number' && Number.isFinite(v))) {
    throw new TilenavError(`expected a rectangle of finite cell coordinates, got ${JSON.stringify(rect)}`, { element: 'rect' });
  }
  const x0 = Math.max(0, Math.floor(r.x));
  const y0 = Math.max(0, Math.floor(r.y));
  const x1 = Math.min(grid.width, Math.ceil(r.x + r.width));
  const y1 = Math.min(grid.height, Math.ceil(r.y + r.height));
  if (x1 <= x0 || y1 <= y0) return;
  const { options, layers, names } = state;
  const phaserCollision = options.phaserCollision ?? true;
  const terrain = grid.terrain;
  const groundCost = terrain.get(0).cost;
  // Tiles of one index share their tileset's properties: read them once per index per sync.
  const byIndex = new Map<number, TileNav>();
  const navOf = (tile: TileLike, l: LayerDataLike, x: number, y: number): TileNav => {
    const own = hasOwnProperties(tile);
    let t = own ? undefined : byIndex.get(tile.index);
    if (t === undefined) {
      t = tileNav(tile, names, terrain, `layer ${JSON.stringify(l.name)} tile (${x}, ${y})`);
      if (!own) byIndex.set(tile.index, t);
    }
    return t;
  };
  for (let n = 0; n < grid.layers.length; n++) {
    const nav = grid.layers[n];
    const hasFloor = layers.some((l) => l.nav === n && l.floor === true);
    const objectBlocked = state.objects.blocked[n];
    let walls = state.tileWalls[n] !== null;
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const i = y * grid.width + x;
        let floor = !hasFloor;
        let walkable = objectBlocked !== null && objectBlocked[i] === 1 ? 0 : 1;
        let cost = groundCost;
        let id = 0;
        for (const l of layers) {
          if (l.nav !== n) continue;
          const tile = l.data.data[y]?.[x];
          if (tile == null || tile.index < 0) continue;
          if (l.floor === true) floor = true;
          else if (l.floor === false) walkable = 0;
          if (phaserCollision && tile.collides) walkable = 0;
          const t = navOf(tile, l.data, x, y);
          if (t.walls !== 0) walls = true;
          if (t.blocks) walkable = 0;
          if (t.terrain >= 0) {
            id = t.terrain;
            cost = terrain.get(id).cost;
          }
          if (t.cost > 0) cost = t.cost;
          cost *= t.slow;
          if (options.blocks?.(tile, l.data) === true) walkable = 0;
        }
        nav.walkable[i] = floor ? walkable : 0;
        nav.cost[i] = cost;
        nav.terrain[i] = id;
      }
    }
    // No tile of this layer has walled a side yet (`tileWalls` is made at the first), nor does one here: no wall to re-read.
    const far = walls ? syncWalls(state, grid, n, x0, y0, x1, y1, navOf) : { x1, y1 };
    grid.refresh(n, { x: x0, y: y0, width: far.x1 - x0, height: far.y1 - y0 });
  }
}

/**
 * Re-reads the edge walls tiles put on cells (x0, y0) - (x1, y1) of navigation layer `n`: the
 * cells' north and west edges, which the tiles north and west of the rectangle reach too, and the
 * west edges of column x1 and north edges of row y1, which the rectangle's tiles reach. Walls the
 * map's objects put up stay. Returns the rectangle's far corner with the cells it rewrote.
 */
function syncWalls(state: State, grid: NavGrid, n: number, x0: number, y0: number, x1: number, y1: number, navOf: (tile: TileLike, l: LayerDataLike, x: number, y: number) => TileNav): { x1: number; y1: number } {
  const W = grid.width;
  const H = grid.height;
  const ex1 = Math.min(W, x1 + 1);
  const ey1 = Math.min(H, y1 + 1);
  const walled: number[] = [];
  for (const l of state.layers) {
    if (l.nav !== n) continue;
    for (let y = Math.max(0, y0 - 1); y < ey1; y++) {
      for (let x = Math.max(0, x0 - 1); x < ex1; x++) {
        const tile = l.data.data[y]?.[x];
        if (tile == null || tile.index < 0) continue;
        const t = navOf(tile, l.data, x, y);
        if (t.walls === 0) continue;
        if (state.wallFlips === null) {
          if (!state.warned.has(tile.index)) state.options.onWarning?.(`layer ${JSON.stringify(l.data.name)} tile ${tile.index}: ${wallNames(t.walls)} ignored: edge walls need square cells, and this map's cells move as '${grid.movement}'`);
          state.warned.add(tile.index);
          continue;
        }
        walled.push(y * W + x, state.wallFlips[flipRow(tile) * 16 + t.walls]);
      }
    }
  }
  if (state.tileWalls[n] === null && walled.length === 0) return { x1, y1 };
  const now = (state.tileWalls[n] ??= new Uint8Array(W * H));
  const flags = grid.layers[n].flags;
  const objects = state.objects.walls[n];
  for (let y = y0; y < ey1; y++) {
    for (let i = y * W + x0; i < y * W + ex1; i++) {
      flags[i] &= ~now[i];
      now[i] = 0;
    }
  }
  for (let k = 0; k < walled.length; k += 2) putTileWalls(now, W, H, walled[k], walled[k + 1], x0, y0, ex1, ey1);
  for (let y = y0; y < ey1; y++) {
    for (let i = y * W + x0; i < y * W + ex1; i++) flags[i] |= (now[i] | (objects === null ? 0 : objects[i])) & FLAG_WALL_MASK;
  }
  return { x1: ex1, y1: ey1 };
}

/**
 * Tiled's flip bits (H << 2 | V << 1 | D, the row of `wallFlipTable`) of a tile Phaser draws
 * mirrored (`flipX`, `flipY`) and then turned (`rotation`, read in quarter turns), indexed by
 * quarter turns << 2 | flipX << 1 | flipY. Phaser's parser turns each of Tiled's eight flips into
 * one of these; the table finds, for each, the flip that moves the tile's corners the same way.
 */
const PHASER_FLIPS: Uint8Array = (() => {
  const tiled = (r: number, x: number, y: number): [number, number] => {
    if ((r & 1) !== 0) [x, y] = [y, x];
    if ((r & 4) !== 0) x = -x;
    if ((r & 2) !== 0) y = -y;
    return [x, y];
  };
  const phaser = (k: number, x: number, y: number): [number, number] => {
    if ((k & 2) !== 0) x = -x;
    if ((k & 1) !== 0) y = -y;
    // A quarter turn clockwise on the screen (y down).
    for (let q = k >> 2; q > 0; q--) [x, y] = [-y, x];
    return [x, y];
  };
  const out = new Uint8Array(16);
  for (let k = 0; k < 16; k++) {
    const key = [...phaser(k, 1, 0), ...phaser(k, 0, 1)].join();
    for (let r = 0; r < 8; r++) if ([...tiled(r, 1, 0), ...tiled(r, 0, 1)].join() === key) out[k] = r;
  }
  return out;
})();

function flipRow(tile: TileLike): number {
  const r = tile.rotation;
  const quarters = typeof r === 'number' && Number.isFinite(r) ? ((Math.round(r / (Math.PI / 2)) % 4) + 4) % 4 : 0;
  return PHASER_FLIPS[(quarters << 2) | (tile.flipX === true ? 2 : 0) | (tile.flipY === true ? 1 : 0)];
}

/** Methods that change one tile, and where their cell is among the arguments (or in the returned tile). */
const CELL_METHODS: Readonly<Record<string, number>> = Object.freeze({ putTileAt: 1, removeTileAt: 0 });
const TILE_RESULT_METHODS = Object.freeze(['putTileAtWorldXY', 'removeTileAtWorldXY']);
/** Methods that may change any tile or collision flag: the whole map is synced after them. */
const MAP_METHODS = Object.freeze([
  'fill', 'putTilesAt', 'randomize', 'weightedRandomize', 'shuffle', 'swapByIndex', 'replaceByIndex', 'copy',
  'setCollision', 'setCollisionBetween', 'setCollisionByProperty', 'setCollisionByExclusion', 'setCollisionFromCollisionGroup',
]);

interface Patch {
  target: Record<string, unknown>;
  name: string;
  own: boolean;
  previous: unknown;
}


/**
 * Keeps `grid` in step with `tilemap` automatically. Phaser has no per-tile change events, so this
 * wraps, on the tilemap and on each counted layer's TilemapLayer instance, the methods that change
 * tiles: putTileAt / removeTileAt (and their WorldXY forms) sync their one cell right after the
 * call; fill, putTilesAt, randomize, shuffle, copy, replaceByIndex, swapByIndex and the
 * setCollision* family sync the whole map. The next path search sees the change.
 *
 * Not seen: changes made on a Tile object itself (`tile.index = ...`, `tile.setCollision(...)`) or
 * through Phaser's internal components; call {@link sync} after those. Watching twice is a no-op;
 * {@link unwatch} restores the original methods.
 * @returns the function that stops watching (same as `unwatch(grid)`).
 */
export function watch(tilemap: TilemapLike, grid: NavGrid): () => void {
  const state = grid.derivedIfBuilt<TilemapLink>('phaser tilemap')?.state ?? undefined;
  if (state === undefined) throw new TilenavError('this grid was not made by tilemapToNavGrid', { element: 'grid' });
  const link = linkOf(grid);
  if (link.patches !== null) return () => unwatch(grid);
  const patches: Patch[] = [];
  const targets: Record<string, unknown>[] = [tilemap as unknown as Record<string, unknown>];
  for (const l of state.layers) if (l.data.tilemapLayer) targets.push(l.data.tilemapLayer as unknown as Record<string, unknown>);
  const full = () => sync(tilemap, grid);
  for (const target of targets) {
    const wrap = (name: string, after: (args: unknown[], result: unknown) => void) => {
      const previous = target[name];
      if (typeof previous !== 'function') return;
      patches.push({ target, name, own: Object.prototype.hasOwnProperty.call(target, name), previous });
      target[name] = function (this: unknown, ...args: unknown[]) {
        const result = (previous as (...a: unknown[]) => unknown).apply(this, args);
        after(args, result);
        return result;
      };
    };
    for (const [name, at] of Object.entries(CELL_METHODS)) {
      wrap(name, (args) => {
        const x = Number(args[at]);
        const y = Number(args[at + 1]);
        if (Number.isInteger(x) && Number.isInteger(y) && grid.inBounds(x, y)) sync(tilemap, grid, { x, y, width: 1, height: 1 });
      });
    }
    for (const name of TILE_RESULT_METHODS) {
      wrap(name, (_args, result) => {
        const t = result as TileLike | null;
        if (t && Number.isInteger(t.x) && Number.isInteger(t.y) && grid.inBounds(t.x, t.y)) sync(tilemap, grid, { x: t.x, y: t.y, width: 1, height: 1 });
        else full();
      });
    }
    for (const name of MAP_METHODS) wrap(name, full);
  }
  link.patches = patches;
  return () => unwatch(grid);
}

/** Stops {@link watch}: puts the tilemap's and layers' own methods back. Unwatched grids: no-op. */
export function unwatch(grid: NavGrid): void {
  const link = grid.derivedIfBuilt<TilemapLink>('phaser tilemap');
  const patches = link?.patches ?? null;
  if (link === undefined || patches === null) return;
  link.patches = null;
  for (const p of patches.reverse()) {
    if (p.own) p.target[p.name] = p.previous;
    else delete p.target[p.name];
  }
}
