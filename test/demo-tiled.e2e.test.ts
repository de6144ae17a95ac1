/**
 * End-to-end: Tiled maps in the demo as they were drawn. Every map of the Tiled examples folder is
 * picked from disk with its tilesets and images, drawn with its tiles under the navigation
 * overlay, and photographed into test-output/ (tiled-*.png); staggered and hexagonal maps are
 * clicked, routed and zoomed in their own geometry; then the page's polish: messages, the map
 * list, labels and selects at two window sizes, the legend, the hint, units and orders.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { OVERLAY_COLORS } from '../src/render/index.js';
import { loadTiled, type TiledRules } from '../src/loaders/index.js';
import { fixture } from './fixtures.js';
import { assertToastBeside, clickCell, drawn, pageState, pixelAt, skip, startDemo, toast, type Demo } from './helpers-demo.js';

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
    for (const row of document.querySelectorAll('#tiles-layers div')) {
      const [k, v] = row.children;
      if (k && v && overlap(k.getBoundingClientRect(), v.getBoundingClientRect())) bad.push(\`layer row \${k.textContent} / \${v.textContent}\`);
    }
    // The palette's tiles, sheets and buttons stay inside the side panel.
    const side = document.getElementById('side').getBoundingClientRect();
    for (const el of document.querySelectorAll('#tiles button, #tiles canvas.sheet, #tiles select, #tiles .tiles')) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && (r.left < side.left || r.right > side.right)) bad.push(\`tiles panel: \${el.id || el.className || el.tagName} \${el.textContent || el.title} runs out of the panel\`);
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
    // Neither smoothing mode is straight in hex or staggered cell coordinates: neither is offered.
    assert.deepEqual(await page.$$eval('#smoothing option:disabled', (os) => os.map((o: any) => o.value)), ['string', 'anyangle'], `${file}: no smoothing on ${movement} cells`);
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

test('demo: the hexagonal map offers only the searches and smoothing that apply; a chosen one that does not falls back and says so', { skip, timeout: 60_000 }, async () => {
  const page = await demo!.open('?map=arena', { width: 1280, height: 800 });
  const options = (sel: string) => page.$$eval(`${sel} option`, (os) => os.map((o: any) => ({ value: o.value, disabled: o.disabled, title: o.title })));
  // On a square map every search and smoothing mode is offered.
  for (const sel of ['#algorithm', '#smoothing']) assert.ok((await options(sel)).every((o) => !o.disabled), `${sel}: all offered on the arena`);
  await page.selectOption('#algorithm', 'hpa');
  await page.selectOption('#smoothing', 'string');
  await page.fill('#weight', '-5');
  await page.dispatchEvent('#weight', 'change');
  assert.match(await text(page, '#weight-error'), /"-5" cannot be used/);
  await drawn(page);
  await page.selectOption('#map', 'hex');
  await drawn(page);
  assert.equal(await text(page, '#weight-error'), '', 'a refused weight of the last map is not shown on the next');
  // The Hierarchy and strict jump point searches walk square grids only: greyed out, the reason as tooltip.
  const algorithms = await options('#algorithm');
  assert.deepEqual(algorithms.filter((o) => o.disabled).map((o) => o.value), ['jpsStrict', 'jpsPlus', 'hpa']);
  assert.equal(algorithms.find((o) => o.value === 'hpa')!.title, "Hierarchy (HPA*, near-optimal) needs 'octile' or 'cardinal' movement, not 'hex'");
  const smoothing = await options('#smoothing');
  assert.deepEqual(smoothing.filter((o) => o.disabled).map((o) => o.value), ['string', 'anyangle']);
  assert.match(smoothing.find((o) => o.value === 'string')!.title, /needs square or isometric movement, not 'hex'/);
  // The chosen ones fell back: a path is found (not a refusal as status), and the panel says why.
  assert.deepEqual([await page.inputValue('#algorithm'), await page.inputValue('#smoothing')], ['jps', 'none']);
  assert.equal((await pageState(page)).status, 'found');
  assert.equal(await text(page, '#result [data-k=status]'), 'found');
  const note = await text(page, '#search-note');
  assert.match(note, /^Hierarchy \(HPA\*, near-optimal\) needs 'octile' or 'cardinal' movement, not 'hex': searching with Jump point search \(auto\) instead\.$/m);
  assert.match(note, /^string pulling needs square or isometric movement, not 'hex' .*: smoothing is off\.$/m);
  assert.deepEqual(await layoutProblems(page), [], 'the note wraps inside the panel');
  await page.locator('#side').screenshot({ path: fileURLToPath(new URL('demo-hex-fallback.png', OUT)) });
  // Picking again clears the note; back on a square map every option is offered again.
  await page.selectOption('#algorithm', 'astar');
  assert.equal(await text(page, '#search-note'), '');
  await page.selectOption('#map', 'arena');
  await drawn(page);
  for (const sel of ['#algorithm', '#smoothing']) assert.ok((await options(sel)).every((o) => !o.disabled && o.title === ''), `${sel}: all offered again`);
  assert.deepEqual(demo!.consoleErrors, [], 'no console errors');
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
  // A click on a blocked cell says so beside the click (the map's corner: the message stays in
  // view) and keeps the turn: the next click still sets the start.
  await page.click('#clear');
  const corner = await page.evaluate(() => window.__tilenav.cellToClient(0, 0));
  await clickCell(page, 0, 0);
  await assertToastBeside(page, corner, /\(0, 0\) is blocked/);
  assert.equal((await pageState(page)).start, null);
  await clickCell(page, 2, 2);
  await clickCell(page, 57, 18);
  await drawn(page);
  const s = await pageState(page);
  assert.deepEqual([s.start, s.goal], [[2, 2], [57, 18]], 'the blocked click did not use up the start');
  assert.equal((await toast(page)).shown, false, 'the message went with the next click');
  // A right-click order without a selection says what to do, beside the click.
  await page.selectOption('#tool', 'units');
  const empty = await page.evaluate(() => window.__tilenav.cellToClient(30, 10));
  await page.mouse.click(empty.x, empty.y, { button: 'right' });
  await assertToastBeside(page, empty, /No unit is selected/);
  await page.selectOption('#tool', 'route');
  // The weight field refuses what the search cannot use, says why beside it, and keeps the last weight.
  for (const bad of ['-1', '11', '']) {
    await page.fill('#weight', bad);
    await page.dispatchEvent('#weight', 'change');
    assert.match(await text(page, '#weight-error'), /cannot be used: give a number from 0/, `weight ${bad}`);
    assert.equal(await page.inputValue('#weight'), '1');
  }
  // Typed as a user does: the refusal goes once the field holds a usable weight again, even the
  // kept one (no change event then), and stays while it does not.
  await page.click('#weight', { clickCount: 3 });
  await page.keyboard.type('12');
  await page.keyboard.press('Enter');
  assert.match(await text(page, '#weight-error'), /"12" cannot be used/);
  await page.click('#weight', { clickCount: 3 });
  await page.keyboard.type('-');
  assert.match(await text(page, '#weight-error'), /"12" cannot be used/, 'a half-typed value leaves the message');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('1');
  assert.equal(await text(page, '#weight-error'), '', 'the kept weight typed again clears the message');
  await page.fill('#weight', '2');
  await page.dispatchEvent('#weight', 'change');
  assert.equal(await text(page, '#weight-error'), '');
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

/** Clicks a tile in the palette: its button among the used tiles, else its place on the tileset's sheet. */
async function clickTile(page: Page, tileset: string, id: number): Promise<void> {
  const b = await page.evaluate(([t, i]) => window.__tilenav.tileButton(t, i), [tileset, id] as const);
  if (b !== null) return page.mouse.click(b.x, b.y);
  const p = await page.evaluate(([t, i]) => {
    const sheet = document.querySelector(`#palette canvas.sheet[data-sheet="${t}"]`);
    sheet.parentElement.open = true;
    const ts = window.__tilenav.tilesets.find((s: any) => s.name === t);
    const x = ts.margin + (i % ts.columns) * (ts.tileWidth + ts.spacing) + ts.tileWidth / 2;
    const y = ts.margin + Math.floor(i / ts.columns) * (ts.tileHeight + ts.spacing) + ts.tileHeight / 2;
    sheet.scrollIntoView({ block: 'center' });
    const r = sheet.getBoundingClientRect();
    return { x: r.left + (x * r.width) / sheet.width, y: r.top + (y * r.height) / sheet.height };
  }, [tileset, id] as const);
  await page.mouse.click(p.x, p.y);
}

