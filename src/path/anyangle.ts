import { TilenavError, assertOptionsObject, describe } from '../errors.js';
import type { NavGrid, SearchView } from '../grid/navgrid.js';
import { SearchScratch } from '../search/kernel/scratch.js';
import type { Pathfinder } from '../search/pathfinder.js';
import { DX as DX_, DY as DY_, SQRT2 as SQRT2_, exitMask, padXY, paddedSize, paddedX, paddedY, strideOf } from '../grid/padded.js';
import type { PathStatus } from '../search/result.js';
import { segmentCost } from './los.js';
import { polylineCost, smoothPath } from './smooth.js';

export interface AnyAngleOptions {
  /** Layer index or name. @default 0 */
  layer?: number | string;
  /** Stop after this many expansions with status `limit-reached`. @default Infinity */
  maxIterations?: number;
  /** Search this view (obstacle or clearance overlay). @internal */
  view?: SearchView;
}

export interface AnyAngleResult {
  status: PathStatus;
  /** Waypoints [x0, y0, ...] in cell coordinates, start to goal; empty without a path. */
  points: Float64Array;
  /** Sum over segments of length in each cell x its cost ({@link segmentCost}). Infinity without a path. */
  cost: number;
  expanded: number;
}

// Module-local copies: some loaders (tsx) turn imported bindings into getter calls in hot loops.
const DX = DX_;
const DY = DY_;
const SQRT2 = SQRT2_;

/**
 * Theta* (Nash et al. 2007): A* over the octile graph (no corner cutting) whose nodes may take
 * their parent's parent when it is in sight, so paths bend only at obstacle corners and are
 * shorter than smoothed grid paths. On layers of one uniform cost it runs as Lazy Theta* (Nash,
 * Koenig and Tovey 2010): one sight test per expansion instead of one per neighbour. Sight and cost are {@link segmentCost}'s (exact supercover,
 * one-way flags and edge walls honoured). The heuristic is the Euclidean distance times the layer's smallest
 * cost, admissible for that cost. Not guaranteed optimal among all any-angle paths (Theta* is
 * within a few tenths of a percent in practice). Holds its search scratch (about 20 bytes per
 * cell) and reuses it across queries. `Pathfinder.findPath` with `anyAngle` runs it. @internal
 */
export class AnyAngleFinder {
  readonly grid: NavGrid;
  /** Search state over padded cell indices; a node's parent is itself at the start. */
  private readonly scratch: SearchScratch;
  /** The exact grid search an any-angle path is checked against: the Pathfinder that owns this finder. */
  private readonly pathfinder: Pathfinder;

  /** Bytes held: the search scratch. */
  get bytes(): number {
    return this.scratch.bytes;
  }

  constructor(grid: NavGrid, pathfinder: Pathfinder) {
    this.grid = grid;
    this.pathfinder = pathfinder;
    this.scratch = new SearchScratch(paddedSize(grid.width, grid.height));
  }

