import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, Pathfinder, TilenavError, findPath, orthogonal } from '../src/index.js';
import { ClearanceMap, clearanceOf } from '../src/query/index.js';
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

/** Per cell: the Euclidean distance from its centre to the nearest blocked square or the grid's edge, capped. */
function bruteClearance(g: NavGrid, cap: number): Float64Array {
  const out = new Float64Array(g.size);
  const walk = g.layers[0].walkable;
  for (let i = 0; i < g.size; i++) {
    if (walk[i] === 0) continue;
    const x = g.xOf(i);
    const y = g.yOf(i);
    let d = Math.min(x + 0.5, y + 0.5, g.width - 0.5 - x, g.height - 0.5 - y, cap);
    for (let j = 0; j < g.size; j++) if (walk[j] === 0) d = Math.min(d, segmentToCell(x, y, x, y, g.xOf(j), g.yOf(j)));
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
      const want = bruteClearance(g, cap);
      for (let i = 0; i < g.size; i++) assert.ok(Math.abs(map.values[i] - want[i]) < 1e-6, `cell ${i}: ${map.values[i]} != ${want[i]}`);
      map.dispose();
    }),
    { numRuns: 200 },
  );
});

test('property: a path for a unit of radius r keeps its disc clear of every blocked cell along every step', () => {
  fc.assert(
    fc.property(gridArb({ width: [2, 24], height: [2, 24] }), fc.double({ min: 0.1, max: 2.5, noNaN: true }), fc.nat(), fc.nat(), ({ grid: g }, radius, a, b) => {
      const n = g.size;
      const r = findPath(g, g.xOf(a % n), g.yOf(a % n), g.xOf(b % n), g.yOf(b % n), { radius });
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
    }),
    { numRuns: 150 },
  );
});

test('a wide unit takes the wide corridor; too wide a unit gets no path; the cascade respects size', () => {
  const g = new NavGrid(24, 15);
  g.fillRect(0, 7, 24, 1, { walkable: false });
  g.setWalkable(3, 7, true); // a one-cell gap near the start
  g.fillRect(12, 7, 6, 1, { walkable: true }); // a six-cell gap far away
  const small = findPath(g, 3, 3, 3, 11, { radius: 0 });
  const big = findPath(g, 3, 3, 3, 11, { radius: 1.2 });
  assert.equal(small.status, 'found');
  assert.equal(big.status, 'found');
  assert.ok(big.cost > small.cost + 10, 'the big unit goes round by the wide gap');
  assert.equal(findPath(g, 3, 3, 3, 11, { radius: 2.5 }).status, 'found', 'a disc 5 cells wide passes the 6-cell gap');
  assert.equal(findPath(g, 3, 3, 3, 11, { radius: 3.1 }).status, 'no-path', 'a disc 6.2 cells wide does not');
  g.fillRect(12, 7, 6, 1, { walkable: false });
  assert.equal(findPath(g, 3, 3, 3, 11, { radius: 1.2 }).status, 'no-path', 'the clearance followed the change');
  const near = findPath(g, 3, 3, 3, 11, { radius: 1.2, nearest: true });
  assert.equal(near.status, 'partial');
  // Every cell of the nearest answer fits the unit.
  for (const c of near.cells) assert.ok(clearanceOf(g, 0, 1.2).values[c] >= 1.2 - 1e-6);
  // A unit wider than the grid fits nowhere; one past the 255-cell clearance cap is refused by name.
  const huge = findPath(g, 3, 3, 3, 11, { radius: 40 });
  assert.deepEqual([huge.status, huge.reason], ['invalid-start', 'unit-does-not-fit']);
  assert.throws(() => findPath(g, 3, 3, 3, 11, { radius: 300 }), (e: unknown) => e instanceof TilenavError && e.element === 'radius');
});

test('planPath with a radius snaps a wide unit to a cell it fits in', async () => {
  const { planPath } = await import('../src/query/index.js');
  const g = new NavGrid(20, 20);
  // A start against the map's edge: a unit of radius 1.5 needs its centre 1.5 from the edge, cell x = 1.
  const p = planPath(g, { x: 0.5, y: 10.5, z: 0 }, { x: 10.5, y: 10.5, z: 0 }, { radius: 1.5 });
  assert.equal(p.status, 'found');
  assert.equal(g.xOf(p.cells[0]), 1);
  const map = clearanceOf(g, 0, 1.5);
  for (const c of p.cells) assert.ok(map.values[c] >= 1.5);
});

