/**
 * The LDtk loader: `.ldtk` projects (levels inside, or saved apart in `.ldtkl` files) into one
 * NavGrid per level, and one per depth of each Free or GridVania world with its levels stitched
 * by their world positions; tile layers, entities and fields beside them. No Node imports:
 * levels saved apart come through `readFile`.
 */
import { TilenavError, assertOptionsObject, describe } from '../../errors.js';
import { DEFAULT_MAX_CELLS, MAX_LAYERS } from '../../grid/navgrid.js';
import { TerrainTable } from '../../grid/terrain.js';
import { checkLimit } from '../limits.js';
import { resolveTiledPath } from '../tiled/index.js';
import { fail, oneLine, quote, quoteName, warn, type Ctx } from '../tiled/model.js';
import { buildLevel, CellBudget, cellSizeOf, stitch, tilesetsOf, type LdtkLevel, type LdtkTileset, type LdtkWorld, type StitchMember } from './build.js';
import type { LdtkEntity } from './entities.js';
import type { LoadedGrid } from '../result.js';
import { parseJson, readExternalLevel, readProject, type RawLevel, type RawProject } from './read.js';
import { checkLdtkRules, DEFAULT_LDTK_MAPPING, mappingSets, unmatchedRules, valueNavs, type LdtkMapping, type LdtkRules, type ValueDef, type ValueNav } from './rules.js';

export { checkLdtkRules, DEFAULT_LDTK_MAPPING } from './rules.js';
export type { LdtkMapping, LdtkRule, LdtkRules } from './rules.js';
export type { LdtkCell, LdtkCellRect, LdtkEntity, LdtkEntityRef, LdtkField, LdtkFieldValue, LdtkTileRect } from './entities.js';
export type { LdtkIntGridLayer, LdtkLevel, LdtkNeighbour, LdtkTileLayer, LdtkTileset, LdtkWorld } from './build.js';

/** Reads a file named relative to nothing (the loader has already joined it to the project's folder). */
export type LdtkReadFile = (path: string) => string | Uint8Array;

/** The options of {@link parseLdtk} and {@link parseLdtkAsync} (and, less `file` and `readFile`, of `loadLdtk`). */
export interface LdtkOptions {
  /** The project's path: named in errors; levels saved apart and tileset images resolve relative to its folder. @default '<project>' */
  file?: string;
  /**
   * Returns a level file's (`.ldtkl`) contents, text or UTF-8 bytes; called once per level saved
   * apart, with the project's folder joined to its `externalRelPath`. Without it a project whose
   * levels are saved apart is refused.
   */
  readFile?: LdtkReadFile;
  /** Read level files named by absolute paths or URLs. Off by default: a project from elsewhere could otherwise name any file. @default false */
  allowAbsolutePaths?: boolean;
  /** Refuse a project whose grids (levels and stitched worlds) have more cells than this together; NaN or a non-number is refused. @default DEFAULT_MAX_CELLS (2^26) */
  maxCells?: number;
  /** What IntGrid values mean when no rule says; fields left out keep their defaults. @default DEFAULT_LDTK_MAPPING */
  mapping?: Partial<LdtkMapping>;
  /**
   * Collision rules picked for this project, as an object or the JSON text of a rules file: IntGrid
   * layers (by identifier) and values (by number, identifier or group identifier) that block
   * (`walkable: false`), open (`walkable: true`), have a `terrain` or `cost`, or go to another
   * navigation `layer`. They come before the mapping's conventions. A layer or value the project
   * does not have is a warning; a malformed rule or an unknown terrain is a TilenavError naming
   * `rulesFile` and the key.
   */
  rules?: LdtkRules | string;
  /** The rules' file name, for messages. @default '<rules>' */
  rulesFile?: string;
  /** Terrain names and costs for rules and terrain-named values. @default new TerrainTable() */
  terrain?: TerrainTable;
  /** Pixels per navigation cell. @default the smallest grid size of the IntGrid layers navigation reads */
  cellSize?: number;
  /** Stitch the levels of Free and GridVania worlds into one grid per depth. @default true */
  stitch?: boolean;
}

/**
 * A loaded LDtk project. `grid` is the navigation grid of its one stitched world when it has
 * exactly one, else of its first level; every level and world keeps its own grid beside it.
 */
