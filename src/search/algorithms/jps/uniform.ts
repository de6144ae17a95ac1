/**
 * Jump point search and JPS+ on layers whose walkable cells all cost the same, octile without
 * corner cutting: one loop for both, apart from the weighted and cardinal search in jps.ts, so that
 * nothing of those runs per node here.
 */
import { DX, DY, OCTILE_K } from '../../../grid/padded.js';
import type { JumpQueue } from './queue.js';
import { report, type SearchOutcome, type SearchScratch } from '../../kernel/scratch.js';
import { jumpDown as jumpDown_, jumpUp as jumpUp_, type WalkBits } from './bits.js';

// Module-local copies: some loaders (tsx) turn imported bindings into getter calls in hot loops.
const DX_ = DX;
const DY_ = DY;
const K = OCTILE_K;
const jumpUp = jumpUp_;
const jumpDown = jumpDown_;
/** The direction bits: N E S W are 1 2 4 8, the diagonals these. */
const NE = 16;
const SE = 32;
const SW = 64;
const NW = 128;

/**
 * Work, counted against `maxIterations` by both loops: one per expanded node, plus what its jumps
 * look at. Jump point search: one per cell a scan steps over, from where it starts to where it
 * stops (a jump point or a wall), the scans reading one stop word per 32 cells; a diagonal run's
 * steps are paid by its two side scans (each at least one cell) on every step it goes on. JPS+,
 * which reads one table entry per jump whatever its length: one per diagonal hop (a node's
 * straight jumps are a constant four). A diagonal run or hop stops as soon as the work passes the
 * limit, and the loops check after every straight jump, so a search stops within one scan (or one
 * diagonal step's two) of the limit and the cells it looks at stay within a constant times
 * `maxIterations` however far the jumps reach.
 */

/**
 * JPS+: searches from padded cell `start` to padded cell `goal` (start != goal, both walkable) on
 * `scratch`, every step costing its octile length times `cost`, reading the jump distances of
 * `jumps` (built on the layer's padded view, `W` cells wide) and never the walkability, so an
 * expansion touches one cache line of the table.
 *
 * Pruned intermediates: a diagonal run queues the straight jump points it finds (and the goal) as
 * successors of the expanded node itself, so each successor's path from its parent is diagonal
 * steps, then straight ones. Fills and returns `out` like {@link JumpPointSearch.search}. `found`
 * holds one node's successors (at least {@link successorCapacity} entries), `heap` is the open
 * list (see {@link JumpQueue}; the scratch's stays empty), `nodes` the node states read in place
 * of the stamps. Stamps, costs and parents are the scratch's.
 */
export function searchPlus(jumps: Int16Array | Int32Array, W: number, cost: number, scratch: SearchScratch, start: number, goal: number, maxIterations: number, found: Int32Array, heap: JumpQueue, nodes: NodeStates, out: SearchOutcome, run: JumpCounts = oneCall()): SearchOutcome {
  if (run.fresh) begin(scratch, heap, nodes, start, run);
  return outcome(plusLoop(jumps, W, cost, scratch, goal, maxIterations, found, heap, nodes, run), scratch, goal, out, run);
}

/**
 * Jump point search: {@link searchPlus} with the jumps found by scanning the bit planes `bits` 32
 * cells at a time (transposed for vertical scans); single cells are tested on them too, which
 * stay in cache where the cost array would not.
 */
export function searchScan(bits: WalkBits, W: number, cost: number, scratch: SearchScratch, start: number, goal: number, maxIterations: number, found: Int32Array, heap: JumpQueue, nodes: NodeStates, out: SearchOutcome, run: JumpCounts = oneCall()): SearchOutcome {
  if (run.fresh) begin(scratch, heap, nodes, start, run);
  return outcome(scanLoop(bits, W, cost, scratch, goal, maxIterations, found, heap, nodes, run), scratch, goal, out, run);
}

