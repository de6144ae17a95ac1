import { TilenavError, assertPositive } from '../errors.js';

/**
 * A point in the game's world. 2D projections fill `x` and `y` and leave `z` at 0; the continuous
 * world (3D games) lies in the XZ plane, so it fills `x` and `z` and puts `floorY` in `y`.
 */
export interface WorldPoint {
  /** World x, in world units. */
  x: number;
  /** World y: down the screen in 2D; `floorY` (height) in the continuous world. */
  y: number;
  /** World z: 0 in 2D; the second plane axis in the continuous world. */
  z: number;
}

/** Cell coordinates (integers for a cell, fractions for a position inside one). */
export interface CellPoint {
  /** Column. */
  x: number;
  /** Row. */
  y: number;
}

/** Hex layouts: `axial` stores (q, r) directly; the offset layouts are Red Blob Games' names. */
export type HexLayout = 'axial' | 'odd-r' | 'even-r' | 'odd-q' | 'even-q';

/** The serialisable description of a projection; `createProjection` turns it back into one. */
export type ProjectionSpec =
  | {
      /** Square tiles ({@link orthogonal}). */
      kind: 'orthogonal';
      /** Tile width, world units. */
      tileWidth: number;
      /** Tile height, world units. */
      tileHeight: number;
      /** World x of cell (0, 0)'s top-left corner. @default 0 */
      originX?: number;
      /** World y of cell (0, 0)'s top-left corner. @default 0 */
      originY?: number;
    }
  | {
      /** Isometric diamonds ({@link isometric}). */
      kind: 'isometric';
      /** Diamond width on screen, world units. */
      tileWidth: number;
      /** Diamond height on screen, world units. */
      tileHeight: number;
      /** World x of cell (0, 0)'s top corner. @default 0 */
      originX?: number;
      /** World y of cell (0, 0)'s top corner. @default 0 */
      originY?: number;
    }
  | {
      /** Regular hexagons ({@link hexagonal}). */
      kind: 'hexagonal';
      /** Circumradius (centre to corner), world units. */
      size: number;
      /** Pointy-top or flat-top. @default 'flat' for the -q layouts, else 'pointy' */
      orientation?: 'pointy' | 'flat';
      /** How (x, y) cell coordinates map to hexes. @default 'axial' */
      layout?: HexLayout;
      /** World x of cell (0, 0)'s centre. @default 0 */
      originX?: number;
      /** World y of cell (0, 0)'s centre. @default 0 */
      originY?: number;
    }
  | {
      /** A 3D world's floor plane ({@link continuous}). */
      kind: 'continuous';
      /** Cell side, world units. */
      cellSize: number;
      /** World x of the grid's low edge. @default 0 */
      minX?: number;
      /** World z of the grid's low edge. @default 0 */
      minZ?: number;
      /** World y (height) of the floor. @default 0 */
      floorY?: number;
    }
  | {
      /** Tiled's staggered and hexagonal maps ({@link staggered}). */
      kind: 'staggered';
      /** Tile width, Tiled pixels. */
      tileWidth: number;
      /** Tile height, Tiled pixels. */
      tileHeight: number;
      /** 'y': every other row is shifted right; 'x': every other column is shifted down. */
      staggerAxis: 'x' | 'y';
      /** Whether the odd or the even rows (columns) are the shifted ones. */
      staggerIndex: 'odd' | 'even';
      /** Length of a hexagon's flat side, pixels; 0 for diamonds. @default 0 */
      hexSideLength?: number;
      /** World x of cell (0, 0)'s bounding box's top-left corner. @default 0 */
      originX?: number;
      /** World y of cell (0, 0)'s bounding box's top-left corner. @default 0 */
      originY?: number;
    };

/**
 * Converts between cells and world positions. A cell's integer coordinates name its centre:
 * `cellToWorld(3, 4)` is the centre of cell (3, 4), and `cellToWorld(3.5, 4)` lies on its edge.
 * `worldToCell` may return a cell outside the grid; `NavGrid.inBounds` tells.
 */
