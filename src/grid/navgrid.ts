import { addChangedRect, unionRect } from './rects.js';
import { TilenavError, assertCost, assertInteger, assertLimit, assertOptionsObject, describe } from '../errors.js';
import { TerrainTable, type Terrain, type TerrainFollower } from './terrain.js';
import { assertProjectionFits, orthogonal, type Projection } from './projection.js';
import { padXY, paddedSize, strideOf } from './padded.js';
import { movementModel, type MovementModel, type MovementName } from '../search/movement.js';
import { LinkTable, type LinkEndSpec, type LinkIndex, type LinkSpec, type NavLink } from './links.js';

/** The default layer names, used when a grid is created with a layer count instead of names. */
export const DEFAULT_LAYER_NAMES = Object.freeze(['Ground', 'Sky', 'Underground', 'Volume', 'Custom1', 'Custom2', 'Custom3', 'Custom4']);

/** At most this many layers per grid. */
export const MAX_LAYERS = 8;

/**
 * The largest grid created unless `maxCells` says otherwise: 2^26 cells (8192 x 8192), which is
 * 7 bytes x 67 M = 470 MB per layer before any search scratch.
 * @default 67_108_864
 */
export const DEFAULT_MAX_CELLS = 1 << 26;

export { FLAG_SAFE_ZONE, FLAG_NO_EXIT_NORTH, FLAG_NO_EXIT_EAST, FLAG_NO_EXIT_SOUTH, FLAG_NO_EXIT_WEST, FLAG_ONE_WAY_MASK, FLAG_WALL_NORTH, FLAG_WALL_WEST, FLAG_WALL_MASK } from './flags.js';
import { FLAG_NO_EXIT_EAST, FLAG_NO_EXIT_NORTH, FLAG_NO_EXIT_SOUTH, FLAG_NO_EXIT_WEST, FLAG_ONE_WAY_MASK, FLAG_WALL_MASK, FLAG_WALL_NORTH, FLAG_WALL_WEST } from './flags.js';
import { EXIT_CORNER_NE, EXIT_CORNER_NW, EXIT_CORNER_SE, EXIT_CORNER_SW } from './padded.js';
import { assertCellIndices } from '../errors.js';
import type { WorldPoint } from './projection.js';

/** Options of the {@link NavGrid} constructor. */
export interface NavGridOptions {
  /** Layer count (1-8, named from {@link DEFAULT_LAYER_NAMES}) or the layer names. @default 1 */
  layers?: number | readonly string[];
  /** World <-> cell conversion. @default orthogonal(1, 1) */
  projection?: Projection;
  /**
   * How units step from cell to cell on this grid: every search, query, agent system and adapter
   * uses it unless told otherwise. It must fit the cells: square models (`octile`, `cardinal`,
   * `iso`...) on square, isometric and continuous cells, `hex...` on hexagons of the same layout,
   * `staggered...` on staggered diamonds of the same axis and index.
   * @default the projection's own: `octile` for orthogonal and continuous cells, `iso` for
   * isometric, the hex layout for hexagonal and staggered hexagonal maps, the staggered model for
   * staggered diamonds (see {@link defaultMovement})
   */
  movement?: MovementName;
  /** Terrain names and costs for `setTerrain`. @default new TerrainTable() (DEFAULT_TERRAINS) */
  terrain?: TerrainTable;
  /** Whether cells start walkable. @default true */
  walkable?: boolean;
  /** Refuse grids with more cells than this (a number >= 0; Infinity for no limit). @default DEFAULT_MAX_CELLS */
  maxCells?: number;
  /**
   * Adopt this storage instead of allocating (an ArrayBuffer or SharedArrayBuffer laid out as
   * {@link NavGrid.storageBytes} describes, at least that many bytes past `storageOffset`), shared,
   * never copied. Used by the binary format and by workers. A typed array is refused, naming it:
   * pass its `buffer`, with its `byteOffset` as `storageOffset`, to share what it views.
   */
  storage?: ArrayBufferLike;
  /** Byte offset of the layer data in `storage`. @default 0 */
  storageOffset?: number;
}

/** A rectangle of cells, inclusive of (x, y), `width` x `height` cells. */
export interface CellRect {
  /** Left column. */
  x: number;
  /** Top row. */
  y: number;
  /** Columns. */
  width: number;
  /** Rows. */
  height: number;
}

/**
 * What changed: on one layer, the bounding rectangle (x, y, width, height), the changed
 * rectangles themselves in `rects` (one for a single write; a batch lists its blocks of changed
 * cells, merged where they touch, at most MAX_CHANGE_RECTS), and the grid's version after it.
 */
export interface GridChange extends CellRect {
  /** The layer index that changed. */
  layer: number;
  /** The grid's version after the change. */
  version: number;
  /** The changed rectangles (merged where they touch, at most MAX_CHANGE_RECTS). */
  rects: readonly CellRect[];
  /**
   * Whether the change may have opened a way: a cell became walkable, got cheaper, or lost a
   * one-way flag, or an edge wall came down. False when it only blocked cells, raised costs or
   * added one-way flags or walls (a path can then only get longer, never find a shortcut).
   * `refresh` cannot tell what direct writes did, so its events say true.
   */
  opened: boolean;
}

/** What to write into each cell of a rectangle; omitted fields are left as they are. */
export interface CellValues {
  /** Walkable (true) or blocked (false). */
  walkable?: boolean;
  /** Traversal cost, 2^-126 (about 1.18e-38) to about 3.4e38 (what a float32 holds). */
  cost?: number;
  /** The 8 flag bits (FLAG_*), edge walls (FLAG_WALL_*) included: all 8 are written. */
  flags?: number;
  /** Terrain name or id: sets the terrain id, its cost and its walkability together. */
  terrain?: string | number;
}

/** Walkable / blocked counts of one layer. */
export interface LayerStats {
  /** The layer's name. */
  name: string;
  /** Cells in the layer. */
  total: number;
  /** Walkable cells. */
  walkable: number;
  /** Blocked cells. */
  blocked: number;
}

/**
 * One navigation layer: flat arrays indexed `y * width + x`. Read them freely; write through the
 * grid's setters (or call `grid.refresh()` after writing directly) so the search stays in step.
 */
export interface NavLayer {
  /** The layer's name. */
  readonly name: string;
  /** The layer's index in `grid.layers`. */
  readonly index: number;
  /** 1 walkable, 0 blocked. */
  readonly walkable: Uint8Array;
  /** Traversal cost per cell, kept while a cell is blocked so a door reopens at its old cost. */
  readonly cost: Float32Array;
  /** 8 flag bits per cell; see FLAG_*. */
  readonly flags: Uint8Array;
  /** Terrain id per cell (an index into the grid's terrain table). */
  readonly terrain: Uint8Array;
}

/**
 * What the search reads: a copy of a layer padded with one blocked cell on every side, so the
 * inner loop never tests bounds. `pass[p]` is the cost of entering padded cell p
 * (`p = (y + 1) * stride + x + 1`), 0 when blocked. Read only: {@link NavGrid.searchView} keeps it
 * in step with the grid. Sight tests (segmentCost, lineOfSight) take one.
 */
export interface SearchView {
  /** Padded row length: the grid's width plus 2. */
  readonly stride: number;
  /** Cost of entering each padded cell, 0 where blocked. */
  readonly pass: Float32Array;
  /**
   * Padded exit bits, or null when the layer has neither one-way flags nor edge walls: the
   * FLAG_NO_EXIT_* bits of one-way flags and of walled edges (both cells sharing a wall get one),
   * and the corner bits of diagonals that pass a wall (see `exitMask` in padded.ts). A step k is
   * refused where `exits[p] & exitMask(dx, dy)` is not 0.
   */
  exits: Uint8Array | null;
  /**
   * The same bits from edge walls alone (no one-way flags), or null when the layer has no walls:
   * what component labels and sight lines along a cell boundary read. Walls are the same from
   * both sides, so these bits are symmetric where one-way flags are not.
   */
  walls: Uint8Array | null;
  /** The smallest walkable cost of the layer. */
  minCost: number;
  /** The largest walkable cost of the layer. */
  maxCost: number;
  /** Walkable cells all cost the same: jump point search applies. */
  uniform: boolean;
  /** @internal */
  statsValid: boolean;
  /** @internal */
  exitsValid: boolean;
}

