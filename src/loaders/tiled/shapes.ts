/**
 * Collision shapes onto cells. Orthogonal and isometric maps map Tiled's object pixels to cells by
 * a scale, so coverage is exact: a cell is covered when the shape overlaps it with positive area
 * (its centre lies inside, or an outline passes through its interior; a shape that only touches a
 * cell's border does not cover it). Staggered and hexagonal maps store objects in screen pixels,
 * where cells are not a scaled square lattice; there a cell is covered when its centre lies inside
 * the shape or the shape's outline passes through it (sampled every quarter tile).
 */
import type { Projection } from '../../grid/projection.js';
import type { RasterBudget } from '../limits.js';
import type { RawObject } from './model.js';

export { DEFAULT_MAX_RASTER_WORK } from '../limits.js';

/** A shape in map pixels: a closed polygon, or an open polyline of zero width. */
export interface PixelShape {
  closed: boolean;
  /** Flat [x0, y0, x1, y1, ...]. */
  pts: number[];
}

const ELLIPSE_SEGMENTS = 32;

/**
 * An object's outline in map pixels, rotated as Tiled rotates it (degrees clockwise about (x, y)).
 * Points and text yield nothing; a polyline yields one quad per segment when `lineWidth` > 0.
 */
export function objectShapes(o: RawObject, lineWidth: number): PixelShape[] {
  let local: number[];
  let closed = true;
  switch (o.shape) {
    case 'rectangle':
      if (!(o.width > 0 && o.height > 0)) return [];
      // Tile objects hang from their bottom-left corner.
      local = o.gid !== 0 ? [0, -o.height, o.width, -o.height, o.width, 0, 0, 0] : [0, 0, o.width, 0, o.width, o.height, 0, o.height];
      break;
    case 'ellipse': {
      if (!(o.width > 0 && o.height > 0)) return [];
      local = [];
      const rx = o.width / 2;
      const ry = o.height / 2;
      // Vertices on a slightly larger ellipse, so the polygon circumscribes the true one.
      const k = 1 / Math.cos(Math.PI / ELLIPSE_SEGMENTS);
      for (let i = 0; i < ELLIPSE_SEGMENTS; i++) {
        const t = ((i + 0.5) / ELLIPSE_SEGMENTS) * 2 * Math.PI;
        local.push(rx + rx * k * Math.cos(t), ry + ry * k * Math.sin(t));
      }
      break;
    }
    case 'polygon':
      if (o.points.length < 6) return [];
      local = o.points;
      break;
    case 'polyline':
      if (o.points.length < 4) return [];
      local = o.points;
      closed = false;
      break;
    default:
      return [];
  }
  const c = Math.cos((o.rotation * Math.PI) / 180);
  const s = Math.sin((o.rotation * Math.PI) / 180);
  const pts: number[] = [];
  for (let i = 0; i < local.length; i += 2) pts.push(o.x + local[i] * c - local[i + 1] * s, o.y + local[i] * s + local[i + 1] * c);
  if (closed || !(lineWidth > 0)) return [{ closed, pts }];
  const out: PixelShape[] = [];
  const hw = lineWidth / 2;
  for (let i = 0; i + 3 < pts.length; i += 2) {
    const [x0, y0, x1, y1] = [pts[i], pts[i + 1], pts[i + 2], pts[i + 3]];
    const len = Math.hypot(x1 - x0, y1 - y0);
    if (len === 0) continue;
    const nx = (-(y1 - y0) / len) * hw;
    const ny = ((x1 - x0) / len) * hw;
    out.push({ closed: true, pts: [x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny] });
  }
  return out;
}

/**
 * Marks every cell of a W x H grid a shape covers, for maps whose cells are scaled pixels. Only the
 * part of the shape on the grid costs work, so a shape a million maps wide costs what its part on
 * this one does; the work is counted against `budget`.
 */
