/**
 * JPS+: jump distances precomputed per cell and direction, read by {@link JumpPointSearch} in
 * place of the row scans, and kept current through tile changes by recomputing only what a change
 * can reach.
 */
import type { SearchView } from '../../grid/navgrid.js';
import { DX, DY, OCTILE_K } from '../../grid/padded.js';
import type { LazyNodeHeap } from '../heap.js';
import { report, type SearchOutcome, type SearchScratch } from '../kernel.js';

// Module-local copies: some loaders (tsx) turn imported bindings into getter calls in hot loops.
const DX_ = DX;
const DY_ = DY;
const K = OCTILE_K;
/** The diagonal direction bits (N E S W are 1 2 4 8). */
const NE = 16;
const SE = 32;
const SW = 64;
const NW = 128;

/**
 * JPS+ (precomputed jump distances) for octile without corner cutting: for every padded cell and
 * each direction N E S W NE SE SW NW, d > 0 is the number of steps to the next jump point that
 * way (for a diagonal: to the next cell with a straight jump point), and d <= 0 is minus the
 * number of free steps before a wall. The same forced-neighbour rules as the row scans.
 */
export interface JumpTable {
  /** 8 entries per padded cell, `jumps[p * 8 + k]`. Int16 when both sides fit, else Int32. */
  readonly jumps: Int16Array | Int32Array;
  /** Build time in milliseconds. */
  readonly buildMs: number;
  /** 16 (Int16) or 32 bytes per padded cell. */
  readonly bytes: number;
}

/**
 * The entry of open cell `p` in straight direction `k` (N E S W), from the next cell's: 1 when the
 * next cell is a jump point (a side cell open beside it and blocked beside p), else one step
 * further than the next cell's distance, counted as a jump (> 0) or a wall (<= 0).
 */
function straightEntry(pass: Float32Array, jumps: Int16Array | Int32Array, p: number, k: number, step: number, side: number): number {
  if (pass[p] <= 0) return 0;
  const c = p + step;
  if (pass[c] <= 0) return 0;
  if ((pass[c - side] > 0 && pass[c - side - step] <= 0) || (pass[c + side] > 0 && pass[c + side - step] <= 0)) return 1;
  const t = jumps[c * 8 + k];
  return t > 0 ? t + 1 : t - 1;
}

/** The entry of cell `p` in diagonal direction `k` (NE SE SW NW): the next cell's straight jumps and diagonal entry decide it. */
function diagonalEntry(pass: Float32Array, jumps: Int16Array | Int32Array, p: number, k: number, dx: number, dyW: number, kh: number, kv: number): number {
  const c = p + dx + dyW;
  if (pass[p] <= 0 || pass[p + dx] <= 0 || pass[p + dyW] <= 0 || pass[c] <= 0) return 0;
  if (jumps[c * 8 + kh] > 0 || jumps[c * 8 + kv] > 0) return 1;
  const t = jumps[c * 8 + k];
  return t > 0 ? t + 1 : t - 1;
}

/**
 * Recomputes the straight entries of padded row `y` (E, W) or padded column `x` (N, S), sweeping
 * against the motion; pushes onto `changed` (when given) each cell whose entries moved.
 */
function straightLine(view: SearchView, jumps: Int16Array | Int32Array, horizontal: boolean, line: number, changed: number[] | null): void {
  const pass = view.pass;
  const W = view.stride;
  const H = pass.length / W;
  const n = horizontal ? W : H;
  const along = horizontal ? 1 : W;
  const first = horizontal ? line * W : line;
  for (const k of horizontal ? [1, 3] : [0, 2]) {
    const forward = horizontal ? DX[k] > 0 : DY[k] > 0;
    const step = forward ? along : -along;
    const side = horizontal ? W : 1;
    for (let i = 1; i < n - 1; i++) {
      const p = first + (forward ? n - 1 - i : i) * along;
      const v = straightEntry(pass, jumps, p, k, step, side);
      const e = p * 8 + k;
      if (jumps[e] !== v) {
        jumps[e] = v;
        changed?.push(p);
      }
    }
  }
}

