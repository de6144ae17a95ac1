import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTiled } from '../src/loaders/index.js';
import { PNG } from 'pngjs';
import { OVERLAY_COLORS, cellOutline, movementFor, pickCell } from '../src/render/index.js';
import { runCli } from './helpers-cli.js';
import { findPath, orthogonal } from '../src/index.js';
import { onCells } from './grids.js';

const fixture = (f: string) => fileURLToPath(new URL(`./fixtures/tiled/${f}`, import.meta.url));
const read = (p: string) => readFileSync(p);

/** The cost a CLI command prints, from `path --json` or render's summary line. */
async function pathCost(map: string, from: string, to: string, ...extra: string[]): Promise<number | null> {
  const r = await runCli('path', map, '--from', from, '--to', to, '--json', ...extra);
  assert.equal(r.code, 0, r.err.join('\n'));
  return JSON.parse(r.out.filter((l) => l.startsWith('{')).pop()!).cost;
}

async function renderCost(map: string, from: string, to: string, out: string): Promise<number | null> {
  const r = await runCli('render', map, '--from', from, '--to', to, '--out', out);
  assert.equal(r.code, 0, r.err.join('\n'));
  const m = /path cost ([\d.]+)/.exec(r.out.join('\n'));
  return m ? Number(m[1]) : null;
}

test("render draws the path `path` finds on hexagonal and staggered Tiled maps: the same cost in the map's own model", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tilenav-render-tiled-'));
  let differsFromOctile = 0;
  let found = 0;
  for (const name of ['hex-even-r.tmj', 'hex-odd-q.tmj', 'staggered-even-q.tmj', 'staggered-odd-r.tmj']) {
    const map = fixture(name);
    const m = parseTiled(read(map), { file: map, readFile: read });
    assert.equal(movementFor(m.projection), m.movement, `${name}: the renderer's model is the loader's`);
    const cells: string[] = [];
    for (let y = 0; y < m.grid.height; y++) for (let x = 0; x < m.grid.width; x++) if (m.grid.isWalkable(x, y)) cells.push(`${x},${y}`);
    const square = onCells(m.grid, orthogonal(1, 1));
    // Far corners and a few pairs between: each one's cost printed by both commands.
    const pairs = [[cells[0], cells[cells.length - 1]], [cells[1], cells[cells.length >> 1]], [cells[cells.length >> 2], cells[cells.length - 2]]];
    for (const [from, to] of pairs) {
      const p = await pathCost(map, from, to);
      const r = await renderCost(map, from, to, join(dir, 'out.png'));
      if (p === null || r === null) {
        assert.equal(r, p, `${name} ${from} -> ${to}: both say there is no path`);
        continue;
      }
      found++;
      assert.ok(Math.abs(p - r) < 1e-3, `${name} ${from} -> ${to}: path ${p}, render ${r}`);
      // The same cells on squares, moving octile: the map's model must cost differently somewhere.
      const [fx, fy] = from.split(',').map(Number);
      const [tx, ty] = to.split(',').map(Number);
      const octile = findPath(square, fx, fy, tx, ty, { movement: 'octile' });
      if (octile.status !== 'found' || Math.abs(octile.cost - p) > 1e-3) differsFromOctile++;
    }
    // Square moves do not fit these cells: the CLI refuses them by name.
    const refused = await runCli('path', map, '--from', pairs[0][0], '--to', pairs[0][1], '--movement', 'octile');
    assert.notEqual(refused.code, 0, `${name}: octile on ${m.movement} cells`);
    assert.match(refused.err.join('\n'), /movement/);
  }
  assert.ok(found >= 8, `${found} of 12 queries found a path`);
  assert.ok(differsFromOctile > 0, 'some query costs differently on octile, so the comparison tells the models apart');
});

test('staggered cells are outlined as Tiled draws them: diamonds on staggered maps, hexagons on hexagonal ones, neighbours sharing edges', () => {
  const out = new Float64Array(12);
  for (const [name, vertices] of [['staggered-odd-r.tmj', 4], ['hex-even-r.tmj', 6], ['hex-odd-q.tmj', 6], ['staggered-even-q.tmj', 4]] as const) {
    const map = fixture(name);
    const m = parseTiled(read(map), { file: map, readFile: read });
    const spec = m.projection.spec as { tileWidth: number; tileHeight: number };
    assert.equal(cellOutline(m.projection, 2, 1, out), vertices, name);
    const xs = Array.from({ length: vertices }, (_, k) => out[2 * k]);
    const ys = Array.from({ length: vertices }, (_, k) => out[2 * k + 1]);
    // The outline fills the tile's box: tileWidth wide, tileHeight tall.
    assert.ok(Math.abs(Math.max(...xs) - Math.min(...xs) - spec.tileWidth) < 1e-9 && Math.abs(Math.max(...ys) - Math.min(...ys) - spec.tileHeight) < 1e-9, `${name}: ${xs} ${ys}`);
    // A click just inside any corner picks the cell drawn there; just outside, a neighbour.
    const c = m.projection.cellToWorld(2, 1);
    for (let k = 0; k < vertices; k++) {
      const inside = pickCell(m.projection, c.x + (out[2 * k] - c.x) * 0.97, c.y + (out[2 * k + 1] - c.y) * 0.97);
      assert.deepEqual([inside.x, inside.y], [2, 1], `${name}: just inside corner ${k} is cell (2, 1)`);
      const outside = pickCell(m.projection, c.x + (out[2 * k] - c.x) * 1.05, c.y + (out[2 * k + 1] - c.y) * 1.05);
      assert.notDeepEqual([outside.x, outside.y], [2, 1], `${name}: just outside corner ${k} is another cell`);
    }
  }
});

