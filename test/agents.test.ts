import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, orthogonal } from '../src/index.js';
import { parseMovingAiMap } from '../src/loaders/index.js';
import { readFixture } from './fixtures.js';
import { runUntil } from './helpers-agents.js';
import { asciiGrid, gridArb } from './grids.js';
import { NavigationSystem, planFormation, flowFieldTo, flowFieldCache, GridPlanner, segmentDistance, AGENT_BLOCKED, AGENT_NUDGED, AGENT_UNREACHABLE, DEFAULT_NAVIGATION_OPTIONS, type AgentPlanner } from '../src/agents/index.js';

function inWalkable(sys: NavigationSystem, id: number): boolean {
  return sys.grid.isWalkable(Math.floor(sys.x[id] + 0.5), Math.floor(sys.y[id] + 0.5));
}

test('a unit reaches its goal along its path, through walkable cells, and fires arrival once', () => {
  const grid = asciiGrid([
    '..............', //
    '......@.......',
    '......@.......',
    '......@.......',
    '......@.......',
    '..............',
    '..............',
  ]);
  const sys = new NavigationSystem(grid);
  const id = sys.addAgent({ x: 1, y: 2 });
  let arrivals = 0;
  sys.moveTo(id, 12, 2, { onArrived: () => arrivals++ });
  let maxOff = 0;
  const steps = runUntil(sys, () => arrivals > 0, 2000, () => {
    assert.ok(inWalkable(sys, id), `left the walkable cells at ${sys.x[id]}, ${sys.y[id]}`);
    if (sys.isMoving(id) && sys.path(id) !== null) {
      // Distance from the segment it walks along: previous waypoint (or the start) to the current one.
      const p = sys.path(id)!;
      const k = sys.waypointIndex[id];
      const [ax, ay] = k === 0 ? [1, 2] : [p[k * 2 - 2], p[k * 2 - 1]];
      maxOff = Math.max(maxOff, segmentDistance(sys.x[id], sys.y[id], ax, ay, p[k * 2], p[k * 2 + 1]));
    }
  });
  assert.ok(steps > 0, 'did not arrive');
  assert.equal(arrivals, 1);
  assert.ok(Math.hypot(sys.x[id] - 12, sys.y[id] - 2) <= DEFAULT_NAVIGATION_OPTIONS.arrivalThreshold + 1e-9);
  // It walks along its path: never more than a turn's worth off the segment it follows.
  assert.ok(maxOff <= 0.25, `strayed ${maxOff} from its path`);
  // Path length >= straight distance / speed: ~(11 + detour) cells at 4 cells/s at 60 steps/s.
  assert.ok(steps >= (11 / 4) * 60, `too fast: ${steps} steps`);
  assert.equal(sys.stats.plans, 1, 'one plan for one order (cached while following)');
  for (let s = 0; s < 30; s++) sys.step();
  assert.equal(arrivals, 1, 'arrival fires once');
  assert.ok(!sys.isMoving(id));
});

test('the accumulator runs whole fixed steps and keeps the remainder for alpha', () => {
  const sys = new NavigationSystem(new NavGrid(5, 3));
  const id = sys.addAgent({ x: 0, y: 1 });
  sys.moveTo(id, 4, 1, { usePathfinding: false });
  assert.equal(sys.update(2.5 / 60), 2);
  assert.ok(Math.abs(sys.alpha - 0.5) < 1e-9);
  const p = sys.interpolated(id);
  assert.ok(p.x > sys.prevX[id] && p.x < sys.x[id]);
  assert.equal(sys.update(1), DEFAULT_NAVIGATION_OPTIONS.maxStepsPerUpdate, 'a long frame is capped');
});