export function rasterScaled(shape: PixelShape, sx: number, sy: number, ox: number, oy: number, W: number, H: number, mark: (i: number) => void, budget: RasterBudget): void {
  const p = shape.pts.map((v, i) => (i & 1 ? v * sy - oy : v * sx - ox));
  const n = p.length / 2;
  const segs = shape.closed ? n : n - 1;
  budget.spend(segs);
  for (let e = 0; e < segs; e++) {
    const a = 2 * e;
    const b = 2 * ((e + 1) % n);
    markSegment(p[a], p[a + 1], p[b], p[b + 1], W, H, mark, budget);
  }
  if (!shape.closed) return;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let i = 1; i < p.length; i += 2) {
    minY = Math.min(minY, p[i]);
    maxY = Math.max(maxY, p[i]);
  }
  const xs: number[] = [];
  for (let cy = Math.max(0, Math.floor(minY)); cy <= Math.min(H - 1, Math.floor(maxY)); cy++) {
    const yc = cy + 0.5;
    xs.length = 0;
    budget.spend(n);
    for (let e = 0; e < n; e++) {
      const x0 = p[2 * e];
      const y0 = p[2 * e + 1];
      const x1 = p[2 * ((e + 1) % n)];
      const y1 = p[2 * ((e + 1) % n) + 1];
      if (y0 <= yc !== y1 <= yc) xs.push(x0 + ((yc - y0) * (x1 - x0)) / (y1 - y0));
    }
    xs.sort((u, v) => u - v);
    for (let k = 0; k + 1 < xs.length; k += 2) {
      const from = Math.max(0, Math.ceil(xs[k] - 0.5));
      const to = Math.min(W - 1, Math.floor(xs[k + 1] - 0.5));
      if (to >= from) budget.spend(to - from + 1);
      for (let cx = from; cx <= to; cx++) mark(cy * W + cx);
    }
  }
}

/** The parameter range [t0, t1] of the segment inside the box [x0, x1] x [y0, y1], or null when it misses it. */
function clipRange(ax: number, ay: number, bx: number, by: number, x0: number, y0: number, x1: number, y1: number): [number, number] | null {
  let t0 = 0;
  let t1 = 1;
  const dx = bx - ax;
  const dy = by - ay;
  const ps = [-dx, dx, -dy, dy];
  const qs = [ax - x0, x1 - ax, ay - y0, y1 - ay];
  for (let k = 0; k < 4; k++) {
    if (ps[k] === 0) {
      if (qs[k] < 0) return null;
      continue;
    }
    const r = qs[k] / ps[k];
    if (ps[k] < 0) t0 = Math.max(t0, r);
    else t1 = Math.min(t1, r);
    if (t0 > t1) return null;
  }
  return [t0, t1];
}

/**
 * Cells whose open interior the segment passes through. The segment is clipped to the grid, then
 * walked row by row: in each row only the cells its span there reaches (one either side for
 * rounding) are tested, so the work follows the cells it crosses, not its bounding box.
 */
function markSegment(x0: number, y0: number, x1: number, y1: number, W: number, H: number, mark: (i: number) => void, budget: RasterBudget): void {
  const clip = clipRange(x0, y0, x1, y1, -1, -1, W + 1, H + 1);
  if (clip === null) return;
  const dx = x1 - x0;
  const dy = y1 - y0;
  const [c0, c1] = clip;
  const ya = y0 + c0 * dy;
  const yb = y0 + c1 * dy;
  const fy = Math.max(0, Math.floor(Math.min(ya, yb)));
  const ty = Math.min(H - 1, Math.floor(Math.max(ya, yb)));
  for (let cy = fy; cy <= ty; cy++) {
    let ta = c0;
    let tb = c1;
    if (dy !== 0) {
      const r0 = (cy - y0) / dy;
      const r1 = (cy + 1 - y0) / dy;
      ta = Math.max(c0, Math.min(r0, r1));
      tb = Math.min(c1, Math.max(r0, r1));
    }
    const xa = x0 + ta * dx;
    const xb = x0 + tb * dx;
    const fx = Math.max(0, Math.floor(Math.min(xa, xb)) - 1);
    const tx = Math.min(W - 1, Math.floor(Math.max(xa, xb)) + 1);
    if (tx < fx) continue;
    budget.spend(tx - fx + 1);
    for (let cx = fx; cx <= tx; cx++) if (entersOpenSquare(x0, y0, x1, y1, cx, cy)) mark(cy * W + cx);
  }
}

/** Liang-Barsky clip against the open unit square at (cx, cy): true when a positive length lies inside. */
function entersOpenSquare(x0: number, y0: number, x1: number, y1: number, cx: number, cy: number): boolean {
  const dx = x1 - x0;
  const dy = y1 - y0;
  let t0 = 0;
  let t1 = 1;
  const ps = [-dx, dx, -dy, dy];
  const qs = [x0 - cx, cx + 1 - x0, y0 - cy, cy + 1 - y0];
  for (let k = 0; k < 4; k++) {
    const pk = ps[k];
    const qk = qs[k];
    if (pk === 0) {
      if (qk <= 0) return false;
      continue;
    }
    const r = qk / pk;
    if (pk < 0) t0 = Math.max(t0, r);
    else t1 = Math.min(t1, r);
    if (t0 >= t1) return false;
  }
  return t1 - t0 > 1e-12;
}

