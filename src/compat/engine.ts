/**
 * What both compatibility entries search with: one NavGrid and one kept Pathfinder, brought up to
 * date from the caller's own grid object by writing only the cells that changed, and the one
 * allowance the older libraries make that a NavGrid does not: a search may leave a blocked start.
 */
import { NavGrid, type CellValues } from '../grid/navgrid.js';
import { Pathfinder } from '../search/pathfinder.js';
import type { PathSearch } from '../search/path-search.js';
import type { MovementName } from '../search/movement.js';

/** Written cells above this share of the grid are copied into its arrays and refreshed at once. */
const BULK_SHARE = 8;

export class CompatEngine {
  readonly grid: NavGrid;
  readonly finder: Pathfinder;
  /** Nodes the last {@link findPath} expanded. */
  expanded = 0;
  /** The blocked start cell opened for the last search, -1 when none. */
  private patched = -1;
  /** One values object for every single-cell write. */
  private readonly values: CellValues = {};

  constructor(width: number, height: number) {
    this.grid = new NavGrid(width, height, { maxCells: Infinity });
    this.finder = new Pathfinder(this.grid);
  }

  /**
   * Brings `count` cells listed in `cells` (indices `y * width + x`, repeats allowed) to
   * `walkable(i)` and, when given, `cost(i)` (a cost the grid holds: callers check it when it is
   * set). Many cells are written straight into the layer and refreshed in one event; a few go
   * through the grid's setters in one batch, so what follows the grid hears exactly what opened.
   */
  write(cells: ArrayLike<number>, count: number, walkable: (i: number) => boolean, cost?: (i: number) => number): void {
    // Nothing to write: the grid (and a start opened for a paused search) stays as it is.
    if (count === 0) return;
    this.unpatch();
    const grid = this.grid;
    const layer = grid.layers[0];
    if (count > grid.size / BULK_SHARE) {
      for (let k = 0; k < count; k++) {
        const i = cells[k];
        layer.walkable[i] = walkable(i) ? 1 : 0;
        if (cost !== undefined) layer.cost[i] = cost(i);
      }
      grid.refresh(0);
      return;
    }
    const values = this.values;
    grid.batch(() => {
      for (let k = 0; k < count; k++) {
        const i = cells[k];
        const w = walkable(i);
        const c = cost === undefined ? layer.cost[i] : Math.fround(cost(i));
        if ((layer.walkable[i] === 1) === w && layer.cost[i] === c) continue;
        values.walkable = w;
        values.cost = c;
        grid.fillRect(grid.xOf(i), grid.yOf(i), 1, 1, values, 0);
      }
    });
  }

  /**
   * The cheapest path's cells (start first) under `movement`, or null without one. A blocked start
   * is opened for the search (both older libraries search from it): a cheapest path never passes
   * beside it either, since stepping straight from the start to that cell costs less, so opening
   * it changes no answer. It stays open until the next write or a search from elsewhere.
   */
  findPath(sx: number, sy: number, gx: number, gy: number, movement: MovementName): Int32Array | null {
    this.openStart(sx, sy);
    const r = this.finder.findPath(sx, sy, gx, gy, { movement });
    this.expanded = r.expanded;
    return r.status === 'found' ? r.cells : null;
  }

  /** The same search as {@link findPath}, to run a slice of nodes at a time (EasyStar's iterations per calculation). */
  begin(sx: number, sy: number, gx: number, gy: number, movement: MovementName): PathSearch {
    this.openStart(sx, sy);
    return this.finder.begin(sx, sy, gx, gy, { movement });
  }

  /** Opens a blocked start cell for the searches from it (see {@link findPath}). */
  private openStart(sx: number, sy: number): void {
    const grid = this.grid;
    const start = sy * grid.width + sx;
    if (this.patched === start) return;
    this.unpatch();
    if (grid.layers[0].walkable[start] === 0) {
      grid.setWalkable(sx, sy, true);
      this.patched = start;
    }
  }

  /** Closes the start opened by the last search, if any. */
  private unpatch(): void {
    if (this.patched < 0) return;
    const i = this.patched;
    this.patched = -1;
    this.grid.setWalkable(this.grid.xOf(i), this.grid.yOf(i), false);
  }
}
