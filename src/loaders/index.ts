/**
 * Map formats, one grammar: `parseX(textOrBytes, options)` reads a format and returns
 * `{ grid, warnings, ...its extras }`, `formatX(grid, ...)` writes it, `checkX` validates a file
 * without building a grid. No Node imports; in Node the same entry adds `loadX(path, options)`
 * (./node.ts), which reads the file and calls `parseX`. docs/formats.md has the table.
 *
 * @module tilenav/loaders (browsers)
 */
export type { LoadedGrid } from './result.js';
export { parseMovingAiMap, parseScenario, formatMovingAiMap } from './movingai.js';
export type { MovingAiMap, MovingAiOptions, ScenarioQuery } from './movingai.js';
export { parseTextGrid, formatTextGrid } from './textgrid.js';
export type { TextGrid, TextGridParams, TextGridOptions } from './textgrid.js';
export { PolygonNavigation, parsePolygonConfig, checkPolygonConfig, DEFAULT_POLYGON_CONFIG } from './polygon.js';
export type { PolygonConfig, PolygonOptions, NavArea, Obstacle, Polygon } from './polygon.js';
export { parseBinaryGrid, formatBinaryGrid, BINARY_MAGIC, BINARY_VERSION, BINARY_EXTENSION } from '../grid/binary.js';
export type { BinaryGrid, BinaryGridOptions, FormatBinaryGridOptions } from '../grid/binary.js';
export { parseTiled, parseTiledAsync, resolveTiledPath, formatTiledRules, checkTiledRules, applyRulesToTileset, DEFAULT_TILED_MAPPING, DEFAULT_MAX_DECOMPRESSED_BYTES, DEFAULT_MAX_RASTER_WORK, GID_FLIP_H, GID_FLIP_V, GID_FLIP_D, GID_ROTATE_120, GID_MASK } from './tiled/index.js';
export type { TiledMap, TiledOptions, TiledRule, TiledRules, TiledTilesetInfo, ApplyRulesOptions, TiledMapping, TiledLayerInfo, TiledProperties, TiledProperty, TiledPropertyType, TiledPropertyValue, TiledObject, TiledReadFile } from './tiled/index.js';
export { parseLdtk, parseLdtkAsync, checkLdtkRules, DEFAULT_LDTK_MAPPING } from './ldtk/index.js';
export type { LdtkOptions, LdtkProject, LdtkLevel, LdtkWorld, LdtkEntity, LdtkField, LdtkFieldValue, LdtkCell, LdtkCellRect, LdtkEntityRef, LdtkTileRect, LdtkTileLayer, LdtkTileset, LdtkIntGridLayer, LdtkNeighbour, LdtkMapping, LdtkRule, LdtkRules, LdtkReadFile } from './ldtk/index.js';
