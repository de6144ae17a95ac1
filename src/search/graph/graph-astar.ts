import { TilenavError, describe } from '../../errors.js';
import { SearchScratch } from '../kernel/scratch.js';
import type { PathStatus } from '../result.js';

/**
 * Any graph, for a pluggable A*: nodes are the integers 0..nodeCount-1 (map your own ids
 * onto them), edges come from a callback so no neighbour array is allocated per node.
 */
export interface Graph {
  /** Number of nodes: ids are 0..nodeCount-1. */
  readonly nodeCount: number;
  /** Calls `visit(next, cost)` for each edge out of `node`; costs must be finite and >= 0. */
  neighbours(node: number, visit: (next: number, cost: number) => void): void;
  /**
   * A lower bound of the cost from `node` to `goal` (the heuristic). Omit it for Dijkstra. An
   * estimate that overshoots makes the result not optimal.
   */
  estimate?(node: number, goal: number): number;
}

/** Options of {@link GraphAStar.findPath} and {@link aStarGraph}. */
export interface GraphSearchOptions {
  /** Nodes to expand before giving up with `limit-reached`. @default Infinity */
  maxIterations?: number;
  /** Heuristic weight; > 1 trades optimality for speed (cost at most weight x optimal). @default 1 */
  weight?: number;
}

/** The answer of a graph search; "no path" is a status, not an error. */
export interface GraphPathResult {
  /** 'found', 'no-path', 'limit-reached', 'invalid-start' or 'invalid-goal'. */
  status: PathStatus;
  /** Node ids from start to goal inclusive; empty unless found. */
  nodes: Int32Array;
  /** Sum of the path's edge costs; 0 when start is goal, Infinity unless found. */
  cost: number;
  /** Nodes expanded by the search. */
  expanded: number;
}

const EMPTY = new Int32Array(0);
const identity = (node: number): number => node;

/**
 * A* over a caller's graph, holding its search scratch (about 20 bytes per node, sized by the
 * graph's `nodeCount` and regrown when a larger graph comes) so repeated queries allocate only
 * their result. Not re-entrant: do not search from inside a graph's own callbacks.
 */
export class GraphAStar {
  private scratch: SearchScratch | null = null;

  /**
   * The cheapest path from node `start` to node `goal` of `graph`. Start or goal outside
   * 0..nodeCount-1 (or not integers) give `invalid-start` / `invalid-goal`; an edge to a node out of
   * range or with a cost that is not a finite number >= 0 throws.
   */
  findPath(graph: Graph, start: number, goal: number, options: GraphSearchOptions = {}): GraphPathResult {
    const n = graph.nodeCount;
    if (!Number.isInteger(n) || n < 0) throw new TilenavError(`expected a whole number, got ${describe(n)}`, { element: 'graph.nodeCount' });
    const maxIterations = options.maxIterations ?? Infinity;
    const weight = options.weight ?? 1;
    if (!(maxIterations >= 0)) throw new TilenavError(`expected a number >= 0, got ${describe(maxIterations)}`, { element: 'maxIterations' });
    if (!(weight >= 0) || !Number.isFinite(weight)) throw new TilenavError(`expected a finite number >= 0, got ${describe(weight)}`, { element: 'weight' });
    if (!Number.isInteger(start) || start < 0 || start >= n) return { status: 'invalid-start', nodes: EMPTY, cost: Infinity, expanded: 0 };
    if (!Number.isInteger(goal) || goal < 0 || goal >= n) return { status: 'invalid-goal', nodes: EMPTY, cost: Infinity, expanded: 0 };
    if (start === goal) return { status: 'found', nodes: Int32Array.of(start), cost: 0, expanded: 0 };
    let s = this.scratch;
    if (s === null || s.size < n) s = this.scratch = new SearchScratch(n);
    return run(s, graph, n, start, goal, maxIterations, weight);
  }
}

/**
 * A* over a caller's graph, once: `new GraphAStar().findPath(...)`. That allocates the search
 * scratch, about 20 bytes per node: keep a {@link GraphAStar} to reuse it across queries.
 */
export function aStarGraph(graph: Graph, start: number, goal: number, options: GraphSearchOptions = {}): GraphPathResult {
  return new GraphAStar().findPath(graph, start, goal, options);
}

function run(s: SearchScratch, graph: Graph, n: number, start: number, goal: number, maxIterations: number, weight: number): GraphPathResult {
  const { g, parent, stamp, heap } = s;
  const h = graph.estimate === undefined || weight === 0 ? () => 0 : (node: number) => weight * graph.estimate!(node, goal);
  const open = s.start(start, h(start));
  const closed = open + 1;
  let cur = -1;
  const visit = (next: number, cost: number): void => {
    if (!Number.isInteger(next) || next < 0 || next >= n) throw new TilenavError(`neighbour ${describe(next)} of node ${cur} is not a node id 0..${n - 1}`, { element: 'graph.neighbours' });
    if (!(cost >= 0) || !Number.isFinite(cost)) throw new TilenavError(`edge ${cur} -> ${next} has cost ${describe(cost)}; expected a finite number >= 0`, { element: 'graph.neighbours' });
    const ng = g[cur] + cost;
    const st = stamp[next];
    if (st === open) {
      if (ng < g[next]) {
        g[next] = ng;
        parent[next] = cur;
        heap.decrease(next, ng + h(next), ng);
      }
    } else if (st !== closed) {
      g[next] = ng;
      parent[next] = cur;
      stamp[next] = open;
      heap.push(next, ng + h(next), ng);
    }
  };
  let expanded = 0;
  while (heap.size > 0) {
    cur = heap.pop();
    stamp[cur] = closed;
    if (cur === goal) break;
    if (expanded >= maxIterations) return { status: 'limit-reached', nodes: EMPTY, cost: Infinity, expanded };
    expanded++;
    graph.neighbours(cur, visit);
  }
  if (stamp[goal] !== closed) return { status: 'no-path', nodes: EMPTY, cost: Infinity, expanded };
  return { status: 'found', nodes: s.path(goal, identity), cost: g[goal], expanded };
}
