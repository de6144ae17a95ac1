import type { NavGrid, SearchView } from '../grid/navgrid.js';
import type { NodeHeap } from './heap.js';

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
    const W = grid.width + 2;
    const H = grid.height + 2;
    this.rowWords = (W + 31) >>> 5;
    this.colWords = (H + 31) >>> 5;
    this.rows = new Int32Array(this.rowWords * H);
    this.cols = new Int32Array(this.colWords * W);
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
        const ri = py * rw + (px >>> 5);
        const ci = px * cw + (py >>> 5);
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
 * the one before it is not (a forced neighbour, no-corner-cutting rule), or `goal`. Returns -1
 * when a blocked cell comes first. `goal` is -1 when the goal is not on this line.
 */
function scanForward(bits: Int32Array, words: number, line: number, pos: number, goal: number): number {
  const b0 = (line - 1) * words;
  const b1 = line * words;
  const b2 = (line + 1) * words;
  let k = pos >>> 5;
  const o = pos & 31;
  let mask = o === 31 ? 0 : -1 >>> (o + 1);
  const goalWord = goal > pos ? goal >>> 5 : -1;
  for (;;) {
    const a = bits[b0 + k];
    const b = bits[b1 + k];
    const c = bits[b2 + k];
    // The bit of each cell's predecessor (the cell one position back) lands on the cell's own bit.
    const pa = k > 0 ? (a >>> 1) | (bits[b0 + k - 1] << 31) : a >>> 1;
    const pc = k > 0 ? (c >>> 1) | (bits[b2 + k - 1] << 31) : c >>> 1;
    let stop = ((a & ~pa) | (c & ~pc) | ~b) & mask;
    if (k === goalWord) stop |= (1 << (31 - (goal & 31))) & mask;
    if (stop !== 0) {
      const bit = Math.clz32(stop);
      return (b << bit) < 0 ? (k << 5) + bit : -1;
    }
    k++;
    mask = -1;
  }
}

/** {@link scanForward} towards lower positions. */
function scanBackward(bits: Int32Array, words: number, line: number, pos: number, goal: number): number {
  const b0 = (line - 1) * words;
  const b1 = line * words;
  const b2 = (line + 1) * words;
  let k = pos >>> 5;
  let mask = ~(-1 >>> (pos & 31));
  const goalWord = goal >= 0 && goal < pos ? goal >>> 5 : -1;
  for (;;) {
    const a = bits[b0 + k];
    const b = bits[b1 + k];
    const c = bits[b2 + k];
    const pa = k + 1 < words ? (a << 1) | (bits[b0 + k + 1] >>> 31) : a << 1;
    const pc = k + 1 < words ? (c << 1) | (bits[b2 + k + 1] >>> 31) : c << 1;
    let stop = ((a & ~pa) | (c & ~pc) | ~b) & mask;
    if (k === goalWord) stop |= (1 << (31 - (goal & 31))) & mask;
    if (stop !== 0) {
      const bit = Math.clz32(stop & -stop);
      return (b << bit) < 0 ? (k << 5) + bit : -1;
    }
    k--;
    mask = -1;
  }
}

const SQRT2 = Math.SQRT2;
const K = SQRT2 - 1;
/** Directions in the order N E S W NE SE SW NW (as the A* loop's). */
const DX = Int32Array.of(0, 1, 0, -1, 1, 1, -1, -1);
const DY = Int32Array.of(-1, 0, 1, 0, -1, 1, 1, -1);

/** Scratch JPS shares with the Pathfinder that owns it (one set of per-cell arrays per grid). */
export interface SearchScratch {
  readonly g: Float64Array;
  readonly parent: Int32Array;
  readonly stamp: Uint32Array;
  readonly heap: NodeHeap;
  nextGen(): number;
}

/**
 * Jump point search (Harabor & Grastien 2011) with block-based row scans (ICAPS 2014) for layers
 * whose walkable cells all cost the same and carry no one-way flags. Two models:
 * - octile without corner cutting (the successor and forced-neighbour rules of that variant: a
 *   straight jump stops where a side cell opens up behind a wall; a diagonal step stops where
 *   either straight scan from it finds a jump point);
 * - cardinal (a vertical step stops where a horizontal scan from it finds a jump point).
 * Exact: the same cost as A*. The walkability bit planes follow the grid through `onChange`.
 *
 * Memory: 0.25 bytes per cell per layer searched, on top of the Pathfinder's scratch it shares.
 * @internal used through `findPath(..., { algorithm: 'jps' })`
 */
export class JumpPointSearch {
  private readonly grid: NavGrid;
  private readonly scratch: SearchScratch;
  private readonly planes: (WalkBits | null)[];
  private unsubscribe: (() => void) | null = null;

  constructor(grid: NavGrid, scratch: SearchScratch) {
    this.grid = grid;
    this.scratch = scratch;
    this.planes = grid.layers.map(() => null);
  }

