/**
 * The Tiled loader: `.tmx` / `.tmj` maps with embedded or external (`.tsx` / `.tsj`) tilesets into
 * a NavGrid and what a game needs beside it. No Node imports: files come through `readFile`.
 */
import { TilenavError } from '../../errors.js';
import { DEFAULT_MAX_CELLS, type NavGrid } from '../../grid/navgrid.js';
import type { Projection } from '../../grid/projection.js';
import type { TerrainTable } from '../../grid/terrain.js';
import type { MovementName } from '../../search/movement.js';
import { DEFAULT_MAX_DECOMPRESSED_BYTES } from './data.js';
import { build, DEFAULT_TILED_MAPPING, type TiledLayerInfo, type TiledMapping } from './build.js';
import { fail, type Ctx, type DecodeLimits, type RawMap, type RawTileset, type TiledProperties } from './model.js';
import { readTmj, readTsj } from './json.js';
import { readTmx, readTsx } from './xml.js';

export { DEFAULT_TILED_MAPPING, GID_FLIP_D, GID_FLIP_H, GID_FLIP_V, GID_MASK, GID_ROTATE_120 } from './build.js';
export type { TiledLayerInfo, TiledMapping } from './build.js';
export type { TiledProperties, TiledProperty, TiledPropertyType, RawObject as TiledObject } from './model.js';
export { DEFAULT_MAX_DECOMPRESSED_BYTES } from './data.js';

/** Reads a file named relative to nothing (the loader has already joined it to the map's folder). */
export type TiledReadFile = (path: string) => string | Uint8Array;

export interface TiledOptions {
  /** The map's path: named in errors, and external tilesets resolve relative to its folder. @default '<map>' */
  file?: string;
  /**
   * Returns an external tileset's contents (text, or UTF-8 bytes). Called with the map's folder
   * joined to the tileset's `source`. Without it a map with external tilesets is refused.
   */
  readFile?: TiledReadFile;
  /** `tmx` (XML) or `tmj` (JSON). @default sniffed from the first character ('<' is XML) */
  format?: 'tmx' | 'tmj';
  /** Refuse maps (and any layer or chunk) with more cells than this. @default DEFAULT_MAX_CELLS (2^26) */
  maxCells?: number;
  /**
   * Refuse compressed data that would decompress to more bytes than this, all layers together; a
   * layer's size is checked before its stream is inflated, so a bomb never allocates past it.
   * @default DEFAULT_MAX_DECOMPRESSED_BYTES (256 MiB)
   */
  maxDecompressedBytes?: number;
  /** Collision conventions beside seed 003's properties; fields left out keep their defaults. @default DEFAULT_TILED_MAPPING */
  mapping?: Partial<TiledMapping>;
  /** Terrain names and costs for tiles' `terrainType`. @default new TerrainTable() (seed 003's costs) */
  terrain?: TerrainTable;
}

/** A loaded Tiled map. */
export interface TiledMap {
  /** One navigation layer per map property `navigationLayers` (1-8, default 1); terrain ids, costs and flags per cell. */
  grid: NavGrid;
  /** Cells to Tiled's pixels and back (also `grid.projection`). */
  projection: Projection;
  orientation: 'orthogonal' | 'isometric' | 'staggered' | 'hexagonal';
  /**
   * The movement model the map's cells imply: `octile` (orthogonal), `iso` (isometric),
   * `staggered-{odd,even}-{r,q}` (staggered isometric), `hex-{odd,even}-{r,q}` (hexagonal); `r` is
   * stagger axis y, `q` axis x. Pass it to `findPath`.
   */
  movement: MovementName;
  /** Tile size in pixels. */
  tileWidth: number;
  tileHeight: number;
  /** Tiled's tile coordinates of grid cell (0, 0): non-zero for infinite maps whose chunks start elsewhere. */
  offset: { x: number; y: number };
  /** Things the loader did that a level designer may not expect. */
  warnings: string[];
  /** The raw custom properties, for the game's own use: the map's, each layer's, and each tile's by gid. */
  properties: { map: TiledProperties; layers: TiledLayerInfo[]; tiles: Map<number, TiledProperties> };
}

function text(ctx: Ctx, source: string | Uint8Array, element: string): string {
  if (typeof source === 'string') return source;
  if (!(source instanceof Uint8Array)) fail(ctx, element, 'expected the file contents as a string or a Uint8Array');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(source);
  } catch {
    fail(ctx, element, 'the file is not valid UTF-8 text');
  }
}

const isXml = (s: string) => s.trimStart().startsWith('<');

function parseMap(source: string | Uint8Array, options: Omit<TiledOptions, 'readFile'>, limits: DecodeLimits): { ctx: Ctx; raw: RawMap } {
  const ctx: Ctx = { file: options.file ?? '<map>' };
  const t = text(ctx, source, 'map');
  if (t.trim() === '') fail(ctx, 'map', 'the file is empty');
  const format = options.format ?? (isXml(t) ? 'tmx' : 'tmj');
  if (format !== 'tmx' && format !== 'tmj') fail(ctx, 'format', `expected "tmx" or "tmj", got ${JSON.stringify(format)}`);
  return { ctx, raw: format === 'tmx' ? readTmx(ctx, t, limits) : readTmj(ctx, t, limits) };
}

/** Joins a tileset's `source` to the map's folder, resolving `.` and `..`; absolute paths and URLs pass through. */
export function resolveTiledPath(mapFile: string, source: string): string {
  if (/^([a-z][a-z0-9+.-]*:|\/)/i.test(source)) return source;
  const slash = Math.max(mapFile.lastIndexOf('/'), mapFile.lastIndexOf('\\'));
  const joined = (slash >= 0 ? mapFile.slice(0, slash + 1) : '') + source;
  const abs = joined.startsWith('/');
  const out: string[] = [];
  for (const part of joined.split(/[\\/]/)) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else out.push(part);
  }
  return (abs ? '/' : '') + out.join('/');
}

