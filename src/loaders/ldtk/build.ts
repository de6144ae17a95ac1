/**
 * Navigation from a read LDtk project: each level's IntGrid layers painted onto a NavGrid, its
 * tile layers kept for drawing, its entities placed on cells; then the levels of Free and
 * GridVania worlds stitched by their world positions. Internal to the LDtk loader.
 */
import { FLAG_WALL_NORTH, FLAG_WALL_WEST, NavGrid } from '../../grid/navgrid.js';
import { orthogonal } from '../../grid/projection.js';
import type { TerrainTable } from '../../grid/terrain.js';
import { resolveTiledPath } from '../tiled/index.js';
import { fail, quote, warn, type Ctx } from '../tiled/model.js';
import { readEntities, readFields, shiftEntity, type LdtkEntity, type LdtkField, type Placement } from './entities.js';
import { addEntityLinks } from './links.js';
import { addEntityWalls } from './walls.js';
import { OuterWalls } from '../edge-walls.js';
import { bool, got, int, list, MAX_INT, named, num, object, pair, str, type RawLayerDef, type RawLevel, type RawProject } from './read.js';
import type { ValueNav } from './rules.js';

/** A tileset of the project, for drawing its tiles. */
export interface LdtkTileset {
  /** Its uid in LDtk (what layers and `Tile` fields name it by). */
  uid: number;
  /** Its identifier in LDtk. */
  name: string;
  /** The image, its relative path joined to the project file's folder; null when it has none or LDtk embeds it (`embedded`). */
  path: string | null;
  /** The atlas LDtk ships itself (`LdtkIcons`), or null. */
  embedded: string | null;
  /** Image width in pixels. */
  width: number;
  /** Image height in pixels. */
  height: number;
  /** A tile's side in pixels (tiles are square). */
  tileSize: number;
  /** Pixels between two tiles. */
  spacing: number;
  /** Pixels between the image's edges and the first tiles. */
  padding: number;
  /** Enum tags: an enum value's identifier to the ids of the tiles tagged with it. */
  enumTags: ReadonlyMap<string, readonly number[]>;
}

/**
 * The tiles of one layer, for drawing, as parallel arrays (tile k is `x[k]`, `y[k]`, ...), in
 * LDtk's display order (the first is beneath the second).
 */
export interface LdtkTileLayer {
  /** The layer's identifier. */
  name: string;
  /** `Tiles`, `AutoLayer`, or `IntGrid` for an IntGrid layer's auto-tiles. */
  type: string;
  /** Whether LDtk shows the layer. */
  visible: boolean;
  /** 0 to 1. */
  opacity: number;
  /** The layer's cell size in pixels. */
  gridSize: number;
  /** The layer's total horizontal offset in pixels, already added to `x`. */
  offsetX: number;
  /** The layer's total vertical offset in pixels, already added to `y`. */
  offsetY: number;
  /** Its tileset's place in the project's `tilesets`, or -1 when it has none the project defines. */
  tileset: number;
  /** How many tiles: the length of each array below. */
  count: number;
  /** Each tile's left edge in the level's pixels. */
  x: Int32Array;
  /** Each tile's top edge in the level's pixels. */
  y: Int32Array;
  /** Each tile's id in its tileset. */
  id: Int32Array;
  /** Each tile's left edge in the tileset image. */
  srcX: Int32Array;
  /** Each tile's top edge in the tileset image. */
  srcY: Int32Array;
  /** Bit 0 mirrors the tile horizontally, bit 1 vertically. */
  flip: Uint8Array;
  /** Each tile's opacity, 0 to 1. */
  alpha: Float32Array;
}

/** An IntGrid layer's values, as the level holds them (0 is an empty cell). */
export interface LdtkIntGridLayer {
  /** The layer's identifier. */
  name: string;
  /** Whether LDtk shows the layer. */
  visible: boolean;
  /** The layer's cell size in pixels. */
  gridSize: number;
  /** The layer's total horizontal offset in pixels. */
  offsetX: number;
  /** The layer's total vertical offset in pixels. */
  offsetY: number;
  /** Width in the layer's own cells. */
  width: number;
  /** Height in the layer's own cells. */
  height: number;
  /** `width` x `height` values, row by row. */
  values: Int32Array;
}

