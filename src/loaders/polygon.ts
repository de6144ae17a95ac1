import { TilenavError, describe } from '../errors.js';
import { NavGrid, DEFAULT_MAX_CELLS, type CellRect } from '../grid/navgrid.js';
import { checkLimit, DEFAULT_MAX_RASTER_WORK, fileOption, inFile, RasterBudget } from './limits.js';
import { jsonError, looksLikePath, pathNotContents } from './messages.js';
import { EdgeScan } from './scanline.js';
import { continuous } from '../grid/projection.js';
import type { LoadedGrid } from './result.js';

/** The defaults for the scalar fields of a polygon config (metres). */
export const DEFAULT_POLYGON_CONFIG = Object.freeze({
  /** Width and depth of one cell. @default 0.4 */
  cellSize: 0.4,
  /** Half-width of a character: the clearance kept from obstacles. @default 0.45 */
  agentRadius: 0.45,
  /** Extra clearance around obstacles, added to agentRadius. @default 0.25 */
  objectPadding: 0.25,
  /** Cells closer than this to an area's edge are not walkable (0: no erosion). @default 0 */
  boundaryPadding: 0,
  /** Y of every waypoint. @default 0 */
  floorY: 0,
});

/** A polygon as [x, z] points in world units; concave allowed, self-crossing ones use even-odd. */
export type Polygon = readonly (readonly [number, number])[];

/** A named navigation area: its cells are walkable while it is available. */
export interface NavArea {
  /** The area's name, for `setAreaAvailable` and error messages. */
  name: string;
  /** Whether its cells are walkable now. */
  available: boolean;
  /** Its outline, world units. */
  polygon: Polygon;
}

/** An obstacle: cells inside it or too close to its edges are blocked. */
export interface Obstacle {
  /** A name for error messages. */
  name?: string;
  /** Its outline, world units. */
  polygon: Polygon;
}

/** A validated polygon config, all defaults filled in. */
export interface PolygonConfig {
  /** Width and depth of one cell, metres (world units). */
  cellSize: number;
  /** Half-width of a character: the clearance kept from obstacles, metres. */
  agentRadius: number;
  /** Extra clearance around obstacles, added to agentRadius, metres. */
  objectPadding: number;
  /** Cells closer than this to an area's edge are not walkable (0: no erosion), metres. */
  boundaryPadding: number;
  /** Y of every waypoint, metres. */
  floorY: number;
  /** The navigation areas. */
  areas: NavArea[];
  /** The obstacles, stamped over the areas. */
  obstacles: Obstacle[];
}

/** Options of {@link checkPolygonConfig}, {@link loadPolygonConfig} and {@link PolygonNavigation}. */
export interface PolygonOptions {
  /** File name for error messages. @default '<polygon config>' */
  file?: string;
  /** Refuse configs whose grid would have more cells than this; NaN or a non-number is refused. @default DEFAULT_MAX_CELLS */
  maxCells?: number;
  /**
   * Refuse configs whose polygons need more than this much work to rasterise (about one unit per
   * cell visited, all polygons together, each clipped to the grid first), so no config keeps the
   * loader busy for long. A polygon's edge crossings (times log2 of a row's crossings, for
   * sorting them) and the cells near its edges that padding tests are counted before it is drawn,
   * so a polygon past the limit is refused at once. Applies to the first build and to each
   * setAreaAvailable. @default DEFAULT_MAX_RASTER_WORK (2^28)
   */
  maxRasterWork?: number;
}

/** A polygon prepared for rasterising: flat coordinates and its cell bounding box. */
interface Shape {
  /** For errors: `areas[0] "hall"`, `obstacles[3]`. */
  element: string;
  xs: Float64Array;
  zs: Float64Array;
  /** Cells whose centre can be affected, clipped to the grid (x0..x1, y0..y1 inclusive). */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * A NavGrid built from a polygon config (areas and obstacles in world units), with the areas toggleable at runtime.
 *
 * Rules, for each cell centre c (world x, z):
 * - walkable when c lies inside an available area and, if boundaryPadding > 0, at least
 *   boundaryPadding from that same area's edges;
 * - then blocked when c lies inside an obstacle or less than agentRadius + objectPadding from
 *   one of its edges.
 * Bounds: the bounding box of all areas (available or not, so toggling never resizes the grid),
 * plus `cellSize * 2 + agentRadius + objectPadding` on every side.
 */
export class PolygonNavigation implements LoadedGrid {
  /** The grid: one layer, continuous projection. */
  readonly grid: NavGrid;
  /** Always empty: a config the checks accept builds as written. Here for the loaders' one result shape. */
  readonly warnings: string[] = [];
  /** The validated config, defaults filled in. */
  readonly config: PolygonConfig;
  private readonly areaShapes: Shape[];
  private readonly obstacleShapes: Shape[];
  private readonly minX: number;
  private readonly minZ: number;
  /** Scratch walkability of the rectangle being recomputed. */
  private scratch = new Uint8Array(0);
  /** Scratch "near an edge" marks of the shape being stamped. */
  private band = new Uint8Array(0);
  private readonly maxRasterWork: number;
  private readonly file: string;
  private budget: RasterBudget | null = null;

