/**
 * The parts of Phaser's tilemap, graphics and sprite objects the adapter uses, as structural
 * types: Phaser 3.60+ and Phaser 4 objects both fit, and the library typechecks without Phaser.
 */

/** A Tiled property list as Phaser keeps it (`[{ name, type, value }]`) or a plain object. */
export type PropertiesLike =
  | readonly {
      /** The property's name. */
      name: string;
      /** Its value. */
      value: unknown;
      /** Tiled's type name ('bool', 'int', 'string', ...), when kept. */
      type?: string;
    }[]
  | Readonly<Record<string, unknown>>
  | null
  | undefined;

/** Phaser.Tilemaps.Tile: its index (-1 or null cell: empty), collision flag and properties. */
export interface TileLike {
  /** The tile's global id in the map's tilesets; -1 for an empty cell. */
  index: number;
  /** Column of the tile in its layer, in tiles. */
  x: number;
  /** Row of the tile in its layer, in tiles. */
  y: number;
  /** True once Phaser's `setCollision*` marked the tile colliding on any face. */
  readonly collides: boolean;
  /** The tile's own properties (Phaser copies Tiled's per-tile properties here or leaves {}). */
  properties?: unknown;
  /** Drawn mirrored left to right (Phaser's reading of Tiled's flip bits, with `rotation`). */
  flipX?: boolean;
  /** Drawn mirrored top to bottom. */
  flipY?: boolean;
  /** Clockwise turn in radians, after the flips; edge walls on the tile's sides turn with it in quarter turns. */
  rotation?: number;
  /** The tileset the index belongs to; its `getTileProperties(index)` gives Tiled's tile properties. */
  readonly tileset?: {
    /** Tiled's properties of the tile with global id `index`, or undefined / null when it has none. */
    getTileProperties?(index: number): unknown;
  } | null;
}

/** Phaser.Tilemaps.LayerData. */
export interface LayerDataLike {
  /** The layer's name in Tiled. */
  name: string;
  /** Width in tiles. */
  width: number;
  /** Height in tiles. */
  height: number;
  /** The tiles by row then column (`data[y][x]`); null for an empty cell. */
  data: (TileLike | null)[][];
  /** The layer's Tiled properties. */
  properties?: PropertiesLike | unknown;
  /** The game object drawing this layer, when the game created one. */
  tilemapLayer?: TilemapLayerLike | null;
}

/** Phaser.Tilemaps.TilemapLayer: where the layer is drawn, and the methods that change tiles. */
export interface TilemapLayerLike {
  /** World x of the layer's origin, in pixels. */
  x: number;
  /** World y of the layer's origin, in pixels. */
  y: number;
  /** Horizontal scale the layer is drawn at (1: tile pixels are world pixels). */
  scaleX: number;
  /** Vertical scale the layer is drawn at. */
  scaleY: number;
  /** The layer's tile data. */
  layer: LayerDataLike;
}

/** A point of a Tiled polyline or polygon, relative to its object's x, y. */
export interface PointLike {
  /** Pixels right of the object's x. */
  x: number;
  /** Pixels below the object's y. */
  y: number;
}

/**
 * One object of a Phaser object layer (Phaser.Types.Tilemaps.TiledObject): Tiled's object as
 * Phaser's parser keeps it, with x and y moved by its layer's (and groups') offsets, and a tile
 * object's gid without its flip bits, which are in the three `flipped*` flags.
 */