  /** An any-angle path from cell (sx, sy) to cell (gx, gy). */
  findPath(sx: number, sy: number, gx: number, gy: number, options: AnyAngleOptions = {}): AnyAngleResult {
    assertOptionsObject(options, 'options');
    const grid = this.grid;
    for (const [v, n] of [[sx, 'start x'], [sy, 'start y'], [gx, 'goal x'], [gy, 'goal y']] as const) {
      if (!Number.isInteger(v)) throw new TilenavError('expected an integer cell coordinate', { element: n });
    }
    const layer = grid.layerIndex(options.layer ?? 0);
    const view = options.view ?? grid.searchView(layer);
    const maxIterations = options.maxIterations ?? Infinity;
    const W = strideOf(grid.width);
    const start = padXY(W, sx, sy);
    const goal = padXY(W, gx, gy);
    const none = (status: PathStatus, expanded = 0): AnyAngleResult => ({ status, points: new Float64Array(0), cost: Infinity, expanded });
    if (!grid.inBounds(sx, sy) || view.pass[start] <= 0) return none('invalid-start');
    if (!grid.inBounds(gx, gy) || view.pass[goal] <= 0) return none('invalid-goal');
    const pass = view.pass;
    const exits = view.exits;
    const scratch = this.scratch;
    const { g, parent, stamp, heap } = scratch;
    const hs = view.minCost;
    const h = (p: number) => {
      const y = ((p / W) | 0) - 1;
      const x = p - (y + 1) * W - 1;
      return Math.hypot(x - gx, y - gy) * hs;
    };
    const open = scratch.start(start, h(start));
    const closed = open + 1;
    parent[start] = start;
    // Lazy Theta* on uniform cost: a shortcut's cost is its length, so relaxations assume sight
    // and each expansion checks it once; dearer terrain needs the exact cost per relaxation.
    const lazy = view.uniform;
    const unit = view.minCost;
    let expanded = 0;
    while (heap.size > 0) {
      const cur = heap.pop();
      if (lazy && parent[cur] !== cur) this.setVertex(view, cur, W, closed);
      stamp[cur] = closed;
      if (cur === goal) break;
      if (expanded >= maxIterations) return none('limit-reached', expanded);
      expanded++;
      const cy = ((cur / W) | 0) - 1;
      const cx = cur - (cy + 1) * W - 1;
      const par = parent[cur];
      const py = ((par / W) | 0) - 1;
      const px = par - (py + 1) * W - 1;
      const ex = exits === null ? 0 : exits[cur];
      for (let k = 0; k < 8; k++) {
        const dx = DX[k];
        const dy = DY[k];
        const n = cur + dy * W + dx;
        if (pass[n] <= 0 || stamp[n] === closed) continue;
        if (k >= 4 && (pass[cur + dx] <= 0 || pass[cur + dy * W] <= 0)) continue;
        if (ex !== 0 && (ex & exitMask(dx, dy)) !== 0) continue;
        const nx = cx + dx;
        const ny = cy + dy;
        let ng = Infinity;
        let np = cur;
        if (lazy) {
          np = par;
          ng = g[par] + Math.hypot(nx - px, ny - py) * unit;
        } else if (par !== cur) {
          const c = segmentCost(view, px, py, nx, ny, 0);
          if (c >= 0) {
            ng = g[par] + c;
            np = par;
          }
        }
        // On mixed terrain the shortcut from the parent may cross dear cells: keep the plain
        // step when it is cheaper, so no node's cost exceeds its grid neighbour's plus one step.
        const step = np === cur || !lazy ? g[cur] + segmentCost(view, cx, cy, nx, ny, 0) : Infinity;
        if (step < ng) {
          ng = step;
          np = cur;
        }
        if (stamp[n] === open) {
          if (ng < g[n]) {
            g[n] = ng;
            parent[n] = np;
            heap.decrease(n, ng + h(n), ng);
          }
        } else {
          g[n] = ng;
          parent[n] = np;
          stamp[n] = open;
          heap.push(n, ng + h(n), ng);
        }
      }
    }
    if (stamp[goal] !== closed) return none('no-path', expanded);
    let len = 1;
    for (let p = goal; parent[p] !== p; p = parent[p]) len++;
    const points = new Float64Array(2 * len);
    let k = len;
    for (let p = goal; ; p = parent[p]) {
      k--;
      points[2 * k] = paddedX(W, p);
      points[2 * k + 1] = paddedY(W, p);
      if (parent[p] === p) break;
    }
    return this.noDearerThanGrid(view, layer, sx, sy, gx, gy, maxIterations, { status: 'found', points, cost: g[goal], expanded });
  }

  /**
   * Theta* is not optimal, and on mixed terrain its shortcuts can cost more than the grid path it
   * stands for. The exact grid path (A*) is measured the same way (its steps as segments), string
   * pulled, and returned instead when it is cheaper: an any-angle path never costs more than the
   * grid path between the same cells. Skipped when A* hits `maxIterations`.
   */
  private noDearerThanGrid(view: SearchView, layer: number, sx: number, sy: number, gx: number, gy: number, maxIterations: number, found: AnyAngleResult): AnyAngleResult {
    // No grid path is cheaper than the octile distance at the cheapest cost: then A* cannot win.
    const dx = Math.abs(gx - sx);
    const dy = Math.abs(gy - sy);
    if (found.cost <= (Math.max(dx, dy) + (SQRT2 - 1) * Math.min(dx, dy)) * view.minCost) return found;
    const r = this.pathfinder.findPathOn(sx, sy, gx, gy, { layer, view, maxIterations, algorithm: 'astar', movement: 'octile' });
    if (r.status !== 'found') return found;
    const smoothed = smoothPath(this.grid, r.cells, { layer, view });
    const cost = polylineCost(this.grid, smoothed, { layer, view });
    if (!(cost < found.cost)) return found;
    return { status: 'found', points: smoothed, cost, expanded: found.expanded + r.expanded };
  }

  /**
   * Lazy Theta*'s SetVertex: when the assumed parent of `cur` is out of sight, take the best
   * closed neighbour that may step into `cur` instead.
   */
  private setVertex(view: SearchView, cur: number, W: number, closed: number): void {
    const { g, parent, stamp } = this.scratch;
    const par = parent[cur];
    const cy = paddedY(W, cur);
    const cx = paddedX(W, cur);
    const py = paddedY(W, par);
    const px = paddedX(W, par);
    if (segmentCost(view, px, py, cx, cy, 0) >= 0) return;
    const pass = view.pass;
    const exits = view.exits;
    const c = pass[cur];
    let bestG = Infinity;
    let bestP = par;
    for (let k = 0; k < 8; k++) {
      const m = cur + DY[k] * W + DX[k];
      if (pass[m] <= 0 || stamp[m] !== closed) continue;
      if (k >= 4 && (pass[cur + DX[k]] <= 0 || pass[cur + DY[k] * W] <= 0)) continue;
      if (exits !== null && (exits[m] & exitMask(-DX[k], -DY[k])) !== 0) continue;
      const gm = g[m] + (k >= 4 ? SQRT2 : 1) * c;
      if (gm < bestG) {
        bestG = gm;
        bestP = m;
      }
    }
    g[cur] = bestG;
    parent[cur] = bestP;
  }
}
