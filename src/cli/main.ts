#!/usr/bin/env node
import { TilenavError } from '../errors.js';
import type { CliIo, Command } from './io.js';
import { pathCommand, usage as pathUsage } from './commands/path.js';
import { scenCommand, usage as scenUsage } from './commands/scen.js';
import { infoCommand, usage as infoUsage } from './commands/info.js';
import { convertCommand, usage as convertUsage } from './commands/convert.js';
import { renderCommand, usage as renderUsage } from './commands/render.js';
import { simulateCommand, usage as simulateUsage } from './commands/simulate.js';

/** Subcommands; each later feature adds its own entry. */
export const COMMANDS: Record<string, { run: Command; usage: string }> = {
  path: { run: pathCommand, usage: pathUsage },
  scen: { run: scenCommand, usage: scenUsage },
  info: { run: infoCommand, usage: infoUsage },
  convert: { run: convertCommand, usage: convertUsage },
  render: { run: renderCommand, usage: renderUsage },
  simulate: { run: simulateCommand, usage: simulateUsage },
};

function help(): string {
  return ['usage:', ...Object.values(COMMANDS).map((c) => '  ' + c.usage)].join('\n');
}

/**
 * Runs the CLI and returns the exit code: 0 ok, 1 some answers wrong, 2 bad input (one line on
 * stderr naming the file, line or flag), 3 an internal error.
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(help());
    return name === undefined ? 2 : 0;
  }
  const cmd = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (cmd === undefined) {
    io.err(`tilenav: unknown command ${JSON.stringify(name)}\n${help()}`);
    return 2;
  }
  try {
    return await cmd.run(args, io);
  } catch (e) {
    if (e instanceof TilenavError) {
      io.err(`tilenav ${name}: ${e.message}`);
      return 2;
    }
    io.err(`tilenav ${name}: internal error: ${(e as Error)?.stack ?? String(e)}`);
    return 3;
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
const invokedAsBin = process.argv[1] !== undefined && /tilenav$|main\.(js|ts)$/.test(process.argv[1]);
if (isMain || invokedAsBin) {
  // A closed pipe (`tilenav ... | head`) ends the output quietly.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
  const io: CliIo = {
    out: (line) => process.stdout.write(line + '\n'),
    err: (line) => process.stderr.write(line + '\n'),
    columns: process.stdout.isTTY ? process.stdout.columns : undefined,
    errIsTty: process.stderr.isTTY === true,
  };
  main(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
}
