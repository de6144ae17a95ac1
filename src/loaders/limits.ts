/** Checks for the numeric limits the loaders take as options. No Node imports. */
import { TilenavError, describe } from '../errors.js';

/**
 * A loader's `options`, checked to be an object, and its `file` option, checked to be a string:
 * `fallback` when it is left out. Each a TilenavError naming the option otherwise.
 */
export function fileOption(options: unknown, fallback: string): string {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TilenavError(`expected an options object, got ${describe(options)}`, { element: 'options' });
  }
  const file = (options as { file?: unknown }).file;
  if (file === undefined) return fallback;
  if (typeof file !== 'string') throw new TilenavError(`expected the file's path or name (a string), got ${describe(file)}`, { element: 'file' });
  return file;
}

/**
 * Runs `fn` (building a grid from a file's numbers); a TilenavError it throws without a file (the
 * grid's or the projection's own checks) is thrown again naming `file` and `line`, so a library
 * call says which file was at fault as the CLI does.
 */
export function inFile<T>(file: string, line: number | undefined, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof TilenavError && e.file === undefined) throw new TilenavError(e.message, { file, line });
    throw e;
  }
}

/**
 * A limit option's value: `fallback` when it is undefined, else the number itself, which must be
 * >= 0 (Infinity allowed, to lift the limit on purpose). NaN, strings and negative numbers are
 * refused with a TilenavError naming the option: a comparison with NaN is always false, so such a
 * value would silently switch the limit off.
 */
export function checkLimit(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw new TilenavError(`expected a number >= 0 (Infinity for no limit), got ${describe(value)}`, { element: name });
  }
  return value;
}

/** The cell visits rasterising may make unless `maxRasterWork` says otherwise: 2^28 (a few seconds at most). */
export const DEFAULT_MAX_RASTER_WORK = 2 ** 28;

/**
 * A running count of rasterising work (cells visited, edges crossed), refused past a maximum so
 * no shape, however large or long, keeps a loader busy for long. `element` names what is being
 * drawn, for the error.
 */
export class RasterBudget {
  used = 0;
  element = '';

  constructor(
    readonly max: number,
    private readonly exceeded: (element: string, max: number) => never,
  ) {}

  /** Counts `n` more units of work; throws (through `exceeded`) once the total passes the maximum. */
  spend(n: number): void {
    this.used += n;
    if (this.used > this.max) this.exceeded(this.element, this.max);
  }
}
