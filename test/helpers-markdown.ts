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
 * The value a `console.log(...); // comment` says it prints, when the comment opens with one: a run
 * of values (numbers, quoted strings, true / false / null, bracketed lists and objects of those)
 * up to the first word, colon or parenthesis of prose. `...` inside a list means "and more": the
 * printed list must start with what comes before it. Null when the comment opens with prose or a
 * placeholder such as `[x0, y0, ...]`.
 */
export function saidValue(comment: string): string | null {
  let i = 0;
  const parts: string[] = [];
  const text = comment.trim();
  while (i < text.length) {
    const rest = text.slice(i);
    const m = /^(-?\d+(?:\.\d+)?|'[^']*'|"[^"]*"|true|false|null)(?![\w.])/.exec(rest);
    let token: string | null = null;
    if (m !== null) token = m[1];
    else if (rest[0] === '[' || rest[0] === '{') {
      let depth = 0;
      let end = -1;
      for (let k = 0; k < rest.length && end < 0; k++) {
        if (rest[k] === '[' || rest[k] === '{') depth++;
        else if (rest[k] === ']' || rest[k] === '}') if (--depth === 0) end = k;
      }
      if (end < 0) break;
      token = rest.slice(0, end + 1);
      // A placeholder (names instead of values) is not a value.
      if (/[A-Za-z_]/.test(token.replace(/'[^']*'|"[^"]*"|\b(true|false|null)\b/g, '').replace(/\.\.\./g, ''))) return null;
    }
    if (token === null) break;
    parts.push(token);
    i += token.length;
    if (text[i] !== ' ') break;
    i++;
  }
  return parts.length === 0 ? null : parts.join(' ');
}

/** A printed value or a comment's, for comparison: no white space, no quotes, no typed array names. */
function normalise(s: string): string {
  return s.replace(/\b[A-Z][A-Za-z0-9]*Array\(\d+\)/g, '').replace(/['"\s]/g, '');
}

/** Whether `printed` is what `said` says, or opens with it (up to a `...` in said, which allows more). */
export function saysPrinted(said: string, printed: string): boolean {
  const s = normalise(said);
  const p = normalise(printed);
  const more = s.indexOf('...');
  if (more >= 0) return p.startsWith(s.slice(0, more).replace(/,$/, ''));
  // Equal, or equal to the printed line's first words (the rest is prose the example prints).
  const words = printed.trim().split(/\s+/);
  for (let k = 1; k <= words.length; k++) if (normalise(words.slice(0, k).join(' ')) === s) return true;
  return p === s;
}

/**
 * One test per ```ts block of `file` (relative to the root): the block runs as written against the
 * source (imports of 'tilenav' and 'tilenav/x' point at src/), from the root folder, and must exit 0.
 * A `console.log(...)` whose comment opens with a value ({@link saidValue}) must print that value
 * the first time it runs. Blocks that import Phaser run in the browser tests instead.
 * Returns how many blocks there are.
 */
export function testTsBlocks(file: string): number {
  const blocks = tsBlocks(readFileSync(join(ROOT, file), 'utf8'));
  const stem = file.replace(/\.md$/, '').replace(/[^A-Za-z0-9]+/g, '-').toLowerCase();
  blocks.forEach((code, k) => {
    // A scene that needs Phaser in a browser runs in test/phaser.e2e.test.ts, which checks it is this block.
    if (/from 'phaser'/.test(code)) return;
    const first = code.split('\n').find((l) => l.trim() && !l.trimStart().startsWith('import'))?.trim().slice(0, 60);
    test(`${file} example ${k + 1} runs: ${first}`, () => {
      const dir = join(ROOT, 'test-output');
      mkdirSync(dir, { recursive: true });
      const out = join(dir, `${stem}-${k + 1}.ts`);
      // Each console.log with a value in its comment reports what it printed first to `said`.
      const said = new Map<number, string>();
      const lines = code.split('\n').map((line, n) => {
        const m = /^(\s*)console\.log\((.*)\);\s*\/\/(.*)$/.exec(line);
        const value = m === null ? null : saidValue(m[3]);
        if (m === null || value === null) return line;
        said.set(n, value);
        return `${m[1]}__said(${n}, ${m[2]});`;
      });
      const prelude = said.size === 0 ? '' : [
        "import { format as __format } from 'node:util';",
        "import { writeFileSync as __write } from 'node:fs';",
        'const __printed: Record<number, string> = {};',
        'const __said = (n: number, ...args: unknown[]): void => { const s = __format(...args); console.log(s); __printed[n] ??= s; };',
        `process.on('exit', () => __write(${JSON.stringify(out + '.said.json')}, JSON.stringify(__printed)));`,
        '',
      ].join('\n');
      const body = prelude + lines.join('\n').replace(/from 'tilenav((?:\/[a-z]+)*)'/g, (_, sub) => `from '${entrySource('.' + (sub ?? ''))}'`);
      writeFileSync(out, body);
      const r = spawnSync(process.execPath, ['--import', 'tsx', out], { encoding: 'utf8', cwd: ROOT, timeout: 60_000 });
      assert.equal(r.status, 0, `${file} example ${k + 1} failed:\n${r.stderr}`);
      if (said.size === 0) return;
      const printed: Record<string, string> = JSON.parse(readFileSync(out + '.said.json', 'utf8'));
      for (const [n, value] of said) {
        const got = printed[n];
        assert.ok(got !== undefined, `${file} example ${k + 1}, line ${n + 1}: the console.log never ran`);
        assert.ok(saysPrinted(value, got), `${file} example ${k + 1}, line ${n + 1}: the comment says ${value}, it printed ${got}`);
      }
    });
  });
  return blocks.length;
}
