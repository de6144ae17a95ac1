/**
 * Flow fields built in the PathService's workers (`service.flowField`): the field a worker builds
 * and the main thread installs equals the one the main thread computes, cell for cell (costs and
 * steps), with tile changes before the request and while the worker builds it; the checks are
 * flowFieldTo's; a NavigationSystem with a service takes its group orders' and chases' fields
 * from the workers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, TilenavError, movementModel, stepDistance, type MovementName } from '../src/index.js';
import { NavigationSystem, flowFieldTo, flowFieldCache, AGENT_BLOCKED, AGENT_UNREACHABLE, type FlowField } from '../src/agents/index.js';
import { PathService, createPathService } from '../src/service/node.js';
import { applyChange, gridArb, gridFor, type CostMode } from './grids.js';
import { refDistancesTo } from './reference.js';
import { inProcess } from './helpers-service.js';
import { fieldTransfers } from '../src/service/protocol.js';

const SQUARE: MovementName[] = ['octile', 'cardinal', 'octile-one-obstacle', 'octile-always'];
const OTHER: MovementName[] = ['hex', 'hex-odd-r', 'staggered-even-q', 'iso'];
const COSTS: CostMode[] = ['uniform', 'mixed', 'integer', 'extreme'];

const turn = () => new Promise<void>((r) => setImmediate(r));

/**
 * Whether the step from cell i to `next` is a cheapest one in `f`: its length times the cost of
 * the cell it enters, plus the cost left from there, is the cost left from i.
 */
function cheapestStep(grid: NavGrid, f: FlowField, movement: MovementName, i: number, next: number): boolean {
  if (next < 0) return false;
  const len = stepDistance(movementModel(movement), grid.xOf(i), grid.yOf(i), grid.xOf(next), grid.yOf(next));
  const via = len * grid.layers[0].cost[next] + f.cost(next);
  return Math.abs(via - f.cost(i)) <= 1e-9 * Math.max(1, f.cost(i));
}

/**
 * The first cell where two fields differ in cost, or in step unless both steps are cheapest ones
 * (two ways of the same cost: a field repaired on install may settle such ties in another order
 * than one computed afresh), or null.
 */
function firstDifference(grid: NavGrid, a: FlowField, b: FlowField, movement: MovementName): string | null {
  for (let i = 0; i < grid.size; i++) {
    const ca = a.cost(i);
    const cb = b.cost(i);
    if (!(ca === cb)) return `cell (${grid.xOf(i)}, ${grid.yOf(i)}): cost ${ca} against ${cb}`;
    const na = a.next(i);
    const nb = b.next(i);
    if (na !== nb && !(cheapestStep(grid, a, movement, i, na) && cheapestStep(grid, b, movement, i, nb))) return `cell (${grid.xOf(i)}, ${grid.yOf(i)}): step to ${na} against ${nb}`;
  }
  return null;
}

