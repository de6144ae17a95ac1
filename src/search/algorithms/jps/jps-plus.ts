/**
 * JPS+: jump distances precomputed per cell and direction, read by the uniform search (uniform.ts)
 * in place of the row scans, and kept current through tile changes by recomputing only what a change
 * can reach.
 */
import type { SearchView } from '../../../grid/navgrid.js';
import { DX, DY } from '../../../grid/padded.js';

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
