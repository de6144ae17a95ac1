import { writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { TilenavError, type NavGrid } from '../../index.js';
import { formatBinaryGrid, formatMovingAiMap, formatTextGrid, BINARY_EXTENSION } from '../../loaders/index.js';
import { COMMON_FLAGS, layerArg, parseCommand, type CommandSpec } from '../flags.js';
import { checkInput, checkOutput } from '../output.js';
import { fileErrorReason } from '../../loaders/node.js';
import { loadMap, readText, MAP_FORMATS, type CliIo, type LoadedMap } from '../io.js';

export const spec = {
  summary: 'convert a map to the binary format, a text grid or a Moving AI map, listing anything dropped',
  args: ['IN', 'OUT'],
  flags: {
    to: { kind: 'string', value: 'binary|txt|movingai', default: "by OUT's extension", description: 'output format' },
    format: { ...COMMON_FLAGS.format, description: "IN's format when its extension does not say" },
    rules: COMMON_FLAGS.rules,
    layer: { ...COMMON_FLAGS.layer, description: 'the layer a one-layer format (txt, movingai) keeps' },
    force: { kind: 'boolean', description: 'write over OUT when it exists (never over IN)' },
  },
} as const satisfies CommandSpec;

/**
 * Moving AI terrain characters beside `.` and `@`: the terrain each becomes in a grid (so the
 * binary format keeps it) and the character a Moving AI writer gives that terrain back. `G` and
 * `O` are the format's other spellings of `.` and `@` and become those.
 */
const MOVINGAI_TERRAINS: Record<string, { terrain: string; walkable: boolean; what: string }> = {
  T: { terrain: 'Trees', walkable: false, what: 'trees' },
  W: { terrain: 'Deep water', walkable: false, what: 'water' },
  S: { terrain: 'Swamp', walkable: true, what: 'swamp' },
};

interface Written {
  data: string | Uint8Array;
  /** What the output format could not hold, for the warning. */
  lost: string[];
}

/**
 * Writers by output format. Binary keeps everything; txt and movingai keep one layer's
 * walkability (movingai its T, W and S terrain too) and say what they drop. Polygon configs and
 * Tiled maps are sources only: turning cells back into polygons or tiles would invent geometry the
 * grid never had.
 */
const WRITERS: Record<string, { extension: string; write(map: LoadedMap, layer: number, chars: string | null): Written }> = {
  binary: {
    extension: BINARY_EXTENSION,
    write: (map, _layer, chars) => {
      const lost = chars === null ? [] : spellings(chars);
      if (chars !== null) keepMovingAiTerrain(map.grid, chars);
      return { data: new Uint8Array(formatBinaryGrid(map.grid)), lost };
    },
  },
  txt: {
    extension: '.txt',
    write: (map, layer, chars) => {
      const spec = map.grid.projection.spec;
      const square = spec.kind === 'continuous' || (spec.kind === 'orthogonal' && spec.tileWidth === spec.tileHeight);
      const params = square ? { extra: map.meta ?? [] } : { cellSize: 1, extra: map.meta ?? [] };
      const lost = [...(chars === null ? [] : movingAiTerrainCounts(chars)), ...lostBesideWalkability(map.grid, layer, new Set()), ...(square ? [] : [`the ${spec.kind} projection (written as cellSize 1)`])];
      return { data: formatTextGrid(map.grid, { params, layer }), lost };
    },
  },
  movingai: {
    extension: '.map',
    write: (map, layer, chars) => {
      const { text, kept } = movingAiText(map.grid, layer, chars);
      return { data: text, lost: [...lostBesideWalkability(map.grid, layer, kept), ...(map.grid.projection.spec.kind === 'orthogonal' ? [] : [`the ${map.grid.projection.spec.kind} projection`])] };
    },
  },
};

/** Formats that can be read but not written, and why. */
const REFUSED: Record<string, string> = {
  polygon: 'a grid cannot be turned back into polygons; write binary or txt instead',
  tiled: 'tilenav does not write Tiled maps; write binary, txt or movingai instead',
  ldtk: 'tilenav does not write LDtk projects; write binary, txt or movingai instead',
};

/**
 * `tilenav convert`: reads any map format and writes binary, txt or Moving AI. Refuses to write
 * over IN, and over an existing OUT without --force; what OUT's format cannot hold is listed in
 * one warning line on stderr.
 */
export function convertCommand(args: string[], io: CliIo): number {
  const { values, positionals } = parseCommand('convert', spec, args);
  const [input, output] = positionals;
  checkInput(input);
  checkOutput(output, [input], values.force === true, 'OUT');
  const to = values.to ?? formatOf(output);
  if (Object.hasOwn(REFUSED, to)) throw new TilenavError(`cannot convert to ${to}: ${REFUSED[to]}`, { element: '--to' });
  if (!Object.hasOwn(WRITERS, to)) throw new TilenavError(`unknown output format '${to}'; expected one of ${Object.keys(WRITERS).join(', ')}`, { element: '--to' });
  const map = loadMap(input, values.format, values.rules, io);
  const layer = map.grid.layerIndex(layerArg(values.layer));
  const chars = map.format === 'movingai' ? movingAiCells(readText(input), map.grid) : null;
  const { data, lost } = WRITERS[to].write(map, layer, chars);
  try {
    writeFileSync(output, data);
  } catch (e) {
    throw new TilenavError(`cannot write the file (${fileErrorReason(e)})`, { file: output });
  }
  io.out(`${input} (${map.format}, ${map.grid.width} x ${map.grid.height}, ${map.grid.layers.length} layer${map.grid.layers.length === 1 ? '' : 's'}) -> ${output} (${to}, ${data.length} bytes)`);
  const keeps = to === 'binary' ? 'every layer, cost and terrain' : `only layer "${map.grid.layers[layer].name}"'s walkability`;
  if (lost.length > 0) io.err(`warning: ${to} keeps ${keeps}; dropped: ${lost.join('; ')}`);
  return 0;
}

function formatOf(path: string): string {
  const ext = extname(path).toLowerCase();
  for (const [name, w] of Object.entries(WRITERS)) if (w.extension === ext) return name;
  for (const [name, f] of Object.entries(MAP_FORMATS)) if (f.extensions.includes(ext)) return name;
  throw new TilenavError(`cannot tell the output format from the extension ${JSON.stringify(ext)}; use --to ${Object.keys(WRITERS).join('|')}`, { file: path });
}

/** The terrain character of every cell of a Moving AI map (row-major), read from its text. */
function movingAiCells(text: string, grid: NavGrid): string {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => l.trim() === 'map') + 1;
  let cells = '';
  for (let y = 0; y < grid.height; y++) cells += lines[start + y].slice(0, grid.width);
  return cells;
}

