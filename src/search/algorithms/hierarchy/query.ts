/**
 * A query's abstract search: links start and goal to their clusters' nodes (Dijkstra inside the
 * cluster) and to their groups' level-2 nodes (Dijkstra over the group's level-1 graph), searches
 * the level-2 graph (weighted A* with the landmark bound), and reads the level-1 path off the
 * searches and the groups' stored edge paths. Start and goal in one group skip level 2: A* over the
 * level-1 graph. Owns the query's local costs, its costs to and from the level-2 nodes, and its goal.
 */
import type { SearchView } from '../../../grid/navgrid.js';
import type { SearchScratch } from '../../kernel/scratch.js';
import { DX as DX_, DY as DY_, OCTILE_K as OCTILE_K_, paddedX, paddedY } from '../../../grid/padded.js';
import type { Groups } from './groups.js';
import { GROUP_SIDE as GROUP_SIDE_, type ClusterLayout, type CompactIds, type CompactScratch } from './ids.js';
import type { GroupLandmarks } from './group-landmarks.js';
import type { ClusterSearch } from './local-search.js';
import type { HierarchyParts } from './parts.js';
import { BLOCK_HEADER as BLOCK_HEADER_, crossTable, inTable, levelTwoIndices, outTable, type ClusterStore } from './store.js';

// Module-local copies: some loaders (tsx) turn imported bindings into getter calls in hot loops.
const DX = DX_;
const DY = DY_;
const OCTILE_K = OCTILE_K_;
const GROUP_SIDE = GROUP_SIDE_;
const BLOCK_HEADER = BLOCK_HEADER_;

/** The level-2 search's heuristic weight (weighted A*: within this factor of the best level-2 path). */
const LEVEL_TWO_WEIGHT = 1.01;

/** Finds a query's level-1 path through the hierarchy. */
export class AbstractSearch {
  private readonly layout: ClusterLayout;
  private readonly view: SearchView;
  private readonly cardinal: boolean;
  private readonly scratch: SearchScratch;
  private readonly store: ClusterStore;
  private readonly clusterSearch: ClusterSearch;
  private readonly slotOfCell: Int16Array;
  private readonly groups: Groups;
  private readonly landmarks: GroupLandmarks;
  private readonly ids: CompactIds;
  /** Local costs (cluster-local indices) from the query's start (forward) and to its goal (reverse). */
  private readonly fromStart: Float64Array;
  private readonly toGoal: Float64Array;
  /** Costs from the start to its group's level-2 nodes, and from the goal group's to the goal. */
  private startCosts = new Float64Array(64);
  private goalCosts = new Float64Array(64);
  /** The query's start and goal (padded), and the goal's cell coordinates. */
  private queryStart = -1;
  private queryGoal = -1;
  private goalX = 0;
  private goalY = 0;

  constructor(parts: HierarchyParts) {
    this.layout = parts.layout;
    this.view = parts.view;
    this.cardinal = parts.cardinal;
    this.scratch = parts.scratch;
    this.store = parts.store;
    this.clusterSearch = parts.clusterSearch;
    this.slotOfCell = parts.clusters.slotOfCell;
    this.groups = parts.groups;
    this.landmarks = parts.landmarks;
    this.ids = parts.ids;
    this.fromStart = new Float64Array(parts.clusterSearch.localSize);
    this.toGoal = new Float64Array(parts.clusterSearch.localSize);
  }

