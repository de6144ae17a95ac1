import { TilenavError, describe } from '../../errors.js';
import { SearchScratch } from '../kernel/scratch.js';
import type { PathStatus } from '../result.js';
import { runStep, stepBudget, type PathSearchState, type StepOptions } from '../step.js';

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
  /** Scratch of searches spread over frames that have finished, for the next {@link begin} (two at most). */
  private readonly idle: SearchScratch[] = [];

  /**
   * The cheapest path from node `start` to node `goal` of `graph`. Start or goal outside
   * 0..nodeCount-1 (or not integers) give `invalid-start` / `invalid-goal`; an edge to a node out of
   * range or with a cost that is not a finite number >= 0 throws.
   */
  findPath(graph: Graph, start: number, goal: number, options: GraphSearchOptions = {}): GraphPathResult {
    const q = checkGraphQuery(graph, start, goal, options);
    if (q.answer !== null) return q.answer;
    let s = this.scratch;
    if (s === null || s.size < q.n) s = this.scratch = new SearchScratch(q.n);
    const run = new GraphRun(s, graph, q.n, start, goal, q.maxIterations, q.weight);
    run.advance(Infinity);
    return run.answer!;
  }

  /**
   * Begins the same search as {@link findPath}, to spread over frames: the same checks (the same
   * TilenavError for the same mistake), answered a slice at a time by {@link GraphSearch.step},
   * with findPath's answer (the same nodes, cost and `expanded`) whatever the slices. Each running
   * search holds a scratch of its own (about 20 bytes per node), borrowed from this GraphAStar and
   * given back when it answers or is cancelled. The graph must not change while the search runs:
   * after a change, cancel it and begin again.
   */
  begin(graph: Graph, start: number, goal: number, options: GraphSearchOptions = {}): GraphSearch {
    const q = checkGraphQuery(graph, start, goal, options);
    return GraphSearch.begin(this, graph, start, goal, q);
  }

  /** A scratch of at least `n` nodes for a search spread over frames. @internal */
  borrow(n: number): SearchScratch {
    const k = this.idle.findIndex((s) => s.size >= n);
    return k >= 0 ? this.idle.splice(k, 1)[0] : new SearchScratch(n);
  }

  /** Takes back a finished search's scratch. @internal */
  giveBack(s: SearchScratch): void {
    if (this.idle.length < 2) this.idle.push(s);
  }
}

/**
 * One graph search answered over several frames: made by {@link GraphAStar.begin}, advanced by
 * {@link step}, answered in {@link result}.
 */
export class GraphSearch {
  private readonly owner: GraphAStar;
  private run: GraphRun | null = null;
  private answer: GraphPathResult | null;
  private cancelled = false;

  /** Made by {@link GraphAStar.begin}, which has checked the query. @internal */
  static begin(owner: GraphAStar, graph: Graph, start: number, goal: number, q: GraphQuery): GraphSearch {
    return new GraphSearch(owner, graph, start, goal, q);
  }

  /** Searches are begun by {@link GraphAStar.begin}. */
  private constructor(owner: GraphAStar, graph: Graph, start: number, goal: number, q: GraphQuery) {
    this.owner = owner;
    this.answer = q.answer;
    if (q.answer === null) this.run = new GraphRun(owner.borrow(q.n), graph, q.n, start, goal, q.maxIterations, q.weight);
  }

  /** `running` until {@link step} returns the answer (`done`), or {@link cancel} (`cancelled`). */
  get state(): PathSearchState {
    return this.cancelled ? 'cancelled' : this.answer !== null ? 'done' : 'running';
  }

  /** The answer once the search is done (the one {@link step} returned), else null. */
  get result(): GraphPathResult | null {
    return this.cancelled ? null : this.answer;
  }

  /** Nodes expanded so far (what `result.expanded` counts once done). */
  get expanded(): number {
    return this.answer !== null ? this.answer.expanded : this.run === null ? 0 : this.run.expanded;
  }

  /** Bytes this search holds now: its scratch while running, 0 once done or cancelled. */
  get bytes(): number {
    return this.run === null ? 0 : this.run.scratch.bytes;
  }

  /**
   * Runs the search on: up to `maxExpansions` expansions, or until `budgetMs` milliseconds have
   * passed, whichever comes first (neither: to the end), at least one expansion. Returns the
   * answer when the search is done (then every later call returns it again, doing nothing), or
   * null while it is not. Throws a TilenavError naming the option for a budget out of range
   * (`maxExpansions` a whole number >= 1, `budgetMs` a number >= 0; both may be Infinity), and
   * one naming `search` after {@link cancel}; an edge out of range throws as in findPath. After a
   * throw from the graph's callbacks, the search can go on: the next step expands that node again.
   */
  step(options: StepOptions = {}): GraphPathResult | null {
    const { maxExpansions, until } = stepBudget(options);
    if (this.cancelled) throw new TilenavError('this search was cancelled: begin another one', { element: 'search' });
    if (this.answer !== null) return this.answer;
    const run = this.run!;
    runStep(maxExpansions, until, (slice) => run.advance(slice), () => run.answer !== null);
    if (run.answer === null) return null;
    this.answer = run.answer;
    this.release();
    return this.answer;
  }

