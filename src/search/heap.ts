/**
 * A binary min-heap of node ids on typed arrays, with decrease-key. Order: lower key (f) first,
 * then higher g (prefer the node nearer the goal), then lower id, so every query pops nodes in the
 * same order on every machine (lockstep multiplayer games need that).
 *
 * Each slot keeps its node's f and g beside it, so sifting compares neighbouring memory instead of
 * chasing node ids into the search arrays. `pos` holds each queued node's slot; it is meaningful
 * only for nodes the caller knows to be queued (the caller's generation stamps say which).
 */
export class NodeHeap {
  size = 0;
  private nodes: Int32Array;
  private keys: Float64Array;
  private gs: Float64Array;
  private readonly pos: Int32Array;

  constructor(nodeCount: number) {
    const initial = Math.max(1, Math.min(nodeCount, 1024));
    this.nodes = new Int32Array(initial);
    this.keys = new Float64Array(initial);
    this.gs = new Float64Array(initial);
    this.pos = new Int32Array(nodeCount);
  }

  clear(): void {
    this.size = 0;
  }

  /** Adds `node` with key `f` and tie value `g`. The node must not be queued already. */
  push(node: number, f: number, g: number): void {
    if (this.size === this.nodes.length) this.grow();
    this.up(this.size++, node, f, g);
  }

  /** Lowers the key of a queued node. */
  decrease(node: number, f: number, g: number): void {
    this.up(this.pos[node], node, f, g);
  }

  /** Removes and returns the first node. The heap must not be empty. */
  pop(): number {
    const top = this.nodes[0];
    const last = --this.size;
    if (last > 0) this.down(this.nodes[last], this.keys[last], this.gs[last]);
    return top;
  }

  /** The key of a queued node. */
  keyOf(node: number): number {
    return this.keys[this.pos[node]];
  }

  /** The first node's key, Infinity when empty. */
  peekKey(): number {
    return this.size > 0 ? this.keys[0] : Infinity;
  }

  private up(i: number, node: number, f: number, g: number): void {
    const nodes = this.nodes;
    const keys = this.keys;
    const gs = this.gs;
    const pos = this.pos;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pf = keys[parent];
      if (pf < f) break;
      if (pf === f) {
        const pg = gs[parent];
        if (pg > g || (pg === g && nodes[parent] < node)) break;
      }
      const pn = nodes[parent];
      nodes[i] = pn;
      keys[i] = pf;
      gs[i] = gs[parent];
      pos[pn] = i;
      i = parent;
    }
    nodes[i] = node;
    keys[i] = f;
    gs[i] = g;
    pos[node] = i;
  }

  private down(node: number, f: number, g: number): void {
    const nodes = this.nodes;
    const keys = this.keys;
    const gs = this.gs;
    const pos = this.pos;
    const size = this.size;
    const half = size >> 1;
    let i = 0;
    while (i < half) {
      let c = 2 * i + 1;
      let cf = keys[c];
      const r = c + 1;
      if (r < size) {
        const rf = keys[r];
        if (rf < cf || (rf === cf && (gs[r] > gs[c] || (gs[r] === gs[c] && nodes[r] < nodes[c])))) {
          c = r;
          cf = rf;
        }
      }
      if (cf > f || (cf === f && (gs[c] < g || (gs[c] === g && nodes[c] > node)))) break;
      const cn = nodes[c];
      nodes[i] = cn;
      keys[i] = cf;
      gs[i] = gs[c];
      pos[cn] = i;
      i = c;
    }
    nodes[i] = node;
    keys[i] = f;
    gs[i] = g;
    pos[node] = i;
  }

  private grow(): void {
    const n = Math.min(this.nodes.length * 2, this.pos.length);
    const nodes = new Int32Array(n);
    const keys = new Float64Array(n);
    const gs = new Float64Array(n);
    nodes.set(this.nodes);
    keys.set(this.keys);
    gs.set(this.gs);
    this.nodes = nodes;
    this.keys = keys;
    this.gs = gs;
  }
}

