/**
 * Walls on cell edges (`setEdgeWall`): the grid API, every search against a reference Dijkstra
 * extended with the edge rules written here from their definition, component labels, sight lines,
 * clearance, change events, the binary format and the Tiled loader.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { NavGrid, Pathfinder, TilenavError, checkPath, findPath, hexagonal, pathsAffectedBy, FLAG_NO_EXIT_EAST, FLAG_SAFE_ZONE, FLAG_WALL_NORTH, FLAG_WALL_WEST, type GridChange, type MovementName } from '../src/index.js';
import { lineOfSight, segmentCost, smoothPath } from '../src/path/index.js';
import { ClearanceMap, mulberry32 } from '../src/query/index.js';
import { formatBinaryGrid, parseTiled, parseBinaryGrid } from '../src/loaders/index.js';
import { flowFieldTo } from '../src/agents/flowfield.js';
import { refNeighbours, walled, wallNeighbours } from './reference.js';
import { fixture } from './fixtures.js';

// ---- the edge rules, from their definition --------------------------------------------------

/** Costs from `source` to every cell under the edge rules (Infinity where unreachable); `allow` may refuse more steps. */
function refWallDistances(g: NavGrid, layer: number, m: MovementName, source: number, allow: (x: number, y: number, nx: number, ny: number) => boolean = () => true): Float64Array {
  const n = g.size;
  const dist = new Float64Array(n).fill(Infinity);
  const done = new Uint8Array(n);
  const L = g.layers[layer];
  if (L.walkable[source] === 1) dist[source] = 0;
  for (;;) {
    let best = -1;
    for (let i = 0; i < n; i++) if (!done[i] && dist[i] < Infinity && (best < 0 || dist[i] < dist[best])) best = i;
    if (best < 0) return dist;
    done[best] = 1;
    const x = best % g.width;
    const y = (best - x) / g.width;
    for (const [nx, ny, len] of wallNeighbours(g, layer, m, x, y)) {
      if (!allow(x, y, nx, ny)) continue;
      const j = ny * g.width + nx;
      const d = dist[best] + len * L.cost[j];
      if (d < dist[j]) dist[j] = d;
    }
  }
}

/** Every walled edge inside the grid as a segment [x1, y1, x2, y2] in cell coordinates (centres at integers). */
function wallSegments(g: NavGrid, layer = 0): number[][] {
  const out: number[][] = [];
  const f = g.layers[layer].flags;
  for (let y = 0; y < g.height; y++) {
    for (let x = 0; x < g.width; x++) {
      if (y > 0 && (f[y * g.width + x] & 0x20) !== 0) out.push([x - 0.5, y - 0.5, x + 0.5, y - 0.5]);
      if (x > 0 && (f[y * g.width + x] & 0x40) !== 0) out.push([x - 0.5, y - 0.5, x - 0.5, y + 0.5]);
    }
  }
  return out;
}

function pointSegment(px: number, py: number, [ax, ay, bx, by]: number[]): number {
  const dx = bx - ax;
  const dy = by - ay;
  const L = dx * dx + dy * dy;
  const t = L === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / L));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

/** The distance between two segments (0 where they meet). */
function segmentSegment(a: number[], b: number[]): number {
  const cross = (ox: number, oy: number, px: number, py: number, qx: number, qy: number) => (px - ox) * (qy - oy) - (py - oy) * (qx - ox);
  const d1 = cross(b[0], b[1], b[2], b[3], a[0], a[1]);
  const d2 = cross(b[0], b[1], b[2], b[3], a[2], a[3]);
  const d3 = cross(a[0], a[1], a[2], a[3], b[0], b[1]);
  const d4 = cross(a[0], a[1], a[2], a[3], b[2], b[3]);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return 0;
  return Math.min(pointSegment(a[0], a[1], b), pointSegment(a[2], a[3], b), pointSegment(b[0], b[1], a), pointSegment(b[2], b[3], a));
}

/** The distance from a segment to cell (cx, cy)'s square. */
function segmentSquare(s: number[], cx: number, cy: number): number {
  const inside = (x: number, y: number) => Math.abs(x - cx) <= 0.5 && Math.abs(y - cy) <= 0.5;
  if (inside(s[0], s[1]) || inside(s[2], s[3])) return 0;
  const [l, r, t, b] = [cx - 0.5, cx + 0.5, cy - 0.5, cy + 0.5];
  return Math.min(segmentSegment(s, [l, t, r, t]), segmentSegment(s, [r, t, r, b]), segmentSegment(s, [l, b, r, b]), segmentSegment(s, [l, t, l, b]));
}

// ---- random walled grids ---------------------------------------------------------------------

