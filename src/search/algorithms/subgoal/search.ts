/**
 * The search on a subgoal graph's levels (graph.ts, levels.ts): the start and goal joined to the
 * subgoals they reach directly, the subgoals above the goal found by a small search up from it,
 * then A* up from the start and across the core (the larger of the octile distance and the
 * landmarks' bounds), and each edge of the answer opened into simple edges and walked back into
 * cells. Also the graphs a grid keeps, one per layer, dropped by any change to their layer until
 * `prepare` or an explicit query builds them again.
 */
import type { Derived, MemoryEntry, NavGrid, SearchView } from '../../../grid/navgrid.js';
import { OCTILE_K } from '../../../grid/padded.js';
import { report, type SearchOutcome, type SearchScratch } from '../../kernel/scratch.js';
import { Scan, SubgoalGraph, diagonalFirstOpen, writeSegment } from './graph.js';
import type { SubgoalLevels } from './levels.js';

const K = OCTILE_K;
/** Landmark bounds are differences of sums rounded differently: lowered by this much they never overestimate. */
const BOUND_EPS = 1e-9;
/** Sort keys of the goal side: rank times this plus the position in the list (below 2^22 subgoals there). */
const ORDER_SPAN = 1 << 22;

/**
 * The subgoal graphs a grid keeps, one per layer (built on demand), and for each whether `auto`
 * searches it. A change on a layer drops its graph (a change may add or remove subgoals and edges
 * anywhere along the lines through it): `auto` then runs jump point search there until `prepare`
 * or an `algorithm: 'subgoal'` query builds it again.
 */
export class GridSubgoals implements Derived {
  private readonly grid: NavGrid;
  private readonly graphs: (SubgoalGraph | null)[];
  /** Per layer: whether `auto` searches its graph, decided once per graph; null before. */
  private readonly picks: (boolean | null)[];
  private readonly unsubscribe: () => void;

  constructor(grid: NavGrid) {
    this.grid = grid;
    this.graphs = grid.layers.map(() => null);
    this.picks = grid.layers.map(() => null);
    this.unsubscribe = grid.onChange((c) => {
      this.graphs[c.layer] = null;
      this.picks[c.layer] = null;
    });
  }

  /** The layer's graph when built and not dropped since, else null. */
  fresh(layer: number): SubgoalGraph | null {
    return this.graphs[layer];
  }

  /**
   * Whether `auto` searches the layer's graph: false without a graph, null while a graph is
   * undecided (the Pathfinder that built it decides, {@link decide}).
   */
  autoPick(layer: number): boolean | null {
    return this.graphs[layer] === null ? false : this.picks[layer];
  }

  /** Records whether `auto` searches the layer's current graph. */
  decide(layer: number, pick: boolean): void {
    this.picks[layer] = pick;
  }

  /** The layer's graph, built now from `view` (the layer's uniform search view) when missing. */
  graph(layer: number, view: SearchView): SubgoalGraph {
    return (this.graphs[layer] ??= new SubgoalGraph(view));
  }

  memory(out: MemoryEntry[]): void {
    this.graphs.forEach((g, layer) => {
      if (g !== null) out.push({ name: 'subgoal graph', layer, bytes: g.bytes });
    });
  }

  release(): void {
    this.unsubscribe();
    this.graphs.fill(null);
    this.picks.fill(null);
  }
}

/** The subgoal graphs `grid` keeps (see NavGrid.memory and releaseDerived). */
export function subgoalsOf(grid: NavGrid): GridSubgoals {
  return grid.derived('subgoal graphs', (g) => new GridSubgoals(g));
}

/**
 * A Pathfinder's search on subgoal graphs: its scan's list, the goal side's marks, distances and
 * queue, and the path, reused across queries; the costs, parents and open list are the
 * Pathfinder's search scratch (node ids: the subgoals, then the start, then the goal).
 */
