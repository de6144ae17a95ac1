/**
 * Draws examples/frontier-tiles.png, the tile art of the demo's opening map (examples/frontier.tmx):
 * 16 x 16 pixel tiles, 8 per row, in the order of the map's tileset ids. Deterministic (a seeded
 * generator), so running it again gives the same bytes: `node --import tsx scripts/make-tileset.ts`.
 */
import { writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { mulberry32 } from '../src/index.js';

const T = 16;
const COLUMNS = 8;
type Rgba = [number, number, number, number];
type Painter = (x: number, y: number, r: () => number) => Rgba;

const shade = (c: readonly number[], k: number): Rgba => [clamp(c[0] * k), clamp(c[1] * k), clamp(c[2] * k), 255];
const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
const mix = (a: readonly number[], b: readonly number[], t: number): Rgba => [clamp(a[0] + (b[0] - a[0]) * t), clamp(a[1] + (b[1] - a[1]) * t), clamp(a[2] + (b[2] - a[2]) * t), 255];

const GRASS = [86, 160, 62];
const grass: Painter = (x, y, r) => {
  const v = r();
  if (v < 0.08) return shade(GRASS, 1.25);
  if (v < 0.16) return shade(GRASS, 0.78);
  return shade(GRASS, 0.95 + 0.1 * r());
};
const sand: Painter = (x, y, r) => shade([214, 190, 132], r() < 0.12 ? 0.85 : 0.96 + 0.08 * r());
const mud: Painter = (x, y, r) => (r() < 0.1 ? shade([70, 90, 50], 1) : shade([112, 84, 56], 0.9 + 0.15 * r()));
const water: Painter = (x, y) => {
  const wave = Math.sin((x + y * 0.5) * 0.9 + (y % 4) * 1.3);
  return wave > 0.85 ? [170, 214, 240, 255] : mix([40, 96, 170], [58, 124, 196], (wave + 1) / 2);
};
const ice: Painter = (x, y, r) => ((x + 2 * y) % 11 === 0 ? [240, 250, 255, 255] : shade([168, 214, 232], 0.95 + 0.08 * r()));
const snow: Painter = (x, y, r) => shade([236, 240, 246], r() < 0.1 ? 0.9 : 0.98 + 0.03 * r());
const rock: Painter = (x, y, r) => {
  const crack = (x * 3 + y * 5) % 13 === 0 || (x === 7 && y > 4 && y < 12);
  return crack ? [70, 70, 76, 255] : shade([132, 128, 124], 0.9 + 0.15 * r());
};
const lava: Painter = (x, y, r) => {
  const glow = Math.sin(x * 0.8) + Math.cos(y * 0.7 + x * 0.3);
  return glow > 1 ? [255, 214, 80, 255] : mix([190, 40, 20], [250, 110, 30], (glow + 2) / 4 + 0.1 * r());
};
/** Stone bricks: rows of 4 pixels, joints offset every other row. */
const wall: Painter = (x, y, r) => {
  const row = y >> 2;
  const joint = y % 4 === 3 || (x + (row % 2) * 4) % 8 === 7;
  return joint ? [58, 54, 52, 255] : shade([150, 140, 128], 0.88 + 0.16 * r());
};
/** A round crown on a trunk, over grass. */
const tree: Painter = (x, y, r) => {
  const dx = x - 7.5;
  const dy = y - 6;
  if (dx * dx + dy * dy < 36) return shade([38, 110, 44], dx + dy < -3 ? 1.35 : 0.85 + 0.25 * r());
  if (Math.abs(dx) < 1.6 && y >= 11 && y <= 14) return [96, 64, 36, 255];
  return grass(x, y, r);
};
/** Wooden planks in a stone frame. */
const door: Painter = (x, y, r) => {
  if (x < 2 || x > 13 || y < 1) return wall(x, y, r);
  if (x === 11 && y === 8) return [230, 200, 90, 255];
  return x % 3 === 1 ? [92, 58, 30, 255] : shade([150, 100, 54], 0.92 + 0.1 * r());
};
const flowers: Painter = (x, y, r) => {
  const v = r();
  if (v < 0.05) return [240, 220, 60, 255];
  if (v < 0.09) return [230, 90, 120, 255];
  return grass(x, y, r);
};
/** A watch tower seen from above: a round stone top with a dark rim. */
const tower: Painter = (x, y, r) => {
  const d = Math.hypot(x - 7.5, y - 7.5);
  if (d < 5) return shade([170, 160, 146], 0.9 + 0.15 * r());
  if (d < 7) return [76, 66, 60, 255];
  return grass(x, y, r);
};

/** In tileset id order: frontier.tmx's terrains (0-7) keep their ids. */
const TILES: [string, Painter][] = [
  ['grass', grass], ['sand path', sand], ['mud', mud], ['water', water], ['ice', ice], ['snow', snow], ['rock', rock], ['lava', lava],
  ['wall', wall], ['tree', tree], ['door', door], ['flowers', flowers], ['tower', tower],
];

const rows = Math.ceil(TILES.length / COLUMNS);
const png = new PNG({ width: COLUMNS * T, height: rows * T });
TILES.forEach(([, paint], id) => {
  const r = mulberry32(1000 + id);
  const ox = (id % COLUMNS) * T;
  const oy = Math.floor(id / COLUMNS) * T;
  for (let y = 0; y < T; y++) {
    for (let x = 0; x < T; x++) {
      const c = paint(x, y, r);
      png.data.set(c, ((oy + y) * png.width + ox + x) * 4);
    }
  }
});
const out = new URL('../examples/frontier-tiles.png', import.meta.url);
writeFileSync(out, PNG.sync.write(png));
console.log(`wrote ${out.pathname}: ${TILES.length} tiles (${TILES.map(([n]) => n).join(', ')}), ${png.width} x ${png.height} px`);
