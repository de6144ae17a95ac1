import { TilenavError, MOVEMENT_NAMES, type SearchAlgorithm } from '../index.js';
import { MAP_FORMATS } from './io.js';

/**
 * One command-line flag. Every flag is written `--name value` or `--name=value` (booleans take no
 * value); the spec is both the parser's rule and the `--help` line, so the two cannot disagree.
 */
export interface Flag {
  /** `boolean` takes no value; `number` is checked against min/max/integer; `point` is x,y. */
  readonly kind: 'boolean' | 'string' | 'number' | 'point';
  /** What the value looks like in help (`x,y`, `N`, `FILE`). @default the kind's own */
  readonly value?: string;
  /** Shown as "(default: ...)"; the command applies it, the parser does not. */
  readonly default?: string;
  /** The only values accepted, listed in help and in the error for any other. */
  readonly choices?: readonly string[];
  /** Inclusive bounds of a `number`. */
  readonly min?: number;
  /** An exclusive lower bound of a `number` (`above: 0` for a positive scale). */
  readonly above?: number;
  readonly max?: number;
  /** A `number` must be a whole number, written in digits (`1e2`, `1.0` and `0x10` are refused). */
  readonly integer?: boolean;
  /** The command refuses to run without it. */
  readonly required?: boolean;
  /** One short line for `--help`. */
  readonly description: string;
}

/** A subcommand as the parser and `--help` see it. */
export interface CommandSpec {
  /** One line for `tilenav --help`. */
  readonly summary: string;
  /** The positional arguments, as help shows them (`MAP SCEN`); their number is checked. */
  readonly args: readonly string[];
  readonly flags: Readonly<Record<string, Flag>>;
}

type FlagValue<F extends Flag> = F['kind'] extends 'boolean' ? boolean : F['kind'] extends 'number' ? number : F['kind'] extends 'point' ? [number, number] : string;
export type FlagValues<T extends Record<string, Flag>> = { [K in keyof T]: FlagValue<T[K]> | undefined };

