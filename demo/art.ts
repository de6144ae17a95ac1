import type { Projection } from 'tilenav';
import { drawsBounds, keyOut, layerDraws, type LayerDraws, type TileArt, type WorldBounds } from 'tilenav/render';

/** A map's look: a Tiled map's art (or an LDtk level's tiles, already placed), the images read so far (by resolved path) and what is missing. */
export interface DemoArt {
  art: TileArt | null;
  /** Tiles already placed in the grid's pixels (an LDtk level or world); `art` is then null. */
  draws?: LayerDraws[];
  projection: Projection;
  /** Tiled tile of grid cell (0, 0) (the loader's offset). */
  offset: { x: number; y: number };
  images: Map<string, ImageBitmap>;
  /** Files the map needs that were not given (tileset images, external tilesets). */
  missing: string[];
}

/** The map's tiles drawn once into a canvas in the map's pixels, and where that canvas lies. */
export interface ArtCanvas {
  canvas: HTMLCanvasElement;
  /** World (Tiled pixel) position of the canvas's top-left corner, and canvas pixels per world pixel. */
  minX: number;
  minY: number;
  scale: number;
  /** Tiles drawn (those with an image). */
  tiles: number;
}

/** The longest side an art canvas may have: larger maps are drawn scaled down to it. */
const MAX_ART_SIDE = 8192;

/**
 * Draws every visible tile layer (bottom first) with its opacity, each tile flipped, rotated and
 * offset as Tiled places it. The canvas covers the grid's bounds and any tile standing out of them
 * (tall tiles reach above their cell).
 */
export function drawArt(a: DemoArt, gridBox: WorldBounds): ArtCanvas {
  const list = a.art === null ? (a.draws ?? []).map((l) => ({ layer: l.layer, draws: l.draws.filter((d) => a.images.has(d.image.path)) })) : layerDraws(a.art, a.projection, a.offset, (d) => a.images.has(d.image.path));
  const b = drawsBounds(list, gridBox);
  const scale = Math.min(1, MAX_ART_SIDE / Math.max(1, b.maxX - b.minX, b.maxY - b.minY));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.ceil((b.maxX - b.minX) * scale));
  canvas.height = Math.max(1, Math.ceil((b.maxY - b.minY) * scale));
  const ctx = canvas.getContext('2d')!;
  // A translucent layer is drawn whole onto a scratch canvas first, so its own overlapping tiles
  // do not show through each other (Tiled applies opacity to the layer, not to each tile).
  let scratch: HTMLCanvasElement | null = null;
  let tiles = 0;
  for (const { layer, draws } of list) {
    let target = ctx;
    if (layer.opacity < 1) {
      scratch ??= Object.assign(document.createElement('canvas'), { width: canvas.width, height: canvas.height });
      target = scratch.getContext('2d')!;
      target.setTransform(1, 0, 0, 1, 0, 0);
      target.clearRect(0, 0, canvas.width, canvas.height);
    }
    target.imageSmoothingEnabled = false;
    for (const d of draws) {
      target.setTransform(scale, 0, 0, scale, -b.minX * scale, -b.minY * scale);
      target.transform(...d.matrix);
      target.drawImage(a.images.get(d.image.path)!, d.sx, d.sy, d.sw, d.sh, 0, 0, d.w, d.h);
      tiles++;
    }
    if (target !== ctx) {
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.globalAlpha = layer.opacity;
      ctx.drawImage(scratch!, 0, 0);
      ctx.globalAlpha = 1;
    }
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  return { canvas, minX: b.minX, minY: b.minY, scale, tiles };
}

/**
 * Decodes picked or fetched image bytes, the colour `transparent` (`rrggbb`, a tileset's `trans`)
 * made transparent; null (and the caller names it missing) when it cannot.
 */
export async function decodeImage(blob: Blob, transparent = ''): Promise<ImageBitmap | null> {
  try {
    const bitmap = await createImageBitmap(blob);
    if (transparent === '') return bitmap;
    const c = Object.assign(document.createElement('canvas'), { width: bitmap.width, height: bitmap.height });
    const g = c.getContext('2d')!;
    g.drawImage(bitmap, 0, 0);
    const img = g.getImageData(0, 0, c.width, c.height);
    keyOut({ width: img.width, height: img.height, data: new Uint8Array(img.data.buffer) }, transparent);
    g.putImageData(img, 0, 0);
    return await createImageBitmap(c);
  } catch {
    return null;
  }
}
