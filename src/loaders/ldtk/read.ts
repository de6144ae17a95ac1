/**
 * Reading an LDtk project's JSON into checked pieces: its layer and tileset definitions, its worlds
 * and levels (a level's layers stay raw JSON until the level is built, since a level saved apart
 * comes from another file). Every value is checked for type where it is read; a wrong one is a
 * TilenavError naming the file and the element. Internal to the LDtk loader.
 */
import { TilenavError, describe as describeValue } from '../../errors.js';
import { jsonError } from '../messages.js';
import { fail, quote, type Ctx } from '../tiled/model.js';
import type { ValueDef } from './rules.js';

export type Json = Record<string, unknown>;

/** Largest pixel size, grid size or position read: what a 32-bit int holds, as LDtk writes them. */
export const MAX_INT = 2 ** 31 - 1;

export interface RawLayerDef {
  uid: number;
  identifier: string;
  type: string;
  gridSize: number;
  values: ValueDef[];
}

export interface RawTilesetDef {
  uid: number;
  identifier: string;
  relPath: string | null;
  embedAtlas: string | null;
  pxWid: number;
  pxHei: number;
  tileGridSize: number;
  spacing: number;
  padding: number;
  enumTags: Map<string, number[]>;
}

export interface RawLevel {
  name: string;
  iid: string;
  uid: number;
  worldX: number;
  worldY: number;
  depth: number;
  pxWid: number;
  pxHei: number;
  externalRelPath: string | null;
  neighbours: { levelIid: string; dir: string }[];
  /** The level's own fields, raw (checked when built). */
  fields: unknown;
  /** The layer instances, raw; null until a level saved apart is read. */
  layers: unknown[] | null;
  /** `level "Name"`, for messages. */
  element: string;
  world: string;
}

export interface RawWorld {
  name: string;
  iid: string;
  layout: string;
  levels: RawLevel[];
}

export interface RawProject {
  jsonVersion: string;
  defaultGridSize: number;
  layerDefs: RawLayerDef[];
  tilesets: RawTilesetDef[];
  worlds: RawWorld[];
}

/** Parses JSON text, a parse error becoming a TilenavError naming the file, its line and `element`. */
export function parseJson(ctx: Ctx, text: string, element: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const { message, line } = jsonError(e, text, ctx.foreign === true);
    throw new TilenavError(message, { file: ctx.file, line, element });
  }
}

/** A value's type for a message, and the value itself when it is short. */
export function got(v: unknown): string {
  if (typeof v === 'string') return `the text ${quote(v, 40)}`;
  if (v !== null && typeof v === 'object') return Array.isArray(v) ? 'a list' : 'an object';
  return describeValue(v);
}

export function object(ctx: Ctx, element: string, v: unknown, what = 'an object'): Json {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) fail(ctx, element, `expected ${what}, got ${got(v)}`);
  return v as Json;
}

function own(o: Json, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

/** A whole number `o[key]` from `min` to `max`; `fallback` when missing or null, if given. */
export function int(ctx: Ctx, element: string, o: Json, key: string, min: number, max: number, fallback?: number): number {
  const v = own(o, key);
  if ((v === undefined || v === null) && fallback !== undefined) return fallback;
  if (v === undefined) fail(ctx, element, `"${key}" is missing`);
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) fail(ctx, element, `"${key}" must be a whole number from ${min} to ${max}, got ${got(v)}`);
  return v;
}

/** A finite number `o[key]`; `fallback` when missing or null. */
export function num(ctx: Ctx, element: string, o: Json, key: string, fallback: number): number {
  const v = own(o, key);
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(ctx, element, `"${key}" must be a number, got ${got(v)}`);
  return v;
}

/** A string `o[key]`; `fallback` when missing (or null, when `fallback` is given). */
export function str(ctx: Ctx, element: string, o: Json, key: string, fallback?: string): string {
  const v = own(o, key);
  if ((v === undefined || v === null) && fallback !== undefined) return fallback;
  if (typeof v !== 'string') fail(ctx, element, v === undefined ? `"${key}" is missing` : `"${key}" must be text, got ${got(v)}`);
  return v;
}

/** A string or null `o[key]` (missing reads as null). */
export function strOrNull(ctx: Ctx, element: string, o: Json, key: string): string | null {
  const v = own(o, key);
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') fail(ctx, element, `"${key}" must be text or null, got ${got(v)}`);
  return v;
}

export function bool(ctx: Ctx, element: string, o: Json, key: string, fallback: boolean): boolean {
  const v = own(o, key);
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') fail(ctx, element, `"${key}" must be true or false, got ${got(v)}`);
  return v;
}

/** A list `o[key]`; an empty one when missing or null unless `required`. */
export function list(ctx: Ctx, element: string, o: Json, key: string, required = false): unknown[] {
  const v = own(o, key);
  if ((v === undefined || v === null) && !required) return [];
  if (!Array.isArray(v)) fail(ctx, element, v === undefined ? `"${key}" is missing` : `"${key}" must be a list, got ${got(v)}`);
  return v;
}

