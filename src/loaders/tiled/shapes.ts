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
import { EdgeScan } from '../scanline.js';

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
 * this one does. The outline's cells and the interior's crossings are counted against `budget`
 * before anything is drawn (a shape past it is refused at once), the interior's cells as they are
 * filled.
 */
export function rasterScaled(shape: PixelShape, sx: number, sy: number, ox: number, oy: number, W: number, H: number, mark: (i: number) => void, budget: RasterBudget): void {
  const n = shape.pts.length / 2;
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    xs[k] = shape.pts[2 * k] * sx - ox;
    ys[k] = shape.pts[2 * k + 1] * sy - oy;
  }
  const segs = shape.closed ? n : n - 1;
  // Clip once: each segment's parameter range on the grid (NaN: off it), and the cells its walk visits.
  const clips = new Float64Array(2 * segs);
  let work = segs;
  for (let e = 0; e < segs; e++) {
    const b = e + 1 === n ? 0 : e + 1;
    const c = clipRange(xs[e], ys[e], xs[b], ys[b], -1, -1, W + 1, H + 1);
    clips[2 * e] = c === null ? NaN : c[0];
    clips[2 * e + 1] = c === null ? NaN : c[1];
    if (c !== null) work += segmentWork(xs[e], ys[e], xs[b], ys[b], c[0], c[1], H);
  }
  const scan = shape.closed ? new EdgeScan(xs, ys, 0, H - 1, 0, 1) : null;
  if (scan !== null) work += scan.work;
  budget.spend(work);
  for (let e = 0; e < segs; e++) {
    const c0 = clips[2 * e];
    if (c0 !== c0) continue;
    const b = e + 1 === n ? 0 : e + 1;
    markSegment(xs[e], ys[e], xs[b], ys[b], c0, clips[2 * e + 1], W, H, mark);
  }
  // Centres between crossings (row line cy + 0.5, even-odd) are inside.
  scan?.run((cy, cross, m) => {
    for (let k = 0; k + 1 < m; k += 2) {
      const from = Math.max(0, Math.ceil(cross[k] - 0.5));
      const to = Math.min(W - 1, Math.floor(cross[k + 1] - 0.5));
      if (to < from) continue;
      budget.spend(to - from + 1);
      for (let cx = from; cx <= to; cx++) mark(cy * W + cx);
    }
  });
}

/** The parameter range [t0, t1] of the segment inside the box [x0, x1] x [y0, y1], or null when it misses it. */
function clipRange(ax: number, ay: number, bx: number, by: number, x0: number, y0: number, x1: number, y1: number): [number, number] | null {
  let t0 = 0;
  let t1 = 1;
  const dx = bx - ax;
  const dy = by - ay;
  // The four sides in turn: p * t <= q keeps the segment on the box's side of each.
  for (let k = 0; k < 4; k++) {
    const p = k === 0 ? -dx : k === 1 ? dx : k === 2 ? -dy : dy;
    const q = k === 0 ? ax - x0 : k === 1 ? x1 - ax : k === 2 ? ay - y0 : y1 - ay;
    if (p === 0) {
      if (q < 0) return null;
      continue;
    }
    const r = q / p;
    if (p < 0) t0 = Math.max(t0, r);
    else t1 = Math.min(t1, r);
    if (t0 > t1) return null;
  }
  return [t0, t1];
}

/** The rows of a clipped segment on the grid: [first, last] (first > last when none). */
function segmentRows(y0: number, y1: number, c0: number, c1: number, H: number): [number, number] {
  const dy = y1 - y0;
  const ya = y0 + c0 * dy;
  const yb = y0 + c1 * dy;
  return [Math.max(0, Math.floor(Math.min(ya, yb))), Math.min(H - 1, Math.floor(Math.max(ya, yb)))];
}

/** An upper bound on the cells {@link markSegment} tests: the clipped segment's columns, plus 4 per row. */
function segmentWork(x0: number, y0: number, x1: number, y1: number, c0: number, c1: number, H: number): number {
  const [fy, ty] = segmentRows(y0, y1, c0, c1, H);
  if (ty < fy) return 0;
  return Math.ceil(Math.abs((c1 - c0) * (x1 - x0))) + 4 * (ty - fy + 1) + 1;
}

