/** Navigation from a parsed Tiled map: the navigation properties (isTilesetWalkable, useTilesetBorder and the tiles' own), then the common collision conventions. */
import { TilenavError } from '../../errors.js';
import { DEFAULT_LAYER_NAMES, FLAG_NO_EXIT_EAST, FLAG_NO_EXIT_NORTH, FLAG_NO_EXIT_SOUTH, FLAG_NO_EXIT_WEST, FLAG_SAFE_ZONE, MAX_LAYERS, NavGrid } from '../../grid/navgrid.js';
import { FINITE_PROJECTION_RULE, isometric, orthogonal, projectionExtent, staggered, unfitAxis, type Projection } from '../../grid/projection.js';
import type { TerrainTable } from '../../grid/terrain.js';
import { movementModel, type MovementName } from '../../search/movement.js';
import { RasterBudget } from '../limits.js';
import { applyObjectConventions, applyTileConventions, boolProp, lineWidthOf, lower, markNonEmpty, rowOf, type FlatLayer, type Surface, type TileNav, type TileTable } from './collide.js';
import { fail, GID_MASK, quote, type Ctx, type RawLayer, type RawMap, type RawObject, type RawTile, type RawTileset, type TiledProperties, type TiledProperty } from './model.js';
import { FLOAT32_MAX, FLOAT32_MIN_NORMAL, type CheckedRules, type TiledRule } from './rules.js';
import { applyLayerTerrain, clearBridges, layerRuleOf, ruleTerrain, tileRulesOf, tilesetInfos, unmatchedLayerRules, type TiledTilesetInfo } from './apply-rules.js';
import { objectShapes } from './shapes.js';
import { addObjectLinks } from './links.js';
import { addObjectWalls } from './walls.js';
import { putTileWalls, tileWallSides, wallFlipTable, wallNames } from './tile-walls.js';

export { GID_FLIP_D, GID_FLIP_H, GID_FLIP_V, GID_MASK, GID_ROTATE_120 } from './model.js';

/**
 * The conventions, beside the navigation properties, that mark cells blocked. Every list is matched
 * case-insensitively.
 */
export interface TiledMapping {
  /** Bool properties that mean "blocked" when true, on a tile, a tile layer, an object layer or an object. @default ['collides', 'collision', 'solid'] */
  collisionProperties: readonly string[];
  /** Object types / classes whose shapes block. @default ['collision', 'collider', 'solid', 'wall', 'obstacle'] */
  collisionTypes: readonly string[];
  /** Object layer names whose every shape blocks. @default ['collision', 'collisions', 'colliders', 'solid', 'walls', 'obstacles'] */
  collisionLayerNames: readonly string[];
  /** Rasterise the collision shapes tiles carry in their tileset's objectgroup. @default true */
  tileShapes: boolean;
  /** The object property (pixels) giving a polyline's width. @default 'lineWidth' */
  lineWidthProperty: string;
  /** A polyline's width without that property, in pixels; 0 blocks the cells the line passes through. @default 0 */
  lineWidth: number;
  /** The navigation layer these conventions block, unless a layer says `collisionLayer`. @default 0 */
  layer: number;
  /** Layers hidden in Tiled (their own or a group's `visible` false) still count: collision layers are often hidden. @default true */
  hiddenLayers: boolean;
  /**
   * Bool object properties that, true, make an object an edge wall: its lines (a polyline, a thin
   * rectangle's centre line, a polygon's or wider rectangle's outline) along tile edges wall those
   * edges, and its shape blocks no cell. @default ['edgeWall', 'fence', 'wall']
   */
  edgeWallProperties: readonly string[];
  /** Object types / classes that make an object an edge wall, as `edgeWallProperties` do. @default ['edgewall', 'fence', 'thinwall', 'railing'] */
  edgeWallTypes: readonly string[];
}

/** The conventions Tiled maps are read with unless `TiledOptions.mapping` overrides some. */
export const DEFAULT_TILED_MAPPING: Readonly<TiledMapping> = Object.freeze({
  collisionProperties: Object.freeze(['collides', 'collision', 'solid']),
  collisionTypes: Object.freeze(['collision', 'collider', 'solid', 'wall', 'obstacle']),
  collisionLayerNames: Object.freeze(['collision', 'collisions', 'colliders', 'solid', 'walls', 'obstacles']),
  tileShapes: true,
  lineWidthProperty: 'lineWidth',
  lineWidth: 0,
  layer: 0,
  hiddenLayers: true,
  edgeWallProperties: Object.freeze(['edgeWall', 'fence', 'wall']),
  edgeWallTypes: Object.freeze(['edgewall', 'fence', 'thinwall', 'railing']),
});