const SIDES = ['north', 'east', 'south', 'west'] as const;

/** Random walls: setEdgeWall on random cells and sides (the outer edge included, which stores nothing). */
function addRandomWalls(g: NavGrid, rnd: () => number, count: number, layer = 0): void {
  for (let k = 0; k < count; k++) {
    const x = Math.floor(rnd() * g.width);
    const y = Math.floor(rnd() * g.height);
    g.setEdgeWall(x, y, SIDES[Math.floor(rnd() * 4)], rnd() < 0.85, layer);
  }
}

const walledGridArb = (oneWay: boolean) =>
  fc
    .record({ width: fc.integer({ min: 2, max: 11 }), height: fc.integer({ min: 2, max: 9 }), blocked: fc.double({ min: 0, max: 0.3, noNaN: true }), walls: fc.double({ min: 0, max: 1.2, noNaN: true }), mixed: fc.boolean(), seed: fc.integer() })
    .map((p) => {
      const rnd = mulberry32(p.seed);
      const g = new NavGrid(p.width, p.height);
      const L = g.layers[0];
      for (let i = 0; i < g.size; i++) {
        L.walkable[i] = rnd() < p.blocked ? 0 : 1;
        L.cost[i] = p.mixed && rnd() < 0.3 ? [0.5, 2, 3.5][Math.floor(rnd() * 3)] : 1;
        if (oneWay && rnd() < 0.1) L.flags[i] = 2 << Math.floor(rnd() * 4);
      }
      g.refresh();
      addRandomWalls(g, rnd, Math.round(p.walls * g.size), 0);
      return { g, rnd };
    });

/** One random tile change: a wall toggled through setEdgeWall, a flag byte rewritten, a fence ring, or a cell opened or blocked. */
function randomChange(g: NavGrid, rnd: () => number): void {
  const x = Math.floor(rnd() * g.width);
  const y = Math.floor(rnd() * g.height);
  const kind = Math.floor(rnd() * 6);
  if (kind <= 1) g.setEdgeWall(x, y, SIDES[Math.floor(rnd() * 4)], kind === 0);
  else if (kind === 2) g.setFlags(x, y, (g.getFlags(x, y) ^ (rnd() < 0.5 ? FLAG_WALL_NORTH : FLAG_WALL_WEST)) & ~0x1e);
  else if (kind === 3) {
    const w = 1 + Math.floor(rnd() * (g.width - x));
    const h = 1 + Math.floor(rnd() * (g.height - y));
    g.setEdgeWallsAround(x, y, w, h, rnd() < 0.6);
  } else g.setWalkable(x, y, kind === 4);
}

/** The view bits of a grid built from scratch with the same cells: what the incremental updates must match. */
function assertViewFresh(g: NavGrid, what: string): void {
  const fresh = new NavGrid(g.width, g.height);
  fresh.layers[0].flags.set(g.layers[0].flags);
  fresh.refresh();
  const a = g.searchView(0);
  const b = fresh.searchView(0);
  assert.deepEqual(a.walls === null ? null : [...a.walls], b.walls === null ? null : [...b.walls], `${what}: wall bits`);
  assert.deepEqual(a.exits === null ? null : [...a.exits], b.exits === null ? null : [...b.exits], `${what}: exit bits`);
}

const SQUARE_MODELS: readonly MovementName[] = ['cardinal', 'octile', 'octile-one-obstacle', 'octile-always', 'iso'];

// ---- the API -----------------------------------------------------------------------------------

test('setEdgeWall: both cells see the wall; hasEdgeWall reads it from either side', () => {
  const g = new NavGrid(4, 3);
  g.setEdgeWall(1, 1, 'east', true);
  assert.equal(g.hasEdgeWall(1, 1, 'east'), true);
  assert.equal(g.hasEdgeWall(2, 1, 'west'), true);
  assert.equal(g.hasEdgeWall(1, 1, 'west'), false);
  assert.equal(g.getFlags(2, 1), FLAG_WALL_WEST, 'stored once, by the cell east of the edge');
  g.setEdgeWall(2, 1, 'south', true);
  assert.equal(g.hasEdgeWall(2, 2, 'north'), true);
  assert.equal(g.getFlags(2, 2), FLAG_WALL_NORTH);
  g.setEdgeWall(2, 1, 'west', false);
  assert.equal(g.hasEdgeWall(1, 1, 'east'), false);
  assert.equal(g.getFlags(2, 1), 0);
});

