/**
 * The walkability bit planes jump point search scans, and the row scans over them.
 */
import type { NavGrid } from '../../../grid/navgrid.js';
import { strideOf } from '../../../grid/padded.js';

/**
 * Walkability of one layer packed 32 cells per Int32, twice: by rows (for east/west scans) and by
 * columns (a transposed copy, so north/south scans are row scans too). Coordinates are the search
 * view's padded ones (one blocked cell on every side), bit 31 of a word is its first cell, so
 * `Math.clz32` finds the first stop ahead of a scan and `x & -x` the last one behind it.
 *
 * Memory: 2 bits per cell (0.25 bytes).
 */
export class WalkBits {
  /** Words per padded row / per padded column. */
  readonly rowWords: number;
  readonly colWords: number;
  readonly rows: Int32Array;
  readonly cols: Int32Array;
  private readonly grid: NavGrid;
  private readonly layer: number;

  constructor(grid: NavGrid, layer: number) {
    this.grid = grid;
    this.layer = layer;
    const W = strideOf(grid.width);
    const H = grid.height + 2;
    this.rowWords = (W + 31) >>> 5;
    this.colWords = (H + 31) >>> 5;
    // One spare word at each end, so a scan may read the word before its first or after its last
    // without a bounds test (what it reads there only ever meets masked-off or blocked cells).
    this.rows = new Int32Array(this.rowWords * H + 2);
    this.cols = new Int32Array(this.colWords * W + 2);
    this.update(0, 0, grid.width, grid.height);
  }

  /** Re-reads the rectangle (unpadded cell coordinates) from the layer's walkable array. */
  update(x: number, y: number, width: number, height: number): void {
    const walkable = this.grid.layers[this.layer].walkable;
    const gw = this.grid.width;
    const rows = this.rows;
    const cols = this.cols;
    const rw = this.rowWords;
    const cw = this.colWords;
    for (let yy = y; yy < y + height; yy++) {
      const py = yy + 1;
      for (let xx = x; xx < x + width; xx++) {
        const px = xx + 1;
        const rb = 1 << (31 - (px & 31));
        const cb = 1 << (31 - (py & 31));
        const ri = py * rw + (px >>> 5) + 1;
        const ci = px * cw + (py >>> 5) + 1;
        if (walkable[yy * gw + xx] === 1) {
          rows[ri] |= rb;
          cols[ci] |= cb;
        } else {
          rows[ri] &= ~rb;
          cols[ci] &= ~cb;
        }
      }
    }
  }
}

/**
 * Scans line `line` of a bit plane from `pos` (exclusive) towards higher positions and returns
 * the first jump point: a walkable cell whose neighbour on line - 1 or line + 1 is walkable while
 * the one before it is not (a forced neighbour, no-corner-cutting rule), or `goal`. When a blocked
 * cell comes first, returns `~b` (negative) for that cell's position b, so the caller can count
 * the cells the scan stepped over (`|stop - pos|`, stop being the result or `~result`) whether it
 * found a jump point or not. `goal` is -1 when the goal is not on this line. `stops`, unless
 * null, is a plane of the same layout whose set cells are jump points too (cost boundaries).
 */
export function scanForward(bits: Int32Array, words: number, line: number, pos: number, goal: number, stops: Int32Array | null): number {
  const b1 = line * words + 1;
  const b0 = b1 - words;
  const b2 = b1 + words;
  let k = pos >>> 5;
  const o = pos & 31;
  let mask = o === 31 ? 0 : -1 >>> (o + 1);
  const goalWord = goal > pos ? goal >>> 5 : -1;
  for (;;) {
    const a = bits[b0 + k];
    const b = bits[b1 + k];
    const c = bits[b2 + k];
    // The bit of each cell's predecessor (the cell one position back) lands on the cell's own bit.
    const pa = (a >>> 1) | (bits[b0 + k - 1] << 31);
    const pc = (c >>> 1) | (bits[b2 + k - 1] << 31);
    let stop = ((a & ~pa) | (c & ~pc) | ~b) & mask;
    if (k === goalWord) stop |= (1 << (31 - (goal & 31))) & mask;
    if (stops !== null) stop |= stops[b1 + k] & mask;
    if (stop !== 0) {
      const bit = Math.clz32(stop);
      // The position, or ~ it when the stop cell is blocked (b's bit clear: the xor flips it).
      return ((k << 5) + bit) ^ ~((b << bit) >> 31);
    }
    k++;
    mask = -1;
  }
}

/** {@link scanForward} towards lower positions (a blocked cell first: `~` its position too). */
export function scanBackward(bits: Int32Array, words: number, line: number, pos: number, goal: number, stops: Int32Array | null): number {
  const b1 = line * words + 1;
  const b0 = b1 - words;
  const b2 = b1 + words;
  let k = pos >>> 5;
  let mask = ~(-1 >>> (pos & 31));
  const goalWord = goal >= 0 && goal < pos ? goal >>> 5 : -1;
  for (;;) {
    const a = bits[b0 + k];
    const b = bits[b1 + k];
    const c = bits[b2 + k];
    const pa = (a << 1) | (bits[b0 + k + 1] >>> 31);
    const pc = (c << 1) | (bits[b2 + k + 1] >>> 31);
    let stop = ((a & ~pa) | (c & ~pc) | ~b) & mask;
    if (k === goalWord) stop |= (1 << (31 - (goal & 31))) & mask;
    if (stops !== null) stop |= stops[b1 + k] & mask;
    if (stop !== 0) {
      const bit = Math.clz32(stop & -stop);
      return ((k << 5) + bit) ^ ~((b << bit) >> 31);
    }
    k--;
    mask = -1;
  }
}