/** A level touching this one on the world map: `dir` is `n`, `s`, `e`, `w`, `ne`, `nw`, `se`, `sw`, `o` (overlaps), `<` or `>` (a depth below or above). */
export interface LdtkNeighbour {
  /** The neighbouring level's identifier. */
  level: string;
  /** Its iid. */
  iid: string;
  /** LDtk's direction letter: `n`, `s`, `e`, `w`, a corner (`ne`, ...), `o` overlapping, `<` below or `>` above in depth. */
  dir: string;
}

/** One level: its own navigation grid and what a game needs beside it. */
export interface LdtkLevel {
  /** The level's identifier. */
  name: string;
  /** LDtk's unique instance id of the level. */
  iid: string;
  /** The world it belongs to ('' in a project without named worlds). */
  world: string;
  /**
   * Navigation: one cell per `cellSize` pixels of the level, the level's top-left at (0, 0);
   * `grid.projection` turns cells into the level's pixels and back.
   */
  grid: NavGrid;
  /** The movement model its square cells imply. */
  movement: 'octile';
  /** Things the loader did in this level that a level designer may not expect. */
  warnings: string[];
  /** Its entities, placed on `grid`'s cells. */
  entities: LdtkEntity[];
  /** Its tile, auto-layer and auto-tiled IntGrid layers, bottom layer first. */
  tileLayers: LdtkTileLayer[];
  /** Its IntGrid layers' values, bottom layer first. */
  intGrids: LdtkIntGridLayer[];
  /** The level's own custom fields. */
  fields: ReadonlyMap<string, LdtkField>;
  /** The levels LDtk lists as touching or overlapping this one. */
  neighbours: LdtkNeighbour[];
  /** Its left edge in the world in pixels (-1 in linear layouts). */
  worldX: number;
  /** Its top edge in the world in pixels (-1 in linear layouts). */
  worldY: number;
  /** Its world depth. */
  depth: number;
  /** Its width in pixels. */
  pxWidth: number;
  /** Its height in pixels. */
  pxHeight: number;
  /** The file its layers came from: the project's, or the level's own file when saved apart. */
  file: string;
}

/** What {@link buildLevel} makes of a level: the level without its neighbours, and the walls on its outer edge its grid cannot hold. */
export type BuiltLevel = Omit<LdtkLevel, 'neighbours'> & { outerWalls: OuterWalls };

/** A level as {@link stitch} takes it: the loaded level, its index among the project's levels, its outer-edge walls. */
export interface StitchMember {
  level: LdtkLevel;
  index: number;
  outerWalls: OuterWalls;
}

/** The levels of one depth of a Free or GridVania world, stitched into one grid by their world positions. */
export interface LdtkWorld {
  /** The world's identifier ('' in a project without named worlds). */
  name: string;
  /** LDtk's unique instance id of the world. */
  iid: string;
  /** `Free` or `GridVania`. */
  layout: string;
  /** The depth of the levels stitched into this grid. */
  depth: number;
  /** Cells no level covers are blocked. `grid.projection` turns cells into LDtk's world pixels and back. */
  grid: NavGrid;
  /** The movement model its square cells imply. */
  movement: 'octile';
  /** Where each level lies in `grid`, in cells. */
  levels: {
    /** The level's identifier. */
    name: string;
    /** Its place in the project's `levels`. */
    index: number;
    /** Its left column in `grid`. */
    x: number;
    /** Its top row in `grid`. */
    y: number;
    /** Its width in cells. */
    width: number;
    /** Its height in cells. */
    height: number;
  }[];
  /** Every entity of those levels, placed on the world grid's cells (pixels: the world's). */
  entities: LdtkEntity[];
}

export interface BuildOptions {
  maxCells: number;
  terrain: TerrainTable;
  navs: Map<number, Map<number, ValueNav | null>>;
  layerCount: number;
  hiddenLayers: boolean;
  /** Entity identifiers (lower case) that put up edge walls, and the navigation layer they go on. */
  wallEntities: ReadonlySet<string>;
  wallLayer: number;
}

