import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, Pathfinder, findPath, FLAG_NO_EXIT_EAST, type PathResult } from '../src/index.js';
import { polylineLength } from '../src/path/index.js';
import { segmentTouchesCell } from './helpers-queries.js';
import { gridArb, VARYING_COSTS } from './grids.js';

/** The any-angle path from (sx, sy) to (gx, gy): findPath with `anyAngle`, its waypoints in `points`. */
function findAnyAnglePath(g: NavGrid, sx: number, sy: number, gx: number, gy: number): PathResult & { points: Float64Array } {
  const t = findPath(g, sx, sy, gx, gy, { anyAngle: true });
  if (t.status === 'found') assert.equal(t.costMeasure, 'segments');
  return { ...t, points: t.points ?? new Float64Array(0) };
}

/** The grid path and the any-angle path between two random cells; they must agree on existence. */
function both(g: NavGrid, a: number, b: number) {
  const n = g.size;
  const [sx, sy, gx, gy] = [g.xOf(a % n), g.yOf(a % n), g.xOf(b % n), g.yOf(b % n)];
  const r = findPath(g, sx, sy, gx, gy);
  const t = findAnyAnglePath(g, sx, sy, gx, gy);
  assert.equal(t.status, r.status);
  return { r, t, sx, sy, gx, gy };
}

test('property: any-angle paths exist exactly when grid paths do, touch no blocked cell, and are no longer', () => {
  fc.assert(
    fc.property(gridArb(), fc.nat(), fc.nat(), ({ grid: g }, a, b) => {
      const { r, t, sx, sy, gx, gy } = both(g, a, b);
      if (t.status !== 'found') return;
      const pts = t.points;
      assert.deepEqual([pts[0], pts[1], pts[pts.length - 2], pts[pts.length - 1]], [sx, sy, gx, gy]);
      assert.ok(Math.abs(polylineLength(pts) - t.cost) < 1e-9);
      assert.ok(t.cost <= r.cost + 1e-9, `any-angle ${t.cost} > octile ${r.cost}`);
      const walk = g.layers[0].walkable;
      for (let k = 2; k < pts.length; k += 2) {
        for (let y = -1; y <= g.height; y++) {
          for (let x = -1; x <= g.width; x++) {
            const blocked = x < 0 || y < 0 || x >= g.width || y >= g.height || walk[y * g.width + x] === 0;
            if (blocked) assert.ok(!segmentTouchesCell(pts[k - 2], pts[k - 1], pts[k], pts[k + 1], x, y));
          }
        }
      }
    }),
    { numRuns: 300 },
  );
});

test('any-angle honours one-way cells', () => {
  const g = new NavGrid(7, 3);
  g.fillRect(3, 0, 1, 3, { flags: FLAG_NO_EXIT_EAST });
  assert.equal(findAnyAnglePath(g, 0, 1, 6, 1).status, 'no-path');
  assert.equal(findAnyAnglePath(g, 6, 1, 0, 1).status, 'found');
  const open = findAnyAnglePath(new NavGrid(9, 9), 0, 0, 8, 3);
  assert.equal(open.points.length, 4, 'one straight segment in the open');
});

test('property: on mixed terrain (plain Theta*) paths exist when grid paths do and their cost is the exact segment cost', async () => {
  const { polylineCost } = await import('../src/path/index.js');
  fc.assert(
    fc.property(gridArb({ costs: VARYING_COSTS }), fc.nat(), fc.nat(), ({ grid: g }, a, b) => {
      const { r, t } = both(g, a, b);
      if (t.status !== 'found') return;
      assert.ok(Math.abs(polylineCost(g, t.points) - t.cost) < 1e-6, 'cost is the sum of segment costs, all segments clear');
    }),
    { numRuns: 300 },
  );
});

test('anyAngle on a kept Pathfinder answers as the free findPath; cells are the waypoints\' cells, reached the last', () => {
  const g = new NavGrid(20, 12);
  g.fillRect(8, 0, 2, 9, { walkable: false });
  const finder = new Pathfinder(g);
  for (const [sx, sy, gx, gy] of [[0, 0, 19, 0], [3, 10, 15, 2], [19, 11, 0, 0]]) {
    const kept = finder.findPath(sx, sy, gx, gy, { anyAngle: true });
    const fresh = findAnyAnglePath(g, sx, sy, gx, gy);
    assert.equal(kept.status, 'found');
    assert.equal(kept.costMeasure, 'segments');
    assert.equal(kept.cost, fresh.cost);
    assert.deepEqual(Array.from(kept.points!), Array.from(fresh.points));
    const pts = kept.points!;
    assert.deepEqual(Array.from(kept.cells), Array.from({ length: pts.length / 2 }, (_, k) => pts[2 * k + 1] * g.width + pts[2 * k]));
    assert.equal(kept.reached, gy * g.width + gx);
    assert.equal(kept.reason, null);
  }
  const blocked = finder.findPath(0, 0, 8, 0, { anyAngle: true });
  assert.deepEqual([blocked.status, blocked.reason, blocked.cells.length], ['invalid-goal', 'blocked', 0]);
  const outside = finder.findPath(-1, 0, 3, 0, { anyAngle: true });
  assert.deepEqual([outside.status, outside.reason], ['invalid-start', 'outside']);
});

test('any-angle on mixed terrain never costs more than the grid path it replaces (water square)', async () => {
  const { polylineCost, cellsToPoints } = await import('../src/path/index.js');
  const g = new NavGrid(3, 3);
  for (const [x, y] of [[0, 0], [1, 1], [2, 1]]) g.setCost(x, y, 2);
  const r = findPath(g, 0, 0, 2, 2);
  const t = findAnyAnglePath(g, 0, 0, 2, 2);
  const gridCost = polylineCost(g, cellsToPoints(g, r.cells));
  assert.equal(t.status, 'found');
  assert.ok(t.cost <= gridCost + 1e-9, `any-angle ${t.cost} > grid path ${gridCost}`);
  assert.ok(Math.abs(polylineCost(g, t.points) - t.cost) < 1e-9);
});

test('property: any-angle cost <= the grid path cost measured as segments, on random costs', async () => {
  const { polylineCost, cellsToPoints } = await import('../src/path/index.js');
  fc.assert(
    fc.property(gridArb({ costs: VARYING_COSTS }), fc.nat(), fc.nat(), ({ grid: g }, a, b) => {
      const { r, t } = both(g, a, b);
      if (t.status !== 'found') return;
      const gridCost = polylineCost(g, cellsToPoints(g, r.cells));
      assert.ok(t.cost <= gridCost + 1e-9, `any-angle ${t.cost} > grid path ${gridCost}`);
      assert.ok(Math.abs(polylineCost(g, t.points) - t.cost) < 1e-6);
    }),
    { numRuns: 300 },
  );
});