export class SubgoalSearch {
  private readonly scratch: SearchScratch;
  private readonly scan = new Scan();
  /** The subgoals above the goal (reached up from it), marked with the current search's stamp. */
  private goalMarks = new Uint32Array(0);
  private lastOpen = 0;
  /** The goal's distance from each landmark. */
  private goalFar = new Float64Array(0);
  /** The last path's subgoals (shortcuts opened), start and goal as padded cells, goal first. */
  private readonly routeList = new Scan();
  private routeLength = 0;
  /** Edges the last search looked at, on the goal's side (twice: found, then settled) and from the start (its work, beside `expanded`; 0 when it needed no graph search). */
  scanned = 0;
  /** The goal side: each marked subgoal's distance down to the goal and the next node on the way (the goal: n + 1). */
  private below = new Float64Array(0);
  private next = new Int32Array(0);
  /** The subgoals above the goal, as found, and their sort keys (rank, then position). */
  private readonly above = new Scan();
  private order = new Float64Array(0);
  /** The last path as graph nodes, start first, shortcuts closed. */
  private readonly nodes = new Scan();
  /** The padded row length of the last search's graph. */
  private stride = 0;

  constructor(scratch: SearchScratch) {
    this.scratch = scratch;
  }

  /** Bytes held besides the Pathfinder's scratch. */
  get bytes(): number {
    return this.scan.cells.byteLength + this.goalMarks.byteLength + this.goalFar.byteLength + this.routeList.cells.byteLength + this.below.byteLength + this.next.byteLength + this.above.cells.byteLength + this.order.byteLength + this.nodes.cells.byteLength;
  }

