// Makes dist/service/web-worker.js one self-contained file (no relative imports), so it runs
// wherever a bundler or server puts it alone, and writes its text into web-worker-source.js for
// the blob: fallback of createPathService. Runs after tsc in `npm run build`.
import { build } from 'esbuild';
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const result = await build({
  entryPoints: [root + 'src/service/web-worker.ts'],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  write: false,
  logLevel: 'warning',
});
const code = result.outputFiles[0].text;
// Every static import starts with `import` (`import{a}from"x"`, `import*as m from"x"`, `import"x"`),
// and so does a dynamic one (`import("x")`); the word `from` alone also appears in strings.
if (/(?:^|[;\s}=(,:?])import\s*[({*'"]|(?:^|[;\s}])import\s+[\w$]/.test(code)) throw new Error('the bundled worker still imports something');
writeFileSync(root + 'dist/service/web-worker.js', code);
writeFileSync(root + 'dist/service/web-worker-source.js', `/** The bundled text of web-worker.js (written by scripts/bundle-worker.mjs). */\nexport default ${JSON.stringify(code)};\n`);
// tsc's source maps describe the files replaced above.
for (const f of ['web-worker.js.map', 'web-worker-source.js.map']) rmSync(root + 'dist/service/' + f, { force: true });
console.log(`dist/service/web-worker.js: ${(code.length / 1024).toFixed(1)} KiB, self-contained`);
