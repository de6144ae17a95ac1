import { TilenavError } from '../errors.js';
import type { NavGrid } from '../grid/navgrid.js';
import { EXPANDED_ALPHA, OVERLAY_COLORS, blend, cellColor, cellOutline, gridBounds, insideConvex, type Rgb, type WorldBounds } from './overlay.js';

/** Options of {@link renderOverlayImage}. */
export interface OverlayImageOptions {
  /** Layer index or name. @default 0 */
  layer?: number | string;
  /** Path cells (indices), drawn over everything but start and goal. */
  path?: ArrayLike<number>;
  /** Per cell: 1 expanded, 2 on the open list (as `Pathfinder.expandedInto` writes). */
  expanded?: Uint8Array;
  /** Start cell index, drawn last. */
  start?: number;
  /** Goal cell index, drawn last. */
  goal?: number;
  /**
   * Pixels per world unit. By default the smallest whole number that makes the long side at
   * least `minSize` pixels (1 for big maps), reduced when that would exceed `maxSize`.
   */
  scale?: number;
  /** The long side's length to reach, pixels, when `scale` is not given. @default 600 */
  minSize?: number;
  /** Refuse to draw a longer side than this (pixels). @default 8192 */
  maxSize?: number;
  /**
   * Paints under the cells (a Tiled map's tiles, see `paintTiles`), given the picture with its
   * background filled; the cell colours are then blended over it by `overlayOpacity`.
   */
  underlay?: (image: OverlayImage) => void;
  /** A world box the picture must cover besides the grid's (tiles standing out of their cells). */
  cover?: WorldBounds;
  /** How opaque the cell colours (and expanded marks) are, 0..1; path, start and goal stay opaque. @default 1 */
  overlayOpacity?: number;
}

/** An RGBA picture, 4 bytes per pixel, rows top to bottom. */
export interface OverlayImage {
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
  /** The pixels: `width * height * 4` bytes, RGBA. */
  data: Uint8Array;
  /** Pixels per world unit used. */
  scale: number;
  /** Pixel position of world (x, y): px = (x - originX) * scale. */
  originX: number;
  /** With originX: py = (y - originY) * scale (y is z in the continuous world). */
  originY: number;
}

/**
 * Draws a grid layer as a debug overlay (cost bands, blocked cells dark), with the
 * expanded cells, the path, start and goal, each cell in the grid's own projection (squares,
 * diamonds, hexagons). Pure computation: the CLI encodes it as PNG, a page may put it on a canvas.
 */
