/**
 * Flow fields per goal in sectors (src/agents/flowfield.ts): exact costs to the goal against the
 * reference Dijkstra, directions that walk a cheapest path, repairs after tile changes that keep
 * both exact and touch only what the change reaches, and the grid's cache of fields.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, Pathfinder, type MovementName } from '../src/index.js';
import { NavigationSystem, flowFieldTo, flowFieldCache, FLOW_SECTOR_SIZE, type FlowField } from '../src/agents/index.js';
import { applyChange, gridArb, gridFor, type CostMode } from './grids.js';
import { refDistancesTo, refNeighbours, wallNeighbours } from './reference.js';

const close = (a: number, b: number) => a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

/** Every cell's cost against the reference, and the walk down the field from it: its cost is the optimum. */
function checkField(grid: NavGrid, field: FlowField, movement: MovementName, cells?: number[], moves = refNeighbours): string | null {
  const ref = refDistancesTo(grid, 0, movement, field.goal, moves);
  const list = cells ?? Array.from({ length: grid.size }, (_, i) => i);
  const cost = grid.layers[0].cost;
  for (const c of list) {
    const got = field.cost(c);
    if (!close(got, ref[c])) return `cell (${grid.xOf(c)}, ${grid.yOf(c)}): cost ${got}, reference ${ref[c]}`;
    if (ref[c] === Infinity) {
      if (field.next(c) !== -1) return `cell (${grid.xOf(c)}, ${grid.yOf(c)}) cannot reach the goal but has a step`;
      continue;
    }
    // Walk the steps: each must be a legal move, and the sum of their costs the optimum.
    let at = c;
    let walked = 0;
    for (let guard = 0; at !== field.goal; guard++) {
      if (guard > grid.size) return `the walk from (${grid.xOf(c)}, ${grid.yOf(c)}) loops`;
      const n = field.next(at);
      const move = moves(grid, 0, movement, grid.xOf(at), grid.yOf(at)).find(([x, y]) => y * grid.width + x === n);
      if (move === undefined) return `step (${grid.xOf(at)}, ${grid.yOf(at)}) -> ${n} is not a move`;
      walked += move[2] * cost[n];
      at = n;
    }
    if (!close(walked, ref[c])) return `the walk from (${grid.xOf(c)}, ${grid.yOf(c)}) costs ${walked}, the optimum ${ref[c]}`;
  }
  return null;
}

const SQUARE: MovementName[] = ['octile', 'cardinal', 'octile-one-obstacle', 'octile-always'];
const OTHER: MovementName[] = ['hex', 'hex-odd-r', 'hex-even-q', 'staggered-odd-r', 'staggered-even-q', 'iso'];
const COSTS: CostMode[] = ['uniform', 'mixed', 'integer', 'extreme'];

test('property: the cost field equals the reference costs to the goal, and the steps walk them (every movement, costs, one-way cells)', () => {
  fc.assert(
    fc.property(
      gridArb({ width: [2, 45], height: [2, 40], wallRate: [0, 0.4], costs: COSTS, oneWay: true }),
      fc.constantFrom(...SQUARE, ...OTHER),
      fc.nat(),
      ({ grid: base }, movement, at) => {
        const grid = gridFor(base, movement);
        const goal = at % grid.size;
        const field = flowFieldTo(grid, grid.xOf(goal), grid.yOf(goal));
        const why = checkField(grid, field, movement);
        assert.equal(why, null, why ?? '');
      },
    ),
    { numRuns: 60 },
  );
});

test('property: with edge walls (put up, then some taken down or added after the field is computed) the field stays exact', () => {
  const SIDES = ['north', 'east', 'south', 'west'] as const;
  fc.assert(
    fc.property(
      gridArb({ width: [3, 40], height: [3, 36], wallRate: [0, 0.25], costs: ['uniform', 'mixed'], oneWay: true }),
      fc.constantFrom<MovementName>('octile', 'cardinal', 'octile-one-obstacle', 'octile-always'),
      fc.nat(),
      fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.boolean()), { minLength: 1, maxLength: 60 }),
      fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.boolean()), { maxLength: 6 }),
      ({ grid: base }, movement, at, walls, later) => {
        const grid = gridFor(base, movement);
        const put = ([cell, side, on]: [number, number, boolean]) => grid.setEdgeWall(grid.xOf(cell % grid.size), grid.yOf(cell % grid.size), SIDES[side], on);
        walls.forEach(([cell, side]) => put([cell, side, true]));
        const goal = at % grid.size;
        const field = flowFieldTo(grid, grid.xOf(goal), grid.yOf(goal));
        let why = checkField(grid, field, movement, undefined, wallNeighbours);
        assert.equal(why, null, why ?? '');
        later.forEach(put);
        why = checkField(grid, field, movement, undefined, wallNeighbours);
        assert.equal(why, null, `after ${later.length} wall changes: ${why}`);
      },
    ),
    { numRuns: 60 },
  );
});

