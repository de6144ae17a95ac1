import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const src = (p: string) => here(`../../src/${p}`);

/**
 * The Phaser example (index.html), the short scene of docs/phaser.md (walk.html) and the check page
 * (check.html). The library is imported by its package names, aliased to the sources.
 * TILENAV_PHASER=3 builds against Phaser 3 (the `phaser3` dev dependency) instead of Phaser 4;
 * TILENAV_OUT sets the output folder.
 */
export default defineConfig({
  root: here('.'),
  base: './',
  resolve: {
    alias: [
      { find: /^tilenav$/, replacement: src('index.ts') },
      { find: /^tilenav\/agents$/, replacement: src('agents/index.ts') },
      { find: /^tilenav\/render$/, replacement: src('render/index.ts') },
      { find: /^tilenav\/phaser$/, replacement: src('adapters/phaser/index.ts') },
      ...(process.env.TILENAV_PHASER === '3' ? [{ find: /^phaser$/, replacement: here('../../node_modules/phaser3/dist/phaser.esm.js') }] : []),
    ],
  },
  server: { host: '127.0.0.1', port: Number(process.env.PORT ?? 5174), strictPort: true },
  preview: { host: '127.0.0.1', port: Number(process.env.PORT ?? 5174), strictPort: true },
  build: {
    outDir: process.env.TILENAV_OUT ?? 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 4000,
    rollupOptions: { input: { main: here('index.html'), check: here('check.html'), walk: here('walk.html') } },
  },
  logLevel: 'info',
});
