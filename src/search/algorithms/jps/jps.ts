import type { NavGrid, SearchView } from '../../../grid/navgrid.js';
import { JumpQueue } from './queue.js';
import { report, type SearchOutcome, type SearchScratch } from '../../kernel/scratch.js';
import { DX as DX_, DY as DY_, OCTILE_K, paddedY, strideOf } from '../../../grid/padded.js';
import { WalkBits, scanBackward as scanBackward_, scanForward as scanForward_ } from './bits.js';
import { buildJumpTable, updateJumpTable, type JumpTable } from './jps-plus.js';
import { oneCall, searchPlus, searchScan, successorCapacity, type JumpCounts, type NodeStates } from './uniform.js';
import { CostBoundaries, cardinalSides, dirBit, weightedOctile } from './weighted.js';
import type { LandmarkBounds } from '../../bounds/landmarks/landmark-bounds.js';

const EMPTY_F32 = new Float32Array(0);

// Module-local copies: some loaders (tsx) turn imported bindings into getter calls in hot loops.
const DX = DX_;
const DY = DY_;
const K = OCTILE_K;
const scanForward = scanForward_;
const scanBackward = scanBackward_;

/**
 * Jump point search (Harabor & Grastien 2011) with block-based row scans (ICAPS 2014) for layers
 * without one-way flags; on layers whose cells cost different amounts it stops at and fully
 * expands cost boundaries (see weighted.ts), which keeps it exact. Two models:
 * - octile without corner cutting (the successor and forced-neighbour rules of that variant: a
 *   straight jump stops where a side cell opens up behind a wall; a diagonal step stops where
 *   either straight scan from it finds a jump point);
 * - cardinal (a vertical step stops where a horizontal scan from it finds a jump point).
 * Exact: the same cost as A*. The walkability bit planes follow the grid through `onChange`.
 *
 * Memory per cell, per layer searched: 0.75 bytes on a layer whose costs are all the same (the
 * walkability planes, 0.25, and the uniform scans' stop planes, 0.5; see bits.ts), 0.5 on a layer
 * with differing costs (walkability and cost boundary planes); plus 0.5 bytes per cell for the
 * node states (see {@link NodeStates}) and the uniform loops' open list (queue.ts), on top of the
 * search scratch it is given (shared with the Pathfinder that owns it, and the hierarchy).
 * Not part of the public API: used through `findPath(..., { algorithm: 'jps' })` and the hierarchy.
 */
export class JumpPointSearch {
  private readonly grid: NavGrid;
  private readonly scratch: SearchScratch;
  private readonly planes: (WalkBits | null)[];
  private readonly tables: (JumpTable | null)[];
  /** The view each table was built on (the layer's search view, which changes in place). */
  private readonly tableViews: (SearchView | null)[];
  private readonly bounds: (CostBoundaries | null)[];
  private unsubscribe: (() => void) | null = null;
  /** The state of the searches run in one call (on the scratch given at construction). */
  private readonly own: JumpRun;

  /** The work (see {@link search}) of the last search run in one call. @internal */
  get lastWork(): number {
    return this.own.counts.work;
  }

  /** Appends what it holds per layer (bit planes, JPS+ tables) and its own state, to `grid.memory()`'s form. */
  memory(out: { name: string; layer: number | null; bytes: number }[]): void {
    this.planes.forEach((p, layer) => {
      if (p !== null) out.push({ name: 'JPS bit planes', layer, bytes: p.bytes });
    });
    this.tables.forEach((t, layer) => {
      if (t !== null) out.push({ name: 'JPS+ table', layer, bytes: t.bytes });
    });
    out.push({ name: 'JPS node states', layer: null, bytes: this.own.bytes });
  }

  constructor(grid: NavGrid, scratch: SearchScratch) {
    this.grid = grid;
    this.scratch = scratch;
    this.own = new JumpRun(scratch);
    this.planes = grid.layers.map(() => null);
    this.tables = grid.layers.map(() => null);
    this.tableViews = grid.layers.map(() => null);
    this.bounds = grid.layers.map(() => null);
  }

  /**
   * JPS+'s jump table of `layer` (octile): built on first use, then updated in place by each change
   * to the layer (the rows and columns through the changed rectangle, and the diagonal entries
   * that depend on them). A change covering more than an eighth of the grid drops it instead, for
   * the next `jps+` query to rebuild.
   */
  table(view: SearchView, layer: number): JumpTable {
    this.follow();
    let t = this.tables[layer];
    if (t === null) {
      t = buildJumpTable(view);
      this.tables[layer] = t;
      this.tableViews[layer] = view;
    }
    return t;
  }