const BYTES_PER_CELL_PER_LAYER = 7;

/** One line of {@link NavGrid.memory}: what is held, for which layer (null: the whole grid), in bytes. */
export interface MemoryEntry {
  /** What it is: `layers`, `search view`, `component labels`, `landmark tables`, `clearance`, `search scratch`... */
  name: string;
  /** The layer index it belongs to, or null when it serves the whole grid. */
  layer: number | null;
  /** Bytes held. */
  bytes: number;
}

/** What a grid holds: {@link NavGrid.memory}. */
export interface GridMemory {
  /** The sum of the entries' bytes. */
  total: number;
  /** One entry per thing held, per layer where that applies. */
  entries: MemoryEntry[];
}

/**
 * Data a grid derives from its cells and keeps for its searches (component labels, landmark
 * tables, clearance, the default search scratch): built on first use by the module that reads it,
 * kept by the grid ({@link NavGrid.derived}), listed by {@link NavGrid.memory} and freed by
 * {@link NavGrid.releaseDerived}. Implemented by the library's own modules; a game only reads
 * {@link NavGrid.memory}.
 */
export interface Derived {
  /** Appends what it holds now, one entry per layer where that applies. */
  memory(out: MemoryEntry[]): void;
  /** Frees what it holds and stops following the grid. */
  release(): void;
  /**
   * True for what is not derived from the cells and cannot be rebuilt from them (an adapter's tie
   * to the tilemap it syncs from): listed by `memory()`, left in place by `releaseDerived()`.
   */
  readonly kept?: boolean;
}

/**
 * The movement model a projection's cells imply: `octile` for orthogonal, continuous and custom
 * projections, `iso` for isometric diamonds, `hex` (axial) or `hex-odd-r`... for hexagonal cells of
 * that layout, and Tiled's staggered maps by axis and index (`hex-...` with a hex side length,
 * `staggered-...` for diamonds).
 */
export function defaultMovement(projection: Projection): MovementName {
  const spec = projection.spec;
  switch (spec?.kind) {
    case 'isometric':
      return 'iso';
    case 'hexagonal':
      return spec.layout === undefined || spec.layout === 'axial' ? 'hex' : (`hex-${spec.layout}` as MovementName);
    case 'staggered':
      return `${(spec.hexSideLength ?? 0) > 0 ? 'hex' : 'staggered'}-${spec.staggerIndex}-${spec.staggerAxis === 'x' ? 'q' : 'r'}` as MovementName;
    default:
      return 'octile';
  }
}

/** Why `model` cannot step on the cells of `projection`, or null when it fits. */
function misfit(model: MovementModel, projection: Projection): string | null {
  const own = defaultMovement(projection);
  const kind = projection.spec?.kind;
  const hexCells = kind === 'hexagonal' || (kind === 'staggered' && own.startsWith('hex'));
  const square = !model.name.startsWith('hex') && !model.name.startsWith('staggered');
  if (square) return hexCells || kind === 'staggered' ? `a square movement model on ${kind} cells (they move as '${own}')` : null;
  return model.name === own ? null : `${kind ?? 'custom'} cells move as '${own}'`;
}

/**
 * A navigation grid: width x height cells with 1 to 8 layers, each with walkability, a traversal
 * cost, 8 flag bits and a terrain id per cell. All layer data lives in one buffer, so a grid can be
 * saved, shared with workers (SharedArrayBuffer) and rebuilt without copying.
 *
 * Coordinates: x grows right, y grows down, cell index `i = y * width + x` ({@link index}).
 */
export class NavGrid {
  /** Cells per row. */
  readonly width: number;
  /** Rows. */
  readonly height: number;
  /** width * height */
  readonly size: number;
  /** The layers, 1 to 8. */
  readonly layers: readonly NavLayer[];
  /** Terrain names and costs for `setTerrain`. */
  readonly terrain: TerrainTable;
  /** World <-> cell conversion. */
  projection: Projection;
  /** The storage all layers are views on. */
  readonly storage: ArrayBufferLike;
  /** Byte offset of the layer data in `storage`. */
  readonly storageOffset: number;
  /** Increases by one with every change event. */
  version = 0;
  /** How units step on this grid: the default of every search and query (see {@link NavGridOptions.movement}). */
  readonly movement: MovementName;

  private readonly derivedData = new Map<string, Derived>();
  private readonly linkTable: LinkTable;
  /** Movement names already checked against the projection: their models. */
  private readonly fitted = new Map<string, MovementModel>();

  private readonly views: (SearchView | null)[];
  /** Per layer, while its view's exits are valid: cells with one-way bits, and walled edges inside the grid. */
  private readonly exitCounts: { oneWay: number; walls: number }[];
  /** FLAG_WALL_MASK on square cells; 0 on hexagonal and staggered ones, whose wall bits mean nothing. */
  private readonly wallMask: number;
  private readonly listeners = new Set<(change: GridChange) => void>();
  private batchDepth = 0;
  private readonly deferred = new Set<() => void>();
  private pending: (CellRect[] | null)[] = [];
  /** Per layer, whether a write of the running batch opened a way (see GridChange.opened). */
  private pendingOpened: boolean[] = [];
  private readonly walkWriters = new Set<(layer: number, rect: CellRect, walkable: boolean) => void>();
  /** Keeps the cells' costs in step with the terrain table (which holds it weakly; the grid, strongly). */
  private readonly terrainFollower: TerrainFollower = {
    costChanged: (id, was) => this.followTerrainCost(id, was),
    holds: (id) => this.layers.some((l) => l.terrain.includes(id)),
  };

  /**
   * A grid of `width` x `height` cells (integers >= 1, at most `maxCells` together), every cell
   * walkable (or as `options.walkable` says) at the ground terrain's cost. Throws a TilenavError
   * naming the argument for bad sizes or options.
   */
  constructor(width: number, height: number, options: NavGridOptions = {}) {
    assertInteger(width, 'width');
    assertInteger(height, 'height');
    if (width < 1 || height < 1) throw new TilenavError(`grid size must be at least 1 x 1, got ${width} x ${height}`, { element: 'width/height' });
    assertOptionsObject(options, 'options');
    options ??= {};
    const maxCells = options.maxCells ?? DEFAULT_MAX_CELLS;
    // NaN or a string would make the size test always false and switch the limit off.
    assertLimit(maxCells, 'maxCells');
    if (options.terrain !== undefined && !(options.terrain instanceof TerrainTable)) {
      throw new TilenavError(`expected a TerrainTable, got ${describe(options.terrain)}`, { element: 'terrain' });
    }
    const proj = options.projection as Partial<Projection> | null | undefined;
    if (proj !== undefined && (proj === null || typeof proj !== 'object' || typeof proj.cellToWorld !== 'function' || typeof proj.worldToCell !== 'function')) {
      throw new TilenavError(`expected a Projection (e.g. isometric(64, 32) or createProjection(spec)), got ${describe(proj)}`, { element: 'projection' });
    }
    if (options.storageOffset !== undefined && (!Number.isInteger(options.storageOffset) || options.storageOffset < 0)) {
      throw new TilenavError(`expected an integer byte offset >= 0, got ${describe(options.storageOffset)}`, { element: 'storageOffset' });
    }
    if (width * height > maxCells) {
      throw new TilenavError(`grid of ${width} x ${height} = ${width * height} cells exceeds maxCells ${maxCells}; pass a larger maxCells to allow it`, { element: 'width/height' });
    }
    const names = layerNames(options.layers);
    this.width = width;
    this.height = height;
    this.size = width * height;
    this.terrain = options.terrain ?? new TerrainTable();
    this.terrain.follow(this.terrainFollower);
    this.projection = options.projection ?? orthogonal(1, 1);
    // Pictures, world positions and worldToCell all need finite coordinates.
    assertProjectionFits(this.projection, width, height);
    this.movement = options.movement === undefined ? defaultMovement(this.projection) : this.movementModel(options.movement).name;

    const n = this.size;
    const bytes = NavGrid.storageBytes(width, height, names.length);
    const offset = options.storageOffset ?? 0;
    let storage: ArrayBufferLike;
    if (options.storage !== undefined) {
      storage = checkStorage(options.storage);
      if (offset % 4 !== 0 || storage.byteLength < offset + bytes) {
        throw new TilenavError(`storage of ${storage.byteLength} bytes at offset ${offset} cannot hold ${names.length} layers of ${width} x ${height} (${bytes} bytes, 4-byte aligned)`, { element: 'storage' });
      }
    } else {
      storage = new ArrayBuffer(bytes);
    }
    this.storage = storage;
    this.storageOffset = offset;
    const L = names.length;
    const layers: NavLayer[] = [];
    for (let l = 0; l < L; l++) {
      layers.push({
        name: names[l],
        index: l,
        cost: new Float32Array(storage, offset + l * n * 4, n),
        walkable: new Uint8Array(storage, offset + L * n * 4 + l * n, n),
        flags: new Uint8Array(storage, offset + L * n * 5 + l * n, n),
        terrain: new Uint8Array(storage, offset + L * n * 6 + l * n, n),
      });
    }
    this.layers = layers;
    this.views = layers.map(() => null);
    this.linkTable = new LinkTable(width, height, L);
    this.exitCounts = layers.map(() => ({ oneWay: 0, walls: 0 }));
    this.wallMask = squareCells(this.movement) ? FLAG_WALL_MASK : 0;
    if (options.storage === undefined) {
      const walkable = options.walkable ?? true;
      const groundId = 0;
      const groundCost = this.terrain.size > 0 ? this.terrain.get(groundId).cost : 1;
      for (const layer of layers) {
        layer.cost.fill(groundCost);
        layer.walkable.fill(walkable ? 1 : 0);
      }
    }
  }

