/**
 * The hierarchy's data structures (see hpa.ts): the clusters' flat pools, a group's level-1 graph
 * with dense ids, search arrays over compact ids, and the edge pruning both levels use.
 * @internal
 */
import { NodeHeap } from './heap.js';

/** Clusters per group side. */
export const GROUP = 8;
/** Bits of a node's slot in a packed group-local id (a cluster has at most 4 x 128 nodes). */
export const PACK = 9;

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
 * Every cluster's level-1 data in two flat pools, instead of several small arrays per cluster
 * (searches that touch many clusters would chase all those objects). Cluster k's block starts at
 * b = at[k] (-1: none yet): i[b] = m, its node count; i[b + 1] = the block's size; from b + NODES:
 * its m node cells (padded; f holds each cell's cost beside it), then their m level-2 indices (-1:
 * none), then three tables of m + 1
 * offsets from b: out edges, in edges (the out table again when costs are symmetric) and cross links
 * (targets dir | slot << 2). Edge targets (node slots) are in i, their costs at the same index in f.
 * A rebuilt cluster's block goes at the end; when the pools fill up, the live blocks are packed.
 */
export class ClusterStore {
  readonly at: Int32Array;
  i: Int32Array;
  f: Float32Array;
  private top = 0;
  private live = 0;

  /** `words`: a first guess at the pools' size (they grow as needed). */
  constructor(clusters: number, words: number) {
    this.at = new Int32Array(clusters).fill(-1);
    this.i = new Int32Array(Math.max(1 << 12, words));
    this.f = new Float32Array(this.i.length);
  }

  /** Cluster k's node count. */
  count(k: number): number {
    const b = this.at[k];
    return b < 0 ? 0 : this.i[b];
  }

  /** Cluster k's node cells (a view: valid until the next write). */
  nodes(k: number): Int32Array {
    const b = this.at[k];
    return b < 0 ? EMPTY_NODES : this.i.subarray(b + NODES, b + NODES + this.i[b]);
  }

  get bytes(): number {
    return this.at.byteLength + this.i.byteLength + this.f.byteLength;
  }

  /** Packs the live blocks into pools a quarter larger than they need (after the first build). */
  trim(): void {
    this.pack(0);
  }

  /** Writes cluster k's block: its nodes (level-2 indices all -1), edges and cross links. */
  write(k: number, nodes: ArrayLike<number>, pass: Float32Array, out: Edges, inc: Edges, cross: Links): void {
    const m = nodes.length;
    const sym = out === inc;
    const b = this.alloc(k, NODES + 2 * m + 3 * (m + 1) + out.off[m] + (sym ? 0 : inc.off[m]) + cross.off[m]);
    const I = this.i;
    const F = this.f;
    I[b] = m;
    for (let s = 0; s < m; s++) {
      I[b + NODES + s] = nodes[s];
      F[b + NODES + s] = pass[nodes[s]];
      I[b + NODES + m + s] = -1;
    }
    let e = NODES + 2 * m + 3 * (m + 1);
    const table = (t: number, list: Edges | Links): void => {
      const o = b + NODES + 2 * m + t * (m + 1);
      for (let s = 0; s <= m; s++) I[o + s] = e + list.off[s];
      for (let x = 0; x < list.off[m]; x++) {
        I[b + e + x] = list.to[x];
        F[b + e + x] = list.cost[x];
      }
      e += list.off[m];
    };
    table(0, out);
    if (sym) I.copyWithin(b + NODES + 3 * m + 1, b + NODES + 2 * m, b + NODES + 3 * m + 1);
    else table(1, inc);
    table(2, cross);
  }

  /** Rewrites cluster k's block with new cross links, keeping its nodes, level-2 indices and edges. */
  relink(k: number, cross: Links): void {
    const old = this.at[k];
    if (old < 0) return;
    const I = this.i;
    const m = I[old];
    const o = old + NODES + 2 * m;
    // The old cross table's first offset is where its links start: everything before it is kept.
    const keep = I[o + 2 * (m + 1)];
    const size = keep + cross.off[m];
    const saved = I.slice(old, old + keep);
    const savedF = this.f.slice(old, old + keep);
    const b = this.alloc(k, size);
    this.i.set(saved, b);
    this.f.set(savedF, b);
    // The saved words hold the old size: the cross links may have changed in number.
    this.i[b + 1] = size;
    const t = b + NODES + 2 * m + 2 * (m + 1);
    for (let s = 0; s <= m; s++) this.i[t + s] = keep + cross.off[s];
    for (let x = 0; x < cross.off[m]; x++) {
      this.i[b + keep + x] = cross.to[x];
      this.f[b + keep + x] = cross.cost[x];
    }
  }

  /** A block of `size` for cluster k (its old one becomes garbage); sets its size word. */
  private alloc(k: number, size: number): number {
    const old = this.at[k];
    if (old >= 0) {
      this.live -= this.i[old + 1];
      this.at[k] = -1;
    }
    if (this.top + size > this.i.length) this.pack(size);
    const b = this.top;
    this.top += size;
    this.live += size;
    this.at[k] = b;
    this.i[b + 1] = size;
    return b;
  }

