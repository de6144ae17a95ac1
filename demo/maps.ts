import { NavGrid, hexagonal, isometric, type MovementName, type Projection } from 'tilenav';
import { mulberry32 } from 'tilenav/query';
import { parsePolygonConfig, parseTiled, parseTiledAsync, parseLdtkAsync, parseMovingAiMap, parseTextGrid, parseBinaryGrid } from 'tilenav/loaders';
import { artImages, externalTilesets, ldtkLayerDraws, movementFor, parseTileArt } from 'tilenav/render';
import arenaText from '../examples/arena.map?raw';
import frontierText from '../examples/frontier.tmx?raw';
import frontierTiles from '../examples/frontier-tiles.png?url';
import { decodeImage, type DemoArt } from './art.js';
import type { TiledSource } from './palette.js';

/** A map ready to show: the grid and the movement model it is meant for. */
export interface DemoMap {
  grid: NavGrid;
  movement: MovementName;
  /** A start and goal to open with (cells), if the map suggests one. */
  start?: [number, number];
  goal?: [number, number];
  /** A Tiled map's own look, once its images are decoded. */
  art?: Promise<DemoArt>;
  /** A Tiled map, to read again with collision rules picked on the page. */
  tiled?: TiledSource;
}

/** A map read from disk: the grid and, when the format says, the movement model it is meant for. */
export interface LoadedMap {
  grid: NavGrid;
  movement?: MovementName;
  art?: Promise<DemoArt>;
  tiled?: TiledSource;
}

/**
 * Readers for "From disk": one line per loader, every format the loaders read. `others` are the
 * other files picked with it (a Tiled map's external tilesets).
 */
export const FILE_LOADERS: { label: string; extensions: string[]; read(file: File, others: readonly File[]): Promise<LoadedMap> }[] = [
  { label: 'Moving AI', extensions: ['.map'], read: async (f) => ({ grid: parseMovingAiMap(await f.text(), { file: f.name }).grid }) },
  { label: 'Tiled', extensions: ['.tmx', '.tmj'], read: readTiled },
  { label: 'LDtk', extensions: ['.ldtk'], read: readLdtk },
  { label: 'Polygon config (JSON)', extensions: ['.json'], read: async (f) => ({ grid: parsePolygonConfig(await f.text(), { file: f.name }).grid }) },
  { label: 'Text grid', extensions: ['.txt'], read: async (f) => ({ grid: parseTextGrid(await f.text(), { file: f.name }).grid }) },
  { label: 'tilenav binary', extensions: ['.tnav'], read: async (f) => ({ grid: parseBinaryGrid(new Uint8Array(await f.arrayBuffer()), { file: f.name }).grid }) },
];

/** Files that may be picked beside a map but are not maps themselves (Tiled's tilesets, LDtk's level files, their images). */
export const COMPANION_EXTENSIONS = ['.tsx', '.tsj', '.ldtkl', '.png', '.gif', '.jpg', '.jpeg', '.webp', '.bmp'];

/** A picked file's path: inside the picked folder when a folder was picked, else its name. */
export const pickedPath = (f: File) => f.webkitRelativePath || f.name;
const baseName = (p: string) => p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);

/**
 * The picked file a map refers to by `path` (joined to the map's folder): the same path inside a
 * picked folder, else the same file name (a browser gives loose files no folders).
 */
function findPicked(files: readonly File[], path: string): File | undefined {
  return files.find((o) => pickedPath(o) === path) ?? files.find((o) => o.name === baseName(path));
}

/**
 * A Tiled map with its tilesets and images looked up among the other picked files. A missing
 * tileset fails with the loader's error naming it; a missing image is named in the art's
 * `missing` (the map shows, those tiles are left out).
 */
async function readTiled(f: File, others: readonly File[]): Promise<LoadedMap> {
  const file = pickedPath(f);
  const bytes = new Uint8Array(await f.arrayBuffer());
  // The files the map needs, kept so the rules palette can read the map again at once.
  const read = new Map<string, Uint8Array>();
  const m = await parseTiledAsync(bytes, {
    file,
    readFile: async (path) => {
      const hit = findPicked(others, path);
      if (hit === undefined) throw new Error(`not among the picked files; pick the map together with ${baseName(path)}`);
      const b = new Uint8Array(await hit.arrayBuffer());
      read.set(path, b);
      return b;
    },
  });
  const tiled: TiledSource = {
    file,
    map: m,
    load: (rules) => parseTiled(bytes, { file, rules, readFile: (p) => read.get(p) ?? new Uint8Array() }),
    tilesetText: async (p) => {
      const b = read.get(p);
      return b === undefined ? null : new TextDecoder().decode(b);
    },
  };
  const text = new TextDecoder().decode(bytes);
  const art = (async (): Promise<DemoArt> => {
    const sets = new Map<string, string>();
    for (const path of externalTilesets(text, file)) {
      const hit = findPicked(others, path);
      if (hit !== undefined) sets.set(path, await hit.text());
    }
    const { art, missing } = parseTileArt(text, file, sets);
    const images = new Map<string, ImageBitmap>();
    for (const img of artImages(art)) {
      const hit = findPicked(others, img.path);
      const bitmap = hit === undefined ? null : await decodeImage(hit, img.transparent);
      if (bitmap === null) missing.push(img.path);
      else images.set(img.path, bitmap);
    }
    return { art, projection: m.projection, offset: m.offset, images, missing: missing.map(baseName) };
  })();
  return { grid: m.grid, movement: m.movement, art, tiled };
}

