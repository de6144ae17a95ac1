/** TMJ maps and TSJ tilesets (JSON) into the neutral model. */
import { checkSize, decodeArray, decodeBase64Gids } from './data.js';
import { describe } from '../../errors.js';
import { jsonError } from '../messages.js';
import { checkPropertyName, fail, givenFields, int, MAX_NESTING, num, quote, quoteName, str, warn, type Ctx, type RawTemplate, type TiledPropertyValue, type DecodeLimits, type RawChunk, type RawLayer, type RawMap, type RawObject, type RawTile, type RawTileset, type TiledProperties, type TiledProperty, type TilesetRef } from './model.js';

type J = Record<string, unknown>;

function parseJson(ctx: Ctx, text: string, what: string): J {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    fail(ctx, 'JSON', jsonError(e, text, ctx.foreign === true).message);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) fail(ctx, 'JSON', `expected a ${what} object at the top`);
  return v as J;
}

const obj = (ctx: Ctx, element: string, v: unknown): J => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) fail(ctx, element, 'expected an object');
  return v as J;
};
const arr = (ctx: Ctx, element: string, v: unknown): unknown[] => {
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail(ctx, element, 'expected an array');
  return v;
};

function properties(ctx: Ctx, element: string, list: unknown, types?: unknown): TiledProperties {
  const map = new Map<string, TiledProperty>();
  if (list !== null && typeof list === 'object' && !Array.isArray(list)) return legacyProperties(ctx, element, list as J, types);
  for (const item of arr(ctx, `${element} properties`, list)) {
    const p = obj(ctx, `${element} properties`, item);
    const name = checkPropertyName(ctx, element, p.name);
    const v = propertyValue(ctx, `${element} property ${quote(name, 60)}`, p, 0);
    if (v !== null) map.set(name, v);
  }
  return map;
}

/**
 * Tiled's first JSON format (before 1.2, and "JSON 1" export since): properties as an object of
 * name to value, their types beside it in `propertytypes` (missing types from the JSON value).
 */
function legacyProperties(ctx: Ctx, element: string, values: J, types: unknown): TiledProperties {
  const map = new Map<string, TiledProperty>();
  const typeOf = types !== null && typeof types === 'object' && !Array.isArray(types) ? (types as J) : {};
  for (const [name0, value] of Object.entries(values)) {
    const name = checkPropertyName(ctx, element, name0);
    const given = Object.hasOwn(typeOf, name) ? typeOf[name] : undefined;
    const type = typeof given === 'string' ? given : typeof value === 'boolean' ? 'bool' : typeof value === 'number' ? (Number.isInteger(value) ? 'int' : 'float') : typeof value === 'object' && value !== null ? 'class' : 'string';
    // Old files wrote every value as a string; read it as its declared type.
    const v = typeof value === 'string' && type === 'bool' ? value === 'true' : typeof value === 'string' && (type === 'int' || type === 'float' || type === 'object') ? Number(value) : value;
    const r = propertyValue(ctx, `${element} property ${quote(name, 60)}`, { type, value: v }, 0);
    if (r !== null) map.set(name, r);
  }
  return map;
}