  /**
   * Validates the config and builds its grid; throws a TilenavError naming the file and element
   * on a bad config or one over the limits.
   * @param input the config as JSON text or a parsed value; validated as {@link checkPolygonConfig} says.
   */
  constructor(input: string | object, options: PolygonOptions = {}) {
    const config = checkPolygonConfig(input, options);
    this.config = config;
    const file = fileOption(options, '<polygon config>');
    this.maxRasterWork = checkLimit(options.maxRasterWork, 'maxRasterWork', DEFAULT_MAX_RASTER_WORK);
    this.file = file;
    const { cellSize, agentRadius, objectPadding } = config;
    const margin = cellSize * 2 + agentRadius + objectPadding;
    let ax = Infinity;
    let az = Infinity;
    let bx = -Infinity;
    let bz = -Infinity;
    for (const a of config.areas) {
      for (const [x, z] of a.polygon) {
        ax = Math.min(ax, x);
        az = Math.min(az, z);
        bx = Math.max(bx, x);
        bz = Math.max(bz, z);
      }
    }
    this.minX = ax - margin;
    this.minZ = az - margin;
    const width = Math.max(1, Math.ceil((bx + margin - this.minX) / cellSize));
    const depth = Math.max(1, Math.ceil((bz + margin - this.minZ) / cellSize));
    const maxCells = checkLimit(options.maxCells, 'maxCells', DEFAULT_MAX_CELLS);
    if (!Number.isFinite(width * depth) || width * depth > maxCells) {
      throw new TilenavError(`the areas span ${width} x ${depth} cells of ${cellSize}, over maxCells ${maxCells}; use a larger cellSize or maxCells`, { file, element: 'areas' });
    }
    this.grid = inFile(file, undefined, () => new NavGrid(width, depth, { projection: continuous(cellSize, this.minX, this.minZ, config.floorY), walkable: false, maxCells }));
    this.areaShapes = config.areas.map((a, k) => this.shape(`areas[${k}] ${JSON.stringify(a.name)}`, a.polygon, 0));
    this.obstacleShapes = config.obstacles.map((o, k) => this.shape(`obstacles[${k}]${o.name !== undefined ? ` ${JSON.stringify(o.name)}` : ''}`, o.polygon, agentRadius + objectPadding));
    this.recompute({ x: 0, y: 0, width, height: depth });
  }

  /**
   * Opens or closes an area (a door, a gate) and updates only the cells its polygon covers; the
   * result is exactly what a full rebuild gives. Emits one grid change event when cells changed.
   *
   * @returns the bounding rectangle of the cells that changed, or null when none did.
   */
  setAreaAvailable(name: string, available: boolean): CellRect | null {
    const i = this.config.areas.findIndex((a) => a.name === name);
    if (i < 0) throw new TilenavError(`unknown area; known: ${this.config.areas.map((a) => JSON.stringify(a.name)).join(', ')}`, { element: `area ${describe(name)}` });
    if (typeof available !== 'boolean') throw new TilenavError(`expected true or false, got ${describe(available)}`, { element: 'available' });
    if (this.config.areas[i].available === available) return null;
    this.config.areas[i].available = available;
    const s = this.areaShapes[i];
    if (s.x1 < s.x0 || s.y1 < s.y0) return null;
    return this.recompute({ x: s.x0, y: s.y0, width: s.x1 - s.x0 + 1, height: s.y1 - s.y0 + 1 });
  }

  /** Whether an area is currently available. */
  isAreaAvailable(name: string): boolean {
    const a = this.config.areas.find((x) => x.name === name);
    if (a === undefined) throw new TilenavError('unknown area', { element: `area ${describe(name)}` });
    return a.available;
  }