  private follow(): void {
    if (this.unsubscribe !== null) return;
    this.unsubscribe = this.grid.onChange((c) => {
      this.planes[c.layer]?.update(c.x, c.y, c.width, c.height);
      this.bounds[c.layer]?.update(c.x, c.y, c.width, c.height);
      const t = this.tables[c.layer];
      const view = this.tableViews[c.layer];
      if (t === null || view === null) return;
      if (c.width * c.height * 8 > this.grid.size) {
        this.tables[c.layer] = null;
        this.tableViews[c.layer] = null;
      } else updateJumpTable(t, view, c.x, c.y, c.width, c.height);
    });
  }

  /**
   * The bit planes of `layer` (and its cost boundaries when its costs differ), built on first use
   * and kept in step with the grid after that.
   */
  bits(layer: number): WalkBits {
    let w = this.planes[layer];
    if (w === null) {
      w = new WalkBits(this.grid, layer);
      this.planes[layer] = w;
      this.follow();
    }
    // Uniform layers scan the stop planes; others stop at cost boundaries too (see `search`).
    if (this.grid.searchView(layer).uniform) w.stops();
    else this.boundaries(layer);
    return w;
  }

  /** The cost boundaries of `layer`, built on first use and kept in step with the grid after that. */
  boundaries(layer: number): CostBoundaries {
    let b = this.bounds[layer];
    if (b === null) {
      b = new CostBoundaries(this.grid.searchView(layer), this.grid.width, this.grid.height);
      this.bounds[layer] = b;
      this.follow();
    }
    return b;
  }


  /** Stops following the grid and drops the bit planes (rebuilt on the next search). */
  dispose(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.planes.fill(null);
    this.tables.fill(null);
    this.tableViews.fill(null);
    this.bounds.fill(null);
  }

  /**
   * Searches from padded cell `start` to padded cell `goal` (start != goal, both walkable on
   * `view`, whose pass array must match `layer`'s walkability and costs) on the scratch given at
   * construction. Fills and returns `out`: `reached` when the goal was settled (its cost is then
   * `scratch.g[goal]`, its path {@link reconstruct}'s), `expanded` the jump points expanded,
   * `limited` when `maxIterations` stopped it first. `maxIterations` bounds the work: one per
   * expanded node plus one per cell a jump steps over (every scan, a diagonal or vertical run's
   * own steps; JPS+ one per diagonal hop, reading one table entry whatever its length), checked
   * within every run, so the cells a search looks at stay within a constant times `maxIterations`
   * (see uniform.ts). `plus` reads JPS+'s jump table (octile only;
   * ignored with `cardinal`; uniform layers only), built on first use. Uniform octile layers run
   * the loop of uniform.ts (JPS and JPS+); on a view whose costs differ the cost boundaries stop
   * every jump (weighted.ts), and `landmarks` (when given) tighten the distance heuristic.
   *
   * `run`: the search's own state (scratch, open list, node states), for a search run in slices
   * ({@link JumpRun}: `run.counts` says where a slice stops, and whether it paused, `out.limited`
   * then); by default this search's, on the scratch given at construction, in one call. A
   * resumed slice ignores `start` and `landmarks` (it keeps the first slice's).
   */
  search(view: SearchView, layer: number, start: number, goal: number, cardinal: boolean, maxIterations: number, plus: boolean, out: SearchOutcome, landmarks: LandmarkBounds | null = null, run: JumpRun = this.own): SearchOutcome {
    if (run === this.own) {
      const c = run.counts;
      c.fresh = true;
      c.stopAt = Infinity;
    }
    if (!cardinal && view.uniform) {
      const found = run.successors(view);
      if (plus) return searchPlus(this.table(view, layer).jumps, view.stride, view.minCost, run.scratch, start, goal, maxIterations, found, run.queue, run, out, run.counts);
      return searchScan(this.bits(layer), view.stride, view.minCost, run.scratch, start, goal, maxIterations, found, run.queue, run, out, run.counts);
    }
    return this.weighted(view, layer, start, goal, cardinal, maxIterations, out, landmarks, run);
  }

