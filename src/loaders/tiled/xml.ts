/** TMX maps and TSX tilesets (XML) into the neutral model. */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { checkSize, decodeBase64Gids, decodeCsv } from './data.js';
import { checkPropertyName, fail, givenFields, int, MAX_NESTING, num, oneLine, quote, quoteName, str, warn, type Ctx, type DecodeLimits, type RawChunk, type RawLayer, type RawMap, type RawObject, type RawTile, type RawTileset, type RawTemplate, type TiledProperties, type TiledProperty, type TiledPropertyValue, type TilesetRef } from './model.js';

interface XNode {
  tag: string;
  attrs: Record<string, string>;
  children: XNode[];
  text: string;
}

/** Deepest element nesting read; deeper files are refused before the parser (which recurses) sees them. */
const MAX_XML_DEPTH = 256;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  // Entities are decoded below, numeric references included, and never from a DOCTYPE.
  processEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: MAX_XML_DEPTH + 8,
});


/** Parses XML text into a small element tree; malformed XML is an error naming its line. */
function parseXml(ctx: Ctx, source: string, root: string): XNode {
  const { text, payloads } = setPayloadsAside(ctx, source);
  const valid = XMLValidator.validate(text);
  if (valid !== true) failXml(ctx, valid.err.line, ctx.foreign ? `${valid.err.code} (the file is not a well-formed XML ${root})` : oneLine(valid.err.msg));
  let doc: unknown[];
  try {
    doc = parser.parse(text) as unknown[];
  } catch (e) {
    fail(ctx, 'XML', ctx.foreign ? 'malformed XML' : `malformed XML (${oneLine((e as Error).message)})`);
  }
  const nodes = convert(doc, payloads);
  const top = nodes.find((n) => n.tag !== '');
  if (top === undefined || top.tag !== root) fail(ctx, 'XML', `expected a <${root}> element at the top, got ${top ? `<${quoteName(top.tag)}>` : 'nothing'}`);
  return top;
}

/**
 * Layer payloads (base64, CSV) are most of a map's bytes and hold no markup: one linear pass sets
 * them aside (keeping their newlines, for line numbers) so the validator and the parser scan only
 * the markup. The same pass measures the element nesting, which the parser would recurse through.
 * Linear whatever the input: every search stops at the next '<', where the next one starts.
 */
function setPayloadsAside(ctx: Ctx, source: string): { text: string; payloads: string[] } {
  const parts: string[] = [];
  const payloads: string[] = [];
  const n = source.length;
  let last = 0;
  let depth = 0;
  let i = 0;
  for (;;) {
    const lt = source.indexOf('<', i);
    if (lt < 0) break;
    const c = source.charCodeAt(lt + 1);
    if (c === 33 /* ! */) {
      const close = source.startsWith('<!--', lt) ? source.indexOf('-->', lt + 4) : source.startsWith('<![CDATA[', lt) ? source.indexOf(']]>', lt + 9) : lt;
      if (close < 0) break;
      i = close + 1;
      continue;
    }
    if (c === 63 /* ? */) {
      i = lt + 2;
      continue;
    }
    if (c === 47 /* / */) {
      depth--;
      i = lt + 2;
      continue;
    }
    // The tag's end: the first '>' outside quotes; '<' cannot occur inside a well-formed tag.
    let j = lt + 1;
    let quote = 0;
    for (; j < n; j++) {
      const d = source.charCodeAt(j);
      if (d === 60) break;
      if (quote !== 0) {
        if (d === quote) quote = 0;
      } else if (d === 34 || d === 39) quote = d;
      else if (d === 62) break;
    }
    if (j >= n || source.charCodeAt(j) !== 62) {
      i = j;
      continue;
    }
    i = j + 1;
    if (source.charCodeAt(j - 1) === 47) continue;
    if (++depth > MAX_XML_DEPTH) {
      fail(ctx, `XML line ${lineAt(source, lt)}`, `elements nest more than ${MAX_XML_DEPTH} deep; no Tiled file needs that many`);
    }
    if (!isTag(source, lt + 1, 'data') && !isTag(source, lt + 1, 'chunk')) continue;
    let k = i;
    let lines = 0;
    for (; k < n; k++) {
      const d = source.charCodeAt(k);
      if (d === 60 || d === 38 || d === 0xe000) break;
      if (d === 10) lines++;
    }
    if (k - i >= 256 && source.charCodeAt(k) === 60 && source.charCodeAt(k + 1) === 47) {
      parts.push(source.slice(last, i), `\uE000${payloads.length}\uE001`, '\n'.repeat(lines));
      payloads.push(source.slice(i, k));
      last = k;
    }
    i = k;
  }
  if (payloads.length === 0) return { text: source, payloads };
  parts.push(source.slice(last));
  return { text: parts.join(''), payloads };
}

