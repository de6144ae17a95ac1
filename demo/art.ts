import type { Projection } from 'tilenav';
import { forEachTile, type TileArt, type TileDraw, type WorldBounds } from 'tilenav/render';

/** A Tiled map's look: its art, the images read so far (by resolved path) and what is missing. */
export interface DemoArt {
  art: TileArt;
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
  const b = { ...gridBox };
  const draws: { layer: number; opacity: number; d: TileDraw }[] = [];
  a.art.layers.forEach((layer, li) => {
    if (!layer.visible || layer.opacity <= 0) return;
    forEachTile(a.art, layer, a.projection, a.offset, (d) => {
      if (!a.images.has(d.image.path)) return;
      draws.push({ layer: li, opacity: layer.opacity, d });
      const [ma, mb, mc, md, me, mf] = d.matrix;
      for (const [u, v] of [[0, 0], [d.w, 0], [0, d.h], [d.w, d.h]]) {
        const x = ma * u + mc * v + me;
        const y = mb * u + md * v + mf;
        if (x < b.minX) b.minX = x;
        if (x > b.maxX) b.maxX = x;
        if (y < b.minY) b.minY = y;
        if (y > b.maxY) b.maxY = y;
      }
    });
  });
  const scale = Math.min(1, MAX_ART_SIDE / Math.max(1, b.maxX - b.minX, b.maxY - b.minY));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.ceil((b.maxX - b.minX) * scale));
  canvas.height = Math.max(1, Math.ceil((b.maxY - b.minY) * scale));
  const ctx = canvas.getContext('2d')!;
  ctx.imageSmoothingEnabled = false;
  // A translucent layer is drawn whole onto a scratch canvas first, so its own overlapping tiles
  // do not show through each other (Tiled applies opacity to the layer, not to each tile).
  let scratch: HTMLCanvasElement | null = null;
  let target = ctx;
  let k = 0;
  while (k < draws.length) {
    const layer = draws[k].layer;
    const opacity = draws[k].opacity;
    if (opacity < 1) {
      scratch ??= Object.assign(document.createElement('canvas'), { width: canvas.width, height: canvas.height });
      target = scratch.getContext('2d')!;
      target.setTransform(1, 0, 0, 1, 0, 0);
      target.clearRect(0, 0, canvas.width, canvas.height);
      target.imageSmoothingEnabled = false;
    } else target = ctx;
    for (; k < draws.length && draws[k].layer === layer; k++) {
      const d = draws[k].d;
      const [ma, mb, mc, md, me, mf] = d.matrix;
      target.setTransform(scale, 0, 0, scale, -b.minX * scale, -b.minY * scale);
      target.transform(ma, mb, mc, md, me, mf);
      target.drawImage(a.images.get(d.image.path)!, d.sx, d.sy, d.sw, d.sh, 0, 0, d.w, d.h);
    }
    if (target !== ctx) {
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.globalAlpha = opacity;
      ctx.drawImage(scratch!, 0, 0);
      ctx.globalAlpha = 1;
    }
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  return { canvas, minX: b.minX, minY: b.minY, scale, tiles: draws.length };
}

/** Decodes picked or fetched image bytes; null (and the caller names it missing) when it cannot. */
export async function decodeImage(blob: Blob): Promise<ImageBitmap | null> {
  try {
    return await createImageBitmap(blob);
  } catch {
    return null;
  }
}