  /** Bytes of layer storage for a grid of this size: 7 per cell per layer. */
  static storageBytes(width: number, height: number, layerCount: number): number {
    return width * height * layerCount * BYTES_PER_CELL_PER_LAYER;
  }

  /**
   * The movement model named `movement` (the grid's own when undefined), checked to fit the grid's
   * cells: a TilenavError naming `movement` for an unknown name or one that does not fit (hex
   * moves on square cells, square moves on hexagons, another hex layout).
   */
  movementModel(movement?: MovementName): MovementModel {
    const name = movement ?? this.movement;
    let m = this.fitted.get(name);
    if (m === undefined) {
      m = movementModel(name);
      const why = misfit(m, this.projection);
      if (why !== null) throw new TilenavError(`movement '${m.name}' does not fit this grid: ${why}`, { element: 'movement' });
      this.fitted.set(name, m);
    }
    return m;
  }

  // ---- derived data ------------------------------------------------------------------------

  /**
   * The derived data kept under `key`, made by `make` on first use. One style for everything a
   * grid derives: see {@link memory} and {@link releaseDerived}. @internal
   */
  derived<T extends Derived>(key: string, make: (grid: NavGrid) => T): T {
    let d = this.derivedData.get(key);
    if (d === undefined) {
      d = make(this);
      this.derivedData.set(key, d);
    }
    return d as T;
  }

  /** The derived data kept under `key`, or undefined when none was built. @internal */
  derivedIfBuilt<T extends Derived>(key: string): T | undefined {
    return this.derivedData.get(key) as T | undefined;
  }

  /**
   * What this grid holds, in bytes: its layers (7 bytes per cell per layer), the padded search view
   * of each layer searched (4 bytes per padded cell, 1 more with one-way flags or edge walls, 1 more
   * again with edge walls), and what searches
   * derived and the grid keeps: component labels (4 per padded cell per layer and connectivity),
   * landmark tables (4 per cell per landmark, on weighted layers), clearance (8 per cell, 4 per
   * padded cell per unit radius searched), the search scratch of the free `findPath` (about 20 per
   * padded cell) with what it built on demand (JPS planes and tables, hierarchies, overlays), and the subgoal graphs (12 bytes per padded cell plus the subgoals and edges, per layer). A kept `Pathfinder`'s own scratch is not the grid's and is not listed.
   */
  memory(): GridMemory {
    const entries: MemoryEntry[] = [{ name: 'layers', layer: null, bytes: NavGrid.storageBytes(this.width, this.height, this.layers.length) }];
    this.views.forEach((v, l) => {
      if (v !== null) entries.push({ name: 'search view', layer: l, bytes: v.pass.byteLength + (v.exits?.byteLength ?? 0) + (v.walls?.byteLength ?? 0) });
    });
    if (this.linkTable.bytes > 0) entries.push({ name: 'links', layer: null, bytes: this.linkTable.bytes });
    for (const d of this.derivedData.values()) d.memory(entries);
    let total = 0;
    for (const e of entries) total += e.bytes;
    return { total, entries };
  }

  /**
   * Frees everything searches derived from the grid and the grid keeps (component labels,
   * landmark tables, clearance, the free `findPath`'s scratch); the next search builds what it
   * needs again. The layers and their search views stay: kept Pathfinders read the views.
   */
  releaseDerived(): void {
    for (const [key, d] of [...this.derivedData]) {
      if (d.kept === true) continue;
      this.derivedData.delete(key);
      d.release();
    }
  }

  // ---- coordinates -------------------------------------------------------------------------

  /** True when (x, y) is an integer cell inside the grid. */
  inBounds(x: number, y: number): boolean {
    return Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < this.width && y < this.height;
  }

  /** The index of cell (x, y), `y * width + x`. Throws a TilenavError outside the grid. */
  index(x: number, y: number): number {
    if (!this.inBounds(x, y)) throw this.outside(x, y, 'cell');
    return y * this.width + x;
  }

  /** The x of cell index i. */
  xOf(i: number): number {
    return i % this.width;
  }

  /** The y of cell index i. */
  yOf(i: number): number {
    return (i - (i % this.width)) / this.width;
  }

  /** Resolves a layer by name or index; throws a TilenavError naming the known layers. */
  layerIndex(layer: number | string = 0): number {
    if (typeof layer === 'number') {
      if (Number.isInteger(layer) && layer >= 0 && layer < this.layers.length) return layer;
    } else if (typeof layer === 'string') {
      const i = this.layers.findIndex((l) => l.name === layer);
      if (i >= 0) return i;
    }
    throw new TilenavError(`unknown layer; this grid has ${this.layers.map((l, i) => `${i} "${l.name}"`).join(', ')}`, { element: `layer ${describe(layer)}` });
  }

  /** The layer `layer` (index or name); throws a TilenavError for an unknown one. */
  layer(layer: number | string = 0): NavLayer {
    return this.layers[this.layerIndex(layer)];
  }

  // ---- reads -------------------------------------------------------------------------------

  /** Whether (x, y) can be entered on `layer`. False outside the grid (no error). */
  isWalkable(x: number, y: number, layer: number | string = 0): boolean {
    if (!this.inBounds(x, y)) return false;
    return this.layers[typeof layer === 'number' && Number.isInteger(layer) && layer >= 0 && layer < this.layers.length ? layer : this.layerIndex(layer)].walkable[y * this.width + x] === 1;
  }

  /** Traversal cost of (x, y) on `layer` (kept while the cell is blocked). Throws outside the grid. */
  getCost(x: number, y: number, layer: number | string = 0): number {
    return this.layer(layer).cost[this.index(x, y)];
  }

  /** The flag bits of (x, y) on `layer`; 0 outside the grid. */
  getFlags(x: number, y: number, layer: number | string = 0): number {
    return this.layer(layer).flags[this.index(x, y)];
  }

  /** The terrain name of (x, y) on `layer`. */
  getTerrain(x: number, y: number, layer: number | string = 0): string {
    return this.terrain.get(this.layer(layer).terrain[this.index(x, y)]).name;
  }

