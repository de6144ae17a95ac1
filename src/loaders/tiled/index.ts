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
import { build, type TiledLayerInfo, type TiledMapping } from './build.js';
import { fail, oneLine, quote, quoteName, warn, type Ctx, type DecodeLimits, type RawMap, type RawTemplate, type RawTileset, type TiledProperties, type TilesetRef } from './model.js';
import { checkLimit } from '../limits.js';
import { looksLikePath, pathNotContents } from '../messages.js';
import type { LoadedGrid } from '../result.js';
import { applyTemplates, forEachTemplated } from './templates.js';
import { DEFAULT_MAX_RASTER_WORK } from './shapes.js';
import { readTj, readTmj, readTsj } from './json.js';
import { readTmx, readTsx, readTx } from './xml.js';
import { checkTiledRules, type TiledRules } from './rules.js';
import { checkMapping, checkRead, checkTiledOptions } from './options.js';

export { DEFAULT_TILED_MAPPING, GID_FLIP_D, GID_FLIP_H, GID_FLIP_V, GID_MASK, GID_ROTATE_120 } from './build.js';
export type { TiledLayerInfo, TiledMapping } from './build.js';
export type { TiledTilesetInfo } from './apply-rules.js';
import type { TiledTilesetInfo } from './apply-rules.js';
export type { TiledProperties, TiledProperty, TiledPropertyType, TiledPropertyValue, RawObject as TiledObject } from './model.js';
export { DEFAULT_MAX_DECOMPRESSED_BYTES } from './data.js';
export { DEFAULT_MAX_RASTER_WORK } from './shapes.js';
export { checkTiledRules, formatTiledRules } from './rules.js';
export type { TiledRule, TiledRules } from './rules.js';
export { applyRulesToTileset, type ApplyRulesOptions } from './tileset-write.js';

/** Reads a file named relative to nothing (the loader has already joined it to the map's folder). */
export type TiledReadFile = (path: string) => string | Uint8Array;

/** Options of {@link parseTiled} and {@link parseTiledAsync} (and, with `readFile` supplied for you, Node's `loadTiled`). */
export interface TiledOptions {
  /** The map's path: named in errors, and external tilesets resolve relative to its folder. @default '<map>' */
  file?: string;
  /**
   * Returns an external tileset's or object template's contents (text, or UTF-8 bytes). Called
   * once per file with the map's folder joined to the `source` (see `allowAbsolutePaths`). Without
   * it a map with external tilesets or templates is refused.
   */
  readFile?: TiledReadFile;
  /** `tmx` (XML) or `tmj` (JSON). @default by `file`'s extension (.tmx XML; .tmj, .json JSON), else the first character ('<' is XML) */
  format?: 'tmx' | 'tmj';
  /** Refuse maps (and any layer or chunk) with more cells than this; NaN or a non-number is refused. @default DEFAULT_MAX_CELLS (2^26) */
  maxCells?: number;
  /**
   * Refuse compressed data that would decompress to more bytes than this, all layers together; a
   * layer's size is checked before its stream is inflated, so a bomb never allocates past it.
   * @default DEFAULT_MAX_DECOMPRESSED_BYTES (256 MiB)
   */
  maxDecompressedBytes?: number;
  /** Collision conventions beside the navigation properties; fields left out keep their defaults. @default DEFAULT_TILED_MAPPING */
  mapping?: Partial<TiledMapping>;
  /** Terrain names and costs for tiles' `terrainType`. @default new TerrainTable() (the default terrain costs) */
  terrain?: TerrainTable;
  /**
   * Read tilesets and templates named by absolute paths or URLs (`/x.tsx`, `file:///x.tsx`,
   * `https://...`). Off by default: a map from elsewhere could otherwise name any file the reader
   * can open. Relative paths are always read, relative to the map. @default false
   */
  allowAbsolutePaths?: boolean;
  /**
   * The folder every tileset and template must come from: a reference whose path, with `.` and
   * `..` resolved against the map's `file`, lies outside it is refused, naming the reference, before
   * `readFile` is asked for it (for a server that loads maps its players upload). Give it in the
   * same form as `file` (both relative to the same folder, both absolute, or both URLs of one
   * origin). This check is on the names alone: in Node, `loadTiled` also resolves
   * symbolic links and refuses a file whose real path leaves the root's. @default no confinement
   */
  root?: string;
  /**
   * Refuse maps whose collision shapes need more than this many cell visits to rasterise, all
   * shapes together (a shape is clipped to the map first, so only its part on the map counts).
   * A shape's outline cells and its interior's edge crossings (times log2 of a row's crossings,
   * for sorting them) are counted before it is drawn, so a shape past the limit is refused at
   * once; its interior cells count as they are filled. @default DEFAULT_MAX_RASTER_WORK (2^28)
   */
  maxRasterWork?: number;
  /**
   * Collision rules picked for this map, as an object or the JSON text of a rules file: tiles (by
   * tileset name and local id) and layers (by name, a group's name covering its layers) that block
   * (`walkable: false`), are bridges (`walkable: true`), or have a `terrain` / `cost`. They add to
   * what the map's own properties say: a blocking rule wins; a rule's terrain or cost replaces the
   * tile's own, a tile rule's a layer rule's. A tileset or layer name the map does not have is a
   * warning; a malformed rule or an unknown terrain is a TilenavError naming `rulesFile` and the key.
   */
  rules?: TiledRules | string;
  /** The rules' file name, for messages. @default '<rules>' */
  rulesFile?: string;
}

