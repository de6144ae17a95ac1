import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from './helpers-cli.js';
import { fixture } from './fixtures.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAPS = fixture('movingai/');
const ARENA = join(ROOT, 'examples', 'arena.map');

const run = runCli;

const lastJson = (lines: string[]) => JSON.parse(lines[lines.length - 1]);

test('path --json: the last stdout line is { status, cost, cells, expanded, micros }', async () => {
  const r = await run('path', ARENA, '--from', '2,2', '--to', '57,18', '--json');
  assert.equal(r.code, 0);
  const j = lastJson(r.out);
  assert.equal(j.status, 'found');
  assert.ok(Math.abs(j.cost - 62.799) < 1e-3, `cost ${j.cost}`);
  assert.deepEqual(j.cells[0], [2, 2]);
  assert.deepEqual(j.cells[j.cells.length - 1], [57, 18]);
  assert.ok(j.expanded > 0 && Number.isInteger(j.micros));
});

test('path draws the map with the path in ASCII when it fits', async () => {
  const r = await run('path', ARENA, '--from', '2,2', '--to', '57,18');
  assert.equal(r.code, 0);
  assert.equal(r.out[0], 'status: found');
  const art = r.out.filter((l) => /^[.#*SG]+$/.test(l));
  assert.equal(art.length, 21);
  assert.ok(art[2].includes('S') && art[18].includes('G'));
  assert.ok(art.join('').split('*').length - 1 >= 50, 'the path is drawn');
});

test('path with no route says no-path and exits 0; other movement models and layers work', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tilenav-'));
  const file = join(dir, 'split.map');
  writeFileSync(file, 'type octile\nheight 3\nwidth 5\nmap\n..@..\n..@..\n..@..\n');
  const r = await run('path', file, '--from', '0,0', '--to', '4,2', '--json');
  assert.equal(r.code, 0);
  assert.deepEqual(lastJson(r.out), { ...lastJson(r.out), status: 'no-path', cost: null, cells: [] });
  const c = await run('path', ARENA, '--from', '2,2', '--to', '5,5', '--movement', 'cardinal', '--layer', 'Ground', '--json');
  assert.equal(lastJson(c.out).cost, 6);
});

test('scen --json on a real map: every query optimal, the summary has the required fields', async () => {
  const r = await run('scen', join(MAPS, 'rmtst01.map'), join(MAPS, 'rmtst01.map.scen'), '--json');
  assert.equal(r.code, 0, r.err.join('\n'));
  const j = lastJson(r.out);
  for (const k of ['map', 'queries', 'solved', 'optimal', 'invalid', 'meanUs', 'medianUs', 'p95Us', 'buildMs']) assert.ok(k in j, k);
  assert.equal(j.queries, 470);
  assert.equal(j.optimal, 470);
  assert.equal(j.invalid, 0);
  // The text says why 2 of the 470 optimal answers are not paths.
  const t = await run('scen', join(MAPS, 'rmtst01.map'), join(MAPS, 'rmtst01.map.scen'));
  assert.equal(t.out[0], 'rmtst01.map: 470 queries, 470 optimal (468 paths found and 2 no-path where the scenario has no path), 0 invalid');
});

test('scen exits 1 when an answer disagrees with the file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tilenav-'));
  const scen = join(dir, 'wrong.scen');
  writeFileSync(scen, 'version 1\n0\tarena.map\t60\t21\t2\t2\t5\t2\t3\n0\tarena.map\t60\t21\t2\t2\t6\t2\t99\n');
  const r = await run('scen', ARENA, scen, '--json');
  assert.equal(r.code, 1);
  assert.equal(lastJson(r.out).optimal, 1);
  assert.match(r.err[0], /line 3: cost 4 but optimal is 99/);
});

test('scen with another movement model checks against our own Dijkstra', async () => {
  const r = await run('scen', join(MAPS, 'room-100-10.map'), join(MAPS, 'room-100-10.map.scen'), '--movement', 'cardinal', '--json');
  assert.equal(r.code, 0, r.err.join('\n'));
  assert.equal(lastJson(r.out).optimal, 420);
});

test('info --json: size, projection and walkable / blocked per layer', async () => {
  const r = await run('info', join(MAPS, 'rmtst01.map'), '--json');
  assert.equal(r.code, 0);
  const j = lastJson(r.out);
  assert.equal(j.width, 182);
  assert.equal(j.height, 50);
  assert.equal(j.projection, 'orthogonal');
  assert.equal(j.layers.length, 1);
  assert.equal(j.layers[0].name, 'Ground');
  assert.equal(j.layers[0].walkable + j.layers[0].blocked, 9100);
  assert.equal(j.layers[0].walkable, 5623);
});

