import { TilenavError, assertOptionsObject } from '../errors.js';
import type { NavGrid } from '../grid/navgrid.js';
import type { MovementModel, MovementName } from '../search/movement.js';
import { padXY, strideOf } from '../grid/padded.js';
import type { ComponentLabels } from '../search/bounds/components.js';
import { pathfinderOf } from '../search/pathfinder.js';
import { nearestWalkable } from './nearest.js';

/** Options of {@link ReachabilityIndex}. */
export interface ReachabilityOptions {
  /** Layer index or name. @default 0 */
  layer?: number | string;
  /** Which moves connect cells (corner rule included). @default the grid's own, `grid.movement` */
  movement?: MovementName;
}

/**
 * Connected components of one layer under one movement model ("is there a path at all"), kept
 * current under tile changes: `connected` answers in O(1) (a label lookup through a small
 * union-find), and {@link nearestReachableCell} finds the start component's cell nearest a goal
 * by growing rings around the goal, without a search of the component.
 *
 * Components ignore one-way flags (they are the weakly connected ones): without one-way cells on
 * the layer the answers are exact; with them, "not connected" is still exact but "connected"
 * only means a path may exist. Edge walls split components, as blocked cells do.
 *
 * It reads the component labels the grid keeps (the ones every search's unreachable-goal check
 * uses; listed by `grid.memory()`): each change relabels locally at the next question, a change
 * that does not split anything in a few steps, a split in about twice the size of the smaller
 * side. So an index costs nothing of its own beyond the grid's labels (4 bytes per padded cell).
 */
export class ReachabilityIndex {
  /** The grid the components are of. */
  readonly grid: NavGrid;
  /** The layer, by index. */
  readonly layer: number;
  /** The movement model whose moves connect cells. */
  readonly model: MovementModel;
  private readonly W: number;

  /** An index over the grid's component labels for `layer` and `movement` (labelled now if they were not yet). */
  constructor(grid: NavGrid, options: ReachabilityOptions = {}) {
    assertOptionsObject(options, 'options');
    this.grid = grid;
    this.layer = grid.layerIndex(options.layer ?? 0);
    this.model = grid.movementModel(options.movement);
    this.W = strideOf(grid.width);
    this.labels();
  }

  /** The grid's labels for this layer and connectivity, brought up to date with the grid's changes. */
  private labels(): ComponentLabels {
    return pathfinderOf(this.grid).componentLabels(this.layer, this.model);
  }

  /** Floods run by the last update of the labels (for tests and the benchmark). */
  get lastUpdateVisited(): number {
    return this.labels().lastUpdateVisited;
  }

  /** Nothing to stop: the labels are the grid's (freed by `grid.releaseDerived()`). Kept for symmetry with the other indexes. */
  dispose(): void {}

  /** Relabels the whole layer: O(cells). */
  rebuild(): void {
    pathfinderOf(this.grid).componentLabels(this.layer, this.model, true);
  }

  /**
   * The component id of (x, y), -1 when blocked or outside. Equal ids: connected. Links
   * (`grid.addLink`) join components, whatever their direction (as one-way flags, "connected" then
   * means a path may exist).
   */
  componentOf(x: number, y: number): number {
    if (!this.grid.inBounds(x, y)) return -1;
    return pathfinderOf(this.grid).joinedComponent(this.layer, this.model, padXY(this.W, x, y));
  }

  /**
   * Whether a path may lead from (ax, ay) to (bx, by): O(1). False when either cell is blocked.
   * Exact when the layer has no one-way cells (see the class note).
   */
  connected(ax: number, ay: number, bx: number, by: number): boolean {
    const a = this.componentOf(ax, ay);
    return a >= 0 && a === this.componentOf(bx, by);
  }

  /**
   * The cell of the start cell's component nearest (Euclidean, ties to the lower index) the goal
   * cell (gx, gy), found by growing rings around the goal: O(d²) for a nearest cell d away.
   * -1 when the start is blocked.
   */
  nearestReachableCell(start: number, gx: number, gy: number): number {
    const c = this.componentOf(this.grid.xOf(start), this.grid.yOf(start));
    if (c < 0) return -1;
    const w = this.grid.width;
    return nearestWalkable(this.grid, gx, gy, {
      layer: this.layer,
      radius: Infinity,
      accept: (i) => this.componentOf(i % w, (i - (i % w)) / w) === c,
    });
  }
}

/** Throws unless the index follows this grid, layer and model. @internal */
export function checkIndex(index: ReachabilityIndex, grid: NavGrid, layer: number, movement: string): void {
  if (index.grid !== grid || index.layer !== layer || index.model.name !== movement) {
    throw new TilenavError(`the reachability index is for layer ${index.layer} / ${index.model.name}, not layer ${layer} / ${movement}`, { element: 'reachability' });
  }
}
