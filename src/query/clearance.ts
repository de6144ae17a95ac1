import { TilenavError, assertOptionsObject, describe } from '../errors.js';
import type { Derived, GridChange, MemoryEntry, NavGrid, SearchView } from '../grid/navgrid.js';
import { EXIT_CORNER_NE, EXIT_CORNER_NW, EXIT_CORNER_SE, EXIT_CORNER_SW, padXY, strideOf } from '../grid/padded.js';
import { FLAG_NO_EXIT_EAST, FLAG_NO_EXIT_NORTH, FLAG_NO_EXIT_SOUTH, FLAG_NO_EXIT_WEST, FLAG_WALL_NORTH, FLAG_WALL_WEST } from '../grid/flags.js';
import { cellStep } from '../path/smooth.js';

/** Options of the {@link ClearanceMap} constructor. */
export interface ClearanceOptions {
  /** Layer index or name. @default 0 */
  layer?: number | string;
  /**
   * Clearance is counted up to this many cells (1-255): larger units are refused. The cap keeps
   * an update local: a change touches at most `maxClearance` cells around it. @default 16
   */
  maxClearance?: number;
}

/**
 * A clearance map of one layer, for units wider than a point: for each cell, the exact Euclidean
 * distance in cells from its centre to the nearest blocked cell's square, walled edge (an edge
 * wall is a segment one cell long) or the grid's edge (0 on a blocked cell, 0.5 beside a wall),
 * capped at `maxClearance`.
 *
 * A unit whose disc has radius r cells (its radius in world units over `cellStep`) may use a cell
 * whose clearance is >= r: its disc, centred there, overlaps no blocked square. Searches for a
 * unit run on a view of the layer with the other cells blocked ({@link view}), so every step goes
 * between usable cells; the disc then stays clear along the whole step: a straight step's nearest
 * approach to any blocked square is at one of its ends, and a diagonal step needs its two side
 * cells usable too (no corner cutting), and a square outside that 2 x 2 block is never nearer a
 * point of the block's centre square than one of the four centres. `chebyshev` steps are the same
 * segments at another price, so it keeps the guarantee; movement models that cut corners keep it
 * at cell centres and straight steps only. So a unit of width w fits a corridor exactly w cells
 * wide or wider (a 1-cell corridor takes widths up to 1).
 *
 * Edge walls are obstacles for the disc too. A step between two usable cells can only come nearer
 * a wall than its ends where a wall's end point lies on the step's perpendicular bisector (a
 * straight step passing the end of a fence standing across the next row); the view refuses those
 * straight steps for that radius (its own `exits`), and a diagonal step with its side cells usable
 * passes no wall end nearer than a side cell's centre is. So the guarantee holds with walls as well.
 *
 * Views are cached per radius and updated locally on changes. Updates: a change of a w x h
 * rectangle recomputes the (w + 2 cap) x (h + 2 cap) cells around it, reading cap more on each
 * side: per column the distance to the nearest blocked cell, then per cell a scan of at most
 * 2 cap + 1 columns. Memory: 4 bytes per cell of distances and 4 of update scratch, plus 4 per padded cell per
 * cached radius.
 */
export class ClearanceMap {
  /** The grid it measures. */
  readonly grid: NavGrid;
  /** The layer index. */
  readonly layer: number;
  /** Clearance is counted up to this many cells. */
  readonly maxClearance: number;
  /** Clearance per cell in cells (index y * width + x), float32, capped at maxClearance. Read only. */
  readonly values: Float32Array;
  private readonly views = new Map<number, UnitView>();
  /** Per region column, the rows to the nearest blocked cell (or edge) in that column. */
  private scratch = new Int32Array(0);
  /** Per vertical line between two region columns, the rows to the nearest wall on that line. */
  private lines = new Int32Array(0);
  private readonly unsubscribe: () => void;

  /** Measures the layer now (O(cells x maxClearance)) and follows the grid's changes until `dispose()`. */
  constructor(grid: NavGrid, options: ClearanceOptions = {}) {
    assertOptionsObject(options, 'options');
    this.grid = grid;
    this.layer = grid.layerIndex(options.layer ?? 0);
    const cap = options.maxClearance ?? 16;
    if (!Number.isInteger(cap) || cap < 1 || cap > 255) throw new TilenavError(`expected a whole number 1..255, got ${describe(cap)}`, { element: 'maxClearance' });
    this.maxClearance = cap;
    this.values = new Float32Array(grid.size);
    this.recompute(0, 0, grid.width, grid.height);
    this.unsubscribe = grid.onChange((c) => this.onChange(c));
  }

