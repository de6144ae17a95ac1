/** The page's fixed parts: the searches and smoothing modes offered, the legend, the tool hints. */
import { movementModel, type FindPathOptions, type MovementName, type Pathfinder, type PathResult } from 'tilenav';
import { canSmooth } from 'tilenav/path';
import { OVERLAY_COLORS, OVERLAY_COST_BANDS } from 'tilenav/render';
import { ORDER_COLOR, SMOOTHED_COLOR } from './view.js';

/**
 * Search algorithms the page offers, one line per FindPathOptions.algorithm (Dijkstra is A* with
 * weight 0). `movements` lists the models a strict one runs with (absent: every model); the page
 * disables it for the others. The strict ones also refuse some layers (terrain costs for JPS+,
 * one-way flags) and weights: the page shows their message as the query's status.
 */
export const ALGORITHMS: Record<string, { label: string; movements?: readonly MovementName[]; run(f: Pathfinder, sx: number, sy: number, gx: number, gy: number, o: FindPathOptions): PathResult }> = {
  astar: { label: 'A*', run: (f, sx, sy, gx, gy, o) => f.findPath(sx, sy, gx, gy, { ...o, algorithm: 'astar' }) },
  dijkstra: { label: 'Dijkstra', run: (f, sx, sy, gx, gy, o) => f.findPath(sx, sy, gx, gy, { ...o, weight: 0, algorithm: 'astar' }) },
  // 'auto' rather than 'jps': hex movement, one-way flags and weighted cardinal layers go to A*.
  jps: { label: 'Jump point search (auto)', run: (f, sx, sy, gx, gy, o) => f.findPath(sx, sy, gx, gy, { ...o, algorithm: 'auto' }) },
  jpsStrict: { label: 'JPS (octile or cardinal)', movements: ['octile', 'cardinal'], run: (f, sx, sy, gx, gy, o) => f.findPath(sx, sy, gx, gy, { ...o, algorithm: 'jps' }) },
  jpsPlus: { label: 'JPS+ (octile, uniform cost)', movements: ['octile'], run: (f, sx, sy, gx, gy, o) => f.findPath(sx, sy, gx, gy, { ...o, algorithm: 'jps+' }) },
  hpa: { label: 'Hierarchy (HPA*, near-optimal)', movements: ['octile', 'cardinal'], run: (f, sx, sy, gx, gy, o) => f.findPath(sx, sy, gx, gy, { ...o, algorithm: 'hpa' }) },
};

/** The algorithm the page falls back to when the chosen one does not apply: the library's default. */
export const FALLBACK_ALGORITHM = 'jps';

/** Why algorithm `id` cannot search with `movement` ('needs ... movement'), or '' when it can. */
export function algorithmRefusal(id: string, movement: MovementName): string {
  const needs = ALGORITHMS[id]?.movements;
  return needs === undefined || needs.includes(movement) ? '' : `needs ${needs.map((m) => `'${m}'`).join(' or ')} movement, not '${movement}'`;
}

/** Path smoothing modes: the grid path as is, string pulled (smoothPath), or any-angle (Theta*, octile only). */
export const SMOOTHING: Record<string, string> = { none: 'none', string: 'string pulling', anyangle: 'any-angle (octile)' };

/** Why smoothing mode `id` does not apply to paths of `movement`, or '' when it does (the rules of smoothPath and findAnyAnglePath). */
export function smoothingRefusal(id: string, movement: MovementName): string {
  // Hexagonal and staggered cell coordinates are not the map's geometry (every other row is
  // shifted by half a cell): the library does not string-pull their paths.
  const heuristic = movementModel(movement).heuristic;
  if (id === 'string' && !canSmooth(movement)) return `needs square or isometric movement, not '${movement}' (${heuristic === 'hex' ? 'hex' : 'staggered'} paths have no straight segments)`;
  if (id === 'anyangle' && movement !== 'octile') return `needs 'octile' movement, not '${movement}'`;
  return '';
}

export interface Smoothed {
  /** Waypoints [x0, y0, ...] in cell coordinates, or null when the mode does not apply. */
  points: Float64Array | null;
  length: number;
  /** Why there is no polyline (e.g. any-angle on a non-octile model). */
  note: string;
}

/** Adds an option to a select (or an optgroup). */
export function option(sel: HTMLSelectElement | HTMLOptGroupElement, value: string, label: string): void {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = label;
  sel.append(o);
}

const rgb = (c: readonly number[]) => `rgb(${c.join(',')})`;

/** Every colour the view draws, named. */
export const LEGEND_HTML = [
  [rgb(OVERLAY_COLORS.normal), `walkable, cost <= ${OVERLAY_COST_BANDS.normal}`],
  [rgb(OVERLAY_COLORS.slow), `slow, cost <= ${OVERLAY_COST_BANDS.slow}`],
  [rgb(OVERLAY_COLORS.verySlow), `very slow, cost > ${OVERLAY_COST_BANDS.slow}`],
  [rgb(OVERLAY_COLORS.blocked), 'blocked'],
  [rgb(OVERLAY_COLORS.expanded), 'expanded (searched)'],
  [rgb(OVERLAY_COLORS.open), 'open list (frontier)'],
  [rgb(OVERLAY_COLORS.path), 'path'],
  [rgb(OVERLAY_COLORS.start), 'start'],
  [rgb(OVERLAY_COLORS.goal), 'goal'],
  [SMOOTHED_COLOR, 'smoothed path'],
  ['#e8e8f0', 'unit'],
  ['#4cf', 'selected unit'],
  ['rgba(255,255,255,0.35)', "unit's route"],
  [ORDER_COLOR, 'units sent here (ring)'],
  [rgb(OVERLAY_COLORS.background), 'outside the map'],
]
  .map(([c, t]) => `<div><span style="background:${c}"></span>${t}</div>`)
  .join('');

/** What a left click does with `tool` (route, units, wall, erase, terrain:NAME). */
export function hintFor(tool: string): string {
  if (tool === 'route') return 'Click a walkable cell: the first click sets the start, the next the goal. Drag a marker to move it. Right-drag pans, the wheel zooms.';
  if (tool === 'units') return 'Click or drag a box to select units; right-click a cell to send them there in formation (a ring marks it); shift-click adds one unit.';
  if (tool === 'wall') return 'Click or drag to paint walls with the brush; the path updates as you paint.';
  if (tool === 'tile-rule') return 'Click a cell: the rule chosen under Tiles goes to the tile drawn there (the topmost), on every cell showing it.';
  if (tool === 'erase') return 'Click or drag to paint plain ground (cost 1) over walls and terrain.';
  return `Click or drag to paint ${tool.slice(8)} with the brush; its cost counts for the path.`;
}
