import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { TilenavError, findPath, type GridChange } from '../src/index.js';
import { PolygonNavigation, parsePolygonConfig, checkPolygonConfig, DEFAULT_POLYGON_CONFIG, type PolygonConfig } from '../src/loaders/index.js';

type Pt = readonly [number, number];

/** Reference rules, written independently of the loader's scanline: one ray cast per cell and polygon. */
function inside(poly: readonly Pt[], x: number, z: number): boolean {
  let odd = false;
  for (let e = 0, p = poly.length - 1; e < poly.length; p = e++) {
    const [xe, ze] = poly[e];
    const [xp, zp] = poly[p];
    if (ze > z !== zp > z && x < xp + ((z - zp) * (xe - xp)) / (ze - zp)) odd = !odd;
  }
  return odd;
}

function edgeDistance(poly: readonly Pt[], x: number, z: number): number {
  let best = Infinity;
  for (let e = 0, p = poly.length - 1; e < poly.length; p = e++) {
    const [x1, z1] = poly[p];
    const [x2, z2] = poly[e];
    const dx = x2 - x1;
    const dz = z2 - z1;
    const len2 = dx * dx + dz * dz;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - x1) * dx + (z - z1) * dz) / len2));
    best = Math.min(best, (x1 + t * dx - x) ** 2 + (z1 + t * dz - z) ** 2);
  }
  return best;
}

function reference(cfg: PolygonConfig, width: number, height: number, minX: number, minZ: number): Uint8Array {
  const out = new Uint8Array(width * height);
  const clear2 = (cfg.agentRadius + cfg.objectPadding) ** 2;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const cx = minX + (x + 0.5) * cfg.cellSize;
      const cz = minZ + (y + 0.5) * cfg.cellSize;
      const open = cfg.areas.some((a) => a.available && inside(a.polygon, cx, cz) && (cfg.boundaryPadding <= 0 || edgeDistance(a.polygon, cx, cz) >= cfg.boundaryPadding ** 2));
      const blocked = cfg.obstacles.some((o) => inside(o.polygon, cx, cz) || edgeDistance(o.polygon, cx, cz) < clear2);
      out[y * width + x] = open && !blocked ? 1 : 0;
    }
  }
  return out;
}

function rows(nav: PolygonNavigation): string[] {
  const g = nav.grid;
  return Array.from({ length: g.height }, (_, y) => Array.from({ length: g.width }, (_, x) => (g.isWalkable(x, y) ? '.' : '#')).join(''));
}

test('polygon: a hand-checked room with a table; bounds are the areas plus the seed-001 margin', () => {
  const nav = parsePolygonConfig({
    cellSize: 1,
    agentRadius: 0,
    objectPadding: 0,
    areas: [{ name: 'room', polygon: [[0, 0], [5, 0], [5, 3], [0, 3]] }],
    obstacles: [{ name: 'table', polygon: [[1, 1], [2, 1], [2, 2], [1, 2]] }],
  });
  // margin = 1 * 2 + 0 + 0 = 2: minX = minZ = -2, width = 5 + 4 = 9, depth = 3 + 4 = 7.
  assert.deepEqual(nav.grid.projection.spec, { kind: 'continuous', cellSize: 1, minX: -2, minZ: -2, floorY: 0 });
  assert.deepEqual(rows(nav), ['#########', '#########', '##.....##', '##.#...##', '##.....##', '#########', '#########']);
});

test('polygon: clearance around obstacles and boundaryPadding erode, a concave area keeps its notch', () => {
  const nav = parsePolygonConfig({
    cellSize: 1,
    agentRadius: 0.5,
    objectPadding: 0.3,
    boundaryPadding: 0.6,
    areas: [{ name: 'u', polygon: [[0, 0], [9, 0], [9, 6], [6, 6], [6, 2], [3, 2], [3, 6], [0, 6]] }],
    obstacles: [{ polygon: [[7, 4], [8, 4], [8, 5], [7, 5]] }],
  });
  // margin 2.8: minX = -2.8, centres at x = -2.3 + cx; the U's arms are 3 wide, eroded by 0.6 each side.
  const spec = nav.grid.projection.spec;
  assert.equal(spec.kind, 'continuous');
  const cfg = nav.config;
  const expected = reference(cfg, nav.grid.width, nav.grid.height, -2.8, -2.8);
  assert.deepEqual(nav.grid.layers[0].walkable, expected);
  // Spot checks by hand: centre (0.7, 0.7) is 0.7 from the edge (>= 0.6): walkable. Centre (4.7, 3.7) is in the notch: blocked.
  const at = (wx: number, wz: number) => {
    const c = nav.grid.projection.worldToCell(wx, wz);
    return nav.grid.isWalkable(c.x, c.y);
  };
  assert.equal(at(0.7, 0.7), true);
  assert.equal(at(4.7, 3.7), false);
  assert.equal(at(4.7, 0.7), true);
  // (7.7, 3.7): inside the area, 0.3 from the obstacle < 0.8 clearance.
  assert.equal(at(7.7, 3.7), false);
  // (2.7, 4.7): in the left arm, 0.3 from its inner edge x = 3 < boundaryPadding 0.6; (1.7, 4.7) is 1.3 away.
  assert.equal(at(2.7, 4.7), false);
  assert.equal(at(1.7, 4.7), true);
});