  /** Stops following the grid's changes. */
  dispose(): void {
    this.unsubscribe();
  }

  /** Bytes held: the clearance values and one padded view per radius searched. */
  get bytes(): number {
    let b = this.values.byteLength + this.scratch.byteLength + this.lines.byteLength;
    for (const e of this.views.values()) b += e.view.pass.byteLength + (e.exits?.byteLength ?? 0);
    return b;
  }

  /** The clearance of (x, y) in cells (distance to the nearest blocked square or edge, capped); 0 when blocked or outside. */
  at(x: number, y: number): number {
    return this.grid.inBounds(x, y) ? this.values[y * this.grid.width + x] : 0;
  }

  /** The clearance a unit of `radius` world units needs: its radius in cells (radius / cellStep). Throws for a radius that is not a finite number >= 0. */
  needed(radius: number): number {
    if (typeof radius !== 'number' || !Number.isFinite(radius) || radius < 0) throw new TilenavError(`expected a unit radius >= 0 in world units, got ${describe(radius)}`, { element: 'radius' });
    return radius / cellStep(this.grid.projection);
  }

  /**
   * The layer's search view with every cell a unit of `radius` (world units) does not fit in
   * blocked; the layer's own view when every walkable cell fits. Throws when the unit needs more
   * than `maxClearance`.
   */
  view(radius: number): SearchView {
    const need = this.needed(radius);
    const base = this.grid.searchView(this.layer);
    // Every walkable cell is at least half a cell from any blocked square.
    if (need <= 0.5) return base;
    if (need > this.maxClearance) throw new TilenavError(`a unit of radius ${radius} needs clearance ${need} cells, over this map's maxClearance ${this.maxClearance}`, { element: 'radius' });
    let entry = this.views.get(need);
    if (entry === undefined) {
      const view: SearchView = { ...base, pass: new Float32Array(base.pass.length) };
      entry = { view, need, exits: null };
      this.views.set(need, entry);
      this.fillView(entry, 0, 0, this.grid.width, this.grid.height);
    }
    const v = entry.view;
    // With edge walls the unit's view has exits of its own: the steps that pass a wall's end too near.
    if (base.walls === null) entry.exits = null;
    else if (entry.exits === null) {
      entry.exits = new Uint8Array(base.pass.length);
      this.fillExits(entry.exits, need, 0, 0, this.grid.width, this.grid.height);
    }
    v.exits = entry.exits ?? base.exits;
    v.walls = base.walls;
    v.minCost = base.minCost;
    v.maxCost = base.maxCost;
    v.uniform = base.uniform;
    return v;
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
    const flags = grid.layers[this.layer].flags;
    const walled = grid.searchView(this.layer).walls !== null;
    // Region read: the rectangle plus cap around it, clipped; the grid's edge counts as blocked.
    const ax = Math.max(0, rx - cap);
    const ay = Math.max(0, ry - cap);
    const bx = Math.min(gw, rx + rw + cap);
    const by = Math.min(grid.height, ry + rh + cap);
    const w = bx - ax;
    const h = by - ay;
    if (w <= 0 || h <= 0) return;
    if (this.scratch.length < w * h) this.scratch = new Int32Array(w * h);
    const col = this.scratch;
    const H = grid.height;
    // Rows to the nearest blocked cell in the same column (0 on a blocked cell); rows outside
    // the grid count as blocked, rows outside the region are farther than cap. A wall across the
    // column (a north edge) is half a row away from the cells on both sides of it: 1, as from a
    // blocked cell next to them.
    const far = cap + 1;
    for (let x = 0; x < w; x++) {
      let k = ay === 0 ? 0 : far;
      for (let y = 0; y < h; y++) {
        const i = (ay + y) * gw + ax + x;
        k = walk[i] === 0 ? 0 : walled && ay + y > 0 && (flags[i] & FLAG_WALL_NORTH) !== 0 ? 1 : Math.min(k + 1, far);
        col[y * w + x] = k;
      }
      k = by === H ? 0 : far;
      for (let y = h - 1; y >= 0; y--) {
        const v = col[y * w + x];
        const below = (ay + y + 1) * gw + ax + x;
        k = v === 0 ? 0 : walled && ay + y + 1 < H && (flags[below] & FLAG_WALL_NORTH) !== 0 ? 1 : Math.min(k + 1, far);
        if (k < v) col[y * w + x] = k;
      }
    }
    // Walls along the vertical line west of region column c (c = 1..w - 1, never the grid's
    // edge): per line and row, the rows to the nearest wall on that line (0 beside one).
    const nl = walled ? w - 1 : 0;
    if (this.lines.length < nl * h) this.lines = new Int32Array(nl * h);
    const line = this.lines;
    for (let c = 1; c <= nl; c++) {
      const gx = ax + c;
      let k = far;
      for (let y = 0; y < h; y++) {
        k = (flags[(ay + y) * gw + gx] & FLAG_WALL_WEST) !== 0 ? 0 : Math.min(k + 1, far);
        line[y * nl + c - 1] = k;
      }
      k = far;
      for (let y = h - 1; y >= 0; y--) {
        const v = line[y * nl + c - 1];
        k = v === 0 ? 0 : Math.min(k + 1, far);
        if (k < v) line[y * nl + c - 1] = k;
      }
    }
    const ix = Math.max(0, rx);
    const iy = Math.max(0, ry);
    const jx = Math.min(gw, rx + rw);
    const jy = Math.min(H, ry + rh);
    const cap2 = cap * cap;
    for (let y = iy; y < jy; y++) {
      const row = (y - ay) * w - ax;
      for (let x = ix; x < jx; x++) {
        // The grid's edge: the squares just outside it.
        const e = Math.min(x, y, gw - 1 - x, H - 1 - y) + 0.5;
        let best = Math.min(e * e, cap2);
        // Columns outward from x; h(k) = (k - 1/2)^2 bounds every later column from below.
        for (let k = 0; k <= cap; k++) {
          const hk = k === 0 ? 0 : (k - 0.5) * (k - 0.5);
          if (hk >= best) break;
          for (let s = -1; s <= 1; s += 2) {
            if (k === 0 && s === 1) break;
            const cx = x + s * k;
            if (cx < ax || cx >= bx) continue;
            const v = col[row + cx];
            if (v === far) continue;
            const dv = v === 0 ? 0 : (v - 0.5) * (v - 0.5);
            if (hk + dv < best) best = hk + dv;
          }
          // The wall lines k - 1/2 columns away on either side: as far across as the columns k away.
          if (nl > 0 && k > 0) {
            const lrow = (y - ay) * nl - ax - 1;
            for (let s = -1; s <= 1; s += 2) {
              const c = s < 0 ? x - k + 1 : x + k;
              if (c <= ax || c > ax + nl) continue;
              const v = line[lrow + c];
              if (v === far) continue;
              const dv = v === 0 ? 0 : (v - 0.5) * (v - 0.5);
              if (hk + dv < best) best = hk + dv;
            }
          }
        }
        this.values[y * gw + x] = Math.sqrt(best);
      }
    }
    for (const e of this.views.values()) this.fillView(e, ix, iy, jx - ix, jy - iy);
  }