/** Cells of every grid the load makes, refused past `maxCells` (a small file can name huge levels). */
export class CellBudget {
  used = 0;
  constructor(readonly max: number) {}
  /** Counts a `w` x `h` grid; `hint` adds another way out to the message. */
  spend(ctx: Ctx, element: string, w: number, h: number, hint = ''): void {
    if (w * h > this.max) fail(ctx, element, `${w} x ${h} = ${w * h} cells exceeds maxCells ${this.max}; pass a larger maxCells to allow it${hint}`);
    this.used += w * h;
    if (this.used > this.max) fail(ctx, element, `the project's grids together come to more than maxCells ${this.max} cells (${this.used} so far); pass a larger maxCells to allow it${hint}`);
  }
}

/** The cell size: the option, else the smallest grid of the IntGrid layers navigation reads, else of any IntGrid layer, else the project's default. */
export function cellSizeOf(project: RawProject, navs: Map<number, Map<number, ValueNav | null>>, option: number | undefined): number {
  if (option !== undefined) return option;
  const intGrids = project.layerDefs.filter((d) => d.type === 'IntGrid');
  const read = intGrids.filter((d) => [...(navs.get(d.uid)?.values() ?? [])].some((n) => n !== null));
  const from = read.length > 0 ? read : intGrids;
  return from.length > 0 ? Math.min(...from.map((d) => d.gridSize)) : project.defaultGridSize;
}

/** A value to slot table: dense for the usual small values, a Map past that. */
interface Slots {
  dense: Int32Array;
  sparse: Map<number, number>;
  navs: ValueNav[];
  defined: Set<number>;
}

function slotsOf(navs: Map<number, ValueNav | null> | undefined): Slots {
  const s: Slots = { dense: new Int32Array(0), sparse: new Map(), navs: [], defined: new Set() };
  if (navs === undefined) return s;
  let max = 0;
  for (const v of navs.keys()) if (v <= 0xffff) max = Math.max(max, v);
  s.dense = new Int32Array(max + 1).fill(-1);
  for (const [v, nav] of navs) {
    s.defined.add(v);
    if (nav === null) continue;
    const k = s.navs.push(nav) - 1;
    if (v <= 0xffff) s.dense[v] = k;
    else s.sparse.set(v, k);
  }
  return s;
}

/**
 * Paints an IntGrid layer's values onto the grid: each layer cell's rule goes to every nav cell
 * its pixels overlap (one cell when the layer's grid is the nav grid's). Returns the values met
 * that no rule covers, for the warnings.
 */
function paint(values: Int32Array, cw: number, ch: number, p: Placement, grid: NavGrid, slots: Slots, terrain: TerrainTable, outer: OuterWalls): Set<number> {
  const { width: W, height: H } = grid;
  const cs = p.cellSize;
  const g = p.gridSize;
  const unmapped = new Set<number>();
  const tCost = terrain.entries().map((t) => t.cost);
  const tWalk = terrain.entries().map((t) => t.walkable);
  for (let cy = 0; cy < ch; cy++) {
    const py0 = p.offsetY + cy * g;
    const y0 = Math.max(0, Math.floor(py0 / cs));
    const y1 = Math.min(H - 1, Math.ceil((py0 + g) / cs) - 1);
    if (y0 > y1) continue;
    for (let cx = 0; cx < cw; cx++) {
      const v = values[cy * cw + cx];
      if (v === 0) continue;
      const k = v < slots.dense.length ? slots.dense[v] : slots.sparse.get(v) ?? -1;
      if (k < 0) {
        unmapped.add(v);
        continue;
      }
      const px0 = p.offsetX + cx * g;
      const x0 = Math.max(0, Math.floor(px0 / cs));
      const x1 = Math.min(W - 1, Math.ceil((px0 + g) / cs) - 1);
      const nav = slots.navs[k];
      const L = grid.layers[nav.layer];
      for (let y = y0; y <= y1; y++) {
        for (let x = x0; x <= x1; x++) {
          const i = y * W + x;
          if (nav.terrain >= 0) {
            L.terrain[i] = nav.terrain;
            L.cost[i] = tCost[nav.terrain];
            if (!tWalk[nav.terrain]) L.walkable[i] = 0;
          }
          if (nav.cost === nav.cost) L.cost[i] = nav.cost;
          if (nav.walkable >= 0) L.walkable[i] = nav.walkable;
        }
      }
      // Edge walls on the layer cell's sides (the outline of the nav cells it covers); those on
      // the grid's outer edge, which is closed already, are kept aside for a stitched world.
      const walls = nav.walls;
      if (walls !== 0) {
        const F = L.flags;
        for (let x = x0; x <= x1; x++) {
          if ((walls & 1) !== 0) {
            if (y0 > 0) F[y0 * W + x] |= FLAG_WALL_NORTH;
            else outer.add(nav.layer, 'north', x);
          }
          if ((walls & 4) !== 0) {
            if (y1 + 1 < H) F[(y1 + 1) * W + x] |= FLAG_WALL_NORTH;
            else outer.add(nav.layer, 'south', x);
          }
        }
        for (let y = y0; y <= y1; y++) {
          if ((walls & 8) !== 0) {
            if (x0 > 0) F[y * W + x0] |= FLAG_WALL_WEST;
            else outer.add(nav.layer, 'west', y);
          }
          if ((walls & 2) !== 0) {
            if (x1 + 1 < W) F[y * W + x1 + 1] |= FLAG_WALL_WEST;
            else outer.add(nav.layer, 'east', y);
          }
        }
      }
    }
  }
  return unmapped;
}

