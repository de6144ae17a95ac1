/**
 * The search kernel: per-node search state that every search reuses across queries.
 *
 * A search marks a node "open" (queued, cost known so far) by writing the current generation into
 * its stamp, and "closed" (settled) by writing generation + 1. A new search takes a new generation
 * instead of clearing the arrays, so starting a query costs nothing per node. After about two
 * billion searches the counter would overflow: then the stamps are cleared once and counting starts
 * over. That wrap is written here and nowhere else.
 */
import { NodeHeap } from './heap.js';

const LAST_GENERATION = 0xfffffff0;

/** Generation stamps alone, for searches that keep their costs elsewhere (or need none). */
export class Stamps {
  readonly stamp: Uint32Array;
  /** The open stamp of the current search; its closed stamp is one more. 0 before the first. */
  generation = 0;

  constructor(size: number) {
    this.stamp = new Uint32Array(size);
  }

  /** Starts a new search: returns its open stamp (the closed one is that + 1). */
  next(): number {
    this.generation += 2;
    if (this.generation >= LAST_GENERATION) {
      this.stamp.fill(0);
      this.generation = 2;
    }
    return this.generation;
  }
}

/**
 * Cost so far (`g`), parent and stamp per node, and the open list, for node ids `0 .. size - 1`
 * (padded cell indices for grid searches, compact ids for the hierarchy's, caller ids for graphs).
 * Memory: 16 bytes per node, plus 4 per node of heap positions and 20 per queued node.
 */
export class SearchScratch extends Stamps {
  readonly size: number;
  readonly g: Float64Array;
  readonly parent: Int32Array;
  readonly heap: NodeHeap;

  /** @param withHeap false for searches that bring their own queue (a bucket queue). */
  constructor(size: number, withHeap = true) {
    super(size);
    this.size = size;
    this.g = new Float64Array(size);
    this.parent = new Int32Array(size);
    this.heap = new NodeHeap(withHeap ? size : 1);
  }

  /** Bytes held: costs, parents, stamps and the open list as it has grown. */
  get bytes(): number {
    return this.g.byteLength + this.parent.byteLength + this.stamp.byteLength + this.heap.bytes;
  }

  /** Starts a new search with an empty open list; returns its open stamp. */
  begin(): number {
    this.heap.clear();
    return this.next();
  }

  /** Puts `node` at cost `g` with no parent, marked open in the current search (not queued). */
  place(node: number, g: number): void {
    this.g[node] = g;
    this.parent[node] = -1;
    this.stamp[node] = this.generation;
  }

  /** Starts a new search from `node` alone: placed at cost 0 and queued with key `f`. Returns the open stamp. */
  start(node: number, f = 0): number {
    const open = this.begin();
    this.place(node, 0);
    this.heap.push(node, f, 0);
    return open;
  }

  /**
   * Relaxes `node` to cost `ng` through `from` in a best-first search: queues it with key `ng + h`
   * when new, lowers its key when `ng` improves on its cost, and leaves it when closed or no better.
   * For searches whose heuristic is a function of the node; hot loops inline this.
   */
  relax(node: number, ng: number, from: number, h: number): void {
    const open = this.generation;
    const s = this.stamp[node];
    if (s === open) {
      if (ng >= this.g[node]) return;
      this.g[node] = ng;
      this.parent[node] = from;
      this.heap.decrease(node, ng + h, ng);
    } else if (s !== open + 1) {
      this.g[node] = ng;
      this.parent[node] = from;
      this.stamp[node] = open;
      this.heap.push(node, ng + h, ng);
    }
  }

  /** Whether `node` was settled by the current search. */
  closed(node: number): boolean {
    return this.stamp[node] === this.generation + 1;
  }

  /**
   * The parent chain ending at `last`, first node first, each mapped through `toId` (for example
   * padded index to cell index). Fills `out` when it is long enough, else a new array.
   */
  path(last: number, toId: (node: number) => number, out?: Int32Array): Int32Array {
    const parent = this.parent;
    let len = 0;
    for (let p = last; p !== -1; p = parent[p]) len++;
    const nodes = out !== undefined && out.length >= len ? out.subarray(0, len) : new Int32Array(len);
    let k = len;
    for (let p = last; p !== -1; p = parent[p]) nodes[--k] = toId(p);
    return nodes;
  }
}

/**
 * How a search ended. `reached`: the goal was settled (its cost is `g[goal]`, its path the parent
 * chain). `limited`: the expansion limit stopped it first. Neither: the open list ran dry (no path).
 */
export interface SearchOutcome {
  reached: boolean;
  expanded: number;
  limited: boolean;
}

/** A fresh outcome object; searches fill one in place so that a query allocates none. */
export function outcome(reached = false, expanded = 0, limited = false): SearchOutcome {
  return { reached, expanded, limited };
}

/** Writes how a search ended into `out` and returns it. */
export function report(out: SearchOutcome, reached: boolean, expanded: number, limited: boolean): SearchOutcome {
  out.reached = reached;
  out.expanded = expanded;
  out.limited = limited;
  return out;
}
