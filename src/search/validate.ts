import { assertArrayLike, assertOptionsObject } from '../errors.js';
import type { NavGrid } from '../grid/navgrid.js';
import type { MovementName } from './movement.js';
import { exitMask, padXY } from '../grid/padded.js';

/** What {@link checkPath} found. */
export interface PathCheck {
  /** True when every step is a legal move of the model onto a walkable cell. */
  valid: boolean;
  /** The path's cost recomputed from the grid (NaN when invalid). */
  cost: number;
  /** What is wrong with the first bad step, when invalid. */
  problem?: string;
}

/**
 * Checks a path independently of the search that made it: every cell walkable, every step one of
 * the model's moves (diagonals obey its corner rule, one-way flags are honoured, no step crosses an
 * edge wall and no diagonal passes one at its corner), and recomputes its cost. The CLI's `scen` command and the tests use it.
 */
export function checkPath(grid: NavGrid, cells: ArrayLike<number>, options: { layer?: number | string; movement?: MovementName } = {}): PathCheck {
  assertOptionsObject(options, 'options');
  assertArrayLike(cells, 'cells');
  const l = grid.layerIndex(options.layer ?? 0);
  const layer = grid.layers[l];
  const view = grid.searchView(l);
  const model = grid.movementModel(options.movement);
  const bad = (problem: string): PathCheck => ({ valid: false, cost: NaN, problem });
  if (cells.length === 0) return bad('empty path');
  let cost = 0;
  for (let k = 0; k < cells.length; k++) {
    const i = cells[k];
    if (!Number.isInteger(i) || i < 0 || i >= grid.size) return bad(`cell ${k} is not a cell index`);
    if (layer.walkable[i] !== 1) return bad(`cell ${k} (${grid.xOf(i)}, ${grid.yOf(i)}) is blocked`);
    if (k === 0) continue;
    const p = cells[k - 1];
    const px = grid.xOf(p);
    const py = grid.yOf(p);
    const dx = grid.xOf(i) - px;
    const dy = grid.yOf(i) - py;
    const parity = model.parityAxis === 'x' ? px & 1 : model.parityAxis === 'y' ? py & 1 : 0;
    const step = model.steps[parity].find((s) => s.dx === dx && s.dy === dy);
    if (step === undefined) return bad(`step ${k} (${px}, ${py}) -> (${px + dx}, ${py + dy}) is not a ${model.name} move`);
    const mask = exitMask(dx, dy);
    const pp = padXY(view.stride, px, py);
    if (view.walls !== null && (view.walls[pp] & mask) !== 0) return bad(`step ${k} (${px}, ${py}) -> (${px + dx}, ${py + dy}) ${dx !== 0 && dy !== 0 ? 'crosses or passes an edge wall at its corner' : 'crosses an edge wall'}`);
    if (view.exits !== null && (view.exits[pp] & mask) !== 0) return bad(`step ${k} leaves (${px}, ${py}) against its one-way flags`);
    if (step.diagonal) {
      const blocked = (layer.walkable[py * grid.width + px + dx] === 1 ? 0 : 1) + (layer.walkable[(py + dy) * grid.width + px] === 1 ? 0 : 1);
      if (blocked > model.corner) return bad(`step ${k} (${px}, ${py}) -> (${px + dx}, ${py + dy}) cuts a corner`);
    }
    cost += step.length * layer.cost[i];
  }
  return { valid: true, cost };
}
