/**
 * The demo as the e2e tests see it: built, served on a free port, opened in headless Chromium
 * (Debian's, through playwright-core), with a few page helpers.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const window: any;
declare const document: any;

export const CHROMIUM = '/usr/bin/chromium';
const root = fileURLToPath(new URL('..', import.meta.url));
const vite = fileURLToPath(new URL('../node_modules/vite/bin/vite.js', import.meta.url));

/** False when the tests can run, else why they are skipped (printed). */
export const skip = !existsSync(CHROMIUM) && !process.env.CI ? `${CHROMIUM} is absent (apt-get install chromium); CI installs it and runs this test` : false;
if (skip) console.log(`# demo e2e skipped: ${skip}`);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** The first http://127.0.0.1:PORT/ address a starting server (`what`) prints; rejects after 30 s or when it exits. */
export function serverAddress(server: ChildProcess, what: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not print its address in 30 s:\n${out}`)), 30_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out.replace(/\x1b\[[0-9;]*m/g, ''));
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    server.stdout!.on('data', onData);
    server.stderr!.on('data', onData);
    server.once('exit', (code) => reject(new Error(`${what} exited with ${code}:\n${out}`)));
  });
}

export interface Demo {
  context: BrowserContext;
  url: string;
  /** Console errors and page errors of every page opened with {@link Demo.open}. */
  consoleErrors: string[];
  /** Opens the page (with `query`, e.g. `?map=arena`) and waits until it has drawn. */
  open(query?: string, viewport?: { width: number; height: number }): Promise<Page>;
  stop(): Promise<void>;
}

/** Builds the demo, serves it and starts Chromium. */
export async function startDemo(): Promise<Demo> {
  const build = spawnSync(process.execPath, [vite, 'build', '--config', 'demo/vite.config.ts', '--logLevel', 'warn'], { cwd: root, encoding: 'utf8' });
  assert.equal(build.status, 0, `demo build failed:\n${build.stdout}\n${build.stderr}`);
  const port = await freePort();
  const server: ChildProcess = spawn(process.execPath, [vite, 'preview', '--config', 'demo/vite.config.ts'], { cwd: root, env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await serverAddress(server, 'the demo server');
  assert.ok(url.includes(`:${port}/`), `served on the requested port: ${url}`);
  const userDir = mkdtempSync(`${tmpdir()}/tilenav-chromium-`);
  const context = await chromium.launchPersistentContext(userDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 720 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const consoleErrors: string[] = [];
  return {
    context,
    url,
    consoleErrors,
    async open(query = '', viewport) {
      const page = await context.newPage();
      if (viewport) await page.setViewportSize(viewport);
      page.on('console', (m) => {
        if (m.type() === 'error') consoleErrors.push(m.text());
      });
      page.on('pageerror', (e) => consoleErrors.push(String(e)));
      await page.goto(url + query);
      await page.waitForFunction(() => window.__tilenav?.drawn === true);
      return page;
    },
    async stop() {
      await context.close();
      server.kill();
      rmSync(userDir, { recursive: true, force: true });
    },
  };
}

export type PageState = { path: [number, number][]; status: string; cost: number; start: number[]; goal: number[]; drawn: boolean };
export const pageState = (page: Page) =>
  page.evaluate(() => {
    const t = window.__tilenav;
    return { path: t.path, status: t.status, cost: t.cost, start: t.start, goal: t.goal, drawn: t.drawn } as PageState;
  });

/** Waits until the page has searched and drawn its last change. */
export const drawn = (page: Page) => page.waitForFunction(() => window.__tilenav.drawn);

export async function clickCell(page: Page, x: number, y: number, button: 'left' | 'right' = 'left'): Promise<void> {
  const p = await page.evaluate(([x, y]) => window.__tilenav.cellToClient(x, y), [x, y]);
  await page.mouse.click(p.x, p.y, { button });
}

/** The screen canvas pixel at a cell's centre. */
export async function pixelAt(page: Page, x: number, y: number): Promise<number[]> {
  return page.evaluate(([x, y]) => {
    const t = window.__tilenav;
    const c = document.getElementById('screen');
    const r = c.getBoundingClientRect();
    const p = t.cellToClient(x, y);
    return Array.from(c.getContext('2d').getImageData(Math.floor(p.x - r.left), Math.floor(p.y - r.top), 1, 1).data.slice(0, 3));
  }, [x, y]);
}

/** The message shown beside the map (the toast): its text, whether it shows, and its box on the page. */
export type Toast = { text: string; shown: boolean; left: number; top: number; right: number; bottom: number };
export const toast = (page: Page): Promise<Toast> =>
  page.$eval('#toast', (e: any) => {
    const r = e.getBoundingClientRect();
    return { text: e.textContent, shown: !e.hidden && r.width > 0, left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  });

/** How far (page pixels) point p lies from box b: 0 inside it. */
export const distanceToBox = (p: { x: number; y: number }, b: { left: number; top: number; right: number; bottom: number }): number =>
  Math.hypot(Math.max(b.left - p.x, 0, p.x - b.right), Math.max(b.top - p.y, 0, p.y - b.bottom));

/**
 * Asserts that a message matching `re` shows beside the click at p: its box within `reach` pixels
 * of the click, inside the viewport and over the map (right of the side panel).
 */
export async function assertToastBeside(page: Page, p: { x: number; y: number }, re: RegExp, reach = 120): Promise<Toast> {
  const t = await toast(page);
  assert.ok(t.shown, `a message shows beside the click at (${Math.round(p.x)}, ${Math.round(p.y)})`);
  assert.match(t.text, re);
  const d = distanceToBox(p, t);
  assert.ok(d <= reach, `the message is ${Math.round(d)} px from the click (at most ${reach})`);
  const vp = page.viewportSize()!;
  const side = await page.$eval('#side', (e: any) => e.getBoundingClientRect().right);
  assert.ok(t.left >= side && t.top >= 0 && t.right <= vp.width && t.bottom <= vp.height, `the message lies over the map, inside the ${vp.width} x ${vp.height} viewport: ${JSON.stringify(t)}`);
  return t;
}
