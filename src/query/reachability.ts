import { TilenavError } from '../errors.js';
import type { GridChange, NavGrid, SearchView } from '../grid/navgrid.js';
import { Stamps } from '../search/kernel.js';
import { movementModel, type MovementModel, type MovementName } from '../search/movement.js';
import { padXY, paddedSize, paddedX, paddedY, strideOf } from '../search/padded.js';
import { nearestWalkable } from './nearest.js';
import type { NearestHooks } from './navigate.js';

export interface ReachabilityOptions {
  /** Layer index or name. @default 0 */
  layer?: number | string;
  /** Which moves connect cells (corner rule included). @default 'octile' */
  movement?: MovementName;
}

/**
 * Neighbour steps of a movement model in padded index deltas, per parity, with the side cells
 * the corner rule looks at. @internal
 */
export interface StepDeltas {
  count: number;
  corner: number;
  delta: Int32Array[];
  sideA: Int32Array[];
  sideB: Int32Array[];
  diagonal: Uint8Array[];
  parityAxis: 'x' | 'y' | null;
}

/** @internal */
export function stepDeltas(model: MovementModel, stride: number): StepDeltas {
  const d: StepDeltas = { count: model.steps[0].length, corner: model.corner, delta: [], sideA: [], sideB: [], diagonal: [], parityAxis: model.parityAxis };
  for (const steps of model.steps) {
    d.delta.push(Int32Array.from(steps, (s) => s.dy * stride + s.dx));
    d.sideA.push(Int32Array.from(steps, (s) => s.dx));
    d.sideB.push(Int32Array.from(steps, (s) => s.dy * stride));
    d.diagonal.push(Uint8Array.from(steps, (s) => (s.diagonal ? 1 : 0)));
  }
  return d;
}

/**
 * Connected components of one layer under one movement model ("is there a path at all"),
 * kept current under tile changes: `connected` answers in O(1) (a label lookup through a small
 * union-find), and {@link nearestReachableCell} finds the start component's cell nearest a goal
 * by growing rings around the goal, without a search of the component.
 *
 * Components ignore one-way flags (they are the weakly connected ones): without one-way cells on
 * the layer the answers are exact; with them, "not connected" is still exact but "connected"
 * only means a path may exist, and the hooks fall back to searching.
 *
 * Updates: each change event relabels locally. Every walkable cell within one cell of the changed
 * rectangle starts a breadth-first flood; floods that meet merge, and the floods advance in
 * lockstep until at most one is still growing. A flood that runs dry is a whole component and gets
 * a fresh label; the one left growing keeps (and merges) the old labels it touched. A change that
 * does not split anything costs a few steps; a split costs the size of the smaller side.
 * Memory: 4 bytes per cell plus the floods' scratch. Call `dispose()` to stop listening.
 */
export class ReachabilityIndex {
  readonly grid: NavGrid;
  readonly layer: number;
  readonly model: MovementModel;
  /** Label per padded cell, -1 where blocked. Read through {@link componentOf}. */
  private label: Int32Array;
  private parent: Int32Array;
  private nextLabel = 0;
  private readonly steps: StepDeltas;
  private readonly W: number;
  /** Marks the cells the current update's floods have visited. */
  private readonly vis: Stamps;
  private owner: Int32Array;
  private readonly unsubscribe: () => void;
  /** Floods run by the last update (for tests and the benchmark). */
  lastUpdateVisited = 0;

  constructor(grid: NavGrid, options: ReachabilityOptions = {}) {
    this.grid = grid;
    this.layer = grid.layerIndex(options.layer ?? 0);
    this.model = movementModel(options.movement ?? 'octile');
    this.W = strideOf(grid.width);
    const n = paddedSize(grid.width, grid.height);
    this.label = new Int32Array(n);
    this.parent = new Int32Array(1024);
    this.vis = new Stamps(n);
    this.owner = new Int32Array(n);
    this.steps = stepDeltas(this.model, this.W);
    this.rebuild();
    this.unsubscribe = grid.onChange((c) => this.onChange(c));
  }

  /** Stops following the grid's changes. */
  dispose(): void {
    this.unsubscribe();
  }

  /** Relabels the whole layer: O(cells). Called on creation and when labels run high. */
  rebuild(): void {
    const view = this.view();
    const label = this.label;
    label.fill(-1);
    this.nextLabel = 0;
    const queue = this.owner; // scratch: the flood queue
    const pass = view.pass;
    for (let p = 0; p < label.length; p++) {
      if (pass[p] <= 0 || label[p] !== -1) continue;
      const l = this.fresh();
      label[p] = l;
      let head = 0;
      let tail = 0;
      queue[tail++] = p;
      while (head < tail) {
        const c = queue[head++];
        const d = this.steps;
        const par = this.parity(c);
        for (let k = 0; k < d.count; k++) {
          const nb = this.neighbour(pass, c, k, par);
          if (nb >= 0 && label[nb] === -1) {
            label[nb] = l;
            queue[tail++] = nb;
          }
        }
      }
    }
  }

