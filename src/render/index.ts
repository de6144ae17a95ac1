/**
 * `tilenav/render`: debug pictures of a grid (costs, blocked cells, a search and its path). No DOM or Node imports: the
 * CLI encodes the image as PNG, the browser demo draws the same colours on a canvas.
 *
 * @module tilenav/render
 */
export { OVERLAY_COLORS, OVERLAY_COST_BANDS, EXPANDED_ALPHA, cellColor, blend, movementFor, cellOutline, gridBounds, pickCell } from './overlay.js';
export type { Rgb, WorldBounds } from './overlay.js';
export { renderOverlayImage } from './raster.js';
export type { OverlayImageOptions, OverlayImage } from './raster.js';
export { parseTileArt, externalTilesets, artImages } from './tiled-art.js';
export type { TileArt, ArtImage, ArtLayer, ArtObject, ArtTile, ArtTileset } from './tiled-art.js';
export { forEachTile, tileMatrix, tileSource, tilesetOf } from './tiles.js';
export type { TileDraw, TileSource } from './tiles.js';
export { layerDraws, drawsBounds, paintTiles, keyOut } from './composite.js';
export type { RgbaImage, LayerDraws } from './composite.js';
export { ldtkLayerDraws } from './ldtk-art.js';