test('property: a field built in a worker equals the main thread\'s, cell for cell, with tile changes before the request and while the worker builds it', async () => {
  let repairedOnInstall = 0;
  await fc.assert(
    fc.asyncProperty(
      gridArb({ width: [2, 45], height: [2, 40], wallRate: [0, 0.35], costs: COSTS, oneWay: true }),
      fc.constantFrom(...SQUARE, ...OTHER),
      fc.nat(),
      fc.array(fc.tuple(fc.nat(), fc.nat(4), fc.nat(3)), { maxLength: 3 }),
      fc.array(fc.tuple(fc.nat(), fc.nat(4), fc.nat(3)), { maxLength: 4 }),
      fc.constantFrom('all', 'cells', 'maxCost'),
      fc.boolean(),
      async ({ grid: base }, movement, at, before, during, extent, shared) => {
        // Two twins: the service's grid, and the main thread's reference that lives the same changes.
        const grid = gridFor(base, movement);
        const twin = gridFor(base, movement);
        for (const [cell, kind, size] of before) {
          applyChange(grid, cell, kind, size);
          applyChange(twin, cell, kind, size);
        }
        const goal = at % grid.size;
        const cells = extent === 'cells' ? [(at * 7919) % grid.size, (at * 104729 + 3) % grid.size] : null;
        const maxCost = extent === 'maxCost' ? 1 + (at % 9) : Infinity;
        const factory = inProcess();
        const service = new PathService(grid, { factory, share: shared ? 'auto' : 'never' });
        try {
          await service.ready();
          factory.ports[0].hold = true;
          const answer = service.flowField(grid.xOf(goal), grid.yOf(goal), { movement, ...(cells !== null ? { cells } : {}), maxCost });
          // The reference computes as much as the worker, before the changes below.
          const reference = flowFieldTo(twin, twin.xOf(goal), twin.yOf(goal), { movement });
          reference.computeTo(cells, maxCost);
          while (factory.ports[0].held.length === 0) await turn();
          // Built: these changes come while its answer is on its way, and are repaired on install.
          for (const [cell, kind, size] of during) {
            applyChange(grid, cell, kind, size);
            applyChange(twin, cell, kind, size);
          }
          factory.ports[0].release();
          const r = await answer;
          assert.equal(r.status, 'built');
          assert.equal(r.field, flowFieldTo(grid, grid.xOf(goal), grid.yOf(goal), { movement }));
          if (r.changes > 0) repairedOnInstall++;
          const why = firstDifference(grid, r.field, reference, movement);
          assert.equal(why, null, why ?? '');
          // And both are exact: the reference Dijkstra's costs.
          const ref = refDistancesTo(grid, 0, movement, goal);
          for (let i = 0; i < grid.size; i++) {
            const c = r.field.cost(i);
            assert.ok(c === ref[i] || Math.abs(c - ref[i]) <= 1e-9 * Math.max(1, ref[i]), `cell ${i}: ${c} against the reference ${ref[i]}`);
          }
        } finally {
          await service.close();
        }
      },
    ),
    { numRuns: 80 },
  );
  assert.ok(repairedOnInstall > 10, `only ${repairedOnInstall} runs had changes while the worker built`);
});

test('a field built in a Node worker thread is installed in the grid\'s cache, reused by every unit heading there, and repaired there', async () => {
  const grid = new NavGrid(300, 200);
  grid.fillRect(150, 0, 1, 190, { walkable: false });
  const service = createPathService(grid, { workers: 1 });
  try {
    await service.ready();
    const r = await service.flowField(250, 20);
    assert.equal(r.status, 'built');
    assert.equal(r.version, grid.version);
    // Every walkable cell (all but the wall's 190) is settled, in every sector of the grid.
    assert.equal(r.field.settledCells, grid.size - 190);
    assert.equal(r.field.sectorsComputed, Math.ceil(300 / 32) * Math.ceil(200 / 32));
    assert.equal(flowFieldTo(grid, 250, 20), r.field);
    assert.equal(flowFieldCache(grid).builds, 1);
    // The same field again: answered at once from the cache, no worker.
    const again = await service.flowField(250, 20);
    assert.equal(again.status, 'built');
    assert.equal(again.version, -1);
    assert.equal(service.stats().fields, 1);
    // Tile changes reach the installed field as any field's: repaired in place, exact.
    const twin = new NavGrid(300, 200);
    twin.fillRect(150, 0, 1, 190, { walkable: false });
    twin.setWalkable(150, 195, false);
    twin.setWalkable(150, 100, true);
    grid.setWalkable(150, 195, false);
    grid.setWalkable(150, 100, true);
    const fresh = flowFieldTo(twin, 250, 20);
    for (let i = 0; i < grid.size; i++) assert.ok(Math.abs(r.field.cost(i) - fresh.cost(i)) <= 1e-9 * fresh.cost(i) || r.field.cost(i) === fresh.cost(i), `cell ${i}`);
    assert.equal(r.field.restarts, 0);
    assert.equal(r.field.repairs, 1);
  } finally {
    await service.close();
  }
});

