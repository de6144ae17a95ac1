/**
 * What a Tiled map looks like, as opposed to where one can walk (the loader's job): its tile layers'
 * gids with the flip bits, their opacity, visibility and offsets, the tilesets' images (one sheet
 * with margin and spacing, or one image per tile), the render order and the stagger settings.
 * Reads the same `.tmx` / `.tmj` text as the loader, with the loader's payload decoders, and no
 * DOM or Node: the demo draws with it on a canvas, the CLI could composite PNGs with it.
 */
import { XMLParser } from 'fast-xml-parser';
import { TilenavError } from '../errors.js';
import { checkSize, decodeArray, decodeBase64Gids, decodeCsv, DEFAULT_MAX_DECOMPRESSED_BYTES } from '../loaders/tiled/data.js';
import { resolveTiledPath } from '../loaders/tiled/index.js';
import type { Ctx, DecodeLimits } from '../loaders/tiled/model.js';
import { DEFAULT_MAX_CELLS } from '../grid/navgrid.js';

/** An image file a tileset draws from, its path joined to the file that names it. */
export interface ArtImage {
  /** Path as resolved against the map's (or the external tileset's) folder. */
  path: string;
  /** Width Tiled recorded, pixels (0 when not given). */
  width: number;
  /** Height Tiled recorded, pixels (0 when not given). */
  height: number;
  /** Colour drawn as transparent, `rrggbb`, or '' for none. */
  transparent: string;
}

/** One tile of an image-collection tileset, or a tile with its own sub-rectangle. */
export interface ArtTile {
  /** The image the tile is cut from. */
  image: ArtImage;
  /** Sub-rectangle of the image (pixels); width / height 0 mean the whole image. */
  x: number;
  /** Top of the sub-rectangle, pixels. */
  y: number;
  /** Width of the sub-rectangle, pixels (0: the whole image). */
  width: number;
  /** Height of the sub-rectangle, pixels (0: the whole image). */
  height: number;
}

/** A tileset as drawing needs it. */
export interface ArtTileset {
  /** The global id of its first tile in this map. */
  firstgid: number;
  /** Its name. */
  name: string;
  /** Tile width, pixels. */
  tileWidth: number;
  /** Tile height, pixels. */
  tileHeight: number;
  /** Number of tiles it declares. */
  tileCount: number;
  /** Columns of the sheet (0 for an image collection). */
  columns: number;
  /** Pixels around the tiles at the sheet's edges. */
  margin: number;
  /** Pixels between neighbouring tiles in the sheet. */
  spacing: number;
  /** The sheet, or null for an image-collection tileset. */
  image: ArtImage | null;
  /** Tiles with their own image, by local id. */
  tiles: Map<number, ArtTile>;
  /** Pixels every tile of this set is drawn shifted by, rightward. */
  offsetX: number;
  /** Pixels every tile of this set is drawn shifted by, downward. */
  offsetY: number;
  /** `grid`: tiles are scaled to the map's tile size; `tile`: drawn at their own size. */
  renderSize: 'tile' | 'grid';
}

/** A tile placed in an object layer: Tiled pixels, its image's bottom-left (isometric: bottom-centre) at (x, y). */
export interface ArtObject {
  /** With the flip bits. */
  gid: number;
  /** Position x, Tiled pixels. */
  x: number;
  /** Position y, Tiled pixels. */
  y: number;
  /** Drawn width (0: the tile's own). */
  width: number;
  /** Drawn height (0: the tile's own). */
  height: number;
  /** Degrees clockwise about (x, y). */
  rotation: number;
}

/**
 * A tile layer or an object layer's tiles, flattened out of its groups (opacity, visibility,
 * offset composed), in the map's drawing order.
 */
export interface ArtLayer {
  /** The layer's name in Tiled. */
  name: string;
  /** Its own and every enclosing group's `visible`. */
  visible: boolean;
  /** 0..1, the product of its own and its groups'. */
  opacity: number;
  /** Pixels, its own plus its groups'. */
  offsetX: number;
  /** Pixels down, its own plus its groups'. */
  offsetY: number;
  /** Tiled tile coordinates of `gids[0]` and the block's size (one block per chunk of an infinite map). */
  blocks: {
    /** Tiled tile column of the block's first gid. */
    x: number;
    /** Tiled tile row of the block's first gid. */
    y: number;
    /** Width in tiles. */
    width: number;
    /** Height in tiles. */
    height: number;
    /** The gids row by row, flip bits kept; 0 for an empty cell. */
    gids: Uint32Array;
  }[];
  /** Tile objects (an object layer), drawn in this order. */
  objects: ArtObject[];
}