/** One property or list item ({ type, value, propertytype }); null (with a warning) for an unknown type. */
function propertyValue(ctx: Ctx, where: string, p: J, depth: number): TiledProperty | null {
  const type = str(p.type, 'string');
  const pt = typeof p.propertytype === 'string' ? { propertyType: p.propertytype } : {};
  const v = p.value;
  switch (type) {
    case 'bool':
      if (typeof v !== 'boolean') fail(ctx, where, `a bool must be true or false, got ${describe(v)}`);
      return { type, value: v, ...pt };
    case 'int':
    case 'object':
      return { type, value: int(ctx, where, 'value', v, 0), ...pt };
    case 'float':
      return { type, value: num(ctx, where, 'value', v, 0), ...pt };
    case 'string':
    case 'color':
    case 'file':
      if (v !== undefined && typeof v !== 'string') fail(ctx, where, `a ${type} must be a string, got ${describe(v)}`);
      return { type, value: v ?? '', ...pt };
    case 'class':
      return { type, value: classMembers(ctx, where, v ?? {}, depth + 1), ...pt };
    case 'list': {
      if (depth >= MAX_NESTING) fail(ctx, where, `list values nest more than ${MAX_NESTING} deep`);
      const items: TiledPropertyValue[] = [];
      arr(ctx, where, v).forEach((item, k) => {
        const r = propertyValue(ctx, `${where} item ${k + 1}`, obj(ctx, `${where} item ${k + 1}`, item), depth + 1);
        if (r !== null) items.push(r.value);
      });
      return { type, value: items, ...pt };
    }
    default:
      warn(ctx, `${ctx.file}: ${where}: unknown property type ${quote(type, 40)} skipped (known: bool, int, float, string, color, file, object, class, list)`);
      return null;
  }
}

/** JSON class values carry members without their types; the JSON type stands in for Tiled's. */
function classMembers(ctx: Ctx, where: string, v: unknown, depth: number): TiledProperties {
  if (depth > MAX_NESTING) fail(ctx, where, `class values nest more than ${MAX_NESTING} deep`);
  const map = new Map<string, TiledProperty>();
  for (const [k, m] of Object.entries(obj(ctx, where, v))) {
    const name = checkPropertyName(ctx, where, k);
    const at = `${where}.${quoteName(name, 40)}`;
    if (typeof m === 'boolean') map.set(name, { type: 'bool', value: m });
    else if (typeof m === 'number') map.set(name, { type: Number.isInteger(m) ? 'int' : 'float', value: m });
    else if (typeof m === 'string') map.set(name, { type: 'string', value: m });
    else if (Array.isArray(m)) map.set(name, { type: 'list', value: listValues(ctx, at, m, depth + 1) });
    else map.set(name, { type: 'class', value: classMembers(ctx, at, m, depth + 1) });
  }
  return map;
}

/** A list inside a class value: items as Tiled writes them there, { type, value } or bare values. */
function listValues(ctx: Ctx, where: string, list: unknown[], depth: number): TiledPropertyValue[] {
  if (depth > MAX_NESTING) fail(ctx, where, `list values nest more than ${MAX_NESTING} deep`);
  const out: TiledPropertyValue[] = [];
  list.forEach((item, k) => {
    const at = `${where} item ${k + 1}`;
    if (item !== null && typeof item === 'object' && !Array.isArray(item) && 'type' in item && 'value' in item) {
      const r = propertyValue(ctx, at, item as J, depth);
      if (r !== null) out.push(r.value);
    } else if (typeof item === 'boolean' || typeof item === 'number' || typeof item === 'string') out.push(item);
    else if (Array.isArray(item)) out.push(listValues(ctx, at, item, depth + 1));
    else out.push(classMembers(ctx, at, item, depth + 1));
  });
  return out;
}

