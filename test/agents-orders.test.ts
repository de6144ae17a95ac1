import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NavGrid } from '../src/index.js';
import { asciiGrid } from './grids.js';
import { parseMovingAiMap } from '../src/loaders/index.js';
import { readFixture } from './fixtures.js';
import { NavigationSystem, GridPlanner, DEFAULT_NAVIGATION_OPTIONS, AGENT_BLOCKED, AGENT_UNREACHABLE } from '../src/agents/index.js';

test('a goal drifting 0.05 cell per order keeps the path: no replan per order, and the unit ends at the last goal', () => {
  const grid = asciiGrid([
    '....................', //
    '.........@..........',
    '.........@..........',
    '.........@..........',
    '....................',
  ]);
  const sys = new NavigationSystem(grid);
  const a = sys.addAgent({ x: 1, y: 2 });
  let gx = 17;
  sys.moveTo(a, gx, 2);
  sys.step();
  assert.equal(sys.stats.plans, 1);
  for (let s = 0; s < 40; s++) {
    gx += 0.05 * (s % 2 === 0 ? 1 : -0.5);
    sys.moveTo(a, gx, 2.2);
    sys.step();
  }
  assert.equal(sys.stats.plans, 1, 'each small goal change planned again');
  const p = sys.path(a)!;
  assert.deepEqual([p[p.length - 2], p[p.length - 1]], [gx, 2.2]);
  for (let s = 0; s < 600 && sys.isMoving(a); s++) sys.step();
  assert.ok(Math.hypot(sys.x[a] - gx, sys.y[a] - 2.2) <= DEFAULT_NAVIGATION_OPTIONS.arrivalThreshold + 1e-9);
  // Beyond the threshold (or with the last leg blocked) the order plans afresh.
  sys.moveTo(a, 3, 2);
  sys.step();
  assert.equal(sys.stats.plans, 2);
});

test('retargetDist: a small goal change behind a wall plans again; 0 plans every changed goal', () => {
  // The goal moves from one side of a wall's end to the other: the last leg would cross it.
  const grid = asciiGrid([
    '..........', //
    '.....@@@@.',
    '..........',
  ]);
  const sys = new NavigationSystem(grid, { retargetDist: 3 });
  const a = sys.addAgent({ x: 0, y: 0 });
  sys.moveTo(a, 7, 0);
  sys.step();
  sys.moveTo(a, 7, 2);
  sys.step();
  assert.equal(sys.stats.plans, 2);
  const strict = new NavigationSystem(new NavGrid(10, 3), { retargetDist: 0 });
  const b = strict.addAgent({ x: 0, y: 1 });
  strict.moveTo(b, 8, 1);
  strict.step();
  strict.moveTo(b, 8.05, 1);
  strict.step();
  assert.equal(strict.stats.plans, 2);
});

test('far positions are refused, naming the coordinate, instead of hanging step()', () => {
  const sys = new NavigationSystem(new NavGrid(16, 16));
  assert.throws(() => sys.addAgent({ x: 1e16, y: 0 }), (e: Error) => e.name === 'TilenavError' && /agent\.x/.test(e.message));
  assert.throws(() => sys.addAgent({ x: 0, y: -1e9 }), /agent\.y/);
  const a = sys.addAgent({ x: 2, y: 2 });
  assert.throws(() => sys.moveTo(a, 1e16, 3), /target x/);
  assert.throws(() => sys.moveGroup([a], 3, 1e300), /target y/);
  // The documented range: the grid grown by its own size on every side.
  const edge = sys.addAgent({ x: -16, y: 32 });
  sys.moveTo(edge, 5, 5);
  sys.moveTo(a, 31.5, -15.5);
  for (let s = 0; s < 30; s++) sys.step();
  assert.ok(sys.has(edge));
});