test('polygon: the example config loads, and a closed door splits the map until it opens', () => {
  const text = readFileSync(new URL('../examples/house.json', import.meta.url), 'utf8');
  const nav = parsePolygonConfig(text, { file: 'house.json' });
  const g = nav.grid;
  const cfg = nav.config;
  const spec = g.projection.spec as { minX: number; minZ: number };
  assert.deepEqual(g.layers[0].walkable, reference(cfg, g.width, g.height, spec.minX, spec.minZ));
  const room = g.projection.worldToCell(1, 1);
  const garden = g.projection.worldToCell(13, 3);
  assert.equal(findPath(g, room.x, room.y, garden.x, garden.y).status, 'no-path');
  const events: GridChange[] = [];
  g.onChange((c) => events.push(c));
  const rect = nav.setAreaAvailable('door', true);
  assert.ok(rect !== null);
  assert.equal(events.length, 1);
  assert.deepEqual({ x: events[0].x, y: events[0].y, width: events[0].width, height: events[0].height }, rect);
  assert.equal(findPath(g, room.x, room.y, garden.x, garden.y).status, 'found');
  assert.equal(nav.isAreaAvailable('door'), true);
  assert.equal(nav.setAreaAvailable('door', true), null, 'no change, no rectangle');
  assert.equal(events.length, 1);
});

test('polygon: setAreaAvailable gives exactly the full rebuild, and its rectangle covers every change (property)', () => {
  const point = fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 30 })).map(([x, z]) => [x / 4, z / 4] as const);
  const poly = fc.array(point, { minLength: 3, maxLength: 7 });
  let rects = 0;
  fc.assert(
    fc.property(
      fc.array(fc.tuple(poly, fc.boolean()), { minLength: 1, maxLength: 5 }),
      fc.array(poly, { maxLength: 3 }),
      fc.constantFrom(0.25, 0.4, 0.5),
      fc.constantFrom(0, 0.3),
      fc.array(fc.tuple(fc.nat(), fc.boolean()), { minLength: 1, maxLength: 8 }),
      (areas, obstacles, cellSize, boundaryPadding, toggles) => {
        const config = {
          cellSize,
          boundaryPadding,
          agentRadius: 0.2,
          objectPadding: 0.1,
          areas: areas.map(([polygon, available], i) => ({ name: `a${i}`, available, polygon })),
          obstacles: obstacles.map((polygon) => ({ polygon })),
        };
        const nav = new PolygonNavigation(config);
        const walk = nav.grid.layers[0].walkable;
        for (const [k, available] of toggles) {
          const name = `a${k % areas.length}`;
          const before = walk.slice();
          const rect = nav.setAreaAvailable(name, available);
          const fresh = new PolygonNavigation({ ...config, areas: nav.config.areas.map((a) => ({ ...a })) });
          assert.deepEqual(walk, fresh.grid.layers[0].walkable);
          let changed = 0;
          for (let i = 0; i < walk.length; i++) {
            if (walk[i] === before[i]) continue;
            changed++;
            const x = nav.grid.xOf(i);
            const y = nav.grid.yOf(i);
            assert.ok(rect !== null && x >= rect.x && y >= rect.y && x < rect.x + rect.width && y < rect.y + rect.height, `cell (${x}, ${y}) changed outside ${JSON.stringify(rect)}`);
          }
          if (changed === 0) assert.equal(rect, null);
          else rects++;
        }
        const spec = nav.grid.projection.spec as { minX: number; minZ: number };
        assert.deepEqual(walk, reference(nav.config, nav.grid.width, nav.grid.height, spec.minX, spec.minZ));
      },
    ),
    { numRuns: 150, seed: 42 },
  );
  assert.ok(rects > 50, `only ${rects} toggles changed cells`);
});