export interface LdtkProject extends LoadedGrid {
  /** Every level of every world, in the file's order. */
  levels: LdtkLevel[];
  /** One stitched grid per depth of each Free or GridVania world (none for linear layouts, or with `stitch: false`). */
  worlds: LdtkWorld[];
  /** The stitched world when there is exactly one. */
  world?: LdtkWorld;
  /** The project's tilesets, in its definitions' order (tile layers name them by their place here). */
  tilesets: LdtkTileset[];
  /** Pixels per navigation cell, the same for every grid of the project. */
  cellSize: number;
  /** LDtk's format version the file says it is (`1.5.3`). */
  jsonVersion: string;
  /** Every entity of every level by its iid (what `EntityRef` fields name), placed on its level's grid. */
  entities: ReadonlyMap<string, LdtkEntity>;
  /** Every warning, the project's and each level's (those prefixed with the level). */
  warnings: string[];
}

function decode(ctx: Ctx, source: string | Uint8Array, element: string): string {
  if (typeof source === 'string') return source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  if (!(source instanceof Uint8Array)) fail(ctx, element, `expected the file contents as a string or a Uint8Array, got ${describe(source)}`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(source);
  } catch {
    fail(ctx, element, 'the file is not valid UTF-8 text');
  }
}

/** A URL scheme (`file:`, `https:`, a drive letter `C:`) or a leading slash or backslash. */
const ABSOLUTE = /^([a-z][a-z0-9+.-]*:|[\\/])/i;

interface Prepared {
  ctx: Ctx;
  raw: RawProject;
  /** Levels saved apart, with the path each is read from. */
  external: { level: RawLevel; path: string }[];
  maxCells: number;
}