  /** Recomputes every cell of `r` from the polygons; writes and reports only what changed. */
  private recompute(r: CellRect): CellRect | null {
    const { grid, config } = this;
    this.budget = new RasterBudget(this.maxRasterWork, (element, max) => {
      throw new TilenavError(`rasterising the polygons takes more than ${max} units of work (maxRasterWork): too many or too large polygons for cellSize ${config.cellSize}; use a larger cellSize or maxRasterWork`, { file: this.file, element });
    });
    const w = r.width;
    if (this.scratch.length < w * r.height) this.scratch = new Uint8Array(w * r.height);
    const out = this.scratch;
    out.fill(0, 0, w * r.height);
    const bp = config.boundaryPadding;
    config.areas.forEach((a, k) => {
      if (a.available) this.stamp(this.areaShapes[k], r, 1, bp, false);
    });
    const clearance = config.agentRadius + config.objectPadding;
    for (const s of this.obstacleShapes) this.stamp(s, r, 0, clearance, true);
    const walk = grid.layers[0].walkable;
    let cx0 = Infinity;
    let cy0 = Infinity;
    let cx1 = -1;
    let cy1 = -1;
    for (let y = 0; y < r.height; y++) {
      let i = (r.y + y) * grid.width + r.x;
      for (let x = 0; x < w; x++, i++) {
        const v = out[y * w + x];
        if (walk[i] !== v) {
          walk[i] = v;
          if (x < cx0) cx0 = x;
          if (x > cx1) cx1 = x;
          if (y < cy0) cy0 = y;
          cy1 = y;
        }
      }
    }
    if (cx1 < 0) return null;
    const changed = { x: r.x + cx0, y: r.y + cy0, width: cx1 - cx0 + 1, height: cy1 - cy0 + 1 };
    grid.refresh(0, changed);
    return changed;
  }

  /**
   * Writes `value` into the scratch for every cell of `r` that the shape claims. Area mode
   * (`near` false): centre inside and, when `pad` > 0, at least `pad` from every edge. Obstacle
   * mode (`near` true): centre inside, or closer than `pad` to an edge. Row by row, the inside
   * runs between the edge crossings are filled whole; only cells near an edge are tested one by one.
   */
  private stamp(s: Shape, r: CellRect, value: number, pad: number, near: boolean): void {
    const x0 = Math.max(s.x0, r.x);
    const x1 = Math.min(s.x1, r.x + r.width - 1);
    const y0 = Math.max(s.y0, r.y);
    const y1 = Math.min(s.y1, r.y + r.height - 1);
    if (x0 > x1 || y0 > y1) return;
    const budget = this.budget!;
    budget.element = s.element;
    const { cellSize } = this.config;
    const { xs, zs } = s;
    const bw = x1 - x0 + 1;
    const out = this.scratch;
    // The crossings and the near-edge band are counted before anything is drawn, so a polygon
    // past the budget is refused at once; the inside runs are counted as they are filled.
    const scan = new EdgeScan(xs, zs, y0, y1, this.minZ, cellSize);
    budget.spend(scan.work + (pad > 0 ? this.bandWork(s, x0, y0, x1, y1, pad) : 0));
    // Obstacles write their near-edge cells straight into the scratch; areas need them apart, to leave them out.
    const band = pad > 0 ? this.markBand(s, x0, y0, x1, y1, pad, near ? value : -1, r) : null;
    const cx = (x: number) => this.minX + (x + 0.5) * cellSize;
    // Even-odd crossings of each row's centre line, sorted: a centre is inside when an odd number
    // of crossings lie to its right, the same half-open rule as a ray cast.
    scan.run((y, cr, m) => {
      const row = (y - r.y) * r.width - r.x;
      const brow = (y - y0) * bw - x0;
      // Centres in [cr[j - 1], cr[j]) have m - j crossings to their right: inside when that is odd.
      for (let j = (m & 1) === 1 ? 0 : 1; j <= m; j += 2) {
        let from = j === 0 ? x0 : firstAtOrAfter(cr[j - 1], x0, x1 + 1, cx);
        const to = j === m ? x1 : firstAtOrAfter(cr[j], x0, x1 + 1, cx) - 1;
        if (from > to) continue;
        if (band === null || near) {
          budget.spend(Math.ceil((to - from + 1) / 16));
          out.fill(value, row + from, row + to + 1);
        } else {
          budget.spend(to - from + 1);
          for (; from <= to; from++) if (band[brow + from] !== 1) out[row + from] = value;
        }
      }
    });
  }