/**
 * Where a jump point search run in slices is, between two calls (see {@link JumpPointSearch.search}):
 * with `fresh` the call starts a new search, otherwise it resumes the one on its scratch and open
 * list. A call stops, `paused`, before it would expand node `stopAt + 1` in all; `expanded` and
 * `work` (counted against `maxIterations`, see above) carry over from call to call.
 */
export interface JumpCounts {
  fresh: boolean;
  stopAt: number;
  expanded: number;
  work: number;
  paused: boolean;
}

/** The counts of a search run in one call. */
export function oneCall(): JumpCounts {
  return { fresh: true, stopAt: Infinity, expanded: 0, work: 0, paused: false };
}

/**
 * Each node's state in the current search, 2 bits per node (1 open, 2 closed, 0 neither), 16
 * nodes per word: the same answers as the scratch's stamps (which the loops keep writing, for
 * their callers), but a plane small enough to stay in cache, so rejecting a settled successor or a
 * stale queue entry, or telling a new one, reads no large array. Cleared word by word through
 * `touched` (`touchedCount` words in use) at the next search.
 */
export interface NodeStates {
  readonly marks: Uint32Array;
  readonly touched: Int32Array;
  touchedCount: number;
}

function begin(scratch: SearchScratch, heap: JumpQueue, nodes: NodeStates, start: number, run: JumpCounts): void {
  scratch.begin();
  scratch.place(start, 0);
  const marks = nodes.marks;
  const touched = nodes.touched;
  for (let i = nodes.touchedCount - 1; i >= 0; i--) marks[touched[i]] = 0;
  marks[start >>> 4] = 1 << ((start & 15) << 1);
  touched[0] = start >>> 4;
  nodes.touchedCount = 1;
  heap.clear();
  heap.push(start, 0, 0, 8);
  run.expanded = 0;
  run.work = 0;
}

/** Reports a loop's result from its code (ENDED, LIMITED, PAUSED) and the counts in `run`. */
function outcome(code: number, scratch: SearchScratch, goal: number, out: SearchOutcome, run: JumpCounts): SearchOutcome {
  run.paused = code === PAUSED;
  return code !== ENDED ? report(out, false, run.expanded, true) : report(out, scratch.closed(goal), run.expanded, false);
}

/** How a loop ended: the goal settled or the open list empty, at `maxIterations`, or at the slice's end. */
const ENDED = 0;
const LIMITED = 1;
const PAUSED = 2;