test('setEdgeWall: the outer edge stores nothing and sends no event; bad arguments throw naming them', () => {
  const g = new NavGrid(3, 2);
  const events: GridChange[] = [];
  g.onChange((c) => events.push(c));
  for (const [x, y, side] of [[0, 0, 'north'], [0, 1, 'west'], [2, 0, 'east'], [1, 1, 'south']] as const) {
    g.setEdgeWall(x, y, side, true);
    assert.equal(g.hasEdgeWall(x, y, side), false, `${side} of (${x}, ${y})`);
  }
  assert.equal(events.length, 0);
  assert.deepEqual([...g.layers[0].flags], [0, 0, 0, 0, 0, 0]);
  const element = (fn: () => void) => {
    try {
      fn();
    } catch (e) {
      assert.ok(e instanceof TilenavError);
      return e.element;
    }
    assert.fail('did not throw');
  };
  assert.equal(element(() => g.setEdgeWall(0, 0, 'up' as 'north', true)), 'side');
  assert.equal(element(() => g.setEdgeWall(0, 0, 'east', 1 as unknown as boolean)), 'on');
  assert.equal(element(() => g.setEdgeWall(3, 0, 'east', true)), 'cell');
  assert.equal(element(() => g.hasEdgeWall(0, 2, 'east')), 'cell');
  assert.equal(element(() => g.setEdgeWall(0, 0, 'east', true, 'Sky')), 'layer "Sky"');
  assert.equal(element(() => g.setEdgeWallsAround(1, 0, 3, 1, true)), 'rectangle');
});

test('hexagonal and staggered cells refuse edge walls by name', () => {
  const hex = new NavGrid(4, 4, { projection: hexagonal(10, { layout: 'odd-r' }) });
  assert.equal(hex.movement, 'hex-odd-r');
  assert.throws(() => hex.setEdgeWall(1, 1, 'north', true), (e: unknown) => e instanceof TilenavError && e.element === 'side' && /square cells/.test(e.message) && /hex-odd-r/.test(e.message));
  assert.throws(() => hex.hasEdgeWall(1, 1, 'north'), /square cells/);
  assert.throws(() => hex.setEdgeWallsAround(0, 0, 2, 2, true), /square cells/);
  // Wall bits written as raw flags mean nothing there: a hex search ignores them.
  hex.setFlags(1, 1, FLAG_WALL_NORTH | FLAG_WALL_WEST);
  assert.equal(hex.searchView(0).exits, null);
  assert.equal(findPath(hex, 0, 1, 1, 1).cost, 1);
});

test('walls and one-way flags are separate bits: clearing a one-way flag keeps the wall', () => {
  const g = new NavGrid(4, 1);
  g.setFlags(2, 0, FLAG_NO_EXIT_EAST | FLAG_SAFE_ZONE);
  g.setEdgeWall(1, 0, 'east', true);
  assert.equal(g.getFlags(2, 0), FLAG_NO_EXIT_EAST | FLAG_SAFE_ZONE | FLAG_WALL_WEST);
  g.setFlags(2, 0, g.getFlags(2, 0) & ~FLAG_NO_EXIT_EAST);
  assert.equal(g.hasEdgeWall(2, 0, 'west'), true);
  assert.equal(findPath(g, 0, 0, 3, 0).status, 'no-path');
  g.setEdgeWall(2, 0, 'west', false);
  assert.equal(g.getFlags(2, 0), FLAG_SAFE_ZONE, 'taking the wall down keeps the other bits');
  assert.equal(findPath(g, 0, 0, 3, 0).cost, 3);
});

// ---- the corner rule -------------------------------------------------------------------------

test('a diagonal is refused when any of the four edges at its corner is walled, under every octile model', () => {
  // From A (1, 1) to D (2, 0): side cells B (2, 1) and C (1, 0); the corner point is (1.5, 0.5).
  const edges: [string, (g: NavGrid) => void][] = [
    ['A|B', (g) => g.setEdgeWall(1, 1, 'east', true)],
    ['A|C', (g) => g.setEdgeWall(1, 1, 'north', true)],
    ['B|D', (g) => g.setEdgeWall(2, 1, 'north', true)],
    ['C|D', (g) => g.setEdgeWall(1, 0, 'east', true)],
  ];
  for (const m of ['octile', 'octile-one-obstacle', 'octile-always'] as const) {
    const open = new NavGrid(4, 3);
    assert.ok(Math.abs(findPath(open, 1, 1, 2, 0, { movement: m }).cost - Math.SQRT2) < 1e-12);
    for (const [name, put] of edges) {
      const g = new NavGrid(4, 3);
      put(g);
      const r = findPath(g, 1, 1, 2, 0, { movement: m });
      assert.equal(r.status, 'found');
      assert.ok(r.cost > 1.99, `${m}, ${name}: no diagonal (cost ${r.cost})`);
      assert.equal(checkPath(g, r.cells, { movement: m }).valid, true);
      assert.equal(checkPath(g, Int32Array.of(g.index(1, 1), g.index(2, 0)), { movement: m }).valid, false, `${m}, ${name}: checkPath refuses the diagonal`);
    }
    // An edge that only shares a cell, not the corner, leaves the diagonal alone.
    const g = new NavGrid(4, 3);
    g.setEdgeWall(1, 1, 'west', true);
    g.setEdgeWall(2, 0, 'north', true);
    assert.ok(Math.abs(findPath(g, 1, 1, 2, 0, { movement: m }).cost - Math.SQRT2) < 1e-12, m);
  }
});