  /** Stops the search and gives its scratch back; `result` is null after it. Does nothing once done. */
  cancel(): void {
    if (this.answer !== null || this.cancelled) return;
    this.cancelled = true;
    this.release();
  }

  private release(): void {
    if (this.run !== null) this.owner.giveBack(this.run.scratch);
    this.run = null;
  }
}

/**
 * A* over a caller's graph, once: `new GraphAStar().findPath(...)`. That allocates the search
 * scratch, about 20 bytes per node: keep a {@link GraphAStar} to reuse it across queries.
 */
export function aStarGraph(graph: Graph, start: number, goal: number, options: GraphSearchOptions = {}): GraphPathResult {
  return new GraphAStar().findPath(graph, start, goal, options);
}

/** A graph question, checked: its sizes and limits, and its answer when it needs no search. @internal */
export interface GraphQuery {
  n: number;
  maxIterations: number;
  weight: number;
  answer: GraphPathResult | null;
}

/** The checks every graph door makes, in one place: the same TilenavError for the same mistake. */
function checkGraphQuery(graph: Graph, start: number, goal: number, options: GraphSearchOptions): GraphQuery {
  const n = graph.nodeCount;
  if (!Number.isInteger(n) || n < 0) throw new TilenavError(`expected a whole number, got ${describe(n)}`, { element: 'graph.nodeCount' });
  const maxIterations = options.maxIterations ?? Infinity;
  const weight = options.weight ?? 1;
  if (!(maxIterations >= 0)) throw new TilenavError(`expected a number >= 0, got ${describe(maxIterations)}`, { element: 'maxIterations' });
  if (!(weight >= 0) || !Number.isFinite(weight)) throw new TilenavError(`expected a finite number >= 0, got ${describe(weight)}`, { element: 'weight' });
  let answer: GraphPathResult | null = null;
  if (!Number.isInteger(start) || start < 0 || start >= n) answer = { status: 'invalid-start', nodes: EMPTY, cost: Infinity, expanded: 0 };
  else if (!Number.isInteger(goal) || goal < 0 || goal >= n) answer = { status: 'invalid-goal', nodes: EMPTY, cost: Infinity, expanded: 0 };
  else if (start === goal) answer = { status: 'found', nodes: Int32Array.of(start), cost: 0, expanded: 0 };
  return { n, maxIterations, weight, answer };
}

/** One A* run on a scratch, resumable: {@link advance} expands a slice of nodes at a time. */
class GraphRun {
  readonly scratch: SearchScratch;
  expanded = 0;
  answer: GraphPathResult | null = null;
  private readonly graph: Graph;
  private readonly goal: number;
  private readonly maxIterations: number;
  private readonly h: (node: number) => number;
  private readonly open: number;
  private readonly closed: number;
  private cur = -1;
  private readonly visit: (next: number, cost: number) => void;

  constructor(s: SearchScratch, graph: Graph, n: number, start: number, goal: number, maxIterations: number, weight: number) {
    this.scratch = s;
    this.graph = graph;
    this.goal = goal;
    this.maxIterations = maxIterations;
    const h = (this.h = graph.estimate === undefined || weight === 0 ? () => 0 : (node: number) => weight * graph.estimate!(node, goal));
    const open = (this.open = s.start(start, h(start)));
    const closed = (this.closed = open + 1);
    const { g, parent, stamp, heap } = s;
    this.visit = (next: number, cost: number): void => {
      const cur = this.cur;
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
  }

  /** Expands up to `slice` nodes and returns how many; the answer is in {@link answer} once found. */
  advance(slice: number): number {
    const { g, stamp, heap } = this.scratch;
    const { graph, goal, closed, visit } = this;
    for (let k = 0; k < slice; k++) {
      if (heap.size === 0) {
        this.answer = { status: 'no-path', nodes: EMPTY, cost: Infinity, expanded: this.expanded };
        return k;
      }
      const cur = (this.cur = heap.pop());
      stamp[cur] = closed;
      if (cur === goal) {
        this.answer = { status: 'found', nodes: this.scratch.path(goal, identity), cost: g[goal], expanded: this.expanded };
        return k;
      }
      if (this.expanded >= this.maxIterations) {
        this.answer = { status: 'limit-reached', nodes: EMPTY, cost: Infinity, expanded: this.expanded };
        return k;
      }
      this.expanded++;
      try {
        graph.neighbours(cur, visit);
      } catch (e) {
        // The graph threw (or an edge was refused) part way through the node's edges: put the
        // node back on the open list, so a later step expands it again from the start. Edges
        // already relaxed stay relaxed, and relaxing them again changes nothing.
        this.expanded--;
        stamp[cur] = this.open;
        heap.push(cur, g[cur] + this.h(cur), g[cur]);
        throw e;
      }
    }
    return slice;
  }
}
