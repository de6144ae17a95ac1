/**
 * Links: stairs, ladders, doors between rooms far apart, teleporters and jump links, each joining
 * two cells of the same layer or of two layers at a cost of its own, one way or both ways, switched
 * on and off at runtime. The grid keeps them ({@link NavGrid.addLink}); the searches read the
 * compiled {@link LinkIndex}: the enabled links as directed edges sorted by their start, with one
 * bit per padded cell of each layer saying where an edge starts, so a search pays one bit test per
 * expanded cell and a short binary search only at link cells.
 */
import { TilenavError, describe } from '../errors.js';
import { padXY, paddedSize, strideOf } from './padded.js';

/** One end of a link as given to {@link NavGrid.addLink}: a cell, and its layer (index or name; default 0). */
export interface LinkEndSpec {
  /** Column. */
  x: number;
  /** Row. */
  y: number;
  /** Layer index or name. @default 0 */
  layer?: number | string;
}

/** What {@link NavGrid.addLink} takes. */
export interface LinkSpec {
  /** Where a unit takes the link. */
  from: LinkEndSpec;
  /** Where the link leaves it. */
  to: LinkEndSpec;
  /**
   * What taking the link costs, in the units of path costs (a straight step onto a cell of cost 1
   * costs 1): a finite number >= 0. It stands for the whole move from one end to the other; the
   * cost of the cell arrived at is not added.
   */
  cost: number;
  /** Whether units may take it from `to` to `from` too. @default true */
  bidirectional?: boolean;
  /** Whether it may be taken now ({@link NavGrid.setLinkEnabled} switches it). @default true */
  enabled?: boolean;
}

/** One end of a kept link: a cell and its layer index. */
export interface LinkEnd {
  /** Column. */
  readonly x: number;
  /** Row. */
  readonly y: number;
  /** Layer index. */
  readonly layer: number;
}

/** A link as the grid keeps it ({@link NavGrid.links}). */
export interface NavLink {
  /** Its id, from {@link NavGrid.addLink}; never handed out again after {@link NavGrid.removeLink}. */
  readonly id: number;
  /** Where a unit takes it. */
  readonly from: LinkEnd;
  /** Where it leaves it. */
  readonly to: LinkEnd;
  /** What taking it costs. */
  readonly cost: number;
  /** Whether it may be taken from `to` to `from` too. */
  readonly bidirectional: boolean;
  /** Whether it may be taken now. */
  readonly enabled: boolean;
}

/**
 * The enabled links of a grid as directed edges (a two-way link gives two), sorted by start layer,
 * then start cell: what the searches and the component labels read. Rebuilt when links change (not
 * when cells change: an edge whose end is blocked stays listed, and the search skips it). @internal
 */
export class LinkIndex {
  /** Edges in total. */
  readonly count: number;
  /** Edges starting on layer l: `start[l]` .. `start[l + 1] - 1`. */
  readonly start: Int32Array;
  /** Each edge's start cell, padded. */
  readonly fromCell: Int32Array;
  /** Each edge's end layer. */
  readonly toLayer: Uint8Array;
  /** Each edge's end cell, padded. */
  readonly toCell: Int32Array;
  /** Each edge's cost. */
  readonly cost: Float64Array;
  /** Each edge's link id. */
  readonly id: Int32Array;
  /** Per layer, one bit per padded cell where an edge starts (`bits[p >>> 5] >>> (p & 31) & 1`), or null without edges. */
  readonly bits: readonly (Uint32Array | null)[];
  /** Per layer, the layers reachable from it through edges, itself included, as a bit mask. */
  readonly reach: Uint8Array;
  /** Per layer, 1 when an edge starts and ends on it. */
  readonly sameLayer: Uint8Array;

