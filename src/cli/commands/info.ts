import { COMMON_FLAGS, parseCommand, type CommandSpec } from '../flags.js';
import { loadMap, type CliIo } from '../io.js';
import { checkInput } from '../output.js';

export const spec = {
  summary: "a map's size, format, projection and walkable / blocked cells per layer",
  args: ['MAP'],
  flags: { format: COMMON_FLAGS.format, rules: COMMON_FLAGS.rules, level: COMMON_FLAGS.level, json: COMMON_FLAGS.json },
} as const satisfies CommandSpec;

/** `tilenav info`: size, projection, and walkable / blocked cells per layer. */
export function infoCommand(args: string[], io: CliIo): number {
  const { values, positionals } = parseCommand('info', spec, args);
  for (const file of positionals) checkInput(file);
  // info lists the warnings in its own report (and in --json), so they are not also sent to stderr.
  const { grid, format, warnings, movement, contents } = loadMap(positionals[0], values.format, values.rules, null, values.level);
  const layers = grid.stats().map((s) => ({ ...s, walkablePercent: pct(s.walkable, s.total), blockedPercent: pct(s.blocked, s.total) }));
  const info = { file: positionals[0], format, width: grid.width, height: grid.height, cells: grid.size, projection: grid.projection.spec.kind, projectionSpec: grid.projection.spec, movement, layers, warnings, ...(contents === undefined ? {} : { contents }) };
  if (values.json) {
    io.out(JSON.stringify(info));
    return 0;
  }
  io.out(`${info.file}: ${format}, ${grid.width} x ${grid.height} (${grid.size} cells), ${info.projection} projection${movement ? `, ${movement} movement` : ''}`);
  for (const l of layers) io.out(`  layer ${JSON.stringify(l.name)}: ${l.walkable} walkable (${l.walkablePercent}%), ${l.blocked} blocked (${l.blockedPercent}%)`);
  for (const c of contents ?? []) io.out(`  ${c}`);
  for (const w of warnings) io.out(`  warning: ${w}`);
  return 0;
}

function pct(part: number, total: number): number {
  return total === 0 ? 0 : Math.round((part / total) * 1000) / 10;
}