/** A Tiled map's art: what {@link parseTileArt} reads. */
export interface TileArt {
  /** The map's orientation. */
  orientation: 'orthogonal' | 'isometric' | 'staggered' | 'hexagonal';
  /** right-down (Tiled's default), right-up, left-down, left-up. */
  renderOrder: string;
  /** Map width in tiles (of a finite map; infinite maps give their nominal size). */
  width: number;
  /** Map height in tiles. */
  height: number;
  /** Tile width, pixels. */
  tileWidth: number;
  /** Tile height, pixels. */
  tileHeight: number;
  /** Hexagonal maps: length of a hexagon's flat side, pixels (0 otherwise). */
  hexSideLength: number;
  /** Staggered and hexagonal maps: 'x' staggers columns, 'y' rows ('y' when not given). */
  staggerAxis: 'x' | 'y';
  /** Staggered and hexagonal maps: whether odd or even rows (columns) are shifted ('odd' when not given). */
  staggerIndex: 'odd' | 'even';
  /** Map background colour (`#rrggbb` or `#aarrggbb`) or ''. */
  background: string;
  /** The map's tilesets, in its order. */
  tilesets: ArtTileset[];
  /** Tile layers in drawing order (bottom first). */
  layers: ArtLayer[];
}

/** Every image file the map's art needs, once each. */
export function artImages(art: TileArt): ArtImage[] {
  const seen = new Map<string, ArtImage>();
  for (const ts of art.tilesets) {
    if (ts.image !== null) seen.set(ts.image.path, ts.image);
    for (const t of ts.tiles.values()) seen.set(t.image.path, t.image);
  }
  return [...seen.values()];
}

/**
 * The external tilesets a map names (paths joined to the map's folder), so a caller can read them
 * before {@link parseTileArt}. A malformed map gives an empty list: the loader reports it.
 */
export function externalTilesets(text: string, file: string): string[] {
  const out: string[] = [];
  try {
    if (isXml(text)) {
      for (const n of children(parseXml(text), 'tileset')) if (n.attrs.source) out.push(resolveTiledPath(file, n.attrs.source));
    } else {
      const j = JSON.parse(text) as { tilesets?: { source?: unknown }[] };
      for (const t of j.tilesets ?? []) if (typeof t?.source === 'string') out.push(resolveTiledPath(file, t.source));
    }
  } catch {
    return [];
  }
  return out;
}

/**
 * Reads a Tiled map's art. `tilesets` holds the text of its external tilesets by the paths
 * {@link externalTilesets} gave; a missing one leaves that tileset without images (its tiles are
 * not drawn) and is named in `missing`. Throws a TilenavError naming the file for malformed data.
 */
export function parseTileArt(text: string, file: string, tilesets: ReadonlyMap<string, string> = new Map()): {
  /** The map's art. */
  art: TileArt;
  /** The external tilesets' paths that were not in `tilesets`. */
  missing: string[];
} {
  const ctx: Ctx = { file };
  const limits: DecodeLimits = { maxCells: DEFAULT_MAX_CELLS, maxDecompressedBytes: DEFAULT_MAX_DECOMPRESSED_BYTES, used: 0 };
  const missing: string[] = [];
  try {
    if (isXml(text)) return { art: fromXml(ctx, parseXml(text), tilesets, missing, limits), missing };
    return { art: fromJson(ctx, JSON.parse(text) as J, tilesets, missing, limits), missing };
  } catch (e) {
    if (e instanceof TilenavError) throw e;
    throw new TilenavError(`cannot read the map's tiles (${(e as Error).message})`, { file });
  }
}

// ---- shared ------------------------------------------------------------------------------------

const isXml = (s: string) => s.trimStart().startsWith('<');
const number = (v: unknown, fallback = 0) => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : fallback;
};
const orientationOf = (v: unknown): TileArt['orientation'] => (v === 'isometric' || v === 'staggered' || v === 'hexagonal' ? v : 'orthogonal');

