import { writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { TilenavError } from '../../errors.js';
import type { NavGrid } from '../../grid/navgrid.js';
import { saveGrid, BINARY_EXTENSION } from '../../grid/binary.js';
import { formatMovingAiMap } from '../../loaders/movingai.js';
import { formatTextGrid } from '../../loaders/textgrid.js';
import { loadMap, parse, MAP_FORMATS, type CliIo, type LoadedMap } from '../io.js';

export const usage = 'tilenav convert IN OUT [--format F] [--to binary|txt|movingai] [--layer L]';

/**
 * Writers by output format. Binary keeps everything; txt and movingai keep one layer's
 * walkability and say what they drop. Polygon configs and Tiled maps are sources only: turning
 * cells back into polygons or tiles would invent geometry the grid never had.
 */
const WRITERS: Record<string, { extension: string; write(map: LoadedMap, layer: number): { data: string | Uint8Array; lost: string[] } }> = {
  binary: { extension: BINARY_EXTENSION, write: (map) => ({ data: new Uint8Array(saveGrid(map.grid)), lost: [] }) },
  txt: {
    extension: '.txt',
    write: (map, layer) => {
      const spec = map.grid.projection.spec;
      const square = spec.kind === 'continuous' || (spec.kind === 'orthogonal' && spec.tileWidth === spec.tileHeight);
      const params = square ? { extra: map.meta ?? [] } : { cellSize: 1, extra: map.meta ?? [] };
      return { data: formatTextGrid(map.grid, { params, layer }), lost: [...lostBesideWalkability(map.grid, layer), ...(square ? [] : [`the ${spec.kind} projection (written as cellSize 1)`])] };
    },
  },
  movingai: {
    extension: '.map',
    write: (map, layer) => ({
      data: formatMovingAiMap(map.grid, layer),
      lost: [...lostBesideWalkability(map.grid, layer), ...(map.grid.projection.spec.kind === 'orthogonal' ? [] : [`the ${map.grid.projection.spec.kind} projection`])],
    }),
  },
};

/** Formats that can be read but not written, and why. */
const REFUSED: Record<string, string> = {
  polygon: 'a grid cannot be turned back into polygons; write binary or txt instead',
  tiled: 'tilenav does not write Tiled maps; write binary, txt or movingai instead',
};

/** `tilenav convert`: reads any map format and writes binary, txt or Moving AI. */
export function convertCommand(args: string[], io: CliIo): number {
  const { values, positionals } = parse(args, { format: { type: 'string' }, to: { type: 'string' }, layer: { type: 'string' } });
  if (positionals.length !== 2) throw new TilenavError(`expected IN and OUT files; usage: ${usage}`, { element: 'arguments' });
  const [input, output] = positionals;
  const to = values.to ?? formatOf(output);
  if (Object.hasOwn(REFUSED, to)) throw new TilenavError(`cannot convert to ${to}: ${REFUSED[to]}`, { element: '--to' });
  if (!Object.hasOwn(WRITERS, to)) throw new TilenavError(`unknown output format ${JSON.stringify(to)}; expected ${Object.keys(WRITERS).join(', ')}`, { element: '--to' });
  const map = loadMap(input, values.format);
  const layer = map.grid.layerIndex(values.layer === undefined ? 0 : /^\d+$/.test(values.layer) ? Number(values.layer) : values.layer);
  const { data, lost } = WRITERS[to].write(map, layer);
  try {
    writeFileSync(output, data);
  } catch (e) {
    throw new TilenavError(`cannot write the file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, { file: output });
  }
  io.out(`${input} (${map.format}, ${map.grid.width} x ${map.grid.height}, ${map.grid.layers.length} layer${map.grid.layers.length === 1 ? '' : 's'}) -> ${output} (${to}, ${data.length} bytes)`);
  for (const w of map.warnings) io.err(`warning: ${w}`);
  if (lost.length > 0) io.err(`warning: ${to} keeps only layer "${map.grid.layers[layer].name}"'s walkability; dropped: ${lost.join('; ')}`);
  return 0;
}

function formatOf(path: string): string {
  const ext = extname(path).toLowerCase();
  for (const [name, w] of Object.entries(WRITERS)) if (w.extension === ext) return name;
  for (const [name, f] of Object.entries(MAP_FORMATS)) if (f.extensions.includes(ext)) return name;
  throw new TilenavError(`cannot tell the output format from the extension ${JSON.stringify(ext)}; use --to ${Object.keys(WRITERS).join('|')}`, { file: path });
}

/** What a one-layer walkability format drops from this grid (nothing when there is nothing). */
function lostBesideWalkability(grid: NavGrid, layer: number): string[] {
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
    if (terrain[i] !== 0) terrains = true;
  }
  if (costs || c0 !== 1) lost.push('traversal costs');
  if (flagged) lost.push('flags (safe zones, one-way)');
  if (terrains) lost.push('terrain ids');
  return lost;
}
