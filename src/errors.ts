/**
 * The one error type tilenav throws for a caller's mistake (bad argument, bad file).
 * "No path" is never an error: it is a search result.
 */
export class TilenavError extends Error {
  /** The file the problem was found in, when it came from a file. */
  readonly file: string | undefined;
  /** 1-based line in that file, when the format has lines. */
  readonly line: number | undefined;
  /** The element, property or argument at fault (e.g. `layer "Walls"`, `--from`). */
  readonly element: string | undefined;

  /** The message is prefixed with what `where` gives, as `file:line: element: message`. */
  constructor(message: string, where: { file?: string; line?: number; element?: string } = {}) {
    const prefix = [
      where.file !== undefined ? where.file + (where.line !== undefined ? `:${where.line}` : '') : undefined,
      where.element,
    ]
      .filter((s) => s !== undefined)
      .join(': ');
    super(prefix ? `${prefix}: ${message}` : message);
    this.name = 'TilenavError';
    this.file = where.file;
    this.line = where.line;
    this.element = where.element;
  }
}

/** Throws a TilenavError naming `name` unless `value` is an integer. */
export function assertInteger(value: unknown, name: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TilenavError(`expected an integer, got ${describe(value)}`, { element: name });
  }
}

/** Throws unless `value` is a finite number greater than zero. */
export function assertPositive(value: unknown, name: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new TilenavError(`expected a finite number > 0, got ${describe(value)}`, { element: name });
  }
}

/** The smallest positive normal float32, 2^-126: smaller costs lose precision or round to 0. */
export const MIN_COST = 2 ** -126;
/** The largest finite float32: a larger cost rounds to Infinity in a grid's cost array. */
export const MAX_COST = 3.4028234663852886e38;

/**
 * Throws a TilenavError naming `name` unless `value` is a cost a grid's float32 cost array holds
 * as given: a number from {@link MIN_COST} (about 1.18e-38) to {@link MAX_COST} (about 3.4e38).
 */
export function assertCost(value: unknown, name: string, hint = ''): asserts value is number {
  if (typeof value !== 'number' || !(value >= MIN_COST && value <= MAX_COST)) {
    throw new TilenavError(`expected a finite number > 0 that a float32 holds, 2^-126 (about 1.18e-38) to 3.4028234663852886e38, got ${describe(value)}${hint}`, { element: name });
  }
}

/** Throws a TilenavError naming `name` unless `value` is undefined or a non-null object. */
export function assertOptionsObject(value: unknown, name: string): void {
  if (value !== undefined && (value === null || typeof value !== 'object')) {
    throw new TilenavError(`expected an options object, got ${describe(value)}`, { element: name });
  }
}

/** Throws a TilenavError naming `name` unless `value` is undefined or a number >= 0 (Infinity allowed). */
export function assertLimit(value: unknown, name: string): void {
  if (value !== undefined && (typeof value !== 'number' || !(value >= 0))) {
    throw new TilenavError(`expected a number >= 0, got ${describe(value)}`, { element: name });
  }
}

/** Throws a TilenavError naming `name` unless `value` is an array or typed array of numbers' shape (has a length). */
export function assertArrayLike(value: unknown, name: string): asserts value is ArrayLike<number> {
  if (value === null || typeof value !== 'object' || typeof (value as { length?: unknown }).length !== 'number') {
    throw new TilenavError(`expected an array, got ${describe(value)}`, { element: name });
  }
}

/** Throws a TilenavError naming `name` unless every entry of `cells` is a cell index 0 .. size - 1. */
export function assertCellIndices(cells: ArrayLike<number>, size: number, name: string): void {
  assertArrayLike(cells, name);
  for (let k = 0; k < cells.length; k++) {
    const i = cells[k];
    if (!Number.isInteger(i) || i < 0 || i >= size) throw new TilenavError(`entry ${k} is ${describe(i)}, not a cell index 0..${size - 1}`, { element: name });
  }
}

/** Throws a TilenavError naming `name` unless `value` is an object with finite-or-not number x and y (a world point). */
export function assertPoint(value: unknown, name: string): void {
  if (value === null || typeof value !== 'object' || typeof (value as { x?: unknown }).x !== 'number' || typeof (value as { y?: unknown }).y !== 'number') {
    throw new TilenavError(`expected a point { x, y, z }, got ${describe(value)}`, { element: name });
  }
}

export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  return Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
