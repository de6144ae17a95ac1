import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { NavGrid, Pathfinder, TilenavError, checkPath } from '../src/index.js';
import { mulberry32 } from '../src/query/index.js';
import { parseMovingAiMap, parseScenario } from '../src/loaders/index.js';
import { PathService, createPathService, nodeWorkerFactory, shareGrid, serveWorker, type NodeWorkerPort, type ServiceResult, type WorkerFactory } from '../src/service/node.js';
import { WORKER_LOADED } from '../src/service/web-handshake.js';
import { fixture } from './fixtures.js';
import { inProcess } from './helpers-service.js';
import { gridFor } from './grids.js';

const MAP = fixture('movingai/AcrosstheCape.map');
const SCEN = fixture('movingai/AcrosstheCape.map.scen');

async function drain(svc: PathService, ids: number[], out: Map<number, ServiceResult[]>, timeoutMs = 20_000): Promise<void> {
  const want = new Set(ids);
  const t0 = Date.now();
  for (;;) {
    for (const r of svc.fetchCompleted()) {
      const list = out.get(r.id) ?? [];
      list.push({ ...r, cells: r.cells.slice() });
      out.set(r.id, list);
      want.delete(r.id);
    }
    if (want.size === 0) return;
    if (Date.now() - t0 > timeoutMs) throw new Error(`${want.size} requests unanswered after ${timeoutMs} ms: ${JSON.stringify(svc.stats())}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

function maze(): NavGrid {
  // Non-square, with costs and a second layer.
  const g = new NavGrid(23, 11, { layers: ['Ground', 'Sky'] });
  g.fillRect(5, 0, 1, 9, { walkable: false });
  g.fillRect(11, 2, 1, 9, { walkable: false });
  g.fillRect(17, 0, 1, 9, { walkable: false });
  g.fillRect(6, 4, 5, 3, { cost: 2.5 });
  return g;
}

test('answers equal the synchronous A* on AcrosstheCape (real workers, shared grid)', async () => {
  const grid = parseMovingAiMap(readFileSync(MAP, 'utf8')).grid;
  const queries = parseScenario(readFileSync(SCEN, 'utf8'));
  const pick = queries.filter((q, i) => q.bucket < 60 && i % 4 === 0);
  const svc = createPathService(grid, { workers: 2 });
  try {
    assert.equal(svc.shared, true);
    const results = await Promise.all(pick.map((q) => svc.findPath(q.startX, q.startY, q.goalX, q.goalY)));
    const finder = new Pathfinder(grid);
    for (let k = 0; k < pick.length; k++) {
      const q = pick[k];
      const want = finder.findPath(q.startX, q.startY, q.goalX, q.goalY);
      assert.equal(results[k].status, want.status, `line ${q.line}`);
      assert.equal(results[k].cost, want.cost, `line ${q.line}`);
      assert.deepEqual(results[k].cells, want.cells, `line ${q.line}`);
    }
    const s = svc.stats();
    assert.equal(s.done, pick.length);
    assert.equal(s.queued + s.running, 0);
    assert.ok(s.meanLatencyMs > 0);
  } finally {
    await svc.close();
  }
});

test('copy mode (no shared memory) follows grid changes through change messages, every model and layer', async () => {
  // Square cells with the square models, and the same maze on hexagons with the grid's own model.
  const cases = [
    { grid: maze(), moves: ['octile', 'cardinal', 'octile-always', 'iso'] as const },
    { grid: gridFor(maze(), 'hex-odd-r'), moves: [undefined, 'hex-odd-r'] as const },
  ];
  for (const { grid, moves } of cases) {
    const factory = inProcess();
    const svc = new PathService(grid, { factory, workers: 2, share: 'never' });
    const finder = new Pathfinder(grid);
    try {
      assert.equal(svc.shared, false);
      const check = async () => {
        for (const movement of moves) {
          for (const layer of ['Ground', 'Sky']) {
            const r = await svc.findPath(0, 0, 22, 10, { movement, layer });
            const want = finder.findPath(0, 0, 22, 10, { movement, layer });
            const label = `${movement ?? grid.movement} ${layer}`;
            assert.equal(r.status, want.status, label);
            assert.equal(r.cost, want.cost, label);
            assert.equal(r.version, grid.version);
            assert.equal(r.stale, false);
          }
        }
      };
      await check();
      grid.batch(() => {
        grid.fillRect(0, 9, 23, 1, { walkable: false });
        grid.setCost(3, 3, 4);
      });
      grid.setTerrain(20, 10, 'Mud', 'Sky');
      await check();
    } finally {
      await svc.close();
    }
  }
});

test('shared memory: a grid not on shared memory is mirrored; shareGrid avoids the copy', async () => {
  const grid = maze();
  const svc = new PathService(grid, { factory: inProcess(), workers: 1 });
  const shared = shareGrid(grid);
  const svc2 = new PathService(shared, { factory: inProcess(), workers: 1 });
  try {
    assert.equal(svc.shared, true);
    assert.ok(shared.storage instanceof SharedArrayBuffer);
    // A shared grid may still be served by copies.
    const copies = new PathService(shared, { factory: inProcess(), workers: 1, share: 'never' });
    assert.equal(copies.shared, false);
    assert.equal((await copies.findPath(0, 0, 22, 0)).status, 'found');
    await copies.close();
    const before = await svc.findPath(0, 0, 22, 0);
    grid.fillRect(0, 9, 23, 2, { walkable: false });
    shared.fillRect(0, 9, 23, 2, { walkable: false });
    const after = await svc.findPath(0, 0, 22, 0);
    const after2 = await svc2.findPath(0, 0, 22, 0);
    assert.equal(before.status, 'found');
    assert.equal(after.status, 'no-path');
    assert.equal(after2.status, 'no-path');
    assert.equal(after.version, grid.version);
  } finally {
    await Promise.all([svc.close(), svc2.close()]);
  }
});

test('request + fetchCompleted: one answer per id, arrays reused, bad requests throw as findPath does', async () => {
  const grid = maze();
  const svc = new PathService(grid, { factory: inProcess(), workers: 2, maxBatch: 4 });
  const finder = new Pathfinder(grid);
  try {
    // A caller's mistake throws the TilenavError Pathfinder.findPath throws, and queues nothing.
    const bad: [number, number, number, number, object][] = [
      [0.5, 0, 1, 1, {}],
      [0, 0, 1, 1, { layer: 'Lava' }],
      [0, 0, 1, 1, { movement: 'knight' }],
      [0, 0, 1, 1, { weight: -1 }],
    ];
    for (const [sx, sy, gx, gy, options] of bad) {
      const message = (() => {
        try {
          finder.findPath(sx, sy, gx, gy, options);
        } catch (e) {
          return (e as Error).message;
        }
        return 'no error';
      })();
      assert.throws(() => svc.request(sx, sy, gx, gy, options), (e: unknown) => e instanceof TilenavError && e.message === message, message);
    }
    assert.equal(svc.stats().queued, 0);
    const ids = [
      svc.request(0, 0, 22, 10),
      svc.request(-1, 0, 3, 3),
      svc.request(0, 0, 23, 0),
      svc.request(5, 0, 1, 1),
      ...Array.from({ length: 20 }, (_, i) => svc.request(i, 10, 22 - i, 0, { layer: 1 })),
    ];
    assert.equal(new Set(ids).size, ids.length);
    const got = new Map<number, ServiceResult[]>();
    await drain(svc, ids, got);
    for (const id of ids) assert.equal(got.get(id)!.length, 1, `id ${id}`);
    const status = (k: number) => got.get(ids[k])![0];
    assert.equal(status(0).status, 'found');
    // Off the grid: the statuses findPath gives, no error.
    assert.equal(status(1).status, 'invalid-start');
    assert.equal(status(2).status, 'invalid-goal');
    assert.equal(status(1).error, null);
    assert.deepEqual([status(1).reason, status(2).reason], ['outside', 'outside']);
    assert.equal(status(3).status, 'invalid-start');
    assert.equal(status(3).reason, 'blocked');
    const first = svc.fetchCompleted();
    const second = svc.fetchCompleted();
    assert.equal(first.length, 0);
    assert.equal(second.length, 0);
    svc.request(0, 0, 1, 1);
    await new Promise((r) => setTimeout(r, 50));
    const a = svc.fetchCompleted();
    assert.equal(a.length, 1);
    const objA = a[0];
    svc.request(0, 0, 2, 2);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(svc.fetchCompleted().length, 1);
    svc.request(0, 0, 3, 3);
    await new Promise((r) => setTimeout(r, 50));
    const c = svc.fetchCompleted();
    assert.equal(c.length, 1);
    assert.equal(c[0], objA, 'result objects are recycled');
    assert.equal(c[0].cells.length, 4);
    assert.equal(svc.stats().failed, 0, 'off-grid requests are answered, not failed');
  } finally {
    await svc.close();
  }
});

test('priorities: the player unit first; cancel answers once and drops the later result', async () => {
  const grid = maze();
  const factory = inProcess();
  const svc = new PathService(grid, { factory, workers: 1, maxBatch: 1, batchesPerWorker: 1 });
  try {
    await svc.findPath(0, 0, 1, 1); // the worker is ready
    const low = Array.from({ length: 10 }, () => svc.request(0, 0, 22, 10));
    const high = svc.request(0, 0, 22, 0, { priority: 5 });
    const cancelled = svc.request(0, 0, 22, 10);
    assert.equal(svc.cancel(cancelled), true);
    assert.equal(svc.cancel(cancelled), false);
    assert.equal(svc.cancel(999_999), false);
    const order: number[] = [];
    const got = new Map<number, ServiceResult[]>();
    const t0 = Date.now();
    while (order.length < 12 && Date.now() - t0 < 5000) {
      for (const r of svc.fetchCompleted()) {
        order.push(r.id);
        got.set(r.id, [...(got.get(r.id) ?? []), { ...r }]);
      }
      await new Promise((r) => setTimeout(r, 1));
    }
    assert.equal(order.length, 12);
    assert.equal(order[0], cancelled);
    // The first low request went out at once; the high one overtakes all the others.
    assert.ok(order.indexOf(high) <= 2, `high answered at ${order.indexOf(high)}: ${order}`);
    assert.equal(got.get(cancelled)![0].status, 'cancelled');
    assert.equal(new Set(order).size, order.length);
    assert.deepEqual(new Set(order), new Set([...low, high, cancelled]));

    // Cancelling a running request: its result, when it comes, is dropped.
    factory.ports[0].hold = true;
    const running = svc.request(0, 0, 22, 10);
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(svc.stats().running, 1);
    svc.cancel(running);
    (factory.ports[0] as unknown as { release(): void }).release();
    await new Promise((r) => setTimeout(r, 20));
    const after = svc.fetchCompleted();
    assert.deepEqual(after.map((r) => [r.id, r.status]), [[running, 'cancelled']]);
    assert.equal(svc.stats().running, 0);
  } finally {
    await svc.close();
  }
});

test('batches: a burst goes out in few messages, each answer is its own request\'s, errors and cancels stay per request', async () => {
  const grid = maze();
  const factory = inProcess();
  const svc = new PathService(grid, { factory, workers: 2 });
  const finder = new Pathfinder(grid);
  // A search that throws in the worker for start (7, 7): one request's error inside a batch.
  const findPath = Pathfinder.prototype.findPath;
  Pathfinder.prototype.findPath = function (this: Pathfinder, ...args: Parameters<Pathfinder['findPath']>) {
    if (args[0] === 7 && args[1] === 7) throw new Error('search failed for (7, 7)');
    return findPath.apply(this, args);
  };
  try {
    await svc.ready();
    const rnd = mulberry32(5);
    const asks: [number, number, number, number, number][] = [];
    for (let k = 0; k < 300; k++) {
      const layer = k % 3 === 0 ? 1 : 0;
      asks.push(k % 50 === 7 ? [7, 7, 20, 3, 0] : [Math.floor(rnd() * 23), Math.floor(rnd() * 11), Math.floor(rnd() * 23), Math.floor(rnd() * 11), layer]);
    }
    // Hold the answers back: the first batches are running when some of their requests are cancelled.
    for (const port of factory.ports) port.hold = true;
    const ids = asks.map(([sx, sy, gx, gy, layer]) => svc.request(sx, sy, gx, gy, { layer }));
    await new Promise((r) => setTimeout(r, 30));
    const running = svc.stats().running;
    assert.ok(running > 4 && running < 300, `${running} running`);
    const cancelled = new Set([ids[1], ids[2], ids[150], ids[299]]);
    for (const id of cancelled) assert.equal(svc.cancel(id), true);
    for (const port of factory.ports) (port as unknown as { release(): void }).release();
    const got = new Map<number, ServiceResult[]>();
    await drain(svc, ids, got);
    for (const [k, id] of ids.entries()) {
      const list = got.get(id)!;
      assert.equal(list.length, 1, `request ${k} answered once`);
      const r = list[0];
      if (cancelled.has(id)) {
        assert.equal(r.status, 'cancelled', `request ${k}`);
        continue;
      }
      const [sx, sy, gx, gy, layer] = asks[k];
      if (sx === 7 && sy === 7) {
        assert.equal(r.status, 'error', `request ${k}`);
        assert.match(r.error!, /search failed for \(7, 7\)/);
        continue;
      }
      const want = findPath.call(finder, sx, sy, gx, gy, { layer });
      assert.equal(r.status, want.status, `request ${k}`);
      assert.equal(r.cost, want.cost, `request ${k}`);
      if (r.status !== 'found') continue;
      // Its own path: from its start to its goal, on its layer, costing what it says.
      assert.deepEqual([r.cells[0], r.cells[r.cells.length - 1]], [sy * 23 + sx, gy * 23 + gx], `request ${k}`);
      const c = checkPath(grid, r.cells, { layer });
      assert.ok(c.valid && Math.abs(c.cost - r.cost) <= 1e-9 * r.cost, `request ${k}: ${c.problem}`);
    }
    const s = svc.stats();
    assert.equal(s.failed, asks.filter(([sx, sy], k) => sx === 7 && sy === 7 && !cancelled.has(ids[k])).length);
    assert.equal(s.cancelled, 4);
    assert.ok(s.batches * 4 <= 300, `${s.batches} messages for 300 requests`);
    assert.ok(s.busyMs > 0, 'the workers\' time answering is counted');
  } finally {
    Pathfinder.prototype.findPath = findPath;
    await svc.close();
  }
});

test('deadline: requests still waiting or running past timeoutMs are answered deadline', async () => {
  const grid = maze();
  const factory = inProcess();
  const svc = new PathService(grid, { factory, workers: 1 });
  try {
    await svc.findPath(0, 0, 1, 1);
    factory.ports[0].hold = true;
    const t0 = performance.now();
    const r = await svc.findPath(0, 0, 22, 10, { timeoutMs: 30 });
    const waited = performance.now() - t0;
    assert.equal(r.status, 'deadline');
    assert.ok(waited >= 29 && waited < 1000, `answered after ${waited} ms`);
    const ok = svc.findPath(0, 0, 22, 10, { timeoutMs: 10_000 });
    (factory.ports[0] as unknown as { release(): void }).release();
    assert.equal((await ok).status, 'found');
    assert.equal(svc.stats().deadline, 1);
    await assert.rejects(svc.findPath(0, 0, 1, 1, { timeoutMs: 0 }), (e: unknown) => e instanceof TilenavError && e.element === 'timeoutMs');
  } finally {
    await svc.close();
  }
});

test('backpressure: reject, drop-oldest of the same requester, wait', async () => {
  const grid = maze();
  for (const overflow of ['reject', 'drop-oldest', 'wait'] as const) {
    const factory = inProcess();
    const svc = new PathService(grid, { factory, workers: 1, queueLimit: 3, overflow, maxBatch: 1, batchesPerWorker: 1 });
    try {
      await svc.findPath(0, 0, 1, 1);
      if (overflow === 'wait') {
        const all = await Promise.all(Array.from({ length: 12 }, (_, i) => svc.findPath(0, 0, 22, i % 11)));
        assert.ok(all.every((r) => r.status === 'found'));
        assert.equal(svc.request(0, 0, 1, 1) > 0, true);
        continue;
      }
      // Nothing is dispatched before the microtask runs, so all six wait in the queue.
      const ids = [1, 2, 3, 4, 5, 6].map((i) => svc.request(0, 0, 22, i, { requester: i % 2 === 0 ? 'a' : 'b' }));
      const got = new Map<number, ServiceResult[]>();
      await drain(svc, ids, got);
      const st = ids.map((id) => got.get(id)![0].status);
      if (overflow === 'reject') {
        assert.deepEqual(st, ['found', 'found', 'found', 'rejected', 'rejected', 'rejected']);
        assert.equal(svc.stats().rejected, 3);
      } else {
        // 4 (a) replaces 2 (a); 5 (b) replaces 1 (b); 6 (a) replaces 4 (a).
        assert.deepEqual(st, ['dropped', 'dropped', 'found', 'dropped', 'found', 'found']);
        assert.equal(svc.stats().dropped, 3);
      }
    } finally {
      await svc.close();
    }
  }
});

test('stale results are flagged, or recomputed on the new grid', async () => {
  for (const staleResults of ['flag', 'recompute'] as const) {
    const grid = maze();
    const factory = inProcess();
    const svc = new PathService(grid, { factory, workers: 1, staleResults });
    try {
      await svc.findPath(0, 0, 1, 1);
      factory.ports[0].hold = true;
      const p = svc.findPath(0, 0, 22, 0);
      await new Promise((r) => setTimeout(r, 20));
      const v0 = grid.version;
      grid.fillRect(0, 9, 23, 2, { walkable: false });
      (factory.ports[0] as unknown as { release(): void }).release();
      const r = await p;
      if (staleResults === 'flag') {
        assert.equal(r.status, 'found');
        assert.equal(r.stale, true);
        assert.equal(r.version, v0);
      } else {
        assert.equal(r.status, 'no-path');
        assert.equal(r.stale, false);
        assert.equal(r.version, grid.version);
      }
      const fresh = await svc.findPath(0, 0, 1, 1, { minVersion: grid.version });
      assert.equal(fresh.stale, false);
    } finally {
      await svc.close();
    }
  }
});

test('a worker that dies: its requests re-run elsewhere, or fail as configured; a pool that cannot start gives up', async () => {
  const grid = maze();
  let crashes = 2;
  const retry = new PathService(grid, { factory: inProcess({ failOnRun: () => crashes-- > 0 }), workers: 1 });
  const fail = new PathService(grid, { factory: inProcess({ failOnRun: () => true }), workers: 1, onWorkerFailure: 'fail' });
  const never = new PathService(grid, { factory: inProcess({ failAtStart: true }), workers: 2 });
  try {
    const r = await retry.findPath(0, 0, 22, 10);
    assert.equal(r.status, 'found');
    assert.equal(retry.stats().restarts, 2);
    const f = await fail.findPath(0, 0, 22, 10);
    assert.equal(f.status, 'error');
    assert.match(f.error!, /worker failed: simulated crash/);
    const n = await never.findPath(0, 0, 22, 10);
    assert.equal(n.status, 'error');
    assert.match(n.error!, /cannot start/);
    assert.equal((await never.findPath(0, 0, 1, 1)).status, 'error');
    // ready() says so too, instead of resolving as if the pool were working.
    await assert.rejects(never.ready(), (e: Error) => e.name === 'TilenavError' && /workers: the workers cannot start/.test(e.message));
  } finally {
    await Promise.all([retry.close(), fail.close(), never.close()]);
  }
});

test('close answers everything pending once, then requests throw', async () => {
  const grid = maze();
  const factory = inProcess();
  const svc = new PathService(grid, { factory, workers: 1, maxBatch: 2, batchesPerWorker: 1 });
  await svc.findPath(0, 0, 1, 1);
  factory.ports[0].hold = true;
  const ids = Array.from({ length: 8 }, () => svc.request(0, 0, 22, 10));
  const promised = svc.findPath(0, 0, 22, 0);
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(svc.stats().running, 2);
  await svc.close();
  const answers = svc.fetchCompleted();
  assert.deepEqual(answers.map((r) => r.id).sort((a, b) => a - b), ids);
  assert.ok(answers.every((r) => r.status === 'cancelled'));
  assert.equal((await promised).status, 'cancelled');
  assert.deepEqual([svc.stats().queued, svc.stats().running], [0, 0]);
  assert.throws(() => svc.request(0, 0, 1, 1), /closed/);
  await assert.rejects(svc.findPath(0, 0, 1, 1), (e: unknown) => e instanceof TilenavError && /closed/.test(e.message));
});

test('a real worker that throws (uncaught) is replaced and its request re-run', async () => {
  const grid = maze();
  const base = nodeWorkerFactory();
  const ports: NodeWorkerPort[] = [];
  const svc = new PathService(grid, {
    factory: () => {
      const p = base() as NodeWorkerPort;
      ports.push(p);
      return p;
    },
    workers: 1,
  });
  try {
    await svc.ready();
    const pending = svc.findPath(0, 0, 22, 10);
    // A malformed message makes the worker's handler throw outside any try: the thread dies.
    ports[0].worker.postMessage({ t: 'run', batch: -1, data: null });
    const r = await pending;
    assert.equal(r.status, 'found');
    assert.equal(svc.stats().restarts, 1);
    assert.equal(ports.length, 2);
    assert.equal((await svc.findPath(0, 0, 1, 1)).status, 'found');
  } finally {
    await svc.close();
  }
});

test('soak: workers killed at random during a burst; every request answered exactly once, every path valid', async () => {
  const grid = parseMovingAiMap(readFileSync(MAP, 'utf8')).grid;
  const queries = parseScenario(readFileSync(SCEN, 'utf8')).filter((q) => q.bucket < 30);
  const base = nodeWorkerFactory();
  // Only workers that have started are killed: a pool whose workers all die while starting gives up.
  const ports: { port: NodeWorkerPort; started: boolean }[] = [];
  const factory: WorkerFactory = () => {
    const port = base() as NodeWorkerPort;
    const entry = { port, started: false };
    ports.push(entry);
    return {
      ...port,
      start: (onMessage, onFailure) =>
        port.start((m) => {
          entry.started = true;
          onMessage(m);
        }, onFailure),
    };
  };
  const svc = new PathService(grid, { factory, workers: 2, maxAttempts: 4, maxBatch: 8 });
  const finder = new Pathfinder(grid);
  const rand = mulberry32(12345);
  let kills = 0;
  const killer = setInterval(() => {
    const live = ports.filter((p) => p.started && p.port.worker.threadId > 0);
    if (kills >= 8 || live.length === 0) return;
    kills++;
    void live[Math.floor(rand() * live.length)].port.worker.terminate();
  }, 100);
  try {
    const ids: number[] = [];
    const asked = new Map<number, (typeof queries)[number]>();
    for (let k = 0; k < 3000; k++) {
      const q = queries[Math.floor(rand() * queries.length)];
      const id = svc.request(q.startX, q.startY, q.goalX, q.goalY);
      ids.push(id);
      asked.set(id, q);
      if (k % 250 === 0) await new Promise((r) => setTimeout(r, 20));
    }
    const got = new Map<number, ServiceResult[]>();
    await drain(svc, ids, got, 40_000);
    clearInterval(killer);
    await new Promise((r) => setTimeout(r, 50));
    for (const r of svc.fetchCompleted()) got.get(r.id)!.push(r);
    let found = 0;
    for (const id of ids) {
      const answers = got.get(id)!;
      assert.equal(answers.length, 1, `id ${id} answered ${answers.length} times`);
      const r = answers[0];
      assert.ok(r.status === 'found' || r.status === 'error', `id ${id}: ${r.status}`);
      if (r.status === 'found') {
        found++;
        const q = asked.get(id)!;
        assert.equal(checkPath(grid, r.cells).valid, true);
        assert.equal(r.cost, finder.findPath(q.startX, q.startY, q.goalX, q.goalY).cost);
      } else {
        assert.match(r.error!, /worker/);
      }
    }
    const s = svc.stats();
    assert.ok(s.restarts >= 3, `only ${s.restarts} restarts`);
    assert.ok(found > ids.length * 0.9, `${found} of ${ids.length} found`);
    assert.equal(s.done + s.failed, ids.length);
  } finally {
    clearInterval(killer);
    await svc.close();
  }
});

test('the Web Worker adapter: ports over MessageChannel stand in for browser workers', async () => {
  const { createPathService: createWebService } = await import('../src/service/web.js');
  const made: MessagePort[] = [];
  const fakeWorker = () => {
    const { port1, port2 } = new MessageChannel();
    serveWorker({ post: (m, transfer) => port2.postMessage(m, transfer), listen: (h) => port2.addEventListener('message', (e) => h((e as unknown as { data: never }).data)) });
    port2.start();
    // As web-worker.js does once its script has loaded: the page holds the grid back until then.
    port2.postMessage(WORKER_LOADED);
    made.push(port1, port2);
    return {
      postMessage: (m: unknown, transfer: ArrayBuffer[]) => port1.postMessage(m, transfer),
      addEventListener: (type: string, listener: (e: { data?: unknown }) => void) => {
        port1.addEventListener(type, listener as never);
        port1.start();
      },
      terminate: () => {
        port1.close();
        port2.close();
      },
    };
  };
  const grid = maze();
  const svc = createWebService(grid, { workers: 2, createWorker: fakeWorker as never });
  try {
    assert.equal(svc.stats().workers, 2);
    const r = await svc.findPath(0, 0, 22, 10);
    assert.equal(r.status, 'found');
    assert.equal(r.cost, new Pathfinder(grid).findPath(0, 0, 22, 10).cost);
  } finally {
    await svc.close();
    for (const p of made) p.close();
  }
});

test('where no worker can start, ready() rejects with what was tried and how to fix it; requests answer error', async () => {
  // Node has no Web Worker and the sources carry no bundled worker text: both ways fail, as under a CSP.
  const { createPathService: createWebService } = await import('../src/service/web.js');
  const svc = createWebService(maze(), { workers: 1 });
  try {
    await assert.rejects(svc.ready(), (e: Error) => {
      assert.equal(e.name, 'TilenavError');
      assert.match(e.message, /the workers cannot start/);
      assert.match(e.message, /web-worker\.js beside tilenav\/service: ReferenceError/);
      assert.match(e.message, /blob: URL: .*not built/);
      assert.match(e.message, /worker-src 'self' blob:/);
      return true;
    });
    const r = await svc.findPath(0, 0, 1, 1);
    assert.equal(r.status, 'error');
  } finally {
    await svc.close();
  }
});