/** One layer of the map as the game may want it: its place, inherited visibility and properties. */
export interface TiledLayerInfo {
  /** The layer's name in Tiled. */
  name: string;
  /** Where it sits, e.g. `<group name="walls"> > <layer name="walls1">` or `layer "walls" > layer "walls1"`. */
  path: string;
  /** The kind of layer. */
  type: 'tile' | 'object' | 'group' | 'image';
  /** Its own `visible` and every enclosing group's. */
  visible: boolean;
  /** Its own properties. */
  properties: TiledProperties;
  /** Its properties over those of its groups (the layer's own win). */
  inherited: TiledProperties;
  /** The layer's navigation settings (isTilesetWalkable, useTilesetBorder, collisionLayer), or null when it has none and navigation ignores it. */
  navigation: {
    /** The navigation layer it shapes (its `collisionLayer`, default 0). */
    layer: number;
    /** `isTilesetWalkable`: its tiles are the floor (else they block). */
    walkable: boolean;
    /** `useTilesetBorder`: empty cells next to its tiles are blocked. */
    border: boolean;
  } | null;
  /** Object layers: their objects, as read. */
  objects?: readonly RawObject[];
}

export interface BuildOptions {
  maxCells: number;
  /** See TiledOptions.maxRasterWork. */
  maxRasterWork: number;
  mapping: TiledMapping;
  terrain: TerrainTable | undefined;
  /** Collision rules the user picked, checked for shape. */
  rules?: CheckedRules;
  /** Resolves a tileset image's source against the tileset's file. */
  resolve: (from: string, source: string) => string;
}

/** What {@link build} returns; the public result adds nothing but the doc comments. */
export interface Built {
  grid: NavGrid;
  projection: Projection;
  orientation: 'orthogonal' | 'isometric' | 'staggered' | 'hexagonal';
  movement: MovementName;
  tileWidth: number;
  tileHeight: number;
  offset: { x: number; y: number };
  warnings: string[];
  properties: { map: TiledProperties; layers: TiledLayerInfo[]; tiles: Map<number, TiledProperties> };
  tilesets: TiledTilesetInfo[];
}


