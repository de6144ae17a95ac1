import { parseArgs, type ParseArgsConfig } from 'node:util';
import { extname } from 'node:path';
import { TilenavError } from '../errors.js';
import type { NavGrid } from '../grid/navgrid.js';
import { parseMovingAiMap } from '../loaders/movingai.js';
import { parseTextGrid } from '../loaders/textgrid.js';
import { parsePolygonConfig } from '../loaders/polygon.js';
import { parseBinaryGrid, BINARY_EXTENSION } from '../grid/binary.js';
import { parseTiled } from '../loaders/tiled/index.js';
import { DEFAULT_MAX_FILE_BYTES, readFileBoundedSync } from '../loaders/node.js';
import { parseLdtk, type LdtkLevel, type LdtkProject, type LdtkWorld } from '../loaders/ldtk/index.js';
import { ldtkLayerDraws } from '../render/ldtk-art.js';
import type { LayerDraws } from '../render/composite.js';

/** Where a command writes; tests pass their own. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** Terminal width when stdout is a terminal, else undefined. */
  columns: number | undefined;
  /** True when stderr is a terminal (progress bars go there). */
  errIsTty: boolean;
}

export type Command = (args: string[], io: CliIo) => Promise<number> | number;

type FlagSpec = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: false }>;
type FlagValues<T extends FlagSpec> = { [K in keyof T]?: T[K]['type'] extends 'boolean' ? boolean : string };

/** util.parseArgs with its errors turned into TilenavErrors naming the flag. */
export function parse<T extends FlagSpec>(args: string[], options: T, allowPositionals = true): { values: FlagValues<T>; positionals: string[] } {
  // A value that starts with "-" (`--units -3`, `--from -1,4`) would read as a flag: join it to its
  // flag so it reaches the flag's own check, which says what is expected.
  const joined: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const flag = args[k].startsWith('--') ? options[args[k].slice(2)] : undefined;
    if (flag?.type === 'string' && k + 1 < args.length && /^-[\d.]/.test(args[k + 1])) joined.push(`${args[k]}=${args[++k]}`);
    else joined.push(args[k]);
  }
  try {
    const r = parseArgs({ args: joined, options: options as NonNullable<ParseArgsConfig['options']>, allowPositionals, strict: true });
    return { values: r.values as FlagValues<T>, positionals: r.positionals };
  } catch (e) {
    // One line: the first sentence of Node's message.
    const first = (e as Error).message.split('\n')[0].replace(/\. To specify.*$/, '');
    throw new TilenavError(first, { element: 'arguments' });
  }
}

/** Parses "x,y" into two integers. */
export function parsePoint(value: string | undefined, flag: string): [number, number] {
  if (value === undefined) throw new TilenavError('is required, as x,y (e.g. 3,4)', { element: flag });
  const m = /^\s*(-?\d+)\s*,\s*(-?\d+)\s*$/.exec(value);
  if (!m) throw new TilenavError(`expected x,y with two whole numbers, got ${JSON.stringify(value)}`, { element: flag });
  return [Number(m[1]), Number(m[2])];
}

/** A map as the CLI sees it: the grid and how it was read. */
export interface LoadedMap {
  grid: NavGrid;
  format: string;
  warnings: string[];
  /** Numbers the source carries beside the grid (e.g. agentRadius), for writers that keep them. */
  meta?: [string, number][];
  /** The movement model the map implies (Tiled hexagonal / staggered maps), when it implies one. */
  movement?: string;
  /** Tiled maps: the Tiled tile of grid cell (0, 0) (non-zero on infinite maps), to place their tiles. */
  tileOffset?: { x: number; y: number };
  /** LDtk projects: the tiles of the level or world read, placed in the grid's pixels (their images not yet read). */
  tiles?: LayerDraws[];
  /** What else the file holds and how to pick it (an LDtk project's other levels and worlds), one line each. */
  contents?: string[];
}

/** Map readers by format name; loaders for more formats add themselves here. */
export const MAP_FORMATS: Record<string, { extensions: string[]; read(path: string, rules?: string, level?: string): LoadedMap }> = {
  movingai: {
    extensions: ['.map'],
    read: (path) => ({ ...parseMovingAiMap(readText(path), { file: path }), format: 'movingai' }),
  },
  txt: { extensions: ['.txt'], read: readTextGridFile },
  polygon: { extensions: ['.json'], read: (path, rules) => readJsonMap(path, rules) },
  binary: { extensions: [BINARY_EXTENSION], read: (path) => ({ ...parseBinaryGrid(readBytes(path), { file: path }), format: 'binary' }) },
  tiled: { extensions: ['.tmx', '.tmj'], read: readTiledMap },
  ldtk: { extensions: ['.ldtk'], read: readLdtkProject },
};

