import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from './helpers-cli.js';
import { fixture } from './fixtures.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ARENA = join(ROOT, 'examples', 'arena.map');
/** A 58 x 47 Tiled map whose layers say nothing about what blocks: it loads all walkable, with a warning. */
const ISLAND = fixture('tiled/tiled-examples/rpg/island.tmx');
const RULES = join(ROOT, 'examples', 'island.rules.json');
const NOTHING_BLOCKS = /^warning: .*says which tiles block/;

/** Runs `fn` with a fresh temporary folder, removed afterwards. */
async function inTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tilenav-warn-'));
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("path, render, simulate, scen and convert print the loader's warnings on stderr, once each", async () => {
  await inTemp(async (dir) => {
    const scen = join(dir, 'island.scen');
    writeFileSync(scen, `version 1\n0\tisland.tmx\t58\t47\t10\t25\t40\t20\t${25 + 5 * Math.SQRT2}\n`);
    const runs = {
      path: ['path', ISLAND, '--from', '10,25', '--to', '40,20'],
      'path --json': ['path', ISLAND, '--from', '10,25', '--to', '40,20', '--json'],
      render: ['render', ISLAND, '--from', '10,25', '--to', '40,20', '--out', join(dir, 'island.png'), '--overlay-only'],
      simulate: ['simulate', ISLAND, '--units', '3', '--from', '10,25', '--to', '40,20', '--json'],
      scen: ['scen', ISLAND, scen, '--json'],
      convert: ['convert', ISLAND, join(dir, 'island.tnav')],
    };
    for (const [name, argv] of Object.entries(runs)) {
      const r = await runCli(...argv);
      assert.equal(r.code, 0, `${name}: ${r.err.join('\n')}`);
      assert.equal(r.err.filter((l) => NOTHING_BLOCKS.test(l)).length, 1, `${name} stderr: ${r.err.join('\n')}`);
      assert.ok(!r.out.some((l) => /warning/.test(l)), `${name}: stdout stays the command's own output`);
    }
    // The --json line is still the whole of stdout's last line, the warning kept out of it.
    const json = await runCli(...runs['path --json']);
    assert.equal(JSON.parse(json.out[json.out.length - 1]).status, 'found');
  });
});

test('path on the island without rules walks out to sea and says why on stderr; with --rules the sea blocks, without a warning', async () => {
  // (40, 2) is open sea: only the rules file says so.
  const bare = await runCli('path', ISLAND, '--from', '40,20', '--to', '40,2', '--json');
  assert.equal(bare.code, 0);
  const r = JSON.parse(bare.out[bare.out.length - 1]);
  assert.equal(r.status, 'found');
  assert.equal(r.cells.length, 19, 'a straight line: nothing blocks');
  assert.equal(bare.err.length, 1);
  assert.match(bare.err[0], /^warning: .*rules file \(the rules option, or --rules FILE\)/);

  const ruled = await runCli('path', ISLAND, '--from', '40,20', '--to', '40,2', '--rules', RULES, '--json');
  assert.equal(ruled.code, 0, ruled.err.join('\n'));
  assert.equal(JSON.parse(ruled.out[ruled.out.length - 1]).status, 'invalid-goal');
  assert.deepEqual(ruled.err, []);
});

test('info keeps listing the warnings in its own report (text and --json), not again on stderr', async () => {
  const text = await runCli('info', ISLAND);
  assert.equal(text.code, 0);
  assert.ok(text.out.some((l) => /^ {2}warning: .*says which tiles block/.test(l)), text.out.join('\n'));
  assert.deepEqual(text.err, []);
  const json = await runCli('info', ISLAND, '--json');
  assert.ok(JSON.parse(json.out[0]).warnings.some((w: string) => /says which tiles block/.test(w)));
  assert.deepEqual(json.err, []);
});

test('a map that loads without warnings leaves stderr empty', async () => {
  const r = await runCli('path', ARENA, '--from', '2,2', '--to', '57,18', '--json');
  assert.equal(r.code, 0);
  assert.deepEqual(r.err, []);
});
