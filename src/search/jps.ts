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
 * the one before it is not (a forced neighbour, no-corner-cutting rule), or `goal`. Returns -1
 * when a blocked cell comes first. `goal` is -1 when the goal is not on this line.
 */
function scanForward(bits: Int32Array, words: number, line: number, pos: number, goal: number): number {
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
    if (stop !== 0) {
      const bit = Math.clz32(stop & -stop);
      return (b << bit) < 0 ? (k << 5) + bit : -1;
    }
    k--;
    mask = -1;
  }
}

export const SQRT2 = Math.SQRT2;
/** sqrt 2 - 1: octile distance is max + K * min. */
export const K = SQRT2 - 1;
/** Directions in the order N E S W NE SE SW NW (as the A* loop's). */
export const DX = Int32Array.of(0, 1, 0, -1, 1, 1, -1, -1);
export const DY = Int32Array.of(-1, 0, 1, 0, -1, 1, 1, -1);

/** Scratch JPS shares with the Pathfinder that owns it (one set of per-cell arrays per grid). */
export interface SearchScratch {
  readonly g: Float64Array;
  readonly parent: Int32Array;
  readonly stamp: Uint32Array;
  readonly heap: NodeHeap;
  nextGen(): number;
  /** The current generation's open stamp (the last nextGen's); its closed stamp is one more. */
  readonly generation: number;
}