export interface Projection {
  /** The projection's description, e.g. for saving the grid. */
  readonly spec: Readonly<ProjectionSpec>;
  /** World position of cell (cx, cy); fractional cells interpolate. */
  cellToWorld(cx: number, cy: number, out?: WorldPoint): WorldPoint;
  /**
   * The cell containing a world position given by its two plane coordinates: (x, y) for 2D
   * projections, (x, z) for the continuous world.
   */
  worldToCell(a: number, b: number, out?: CellPoint): CellPoint;
}

const SQRT3 = Math.sqrt(3);

function point(out: WorldPoint | undefined, x: number, y: number, z: number): WorldPoint {
  if (out === undefined) return { x, y, z };
  out.x = x;
  out.y = y;
  out.z = z;
  return out;
}

function cell(out: CellPoint | undefined, x: number, y: number): CellPoint {
  if (out === undefined) return { x, y };
  out.x = x;
  out.y = y;
  return out;
}

function finiteOr(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new TilenavError('expected a finite number', { element: name });
  return value;
}

/** Square tiles of `tileWidth` x `tileHeight` world units, x right, y down. */
export function orthogonal(tileWidth = 1, tileHeight = tileWidth, originX = 0, originY = 0): Projection {
  assertPositive(tileWidth, 'tileWidth');
  assertPositive(tileHeight, 'tileHeight');
  return {
    spec: { kind: 'orthogonal', tileWidth, tileHeight, originX, originY },
    cellToWorld: (cx, cy, out) => point(out, originX + (cx + 0.5) * tileWidth, originY + (cy + 0.5) * tileHeight, 0),
    worldToCell: (a, b, out) => cell(out, Math.floor((a - originX) / tileWidth), Math.floor((b - originY) / tileHeight)),
  };
}

/**
 * Isometric diamonds as Tiled draws them: cell (0, 0)'s top corner at (originX, originY), x runs
 * down-right, y down-left. A tile is `tileWidth` wide and `tileHeight` tall on screen.
 */
export function isometric(tileWidth = 2, tileHeight = tileWidth / 2, originX = 0, originY = 0): Projection {
  assertPositive(tileWidth, 'tileWidth');
  assertPositive(tileHeight, 'tileHeight');
  const hw = tileWidth / 2;
  const hh = tileHeight / 2;
  return {
    spec: { kind: 'isometric', tileWidth, tileHeight, originX, originY },
    cellToWorld: (cx, cy, out) => {
      const u = cx + 0.5;
      const v = cy + 0.5;
      return point(out, originX + (u - v) * hw, originY + (u + v) * hh, 0);
    },
    worldToCell: (a, b, out) => {
      const px = (a - originX) / tileWidth;
      const py = (b - originY) / tileHeight;
      return cell(out, Math.floor(py + px), Math.floor(py - px));
    },
  };
}

/**
 * Regular hexagons of circumradius `size`. Pointy-top hexes go with row layouts (axial r rows,
 * odd-r, even-r); flat-top with column layouts (odd-q, even-q). Axial may be either.
 */
export function hexagonal(size = 1, options: { orientation?: 'pointy' | 'flat'; layout?: HexLayout; originX?: number; originY?: number } = {}): Projection {
  assertPositive(size, 'size');
  const layout = options.layout ?? 'axial';
  if (!['axial', 'odd-r', 'even-r', 'odd-q', 'even-q'].includes(layout)) {
    throw new TilenavError('expected axial, odd-r, even-r, odd-q or even-q', { element: 'hex layout' });
  }
  const orientation = options.orientation ?? (layout.endsWith('-q') ? 'flat' : 'pointy');
  if (orientation !== 'pointy' && orientation !== 'flat') throw new TilenavError('expected "pointy" or "flat"', { element: 'hex orientation' });
  const ox = finiteOr(options.originX, 0, 'originX');
  const oy = finiteOr(options.originY, 0, 'originY');
  const scratch = { x: 0, y: 0 };
  return {
    spec: { kind: 'hexagonal', size, orientation, layout, originX: ox, originY: oy },
    cellToWorld: (cx, cy, out) => {
      offsetToAxial(layout, cx, cy, scratch);
      const q = scratch.x;
      const r = scratch.y;
      if (orientation === 'pointy') return point(out, ox + size * SQRT3 * (q + r / 2), oy + size * 1.5 * r, 0);
      return point(out, ox + size * 1.5 * q, oy + size * SQRT3 * (r + q / 2), 0);
    },
    worldToCell: (a, b, out) => {
      const px = (a - ox) / size;
      const py = (b - oy) / size;
      let q: number;
      let r: number;
      if (orientation === 'pointy') {
        q = (SQRT3 / 3) * px - py / 3;
        r = (2 / 3) * py;
      } else {
        q = (2 / 3) * px;
        r = -px / 3 + (SQRT3 / 3) * py;
      }
      roundAxial(q, r, scratch);
      axialToOffset(layout, scratch.x, scratch.y, scratch);
      return cell(out, scratch.x, scratch.y);
    },
  };
}

