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
  /**
   * The stop planes of the uniform octile scans, built by {@link stops} on first use (null until
   * then): for each direction, a cell's bit is set when a scan that way must stop there: the cell
   * is blocked, or it is a jump point (a cell on a side line open while the cell before it on that
   * line is blocked: a forced neighbour, no corner cutting). East and west scans read `east` and
   * `west` (laid out as `rows`), south and north ones `south` and `north` (laid out as `cols`), so
   * a scan reads one word per 32 cells. 0.5 bytes per cell for the four.
   */
  east: Int32Array | null = null;
  west: Int32Array | null = null;
  south: Int32Array | null = null;
  north: Int32Array | null = null;
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
    // The planes start all blocked: set the walkable bits, a row word at a time.
    const walkable = grid.layers[layer].walkable;
    const gw = grid.width;
    const rows = this.rows;
    const cols = this.cols;
    const rw = this.rowWords;
    const cw = this.colWords;
    for (let y = 0; y < grid.height; y++) {
      const py = y + 1;
      const cb = 1 << (31 - (py & 31));
      const ck = (py >>> 5) + 1;
      let word = 0;
      for (let x = 0; x < gw; x++) {
        const px = x + 1;
        if (walkable[y * gw + x] === 1) {
          word |= 1 << (31 - (px & 31));
          cols[px * cw + ck] |= cb;
        }
        if ((px & 31) === 31 || x === gw - 1) {
          rows[py * rw + (px >>> 5) + 1] = word;
          word = 0;
        }
      }
    }
  }

  /** Bytes held: the walkability planes and the stop planes once built. */
  get bytes(): number {
    const stops = this.east === null ? 0 : 2 * (this.rows.byteLength + this.cols.byteLength);
    return this.rows.byteLength + this.cols.byteLength + stops;
  }

  /** Builds the stop planes (see {@link east}) unless built already. */
  stops(): void {
    if (this.east !== null) return;
    this.east = new Int32Array(this.rows.length);
    this.west = new Int32Array(this.rows.length);
    this.south = new Int32Array(this.cols.length);
    this.north = new Int32Array(this.cols.length);
    const H = this.grid.height + 2;
    const W = strideOf(this.grid.width);
    stopLines(this.rows, this.east, this.west, this.rowWords, 1, H - 2, 0, this.rowWords - 1);
    stopLines(this.cols, this.south, this.north, this.colWords, 1, W - 2, 0, this.colWords - 1);
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
    if (this.east === null || width <= 0 || height <= 0) return;
    // A cell's stop bits read its own line and the two beside it, at itself and one position on
    // either side: the padded rectangle grown by one cell each way covers every bit that moved.
    const W = strideOf(this.grid.width);
    const H = this.grid.height + 2;
    const px0 = Math.max(1, x);
    const px1 = Math.min(W - 2, x + width + 1);
    const py0 = Math.max(1, y);
    const py1 = Math.min(H - 2, y + height + 1);
    stopLines(rows, this.east, this.west!, rw, py0, py1, px0 >>> 5, px1 >>> 5);
    stopLines(cols, this.south!, this.north!, cw, px0, px1, py0 >>> 5, py1 >>> 5);
  }
}

/**
 * Writes the stop words of lines `l0 ..= l1`, words `k0 ..= k1` of a walkability plane `bits`
 * (`words` per line): `fwd` for scans towards higher positions, `back` towards lower ones.
 */
function stopLines(bits: Int32Array, fwd: Int32Array, back: Int32Array, words: number, l0: number, l1: number, k0: number, k1: number): void {
  for (let line = l0; line <= l1; line++) {
    const b1 = line * words + 1;
    const b0 = b1 - words;
    const b2 = b1 + words;
    for (let k = k0; k <= k1; k++) {
      const a = bits[b0 + k];
      const b = bits[b1 + k];
      const c = bits[b2 + k];
      // The bit of each cell's predecessor (one position back) and successor (one on) moved onto its own.
      const pa = (a >>> 1) | (bits[b0 + k - 1] << 31);
      const pc = (c >>> 1) | (bits[b2 + k - 1] << 31);
      const na = (a << 1) | (bits[b0 + k + 1] >>> 31);
      const nc = (c << 1) | (bits[b2 + k + 1] >>> 31);
      fwd[b1 + k] = (a & ~pa) | (c & ~pc) | ~b;
      back[b1 + k] = (a & ~na) | (c & ~nc) | ~b;
    }
  }
}

/**
 * The straight jump along line `line` from position `pos` towards higher positions, on a forward
 * stop plane `stops` and the walkability plane `walk` of the same layout (`words` per line): the
 * jump point's position, or `goal` when the scan reaches it first (-1 when the goal is not on this
 * line), or `~s` (negative) when the scan ran into a wall at position s. Either way the scan
 * stepped over `|stop - pos|` cells, stop being the result or `~result`. Reads one word per 32 cells;
 * the line's padding cell ends every scan.
 */
export function jumpUp(stops: Int32Array, walk: Int32Array, words: number, line: number, pos: number, goal: number): number {
  const base = line * words + 1;
  let i = base + (pos >>> 5);
  let m = stops[i] & (0x7fffffff >>> (pos & 31));
  while (m === 0) m = stops[++i];
  const s = ((i - base) << 5) + Math.clz32(m);
  if (goal > pos && goal <= s) return goal;
  return walk[i] << (s & 31) < 0 ? s : ~s;
}

/** {@link jumpUp} towards lower positions, on a backward stop plane. */
export function jumpDown(stops: Int32Array, walk: Int32Array, words: number, line: number, pos: number, goal: number): number {
  const base = line * words + 1;
  let i = base + (pos >>> 5);
  let m = stops[i] & ~(-1 >>> (pos & 31));
  while (m === 0) m = stops[--i];
  const s = ((i - base) << 5) + Math.clz32(m & -m);
  if (goal < pos && goal >= s) return goal;
  return walk[i] << (s & 31) < 0 ? s : ~s;
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
