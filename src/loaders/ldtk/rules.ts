/**
 * What an LDtk IntGrid value means to navigation: the rules a user picks (per layer, per value),
 * then the conventions of {@link LdtkMapping} (value and layer identifiers a level designer would
 * use). Checked here for shape; names the project must have are matched when it is built.
 */
import { TilenavError } from '../../errors.js';
import { DEFAULT_LAYER_NAMES, MAX_LAYERS, type EdgeSide } from '../../grid/navgrid.js';
import { sideOfIdentifier } from '../edge-walls.js';
import type { TerrainTable } from '../../grid/terrain.js';
import { jsonError } from '../messages.js';
import { ruleTerrain } from '../tiled/apply-rules.js';
import { quote } from '../tiled/model.js';
import { at, checkRule, describe, isPlainObject, type TiledRule } from '../tiled/rules.js';

/** What a rule says about the cells it covers: at least one of `walkable`, `terrain`, `cost`. */
export interface LdtkRule extends TiledRule {
  /** The navigation layer the cells go to: its index (0 to 7) or its name (`Ground`, `Sky`, ...). @default the mapping's `layer` (0) */
  layer?: number | string;
}

/**
 * A rules file: `{ "version": 1, "layers": { layer: rule }, "values": { layer: { value: rule } } }`,
 * every part optional. `layers` covers every non-empty cell of an IntGrid layer (by its
 * identifier); `values` one value of it, named by its number (`"2"`), its identifier (`"water"`)
 * or its group's identifier. A value's own rule wins over its group's, which wins over the layer's.
 */
export interface LdtkRules {
  /** The rules file's format version: 1. */
  version?: 1;
  /** A rule for every non-empty cell of an IntGrid layer, by the layer's identifier. */
  layers?: Record<string, LdtkRule>;
  /** Rules for single values, by layer identifier, then by value number, identifier or group identifier. */
  values?: Record<string, Record<string, LdtkRule>>;
}

/** The conventions that say what an IntGrid value means when no rule does; names match case-insensitively. */
export interface LdtkMapping {
  /** Value (or value group) identifiers whose cells block. @default ['wall', 'walls', 'solid', 'collision', 'collisions', 'collider', 'obstacle', 'obstacles', 'block', 'blocked', 'blocking'] */
  blockingValues: readonly string[];
  /** Value (or value group) identifiers whose cells are walkable over whatever the layers below say (a bridge). @default ['floor', 'walkable', 'open', 'path', 'bridge'] */
  openValues: readonly string[];
  /** IntGrid layer identifiers whose every value blocks unless its identifier says otherwise. @default ['collision', 'collisions', 'colliders', 'solid', 'walls', 'obstacles'] */
  collisionLayers: readonly string[];
  /** A value whose identifier is a terrain name of the grid's terrain table (`water`, `mud`, `lava`) takes that terrain's cost (or blocks, for an impassable one). @default true */
  terrainValues: boolean;
  /** The navigation layer values go to unless a rule says `layer`. @default 0 */
  layer: number;
  /** IntGrid layers hidden in LDtk (`visible` false) still count: collision layers are often hidden. @default true */
  hiddenLayers: boolean;
  /**
   * Words that, followed by a side, make a value (or value group) identifier an edge wall on that
   * side of its cells: `wall_north`, `fence-E`, `edgeSouth`, `wall w` (sides `n`/`north`/`top`,
   * `e`/`east`/`right`, `s`/`south`/`bottom`, `w`/`west`/`left`). Its cells stay as they are.
   * @default ['wall', 'fence', 'edge', 'barrier', 'railing']
   */
  edgeWallValues: readonly string[];
  /**
   * Entity identifiers that put up edge walls: on the side(s) of their box their `side` field names
   * (a String or enum value such as `N` or `North`, or an array of them), or, without one, along
   * the grid line a thin box (under half a cell across) lies on. A `Gate` whose Bool field `open`
   * is true (or `closed` false) puts up none. @default ['wall', 'fence', 'gate', 'edgewall', 'thinwall', 'barrier', 'railing']
   */
  edgeWallEntities: readonly string[];
}

/** The mapping used where `options.mapping` leaves a field out. */
export const DEFAULT_LDTK_MAPPING: Readonly<LdtkMapping> = Object.freeze({
  blockingValues: Object.freeze(['wall', 'walls', 'solid', 'collision', 'collisions', 'collider', 'obstacle', 'obstacles', 'block', 'blocked', 'blocking']),
  openValues: Object.freeze(['floor', 'walkable', 'open', 'path', 'bridge']),
  collisionLayers: Object.freeze(['collision', 'collisions', 'colliders', 'solid', 'walls', 'obstacles']),
  terrainValues: true,
  layer: 0,
  hiddenLayers: true,
  edgeWallValues: Object.freeze(['wall', 'fence', 'edge', 'barrier', 'railing']),
  edgeWallEntities: Object.freeze(['wall', 'fence', 'gate', 'edgewall', 'thinwall', 'barrier', 'railing']),
});