test('two units crossing a corridor both arrive without overlapping beyond tolerance', () => {
  const rows = ['@'.repeat(30), ...Array(3).fill('.'.repeat(30)), '@'.repeat(30)];
  const grid = asciiGrid(rows);
  const sys = new NavigationSystem(grid, { measureOverlap: true });
  const a = sys.addAgent({ x: 1, y: 2 });
  const b = sys.addAgent({ x: 28, y: 2 });
  sys.moveTo(a, 28, 2);
  sys.moveTo(b, 1, 2);
  const steps = runUntil(sys, () => !sys.isMoving(a) && !sys.isMoving(b), 3000, () => {
    assert.ok(inWalkable(sys, a) && inWalkable(sys, b));
  });
  assert.ok(steps > 0, 'did not both arrive');
  assert.ok(Math.hypot(sys.x[a] - 28, sys.y[a] - 2) < 0.5 && Math.hypot(sys.x[b] - 1, sys.y[b] - 2) < 0.5);
  assert.ok(sys.stats.maxOverlap < 0.15, `overlap ${sys.stats.maxOverlap}`);
});

test('an idle unit in a doorway is nudged aside and the walker passes', () => {
  const rows = Array.from({ length: 11 }, (_, y) => [...'.'.repeat(21)].map((c, x) => (x === 10 && y !== 5 ? '@' : c)).join(''));
  const grid = asciiGrid(rows);
  const sys = new NavigationSystem(grid);
  const idle = sys.addAgent({ x: 10, y: 5 });
  const walker = sys.addAgent({ x: 3, y: 5 });
  sys.moveTo(walker, 17, 5);
  let nudged = false;
  const steps = runUntil(sys, () => !sys.isMoving(walker), 3000, () => {
    nudged ||= (sys.flags[idle] & AGENT_NUDGED) !== 0;
  });
  assert.ok(steps > 0, 'the walker never got through');
  assert.ok(Math.hypot(sys.x[walker] - 17, sys.y[walker] - 5) < 0.5);
  assert.ok(nudged, 'the idle unit was never nudged');
  assert.ok(inWalkable(sys, idle));
});

test('the player is never nudged: a standing player pushed stops in place', () => {
  const grid = new NavGrid(20, 9);
  const sys = new NavigationSystem(grid);
  const player = sys.addAgent({ x: 10, y: 4, player: true });
  const walker = sys.addAgent({ x: 3, y: 4 });
  sys.moveTo(walker, 17, 4);
  let everNudged = false;
  runUntil(sys, () => !sys.isMoving(walker), 3000, () => {
    everNudged ||= (sys.flags[player] & AGENT_NUDGED) !== 0 || sys.isMoving(player);
  });
  assert.ok(!everNudged);
  assert.ok(!sys.isMoving(walker), 'walker arrived');
});

test('a wall painted across a path triggers one replan, not one per frame', () => {
  const grid = new NavGrid(30, 12);
  const sys = new NavigationSystem(grid);
  const id = sys.addAgent({ x: 1, y: 3 });
  sys.moveTo(id, 28, 3);
  for (let s = 0; s < 30; s++) sys.step();
  assert.equal(sys.replanCount[id], 0);
  // Away from the path: nobody replans.
  grid.fillRect(5, 9, 3, 1, { walkable: false });
  sys.step();
  assert.equal(sys.replanCount[id], 0, 'a change off the path replanned');
  // Cell by cell (many change events in one frame) across the corridor, leaving a gap at y = 11.
  for (let y = 0; y < 11; y++) grid.setWalkable(15, y, false);
  const steps = runUntil(sys, () => !sys.isMoving(id), 3000, () => assert.ok(inWalkable(sys, id)));
  assert.ok(steps > 0, 'never arrived');
  assert.equal(sys.replanCount[id], 1);
  assert.ok(Math.hypot(sys.x[id] - 28, sys.y[id] - 3) < 0.5);
});

