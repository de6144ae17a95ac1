import { test } from 'node:test';
import assert from 'node:assert/strict';
import { main } from '../src/cli/main.js';
import { fixture } from './fixtures.js';

const maze = fixture('movingai/maze-100-1.map');
const cape = fixture('movingai/AcrosstheCape.map');

async function run(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l), columns: undefined, errIsTty: false });
  return { code, out, err };
}

test('tilenav path --smooth --json adds waypoints (cell centres) and their Euclidean length', async () => {
  const { code, out } = await run(['path', cape, '--from', '690,726', '--to', '697,589', '--smooth', '--json']);
  assert.equal(code, 0);
  const d = JSON.parse(out[0]);
  assert.equal(d.status, 'found');
  assert.deepEqual(d.waypoints[0], [690, 726]);
  assert.deepEqual(d.waypoints.at(-1), [697, 589]);
  let len = 0;
  for (let k = 1; k < d.waypoints.length; k++) len += Math.hypot(d.waypoints[k][0] - d.waypoints[k - 1][0], d.waypoints[k][1] - d.waypoints[k - 1][1]);
  assert.ok(Math.abs(len - d.length) < 1e-9);
  assert.ok(d.length <= d.cost + 1e-9);
});

test('tilenav path --any-angle is no longer than --smooth; --radius costs more; --world prints world points', async () => {
  const base = ['path', cape, '--from', '690,726', '--to', '697,589', '--json'];
  const smooth = JSON.parse((await run([...base, '--smooth'])).out[0]);
  const any = JSON.parse((await run([...base, '--any-angle'])).out[0]);
  const wide = JSON.parse((await run([...base, '--radius', '1.5'])).out[0]);
  const world = JSON.parse((await run([...base, '--smooth', '--world'])).out[0]);
  assert.equal(any.status, 'found');
  // Theta* is not an optimal any-angle search: a smoothed path can beat it slightly (the smoothed
  // JPS path, the default search, does here: 195.68 against 195.86).
  assert.ok(any.length <= smooth.length * 1.01, `any-angle ${any.length}, smoothed ${smooth.length}`);
  assert.ok(wide.cost > smooth.cost);
  assert.deepEqual(world.world[0], [690.5, 726.5, 0]);
  const bad = await run([...base, '--radius', '-1']);
  assert.equal(bad.code, 2);
  assert.match(bad.err[0], /--radius/);
});

test('tilenav path --nearest says partial when it stops short of a walled-off goal', async () => {
  // (1,1) is open in the maze; (0,4) is its border wall, so --to a wall cell gives partial.
  const { out } = await run(['path', maze, '--from', '1,1', '--to', '0,4', '--nearest', '--json']);
  const d = JSON.parse(out[0]);
  assert.equal(d.status, 'partial');
  assert.ok(d.cells.length >= 1);
  const [x, y] = d.cells.at(-1);
  assert.deepEqual([x, y], [1, 4], 'the open cell beside the wall goal');
  const plain = JSON.parse((await run(['path', maze, '--from', '1,1', '--to', '0,4', '--json'])).out[0]);
  assert.equal(plain.status, 'invalid-goal');
});