  /**
   * An upper bound on the cells {@link markBand} tests: per edge, the rows its padded capsule
   * spans times the widest slice a row can cut from it (the edge's own width plus the padding,
   * and no more than the padded strip along it), with a cell of slack either side.
   */
  private bandWork(s: Shape, x0: number, y0: number, x1: number, y1: number, pad: number): number {
    const { cellSize } = this.config;
    const { xs, zs } = s;
    let work = 0;
    for (let e = 0, p = xs.length - 1; e < xs.length; p = e++) {
      const ex = xs[e] - xs[p];
      const ez = zs[e] - zs[p];
      const ey0 = Math.max(y0, Math.floor((Math.min(zs[p], zs[e]) - pad - this.minZ) / cellSize) - 1);
      const ey1 = Math.min(y1, Math.ceil((Math.max(zs[p], zs[e]) + pad - this.minZ) / cellSize) + 1);
      const bx0 = Math.max(x0, Math.floor((Math.min(xs[p], xs[e]) - pad - this.minX) / cellSize) - 1);
      const bx1 = Math.min(x1, Math.ceil((Math.max(xs[p], xs[e]) + pad - this.minX) / cellSize) + 1);
      if (ey1 < ey0 || bx1 < bx0) continue;
      const slice = Math.min(Math.abs(ex) + 2 * pad, ez !== 0 ? (2 * pad * Math.hypot(ex, ez)) / Math.abs(ez) : Infinity);
      work += (ey1 - ey0 + 1) * Math.min(bx1 - bx0 + 1, Math.ceil(slice / cellSize) + 4);
    }
    return work;
  }

  /**
   * Marks the cells of (x0..x1, y0..y1) whose centre is closer than `pad` to an edge of the
   * shape: in the band scratch, or, with `write` >= 0, straight into the scratch of `r`. Edge by
   * edge and row by row, only over the stretch of the row the edge's padded capsule crosses, so
   * the work follows the perimeter rather than the area.
   */
  private markBand(s: Shape, x0: number, y0: number, x1: number, y1: number, pad: number, write: number, r: CellRect): Uint8Array | null {
    const bw = x1 - x0 + 1;
    const size = bw * (y1 - y0 + 1);
    let band: Uint8Array | null = null;
    if (write < 0) {
      if (this.band.length < size) this.band = new Uint8Array(size);
      band = this.band;
      band.fill(0, 0, size);
    }
    const out = this.scratch;
    const { cellSize } = this.config;
    const { xs, zs } = s;
    const pad2 = pad * pad;
    for (let e = 0, p = xs.length - 1; e < xs.length; p = e++) {
      const ax = xs[p];
      const az = zs[p];
      const ex = xs[e] - ax;
      const ez = zs[e] - az;
      const len2 = ex * ex + ez * ez;
      const ey0 = Math.max(y0, Math.floor((Math.min(az, zs[e]) - pad - this.minZ) / cellSize) - 1);
      const ey1 = Math.min(y1, Math.ceil((Math.max(az, zs[e]) + pad - this.minZ) / cellSize) + 1);
      const bx0 = Math.max(x0, Math.floor((Math.min(ax, xs[e]) - pad - this.minX) / cellSize) - 1);
      const bx1 = Math.min(x1, Math.ceil((Math.max(ax, xs[e]) + pad - this.minX) / cellSize) + 1);
      for (let y = ey0; y <= ey1; y++) {
        const pz = this.minZ + (y + 0.5) * cellSize;
        const [lo, hi] = capsuleSpan(ax, az, ex, ez, len2, pad, pz);
        if (!(hi >= lo)) continue;
        // The exact test below decides; the span only has to cover, so one cell of slack each side.
        const ex0 = Math.max(bx0, Math.floor((lo - this.minX) / cellSize - 0.5) - 1);
        const ex1 = Math.min(bx1, Math.ceil((hi - this.minX) / cellSize - 0.5) + 1);
        if (ex1 < ex0) continue;
        const brow = (y - y0) * bw - x0;
        const orow = (y - r.y) * r.width - r.x;
        for (let x = ex0; x <= ex1; x++) {
          const px = this.minX + (x + 0.5) * cellSize;
          let t = len2 === 0 ? 0 : ((px - ax) * ex + (pz - az) * ez) / len2;
          if (t < 0) t = 0;
          else if (t > 1) t = 1;
          const dx = ax + t * ex - px;
          const dz = az + t * ez - pz;
          if (dx * dx + dz * dz < pad2) {
            if (band !== null) band[brow + x] = 1;
            else out[orow + x] = write;
          }
        }
      }
    }
    return band;
  }