test('a walled-off goal: the unit walks as close as it can, flagged unreachable', () => {
  const grid = asciiGrid(['.....@...', '.....@...', '.....@...']);
  const sys = new NavigationSystem(grid);
  const id = sys.addAgent({ x: 1, y: 1 });
  sys.moveTo(id, 7, 1);
  sys.step();
  assert.ok((sys.flags[id] & AGENT_UNREACHABLE) !== 0);
  for (let k = 0; k < 600 && sys.isMoving(id); k++) sys.step();
  assert.ok(Math.hypot(sys.x[id] - 4, sys.y[id] - 1) < 0.1, `stopped at (${sys.x[id]}, ${sys.y[id]}), next to the wall`);
});

test('a walled-off goal with nearest: false reports unreachable and the unit stands', () => {
  const grid = asciiGrid(['.....@...', '.....@...', '.....@...']);
  const sys = new NavigationSystem(grid, { planner: new GridPlanner(grid, { nearest: false }) });
  const id = sys.addAgent({ x: 1, y: 1 });
  sys.moveTo(id, 7, 1);
  sys.step();
  assert.ok((sys.flags[id] & AGENT_UNREACHABLE) !== 0);
  assert.ok(!sys.isMoving(id));
  assert.deepEqual([sys.x[id], sys.y[id]], [1, 1]);
});

test('a standing unit is a dynamic obstacle for a plan, with the fallback when it blocks the only way', () => {
  const grid = new NavGrid(15, 9);
  const seen: number[] = [];
  const inner = new GridPlanner(grid);
  const planner: AgentPlanner = { plan: (req) => (seen.push(req.obstacles.length), inner.plan(req)) };
  const sys = new NavigationSystem(grid, { planner });
  sys.addAgent({ x: 7, y: 4 });
  const w = sys.addAgent({ x: 1, y: 4 });
  sys.moveTo(w, 13, 4);
  sys.step();
  assert.deepEqual(seen, [1]);
  const p = sys.path(w)!;
  for (let k = 0; k < p.length; k += 2) assert.ok(!(p[k] === 7 && p[k + 1] === 4), 'path goes through the standing unit');
  // A one-cell corridor with the unit in it: the plan goes through (when no path avoids the standing units, the path through them).
  const corridor = asciiGrid(['@@@@@@@@@', '.........', '@@@@@@@@@']);
  const s2 = new NavigationSystem(corridor);
  s2.addAgent({ x: 4, y: 1 });
  const w2 = s2.addAgent({ x: 0, y: 1 });
  s2.moveTo(w2, 8, 1);
  s2.step();
  assert.ok(s2.path(w2) !== null);
});

test('formation slots: walkable, distinct, reachable, facing the way the group travels', () => {
  const grid = asciiGrid(['..........@.........', '..........@.........', '..........@.........', '....................', '..........@.........', '..........@.........']);
  const xs = [0, 1, 2, 0, 1, 2, 0, 1, 2];
  const ys = [0, 0, 0, 1, 1, 1, 2, 2, 2];
  const f = planFormation(grid, 0, xs, ys, 10, 1, 1)!;
  assert.ok(f !== null);
  assert.ok(Math.abs(f.facing) < Math.PI / 2, `facing ${f.facing}`);
  const cells = new Set<number>();
  for (let k = 0; k < 9; k++) {
    const cx = Math.floor(f.slots[k * 2] + 0.5);
    const cy = Math.floor(f.slots[k * 2 + 1] + 0.5);
    assert.ok(grid.isWalkable(cx, cy), `slot ${k} blocked`);
    cells.add(cy * grid.width + cx);
  }
  assert.equal(cells.size, 9);
  // The click was on a wall: the centre moved to a walkable cell.
  assert.ok(grid.isWalkable(grid.xOf(f.center), grid.yOf(f.center)));
});

