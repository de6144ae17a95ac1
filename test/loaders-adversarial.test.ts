/**
 * Hostile and oversized input for the map loaders: every case ends, quickly and within bounded
 * memory, in a loaded map or a one-line TilenavError naming the file and what was wrong.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TilenavError } from '../src/index.js';
import { parseTiled, parsePolygonConfig, parseMovingAiMap, parseTextGrid } from '../src/loaders/index.js';

/** Runs `fn`, asserting it returned or threw in less than `ms` milliseconds. */
function within<T>(ms: number, fn: () => T): T {
  const t0 = performance.now();
  try {
    return fn();
  } finally {
    const took = performance.now() - t0;
    assert.ok(took < ms, `took ${Math.round(took)} ms, expected under ${ms}`);
  }
}

/** Asserts `fn` throws a one-line TilenavError whose message matches every pattern. */
function refuses(fn: () => unknown, ...patterns: RegExp[]): TilenavError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof TilenavError, `expected a TilenavError, got ${caught instanceof Error ? `${caught.name}: ${caught.message.slice(0, 200)}` : String(caught)}`);
  assert.ok(!/[\n\r\u2028\u2029]/.test(caught.message), `message on more than one line: ${JSON.stringify(caught.message.slice(0, 300))}`);
  for (const p of patterns) assert.match(caught.message, p);
  return caught;
}

