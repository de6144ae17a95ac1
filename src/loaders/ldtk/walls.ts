/**
 * Edge walls declared by LDtk entities: a Wall, Fence or Gate entity (the mapping's
 * `edgeWallEntities`) walls the side(s) of its box its `side` field names, or, without one, the
 * grid line its thin box lies on. Described in docs/formats.md.
 */
import type { EdgeSide, NavGrid } from '../../grid/navgrid.js';
import { sideNamed, wallAlong, wallOnSide, type OuterWalls } from '../edge-walls.js';
import { quote, warn, type Ctx } from '../tiled/model.js';
import type { LdtkEntity, LdtkFieldValue } from './entities.js';

/** Field identifiers (lower case) read as the side(s) a wall entity stands on. */
const SIDE_FIELDS = new Set(['side', 'sides', 'edge', 'edges', 'wall', 'walls']);

/**
 * Puts up on `grid` (whose cells are `cs` pixels) the edge walls of the
 * entities whose identifier is in `names` (lower case), on navigation layer `layer`. A side field
 * naming no side, or a wall entity with neither a side nor a thin box, is left out with a warning;
 * a gate left open puts up nothing.
 */
export function addEntityWalls(ctx: Ctx, grid: NavGrid, entities: readonly LdtkEntity[], names: ReadonlySet<string>, layer: number, cs: number, outer?: OuterWalls): void {
  if (names.size === 0 || layer >= grid.layers.length) return;
  grid.batch(() => {
    for (const e of entities) {
      if (!names.has(e.name.toLowerCase())) continue;
      const name = `entity ${quote(e.name, 40)} (${e.iid})`;
      if (isOpen(e)) continue;
      // Its box in cell units (the pivot point less the pivot's share of the box).
      const x0 = (e.px.x - e.pivot.x * e.width) / cs;
      const y0 = (e.px.y - e.pivot.y * e.height) / cs;
      const w = e.width / cs;
      const h = e.height / cs;
      const field = [...e.fields].find(([k]) => SIDE_FIELDS.has(k.toLowerCase()));
      if (field !== undefined && !(field[1].value === null || (Array.isArray(field[1].value) && field[1].value.length === 0))) {
        const sides = sidesOf(field[1].value);
        if (sides === null) {
          warn(ctx, `${name}: its field ${field[0]} should name sides (N, E, S, W or north, east, south, west, as text, an enum value or a list of them); it puts up no wall`);
          continue;
        }
        // The cells its box covers by more than half (at least its pivot's).
        const cx0 = Math.round(x0);
        const cy0 = Math.round(y0);
        const cw = Math.max(1, Math.round(x0 + w) - cx0);
        const ch = Math.max(1, Math.round(y0 + h) - cy0);
        for (const side of sides) wallOnSide(grid, layer, cx0, cy0, cw, ch, side, outer);
        continue;
      }
      // No side: a thin box along a grid line.
      const thinX = w < 0.5;
      const thinY = h < 0.5;
      const done = thinY && !thinX ? wallAlong(grid, layer, x0, y0 + h / 2, x0 + w, y0 + h / 2, outer) : thinX && !thinY ? wallAlong(grid, layer, x0 + w / 2, y0, x0 + w / 2, y0 + h, outer) : false;
      if (!done) warn(ctx, `${name}: give it a side field (N, E, S, W) or make its box thin along a tile edge (under half a cell across, on the grid line); it puts up no wall`);
    }
  });
}

/** Whether a gate's fields say it is open: a Bool `open` true, or a Bool `closed` false. */
function isOpen(e: LdtkEntity): boolean {
  for (const [k, f] of e.fields) {
    const key = k.toLowerCase();
    if (key === 'open' && f.value === true) return true;
    if (key === 'closed' && f.value === false) return true;
  }
  return false;
}

/** The sides a side field's value names (text, an enum value, or a list of them), or null when one names none. */
function sidesOf(v: LdtkFieldValue): EdgeSide[] | null {
  const list = Array.isArray(v) ? v : [v];
  const out: EdgeSide[] = [];
  for (const item of list) {
    if (typeof item !== 'string') return null;
    for (const part of item.split(/[\s,;|+]+/).filter((p) => p !== '')) {
      const side = sideNamed(part);
      if (side === null) return null;
      out.push(side);
    }
  }
  return out.length > 0 ? out : null;
}
