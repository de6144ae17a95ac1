/**
 * Landmarks (ALT, Goldberg & Harrelson 2005) on the level-2 graph: LANDMARK_COUNT level-2 nodes far
 * apart, and every level-2 node's distance from and to each of them. By the triangle inequality
 * they bound the distance between any two nodes from below, a tighter heuristic for the level-2
 * search than the octile distance. Owns the distance tables, which groups' rows are current, and a
 * query's active landmarks and goal-side terms.
 *
 * A group rebuilt after the tables were computed has no valid rows (its nodes changed): the search
 * falls back to the octile bound there, and stale distances elsewhere can only make the level-2
 * path less direct, never wrong. The tables are recomputed once more than an eighth of the groups
 * changed.
 */
import type { SearchView } from '../../../grid/navgrid.js';
import { DX as DX_, DY as DY_ } from '../../../grid/padded.js';
import type { Groups } from './groups.js';
import { farthest } from '../../bounds/landmarks/placement.js';
import type { ClusterLayout, CompactIds } from './ids.js';

// Module-local copies: some loaders (tsx) turn imported bindings into getter calls in hot loops.
const DX = DX_;
const DY = DY_;

/** Landmarks for the level-2 search's heuristic. */
export const LANDMARK_COUNT = 32;
/** Landmarks a query's heuristic reads: those with the best bounds at its start. */
const ACTIVE_COUNT = 8;

/** The landmark tables and a query's use of them. */
export class GroupLandmarks {
  /**
   * Per level-2 id ((G << levelTwoShift) | i), per landmark: the node's distance from the landmark
   * (distanceFrom) and to it (distanceTo, the same array when the tables are symmetric).
   */
  distanceFrom = new Float32Array(0);
  distanceTo = new Float32Array(0);
  /** Per group: 1 when its rows are current (0 after a rebuild of the group). */
  readonly valid: Uint8Array;
  /** Groups rebuilt since the tables were computed (Infinity: the level-2 ids changed meaning). */
  staleGroups = 0;
  /** Whether this query's goal-side terms bound anything (else the octile bound alone). */
  inUse = false;
  /** This query's terms: d(L, goal) per landmark (-Infinity: none) and d(goal, L) (+Infinity: none). */
  private readonly toGoal = new Float64Array(LANDMARK_COUNT);
  private readonly fromGoal = new Float64Array(LANDMARK_COUNT);
  /** This query's active landmarks (see beginQuery) and their ranking scratch. */
  private readonly active = new Int32Array(ACTIVE_COUNT);
  private readonly score = new Float64Array(LANDMARK_COUNT);
  /** Whether the tables were computed as symmetric (one table for both directions). */
  private symmetricTables = true;
  private readonly layout: ClusterLayout;
  private readonly view: SearchView;
  private readonly groups: Groups;
  private readonly ids: CompactIds;

  constructor(layout: ClusterLayout, view: SearchView, groups: Groups, ids: CompactIds) {
    this.layout = layout;
    this.view = view;
    this.groups = groups;
    this.ids = ids;
    this.valid = new Uint8Array(layout.groupCount);
  }

  get bytes(): number {
    return this.distanceFrom.byteLength + (this.distanceTo !== this.distanceFrom ? this.distanceTo.byteLength : 0);
  }

  /**
   * Raises the heuristic `h` of level-2 id `q` (in group G) to the best bound the active landmarks
   * give towards this query's goal.
   */
  bound(q: number, G: number, h: number): number {
    if (!this.inUse || this.valid[G] !== 1) return h;
    const f = this.distanceFrom;
    const b = this.distanceTo;
    const o = q * LANDMARK_COUNT;
    const tf = this.toGoal;
    const tb = this.fromGoal;
    const act = this.active;
    for (let a = 0; a < ACTIVE_COUNT; a++) {
      const l = act[a];
      const x = tf[l] - f[o + l];
      if (x > h) h = x;
      const c = b[o + l] - tb[l];
      if (c > h) h = c;
    }
    return h;
  }

