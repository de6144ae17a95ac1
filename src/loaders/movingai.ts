import { TilenavError } from '../errors.js';
import { NavGrid, DEFAULT_MAX_CELLS } from '../grid/navgrid.js';
import { orthogonal } from '../grid/projection.js';
import { checkLimit, fileOption } from './limits.js';
import type { LoadedGrid } from './result.js';

/** Options for the Moving AI parsers. */
export interface MovingAiOptions {
  /** The file name to put in error messages. @default '<map>' / '<scen>' */
  file?: string;
  /** Refuse maps with more cells than this; NaN or a non-number is refused. @default DEFAULT_MAX_CELLS */
  maxCells?: number;
}

/** A parsed Moving AI map: its one-layer grid (the format has nothing else) and no warnings. */
export type MovingAiMap = LoadedGrid;

/** Passable terrain characters of the Moving AI format: `.` and `G` ground, `S` swamp. */
const PASSABLE = new Set(['.', 'G', 'S']);
/** Blocked: `@` and `O` out of bounds, `T` trees, `W` water. */
const BLOCKED = new Set(['@', 'O', 'T', 'W']);

/**
 * Parses a Moving AI `.map` (`type octile`, `height H`, `width W`, `map`, then H rows of W
 * characters) into a one-layer NavGrid with uniform cost 1 and the orthogonal(1, 1) projection.
 */
export function parseMovingAiMap(text: string, options: MovingAiOptions = {}): MovingAiMap {
  const file = fileOption(options, '<map>');
  if (typeof text !== 'string') throw new TilenavError('expected the map file text as a string', { file });
  const lines = text.split(/\r?\n/);
  let width = -1;
  let height = -1;
  let row = 0;
  for (; row < lines.length; row++) {
    const line = lines[row].trim();
    if (line === '') continue;
    if (line === 'map') break;
    const m = /^(type|height|width)\s+(\S+)$/.exec(line);
    if (!m) throw new TilenavError(`expected a header line "type octile", "height N", "width N" or "map", got ${JSON.stringify(line.slice(0, 40))}`, { file, line: row + 1 });
    if (m[1] === 'type') {
      if (m[2] !== 'octile') throw new TilenavError(`unsupported map type ${JSON.stringify(m[2])}; expected "octile"`, { file, line: row + 1 });
    } else {
      const v = Number(m[2]);
      if (!Number.isInteger(v) || v < 1) throw new TilenavError(`${m[1]} must be a whole number >= 1, got ${JSON.stringify(m[2])}`, { file, line: row + 1 });
      if (m[1] === 'height') height = v;
      else width = v;
    }
  }
  if (row >= lines.length) throw new TilenavError('no "map" line: expected the header to end with "map" before the rows', { file, line: lines.length });
  if (width < 0 || height < 0) throw new TilenavError(`the header lacks ${width < 0 ? '"width N"' : '"height N"'}`, { file, line: row + 1 });
  const maxCells = checkLimit(options.maxCells, 'maxCells', DEFAULT_MAX_CELLS);
  if (width * height > maxCells) {
    throw new TilenavError(`map of ${width} x ${height} = ${width * height} cells exceeds maxCells ${maxCells}; pass a larger maxCells to allow it`, { file, line: lineOf(lines, height >= width ? 'height' : 'width') });
  }
  const grid = new NavGrid(width, height, { projection: orthogonal(1, 1), maxCells });
  const walk = grid.layers[0].walkable;
  for (let y = 0; y < height; y++) {
    const lineNo = row + 2 + y;
    const line = lines[row + 1 + y];
    if (line === undefined || (line.trim() === '' && lines.slice(row + 1 + y).every((l) => l.trim() === ''))) {
      throw new TilenavError(`the map ends after ${y} of ${height} rows`, { file, line: lineNo - 1 });
    }
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text.length !== width) throw new TilenavError(`row ${y} has ${text.length} characters; the header says width ${width}`, { file, line: lineNo });
    for (let x = 0; x < width; x++) {
      const ch = text[x];
      if (PASSABLE.has(ch)) walk[y * width + x] = 1;
      else if (BLOCKED.has(ch)) walk[y * width + x] = 0;
      else throw new TilenavError(`unknown terrain character ${JSON.stringify(ch)} at column ${x + 1}; expected one of . G S @ O T W`, { file, line: lineNo });
    }
  }
  for (let k = row + 1 + height; k < lines.length; k++) {
    if (lines[k].trim() !== '') throw new TilenavError(`unexpected text after the ${height} map rows`, { file, line: k + 1 });
  }
  grid.refresh();
  return { grid, warnings: [] };
}