test('info --json: the bundled Tiled example (the demo default map) loads with two layers, terrain and no warnings', async () => {
  const r = await run('info', join(ROOT, 'examples', 'frontier.tmx'), '--json');
  assert.equal(r.code, 0, r.err.join('\n'));
  const j = lastJson(r.out);
  assert.equal(j.format, 'tiled orthogonal');
  assert.deepEqual([j.width, j.height], [64, 40]);
  assert.deepEqual(j.layers.map((l: { name: string }) => l.name), ['Ground', 'Sky']);
  assert.deepEqual(j.warnings, []);
  // Walls and lava block the ground; only the towers block the sky.
  assert.ok(j.layers[0].blocked > j.layers[1].blocked && j.layers[1].blocked > 0, JSON.stringify(j.layers));
  const p = await run('path', join(ROOT, 'examples', 'frontier.tmx'), '--from', '2,2', '--to', '61,37', '--json');
  assert.equal(lastJson(p.out).status, 'found');
  // The Sky layer has its own walls (a line of towers): another route on the same map.
  const sky = lastJson((await run('path', join(ROOT, 'examples', 'frontier.tmx'), '--from', '2,2', '--to', '61,37', '--layer', '1', '--json')).out);
  assert.equal(sky.status, 'found');
  assert.notDeepEqual(sky.cells, lastJson(p.out).cells, 'the Sky route differs from the Ground one');
});

test('bad input exits 2 with one line naming the file, the line or the flag', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tilenav-'));
  const broken = join(dir, 'broken.map');
  writeFileSync(broken, 'type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n');
  mkdirSync(join(dir, 'folder.map'));
  const cases: [string[], RegExp][] = [
    [['path', broken, '--from', '0,0', '--to', '1,1'], /broken\.map:6: unknown terrain character "x"/],
    [['path', join(dir, 'missing.map'), '--from', '0,0', '--to', '1,1'], /missing\.map: cannot read the file \(ENOENT: no such file or directory\)/],
    [['path', ARENA, '--from', '0,0'], /--to: is required/],
    [['path', ARENA, '--from', 'a,b', '--to', '1,1'], /--from: expected x,y/],
    [['path', ARENA, '--from', '0,0', '--to', '100,1'], /--to: \(100, 1\) is outside the 60 x 21 map/],
    [['path', ARENA, '--from', '1,1', '--to', '2,2', '--movement', 'warp'], /--movement: unknown value 'warp'; expected one of cardinal, octile/],
    [['path', ARENA, '--from', '1,1', '--to', '2,2', '--layer', 'Sky'], /unknown layer/],
    [['path', ARENA, '--from', '1,1', '--to', '2,2', '--frob'], /unknown flag '--frob'/],
    [['path', join(dir, 'x.png'), '--from', '1,1', '--to', '2,2'], /cannot tell the map format/],
    [['scen', ARENA, join(MAPS, 'rmtst01.map.scen')], /is for a 182 x 50 map, but arena\.map is 60 x 21/],
    [['scen', ARENA, ARENA], /arena\.map:1: expected the first line "version 1"/],
    [['scen', ARENA, join(MAPS, 'rmtst01.map.scen'), '--algorithm', 'magic'], /--algorithm: unknown value 'magic'; expected one of auto, astar, jps, jps\+, hpa/],
    [['info', join(dir, 'folder.map')], /folder\.map: is a directory/],
    [['path', ARENA, '--from', '-1,4', '--to', '2,2'], /--from: \(-1, 4\) is outside the 60 x 21 map/],
    [['path', ARENA, '--from', '1,1', '--to', '2,2', '--radius', '-1'], /--radius: expected a number >= 0, got '-1'/],
    [['simulate', ARENA, '--units', '-3', '--from', '2,2', '--to', '9,9'], /--units: expected a whole number/],
    [['path', ARENA, '--from', '1,1', '--to', '2,2', '--layer'], /--layer: needs a value/],
    [['frobnicate'], /unknown command 'frobnicate'; expected one of path, scen/],
  ];
  for (const [argv, re] of cases) {
    const r = await run(...argv);
    assert.equal(r.code, 2, argv.join(' '));
    assert.match(r.err[0], re, argv.join(' '));
    assert.equal(r.err.length, 1, `one line: ${r.err.join(' | ')}`);
  }
});

test('the tilenav process: exit codes and no stack trace on bad input', () => {
  const cli = join(ROOT, 'src', 'cli', 'main.ts');
  const ok = spawnSync(process.execPath, ['--import', 'tsx', cli, 'path', ARENA, '--from', '2,2', '--to', '3,3', '--json'], { encoding: 'utf8', cwd: ROOT });
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(JSON.parse(ok.stdout.trim().split('\n').pop()!).status, 'found');
  const bad = spawnSync(process.execPath, ['--import', 'tsx', cli, 'path', ARENA, '--from', '2,2'], { encoding: 'utf8', cwd: ROOT });
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr.trim().split('\n').length, 1);
  assert.doesNotMatch(bad.stderr, /\n\s+at /);
});
