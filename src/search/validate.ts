import { TilenavError, assertArrayLike, assertOptionsObject } from '../errors.js';
import type { NavGrid } from '../grid/navgrid.js';
import { movementModel, type MovementName } from './movement.js';
import { exitMask, pad } from '../grid/padded.js';

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
 * the model's moves (diagonals obey its corner rule, one-way flags are honoured) or an enabled link
 * of the grid (`grid.addLink`) between its two cells, and recomputes its cost. `layers` gives each
 * cell's layer for a path across layers (a `PathResult`'s own `layers`); without it every cell is on
 * `layer`. The CLI's `scen` command and the tests use it.
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
  const model = movementModel(options.movement ?? 'octile');
  const bad = (problem: string): PathCheck => ({ valid: false, cost: NaN, problem });
  if (cells.length === 0) return bad('empty path');
  let cost = 0;
  for (let k = 0; k < cells.length; k++) {
    const i = cells[k];
    if (!Number.isInteger(i) || i < 0 || i >= grid.size) return bad(`cell ${k} is not a cell index`);
    const layer = grid.layers[layerAt(k)];
    if (layer.walkable[i] !== 1) return bad(`cell ${k} (${grid.xOf(i)}, ${grid.yOf(i)}) is blocked`);
    if (k === 0) continue;
    const p = cells[k - 1];
    const link = linkCost(grid, layerAt(k - 1), p, layerAt(k), i);
    const px = grid.xOf(p);
    const py = grid.yOf(p);
    const dx = grid.xOf(i) - px;
    const dy = grid.yOf(i) - py;
    const parity = model.parityAxis === 'x' ? px & 1 : model.parityAxis === 'y' ? py & 1 : 0;
    const step = layerAt(k - 1) === layerAt(k) ? model.steps[parity].find((s) => s.dx === dx && s.dy === dy) : undefined;
    let why: string | null = null;
    if (step === undefined) why = `step ${k} (${px}, ${py}) -> (${px + dx}, ${py + dy}) is not a ${model.name} move${grid.linksVersion === 0 ? '' : ' or an enabled link'}`;
    else if ((layer.flags[p] & exitMask(dx, dy)) !== 0) why = `step ${k} leaves (${px}, ${py}) against its one-way flags`;
    else if (step.diagonal) {
      const blocked = (layer.walkable[py * grid.width + px + dx] === 1 ? 0 : 1) + (layer.walkable[(py + dy) * grid.width + px] === 1 ? 0 : 1);
      if (blocked > model.corner) why = `step ${k} (${px}, ${py}) -> (${px + dx}, ${py + dy}) cuts a corner`;
    }
    const move = why === null ? step!.length * layer.cost[i] : Infinity;
    if (why !== null && link === Infinity) return bad(why);
    cost += Math.min(move, link);
  }
  return { valid: true, cost };
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