/** One tile of a tile list, checked, into the layer's arrays at `k`. */
function readTile(ctx: Ctx, element: string, v: unknown, out: LdtkTileLayer, k: number): void {
  const o = object(ctx, element, v, 'a tile { "px", "src", "t", "f" }');
  const [x, y] = pair(ctx, element, o, 'px');
  const [sx, sy] = pair(ctx, element, o, 'src');
  out.x[k] = x + out.offsetX;
  out.y[k] = y + out.offsetY;
  out.srcX[k] = sx;
  out.srcY[k] = sy;
  out.id[k] = int(ctx, element, o, 't', 0, MAX_INT, 0);
  out.flip[k] = int(ctx, element, o, 'f', 0, 3, 0);
  out.alpha[k] = num(ctx, element, o, 'a', 1);
}

interface LayerHead {
  /** For errors, with the level: `level "A" layer "B"`. */
  element: string;
  /** For the level's own warnings: `layer "B"`. */
  short: string;
  name: string;
  type: string;
  def: RawLayerDef | undefined;
  cw: number;
  ch: number;
  gridSize: number;
  offsetX: number;
  offsetY: number;
  visible: boolean;
  opacity: number;
  o: Record<string, unknown>;
}

function layerHead(ctx: Ctx, level: RawLevel, v: unknown, k: number, defs: Map<number, RawLayerDef>, budget: CellBudget): LayerHead {
  const o = object(ctx, `${level.element} layerInstances[${k}]`, v, 'a layer instance');
  const short = named('layer', o, '__identifier', k);
  const element = `${level.element} ${short}`;
  const name = str(ctx, element, o, '__identifier');
  const cw = int(ctx, element, o, '__cWid', 0, MAX_INT);
  const ch = int(ctx, element, o, '__cHei', 0, MAX_INT);
  const type = str(ctx, element, o, '__type');
  // Sizes are checked before anything of that size is made.
  if (type === 'IntGrid' && cw * ch > budget.max) fail(ctx, element, `${cw} x ${ch} = ${cw * ch} cells exceeds maxCells ${budget.max}; pass a larger maxCells to allow it`);
  const uid = int(ctx, element, o, 'layerDefUid', -MAX_INT, MAX_INT, -MAX_INT);
  return {
    element,
    short,
    name,
    type,
    def: defs.get(uid),
    cw,
    ch,
    gridSize: int(ctx, element, o, '__gridSize', 1, MAX_INT),
    offsetX: int(ctx, element, o, '__pxTotalOffsetX', -MAX_INT, MAX_INT, 0),
    offsetY: int(ctx, element, o, '__pxTotalOffsetY', -MAX_INT, MAX_INT, 0),
    visible: bool(ctx, element, o, 'visible', true),
    opacity: num(ctx, element, o, '__opacity', 1),
    o,
  };
}

