/**
 * A consumer of the packed package, as a user's project would be: `npm pack`, installed into a
 * temporary project, a page that asks `tilenav/service` for paths, and servers for each bundler's
 * output. Used by service-bundlers.e2e.test.ts.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverAddress } from './helpers-demo.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const VITE = join(ROOT, 'node_modules/vite/bin/vite.js');

/** The walls of the page's grid (x, y, width, height), the same in the page and in Node. */
export const GRID = { width: 48, height: 32, walls: [[8, 0, 1, 26], [16, 6, 1, 26], [24, 0, 1, 26], [32, 6, 1, 26], [40, 0, 1, 26]] as number[][] };
/** The page's queries (sx, sy, gx, gy). */
export const QUERIES = [[0, 0, 47, 31], [2, 30, 44, 2], [10, 10, 30, 20], [0, 31, 47, 0], [20, 3, 20, 28]];

/** The page: every query through the service, or why `ready()` refused. The result lands in `window.result`. */
const MAIN = `import { NavGrid } from 'tilenav';
import { createPathService } from 'tilenav/service';

const spec = ${JSON.stringify(GRID)};
const grid = new NavGrid(spec.width, spec.height);
for (const [x, y, w, h] of spec.walls) grid.fillRect(x, y, w, h, { walkable: false });
const service = createPathService(grid, { workers: 2 });
async function run() {
  try {
    await service.ready();
  } catch (e) {
    return { ready: 'rejected', name: e.name, message: e.message };
  }
  const answers = await Promise.all(${JSON.stringify(QUERIES)}.map(([sx, sy, gx, gy]) => service.findPath(sx, sy, gx, gy)));
  await service.close();
  return { ready: 'resolved', answers: answers.map((r) => ({ status: r.status, cost: r.cost, error: r.error })) };
}
run().then((r) => { window.result = r; }, (e) => { window.result = { ready: 'threw', message: String(e) }; });
`;

const page = (script: string, csp: boolean) => `<!doctype html>
<html><head><meta charset="utf-8">${csp ? `<meta http-equiv="Content-Security-Policy" content="worker-src 'none'">` : ''}<title>tilenav service</title></head>
<body><script ${script}></script></body></html>
`;

function sh(cmd: string, args: string[], cwd: string, timeout = 120_000): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout, env: { ...process.env, npm_config_update_notifier: 'false' } });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/**
 * Packs the repository and installs the tarball into `dir/app`: with npm from its cache when it
 * can work offline, else by unpacking it into node_modules/tilenav beside links to the
 * repository's copies of its dependencies. Returns the app's folder and how it was installed.
 */
export function installPacked(dir: string): { app: string; how: string } {
  const packs = join(dir, 'pack');
  mkdirSync(packs, { recursive: true });
  // `prepare` builds dist first, as it does for a publish.
  const out = sh('npm', ['pack', '--pack-destination', packs, '--json', '--loglevel', 'error'], ROOT, 180_000);
  const tarball = join(packs, JSON.parse(out.slice(out.indexOf('[')))[0].filename);
  const app = join(dir, 'app');
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const npm = spawnSync('npm', ['install', tarball, '--offline', '--no-audit', '--no-fund', '--loglevel', 'error'], { cwd: app, encoding: 'utf8', timeout: 60_000 });
  if (npm.status === 0 && existsSync(join(app, 'node_modules/tilenav/dist/service/web.js'))) return { app, how: 'npm install --offline' };
  const into = join(app, 'node_modules/tilenav');
  mkdirSync(into, { recursive: true });
  sh('tar', ['-xzf', tarball, '-C', into, '--strip-components=1'], app);
  const deps = Object.keys(JSON.parse(readFileSync(join(into, 'package.json'), 'utf8')).dependencies ?? {});
  for (const d of deps) if (!existsSync(join(app, 'node_modules', d))) symlinkSync(join(ROOT, 'node_modules', d), join(app, 'node_modules', d), 'dir');
  return { app, how: `unpacked (npm install --offline: ${(npm.stderr.split('\n').find((l) => /code E|error/i.test(l)) ?? `exit ${npm.status}`).trim()})` };
}

/** Writes the consumer's sources: main.js and index.html (for Vite). */
export function writeApp(app: string): void {
  writeFileSync(join(app, 'main.js'), MAIN);
  writeFileSync(join(app, 'index.html'), page('type="module" src="./main.js"', false));
}

/** Bundles main.js with esbuild's defaults (an IIFE) and as ESM, with a page each and a page under a CSP forbidding workers. */
export async function esbuildApp(app: string): Promise<string> {
  const { build } = await import('esbuild');
  const out = join(app, 'esbuild-out');
  await build({ absWorkingDir: app, entryPoints: ['main.js'], bundle: true, outfile: join(out, 'iife.js'), logLevel: 'silent' });
  await build({ absWorkingDir: app, entryPoints: ['main.js'], bundle: true, format: 'esm', outfile: join(out, 'esm.js'), logLevel: 'silent' });
  writeFileSync(join(out, 'iife.html'), page('src="./iife.js"', false));
  writeFileSync(join(out, 'esm.html'), page('type="module" src="./esm.js"', false));
  writeFileSync(join(out, 'csp.html'), page('type="module" src="./esm.js"', true));
  return out;
}

/** Vite's build of the app (no config); returns its output folder. */
export function viteBuild(app: string): string {
  sh(process.execPath, [VITE, 'build', '--logLevel', 'warn'], app);
  const out = join(app, 'dist');
  assert.ok(readdirSync(join(out, 'assets')).length > 0);
  return out;
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };

/** A static file server on 127.0.0.1 for `dir`; resolves with its address. */
export async function serveStatic(dir: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = join(dir, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    if (!path.startsWith(dir) || !existsSync(path) || !extname(path)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(readFileSync(path));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, server };
}

/** Starts `vite <args>` in the app and resolves with the address it prints. */
export async function startVite(app: string, args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [VITE, ...args, '--host', '127.0.0.1', '--port', '0'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await serverAddress(child, `vite ${args.join(' ')}`);
  return { url, child };
}
