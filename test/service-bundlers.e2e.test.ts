/**
 * `tilenav/service` in a browser, as a user gets it: the packed package installed into a fresh
 * project, bundled with no configuration by Vite (build and dev server) and esbuild, run in
 * headless Chromium. Every query must come back `found` at the synchronous search's cost; under a
 * Content-Security-Policy that forbids workers, `ready()` must reject and say why.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { NavGrid } from '../src/grid/navgrid.js';
import { findPath } from '../src/search/pathfinder.js';
import { CHROMIUM, skip } from './helpers-demo.js';
import { GRID, QUERIES, esbuildApp, installPacked, serveStatic, startVite, viteBuild, writeApp } from './helpers-bundlers.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const window: any;

type PageResult = { ready: string; name?: string; message?: string; answers?: { status: string; cost: number; error: string | null }[] };

function expectedCosts(): number[] {
  const grid = new NavGrid(GRID.width, GRID.height);
  for (const [x, y, w, h] of GRID.walls) grid.fillRect(x, y, w, h, { walkable: false });
  return QUERIES.map(([sx, sy, gx, gy]) => findPath(grid, sx, sy, gx, gy).cost);
}

async function resultOf(browser: Browser, url: string): Promise<{ result: PageResult; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(url);
    await page.waitForFunction(() => window.result !== undefined, undefined, { timeout: 30_000 });
    return { result: (await page.evaluate(() => window.result)) as PageResult, errors };
  } finally {
    await page.close();
  }
}

function assertFound(label: string, { result, errors }: { result: PageResult; errors: string[] }, want: number[]): void {
  assert.equal(result.ready, 'resolved', `${label}: ready() ${result.ready}: ${result.message}`);
  assert.deepEqual(errors, [], `${label}: page errors`);
  const answers = result.answers!;
  assert.equal(answers.length, want.length);
  answers.forEach((a, k) => {
    assert.equal(a.status, 'found', `${label}: query ${k}: ${a.status} ${a.error ?? ''}`);
    assert.ok(Math.abs(a.cost - want[k]) < 1e-9, `${label}: query ${k}: cost ${a.cost}, the synchronous search ${want[k]}`);
  });
}

test('tilenav/service from the packed package works in Chromium under Vite (build, dev) and esbuild with no options', { skip, timeout: 175_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tilenav-bundlers-'));
  const want = expectedCosts();
  assert.ok(want.every((c) => Number.isFinite(c) && c > 0));
  const stops: (() => unknown)[] = [];
  try {
    const { app, how } = installPacked(dir);
    console.log(`# tilenav installed into the consumer project by ${how}`);
    writeApp(app);
    const esbuildOut = await esbuildApp(app);
    const viteOut = viteBuild(app);
    // Vite found the literal new Worker(new URL(...)) and emitted the worker as a file of its own.
    assert.ok(readdirSync(join(viteOut, 'assets')).some((f) => /^web-worker-.*\.js$/.test(f)), `vite's assets: ${readdirSync(join(viteOut, 'assets'))}`);
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'] });
    stops.push(() => browser.close());
    const esb = await serveStatic(esbuildOut);
    stops.push(() => esb.server.close());
    assertFound('esbuild (IIFE, the default)', await resultOf(browser, esb.url + 'iife.html'), want);
    assertFound('esbuild (ESM)', await resultOf(browser, esb.url + 'esm.html'), want);

    const csp = await resultOf(browser, esb.url + 'csp.html');
    assert.equal(csp.result.ready, 'rejected', `under worker-src 'none': ready() ${csp.result.ready}`);
    assert.equal(csp.result.name, 'TilenavError');
    assert.match(csp.result.message!, /workers cannot start/);
    assert.match(csp.result.message!, /Content-Security-Policy/);
    assert.match(csp.result.message!, /worker-src 'self' blob:/);

    const preview = await startVite(app, ['preview', '--outDir', viteOut]);
    stops.push(() => preview.child.kill());
    assertFound('vite build + preview', await resultOf(browser, preview.url), want);
    const dev = await startVite(app, []);
    stops.push(() => dev.child.kill());
    assertFound('vite dev server', await resultOf(browser, dev.url), want);
  } finally {
    for (const stop of stops.reverse()) await stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
