import { TilenavError, type NavGrid } from '../index.js';
import { gridBounds } from '../render/index.js';

/**
 * Refuses a grid whose projection does not put every cell at finite world coordinates with a
 * non-zero extent (a Tiled map with `tilewidth="1e308"` overflows to Infinity; a subnormal tile
 * size collapses to 0). Without this `render` would write a "NaN x NaN px" picture and
 * `path --world` would print null coordinates. `where` names the file or flag at fault.
 */
export function assertFiniteProjection(grid: NavGrid, where: { file?: string; element?: string }): void {
  const b = gridBounds(grid);
  const w = b.maxX - b.minX;
  const h = b.maxY - b.minY;
  const long = Math.max(w, h);
  if (!Number.isFinite(w) || !Number.isFinite(h) || !(long > 0) || !Number.isFinite(1 / long)) {
    const numbers = Object.entries(grid.projection.spec).filter(([, v]) => typeof v === 'number' && v !== 0);
    const spec = numbers.map(([k, v]) => `${k} ${v}`).join(', ');
    throw new TilenavError(`the map's ${grid.projection.spec.kind} projection (${spec}) spans ${w} x ${h} world units over ${grid.width} x ${grid.height} cells; a picture or world coordinates need finite sizes above 0`, where);
  }
}
