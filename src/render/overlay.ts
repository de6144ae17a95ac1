import type { NavGrid } from '../grid/navgrid.js';
import type { Projection } from '../grid/projection.js';
import type { MovementName } from '../search/movement.js';

/** An opaque colour as [red, green, blue], 0..255 each. */
export type Rgb = readonly [number, number, number];

/**
 * The debug overlay's colours (green normal, yellow slow, red very slow, dark blocked) plus
 * the search overlays. Opaque, so a picture can be checked pixel by pixel.
 */
export const OVERLAY_COLORS = Object.freeze({
  /** Walkable at cost up to `OVERLAY_COST_BANDS.normal`: green. */
  normal: [46, 204, 64] as Rgb,
  /** Walkable at cost up to `OVERLAY_COST_BANDS.slow`: yellow. */
  slow: [255, 220, 0] as Rgb,
  /** Walkable at a higher cost: red. */
  verySlow: [230, 40, 30] as Rgb,
  /** Not walkable: dark grey. */
  blocked: [34, 34, 38] as Rgb,
  /** Cells the search expanded, blended over the cell colour by {@link EXPANDED_ALPHA}. */
  expanded: [70, 130, 255] as Rgb,
  /** Cells left on the open list (the frontier), blended by {@link EXPANDED_ALPHA} / 2. */
  open: [150, 220, 255] as Rgb,
  /** The path's cells: violet. */
  path: [140, 0, 255] as Rgb,
  /** The start cell: white. */
  start: [255, 255, 255] as Rgb,
  /** The goal cell: magenta. */
  goal: [255, 0, 220] as Rgb,
  /** Outside the grid (iso and hex pictures are not rectangles). */
  background: [16, 16, 20] as Rgb,
});

/**
 * Traversal cost bounds of the overlay bands: cost <= `normal` is green, <= `slow`
 * yellow, above that red.
 * @default { normal: 1, slow: 1.5 }
 */
export const OVERLAY_COST_BANDS = Object.freeze({
  /** Highest cost drawn green. */
  normal: 1,
  /** Highest cost drawn yellow. */
  slow: 1.5,
});

/** How strongly the expanded-node colour covers the cell colour, 0..1. @default 0.55 */
export const EXPANDED_ALPHA = 0.55;

/** The overlay colour of a cell from its walkability and traversal cost. */
export function cellColor(walkable: boolean, cost: number): Rgb {
  if (!walkable) return OVERLAY_COLORS.blocked;
  if (cost <= OVERLAY_COST_BANDS.normal) return OVERLAY_COLORS.normal;
  if (cost <= OVERLAY_COST_BANDS.slow) return OVERLAY_COLORS.slow;
  return OVERLAY_COLORS.verySlow;
}

/** `a` blended toward `b` by `t` (0 = a, 1 = b), rounded to bytes. */
export function blend(a: Rgb, b: Rgb, t: number): Rgb {
  return [Math.round(a[0] + (b[0] - a[0]) * t), Math.round(a[1] + (b[1] - a[1]) * t), Math.round(a[2] + (b[2] - a[2]) * t)];
}

/**
 * The movement model that matches a projection: `hex` (or the offset layout's `hex-*`) on a
 * hexagonal projection; on Tiled's staggered layouts `hex-{odd,even}-{r,q}` (with a side length)
 * or `staggered-{odd,even}-{r,q}` (diamonds; `r` staggers rows, `q` columns), as the Tiled loader
 * names them; `octile` otherwise (an isometric grid is a square grid drawn turned).
 */
export function movementFor(projection: Projection): MovementName {
  const spec = projection.spec;
  if (spec.kind === 'staggered') {
    const kind = (spec.hexSideLength ?? 0) > 0 ? 'hex' : 'staggered';
    return `${kind}-${spec.staggerIndex}-${spec.staggerAxis === 'x' ? 'q' : 'r'}` as MovementName;
  }
  if (spec.kind !== 'hexagonal') return 'octile';
  const layout = spec.layout ?? 'axial';
  return layout === 'axial' ? 'hex' : (`hex-${layout}` as MovementName);
}

/**
 * The outline of cell (x, y) in world plane coordinates (x, y; x, z for the continuous world),
 * written as x0, y0, x1, y1, ... into `out` (at least 12 numbers). Returns the vertex count: 4 for
 * square, isometric and staggered isometric cells (diamonds), 6 for hexagons (regular ones, and
 * Tiled's hexagonal maps in their own proportions). Convex, in drawing order.
 */