test('property: asked for a few cells, the field settles no cell dearer than the dearest of them', () => {
  fc.assert(
    fc.property(gridArb({ width: [30, 70], height: [30, 70], wallRate: [0, 0.3], costs: ['uniform', 'mixed'] }), fc.nat(), fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), ({ grid }, at, asked) => {
      const goal = at % grid.size;
      const field = flowFieldTo(grid, grid.xOf(goal), grid.yOf(goal));
      const cells = asked.map((a) => a % grid.size);
      const ref = refDistancesTo(grid, 0, 'octile', goal);
      let most = 0;
      for (const c of cells) {
        assert.ok(close(field.cost(c), ref[c]));
        if (ref[c] < Infinity) most = Math.max(most, ref[c]);
      }
      let beyond = 0;
      for (let i = 0; i < grid.size; i++) if (field.isSettled(i) && ref[i] > most + 2 * Math.SQRT2 * 3.7) beyond++;
      assert.equal(beyond, 0, `${beyond} cells settled beyond the dearest asked`);
    }),
    { numRuns: 40 },
  );
});

test('property: after random tile changes the repaired field is still exact (fields computed in part or in full)', () => {
  let repaired = 0;
  let runs = 0;
  fc.assert(
    fc.property(
      gridArb({ width: [8, 45], height: [8, 40], wallRate: [0, 0.35], costs: COSTS, oneWay: true }),
      fc.constantFrom<MovementName>('octile', 'cardinal', 'octile-one-obstacle', 'hex-odd-r'),
      fc.nat(),
      fc.array(fc.tuple(fc.nat(), fc.nat(4), fc.nat(3)), { minLength: 1, maxLength: 6 }),
      fc.integer({ min: 0, max: 3 }),
      ({ grid: base }, movement, at, changes, askedFirst) => {
        const grid = gridFor(base, movement);
        const goal = at % grid.size;
        const field = flowFieldTo(grid, grid.xOf(goal), grid.yOf(goal));
        // Part of the field (a few cells asked) or all of it, before the changes.
        if (askedFirst === 0) for (let i = 0; i < grid.size; i++) field.cost(i);
        else for (let k = 0; k < askedFirst; k++) field.cost((at * 7919 + k * 104729) % grid.size);
        const before = field.repairs + field.restarts;
        changes.forEach(([cell, kind, size], k) => {
          applyChange(grid, cell, kind, size);
          // Reads between some changes: repairs of repaired fields.
          if (k % 2 === 1) field.cost(cell % grid.size);
        });
        const why = checkField(grid, field, movement);
        assert.equal(why, null, why ?? '');
        runs++;
        // Repaired in place, not started over (small grids start over after a change over an eighth of them).
        if (field.repairs > 0 && field.repairs + field.restarts > before) repaired++;
      },
    ),
    { numRuns: 120 },
  );
  assert.ok(repaired > runs / 2, `only ${repaired} of ${runs} runs repaired the field in place`);
});

test('a wall that raises the costs behind it, on fields computed in full: the cells handed back to the search settle in cost order, exactly', () => {
  // The search's bucket ring had scanned on past stale entries, beyond the cells the repair
  // handed back (from the last cost settled up): they came out after dearer ones (8 x 9, a wall
  // at (2, 3): cell (7, 7) one diagonal dearer than its cheapest path).
  let cases = 0;
  for (let width = 8; width <= 12; width++) {
    for (let bx = 2; bx <= 5; bx++) {
      for (let by = 2; by <= 6; by++) {
        const grid = new NavGrid(width, 9);
        const field = flowFieldTo(grid, 0, 0);
        field.grow(Infinity);
        grid.fillRect(bx, by, 3, 1, { walkable: false });
        const ref = refDistancesTo(grid, 0, 'octile', 0);
        for (let i = 0; i < grid.size; i++) assert.ok(close(field.cost(i), ref[i]), `${width} x 9, wall at (${bx}, ${by}): cell (${grid.xOf(i)}, ${grid.yOf(i)}) costs ${field.cost(i)}, the reference ${ref[i]}`);
        assert.equal(field.restarts, 0);
        cases++;
      }
    }
  }
  assert.equal(cases, 100);
});