test('flow field steps downhill to the goal without cutting corners', () => {
  const grid = asciiGrid(['.....', '.@@@.', '.....']);
  const field = flowFieldTo(grid, 4, 1);
  let c = grid.index(0, 1);
  const seen = [c];
  while (c !== field.goal) {
    c = field.next(c);
    assert.ok(c >= 0 && grid.isWalkable(grid.xOf(c), grid.yOf(c)));
    seen.push(c);
  }
  assert.ok(seen.length <= 8);
  assert.equal(field.next(field.goal), -1);
});

function capeRun(units: number, budget: number) {
  const grid = parseMovingAiMap(readFixture('movingai/AcrosstheCape.map')).grid;
  const sys = new NavigationSystem(grid, { measureOverlap: true, walkSpeed: 8 });
  const ids: number[] = [];
  const from = [600, 150];
  for (let r = 0; ids.length < units && r < 20; r++) {
    for (let dy = -r; dy <= r && ids.length < units; dy++) {
      for (let dx = -r; dx <= r && ids.length < units; dx++) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) !== r) continue;
        if (grid.isWalkable(from[0] + dx, from[1] + dy)) ids.push(sys.addAgent({ x: from[0] + dx, y: from[1] + dy }));
      }
    }
  }
  const order = sys.moveGroup(ids, 740, 150);
  const slots = ids.map((i) => [sys.targetX[i], sys.targetY[i]]);
  const standing = () => ids.every((i) => !sys.isMoving(i));
  let steps = runUntil(sys, standing, budget);
  // A unit shoved in the last moments stands until returnAfterNudge (1 s) and then walks back to
  // its slot: the group has settled when every unit still stands after that.
  if (steps >= 0) {
    for (let s = 0; s < 90; s++) sys.step();
    const more = runUntil(sys, standing, budget - steps - 90);
    steps = more < 0 ? -1 : steps + 90 + more;
  }
  return { sys, ids, order, steps, slots };
}

test('50 units ordered across AcrosstheCape all arrive or report unreachable within a step budget', () => {
  const { sys, ids, order, steps, slots } = capeRun(50, 2400);
  assert.equal(ids.length, 50);
  assert.equal(order.mode, 'flow');
  assert.ok(steps > 0, 'not settled within the budget');
  let arrived = 0;
  ids.forEach((id, k) => {
    if ((sys.flags[id] & AGENT_UNREACHABLE) !== 0) return;
    arrived++;
    assert.ok(Math.hypot(sys.x[id] - sys.targetX[id], sys.y[id] - sys.targetY[id]) < 0.5, `unit ${id} stopped short`);
    // Units nudged or shoved aside on arrival walk back: the formation holds.
    assert.ok(Math.hypot(sys.x[id] - slots[k][0], sys.y[id] - slots[k][1]) < 1, `unit ${id} ended away from its formation slot`);
  });
  assert.equal(arrived + order.unreachable, 50);
  assert.ok(arrived >= 45, `only ${arrived} arrived`);
  assert.ok(sys.stats.maxOverlap < 0.5, `overlap ${sys.stats.maxOverlap}`);
});

test('determinism: two identical runs give identical positions, bit for bit', () => {
  const run = () => {
    const grid = asciiGrid(Array.from({ length: 24 }, (_, y) => [...'.'.repeat(40)].map((c, x) => (x === 20 && y % 6 !== 3 ? '@' : c)).join('')));
    const sys = new NavigationSystem(grid);
    const ids: number[] = [];
    for (let k = 0; k < 30; k++) ids.push(sys.addAgent({ x: 2 + (k % 6), y: 4 + Math.floor(k / 6) * 2 }));
    sys.moveGroup(ids.slice(0, 25), 33, 12, { mode: 'flow' });
    sys.moveGroup(ids.slice(25), 10, 20);
    for (let s = 0; s < 400; s++) sys.update(1 / 60);
    return [new Uint8Array(sys.x.buffer.slice(0)), new Uint8Array(sys.y.buffer.slice(0)), new Uint8Array(sys.heading.buffer.slice(0))];
  };
  const a = run();
  const b = run();
  for (let k = 0; k < a.length; k++) assert.deepEqual(a[k], b[k]);
});