  /** Flat coordinates and the cells within `reach` of the polygon's bounding box. */
  private shape(element: string, polygon: Polygon, reach: number): Shape {
    const n = polygon.length;
    const xs = new Float64Array(n);
    const zs = new Float64Array(n);
    let ax = Infinity;
    let az = Infinity;
    let bx = -Infinity;
    let bz = -Infinity;
    for (let k = 0; k < n; k++) {
      xs[k] = polygon[k][0];
      zs[k] = polygon[k][1];
      ax = Math.min(ax, xs[k]);
      az = Math.min(az, zs[k]);
      bx = Math.max(bx, xs[k]);
      bz = Math.max(bz, zs[k]);
    }
    const cs = this.config.cellSize;
    // One cell of slack each side: the stamp itself decides, the box only has to cover.
    return {
      element,
      xs,
      zs,
      x0: clamp(Math.floor((ax - reach - this.minX) / cs) - 1, 0, this.grid.width - 1),
      y0: clamp(Math.floor((az - reach - this.minZ) / cs) - 1, 0, this.grid.height - 1),
      x1: clamp(Math.ceil((bx + reach - this.minX) / cs) + 1, -1, this.grid.width - 1),
      y1: clamp(Math.ceil((bz + reach - this.minZ) / cs) + 1, -1, this.grid.height - 1),
    };
  }
}

/** The first x in [lo, hi) whose centre `cx(x)` is >= a (hi when none): a binary search on the very expression the cells use. */
function firstAtOrAfter(a: number, lo: number, hi: number, cx: (x: number) => number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cx(mid) >= a) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The x range where the horizontal line z = pz meets the capsule of radius `pad` around the
 * segment from (ax, az) along (ex, ez): the hull of its two end discs and its slab, an interval
 * since the capsule is convex. [Infinity, -Infinity] when the line misses it.
 */
function capsuleSpan(ax: number, az: number, ex: number, ez: number, len2: number, pad: number, pz: number): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const [cx, cz] of [[ax, az], [ax + ex, az + ez]]) {
    const h = pad * pad - (pz - cz) * (pz - cz);
    if (h >= 0) {
      const w = Math.sqrt(h);
      lo = Math.min(lo, cx - w);
      hi = Math.max(hi, cx + w);
    }
  }
  if (len2 > 0) {
    const dz = pz - az;
    const len = Math.sqrt(len2);
    // Perpendicular distance below pad, and the foot of the perpendicular within the segment.
    let s0 = -Infinity;
    let s1 = Infinity;
    if (ez !== 0) {
      const u = ax + (dz * ex - pad * len) / ez;
      const v = ax + (dz * ex + pad * len) / ez;
      s0 = Math.min(u, v);
      s1 = Math.max(u, v);
    } else if (Math.abs(dz) * Math.abs(ex) >= pad * len) return [lo, hi];
    if (ex !== 0) {
      const u = ax - (dz * ez) / ex;
      const v = ax + (len2 - dz * ez) / ex;
      s0 = Math.max(s0, Math.min(u, v));
      s1 = Math.min(s1, Math.max(u, v));
    } else {
      const t = (dz * ez) / len2;
      if (t < 0 || t > 1) return [lo, hi];
    }
    if (s1 >= s0) {
      lo = Math.min(lo, s0);
      hi = Math.max(hi, s1);
    }
  }
  return [lo, hi];
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}

/**
 * Validates a polygon config (a JSON string or an already parsed value) and fills in the
 * defaults, without building its grid ({@link parsePolygonConfig} builds it). Errors name the file
 * and the element path, e.g. `areas[2].polygon[5]`.
 */