/** Whether `name` starts at `at` and ends there (a space, '>' or '/' follows). */
function isTag(s: string, at: number, name: string): boolean {
  if (!s.startsWith(name, at)) return false;
  const c = s.charCodeAt(at + name.length);
  return c === 62 || c === 47 || c === 32 || c === 9 || c === 10 || c === 13;
}

function lineAt(s: string, at: number): number {
  let line = 1;
  for (let p = s.indexOf('\n'); p >= 0 && p < at; p = s.indexOf('\n', p + 1)) line++;
  return line;
}

function failXml(ctx: Ctx, line: number, msg: string): never {
  fail(ctx, `XML line ${line}`, `malformed XML: ${msg}`);
}

function convert(list: unknown[], payloads: string[]): XNode[] {
  const out: XNode[] = [];
  for (const item of list) {
    const rec = item as Record<string, unknown>;
    if ('#text' in rec) {
      let text = String(rec['#text']);
      const m = /^\uE000(\d+)\uE001/.exec(text);
      if (m && Number(m[1]) < payloads.length) text = payloads[Number(m[1])];
      else text = decodeEntities(text);
      out.push({ tag: '', attrs: {}, children: [], text });
      continue;
    }
    for (const key of Object.keys(rec)) {
      if (key === ':@') continue;
      const attrs: Record<string, string> = Object.create(null);
      const src = rec[':@'] as Record<string, unknown> | undefined;
      if (src) for (const [k, v] of Object.entries(src)) attrs[k] = decodeEntities(String(v));
      const children = convert((rec[key] as unknown[]) ?? [], payloads);
      out.push({ tag: key, attrs, children, text: children.filter((c) => c.tag === '').map((c) => c.text).join('') });
    }
  }
  return out;
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** XML's five named entities and numeric character references (`&#10;`, `&#x41;`); others stay as written. */
function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(?:#(\d{1,7})|#x([0-9a-fA-F]{1,6})|(lt|gt|amp|quot|apos));/g, (m, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name !== undefined) return NAMED[name];
    const code = dec !== undefined ? Number(dec) : parseInt(hex!, 16);
    return code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : m;
  });
}

const kids = (n: XNode, tag: string) => n.children.filter((c) => c.tag === tag);
const kid = (n: XNode, tag: string) => n.children.find((c) => c.tag === tag);

function properties(ctx: Ctx, element: string, node: XNode | undefined, depth = 0): TiledProperties {
  const map = new Map<string, TiledProperty>();
  if (node === undefined) return map;
  for (const p of kids(node, 'property')) {
    const name = checkPropertyName(ctx, element, p.attrs.name);
    const where = `${element} property ${quote(name, 60)}`;
    const value = propertyValue(ctx, where, p, depth);
    if (value !== null) map.set(name, value);
  }
  return map;
}