test('bad input throws TilenavError naming the argument', () => {
  const sys = new NavigationSystem(new NavGrid(4, 4));
  assert.throws(() => sys.addAgent({ x: NaN, y: 0 }), /agent\.x/);
  assert.throws(() => sys.moveTo(99, 1, 1), /agent id/);
  assert.throws(() => sys.update(-1), /dt/);
  assert.throws(() => new NavigationSystem(new NavGrid(4, 4), { fixedStep: 0 }), /fixedStep/);
});

test('path caching: the same order keeps the path; a new goal plans afresh', () => {
  const sys = new NavigationSystem(new NavGrid(20, 6));
  const id = sys.addAgent({ x: 1, y: 1 });
  sys.moveTo(id, 18, 4);
  sys.step();
  const p = sys.path(id);
  sys.moveTo(id, 18, 4);
  sys.step();
  assert.equal(sys.path(id), p);
  assert.equal(sys.stats.plans, 1);
  sys.moveTo(id, 10, 1);
  sys.step();
  assert.equal(sys.stats.plans, 2);
  assert.notEqual(sys.path(id), p);
});

test('a mover near a walker\'s next segment triggers replans, at most one per cooldown', () => {
  const grid = new NavGrid(40, 20);
  const sys = new NavigationSystem(grid);
  const walker = sys.addAgent({ x: 2, y: 10 });
  const crosser = sys.addAgent({ x: 20, y: 1, walkSpeed: 2 });
  sys.moveTo(walker, 37, 10);
  sys.moveTo(crosser, 20, 18, { usePathfinding: false });
  let steps = 0;
  runUntil(sys, () => !sys.isMoving(walker), 3000, () => steps++);
  const r = sys.replanCount[walker];
  assert.ok(r >= 1, 'the crossing mover never triggered a replan');
  const seconds = steps * DEFAULT_NAVIGATION_OPTIONS.fixedStep;
  assert.ok(r <= Math.ceil(seconds / DEFAULT_NAVIGATION_OPTIONS.replanCooldown) + 1, `${r} replans in ${seconds} s`);
  // Units of one group order moving together do not make each other replan.
  const s2 = new NavigationSystem(new NavGrid(40, 20));
  const ids = [0, 1, 2, 3].map((k) => s2.addAgent({ x: 2, y: 8 + k }));
  s2.moveGroup(ids, 35, 10);
  runUntil(s2, () => ids.every((i) => !s2.isMoving(i)), 3000);
  assert.equal(s2.stats.replans, 0);
});

test('a wall across a flow field repairs the field in place and the group still arrives', () => {
  const grid = new NavGrid(50, 20);
  const sys = new NavigationSystem(grid, { flowFieldMinGroup: 4 });
  const ids = Array.from({ length: 8 }, (_, k) => sys.addAgent({ x: 2 + (k % 2), y: 6 + k }));
  const order = sys.moveGroup(ids, 45, 10);
  assert.equal(order.mode, 'flow');
  for (let s = 0; s < 60; s++) sys.step();
  grid.batch(() => {
    for (let y = 0; y < 17; y++) grid.setWalkable(25, y, false);
  });
  const steps = runUntil(sys, () => ids.every((i) => !sys.isMoving(i)), 4000, () => ids.forEach((i) => assert.ok(inWalkable(sys, i))));
  assert.ok(steps > 0);
  // One field, repaired in place (the grid's cache keeps it), not built twice.
  assert.equal(sys.stats.flowFields, 1);
  const [field] = flowFieldCache(grid).list();
  assert.ok(field.repairs >= 1 && field.restarts === 0, `${field.repairs} repairs, ${field.restarts} restarts`);
  for (const i of ids) assert.ok(Math.hypot(sys.x[i] - sys.targetX[i], sys.y[i] - sys.targetY[i]) < 0.5);
});