function tileLayer(ctx: Ctx, h: LayerHead, key: string, tilesetIndex: Map<number, number>): LdtkTileLayer | null {
  const raw = list(ctx, h.element, h.o, key);
  if (raw.length === 0) return null;
  const n = raw.length;
  const uid = int(ctx, h.element, h.o, '__tilesetDefUid', -MAX_INT, MAX_INT, -MAX_INT);
  const out: LdtkTileLayer = {
    name: h.name,
    type: h.type,
    visible: h.visible,
    opacity: Math.min(1, Math.max(0, h.opacity)),
    gridSize: h.gridSize,
    offsetX: h.offsetX,
    offsetY: h.offsetY,
    tileset: tilesetIndex.get(uid) ?? -1,
    count: n,
    x: new Int32Array(n),
    y: new Int32Array(n),
    id: new Int32Array(n),
    srcX: new Int32Array(n),
    srcY: new Int32Array(n),
    flip: new Uint8Array(n),
    alpha: new Float32Array(n),
  };
  if (out.tileset < 0) warn(ctx, `${h.short}: its tiles come from a tileset the project does not define (uid ${uid === -MAX_INT ? 'none' : uid}); they are kept without one`);
  for (let k = 0; k < n; k++) readTile(ctx, `${h.element} ${key}[${k}]`, raw[k], out, k);
  return out;
}

function intGridValues(ctx: Ctx, h: LayerHead): Int32Array {
  const csv = h.o.intGridCsv;
  if (csv === undefined && Array.isArray(h.o.intGrid)) fail(ctx, h.element, 'the IntGrid values are in the "intGrid" form LDtk wrote before version 0.8; open the project in a recent LDtk and save it again');
  const raw = list(ctx, h.element, h.o, 'intGridCsv', true);
  if (raw.length !== h.cw * h.ch) fail(ctx, h.element, `"intGridCsv" holds ${raw.length} values; a ${h.cw} x ${h.ch} layer needs ${h.cw * h.ch}`);
  const values = new Int32Array(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const v = raw[i];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_INT) fail(ctx, h.element, `"intGridCsv" value ${i} (cell ${i % h.cw}, ${Math.floor(i / h.cw)}) must be a whole number from 0 to ${MAX_INT}, got ${got(v)}`);
    values[i] = v;
  }
  return values;
}

/** `value 3 <one>` or `values 1, 2 <many>`, at most 8 shown. */
function values_(list: number[], name: (v: number) => string, one: string, many: string): string {
  const shown = list.slice(0, 8).map(name).join(', ') + (list.length > 8 ? ` and ${list.length - 8} more` : '');
  return list.length === 1 ? `value ${shown} ${one}` : `values ${shown} ${many}`;
}

function valueName(def: RawLayerDef | undefined, v: number): string {
  const d = def?.values.find((x) => x.value === v);
  return d?.identifier ? `${v} (${quote(d.identifier, 40)})` : String(v);
}

