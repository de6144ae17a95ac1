import type { NavigationSystem } from '../src/agents/index.js';

/** Steps `sys` until `done()` or `budget` steps, calling `each` after every step; the steps taken, -1 if not done by then. */
export function runUntil(sys: NavigationSystem, done: () => boolean, budget: number, each?: () => void): number {
  for (let s = 0; s < budget; s++) {
    if (done()) return s;
    sys.step();
    each?.();
  }
  return done() ? budget : -1;
}
