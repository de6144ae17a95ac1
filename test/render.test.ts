import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { NavGrid, Pathfinder, hexagonal, isometric } from '../src/index.js';
import { OVERLAY_COLORS, cellColor, renderOverlayImage, type Rgb } from '../src/render/index.js';
import { main } from '../src/cli/main.js';
import { renderPng } from '../src/cli/commands/render.js';
import { gridFor } from './grids.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l), columns: undefined, errIsTty: false }, out, err };
}

function pixel(png: PNG, x: number, y: number): Rgb {
  const o = (Math.floor(y) * png.width + Math.floor(x)) * 4;
  return [png.data[o], png.data[o + 1], png.data[o + 2]];
}

test('tilenav render: a small map is scaled to >= 600 px with overlay, path, start and goal colours', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tilenav-render-'));
  // 8 x 5, a wall at x = 4 for y 0..3: the path must go round it through row 4.
  const map = ['type octile', 'height 5', 'width 8', 'map', '....@...', '....@...', '....@...', '....@...', '........'].join('\n');
  writeFileSync(join(dir, 'm.map'), map);
  const out = join(dir, 'm.png');
  const c = capture();
  const code = await main(['render', join(dir, 'm.map'), '--from', '0,0', '--to', '7,0', '--out', out], c.io);
  assert.equal(code, 0, c.err.join('\n'));
  assert.match(c.out[0], /wrote .*m\.png: 600 x 375 px \(75 px per world unit\)/, 'the unit --scale takes');
  const png = PNG.sync.read(readFileSync(out));
  assert.equal(png.width, 600);
  assert.equal(png.height, 375);
  const s = 75;
  const at = (x: number, y: number, dx = 0.5, dy = 0.5) => pixel(png, (x + dx) * s, (y + dy) * s);
  assert.deepEqual(at(4, 0), OVERLAY_COLORS.blocked);
  assert.deepEqual(at(0, 0), OVERLAY_COLORS.start);
  assert.deepEqual(at(7, 0), OVERLAY_COLORS.goal);
  assert.deepEqual(at(4, 4), OVERLAY_COLORS.path, 'the path passes under the wall');
  // The corner of a path cell keeps the cell's (expanded) colour: markers are inset.
  assert.notDeepEqual(at(4, 4, 0.02, 0.02), OVERLAY_COLORS.path);
  // (7, 4) is far from the straight line; either untouched green or tinted as expanded, never dark.
  assert.notDeepEqual(at(7, 4, 0.05, 0.05), OVERLAY_COLORS.blocked);
});

test('tilenav render: bad input names the flag or the file', async () => {
  const c = capture();
  assert.equal(await main(['render', 'examples/arena.map'], c.io), 2);
  assert.match(c.err[0], /--out.*required/);
  const d = capture();
  assert.equal(await main(['render', 'examples/arena.map', '--from', '1,1', '--out', '/tmp/x.png'], d.io), 2);
  assert.match(d.err[0], /--to.*both/);
  const e = capture();
  assert.equal(await main(['render', 'examples/nope.map', '--out', '/tmp/x.png'], e.io), 2);
  assert.match(e.err[0], /nope\.map/);
});

test('overlay colours follow the cost bands (normal, slow, very slow)', () => {
  const grid = new NavGrid(4, 1);
  grid.setCost(1, 0, 1.3);
  grid.setCost(2, 0, 4);
  grid.setWalkable(3, 0, false);
  const img = renderOverlayImage(grid, { scale: 10 });
  assert.equal(img.width, 40);
  const px = (x: number) => Array.from(img.data.subarray((5 * img.width + x * 10 + 5) * 4, (5 * img.width + x * 10 + 5) * 4 + 3));
  assert.deepEqual(px(0), [...OVERLAY_COLORS.normal]);
  assert.deepEqual(px(1), [...OVERLAY_COLORS.slow]);
  assert.deepEqual(px(2), [...OVERLAY_COLORS.verySlow]);
  assert.deepEqual(px(3), [...OVERLAY_COLORS.blocked]);
  assert.deepEqual(cellColor(true, 0.8), OVERLAY_COLORS.normal);
});

