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
  let reached = new Int32Array(0);
  let count = 0;
  for (;;) {
    // Only the cells the last flood marked are cleared (not the whole map).
    for (let k = 0; k < count; k++) mark[reached[k]] = 0;
    reached = new Int32Array(Math.min(grid.size, (2 * radius + 1) ** 2));
    count = flood(grid, walk, center, radius, mark, reached);
    if (count >= n || radius > grid.width + grid.height) break;
    radius *= 2;
  }
  // Where the slots that find no free cell near them go: the reached cells in flood order.
  let spare = 0;
  // Free reached cells per block of BLOCK x BLOCK cells: a slot's search skips at once a
  // neighbourhood with none (a big group filling a room would otherwise scan every ring for each
  // of its last slots).
  const BW = Math.ceil(W / BLOCK);
  const free = new Uint16Array(BW * Math.ceil(grid.height / BLOCK));
  for (let k = 0; k < count; k++) free[blockOf(reached[k], W, BW)]++;
  const take = (i: number) => {
    if (mark[i] === REACHED) free[blockOf(i, W, BW)]--;
    mark[i] |= TAKEN;
  };

  // Units in front-to-back, then left-to-right order, matched to slots in the same order.
  // (The keys are computed once: the sorts compare them some n log n times.)
  const fwd = new Float64Array(n);
  const lat = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    fwd[k] = (xs[k] - mx) * fx + (ys[k] - my) * fy;
    lat[k] = -(xs[k] - mx) * fy + (ys[k] - my) * fx;
  }
  const order = new Int32Array(n);
  for (let k = 0; k < n; k++) order[k] = k;
  order.sort((a, b) => fwd[b] - fwd[a] || a - b);
  for (let r = 0; r < rows; r++) order.subarray(r * cols, Math.min(n, (r + 1) * cols)).sort((a, b) => lat[a] - lat[b] || a - b);

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
      const rings = Math.min(NEAR_RINGS, radius * 2);
      let j = anyFree(free, BW, W, grid.height, c, d, rings) ? nearestCell(grid, walk, c, d, rings, mark) : -1;
      while (j < 0 && spare < count) {
        const k = reached[spare++];
        if (mark[k] === REACHED) j = k;
      }
      // Nothing free: share the centre (collision resolution spreads them).
      const t = j >= 0 ? j : center;
      px = grid.xOf(t);
      py = grid.yOf(t);
      take(t);
    } else {
      take(i);
    }
    const unit = order[s];
    slots[unit * 2] = px;
    slots[unit * 2 + 1] = py;
  }
  return { slots, facing, center };
}

/** Side of the blocks planFormation counts free cells in. */
const BLOCK = 8;

const blockOf = (i: number, W: number, BW: number) => Math.floor(Math.floor(i / W) / BLOCK) * BW + Math.floor((i % W) / BLOCK);

/** Whether a block overlapping the square of Chebyshev radius `r` around (x, y) (clipped to the grid) holds a free reached cell. */
function anyFree(free: Uint16Array, BW: number, W: number, H: number, x: number, y: number, r: number): boolean {
  const x0 = Math.floor(Math.max(0, x - r) / BLOCK);
  const x1 = Math.floor(Math.min(W - 1, x + r) / BLOCK);
  const y0 = Math.floor(Math.max(0, y - r) / BLOCK);
  const y1 = Math.floor(Math.min(H - 1, y + r) / BLOCK);
  for (let by = y0; by <= y1; by++) for (let bx = x0; bx <= x1; bx++) if (free[by * BW + bx] > 0) return true;
  return false;
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
 * The cell nearest (x, y) (Euclidean between centres; ties to the first in row order) that is
 * walkable, and with `mark` also reached and not taken, searching square rings out to `radius`; -1
 * if none. Once a ring holds one, one more ring settles it (a cell of the next ring can still be
 * nearer than this ring's corner; none farther out can, within the few rings searched).
 */
function nearestCell(grid: NavGrid, walk: Uint8Array, x: number, y: number, radius: number, mark: Uint8Array | null): number {
  const W = grid.width;
  const H = grid.height;
  if (x >= 0 && y >= 0 && x < W && y < H) {
    const i = y * W + x;
    if (walk[i] === 1 && (mark === null || mark[i] === REACHED)) return i;
  }
  let best = -1;
  let bestD = Infinity;
  let last = radius;
  for (let r = 1; r <= last; r++) {
    for (let dy = -r; dy <= r; dy++) {
      const cy = y + dy;
      if (cy < 0 || cy >= H) continue;
      const step = dy === r || dy === -r ? 1 : 2 * r;
      for (let dx = -r; dx <= r; dx += step) {
        const cx = x + dx;
        if (cx < 0 || cx >= W) continue;
        const i = cy * W + cx;
        if (walk[i] !== 1 || (mark !== null && mark[i] !== REACHED)) continue;
        const d = dx * dx + dy * dy;
        // Strictly nearer only: the inner ring, then the first in scan order, keeps a tie.
        if (d < bestD) {
          bestD = d;
          best = i;
        }
      }
    }
    if (best >= 0 && last === radius) last = Math.min(radius, r + 1);
  }
  return best;
}
