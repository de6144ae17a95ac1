import { statSync, type Stats } from 'node:fs';
import { TilenavError } from '../index.js';
import { fileErrorReason } from '../loaders/node.js';

/**
 * `stat` of a path the command names; undefined when nothing is there. Any other failure (a link
 * loop, a name too long, a folder it may not enter) is a TilenavError naming the file, not a stack.
 */
function statOf(path: string, verb: 'read' | 'write'): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (e) {
    if ((e as NodeJS.ErrnoException)?.code === 'ENOTDIR') return undefined;
    throw new TilenavError(`cannot ${verb} the file (${fileErrorReason(e)})`, { file: path });
  }
}

/**
 * Checks a file a command is about to write, before any work is done: never a directory, never
 * one of the command's input files (same file by device and inode, so another spelling of the
 * path or a hard link is caught too), and an existing file only with `force`. `element` names
 * the argument in the error (`OUT`, `--out`).
 */
export function checkOutput(path: string, inputs: readonly string[], force: boolean, element: string): void {
  const target = statOf(path, 'write');
  if (target === undefined) return;
  if (target.isDirectory()) throw new TilenavError('is a directory; give a file name to write', { file: path, element });
  for (const input of inputs) {
    const s = statOf(input, 'read');
    if (s !== undefined && s.dev === target.dev && s.ino === target.ino) {
      throw new TilenavError(`is the input file ${input}; refusing to write over it (even with --force)`, { file: path, element });
    }
  }
  if (!force) throw new TilenavError('already exists; add --force to write over it', { file: path, element });
}

/**
 * Refuses a directory where a file is read, before the format is guessed from its name (a
 * directory has no meaningful extension). A missing file is left to the reader, which names it.
 */
export function checkInput(path: string): void {
  if (statOf(path, 'read')?.isDirectory()) throw new TilenavError('is a directory, expected a file', { file: path });
}