  /** The component id of (x, y), -1 when blocked or outside. Equal ids: connected. */
  componentOf(x: number, y: number): number {
    if (!this.grid.inBounds(x, y)) return -1;
    const l = this.label[padXY(this.W, x, y)];
    return l < 0 ? -1 : this.find(l);
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

  private fresh(): number {
    const l = this.nextLabel++;
    if (l >= this.parent.length) {
      const p = new Int32Array(this.parent.length * 2);
      p.set(this.parent);
      this.parent = p;
    }
    this.parent[l] = l;
    return l;
  }

  private find(l: number): number {
    const parent = this.parent;
    while (parent[l] !== l) {
      parent[l] = parent[parent[l]];
      l = parent[l];
    }
    return l;
  }

  private parity(p: number): number {
    const axis = this.steps.parityAxis;
    if (axis === null) return 0;
    return (axis === 'y' ? paddedY(this.W, p) : paddedX(this.W, p)) & 1;
  }

  /** The k-th neighbour of padded cell c when that move is allowed, else -1. */
  private neighbour(pass: Float32Array, c: number, k: number, par: number): number {
    const d = this.steps;
    const n = c + d.delta[par][k];
    if (pass[n] <= 0) return -1;
    if (d.diagonal[par][k] === 1) {
      const blocked = (pass[c + d.sideA[par][k]] > 0 ? 0 : 1) + (pass[c + d.sideB[par][k]] > 0 ? 0 : 1);
      if (blocked > d.corner) return -1;
    }
    return n;
  }

  private onChange(change: GridChange): void {
    if (change.layer !== this.layer) return;
    // Large rectangles (a loader's refresh) relabel faster from scratch than by floods.
    if (this.nextLabel > 2 * this.grid.size + 1024 || (change.width * change.height > 4096 && change.width * change.height * 8 > this.grid.size)) {
      this.rebuild();
      return;
    }
    this.update(change.x, change.y, change.width, change.height);
  }

  private update(rx: number, ry: number, rw: number, rh: number): void {
    const grid = this.grid;
    const W = this.W;
    const pass = this.view().pass;
    const label = this.label;
    const x0 = Math.max(0, rx - 1);
    const y0 = Math.max(0, ry - 1);
    const x1 = Math.min(grid.width - 1, rx + rw);
    const y1 = Math.min(grid.height - 1, ry + rh);
    const gen = this.vis.next();
    const vis = this.vis.stamp;
    const owner = this.owner;
    // Group g: one flood. queues[g] lists the cells it visited; heads[g] its next to expand.
    const queues: number[][] = [];
    const heads: number[] = [];
    const gp: number[] = [];
    const findG = (g: number): number => {
      while (gp[g] !== g) {
        gp[g] = gp[gp[g]];
        g = gp[g];
      }
      return g;
    };
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const p = padXY(W, x, y);
        if (pass[p] <= 0) {
          label[p] = -1;
          continue;
        }
        const g = queues.length;
        queues.push([p]);
        heads.push(0);
        gp.push(g);
        vis[p] = gen;
        owner[p] = g;
      }
    }
    let active: number[] = queues.map((_, g) => g);
    const steps = this.steps;
    let visited = queues.length;
    for (;;) {
      // Stop when at most one distinct flood is still growing.
      let root = -1;
      let several = false;
      for (const g of active) {
        const r = findG(g);
        if (root === -1) root = r;
        else if (r !== root) {
          several = true;
          break;
        }
      }
      if (!several) break;
      const next: number[] = [];
      for (const g of active) {
        const q = queues[g];
        const c = q[heads[g]++];
        const par = this.parity(c);
        for (let k = 0; k < steps.count; k++) {
          const n = this.neighbour(pass, c, k, par);
          if (n < 0) continue;
          if (vis[n] !== gen) {
            vis[n] = gen;
            owner[n] = g;
            q.push(n);
            visited++;
          } else {
            const a = findG(g);
            const b = findG(owner[n]);
            if (a !== b) gp[Math.max(a, b)] = Math.min(a, b);
          }
        }
        if (heads[g] < q.length) next.push(g);
      }
      active = next;
    }
    this.lastUpdateVisited = visited;
    const growing = active.length > 0 ? findG(active[0]) : -1;
    // Finished floods: whole components, fresh labels. The growing one: merge the old labels it met.
    const fresh = new Map<number, number>();
    let keep = -1;
    if (growing >= 0) {
      for (let g = 0; g < queues.length; g++) {
        if (findG(g) !== growing) continue;
        for (const p of queues[g]) {
          const old = label[p];
          if (old < 0) continue;
          const r = this.find(old);
          if (keep === -1) keep = r;
          else if (r !== keep) this.parent[r] = keep;
        }
      }
      if (keep === -1) keep = this.fresh();
    }
    for (let g = 0; g < queues.length; g++) {
      const r = findG(g);
      let l: number;
      if (r === growing) l = keep;
      else {
        l = fresh.get(r) ?? -1;
        if (l === -1) fresh.set(r, (l = this.fresh()));
      }
      for (const p of queues[g]) label[p] = l;
    }
  }
}

/** Throws unless the index follows this grid, layer and model. @internal */
export function checkIndex(index: ReachabilityIndex, grid: NavGrid, layer: number, movement: string): void {
  if (index.grid !== grid || index.layer !== layer || index.model.name !== movement) {
    throw new TilenavError(`the reachability index is for layer ${index.layer} / ${index.model.name}, not layer ${layer} / ${movement}`, { element: 'reachability' });
  }
}
