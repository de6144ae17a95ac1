import { MIN_COST, TilenavError, assertLimit, assertOptionsObject, describe } from '../errors.js';
import { NavGrid, DEFAULT_MAX_CELLS, MAX_LAYERS } from './navgrid.js';
import { createProjection, type ProjectionSpec } from './projection.js';
import { TerrainTable, type Terrain } from './terrain.js';
import type { LinkSpec } from './links.js';

/**
 * The binary grid format (`.tnav`), version 1. All integers little-endian.
 *
 * ```
 * offset  size  field
 *  0      4     magic "TNAV"
 *  4      4     u32 format version (1)
 *  8      4     u32 header length H in bytes (UTF-8 JSON)
 * 12      4     u32 data offset D (a multiple of 8, >= 24 + H)
 * 16      4     u32 width
 * 20      4     u32 height
 * 24      H     JSON { layers: string[], projection: ProjectionSpec, terrain: Terrain[], links?: LinkSpec[] }
 *  D      ...   the layer data, byte for byte the grid's `storage` (see NavGrid.storageBytes):
 *               float32 cost[L][n], then u8 walkable[L][n], u8 flags[L][n], u8 terrain[L][n]
 * ```
 *
 * The data is what the grid's typed arrays hold in memory, so it loads by wrapping the buffer
 * instead of copying it. Float32 costs are stored in the machine's byte order; every JavaScript
 * engine in use today is little-endian, and the loader refuses a file on one that is not.
 */
export const BINARY_MAGIC = 'TNAV';
/** The format version `formatBinaryGrid` writes and `parseBinaryGrid` reads. */
export const BINARY_VERSION = 1;
/** The file extension the CLI uses for this format. */
export const BINARY_EXTENSION = '.tnav';

const FIXED_BYTES = 24;
/**
 * Headers larger than this are refused before decoding: names, a projection and at most 256
 * terrains fit in far less, so a larger one is a corrupt length field.
 */
const MAX_HEADER_BYTES = 1 << 20;

/** Options of {@link formatBinaryGrid}. */
export interface FormatBinaryGridOptions {
  /**
   * Return a SharedArrayBuffer (a copy of the grid), e.g. to hand to workers: each worker calls
   * `parseBinaryGrid(buffer)` and gets a NavGrid on the same memory without copying. @default false
   */
  shared?: boolean;
}

/** Options of {@link parseBinaryGrid}. */
export interface BinaryGridOptions {
  /** Refuse grids with more cells than this (checked before anything is allocated). @default DEFAULT_MAX_CELLS */
  maxCells?: number;
  /** Name for error messages. @default '<binary grid>' */
  file?: string;
  /**
   * Skip the scan that checks every cell (walkable 0/1, cost finite and > 0, terrain id in the
   * table). Only for buffers this process wrote itself, e.g. one shared with a worker. @default false
   */
  trusted?: boolean;
}

/**
 * A parsed binary grid: the grid (every layer, the projection and the terrain table as saved) and
 * no warnings (the format holds everything a grid has, so nothing is dropped or guessed).
 */
export interface BinaryGrid {
  /** The grid as saved. */
  grid: NavGrid;
  /** Always empty: nothing is dropped or guessed. */
  warnings: string[];
}

interface Header {
  layers: string[];
  projection: ProjectionSpec;
  terrain: Terrain[];
  /** The grid's links in id order (absent when it has none); read back with new ids, in that order. */
  links?: LinkSpec[];
}

/**
 * Serialises a grid (every layer, the projection and the terrain table) into one buffer; see
 * {@link BINARY_MAGIC} for the layout. The grid is not changed; listeners and the version counter
 * are not saved.
 *
 * @returns an ArrayBuffer, or a SharedArrayBuffer with `{ shared: true }`.
 * @example
 * // main thread: one copy of the grid in shared memory, handed to every worker
 * const sab = formatBinaryGrid(grid, { shared: true });
 * worker.postMessage(sab);
 * // worker: a NavGrid on the same memory, no copy
 * const { grid } = parseBinaryGrid(sab, { trusted: true });
 */
