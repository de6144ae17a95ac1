/**
 * A* across links (stairs, ladders, teleporters: `grid.addLink`). Nodes are (layer, cell) pairs:
 * node id `slot * P + p`, where p is a padded cell index, P the padded grid's size and `slot` the
 * layer's place among the layers the search may reach (one slot, node id = p, when every link it
 * may take stays on the start's layer). Steps are the generic loop's; a cell where links start (one
 * bit per padded cell) adds an edge per link to its far end, at the link's cost.
 *
 * The heuristic ({@link LinkBounds}) keeps the search exact whatever the links cost. Proof, in
 * cost units: let D(a, b) be the movement model's step distance between the cells' positions
 * (layers ignored: every layer lies over the same cells) times m, the smallest walkable cost of
 * the layers searched. Every step costs at least the D between its cells, and D obeys the
 * triangle inequality. Call a link edge a -> b of cost c a *shortcut* when c < D(a, b) (a
 * teleporter; stairs between two layers at one cell have D = 0 and never are). With S the
 * shortcut edges and t the goal, the search uses
 *
 *     h(n) = min( D(n, t), min over k in S of D(n, a_k) + H_k )
 *
 * where H_k is the cost from a_k to t in the small graph whose nodes are the shortcut starts and
 * t, with edges a_j -> t of D(a_j, t), a_j -> a_k of D(a_j, a_k), and a_j -> a_k of c_j +
 * D(b_j, a_k), a_j -> t of c_j + D(b_j, t) (take shortcut j, then walk): computed per query by a
 * Dijkstra over |S| nodes. h is consistent: for a step n -> n' of cost w >= D(n, n'), each term
 * of h(n') plus w is at least the matching term of h(n) (triangle inequality), so h(n) <= w +
 * h(n'); for a link edge a -> b of cost c that is not a shortcut, the same holds with c >= D(a, b);
 * for a shortcut k, h(a_k) <= H_k (its own term, D(a_k, a_k) = 0) and H_k <= c_k + h(b_k), because
 * each term of h(b_k) plus c_k is the length of an edge path from a_k to t in the small graph. With
 * h(t) = 0, consistency makes h admissible and A* settles every node at its least cost. Without
 * shortcuts h is the plain distance heuristic, at no extra cost. Past {@link MAX_SHORTCUTS} shortcuts
 * each node would pay too many terms; then h(n) = min(D(n, t), R) with R the least c_k + D(b_k,
 * t) over S (every path that takes a shortcut pays at least R after reaching it): consistent by the
 * same argument, since R is constant over the nodes and R <= c_k + h(b_k) for each shortcut k (both
 * terms of h(b_k) give a bound no smaller than R: c_k + D(b_k, t) >= R, c_k + R >= R). A weight w
 * multiplies h (weighted A*, bounded by w times the optimum, as elsewhere).
 *
 * Several goals T (findPath's `goals`, on any layers): the same h with D(n, t) replaced by D(n, T),
 * the goals' estimate of goals.ts times m (the step distance to the nearest goal, or to their
 * bounding box), and the edges a_j -> t of the small graph by a_j -> T. D(n, T) is a lower bound
 * of the steps from n to any goal and obeys D(n, T) <= D(n, n') + D(n', T) (a distance to a set,
 * under a distance that obeys the triangle inequality), which is all the argument above uses; so
 * the first goal A* settles is a nearest one, at its least cost.
 */
import type { SearchView } from '../../../grid/navgrid.js';
import type { LinkIndex } from '../../../grid/links.js';
import { report, type SearchOutcome, type SearchScratch } from '../../kernel/scratch.js';
import { stepDistance, type MovementModel } from '../../movement.js';
import type { StepTable } from './astar.js';
import type { GoalSet } from './goals.js';

/** Shortcuts past this count make the heuristic the cheap bound R (see the file's comment). */
export const MAX_SHORTCUTS = 16;

