import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LazyNodeHeap, MonotoneQueue, NodeHeap } from '../src/search/kernel/heap.js';

/** Dijkstra with the queue (lazy deletion, as the hierarchy runs it) on a random graph. */
function withQueue(n: number, edges: [number, number, number][], lo: number, hi: number): Float64Array {
  const dist = new Float64Array(n).fill(Infinity);
  const done = new Uint8Array(n);
  const q = new MonotoneQueue();
  q.reset(lo, hi);
  dist[0] = 0;
  q.push(0, 0);
  let last = 0;
  while (q.size > 0) {
    const p = q.pop();
    // Entries come out by key, stale ones included; within one bucket (lo wide) in any order.
    assert.ok(q.key > last - lo - 1e-9, `key ${q.key} after ${last}`);
    last = q.key;
    if (done[p] === 1 || q.key > dist[p]) continue;
    done[p] = 1;
    for (const [a, b, w] of edges) {
      if (a !== p || done[b] === 1 || dist[p] + w >= dist[b]) continue;
      dist[b] = dist[p] + w;
      q.push(b, dist[b]);
    }
  }
  return dist;
}

/** Plain O(n^2) Dijkstra, the reference. */
function reference(n: number, edges: [number, number, number][]): Float64Array {
  const dist = new Float64Array(n).fill(Infinity);
  const done = new Uint8Array(n);
  dist[0] = 0;
  for (;;) {
    let p = -1;
    for (let i = 0; i < n; i++) if (done[i] === 0 && dist[i] < Infinity && (p < 0 || dist[i] < dist[p])) p = i;
    if (p < 0) return dist;
    done[p] = 1;
    for (const [a, b, w] of edges) if (a === p && dist[p] + w < dist[b]) dist[b] = dist[p] + w;
  }
}

test('MonotoneQueue: Dijkstra distances equal a plain Dijkstra, in bucket mode and in heap mode', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 40 }),
      // Cost ratio: small (Dial's buckets) or past MAX_RING (the binary heap).
      fc.constantFrom(3, 50, 1000, 100_000),
      fc.array(fc.tuple(fc.nat(), fc.nat(), fc.double({ min: 0, max: 1, noNaN: true })), { maxLength: 200 }),
      (n, ratio, raw) => {
        const lo = 0.5;
        const hi = lo * ratio;
        const edges = raw.map(([a, b, t]): [number, number, number] => [a % n, b % n, lo + t * (hi - lo)]);
        const got = withQueue(n, edges, lo, hi);
        const want = reference(n, edges);
        for (let i = 0; i < n; i++) {
          if (want[i] === Infinity) assert.equal(got[i], Infinity);
          else assert.ok(Math.abs(got[i] - want[i]) <= 1e-9 * want[i], `node ${i}: ${got[i]} vs ${want[i]}`);
        }
      },
    ),
    { numRuns: 300 },
  );
});

test('MonotoneQueue: many equal keys, a growing pool, reuse after reset', () => {
  const q = new MonotoneQueue();
  for (const [lo, hi] of [
    [1, 10],
    [1, 1e6],
    [1, 10],
  ]) {
    q.reset(lo, hi);
    // Five thousand entries (the pool grows), keys 0..9 (within hi of the first), 500 per key.
    for (let i = 0; i < 5000; i++) q.push(i, (i * 7) % 10);
    const seen = new Set<number>();
    let last = -1;
    while (q.size > 0) {
      const node = q.pop();
      assert.ok(q.key >= last, `key ${q.key} after ${last}`);
      assert.equal(q.key, (node * 7) % 10);
      last = q.key;
      seen.add(node);
    }
    assert.equal(seen.size, 5000);
  }
});

test('NodeHeap: pops by f, then higher g, then lower id, through pushes, key decreases and growth; before() says whether a new entry would come out first; pushPop() pops what a push then a pop would', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat(39), fc.nat(5), fc.nat(3), fc.nat(2)), { minLength: 1, maxLength: 300 }), (ops) => {
      const heap = new NodeHeap(40);
      const f = new Float64Array(40);
      const g = new Float64Array(40);
      const queued = new Set<number>();
      const before = (a: number, b: number) => f[a] < f[b] || (f[a] === f[b] && (g[a] > g[b] || (g[a] === g[b] && a < b)));
      for (const [node, fk, gk, op] of ops) {
        if (op === 0 && queued.size > 0) {
          let want = -1;
          for (const n of queued) if (want === -1 || before(n, want)) want = n;
          assert.equal(heap.pop(), want);
          queued.delete(want);
        } else if (op === 1 && !queued.has(node)) {
          f[node] = fk * 0.5;
          g[node] = gk;
          let want = node;
          for (const n of queued) if (before(n, want)) want = n;
          assert.equal(heap.pushPop(node, f[node], g[node]), want);
          queued.add(node);
          queued.delete(want);
        } else if (!queued.has(node)) {
          // Keys on a coarse grid, so that ties in f and in g are common.
          f[node] = fk * 0.5;
          g[node] = gk;
          let first = true;
          for (const n of queued) if (!before(node, n)) first = false;
          assert.equal(heap.before(node, f[node], g[node]), first);
          heap.push(node, f[node], g[node]);
          queued.add(node);
        } else if (fk * 0.5 < f[node]) {
          f[node] = fk * 0.5;
          g[node] = gk;
          heap.decrease(node, f[node], g[node]);
        }
        assert.equal(heap.size, queued.size);
      }
    }),
    { numRuns: 300 },
  );
});

test('LazyNodeHeap: with stale entries skipped, pops the nodes NodeHeap pops, in its order, through re-pushes and growth', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat(299), fc.nat(5), fc.nat(3), fc.nat(2)), { minLength: 1, maxLength: 600 }), (ops) => {
      const heap = new NodeHeap(300);
      const lazy = new LazyNodeHeap();
      const queued = new Set<number>();
      const f = new Float64Array(300);
      const done = new Uint8Array(300);
      for (const [node, fk, gk, op] of ops) {
        if (op === 0 && queued.size > 0) {
          const want = heap.pop();
          queued.delete(want);
          let got = lazy.pop();
          // An entry whose node was re-pushed with a lower key, or already popped, is stale.
          while (done[got] === 1) got = lazy.pop();
          assert.equal(got, want);
          done[got] = 1;
        } else if (done[node] === 0 && !queued.has(node)) {
          f[node] = fk * 0.5;
          heap.push(node, f[node], gk);
          lazy.push(node, f[node], gk);
          queued.add(node);
        } else if (done[node] === 0 && fk * 0.5 < f[node]) {
          f[node] = fk * 0.5;
          heap.decrease(node, f[node], gk);
          lazy.push(node, f[node], gk);
        }
      }
      // What is left comes out in the same order too.
      while (heap.size > 0) {
        const want = heap.pop();
        let got = lazy.pop();
        while (done[got] === 1) got = lazy.pop();
        assert.equal(got, want);
        done[got] = 1;
      }
    }),
    { numRuns: 300 },
  );
});
