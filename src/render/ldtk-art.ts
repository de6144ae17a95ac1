/**
 * An LDtk level's (or a stitched world's) tiles as draw lists: the same {@link LayerDraws} the
 * Tiled art gives, so the CLI's `render` and the demo paint both the same way. No DOM or Node.
 */
import type { LdtkLevel, LdtkProject, LdtkWorld } from '../loaders/ldtk/index.js';
import type { LayerDraws } from './composite.js';
import type { ArtImage } from './tiled-art.js';
import type { TileDraw } from './tiles.js';

/**
 * Every visible tile of a level, or of each level of a world, in LDtk's drawing order (bottom
 * layer first, each layer's tiles in their order), placed in the grid's pixels: a level's own, or
 * the world's for a world (each level shifted to its world position). Tiles whose tileset has no
 * image file (none, or an atlas LDtk embeds) are left out; `keep` filters the rest (e.g. to the
 * images that were read).
 */
export function ldtkLayerDraws(project: LdtkProject, target: LdtkLevel | LdtkWorld, keep: (d: TileDraw) => boolean = () => true): LayerDraws[] {
  const placed = 'tileLayers' in target ? [{ level: target, dx: 0, dy: 0 }] : target.levels.map((l) => ({ level: project.levels[l.index], dx: project.levels[l.index].worldX, dy: project.levels[l.index].worldY }));
  const images = new Map<string, ArtImage>();
  const out: LayerDraws[] = [];
  for (const { level, dx, dy } of placed) {
    for (const t of level.tileLayers) {
      const ts = project.tilesets[t.tileset];
      if (!t.visible || t.opacity <= 0 || ts === undefined || ts.path === null) continue;
      let image = images.get(ts.path);
      if (image === undefined) images.set(ts.path, (image = { path: ts.path, width: ts.width, height: ts.height, transparent: '' }));
      const draws: TileDraw[] = [];
      const g = t.gridSize;
      for (let k = 0; k < t.count; k++) {
        const fx = t.flip[k] & 1 ? -1 : 1;
        const fy = t.flip[k] & 2 ? -1 : 1;
        const x = t.x[k] + dx;
        const y = t.y[k] + dy;
        const d: TileDraw = { image, sx: t.srcX[k], sy: t.srcY[k], sw: ts.tileSize, sh: ts.tileSize, w: g, h: g, matrix: [fx, 0, 0, fy, fx < 0 ? x + g : x, fy < 0 ? y + g : y], tx: Math.floor(t.x[k] / g), ty: Math.floor(t.y[k] / g) };
        if (keep(d)) draws.push(d);
      }
      if (draws.length > 0) out.push({ layer: { name: t.name, visible: true, opacity: t.opacity, offsetX: t.offsetX, offsetY: t.offsetY, blocks: [], objects: [] }, draws });
    }
  }
  return out;
}
