import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asciiGrid } from './grids.js';
import { runUntil } from './helpers-agents.js';
import { NavigationSystem, AGENT_NUDGED, type NavigationSystemOptions } from '../src/agents/index.js';

/** Two 10 x 11 rooms joined by a one-cell doorway at (10, 5): a wall at x = 10 with one gap. */
const twoRooms = () => asciiGrid(Array.from({ length: 11 }, (_, y) => [...'.'.repeat(21)].map((c, x) => (x === 10 && y !== 5 ? '@' : c)).join('')));

/** The two rooms with a unit standing in the doorway and a walker ordered from (3, 5) to (17, 5), straight through it. */
function doorway(options: NavigationSystemOptions = {}) {
  const sys = new NavigationSystem(twoRooms(), options);
  const idle = sys.addAgent({ x: 10, y: 5 });
  const walker = sys.addAgent({ x: 3, y: 5 });
  sys.moveTo(walker, 17, 5);
  return { sys, idle, walker, post: [10, 5] as const };
}

const from = (sys: NavigationSystem, id: number, p: readonly number[]) => Math.hypot(sys.x[id] - p[0], sys.y[id] - p[1]);

test('a unit idle in a doorway steps aside by little, early, and the walker passes', () => {
  const { sys, idle, walker, post } = doorway();
  let maxShift = 0;
  let closest = Infinity;
  let nudged = false;
  const steps = runUntil(sys, () => !sys.isMoving(walker), 1200, () => {
    maxShift = Math.max(maxShift, from(sys, idle, post));
    closest = Math.min(closest, Math.hypot(sys.x[idle] - sys.x[walker], sys.y[idle] - sys.y[walker]));
    nudged ||= (sys.flags[idle] & AGENT_NUDGED) !== 0;
  });
  assert.ok(steps > 0, 'the walker never arrived');
  assert.ok(from(sys, walker, [17, 5]) < 0.5, 'the walker stopped short');
  assert.ok(nudged, 'the idle unit never stepped aside');
  // Its own diameter plus the walker's, with a quarter to spare: the cell beside the door, not down the route.
  const bound = (2 * sys.radius[idle] + 2 * sys.radius[walker]) * 1.25;
  assert.ok(maxShift <= bound, `shoved ${maxShift.toFixed(2)} cells from its post (at most ${bound})`);
  // Early: out of the way before the walker reaches it, so the two barely touch.
  assert.ok(closest >= sys.radius[idle] + sys.radius[walker] - 0.05, `the walker ran into it (${closest.toFixed(3)} apart)`);
});

test('after the walker leaves, the idle unit walks back to its post', () => {
  const { sys, idle, walker, post } = doorway();
  let left = 0;
  assert.ok(runUntil(sys, () => !sys.isMoving(walker), 1200, () => (left = Math.max(left, from(sys, idle, post)))) > 0);
  assert.ok(left > 1, 'it never left its post');
  // returnAfterNudge (1 s) after it stood aside, then the short walk back: within 3 seconds of the walker's arrival.
  const back = runUntil(sys, () => !sys.isMoving(idle) && from(sys, idle, post) <= 0.25, 180);
  assert.ok(back >= 0, `still ${from(sys, idle, post).toFixed(2)} cells from its post after 3 s`);
  // And it stays there.
  for (let s = 0; s < 120; s++) sys.step();
  assert.ok(from(sys, idle, post) <= 0.25 && !sys.isMoving(idle));
});

test('returnToPost false: the unit steps aside as little and stays where it went; a non-boolean is refused', () => {
  const { sys, idle, walker, post } = doorway({ returnToPost: false });
  let maxShift = 0;
  assert.ok(runUntil(sys, () => !sys.isMoving(walker), 1200, () => (maxShift = Math.max(maxShift, from(sys, idle, post)))) > 0);
  for (let s = 0; s < 300; s++) sys.step();
  assert.ok(maxShift <= (2 * sys.radius[idle] + 2 * sys.radius[walker]) * 1.25, `shoved ${maxShift.toFixed(2)} cells`);
  assert.ok(from(sys, idle, post) > 1, `it walked back (${from(sys, idle, post).toFixed(2)} from its post)`);
  assert.ok(!sys.isMoving(idle));
  assert.throws(() => doorway({ returnToPost: 'yes' as unknown as boolean }), (e: Error) => e.name === 'TilenavError' && /returnToPost/.test(e.message));
});