/** An open width x height grid (cost 1), its field to (goalX, goalY), computed everywhere. */
function openField(width: number, height: number, goalX: number, goalY: number): { grid: NavGrid; field: FlowField } {
  const grid = new NavGrid(width, height);
  const field = flowFieldTo(grid, goalX, goalY);
  for (let i = 0; i < grid.size; i++) field.cost(i);
  return { grid, field };
}

/** The costs from every cell to the goal by the library's own Dijkstra (symmetric moves: costs from the goal are the same). */
function costsFromGoal(grid: NavGrid, goal: number): Float64Array {
  return new Pathfinder(grid).distanceMap([goal]);
}

test('a wall away from every cheapest path repairs only its own sector; the answers stay exact', () => {
  const { grid, field } = openField(160, 128, 5, 64);
  const sectors = field.sectorsComputed;
  assert.equal(sectors, Math.ceil(160 / FLOW_SECTOR_SIZE) * Math.ceil(128 / FLOW_SECTOR_SIZE));
  // The far corner: no other cell's cheapest way runs through it.
  grid.fillRect(157, 125, 3, 3, { walkable: false });
  assert.equal(field.cost(grid.index(150, 120)) > 0, true);
  assert.equal(field.repairs, 1);
  assert.equal(field.restarts, 0);
  assert.equal(field.lastRepair.sectors, 1, `repaired ${field.lastRepair.sectors} sectors`);
  assert.ok(field.lastRepair.cells <= 16, `recomputed ${field.lastRepair.cells} cells`);
  const ref = costsFromGoal(grid, field.goal);
  for (let i = 0; i < grid.size; i++) assert.ok(close(field.cost(i), ref[i]), `cell ${i}`);
});

test('a wall across the cheapest paths repairs the cells behind it, not the sectors between it and the goal', () => {
  const { grid, field } = openField(160, 128, 5, 64);
  // A wall at x = 100, rows 20 to 107: cells beyond it walk round; cells nearer the goal keep their way.
  grid.fillRect(100, 20, 1, 88, { walkable: false });
  field.cost(0);
  assert.equal(field.restarts, 0);
  const perRow = Math.ceil(160 / FLOW_SECTOR_SIZE);
  assert.ok(field.lastRepair.sectors < perRow * Math.ceil(128 / FLOW_SECTOR_SIZE), `repaired all ${field.lastRepair.sectors} sectors`);
  // The repaired cells lie at x >= 99 (the wall's column and beyond, and the cells beside it).
  const ref = costsFromGoal(grid, field.goal);
  for (let i = 0; i < grid.size; i++) assert.ok(close(field.cost(i), ref[i]), `cell (${grid.xOf(i)}, ${grid.yOf(i)}): ${field.cost(i)} vs ${ref[i]}`);
  // Opening a gap lowers the cells behind it again, still exactly.
  grid.setWalkable(100, 64, true);
  const ref2 = costsFromGoal(grid, field.goal);
  for (let i = 0; i < grid.size; i++) assert.ok(close(field.cost(i), ref2[i]), `after the gap, cell (${grid.xOf(i)}, ${grid.yOf(i)})`);
  assert.equal(field.restarts, 0);
});

test('a change in sectors the field has not reached costs it nothing', () => {
  const grid = new NavGrid(256, 64);
  const field = flowFieldTo(grid, 2, 2);
  assert.ok(close(field.cost(grid.index(10, 10)), 8 * Math.SQRT2));
  const settled = field.settledCells;
  grid.fillRect(200, 10, 20, 20, { walkable: false });
  assert.ok(field.isSettled(grid.index(10, 10)));
  assert.equal(field.lastRepair.cells, 0);
  assert.equal(field.settledCells, settled);
});