test('a fence line cannot be crossed diagonally at its joints, even by octile-always', () => {
  const g = new NavGrid(6, 4);
  for (let x = 0; x < 6; x++) g.setEdgeWall(x, 2, 'north', true);
  for (const m of SQUARE_MODELS) {
    const r = findPath(g, 2, 1, 3, 2, { movement: m });
    assert.equal(r.status, 'no-path', m);
    assert.equal(r.expanded, 0, `${m}: the component labels answer`);
  }
});

// ---- every search against the reference ----------------------------------------------------------

test('property: every square model finds the reference cost with walls toggled between queries; auto equals A*', () => {
  fc.assert(
    fc.property(walledGridArb(false), fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 4 }), ({ g, rnd }, queries) => {
      const finder = new Pathfinder(g);
      for (const [a, b] of queries) {
        const s = a % g.size;
        const t = b % g.size;
        for (const m of SQUARE_MODELS) {
          const ref = refWallDistances(g, 0, m, s)[t];
          const r = finder.findPath(g.xOf(s), g.yOf(s), g.xOf(t), g.yOf(t), { movement: m, algorithm: 'astar' });
          const at = `${m} ${g.xOf(s)},${g.yOf(s)} -> ${g.xOf(t)},${g.yOf(t)}`;
          if (g.layers[0].walkable[s] === 0 || g.layers[0].walkable[t] === 0) continue;
          if (ref === Infinity) {
            assert.equal(r.status, 'no-path', at);
            assert.equal(r.expanded, 0, `${at}: labels split by walls answer without a search`);
          } else {
            assert.equal(r.status, 'found', at);
            assert.ok(Math.abs(r.cost - ref) < 1e-9, `${at}: ${r.cost} vs ${ref}`);
            const check = checkPath(g, r.cells, { movement: m });
            assert.ok(check.valid, `${at}: ${check.problem}`);
            for (let k = 1; k < r.cells.length; k++) {
              const [px, py, x, y] = [g.xOf(r.cells[k - 1]), g.yOf(r.cells[k - 1]), g.xOf(r.cells[k]), g.yOf(r.cells[k])];
              assert.ok(wallNeighbours(g, 0, m, px, py).some(([nx, ny]) => nx === x && ny === y), `${at}: step ${k} is a legal move`);
            }
          }
          const auto = finder.findPath(g.xOf(s), g.yOf(s), g.xOf(t), g.yOf(t), { movement: m });
          assert.equal(auto.status, r.status, at);
          assert.ok(auto.cost === r.cost || Math.abs(auto.cost - r.cost) < 1e-9, at);
          // With walls on the layer auto runs A* itself: the very same path (without, jump point search may tie differently).
          if (g.searchView(0).walls !== null) assert.deepEqual([...auto.cells], [...r.cells], `${at}: auto runs A*`);
        }
        randomChange(g, rnd);
        assertViewFresh(g, 'after a change');
      }
    }),
    { numRuns: 60 },
  );
});

test('property: with one-way flags as well, A* matches the reference (walls and one-way bits together)', () => {
  fc.assert(
    fc.property(walledGridArb(true), fc.nat(), fc.nat(), fc.nat(3), ({ g, rnd }, a, b, mi) => {
      const m = (['cardinal', 'octile', 'octile-one-obstacle', 'octile-always'] as const)[mi];
      for (let round = 0; round < 3; round++) {
        const s = a % g.size;
        const t = b % g.size;
        if (g.layers[0].walkable[s] === 1 && g.layers[0].walkable[t] === 1) {
          const ref = refWallDistances(g, 0, m, s)[t];
          const r = findPath(g, g.xOf(s), g.yOf(s), g.xOf(t), g.yOf(t), { movement: m });
          if (ref === Infinity) assert.equal(r.status, 'no-path');
          else assert.ok(r.status === 'found' && Math.abs(r.cost - ref) < 1e-9, `${m}: ${r.status} ${r.cost} vs ${ref}`);
        }
        randomChange(g, rnd);
      }
    }),
    { numRuns: 60 },
  );
});