/**
 * Cells whose open interior the segment passes through, given its part on the grid (parameters
 * c0..c1, from {@link clipRange}). Walked row by row: in each row only the cells its span there
 * reaches (one either side for rounding) are tested, so the work follows the cells it crosses,
 * not its bounding box.
 */
function markSegment(x0: number, y0: number, x1: number, y1: number, c0: number, c1: number, W: number, H: number, mark: (i: number) => void): void {
  const dx = x1 - x0;
  const dy = y1 - y0;
  const [fy, ty] = segmentRows(y0, y1, c0, c1, H);
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
    const lo = Math.floor(Math.min(xa, xb));
    const hi = Math.floor(Math.max(xa, xb));
    const fx = Math.max(0, lo - 1);
    const tx = Math.min(W - 1, hi + 1);
    // Cells a whole cell inside the row's span are crossed from side to side, within the open
    // row: entered, so only the few at either end need the exact test. (Past 2^36 cells of dx the
    // test's tolerance on the parameter says otherwise, so such segments test every cell.)
    const inner0 = dy !== 0 && Math.abs(dx) < 2 ** 36 ? Math.max(fx, lo + 2) : tx + 1;
    const inner1 = Math.min(tx, hi - 2);
    for (let cx = fx; cx <= tx; cx++) {
      if (cx === inner0 && inner1 >= inner0) {
        for (; cx <= inner1; cx++) mark(cy * W + cx);
        cx--;
      } else if (entersOpenSquare(x0, y0, dx, dy, cx, cy)) mark(cy * W + cx);
    }
  }
}

/**
 * Liang-Barsky clip of the segment from (x0, y0) along (dx, dy) against the open unit square at
 * (cx, cy): true when a positive length lies inside. The four sides in turn (left, right, top,
 * bottom), written out: this runs for every cell a segment may cross.
 */