/** A pair of numbers `o[key]` such as `px` or `__grid`, whole unless `whole` is false. */
export function pair(ctx: Ctx, element: string, o: Json, key: string, whole = true, fallback?: [number, number]): [number, number] {
  const v = own(o, key);
  if ((v === undefined || v === null) && fallback !== undefined) return fallback;
  if (!Array.isArray(v) || v.length < 2 || !v.slice(0, 2).every((n) => typeof n === 'number' && (whole ? Number.isInteger(n) && Math.abs(n) <= MAX_INT : Number.isFinite(n)))) {
    fail(ctx, element, `"${key}" must be a pair of ${whole ? 'whole numbers' : 'numbers'} [x, y], got ${got(v)}`);
  }
  return [v[0] as number, v[1] as number];
}

/** An element name with a quoted identifier, or the position in its list when the identifier is not text. */
export function named(kind: string, o: Json, key: string, index: number): string {
  const v = own(o, key);
  return typeof v === 'string' ? `${kind} ${quote(v, 60)}` : `${kind} [${index}]`;
}

function readLayerDef(ctx: Ctx, v: unknown, k: number): RawLayerDef {
  const element = `defs.layers[${k}]`;
  const o = object(ctx, element, v, 'a layer definition');
  const el = named('layer definition', o, 'identifier', k);
  const identifier = str(ctx, el, o, 'identifier');
  const type = str(ctx, el, o, '__type', str(ctx, el, o, 'type', ''));
  const gridSize = int(ctx, el, o, 'gridSize', 1, MAX_INT);
  const groups = new Map<number, string | null>();
  list(ctx, el, o, 'intGridValuesGroups').forEach((g, j) => {
    const go = object(ctx, `${el} intGridValuesGroups[${j}]`, g);
    groups.set(int(ctx, `${el} intGridValuesGroups[${j}]`, go, 'uid', -MAX_INT, MAX_INT), strOrNull(ctx, `${el} intGridValuesGroups[${j}]`, go, 'identifier'));
  });
  const seen = new Set<number>();
  const values = list(ctx, el, o, 'intGridValues').map((val, j): ValueDef => {
    const vel = `${el} intGridValues[${j}]`;
    const vo = object(ctx, vel, val, 'an IntGrid value definition');
    // Before LDtk 0.8 values had no "value" field: the n-th definition was value n + 1.
    const value = int(ctx, vel, vo, 'value', 1, MAX_INT, j + 1);
    if (seen.has(value)) fail(ctx, vel, `value ${value} is defined twice`);
    seen.add(value);
    const groupUid = int(ctx, vel, vo, 'groupUid', -MAX_INT, MAX_INT, 0);
    return { value, identifier: strOrNull(ctx, vel, vo, 'identifier'), group: groups.get(groupUid) ?? null };
  });
  return { uid: int(ctx, el, o, 'uid', -MAX_INT, MAX_INT), identifier, type, gridSize, values };
}

function readTilesetDef(ctx: Ctx, v: unknown, k: number): RawTilesetDef {
  const o = object(ctx, `defs.tilesets[${k}]`, v, 'a tileset definition');
  const el = named('tileset', o, 'identifier', k);
  const enumTags = new Map<string, number[]>();
  list(ctx, el, o, 'enumTags').forEach((t, j) => {
    const tel = `${el} enumTags[${j}]`;
    const to = object(ctx, tel, t);
    const ids = list(ctx, tel, to, 'tileIds').map((id) => {
      if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) fail(ctx, tel, `"tileIds" must hold tile ids (whole numbers >= 0), got ${got(id)}`);
      return id;
    });
    enumTags.set(str(ctx, tel, to, 'enumValueId'), ids);
  });
  return {
    uid: int(ctx, el, o, 'uid', -MAX_INT, MAX_INT),
    identifier: str(ctx, el, o, 'identifier'),
    relPath: strOrNull(ctx, el, o, 'relPath'),
    embedAtlas: strOrNull(ctx, el, o, 'embedAtlas'),
    pxWid: int(ctx, el, o, 'pxWid', 0, MAX_INT, 0),
    pxHei: int(ctx, el, o, 'pxHei', 0, MAX_INT, 0),
    tileGridSize: int(ctx, el, o, 'tileGridSize', 1, MAX_INT),
    spacing: int(ctx, el, o, 'spacing', 0, MAX_INT, 0),
    padding: int(ctx, el, o, 'padding', 0, MAX_INT, 0),
    enumTags,
  };
}