/** Reads a TMJ document. */
export function readTmj(ctx: Ctx, text: string, limits: DecodeLimits): RawMap {
  const m = parseJson(ctx, text, 'map');
  if (m.type !== undefined && m.type !== 'map') fail(ctx, 'map', `"type" is ${describe(m.type)}, expected "map"`);
  const width = int(ctx, 'map', 'width', m.width, undefined, 0);
  const height = int(ctx, 'map', 'height', m.height, undefined, 0);
  const infinite = m.infinite === true;
  const tilesets: TilesetRef[] = arr(ctx, 'map tilesets', m.tilesets).map((t0, k) => {
    const t = obj(ctx, `tilesets[${k}]`, t0);
    const element = `tilesets[${k}]${typeof t.source === 'string' ? ` ${quote(t.source)}` : typeof t.name === 'string' ? ` ${quote(t.name)}` : ''}`;
    const firstgid = int(ctx, element, 'firstgid', t.firstgid, undefined, 1);
    if (typeof t.source === 'string') return { firstgid, source: t.source, embedded: null, element };
    return { firstgid, source: null, embedded: tilesetFromJson(ctx, element, t, firstgid), element };
  });
  return {
    orientation: str(m.orientation, 'orthogonal'),
    renderOrder: str(m.renderorder, 'right-down'),
    width,
    height,
    tileWidth: num(ctx, 'map', 'tilewidth', m.tilewidth),
    tileHeight: num(ctx, 'map', 'tileheight', m.tileheight),
    hexSideLength: num(ctx, 'map', 'hexsidelength', m.hexsidelength, 0),
    staggerAxis: str(m.staggeraxis, 'y'),
    staggerIndex: str(m.staggerindex, 'odd'),
    infinite,
    properties: properties(ctx, 'map', m.properties, m.propertytypes),
    tilesets,
    layers: layers(ctx, arr(ctx, 'map layers', m.layers), '', width, height, infinite, limits),
  };
}

/** Reads a TSJ document (an external tileset). */
export function readTsj(ctx: Ctx, text: string, firstgid: number): RawTileset {
  return tilesetFromJson(ctx, 'tileset', parseJson(ctx, text, 'tileset'), firstgid);
}

/**
 * A tileset's tiles as a list. Tiled's first JSON format keyed them by id in an object, and kept
 * their properties apart in `tileproperties` / `tilepropertytypes`, keyed by id too.
 */
function legacyTiles(ctx: Ctx, element: string, t: J): unknown[] {
  const list = t.tiles !== null && typeof t.tiles === 'object' && !Array.isArray(t.tiles) ? Object.entries(t.tiles as J).map(([id, x]) => ({ id: Number(id), ...obj(ctx, `${element} tiles`, x) })) : arr(ctx, `${element} tiles`, t.tiles);
  if (t.tileproperties === undefined) return list;
  const props = obj(ctx, `${element} tileproperties`, t.tileproperties);
  const types = t.tilepropertytypes !== null && typeof t.tilepropertytypes === 'object' ? (t.tilepropertytypes as J) : {};
  const byId = new Map<number, J>();
  for (const x of list) if (x !== null && typeof x === 'object' && typeof (x as J).id === 'number') byId.set((x as J).id as number, x as J);
  const out = [...list];
  for (const [id, p] of Object.entries(props)) {
    const tile = byId.get(Number(id));
    const merged = { ...(tile ?? { id: Number(id) }), properties: p, propertytypes: Object.hasOwn(types, id) ? types[id] : undefined };
    if (tile !== undefined) out[out.indexOf(tile)] = merged;
    else out.push(merged);
  }
  return out;
}

function tilesetFromJson(ctx: Ctx, element: string, t: J, firstgid: number): RawTileset {
  const offset = t.tileoffset === undefined ? {} : obj(ctx, `${element} tileoffset`, t.tileoffset);
  const tiles: RawTile[] = legacyTiles(ctx, element, t).map((x0) => {
    const x = obj(ctx, `${element} tiles`, x0);
    const id = int(ctx, `${element} tiles`, 'id', x.id, undefined, 0);
    const where = `${element} tile ${id}`;
    const group = x.objectgroup === undefined ? undefined : obj(ctx, `${where} objectgroup`, x.objectgroup);
    return {
      id,
      properties: properties(ctx, where, x.properties, x.propertytypes),
      shapes: group ? objects(ctx, `${where} objectgroup`, group.objects) : [],
      imageWidth: num(ctx, where, 'imagewidth', x.imagewidth ?? x.width, 0),
      imageHeight: num(ctx, where, 'imageheight', x.imageheight ?? x.height, 0),
    };
  });
  return {
    firstgid,
    name: str(t.name),
    tileWidth: num(ctx, element, 'tilewidth', t.tilewidth, 0),
    tileHeight: num(ctx, element, 'tileheight', t.tileheight, 0),
    tileCount: int(ctx, element, 'tilecount', t.tilecount, 0, 0),
    columns: int(ctx, element, 'columns', t.columns, 0, 0),
    margin: num(ctx, element, 'margin', t.margin, 0),
    spacing: num(ctx, element, 'spacing', t.spacing, 0),
    image: typeof t.image === 'string' ? { source: t.image, width: num(ctx, element, 'imagewidth', t.imagewidth, 0), height: num(ctx, element, 'imageheight', t.imageheight, 0) } : null,
    offsetX: num(ctx, element, 'tileoffset x', offset.x, 0),
    offsetY: num(ctx, element, 'tileoffset y', offset.y, 0),
    tiles,
    properties: properties(ctx, element, t.properties, t.propertytypes),
    file: ctx.file,
  };
}

