/**
 * Collision rules a user picks for a Tiled map that does not say itself which tiles block: per tile
 * (by tileset name and local id) and per layer (by name), `walkable`, `terrain` and `cost`. Read from
 * an object or JSON text, checked here for shape; what needs the map (tileset, layer and terrain
 * names) is checked when a map is built with them.
 */
import { TilenavError } from '../../errors.js';
import { GID_MASK, quote } from './model.js';

/** What a rule says about the cells it covers; at least one field. */
export interface TiledRule {
  /** `false`: the cells block. `true`: the cells are walkable over whatever the layers below say (a bridge or a pier); a blocking rule on the same layer or one above still wins. */
  walkable?: boolean;
  /** A terrain name of the grid's terrain table: its id and cost (an impassable terrain blocks). */
  terrain?: string;
  /** The cells' traversal cost (Ground costs 1), replacing the terrain's; from about 1.18e-38 to 3.4e38, the range of a 32-bit float. */
  cost?: number;
}

/** A rules file: `{ "version": 1, "tilesets": { name: { localId: rule } }, "layers": { name: rule } }`; every part optional. */
export interface TiledRules {
  /** The rules format's version; only 1 exists. */
  version?: 1;
  /** Tile rules by tileset name, then by local tile id (0 to 268435455, as a string key). */
  tilesets?: Record<string, Record<string, TiledRule>>;
  /** Layer rules by layer name; a group's name covers the layers in it. */
  layers?: Record<string, TiledRule>;
}

/** Rules after their shape is checked: maps by tileset name and local id, by layer name. */
export interface CheckedRules {
  /** The rules' file name, for messages. */
  file: string;
  /** Tile rules by tileset name, then by local tile id. */
  tilesets: Map<string, Map<number, TiledRule>>;
  /** Layer rules by layer name. */
  layers: Map<string, TiledRule>;
}

/** The smallest normal and the largest finite 32-bit float: the range a cost can be stored in. */
export const FLOAT32_MIN_NORMAL = 2 ** -126;
export const FLOAT32_MAX = (2 - 2 ** -23) * 2 ** 127;

const RULE_KEYS = ['walkable', 'terrain', 'cost'];