test('a field handed over moves its buffers: each sector\'s storage and the queue\'s arrays, none copied; adopted, it answers as before', () => {
  const grid = new NavGrid(70, 40);
  grid.fillRect(35, 0, 1, 30, { walkable: false });
  const field = flowFieldTo(grid, 60, 5);
  field.computeTo([grid.index(2, 2)], Infinity);
  const twin = new NavGrid(70, 40);
  twin.fillRect(35, 0, 1, 30, { walkable: false });
  const reference = flowFieldTo(twin, 60, 5);
  reference.computeTo([twin.index(2, 2)], Infinity);
  const sectors = field.sectorsComputed;
  const snapshot = field.handOver();
  assert.equal(snapshot.storage.length, sectors);
  assert.equal(field.sectorsComputed, 0);
  const transfers = fieldTransfers(snapshot);
  const moved = structuredClone(snapshot, { transfer: transfers });
  for (const b of transfers) assert.equal(b.byteLength, 0, 'detached: moved, not copied');
  const other = new NavGrid(70, 40);
  other.fillRect(35, 0, 1, 30, { walkable: false });
  const adopted = flowFieldTo(other, 60, 5);
  adopted.adopt(moved, []);
  assert.equal(adopted.sectorsComputed, sectors);
  // Partly computed: the adopted field's search goes on from the queue handed over, as the reference's does.
  const why = firstDifference(other, adopted, reference, other.movement);
  assert.equal(why, null, why ?? '');
});

test('a field request refuses what flowFieldTo refuses, with the same TilenavError, and checks its own options', async () => {
  const grid = new NavGrid(20, 10);
  const service = new PathService(grid, { factory: inProcess() });
  try {
    const bad: [number, number, object | undefined][] = [[20, 0, undefined], [1.5, 0, undefined], [0, 0, { layer: 'nowhere' }], [0, 0, { movement: 'hex' }]];
    for (const [x, y, o] of bad) {
      let expected: TilenavError | null = null;
      try {
        flowFieldTo(grid, x, y, o);
      } catch (e) {
        expected = e as TilenavError;
      }
      assert.ok(expected instanceof TilenavError);
      await assert.rejects(service.flowField(x, y, o), (e: unknown) => e instanceof TilenavError && e.message === expected!.message && e.element === expected!.element);
    }
    await assert.rejects(service.flowField(1, 1, { maxCost: -1 }), /maxCost/);
    await assert.rejects(service.flowField(1, 1, { cells: [3, 200] }), /cells/);
    await assert.rejects(service.flowField(1, 1, { priority: NaN }), /priority/);
    await assert.rejects(service.flowField(1, 1, { timeoutMs: 0 }), /timeoutMs/);
    // Cancelled: answered once, and the field still answers every cell (on the main thread).
    const factory = inProcess();
    const held = new PathService(grid, { factory });
    factory.ports[0].hold = true;
    const answers: string[] = [];
    const id = held.enqueueField(5, 5, undefined, (r) => {
      answers.push(r.status);
      assert.equal(r.field.costAt(5, 6), 1);
    });
    assert.equal(held.cancel(id), true);
    assert.equal(held.cancel(id), false);
    await turn();
    assert.deepEqual(answers, ['cancelled']);
    await held.close();
    await assert.rejects(held.flowField(1, 1), /closed/);
  } finally {
    await service.close();
  }
});

test('a full queue: a field request is rejected, or with the wait policy waits for room and is built', async () => {
  for (const overflow of ['reject', 'wait'] as const) {
    const grid = new NavGrid(40, 30);
    const service = new PathService(grid, { factory: inProcess(), queueLimit: 1, overflow });
    try {
      await service.ready();
      const first = service.flowField(1, 1);
      const second = service.flowField(30, 20);
      const [a, b] = await Promise.all([first, second]);
      assert.equal(a.status, 'built');
      assert.equal(b.status, overflow === 'reject' ? 'rejected' : 'built', overflow);
      // Rejected or not, the field answers every cell.
      assert.equal(b.field.costAt(30, 21), 1);
    } finally {
      await service.close();
    }
  }
});

test('a worker that dies building a field: the request runs again on its replacement, and is answered once', async () => {
  const grid = new NavGrid(90, 50);
  grid.fillRect(45, 0, 1, 45, { walkable: false });
  let crashes = 1;
  const service = new PathService(grid, { factory: inProcess({ failOnRun: () => crashes-- > 0 }) });
  try {
    const r = await service.flowField(80, 5);
    assert.equal(r.status, 'built');
    assert.equal(service.stats().restarts, 1);
    assert.equal(service.stats().fields, 1);
    const reference = flowFieldTo(gridFor(grid, 'octile'), 80, 5);
    const why = firstDifference(grid, r.field, reference, "octile");
    assert.equal(why, null, why ?? '');
  } finally {
    await service.close();
  }
});

