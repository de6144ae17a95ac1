/**
 * End-to-end: Tiled maps in the demo as they were drawn. Every map of the Tiled examples folder is
 * picked from disk with its tilesets and images, drawn with its tiles under the navigation
 * overlay, and photographed into test-output/ (tiled-*.png); staggered and hexagonal maps are
 * clicked, routed and zoomed in their own geometry; then the page's polish: messages, the map
 * list, labels and selects at two window sizes, the legend, the hint, units and orders.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';
import type { Page } from 'playwright-core';
import { OVERLAY_COLORS } from '../src/render/index.js';
import { fixture } from './fixtures.js';
import { clickCell, drawn, pageState, pixelAt, skip, startDemo, type Demo } from './helpers-demo.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const window: any;
declare const document: any;
declare const getComputedStyle: any;

/** The Tiled maps made outside this project (with their tilesets and images), in these folders of it. */
const TILED_DIR = fixture('tiled');
const REAL_MAP_FOLDERS = ['tiled-examples', 'workadventure'];

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

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
}

const MAP_EXT = new Set(['.tmx', '.tmj']);
const allFiles = () => REAL_MAP_FOLDERS.flatMap((d) => walk(join(TILED_DIR, d)));
const shot = async (page: Page, name: string) => writeFileSync(new URL(name, OUT), await page.screenshot());
const text = (page: Page, sel: string) => page.textContent(sel).then((t) => t ?? '');

/** Picks a map with the tilesets and images of its folder (and the folders above it, up to TILED_DIR). */
async function pickMap(page: Page, map: string): Promise<void> {
  const dir = dirname(map);
  const beside = allFiles().filter((f) => !MAP_EXT.has(extname(f)) && (dirname(f) === dir || dirname(f).startsWith(dir + '/')));
  await page.setInputFiles('#file', [map, ...beside]);
  await page.waitForFunction((n) => (window.__tilenav.map === n && window.__tilenav.drawn) || document.getElementById('error').textContent !== '', basename(map));
  assert.equal(await page.textContent('#error'), '', `${basename(map)}: no error`);
}

/** What the panel cuts off or overlaps: select options wider than their select, labels or names running into their values. */
function layoutProblems(page: Page): Promise<string[]> {
  // A string, so the test runner's transform leaves the page code as written.
  return page.evaluate(`(() => {
    const bad = [];
    const ctx = document.createElement('canvas').getContext('2d');
    for (const sel of document.querySelectorAll('select')) {
      const st = getComputedStyle(sel);
      ctx.font = \`\${st.fontSize} \${st.fontFamily}\`;
      for (const o of sel.options) if (ctx.measureText(o.textContent).width + 30 > sel.clientWidth) bad.push(\`\${sel.id}: \${o.textContent}\`);
    }
    const overlap = (a, b) => a.right > b.left && b.right > a.left && a.bottom > b.top && b.bottom > a.top;
    for (const row of document.querySelectorAll('#result div, #stats div, #units div')) {
      const [k, v] = row.children;
      if (k && v && overlap(k.getBoundingClientRect(), v.getBoundingClientRect())) bad.push(\`row \${k.textContent} / \${v.textContent}\`);
    }
    for (const label of document.querySelectorAll('label')) {
      const control = label.querySelector('select, input');
      const range = document.createRange();
      range.selectNodeContents(label.firstChild);
      if (control && overlap(range.getBoundingClientRect(), control.getBoundingClientRect())) bad.push(\`label \${label.textContent.trim()}\`);
    }
    return bad;
  })()`);
}

test('demo: every Tiled example map from disk is drawn with its tiles, the overlay on top, what is missing named', { skip, timeout: 180_000 }, async () => {
  const page = await demo!.open('', { width: 1280, height: 800 });
  const maps = allFiles().filter((f) => MAP_EXT.has(extname(f)));
  assert.ok(maps.length >= 10, `${maps.length} maps under ${TILED_DIR}`);
  for (const map of maps) {
    const name = relative(TILED_DIR, map).replace(/[\\/]/g, '_').replace(/\.\w+$/, '');
    await pickMap(page, map);
    assert.equal(await text(page, '#error'), '', `${name}: no error`);
    // The map list shows what is loaded.
    assert.equal(await page.$eval('#map', (e: any) => e.selectedOptions[0].textContent), basename(map), `${name}: the map list shows the picked map`);
    const images = allFiles().some((f) => extname(f) === '.png' && dirname(f).startsWith(dirname(map)));
    const art = await page.evaluate(() => window.__tilenav.hasArt);
    const missing = await text(page, '#missing');
    if (images) {
      assert.equal(art, true, `${name}: drawn with its tiles`);
      assert.equal(missing, '', `${name}: nothing missing`);
    } else assert.match(missing, /Not picked, so not drawn: .*\.png/, `${name}: the images it needs are named`);
    // The map fits the view: inside the canvas, filling it in one direction.
    const [x0, y0, x1, y1] = await page.evaluate(() => window.__tilenav.screenExtent);
    const [cw, ch] = await page.$eval('#screen', (c: any) => [c.width, c.height]);
    assert.ok(x0 >= -1 && y0 >= -1 && x1 <= cw + 1 && y1 <= ch + 1, `${name}: fits (${[x0, y0, x1, y1].map(Math.round)} in ${cw} x ${ch})`);
    assert.ok(x1 - x0 >= cw * 0.9 || y1 - y0 >= ch * 0.9, `${name}: fills the view`);
    // The movement list offers only the models that fit the map's cells.
    const movements = await page.$$eval('#movement option', (os) => os.map((o: any) => o.value));
    if (/hex|stagger/.test(name)) assert.equal(movements.length, 1, `${name}: only its own model (${movements})`);
    else assert.ok(!movements.some((m: string) => m.startsWith('hex') || m.startsWith('staggered')), `${name}: no hex model on square cells (${movements})`);
    assert.deepEqual(await layoutProblems(page), [], `${name}: nothing cut off or overlapping`);
    await shot(page, `tiled-${name}.png`);
  }
  assert.deepEqual(demo!.consoleErrors, [], 'no console errors');
  await page.close();
});