  /** Total, walkable and blocked cells of each layer. */
  stats(): LayerStats[] {
    return this.layers.map((l) => {
      let walkable = 0;
      const w = l.walkable;
      for (let i = 0; i < w.length; i++) walkable += w[i];
      return { name: l.name, total: this.size, walkable, blocked: this.size - walkable };
    });
  }

  // ---- writes ------------------------------------------------------------------------------

  /** Makes (x, y) walkable or blocked on `layer` (its cost is kept); throws outside the grid. */
  setWalkable(x: number, y: number, walkable: boolean, layer: number | string = 0): void {
    this.fillRect(x, y, 1, 1, { walkable }, layer);
  }

  /**
   * Sets the traversal cost; walkability is unchanged. The cost must fit the float32 cost array as
   * given: 2^-126 (about 1.18e-38) to about 3.4e38, else a TilenavError naming `cost`.
   */
  setCost(x: number, y: number, cost: number, layer: number | string = 0): void {
    this.fillRect(x, y, 1, 1, { cost }, layer);
  }

  /**
   * Sets the flag bits of (x, y) on `layer` (FLAG_*), all 8: the wall bits too, so to change one
   * flag keep the others (`getFlags(x, y) | FLAG_SAFE_ZONE`), or write walls with
   * {@link setEdgeWall}. Throws outside the grid.
   */
  setFlags(x: number, y: number, flags: number, layer: number | string = 0): void {
    this.fillRect(x, y, 1, 1, { flags }, layer);
  }

  /** Sets a cell's terrain: its id, its cost, and walkable unless the terrain is impassable. */
  setTerrain(x: number, y: number, terrain: string | number, layer: number | string = 0): void {
    this.fillRect(x, y, 1, 1, { terrain }, layer);
  }

  /**
   * Writes `values` into every cell of the rectangle (x, y, width, height) on `layer`, then emits
   * one change event. The rectangle must lie inside the grid.
   */
  fillRect(x: number, y: number, width: number, height: number, values: CellValues, layer: number | string = 0): void {
    const l = this.layerIndex(layer);
    this.checkRect(x, y, width, height);
    if (values === null || typeof values !== 'object') throw new TilenavError(`expected cell values such as { walkable: false } or { cost: 2 }, got ${describe(values)}`, { element: 'values' });
    const { walkable, cost, flags, terrain } = values;
    let terrainId = -1;
    let terrainCost = 0;
    let terrainWalk = true;
    if (terrain !== undefined) {
      terrainId = typeof terrain === 'number' ? terrain : this.terrain.id(terrain);
      const t = this.terrain.get(terrainId);
      terrainCost = t.cost;
      terrainWalk = t.walkable;
    }
    if (cost !== undefined) assertCost(cost, 'cost', '; to block a cell set walkable: false');
    if (flags !== undefined && (!Number.isInteger(flags) || flags < 0 || flags > 255)) {
      throw new TilenavError(`expected flags 0..255, got ${describe(flags)}`, { element: 'flags' });
    }
    if (walkable !== undefined && typeof walkable !== 'boolean') {
      throw new TilenavError(`expected true or false, got ${describe(walkable)}`, { element: 'walkable' });
    }
    const data = this.layers[l];
    let opened = false;
    // With flags: the change in cells with one-way bits and in walled edges, and whether a wall moved.
    let oneWayDelta = 0;
    let wallDelta = 0;
    let wallsMoved = false;
    const wallMask = this.wallMask;
    for (let yy = y; yy < y + height; yy++) {
      let i = yy * this.width + x;
      for (let xx = x; xx < x + width; xx++, i++) {
        const wasWalkable = data.walkable[i];
        const wasCost = data.cost[i];
        const wasFlags = data.flags[i];
        if (terrainId >= 0) {
          data.terrain[i] = terrainId;
          data.cost[i] = terrainCost;
          data.walkable[i] = terrainWalk ? 1 : 0;
        }
        if (cost !== undefined) data.cost[i] = cost;
        if (walkable !== undefined) data.walkable[i] = walkable ? 1 : 0;
        if (flags !== undefined) {
          data.flags[i] = flags;
          oneWayDelta += ((flags & FLAG_ONE_WAY_MASK) !== 0 ? 1 : 0) - ((wasFlags & FLAG_ONE_WAY_MASK) !== 0 ? 1 : 0);
          if (((wasFlags ^ flags) & wallMask) !== 0) {
            wallsMoved = true;
            wallDelta += wallEdges(flags & wallMask, xx, yy) - wallEdges(wasFlags & wallMask, xx, yy);
            // A wall taken down opens a way even beside a blocked cell: a corner-cutting diagonal.
            if ((wasFlags & ~flags & wallMask) !== 0) opened = true;
          }
        }
        // A way opens where a cell is walkable now and was blocked, dearer, or one-way.
        if (data.walkable[i] === 1 && (wasWalkable === 0 || data.cost[i] < wasCost || (wasFlags & ~data.flags[i] & FLAG_ONE_WAY_MASK) !== 0)) opened = true;
      }
    }
    const wrote = walkable ?? (terrainId >= 0 ? terrainWalk : undefined);
    if (wrote !== undefined) for (const fn of this.walkWriters) fn(l, { x, y, width, height }, wrote);
    // A cell's wall bits are the edges it shares with the cells north and west of it: those cells
    // changed too (their moves across the edge, and the diagonals past its ends, which all touch
    // one of the two cells sharing it).
    const rect = wallsMoved ? { x: Math.max(0, x - 1), y: Math.max(0, y - 1), width: width + (x > 0 ? 1 : 0), height: height + (y > 0 ? 1 : 0) } : { x, y, width, height };
    this.changed(l, rect, opened, flags !== undefined, oneWayDelta, wallDelta);
  }

  // ---- edge walls --------------------------------------------------------------------------

  /**
   * Puts up (`on` true) or takes down a wall on one edge of cell (x, y): a fence, a thin wall or a
   * closed gate between two cells that both stay walkable. Both cells sharing the edge see it, so
   * `setEdgeWall(x, y, 'east', true)` and `setEdgeWall(x + 1, y, 'west', true)` are the same write.
   * Sides are in tile coordinates: north is toward y - 1, east toward x + 1, whatever the
   * projection draws (on an isometric map north is the diamond's upper right edge).
   *
   * Every movement model refuses a step across a walled edge. A diagonal step passes through the
   * corner point its two side cells share; it is refused when a wall touches that point (any of
   * the four edges meeting there), under every octile model: `octile-one-obstacle` and
   * `octile-always` cut corners past blocked cells, never past walls. Walls are stored in the
   * cells' flag bits ({@link FLAG_WALL_NORTH}, {@link FLAG_WALL_WEST}), apart from the one-way
   * bits, so a wall outlives any change to a cell's one-way flags (though `setFlags` and `fillRect`
   * with `flags` write all 8 bits, walls included); they travel with the grid's buffer and the
   * binary format. The grid's outer edge is closed already: a wall there is not stored and the
   * write does nothing (no change event). One change event covering the two cells; `opened` when
   * a wall came down.
   *
   * Square cells only: on a grid whose cells are hexagonal or staggered (its `movement` is `hex...`
   * or `staggered...`) it throws a TilenavError naming `side`. Also throws for a cell outside the
   * grid, an unknown side or an `on` that is not a boolean.
   */
  setEdgeWall(x: number, y: number, side: EdgeSide, on: boolean, layer: number | string = 0): void {
    const l = this.layerIndex(layer);
    const edge = this.edgeOf(x, y, side);
    if (typeof on !== 'boolean') throw new TilenavError(`expected true or false, got ${describe(on)}`, { element: 'on' });
    if (edge >= 0) this.writeWall(l, edge, on);
  }

  /**
   * Whether a wall stands on that edge of cell (x, y) (see {@link setEdgeWall}); false on the
   * grid's outer edge, which holds no walls. Throws as setEdgeWall does for a cell outside the
   * grid, an unknown side or hexagonal cells.
   */
  hasEdgeWall(x: number, y: number, side: EdgeSide, layer: number | string = 0): boolean {
    const l = this.layerIndex(layer);
    const edge = this.edgeOf(x, y, side);
    return edge >= 0 && (this.layers[l].flags[edge >> 1] & ((edge & 1) === 1 ? FLAG_WALL_WEST : FLAG_WALL_NORTH)) !== 0;
  }

