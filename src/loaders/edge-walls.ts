/**
 * Edge walls declared by level editors' objects (Tiled polylines, LDtk entities and IntGrid
 * values): the names of sides, a wall along a grid line in cell units, a wall on one side of a
 * cell rectangle. Shared by the Tiled and LDtk loaders; what each reads is in docs/formats.md.
 */
import { FLAG_WALL_NORTH, FLAG_WALL_WEST, type EdgeSide, type NavGrid } from '../grid/navgrid.js';

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
export function wallAlong(grid: NavGrid, layer: number, x0: number, y0: number, x1: number, y1: number, outer?: OuterWalls): boolean {
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
  if (line <= 0 || line >= across) {
    if (outer !== undefined && (line === 0 || line === across)) {
      const side: EdgeSide = horizontal ? (line === 0 ? 'north' : 'south') : line === 0 ? 'west' : 'east';
      for (let k = from; k <= to; k++) outer.add(layer, side, k);
    }
    return true;
  }
  for (let k = from; k <= to; k++) {
    if (horizontal) grid.setEdgeWall(k, line, 'north', true, layer);
    else grid.setEdgeWall(line, k, 'west', true, layer);
  }
  return true;
}

/** A wall on `side` of the cell rectangle (x, y, width, height), the part of it on the grid. */
export function wallOnSide(grid: NavGrid, layer: number, x: number, y: number, width: number, height: number, side: EdgeSide, outer?: OuterWalls): void {
  switch (side) {
    case 'north':
      wallAlong(grid, layer, x, y, x + width, y, outer);
      break;
    case 'south':
      wallAlong(grid, layer, x, y + height, x + width, y + height, outer);
      break;
    case 'west':
      wallAlong(grid, layer, x, y, x, y + height, outer);
      break;
    default:
      wallAlong(grid, layer, x + width, y, x + width, y + height, outer);
  }
}

/**
 * The walls a level declares on its own outer edge. Its grid does not store them (its outer edge
 * is closed already), but once levels are stitched into one world grid that edge may border
 * another level, where the wall matters: {@link OuterWalls.apply} puts them on the world's grid.
 * One byte per edge cell and side, per layer: (2 width + 2 height) x layers bytes.
 */
export class OuterWalls {
  /** Per layer: the north edges of row 0, then the south edges of the last row (width each). */
  private readonly rows: Uint8Array;
  /** Per layer: the west edges of column 0, then the east edges of the last column (height each). */
  private readonly columns: Uint8Array;
  private count = 0;

  constructor(
    readonly width: number,
    readonly height: number,
    layers: number,
  ) {
    this.rows = new Uint8Array(2 * width * layers);
    this.columns = new Uint8Array(2 * height * layers);
  }

  /** Records a wall on `side` of the edge cell at `k` along that side (a column for north and south, a row for west and east). */
  add(layer: number, side: EdgeSide, k: number): void {
    const horizontal = side === 'north' || side === 'south';
    const len = horizontal ? this.width : this.height;
    if (k < 0 || k >= len) return;
    const at = (2 * layer + (side === 'south' || side === 'east' ? 1 : 0)) * len + k;
    (horizontal ? this.rows : this.columns)[at] = 1;
    this.count++;
  }

  /**
   * Writes the recorded walls into the flags of `grid`, a world grid holding this level's cells
   * with its top-left cell at (ox, oy). Edges on the world grid's own outer edge stay closed and
   * unstored. Writes the flag arrays directly: call before the grid's refresh.
   */
  apply(grid: NavGrid, ox: number, oy: number): void {
    if (this.count === 0) return;
    const { width: W, height: H } = grid;
    const { width: w, height: h } = this;
    for (let l = 0; l < grid.layers.length && 2 * l * w < this.rows.length; l++) {
      const F = grid.layers[l].flags;
      for (let x = 0; x < w; x++) {
        if (this.rows[2 * l * w + x] !== 0 && oy > 0) F[oy * W + ox + x] |= FLAG_WALL_NORTH;
        if (this.rows[(2 * l + 1) * w + x] !== 0 && oy + h < H) F[(oy + h) * W + ox + x] |= FLAG_WALL_NORTH;
      }
      for (let y = 0; y < h; y++) {
        if (this.columns[2 * l * h + y] !== 0 && ox > 0) F[(oy + y) * W + ox] |= FLAG_WALL_WEST;
        if (this.columns[(2 * l + 1) * h + y] !== 0 && ox + w < W) F[(oy + y) * W + ox + w] |= FLAG_WALL_WEST;
      }
    }
  }
}