/** Builds the NavGrid and everything beside it. */
export function build(ctx: Ctx, map: RawMap, tilesets: RawTileset[], options: BuildOptions): Built {
  const warnings: string[] = [];
  const warn = (w: string) => {
    if (!warnings.includes(w)) warnings.push(w);
  };
  const mapping = options.mapping;
  const orientation = map.orientation;
  const budget = new RasterBudget(options.maxRasterWork, (element, max) =>
    fail(ctx, element, `drawing the collision shapes takes more than ${max} cell visits (maxRasterWork); the map's shapes are too many or too large for its grid (pass a larger maxRasterWork to allow it)`),
  );
  if (orientation !== 'orthogonal' && orientation !== 'isometric' && orientation !== 'staggered' && orientation !== 'hexagonal') {
    fail(ctx, '<map> orientation', `unknown orientation ${quote(orientation, 60)}; expected orthogonal, isometric, staggered or hexagonal`);
  }
  if (!(map.tileWidth > 0) || !(map.tileHeight > 0)) fail(ctx, '<map>', `tile size ${map.tileWidth} x ${map.tileHeight} must be positive`);
  const staggerish = orientation === 'staggered' || orientation === 'hexagonal';
  if (staggerish) {
    if (map.staggerAxis !== 'x' && map.staggerAxis !== 'y') fail(ctx, '<map> staggeraxis', `expected "x" or "y", got ${quote(map.staggerAxis, 60)}`);
    if (map.staggerIndex !== 'odd' && map.staggerIndex !== 'even') fail(ctx, '<map> staggerindex', `expected "odd" or "even", got ${quote(map.staggerIndex, 60)}`);
    if (orientation === 'hexagonal' && !(map.hexSideLength >= 0)) fail(ctx, '<map> hexsidelength', 'expected a length >= 0');
  }
  if (!['right-down', 'right-up', 'left-down', 'left-up'].includes(map.renderOrder)) warn(`unknown renderorder ${quote(map.renderOrder, 60)} ignored (it only orders drawing)`);

  // ---- layers flattened, with inherited visibility and properties
  const flat: FlatLayer[] = [];
  const infos: TiledLayerInfo[] = [];
  const walk = (list: RawLayer[], visible: boolean, inherited: Map<string, TiledProperty>, offX: number, offY: number, groups: string[]) => {
    for (const raw of list) {
      const vis = visible && raw.visible;
      const props = new Map(inherited);
      for (const [k, v] of raw.properties) props.set(k, v);
      const info: TiledLayerInfo = { name: raw.name, path: raw.element, type: raw.kind, visible: vis, properties: raw.properties, inherited: props, navigation: null };
      if (raw.kind === 'object') info.objects = raw.objects;
      infos.push(info);
      if (raw.kind === 'group') walk(raw.layers, vis, props, offX + raw.offsetX, offY + raw.offsetY, [...groups, raw.name]);
      else flat.push({ raw, visible: vis, props, data: null, info, groups, offX: offX + raw.offsetX, offY: offY + raw.offsetY });
    }
  };
  walk(map.layers, true, new Map(), 0, 0, []);
  const rules = options.rules;
  unmatchedLayerRules(rules, infos.map((i) => i.name), warn);
  const used = flat.filter((l) => l.visible || mapping.hiddenLayers);

  // ---- grid bounds: the map, or the chunks' bounding box for infinite maps
  let ox = 0;
  let oy = 0;
  let W = map.width;
  let H = map.height;
  if (map.infinite) {
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (const l of flat) {
      if (l.raw.kind !== 'tile') continue;
      for (const c of l.raw.chunks ?? []) {
        if (c.width === 0 || c.height === 0) continue;
        x0 = Math.min(x0, c.x);
        y0 = Math.min(y0, c.y);
        x1 = Math.max(x1, c.x + c.width);
        y1 = Math.max(y1, c.y + c.height);
      }
    }
    if (x0 !== Infinity) {
      ox = x0;
      oy = y0;
      W = x1 - x0;
      H = y1 - y0;
    } else {
      W = Math.max(1, W);
      H = Math.max(1, H);
    }
  }
  if (W < 1 || H < 1) fail(ctx, '<map>', `map size ${W} x ${H}: expected at least 1 x 1 tiles`);
  if (W * H > options.maxCells) fail(ctx, '<map>', `${W} x ${H} = ${W * H} cells exceeds maxCells ${options.maxCells}; pass a larger maxCells to allow it`);
  const N = W * H;
  for (const l of flat) {
    if (l.raw.kind !== 'tile') continue;
    if (l.raw.data !== null) {
      l.data = l.raw.data;
      continue;
    }
    const data = new Uint32Array(N);
    for (const c of l.raw.chunks ?? []) {
      for (let y = 0; y < c.height; y++) data.set(c.data.subarray(y * c.width, (y + 1) * c.width), (c.y - oy + y) * W + (c.x - ox));
    }
    l.data = data;
  }

  // ---- projection and movement
  const tw = map.tileWidth;
  const th = map.tileHeight;
  const { projection, movement } = tiledProjection(map, ox, oy);

  checkExtent(ctx, map, projection, W, H);

  // ---- navigation layers
  let navCount = 1;
  const nl = map.properties.get('navigationLayers');
  if (nl !== undefined) {
    if (nl.type !== 'int' && nl.type !== 'float') warn(`map property navigationLayers is a ${nl.type}, so 1 navigation layer is used; make it an int from 1 to ${MAX_LAYERS}`);
    else {
      const v = Math.round(nl.value as number);
      navCount = Math.min(MAX_LAYERS, Math.max(1, v));
      if (navCount !== v || v !== nl.value) warn(`map property navigationLayers ${nl.value} is not a whole number from 1 to ${MAX_LAYERS}; ${navCount === 1 ? "1 navigation layer is" : `${navCount} navigation layers are`} used`);
    }
  }
  if (mapping.layer >= navCount) {
    throw new TilenavError(`navigation layer ${mapping.layer} is not one of this map's ${navCount} (${DEFAULT_LAYER_NAMES.slice(0, navCount).join(', ')}; the map property navigationLayers says how many), so no collision convention would apply; use a layer from 0 to ${navCount - 1}`, { file: ctx.file, element: 'mapping.layer' });
  }
  const grid = new NavGrid(W, H, { layers: navCount, projection, terrain: options.terrain, maxCells: options.maxCells });
  const navIndex = (l: FlatLayer, fallback: number): number => {
    const p = l.props.get('collisionLayer');
    if (p === undefined) return fallback;
    let i = -1;
    if (p.type === 'int' || p.type === 'float') i = p.value as number;
    else if (p.type === 'string') i = grid.layers.findIndex((x) => x.name === p.value);
    if (!Number.isInteger(i) || i < 0 || i >= navCount) {
      const clamped = Math.min(navCount - 1, Math.max(0, Number.isInteger(i) ? i : 0));
      warn(`${l.raw.element}: collisionLayer ${JSON.stringify(p.value)} is not one of this map's ${navCount} navigation layers (${DEFAULT_LAYER_NAMES.slice(0, navCount).join(', ')}); layer ${clamped} is used instead: set collisionLayer to a number from 0 to ${navCount - 1} or raise the map's navigationLayers`);
      return clamped;
    }
    return i;
  };

  // ---- per-tile navigation data, by gid
  checkTileCount(ctx, map, tilesets);
  const tileProps = new Map<number, TiledProperties>();
  const collideNames = lower(mapping.collisionProperties);
  const terrainTable = grid.terrain;
  const tileRules = tileRulesOf(rules, tilesets, warn);
  const wallFlips = orientation === 'orthogonal' || orientation === 'isometric' ? wallFlipTable(orientation) : null;
  // References to one tileset file share its tile list (and its rules): each tile's navigation is
  // derived once, however many references number it, and only the gid lookup is per reference.
  const navs: TileNav[] = [];
  const derived = new Map<readonly RawTile[], { ids: number[]; rows: number[]; props: RawTile[] }>();
  const deriveTiles = (ts: RawTileset, own: Map<number, TiledRule>) => {
    // Tiles a rule names but the tileset does not list are plain tiles with the rule alone.
    const tiles: RawTile[] = [...ts.tiles];
    const listed = new Set(ts.tiles.map((t) => t.id));
    for (const id of own.keys()) if (!listed.has(id)) tiles.push({ id, properties: new Map(), shapes: [], imageWidth: 0, imageHeight: 0 });
    const out = { ids: [] as number[], rows: [] as number[], props: tiles.filter((t) => t.properties.size > 0) };
    for (const t of tiles) {
      const nav: TileNav = { props: t.properties, terrain: -1, slow: 1, flags: 0, walls: 0, collides: false, ruleBlocks: false, bridge: false, cost: NaN, ruleSet: false, shapes: [], imgW: t.imageWidth || ts.tileWidth || tw, imgH: t.imageHeight || ts.tileHeight || th, offX: ts.offsetX, offY: ts.offsetY };
      const where = `tileset ${quote(ts.name, 60)} tile ${t.id}`;
      const tt = t.properties.get('terrainType');
      if (tt !== undefined && tt.type === 'string') {
        const name = tt.value as string;
        if (terrainTable.has(name)) {
          nav.terrain = terrainTable.id(name);
          const { cost, walkable } = terrainTable.get(nav.terrain);
          const stored = Math.fround(cost);
          if (walkable && !(stored > 0 && stored < Infinity)) fail(ctx, `${where} property "terrainType"`, `terrain ${quote(name, 60)} costs ${cost}, which a 32-bit float cost stores as ${stored}; expected a cost from ${FLOAT32_MIN_NORMAL} to ${FLOAT32_MAX}`);
        }
        else {
          warn(`${where}: unknown terrainType ${quote(name, 60)} treated as Ground; the terrain names are ${terrainTable.entries().map((e) => e.name).join(', ')} (or define it in the terrain option's table)`);
          nav.terrain = 0;
        }
      }
      const slow = t.properties.get('slowMultiplier');
      if (slow !== undefined) {
        if (slow.type !== 'float' && slow.type !== 'int') warn(`${where}: slowMultiplier is a ${slow.type}, ignored; make it a float > 0`);
        else {
          const v = slow.value as number;
          // Costs are stored as 32-bit floats: outside this range a multiplier would store 0 or Infinity.
          if (!(v >= FLOAT32_MIN_NORMAL && v <= FLOAT32_MAX)) fail(ctx, `${where} property "slowMultiplier"`, `${v} is not a usable cost multiplier; expected a number from ${FLOAT32_MIN_NORMAL} to ${FLOAT32_MAX} (costs are 32-bit floats)`);
          nav.slow = v;
        }
      }
      const ownCost = t.properties.get('cost');
      if (ownCost !== undefined) {
        if (ownCost.type !== 'float' && ownCost.type !== 'int') warn(`${where}: cost is a ${ownCost.type}, ignored; make it a float > 0`);
        else {
          const v = ownCost.value as number;
          if (!(v >= FLOAT32_MIN_NORMAL && v <= FLOAT32_MAX)) fail(ctx, `${where} property "cost"`, `${v} is not a usable cost; expected a number from ${FLOAT32_MIN_NORMAL} to ${FLOAT32_MAX} (costs are 32-bit floats)`);
          nav.cost = v;
        }
      }
      const b = (name: string) => t.properties.get(name)?.type === 'bool' && t.properties.get(name)?.value === true;
      if (b('isSafeZone')) nav.flags |= FLAG_SAFE_ZONE;
      if (b('oneWayNorth')) nav.flags |= FLAG_NO_EXIT_NORTH;
      if (b('oneWayEast')) nav.flags |= FLAG_NO_EXIT_EAST;
      if (b('oneWaySouth')) nav.flags |= FLAG_NO_EXIT_SOUTH;
      if (b('oneWayWest')) nav.flags |= FLAG_NO_EXIT_WEST;
      nav.walls = tileWallSides(b);
      if (nav.walls !== 0 && wallFlips === null) {
        warn(`${where}: ${wallNames(nav.walls)} ignored: edge walls need square cells, and this map is ${orientation} (its cells move as '${movement}')`);
        nav.walls = 0;
      }
      const cf = t.properties.get('customFlags');
      if (cf !== undefined) {
        if (cf.type === 'int' && (cf.value as number) >= 0 && (cf.value as number) <= 255) nav.flags |= cf.value as number;
        else warn(`${where}: customFlags ${JSON.stringify(cf.value)} ignored; make it an int from 0 to 255`);
      }
      nav.collides = boolProp(t.properties, collideNames) === true;
      nav.bridge = b('walkable');
      const rule = own.get(t.id);
      if (rule !== undefined) {
        const key = `tilesets[${JSON.stringify(ts.name)}][${JSON.stringify(String(t.id))}]`;
        if (rule.terrain !== undefined) nav.terrain = ruleTerrain(rules!, `${key}.terrain`, rule.terrain, terrainTable);
        if (rule.cost !== undefined) nav.cost = rule.cost;
        nav.ruleSet = rule.terrain !== undefined || rule.cost !== undefined;
        if (rule.walkable === false) nav.ruleBlocks = true;
        if (rule.walkable === true) nav.bridge = true;
      }
      if (mapping.tileShapes) for (const o of t.shapes) for (const sh of objectShapes(o, lineWidthOf(o, mapping))) nav.shapes.push(sh);
      if (nav.terrain >= 0 || nav.slow !== 1 || nav.flags !== 0 || nav.walls !== 0 || nav.collides || nav.shapes.length > 0 || nav.ruleBlocks || nav.bridge || nav.cost === nav.cost) {
        out.ids.push(t.id);
        out.rows.push(navs.length);
        navs.push(nav);
      }
    }
    return out;
  };
  const perRef = tilesets.map((ts, k) => {
    let d = derived.get(ts.tiles);
    if (d === undefined) derived.set(ts.tiles, (d = deriveTiles(ts, tileRules[k])));
    return d;
  });
  let top = 0;
  tilesets.forEach((ts, k) => {
    for (const id of perRef[k].ids) top = Math.max(top, Math.min(MAX_INFO_GID, ts.firstgid + id));
  });
  const index = new Int32Array(navs.length > 0 ? top + 1 : 0).fill(-1);
  tilesets.forEach((ts, k) => {
    const { ids, rows, props } = perRef[k];
    for (const t of props) tileProps.set(ts.firstgid + t.id, t.properties);
    let past = 0;
    for (let j = 0; j < ids.length; j++) {
      const gid = ts.firstgid + ids[j];
      if (gid > MAX_INFO_GID) past++;
      else index[gid] = rows[j];
    }
    if (past > 0) warn(`${map.tilesets[k]?.element ?? 'tileset'}: ${past} of tileset ${quote(ts.name, 60)}'s tiles with navigation properties are numbered past ${MAX_INFO_GID} in the map (firstgid ${ts.firstgid}), the largest tile number this loader looks up; their navigation properties are ignored`);
  });
  const table = tileTable(index, navs, terrainTable);

  // ---- navigation layers: tile layers with isTilesetWalkable / useTilesetBorder
  interface SeedLayer {
    l: FlatLayer;
    walkable: boolean;
    border: boolean;
  }
  const seed: SeedLayer[][] = grid.layers.map(() => []);
  for (const l of used) {
    if (l.raw.kind !== 'tile') continue;
    const w = l.props.get('isTilesetWalkable');
    const b = l.props.get('useTilesetBorder');
    for (const [name, p] of [['isTilesetWalkable', w], ['useTilesetBorder', b]] as const) {
      if (p !== undefined && p.type !== 'bool') warn(`${l.raw.element}: ${name} is a ${p.type}, ignored; make it a bool`);
    }
    const wb = w?.type === 'bool' ? (w.value as boolean) : undefined;
    const bb = b?.type === 'bool' ? (b.value as boolean) : undefined;
    if (wb === undefined && bb === undefined) continue;
    const nav = { layer: navIndex(l, 0), walkable: wb === true, border: bb === true };
    l.info.navigation = nav;
    seed[nav.layer].push({ l, walkable: nav.walkable, border: nav.border });
  }
  const anySeed = seed.some((s) => s.length > 0);

  const neighbours = borderNeighbours(movement);
  const blocked = new Uint8Array(N);
  const surface: Surface = { W, H, ox, oy, tw, th, orientation, projection, blocked, budget, stamps: new Map(), runs: null, bounds: null };
  const layerName = (i: number) => grid.layers[i].name;
  let blockedCells = 0;
  for (let li = 0; li < navCount; li++) {
    const nav = grid.layers[li];
    const walkable = nav.walkable;
    const cost = nav.cost;
    const flags = nav.flags;
    const terrain = nav.terrain;
    blocked.fill(0);
    const layers = seed[li];
    // A layer of walkable tiles means only covered cells are floor; without one, every cell is.
    const floors = layers.filter((s) => s.walkable);
    walkable.fill(floors.length > 0 ? 0 : 1);
    for (const s of floors) markNonEmpty(s.l.data!, walkable);
    for (const s of layers) {
      const d = s.l.data!;
      const bad = table.navs.length > 0 ? applyTiles(d, table, terrain, cost, flags, blocked, W, wallFlips) : -1;
      if (bad >= 0) fail(ctx, s.l.raw.element, `cell (${bad % W}, ${(bad / W) | 0}): its terrain cost times the slowMultipliers on it is ${cost[bad]}, outside what a 32-bit float cost can hold`);
      if (!s.walkable) markNonEmpty(d, blocked);
      if (s.border) markBorders(d, W, H, neighbours, blocked);
    }
    if (anySeed && layers.length === 0) warn(`navigation layer ${li} "${layerName(li)}" has no tile layer of its own, so all its cells are walkable: give a tile layer the int property collisionLayer ${li} and the bool isTilesetWalkable`);

    // ---- the mapping conventions and the rules, layer by layer from the bottom up
    for (const l of used) {
      if (navIndex(l, mapping.layer) !== li) continue;
      const lr = layerRuleOf(rules, l, terrainTable);
      if (l.raw.kind === 'tile') {
        const d = l.data!;
        // A bridge clears what the layers below block; blocking on its own layer still wins.
        if (table.anyBridge || lr?.walkable === true) clearBridges(d, table, lr?.walkable === true, blocked);
        // Without navigation layers every tile layer brings its tiles' terrain and cost.
        const bad = !anySeed && table.navs.length > 0 ? applyTiles(d, table, terrain, cost, flags, blocked, W, wallFlips) : -1;
        if (bad >= 0) fail(ctx, l.raw.element, `cell (${bad % W}, ${(bad / W) | 0}): its terrain cost times the slowMultipliers on it is ${cost[bad]}, outside what a 32-bit float cost can hold`);
        if (lr !== null && (lr.terrain >= 0 || lr.cost === lr.cost)) applyLayerTerrain(d, lr, table, terrainTable, terrain, cost, blocked);
        applyTileConventions(l, table, collideNames, surface);
        if (lr?.walkable === false) markNonEmpty(d, blocked);
      } else if (l.raw.kind === 'object') {
        if (lr !== null && (lr.walkable === true || lr.terrain >= 0 || lr.cost === lr.cost)) warn(`${rules!.file}: ${l.raw.element} is an object layer: of its rule only "walkable": false applies (its shapes block); the rest is ignored`);
        applyObjectConventions(l, mapping, collideNames, surface, lr?.walkable === false);
      }
    }
    blockedCells += count(blocked);
    clearBlocked(walkable, blocked);
  }
  if (!anySeed && blockedCells === 0) {
    warn(
      rules !== undefined
        ? `nothing blocks: the rules in ${rules.file} block no cell of this map and neither does the map itself, so every cell is walkable; check that the rules name the map's tilesets and layers (a tile id is its local id in its tileset, as Tiled shows it)`
        : `no layer or tile of this map says which tiles block, so every cell is walkable: pick the blocking tiles in a rules file (the rules option, or --rules FILE), or give those tiles in Tiled a bool property ${mapping.collisionProperties[0] ?? 'collides'} set to true`,
    );
  }
  grid.refresh();
  addObjectLinks(grid, used, (l) => navIndex(l, mapping.layer), surface, mapping.hiddenLayers, warn);
  addObjectWalls(grid, used, (l) => navIndex(l, mapping.layer), surface, mapping, warn);
  const tilesetList = tilesetInfos(tilesets, used.flatMap((l) => (l.data !== null ? [l.data] : [])), options.resolve, MAX_INFO_GID);
  return { grid, projection, orientation, movement, tileWidth: tw, tileHeight: th, offset: { x: ox, y: oy }, warnings, properties: { map: map.properties, layers: infos, tiles: tileProps }, tilesets: tilesetList };
}