  /**
   * The landmark terms for this query's goal: toGoal[l] = d(L, goal) and fromGoal[l] = d(goal, L)
   * on the level-2 graph, through goal group gg's nodes (goalCosts: each node's cost to the goal).
   * Terms that could overestimate are set so that they never win (-Infinity / +Infinity). Then the
   * active set from the start group sg's nodes (startCosts). Recomputes the tables first when many
   * groups changed since they were computed.
   */
  beginQuery(sg: number, gg: number, startCosts: Float64Array, goalCosts: Float64Array): void {
    const groupNodes = this.groups.nodes;
    // A layer that stopped being uniform needs the two-table form.
    if (this.staleGroups > Math.max(4, groupNodes.length >> 3) || (this.symmetricTables && !this.view.uniform)) this.compute();
    this.inUse = false;
    const tf = this.toGoal;
    const tb = this.fromGoal;
    tf.fill(-Infinity);
    tb.fill(Infinity);
    if (this.valid[gg] !== 1) return;
    const f = this.distanceFrom;
    const b = this.distanceTo;
    const sh = this.ids.levelTwoShift;
    const m = groupNodes[gg].length;
    const o = (gg << sh) * LANDMARK_COUNT;
    for (let l = 0; l < LANDMARK_COUNT; l++) {
      let to = Infinity;
      let from = Infinity;
      for (let j = 0; j < m; j++) {
        const d = goalCosts[j];
        if (!(d < Infinity)) continue;
        to = Math.min(to, f[o + j * LANDMARK_COUNT + l] + d);
        // d(goal, j) = d(j, goal) only when costs are symmetric.
        if (this.symmetricTables) from = Math.min(from, b[o + j * LANDMARK_COUNT + l] + d);
      }
      // Unreachable from (or to) the landmark: no bound from it.
      if (to < Infinity) {
        tf[l] = to;
        this.inUse = true;
      }
      if (from < Infinity) {
        tb[l] = from;
        this.inUse = true;
      }
    }
    // The landmarks that bound the start best do the work (Goldberg & Harrelson's active set):
    // rank each by its bound at the start, through the start group's nodes. A start group rebuilt
    // since the tables were computed has no rows: the first ACTIVE_COUNT landmarks then.
    const act = this.active;
    if (this.valid[sg] !== 1) {
      for (let a = 0; a < ACTIVE_COUNT; a++) act[a] = a;
      return;
    }
    const score = this.score;
    const ms = groupNodes[sg].length;
    const os = (sg << sh) * LANDMARK_COUNT;
    for (let l = 0; l < LANDMARK_COUNT; l++) {
      let ls = Infinity;
      let sl = Infinity;
      for (let j = 0; j < ms; j++) {
        const d = startCosts[j];
        if (!(d < Infinity)) continue;
        ls = Math.min(ls, f[os + j * LANDMARK_COUNT + l] + d);
        sl = Math.min(sl, b[os + j * LANDMARK_COUNT + l] + d);
      }
      const v = Math.max(tf[l] - ls, sl - tb[l]);
      score[l] = v > -Infinity ? v : -Infinity;
    }
    for (let a = 0; a < ACTIVE_COUNT; a++) {
      let best = 0;
      for (let l = 1; l < LANDMARK_COUNT; l++) if (score[l] > score[best]) best = l;
      act[a] = best;
      // Taken (a landmark with no bound at all may be taken twice: it adds nothing either way).
      score[best] = -Infinity;
    }
  }