export function formatBinaryGrid(grid: NavGrid, options: { shared: true }): SharedArrayBuffer;
export function formatBinaryGrid(grid: NavGrid, options?: FormatBinaryGridOptions): ArrayBuffer;
export function formatBinaryGrid(grid: NavGrid, options: FormatBinaryGridOptions = {}): ArrayBuffer | SharedArrayBuffer {
  assertOptionsObject(options, 'options');
  options ??= {};
  const header: Header = {
    layers: grid.layers.map((l) => l.name),
    projection: grid.projection.spec as ProjectionSpec,
    terrain: grid.terrain.entries().map((t) => ({ name: t.name, cost: t.cost, walkable: t.walkable })),
  };
  const links = grid.links();
  if (links.length > 0) header.links = links.map(({ from, to, cost, bidirectional, enabled }) => ({ from, to, cost, bidirectional, enabled }));
  const json = new TextEncoder().encode(JSON.stringify(header));
  if (json.length > MAX_HEADER_BYTES) throw new TilenavError(`the header would take ${json.length} bytes, past the format's ${MAX_HEADER_BYTES} (too many links: ${links.length})`, { element: 'links' });
  const dataOffset = align8(FIXED_BYTES + json.length);
  const dataBytes = NavGrid.storageBytes(grid.width, grid.height, grid.layers.length);
  const total = dataOffset + dataBytes;
  const buffer = options.shared === true ? new SharedArrayBuffer(total) : new ArrayBuffer(total);
  const bytes = new Uint8Array(buffer);
  for (let k = 0; k < 4; k++) bytes[k] = BINARY_MAGIC.charCodeAt(k);
  const dv = new DataView(buffer);
  dv.setUint32(4, BINARY_VERSION, true);
  dv.setUint32(8, json.length, true);
  dv.setUint32(12, dataOffset, true);
  dv.setUint32(16, grid.width, true);
  dv.setUint32(20, grid.height, true);
  bytes.set(json, FIXED_BYTES);
  bytes.set(new Uint8Array(grid.storage, grid.storageOffset, dataBytes), dataOffset);
  return buffer;
}

/**
 * Rebuilds a grid written by {@link formatBinaryGrid}. The grid's layers are views on `buffer`
 * itself (no copy), so writes to the grid write into the buffer and, for a SharedArrayBuffer, are
 * seen by every grid parsed from it. A Uint8Array is adopted too when its byte offset plus the data offset
 * is 4-byte aligned (Node's `readFileSync` result is); otherwise its bytes are copied once.
 *
 * Throws a TilenavError naming the field on a wrong magic, an unknown version, a truncated or
 * over-long buffer, a malformed header, a grid over `maxCells`, or (unless `trusted`) a cell value
 * the grid cannot hold.
 */
