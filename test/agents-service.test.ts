import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NavGrid } from '../src/grid/navgrid.js';
import { NavigationSystem, ServicePlanner, AGENT_UNREACHABLE } from '../src/agents/index.js';
import { createPathService } from '../src/service/node.js';
import { PathService, type WorkerFactory } from '../src/service/service.js';
import { serveWorker } from '../src/service/worker-core.js';
import type { ToWorker } from '../src/service/protocol.js';

const tick = () => new Promise((r) => setTimeout(r, 1));

/** A 40 x 20 room split by a wall with one gap at the bottom. */
function room(): NavGrid {
  const grid = new NavGrid(40, 20);
  grid.fillRect(20, 0, 1, 17, { walkable: false });
  return grid;
}

/** Steps (yielding to the event loop between steps, as a game's frames do) until no agent moves, at most `max` steps. */
async function runUntilStill(sys: NavigationSystem, ids: number[], max: number): Promise<number> {
  for (let s = 0; s < max; s++) {
    sys.step();
    if (ids.every((id) => !sys.isMoving(id))) return s + 1;
    await tick();
  }
  return max;
}

test('agents plan through the node PathService: they walk straight at their targets until their answer comes, then along it', async () => {
  const grid = room();
  const service = createPathService(grid, { workers: 1 });
  const sys = new NavigationSystem(grid, { service });
  try {
    assert.ok(sys.planner instanceof ServicePlanner);
    const starts = [[2, 2], [2, 6], [5, 10], [8, 14], [3, 18]];
    const targets = [[37, 2], [30, 8], [35, 12], [25, 3], [38, 18]];
    const ids = starts.map(([x, y]) => sys.addAgent({ x, y }));
    ids.forEach((id, k) => sys.moveTo(id, targets[k][0], targets[k][1]));
    sys.step();
    // Asked, not answered: nobody has a path, and the step did not wait; every unit moved toward its target meanwhile.
    ids.forEach((id, k) => {
      assert.equal(sys.path(id), null);
      assert.ok(sys.isMoving(id));
      const before = Math.hypot(starts[k][0] - targets[k][0], starts[k][1] - targets[k][1]);
      const now = Math.hypot(sys.x[id] - targets[k][0], sys.y[id] - targets[k][1]);
      assert.ok(now < before - 0.01, `agent ${id} did not move toward its target (${before} -> ${now})`);
    });
    assert.equal(sys.stats.plans, 0);
    const steps = await runUntilStill(sys, ids, 3000);
    assert.ok(steps < 3000, 'every agent arrived');
    ids.forEach((id, k) => {
      assert.equal(sys.flags[id] & AGENT_UNREACHABLE, 0);
      assert.ok(Math.hypot(sys.x[id] - targets[k][0], sys.y[id] - targets[k][1]) < 0.5, `agent ${id} at ${sys.x[id]}, ${sys.y[id]}`);
    });
    assert.ok(sys.stats.plans >= ids.length);
    assert.ok(service.stats().done >= ids.length);
  } finally {
    sys.dispose();
    await service.close();
  }
});

test('an unreachable target leaves the agent standing, flagged; the system needs a service over its own grid', async () => {
  const grid = room();
  grid.fillRect(20, 17, 1, 3, { walkable: false });
  const service = createPathService(grid, { workers: 1 });
  const sys = new NavigationSystem(grid, { service });
  try {
    const id = sys.addAgent({ x: 2, y: 2 });
    sys.moveTo(id, 30, 10);
    const steps = await runUntilStill(sys, [id], 2000);
    assert.ok(steps < 2000);
    assert.notEqual(sys.flags[id] & AGENT_UNREACHABLE, 0);
    assert.deepEqual([sys.x[id], sys.y[id]], [2, 2]);
    assert.throws(() => new NavigationSystem(new NavGrid(4, 4), { service }), /service: expected a PathService over the same grid/);
  } finally {
    sys.dispose();
    await service.close();
  }
});

/** One in-process worker whose grid changes wait while `holdChanges`, so a search can run on the old grid. */
function gatedFactory(): WorkerFactory & { holdChanges: boolean; release(): void } {
  const held: ToWorker[] = [];
  let toWorker: ((m: ToWorker) => void) | null = null;
  const factory = (() => {
    let toMain: ((m: never) => void) | null = null;
    serveWorker({ post: (m, transfer) => { const copy = structuredClone(m, { transfer }); setImmediate(() => toMain!(copy as never)); }, listen: (h) => (toWorker = h) });
    return {
      post(m: ToWorker, transfer: ArrayBuffer[]) {
        const copy = structuredClone(m, { transfer });
        setImmediate(() => (factory.holdChanges && copy.t === 'change' ? held.push(copy) : toWorker!(copy)));
      },
      start(onMessage: (m: never) => void) {
        toMain = onMessage;
      },
      terminate() {},
    };
  }) as unknown as WorkerFactory & { holdChanges: boolean; release(): void };
  factory.holdChanges = false;
  factory.release = () => {
    factory.holdChanges = false;
    for (const m of held.splice(0)) toWorker!(m);
  };
  return factory;
}

test('an answer computed before a grid change is asked again: the agent walks around the new wall', async () => {
  const grid = new NavGrid(30, 12);
  const factory = gatedFactory();
  const service = new PathService(grid, { factory, workers: 1, share: 'never' });
  const sys = new NavigationSystem(grid, { service });
  try {
    await service.ready();
    const id = sys.addAgent({ x: 2, y: 5 });
    sys.moveTo(id, 27, 5);
    factory.holdChanges = true;
    sys.step();
    // A wall across the straight way, raised after the request left: the worker answers on the old grid.
    grid.fillRect(15, 0, 1, 10, { walkable: false });
    while (service.stats().done === 0) await tick();
    factory.release();
    let path: Float64Array | null = null;
    for (let s = 0; s < 500 && path === null; s++) {
      sys.step();
      path = sys.path(id);
      await tick();
    }
    assert.ok(path !== null, 'a path arrived');
    assert.ok(service.stats().done >= 2, `the stale answer was asked again: ${service.stats().done} answers`);
    // The first path the agent got already goes round the wall, through the gap below it.
    assert.ok(Array.from(path).some((v, k) => k % 2 === 1 && v > 9.5), `path ${Array.from(path)}`);
    const steps = await runUntilStill(sys, [id], 3000);
    assert.ok(steps < 3000);
    assert.ok(Math.hypot(sys.x[id] - 27, sys.y[id] - 5) < 0.5);
    assert.equal(sys.flags[id] & AGENT_UNREACHABLE, 0);
    assert.equal(sys.replanCount[id], 0, 'no replan was needed on the way');
  } finally {
    sys.dispose();
    await service.close();
  }
});