/** What {@link parseCommand} found: the checked flag values and the positionals. */
export interface Parsed<T extends Record<string, Flag>> {
  values: FlagValues<T>;
  positionals: string[];
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
/** Whole-number flags take digits alone (a sign allowed): `1e2`, `1.0` and `0x10` are refused alike, not read as 100, 1 and 16. */
const INTEGER = /^[+-]?\d+$/;

/**
 * Parses a command's arguments against its spec. Every problem is a one-line TilenavError naming
 * the flag: an unknown flag (with the nearest known one), a missing value, a value outside the
 * choices (repeated with the valid ones), a number that is not finite or out of range, the wrong
 * number of positionals. (`--help` is main's: it never reaches here.) A value may start with `-`
 * (`--from -1,4`) unless it is itself one of the command's flags. `--` ends the flags.
 */
export function parseCommand<T extends Record<string, Flag>>(command: string, spec: CommandSpec & { flags: T }, args: readonly string[]): Parsed<T> {
  const values: Record<string, unknown> = {};
  const positionals: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const arg = args[k];
    if (arg === '--') {
      positionals.push(...args.slice(k + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') ? arg.slice(2, eq < 0 ? undefined : eq) : arg;
    const flag = arg.startsWith('--') && Object.hasOwn(spec.flags, name) ? spec.flags[name] : undefined;
    if (flag === undefined) {
      const near = arg.startsWith('--') ? suggest(name, Object.keys(spec.flags)) : shortFlag(arg, Object.keys(spec.flags));
      throw new TilenavError(`unknown flag ${quote(arg.slice(0, eq < 0 ? undefined : eq))}${near ? `; did you mean '--${near}'?` : `; see tilenav ${command} --help`}`);
    }
    const element = `--${name}`;
    if (flag.kind === 'boolean') {
      if (eq >= 0) throw new TilenavError(`takes no value, got ${quote(arg.slice(eq + 1))}`, { element });
      values[name] = true;
      continue;
    }
    let raw: string;
    if (eq >= 0) raw = arg.slice(eq + 1);
    else {
      const next = args[k + 1];
      if (next === undefined || (next.startsWith('--') && Object.hasOwn(spec.flags, next.slice(2).split('=')[0])) || next === '--') {
        throw new TilenavError(`needs a value (${placeholder(flag)})`, { element });
      }
      raw = next;
      k++;
    }
    values[name] = checkValue(flag, raw, element);
  }
  // The map first: `tilenav path` alone should ask for MAP, not for --from.
  if (positionals.length !== spec.args.length) {
    const want = spec.args.length === 1 ? `one ${spec.args[0]}` : spec.args.join(' and ');
    throw new TilenavError(`expected ${want}, got ${positionals.length === 0 ? 'none' : positionals.map(quote).join(' ')}; usage: ${usageLine(command, spec)}`, { element: 'arguments' });
  }
  for (const [name, flag] of Object.entries(spec.flags)) {
    if (flag.required && values[name] === undefined) throw new TilenavError(`is required (${placeholder(flag)}); ${flag.description}`, { element: `--${name}` });
  }
  return { values: values as FlagValues<T>, positionals };
}

function checkValue(flag: Flag, raw: string, element: string): unknown {
  if (flag.choices !== undefined && !flag.choices.includes(raw)) {
    const near = suggest(raw, flag.choices);
    throw new TilenavError(`unknown value ${quote(raw)}; expected one of ${flag.choices.join(', ')}${near ? ` (did you mean '${near}'?)` : ''}`, { element });
  }
  if (flag.kind === 'point') {
    const m = /^\s*(-?\d+)\s*,\s*(-?\d+)\s*$/.exec(raw);
    if (!m) throw new TilenavError(`expected x,y with two whole numbers (e.g. 3,4), got ${quote(raw)}`, { element });
    return [Number(m[1]), Number(m[2])];
  }
  if (flag.kind === 'number') {
    const v = Number(raw);
    const range = rangeText(flag);
    if (!(flag.integer ? INTEGER : NUMBER).test(raw.trim()) || !Number.isFinite(v)) throw new TilenavError(`expected ${range}, got ${quote(raw)}`, { element });
    if ((flag.integer && !Number.isInteger(v)) || (flag.min !== undefined && v < flag.min) || (flag.above !== undefined && !(v > flag.above)) || (flag.max !== undefined && v > flag.max)) {
      throw new TilenavError(`expected ${range}, got ${quote(raw)}`, { element });
    }
    return v;
  }
  if (raw === '') throw new TilenavError(`needs a value (${placeholder(flag)}), got an empty string`, { element });
  return raw;
}

function rangeText(flag: Flag): string {
  const what = flag.integer ? 'a whole number' : 'a number';
  if (flag.min !== undefined && flag.max !== undefined) return `${what} ${flag.min}..${flag.max}`;
  if (flag.min !== undefined) return `${what} >= ${flag.min}`;
  if (flag.above !== undefined) return `${what} > ${flag.above}`;
  if (flag.max !== undefined) return `${what} <= ${flag.max}`;
  return what;
}

function placeholder(flag: Flag): string {
  if (flag.value !== undefined) return flag.value;
  if (flag.choices !== undefined) return flag.choices.join('|');
  return flag.kind === 'point' ? 'x,y' : flag.kind === 'number' ? 'N' : 'VALUE';
}

const quote = (s: string): string => `'${s.length > 60 ? s.slice(0, 57) + '...' : s}'`;

/** The one-line usage of a command: its positionals, its required flags, then `[options]`. */
export function usageLine(command: string, spec: CommandSpec): string {
  const required = Object.entries(spec.flags)
    .filter(([, f]) => f.required)
    .map(([n, f]) => `--${n} ${placeholder(f)}`);
  return ['tilenav', command, ...spec.args, ...required, '[options]'].join(' ');
}

/** `tilenav COMMAND --help`: the usage, the summary, and every flag with its value, default and use. */
export function commandHelp(command: string, spec: CommandSpec): string {
  const rows = Object.entries(spec.flags).map(([name, f]) => {
    const left = `--${name}${f.kind === 'boolean' ? '' : ` ${placeholder(f)}`}`;
    const listed = f.choices === undefined || f.choices.every((c) => f.description.includes(c)) || placeholder(f) === f.choices.join('|');
    const notes = [listed ? undefined : `one of ${f.choices!.join(', ')}`, f.required ? 'required' : undefined, f.default !== undefined ? `default: ${f.default}` : undefined].filter((s) => s !== undefined);
    return [left, `${f.description}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`];
  });
  rows.push(['-h, --help', 'show this help']);
  const width = Math.max(...rows.map(([l]) => l.length)) + 2;
  return [`usage: ${usageLine(command, spec)}`, '', spec.summary, '', 'options:', ...rows.map(([l, r]) => `  ${l.padEnd(width)}${r}`)].join('\n');
}

/**
 * The candidate closest to `word` by edit distance, when close enough to be a likely typo (at most
 * a third of the word's letters, at least one) or when `word` is a prefix of exactly one; else
 * undefined. A single slip (one letter wrong, missing, extra, or two swapped) wins over a prefix:
 * `--form` means `--from`, not `--format`.
 */
export function suggest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  const slips = candidates.filter((c) => editDistance(w, c.toLowerCase()) === 1);
  if (slips.length === 1) return slips[0];
  const prefixed = candidates.filter((c) => w.length >= 2 && c.toLowerCase().startsWith(w));
  if (prefixed.length === 1) return prefixed[0];
  let best: string | undefined;
  let bestD = Math.max(1, Math.floor(w.length / 3));
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase());
    if (d <= bestD && (best === undefined || d < bestD)) {
      best = c;
      bestD = d;
    }
  }
  return best;
}

