/**
 * Links declared by LDtk entities: an entity with an `EntityRef` field `linkTo` joins its cell to
 * the cell of the entity it names, as `grid.addLink` does. Its own fields say the rest: `linkCost`
 * (Float or Int, default 1), `linkOneWay` (Bool, default false), `linkEnabled` (Bool, default
 * true), and each end's `linkLayer` (Int, the navigation layer of that entity's end, default 0).
 * Described in docs/formats.md.
 */
import type { NavGrid } from '../../grid/navgrid.js';
import { quote, warn, type Ctx } from '../tiled/model.js';
import type { LdtkEntity, LdtkEntityRef, LdtkField } from './entities.js';

/**
 * Adds to `grid` the links `entities` declare between two of them (both on `grid`, `where` names
 * it). A link to an entity not among them (in another level: a stitched world's grid has it when
 * both levels are stitched at one depth), a field of the wrong type, an end off the grid or on a
 * missing layer, or both ends in one cell: left out, with a warning.
 */
export function addEntityLinks(ctx: Ctx, grid: NavGrid, entities: readonly LdtkEntity[], where: string): void {
  const byIid = new Map<string, LdtkEntity>();
  for (const e of entities) byIid.set(e.iid, e);
  for (const e of entities) {
    const ref = e.fields.get('linkTo');
    if (ref === undefined || ref.value === null) continue;
    const name = `${where} entity ${quote(e.name, 40)} (${e.iid})`;
    if (ref.type !== 'EntityRef') {
      warn(ctx, `${name}: linkTo is a ${ref.type} field; make it an EntityRef naming the link's other end`);
      continue;
    }
    const to = byIid.get((ref.value as LdtkEntityRef).entityIid);
    if (to === undefined) {
      warn(ctx, `${name}: linkTo names an entity that is not in ${where}; its link is left out there (a stitched world holding both ends has it)`);
      continue;
    }
    const cost = num(e.fields.get('linkCost'), 1);
    const oneWay = bool(e.fields.get('linkOneWay'), false);
    const enabled = bool(e.fields.get('linkEnabled'), true);
    const fromLayer = num(e.fields.get('linkLayer'), 0);
    const toLayer = num(to.fields.get('linkLayer'), 0);
    const bad =
      cost === null || !(cost >= 0) || cost === Infinity
        ? 'linkCost should be a Float or Int >= 0'
        : oneWay === null || enabled === null
          ? `${oneWay === null ? 'linkOneWay' : 'linkEnabled'} should be a Bool`
          : !isLayer(grid, fromLayer) || !isLayer(grid, toLayer)
            ? `linkLayer should be an Int from 0 to ${grid.layers.length - 1} on both ends`
            : !grid.inBounds(e.x, e.y) || !grid.inBounds(to.x, to.y)
              ? 'an end lies off the level'
              : e.x === to.x && e.y === to.y && fromLayer === toLayer
                ? 'both ends are one cell'
                : null;
    if (bad !== null) {
      warn(ctx, `${name}: ${bad}; its link is left out`);
      continue;
    }
    grid.addLink({ from: { x: e.x, y: e.y, layer: fromLayer! }, to: { x: to.x, y: to.y, layer: toLayer! }, cost: cost!, bidirectional: !oneWay, enabled: enabled! });
  }
}

function isLayer(grid: NavGrid, l: number | null): boolean {
  return l !== null && Number.isInteger(l) && l >= 0 && l < grid.layers.length;
}

function num(f: LdtkField | undefined, fallback: number): number | null {
  if (f === undefined || f.value === null) return fallback;
  return typeof f.value === 'number' ? f.value : null;
}

function bool(f: LdtkField | undefined, fallback: boolean): boolean | null {
  if (f === undefined || f.value === null) return fallback;
  return typeof f.value === 'boolean' ? f.value : null;
}