export interface TiledObjectLike {
  /** Tiled's object id, unique in the map (links name their other end by it). */
  id: number;
  /** The object's name. */
  name: string;
  /** Its type or class. */
  type: string;
  /** Shown in Tiled. @default true */
  visible?: boolean;
  /** Position x in map pixels. */
  x?: number;
  /** Position y in map pixels. */
  y?: number;
  /** Width in pixels. */
  width?: number;
  /** Height in pixels. */
  height?: number;
  /** Degrees clockwise about (x, y). */
  rotation?: number;
  /** Its Tiled properties. */
  properties?: unknown;
  /** A tile object's tile, without flip bits. */
  gid?: number;
  /** A tile object's flip bits. */
  flippedHorizontal?: boolean;
  /** A tile object's flip bits. */
  flippedVertical?: boolean;
  /** A tile object's flip bits. */
  flippedAntiDiagonal?: boolean;
  /** A polyline's points. */
  polyline?: readonly PointLike[];
  /** A polygon's points. */
  polygon?: readonly PointLike[];
  /** A text object's settings. */
  text?: unknown;
  /** True for rectangles. */
  rectangle?: boolean;
  /** True for ellipses. */
  ellipse?: boolean;
  /** True for points. */
  point?: boolean;
}

/** Phaser.Tilemaps.ObjectLayer: a Tiled object layer (a group's layers named `group/layer`). */
export interface ObjectLayerLike {
  /** The layer's name, after its groups' names and a slash each. */
  name: string;
  /** False when the layer or a group holding it is hidden in Tiled. */
  visible?: boolean;
  /** The layer's own Tiled properties (its groups' are not kept). */
  properties?: unknown;
  /** The objects. */
  objects: readonly TiledObjectLike[];
}

/** Phaser.Tilemaps.Tilemap. `orientation` is Phaser's number (0 orthogonal .. 3 hexagonal) or Tiled's name. */
export interface TilemapLike {
  /** Width in tiles. */
  width: number;
  /** Height in tiles. */
  height: number;
  /** Tile width in pixels. */
  tileWidth: number;
  /** Tile height in pixels. */
  tileHeight: number;
  /** Orthogonal, isometric, staggered or hexagonal, as a Phaser number or a Tiled name. */
  orientation: number | string;
  /** The tile layers, in the map's order. */
  layers: LayerDataLike[];
  /** Hexagonal maps: length of the hexagon's flat side in pixels. */
  hexSideLength?: number;
  /** Hexagonal maps: 'x' (shifted columns) or 'y' (shifted rows); read as 'y' unless 'x'. */
  staggerAxis?: string;
  /** Hexagonal maps: 'odd' or 'even', which rows or columns are shifted; read as 'odd' unless 'even'. */
  staggerIndex?: string;
  /** The map's Tiled properties. */
  properties?: PropertiesLike | unknown;
  /** The object layers (Phaser keeps them from the Tiled JSON): collision shapes, edge walls and links. */
  objects?: readonly ObjectLayerLike[];
}

/** Phaser.GameObjects.Graphics: the drawing calls the debug view makes. */
export interface GraphicsLike {
  /** Erases everything drawn so far. */
  clear(): unknown;
  /** Sets the fill colour (0xRRGGBB) and opacity (0-1) of the next fills. */
  fillStyle(color: number, alpha?: number): unknown;
  /** Sets the line width (pixels), colour (0xRRGGBB) and opacity (0-1) of the next strokes. */
  lineStyle(width: number, color: number, alpha?: number): unknown;
  /** Starts a new path. */
  beginPath(): unknown;
  /** Moves the path's pen to (x, y) without drawing. */
  moveTo(x: number, y: number): unknown;
  /** Adds a line from the pen to (x, y). */
  lineTo(x: number, y: number): unknown;
  /** Joins the path's last point to its first. */
  closePath(): unknown;
  /** Fills the current path. */
  fillPath(): unknown;
  /** Draws the current path's lines. */
  strokePath(): unknown;
  /** Fills a circle centred on (x, y); radius in pixels. */
  fillCircle(x: number, y: number, radius: number): unknown;
}

/** Anything with a position, e.g. a Phaser sprite or image. `rotation` is set when asked to turn it. */
export interface PositionedLike {
  /** World x, in pixels. */
  x: number;
  /** World y, in pixels. */
  y: number;
  /** Heading in radians, clockwise from +x (Phaser's convention). */
  rotation?: number;
}
