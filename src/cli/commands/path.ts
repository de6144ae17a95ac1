import { TilenavError, Pathfinder, movementModel, type MovementName, type NavGrid, type SearchAlgorithm } from '../../index.js';
import { clearanceOf } from '../../query/index.js';
import { cellsToPoints, smoothPath, polylineLength, toWorldWaypoints } from '../../path/index.js';
import { drawAscii } from '../ascii.js';
import { COMMON_FLAGS, layerArg, parseCommand, type CommandSpec } from '../flags.js';
import { checkInput } from '../output.js';
import { loadMap, type CliIo } from '../io.js';

export const spec = {
  summary: 'find one path: its status, cost and cells, drawn on the map in text',
  args: ['MAP'],
  flags: {
    from: { ...COMMON_FLAGS.from, required: true },
    to: { ...COMMON_FLAGS.to, required: true },
    algorithm: COMMON_FLAGS.algorithm,
    movement: { ...COMMON_FLAGS.movement, default: "octile, or a Tiled map's own (iso, staggered, hex)" },
    layer: COMMON_FLAGS.layer,
    format: COMMON_FLAGS.format, rules: COMMON_FLAGS.rules, level: COMMON_FLAGS.level,
    smooth: { kind: 'boolean', description: 'add string-pulled waypoints and their length' },
    'any-angle': { kind: 'boolean', description: 'any-angle path (Theta*, square cells only) instead of a cell path' },
    nearest: { kind: 'boolean', description: 'when the goal is out of reach, the path to the reachable cell nearest it (status partial)' },
    radius: { kind: 'number', value: 'R', min: 0, default: '0', description: "the unit's radius in world units: keeps the path that far from walls" },
    world: { kind: 'boolean', description: 'add the waypoints in world coordinates (the map projection)' },
    json: COMMON_FLAGS.json,
  },
} as const satisfies CommandSpec;

/** `tilenav path`: one query, its cost and the path drawn on the map. */
export function pathCommand(args: string[], io: CliIo): number {
  const { values, positionals } = parseCommand('path', spec, args);
  for (const file of positionals) checkInput(file);
  const from = values.from!;
  const to = values.to!;
  const radius = values.radius ?? 0;
  const algorithm = (values.algorithm ?? 'auto') as SearchAlgorithm;
  for (const other of ['any-angle', 'nearest'] as const) {
    if (values[other] && algorithm !== 'auto') throw new TilenavError(`--${other} runs its own search; it does not take --algorithm ${algorithm}`, { element: '--algorithm' });
  }
  const loaded = loadMap(positionals[0], values.format, values.rules, io, values.level);
  const { grid } = loaded;
  // A hexagonal or staggered map's cells only make sense with its own neighbours.
  const movement = movementModel(values.movement ?? loaded.movement ?? 'octile').name as MovementName;
  const layer = grid.layerIndex(layerArg(values.layer));
  for (const [p, flag] of [[from, '--from'], [to, '--to']] as const) {
    if (!grid.inBounds(p[0], p[1])) throw new TilenavError(`(${p[0]}, ${p[1]}) is outside the ${grid.width} x ${grid.height} map`, { element: flag });
  }
  const view = radius > 0 ? clearanceOf(grid, layer, radius).view(radius) : undefined;
  const finder = new Pathfinder(grid);
  const t0 = performance.now();
  const r = finder.findPath(from[0], from[1], to[0], to[1], { layer, movement, algorithm, radius, nearest: values.nearest === true, anyAngle: values['any-angle'] === true });
  let pts: Float64Array | null = r.points;
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
  const reason = whyInvalid(grid, r.status, layer, from, to, radius);
  if (!values.json) {
    io.out(`status: ${r.status}${reason ? ` (${reason})` : ''}`);
    if (ok) io.out(`cost: ${r.cost.toFixed(4)}  steps: ${cells.length - 1}  expanded: ${r.expanded}  time: ${micros} us`);
    else io.out(`expanded: ${r.expanded}  time: ${micros} us`);
    const art = drawAscii(grid, layer, r.cells, from, to, Math.max(20, (io.columns ?? 120) - 1), 60);
    if (art) for (const row of art) io.out(row);
    if (ok) io.out(`path: ${cells.map(([x, y]) => `${x},${y}`).join(' ')}`);
    if (withWaypoints && length !== null) io.out(`waypoints: ${waypoints.map(([x, y]) => `${x},${y}`).join(' ')}  length: ${length.toFixed(4)}`);
    if (world !== null) io.out(`world: ${world.map((p) => `(${p.map((v) => +v.toFixed(4)).join(', ')})`).join(' ')}`);
    return 0;
  }
  const out: Record<string, unknown> = { status: r.status, cost: ok ? r.cost : null, cells, expanded: r.expanded, micros, movement };
  if (reason) out.reason = reason;
  if (withWaypoints && length !== null) {
    out.waypoints = waypoints;
    out.length = length;
  }
  if (world !== null) out.world = world;
  io.out(JSON.stringify(out));
  return 0;
}

/**
 * Why the search refused its start or goal, in words: the cell is blocked, or (with a radius) the
 * cell is open but a unit that wide does not fit there. Undefined for any other status.
 */
function whyInvalid(grid: NavGrid, status: string, layer: number, from: [number, number], to: [number, number], radius: number): string | undefined {
  const end = status === 'invalid-start' ? ['start', from] : status === 'invalid-goal' ? ['goal', to] : null;
  if (end === null) return undefined;
  const [what, [x, y]] = end as [string, [number, number]];
  if (!grid.isWalkable(x, y, layer)) return `the ${what} (${x}, ${y}) is blocked on layer "${grid.layers[layer].name}"`;
  if (radius > 0) return `the ${what} (${x}, ${y}) is walkable, but a unit of radius ${radius} does not fit there`;
  return undefined;
}
