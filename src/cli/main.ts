#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { TilenavError } from '../index.js';
import { fileErrorReason } from '../loaders/node.js';
import type { CliIo, Command } from './io.js';
import { commandHelp, suggest, type CommandSpec } from './flags.js';
import { pathCommand, spec as pathSpec } from './commands/path.js';
import { scenCommand, spec as scenSpec } from './commands/scen.js';
import { infoCommand, spec as infoSpec } from './commands/info.js';
import { convertCommand, spec as convertSpec } from './commands/convert.js';
import { renderCommand, spec as renderSpec } from './commands/render.js';
import { simulateCommand, spec as simulateSpec } from './commands/simulate.js';

/** Subcommands in the order `tilenav --help` lists them. */
export const COMMANDS: Record<string, { run: Command; spec: CommandSpec }> = {
  path: { run: pathCommand, spec: pathSpec },
  scen: { run: scenCommand, spec: scenSpec },
  info: { run: infoCommand, spec: infoSpec },
  convert: { run: convertCommand, spec: convertSpec },
  render: { run: renderCommand, spec: renderSpec },
  simulate: { run: simulateCommand, spec: simulateSpec },
};

/** Commands people reach for by another name (the library's own words, other tools'), and the one that does it. */
const COMMAND_GUESSES: Readonly<Record<string, string>> = {
  find: 'path',
  findpath: 'path',
  route: 'path',
  search: 'path',
  draw: 'render',
  png: 'render',
  image: 'render',
  show: 'info',
  stats: 'info',
  bench: 'scen',
  benchmark: 'scen',
  scenario: 'scen',
  export: 'convert',
  load: 'info',
  run: 'simulate',
  agents: 'simulate',
  units: 'simulate',
};

/** The package version, read from package.json beside src/ and dist/ alike (both sit one level down). */
export function version(): string {
  try {
    return String(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
  } catch {
    return 'unknown';
  }
}

/** `tilenav --help`: one line per command. */
export function help(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length)) + 2;
  return [
    `tilenav ${version()}: exact pathfinding on tile maps`,
    '',
    'usage: tilenav COMMAND [ARGS] [options]',
    '',
    'commands:',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}${c.spec.summary}`),
    '',
    'options:',
    '  -h, --help     show this help',
    '  -v, --version  print the version',
    '',
    "Run 'tilenav COMMAND --help' for a command's flags and their defaults.",
  ].join('\n');
}

/**
 * Runs the CLI and returns the exit code: 0 ok, 1 some answers wrong, 2 bad input (one line on
 * stderr naming the file, line or flag), 3 an internal error. No arguments prints the usage to
 * stderr (exit 2); `--help` prints it to stdout (exit 0).
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) {
    io.err(help());
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? args[0] : undefined;
    if (topic !== undefined && Object.hasOwn(COMMANDS, topic)) io.out(commandHelp(topic, COMMANDS[topic].spec));
    else io.out(help());
    return 0;
  }
  if (name === '--version' || name === '-v' || name === '-V') {
    io.out(version());
    return 0;
  }
  const cmd = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (cmd === undefined) {
    // A near name: a command's, or another name for one (`find`, `fnd`: path).
    const guess = suggest(name, [...Object.keys(COMMANDS), ...Object.keys(COMMAND_GUESSES)]);
    const near = guess === undefined ? undefined : COMMAND_GUESSES[guess] ?? guess;
    const what = name.startsWith('-') ? 'option' : 'command';
    io.err(`tilenav: unknown ${what} '${name}'; ${near ? `did you mean '${near}'?` : `expected one of ${Object.keys(COMMANDS).join(', ')} (tilenav --help)`}`);
    return 2;
  }
  // `--` ends the flags: a file named --help after it is a file.
  const flags = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  if (flags.includes('--help') || flags.includes('-h')) {
    io.out(commandHelp(name, cmd.spec));
    return 0;
  }
  try {
    return await cmd.run(args, io);
  } catch (e) {
    if (e instanceof TilenavError) {
      io.err(`tilenav ${name}: ${oneLine(e.message)}`);
      return 2;
    }
    // A file-system failure that escaped a command's own checks is still about a file the user named.
    const sys = e as NodeJS.ErrnoException;
    if (typeof sys?.code === 'string' && typeof sys.syscall === 'string') {
      io.err(`tilenav ${name}: ${sys.path !== undefined ? `${oneLine(String(sys.path))}: ` : ''}cannot ${sys.syscall} (${oneLine(fileErrorReason(sys))})`);
      return 2;
    }
    io.err(`tilenav ${name}: internal error: ${(e as Error)?.stack ?? String(e)}`);
    return 3;
  }
}

/** Errors are one line on stderr: a message that quotes a file's text could carry line breaks. */
function oneLine(message: string): string {
  return message.replace(/\s*[\r\n]+\s*/g, ' ');
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