function image(base: string, source: unknown, width: unknown, height: unknown, trans: unknown): ArtImage | null {
  if (typeof source !== 'string' || source === '') return null;
  return { path: resolveTiledPath(base, source), width: number(width), height: number(height), transparent: typeof trans === 'string' ? trans.replace(/^#/, '') : '' };
}

interface Group {
  visible: boolean;
  opacity: number;
  offsetX: number;
  offsetY: number;
}

function child(parent: Group, visible: unknown, opacity: unknown, offsetX: unknown, offsetY: unknown): Group {
  return {
    visible: parent.visible && visible !== false && visible !== '0' && visible !== 0,
    opacity: parent.opacity * Math.min(1, Math.max(0, number(opacity, 1))),
    offsetX: parent.offsetX + number(offsetX),
    offsetY: parent.offsetY + number(offsetY),
  };
}

const ROOT: Group = { visible: true, opacity: 1, offsetX: 0, offsetY: 0 };

/** The map's own settings, from TMX attributes or TMJ fields (the same names in both). */
function header(a: Record<string, unknown>, tilesets: ArtTileset[], layers: ArtLayer[]): TileArt {
  return {
    orientation: orientationOf(a.orientation),
    renderOrder: typeof a.renderorder === 'string' ? a.renderorder : 'right-down',
    width: number(a.width),
    height: number(a.height),
    tileWidth: number(a.tilewidth),
    tileHeight: number(a.tileheight),
    hexSideLength: number(a.hexsidelength),
    staggerAxis: a.staggeraxis === 'x' ? 'x' : 'y',
    staggerIndex: a.staggerindex === 'even' ? 'even' : 'odd',
    background: typeof a.backgroundcolor === 'string' ? a.backgroundcolor : '',
    tilesets,
    layers,
  };
}

/** Tiled draws an object layer top-down (by y) unless its draw order is `index` (as listed). */
function ordered(objects: ArtObject[], drawOrder: unknown): ArtObject[] {
  return drawOrder === 'index' ? objects : objects.map((o, i) => [o, i] as const).sort((a, b) => a[0].y - b[0].y || a[1] - b[1]).map(([o]) => o);
}

function externalText(ctx: Ctx, source: string, tilesets: ReadonlyMap<string, string>, missing: string[]): { path: string; text: string } | null {
  const path = resolveTiledPath(ctx.file, source);
  const text = tilesets.get(path);
  if (text === undefined) {
    missing.push(path);
    return null;
  }
  return { path, text };
}

function emptyTileset(firstgid: number, name: string): ArtTileset {
  return { firstgid, name, tileWidth: 0, tileHeight: 0, tileCount: 0, columns: 0, margin: 0, spacing: 0, image: null, tiles: new Map(), offsetX: 0, offsetY: 0, renderSize: 'tile' };
}

// ---- TMX ---------------------------------------------------------------------------------------

interface XNode {
  tag: string;
  attrs: Record<string, string>;
  children: XNode[];
  text: string;
}

const parser = new XMLParser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '', parseAttributeValue: false, parseTagValue: false, trimValues: true, ignoreDeclaration: true, ignorePiTags: true });

function parseXml(text: string): XNode {
  const top = convert(parser.parse(text) as unknown[]).find((n) => n.tag !== '');
  if (top === undefined) throw new Error('no XML element');
  return top;
}

function convert(list: unknown[]): XNode[] {
  const out: XNode[] = [];
  for (const item of list) {
    const rec = item as Record<string, unknown>;
    if ('#text' in rec) {
      out.push({ tag: '', attrs: {}, children: [], text: String(rec['#text']) });
      continue;
    }
    for (const key of Object.keys(rec)) {
      if (key === ':@') continue;
      const attrs: Record<string, string> = Object.create(null);
      for (const [k, v] of Object.entries((rec[':@'] as Record<string, unknown>) ?? {})) attrs[k] = String(v);
      const kids = convert((rec[key] as unknown[]) ?? []);
      out.push({ tag: key, attrs, children: kids, text: kids.filter((c) => c.tag === '').map((c) => c.text).join('') });
    }
  }
  return out;
}

const children = (n: XNode, tag: string) => n.children.filter((c) => c.tag === tag);
const first = (n: XNode, tag: string) => n.children.find((c) => c.tag === tag);

