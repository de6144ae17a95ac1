import { TilenavError, describe } from '../errors.js';
import type { NavGrid, SearchView } from '../grid/navgrid.js';
import type { WorldPoint } from '../grid/projection.js';
import { cellStep, planeOf, worldToCellPoint } from '../path/smooth.js';
import { padXY } from '../grid/padded.js';

/**
 * Something standing in the way for one query (another unit, a cart): a circle at a world position with a
 * collision radius in world units. Plane coordinates as the projection uses them: (x, z) in the
 * continuous world, (x, y) otherwise.
 */
export interface DynamicObstacle {
  /** World x of the centre. */
  x: number;
  /** World y of the centre (the continuous world uses `z` instead; `y` must still be finite). */
  y: number;
  /** World z of the centre: the second plane coordinate in the continuous world (default 0); unused elsewhere. */
  z?: number;
  /** Collision radius in world units; the stamped circle is `radius x radiusFraction`. */
  radius: number;
}

/** How obstacles are stamped for a query. */
export interface DynamicObstacleOptions {
  /**
   * Fraction of each obstacle's radius stamped as blocked: less than 1 keeps planning from being
   * over-cautious, while collision resolution keeps the full separation. @default 0.6
   */
  radiusFraction?: number;
  /** Only obstacles within this distance (world units) of the start-end segment are stamped. @default 6 */
  influence?: number;
}

/** The defaults of {@link DynamicObstacleOptions}: radius fraction 0.6, influence 6 world units. */
export const DEFAULT_DYNAMIC_OBSTACLE_OPTIONS = Object.freeze({
  /** Fraction of each obstacle's radius stamped as blocked. */
  radiusFraction: 0.6,
  /** Distance from the start-end segment within which obstacles count, world units. */
  influence: 6,
});

/**
 * A per-query copy of a layer's search view with dynamic obstacles stamped on it; the grid and its
 * view are never written. Each Pathfinder keeps one per layer for `findPath`'s `obstacles`, reused
 * between queries: while the grid's version is unchanged only the cells the previous query stamped
 * are restored, so a query costs O(stamped cells), not O(grid).
 */
export class ObstacleOverlay {
  /** The grid whose layer is copied. */
  readonly grid: NavGrid;
  /** The layer, by index. */
  readonly layer: number;
  private pass: Float32Array | null = null;
  private view: SearchView | null = null;
  private version = -1;
  private base: SearchView | null = null;
  private stamped = new Int32Array(64);
  private count = 0;
  private readonly scratch: WorldPoint = { x: 0, y: 0, z: 0 };
  private readonly ownCell = { x: 0, y: 0 };

  /** An overlay for `layer` (index or name) of `grid`; the copy is made at the first `stamp`. */
  /** Bytes held: the copy of the view's costs and the list of stamped cells. */
  get bytes(): number {
    return (this.pass?.byteLength ?? 0) + this.stamped.byteLength;
  }

  /** An overlay of `layer`; its copy of the view is made by the first {@link stamp}. */
  constructor(grid: NavGrid, layer: number | string = 0) {
    this.grid = grid;
    this.layer = grid.layerIndex(layer);
  }

