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
 * Terrain names to ids (0..255, the id is what a grid stores per cell). Id 0 is the first entry,
 * `Ground` in the default table.
 */
export class TerrainTable {
  private readonly byName = new Map<string, number>();
  private readonly list: Terrain[] = [];

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
   */
  define(name: string, cost: number, walkable = true): number {
    if (typeof name !== 'string' || name === '') throw new TilenavError('terrain name must be a non-empty string', { element: 'terrain' });
    assertCost(cost, `terrain "${name}" cost`);
    const entry: Terrain = Object.freeze({ name, cost, walkable });
    const existing = this.byName.get(name);
    if (existing !== undefined) {
      this.list[existing] = entry;
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
}
