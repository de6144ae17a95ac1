import { TilenavError, assertOptionsObject } from '../errors.js';
import type { GridChange, NavGrid, SearchView } from '../grid/navgrid.js';
import { Stamps } from '../search/kernel.js';
import { movementModel, type MovementModel, type MovementName } from '../search/movement.js';
import { padXY, paddedSize, strideOf } from '../grid/padded.js';
import { ComponentLabels, connectivity } from '../search/components.js';
import { nearestWalkable } from './nearest.js';
import type { NearestHooks } from './navigate.js';

/** Options of {@link ReachabilityIndex}. */
export interface ReachabilityOptions {
  /** Layer index or name. @default 0 */
  layer?: number | string;
  /** Which moves connect cells (corner rule included). @default 'octile' */
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
 * only means a path may exist, and the hooks fall back to searching.
 *
 * Updates: each change event relabels the changed part only (these are the labels the
 * Pathfinder's unreachable-goal check uses): a change that does not split anything costs a few
 * steps; a split costs about twice the size of the smaller side. Large changes relabel the layer.
 * Memory: 4 bytes per padded cell of labels plus 8 of flood scratch. Call `dispose()` to stop
 * listening.
 */
export class ReachabilityIndex {
  /** The grid the components are of. */
  readonly grid: NavGrid;
  /** The layer, by index. */
  readonly layer: number;
  /** The movement model whose moves connect cells. */
  readonly model: MovementModel;
  /** The labels, the same code the Pathfinder's unreachable-goal check runs on. */
  private readonly labels: ComponentLabels;
  private readonly W: number;
  /** Marks the cells the current update's floods have visited. */
  private readonly vis: Stamps;
  /** Flood owners during an update; the id map during a rebuild. */
  private readonly owner: Int32Array;
  private readonly unsubscribe: () => void;

  /** Labels the layer's components now (O(cells)) and listens to the grid's changes until `dispose()`. */
  constructor(grid: NavGrid, options: ReachabilityOptions = {}) {
    assertOptionsObject(options, 'options');
    this.grid = grid;
    this.layer = grid.layerIndex(options.layer ?? 0);
    this.model = movementModel(options.movement ?? 'octile');
    this.W = strideOf(grid.width);
    const n = paddedSize(grid.width, grid.height);
    this.labels = new ComponentLabels(grid.width, grid.height, connectivity(this.model));
    this.vis = new Stamps(n);
    this.owner = new Int32Array(n);
    this.rebuild();
    this.unsubscribe = grid.onChange((c) => this.onChange(c));
  }

  /** Floods run by the last update (for tests and the benchmark). */
  get lastUpdateVisited(): number {
    return this.labels.lastUpdateVisited;
  }

  /** Stops following the grid's changes. */
  dispose(): void {
    this.unsubscribe();
  }

  /** Relabels the whole layer: O(cells). Called on creation and by large changes. */
  rebuild(): void {
    this.labels.rebuild(this.view().pass, this.owner);
  }

  /** The component id of (x, y), -1 when blocked or outside. Equal ids: connected. */
  componentOf(x: number, y: number): number {
    if (!this.grid.inBounds(x, y)) return -1;
    return this.labels.root(padXY(this.W, x, y));
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

  /**
   * Pass as findPathToNearest's `hooks`: a goal known to be out of reach goes straight to the
   * nearest reachable cell, with no search of the start's whole component.
   */
  readonly hooks: NearestHooks = {
      nearestReachable: (layer, movement, start, gx, gy) => {
        if (layer !== this.layer || movement !== this.model.name) return -1;
        if (this.view().exits !== null) return -1;
        const sx = this.grid.xOf(start);
        const sy = this.grid.yOf(start);
        if (this.connected(sx, sy, gx, gy)) return -1;
        return this.nearestReachableCell(start, gx, gy);
      },
    };

  private view(): SearchView {
    return this.grid.searchView(this.layer);
  }

  private onChange(change: GridChange): void {
    if (change.layer !== this.layer) return;
    this.labels.apply(this.view().pass, [change], this.vis, this.owner);
  }
}

/** Throws unless the index follows this grid, layer and model. @internal */
export function checkIndex(index: ReachabilityIndex, grid: NavGrid, layer: number, movement: string): void {
  if (index.grid !== grid || index.layer !== layer || index.model.name !== movement) {
    throw new TilenavError(`the reachability index is for layer ${index.layer} / ${index.model.name}, not layer ${layer} / ${movement}`, { element: 'reachability' });
  }
}
