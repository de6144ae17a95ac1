/**
 * Simple subgoal graphs (Uras, Koenig and Hernández, ICAPS 2013) for octile movement without
 * corner cutting on uniform-cost layers: the graph, its build, and the scan that finds the
 * subgoals a cell reaches directly. The search on it is in search.ts.
 *
 * Terms, as the method defines them:
 * - a subgoal is an open cell at a convex corner of an obstacle: some diagonal neighbour is
 *   blocked while the two cells beside that diagonal are open, so a shortest path may bend there;
 * - two cells are h-reachable when a path between them is as short as the octile distance (a
 *   path as if there were no obstacles), and direct-h-reachable when moreover no such path
 *   passes through a third subgoal.
 * Every shortest path can be cut at subgoals into h-reachable pieces, and keeping only the
 * direct-h-reachable pairs as edges keeps every distance. A query joins its start and goal to the
 * subgoals they reach directly and runs A* on that small graph (search.ts).
 *
 * Every pair the scan reports is joined by the path "diagonal steps first, then straight steps"
 * from the cell scanned from, which the scan itself walked: refining an edge walks it again.
 */
import type { SearchView } from '../../../grid/navgrid.js';
import { NodeHeap } from '../../kernel/heap.js';
import { OCTILE_K } from '../../../grid/padded.js';
import { SubgoalLevels } from './levels.js';

/** Landmarks a graph keeps distances from, at most (fewer on a graph with fewer subgoals). */
const LANDMARKS = 8;
/**
 * Edges the landmark searches may relax in all (each landmark costs one search over the graph):
 * graphs of more than an eighth of that many edges (caves on 1024 x 1024: 700,000) get fewer
 * landmarks, graphs past it (random walls on 1024 x 1024: one to two million) none, so the build
 * stays within about a second.
 */
const LANDMARK_EDGE_BUDGET = 1_500_000;

/** Straight directions N E S W as padded index steps, and the diagonals NE SE SW NW with their two straight parts. */
const STRAIGHT_X = Int32Array.of(0, 1, 0, -1);
const STRAIGHT_Y = Int32Array.of(-1, 0, 1, 0);
/** For the diagonals NE SE SW NW: the index (into N E S W) of their horizontal and vertical parts. */
const DIAG_H = Int32Array.of(1, 1, 3, 3);
const DIAG_V = Int32Array.of(0, 2, 2, 0);

/** A simple subgoal graph of one layer, built from its padded search view. */
export class SubgoalGraph {
  /** Padded row length. */
  readonly stride: number;
  /** Subgoals. */
  readonly count: number;
  /** The padded cell of each subgoal, in increasing order. */
  readonly cellOf: Int32Array;
  /** Each subgoal's x and y (padded coordinates: cell x + 1, cell y + 1). */
  readonly xs: Int32Array;
  readonly ys: Int32Array;
  /** The subgoal on each padded cell, -1 for none. */
  readonly idOf: Int32Array;
  /**
   * Per padded cell and straight direction N E S W (`clear[p * 4 + k]`): the open steps from the
   * cell that way before a blocked cell or a subgoal. Uint16 while both sides fit, else Int32.
   */
  readonly clear: Uint16Array | Int32Array;
  /**
   * Each subgoal's open neighbours, bit `(dy + 1) * 3 + dx + 1` for the neighbour (dx, dy): what
   * {@link BENDS} reads to tell the turns a shortest path can take there.
   */
  readonly around: Uint16Array;
  /** Edges of the simple graph, before the levels replaced them (build statistics). */
  readonly simpleEdges: number;
  /** The levels the searches run on (levels.ts): the core, and each subgoal's upward edges. */
  readonly levels: SubgoalLevels;
  /** How many landmarks {@link far} holds distances from. */
  readonly landmarks: number;
  /**
   * The graph distance from each landmark to each subgoal, `far[v * landmarks + i]` (Infinity
   * where none): by the triangle inequality a lower bound of the distance between two subgoals,
   * often far above the straight-line one round large obstacles (the ALT heuristic).
   */
  readonly far: Float64Array;
  /** Build time in milliseconds. */
  readonly buildMs: number;

