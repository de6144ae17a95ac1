/**
 * The format-neutral shape both the TMX (XML) and the TMJ (JSON) readers produce, so navigation is
 * built by one piece of code whatever the file was. Internal to the Tiled loader.
 */
import { TilenavError } from '../../errors.js';

/**
 * Tiled property types. `class` values hold their members as a nested property map; `list`
 * (Tiled 1.11) values are an array of their items' values.
 */
export type TiledPropertyType = 'bool' | 'int' | 'float' | 'string' | 'color' | 'file' | 'object' | 'class' | 'list';

/** A property's value: see {@link TiledProperty.value}. */
export type TiledPropertyValue = boolean | number | string | TiledProperties | readonly TiledPropertyValue[];

/** One custom property as Tiled stores it. */
export interface TiledProperty {
  /** The property's type, which says what `value` holds. */
  readonly type: TiledPropertyType;
  /**
   * bool: boolean; int, float, object (an object id): number; string, color (`#aarrggbb`), file:
   * string; class: its members; list: its items' values, in order (a list item of type class is a
   * property map, a nested list an array).
   */
  readonly value: TiledPropertyValue;
  /** The custom type's name for `class` (and enum) properties, when given. */
  readonly propertyType?: string;
}

/** Custom properties by name. A Map, so names such as `__proto__` can never reach a prototype. */
export type TiledProperties = ReadonlyMap<string, TiledProperty>;

/** Tiled's gid flag bits: flipped horizontally, vertically, diagonally, rotated 120 degrees (hex). */
export const GID_FLIP_H = 0x80000000;
/** Gid flag: flipped vertically. */
export const GID_FLIP_V = 0x40000000;
/** Gid flag: flipped diagonally (x and y swapped; with the other two, the 90-degree turns). */
export const GID_FLIP_D = 0x20000000;
/** Gid flag of hexagonal maps: rotated 120 degrees. */
export const GID_ROTATE_120 = 0x10000000;
/** The gid without its flag bits. */
export const GID_MASK = 0x0fffffff;

/** Where in which file: every error names both. */
export interface Ctx {
  file: string;
  /**
   * True for files the map names (tilesets, templates) rather than the one the caller named: their
   * errors say what was wrong and where, never a byte of the content, since a map can name any
   * file the reader can open.
   */
  foreign?: boolean;
  /** Where readers put what they skipped (unknown property types, ...); the loader returns them. */
  warnings?: string[];
}

/** Records a warning once. */
export function warn(ctx: Ctx, message: string): void {
  if (ctx.warnings !== undefined && !ctx.warnings.includes(message)) ctx.warnings.push(message);
}

/** Deepest group layers and class / list values read; deeper ones are refused, naming the element. */
export const MAX_NESTING = 64;

/**
 * A name or path from a file, quoted for a one-line message: control characters, line and
 * paragraph separators escaped, and cut at `max` characters.
 */
export function quote(s: string, max = 120): string {
  return `"${quoteName(s, max)}"`;
}

/** `quote` without the quotes, for names already inside a quoted context such as `<group name="...">`. */
export function quoteName(s: string, max = 120): string {
  const cut = s.length > max ? s.slice(0, max) : s;
  const escaped = JSON.stringify(cut).slice(1, -1).replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return escaped + (cut.length < s.length ? '...' : '');
}