/** A continuous 3D world: cells of `cellSize` on the XZ plane from (minX, minZ), y = floorY. */
export function continuous(cellSize = 0.4, minX = 0, minZ = 0, floorY = 0): Projection {
  assertPositive(cellSize, 'cellSize');
  for (const [v, n] of [[minX, 'minX'], [minZ, 'minZ'], [floorY, 'floorY']] as const) finiteOr(v, 0, n);
  return {
    spec: { kind: 'continuous', cellSize, minX, minZ, floorY },
    cellToWorld: (cx, cy, out) => point(out, minX + (cx + 0.5) * cellSize, floorY, minZ + (cy + 0.5) * cellSize),
    worldToCell: (a, b, out) => cell(out, Math.floor((a - minX) / cellSize), Math.floor((b - minZ) / cellSize)),
  };
}

/**
 * Tiled's staggered layouts, in Tiled's own pixel geometry: staggered isometric maps
 * (`hexSideLength` 0: diamonds) and hexagonal maps (`hexSideLength` > 0: hexagons whose flat sides
 * are that long, not necessarily regular). `staggerAxis` y shifts every other row right by half a
 * column, x shifts every other column down by half a row; `staggerIndex` says whether the odd or
 * the even rows/columns are the shifted ones. World positions are Tiled's pixels: cell (0, 0)'s
 * bounding box has its top-left corner at (originX, originY).
 *
 * `worldToCell` picks the tile whose centre is nearest (Euclidean for hexagons, as Tiled does; the
 * diamond's own L1 shape for staggered isometric), so it agrees with the tile outlines Tiled draws.
 */
export function staggered(tileWidth: number, tileHeight: number, options: { staggerAxis?: 'x' | 'y'; staggerIndex?: 'odd' | 'even'; hexSideLength?: number; originX?: number; originY?: number } = {}): Projection {
  assertPositive(tileWidth, 'tileWidth');
  assertPositive(tileHeight, 'tileHeight');
  const axis = options.staggerAxis ?? 'y';
  const index = options.staggerIndex ?? 'odd';
  if (axis !== 'x' && axis !== 'y') throw new TilenavError('expected "x" or "y"', { element: 'staggerAxis' });
  if (index !== 'odd' && index !== 'even') throw new TilenavError('expected "odd" or "even"', { element: 'staggerIndex' });
  const side = finiteOr(options.hexSideLength, 0, 'hexSideLength');
  if (side < 0) throw new TilenavError('expected a length >= 0', { element: 'hexSideLength' });
  const ox = finiteOr(options.originX, 0, 'originX');
  const oy = finiteOr(options.originY, 0, 'originY');
  const sx = axis === 'x';
  const even = index === 'even' ? 1 : 0;
  const sideX = sx ? side : 0;
  const sideY = sx ? 0 : side;
  const columnWidth = (tileWidth - sideX) / 2 + sideX;
  const rowHeight = (tileHeight - sideY) / 2 + sideY;
  const hex = side > 0;
  // Top-left of cell (x, y)'s bounding box, as Tiled's HexagonalRenderer::tileToScreenCoords.
  const cornerX = (x: number, y: number) => (sx ? x * columnWidth : x * (tileWidth + sideX) + (((y & 1) ^ even) !== 0 ? columnWidth : 0));
  const cornerY = (x: number, y: number) => (sx ? y * (tileHeight + sideY) + (((x & 1) ^ even) !== 0 ? rowHeight : 0) : y * rowHeight);
  return {
    spec: { kind: 'staggered', tileWidth, tileHeight, staggerAxis: axis, staggerIndex: index, hexSideLength: side, originX: ox, originY: oy },
    cellToWorld: (cx, cy, out) => {
      const ix = Math.floor(cx);
      const iy = Math.floor(cy);
      // Fractions move along the unshifted axes: a step of one cell is one tile width / height.
      const fx = (cx - ix) * (sx ? columnWidth : tileWidth + sideX);
      const fy = (cy - iy) * (sx ? tileHeight + sideY : rowHeight);
      return point(out, ox + cornerX(ix, iy) + tileWidth / 2 + fx, oy + cornerY(ix, iy) + tileHeight / 2 + fy, 0);
    },
    worldToCell: (a, b, out) => {
      const px = a - ox;
      const py = b - oy;
      // Rough cell from the unshifted lattice, then the nearest centre among its neighbours.
      const rx = sx ? Math.floor(px / columnWidth) : Math.floor(px / (tileWidth + sideX));
      const ry = sx ? Math.floor(py / (tileHeight + sideY)) : Math.floor(py / rowHeight);
      let best = Infinity;
      let bx = rx;
      let by = ry;
      for (let y = ry - 2; y <= ry + 2; y++) {
        for (let x = rx - 2; x <= rx + 2; x++) {
          const dx = px - (cornerX(x, y) + tileWidth / 2);
          const dy = py - (cornerY(x, y) + tileHeight / 2);
          const d = hex ? dx * dx + dy * dy : Math.abs(dx) / tileWidth + Math.abs(dy) / tileHeight;
          if (d < best) {
            best = d;
            bx = x;
            by = y;
          }
        }
      }
      return cell(out, bx, by);
    },
  };
}