/** Starts a search of a new generation from `start` alone; returns the generation's open stamp. */
export function seedSearch(s: SearchScratch, start: number): number {
  const open = s.nextGen();
  s.heap.clear();
  s.g[start] = 0;
  s.parent[start] = -1;
  s.stamp[start] = open;
  s.heap.push(start, 0, 0);
  return open;
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
  private readonly tables: (JumpTable | null)[];
  private unsubscribe: (() => void) | null = null;

  constructor(grid: NavGrid, scratch: SearchScratch) {
    this.grid = grid;
    this.scratch = scratch;
    this.planes = grid.layers.map(() => null);
    this.tables = grid.layers.map(() => null);
  }

  /**
   * JPS+'s jump table of `layer` (octile): built on first use, dropped by any change to the layer
   * and rebuilt by the next `jps+` query.
   */
  table(view: SearchView, layer: number): JumpTable {
    this.follow();
    let t = this.tables[layer];
    if (t === null) {
      t = buildJumpTable(view);
      this.tables[layer] = t;
    }
    return t;
  }

  private follow(): void {
    if (this.unsubscribe !== null) return;
    this.unsubscribe = this.grid.onChange((c) => {
      this.planes[c.layer]?.update(c.x, c.y, c.width, c.height);
      this.tables[c.layer] = null;
    });
  }

  /** The bit planes of `layer`, built on first use and kept in step with the grid after that. */
  bits(layer: number): WalkBits {
    let w = this.planes[layer];
    if (w === null) {
      w = new WalkBits(this.grid, layer);
      this.planes[layer] = w;
      this.follow();
    }
    return w;
  }

  /** Stops following the grid and drops the bit planes (rebuilt on the next search). */
  dispose(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.planes.fill(null);
    this.tables.fill(null);
  }

  /**
   * Searches from padded cell `start` to padded cell `goal` (start != goal, both walkable).
   * Returns the number of jump points expanded, or -(expanded + 1) when `maxIterations` stopped
   * it; the goal's stamp is `gen + 1` when it was reached (the Pathfinder's convention).
   */
  search(view: SearchView, layer: number, start: number, goal: number, cardinal: boolean, maxIterations: number, plus = false): number {
    const jumps = plus && !cardinal ? this.table(view, layer).jumps : null;
    const wb = this.bits(layer);
    const rows = wb.rows;
    const cols = wb.cols;
    const rw = wb.rowWords;
    const cw = wb.colWords;
    const pass = view.pass;
    const cost = view.minCost;
    const W = view.stride;
    const { g, parent, stamp, heap } = this.scratch;
    const open = seedSearch(this.scratch, start);
    const closed = open + 1;
    const gy = (goal / W) | 0;
    const gx = goal - gy * W;
    // The path from a node to each successor is diagonal steps first, then straight ones (octile)
    // or vertical first, then horizontal (cardinal), so a successor's parent is the node it was
    // found from, with no intermediate cell on the open list (ICAPS 2014's pruned intermediates).
    let from = 0;
    let fromG = 0;
    let fx = 0;
    let fy = 0;
    const relax = (jx: number, jy: number): void => {
      const jp = jy * W + jx;
      const st = stamp[jp];
      if (st === closed) return;
      const ax = Math.abs(jx - fx);
      const ay = Math.abs(jy - fy);
      const ng = fromG + (cardinal ? ax + ay : ax > ay ? ax + K * ay : ay + K * ax) * cost;
      if (st === open && ng >= g[jp]) return;
      const hx = Math.abs(jx - gx);
      const hy = Math.abs(jy - gy);
      const f = ng + (cardinal ? hx + hy : hx > hy ? hx + K * hy : hy + K * hx) * cost;
      g[jp] = ng;
      parent[jp] = from;
      if (st === open) {
        heap.decrease(jp, f, ng);
      } else {
        stamp[jp] = open;
        heap.push(jp, f, ng);
      }
    };
    /** JPS+'s straight jump from (x, y) in direction k (N E S W), stopping at the goal on the way. */
    const jumpStraight = (jumps: Int16Array | Int32Array, p: number, x: number, y: number, k: number): void => {
      const d = jumps[p * 8 + k];
      const dx = DX[k];
      const dy = DY[k];
      const ahead = dx !== 0 ? (gy === y ? (gx - x) * dx : 0) : gx === x ? (gy - y) * dy : 0;
      if (ahead > 0 && ahead <= (d < 0 ? -d : d)) relax(gx, gy);
      else if (d > 0) relax(x + d * dx, y + d * dy);
    };
    let expanded = 0;
    while (heap.size > 0) {
      const cur = heap.pop();
      stamp[cur] = closed;
      if (cur === goal) break;
      if (expanded >= maxIterations) return -expanded - 1;
      expanded++;
      const cy = (cur / W) | 0;
      const cx = cur - cy * W;
      from = cur;
      fromG = g[cur];
      fx = cx;
      fy = cy;
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
        const px = par - py * W;
        const ax = Math.abs(cx - px);
        const ay = Math.abs(cy - py);
        // The last step into cur: straight when the run ended straight (see `relax`).
        const dx = cardinal ? (ax !== 0 ? Math.sign(cx - px) : 0) : ax >= ay ? Math.sign(cx - px) : 0;
        const dy = cardinal ? (ax !== 0 ? 0 : Math.sign(cy - py)) : ay >= ax ? Math.sign(cy - py) : 0;
        if (dx !== 0 && dy !== 0) {
          // Diagonal arrival: its two straight components and itself.
          const h = dx > 0 ? e : w;
          const v = dy > 0 ? s : n;
          dirs = h | v;
          if (h !== 0 && v !== 0) dirs |= diagonalBit(dx, dy);
        } else if (cardinal) {
          dirs = dx !== 0 ? (dx > 0 ? e : w) | n | s : (dy > 0 ? s : n) | e | w;
        } else if (dx !== 0) {
          // Horizontal arrival: ahead, and only the forced sides: a side cell open here but blocked
          // beside the cell behind (without corner cutting, that cell's diagonal could not reach
          // it); an unforced side is reached more cheaply from behind. Plus the diagonals ahead
          // that a forced side allows.
          const ahead = dx > 0 ? e : w;
          const behind = cur - dx;
          const sides = (n !== 0 && pass[behind - W] <= 0 ? n : 0) | (s !== 0 && pass[behind + W] <= 0 ? s : 0);
          dirs = ahead | sides;
          if (ahead !== 0) dirs |= diagonals(ahead | sides) & (dx > 0 ? 0x30 : 0xc0);
        } else {
          const ahead = dy > 0 ? s : n;
          const behind = cur - dy * W;
          const sides = (e !== 0 && pass[behind + 1] <= 0 ? e : 0) | (w !== 0 && pass[behind - 1] <= 0 ? w : 0);
          dirs = ahead | sides;
          if (ahead !== 0) dirs |= diagonals(ahead | sides) & (dy > 0 ? 0x60 : 0x90);
        }
      }
      for (let k = 0; dirs !== 0; k++, dirs >>>= 1) {
        if ((dirs & 1) === 0) continue;
        if (jumps !== null) {
          if (k < 4) {
            jumpStraight(jumps, cur, cx, cy, k);
            continue;
          }
          // Diagonal run by table: hop from one cell with straight jump points to the next, and
          // stop at the cell where the goal lines up (it becomes a node, which reaches the goal).
          const dx = DX[k];
          const dy = DY[k];
          const kh = dx > 0 ? 1 : 3;
          const kv = dy > 0 ? 2 : 0;
          let q = cur;
          let x = cx;
          let y = cy;
          for (;;) {
            const d = jumps[q * 8 + k];
            const mx = (gx - x) * dx;
            const my = (gy - y) * dy;
            if (mx > 0 && my > 0) {
              const m = mx < my ? mx : my;
              if (m <= (d < 0 ? -d : d)) {
                relax(x + m * dx, y + m * dy);
                break;
              }
            }
            if (d <= 0) break;
            x += d * dx;
            y += d * dy;
            q = y * W + x;
            jumpStraight(jumps, q, x, y, kh);
            jumpStraight(jumps, q, x, y, kv);
          }
          continue;
        }
        if (k === 1) {
          const p = scanForward(rows, rw, cy, cx, cy === gy ? gx : -1);
          if (p >= 0) relax(p, cy);
        } else if (k === 3) {
          const p = scanBackward(rows, rw, cy, cx, cy === gy ? gx : -1);
          if (p >= 0) relax(p, cy);
        } else if (k === 0 || k === 2) {
          const dy = k === 2 ? 1 : -1;
          if (cardinal) {
            // Vertical run: every row's horizontal jump points are successors; a forced
            // neighbour or the goal ends the run as a successor itself.
            let p = cur;
            const d = dy * W;
            for (let y = cy + dy; pass[p + d] > 0; y += dy) {
              p += d;
              if (y === gy && cx === gx) {
                relax(cx, y);
                break;
              }
              if ((pass[p - 1] > 0 && pass[p - 1 - d] <= 0) || (pass[p + 1] > 0 && pass[p + 1 - d] <= 0)) {
                relax(cx, y);
                break;
              }
              const goalX = y === gy ? gx : -1;
              const east = scanForward(rows, rw, y, cx, goalX);
              if (east >= 0) relax(east, y);
              const west = scanBackward(rows, rw, y, cx, goalX);
              if (west >= 0) relax(west, y);
            }
          } else {
            const p = dy > 0 ? scanForward(cols, cw, cx, cy, cx === gx ? gy : -1) : scanBackward(cols, cw, cx, cy, cx === gx ? gy : -1);
            if (p >= 0) relax(cx, p);
          }
        } else {
          // Diagonal run: each cell's straight jump points (and the goal) are successors.
          const dx = DX[k];
          const dy = DY[k];
          const d = dy * W + dx;
          let p = cur;
          let x = cx;
          let y = cy;
          while (pass[p + dx] > 0 && pass[p + dy * W] > 0 && pass[p + d] > 0) {
            p += d;
            x += dx;
            y += dy;
            if (x === gx && y === gy) {
              relax(x, y);
              break;
            }
            // A blocked first cell ends a scan at once: skip the call (common in cluttered maps).
            if (pass[p + dx] > 0) {
              const h = dx > 0 ? scanForward(rows, rw, y, x, y === gy ? gx : -1) : scanBackward(rows, rw, y, x, y === gy ? gx : -1);
              if (h >= 0) relax(h, y);
            }
            if (pass[p + dy * W] > 0) {
              const v = dy > 0 ? scanForward(cols, cw, x, y, x === gx ? gy : -1) : scanBackward(cols, cw, x, y, x === gx ? gy : -1);
              if (v >= 0) relax(x, v);
            }
          }
        }
      }
    }
    return expanded;
  }

  /**
   * The full cell path (unpadded indices) from the start to padded cell `goal`, filling in each run
   * between successive nodes: diagonal first, then straight (octile), or vertical first, then
   * horizontal (cardinal), the order `search` found them in. Fills `out` when it is long enough.
   */
  reconstruct(goal: number, stride: number, cardinal: boolean, out?: Int32Array): Int32Array {
    const parent = this.scratch.parent;
    const width = this.grid.width;
    let len = 1;
    for (let p = goal; parent[p] !== -1; p = parent[p]) len += runLength(p, parent[p], stride, cardinal);
    const cells = out !== undefined && out.length >= len ? out.subarray(0, len) : new Int32Array(len);
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
      // Walking back from p, q excluded: the straight part first, then the diagonal one.
      while (x !== qx || y !== qy) {
        cells[--k] = y * width + x;
        const ax = Math.abs(qx - x);
        const ay = Math.abs(qy - y);
        if (cardinal) {
          if (ax !== 0) x += Math.sign(qx - x);
          else y += Math.sign(qy - y);
        } else {
          if (ax >= ay) x += Math.sign(qx - x);
          if (ay >= ax) y += Math.sign(qy - y);
        }
      }
      p = q;
    }
    return cells;
  }
}

