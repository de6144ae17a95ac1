import { TilenavError } from '../../errors.js';
import { loadMap, parse, type CliIo } from '../io.js';

export const usage = 'tilenav info MAP [--format F] [--json]';

/** `tilenav info`: size, projection, and walkable / blocked cells per layer. */
export function infoCommand(args: string[], io: CliIo): number {
  const { values, positionals } = parse(args, { format: { type: 'string' }, json: { type: 'boolean' } });
  if (positionals.length !== 1) throw new TilenavError(`expected one map file; usage: ${usage}`, { element: 'arguments' });
  const { grid, format, warnings, movement } = loadMap(positionals[0], values.format);
  const layers = grid.stats().map((s) => ({ ...s, walkablePercent: pct(s.walkable, s.total), blockedPercent: pct(s.blocked, s.total) }));
  const info = { file: positionals[0], format, width: grid.width, height: grid.height, cells: grid.size, projection: grid.projection.spec.kind, projectionSpec: grid.projection.spec, movement, layers, warnings };
  if (values.json) {
    io.out(JSON.stringify(info));
    return 0;
  }
  io.out(`${info.file}: ${format}, ${grid.width} x ${grid.height} (${grid.size} cells), ${info.projection} projection${movement ? `, ${movement} movement` : ''}`);
  for (const l of layers) io.out(`  layer ${JSON.stringify(l.name)}: ${l.walkable} walkable (${l.walkablePercent}%), ${l.blocked} blocked (${l.blockedPercent}%)`);
  for (const w of warnings) io.out(`  warning: ${w}`);
  return 0;
}

function pct(part: number, total: number): number {
  return total === 0 ? 0 : Math.round((part / total) * 1000) / 10;
}
