import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, findPath, continuous, FLAG_NO_EXIT_EAST } from '../src/index.js';
import { smoothPath, polylineCost, polylineLength, cellsToPoints, toWorldWaypoints, segmentCost } from '../src/path/index.js';
import { segmentCrossings, segmentTouchesCell } from './helpers-queries.js';
import { asciiGrid, gridArb, VARYING_COSTS } from './grids.js';

test('an open room smooths to two waypoints', () => {
  const g = new NavGrid(9, 5);
  const r = findPath(g, 0, 0, 8, 3);
  assert.deepEqual([...smoothPath(g, r.cells)], [0, 0, 8, 3]);
});

test('a segment through a corner between two blocked side cells is refused (no corner cutting)', () => {
  const g = asciiGrid(['.@', '@.']);
  const view = g.searchView(0);
  assert.equal(segmentCost(view, 0, 0, 1, 1), -1);
  assert.ok(segmentCost(view, 0, 0, 1, 1, 2) > 0, 'allowed when the corner rule ignores side cells');
  const open = new NavGrid(2, 2).searchView(0);
  assert.ok(Math.abs(segmentCost(open, 0, 0, 1, 1) - Math.SQRT2) < 1e-12);
});

test('a thin wall that sampling at half a cell would step over blocks the sight line', () => {
  // The segment (0,0)-(3,1) clips the corner of cell (2,1) only slightly: it enters it for a short stretch.
  const g = asciiGrid(['....', '..@.']);
  assert.equal(segmentCost(g.searchView(0), 0, 0, 3, 1), -1);
  const r = findPath(g, 0, 0, 3, 1);
  const pts = smoothPath(g, r.cells);
  assert.ok(pts.length > 4, `kept a bend: ${[...pts]}`);
});

test('smoothing does not cross dearer terrain when the grid path avoids it', () => {
  // A swamp (cost 5) band; the grid path goes around it through cost-1 cells.
  const g = new NavGrid(7, 5);
  g.fillRect(1, 1, 5, 3, { cost: 5 });
  const r = findPath(g, 0, 2, 6, 2);
  const pts = smoothPath(g, r.cells);
  assert.ok(polylineCost(g, pts) <= polylineCost(g, cellsToPoints(g, r.cells)) + 1e-9);
  assert.ok(pts.length > 4, 'did not cut straight through the swamp');
});

test('smoothing honours one-way flags', () => {
  const g = new NavGrid(5, 3);
  g.fillRect(2, 0, 1, 3, { flags: FLAG_NO_EXIT_EAST });
  g.fillRect(2, 1, 1, 1, { flags: 0 });
  const view = g.searchView(0);
  assert.equal(segmentCost(view, 0, 0, 4, 0), -1);
  assert.ok(segmentCost(view, 0, 1, 4, 1) > 0);
});

test('property: smoothed segments touch no blocked cell, and cost no more than the grid path', () => {
  fc.assert(
    fc.property(gridArb({ costs: VARYING_COSTS }), fc.nat(), fc.nat(), ({ grid: g }, a, b) => {
      const n = g.size;
      const r = findPath(g, g.xOf(a % n), g.yOf(a % n), g.xOf(b % n), g.yOf(b % n));
      if (r.status !== 'found') return;
      const pts = smoothPath(g, r.cells);
      const walk = g.layers[0].walkable;
      for (let k = 2; k < pts.length; k += 2) {
        const [x0, y0, x1, y1] = [pts[k - 2], pts[k - 1], pts[k], pts[k + 1]];
        for (let y = Math.min(y0, y1) - 1; y <= Math.max(y0, y1) + 1; y++) {
          for (let x = Math.min(x0, x1) - 1; x <= Math.max(x0, x1) + 1; x++) {
            const blocked = x < 0 || y < 0 || x >= g.width || y >= g.height || walk[y * g.width + x] === 0;
            if (blocked) assert.ok(!segmentTouchesCell(x0, y0, x1, y1, x, y), `segment (${x0},${y0})-(${x1},${y1}) touches blocked (${x},${y})`);
          }
        }
      }
      const gridCost = polylineCost(g, cellsToPoints(g, r.cells));
      assert.ok(polylineCost(g, pts) <= gridCost * (1 + 1e-9), 'smoothed costs more');
      assert.equal(pts[0], g.xOf(r.cells[0]));
      assert.equal(pts[pts.length - 1], g.yOf(r.cells[r.cells.length - 1]));
    }),
    { numRuns: 400 },
  );
});

test('property: on uniform cost the smoothed length is at most the octile cost', () => {
  fc.assert(
    fc.property(gridArb(), fc.nat(), fc.nat(), ({ grid: g }, a, b) => {
      const n = g.size;
      const r = findPath(g, g.xOf(a % n), g.yOf(a % n), g.xOf(b % n), g.yOf(b % n));
      if (r.status !== 'found') return;
      assert.ok(polylineLength(smoothPath(g, r.cells)) <= r.cost + 1e-9);
    }),
    { numRuns: 300 },
  );
});

