import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';

/** The repository's root folder. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** The source file behind a package entry ('.', './loaders', ...), as Node would resolve it. */
function entrySource(key: string): string {
  let target = pkg.exports[key];
  while (typeof target !== 'string') target = target.node ?? target.default;
  return pathToFileURL(join(ROOT, target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'))).href;
}

/** The bodies of a Markdown text's ```ts blocks, in order (indented ones inside list items too). */
export function tsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/**
 * One test per ```ts block of `file` (relative to the root): the block runs as written against the
 * source (imports of 'tilenav' and 'tilenav/x' point at src/), from the root folder, and must exit 0.
 * Returns how many blocks there are.
 */
export function testTsBlocks(file: string): number {
  const blocks = tsBlocks(readFileSync(join(ROOT, file), 'utf8'));
  const stem = file.replace(/\.md$/, '').replace(/[^A-Za-z0-9]+/g, '-').toLowerCase();
  blocks.forEach((code, k) => {
    const first = code.split('\n').find((l) => l.trim() && !l.trimStart().startsWith('import'))?.trim().slice(0, 60);
    test(`${file} example ${k + 1} runs: ${first}`, () => {
      const body = code.replace(/from 'tilenav(\/[a-z]+)?'/g, (_, sub) => `from '${entrySource('.' + (sub ?? ''))}'`);
      const dir = join(ROOT, 'test-output');
      mkdirSync(dir, { recursive: true });
      const out = join(dir, `${stem}-${k + 1}.ts`);
      writeFileSync(out, body);
      const r = spawnSync(process.execPath, ['--import', 'tsx', out], { encoding: 'utf8', cwd: ROOT, timeout: 60_000 });
      assert.equal(r.status, 0, `${file} example ${k + 1} failed:\n${r.stderr}`);
    });
  });
  return blocks.length;
}
