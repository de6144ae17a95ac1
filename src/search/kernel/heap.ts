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
  /** Each slot's key (f) at 2 * slot and tie value (g) at 2 * slot + 1: one cache line holds both. */
  private fg: Float64Array;
  private readonly pos: Int32Array;

  /** Bytes held: the entries as the list has grown, and the position per node. */
  get bytes(): number {
    return this.nodes.byteLength + this.fg.byteLength + this.pos.byteLength;
  }

  constructor(nodeCount: number) {
    const initial = Math.max(1, Math.min(nodeCount, 1024));
    this.nodes = new Int32Array(initial);
    this.fg = new Float64Array(2 * initial);
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
    if (last > 0) this.down(this.nodes[last], this.fg[2 * last], this.fg[2 * last + 1]);
    return top;
  }

  /**
   * Whether an entry (`node`, key `f`, tie value `g`) would come out before every queued one, in
   * the heap's order (true when empty). Lets a search take a fresh successor next without queueing it.
   */
  before(node: number, f: number, g: number): boolean {
    if (this.size === 0) return true;
    const tf = this.fg[0];
    if (f !== tf) return f < tf;
    const tg = this.fg[1];
    return g > tg || (g === tg && node < this.nodes[0]);
  }

  /**
   * Adds `node` (key `f`, tie value `g`; not queued already) and removes the first node, in one
   * sift: returns `node` itself, never queued, when it comes first, else the former first node.
   * A search that expands a node's best successor next saves a push and a pop this way.
   */
  pushPop(node: number, f: number, g: number): number {
    if (this.before(node, f, g)) return node;
    if (this.size === this.nodes.length) this.grow();
    const top = this.nodes[0];
    this.down(node, f, g);
    return top;
  }

  /** The key of a queued node. */
  keyOf(node: number): number {
    return this.fg[2 * this.pos[node]];
  }

  /** The tie value (g) the first node was queued with. The heap must not be empty. */
  firstG(): number {
    return this.fg[1];
  }

  /** The first node's key, Infinity when empty. */
  peekKey(): number {
    return this.size > 0 ? this.fg[0] : Infinity;
  }

  private up(i: number, node: number, f: number, g: number): void {
    const nodes = this.nodes;
    const fg = this.fg;
    const pos = this.pos;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pf = fg[2 * parent];
      if (pf < f) break;
      const pg = fg[2 * parent + 1];
      if (pf === f && (pg > g || (pg === g && nodes[parent] < node))) break;
      const pn = nodes[parent];
      nodes[i] = pn;
      fg[2 * i] = pf;
      fg[2 * i + 1] = pg;
      pos[pn] = i;
      i = parent;
    }
    nodes[i] = node;
    fg[2 * i] = f;
    fg[2 * i + 1] = g;
    pos[node] = i;
  }

  /**
   * Puts (`node`, `f`, `g`) in the root's place, the root being vacated. Bottom-up: the hole goes
   * down to a leaf along the lesser children (one comparison a level, not two), then the entry
   * rises from there, rarely far, as it comes from the bottom of the heap or is a fresh successor
   * no better than the root's children. The order is the same strict one, so entries come out as
   * with the plain sift.
   */
  private down(node: number, f: number, g: number): void {
    const nodes = this.nodes;
    const fg = this.fg;
    const pos = this.pos;
    const size = this.size;
    // A sentinel past the last entry, never chosen: a lone left child needs no bounds test. The
    // slot exists (push and pushPop grow first) and holds nothing live (the entry being placed
    // was read from it, or was never queued).
    fg[2 * size] = Infinity;
    fg[2 * size + 1] = -Infinity;
    let i = 0;
    for (;;) {
      const c = 2 * i + 1;
      if (c >= size) break;
      const r = c + 1;
      const cf = fg[2 * c];
      const rf = fg[2 * r];
      const cg = fg[2 * c + 1];
      const rg = fg[2 * r + 1];
      // 1 when the right child comes first, computed without branches: which child wins is a
      // coin toss the processor cannot predict.
      const m = c + (+(rf < cf) | (+(rf === cf) & (+(rg > cg) | (+(rg === cg) & +(nodes[r] < nodes[c])))));
      const mf = fg[2 * m];
      const mg = fg[2 * m + 1];
      const mn = nodes[m];
      // The entry stops above the lesser child that it comes before: a fresh successor (pushPop)
      // mostly stops high up, the last entry (pop) mostly low down; either way this test goes
      // the same way until the last level.
      if (mf > f || (mf === f && (mg < g || (mg === g && mn > node)))) break;
      nodes[i] = mn;
      fg[2 * i] = mf;
      fg[2 * i + 1] = mg;
      pos[mn] = i;
      i = m;
    }
    nodes[i] = node;
    fg[2 * i] = f;
    fg[2 * i + 1] = g;
    pos[node] = i;
  }

  private grow(): void {
    // One slot more than the nodes: down() writes a sentinel past the last entry.
    const n = Math.min(this.nodes.length * 2, this.pos.length + 1);
    const nodes = new Int32Array(n);
    const fg = new Float64Array(2 * n);
    nodes.set(this.nodes);
    fg.set(this.fg);
    this.nodes = nodes;
    this.fg = fg;
  }
}