/** A parsed Tiled map. */
export interface TiledMap extends LoadedGrid {
  /** One navigation layer per map property `navigationLayers` (1-8, default 1); terrain ids, costs and flags per cell. */
  grid: NavGrid;
  /** Cells to Tiled's pixels and back (also `grid.projection`). */
  projection: Projection;
  /** The map's orientation in Tiled. */
  orientation: 'orthogonal' | 'isometric' | 'staggered' | 'hexagonal';
  /**
   * The movement model the map's cells imply: `octile` (orthogonal), `iso` (isometric),
   * `staggered-{odd,even}-{r,q}` (staggered isometric), `hex-{odd,even}-{r,q}` (hexagonal); `r` is
   * stagger axis y, `q` axis x. Pass it to `findPath`.
   */
  movement: MovementName;
  /** Tile width in pixels. */
  tileWidth: number;
  /** Tile height in pixels. */
  tileHeight: number;
  /** Tiled's tile coordinates of grid cell (0, 0): non-zero for infinite maps whose chunks start elsewhere. */
  offset: {
    /** Tiled's tile column of grid column 0. */
    x: number;
    /** Tiled's tile row of grid row 0. */
    y: number;
  };
  /** Things the loader did that a level designer may not expect. */
  warnings: string[];
  /** The raw custom properties, for the game's own use: the map's, each layer's, and each tile's by gid. */
  properties: {
    /** The map's own properties. */
    map: TiledProperties;
    /** Every layer, groups included, in the map's order. */
    layers: TiledLayerInfo[];
    /** Each tile's properties by global id (tiles without properties are left out). */
    tiles: Map<number, TiledProperties>;
  };
  /**
   * The map's tilesets in its order: the name and local ids rules use, the image and grid to draw
   * each tile from, and `used`, how many cells show each tile (a palette of rules lists these).
   */
  tilesets: TiledTilesetInfo[];
}

function text(ctx: Ctx, source: string | Uint8Array, element: string): string {
  if (typeof source === 'string') return source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  if (!(source instanceof Uint8Array)) fail(ctx, element, 'expected the file contents as a string or a Uint8Array');
  try {
    // TextDecoder drops a leading byte order mark itself.
    return new TextDecoder('utf-8', { fatal: true }).decode(source);
  } catch {
    fail(ctx, element, 'the file is not valid UTF-8 text');
  }
}

/** XML or JSON: by the file's extension when it has a known one, else by the first character. */
function isXmlFile(path: string, t: string): boolean {
  const ext = /\.([a-z]+)$/i.exec(path)?.[1].toLowerCase();
  if (ext === 'tmx' || ext === 'tsx' || ext === 'tx' || ext === 'xml') return true;
  if (ext === 'tmj' || ext === 'tsj' || ext === 'tj' || ext === 'json') return false;
  return t.trimStart().startsWith('<');
}

function parseMap(source: string | Uint8Array, options: Omit<TiledOptions, 'readFile'>, limits: DecodeLimits): { ctx: Ctx; raw: RawMap } {
  const ctx: Ctx = { file: options.file ?? '<map>', warnings: [] };
  const t = text(ctx, source, 'map');
  if (t.trim() === '') fail(ctx, 'map', 'the file is empty');
  if (typeof source === 'string' && looksLikePath(t)) fail(ctx, 'map', `the text ${quote(t.trim(), 80)} ${pathNotContents('loadTiled')}`);
  const format = options.format ?? (isXmlFile(ctx.file, t) ? 'tmx' : 'tmj');
  if (format !== 'tmx' && format !== 'tmj') fail(ctx, 'format', `expected "tmx" or "tmj", got ${quote(String(format), 40)}`);
  return { ctx, raw: format === 'tmx' ? readTmx(ctx, t, limits) : readTmj(ctx, t, limits) };
}

