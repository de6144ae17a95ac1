/**
 * Marking blocked cells from tiles and objects: the tile table the build derives from tilesets,
 * tiles' own collision shapes (rasterised once per tile and flip, then stamped), and collision
 * objects. Every shape is clipped to the map and its work counted against one RasterBudget.
 */
import type { Projection } from '../../grid/projection.js';
import type { RasterBudget } from '../limits.js';
import type { TiledLayerInfo, TiledMapping } from './build.js';
import { GID_FLIP_D, GID_FLIP_H, GID_FLIP_V, GID_MASK, quote, type RawLayer, type RawObject, type TiledProperties, type TiledProperty } from './model.js';
import { objectShapes, projectedBounds, rasterProjected, rasterScaled, type PixelShape } from './shapes.js';

export interface TileNav {
  props: TiledProperties;
  terrain: number;
  slow: number;
  flags: number;
  /** Edge walls of the tile's own sides (`wallNorth`...): 1 north, 2 east, 4 south, 8 west. */
  walls: number;
  collides: boolean;
  /** A rule says the tile blocks: it does whatever the layer's own `collides` says. */
  ruleBlocks: boolean;
  /** The tile's cells are walkable over what the layers below block (a rule's or the tile's `walkable: true`). */
  bridge: boolean;
  /** The cells' cost from the tile's `cost` property or a rule; NaN when neither gives one. */
  cost: number;
  /** A rule gave the tile its terrain or cost: a layer rule does not replace them. */
  ruleSet: boolean;
  shapes: PixelShape[];
  imgW: number;
  imgH: number;
  offX: number;
  offY: number;
}

export interface FlatLayer {
  raw: RawLayer;
  visible: boolean;
  props: Map<string, TiledProperty>;
  /** Full-grid gids (flags kept) for tile layers. */
  data: Uint32Array | null;
  info: TiledLayerInfo;
  /** The names of the groups it sits in, outermost first (layer rules by a group's name apply to it). */
  groups: string[];
  /** Pixels its objects are drawn shifted by: its own offsetx / offsety plus its groups'. */
  offX: number;
  offY: number;
}

export const lower = (list: readonly string[]) => new Set(list.map((s) => s.toLowerCase()));

export function boolProp(props: TiledProperties, names: Set<string>): boolean | undefined {
  let out: boolean | undefined;
  for (const [k, p] of props) if (p.type === 'bool' && names.has(k.toLowerCase())) out = out === true || (p.value as boolean);
  return out;
}

/** Whether object `o` declares edge walls (walls.ts): a true bool property of `props` or a class of `types`; its shape then blocks no cell. */
export function isWallObject(o: RawObject, props: Set<string>, types: Set<string>): boolean {
  return boolProp(o.properties, props) === true || types.has(o.type.toLowerCase());
}

export function lineWidthOf(o: RawObject, mapping: TiledMapping): number {
  const p = o.properties.get(mapping.lineWidthProperty);
  return p !== undefined && (p.type === 'float' || p.type === 'int') ? (p.value as number) : mapping.lineWidth;
}

export function markNonEmpty(d: Uint32Array, out: Uint8Array): void {
  for (let i = 0; i < d.length; i++) if ((d[i] & GID_MASK) !== 0) out[i] = 1;
}

/** The tile table row of a raw gid, or -1 for an empty or plain tile. */
export function rowOf(index: Int32Array, raw: number): number {
  const gid = raw & GID_MASK;
  return gid === 0 || gid >= index.length ? -1 : index[gid];
}

export function markColliding(d: Uint32Array, t: TileTable, blocked: Uint8Array): void {
  markRows(d, t.index, t.collides, blocked, 1);
}

/** Sets `out[i] = value` at every cell whose tile's row has `rows[k] === 1`. */
export function markRows(d: Uint32Array, index: Int32Array, rows: Uint8Array, out: Uint8Array, value: number): void {
  for (let i = 0; i < d.length; i++) {
    const k = rowOf(index, d[i]);
    if (k >= 0 && rows[k] === 1) out[i] = value;
  }
}

/** Per-tile navigation data as flat arrays indexed through `index[gid]` (-1: a plain tile). */
export interface TileTable {
  index: Int32Array;
  navs: TileNav[];
  terrain: Int16Array;
  terrainCost: Float32Array;
  terrainWalkable: Uint8Array;
  slow: Float64Array;
  flags: Uint8Array;
  /** {@link TileNav.walls} per tile. */
  walls: Uint8Array;
  collides: Uint8Array;
  /** 1 where a rule blocks the tile. */
  ruleBlocks: Uint8Array;
  /** 1 for bridge tiles; `anyBridge` says whether there are any. */
  bridge: Uint8Array;
  anyBridge: boolean;
  /** The tile's own cost (NaN: none). */
  cost: Float64Array;
  ruleSet: Uint8Array;
  anyShapes: boolean;
}


