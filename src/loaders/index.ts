/** Map sources: parsers that turn a level file's text (or bytes) into a NavGrid. No Node imports. */
export { parseMovingAiMap, parseScenario, formatMovingAiMap } from './movingai.js';
export type { MovingAiOptions, ScenarioQuery } from './movingai.js';
export { parseTextGrid, formatTextGrid } from './textgrid.js';
export type { TextGrid, TextGridParams, TextGridOptions } from './textgrid.js';
export { PolygonNavigation, loadPolygonConfig, readPolygonConfig, DEFAULT_POLYGON_CONFIG } from './polygon.js';
export type { PolygonConfig, PolygonOptions, NavArea, Obstacle, Polygon } from './polygon.js';