function entersOpenSquare(x0: number, y0: number, dx: number, dy: number, cx: number, cy: number): boolean {
  let t0 = 0;
  let t1 = 1;
  let q = x0 - cx;
  if (dx === 0) {
    if (q <= 0) return false;
  } else {
    const r = q / -dx;
    if (-dx < 0) t0 = Math.max(t0, r);
    else t1 = Math.min(t1, r);
    if (t0 >= t1) return false;
  }
  q = cx + 1 - x0;
  if (dx === 0) {
    if (q <= 0) return false;
  } else {
    const r = q / dx;
    if (dx < 0) t0 = Math.max(t0, r);
    else t1 = Math.min(t1, r);
    if (t0 >= t1) return false;
  }
  q = y0 - cy;
  if (dy === 0) {
    if (q <= 0) return false;
  } else {
    const r = q / -dy;
    if (-dy < 0) t0 = Math.max(t0, r);
    else t1 = Math.min(t1, r);
    if (t0 >= t1) return false;
  }
  q = cy + 1 - y0;
  if (dy === 0) {
    if (q <= 0) return false;
  } else {
    const r = q / dy;
    if (dy < 0) t0 = Math.max(t0, r);
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
  // Clip once, and count the outline's samples and the interior's scan lines before drawing any.
  const clips = new Float64Array(2 * segs);
  let work = segs;
  for (let e = 0; e < segs; e++) {
    const b = e + 1 === n ? 0 : e + 1;
    const clip = clipRange(p[2 * e], p[2 * e + 1], p[2 * b], p[2 * b + 1], bx0, by0, bx1, by1);
    clips[2 * e] = clip === null ? NaN : clip[0];
    clips[2 * e + 1] = clip === null ? NaN : clip[1];
    if (clip !== null) work += sampleSteps(p[2 * e], p[2 * e + 1], p[2 * b], p[2 * b + 1], clip[0], clip[1], sample) + 1;
  }
  let cx0 = 0;
  let cx1 = -1;
  let cy0 = 0;
  let cy1 = -1;
  if (shape.closed) {
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
    cx0 = Math.max(0, x0 - 2);
    cx1 = Math.min(W - 1, x1 + 2);
    cy0 = Math.max(0, y0 - 2);
    cy1 = Math.min(H - 1, y1 + 2);
    // Each cell's centre is tested against the crossings of its line (a staggered row has at most
    // two: its shifted and unshifted cells), found once per line with every edge.
    if (cx1 >= cx0 && cy1 >= cy0) work += (cy1 - cy0 + 1) * (Math.min(2, cx1 - cx0 + 1) * n + (cx1 - cx0 + 1) * Math.max(1, Math.ceil(Math.log2(n + 1))));
  }
  budget.spend(work);
  for (let e = 0; e < segs; e++) {
    const t0 = clips[2 * e];
    if (t0 !== t0) continue;
    const b = e + 1 === n ? 0 : e + 1;
    const ax = p[2 * e];
    const ay = p[2 * e + 1];
    const bx = p[2 * b];
    const by = p[2 * b + 1];
    const t1 = clips[2 * e + 1];
    const x0 = ax + (bx - ax) * t0;
    const y0 = ay + (by - ay) * t0;
    const x1 = ax + (bx - ax) * t1;
    const y1 = ay + (by - ay) * t1;
    const steps = sampleSteps(ax, ay, bx, by, t0, t1, sample);
    for (let k = 0; k <= steps; k++) markPx(x0 + ((x1 - x0) * k) / steps, y0 + ((y1 - y0) * k) / steps);
  }
  if (!shape.closed) return;
  const c = { x: 0, y: 0, z: 0 };
  const lines = new CrossingLines(p);
  for (let cy = cy0; cy <= cy1; cy++) {
    for (let cx = cx0; cx <= cx1; cx++) {
      projection.cellToWorld(cx, cy, c);
      if (lines.inside(c.x, c.y)) mark(cy * W + cx);
    }
  }
}

/** The steps an outline segment's clipped part is sampled in, one every `sample` pixels. */
function sampleSteps(ax: number, ay: number, bx: number, by: number, t0: number, t1: number, sample: number): number {
  const x0 = ax + (bx - ax) * t0;
  const y0 = ay + (by - ay) * t0;
  const x1 = ax + (bx - ax) * t1;
  const y1 = ay + (by - ay) * t1;
  return Math.max(1, Math.ceil(Math.hypot(x1 - x0, y1 - y0) / sample));
}

/**
 * Even-odd point in polygon by horizontal lines: a line's crossings are found once, with every
 * edge, and sorted; a point is inside when an odd number of them lie to its right. The last two
 * lines are kept, so the alternating lines of a staggered row are each found once.
 */
class CrossingLines {
  private readonly ys = [NaN, NaN];
  private readonly cross: Float64Array[] = [new Float64Array(0), new Float64Array(0)];
  private older = 0;

  constructor(private readonly p: number[]) {}

  inside(x: number, y: number): boolean {
    let which = this.ys[0] === y ? 0 : this.ys[1] === y ? 1 : -1;
    if (which < 0) {
      which = this.older;
      this.older ^= 1;
      this.ys[which] = y;
      this.cross[which] = this.crossings(y);
    }
    const cr = this.cross[which];
    // Crossings strictly right of x: those past the last one <= x.
    let lo = 0;
    let hi = cr.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cr[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return ((cr.length - lo) & 1) === 1;
  }

  /** The x of every edge crossing the line at y, by the same expression (and half-open rule) as a ray cast, sorted. */
  private crossings(y: number): Float64Array {
    const p = this.p;
    const n = p.length / 2;
    const out: number[] = [];
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const xi = p[2 * i];
      const yi = p[2 * i + 1];
      const xj = p[2 * j];
      const yj = p[2 * j + 1];
      if (yi > y !== yj > y) {
        const x = ((xj - xi) * (y - yi)) / (yj - yi) + xi;
        // A NaN crossing (from infinite coordinates) is never right of a point, as in a ray cast.
        if (x === x) out.push(x);
      }
    }
    return Float64Array.from(out).sort();
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