/** Where in a rules file, as the user would find it: `tilesets["beach"]["38"].walkable` (names in brackets, a rule's field after a dot). */
export function at(section: string, names: string[], field?: string): string {
  return section + names.map((k) => `[${JSON.stringify(k.length > 80 ? k.slice(0, 80) + '...' : k)}]`).join('') + (field === undefined ? '' : `.${JSON.stringify(field).slice(1, -1)}`);
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return `the text ${quote(v, 40)}`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

export function checkRule(file: string, v: unknown, section: string, names: string[]): TiledRule {
  const element = at(section, names);
  if (!isPlainObject(v)) throw new TilenavError(`expected a rule such as { "walkable": false }, { "terrain": "Water" } or { "cost": 2.5 }, got ${describe(v)}`, { file, element });
  const rule: TiledRule = {};
  const keys = Object.keys(v);
  if (keys.length === 0) throw new TilenavError('the rule is empty; give it "walkable", "terrain" or "cost"', { file, element });
  for (const k of keys) {
    const val = v[k];
    const el = at(section, names, k);
    if (k === 'walkable') {
      if (typeof val !== 'boolean') throw new TilenavError(`expected true or false, got ${describe(val)}`, { file, element: el });
      rule.walkable = val;
    } else if (k === 'terrain') {
      if (typeof val !== 'string' || val === '') throw new TilenavError(`expected a terrain name, got ${describe(val)}`, { file, element: el });
      rule.terrain = val;
    } else if (k === 'cost') {
      if (typeof val !== 'number' || !(val >= FLOAT32_MIN_NORMAL && val <= FLOAT32_MAX)) throw new TilenavError(`expected a cost > 0 that a 32-bit float holds (${FLOAT32_MIN_NORMAL} to ${FLOAT32_MAX}), got ${describe(val)}`, { file, element: el });
      rule.cost = val;
    } else throw new TilenavError(`unknown rule field ${quote(k, 40)}; expected ${RULE_KEYS.join(', ')}`, { file, element: el });
  }
  return rule;
}

/** The 1-based line of a JSON.parse error, when its message gives a position. */
function jsonLine(text: string, message: string): number | undefined {
  const m = /position (\d+)/.exec(message) ?? /line (\d+)/.exec(message);
  if (m === null) return undefined;
  if (message.includes('line ')) return Number(/line (\d+)/.exec(message)![1]);
  const pos = Math.min(Number(m[1]), text.length);
  let line = 1;
  for (let i = 0; i < pos; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Checks a rules object or its JSON text. Throws a TilenavError naming `file` and the key at fault:
 * JSON that does not parse (with its line), an unknown key, a tile id that is not a whole number
 * from 0 to 268435455, a rule without `walkable` / `terrain` / `cost`, a `walkable` that is not a
 * bool, an empty terrain name, a cost that is not a number > 0 a 32-bit float holds.
 */
export function checkTiledRules(input: TiledRules | string, file = '<rules>'): CheckedRules {
  let root: unknown = input;
  if (typeof input === 'string') {
    const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
    if (text.trim() === '') throw new TilenavError('the rules file is empty; expected JSON such as { "tilesets": { "<tileset name>": { "<tile id>": { "walkable": false } } } }', { file });
    try {
      root = JSON.parse(text);
    } catch (e) {
      const msg = (e as Error).message.split('\n')[0];
      throw new TilenavError(`not valid JSON (${msg})`, { file, line: jsonLine(text, msg) });
    }
  }
  if (!isPlainObject(root)) throw new TilenavError(`expected a JSON object with "tilesets" and / or "layers", got ${describe(root)}`, { file });
  const out: CheckedRules = { file, tilesets: new Map(), layers: new Map() };
  for (const k of Object.keys(root)) {
    if (k !== 'version' && k !== 'tilesets' && k !== 'layers') throw new TilenavError(`unknown key ${quote(k, 40)}; expected "version", "tilesets" or "layers"`, { file, element: k.length > 40 ? k.slice(0, 40) + '...' : k });
  }
  if (root.version !== undefined && root.version !== 1) throw new TilenavError(`this reader knows rules version 1, got ${describe(root.version)}`, { file, element: 'version' });
  if (root.tilesets !== undefined) {
    if (!isPlainObject(root.tilesets)) throw new TilenavError(`expected an object of tilesets by name, got ${describe(root.tilesets)}`, { file, element: 'tilesets' });
    for (const [name, tiles] of Object.entries(root.tilesets)) {
      if (!isPlainObject(tiles)) throw new TilenavError(`expected an object of tile rules by local tile id, got ${describe(tiles)}`, { file, element: at('tilesets', [name]) });
      const byId = new Map<number, TiledRule>();
      for (const [id, rule] of Object.entries(tiles)) {
        if (!/^(0|[1-9]\d{0,8})$/.test(id) || Number(id) > GID_MASK) throw new TilenavError(`a tile id is the tile's local id in its tileset, a whole number from 0 to ${GID_MASK}; got ${quote(id, 40)}`, { file, element: at('tilesets', [name, id]) });
        byId.set(Number(id), checkRule(file, rule, 'tilesets', [name, id]));
      }
      out.tilesets.set(name, byId);
    }
  }
  if (root.layers !== undefined) {
    if (!isPlainObject(root.layers)) throw new TilenavError(`expected an object of layer rules by layer name, got ${describe(root.layers)}`, { file, element: 'layers' });
    for (const [name, rule] of Object.entries(root.layers)) out.layers.set(name, checkRule(file, rule, 'layers', [name]));
  }
  return out;
}

/** The rule fields in the order they are written. */
function ruleJson(r: TiledRule): string {
  const parts: string[] = [];
  if (r.walkable !== undefined) parts.push(`"walkable": ${r.walkable}`);
  if (r.terrain !== undefined) parts.push(`"terrain": ${JSON.stringify(r.terrain)}`);
  if (r.cost !== undefined) parts.push(`"cost": ${JSON.stringify(r.cost)}`);
  return `{ ${parts.join(', ')} }`;
}

/**
 * Rules as the JSON text of a rules file: `"version": 1`, tilesets and layers in the order given,
 * tile ids in increasing order, one rule a line (so a change shows as one line in a diff). Checks
 * them first, as {@link checkTiledRules} does; the text reads back to equal rules.
 */
export function formatTiledRules(rules: TiledRules | string, file = '<rules>'): string {
  const c = checkTiledRules(rules, file);
  const block = (entries: [string, string][], indent: string) =>
    entries.length === 0 ? '{}' : `{\n${entries.map(([k, v]) => `${indent}  ${JSON.stringify(k)}: ${v}`).join(',\n')}\n${indent}}`;
  const tilesets = [...c.tilesets].map(([name, tiles]): [string, string] => [name, block([...tiles].sort((a, b) => a[0] - b[0]).map(([id, r]) => [String(id), ruleJson(r)]), '    ')]);
  const layers = [...c.layers].map(([name, r]): [string, string] => [name, ruleJson(r)]);
  return `{\n  "version": 1,\n  "tilesets": ${block(tilesets, '  ')},\n  "layers": ${block(layers, '  ')}\n}\n`;
}

/** The tile properties a tile rule is written as, which the loader reads back the same way. */
export function ruleProperties(r: TiledRule): { name: string; type: 'bool' | 'string' | 'float'; value: boolean | string | number }[] {
  const out: { name: string; type: 'bool' | 'string' | 'float'; value: boolean | string | number }[] = [];
  if (r.walkable === false) out.push({ name: 'collides', type: 'bool', value: true });
  if (r.walkable === true) out.push({ name: 'walkable', type: 'bool', value: true });
  if (r.terrain !== undefined) out.push({ name: 'terrainType', type: 'string', value: r.terrain });
  if (r.cost !== undefined) out.push({ name: 'cost', type: 'float', value: r.cost });
  return out;
}