/** Joins a tileset's `source` to the map's folder, resolving `.` and `..`; absolute paths and URLs pass through. */
export function resolveTiledPath(mapFile: string, source: string): string {
  if (ABSOLUTE.test(source)) return source;
  // A map read from a URL keeps its scheme and host; `..` resolves within the URL's path.
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(mapFile)?.[0] ?? '';
  const base = mapFile.slice(origin.length);
  const slash = Math.max(base.lastIndexOf('/'), base.lastIndexOf('\\'));
  const joined = (slash >= 0 ? base.slice(0, slash + 1) : origin !== '' ? '/' : '') + source;
  if (origin !== '') return origin + '/' + normalise(joined).replace(/^\/(\.\.\/?)*/, '');
  return normalise(joined);
}

/** `.` and `..` resolved; a leading slash kept; `..` that climbs above the start kept as written. */
function normalise(joined: string): string {
  const abs = joined.startsWith('/');
  const out: string[] = [];
  for (const part of joined.split(/[\\/]/)) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else out.push(part);
  }
  return (abs ? '/' : '') + out.join('/');
}

/** A URL scheme (`file:`, `https:`, a drive letter `C:`) or a leading slash or backslash. */
const ABSOLUTE = /^([a-z][a-z0-9+.-]*:|[\\/])/i;

/** Where a map's references may lead: absolute paths and URLs, and the folder they must stay in. */
interface RefRules {
  allowAbsolute: boolean;
  /** The `root` option, normalised (undefined: no confinement). */
  root: { origin: string; path: string } | undefined;
}

function refRules(options: Omit<TiledOptions, 'readFile'>): RefRules {
  return { allowAbsolute: options.allowAbsolutePaths === true, root: options.root === undefined ? undefined : splitPath(options.root) };
}

/** A path's URL origin (scheme and host, lower-cased; '' for none) and the rest with `.` and `..` resolved. */
function splitPath(p: string): { origin: string; path: string } {
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(p)?.[0] ?? '';
  const rest = normalise(p.slice(origin.length));
  return { origin: origin.toLowerCase(), path: origin !== '' && !rest.startsWith('/') ? '/' + rest : rest };
}

/** True when `path` (resolved) lies in the folder `root`: the same origin, and `root` a leading run of its parts. */
function inside(root: { origin: string; path: string }, path: string): boolean {
  const p = splitPath(path);
  if (p.origin !== root.origin) return false;
  if (root.path === '' || root.path === '.') return !p.path.startsWith('/') && p.path !== '..' && !p.path.startsWith('../') && !ABSOLUTE.test(p.path);
  if (root.path === '/') return p.path.startsWith('/') && !p.path.startsWith('/..');
  return p.path === root.path || p.path.startsWith(root.path + '/');
}

/**
 * The path a map's reference (a tileset's or a template's `source`) names, relative to the file
 * that holds it. Absolute paths and URLs are refused unless `allowAbsolutePaths`, and so is a
 * path that climbs above the filesystem root: a map may only reach what lies beside it. With
 * `root`, a path that resolves outside that folder is refused too.
 */
function resolveRef(ctx: Ctx, element: string, from: string, source: string, what: string, rules: RefRules): string {
  let path: string;
  if (ABSOLUTE.test(source)) {
    if (!rules.allowAbsolute) fail(ctx, element, `the ${what} path ${quote(source, 80)} is absolute or a URL; only paths relative to the map are read (set allowAbsolutePaths to allow it)`);
    path = source;
  } else {
    path = resolveTiledPath(from, source);
    if (path.startsWith('/..')) fail(ctx, element, `the ${what} path ${quote(source, 80)} climbs above the filesystem root`);
  }
  if (rules.root !== undefined && !inside(rules.root, path)) fail(ctx, element, `the ${what} path ${quote(source, 80)} resolves to ${quote(path, 200)}, outside the root folder (root); a map may only name files inside it`);
  return path;
}

/**
 * Reads a referenced file once per load, whatever the number of references to it; null when no
 * reader was given and the file is a template (its objects then keep only their own fields).
 */
type Read = (path: string, element: string, what: string) => string | Uint8Array | null;