/** JPS+'s loop: returns how it ended (ENDED, LIMITED or PAUSED), its counts in `run`. */
function plusLoop(jumps: Int16Array | Int32Array, W: number, cost: number, scratch: SearchScratch, goal: number, maxIterations: number, found: Int32Array, heap: JumpQueue, nodes: NodeStates, run: JumpCounts): number {
  const { g, parent, stamp } = scratch;
  const marks = nodes.marks;
  const touched = nodes.touched;
  const open = scratch.generation;
  const closed = open + 1;
  const gy = (goal / W) | 0;
  const gx = goal - gy * W;
  let expanded = run.expanded;
  // Work done (see the top of this file): expansions plus diagonal hops.
  let work = run.work;
  const stopAt = run.stopAt;
  let code = ENDED;
  loop: while (!heap.empty) {
    // A slice ends before it takes the next node off the open list: the next one resumes there.
    if (expanded >= stopAt) {
      code = PAUSED;
      break;
    }
    const cur = heap.take();
    const curG = heap.g;
    const arrived = heap.dir;
    // An entry left behind when its node's cost improved: the node is settled already.
    const cm = cur >>> 4;
    const cs = (cur & 15) << 1;
    if (((marks[cm] >>> cs) & 3) === 2) continue;
    marks[cm] ^= 3 << cs;
    stamp[cur] = closed;
    if (cur === goal) break;
    if (work >= maxIterations) {
      code = LIMITED;
      break;
    }
    expanded++;
    work++;
    const cy = (cur / W) | 0;
    const cx = cur - cy * W;
    let n = 0;
    for (let dirs = PRUNED[(arrived << 8) | tableMoves(jumps, cur)], k = 0; dirs !== 0; k++, dirs >>>= 1) {
      if ((dirs & 1) === 0) continue;
      if (k < 4) {
        n = straightJump(jumps[cur * 8 + k], cx, cy, k, gx, gy, found, n);
        continue;
      }
      // A diagonal run: hop from one cell with straight jump points to the next, queueing those
      // jump points, never the cells of the run (as in the scans' runs, see diagonalScans). No hop
      // cell has the goal on a line it jumps along: the run meets the goal's row or column only
      // at the crossing, handled after the run.
      const dx = DX_[k];
      const dy = DY_[k];
      const kh = dx > 0 ? 1 : 3;
      const kv = dy > 0 ? 2 : 0;
      const step = dy * W + dx;
      let q = cur;
      let t = 0;
      for (;;) {
        const d = jumps[q * 8 + k];
        if (d <= 0) {
          t -= d;
          break;
        }
        t += d;
        q += d * step;
        const h = jumps[q * 8 + kh];
        if (h > 0) n = add(found, n, cx + (t + h) * dx, cy + t * dy);
        const v = jumps[q * 8 + kv];
        if (v > 0) n = add(found, n, cx + t * dx, cy + (t + v) * dy);
        if (++work > maxIterations) {
          code = LIMITED;
          break loop;
        }
      }
      // The run crosses the goal's column (or row, or meets the goal) within its t free steps: the
      // goal is a successor when a straight jump from that cell reaches it before a jump point
      // or a wall (diagonal steps, then straight ones, like every successor's path).
      const mx = (gx - cx) * dx;
      const my = (gy - cy) * dy;
      if (mx > 0 && my > 0) {
        const m = mx < my ? mx : my;
        if (m <= t) {
          const c = cur + m * step;
          const ahead = mx < my ? my - m : mx - m;
          const e = ahead === 0 ? 0 : jumps[c * 8 + (mx < my ? kv : kh)];
          if (ahead <= (e < 0 ? -e : e)) n = add(found, n, gx, gy);
        }
      }
    }
    // The successors, found as x, y pairs: each one's path is diagonal, then straight, so its
    // cost is the octile distance (kept in the loop: a call here would not be inlined).
    const base = curG;
    for (let i = 0; i < n; i += 2) {
      const jx = found[i];
      const jy = found[i + 1];
      const jp = jy * W + jx;
      const wi = jp >>> 4;
      const sh = (jp & 15) << 1;
      const word = marks[wi];
      const st = (word >>> sh) & 3;
      if (st === 2) continue;
      const ax = jx > cx ? jx - cx : cx - jx;
      const ay = jy > cy ? jy - cy : cy - jy;
      const ng = base + (ax > ay ? ax + K * ay : ay + K * ax) * cost;
      if (st === 1) {
        if (ng >= g[jp]) continue;
      } else {
        if (word === 0) touched[nodes.touchedCount++] = wi;
        marks[wi] = word | (1 << sh);
        stamp[jp] = open;
      }
      const hx = jx > gx ? jx - gx : gx - jx;
      const hy = jy > gy ? jy - gy : gy - jy;
      g[jp] = ng;
      parent[jp] = cur;
      // The last step into it: straight unless the path is all diagonal (see `pruned`).
      const dir = ax === ay ? (jy > cy ? (jx > cx ? 5 : 6) : jx > cx ? 4 : 7) : ax > ay ? (jx > cx ? 1 : 3) : jy > cy ? 2 : 0;
      heap.offer(jp, ng + (hx > hy ? hx + K * hy : hy + K * hx) * cost, ng, dir);
    }
  }
  run.expanded = expanded;
  run.work = work;
  return code;
}