  /**
   * Puts up (or takes down) walls on every edge of the outline of the rectangle (x, y, width,
   * height): a fence around a pen, a building's walls. Edges on the grid's outer edge are left as
   * they are. One change event (a batch); throws as {@link setEdgeWall} does, and for a rectangle
   * that does not lie inside the grid.
   */
  setEdgeWallsAround(x: number, y: number, width: number, height: number, on: boolean, layer: number | string = 0): void {
    const l = this.layerIndex(layer);
    this.checkRect(x, y, width, height);
    this.assertSquareCells();
    if (typeof on !== 'boolean') throw new TilenavError(`expected true or false, got ${describe(on)}`, { element: 'on' });
    const W = this.width;
    this.batch(() => {
      for (let xx = x; xx < x + width; xx++) {
        if (y > 0) this.writeWall(l, 2 * (y * W + xx), on);
        if (y + height < this.height) this.writeWall(l, 2 * ((y + height) * W + xx), on);
      }
      for (let yy = y; yy < y + height; yy++) {
        if (x > 0) this.writeWall(l, 2 * (yy * W + x) + 1, on);
        if (x + width < W) this.writeWall(l, 2 * (yy * W + x + width) + 1, on);
      }
    });
  }

  /**
   * The edge `side` of cell (x, y) as 2 x (index of the cell holding its bit) + (0 north, 1 west),
   * or -1 on the grid's outer edge. Throws for hexagonal cells, a cell outside, an unknown side.
   */
  private edgeOf(x: number, y: number, side: EdgeSide): number {
    this.assertSquareCells();
    if (!this.inBounds(x, y)) throw this.outside(x, y, 'cell');
    switch (side) {
      case 'north':
        return y > 0 ? 2 * (y * this.width + x) : -1;
      case 'west':
        return x > 0 ? 2 * (y * this.width + x) + 1 : -1;
      case 'south':
        return y + 1 < this.height ? 2 * ((y + 1) * this.width + x) : -1;
      case 'east':
        return x + 1 < this.width ? 2 * (y * this.width + x + 1) + 1 : -1;
      default:
        throw new TilenavError(`expected 'north', 'east', 'south' or 'west', got ${describe(side)}`, { element: 'side' });
    }
  }

  /** Edge walls need north, east, south and west edges: a TilenavError naming `side` on hexagonal and staggered cells. */
  private assertSquareCells(): void {
    if (this.wallMask === 0) {
      throw new TilenavError(`edge walls need square cells (north, east, south, west edges); this grid's cells are hexagonal or staggered (movement '${this.movement}')`, { element: 'side' });
    }
  }

  /** Writes one wall bit (an edge from {@link edgeOf}, not on the outer edge) and reports the two cells sharing it. */
  private writeWall(l: number, edge: number, on: boolean): void {
    const i = edge >> 1;
    const west = (edge & 1) === 1;
    const bit = west ? FLAG_WALL_WEST : FLAG_WALL_NORTH;
    const flags = this.layers[l].flags;
    const was = (flags[i] & bit) !== 0;
    flags[i] = on ? flags[i] | bit : flags[i] & ~bit;
    const x = i % this.width;
    const y = (i - x) / this.width;
    const rect = west ? { x: x - 1, y, width: 2, height: 1 } : { x, y: y - 1, width: 1, height: 2 };
    this.changed(l, rect, was && !on, true, 0, (on ? 1 : 0) - (was ? 1 : 0));
  }

  // ---- links -------------------------------------------------------------------------------

  /**
   * Adds a link: stairs, a ladder, a door between rooms far apart, a teleporter or a jump between
   * two cells of the same layer or of two layers, which every exact search follows (docs/paths.md,
   * "Links"). Taking it costs `cost` (finite, >= 0), whatever the cells' own costs; it may be taken
   * while it is enabled and both its cells are walkable; `bidirectional: false` makes it one way.
   * A change event follows for each end's cell (`opened` true when it is enabled), so the
   * component labels, the agents and the path service follow. Returns its id. Throws a
   * TilenavError naming `from`, `to`, `cost`, `bidirectional` or `enabled` for bad input.
   * @example grid.addLink({ from: { x: 3, y: 4 }, to: { x: 3, y: 4, layer: 'Sky' }, cost: 5 }) // stairs up
   */
  addLink(link: LinkSpec): number {
    assertOptionsObject(link, 'link');
    if (link === null || link === undefined) throw new TilenavError('expected a link such as { from: { x, y }, to: { x, y }, cost }', { element: 'link' });
    const from = this.linkEnd(link.from, 'from');
    const to = this.linkEnd(link.to, 'to');
    if (from.x === to.x && from.y === to.y && from.layer === to.layer) throw new TilenavError(`leads back to its own cell (${from.x}, ${from.y}) on layer ${from.layer}`, { element: 'to' });
    const cost = link.cost;
    if (typeof cost !== 'number' || !(cost >= 0) || cost === Infinity) throw new TilenavError(`expected a finite link cost >= 0, got ${describe(cost)}`, { element: 'cost' });
    const bidirectional = linkFlag(link.bidirectional, 'bidirectional', true);
    const enabled = linkFlag(link.enabled, 'enabled', true);
    const k = this.linkTable.add({ from, to, cost, bidirectional, enabled });
    this.linkChanged(k, enabled);
    return k.id;
  }

  /**
   * Switches link `id` on or off (a door opened or locked, a teleporter powered). A change event
   * follows for each end's cell when it changed (`opened` true when switched on). Throws a
   * TilenavError naming `id` for an unknown link.
   */
  setLinkEnabled(id: number, enabled: boolean): void {
    const was = this.linkTable.get(id);
    if (typeof enabled !== 'boolean') throw new TilenavError(`expected true or false, got ${describe(enabled)}`, { element: 'enabled' });
    if (was.enabled === enabled) return;
    this.linkChanged(this.linkTable.set(id, enabled), enabled);
  }

  /** Removes link `id` (its id is never handed out again), with a change event for each end's cell. Throws a TilenavError naming `id` for an unknown link. */
  removeLink(id: number): void {
    this.linkChanged(this.linkTable.remove(id), false);
  }

  /** Every link of the grid, enabled or not, in id order (copies: change them through the grid). */
  links(): NavLink[] {
    return this.linkTable.list();
  }

  /** The enabled links as the searches read them, compiled on first use after a change. @internal */
  linkIndex(): LinkIndex {
    return this.linkTable.index();
  }

  /** Increases by one with every change of the links. @internal */
  get linksVersion(): number {
    return this.linkTable.version;
  }

  /** Replaces every link with `links`, ids kept, with one change event per layer: a worker's copy follows the main grid. @internal */
  replaceLinks(links: readonly NavLink[]): void {
    const touched = [...this.linkTable.list(), ...links];
    this.linkTable.replace(links);
    this.batch(() => {
      for (const k of touched) this.linkChanged(k, true);
    });
  }

  private linkEnd(end: LinkEndSpec, name: string): { x: number; y: number; layer: number } {
    if (end === null || typeof end !== 'object') throw new TilenavError(`expected a cell such as { x: 3, y: 4, layer: 0 }, got ${describe(end)}`, { element: name });
    const { x, y } = end;
    if (!this.inBounds(x, y)) throw this.outside(x, y, name);
    let layer: number;
    try {
      layer = this.layerIndex(end.layer ?? 0);
    } catch (e) {
      if (!(e instanceof TilenavError)) throw e;
      throw new TilenavError(e.message.slice((e.element?.length ?? -2) + 2), { element: `${name}.layer ${describe(end.layer)}` });
    }
    return Object.freeze({ x, y, layer });
  }

  /** The change events of a link's two cells. */
  private linkChanged(k: NavLink, opened: boolean): void {
    this.changed(k.from.layer, { x: k.from.x, y: k.from.y, width: 1, height: 1 }, opened, false);
    this.changed(k.to.layer, { x: k.to.x, y: k.to.y, width: 1, height: 1 }, opened, false);
  }

