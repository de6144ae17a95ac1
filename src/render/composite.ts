/**
 * A Tiled map's tiles painted into an RGBA picture without a canvas: the CLI's `render` puts them
 * under the navigation overlay. Same placement as the demo's canvas ({@link forEachTile}); images
 * sampled nearest-neighbour (pixel art stays sharp), blended source-over.
 */
import type { Projection } from '../grid/projection.js';
import type { WorldBounds } from './overlay.js';
import type { ArtLayer, TileArt } from './tiled-art.js';
import { forEachTile, type TileDraw } from './tiles.js';

/** A decoded image: `width` x `height` pixels, 4 bytes (RGBA) each, rows top to bottom. */
export interface RgbaImage {
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
  /** The pixels: `width * height * 4` bytes, RGBA, rows top to bottom. */
  data: Uint8Array;
}

/** The tiles of each visible layer, bottom layer first, in Tiled's order within each. */
export interface LayerDraws {
  /** The layer. */
  layer: ArtLayer;
  /** Its tiles, placed, in drawing order. */
  draws: TileDraw[];
}

/**
 * Every tile of the visible, not fully transparent layers, placed ({@link forEachTile}); `keep`
 * filters them (e.g. only tiles whose image was read).
 */
export function layerDraws(art: TileArt, projection: Projection, offset: { x: number; y: number }, keep: (d: TileDraw) => boolean = () => true): LayerDraws[] {
  const out: LayerDraws[] = [];
  for (const layer of art.layers) {
    if (!layer.visible || layer.opacity <= 0) continue;
    const draws: TileDraw[] = [];
    forEachTile(art, layer, projection, offset, (d) => {
      if (keep(d)) draws.push(d);
    });
    if (draws.length > 0) out.push({ layer, draws });
  }
  return out;
}

/** `box` grown to hold every drawn tile (tall tiles stand above their cells). Returns a new box. */
export function drawsBounds(list: readonly LayerDraws[], box: WorldBounds): WorldBounds {
  const b = { ...box };
  for (const { draws } of list) {
    for (const d of draws) {
      const [ma, mb, mc, md, me, mf] = d.matrix;
      for (let k = 0; k < 4; k++) {
        const u = k & 1 ? d.w : 0;
        const v = k & 2 ? d.h : 0;
        const x = ma * u + mc * v + me;
        const y = mb * u + md * v + mf;
        if (x < b.minX) b.minX = x;
        if (x > b.maxX) b.maxX = x;
        if (y < b.minY) b.minY = y;
        if (y > b.maxY) b.maxY = y;
      }
    }
  }
  return b;
}

/**
 * Paints the tiles into `target`, whose pixel (px, py) shows world point
 * (originX + (px + 0.5) / scale, originY + (py + 0.5) / scale). A layer's opacity scales each of
 * its tiles' alpha. Tiles whose image is not in `images` are skipped. Returns the tiles painted.
 */
export function paintTiles(target: RgbaImage & { scale: number; originX: number; originY: number }, list: readonly LayerDraws[], images: ReadonlyMap<string, RgbaImage>): number {
  const { width, height, data, scale, originX, originY } = target;
  let painted = 0;
  for (const { layer, draws } of list) {
    for (const d of draws) {
      const img = images.get(d.image.path);
      if (img === undefined) continue;
      painted++;
      const [ma, mb, mc, md, me, mf] = d.matrix;
      const det = ma * md - mb * mc;
      if (det === 0) continue;
      // World to image-local (u, v): the inverse of the tile's matrix.
      const ia = md / det;
      const ib = -mb / det;
      const ic = -mc / det;
      const id = ma / det;
      let x0 = Infinity;
      let y0 = Infinity;
      let x1 = -Infinity;
      let y1 = -Infinity;
      for (let k = 0; k < 4; k++) {
        const u = k & 1 ? d.w : 0;
        const v = k & 2 ? d.h : 0;
        const px = (ma * u + mc * v + me - originX) * scale;
        const py = (mb * u + md * v + mf - originY) * scale;
        x0 = Math.min(x0, px);
        x1 = Math.max(x1, px);
        y0 = Math.min(y0, py);
        y1 = Math.max(y1, py);
      }
      const xa = Math.max(0, Math.floor(x0));
      const xb = Math.min(width - 1, Math.ceil(x1));
      const ya = Math.max(0, Math.floor(y0));
      const yb = Math.min(height - 1, Math.ceil(y1));
      const su = d.sw / d.w;
      const sv = d.sh / d.h;
      for (let py = ya; py <= yb; py++) {
        const wy = originY + (py + 0.5) / scale - mf;
        for (let px = xa; px <= xb; px++) {
          const wx = originX + (px + 0.5) / scale - me;
          const u = ia * wx + ic * wy;
          const v = ib * wx + id * wy;
          if (u < 0 || v < 0 || u >= d.w || v >= d.h) continue;
          const sx = d.sx + Math.floor(u * su);
          const sy = d.sy + Math.floor(v * sv);
          if (sx < 0 || sy < 0 || sx >= img.width || sy >= img.height) continue;
          const s = (sy * img.width + sx) * 4;
          const a = (img.data[s + 3] / 255) * layer.opacity;
          if (a <= 0) continue;
          const o = (py * width + px) * 4;
          data[o] = Math.round(data[o] + (img.data[s] - data[o]) * a);
          data[o + 1] = Math.round(data[o + 1] + (img.data[s + 1] - data[o + 1]) * a);
          data[o + 2] = Math.round(data[o + 2] + (img.data[s + 2] - data[o + 2]) * a);
        }
      }
    }
  }
  return painted;
}

/** Makes the pixels of colour `rrggbb` transparent (a tileset's `trans`); other pixels keep their alpha. */
export function keyOut(img: RgbaImage, rrggbb: string): void {
  if (!/^[0-9a-f]{6}$/i.test(rrggbb)) return;
  const c = parseInt(rrggbb, 16);
  const r = c >> 16;
  const g = (c >> 8) & 255;
  const b = c & 255;
  for (let p = 0; p < img.data.length; p += 4) if (img.data[p] === r && img.data[p + 1] === g && img.data[p + 2] === b) img.data[p + 3] = 0;
}
