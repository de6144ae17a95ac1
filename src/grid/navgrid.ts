import { addChangedRect, unionRect } from './rects.js';
import { TilenavError, assertCost, assertInteger, assertLimit, assertOptionsObject, describe } from '../errors.js';
import { TerrainTable, type Terrain, type TerrainFollower } from './terrain.js';
import { assertProjectionFits, orthogonal, type Projection } from './projection.js';
import { padXY, paddedSize, strideOf } from './padded.js';

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

export { FLAG_SAFE_ZONE, FLAG_NO_EXIT_NORTH, FLAG_NO_EXIT_EAST, FLAG_NO_EXIT_SOUTH, FLAG_NO_EXIT_WEST, FLAG_ONE_WAY_MASK } from './flags.js';
import { FLAG_ONE_WAY_MASK } from './flags.js';

export interface NavGridOptions {
  /** Layer count (1-8, named from {@link DEFAULT_LAYER_NAMES}) or the layer names. @default 1 */
  layers?: number | readonly string[];
  /** World <-> cell conversion. @default orthogonal(1, 1) */
  projection?: Projection;
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
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * What changed: on one layer, the bounding rectangle (x, y, width, height), the changed
 * rectangles themselves in `rects` (one for a single write; a batch lists its blocks of changed
 * cells, merged where they touch, at most MAX_CHANGE_RECTS), and the grid's version after it.
 */
export interface GridChange extends CellRect {
  layer: number;
  version: number;
  rects: readonly CellRect[];
  /**
   * Whether the change may have opened a way: a cell became walkable, got cheaper, or lost a
   * one-way flag. False when it only blocked cells, raised costs or added one-way flags (a path
   * can then only get longer, never find a shortcut). `refresh` cannot tell what direct writes
   * did, so its events say true.
   */
  opened: boolean;
}

/** What to write into each cell of a rectangle; omitted fields are left as they are. */
export interface CellValues {
  walkable?: boolean;
  /** Traversal cost, 2^-126 (about 1.18e-38) to about 3.4e38 (what a float32 holds). */
  cost?: number;
  flags?: number;
  /** Terrain name or id: sets the terrain id, its cost and its walkability together. */
  terrain?: string | number;
}

/** Walkable / blocked counts of one layer. */
export interface LayerStats {
  name: string;
  total: number;
  walkable: number;
  blocked: number;
}

/**
 * One navigation layer: flat arrays indexed `y * width + x`. Read them freely; write through the
 * grid's setters (or call `grid.refresh()` after writing directly) so the search stays in step.
 */
export interface NavLayer {
  readonly name: string;
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
  readonly stride: number;
  readonly pass: Float32Array;
  /** Padded one-way bits (FLAG_NO_EXIT_*), or null when the layer has none. */
  exits: Uint8Array | null;
  minCost: number;
  maxCost: number;
  /** Walkable cells all cost the same: jump point search applies. */
  uniform: boolean;
  /** @internal */
  statsValid: boolean;
  /** @internal */
  exitsValid: boolean;
}

const BYTES_PER_CELL_PER_LAYER = 7;

/**
 * A navigation grid: width x height cells with 1 to 8 layers, each with walkability, a traversal
 * cost, 8 flag bits and a terrain id per cell. All layer data lives in one buffer, so a grid can be
 * saved, shared with workers (SharedArrayBuffer) and rebuilt without copying.
 *
 * Coordinates: x grows right, y grows down, cell index `i = y * width + x` ({@link index}).
 */
export class NavGrid {
  readonly width: number;
  readonly height: number;
  /** width * height */
  readonly size: number;
  readonly layers: readonly NavLayer[];
  readonly terrain: TerrainTable;
  projection: Projection;
  /** The storage all layers are views on. */
  readonly storage: ArrayBufferLike;
  readonly storageOffset: number;
  /** Increases by one with every change event. */
  version = 0;

  private readonly views: (SearchView | null)[];
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
    for (let yy = y; yy < y + height; yy++) {
      let i = yy * this.width + x;
      for (let xx = 0; xx < width; xx++, i++) {
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
        if (flags !== undefined) data.flags[i] = flags;
        // A way opens where a cell is walkable now and was blocked, dearer, or one-way.
        if (data.walkable[i] === 1 && (wasWalkable === 0 || data.cost[i] < wasCost || (wasFlags & ~data.flags[i] & FLAG_ONE_WAY_MASK) !== 0)) opened = true;
      }
    }
    const wrote = walkable ?? (terrainId >= 0 ? terrainWalk : undefined);
    if (wrote !== undefined) for (const fn of this.walkWriters) fn(l, { x, y, width, height }, wrote);
    this.changed(l, { x, y, width, height }, (flags ?? 0) & FLAG_ONE_WAY_MASK, opened);
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
      this.changed(l, r, 0, true);
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

  private changed(layer: number, rect: CellRect, oneWayBits: number, opened: boolean): void {
    const view = this.views[layer];
    if (view) {
      this.copyToView(layer, view, rect.x, rect.y, rect.width, rect.height);
      if (oneWayBits !== 0 || view.exits !== null) view.exitsValid = false;
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

  private computeExits(layer: number, view: SearchView): void {
    const flags = this.layers[layer].flags;
    let any = false;
    for (let i = 0; i < this.size; i++) {
      if ((flags[i] & FLAG_ONE_WAY_MASK) !== 0) {
        any = true;
        break;
      }
    }
    if (!any) {
      view.exits = null;
    } else {
      const exits = view.exits ?? new Uint8Array(view.pass.length);
      for (let y = 0; y < this.height; y++) {
        for (let x = 0; x < this.width; x++) exits[padXY(view.stride, x, y)] = flags[y * this.width + x] & FLAG_ONE_WAY_MASK;
      }
      view.exits = exits;
    }
    view.exitsValid = true;
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
