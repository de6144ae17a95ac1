import { TilenavError } from '../../errors.js';
import { Pathfinder } from '../../search/pathfinder.js';
import type { PathResult } from '../../search/result.js';
import { ClearanceMap } from '../../query/clearance.js';
import { findAnyAnglePath } from '../../path/anyangle.js';
import { movementModel, type MovementName } from '../../search/movement.js';
import { drawAscii } from '../ascii.js';
import { cellsToPoints, smoothPath, polylineLength, toWorldWaypoints } from '../../path/smooth.js';
import { findPathToNearest } from '../../query/navigate.js';
import { loadMap, parse, parsePoint, type CliIo } from '../io.js';

export const usage = 'tilenav path MAP --from x,y --to x,y [--layer L] [--movement M] [--format F] [--smooth | --any-angle] [--nearest] [--radius R] [--world] [--json]';

/** `tilenav path`: one query, its cost and the path drawn on the map. */
export function pathCommand(args: string[], io: CliIo): number {
  const { values, positionals } = parse(args, {
    from: { type: 'string' },
    to: { type: 'string' },
    layer: { type: 'string' },
    movement: { type: 'string' },
    format: { type: 'string' },
    json: { type: 'boolean' },
    smooth: { type: 'boolean' },
    nearest: { type: 'boolean' },
    world: { type: 'boolean' },
    radius: { type: 'string' },
    'any-angle': { type: 'boolean' },
  });
  if (positionals.length !== 1) throw new TilenavError(`expected one map file, got ${positionals.length}; usage: ${usage}`, { element: 'arguments' });
  const from = parsePoint(values.from, '--from');
  const to = parsePoint(values.to, '--to');
  const loaded = loadMap(positionals[0], values.format);
  const { grid } = loaded;
  // A hexagonal or staggered map's cells only make sense with its own neighbours.
  const movement = movementModel(values.movement ?? loaded.movement ?? 'octile').name as MovementName;
  const layer = grid.layerIndex(values.layer === undefined ? 0 : /^\d+$/.test(values.layer) ? Number(values.layer) : values.layer);
  for (const [p, flag] of [[from, '--from'], [to, '--to']] as const) {
    if (!grid.inBounds(p[0], p[1])) throw new TilenavError(`(${p[0]}, ${p[1]}) is outside the ${grid.width} x ${grid.height} map`, { element: flag });
  }
  const radius = values.radius === undefined ? 0 : Number(values.radius);
  if (!Number.isFinite(radius) || radius < 0) throw new TilenavError(`expected a unit radius >= 0 in world units, got ${JSON.stringify(values.radius)}`, { element: '--radius' });
  if (values['any-angle'] && (values.nearest || movement !== 'octile')) throw new TilenavError('--any-angle runs Theta* on the octile grid; it does not combine with --nearest or another --movement', { element: '--any-angle' });
  const clearance = radius > 0 ? new ClearanceMap(grid, { layer, maxClearance: 255 }) : null;
  const view = clearance?.view(radius);
  const finder = new Pathfinder(grid);
  const t0 = performance.now();
  let r: PathResult;
  let pts: Float64Array | null = null;
  if (values['any-angle']) {
    const a = findAnyAnglePath(grid, from[0], from[1], to[0], to[1], { layer, view });
    pts = a.points;
    const pc: number[] = [];
    for (let k = 0; k < pts.length; k += 2) pc.push(pts[k + 1] * grid.width + pts[k]);
    r = { status: a.status, cells: Int32Array.from(pc), cost: a.cost, expanded: a.expanded };
  } else if (values.nearest) {
    r = findPathToNearest(grid, from[0], from[1], to[0], to[1], { layer, movement, hooks: clearance?.hooks(radius) });
  } else {
    r = finder.search(from[0], from[1], to[0], to[1], { layer, movement, view });
  }
  const ok = r.status === 'found' || r.status === 'partial';
  // Waypoints: any-angle's own, smoothed (--smooth), or every cell centre (--world alone).
  if (ok && pts === null && (values.smooth || values.world)) pts = values.smooth ? smoothPath(grid, r.cells, { layer, movement, view }) : cellsToPoints(grid, r.cells);
  if (!ok) pts = null;
  const withWaypoints = values.smooth || values['any-angle'];
  const micros = Math.round((performance.now() - t0) * 1000);
  const cells = Array.from(r.cells, (i) => [grid.xOf(i), grid.yOf(i)]);
  const waypoints: number[][] = [];
  if (pts !== null) for (let k = 0; k < pts.length; k += 2) waypoints.push([pts[k], pts[k + 1]]);
  const world = pts !== null && values.world ? toWorldWaypoints(grid, pts, { layer, movement, view }).map((p) => [p.x, p.y, p.z]) : null;
  const length = pts !== null ? polylineLength(pts) : null;
  if (!values.json) {
    io.out(`status: ${r.status}`);
    if (ok) io.out(`cost: ${r.cost.toFixed(4)}  steps: ${cells.length - 1}  expanded: ${r.expanded}  time: ${micros} us`);
    else io.out(`expanded: ${r.expanded}  time: ${micros} us`);
    const art = drawAscii(grid, layer, r.cells, from, to, Math.max(20, (io.columns ?? 120) - 1), 60);
    if (art) for (const row of art) io.out(row);
    if (ok) io.out(`path: ${cells.map(([x, y]) => `${x},${y}`).join(' ')}`);
    if (withWaypoints && length !== null) io.out(`waypoints: ${waypoints.map(([x, y]) => `${x},${y}`).join(' ')}  length: ${length.toFixed(4)}`);
    if (world !== null) io.out(`world: ${world.map((p) => `(${p.map((v) => +v.toFixed(4)).join(', ')})`).join(' ')}`);
  }
  if (values.json) {
    const out: Record<string, unknown> = { status: r.status, cost: ok ? r.cost : null, cells, expanded: r.expanded, micros, movement };
    if (withWaypoints && length !== null) {
      out.waypoints = waypoints;
      out.length = length;
    }
    if (world !== null) out.world = world;
    io.out(JSON.stringify(out));
  }
  return 0;
}
