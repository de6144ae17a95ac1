import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hypot } from '../src/agents/hypot.js';

// The agents' step uses its own hypot to keep from allocating; positions must not change, so it
// has to give Math.hypot's answer to the last bit, including the special values.
test('the agents hypot equals Math.hypot bit for bit, special values included', () => {
  const specials = [0, -0, 1, -1, 0.5, Infinity, -Infinity, NaN, Number.MIN_VALUE, Number.MAX_VALUE, 1e-300, 1e300, 3, 4];
  for (const x of specials) for (const y of specials) assert.ok(Object.is(hypot(x, y), Math.hypot(x, y)), `hypot(${x}, ${y})`);
  let s = 1;
  const rnd = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
  for (let k = 0; k < 200_000; k++) {
    const scale = 10 ** Math.floor(rnd() * 12 - 6);
    const x = (rnd() - 0.5) * scale * 1000;
    const y = (rnd() - 0.5) * (rnd() < 0.5 ? scale : 1) * 1000;
    assert.ok(Object.is(hypot(x, y), Math.hypot(x, y)), `hypot(${x}, ${y})`);
  }
});