test('demo: a Tiled folder picked whole lists its maps; one picked from the list opens with its tiles', { skip, timeout: 60_000 }, async () => {
  const page = await demo!.open('', { width: 1280, height: 800 });
  await page.setInputFiles('#folder', join(TILED_DIR, 'tiled-examples'));
  await page.waitForFunction(() => window.__tilenav.map.startsWith('tiled-examples/') && window.__tilenav.drawn);
  const listed: string[] = await page.$$eval('#map optgroup[label="From disk: tiled-examples/"] option', (os) => os.map((o: any) => o.textContent));
  const expected = walk(join(TILED_DIR, 'tiled-examples')).filter((f) => MAP_EXT.has(extname(f))).map((f) => relative(TILED_DIR, f)).sort();
  assert.deepEqual(listed.map((l) => `tiled-examples/${l}`).sort(), expected, 'every map of the folder is listed (under the folder name)');
  assert.deepEqual(await layoutProblems(page), [], 'the listed names are readable whole');
  await page.selectOption('#map', 'disk:tiled-examples/rpg/island.tmx');
  await page.waitForFunction(() => window.__tilenav.map === 'tiled-examples/rpg/island.tmx' && window.__tilenav.drawn);
  assert.equal(await page.evaluate(() => window.__tilenav.hasArt), true, 'its tileset (in a subfolder) and image were found by path');
  assert.equal(await text(page, '#missing'), '');
  await shot(page, 'tiled-folder-island.png');
  await page.close();
});

test('demo: staggered and hexagonal maps: clicks pick the cell drawn there, routes run in the map model, markers sit on their cells, zoom stays sharp', { skip, timeout: 90_000 }, async () => {
  const page = await demo!.open('', { width: 1280, height: 800 });
  for (const [file, movement] of [['tiled-examples/hexagonal-mini.tmx', 'hex-odd-r'], ['tiled-examples/isometric_staggered_grass_and_water.tmx', 'staggered-odd-r'], ['tiled-examples/test_hexagonal_tile_60x60x30.tmx', 'hex-']] as const) {
    await pickMap(page, join(TILED_DIR, file));
    assert.ok((await page.inputValue('#movement')).startsWith(movement), `${file}: walks ${movement}`);
    const [w, h] = await page.evaluate(() => window.__tilenav.size);
    await page.click('#clear');
    const cells: [number, number][] = [];
    for (const [x, y] of [[1, 1], [w - 2, h - 2], [w >> 1, h >> 1], [2, h - 3]]) if (await page.evaluate(([x, y]) => window.__tilenav.isWalkable(x, y), [x, y])) cells.push([x, y]);
    assert.ok(cells.length >= 2, `${file}: walkable cells to route between`);
    await clickCell(page, ...cells[0]);
    await clickCell(page, ...cells[1]);
    await drawn(page);
    const s = await pageState(page);
    assert.deepEqual([s.start, s.goal], [cells[0], cells[1]], `${file}: the clicked cells became start and goal`);
    if (movement === 'hex-odd-r') {
      // The query `tilenav path hexagonal-mini.tmx --from 1,1 --to 15,15` answers with cost 21.
      await page.evaluate(() => window.__tilenav.route(1, 1, 15, 15));
      await drawn(page);
      assert.equal((await pageState(page)).cost, 21, 'the page walks the map as path does');
      await page.evaluate(([a, b, c, d]) => window.__tilenav.route(a, b, c, d), [...cells[0], ...cells[1]]);
      await drawn(page);
    }
    if (s.status === 'found') {
      const [mx, my] = s.path[s.path.length >> 1];
      await page.uncheck('#overlay');
      await drawn(page);
      assert.deepEqual(await pixelAt(page, mx, my), [...OVERLAY_COLORS.path], `${file}: the path runs through its middle cell's centre`);
      await page.check('#overlay');
    }
    // Zoomed 6x on the start: the cell edges stay sharp (no blurred band of in-between colours).
    await page.evaluate(([x, y]) => {
      window.__tilenav.centreOn(x, y);
      window.__tilenav.zoomBy(6);
    }, cells[0]);
    await drawn(page);
    const name = basename(file).replace(/\.\w+$/, '');
    await shot(page, `tiled-zoom-${name}.png`);
    await page.click('#fit');
  }
  await page.close();
});