  constructor(width: number, height: number, layerCount: number, links: Iterable<NavLink>) {
    const W = strideOf(width);
    const edges: [number, number, number, number, number, number][] = [];
    for (const k of links) {
      if (!k.enabled) continue;
      const a = padXY(W, k.from.x, k.from.y);
      const b = padXY(W, k.to.x, k.to.y);
      edges.push([k.from.layer, a, k.to.layer, b, k.cost, k.id]);
      if (k.bidirectional) edges.push([k.to.layer, b, k.from.layer, a, k.cost, k.id]);
    }
    edges.sort((e, f) => e[0] - f[0] || e[1] - f[1] || e[5] - f[5] || e[2] - f[2] || e[3] - f[3]);
    const n = edges.length;
    this.count = n;
    this.start = new Int32Array(layerCount + 1);
    this.fromCell = new Int32Array(n);
    this.toLayer = new Uint8Array(n);
    this.toCell = new Int32Array(n);
    this.cost = new Float64Array(n);
    this.id = new Int32Array(n);
    const bits: (Uint32Array | null)[] = Array.from({ length: layerCount }, () => null);
    const size = paddedSize(width, height);
    this.reach = new Uint8Array(layerCount);
    this.sameLayer = new Uint8Array(layerCount);
    const direct = new Uint8Array(layerCount);
    edges.forEach(([fl, a, tl, b, c, id], e) => {
      this.start[fl + 1]++;
      this.fromCell[e] = a;
      this.toLayer[e] = tl;
      this.toCell[e] = b;
      this.cost[e] = c;
      this.id[e] = id;
      const set = (bits[fl] ??= new Uint32Array((size + 31) >>> 5));
      set[a >>> 5] |= 1 << (a & 31);
      direct[fl] |= 1 << tl;
      if (fl === tl) this.sameLayer[fl] = 1;
    });
    for (let l = 0; l < layerCount; l++) this.start[l + 1] += this.start[l];
    this.bits = bits;
    // At most 8 layers: the closure by repeated widening.
    for (let l = 0; l < layerCount; l++) {
      let mask = 1 << l;
      for (let grew = true; grew; ) {
        let next = mask;
        for (let m = 0; m < layerCount; m++) if ((mask >>> m) & 1) next |= direct[m];
        grew = next !== mask;
        mask = next;
      }
      this.reach[l] = mask;
    }
  }

  /** Bytes held. */
  get bytes(): number {
    let b = this.start.byteLength + this.fromCell.byteLength + this.toLayer.byteLength + this.toCell.byteLength + this.cost.byteLength + this.id.byteLength;
    for (const s of this.bits) if (s !== null) b += s.byteLength;
    return b;
  }

  /** The first edge starting at padded cell `p` of layer `layer` (the edges from there follow it while `fromCell` is `p`), or -1 when none does. */
  first(layer: number, p: number): number {
    let lo = this.start[layer];
    let hi = this.start[layer + 1];
    const from = this.fromCell;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (from[mid] < p) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.start[layer + 1] && from[lo] === p ? lo : -1;
  }
}

/** The links of one grid: their records, ids and the compiled index. @internal */
export class LinkTable {
  private readonly records = new Map<number, NavLink>();
  private nextId = 1;
  private compiled: LinkIndex | null = null;
  /** Increases by one with every change of the links. */
  version = 0;

  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly layerCount: number,
  ) {}

  /** How many links are kept, enabled or not. */
  get size(): number {
    return this.records.size;
  }

  /** The enabled links as directed edges, compiled on first use after a change. */
  index(): LinkIndex {
    return (this.compiled ??= new LinkIndex(this.width, this.height, this.layerCount, this.records.values()));
  }

  /** Bytes of the compiled index (the records are a few objects, one per link). */
  get bytes(): number {
    return this.compiled?.bytes ?? 0;
  }

  /** Every link, in id order. */
  list(): NavLink[] {
    return [...this.records.values()];
  }

  /** The link `id`; a TilenavError naming `id` when there is none. */
  get(id: number): NavLink {
    const k = typeof id === 'number' ? this.records.get(id) : undefined;
    if (k === undefined) throw new TilenavError(`no link has id ${describe(id)}${this.records.size === 0 ? ' (this grid has no links)' : ''}`, { element: 'id' });
    return k;
  }

  add(link: Omit<NavLink, 'id'>): NavLink {
    const k: NavLink = Object.freeze({ ...link, id: this.nextId++ });
    this.records.set(k.id, k);
    this.touch();
    return k;
  }

  set(id: number, enabled: boolean): NavLink {
    const k = Object.freeze({ ...this.get(id), enabled });
    this.records.set(id, k);
    this.touch();
    return k;
  }

  remove(id: number): NavLink {
    const k = this.get(id);
    this.records.delete(id);
    this.touch();
    return k;
  }

  /** Replaces every link with `links` (ids kept): what a worker's copy of a grid follows. */
  replace(links: readonly NavLink[]): void {
    this.records.clear();
    for (const k of links) {
      this.records.set(k.id, Object.freeze({ ...k, from: Object.freeze({ ...k.from }), to: Object.freeze({ ...k.to }) }));
      this.nextId = Math.max(this.nextId, k.id + 1);
    }
    this.touch();
  }

  private touch(): void {
    this.compiled = null;
    this.version++;
  }
}