test('polygon: defaults are the documented DEFAULT_POLYGON_CONFIG values', () => {
  const cfg = checkPolygonConfig('{"areas":[{"name":"a","polygon":[[0,0],[1,0],[0,1]]}]}');
  assert.equal(cfg.cellSize, DEFAULT_POLYGON_CONFIG.cellSize);
  assert.deepEqual(
    [cfg.cellSize, cfg.agentRadius, cfg.objectPadding, cfg.boundaryPadding, cfg.floorY, cfg.areas[0].available, cfg.obstacles.length],
    [0.4, 0.45, 0.25, 0, 0, true, 0],
  );
});

test('polygon: bad input names the file and the element path', () => {
  const base = () => ({
    cellSize: 0.5,
    areas: [
      { name: 'a', polygon: [[0, 0], [4, 0], [4, 4]] },
      { name: 'b', polygon: [[0, 0], [4, 0], [4, 4]] },
      { name: 'c', polygon: [[0, 0], [4, 0], [4, 4], [1, 3], [0, 3], [0, 2]] },
    ],
    obstacles: [{ name: 'o', polygon: [[1, 1], [2, 1], [2, 2]] }],
  });
  const cases: [(c: ReturnType<typeof base> & Record<string, unknown>) => void, RegExp][] = [
    [(c) => ((c.areas[2].polygon[5] as unknown[])[1] = 'x'), /^cfg\.json: areas\[2\]\.polygon\[5\]: expected finite numbers, got "x"/],
    [(c) => ((c.areas[2].polygon[5] as unknown) = [1]), /areas\[2\]\.polygon\[5\]: expected a point \[x, z\]/],
    [(c) => (c.areas[1].polygon = c.areas[1].polygon.slice(0, 2)), /areas\[1\]\.polygon: a polygon needs at least 3 points, got 2/],
    [(c) => ((c.obstacles[0].polygon[0] as unknown[])[0] = null), /obstacles\[0\]\.polygon\[0\]: expected finite numbers, got null/],
    [(c) => delete (c.areas[0] as Partial<(typeof c.areas)[0]>).polygon, /areas\[0\]\.polygon: expected an array/],
    [(c) => ((c.areas[0] as Record<string, unknown>).name = 3), /areas\[0\]\.name: expected a non-empty string/],
    [(c) => (c.areas[1].name = 'a'), /areas\[1\]\.name: the name "a" is used twice/],
    [(c) => ((c.areas[0] as Record<string, unknown>).available = 'yes'), /areas\[0\]\.available: expected true or false/],
    [(c) => (c.cellSize = 0), /cellSize: expected a number > 0/],
    [(c) => ((c as Record<string, unknown>).agentRadius = '1'), /agentRadius: expected a finite number, got "1"/],
    [(c) => ((c as Record<string, unknown>).objectPadding = -1), /objectPadding: expected a number >= 0/],
    [(c) => ((c as Record<string, unknown>).areas = []), /areas: expected at least one navigation area/],
    [(c) => delete (c as Partial<typeof c>).areas, /areas: expected an array/],
    [(c) => ((c as Record<string, unknown>).obstacles = {}), /obstacles: expected an array/],
    [(c) => ((c.areas as unknown[])[1] = 7), /areas\[1\]: expected an object/],
    [(c) => (c.cellSize = 0.0001), /over maxCells/],
  ];
  for (const [mutate, pattern] of cases) {
    const c = base();
    mutate(c);
    assert.throws(() => parsePolygonConfig(JSON.stringify(c), { file: 'cfg.json', maxCells: 1_000_000 }), (e: unknown) => e instanceof TilenavError && pattern.test(e.message), String(pattern));
  }
  // NaN cannot be written in JSON, but a parsed object can carry it.
  const c = base();
  c.areas[0].polygon[1] = [NaN, 0];
  assert.throws(() => parsePolygonConfig(c), /areas\[0\]\.polygon\[1\]: expected finite numbers, got NaN/);
  assert.throws(() => parsePolygonConfig('{"areas": [\n  {"name": "a",\n  ]}', { file: 'bad.json' }), (e: unknown) => e instanceof TilenavError && /^bad\.json:3: malformed JSON/.test(e.message));
  assert.throws(() => parsePolygonConfig('[]'), /\(root\): expected a JSON object/);
  const nav = parsePolygonConfig(base());
  assert.throws(() => nav.setAreaAvailable('nope', true), /area "nope": unknown area; known: "a", "b", "c"/);
  assert.throws(() => nav.setAreaAvailable('a', 1 as unknown as boolean), /expected true or false/);
  // __proto__ keys are data, never prototypes.
  const proto = parsePolygonConfig('{"__proto__": {"cellSize": 99}, "areas": [{"name": "__proto__", "polygon": [[0,0],[1,0],[0,1]]}]}');
  assert.equal(proto.config.cellSize, 0.4);
  assert.equal(({} as Record<string, unknown>).cellSize, undefined);
});
