import { TilenavError } from '../errors.js';
import { NavGrid, DEFAULT_MAX_CELLS } from '../grid/navgrid.js';
import { continuous } from '../grid/projection.js';
import { checkLimit, fileOption, inFile } from './limits.js';
import type { LoadedGrid } from './result.js';

/**
 * The numbers in a text grid's header. The geometry keys are required on load; every other key
 * (agentRadius, objectPadding, ...) is kept as it was read, so a save writes it back.
 */
export interface TextGridParams {
  /** Width and depth of one cell, world units. */
  cellSize: number;
  /** World x of the grid's low edge (column 0's left side). */
  minX: number;
  /** World z of the grid's low edge (row 0's side). */
  minZ: number;
  /** @default 0 */
  floorY: number;
  /** Any further `key value` header lines, in file order (e.g. agentRadius, objectPadding). */
  extra: [string, number][];
}

/** Options of {@link parseTextGrid}. */
export interface TextGridOptions {
  /** The file name for error messages. @default '<txt>' */
  file?: string;
  /** Refuse grids with more cells than this; NaN or a non-number is refused. @default DEFAULT_MAX_CELLS */
  maxCells?: number;
}

/** A parsed text grid: the one-layer NavGrid (continuous projection), no warnings, and its header. */
export interface TextGrid extends LoadedGrid {
  /** The header's numbers. */
  params: TextGridParams;
}

/** Keys the loader interprets itself; all others go to `extra`. */
const GEOMETRY_KEYS = ['cellSize', 'floorY', 'minX', 'minZ', 'gridWidth', 'gridDepth'];

/**
 * Parses a pre-computed text grid: `key value` header lines (cellSize, floorY, minX, minZ,
 * gridWidth, gridDepth required but floorY; agentRadius and any other numeric keys kept), then
 * gridDepth rows of gridWidth characters, `1` walkable and `0` blocked. Row z of the file is grid
 * row y = z. CRLF line ends and blank lines after the rows are accepted.
 *
 * The grid gets `continuous(cellSize, minX, minZ, floorY)`. Errors name the file and line.
 */
export function parseTextGrid(text: string, options: TextGridOptions = {}): TextGrid {
  const file = fileOption(options, '<txt>');
  if (typeof text !== 'string') throw new TilenavError('expected the grid file text as a string', { file });
  const lines = text.split('\n');
  const values = new Map<string, number>();
  const extra: [string, number][] = [];
  let k = 0;
  for (; k < lines.length; k++) {
    const line = strip(lines[k]);
    if (line === '') continue;
    // A row starts with 0 or 1; header keys start with a letter.
    if (/^[01]/.test(line)) break;
    const m = /^([A-Za-z_][A-Za-z0-9_]*)\s+(\S+)$/.exec(line);
    if (!m) throw new TilenavError(`expected a header line "key number" or a row of 0/1, got ${JSON.stringify(line.slice(0, 40))}`, { file, line: k + 1 });
    const [, key, raw] = m;
    const v = Number(raw);
    if (!Number.isFinite(v) || raw.trim() === '') throw new TilenavError(`${key} must be a finite number, got ${JSON.stringify(raw)}`, { file, line: k + 1 });
    if (values.has(key)) throw new TilenavError(`${key} appears twice in the header`, { file, line: k + 1 });
    values.set(key, v);
    if (!GEOMETRY_KEYS.includes(key)) extra.push([key, v]);
  }
  const headerEnd = k;
  const need = (key: string, check: (v: number) => boolean, what: string): number => {
    const v = values.get(key);
    if (v === undefined) throw new TilenavError(`the header lacks "${key}"`, { file, line: headerEnd + 1 });
    if (!check(v)) throw new TilenavError(`${key} must be ${what}, got ${v}`, { file, line: lineOf(lines, key) });
    return v;
  };
  const cellSize = need('cellSize', (v) => v > 0, '> 0');
  const minX = need('minX', () => true, 'a number');
  const minZ = need('minZ', () => true, 'a number');
  const width = need('gridWidth', (v) => Number.isInteger(v) && v >= 1, 'a whole number >= 1');
  const depth = need('gridDepth', (v) => Number.isInteger(v) && v >= 1, 'a whole number >= 1');
  const floorY = values.get('floorY') ?? 0;
  const maxCells = checkLimit(options.maxCells, 'maxCells', DEFAULT_MAX_CELLS);
  if (width * depth > maxCells) {
    throw new TilenavError(`grid of ${width} x ${depth} = ${width * depth} cells exceeds maxCells ${maxCells}; pass a larger maxCells to allow it`, { file, line: lineOf(lines, 'gridWidth') });
  }
  const grid = inFile(file, lineOf(lines, 'cellSize'), () => new NavGrid(width, depth, { projection: continuous(cellSize, minX, minZ, floorY), walkable: false, maxCells }));
  const walk = grid.layers[0].walkable;
  for (let y = 0; y < depth; y++) {
    const lineNo = headerEnd + y + 1;
    const row = headerEnd + y < lines.length ? strip(lines[headerEnd + y]) : '';
    if (row === '') throw new TilenavError(`the grid ends after ${y} of ${depth} rows`, { file, line: Math.min(lineNo, lines.length) });
    if (row.length !== width) throw new TilenavError(`row ${y} has ${row.length} characters; gridWidth is ${width}`, { file, line: lineNo });
    const base = y * width;
    for (let x = 0; x < width; x++) {
      const c = row.charCodeAt(x);
      if (c === 49) walk[base + x] = 1;
      else if (c !== 48) throw new TilenavError(`expected 0 or 1 at column ${x + 1}, got ${JSON.stringify(row[x])}`, { file, line: lineNo });
    }
  }
  for (let j = headerEnd + depth; j < lines.length; j++) {
    if (strip(lines[j]) !== '') throw new TilenavError(`unexpected text after the ${depth} grid rows`, { file, line: j + 1 });
  }
  grid.refresh();
  return { grid, warnings: [], params: { cellSize, minX, minZ, floorY, extra } };
}