/** One query of a Moving AI scenario file. */
export interface ScenarioQuery {
  /** The difficulty bucket the file puts the query in (by optimal length). */
  bucket: number;
  /** The map column as written (it may carry folders). */
  map: string;
  /** Width of the map the query was made for, in cells. */
  mapWidth: number;
  /** Height of that map, in cells. */
  mapHeight: number;
  /** Start column. */
  startX: number;
  /** Start row (0 at the top). */
  startY: number;
  /** Goal column. */
  goalX: number;
  /** Goal row. */
  goalY: number;
  /** Optimal octile length without corner cutting; 0 with start != goal means no path. */
  optimal: number;
  /** 1-based line in the file, for messages. */
  line: number;
}

/** Parses a `.scen` file (version 1, tab- or space-separated columns). */
export function parseScenario(text: string, options: { file?: string } = {}): ScenarioQuery[] {
  const file = fileOption(options, '<scen>');
  if (typeof text !== 'string') throw new TilenavError('expected the scenario file text as a string', { file });
  const lines = text.split(/\r?\n/);
  const out: ScenarioQuery[] = [];
  let k = 0;
  while (k < lines.length && lines[k].trim() === '') k++;
  const version = /^version\s+(\S+)$/.exec((lines[k] ?? '').trim());
  if (!version) throw new TilenavError('expected the first line "version 1"', { file, line: k + 1 });
  if (Number(version[1]) !== 1) throw new TilenavError(`unsupported scenario version ${JSON.stringify(version[1])}; expected 1`, { file, line: k + 1 });
  for (k++; k < lines.length; k++) {
    const line = lines[k].trim();
    if (line === '') continue;
    const cols = line.split(/\t+|\s+/);
    if (cols.length !== 9) throw new TilenavError(`expected 9 columns (bucket map width height startX startY goalX goalY optimal), got ${cols.length}`, { file, line: k + 1 });
    const nums = cols.map((c, i) => (i === 1 ? 0 : Number(c)));
    for (const i of [0, 2, 3, 4, 5, 6, 7]) {
      if (!Number.isInteger(nums[i]) || nums[i] < 0) throw new TilenavError(`column ${i + 1} must be a whole number >= 0, got ${JSON.stringify(cols[i])}`, { file, line: k + 1 });
    }
    if (!Number.isFinite(nums[8]) || nums[8] < 0) throw new TilenavError(`the optimal length must be a number >= 0, got ${JSON.stringify(cols[8])}`, { file, line: k + 1 });
    out.push({ bucket: nums[0], map: cols[1], mapWidth: nums[2], mapHeight: nums[3], startX: nums[4], startY: nums[5], goalX: nums[6], goalY: nums[7], optimal: nums[8], line: k + 1 });
  }
  return out;
}

/** Writes a NavGrid layer as a Moving AI `.map` (`.` walkable, `@` blocked). */
export function formatMovingAiMap(grid: NavGrid, layer: number | string = 0): string {
  const walk = grid.layer(layer).walkable;
  const rows: string[] = ['type octile', `height ${grid.height}`, `width ${grid.width}`, 'map'];
  for (let y = 0; y < grid.height; y++) {
    let s = '';
    for (let x = 0; x < grid.width; x++) s += walk[y * grid.width + x] === 1 ? '.' : '@';
    rows.push(s);
  }
  return rows.join('\n') + '\n';
}

/** 1-based line of the header line starting with `key`. */
function lineOf(lines: string[], key: string): number {
  return lines.findIndex((l) => l.trim().startsWith(key)) + 1;
}