export function cellOutline(projection: Projection, x: number, y: number, out: Float64Array): number {
  const spec = projection.spec;
  if (spec.kind === 'hexagonal') {
    const c = projection.cellToWorld(x, y);
    const r = spec.size;
    // Pointy-top hexes have a vertex straight up; flat-top ones a vertex straight right.
    const pointy = spec.orientation !== 'flat';
    for (let k = 0; k < 6; k++) {
      const a = (Math.PI / 3) * k + (pointy ? Math.PI / 6 : 0);
      out[2 * k] = c.x + r * Math.cos(a);
      out[2 * k + 1] = c.y + r * Math.sin(a);
    }
    return 6;
  }
  if (spec.kind === 'staggered') {
    // Tiled's staggered cells: a diamond (no side length) or a hexagon whose flat sides, along the
    // axis the map is not staggered on, are hexSideLength long; both fill the cell's box.
    const c = projection.cellToWorld(x, y);
    const w = spec.tileWidth / 2;
    const h = spec.tileHeight / 2;
    const side = (spec.hexSideLength ?? 0) / 2;
    if (side <= 0) return polygon(out, c.x, c.y, [-w, 0, 0, -h, w, 0, 0, h]);
    if (spec.staggerAxis === 'x') return polygon(out, c.x, c.y, [-w, 0, -side, -h, side, -h, w, 0, side, h, -side, h]);
    return polygon(out, c.x, c.y, [-w, -side, 0, -h, w, -side, w, side, 0, h, -w, side]);
  }
  const plane = spec.kind === 'continuous';
  // Orthogonal, isometric and continuous projections are affine, so fractional cells give corners.
  const corners = [-0.5, -0.5, 0.5, -0.5, 0.5, 0.5, -0.5, 0.5];
  for (let k = 0; k < 4; k++) {
    const p = projection.cellToWorld(x + corners[2 * k], y + corners[2 * k + 1]);
    out[2 * k] = p.x;
    out[2 * k + 1] = plane ? p.z : p.y;
  }
  return 4;
}

const pickScratch = new Float64Array(12);

/**
 * The cell whose drawn outline ({@link cellOutline}) holds world point (x, y): a click picks the
 * cell it lands on. Starts from `projection.worldToCell` (nearest centre, Tiled's own rule) and,
 * where Tiled's hexagons are not regular and nearest-centre strays from the outline near a
 * corner, takes the neighbour whose outline holds the point. The cell may lie outside the grid.
 */
export function pickCell(projection: Projection, x: number, y: number): {
  /** The cell's column. */
  x: number;
  /** The cell's row. */
  y: number;
} {
  const c = projection.worldToCell(x, y);
  const kind = projection.spec.kind;
  if (kind !== 'staggered' && kind !== 'hexagonal') return c;
  for (let r = 0; r <= 1; r++) {
    for (let dy = -r; dy <= r; dy++) {
      for (let dx = -r; dx <= r; dx++) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) !== r) continue;
        const n = cellOutline(projection, c.x + dx, c.y + dy, pickScratch);
        if (insideConvex(pickScratch, n, x, y)) return { x: c.x + dx, y: c.y + dy };
      }
    }
  }
  return c;
}

/** Point in a convex polygon of either winding, edges included. */
export function insideConvex(poly: Float64Array, n: number, x: number, y: number): boolean {
  let sign = 0;
  for (let k = 0; k < n; k++) {
    const ax = poly[2 * k];
    const ay = poly[2 * k + 1];
    const j = k + 1 === n ? 0 : k + 1;
    const cross = (poly[2 * j] - ax) * (y - ay) - (poly[2 * j + 1] - ay) * (x - ax);
    if (cross === 0) continue;
    const s = cross > 0 ? 1 : -1;
    if (sign === 0) sign = s;
    else if (s !== sign) return false;
  }
  return true;
}

/** Writes the vertices (cx + dx, cy + dy) into `out`; returns their count. */
function polygon(out: Float64Array, cx: number, cy: number, d: readonly number[]): number {
  for (let k = 0; k < d.length; k += 2) {
    out[k] = cx + d[k];
    out[k + 1] = cy + d[k + 1];
  }
  return d.length / 2;
}

/** World-plane bounding box of a whole grid. */
export interface WorldBounds {
  /** Smallest x. */
  minX: number;
  /** Smallest y (z in the continuous world). */
  minY: number;
  /** Largest x. */
  maxX: number;
  /** Largest y (z in the continuous world). */
  maxY: number;
}

/**
 * The world-plane box around every cell of the grid. Only border cells are measured: with the
 * projections tilenav has, the outermost points of a grid's picture lie on them.
 */
export function gridBounds(grid: NavGrid): WorldBounds {
  const b = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  const out = new Float64Array(12);
  const visit = (x: number, y: number) => {
    const n = cellOutline(grid.projection, x, y, out);
    for (let k = 0; k < n; k++) {
      const px = out[2 * k];
      const py = out[2 * k + 1];
      if (px < b.minX) b.minX = px;
      if (px > b.maxX) b.maxX = px;
      if (py < b.minY) b.minY = py;
      if (py > b.maxY) b.maxY = py;
    }
  };
  // Two rows/columns deep: offset hex layouts push every other row half a cell outward.
  for (let x = 0; x < grid.width; x++) for (const y of [0, 1, grid.height - 2, grid.height - 1]) if (y >= 0 && y < grid.height) visit(x, y);
  for (let y = 0; y < grid.height; y++) for (const x of [0, 1, grid.width - 2, grid.width - 1]) if (x >= 0 && x < grid.width) visit(x, y);
  return b;
}