  /**
   * Searches `graph` (built on `pass`, unchanged since) from padded cell `start` to `goal`
   * (distinct, open, in one component or not) over its levels (levels.ts): up from the start,
   * across the core, down to the goal, A* with the larger of the octile distance and the
   * landmarks' bounds. Fills `out` (`expanded`: graph nodes expanded) and returns the path's
   * length in octile units, Infinity when none; {@link cells} then writes it.
   */
  search(graph: SubgoalGraph, pass: Float32Array, start: number, goal: number, maxIterations: number, out: SearchOutcome): number {
    const W = graph.stride;
    this.stride = W;
    const sy = (start / W) | 0;
    const sx = start - sy * W;
    const gy = (goal / W) | 0;
    const gx = goal - gy * W;
    this.routeLength = 0;
    this.scanned = 0;
    if (diagonalFirstOpen(pass, W, start, goal)) {
      this.setRoute(goal, start);
      report(out, true, 0, false);
      return octileUnits(gx - sx, gy - sy);
    }
    const n = graph.count;
    const idOf = graph.idOf;
    const xs = graph.xs;
    const ys = graph.ys;
    const levels = graph.levels;
    const first = levels.first;
    const to = levels.to;
    const core = levels.core;
    const S = idOf[start] >= 0 ? idOf[start] : n;
    const G = n + 1;
    const scratch = this.scratch;
    const { g, parent, stamp, heap } = scratch;
    const open = scratch.begin();
    const closed = open + 1;
    // Down to the goal: the subgoals above it (it reaches them directly, or is one, then up from
    // them short of the core) with their distances to it. Upward edges go to later-taken-out
    // subgoals only, so one pass in that order settles them: no queue.
    if (this.below.length < n) {
      const size = Math.max(n, this.below.length * 2);
      if (this.goalMarks.length < size) this.goalMarks = new Uint32Array(size);
      this.below = new Float64Array(size);
      this.next = new Int32Array(size);
    }
    if (open < this.lastOpen) this.goalMarks.fill(0);
    this.lastOpen = open;
    const marks = this.goalMarks;
    const below = this.below;
    const next = this.next;
    const above = this.above;
    // The goal's landmark distances: its own, or through the subgoals it reaches directly.
    const L = graph.landmarks;
    const far = graph.far;
    if (this.goalFar.length < L) this.goalFar = new Float64Array(L);
    const gl = this.goalFar;
    let count = 0;
    if (idOf[goal] >= 0) {
      const t = idOf[goal];
      marks[t] = open;
      below[t] = 0;
      next[t] = G;
      count = above.push(count, t);
      for (let i = 0; i < L; i++) gl[i] = far[t * L + i];
    } else {
      gl.fill(Infinity);
      const k = graph.reach(pass, goal, this.scan);
      if (k === 0) {
        report(out, false, 0, false);
        return Infinity;
      }
      for (let j = 0; j < k; j++) {
        const t = idOf[this.scan.cells[j]];
        const d = octileUnits(xs[t] - gx, ys[t] - gy);
        if (marks[t] !== open) {
          marks[t] = open;
          below[t] = d;
          next[t] = G;
          count = above.push(count, t);
        } else if (d < below[t]) below[t] = d;
        for (let i = 0; i < L; i++) {
          const via = far[t * L + i] + d;
          if (via < gl[i]) gl[i] = via;
        }
      }
    }
    const rank = levels.rank;
    let scanned = 0;
    for (let i = 0; i < count; i++) {
      const u = above.cells[i];
      if (core[u] === 1) continue;
      scanned += 2 * (first[u + 1] - first[u]);
      for (let e = first[u]; e < first[u + 1]; e++) {
        const v = to[e];
        if (marks[v] === open) continue;
        marks[v] = open;
        below[v] = Infinity;
        count = above.push(count, v);
      }
    }
    if (this.order.length < count) this.order = new Float64Array(Math.max(count, this.order.length * 2));
    const order = this.order.subarray(0, count);
    for (let i = 0; i < count; i++) order[i] = rank[above.cells[i]] * ORDER_SPAN + i;
    order.sort();
    for (let k = 0; k < count; k++) {
      const u = above.cells[order[k] % ORDER_SPAN];
      if (core[u] === 1) break;
      const du = below[u];
      for (let e = first[u]; e < first[u + 1]; e++) {
        const v = to[e];
        const d = du + octileUnits(xs[v] - xs[u], ys[v] - ys[u]);
        if (d < below[v]) {
          below[v] = d;
          next[v] = u;
        }
      }
    }
    g[S] = 0;
    parent[S] = -1;
    stamp[S] = open;
    heap.push(S, octileUnits(gx - sx, gy - sy), 0);
    let expanded = 0;
    while (heap.size > 0) {
      const u = heap.pop();
      if (u === G) {
        stamp[u] = closed;
        this.scanned = scanned;
        report(out, true, expanded, false);
        this.routeFrom(graph, levels, start, goal, n);
        return g[u];
      }
      if (expanded >= maxIterations) {
        report(out, false, expanded, true);
        return Infinity;
      }
      stamp[u] = closed;
      expanded++;
      const gu = g[u];
      // Above the goal: the goal through it.
      if (u < n && marks[u] === open) {
        const ng = gu + below[u];
        const s = stamp[G];
        if (s !== open || ng < g[G]) {
          g[G] = ng;
          parent[G] = u;
          if (s === open) heap.decrease(G, ng, ng);
          else {
            stamp[G] = open;
            heap.push(G, ng, ng);
          }
        }
      }
      const ux = u < n ? xs[u] : sx;
      const uy = u < n ? ys[u] : sy;
      const fromStart = u === n;
      const lo = fromStart ? 0 : first[u];
      const hi = fromStart ? graph.reach(pass, start, this.scan) : first[u + 1];
      const cells = this.scan.cells;
      scanned += hi - lo;
      for (let e = lo; e < hi; e++) {
        const v = fromStart ? idOf[cells[e]] : to[e];
        const s = stamp[v];
        if (s === closed) continue;
        let ax = xs[v] - ux;
        let ay = ys[v] - uy;
        if (ax < 0) ax = -ax;
        if (ay < 0) ay = -ay;
        const ng = gu + (ax > ay ? ax + K * ay : ay + K * ax);
        if (s === open && ng >= g[v]) continue;
        let hx = xs[v] - gx;
        let hy = ys[v] - gy;
        if (hx < 0) hx = -hx;
        if (hy < 0) hy = -hy;
        let h = hx > hy ? hx + K * hy : hy + K * hx;
        for (let i = 0, b = v * L; i < L; i++) {
          const a = gl[i] - far[b + i] - BOUND_EPS;
          if (a > h) h = a;
          const c = far[b + i] - gl[i] - BOUND_EPS;
          if (c > h) h = c;
        }
        const f = ng + h;
        g[v] = ng;
        parent[v] = u;
        if (s === open) heap.decrease(v, f, ng);
        else {
          stamp[v] = open;
          heap.push(v, f, ng);
        }
      }
    }
    this.scanned = scanned;
    report(out, false, expanded, false);
    return Infinity;
  }

