/**
 * A* on a padded grid view, over the search kernel's scratch: a fast loop for the default octile
 * model and a generic loop for every movement model, one-way flags, a cost cap, several sources
 * (Dijkstra) and nearest-reachable tracking.
 */
import type { SearchView } from '../../../grid/navgrid.js';
import { report, type SearchOutcome, type SearchScratch } from '../../kernel/scratch.js';
import { axialDistance, type MovementModel, type MovementName } from '../../movement.js';
import type { GoalSet } from './goals.js';
import { DX as DX_, DY as DY_, OCTILE_K, SQRT2 as SQRT2_, exitMask, octileDeltas, paddedX, paddedY, strideOf } from '../../../grid/padded.js';

/** Path costs closer than this count as equal when breaking a nearest-cell tie. */
const TIE_EPS = 1e-9;

// Module-local copies: some loaders (tsx) turn imported bindings into getter calls in hot loops.
const DX = DX_;
const DY = DY_;
const K = OCTILE_K;
const SQRT2 = SQRT2_;

/** Per-model step tables in padded index deltas, one set per row/column parity. @internal */
export interface StepTable {
  count: number;
  delta: Int32Array[];
  length: Float64Array[];
  sideA: Int32Array[];
  sideB: Int32Array[];
  diagonal: Uint8Array[];
  exitMask: Uint8Array[];
}

/**
 * The two A* loops of one grid size. Node ids are padded cell indices (see padded.ts); the views
 * searched must have this grid's stride. Holds no per-query state but {@link best},
 * {@link reachedGoal} and what a paused search resumes from: the costs, parents and stamps are the
 * scratch's, whose generation each search advances (so the caller reads the result from it:
 * `g[goal]`, the parent chain, the stamps for debug views).
 *
 * Both loops can run a search in slices ({@link octileSteps}, {@link genericSteps}): a slice
 * stops after a given number of expansions in all, and the next one resumes with the node it had
 * taken off the open list, so slices expand the nodes one call would, in the same order.
 */
export class GridAStar {
  readonly scratch: SearchScratch;
  private readonly stride: number;
  /** Padded index deltas N E S W NE SE SW NW. */
  private readonly delta: Int32Array;
  private readonly tables = new Map<MovementName, StepTable>();
  /** The closed cell nearest the goal in the last {@link generic} search run with `track` (padded index). */
  best = -1;
  /** The goal the last {@link generic} search settled (padded index; one of `mode.goals` with several), -1 when none. */
  reachedGoal = -1;
  /** The squared distance from {@link best} to the goal, for a search resumed with `nearest`. */
  private bestD = Infinity;
  /**
   * The node a search stopped by its expansion limit had taken off the open list (and settled)
   * but not expanded, -1 when none: the next slice of that search starts by expanding it.
   */
  private pending = -1;

  /** @param width the grid's width in cells (the scratch must hold its padded size). */
  constructor(scratch: SearchScratch, width: number) {
    this.scratch = scratch;
    this.stride = strideOf(width);
    this.delta = octileDeltas(this.stride);
  }

  /**
   * Octile without corner cutting and without one-way flags, the default model and the benchmark's.
   * The four cardinal neighbours' passability makes a bit mask of the allowed moves (a diagonal
   * needs both its side cells), and one loop relaxes them: no call or allocation per node. The
   * best successor an expansion opens is queued and the next node popped in one sift, or not
   * queued at all when it comes first: the nodes come out in the heap's order all the same.
   * `hs` is the heuristic scale (the view's smallest cost times the weight). Fills `out`.
   */
  octile(view: SearchView, start: number, goal: number, hs: number, maxIterations: number, out: SearchOutcome): SearchOutcome {
    return this.octileSteps(view, start, goal, hs, true, 0, maxIterations, out);
  }

