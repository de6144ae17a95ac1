import { TilenavError } from '../../errors.js';
import { Pathfinder } from '../../search/astar.js';
import { movementModel, type MovementName } from '../../search/movement.js';
import { drawAscii } from '../ascii.js';
import { loadMap, parse, parsePoint, type CliIo } from '../io.js';

export const usage = 'tilenav path MAP --from x,y --to x,y [--layer L] [--movement M] [--format F] [--json]';

/** `tilenav path`: one query, its cost and the path drawn on the map. */
export function pathCommand(args: string[], io: CliIo): number {
  const { values, positionals } = parse(args, {
    from: { type: 'string' },
    to: { type: 'string' },
    layer: { type: 'string' },
    movement: { type: 'string' },
    format: { type: 'string' },
    json: { type: 'boolean' },
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
  const finder = new Pathfinder(grid);
  const t0 = performance.now();
  const r = finder.findPath(from[0], from[1], to[0], to[1], { layer, movement });
  const micros = Math.round((performance.now() - t0) * 1000);
  const cells = Array.from(r.cells, (i) => [grid.xOf(i), grid.yOf(i)]);
  if (!values.json) {
    io.out(`status: ${r.status}`);
    if (r.status === 'found') io.out(`cost: ${r.cost.toFixed(4)}  steps: ${cells.length - 1}  expanded: ${r.expanded}  time: ${micros} us`);
    else io.out(`expanded: ${r.expanded}  time: ${micros} us`);
    const art = drawAscii(grid, layer, r.cells, from, to, Math.max(20, (io.columns ?? 120) - 1), 60);
    if (art) for (const row of art) io.out(row);
    if (r.status === 'found') io.out(`path: ${cells.map(([x, y]) => `${x},${y}`).join(' ')}`);
  }
  if (values.json) {
    io.out(JSON.stringify({ status: r.status, cost: r.status === 'found' ? r.cost : null, cells, expanded: r.expanded, micros, movement }));
  }
  return 0;
}