  /**
   * Calls `listener` after every write that sets walkability (setWalkable, setTerrain, fillRect
   * with `walkable` or `terrain`), with the rectangle and the value written, at once, even inside
   * a batch and even when the cells held that value already: what a blocker registry needs to
   * tell a wall written under a closed door from the door itself. Returns the unsubscribe function.
   */
  onWalkableWrite(listener: (layer: number, rect: CellRect, walkable: boolean) => void): () => void {
    this.walkWriters.add(listener);
    return () => this.walkWriters.delete(listener);
  }

  /**
   * Runs `fn` and coalesces every change it makes into one event per layer (the bounding
   * rectangle), e.g. while a level editor paints a stroke. A search (or {@link searchView}) inside
   * `fn` sends the events of the writes so far first, so it sees them; the rest follow at the end.
   */
  batch(fn: () => void): void {
    if (typeof fn !== 'function') throw new TilenavError(`expected a function, got ${describe(fn)}`, { element: 'fn' });
    this.batchDepth++;
    try {
      fn();
    } finally {
      if (--this.batchDepth === 0) this.emitPending();
    }
  }

  /** Sends the events a running batch has held back so far (one per layer), and forgets them. */
  private emitPending(): void {
    const pending = this.pending;
    const opened = this.pendingOpened;
    this.pending = [];
    this.pendingOpened = [];
    pending.forEach((rects, l) => {
      if (rects) this.emit(l, rects.reduce(unionRect), rects, opened[l] === true);
    });
  }

  /**
   * Call after writing a layer's arrays directly (loaders do): brings the search's copy up to
   * date for the rectangle (the whole grid by default) and emits a change event.
   */
  refresh(layer?: number | string, rect?: CellRect): void {
    const list = layer === undefined ? this.layers.map((_, i) => i) : [this.layerIndex(layer)];
    const r = rect ?? { x: 0, y: 0, width: this.width, height: this.height };
    this.checkRect(r.x, r.y, r.width, r.height);
    for (const l of list) {
      const view = this.views[l];
      if (view) {
        view.exitsValid = false;
        view.statsValid = false;
      }
      this.changed(l, r, true, false);
    }
  }

  /**
   * A terrain of the grid's table changed cost: cells holding it at its old cost (as a float32
   * stores it) take the new one; a cell whose cost was set on its own keeps it. One change event
   * per layer that changed, over the changed cells' bounding rectangle.
   */
  private followTerrainCost(id: number, was: Terrain): void {
    const old = Math.fround(was.cost);
    const now = this.terrain.get(id).cost;
    for (const layer of this.layers) {
      const { terrain, cost } = layer;
      let x0 = this.width;
      let y0 = this.height;
      let x1 = -1;
      let y1 = -1;
      for (let i = 0; i < this.size; i++) {
        if (terrain[i] !== id || cost[i] !== old) continue;
        cost[i] = now;
        const x = i % this.width;
        const y = (i - x) / this.width;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        y1 = y;
      }
      if (x1 >= 0) this.refresh(layer.index, { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 });
    }
  }

  /** Calls `listener` after every change (or once per `batch`). Returns the unsubscribe function. */
  onChange(listener: (change: GridChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Queues `fn` to run before the next search reads this grid (lazily applied dirty regions: an
   * obstacle registry queues its flush here). Queuing the same function twice runs it once.
   */
  defer(fn: () => void): void {
    this.deferred.add(fn);
  }

  /** Runs the work queued with {@link defer} now. Searches call it; so may a game before reading. */
  applyDeferred(): void {
    if (this.deferred.size === 0) return;
    const fns = [...this.deferred];
    this.deferred.clear();
    for (const fn of fns) fn();
  }

  /**
   * The padded copy of layer `layer` (an index) the search reads, built on first use and kept in
   * step with every change since; about 4 bytes per cell. Read only.
   */
  searchView(layer: number): SearchView {
    if (this.deferred.size > 0) this.applyDeferred();
    // A search inside a batch: what follows the grid through change events (landmark tables,
    // component labels, jump tables) must hear of the writes so far first, or it reads stale data.
    if (this.batchDepth > 0 && this.pending.length > 0) this.emitPending();
    let view = this.views[layer];
    if (view === null) {
      const stride = strideOf(this.width);
      view = {
        stride,
        pass: new Float32Array(paddedSize(this.width, this.height)),
        exits: null,
        walls: null,
        minCost: 1,
        maxCost: 1,
        uniform: true,
        statsValid: false,
        exitsValid: false,
      };
      this.views[layer] = view;
      this.copyToView(layer, view, 0, 0, this.width, this.height);
    }
    if (!view.statsValid) this.computeStats(layer, view);
    if (!view.exitsValid) this.computeExits(layer, view);
    return view;
  }

  /**
   * Brings the layer's view up to date for `rect` and reports the change. `flagsWritten`: flag bits
   * were written in it, changing the count of cells with one-way bits by `oneWayDelta` and of
   * walled edges by `wallDelta`.
   */
  private changed(layer: number, rect: CellRect, opened: boolean, flagsWritten: boolean, oneWayDelta = 0, wallDelta = 0): void {
    const view = this.views[layer];
    if (view) {
      this.copyToView(layer, view, rect.x, rect.y, rect.width, rect.height);
      if (flagsWritten && view.exitsValid) this.updateExits(layer, view, rect, oneWayDelta, wallDelta);
    }
    if (this.batchDepth > 0) {
      addChangedRect((this.pending[layer] ??= []), rect);
      if (opened) this.pendingOpened[layer] = true;
      return;
    }
    this.emit(layer, rect, [{ ...rect }], opened);
  }

  private emit(layer: number, rect: CellRect, rects: readonly CellRect[], opened: boolean): void {
    this.version++;
    if (this.listeners.size === 0) return;
    const change: GridChange = { layer, x: rect.x, y: rect.y, width: rect.width, height: rect.height, version: this.version, rects, opened };
    for (const fn of this.listeners) fn(change);
  }

  /**
   * Copies a rectangle into the padded view. The cost bounds only widen here (a cheaper or dearer
   * cell), which keeps the heuristic admissible without rescanning the grid on every change;
   * `refresh()` recomputes them exactly.
   */
  private copyToView(layer: number, view: SearchView, x: number, y: number, w: number, h: number): void {
    const { walkable, cost } = this.layers[layer];
    const pass = view.pass;
    let min = view.minCost;
    let max = view.maxCost;
    for (let yy = y; yy < y + h; yy++) {
      let i = yy * this.width + x;
      let p = padXY(view.stride, x, yy);
      for (let xx = 0; xx < w; xx++, i++, p++) {
        if (walkable[i] === 1) {
          const c = cost[i];
          pass[p] = c;
          if (c < min) min = c;
          if (c > max) max = c;
        } else {
          pass[p] = 0;
        }
      }
    }
    view.minCost = min;
    view.maxCost = max;
    view.uniform = min === max;
  }

  private computeStats(layer: number, view: SearchView): void {
    const { walkable, cost } = this.layers[layer];
    let min = Infinity;
    let max = 0;
    for (let i = 0; i < this.size; i++) {
      if (walkable[i] === 1) {
        const c = cost[i];
        if (c < min) min = c;
        if (c > max) max = c;
      }
    }
    if (min === Infinity) min = max = 1;
    view.minCost = min;
    view.maxCost = max;
    view.uniform = min === max;
    view.statsValid = true;
  }

  /** Builds the view's exit and wall bits from the layer's flags, counting one-way cells and walled edges. */
  private computeExits(layer: number, view: SearchView): void {
    const flags = this.layers[layer].flags;
    const wallMask = this.wallMask;
    let oneWay = 0;
    let walls = 0;
    for (let y = 0, i = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++, i++) {
        const f = flags[i];
        if ((f & FLAG_ONE_WAY_MASK) !== 0) oneWay++;
        if ((f & wallMask) !== 0) walls += wallEdges(f & wallMask, x, y);
      }
    }
    const counts = this.exitCounts[layer];
    counts.oneWay = oneWay;
    counts.walls = walls;
    view.exitsValid = true;
    if (oneWay === 0 && walls === 0) {
      view.exits = null;
      view.walls = null;
      return;
    }
    const n = view.pass.length;
    const exits = view.exits ?? new Uint8Array(n);
    view.exits = exits;
    view.walls = walls > 0 ? (view.walls?.fill(0) ?? new Uint8Array(n)) : null;
    // Each wall marks the cells beside it and around its two ends: O(walls), not a gather per cell.
    if (view.walls !== null) scatterWalls(flags, this.width, this.height, view.stride, view.walls);
    const w = view.walls;
    for (let y = 0, i = 0; y < this.height; y++) {
      let p = padXY(view.stride, 0, y);
      for (let x = 0; x < this.width; x++, i++, p++) exits[p] = oneWayExits(flags[i]) | (w === null ? 0 : w[p]);
    }
  }

  /**
   * Rewrites the view's exit and wall bits around `rect` after its flags changed (one cell around
   * it: a wall bit shows in the cells on both sides of its edge and at both its ends), allocating
   * the arrays when the first one-way flag or wall appears and dropping them when the last goes.
   */
  private updateExits(layer: number, view: SearchView, rect: CellRect, oneWayDelta: number, wallDelta: number): void {
    const counts = this.exitCounts[layer];
    counts.oneWay += oneWayDelta;
    counts.walls += wallDelta;
    if (counts.oneWay === 0 && counts.walls === 0) {
      view.exits = null;
      view.walls = null;
      return;
    }
    const n = view.pass.length;
    const exits = (view.exits ??= new Uint8Array(n));
    const walls = counts.walls > 0 ? (view.walls ??= new Uint8Array(n)) : (view.walls = null);
    const flags = this.layers[layer].flags;
    const W = this.width;
    const H = this.height;
    const x0 = Math.max(0, rect.x - 1);
    const x1 = Math.min(W, rect.x + rect.width + 1);
    for (let y = Math.max(0, rect.y - 1), y1 = Math.min(H, rect.y + rect.height + 1); y < y1; y++) {
      let p = padXY(view.stride, x0, y);
      for (let x = x0, i = y * W + x0; x < x1; x++, i++, p++) {
        const w = walls === null ? 0 : wallBits(flags, W, H, x, y);
        if (walls !== null) walls[p] = w;
        exits[p] = oneWayExits(flags[i]) | w;
      }
    }
  }

  private checkRect(x: number, y: number, width: number, height: number): void {
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
      throw new TilenavError(`expected a rectangle of at least 1 x 1 cells, got ${describe(width)} x ${describe(height)}`, { element: 'rectangle' });
    }
    if (!this.inBounds(x, y) || !this.inBounds(x + width - 1, y + height - 1)) {
      throw new TilenavError(`(${describe(x)}, ${describe(y)}) ${width} x ${height} does not lie inside the ${this.width} x ${this.height} grid`, { element: 'rectangle' });
    }
  }

