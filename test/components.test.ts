import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, Pathfinder, TilenavError, MOVEMENT_NAMES, FLAG_NO_EXIT_EAST, FLAG_ONE_WAY_MASK, type MovementName } from '../src/index.js';
import { ComponentLabels, componentsOf, connectivity } from '../src/search/bounds/components.js';
import { movementModel } from '../src/search/movement.js';
import { mulberry32 } from '../src/query/index.js';
import { pad, paddedSize } from '../src/grid/padded.js';
import { gridArb, gridFor } from './grids.js';
import { refDistances } from './reference.js';

/** The grid's layer with its one-way flags cleared: the moves the component labels follow. */
function withoutFlags(g: NavGrid, layer: number): NavGrid {
  const copy = new NavGrid(g.width, g.height);
  copy.layers[0].walkable.set(g.layers[layer].walkable);
  copy.refresh();
  return copy;
}

const change = fc.record({
  layer: fc.nat(),
  x: fc.nat(),
  y: fc.nat(),
  w: fc.integer({ min: 1, max: 3 }),
  h: fc.integer({ min: 1, max: 3 }),
  walkable: fc.boolean(),
  /** A burst of single-cell toggles between two queries, past what the labels queue. */
  burst: fc.constantFrom(0, 0, 0, 0, 70),
  oneWay: fc.constantFrom(-1, -1, -1, 0, FLAG_NO_EXIT_EAST),
});

test('property: after every tile change, findPath agrees with the reference on reachability, and unreachable goals cost no expansion', () => {
  fc.assert(
    fc.property(
      gridArb({ width: [2, 14], height: [2, 14], layers: [1, 2], oneWay: true }),
      fc.constantFrom(...MOVEMENT_NAMES),
      fc.array(change, { minLength: 1, maxLength: 8 }),
      ({ grid: drawn, rnd }, movement, changes) => {
        const g = gridFor(drawn, movement);
        const finder = new Pathfinder(g);
        const check = () => {
          for (let layer = 0; layer < g.layers.length; layer++) {
            const walk = g.layers[layer].walkable;
            const oneWay = g.layers[layer].flags.some((f) => (f & FLAG_ONE_WAY_MASK) !== 0);
            const plain = oneWay ? withoutFlags(g, layer) : g;
            for (let q = 0; q < 4; q++) {
              const s = Math.floor(rnd() * g.size);
              const t = Math.floor(rnd() * g.size);
              const r = finder.findPath(g.xOf(s), g.yOf(s), g.xOf(t), g.yOf(t), { layer, movement });
              if (walk[s] !== 1) {
                assert.equal(r.status, 'invalid-start');
                continue;
              }
              if (walk[t] !== 1) {
                assert.equal(r.status, 'invalid-goal');
                continue;
              }
              const d = refDistances(g, layer, movement, [s])[t];
              assert.equal(r.status, d < Infinity ? 'found' : 'no-path', `${movement} layer ${layer}: ${s} -> ${t}`);
              if (d < Infinity) assert.ok(Math.abs(r.cost - d) < 1e-6 * Math.max(1, d), `cost ${r.cost} vs ${d}`);
              // Unreachable even without one-way flags: the labels answer, with no search.
              else if (refDistances(plain, oneWay ? 0 : layer, movement, [s])[t] === Infinity) assert.equal(r.expanded, 0, `${movement}: ${s} -> ${t} searched`);
            }
          }
        };
        check();
        for (const c of changes) {
          const layer = c.layer % g.layers.length;
          if (c.burst > 0) {
            for (let k = 0; k < c.burst; k++) g.setWalkable(Math.floor(rnd() * g.width), Math.floor(rnd() * g.height), rnd() < 0.6, layer);
          } else {
            const x = c.x % g.width;
            const y = c.y % g.height;
            const values = c.oneWay >= 0 ? { walkable: c.walkable, flags: c.oneWay } : { walkable: c.walkable };
            g.fillRect(x, y, Math.min(c.w, g.width - x), Math.min(c.h, g.height - y), values, layer);
          }
          check();
        }
      },
    ),
    { numRuns: 120 },
  );
});

/** Two rooms joined by one door at (6, 2) in a wall along x = 6. */
function twoRooms(): NavGrid {
  const g = new NavGrid(13, 5);
  g.fillRect(6, 0, 1, 5, { walkable: false });
  g.setWalkable(6, 2, true);
  return g;
}