/**
 * Where a Tiled map's cells are in its own pixels (the space its objects are drawn in), and the
 * movement model its cells take; cell (0, 0) is tile (`ox`, `oy`). Shared with the Phaser adapter,
 * which places a map's objects on cells as this loader does.
 */
export function tiledProjection(map: Pick<RawMap, 'orientation' | 'tileWidth' | 'tileHeight' | 'height' | 'staggerAxis' | 'staggerIndex' | 'hexSideLength'>, ox: number, oy: number): { projection: Projection; movement: MovementName } {
  const tw = map.tileWidth;
  const th = map.tileHeight;
  if (map.orientation === 'orthogonal') return { projection: orthogonal(tw, th, ox * tw, oy * th), movement: 'octile' };
  // Tiled puts tile (0, 0)'s top corner half a tile width per row right of the left edge.
  if (map.orientation === 'isometric') return { projection: isometric(tw, th, map.height * (tw / 2) + (ox - oy) * (tw / 2), (ox + oy) * (th / 2)), movement: 'iso' };
  const sx = map.staggerAxis === 'x';
  // An odd offset along the stagger axis flips which grid rows (columns) are the shifted ones.
  const flip = ((sx ? ox : oy) & 1) === 1;
  const index = (map.staggerIndex === 'even') !== flip ? 'even' : 'odd';
  const side = map.orientation === 'hexagonal' ? map.hexSideLength : 0;
  const sideX = sx ? side : 0;
  const sideY = sx ? 0 : side;
  // Tiled lays staggered and hexagonal tiles out on even pixel sizes (HexagonalRenderer's RenderParams).
  const ew = Number.isInteger(tw) && tw >= 2 ? tw - (tw % 2) : tw;
  const eh = Number.isInteger(th) && th >= 2 ? th - (th % 2) : th;
  const originX = ox * (sx ? (ew - sideX) / 2 + sideX : ew + sideX);
  const originY = oy * (sx ? eh + sideY : (eh - sideY) / 2 + sideY);
  const projection = staggered(ew, eh, { staggerAxis: sx ? 'x' : 'y', staggerIndex: index, hexSideLength: side, originX, originY });
  return { projection, movement: `${map.orientation === 'hexagonal' ? 'hex' : 'staggered'}-${index}-${sx ? 'q' : 'r'}` as MovementName };
}

