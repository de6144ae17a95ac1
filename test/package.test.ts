import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** Every module reachable from `entry` through relative imports, with the bare specifiers it uses. */
function reach(entry: string): { files: Set<string>; bare: Map<string, string> } {
  const files = new Set<string>();
  const bare = new Map<string, string>();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
      const spec = m[1] ?? m[2];
      if (spec.startsWith('.')) todo.push(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else bare.set(spec, file);
    }
  }
  return { files, bare };
}

type Target = string | { default?: Target; node?: Target; types?: string };

/** What a browser or worker would load for an export: the `default` condition, never `node`. */
function browserTarget(v: Target): string {
  while (typeof v !== 'string') v = v.default!;
  return v;
}

/** Entry points that must run in a browser or a worker: no Node built-ins, no DOM-only globals. */
const BROWSER_ENTRIES = Object.entries(pkg.exports as Record<string, Target>)
  .filter(([key]) => key !== './package.json' && !/node|cli/.test(key))
  .map(([key, v]) => [key, join(ROOT, browserTarget(v).replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'))] as const);

for (const [key, entry] of BROWSER_ENTRIES) {
  test(`the ${key} entry imports nothing from Node or the DOM`, () => {
    assert.ok(existsSync(entry), entry);
    const { files, bare } = reach(entry);
    for (const [spec, file] of bare) {
      assert.ok(!spec.startsWith('node:') && !['fs', 'path', 'os', 'url', 'child_process', 'worker_threads', 'util', 'crypto', 'module'].includes(spec), `${file} imports ${spec}`);
    }
    for (const file of files) {
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
      assert.doesNotMatch(text, /\b(document|window|process|Buffer|require)\s*[.(]/, `${file} uses a Node or DOM global`);
    }
  });
}

test('package.json: ESM, exports with types, bin, files, sideEffects false, Node >= 20', () => {
  assert.equal(pkg.type, 'module');
  assert.equal(pkg.sideEffects, false);
  assert.equal(pkg.license, 'MIT');
  assert.match(readFileSync(join(ROOT, 'LICENSE'), 'utf8'), /^MIT License/);
  for (const field of ['repository', 'homepage', 'bugs']) assert.ok(pkg[field], `package.json has ${field}`);
  assert.ok(Array.isArray(pkg.keywords) && pkg.keywords.includes('pathfinding'));
  assert.ok(pkg.files.includes('LICENSE'));
  assert.match(pkg.engines.node, />=\s*20/);
  assert.equal(pkg.bin.tilenav, './dist/cli/main.js');
  assert.ok(pkg.files.includes('dist'));
  assert.equal(pkg.exports['.'].types, './dist/index.d.ts');
  assert.ok(pkg.exports['./loaders']);
  assert.match(readFileSync(join(ROOT, 'src/cli/main.ts'), 'utf8'), /^#!\/usr\/bin\/env node\n/);
});

test('the entry points are the ones the README lists, and the root entry stays small', async () => {
  const keys = Object.keys(pkg.exports).filter((k) => k !== './package.json');
  assert.deepEqual(keys.sort(), ['.', './agents', './compat/easystar', './compat/pathfinding', './graph', './loaders', './path', './phaser', './query', './render', './service']);
  const root = await import('../src/index.js');
  const n = Object.keys(root).length;
  assert.ok(n >= 30 && n <= 50, `${n} root exports`);
  for (const name of ['pathfinderFor', 'overlayFor', 'Hierarchy', 'smoothPath', 'planPath', 'aStarGraph']) assert.ok(!(name in root), `${name} is not in the root entry`);
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  for (const key of keys) assert.ok(readme.includes('`tilenav' + key.slice(1) + '`'), `README names ${key}`);
});

/** Runs a command, failing the test with its output when it exits non-zero. */
function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 180_000 });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} in ${cwd}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** Every file under `dir`, relative to it. */
function walk(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name), base) : [relative(base, join(dir, e.name))]));
}

/** Every string target of an exports entry, all conditions. */
function targets(v: Target | string): string[] {
  return typeof v === 'string' ? [v] : Object.values(v).flatMap((t) => targets(t as Target));
}