/**
 * Writes one layer's walkability in the text grid format. The geometry comes from `params` when
 * given, else from the grid's projection: continuous as it is, orthogonal with square tiles as
 * cellSize = tileWidth, minX/minZ = its origin. Any other projection needs `params` (the text
 * format only describes the continuous world) and throws a TilenavError without them.
 *
 * `formatTextGrid(parseTextGrid(t).grid, { params })` gives `t` back for any `t` this function
 * wrote; numbers are written in JavaScript's shortest round-trip form, so every double survives.
 */
export function formatTextGrid(grid: NavGrid, options: { params?: Partial<TextGridParams>; layer?: number | string } = {}): string {
  const spec = grid.projection.spec;
  let base: Omit<TextGridParams, 'extra'>;
  if (spec.kind === 'continuous') base = { cellSize: spec.cellSize, minX: spec.minX ?? 0, minZ: spec.minZ ?? 0, floorY: spec.floorY ?? 0 };
  else if (spec.kind === 'orthogonal' && spec.tileWidth === spec.tileHeight) base = { cellSize: spec.tileWidth, minX: spec.originX ?? 0, minZ: spec.originY ?? 0, floorY: 0 };
  else if (options.params?.cellSize !== undefined) base = { cellSize: options.params.cellSize, minX: 0, minZ: 0, floorY: 0 };
  else throw new TilenavError(`a ${projectionName(spec)} projection has no text grid equivalent; pass params.cellSize`, { element: 'projection' });
  const p = { ...base, extra: [] as [string, number][], ...options.params };
  const lines = [`cellSize ${num(p.cellSize)}`];
  // The order of the format's own sample files: cellSize, agentRadius, floorY, the rest, then the geometry.
  const extra = p.extra.filter(([key]) => !GEOMETRY_KEYS.includes(key));
  const radius = extra.findIndex(([key]) => key === 'agentRadius');
  if (radius >= 0) lines.push(`agentRadius ${num(extra.splice(radius, 1)[0][1])}`);
  lines.push(`floorY ${num(p.floorY)}`);
  for (const [key, v] of extra) lines.push(`${key} ${num(v)}`);
  lines.push(`minX ${num(p.minX)}`, `minZ ${num(p.minZ)}`, `gridWidth ${grid.width}`, `gridDepth ${grid.height}`);
  const walk = grid.layer(options.layer ?? 0).walkable;
  const row = new Uint8Array(grid.width);
  const decoder = new TextDecoder();
  for (let y = 0; y < grid.height; y++) {
    const off = y * grid.width;
    for (let x = 0; x < grid.width; x++) row[x] = walk[off + x] === 1 ? 49 : 48;
    lines.push(decoder.decode(row));
  }
  return lines.join('\n') + '\n';
}

/** A projection's name for messages: a staggered projection with hexagon sides is a Tiled hex map's. */
function projectionName(spec: NavGrid['projection']['spec']): string {
  return spec.kind === 'staggered' && (spec.hexSideLength ?? 0) > 0 ? 'hexagonal (staggered)' : spec.kind;
}

/** Shortest round-trip form; `String(-0)` is "0", which would lose the sign. */
function num(v: number): string {
  return Object.is(v, -0) ? '-0' : String(v);
}

function strip(line: string): string {
  return (line.endsWith('\r') ? line.slice(0, -1) : line).trim();
}

function lineOf(lines: string[], key: string): number {
  const i = lines.findIndex((l) => l.trim().startsWith(key + ' ') || l.trim().startsWith(key + '\t'));
  return i + 1;
}
