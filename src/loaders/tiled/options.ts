/**
 * The Tiled loader's options, checked before a byte of the map is read: every option of the wrong
 * kind is a TilenavError naming it (`mapping.layer`, `readFile`), never a TypeError from deep in
 * the loader or a setting silently ignored. Unknown keys of `mapping` are refused too (a typo
 * there would otherwise switch a convention back to its default without a word).
 */
import { TilenavError, describe } from '../../errors.js';
import { MAX_LAYERS } from '../../grid/navgrid.js';
import { TerrainTable } from '../../grid/terrain.js';
import { DEFAULT_TILED_MAPPING, type TiledMapping } from './build.js';

function bad(element: string, expected: string, value: unknown): never {
  throw new TilenavError(`expected ${expected}, got ${describe(value)}`, { element });
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Checks `mapping` and returns it over the defaults. */
export function checkMapping(mapping: unknown): TiledMapping {
  if (mapping === undefined) return { ...DEFAULT_TILED_MAPPING };
  if (!isObject(mapping)) bad('mapping', 'an object of collision conventions', mapping);
  const out: Record<string, unknown> = { ...DEFAULT_TILED_MAPPING };
  for (const key of Object.keys(mapping)) {
    const v = mapping[key];
    const element = `mapping.${key}`;
    if (!Object.hasOwn(DEFAULT_TILED_MAPPING, key)) {
      throw new TilenavError(`unknown convention; the mapping's keys are ${Object.keys(DEFAULT_TILED_MAPPING).join(', ')}`, { element: `mapping.${key.length > 40 ? key.slice(0, 40) + '...' : key}` });
    }
    if (v === undefined) continue;
    switch (key) {
      case 'collisionProperties':
      case 'collisionTypes':
      case 'collisionLayerNames':
      case 'edgeWallProperties':
      case 'edgeWallTypes':
        if (!Array.isArray(v)) bad(element, 'an array of names (strings)', v);
        (v as unknown[]).forEach((name, k) => typeof name !== 'string' && bad(`${element}[${k}]`, 'a name (a string)', name));
        break;
      case 'tileShapes':
      case 'hiddenLayers':
        if (typeof v !== 'boolean') bad(element, 'true or false', v);
        break;
      case 'lineWidthProperty':
        if (typeof v !== 'string') bad(element, 'a property name (a string)', v);
        break;
      case 'lineWidth':
        if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) bad(element, 'a width in pixels, a finite number >= 0', v);
        break;
      case 'layer':
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= MAX_LAYERS) bad(element, `a navigation layer, a whole number from 0 to ${MAX_LAYERS - 1}`, v);
        break;
    }
    out[key] = v;
  }
  return out as unknown as TiledMapping;
}

/**
 * Checks every option the Tiled loaders take whose kind is not checked where it is used (the
 * numeric limits are checked by `checkLimit`, `rules` by `checkTiledRules`).
 */
export function checkTiledOptions(options: unknown): void {
  if (!isObject(options)) bad('options', 'an options object', options);
  const o = options;
  const optional = (key: string, ok: (v: unknown) => boolean, expected: string) => {
    const v = o[key];
    if (v !== undefined && !ok(v)) bad(key, expected, v);
  };
  optional('file', (v) => typeof v === 'string', "the map's path or name (a string)");
  optional('readFile', (v) => typeof v === 'function', 'a function (path) => the file\'s contents');
  optional('format', (v) => v === 'tmx' || v === 'tmj', '"tmx" or "tmj"');
  optional('terrain', (v) => v instanceof TerrainTable, 'a TerrainTable');
  optional('allowAbsolutePaths', (v) => typeof v === 'boolean', 'true or false');
  optional('rules', (v) => typeof v === 'string' || isObject(v), 'rules as an object or the JSON text of a rules file');
  optional('rulesFile', (v) => typeof v === 'string', "the rules file's name (a string)");
  optional('root', (v) => typeof v === 'string' && v !== '', 'the folder references must stay in (a non-empty string)');
  checkMapping(o.mapping);
}

/**
 * What a `readFile` returned, checked: a TilenavError naming `readFile` and the file when it is not
 * the contents as a string or bytes (`null` from a cache miss, a Promise from an async reader given
 * to the synchronous loader).
 */
export function checkRead(value: unknown, path: string, what: string): string | Uint8Array {
  if (typeof value === 'string' || value instanceof Uint8Array) return value;
  const hint = value instanceof Promise ? ' (a Promise: use parseTiledAsync for an asynchronous reader)' : '';
  throw new TilenavError(`returned ${describe(value)} for the ${what} ${JSON.stringify(path.length > 200 ? path.slice(0, 200) + '...' : path)}${hint}; expected the file's contents as a string or a Uint8Array`, { element: 'readFile' });
}