/** Builds the jump table in eight sweeps over the padded view (O(cells)). */
export function buildJumpTable(view: SearchView): JumpTable {
  const t0 = performance.now();
  const pass = view.pass;
  const W = view.stride;
  const H = pass.length / W;
  const jumps = Math.max(W, H) < 32000 ? new Int16Array(pass.length * 8) : new Int32Array(pass.length * 8);
  for (let y = 1; y < H - 1; y++) straightLine(view, jumps, true, y, null);
  for (let x = 1; x < W - 1; x++) straightLine(view, jumps, false, x, null);
  for (let k = 4; k < 8; k++) {
    const dx = DX[k];
    const dy = DY[k];
    const kh = dx > 0 ? 1 : 3;
    const kv = dy > 0 ? 2 : 0;
    for (let yi = 1; yi < H - 1; yi++) {
      const y = dy > 0 ? H - 1 - yi : yi;
      for (let xi = 1; xi < W - 1; xi++) {
        const p = y * W + (dx > 0 ? W - 1 - xi : xi);
        jumps[p * 8 + k] = diagonalEntry(pass, jumps, p, k, dx, dy * W, kh, kv);
      }
    }
  }
  return { jumps, buildMs: performance.now() - t0, bytes: jumps.byteLength };
}

/**
 * Brings `table` up to date after the cells of the rectangle (unpadded x, y, width, height) changed
 * on `view`. Straight entries: the rows and columns through the rectangle and one beyond (whose
 * forced neighbours it can create or remove), each in one sweep. Diagonal entries: from every cell
 * whose inputs moved, walking backwards along each diagonal while the entries keep changing. The
 * result is the table a full build would give (each entry is a function of entries nearer the
 * wall, and every entry whose inputs moved is recomputed after them). Cost: O((width + height) *
 * rectangle side + cells whose entries move), against O(cells) for a rebuild.
 */
export function updateJumpTable(table: JumpTable, view: SearchView, x: number, y: number, width: number, height: number): void {
  const jumps = table.jumps;
  const pass = view.pass;
  const W = view.stride;
  const H = pass.length / W;
  // Padded bounds of the rectangle grown by one cell, kept inside the real cells.
  const x0 = Math.max(1, x);
  const x1 = Math.min(W - 2, x + width + 1);
  const y0 = Math.max(1, y);
  const y1 = Math.min(H - 2, y + height + 1);
  const seeds: number[] = [];
  for (let py = y0; py <= y1; py++) for (let px = x0; px <= x1; px++) seeds.push(py * W + px);
  for (let py = y0; py <= y1; py++) straightLine(view, jumps, true, py, seeds);
  for (let px = x0; px <= x1; px++) straightLine(view, jumps, false, px, seeds);
  for (let k = 4; k < 8; k++) {
    const dx = DX[k];
    const dyW = DY[k] * W;
    const kh = dx > 0 ? 1 : 3;
    const kv = DY[k] > 0 ? 2 : 0;
    const step = dx + dyW;
    for (const s of seeds) {
      // The seed itself and the cell before it (which reads the seed's straight entries) always;
      // further back only while entries change.
      for (let p = s, walked = 0; ; p -= step, walked++) {
        const py = (p / W) | 0;
        const px = p - py * W;
        if (py < 1 || py > H - 2 || px < 1 || px > W - 2) break;
        const e = p * 8 + k;
        const v = diagonalEntry(pass, jumps, p, k, dx, dyW, kh, kv);
        if (jumps[e] === v && walked >= 1) break;
        jumps[e] = v;
      }
    }
  }
}

