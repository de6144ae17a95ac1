import { writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { TilenavError } from '../../errors.js';
import type { NavGrid } from '../../grid/navgrid.js';
import { Pathfinder } from '../../search/pathfinder.js';
import type { PathResult } from '../../search/result.js';
import { movementModel, type MovementName } from '../../search/movement.js';
import { movementFor } from '../../render/overlay.js';
import { renderOverlayImage, type OverlayImageOptions } from '../../render/raster.js';
import { loadMap, parse, parsePoint, type CliIo } from '../io.js';

export const usage = 'tilenav render MAP --out map.png [--from x,y --to x,y] [--layer L] [--movement M] [--scale S] [--format F]';

export interface RenderPngOptions extends Omit<OverlayImageOptions, 'path' | 'expanded' | 'start' | 'goal'> {
  from?: [number, number];
  to?: [number, number];
  /** @default movementFor(grid.projection) */
  movement?: MovementName;
}

/**
 * The overlay picture of a grid as PNG bytes, with the path from `from` to `to` and the cells
 * its search expanded when both are given. Returns the search result too (null without a query).
 */
export function renderPng(grid: NavGrid, options: RenderPngOptions = {}): { png: Buffer; width: number; height: number; scale: number; result: PathResult | null } {
  const layer = grid.layerIndex(options.layer ?? 0);
  let result: PathResult | null = null;
  let expanded: Uint8Array | undefined;
  const { from, to } = options;
  if ((from === undefined) !== (to === undefined)) throw new TilenavError('give both --from and --to, or neither', { element: from === undefined ? '--from' : '--to' });
  if (from !== undefined && to !== undefined) {
    for (const [p, flag] of [[from, '--from'], [to, '--to']] as const) {
      if (!grid.inBounds(p[0], p[1])) throw new TilenavError(`(${p[0]}, ${p[1]}) is outside the ${grid.width} x ${grid.height} map`, { element: flag });
    }
    const finder = new Pathfinder(grid);
    result = finder.findPath(from[0], from[1], to[0], to[1], { layer, movement: options.movement ?? movementFor(grid.projection) });
    expanded = new Uint8Array(grid.size);
    finder.expandedInto(expanded);
  }
  const img = renderOverlayImage(grid, {
    ...options,
    layer,
    path: result?.cells,
    expanded,
    start: from && from[1] * grid.width + from[0],
    goal: to && to[1] * grid.width + to[0],
  });
  const png = new PNG({ width: img.width, height: img.height });
  png.data = Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength);
  return { png: PNG.sync.write(png), width: img.width, height: img.height, scale: img.scale, result };
}

/** `tilenav render`: the seed 003 debug overlay, path and expanded cells as a PNG. */
export function renderCommand(args: string[], io: CliIo): number {
  const { values, positionals } = parse(args, {
    from: { type: 'string' },
    to: { type: 'string' },
    layer: { type: 'string' },
    movement: { type: 'string' },
    scale: { type: 'string' },
    format: { type: 'string' },
    out: { type: 'string' },
  });
  if (positionals.length !== 1) throw new TilenavError(`expected one map file, got ${positionals.length}; usage: ${usage}`, { element: 'arguments' });
  if (values.out === undefined) throw new TilenavError('is required: the PNG file to write', { element: '--out' });
  const scale = values.scale === undefined ? undefined : Number(values.scale);
  if (scale !== undefined && !(scale > 0 && Number.isFinite(scale))) throw new TilenavError(`expected a number > 0, got ${JSON.stringify(values.scale)}`, { element: '--scale' });
  const from = values.from === undefined ? undefined : parsePoint(values.from, '--from');
  const to = values.to === undefined ? undefined : parsePoint(values.to, '--to');
  const movement = values.movement === undefined ? undefined : (movementModel(values.movement).name as MovementName);
  const { grid } = loadMap(positionals[0], values.format);
  const layer = values.layer === undefined ? 0 : /^\d+$/.test(values.layer) ? Number(values.layer) : values.layer;
  const r = renderPng(grid, { layer, from, to, movement, scale });
  try {
    writeFileSync(values.out, r.png);
  } catch (e) {
    throw new TilenavError(`cannot write the picture (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, { file: values.out });
  }
  const q = r.result === null ? '' : r.result.status === 'found' ? `  path cost ${r.result.cost.toFixed(4)}, expanded ${r.result.expanded}` : `  ${r.result.status}, expanded ${r.result.expanded}`;
  io.out(`wrote ${values.out}: ${r.width} x ${r.height} px (${r.scale} px per cell unit)${q}`);
  return 0;
}