/** One property or list item; null (with a warning) for a type this reader does not know. */
function propertyValue(ctx: Ctx, where: string, node: XNode, depth: number): TiledProperty | null {
  const type = node.attrs.type ?? 'string';
  const raw = node.attrs.value ?? node.text;
  const pt = node.attrs.propertytype !== undefined ? { propertyType: node.attrs.propertytype } : {};
  switch (type) {
    case 'bool':
      if (raw !== 'true' && raw !== 'false') fail(ctx, where, `a bool must be "true" or "false", got ${quote(raw, 40)}`);
      return { type, value: raw === 'true', ...pt };
    case 'int':
    case 'object':
      return { type, value: int(ctx, where, 'value', raw === '' ? undefined : raw, 0), ...pt };
    case 'float':
      return { type, value: num(ctx, where, 'value', raw === '' ? undefined : raw, 0), ...pt };
    case 'string':
    case 'color':
    case 'file':
      return { type, value: raw, ...pt };
    case 'class':
      if (depth >= MAX_NESTING) fail(ctx, where, `class values nest more than ${MAX_NESTING} deep`);
      return { type, value: properties(ctx, where, kid(node, 'properties'), depth + 1), ...pt };
    case 'list': {
      if (depth >= MAX_NESTING) fail(ctx, where, `list values nest more than ${MAX_NESTING} deep`);
      const items: TiledPropertyValue[] = [];
      kids(node, 'item').forEach((item, k) => {
        const v = propertyValue(ctx, `${where} item ${k + 1}`, item, depth + 1);
        if (v !== null) items.push(v.value);
      });
      return { type, value: items, ...pt };
    }
    default:
      warn(ctx, `${ctx.file}: ${where}: unknown property type ${quote(type, 40)} skipped (known: bool, int, float, string, color, file, object, class, list)`);
      return null;
  }
}

/** Reads a TMX document. */
export function readTmx(ctx: Ctx, text: string, limits: DecodeLimits): RawMap {
  const map = parseXml(ctx, text, 'map');
  const a = map.attrs;
  const infinite = a.infinite === '1';
  const width = int(ctx, '<map>', 'width', a.width, undefined, 0);
  const height = int(ctx, '<map>', 'height', a.height, undefined, 0);
  const tilesets: TilesetRef[] = kids(map, 'tileset').map((t, k) => {
    const element = `<tileset> ${k + 1}${t.attrs.source ? ` ${quote(t.attrs.source)}` : t.attrs.name ? ` ${quote(t.attrs.name)}` : ''}`;
    const firstgid = int(ctx, element, 'firstgid', t.attrs.firstgid, undefined, 1);
    if (t.attrs.source !== undefined) return { firstgid, source: t.attrs.source, embedded: null, element };
    return { firstgid, source: null, embedded: tilesetFromNode(ctx, element, t, firstgid), element };
  });
  return {
    orientation: a.orientation ?? 'orthogonal',
    renderOrder: a.renderorder ?? 'right-down',
    width,
    height,
    tileWidth: num(ctx, '<map>', 'tilewidth', a.tilewidth),
    tileHeight: num(ctx, '<map>', 'tileheight', a.tileheight),
    hexSideLength: num(ctx, '<map>', 'hexsidelength', a.hexsidelength, 0),
    staggerAxis: a.staggeraxis ?? 'y',
    staggerIndex: a.staggerindex ?? 'odd',
    infinite,
    properties: properties(ctx, '<map>', kid(map, 'properties')),
    tilesets,
    layers: layers(ctx, map, '', width, height, infinite, limits),
  };
}

/** Reads a TSX document (an external tileset). */
export function readTsx(ctx: Ctx, text: string, firstgid: number): RawTileset {
  return tilesetFromNode(ctx, '<tileset>', parseXml(ctx, text, 'tileset'), firstgid);
}

function tilesetFromNode(ctx: Ctx, element: string, t: XNode, firstgid: number): RawTileset {
  const a = t.attrs;
  const offset = kid(t, 'tileoffset');
  const tiles: RawTile[] = kids(t, 'tile').map((tile) => {
    const id = int(ctx, `${element} <tile>`, 'id', tile.attrs.id, undefined, 0);
    const where = `${element} <tile id="${id}">`;
    const image = kid(tile, 'image');
    const group = kid(tile, 'objectgroup');
    return {
      id,
      properties: properties(ctx, where, kid(tile, 'properties')),
      shapes: group ? objects(ctx, `${where} <objectgroup>`, group) : [],
      imageWidth: num(ctx, where, 'width', image?.attrs.width ?? tile.attrs.width, 0),
      imageHeight: num(ctx, where, 'height', image?.attrs.height ?? tile.attrs.height, 0),
    };
  });
  return {
    firstgid,
    name: a.name ?? '',
    tileWidth: num(ctx, element, 'tilewidth', a.tilewidth, 0),
    tileHeight: num(ctx, element, 'tileheight', a.tileheight, 0),
    tileCount: int(ctx, element, 'tilecount', a.tilecount, 0, 0),
    columns: int(ctx, element, 'columns', a.columns, 0, 0),
    margin: num(ctx, element, 'margin', a.margin, 0),
    spacing: num(ctx, element, 'spacing', a.spacing, 0),
    image: tilesetImage(ctx, element, kid(t, 'image')),
    offsetX: num(ctx, element, 'tileoffset x', offset?.attrs.x, 0),
    offsetY: num(ctx, element, 'tileoffset y', offset?.attrs.y, 0),
    tiles,
    properties: properties(ctx, element, kid(t, 'properties')),
    file: ctx.file,
  };
}