/**
 * JPS+ on a layer whose walkable cells all cost `cost` (octile, no corner cutting), from padded
 * cell `start` to padded cell `goal` (start != goal, both walkable) on `scratch`, reading the jump
 * distances of `jumps` (built on the layer's padded view, `W` cells wide). Only the table is read,
 * never the walkability, so an expansion touches one cache line of it. A diagonal run hops from
 * one cell with straight jump points to the next and queues those jump points as successors of
 * the expanded node itself (pruned intermediates), so each successor's path from its parent is
 * diagonal steps, then straight ones. Fills and returns `out` like {@link JumpPointSearch.search}. `found` is a buffer
 * of at least {@link successorCapacity} entries for one node's successors, `heap` the open list
 * (its own: a lazy heap, see {@link LazyNodeHeap}; the scratch's stays empty).
 */
export function searchJumpTable(jumps: Int16Array | Int32Array, W: number, cost: number, scratch: SearchScratch, start: number, goal: number, maxIterations: number, found: Int32Array, heap: LazyNodeHeap, out: SearchOutcome): SearchOutcome {
  const { g, parent, stamp } = scratch;
  const open = scratch.begin();
  const closed = open + 1;
  scratch.place(start, 0);
  heap.clear();
  heap.push(start, 0, 0);
  const gy = (goal / W) | 0;
  const gx = goal - gy * W;
  let expanded = 0;
  while (heap.size > 0) {
    const cur = heap.pop();
    // An entry left behind when its node's cost improved: the node is settled already.
    if (stamp[cur] === closed) continue;
    stamp[cur] = closed;
    if (cur === goal) break;
    if (expanded >= maxIterations) return report(out, false, expanded, true);
    expanded++;
    const cy = (cur / W) | 0;
    const cx = cur - cy * W;
    let n = 0;
    for (let dirs = tableDirections(jumps, W, cur, cx, cy, parent[cur]), k = 0; dirs !== 0; k++, dirs >>>= 1) {
      if ((dirs & 1) === 0) continue;
      if (k < 4) {
        n = straightJump(jumps, cur, cx, cy, k, gx, gy, found, n);
        continue;
      }
      const dx = DX_[k];
      const dy = DY_[k];
      const kh = dx > 0 ? 1 : 3;
      const kv = dy > 0 ? 2 : 0;
      let q = cur;
      let x = cx;
      let y = cy;
      for (;;) {
        const d = jumps[q * 8 + k];
        // The run meets the goal's row or column within this hop: the cell where it does becomes
        // a node (the goal itself when it lies on the diagonal), which reaches the goal straight.
        const mx = (gx - x) * dx;
        const my = (gy - y) * dy;
        if (mx > 0 && my > 0) {
          const m = mx < my ? mx : my;
          if (m <= (d < 0 ? -d : d)) {
            found[n++] = x + m * dx;
            found[n++] = y + m * dy;
            break;
          }
        }
        if (d <= 0) break;
        x += d * dx;
        y += d * dy;
        q = y * W + x;
        n = straightJump(jumps, q, x, y, kh, gx, gy, found, n);
        n = straightJump(jumps, q, x, y, kv, gx, gy, found, n);
      }
    }
    const base = g[cur];
    for (let i = 0; i < n; i += 2) {
      const jx = found[i];
      const jy = found[i + 1];
      const jp = jy * W + jx;
      const st = stamp[jp];
      if (st === closed) continue;
      const ax = jx > cx ? jx - cx : cx - jx;
      const ay = jy > cy ? jy - cy : cy - jy;
      const ng = base + (ax > ay ? ax + K * ay : ay + K * ax) * cost;
      if (st === open && ng >= g[jp]) continue;
      const hx = jx > gx ? jx - gx : gx - jx;
      const hy = jy > gy ? jy - gy : gy - jy;
      const f = ng + (hx > hy ? hx + K * hy : hy + K * hx) * cost;
      g[jp] = ng;
      parent[jp] = cur;
      stamp[jp] = open;
      heap.push(jp, f, ng);
    }
  }
  return report(out, stamp[goal] === closed, expanded, false);
}