  private fillView(entry: UnitView, x0: number, y0: number, w: number, h: number): void {
    const { view, need } = entry;
    const baseView = this.grid.searchView(this.layer);
    if (baseView.walls === null) entry.exits = null;
    else if (entry.exits !== null) this.fillExits(entry.exits, need, x0, y0, w, h);
    const base = baseView.pass;
    const pass = view.pass;
    const gw = this.grid.width;
    const W = strideOf(gw);
    const values = this.values;
    for (let y = y0; y < y0 + h; y++) {
      for (let x = x0; x < x0 + w; x++) {
        const p = padXY(W, x, y);
        // A float32 distance may round just below an exact radius: allow that rounding.
        pass[p] = values[y * gw + x] >= need - 1e-6 ? base[p] : 0;
      }
    }
  }

  /**
   * The layer's exits for the cells of the rectangle, plus the straight steps a unit needing
   * `need` cells may not take: a straight step between cell centres passes the corner points on
   * its perpendicular bisector (those j rows or columns past its own edge's ends) at j + 1/2
   * cells, nearer than its ends are; where a wall touches such a point nearer than `need` the step
   * is refused, from both cells (each computes the same points).
   */
  private fillExits(exits: Uint8Array, need: number, x0: number, y0: number, w: number, h: number): void {
    const view = this.grid.searchView(this.layer);
    const base = view.exits!;
    const walls = view.walls!;
    const gw = this.grid.width;
    const gh = this.grid.height;
    const S = strideOf(gw);
    // Corner points j = 0, 1, ... rows (columns) past the step's own edge's ends, while j + 1/2 < need.
    const reach = Math.ceil(need - 0.5);
    for (let y = y0; y < y0 + h; y++) {
      for (let x = x0; x < x0 + w; x++) {
        const p = padXY(S, x, y);
        let e = base[p];
        if (view.pass[p] > 0) {
          for (let j = 0; j < reach; j++) {
            const up = y - j >= 0 ? walls[p - j * S] : 0;
            const down = y + j < gh ? walls[p + j * S] : 0;
            const left = x - j >= 0 ? walls[p - j] : 0;
            const right = x + j < gw ? walls[p + j] : 0;
            if ((up & EXIT_CORNER_NE) !== 0 || (down & EXIT_CORNER_SE) !== 0) e |= FLAG_NO_EXIT_EAST;
            if ((up & EXIT_CORNER_NW) !== 0 || (down & EXIT_CORNER_SW) !== 0) e |= FLAG_NO_EXIT_WEST;
            if ((left & EXIT_CORNER_NW) !== 0 || (right & EXIT_CORNER_NE) !== 0) e |= FLAG_NO_EXIT_NORTH;
            if ((left & EXIT_CORNER_SW) !== 0 || (right & EXIT_CORNER_SE) !== 0) e |= FLAG_NO_EXIT_SOUTH;
          }
        }
        exits[p] = e;
      }
    }
  }
}

