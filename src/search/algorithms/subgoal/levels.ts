/**
 * Levels over a simple subgoal graph (graph.ts), after Uras and Koenig's two-level and N-level
 * subgoal graphs: subgoals are taken out of the graph one at a time, fewest edges first, where
 * that keeps every distance between the subgoals left; the rest (the core) stays as it was.
 *
 * Taking out s can only lengthen a shortest path that ran p - s - q between two of its remaining
 * neighbours. Such a pair needs nothing when the path turns at s the long way round (the turn
 * table {@link BENDS} says a shorter path exists, so p - s - q was never a shortest one); when the
 * path through s is as short as the octile distance from p to q, an edge p - q "via s" replaces it
 * (a shortcut) unless an edge or a path through one common neighbour is as short; any other pair
 * (a path that bends round the corner at s) keeps s in the core. Every edge, shortcut or not,
 * spans its octile distance, so the octile heuristic stays consistent over the levels, and an
 * edge walks back into cells through its middle subgoals. On open maps most subgoals go; in mazes
 * most stay.
 *
 * A query (search.ts) goes up from its start (to subgoals taken out later, or into the core),
 * across the core, and down to its goal (the subgoals above the goal are found first, by a small
 * search up from it). Distances between remaining subgoals never change as subgoals go, so the
 * shortest path is found (the argument of contraction hierarchies, with the core on top).
 */
import { NodeHeap } from '../../kernel/heap.js';
import { OCTILE_K } from '../../../grid/padded.js';
import { BENDS, type SubgoalGraph } from './graph.js';

/** A subgoal whose removal would add more shortcuts than this stays in the core (keeps the graph sparse). */
const MAX_SHORTCUTS = 6;
/** Nodes a witness search (a path round a subgoal as short as the one through it) may settle before it gives up. */
const WITNESS_SETTLED = 24;
/** Tolerance of the length comparisons (sums of straight and diagonal steps rounded differently). */
const EPS = 1e-9;

/** The levels of one subgoal graph: which subgoals are in the core, and each subgoal's upward edges. */
export class SubgoalLevels {
  /** 1 for a core subgoal, 0 for one taken out. */
  readonly core: Uint8Array;
  /**
   * Upward edges: a subgoal taken out keeps its edges to the subgoals still there when it went, a
   * core subgoal its edges to the other core ones; `to[first[u] .. first[u + 1] - 1]`.
   */
  readonly first: Int32Array;
  readonly to: Int32Array;
  /** Each edge's middle subgoal, -1 for an edge of the simple graph (walked diagonal steps first from one end). */
  readonly via: Int32Array;
  /** The order subgoals were taken out in (0 first), the subgoal count for core ones: every upward edge goes to a higher rank or within the core. */
  readonly rank: Int32Array;
  /** How many subgoals are in the core. */
  readonly coreCount: number;
  /** Shortcuts added. */
  readonly shortcuts: number;
  /** Build time in milliseconds. */
  readonly buildMs: number;

