import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, FLAG_NO_EXIT_EAST, findPath } from '../src/index.js';
import { ReachabilityIndex } from '../src/query/index.js';
import { flood } from './helpers-queries.js';
import { gridArb, gridFor } from './grids.js';

/** The index's partition equals the flood fill's: same component iff flood-connected. */
function assertMatchesFlood(g: NavGrid, index: ReachabilityIndex): void {
  const walk = g.layers[0].walkable;
  const comp = new Int32Array(g.size).fill(-1);
  let next = 0;
  for (let i = 0; i < g.size; i++) {
    if (walk[i] !== 1 || comp[i] !== -1) continue;
    for (const c of flood(g, i)) comp[c] = next;
    next++;
  }
  // Map index ids to flood ids both ways: a bijection.
  const a = new Map<number, number>();
  const b = new Map<number, number>();
  for (let i = 0; i < g.size; i++) {
    const id = index.componentOf(g.xOf(i), g.yOf(i));
    if (comp[i] === -1) {
      assert.equal(id, -1, `blocked cell ${i} has a component`);
      continue;
    }
    assert.ok(id >= 0, `walkable cell ${i} has no component`);
    if (!a.has(id)) a.set(id, comp[i]);
    if (!b.has(comp[i])) b.set(comp[i], id);
    assert.equal(a.get(id), comp[i], `cell ${i}: index joins what the flood separates`);
    assert.equal(b.get(comp[i]), id, `cell ${i}: index separates what the flood joins`);
  }
}

test('property: after random change sequences the components equal a flood fill', () => {
  const change = fc.record({ x: fc.nat(), y: fc.nat(), w: fc.integer({ min: 1, max: 4 }), h: fc.integer({ min: 1, max: 4 }), walkable: fc.boolean() });
  fc.assert(
    fc.property(gridArb({ width: [2, 16], height: [2, 16] }), fc.array(change, { minLength: 1, maxLength: 12 }), ({ grid: g }, changes) => {
      const index = new ReachabilityIndex(g);
      assertMatchesFlood(g, index);
      for (const c of changes) {
        const x = c.x % g.width;
        const y = c.y % g.height;
        g.fillRect(x, y, Math.min(c.w, g.width - x), Math.min(c.h, g.height - y), { walkable: c.walkable });
        assertMatchesFlood(g, index);
      }
      index.dispose();
    }),
    { numRuns: 250 },
  );
});

test('a wall closing splits a component; reopening joins it; batch changes coalesce', () => {
  const g = new NavGrid(12, 5);
  const index = new ReachabilityIndex(g);
  assert.ok(index.connected(0, 0, 11, 4));
  g.fillRect(6, 0, 1, 5, { walkable: false });
  assert.ok(!index.connected(0, 0, 11, 4));
  assert.ok(index.connected(0, 0, 5, 4));
  g.batch(() => {
    g.setWalkable(6, 2, true);
    g.setWalkable(6, 3, true);
  });
  assert.ok(index.connected(0, 0, 11, 4));
  assert.ok(!index.connected(0, 0, 6, 0), 'blocked cells are in no component');
  // The index reads the component labels the grid keeps: there is nothing of its own to stop.
  index.dispose();
  g.fillRect(6, 0, 1, 5, { walkable: false });
  assert.ok(!index.connected(0, 0, 11, 4), 'the grid\'s labels still follow the grid');
  assert.equal(new ReachabilityIndex(g).componentOf(0, 0), index.componentOf(0, 0), 'two indexes read the same labels');
});

test('an unreachable goal: nearest reaches the cell the index names as nearest, at its exact cost', () => {
  const g = new NavGrid(60, 40);
  g.fillRect(40, 0, 1, 40, { walkable: false });
  const index = new ReachabilityIndex(g);
  const near = findPath(g, 0, 0, 50, 20, { nearest: true });
  assert.equal(near.status, 'partial');
  assert.equal(near.reached, index.nearestReachableCell(0, 50, 20));
  assert.equal(near.reached, 20 * 60 + 39);
  const direct = findPath(g, 0, 0, 39, 20);
  assert.ok(Math.abs(near.cost - direct.cost) < 1e-9);
  assert.equal(findPath(g, 0, 0, 50, 20).expanded, 0, 'without nearest the labels answer no-path at once');
  // Isolated start: it stays, a one-cell partial path.
  g.fillRect(0, 1, 2, 1, { walkable: false });
  g.setWalkable(1, 0, false);
  const iso = findPath(g, 0, 0, 50, 20, { nearest: true });
  assert.equal(iso.status, 'partial');
  assert.deepEqual(Array.from(iso.cells), [0]);
  assert.equal(iso.reached, 0);
  assert.equal(index.nearestReachableCell(0, 50, 20), 0);
});

test('one-way cells: the index only rules paths out, the search decides the rest', () => {
  const g = new NavGrid(6, 1);
  g.setFlags(2, 0, FLAG_NO_EXIT_EAST);
  const index = new ReachabilityIndex(g);
  assert.ok(index.connected(0, 0, 5, 0), 'weakly connected');
  const r = findPath(g, 0, 0, 5, 0, { nearest: true });
  assert.equal(r.status, 'partial');
  assert.equal(r.reached, 2);
  const blocked = findPath(g, 0, 0, 5, 0);
  assert.equal(blocked.status, 'no-path');
  assert.ok(blocked.expanded > 0, 'weakly connected: the search decides');
  const back = findPath(g, 5, 0, 0, 0, { nearest: true });
  assert.equal(back.status, 'found');
});

test('property: components under cardinal and offset-hex movement equal a flood over the model\'s moves', async () => {
  const { movementModel } = await import('../src/index.js');
  for (const name of ['cardinal', 'hex-odd-r', 'octile-always'] as const) {
    const model = movementModel(name);
    fc.assert(
      fc.property(gridArb({ width: [2, 12], height: [2, 12] }), fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 8 }), ({ grid: drawn }, changes) => {
        const g = gridFor(drawn, name);
        const index = new ReachabilityIndex(g, { movement: name });
        for (const [c, w] of changes) g.setWalkable(g.xOf(c % g.size), g.yOf(c % g.size), w);
        const walk = g.layers[0].walkable;
        const ok = (x: number, y: number) => g.inBounds(x, y) && walk[y * g.width + x] === 1;
        const comp = new Int32Array(g.size).fill(-1);
        let next = 0;
        for (let i = 0; i < g.size; i++) {
          if (walk[i] !== 1 || comp[i] !== -1) continue;
          const stack = [i];
          comp[i] = next;
          while (stack.length) {
            const c = stack.pop()!;
            const x = g.xOf(c);
            const y = g.yOf(c);
            const parity = model.parityAxis === 'y' ? y & 1 : model.parityAxis === 'x' ? x & 1 : 0;
            for (const s of model.steps[parity]) {
              if (!ok(x + s.dx, y + s.dy)) continue;
              if (s.diagonal && (ok(x + s.dx, y) ? 0 : 1) + (ok(x, y + s.dy) ? 0 : 1) > model.corner) continue;
              const n = (y + s.dy) * g.width + x + s.dx;
              if (comp[n] === -1) {
                comp[n] = next;
                stack.push(n);
              }
            }
          }
          next++;
        }
        for (let i = 0; i < g.size; i++) {
          for (let j = i + 1; j < g.size; j += 7) {
            assert.equal(index.connected(g.xOf(i), g.yOf(i), g.xOf(j), g.yOf(j)), comp[i] >= 0 && comp[i] === comp[j], `${name}: cells ${i}, ${j}`);
          }
        }
        index.dispose();
      }),
      { numRuns: 60 },
    );
  }
});
