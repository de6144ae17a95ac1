/**
 * Reading map files from disk in Node: the one reader the CLI and {@link loadTiledFile} share.
 * Regular files only (a device such as /dev/zero, a FIFO or a socket is refused before a byte is
 * read), never more than `maxFileBytes`. This module imports Node; the loaders themselves do not.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { TilenavError, describe } from '../errors.js';
import { checkLimit } from './limits.js';
import { loadTiledAsync, type TiledMap, type TiledOptions } from './tiled/index.js';

/** The largest file read unless `maxFileBytes` says otherwise: 256 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 256 * 1024 * 1024;

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

/**
 * Loads a Tiled map from disk: the map, its external tilesets and object templates, each read by
 * {@link readFileBounded} (regular files only, at most `maxFileBytes` each) and resolved relative
 * to the file that names it, as {@link loadTiledAsync} describes.
 *
 * With `root`, the map and every file it names must lie inside that folder after symbolic links
 * are resolved (realpath): `../` sequences, absolute paths and links that lead out are refused
 * with a TilenavError naming the file and `root`, before the file is read.
 */
export async function loadTiledFile(path: string, options: Omit<TiledOptions, 'readFile' | 'file'> & ReadFileOptions = {}): Promise<TiledMap> {
  const root = options.root;
  if (root === undefined) {
    const read = (p: string) => readFileBounded(p, options);
    return loadTiledAsync(await read(path), { ...options, file: path, readFile: read });
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
    return readFileBounded(p, options);
  };
  // Here the real paths decide (so the map may be named through a link to a folder inside the
  // root); the loader's own check, on names as given, would refuse that.
  const rest = { ...options };
  delete rest.root;
  return loadTiledAsync(await read(path), { ...rest, file: path, readFile: read });
}