test('a ring of walls makes its inside unreachable: no-path with expanded 0, for every model and algorithm', () => {
  const g = new NavGrid(9, 7);
  g.setEdgeWallsAround(2, 2, 4, 3, true);
  for (let x = 2; x < 6; x++) assert.equal(g.hasEdgeWall(x, 2, 'north') && g.hasEdgeWall(x, 4, 'south'), true);
  for (let y = 2; y < 5; y++) assert.equal(g.hasEdgeWall(2, y, 'west') && g.hasEdgeWall(5, y, 'east'), true);
  for (const m of SQUARE_MODELS) {
    for (const algorithm of ['auto', 'astar'] as const) {
      const r = findPath(g, 0, 0, 3, 3, { movement: m, algorithm });
      assert.equal(r.status, 'no-path', `${m} ${algorithm}`);
      assert.equal(r.expanded, 0, `${m} ${algorithm}`);
      assert.equal(findPath(g, 3, 3, 5, 4, { movement: m, algorithm }).status, 'found', 'inside, the cells still connect');
    }
  }
  // Without the reachability check the search itself finds no way in.
  const searched = findPath(g, 0, 0, 3, 3, { reachabilityCheck: false });
  assert.equal(searched.status, 'no-path');
  assert.ok(searched.expanded > 0);
  // A gate: one wall down, and the inside joins the rest.
  g.setEdgeWall(4, 4, 'south', false);
  const r = findPath(g, 0, 0, 3, 3);
  assert.equal(r.status, 'found');
  assert.ok(r.cells.includes(g.index(4, 5)) && r.cells.includes(g.index(4, 4)), 'through the gate');
});

test('jump point search and the hierarchy refuse a walled layer by name; auto runs A*', () => {
  const g = new NavGrid(12, 8);
  g.setEdgeWall(5, 3, 'east', true);
  assert.throws(() => findPath(g, 0, 0, 11, 7, { algorithm: 'jps' }), (e: unknown) => e instanceof TilenavError && e.element === 'algorithm' && /edge walls/.test(e.message));
  assert.throws(() => findPath(g, 0, 0, 11, 7, { algorithm: 'hpa' }), /edge walls/);
  const auto = findPath(g, 0, 3, 11, 3);
  const astar = findPath(g, 0, 3, 11, 3, { algorithm: 'astar' });
  assert.equal(auto.cost, astar.cost);
  assert.deepEqual([...auto.cells], [...astar.cells]);
  // The last wall down: jump point search applies again.
  g.setEdgeWall(5, 3, 'east', false);
  assert.equal(g.searchView(0).exits, null);
  assert.equal(findPath(g, 0, 0, 11, 7, { algorithm: 'jps' }).status, 'found');
});

test('change events: a wall is a change of the two cells sharing its edge; opened when it comes down', () => {
  const g = new NavGrid(5, 4);
  const events: GridChange[] = [];
  g.onChange((c) => events.push(c));
  g.setEdgeWall(2, 1, 'east', true);
  g.setEdgeWall(2, 1, 'south', true);
  g.setEdgeWall(2, 1, 'east', false);
  assert.deepEqual(
    events.map(({ x, y, width, height, opened }) => ({ x, y, width, height, opened })),
    [
      { x: 2, y: 1, width: 2, height: 1, opened: false },
      { x: 2, y: 1, width: 1, height: 2, opened: false },
      { x: 2, y: 1, width: 2, height: 1, opened: true },
    ],
  );
  // Raw flag writes: a wall bit cleared opens a way, and the event covers the neighbours sharing those edges.
  events.length = 0;
  g.setFlags(2, 2, 0);
  assert.deepEqual([events[0].x, events[0].y, events[0].width, events[0].height, events[0].opened], [1, 1, 2, 2, true]);
  // A stored path crossing a new wall is among the paths the change affects.
  const path = findPath(g, 0, 2, 4, 2);
  g.setEdgeWall(1, 2, 'east', true);
  assert.deepEqual(pathsAffectedBy(events.at(-1)!, [{ cells: path.cells }], g.width), [0]);
});

// ---- sight lines and smoothing -----------------------------------------------------------------

