/**
 * The hierarchy's level-1 storage: every cluster's nodes, edges and cross links in two flat pools
 * (ClusterStore), the edge-list shapes both levels share, and the pruning that drops edges a third
 * node matches in cost.
 */

/**
 * Edges from a cluster's (group's) nodes to the facing nodes of its neighbours: node i's are
 * to[off[i]..off[i+1]), each the direction (0-3: N E S W) | the neighbour's node index << 2, with the
 * cost of stepping there (the reverse step costs node i's own cell).
 */
export interface Links {
  off: Int32Array;
  to: Int32Array;
  cost: Float32Array;
}

/**
 * Edges between a cluster's (or group's) nodes: node i's are to[off[i]..off[i+1]) with cost[...]
 * (off[m] edges in all; the arrays may be longer).
 */
export interface Edges {
  off: Int32Array;
  to: Int16Array;
  cost: Float32Array;
}

/** A block's node cells start BLOCK_HEADER words in (after the node count and the block's size). */
export const BLOCK_HEADER = 2;

/** Where the level-2 indices of a block at `b` with `m` nodes start (one per node, -1: none). */
export function levelTwoIndices(b: number, m: number): number {
  return b + BLOCK_HEADER + m;
}

/** Where the out-edge offset table of a block at `b` with `m` nodes starts (m + 1 offsets from b). */
export function outTable(b: number, m: number): number {
  return b + BLOCK_HEADER + 2 * m;
}

/** Where the in-edge offset table starts (a copy of the out table when costs are symmetric). */
export function inTable(b: number, m: number): number {
  return b + BLOCK_HEADER + 3 * m + 1;
}

/** Where the cross-link offset table starts. */
export function crossTable(b: number, m: number): number {
  return b + BLOCK_HEADER + 4 * m + 2;
}

const EMPTY_NODES = new Int32Array(0);

/**
 * Every cluster's level-1 data in two flat pools, instead of several small arrays per cluster
 * (searches that touch many clusters would chase all those objects). Cluster k's block starts at
 * b = blockOf[k] (-1: none yet): ints[b] = m, its node count; ints[b + 1] = the block's size; from
 * b + BLOCK_HEADER: its m node cells (padded; floats holds each cell's cost beside it), then their
 * m level-2 indices (-1: none), then three tables of m + 1 offsets from b: out edges, in edges (the
 * out table again when costs are symmetric) and cross links (targets dir | slot << 2). Edge targets
 * (node slots) are in ints, their costs at the same index in floats.
 * A rebuilt cluster's block goes at the end; when the pools fill up, the live blocks are packed.
 */
export class ClusterStore {
  readonly blockOf: Int32Array;
  ints: Int32Array;
  floats: Float32Array;
  private top = 0;
  private live = 0;

  /** `words`: a first guess at the pools' size (they grow as needed). */
  constructor(clusters: number, words: number) {
    this.blockOf = new Int32Array(clusters).fill(-1);
    this.ints = new Int32Array(Math.max(1 << 12, words));
    this.floats = new Float32Array(this.ints.length);
  }

  /** Cluster k's node count. */
  count(k: number): number {
    const b = this.blockOf[k];
    return b < 0 ? 0 : this.ints[b];
  }

  /** Cluster k's node cells (a view: valid until the next write). */
  nodes(k: number): Int32Array {
    const b = this.blockOf[k];
    return b < 0 ? EMPTY_NODES : this.ints.subarray(b + BLOCK_HEADER, b + BLOCK_HEADER + this.ints[b]);
  }

  get bytes(): number {
    return this.blockOf.byteLength + this.ints.byteLength + this.floats.byteLength;
  }

  /** Packs the live blocks into pools a quarter larger than they need (after the first build). */
  trim(): void {
    this.pack(0);
  }

  /** Writes cluster k's block: its nodes (level-2 indices all -1), edges and cross links. */
  write(k: number, nodes: ArrayLike<number>, pass: Float32Array, out: Edges, inc: Edges, cross: Links): void {
    const m = nodes.length;
    const sym = out === inc;
    const b = this.alloc(k, BLOCK_HEADER + 2 * m + 3 * (m + 1) + out.off[m] + (sym ? 0 : inc.off[m]) + cross.off[m]);
    const I = this.ints;
    const F = this.floats;
    I[b] = m;
    for (let s = 0; s < m; s++) {
      I[b + BLOCK_HEADER + s] = nodes[s];
      F[b + BLOCK_HEADER + s] = pass[nodes[s]];
      I[levelTwoIndices(b, m) + s] = -1;
    }
    let e = BLOCK_HEADER + 2 * m + 3 * (m + 1);
    const table = (start: number, list: Edges | Links): void => {
      for (let s = 0; s <= m; s++) I[start + s] = e + list.off[s];
      for (let x = 0; x < list.off[m]; x++) {
        I[b + e + x] = list.to[x];
        F[b + e + x] = list.cost[x];
      }
      e += list.off[m];
    };
    table(outTable(b, m), out);
    if (sym) I.copyWithin(inTable(b, m), outTable(b, m), inTable(b, m));
    else table(inTable(b, m), inc);
    table(crossTable(b, m), cross);
  }