/** Jump point search's loop, by bit plane scans: returns what {@link plusLoop} does. */
function scanLoop(bits: WalkBits, W: number, cost: number, scratch: SearchScratch, goal: number, maxIterations: number, found: Int32Array, heap: JumpQueue, nodes: NodeStates, run: JumpCounts): number {
  const { g, parent, stamp } = scratch;
  const marks = nodes.marks;
  const touched = nodes.touched;
  const open = scratch.generation;
  const closed = open + 1;
  bits.stops();
  const rows = bits.rows;
  const cols = bits.cols;
  const east = bits.east!;
  const west = bits.west!;
  const south = bits.south!;
  const north = bits.north!;
  const rw = bits.rowWords;
  const cw = bits.colWords;
  const gy = (goal / W) | 0;
  const gx = goal - gy * W;
  // The diagonal runs hand their successor count back in the buffer's last entry.
  const last = found.length - 1;
  let expanded = run.expanded;
  // As in plusLoop: the scans count the cells from their node to where they stop.
  let work = run.work;
  const stopAt = run.stopAt;
  let code = ENDED;
  loop: while (!heap.empty) {
    if (expanded >= stopAt) {
      code = PAUSED;
      break;
    }
    const cur = heap.take();
    const curG = heap.g;
    const arrived = heap.dir;
    const cm = cur >>> 4;
    const cs = (cur & 15) << 1;
    if (((marks[cm] >>> cs) & 3) === 2) continue;
    marks[cm] ^= 3 << cs;
    stamp[cur] = closed;
    if (cur === goal) break;
    if (work >= maxIterations) {
      code = LIMITED;
      break;
    }
    expanded++;
    work++;
    const cy = (cur / W) | 0;
    const cx = cur - cy * W;
    let n = 0;
    for (let dirs = PRUNED[(arrived << 8) | bitMoves(rows, rw, cx, cy)], k = 0; dirs !== 0; k++, dirs >>>= 1) {
      if ((dirs & 1) === 0) continue;
      if (k === 1 || k === 3) {
        const p = k === 1 ? jumpUp(east, rows, rw, cy, cx, cy === gy ? gx : -1) : jumpDown(west, rows, rw, cy, cx, cy === gy ? gx : -1);
        if (p >= 0) n = add(found, n, p, cy);
        // Where it stopped: p, or ~p at a wall (p ^ (p >> 31) is both).
        const stop = p ^ (p >> 31);
        work += k === 1 ? stop - cx : cx - stop;
      } else if (k === 0 || k === 2) {
        const p = k === 2 ? jumpUp(south, cols, cw, cx, cy, cx === gx ? gy : -1) : jumpDown(north, cols, cw, cx, cy, cx === gx ? gy : -1);
        if (p >= 0) n = add(found, n, cx, p);
        const stop = p ^ (p >> 31);
        work += k === 2 ? stop - cy : cy - stop;
      } else {
        n = diagonalScans(bits, cx, cy, k, gx, gy, found, n, last, maxIterations - work);
        work += found[last];
      }
      if (work > maxIterations) {
        code = LIMITED;
        break loop;
      }
    }
    // As in plusLoop.
    const base = curG;
    for (let i = 0; i < n; i += 2) {
      const jx = found[i];
      const jy = found[i + 1];
      const jp = jy * W + jx;
      const wi = jp >>> 4;
      const sh = (jp & 15) << 1;
      const word = marks[wi];
      const st = (word >>> sh) & 3;
      if (st === 2) continue;
      const ax = jx > cx ? jx - cx : cx - jx;
      const ay = jy > cy ? jy - cy : cy - jy;
      const ng = base + (ax > ay ? ax + K * ay : ay + K * ax) * cost;
      if (st === 1) {
        if (ng >= g[jp]) continue;
      } else {
        if (word === 0) touched[nodes.touchedCount++] = wi;
        marks[wi] = word | (1 << sh);
        stamp[jp] = open;
      }
      const hx = jx > gx ? jx - gx : gx - jx;
      const hy = jy > gy ? jy - gy : gy - jy;
      g[jp] = ng;
      parent[jp] = cur;
      // The last step into it: straight unless the path is all diagonal (see `pruned`).
      const dir = ax === ay ? (jy > cy ? (jx > cx ? 5 : 6) : jx > cx ? 4 : 7) : ax > ay ? (jx > cx ? 1 : 3) : jy > cy ? 2 : 0;
      heap.offer(jp, ng + (hx > hy ? hx + K * hy : hy + K * hx) * cost, ng, dir);
    }
  }
  run.expanded = expanded;
  run.work = work;
  return code;
}