test('the packed package installs and every entry imports; it ships no tests, fixtures, maps or design-document references', { timeout: 300_000 }, () => {
  const tmp = mkdtempSync(join(tmpdir(), 'tilenav-pack-'));
  try {
    // Stage what npm pack would see after `prepare`, without writing dist/ into the repository.
    const stage = join(tmp, 'stage');
    mkdirSync(stage);
    copyFileSync(join(ROOT, 'package.json'), join(stage, 'package.json'));
    copyFileSync(join(ROOT, 'README.md'), join(stage, 'README.md'));
    copyFileSync(join(ROOT, 'LICENSE'), join(stage, 'LICENSE'));
    run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', join(stage, 'dist')], ROOT);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const tarball = join(tmp, run(npm, ['pack', '--ignore-scripts', '--silent', '--pack-destination', tmp], stage).trim().split('\n').pop()!);

    // An empty project installs it: from the npm cache when the dependencies are there, else by
    // unpacking the tarball and linking the repository's copies of the dependencies.
    const app = join(tmp, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const installed = spawnSync(npm, ['install', tarball, '--offline', '--no-audit', '--no-fund', '--silent'], { cwd: app, encoding: 'utf8', timeout: 120_000 });
    const dir = join(app, 'node_modules', 'tilenav');
    if (installed.status !== 0) {
      mkdirSync(dir, { recursive: true });
      run('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1'], app);
      for (const dep of Object.keys(pkg.dependencies)) symlinkSync(join(ROOT, 'node_modules', dep), join(app, 'node_modules', dep), 'dir');
    }

    const files = walk(dir);
    assert.ok(files.includes('dist/index.js') && files.includes('README.md') && files.includes('LICENSE'));
    for (const f of files) {
      assert.doesNotMatch(f, /\.test\.|fixtures|\.map$|(^|\/)(test|bench|demo|examples|src)\//, `ships ${f}`);
    }
    for (const [key, v] of Object.entries(pkg.exports as Record<string, Target>)) {
      for (const t of targets(v)) assert.ok(existsSync(join(dir, t)), `${key} -> ${t} is shipped`);
    }
    const words = /seed 0|issue [0-9]|review finding|§/i;
    const refs = files.filter((f) => f.startsWith('dist/')).flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').map((line, i) => `${f}:${i + 1}: ${line.trim().slice(0, 120)}`).filter((l) => words.test(l.slice(l.indexOf(': ') + 2))));
    assert.deepEqual(refs, [], 'the shipped code speaks of design documents');

    // Each entry imports by its package name; the root entry stays small.
    const subpaths = Object.keys(pkg.exports).filter((k) => k !== './package.json').map((k) => 'tilenav' + k.slice(1));
    const script = `const out = {}; for (const s of ${JSON.stringify(subpaths)}) out[s] = Object.keys(await import(s)).length; console.log(JSON.stringify(out));`;
    const counts = JSON.parse(run(process.execPath, ['--input-type=module', '-e', script], app).trim()) as Record<string, number>;
    assert.ok(counts.tilenav >= 30 && counts.tilenav <= 50, `${counts.tilenav} root exports`);
    for (const s of subpaths) assert.ok(counts[s] > 0, `${s} exports something`);
    // The shipped declarations type-check as a strict consumer sees them (skipLibCheck off): no
    // public signature names a type that stripInternal removed.
    const imports = subpaths.map((s, i) => `import * as m${i} from '${s}';`).join('\n');
    writeFileSync(join(app, 'consumer.ts'), `${imports}\nconst n: number = m0.findPath(new m0.NavGrid(2, 1), 0, 0, 1, 0).cost;\nconsole.log(n, ${subpaths.map((_, i) => `m${i}`).join(', ')});\n`);
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')] }, files: ['consumer.ts'] }));
    run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', app], app);
    // And as a bundler project (Vite, esbuild) resolves them.
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, noEmit: true, skipLibCheck: false, types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')] }, files: ['consumer.ts'] }));
    run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', app], app);
    // Under Node, tilenav/loaders has the file reader too.
    const loaders = run(process.execPath, ['--input-type=module', '-e', "const m = await import('tilenav/loaders'); console.log(typeof m.loadTiled, typeof m.parseTiled)"], app).trim();
    assert.equal(loaders, 'function function');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