  /** Cells on the last found path, start and goal included: `route`'s segments' lengths plus one. */
  get cellCount(): number {
    let cells = 1;
    const W = this.stride;
    for (let k = this.routeLength - 1; k > 0; k--) {
      const a = this.routeList.cells[k];
      const b = this.routeList.cells[k - 1];
      const ay = (a / W) | 0;
      const by = (b / W) | 0;
      const dx = Math.abs(b - by * W - (a - ay * W));
      const dy = Math.abs(by - ay);
      cells += dx > dy ? dx : dy;
    }
    return cells;
  }

  /**
   * Writes the last found path's cells (indices `y * width + x`, start first) into `out` (at
   * least {@link cellCount} long), each edge walked diagonal steps first from whichever end it
   * was found from. Throws when an edge is no longer open: the graph was used after a change.
   */
  cells(pass: Float32Array, out: Int32Array): Int32Array {
    const W = this.stride;
    const width = W - 2;
    const route = this.routeList.cells;
    const a0 = route[this.routeLength - 1];
    let at = 0;
    out[at++] = (((a0 / W) | 0) - 1) * width + (a0 % W) - 1;
    for (let k = this.routeLength - 1; k > 0; k--) {
      const a = route[k];
      const b = route[k - 1];
      if (diagonalFirstOpen(pass, W, a, b)) at = writeSegment(W, a, b, true, out, at);
      else if (diagonalFirstOpen(pass, W, b, a)) at = writeSegment(W, a, b, false, out, at);
      else throw new Error(`subgoal graph: the edge between padded cells ${a} and ${b} is blocked (the graph is out of date)`);
    }
    return out.subarray(0, at);
  }

  private setRoute(goal: number, start: number): void {
    this.routeList.cells[0] = goal;
    this.routeList.cells[1] = start;
    this.routeLength = 2;
  }

  /**
   * Records the last level search's path as padded cells, goal first: the nodes from the start up
   * to the subgoal the goal was reached through (parents), then down to the goal (`next` links),
   * each shortcut opened into the simple edges it stands for.
   */
  private routeFrom(graph: SubgoalGraph, levels: SubgoalLevels, start: number, goal: number, n: number): void {
    const parent = this.scratch.parent;
    let k = 0;
    for (let u = parent[n + 1]; u !== -1; u = parent[u]) k = this.nodes.push(k, u);
    this.nodes.cells.subarray(0, k).reverse();
    for (let u = this.next[this.nodes.cells[k - 1]]; u !== n + 1; u = this.next[u]) k = this.nodes.push(k, u);
    const nodes = this.nodes.cells;
    this.routeLength = 0;
    this.push(start);
    for (let i = 1; i < k; i++) {
      if (nodes[i - 1] === n) this.push(graph.cellOf[nodes[i]]);
      else this.open(levels, nodes[i - 1], nodes[i], graph);
    }
    if (this.routeList.cells[this.routeLength - 1] !== goal) this.push(goal);
    this.routeList.cells.subarray(0, this.routeLength).reverse();
  }

  /** Appends the subgoals from subgoal `a` (excluded) to `b` (included) as padded cells, shortcuts opened. */
  private open(levels: SubgoalLevels, a: number, b: number, graph: SubgoalGraph): void {
    const m = levels.middle(a, b);
    if (m < 0) this.push(graph.cellOf[b]);
    else {
      this.open(levels, a, m, graph);
      this.open(levels, m, b, graph);
    }
  }

  private push(cell: number): void {
    this.routeLength = this.routeList.push(this.routeLength, cell);
  }


}

/** The octile distance of (dx, dy) in steps (straight 1, diagonal sqrt 2). */
function octileUnits(dx: number, dy: number): number {
  const ax = dx < 0 ? -dx : dx;
  const ay = dy < 0 ? -dy : dy;
  return ax > ay ? ax + K * ay : ay + K * ax;
}