function fromXml(ctx: Ctx, map: XNode, tilesets: ReadonlyMap<string, string>, missing: string[], limits: DecodeLimits): TileArt {
  if (map.tag !== 'map') throw new TilenavError(`expected a <map>, got <${map.tag}>`, { file: ctx.file });
  const a = map.attrs;
  const sets = children(map, 'tileset').map((t) => {
    const firstgid = number(t.attrs.firstgid, 1);
    if (!t.attrs.source) return xmlTileset(ctx.file, t, firstgid);
    const ext = externalText(ctx, t.attrs.source, tilesets, missing);
    if (ext === null) return emptyTileset(firstgid, t.attrs.source);
    return xmlTileset(ext.path, parseXml(ext.text), firstgid);
  });
  const layers: ArtLayer[] = [];
  const walk = (node: XNode, g: Group) => {
    for (const l of node.children) {
      if (l.tag !== 'layer' && l.tag !== 'group' && l.tag !== 'objectgroup') continue;
      const own = child(g, l.attrs.visible, l.attrs.opacity, l.attrs.offsetx, l.attrs.offsety);
      if (l.tag === 'group') {
        walk(l, own);
        continue;
      }
      if (l.tag === 'objectgroup') {
        const objects = children(l, 'object')
          .filter((o) => o.attrs.gid !== undefined && o.attrs.visible !== '0')
          .map((o) => ({ gid: number(o.attrs.gid) >>> 0, x: number(o.attrs.x), y: number(o.attrs.y), width: number(o.attrs.width), height: number(o.attrs.height), rotation: number(o.attrs.rotation) }));
        if (objects.length > 0) layers.push({ name: l.attrs.name ?? '', ...own, blocks: [], objects: ordered(objects, l.attrs.draworder) });
        continue;
      }
      const element = `layer ${JSON.stringify(l.attrs.name ?? '')}`;
      const data = first(l, 'data');
      const blocks: ArtLayer['blocks'] = [];
      if (data !== undefined) {
        const chunks = children(data, 'chunk');
        const parts = chunks.length > 0 ? chunks : [data];
        for (const p of parts) {
          const isChunk = p !== data;
          const width = number(isChunk ? p.attrs.width : l.attrs.width);
          const height = number(isChunk ? p.attrs.height : l.attrs.height);
          const count = checkSize(ctx, element, width, height, limits);
          blocks.push({ x: isChunk ? number(p.attrs.x) : 0, y: isChunk ? number(p.attrs.y) : 0, width, height, gids: xmlGids(ctx, element, data.attrs, p, count, limits) });
        }
      }
      layers.push({ name: l.attrs.name ?? '', ...own, blocks, objects: [] });
    }
  };
  walk(map, ROOT);
  return header(a, sets, layers);
}

function xmlGids(ctx: Ctx, element: string, enc: Record<string, string>, node: XNode, count: number, limits: DecodeLimits): Uint32Array {
  if (enc.encoding === 'csv') return decodeCsv(ctx, element, node.text, count);
  if (enc.encoding === 'base64') return decodeBase64Gids(ctx, element, node.text.trim(), enc.compression ?? '', count, limits);
  // Plain XML: one <tile gid> per cell.
  const out = new Uint32Array(count);
  children(node, 'tile').forEach((t, i) => {
    if (i < count) out[i] = number(t.attrs.gid) >>> 0;
  });
  return out;
}

function xmlTileset(file: string, t: XNode, firstgid: number): ArtTileset {
  const a = t.attrs;
  const img = first(t, 'image');
  const offset = first(t, 'tileoffset');
  const tiles = new Map<number, ArtTile>();
  for (const tile of children(t, 'tile')) {
    const ti = first(tile, 'image');
    const im = ti && image(file, ti.attrs.source, ti.attrs.width, ti.attrs.height, ti.attrs.trans);
    if (im) tiles.set(number(tile.attrs.id), { image: im, x: number(tile.attrs.x), y: number(tile.attrs.y), width: number(tile.attrs.width), height: number(tile.attrs.height) });
  }
  return {
    firstgid,
    name: a.name ?? '',
    tileWidth: number(a.tilewidth),
    tileHeight: number(a.tileheight),
    tileCount: number(a.tilecount),
    columns: number(a.columns),
    margin: number(a.margin),
    spacing: number(a.spacing),
    image: img ? image(file, img.attrs.source, img.attrs.width, img.attrs.height, img.attrs.trans) : null,
    tiles,
    offsetX: number(offset?.attrs.x),
    offsetY: number(offset?.attrs.y),
    renderSize: a.tilerendersize === 'grid' ? 'grid' : 'tile',
  };
}

