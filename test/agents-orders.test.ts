import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NavGrid } from '../src/index.js';
import { asciiGrid } from './grids.js';
import { NavigationSystem, DEFAULT_NAVIGATION_OPTIONS } from '../src/agents/index.js';

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