test("render draws a Tiled map's own tiles under the overlay (its opacity by --opacity, none with --overlay-only) and names images it cannot read", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tilenav-render-tiles-'));
  // A 2-tile sheet: red on the left, blue on the right (each 8 x 8), one row.
  const png = new PNG({ width: 16, height: 8 });
  for (let y = 0; y < 8; y++) for (let x = 0; x < 16; x++) png.data.set(x < 8 ? [255, 0, 0, 255] : [0, 0, 255, 255], (y * 16 + x) * 4);
  writeFileSync(join(dir, 'sheet.png'), PNG.sync.write(png));
  const tmx = (image: string) => `<map orientation="orthogonal" width="2" height="1" tilewidth="8" tileheight="8">
 <tileset firstgid="1" name="s" tilewidth="8" tileheight="8" tilecount="2" columns="2"><image source="${image}" width="16" height="8"/></tileset>
 <layer name="g" width="2" height="1"><data encoding="csv">2,1</data></layer>
</map>`;
  writeFileSync(join(dir, 'm.tmx'), tmx('sheet.png'));
  const pixel = (file: string, x: number, y: number) => {
    const p = PNG.sync.read(readFileSync(file));
    const o = (Math.floor(y * p.height) * p.width + Math.floor(x * p.width)) * 4;
    return [p.data[o], p.data[o + 1], p.data[o + 2]];
  };
  const green = OVERLAY_COLORS.normal;
  const out = join(dir, 'm.png');
  let r = await runCli('render', join(dir, 'm.tmx'), '--out', out);
  assert.equal(r.code, 0, r.err.join('\n'));
  assert.match(r.out.join('\n'), /, 2 tiles/);
  // Cell (0, 0) holds tile 2 (blue), cell (1, 0) tile 1 (red), each under the green overlay at 0.4.
  const mix = (c: readonly number[], t: number) => c.map((v, k) => Math.round(v + (green[k] - v) * t));
  assert.deepEqual(pixel(out, 0.25, 0.5), mix([0, 0, 255], 0.4));
  assert.deepEqual(pixel(out, 0.75, 0.5), mix([255, 0, 0], 0.4));
  r = await runCli('render', join(dir, 'm.tmx'), '--out', out, '--opacity', '0');
  assert.deepEqual([pixel(out, 0.25, 0.5), pixel(out, 0.75, 0.5)], [[0, 0, 255], [255, 0, 0]], 'opacity 0: the tiles alone');
  r = await runCli('render', join(dir, 'm.tmx'), '--out', out, '--overlay-only');
  assert.deepEqual(pixel(out, 0.25, 0.5), [...green], 'the overlay alone');
  writeFileSync(join(dir, 'gone.tmx'), tmx('gone.png'));
  r = await runCli('render', join(dir, 'gone.tmx'), '--out', out);
  assert.equal(r.code, 0);
  assert.match(r.err.join('\n'), /cannot read .*gone\.png; the tiles drawn from it are left out/);
  assert.deepEqual(pixel(out, 0.25, 0.5), [...green], 'no tiles: the overlay stays opaque');
});

test("simulate walks units in the map's own model on isometric, hexagonal and staggered maps (another that fits with --movement)", async () => {
  for (const name of ['hex-odd-q.tmj', 'staggered-odd-r.tmj', 'tiled-examples/isometric_grass_and_water.tmx']) {
    const map = fixture(name);
    const m = parseTiled(read(map), { file: map, readFile: read });
    const cells: string[] = [];
    for (let y = 0; y < m.grid.height; y++) for (let x = 0; x < m.grid.width; x++) if (m.grid.isWalkable(x, y)) cells.push(`${x},${y}`);
    const run = async (...extra: string[]) => {
      const r = await runCli('simulate', map, '--units', '2', '--from', cells[0], '--to', cells[cells.length - 1], '--json', ...extra);
      assert.equal(r.code, 0, r.err.join('\n'));
      return JSON.parse(r.out.filter((l) => l.startsWith('{')).pop()!);
    };
    assert.equal((await run()).movement, m.movement, `${name}: the map's own model`);
    // --movement chooses another model that fits the cells (on hexagons and staggered diamonds
    // only the map's own does); one that does not fit is refused.
    const other = m.movement === 'iso' ? 'cardinal' : m.movement;
    assert.equal((await run('--movement', other)).movement, other, `${name}: --movement chooses ${other}`);
    if (m.movement !== 'iso') {
      const r = await runCli('simulate', map, '--units', '2', '--from', cells[0], '--to', cells[cells.length - 1], '--json', '--movement', 'cardinal');
      assert.notEqual(r.code, 0, `${name}: cardinal on ${m.movement} cells`);
      assert.match(r.err.join('\n'), /movement/);
    }
  }
});