/** Path costs closer than this count as equal when breaking a nearest-cell tie (as the generic loop). */
const TIE_EPS = 1e-9;

/** The heuristic of a search across links (see the file's comment): prepared once per query. @internal */
export class LinkBounds {
  private model: MovementModel | null = null;
  private m = 1;
  private w = 1;
  private gx = 0;
  private gy = 0;
  /** Several goals: D to the nearest (see the file's comment); null for the one goal (gx, gy). */
  private targets: GoalSet | null = null;
  /** Shortcuts kept for the precise bound; -1 when there were too many and {@link rest} stands for them. */
  private count = 0;
  private rest = Infinity;
  private readonly ax = new Int32Array(MAX_SHORTCUTS);
  private readonly ay = new Int32Array(MAX_SHORTCUTS);
  private readonly bx = new Int32Array(MAX_SHORTCUTS);
  private readonly by = new Int32Array(MAX_SHORTCUTS);
  private readonly c = new Float64Array(MAX_SHORTCUTS);
  private readonly H = new Float64Array(MAX_SHORTCUTS);
  private readonly done = new Uint8Array(MAX_SHORTCUTS);

  /**
   * Prepares h for a search to cell (gx, gy) with `model`, smallest cost `m` over the layers it
   * searches and heuristic weight `weight`, over the edges of `index` that start on the layers of
   * `mask` (a bit per layer; with `only` >= 0, the edges from that layer to itself alone). With
   * `targets` (prepared) the goal is the nearest of them and (gx, gy) is not read.
   */
  prepare(model: MovementModel, index: LinkIndex, mask: number, only: number, m: number, weight: number, gx: number, gy: number, stride: number, targets: GoalSet | null = null): void {
    this.model = model;
    this.targets = targets;
    this.m = m;
    this.w = weight;
    this.gx = gx;
    this.gy = gy;
    this.count = 0;
    this.rest = Infinity;
    if (weight === 0) return;
    const { fromCell, toCell, toLayer, cost, start } = index;
    let shortcuts = 0;
    for (let l = 0; l < start.length - 1; l++) {
      if (((mask >>> l) & 1) === 0 || (only >= 0 && l !== only)) continue;
      for (let e = start[l]; e < start[l + 1]; e++) {
        if (only >= 0 && toLayer[e] !== only) continue;
        const a = fromCell[e];
        const b = toCell[e];
        const ax = (a % stride) - 1;
        const ay = ((a / stride) | 0) - 1;
        const bx = (b % stride) - 1;
        const by = ((b / stride) | 0) - 1;
        const c = cost[e];
        if (!(c < this.d(ax, ay, bx, by))) continue;
        const r = c + this.toGoal(bx, by);
        if (r < this.rest) this.rest = r;
        if (shortcuts < MAX_SHORTCUTS) {
          this.ax[shortcuts] = ax;
          this.ay[shortcuts] = ay;
          this.bx[shortcuts] = bx;
          this.by[shortcuts] = by;
          this.c[shortcuts] = c;
        }
        shortcuts++;
      }
    }
    if (shortcuts > MAX_SHORTCUTS) {
      this.count = -1;
      return;
    }
    this.count = shortcuts;
    // H: a Dijkstra over the shortcut starts, dense (at most MAX_SHORTCUTS nodes).
    const { ax, ay, bx, by, H, done } = this;
    for (let k = 0; k < shortcuts; k++) {
      H[k] = Math.min(this.toGoal(ax[k], ay[k]), this.c[k] + this.toGoal(bx[k], by[k]));
      done[k] = 0;
    }
    for (let round = 0; round < shortcuts; round++) {
      let j = -1;
      for (let k = 0; k < shortcuts; k++) if (done[k] === 0 && (j < 0 || H[k] < H[j])) j = k;
      done[j] = 1;
      for (let k = 0; k < shortcuts; k++) {
        if (done[k] === 1) continue;
        const v = Math.min(this.d(ax[k], ay[k], ax[j], ay[j]), this.c[k] + this.d(bx[k], by[k], ax[j], ay[j])) + H[j];
        if (v < H[k]) H[k] = v;
      }
    }
  }

