/**
 * `tilenav/loaders` in browsers and bundlers: parsers that turn a level file's text (or bytes) into
 * a NavGrid. No Node imports; reading map files from disk (readFileBounded, loadTiledFile) is in
 * the Node build of the same import.
 *
 * @module tilenav/loaders (browsers)
 */
export { parseMovingAiMap, parseScenario, formatMovingAiMap } from './movingai.js';
export type { MovingAiOptions, ScenarioQuery } from './movingai.js';
export { parseTextGrid, formatTextGrid } from './textgrid.js';
export type { TextGrid, TextGridParams, TextGridOptions } from './textgrid.js';
export { PolygonNavigation, loadPolygonConfig, readPolygonConfig, DEFAULT_POLYGON_CONFIG } from './polygon.js';
export type { PolygonConfig, PolygonOptions, NavArea, Obstacle, Polygon } from './polygon.js';
export { loadTiled, loadTiledAsync, resolveTiledPath, formatTiledRules, checkTiledRules, applyRulesToTileset, DEFAULT_TILED_MAPPING, DEFAULT_MAX_DECOMPRESSED_BYTES, DEFAULT_MAX_RASTER_WORK, GID_FLIP_H, GID_FLIP_V, GID_FLIP_D, GID_ROTATE_120, GID_MASK } from './tiled/index.js';
export type { TiledMap, TiledOptions, TiledRule, TiledRules, TiledTilesetInfo, ApplyRulesOptions, TiledMapping, TiledLayerInfo, TiledProperties, TiledProperty, TiledPropertyType, TiledPropertyValue, TiledObject, TiledReadFile } from './tiled/index.js';