/** External tilesets and templates of one load, each file read and parsed once. */
class References {
  private readonly tilesets = new Map<string, RawTileset>();
  private readonly templates = new Map<string, RawTemplate>();

  constructor(
    private readonly ctx: Ctx,
    private readonly read: Read,
    private readonly rules: RefRules,
  ) {}

  /** The path a reference resolves to (exposed so the async loader can fetch every file first). */
  resolve(element: string, from: string, source: string, what: string): string {
    return resolveRef(this.ctx, element, from, source, what, this.rules);
  }

  private open(path: string, element: string, what: string): { tctx: Ctx; t: string } | null {
    const content = this.read(path, element, what);
    if (content === null) return null;
    const tctx: Ctx = { file: quoteName(path, 200), foreign: true, warnings: this.ctx.warnings };
    const t = text(tctx, content, what);
    if (t.trim() === '') fail(tctx, what, `the ${what} file is empty`);
    return { tctx, t };
  }

  tileset(ref: TilesetRef): RawTileset {
    const path = this.resolve(ref.element, this.ctx.file, ref.source!, 'tileset');
    let ts = this.tilesets.get(path);
    if (ts === undefined) {
      const { tctx, t } = this.open(path, ref.element, 'tileset')!;
      ts = isXmlFile(path, t) ? readTsx(tctx, t, 0) : readTsj(tctx, t, 0);
      this.tilesets.set(path, ts);
    }
    return { ...ts, firstgid: ref.firstgid };
  }

  template(element: string, source: string): { path: string; template: RawTemplate } | null {
    const path = this.resolve(element, this.ctx.file, source, 'template');
    let tpl = this.templates.get(path);
    if (tpl === undefined) {
      const opened = this.open(path, element, 'template');
      if (opened === null) {
        warn(this.ctx, `${element}: its fields come from the template ${quote(source, 80)}, which needs options.readFile to be read; the object keeps only its own`);
        return null;
      }
      tpl = isXmlFile(path, opened.t) ? readTx(opened.tctx, opened.t) : readTj(opened.tctx, opened.t);
      this.templates.set(path, tpl);
    }
    return { path, template: tpl };
  }
}

function readFailure(ctx: Ctx, element: string, path: string, what: string, e: unknown): never {
  if (e instanceof TilenavError) throw e;
  fail(ctx, element, `cannot read the ${what} ${quote(path, 200)} (${oneLine((e as Error)?.message ?? String(e))})`);
}

function finish(ctx: Ctx, raw: RawMap, refs: References, options: Omit<TiledOptions, "readFile">, limits: DecodeLimits & { maxRasterWork: number }): TiledMap {
  const rules = options.rules === undefined ? undefined : checkTiledRules(options.rules, options.rulesFile);
  const sets = raw.tilesets.map((ref) => ref.embedded ?? refs.tileset(ref));
  applyTemplates(ctx, raw, sets, refs);
  const built = build(ctx, raw, sets, {
    maxCells: limits.maxCells,
    maxRasterWork: limits.maxRasterWork,
    mapping: checkMapping(options.mapping),
    terrain: options.terrain,
    rules,
    resolve: resolveTiledPath,
  });
  for (const w of ctx.warnings ?? []) if (!built.warnings.includes(w)) built.warnings.push(w);
  return built;
}

function limitsOf(options: Omit<TiledOptions, 'readFile'>): DecodeLimits & { maxRasterWork: number } {
  return {
    maxCells: checkLimit(options.maxCells, 'maxCells', DEFAULT_MAX_CELLS),
    maxDecompressedBytes: checkLimit(options.maxDecompressedBytes, 'maxDecompressedBytes', DEFAULT_MAX_DECOMPRESSED_BYTES),
    maxRasterWork: checkLimit(options.maxRasterWork, 'maxRasterWork', DEFAULT_MAX_RASTER_WORK),
    used: 0,
  };
}