for (const [name, projection] of [
  ['isometric', isometric(2, 1)],
  ['hexagonal odd-r', hexagonal(1, { layout: 'odd-r' })],
  ['hexagonal axial', hexagonal(1)],
] as const) {
  test(`render draws ${name} cells in their projection`, () => {
    const grid = new NavGrid(6, 5, { projection });
    grid.setWalkable(2, 3, false);
    const { png, width, height } = renderPng(grid, { from: [0, 0], to: [5, 4] });
    const img = PNG.sync.read(png);
    assert.equal(img.width, width);
    assert.ok(Math.max(width, height) >= 600);
    const r = renderOverlayImage(grid);
    const centre = (x: number, y: number) => {
      const w = projection.cellToWorld(x, y);
      return pixel(img, (w.x - r.originX) * r.scale, (w.y - r.originY) * r.scale);
    };
    assert.deepEqual(centre(2, 3), OVERLAY_COLORS.blocked);
    assert.deepEqual(centre(0, 0), OVERLAY_COLORS.start);
    assert.deepEqual(centre(5, 4), OVERLAY_COLORS.goal);
    // A picture that is not a rectangle of cells leaves background in a corner.
    assert.deepEqual(pixel(img, 0, name === 'hexagonal odd-r' ? 0 : height - 1), OVERLAY_COLORS.background);
  });
}

test('Pathfinder.expandedInto reports the closed set of the last search', () => {
  const grid = new NavGrid(9, 6);
  grid.fillRect(4, 0, 1, 5, { walkable: false });
  const f = new Pathfinder(grid);
  const out = new Uint8Array(grid.size);
  // A*'s closed set (JPS, the default on this uniform grid, closes jump points only).
  const r = f.findPath(0, 0, 8, 0, { algorithm: 'astar' });
  assert.equal(r.status, 'found');
  // The goal is closed when popped but not counted as expanded.
  assert.equal(f.expandedInto(out), r.expanded + 1);
  for (const i of r.cells) assert.equal(out[i], 1, `path cell ${i} was expanded`);
  assert.equal(out[4], 0, 'a wall is never touched');
  assert.ok(out.includes(2), 'some cells are left open');
  const hexGrid = gridFor(grid, 'hex');
  const h = new Pathfinder(hexGrid);
  const hex = h.findPath(0, 0, 8, 0);
  assert.equal(h.expandedInto(out), hex.expanded + 1);
  grid.fillRect(4, 5, 1, 1, { walkable: false });
  const none = f.findPath(0, 0, 8, 0, { algorithm: 'astar' });
  assert.equal(none.status, 'no-path');
  assert.equal(f.expandedInto(out), none.expanded);
  f.findPath(4, 0, 8, 0);
  assert.equal(f.expandedInto(out), 0, 'an invalid start leaves nothing from the search before');
  assert.ok(out.every((v) => v === 0));
  assert.throws(() => f.expandedInto(new Uint8Array(3)), /Uint8Array of 54/);
});

test('on big maps (a cell ~2 px) path and markers grow past their cell to stay visible', () => {
  const grid = new NavGrid(300, 200);
  const { png, scale } = renderPng(grid, { from: [10, 10], to: [290, 10] });
  assert.equal(scale, 2);
  const img = PNG.sync.read(png);
  // Path cell (150, 10) centre, and the pixel row just outside it, are both drawn as path.
  assert.deepEqual(pixel(img, 150 * 2 + 1, 10 * 2 + 1), OVERLAY_COLORS.path);
  assert.deepEqual(pixel(img, 150 * 2 + 1, 10 * 2 + 2), OVERLAY_COLORS.path);
  // The start marker covers more than its own 2 x 2 pixels.
  assert.deepEqual(pixel(img, 10 * 2 + 4, 10 * 2 + 4), OVERLAY_COLORS.start);
});