test('line of sight: a segment crossing a walled edge or touching a wall is blocked', () => {
  const g = new NavGrid(6, 5);
  g.setEdgeWall(2, 2, 'east', true);
  const v = g.searchView(0);
  assert.equal(lineOfSight(v, 0, 2, 5, 2), false, 'across the wall');
  assert.equal(lineOfSight(v, 2, 2, 3, 2), false, 'one step across');
  assert.equal(lineOfSight(v, 0, 1, 5, 1), true, 'the row above passes');
  assert.equal(lineOfSight(v, 2, 1, 3, 0), true, 'a diagonal away from the wall');
  assert.equal(lineOfSight(v, 2, 3, 3, 2), false, "a diagonal through the wall's lower end");
  assert.equal(lineOfSight(v, 1, 0, 4, 3, 2), false, "through the wall's upper end, even with corner cutting");
  assert.equal(lineOfSight(v, 2.5, 0, 2.5, 4), false, 'along the wall line');
  assert.equal(lineOfSight(v, 3.5, 0, 3.5, 4), true, 'along an open boundary');
  assert.ok(Math.abs(segmentCost(v, 0, 1, 5, 1) - 5) < 1e-12);
});

test('property: a clear sight line and a smoothed path never cross or touch a wall', () => {
  fc.assert(
    fc.property(walledGridArb(false), fc.nat(), fc.nat(), ({ g }, a, b) => {
      const walls = wallSegments(g);
      const s = a % g.size;
      const t = b % g.size;
      const seg = [g.xOf(s), g.yOf(s), g.xOf(t), g.yOf(t)];
      if (lineOfSight(g.searchView(0), seg[0], seg[1], seg[2], seg[3])) for (const w of walls) assert.ok(segmentSegment(seg, w) > 1e-9, `sight ${seg} touches wall ${w}`);
      const r = findPath(g, seg[0], seg[1], seg[2], seg[3]);
      if (r.status !== 'found') return;
      const pts = smoothPath(g, r.cells);
      for (let k = 2; k < pts.length; k += 2) {
        const piece = [pts[k - 2], pts[k - 1], pts[k], pts[k + 1]];
        for (const w of walls) assert.ok(segmentSegment(piece, w) > 1e-9, `smoothed ${piece} touches wall ${w}`);
      }
    }),
    { numRuns: 150 },
  );
});

// ---- clearance ---------------------------------------------------------------------------------

/** The exact clearance of every cell: distance from its centre to the nearest blocked square, wall or the grid's edge. */
function bruteClearance(g: NavGrid, cap: number): Float64Array {
  const out = new Float64Array(g.size);
  const walls = wallSegments(g);
  const walk = g.layers[0].walkable;
  for (let y = 0; y < g.height; y++) {
    for (let x = 0; x < g.width; x++) {
      if (walk[y * g.width + x] === 0) continue;
      let d = Math.min(x, y, g.width - 1 - x, g.height - 1 - y) + 0.5;
      for (let j = 0; j < g.size; j++) {
        if (walk[j] === 1) continue;
        const bx = j % g.width;
        const by = (j - bx) / g.width;
        d = Math.min(d, Math.hypot(Math.max(0, Math.abs(x - bx) - 0.5), Math.max(0, Math.abs(y - by) - 0.5)));
      }
      for (const w of walls) d = Math.min(d, pointSegment(x, y, w));
      out[y * g.width + x] = Math.min(d, cap);
    }
  }
  return out;
}

test('property: clearance counts walls exactly, and stays exact through wall changes', () => {
  fc.assert(
    fc.property(walledGridArb(false), fc.integer({ min: 1, max: 4 }), ({ g, rnd }, cap) => {
      const map = new ClearanceMap(g, { maxClearance: cap });
      for (let round = 0; round < 3; round++) {
        const want = bruteClearance(g, cap);
        for (let i = 0; i < g.size; i++) assert.ok(Math.abs(map.values[i] - want[i]) < 1e-6, `cell (${g.xOf(i)}, ${g.yOf(i)}): ${map.values[i]} vs ${want[i]}`);
        randomChange(g, rnd);
      }
      map.dispose();
    }),
    { numRuns: 80 },
  );
});