/**
 * Entries the successor buffer of {@link searchPlus} and {@link searchScan} needs on a padded view of `stride` x
 * `rows`: two per successor; four straight ones, and per diagonal at most two per step plus the goal;
 * and one spare for the diagonal runs' work count.
 */
export function successorCapacity(stride: number, rows: number): number {
  return 2 * (4 + 4 * (2 * Math.max(stride, rows) + 1)) + 1;
}

function add(found: Int32Array, n: number, x: number, y: number): number {
  found[n] = x;
  found[n + 1] = y;
  return n + 2;
}

/** Whether padded cell (x, y) is walkable, read off the row bit plane. */
function openAt(rows: Int32Array, rw: number, x: number, y: number): boolean {
  return rows[y * rw + (x >>> 5) + 1] << (x & 31) < 0;
}

/**
 * The first steps open from padded cell (x, y) as direction bits (a diagonal needs both cells
 * beside it open too: no corner cutting), from the row bit plane: the eight neighbours read as
 * bits in direction order, then {@link STEPS} (a lookup, so that it is small enough to be
 * inlined into the search loop).
 */
function bitMoves(rows: Int32Array, rw: number, x: number, y: number): number {
  return STEPS[
    +openAt(rows, rw, x, y - 1) |
      (+openAt(rows, rw, x + 1, y) << 1) |
      (+openAt(rows, rw, x, y + 1) << 2) |
      (+openAt(rows, rw, x - 1, y) << 3) |
      (+openAt(rows, rw, x + 1, y - 1) << 4) |
      (+openAt(rows, rw, x + 1, y + 1) << 5) |
      (+openAt(rows, rw, x - 1, y + 1) << 6) |
      (+openAt(rows, rw, x - 1, y - 1) << 7)
  ];
}

/** For each set of open neighbours (bits N E S W NE SE SW NW), the open first steps: a diagonal needs its two sides open. */
const STEPS = new Uint8Array(256);
for (let m = 0; m < 256; m++) {
  STEPS[m] = (m & 15) | ((m & 3) === 3 ? m & NE : 0) | ((m & 6) === 6 ? m & SE : 0) | ((m & 12) === 12 ? m & SW : 0) | ((m & 9) === 9 ? m & NW : 0);
}

/**
 * {@link bitMoves} from JPS+'s table: an entry is 0 exactly when its first step is blocked. A loop,
 * so that it is small enough to be inlined into the search loop.
 */
function tableMoves(jumps: Int16Array | Int32Array, cur: number): number {
  const b = cur * 8;
  let m = 0;
  for (let k = 7; k >= 0; k--) m = (m << 1) | +(jumps[b + k] !== 0);
  return m;
}

/**
 * The directions jump point search follows from a node whose open first steps are `moves`, reached
 * by a last step in direction `dir` (0-7 as DX / DY; 8 for the start: every open direction). A
 * node's path from its parent is diagonal steps, then straight ones, so the last step is straight
 * unless the path is all diagonal.
 */
function pruned(moves: number, dir: number): number {
  switch (dir) {
    // Straight arrival: ahead, and only the forced sides: a side cell open here whose diagonal from
    // the cell behind is blocked, which (the cell behind and the side cell being open) means the
    // corner cell beside the one behind is; an unforced side is reached more cheaply from behind.
    // Plus the diagonal ahead beside each forced side.
    case 0:
      return (moves & 1) | ((moves & 2) !== 0 && (moves & SE) === 0 ? 2 | (moves & NE) : 0) | ((moves & 8) !== 0 && (moves & SW) === 0 ? 8 | (moves & NW) : 0);
    case 1:
      return (moves & 2) | ((moves & 1) !== 0 && (moves & NW) === 0 ? 1 | (moves & NE) : 0) | ((moves & 4) !== 0 && (moves & SW) === 0 ? 4 | (moves & SE) : 0);
    case 2:
      return (moves & 4) | ((moves & 2) !== 0 && (moves & NE) === 0 ? 2 | (moves & SE) : 0) | ((moves & 8) !== 0 && (moves & NW) === 0 ? 8 | (moves & SW) : 0);
    case 3:
      return (moves & 8) | ((moves & 1) !== 0 && (moves & NE) === 0 ? 1 | (moves & NW) : 0) | ((moves & 4) !== 0 && (moves & SE) === 0 ? 4 | (moves & SW) : 0);
    // Diagonal arrival: its two straight components and itself.
    case 4:
      return moves & (1 | 2 | NE);
    case 5:
      return moves & (2 | 4 | SE);
    case 6:
      return moves & (4 | 8 | SW);
    case 7:
      return moves & (1 | 8 | NW);
    default:
      return moves;
  }
}