/** What marking writes into, with the map's geometry; one per build, shared by every layer. */
export interface Surface {
  W: number;
  H: number;
  /** Tile coordinates of cell (0, 0). */
  ox: number;
  oy: number;
  tw: number;
  th: number;
  orientation: string;
  projection: Projection;
  blocked: Uint8Array;
  budget: RasterBudget;
  /** Stamps by tile table row and flip bits: runs [dy, dx0, dx1, ...] of cells relative to the tile's cell. */
  stamps: Map<number, Int32Array>;
  /** Per row, +1 where a stamped run starts and -1 past where it ends: (W + 1) x H, made on first use. */
  runs: Int32Array | null;
  /** Staggered / hexagonal maps: the pixel box shapes are clipped to, made on first use. */
  bounds: [number, number, number, number] | null;
}

/**
 * Tile layer conventions: a colliding layer blocks its tiles, else colliding tiles block their
 * cells and tiles' collision shapes block what they cover. Shapes are drawn in the tile image's
 * pixels; on orthogonal maps each distinct tile and flip is rasterised once and its runs stamped
 * at every cell holding it; off the square lattice the tile's own cell is the best place for them.
 */
export function applyTileConventions(l: FlatLayer, table: TileTable, collideNames: Set<string>, s: Surface): void {
  const d = l.data!;
  const layerCollides = boolProp(l.props, collideNames);
  if (layerCollides === true) {
    markNonEmpty(d, s.blocked);
    return;
  }
  if (table.navs.length === 0) return;
  // A rule the user picked blocks even where the layer opts out of the tile conventions.
  markRows(d, table.index, table.ruleBlocks, s.blocked, 1);
  // An explicit `collides: false` on the layer opts its tiles out of the tile conventions.
  if (layerCollides === false) return;
  markColliding(d, table, s.blocked);
  if (!table.anyShapes) return;
  const { W, H, blocked } = s;
  s.budget.element = `${l.raw.element} (tile collision shapes)`;
  let stamped = false;
  for (let i = 0; i < d.length; i++) {
    const raw = d[i];
    const k = rowOf(table.index, raw);
    if (k < 0) continue;
    const t = table.navs[k];
    if (t.collides || t.shapes.length === 0) continue;
    if (s.orientation !== 'orthogonal') {
      blocked[i] = 1;
      continue;
    }
    const key = k * 16 + (raw >>> 28);
    let stamp = s.stamps.get(key);
    if (stamp === undefined) {
      stamp = tileStamp(t, (raw & ~GID_MASK) >>> 0, s);
      s.stamps.set(key, stamp);
    }
    if (stamp.length === 0) continue;
    s.budget.spend(stamp.length / 3);
    s.runs ??= new Int32Array((W + 1) * H);
    const runs = s.runs;
    const cx = i % W;
    const cy = (i / W) | 0;
    for (let r = 0; r < stamp.length; r += 3) {
      const y = cy + stamp[r];
      if (y < 0 || y >= H) continue;
      const x0 = Math.max(0, cx + stamp[r + 1]);
      const x1 = Math.min(W - 1, cx + stamp[r + 2]);
      if (x0 > x1) continue;
      runs[y * (W + 1) + x0]++;
      runs[y * (W + 1) + x1 + 1]--;
      stamped = true;
    }
  }
  if (stamped) flushRuns(s);
}

/** Marks every cell some stamped run covers, and clears the runs for the next layer. */
function flushRuns(s: Surface): void {
  const { W, H, blocked } = s;
  const runs = s.runs!;
  for (let y = 0; y < H; y++) {
    let acc = 0;
    const row = y * (W + 1);
    for (let x = 0; x < W; x++) {
      acc += runs[row + x];
      if (acc > 0) blocked[y * W + x] = 1;
    }
  }
  runs.fill(0);
}

/**
 * The cells a tile's shapes cover, relative to the cell the tile is drawn in, as runs. Rasterised
 * in a window around the shapes, cut to the offsets that can land on the map from some cell.
 */
