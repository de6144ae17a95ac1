import { TilenavError, assertArrayLike, assertOptionsObject } from '../errors.js';
import type { NavGrid } from '../grid/navgrid.js';
import type { MovementModel, MovementName } from './movement.js';
import { exitMask, pad, padXY } from '../grid/padded.js';

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
 * edge wall and no diagonal passes one at its corner) or an enabled link of the grid
 * (`grid.addLink`) between its two cells, and recomputes its cost. `layers` gives each cell's layer
 * for a path across layers (a `PathResult`'s own `layers`); without it every cell is on `layer`.
 * The CLI's `scen` command and the tests use it.
 */
export function checkPath(grid: NavGrid, cells: ArrayLike<number>, options: { layer?: number | string; movement?: MovementName; layers?: ArrayLike<number> | null } = {}): PathCheck {
  assertOptionsObject(options, 'options');
  assertArrayLike(cells, 'cells');
  const base = grid.layerIndex(options.layer ?? 0);
  const layers = options.layers ?? null;
  if (layers !== null) {
    assertArrayLike(layers, 'layers');
    if (layers.length !== cells.length) throw new TilenavError(`expected one layer per cell (${cells.length}), got ${layers.length}`, { element: 'layers' });
    for (let k = 0; k < layers.length; k++) grid.layerIndex(layers[k]);
  }
  const layerAt = (k: number) => (layers === null ? base : layers[k]);
  const model = grid.movementModel(options.movement);
  const bad = (problem: string): PathCheck => ({ valid: false, cost: NaN, problem });
  if (cells.length === 0) return bad('empty path');
  let cost = 0;
  for (let k = 0; k < cells.length; k++) {
    const i = cells[k];
    if (!Number.isInteger(i) || i < 0 || i >= grid.size) return bad(`cell ${k} is not a cell index`);
    const l = layerAt(k);
    const layer = grid.layers[l];
    if (layer.walkable[i] !== 1) return bad(`cell ${k} (${grid.xOf(i)}, ${grid.yOf(i)}) is blocked`);
    if (k === 0) continue;
    const p = cells[k - 1];
    const link = linkCost(grid, layerAt(k - 1), p, l, i);
    const why = stepProblem(grid, l, model, k, p, i, layerAt(k - 1) === l);
    if (why !== null && link === Infinity) return bad(why);
    cost += Math.min(why === null ? stepLength(model, grid, p, i) * layer.cost[i] : Infinity, link);
  }
  return { valid: true, cost };
}

/** Why the step `k` from cell `p` to cell `i` on layer `l` is not a move of `model`, or null when it is. */
function stepProblem(grid: NavGrid, l: number, model: MovementModel, k: number, p: number, i: number, sameLayer: boolean): string | null {
  const layer = grid.layers[l];
  const view = grid.searchView(l);
  const px = grid.xOf(p);
  const py = grid.yOf(p);
  const dx = grid.xOf(i) - px;
  const dy = grid.yOf(i) - py;
  const parity = model.parityAxis === 'x' ? px & 1 : model.parityAxis === 'y' ? py & 1 : 0;
  const step = sameLayer ? model.steps[parity].find((s) => s.dx === dx && s.dy === dy) : undefined;
  if (step === undefined) return `step ${k} (${px}, ${py}) -> (${px + dx}, ${py + dy}) is not a ${model.name} move${grid.linksVersion === 0 ? '' : ' or an enabled link'}`;
  const mask = exitMask(dx, dy);
  const pp = padXY(view.stride, px, py);
  if (view.walls !== null && (view.walls[pp] & mask) !== 0) return `step ${k} (${px}, ${py}) -> (${px + dx}, ${py + dy}) ${dx !== 0 && dy !== 0 ? 'crosses or passes an edge wall at its corner' : 'crosses an edge wall'}`;
  if (view.exits !== null && (view.exits[pp] & mask) !== 0) return `step ${k} leaves (${px}, ${py}) against its one-way flags`;
  if (step.diagonal) {
    const blocked = (layer.walkable[py * grid.width + px + dx] === 1 ? 0 : 1) + (layer.walkable[(py + dy) * grid.width + px] === 1 ? 0 : 1);
    if (blocked > model.corner) return `step ${k} (${px}, ${py}) -> (${px + dx}, ${py + dy}) cuts a corner`;
  }
  return null;
}

/** The length of the step from cell `p` to its neighbour `i` under `model`. */
function stepLength(model: MovementModel, grid: NavGrid, p: number, i: number): number {
  const px = grid.xOf(p);
  const py = grid.yOf(p);
  const parity = model.parityAxis === 'x' ? px & 1 : model.parityAxis === 'y' ? py & 1 : 0;
  return model.steps[parity].find((s) => s.dx === grid.xOf(i) - px && s.dy === grid.yOf(i) - py)!.length;
}

/** The least cost of an enabled link from cell `a` on layer `la` to cell `b` on layer `lb`, Infinity when none. */
function linkCost(grid: NavGrid, la: number, a: number, lb: number, b: number): number {
  if (grid.linksVersion === 0) return Infinity;
  const index = grid.linkIndex();
  const pa = pad(grid.width, a);
  const pb = pad(grid.width, b);
  const end = index.start[la + 1];
  let best = Infinity;
  for (let e = index.first(la, pa); e >= 0 && e < end && index.fromCell[e] === pa; e++) {
    if (index.toLayer[e] === lb && index.toCell[e] === pb && index.cost[e] < best) best = index.cost[e];
  }
  return best;
}