// ---- TMJ ---------------------------------------------------------------------------------------

type J = Record<string, unknown>;

function fromJson(ctx: Ctx, map: J, tilesets: ReadonlyMap<string, string>, missing: string[], limits: DecodeLimits): TileArt {
  if (typeof map !== 'object' || map === null) throw new TilenavError('expected a JSON object', { file: ctx.file });
  const sets = ((map.tilesets as J[] | undefined) ?? []).map((t) => {
    const firstgid = number(t.firstgid, 1);
    if (typeof t.source !== 'string') return jsonTileset(ctx.file, t, firstgid);
    const ext = externalText(ctx, t.source, tilesets, missing);
    if (ext === null) return emptyTileset(firstgid, t.source);
    return isXml(ext.text) ? xmlTileset(ext.path, parseXml(ext.text), firstgid) : jsonTileset(ext.path, JSON.parse(ext.text) as J, firstgid);
  });
  const layers: ArtLayer[] = [];
  const walk = (list: J[], g: Group) => {
    for (const l of list) {
      const own = child(g, l.visible, l.opacity, l.offsetx, l.offsety);
      if (l.type === 'group') walk((l.layers as J[]) ?? [], own);
      if (l.type === 'objectgroup') {
        const objects = ((l.objects as J[] | undefined) ?? [])
          .filter((o) => typeof o.gid === 'number' && o.visible !== false)
          .map((o) => ({ gid: number(o.gid) >>> 0, x: number(o.x), y: number(o.y), width: number(o.width), height: number(o.height), rotation: number(o.rotation) }));
        if (objects.length > 0) layers.push({ name: String(l.name ?? ''), ...own, blocks: [], objects: ordered(objects, l.draworder) });
      }
      if (l.type !== 'tilelayer') continue;
      const element = `layer ${JSON.stringify(l.name ?? '')}`;
      const blocks: ArtLayer['blocks'] = [];
      const parts = Array.isArray(l.chunks) ? (l.chunks as J[]) : [l];
      for (const p of parts) {
        const isChunk = p !== l;
        const width = number(p.width);
        const height = number(p.height);
        const count = checkSize(ctx, element, width, height, limits);
        const data = p.data;
        const gids = typeof data === 'string' ? decodeBase64Gids(ctx, element, data, String(l.compression ?? ''), count, limits) : Array.isArray(data) ? decodeArray(ctx, element, data, count) : new Uint32Array(count);
        blocks.push({ x: isChunk ? number(p.x) : 0, y: isChunk ? number(p.y) : 0, width, height, gids });
      }
      layers.push({ name: String(l.name ?? ''), ...own, blocks, objects: [] });
    }
  };
  walk((map.layers as J[]) ?? [], ROOT);
  return header(map, sets, layers);
}

function jsonTileset(file: string, t: J, firstgid: number): ArtTileset {
  const tiles = new Map<number, ArtTile>();
  for (const tile of (t.tiles as J[] | undefined) ?? []) {
    const im = image(file, tile.image, tile.imagewidth, tile.imageheight, t.transparentcolor);
    if (im) tiles.set(number(tile.id), { image: im, x: number(tile.x), y: number(tile.y), width: number(tile.width), height: number(tile.height) });
  }
  const offset = (t.tileoffset as J | undefined) ?? {};
  return {
    firstgid,
    name: String(t.name ?? ''),
    tileWidth: number(t.tilewidth),
    tileHeight: number(t.tileheight),
    tileCount: number(t.tilecount),
    columns: number(t.columns),
    margin: number(t.margin),
    spacing: number(t.spacing),
    image: image(file, t.image, t.imagewidth, t.imageheight, t.transparentcolor),
    tiles,
    offsetX: number(offset.x),
    offsetY: number(offset.y),
    renderSize: t.tilerendersize === 'grid' ? 'grid' : 'tile',
  };
}