function readTextGridFile(path: string): LoadedMap {
  const { grid, warnings, params } = parseTextGrid(readText(path), { file: path });
  return { grid, format: 'txt', warnings, meta: params.extra };
}

/**
 * A `.json` file is a Tiled map when its top-level object says so (`"type": "map"`, or Tiled's
 * `tilesets` / `orientation` without a polygon config's `areas`), else a polygon config. Decided by
 * parsing, not by looking at the first bytes: Tiled writes its keys in any order.
 */
function readJsonMap(path: string, rules?: string): LoadedMap {
  const text = readText(path);
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    // Malformed: the polygon reader reports it with a line number.
  }
  if (isTiledJson(root)) {
    if (Object.hasOwn(MAP_FORMATS, 'tiled')) return readTiledText(path, text, rules);
    throw new TilenavError('looks like a Tiled map, not a polygon config (no "areas"); this build has no Tiled reader', { file: path });
  }
  refuseRules(rules, 'a polygon config');
  const nav = parsePolygonConfig(root === undefined ? text : (root as object), { file: path });
  const { agentRadius, objectPadding, boundaryPadding } = nav.config;
  return { grid: nav.grid, format: 'polygon', warnings: nav.warnings, meta: [['agentRadius', agentRadius], ['objectPadding', objectPadding], ['boundaryPadding', boundaryPadding]] };
}

function isTiledJson(root: unknown): boolean {
  if (root === null || typeof root !== 'object' || Array.isArray(root)) return false;
  const o = root as Record<string, unknown>;
  if (Object.hasOwn(o, 'areas')) return false;
  // A tileset goes to the Tiled reader too, which says it is a tileset and not a map.
  return o.type === 'map' || o.type === 'tileset' || ((Object.hasOwn(o, 'tilesets') || Object.hasOwn(o, 'orientation') || Object.hasOwn(o, 'tiledversion')) && Object.hasOwn(o, 'layers'));
}

/** A Tiled map from disk; its external tilesets and templates come through the same reader. */
function readTiledMap(path: string, rules?: string): LoadedMap {
  return readTiledText(path, readBytes(path), rules);
}

/** Collision rules name tiles and layers of a Tiled map, or IntGrid values of an LDtk project: other formats have none to name. */
function refuseRules(rules: string | undefined, what: string): void {
  if (rules !== undefined) throw new TilenavError(`collision rules apply to Tiled maps and LDtk projects; this map is ${what}`, { element: '--rules' });
}

function readTiledText(path: string, source: string | Uint8Array, rules?: string): LoadedMap {
  // The rules file goes through the same bounded reader; its own errors name it.
  const m = parseTiled(source, { file: path, readFile: (p) => readBytes(p), rules: rules === undefined ? undefined : readText(rules), rulesFile: rules });
  return { grid: m.grid, format: `tiled ${m.orientation}`, warnings: m.warnings, movement: m.movement, tileOffset: m.offset };
}

/** How `--level` names a stitched world: `world`, with `:NAME` in a project of named worlds and `:DEPTH` where a world has several depths. */
function worldName(p: LdtkProject, w: LdtkWorld): string {
  return `world${w.name === '' ? '' : `:${w.name}`}${p.worlds.filter((o) => o.name === w.name).length > 1 ? `:${w.depth}` : ''}`;
}

/** The level (or stitched world) `--level` names, else the project's one world, else its first level. */
function pickLevel(p: LdtkProject, level: string | undefined): LdtkLevel | LdtkWorld {
  if (level === undefined) return p.world ?? p.levels[0];
  const found = p.levels.find((l) => l.name === level) ?? p.worlds.find((w) => worldName(p, w) === level || (level === 'world' && p.worlds.length === 1));
  if (found !== undefined) return found;
  const names = [...p.levels.map((l) => l.name), ...p.worlds.map((w) => worldName(p, w))];
  throw new TilenavError(`the project has no level ${JSON.stringify(level)}; it has ${names.slice(0, 20).join(', ')}${names.length > 20 ? ` and ${names.length - 20} more` : ''}`, { element: '--level' });
}

