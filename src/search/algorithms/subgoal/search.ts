/**
 * The search on a simple subgoal graph (graph.ts): the start and goal joined to the subgoals they
 * reach directly, A* over the graph with the larger of the octile distance and the landmarks'
 * bounds, skipping turns no shortest path takes ({@link BENDS}), and each edge of the answer
 * walked back into cells. Also the graphs a grid keeps, one per layer, dropped by any change to their
 * layer until `prepare` or an explicit query builds them again.
 */
import type { Derived, MemoryEntry, NavGrid, SearchView } from '../../../grid/navgrid.js';
import { OCTILE_K } from '../../../grid/padded.js';
import { report, type SearchOutcome, type SearchScratch } from '../../kernel/scratch.js';
import { BENDS, Scan, SubgoalGraph, diagonalFirstOpen, writeSegment } from './graph.js';

const K = OCTILE_K;
/** Landmark bounds are differences of sums rounded differently: lowered by this much they never overestimate. */
const BOUND_EPS = 1e-9;

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
 * A Pathfinder's search on subgoal graphs: its scans' lists and the goal's marks, reused across
 * queries; the costs, parents and open list are the Pathfinder's search scratch (node ids: the
 * subgoals, then the start, then the goal).
 */
export class SubgoalSearch {
  private readonly scratch: SearchScratch;
  private readonly scan = new Scan();
  /** The subgoals the goal reaches directly, marked with the current search's stamp. */
  private goalMarks = new Uint32Array(0);
  private lastOpen = 0;
  /** The goal's distance from each landmark. */
  private goalFar = new Float64Array(0);
  /** The last path's graph nodes as padded cells, goal first. */
  private route = new Int32Array(16);
  private routeLength = 0;
  /** Edges the last search looked at (its work, beside `expanded`; 0 when it needed no graph search). */
  scanned = 0;
  /** The padded row length of the last search's graph. */
  private stride = 0;

  constructor(scratch: SearchScratch) {
    this.scratch = scratch;
  }

  /** Bytes held besides the Pathfinder's scratch. */
  get bytes(): number {
    return this.scan.cells.byteLength + this.goalMarks.byteLength + this.goalFar.byteLength + this.route.byteLength;
  }

