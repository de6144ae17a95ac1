/**
 * Edge walls declared by a Tiled map's objects: a polyline (or line), polygon or rectangle with a
 * true bool property of the mapping's `edgeWallProperties` (`edgeWall`, `fence`, `wall`) or a class
 * of its `edgeWallTypes` (`EdgeWall`, `Fence`, ...) walls the tile edges its lines lie on. Square
 * cells only (orthogonal and isometric maps). Described in docs/formats.md.
 */
import type { NavGrid } from '../../grid/navgrid.js';
import { wallAlong } from '../edge-walls.js';
import { isWallObject, lower, type FlatLayer } from './collide.js';
import type { LinkSurface } from './links.js';
import { quote, type RawObject } from './model.js';
import { objectShapes } from './shapes.js';
import type { TiledMapping } from './build.js';

/**
 * Puts up on `grid` the edge walls the objects of `layers` declare (`navIndex` gives an object
 * layer's navigation layer): each line of a wall object along a tile edge (within a quarter of a
 * tile) walls the edges it covers. A thin rectangle (under half a tile across) walls its centre
 * line, a wider one or a polygon its outline. Lines that follow no tile edge, and wall objects on
 * maps without square cells, are left out with a warning naming the object.
 */
export function addObjectWalls(grid: NavGrid, layers: readonly FlatLayer[], navIndex: (l: FlatLayer) => number, s: LinkSurface, mapping: TiledMapping, warn: (w: string) => void): void {
  const props = lower(mapping.edgeWallProperties);
  const types = lower(mapping.edgeWallTypes);
  grid.batch(() => {
    for (const l of layers) {
      if (l.raw.kind !== 'object') continue;
      const layer = navIndex(l);
      for (const o of l.raw.objects) {
        if (!isWallObject(o, props, types) || (!o.visible && !mapping.hiddenLayers)) continue;
        const element = `${l.raw.element} object ${o.id}${o.name !== '' ? ` ${quote(o.name, 40)}` : ''}`;
        if (s.orientation !== 'orthogonal' && s.orientation !== 'isometric') {
          warn(`${element}: edge walls need square cells, and this map is ${s.orientation}; it puts up no wall`);
          continue;
        }
        // To cell units: Tiled keeps isometric objects in a space where a tile is tileHeight square.
        const iso = s.orientation === 'isometric';
        const [dx, dy] = iso ? [(l.offX / s.tw + l.offY / s.th) * s.th, (l.offY / s.th - l.offX / s.tw) * s.th] : [l.offX, l.offY];
        const sx = iso ? s.th : s.tw;
        const sy = s.th;
        const cx = (px: number) => (px + dx) / sx - s.ox;
        const cy = (py: number) => (py + dy) / sy - s.oy;
        let missed = 0;
        for (const [closed, pts] of wallLines(o, sx, sy)) {
          const n = pts.length / 2;
          for (let k = 0; k < (closed ? n : n - 1); k++) {
            const a = 2 * k;
            const b = 2 * ((k + 1) % n);
            if (!wallAlong(grid, layer, cx(pts[a]), cy(pts[a + 1]), cx(pts[b]), cy(pts[b + 1]))) missed++;
          }
        }
        if (missed > 0) warn(`${element}: ${missed === 1 ? 'a line of it does' : `${missed} of its lines do`} not lie along a tile edge (within a quarter of a tile, horizontal or vertical), and ${missed === 1 ? 'puts' : 'put'} up no wall`);
      }
    }
  });
}

/** The lines of a wall object in map pixels: [closed, flat points]; a thin rectangle its centre line. */
function wallLines(o: RawObject, tw: number, th: number): [boolean, number[]][] {
  if (o.shape === 'rectangle' && o.gid === 0) {
    const c = Math.cos((o.rotation * Math.PI) / 180);
    const s = Math.sin((o.rotation * Math.PI) / 180);
    const at = (lx: number, ly: number): [number, number] => [o.x + lx * c - ly * s, o.y + lx * s + ly * c];
    const w = o.width;
    const h = o.height;
    if (h < th / 2 && w >= h) return [[false, [...at(0, h / 2), ...at(w, h / 2)]]];
    if (w < tw / 2) return [[false, [...at(w / 2, 0), ...at(w / 2, h)]]];
    return [[true, [...at(0, 0), ...at(w, 0), ...at(w, h), ...at(0, h)]]];
  }
  return objectShapes(o, 0).map((sh) => [sh.closed, sh.pts]);
}
