/**
 * The open list of the uniform jump point searches (uniform.ts): a binary heap of entries (node,
 * key f, cost g, arrival direction), smallest f first, ties to the larger g (deeper first), then
 * the smaller node. No decrease-key: a node whose cost improves is pushed again and the stale
 * entry is skipped when it comes out (the node's mark says settled). Each entry carries the node's
 * cost and the direction of the last step into it, so an expansion reads neither from the large
 * per-node arrays (the cost and the parent it would take the direction from).
 *
 * Plus one entry held beside the heap: the first, in the heap's order, of those offered since the
 * last {@link take}. A search offers a node's successors and then takes the next node: when the
 * best successor comes before everything queued (often, on a path heading straight for the goal)
 * it comes back without touching the heap, and otherwise it takes the root's place in the one
 * sift the take makes anyway. Entries come out in the same order as from the heap alone.
 *
 * Memory: 21 bytes per queued entry, kept between queries.
 */
export class JumpQueue {
  /** Entries in the heap (the held one aside). */
  size = 0;
  /** The first entry's cost and arrival direction, set by {@link take}. */
  g = 0;
  dir = 0;
  /** The held entry, `heldNode` -1 when none. */
  private heldNode = -1;
  private heldF = Infinity;
  private heldG = 0;
  private heldDir = 0;
  private nodes = new Int32Array(256);
  private keys = new Float64Array(256);
  private gs = new Float64Array(256);
  private dirs = new Uint8Array(256);

  get bytes(): number {
    return this.nodes.length * 21;
  }

  clear(): void {
    this.size = 0;
    this.heldNode = -1;
    this.heldF = Infinity;
  }

  /** Whether the queue is empty, the held entry included. */
  get empty(): boolean {
    return this.heldNode < 0 && this.size === 0;
  }

  /** Adds an entry as {@link push} does, but holds the first of those offered since the last {@link take} beside the heap. */
  offer(node: number, f: number, g: number, dir: number): void {
    const hf = this.heldF;
    if (f < hf || (f === hf && (g > this.heldG || (g === this.heldG && node < this.heldNode)))) {
      const held = this.heldNode;
      const heldG = this.heldG;
      const heldDir = this.heldDir;
      this.heldNode = node;
      this.heldF = f;
      this.heldG = g;
      this.heldDir = dir;
      if (held >= 0) this.push(held, hf, heldG, heldDir);
    } else this.push(node, f, g, dir);
  }

  /** Adds an entry: `node` at key `f`, cost `g`, reached by a last step in direction `dir` (0-7, 8 none). */
  push(node: number, f: number, g: number, dir: number): void {
    if (this.size + 1 === this.nodes.length) this.grow();
    const nodes = this.nodes;
    const keys = this.keys;
    const gs = this.gs;
    const dirs = this.dirs;
    let i = this.size++;
    while (i > 0) {
      const up = (i - 1) >> 1;
      const pf = keys[up];
      if (pf < f) break;
      if (pf === f) {
        const pg = gs[up];
        if (pg > g || (pg === g && nodes[up] < node)) break;
      }
      nodes[i] = nodes[up];
      keys[i] = pf;
      gs[i] = gs[up];
      dirs[i] = dirs[up];
      i = up;
    }
    nodes[i] = node;
    keys[i] = f;
    gs[i] = g;
    dirs[i] = dir;
  }

  /**
   * Removes the first entry, the held one included, and returns its node; its cost and direction
   * are left in `g` and `dir`. The held entry, when it does not come first, fills the root's place
   * (else the last entry does). The queue must not be {@link empty}.
   */
  take(): number {
    const nodes = this.nodes;
    const keys = this.keys;
    const gs = this.gs;
    const dirs = this.dirs;
    let size = this.size;
    let node = this.heldNode;
    let f = this.heldF;
    let g = this.heldG;
    let dir = this.heldDir;
    if (node >= 0) {
      this.heldNode = -1;
      this.heldF = Infinity;
      const tf = keys[0];
      if (size === 0 || f < tf || (f === tf && (g > gs[0] || (g === gs[0] && node < nodes[0])))) {
        this.g = g;
        this.dir = dir;
        return node;
      }
    } else {
      size = --this.size;
      node = nodes[size];
      f = keys[size];
      g = gs[size];
      dir = dirs[size];
    }
    const top = nodes[0];
    this.g = gs[0];
    this.dir = dirs[0];
    // A sentinel past the last entry, never chosen: a lone left child needs no bounds test (push
    // keeps a slot spare for it).
    keys[size] = Infinity;
    let i = 0;
    for (let c = 1; c < size; c = 2 * i + 1) {
      // The lesser child, picked without a branch: which one wins is a coin toss the processor
      // cannot predict.
      const cf = keys[c];
      const rf = keys[c + 1];
      const cg = gs[c];
      const rg = gs[c + 1];
      const m = c + (+(rf < cf) | (+(rf === cf) & (+(rg > cg) | (+(rg === cg) & +(nodes[c + 1] < nodes[c])))));
      const mf = keys[m];
      const mg = gs[m];
      if (mf > f || (mf === f && (mg < g || (mg === g && nodes[m] > node)))) break;
      nodes[i] = nodes[m];
      keys[i] = mf;
      gs[i] = mg;
      dirs[i] = dirs[m];
      i = m;
    }
    nodes[i] = node;
    keys[i] = f;
    gs[i] = g;
    dirs[i] = dir;
    return top;
  }

  private grow(): void {
    const n = this.nodes.length * 2;
    const nodes = new Int32Array(n);
    const keys = new Float64Array(n);
    const gs = new Float64Array(n);
    const dirs = new Uint8Array(n);
    nodes.set(this.nodes);
    keys.set(this.keys);
    gs.set(this.gs);
    dirs.set(this.dirs);
    this.nodes = nodes;
    this.keys = keys;
    this.gs = gs;
    this.dirs = dirs;
  }
}