test('a door closing splits the rooms (no search), opening it joins them again', () => {
  const g = twoRooms();
  const finder = new Pathfinder(g);
  assert.equal(finder.findPath(0, 0, 12, 4).status, 'found');
  g.setWalkable(6, 2, false);
  const shut = finder.findPath(0, 0, 12, 4);
  assert.equal(shut.status, 'no-path');
  assert.equal(shut.expanded, 0);
  assert.equal(shut.cells.length, 0);
  assert.equal(shut.cost, Infinity);
  assert.equal(finder.findPath(0, 0, 5, 4).status, 'found', 'each room stays connected within');
  g.setWalkable(6, 2, true);
  const open = finder.findPath(0, 0, 12, 4);
  assert.equal(open.status, 'found');
  assert.ok(open.expanded > 0);
  // Changes in a batch, and arrays written directly then refreshed, keep the labels current too.
  g.batch(() => {
    g.setWalkable(6, 2, false);
    g.setWalkable(6, 3, false);
  });
  assert.equal(finder.findPath(0, 0, 12, 4).expanded, 0);
  g.layers[0].walkable[4 * 13 + 6] = 1;
  g.refresh(0, { x: 6, y: 4, width: 1, height: 1 });
  assert.equal(finder.findPath(0, 0, 12, 4).status, 'found');
});

test('the door toggled many times between queries: the next query relabels and answers right', () => {
  const g = twoRooms();
  const finder = new Pathfinder(g);
  finder.findPath(0, 0, 12, 4);
  for (let k = 0; k < 101; k++) g.setWalkable(6, 2, k % 2 === 0 ? false : true);
  assert.equal(finder.findPath(0, 0, 12, 4).expanded, 0, 'closed after an odd number of toggles');
  g.setWalkable(6, 2, true);
  assert.equal(finder.findPath(0, 0, 12, 4).status, 'found');
});

test('every movement model: a wall of diagonal gaps separates exactly the models that cannot slip through', () => {
  // Cells on the anti-diagonal x + y = 6 blocked: a square move can never cross it, a diagonal can
  // only between two blocked side cells (octile-always). Hex and staggered models have their own
  // moves; the reference decides them.
  const square = new NavGrid(7, 7);
  for (let x = 0; x < 7; x++) square.setWalkable(x, 6 - x, false);
  for (const movement of MOVEMENT_NAMES) {
    const g = gridFor(square, movement);
    const finder = new Pathfinder(g);
    const reach = refDistances(g, 0, movement, [0])[48] < Infinity;
    const r = finder.findPath(0, 0, 6, 6, { movement });
    assert.equal(r.status, reach ? 'found' : 'no-path', movement);
    if (!reach) assert.equal(r.expanded, 0, movement);
    if (movement === 'octile' || movement === 'cardinal' || movement === 'iso') assert.equal(r.status, 'no-path', movement);
    if (movement === 'octile-always') assert.equal(r.status, 'found');
  }
});

test('one-way cells: labels rule out only what no move joins; the search decides the rest', () => {
  const g = new NavGrid(7, 3);
  g.fillRect(0, 1, 7, 1, { walkable: false });
  g.setFlags(3, 0, FLAG_NO_EXIT_EAST);
  const finder = new Pathfinder(g);
  const back = finder.findPath(6, 0, 0, 0);
  assert.equal(back.status, 'found');
  const blocked = finder.findPath(0, 0, 6, 0);
  assert.equal(blocked.status, 'no-path', 'the one-way cell forbids going east');
  assert.ok(blocked.expanded > 0, 'same component: the search decides');
  const apart = finder.findPath(0, 0, 6, 2);
  assert.equal(apart.status, 'no-path');
  assert.equal(apart.expanded, 0, 'another component: no search');
});

test('nearest mode still returns the partial path to an unreachable goal', () => {
  const g = twoRooms();
  g.setWalkable(6, 2, false);
  const finder = new Pathfinder(g);
  const r = finder.findPath(0, 2, 12, 2, { nearest: true });
  assert.equal(r.status, 'partial');
  assert.equal(r.reached, 2 * 13 + 5);
  assert.ok(r.expanded > 0);
});

test('reachabilityCheck: false searches the start component as before', () => {
  const g = twoRooms();
  g.setWalkable(6, 2, false);
  const finder = new Pathfinder(g);
  const off = finder.findPath(0, 0, 12, 4, { reachabilityCheck: false });
  assert.equal(off.status, 'no-path');
  assert.ok(off.expanded > 0);
  assert.equal(finder.findPath(0, 0, 12, 4, { reachabilityCheck: false, algorithm: 'astar' }).expanded, 30, 'A* settles the whole 6 x 5 room');
  assert.equal(finder.findPath(0, 0, 12, 4, { reachabilityCheck: true }).expanded, 0);
  const limited = finder.findPath(0, 0, 12, 4, { reachabilityCheck: false, maxIterations: 3, algorithm: 'astar' });
  assert.equal(limited.status, 'limit-reached');
  assert.equal(finder.findPath(0, 0, 12, 4, { maxIterations: 3, algorithm: 'astar' }).status, 'no-path', 'the labels answer before any limit applies');
});

