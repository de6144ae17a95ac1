/**
 * Helpers for the tests of the movement questions (Chebyshev steps, movement range, several
 * goals): the same random layer on hexagonal cells, and the float comparison they share.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, Pathfinder, TilenavError, hexagonal, type HexLayout, type MovementName } from '../src/index.js';
import { applyChange, gridArb } from './grids.js';

/** Costs equal up to float noise (sums of float32 costs in another order). */
export const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

/** Asserts that `fn` throws a TilenavError naming `element`. */
export function throwsNaming(fn: () => unknown, element: string): void {
  assert.throws(fn, (e: unknown) => e instanceof TilenavError && e.element === element, `expected a TilenavError naming ${element}`);
}

/** The hex layout a hex movement model names. */
function layoutOf(movement: MovementName): HexLayout {
  return movement === 'hex' ? 'axial' : (movement.slice(4) as HexLayout);
}

/**
 * `grid`'s layers (walls, costs, flags) on hexagonal cells of the layout `movement` names, or the
 * grid itself for a square model: square models step on square cells, hex models on hexagons.
 */
export function onCellsOf(grid: NavGrid, movement: MovementName): NavGrid {
  if (!movement.startsWith('hex')) return grid;
  const hex = new NavGrid(grid.width, grid.height, { layers: grid.layers.length, projection: hexagonal(1, { layout: layoutOf(movement) }) });
  grid.layers.forEach((l, k) => {
    hex.layers[k].walkable.set(l.walkable);
    hex.layers[k].cost.set(l.cost);
    hex.layers[k].flags.set(l.flags);
  });
  hex.refresh();
  return hex;
}

/** The movement models the questions are asked with: square, Chebyshev and hex steps. */
export const QUESTION_MOVEMENTS: readonly MovementName[] = ['cardinal', 'octile', 'chebyshev', 'chebyshev-always', 'hex', 'hex-odd-r'];

/** Random non-square grids with walls, mixed costs (below 1 too) and sometimes one-way flags, for these tests. */
export const questionGrids = gridArb({ width: [1, 13], height: [1, 11], layers: [1, 2], costs: ['uniform', 'mixed', 'integer'], oneWay: true });

/** Tile changes between queries: (at, kind, size) as test/grids.ts's applyChange reads them. */
export const changesArb = fc.array(fc.tuple(fc.nat(), fc.nat(4), fc.nat(2)), { maxLength: 3 });

/**
 * The property every question is held to: on random grids (on `movement`'s cells, a random
 * layer), 1 to 3 queries drawn from `queryArb` asked of one kept Pathfinder by `ask`, with a random
 * tile change before each query after the first. `ask` asserts.
 */
export function acrossChanges<Q>(movement: MovementName, queryArb: fc.Arbitrary<Q>, seed: number, ask: (grid: NavGrid, layer: number, pf: Pathfinder, query: Q) => void, numRuns = 200): void {
  fc.assert(
    fc.property(questionGrids, fc.array(queryArb, { minLength: 1, maxLength: 3 }), changesArb, fc.nat(), (g, queries, changes, layerPick) => {
      const grid = onCellsOf(g.grid, movement);
      const layer = layerPick % grid.layers.length;
      const pf = new Pathfinder(grid);
      for (let q = 0; q < queries.length; q++) {
        if (q > 0 && changes[q - 1] !== undefined) applyChange(grid, ...changes[q - 1]);
        ask(grid, layer, pf, queries[q]);
      }
    }),
    { numRuns, seed },
  );
}