/**
 * Marks the cells a shape covers on a staggered / hexagonal map (see the module comment). Outlines
 * are clipped to the map's pixel bounds (`bounds`: x0, y0, x1, y1, with a tile's margin) before
 * they are sampled, and the interior test runs only over cells under the clipped bounding box.
 */
export function rasterProjected(shape: PixelShape, projection: Projection, sample: number, bounds: readonly [number, number, number, number], W: number, H: number, mark: (i: number) => void, budget: RasterBudget): void {
  const p = shape.pts;
  const [bx0, by0, bx1, by1] = bounds;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < p.length; i += 2) {
    minX = Math.min(minX, p[i]);
    maxX = Math.max(maxX, p[i]);
    minY = Math.min(minY, p[i + 1]);
    maxY = Math.max(maxY, p[i + 1]);
  }
  if (maxX < bx0 || maxY < by0 || minX > bx1 || minY > by1) return;
  const at = { x: 0, y: 0 };
  const markPx = (x: number, y: number) => {
    projection.worldToCell(x, y, at);
    if (at.x >= 0 && at.y >= 0 && at.x < W && at.y < H) mark(at.y * W + at.x);
  };
  const n = p.length / 2;
  const segs = shape.closed ? n : n - 1;
  budget.spend(segs);
  for (let e = 0; e < segs; e++) {
    const ax = p[2 * e];
    const ay = p[2 * e + 1];
    const bx = p[2 * ((e + 1) % n)];
    const by = p[2 * ((e + 1) % n) + 1];
    const clip = clipRange(ax, ay, bx, by, bx0, by0, bx1, by1);
    if (clip === null) continue;
    const x0 = ax + (bx - ax) * clip[0];
    const y0 = ay + (by - ay) * clip[0];
    const x1 = ax + (bx - ax) * clip[1];
    const y1 = ay + (by - ay) * clip[1];
    const steps = Math.max(1, Math.ceil(Math.hypot(x1 - x0, y1 - y0) / sample));
    budget.spend(steps);
    for (let k = 0; k <= steps; k++) markPx(x0 + ((x1 - x0) * k) / steps, y0 + ((y1 - y0) * k) / steps);
  }
  if (!shape.closed) return;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const [x, y] of [[Math.max(minX, bx0), Math.max(minY, by0)], [Math.min(maxX, bx1), Math.max(minY, by0)], [Math.max(minX, bx0), Math.min(maxY, by1)], [Math.min(maxX, bx1), Math.min(maxY, by1)]]) {
    projection.worldToCell(x, y, at);
    x0 = Math.min(x0, at.x);
    x1 = Math.max(x1, at.x);
    y0 = Math.min(y0, at.y);
    y1 = Math.max(y1, at.y);
  }
  const c = { x: 0, y: 0, z: 0 };
  const cx0 = Math.max(0, x0 - 2);
  const cx1 = Math.min(W - 1, x1 + 2);
  for (let cy = Math.max(0, y0 - 2); cy <= Math.min(H - 1, y1 + 2); cy++) {
    if (cx1 >= cx0) budget.spend((cx1 - cx0 + 1) * n);
    for (let cx = cx0; cx <= cx1; cx++) {
      projection.cellToWorld(cx, cy, c);
      if (inside(p, c.x, c.y)) mark(cy * W + cx);
    }
  }
}

/** The pixel box a staggered / hexagonal map's cells lie in, with `margin` pixels around it. */
export function projectedBounds(projection: Projection, W: number, H: number, margin: number): [number, number, number, number] {
  const c = { x: 0, y: 0, z: 0 };
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  // The corner cells and their neighbours along each edge cover both stagger parities.
  for (const cx of [0, 1, W - 2, W - 1]) {
    for (const cy of [0, 1, H - 2, H - 1]) {
      if (cx < 0 || cy < 0 || cx >= W || cy >= H) continue;
      projection.cellToWorld(cx, cy, c);
      x0 = Math.min(x0, c.x);
      y0 = Math.min(y0, c.y);
      x1 = Math.max(x1, c.x);
      y1 = Math.max(y1, c.y);
    }
  }
  return [x0 - margin, y0 - margin, x1 + margin, y1 + margin];
}

/** Even-odd point in polygon. */
function inside(p: number[], x: number, y: number): boolean {
  let on = false;
  const n = p.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = p[2 * i];
    const yi = p[2 * i + 1];
    const xj = p[2 * j];
    const yj = p[2 * j + 1];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) on = !on;
  }
  return on;
}
