/** TMJ maps and TSJ tilesets (JSON) into the neutral model. */
import { checkSize, decodeArray, decodeBase64Gids } from './data.js';
import { checkPropertyName, fail, int, num, quote, str, type Ctx, type DecodeLimits, type RawChunk, type RawLayer, type RawMap, type RawObject, type RawTile, type RawTileset, type TiledProperties, type TiledProperty, type TilesetRef } from './model.js';

type J = Record<string, unknown>;

function parseJson(ctx: Ctx, text: string, what: string): J {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    fail(ctx, 'JSON', `malformed JSON (${(e as Error).message})`);
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

function properties(ctx: Ctx, element: string, list: unknown): TiledProperties {
  const map = new Map<string, TiledProperty>();
  for (const item of arr(ctx, `${element} properties`, list)) {
    const p = obj(ctx, `${element} properties`, item);
    const name = checkPropertyName(ctx, element, p.name);
    const where = `${element} property ${JSON.stringify(name)}`;
    const type = str(p.type, 'string');
    const pt = typeof p.propertytype === 'string' ? { propertyType: p.propertytype } : {};
    const v = p.value;
    switch (type) {
      case 'bool':
        if (typeof v !== 'boolean') fail(ctx, where, `a bool must be true or false, got ${JSON.stringify(v)}`);
        map.set(name, { type, value: v, ...pt });
        break;
      case 'int':
      case 'object':
        map.set(name, { type, value: int(ctx, where, 'value', v, 0), ...pt });
        break;
      case 'float':
        map.set(name, { type, value: num(ctx, where, 'value', v, 0), ...pt });
        break;
      case 'string':
      case 'color':
      case 'file':
        if (v !== undefined && typeof v !== 'string') fail(ctx, where, `a ${type} must be a string, got ${JSON.stringify(v)}`);
        map.set(name, { type, value: v ?? '', ...pt });
        break;
      case 'class':
        map.set(name, { type, value: classMembers(ctx, where, v ?? {}), ...pt });
        break;
      default:
        fail(ctx, where, `unknown property type ${JSON.stringify(type)}; expected bool, int, float, string, color, file, object or class`);
    }
  }
  return map;
}

/** JSON class values carry members without their types; the JSON type stands in for Tiled's. */
function classMembers(ctx: Ctx, where: string, v: unknown): TiledProperties {
  const map = new Map<string, TiledProperty>();
  for (const [k, m] of Object.entries(obj(ctx, where, v))) {
    const name = checkPropertyName(ctx, where, k);
    const at = `${where}.${name}`;
    if (typeof m === 'boolean') map.set(name, { type: 'bool', value: m });
    else if (typeof m === 'number') map.set(name, { type: Number.isInteger(m) ? 'int' : 'float', value: m });
    else if (typeof m === 'string') map.set(name, { type: 'string', value: m });
    else map.set(name, { type: 'class', value: classMembers(ctx, at, m) });
  }
  return map;
}

/** Reads a TMJ document. */
export function readTmj(ctx: Ctx, text: string, limits: DecodeLimits): RawMap {
  const m = parseJson(ctx, text, 'map');
  if (m.type !== undefined && m.type !== 'map') fail(ctx, 'map', `"type" is ${JSON.stringify(m.type)}, expected "map"`);
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
    properties: properties(ctx, 'map', m.properties),
    tilesets,
    layers: layers(ctx, arr(ctx, 'map layers', m.layers), '', width, height, infinite, limits),
  };
}

/** Reads a TSJ document (an external tileset). */
export function readTsj(ctx: Ctx, text: string, firstgid: number): RawTileset {
  return tilesetFromJson(ctx, 'tileset', parseJson(ctx, text, 'tileset'), firstgid);
}

function tilesetFromJson(ctx: Ctx, element: string, t: J, firstgid: number): RawTileset {
  const offset = t.tileoffset === undefined ? {} : obj(ctx, `${element} tileoffset`, t.tileoffset);
  const tiles: RawTile[] = arr(ctx, `${element} tiles`, t.tiles).map((x0) => {
    const x = obj(ctx, `${element} tiles`, x0);
    const id = int(ctx, `${element} tiles`, 'id', x.id, undefined, 0);
    const where = `${element} tile ${id}`;
    const group = x.objectgroup === undefined ? undefined : obj(ctx, `${where} objectgroup`, x.objectgroup);
    return {
      id,
      properties: properties(ctx, where, x.properties),
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
    offsetX: num(ctx, element, 'tileoffset x', offset.x, 0),
    offsetY: num(ctx, element, 'tileoffset y', offset.y, 0),
    tiles,
    properties: properties(ctx, element, t.properties),
    file: ctx.file,
  };
}

function layers(ctx: Ctx, list: unknown[], path: string, width: number, height: number, infinite: boolean, limits: DecodeLimits): RawLayer[] {
  const out: RawLayer[] = [];
  list.forEach((l0, k) => {
    const l = obj(ctx, `${path}layers[${k}]`, l0);
    const element = `${path}layer ${typeof l.name === 'string' ? quote(l.name, 60) : k}`;
    const base = { name: str(l.name), visible: l.visible !== false, properties: properties(ctx, element, l.properties), element };
    switch (l.type) {
      case 'group':
        out.push({ kind: 'group', ...base, layers: layers(ctx, arr(ctx, `${element} layers`, l.layers), element + ' > ', width, height, infinite, limits) });
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
        fail(ctx, element, `unknown layer type ${JSON.stringify(l.type)}; expected tilelayer, objectgroup, imagelayer or group`);
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
    fail(ctx, at, `unknown encoding ${JSON.stringify(encoding)}; expected csv or base64`);
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
    const where = `${element} object ${typeof o.id === 'number' ? o.id : `[${k}]`}`;
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
    return {
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
      properties: properties(ctx, where, o.properties),
      template: str(o.template),
    };
  });
}
