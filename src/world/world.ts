import { TilenavError, describe } from '../errors.js';
import type { CellRect, NavGrid } from '../grid/navgrid.js';
import { forEachTouchedCell } from '../path/los.js';

/** A named door: a rectangle of cells on one layer that blocks while closed. */
export interface Door {
  readonly name: string;
  readonly rect: Readonly<CellRect>;
  readonly layer: number;
  open: boolean;
}

/** A registered footprint (a building): a rectangle of cells that blocks while registered. */
export interface Footprint {
  readonly id: string | number;
  readonly rect: Readonly<CellRect>;
  readonly layer: number;
}

interface LayerState {
  /** Walkability underneath every blocker, as the grid had it or as others set it since. */
  base: Uint8Array;
  /** How many blockers (closed doors, footprints) cover each cell. */
  cover: Uint16Array;
}

/**
 * Runtime changes on top of a NavGrid: doors that open and close, and a
 * registry of building footprints (register / move / remove by id). Blockers are counted per
 * cell, so overlapping doors and buildings undo cleanly: a cell is walkable when the grid had it
 * walkable underneath and no blocker covers it.
 *
 * Doors apply at once. Footprint changes are queued as dirty rectangles and applied lazily: the
 * next search of the grid runs {@link flush} first (through `grid.defer`), or call it yourself (before the next
 * search), so a burst of placements costs one update. Applying goes through the grid's setters
 * inside one `batch`, so the grid emits one change event with the changed rectangle and bumps its
 * version; reachability indexes and clearance maps listening to the grid follow.
 *
 * Writes by others to the grid (setWalkable, fillRect) are seen as the new ground truth underneath.
 */
export class World {
  readonly grid: NavGrid;
  private readonly layers: (LayerState | null)[];
  private readonly doors = new Map<string, Door>();
  private readonly footprints = new Map<string | number, Footprint>();
  private dirty: { layer: number; rect: CellRect }[] = [];
  private applying = false;
  private readonly unsubscribe: () => void;

  constructor(grid: NavGrid) {
    this.grid = grid;
    this.layers = grid.layers.map(() => null);
    this.unsubscribe = grid.onChange((c) => {
      if (this.applying) return;
      const st = this.layers[c.layer];
      if (st === null) return;
      const walk = grid.layers[c.layer].walkable;
      for (let y = c.y; y < c.y + c.height; y++) {
        for (let i = y * grid.width + c.x, e = i + c.width; i < e; i++) if (st.cover[i] === 0 || walk[i] === 1) st.base[i] = walk[i];
      }
    });
  }

  /** The grid's version: increases with every change event. */
  get version(): number {
    return this.grid.version;
  }

  /** Stops following the grid's changes. */
  dispose(): void {
    this.unsubscribe();
  }

  // ---- doors -------------------------------------------------------------------------------

  /** Adds a door over `rect` on `layer`, open or closed (applied at once). Names are unique. */
  addDoor(name: string, rect: CellRect, options: { layer?: number | string; open?: boolean } = {}): Door {
    if (typeof name !== 'string' || name === '') throw new TilenavError(`expected a non-empty door name, got ${describe(name)}`, { element: 'door' });
    if (this.doors.has(name)) throw new TilenavError(`a door named ${JSON.stringify(name)} exists already`, { element: 'door' });
    const layer = this.grid.layerIndex(options.layer ?? 0);
    const door: Door = { name, rect: this.checkRect(rect, `door ${JSON.stringify(name)}`), layer, open: true };
    this.doors.set(name, door);
    if (options.open === false) this.setDoor(name, false);
    return door;
  }

  /** Opens or closes a door (applied at once, with any queued footprint changes). */
  setDoor(name: string, open: boolean): void {
    const door = this.doors.get(name);
    if (door === undefined) throw new TilenavError(`no door named ${JSON.stringify(name)}; known: ${[...this.doors.keys()].join(', ') || 'none'}`, { element: 'door' });
    if (typeof open !== 'boolean') throw new TilenavError(`expected true or false, got ${describe(open)}`, { element: 'open' });
    if (door.open === open) return;
    door.open = open;
    this.cover(door.layer, door.rect, open ? -1 : 1);
    this.flush();
  }

  /** The door of that name, or undefined. */
  door(name: string): Door | undefined {
    return this.doors.get(name);
  }

  // ---- footprints --------------------------------------------------------------------------

  /** Registers a footprint that blocks `rect`; queued until the next {@link flush}. */
  register(id: string | number, rect: CellRect, options: { layer?: number | string } = {}): Footprint {
    if (this.footprints.has(id)) throw new TilenavError(`footprint ${describe(id)} is registered already; move() or remove() it`, { element: 'footprint' });
    const layer = this.grid.layerIndex(options.layer ?? 0);
    const f: Footprint = { id, rect: this.checkRect(rect, `footprint ${describe(id)}`), layer };
    this.footprints.set(id, f);
    this.cover(layer, f.rect, 1);
    return f;
  }

  /** Moves a footprint so its top-left cell is (x, y), same size; queued. */
  move(id: string | number, x: number, y: number): Footprint {
    const f = this.get(id);
    const rect = this.checkRect({ x, y, width: f.rect.width, height: f.rect.height }, `footprint ${describe(id)}`);
    this.cover(f.layer, f.rect, -1);
    const moved: Footprint = { id, rect, layer: f.layer };
    this.footprints.set(id, moved);
    this.cover(f.layer, rect, 1);
    return moved;
  }

