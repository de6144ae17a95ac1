/**
 * Where and how Tiled draws each tile: gid decoding (flip and rotation bits), the source rectangle
 * in its tileset, the destination in the map's pixels as an affine matrix, and the drawing order.
 * No DOM or Node: the demo hands the matrices to a canvas, a test checks them as numbers.
 */
import type { Projection } from '../grid/projection.js';
import { GID_FLIP_D, GID_FLIP_H, GID_FLIP_V, GID_MASK, GID_ROTATE_120 } from '../loaders/tiled/index.js';
import type { ArtImage, ArtLayer, ArtTileset, TileArt } from './tiled-art.js';

/** The source of one tile: which image and which rectangle of it (pixels). */
export interface TileSource {
  /** The image to cut the tile from. */
  image: ArtImage;
  /** Left of the rectangle in the image, pixels. */
  sx: number;
  /** Top of the rectangle, pixels. */
  sy: number;
  /** Width of the rectangle, pixels. */
  sw: number;
  /** Height of the rectangle, pixels. */
  sh: number;
}

/**
 * One tile to draw: `drawImage(image, sx, sy, sw, sh, 0, 0, w, h)` under the matrix
 * [a, b, c, d, e, f] (canvas order: x' = a x + c y + e, y' = b x + d y + f), in map pixels.
 */
export interface TileDraw extends TileSource {
  /** Drawn width before the matrix, map pixels. */
  w: number;
  /** Drawn height before the matrix, map pixels. */
  h: number;
  /** Placement, flips and rotation as [a, b, c, d, e, f] in canvas order. */
  matrix: [number, number, number, number, number, number];
  /** Tiled tile coordinates of the cell. */
  tx: number;
  /** Tiled tile row of the cell. */
  ty: number;
}

/** The tileset a gid (flip bits cleared) belongs to: the one with the largest firstgid not above it. */
export function tilesetOf(art: TileArt, gid: number): ArtTileset | null {
  let best: ArtTileset | null = null;
  for (const ts of art.tilesets) if (ts.firstgid <= gid && (best === null || ts.firstgid > best.firstgid)) best = ts;
  return best;
}

/**
 * Where tile `id` (local to its tileset) lies in its image: its own image for image-collection
 * tiles, else the sheet's cell `id` counted row by row from the margin, cells spaced by `spacing`.
 * Null when the tileset has no image for it (an unread external tileset, an id past the sheet).
 */
export function tileSource(ts: ArtTileset, id: number): TileSource | null {
  const own = ts.tiles.get(id);
  if (own !== undefined) {
    const sw = own.width > 0 ? own.width : own.image.width;
    const sh = own.height > 0 ? own.height : own.image.height;
    return { image: own.image, sx: own.x, sy: own.y, sw, sh };
  }
  const img = ts.image;
  if (img === null || !(ts.tileWidth > 0) || !(ts.tileHeight > 0)) return null;
  // Old maps leave columns out: as many whole tiles as fit across the image.
  const columns = ts.columns > 0 ? ts.columns : Math.max(1, Math.floor((img.width - 2 * ts.margin + ts.spacing) / (ts.tileWidth + ts.spacing)));
  if (id < 0 || (ts.tileCount > 0 && id >= ts.tileCount)) return null;
  const sx = ts.margin + (id % columns) * (ts.tileWidth + ts.spacing);
  const sy = ts.margin + Math.floor(id / columns) * (ts.tileHeight + ts.spacing);
  return { image: img, sx, sy, sw: ts.tileWidth, sh: ts.tileHeight };
}

/**
 * The matrix that puts a w x h image with its bottom-left corner at (x, y), flipped and rotated
 * as the gid's top bits say. Square and isometric maps: the diagonal flip (an x/y swap) first,
 * then horizontal and vertical, the swapped image still standing on (x, y). Hexagonal maps read
 * the diagonal bit as a 60 degree and bit 28 as a 120 degree clockwise turn about the image
 * centre, after the flips.
 */
export function tileMatrix(raw: number, hexagonal: boolean, x: number, y: number, w: number, h: number): TileDraw['matrix'] {
  const H = (raw & GID_FLIP_H) !== 0;
  const V = (raw & GID_FLIP_V) !== 0;
  const D = (raw & GID_FLIP_D) !== 0;
  const R = (raw & GID_ROTATE_120) !== 0;
  let degrees = 0;
  let fx = H ? -1 : 1;
  let fy = V ? -1 : 1;
  let cx = x + w / 2;
  let cy = y - h / 2;
  if (hexagonal) degrees = (D ? 60 : 0) + (R ? 120 : 0);
  else if (D) {
    // A swap of x and y is a quarter turn with the flips exchanged.
    degrees = 90;
    fx = V ? -1 : 1;
    fy = H ? 1 : -1;
    // The turned image is h wide and w tall; keep it standing on (x, y).
    cx = x + h / 2;
    cy = y - w / 2;
  }
  const t = (degrees * Math.PI) / 180;
  const cos = Math.round(Math.cos(t) * 1e12) / 1e12;
  const sin = Math.round(Math.sin(t) * 1e12) / 1e12;
  const a = cos * fx;
  const b = sin * fx;
  const c = -sin * fy;
  const d = cos * fy;
  return [a, b, c, d, cx - a * (w / 2) - c * (h / 2), cy - b * (w / 2) - d * (h / 2)];
}