  /** The bit planes of `layer`, built on first use and kept in step with the grid after that. */
  bits(layer: number): WalkBits {
    let w = this.planes[layer];
    if (w === null) {
      w = new WalkBits(this.grid, layer);
      this.planes[layer] = w;
      if (this.unsubscribe === null) {
        this.unsubscribe = this.grid.onChange((c) => this.planes[c.layer]?.update(c.x, c.y, c.width, c.height));
      }
    }
    return w;
  }

  /** Stops following the grid and drops the bit planes (rebuilt on the next search). */
  dispose(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.planes.fill(null);
  }

  /**
   * Searches from padded cell `start` to padded cell `goal` (start != goal, both walkable).
   * Returns the number of jump points expanded, or -(expanded + 1) when `maxIterations` stopped
   * it; the goal's stamp is `gen + 1` when it was reached (the Pathfinder's convention).
   */
  search(view: SearchView, layer: number, start: number, goal: number, cardinal: boolean, maxIterations: number): number {
    const wb = this.bits(layer);
    const rows = wb.rows;
    const cols = wb.cols;
    const rw = wb.rowWords;
    const cw = wb.colWords;
    const pass = view.pass;
    const cost = view.minCost;
    const W = view.stride;
    const { g, parent, stamp, heap } = this.scratch;
    const open = this.scratch.nextGen();
    const closed = open + 1;
    const gy = (goal / W) | 0;
    const gx = goal - gy * W;
    heap.clear();
    g[start] = 0;
    parent[start] = -1;
    stamp[start] = open;
    heap.push(start, 0, 0);
    let expanded = 0;
    while (heap.size > 0) {
      const cur = heap.pop();
      stamp[cur] = closed;
      if (cur === goal) break;
      if (expanded >= maxIterations) return -expanded - 1;
      expanded++;
      const gc = g[cur];
      const cy = (cur / W) | 0;
      const cx = cur - cy * W;
      // Successor directions as a bit mask over N E S W NE SE SW NW.
      let dirs: number;
      const par = parent[cur];
      const n = pass[cur - W] > 0 ? 1 : 0;
      const e = pass[cur + 1] > 0 ? 2 : 0;
      const s = pass[cur + W] > 0 ? 4 : 0;
      const w = pass[cur - 1] > 0 ? 8 : 0;
      const straight = n | e | s | w;
      if (par === -1) {
        dirs = cardinal ? straight : straight | diagonals(straight);
      } else {
        const py = (par / W) | 0;
        const dx = Math.sign(cx - (par - py * W));
        const dy = Math.sign(cy - py);
        if (dx !== 0 && dy !== 0) {
          // Diagonal arrival: its two straight components and itself.
          const h = dx > 0 ? e : w;
          const v = dy > 0 ? s : n;
          dirs = h | v;
          if (h !== 0 && v !== 0) dirs |= diagonalBit(dx, dy);
        } else if (cardinal) {
          dirs = dx !== 0 ? (dx > 0 ? e : w) | n | s : (dy > 0 ? s : n) | e | w;
        } else if (dx !== 0) {
          // Horizontal arrival: ahead, both sides, and the diagonals ahead that both allow.
          const ahead = dx > 0 ? e : w;
          dirs = ahead | n | s;
          if (ahead !== 0) dirs |= diagonals(ahead | n | s) & (dx > 0 ? 0x30 : 0xc0);
        } else {
          const ahead = dy > 0 ? s : n;
          dirs = ahead | e | w;
          if (ahead !== 0) dirs |= diagonals(ahead | e | w) & (dy > 0 ? 0x60 : 0x90);
        }
      }
      for (let k = 0; dirs !== 0; k++, dirs >>>= 1) {
        if ((dirs & 1) === 0) continue;
        let jp = -1;
        let len = 0;
        if (k === 1 || k === 3) {
          const p = k === 1 ? scanForward(rows, rw, cy, cx, cy === gy ? gx : -1) : scanBackward(rows, rw, cy, cx, cy === gy ? gx : -1);
          if (p >= 0) {
            jp = cy * W + p;
            len = Math.abs(p - cx);
          }
        } else if (k === 0 || k === 2) {
          if (cardinal) {
            const p = verticalCardinal(pass, rows, rw, W, cx, cy, k === 2 ? 1 : -1, gx, gy);
            if (p >= 0) {
              jp = p * W + cx;
              len = Math.abs(p - cy);
            }
          } else {
            const p = k === 2 ? scanForward(cols, cw, cx, cy, cx === gx ? gy : -1) : scanBackward(cols, cw, cx, cy, cx === gx ? gy : -1);
            if (p >= 0) {
              jp = p * W + cx;
              len = Math.abs(p - cy);
            }
          }
        } else {
          const steps = diagonalJump(pass, rows, rw, cols, cw, W, cx, cy, DX[k], DY[k], gx, gy);
          if (steps > 0) {
            jp = cur + steps * (DY[k] * W + DX[k]);
            len = steps * SQRT2;
          }
        }
        if (jp < 0) continue;
        const st = stamp[jp];
        if (st === closed) continue;
        const ng = gc + len * cost;
        if (st === open && ng >= g[jp]) continue;
        const jy = (jp / W) | 0;
        const hdx = Math.abs(jp - jy * W - gx);
        const hdy = Math.abs(jy - gy);
        const h = cardinal ? hdx + hdy : hdx > hdy ? hdx + K * hdy : hdy + K * hdx;
        g[jp] = ng;
        parent[jp] = cur;
        if (st === open) {
          heap.decrease(jp, ng + h * cost, ng);
        } else {
          stamp[jp] = open;
          heap.push(jp, ng + h * cost, ng);
        }
      }
    }
    return expanded;
  }