  constructor(view: SearchView) {
    const t0 = performance.now();
    const pass = view.pass;
    const W = view.stride;
    const H = pass.length / W;
    this.stride = W;
    // Subgoals: open cells with a blocked diagonal neighbour whose two side cells are open.
    const idOf = new Int32Array(pass.length).fill(-1);
    let n = 0;
    for (let y = 1; y < H - 1; y++) {
      for (let p = y * W + 1, end = y * W + W - 1; p < end; p++) {
        if (pass[p] <= 0) continue;
        const n_ = pass[p - W] > 0;
        const s_ = pass[p + W] > 0;
        const e_ = pass[p + 1] > 0;
        const w_ = pass[p - 1] > 0;
        if ((n_ && e_ && pass[p - W + 1] <= 0) || (s_ && e_ && pass[p + W + 1] <= 0) || (s_ && w_ && pass[p + W - 1] <= 0) || (n_ && w_ && pass[p - W - 1] <= 0)) idOf[p] = n++;
      }
    }
    this.count = n;
    this.idOf = idOf;
    const cellOf = new Int32Array(n);
    const xs = new Int32Array(n);
    const ys = new Int32Array(n);
    for (let p = 0; p < pass.length; p++) {
      const id = idOf[p];
      if (id < 0) continue;
      cellOf[id] = p;
      ys[id] = (p / W) | 0;
      xs[id] = p - ys[id] * W;
    }
    const around = new Uint16Array(n);
    for (let id = 0; id < n; id++) {
      const p = cellOf[id];
      let m = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) if (pass[p + dy * W + dx] > 0) m |= 1 << ((dy + 1) * 3 + dx + 1);
      around[id] = m;
    }
    this.around = around;
    this.cellOf = cellOf;
    this.xs = xs;
    this.ys = ys;
    // Clearances, each swept against its direction so a cell reads the next one's.
    const clear = Math.max(W, H) < 65535 ? new Uint16Array(pass.length * 4) : new Int32Array(pass.length * 4);
    for (let y = 1; y < H - 1; y++) {
      const row = y * W;
      for (let x = W - 2; x >= 1; x--) {
        const p = row + x;
        const c = p + 1;
        clear[p * 4 + 1] = pass[c] > 0 && idOf[c] < 0 ? clear[c * 4 + 1] + 1 : 0;
      }
      for (let x = 1; x <= W - 2; x++) {
        const p = row + x;
        const c = p - 1;
        clear[p * 4 + 3] = pass[c] > 0 && idOf[c] < 0 ? clear[c * 4 + 3] + 1 : 0;
      }
    }
    for (let y = 1; y < H - 1; y++) {
      for (let p = y * W + 1, end = y * W + W - 1; p < end; p++) {
        const c = p - W;
        clear[p * 4] = pass[c] > 0 && idOf[c] < 0 ? clear[c * 4] + 1 : 0;
      }
    }
    for (let y = H - 2; y >= 1; y--) {
      for (let p = y * W + 1, end = y * W + W - 1; p < end; p++) {
        const c = p + W;
        clear[p * 4 + 2] = pass[c] > 0 && idOf[c] < 0 ? clear[c * 4 + 2] + 1 : 0;
      }
    }
    this.clear = clear;
    // Edges: every subgoal's directly reached subgoals, in one growing list.
    const first = new Int32Array(n + 1);
    let to = new Int32Array(Math.max(16, n * 8));
    let m = 0;
    const found = new Scan();
    for (let u = 0; u < n; u++) {
      first[u] = m;
      const k = this.reach(pass, cellOf[u], found);
      if (m + k > to.length) {
        const grown = new Int32Array(Math.max(to.length * 2, m + k));
        grown.set(to);
        to = grown;
      }
      for (let j = 0; j < k; j++) to[m++] = idOf[found.cells[j]];
    }
    first[n] = m;
    to = to.slice(0, m);
    this.simpleEdges = m;
    this.landmarks = Math.min(LANDMARKS, n, Math.floor(LANDMARK_EDGE_BUDGET / Math.max(1, m)));
    this.far = landmarkDistances(n, this.landmarks, first, to, xs, ys);
    this.levels = new SubgoalLevels(this, first, to);
    this.buildMs = performance.now() - t0;
  }

  /** Bytes held: the subgoal table and clearances per padded cell, the subgoals and the edges. */
  get bytes(): number {
    return this.idOf.byteLength + this.clear.byteLength + this.cellOf.byteLength + this.around.byteLength + this.far.byteLength + this.xs.byteLength + this.ys.byteLength + this.levels.bytes;
  }

  /**
   * The subgoals open padded cell `s` reaches directly, as padded cells in `out.cells` (grown as
   * needed); returns how many. Finds every direct-h-reachable subgoal (and possibly a few more
   * h-reachable ones), each along the path: diagonal steps from `s`, then straight steps. `s`
   * itself is not reported. The view must be the one the graph was built on, unchanged.
   */
  reach(pass: Float32Array, s: number, out: Scan): number {
    const W = this.stride;
    const idOf = this.idOf;
    const clear = this.clear;
    let n = 0;
    for (let k = 0; k < 4; k++) {
      const t = s + (clear[s * 4 + k] + 1) * (STRAIGHT_Y[k] * W + STRAIGHT_X[k]);
      if (idOf[t] >= 0) n = out.push(n, t);
    }
    for (let j = 0; j < 4; j++) {
      const kh = DIAG_H[j];
      const kv = DIAG_V[j];
      const dx = STRAIGHT_X[kh];
      const dyW = STRAIGHT_Y[kv] * W;
      const d = dx + dyW;
      // A subgoal m steps along a straight line from the i-th diagonal cell is direct only if the
      // same line from every earlier diagonal cell ran at least m open steps: the lines' bounds.
      let maxH = clear[s * 4 + kh];
      let maxV = clear[s * 4 + kv];
      for (let p = s; pass[p + dx] > 0 && pass[p + dyW] > 0 && pass[p + d] > 0; ) {
        p += d;
        if (idOf[p] >= 0) {
          n = out.push(n, p);
          break;
        }
        const ch = clear[p * 4 + kh];
        if (ch < maxH) {
          const t = p + (ch + 1) * dx;
          if (idOf[t] >= 0) n = out.push(n, t);
          maxH = ch;
        }
        const cv = clear[p * 4 + kv];
        if (cv < maxV) {
          const t = p + (cv + 1) * dyW;
          if (idOf[t] >= 0) n = out.push(n, t);
          maxV = cv;
        }
      }
    }
    return n;
  }
}

