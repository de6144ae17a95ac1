/**
 * TEMPORARY adapter, to be replaced by the rewritten jump point search module: presents today's
 * JumpPointSearch (../jps.ts) and the Pathfinder's search arrays through the interface the
 * hierarchy codes against (a kernel SearchScratch, searches that fill a SearchOutcome).
 * @internal
 */
import type { SearchView } from '../../grid/navgrid.js';
import type { NodeHeap } from '../heap.js';
import type { JumpPointSearch as CurrentJumpPointSearch, SearchScratch as PathfinderArrays, WalkBits } from '../jps.js';
import { SearchScratch, type SearchOutcome } from '../kernel.js';

/** A kernel SearchScratch over the Pathfinder's own arrays, taking its generations from the Pathfinder. */
class SharedScratch extends SearchScratch {
  private readonly owner: PathfinderArrays;

  constructor(owner: PathfinderArrays) {
    super(0, false);
    this.owner = owner;
    const self = this as unknown as { size: number; g: Float64Array; parent: Int32Array; stamp: Uint32Array; heap: NodeHeap };
    self.size = owner.g.length;
    self.g = owner.g;
    self.parent = owner.parent;
    self.stamp = owner.stamp;
    self.heap = owner.heap;
  }

  override next(): number {
    this.generation = this.owner.nextGen();
    return this.generation;
  }
}

const shared = new WeakMap<object, SharedScratch>();

/** The kernel view of a Pathfinder's search arrays (one per Pathfinder). */
export function sharedScratch(owner: PathfinderArrays): SearchScratch {
  let s = shared.get(owner);
  if (s === undefined) {
    s = new SharedScratch(owner);
    shared.set(owner, s);
  }
  return s;
}

/** Jump point search with the rewritten module's interface, over today's implementation. */
export class JumpPointSearch {
  /** The Pathfinder's jump point search (built on first use, so asked for each time). */
  private readonly current: () => CurrentJumpPointSearch;
  private readonly owner: PathfinderArrays;
  private readonly stride: number;

  constructor(current: () => CurrentJumpPointSearch, owner: PathfinderArrays, width: number) {
    this.current = current;
    this.owner = owner;
    this.stride = width + 2;
  }

  /** The layer's walkability bit planes (built on first use). */
  bits(layer: number): WalkBits {
    return this.current().bits(layer);
  }

  /** Searches from padded `start` to `goal`; when `out.reached`, the cost is in the shared scratch's g[goal]. */
  search(view: SearchView, layer: number, start: number, goal: number, cardinal: boolean, maxIterations: number, plus: boolean, out: SearchOutcome): SearchOutcome {
    const r = this.current().search(view, layer, start, goal, cardinal, maxIterations, plus);
    out.expanded = r < 0 ? -r - 1 : r;
    out.limited = r < 0;
    out.reached = this.owner.stamp[goal] === this.owner.generation + 1;
    return out;
  }

  /** The cell path (unpadded indices) of the last search to padded `goal`; fills `out` when long enough. */
  reconstruct(goal: number, cardinal: boolean, out?: Int32Array): Int32Array {
    return this.current().reconstruct(goal, this.stride, cardinal, out);
  }
}

/** The adapter over the Pathfinder's lazily built jump point search, as the hierarchy takes it. */
export function adaptJumpPointSearch(current: () => CurrentJumpPointSearch, owner: PathfinderArrays, width: number): () => JumpPointSearch {
  const adapter = new JumpPointSearch(current, owner, width);
  return () => adapter;
}