test('property: a unit with a radius keeps its disc off walls along every step, on an optimal path', () => {
  fc.assert(
    fc.property(walledGridArb(false), fc.constantFrom(0.55, 0.7, 0.75, 1, 1.2, 1.6), fc.constantFrom('octile', 'cardinal') as fc.Arbitrary<MovementName>, fc.nat(), fc.nat(), ({ g, rnd }, radius, m, a, b) => {
      for (let round = 0; round < 2; round++) {
        const clear = bruteClearance(g, 16);
        const walls = wallSegments(g);
        const blocked: number[] = [];
        for (let i = 0; i < g.size; i++) if (g.layers[0].walkable[i] === 0) blocked.push(i);
        const fits = (x: number, y: number) => clear[y * g.width + x] >= radius - 1e-6;
        // A step is the unit's when both ends fit, the side cells of a diagonal fit, and its disc clears every wall and blocked square on the way.
        const stepOk = (x: number, y: number, nx: number, ny: number) => {
          if (!fits(x, y) || !fits(nx, ny)) return false;
          if (nx !== x && ny !== y && (!fits(nx, y) || !fits(x, ny))) return false;
          const seg = [x, y, nx, ny];
          return walls.every((w) => segmentSegment(seg, w) >= radius - 1e-6) && blocked.every((j) => segmentSquare(seg, j % g.width, (j - (j % g.width)) / g.width) >= radius - 1e-6);
        };
        const s = a % g.size;
        const t = b % g.size;
        const r = findPath(g, g.xOf(s), g.yOf(s), g.xOf(t), g.yOf(t), { movement: m, radius });
        if (!fits(g.xOf(s), g.yOf(s)) || !fits(g.xOf(t), g.yOf(t))) {
          assert.notEqual(r.status, 'found');
        } else {
          const ref = refWallDistances(g, 0, m, s, stepOk)[t];
          if (ref === Infinity) assert.equal(r.status, 'no-path', `${m} r ${radius}`);
          else {
            assert.equal(r.status, 'found', `${m} r ${radius}: the reference found ${ref}`);
            assert.ok(Math.abs(r.cost - ref) < 1e-9, `${m} r ${radius}: ${r.cost} vs ${ref}`);
            for (let k = 1; k < r.cells.length; k++) {
              const [px, py, x, y] = [g.xOf(r.cells[k - 1]), g.yOf(r.cells[k - 1]), g.xOf(r.cells[k]), g.yOf(r.cells[k])];
              assert.ok(stepOk(px, py, x, y), `${m} r ${radius}: step ${px},${py} -> ${x},${y} clears`);
            }
          }
        }
        randomChange(g, rnd);
      }
    }),
    { numRuns: 120 },
  );
});

test('clearance: a straight step refused for passing a wall end keeps the diagonals out of its cells', () => {
  // Regression (found by the property above): one wall on the north edge of (3, 5); its east end
  // (3.5, 4.5) is 0.5 from the step (4, 5) -> (4, 4), refused to radius 0.55, but sqrt(1/2) from the
  // diagonal (4, 5) -> (5, 4), which the unit may take.
  const g = new NavGrid(11, 8);
  g.setEdgeWall(3, 5, 'north', true);
  const r = findPath(g, 4, 5, 5, 2, { radius: 0.55, movement: 'octile' });
  assert.equal(r.status, 'found');
  assert.ok(Math.abs(r.cost - (2 + Math.SQRT2)) < 1e-9, `cost ${r.cost}`);
  assert.equal(findPath(g, 4, 5, 4, 4, { radius: 0.55, movement: 'cardinal' }).cost > 1, true, 'the straight step stays refused');
  // One-way flags still refuse the diagonals that move in a refused direction.
  for (const walls of [false, true]) {
    const h = new NavGrid(4, 3);
    h.setFlags(1, 1, FLAG_NO_EXIT_EAST);
    if (walls) h.setEdgeWall(3, 2, 'west', true);
    assert.equal(findPath(h, 1, 1, 2, 0, { movement: 'octile' }).cost, 2, `walls ${walls}`);
  }
});

test('clearance: a wall beside a cell is half a cell away; a step past a wall end is refused to a wide unit', () => {
  const g = new NavGrid(5, 5);
  // A wall across the row above, standing on the boundary between columns 2 and 3: its lower end is
  // half a cell above the middle of the step (2, 2) -> (3, 2).
  g.setEdgeWall(2, 1, 'east', true);
  const map = new ClearanceMap(g);
  assert.equal(map.at(2, 1), 0.5);
  assert.ok(Math.abs(map.at(2, 2) - Math.SQRT1_2) < 1e-6, 'the wall end is sqrt(1/2) from the centre below it');
  // Radius 0.6 fits (2, 2) and (3, 2), but the step between them passes 0.5 from the wall's end.
  const r = findPath(g, 2, 2, 3, 2, { radius: 0.6, movement: 'cardinal' });
  assert.equal(r.status, 'found');
  assert.ok(r.cost > 1, `went round (${r.cost})`);
  assert.equal(findPath(g, 2, 2, 3, 2, { radius: 0.45, movement: 'cardinal' }).cost, 1, 'a unit under half a cell passes');
});

// ---- grid data: binary format, agents' flow fields -----------------------------------------------

test('the binary format keeps walls (they are flag bits)', () => {
  const g = new NavGrid(6, 4, { layers: 2 });
  g.setEdgeWall(2, 1, 'east', true);
  g.setEdgeWallsAround(1, 1, 2, 2, true, 1);
  const back = parseBinaryGrid(formatBinaryGrid(g)).grid;
  assert.equal(back.hasEdgeWall(3, 1, 'west'), true);
  assert.equal(back.hasEdgeWall(1, 1, 'north', 1), true);
  assert.equal(back.hasEdgeWall(3, 1, 'west', 1), true);
  assert.equal(back.hasEdgeWall(1, 1, 'north', 0), false);
  assert.equal(findPath(back, 2, 1, 3, 1, { movement: 'cardinal' }).cost, 3);
});