function runLength(p: number, q: number, stride: number, cardinal: boolean): number {
  const py = (p / stride) | 0;
  const qy = (q / stride) | 0;
  const ax = Math.abs(p - py * stride - (q - qy * stride));
  const ay = Math.abs(py - qy);
  return cardinal ? ax + ay : Math.max(ax, ay);
}

/** Bits 4-7 (NE SE SW NW) allowed by the straight bits 0-3 (N E S W) without cutting a corner. */
function diagonals(m: number): number {
  return ((m & 3) === 3 ? 16 : 0) | ((m & 6) === 6 ? 32 : 0) | ((m & 12) === 12 ? 64 : 0) | ((m & 9) === 9 ? 128 : 0);
}

function diagonalBit(dx: number, dy: number): number {
  return dx > 0 ? (dy < 0 ? 16 : 32) : dy > 0 ? 64 : 128;
}

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

/** Builds the jump table in eight sweeps over the padded view (O(cells)). */
export function buildJumpTable(view: SearchView): JumpTable {
  const t0 = performance.now();
  const pass = view.pass;
  const W = view.stride;
  const H = pass.length / W;
  const jumps = Math.max(W, H) < 32000 ? new Int16Array(pass.length * 8) : new Int32Array(pass.length * 8);
  const open = (p: number): boolean => pass[p] > 0;
  // Straight directions: a cell's value follows from the next cell's, so sweep against the motion.
  for (let k = 0; k < 4; k++) {
    const dx = DX[k];
    const dy = DY[k];
    const step = dy * W + dx;
    const side = dx !== 0 ? W : 1;
    for (let yi = 1; yi < H - 1; yi++) {
      const y = dy > 0 ? H - 1 - yi : yi;
      for (let xi = 1; xi < W - 1; xi++) {
        const x = dx > 0 ? W - 1 - xi : xi;
        const p = y * W + x;
        if (!open(p)) continue;
        const c = p + step;
        if (!open(c)) continue;
        const forced = (open(c - side) && !open(c - side - step)) || (open(c + side) && !open(c + side - step));
        const t = jumps[c * 8 + k];
        jumps[p * 8 + k] = forced ? 1 : t > 0 ? t + 1 : t - 1;
      }
    }
  }
  for (let k = 4; k < 8; k++) {
    const dx = DX[k];
    const dy = DY[k];
    const kh = dx > 0 ? 1 : 3;
    const kv = dy > 0 ? 2 : 0;
    const step = dy * W + dx;
    for (let yi = 1; yi < H - 1; yi++) {
      const y = dy > 0 ? H - 1 - yi : yi;
      for (let xi = 1; xi < W - 1; xi++) {
        const x = dx > 0 ? W - 1 - xi : xi;
        const p = y * W + x;
        const c = p + step;
        if (!open(p) || !open(p + dx) || !open(p + dy * W) || !open(c)) continue;
        const t = jumps[c * 8 + k];
        jumps[p * 8 + k] = jumps[c * 8 + kh] > 0 || jumps[c * 8 + kv] > 0 ? 1 : t > 0 ? t + 1 : t - 1;
      }
    }
  }
  return { jumps, buildMs: performance.now() - t0, bytes: jumps.byteLength };
}
