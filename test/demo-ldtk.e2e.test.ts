/**
 * End-to-end: LDtk projects in the demo, picked from disk with their level files and tileset
 * images: the stitched world of the top-down sample drawn with its tiles, levels saved apart read
 * from the picked .ldtkl files, a missing level file named on the page.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseLdtk } from '../src/loaders/index.js';
import { fixture } from './fixtures.js';
import { drawn, pixelAt, skip, startDemo, type Demo } from './helpers-demo.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const window: any;
declare const document: any;

const OUT = new URL('../test-output/', import.meta.url);
let demo: Demo | undefined;

before(async () => {
  if (skip) return;
  demo = await startDemo();
  mkdirSync(OUT, { recursive: true });
});

after(async () => {
  await demo?.stop();
});

const waitForPick = (page: any, name: string) =>
  page.waitForFunction((n: string) => (window.__tilenav.map === n && window.__tilenav.drawn) || document.getElementById('error').textContent !== '', name);

test('the demo draws an LDtk world with its tiles, reads levels saved apart, and names a level file not picked', { skip }, async () => {
  const page = await demo!.open('?map=arena', { width: 1280, height: 800 });
  const project = fixture('ldtk/Typical_TopDown_example.ldtk');
  const p = parseLdtk(readFileSync(project), { file: project });
  await page.setInputFiles('#file', [project, fixture('ldtk/atlas/TopDown_by_deepnight.png')]);
  await waitForPick(page, 'Typical_TopDown_example.ldtk');
  assert.equal(await page.textContent('#error'), '');
  assert.equal(await page.textContent('#missing'), '');
  assert.deepEqual(await page.evaluate(() => window.__tilenav.size), [p.world!.grid.width, p.world!.grid.height]);
  // Two floor cells of one colour in the overlay show different tiles beneath it.
  const floor: [number, number][] = [];
  for (let x = 0; x < p.world!.grid.width && floor.length < 40; x++) for (let y = 0; y < p.world!.grid.height; y++) if (p.world!.grid.isWalkable(x, y)) floor.push([x, y]);
  const colours = new Set<string>();
  for (const [x, y] of floor) colours.add((await pixelAt(page, x, y)).join(','));
  assert.ok(colours.size > 1, `the floor shows its tiles: ${[...colours].join(' ')}`);
  writeFileSync(new URL('ldtk-world.png', OUT), await page.screenshot());
  // docs/formats.md shows this screen; refreshed on request so a test run leaves the checkout clean.
  if (process.env.TILENAV_UPDATE_SCREENSHOT === '1') writeFileSync(new URL('../docs/ldtk.png', import.meta.url), await page.screenshot());

  const apart = fixture('ldtk/SeparateLevelFiles.ldtk');
  const levels = [0, 1, 2].map((k) => fixture(`ldtk/SeparateLevelFiles/World_Level_${k}.ldtkl`));
  await page.setInputFiles('#file', [apart, ...levels]);
  await waitForPick(page, 'SeparateLevelFiles.ldtk');
  assert.equal(await page.textContent('#error'), '');
  assert.deepEqual(await page.evaluate(() => window.__tilenav.size), [15, 15]);
  await drawn(page);

  await page.setInputFiles('#file', [apart, levels[0], levels[2]]);
  await page.waitForFunction(() => document.getElementById('error').textContent !== '');
  assert.match((await page.textContent('#error')) ?? '', /SeparateLevelFiles\.ldtk: level "World_Level_1": cannot read the level file .*World_Level_1\.ldtkl.*pick the project together with World_Level_1\.ldtkl/);
  assert.deepEqual(demo!.consoleErrors, []);
});