  /**
   * {@link octile} in slices: with `fresh` it starts a new search from `start`, otherwise it
   * resumes the scratch's search where the last slice stopped (`start` ignored; `expanded` the
   * expansions so far). It stops, `out.limited`, once `expanded` reaches `stopAt`: the caller tells
   * a paused search from one at its limit.
   */
  octileSteps(view: SearchView, start: number, goal: number, hs: number, fresh: boolean, expanded: number, stopAt: number, out: SearchOutcome): SearchOutcome {
    const W = this.stride;
    const pass = view.pass;
    const scratch = this.scratch;
    const { g, parent, stamp, heap } = scratch;
    if (fresh) {
      scratch.start(start);
      this.pending = -1;
    }
    const open = scratch.generation;
    const closed = open + 1;
    const gy = (goal / W) | 0;
    const gx = goal - gy * W;
    const delta = this.delta;
    // The best successor opened by the last expansion (-1: none) goes through one pushPop, which
    // hands it straight back when it comes before every queued node: in corridors most steps do.
    let next = -1;
    let nextF = 0;
    let nextG = 0;
    // Resumed, the node the last slice stopped at goes through the three lines below again,
    // changing nothing (it is settled, not the goal, and the new slice's limit is higher).
    let cur = this.pending >= 0 ? this.pending : heap.pop();
    this.pending = -1;
    for (;;) {
      stamp[cur] = closed;
      if (cur === goal) break;
      if (expanded >= stopAt) {
        this.pending = cur;
        return report(out, false, expanded, true);
      }
      expanded++;
      const gc = g[cur];
      const cy = (cur / W) | 0;
      const cdx = cur - cy * W - gx;
      const cdy = cy - gy;
      // Bits 0-3: N E S W walkable; bits 4-7: NE SE SW NW allowed (both sides walkable).
      let moves = (pass[cur - W] > 0 ? 1 : 0) | (pass[cur + 1] > 0 ? 2 : 0) | (pass[cur + W] > 0 ? 4 : 0) | (pass[cur - 1] > 0 ? 8 : 0);
      moves |= ((moves & 3) === 3 ? 16 : 0) | ((moves & 6) === 6 ? 32 : 0) | ((moves & 12) === 12 ? 64 : 0) | ((moves & 9) === 9 ? 128 : 0);
      // Set bits only, lowest first.
      for (; moves !== 0; moves &= moves - 1) {
        const k = 31 - Math.clz32(moves & -moves);
        const n = cur + delta[k];
        const c = pass[n];
        if (c <= 0) continue;
        const s = stamp[n];
        if (s === closed) continue;
        const ng = k < 4 ? gc + c : gc + SQRT2 * c;
        if (s !== open) {
          g[n] = ng;
          parent[n] = cur;
          stamp[n] = open;
          const dx = Math.abs(cdx + DX[k]);
          const dy = Math.abs(cdy + DY[k]);
          const f = ng + (dx > dy ? dx + K * dy : dy + K * dx) * hs;
          if (next < 0) {
            next = n;
            nextF = f;
            nextG = ng;
          } else if (f < nextF || (f === nextF && (ng > nextG || (ng === nextG && n < next)))) {
            heap.push(next, nextF, nextG);
            next = n;
            nextF = f;
            nextG = ng;
          } else heap.push(n, f, ng);
        } else if (ng < g[n]) {
          g[n] = ng;
          parent[n] = cur;
          const dx = Math.abs(cdx + DX[k]);
          const dy = Math.abs(cdy + DY[k]);
          heap.decrease(n, ng + (dx > dy ? dx + K * dy : dy + K * dx) * hs, ng);
        }
      }
      if (next >= 0) {
        cur = heap.pushPop(next, nextF, nextG);
        next = -1;
      } else if (heap.size > 0) cur = heap.pop();
      else break;
    }
    return report(out, stamp[goal] === closed, expanded, false);
  }