test("a flow field never steps a unit across a wall", () => {
  const g = new NavGrid(6, 3);
  for (let y = 0; y < 2; y++) g.setEdgeWall(2, y, 'east', true);
  const goal = g.index(4, 0);
  for (const field of [flowFieldTo(g, 4, 0)]) {
    let i = g.index(1, 0);
    const seen: number[] = [i];
    for (let k = 0; k < 20 && i !== goal; k++) {
      const n = field.next(i);
      assert.notEqual(n, -1);
      const [px, py, x, y] = [g.xOf(i), g.yOf(i), g.xOf(n), g.yOf(n)];
      assert.ok(wallNeighbours(g, 0, 'octile', px, py).some(([nx, ny]) => nx === x && ny === y), `step ${px},${py} -> ${x},${y}`);
      i = n;
      seen.push(i);
    }
    assert.equal(i, goal);
    assert.ok(seen.includes(g.index(2, 2)) || seen.includes(g.index(3, 2)), 'round the end of the wall');
  }
});

// ---- Tiled -------------------------------------------------------------------------------------

test('Tiled: tile properties wallNorth / wallEast / wallSouth / wallWest load as edge walls, turned with the flips', () => {
  const path = fixture('tiled/walls/edge-walls.tmj');
  const map = parseTiled(readFileSync(path), { file: path });
  const g = map.grid;
  assert.deepEqual(map.warnings, []);
  const found: string[] = [];
  for (let y = 0; y < g.height; y++) {
    for (let x = 0; x < g.width; x++) {
      if (g.hasEdgeWall(x, y, 'north')) found.push(`${x},${y} N`);
      if (g.hasEdgeWall(x, y, 'west')) found.push(`${x},${y} W`);
    }
  }
  // (1,0) wallEast; (3,1) wallNorth + wallWest; (4,2) wallEast flipped horizontally: its west;
  // (0,1) wallEast flipped diagonally: its south; (5,3) wallEast: the map's edge, nothing.
  assert.deepEqual(found.sort(), ['0,2 N', '2,0 W', '3,1 N', '3,1 W', '4,2 W']);
  assert.equal(g.isWalkable(1, 3), false);
  assert.equal(findPath(g, 1, 0, 2, 0, { movement: map.movement }).cost > 1, true);
});

test('Tiled: walls on a hexagonal map are ignored with a warning naming the properties', () => {
  const path = fixture('tiled/walls/edge-walls-hex.tmj');
  const map = parseTiled(readFileSync(path), { file: path });
  assert.ok(map.warnings.some((w) => /wallEast ignored: edge walls need square cells/.test(w) && /hexagonal/.test(w)), map.warnings.join('\n'));
  assert.ok(map.warnings.some((w) => /wallNorth, wallWest ignored/.test(w)));
  assert.ok(map.grid.layers[0].flags.every((f) => f === 0));
});

test('agents: pushes and slides never carry a unit across a wall on a cell edge', async () => {
  const { NavigationSystem } = await import('../src/agents/index.js');
  // A fence along the whole north edge of row 5; 30 units packed against it, overlapping.
  const crowd = (fenced: boolean, avoidance: 'orca' | 'none') => {
    const g = new NavGrid(14, 10);
    if (fenced) for (let x = 0; x < 14; x++) g.setEdgeWall(x, 5, 'north', true);
    const sys = new NavigationSystem(g, { avoidance });
    const rnd = mulberry32(7);
    const ids: number[] = [];
    for (let k = 0; k < 30; k++) ids.push(sys.addAgent({ x: 3 + rnd() * 6, y: 4.55 + rnd() * 0.6, radius: 0.45 }));
    // A few walkers ordered into the crowd from the south push it toward the fence.
    for (let k = 0; k < 6; k++) {
      const w = sys.addAgent({ x: 3 + k, y: 8, radius: 0.45 });
      sys.moveTo(w, 3 + k, 4.6);
    }
    for (let s = 0; s < 200; s++) sys.update(1 / 30);
    return ids.filter((id) => sys.y[id] < 4.5).length;
  };
  for (const avoidance of ['none', 'orca'] as const) {
    assert.ok(crowd(false, avoidance) > 0, `${avoidance}: without the fence the crowd spreads north (the test can fail)`);
    assert.equal(crowd(true, avoidance), 0, `${avoidance}: a unit crossed the fence`);
  }
});
