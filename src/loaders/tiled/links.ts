/**
 * Links declared by a Tiled map's objects: an object with an object-typed property `linkTo`
 * (Tiled's object reference) joins its cell to the cell of the object it names, as
 * `grid.addLink` does. Its own properties say the rest: `linkCost` (default 1), `linkOneWay`
 * (default false), `linkEnabled` (default true). Each end is on the navigation layer of its object
 * layer (its `collisionLayer`, as for collision shapes). Described in docs/formats.md.
 */
import type { NavGrid } from '../../grid/navgrid.js';
import type { FlatLayer, Surface } from './collide.js';
import { quote, type RawObject, type TiledProperty } from './model.js';
import { objectShapes } from './shapes.js';

/** Where the map's pixels meet its cells (as the collision shapes read them). */
export type LinkSurface = Pick<Surface, 'W' | 'H' | 'ox' | 'oy' | 'tw' | 'th' | 'orientation' | 'projection'>;

interface Placed {
  object: RawObject;
  element: string;
  layer: number;
  x: number;
  y: number;
}

/**
 * Adds to `grid` the links the objects of `layers` declare; `navIndex` gives an object layer's
 * navigation layer. A link whose property has the wrong type, whose target is missing, or whose
 * ends lie off the grid or coincide is left out with a warning naming the object.
 */
export function addObjectLinks(grid: NavGrid, layers: readonly FlatLayer[], navIndex: (l: FlatLayer) => number, s: LinkSurface, hidden: boolean, warn: (w: string) => void): void {
  const byId = new Map<number, Placed | null>();
  const sources: Placed[] = [];
  for (const l of layers) {
    if (l.raw.kind !== 'object') continue;
    const layer = navIndex(l);
    for (const o of l.raw.objects) {
      const element = `${l.raw.element} object ${o.id}${o.name !== '' ? ` ${quote(o.name, 40)}` : ''}`;
      const cell = hidden || o.visible ? cellOf(o, l, s) : null;
      const placed = cell === null ? null : { object: o, element, layer, x: cell[0], y: cell[1] };
      byId.set(o.id, placed);
      if (o.properties.has('linkTo')) {
        if (placed === null) warn(`${element}: its link is left out: the object ${o.visible ? 'lies off the map' : 'is hidden'}`);
        else sources.push(placed);
      }
    }
  }
  for (const from of sources) {
    const props = from.object.properties;
    const target = props.get('linkTo')!;
    if (target.type !== 'object' || !Number.isInteger(target.value)) {
      warn(`${from.element}: linkTo is a ${target.type} property; make it an object property naming the link's other end`);
      continue;
    }
    const to = byId.get(target.value as number);
    if (to === undefined || to === null) {
      warn(`${from.element}: linkTo names object ${target.value}, which ${to === null ? 'lies off the map or is hidden' : 'this map has no object layer holding'}; its link is left out`);
      continue;
    }
    if (to.x === from.x && to.y === from.y && to.layer === from.layer) {
      warn(`${from.element}: linkTo names an object in the same cell (${from.x}, ${from.y}) of the same navigation layer; its link is left out`);
      continue;
    }
    const cost = numberProp(props.get('linkCost'), 1);
    const oneWay = boolProp(props.get('linkOneWay'), false);
    const enabled = boolProp(props.get('linkEnabled'), true);
    if (cost === null || !(cost >= 0) || cost === Infinity) {
      warn(`${from.element}: linkCost should be a number >= 0 (an int or float property); its link is left out`);
      continue;
    }
    if (oneWay === null || enabled === null) {
      warn(`${from.element}: ${oneWay === null ? 'linkOneWay' : 'linkEnabled'} should be a bool property; its link is left out`);
      continue;
    }
    grid.addLink({ from: { x: from.x, y: from.y, layer: from.layer }, to: { x: to.x, y: to.y, layer: to.layer }, cost, bidirectional: !oneWay, enabled });
  }
}

/** The cell an object stands for: its point, or the centre of its shape's bounding box; null off the grid. */
function cellOf(o: RawObject, l: FlatLayer, s: LinkSurface): [number, number] | null {
  let px = o.x;
  let py = o.y;
  const shapes = objectShapes(o, 0);
  if (shapes.length > 0) {
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (const sh of shapes) {
      for (let k = 0; k < sh.pts.length; k += 2) {
        x0 = Math.min(x0, sh.pts[k]);
        x1 = Math.max(x1, sh.pts[k]);
        y0 = Math.min(y0, sh.pts[k + 1]);
        y1 = Math.max(y1, sh.pts[k + 1]);
      }
    }
    px = (x0 + x1) / 2;
    py = (y0 + y1) / 2;
  }
  let cx: number;
  let cy: number;
  if (s.orientation === 'orthogonal') {
    cx = Math.floor((px + l.offX) / s.tw) - s.ox;
    cy = Math.floor((py + l.offY) / s.th) - s.oy;
  } else if (s.orientation === 'isometric') {
    // Tiled keeps isometric objects in a space where a tile is tileHeight x tileHeight; the layer
    // offset is in screen pixels (see applyObjectConventions).
    const dx = (l.offX / s.tw + l.offY / s.th) * s.th;
    const dy = (l.offY / s.th - l.offX / s.tw) * s.th;
    cx = Math.floor((px + dx) / s.th) - s.ox;
    cy = Math.floor((py + dy) / s.th) - s.oy;
  } else {
    const at = s.projection.worldToCell(px + l.offX, py + l.offY);
    cx = at.x;
    cy = at.y;
  }
  return Number.isInteger(cx) && Number.isInteger(cy) && cx >= 0 && cy >= 0 && cx < s.W && cy < s.H ? [cx, cy] : null;
}

function numberProp(p: TiledProperty | undefined, fallback: number): number | null {
  if (p === undefined) return fallback;
  return p.type === 'int' || p.type === 'float' ? (p.value as number) : null;
}

function boolProp(p: TiledProperty | undefined, fallback: boolean): boolean | null {
  if (p === undefined) return fallback;
  return p.type === 'bool' ? (p.value as boolean) : null;
}
