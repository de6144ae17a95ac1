import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ROOT, testTsBlocks } from './helpers-markdown.js';

const pages = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`);

/** Every docs page's ```ts examples run as written, as README's do (test/readme.test.ts). */
for (const page of pages) testTsBlocks(page);

/** Markdown without its fenced code blocks, where headings and links do not count. */
function unfenced(markdown: string): string {
  return markdown.replace(/^\s*```[\s\S]*?^\s*```/gm, '');
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of unfenced(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = m[1].toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

test('the anchor rule: headings with code, punctuation and repeats', () => {
  const a = anchors('# Paths off the main thread: `tilenav/service`\n## Use it\n## Use it\n```\n# not a heading\n```\n');
  assert.deepEqual([...a], ['paths-off-the-main-thread-tilenavservice', 'use-it', 'use-it-1']);
});

for (const file of ['README.md', ...pages]) {
  test(`${file}: every relative link points at a file that exists, and every #anchor at a heading of its page`, () => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const links = [...unfenced(text).replace(/`[^`\n]*`/g, '').matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
    const bad: string[] = [];
    for (const link of links) {
      const [path, anchor] = link.split('#');
      const target = path === '' ? join(ROOT, file) : join(ROOT, dirname(file), decodeURIComponent(path));
      if (!existsSync(target)) {
        bad.push(`${link}: no ${relative(ROOT, target)}`);
        continue;
      }
      if (anchor === undefined) continue;
      if (!target.endsWith('.md') || statSync(target).isDirectory()) bad.push(`${link}: an anchor on a file that is not Markdown`);
      else if (!anchors(readFileSync(target, 'utf8')).has(anchor)) bad.push(`${link}: no heading #${anchor} in ${relative(ROOT, target)}`);
    }
    assert.deepEqual(bad, []);
  });
}
