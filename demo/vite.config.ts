import { defineConfig, type Connect } from 'vite';
import { fileURLToPath } from 'node:url';

const src = (p: string) => fileURLToPath(new URL(`../src/${p}`, import.meta.url));

/**
 * The API reference (`npm run docs` writes it to public/api) at /api/: the dev server would
 * otherwise answer /api/ with the demo page, and /api without the slash breaks its relative links.
 */
const apiIndex: Connect.NextHandleFunction = (req, res, next) => {
  const path = req.url?.split('?')[0];
  if (path === '/api') {
    res.writeHead(301, { Location: '/api/' });
    res.end();
    return;
  }
  if (path === '/api/') req.url = '/api/index.html';
  next();
};

/**
 * The demo imports the library by its package names; the aliases point them at the sources so
 * the page always shows the working tree (the published entry points are the same modules).
 * PORT overrides the preview/dev port (default 5173).
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [
    {
      name: 'api-reference-index',
      configureServer: (server) => void server.middlewares.use(apiIndex),
      configurePreviewServer: (server) => void server.middlewares.use(apiIndex),
    },
  ],
  resolve: {
    alias: [
      { find: /^tilenav$/, replacement: src('index.ts') },
      { find: /^tilenav\/query$/, replacement: src('query/index.ts') },
      { find: /^tilenav\/path$/, replacement: src('path/index.ts') },
      { find: /^tilenav\/graph$/, replacement: src('graph/index.ts') },
      { find: /^tilenav\/loaders$/, replacement: src('loaders/index.ts') },
      { find: /^tilenav\/render$/, replacement: src('render/index.ts') },
      { find: /^tilenav\/agents$/, replacement: src('agents/index.ts') },
    ],
  },
  server: { host: '127.0.0.1', port: Number(process.env.PORT ?? 5173), strictPort: true },
  preview: { host: '127.0.0.1', port: Number(process.env.PORT ?? 5173), strictPort: true },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
  logLevel: 'info',
});