function tilesetImage(ctx: Ctx, element: string, image: XNode | undefined): RawTileset['image'] {
  if (image === undefined || image.attrs.source === undefined) return null;
  return { source: image.attrs.source, width: num(ctx, `${element} <image>`, 'width', image.attrs.width, 0), height: num(ctx, `${element} <image>`, 'height', image.attrs.height, 0) };
}

function layerElement(parent: string, tag: string, node: XNode): string {
  return `${parent}<${tag}${node.attrs.name !== undefined ? ` name="${quoteName(node.attrs.name, 60)}"` : ''}>`;
}

function layers(ctx: Ctx, parent: XNode, path: string, width: number, height: number, infinite: boolean, limits: DecodeLimits, depth = 0): RawLayer[] {
  const out: RawLayer[] = [];
  for (const node of parent.children) {
    if (!['layer', 'objectgroup', 'group', 'imagelayer'].includes(node.tag)) continue;
    const element = layerElement(path, node.tag, node);
    const base = {
      name: node.attrs.name ?? '',
      visible: node.attrs.visible !== '0',
      offsetX: num(ctx, element, 'offsetx', node.attrs.offsetx, 0),
      offsetY: num(ctx, element, 'offsety', node.attrs.offsety, 0),
      properties: properties(ctx, element, kid(node, 'properties')),
      element,
    };
    if (node.tag === 'group') {
      if (depth >= MAX_NESTING) fail(ctx, element, `group layers nest more than ${MAX_NESTING} deep`);
      out.push({ kind: 'group', ...base, layers: layers(ctx, node, element + ' > ', width, height, infinite, limits, depth + 1) });
    } else if (node.tag === 'objectgroup') out.push({ kind: 'object', ...base, objects: objects(ctx, element, node) });
    else if (node.tag === 'imagelayer') out.push({ kind: 'image', ...base });
    else out.push({ kind: 'tile', ...base, ...tileData(ctx, element, node, width, height, infinite, limits) });
  }
  return out;
}

function tileData(ctx: Ctx, element: string, node: XNode, mapW: number, mapH: number, infinite: boolean, limits: DecodeLimits) {
  const width = int(ctx, element, 'width', node.attrs.width, mapW, 0);
  const height = int(ctx, element, 'height', node.attrs.height, mapH, 0);
  const data = kid(node, 'data');
  const where = `${element} <data>`;
  if (data === undefined) fail(ctx, where, 'the layer has no <data> element');
  const encoding = data.attrs.encoding ?? '';
  const compression = data.attrs.compression ?? '';
  const decode = (n: XNode, w: number, h: number, at: string): Uint32Array => {
    const count = checkSize(ctx, at, w, h, limits);
    if (encoding === 'csv') {
      if (compression !== '') fail(ctx, at, `CSV data cannot be compressed (compression ${quote(compression, 40)})`);
      return decodeCsv(ctx, at, n.text, count);
    }
    if (encoding === 'base64') return decodeBase64Gids(ctx, at, n.text, compression, count, limits);
    if (encoding === '') {
      const tiles = kids(n, 'tile');
      if (tiles.length !== count) fail(ctx, at, `${tiles.length} <tile> elements; the layer size needs ${count}`);
      const out = new Uint32Array(count);
      for (let i = 0; i < count; i++) out[i] = int(ctx, `${at} <tile> ${i + 1}`, 'gid', tiles[i].attrs.gid, 0, 0);
      return out;
    }
    fail(ctx, at, `unknown encoding ${quote(encoding, 40)}; expected csv or base64 (or none, for <tile> elements)`);
  };
  if (!infinite) {
    if (width !== mapW || height !== mapH) fail(ctx, element, `layer size ${width} x ${height} differs from the map's ${mapW} x ${mapH}`);
    return { width, height, data: decode(data, width, height, where), chunks: null };
  }
  const chunks: RawChunk[] = kids(data, 'chunk').map((c, k) => {
    const at = `${where} <chunk> ${k + 1}`;
    const x = int(ctx, at, 'x', c.attrs.x);
    const y = int(ctx, at, 'y', c.attrs.y);
    const w = int(ctx, at, 'width', c.attrs.width, undefined, 0);
    const h = int(ctx, at, 'height', c.attrs.height, undefined, 0);
    return { x, y, width: w, height: h, data: decode(c, w, h, `${at} (${x}, ${y})`) };
  });
  return { width, height, data: null, chunks };
}

