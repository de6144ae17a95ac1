/**
 * Collision rules meeting a map: which tiles and layers they name, checked against the map's
 * tilesets, layers and terrain names, and the per-cell passes that apply a layer's rule.
 */
import { TilenavError } from '../../errors.js';
import type { TerrainTable } from '../../grid/terrain.js';
import { GID_MASK, quote, type RawTileset } from './model.js';
import { rowOf, type FlatLayer, type TileTable } from './collide.js';
import { FLOAT32_MAX, FLOAT32_MIN_NORMAL, type CheckedRules, type TiledRule } from './rules.js';

/** Names for a message: quoted, at most `max` of them. */
export function nameList(names: Iterable<string>, max = 12): string {
  const all = [...new Set(names)];
  const shown = all.slice(0, max).map((n) => quote(n, 60));
  return all.length === 0 ? 'none' : shown.join(', ') + (all.length > max ? ` and ${all.length - max} more` : '');
}

/** The terrain id a rule names; an unknown name is an error naming the rules file and the key. */
export function ruleTerrain(rules: { file: string }, element: string, name: string, table: TerrainTable): number {
  if (!table.has(name)) throw new TilenavError(`unknown terrain ${quote(name, 60)}; the terrain names are ${table.entries().map((e) => e.name).join(', ')}`, { file: rules.file, element });
  const id = table.id(name);
  const { cost, walkable } = table.get(id);
  const stored = Math.fround(cost);
  if (walkable && !(stored > 0 && stored < Infinity)) throw new TilenavError(`terrain ${quote(name, 60)} costs ${cost}, which a 32-bit float cost stores as ${stored}; expected a cost from ${FLOAT32_MIN_NORMAL} to ${FLOAT32_MAX}`, { file: rules.file, element });
  return id;
}

/**
 * The tile rules for each of the map's tilesets (by its position in `tilesets`), local id to rule;
 * references to one tileset file (sharing its tile list) share one map. A tileset name the map does
 * not have, or a tile id past a tileset's tile count, is a warning.
 */
export function tileRulesOf(rules: CheckedRules | undefined, tilesets: RawTileset[], warn: (w: string) => void): Map<number, TiledRule>[] {
  const shared = new Map<readonly unknown[], Map<number, TiledRule>>();
  const out = tilesets.map((ts) => {
    let m = shared.get(ts.tiles);
    if (m === undefined) shared.set(ts.tiles, (m = new Map()));
    return m;
  });
  if (rules === undefined) return out;
  for (const [name, tiles] of rules.tilesets) {
    let found = false;
    let first = 0;
    const done = new Set<Map<number, TiledRule>>();
    tilesets.forEach((ts, k) => {
      if (ts.name !== name) return;
      found = true;
      first = Math.max(first, ts.firstgid);
      if (done.has(out[k])) return;
      done.add(out[k]);
      for (const [id, rule] of tiles) {
        if (ts.tileCount > 0 && id >= ts.tileCount) warn(`${rules.file}: tileset ${quote(name, 60)} has ${ts.tileCount} tiles (ids 0 to ${ts.tileCount - 1}); the rule for tile ${id} matches nothing`);
        else out[k].set(id, rule);
      }
    });
    // A tile numbered past what a map can hold is ignored where the gids are assigned.
    for (const id of tiles.keys()) if (found && first + id > GID_MASK) warn(`${rules.file}: tileset ${quote(name, 60)} tile ${id} is past the largest tile number a map can hold; its rule matches nothing`);
    if (!found) warn(`${rules.file}: the map has no tileset named ${quote(name, 60)}, so its rules match nothing; the map's tilesets are ${nameList(tilesets.map((t) => t.name))}`);
  }
  return out;
}

/** A layer's rule with its terrain resolved: what the per-cell passes need. */
export interface LayerRule {
  walkable: boolean | undefined;
  terrain: number;
  cost: number;
}

/**
 * The rule that applies to a layer: its groups' rules (outermost first) under its own, a blocking
 * `walkable` winning over a bridge. Null when no rule names it or its groups.
 */
export function layerRuleOf(rules: CheckedRules | undefined, l: FlatLayer, table: TerrainTable): LayerRule | null {
  if (rules === undefined || rules.layers.size === 0) return null;
  let out: LayerRule | null = null;
  for (const name of [...l.groups, l.raw.name]) {
    const r = rules.layers.get(name);
    if (r === undefined) continue;
    out ??= { walkable: undefined, terrain: -1, cost: NaN };
    if (r.walkable === false || (r.walkable === true && out.walkable === undefined)) out.walkable = r.walkable;
    if (r.terrain !== undefined) out.terrain = ruleTerrain(rules, `layers[${JSON.stringify(name)}].terrain`, r.terrain, table);
    if (r.cost !== undefined) out.cost = r.cost;
  }
  return out;
}

/** Layer rule names that match no layer or group of the map: a warning naming the map's layers. */
export function unmatchedLayerRules(rules: CheckedRules | undefined, layerNames: string[], warn: (w: string) => void): void {
  if (rules === undefined) return;
  const names = new Set(layerNames);
  for (const name of rules.layers.keys()) {
    if (!names.has(name)) warn(`${rules.file}: the map has no layer named ${quote(name, 60)}, so its rule matches nothing; the map's layers are ${nameList(layerNames)}`);
  }
}

