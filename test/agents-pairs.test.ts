import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AgentStore } from '../src/agents/store.js';
import { NearPairs } from '../src/agents/pairs.js';
import { DEFAULT_NAVIGATION_OPTIONS } from '../src/agents/index.js';

/** Every pair of active agents on one layer whose discs overlap now, as "i,j" with i < j. */
function overlapping(a: AgentStore): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < a.count; i++) {
    for (let j = i + 1; j < a.count; j++) {
      if (!a.has(i) || !a.has(j) || a.layer[i] !== a.layer[j]) continue;
      if (Math.hypot(a.x[j] - a.x[i], a.y[j] - a.y[i]) < a.radius[i] + a.radius[j]) out.add(`${i},${j}`);
    }
  }
  return out;
}

/** The pairs of the list, as "i,j"; fails on a pair listed twice or not in id order. */
function listed(p: NearPairs): Set<string> {
  const out = new Set<string>();
  for (let k = 0; k < p.count; k++) {
    assert.ok(p.first[k] < p.second[k], `pair ${p.first[k]},${p.second[k]} out of order`);
    const key = `${p.first[k]},${p.second[k]}`;
    assert.ok(!out.has(key), `pair ${key} listed twice`);
    out.add(key);
  }
  return out;
}

test('near pairs: every overlapping pair is listed once, after moves, removals, layer changes and radius changes; a change to the agents renews the list', () => {
  const agent = fc.record({ x: fc.double({ min: -3, max: 12, noNaN: true }), y: fc.double({ min: -3, max: 9, noNaN: true }), r: fc.constantFrom(0.2, 0.35, 0.5, 1.2), layer: fc.constantFrom(0, 0, 0, 1) });
  const move = fc.record({ id: fc.nat(), dx: fc.double({ min: -0.4, max: 0.4, noNaN: true }), dy: fc.double({ min: -0.4, max: 0.4, noNaN: true }), kind: fc.constantFrom('move', 'move', 'move', 'remove', 'layer', 'radius') });
  fc.assert(
    fc.property(fc.array(agent, { minLength: 2, maxLength: 60 }), fc.array(fc.array(move, { maxLength: 8 }), { maxLength: 10 }), (agents, rounds) => {
      const store = new AgentStore(DEFAULT_NAVIGATION_OPTIONS);
      for (const s of agents) {
        const id = store.add({ x: s.x, y: s.y, radius: s.r });
        store.layer[id] = s.layer;
      }
      const pairs = new NearPairs();
      pairs.update(store);
      // Each agent's layer, radius and presence at the last build.
      const state = () => Array.from({ length: store.count }, (_, i) => `${store.has(i)} ${store.layer[i]} ${store.radius[i]}`).join();
      let built = state();
      for (const round of rounds) {
        for (const m of round) {
          const id = m.id % store.count;
          if (!store.has(id)) continue;
          if (m.kind === 'remove') store.remove(id);
          else if (m.kind === 'layer') store.layer[id] = 1 - store.layer[id];
          else if (m.kind === 'radius') store.radius[id] += 0.1;
          else {
            store.x[id] += m.dx;
            store.y[id] += m.dy;
          }
        }
        const builds = pairs.builds;
        pairs.update(store);
        const list = listed(pairs);
        for (const key of overlapping(store)) assert.ok(list.has(key), `overlapping pair ${key} not listed`);
        // Nobody moved: the list stands; an agent removed, resized or on another layer renews it.
        if (round.length === 0) assert.equal(pairs.builds, builds);
        if (state() !== built) assert.equal(pairs.builds, builds + 1);
        if (pairs.builds !== builds) built = state();
      }
    }),
    { numRuns: 200 },
  );
});

test('near pairs: agents still since the last build keep the list; one moved more than half the skin renews it', () => {
  const store = new AgentStore(DEFAULT_NAVIGATION_OPTIONS);
  for (let k = 0; k < 10; k++) store.add({ x: k * 0.6, y: 0 });
  const pairs = new NearPairs();
  pairs.update(store);
  assert.equal(pairs.builds, 1);
  // Neighbours 0.6 apart: within two radii (0.7) plus the skin; two apart (1.2) are not.
  assert.equal(pairs.count, 9);
  pairs.update(store);
  assert.equal(pairs.builds, 1);
  store.x[3] += 0.1;
  pairs.update(store);
  assert.equal(pairs.builds, 1, 'a move under half the skin keeps the list');
  store.x[3] += 0.1;
  pairs.update(store);
  assert.equal(pairs.builds, 2, 'a move past half the skin renews it');
  store.remove(4);
  pairs.update(store);
  assert.equal(pairs.builds, 3);
  assert.deepEqual([...listed(pairs)].sort(), ['0,1', '1,2', '2,3', '5,6', '6,7', '7,8', '8,9']);
});
