/** Map sources: parsers that turn a level file's text (or bytes) into a NavGrid. No Node imports. */
export { parseMovingAiMap, parseScenario, formatMovingAiMap } from './movingai.js';
export type { MovingAiOptions, ScenarioQuery } from './movingai.js';
