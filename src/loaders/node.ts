/**
 * Reading map files from disk in Node: the one reader the CLI and the `loadX(path, options)`
 * functions share, and those functions, one per format, each the format's `parseX` on the file.
 * Regular files only (a device such as /dev/zero, a FIFO or a socket is refused before a byte is
 * read), never more than `maxFileBytes`. This module imports Node; the parsers themselves do not.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { TilenavError, assertOptionsObject, describe } from '../errors.js';
import { checkLimit } from './limits.js';
import { parseTiledAsync, type TiledMap, type TiledOptions } from './tiled/index.js';
import { parseLdtkAsync, type LdtkOptions, type LdtkProject } from './ldtk/index.js';
import { parseMovingAiMap, parseScenario, type MovingAiMap, type MovingAiOptions, type ScenarioQuery } from './movingai.js';
import { parseTextGrid, type TextGrid, type TextGridOptions } from './textgrid.js';
import { parsePolygonConfig, type PolygonNavigation, type PolygonOptions } from './polygon.js';
import { parseBinaryGrid, type BinaryGrid, type BinaryGridOptions } from '../grid/binary.js';

/** The largest file read unless `maxFileBytes` says otherwise: 256 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 256 * 1024 * 1024;

/** Options of the bounded file reads ({@link readFileBounded}, {@link readFileBoundedSync}). */
export interface ReadFileOptions {
  /** Refuse files larger than this many bytes (checked before reading, and again while reading). @default DEFAULT_MAX_FILE_BYTES */
  maxFileBytes?: number;
}

// Opening a FIFO for reading blocks until a writer appears; O_NONBLOCK returns at once, and then
// fstat on the descriptor (not stat on the name, which could change in between) says what it is.
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const CHUNK = 1 << 16;

function kind(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

function check(path: string, st: Stats, max: number): void {
  if (!st.isFile()) throw new TilenavError(`is ${kind(st)}; expected a regular file`, { file: path });
  if (st.size > max) throw new TilenavError(`the file is ${st.size} bytes, over the ${max}-byte limit (maxFileBytes)`, { file: path });
}

/** What the common file-system error codes mean, for people who do not know them by heart. */
const OS_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'a folder on the way is a file',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EMFILE: 'too many open files',
  ELOOP: 'too many symbolic links (a link that points back to itself?)',
  ENAMETOOLONG: 'the name is too long',
};

/**
 * Why a file operation failed, in words a message can carry: the error code and, for the common
 * ones, what it means (`ENOENT: no such file or directory`); the error's message when it has no code.
 */
export function fileErrorReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === undefined) return (e as Error).message;
  return Object.hasOwn(OS_REASONS, code) ? `${code}: ${OS_REASONS[code]}` : code;
}

function cannot(path: string, e: unknown): TilenavError {
  if (e instanceof TilenavError) return e;
  return new TilenavError(`cannot read the file (${fileErrorReason(e)})`, { file: path });
}

/**
 * The read loop, written once for both drivers: checks the descriptor's stat, then yields each read
 * it wants (buffer, offset, length) and is sent back how many bytes came; returns the contents.
 */
function* reading(path: string, st: Stats, max: number): Generator<[Buffer, number, number], Uint8Array, number> {
  check(path, st, max);
  let buf = Buffer.allocUnsafe(Math.min(max, st.size) + 1);
  let n = 0;
  for (;;) {
    if (n === buf.length) {
      if (n > max) break;
      const grown = Buffer.allocUnsafe(Math.min(max + 1, Math.max(CHUNK, 2 * n)));
      buf.copy(grown, 0, 0, n);
      buf = grown;
    }
    const got = yield [buf, n, buf.length - n];
    if (got === 0) break;
    n += got;
  }
  if (n > max) throw new TilenavError(`the file grew past the ${max}-byte limit (maxFileBytes) while it was read`, { file: path });
  return buf.subarray(0, n);
}

/**
 * Reads a regular file's bytes. Throws a TilenavError naming the file when it is missing, not a
 * regular file, or over `maxFileBytes` (a file whose size stat reports wrongly, as /proc files do,
 * is read until its end or the limit, whichever comes first).
 */
export function readFileBoundedSync(path: string, options: ReadFileOptions = {}): Uint8Array {
  const max = checkLimit(options.maxFileBytes, 'maxFileBytes', DEFAULT_MAX_FILE_BYTES);
  let fd: number;
  try {
    fd = openSync(path, FLAGS);
  } catch (e) {
    throw cannot(path, e);
  }
  try {
    const loop = reading(path, fstatSync(fd), max);
    for (let step = loop.next(); ; ) {
      if (step.done) return step.value;
      const [buf, off, len] = step.value;
      step = loop.next(readSync(fd, buf, off, len, null));
    }
  } catch (e) {
    throw cannot(path, e);
  } finally {
    closeSync(fd);
  }
}

/** {@link readFileBoundedSync}, asynchronously. */
export async function readFileBounded(path: string, options: ReadFileOptions = {}): Promise<Uint8Array> {
  const max = checkLimit(options.maxFileBytes, 'maxFileBytes', DEFAULT_MAX_FILE_BYTES);
  let fh;
  try {
    fh = await open(path, FLAGS);
  } catch (e) {
    throw cannot(path, e);
  }
  try {
    const loop = reading(path, await fh.stat(), max);
    for (let step = loop.next(); ; ) {
      if (step.done) return step.value;
      const [buf, off, len] = step.value;
      step = loop.next((await fh.read(buf, off, len, null)).bytesRead);
    }
  } catch (e) {
    throw cannot(path, e);
  } finally {
    await fh.close();
  }
}

/** A Node loader's options: its parser's, less `file` (the path names the file), plus `maxFileBytes`. */
export type LoadOptions<T> = Omit<T, 'file'> & ReadFileOptions;