function count(a: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) n += a[i];
  return n;
}

/** Per parity, the neighbour offsets a border spreads to: the 8 around a square cell, else the model's. */
function borderNeighbours(movement: MovementName): [number[][], number[][]] & { axis: 'x' | 'y' | null } {
  const m = movementModel(movement === 'iso' ? 'octile' : movement);
  const out = [m.steps[0].map((s) => [s.dx, s.dy]), m.steps[1].map((s) => [s.dx, s.dy])] as [number[][], number[][]] & { axis: 'x' | 'y' | null };
  out.axis = m.parityAxis;
  return out;
}

/** useTilesetBorder: empty cells next to a non-empty one are blocked. */
function markBorders(d: Uint32Array, W: number, H: number, nb: ReturnType<typeof borderNeighbours>, blocked: Uint8Array): void {
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      if ((d[i] & GID_MASK) === 0) continue;
      const steps = nb[nb.axis === 'x' ? x & 1 : nb.axis === 'y' ? y & 1 : 0];
      for (const [dx, dy] of steps) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= W || ny >= H) continue;
        const j = ny * W + nx;
        if ((d[j] & GID_MASK) === 0) blocked[j] = 1;
      }
    }
  }
}


/** Tiles with navigation data get a gid index above which nothing is looked up. */
const MAX_INFO_GID = 1 << 22;