test('two groups ordered to one goal share one field, which grid.memory() lists and releaseDerived frees', () => {
  const grid = new NavGrid(60, 40);
  grid.fillRect(30, 0, 1, 34, { walkable: false });
  const sys = new NavigationSystem(grid, { flowFieldMinGroup: 4 });
  const a = Array.from({ length: 6 }, (_, k) => sys.addAgent({ x: 2, y: 2 + k * 2 }));
  const b = Array.from({ length: 6 }, (_, k) => sys.addAgent({ x: 10, y: 20 + k * 2 }));
  assert.equal(sys.moveGroup(a, 50, 10).mode, 'flow');
  assert.equal(sys.moveGroup(b, 50, 10).mode, 'flow');
  const cache = flowFieldCache(grid);
  assert.equal(cache.builds, 1);
  assert.equal(sys.stats.flowFields, 1);
  const field = sys.flowFieldOf(a[0])!;
  assert.equal(sys.flowFieldOf(b[0]), field);
  const listed = grid.memory().entries.filter((e) => e.name.startsWith('flow field'));
  assert.deepEqual(listed.map((e) => [e.name, e.layer]), [['flow field to (50, 10) octile', 0]]);
  assert.equal(listed[0].bytes, field.bytes);
  assert.ok(field.bytes >= field.sectorsComputed * FLOW_SECTOR_SIZE * FLOW_SECTOR_SIZE * 9 && field.sectorsComputed > 0);
  // A field read after the grid let go of it starts again in the grid's new cache, as exact as before.
  const before = field.costAt(2, 2);
  grid.releaseDerived();
  assert.equal(grid.memory().entries.filter((e) => e.name.startsWith('flow field')).length, 0);
  assert.equal(field.costAt(2, 2), before);
  assert.equal(flowFieldCache(grid).list()[0], field);
});

test('the cache keeps at most maxFields fields and maxBytes bytes, dropping the least recently asked that no order holds', () => {
  const grid = new NavGrid(100, 100);
  const cache = flowFieldCache(grid);
  cache.maxFields = 2;
  const sys = new NavigationSystem(grid, { flowFieldMinGroup: 2 });
  const held = [sys.addAgent({ x: 1, y: 1 }), sys.addAgent({ x: 1, y: 3 })];
  sys.moveGroup(held, 90, 90, { mode: 'flow' });
  const f1 = flowFieldTo(grid, 10, 10);
  f1.cost(0);
  const f2 = flowFieldTo(grid, 20, 20);
  f2.cost(0);
  // Three fields asked, two kept: the held one stays, the oldest unheld goes.
  assert.deepEqual(cache.list().map((f) => f.goal), [grid.index(90, 90), grid.index(20, 20)]);
  assert.equal(cache.evictions, 1);
  assert.equal(f1.settledCells, 0);
  // A dropped field read again is kept again, as exact as ever.
  assert.ok(close(f1.costAt(0, 0), 10 * Math.SQRT2));
  assert.ok(cache.list().includes(f1));
  // The byte limit: fields over it give their sectors back.
  cache.maxFields = 16;
  cache.maxBytes = 40 * FLOW_SECTOR_SIZE * FLOW_SECTOR_SIZE * 9;
  for (let k = 0; k < 6; k++) flowFieldTo(grid, 50 + k, 50).cost(0);
  assert.ok(cache.bytes <= cache.maxBytes + FLOW_SECTOR_SIZE * FLOW_SECTOR_SIZE * 9 + 1e4, `${cache.bytes} bytes held`);
  assert.ok(cache.list().some((f) => f.goal === grid.index(90, 90)), 'the held field was dropped');
  // A disposed system lets go of its fields.
  sys.dispose();
  assert.ok(cache.list().every((f) => f.holders === 0));
});

/** A caves-like grid with a loop the target walks round, and a crowd on the far side. */
function arena(): { grid: NavGrid; loop: [number, number][] } {
  const grid = new NavGrid(72, 48);
  // Pillars and a wall with two gaps: ways round that change as the target moves.
  for (let y = 0; y < 48; y++) if (y !== 8 && y !== 40) grid.setWalkable(36, y, false);
  for (let k = 0; k < 12; k++) grid.fillRect(6 + ((k * 17) % 60), 4 + ((k * 11) % 40), 3, 3, { walkable: false });
  const loop: [number, number][] = [];
  for (let x = 44; x <= 66; x++) loop.push([x, 14]);
  for (let y = 14; y <= 34; y++) loop.push([66, y]);
  for (let x = 66; x >= 44; x--) loop.push([x, 34]);
  for (let y = 34; y >= 14; y--) loop.push([44, y]);
  for (const [x, y] of loop) grid.setWalkable(x, y, true);
  return { grid, loop };
}

