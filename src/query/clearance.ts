import { TilenavError, describe } from '../errors.js';
import type { GridChange, NavGrid, SearchView } from '../grid/navgrid.js';
import { Pathfinder } from '../search/pathfinder.js';
import type { FindPathOptions, PathResult, PathStatus } from '../search/result.js';
import { padXY, strideOf } from '../grid/padded.js';
import { cellStep } from '../path/smooth.js';
import type { NearestHooks } from './navigate.js';

export interface ClearanceOptions {
  /** Layer index or name. @default 0 */
  layer?: number | string;
  /**
   * Clearance is counted up to this many cells (1-255): larger units are refused. The cap keeps
   * an update local: a change touches at most `maxClearance` cells around it. @default 16
   */
  maxClearance?: number;
}

/** Options of {@link ClearanceMap.findPath}. */
export interface ClearancePathOptions extends FindPathOptions {
  /** The unit's radius in world units. @default 0 */
  radius?: number;
  /** Search with this Pathfinder (of the map's grid) instead of the map's own. */
  pathfinder?: Pathfinder;
}

/**
 * A clearance map of one layer, for units wider than a cell: for each cell, the Chebyshev distance in
 * cells to the nearest blocked cell or the grid's edge (0 on a blocked cell, 1 beside a wall),
 * capped at `maxClearance`: the cell is the centre of a free (2d - 1)-cell square.
 *
 * A unit of radius r cells (its radius in world units over `cellStep`) may use a cell with
 * clearance d when r <= d - 1. That keeps the unit's disc clear of every blocked cell not only at the cell centres but along every octile step
 * between usable cells (a diagonal step passes within half a cell of its side cells), at a cost of
 * at most half a cell of caution. Searches for a unit run on a view of the layer with the other
 * cells blocked ({@link view}); views are cached per radius and updated locally on changes.
 * Updates: a change of a w x h rectangle recomputes (w + 4 cap) x (h + 4 cap) cells with a
 * two-pass chessboard distance transform.
 */
export class ClearanceMap {
  readonly grid: NavGrid;
  readonly layer: number;
  readonly maxClearance: number;
  /** Clearance per cell (index y * width + x). Read only. */
  readonly values: Uint8Array;
  private readonly views = new Map<number, { view: SearchView; need: number }>();
  private scratch = new Uint8Array(0);
  private readonly unsubscribe: () => void;
  private finder: Pathfinder | undefined;

  constructor(grid: NavGrid, options: ClearanceOptions = {}) {
    this.grid = grid;
    this.layer = grid.layerIndex(options.layer ?? 0);
    const cap = options.maxClearance ?? 16;
    if (!Number.isInteger(cap) || cap < 1 || cap > 255) throw new TilenavError(`expected a whole number 1..255, got ${describe(cap)}`, { element: 'maxClearance' });
    this.maxClearance = cap;
    this.values = new Uint8Array(grid.size);
    this.recompute(0, 0, grid.width, grid.height);
    this.unsubscribe = grid.onChange((c) => this.onChange(c));
  }

  /** Stops following the grid's changes. */
  dispose(): void {
    this.unsubscribe();
  }

  /** The clearance of (x, y) in cells; 0 when blocked or outside. */
  at(x: number, y: number): number {
    return this.grid.inBounds(x, y) ? this.values[y * this.grid.width + x] : 0;
  }

  /** The clearance a unit of `radius` world units needs: ceil(radius in cells) + 1, or 1 for radius 0. */
  needed(radius: number): number {
    if (typeof radius !== 'number' || !Number.isFinite(radius) || radius < 0) throw new TilenavError(`expected a unit radius >= 0 in world units, got ${describe(radius)}`, { element: 'radius' });
    const r = radius / cellStep(this.grid.projection);
    return r === 0 ? 1 : Math.ceil(r - 1e-9) + 1;
  }

  /**
   * The layer's search view with every cell a unit of `radius` (world units) does not fit in
   * blocked; the layer's own view when every walkable cell fits. Throws when the unit needs more
   * than `maxClearance`.
   */
  view(radius: number): SearchView {
    const need = this.needed(radius);
    const base = this.grid.searchView(this.layer);
    if (need <= 1) return base;
    if (need > this.maxClearance) throw new TilenavError(`a unit of radius ${radius} needs clearance ${need} cells, over this map's maxClearance ${this.maxClearance}`, { element: 'radius' });
    let entry = this.views.get(need);
    if (entry === undefined) {
      const view: SearchView = { ...base, pass: new Float32Array(base.pass.length) };
      entry = { view, need };
      this.views.set(need, entry);
      this.fillView(entry.view, need, 0, 0, this.grid.width, this.grid.height);
    }
    const v = entry.view;
    v.exits = base.exits;
    v.minCost = base.minCost;
    v.maxCost = base.maxCost;
    v.uniform = base.uniform;
    return v;
  }