export function parseBinaryGrid(buffer: ArrayBuffer | SharedArrayBuffer | Uint8Array, options: BinaryGridOptions = {}): BinaryGrid {
  assertOptionsObject(options, 'options');
  options ??= {};
  const file = options.file ?? '<binary grid>';
  assertLimit(options.maxCells, 'maxCells');
  let base: ArrayBufferLike;
  let start: number;
  let length: number;
  if (buffer instanceof Uint8Array) {
    base = buffer.buffer;
    start = buffer.byteOffset;
    length = buffer.byteLength;
  } else if (buffer instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && buffer instanceof SharedArrayBuffer)) {
    base = buffer;
    start = 0;
    length = buffer.byteLength;
  } else {
    throw new TilenavError(`expected an ArrayBuffer, SharedArrayBuffer or Uint8Array, got ${describe(buffer)}`, { file });
  }
  if (length < FIXED_BYTES) throw new TilenavError(`truncated: ${length} bytes, shorter than the ${FIXED_BYTES}-byte header`, { file, element: 'header' });
  const bytes = new Uint8Array(base, start, length);
  let magic = '';
  for (let k = 0; k < 4; k++) magic += String.fromCharCode(bytes[k]);
  if (magic !== BINARY_MAGIC) throw new TilenavError(`not a tilenav binary grid: the file starts with ${JSON.stringify(magic)}, expected "${BINARY_MAGIC}"`, { file, element: 'magic' });
  const dv = new DataView(base, start, length);
  const version = dv.getUint32(4, true);
  if (version !== BINARY_VERSION) throw new TilenavError(`unsupported format version ${version}; this tilenav reads version ${BINARY_VERSION}`, { file, element: 'version' });
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new TilenavError('binary grids load only on little-endian machines', { file });
  const headerBytes = dv.getUint32(8, true);
  const dataOffset = dv.getUint32(12, true);
  const width = dv.getUint32(16, true);
  const height = dv.getUint32(20, true);
  if (headerBytes > MAX_HEADER_BYTES || FIXED_BYTES + headerBytes > length) {
    throw new TilenavError(`header length ${headerBytes} runs past the end of the ${length}-byte buffer`, { file, element: 'header length' });
  }
  if (dataOffset % 8 !== 0 || dataOffset < FIXED_BYTES + headerBytes) {
    throw new TilenavError(`data offset ${dataOffset} must be a multiple of 8 after the ${headerBytes}-byte header`, { file, element: 'data offset' });
  }
  if (width < 1 || height < 1) throw new TilenavError(`grid size must be at least 1 x 1, got ${width} x ${height}`, { file, element: 'width/height' });
  const maxCells = options.maxCells ?? DEFAULT_MAX_CELLS;
  if (width * height > maxCells) {
    throw new TilenavError(`grid of ${width} x ${height} = ${width * height} cells exceeds maxCells ${maxCells}; pass a larger maxCells to allow it`, { file, element: 'width/height' });
  }
  const header = readHeader(bytes.subarray(FIXED_BYTES, FIXED_BYTES + headerBytes), file);
  const expected = dataOffset + NavGrid.storageBytes(width, height, header.layers.length);
  if (length !== expected) {
    throw new TilenavError(`${length < expected ? 'truncated' : 'trailing bytes'}: ${length} bytes, expected ${expected} for ${header.layers.length} layers of ${width} x ${height}`, { file, element: 'layer data' });
  }
  let terrain: TerrainTable;
  let projection;
  try {
    terrain = new TerrainTable(header.terrain);
    projection = createProjection(header.projection);
  } catch (e) {
    if (e instanceof TilenavError) throw new TilenavError(e.message, { file, element: 'header' });
    throw e;
  }
  if ((start + dataOffset) % 4 !== 0) {
    // Float32Array views need 4-byte alignment: copy once rather than fail.
    base = bytes.slice().buffer;
    start = 0;
  }
  let grid: NavGrid;
  try {
    grid = new NavGrid(width, height, { layers: header.layers, projection, terrain, maxCells, storage: base, storageOffset: start + dataOffset });
  } catch (e) {
    // The grid's own checks (duplicate layer names, ...) do not know the file: say which it was.
    if (e instanceof TilenavError && e.file === undefined) throw new TilenavError(e.message, { file });
    throw e;
  }
  if (options.trusted !== true) checkCells(grid, file);
  header.links?.forEach((k, i) => {
    try {
      grid.addLink(k);
    } catch (e) {
      if (e instanceof TilenavError) throw new TilenavError(e.message, { file, element: `header.links[${i}]` });
      throw e;
    }
  });
  grid.refresh();
  return { grid, warnings: [] };
}