/** An LDtk project from disk, its level files through the same bounded reader: the level or world `level` names. */
function readLdtkProject(path: string, rules?: string, level?: string): LoadedMap {
  const p = parseLdtk(readBytes(path), { file: path, readFile: (f) => readBytes(f), rules: rules === undefined ? undefined : readText(rules), rulesFile: rules });
  const picked = pickLevel(p, level);
  const contents = [
    ...p.levels.map((l) => `level ${JSON.stringify(l.name)}: ${l.grid.width} x ${l.grid.height}${l === picked ? ' (this one)' : ''}`),
    ...p.worlds.map((w) => `${worldName(p, w)}: ${w.layout} world${p.worlds.length > 1 ? ` depth ${w.depth}` : ''}, ${w.levels.length} levels stitched, ${w.grid.width} x ${w.grid.height}${w === picked ? ' (this one)' : ''}`),
  ];
  const what = 'tileLayers' in picked ? `level ${JSON.stringify(picked.name)}` : `${worldName(p, picked)}, ${picked.levels.length} levels stitched`;
  const warnings = 'tileLayers' in picked ? p.warnings.filter((w) => !w.startsWith('level ') || w.startsWith(`level ${JSON.stringify(picked.name)}:`)) : p.warnings;
  return { grid: picked.grid, format: `ldtk ${what}`, warnings, movement: 'octile', tiles: ldtkLayerDraws(p, picked), contents };
}

/**
 * Reads a map file, choosing the reader by `format` or by the file's extension. `rules` names a
 * collision rules file for a Tiled map or an LDtk project (refused for other formats); `level`
 * picks an LDtk project's level or world (refused for other formats). The loader's warnings go to
 * `warnTo`'s stderr, one `warning: ...` line each, before the command prints anything else
 * (`path` through a Tiled map where nothing blocks would otherwise cross its walls without a
 * word); only a command that reports them itself (`info`) passes null.
 */
export function loadMap(path: string | undefined, format: string | undefined, rules: string | undefined, warnTo: CliIo | null, level?: string): LoadedMap {
  const map = loadMapQuietly(path, format, rules, level);
  if (warnTo !== null) for (const w of map.warnings) warnTo.err(`warning: ${w}`);
  return map;
}

function loadMapQuietly(path: string | undefined, format?: string, rules?: string, level?: string): LoadedMap {
  if (path === undefined) throw new TilenavError('a map file is required', { element: 'MAP' });
  if (format !== undefined) {
    const f = MAP_FORMATS[format];
    if (f === undefined || !Object.hasOwn(MAP_FORMATS, format)) throw new TilenavError(`unknown format; expected one of ${Object.keys(MAP_FORMATS).join(', ')}`, { element: '--format' });
    return withFile(path, () => read(f, path, format, rules, level));
  }
  const ext = extname(path).toLowerCase();
  for (const [name, f] of Object.entries(MAP_FORMATS)) if (f.extensions.includes(ext)) return withFile(path, () => read(f, path, name, rules, level));
  const known = Object.values(MAP_FORMATS).flatMap((f) => f.extensions);
  throw new TilenavError(`cannot tell the map format from the extension ${JSON.stringify(ext)}; expected ${known.join(', ')} or --format`, { file: path });
}

function read(f: (typeof MAP_FORMATS)[string], path: string, name: string, rules: string | undefined, level: string | undefined): LoadedMap {
  // Polygon configs may turn out to be Tiled JSON maps, so they see the rules too.
  if (name !== 'tiled' && name !== 'polygon' && name !== 'ldtk') refuseRules(rules, `a ${name} map`);
  if (name !== 'ldtk' && level !== undefined) throw new TilenavError(`picks a level of an LDtk project; this map is a ${name} map`, { element: '--level' });
  return f.read(path, rules, level);
}

/** A TilenavError that names no file (one from deeper in, such as the grid's own checks) gets the map's. */
function withFile<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof TilenavError && e.file === undefined) throw new TilenavError(e.element === undefined ? e.message : e.message.slice(e.element.length + 2), { file: path, element: e.element });
    throw e;
  }
}

/** Reads a text file, with a TilenavError naming it when that fails. */
export function readText(path: string): string {
  const b = readBytes(path);
  return Buffer.from(b.buffer, b.byteOffset, b.length).toString("utf8");
}

/**
 * Reads a file's bytes through the loaders' one Node reader: regular files only (devices, FIFOs
 * and directories are refused before anything is read), at most `maxBytes`.
 */
export function readBytes(path: string, maxBytes = DEFAULT_MAX_FILE_BYTES): Uint8Array {
  return readFileBoundedSync(path, { maxFileBytes: maxBytes });
}

/** Median and 95th percentile of a list (sorted in place). */
export function percentiles(values: number[]): { mean: number; median: number; p95: number } {
  if (values.length === 0) return { mean: 0, median: 0, p95: 0 };
  values.sort((a, b) => a - b);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const at = (q: number) => values[Math.min(values.length - 1, Math.floor(q * values.length))];
  return { mean, median: at(0.5), p95: at(0.95) };
}

export const round = (v: number, digits = 1): number => Math.round(v * 10 ** digits) / 10 ** digits;