  /** Removes a footprint; its cells reopen (unless something else covers them) at the next flush. */
  remove(id: string | number): void {
    const f = this.get(id);
    this.footprints.delete(id);
    this.cover(f.layer, f.rect, -1);
  }

  /** Registered footprints. */
  footprintList(): Footprint[] {
    return [...this.footprints.values()];
  }

  /** True when changes wait for {@link flush}. */
  get pending(): boolean {
    return this.dirty.length > 0;
  }

  /**
   * Applies the queued dirty rectangles to the grid: one batch, so one change event per layer
   * (with the bounding rectangle). Cheap when nothing is queued; call before each search.
   */
  flush(): void {
    if (this.dirty.length === 0) return;
    const dirty = this.dirty;
    this.dirty = [];
    const grid = this.grid;
    this.applying = true;
    try {
      grid.batch(() => {
        for (const { layer, rect } of dirty) {
          const st = this.state(layer);
          const walk = grid.layers[layer].walkable;
          for (let y = rect.y; y < rect.y + rect.height; y++) {
            for (let x = rect.x; x < rect.x + rect.width; x++) {
              const i = y * grid.width + x;
              const want = st.cover[i] === 0 ? st.base[i] : 0;
              if (walk[i] !== want) grid.setWalkable(x, y, want === 1, layer);
            }
          }
        }
      });
    } finally {
      this.applying = false;
    }
  }

  private get(id: string | number): Footprint {
    const f = this.footprints.get(id);
    if (f === undefined) throw new TilenavError(`no footprint ${describe(id)} is registered`, { element: 'footprint' });
    return f;
  }

  private state(layer: number): LayerState {
    let st = this.layers[layer];
    if (st === null) {
      st = { base: this.grid.layers[layer].walkable.slice(), cover: new Uint16Array(this.grid.size) };
      this.layers[layer] = st;
    }
    return st;
  }

  private cover(layer: number, rect: CellRect, delta: 1 | -1): void {
    const st = this.state(layer);
    const w = this.grid.width;
    for (let y = rect.y; y < rect.y + rect.height; y++) {
      for (let i = y * w + rect.x, e = i + rect.width; i < e; i++) st.cover[i] += delta;
    }
    this.dirty.push({ layer, rect });
    this.grid.defer(this.flushBeforeSearch);
  }

  /** `flush`, bound once so the grid's deferred set holds it only once. */
  private readonly flushBeforeSearch = (): void => this.flush();

  private checkRect(rect: CellRect, what: string): CellRect {
    const g = this.grid;
    const ok = rect !== null && typeof rect === 'object' && [rect.x, rect.y, rect.width, rect.height].every(Number.isInteger) && rect.width >= 1 && rect.height >= 1;
    if (!ok || !g.inBounds(rect.x, rect.y) || !g.inBounds(rect.x + rect.width - 1, rect.y + rect.height - 1)) {
      throw new TilenavError(`expected a rectangle { x, y, width, height } of whole cells inside the ${g.width} x ${g.height} grid`, { element: what });
    }
    return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
  }
}

/** A stored path: grid cells (indices, e.g. a search's `cells`) or waypoints [x0, y0, ...] in cell coordinates. */
export type StoredPath = { cells: ArrayLike<number> } | { points: ArrayLike<number> };

/**
 * Which stored paths a change of `rect` touches, exactly (not a "within N tiles" guess):
 * a cell path is affected when one of its cells lies in the rectangle or a diagonal step's side
 * cell does (the corner rule reads them); a waypoint path when a segment touches a cell of the
 * rectangle (the same supercover as the line-of-sight test). `width` is the grid's width, to
 * decode cell indices. Returns the indices into `paths` of the affected ones, in order.
 */
export function pathsAffectedBy(rect: CellRect, paths: readonly StoredPath[], width: number): number[] {
  const x0 = rect.x;
  const y0 = rect.y;
  const x1 = rect.x + rect.width - 1;
  const y1 = rect.y + rect.height - 1;
  const inside = (x: number, y: number) => x >= x0 && x <= x1 && y >= y0 && y <= y1;
  const out: number[] = [];
  paths.forEach((path, k) => {
    let hit = false;
    if ('cells' in path) {
      const cells = path.cells;
      let px = 0;
      let py = 0;
      for (let j = 0; j < cells.length && !hit; j++) {
        const x = cells[j] % width;
        const y = (cells[j] - x) / width;
        hit = inside(x, y) || (j > 0 && x !== px && y !== py && (inside(x, py) || inside(px, y)));
        px = x;
        py = y;
      }
    } else {
      const pts = path.points;
      if (pts.length === 2) hit = inside(Math.round(pts[0]), Math.round(pts[1]));
      for (let j = 2; j + 1 < pts.length && !hit; j += 2) {
        // Skip segments whose bounding box misses the rectangle.
        if (Math.max(pts[j - 2], pts[j]) + 0.5 < x0 || Math.min(pts[j - 2], pts[j]) - 0.5 > x1) continue;
        if (Math.max(pts[j - 1], pts[j + 1]) + 0.5 < y0 || Math.min(pts[j - 1], pts[j + 1]) - 0.5 > y1) continue;
        forEachTouchedCell(pts[j - 2], pts[j - 1], pts[j], pts[j + 1], (x, y) => {
          if (inside(x, y)) hit = true;
        });
      }
    }
    if (hit) out.push(k);
  });
  return out;
}