/** A message from a parser, on one line (runs of whitespace, newlines included, become one space). */
export function oneLine(message: string): string {
  return message.replace(/\s+/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?').trim();
}

export function fail(ctx: Ctx, element: string, message: string): never {
  throw new TilenavError(message, { file: ctx.file, element });
}

/** An object of an object layer (exported as `TiledObject`), its template's fields merged in. */
export interface RawObject {
  /** The object's id, unique in its map. */
  id: number;
  /** Its name ('' when none). */
  name: string;
  /** Its type or class ('' when none). */
  type: string;
  /** Position x, in Tiled's pixels as written in the file. */
  x: number;
  /** Position y, in Tiled's pixels as written in the file. */
  y: number;
  /** Width in pixels (0 for points and for shapes without one). */
  width: number;
  /** Height in pixels. */
  height: number;
  /** Degrees clockwise about (x, y). */
  rotation: number;
  /** Whether it is shown in Tiled. */
  visible: boolean;
  /** For a tile object, the tile's global id with its flip bits; 0 otherwise. */
  gid: number;
  /** The object's shape (a tile object is a 'rectangle'). */
  shape: 'rectangle' | 'ellipse' | 'polygon' | 'polyline' | 'point' | 'text';
  /** Polygon / polyline points relative to (x, y), flat [x0, y0, x1, y1, ...]. */
  points: number[];
  /** Its custom properties. */
  properties: TiledProperties;
  /** The object template file it instantiates, as written ('' for none); the loader has merged the template's fields in. */
  template: string;
}

/**
 * For objects that take part in templates (instances and the templates' own objects), the fields
 * the file actually gave, by RawObject key ('shape' covers the shape and its points); what an
 * instance leaves out comes from its template. Kept beside the object, not on it, so the public
 * object type stays as it was.
 */
export const givenFields = new WeakMap<RawObject, ReadonlySet<string>>();

/** An object template (`.tx` / `.tj`): its object and, for tile objects, the tileset its gid counts in. */
export interface RawTemplate {
  object: RawObject;
  tileset: { firstgid: number; source: string } | null;
}

export interface RawChunk {
  x: number;
  y: number;
  width: number;
  height: number;
  data: Uint32Array;
}

interface RawLayerBase {
  name: string;
  visible: boolean;
  /** `offsetx` / `offsety` in pixels (the layer's own, not its groups'). */
  offsetX: number;
  offsetY: number;
  properties: TiledProperties;
  /** For messages: `layer "Walls"` inside its groups. */
  element: string;
}

export interface RawTileLayer extends RawLayerBase {
  kind: 'tile';
  width: number;
  height: number;
  /** Finite maps: width x height gids with the flip bits still set. */
  data: Uint32Array | null;
  /** Infinite maps. */
  chunks: RawChunk[] | null;
}

export interface RawObjectLayer extends RawLayerBase {
  kind: 'object';
  objects: RawObject[];
}

export interface RawGroupLayer extends RawLayerBase {
  kind: 'group';
  layers: RawLayer[];
}

export interface RawOtherLayer extends RawLayerBase {
  kind: 'image';
}

export type RawLayer = RawTileLayer | RawObjectLayer | RawGroupLayer | RawOtherLayer;

export interface RawTile {
  id: number;
  properties: TiledProperties;
  /** Collision shapes from the tile's objectgroup, in pixels relative to the tile image's top-left. */
  shapes: RawObject[];
  /** Image size for collection-of-images tilesets. */
  imageWidth: number;
  imageHeight: number;
}

export interface RawTileset {
  firstgid: number;
  name: string;
  tileWidth: number;
  tileHeight: number;
  tileCount: number;
  /** Tiles per row of the tileset image (0 for a collection of images). */
  columns: number;
  margin: number;
  spacing: number;
  /** The tileset image as written (`source` relative to the tileset's file), or null for a collection of images. */
  image: { source: string; width: number; height: number } | null;
  offsetX: number;
  offsetY: number;
  tiles: RawTile[];
  properties: TiledProperties;
  /** The file it came from (the map's own file for embedded tilesets). */
  file: string;
}

/** A tileset reference before external files are read. */
export interface TilesetRef {
  firstgid: number;
  /** External file as written in the map, or null for an embedded tileset. */
  source: string | null;
  embedded: RawTileset | null;
  element: string;
}

export interface RawMap {
  orientation: string;
  renderOrder: string;
  width: number;
  height: number;
  tileWidth: number;
  tileHeight: number;
  hexSideLength: number;
  staggerAxis: string;
  staggerIndex: string;
  infinite: boolean;
  properties: TiledProperties;
  tilesets: TilesetRef[];
  layers: RawLayer[];
}

/** Limits the data decoders enforce. */
export interface DecodeLimits {
  maxCells: number;
  /** For the whole map, all layers and chunks together. */
  maxDecompressedBytes: number;
  /** Decompressed bytes so far. */
  used: number;
}

/** Property names that must never become object keys: code that copies properties into plain objects would reach a prototype. */
export function checkPropertyName(ctx: Ctx, element: string, name: unknown): string {
  if (typeof name !== 'string') fail(ctx, element, 'expected a property name (a string)');
  if (name === '__proto__' || name === 'constructor' || name === 'prototype') {
    fail(ctx, `${element} property ${JSON.stringify(name)}`, 'this property name is refused: it would shadow an object prototype in code that copies properties into plain objects; rename it');
  }
  return name;
}

/** Parses a Tiled number attribute; `fallback` when absent, an error naming the element when not a number. */
export function num(ctx: Ctx, element: string, name: string, value: unknown, fallback?: number): number {
  if (value === undefined || value === null || value === '') {
    if (fallback !== undefined) return fallback;
    fail(ctx, element, `the attribute "${name}" is missing`);
  }
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  if (!Number.isFinite(n)) fail(ctx, element, `"${name}" must be a number, got ${JSON.stringify(value)}`);
  return n;
}

/** Like {@link num} but a whole number in [min, max]. */
export function int(ctx: Ctx, element: string, name: string, value: unknown, fallback?: number, min = -(2 ** 31), max = 2 ** 32 - 1): number {
  const n = num(ctx, element, name, value, fallback);
  if (!Number.isInteger(n) || n < min || n > max) fail(ctx, element, `"${name}" must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return n;
}

export function str(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? fallback : String(value);
}