  /**
   * The level-1 path from padded cell `start` to `goal` (distinct, walkable, hierarchy current):
   * padded cells, start first; null when there is none. `out.expanded` counts abstract expansions.
   */
  levelOnePath(start: number, goal: number, out: { expanded: number }): number[] | null {
    const layout = this.layout;
    const groups = this.groups;
    const W = layout.stride;
    const startCluster = layout.clusterOf(start);
    const goalCluster = layout.clusterOf(goal);
    const startGroup = layout.groupOfCluster[startCluster];
    const goalGroup = layout.groupOfCluster[goalCluster];
    this.goalY = paddedY(W, goal);
    this.goalX = paddedX(W, goal);
    // Local costs: to the start cluster's nodes, and from the goal cluster's nodes (and the start).
    this.clusterSearch.markTargets(startCluster, this.store.nodes(startCluster), -1);
    this.clusterSearch.costsFrom(startCluster, start, false, this.fromStart);
    this.clusterSearch.markTargets(goalCluster, this.store.nodes(goalCluster), startCluster === goalCluster ? start : -1);
    this.clusterSearch.costsFrom(goalCluster, goal, true, this.toGoal);
    out.expanded = 0;
    this.queryStart = start;
    this.queryGoal = goal;
    const path = [start];
    if (startGroup === goalGroup) {
      // One group: reachable inside it, or through the level-2 graph; then the level-1 graph, unbounded.
      const inside = this.connect(start, startCluster, startGroup, false, true, goalCluster);
      if (!inside) {
        if (groups.nodes[startGroup].length === 0) return null;
        this.connect(goal, goalCluster, goalGroup, true, false, -1);
        if (!groups.connected(startGroup, goalGroup, this.startCosts, this.goalCosts)) return null;
      }
      return this.searchLevelOne(start, goal, out, path) ? path : null;
    }
    this.connect(start, startCluster, startGroup, false, false, -1);
    this.connect(goal, goalCluster, goalGroup, true, false, -1);
    if (!groups.connected(startGroup, goalGroup, this.startCosts, this.goalCosts)) return null;
    const levelTwoPath = this.searchLevelTwo(startGroup, goalGroup, out);
    if (levelTwoPath === null) return null;
    const shift = this.ids.levelTwoShift;
    const mask = (1 << shift) - 1;
    // The start side from the start group's search, then each level-2 step: across a group border
    // (one cell) or a stored path inside its group, then the goal side from the goal group's search.
    this.appendSearchPath(this.ids.startScratch, groups.nodes[startGroup][levelTwoPath[0] & mask], path, true);
    for (let k = 1; k < levelTwoPath.length; k++) {
      const u = levelTwoPath[k - 1];
      const v = levelTwoPath[k];
      const G = u >> shift;
      if (v >> shift !== G) path.push(groups.nodes[v >> shift][v & mask]);
      else groups.appendEdgePath(G, u & mask, v & mask, path);
    }
    this.appendSearchPath(this.ids.goalScratch, groups.nodes[goalGroup][levelTwoPath[levelTwoPath.length - 1] & mask], path, false);
    if (path[path.length - 1] !== goal) path.push(goal);
    return path;
  }

  /**
   * Appends the path a group search (scratch S, group-local ids, seeded from the start's or goal's
   * cluster) holds for node cell p: `forward`, from the seeds to p (the start side); else from after
   * p to the seeds (the goal side, searched in reverse).
   */
  private appendSearchPath(S: CompactScratch, p: number, path: number[], forward: boolean): void {
    const sh = this.ids.nodeShift;
    const mask = (1 << sh) - 1;
    const from = path.length;
    let u = (this.layout.localCluster(this.layout.clusterOf(p)) << sh) | this.slotOfCell[p];
    if (!forward) u = S.parent[u];
    const I = this.store.ints;
    const blockOf = this.store.blockOf;
    for (; u !== -1; u = S.parent[u]) path.push(I[blockOf[S.clusterOfLocal[u >> sh]] + BLOCK_HEADER + (u & mask)]);
    if (forward) reverseFrom(path, from);
    // The start (goal) may be a node itself, then the first (last) seed.
    if (forward && path.length > from && path[from] === path[from - 1]) path.splice(from, 1);
  }

  /** Octile (or Manhattan) distance from padded cell p to the goal, scaled by the cheapest cost. */
  private h(p: number): number {
    const W = this.layout.stride;
    const y = ((p / W) | 0) - 1;
    const dx = Math.abs(p - (y + 1) * W - 1 - this.goalX);
    const dy = Math.abs(y - this.goalY);
    return (this.cardinal ? dx + dy : dx > dy ? dx + OCTILE_K * dy : dy + OCTILE_K * dx) * this.view.minCost;
  }