  private outside(x: unknown, y: unknown, what: string): TilenavError {
    return new TilenavError(`(${describe(x)}, ${describe(y)}) is not a cell of this ${this.width} x ${this.height} grid (x 0..${this.width - 1}, y 0..${this.height - 1})`, { element: what });
  }

  // ---- helpers for a first grid and for reading paths ------------------------------------------

  /**
   * A grid from rows of cells, `rows[y][x]`, as PathFinding.js takes them: by default 0 is
   * walkable and any other number blocked; with `{ costs: true }` each number is the cell's cost
   * and 0 blocks. A matrix of booleans reads true as walkable and false as blocked, as `walkable`
   * does everywhere in a grid (the opposite of the numbers' 1, so a matrix mixing the two is
   * refused). Other options are the constructor's; the matrix fills the first layer, other layers
   * start walkable. Ragged rows, a mix of numbers and booleans, and NaN, negative or infinite
   * numbers are refused with a TilenavError naming `rows[y][x]`.
   * @example NavGrid.fromMatrix([[0, 0, 1], [1, 0, 0]]) // 3 x 2, (2, 0) and (0, 1) blocked
   */
  static fromMatrix(rows: readonly (readonly (number | boolean)[])[], options: FromMatrixOptions = {}): NavGrid {
    return gridFromMatrix(rows, options);
  }

  /** The cells of a path (indices such as `PathResult.cells`) as `[x, y]` pairs, in order. */
  cellsToXY(cells: ArrayLike<number>): [number, number][] {
    assertCellIndices(cells, this.size, 'cells');
    return Array.from(cells, (i) => [this.xOf(i), this.yOf(i)]);
  }

  /**
   * The centres of a path's cells in world units through {@link projection} (`cellToWorld`): x, y
   * for 2D projections (z 0), x, z for the continuous world (y its floor). One object per cell:
   * for a path, not a whole grid.
   */
  cellsToWorld(cells: ArrayLike<number>): WorldPoint[] {
    assertCellIndices(cells, this.size, 'cells');
    return Array.from(cells, (i) => this.projection.cellToWorld(this.xOf(i), this.yOf(i)));
  }
}

function linkFlag(v: unknown, name: string, fallback: boolean): boolean {
  if (v === undefined) return fallback;
  if (typeof v !== 'boolean') throw new TilenavError(`expected true or false, got ${describe(v)}`, { element: name });
  return v;
}

/** The sides of a square cell, in tile coordinates: north is toward y - 1, east toward x + 1. */
export type EdgeSide = 'north' | 'east' | 'south' | 'west';

/** Whether a movement model's cells are squares (hexagonal and staggered cells are not). */
function squareCells(movement: MovementName): boolean {
  return !movement.startsWith('hex') && !movement.startsWith('staggered');
}

/** The walled edges inside the grid that the wall bits `f` of cell (x, y) stand for (none on the outer edge). */
function wallEdges(f: number, x: number, y: number): number {
  return ((f & FLAG_WALL_NORTH) !== 0 && y > 0 ? 1 : 0) + ((f & FLAG_WALL_WEST) !== 0 && x > 0 ? 1 : 0);
}

/**
 * A cell's one-way flags as view exit bits: the FLAG_NO_EXIT_* bits, and the corner bits of the
 * diagonals that move in a refused direction (a diagonal is refused by its corner bit alone, see
 * `exitMask`).
 */
function oneWayExits(f: number): number {
  const n = (f & FLAG_NO_EXIT_NORTH) !== 0;
  const e = (f & FLAG_NO_EXIT_EAST) !== 0;
  const s = (f & FLAG_NO_EXIT_SOUTH) !== 0;
  const w = (f & FLAG_NO_EXIT_WEST) !== 0;
  return (f & FLAG_ONE_WAY_MASK) | (n || e ? EXIT_CORNER_NE : 0) | (s || e ? EXIT_CORNER_SE : 0) | (s || w ? EXIT_CORNER_SW : 0) | (n || w ? EXIT_CORNER_NW : 0);
}

/**
 * The view's wall byte of cell (x, y) (see `exitMask` in padded.ts): the FLAG_NO_EXIT_* bit of each
 * of its four edges that is walled, and the corner bit of each corner point a wall touches. Reads
 * the wall bits of the cells within one of it; the outer edge holds no walls.
 */
function wallBits(flags: Uint8Array, W: number, H: number, x: number, y: number): number {
  const north = wallN(flags, W, H, x, y);
  const south = wallN(flags, W, H, x, y + 1);
  const west = wallW(flags, W, H, x, y);
  const east = wallW(flags, W, H, x + 1, y);
  let b = (north ? FLAG_NO_EXIT_NORTH : 0) | (east ? FLAG_NO_EXIT_EAST : 0) | (south ? FLAG_NO_EXIT_SOUTH : 0) | (west ? FLAG_NO_EXIT_WEST : 0);
  // Each corner point: the cell's two edges ending there and the two edges beyond it.
  if (north || east || wallN(flags, W, H, x + 1, y) || wallW(flags, W, H, x + 1, y - 1)) b |= EXIT_CORNER_NE;
  if (south || east || wallN(flags, W, H, x + 1, y + 1) || wallW(flags, W, H, x + 1, y + 1)) b |= EXIT_CORNER_SE;
  if (south || west || wallN(flags, W, H, x - 1, y + 1) || wallW(flags, W, H, x, y + 1)) b |= EXIT_CORNER_SW;
  if (north || west || wallN(flags, W, H, x - 1, y) || wallW(flags, W, H, x, y - 1)) b |= EXIT_CORNER_NW;
  return b;
}