export function renderOverlayImage(grid: NavGrid, options: OverlayImageOptions = {}): OverlayImage {
  const layer = grid.layer(options.layer ?? 0);
  const minSize = options.minSize ?? 600;
  const maxSize = options.maxSize ?? 8192;
  const b = gridBounds(grid);
  const cover = options.cover;
  if (cover !== undefined) {
    for (const v of [cover.minX, cover.minY, cover.maxX, cover.maxY]) if (!Number.isFinite(v)) throw new TilenavError(`expected finite bounds, got ${v}`, { element: 'cover' });
    b.minX = Math.min(b.minX, cover.minX);
    b.minY = Math.min(b.minY, cover.minY);
    b.maxX = Math.max(b.maxX, cover.maxX);
    b.maxY = Math.max(b.maxY, cover.maxY);
  }
  const alpha = options.overlayOpacity ?? 1;
  if (!(alpha >= 0 && alpha <= 1)) throw new TilenavError(`expected an opacity from 0 to 1, got ${alpha}`, { element: 'overlayOpacity' });
  const long = Math.max(b.maxX - b.minX, b.maxY - b.minY);
  let scale = options.scale ?? Math.max(1, Math.ceil(minSize / long));
  if (!(scale > 0) || !Number.isFinite(scale)) throw new TilenavError(`expected a scale > 0, got ${scale}`, { element: 'scale' });
  if (long * scale > maxSize) {
    if (options.scale !== undefined) throw new TilenavError(`scale ${scale} makes a ${Math.ceil(long * scale)}-pixel picture, over maxSize ${maxSize}`, { element: 'scale' });
    scale = maxSize / long;
  }
  const width = Math.max(1, Math.ceil((b.maxX - b.minX) * scale));
  const height = Math.max(1, Math.ceil((b.maxY - b.minY) * scale));
  const data = new Uint8Array(width * height * 4);
  const bg = OVERLAY_COLORS.background;
  for (let p = 0; p < data.length; p += 4) {
    data[p] = bg[0];
    data[p + 1] = bg[1];
    data[p + 2] = bg[2];
    data[p + 3] = 255;
  }
  options.underlay?.({ width, height, data, scale, originX: b.minX, originY: b.minY });
  const poly = new Float64Array(12);
  const fill = (i: number, color: Rgb, inset: number, a = 1) => {
    const n = cellOutline(grid.projection, grid.xOf(i), grid.yOf(i), poly);
    let cx = 0;
    let cy = 0;
    for (let k = 0; k < n; k++) {
      cx += poly[2 * k];
      cy += poly[2 * k + 1];
    }
    cx /= n;
    cy /= n;
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (let k = 0; k < n; k++) {
      // Shrinking toward the centre leaves a border of the cell colour around path markers.
      const px = (cx + (poly[2 * k] - cx) * (1 - inset) - b.minX) * scale;
      const py = (cy + (poly[2 * k + 1] - cy) * (1 - inset) - b.minY) * scale;
      poly[2 * k] = px;
      poly[2 * k + 1] = py;
      if (px < x0) x0 = px;
      if (px > x1) x1 = px;
      if (py < y0) y0 = py;
      if (py > y1) y1 = py;
    }
    const xa = Math.max(0, Math.floor(x0));
    const xb = Math.min(width - 1, Math.ceil(x1));
    const ya = Math.max(0, Math.floor(y0));
    const yb = Math.min(height - 1, Math.ceil(y1));
    for (let py = ya; py <= yb; py++) {
      for (let px = xa; px <= xb; px++) {
        if (!insideConvex(poly, n, px + 0.5, py + 0.5)) continue;
        const o = (py * width + px) * 4;
        if (a === 1) {
          data[o] = color[0];
          data[o + 1] = color[1];
          data[o + 2] = color[2];
        } else {
          data[o] = Math.round(data[o] + (color[0] - data[o]) * a);
          data[o + 1] = Math.round(data[o + 1] + (color[1] - data[o + 1]) * a);
          data[o + 2] = Math.round(data[o + 2] + (color[2] - data[o + 2]) * a);
        }
      }
    }
  };
  const expanded = options.expanded;
  if (expanded !== undefined && expanded.length !== grid.size) throw new TilenavError(`expected ${grid.size} bytes, got ${expanded.length}`, { element: 'expanded' });
  for (let i = 0; i < grid.size; i++) {
    let c = cellColor(layer.walkable[i] === 1, layer.cost[i]);
    if (expanded !== undefined && expanded[i] !== 0) c = blend(c, expanded[i] === 1 ? OVERLAY_COLORS.expanded : OVERLAY_COLORS.open, expanded[i] === 1 ? EXPANDED_ALPHA : EXPANDED_ALPHA / 2);
    if (alpha > 0) fill(i, c, 0, alpha);
  }
  // Markers sit inside their cell on legible scales; on big maps (a cell a pixel or two) they grow
  // past it, or a path would be a dotted hairline and start and goal invisible.
  const n = cellOutline(grid.projection, 0, 0, poly);
  let cx0 = Infinity;
  let cx1 = -Infinity;
  for (let k = 0; k < n; k++) {
    cx0 = Math.min(cx0, poly[2 * k]);
    cx1 = Math.max(cx1, poly[2 * k]);
  }
  const cellPx = (cx1 - cx0) * scale;
  const small = cellPx < 4;
  if (options.path !== undefined) for (let k = 0; k < options.path.length; k++) fill(options.path[k], OVERLAY_COLORS.path, small ? 1 - 3.2 / cellPx : 0.3);
  if (options.start !== undefined) fill(options.start, OVERLAY_COLORS.start, small ? 1 - 9 / cellPx : 0.15);
  if (options.goal !== undefined) fill(options.goal, OVERLAY_COLORS.goal, small ? 1 - 9 / cellPx : 0.15);
  return { width, height, data, scale, originX: b.minX, originY: b.minY };
}