/** Steps (yielding to the event loop between steps, as a game's frames do) until no agent moves, at most `max` steps. */
async function runUntilStill(sys: NavigationSystem, ids: number[], max: number): Promise<number> {
  for (let s = 0; s < max; s++) {
    sys.step();
    if (ids.every((id) => !sys.isMoving(id))) return s + 1;
    await new Promise((r) => setTimeout(r, 0));
  }
  return max;
}

test('a group order through the service: the field comes from a worker, the units walk meanwhile and arrive', async () => {
  const grid = new NavGrid(120, 60);
  grid.fillRect(60, 0, 1, 55, { walkable: false });
  const service = createPathService(grid, { workers: 1 });
  const sys = new NavigationSystem(grid, { service });
  try {
    await service.ready();
    const ids: number[] = [];
    for (let k = 0; k < 40; k++) ids.push(sys.addAgent({ x: 5 + (k % 10) * 2, y: 5 + Math.floor(k / 10) * 2 }));
    const order = sys.moveGroup(ids, 100, 10, { mode: 'flow' });
    assert.equal(order.mode, 'flow');
    // Nothing of the field computed in the call: the worker builds it.
    const field = flowFieldTo(grid, order.formation!.center % grid.width, Math.floor(order.formation!.center / grid.width));
    assert.equal(field.settledCells, 0);
    sys.step();
    // Every unit moved at the first step, straight at its slot.
    assert.ok(ids.every((id) => sys.x[id] !== sys.prevX[id] || sys.y[id] !== sys.prevY[id]));
    const steps = await runUntilStill(sys, ids, 4000);
    assert.ok(steps < 4000, 'every unit arrived');
    assert.equal(service.stats().fields, 1);
    assert.equal(sys.stats.flowFields, 1);
    for (const id of ids) assert.equal(sys.flags[id] & (AGENT_UNREACHABLE | AGENT_BLOCKED), 0);
    // At their slots: a unit that made way for another walks back to its post through the service's
    // answer, which can leave it a couple of cells off (its path comes from where it asked).
    let sum = 0;
    for (let k = 0; k < ids.length; k++) {
      const d = Math.hypot(sys.x[ids[k]] - order.formation!.slots[2 * k], sys.y[ids[k]] - order.formation!.slots[2 * k + 1]);
      assert.ok(d < 3, `unit ${k} stands ${d} cells from its slot`);
      sum += d;
    }
    assert.ok(sum / ids.length < 0.5, `the units stand ${sum / ids.length} cells from their slots on average`);
  } finally {
    sys.dispose();
    await service.close();
  }
});

test('a chase through the service: the fields that reach every unit come from the workers, and the horde reaches its target', async () => {
  const grid = new NavGrid(100, 50);
  grid.fillRect(50, 5, 1, 45, { walkable: false });
  const service = createPathService(grid, { workers: 1 });
  const sys = new NavigationSystem(grid, { service });
  try {
    await service.ready();
    const player = sys.addAgent({ x: 90, y: 40, walkSpeed: 2 });
    const ids: number[] = [];
    for (let k = 0; k < 20; k++) ids.push(sys.addAgent({ x: 5 + (k % 5) * 2, y: 30 + Math.floor(k / 5) * 2 }));
    sys.moveTo(player, 90, 10);
    const chase = sys.chase(ids, player);
    assert.equal(chase.unreachable, 0);
    let near = false;
    for (let s = 0; s < 3000 && !near; s++) {
      sys.step();
      near = ids.some((id) => Math.hypot(sys.x[id] - sys.x[player], sys.y[id] - sys.y[player]) < 1.5);
      await new Promise((r) => setTimeout(r, 0));
    }
    assert.ok(near, 'a unit caught up with the player');
    assert.ok(service.stats().fields >= 1, `${service.stats().fields} fields from the workers`);
  } finally {
    sys.dispose();
    await service.close();
  }
});
