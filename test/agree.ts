/** The tests' check of a search against the reference Dijkstra (test/reference.ts). */
import assert from 'node:assert/strict';
import { checkPath, type NavGrid, type Pathfinder, type SearchAlgorithm } from '../src/index.js';
import { refDistances } from './reference.js';

/**
 * Asserts each of `algorithms` finds the reference Dijkstra's cost from (sx, sy) to every goal in
 * `goals` (cell indices), with legal paths that cost what they report, and the right status for
 * blocked ends and unreachable goals.
 */
export function agreeWithReference(grid: NavGrid, finder: Pathfinder, movement: 'octile' | 'cardinal', sx: number, sy: number, goals: number[], label: string, algorithms: readonly SearchAlgorithm[] = ['jps', 'auto']): void {
  const dist = refDistances(grid, 0, movement, [sy * grid.width + sx]);
  for (const goal of goals) {
    const gx = goal % grid.width;
    const gy = Math.floor(goal / grid.width);
    for (const algorithm of algorithms) {
      const r = finder.findPath(sx, sy, gx, gy, { algorithm, movement });
      const where = `${label} ${algorithm} ${movement} (${sx},${sy})->(${gx},${gy})`;
      if (grid.layers[0].walkable[sy * grid.width + sx] !== 1) {
        assert.equal(r.status, 'invalid-start', where);
        continue;
      }
      if (grid.layers[0].walkable[goal] !== 1) {
        assert.equal(r.status, 'invalid-goal', where);
        continue;
      }
      if (dist[goal] === Infinity) {
        assert.equal(r.status, 'no-path', where);
        continue;
      }
      assert.equal(r.status, 'found', where);
      assert.ok(Math.abs(r.cost - dist[goal]) <= 1e-9 * Math.max(1, dist[goal]), `${where}: cost ${r.cost}, Dijkstra ${dist[goal]}`);
      const c = checkPath(grid, r.cells, { movement });
      assert.ok(c.valid, `${where}: ${c.problem}`);
      assert.ok(Math.abs(c.cost - r.cost) <= 1e-9 * Math.max(1, r.cost), `${where}: path costs ${c.cost}, reported ${r.cost}`);
    }
  }
}