function objects(ctx: Ctx, element: string, group: XNode): RawObject[] {
  return kids(group, 'object').map((o, k) => object(ctx, `${element} <object${o.attrs.id !== undefined ? ` id="${quoteName(o.attrs.id, 20)}"` : ` ${k + 1}`}>`, o));
}

const OBJECT_ATTRS: Record<string, string> = { name: 'name', type: 'type', class: 'type', x: 'x', y: 'y', width: 'width', height: 'height', rotation: 'rotation', visible: 'visible', gid: 'gid' };

function object(ctx: Ctx, where: string, o: XNode, isTemplate = false): RawObject {
  const a = o.attrs;
  const poly = kid(o, 'polygon') ?? kid(o, 'polyline');
  let shape: RawObject['shape'] = 'rectangle';
  if (kid(o, 'ellipse')) shape = 'ellipse';
  else if (kid(o, 'point')) shape = 'point';
  else if (kid(o, 'text')) shape = 'text';
  else if (poly) shape = poly.tag as 'polygon' | 'polyline';
  const points: number[] = [];
  if (poly) {
    for (const pair of (poly.attrs.points ?? '').trim().split(/\s+/)) {
      if (pair === '') continue;
      const [px, py] = pair.split(',');
      points.push(num(ctx, where, 'points', px), num(ctx, where, 'points', py));
    }
  }
  const out: RawObject = {
    id: int(ctx, where, 'id', a.id, 0),
    name: a.name ?? '',
    type: a.type ?? a.class ?? '',
    x: num(ctx, where, 'x', a.x, 0),
    y: num(ctx, where, 'y', a.y, 0),
    width: num(ctx, where, 'width', a.width, 0),
    height: num(ctx, where, 'height', a.height, 0),
    rotation: num(ctx, where, 'rotation', a.rotation, 0),
    visible: a.visible !== '0',
    gid: int(ctx, where, 'gid', a.gid, 0, 0),
    shape,
    points,
    properties: properties(ctx, where, kid(o, 'properties')),
    template: a.template ?? '',
  };
  if (out.template !== '' || isTemplate) {
    const given = new Set<string>();
    for (const key of Object.keys(a)) if (Object.hasOwn(OBJECT_ATTRS, key)) given.add(OBJECT_ATTRS[key]);
    if (o.children.some((c) => ['ellipse', 'point', 'text', 'polygon', 'polyline'].includes(c.tag))) given.add('shape');
    givenFields.set(out, given);
  }
  return out;
}

/** Reads a TX document (an object template). */
export function readTx(ctx: Ctx, text: string): RawTemplate {
  const t = parseXml(ctx, text, 'template');
  const o = kid(t, 'object');
  if (o === undefined) fail(ctx, '<template>', 'the template has no <object>');
  const ts = kid(t, 'tileset');
  return {
    object: object(ctx, '<template> <object>', o, true),
    tileset: ts === undefined || ts.attrs.source === undefined ? null : { firstgid: int(ctx, '<template> <tileset>', 'firstgid', ts.attrs.firstgid, undefined, 1), source: ts.attrs.source },
  };
}