/**
 * Checks the path a `loadX` was given: a string, and not a file's contents passed by mistake (those
 * go to `parseX`). Returns the parser's options, `file` set to the path and `maxFileBytes` left out.
 */
function prepare<T extends object>(path: unknown, parse: string, options: (T & ReadFileOptions) | undefined): Omit<T, 'maxFileBytes'> & { file: string } {
  if (typeof path !== 'string' || path === '') throw new TilenavError(`expected a file path, got ${describe(path)}`, { element: 'path' });
  if (/\n/.test(path) || /^\s*[<{]/.test(path)) throw new TilenavError(`looks like a file's contents, not its path; pass the path, or call ${parse} with the contents`, { element: 'path' });
  assertOptionsObject(options, 'options');
  const { maxFileBytes: _, ...rest } = (options ?? {}) as T & ReadFileOptions;
  return { ...rest, file: path };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A file's text: read by {@link readFileBounded}, decoded as UTF-8 (a byte order mark dropped). */
async function readText(path: string, options: ReadFileOptions | undefined): Promise<string> {
  const bytes = await readFileBounded(path, { maxFileBytes: options?.maxFileBytes });
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new TilenavError('the file is not valid UTF-8 text', { file: path });
  }
}

/** {@link parseMovingAiMap} on a `.map` file. */
export async function loadMovingAiMap(path: string, options?: LoadOptions<MovingAiOptions>): Promise<MovingAiMap> {
  const opts = prepare(path, 'parseMovingAiMap', options);
  return parseMovingAiMap(await readText(path, options), opts);
}

/** {@link parseScenario} on a Moving AI `.scen` file: its queries, in file order. */
export async function loadScenario(path: string, options?: LoadOptions<{ file?: string }>): Promise<ScenarioQuery[]> {
  const opts = prepare(path, 'parseScenario', options);
  return parseScenario(await readText(path, options), opts);
}

/** {@link parseTextGrid} on a text grid file. */
export async function loadTextGrid(path: string, options?: LoadOptions<TextGridOptions>): Promise<TextGrid> {
  const opts = prepare(path, 'parseTextGrid', options);
  return parseTextGrid(await readText(path, options), opts);
}

/** {@link parsePolygonConfig} on a polygon config (`.json`) file. */
export async function loadPolygonConfig(path: string, options?: LoadOptions<PolygonOptions>): Promise<PolygonNavigation> {
  const opts = prepare(path, 'parsePolygonConfig', options);
  return parsePolygonConfig(await readText(path, options), opts);
}

/** {@link parseBinaryGrid} on a `.tnav` file (the grid adopts the bytes read, no second copy). */
export async function loadBinaryGrid(path: string, options?: LoadOptions<BinaryGridOptions>): Promise<BinaryGrid> {
  const opts = prepare(path, 'parseBinaryGrid', options);
  return parseBinaryGrid(await readFileBounded(path, { maxFileBytes: options?.maxFileBytes }), opts);
}

/**
 * {@link parseTiledAsync} on a Tiled map file: the map, its external tilesets and object templates,
 * each read by {@link readFileBounded} (regular files only, at most `maxFileBytes` each) and
 * resolved relative to the file that names it.
 *
 * With `root`, the map and every file it names must lie inside that folder after symbolic links
 * are resolved (realpath): `../` sequences, absolute paths and links that lead out are refused
 * with a TilenavError naming the file and `root`, before the file is read.
 */
export async function loadTiled(path: string, options?: LoadOptions<Omit<TiledOptions, 'readFile'>>): Promise<TiledMap> {
  const opts = prepare(path, 'parseTiled', options);
  const root = opts.root;
  if (root === undefined) {
    const read = (p: string) => readFileBounded(p, { maxFileBytes: options?.maxFileBytes });
    return parseTiledAsync(await read(path), { ...opts, readFile: read });
  }
  if (typeof root !== 'string' || root === '') throw new TilenavError(`expected the folder references must stay in (a non-empty string), got ${describe(root)}`, { element: 'root' });
  let realRoot: string;
  try {
    realRoot = await realpath(resolve(root));
  } catch (e) {
    throw new TilenavError(`cannot open the root folder (${fileErrorReason(e)})`, { file: root, element: 'root' });
  }
  const read = async (p: string) => {
    let real: string;
    try {
      real = await realpath(p);
    } catch (e) {
      throw cannot(p, e);
    }
    const rel = relative(realRoot, real);
    if (rel === '' || rel === '..' || rel.startsWith('..' + sep) || isAbsolute(rel)) {
      throw new TilenavError(`is outside the root folder ${JSON.stringify(root)} once its links are followed; a map may only name files inside it`, { file: p, element: 'root' });
    }
    return readFileBounded(p, { maxFileBytes: options?.maxFileBytes });
  };
  // Here the real paths decide (so the map may be named through a link to a folder inside the
  // root); the loader's own check, on names as given, would refuse that.
  const { root: _root, ...rest } = opts;
  return parseTiledAsync(await read(path), { ...rest, readFile: read });
}

/**
 * {@link parseLdtkAsync} on an LDtk project file: the `.ldtk` file and the level files (`.ldtkl`)
 * it names, each read by {@link readFileBounded} (regular files only, at most `maxFileBytes` each)
 * and resolved relative to the project.
 */
export async function loadLdtk(path: string, options?: LoadOptions<Omit<LdtkOptions, 'readFile'>>): Promise<LdtkProject> {
  const opts = prepare(path, 'parseLdtk', options);
  const read = (p: string) => readFileBounded(p, { maxFileBytes: options?.maxFileBytes });
  return parseLdtkAsync(await read(path), { ...opts, readFile: read });
}