/**
 * The tiles a map's tilesets may list, all references together: a map naming one large tileset
 * thousands of times would otherwise make millions of per-tile entries (`properties.tiles`).
 */
export const MAX_MAP_TILES = 1 << 20;

function checkTileCount(ctx: Ctx, map: RawMap, tilesets: RawTileset[]): void {
  let n = 0;
  tilesets.forEach((ts, k) => {
    n += ts.tiles.length;
    if (n > MAX_MAP_TILES) {
      const total = tilesets.reduce((sum, t) => sum + t.tiles.length, 0);
      fail(ctx, map.tilesets[k]?.element ?? '<tileset>', `the map's tilesets list more than ${MAX_MAP_TILES} tiles (${total} over its ${tilesets.length} tilesets and tileset references), the most a map may have; reference each tileset once`);
    }
  });
}

/** The flat tile table from the derived tiles (`navs`) and the gid to row index. */
function tileTable(index: Int32Array, navs: TileNav[], terrains: TerrainTable): TileTable {
  const n = navs.length;
  const t: TileTable = { index, navs, terrain: new Int16Array(n), terrainCost: new Float32Array(n), terrainWalkable: new Uint8Array(n), slow: new Float64Array(n), flags: new Uint8Array(n), walls: new Uint8Array(n), collides: new Uint8Array(n), ruleBlocks: new Uint8Array(n), bridge: new Uint8Array(n), anyBridge: false, cost: new Float64Array(n), ruleSet: new Uint8Array(n), anyShapes: false };
  navs.forEach((v, k) => {
    t.terrain[k] = v.terrain;
    if (v.terrain >= 0) {
      t.terrainCost[k] = terrains.get(v.terrain).cost;
      t.terrainWalkable[k] = terrains.get(v.terrain).walkable ? 1 : 0;
    }
    t.slow[k] = v.slow;
    t.flags[k] = v.flags;
    t.walls[k] = v.walls;
    t.collides[k] = v.collides ? 1 : 0;
    t.ruleBlocks[k] = v.ruleBlocks ? 1 : 0;
    t.bridge[k] = v.bridge ? 1 : 0;
    if (v.bridge) t.anyBridge = true;
    t.cost[k] = v.cost;
    t.ruleSet[k] = v.ruleSet ? 1 : 0;
    if (v.shapes.length > 0) t.anyShapes = true;
  });
  return t;
}

