/**
 * Grids for the tests: one random-grid generator (seeded with the library's mulberry32, so a
 * failing fast-check case replays exactly) and ASCII maps read through the library's text grid
 * loader. Every property test draws its grids from here.
 */
import fc from 'fast-check';
import { NavGrid, type MovementName } from '../src/index.js';
import { hexagonal, orthogonal, staggered, type HexLayout, type Projection } from '../src/grid/projection.js';
import { mulberry32 } from '../src/query/index.js';
import { parseTextGrid } from '../src/loaders/index.js';

/**
 * How a random layer's costs are drawn:
 * - `uniform`: every cell 1;
 * - `uniform-low`: every cell 0.8 (uniform, but below 1, so a heuristic scaled by 1 overestimates);
 * - `mixed`: each cell from {0.5, 0.8, 1, 1.2, 1.5, 2, 3.7}, 1 most often (costs below 1 included);
 * - `integer`: 1, or with probability 0.3 a whole cost from 1 to 4;
 * - `extreme`: as `integer`, but a fifth of the costly cells cost 5000 (queues past their bucket range).
 */
export type CostMode = 'uniform' | 'uniform-low' | 'mixed' | 'integer' | 'extreme';

/** The cost modes whose cells are not all the same. */
export const VARYING_COSTS: readonly CostMode[] = ['mixed', 'integer', 'extreme'];

const MIXED_COSTS = [0.5, 0.8, 1, 1, 1, 1.2, 1.5, 2, 3.7];

/** What {@link fillRandom} puts in each cell. */
export interface RandomFill {
  /** Chance in [0, 1] that a cell is a wall. @default 0.3 */
  wallRate?: number;
  /** @default 'uniform' */
  costs?: CostMode;
  /** Chance in [0, 1] that a cell forbids leaving it in one random direction (a FLAG_NO_EXIT_* bit). @default 0 */
  oneWayRate?: number;
}

/** One cell's cost under `mode`, drawing from `rnd` only when the mode varies. */
function drawCost(mode: CostMode, rnd: () => number): number {
  switch (mode) {
    case 'uniform':
      return 1;
    case 'uniform-low':
      return 0.8;
    case 'mixed':
      return MIXED_COSTS[Math.floor(rnd() * MIXED_COSTS.length)];
    case 'integer':
      return rnd() < 0.3 ? 1 + Math.floor(rnd() * 4) : 1;
    case 'extreme':
      return rnd() < 0.3 ? (rnd() < 0.2 ? 5000 : 1 + Math.floor(rnd() * 4)) : 1;
  }
}

/**
 * Overwrites every layer of `grid` with random walls, costs and one-way flags drawn from `rnd`
 * (floats in [0, 1), e.g. mulberry32(seed)), then refreshes it. Returns the grid.
 */
export function fillRandom(grid: NavGrid, rnd: () => number, fill: RandomFill = {}): NavGrid {
  const wallRate = fill.wallRate ?? 0.3;
  const costs = fill.costs ?? 'uniform';
  const oneWayRate = fill.oneWayRate ?? 0;
  for (const layer of grid.layers) {
    for (let i = 0; i < grid.size; i++) {
      layer.walkable[i] = rnd() < wallRate ? 0 : 1;
      layer.cost[i] = drawCost(costs, rnd);
      layer.flags[i] = oneWayRate > 0 && rnd() < oneWayRate ? 2 << Math.floor(rnd() * 4) : 0;
    }
  }
  grid.refresh();
  return grid;
}

/** A new width x height grid with `layers` layers (default 1), filled by {@link fillRandom}. */
export function randomGrid(width: number, height: number, rnd: () => number, fill: RandomFill & { layers?: number } = {}): NavGrid {
  return fillRandom(new NavGrid(width, height, { layers: fill.layers ?? 1 }), rnd, fill);
}

/** Ranges a fast-check random grid is drawn from; each [min, max] is inclusive. */
export interface GridArbOptions {
  /** @default [2, 14] */
  width?: [number, number];
  /** @default [2, 14] */
  height?: [number, number];
  /** @default [1, 1] */
  layers?: [number, number];
  /** @default [0, 0.45] */
  wallRate?: [number, number];
  /** The cost modes to pick from. @default ['uniform'] */
  costs?: readonly CostMode[];
  /** Sometimes (half the grids) give 15 % of the cells a one-way flag. @default false */
  oneWay?: boolean;
}

/**
 * A fast-check arbitrary of random grids (non-square unless the ranges force a square). Gives
 * the grid and the generator that filled it, which the test may keep drawing from (queries,
 * tile changes): both replay from fast-check's seed.
 */