/**
 * An LDtk project with its level files (.ldtkl) and tileset images looked up among the other
 * picked files: its stitched world when it has one, else its first level, drawn with its tiles.
 */
async function readLdtk(f: File, others: readonly File[]): Promise<LoadedMap> {
  const file = pickedPath(f);
  const p = await parseLdtkAsync(new Uint8Array(await f.arrayBuffer()), {
    file,
    readFile: async (path) => {
      const hit = findPicked(others, path);
      if (hit === undefined) throw new Error(`not among the picked files; pick the project together with ${baseName(path)} (or pick its folder)`);
      return new Uint8Array(await hit.arrayBuffer());
    },
  });
  const shown = p.world ?? p.levels[0];
  const art = (async (): Promise<DemoArt> => {
    const draws = ldtkLayerDraws(p, shown);
    const images = new Map<string, ImageBitmap>();
    const missing: string[] = [];
    for (const path of new Set(draws.flatMap((l) => l.draws.map((d) => d.image.path)))) {
      const hit = findPicked(others, path);
      const bitmap = hit === undefined ? null : await decodeImage(hit);
      if (bitmap === null) missing.push(baseName(path));
      else images.set(path, bitmap);
    }
    return { art: null, draws, projection: shown.grid.projection, offset: { x: 0, y: 0 }, images, missing };
  })();
  return { grid: shown.grid, movement: 'octile', art };
}

/** The bundled maps of the map picker, in menu order; the first one opens. */
export const BUNDLED_MAPS: { id: string; label: string; load(): DemoMap }[] = [
  { id: 'frontier', label: 'Frontier (Tiled, 64 x 40, 2 layers)', load: frontierMap },
  { id: 'arena', label: 'Arena (Moving AI, 60 x 21)', load: () => ({ grid: parseMovingAiMap(arenaText, { file: 'arena.map' }).grid, movement: 'octile', start: [2, 2], goal: [57, 18] }) },
  { id: 'terrain', label: 'Terrain and layers (96 x 64)', load: terrainMap },
  { id: 'iso', label: 'Isometric (48 x 48)', load: isoMap },
  { id: 'hex', label: 'Hexagonal, axial (40 x 30)', load: hexMap },
  { id: 'big', label: 'Generated (1024 x 1024)', load: bigMap },
  { id: 'crowd', label: 'Crowd field (open, 150 x 100)', load: crowdMap },
];

/** The crowd scenes' field (see demo/crowd.ts): open ground inside a wall, a few boulders along the edges. */
export const CROWD_MAP = { width: 150, height: 100 };

function crowdMap(): DemoMap {
  const { width, height } = CROWD_MAP;
  const grid = new NavGrid(width, height);
  grid.fillRect(0, 0, width, 1, { walkable: false });
  grid.fillRect(0, height - 1, width, 1, { walkable: false });
  grid.fillRect(0, 0, 1, height, { walkable: false });
  grid.fillRect(width - 1, 0, 1, height, { walkable: false });
  for (const [x, y] of [[20, 8], [128, 12], [14, 88], [132, 86]]) grid.fillRect(x, y, 3, 2, { walkable: false });
  return { grid, movement: 'octile', start: [3, 3], goal: [width - 4, height - 4] };
}

/** Finds a reader for a file by its extension. */
export function loaderFor(name: string): (typeof FILE_LOADERS)[number] | undefined {
  const lower = name.toLowerCase();
  return FILE_LOADERS.find((l) => l.extensions.some((e) => lower.endsWith(e)));
}


/** Smooth value noise in 0..1 (bilinear over a lattice of `cell` cells). */
function noise(width: number, height: number, cell: number, seed: number): Float32Array {
  const r = mulberry32(seed);
  const lw = Math.ceil(width / cell) + 2;
  const lh = Math.ceil(height / cell) + 2;
  const lattice = Float32Array.from({ length: lw * lh }, r);
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const fy = y / cell;
    const y0 = Math.floor(fy);
    const ty = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = x / cell;
      const x0 = Math.floor(fx);
      const tx = fx - x0;
      const a = lattice[y0 * lw + x0] * (1 - tx) + lattice[y0 * lw + x0 + 1] * tx;
      const b = lattice[(y0 + 1) * lw + x0] * (1 - tx) + lattice[(y0 + 1) * lw + x0 + 1] * tx;
      out[y * width + x] = a * (1 - ty) + b * ty;
    }
  }
  return out;
}

