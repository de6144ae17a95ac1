import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** The source file behind a package entry ('.', './loaders', ...), as Node would resolve it. */
function entrySource(key: string): string {
  let target = pkg.exports[key];
  while (typeof target !== 'string') target = target.node ?? target.default;
  return pathToFileURL(join(ROOT, target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'))).href;
}

const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);

/** README's examples run as written against the source (imports of 'tilenav' point at src/). */
test('README has runnable TypeScript examples', () => assert.ok(blocks.length >= 3, `${blocks.length} blocks`));

blocks.forEach((code, k) => {
  test(`README example ${k + 1} runs: ${code.split('\n').find((l) => l.trim() && !l.startsWith('import'))?.slice(0, 60)}`, () => {
    const body = code.replace(/from 'tilenav(\/[a-z]+)?'/g, (_, sub) => `from '${entrySource('.' + (sub ?? ''))}'`);
    const dir = join(ROOT, 'test-output');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `readme-${k + 1}.ts`);
    writeFileSync(file, body);
    const r = spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', cwd: ROOT, timeout: 60_000 });
    assert.equal(r.status, 0, `example ${k + 1} failed:\n${r.stderr}`);
  });
});
