/**
 * The budget of one step of a search spread over frames, shared by the grid's
 * `PathSearch.step` and the graph door's `GraphSearch.step`, so both read and refuse a budget the
 * same way.
 */
import { TilenavError, assertOptionsObject, describe } from '../errors.js';

/** How much one step of a search spread over frames may do. Neither given: run to the end. */
export interface StepOptions {
  /** Expand at most this many nodes in this step (a whole number >= 1, or Infinity). @default Infinity */
  maxExpansions?: number;
  /**
   * Stop once this many milliseconds have passed (checked every 256 expansions, so a step may run
   * a little over; a step always expands at least one node). @default Infinity
   */
  budgetMs?: number;
}

/** Where a search spread over frames is: still searching, answered, or cancelled. */
export type PathSearchState = 'running' | 'done' | 'cancelled';

/** Expansions between two clock readings of a step with `budgetMs`. */
export const CLOCK_EVERY = 256;

/**
 * A step's budget, checked: `maxExpansions` a whole number >= 1 or Infinity, `budgetMs` a number
 * >= 0 (or Infinity); a TilenavError naming the option otherwise. Returns the expansions allowed
 * and the clock time to stop at (Infinity: no clock).
 */
export function stepBudget(options: StepOptions): { maxExpansions: number; until: number } {
  assertOptionsObject(options, 'options');
  const maxExpansions = options.maxExpansions ?? Infinity;
  const budgetMs = options.budgetMs ?? Infinity;
  if (typeof maxExpansions !== 'number' || !(maxExpansions === Infinity || (Number.isInteger(maxExpansions) && maxExpansions >= 1))) {
    throw new TilenavError(`expected a whole number >= 1 or Infinity, got ${describe(maxExpansions)}`, { element: 'maxExpansions' });
  }
  if (typeof budgetMs !== 'number' || !(budgetMs >= 0)) throw new TilenavError(`expected a number of milliseconds >= 0, got ${describe(budgetMs)}`, { element: 'budgetMs' });
  return { maxExpansions, until: budgetMs === Infinity ? Infinity : performance.now() + budgetMs };
}

/**
 * Runs a search step within its budget: `advance(slice)` expands up to `slice` nodes and returns
 * how many it did; it is called until `done()`, the expansions are spent, or the clock passes
 * `until` (read every {@link CLOCK_EVERY} expansions).
 */
export function runStep(maxExpansions: number, until: number, advance: (slice: number) => number, done: () => boolean): void {
  const timed = until !== Infinity;
  let left = maxExpansions;
  for (;;) {
    left -= advance(timed && left > CLOCK_EVERY ? CLOCK_EVERY : left);
    if (done() || left <= 0 || (timed && performance.now() >= until)) return;
  }
}