test('clearance is exact for a disc: a unit fits corridors as wide as it is, and a misfit says why', () => {
  // The widest disc at a cell centre of a corridor w cells wide: radius w / 2 (odd w) or (w - 1) / 2.
  for (const [width, radius] of [[1, 0.3], [1, 0.5], [2, 0.3], [2, 0.5], [3, 1.5], [4, 1.5]] as const) {
    // Open rooms at both ends, joined by a corridor in rows 5 .. 4 + width from x = 10 to 19.
    const g = new NavGrid(30, width + 10);
    g.fillRect(10, 0, 10, 5, { walkable: false });
    g.fillRect(10, width + 5, 10, 5, { walkable: false });
    const y = 5 + Math.floor((width - 1) / 2);
    assert.equal(findPath(g, 3, y, 26, y, { radius }).status, 'found', `radius ${radius} in a corridor ${width} wide`);
    const widest = width % 2 === 1 ? width / 2 : (width - 1) / 2;
    const tight = findPath(g, 3, y, 26, y, { radius: widest + 0.01 });
    assert.equal(tight.status, 'no-path', `radius ${widest + 0.01} in a corridor ${width} wide`);
    const inside = findPath(g, 15, y, 26, y, { radius: widest + 0.01 });
    assert.equal(inside.status, 'invalid-start');
    assert.equal(inside.reason, 'unit-does-not-fit');
    assert.equal(findPath(g, 15, 0, 26, y, { radius: 0.1 }).reason, 'blocked');
    assert.equal(findPath(g, 3, y, 15, 0, { radius: 0.1 }).reason, 'blocked');
    assert.deepEqual([findPath(g, 3, y, 15, y, { radius: widest + 0.01 }).status, findPath(g, 3, y, 15, y, { radius: widest + 0.01 }).reason], ['invalid-goal', 'unit-does-not-fit']);
  }
  // World units: cells of 0.4 m; an agent of radius 0.45 m in a corridor of four cells (1.6 m).
  const g = new NavGrid(30, 14, { projection: orthogonal(0.4, 0.4) });
  g.fillRect(10, 0, 10, 5, { walkable: false });
  g.fillRect(10, 9, 10, 5, { walkable: false });
  const r = findPath(g, 3, 6, 26, 6, { radius: 0.45 });
  assert.equal(r.status, 'found');
  assert.ok(Array.from(r.cells).some((c) => g.xOf(c) === 15), 'through the corridor');
  assert.equal(findPath(g, 3, 6, 26, 6, { radius: 0.61 }).status, 'no-path', 'no cell centre of the 1.6 m corridor is 0.61 m from both walls');
});

test('a radius answers the same from a kept Pathfinder and the free findPath, on the clearance the grid keeps', () => {
  const g = new NavGrid(12, 9);
  g.fillRect(5, 0, 1, 6, { walkable: false });
  const kept = new Pathfinder(g);
  for (const radius of [0, 0.3, 0.5, 1, 1.4]) {
    const a = kept.findPath(0, 0, 11, 0, { radius });
    const b = findPath(g, 0, 0, 11, 0, { radius });
    assert.deepEqual([a.status, a.cost, Array.from(a.cells)], [b.status, b.cost, Array.from(b.cells)], `radius ${radius}`);
  }
  assert.equal(clearanceOf(g), clearanceOf(g, 0, 1.4), 'one clearance map per layer, kept by the grid');
  for (const bad of [-1, NaN, Infinity, '1']) {
    assert.throws(() => findPath(g, 0, 0, 3, 3, { radius: bad as never }), (e: unknown) => e instanceof TilenavError && e.element === 'radius');
    assert.throws(() => kept.findPath(0, 0, 3, 3, { radius: bad as never }), (e: unknown) => e instanceof TilenavError && e.element === 'radius');
  }
});