test('world waypoints: continuous projection, floorY, first-waypoint trim, exact end', () => {
  const g = new NavGrid(10, 6, { projection: continuous(0.4, -2, -1, 1.5) });
  const r = findPath(g, 0, 0, 9, 5);
  const pts = smoothPath(g, r.cells);
  const start = { x: -2 + 0.21, y: 1.5, z: -1 + 0.19 };
  const end = { x: -2 + 9 * 0.4 + 0.3, y: 1.5, z: -1 + 5 * 0.4 + 0.1 };
  const w = toWorldWaypoints(g, pts, { start, end });
  assert.equal(w.length, 1, 'start cell centre trimmed');
  assert.deepEqual(w[0], end);
  const far = toWorldWaypoints(g, pts, { start: { x: -5, y: 0, z: -5 } });
  assert.equal(far.length, 2, 'not trimmed when the unit is far from the first waypoint');
  for (const p of far) assert.equal(p.y, 1.5);
  assert.ok(Math.abs(far[0].x - (-2 + 0.2)) < 1e-12 && Math.abs(far[0].z - (-1 + 0.2)) < 1e-12);
});

test('property: smoothed and any-angle segments never leave a cell against its one-way flags', () => {
  const forbidden = (flags: number, dx: number, dy: number) =>
    ((dy < 0 ? 0x02 : 0) | (dx > 0 ? 0x04 : 0) | (dy > 0 ? 0x08 : 0) | (dx < 0 ? 0x10 : 0)) & flags;
  fc.assert(
    fc.property(gridArb(), fc.nat(), fc.nat(), ({ grid: g, rnd }, a, b) => {
      const flags = g.layers[0].flags;
      for (let i = 0; i < g.size; i++) if (rnd() < 0.25) flags[i] = [0x02, 0x04, 0x08, 0x10][Math.floor(rnd() * 4)];
      g.refresh();
      const n = g.size;
      const [sx, sy, gx, gy] = [g.xOf(a % n), g.yOf(a % n), g.xOf(b % n), g.yOf(b % n)];
      const r = findPath(g, sx, sy, gx, gy);
      const lines = [r.status === 'found' ? smoothPath(g, r.cells) : new Float64Array(0), findPath(g, sx, sy, gx, gy, { anyAngle: true }).points ?? new Float64Array(0)];
      for (const pts of lines) {
        for (let k = 2; k < pts.length; k += 2) {
          for (const c of segmentCrossings(pts[k - 2], pts[k - 1], pts[k], pts[k + 1])) {
            const f = flags[c.from[1] * g.width + c.from[0]];
            assert.equal(forbidden(f, c.dx, c.dy), 0, `leaves (${c.from}) by (${c.dx},${c.dy}) against flags ${f}`);
          }
        }
      }
    }),
    { numRuns: 300 },
  );
});

test('hexagonal and staggered paths are not string-pulled: smoothPath refuses them, planPath keeps the cell centres', async () => {
  const { canSmooth } = await import('../src/path/index.js');
  const { planPath } = await import('../src/query/index.js');
  const { hexagonal, staggered } = await import('../src/index.js');
  assert.equal(canSmooth('octile'), true);
  assert.equal(canSmooth('cardinal'), true);
  assert.equal(canSmooth('hex-odd-r'), false);
  assert.equal(canSmooth('staggered-odd-r'), false);
  const grids = [
    new NavGrid(8, 6, { projection: hexagonal(8, { layout: 'odd-r' }) }),
    new NavGrid(8, 6, { projection: staggered(16, 8, { staggerAxis: 'y', staggerIndex: 'odd' }) }),
  ];
  for (const g of grids) {
    const movement = g.movement;
    const r = findPath(g, 0, 0, 7, 5);
    assert.equal(r.status, 'found', movement);
    assert.deepEqual(Array.from(r.cells), Array.from(findPath(g, 0, 0, 7, 5, { movement }).cells), `${movement}: the grid's own movement`);
    assert.throws(() => smoothPath(g, r.cells, { movement }), /hexagonal and staggered paths have no straight segments/);
    for (const options of [{ movement }, {}]) {
      const p = planPath(g, g.projection.cellToWorld(0, 0), g.projection.cellToWorld(7, 5), options);
      assert.equal(p.status, 'found', movement);
      assert.equal(p.points.length, 2 * p.cells.length, `${movement}: one point per cell`);
    }
  }
  assert.deepEqual(grids.map((g) => g.movement), ['hex-odd-r', 'staggered-odd-r']);
});
