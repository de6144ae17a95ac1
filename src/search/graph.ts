import { TilenavError, describe } from '../errors.js';
import { NodeHeap } from './heap.js';

/**
 * Any graph, for seed 002's pluggable A*: nodes are the integers 0..nodeCount-1 (map your own ids
 * onto them), edges come from a callback so no neighbour array is allocated per node.
 */
export interface Graph {
  readonly nodeCount: number;
  /** Calls `visit(next, cost)` for each edge out of `node`; costs must be finite and >= 0. */
  neighbours(node: number, visit: (next: number, cost: number) => void): void;
  /**
   * A lower bound of the cost from `node` to `goal` (the heuristic). Omit it for Dijkstra. An
   * estimate that overshoots makes the result not optimal.
   */
  estimate?(node: number, goal: number): number;
}

export interface GraphSearchOptions {
  /** @default Infinity */
  maxIterations?: number;
  /** Heuristic weight; > 1 trades optimality for speed (cost at most weight x optimal). @default 1 */
  weight?: number;
}

export interface GraphPathResult {
  status: 'found' | 'no-path' | 'limit-reached' | 'invalid-start' | 'invalid-goal';
  /** Node ids from start to goal inclusive. */
  nodes: Int32Array;
  cost: number;
  expanded: number;
}

class Scratch {
  readonly g: Float64Array;
  readonly parent: Int32Array;
  readonly stamp: Uint32Array;
  readonly heap: NodeHeap;
  gen = 0;
  constructor(n: number) {
    this.g = new Float64Array(n);
    this.parent = new Int32Array(n);
    this.stamp = new Uint32Array(n);
    this.heap = new NodeHeap(n);
  }
}

const scratches = new WeakMap<Graph, Scratch>();
const EMPTY = new Int32Array(0);

/**
 * A* over a caller's graph. Search scratch is kept per graph object and reused across queries.
 * Not re-entrant: do not search the same graph from inside its own callbacks.
 */
export function aStarGraph(graph: Graph, start: number, goal: number, options: GraphSearchOptions = {}): GraphPathResult {
  const n = graph.nodeCount;
  if (!Number.isInteger(n) || n < 0) throw new TilenavError(`expected a whole number, got ${describe(n)}`, { element: 'graph.nodeCount' });
  const maxIterations = options.maxIterations ?? Infinity;
  const weight = options.weight ?? 1;
  if (!(maxIterations >= 0)) throw new TilenavError(`expected a number >= 0, got ${describe(maxIterations)}`, { element: 'maxIterations' });
  if (!(weight >= 0) || !Number.isFinite(weight)) throw new TilenavError(`expected a finite number >= 0, got ${describe(weight)}`, { element: 'weight' });
  if (!Number.isInteger(start) || start < 0 || start >= n) return { status: 'invalid-start', nodes: EMPTY, cost: Infinity, expanded: 0 };
  if (!Number.isInteger(goal) || goal < 0 || goal >= n) return { status: 'invalid-goal', nodes: EMPTY, cost: Infinity, expanded: 0 };
  if (start === goal) return { status: 'found', nodes: Int32Array.of(start), cost: 0, expanded: 0 };

  let s = scratches.get(graph);
  if (s === undefined || s.g.length !== n) {
    s = new Scratch(n);
    scratches.set(graph, s);
  }
  s.gen += 2;
  if (s.gen >= 0xfffffff0) {
    s.stamp.fill(0);
    s.gen = 2;
  }
  const open = s.gen;
  const closed = open + 1;
  const { g, parent, stamp, heap } = s;
  const h = graph.estimate === undefined || weight === 0 ? () => 0 : (node: number) => weight * graph.estimate!(node, goal);
  heap.clear();
  g[start] = 0;
  parent[start] = -1;
  stamp[start] = open;
  heap.push(start, h(start), 0);
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
  let len = 0;
  for (let p = goal; p !== -1; p = parent[p]) len++;
  const nodes = new Int32Array(len);
  for (let p = goal, k = len; p !== -1; p = parent[p]) nodes[--k] = p;
  return { status: 'found', nodes, cost: g[goal], expanded };
}
