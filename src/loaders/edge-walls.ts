/**
 * Edge walls declared by level editors' objects (Tiled polylines, LDtk entities and IntGrid
 * values): the names of sides, a wall along a grid line in cell units, a wall on one side of a
 * cell rectangle. Shared by the Tiled and LDtk loaders; what each reads is in docs/formats.md.
 */
import type { EdgeSide, NavGrid } from '../grid/navgrid.js';

const SIDE_NAMES: ReadonlyMap<string, EdgeSide> = new Map([
  ['n', 'north'],
  ['north', 'north'],
  ['top', 'north'],
  ['up', 'north'],
  ['e', 'east'],
  ['east', 'east'],
  ['right', 'east'],
  ['s', 'south'],
  ['south', 'south'],
  ['bottom', 'south'],
  ['down', 'south'],
  ['w', 'west'],
  ['west', 'west'],
  ['left', 'west'],
]);

/** The side a name says (`N`, `north`, `Top`, ..., any case), or null. */
export function sideNamed(name: string): EdgeSide | null {
  return SIDE_NAMES.get(name.toLowerCase()) ?? null;
}

/**
 * The side an identifier such as `wall_north`, `fence-N`, `wallWest` or `Edge S` names when its
 * first word is one of `words` (lower case): the word, an optional `_`, `-` or space, then a side
 * name. Null for any other identifier.
 */
export function sideOfIdentifier(identifier: string, words: ReadonlySet<string>): EdgeSide | null {
  const m = /^([a-z]+?)[ _-]?(n|e|s|w|north|east|south|west|top|right|bottom|left)$/i.exec(identifier);
  if (m === null || !words.has(m[1].toLowerCase())) return null;
  return sideNamed(m[2]);
}

/** How far (in cells) a wall's line may lie from a grid line and still stand on it. */
export const GRID_LINE_TOLERANCE = 0.25;

/**
 * Walls along the segment (x0, y0) - (x1, y1) in cell units (cell (x, y) spans x..x+1, y..y+1)
 * on `layer`: a horizontal segment within {@link GRID_LINE_TOLERANCE} of a grid line walls the
 * edges of that line it covers by more than half a cell, a vertical one likewise. Returns false
 * (and walls nothing) for a segment that is neither, true otherwise. Edges on the grid's outer
 * edge, or off it, are left out (the outer edge is closed already).
 */
export function wallAlong(grid: NavGrid, layer: number, x0: number, y0: number, x1: number, y1: number): boolean {
  const horizontal = Math.abs(y1 - y0) <= GRID_LINE_TOLERANCE && Math.abs(x1 - x0) > Math.abs(y1 - y0);
  const vertical = Math.abs(x1 - x0) <= GRID_LINE_TOLERANCE && Math.abs(y1 - y0) > Math.abs(x1 - x0);
  if (!horizontal && !vertical) return Math.abs(x1 - x0) + Math.abs(y1 - y0) === 0;
  const line = horizontal ? Math.round((y0 + y1) / 2) : Math.round((x0 + x1) / 2);
  if (Math.abs((horizontal ? (y0 + y1) / 2 : (x0 + x1) / 2) - line) > GRID_LINE_TOLERANCE) return false;
  const a = horizontal ? Math.min(x0, x1) : Math.min(y0, y1);
  const b = horizontal ? Math.max(x0, x1) : Math.max(y0, y1);
  // Cells covered by more than half their side: from round(a) to round(b) - 1.
  const from = Math.max(0, Math.round(a));
  const to = Math.min(horizontal ? grid.width : grid.height, Math.round(b)) - 1;
  const across = horizontal ? grid.height : grid.width;
  if (line <= 0 || line >= across) return true;
  for (let k = from; k <= to; k++) {
    if (horizontal) grid.setEdgeWall(k, line, 'north', true, layer);
    else grid.setEdgeWall(line, k, 'west', true, layer);
  }
  return true;
}

/** A wall on `side` of the cell rectangle (x, y, width, height), the part of it on the grid. */
export function wallOnSide(grid: NavGrid, layer: number, x: number, y: number, width: number, height: number, side: EdgeSide): void {
  switch (side) {
    case 'north':
      wallAlong(grid, layer, x, y, x + width, y);
      break;
    case 'south':
      wallAlong(grid, layer, x, y + height, x + width, y + height);
      break;
    case 'west':
      wallAlong(grid, layer, x, y, x, y + height);
      break;
    default:
      wallAlong(grid, layer, x + width, y, x + width, y + height);
  }
}