test('every algorithm answers an unreachable goal without a search; bad options still throw', () => {
  const g = twoRooms();
  g.setWalkable(6, 2, false);
  const finder = new Pathfinder(g);
  for (const algorithm of ['astar', 'jps', 'jps+', 'hpa', 'auto'] as const) {
    const r = finder.findPath(0, 0, 12, 4, { algorithm });
    assert.equal(r.status, 'no-path', algorithm);
    assert.equal(r.expanded, 0, algorithm);
  }
  assert.throws(() => finder.findPath(0, 0, 12, 4, { algorithm: 'hpa', movement: 'hex' as MovementName }), (e: unknown) => e instanceof TilenavError && e.element === 'movement', 'hex moves on square cells');
  const hex = new Pathfinder(gridFor(g, 'hex'));
  assert.throws(() => hex.findPath(0, 0, 12, 4, { algorithm: 'hpa' }), /hierarchy needs/);
  g.setCost(1, 1, 3);
  assert.throws(() => finder.findPath(0, 0, 12, 4, { algorithm: 'jps+' }), /cannot run/);
});

test('labels are per layer and connectivity, shared by the Pathfinders of a grid, 4 bytes per padded cell', () => {
  const g = new NavGrid(40, 30, { layers: 2 });
  g.fillRect(20, 0, 1, 30, { walkable: false }, 1);
  const a = new Pathfinder(g);
  const b = new Pathfinder(g);
  assert.equal(a.findPath(0, 0, 39, 29, { layer: 0 }).status, 'found');
  assert.equal(a.findPath(0, 0, 39, 29, { layer: 1 }).expanded, 0);
  const cells = paddedSize(40, 30);
  const bytes = componentsOf(g).bytes;
  assert.ok(bytes >= 2 * 4 * cells && bytes < 2 * 4 * cells + 4096, `bytes ${bytes}`);
  // Octile (with either corner rule that needs an open side), cardinal and iso connect the same
  // cells: they share the set; octile-always needs its own.
  for (const movement of ['cardinal', 'iso', 'octile-one-obstacle'] as const) assert.equal(b.findPath(0, 0, 39, 29, { layer: 1, movement }).expanded, 0);
  assert.equal(componentsOf(g).bytes, bytes);
  b.findPath(0, 0, 39, 29, { layer: 1, movement: 'octile-always' });
  assert.ok(componentsOf(g).bytes < 3 * 4 * cells + 4096 && componentsOf(g).bytes >= 3 * 4 * cells);
  // A change on layer 1 reaches both Pathfinders' view of the labels.
  g.setWalkable(20, 5, true, 1);
  assert.equal(b.findPath(0, 0, 39, 29, { layer: 1 }).status, 'found');
  assert.equal(a.findPath(0, 0, 39, 29, { layer: 1, movement: 'octile-always' }).status, 'found');
});

test('after a query the labels answer, the debug trace of expanded cells is empty', () => {
  const g = twoRooms();
  g.setWalkable(6, 2, false);
  const finder = new Pathfinder(g);
  finder.findPath(0, 0, 5, 4);
  finder.findPath(0, 0, 12, 4);
  const out = new Uint8Array(g.size);
  assert.equal(finder.expandedInto(out), 0);
});

test('prepare builds the labels of its layer and movement before the first query', () => {
  const rooms = twoRooms();
  rooms.setWalkable(6, 2, false);
  const g = gridFor(rooms, 'hex');
  const finder = new Pathfinder(g);
  assert.equal(componentsOf(g).bytes, 0);
  finder.prepare({ movement: 'hex' });
  const built = componentsOf(g).bytes;
  assert.ok(built >= 4 * paddedSize(13, 5));
  assert.equal(finder.findPath(0, 0, 12, 4, { movement: 'hex' }).expanded, 0);
  assert.equal(componentsOf(g).bytes, built, 'the query found them built');
});

test('a full relabel (fresh, then again over old labels) splits cells exactly as the reference does, border blocked', () => {
  const rnd = mulberry32(3);
  for (const movement of ['cardinal', 'octile-always', 'hex-odd-r'] as const) {
    for (const density of [0.05, 0.3, 0.45, 0.7]) {
      const g = new NavGrid(23, 17);
      const model = connectivity(movementModel(movement));
      const labels = new ComponentLabels(g.width, g.height, model);
      const ids = new Int32Array(paddedSize(g.width, g.height));
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < g.size; i++) g.layers[0].walkable[i] = rnd() < density ? 0 : 1;
        g.refresh();
        labels.rebuild(g.searchView(0).pass, ids);
        const W = g.width + 2;
        for (let p = 0; p < labels.label.length; p++) {
          const x = (p % W) - 1;
          const y = Math.floor(p / W) - 1;
          const inside = x >= 0 && y >= 0 && x < g.width && y < g.height;
          if (!inside || g.layers[0].walkable[y * g.width + x] !== 1) assert.equal(labels.root(p), -1, `${movement} padded ${p}`);
        }
        for (let k = 0; k < 6; k++) {
          const s = Math.floor(rnd() * g.size);
          if (g.layers[0].walkable[s] !== 1) continue;
          const d = refDistances(g, 0, movement, [s]);
          const rs = labels.root(pad(g.width, s));
          for (let t = 0; t < g.size; t++) {
            if (g.layers[0].walkable[t] !== 1) continue;
            assert.equal(labels.root(pad(g.width, t)) === rs, d[t] < Infinity, `${movement} density ${density} round ${round}: ${s} -> ${t}`);
          }
        }
      }
    }
  }
});
