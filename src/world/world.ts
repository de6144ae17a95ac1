import { TilenavError, assertOptionsObject, describe } from '../errors.js';
import type { CellRect, GridChange, NavGrid } from '../grid/navgrid.js';
import { forEachTouchedCell } from '../path/los.js';
import { shortcutCheck, shortcutPaths, type ShortcutOptions } from './shortcuts.js';

/** A named door: a rectangle of cells on one layer that blocks while closed. */
export interface Door {
  /** The door's name, unique in its World. */
  readonly name: string;
  /** The cells it covers. */
  readonly rect: Readonly<CellRect>;
  /** The layer it blocks, by index. */
  readonly layer: number;
  /** Whether it is open now; change it with `World.setDoor`, not here. */
  open: boolean;
}

/** A registered footprint (a building): a rectangle of cells that blocks while registered. */
export interface Footprint {
  /** The id it was registered under. */
  readonly id: string | number;
  /** The cells it covers. */
  readonly rect: Readonly<CellRect>;
  /** The layer it blocks, by index. */
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
 * inside one `batch`, so the grid emits one change event listing the changed rectangles and bumps
 * its version; reachability indexes and clearance maps listening to the grid follow.
 *
 * Writes by others to the grid (setWalkable, fillRect, setTerrain) are the new ground truth
 * underneath, also under a closed door or a footprint: a wall built in a closed doorway is still
 * there when the door opens. Direct writes to a layer's arrays followed by `grid.refresh()` are
 * read back from the grid, which under a blocker cannot tell a wall from the blocker: there a
 * cell reads blocked only where the grid still has it walkable.
 */
export class World {
  /** The grid the doors and footprints block cells of. */
  readonly grid: NavGrid;
  private readonly layers: (LayerState | null)[];
  private readonly doors = new Map<string, Door>();
  private readonly footprints = new Map<string | number, Footprint>();
  private dirty: { layer: number; rect: CellRect }[] = [];
  private applying = false;
  private readonly unsubscribe: () => void;
  private readonly unsubscribeWrites: () => void;

  /** An empty World on `grid`; it follows the grid's changes until `dispose()`. */
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
    // A write through the grid's setters says exactly what lies underneath, even under a closed
    // door or a footprint, where the cell reads blocked either way: a wall built in a closed
    // doorway stays when the door opens. A covered cell written walkable is blocked again at the
    // next flush (before the next search).
    this.unsubscribeWrites = grid.onWalkableWrite((layer, rect, walkable) => {
      if (this.applying) return;
      const st = this.layers[layer];
      if (st === null) return;
      let covered = false;
      for (let y = rect.y; y < rect.y + rect.height; y++) {
        for (let i = y * grid.width + rect.x, e = i + rect.width; i < e; i++) {
          st.base[i] = walkable ? 1 : 0;
          if (st.cover[i] > 0) covered = true;
        }
      }
      if (covered) this.queue(layer, rect);
    });
  }

  /** The grid's version: increases with every change event. */
  get version(): number {
    return this.grid.version;
  }

  /** Stops following the grid's changes. */
  dispose(): void {
    this.unsubscribe();
    this.unsubscribeWrites();
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
   * Applies the queued dirty rectangles to the grid: one batch, so one change event per layer,
   * listing the blocks of cells that changed (`rects`: three huts in three corners are three
   * rectangles, not the map between them; see GridChange). Cheap when nothing is queued; the grid
   * runs it before its next search.
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
    this.queue(layer, rect);
  }

