import type { NavGrid } from '../grid/navgrid.js';
import { cellOf } from './planner.js';

/** A formation: one slot per unit, in the order the units were given. */
export interface Formation {
  /** [x0, y0, x1, y1, ...] in cell coordinates, slot k for unit k. */
  slots: Float64Array;
  /** Direction the formation faces (radians, atan2 of y over x): from the group's centroid to the click. */
  facing: number;
  /** The cell the formation is centred on (the click, or the walkable cell nearest it). */
  center: number;
}

const REACHED = 1;
const TAKEN = 2;

/**
 * Formation slots for a group order: a box of rows facing the way the group travels, centred on
 * the clicked point, `spacing` cells between neighbours. A slot whose cell is blocked, off the grid or
 * not reachable from the centre (across a wall) moves to the nearest free reachable cell within
 * four cells, else to the free reachable cell nearest the centre (in steps); a centre
 * on a blocked cell moves to the nearest walkable one. Units are matched to slots front-to-front
 * and left-to-right, so the group keeps its shape and paths do not cross needlessly.
 *
 * `xs`/`ys` are the units' positions in cell coordinates. Returns null when no walkable cell lies
 * within `searchRadius` of the click.
 */
export function planFormation(grid: NavGrid, layer: number, xs: ArrayLike<number>, ys: ArrayLike<number>, toX: number, toY: number, spacing: number, searchRadius = 16): Formation | null {
  const n = xs.length;
  const walk = grid.layers[layer].walkable;
  const W = grid.width;
  let center = nearestCell(grid, walk, cellOf(toX), cellOf(toY), searchRadius, null);
  if (center < 0) return null;
  const cx = grid.xOf(center) === cellOf(toX) && grid.yOf(center) === cellOf(toY) ? toX : grid.xOf(center);
  const cy = grid.xOf(center) === cellOf(toX) && grid.yOf(center) === cellOf(toY) ? toY : grid.yOf(center);
  let mx = 0;
  let my = 0;
  for (let k = 0; k < n; k++) {
    mx += xs[k];
    my += ys[k];
  }
  mx /= Math.max(1, n);
  my /= Math.max(1, n);
  const facing = Math.abs(cx - mx) + Math.abs(cy - my) < 1e-9 ? 0 : Math.atan2(cy - my, cx - mx);
  const fx = Math.cos(facing);
  const fy = Math.sin(facing);
  const cols = Math.ceil(Math.sqrt(n));
  const rows = Math.ceil(n / cols);

  // Reachable cells around the centre: a breadth-first flood, widened until it holds every slot.
  const mark = new Uint8Array(grid.size);
  let radius = Math.ceil((Math.max(rows, cols) * spacing) / 2) + 4;
  let reached: Int32Array;
  let count: number;
  for (;;) {
    mark.fill(0);
    reached = new Int32Array(Math.min(grid.size, (2 * radius + 1) ** 2));
    count = flood(grid, walk, center, radius, mark, reached);
    if (count >= n || radius > grid.width + grid.height) break;
    radius *= 2;
  }
  // Where the slots that find no free cell near them go: the reached cells in flood order.
  let spare = 0;

  // Units in front-to-back, then left-to-right order, matched to slots in the same order.
  const order = Array.from({ length: n }, (_, k) => k);
  const fwd = (k: number) => (xs[k] - mx) * fx + (ys[k] - my) * fy;
  const lat = (k: number) => -(xs[k] - mx) * fy + (ys[k] - my) * fx;
  order.sort((a, b) => fwd(b) - fwd(a) || a - b);
  for (let r = 0; r < rows; r++) {
    const row = order.slice(r * cols, Math.min(n, (r + 1) * cols));
    row.sort((a, b) => lat(a) - lat(b) || a - b);
    for (let k = 0; k < row.length; k++) order[r * cols + k] = row[k];
  }

  const slots = new Float64Array(n * 2);
  for (let s = 0; s < n; s++) {
    const r = Math.floor(s / cols);
    const inRow = Math.min(cols, n - r * cols);
    const l = (s - r * cols - (inRow - 1) / 2) * spacing;
    const f = ((rows - 1) / 2 - r) * spacing;
    let px = cx + f * fx - l * fy;
    let py = cy + f * fy + l * fx;
    const c = cellOf(px);
    const d = cellOf(py);
    const i = c >= 0 && d >= 0 && c < W && d < grid.height ? d * W + c : -1;
    if (i < 0 || (mark[i] & REACHED) === 0 || (mark[i] & TAKEN) !== 0) {
      // The nearest free reached cell within a few rings; else (a big group in a small room, where
      // a search per slot out to the formation's size would cost it the square of that size) the
      // free reached cell nearest the centre by the flood's steps.
      let j = nearestCell(grid, walk, c, d, Math.min(NEAR_RINGS, radius * 2), mark);
      while (j < 0 && spare < count) {
        const k = reached[spare++];
        if (mark[k] === REACHED) j = k;
      }
      // Nothing free: share the centre (collision resolution spreads them).
      const t = j >= 0 ? j : center;
      px = grid.xOf(t);
      py = grid.yOf(t);
      mark[t] |= TAKEN;
    } else {
      mark[i] |= TAKEN;
    }
    const unit = order[s];
    slots[unit * 2] = px;
    slots[unit * 2 + 1] = py;
  }
  return { slots, facing, center };
}