/**
 * A layer rule's terrain and cost on the layer's non-empty cells, except cells whose tile a tile
 * rule gave a terrain or cost (the tile rule is the more specific). Impassable terrain blocks.
 */
export function applyLayerTerrain(d: Uint32Array, r: LayerRule, t: TileTable, terrains: TerrainTable, terrain: Uint8Array, cost: Float32Array, blocked: Uint8Array): void {
  const id = r.terrain;
  const info = id >= 0 ? terrains.get(id) : null;
  for (let i = 0; i < d.length; i++) {
    if ((d[i] & GID_MASK) === 0) continue;
    const k = rowOf(t.index, d[i]);
    if (k >= 0 && t.ruleSet[k] === 1) continue;
    if (info !== null) {
      terrain[i] = id;
      cost[i] = info.cost;
      if (!info.walkable) blocked[i] = 1;
    }
    if (r.cost === r.cost) cost[i] = r.cost;
  }
}

/** Bridges: cells of a bridge tile, or every non-empty cell of a bridge layer, are cleared of what the layers below blocked. */
export function clearBridges(d: Uint32Array, t: TileTable, wholeLayer: boolean, blocked: Uint8Array): void {
  for (let i = 0; i < d.length; i++) {
    if ((d[i] & GID_MASK) === 0) continue;
    if (wholeLayer) blocked[i] = 0;
    else {
      const k = rowOf(t.index, d[i]);
      if (k >= 0 && t.bridge[k] === 1) blocked[i] = 0;
    }
  }
}

/** One of a map's tilesets as a palette of rules needs it: how to draw its tiles, and which the map uses. */
export interface TiledTilesetInfo {
  /** The name rules use. */
  name: string;
  /** The global id of its first tile in this map. */
  firstgid: number;
  /** Number of tiles it declares. */
  tileCount: number;
  /** Tiles per row of the image (0 for a collection of images). */
  columns: number;
  /** Tile width, pixels. */
  tileWidth: number;
  /** Tile height, pixels. */
  tileHeight: number;
  /** Pixels around and between the tiles in the image. */
  margin: number;
  /** Pixels between neighbouring tiles in the image. */
  spacing: number;
  /** The image, its `source` resolved against the tileset's file (as tilesets are against the map); null for a collection of images. */
  image: {
    /** The image file's path. */
    source: string;
    /** Image width, pixels. */
    width: number;
    /** Image height, pixels. */
    height: number;
  } | null;
  /** The file the tileset came from (the map's own for an embedded one). */
  file: string;
  /** Local tile id to the number of cells showing it, over the tile layers navigation reads. */
  used: Map<number, number>;
}

/** Counts each tileset's tiles over the layers' gids (flip bits dropped); gids past `maxGid` are not counted. */
export function tilesetInfos(tilesets: RawTileset[], layers: Uint32Array[], resolve: (from: string, source: string) => string, maxGid: number): TiledTilesetInfo[] {
  // A tileset's tiles: its tile count, or past it the tiles it lists (a collection of images).
  const size = new Map<readonly unknown[], number>();
  const sizes = tilesets.map((ts) => {
    let n = size.get(ts.tiles);
    if (n === undefined) size.set(ts.tiles, (n = ts.tiles.reduce((m, t) => Math.max(m, t.id + 1), 0)));
    return Math.max(n, ts.tileCount);
  });
  let top = 0;
  tilesets.forEach((ts, k) => (top = Math.max(top, ts.firstgid + sizes[k])));
  const counts = new Uint32Array(Math.min(top, maxGid) + 1);
  for (const d of layers) countGids(d, counts);
  const sorted = tilesets.map((ts, k) => [ts.firstgid, k]).sort((a, b) => a[0] - b[0]);
  const infos: TiledTilesetInfo[] = tilesets.map((ts) => ({
    name: ts.name,
    firstgid: ts.firstgid,
    tileCount: ts.tileCount,
    columns: ts.columns,
    tileWidth: ts.tileWidth,
    tileHeight: ts.tileHeight,
    margin: ts.margin,
    spacing: ts.spacing,
    image: ts.image === null ? null : { ...ts.image, source: resolve(ts.file, ts.image.source) },
    file: ts.file,
    used: new Map(),
  }));
  let s = -1;
  for (let gid = 1; gid < counts.length; gid++) {
    while (s + 1 < sorted.length && sorted[s + 1][0] <= gid) s++;
    if (s < 0 || counts[gid] === 0) continue;
    const [first, k] = sorted[s];
    if (gid - first < sizes[k]) infos[k].used.set(gid - first, counts[gid]);
  }
  return infos;
}

function countGids(d: Uint32Array, counts: Uint32Array): void {
  for (let i = 0; i < d.length; i++) {
    const gid = d[i] & GID_MASK;
    if (gid !== 0 && gid < counts.length) counts[gid]++;
  }
}
