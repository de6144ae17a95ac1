import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { main } from '../src/cli/main.js';
import { fixture } from './fixtures.js';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('..', import.meta.url));

const MAP = fixture('movingai/rmtst01.map');
const SCEN = fixture('movingai/rmtst01.map.scen');

test('scen --workers N under tsx: every answer optimal, summary adds workers and throughputQps', async () => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['scen', MAP, SCEN, '--workers', '2', '--json'], { out: (l) => out.push(l), err: (l) => err.push(l), columns: undefined, errIsTty: false });
  assert.equal(code, 0, err.join('\n'));
  const summary = JSON.parse(out[0]);
  assert.equal(summary.workers, 2);
  assert.equal(summary.optimal, summary.queries);
  assert.ok(summary.throughputQps > 0);
  const bad = await main(['scen', MAP, SCEN, '--workers', '0'], { out: () => {}, err: (l) => err.push(l), columns: undefined, errIsTty: false });
  assert.equal(bad, 2);
  assert.match(err.at(-1)!, /--workers/);
});

test('the built package runs its workers from plain JavaScript (no TypeScript loader)', async () => {
  // Inside node_modules so the build finds the repository's dependencies, as an installed package would.
  const outDir = fileURLToPath(new URL(`../node_modules/.cache/tilenav-dist-test-${process.pid}/`, import.meta.url));
  try {
    await run(process.execPath, [fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url)), '-p', 'tsconfig.build.json', '--outDir', outDir], { cwd: repo });
    const script = `
      const { NavGrid, findPath } = await import(${JSON.stringify(outDir + 'index.js')});
      const { createPathService } = await import(${JSON.stringify(outDir + 'service/node.js')});
      const grid = new NavGrid(9, 4);
      grid.fillRect(4, 0, 1, 3, { walkable: false });
      const svc = createPathService(grid, { workers: 2 });
      const r = await svc.findPath(0, 0, 8, 0);
      await svc.close();
      const want = findPath(grid, 0, 0, 8, 0).cost;
      console.log(JSON.stringify({ status: r.status, cost: r.cost, want, shared: svc.shared, loaders: process.execArgv.filter((a) => /^--(import|loader|require)|^tsx$/.test(a)).length + (process.env.NODE_OPTIONS ?? '').length }));
    `;
    // No --import tsx: the workers must load service/node-worker.js.
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: repo, timeout: 30_000, env: { ...process.env, NODE_OPTIONS: '' } });
    const r = JSON.parse(stdout);
    assert.equal(r.status, 'found');
    assert.equal(r.cost, r.want);
    assert.equal(r.shared, true);
    assert.equal(r.loaders, 0);
    const cli = await run(process.execPath, [outDir + 'cli/main.js', 'scen', MAP, SCEN, '--workers', '2', '--json'], { cwd: repo, timeout: 60_000 });
    const summary = JSON.parse(cli.stdout);
    assert.equal(summary.workers, 2);
    assert.equal(summary.optimal, summary.queries);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
});
