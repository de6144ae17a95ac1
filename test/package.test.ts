import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
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
  assert.match(pkg.engines.node, />=\s*20/);
  assert.equal(pkg.bin.tilenav, './dist/cli/main.js');
  assert.ok(pkg.files.includes('dist'));
  assert.equal(pkg.exports['.'].types, './dist/index.d.ts');
  assert.ok(pkg.exports['./loaders']);
  assert.match(readFileSync(join(ROOT, 'src/cli/main.ts'), 'utf8'), /^#!\/usr\/bin\/env node\n/);
});