function readLevel(ctx: Ctx, v: unknown, k: number, world: string, where: string): RawLevel {
  const o = object(ctx, `${where}[${k}]`, v, 'a level');
  const element = named('level', o, 'identifier', k);
  const neighbours = list(ctx, element, o, '__neighbours').map((n, j) => {
    const no = object(ctx, `${element} __neighbours[${j}]`, n);
    return { levelIid: str(ctx, `${element} __neighbours[${j}]`, no, 'levelIid'), dir: str(ctx, `${element} __neighbours[${j}]`, no, 'dir', '') };
  });
  const layers = Object.hasOwn(o, 'layerInstances') ? o.layerInstances : null;
  if (layers !== null && layers !== undefined && !Array.isArray(layers)) fail(ctx, element, `"layerInstances" must be a list or null, got ${got(layers)}`);
  const externalRelPath = strOrNull(ctx, element, o, 'externalRelPath');
  if ((layers === null || layers === undefined) && externalRelPath === null) fail(ctx, element, 'the level has no "layerInstances" and no "externalRelPath" naming the file that holds them');
  return {
    name: str(ctx, element, o, 'identifier'),
    iid: str(ctx, element, o, 'iid', ''),
    uid: int(ctx, element, o, 'uid', -MAX_INT, MAX_INT, -1),
    worldX: int(ctx, element, o, 'worldX', -MAX_INT - 1, MAX_INT, -1),
    worldY: int(ctx, element, o, 'worldY', -MAX_INT - 1, MAX_INT, -1),
    depth: int(ctx, element, o, 'worldDepth', -MAX_INT - 1, MAX_INT, 0),
    pxWid: int(ctx, element, o, 'pxWid', 1, MAX_INT),
    pxHei: int(ctx, element, o, 'pxHei', 1, MAX_INT),
    externalRelPath,
    neighbours,
    fields: Object.hasOwn(o, 'fieldInstances') ? o.fieldInstances : [],
    layers: Array.isArray(layers) ? layers : null,
    element,
    world,
  };
}

/**
 * Reads a project's root: definitions, worlds and levels. A single level (`.ldtkl`) or something
 * that is no LDtk project at all is refused with what to pass instead.
 */
export function readProject(ctx: Ctx, root: unknown): RawProject {
  const o = object(ctx, 'project', root, 'an LDtk project (a JSON object with "defs" and "levels")');
  if (!Object.hasOwn(o, 'defs')) {
    if (Object.hasOwn(o, 'layerInstances') && Object.hasOwn(o, 'pxWid')) fail(ctx, 'project', 'this is one level of an LDtk project, saved apart (.ldtkl); load the project (.ldtk) that names it');
    fail(ctx, 'project', 'not an LDtk project: it has no "defs" (the layer and tileset definitions)');
  }
  const defs = object(ctx, 'defs', o.defs);
  const layerDefs = list(ctx, 'defs', defs, 'layers').map((d, k) => readLayerDef(ctx, d, k));
  const tilesets = list(ctx, 'defs', defs, 'tilesets').map((d, k) => readTilesetDef(ctx, d, k));
  const layout = str(ctx, 'project', o, 'worldLayout', 'Free');
  const worlds: RawWorld[] = [];
  const rawWorlds = list(ctx, 'project', o, 'worlds');
  const rawLevels = list(ctx, 'project', o, 'levels');
  if (rawLevels.length > 0 || rawWorlds.length === 0) {
    worlds.push({ name: '', iid: str(ctx, 'project', o, 'dummyWorldIid', ''), layout, levels: rawLevels.map((l, k) => readLevel(ctx, l, k, '', 'levels')) });
  }
  rawWorlds.forEach((w, k) => {
    const wo = object(ctx, `worlds[${k}]`, w, 'a world');
    const el = named('world', wo, 'identifier', k);
    const name = str(ctx, el, wo, 'identifier');
    worlds.push({ name, iid: str(ctx, el, wo, 'iid', ''), layout: str(ctx, el, wo, 'worldLayout', layout), levels: list(ctx, el, wo, 'levels').map((l, j) => readLevel(ctx, l, j, name, `${el} levels`)) });
  });
  return {
    jsonVersion: str(ctx, 'project', o, 'jsonVersion', ''),
    defaultGridSize: int(ctx, 'project', o, 'defaultGridSize', 1, MAX_INT, 16),
    layerDefs,
    tilesets,
    worlds,
  };
}

/**
 * Reads a level saved apart: the same level object, whose layers (and fields) replace the
 * project's empty ones. Its identifier should be the project's; when it is not, a warning says so.
 */
export function readExternalLevel(ctx: Ctx, root: unknown, level: RawLevel, warn: (w: string) => void): void {
  const o = object(ctx, level.element, root, 'a level (a JSON object with "layerInstances")');
  const layers = list(ctx, level.element, o, 'layerInstances', true);
  const iid = str(ctx, level.element, o, 'iid', '');
  if (iid !== '' && level.iid !== '' && iid !== level.iid) warn(`${ctx.file}: holds the level with iid ${quote(iid, 60)}, not ${quote(level.iid, 60)} as the project says; its layers are used for ${level.element}`);
  level.layers = layers;
  if (Object.hasOwn(o, 'fieldInstances')) level.fields = o.fieldInstances;
}
