import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NavGrid, continuous } from '../src/index.js';
import { randomPoint, mulberry32, ReachabilityIndex } from '../src/query/index.js';

test('mulberry32 replays the same sequence from the same seed', () => {
  const a = mulberry32(42);
  const b = mulberry32(42);
  const xs = Array.from({ length: 5 }, a);
  assert.deepEqual(xs, Array.from({ length: 5 }, b));
  assert.ok(xs.every((x) => x >= 0 && x < 1));
  assert.notDeepEqual(xs, Array.from({ length: 5 }, mulberry32(43)));
});

test('random points are uniform over the disc (chi-square over equal-area rings and sectors, fixed seed)', () => {
  const g = new NavGrid(200, 200);
  const random = mulberry32(1234);
  const R = 80;
  const rings = 4;
  const sectors = 8;
  const counts = new Array(rings * sectors).fill(0);
  const N = 16000;
  for (let k = 0; k < N; k++) {
    const p = randomPoint(g, { x: 100, y: 100, z: 0 }, R, { random })!;
    const dx = p.x - 100;
    const dy = p.y - 100;
    const r = Math.hypot(dx, dy);
    assert.ok(r <= R + 1e-9);
    // Equal-area rings: r^2 / R^2 uniform.
    const ring = Math.min(rings - 1, Math.floor(((r * r) / (R * R)) * rings));
    const sector = Math.min(sectors - 1, Math.floor(((Math.atan2(dy, dx) + Math.PI) / (2 * Math.PI)) * sectors));
    counts[ring * sectors + sector]++;
  }
  const expected = N / counts.length;
  const chi2 = counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
  // 31 degrees of freedom: the 99.9th percentile is 61.1.
  assert.ok(chi2 < 61.1, `chi-square ${chi2.toFixed(1)}`);
  // Without the square root the inner ring would hold far more than a quarter.
  assert.ok(counts.slice(0, sectors).reduce((a, b) => a + b) < N * 0.3);
});

test('only walkable, optionally only reachable points; null after maxAttempts misses', () => {
  const g = new NavGrid(20, 20, { projection: continuous(1, 0, 0, 3) });
  g.fillRect(10, 0, 1, 20, { walkable: false });
  const index = new ReachabilityIndex(g);
  const random = mulberry32(7);
  for (let k = 0; k < 300; k++) {
    const p = randomPoint(g, { x: 10.5, y: 3, z: 10 }, 9, { random, reachableFrom: [2, 2], reachability: index, maxAttempts: 50 })!;
    assert.ok(p.x < 10, `x ${p.x} on the wrong side of the wall`);
    assert.equal(p.y, 3);
  }
  g.fillRect(0, 0, 20, 20, { walkable: false });
  assert.equal(randomPoint(g, { x: 5, y: 0, z: 5 }, 3, { random }), null);
  assert.throws(() => randomPoint(g, { x: 5, y: 0, z: 5 }, 3, { reachableFrom: [1, 1] }), /reachability/);
});
