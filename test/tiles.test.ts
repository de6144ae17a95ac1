import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTiled } from '../src/loaders/index.js';
import { externalTilesets, forEachTile, parseTileArt, tileMatrix, tileSource, type TileDraw } from '../src/render/index.js';

const FLIP_H = 0x80000000;
const FLIP_V = 0x40000000;
const FLIP_D = 0x20000000;
const ROT_120 = 0x10000000;

/** Where image pixel (u, v) lands under a tile matrix. */
const apply = (m: TileDraw['matrix'], u: number, v: number) => [m[0] * u + m[2] * v + m[4], m[1] * u + m[3] * v + m[5]].map((n) => Math.round(n * 1e9) / 1e9);

function draws(text: string, file: string, sets?: Map<string, string>): TileDraw[] {
  const m = parseTiled(text, { file, readFile: (p) => sets?.get(p) ?? '' });
  const { art } = parseTileArt(text, file, sets);
  const out: TileDraw[] = [];
  for (const l of art.layers) forEachTile(art, l, m.projection, m.offset, (d) => out.push(d));
  return out;
}

test('tile matrices: an image stands on its bottom-left corner; flips mirror it in place; the diagonal flip swaps x and y first', () => {
  // 16 x 24 image on (100, 50): its top-left at (100, 26).
  assert.deepEqual(apply(tileMatrix(1, false, 100, 50, 16, 24), 0, 0), [100, 26]);
  assert.deepEqual(apply(tileMatrix(1, false, 100, 50, 16, 24), 16, 24), [116, 50]);
  assert.deepEqual(apply(tileMatrix(FLIP_H, false, 100, 50, 16, 24), 0, 0), [116, 26], 'horizontal: the left edge goes right');
  assert.deepEqual(apply(tileMatrix(FLIP_V, false, 100, 50, 16, 24), 0, 0), [100, 50], 'vertical: the top edge goes down');
  // Diagonal: pixel (u, v) goes to (v, u) from the box's corner; the box is 24 wide, 16 tall, on (100, 50).
  const d = tileMatrix(FLIP_D, false, 100, 50, 16, 24);
  assert.deepEqual(apply(d, 0, 0), [100, 34]);
  assert.deepEqual(apply(d, 16, 0), [100, 50]);
  assert.deepEqual(apply(d, 0, 24), [124, 34]);
  // Diagonal then horizontal: a quarter turn clockwise (the image's top-left ends top-right).
  assert.deepEqual(apply(tileMatrix(FLIP_D | FLIP_H, false, 0, 16, 16, 16), 0, 0), [16, 0]);
  // Hexagonal maps: the diagonal bit turns 60 degrees, bit 28 120, about the image centre.
  for (const [bits, deg] of [[FLIP_D, 60], [ROT_120, 120], [FLIP_D | ROT_120, 180]] as const) {
    const m = tileMatrix(bits, true, 0, 20, 20, 20);
    assert.deepEqual(apply(m, 10, 10), [10, 10], `${deg}: the centre stays`);
    const [x, y] = apply(m, 10, 0);
    const a = (deg * Math.PI) / 180;
    assert.ok(Math.abs(x - (10 + 10 * Math.sin(a))) < 1e-9 && Math.abs(y - (10 - 10 * Math.cos(a))) < 1e-9, `${deg}: the top middle turns clockwise (${x}, ${y})`);
  }
});

test('tile sources: sheet cells counted from the margin with spacing, columns worked out when missing; image-collection tiles use their own image and sub-rectangle', () => {
  const tmx = `<map orientation="orthogonal" width="2" height="1" tilewidth="32" tileheight="32">
 <tileset firstgid="1" name="sheet" tilewidth="32" tileheight="32" margin="1" spacing="1" tilecount="48">
  <image source="img/sheet.png" width="265" height="199"/>
 </tileset>
 <tileset firstgid="49" name="things" tilewidth="64" tileheight="48">
  <tile id="0"><image source="tree.png" width="64" height="48"/></tile>
  <tile id="3" x="16" y="8" width="20" height="10"><image source="atlas.png" width="128" height="128"/></tile>
 </tileset>
 <layer name="a" width="2" height="1"><data encoding="csv">10,52</data></layer>
</map>`;
  const { art } = parseTileArt(tmx, 'maps/a.tmx');
  const [sheet, things] = art.tilesets;
  assert.equal(sheet.image?.path, 'maps/img/sheet.png', 'images resolve against the map folder');
  // (265 - 2 + 1) / 33 = 8 columns; tile 9 is row 1, column 1.
  assert.deepEqual(tileSource(sheet, 9), { image: sheet.image, sx: 34, sy: 34, sw: 32, sh: 32 });
  assert.equal(tileSource(sheet, 48), null, 'past the tile count');
  assert.deepEqual(tileSource(things, 0), { image: things.tiles.get(0)!.image, sx: 0, sy: 0, sw: 64, sh: 48 });
  assert.deepEqual(tileSource(things, 3), { image: things.tiles.get(3)!.image, sx: 16, sy: 8, sw: 20, sh: 10 });
  assert.equal(tileSource(things, 1), null);
  const d = draws(tmx, 'maps/a.tmx');
  assert.deepEqual(d.map((t) => [t.image.path, t.sx, t.sy, t.w, t.h, apply(t.matrix, 0, 0)]), [
    ['maps/img/sheet.png', 34, 34, 32, 32, [0, 0]],
    // A 20 x 10 image in cell (1, 0) stands on the cell's bottom-left corner (32, 32).
    ['maps/atlas.png', 16, 8, 20, 10, [32, 22]],
  ]);
});

