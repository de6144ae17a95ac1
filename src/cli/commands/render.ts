import { readFileSync, writeFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { checkInput, checkOutput } from '../output.js';
import { fileErrorReason } from '../../loaders/node.js';
import { PNG } from 'pngjs';
import { TilenavError, Pathfinder, type NavGrid, type PathResult, type MovementName } from '../../index.js';
import { artImages, drawsBounds, type ArtImage, externalTilesets, gridBounds, keyOut, layerDraws, movementFor, paintTiles, parseTileArt, renderOverlayImage, type LayerDraws, type OverlayImageOptions, type RgbaImage } from '../../render/index.js';
import { COMMON_FLAGS, layerArg, parseCommand, type CommandSpec } from '../flags.js';
import { loadMap, type CliIo } from '../io.js';

export const spec = {
  summary: 'draw the navigation overlay (costs, blocked cells, a path and its search) as a PNG',
  args: ['MAP'],
  flags: {
    out: { kind: 'string', value: 'FILE.png', required: true, description: 'the PNG file to write (only PNG is written)' },
    from: { ...COMMON_FLAGS.from, description: 'start cell of a path to draw (with --to)' },
    to: { ...COMMON_FLAGS.to, description: 'goal cell of a path to draw (with --from)' },
    layer: COMMON_FLAGS.layer,
    movement: { ...COMMON_FLAGS.movement, default: "octile, or a Tiled map's own (iso, staggered, hex)" },
    scale: { kind: 'number', value: 'S', above: 0, default: 'fits the map in 600..8192 px', description: 'pixels per world unit' },
    opacity: { kind: 'number', value: 'O', min: 0, max: 1, default: '0.4 over tiles, else 1', description: "how opaque the cost colours are over a Tiled map's or an LDtk level's tiles" },
    'overlay-only': { kind: 'boolean', description: "draw the overlay alone, without the map's own tiles (Tiled, LDtk)" },
    format: COMMON_FLAGS.format, rules: COMMON_FLAGS.rules, level: COMMON_FLAGS.level,
  },
} as const satisfies CommandSpec;

export interface RenderPngOptions extends Omit<OverlayImageOptions, 'path' | 'expanded' | 'start' | 'goal' | 'underlay' | 'cover'> {
  from?: [number, number];
  to?: [number, number];
  /** @default movementFor(grid.projection) */
  movement?: MovementName;
  /** A Tiled map's tiles to draw under the overlay ({@link readTiles}); the overlay is then 0.4 opaque unless `overlayOpacity` says. */
  tiles?: { draws: LayerDraws[]; images: ReadonlyMap<string, RgbaImage> };
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
  const tiles = options.tiles;
  const img = renderOverlayImage(grid, {
    ...options,
    ...(tiles !== undefined && tiles.draws.length > 0
      ? { cover: drawsBounds(tiles.draws, gridBounds(grid)), underlay: (im) => paintTiles(im, tiles.draws, tiles.images), overlayOpacity: options.overlayOpacity ?? 0.4 }
      : {}),
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

/**
 * A Tiled map's tiles as `render` draws them: its tilesets read beside it, its PNG images decoded
 * (a tileset's transparent colour keyed out). Files that cannot be read or are not PNG are listed
 * in `missing`, and their tiles left out.
 */
export function readTiles(path: string, grid: NavGrid, offset: { x: number; y: number }): { draws: LayerDraws[]; images: Map<string, RgbaImage>; missing: string[] } {
  const text = readFileSync(path, 'utf8');
  const sets = new Map<string, string>();
  for (const p of externalTilesets(text, path)) {
    try {
      sets.set(p, readFileSync(p, 'utf8'));
    } catch {
      // Named below: parseTileArt lists the tilesets it was not given.
    }
  }
  const { art, missing } = parseTileArt(text, path, sets);
  const images = readImages(artImages(art), missing);
  return { draws: layerDraws(art, grid.projection, offset, (d) => images.has(d.image.path)), images, missing };
}

/** Decodes each PNG image once, its `transparent` colour keyed out; one that cannot be read or decoded goes to `missing`. */
function readImages(list: Iterable<ArtImage>, missing: string[]): Map<string, RgbaImage> {
  const images = new Map<string, RgbaImage>();
  for (const im of list) {
    if (images.has(im.path) || missing.includes(im.path)) continue;
    try {
      const png = PNG.sync.read(readFileSync(im.path));
      const rgba = { width: png.width, height: png.height, data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.byteLength) };
      if (im.transparent !== '') keyOut(rgba, im.transparent);
      images.set(im.path, rgba);
    } catch {
      missing.push(im.path);
    }
  }
  return images;
}

/** An LDtk level's or world's tiles (already placed by the loader) with the images they need; tiles of images that cannot be read are left out. */
function readLdtkTiles(all: LayerDraws[]): { draws: LayerDraws[]; images: Map<string, RgbaImage>; missing: string[] } {
  const missing: string[] = [];
  const images = readImages(all.flatMap((l) => l.draws.map((d) => d.image)), missing);
  const draws = all.map((l) => ({ layer: l.layer, draws: l.draws.filter((d) => images.has(d.image.path)) })).filter((l) => l.draws.length > 0);
  return { draws, images, missing };
}

/** `tilenav render`: the debug overlay, path and expanded cells as a PNG (over a Tiled map's own tiles). */
export function renderCommand(args: string[], io: CliIo): number {
  const { values, positionals } = parseCommand('render', spec, args);
  for (const file of positionals) checkInput(file);
  const out = values.out!;
  if (extname(out).toLowerCase() !== '.png') throw new TilenavError(`only PNG pictures are written; give a file name ending in .png, got '${basename(out)}'`, { element: '--out' });
  const { from, to, scale } = values;
  const movement = values.movement as MovementName | undefined;
  // Pictures are redrawn often: an existing PNG is replaced, but never the map itself.
  checkOutput(out, [positionals[0]], true, '--out');
  const loaded = loadMap(positionals[0], values.format, values.rules, io, values.level);
  const { grid } = loaded;
  const layer = layerArg(values.layer);
  const tiles = values['overlay-only'] ? undefined : loaded.tiles !== undefined ? readLdtkTiles(loaded.tiles) : loaded.tileOffset !== undefined ? readTiles(positionals[0], grid, loaded.tileOffset) : undefined;
  for (const m of tiles?.missing ?? []) io.err(`warning: cannot read ${m}; the tiles drawn from it are left out`);
  // The same model `path` walks: the map's own (hexagonal, staggered, isometric Tiled maps).
  const r = renderPng(grid, { layer, from, to, movement: movement ?? (loaded.movement as MovementName | undefined), scale, tiles, overlayOpacity: values.opacity });
  try {
    writeFileSync(out, r.png);
  } catch (e) {
    throw new TilenavError(`cannot write the picture (${fileErrorReason(e)})`, { file: out });
  }
  const q = r.result === null ? '' : r.result.status === 'found' ? `  path cost ${r.result.cost.toFixed(4)}, expanded ${r.result.expanded}` : `  ${r.result.status}, expanded ${r.result.expanded}`;
  const drawn = tiles === undefined ? '' : `, ${tiles.draws.reduce((n, l) => n + l.draws.length, 0)} tiles`;
  io.out(`wrote ${out}: ${r.width} x ${r.height} px (${r.scale} px per world unit)${drawn}${q}`);
  return 0;
}
