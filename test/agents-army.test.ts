import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, Pathfinder } from '../src/index.js';
import { smoothPath } from '../src/path/index.js';
import { mulberry32 } from '../src/query/index.js';
import { NavigationSystem, AGENT_BLOCKED, AGENT_UNREACHABLE, DEFAULT_NAVIGATION_OPTIONS } from '../src/agents/index.js';
import type { MovementName } from '../src/search/movement.js';

/**
 * Rooms and corridors, seeded: a room per 16 x 16 block (4-12 cells a side) joined to the previous
 * block's room by an L-shaped corridor 1-2 cells wide, so every room is reachable.
 */
function rooms(width: number, height: number, seed: number): NavGrid {
  const grid = new NavGrid(width, height, { walkable: false });
  const rand = mulberry32(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  let px = -1;
  let py = -1;
  for (let by = 0; by < height / 16; by++) {
    for (let i = 0; i < width / 16; i++) {
      const bx = by % 2 === 0 ? i : width / 16 - 1 - i;
      const w = int(4, 12);
      const h = int(4, 12);
      const x = bx * 16 + int(1, 15 - w);
      const y = by * 16 + int(1, 15 - h);
      grid.fillRect(x, y, w, h, { walkable: true });
      const cx = x + (w >> 1);
      const cy = y + (h >> 1);
      if (px >= 0) {
        const t = int(1, 2);
        grid.fillRect(Math.min(px, cx), py, Math.abs(cx - px) + t, t, { walkable: true });
        grid.fillRect(cx, Math.min(py, cy), t, Math.abs(cy - py) + t, { walkable: true });
      }
      px = cx;
      py = cy;
    }
  }
  return grid;
}

/** `n` walkable starts and targets, distinct starts, drawn with `seed`. */
function orders(grid: NavGrid, n: number, seed: number): number[][] {
  const rand = mulberry32(seed);
  const used = new Set<number>();
  const pick = (distinct: boolean): [number, number] => {
    for (;;) {
      const x = Math.floor(rand() * grid.width);
      const y = Math.floor(rand() * grid.height);
      if (!grid.isWalkable(x, y) || (distinct && used.has(y * grid.width + x))) continue;
      if (distinct) used.add(y * grid.width + x);
      return [x, y];
    }
  };
  return Array.from({ length: n }, () => [...pick(true), ...pick(false)]);
}

/**
 * Orders every unit at once (each to its own target, or all as one group to the first target),
 * steps, and records each step's planning work and which units have moved.
 */
function army(grid: NavGrid, jobs: number[][], options: { planBudget: number; movement?: MovementName; group?: boolean; steps: number }) {
  const sys = new NavigationSystem(grid, { planBudget: options.planBudget, movement: options.movement });
  const ids = jobs.map(([x, y]) => sys.addAgent({ x, y }));
  if (options.group === true) sys.moveGroup(ids, jobs[0][2], jobs[0][3]);
  else ids.forEach((id, k) => sys.moveTo(id, jobs[k][2], jobs[k][3]));
  const work: number[] = [];
  const plans: number[] = [];
  const movedBy: number[] = [];
  const firstPath: (Float64Array | null)[] = ids.map(() => null);
  const plannedBeforeMoving = ids.map(() => false);
  for (let s = 0; s < options.steps && ids.some((i) => sys.isMoving(i)); s++) {
    const w0 = sys.stats.planWork;
    const p0 = sys.stats.plans;
    sys.step();
    work.push(sys.stats.planWork - w0);
    plans.push(sys.stats.plans - p0);
    ids.forEach((id, k) => {
      if (firstPath[k] === null && sys.path(id) !== null) {
        firstPath[k] = sys.path(id);
        // Planned at this step, before its first move: it stood on its start until now.
        plannedBeforeMoving[k] = movedBy[k] === undefined && sys.prevX[id] === jobs[k][0] && sys.prevY[id] === jobs[k][1];
      }
      if (movedBy[k] === undefined && (sys.x[id] !== jobs[k][0] || sys.y[id] !== jobs[k][1] || !sys.isMoving(id))) movedBy[k] = s + 1;
    });
  }
  return { sys, ids, work, plans, movedBy, firstPath, plannedBeforeMoving };
}

/** Length of the walk from (x, y) through the waypoints. */
function walkLength(x: number, y: number, wp: Float64Array): number {
  let len = 0;
  for (let i = 0; i < wp.length; i += 2) {
    len += Math.hypot(wp[i] - x, wp[i + 1] - y);
    x = wp[i];
    y = wp[i + 1];
  }
  return len;
}

test('planBudget: a whole number >= 1 with a documented default, a TilenavError naming it otherwise', () => {
  assert.equal(DEFAULT_NAVIGATION_OPTIONS.planBudget, 262144);
  const grid = new NavGrid(8, 8);
  for (const bad of [0, -1, 31, 1.5, NaN, Infinity, '10']) {
    assert.throws(() => new NavigationSystem(grid, { planBudget: bad as number }), /planBudget/);
  }
  assert.equal(new NavigationSystem(grid, { planBudget: 32 }).options.planBudget, 32);
});

test('300 units ordered at once on a 128 x 128 rooms map: all moving after 2 steps, planning within the budget every step, all arrive', () => {
  const grid = rooms(128, 128, 5);
  const jobs = orders(grid, 300, 11);
  const budget = 16384;
  const { sys, ids, work, plans, movedBy } = army(grid, jobs, { planBudget: budget, steps: 20000 });
  const late = ids.filter((_, k) => !(movedBy[k] <= 2));
  assert.deepEqual(late, [], `units not moving after 2 steps: ${late.slice(0, 10)}`);
  // Over the budget only a jump point search longer than a whole step's budget, alone in its step.
  const over = work.map((w, s) => [s, w, plans[s]]).filter(([, w, p]) => w > budget && p !== 1);
  assert.deepEqual(over, [], 'steps over the planning budget');
  assert.ok(work.filter((w) => w > budget).length <= 3, `${work.filter((w) => w > budget).length} steps over the budget`);
  // The budget spread the first plans: several steps planned at all.
  assert.ok(work.filter((w) => w > 0).length >= 5, `plans spread over ${work.filter((w) => w > 0).length} steps`);
  const stuck = ids.filter((i) => sys.isMoving(i) || (sys.flags[i] & (AGENT_BLOCKED | AGENT_UNREACHABLE)) !== 0);
  assert.deepEqual(stuck, [], 'units that did not arrive');
  // Units shoved off their targets by the last walkers walk back once the way is clear.
  for (let s = 0; s < 300; s++) sys.step();
  // On its target, or (another unit's target within two cells: the two crowd one spot, in a
  // corridor perhaps) beside it, a step aside away.
  for (const [k, id] of ids.entries()) {
    const d = Math.hypot(sys.x[id] - jobs[k][2], sys.y[id] - jobs[k][3]);
    const shared = jobs.some((j, m) => m !== k && Math.hypot(j[2] - jobs[k][2], j[3] - jobs[k][3]) < 2);
    assert.ok(d <= (shared ? 2.5 : DEFAULT_NAVIGATION_OPTIONS.crowdedArrivalDist + 1e-9), `unit ${id} stands ${d} from its target`);
  }
});

test('a unit planned before it moved walks the exact path: the string-pulled findPath path, and no farther', () => {
  const grid = rooms(128, 128, 5);
  const jobs = orders(grid, 300, 11);
  const { firstPath, plannedBeforeMoving } = army(grid, jobs, { planBudget: 65536, steps: 3 });
  const pf = new Pathfinder(grid);
  let compared = 0;
  for (let k = 0; k < jobs.length; k++) {
    if (!plannedBeforeMoving[k]) continue;
    const [sx, sy, gx, gy] = jobs[k];
    const r = pf.findPath(sx, sy, gx, gy);
    assert.equal(r.status, 'found');
    const exact = smoothPath(grid, r.cells);
    // The plan: the exact path's string-pulled waypoints, less the start cell (the unit stands in it).
    assert.deepEqual(Array.from(firstPath[k]!), Array.from(exact.subarray(2)), `unit ${k}`);
    assert.ok(walkLength(sx, sy, firstPath[k]!) <= r.cost + 1e-9);
    compared++;
  }
  assert.ok(compared >= 5, `only ${compared} units were planned before they moved`);
  // Alone, a unit walks its waypoints and nothing more.
  const sys = new NavigationSystem(grid);
  const [sx, sy, gx, gy] = jobs[0];
  const id = sys.addAgent({ x: sx, y: sy });
  sys.moveTo(id, gx, gy);
  let walked = 0;
  let path: Float64Array | null = null;
  for (let s = 0; s < 20000 && sys.isMoving(id); s++) {
    sys.step();
    path ??= sys.path(id);
    walked += Math.hypot(sys.x[id] - sys.prevX[id], sys.y[id] - sys.prevY[id]);
  }
  assert.ok(path !== null && !sys.isMoving(id));
  // Each waypoint counts as reached within walkThreshold: the walk cuts its corners by as much at most.
  const len = walkLength(sx, sy, path);
  assert.ok(walked <= len + 1e-6 && walked >= len - path.length * DEFAULT_NAVIGATION_OPTIONS.walkThreshold, `walked ${walked}, path ${len}`);
});

test('one group of 300 ordered at once: all moving after 2 steps, all arrive', () => {
  const grid = rooms(128, 128, 5);
  const jobs = orders(grid, 300, 12);
  const { sys, ids, movedBy } = army(grid, jobs, { planBudget: 16384, group: true, steps: 20000 });
  assert.deepEqual(ids.filter((_, k) => !(movedBy[k] <= 2)), []);
  const stuck = ids.filter((i) => sys.isMoving(i) || (sys.flags[i] & (AGENT_BLOCKED | AGENT_UNREACHABLE)) !== 0);
  assert.deepEqual(stuck, [], 'units that did not arrive');
});

test('property: on random rooms maps, with any budget, every unit moves within 2 steps and no step plans past the budget (A*, spread over steps)', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 1, max: 60 }), fc.integer({ min: 32, max: 50000 }), (seed, n, budget) => {
      const grid = rooms(64, 64, seed);
      const jobs = orders(grid, n, seed + 1);
      // 'octile-always' is searched by A* (jump point search does not take its corners), whose
      // searches longer than the budget are spread over steps: the budget holds at every step.
      const { sys, ids, work, movedBy } = army(grid, jobs, { planBudget: budget, movement: 'octile-always', steps: 400 });
      assert.deepEqual(ids.filter((_, k) => !(movedBy[k] <= 2)), []);
      assert.ok(work.every((w) => w <= budget), `work ${Math.max(...work)} > ${budget}`);
      assert.ok(sys.stats.maxStepPlanWork <= budget);
    }),
    { numRuns: 25 },
  );
});