/**
 * {@link pruned} for every arrival direction (0-8) and set of open first steps, at `dir << 8 |
 * moves`: the loops read it in place of the call, whose switch is too large to be inlined into
 * them (and would crowd out what is).
 */
const PRUNED = new Uint8Array(9 << 8);
for (let dir = 0; dir <= 8; dir++) for (let moves = 0; moves < 256; moves++) PRUNED[(dir << 8) | moves] = pruned(moves, dir);

/**
 * Appends to `found` (at `n`, as x, y) the jump point `d` (the table's entry for padded cell
 * (x, y) in straight direction `k`) leads to, or the goal when it comes first on the way; returns
 * the new length.
 */
function straightJump(d: number, x: number, y: number, k: number, gx: number, gy: number, found: Int32Array, n: number): number {
  const dx = DX_[k];
  const dy = DY_[k];
  const ahead = dx !== 0 ? (gy === y ? (gx - x) * dx : 0) : gx === x ? (gy - y) * dy : 0;
  if (ahead > 0 && ahead <= (d < 0 ? -d : d)) return add(found, n, gx, gy);
  return d > 0 ? add(found, n, x + d * dx, y + d * dy) : n;
}

/**
 * Appends the successors of a diagonal run by scanning from padded cell (x, y) in direction `k`:
 * at each cell, the jump points of its two straight scans ahead, until the goal or a blocked step,
 * or until its scans have stepped over more than `limit` cells. Returns the new length, and
 * leaves the cells its scans stepped over in `found[last]` (the buffer's spare last entry).
 */
function diagonalScans(bits: WalkBits, x: number, y: number, k: number, gx: number, gy: number, found: Int32Array, n: number, last: number, limit: number): number {
  const rows = bits.rows;
  const cols = bits.cols;
  const rw = bits.rowWords;
  const cw = bits.colWords;
  const dx = DX_[k];
  const dy = DY_[k];
  const hStops = dx > 0 ? bits.east! : bits.west!;
  const vStops = dy > 0 ? bits.south! : bits.north!;
  // The first step is open (the caller's moves say so); after that, the two cells beside the
  // next step are the ones the scans start into, so each is tested once.
  let spent = 0;
  for (;;) {
    x += dx;
    y += dy;
    if (x === gx && y === gy) {
      found[last] = spent;
      return add(found, n, x, y);
    }
    const h = openAt(rows, rw, x + dx, y);
    const v = openAt(rows, rw, x, y + dy);
    // A blocked first cell ends a scan at once: skip the call (common in cluttered maps).
    if (h) {
      const p = dx > 0 ? jumpUp(hStops, rows, rw, y, x, y === gy ? gx : -1) : jumpDown(hStops, rows, rw, y, x, y === gy ? gx : -1);
      if (p >= 0) n = add(found, n, p, y);
      spent += dx * ((p ^ (p >> 31)) - x);
    }
    if (v) {
      const p = dy > 0 ? jumpUp(vStops, cols, cw, x, y, x === gx ? gy : -1) : jumpDown(vStops, cols, cw, x, y, x === gx ? gy : -1);
      if (p >= 0) n = add(found, n, x, p);
      spent += dy * ((p ^ (p >> 31)) - y);
    }
    if (!h || !v || !openAt(rows, rw, x + dx, y + dy) || spent > limit) {
      found[last] = spent;
      return n;
    }
  }
}