/**
 * Parses a Tiled map (`.tmx` XML or `.tmj` JSON, given as text or UTF-8 bytes) into a NavGrid.
 *
 * Navigation: tile layers with a bool `isTilesetWalkable` or `useTilesetBorder`
 * are the navigation layers (others are ignored by it). On each navigation layer (chosen by the
 * tile layer's `collisionLayer`, default 0; the map's int `navigationLayers` says how many, 1-8):
 * when some layer has `isTilesetWalkable: true`, only cells one of those covers are walkable, else
 * every cell is; layers with `isTilesetWalkable: false` block their non-empty cells; with
 * `useTilesetBorder: true` the empty cells around a layer's tiles are blocked too (the 8 around a
 * square cell, the model's neighbours on staggered and hexagonal maps). Tiles of those layers bring
 * `terrainType` (terrain id and cost from the grid's terrain table; impassable terrain blocks),
 * `slowMultiplier` (multiplies the cost; it and the cost it makes must fit a 32-bit float, from
 * about 1.18e-38 to 3.4e38), `isSafeZone` (flag bit 0), `customFlags` (int, OR-ed into
 * the flags) and the one-way bools `oneWayNorth|East|South|West` (flag bits 1-4).
 *
 * Then, layer by layer from the bottom up, the {@link TiledMapping} conventions block cells on top:
 * tiles or tile layers with a true `collides` / `collision` / `solid`, tiles' own collision shapes,
 * and object layers of collision shapes; a tile's float `cost` sets its cells' cost, and a tile
 * with a true `walkable` is a bridge (its cells walkable whatever the layers below block). A map
 * where no layer has the navigation properties starts all walkable and every tile layer brings its
 * tiles' terrain and cost; when nothing in it blocks, a warning says how to pick blocking tiles.
 * `rules` (see {@link TiledOptions.rules}) add tile and layer rules the user picked.
 *
 * Infinite maps become the bounding box of their chunks (`offset` says where it starts). Tile flip
 * and rotation bits are ignored for navigation. Throws a TilenavError naming the file and element
 * for anything malformed; see {@link TiledOptions} for the limits.
 *
 * External tilesets and object templates (`.tx` / `.tj`) come through `readFile`, each file once,
 * named relative to the map (absolute paths and URLs only with `allowAbsolutePaths`); an object
 * naming a template takes every field it leaves out from the template's object. Object layers'
 * `offsetx` / `offsety` (theirs plus their groups') shift their shapes. Property types this
 * loader does not know are skipped with a warning; `list` properties read as arrays.
 */
export function parseTiled(source: string | Uint8Array, options: TiledOptions = {}): TiledMap {
  checkTiledOptions(options);
  const limits = limitsOf(options);
  const { ctx, raw } = parseMap(source, options, limits);
  const cache = new Map<string, string | Uint8Array>();
  const refs = new References(ctx, (path, element, what) => {
    const hit = cache.get(path);
    if (hit !== undefined) return hit;
    if (options.readFile === undefined) {
      if (what === 'template') return null;
      fail(ctx, element, `the external ${what} ${quote(path, 200)} needs options.readFile to read it`);
    }
    let content: string | Uint8Array;
    try {
      content = options.readFile(path);
    } catch (e) {
      readFailure(ctx, element, path, what, e);
    }
    content = checkRead(content, path, what);
    cache.set(path, content);
    return content;
  }, refRules(options));
  return finish(ctx, raw, refs, options, limits);
}

/**
 * {@link parseTiled} with an asynchronous `readFile` (fetch in a browser; in Node, `loadTiled(path)`
 * of tilenav/loaders reads the map and passes the bounded file reader). Every referenced file is
 * read once, before the map is built.
 */
export async function parseTiledAsync(source: string | Uint8Array, options: Omit<TiledOptions, 'readFile'> & { readFile?: (path: string) => Promise<string | Uint8Array> | string | Uint8Array } = {}): Promise<TiledMap> {
  checkTiledOptions(options);
  const limits = limitsOf(options);
  const { ctx, raw } = parseMap(source, options, limits);
  const allow = refRules(options);
  const files = new Map<string, string | Uint8Array>();
  const wanted: [path: string, element: string, what: string][] = [];
  for (const ref of raw.tilesets) if (ref.source !== null) wanted.push([resolveRef(ctx, ref.element, ctx.file, ref.source, 'tileset', allow), ref.element, 'tileset']);
  forEachTemplated(raw.layers, (o, element) => wanted.push([resolveRef(ctx, element, ctx.file, o.template, 'template', allow), element, 'template']));
  for (const [path, element, what] of wanted) {
    if (files.has(path)) continue;
    if (options.readFile === undefined && what === 'template') continue;
    if (options.readFile === undefined) fail(ctx, element, `the external ${what} ${quote(path, 200)} needs options.readFile to read it`);
    let content: unknown;
    try {
      content = await options.readFile(path);
    } catch (e) {
      readFailure(ctx, element, path, what, e);
    }
    files.set(path, checkRead(content, path, what));
  }
  return finish(ctx, raw, new References(ctx, (path) => files.get(path) ?? null, allow), options, limits);
}