const walkableCells = (page: Page): Promise<number[]> =>
  page.evaluate(() => {
    const [w, h] = window.__tilenav.size;
    const out: number[] = [];
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out.push(window.__tilenav.isWalkable(x, y) ? 1 : 0);
    return out;
  });

test('demo: Tiles palette on the island map: water tiles blocked by hand, the route goes around, rules saved, loaded and written into the tileset', { skip, timeout: 120_000 }, async () => {
  const island = join(TILED_DIR, 'tiled-examples/rpg/island.tmx');
  const rulesPath = fileURLToPath(new URL('../examples/island.rules.json', import.meta.url));
  const rulesText = readFileSync(rulesPath, 'utf8');
  const expected = JSON.parse(rulesText) as TiledRules;
  const water = expected.tilesets!.beach_tileset;
  // The grid the loader builds with the rules file: what the page must show once the same rules are clicked.
  const tmx = readFileSync(island, 'utf8');
  const readTileset = (p: string) => readFileSync(p, 'utf8');
  const byFile = loadTiled(tmx, { file: island, readFile: readTileset, rules: rulesText });
  const want: number[] = [];
  for (let y = 0; y < byFile.grid.height; y++) for (let x = 0; x < byFile.grid.width; x++) want.push(byFile.grid.isWalkable(x, y) ? 1 : 0);

  const page = await demo!.open('', { width: 1280, height: 800 });
  assert.equal(await page.$eval('#tiles', (e: any) => e.open), false, 'folded on the bundled map, which says what blocks');
  await pickMap(page, island);
  assert.equal(await page.isVisible('#tiles'), true, 'the Tiles panel shows for a Tiled map');
  assert.equal(await page.$eval('#tiles', (e: any) => e.open), true, 'and opens: the island map does not say which tiles block');
  assert.equal(await page.isVisible('#rule'), true);
  assert.match(await text(page, '#tiles-warnings'), /says which tiles block.*click the blocking tiles.*in the palette.*bool property `collides`/s, 'the warning says the fix in plain words');
  // The tiles the map uses come first, most cells first, with their counts.
  const first = await page.$eval('#palette button.tile', (b: any) => [b.dataset.id, b.querySelector('small').textContent]);
  assert.deepEqual(first, ['148', '1875'], 'the open-sea tile leads the palette with its 1875 cells');
  // Routes before any rule: straight over the sea.
  await page.evaluate(() => window.__tilenav.route(22, 14, 36, 15));
  await drawn(page);
  const before = await pageState(page);
  assert.equal(before.status, 'found');

  // By hand: the "Tile rule" tool on an open-sea cell blocks the sea tile under the cursor.
  await page.selectOption('#tool', 'tile-rule');
  await page.selectOption('#rule', 'blocked');
  assert.deepEqual(await page.evaluate(() => window.__tilenav.tileAt(2, 2)), { tileset: 'beach_tileset', id: 148 });
  const over = await page.evaluate(() => window.__tilenav.cellToClient(2, 2));
  await page.mouse.move(over.x, over.y);
  assert.match(await text(page, '#hint'), /Under the cursor \(2, 2\): beach_tileset tile 148\./, 'the hint names the tile under the cursor');
  await clickCell(page, 2, 2);
  await drawn(page);
  await assertToastBeside(page, over, /^beach_tileset tile 148: blocked\.$/);
  assert.equal(await page.evaluate(() => window.__tilenav.isWalkable(2, 2)), false, 'the clicked sea cell blocks at once');
  assert.equal(await page.evaluate(() => window.__tilenav.isWalkable(0, 46)), false, 'and every other cell showing that tile');
  assert.match(await text(page, '#tiles-message'), /beach_tileset tile 148: blocked/);
  // The other water tiles in the palette, then the piers as bridges (ids from examples/island.rules.json).
  for (const [id, r] of Object.entries(water)) if (r.walkable === false && id !== '148') await clickTile(page, 'beach_tileset', Number(id));
  await page.selectOption('#rule', 'bridge');
  for (const [id, r] of Object.entries(water)) if (r.walkable === true) await clickTile(page, 'beach_tileset', Number(id));
  await drawn(page);
  assert.deepEqual(await page.evaluate(() => window.__tilenav.rules), expected, 'the rules picked are those of the file');
  assert.deepEqual(await walkableCells(page), want, 'the grid is the one the loader builds with the rules file');
  assert.equal(await text(page, '#tiles-warnings'), '', 'the warning is gone once tiles block');
  // The route goes around the bay now; the islet in the south-west cannot be reached at all.
  const after = await pageState(page);
  assert.equal(after.status, 'found');
  assert.ok(after.cost > before.cost + 5, `the route goes around (cost ${before.cost} -> ${after.cost})`);
  for (const [x, y] of after.path) assert.equal(want[y * byFile.grid.width + x], 1, `path cell (${x}, ${y}) is walkable`);
  await shot(page, 'tiled-rules-island.png');
  await page.evaluate(() => window.__tilenav.route(8, 36, 40, 25));
  await drawn(page);
  assert.notEqual((await pageState(page)).status, 'found', 'no route from the islet over the sea');
  await page.evaluate(() => window.__tilenav.route(22, 14, 36, 15));
  await drawn(page);

  // Save rules: the downloaded file says what was set, line for line as the library writes it.
  const [saved] = await Promise.all([page.waitForEvent('download'), page.click('#save-rules')]);
  assert.equal(saved.suggestedFilename(), 'island.rules.json');
  assert.equal(readFileSync(await saved.path(), 'utf8'), rulesText, 'the saved rules equal examples/island.rules.json');

  // A layer rule: the Over layer's cells block, then clear again.
  await page.selectOption('#rule', 'blocked');
  await page.click('#tiles-layers button[data-layer="Over"]');
  await drawn(page);
  const overBlocked = (await walkableCells(page)).filter((v) => v === 0).length;
  assert.ok(overBlocked > want.filter((v) => v === 0).length, 'the Over layer blocks its cells');
  await page.selectOption('#rule', 'clear');
  await page.click('#tiles-layers button[data-layer="Over"]');
  // Clear one tile by hand, then Load rules puts it back.
  await clickTile(page, 'beach_tileset', 148);
  await drawn(page);
  assert.equal(await page.evaluate(() => window.__tilenav.isWalkable(2, 2)), true, 'cleared: the sea is walkable again');
  await page.setInputFiles('#rules-file', rulesPath);
  await page.waitForFunction(() => /Rules read from/.test(document.getElementById('tiles-message').textContent));
  await drawn(page);
  assert.deepEqual(await page.evaluate(() => window.__tilenav.rules), expected, 'Load rules reads the file');
  assert.deepEqual(await walkableCells(page), want);

  // A cost and a terrain from the terrain table: the rule takes the number given, and refuses one it cannot use.
  assert.ok((await page.$$eval('#rule option', (os) => os.map((o: any) => o.value))).includes('terrain:Water'), 'the terrain table is offered');
  await page.selectOption('#rule', 'cost');
  await page.fill('#rule-cost', '0');
  await clickTile(page, 'beach_tileset', 338);
  assert.match(await text(page, '#tiles-message'), /Cost "0" cannot be used/);
  await page.fill('#rule-cost', '2.5');
  await clickTile(page, 'beach_tileset', 338);
  await drawn(page);
  assert.deepEqual((await page.evaluate(() => window.__tilenav.rules)).tilesets.beach_tileset['338'], { cost: 2.5 });
  await page.selectOption('#rule', 'clear');
  await clickTile(page, 'beach_tileset', 338);
  assert.deepEqual(await page.evaluate(() => window.__tilenav.rules), expected, 'cleared again');
  // Export tilesets: the tileset file with the rules as tile properties loads to the same grid without rules.
  const [tsx] = await Promise.all([page.waitForEvent('download'), page.click('#export-tilesets')]);
  assert.equal(tsx.suggestedFilename(), 'beach_tileset.tsx');
  const exported = readFileSync(await tsx.path(), 'utf8');
  assert.match(exported, /<property name="collides" type="bool" value="true"\/>/);
  const viaTileset = loadTiled(tmx, { file: island, readFile: (p) => (p.endsWith('beach_tileset.tsx') ? exported : readTileset(p)) });
  const got: number[] = [];
  for (let y = 0; y < viaTileset.grid.height; y++) for (let x = 0; x < viaTileset.grid.width; x++) got.push(viaTileset.grid.isWalkable(x, y) ? 1 : 0);
  assert.deepEqual(got, want, 'the exported tileset blocks the same cells');

  for (const viewport of [{ width: 1280, height: 800 }, { width: 1024, height: 640 }]) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => document.getElementById('tiles').scrollIntoView());
    assert.deepEqual(await layoutProblems(page), [], `${viewport.width} x ${viewport.height}: the Tiles panel is laid out cleanly`);
    await shot(page, `tiled-rules-panel-${viewport.width}x${viewport.height}.png`);
  }
  assert.deepEqual(demo!.consoleErrors, [], 'no console errors');
  await page.close();
});