  /**
   * Level-1 A* over the whole map (on padded cells) from the query's start to its goal, appending
   * the path after the start to `path`; for start and goal in one group. Returns false when there
   * is no path.
   */
  private searchLevelOne(from: number, to: number, out: { expanded: number }, path: number[]): boolean {
    const scratch = this.scratch;
    const { g, parent, stamp, heap } = scratch;
    const layout = this.layout;
    const W = layout.stride;
    const pass = this.view.pass;
    const slot = this.slotOfCell;
    const start = this.queryStart;
    const goal = this.queryGoal;
    const startCluster = layout.clusterOf(start);
    const goalCluster = to === goal ? layout.clusterOf(goal) : -1;
    this.goalY = paddedY(W, to);
    this.goalX = paddedX(W, to);
    const open = scratch.start(from);
    const closed = open + 1;
    // A closed cell is skipped before its heuristic is computed (relax would drop it anyway).
    let expanded = 0;
    while (heap.size > 0) {
      const p = heap.pop();
      stamp[p] = closed;
      if (p === to) break;
      expanded++;
      const gp = g[p];
      const k = layout.clusterOf(p);
      const I = this.store.ints;
      const b = this.store.blockOf[k];
      const m = I[b];
      const i = slot[p];
      if (p === start) {
        const fromStart = this.fromStart;
        for (let j = 0; j < m; j++) {
          const q = I[b + BLOCK_HEADER + j];
          const d = fromStart[layout.localCell(startCluster, q)];
          if (d < Infinity && q !== p && stamp[q] !== closed) scratch.relax(q, gp + d, p, this.h(q));
        }
      } else if (i >= 0) {
        const o = outTable(b, m);
        const F = this.store.floats;
        for (let x = b + I[o + i]; x < b + I[o + i + 1]; x++) {
          const q = I[b + BLOCK_HEADER + I[x]];
          if (stamp[q] !== closed) scratch.relax(q, gp + F[x], p, this.h(q));
        }
      }
      if (i >= 0) {
        // Across a cluster border: the facing cell, when it is a node too.
        for (let dir = 0; dir < 4; dir++) {
          const q = p + DY[dir] * W + DX[dir];
          if (slot[q] < 0 || pass[q] <= 0 || stamp[q] === closed || layout.clusterOf(q) === k) continue;
          scratch.relax(q, gp + pass[q], p, this.h(q));
        }
      }
      if (k === goalCluster) {
        const d = this.toGoal[layout.localCell(goalCluster, p)];
        if (d < Infinity) scratch.relax(goal, gp + d, p, this.h(goal));
      }
    }
    out.expanded += expanded;
    if (stamp[to] !== closed) return false;
    const at = path.length;
    for (let p = to; p !== from; p = parent[p]) path.push(p);
    reverseFrom(path, at);
    return true;
  }

  /**
   * Level-2 A* from the start (linked to its group's level-2 nodes by startCosts) to the goal (from
   * the goal group's, by goalCosts): the level-2 ids on the path, first to last, or null.
   */
  private searchLevelTwo(startGroup: number, goalGroup: number, out: { expanded: number }): number[] | null {
    const S = this.ids.levelTwoScratch;
    const { g, parent, stamp, heap } = S;
    const groups = this.groups;
    const sh = this.ids.levelTwoShift;
    const mask = (1 << sh) - 1;
    const cols2 = this.layout.groupColumns;
    const start = groups.nodes.length << sh;
    const goal = start + 1;
    const goalCosts = this.goalCosts;
    this.landmarks.beginQuery(startGroup, goalGroup, this.startCosts, goalCosts);
    const open = S.start(start);
    const closed = open + 1;
    let expanded = 0;
    while (heap.size > 0) {
      const p = heap.pop();
      stamp[p] = closed;
      if (p === goal) break;
      expanded++;
      const gp = g[p];
      if (p === start) {
        const sc = this.startCosts;
        for (let j = 0; j < groups.nodes[startGroup].length; j++) if (sc[j] < Infinity) this.relaxLevelTwo(S, startGroup, (startGroup << sh) | j, sc[j], p);
        continue;
      }
      const G = p >> sh;
      const i = p & mask;
      const e = groups.edgesOut[G];
      const base = G << sh;
      for (let x = e.off[i]; x < e.off[i + 1]; x++) this.relaxLevelTwo(S, G, base | e.to[x], gp + e.cost[x], p);
      const c = groups.crossLinks[G];
      for (let x = c.off[i]; x < c.off[i + 1]; x++) {
        const t = c.to[x];
        const H = G + DY[t & 3] * cols2 + DX[t & 3];
        this.relaxLevelTwo(S, H, (H << sh) | (t >> 2), gp + c.cost[x], p);
      }
      if (G === goalGroup && goalCosts[i] < Infinity) S.relaxKeepingHeuristic(goal, gp + goalCosts[i], p, 0);
    }
    out.expanded += expanded;
    if (stamp[goal] !== closed) return null;
    const path: number[] = [];
    for (let p = parent[goal]; p !== start; p = parent[p]) path.push(p);
    return path.reverse();
  }

  /** Relaxes level-2 id q (of group G); a new node's key uses the landmark heuristic. */
  private relaxLevelTwo(S: CompactScratch, G: number, q: number, ng: number, from: number): void {
    const open = S.generation;
    const s = S.stamp[q];
    if (s === open + 1 || (s === open && ng >= S.g[q])) return;
    if (s === open) {
      S.relaxKeepingHeuristic(q, ng, from, 0);
      return;
    }
    const dx = Math.abs(this.groups.levelTwoX[q] - this.goalX);
    const dy = Math.abs(this.groups.levelTwoY[q] - this.goalY);
    const h = (this.cardinal ? dx + dy : dx > dy ? dx + OCTILE_K * dy : dy + OCTILE_K * dx) * this.view.minCost;
    S.relaxKeepingHeuristic(q, ng, from, this.landmarks.bound(q, G, h) * LEVEL_TWO_WEIGHT);
  }

