/**
 * Connected components of a layer's walkable cells under a movement model's moves, so that a goal
 * the start cannot reach is answered without a search.
 *
 * Components ignore one-way flags: two cells share a component when a chain of moves links them in
 * either direction. Different components therefore means "certainly unreachable" on every layer;
 * the same component means "reachable" only on layers without one-way cells (elsewhere the search
 * decides). Edge walls split components: a move across a walled edge, or a diagonal past a wall at
 * its corner, links nothing (the view's `walls` bits, the same from both ends). Moves are symmetric
 * without one-way flags (a diagonal's corner rule looks at the same two side cells and the same
 * corner from either end), so one flood per component finds it.
 *
 * Labels live on the padded grid (one Int32 per padded cell) with a small union-find over label
 * ids: joining two components links their ids, so opening a door costs a few steps. Splitting one
 * (closing a door) relabels by floods from the changed cells' neighbours, bounded by the size of the
 * smaller side (see {@link ComponentLabels.update}).
 *
 * Links (`grid.addLink`: stairs, teleporters) join components, of one layer or of two: a query
 * unions the components of each enabled link's two ends, on every layer links lead to from the
 * start's, in a small union-find over (layer, component) pairs, rebuilt when the links or the
 * labels of those layers changed. Links ignore their direction here as steps ignore one-way
 * flags: apart is still certain, together only possible.
 */
import type { CellRect, Derived, GridChange, MemoryEntry, NavGrid } from '../../grid/navgrid.js';
import type { SearchScratch, Stamps } from '../kernel/scratch.js';
import { MOVEMENT_NAMES, movementModel, type MovementModel, type MovementName } from '../movement.js';
import { exitMask, padXY, paddedSize, paddedX, paddedY, strideOf } from '../../grid/padded.js';

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
  /** Per parity, the view's wall bits that refuse step k (see `exitMask`). */
  wallMask: Uint8Array[];
  /** Per parity, the steps k whose delta is negative: neighbours a row-major scan has already seen. */
  back: Int32Array[];
  parityAxis: 'x' | 'y' | null;
}

/** @internal */
export function stepDeltas(model: MovementModel, stride: number): StepDeltas {
  const d: StepDeltas = { count: model.steps[0].length, corner: model.corner, delta: [], sideA: [], sideB: [], diagonal: [], wallMask: [], back: [], parityAxis: model.parityAxis };
  for (const steps of model.steps) {
    const delta = Int32Array.from(steps, (s) => s.dy * stride + s.dx);
    d.delta.push(delta);
    d.sideA.push(Int32Array.from(steps, (s) => s.dx));
    d.sideB.push(Int32Array.from(steps, (s) => s.dy * stride));
    d.diagonal.push(Uint8Array.from(steps, (s) => (s.diagonal ? 1 : 0)));
    d.wallMask.push(Uint8Array.from(steps, (s) => exitMask(s.dx, s.dy)));
    d.back.push(Int32Array.from(steps.map((_, k) => k).filter((k) => delta[k] < 0)));
  }
  return d;
}

/** Changed area (cells) above which relabelling everything beats local floods: an eighth of the grid, and at least this much. */
const REBUILD_AREA = 4096;

/**
 * Component labels of one layer under one connectivity, on the padded grid. Holds no reference to
 * the grid: every call passes the layer's current padded costs (`pass`, 0 where blocked) and the
 * scratch it may use, so one search scratch serves the labels and the searches.
 *
 * Memory: 4 bytes per padded cell, plus 4 per label id: one per run of cells that the row scan
 * starts without a labelled neighbour (under 1 % of the cells on the benchmark maps), and those
 * updates add, until the next full relabel.
 */
export class ComponentLabels {
  /** Label per padded cell, -1 where blocked; equal roots ({@link root}) mean one component. */
  readonly label: Int32Array;
  private parent: Int32Array;
  private nextLabel = 0;
  readonly steps: StepDeltas;
  private readonly width: number;
  private readonly height: number;
  private readonly W: number;
  /** Cells the last {@link update}'s floods visited (for tests and benchmarks). */
  lastUpdateVisited = 0;
  /** Increases with every relabelling, whole or local: what the link joins compare. */
  version = 0;