function tilesets(ctx: Ctx, raw: RawMap, read: (path: string, element: string) => string | Uint8Array): RawTileset[] {
  return raw.tilesets.map((ref) => {
    if (ref.embedded !== null) return ref.embedded;
    const path = resolveTiledPath(ctx.file, ref.source!);
    const content = read(path, ref.element);
    const tctx: Ctx = { file: path };
    const t = text(tctx, content, 'tileset');
    if (t.trim() === '') fail(tctx, 'tileset', 'the tileset file is empty');
    return isXml(t) ? readTsx(tctx, t, ref.firstgid) : readTsj(tctx, t, ref.firstgid);
  });
}

function readFailure(ctx: Ctx, element: string, path: string, e: unknown): never {
  if (e instanceof TilenavError) throw e;
  fail(ctx, element, `cannot read the tileset ${JSON.stringify(path)} (${(e as Error)?.message ?? String(e)})`);
}

function finish(ctx: Ctx, raw: RawMap, sets: RawTileset[], options: Omit<TiledOptions, 'readFile'>): TiledMap {
  const built = build(ctx, raw, sets, {
    maxCells: options.maxCells ?? DEFAULT_MAX_CELLS,
    mapping: { ...DEFAULT_TILED_MAPPING, ...options.mapping },
    terrain: options.terrain,
  });
  return built;
}

function limitsOf(options: Omit<TiledOptions, 'readFile'>): DecodeLimits {
  const maxCells = options.maxCells ?? DEFAULT_MAX_CELLS;
  const maxDecompressedBytes = options.maxDecompressedBytes ?? DEFAULT_MAX_DECOMPRESSED_BYTES;
  for (const [v, n] of [[maxCells, 'maxCells'], [maxDecompressedBytes, 'maxDecompressedBytes']] as const) {
    if (typeof v !== 'number' || !(v >= 0)) throw new TilenavError(`expected a number >= 0, got ${String(v)}`, { element: n });
  }
  return { maxCells, maxDecompressedBytes, used: 0 };
}

/**
 * Loads a Tiled map (`.tmx` XML or `.tmj` JSON, given as text or UTF-8 bytes) into a NavGrid.
 *
 * Navigation follows seed 003: tile layers with a bool `isTilesetWalkable` or `useTilesetBorder`
 * are the navigation layers (others are ignored by it). On each navigation layer (chosen by the
 * tile layer's `collisionLayer`, default 0; the map's int `navigationLayers` says how many, 1-8):
 * when some layer has `isTilesetWalkable: true`, only cells one of those covers are walkable, else
 * every cell is; layers with `isTilesetWalkable: false` block their non-empty cells; with
 * `useTilesetBorder: true` the empty cells around a layer's tiles are blocked too (the 8 around a
 * square cell, the model's neighbours on staggered and hexagonal maps). Tiles of those layers bring
 * `terrainType` (terrain id and cost from the grid's terrain table; impassable terrain blocks),
 * `slowMultiplier` (multiplies the cost), `isSafeZone` (flag bit 0), `customFlags` (int, OR-ed into
 * the flags) and the one-way bools `oneWayNorth|East|South|West` (flag bits 1-4).
 *
 * Then the {@link TiledMapping} conventions block cells on top: tiles or tile layers with a true
 * `collides` / `collision` / `solid`, tiles' own collision shapes, and object layers of collision
 * shapes. A map where no layer has seed 003's properties starts all walkable, with a warning.
 *
 * Infinite maps become the bounding box of their chunks (`offset` says where it starts). Tile flip
 * and rotation bits are ignored for navigation. Throws a TilenavError naming the file and element
 * for anything malformed; see {@link TiledOptions} for the limits.
 */
export function loadTiled(source: string | Uint8Array, options: TiledOptions = {}): TiledMap {
  const limits = limitsOf(options);
  const { ctx, raw } = parseMap(source, options, limits);
  const sets = tilesets(ctx, raw, (path, element) => {
    if (options.readFile === undefined) fail(ctx, element, `the external tileset ${JSON.stringify(path)} needs options.readFile to read it`);
    try {
      return options.readFile(path);
    } catch (e) {
      readFailure(ctx, element, path, e);
    }
  });
  return finish(ctx, raw, sets, options);
}

/** {@link loadTiled} with an asynchronous `readFile` (fetch in a browser, fs/promises in Node). */
export async function loadTiledAsync(source: string | Uint8Array, options: Omit<TiledOptions, 'readFile'> & { readFile?: (path: string) => Promise<string | Uint8Array> | string | Uint8Array } = {}): Promise<TiledMap> {
  const limits = limitsOf(options);
  const { ctx, raw } = parseMap(source, options, limits);
  const files = new Map<string, string | Uint8Array>();
  for (const ref of raw.tilesets) {
    if (ref.source === null) continue;
    const path = resolveTiledPath(ctx.file, ref.source);
    if (files.has(path)) continue;
    if (options.readFile === undefined) fail(ctx, ref.element, `the external tileset ${JSON.stringify(path)} needs options.readFile to read it`);
    try {
      files.set(path, await options.readFile(path));
    } catch (e) {
      readFailure(ctx, ref.element, path, e);
    }
  }
  const sets = tilesets(ctx, raw, (path) => files.get(path)!);
  return finish(ctx, raw, sets, options);
}