/** Rules after their shape is checked. */
export interface CheckedLdtkRules {
  file: string;
  layers: Map<string, LdtkRule>;
  values: Map<string, Map<string, LdtkRule>>;
}

function checkLayerField(file: string, v: unknown, element: string): number | string {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < MAX_LAYERS) return v;
  if (typeof v === 'string' && v !== '') return v;
  throw new TilenavError(`expected a navigation layer index from 0 to ${MAX_LAYERS - 1} or a layer name such as "Ground", got ${describe(v)}`, { file, element });
}

function checkLdtkRule(file: string, v: unknown, section: string, names: string[]): LdtkRule {
  if (!isPlainObject(v) || !Object.hasOwn(v, 'layer')) return checkRule(file, v, section, names);
  const { layer, ...rest } = v;
  const checked: LdtkRule = checkRule(file, rest, section, names);
  checked.layer = checkLayerField(file, layer, at(section, names, 'layer'));
  return checked;
}

/**
 * Checks a rules object or its JSON text. Throws a TilenavError naming `file` and the key at
 * fault: JSON that does not parse (with its line), an unknown key, a rule without `walkable` /
 * `terrain` / `cost`, a field of the wrong type, a `layer` that is neither an index 0 to 7 nor a name.
 */
export function checkLdtkRules(input: LdtkRules | string, file = '<rules>'): CheckedLdtkRules {
  let root: unknown = input;
  if (typeof input === 'string') {
    const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
    if (text.trim() === '') throw new TilenavError('the rules file is empty; expected JSON such as { "values": { "<IntGrid layer>": { "<value>": { "walkable": false } } } }', { file });
    try {
      root = JSON.parse(text);
    } catch (e) {
      const { message, line } = jsonError(e, text, false);
      throw new TilenavError(message, { file, line });
    }
  }
  if (!isPlainObject(root)) throw new TilenavError(`expected a JSON object with "layers" and / or "values", got ${describe(root)}`, { file });
  for (const k of Object.keys(root)) {
    if (k !== 'version' && k !== 'layers' && k !== 'values') throw new TilenavError(`unknown key ${quote(k, 40)}; expected "version", "layers" or "values"`, { file, element: k.length > 40 ? k.slice(0, 40) + '...' : k });
  }
  if (root.version !== undefined && root.version !== 1) throw new TilenavError(`this reader knows rules version 1, got ${describe(root.version)}`, { file, element: 'version' });
  const out: CheckedLdtkRules = { file, layers: new Map(), values: new Map() };
  if (root.layers !== undefined) {
    if (!isPlainObject(root.layers)) throw new TilenavError(`expected an object of rules by IntGrid layer identifier, got ${describe(root.layers)}`, { file, element: 'layers' });
    for (const [name, rule] of Object.entries(root.layers)) out.layers.set(name, checkLdtkRule(file, rule, 'layers', [name]));
  }
  if (root.values !== undefined) {
    if (!isPlainObject(root.values)) throw new TilenavError(`expected an object of IntGrid layers by identifier, got ${describe(root.values)}`, { file, element: 'values' });
    for (const [name, values] of Object.entries(root.values)) {
      if (!isPlainObject(values)) throw new TilenavError(`expected an object of rules by value (its number or identifier), got ${describe(values)}`, { file, element: at('values', [name]) });
      const byKey = new Map<string, LdtkRule>();
      for (const [key, rule] of Object.entries(values)) byKey.set(key, checkLdtkRule(file, rule, 'values', [name, key]));
      out.values.set(name, byKey);
    }
  }
  return out;
}

/** One IntGrid value as the project defines it. */
export interface ValueDef {
  value: number;
  identifier: string | null;
  /** Its group's identifier, when it is in a named group. */
  group: string | null;
}

/** What a value's cells do, with names resolved: walkable 0 blocks, 1 opens, -1 leaves as is. */
export interface ValueNav {
  walkable: -1 | 0 | 1;
  /** Terrain id, or -1. */
  terrain: number;
  /** Cost, or NaN to keep the terrain's (or the cell's). */
  cost: number;
  /** Navigation layer index. */
  layer: number;
  /** Edge walls on the cells' sides: bit 0 north, 1 east, 2 south, 3 west (see {@link WALL_BITS}). */
  walls: number;
}

/** A side's bit in {@link ValueNav.walls}. */
export const WALL_BITS: Readonly<Record<EdgeSide, number>> = Object.freeze({ north: 1, east: 2, south: 4, west: 8 });

/** The navigation layer a rule names: an index below `count`, or one of the grid's layer names. */
function layerOf(rules: CheckedLdtkRules, element: string, v: number | string): number {
  const i = typeof v === 'number' ? v : DEFAULT_LAYER_NAMES.indexOf(v);
  if (i < 0) throw new TilenavError(`unknown navigation layer ${quote(String(v), 40)}; the layer names are ${DEFAULT_LAYER_NAMES.join(', ')} (or give its index, 0 to ${MAX_LAYERS - 1})`, { file: rules.file, element });
  return i;
}