const tmx = (w: number, h: number, layer: string, extra = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="orthogonal" renderorder="right-down" width="${w}" height="${h}" tilewidth="16" tileheight="16" infinite="0">\n${extra}${layer}\n</map>\n`;

// ---- TMX payloads

test('a 4096 x 4096 CSV layer loads (the payload is read by a linear scan, not a regular expression)', () => {
  const n = 4096;
  const rows: string[] = [];
  const row = '0,'.repeat(n);
  for (let y = 0; y < n; y++) rows.push(y === n - 1 ? row.slice(0, -1) : row);
  rows[5] = '1,' + rows[5].slice(2);
  const text = tmx(n, n, `<layer id="1" name="walls" width="${n}" height="${n}"><data encoding="csv">\n${rows.join('\n')}\n</data></layer>`);
  const m = within(20000, () => parseTiled(text, { file: 'big.tmx', mapping: { collisionProperties: ['x'] } }));
  assert.equal(m.grid.width, n);
  assert.equal(m.grid.height, n);
});

test('a 1024 x 1024 uncompressed base64 layer loads', () => {
  const n = 1024;
  const bytes = new Uint8Array(n * n * 4);
  bytes[0] = 1;
  const b64 = Buffer.from(bytes).toString('base64');
  const text = tmx(n, n, `<layer id="1" name="walls" width="${n}" height="${n}"><properties><property name="collides" type="bool" value="true"/></properties><data encoding="base64">\n${b64}\n</data></layer>`);
  const m = within(10000, () => parseTiled(text, { file: 'b64.tmx' }));
  assert.equal(m.grid.isWalkable(0, 0), false);
  assert.equal(m.grid.isWalkable(1, 0), true);
});

test('240 KB of unterminated <data tags is refused in linear time', () => {
  const text = tmx(2, 2, '"<data '.repeat(34000));
  refuses(() => within(3000, () => parseTiled(text, { file: 'junk.tmx' })), /junk\.tmx/, /XML/);
  const text2 = tmx(2, 2, '<data '.repeat(40000));
  refuses(() => within(3000, () => parseTiled(text2, { file: 'junk2.tmx' })), /junk2\.tmx/);
});

test('CSV with a long run of spaces after a value reads in linear time', () => {
  const text = tmx(2, 1, `<layer id="1" name="a" width="2" height="1"><data encoding="csv">1${' '.repeat(1_000_000)},2</data></layer>`);
  const m = within(2000, () => parseTiled(text, { file: 'spaces.tmx' }));
  assert.equal(m.grid.width, 2);
});

// ---- rasterising work is bounded

const collisionMap = (w: number, h: number, objects: string, attrs = 'orientation="orthogonal"') =>
  `<map ${attrs} width="${w}" height="${h}" tilewidth="16" tileheight="16"><layer name="g" width="${w}" height="${h}"><data encoding="csv">${Array(w * h).fill(0).join(',')}</data></layer><objectgroup name="collision">${objects}</objectgroup></map>`;

test('a polyline a trillion pixels long costs only its part on the map', () => {
  for (const attrs of ['orientation="orthogonal"', 'orientation="isometric"', 'orientation="staggered" staggeraxis="y" staggerindex="odd"', 'orientation="hexagonal" staggeraxis="x" staggerindex="even" hexsidelength="8"']) {
    const text = collisionMap(20, 10, '<object id="1" x="0" y="8"><properties><property name="lineWidth" type="float" value="4"/></properties><polyline points="0,0 1e12,0"/></object><object id="2" x="0" y="40"><polyline points="0,0 1e12,1e11"/></object>', attrs);
    const m = within(2000, () => parseTiled(text, { file: 'long.tmx' }));
    assert.ok(m.grid.stats()[0].blocked > 0, attrs);
  }
});

test('an 8 KB zig-zag polyline across an 800 x 800 map loads in bounded time', () => {
  const pts: string[] = [];
  for (let k = 0; k < 700; k++) pts.push(`${k % 2 === 0 ? 0 : 12800},${(k * 18) % 12800}`);
  const text = collisionMap(800, 800, `<object id="1" x="0" y="0"><polyline points="${pts.join(' ')}"/></object>`);
  const m = within(8000, () => parseTiled(text, { file: 'zigzag.tmx' }));
  assert.ok(m.grid.stats()[0].blocked > 800);
});

test('a large collision shape on every tile of a 200 x 200 map is rasterised once and stamped', () => {
  const n = 200;
  const text = `<map orientation="orthogonal" width="${n}" height="${n}" tilewidth="16" tileheight="16"><tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="1"><tile id="0"><objectgroup><object id="1" x="2" y="2" width="3200" height="3200"/></objectgroup></tile></tileset><layer name="a" width="${n}" height="${n}"><data encoding="csv">${Array(n * n).fill(1).join(',')}</data></layer></map>`;
  const m = within(4000, () => parseTiled(text, { file: 'stamps.tmx' }));
  assert.equal(m.grid.stats()[0].blocked, n * n);
  // A small shape: the stamp lands exactly where drawing it at each cell would.
  const small = text.replace('width="3200" height="3200"', 'width="4" height="4"').replace(/<data encoding="csv">[^<]*/, `<data encoding="csv">${Array.from({ length: n * n }, (_, i) => (i % 7 === 0 ? 1 : 0)).join(',')}`);
  const s = parseTiled(small, { file: 'small.tmx' });
  for (let i = 0; i < n * n; i++) assert.equal(s.grid.isWalkable(i % n, Math.floor(i / n)), i % 7 !== 0);
});

test('past maxRasterWork the map is refused with an error naming the object; NaN limits are refused', () => {
  const text = collisionMap(100, 100, '<object id="7" name="big wall" x="0" y="0" width="1600" height="1600"/>');
  assert.equal(parseTiled(text, { file: 'w.tmx' }).grid.stats()[0].blocked, 10000);
  refuses(() => parseTiled(text, { file: 'w.tmx', maxRasterWork: 5000 }), /w\.tmx: <objectgroup name="collision"> object 7 "big wall": drawing the collision shapes takes more than 5000 cell visits \(maxRasterWork\)/);
  for (const name of ['maxCells', 'maxDecompressedBytes', 'maxRasterWork']) {
    for (const bad of [NaN, 'x', -1]) refuses(() => parseTiled(text, { file: 'w.tmx', [name]: bad }), new RegExp(`^${name}: expected a number >= 0`));
  }
});

// ---- polygon configs

/** The polygon rules cell by cell, straight from their definition (even-odd inside, distance to edges). */
function bruteForce(cfg: { cellSize: number; agentRadius: number; objectPadding: number; boundaryPadding: number; areas: { polygon: number[][] }[]; obstacles: { polygon: number[][] }[] }, minX: number, minZ: number, W: number, H: number): Uint8Array {
  const inside = (poly: number[][], x: number, z: number) => {
    let on = false;
    for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
      const [xi, zi] = poly[i];
      const [xj, zj] = poly[j];
      if (zi > z !== zj > z && x < xj + ((z - zj) * (xi - xj)) / (zi - zj)) on = !on;
    }
    return on;
  };
  const dist = (poly: number[][], x: number, z: number) => {
    let best = Infinity;
    for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
      const [ax, az] = poly[j];
      const ex = poly[i][0] - ax;
      const ez = poly[i][1] - az;
      const l2 = ex * ex + ez * ez;
      const t = l2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - ax) * ex + (z - az) * ez) / l2));
      best = Math.min(best, Math.hypot(ax + t * ex - x, az + t * ez - z));
    }
    return best;
  };
  const out = new Uint8Array(W * H);
  const clearance = cfg.agentRadius + cfg.objectPadding;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const cx = minX + (x + 0.5) * cfg.cellSize;
      const cz = minZ + (y + 0.5) * cfg.cellSize;
      let v = cfg.areas.some((a) => inside(a.polygon, cx, cz) && !(cfg.boundaryPadding > 0 && dist(a.polygon, cx, cz) < cfg.boundaryPadding)) ? 1 : 0;
      if (cfg.obstacles.some((o) => inside(o.polygon, cx, cz) || dist(o.polygon, cx, cz) < clearance)) v = 0;
      out[y * W + x] = v;
    }
  }
  return out;
}

test('polygon rasterising by runs and edge capsules matches the rules cell by cell (random configs)', () => {
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const poly = (cx: number, cz: number, r: number) => Array.from({ length: 3 + Math.floor(rnd() * 6) }, () => [cx + (rnd() - 0.5) * r, cz + (rnd() - 0.5) * r]);
  for (let round = 0; round < 40; round++) {
    const cfg = {
      cellSize: 0.25 + rnd(),
      agentRadius: rnd() * 1.5,
      objectPadding: rnd() * 0.5,
      boundaryPadding: rnd() < 0.5 ? 0 : rnd(),
      areas: [{ name: 'a', polygon: poly(10, 10, 20) }, { name: 'b', polygon: poly(12, 8, 10) }],
      obstacles: Array.from({ length: 3 }, () => ({ polygon: poly(5 + rnd() * 10, 5 + rnd() * 10, 6) })),
    };
    const nav = parsePolygonConfig(JSON.stringify(cfg), { file: `r${round}.json` });
    const spec = nav.grid.projection.spec as { minX: number; minZ: number };
    const want = bruteForce(cfg, spec.minX, spec.minZ, nav.grid.width, nav.grid.height);
    const got = nav.grid.layers[0].walkable;
    let diff = 0;
    for (let i = 0; i < want.length; i++) if (want[i] !== got[i]) diff++;
    assert.equal(diff, 0, `round ${round}: ${diff} cells differ`);
  }
});

test('a 477-byte config of long obstacles at cellSize 0.1 loads in bounded time; past maxRasterWork it is refused', () => {
  const config = (n: number) =>
    JSON.stringify({
      cellSize: 0.1,
      areas: [{ name: 'a', polygon: [[0, 0], [800, 0], [800, 800], [0, 800]] }],
      obstacles: Array.from({ length: n }, (_, k) => ({ polygon: [[k, 0], [800, 800 - k], [0, 800]] })),
    });
  assert.ok(config(10).length <= 480);
  const nav = within(8000, () => parsePolygonConfig(config(40), { file: 'long.json' }));
  assert.equal(nav.grid.width, 8018);
  refuses(() => parsePolygonConfig(config(10), { file: 'long.json', maxRasterWork: 1_000_000 }), /long\.json: (areas|obstacles)\[\d\][^:]*: rasterising the polygons takes more than 1000000 units of work \(maxRasterWork\)/);
});

// ---- limits that would switch off

test('every loader refuses a maxCells that is NaN, a string or negative, naming the option', () => {
  const square = JSON.stringify({ areas: [{ name: 'a', polygon: [[0, 0], [1, 0], [1, 1]] }] });
  const txt = 'cellSize 1\nminX 0\nminZ 0\ngridWidth 1\ngridDepth 1\n1\n';
  const map = 'type octile\nheight 1\nwidth 1\nmap\n.\n';
  const tmj = JSON.stringify({ type: 'map', width: 1, height: 1, tilewidth: 8, tileheight: 8, layers: [], tilesets: [] });
  for (const bad of [NaN, 'x', -5] as unknown as number[]) {
    refuses(() => parsePolygonConfig(square, { file: 'p.json', maxCells: bad }), /maxCells: expected a number >= 0/);
    refuses(() => parseTextGrid(txt, { file: 'g.txt', maxCells: bad }), /maxCells: expected a number >= 0/);
    refuses(() => parseMovingAiMap(map, { file: 'm.map', maxCells: bad }), /maxCells: expected a number >= 0/);
    refuses(() => parseTiled(tmj, { file: 'm.tmj', maxCells: bad }), /maxCells: expected a number >= 0/);
  }
});

// ---- deep nesting

const tmj = (layers: unknown[], extra: Record<string, unknown> = {}) => JSON.stringify({ type: 'map', orientation: 'orthogonal', width: 2, height: 1, tilewidth: 8, tileheight: 8, tilesets: [], layers, ...extra });

test('group layers and class values nested thousands deep are refused by name, not by a stack overflow', () => {
  // Built as text: JSON.stringify itself would overflow the stack on these.
  const groups = '{"type":"group","name":"g","layers":['.repeat(3000) + '{"type":"objectgroup","name":"leaf","objects":[]}' + ']}'.repeat(3000);
  refuses(() => parseTiled(tmj([]).replace('"layers":[]', `"layers":[${groups}]`), { file: 'deep.tmj' }), /deep\.tmj: .*layer "g": group layers nest more than 64 deep/);
  const withProps = (props: string) => tmj([]).replace('"tilesets":[]', `"tilesets":[],"properties":${props}`);
  const value = '{"inner":'.repeat(10000) + '1' + '}'.repeat(10000);
  refuses(() => parseTiled(withProps(`[{"name":"c","type":"class","value":${value}}]`), { file: 'deepclass.tmj' }), /deepclass\.tmj: map property "c".*: class values nest more than 64 deep/);
  const list = '{"type":"list","value":['.repeat(5000) + '{"type":"int","value":1}' + ']}'.repeat(5000);
  refuses(() => parseTiled(withProps(`[{"name":"l",${list.slice(1)}]`), { file: 'deeplist.tmj' }), /deeplist\.tmj: map property "l".*: list values nest more than 64 deep/);
  const xmlGroups = '<group name="g">'.repeat(3000) + '</group>'.repeat(3000);
  refuses(() => parseTiled(tmx(2, 1, xmlGroups), { file: 'deep.tmx' }), /deep\.tmx: XML line \d+: elements nest more than 256 deep/);
  const xml70 = '<group name="g">'.repeat(70) + '</group>'.repeat(70);
  refuses(() => parseTiled(tmx(2, 1, xml70), { file: 'deep70.tmx' }), /deep70\.tmx: (<group name="g"> > )+<group name="g">: group layers nest more than 64 deep/);
  // 64 deep is fine.
  let ok: unknown = { type: 'objectgroup', name: 'leaf', objects: [] };
  for (let k = 0; k < 64; k++) ok = { type: 'group', name: `g${k}`, layers: [ok] };
  assert.equal(parseTiled(tmj([ok]), { file: 'ok.tmj' }).properties.layers.length, 65);
});

// ---- costs a 32-bit float cannot hold

test('a slowMultiplier outside the 32-bit float range is refused naming the tile and the property', () => {
  const map = (v: string, terrain = '') =>
    `<map orientation="orthogonal" width="2" height="1" tilewidth="8" tileheight="8"><tileset firstgid="1" name="ts" tilewidth="8" tileheight="8" tilecount="1"><tile id="0"><properties>${terrain}<property name="slowMultiplier" type="float" value="${v}"/></properties></tile></tileset><layer name="ground" width="2" height="1"><properties><property name="isTilesetWalkable" type="bool" value="true"/></properties><data encoding="csv">1,1</data></layer></map>`;
  for (const v of ['1e-50', '1e39', '0', '-2']) refuses(() => parseTiled(map(v), { file: 'cost.tmx' }), /cost\.tmx: tileset "ts" tile 0 property "slowMultiplier": .* is not a usable cost multiplier; expected a number from 1\.17549\d*e-38 to 3\.40282\d*e\+38/);
  assert.equal(parseTiled(map('3'), { file: 'cost.tmx' }).grid.layers[0].cost[0], 3);
  // In range alone, but times the terrain's cost past what a 32-bit float holds.
  refuses(() => parseTiled(map('3e38', '<property name="terrainType" value="Water"/>'), { file: 'cost.tmx' }), /cost\.tmx: <layer name="ground">: cell \(0, 0\): its terrain cost times the slowMultipliers on it is Infinity/);
});

// ---- messages: one line, with the file

test('JSON errors are one line; names with newlines and control characters are escaped', () => {
  const e = refuses(() => parseTiled('{\n"type": "map",\n"width": 3,,\n}', { file: 'bad.tmj' }), /bad\.tmj: JSON: malformed JSON at line 3, column 12/);
  assert.doesNotMatch(e.message, /"width"/);
  refuses(() => parseTiled(tmj([{ type: 'tilelayer', name: 'two\nlines\u2028and\u0007bell', width: 2, height: 1, data: [1] }]), { file: 'n.tmj' }), /n\.tmj: layer "two\\nlines\\u2028and\\u0007bell" data: data has 1 values/);
  refuses(() => parseTiled(tmx(2, 1, '<layer name="a&#10;b" width="2" height="1"><data encoding="csv">1</data></layer>'), { file: 'n.tmx' }), /n\.tmx: <layer name="a\\nb"> <data>: CSV has 1 values/);
  refuses(() => parseTiled(tmx(2, 1, '', '<tileset firstgid="1" source="x&#10;y.tsx"/>'), { file: 'n.tmx' }), /n\.tmx: <tileset> 1 "x\\ny\.tsx": the external tileset "x\\ny\.tsx" needs options\.readFile/);
});

test('a path where contents belong, a corrupt .tmx, a huge Moving AI header: each says what it is', () => {
  refuses(() => parseTiled('maps/a.tmx'), /looks like a file path; pass the file's contents \(in Node, loadTiled\(path\) of tilenav\/loaders reads the file\)/);
  refuses(() => parsePolygonConfig('levels/room.json'), /looks like a file path; .*loadPolygonConfig\(path\)/);
  refuses(() => parseTiled(new Uint8Array([0x00, 0x13, 0x37, 0x3c, 0x6d]), { file: 'corrupt.tmx' }), /corrupt\.tmx: XML/);
  refuses(() => parseTiled('garbage { not xml', { file: 'corrupt.tmx' }), /corrupt\.tmx: XML/);
  refuses(() => parseMovingAiMap('type octile\nheight 1000000000\nwidth 1000\nmap\n', { file: 'huge.map' }), /huge\.map:2: map of 1000 x 1000000000 = \d+ cells exceeds maxCells/);
});

// ---- XML character references

test('numeric character references in XML attributes and text are decoded', () => {
  const text = tmx(2, 1, '<layer name="w&#x41;ll&#10;s &amp; co" width="2" height="1"><data encoding="csv">0,0</data></layer>', '<properties><property name="p" value="a&#65;&#x42;&lt;"/><property name="q">x&#38;y</property></properties>');
  const m = parseTiled(text, { file: 'refs.tmx' });
  assert.equal(m.properties.map.get('p')!.value, 'aAB<');
  assert.equal(m.properties.map.get('q')!.value, 'x&y');
  assert.equal(m.properties.layers[0].name, 'wAll\ns & co');
});

test('a Tiled hex map\'s staggered projection is named "hexagonal (staggered)" in messages', async () => {
  const { readFileSync } = await import('node:fs');
  const { formatTextGrid } = await import('../src/loaders/index.js');
  const path = new URL('./fixtures/tiled/hex-odd-q.tmj', import.meta.url);
  const m = parseTiled(readFileSync(path), { file: 'hex-odd-q.tmj', readFile: (p) => readFileSync(new URL(`./fixtures/tiled/${p}`, import.meta.url)) });
  refuses(() => formatTextGrid(m.grid), /projection: a hexagonal \(staggered\) projection has no text grid equivalent/);
});

test('a terrain whose cost a 32-bit float stores as 0 or Infinity is refused where a tile uses it', async () => {
  const { TerrainTable } = await import('../src/index.js');
  const map = `<map orientation="orthogonal" width="1" height="1" tilewidth="8" tileheight="8"><tileset firstgid="1" name="ts" tilewidth="8" tileheight="8" tilecount="1"><tile id="0"><properties><property name="terrainType" value="Goo"/></properties></tile></tileset><layer name="ground" width="1" height="1"><properties><property name="isTilesetWalkable" type="bool" value="true"/></properties><data encoding="csv">1</data></layer></map>`;
  for (const cost of [1e-50, 1e39]) {
    const terrain = new TerrainTable();
    try {
      terrain.define('Goo', cost);
    } catch (e) {
      // A terrain table that refuses such a cost itself is as good.
      assert.ok(e instanceof TilenavError);
      continue;
    }
    refuses(() => parseTiled(map, { file: 'goo.tmx', terrain }), /goo\.tmx: tileset "ts" tile 0 property "terrainType": terrain "Goo" costs .*, which a 32-bit float cost stores as (0|Infinity)/);
  }
});

// ---- sizes that give no finite pixel coordinates

/** A 6 x 5 map in TMX or TMJ with the given map attributes over orthogonal 16 x 16 tiles. */
function sizedMap(json: boolean, attrs: Record<string, string | number>): string {
  const a: Record<string, string | number> = { orientation: 'orthogonal', width: 6, height: 5, tilewidth: 16, tileheight: 16, ...attrs };
  const cells = Array(Number(a.width) * Number(a.height)).fill(0);
  if (json) {
    const num = (v: string | number) => (typeof v === 'number' || /^[0-9.e+-]+$/.test(v) ? Number(v) : v);
    const m = Object.fromEntries(Object.entries(a).map(([k, v]) => [k, num(v)]));
    return JSON.stringify({ ...m, type: 'map', infinite: false, layers: [{ type: 'tilelayer', name: 'L', width: a.width, height: a.height, data: cells }], tilesets: [] });
  }
  const at = Object.entries(a).map(([k, v]) => `${k}="${v}"`).join(' ');
  return `<?xml version="1.0"?><map ${at}><layer name="L" width="${a.width}" height="${a.height}"><data encoding="csv">${cells.join(',')}</data></layer></map>`;
}

const HEX_X = { orientation: 'hexagonal', staggeraxis: 'x', staggerindex: 'odd' };
const HEX_Y = { orientation: 'hexagonal', staggeraxis: 'y', staggerindex: 'odd' };
/** Attributes, and the one the loader must name. */
const UNFIT: [Record<string, string | number>, string][] = [
  [{ tilewidth: '1e308' }, 'tilewidth'],
  [{ tileheight: '1e308' }, 'tileheight'],
  [{ tilewidth: '5e-324' }, 'tilewidth'],
  [{ tileheight: '5e-324' }, 'tileheight'],
  // Each tile size is finite; the map's width or height in pixels is not.
  [{ tilewidth: '1e307', width: 20 }, 'tilewidth'],
  [{ tileheight: '1e307', height: 20 }, 'tileheight'],
  [{ orientation: 'isometric', tilewidth: '1e308' }, 'tilewidth'],
  [{ ...HEX_X, hexsidelength: '1e308' }, 'hexsidelength'],
  [{ ...HEX_Y, hexsidelength: '1e308' }, 'hexsidelength'],
  [{ orientation: 'staggered', staggeraxis: 'y', staggerindex: 'odd', tileheight: '1e308' }, 'tileheight'],
];

test('TMX and TMJ: tile sizes, hex sides and map sizes whose pixels are not finite are refused by parseTiled, naming the file and attribute', () => {
  for (const json of [false, true]) {
    const file = json ? 'huge.tmj' : 'huge.tmx';
    for (const [attrs, name] of UNFIT) {
      const e = refuses(() => parseTiled(sizedMap(json, attrs), { file }), new RegExp(`^${file.replace('.', '\\.')}: <map> ${name}: ${name} `), /expected a size that gives finite pixel coordinates/);
      assert.equal(e.file, file);
      assert.equal(e.element, `<map> ${name}`, JSON.stringify(attrs));
    }
    // The same sizes at a scale that fits load.
    const fitting: Record<string, string>[] = [{ tilewidth: '1e300' }, { ...HEX_X, hexsidelength: '1e300' }, { tilewidth: '1e-300', tileheight: '1e-300' }];
    for (const attrs of fitting) {
      const m = parseTiled(sizedMap(json, attrs), { file });
      assert.ok(Number.isFinite(m.grid.projection.cellToWorld(5, 4).x));
    }
  }
});

test('parseTiledAsync and loadTiled refuse a map with tilewidth 1e308 the same way', async () => {
  const { parseTiledAsync } = await import('../src/loaders/index.js');
  const { loadTiled } = await import('../src/loaders/node.js');
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  await assert.rejects(parseTiledAsync(sizedMap(false, { tilewidth: '1e308' }), { file: 'a.tmx' }), /^TilenavError: a\.tmx: <map> tilewidth: .*expected a size that gives finite pixel coordinates/);
  const dir = mkdtempSync(join(tmpdir(), 'tilenav-unfit-'));
  try {
    const path = join(dir, 'b.tmj');
    writeFileSync(path, sizedMap(true, { tileheight: '1e308' }));
    await assert.rejects(loadTiled(path), (e: unknown) => e instanceof TilenavError && e.file === path && e.element === '<map> tileheight' && /finite pixel coordinates/.test(e.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a NavGrid refuses a projection that gives its cells no finite coordinates, and a binary grid saying so names its file', async () => {
  const { NavGrid, orthogonal, isometric, hexagonal, continuous, staggered } = await import('../src/index.js');
  const { formatBinaryGrid, parseBinaryGrid } = await import('../src/loaders/index.js');
  const unfit = [
    [orthogonal(1e308), 3, 2],
    [orthogonal(1e307, 1), 30, 2],
    [orthogonal(5e-324, 1), 3, 2],
    [isometric(1e308, 1), 2, 2],
    [hexagonal(1e308), 2, 1],
    [continuous(1e308), 2, 2],
    [continuous(1e-320), 2, 2],
    [staggered(16, 16, { staggerAxis: 'x', hexSideLength: 1e308 }), 5, 2],
    // Finite sizes, but an origin so far out that the far cells overflow.
    [orthogonal(1e305, 1, 1.797e308), 3, 1],
  ] as const;
  for (const [projection, w, h] of unfit) {
    refuses(() => new NavGrid(w, h, { projection, maxCells: 1e6 }), /^projection: the \w+ projection \(.*\) spans .* world units over \d+ x \d+ cells; expected a size that gives finite pixel coordinates/);
  }
  // One cell less and the same sizes fit.
  assert.equal(new NavGrid(1, 1, { projection: orthogonal(1e308) }).width, 1);
  const bytes = formatBinaryGrid(new NavGrid(3, 2, { projection: orthogonal(1e300) }));
  const header = JSON.stringify({ kind: 'orthogonal', tileWidth: 1e300, tileHeight: 1e300, originX: 0, originY: 0 });
  const text = new TextDecoder().decode(bytes);
  const at = text.indexOf(header);
  assert.ok(at > 0, 'the projection spec is stored as JSON');
  const patched = new Uint8Array(bytes);
  patched.set(new TextEncoder().encode(header.replace('1e+300,"tileHeight"', '9e+307,"tileHeight"')), at);
  refuses(() => parseBinaryGrid(patched, { file: 'big.tnav' }), /^big\.tnav: projection: the orthogonal projection .* finite pixel coordinates/);
});

test('a projection of the game\'s own (no built-in spec) is checked on its cells\' positions alone', async () => {
  const { NavGrid } = await import('../src/index.js');
  const custom = (scale: number) => ({
    spec: { kind: 'custom' } as never,
    cellToWorld: (cx: number, cy: number, out = { x: 0, y: 0, z: 0 }) => Object.assign(out, { x: cx * scale, y: cy * scale, z: 0 }),
    worldToCell: (a: number, b: number, out = { x: 0, y: 0 }) => Object.assign(out, { x: Math.floor(a / scale), y: Math.floor(b / scale) }),
  });
  assert.equal(new NavGrid(4, 3, { projection: custom(10) }).width, 4);
  refuses(() => new NavGrid(4, 3, { projection: custom(1e308) }), /^projection: the custom projection \(\) spans Infinity x Infinity world units over 4 x 3 cells/);
});

// ---- many references to one external tileset

/** A tileset of `tiles` tiles, each with a property (about 100 bytes a tile), and a 4 x 1 map referencing it `refs` times. */
function manyRefs(refs: number, tiles: number): { map: string; tileset: string } {
  let tileset = `<tileset name="big" tilewidth="16" tileheight="16" tilecount="${tiles}" columns="0">`;
  for (let i = 0; i < tiles; i++) tileset += `<tile id="${i}"><properties><property name="collides" type="bool" value="${i % 2 === 1}"/></properties></tile>`;
  tileset += '</tileset>';
  let map = '<map orientation="orthogonal" width="4" height="1" tilewidth="16" tileheight="16">';
  for (let r = 0; r < refs; r++) map += `<tileset firstgid="${1 + r * tiles}" source="big.tsx"/>`;
  // The last reference's tiles 0 and 1, then the first reference's 1 and 0.
  const last = 1 + (refs - 1) * tiles;
  map += `<layer name="a" width="4" height="1"><data encoding="csv">${last},${last + 1},2,1</data></layer></map>`;
  return { map, tileset };
}

test('one external tileset referenced thousands of times is expanded once; past the tile limit the map is refused at once', () => {
  const ok = manyRefs(300, 3000);
  assert.ok(ok.tileset.length > 290_000);
  let reads = 0;
  const m = within(5000, () => parseTiled(ok.map, { file: 'refs.tmx', readFile: () => (reads++, ok.tileset) }));
  assert.equal(reads, 1);
  assert.deepEqual([0, 1, 2, 3].map((x) => m.grid.isWalkable(x, 0)), [true, false, false, true]);
  assert.equal(m.properties.tiles.size, 300 * 3000);
  assert.equal(m.properties.tiles.get(1 + 299 * 3000 + 1)!.get('collides')!.value, true);
  assert.equal(m.tilesets.length, 300);
  assert.equal(m.tilesets[299].used.get(0), 1);
  for (const [refs, tiles] of [[5000, 3000], [3000, 3600]]) {
    const bad = manyRefs(refs, tiles);
    refuses(() => within(5000, () => parseTiled(bad.map, { file: 'refs.tmx', readFile: () => bad.tileset })), /^refs\.tmx: <tileset> \d+ "big\.tsx": the map's tilesets list more than 1048576 tiles/);
  }
});

// ---- shape budgets are spent before drawing, and honest shapes are drawn by scan lines

/** `n` points: on a circle of radius `r` about (c, c), or (random) anywhere in [0, 2c) x [0, 2c). */
function bigPolygon(n: number, c: number, r: number, random: boolean): number[][] {
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  return Array.from({ length: n }, (_, k) => {
    if (random) return [Math.round(rnd() * 20 * c) / 10, Math.round(rnd() * 20 * c) / 10];
    const t = (k / n) * 2 * Math.PI;
    return [c + r * Math.cos(t), c + r * Math.sin(t)];
  });
}

test('a 100,000-point collision polygon: one whose edges criss-cross the map is refused before drawing, a round one is drawn at once', () => {
  const map = (pts: number[][]) => collisionMap(400, 400, `<object id="1" x="0" y="0"><polygon points="${pts.map(([x, y]) => `${x},${y}`).join(' ')}"/></object>`);
  const random = map(bigPolygon(100_000, 3200, 0, true));
  refuses(() => within(3000, () => parseTiled(random, { file: 'big.tmx' })), /^big\.tmx: <objectgroup name="collision"> object 1: drawing the collision shapes takes more than 268435456 cell visits/);
  const round = map(bigPolygon(100_000, 3200, 3000, false).map(([x, y]) => [Math.round(x * 100) / 100, Math.round(y * 100) / 100]));
  const m = within(3000, () => parseTiled(round, { file: 'round.tmx' }));
  // Cells whose centres lie inside the disc of radius 3000 px (187.5 cells) about the map's centre.
  for (const [x, y, inside] of [[200, 200, true], [200, 13, true], [200, 11, false], [13, 200, true], [10, 200, false], [0, 0, false], [70, 70, true], [50, 50, false]] as const) {
    assert.equal(m.grid.isWalkable(x, y), !inside, `cell (${x}, ${y})`);
  }
});

test('a 100,000-point area polygon past maxRasterWork is refused before any row is drawn; a round one loads at once', () => {
  const random = { areas: [{ name: 'a', polygon: bigPolygon(100_000, 500, 0, true) }] };
  refuses(() => within(2000, () => parsePolygonConfig(random, { file: 'big.json' })), /^big\.json: areas\[0\] "a": rasterising the polygons takes more than 268435456 units of work/);
  const round = { areas: [{ name: 'a', polygon: bigPolygon(100_000, 0, 500, false) }] };
  const nav = within(3000, () => parsePolygonConfig(round, { file: 'round.json' }));
  const at = (x: number, z: number) => {
    const c = nav.grid.projection.worldToCell(x, z);
    return nav.grid.isWalkable(c.x, c.y);
  };
  assert.deepEqual([at(0, 0), at(490, 0), at(0, -490), at(505, 0), at(360, 360)], [true, true, true, false, false]);
});

test('collision polygons and polylines cover exactly the cells the rule names (random shapes, cell by cell)', () => {
  let seed = 99;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  // A cell is covered when its centre is inside (even-odd) or an outline passes through its open interior.
  const entersOpen = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) => {
    let t0 = 0;
    let t1 = 1;
    for (const [p, q] of [[ax - bx, ax - cx], [bx - ax, cx + 1 - ax], [ay - by, ay - cy], [by - ay, cy + 1 - ay]]) {
      if (p === 0) {
        if (q <= 0) return false;
      } else if (p < 0) t0 = Math.max(t0, q / p);
      else t1 = Math.min(t1, q / p);
    }
    return t1 - t0 > 1e-12;
  };
  for (let round = 0; round < 60; round++) {
    const W = 8 + Math.floor(rnd() * 20);
    const H = 8 + Math.floor(rnd() * 20);
    const closed = rnd() < 0.6;
    // Points on the quarter-tile lattice half the time, to land on cell borders and centres.
    const snap = rnd() < 0.5 ? (v: number) => Math.round(v / 4) * 4 : (v: number) => Math.round(v * 100) / 100;
    const pts = Array.from({ length: 3 + Math.floor(rnd() * 8) }, () => [snap(rnd() * W * 16), snap(rnd() * H * 16)]);
    const text = collisionMap(W, H, `<object id="1" x="0" y="0"><${closed ? 'polygon' : 'polyline'} points="${pts.map(([x, y]) => `${x},${y}`).join(' ')}"/></object>`);
    const m = parseTiled(text, { file: 'r.tmx' });
    const p = pts.map(([x, y]) => [x / 16, y / 16]);
    for (let cy = 0; cy < H; cy++) {
      for (let cx = 0; cx < W; cx++) {
        let inside = false;
        if (closed) {
          for (let i = 0, j = p.length - 1; i < p.length; j = i++) {
            const [xi, yi] = p[i];
            const [xj, yj] = p[j];
            if (yi > cy + 0.5 !== yj > cy + 0.5 && cx + 0.5 < xj + ((cy + 0.5 - yj) * (xi - xj)) / (yi - yj)) inside = !inside;
          }
        }
        for (let e = 0; e + 1 < p.length + (closed ? 1 : 0) && !inside; e++) {
          const [ax, ay] = p[e];
          const [bx, by] = p[(e + 1) % p.length];
          if (entersOpen(ax, ay, bx, by, cx, cy)) inside = true;
        }
        assert.equal(m.grid.isWalkable(cx, cy), !inside, `round ${round}: cell (${cx}, ${cy})`);
      }
    }
  }
});

// ---- loader options are checked, each by name

test('every Tiled loader option of the wrong kind is a TilenavError naming it, never a TypeError or a setting ignored', async () => {
  const { parseTiledAsync } = await import('../src/loaders/index.js');
  const map = collisionMap(3, 2, '<object id="1" x="0" y="0" width="16" height="16"/>');
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ mapping: { collisionProperties: null } }, /^mapping\.collisionProperties: expected an array of names/],
    [{ mapping: { collisionTypes: ['wall', 3] } }, /^mapping\.collisionTypes\[1\]: expected a name/],
    [{ mapping: { layer: 99 } }, /^mapping\.layer: expected a navigation layer, a whole number from 0 to 7, got 99/],
    [{ mapping: { layer: 1.5 } }, /^mapping\.layer: /],
    [{ mapping: { tileShapes: 'yes' } }, /^mapping\.tileShapes: expected true or false/],
    [{ mapping: { lineWidth: NaN } }, /^mapping\.lineWidth: expected a width in pixels/],
    [{ mapping: { lineWidthProperty: 7 } }, /^mapping\.lineWidthProperty: /],
    [{ mapping: { collisionProperty: ['solid'] } }, /^mapping\.collisionProperty: unknown convention; the mapping's keys are collisionProperties, /],
    [{ mapping: 'solid' }, /^mapping: expected an object/],
    [{ file: 42 }, /^file: expected/],
    [{ readFile: 'fs' }, /^readFile: expected a function/],
    [{ format: 'xml' }, /^format: expected "tmx" or "tmj"/],
    [{ terrain: { Mud: 2 } }, /^terrain: expected a TerrainTable/],
    [{ allowAbsolutePaths: 'true' }, /^allowAbsolutePaths: expected true or false/],
    [{ rules: 5 }, /^rules: expected rules as an object or the JSON text/],
    [{ rulesFile: {} }, /^rulesFile: expected/],
  ];
  for (const [options, pattern] of cases) {
    refuses(() => parseTiled(map, options as never), pattern);
    await assert.rejects(parseTiledAsync(map, options as never), (e: unknown) => e instanceof TilenavError && pattern.test(e.message));
  }
  refuses(() => parseTiled(map, null as never), /^options: expected an options object/);
  // A layer the grid could have, but this map has one navigation layer.
  refuses(() => parseTiled(map, { file: 'one.tmx', mapping: { layer: 2 } }), /^one\.tmx: mapping\.layer: navigation layer 2 is not one of this map's 1 \(Ground;/);
  assert.equal(parseTiled(map, { mapping: { layer: 0, collisionProperties: [] } }).grid.isWalkable(0, 0), false);
});

test('a readFile that returns no contents is a TilenavError naming readFile and the file', async () => {
  const { parseTiledAsync } = await import('../src/loaders/index.js');
  const map = tmx(2, 1, '<layer name="a" width="2" height="1"><data encoding="csv">1,0</data></layer>', '<tileset firstgid="1" source="tiles/t.tsx"/>');
  for (const value of [null, undefined, 42, {}]) {
    refuses(() => parseTiled(map, { file: 'maps/m.tmx', readFile: () => value as never }), new RegExp(`^readFile: returned ${value === undefined ? 'undefined' : value === null ? 'null' : '.+'} for the tileset "maps/tiles/t\\.tsx"; expected the file's contents as a string or a Uint8Array`));
    await assert.rejects(parseTiledAsync(map, { file: 'maps/m.tmx', readFile: async () => value as never }), /readFile: returned .* for the tileset "maps\/tiles\/t\.tsx"/);
  }
  refuses(() => parseTiled(map, { file: 'maps/m.tmx', readFile: (async () => '<tileset/>') as never }), /readFile: returned .*\(a Promise: use parseTiledAsync for an asynchronous reader\)/);
});