  constructor(width: number, height: number, model: MovementModel) {
    this.width = width;
    this.height = height;
    this.W = strideOf(width);
    // Left at 0 until the first rebuild: that writes every cell once, blocked ones and the border
    // as -1, so a fill here would only fault in the 4 bytes per cell twice.
    this.label = new Int32Array(paddedSize(width, height));
    this.parent = new Int32Array(256);
    this.steps = stepDeltas(model, this.W);
  }

  /** Bytes held: the labels and the union-find over label ids. */
  get bytes(): number {
    return this.label.byteLength + this.parent.byteLength;
  }

  /** The component id of padded cell `p`, -1 when it is blocked. Equal ids: connected. */
  root(p: number): number {
    const l = this.label[p];
    return l < 0 ? -1 : this.find(l);
  }

  /**
   * Brings the labels up to date after the cells of `rects` changed (and nothing else since the
   * labels were last current): local floods for small changes, a full relabel for large ones.
   * `owner` is scratch of at least one Int32 per padded cell; `vis` stamps of the same size.
   * `walls`: the layer's view's wall bits (`SearchView.walls`), null when it has no edge walls.
   */
  apply(pass: Float32Array, rects: readonly CellRect[], vis: Stamps, owner: Int32Array, walls: Uint8Array | null = null): void {
    let area = 0;
    for (const r of rects) area += r.width * r.height;
    if (this.nextLabel > this.width * this.height + 1024 || (area > REBUILD_AREA && area * 8 > this.width * this.height)) this.rebuild(pass, owner, walls);
    else this.update(pass, rects, vis, owner, walls);
  }

  /**
   * Labels every cell from scratch in one row-major pass: each walkable cell joins the labels of
   * the neighbours already scanned (a union-find in `ids`). O(cells).
   * @param ids scratch of at least one Int32 per padded cell.
   * @param walls the layer's view's wall bits (`SearchView.walls`), null when it has no edge walls.
   */
  rebuild(pass: Float32Array, ids: Int32Array, walls: Uint8Array | null = null): void {
    this.version++;
    this.blockBorder();
    const count = this.steps.count === 4 && this.steps.parityAxis === null && walls === null ? this.scanCardinal(pass, ids) : this.scan(pass, ids, walls);
    // The cells keep their scan ids; the union-find keeps the scan's, each pointed straight at its
    // root in one ascending pass (a parent precedes its children).
    for (let i = 0; i < count; i++) ids[i] = ids[ids[i]];
    if (this.parent.length < count + 256 || this.parent.length > 4 * count + 1024) this.parent = new Int32Array(2 * count + 256);
    this.parent.set(ids.subarray(0, count));
    this.nextLabel = count;
  }

  /** Labels the padded border -1 (blocked): the first and last padded rows and each row's two ends. */
  private blockBorder(): void {
    const label = this.label;
    const W = this.W;
    label.fill(-1, 0, W + 1);
    for (let y = 1; y < this.height; y++) {
      // The pad after row y - 1 and the pad before row y are neighbours in the array.
      label[y * W + W - 1] = -1;
      label[y * W + W] = -1;
    }
    label.fill(-1, this.height * W + W - 1);
  }

  /**
   * The row scan for 4-neighbour moves, with provisional ids in `ids` (every id's parent smaller
   * than itself), a run of open cells at a time. A run joins the label of each run of open cells
   * above it once, where that run starts over it (or where the run itself starts): the rest of
   * such a run above carries the same label. A cell takes the id in hand (cells before a union
   * that lowers it reach the new id through `ids`), so each cell costs two reads and a write.
   * Returns the number of provisional ids.
   */
  private scanCardinal(costs: Float32Array, ids: Int32Array): number {
    // The costs' bit patterns as integers: > 0 exactly where the cost is (costs are never negative).
    const pass = new Int32Array(costs.buffer, costs.byteOffset, costs.length);
    const label = this.label;
    const W = this.W;
    let count = 0;
    for (let y = 0; y < this.height; y++) {
      let p = padXY(W, 0, y);
      const end = p + this.width;
      while (p < end) {
        if (pass[p] <= 0) {
          label[p++] = -1;
          continue;
        }
        let above = pass[p - W] > 0;
        let cur: number;
        if (above) {
          cur = label[p - W];
          while (ids[cur] !== cur) cur = ids[cur] = ids[ids[cur]];
        } else {
          cur = count;
          ids[count++] = cur;
        }
        label[p++] = cur;
        while (p < end && pass[p] > 0) {
          const open = pass[p - W] > 0;
          if (open && !above) {
            let r = label[p - W];
            while (ids[r] !== r) r = ids[r] = ids[ids[r]];
            if (r < cur) {
              ids[cur] = r;
              cur = r;
            } else if (r > cur) ids[r] = cur;
          }
          above = open;
          label[p++] = cur;
        }
      }
    }
    return count;
  }