  /** D: the step distance between two cells times m. */
  private d(x1: number, y1: number, x2: number, y2: number): number {
    return stepDistance(this.model!, x1, y1, x2, y2) * this.m;
  }

  /** D from cell (x, y) to the goal, or to the nearest goal. */
  private toGoal(x: number, y: number): number {
    return this.targets === null ? this.d(x, y, this.gx, this.gy) : this.targets.estimate(x, y) * this.m;
  }

  /** h of cell (x, y), whatever its layer. */
  h(x: number, y: number): number {
    const w = this.w;
    if (w === 0) return 0;
    let best = this.toGoal(x, y);
    const count = this.count;
    if (count < 0) return (best < this.rest ? best : this.rest) * w;
    for (let k = 0; k < count; k++) {
      const v = this.d(x, y, this.ax[k], this.ay[k]) + this.H[k];
      if (v < best) best = v;
    }
    return best * w;
  }
}

/** One search across links: what {@link linkedSearch} reads besides the scratch. @internal */
export interface LinkedSearch {
  /** The padded grid's size, P. */
  size: number;
  /** The padded row length. */
  stride: number;
  /** The views searched, by slot (the query's own view, an overlay, in its layer's slot). */
  views: SearchView[];
  /** The layer of each slot. */
  layerOf: Uint8Array;
  /** The slot of each layer, -1 for layers the search does not enter. */
  slotOf: Int8Array;
  index: LinkIndex;
  bounds: LinkBounds;
  model: MovementModel;
  steps: StepTable;
  /** The smallest walkable cost over the views searched (the heuristic's scale). */
  minCost: number;
  /** The goal's slot (for nearest tracking). */
  goalSlot: number;
  /** Keep the closed node nearest the goal on the goal's layer: written to `best`. */
  nearest: boolean;
  best: number;
  /** {@link best}'s squared distance to the goal, for a search resumed with `nearest`. */
  bestD: number;
  /** Several goals (node ids, prepared): the search ends at the first it settles, in {@link reached}. */
  goals: GoalSet | null;
  /** The goal node the search settled, -1 when none. */
  reached: number;
  /** Whether the last call stopped at its slice's end (`stopAt`), to be resumed. */
  paused: boolean;
}

/**
 * A* from node `start` to node `goal` across links, on `scratch` (at least slots x P nodes), as
 * the generic loop runs it: the same steps, corner rule, one-way exits and tie order, plus the
 * link edges. With `s.nearest`, `s.best` is the closed node of the goal's layer nearest the goal
 * (Euclidean; ties to the cheaper path, then the lower node id), or the start when none is.
 * With `s.goals` it ends at the first of them it settles (`s.reached`; `goal` is then -1 and the
 * search ends at it only). Fills `out`.
 *
 * In slices: with `fresh` false it resumes the search on `scratch` (`start` ignored), `expanded`
 * the expansions so far; a call stops, `s.paused` and `out.limited`, before it would take the next
 * node off the open list once `expanded` reaches `stopAt`, so slices expand the nodes one call
 * would, in the same order.
 */
