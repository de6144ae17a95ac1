/**
 * tilenav/loaders under Node: every parser of the browser entry, plus `loadX(path, options)` for
 * each format (the file read from disk, bounded, regular files only, then `parseX`) and the
 * bounded file reader itself.
 *
 * @module tilenav/loaders (Node)
 */
export * from './index.js';
export { DEFAULT_MAX_FILE_BYTES, readFileBounded, readFileBoundedSync, loadMovingAiMap, loadScenario, loadTextGrid, loadPolygonConfig, loadBinaryGrid, loadTiled, loadLdtk } from './node.js';
export type { ReadFileOptions, LoadOptions } from './node.js';