  /**
   * Any model, one-way flags, optional goal (-1: none, a Dijkstra), cost cap (`mode`): nodes dearer than
   * `maxCost` are left unsettled and end the search. With `mode.goals` it ends at the first of
   * them it settles ({@link reachedGoal}), estimating with their nearest (see goals.ts); with
   * `mode.settle` it reports each node it settles, which may end there (a movement range's
   * stops). With `seeded` the caller has already begun the scratch's search and queued the
   * sources (`start` is then ignored). With `nearest` it keeps
   * {@link best}, the closed cell nearest the goal (Euclidean; ties to the cheaper path, the start
   * first, then to the lower index; costs within 1e-9 count as equal). Fills `out`.
   */
  generic(view: SearchView, model: MovementModel, start: number, goal: number, hs: number, maxIterations: number, out: SearchOutcome, mode: GenericMode = PLAIN): SearchOutcome {
    return this.genericSteps(view, model, start, goal, hs, true, 0, maxIterations, out, mode);
  }

  /** {@link generic} in slices, as {@link octileSteps} is {@link octile}'s (a fresh `seeded` search starts from the queued sources). */
  genericSteps(view: SearchView, model: MovementModel, start: number, goal: number, hs: number, fresh: boolean, expanded: number, stopAt: number, out: SearchOutcome, mode: GenericMode = PLAIN): SearchOutcome {
    const { maxCost, seeded, nearest: track } = mode;
    const goals = mode.goals ?? null;
    const settle = mode.settle ?? null;
    const W = this.stride;
    const pass = view.pass;
    const exits = view.exits;
    const scratch = this.scratch;
    const { g, parent, stamp, heap } = scratch;
    const t = this.table(model);
    const gy = goal >= 0 ? paddedY(W, goal) : 0;
    const gx = goal >= 0 ? paddedX(W, goal) : 0;
    const kind = model.heuristic;
    const axis = model.parityAxis;
    const corner = model.corner;
    const hexLayout = model.hexLayout;
    const a = { x: 0, y: 0 };
    const b = hexLayout !== 'axial' ? offsetAxial(hexLayout, gx, gy, { x: 0, y: 0 }) : { x: gx, y: gy };
    const h = (n: number): number => {
      if (hs === 0) return 0;
      const y = ((n / W) | 0) - 1;
      const x = n - (y + 1) * W - 1;
      if (goals !== null) return goals.estimate(x, y) * hs;
      if (kind === 'octile') {
        const dx = Math.abs(x - gx);
        const dy = Math.abs(y - gy);
        return (dx > dy ? dx + K * dy : dy + K * dx) * hs;
      }
      if (kind === 'manhattan') return (Math.abs(x - gx) + Math.abs(y - gy)) * hs;
      if (kind === 'chebyshev') return Math.max(Math.abs(x - gx), Math.abs(y - gy)) * hs;
      const p = hexLayout !== 'axial' ? offsetAxial(hexLayout, x, y, a) : ((a.x = x), (a.y = y), a);
      return axialDistance(kind, p.x - b.x, p.y - b.y) * hs;
    };
    if (fresh) {
      if (!seeded) scratch.start(start, h(start));
      this.pending = -1;
      this.best = start;
      this.bestD = Infinity;
      this.reachedGoal = -1;
    }
    const open = scratch.generation;
    const closed = open + 1;
    let best = this.best;
    let bestD = this.bestD;
    let limited = false;
    for (;;) {
      // Resumed, the node the last slice stopped at is expanded at once: it was settled (and
      // told to `settle`) then.
      let cur = this.pending;
      const resumed = cur >= 0;
      if (resumed) this.pending = -1;
      else if (heap.size > 0) cur = heap.pop();
      else break;
      const gc = g[cur];
      if (!resumed) {
        if (gc > maxCost) break;
        stamp[cur] = closed;
        if (track) {
          const y = ((cur / W) | 0) - 1;
          const dx = cur - (y + 1) * W - 1 - gx;
          const dy = y - gy;
          const d = dx * dx + dy * dy;
          // Ties: the cheaper path (so the start, at cost 0, stays put), then the lower index.
          const gb = g[best];
          if (d < bestD || (d === bestD && (gc < gb - TIE_EPS || (gc <= gb + TIE_EPS && cur < best)))) {
            bestD = d;
            best = cur;
          }
        }
        if (cur === goal || (goals !== null && goals.has(cur))) {
          this.reachedGoal = cur;
          break;
        }
        if (settle !== null && !settle(cur)) continue;
        if (expanded >= stopAt) {
          this.pending = cur;
          limited = true;
          break;
        }
      }
      expanded++;
      const parity = axis === null ? 0 : axis === 'y' ? (((cur / W) | 0) - 1) & 1 : ((cur % W) - 1) & 1;
      const delta = t.delta[parity];
      const length = t.length[parity];
      const diag = t.diagonal[parity];
      const ex = exits === null ? 0 : exits[cur];
      for (let k = 0; k < t.count; k++) {
        if (ex !== 0 && (ex & t.exitMask[parity][k]) !== 0) continue;
        const n = cur + delta[k];
        const c = pass[n];
        if (c <= 0) continue;
        if (diag[k] === 1) {
          const blocked = (pass[cur + t.sideA[parity][k]] > 0 ? 0 : 1) + (pass[cur + t.sideB[parity][k]] > 0 ? 0 : 1);
          if (blocked > corner) continue;
        }
        const ng = gc + length[k] * c;
        const s = stamp[n];
        if (s === open) {
          if (ng < g[n]) {
            g[n] = ng;
            parent[n] = cur;
            heap.decrease(n, ng + h(n), ng);
          }
        } else if (s !== closed) {
          g[n] = ng;
          parent[n] = cur;
          stamp[n] = open;
          heap.push(n, ng + h(n), ng);
        }
      }
    }
    this.best = best;
    this.bestD = bestD;
    return report(out, !limited && this.reachedGoal >= 0, expanded, limited);
  }