  /**
   * Picks LANDMARK_COUNT level-2 nodes far apart (each the farthest from those already picked) and
   * stores every node's distance from and to each of them.
   */
  compute(): void {
    this.staleGroups = 0;
    const symmetric = this.view.uniform;
    this.symmetricTables = symmetric;
    const groupNodes = this.groups.nodes;
    const n2 = groupNodes.length;
    const sh = this.ids.levelTwoShift;
    let first = -1;
    const size = (n2 << sh) * LANDMARK_COUNT;
    if (this.distanceFrom.length !== size) this.distanceFrom = new Float32Array(size);
    this.distanceFrom.fill(Infinity);
    if (symmetric) this.distanceTo = this.distanceFrom;
    else {
      if (this.distanceTo.length !== size || this.distanceTo === this.distanceFrom) this.distanceTo = new Float32Array(size);
      this.distanceTo.fill(Infinity);
    }
    for (let G = 0; G < n2; G++) {
      this.valid[G] = 1;
      if (first < 0 && groupNodes[G].length > 0) first = G << sh;
    }
    if (first < 0) return;
    const near = new Float64Array(n2 << sh).fill(Infinity);
    // Start from the node farthest from an arbitrary one.
    const hi = this.groups.dearestEdge();
    let pick = this.nextLandmark(first, near, -1, hi);
    near.fill(Infinity);
    for (let l = 0; l < LANDMARK_COUNT; l++) {
      const next = this.nextLandmark(pick, near, l, hi);
      if (!symmetric) this.dijkstra(pick, true, l, hi);
      pick = next;
    }
  }

  /**
   * Dijkstra from level-2 node `src`; with l >= 0 stores the distances as landmark l's; lowers
   * near[] (each node's distance to the nearest landmark so far) and returns the node with the
   * largest finite near[] (farthest-point placement, placement.ts). Every node with a finite near[]
   * is reached from `src`: reachability on the level-2 graph goes both ways (the hierarchy reads no
   * one-way flags, and pruning drops an edge only for a path as cheap), so every landmark lies in
   * the component of the first node searched from.
   */
  private nextLandmark(src: number, near: Float64Array, l: number, hi: number): number {
    this.dijkstra(src, false, l, hi);
    const S = this.ids.levelTwoScratch;
    const { g, stamp } = S;
    const closed = S.generation + 1;
    const sh = this.ids.levelTwoShift;
    const groupNodes = this.groups.nodes;
    for (let G = 0; G < groupNodes.length; G++) {
      const m = groupNodes[G].length;
      for (let j = 0; j < m; j++) {
        const p = (G << sh) | j;
        if (stamp[p] === closed && g[p] < near[p]) near[p] = g[p];
      }
    }
    return farthest(near);
  }

  /**
   * Dijkstra over the level-2 graph from (reverse: to) node `src`, with a bucket queue up to `hi`
   * per edge; with l >= 0 stores the distances as landmark l's.
   */
  private dijkstra(src: number, reverse: boolean, l: number, hi: number): void {
    const S = this.ids.levelTwoScratch;
    const { g, stamp } = S;
    const groups = this.groups;
    const sh = this.ids.levelTwoShift;
    const mask = (1 << sh) - 1;
    const cols2 = this.layout.groupColumns;
    const pass = this.view.pass;
    const cells = groups.levelTwoCell;
    const table = reverse ? this.distanceTo : this.distanceFrom;
    const edges = reverse ? groups.edgesIn : groups.edgesOut;
    const open = S.begin();
    const closed = open + 1;
    S.place(src, 0);
    const Q = this.ids.queue;
    Q.reset(this.view.minCost, hi);
    Q.push(src, 0);
    while (Q.size > 0) {
      const p = Q.pop();
      if (stamp[p] === closed || Q.key > g[p]) continue;
      stamp[p] = closed;
      const gp = g[p];
      const G = p >> sh;
      const i = p & mask;
      if (l >= 0) table[p * LANDMARK_COUNT + l] = gp;
      const e = edges[G];
      const base = G << sh;
      for (let x = e.off[i]; x < e.off[i + 1]; x++) S.reach(Q, base | e.to[x], gp + e.cost[x], p);
      const c = groups.crossLinks[G];
      // Reverse: the edge from the facing node into p costs p's cell.
      const rc = pass[cells[p]];
      for (let x = c.off[i]; x < c.off[i + 1]; x++) {
        const t = c.to[x];
        S.reach(Q, ((G + DY[t & 3] * cols2 + DX[t & 3]) << sh) | (t >> 2), gp + (reverse ? rc : c.cost[x]), p);
      }
    }
  }
}