test("tiles are placed at Tiled's pixels: isometric, hexagonal (tile offset), render order, layer opacity, offsets and groups", () => {
  // Isometric 3 x 3 of 64 x 32 with 64 x 64 images: tile (0, 0)'s top corner at (3 * 32, 0), the image
  // standing on the diamond's bottom-left (96 - 32, 32).
  const iso = `<map orientation="isometric" width="3" height="3" tilewidth="64" tileheight="32">
 <tileset firstgid="1" name="t" tilewidth="64" tileheight="64" tilecount="4" columns="2"><image source="t.png" width="128" height="128"/></tileset>
 <layer name="g" width="3" height="3"><data encoding="csv">1,0,0,0,2,0,0,0,3</data></layer>
</map>`;
  const d = draws(iso, 'iso.tmx');
  assert.deepEqual(d.map((t) => [t.tx, t.ty, ...apply(t.matrix, 0, 0)]), [[0, 0, 64, -32], [1, 1, 64, 0], [2, 2, 64, 32]], 'back to front');
  // Hexagonal, stagger axis y, odd rows shifted: 14 x 12 tiles, sides 6, rows 9 apart; the tileset's
  // offset moves each image one pixel down.
  const hex = `<map orientation="hexagonal" width="2" height="2" tilewidth="14" tileheight="12" hexsidelength="6" staggeraxis="y" staggerindex="odd">
 <tileset firstgid="1" name="h" tilewidth="18" tileheight="18" tilecount="1" columns="1"><tileoffset x="0" y="1"/><image source="h.png" width="18" height="18"/></tileset>
 <layer name="g" width="2" height="2"><data encoding="csv">1,1,1,${1 + FLIP_H}</data></layer>
</map>`;
  const h = draws(hex, 'hex.tmx');
  // Cell (1, 1): box top-left (14 + 7, 9), bottom-left (21, 21), plus the offset.
  assert.deepEqual(h.map((t) => [t.tx, t.ty, ...apply(t.matrix, 0, 0)]), [[0, 0, 0, -5], [1, 0, 14, -5], [0, 1, 7, 4], [1, 1, 21 + 18, 4]]);
  // Orthogonal render order right-up: bottom row first; a group's opacity, visibility and offset reach its layers.
  const ortho = `<map orientation="orthogonal" renderorder="left-up" width="2" height="2" tilewidth="8" tileheight="8">
 <tileset firstgid="1" name="o" tilewidth="8" tileheight="8" tilecount="1" columns="1"><image source="o.png" width="8" height="8"/></tileset>
 <group name="g" opacity="0.5" offsetx="3" offsety="4">
  <layer name="a" width="2" height="2" opacity="0.5" offsetx="1"><data encoding="csv">1,1,1,1</data></layer>
  <group name="hidden" visible="0"><layer name="b" width="2" height="2"><data encoding="csv">1,0,0,0</data></layer></group>
 </group>
</map>`;
  const { art } = parseTileArt(ortho, 'o.tmx');
  assert.deepEqual(art.layers.map((l) => [l.name, l.visible, l.opacity, l.offsetX, l.offsetY]), [['a', true, 0.25, 4, 4], ['b', false, 0.5, 3, 4]]);
  const o = draws(ortho, 'o.tmx').filter((t, i) => i < 4);
  assert.deepEqual(o.map((t) => [t.tx, t.ty, ...apply(t.matrix, 0, 0)]), [[1, 1, 12, 12], [0, 1, 4, 12], [1, 0, 12, 4], [0, 0, 4, 4]], 'left-up: from the bottom-right, offsets added');
});