/**
 * The order of {@link NodeHeap} without decrease-key or node positions: a node whose cost improves
 * is pushed again, and the caller skips the stale entry when it comes out (its node is settled by
 * then, as the better entry has the lower key). Sifting then writes no per-node array, only the
 * heap's own, which stay in cache: for searches over large grids that push few nodes and seldom
 * improve one (jump point search), where the position writes of {@link NodeHeap} miss the cache.
 * Memory: 20 bytes per queued entry.
 */
export class LazyNodeHeap {
  size = 0;
  private nodes = new Int32Array(256);
  private keys = new Float64Array(256);
  private gs = new Float64Array(256);

  clear(): void {
    this.size = 0;
  }

  /** Adds an entry for `node` with key `f` and tie value `g` (the node may have entries already). */
  push(node: number, f: number, g: number): void {
    if (this.size === this.nodes.length) this.grow();
    const nodes = this.nodes;
    const keys = this.keys;
    const gs = this.gs;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pf = keys[parent];
      if (pf < f) break;
      if (pf === f) {
        const pg = gs[parent];
        if (pg > g || (pg === g && nodes[parent] < node)) break;
      }
      nodes[i] = nodes[parent];
      keys[i] = pf;
      gs[i] = gs[parent];
      i = parent;
    }
    nodes[i] = node;
    keys[i] = f;
    gs[i] = g;
  }

  /** Removes and returns the first entry's node. The heap must not be empty. */
  pop(): number {
    const nodes = this.nodes;
    const keys = this.keys;
    const gs = this.gs;
    const top = nodes[0];
    const size = --this.size;
    if (size === 0) return top;
    const node = nodes[size];
    const f = keys[size];
    const g = gs[size];
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
      nodes[i] = nodes[c];
      keys[i] = cf;
      gs[i] = gs[c];
      i = c;
    }
    nodes[i] = node;
    keys[i] = f;
    gs[i] = g;
    return top;
  }

  private grow(): void {
    const n = this.nodes.length * 2;
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

/** A {@link MonotoneQueue}'s content as plain typed arrays (see MonotoneQueue.snapshot). */
export interface QueueSnapshot {
  /** size, key, bucket mode (1) or heap (0), lo, ring mask, current bucket, top, first free slot. */
  state: Float64Array<ArrayBuffer>;
  head: Int32Array<ArrayBuffer>;
  next: Int32Array<ArrayBuffer>;
  nodes: Int32Array<ArrayBuffer>;
  keys: Float64Array<ArrayBuffer>;
}

/**
 * A priority queue for Dijkstra searches whose edges all cost between `lo` and `hi` (set by
 * {@link reset}). No decrease-key: push a node again with its lower key; {@link pop} returns entries
 * by key, stale ones included (the caller skips an entry whose `key` is above the node's current
 * cost, or whose node is settled). In bucket mode the entries of one bucket come out in any order,
 * so a key can be below the one before it by less than lo; Dijkstra's settled costs are exact all
 * the same.
 *
 * When hi / lo is moderate (at most {@link MonotoneQueue.MAX_RING} - 2) it is Dial's bucket queue:
 * buckets lo wide in a ring, O(1) per push and pop. That is exact for Dijkstra: a node popped from
 * bucket k cannot be improved by anything still queued, which costs at least k * lo and adds an edge
 * of at least lo. Otherwise a binary heap of (key, node) entries.
 */
export class MonotoneQueue {
  static readonly MAX_RING = 4096;
  size = 0;
  /** The key of the entry {@link pop} returned last. */
  key = 0;
  private buckets = true;
  private lo = 1;
  private inv = 1;
  /** The ring's size - 1 (a power of two - 1: the mask). */
  private ring = 0;
  private cur = 0;
  private head = new Int32Array(MonotoneQueue.MAX_RING);
  private top = 0;
  /** Bucket mode: the first of the entry slots popped and free for reuse, -1 when none. */
  private free = -1;
  private next = new Int32Array(1024);
  private nodes = new Int32Array(1024);
  private keys = new Float64Array(1024);

  /** Empties the queue for a search whose edges cost lo..hi and whose first keys lie in 0..hi. */
  reset(lo: number, hi: number): void {
    this.lo = lo;
    this.size = 0;
    this.top = 0;
    this.free = -1;
    this.cur = 0;
    const need = Math.ceil(hi / lo) + 2;
    this.buckets = lo > 0 && need <= MonotoneQueue.MAX_RING;
    if (this.buckets) {
      // A power of two, so a key's bucket is a mask away.
      let ring = 4;
      while (ring < need) ring *= 2;
      this.inv = 1 / lo;
      this.ring = ring - 1;
      this.head.fill(-1, 0, ring);
    }
  }

  push(node: number, key: number): void {
    if (!this.buckets) {
      if (this.top === this.nodes.length) this.grow();
      this.heapPush(node, key);
      return;
    }
    // Reuse a popped entry's slot: the arrays grow to the most entries queued at once, not to
    // the number of pushes (a search of a whole layer pushes more than a million).
    let e = this.free;
    if (e >= 0) this.free = this.next[e];
    else {
      if (this.top === this.nodes.length) this.grow();
      e = this.top++;
    }
    const b = ((key * this.inv) | 0) & this.ring;
    this.nodes[e] = node;
    this.keys[e] = key;
    this.next[e] = this.head[b];
    this.head[b] = e;
    this.size++;
  }

  /**
   * For entries pushed below the last key popped (a Dijkstra repairing cells it had settled:
   * the ring's scan may have gone on past stale entries, up to hi beyond the last cell settled):
   * the ring pops from key `least` on again, and holds keys up to `span` above it, laid out
   * again ({@link widen}) when it must grow. Entries below `least` must be stale ones.
   */
  rewind(least: number, span: number): void {
    if (!this.buckets) return;
    if (span >= (this.ring - 1) * this.lo) this.widen(span);
    else this.cur = ((least * this.inv) | 0) & this.ring;
  }

  /**
   * Keeps the entries, and lets the ring hold keys up to `span` apart: for a search that pushed
   * keys further above the last one popped than its edges cost (a repair whose changes raised
   * costs far behind them). Bucket mode holds keys at most about hi apart (the ring wraps round
   * beyond), so the entries are laid out again, the ring sized for `span` (a heap past
   * MAX_RING buckets). Costs O(entries).
   */
  widen(span: number): void {
    const n = this.size;
    const nodes = new Int32Array(n);
    const keys = new Float64Array(n);
    let least = Infinity;
    for (let k = 0; k < n; k++) {
      nodes[k] = this.pop();
      keys[k] = this.key;
      if (this.key < least) least = this.key;
    }
    const key = this.key;
    this.reset(this.lo, span);
    this.key = key;
    // Pops scan the ring from the least key's bucket on.
    if (this.buckets && n > 0) this.cur = ((least * this.inv) | 0) & this.ring;
    for (let k = 0; k < n; k++) this.push(nodes[k], keys[k]);
  }

  /**
   * The key of the entry {@link pop} would return next (Infinity when empty), the queue unchanged.
   * In bucket mode it is the first entry of the lowest bucket: others of that bucket may be up to
   * lo less.
   */
  peekKey(): number {
    if (this.size === 0) return Infinity;
    if (!this.buckets) return this.keys[0];
    let c = this.cur;
    while (this.head[c] === -1) c = (c + 1) & this.ring;
    return this.keys[this.head[c]];
  }

  /**
   * The queue's entries and state as typed arrays, for {@link restore} on another thread (the
   * arrays are handed over, so their buffers can be transferred): the queue is left empty.
   */
  snapshot(): QueueSnapshot {
    const out: QueueSnapshot = { state: Float64Array.of(this.size, this.key, this.buckets ? 1 : 0, this.lo, this.ring, this.cur, this.top, this.free), head: this.head, next: this.next, nodes: this.nodes, keys: this.keys };
    this.head = new Int32Array(MonotoneQueue.MAX_RING);
    this.next = new Int32Array(1024);
    this.nodes = new Int32Array(1024);
    this.keys = new Float64Array(1024);
    this.reset(1, 1);
    return out;
  }

  /** Becomes the queue {@link snapshot} described, taking its arrays over: the same entries, popped in the same order. */
  restore(s: QueueSnapshot): void {
    const v = s.state;
    this.size = v[0];
    this.key = v[1];
    this.buckets = v[2] === 1;
    this.lo = v[3];
    this.inv = 1 / v[3];
    this.ring = v[4];
    this.cur = v[5];
    this.top = v[6];
    this.free = v[7];
    this.head = s.head;
    this.next = s.next;
    this.nodes = s.nodes;
    this.keys = s.keys;
  }

  /** Removes and returns the entry with the least key (its key in {@link key}). The queue must not be empty. */
  pop(): number {
    if (!this.buckets) return this.heapPop();
    const head = this.head;
    let c = this.cur;
    let e = head[c];
    while (e === -1) {
      c = (c + 1) & this.ring;
      e = head[c];
    }
    this.cur = c;
    head[c] = this.next[e];
    this.next[e] = this.free;
    this.free = e;
    this.size--;
    this.key = this.keys[e];
    return this.nodes[e];
  }

  private grow(): void {
    const n = this.nodes.length * 2;
    const next = new Int32Array(n);
    const nodes = new Int32Array(n);
    const keys = new Float64Array(n);
    next.set(this.next);
    nodes.set(this.nodes);
    keys.set(this.keys);
    this.next = next;
    this.nodes = nodes;
    this.keys = keys;
  }

  private heapPush(node: number, key: number): void {
    const nodes = this.nodes;
    const keys = this.keys;
    let i = this.top++;
    this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent] <= key) break;
      nodes[i] = nodes[parent];
      keys[i] = keys[parent];
      i = parent;
    }
    nodes[i] = node;
    keys[i] = key;
  }

  private heapPop(): number {
    const nodes = this.nodes;
    const keys = this.keys;
    const top = nodes[0];
    this.key = keys[0];
    const last = --this.top;
    this.size--;
    const node = nodes[last];
    const key = keys[last];
    const half = last >> 1;
    let i = 0;
    while (i < half) {
      let c = 2 * i + 1;
      if (c + 1 < last && keys[c + 1] < keys[c]) c++;
      if (keys[c] >= key) break;
      nodes[i] = nodes[c];
      keys[i] = keys[c];
      i = c;
    }
    nodes[i] = node;
    keys[i] = key;
    return top;
  }
}