  /** {@link search} on layers whose costs differ, and cardinal: weighted.ts's boundaries, the rules here. */
  private weighted(view: SearchView, layer: number, start: number, goal: number, cardinal: boolean, maxIterations: number, out: SearchOutcome, landmarks: LandmarkBounds | null, run: JumpRun): SearchOutcome {
    const counts = run.counts;
    const wb = this.bits(layer);
    const rows = wb.rows;
    const cols = wb.cols;
    const rw = wb.rowWords;
    const cw = wb.colWords;
    const pass = view.pass;
    const W = view.stride;
    // Weighted layers: the boundary planes, and each jump's cost per unit of length (its first cell's).
    const bnd = view.uniform ? null : this.boundaries(layer);
    const br = bnd === null ? null : bnd.rows;
    const bc = bnd === null ? null : bnd.cols;
    const hCost = view.minCost;
    // One node's successors, as (x, y, direction of the jump's first step) triples.
    const found = run.weightedSuccessors(view);
    const scratch = run.scratch;
    const { g, parent, stamp, heap } = scratch;
    const marks = run.marks;
    const touched = run.touched;
    if (counts.fresh) {
      scratch.start(start);
      for (let i = run.touchedCount - 1; i >= 0; i--) marks[touched[i]] = 0;
      marks[start >>> 4] = 1 << ((start & 15) << 1);
      touched[0] = start >>> 4;
      run.touchedCount = 1;
      counts.expanded = 0;
      counts.work = 0;
      // The landmark bound: the largest |cost(L, goal) - cost(L, node)| (landmark-bounds.ts says
      // why it is a consistent lower bound); an infinite one means the node cannot reach the goal.
      // Kept for the whole search: more landmarks built between two slices are not read by it.
      run.landmarks = bnd === null ? null : landmarks;
      run.landmarkCount = run.landmarks === null ? 0 : run.landmarks.count;
      const lk = run.landmarkCount;
      if (run.goalCosts.length < lk) run.goalCosts = new Float64Array(lk);
      for (let k = 0; k < lk; k++) run.goalCosts[k] = run.landmarks!.dist[goal * run.landmarks!.slots + k];
    }
    const open = scratch.generation;
    const closed = open + 1;
    let touchedCount = run.touchedCount;
    const gy = (goal / W) | 0;
    const gx = goal - gy * W;
    const lm = run.landmarks;
    const lk = run.landmarkCount;
    const ls = lm === null ? 0 : lm.slots;
    const ld = lm === null ? EMPTY_F32 : lm.dist;
    const gd = run.goalCosts;
    // Half the goal's cost: the landmark bound's potential term (landmark-bounds.ts).
    const halfGoal = 0.5 * pass[goal];
    let expanded = counts.expanded;
    // Expansions plus the cells the jumps step over (see `search`'s comment); `limited` once it
    // passes maxIterations.
    let work = counts.work;
    let limited = false;
    let paused = false;
    const stopAt = counts.stopAt;
    // The best new successor of the last node expanded, held back from the open list: when it
    // comes first it is expanded next without a push and a pop (NodeHeap.pushPop). -1: none.
    let held = -1;
    let heldF = 0;
    let heldG = 0;
    search: while (heap.size > 0 || held >= 0) {
      // A slice ends before it takes the next node off the open list: the next one resumes there.
      if (expanded >= stopAt) {
        paused = true;
        break;
      }
      // The heap keeps each node's cost beside its key: read it there, not from the large g array.
      let cur: number;
      let curG: number;
      if (held >= 0) {
        const firstG = heap.size > 0 ? heap.firstG() : 0;
        cur = heap.pushPop(held, heldF, heldG);
        curG = cur === held ? heldG : firstG;
        held = -1;
      } else {
        curG = heap.firstG();
        cur = heap.pop();
      }
      stamp[cur] = closed;
      marks[cur >>> 4] ^= 3 << ((cur & 15) << 1);
      if (cur === goal) break;
      if (work >= maxIterations) {
        limited = true;
        break;
      }
      expanded++;
      work++;
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
        const px = par - py * W;
        const ax = Math.abs(cx - px);
        const ay = Math.abs(cy - py);
        // The last step into cur: straight when the run ended straight (see addJump).
        const dx = cardinal ? (ax !== 0 ? Math.sign(cx - px) : 0) : ax >= ay ? Math.sign(cx - px) : 0;
        const dy = cardinal ? (ax !== 0 ? 0 : Math.sign(cy - py)) : ay >= ax ? Math.sign(cy - py) : 0;
        if (br !== null && br[cy * rw + (cx >>> 5) + 1] << (cx & 31) < 0) {
          // A cost boundary: JPS's pruning with each comparison made on the actual costs (see
          // weighted.ts); cardinal keeps every direction but those a path from behind reaches
          // strictly more cheaply.
          dirs = cardinal ? straight & ~behind(dx, dy) & ~cardinalSides(pass, cur, W, dx, dy) : weightedOctile(pass, cur, W, dx, dy);
        } else if (dx !== 0 && dy !== 0) {
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
      let nf = 0;
      jumps: for (let k = 0; dirs !== 0; k++, dirs >>>= 1) {
        if ((dirs & 1) === 0) continue;
        if (k === 1) {
          const p = scanForward(rows, rw, cy, cx, cy === gy ? gx : -1, br);
          if (p >= 0) nf = addJump(found, nf, p, cy, k);
          work += (p ^ (p >> 31)) - cx;
        } else if (k === 3) {
          const p = scanBackward(rows, rw, cy, cx, cy === gy ? gx : -1, br);
          if (p >= 0) nf = addJump(found, nf, p, cy, k);
          work += cx - (p ^ (p >> 31));
        } else if (k === 0 || k === 2) {
          const dy = k === 2 ? 1 : -1;
          if (cardinal) {
            // Vertical run: every row's horizontal jump points are successors; a forced
            // neighbour or the goal ends the run as a successor itself.
            let p = cur;
            const d = dy * W;
            for (let y = cy + dy; pass[p + d] > 0; y += dy) {
              p += d;
              if (++work > maxIterations) {
                limited = true;
                break jumps;
              }
              if ((y === gy && cx === gx) || (br !== null && br[y * rw + (cx >>> 5) + 1] << (cx & 31) < 0)) {
                nf = addJump(found, nf, cx, y, k);
                break;
              }
              if ((pass[p - 1] > 0 && pass[p - 1 - d] <= 0) || (pass[p + 1] > 0 && pass[p + 1 - d] <= 0)) {
                nf = addJump(found, nf, cx, y, k);
                break;
              }
              const goalX = y === gy ? gx : -1;
              const east = scanForward(rows, rw, y, cx, goalX, br);
              if (east >= 0) nf = addJump(found, nf, east, y, k);
              const west = scanBackward(rows, rw, y, cx, goalX, br);
              if (west >= 0) nf = addJump(found, nf, west, y, k);
              work += (east ^ (east >> 31)) - (west ^ (west >> 31));
            }
          } else {
            const p = dy > 0 ? scanForward(cols, cw, cx, cy, cx === gx ? gy : -1, bc) : scanBackward(cols, cw, cx, cy, cx === gx ? gy : -1, bc);
            if (p >= 0) nf = addJump(found, nf, cx, p, k);
            work += dy * ((p ^ (p >> 31)) - cy);
          }
        } else {
          // Diagonal run: each cell's straight jump points (and the goal) are successors.
          const dx = DX[k];
          const dy = DY[k];
          // Cells are tested on the walkability plane, which stays in cache where the cost array
          // would not (a diagonal step reaches a new cache line of it on every row).
          let x = cx;
          let y = cy;
          let h = openAt(rows, rw, x + dx, y);
          let v = openAt(rows, rw, x, y + dy);
          while (h && v && openAt(rows, rw, x + dx, y + dy)) {
            x += dx;
            y += dy;
            if (++work > maxIterations) {
              limited = true;
              break jumps;
            }
            if ((x === gx && y === gy) || (br !== null && br[y * rw + (x >>> 5) + 1] << (x & 31) < 0)) {
              nf = addJump(found, nf, x, y, k);
              break;
            }
            h = openAt(rows, rw, x + dx, y);
            v = openAt(rows, rw, x, y + dy);
            // A blocked first cell ends a scan at once: skip the call (common in cluttered maps).
            if (h) {
              const p = dx > 0 ? scanForward(rows, rw, y, x, y === gy ? gx : -1, br) : scanBackward(rows, rw, y, x, y === gy ? gx : -1, br);
              if (p >= 0) nf = addJump(found, nf, p, y, k);
              work += dx * ((p ^ (p >> 31)) - x);
            }
            if (v) {
              const p = dy > 0 ? scanForward(cols, cw, x, y, x === gx ? gy : -1, bc) : scanBackward(cols, cw, x, y, x === gx ? gy : -1, bc);
              if (p >= 0) nf = addJump(found, nf, x, p, k);
              work += dy * ((p ^ (p >> 31)) - y);
            }
          }
        }
        if (work > maxIterations) {
          limited = true;
          break;
        }
      }
      // Relax the successors, in the order found. The path from cur to each is diagonal steps
      // first, then straight ones (octile), or vertical first, then horizontal (cardinal), so its
      // parent is cur, with no intermediate cell on the open list (ICAPS 2014's pruned
      // intermediates); it costs its length times the cost of its first cell (weighted.ts).
      for (let i = 0; i < nf; i += 3) {
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
        const k = found[i + 2];
        const unit = br === null ? hCost : pass[cur + DY[k] * W + DX[k]];
        const ng = curG + (cardinal ? ax + ay : ax > ay ? ax + K * ay : ay + K * ax) * unit;
        if (st === 1 && ng >= g[jp]) continue;
        const hx = jx > gx ? jx - gx : gx - jx;
        const hy = jy > gy ? jy - gy : gy - jy;
        let h = (cardinal ? hx + hy : hx > hy ? hx + K * hy : hy + K * hx) * hCost;
        if (lk !== 0 && st === 1) {
          // Queued already (or held): its bound is the one it was queued with.
          h = jp === held ? heldF - heldG : heap.keyOf(jp) - g[jp];
        } else if (lk !== 0) {
          // The landmark bound: see where goalCosts are read.
          let m = 0;
          for (let l = 0, b = jp * ls; l < lk; l++) {
            const a = gd[l] - ld[b + l];
            if (a > m) m = a;
            else if (-a > m) m = -a;
          }
          if (m === Infinity) continue;
          m += halfGoal - 0.5 * pass[jp];
          if (m > h) h = m;
        }
        g[jp] = ng;
        parent[jp] = cur;
        if (st === 1) {
          if (jp === held) {
            heldF = ng + h;
            heldG = ng;
          } else heap.decrease(jp, ng + h, ng);
        } else {
          if (word === 0) touched[touchedCount++] = wi;
          marks[wi] = word | (1 << sh);
          stamp[jp] = open;
          const f = ng + h;
          if (held < 0) {
            held = jp;
            heldF = f;
            heldG = ng;
          } else if (f < heldF || (f === heldF && ng > heldG)) {
            heap.push(held, heldF, heldG);
            held = jp;
            heldF = f;
            heldG = ng;
          } else {
            heap.push(jp, f, ng);
          }
        }
      }
      if (limited) break;
    }
    // A slice that resumes, and expandedInto, find it on the open list.
    if (held >= 0) heap.push(held, heldF, heldG);
    run.touchedCount = touchedCount;
    counts.expanded = expanded;
    counts.work = work;
    counts.paused = paused;
    return limited || paused ? report(out, false, expanded, true) : report(out, stamp[goal] === closed, expanded, false);
  }

  /**
   * The full cell path (unpadded indices) from the start to padded cell `goal`, filling in each run
   * between successive nodes: diagonal first, then straight (octile), or vertical first, then
   * horizontal (cardinal), the order `search` found them in. Fills `out` when it is long enough.
   */
  reconstruct(goal: number, cardinal: boolean, out?: Int32Array, scratch: SearchScratch = this.scratch): Int32Array {
    const parent = scratch.parent;
    const width = this.grid.width;
    const stride = strideOf(width);
    let len = 1;
    for (let p = goal; parent[p] !== -1; p = parent[p]) len += runLength(p, parent[p], stride, cardinal);
    const cells = out !== undefined && out.length >= len ? out.subarray(0, len) : new Int32Array(len);
    let k = len;
    for (let p = goal; ; ) {
      const q = parent[p];
      const y = paddedY(stride, p);
      const x = p - (y + 1) * stride - 1;
      let cell = y * width + x;
      if (q === -1) {
        cells[--k] = cell;
        break;
      }
      const qy = paddedY(stride, q);
      const qx = q - (qy + 1) * stride - 1;
      // Walking back from p, q excluded: the straight part first, then the diagonal one
      // (cardinal: the horizontal part, then the vertical one), one index step per cell.
      const ax = qx > x ? qx - x : x - qx;
      const ay = qy > y ? qy - y : y - qy;
      const sx = qx > x ? 1 : qx < x ? -1 : 0;
      const sy = qy > y ? width : qy < y ? -width : 0;
      if (cardinal) {
        for (let i = 0; i < ax; i++, cell += sx) cells[--k] = cell;
        for (let i = 0; i < ay; i++, cell += sy) cells[--k] = cell;
      } else {
        const diagonal = ax < ay ? ax : ay;
        const straight = ax > ay ? sx : sy;
        for (let i = ax + ay - 2 * diagonal; i > 0; i--, cell += straight) cells[--k] = cell;
        for (let i = 0; i < diagonal; i++, cell += sx + sy) cells[--k] = cell;
      }
      p = q;
    }
    return cells;
  }
}

/** Whether padded cell (x, y) is walkable, read off the row bit plane `rows` (`rw` words a row). */
function openAt(rows: Int32Array, rw: number, x: number, y: number): boolean {
  return rows[y * rw + (x >>> 5) + 1] << (x & 31) < 0;
}

/** Appends jump point (x, y), found by a jump whose first step is in direction `k`, to `found` at `n`; returns the new length. */
function addJump(found: Int32Array, n: number, x: number, y: number, k: number): number {
  found[n] = x;
  found[n + 1] = y;
  found[n + 2] = k;
  return n + 3;
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

/** After a step (dx, dy): the directions to the cell it came from and to that cell's straight neighbours. */
function behind(dx: number, dy: number): number {
  if (dy === 0) return dirBit(-dx, 0) | dirBit(-dx, -1) | dirBit(-dx, 1);
  if (dx === 0) return dirBit(0, -dy) | dirBit(-1, -dy) | dirBit(1, -dy);
  return dirBit(-dx, -dy) | dirBit(-dx, 0) | dirBit(0, -dy);
}

function diagonalBit(dx: number, dy: number): number {
  return dx > 0 ? (dy < 0 ? 16 : 32) : dy > 0 ? 64 : 128;
}

/**
 * What one jump point search owns while it runs: the scratch and open list it searches on, the
 * node states and successor buffer, and where a search run in slices stopped (`counts`). A
 * JumpPointSearch has one for its searches run in one call; a search spread over frames brings
 * its own, so several can run at once on one JumpPointSearch's bit planes and tables.
 */
export class JumpRun {
  readonly scratch: SearchScratch;
  /** The uniform loops' open list: 21 bytes per queued entry, kept between queries. */
  readonly queue = new JumpQueue();
  /** Each node's state in the current search (see {@link NodeStates}): 0.5 bytes per node with `touched`. */
  readonly marks: Uint32Array;
  /** The indices of the words of `marks` that are not zero; `touchedCount` of them. */
  readonly touched: Int32Array;
  touchedCount = 0;
  /** The landmark tables the current search reads, how many of them, and the goal's costs in them. */
  landmarks: LandmarkBounds | null = null;
  landmarkCount = 0;
  goalCosts = new Float64Array(0);
  /** Where a search run in slices is (see {@link JumpCounts}). */
  readonly counts: JumpCounts = oneCall();
  /** The uniform loops' successor buffer: 4 x (16 x the longer side + 48) bytes; the weighted loop's, 1.5 times that. */
  private found = new Int32Array(0);
  private jumps = new Int32Array(0);

  constructor(scratch: SearchScratch) {
    this.scratch = scratch;
    this.marks = new Uint32Array((scratch.size + 15) >>> 4);
    this.touched = new Int32Array(this.marks.length);
  }

  /** Bytes of its own (not the scratch's): node states, successor buffer, open list. */
  get bytes(): number {
    return this.marks.byteLength + this.touched.byteLength + this.found.byteLength + this.jumps.byteLength;
  }

  /** The uniform search's successor buffer, sized for `view`. */
  successors(view: SearchView): Int32Array {
    const need = successorCapacity(view.stride, view.pass.length / view.stride);
    if (this.found.length < need) this.found = new Int32Array(need);
    return this.found;
  }

  /** The weighted and cardinal loop's successor buffer, sized for `view`: (x, y, direction) per successor. */
  weightedSuccessors(view: SearchView): Int32Array {
    const need = 3 * (successorCapacity(view.stride, view.pass.length / view.stride) >>> 1) + 3;
    if (this.jumps.length < need) this.jumps = new Int32Array(need);
    return this.jumps;
  }
}
