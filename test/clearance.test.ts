import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid } from '../src/index.js';
import { ClearanceMap, findPathToNearest } from '../src/query/index.js';
import { gridArb } from './grids.js';

/** Euclidean distance between segment (a, b) and the closed square of cell (cx, cy). */
function segmentToCell(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  // Sample-free: minimise the distance to the box along the segment by ternary search (convex in t).
  const dist = (t: number) => {
    const x = ax + (bx - ax) * t;
    const y = ay + (by - ay) * t;
    const dx = Math.max(0, Math.abs(x - cx) - 0.5);
    const dy = Math.max(0, Math.abs(y - cy) - 0.5);
    return Math.hypot(dx, dy);
  };
  let lo = 0;
  let hi = 1;
  for (let k = 0; k < 60; k++) {
    const m1 = lo + (hi - lo) / 3;
    const m2 = hi - (hi - lo) / 3;
    if (dist(m1) < dist(m2)) hi = m2;
    else lo = m1;
  }
  return Math.min(dist(0), dist(1), dist((lo + hi) / 2));
}

function bruteClearance(g: NavGrid, cap: number): Uint8Array {
  const out = new Uint8Array(g.size);
  const walk = g.layers[0].walkable;
  for (let i = 0; i < g.size; i++) {
    if (walk[i] === 0) continue;
    const x = g.xOf(i);
    const y = g.yOf(i);
    let d = Math.min(x + 1, y + 1, g.width - x, g.height - y, cap);
    for (let j = 0; j < g.size; j++) if (walk[j] === 0) d = Math.min(d, Math.max(Math.abs(g.xOf(j) - x), Math.abs(g.yOf(j) - y)));
    out[i] = d;
  }
  return out;
}

test('property: clearance after random changes equals a brute-force recomputation', () => {
  const change = fc.record({ x: fc.nat(), y: fc.nat(), w: fc.integer({ min: 1, max: 3 }), h: fc.integer({ min: 1, max: 3 }), walkable: fc.boolean() });
  fc.assert(
    fc.property(gridArb({ width: [2, 18], height: [2, 18] }), fc.integer({ min: 1, max: 6 }), fc.array(change, { maxLength: 6 }), ({ grid: g }, cap, changes) => {
      const map = new ClearanceMap(g, { maxClearance: cap });
      for (const c of changes) {
        const x = c.x % g.width;
        const y = c.y % g.height;
        g.fillRect(x, y, Math.min(c.w, g.width - x), Math.min(c.h, g.height - y), { walkable: c.walkable });
      }
      assert.deepEqual(map.values, bruteClearance(g, cap));
      map.dispose();
    }),
    { numRuns: 200 },
  );
});

test('property: a path for a unit of radius r keeps its disc clear of every blocked cell along every step', () => {
  fc.assert(
    fc.property(gridArb({ width: [2, 24], height: [2, 24] }), fc.double({ min: 0.1, max: 2.5, noNaN: true }), fc.nat(), fc.nat(), ({ grid: g }, radius, a, b) => {
      const map = new ClearanceMap(g, { maxClearance: 8 });
      const n = g.size;
      const r = map.findPath(g.xOf(a % n), g.yOf(a % n), g.xOf(b % n), g.yOf(b % n), { radius });
      if (r.status !== 'found') return;
      const walk = g.layers[0].walkable;
      const cells = Array.from(r.cells);
      const steps = cells.length === 1 ? [[cells[0], cells[0]]] : cells.slice(1).map((c, k) => [cells[k], c]);
      for (const [p, q] of steps) {
        for (let y = -1; y <= g.height; y++) {
          for (let x = -1; x <= g.width; x++) {
            const blocked = x < 0 || y < 0 || x >= g.width || y >= g.height || walk[y * g.width + x] === 0;
            if (!blocked) continue;
            const d = segmentToCell(g.xOf(p), g.yOf(p), g.xOf(q), g.yOf(q), x, y);
            assert.ok(d >= radius - 1e-9, `step ${p}->${q} passes ${d.toFixed(3)} from blocked (${x},${y}), radius ${radius}`);
          }
        }
      }
      map.dispose();
    }),
    { numRuns: 150 },
  );
});

test('a wide unit takes the wide corridor; too wide a unit gets no path; the cascade respects size', () => {
  const g = new NavGrid(24, 15);
  g.fillRect(0, 7, 24, 1, { walkable: false });
  g.setWalkable(3, 7, true); // a one-cell gap near the start
  g.fillRect(12, 7, 6, 1, { walkable: true }); // a six-cell gap far away
  const map = new ClearanceMap(g);
  const small = map.findPath(3, 3, 3, 11, { radius: 0 });
  const big = map.findPath(3, 3, 3, 11, { radius: 1.2 });
  assert.equal(small.status, 'found');
  assert.equal(big.status, 'found');
  assert.ok(big.cost > small.cost + 10, 'the big unit goes round by the wide gap');
  assert.equal(map.findPath(3, 3, 3, 11, { radius: 2.5 }).status, 'no-path');
  g.fillRect(12, 7, 6, 1, { walkable: false });
  assert.equal(map.findPath(3, 3, 3, 11, { radius: 1.2 }).status, 'no-path', 'the map followed the change');
  const near = findPathToNearest(g, 3, 3, 3, 11, { hooks: map.hooks(1.2) });
  assert.equal(near.status, 'partial');
  assert.throws(() => map.findPath(3, 3, 3, 11, { radius: 40 }), /maxClearance/);
});

test('planPath with a clearance map snaps a wide unit to a cell it fits in', async () => {
  const { planPath } = await import('../src/query/index.js');
  const g = new NavGrid(20, 20);
  const map = new ClearanceMap(g);
  // A start against the map's edge: a unit of radius 1.5 needs clearance 3, so 2 cells from the edge.
  const p = planPath(g, { x: 0.5, y: 10.5, z: 0 }, { x: 10.5, y: 10.5, z: 0 }, { hooks: map.hooks(1.5) });
  assert.equal(p.status, 'found');
  assert.equal(g.xOf(p.cells[0]), 2);
  for (const c of p.cells) assert.ok(map.values[c] >= 3);
});