  /**
   * Dijkstra over the level-1 graph inside group G from padded cell `src` (seeded with the local
   * costs of its cluster k's nodes; `reverse`: costs to src), in the start scratch (forward) or the
   * goal scratch (reverse) on group-local ids, which keep the paths for {@link appendSearchPath}.
   * Reads the clusters' own edge lists (loading the group graph would touch every cluster of the
   * group). Writes the costs to G's level-2 nodes into startCosts (forward) or goalCosts (reverse).
   * With `full`, runs to the end and returns whether it reached the nodes of `goalCluster` that
   * reach the goal (or the goal directly); else stops once every level-2 node is settled and
   * returns false.
   */
  private connect(src: number, k: number, G: number, reverse: boolean, full: boolean, goalCluster: number): boolean {
    const layout = this.layout;
    const S = reverse ? this.ids.goalScratch : this.ids.startScratch;
    S.enter(layout, G);
    const { g, stamp, clusterOfLocal } = S;
    const sh = this.ids.nodeShift;
    const mask = (1 << sh) - 1;
    const m2 = this.groups.nodes[G].length;
    // Grow only the side being written: the start side's costs must survive the goal side's search.
    if (reverse && this.goalCosts.length < m2) this.goalCosts = new Float64Array(m2 * 2);
    if (!reverse && this.startCosts.length < m2) this.startCosts = new Float64Array(m2 * 2);
    const res = reverse ? this.goalCosts : this.startCosts;
    res.fill(Infinity, 0, m2);
    const open = S.begin();
    const closed = open + 1;
    const I = this.store.ints;
    const F = this.store.floats;
    const blockOf = this.store.blockOf;
    const seeds = this.store.nodes(k);
    const local = reverse ? this.toGoal : this.fromStart;
    const lk = layout.localCluster(k) << sh;
    const Q = this.ids.queue;
    let far = this.groups.dearestStep[G];
    for (let j = 0; j < seeds.length; j++) {
      const d = local[layout.localCell(k, seeds[j])];
      if (d < Infinity && d > far) far = d;
    }
    // Every edge costs at least the cheapest cell (one step).
    Q.reset(this.view.minCost, far);
    for (let j = 0; j < seeds.length; j++) {
      const d = local[layout.localCell(k, seeds[j])];
      if (d < Infinity) {
        S.place(lk | j, d);
        Q.push(lk | j, d);
      }
    }
    let left = m2;
    while (Q.size > 0) {
      const p = Q.pop();
      if (stamp[p] === closed || Q.key > g[p]) continue;
      stamp[p] = closed;
      const gp = g[p];
      const lc = p >> sh;
      const s = p & mask;
      const b = blockOf[clusterOfLocal[lc]];
      const m = I[b];
      const u = I[levelTwoIndices(b, m) + s];
      if (u >= 0) {
        res[u] = gp;
        if (--left === 0 && !full) break;
      }
      const o = reverse ? inTable(b, m) : outTable(b, m);
      const base = lc << sh;
      for (let x = b + I[o + s]; x < b + I[o + s + 1]; x++) S.reach(Q, base | I[x], gp + F[x], p);
      // Across cluster borders inside the group; in reverse, the step into p costs p's cell.
      const c = crossTable(b, m);
      const rc = reverse ? F[b + BLOCK_HEADER + s] : -1;
      const lx = lc & (GROUP_SIDE - 1);
      const ly = (lc / GROUP_SIDE) | 0;
      for (let x = b + I[c + s]; x < b + I[c + s + 1]; x++) {
        const t = I[x];
        const d = t & 3;
        const nx = lx + DX[d];
        const ny = ly + DY[d];
        if (nx < 0 || ny < 0 || nx >= GROUP_SIDE || ny >= GROUP_SIDE) continue;
        S.reach(Q, ((ny * GROUP_SIDE + nx) << sh) | (t >> 2), gp + (rc >= 0 ? rc : F[x]), p);
      }
    }
    if (!full) return false;
    // Does the start reach the goal without leaving the group?
    if (k === goalCluster && this.toGoal[layout.localCell(goalCluster, src)] < Infinity) return true;
    const gn = this.store.nodes(goalCluster);
    const lg = layout.localCluster(goalCluster) << sh;
    for (let j = 0; j < gn.length; j++) if (stamp[lg | j] === closed && this.toGoal[layout.localCell(goalCluster, gn[j])] < Infinity) return true;
    return false;
  }
}

/** Reverses a[from..] in place (paths are collected goal first). */
export function reverseFrom(a: number[], from: number): void {
  for (let i = from, j = a.length - 1; i < j; i++, j--) {
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}
