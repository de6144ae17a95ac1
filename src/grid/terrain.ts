import { TilenavError, assertCost } from '../errors.js';

/** One terrain type: how expensive it is to enter, or that it cannot be entered at all. */
export interface Terrain {
  /** The terrain's name, unique in its table (e.g. 'Mud'). */
  readonly name: string;
  /** Traversal cost multiplier (finite, > 0). Ignored when `walkable` is false. */
  readonly cost: number;
  /** False for terrain nothing walks on (lava, deep water for a ground layer). */
  readonly walkable: boolean;
}

/**
 * The default terrain costs. Lava is impassable outright rather than given a huge cost such as
 * 999: a large cost is still a cost, and A* would walk through it.
 */
export const DEFAULT_TERRAINS: readonly Terrain[] = Object.freeze([
  { name: 'Ground', cost: 1.0, walkable: true },
  { name: 'Grass', cost: 1.0, walkable: true },
  { name: 'Sand', cost: 1.2, walkable: true },
  { name: 'Mud', cost: 1.5, walkable: true },
  { name: 'Water', cost: 2.0, walkable: true },
  { name: 'Ice', cost: 0.8, walkable: true },
  { name: 'Snow', cost: 1.3, walkable: true },
  { name: 'Rock', cost: 1.1, walkable: true },
  { name: 'Lava', cost: 1.0, walkable: false },
]);

/**
 * What follows a table's terrains: each grid made with the table (held weakly, so a table shared
 * by many levels keeps none of them alive). @internal
 */
export interface TerrainFollower {
  /** Terrain `id` changed cost from `was` to the table's current entry. */
  costChanged(id: number, was: Terrain): void;
  /** Whether any cell, on any layer, holds terrain `id`. */
  holds(id: number): boolean;
}

/**
 * Terrain names to ids (0..255, the id is what a grid stores per cell). Id 0 is the first entry,
 * `Ground` in the default table.
 *
 * Grids follow their table: cells keep their terrain id, and redefining a terrain's cost
 * ({@link define} of an existing name) re-derives the cost of every cell that holds that terrain
 * and still has its old cost, on every layer of every grid made with the table, with a change
 * event, so searches stay exact. A cell whose cost was set on its own (`setCost`, a Tiled
 * `slowMultiplier`) keeps it. A terrain's walkability cannot change while cells hold it (define
 * says so): repaint them, or define a new terrain.
 */
export class TerrainTable {
  private readonly byName = new Map<string, number>();
  private readonly list: Terrain[] = [];
  private readonly followers = new Set<WeakRef<TerrainFollower>>();
  /** Followers added since the dead ones were last dropped. */
  private added = 0;

  /**
   * A table of `terrains`; throws a TilenavError on a malformed entry, a cost a float32 cannot
   * hold, or more than 256 entries.
   * @param terrains entries in id order; defaults to {@link DEFAULT_TERRAINS}.
   */
  constructor(terrains: readonly Terrain[] = DEFAULT_TERRAINS) {
    if (!Array.isArray(terrains)) throw new TilenavError('expected an array of { name, cost, walkable }', { element: 'terrains' });
    for (const t of terrains) {
      if (t === null || typeof t !== 'object') throw new TilenavError('expected { name, cost, walkable }', { element: 'terrains' });
      this.define(t.name, t.cost, t.walkable);
    }
  }

  /**
   * Adds a terrain or overrides an existing one's cost; returns its id. `cost` must fit a float32
   * as given: 2^-126 (about 1.18e-38) to about 3.4e38, else a TilenavError naming the terrain.
   *
   * A new cost for an existing terrain reaches the grids made with this table: cells holding the
   * terrain at its old cost take the new one, with a change event per layer. A new walkability for
   * an existing terrain is refused (a TilenavError naming it) while a grid's cells hold it.
   */
  define(name: string, cost: number, walkable = true): number {
    if (typeof name !== 'string' || name === '') throw new TilenavError('terrain name must be a non-empty string', { element: 'terrain' });
    assertCost(cost, `terrain "${name}" cost`);
    if (typeof walkable !== 'boolean') throw new TilenavError(`expected true or false, got ${String(walkable)}`, { element: `terrain "${name}" walkable` });
    const entry: Terrain = Object.freeze({ name, cost, walkable });
    const existing = this.byName.get(name);
    if (existing !== undefined) {
      const was = this.list[existing];
      const live = this.live();
      if (was.walkable !== walkable && live.some((f) => f.holds(existing))) {
        throw new TilenavError(`cells of a grid using this table hold this terrain, so it cannot become ${walkable ? 'walkable' : 'impassable'} under them; repaint them (setTerrain, fillRect) with another terrain, or define a new one`, { element: `terrain "${name}"` });
      }
      this.list[existing] = entry;
      if (was.cost !== cost) for (const f of live) f.costChanged(existing, was);
      return existing;
    }
    if (this.list.length >= 256) throw new TilenavError('a terrain table holds at most 256 terrains', { element: `terrain "${name}"` });
    this.list.push(entry);
    this.byName.set(name, this.list.length - 1);
    return this.list.length - 1;
  }

  /** The id of a terrain by name; throws a TilenavError listing the known names. */
  id(name: string): number {
    const id = this.byName.get(name);
    if (id === undefined) {
      throw new TilenavError(`unknown terrain; known: ${[...this.byName.keys()].join(', ')}`, { element: `terrain ${JSON.stringify(name)}` });
    }
    return id;
  }

  /** Whether a terrain of that name is defined. */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The terrain with id `id`; throws a TilenavError when there is none. */
  get(id: number): Terrain {
    const t = this.list[id];
    if (t === undefined) throw new TilenavError(`no terrain with id ${id}`, { element: 'terrain' });
    return t;
  }

  /** Number of terrains defined (ids are 0..size-1). */
  get size(): number {
    return this.list.length;
  }

  /** Every terrain, in id order (the table's own array: do not change it). */
  entries(): readonly Terrain[] {
    return this.list;
  }

  /** Called by each grid made with this table, to follow its redefinitions (see the class comment). @internal */
  follow(follower: TerrainFollower): void {
    this.followers.add(new WeakRef(follower));
    // Tables shared by many short-lived grids drop the collected ones now and then.
    if (++this.added >= 64 && this.added >= this.followers.size) {
      this.live();
      this.added = 0;
    }
  }

  /** The followers still alive; the collected ones are dropped. */
  private live(): TerrainFollower[] {
    const out: TerrainFollower[] = [];
    for (const ref of this.followers) {
      const f = ref.deref();
      if (f === undefined) this.followers.delete(ref);
      else out.push(f);
    }
    return out;
  }
}
