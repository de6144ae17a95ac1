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

export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}