/** Builds one level whose layers are in `level.layers`. */
export function buildLevel(ctx: Ctx, level: RawLevel, project: RawProject, options: BuildOptions, cs: number, budget: CellBudget, tilesetIndex: Map<number, number>, defs: Map<number, RawLayerDef>): BuiltLevel {
  const W = Math.ceil(level.pxWid / cs);
  const H = Math.ceil(level.pxHei / cs);
  budget.spend(ctx, level.element, W, H);
  const grid = new NavGrid(W, H, { layers: options.layerCount, projection: orthogonal(cs, cs), terrain: options.terrain, maxCells: options.maxCells });
  const outerWalls = new OuterWalls(W, H, options.layerCount);
  const tileLayers: LdtkTileLayer[] = [];
  const intGrids: LdtkIntGridLayer[] = [];
  const entities: LdtkEntity[] = [];
  const heads = (level.layers ?? []).map((v, k) => layerHead(ctx, level, v, k, defs, budget));
  // LDtk lists the top layer first; navigation paints from the bottom up, so upper layers win.
  for (const h of heads.reverse()) {
    const p: Placement = { cellSize: cs, gridSize: h.gridSize, offsetX: h.offsetX, offsetY: h.offsetY };
    if (h.type === 'IntGrid') {
      const values = intGridValues(ctx, h);
      intGrids.push({ name: h.name, visible: h.visible, gridSize: h.gridSize, offsetX: h.offsetX, offsetY: h.offsetY, width: h.cw, height: h.ch, values });
      if (h.def === undefined) warn(ctx, `${h.short}: no layer definition has its uid, so its values mean nothing to navigation`);
      else if (h.visible || options.hiddenLayers) {
        const slots = slotsOf(options.navs.get(h.def.uid));
        const unmapped = paint(values, h.cw, h.ch, p, grid, slots, options.terrain, outerWalls);
        const undefinedValues = [...unmapped].filter((v) => !slots.defined.has(v));
        const silent = [...unmapped].filter((v) => slots.defined.has(v));
        if (undefinedValues.length > 0) warn(ctx, `${h.short}: ${values_(undefinedValues, String, 'is', 'are')} not defined by the layer, so their cells are left as they are`);
        if (silent.length > 0) {
          warn(ctx, `${h.short}: ${values_(silent, (v) => valueName(h.def, v), 'means', 'mean')} nothing to navigation, so their cells are left as they are; give ${silent.length === 1 ? 'it' : 'them'} a rule (values[${JSON.stringify(h.name)}]) or an identifier such as "walls" or a terrain name`);
        }
      }
      const auto = tileLayer(ctx, h, 'autoLayerTiles', tilesetIndex);
      if (auto !== null) tileLayers.push(auto);
    } else if (h.type === 'Tiles' || h.type === 'AutoLayer') {
      const t = tileLayer(ctx, h, h.type === 'Tiles' ? 'gridTiles' : 'autoLayerTiles', tilesetIndex);
      if (t !== null) tileLayers.push(t);
    } else if (h.type === 'Entities') {
      entities.push(...readEntities(ctx, h.element, list(ctx, h.element, h.o, 'entityInstances'), level.name, h.name, p));
    } else warn(ctx, `${h.short}: unknown layer type ${quote(h.type, 40)}, ignored`);
  }
  grid.refresh();
  addEntityLinks(ctx, grid, entities, `level ${quote(level.name, 60)}`);
  addEntityWalls(ctx, grid, entities, options.wallEntities, options.wallLayer, cs, outerWalls);
  if (grid.stats().every((s) => s.blocked === 0) && heads.length > 0) {
    warn(ctx, intGrids.length === 0 ? 'the level has no IntGrid layer, so every cell is walkable' : 'nothing in the level blocks, so every cell is walkable: give the blocking IntGrid values an identifier such as "walls" or pick them with rules');
  }
  const fields = readFields(ctx, level.element, level.fields, { cellSize: cs, gridSize: project.defaultGridSize, offsetX: 0, offsetY: 0 });
  return {
    outerWalls,
    name: level.name,
    iid: level.iid,
    world: level.world,
    grid,
    movement: 'octile',
    warnings: ctx.warnings ?? [],
    entities,
    tileLayers,
    intGrids,
    fields,
    worldX: level.worldX,
    worldY: level.worldY,
    depth: level.depth,
    pxWidth: level.pxWid,
    pxHeight: level.pxHei,
    file: ctx.file,
  };
}

/**
 * The levels of each depth of a Free or GridVania world as one grid: each level's cells copied to
 * its place (world pixels over the cell size); cells no level covers are blocked. Levels that
 * overlap at one depth: the one later in the file is kept there, with a warning.
 */