  /** Rewrites cluster k's block with new cross links, keeping its nodes, level-2 indices and edges. */
  relink(k: number, cross: Links): void {
    const old = this.blockOf[k];
    if (old < 0) return;
    const m = this.ints[old];
    // The old cross table's first offset is where its links start: everything before it is kept.
    const keep = this.ints[crossTable(old, m)];
    const size = keep + cross.off[m];
    const saved = this.ints.slice(old, old + keep);
    const savedF = this.floats.slice(old, old + keep);
    const b = this.alloc(k, size);
    const I = this.ints;
    I.set(saved, b);
    this.floats.set(savedF, b);
    // The saved words hold the old size: the cross links may have changed in number.
    I[b + 1] = size;
    const t = crossTable(b, m);
    for (let s = 0; s <= m; s++) I[t + s] = keep + cross.off[s];
    for (let x = 0; x < cross.off[m]; x++) {
      I[b + keep + x] = cross.to[x];
      this.floats[b + keep + x] = cross.cost[x];
    }
  }

  /** A block of `size` for cluster k (its old one becomes garbage); sets its size word. */
  private alloc(k: number, size: number): number {
    const old = this.blockOf[k];
    if (old >= 0) {
      this.live -= this.ints[old + 1];
      this.blockOf[k] = -1;
    }
    if (this.top + size > this.ints.length) this.pack(size);
    const b = this.top;
    this.top += size;
    this.live += size;
    this.blockOf[k] = b;
    this.ints[b + 1] = size;
    return b;
  }

  /** Copies the live blocks to fresh pools with room for `extra` more, and a quarter to spare. */
  private pack(extra: number): void {
    const size = Math.max(1 << 12, Math.ceil((this.live + extra) * 1.25));
    const I = new Int32Array(size);
    const F = new Float32Array(size);
    let top = 0;
    for (let k = 0; k < this.blockOf.length; k++) {
      const b = this.blockOf[k];
      if (b < 0) continue;
      const n = this.ints[b + 1];
      I.set(this.ints.subarray(b, b + n), top);
      F.set(this.floats.subarray(b, b + n), top);
      this.blockOf[k] = top;
      top += n;
    }
    this.ints = I;
    this.floats = F;
    this.top = top;
  }
}

/** Reusable buffers for pruneEdges (a cluster's edges, copied into the store right after). */
export class EdgeScratch {
  keep = new Uint8Array(0);
  readonly out: Edges = { off: new Int32Array(0), to: new Int16Array(0), cost: new Float32Array(0) };
  readonly inc: Edges = { off: new Int32Array(0), to: new Int16Array(0), cost: new Float32Array(0) };
}

/**
 * The m x m in-cluster cost matrix `d` (Infinity: not connected) as outgoing and incoming edge
 * lists, without the edges i -> k that a third node j matches (d[i][j] + d[j][k] <= d[i][k]): the
 * path through j costs the same, so every distance in the graph stays the same, and on a grid
 * (where many shortest paths pass by other border nodes) most edges go. `symmetric`: d is
 * symmetric, so the incoming lists are the outgoing ones. With `scratch`, the lists live in its
 * buffers (valid until the next call).
 */
export function pruneEdges(m: number, d: Float32Array, symmetric: boolean, scratch?: EdgeScratch): [Edges, Edges] {
  if (scratch !== undefined && scratch.keep.length < m * m) scratch.keep = new Uint8Array(2 * m * m);
  const keep = scratch?.keep ?? new Uint8Array(m * m);
  keep.fill(0, 0, m * m);
  // The tolerance for float32 sums stays below a quarter of the cheapest edge: then an edge is only
  // ever dropped for a strictly shorter one, and no two edges can be dropped for each other.
  let lo = Infinity;
  for (let x = 0; x < m * m; x++) if (d[x] > 0 && d[x] < lo) lo = d[x];
  let count = 0;
  for (let i = 0; i < m; i++) {
    // Symmetric: the test for k -> i is the test for i -> k.
    for (let k = symmetric ? i + 1 : 0; k < m; k++) {
      const dik = d[i * m + k];
      if (k === i || !(dik < Infinity)) continue;
      const limit = dik + Math.min(dik * 1e-6, lo / 4);
      let kept = 1;
      for (let j = 0; j < m; j++) {
        if (j !== i && j !== k && d[i * m + j] + d[j * m + k] <= limit) {
          kept = 0;
          break;
        }
      }
      keep[i * m + k] = kept;
      count += kept;
      if (symmetric) {
        keep[k * m + i] = kept;
        count += kept;
      }
    }
  }
  const build = (incoming: boolean): Edges => {
    const into = scratch === undefined ? undefined : incoming ? scratch.inc : scratch.out;
    if (into !== undefined && (into.off.length < m + 1 || into.to.length < count)) {
      into.off = new Int32Array(2 * m + 2);
      into.to = new Int16Array(2 * count);
      into.cost = new Float32Array(2 * count);
    }
    const off = into?.off ?? new Int32Array(m + 1);
    const to = into?.to ?? new Int16Array(count);
    const cost = into?.cost ?? new Float32Array(count);
    let x = 0;
    for (let i = 0; i < m; i++) {
      off[i] = x;
      for (let k = 0; k < m; k++) {
        const e = incoming ? k * m + i : i * m + k;
        if (keep[e] === 1) {
          to[x] = k;
          cost[x++] = d[e];
        }
      }
    }
    off[m] = x;
    return { off, to, cost };
  };
  const out = build(false);
  return [out, symmetric ? out : build(true)];
}