  /** The step table of `model` for this grid's stride (made on first use). @internal */
  table(model: MovementModel): StepTable {
    let t = this.tables.get(model.name);
    if (t !== undefined) return t;
    const W = this.stride;
    const count = model.steps[0].length;
    t = { count, delta: [], length: [], sideA: [], sideB: [], diagonal: [], exitMask: [] };
    for (const steps of model.steps) {
      t.delta.push(Int32Array.from(steps, (s) => s.dy * W + s.dx));
      t.length.push(Float64Array.from(steps, (s) => s.length));
      t.sideA.push(Int32Array.from(steps, (s) => s.dx));
      t.sideB.push(Int32Array.from(steps, (s) => s.dy * W));
      t.diagonal.push(Uint8Array.from(steps, (s) => (s.diagonal ? 1 : 0)));
      t.exitMask.push(Uint8Array.from(steps, (s) => exitMask(s.dx, s.dy)));
    }
    this.tables.set(model.name, t);
    return t;
  }
}

function offsetAxial(layout: string, x: number, y: number, out: { x: number; y: number }): { x: number; y: number } {
  switch (layout) {
    case 'odd-r':
      out.x = x - (y - (y & 1)) / 2;
      out.y = y;
      break;
    case 'even-r':
      out.x = x - (y + (y & 1)) / 2;
      out.y = y;
      break;
    case 'odd-q':
      out.x = x;
      out.y = y - (x - (x & 1)) / 2;
      break;
    default:
      out.x = x;
      out.y = y - (x + (x & 1)) / 2;
  }
  return out;
}

/** How {@link GridAStar.generic} runs beyond a plain A*: a cost cap, pre-queued sources, nearest tracking. */
export interface GenericMode {
  /** Nodes dearer than this are left unsettled and end the search. */
  readonly maxCost: number;
  /** The caller began the scratch's search and queued the sources; `start` is ignored. */
  readonly seeded: boolean;
  /** Keep {@link GridAStar.best}, the closed cell nearest the goal. */
  readonly nearest: boolean;
  /** Goals besides `goal` (prepared): the search ends at the first it settles. */
  readonly goals?: GoalSet | null;
  /** Told each node the search settles (goals aside); false leaves that node unexpanded. */
  readonly settle?: ((node: number) => boolean) | null;
}

/** A plain A* to the goal. */
export const PLAIN: GenericMode = Object.freeze({ maxCost: Infinity, seeded: false, nearest: false });
/** A* that also tracks the closed cell nearest the goal. */
export const NEAREST: GenericMode = Object.freeze({ maxCost: Infinity, seeded: false, nearest: true });