/** Whether the north edge of (x, y), the horizontal edge above it, is walled (never on the outer edge). */
function wallN(flags: Uint8Array, W: number, H: number, x: number, y: number): boolean {
  return x >= 0 && x < W && y > 0 && y < H && (flags[y * W + x] & FLAG_WALL_NORTH) !== 0;
}

/** Whether the west edge of (x, y), the vertical edge left of it, is walled (never on the outer edge). */
function wallW(flags: Uint8Array, W: number, H: number, x: number, y: number): boolean {
  return x > 0 && x < W && y >= 0 && y < H && (flags[y * W + x] & FLAG_WALL_WEST) !== 0;
}

/**
 * {@link wallBits} of every cell at once into `walls` (zeroed, padded with row length `stride`):
 * each walled edge marks the two cells sharing it and the four cells around each of its ends.
 */
function scatterWalls(flags: Uint8Array, W: number, H: number, stride: number, walls: Uint8Array): void {
  const mark = (x: number, y: number, bit: number) => {
    if (x >= 0 && y >= 0 && x < W && y < H) walls[padXY(stride, x, y)] |= bit;
  };
  // The four cells around the corner point between cells (x - 1, y - 1) and (x, y).
  const corner = (x: number, y: number) => {
    mark(x - 1, y - 1, EXIT_CORNER_SE);
    mark(x, y - 1, EXIT_CORNER_SW);
    mark(x - 1, y, EXIT_CORNER_NE);
    mark(x, y, EXIT_CORNER_NW);
  };
  for (let y = 0, i = 0; y < H; y++) {
    for (let x = 0; x < W; x++, i++) {
      const f = flags[i];
      if ((f & FLAG_WALL_NORTH) !== 0 && y > 0) {
        mark(x, y, FLAG_NO_EXIT_NORTH);
        mark(x, y - 1, FLAG_NO_EXIT_SOUTH);
        corner(x, y);
        corner(x + 1, y);
      }
      if ((f & FLAG_WALL_WEST) !== 0 && x > 0) {
        mark(x, y, FLAG_NO_EXIT_WEST);
        mark(x - 1, y, FLAG_NO_EXIT_EAST);
        corner(x, y);
        corner(x, y + 1);
      }
    }
  }
}

function layerNames(layers: number | readonly string[] | undefined): string[] {
  if (layers === undefined) return [DEFAULT_LAYER_NAMES[0]];
  if (typeof layers === 'number') {
    if (!Number.isInteger(layers) || layers < 1 || layers > MAX_LAYERS) {
      throw new TilenavError(`expected 1 to ${MAX_LAYERS} layers, got ${describe(layers)}`, { element: 'layers' });
    }
    return DEFAULT_LAYER_NAMES.slice(0, layers);
  }
  if (!Array.isArray(layers) || layers.length < 1 || layers.length > MAX_LAYERS) {
    throw new TilenavError(`expected 1 to ${MAX_LAYERS} layer names`, { element: 'layers' });
  }
  const seen = new Set<string>();
  for (const name of layers) {
    if (typeof name !== 'string' || name === '') throw new TilenavError('layer names must be non-empty strings', { element: 'layers' });
    if (seen.has(name)) throw new TilenavError(`layer name ${JSON.stringify(name)} appears twice`, { element: 'layers' });
    seen.add(name);
  }
  return [...layers];
}

/** Options of {@link NavGrid.fromMatrix}: the constructor's, less what the matrix itself says. */
export interface FromMatrixOptions extends Omit<NavGridOptions, 'walkable' | 'storage' | 'storageOffset'> {
  /** Numbers are costs (0 blocked) rather than 0 walkable / non-zero blocked. @default false */
  costs?: boolean;
}

function gridFromMatrix(rows: readonly (readonly (number | boolean)[])[], options: FromMatrixOptions): NavGrid {
  assertOptionsObject(options, 'options');
  options ??= {};
  for (const key of ['walkable', 'storage', 'storageOffset']) {
    if (Object.hasOwn(options, key)) throw new TilenavError('the matrix says which cells are walkable; leave this option out', { element: key });
  }
  const isRow = (r: unknown): r is ArrayLike<unknown> => Array.isArray(r) || (ArrayBuffer.isView(r) && !(r instanceof DataView));
  if (!Array.isArray(rows) || rows.length === 0) throw new TilenavError(`expected an array of rows, e.g. [[0, 1], [0, 0]], got ${Array.isArray(rows) ? 'no rows' : describe(rows)}`, { element: 'rows' });
  const width = isRow(rows[0]) ? rows[0].length : 0;
  const costs = options.costs === true;
  const kind = typeof (isRow(rows[0]) ? rows[0][0] : undefined);
  rows.forEach((row: unknown, y) => {
    if (!isRow(row)) throw new TilenavError(`expected a row (an array of cells), got ${describe(row)}`, { element: `rows[${y}]` });
    if (row.length === 0 || row.length !== width) throw new TilenavError(`has ${row.length} cells, rows[0] has ${width}: every row needs the same length, at least 1`, { element: `rows[${y}]` });
    for (let x = 0; x < width; x++) {
      const v = row[x];
      const at = `rows[${y}][${x}]`;
      if (typeof v !== kind || (kind !== 'number' && kind !== 'boolean')) throw new TilenavError(`expected ${kind === 'boolean' ? 'a boolean like rows[0][0]' : kind === 'number' ? 'a number like rows[0][0]' : 'a number or a boolean'}, got ${describe(v)}`, { element: at });
      if (kind === 'number' && !((v as number) >= 0 && (v as number) < Infinity)) throw new TilenavError(`expected a finite number >= 0 (${costs ? 'the cost, 0 blocked' : '0 walkable, other numbers blocked'}), got ${describe(v)}`, { element: at });
      if (costs && kind === 'number' && v !== 0) assertCost(v, at, '; 0 blocks a cell');
    }
  });
  const { costs: _, ...gridOptions } = options;
  const grid = new NavGrid(width, rows.length, gridOptions);
  const { walkable, cost } = grid.layers[0];
  for (let y = 0; y < rows.length; y++) {
    const row = rows[y];
    for (let x = 0, i = y * width; x < width; x++, i++) {
      const v = row[x];
      walkable[i] = typeof v === 'boolean' ? (v ? 1 : 0) : costs ? (v === 0 ? 0 : 1) : v === 0 ? 1 : 0;
      if (costs && v !== 0 && typeof v === 'number') cost[i] = v;
    }
  }
  grid.refresh(0);
  return grid;
}

/**
 * `storage` as an ArrayBuffer or SharedArrayBuffer (checked by their own byteLength getters, which
 * work across realms and refuse look-alikes such as `{ byteLength: 1000 }`), or a TilenavError
 * naming `storage`: a typed array would be copied by the layer views, not shared.
 */
function checkStorage(storage: unknown): ArrayBufferLike {
  if (ArrayBuffer.isView(storage)) {
    throw new TilenavError(`expected an ArrayBuffer or SharedArrayBuffer, got a ${storage.constructor.name}; pass its buffer (and its byteOffset as storageOffset) to share it`, { element: 'storage' });
  }
  for (const type of [ArrayBuffer, globalThis.SharedArrayBuffer]) {
    const byteLength = type === undefined ? undefined : Object.getOwnPropertyDescriptor(type.prototype, 'byteLength')?.get;
    if (byteLength === undefined) continue;
    try {
      byteLength.call(storage);
      return storage as ArrayBufferLike;
    } catch {
      // Not this kind of buffer.
    }
  }
  throw new TilenavError(`expected an ArrayBuffer or SharedArrayBuffer, got ${describe(storage)}`, { element: 'storage' });
}