test('a unit returns to where its last order ended; stopInPlace makes where it stands its post', () => {
  const sys = new NavigationSystem(twoRooms());
  // Added in a corner, then ordered to the doorway: the order's end is its post.
  const unit = sys.addAgent({ x: 5, y: 1 });
  sys.moveTo(unit, 10, 5);
  assert.ok(runUntil(sys, () => !sys.isMoving(unit), 600) > 0);
  const walker = sys.addAgent({ x: 3, y: 5 });
  sys.moveTo(walker, 17, 5);
  const crossing = (post: readonly number[]) => {
    let left = 0;
    assert.ok(runUntil(sys, () => !sys.isMoving(walker), 1200, () => (left = Math.max(left, from(sys, unit, post)))) > 0, 'the walker did not arrive');
    assert.ok(left > 0.5, 'the walker did not move it');
    return runUntil(sys, () => !sys.isMoving(unit) && from(sys, unit, post) <= 0.25, 240) >= 0;
  };
  assert.ok(crossing([10, 5]), "not back at its order's target");
  // Stopped in the doorway on its way somewhere else: where it stopped is its post now.
  sys.moveTo(unit, 14, 5);
  assert.ok(runUntil(sys, () => !sys.isMoving(unit), 600) > 0);
  sys.moveTo(unit, 6, 5);
  assert.ok(runUntil(sys, () => sys.x[unit] < 9.6, 600) > 0);
  sys.stopInPlace(unit);
  const spot = [sys.x[unit], sys.y[unit]] as const;
  assert.ok(from(sys, unit, [10, 5]) > 0.35, 'stopped on its old post');
  sys.moveTo(walker, 3, 5);
  assert.ok(crossing(spot), 'not back where it was stopped');
});

/** A 32 x 15 field with twelve idle units on posts two cells apart across the middle, and six walkers on the left. */
function crowd(options: NavigationSystemOptions = {}) {
  const sys = new NavigationSystem(asciiGrid(Array.from({ length: 15 }, () => '.'.repeat(32))), options);
  const posts: [number, number][] = [];
  for (let row = 0; row < 3; row++) for (let col = 0; col < 4; col++) posts.push([13 + 2 * col, 5 + 2 * row]);
  const idle = posts.map(([x, y]) => sys.addAgent({ x, y }));
  const walkers: number[] = [];
  for (let k = 0; k < 6; k++) walkers.push(sys.addAgent({ x: 2 + (k % 2), y: 5 + 2 * Math.floor(k / 2) }));
  sys.moveGroup(walkers, 28, 7);
  return { sys, idle, walkers, posts };
}

test('a crowd of idle units that a group walks through steps aside and returns to its posts', () => {
  const { sys, idle, walkers, posts } = crowd();
  let moved = 0;
  const steps = runUntil(sys, () => walkers.every((w) => !sys.isMoving(w)), 3000, () => {
    for (let k = 0; k < idle.length; k++) moved = Math.max(moved, from(sys, idle[k], posts[k]));
  });
  assert.ok(steps > 0, 'the group never arrived');
  for (const w of walkers) assert.ok(Math.hypot(sys.x[w] - sys.targetX[w], sys.y[w] - sys.targetY[w]) < 0.5, `walker ${w} stopped short`);
  assert.ok(moved > 0.5, 'the group went round the crowd: nobody had to step aside');
  const back = runUntil(sys, () => idle.every((id, k) => !sys.isMoving(id) && from(sys, id, posts[k]) <= 0.25), 600);
  const worst = Math.max(...idle.map((id, k) => from(sys, id, posts[k])));
  assert.ok(back >= 0, `not all back at their posts after 10 s (worst ${worst.toFixed(2)} cells off)`);
});

test('determinism: stepping aside and walking back give the same positions bit for bit', () => {
  const run = () => {
    const { sys, idle, posts } = crowd();
    const { sys: door, idle: guard, post } = doorway();
    for (let s = 0; s < 900; s++) {
      sys.update(1 / 60);
      door.update(1 / 60);
    }
    // What is compared did happen: everyone is back home.
    idle.forEach((id, k) => assert.ok(from(sys, id, posts[k]) <= 0.25, `unit ${id} not back`));
    assert.ok(from(door, guard, post) <= 0.25, 'the guard is not back');
    return [sys.x, sys.y, sys.heading, door.x, door.y].map((a) => new Uint8Array(a.buffer.slice(0)));
  };
  const a = run();
  const b = run();
  for (let k = 0; k < a.length; k++) assert.deepEqual(a[k], b[k]);
});