function layers(ctx: Ctx, list: unknown[], path: string, width: number, height: number, infinite: boolean, limits: DecodeLimits, depth = 0): RawLayer[] {
  const out: RawLayer[] = [];
  list.forEach((l0, k) => {
    const l = obj(ctx, `${path}layers[${k}]`, l0);
    const element = `${path}layer ${typeof l.name === 'string' ? quote(l.name, 60) : k}`;
    const base = {
      name: str(l.name),
      visible: l.visible !== false,
      offsetX: num(ctx, element, 'offsetx', l.offsetx, 0),
      offsetY: num(ctx, element, 'offsety', l.offsety, 0),
      properties: properties(ctx, element, l.properties, l.propertytypes),
      element,
    };
    switch (l.type) {
      case 'group':
        if (depth >= MAX_NESTING) fail(ctx, element, `group layers nest more than ${MAX_NESTING} deep`);
        out.push({ kind: 'group', ...base, layers: layers(ctx, arr(ctx, `${element} layers`, l.layers), element + ' > ', width, height, infinite, limits, depth + 1) });
        break;
      case 'objectgroup':
        out.push({ kind: 'object', ...base, objects: objects(ctx, element, l.objects) });
        break;
      case 'imagelayer':
        out.push({ kind: 'image', ...base });
        break;
      case 'tilelayer':
        out.push({ kind: 'tile', ...base, ...tileData(ctx, element, l, width, height, infinite, limits) });
        break;
      default:
        fail(ctx, element, `unknown layer type ${describe(l.type)}; expected tilelayer, objectgroup, imagelayer or group`);
    }
  });
  return out;
}

function tileData(ctx: Ctx, element: string, l: J, mapW: number, mapH: number, infinite: boolean, limits: DecodeLimits) {
  const width = int(ctx, element, 'width', l.width, mapW, 0);
  const height = int(ctx, element, 'height', l.height, mapH, 0);
  const encoding = str(l.encoding, 'csv');
  const compression = str(l.compression, '');
  const decode = (data: unknown, w: number, h: number, at: string): Uint32Array => {
    const count = checkSize(ctx, at, w, h, limits);
    if (encoding === 'csv') {
      if (!Array.isArray(data)) fail(ctx, at, 'expected "data" to be an array of gids (encoding csv)');
      return decodeArray(ctx, at, data, count);
    }
    if (encoding === 'base64') {
      if (typeof data !== 'string') fail(ctx, at, 'expected "data" to be a base64 string');
      return decodeBase64Gids(ctx, at, data, compression, count, limits);
    }
    fail(ctx, at, `unknown encoding ${quote(encoding, 40)}; expected csv or base64`);
  };
  if (!infinite) {
    if (width !== mapW || height !== mapH) fail(ctx, element, `layer size ${width} x ${height} differs from the map's ${mapW} x ${mapH}`);
    return { width, height, data: decode(l.data, width, height, `${element} data`), chunks: null };
  }
  const chunks: RawChunk[] = arr(ctx, `${element} chunks`, l.chunks).map((c0, k) => {
    const c = obj(ctx, `${element} chunks[${k}]`, c0);
    const at = `${element} chunks[${k}]`;
    const x = int(ctx, at, 'x', c.x);
    const y = int(ctx, at, 'y', c.y);
    const w = int(ctx, at, 'width', c.width, undefined, 0);
    const h = int(ctx, at, 'height', c.height, undefined, 0);
    return { x, y, width: w, height: h, data: decode(c.data, w, h, `${at} (${x}, ${y})`) };
  });
  return { width, height, data: null, chunks };
}