test('the text, Moving AI and polygon loaders check their options object and file name', () => {
  const txt = 'cellSize 1\nminX 0\nminZ 0\ngridWidth 1\ngridDepth 1\n1\n';
  const map = 'type octile\nheight 1\nwidth 1\nmap\n.\n';
  const square = { areas: [{ name: 'a', polygon: [[0, 0], [1, 0], [1, 1]] }] };
  for (const fn of [(o: never) => parseTextGrid(txt, o), (o: never) => parseMovingAiMap(map, o), (o: never) => parsePolygonConfig(square, o)]) {
    refuses(() => fn(null as never), /^options: expected an options object, got null/);
    refuses(() => fn({ file: 7 } as never), /^file: expected the file's path or name \(a string\), got 7/);
  }
});

test('a text grid whose cellSize gives no finite coordinates names its file and line, from the library as from the CLI', () => {
  const txt = (cellSize: string) => `cellSize ${cellSize}\nminX 0\nminZ 0\ngridWidth 3\ngridDepth 2\n111\n111\n`;
  const e = refuses(() => parseTextGrid(txt('5e-324'), { file: 'levels/tiny.txt' }), /^levels\/tiny\.txt:1: projection: the continuous projection .* expected a size that gives finite pixel coordinates/);
  assert.equal(e.file, 'levels/tiny.txt');
  assert.equal(e.line, 1);
  refuses(() => parseTextGrid(txt('1e308'), { file: 'huge.txt' }), /^huge\.txt:1: projection: /);
  // The polygon config's grid likewise.
  const tiny = { cellSize: 5e-324, agentRadius: 0, objectPadding: 0, areas: [{ name: 'a', polygon: [[0, 0], [1e-323, 0], [0, 1e-323]] }] };
  refuses(() => parsePolygonConfig(tiny, { file: 'tiny.json' }), /^tiny\.json: projection: the continuous projection \(cellSize 5e-324/);
});

// ---- confinement: a map's references stay inside a root folder

test('with root, a reference that leaves the folder by ../, an absolute path or a URL is refused by name before it is read', async () => {
  const { parseTiledAsync } = await import('../src/loaders/index.js');
  const map = (source: string) => tmx(2, 1, '<layer name="a" width="2" height="1"><data encoding="csv">1,0</data></layer>', `<tileset firstgid="1" source="${source}"/>`);
  const tileset = '<tileset name="t" tilewidth="16" tileheight="16" tilecount="1"><tile id="0"><properties><property name="collides" type="bool" value="true"/></properties></tile></tileset>';
  const asked: string[] = [];
  const readFile = (p: string) => (asked.push(p), tileset);
  const outside: [string, string, boolean][] = [
    ['../../etc/passwd.tsx', 'uploads/maps/m.tmx', false],
    ['../other/t.tsx', 'uploads/maps/m.tmx', false],
    ['tiles/../../../t.tsx', 'uploads/maps/m.tmx', false],
    ['/etc/t.tsx', 'uploads/maps/m.tmx', true],
    ['/srv/uploads/../t.tsx', '/srv/uploads/m.tmx', true],
    ['file:///etc/t.tsx', 'uploads/maps/m.tmx', true],
    ['https://elsewhere.example/t.tsx', 'https://maps.example/uploads/m.tmx', true],
    ['../t.tsx', 'https://maps.example/uploads/m.tmx', false],
  ];
  for (const [source, file, allowAbsolutePaths] of outside) {
    const root = file.startsWith('https:') ? 'https://maps.example/uploads' : file.startsWith('/') ? '/srv/uploads' : 'uploads/maps';
    refuses(() => parseTiled(map(source), { file, root, readFile, allowAbsolutePaths }), new RegExp(`: the tileset path ".*" resolves to ".*", outside the root folder \\(root\\)`));
    await assert.rejects(parseTiledAsync(map(source), { file, root, readFile, allowAbsolutePaths }), /outside the root folder \(root\)/);
  }
  assert.deepEqual(asked, [], 'nothing outside the root was read');
  for (const [source, file, root] of [['tiles/t.tsx', 'uploads/maps/m.tmx', 'uploads/maps'], ['../common/t.tsx', 'uploads/maps/m.tmx', 'uploads'], ['t.tsx', 'm.tmx', '.'], ['/srv/uploads/t.tsx', '/srv/uploads/m.tmx', '/srv/uploads/'], ['t.tsx', 'https://maps.example/uploads/m.tmx', 'https://maps.example/uploads']]) {
    const m = parseTiled(map(source), { file, root, readFile, allowAbsolutePaths: true });
    assert.equal(m.grid.isWalkable(0, 0), false, source);
  }
  assert.equal(asked.length, 5);
});

test('loadTiledFile with root follows links: a tileset, template or map whose real path leaves the folder is refused', async () => {
  const { loadTiled: loadTiledFile } = await import('../src/loaders/node.js');
  const { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const base = mkdtempSync(join(tmpdir(), 'tilenav-root-'));
  try {
    const root = join(base, 'uploads');
    const secret = join(base, 'secret');
    mkdirSync(join(root, 'tiles'), { recursive: true });
    mkdirSync(secret);
    const tileset = '<tileset name="t" tilewidth="16" tileheight="16" tilecount="1"><tile id="0"><properties><property name="collides" type="bool" value="true"/></properties></tile></tileset>';
    writeFileSync(join(root, 'tiles', 't.tsx'), tileset);
    writeFileSync(join(secret, 't.tsx'), tileset);
    writeFileSync(join(secret, 'wall.tx'), '<template><object width="16" height="16" type="wall"/></template>');
    symlinkSync(join(secret, 't.tsx'), join(root, 'tiles', 'link.tsx'));
    symlinkSync(secret, join(root, 'tiles', 'dir'));
    symlinkSync(join(secret, 'wall.tx'), join(root, 'wall.tx'));
    const map = (source: string, objects = '') => tmx(2, 1, `<layer name="a" width="2" height="1"><data encoding="csv">1,0</data></layer>${objects}`, `<tileset firstgid="1" source="${source}"/>`);
    const write = (name: string, text: string) => {
      writeFileSync(join(root, name), text);
      return join(root, name);
    };
    const ok = await loadTiledFile(write('ok.tmx', map('tiles/t.tsx')), { root });
    assert.equal(ok.grid.isWalkable(0, 0), false);
    for (const [name, text, allowAbsolutePaths] of [
      ['up.tmx', map('../secret/t.tsx'), false],
      ['abs.tmx', map(join(secret, 't.tsx')), true],
      ['link.tmx', map('tiles/link.tsx'), false],
      ['dir.tmx', map('tiles/dir/t.tsx'), false],
      ['tpl.tmx', map('tiles/t.tsx', '<objectgroup name="o"><object id="1" template="wall.tx" x="0" y="0"/></objectgroup>'), false],
    ] as const) {
      await assert.rejects(loadTiledFile(write(name, text), { root, allowAbsolutePaths }), (e: unknown) => e instanceof TilenavError && e.element === 'root' && /is outside the root folder .* once its links are followed/.test(e.message) && !e.message.includes('\n'), name);
    }
    // The map itself, through a link that leads out.
    writeFileSync(join(secret, 'm.tmx'), map('t.tsx'));
    symlinkSync(join(secret, 'm.tmx'), join(root, 'm.tmx'));
    await assert.rejects(loadTiledFile(join(root, 'm.tmx'), { root }), /root: is outside the root folder/);
    // A root given through a link, and a map named through it, are fine.
    symlinkSync(root, join(base, 'alias'));
    assert.equal((await loadTiledFile(join(base, 'alias', 'ok.tmx'), { root })).grid.isWalkable(0, 0), false);
    await assert.rejects(loadTiledFile(join(root, 'ok.tmx'), { root: join(base, 'nope') }), /nope: root: cannot open the root folder \(ENOENT/);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