function readHeader(raw: Uint8Array, file: string): Header {
  let parsed: unknown;
  try {
    // A copy: TextDecoder refuses views on a SharedArrayBuffer.
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw.slice()));
  } catch (e) {
    throw new TilenavError(`the header is not valid UTF-8 JSON (${(e as Error).message})`, { file, element: 'header' });
  }
  const h = parsed as Partial<Header> | null;
  if (h === null || typeof h !== 'object' || Array.isArray(h)) throw new TilenavError('the header must be a JSON object', { file, element: 'header' });
  const { layers, projection, terrain, links } = h;
  if (links !== undefined && !Array.isArray(links)) throw new TilenavError('expected a list of links', { file, element: 'header.links' });
  if (!Array.isArray(layers) || layers.length < 1 || layers.length > MAX_LAYERS || !layers.every((n) => typeof n === 'string')) {
    throw new TilenavError(`expected 1 to ${MAX_LAYERS} layer names`, { file, element: 'header.layers' });
  }
  if (projection === null || typeof projection !== 'object') throw new TilenavError('expected a projection object', { file, element: 'header.projection' });
  if (!Array.isArray(terrain) || terrain.length < 1 || terrain.length > 256) throw new TilenavError('expected 1 to 256 terrain entries', { file, element: 'header.terrain' });
  terrain.forEach((t, i) => {
    if (t === null || typeof t !== 'object' || typeof t.name !== 'string' || typeof t.cost !== 'number' || typeof t.walkable !== 'boolean') {
      throw new TilenavError('expected { name: string, cost: number, walkable: boolean }', { file, element: `header.terrain[${i}]` });
    }
  });
  return { layers, projection, terrain, links };
}

/**
 * Rejects cell values no setter could have written, so the search's invariants hold. Small
 * word-wide loops first (the common, valid case); the slow loop only runs to name the bad cell.
 */
function checkCells(grid: NavGrid, file: string): void {
  const terrains = grid.terrain.size;
  for (const layer of grid.layers) {
    const { walkable, cost, terrain } = layer;
    if (costsValid(cost) && byteOr(walkable) <= 1 && (byteOr(terrain) < terrains || byteMax(terrain) < terrains)) continue;
    for (let i = 0; i < grid.size; i++) {
      const c = cost[i];
      // `!(c >= MIN_COST)` also catches NaN and the subnormals no setter writes.
      if (walkable[i] > 1 || !(c >= MIN_COST) || c === Infinity || terrain[i] >= terrains) {
        const what = walkable[i] > 1 ? `walkable ${walkable[i]}` : terrain[i] >= terrains ? `terrain id ${terrain[i]} (the table has ${terrains})` : `cost ${c}`;
        throw new TilenavError(`cell (${grid.xOf(i)}, ${grid.yOf(i)}) holds ${what}`, { file, element: `layer "${layer.name}"` });
      }
    }
  }
}

/** Every cost a normal positive float32, as the setters allow: bit patterns 0x00800000..0x7f7fffff. */
function costsValid(cost: Float32Array): boolean {
  const bits = new Uint32Array(cost.buffer, cost.byteOffset, cost.length);
  for (let i = 0; i < bits.length; i++) if (((bits[i] - 0x00800000) >>> 0) > 0x7effffff) return false;
  return true;
}

/** The OR of all bytes, an upper bound of each; read four at a time where aligned. */
function byteOr(a: Uint8Array): number {
  let i = 0;
  let or = 0;
  for (; i < a.length && (a.byteOffset + i) % 4 !== 0; i++) or |= a[i];
  const words = (a.length - i) >> 2;
  let wor = 0;
  if (words > 0) {
    const w = new Uint32Array(a.buffer, a.byteOffset + i, words);
    for (let k = 0; k < words; k++) wor |= w[k];
  }
  for (i += words * 4; i < a.length; i++) or |= a[i];
  return or | (wor & 0xff) | ((wor >>> 8) & 0xff) | ((wor >>> 16) & 0xff) | (wor >>> 24);
}

function byteMax(a: Uint8Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) if (a[i] > max) max = a[i];
  return max;
}

function align8(n: number): number {
  return (n + 7) & ~7;
}
