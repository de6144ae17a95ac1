import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMANDS } from '../src/cli/main.js';
import { runCli } from './helpers-cli.js';
import { fixture } from './fixtures.js';
import { DEFAULT_FIND_PATH_OPTIONS } from '../src/index.js';
import { parseBinaryGrid } from '../src/loaders/index.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ARENA = join(ROOT, 'examples', 'arena.map');
const SCEN = fixture('movingai/rmtst01.map.scen');
const SCEN_MAP = fixture('movingai/rmtst01.map');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

const run = runCli;

const tmp = () => mkdtempSync(join(tmpdir(), 'tilenav-cli-'));

test('tilenav --help lists every command on one line each; --version prints package.json', async () => {
  const h = await run('--help');
  assert.equal(h.code, 0);
  for (const [name, c] of Object.entries(COMMANDS)) {
    const lines = h.out.filter((l) => l.startsWith(`  ${name} `));
    assert.equal(lines.length, 1, name);
    assert.ok(lines[0].includes(c.spec.summary), name);
  }
  assert.deepEqual((await run('help')).out, h.out);
  const v = await run('--version');
  assert.deepEqual([v.code, v.out], [0, [pkg.version]]);
  assert.deepEqual((await run('-v')).out, [pkg.version]);
});

test('tilenav COMMAND --help: every flag with its value, a description, and its default where it has one', async () => {
  for (const [name, c] of Object.entries(COMMANDS)) {
    const r = await run(name, '--help');
    assert.equal(r.code, 0, name);
    assert.equal(r.err.length, 0);
    assert.match(r.out[0], new RegExp(`^usage: tilenav ${name} ${c.spec.args.join(' ')}`));
    for (const [flag, f] of Object.entries(c.spec.flags)) {
      const line = r.out.find((l) => l.startsWith(`  --${flag} `) || l === `  --${flag}`);
      assert.ok(line !== undefined, `${name} --${flag}`);
      assert.ok(line.includes(f.description), `${name} --${flag} has its description`);
      if ('default' in f) assert.ok(line.includes(`default: ${f.default}`), `${name} --${flag} shows its default: ${line}`);
    }
  }
  // -h works after other arguments too, and `tilenav help path` is the same page.
  const p = await run('path', ARENA, '--from', '1,1', '-h');
  assert.equal(p.code, 0);
  assert.deepEqual((await run('help', 'path')).out, p.out);
  assert.ok(p.out.some((l) => /--algorithm A .*\(default: auto\)/.test(l)));
  assert.ok(p.out.some((l) => /--radius R .*\(default: 0\)/.test(l)));
  // An isometric Tiled map is walked in `iso`, as staggered and hexagonal ones in their own model.
  assert.ok(p.out.some((l) => /--movement M .*default: octile, or a Tiled map's own \(iso, staggered, hex\)/.test(l)));
});

test('a mistyped command or flag gets one line with the nearest name and exit 2; no arguments prints the usage to stderr', async () => {
  const cases: [string[], string][] = [
    [['pth'], "tilenav: unknown command 'pth'; did you mean 'path'?"],
    [['sen'], "tilenav: unknown command 'sen'; did you mean 'scen'?"],
    [['rendr'], "tilenav: unknown command 'rendr'; did you mean 'render'?"],
    [['find'], "tilenav: unknown command 'find'; did you mean 'path'?"],
    [['fnd'], "tilenav: unknown command 'fnd'; did you mean 'path'?"],
    [['render', ARENA, '--from', '2,2', '--to', '57,18', '-o', 'x.png'], "tilenav render: unknown flag '-o'; did you mean '--out'?"],
    [['frobnicate'], "tilenav: unknown command 'frobnicate'; expected one of path, scen, info, convert, render, simulate (tilenav --help)"],
    [['path', ARENA, '--from', '1,1', '--to', '2,2', '--algoritm', 'jps'], "tilenav path: unknown flag '--algoritm'; did you mean '--algorithm'?"],
    [['scen', SCEN_MAP, SCEN, '--worker', '2'], "tilenav scen: unknown flag '--worker'; did you mean '--workers'?"],
    // Two letters swapped beat a prefix: --form is a prefix of --format but one slip from --from.
    [['path', ARENA, '--form', '1,1', '--to', '2,2'], "tilenav path: unknown flag '--form'; did you mean '--from'?"],
    [['path', ARENA, '--from', '1,1', '--to', '2,2', '--algo', 'jps'], "tilenav path: unknown flag '--algo'; did you mean '--algorithm'?"],
    // Without the map, the map is what is missing (not --from).
    [['path'], "tilenav path: arguments: expected one MAP, got none; usage: tilenav path MAP --from x,y --to x,y [options]"],
    [['path', ARENA, '--from', '1,1', '--to', '2,2', '--movement', 'octil'], "tilenav path: --movement: unknown value 'octil'; expected one of cardinal, octile, octile-one-obstacle, octile-always, chebyshev, chebyshev-one-obstacle, chebyshev-always, iso, hex, hex-odd-r, hex-even-r, hex-odd-q, hex-even-q, staggered-odd-r, staggered-even-r, staggered-odd-q, staggered-even-q (did you mean 'octile'?)"],
  ];
  for (const [argv, line] of cases) {
    const r = await run(...argv);
    assert.equal(r.code, 2, argv.join(' '));
    assert.deepEqual(r.err, [line]);
    assert.deepEqual(r.out, []);
  }
  const none = await run();
  assert.equal(none.code, 2);
  assert.deepEqual(none.out, []);
  assert.ok(none.err.some((l) => l.startsWith('usage: tilenav COMMAND')));
  // The process: the same through the real entry point.
  const cli = join(ROOT, 'src', 'cli', 'main.ts');
  const p = spawnSync(process.execPath, ['--import', 'tsx', cli], { encoding: 'utf8', cwd: ROOT, timeout: 30_000 });
  assert.equal(p.status, 2);
  assert.equal(p.stdout, '');
  assert.match(p.stderr, /usage: tilenav COMMAND/);
  const v = spawnSync(process.execPath, ['--import', 'tsx', cli, '--version'], { encoding: 'utf8', cwd: ROOT, timeout: 30_000 });
  assert.equal(v.stdout.trim(), pkg.version);
});

test('one default search everywhere: auto for path, scen and the library; path takes --algorithm like scen', async () => {
  assert.equal(DEFAULT_FIND_PATH_OPTIONS.algorithm, 'auto');
  assert.equal(COMMANDS.path.spec.flags.algorithm?.default, 'auto');
  assert.equal(COMMANDS.scen.spec.flags.algorithm?.default, 'auto');
  const scen = await run('scen', SCEN_MAP, SCEN, '--json');
  assert.equal(scen.code, 0, scen.err.join('\n'));
  assert.equal(JSON.parse(scen.out.at(-1)!).algorithm, 'auto');
  const astar = await run('scen', SCEN_MAP, SCEN, '--algorithm', 'astar', '--json');
  assert.equal(astar.code, 0);
  assert.equal(JSON.parse(astar.out.at(-1)!).algorithm, 'astar');
  const costs: Record<string, number> = {};
  for (const alg of ['auto', 'astar', 'jps', 'jps+', 'hpa']) {
    const r = await run('path', ARENA, '--from', '2,2', '--to', '57,18', '--algorithm', alg, '--json');
    assert.equal(r.code, 0, r.err.join('\n'));
    costs[alg] = JSON.parse(r.out.at(-1)!).cost;
  }
  const plain = JSON.parse((await run('path', ARENA, '--from', '2,2', '--to', '57,18', '--json')).out.at(-1)!);
  assert.equal(plain.cost, costs.auto);
  for (const alg of ['astar', 'jps', 'jps+']) assert.ok(Math.abs(costs[alg] - costs.auto) < 1e-9, `${alg} ${costs[alg]} vs auto ${costs.auto}`);
  assert.ok(costs.hpa >= costs.auto - 1e-9 && costs.hpa <= costs.auto * 1.2);
  // The auto/JPS path expands fewer nodes than A* here: the flag reaches the search.
  const e = async (alg: string) => JSON.parse((await run('path', ARENA, '--from', '2,2', '--to', '57,18', '--algorithm', alg, '--json')).out.at(-1)!).expanded;
  assert.ok((await e('jps')) < (await e('astar')));
  const bad = await run('path', ARENA, '--from', '2,2', '--to', '5,5', '--algorithm', 'jps', '--nearest');
  assert.equal(bad.code, 2);
  assert.match(bad.err[0], /--algorithm: --nearest runs its own search; it does not take --algorithm jps/);
});

test('convert keeps Moving AI trees and water where the format can hold them and lists them where it cannot', async () => {
  const dir = tmp();
  try {
    const source = readFileSync(ARENA, 'utf8');
    assert.match(source, /T/);
    assert.match(source, /W/);
    // Moving AI to Moving AI: byte for byte.
    const map = join(dir, 'a.map');
    const r1 = await run('convert', ARENA, map);
    assert.equal(r1.code, 0, r1.err.join('\n'));
    assert.equal(readFileSync(map, 'utf8'), source);
    assert.deepEqual(r1.err, []);
    // Binary holds them as terrains; back to Moving AI they are T and W again.
    const bin = join(dir, 'a.tnav');
    assert.equal((await run('convert', ARENA, bin)).code, 0);
    const grid = parseBinaryGrid(readFileSync(bin)).grid;
    assert.equal(grid.getTerrain(19, 3), 'Trees');
    assert.equal(grid.getTerrain(52, 3), 'Deep water');
    assert.equal(grid.isWalkable(19, 3), false);
    const back = join(dir, 'b.map');
    const r2 = await run('convert', bin, back);
    assert.equal(r2.code, 0);
    assert.deepEqual(r2.err, []);
    assert.equal(readFileSync(back, 'utf8'), source);
    // A text grid holds 0/1 only: the warning counts what became plain blocked.
    const txt = join(dir, 'a.txt');
    const r3 = await run('convert', ARENA, txt);
    assert.equal(r3.code, 0);
    const trees = source.split('T').length - 1;
    const water = source.split('W').length - 1;
    assert.equal(r3.err.length, 1);
    assert.match(r3.err[0], new RegExp(`dropped: ${trees} T \\(trees\\) cells written as blocked; ${water} W \\(water\\) cells written as blocked`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('convert writes over an existing file only with --force, and never over its input', async () => {
  const dir = tmp();
  try {
    const out = join(dir, 'a.tnav');
    assert.equal((await run('convert', ARENA, out)).code, 0);
    const again = await run('convert', ARENA, out);
    assert.equal(again.code, 2);
    assert.deepEqual(again.err, [`tilenav convert: ${out}: OUT: already exists; add --force to write over it`]);
    assert.equal((await run('convert', ARENA, out, '--force')).code, 0);
    const copy = join(dir, 'in.map');
    writeFileSync(copy, readFileSync(ARENA));
    for (const target of [copy, join(dir, '.', 'in.map')]) {
      const self = await run('convert', copy, target, '--force');
      assert.equal(self.code, 2);
      assert.equal(self.err.length, 1);
      assert.match(self.err[0], /is the input file .*in\.map; refusing to write over it/);
    }
    assert.equal(readFileSync(copy, 'utf8'), readFileSync(ARENA, 'utf8'));
    mkdirSync(join(dir, 'sub.map'));
    assert.match((await run('convert', ARENA, join(dir, 'sub.map'), '--force')).err[0], /sub\.map: OUT: is a directory/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('messages that help: bad values repeated with the valid ones, render writes PNG only, a radius that does not fit is named', async () => {
  const dir = tmp();
  try {
    const f = await run('info', ARENA, '--format', 'foo');
    assert.deepEqual(f.err, ["tilenav info: --format: unknown value 'foo'; expected one of movingai, txt, polygon, binary, tiled, ldtk"]);
    const jpg = join(dir, 'x.jpg');
    const j = await run('render', ARENA, '--out', jpg);
    assert.equal(j.code, 2);
    assert.deepEqual(j.err, ["tilenav render: --out: only PNG pictures are written; give a file name ending in .png, got 'x.jpg'"]);
    assert.equal(existsSync(jpg), false);
    const png = await run('render', ARENA, '--out', join(dir, 'x.PNG'));
    assert.equal(png.code, 0, png.err.join('\n'));
    const radius = await run('path', ARENA, '--from', '1,1', '--to', '30,10', '--radius', '1.5', '--json');
    assert.equal(radius.code, 0);
    assert.equal(JSON.parse(radius.out[0]).status, 'invalid-start');
    assert.equal(JSON.parse(radius.out[0]).reason, 'the start (1, 1) is walkable, but a unit of radius 1.5 does not fit there');
    const text = await run('path', ARENA, '--from', '1,1', '--to', '30,10', '--radius', '1.5');
    assert.equal(text.out[0], 'status: invalid-start (the start (1, 1) is walkable, but a unit of radius 1.5 does not fit there)');
    const wall = await run('path', ARENA, '--from', '5,5', '--to', '0,0');
    assert.equal(wall.out[0], 'status: invalid-goal (the goal (0, 0) is blocked on layer "Ground")');
    const numbers: [string[], string][] = [
      [['path', ARENA, '--from', '1,1', '--to', '2,2', '--radius', 'NaN'], "tilenav path: --radius: expected a number >= 0, got 'NaN'"],
      [['path', ARENA, '--from', '1,1', '--to', '2,2', '--radius', '-0.5'], "tilenav path: --radius: expected a number >= 0, got '-0.5'"],
      [['path', ARENA, '--from', '1,1', '--to', '2,2', '--radius', 'wide'], "tilenav path: --radius: expected a number >= 0, got 'wide'"],
      [['path', ARENA, '--from', '1,1', '--to', '2,2', '--radius', 'Infinity'], "tilenav path: --radius: expected a number >= 0, got 'Infinity'"],
      [['render', ARENA, '--out', join(dir, 'y.png'), '--scale', '0'], "tilenav render: --scale: expected a number > 0, got '0'"],
      [['render', ARENA, '--out', join(dir, 'y.png'), '--scale', '1e999'], "tilenav render: --scale: expected a number > 0, got '1e999'"],
      [['scen', SCEN_MAP, SCEN, '--workers', '1.5'], "tilenav scen: --workers: expected a whole number 1..256, got '1.5'"],
      [['simulate', ARENA, '--units', '3', '--from', '2,2', '--to', '9,9', '--steps', '-1'], "tilenav simulate: --steps: expected a whole number 0..10000000, got '-1'"],
      [['path', ARENA, '--from', '1,1', '--to', 'NaN,2'], "tilenav path: --to: expected x,y with two whole numbers (e.g. 3,4), got 'NaN,2'"],
    ];
    for (const [argv, line] of numbers) {
      const r = await run(...argv);
      assert.equal(r.code, 2, argv.join(' '));
      assert.deepEqual(r.err, [line]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a projection without finite sizes (Tiled tilewidth 1e308): the loader refuses it, so render and path say so in one line', async () => {
  const dir = tmp();
  try {
    const huge = join(dir, 'huge.tmx');
    writeFileSync(huge, '<?xml version="1.0"?><map orientation="orthogonal" width="3" height="2" tilewidth="1e308" tileheight="1e308"><layer name="L" width="3" height="2"><data encoding="csv">0,0,0,0,0,0</data></layer></map>');
    const line = /huge\.tmx: <map> tilewidth: tilewidth 1e\+308 on a 3 x 2 tile map spans Infinity pixels across; expected a size that gives finite pixel coordinates/;
    const png = join(dir, 'h.png');
    const r = await run('render', huge, '--out', png);
    assert.equal(r.code, 2);
    assert.equal(r.err.length, 1);
    assert.match(r.err[0], line);
    assert.equal(existsSync(png), false);
    for (const world of [['--world'], []]) {
      const w = await run('path', huge, '--from', '0,0', '--to', '2,1', ...world, '--json');
      assert.equal(w.code, 2);
      assert.equal(w.err.length, 1);
      assert.match(w.err[0], line);
      assert.deepEqual(w.out, []);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('adversarial arguments: every command, bad flags, missing / empty / directory files: exit 0, 1 or 2, one line, no stack trace', { timeout: 120_000 }, async () => {
  const dir = tmp();
  try {
    const missing = join(dir, 'missing.map');
    const folder = join(dir, 'folder.map');
    mkdirSync(folder);
    const empties = ['.map', '.txt', '.json', '.tnav', '.tmx', '.tmj', '.scen', '.ldtk'].map((ext) => {
      const f = join(dir, `empty${ext}`);
      writeFileSync(f, '');
      return f;
    });
    const out = (name: string) => join(dir, name);
    // Each command with arguments that work, then every way to break them.
    const valid: Record<string, (map: string) => string[]> = {
      path: (m) => ['path', m, '--from', '2,2', '--to', '5,5'],
      scen: (m) => ['scen', m, empties[6]],
      info: (m) => ['info', m],
      convert: (m) => ['convert', m, out('c.tnav'), '--force'],
      render: (m) => ['render', m, '--out', out('r.png')],
      simulate: (m) => ['simulate', m, '--units', '2', '--from', '2,2', '--to', '5,5', '--steps', '5'],
    };
    const cases: string[][] = [];
    for (const [name, make] of Object.entries(valid)) {
      for (const map of [missing, folder, dir, ...empties]) cases.push(make(map));
      const base = make(ARENA);
      cases.push(base.slice(0, 1));
      cases.push([...base, 'extra-positional']);
      cases.push([...base, '--nope']);
      cases.push([...base, '--json=yes']);
      cases.push([...base, '--format', '']);
      cases.push([...base, '--format']);
      cases.push([...base, '--layer', '99']);
      cases.push([...base, '--layer', '-1']);
      cases.push([...base, '--from', '1e9,1']);
      cases.push([...base, '--to', '']);
      cases.push([...base, '--movement', 'hex-odd-r']);
      cases.push([...base, '-x']);
      cases.push([...base, '--', '--json']);
      cases.push([name, '--from', '2,2']);
    }
    cases.push(['path', ARENA, '--from', '2,2', '--to', '5,5', '--radius', '1e308']);
    cases.push(['render', ARENA, '--out', dir]);
    cases.push(['render', ARENA, '--out', out('no/such/dir/x.png')]);
    cases.push(['convert', ARENA, out('no/such/dir/x.tnav')]);
    cases.push(['scen', ARENA, folder]);
    cases.push(['scen', ARENA, SCEN, '--workers', '999']);
    cases.push(['simulate', ARENA, '--units', '1e9', '--from', '2,2', '--to', '5,5']);
    cases.push(['-x']);
    cases.push(['--']);
    cases.push(['']);
    const t0 = performance.now();
    for (const argv of cases) {
      const r = await run(...argv);
      const what = `${argv.join(' ')} -> ${r.code}: ${r.err.join(' | ')}`;
      assert.ok(r.code === 0 || r.code === 1 || r.code === 2, what);
      assert.ok(!r.err.some((l) => /^\s+at /.test(l) || /internal error/.test(l)), what);
      if (r.code === 2) assert.equal(r.err.length, 1, what);
    }
    assert.ok(performance.now() - t0 < 60_000, 'the whole table runs in bounded time');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a directory where a map is read is named as such, whatever its name', async () => {
  const dir = tmp();
  try {
    for (const argv of [['info', dir], ['path', dir, '--from', '1,1', '--to', '2,2'], ['convert', dir, join(dir, 'x.tnav')], ['scen', ARENA, dir]]) {
      const r = await run(...argv);
      assert.equal(r.code, 2);
      assert.deepEqual(r.err, [`tilenav ${argv[0]}: ${dir}: is a directory, expected a file`]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('simulate prints text by default and one JSON line with --json, like the other commands', async () => {
  const argv = ['simulate', ARENA, '--units', '3', '--from', '3,3', '--to', '12,3'];
  const text = await run(...argv);
  assert.equal(text.code, 0);
  assert.match(text.out[0], /^3 units, \w+: \d+ arrived/);
  assert.ok(text.out.every((l) => !l.startsWith('{')));
  const json = await run(...argv, '--json');
  assert.equal(json.out.length, 1);
  assert.equal(JSON.parse(json.out[0]).units, 3);
});

test('a symbolic link loop where a file is read or written: one line naming it, exit 2', async () => {
  const dir = tmp();
  try {
    const loop = join(dir, 'loop.map');
    symlinkSync('loop.map', loop);
    const loopPng = join(dir, 'loop.png');
    symlinkSync('loop.png', loopPng);
    const loopScen = join(dir, 'loop.scen');
    symlinkSync('loop.scen', loopScen);
    const cases: [string[], string][] = [
      [['info', loop], loop],
      [['path', loop, '--from', '1,1', '--to', '2,2'], loop],
      [['convert', loop, join(dir, 'x.tnav')], loop],
      [['convert', ARENA, join(dir, 'loop.map'), '--to', 'movingai'], loop],
      [['render', loop, '--out', join(dir, 'x.png')], loop],
      [['render', ARENA, '--out', loopPng], loopPng],
      [['scen', ARENA, loopScen], loopScen],
      [['simulate', loop, '--units', '1', '--from', '1,1', '--to', '2,2'], loop],
    ];
    for (const [argv, file] of cases) {
      const r = await run(...argv);
      assert.equal(r.code, 2, argv.join(' '));
      assert.equal(r.err.length, 1, r.err.join(' | '));
      assert.match(r.err[0], new RegExp(`^tilenav ${argv[0]}: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot (read|write) the file \\(ELOOP: too many symbolic links`), argv.join(' '));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('whole-number flags take plain digits only: 1e2, 1.0, 0x10 and 1_0 are refused alike on every one, naming it', async () => {
  const { parseCommand } = await import('../src/cli/flags.js');
  let checked = 0;
  for (const [name, c] of Object.entries(COMMANDS)) {
    const base = c.spec.args.map((a, k) => `arg${k}`);
    // The command's required flags, with values they take.
    for (const [flag, f] of Object.entries(c.spec.flags)) {
      if (f.required) base.push(`--${flag}=${f.kind === 'point' ? '1,1' : f.kind === 'number' ? String(f.min ?? 1) : (f.choices?.[0] ?? 'x')}`);
    }
    for (const [flag, f] of Object.entries(c.spec.flags)) {
      if (f.kind !== 'number' || f.integer !== true) continue;
      checked++;
      const ok = String(f.min ?? 1);
      assert.equal(parseCommand(name, c.spec, [...base, `--${flag}`, ok]).values[flag], Number(ok), `${name} --${flag} ${ok}`);
      for (const bad of ['1e2', '1.0', '0x10', '1_0', '0b1', '2.', '']) {
        assert.throws(() => parseCommand(name, c.spec, [...base, `--${flag}=${bad}`]), (e: unknown) => e instanceof Error && e.name === 'TilenavError' && e.message.startsWith(`--${flag}: expected a whole number`) && e.message.endsWith(`got '${bad}'`), `${name} --${flag}=${bad}`);
      }
    }
  }
  assert.ok(checked >= 3, `${checked} whole-number flags checked`);
  const r = await run('scen', SCEN_MAP, SCEN, '--workers', '1e2');
  assert.deepEqual([r.code, r.err], [2, ["tilenav scen: --workers: expected a whole number 1..256, got '1e2'"]]);
});