  /**
   * The full cell path (unpadded indices) from the start to padded cell `goal`, filling in the
   * straight and diagonal runs between jump points.
   */
  reconstruct(goal: number, stride: number): Int32Array {
    const parent = this.scratch.parent;
    const width = this.grid.width;
    let len = 1;
    for (let p = goal; parent[p] !== -1; p = parent[p]) len += runLength(p, parent[p], stride);
    const cells = new Int32Array(len);
    let k = len;
    for (let p = goal; ; ) {
      const q = parent[p];
      let y = ((p / stride) | 0) - 1;
      let x = p - (y + 1) * stride - 1;
      if (q === -1) {
        cells[--k] = y * width + x;
        break;
      }
      const qy = ((q / stride) | 0) - 1;
      const qx = q - (qy + 1) * stride - 1;
      const sx = Math.sign(qx - x);
      const sy = Math.sign(qy - y);
      // Every cell of the run from p back to q, q itself excluded (it starts the next run).
      while (x !== qx || y !== qy) {
        cells[--k] = y * width + x;
        x += sx;
        y += sy;
      }
      p = q;
    }
    return cells;
  }
}

function runLength(p: number, q: number, stride: number): number {
  const py = (p / stride) | 0;
  const qy = (q / stride) | 0;
  return Math.max(Math.abs(py - qy), Math.abs(p - py * stride - (q - qy * stride)));
}

/** Bits 4-7 (NE SE SW NW) allowed by the straight bits 0-3 (N E S W) without cutting a corner. */
function diagonals(m: number): number {
  return ((m & 3) === 3 ? 16 : 0) | ((m & 6) === 6 ? 32 : 0) | ((m & 12) === 12 ? 64 : 0) | ((m & 9) === 9 ? 128 : 0);
}

function diagonalBit(dx: number, dy: number): number {
  return dx > 0 ? (dy < 0 ? 16 : 32) : dy > 0 ? 64 : 128;
}

/**
 * Walks diagonally from (x, y) until a cell is the goal or has a straight jump point along either
 * component; returns the number of steps to it, or 0 when a blocked or corner-cutting step ends
 * the walk first.
 */
function diagonalJump(pass: Float32Array, rows: Int32Array, rw: number, cols: Int32Array, cw: number, W: number, x: number, y: number, dx: number, dy: number, gx: number, gy: number): number {
  let p = y * W + x;
  const d = dy * W + dx;
  for (let steps = 1; ; steps++) {
    if (pass[p + dx] <= 0 || pass[p + dy * W] <= 0 || pass[p + d] <= 0) return 0;
    p += d;
    x += dx;
    y += dy;
    if (x === gx && y === gy) return steps;
    const h = dx > 0 ? scanForward(rows, rw, y, x, y === gy ? gx : -1) : scanBackward(rows, rw, y, x, y === gy ? gx : -1);
    if (h >= 0) return steps;
    const v = dy > 0 ? scanForward(cols, cw, x, y, x === gx ? gy : -1) : scanBackward(cols, cw, x, y, x === gx ? gy : -1);
    if (v >= 0) return steps;
  }
}

/**
 * Cardinal JPS's vertical jump from (x, y): steps one row at a time and stops at the goal, at a
 * forced neighbour (a side cell open where the one behind it is blocked), or where a horizontal
 * scan either way finds a jump point. Returns the row, or -1 at a wall.
 */
function verticalCardinal(pass: Float32Array, rows: Int32Array, rw: number, W: number, x: number, y: number, dy: number, gx: number, gy: number): number {
  let p = y * W + x;
  const d = dy * W;
  for (;;) {
    if (pass[p + d] <= 0) return -1;
    p += d;
    y += dy;
    if (y === gy && x === gx) return y;
    if ((pass[p - 1] > 0 && pass[p - 1 - d] <= 0) || (pass[p + 1] > 0 && pass[p + 1 - d] <= 0)) return y;
    const goal = y === gy ? gx : -1;
    if (scanForward(rows, rw, y, x, goal) >= 0 || scanBackward(rows, rw, y, x, goal) >= 0) return y;
  }
}