test('property: agents only ever stand on walkable cells, whatever the walls and orders', () => {
  fc.assert(
    fc.property(
      gridArb({ width: [24, 24], height: [14, 14], wallRate: [0, 0.3] }),
      fc.array(fc.tuple(fc.nat(23), fc.nat(13), fc.nat(23), fc.nat(13)), { minLength: 2, maxLength: 8 }),
      ({ grid }, orders) => {
        const sys = new NavigationSystem(grid);
        const ids: number[] = [];
        for (const [x, y, tx, ty] of orders) {
          if (!grid.isWalkable(x, y)) continue;
          const id = sys.addAgent({ x, y });
          ids.push(id);
          sys.moveTo(id, tx, ty);
        }
        if (ids.length > 2) sys.moveGroup(ids.slice(0, 3), 12, 7);
        for (let s = 0; s < 240; s++) {
          sys.step();
          for (const id of ids) assert.ok(inWalkable(sys, id), `agent ${id} at ${sys.x[id]}, ${sys.y[id]}`);
        }
      },
    ),
    { numRuns: 25, seed: 7 },
  );
});

test('toWorld maps through the grid projection', () => {
  const grid = new NavGrid(10, 10, { projection: orthogonal(32, 32) });
  const sys = new NavigationSystem(grid);
  const id = sys.addAgent({ x: 3, y: 4 });
  const w = sys.toWorld(id);
  assert.deepEqual([w.x, w.y], [3.5 * 32, 4.5 * 32]);
});

test('a unit nudged aside walks back to its spot after returnAfterNudge; 0 keeps it where it was pushed', () => {
  for (const back of [1, 0]) {
    // The doorway of the test above, with a guard ordered to stand in it.
    const rows = Array.from({ length: 11 }, (_, y) => [...'.'.repeat(21)].map((c, x) => (x === 10 && y !== 5 ? '@' : c)).join(''));
    const grid = asciiGrid(rows);
    const sys = new NavigationSystem(grid, { returnAfterNudge: back });
    const guard = sys.addAgent({ x: 9, y: 5 });
    sys.moveTo(guard, 10, 5);
    runUntil(sys, () => !sys.isMoving(guard), 600);
    const walker = sys.addAgent({ x: 3, y: 5 });
    sys.moveTo(walker, 17, 5);
    let nudged = false;
    const steps = runUntil(sys, () => nudged && !sys.isMoving(walker) && !sys.isMoving(guard), 3000, () => {
      nudged ||= (sys.flags[guard] & AGENT_NUDGED) !== 0;
    });
    assert.ok(steps > 0 && nudged, 'the walker passed the nudged guard');
    assert.ok(Math.hypot(sys.x[walker] - 17, sys.y[walker] - 5) < 0.5);
    // Give the guard its second to decide, and time to walk back.
    runUntil(sys, () => false, 240);
    const home = Math.hypot(sys.x[guard] - 10, sys.y[guard] - 5);
    if (back > 0) assert.ok(home < 0.2, `guard back in the doorway (${home})`);
    else assert.ok(home > 1, `guard stays where it stepped aside (${home})`);
  }
});

test('a stuck walker replans stuckRetries times before giving up', () => {
  // A walker whose planner always routes it into a wall: it cannot progress, retries, then gives up.
  const grid = asciiGrid(['.........', '....@....', '.........']);
  let plans = 0;
  const planner = { plan: () => (plans++, Float64Array.of(4, 1)) };
  const sys = new NavigationSystem(grid, { planner, stuckTime: 0.5, stuckRetries: 2 });
  const id = sys.addAgent({ x: 1, y: 1 });
  sys.moveTo(id, 7, 1);
  runUntil(sys, () => !sys.isMoving(id), 600);
  assert.equal(plans, 3, 'the first plan and two retries');
  assert.ok((sys.flags[id] & AGENT_BLOCKED) !== 0);
});