  /** Hooks for findPathToNearest so the whole cascade respects this unit's size. */
  hooks(radius: number): NearestHooks {
    return { clearanceView: (layer) => (layer === this.layer ? this.view(radius) : null) };
  }

  /**
   * A cheapest path for a unit of `radius` world units (default 0): only through cells it fits in.
   * Runs on `options.pathfinder` when given (a Pathfinder of this grid); otherwise on one this map
   * creates on first use and keeps (the search scratch, about 20 bytes per cell).
   */
  findPath(sx: number, sy: number, gx: number, gy: number, options: ClearancePathOptions = {}): PathResult {
    if (options.layer !== undefined && this.grid.layerIndex(options.layer) !== this.layer) throw new TilenavError(`this clearance map is for layer ${this.layer}`, { element: 'layer' });
    const { pathfinder, radius, ...search } = options;
    const finder = pathfinder ?? (this.finder ??= new Pathfinder(this.grid));
    if (finder.grid !== this.grid) throw new TilenavError('expected a Pathfinder of this clearance map\'s grid', { element: 'pathfinder' });
    const r = finder.search(sx, sy, gx, gy, { ...search, layer: this.layer, view: this.view(radius ?? 0) });
    // Without `nearest` the search never answers 'partial'.
    return { status: r.status as PathStatus, cells: r.cells, cost: r.cost, expanded: r.expanded };
  }

  private onChange(c: GridChange): void {
    if (c.layer !== this.layer) return;
    const cap = this.maxClearance;
    this.recompute(c.x - cap, c.y - cap, c.width + 2 * cap, c.height + 2 * cap);
  }

  /** Recomputes the clearance of the cells in the rectangle (clipped), reading cap cells around it. */
  private recompute(rx: number, ry: number, rw: number, rh: number): void {
    const grid = this.grid;
    const cap = this.maxClearance;
    const gw = grid.width;
    const walk = grid.layers[this.layer].walkable;
    // Region read: the rectangle plus cap around it, clipped; the grid's edge counts as blocked.
    const ax = Math.max(0, rx - cap);
    const ay = Math.max(0, ry - cap);
    const bx = Math.min(gw, rx + rw + cap);
    const by = Math.min(grid.height, ry + rh + cap);
    const w = bx - ax;
    const h = by - ay;
    if (w <= 0 || h <= 0) return;
    if (this.scratch.length < w * h) this.scratch = new Uint8Array(w * h);
    const d = this.scratch;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const gx = ax + x;
        const gy = ay + y;
        if (walk[gy * gw + gx] === 0) {
          d[y * w + x] = 0;
          continue;
        }
        // Distance to the grid's edge (cells outside count as blocked).
        const edge = Math.min(gx + 1, gy + 1, gw - gx, grid.height - gy, cap);
        let v = edge;
        if (y > 0) {
          v = Math.min(v, d[(y - 1) * w + x] + 1);
          if (x > 0) v = Math.min(v, d[(y - 1) * w + x - 1] + 1);
          if (x + 1 < w) v = Math.min(v, d[(y - 1) * w + x + 1] + 1);
        }
        if (x > 0) v = Math.min(v, d[y * w + x - 1] + 1);
        d[y * w + x] = v;
      }
    }
    for (let y = h - 1; y >= 0; y--) {
      for (let x = w - 1; x >= 0; x--) {
        let v = d[y * w + x];
        if (v === 0) continue;
        if (y + 1 < h) {
          v = Math.min(v, d[(y + 1) * w + x] + 1);
          if (x > 0) v = Math.min(v, d[(y + 1) * w + x - 1] + 1);
          if (x + 1 < w) v = Math.min(v, d[(y + 1) * w + x + 1] + 1);
        }
        if (x + 1 < w) v = Math.min(v, d[y * w + x + 1] + 1);
        d[y * w + x] = v;
      }
    }
    // Write back only the inner rectangle: its cells saw every blocked cell within cap.
    const ix = Math.max(0, rx);
    const iy = Math.max(0, ry);
    const jx = Math.min(gw, rx + rw);
    const jy = Math.min(grid.height, ry + rh);
    for (let y = iy; y < jy; y++) for (let x = ix; x < jx; x++) this.values[y * gw + x] = d[(y - ay) * w + (x - ax)];
    for (const e of this.views.values()) this.fillView(e.view, e.need, ix, iy, jx - ix, jy - iy);
  }

  private fillView(view: SearchView, need: number, x0: number, y0: number, w: number, h: number): void {
    const base = this.grid.searchView(this.layer).pass;
    const pass = view.pass;
    const gw = this.grid.width;
    const W = strideOf(gw);
    const values = this.values;
    for (let y = y0; y < y0 + h; y++) {
      for (let x = x0; x < x0 + w; x++) {
        const p = padXY(W, x, y);
        pass[p] = values[y * gw + x] >= need ? base[p] : 0;
      }
    }
  }
}