  /** Copies the live blocks to fresh pools with room for `extra` more, and a quarter to spare. */
  private pack(extra: number): void {
    const size = Math.max(1 << 12, Math.ceil((this.live + extra) * 1.25));
    const I = new Int32Array(size);
    const F = new Float32Array(size);
    let top = 0;
    for (let k = 0; k < this.at.length; k++) {
      const b = this.at[k];
      if (b < 0) continue;
      const n = this.i[b + 1];
      I.set(this.i.subarray(b, b + n), top);
      F.set(this.f.subarray(b, b + n), top);
      this.at[k] = top;
      top += n;
    }
    this.i = I;
    this.f = F;
    this.top = top;
  }
}

/** A block's node cells start NODES words in (after the count and the size). */
export const NODES = 2;
const EMPTY_NODES = new Int32Array(0);

/**
 * One group's level-1 graph with its nodes numbered densely (cluster by cluster, base[local cluster]
 * + slot): per node its cell, packed id (local cluster << PACK | slot), level-2 index (-1: none),
 * and outgoing edges off/to/cost.
 */
export class GroupGraph {
  n = 0;
  /** The cheapest and dearest edge (either way). */
  lo = Infinity;
  hi = 0;
  readonly base = new Int32Array(GROUP * GROUP + 1);
  cell = new Int32Array(0);
  packed = new Uint16Array(0);
  up = new Int16Array(0);
  off = new Int32Array(1);
  to = new Int32Array(0);
  cost = new Float32Array(0);

  /** Room for n nodes and `edges` edges. */
  reserve(n: number, edges: number): void {
    if (this.cell.length < n) {
      const size = Math.max(n, this.cell.length * 2);
      this.cell = new Int32Array(size);
      this.packed = new Uint16Array(size);
      this.up = new Int16Array(size);
      this.off = new Int32Array(size + 1);
    }
    if (this.to.length < edges) {
      const size = Math.max(edges, this.to.length * 2);
      this.to = new Int32Array(size);
      this.cost = new Float32Array(size);
    }
  }
}

/**
 * Search arrays over a compact id range (one group's level-1 nodes, or the level-2 graph), with
 * generation stamps: open = the current generation, closed = open + 1.
 */
export class Scratch {
  readonly g: Float64Array;
  readonly parent: Int32Array;
  readonly stamp: Uint32Array;
  /** For A* searches only (withHeap); the Dijkstra searches use a MonotoneQueue. */
  readonly heap: NodeHeap;
  /** For group-local ids: the group, and its clusters by local index (see Hierarchy.enter). */
  group = -1;
  readonly ks = new Int32Array(GROUP * GROUP);
  gen = 0;

  constructor(
    readonly size: number,
    withHeap = false,
  ) {
    this.g = new Float64Array(size);
    this.parent = new Int32Array(size);
    this.stamp = new Uint32Array(size);
    this.heap = new NodeHeap(withHeap ? size : 1);
  }

  /** Starts a search: an empty heap and a new generation; returns its open stamp. */
  begin(): number {
    this.gen += 2;
    if (this.gen > 0xfffffff0) {
      this.stamp.fill(0);
      this.gen = 2;
    }
    this.heap.clear();
    return this.gen;
  }

  /** Puts node p at cost d with no parent, queued in this generation (the caller queues it). */
  seed(p: number, d: number, open: number): void {
    this.g[p] = d;
    this.parent[p] = -1;
    this.stamp[p] = open;
  }

  /** A* relaxation: node q to cost ng via `from`; `h` is q's heuristic, used when q is new (a queued node keeps its own). */
  relaxA(q: number, ng: number, from: number, open: number, h: number): void {
    const s = this.stamp[q];
    if (s === open + 1 || (s === open && ng >= this.g[q])) return;
    if (s === open) {
      const hq = this.heap.keyOf(q) - this.g[q];
      this.g[q] = ng;
      this.parent[q] = from;
      this.heap.decrease(q, ng + hq, ng);
      return;
    }
    this.g[q] = ng;
    this.parent[q] = from;
    this.stamp[q] = open;
    this.heap.push(q, ng + h, ng);
  }
}

/** Reusable buffers for pruneEdges (a cluster's edges, copied into the store right after). */
export class EdgeScratch {
  keep = new Uint8Array(0);
  readonly out: Edges = { off: new Int32Array(0), to: new Int16Array(0), cost: new Float32Array(0) };
  readonly inc: Edges = { off: new Int32Array(0), to: new Int16Array(0), cost: new Float32Array(0) };
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

/**
 * The m x m in-cluster cost matrix `d` (Infinity: not connected) as outgoing and incoming edge
 * lists, without the edges i -> k that a third node j matches (d[i][j] + d[j][k] <= d[i][k]): the
 * path through j costs the same, so every distance in the graph stays the same, and on a grid
 * (where many shortest paths pass by other border nodes) most edges go. `symmetric`: d is
 * symmetric, so the incoming lists are the outgoing ones.
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