/** A growing list of padded cells a {@link SubgoalGraph.reach} scan fills, reused across scans. */
export class Scan {
  cells = new Int32Array(64);

  /** Writes `cell` at position `n` (growing the list when full) and returns n + 1. */
  push(n: number, cell: number): number {
    if (n === this.cells.length) {
      const grown = new Int32Array(n * 2);
      grown.set(this.cells);
      this.cells = grown;
    }
    this.cells[n] = cell;
    return n + 1;
  }
}

/**
 * Whether the path from padded cell `a` to `b` that takes its diagonal steps first, then its
 * straight ones, is open on `pass` (no blocked cell, no cut corner).
 */
export function diagonalFirstOpen(pass: Float32Array, W: number, a: number, b: number): boolean {
  const ay = (a / W) | 0;
  const by = (b / W) | 0;
  const ddx = b - by * W - (a - ay * W);
  const ddy = by - ay;
  const dx = ddx > 0 ? 1 : ddx < 0 ? -1 : 0;
  const dyW = ddy > 0 ? W : ddy < 0 ? -W : 0;
  const adx = ddx < 0 ? -ddx : ddx;
  const ady = ddy < 0 ? -ddy : ddy;
  let diag = adx < ady ? adx : ady;
  let p = a;
  for (; diag > 0; diag--) {
    if (pass[p + dx] <= 0 || pass[p + dyW] <= 0 || pass[p + dx + dyW] <= 0) return false;
    p += dx + dyW;
  }
  const step = adx > ady ? dx : dyW;
  for (let k = adx > ady ? adx - ady : ady - adx; k > 0; k--) {
    p += step;
    if (pass[p] <= 0) return false;
  }
  return true;
}

/**
 * Writes the cells (indices `y * width + x`, `a` excluded, `b` included) of the path from padded
 * cell `a` to `b` into `out` from position `at`, diagonal steps first (`diagonalFirst`) or
 * straight steps first; returns the position after the last one.
 */
export function writeSegment(W: number, a: number, b: number, diagonalFirst: boolean, out: Int32Array, at: number): number {
  const width = W - 2;
  const ay = (a / W) | 0;
  const by = (b / W) | 0;
  let x = a - ay * W - 1;
  let y = ay - 1;
  const ddx = b - by * W - 1 - x;
  const ddy = by - 1 - y;
  const dx = ddx > 0 ? 1 : ddx < 0 ? -1 : 0;
  const dy = ddy > 0 ? 1 : ddy < 0 ? -1 : 0;
  const adx = ddx * dx;
  const ady = ddy * dy;
  const diag = adx < ady ? adx : ady;
  const straight = (adx > ady ? adx : ady) - diag;
  const sx = adx > ady ? dx : 0;
  const sy = adx > ady ? 0 : dy;
  for (let phase = 0; phase < 2; phase++) {
    const diagonalNow = (phase === 0) === diagonalFirst;
    const steps = diagonalNow ? diag : straight;
    const mx = diagonalNow ? dx : sx;
    const my = diagonalNow ? dy : sy;
    for (let k = 0; k < steps; k++) {
      x += mx;
      y += my;
      out[at++] = y * width + x;
    }
  }
  return at;
}

