/**
 * Seeded generators of large test worlds, written straight into a layer's walkable array (then
 * one `refresh`): the same seed gives the same map on every machine.
 */
import { NavGrid } from '../src/index.js';
import { mulberry32 } from '../src/query/index.js';

/** The library's seeded generator (mulberry32), re-exported for the benchmarks. */
export const rng = mulberry32;

/**
 * Rooms and corridors: one rectangular room (6-40 cells a side) per 64 x 64 block, at a random
 * place in it, visited in serpentine order and each joined to the previous one by an L-shaped
 * corridor 1-3 cells wide, so every room is reachable and corridors stay local.
 */
export function roomsAndCorridors(width: number, height: number, seed: number): NavGrid {
  const grid = new NavGrid(width, height, { walkable: false });
  const walk = grid.layers[0].walkable;
  const rand = rng(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));
  const carve = (x0: number, y0: number, w: number, h: number): void => {
    const x1 = Math.min(width - 1, x0 + w - 1);
    const y1 = Math.min(height - 1, y0 + h - 1);
    for (let y = Math.max(0, y0); y <= y1; y++) walk.fill(1, y * width + Math.max(0, x0), y * width + x1 + 1);
  };
  const B = 64;
  const bw = Math.max(1, Math.floor(width / B));
  const bh = Math.max(1, Math.floor(height / B));
  let px = -1;
  let py = -1;
  for (let by = 0; by < bh; by++) {
    for (let i = 0; i < bw; i++) {
      const bx = by % 2 === 0 ? i : bw - 1 - i;
      const w = int(6, Math.min(40, width - 2));
      const h = int(6, Math.min(40, height - 2));
      const x = Math.min(width - w - 1, bx * B + int(1, Math.max(1, B - w - 1)));
      const y = Math.min(height - h - 1, by * B + int(1, Math.max(1, B - h - 1)));
      const cx = x + (w >> 1);
      const cy = y + (h >> 1);
      carve(x, y, w, h);
      if (px >= 0) {
        const t = int(1, 3);
        // Horizontal leg at the previous room's row, then vertical at the new room's column.
        carve(Math.min(px, cx), py, Math.abs(cx - px) + t, t);
        carve(cx, Math.min(py, cy), t, Math.abs(cy - py) + t);
      }
      // A second, random link to the room above makes loops, so routes have alternatives.
      if (by > 0 && rand() < 0.5) carve(cx, cy - B, int(1, 3), B);
      px = cx;
      py = cy;
    }
  }
  grid.refresh();
  return grid;
}

/**
 * Caves: random fill (45% walls) smoothed by four rounds of the 4-5 cellular automaton rule
 * (a cell becomes wall when 5 or more of the 9 cells around and including it are walls, borders
 * counting as wall).
 * Leaves several disconnected pockets, so some queries have no path.
 */
export function caves(width: number, height: number, seed: number): NavGrid {
  const grid = new NavGrid(width, height, { walkable: false });
  const rand = rng(seed);
  let a = new Uint8Array(width * height);
  let b = new Uint8Array(width * height);
  for (let i = 0; i < a.length; i++) a[i] = rand() < 0.45 ? 1 : 0; // 1 = wall
  for (let round = 0; round < 4; round++) {
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        let walls = 0;
        for (let dy = -1; dy <= 1; dy++) {
          const yy = y + dy;
          for (let dx = -1; dx <= 1; dx++) {
            const xx = x + dx;
            walls += xx < 0 || yy < 0 || xx >= width || yy >= height ? 1 : a[yy * width + xx];
          }
        }
        b[y * width + x] = walls >= 5 ? 1 : 0;
      }
    }
    [a, b] = [b, a];
  }
  const walk = grid.layers[0].walkable;
  for (let i = 0; i < a.length; i++) walk[i] = 1 - a[i];
  grid.refresh();
  return grid;
}

/**
 * A seeded 1024 x 1024 map: open land with 8 % scattered walls, and 120 square islands 12 to 60
 * cells across, apart from each other, each ringed by a one-cell wall. Half the islands have a door
 * cell in their ring (closed at first); `inner` lists the interior cells of the other half, which
 * no door ever joins to the land.
 */
export function islands(size: number, seed: number): { grid: NavGrid; doors: number[]; inner: number[] } {
  const rnd = rng(seed);
  const grid = new NavGrid(size, size);
  const walk = grid.layers[0].walkable;
  for (let i = 0; i < grid.size; i++) walk[i] = rnd() < 0.08 ? 0 : 1;
  const doors: number[] = [];
  const inner: number[] = [];
  const placed: number[][] = [];
  while (placed.length < 120) {
    const side = 12 + Math.floor(rnd() * 49);
    const x0 = 1 + Math.floor(rnd() * (size - side - 2));
    const y0 = 1 + Math.floor(rnd() * (size - side - 2));
    if (placed.some(([x, y, s]) => x0 < x + s + 2 && x < x0 + side + 2 && y0 < y + s + 2 && y < y0 + side + 2)) continue;
    placed.push([x0, y0, side]);
    const doored = placed.length % 2 === 0;
    for (let y = y0; y < y0 + side; y++) {
      for (let x = x0; x < x0 + side; x++) {
        const ring = x === x0 || y === y0 || x === x0 + side - 1 || y === y0 + side - 1;
        walk[y * size + x] = ring ? 0 : 1;
        if (!ring && !doored) inner.push(y * size + x);
      }
    }
    if (doored) doors.push(y0 * size + x0 + (side >> 1));
  }
  grid.refresh();
  return { grid, doors, inner };
}
