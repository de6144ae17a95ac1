/**
 * `tilenav/render`: debug pictures of a grid (costs, blocked cells, a search and its path). No DOM or Node imports: the
 * CLI encodes the image as PNG, the browser demo draws the same colours on a canvas.
 */
export { OVERLAY_COLORS, OVERLAY_COST_BANDS, EXPANDED_ALPHA, cellColor, blend, movementFor, cellOutline, gridBounds } from './overlay.js';
export type { Rgb, WorldBounds } from './overlay.js';
export { renderOverlayImage } from './raster.js';
export type { OverlayImageOptions, OverlayImage } from './raster.js';