/**
 * Entries {@link searchJumpTable}'s successor buffer needs on a padded view of `stride` x `rows`:
 * two per successor; four straight ones, and per diagonal at most two per hop plus the goal.
 */
export function successorCapacity(stride: number, rows: number): number {
  return 2 * (4 + 4 * (2 * Math.max(stride, rows) + 1));
}

/**
 * Appends to `found` (at `n`, as x, y) the jump point of padded cell `p` at (x, y) in straight
 * direction `k`, or the goal when it comes first on the way; returns the new length.
 */
function straightJump(jumps: Int16Array | Int32Array, p: number, x: number, y: number, k: number, gx: number, gy: number, found: Int32Array, n: number): number {
  const d = jumps[p * 8 + k];
  const dx = DX_[k];
  const dy = DY_[k];
  const ahead = dx !== 0 ? (gy === y ? (gx - x) * dx : 0) : gx === x ? (gy - y) * dy : 0;
  if (ahead > 0 && ahead <= (d < 0 ? -d : d)) {
    found[n] = gx;
    found[n + 1] = gy;
    return n + 2;
  }
  if (d <= 0) return n;
  found[n] = x + d * dx;
  found[n + 1] = y + d * dy;
  return n + 2;
}

/**
 * The directions (bits N E S W NE SE SW NW) JPS+ follows from padded cell `cur` at (cx, cy), reached
 * from `par` (-1 for the start: every open direction), read off cur's own eight table entries: an
 * entry is 0 exactly when its first step is blocked, so they say which neighbours are open, and
 * (with the cell behind open) which side cells are forced. A node's path from its parent ends with
 * a straight step unless it is all diagonal, so the last step is read off the two cells' offsets.
 */
function tableDirections(jumps: Int16Array | Int32Array, W: number, cur: number, cx: number, cy: number, par: number): number {
  const b = cur * 8;
  const open =
    (jumps[b] !== 0 ? 1 : 0) |
    (jumps[b + 1] !== 0 ? 2 : 0) |
    (jumps[b + 2] !== 0 ? 4 : 0) |
    (jumps[b + 3] !== 0 ? 8 : 0) |
    (jumps[b + 4] !== 0 ? NE : 0) |
    (jumps[b + 5] !== 0 ? SE : 0) |
    (jumps[b + 6] !== 0 ? SW : 0) |
    (jumps[b + 7] !== 0 ? NW : 0);
  if (par === -1) return open;
  const py = (par / W) | 0;
  const px = par - py * W;
  const ax = cx > px ? cx - px : px - cx;
  const ay = cy > py ? cy - py : py - cy;
  if (ax === ay) {
    // Diagonal arrival: its two straight components and itself.
    const east = cx > px;
    return cy > py ? open & (east ? 2 | 4 | SE : 8 | 4 | SW) : open & (east ? 2 | 1 | NE : 8 | 1 | NW);
  }
  // Straight arrival: ahead, and only the forced sides: a side cell open here whose diagonal
  // from the cell behind is blocked, which (the cell behind and the side cell being open) means
  // the corner cell beside the one behind is; an unforced side is reached more cheaply from
  // behind. Plus the diagonal ahead beside each forced side.
  if (ax > ay) {
    const east = cx > px;
    let m = open & (east ? 2 : 8);
    if ((open & 1) !== 0 && (open & (east ? NW : NE)) === 0) m |= 1 | (open & (east ? NE : NW));
    if ((open & 4) !== 0 && (open & (east ? SW : SE)) === 0) m |= 4 | (open & (east ? SE : SW));
    return m;
  }
  const south = cy > py;
  let m = open & (south ? 4 : 1);
  if ((open & 2) !== 0 && (open & (south ? NE : SE)) === 0) m |= 2 | (open & (south ? SE : NE));
  if ((open & 8) !== 0 && (open & (south ? NW : SW)) === 0) m |= 8 | (open & (south ? SW : NW));
  return m;
}
