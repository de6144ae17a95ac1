/**
 * tilenav/loaders under Node: every parser of the browser entry, plus reading map files from disk
 * (bounded, regular files only) and loading a Tiled map with its tilesets and templates from a path.
 *
 * @module tilenav/loaders (Node)
 */
export * from './index.js';
export { DEFAULT_MAX_FILE_BYTES, readFileBounded, readFileBoundedSync, loadTiledFile } from './node.js';
export type { ReadFileOptions } from './node.js';