test('a chase follows a moving target: every unit steps along a cheapest path to a recent goal, and the crowd closes in', () => {
  const { grid, loop } = arena();
  const sys = new NavigationSystem(grid, { flowFieldBudget: 256 });
  const ids: number[] = [];
  for (let y = 2; y < 46; y += 3) for (let x = 2; x < 20; x += 3) if (grid.isWalkable(x, y)) ids.push(sys.addAgent({ x, y }));
  let t = 0;
  const target = () => ({ x: loop[Math.floor(t) % loop.length][0], y: loop[Math.floor(t) % loop.length][1] });
  const order = sys.chase(ids, target);
  assert.equal(order.unreachable, 0);
  const start = ids.reduce((s, i) => s + Math.hypot(sys.x[i] - target().x, sys.y[i] - target().y), 0);
  const goals = new Set<number>();
  const refs = new Map<number, Float64Array>();
  for (let s = 0; s < 1200; s++) {
    t += 2 / 60;
    sys.step();
    if (s % 40 !== 39) continue;
    for (const i of ids) {
      assert.ok(grid.isWalkable(Math.round(sys.x[i]), Math.round(sys.y[i])), `unit ${i} off the walkable cells`);
      const f = sys.flowFieldOf(i);
      assert.ok(f !== null, `unit ${i} follows no field`);
      goals.add(f.goal);
      const c = grid.index(Math.round(sys.x[i]), Math.round(sys.y[i]));
      const n = f.next(c);
      if (n < 0) continue;
      // The step is on a cheapest path to that field's goal: the reference agrees.
      let ref = refs.get(f.goal);
      if (ref === undefined) refs.set(f.goal, (ref = refDistancesTo(grid, 0, 'octile', f.goal)));
      const move = refNeighbours(grid, 0, 'octile', grid.xOf(c), grid.yOf(c)).find(([x, y]) => grid.index(x, y) === n)!;
      assert.ok(close(move[2] + ref[n], ref[c]), `unit ${i}: step ${c} -> ${n} is not on a cheapest path`);
    }
  }
  assert.ok(goals.size > 3, `the units followed only ${goals.size} goals`);
  const end = ids.reduce((s, i) => s + Math.hypot(sys.x[i] - target().x, sys.y[i] - target().y), 0);
  assert.ok(end < start / 3, `mean distance ${start / ids.length} -> ${end / ids.length}`);
  // Once the target stands still, every unit's field is the one to the target's cell.
  for (let s = 0; s < 240; s++) sys.step();
  const goal = grid.index(target().x, target().y);
  for (const i of ids) assert.equal(sys.flowFieldOf(i)?.goal, goal);
});

test('chasing an agent: the chase ends when the target is removed, the units stand and their callbacks fire', () => {
  const grid = new NavGrid(40, 20);
  const sys = new NavigationSystem(grid);
  const player = sys.addAgent({ x: 35, y: 10, player: true });
  const ids = [0, 1, 2, 3].map((k) => sys.addAgent({ x: 2, y: 4 + 3 * k }));
  const ended: number[] = [];
  sys.chase(ids, player, { onArrived: (id) => ended.push(id) });
  for (let s = 0; s < 60; s++) sys.step();
  assert.ok(ids.every((i) => sys.isMoving(i) && sys.x[i] > 4));
  // Two chases of one target share its fields.
  const builds = flowFieldCache(grid).builds;
  const more = [sys.addAgent({ x: 2, y: 18 }), sys.addAgent({ x: 3, y: 18 })];
  sys.chase(more, player);
  assert.equal(flowFieldCache(grid).builds, builds);
  sys.removeAgent(player);
  sys.step();
  assert.ok([...ids, ...more].every((i) => !sys.isMoving(i)));
  assert.deepEqual(ended.sort(), [...ids].sort());
  assert.equal(grid.memory().entries.filter((e) => e.name.startsWith('flow field')).length > 0, true);
  assert.ok(flowFieldCache(grid).list().every((f) => f.holders === 0), 'a field is still held after the chases ended');
});

test('units stand in the target\'s cell within their arrival threshold, and walk again when it moves on', () => {
  const grid = new NavGrid(30, 10);
  const sys = new NavigationSystem(grid);
  const at = { x: 20, y: 5 };
  const id = sys.addAgent({ x: 2, y: 5 });
  sys.chase([id], () => at, { arrivalThreshold: 0.3 });
  for (let s = 0; s < 400; s++) sys.step();
  assert.ok(Math.hypot(sys.x[id] - 20, sys.y[id] - 5) <= 0.3 + 1e-9);
  assert.ok(sys.isMoving(id), 'a chaser keeps its order while it stands by the target');
  at.x = 27;
  for (let s = 0; s < 200; s++) sys.step();
  assert.ok(Math.hypot(sys.x[id] - 27, sys.y[id] - 5) <= 0.3 + 1e-9);
});