  /** @param first @param to the simple graph's edges: subgoal u's are `to[first[u] .. first[u + 1] - 1]`. */
  constructor(graph: SubgoalGraph, first: Int32Array, to: Int32Array) {
    const t0 = performance.now();
    const n = graph.count;
    const xs = graph.xs;
    const ys = graph.ys;
    const len = (a: number, b: number): number => {
      let ax = xs[a] - xs[b];
      let ay = ys[a] - ys[b];
      if (ax < 0) ax = -ax;
      if (ay < 0) ay = -ay;
      return ax > ay ? ax + OCTILE_K * ay : ay + OCTILE_K * ax;
    };
    // The working graph, undirected, without repeated edges (the scan may find a pair one way
    // only); built once per map, so plain lists per subgoal.
    const adj: number[][] = [];
    const mid: number[][] = [];
    for (let u = 0; u < n; u++) {
      adj.push([]);
      mid.push([]);
    }
    const mark = new Int32Array(n).fill(-1);
    for (let u = 0; u < n; u++) {
      for (let e = first[u]; e < first[u + 1]; e++) {
        const v = to[e];
        adj[u].push(v);
        adj[v].push(u);
      }
    }
    for (let u = 0; u < n; u++) {
      const list = adj[u];
      let k = 0;
      for (const v of list) {
        if (mark[v] === u || v === u) continue;
        mark[v] = u;
        list[k++] = v;
        mid[u].push(-1);
      }
      list.length = k;
    }
    const alive = new Uint8Array(n).fill(1);
    const rank = new Int32Array(n).fill(n);
    let taken = 0;
    const upTo: number[][] = new Array<number[]>(n);
    const upVia: number[][] = new Array<number[]>(n);
    // Two-hop witnesses: a subgoal's neighbours marked with their distance from it.
    const near = new Float64Array(n);
    const nearMark = new Int32Array(n);
    let markNo = 0;
    // Witness searches: A* from p towards q without s, no farther than c, a few nodes at most.
    const wDist = new Float64Array(n);
    const wSeen = new Uint32Array(n);
    let wNo = 0;
    const wHeap = new NodeHeap(n);
    const witnessSearch = (p: number, q: number, s: number, c: number): boolean => {
      const bound = c * (1 + EPS) + EPS;
      wNo++;
      wHeap.clear();
      wDist[p] = 0;
      wSeen[p] = wNo;
      wHeap.push(p, len(p, q), 0);
      for (let settled = 0; wHeap.size > 0 && settled < WITNESS_SETTLED; settled++) {
        const u = wHeap.pop();
        if (u === q) return true;
        const du = wDist[u];
        const ul = adj[u];
        for (let k = 0; k < ul.length; k++) {
          const v = ul[k];
          if (v === s || alive[v] === 0) continue;
          const nd = du + len(u, v);
          const f = nd + len(v, q);
          if (f > bound) continue;
          if (wSeen[v] !== wNo) {
            wSeen[v] = wNo;
            wDist[v] = nd;
            wHeap.push(v, f, nd);
          } else if (nd < wDist[v]) {
            wDist[v] = nd;
            wHeap.decrease(v, f, nd);
          }
        }
      }
      return false;
    };
    const order = new NodeHeap(n);
    for (let u = 0; u < n; u++) order.push(u, adj[u].length, 0);
    const nb: number[] = [];
    const nbVia: number[] = [];
    const added: number[] = [];
    let shortcuts = 0;
    let coreCount = 0;
    while (order.size > 0) {
      const s = order.pop();
      nb.length = 0;
      nbVia.length = 0;
      const list = adj[s];
      for (let k = 0; k < list.length; k++) {
        if (alive[list[k]] === 1) {
          nb.push(list[k]);
          nbVia.push(mid[s][k]);
        }
      }
      added.length = 0;
      let keep = false;
      for (let i = 0; i < nb.length && !keep; i++) {
        const p = nb[i];
        const dp = len(p, s);
        let marked = false;
        for (let j = i + 1; j < nb.length; j++) {
          const q = nb[j];
          const c = dp + len(s, q);
          const h = len(p, q);
          const bend = c > h * (1 + EPS) + EPS;
          // A bend at s: harmless where the turn table shows a shorter way round (simple edges only).
          if (bend && nbVia[i] < 0 && nbVia[j] < 0 && looseTurn(graph, p, s, q)) continue;
          // Else an edge or a two-edge path as short, or for a straight path a shortcut.
          if (!marked) {
            marked = true;
            markNo++;
            const pl = adj[p];
            for (let k = 0; k < pl.length; k++) {
              const r = pl[k];
              if (alive[r] === 0 || r === s) continue;
              nearMark[r] = markNo;
              near[r] = len(p, r);
            }
          }
          if (nearMark[q] === markNo) continue;
          let witness = false;
          const ql = adj[q];
          for (let k = 0; k < ql.length && !witness; k++) {
            const r = ql[k];
            if (nearMark[r] === markNo && near[r] + len(r, q) <= c * (1 + EPS) + EPS) witness = true;
          }
          if (witness) continue;
          if (bend) {
            // Last, a short search for a path as short round s, before keeping s.
            if (WITNESS_SETTLED > 0 && witnessSearch(p, q, s, c)) continue;
            keep = true;
            break;
          }
          added.push(p, q);
          if (added.length > 2 * MAX_SHORTCUTS) {
            keep = true;
            break;
          }
        }
      }
      if (keep) {
        coreCount++;
        continue;
      }
      alive[s] = 0;
      rank[s] = taken++;
      upTo[s] = nb.slice();
      upVia[s] = nbVia.slice();
      for (let k = 0; k < added.length; k += 2) {
        const p = added[k];
        const q = added[k + 1];
        adj[p].push(q);
        mid[p].push(s);
        adj[q].push(p);
        mid[q].push(s);
        shortcuts++;
      }
    }
    // The core keeps its edges among itself.
    const core = new Uint8Array(n);
    let m = 0;
    for (let u = 0; u < n; u++) {
      if (alive[u] === 1) {
        core[u] = 1;
        upTo[u] = [];
        upVia[u] = [];
        for (let k = 0; k < adj[u].length; k++) {
          if (alive[adj[u][k]] === 1) {
            upTo[u].push(adj[u][k]);
            upVia[u].push(mid[u][k]);
          }
        }
      }
      m += upTo[u].length;
    }
    this.first = new Int32Array(n + 1);
    this.to = new Int32Array(m);
    this.via = new Int32Array(m);
    m = 0;
    for (let u = 0; u < n; u++) {
      this.first[u] = m;
      this.to.set(upTo[u], m);
      this.via.set(upVia[u], m);
      m += upTo[u].length;
    }
    this.first[n] = m;
    this.core = core;
    this.rank = rank;
    this.coreCount = coreCount;
    this.shortcuts = shortcuts;
    this.buildMs = performance.now() - t0;
  }