export function linkedSearch(scratch: SearchScratch, s: LinkedSearch, start: number, goal: number, maxIterations: number, out: SearchOutcome, fresh = true, expanded = 0, stopAt = Infinity): SearchOutcome {
  const { size: P, stride: W, views, layerOf, slotOf, index, bounds, steps: t, model } = s;
  const { g, parent, stamp, heap } = scratch;
  const { fromCell, toLayer, toCell, cost: linkCost, bits: linkBits } = index;
  const h = (node: number): number => {
    const p = node % P;
    const y = ((p / W) | 0) - 1;
    return bounds.h(p - (y + 1) * W - 1, y);
  };
  const axis = model.parityAxis;
  const corner = model.corner;
  const goalSlot = s.goalSlot;
  const goalP = goal < 0 ? 0 : goal - goalSlot * P;
  const gy = ((goalP / W) | 0) - 1;
  const gx = goalP - (gy + 1) * W - 1;
  const goals = s.goals;
  if (fresh) {
    scratch.start(start, h(start));
    s.best = start;
    s.bestD = Infinity;
    s.reached = -1;
  }
  s.paused = false;
  const open = scratch.generation;
  const closed = open + 1;
  let best = s.best;
  let bestD = s.bestD;
  while (heap.size > 0) {
    if (expanded >= stopAt) {
      s.paused = true;
      s.best = best;
      s.bestD = bestD;
      return report(out, false, expanded, true);
    }
    const cur = heap.pop();
    const gc = g[cur];
    stamp[cur] = closed;
    const slot = (cur / P) | 0;
    const p = cur - slot * P;
    if (s.nearest && slot === goalSlot) {
      const y = ((p / W) | 0) - 1;
      const dx = p - (y + 1) * W - 1 - gx;
      const dy = y - gy;
      const d = dx * dx + dy * dy;
      const gb = g[best];
      if (d < bestD || (d === bestD && (gc < gb - TIE_EPS || (gc <= gb + TIE_EPS && cur < best)))) {
        bestD = d;
        best = cur;
      }
    }
    if (cur === goal || (goals !== null && goals.has(cur))) {
      s.reached = cur;
      break;
    }
    if (expanded >= maxIterations) {
      s.best = best;
      s.bestD = bestD;
      return report(out, false, expanded, true);
    }
    expanded++;
    const base = slot * P;
    const view = views[slot];
    const pass = view.pass;
    const exits = view.exits;
    const parity = axis === null ? 0 : axis === 'y' ? (((p / W) | 0) - 1) & 1 : ((p % W) - 1) & 1;
    const delta = t.delta[parity];
    const length = t.length[parity];
    const diag = t.diagonal[parity];
    const ex = exits === null ? 0 : exits[p];
    for (let k = 0; k < t.count; k++) {
      if (ex !== 0 && (ex & t.exitMask[parity][k]) !== 0) continue;
      const np = p + delta[k];
      const c = pass[np];
      if (c <= 0) continue;
      if (diag[k] === 1) {
        const blocked = (pass[p + t.sideA[parity][k]] > 0 ? 0 : 1) + (pass[p + t.sideB[parity][k]] > 0 ? 0 : 1);
        if (blocked > corner) continue;
      }
      const n = base + np;
      const ng = gc + length[k] * c;
      const st = stamp[n];
      if (st === open) {
        if (ng < g[n]) {
          g[n] = ng;
          parent[n] = cur;
          heap.decrease(n, ng + h(n), ng);
        }
      } else if (st !== closed) {
        g[n] = ng;
        parent[n] = cur;
        stamp[n] = open;
        heap.push(n, ng + h(n), ng);
      }
    }
    // Link edges, at the few cells where they start.
    const layer = layerOf[slot];
    const set = linkBits[layer];
    if (set !== null && ((set[p >>> 5] >>> (p & 31)) & 1) !== 0) {
      const end = index.start[layer + 1];
      for (let e = index.first(layer, p); e >= 0 && e < end && fromCell[e] === p; e++) {
        const ts = slotOf[toLayer[e]];
        if (ts < 0) continue;
        const tp = toCell[e];
        if (!(views[ts].pass[tp] > 0)) continue;
        const n = ts * P + tp;
        scratch.relax(n, gc + linkCost[e], cur, h(n));
      }
    }
  }
  s.best = best;
  s.bestD = bestD;
  return report(out, s.reached >= 0, expanded, false);
}