function prepare(source: string | Uint8Array, options: Omit<LdtkOptions, 'readFile'>): Prepared {
  assertOptionsObject(options, 'options');
  const maxCells = checkLimit(options.maxCells, 'maxCells', DEFAULT_MAX_CELLS);
  if (options.cellSize !== undefined && (typeof options.cellSize !== 'number' || !Number.isInteger(options.cellSize) || options.cellSize < 1)) {
    throw new TilenavError(`expected a whole number of pixels >= 1, got ${describe(options.cellSize)}`, { element: 'cellSize' });
  }
  if (options.terrain !== undefined && !(options.terrain instanceof TerrainTable)) throw new TilenavError(`expected a TerrainTable, got ${describe(options.terrain)}`, { element: 'terrain' });
  const ctx: Ctx = { file: options.file ?? '<project>', warnings: [] };
  const text = decode(ctx, source, 'project');
  if (text.trim() === '') fail(ctx, 'project', 'the file is empty');
  if (typeof source === 'string' && text.length < 4096 && !/[\n{[]/.test(text) && /\.(ldtk|ldtkl|json)\s*$/i.test(text)) {
    fail(ctx, 'project', `the text ${quote(text.trim(), 80)} looks like a file path; pass the file's contents (in Node, loadLdtk reads a project by its path)`);
  }
  const raw = readProject(ctx, parseJson(ctx, text, 'project'));
  const external: Prepared['external'] = [];
  for (const w of raw.worlds) {
    for (const level of w.levels) {
      if (level.layers !== null || level.externalRelPath === null) continue;
      const rel = level.externalRelPath;
      if (ABSOLUTE.test(rel) && options.allowAbsolutePaths !== true) fail(ctx, level.element, `the level file path ${quote(rel, 80)} is absolute or a URL; only paths relative to the project are read (set allowAbsolutePaths to allow it)`);
      const path = ABSOLUTE.test(rel) ? rel : resolveTiledPath(ctx.file, rel);
      if (path.startsWith('/..')) fail(ctx, level.element, `the level file path ${quote(rel, 80)} climbs above the filesystem root`);
      external.push({ level, path });
    }
  }
  return { ctx, raw, external, maxCells };
}

/** The mapping with its defaults, each field checked: name lists of text, a layer index 0 to 7, booleans. */
function checkMapping(mapping: Partial<LdtkMapping> | undefined): LdtkMapping {
  assertOptionsObject(mapping, 'mapping');
  const m = { ...DEFAULT_LDTK_MAPPING, ...mapping };
  for (const k of ['blockingValues', 'openValues', 'collisionLayers', 'edgeWallValues', 'edgeWallEntities'] as const) {
    if (!Array.isArray(m[k]) || !m[k].every((n) => typeof n === 'string')) throw new TilenavError(`expected a list of names, got ${describe(m[k])}`, { element: `mapping.${k}` });
  }
  for (const k of ['terrainValues', 'hiddenLayers'] as const) if (typeof m[k] !== 'boolean') throw new TilenavError(`expected true or false, got ${describe(m[k])}`, { element: `mapping.${k}` });
  if (!Number.isInteger(m.layer) || m.layer < 0 || m.layer >= MAX_LAYERS) throw new TilenavError(`expected a navigation layer index from 0 to ${MAX_LAYERS - 1}, got ${describe(m.layer)}`, { element: 'mapping.layer' });
  return m;
}

function readFailure(ctx: Ctx, element: string, path: string, e: unknown): never {
  if (e instanceof TilenavError) throw e;
  fail(ctx, element, `cannot read the level file ${quote(path, 200)} (${oneLine((e as Error)?.message ?? String(e))})`);
}

/** The level files to read, each once; without a reader, the first is refused. */
function toRead(p: Prepared, hasReader: boolean): Prepared['external'] {
  const seen = new Set<string>();
  return p.external.filter(({ level, path }) => {
    if (!hasReader) fail(p.ctx, level.element, `the level is saved in its own file ${quote(path, 200)}, which needs options.readFile to read it (in Node, loadLdtk reads a project and its level files by the project's path)`);
    if (seen.has(path)) return false;
    seen.add(path);
    return true;
  });
}

function finish(p: Prepared, contents: Map<string, string | Uint8Array>, options: Omit<LdtkOptions, 'readFile'>): LdtkProject {
  const { ctx, raw } = p;
  const warnings = ctx.warnings!;
  const say = (w: string) => warn(ctx, w);
  for (const { level, path } of p.external) {
    const lctx: Ctx = { file: quoteName(path, 200), foreign: true, warnings };
    const text = decode(lctx, contents.get(path)!, level.element);
    if (text.trim() === '') fail(lctx, level.element, 'the level file is empty');
    readExternalLevel(lctx, parseJson(lctx, text, level.element), level, say);
  }
  const rules = options.rules === undefined ? undefined : checkLdtkRules(options.rules, options.rulesFile);
  const sets = mappingSets(checkMapping(options.mapping));
  const terrain = options.terrain ?? new TerrainTable();
  const intGridDefs = new Map<string, ValueDef[]>();
  const navs = new Map<number, Map<number, ValueNav | null>>();
  for (const d of raw.layerDefs) {
    if (d.type !== 'IntGrid') continue;
    intGridDefs.set(d.identifier, d.values);
    navs.set(d.uid, valueNavs(d.identifier, d.values, rules, sets, terrain));
  }
  unmatchedRules(rules, intGridDefs, say);
  let layerCount = sets.mapping.layer + 1;
  for (const m of navs.values()) for (const n of m.values()) if (n !== null) layerCount = Math.max(layerCount, n.layer + 1);
  const cs = cellSizeOf(raw, navs, options.cellSize);
  const budget = new CellBudget(p.maxCells);
  const tilesets = tilesetsOf(raw, ctx.file);
  const tilesetIndex = new Map(raw.tilesets.map((t, k) => [t.uid, k]));
  const defs = new Map(raw.layerDefs.map((d) => [d.uid, d]));
  const buildOptions = { maxCells: p.maxCells, terrain, navs, layerCount, hiddenLayers: sets.mapping.hiddenLayers, wallEntities: sets.wallEntities, wallLayer: sets.mapping.layer };
  const files = new Map(p.external.map(({ level, path }) => [level, quoteName(path, 200)]));
  const levels: LdtkLevel[] = [];
  const byIid = new Map<string, string>();
  for (const w of raw.worlds) for (const l of w.levels) if (l.iid !== '') byIid.set(l.iid, l.name);
  const members: StitchMember[][] = [];
  for (const w of raw.worlds) {
    const list: StitchMember[] = [];
    for (const l of w.levels) {
      const file = files.get(l) ?? ctx.file;
      const lctx: Ctx = { file, foreign: file !== ctx.file, warnings: [] };
      const { outerWalls, ...built } = buildLevel(lctx, l, raw, buildOptions, cs, budget, tilesetIndex, defs);
      const neighbours = l.neighbours.flatMap((n) => {
        const name = byIid.get(n.levelIid);
        if (name === undefined) warn(lctx, `a neighbour names the level iid ${quote(n.levelIid, 60)}, which the project does not have; it is left out`);
        return name === undefined ? [] : [{ level: name, iid: n.levelIid, dir: n.dir }];
      });
      const level: LdtkLevel = { ...built, neighbours };
      list.push({ level, index: levels.length, outerWalls });
      levels.push(level);
    }
    members.push(list);
  }
  const worlds: LdtkWorld[] = [];
  if (options.stitch !== false) {
    raw.worlds.forEach((w, k) => {
      if (w.layout !== 'Free' && w.layout !== 'GridVania') return;
      if (members[k].length > 0) worlds.push(...stitch(ctx, w, members[k], cs, layerCount, terrain, budget, p.maxCells));
    });
  }
  const entities = new Map<string, LdtkEntity>();
  for (const l of levels) for (const e of l.entities) if (e.iid !== '') entities.set(e.iid, e);
  const all = [...warnings];
  for (const l of levels) for (const w of l.warnings) all.push(`level ${quote(l.name, 60)}: ${w}`);
  if (levels.length === 0) fail(ctx, 'project', 'the project has no levels');
  const world = worlds.length === 1 ? worlds[0] : undefined;
  return { grid: (world ?? levels[0]).grid, levels, worlds, world, tilesets, cellSize: cs, jsonVersion: raw.jsonVersion, entities, warnings: all };
}

/**
 * Loads an LDtk project (the `.ldtk` file's text or UTF-8 bytes): a NavGrid per level and per
 * depth of each Free or GridVania world, with each level's tiles, IntGrid values and entities.
 *
 * Navigation comes from IntGrid layers, painted from the bottom layer up onto grids of `cellSize`
 * pixel cells (every cell starts walkable Ground). What a value does comes from, in order: a rule
 * for it (by number, identifier or group identifier) or for its whole layer (`rules`); an
 * identifier the mapping calls blocking (`walls`, `solid`, `collision`, ...) or open (`floor`,
 * `bridge`, ...); an identifier that is a terrain name (`water` costs as Water, `lava` blocks); a
 * layer whose identifier the mapping calls a collision layer (`Collisions`, `walls`, ...), every
 * value of which blocks. A value nothing covers leaves its cells as they were, with a warning. A
 * layer cell covers every navigation cell its pixels overlap (its offset included), so layers of
 * other grid sizes still land where LDtk draws them.
 *
 * Levels saved apart come through `readFile`, each named relative to the project (absolute paths
 * and URLs only with `allowAbsolutePaths`). Throws a TilenavError naming the file and the element
 * (`level "Cave" layer "Collisions"`, an entity's field) for malformed JSON, values of the wrong
 * type, sizes past `maxCells`, and a level file that cannot be read.
 */
export function parseLdtk(source: string | Uint8Array, options: LdtkOptions = {}): LdtkProject {
  const p = prepare(source, options);
  const contents = new Map<string, string | Uint8Array>();
  for (const { level, path } of toRead(p, options.readFile !== undefined)) {
    try {
      contents.set(path, options.readFile!(path));
    } catch (e) {
      readFailure(p.ctx, level.element, path, e);
    }
  }
  return finish(p, contents, options);
}

/**
 * {@link parseLdtk} with an asynchronous `readFile` (fetch in a browser; in Node, loadLdtk of
 * `tilenav/loaders` passes the bounded file reader). Every level file is read once, before the
 * project is built.
 */
export async function parseLdtkAsync(source: string | Uint8Array, options: Omit<LdtkOptions, 'readFile'> & { readFile?: (path: string) => Promise<string | Uint8Array> | string | Uint8Array } = {}): Promise<LdtkProject> {
  const p = prepare(source, options);
  const contents = new Map<string, string | Uint8Array>();
  const read = options.readFile;
  for (const { level, path } of toRead(p, read !== undefined)) contents.set(path, await Promise.resolve(path).then(read).catch((e: unknown) => readFailure(p.ctx, level.element, path, e)));
  return finish(p, contents, options);
}