  /**
   * Searches `graph` (built on `pass`, unchanged since) from padded cell `start` to `goal`
   * (distinct, open, in one component or not). Fills `out` (`expanded`: graph nodes expanded) and
   * returns the path's length in octile units, Infinity when none; {@link cells} then writes it.
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
    // Reached without a bend: the straight-line distance, and no search.
    if (diagonalFirstOpen(pass, W, start, goal)) {
      this.setRoute(goal, start);
      report(out, true, 0, false);
      return octileUnits(gx - sx, gy - sy);
    }
    const n = graph.count;
    const idOf = graph.idOf;
    const xs = graph.xs;
    const ys = graph.ys;
    const first = graph.first;
    const to = graph.to;
    const moves = graph.moves;
    const around = graph.around;
    const bends = BENDS;
    const S = idOf[start] >= 0 ? idOf[start] : n;
    const G = idOf[goal] >= 0 ? idOf[goal] : n + 1;
    const scratch = this.scratch;
    const { g, parent, stamp, heap } = scratch;
    const open = scratch.begin();
    const closed = open + 1;
    // The goal's landmark distances: a subgoal's own, else through the subgoals it reaches directly
    // (the last leg of every path to it starts at one of them), filled in below.
    const L = graph.landmarks;
    const far = graph.far;
    if (this.goalFar.length < L) this.goalFar = new Float64Array(L);
    const gl = this.goalFar;
    if (G < n) for (let i = 0; i < L; i++) gl[i] = far[G * L + i];
    else gl.fill(Infinity);
    // The goal's directly reached subgoals: relaxing one also relaxes the goal.
    if (G === n + 1) {
      if (this.goalMarks.length < n) this.goalMarks = new Uint32Array(Math.max(n, this.goalMarks.length * 2));
      // The scratch's stamps started over (after about two billion searches): so do the marks.
      if (open < this.lastOpen) this.goalMarks.fill(0);
      this.lastOpen = open;
      const k = graph.reach(pass, goal, this.scan);
      for (let j = 0; j < k; j++) {
        const t = idOf[this.scan.cells[j]];
        this.goalMarks[t] = open;
        const d = octileUnits(xs[t] - gx, ys[t] - gy);
        for (let i = 0; i < L; i++) {
          const via = far[t * L + i] + d;
          if (via < gl[i]) gl[i] = via;
        }
      }
      if (k === 0) {
        report(out, false, 0, false);
        return Infinity;
      }
    }
    const marks = this.goalMarks;
    g[S] = 0;
    parent[S] = -1;
    stamp[S] = open;
    heap.push(S, octileUnits(gx - sx, gy - sy), 0);
    let expanded = 0;
    let scanned = 0;
    while (heap.size > 0) {
      const u = heap.pop();
      if (u === G) {
        stamp[u] = closed;
        this.scanned = scanned;
        report(out, true, expanded, false);
        this.routeFrom(graph, u, start, goal, n);
        return g[u];
      }
      if (expanded >= maxIterations) {
        report(out, false, expanded, true);
        return Infinity;
      }
      stamp[u] = closed;
      expanded++;
      const gu = g[u];
      const ux = u < n ? xs[u] : sx;
      const uy = u < n ? ys[u] : sy;
      // The moves the path may have entered u with (one, or a diagonal and a straight one), from
      // its parent: successors every such path would turn to the long way round are skipped.
      const pu = parent[u];
      let a1 = -1;
      let a2 = -1;
      let base = 0;
      if (pu !== -1) {
        const ax = ux - (pu < n ? xs[pu] : sx);
        const ay = uy - (pu < n ? ys[pu] : sy);
        const ex = ax > 0 ? 1 : ax < 0 ? -1 : 0;
        const ey = ay > 0 ? 1 : ay < 0 ? -1 : 0;
        a1 = (ey + 1) * 3 + ex + 1;
        const mx = ax * ex;
        const my = ay * ey;
        if (mx !== my && mx !== 0 && my !== 0) a2 = mx > my ? 3 + ex + 1 : (ey + 1) * 3 + 1;
        base = around[u] * 81;
      }
      // The start's edges are its scan's (it has no parent, so no turn to skip); a subgoal's are
      // the graph's, with their moves.
      const fromStart = u === n;
      const lo = fromStart ? 0 : first[u];
      const hi = fromStart ? graph.reach(pass, start, this.scan) : first[u + 1];
      const cells = this.scan.cells;
      scanned += hi - lo;
      for (let e = lo; e < hi; e++) {
        let v: number;
        if (fromStart) v = idOf[cells[e]];
        else {
          v = to[e];
          if (a1 >= 0) {
            const mv = moves[e];
            const b1 = mv & 15;
            const b2 = (mv >> 4) - 1;
            let skip = bends[base + a1 * 9 + b1] === 1;
            if (skip && b2 >= 0) skip = bends[base + a1 * 9 + b2] === 1;
            if (skip && a2 >= 0) skip = bends[base + a2 * 9 + b1] === 1 && (b2 < 0 || bends[base + a2 * 9 + b2] === 1);
            if (skip) continue;
          }
        }
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
        // The landmarks' bounds, both ways (a NaN, from two Infinity distances, compares false).
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
      // A subgoal the goal reaches directly: the goal through it.
      if (u < n && G === n + 1 && marks[u] === open) {
        let ax = gx - ux;
        let ay = gy - uy;
        if (ax < 0) ax = -ax;
        if (ay < 0) ay = -ay;
        const ng = gu + (ax > ay ? ax + K * ay : ay + K * ax);
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
      const a = this.route[k];
      const b = this.route[k - 1];
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
    const route = this.route;
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
    this.route[0] = goal;
    this.route[1] = start;
    this.routeLength = 2;
  }

  /** Records the graph path ending at node `last` as padded cells, goal first. */
  private routeFrom(graph: SubgoalGraph, last: number, start: number, goal: number, n: number): void {
    const parent = this.scratch.parent;
    let len = 0;
    for (let u = last; u !== -1; u = parent[u]) {
      if (len === this.route.length) {
        const grown = new Int32Array(len * 2);
        grown.set(this.route);
        this.route = grown;
      }
      this.route[len++] = u < n ? graph.cellOf[u] : u === n ? start : goal;
    }
    this.routeLength = len;
  }
}

/** The octile distance of (dx, dy) in steps (straight 1, diagonal sqrt 2). */
function octileUnits(dx: number, dy: number): number {
  const ax = dx < 0 ? -dx : dx;
  const ay = dy < 0 ? -dy : dy;
  return ax > ay ? ax + K * ay : ay + K * ax;
}
