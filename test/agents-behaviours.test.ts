/**
 * Behaviours on top of orders (src/agents/system.ts): flee from a threat, wander near home.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NavGrid, TilenavError } from '../src/index.js';
import { NavigationSystem } from '../src/agents/index.js';

const run = (sys: NavigationSystem, seconds: number, each?: () => void) => {
  for (let s = 0; s < seconds * 30; s++) {
    sys.update(1 / 30);
    each?.();
  }
};

test('flee: the unit walks to the cell in range farthest from the threat, round walls; cornered, it stays', () => {
  const g = new NavGrid(30, 20);
  // A wall east of the unit: the way out runs round its ends.
  for (let y = 5; y < 15; y++) g.setWalkable(18, y, false);
  const sys = new NavigationSystem(g);
  const unit = sys.addAgent({ x: 15, y: 10 });
  const threat = [12, 10] as const;
  assert.equal(sys.flee(unit, threat[0], threat[1], { distance: 8 }), true);
  run(sys, 12);
  assert.equal(sys.isMoving(unit), false);
  const d = Math.hypot(sys.x[unit] - threat[0], sys.y[unit] - threat[1]);
  assert.ok(d > 3 + 5, `only ${d.toFixed(2)} from the threat`);
  // Cornered: in a dead-end pocket with the threat at its far end, nothing lies farther.
  const pocket = NavGrid.fromMatrix([
    [1, 1, 1, 1, 1],
    [1, 0, 0, 0, 1],
    [1, 1, 1, 1, 1],
  ]);
  const sys2 = new NavigationSystem(pocket);
  const cornered = sys2.addAgent({ x: 1, y: 1 });
  assert.equal(sys2.flee(cornered, 4, 1, { distance: 3 }), false);
  assert.equal(sys2.isMoving(cornered), false);
});

test('flee: bad distance or threat throws naming it', () => {
  const sys = new NavigationSystem(new NavGrid(8, 8));
  const u = sys.addAgent({ x: 2, y: 2 });
  for (const [args, name] of [
    [[1, 1, { distance: 0 }], 'distance'],
    [[1, 1, { distance: NaN }], 'distance'],
    [[1, 1, { distance: Infinity }], 'distance'],
    [[NaN, 1, {}], 'threat x'],
    [[1, Infinity, {}], 'threat y'],
  ] as const) {
    assert.throws(() => sys.flee(u, args[0], args[1], args[2]), (e: unknown) => e instanceof TilenavError && e.element === name);
  }
});

test('wander: stays within its radius of home, visits several spots, the same seed gives the same walk, and an order ends it', () => {
  const make = () => {
    const g = new NavGrid(24, 24);
    for (let x = 4; x < 20; x++) g.setWalkable(x, 12, false);
    const sys = new NavigationSystem(g);
    const u = sys.addAgent({ x: 10, y: 10 });
    sys.wander(u, { radius: 4, pause: 0.5, seed: 3 });
    return { sys, u };
  };
  const a = make();
  const spots = new Set<string>();
  let farthest = 0;
  run(a.sys, 60, () => {
    farthest = Math.max(farthest, Math.hypot(a.sys.x[a.u] - 10, a.sys.y[a.u] - 10));
    if (!a.sys.isMoving(a.u)) spots.add(`${Math.round(a.sys.x[a.u])},${Math.round(a.sys.y[a.u])}`);
  });
  assert.ok(spots.size >= 4, `only ${spots.size} spots`);
  assert.ok(farthest <= 4 + 0.6, `strayed ${farthest.toFixed(2)} from home`);
  assert.ok(a.sys.y[a.u] < 12, 'never past the wall');
  const b = make();
  run(b.sys, 60);
  assert.equal(b.sys.x[b.u], a.sys.x[a.u]);
  assert.equal(b.sys.y[b.u], a.sys.y[a.u]);
  // Another order ends the wandering: it arrives and stays.
  a.sys.moveTo(a.u, 2, 2);
  run(a.sys, 20);
  assert.ok(Math.hypot(a.sys.x[a.u] - 2, a.sys.y[a.u] - 2) < 0.3);
  run(a.sys, 10);
  assert.ok(Math.hypot(a.sys.x[a.u] - 2, a.sys.y[a.u] - 2) < 0.3, 'wandered on after another order');
});

test('wander: bad radius, pause or seed throws naming it', () => {
  const sys = new NavigationSystem(new NavGrid(8, 8));
  const u = sys.addAgent({ x: 2, y: 2 });
  for (const [options, name] of [
    [{ radius: 0 }, 'radius'],
    [{ radius: Infinity }, 'radius'],
    [{ pause: -1 }, 'pause'],
    [{ seed: 1.5 }, 'seed'],
  ] as const) {
    assert.throws(() => sys.wander(u, options), (e: unknown) => e instanceof TilenavError && e.element === name);
  }
});
