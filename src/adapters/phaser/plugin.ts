/** The optional scene plugin: `this.tilenav` in a scene, as phaser-navmesh offers `this.navMeshPlugin`. */
import { Pathfinder } from '../../index.js';
import type { NavGrid, MovementName } from '../../index.js';
import { NavigationSystem, type NavigationSystemOptions } from '../../agents/index.js';
import { tilemapToNavGrid, sync, watch, unwatch, type TilemapNavOptions } from './convert.js';
import { AgentSprites, type AgentSpritesOptions } from './view.js';
import type { TilemapLike } from './types.js';

/** A tilemap's navigation as the plugin hands it out. */
export interface SceneNavigation {
  /** The tilemap the grid was made from. */
  tilemap: TilemapLike;
  /** The tilemap's navigation grid: one cell per tile. */
  grid: NavGrid;
  /** The movement model matching the map's orientation. */
  movement: MovementName;
  /** A Pathfinder on `grid`, for paths between cells. */
  pathfinder: Pathfinder;
  /** Re-reads the tilemap (all of it, or a rectangle of cells). */
  sync(rect?: { x: number; y: number; width: number; height: number }): void;
  /** A NavigationSystem on this grid with the map's movement model, and sprites bound to its agents. */
  agents(options?: NavigationSystemOptions & AgentSpritesOptions): AgentSprites;
}

/** The scene's event emitter, as far as the plugin uses it. */
interface SceneSystemsLike {
  events?: { once(event: string, fn: () => void, context?: unknown): unknown };
}

/**
 * A Phaser scene plugin. Install it in the game config:
 * `plugins: { scene: [{ key: 'tilenav', plugin: TilenavPlugin, mapping: 'tilenav' }] }`, then in a
 * scene `const nav = this.tilenav.fromTilemap(map)`. It keeps nothing Phaser-specific beyond the
 * scene's destroy event, which unwatches every tilemap it watched.
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

  /** Called by Phaser once installed: forget every watch when the scene is destroyed. */
  boot(): void {
    const sys = (this.scene as { sys?: SceneSystemsLike } | null)?.sys;
    sys?.events?.once('destroy', () => this.destroy());
  }

  /**
   * Converts a tilemap ({@link tilemapToNavGrid}) and, unless `watch` is false, keeps the grid in
   * step with putTileAt / removeTileAt / setCollision* ({@link watch}).
   */
  fromTilemap(tilemap: TilemapLike, options: TilemapNavOptions & { watch?: boolean } = {}): SceneNavigation {
    const { grid, movement } = tilemapToNavGrid(tilemap, options);
    if (options.watch ?? true) watch(tilemap, grid);
    const pathfinder = new Pathfinder(grid);
    const nav: SceneNavigation = {
      tilemap,
      grid,
      movement,
      pathfinder,
      sync: (rect) => sync(tilemap, grid, rect),
      agents: (o = {}) => new AgentSprites(new NavigationSystem(grid, { movement, ...o }), o),
    };
    this.made.push(nav);
    return nav;
  }

  /** Unwatches every tilemap this plugin converted. */
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
