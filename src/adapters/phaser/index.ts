/**
 * tilenav/phaser: Phaser 3 (3.60+) and Phaser 4 tilemaps as navigation grids (edge walls,
 * collision objects and links read as the Tiled loader reads them), kept in step with the game's
 * tile changes, world <-> cell, debug drawing, sprites moved by navigation agents and
 * an optional scene plugin (`this.tilenav`, typed on Phaser.Scene). Phaser itself is not
 * imported: its objects are used through the structural types in ./types. Nothing here adds input
 * handlers or update hooks to a scene.
 *
 * @module tilenav/phaser
 */
export { tilemapToNavGrid, sync, watch, unwatch, propertyOf } from './convert.js';
export type { TilemapNavOptions } from './convert.js';
export { cellToWorld, worldToCell, drawDebug, colorNumber, AgentSprites, DEFAULT_DEBUG_DRAW_OPTIONS } from './view.js';
export type { DebugDrawOptions, AgentSpritesOptions } from './view.js';
export { TilenavPlugin, TILENAV_SCENE_PLUGIN } from './plugin.js';
export type { SceneNavigation } from './plugin.js';
export type { TilemapLike, LayerDataLike, TileLike, TilemapLayerLike, ObjectLayerLike, TiledObjectLike, PointLike, GraphicsLike, PositionedLike, PropertiesLike } from './types.js';