  /**
   * The layer's view with every obstacle near the segment from cell (sx, sy) to cell (gx, gy)
   * stamped blocked: cells whose centre lies within the stamped radius, and the cell holding the
   * obstacle's centre. The start cell is never stamped (a unit does not block itself out).
   * Valid until the next call. `base` stacks the stamps on another overlay (a clearance view).
   */
  stamp(obstacles: readonly DynamicObstacle[], sx: number, sy: number, gx: number, gy: number, options: DynamicObstacleOptions = {}, base: SearchView = this.grid.searchView(this.layer)): SearchView {
    const grid = this.grid;
    grid.searchView(this.layer);
    const fraction = options.radiusFraction ?? DEFAULT_DYNAMIC_OBSTACLE_OPTIONS.radiusFraction;
    const influence = options.influence ?? DEFAULT_DYNAMIC_OBSTACLE_OPTIONS.influence;
    if (typeof fraction !== 'number' || !(fraction >= 0) || !Number.isFinite(fraction)) throw new TilenavError(`expected a finite number >= 0, got ${describe(fraction)}`, { element: 'radiusFraction' });
    if (typeof influence !== 'number' || !(influence >= 0)) throw new TilenavError(`expected a number >= 0, got ${describe(influence)}`, { element: 'influence' });
    let pass = this.pass;
    if (pass === null || this.version !== grid.version || pass.length !== base.pass.length || this.base !== base) {
      this.base = base;
      pass = this.pass = new Float32Array(base.pass);
      this.version = grid.version;
      this.count = 0;
    } else {
      const src = base.pass;
      const st = this.stamped;
      for (let k = 0; k < this.count; k++) pass[st[k]] = src[st[k]];
      this.count = 0;
    }
    const view: SearchView = (this.view ??= { stride: base.stride, pass, exits: null, walls: null, minCost: 1, maxCost: 1, uniform: true, statsValid: true, exitsValid: true });
    (view as { pass: Float32Array }).pass = pass;
    view.exits = base.exits;
    view.walls = base.walls;
    view.minCost = base.minCost;
    view.maxCost = base.maxCost;
    view.uniform = base.uniform;

    const proj = grid.projection;
    const W = base.stride;
    const step = cellStep(proj);
    const a = proj.cellToWorld(sx, sy);
    const b = proj.cellToWorld(gx, gy);
    const [ax, az] = planeOf(proj, a);
    const [bx, bz] = planeOf(proj, b);
    const startP = padXY(W, sx, sy);
    // The plane's second axis (see planeOf), read from reused points: no object per stamped cell.
    const continuous = proj.spec.kind === 'continuous';
    // Cells whose centre can lie within r of an obstacle: on square grids exactly those within
    // r / (cell size) cells of it on each axis; other projections scan one cell more.
    const spec = proj.spec;
    const square = spec.kind === 'orthogonal' || spec.kind === 'continuous';
    const reach = spec.kind === 'orthogonal' ? Math.min(spec.tileWidth, spec.tileHeight) : step;
    const pad = square ? 1e-9 : 1;
    const cp = { x: 0, y: 0 };
    const w = this.scratch;
    for (const o of obstacles) {
      if (o === null || typeof o !== 'object' || !Number.isFinite(o.x) || !Number.isFinite(o.y) || !(o.radius >= 0)) {
        throw new TilenavError('expected { x, y, z?, radius } with finite numbers and radius >= 0', { element: 'obstacle' });
      }
      const ox = o.x;
      const oz = continuous ? (o.z ?? 0) : o.y;
      if (!Number.isFinite(oz)) throw new TilenavError('expected a finite z in the continuous world', { element: 'obstacle' });
      if (distToSegment(ox, oz, ax, az, bx, bz) > influence) continue;
      const r = o.radius * fraction;
      const r2 = r * r;
      const c = worldToCellPoint(proj, ox, oz, cp);
      const own = proj.worldToCell(ox, oz, this.ownCell);
      if (grid.inBounds(own.x, own.y)) this.block(padXY(W, own.x, own.y), startP);
      const rc = r / reach + pad;
      const x0 = Math.max(0, Math.floor(c.x - rc));
      const x1 = Math.min(grid.width - 1, Math.ceil(c.x + rc));
      const y0 = Math.max(0, Math.floor(c.y - rc));
      const y1 = Math.min(grid.height - 1, Math.ceil(c.y + rc));
      for (let y = y0; y <= y1; y++) {
        for (let x = x0; x <= x1; x++) {
          proj.cellToWorld(x, y, w);
          const dx = w.x - ox;
          const dz = (continuous ? w.z : w.y) - oz;
          if (dx * dx + dz * dz <= r2) this.block(padXY(W, x, y), startP);
        }
      }
    }
    return view;
  }

  /** Blocks padded cell p on the overlay (never the start, `startP`), remembering it for the next restore. */
  private block(p: number, startP: number): void {
    const pass = this.pass as Float32Array;
    if (p === startP || pass[p] === 0) return;
    pass[p] = 0;
    if (this.count === this.stamped.length) {
      const s = new Int32Array(this.stamped.length * 2);
      s.set(this.stamped);
      this.stamped = s;
    }
    this.stamped[this.count++] = p;
  }
}

function distToSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : ((px - ax) * dx + (py - ay) * dy) / len2;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}