  /** The row scan for any model: each cell joins the labels of its already scanned neighbours. */
  private scan(pass: Float32Array, ids: Int32Array, walls: Uint8Array | null): number {
    const label = this.label;
    const d = this.steps;
    const W = this.W;
    const corner = d.corner;
    const axis = d.parityAxis === 'x' ? 1 : d.parityAxis === 'y' ? 2 : 0;
    // The backward steps of each parity as flat tables, read in the loop below without indirection.
    const [delta0, delta1] = [0, 1].map((par) => Int32Array.from(d.back[par], (k) => d.delta[par][k]));
    const [sideA0, sideA1] = [0, 1].map((par) => Int32Array.from(d.back[par], (k) => (d.diagonal[par][k] === 1 ? d.sideA[par][k] : 0)));
    const [sideB0, sideB1] = [0, 1].map((par) => Int32Array.from(d.back[par], (k) => (d.diagonal[par][k] === 1 ? d.sideB[par][k] : 0)));
    const [mask0, mask1] = [0, 1].map((par) => Uint8Array.from(d.back[par], (k) => d.wallMask[par][k]));
    let count = 0;
    for (let y = 0; y < this.height; y++) {
      let p = padXY(W, 0, y);
      const oddRow = axis === 2 && (y & 1) === 1;
      for (let x = 0; x < this.width; x++, p++) {
        if (pass[p] <= 0) {
          label[p] = -1;
          continue;
        }
        const odd = oddRow || (axis === 1 && (x & 1) === 1);
        const delta = odd ? delta1 : delta0;
        const sideA = odd ? sideA1 : sideA0;
        const sideB = odd ? sideB1 : sideB0;
        const mask = odd ? mask1 : mask0;
        const wall = walls === null ? 0 : walls[p];
        let l = -1;
        let seen = -1;
        for (let j = 0; j < delta.length; j++) {
          const n = p + delta[j];
          if (pass[n] <= 0) continue;
          if (wall !== 0 && (wall & mask[j]) !== 0) continue;
          // Straight steps have side offsets 0: the cell itself, open.
          if (sideA[j] !== 0 && (pass[p + sideA[j]] > 0 ? 0 : 1) + (pass[p + sideB[j]] > 0 ? 0 : 1) > corner) continue;
          let r = label[n];
          // Most neighbours carry the id already in hand: skip their find.
          if (r === seen || r === l) continue;
          seen = r;
          while (ids[r] !== r) r = ids[r] = ids[ids[r]];
          if (l === -1) l = r;
          else if (r < l) {
            // Link the larger id under the smaller, so every id's parent is smaller than itself.
            ids[l] = r;
            l = r;
          } else if (r > l) ids[r] = l;
        }
        if (l === -1) {
          l = count;
          ids[count++] = l;
        }
        label[p] = l;
      }
    }
    return count;
  }

