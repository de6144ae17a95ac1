/**
 * The parts of Phaser's tilemap, graphics and sprite objects the adapter uses, as structural
 * types: Phaser 3.60+ and Phaser 4 objects both fit, and the library typechecks without Phaser.
 */

/** A Tiled property list as Phaser keeps it (`[{ name, type, value }]`) or a plain object. */
export type PropertiesLike = readonly { name: string; value: unknown; type?: string }[] | Readonly<Record<string, unknown>> | null | undefined;

/** Phaser.Tilemaps.Tile: its index (-1 or null cell: empty), collision flag and properties. */
export interface TileLike {
  index: number;
  x: number;
  y: number;
  /** True once Phaser's `setCollision*` marked the tile colliding on any face. */
  readonly collides: boolean;
  /** The tile's own properties (Phaser copies Tiled's per-tile properties here or leaves {}). */
  properties?: unknown;
  /** The tileset the index belongs to; its `getTileProperties(index)` gives Tiled's tile properties. */
  readonly tileset?: { getTileProperties?(index: number): unknown } | null;
}

/** Phaser.Tilemaps.LayerData. */
export interface LayerDataLike {
  name: string;
  width: number;
  height: number;
  data: (TileLike | null)[][];
  properties?: PropertiesLike | unknown;
  /** The game object drawing this layer, when the game created one. */
  tilemapLayer?: TilemapLayerLike | null;
}

/** Phaser.Tilemaps.TilemapLayer: where the layer is drawn, and the methods that change tiles. */
export interface TilemapLayerLike {
  x: number;
  y: number;
  scaleX: number;
  scaleY: number;
  layer: LayerDataLike;
}

/** Phaser.Tilemaps.Tilemap. `orientation` is Phaser's number (0 orthogonal .. 3 hexagonal) or Tiled's name. */
export interface TilemapLike {
  width: number;
  height: number;
  tileWidth: number;
  tileHeight: number;
  orientation: number | string;
  layers: LayerDataLike[];
  hexSideLength?: number;
  staggerAxis?: string;
  staggerIndex?: string;
  properties?: PropertiesLike | unknown;
}

/** Phaser.GameObjects.Graphics: the drawing calls the debug view makes. */
export interface GraphicsLike {
  clear(): unknown;
  fillStyle(color: number, alpha?: number): unknown;
  lineStyle(width: number, color: number, alpha?: number): unknown;
  beginPath(): unknown;
  moveTo(x: number, y: number): unknown;
  lineTo(x: number, y: number): unknown;
  closePath(): unknown;
  fillPath(): unknown;
  strokePath(): unknown;
  fillCircle(x: number, y: number, radius: number): unknown;
}

/** Anything with a position, e.g. a Phaser sprite or image. `rotation` is set when asked to turn it. */
export interface PositionedLike {
  x: number;
  y: number;
  rotation?: number;
}