/**
 * How far a projection spreads a `width` x `height` grid, in world units along its plane's two
 * axes (x and y; x and z for the continuous world): `spanX` / `spanY` reach from the outermost
 * cell centres plus one cell's size on each axis (so every cell outline fits inside), `cellX` /
 * `cellY` are one cell's size (0 when the projection is not one of the built-in kinds).
 */
export interface ProjectionExtent {
  spanX: number;
  spanY: number;
  cellX: number;
  cellY: number;
}

/** {@link ProjectionExtent} of a projection over a grid: O(1), a few cellToWorld calls. */
export function projectionExtent(projection: Projection, width: number, height: number): ProjectionExtent {
  const spec = projection.spec as Partial<ProjectionSpec> | undefined;
  let cellX = 0;
  let cellY = 0;
  if (spec?.kind === 'orthogonal' || spec?.kind === 'isometric' || spec?.kind === 'staggered') {
    // A staggered cell's outline fills its tile's box whatever the hexagon's side length.
    cellX = spec.tileWidth ?? 0;
    cellY = spec.tileHeight ?? 0;
  } else if (spec?.kind === 'hexagonal') cellX = cellY = 2 * (spec.size ?? 0);
  else if (spec?.kind === 'continuous') cellX = cellY = spec.cellSize ?? 0;
  const plane = spec?.kind === 'continuous';
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const p: WorldPoint = { x: 0, y: 0, z: 0 };
  // Every built-in projection is affine per row and column parity, so the extremes lie among the
  // corner cells and their neighbours (staggered rows shift every other one).
  for (const cy of [0, 1, height - 2, height - 1]) {
    if (cy < 0 || cy >= height) continue;
    for (const cx of [0, 1, width - 2, width - 1]) {
      if (cx < 0 || cx >= width) continue;
      projection.cellToWorld(cx, cy, p);
      const a = p.x;
      const b = plane ? p.z : p.y;
      // NaN fails every comparison: make it poison the span instead of vanishing.
      minX = a < minX || a !== a ? a : minX;
      maxX = a > maxX || a !== a ? a : maxX;
      minY = b < minY || b !== b ? b : minY;
      maxY = b > maxY || b !== b ? b : maxY;
    }
  }
  return { spanX: maxX - minX + cellX, spanY: maxY - minY + cellY, cellX, cellY };
}

/**
 * The axis on which a projection does not give a grid finite world coordinates, or null when it
 * does. The rule: the grid's span is finite on both axes, and each cell's size has a finite
 * reciprocal (above about 5.6e-309; unchecked when unknown), so that `worldToCell`'s division stays finite too. Tiled
 * maps with `tilewidth="1e308"` fail the first, subnormal tile sizes the second.
 */