/**
 * Calls `draw` for each non-empty tile of a layer in Tiled's drawing order, placed where Tiled
 * puts it: the tile's image stands on the bottom-left corner of its cell's box (the box of map
 * tile size centred on the projection's cell centre), shifted by the tileset's and the layer's
 * offsets. Orthogonal maps follow the render order; isometric, staggered and hexagonal maps draw
 * back to front (row by row on screen, left to right), as Tiled does. `offset` is the Tiled tile
 * of grid cell (0, 0) (the loader's `offset`, non-zero on infinite maps). An object layer's tile
 * objects come in its own order (see forEachObjectTile). Tiles without a source are skipped.
 */
export function forEachTile(art: TileArt, layer: ArtLayer, projection: Projection, offset: { x: number; y: number }, draw: (t: TileDraw) => void): void {
  if (layer.objects.length > 0) forEachObjectTile(art, layer, draw);
  const spec = projection.spec;
  // Staggered and hexagonal maps lay out on the even sizes the projection holds.
  const tw = spec.kind === 'staggered' ? spec.tileWidth : art.tileWidth;
  const th = spec.kind === 'staggered' ? spec.tileHeight : art.tileHeight;
  const hex = art.orientation === 'hexagonal';
  const cells: number[] = [];
  for (const b of layer.blocks) {
    for (let k = 0; k < b.gids.length; k++) if ((b.gids[k] & GID_MASK) !== 0) cells.push(b.x + (k % b.width), b.y + Math.floor(k / b.width), b.gids[k]);
  }
  const n = cells.length / 3;
  const order = Array.from({ length: n }, (_, i) => i);
  const centre = { x: 0, y: 0, z: 0 };
  const cx = new Float64Array(n);
  const cy = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    projection.cellToWorld(cells[3 * i] - offset.x, cells[3 * i + 1] - offset.y, centre);
    cx[i] = centre.x;
    cy[i] = centre.y;
  }
  if (art.orientation === 'orthogonal') {
    const up = art.renderOrder.endsWith('-up') ? -1 : 1;
    const left = art.renderOrder.startsWith('left') ? -1 : 1;
    order.sort((i, j) => (cells[3 * i + 1] - cells[3 * j + 1]) * up || (cells[3 * i] - cells[3 * j]) * left);
  } else order.sort((i, j) => cy[i] - cy[j] || cx[i] - cx[j]);
  for (const i of order) {
    const raw = cells[3 * i + 2];
    const gid = raw & GID_MASK;
    const ts = tilesetOf(art, gid);
    if (ts === null) continue;
    const src = tileSource(ts, gid - ts.firstgid);
    if (src === null || !(src.sw > 0) || !(src.sh > 0)) continue;
    const w = ts.renderSize === 'grid' ? tw : src.sw;
    const h = ts.renderSize === 'grid' ? th : src.sh;
    const x = cx[i] - tw / 2 + ts.offsetX + layer.offsetX;
    const y = cy[i] + th / 2 + ts.offsetY + layer.offsetY;
    draw({ ...src, w, h, matrix: tileMatrix(raw, hex, x, y, w, h), tx: cells[3 * i], ty: cells[3 * i + 1] });
  }
}

/**
 * The tile objects of an object layer, in its order: each image stands on its object's point
 * (bottom-left; bottom-centre on isometric maps, whose object coordinates Tiled projects onto the
 * diamonds), sized to the object, flipped in place and turned by the object's rotation about that
 * point. World positions are Tiled's pixels, as the loader's projections use.
 */
function forEachObjectTile(art: TileArt, layer: ArtLayer, draw: (t: TileDraw) => void): void {
  const iso = art.orientation === 'isometric';
  for (const o of layer.objects) {
    const gid = o.gid & GID_MASK;
    const ts = tilesetOf(art, gid);
    if (ts === null) continue;
    const src = tileSource(ts, gid - ts.firstgid);
    if (src === null || !(src.sw > 0) || !(src.sh > 0)) continue;
    const w = o.width > 0 ? o.width : src.sw;
    const h = o.height > 0 ? o.height : src.sh;
    let x = o.x;
    let y = o.y;
    if (iso) {
      // Isometric object coordinates run along the diamonds' axes, tileHeight pixels per tile.
      const tx = o.x / art.tileHeight;
      const ty = o.y / art.tileHeight;
      x = (tx - ty) * (art.tileWidth / 2) + art.height * (art.tileWidth / 2);
      y = (tx + ty) * (art.tileHeight / 2);
    }
    const left = iso ? -w / 2 : 0;
    // Flips mirror the image within its box (the gid's H and V bits), then the box turns about the point.
    const fx = (o.gid & GID_FLIP_H) !== 0 ? -1 : 1;
    const fy = (o.gid & GID_FLIP_V) !== 0 ? -1 : 1;
    const t = (o.rotation * Math.PI) / 180;
    const cos = Math.cos(t);
    const sin = Math.sin(t);
    // Local box point (u, v) in [0, w] x [0, h] -> (left + (fx < 0 ? w - u : u), (fy < 0 ? -v : v - h)) -> rotated -> + (x, y) + offsets.
    const la = fx;
    const le = left + (fx < 0 ? w : 0);
    const ld = fy;
    const lf = fy < 0 ? 0 : -h;
    draw({
      ...src,
      w,
      h,
      matrix: [cos * la, sin * la, -sin * ld, cos * ld, cos * le - sin * lf + x + ts.offsetX + layer.offsetX, sin * le + cos * lf + y + ts.offsetY + layer.offsetY],
      tx: Math.floor(o.x / (art.tileWidth || 1)),
      ty: Math.floor(o.y / (art.tileHeight || 1)),
    });
  }
}