/**
 * Turns a shortest path never takes, by the open cells around the cell it turns on: entry
 * `BENDS[around * 81 + a * 9 + b]` is 1 when a path that enters the cell with move `a` and leaves
 * it with move `b` (moves coded `(dy + 1) * 3 + dx + 1`) can be made strictly shorter by
 * replacing those two moves with an open one (or, for two diagonals at a right angle, two straight
 * moves through an open neighbour). `around` is the cell's open neighbours as in
 * {@link SubgoalGraph.around}.
 */
export const BENDS: Uint8Array = bends();

function bends(): Uint8Array {
  const t = new Uint8Array(512 * 81);
  for (let around = 0; around < 512; around++) {
    const open = (dx: number, dy: number) => ((around >> ((dy + 1) * 3 + dx + 1)) & 1) === 1 || (dx === 0 && dy === 0);
    for (let a = 0; a < 9; a++) {
      for (let b = 0; b < 9; b++) {
        if (a === 4 || b === 4) continue;
        const ax = (a % 3) - 1;
        const ay = ((a / 3) | 0) - 1;
        const bx = (b % 3) - 1;
        const by = ((b / 3) | 0) - 1;
        const wx = ax + bx;
        const wy = ay + by;
        let shorter = false;
        if (wx === 0 && wy === 0) shorter = true;
        else if (wx >= -1 && wx <= 1 && wy >= -1 && wy <= 1) {
          // One move from the cell before to the cell after: a straight one always fits; a
          // diagonal one needs both cells beside it (neighbours of the turning cell) open.
          shorter = wx === 0 || wy === 0 || (open(bx, -ay) && open(-ax, by));
        } else if ((wx === 0 || wy === 0) && ax !== 0 && ay !== 0 && bx !== 0 && by !== 0) {
          // Two diagonals at a right angle (2 sqrt 2) against two straight moves (2) through the
          // neighbour between them.
          shorter = open((bx - ax) / 2, (by - ay) / 2);
        }
        if (shorter) t[around * 81 + a * 9 + b] = 1;
      }
    }
  }
  return t;
}

/**
 * Distances from `k` landmarks to every subgoal over the graph's edges (octile lengths), laid out
 * per subgoal. The landmarks are spread farthest first: each is the subgoal farthest from those
 * chosen before (the first, the one farthest from subgoal 0); a subgoal no landmark reaches yet
 * (another component) is taken first.
 */
function landmarkDistances(n: number, k: number, first: Int32Array, to: Int32Array, xs: Int32Array, ys: Int32Array): Float64Array {
  const far = new Float64Array(n * k);
  const dist = new Float64Array(n);
  const nearest = new Float64Array(n).fill(Infinity);
  const heap = new NodeHeap(n);
  const run = (src: number): void => {
    dist.fill(Infinity);
    dist[src] = 0;
    heap.clear();
    heap.push(src, 0, 0);
    while (heap.size > 0) {
      const u = heap.pop();
      const du = dist[u];
      for (let e = first[u]; e < first[u + 1]; e++) {
        const v = to[e];
        let ax = xs[v] - xs[u];
        let ay = ys[v] - ys[u];
        if (ax < 0) ax = -ax;
        if (ay < 0) ay = -ay;
        const nd = du + (ax > ay ? ax + OCTILE_K * ay : ay + OCTILE_K * ax);
        if (nd >= dist[v]) continue;
        if (dist[v] === Infinity) heap.push(v, nd, 0);
        else heap.decrease(v, nd, 0);
        dist[v] = nd;
      }
    }
  };
  if (n === 0) return far;
  run(0);
  for (let i = 0; i < k; i++) {
    // The subgoal farthest from the landmarks so far (from subgoal 0 for the first).
    let best = 0;
    let bestD = -1;
    for (let v = 0; v < n; v++) {
      const d = i === 0 ? dist[v] : nearest[v];
      const key = d === Infinity ? Number.MAX_VALUE : d;
      if (key > bestD) {
        bestD = key;
        best = v;
      }
    }
    run(best);
    for (let v = 0; v < n; v++) {
      far[v * k + i] = dist[v];
      if (dist[v] < nearest[v]) nearest[v] = dist[v];
    }
  }
  return far;
}