export function stitch(ctx: Ctx, world: { name: string; iid: string; layout: string }, members: StitchMember[], cs: number, layerCount: number, terrain: TerrainTable, budget: CellBudget, maxCells: number): LdtkWorld[] {
  const byDepth = new Map<number, StitchMember[]>();
  for (const m of members) {
    const list = byDepth.get(m.level.depth) ?? [];
    list.push(m);
    byDepth.set(m.level.depth, list);
  }
  const out: LdtkWorld[] = [];
  for (const depth of [...byDepth.keys()].sort((a, b) => a - b)) {
    const ms = byDepth.get(depth)!;
    const place = ms.map(({ level }) => {
      if (level.worldX % cs !== 0 || level.worldY % cs !== 0) warn(ctx, `level ${quote(level.name, 60)} lies at (${level.worldX}, ${level.worldY}) in the world, not on the ${cs}-pixel cells; it is stitched at the cell its top-left corner falls in`);
      return { x: Math.floor(level.worldX / cs), y: Math.floor(level.worldY / cs) };
    });
    const x0 = Math.min(...place.map((p) => p.x));
    const y0 = Math.min(...place.map((p) => p.y));
    const W = Math.max(...ms.map((m, k) => place[k].x + m.level.grid.width)) - x0;
    const H = Math.max(...ms.map((m, k) => place[k].y + m.level.grid.height)) - y0;
    const element = `${world.name === '' ? 'world' : `world ${quote(world.name, 60)}`}${byDepth.size > 1 ? ` depth ${depth}` : ''}`;
    budget.spend(ctx, element, W, H, ', or stitch: false to keep the levels apart');
    const grid = new NavGrid(W, H, { layers: layerCount, projection: orthogonal(cs, cs, x0 * cs, y0 * cs), terrain, walkable: false, maxCells });
    const covered = new Uint8Array(W * H);
    const levels: LdtkWorld['levels'] = [];
    const entities: LdtkEntity[] = [];
    ms.forEach(({ level, index }, k) => {
      const lg = level.grid;
      const ox = place[k].x - x0;
      const oy = place[k].y - y0;
      let overlap = 0;
      for (let y = 0; y < lg.height; y++) {
        const from = y * lg.width;
        const to = (oy + y) * W + ox;
        for (let x = 0; x < lg.width; x++) overlap += covered[to + x];
        covered.fill(1, to, to + lg.width);
        for (let l = 0; l < layerCount; l++) {
          const a = lg.layers[l];
          const b = grid.layers[l];
          b.walkable.set(a.walkable.subarray(from, from + lg.width), to);
          b.cost.set(a.cost.subarray(from, from + lg.width), to);
          b.flags.set(a.flags.subarray(from, from + lg.width), to);
          b.terrain.set(a.terrain.subarray(from, from + lg.width), to);
        }
      }
      if (overlap > 0) {
        const others = ms.slice(0, k).filter((m, j) => place[j].x < place[k].x + lg.width && place[k].x < place[j].x + m.level.grid.width && place[j].y < place[k].y + lg.height && place[k].y < place[j].y + m.level.grid.height);
        warn(ctx, `${element}: level ${quote(level.name, 60)} overlaps ${others.map((m) => quote(m.level.name, 60)).join(', ')} on ${overlap} cells; its own cells are used there`);
      }
      levels.push({ name: level.name, index, x: ox, y: oy, width: lg.width, height: lg.height });
      for (const e of level.entities) entities.push(shiftEntity(e, ox, oy, level.worldX, level.worldY));
    });
    // Walls on a level's own outer edge, where it borders another level; after every level's
    // cells are in, as a later level's copy would overwrite the flags of the row or column it
    // shares with an earlier one.
    ms.forEach(({ outerWalls }, k) => outerWalls.apply(grid, place[k].x - x0, place[k].y - y0));
    grid.refresh();
    addEntityLinks(ctx, grid, entities, element);
    out.push({ name: world.name, iid: world.iid, layout: world.layout, depth, grid, movement: 'octile', levels, entities });
  }
  return out;
}


/** The project's tilesets, their image paths joined to the project file's folder. */
export function tilesetsOf(project: RawProject, file: string): LdtkTileset[] {
  return project.tilesets.map((t) => ({
    uid: t.uid,
    name: t.identifier,
    path: t.relPath === null ? null : resolveTiledPath(file, t.relPath),
    embedded: t.embedAtlas,
    width: t.pxWid,
    height: t.pxHei,
    tileSize: t.tileGridSize,
    spacing: t.spacing,
    padding: t.padding,
    enumTags: t.enumTags,
  }));
}