test('the JSON form of a map gives the same tiles, external tilesets named and read, missing ones listed', () => {
  const tmj = JSON.stringify({
    orientation: 'staggered', staggeraxis: 'x', staggerindex: 'even', width: 2, height: 2, tilewidth: 32, tileheight: 16, infinite: false,
    tilesets: [{ firstgid: 1, source: 'sets/s.tsj' }, { firstgid: 5, source: 'gone.tsx' }],
    layers: [{ type: 'tilelayer', name: 'g', width: 2, height: 2, data: [1, 2, 3, 5 + FLIP_V], visible: true, opacity: 1 }],
  });
  assert.deepEqual(externalTilesets(tmj, 'maps/m.tmj'), ['maps/sets/s.tsj', 'maps/gone.tsx']);
  const sets = new Map([['maps/sets/s.tsj', JSON.stringify({ name: 's', tilewidth: 32, tileheight: 16, tilecount: 4, columns: 2, image: '../img/s.png', imagewidth: 64, imageheight: 32 })]]);
  const { art, missing } = parseTileArt(tmj, 'maps/m.tmj', sets);
  assert.deepEqual(missing, ['maps/gone.tsx']);
  assert.equal(art.tilesets[0].image?.path, 'maps/img/s.png', "a tileset's image resolves against the tileset's folder");
  const m = parseTiled(tmj, { file: 'maps/m.tmj', readFile: (p) => sets.get(p) ?? '<tileset name="x" tilewidth="32" tileheight="16" tilecount="1" columns="1"/>' });
  const out: TileDraw[] = [];
  forEachTile(art, art.layers[0], m.projection, m.offset, (t) => out.push(t));
  // Staggered along x, even columns shifted down half a row: (0, 0) lowered, (1, 0) raised; the
  // tile of the missing tileset is left out. Drawn row by row on screen: raised columns first.
  assert.deepEqual(out.map((t) => [t.tx, t.ty, t.sx, t.sy, ...apply(t.matrix, 0, 0)]), [[1, 0, 32, 0, 16, 0], [0, 0, 0, 0, 0, 8], [0, 1, 0, 16, 0, 24]]);
});

test('tile objects stand on their point (bottom-left; bottom-centre on isometric maps), sized, flipped and turned about it, top-down unless drawn by index', () => {
  const sheet = `<tileset firstgid="1" name="o" tilewidth="16" tileheight="16" tilecount="1" columns="1"><image source="o.png" width="16" height="16"/></tileset>`;
  const ortho = `<map orientation="orthogonal" width="4" height="4" tilewidth="16" tileheight="16">${sheet}
 <objectgroup name="things">
  <object id="1" gid="1" x="10" y="40" width="16" height="16" rotation="90"/>
  <object id="2" gid="${1 + FLIP_H}" x="0" y="20" width="32" height="8"/>
  <object id="3" x="0" y="0" width="5" height="5"/>
 </objectgroup>
</map>`;
  const d = draws(ortho, 'o.tmx');
  assert.equal(d.length, 2, 'shapes without a gid are not tiles');
  // Top-down: the object at y 20 first. Flipped horizontally, its image's top-left is the box's top-right.
  assert.deepEqual([apply(d[0].matrix, 0, 0), apply(d[0].matrix, 32, 8), d[0].w, d[0].h], [[32, 12], [0, 20], 32, 8]);
  // Turned a quarter clockwise about (10, 40): the image's top-left goes to (26, 40).
  assert.deepEqual([apply(d[1].matrix, 0, 0), apply(d[1].matrix, 0, 16)], [[26, 40], [10, 40]]);
  const iso = `<map orientation="isometric" width="4" height="4" tilewidth="64" tileheight="32">
 <tileset firstgid="1" name="t" tilewidth="64" tileheight="64" tilecount="1" columns="1"><image source="t.png" width="64" height="64"/></tileset>
 <objectgroup name="things" draworder="index"><object id="1" gid="1" x="32" y="32"/><object id="2" gid="1" x="0" y="0"/></objectgroup>
</map>`;
  // (32, 32) is one tile along each axis: the diamond corner (4 * 32, 32); the image's bottom middle stands there.
  const i = draws(iso, 'i.tmx');
  assert.deepEqual(i.map((t) => apply(t.matrix, 0, 0)), [[96, -32], [96, -64]], 'index order, bottom-centre');
});
