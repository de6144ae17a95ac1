/**
 * What the PathService and its workers say to each other. Plain data only (structured clone), so
 * the same messages cross Node worker_threads and browser Web Workers.
 */
import { NavGrid } from '../grid/navgrid.js';
import { createProjection, type ProjectionSpec } from '../grid/projection.js';
import { TerrainTable, type Terrain } from '../grid/terrain.js';
import type { NavLink } from '../grid/links.js';
import type { FlowFieldSnapshot } from '../agents/flowfield.js';

/** Everything but the cells: enough to rebuild a NavGrid on a buffer in another thread. */
export interface GridMeta {
  width: number;
  height: number;
  layers: string[];
  projection: ProjectionSpec;
  terrain: Terrain[];
  /** The grid's links (`grid.addLink`), ids kept. */
  links: NavLink[];
  version: number;
}

/** Per request in a `run` message, in this order. */
export const RUN_FIELDS = 16;
/**
 * Per answer in a `done` message: id, status code, cost, expanded, version, first cell, cell
 * count, reached cell, refusal code, and 1 when the cells' layers follow the cells in `cells`
 * (as many again; a path across layers), else 0.
 */
export const DONE_FIELDS = 10;

/** Per flow field request in a `field` message: id, goal cell, layer, movement, maxCost, deadline. */
export const FIELD_FIELDS = 6;

/** Refusal codes on the wire (index + 1; 0 for none). */
export const WIRE_REASON = ['outside', 'blocked', 'unit-does-not-fit'] as const;

/** Algorithm codes on the wire. */
export const WIRE_ALGORITHM = ['astar', 'jps', 'jps+', 'hpa', 'auto', 'subgoal'] as const;

/** Status codes on the wire; the index into this list. */
export const WIRE_STATUS = ['found', 'no-path', 'limit-reached', 'invalid-start', 'invalid-goal', 'error', 'deadline', 'partial'] as const;
export type WireStatus = (typeof WIRE_STATUS)[number];

export type ToWorker =
  /** `shared`: `storage` is the main thread's SharedArrayBuffer; else a private copy (transferred). */
  | { t: 'init'; meta: GridMeta; storage: ArrayBufferLike; storageOffset: number; shared: boolean }
  /**
   * A changed rectangle. With a shared buffer the cells are already in place; otherwise `data`
   * holds the rectangle's cost (Float32, as bytes), walkable, flags and terrain rows, in that order.
   */
  | { t: 'change'; layer: number; x: number; y: number; width: number; height: number; version: number; data: Uint8Array | null }
  /** Every link of the grid, after any of them changed (sent before that change's `change` messages). */
  | { t: 'links'; links: NavLink[] }
  /** `data`: RUN_FIELDS numbers per request (id, sx, sy, gx, gy, layer, movement, maxIterations, weight, deadline, algorithm, nearest, radius, reachabilityCheck, goalLayer, stayOnLayer). */
  | { t: 'run'; batch: number; data: Float64Array }
  /**
   * One flow field to build (FIELD_FIELDS numbers in `data`), as far as the cells `cells` need
   * (null: every cell that reaches the goal, up to maxCost).
   */
  | { t: 'field'; batch: number; data: Float64Array; cells: Int32Array | null };

export type FromWorker =
  | { t: 'ready' }
  /**
   * A batch's answers in one buffer (moved, not copied): DONE_FIELDS numbers per answer (Float64),
   * then the cells of every path (Int32) from byte `cellsAt`. `errors[k]` is the message of answer
   * k when its status is `error`. `busyMs`: how long the worker spent on the batch.
   */
  | { t: 'done'; batch: number; data: ArrayBuffer; cellsAt: number; errors: (string | null)[] | null; busyMs: number }
  /**
   * A flow field built on grid version `version`: its state, every buffer moved (see
   * {@link fieldTransfers}); null with `error` when the build failed, null without when its deadline passed first.
   */
  | { t: 'field-done'; batch: number; version: number; field: FlowFieldSnapshot | null; error: string | null; busyMs: number };

/** The buffers a `field-done` message moves rather than copies: each sector's storage, the queue's arrays. */
export function fieldTransfers(f: FlowFieldSnapshot): ArrayBuffer[] {
  const q = f.queue;
  return [...f.storage, f.sectors.buffer as ArrayBuffer, f.numbers.buffer as ArrayBuffer, q.state.buffer, q.head.buffer, q.next.buffer, q.nodes.buffer, q.keys.buffer];
}

/** The grid's description for {@link gridFromMeta}. */
export function gridMeta(grid: NavGrid): GridMeta {
  return {
    width: grid.width,
    height: grid.height,
    layers: grid.layers.map((l) => l.name),
    projection: { ...grid.projection.spec } as ProjectionSpec,
    terrain: grid.terrain.entries().map((t) => ({ name: t.name, cost: t.cost, walkable: t.walkable })),
    links: grid.links(),
    version: grid.version,
  };
}

/** A NavGrid adopting `storage` (no copy) as {@link gridMeta} described it. */
export function gridFromMeta(meta: GridMeta, storage: ArrayBufferLike, storageOffset = 0): NavGrid {
  const grid = new NavGrid(meta.width, meta.height, {
    layers: meta.layers,
    projection: createProjection(meta.projection),
    terrain: new TerrainTable(meta.terrain),
    storage,
    storageOffset,
    maxCells: meta.width * meta.height,
  });
  if (meta.links.length > 0) grid.replaceLinks(meta.links);
  return grid;
}

/** True when this environment can share memory with workers (Node; a cross-origin isolated page). */
export function canShareMemory(): boolean {
  const g = globalThis as { SharedArrayBuffer?: unknown; crossOriginIsolated?: boolean };
  return typeof g.SharedArrayBuffer === 'function' && g.crossOriginIsolated !== false;
}

/**
 * The bytes of one layer's rectangle, for the copy mode: cost (4 bytes per cell), then walkable,
 * flags and terrain (1 byte each), row by row.
 */
export function packRect(grid: NavGrid, layer: number, x: number, y: number, width: number, height: number): Uint8Array {
  const n = width * height;
  const out = new Uint8Array(n * 7);
  const cost = new Float32Array(out.buffer, 0, n);
  const l = grid.layers[layer];
  for (let r = 0; r < height; r++) {
    const from = (y + r) * grid.width + x;
    cost.set(l.cost.subarray(from, from + width), r * width);
    out.set(l.walkable.subarray(from, from + width), n * 4 + r * width);
    out.set(l.flags.subarray(from, from + width), n * 5 + r * width);
    out.set(l.terrain.subarray(from, from + width), n * 6 + r * width);
  }
  return out;
}

/** Writes {@link packRect}'s bytes back into a grid's layer (without emitting a change). */
export function unpackRect(grid: NavGrid, layer: number, x: number, y: number, width: number, height: number, data: Uint8Array): void {
  const n = width * height;
  const cost = new Float32Array(data.buffer, data.byteOffset, n);
  const l = grid.layers[layer];
  for (let r = 0; r < height; r++) {
    const to = (y + r) * grid.width + x;
    l.cost.set(cost.subarray(r * width, (r + 1) * width), to);
    l.walkable.set(data.subarray(n * 4 + r * width, n * 4 + (r + 1) * width), to);
    l.flags.set(data.subarray(n * 5 + r * width, n * 5 + (r + 1) * width), to);
    l.terrain.set(data.subarray(n * 6 + r * width, n * 6 + (r + 1) * width), to);
  }
}