function fromRule(rules: CheckedLdtkRules, key: string, r: LdtkRule, table: TerrainTable, fallbackLayer: number): ValueNav {
  return {
    walkable: r.walkable === undefined ? -1 : r.walkable ? 1 : 0,
    terrain: r.terrain === undefined ? -1 : ruleTerrain(rules, `${key}.terrain`, r.terrain, table),
    cost: r.cost ?? NaN,
    layer: r.layer === undefined ? fallbackLayer : layerOf(rules, `${key}.layer`, r.layer),
    walls: 0,
  };
}

/** Lower-cased name sets of a mapping, built once per load. */
export interface MappingSets {
  mapping: LdtkMapping;
  blocking: Set<string>;
  open: Set<string>;
  collisionLayers: Set<string>;
  wallWords: Set<string>;
  wallEntities: Set<string>;
}

export function mappingSets(mapping: LdtkMapping): MappingSets {
  const lower = (l: readonly string[]) => new Set(l.map((s) => s.toLowerCase()));
  return { mapping, blocking: lower(mapping.blockingValues), open: lower(mapping.openValues), collisionLayers: lower(mapping.collisionLayers), wallWords: lower(mapping.edgeWallValues), wallEntities: lower(mapping.edgeWallEntities) };
}

/**
 * What each value of an IntGrid layer means, or null for a value that means nothing to
 * navigation: its own rule (by number, identifier, then group), the layer's rule, then the
 * mapping's blocking and open identifiers, an edge wall's (`wall_north`), a terrain name, and last
 * a collision layer's name.
 */
export function valueNavs(layer: string, defs: readonly ValueDef[], rules: CheckedLdtkRules | undefined, sets: MappingSets, table: TerrainTable): Map<number, ValueNav | null> {
  const out = new Map<number, ValueNav | null>();
  const own = rules?.values.get(layer);
  const whole = rules?.layers.get(layer);
  const fallback = sets.mapping.layer;
  const terrainByLower = new Map<string, number>();
  if (sets.mapping.terrainValues) table.entries().forEach((t, id) => terrainByLower.has(t.name.toLowerCase()) || terrainByLower.set(t.name.toLowerCase(), id));
  for (const d of defs) {
    const names = [d.identifier, d.group].filter((n): n is string => n !== null && n !== '');
    let nav: ValueNav | null = null;
    const key = [String(d.value), ...names].find((k) => own?.has(k));
    if (key !== undefined) nav = fromRule(rules!, at('values', [layer, key]), own!.get(key)!, table, fallback);
    else if (whole !== undefined) nav = fromRule(rules!, at('layers', [layer]), whole, table, fallback);
    else {
      const lower = names.map((n) => n.toLowerCase());
      const terrain = lower.map((n) => terrainByLower.get(n)).find((t) => t !== undefined);
      const side = names.map((n) => sideOfIdentifier(n, sets.wallWords)).find((s) => s !== null);
      if (lower.some((n) => sets.blocking.has(n))) nav = { walkable: 0, terrain: -1, cost: NaN, layer: fallback, walls: 0 };
      else if (lower.some((n) => sets.open.has(n))) nav = { walkable: 1, terrain: -1, cost: NaN, layer: fallback, walls: 0 };
      else if (side !== undefined) nav = { walkable: -1, terrain: -1, cost: NaN, layer: fallback, walls: WALL_BITS[side] };
      else if (terrain !== undefined) nav = { walkable: -1, terrain, cost: NaN, layer: fallback, walls: 0 };
      else if (sets.collisionLayers.has(layer.toLowerCase())) nav = { walkable: 0, terrain: -1, cost: NaN, layer: fallback, walls: 0 };
    }
    out.set(d.value, nav);
  }
  return out;
}

/** Warnings for rules naming IntGrid layers or values the project does not have. */
export function unmatchedRules(rules: CheckedLdtkRules | undefined, layers: ReadonlyMap<string, readonly ValueDef[]>, warn: (w: string) => void): void {
  if (rules === undefined) return;
  const list = [...layers.keys()].map((n) => quote(n, 60)).join(', ') || 'none';
  for (const name of [...rules.layers.keys(), ...rules.values.keys()]) {
    if (!layers.has(name)) warn(`${rules.file}: the project has no IntGrid layer ${quote(name, 60)}, so its rules match nothing; its IntGrid layers are ${list}`);
  }
  for (const [name, values] of rules.values) {
    const defs = layers.get(name);
    if (defs === undefined) continue;
    const known = new Set(defs.flatMap((d) => [String(d.value), d.identifier ?? '', d.group ?? '']));
    for (const key of values.keys()) {
      if (!known.has(key)) warn(`${rules.file}: IntGrid layer ${quote(name, 60)} has no value ${quote(key, 60)}; its values are ${defs.map((d) => (d.identifier === null ? String(d.value) : `${d.value} (${d.identifier})`)).join(', ') || 'none'}`);
    }
  }
}