export function checkPolygonConfig(input: string | unknown, options: PolygonOptions = {}): PolygonConfig {
  const file = fileOption(options, '<polygon config>');
  let root: unknown = input;
  if (typeof input === 'string') {
    if (looksLikePath(input)) throw new TilenavError(`the text ${JSON.stringify(input.trim().slice(0, 80))} ${pathNotContents('loadPolygonConfig')}`, { file });
    try {
      root = JSON.parse(input);
    } catch (e) {
      const { message, line } = jsonError(e, input, false);
      throw new TilenavError(message, { file, line });
    }
  }

  const fail = (element: string, message: string): never => {
    throw new TilenavError(message, { file, element });
  };
  if (root === null || typeof root !== 'object' || Array.isArray(root)) fail('(root)', `expected a JSON object, got ${describe(root)}`);
  const obj = root as Record<string, unknown>;
  const scalar = (key: keyof typeof DEFAULT_POLYGON_CONFIG, positive: boolean): number => {
    const v = Object.hasOwn(obj, key) ? obj[key] : undefined;
    if (v === undefined) return DEFAULT_POLYGON_CONFIG[key];
    if (typeof v !== 'number' || !Number.isFinite(v)) return fail(key, `expected a finite number, got ${describe(v)}`);
    if (positive && v <= 0) fail(key, `expected a number > 0, got ${v}`);
    if (!positive && key !== 'floorY' && v < 0) fail(key, `expected a number >= 0, got ${v}`);
    return v;
  };
  const polygon = (v: unknown, path: string): Polygon => {
    if (!Array.isArray(v)) return fail(path, `expected an array of [x, z] points, got ${describe(v)}`);
    if (v.length < 3) fail(path, `a polygon needs at least 3 points, got ${v.length}`);
    // Array.from, not map: map skips the holes of a sparse array, which a parsed value may have.
    return Array.from(v as unknown[], (p, k) => {
      if (!Array.isArray(p) || p.length !== 2) return fail(`${path}[${k}]`, `expected a point [x, z], got ${describe(p)}`);
      for (const c of p) if (typeof c !== 'number' || !Number.isFinite(c)) fail(`${path}[${k}]`, `expected finite numbers, got ${describe(c)}`);
      return [p[0], p[1]] as const;
    });
  };
  const list = (key: string, required: boolean): Record<string, unknown>[] => {
    const v = Object.hasOwn(obj, key) ? obj[key] : undefined;
    if (v === undefined && !required) return [];
    if (!Array.isArray(v)) return fail(key, `expected an array, got ${describe(v)}`);
    return Array.from(v as unknown[], (item, k) => (item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as Record<string, unknown>) : fail(`${key}[${k}]`, `expected an object, got ${describe(item)}`)));
  };
  const seen = new Set<string>();
  const areas = list('areas', true).map((a, k): NavArea => {
    const name = own(a, 'name');
    if (typeof name !== 'string' || name === '') fail(`areas[${k}].name`, `expected a non-empty string, got ${describe(name)}`);
    if (seen.has(name as string)) fail(`areas[${k}].name`, `the name ${JSON.stringify(name)} is used twice; setAreaAvailable needs unique names`);
    seen.add(name as string);
    const available = own(a, 'available') ?? true;
    if (typeof available !== 'boolean') fail(`areas[${k}].available`, `expected true or false, got ${describe(available)}`);
    return { name: name as string, available: available as boolean, polygon: polygon(own(a, 'polygon'), `areas[${k}].polygon`) };
  });
  if (areas.length === 0) fail('areas', 'expected at least one navigation area');
  const obstacles = list('obstacles', false).map((o, k): Obstacle => {
    const name = own(o, 'name');
    if (name !== undefined && typeof name !== 'string') fail(`obstacles[${k}].name`, `expected a string, got ${describe(name)}`);
    return { ...(name === undefined ? {} : { name: name as string }), polygon: polygon(own(o, 'polygon'), `obstacles[${k}].polygon`) };
  });
  return {
    cellSize: scalar('cellSize', true),
    agentRadius: scalar('agentRadius', false),
    objectPadding: scalar('objectPadding', false),
    boundaryPadding: scalar('boundaryPadding', false),
    floorY: scalar('floorY', false),
    areas,
    obstacles,
  };
}

function own(o: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

/**
 * Parses a polygon config (JSON text or a parsed value) and builds its grid: one layer, continuous
 * projection (minX, minZ, cellSize, floorY). The result has `grid`, `warnings` (always empty) and
 * `config`; call its `setAreaAvailable` to open and close areas.
 */
export function parsePolygonConfig(input: string | object, options: PolygonOptions = {}): PolygonNavigation {
  return new PolygonNavigation(input, options);
}