export function unfitAxis(extent: ProjectionExtent): 'x' | 'y' | null {
  // A cell size of 0 means unknown (a projection of the game's own): only its span is checked.
  const fits = (span: number, cell: number) => Number.isFinite(span) && (cell === 0 || Number.isFinite(1 / cell));
  if (!fits(extent.spanX, extent.cellX)) return 'x';
  if (!fits(extent.spanY, extent.cellY)) return 'y';
  return null;
}

/** The end of every message refusing a projection's sizes, so that they all state one rule. */
export const FINITE_PROJECTION_RULE = 'expected a size that gives finite pixel coordinates (cells at least about 5.6e-309 and the map under about 1.8e308 units across)';

/**
 * Throws a TilenavError (naming `where`) unless `projection` puts every cell of a `width` x
 * `height` grid at finite world coordinates, by the rule of {@link unfitAxis}. NavGrid applies it
 * to every grid; loaders run it first to name the file's attribute at fault.
 */
export function assertProjectionFits(projection: Projection, width: number, height: number, where: { file?: string; element?: string } = { element: 'projection' }): void {
  const extent = projectionExtent(projection, width, height);
  if (unfitAxis(extent) === null) return;
  const spec = projection.spec as Partial<ProjectionSpec> | undefined;
  const numbers = Object.entries(spec ?? {}).filter(([, v]) => typeof v === 'number' && v !== 0);
  const sizes = numbers.map(([k, v]) => `${k} ${v}`).join(', ');
  throw new TilenavError(`the ${spec?.kind ?? 'custom'} projection (${sizes}) spans ${extent.spanX} x ${extent.spanY} world units over ${width} x ${height} cells; ${FINITE_PROJECTION_RULE}`, where);
}

/** Builds a projection from its spec (as stored in a binary grid or a JSON config). */
export function createProjection(spec: ProjectionSpec): Projection {
  switch (spec?.kind) {
    case 'orthogonal':
      return orthogonal(spec.tileWidth, spec.tileHeight, spec.originX, spec.originY);
    case 'isometric':
      return isometric(spec.tileWidth, spec.tileHeight, spec.originX, spec.originY);
    case 'hexagonal':
      return hexagonal(spec.size, spec);
    case 'continuous':
      return continuous(spec.cellSize, spec.minX, spec.minZ, spec.floorY);
    case 'staggered':
      return staggered(spec.tileWidth, spec.tileHeight, spec);
    default:
      throw new TilenavError('expected kind orthogonal, isometric, hexagonal, continuous or staggered', { element: 'projection' });
  }
}

/** Offset (col, row) to axial (q, r); `axial` passes through. Works on integer cells. */
export function offsetToAxial(layout: HexLayout, x: number, y: number, out: CellPoint): CellPoint {
  switch (layout) {
    case 'odd-r':
      return cell(out, x - (y - (y & 1)) / 2, y);
    case 'even-r':
      return cell(out, x - (y + (y & 1)) / 2, y);
    case 'odd-q':
      return cell(out, x, y - (x - (x & 1)) / 2);
    case 'even-q':
      return cell(out, x, y - (x + (x & 1)) / 2);
    default:
      return cell(out, x, y);
  }
}

/** Axial (q, r) to offset (col, row), the inverse of {@link offsetToAxial}. */
export function axialToOffset(layout: HexLayout, q: number, r: number, out: CellPoint): CellPoint {
  switch (layout) {
    case 'odd-r':
      return cell(out, q + (r - (r & 1)) / 2, r);
    case 'even-r':
      return cell(out, q + (r + (r & 1)) / 2, r);
    case 'odd-q':
      return cell(out, q, r + (q - (q & 1)) / 2);
    case 'even-q':
      return cell(out, q, r + (q + (q & 1)) / 2);
    default:
      return cell(out, q, r);
  }
}

function roundAxial(q: number, r: number, out: CellPoint): CellPoint {
  const s = -q - r;
  let rq = Math.round(q);
  let rr = Math.round(r);
  const rs = Math.round(s);
  const dq = Math.abs(rq - q);
  const dr = Math.abs(rr - r);
  const ds = Math.abs(rs - s);
  if (dq > dr && dq > ds) rq = -rr - rs;
  else if (dr > ds) rr = -rq - rs;
  return cell(out, rq + 0, rr + 0);
}