  /** Bytes held. */
  get bytes(): number {
    return this.core.byteLength + this.rank.byteLength + this.first.byteLength + this.to.byteLength + this.via.byteLength;
  }

  /** The middle subgoal of the edge between u and v (kept by whichever went first: the lower rank), -1 for a simple one. */
  middle(u: number, v: number): number {
    const a = this.rank[u] <= this.rank[v] ? u : v;
    const b = a === u ? v : u;
    for (let e = this.first[a]; e < this.first[a + 1]; e++) if (this.to[e] === b) return this.via[e];
    throw new Error(`subgoal levels: no edge between subgoals ${u} and ${v}`);
  }
}

/**
 * Whether every way the simple edges p - s and s - q can be walked turns at s the long way round
 * ({@link BENDS}): then no shortest path runs p - s - q. Each edge is walked diagonal steps first
 * from one of its ends, so it may enter (or leave) s with either of its two kinds of move.
 */
function looseTurn(graph: SubgoalGraph, p: number, s: number, q: number): boolean {
  const base = graph.around[s] * 81;
  const xs = graph.xs;
  const ys = graph.ys;
  const ax = xs[s] - xs[p];
  const ay = ys[s] - ys[p];
  const bx = xs[q] - xs[s];
  const by = ys[q] - ys[s];
  const a1 = moveCode(ax, ay, true);
  const a2 = moveCode(ax, ay, false);
  const b1 = moveCode(bx, by, true);
  const b2 = moveCode(bx, by, false);
  return BENDS[base + a1 * 9 + b1] === 1 && BENDS[base + a1 * 9 + b2] === 1 && BENDS[base + a2 * 9 + b1] === 1 && BENDS[base + a2 * 9 + b2] === 1;
}

/**
 * The code `(dy + 1) * 3 + dx + 1` of the diagonal (`diagonal`) or straight move of an octile
 * path spanning (ax, ay); the one move it has when it has one kind.
 */
function moveCode(ax: number, ay: number, diagonal: boolean): number {
  const ex = ax > 0 ? 1 : ax < 0 ? -1 : 0;
  const ey = ay > 0 ? 1 : ay < 0 ? -1 : 0;
  const mx = ax * ex;
  const my = ay * ey;
  if (diagonal || mx === my || mx === 0 || my === 0) return (ey + 1) * 3 + ex + 1;
  return mx > my ? 3 + ex + 1 : (ey + 1) * 3 + 1;
}
