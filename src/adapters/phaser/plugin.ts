/**
 * The optional scene plugin: `this.tilenav` in a scene, typed for TypeScript scenes by the
 * `Phaser.Scene` augmentation below.
 */
import { Pathfinder, TilenavError } from '../../index.js';
import type { NavGrid, FindPathOptions, PathResult } from '../../index.js';
import { NavigationSystem, type NavigationSystemOptions } from '../../agents/index.js';
import { tilemapToNavGrid, sync, watch, unwatch, type TilemapNavOptions } from './convert.js';
import { AgentSprites, type AgentSpritesOptions } from './view.js';
import type { TilemapLike } from './types.js';

declare global {
  // Phaser's typings declare the global namespace Phaser; this interface merges into its Scene
  // class, so `this.tilenav` typechecks in a scene once tilenav/phaser is imported. Without
  // Phaser's typings it declares an unused type and nothing else.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Phaser {
    interface Scene {
      /**
       * tilenav's scene plugin. Present at run time when the game config installs it under the
       * mapping `tilenav`: `plugins: { scene: [TILENAV_SCENE_PLUGIN] }`.
       */
      tilenav: TilenavPlugin;
    }
  }
}

/** A tilemap's navigation as the plugin hands it out. */
export interface SceneNavigation {
  /** The tilemap the grid was made from. */
  tilemap: TilemapLike;
  /** The grid, carrying the map's movement model as `grid.movement`. */
  grid: NavGrid;
  /** The Pathfinder `findPath` uses (its search scratch is reused between calls). */
  pathfinder: Pathfinder;
  /**
   * A path from cell (sx, sy) to cell (gx, gy) with `grid.movement` unless `options.movement`
   * says otherwise: `pathfinder.findPath`.
   */
  findPath(sx: number, sy: number, gx: number, gy: number, options?: FindPathOptions): PathResult;
  /** Re-reads the tilemap (all of it, or a rectangle of cells). */
  sync(rect?: { x: number; y: number; width: number; height: number }): void;
  /** A NavigationSystem on this grid (movement `grid.movement` unless given), and sprites bound to its agents. */
  agents(options?: NavigationSystemOptions & AgentSpritesOptions): AgentSprites;
}

/** The scene's event emitter, as far as the plugin uses it. */
interface SceneSystemsLike {
  events?: {
    once(event: string, fn: () => void, context?: unknown): unknown;
    on?(event: string, fn: () => void, context?: unknown): unknown;
  };
}

/**
 * A Phaser scene plugin. Install it in the game config:
 * `plugins: { scene: [TILENAV_SCENE_PLUGIN] }` (key and mapping `tilenav`), then in a scene
 * `const nav = this.tilenav.fromTilemap(map)` and `this.tilenav.findPath(sx, sy, gx, gy)`.
 *
 * It listens to nothing but the scene's shutdown and destroy events, which unwatch every tilemap it
 * watched: no input handlers, no update hook. Clicks and the update loop stay in your scene.
 */
export class TilenavPlugin {
  /** The key and mapping the plugin is usually installed under. */
  static readonly key = 'tilenav';
  /** The scene the plugin belongs to. */
  readonly scene: unknown;
  /** Phaser's plugin manager, as Phaser passed it. */
  readonly pluginManager: unknown;
  /** The key the plugin was installed under. */
  readonly pluginKey: string;
  private readonly made: SceneNavigation[] = [];

  /** Called by Phaser when it installs the plugin in a scene; games do not call it. */
  constructor(scene: unknown, pluginManager?: unknown, pluginKey = TilenavPlugin.key) {
    this.scene = scene;
    this.pluginManager = pluginManager;
    this.pluginKey = pluginKey;
  }

  /** Called by Phaser once installed: forget every watch when the scene shuts down or is destroyed. */
  boot(): void {
    const events = (this.scene as { sys?: SceneSystemsLike } | null)?.sys?.events;
    // A stopped or restarted scene drops its tilemaps; its next create() converts them again.
    events?.on?.('shutdown', () => this.destroy());
    events?.once('destroy', () => this.destroy());
  }

  /**
   * Converts a tilemap ({@link tilemapToNavGrid}: the grid carries the map's movement model) and,
   * unless `watch` is false, keeps the grid in step with putTileAt / removeTileAt / setCollision*
   * ({@link watch}). The result becomes the plugin's {@link navigation}.
   */
  fromTilemap(tilemap: TilemapLike, options: TilemapNavOptions & { watch?: boolean } = {}): SceneNavigation {
    const grid = tilemapToNavGrid(tilemap, options);
    if (options.watch ?? true) watch(tilemap, grid);
    const pathfinder = new Pathfinder(grid);
    const nav: SceneNavigation = {
      tilemap,
      grid,
      pathfinder,
      findPath: (sx, sy, gx, gy, o = {}) => pathfinder.findPath(sx, sy, gx, gy, { ...o, movement: o.movement ?? grid.movement }),
      sync: (rect) => sync(tilemap, grid, rect),
      agents: (o = {}) => new AgentSprites(new NavigationSystem(grid, { ...o, movement: o.movement ?? grid.movement }), o),
    };
    this.made.push(nav);
    return nav;
  }

  /**
   * The navigation of the tilemap converted last by {@link fromTilemap}.
   * @throws TilenavError before any tilemap was converted (or after the scene shut down).
   */
  get navigation(): SceneNavigation {
    const nav = this.made[this.made.length - 1];
    if (nav === undefined) throw new TilenavError('no tilemap converted yet: call this.tilenav.fromTilemap(map) in create() first', { element: 'tilenav' });
    return nav;
  }

  /**
   * A path on the tilemap converted last ({@link navigation}), from cell (sx, sy) to cell (gx, gy),
   * with the map's movement model unless `options.movement` says otherwise. With several tilemaps,
   * call `findPath` on the navigation each `fromTilemap` returned.
   * @throws TilenavError before any tilemap was converted, and for what `Pathfinder.findPath` refuses.
   */
  findPath(sx: number, sy: number, gx: number, gy: number, options?: FindPathOptions): PathResult {
    return this.navigation.findPath(sx, sy, gx, gy, options);
  }

  /** Unwatches every tilemap this plugin converted and forgets them. */
  destroy(): void {
    for (const nav of this.made) unwatch(nav.grid);
    this.made.length = 0;
  }
}

/** The entry for a game config's `plugins.scene` list. */
export const TILENAV_SCENE_PLUGIN = Object.freeze({
  /** The plugin's key: 'tilenav'. */
  key: TilenavPlugin.key,
  /** The plugin class. */
  plugin: TilenavPlugin,
  /** The scene property it appears as: `this.tilenav`. */
  mapping: TilenavPlugin.key,
});
