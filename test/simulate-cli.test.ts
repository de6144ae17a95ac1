import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { main } from '../src/cli/main.js';
import type { CliIo } from '../src/cli/io.js';

function capture(): CliIo & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (l) => lines.push(l), err: (l) => errors.push(l), columns: undefined, errIsTty: false };
}

const arena = fileURLToPath(new URL('../examples/arena.map', import.meta.url));

test('tilenav simulate: a group crosses the arena; the JSON last line has the summary', async () => {
  const io = capture();
  const code = await main(['simulate', arena, '--units', '12', '--from', '3,3', '--to', '50,15', '--json'], io);
  assert.equal(code, 0, io.errors.join('\n'));
  const r = JSON.parse(io.lines[io.lines.length - 1]);
  for (const k of ['units', 'arrived', 'unreachable', 'steps', 'planMs', 'stepMsMean', 'maxOverlap']) assert.ok(k in r, `missing ${k}`);
  assert.equal(r.units, 12);
  assert.equal(r.arrived + r.unreachable + r.blocked, 12);
  assert.ok(r.arrived >= 10);
  assert.ok(r.maxOverlap < 0.3);
});

test('tilenav simulate: bad flags name the flag, exit 2', async () => {
  const io = capture();
  assert.equal(await main(['simulate', arena, '--units', 'many', '--from', '3,3', '--to', '50,15'], io), 2);
  assert.match(io.errors[0], /--units/);
  const io2 = capture();
  assert.equal(await main(['simulate', arena, '--units', '3', '--from', '3,3', '--to', '500,15'], io2), 2);
  assert.match(io2.errors[0], /--to/);
});

test('tilenav simulate: 50 units cross AcrosstheCape corner to corner and every one arrives', async () => {
  // The whole map: a flow field along a corridor around the route, a crowd at the goal's corner.
  const io = capture();
  const map = fileURLToPath(new URL('./fixtures/movingai/AcrosstheCape.map', import.meta.url));
  const code = await main(['simulate', map, '--units', '50', '--from', '666,737', '--to', '10,5', '--json'], io);
  assert.equal(code, 0, io.errors.join('\n'));
  const r = JSON.parse(io.lines[io.lines.length - 1]);
  assert.equal(r.mode, 'flow');
  assert.deepEqual({ arrived: r.arrived, blocked: r.blocked, unreachable: r.unreachable, stillMoving: r.stillMoving }, { arrived: 50, blocked: 0, unreachable: 0, stillMoving: 0 });
  assert.ok(r.maxOverlap < 0.5, `deepest overlap ${r.maxOverlap}`);
  // Timings are reported, never asserted: the machine may be shared.
  assert.equal(typeof r.planMs, 'number');
  assert.equal(typeof r.prepareMs, 'number');
});
