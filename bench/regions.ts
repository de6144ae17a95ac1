/**
 * Seeded terrain regions painted over a map's costs: blobs of sand, mud, water and the like, and
 * a few cheap roads, the way game maps group terrain (large patches of one cost rather than noise
 * from cell to cell). The same seed paints the same regions on every machine. Used by the weighted
 * search benchmark and its tests.
 */
import { NavGrid } from '../src/index.js';
import { mulberry32 } from '../src/query/index.js';

/** The terrain kinds painted, with their costs (plain ground stays at the map's own cost, 1). */
export const TERRAIN = [
  { name: 'sand', cost: 1.5 },
  { name: 'mud', cost: 2 },
  { name: 'water', cost: 3 },
  { name: 'forest', cost: 1.25 },
  { name: 'swamp', cost: 4 },
] as const;

/** The cost of a road cell: below 1, so the search's heuristic must use the cheapest cost. */
export const ROAD_COST = 0.75;

/** How many regions and roads {@link paintRegions} draws. */
export interface RegionOptions {
  /** Number of blobs. @default one per 400 cells */
  blobs?: number;
  /** Largest blob radius in cells. @default an eighth of the shorter side, at least 2 */
  maxRadius?: number;
  /** Number of straight roads (horizontal or vertical, 1-2 cells wide). @default 0 */
  roads?: number;
}

/**
 * Paints seeded terrain regions into layer 0's costs of `grid` (walkability untouched), then
 * refreshes the grid. Each blob is a disc with a wobbly edge (its radius varies with the angle),
 * later blobs over earlier ones. Returns the grid.
 */
export function paintRegions(grid: NavGrid, seed: number, options: RegionOptions = {}): NavGrid {
  const { width, height } = grid;
  const cost = grid.layers[0].cost;
  const rnd = mulberry32(seed);
  const blobs = options.blobs ?? Math.max(1, Math.round((width * height) / 400));
  const maxRadius = options.maxRadius ?? Math.max(2, Math.floor(Math.min(width, height) / 8));
  for (let b = 0; b < blobs; b++) {
    const cx = rnd() * width;
    const cy = rnd() * height;
    const r = 1 + rnd() * (maxRadius - 1);
    const c = TERRAIN[Math.floor(rnd() * TERRAIN.length)].cost;
    // Three harmonics of wobble with random phases: a lumpy outline, not a circle.
    const p1 = rnd() * 6.283;
    const p2 = rnd() * 6.283;
    const p3 = rnd() * 6.283;
    const x0 = Math.max(0, Math.floor(cx - r * 1.5));
    const x1 = Math.min(width - 1, Math.ceil(cx + r * 1.5));
    const y0 = Math.max(0, Math.floor(cy - r * 1.5));
    const y1 = Math.min(height - 1, Math.ceil(cy + r * 1.5));
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const dx = x + 0.5 - cx;
        const dy = y + 0.5 - cy;
        const a = Math.atan2(dy, dx);
        const edge = r * (1 + 0.25 * Math.sin(2 * a + p1) + 0.15 * Math.sin(3 * a + p2) + 0.1 * Math.sin(5 * a + p3));
        if (dx * dx + dy * dy <= edge * edge) cost[y * width + x] = c;
      }
    }
  }
  const roads = options.roads ?? 0;
  for (let k = 0; k < roads; k++) {
    const across = rnd() < 0.5;
    const wide = rnd() < 0.5 ? 2 : 1;
    const at = Math.floor(rnd() * ((across ? height : width) - wide + 1));
    for (let t = 0; t < wide; t++) {
      if (across) cost.fill(ROAD_COST, (at + t) * width, (at + t + 1) * width);
      else for (let y = 0; y < height; y++) cost[y * width + at + t] = ROAD_COST;
    }
  }
  grid.refresh();
  return grid;
}

/**
 * A `size` x `size` game-like map: open ground with scattered rocky outcrops (walls), lakes too
 * deep to cross (walls) ringed by water, and terrain regions and roads painted over the rest.
 */
export function terrainWorld(size: number, seed: number): NavGrid {
  const grid = new NavGrid(size, size);
  const walk = grid.layers[0].walkable;
  const rnd = mulberry32(seed ^ 0x5eed);
  const disc = (cx: number, cy: number, r: number, fn: (i: number) => void): void => {
    for (let y = Math.max(0, Math.floor(cy - r)); y <= Math.min(size - 1, Math.ceil(cy + r)); y++) {
      for (let x = Math.max(0, Math.floor(cx - r)); x <= Math.min(size - 1, Math.ceil(cx + r)); x++) {
        if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r) fn(y * size + x);
      }
    }
  };
  paintRegions(grid, seed, { blobs: Math.round((size * size) / 1500), maxRadius: Math.max(3, size / 24), roads: Math.max(1, Math.round(size / 128)) });
  const cost = grid.layers[0].cost;
  const lakes = Math.round((size * size) / 40000);
  for (let k = 0; k < lakes; k++) {
    const cx = rnd() * size;
    const cy = rnd() * size;
    const r = 4 + rnd() * (size / 40);
    disc(cx, cy, r + 2, (i) => (cost[i] = 3));
    disc(cx, cy, r, (i) => (walk[i] = 0));
  }
  const rocks = Math.round((size * size) / 2500);
  for (let k = 0; k < rocks; k++) disc(rnd() * size, rnd() * size, 1 + rnd() * 3, (i) => (walk[i] = 0));
  grid.refresh();
  return grid;
}