/** Rings searched around a slot whose own cell is blocked, unreachable or taken (see planFormation). */
const NEAR_RINGS = 4;

/** 4-neighbour flood over walkable cells within `radius` (Chebyshev) of `start`; marks REACHED, and lists them into `queue` in flood order; returns how many. */
function flood(grid: NavGrid, walk: Uint8Array, start: number, radius: number, mark: Uint8Array, queue: Int32Array): number {
  const W = grid.width;
  const sx = grid.xOf(start);
  const sy = grid.yOf(start);
  let head = 0;
  let tail = 0;
  queue[tail++] = start;
  mark[start] = REACHED;
  while (head < tail) {
    const i = queue[head++];
    const x = grid.xOf(i);
    const y = grid.yOf(i);
    for (let k = 0; k < 4; k++) {
      const nx = x + (k === 1 ? 1 : k === 3 ? -1 : 0);
      const ny = y + (k === 0 ? -1 : k === 2 ? 1 : 0);
      if (nx < 0 || ny < 0 || nx >= W || ny >= grid.height) continue;
      if (Math.abs(nx - sx) > radius || Math.abs(ny - sy) > radius) continue;
      const j = ny * W + nx;
      if (walk[j] === 0 || mark[j] !== 0) continue;
      mark[j] = REACHED;
      queue[tail++] = j;
    }
  }
  return tail;
}

/**
 * The cell nearest (x, y) (Euclidean between centres; ties to the lower index) that is walkable,
 * and with `mark` also reached and not taken, searching square rings out to `radius`; -1 if none.
 */
function nearestCell(grid: NavGrid, walk: Uint8Array, x: number, y: number, radius: number, mark: Uint8Array | null): number {
  const ok = (i: number) => walk[i] === 1 && (mark === null || mark[i] === REACHED);
  if (grid.inBounds(x, y) && ok(y * grid.width + x)) return y * grid.width + x;
  for (let r = 1; r <= radius; r++) {
    const best = ringBest(grid, ok, x, y, r);
    if (best === null) continue;
    // A cell on the next ring can still be nearer than this ring's corner; one more ring settles it.
    const next = r + 1 <= radius ? ringBest(grid, ok, x, y, r + 1) : null;
    return next !== null && next.d < best.d ? next.i : best.i;
  }
  return -1;
}

/** The nearest acceptable cell on the square ring at Chebyshev distance r (ties: first in scan order). */
function ringBest(grid: NavGrid, ok: (i: number) => boolean, x: number, y: number, r: number): { i: number; d: number } | null {
  let best: { i: number; d: number } | null = null;
  for (let dy = -r; dy <= r; dy++) {
    const step = Math.abs(dy) === r ? 1 : 2 * r;
    for (let dx = -r; dx <= r; dx += step) {
      if (!grid.inBounds(x + dx, y + dy)) continue;
      const i = (y + dy) * grid.width + x + dx;
      const d = dx * dx + dy * dy;
      if (ok(i) && (best === null || d < best.d)) best = { i, d };
    }
  }
  return best;
}