  /** Queues `rect` on `layer` for the next {@link flush}, which the grid runs before its next search. */
  private queue(layer: number, rect: CellRect): void {
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
export type StoredPath =
  | {
      /** Cell indices (y * width + x), start first. */
      cells: ArrayLike<number>;
    }
  | {
      /** Waypoints [x0, y0, x1, y1, ...] in cell coordinates. */
      points: ArrayLike<number>;
    };

/**
 * Which stored paths a change touches, exactly: a cell path is affected when one of its cells
 * lies in a changed rectangle or a diagonal step's side cell does (the corner rule reads them); a
 * waypoint path when a segment touches a cell of one (the same supercover as the line-of-sight
 * test). `change` is one rectangle, a list of them, or a grid change event (its `rects`: a flush
 * that built three huts in three corners affects the paths near the huts, not every path
 * between them). `width` is the grid's width, to decode cell indices. Returns the indices into
 * `paths` of the affected ones, in order. A rectangle that is not whole cells (NaN, fractions,
 * width or height below 1) throws a TilenavError naming it.
 *
 * `options.shortcuts` (off by default) also returns the paths the change made much longer than
 * needed: a removed wall (a cheaper cell, a cleared one-way flag) that opens a route costing less
 * than a path's own cost divided by `shortcuts.factor`; see {@link shortcutPaths} for the test
 * and its bounds. Its `grid` must be `width` wide.
 */
export function pathsAffectedBy(change: CellRect | readonly CellRect[] | GridChange, paths: readonly StoredPath[], width: number, options: { shortcuts?: ShortcutOptions } = {}): number[] {
  const rects = checkRects(change);
  if (!Number.isInteger(width) || width < 1) throw new TilenavError(`expected the grid's width, a whole number >= 1, got ${describe(width)}`, { element: 'width' });
  if (!Array.isArray(paths)) throw new TilenavError(`expected an array of stored paths, got ${describe(paths)}`, { element: 'paths' });
  assertOptionsObject(options, 'options');
  const out: number[] = [];
  paths.forEach((path, k) => {
    for (const rect of rects) {
      if (pathTouches(rect, path, width)) {
        out.push(k);
        return;
      }
    }
  });
  const shortcuts = options?.shortcuts;
  if (shortcuts === undefined) return out;
  // Checked first, so that a bad factor is named before a grid of the wrong size.
  shortcutCheck(shortcuts);
  if (shortcuts.grid.width !== width) throw new TilenavError(`expected the grid the paths run on, ${width} cells wide, got one ${shortcuts.grid.width} wide`, { element: 'shortcuts.grid' });
  const opened = Array.isArray(change) || (change as GridChange).rects === undefined ? rects : (change as GridChange);
  const touched = new Set(out);
  const rest = paths.map((_, k) => k).filter((k) => !touched.has(k));
  for (const j of shortcutPaths(opened, rest.map((k) => paths[k]), shortcuts)) out.push(rest[j]);
  return out.sort((a, b) => a - b);
}

/** The rectangles of a pathsAffectedBy change, each checked to be whole cells. */
function checkRects(change: CellRect | readonly CellRect[] | GridChange): readonly CellRect[] {
  const list: readonly CellRect[] = Array.isArray(change) ? change : change !== null && typeof change === 'object' && Array.isArray((change as GridChange).rects) ? (change as GridChange).rects : [change as CellRect];
  list.forEach((r, k) => {
    const ok = r !== null && typeof r === 'object' && [r.x, r.y, r.width, r.height].every(Number.isInteger) && r.width >= 1 && r.height >= 1;
    if (!ok) throw new TilenavError(`expected a rectangle { x, y, width, height } of whole cells, width and height >= 1, got ${describe(r)}`, { element: list.length > 1 ? `rect ${k}` : 'rect' });
  });
  return list;
}

/** Whether one stored path touches a cell of `rect` (see pathsAffectedBy). */
function pathTouches(rect: CellRect, path: StoredPath, width: number): boolean {
  const x0 = rect.x;
  const y0 = rect.y;
  const x1 = rect.x + rect.width - 1;
  const y1 = rect.y + rect.height - 1;
  const inside = (x: number, y: number) => x >= x0 && x <= x1 && y >= y0 && y <= y1;
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
  return hit;
}