/**
 * The flag a short one such as `-o` means: `--out` for `-o`, else the one flag whose name starts
 * with its letter (the CLI has only long flags); for a word after one dash (`-from`), the nearest flag.
 */
function shortFlag(arg: string, flags: readonly string[]): string | undefined {
  const word = arg.replace(/^-+/, '');
  if (word.length === 1) {
    // `-o` is the output file in most tools.
    if (word === 'o' && flags.includes('out')) return 'out';
    const starting = flags.filter((f) => f.startsWith(word.toLowerCase()));
    return starting.length === 1 ? starting[0] : undefined;
  }
  return suggest(word, flags);
}

/** Levenshtein distance with adjacent transpositions counted as one edit. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return 99;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) rows[i].push(j);
      else {
        let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
        rows[i].push(d);
      }
    }
  }
  return rows[a.length][b.length];
}

/** A `--layer` value: a whole number is an index, anything else a layer name. */
export function layerArg(value: string | undefined): number | string {
  return value === undefined ? 0 : /^\d+$/.test(value) ? Number(value) : value;
}

/** The search algorithms `path` and `scen` take; `auto` (JPS where it applies, else A*) is the default everywhere. */
export const ALGORITHM_NAMES: readonly SearchAlgorithm[] = ['auto', 'astar', 'jps', 'jps+', 'hpa', 'subgoal'];

/** Flags several commands share, spelled and described once. */
export const COMMON_FLAGS = {
  format: { kind: 'string', value: 'F', choices: Object.keys(MAP_FORMATS), description: "the map's format when its extension does not say", default: 'by extension' },
  layer: { kind: 'string', value: 'L', default: '0', description: 'layer index or name' },
  movement: { kind: 'string', value: 'M', choices: MOVEMENT_NAMES, description: 'movement model' },
  algorithm: {
    kind: 'string',
    value: 'A',
    choices: ALGORITHM_NAMES,
    default: 'auto',
    description: 'search: auto (JPS where it applies, else A*), astar, jps, jps+ (octile, uniform cost), hpa (near-optimal hierarchy), subgoal (subgoal graph: octile, uniform cost, built once)',
  },
  rules: { kind: 'string', value: 'FILE', description: 'collision rules for a Tiled map or an LDtk project (JSON: tiles, layers or IntGrid values that block, bridges, terrain, cost)' },
  level: { kind: 'string', value: 'NAME', default: 'the stitched world, else the first level', description: "an LDtk project's level, or world (world:DEPTH, world:NAME) for its levels stitched" },
  json: { kind: 'boolean', description: 'print one JSON line instead of text' },
  from: { kind: 'point', description: 'start cell' },
  to: { kind: 'point', description: 'goal cell' },
} as const satisfies Record<string, Flag>;
