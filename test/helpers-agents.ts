import type { NavigationSystem } from '../src/agents/index.js';

/**
 * Steps `sys` until `done()` holds, at most `budget` steps, calling `each` after every step:
 * the steps taken (0 when done already), or -1 when the budget ran out first.
 */
export function runUntil(sys: NavigationSystem, done: () => boolean, budget: number, each?: () => void): number {
  for (let s = 0; s < budget; s++) {
    if (done()) return s;
    sys.step();
    each?.();
  }
  return done() ? budget : -1;
}