export function gridArb(options: GridArbOptions = {}): fc.Arbitrary<{ grid: NavGrid; rnd: () => number }> {
  const [w0, w1] = options.width ?? [2, 14];
  const [h0, h1] = options.height ?? [2, 14];
  const [l0, l1] = options.layers ?? [1, 1];
  const [r0, r1] = options.wallRate ?? [0, 0.45];
  return fc
    .record({
      width: fc.integer({ min: w0, max: w1 }),
      height: fc.integer({ min: h0, max: h1 }),
      layers: fc.integer({ min: l0, max: l1 }),
      wallRate: r0 === r1 ? fc.constant(r0) : fc.double({ min: r0, max: r1, noNaN: true }),
      costs: fc.constantFrom(...(options.costs ?? ['uniform'])),
      oneWay: options.oneWay ? fc.boolean() : fc.constant(false),
      seed: fc.integer(),
    })
    .map((p) => {
      const rnd = mulberry32(p.seed);
      const grid = randomGrid(p.width, p.height, rnd, { layers: p.layers, wallRate: p.wallRate, costs: p.costs, oneWayRate: p.oneWay ? 0.15 : 0 });
      return { grid, rnd };
    });
}

/**
 * A grid drawn in ASCII, one string per row from the top: `.` walkable, `@` wall. Read by the
 * library's text grid loader (the rows become its 1/0 rows), so a ragged or misspelt map throws
 * the loader's TilenavError naming the row. The grid has the default projection, one layer,
 * cost 1 everywhere; tests set costs and flags in code.
 */
export function asciiGrid(rows: readonly string[]): NavGrid {
  const body = rows.map((r) => r.replace(/\./g, '1').replace(/@/g, '0')).join('\n');
  const text = `cellSize 1\nminX 0\nminZ 0\ngridWidth ${rows[0]?.length ?? 0}\ngridDepth ${rows.length}\n${body}\n`;
  const parsed = parseTextGrid(text, { file: '<ascii map>' }).grid;
  // The text format always carries a continuous projection; tests of tiles want the default one.
  const grid = new NavGrid(parsed.width, parsed.height);
  grid.layers[0].walkable.set(parsed.layers[0].walkable);
  grid.refresh();
  return grid;
}

/** Costs a random change writes: below 1, 1, and dearer. */
const CHANGE_COSTS = [0.5, 1, 2, 3.5];

/**
 * One tile change drawn from three numbers (fast-check's `fc.tuple(fc.nat(), fc.nat(4), fc.nat(n))`):
 * `at` picks the cell, `kind` what happens there (0 toggles walkability, 1 sets a cost, 2 fills a
 * rectangle with a cost, 3 opens a rectangle, 4 blocks one) and `size` the rectangle's side less 1.
 * Returns the changed cell's coordinates, for messages.
 */
export function applyChange(grid: NavGrid, at: number, kind: number, size: number): [number, number] {
  const x = at % grid.width;
  const y = Math.floor(at / grid.width) % grid.height;
  const w = Math.min(size + 1, grid.width - x);
  const h = Math.min(size + 1, grid.height - y);
  if (kind === 0) grid.setWalkable(x, y, !grid.isWalkable(x, y));
  else if (kind === 1) grid.setCost(x, y, CHANGE_COSTS[at % 4]);
  else if (kind === 2) grid.fillRect(x, y, w, h, { cost: CHANGE_COSTS[(at >> 2) % 4] });
  else grid.batch(() => grid.fillRect(x, y, w, h, { walkable: kind === 3 }));
  return [x, y];
}

/**
 * A projection whose cells `movement` steps on: hexagons of its layout for `hex...`, Tiled's
 * staggered diamonds of its axis and index for `staggered...`, squares otherwise. A grid refuses a
 * movement that does not fit its cells.
 */
export function projectionFor(movement: MovementName): Projection {
  if (movement === 'hex') return hexagonal(1);
  if (movement.startsWith('hex-')) return hexagonal(1, { layout: movement.slice(4) as HexLayout });
  if (movement.startsWith('staggered-')) {
    const [, index, axis] = movement.split('-');
    return staggered(2, 2, { staggerIndex: index as 'odd' | 'even', staggerAxis: axis === 'q' ? 'x' : 'y' });
  }
  return orthogonal(1, 1);
}

/**
 * A copy of `grid` (layers, costs, walls, flags, terrain table) on the cells of `projection`,
 * moving as `movement` (default: the projection's own).
 */
export function onCells(grid: NavGrid, projection: Projection, movement?: MovementName): NavGrid {
  const storage = grid.storage.slice(grid.storageOffset, grid.storageOffset + NavGrid.storageBytes(grid.width, grid.height, grid.layers.length));
  return new NavGrid(grid.width, grid.height, { layers: grid.layers.map((l) => l.name), projection, movement, storage, terrain: grid.terrain });
}

/**
 * A copy of `grid` on the cells `movement` steps on ({@link projectionFor}), with `movement` as
 * its own: what a test of a movement model searches.
 */
export function gridFor(grid: NavGrid, movement: MovementName): NavGrid {
  return onCells(grid, projectionFor(movement), movement);
}