// The loops over every cell live in small functions of typed arrays, which V8 optimises well.

function clearBlocked(walkable: Uint8Array, blocked: Uint8Array): void {
  for (let i = 0; i < walkable.length; i++) if (blocked[i] === 1) walkable[i] = 0;
}

/**
 * Terrain, cost, flags and edge walls from the tiles' properties (`W` the map's width; walls turned
 * with each tile's flip bits through `wallFlips`, null where the map has no square cells); returns
 * the first cell whose cost overflowed or vanished, else -1.
 */
function applyTiles(d: Uint32Array, t: TileTable, terrain: Uint8Array, cost: Float32Array, flags: Uint8Array, blocked: Uint8Array, W: number, wallFlips: Uint8Array | null): number {
  let bad = -1;
  for (let i = 0; i < d.length; i++) {
    const k = rowOf(t.index, d[i]);
    if (k < 0) continue;
    const id = t.terrain[k];
    if (id >= 0) {
      terrain[i] = id;
      cost[i] = t.terrainCost[k];
      if (t.terrainWalkable[k] === 0) blocked[i] = 1;
    }
    const own = t.cost[k];
    if (own === own) cost[i] = own;
    const slow = t.slow[k];
    if (slow !== 1) {
      cost[i] *= slow;
      if (bad < 0 && (cost[i] === Infinity || cost[i] === 0)) bad = i;
    }
    flags[i] |= t.flags[k];
    const walled = t.walls[k];
    if (walled !== 0 && wallFlips !== null) {
      // The flip bits H, V, D are the gid's top three: the table's row.
      putTileWalls(flags, W, d.length / W, i, wallFlips[((d[i] >>> 29) & 7) * 16 + walled]);
    }
  }
  return bad;
}

/**
 * Refuses tile sizes (or a hexagon side) that put the map's cells at non-finite pixels, by the
 * rule every grid follows (`unfitAxis`), naming the attribute: on the axis at fault the hex side
 * when it is the larger part of a step along it, else the tile size.
 */
function checkExtent(ctx: Ctx, map: RawMap, projection: Projection, W: number, H: number): void {
  const extent = projectionExtent(projection, W, H);
  const axis = unfitAxis(extent);
  if (axis === null) return;
  const side = map.orientation === 'hexagonal' && (map.staggerAxis === 'x') === (axis === 'x') ? map.hexSideLength : 0;
  const tile = axis === 'x' ? map.tileWidth : map.tileHeight;
  const [name, value] = side > tile ? ['hexsidelength', side] : [axis === 'x' ? 'tilewidth' : 'tileheight', tile];
  const span = axis === 'x' ? extent.spanX : extent.spanY;
  fail(ctx, `<map> ${name}`, `${name} ${value} on a ${W} x ${H} tile map spans ${span} pixels ${axis === 'x' ? 'across' : 'down'}; ${FINITE_PROJECTION_RULE}`);
}