/** A unit radius's view of a layer: cells the unit does not fit blocked, and its own exits with edge walls. */
interface UnitView {
  view: SearchView;
  /** The clearance the unit needs, in cells. */
  need: number;
  /** The layer's exits plus the straight steps that pass a wall's end nearer than `need`; null without walls. */
  exits: Uint8Array | null;
}

/** The clearance maps a grid keeps, one per layer searched with a unit radius. */
class GridClearance implements Derived {
  readonly maps: (ClearanceMap | undefined)[] = [];
  memory(out: MemoryEntry[]): void {
    this.maps.forEach((m, layer) => {
      if (m !== undefined) out.push({ name: 'clearance', layer, bytes: m.bytes });
    });
  }
  release(): void {
    for (const m of this.maps) m?.dispose();
    this.maps.length = 0;
  }
}

/** The default clearance cap of the maps a grid keeps (a unit needing more grows it, up to 255). */
const GRID_CLEARANCE_CAP = 16;

/**
 * The clearance map `grid` keeps for `layer` (made on first use, listed by `grid.memory()`, freed
 * by `grid.releaseDerived()`), counted far enough for a unit of `radius` world units: a larger unit
 * than the map counts for rebuilds it with a larger cap (at most 255 cells; larger units are
 * refused naming `radius`).
 */
export function clearanceOf(grid: NavGrid, layer: number | string = 0, radius = 0): ClearanceMap {
  const l = grid.layerIndex(layer);
  if (typeof radius !== 'number' || !Number.isFinite(radius) || radius < 0) throw new TilenavError(`expected a unit radius >= 0 in world units, got ${describe(radius)}`, { element: 'radius' });
  const store = grid.derived('clearance', () => new GridClearance());
  let map = store.maps[l];
  const need = Math.ceil(radius / cellStep(grid.projection)) + 1;
  if (map === undefined || need > map.maxClearance) {
    if (need > 255) throw new TilenavError(`a unit of radius ${radius} needs more than 255 cells of clearance`, { element: 'radius' });
    map?.dispose();
    map = new ClearanceMap(grid, { layer: l, maxClearance: Math.max(GRID_CLEARANCE_CAP, map?.maxClearance ?? 0, need) });
    store.maps[l] = map;
  }
  return map;
}
