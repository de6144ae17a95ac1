/**
 * Dijkstra from several sources on a padded grid view: the generic A* loop with no goal and no
 * heuristic, seeded with every source at cost 0.
 */
import type { SearchView } from '../../../grid/navgrid.js';
import type { GridAStar } from './astar.js';
import type { SearchOutcome } from '../../kernel/scratch.js';
import type { MovementModel } from '../../movement.js';
import { pad, padXY, strideOf } from '../../../grid/padded.js';

/**
 * Costs from the nearest of `sources` (cell indices `y * width + x`, each in range; those blocked
 * on `view` are ignored) to every cell of a `width` x `height` grid, written into `dist` (one
 * entry per cell, which the caller has filled with Infinity: cells left unreached keep it). Cells
 * dearer than `maxCost` stay unreached. Runs on `search`'s scratch, whose stamps then tell which
 * cells were settled. Fills `out` (`reached` is false: there is no goal).
 */
export function dijkstra(search: GridAStar, view: SearchView, model: MovementModel, width: number, height: number, sources: ArrayLike<number>, maxCost: number, dist: Float64Array, out: SearchOutcome): SearchOutcome {
  const scratch = search.scratch;
  const gen = scratch.begin();
  const { g, stamp, heap } = scratch;
  for (let k = 0; k < sources.length; k++) {
    const p = pad(width, sources[k]);
    if (view.pass[p] === 0 || stamp[p] === gen) continue;
    scratch.place(p, 0);
    heap.push(p, 0, 0);
  }
  search.generic(view, model, -1, -1, 0, Infinity, out, { maxCost, seeded: true, nearest: false });
  const closed = gen + 1;
  const W = strideOf(width);
  for (let y = 0; y < height; y++) {
    let p = padXY(W, 0, y);
    let i = y * width;
    for (let x = 0; x < width; x++, p++, i++) if (stamp[p] === closed) dist[i] = g[p];
  }
  return out;
}