function tileStamp(t: TileNav, flips: number, s: Surface): Int32Array {
  const { W, H, tw, th } = s;
  const shapes: PixelShape[] = [];
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const sh of t.shapes) {
    const pts = flipShape(sh.pts, flips, t.imgW, t.imgH);
    // Tiles hang from their cell's bottom-left corner, shifted by the tileset's offset.
    for (let k = 0; k < pts.length; k += 2) {
      pts[k] += t.offX;
      pts[k + 1] += th + t.offY - t.imgH;
      minX = Math.min(minX, pts[k]);
      maxX = Math.max(maxX, pts[k]);
      minY = Math.min(minY, pts[k + 1]);
      maxY = Math.max(maxY, pts[k + 1]);
    }
    shapes.push({ closed: sh.closed, pts });
  }
  const x0 = Math.max(-W, Math.floor(minX / tw) - 1);
  const x1 = Math.min(W, Math.floor(maxX / tw) + 1);
  const y0 = Math.max(-H, Math.floor(minY / th) - 1);
  const y1 = Math.min(H, Math.floor(maxY / th) + 1);
  if (!(x1 >= x0 && y1 >= y0)) return new Int32Array(0);
  const ww = x1 - x0 + 1;
  const wh = y1 - y0 + 1;
  s.budget.spend(ww * wh);
  const win = new Uint8Array(ww * wh);
  const mark = (i: number) => {
    win[i] = 1;
  };
  for (const sh of shapes) rasterScaled(sh, 1 / tw, 1 / th, x0, y0, ww, wh, mark, s.budget);
  const out: number[] = [];
  for (let y = 0; y < wh; y++) {
    for (let x = 0; x < ww; x++) {
      if (win[y * ww + x] === 0) continue;
      let e = x;
      while (e + 1 < ww && win[y * ww + e + 1] === 1) e++;
      out.push(y + y0, x + x0, e + x0);
      x = e;
    }
  }
  return Int32Array.from(out);
}

/** A tile shape's points under the gid's flip bits (diagonal first, then horizontal, then vertical, as Tiled applies them). */
function flipShape(pts: number[], raw: number, w: number, h: number): number[] {
  const out = pts.slice();
  let ww = w;
  let hh = h;
  if ((raw & GID_FLIP_D) !== 0) {
    for (let k = 0; k < out.length; k += 2) [out[k], out[k + 1]] = [out[k + 1], out[k]];
    [ww, hh] = [hh, ww];
  }
  if ((raw & GID_FLIP_H) !== 0) for (let k = 0; k < out.length; k += 2) out[k] = ww - out[k];
  if ((raw & GID_FLIP_V) !== 0) for (let k = 1; k < out.length; k += 2) out[k] = hh - out[k];
  return out;
}

/**
 * Object layer conventions: objects of a collision layer, of a collision type or with a true
 * collision property block what they cover, shifted by the layer's (and its groups') offset.
 */
export function applyObjectConventions(l: FlatLayer, mapping: TiledMapping, collideNames: Set<string>, s: Surface, ruleBlocks = false): void {
  if (l.raw.kind !== 'object') return;
  const layerFlag = boolProp(l.props, collideNames);
  const wholeLayer = ruleBlocks || layerFlag === true || (layerFlag === undefined && lower(mapping.collisionLayerNames).has(l.raw.name.toLowerCase()));
  const types = lower(mapping.collisionTypes);
  const wallProps = lower(mapping.edgeWallProperties);
  const wallTypes = lower(mapping.edgeWallTypes);
  const { W, H, ox, oy, tw, th, blocked } = s;
  const mark = (i: number) => {
    blocked[i] = 1;
  };
  // Tiled stores isometric objects in a space where a tile is tileHeight x tileHeight; the layer
  // offset is in screen pixels, so it is turned into that space first.
  const [dx, dy] = s.orientation === 'isometric' ? [(l.offX / tw + l.offY / th) * th, (l.offY / th - l.offX / tw) * th] : [l.offX, l.offY];
  for (const o of l.raw.objects) {
    if (!o.visible && !mapping.hiddenLayers) continue;
    // Edge walls stand on tile edges (walls.ts), and block no cell.
    if (isWallObject(o, wallProps, wallTypes)) continue;
    const own = ruleBlocks ? true : boolProp(o.properties, collideNames);
    const collides = own ?? (wholeLayer || types.has(o.type.toLowerCase()));
    if (!collides) continue;
    s.budget.element = `${l.raw.element} object ${o.id}${o.name !== '' ? ` ${quote(o.name, 40)}` : ''}`;
    for (const sh of objectShapes(o, lineWidthOf(o, mapping))) {
      if (dx !== 0 || dy !== 0) for (let k = 0; k < sh.pts.length; k += 2) (sh.pts[k] += dx), (sh.pts[k + 1] += dy);
      if (s.orientation === 'orthogonal') rasterScaled(sh, 1 / tw, 1 / th, ox, oy, W, H, mark, s.budget);
      else if (s.orientation === 'isometric') rasterScaled(sh, 1 / th, 1 / th, ox, oy, W, H, mark, s.budget);
      else {
        s.bounds ??= projectedBounds(s.projection, W, H, 2 * Math.max(tw, th));
        rasterProjected(sh, s.projection, Math.min(tw, th) / 4, s.bounds, W, H, mark, s.budget);
      }
    }
  }
}