/** Paints terrain from noise: water and mud in the lows, rock walls on the peaks. */
function paintTerrain(grid: NavGrid, seed: number, cell: number): void {
  const n = noise(grid.width, grid.height, cell, seed);
  const layer = grid.layers[0];
  const ids = ['Ground', 'Sand', 'Mud', 'Water'].map((t) => grid.terrain.id(t));
  const costs = ids.map((id) => grid.terrain.get(id).cost);
  for (let i = 0; i < grid.size; i++) {
    const v = n[i];
    const k = v < 0.22 ? 3 : v < 0.32 ? 2 : v < 0.4 ? 1 : 0;
    layer.terrain[i] = ids[k];
    layer.cost[i] = costs[k];
    layer.walkable[i] = v > 0.8 ? 0 : 1;
  }
  grid.refresh(0);
}

/** examples/frontier.tmx: a Tiled map with terrain types, two navigation layers and tile art of ours. */
function frontierMap(): DemoMap {
  const m = parseTiled(frontierText, { file: 'frontier.tmx' });
  const art = (async (): Promise<DemoArt> => {
    const { art, missing } = parseTileArt(frontierText, 'frontier.tmx');
    const images = new Map<string, ImageBitmap>();
    const bitmap = await decodeImage(await (await fetch(frontierTiles)).blob());
    // The one image the map names: frontier-tiles.png beside it.
    for (const img of artImages(art)) if (bitmap !== null) images.set(img.path, bitmap);
    return { art, projection: m.projection, offset: m.offset, images, missing };
  })();
  const tiled: TiledSource = { file: 'frontier.tmx', map: m, load: (rules) => parseTiled(frontierText, { file: 'frontier.tmx', rules }), tilesetText: async () => null };
  return { grid: m.grid, movement: m.movement, start: [2, 2], goal: [61, 37], art, tiled };
}

function terrainMap(): DemoMap {
  const grid = new NavGrid(96, 64, { layers: ['Ground', 'Sky'] });
  paintTerrain(grid, 7, 12);
  // The Sky layer flies over terrain; only a few towers block it.
  const sky = grid.layers[1];
  for (let i = 0; i < grid.size; i++) sky.walkable[i] = grid.layers[0].walkable[i] === 0 && i % 7 === 0 ? 0 : 1;
  grid.fillRect(40, 10, 2, 44, { walkable: false }, 1);
  grid.refresh(1);
  clear(grid, 2, 2);
  clear(grid, 93, 61);
  return { grid, movement: 'octile', start: [2, 2], goal: [93, 61] };
}

function isoMap(): DemoMap {
  const grid = new NavGrid(48, 48, { projection: isometric(32, 16) });
  paintTerrain(grid, 11, 8);
  grid.fillRect(10, 20, 28, 2, { walkable: false });
  clear(grid, 2, 2);
  clear(grid, 45, 45);
  return { grid, movement: 'octile', start: [2, 2], goal: [45, 45] };
}

function hexMap(): DemoMap {
  const grid = new NavGrid(40, 30, { projection: hexagonal(12) });
  paintTerrain(grid, 5, 7);
  clear(grid, 2, 2);
  clear(grid, 37, 27);
  return { grid, movement: movementFor(grid.projection), start: [2, 2], goal: [37, 27] };
}

function bigMap(): DemoMap {
  const grid = new NavGrid(1024, 1024);
  paintTerrain(grid, 3, 48);
  clear(grid, 8, 8);
  clear(grid, 1015, 1015);
  return { grid, movement: 'octile', start: [8, 8], goal: [1015, 1015] };
}

/** Opens a 3 x 3 patch of ground around (x, y) so the suggested start and goal are walkable. */
function clear(grid: NavGrid, x: number, y: number): void {
  for (let l = 0; l < grid.layers.length; l++) {
    grid.fillRect(Math.max(0, x - 1), Math.max(0, y - 1), 3, 3, { terrain: 'Ground' }, l);
  }
}

/**
 * The movement models that fit a map's cells, its own first: the square models on square and
 * isometric maps (and `iso`, an isometric map's own), the one hex or staggered model a hexagonal
 * or staggered map's cells have (another would step to cells that are not neighbours).
 */
export function movementsFor(projection: Projection, own: MovementName): MovementName[] {
  const kind = projection.spec.kind;
  if (kind === 'hexagonal' || kind === 'staggered') return [own];
  const square: MovementName[] = ['octile', 'cardinal', 'octile-one-obstacle', 'octile-always'];
  if (kind === 'isometric') square.push('iso');
  return [own, ...square.filter((m) => m !== own)];
}