test('misuse of agents throws a TilenavError naming the argument', () => {
  const sys = new NavigationSystem(new NavGrid(8, 8));
  assert.throws(() => sys.addAgent({ x: 1, y: 1, heading: NaN }), (e: Error) => e.name === 'TilenavError' && /agent\.heading/.test(e.message));
  assert.throws(() => sys.addAgent({ x: 1, y: 1, heading: Infinity }), /agent\.heading/);
  const a = sys.addAgent({ x: 1, y: 1, heading: 7 * Math.PI });
  assert.ok(Math.abs(Math.abs(sys.heading[a]) - Math.PI) < 1e-9, 'heading kept in -pi .. pi');
  assert.throws(() => sys.moveGroup([a], 4, 4, { mode: 'swarm' as 'flow' }), (e: Error) => e.name === 'TilenavError' && /mode/.test(e.message));
  assert.throws(() => sys.interpolated(5), /agent id/);
  assert.throws(() => sys.toWorld(-1), /agent id/);
  assert.throws(() => sys.toWorld(1.5), /agent id/);
  sys.removeAgent(a);
  assert.throws(() => sys.interpolated(a), /agent id/);
});

test('a small goal change toward an unreachable target plans again: a partial path does not end at the target', () => {
  const grid = asciiGrid([
    '..........', //
    '......@@@.',
    '......@.@.',
    '......@@@.',
  ]);
  const sys = new NavigationSystem(grid);
  const a = sys.addAgent({ x: 0, y: 0 });
  sys.moveTo(a, 7, 2);
  sys.step();
  const before = sys.path(a)!;
  assert.notDeepEqual([before[before.length - 2], before[before.length - 1]], [7, 2], 'walks to the nearest reachable cell');
  sys.moveTo(a, 7.1, 2);
  sys.step();
  assert.equal(sys.stats.plans, 2);
  const after = sys.path(a)!;
  assert.notDeepEqual([after[after.length - 2], after[after.length - 1]], [7.1, 2]);
});

test('a group order searches the map once: the flow field, then only short bounded searches near the goal', () => {
  const grid = parseMovingAiMap(readFixture('movingai/AcrosstheCape.map')).grid;
  const planner = new GridPlanner(grid);
  // Counts the searches of the one Pathfinder the planner and the flow fields share.
  const searches: { maxIterations: number | undefined; expanded: number }[] = [];
  const pf = planner.pathfinder;
  const search = pf.findPath.bind(pf);
  pf.findPath = (sx, sy, gx, gy, options) => {
    const r = search(sx, sy, gx, gy, options);
    searches.push({ maxIterations: options?.maxIterations, expanded: r.expanded });
    return r;
  };
  const distanceMap = pf.distanceMap.bind(pf);
  let distanceMaps = 0;
  pf.distanceMap = (...args) => {
    distanceMaps++;
    return distanceMap(...args);
  };
  const sys = new NavigationSystem(grid, { planner, walkSpeed: 8 });
  const ids: number[] = [];
  for (let r = 0; ids.length < 50; r++) {
    for (let dy = -r; dy <= r && ids.length < 50; dy++) {
      for (let dx = -r; dx <= r && ids.length < 50; dx++) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) === r && grid.isWalkable(600 + dx, 150 + dy)) ids.push(sys.addAgent({ x: 600 + dx, y: 150 + dy }));
      }
    }
  }
  assert.equal(sys.moveGroup(ids, 740, 150).mode, 'flow');
  // The order: the flow field's own search (as far as the farthest unit), no path search, no
  // distance map over the whole map, no plan.
  assert.deepEqual({ searches: searches.length, distanceMaps, flowFields: sys.stats.flowFields, plans: sys.stats.plans }, { searches: 0, distanceMaps: 0, flowFields: 1, plans: 0 });
  searches.length = 0;
  let steps = 0;
  while (steps < 3000 && ids.some((i) => sys.isMoving(i))) {
    sys.step();
    steps++;
  }
  assert.ok(ids.every((i) => !sys.isMoving(i) && (sys.flags[i] & (AGENT_BLOCKED | AGENT_UNREACHABLE)) === 0), 'every unit arrives');
  // Walking: the field, no plan per unit across the map. Arriving: each unit plans its last
  // stretch to its slot (and steps aside for others): straight lines or searches with a budget.
  assert.equal(sys.stats.flowFields, 1);
  assert.equal(distanceMaps, 0);
  assert.ok(searches.every((s) => s.maxIterations !== undefined), 'a search without a bound after the order');
  assert.ok(searches.length <= 2 * sys.stats.plans, `${searches.length} searches for ${sys.stats.plans} plans`);
  assert.ok(planner.straightPlans > 0);
});