  /**
   * Relabels around changed rectangles. Every walkable cell within one cell of a rectangle starts a
   * breadth-first flood; floods that meet merge, and they advance in lockstep until at most one is
   * still growing. A flood that ran dry is a whole component and gets a fresh id; the one left
   * growing keeps (and joins) the old ids it touched, which also cover the cells it has not
   * reached: away from the rectangles the moves are as before. A change that splits nothing costs
   * a few steps; a split costs about twice the smaller side.
   */
  update(pass: Float32Array, rects: readonly CellRect[], vis: Stamps, owner: Int32Array, walls: Uint8Array | null = null): void {
    this.version++;
    const W = this.W;
    const label = this.label;
    const gen = vis.next();
    const seen = vis.stamp;
    // Group g: one flood. queues[g] lists the cells it visited; heads[g] its next to expand; gp[g]
    // its parent among groups (floods that met).
    const queues: number[][] = [];
    const heads: number[] = [];
    const gp: number[] = [];
    for (const r of rects) {
      const x0 = Math.max(0, r.x - 1);
      const y0 = Math.max(0, r.y - 1);
      const x1 = Math.min(this.width - 1, r.x + r.width);
      const y1 = Math.min(this.height - 1, r.y + r.height);
      for (let y = y0; y <= y1; y++) {
        for (let x = x0; x <= x1; x++) {
          const p = padXY(W, x, y);
          if (pass[p] <= 0) {
            label[p] = -1;
            continue;
          }
          if (seen[p] === gen) continue;
          const g = queues.length;
          queues.push([p]);
          heads.push(0);
          gp.push(g);
          seen[p] = gen;
          owner[p] = g;
        }
      }
    }
    const d = this.steps;
    const corner = d.corner;
    const axis = d.parityAxis === 'x' ? 1 : d.parityAxis === 'y' ? 2 : 0;
    const active = Int32Array.from(queues, (_, g) => g);
    let live = active.length;
    let visited = live;
    for (;;) {
      // Stop when at most one distinct flood is still growing.
      let root = -1;
      let several = false;
      for (let i = 0; i < live; i++) {
        const r = findGroup(gp, active[i]);
        if (root === -1) root = r;
        else if (r !== root) {
          several = true;
          break;
        }
      }
      if (!several) break;
      let kept = 0;
      for (let i = 0; i < live; i++) {
        const g = active[i];
        const q = queues[g];
        const c = q[heads[g]++];
        const par = axis === 0 ? 0 : (axis === 1 ? paddedX(W, c) : paddedY(W, c)) & 1;
        const delta = d.delta[par];
        const diagonal = d.diagonal[par];
        const wall = walls === null ? 0 : walls[c];
        for (let k = 0; k < d.count; k++) {
          const n = c + delta[k];
          if (pass[n] <= 0) continue;
          if (wall !== 0 && (wall & d.wallMask[par][k]) !== 0) continue;
          if (diagonal[k] === 1 && (pass[c + d.sideA[par][k]] > 0 ? 0 : 1) + (pass[c + d.sideB[par][k]] > 0 ? 0 : 1) > corner) continue;
          if (seen[n] !== gen) {
            seen[n] = gen;
            owner[n] = g;
            q.push(n);
            visited++;
          } else {
            const a = findGroup(gp, g);
            const b = findGroup(gp, owner[n]);
            if (a !== b) gp[Math.max(a, b)] = Math.min(a, b);
          }
        }
        if (heads[g] < q.length) active[kept++] = g;
      }
      live = kept;
    }
    this.lastUpdateVisited = visited;
    const growing = live > 0 ? findGroup(gp, active[0]) : -1;
    // Finished floods: whole components, fresh ids. The growing one: join the old ids it met.
    const fresh = new Map<number, number>();
    let keep = -1;
    if (growing >= 0) {
      for (let g = 0; g < queues.length; g++) {
        if (findGroup(gp, g) !== growing) continue;
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
      const r = findGroup(gp, g);
      let l: number;
      if (r === growing) l = keep;
      else {
        l = fresh.get(r) ?? -1;
        if (l === -1) fresh.set(r, (l = this.fresh()));
      }
      for (const p of queues[g]) label[p] = l;
    }
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
}

/** The root of `key` in a link joins' union-find (path halving); a key never joined is its own. */
function findKey(parent: Map<number, number>, key: number): number {
  for (;;) {
    const p = parent.get(key);
    if (p === undefined) return key;
    const pp = parent.get(p);
    if (pp === undefined) return p;
    parent.set(key, pp);
    key = pp;
  }
}

/** The lowest layer of a non-empty layer mask. */
function layerStart(mask: number): number {
  return 31 - Math.clz32(mask & -mask);
}

/** One past the highest layer of a non-empty layer mask. */
function layerEnd(mask: number): number {
  return 32 - Math.clz32(mask);
}

/** The root of flood group `g` (path halving). */
function findGroup(gp: number[], g: number): number {
  while (gp[g] !== g) {
    gp[g] = gp[gp[g]];
    g = gp[g];
  }
  return g;
}

/**
 * The model whose moves connect the same cells as `model`, which the labels then follow. Octile
 * and Chebyshev diagonals that need at least one open side cell (`octile`, `octile-one-obstacle`,
 * `chebyshev`, `chebyshev-one-obstacle`) join nothing the straight steps through that side cell do
 * not, and `iso` steps like `cardinal`: all six share the `cardinal` labels. `octile-always` and
 * `chebyshev-always` (the same moves, other lengths) share theirs; each hex and staggered layout
 * has its own.
 */
export function connectivity(model: MovementModel): MovementModel {
  const square = model.heuristic === 'manhattan' || model.heuristic === 'octile' || model.heuristic === 'chebyshev';
  if (!square) return model;
  return model.corner < 2 ? CARDINAL : OCTILE_ALWAYS;
}

const CARDINAL = movementModel('cardinal');
const OCTILE_ALWAYS = movementModel('octile-always');
/** Label sets per layer: one slot per movement name (slots of names that share labels stay empty). */
const GROUPS = MOVEMENT_NAMES.length;
const SLOT: ReadonlyMap<MovementName, number> = new Map(MOVEMENT_NAMES.map((name) => [name, MOVEMENT_NAMES.indexOf(connectivity(movementModel(name)).name)]));

/** Changes queued for labels not yet brought up to date; past these the next query relabels all. */
const MAX_PENDING = 64;

/**
 * The components links join, for one connectivity, across the layers of `mask`: a union-find over
 * keys `component * 8 + layer` (keys no link touches are absent: their own roots).
 */
interface Joins {
  mask: number;
  linksVersion: number;
  /** Each layer's labels' version when the joins were made. */
  versions: Int32Array;
  parent: Map<number, number>;
}

interface Entry {
  labels: ComponentLabels;
  /** Rectangles changed since the labels were last current. */
  pending: CellRect[];
  pendingArea: number;
  /** Too many changes queued: relabel everything at the next query. */
  stale: boolean;
}

/**
 * The component labels of one grid, per layer and connectivity, built on the first query that needs
 * them and shared by every Pathfinder of the grid. Grid changes are only queued (a rectangle per
 * change event); the next query on that layer applies them, with the asking Pathfinder's search
 * scratch as the floods' scratch, so the labels cost 4 bytes per cell per (layer, connectivity)
 * queried and nothing else.
 */
export class GridComponents implements Derived {
  readonly grid: NavGrid;
  private readonly entries: (Entry | undefined)[] = [];
  /** Link joins per connectivity slot. */
  private readonly joins: (Joins | undefined)[] = [];
  private readonly unsubscribe: () => void;

  constructor(grid: NavGrid) {
    this.grid = grid;
    this.unsubscribe = grid.onChange((c) => this.changed(c));
  }

  /** Marks every label set of `layer` for a full relabel at its next use. */
  invalidate(layer: number): void {
    for (let g = 0; g < GROUPS; g++) {
      const e = this.entries[layer * GROUPS + g];
      if (e !== undefined) e.stale = true;
    }
  }

  memory(out: MemoryEntry[]): void {
    this.entries.forEach((e, key) => {
      if (e !== undefined) out.push({ name: `component labels (${MOVEMENT_NAMES[key % GROUPS]})`, layer: Math.floor(key / GROUPS), bytes: e.labels.bytes });
    });
  }

  release(): void {
    this.unsubscribe();
    this.entries.length = 0;
    this.joins.length = 0;
  }

  /** Bytes held by every label set of this grid. */
  get bytes(): number {
    let b = 0;
    for (const e of this.entries) if (e !== undefined) b += e.labels.bytes;
    return b;
  }

  /**
   * The labels of `layer` under `model`, current with the grid: built on first use (O(cells)),
   * then brought up to date with the changes since the last call.
   * @param pass the layer's padded search costs (`grid.searchView(layer).pass`).
   * @param scratch a search scratch of the grid's padded size, used for the floods.
   */
  labels(layer: number, model: MovementModel, pass: Float32Array, scratch: SearchScratch): ComponentLabels {
    const key = layer * GROUPS + SLOT.get(model.name)!;
    // Edge walls come from the layer's own view (a caller's `pass` is that view's).
    const walls = this.wallsOf(layer);
    let e = this.entries[key];
    if (e === undefined) {
      const labels = new ComponentLabels(this.grid.width, this.grid.height, connectivity(model));
      labels.rebuild(pass, scratch.parent, walls);
      e = { labels, pending: [], pendingArea: 0, stale: false };
      this.entries[key] = e;
    } else if (e.stale) {
      e.labels.rebuild(pass, scratch.parent, walls);
      e.stale = false;
    } else if (e.pending.length > 0) {
      e.labels.apply(pass, e.pending, scratch, scratch.parent, walls);
      e.pending.length = 0;
      e.pendingArea = 0;
    }
    return e.labels;
  }

  /**
   * True when no path can lead from padded cell `start` to padded cell `goal` on `layer` under
   * `model`: they lie in different components. False when they may be connected, or when either
   * cell is blocked on the layer (a caller's overlay may differ; the search then decides).
   */
  separated(layer: number, model: MovementModel, pass: Float32Array, start: number, goal: number, scratch: SearchScratch, goalLayer = layer): boolean {
    const labels = this.labels(layer, model, pass, scratch);
    const a = labels.root(start);
    const index = this.grid.linksVersion === 0 ? null : this.grid.linkIndex();
    const mask = index === null ? 1 << layer : index.reach[layer];
    if (((mask >>> goalLayer) & 1) === 0) return a >= 0;
    const b = goalLayer === layer ? labels.root(goal) : this.labels(goalLayer, model, this.grid.searchView(goalLayer).pass, scratch).root(goal);
    if (a < 0 || b < 0) return false;
    // No link starts on a layer the start's leads to: the labels alone answer.
    if (index === null || index.start[layerEnd(mask)] === index.start[layerStart(mask)]) return a !== b;
    const joins = this.joinsOf(model, mask, scratch);
    return findKey(joins.parent, a * 8 + layer) !== findKey(joins.parent, b * 8 + goalLayer);
  }

  /**
   * The component of padded cell `p` on `layer` as links join them (see the file's comment): a
   * number equal for two cells that may be joined, on this layer or another one its links lead to;
   * -1 when the cell is blocked.
   */
  joinedComponent(layer: number, model: MovementModel, p: number, scratch: SearchScratch): number {
    const r = this.labels(layer, model, this.grid.searchView(layer).pass, scratch).root(p);
    if (r < 0 || this.grid.linksVersion === 0) return r;
    const index = this.grid.linkIndex();
    const mask = index.reach[layer];
    if (index.start[layerEnd(mask)] === index.start[layerStart(mask)]) return r;
    return findKey(this.joinsOf(model, mask, scratch).parent, r * 8 + layer);
  }

  /** The link joins over the layers of `mask`, remade when the links or those layers' labels changed. */
  private joinsOf(model: MovementModel, mask: number, scratch: SearchScratch): Joins {
    const grid = this.grid;
    const slot = SLOT.get(model.name)!;
    const L = grid.layers.length;
    let j = this.joins[slot];
    let current = j !== undefined && j.mask === mask && j.linksVersion === grid.linksVersion;
    const labels: (ComponentLabels | null)[] = [];
    for (let l = 0; l < L; l++) {
      if (((mask >>> l) & 1) === 0) {
        labels.push(null);
        continue;
      }
      const lab = this.labels(l, model, grid.searchView(l).pass, scratch);
      labels.push(lab);
      if (current && j!.versions[l] !== lab.version) current = false;
    }
    if (current) return j!;
    const index = grid.linkIndex();
    const parent = new Map<number, number>();
    for (let l = 0; l < L; l++) {
      const from = labels[l];
      if (from === null) continue;
      for (let e = index.start[l]; e < index.start[l + 1]; e++) {
        const to = labels[index.toLayer[e]];
        if (to === null) continue;
        const ra = from.root(index.fromCell[e]);
        const rb = to.root(index.toCell[e]);
        if (ra < 0 || rb < 0) continue;
        const x = findKey(parent, ra * 8 + l);
        const y = findKey(parent, rb * 8 + index.toLayer[e]);
        if (x !== y) parent.set(Math.max(x, y), Math.min(x, y));
      }
    }
    j = { mask, linksVersion: grid.linksVersion, versions: Int32Array.from(labels, (lab) => lab?.version ?? -1), parent };
    this.joins[slot] = j;
    return j;
  }

  private wallsOf(layer: number): Uint8Array | null {
    return this.grid.searchView(layer).walls;
  }

  private changed(c: GridChange): void {
    const size = this.grid.size;
    for (let g = 0; g < GROUPS; g++) {
      const e = this.entries[c.layer * GROUPS + g];
      if (e === undefined || e.stale) continue;
      e.pending.push({ x: c.x, y: c.y, width: c.width, height: c.height });
      e.pendingArea += c.width * c.height;
      if (e.pending.length > MAX_PENDING || (e.pendingArea > REBUILD_AREA && e.pendingArea * 8 > size)) {
        e.stale = true;
        e.pending.length = 0;
        e.pendingArea = 0;
      }
    }
  }
}

/** The component labels `grid` keeps (created on first use; see NavGrid.memory and releaseDerived). */
export function componentsOf(grid: NavGrid): GridComponents {
  return grid.derived('components', (g) => new GridComponents(g));
}