test('demo: polish: blocked clicks, weight, hint, legend, labels at two sizes, units at the view centre, order ring', { skip, timeout: 90_000 }, async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 1024, height: 640 }]) {
    const page = await demo!.open('', viewport);
    const cut = await layoutProblems(page);
    assert.deepEqual(cut, [], `${viewport.width} x ${viewport.height}: nothing cut off or overlapping`);
    // A long status (a search that does not apply to terrain costs) wraps beside its name.
    await page.selectOption('#algorithm', 'jpsPlus');
    await drawn(page);
    assert.match(await text(page, '#result [data-k=status]'), /^JPS\+/);
    assert.deepEqual(await layoutProblems(page), [], `${viewport.width} x ${viewport.height}: a long status stays apart from its name`);
    await shot(page, `demo-panel-${viewport.width}x${viewport.height}.png`);
    await page.close();
  }
  const page = await demo!.open('?map=arena', { width: 1280, height: 800 });
  // The legend names every colour drawn, the expanded cells and the open list among them.
  const legend = await text(page, '#legend');
  for (const name of ['expanded', 'open list', 'path', 'start', 'goal', 'blocked', 'smoothed path', 'unit', 'selected unit', 'units sent here']) assert.ok(legend.includes(name), `legend names ${name}`);
  // The hint follows the tool.
  const hints = new Set<string>();
  for (const tool of ['route', 'units', 'wall', 'erase']) {
    await page.selectOption('#tool', tool);
    hints.add(await text(page, '#hint'));
  }
  assert.equal(hints.size, 4, 'one hint per tool');
  await page.selectOption('#tool', 'route');
  assert.match(await text(page, '#hint'), /start/);
  // A click on a blocked cell says so and keeps the turn: the next click still sets the start.
  await page.click('#clear');
  await clickCell(page, 0, 0);
  assert.match(await text(page, '#notice'), /\(0, 0\) is blocked/);
  assert.equal((await pageState(page)).start, null);
  await clickCell(page, 2, 2);
  await clickCell(page, 57, 18);
  await drawn(page);
  const s = await pageState(page);
  assert.deepEqual([s.start, s.goal], [[2, 2], [57, 18]], 'the blocked click did not use up the start');
  assert.equal(await text(page, '#notice'), '');
  // The weight field refuses what the search cannot use, says why, and keeps the last weight.
  for (const bad of ['-1', '11', '']) {
    await page.fill('#weight', bad);
    await page.dispatchEvent('#weight', 'change');
    assert.match(await text(page, '#notice'), /cannot be used: give a number from 0/, `weight ${bad}`);
    assert.equal(await page.inputValue('#weight'), '1');
  }
  await page.fill('#weight', '2');
  await page.dispatchEvent('#weight', 'change');
  assert.equal(await text(page, '#notice'), '');
  await page.fill('#weight', '1');
  await page.dispatchEvent('#weight', 'change');
  // Units appear around the view centre, never on the start marker.
  await page.evaluate(() => window.__tilenav.centreOn(30, 10));
  await page.click('#add-units');
  const units: { x: number; y: number }[] = await page.evaluate(() => window.__tilenav.units);
  assert.equal(units.length, 12);
  for (const u of units) {
    assert.ok(Math.hypot(u.x - 30, u.y - 10) < 6, `unit at (${u.x}, ${u.y}) near the view centre (30, 10)`);
    assert.ok(!(u.x === 2 && u.y === 2) && !(u.x === 57 && u.y === 18), 'not on a route marker');
  }
  // A right-click order shows a ring where the units go.
  await page.evaluate(() => window.__tilenav.pauseUnits(true));
  await page.selectOption('#tool', 'units');
  await page.evaluate(() => window.__tilenav.selectUnits(window.__tilenav.units.map((u: { id: number }) => u.id)));
  const target = await page.evaluate(() => window.__tilenav.cellToClient(45, 6));
  await page.mouse.click(target.x, target.y, { button: 'right' });
  await drawn(page);
  const ring = await page.evaluate(([x, y]) => {
    const c = document.getElementById('screen');
    const r = c.getBoundingClientRect();
    const d = c.getContext('2d').getImageData(Math.round(x - r.left) - 40, Math.round(y - r.top) - 40, 80, 80).data;
    let n = 0;
    for (let k = 0; k < d.length; k += 4) if (d[k] === 0xff && d[k + 1] === 0xd5 && d[k + 2] === 0x4a) n++;
    return n;
  }, [target.x, target.y]);
  assert.ok(ring > 20, `the order ring is drawn (${ring} pixels of its colour)`);
  await shot(page, 'demo-order.png');
  assert.deepEqual(demo!.consoleErrors, [], 'no console errors');
  await page.close();
});