test('a wall dropped across a chase: the fields are repaired and the units still reach the target', () => {
  const { grid, loop } = arena();
  const sys = new NavigationSystem(grid);
  const ids: number[] = [];
  for (let y = 2; y < 46; y += 4) if (grid.isWalkable(4, y)) ids.push(sys.addAgent({ x: 4, y }));
  const [tx, ty] = loop[0];
  sys.chase(ids, () => ({ x: tx, y: ty }));
  for (let s = 0; s < 60; s++) sys.step();
  // Close the lower gap: the way round is through the upper one.
  grid.setWalkable(36, 40, false);
  for (let s = 0; s < 3000 && ids.some((i) => Math.hypot(sys.x[i] - tx, sys.y[i] - ty) > 4); s++) {
    sys.step();
    for (const i of ids) assert.ok(grid.isWalkable(Math.round(sys.x[i]), Math.round(sys.y[i])));
  }
  assert.ok(ids.every((i) => Math.hypot(sys.x[i] - tx, sys.y[i] - ty) <= 4), 'a unit did not reach the target');
  assert.ok(flowFieldCache(grid).list().some((f) => f.repairs > 0));
});

test('chase misuse throws a TilenavError naming the argument', () => {
  const sys = new NavigationSystem(new NavGrid(10, 10));
  const a = sys.addAgent({ x: 1, y: 1 });
  assert.throws(() => sys.chase([a], 99), (e: Error) => e.name === 'TilenavError' && /target/.test(e.message));
  assert.throws(() => sys.chase([a], a), (e: Error) => e.name === 'TilenavError' && /itself/.test(e.message));
  assert.throws(() => sys.chase([a], 'player' as unknown as number), (e: Error) => e.name === 'TilenavError' && /target/.test(e.message));
  assert.throws(() => sys.chase([42], () => ({ x: 1, y: 1 })), (e: Error) => e.name === 'TilenavError' && /agent id/.test(e.message));
  assert.throws(() => new NavigationSystem(new NavGrid(4, 4), { flowFieldBudget: 0.5 }), /flowFieldBudget/);
  let bad = false;
  sys.chase([a], () => (bad ? { x: NaN, y: 0 } : { x: 5, y: 5 }));
  sys.step();
  bad = true;
  assert.throws(() => sys.step(), (e: Error) => e.name === 'TilenavError' && /target/.test(e.message));
  assert.throws(() => flowFieldTo(new NavGrid(4, 4), 9, 0), (e: Error) => e.name === 'TilenavError' && /goal/.test(e.message));
  assert.throws(() => flowFieldTo(new NavGrid(4, 4), 1, 1).costAt(7, 1), (e: Error) => e.name === 'TilenavError' && /cell/.test(e.message));
  const f = flowFieldTo(new NavGrid(4, 4), 1, 1);
  assert.throws(() => f.next(16), (e: Error) => e.name === 'TilenavError' && /cell/.test(e.message));
  assert.throws(() => f.cost(1.5), (e: Error) => e.name === 'TilenavError' && /cell/.test(e.message));
  assert.throws(() => f.cover([3, 99]), (e: Error) => e.name === 'TilenavError' && /cells/.test(e.message));
  assert.throws(() => f.cover([3], NaN), (e: Error) => e.name === 'TilenavError' && /budget/.test(e.message));
  assert.throws(() => f.grow(-1), (e: Error) => e.name === 'TilenavError' && /cells/.test(e.message));
  assert.equal(f.cover([-1, 0, 15]), true);
});

test('a goal blocked when the field starts, then opened again: the field starts over and reaches it', () => {
  // Found by the repair property (seed 669442956): the goal closed, read, opened, read.
  const grid = new NavGrid(8, 8);
  const field = flowFieldTo(grid, 0, 7);
  for (let i = 0; i < grid.size; i++) field.cost(i);
  grid.setWalkable(0, 0, false);
  grid.setWalkable(0, 7, false);
  assert.equal(field.cost(grid.index(0, 6)), Infinity);
  grid.batch(() => grid.fillRect(0, 6, 2, 2, { walkable: true }));
  grid.setWalkable(0, 0, true);
  assert.equal(field.cost(0), 7);
  assert.equal(checkField(grid, field, 'octile'), null);
});