/** How many cells of each Moving AI terrain a walkable/blocked format turns into plain `.`/`@`. */
function movingAiTerrainCounts(chars: string): string[] {
  const counts = new Map<string, number>();
  for (const ch of chars) if (ch !== '.' && ch !== '@') counts.set(ch, (counts.get(ch) ?? 0) + 1);
  const out: string[] = [];
  for (const [ch, t] of Object.entries(MOVINGAI_TERRAINS)) {
    const n = counts.get(ch);
    if (n !== undefined) out.push(`${n} ${ch} (${t.what}) cell${n === 1 ? '' : 's'} written as ${t.walkable ? 'walkable' : 'blocked'}`);
  }
  return [...out, ...spellings(chars)];
}

/** The `G` and `O` cells, which every format but Moving AI writes as `.` and `@`. */
function spellings(chars: string): string[] {
  const out: string[] = [];
  for (const [ch, as] of [['G', 'plain ground (.)'], ['O', 'plain blocked (@)']]) {
    const n = chars.split(ch).length - 1;
    if (n > 0) out.push(`${n} ${ch} cell${n === 1 ? '' : 's'} written as ${as}`);
  }
  return out;
}

/** Gives T, W and S cells their terrain (Trees, Deep water, Swamp) so the binary format keeps them. */
function keepMovingAiTerrain(grid: NavGrid, chars: string): void {
  const ids = new Map<string, number>();
  const terrain = grid.layers[0].terrain;
  for (let i = 0; i < chars.length; i++) {
    const t = MOVINGAI_TERRAINS[chars[i]];
    if (t === undefined) continue;
    let id = ids.get(chars[i]);
    // Cost 1: the Moving AI format has no costs, and the cell's own cost stays as it was read.
    if (id === undefined) ids.set(chars[i], (id = grid.terrain.define(t.terrain, 1, t.walkable)));
    terrain[i] = id;
  }
}

/**
 * A layer as Moving AI text: the source's own characters when it was a Moving AI map, else `.`
 * and `@`, with cells of the Trees, Deep water and Swamp terrains written back as T, W and S.
 * `kept` are the terrain ids the text holds, which the warning then leaves out.
 */
function movingAiText(grid: NavGrid, layer: number, chars: string | null): { text: string; kept: Set<number> } {
  const text = formatMovingAiMap(grid, layer);
  const kept = new Set<number>();
  if (chars !== null) return { text: replaceRows(text, grid, (i) => chars[i]), kept };
  const byId = new Map<number, string>();
  for (const [ch, t] of Object.entries(MOVINGAI_TERRAINS)) {
    if (!grid.terrain.has(t.terrain)) continue;
    const id = grid.terrain.id(t.terrain);
    if (grid.terrain.get(id).walkable === t.walkable) byId.set(id, ch);
  }
  if (byId.size === 0) return { text, kept };
  for (const id of byId.keys()) kept.add(id);
  const { terrain, walkable } = grid.layers[layer];
  const wantWalkable = (ch: string) => MOVINGAI_TERRAINS[ch].walkable;
  return {
    text: replaceRows(text, grid, (i) => {
      const ch = byId.get(terrain[i]);
      return ch !== undefined && (walkable[i] === 1) === wantWalkable(ch) ? ch : undefined;
    }),
    kept,
  };
}

/** The Moving AI text with each cell's character replaced by `at(i)` where that gives one. */
function replaceRows(text: string, grid: NavGrid, at: (i: number) => string | undefined): string {
  const lines = text.split('\n');
  const first = lines.indexOf('map') + 1;
  for (let y = 0; y < grid.height; y++) {
    const row = lines[first + y].split('');
    for (let x = 0; x < grid.width; x++) row[x] = at(y * grid.width + x) ?? row[x];
    lines[first + y] = row.join('');
  }
  return lines.join('\n');
}

/** What a one-layer walkability format drops from this grid; terrain ids in `kept` are written. */
function lostBesideWalkability(grid: NavGrid, layer: number, kept: ReadonlySet<number>): string[] {
  const lost: string[] = [];
  if (grid.layers.length > 1) lost.push(`${grid.layers.length - 1} other layer(s)`);
  const { cost, flags, terrain } = grid.layers[layer];
  const c0 = cost[0];
  let costs = false;
  let flagged = false;
  let terrains = false;
  for (let i = 0; i < grid.size; i++) {
    if (cost[i] !== c0) costs = true;
    if (flags[i] !== 0) flagged = true;
    if (terrain[i] !== 0 && !kept.has(terrain[i])) terrains = true;
  }
  if (costs || c0 !== 1) lost.push('traversal costs');
  if (flagged) lost.push('flags (safe zones, one-way)');
  if (terrains) lost.push('terrain ids');
  return lost;
}