function objects(ctx: Ctx, element: string, list: unknown): RawObject[] {
  return arr(ctx, `${element} objects`, list).map((o0, k) => {
    const o = obj(ctx, `${element} objects[${k}]`, o0);
    return object(ctx, `${element} object ${typeof o.id === 'number' ? o.id : `[${k}]`}`, o, false);
  });
}

const OBJECT_KEYS: Record<string, string> = { name: 'name', type: 'type', class: 'type', x: 'x', y: 'y', width: 'width', height: 'height', rotation: 'rotation', visible: 'visible', gid: 'gid', ellipse: 'shape', point: 'shape', text: 'shape', polygon: 'shape', polyline: 'shape' };

function object(ctx: Ctx, where: string, o: J, isTemplate: boolean): RawObject {
  const poly = o.polygon ?? o.polyline;
  let shape: RawObject['shape'] = 'rectangle';
  if (o.ellipse === true) shape = 'ellipse';
  else if (o.point === true) shape = 'point';
  else if (o.text !== undefined) shape = 'text';
  else if (o.polygon !== undefined) shape = 'polygon';
  else if (o.polyline !== undefined) shape = 'polyline';
  const points: number[] = [];
  if (poly !== undefined) {
    for (const p0 of arr(ctx, `${where} points`, poly)) {
      const p = obj(ctx, `${where} points`, p0);
      points.push(num(ctx, where, 'point x', p.x), num(ctx, where, 'point y', p.y));
    }
  }
  const out: RawObject = {
    id: int(ctx, where, 'id', o.id, 0),
    name: str(o.name),
    type: str(o.type ?? o.class),
    x: num(ctx, where, 'x', o.x, 0),
    y: num(ctx, where, 'y', o.y, 0),
    width: num(ctx, where, 'width', o.width, 0),
    height: num(ctx, where, 'height', o.height, 0),
    rotation: num(ctx, where, 'rotation', o.rotation, 0),
    visible: o.visible !== false,
    gid: int(ctx, where, 'gid', o.gid, 0, 0),
    shape,
    points,
    properties: properties(ctx, where, o.properties, o.propertytypes),
    template: str(o.template),
  };
  if (out.template !== '' || isTemplate) {
    const given = new Set<string>();
    for (const key of Object.keys(o)) if (Object.hasOwn(OBJECT_KEYS, key)) given.add(OBJECT_KEYS[key]);
    givenFields.set(out, given);
  }
  return out;
}

/** Reads a TJ document (an object template). */
export function readTj(ctx: Ctx, text: string): RawTemplate {
  const t = parseJson(ctx, text, 'template');
  if (t.type !== undefined && t.type !== 'template') fail(ctx, 'template', `"type" is ${describe(t.type)}, expected "template"`);
  const o = obj(ctx, 'template object', t.object);
  const ts = t.tileset === undefined ? undefined : obj(ctx, 'template tileset', t.tileset);
  return {
    object: object(ctx, 'template object', o, true),
    tileset: ts === undefined || typeof ts.source !== 'string' ? null : { firstgid: int(ctx, 'template tileset', 'firstgid', ts.firstgid, undefined, 1), source: ts.source },
  };
}

/**
 * Objects and property lists read as the TMJ reader reads them, for the Phaser adapter: Phaser's
 * object layers keep Tiled's JSON objects and properties nearly as written.
 */
export { objects as readJsonObjects, properties as readJsonProperties };
