import { TilenavError, assertOptionsObject, describe } from '../errors.js';
import type { NavGrid, SearchView } from '../grid/navgrid.js';
import { cellStep } from '../path/smooth.js';
import { padXY } from '../grid/padded.js';

/** Options of {@link nearestWalkable}. */
export interface NearestWalkableOptions {
  /** Layer index or name. @default 0 */
  layer?: number | string;
  /** How far to look, in world units (cells of `cellStep(grid.projection)`). @default 8 */
  radius?: number;
  /** Also accept only cells for which this returns true (e.g. reachable from the unit). */
  accept?: (cell: number) => boolean;
  /** Test walkability against this view (an overlay with obstacles). @internal */
  view?: SearchView;
}

/** The default search radius of {@link nearestWalkable}, in world units. @default 8 */
export const DEFAULT_NEAREST_RADIUS = 8;

/**
 * The walkable cell nearest to (x, y) (cell coordinates, fractions allowed, may lie outside the
 * grid), found by growing square rings outward and keeping the Euclidean
 * nearest cell centre; ties go to the lower index. Cells farther than `radius` (world units) are not returned.
 * Returns the cell index, or -1 when none lies within the radius. The cell itself when walkable.
 */
export function nearestWalkable(grid: NavGrid, x: number, y: number, options: NearestWalkableOptions = {}): number {
  assertOptionsObject(options, 'options');
  if (typeof x !== 'number' || !Number.isFinite(x) || typeof y !== 'number' || !Number.isFinite(y)) {
    throw new TilenavError(`expected finite cell coordinates, got (${describe(x)}, ${describe(y)})`, { element: 'point' });
  }
  const radius = options.radius ?? DEFAULT_NEAREST_RADIUS;
  if (typeof radius !== 'number' || !(radius >= 0)) throw new TilenavError(`expected a radius >= 0 in world units, got ${describe(radius)}`, { element: 'radius' });
  const view = options.view ?? grid.searchView(grid.layerIndex(options.layer ?? 0));
  const accept = options.accept;
  const rc = radius / cellStep(grid.projection);
  const maxD = rc * rc;
  const cx = Math.round(x);
  const cy = Math.round(y);
  const W = view.stride;
  const pass = view.pass;
  const w = grid.width;
  const h = grid.height;
  let best = -1;
  let bestD = Infinity;
  const consider = (px: number, py: number) => {
    if (px < 0 || py < 0 || px >= w || py >= h) return;
    if (pass[padXY(W, px, py)] <= 0) return;
    const d = (px - x) * (px - x) + (py - y) * (py - y);
    if (d > maxD) return;
    const i = py * w + px;
    if (d < bestD || (d === bestD && i < best)) {
      if (accept !== undefined && !accept(i)) return;
      bestD = d;
      best = i;
    }
  };
  // The Chebyshev ring r holds no cell nearer than r - 0.5 (x, y may be off-centre by 0.5).
  const limit = Math.ceil(rc) + 1;
  const far = Math.max(cx, w - cx, cy, h - cy) + 1;
  // Rings start at the first one that reaches the grid and are clipped to it, so a point far
  // outside with a huge radius costs no more than the grid's own cells.
  const first = Math.max(0, cx - (w - 1), -cx, cy - (h - 1), -cy);
  for (let r = first; r <= Math.min(limit, far); r++) {
    const near = Math.max(0, r - 0.5);
    if (near * near > bestD || near * near > maxD) break;
    if (r === 0) {
      consider(cx, cy);
      continue;
    }
    for (let k = Math.max(-r, -cx), e = Math.min(r, w - 1 - cx); k <= e; k++) {
      consider(cx + k, cy - r);
      consider(cx + k, cy + r);
    }
    for (let k = Math.max(-r + 1, -cy), e = Math.min(r - 1, h - 1 - cy); k <= e; k++) {
      consider(cx - r, cy + k);
      consider(cx + r, cy + k);
    }
  }
  return best;
}
