import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, Pathfinder, TilenavError, checkPath, findPath, type MovementName, type PathResult } from '../src/index.js';
import { ReachabilityIndex, mulberry32 } from '../src/query/index.js';
import { NavigationSystem, AGENT_UNREACHABLE } from '../src/agents/index.js';
import { asciiGrid, gridArb, gridFor, applyChange } from './grids.js';
import { readFileSync } from 'node:fs';
import { formatBinaryGrid, parseBinaryGrid, parseLdtk, parseTiled } from '../src/loaders/index.js';
import { fixture } from './fixtures.js';
import { PathService } from '../src/service/node.js';
import { inProcess } from './helpers-service.js';
import { refLinked, refNeighbours } from './reference.js';

/** Whether any chain of moves and links joins the two nodes, every direction allowed (what the component labels know). */
function refJoined(grid: NavGrid, m: MovementName, a: number, b: number): boolean {
  const n = grid.size;
  const L = grid.layers.length;
  const adj: number[][] = Array.from({ length: n * L }, () => []);
  // The moves without one-way flags: a grid copy per layer with the flags cleared.
  for (let l = 0; l < L; l++) {
    const flagless = grid.layers[l].flags.slice();
    grid.layers[l].flags.fill(0);
    for (let c = 0; c < n; c++) {
      if (grid.layers[l].walkable[c] !== 1) continue;
      for (const [nx, ny] of refNeighbours(grid, l, m, c % grid.width, Math.floor(c / grid.width))) {
        adj[l * n + c].push(l * n + ny * grid.width + nx);
        adj[l * n + ny * grid.width + nx].push(l * n + c);
      }
    }
    grid.layers[l].flags.set(flagless);
  }
  for (const k of grid.links()) {
    const u = k.from.layer * n + k.from.y * grid.width + k.from.x;
    const v = k.to.layer * n + k.to.y * grid.width + k.to.x;
    if (!k.enabled || grid.layers[k.from.layer].walkable[u % n] !== 1 || grid.layers[k.to.layer].walkable[v % n] !== 1) continue;
    adj[u].push(v);
    adj[v].push(u);
  }
  const seen = new Uint8Array(n * L);
  const stack = [a];
  seen[a] = 1;
  while (stack.length > 0) {
    const u = stack.pop()!;
    if (u === b) return true;
    for (const v of adj[u]) if (!seen[v]) (seen[v] = 1), stack.push(v);
  }
  return false;
}

/** Checks that `r` walks legal moves and enabled links from (start layer, s) and costs what it says. */
function assertWalks(grid: NavGrid, m: MovementName, layer: number, r: PathResult): void {
  const n = grid.size;
  const at = (k: number) => (r.layers === null ? layer : r.layers[k]);
  if (r.layers !== null) {
    assert.equal(r.layers.length, r.cells.length);
    assert.ok(r.layers.some((l) => l !== layer), 'layers given although the path stays on its layer');
  }
  let cost = 0;
  for (let k = 1; k < r.cells.length; k++) {
    const a = r.cells[k - 1];
    const b = r.cells[k];
    const la = at(k - 1);
    const lb = at(k);
    const ways: number[] = [];
    if (la === lb) {
      for (const [nx, ny, len] of refNeighbours(grid, la, m, a % grid.width, Math.floor(a / grid.width))) {
        if (ny * grid.width + nx === b) ways.push(len * grid.layers[la].cost[b]);
      }
    }
    for (const lk of grid.links()) {
      if (!lk.enabled) continue;
      const f = lk.from.layer * n + lk.from.y * grid.width + lk.from.x;
      const t = lk.to.layer * n + lk.to.y * grid.width + lk.to.x;
      if ((f === la * n + a && t === lb * n + b) || (lk.bidirectional && t === la * n + a && f === lb * n + b)) ways.push(lk.cost);
    }
    assert.ok(ways.length > 0, `step ${k}: (${la}, ${a}) -> (${lb}, ${b}) is neither a move nor an enabled link`);
    assert.equal(grid.layers[lb].walkable[b], 1, `step ${k} enters a blocked cell`);
    cost += Math.min(...ways);
  }
  assert.ok(Math.abs(cost - r.cost) <= 1e-6 * Math.max(1, cost), `path walks for ${cost}, says ${r.cost}`);
}

const linkArb = fc.record({
  from: fc.nat(),
  to: fc.nat(),
  fromLayer: fc.nat(1),
  toLayer: fc.nat(1),
  /** Cheap teleports (0 to 1) or dear stairs (up to 20). */
  cost: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 1, max: 20, noNaN: true }), fc.constant(0)),
  bidirectional: fc.boolean(),
  enabled: fc.constantFrom(true, true, true, false),
});

/** One action between queries: toggle a link, remove one, add one, change tiles. */
const actionArb = fc.record({ kind: fc.nat(3), at: fc.nat(), change: fc.tuple(fc.nat(), fc.nat(4), fc.nat(2)), link: linkArb });

type LinkDraw = { from: number; to: number; fromLayer: number; toLayer: number; cost: number; bidirectional: boolean; enabled: boolean };

function addDrawn(grid: NavGrid, d: LinkDraw): number | null {
  const a = d.from % grid.size;
  const b = d.to % grid.size;
  const la = d.fromLayer % grid.layers.length;
  const lb = d.toLayer % grid.layers.length;
  if (a === b && la === lb) return null;
  return grid.addLink({ from: { x: grid.xOf(a), y: grid.yOf(a), layer: la }, to: { x: grid.xOf(b), y: grid.yOf(b), layer: lb }, cost: d.cost, bidirectional: d.bidirectional, enabled: d.enabled });
}

test('property: findPath across random links (same layer and across two, one-way and both ways, cheap and dear) costs what the reference Dijkstra says, through tile changes and links switched on and off', () => {
  fc.assert(
    fc.property(
      gridArb({ width: [2, 11], height: [2, 11], layers: [1, 2], costs: ['uniform', 'mixed', 'integer'], oneWay: true }),
      fc.constantFrom<MovementName>('octile', 'octile', 'cardinal', 'octile-always', 'chebyshev', 'hex', 'hex-odd-r', 'staggered-odd-r', 'iso'),
      fc.array(linkArb, { minLength: 1, maxLength: 7 }),
      fc.array(actionArb, { maxLength: 5 }),
      fc.constantFrom<'auto' | 'astar'>('auto', 'astar'),
      ({ grid: drawn, rnd }, movement, links, actions, algorithm) => {
        const grid = gridFor(drawn, movement);
        const ids: number[] = [];
        for (const d of links) {
          const id = addDrawn(grid, d);
          if (id !== null) ids.push(id);
        }
        const finder = new Pathfinder(grid);
        const L = grid.layers.length;
        const check = () => {
          for (let q = 0; q < 4; q++) {
            const s = Math.floor(rnd() * grid.size);
            const t = Math.floor(rnd() * grid.size);
            const layer = Math.floor(rnd() * L);
            const goalLayer = Math.floor(rnd() * L);
            const r = finder.findPath(grid.xOf(s), grid.yOf(s), grid.xOf(t), grid.yOf(t), { layer, goalLayer, movement, algorithm });
            if (grid.layers[layer].walkable[s] !== 1) {
              assert.equal(r.status, 'invalid-start');
              continue;
            }
            if (grid.layers[goalLayer].walkable[t] !== 1) {
              assert.equal(r.status, 'invalid-goal');
              continue;
            }
            const d = refLinked(grid, movement, layer, s)[goalLayer * grid.size + t];
            const what = `${movement} (${layer}, ${s}) -> (${goalLayer}, ${t}) links ${JSON.stringify(grid.links())}`;
            assert.equal(r.status, d < Infinity ? 'found' : 'no-path', what);
            if (d === Infinity) {
              if (!refJoined(grid, movement, layer * grid.size + s, goalLayer * grid.size + t)) assert.equal(r.expanded, 0, `unreachable, but searched: ${what}`);
              continue;
            }
            assert.ok(Math.abs(r.cost - d) <= 1e-6 * Math.max(1, d), `cost ${r.cost}, reference ${d}: ${what}`);
            assert.equal(r.cells[0], s);
            assert.equal(r.reached, t);
            assert.equal(r.layers === null ? layer : r.layers[r.layers.length - 1], goalLayer);
            assertWalks(grid, movement, layer, r);
            const checked = checkPath(grid, r.cells, { layer, movement, layers: r.layers });
            assert.ok(checked.valid && Math.abs(checked.cost - r.cost) <= 1e-6 * Math.max(1, d), `checkPath: ${checked.problem ?? checked.cost}`);
          }
        };
        check();
        for (const a of actions) {
          if (a.kind === 0 && ids.length > 0) {
            const id = ids[a.at % ids.length];
            grid.setLinkEnabled(id, !grid.links().find((k) => k.id === id)!.enabled);
          } else if (a.kind === 1 && ids.length > 0) {
            grid.removeLink(ids.splice(a.at % ids.length, 1)[0]);
          } else if (a.kind === 2) {
            const id = addDrawn(grid, a.link);
            if (id !== null) ids.push(id);
          } else {
            applyChange(grid, a.change[0], a.change[1], a.change[2]);
          }
          check();
        }
      },
    ),
    { numRuns: 150 },
  );
});

test('addLink, setLinkEnabled, removeLink and links(): ids, copies, change events, bad input named', () => {
  const grid = new NavGrid(6, 4, { layers: ['Ground', 'Upstairs'] });
  const events: { layer: number; x: number; y: number; opened: boolean }[] = [];
  grid.onChange((c) => events.push({ layer: c.layer, x: c.x, y: c.y, opened: c.opened }));
  const v0 = grid.version;
  const id = grid.addLink({ from: { x: 1, y: 1 }, to: { x: 4, y: 2, layer: 'Upstairs' }, cost: 3 });
  assert.deepEqual(events, [
    { layer: 0, x: 1, y: 1, opened: true },
    { layer: 1, x: 4, y: 2, opened: true },
  ]);
  assert.equal(grid.version, v0 + 2);
  assert.deepEqual(grid.links(), [{ id, from: { x: 1, y: 1, layer: 0 }, to: { x: 4, y: 2, layer: 1 }, cost: 3, bidirectional: true, enabled: true }]);
  events.length = 0;
  grid.setLinkEnabled(id, true);
  assert.equal(events.length, 0, 'no change, no event');
  grid.setLinkEnabled(id, false);
  assert.deepEqual(events.map((e) => e.opened), [false, false]);
  assert.equal(grid.links()[0].enabled, false);
  const second = grid.addLink({ from: { x: 0, y: 0 }, to: { x: 5, y: 3 }, cost: 0, bidirectional: false, enabled: false });
  assert.ok(second > id);
  grid.removeLink(id);
  assert.deepEqual(grid.links().map((k) => k.id), [second]);
  assert.ok(grid.memory().entries.every((e) => e.bytes >= 0));
  const bad: [() => unknown, string][] = [
    [() => grid.removeLink(id), 'id'],
    [() => grid.setLinkEnabled(999, true), 'id'],
    [() => grid.setLinkEnabled(second, 1 as unknown as boolean), 'enabled'],
    [() => grid.addLink({ from: { x: 6, y: 0 }, to: { x: 0, y: 0 }, cost: 1 }), 'from'],
    [() => grid.addLink({ from: { x: 0, y: 0 }, to: { x: 0.5, y: 0 }, cost: 1 }), 'to'],
    [() => grid.addLink({ from: { x: 0, y: 0 }, to: { x: 0, y: 0 }, cost: 1 }), 'to'],
    [() => grid.addLink({ from: { x: 0, y: 0 }, to: { x: 1, y: 0, layer: 'Roof' }, cost: 1 }), 'to.layer "Roof"'],
    [() => grid.addLink({ from: { x: 0, y: 0 }, to: { x: 1, y: 0 }, cost: -1 }), 'cost'],
    [() => grid.addLink({ from: { x: 0, y: 0 }, to: { x: 1, y: 0 }, cost: Infinity }), 'cost'],
    [() => grid.addLink({ from: { x: 0, y: 0 }, to: { x: 1, y: 0 }, cost: NaN }), 'cost'],
    [() => grid.addLink({ from: { x: 0, y: 0 }, to: { x: 1, y: 0 }, cost: 1, bidirectional: 'yes' as unknown as boolean }), 'bidirectional'],
    [() => grid.addLink(null as never), 'link'],
  ];
  for (const [fn, element] of bad) {
    assert.throws(fn, (e: unknown) => e instanceof TilenavError && e.element === element, `expected a TilenavError naming ${element}`);
  }
});

test('a teleporter cheaper than walking is taken, one-way links are not taken backwards, and a link switched off is a wall again', () => {
  // Two rooms joined by a long corridor along the bottom.
  const grid = NavGrid.fromMatrix([
    [0, 0, 0, 1, 0, 0, 0],
    [0, 0, 0, 1, 0, 0, 0],
    [0, 0, 0, 1, 0, 0, 0],
    [0, 0, 0, 1, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0],
  ]);
  const walk = findPath(grid, 0, 0, 6, 0);
  assert.equal(walk.status, 'found');
  const id = grid.addLink({ from: { x: 1, y: 0 }, to: { x: 5, y: 0 }, cost: 0.5, bidirectional: false });
  const jump = findPath(grid, 0, 0, 6, 0);
  assert.equal(jump.status, 'found');
  assert.deepEqual(grid.cellsToXY(jump.cells), [[0, 0], [1, 0], [5, 0], [6, 0]]);
  assert.equal(jump.cost, 2.5);
  assert.equal(jump.layers, null);
  // Back the long way: the link is one way.
  assert.ok(Math.abs(findPath(grid, 6, 0, 0, 0).cost - walk.cost) < 1e-9);
  for (const algorithm of ['jps', 'jps+', 'hpa'] as const) {
    assert.throws(() => findPath(grid, 0, 0, 6, 0, { algorithm }), (e: unknown) => e instanceof TilenavError && e.element === 'algorithm' && /link/.test(e.message), algorithm);
  }
  assert.throws(() => findPath(grid, 0, 0, 6, 0, { anyAngle: true }), (e: unknown) => e instanceof TilenavError && e.element === 'anyAngle');
  grid.setLinkEnabled(id, false);
  assert.deepEqual(findPath(grid, 0, 0, 6, 0).cells, walk.cells);
  assert.ok(Math.abs(findPath(grid, 0, 0, 6, 0, { algorithm: 'jps' }).cost - walk.cost) < 1e-9);
  // Closing the corridor splits the rooms; the teleporter joins them again.
  grid.setWalkable(3, 4, false);
  const apart = findPath(grid, 0, 0, 6, 0);
  assert.equal(apart.status, 'no-path');
  assert.equal(apart.expanded, 0, 'the component labels answer');
  grid.setLinkEnabled(id, true);
  assert.equal(findPath(grid, 0, 0, 6, 0).cost, 2.5);
  const back = findPath(grid, 6, 0, 0, 0);
  assert.equal(back.status, 'no-path', 'one way only');
  // A link whose far end is blocked is not taken.
  grid.setWalkable(5, 0, false);
  assert.equal(findPath(grid, 0, 0, 6, 0).status, 'no-path');
});

test('stairs between layers: the path climbs, crosses and comes down, its layers say where; a goal layer no link reaches answers at once', () => {
  // Ground: two halves apart; Upstairs: a bridge over the wall.
  const grid = new NavGrid(9, 3, { layers: ['Ground', 'Upstairs'] });
  grid.fillRect(4, 0, 1, 3, { walkable: false }, 'Ground');
  grid.fillRect(0, 0, 9, 3, { walkable: false }, 'Upstairs');
  grid.fillRect(2, 1, 5, 1, { walkable: true }, 'Upstairs');
  assert.equal(findPath(grid, 0, 1, 8, 1).status, 'no-path');
  grid.addLink({ from: { x: 2, y: 1 }, to: { x: 2, y: 1, layer: 'Upstairs' }, cost: 4 });
  grid.addLink({ from: { x: 6, y: 1, layer: 1 }, to: { x: 6, y: 1, layer: 0 }, cost: 4, bidirectional: false });
  const r = findPath(grid, 0, 1, 8, 1);
  assert.equal(r.status, 'found');
  assert.deepEqual(grid.cellsToXY(r.cells), [[0, 1], [1, 1], [2, 1], [2, 1], [3, 1], [4, 1], [5, 1], [6, 1], [6, 1], [7, 1], [8, 1]]);
  assert.deepEqual([...r.layers!], [0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0]);
  assert.equal(r.cost, 2 + 4 + 4 + 4 + 2);
  // To a cell upstairs.
  const up = findPath(grid, 0, 1, 4, 1, { goalLayer: 'Upstairs' });
  assert.equal(up.status, 'found');
  assert.equal(up.cost, 2 + 4 + 2);
  assert.deepEqual([...up.layers!], [0, 0, 0, 1, 1, 1]);
  // Down from upstairs to the far half, the start's layer upstairs.
  const down = findPath(grid, 3, 1, 8, 1, { layer: 1, goalLayer: 0 });
  assert.equal(down.cost, 3 + 4 + 2);
  // Upstairs has no way down to the near half but the first stairs' (two-way); the second stair is one way down.
  assert.equal(findPath(grid, 8, 1, 3, 1, { goalLayer: 1 }).status, 'no-path');
  // A blocked goal upstairs, a refused one.
  assert.equal(findPath(grid, 0, 1, 0, 0, { goalLayer: 1 }).status, 'invalid-goal');
  // Nearest: the reachable cell nearest the goal on the goal's layer.
  const near = findPath(grid, 8, 1, 3, 0, { goalLayer: 1, nearest: true });
  assert.equal(near.status, 'partial');
  assert.equal(near.cells.length, 1, 'nothing upstairs is reachable from the far half: the start is as near as it gets');
  const nearUp = findPath(grid, 0, 1, 3, 0, { goalLayer: 1, nearest: true });
  assert.equal(nearUp.status, 'partial');
  assert.deepEqual(grid.cellsToXY([nearUp.reached]), [[3, 1]]);
  assert.equal(nearUp.layers![nearUp.layers!.length - 1], 1);
  // A three-layer grid whose third layer no link reaches.
  const three = new NavGrid(3, 3, { layers: 3 });
  three.addLink({ from: { x: 0, y: 0 }, to: { x: 0, y: 0, layer: 1 }, cost: 1 });
  const none = findPath(three, 0, 0, 2, 2, { goalLayer: 2 });
  assert.equal(none.status, 'no-path');
  assert.equal(none.expanded, 0);
  assert.ok(Math.abs(findPath(three, 0, 0, 2, 2, { goalLayer: 1 }).cost - (1 + 2 * Math.SQRT2)) < 1e-9);
  assert.throws(() => findPath(three, 0, 0, 2, 2, { goalLayer: 5 }), (e: unknown) => e instanceof TilenavError && /goalLayer/.test(e.element ?? ''));
  // The debug view shows the start layer's closed cells of a search across layers.
  const finder = new Pathfinder(grid);
  finder.findPath(0, 1, 8, 1);
  const seen = new Uint8Array(grid.size);
  assert.ok(finder.expandedInto(seen) > 0);
  assert.equal(seen[grid.index(0, 1)], 1);
});

test('many teleporters (past the precise bound) and a unit radius: still the reference cost', () => {
  const grid = new NavGrid(30, 20, { layers: 2 });
  const rnd = mulberry32(7);
  for (let i = 0; i < 120; i++) grid.setWalkable(Math.floor(rnd() * 30), Math.floor(rnd() * 20), false);
  for (let i = 0; i < 40; i++) {
    const a = Math.floor(rnd() * grid.size);
    const b = Math.floor(rnd() * grid.size);
    grid.addLink({ from: { x: grid.xOf(a), y: grid.yOf(a), layer: i % 2 }, to: { x: grid.xOf(b), y: grid.yOf(b), layer: (i >> 1) % 2 }, cost: rnd() * 2, bidirectional: rnd() < 0.5 });
  }
  const finder = new Pathfinder(grid);
  for (let q = 0; q < 30; q++) {
    const s = Math.floor(rnd() * grid.size);
    const t = Math.floor(rnd() * grid.size);
    const r = finder.findPath(grid.xOf(s), grid.yOf(s), grid.xOf(t), grid.yOf(t), { goalLayer: q % 2 });
    const d = grid.layers[0].walkable[s] === 1 && grid.layers[q % 2].walkable[t] === 1 ? refLinked(grid, 'octile', 0, s)[(q % 2) * grid.size + t] : NaN;
    if (Number.isNaN(d)) continue;
    assert.equal(r.status, d < Infinity ? 'found' : 'no-path');
    if (d < Infinity) assert.ok(Math.abs(r.cost - d) < 1e-9 * Math.max(1, d), `${r.cost} vs ${d}`);
  }
  // A unit of radius 0.6 cells fits only where a 3 x 3 block is open: its path keeps to them on both layers.
  const open = new NavGrid(12, 5, { layers: 2 });
  open.fillRect(5, 0, 2, 5, { walkable: false }, 0);
  open.addLink({ from: { x: 2, y: 2 }, to: { x: 2, y: 2, layer: 1 }, cost: 1 });
  open.addLink({ from: { x: 9, y: 2, layer: 1 }, to: { x: 9, y: 2 }, cost: 1 });
  const wide = findPath(open, 1, 2, 10, 2, { radius: 0.6 });
  assert.equal(wide.status, 'found');
  assert.equal(wide.cost, 1 + 1 + 7 + 1 + 1);
  open.fillRect(6, 0, 1, 5, { walkable: false }, 1);
  open.setWalkable(6, 2, true, 1);
  assert.equal(findPath(open, 1, 2, 10, 2, { radius: 0.6 }).status, 'no-path', 'the one-cell gap upstairs leaves no room for the disc');
  assert.equal(findPath(open, 1, 2, 10, 2).status, 'found', 'a point still passes');
});

test('ReachabilityIndex: links join components', async () => {
  const grid = NavGrid.fromMatrix([
    [0, 1, 0],
    [0, 1, 0],
  ]);
  const index = new ReachabilityIndex(grid);
  assert.equal(index.connected(0, 0, 2, 1), false);
  const id = grid.addLink({ from: { x: 0, y: 1 }, to: { x: 2, y: 0 }, cost: 1, bidirectional: false });
  assert.equal(index.connected(0, 0, 2, 1), true);
  grid.removeLink(id);
  assert.equal(index.connected(0, 0, 2, 1), false);
});


/** Steps `sys` until `done` or `budget` steps, checking after each that every agent stands in a walkable cell of the system's layer. */
function stepWalkable(sys: NavigationSystem, done: () => boolean, budget: number, each?: () => void): number {
  for (let s = 0; s < budget; s++) {
    if (done()) return s;
    sys.step();
    for (let id = 0; id < sys.count; id++) {
      assert.ok(sys.grid.isWalkable(Math.floor(sys.x[id] + 0.5), Math.floor(sys.y[id] + 0.5), sys.layer), `agent ${id} stands in a wall at (${sys.x[id]}, ${sys.y[id]})`);
    }
    each?.();
  }
  return done() ? budget : -1;
}

test('agents take a teleporter between two walled rooms and arrive, never inside the wall; a link switched off on the way sends them the long way', () => {
  const rows = [
    '.....@.....', //
    '.....@.....',
    '.....@.....',
    '.....@.....',
    '...........',
  ];
  const grid = asciiGrid(rows.slice(0, 4));
  const link = grid.addLink({ from: { x: 3, y: 1 }, to: { x: 7, y: 2 }, cost: 1 });
  const sys = new NavigationSystem(grid);
  const id = sys.addAgent({ x: 0, y: 0 });
  let arrived = 0;
  sys.moveTo(id, 10, 1, { onArrived: () => arrived++ });
  let jumped = false;
  let lastX = sys.x[id];
  const steps = stepWalkable(sys, () => arrived > 0, 3000, () => {
    if (Math.abs(sys.x[id] - lastX) > 1) {
      jumped = true;
      assert.deepEqual([sys.x[id], sys.y[id]], [7, 2], 'appears at the link\'s far end');
    }
    lastX = sys.x[id];
  });
  assert.ok(steps > 0, 'did not arrive');
  assert.ok(jumped, 'took the link');
  assert.ok(Math.hypot(sys.x[id] - 10, sys.y[id] - 1) < 0.5);
  // And back the other way (the link is two-way), to the start.
  sys.moveTo(id, 0, 3, { onArrived: () => arrived++ });
  assert.ok(stepWalkable(sys, () => arrived > 1, 3000) > 0, 'did not come back');

  // A corridor joins the rooms; the teleporter is the short way until it is switched off on the way there.
  const open = asciiGrid(rows);
  const tp = open.addLink({ from: { x: 3, y: 0 }, to: { x: 7, y: 0 }, cost: 1 });
  const sys2 = new NavigationSystem(open);
  const b = sys2.addAgent({ x: 0, y: 0 });
  let done = false;
  sys2.moveTo(b, 10, 0, { onArrived: () => (done = true) });
  for (let s = 0; s < 5; s++) sys2.step();
  open.setLinkEnabled(tp, false);
  let jumpedAfter = false;
  let prev = sys2.x[b];
  assert.ok(stepWalkable(sys2, () => done, 4000, () => {
    if (Math.abs(sys2.x[b] - prev) > 1) jumpedAfter = true;
    prev = sys2.x[b];
  }) > 0, 'did not arrive the long way');
  assert.ok(!jumpedAfter, 'took a link that was switched off');
  assert.ok(Math.hypot(sys2.x[b] - 10, sys2.y[b]) < 0.5);
  void link;
});

/** Steps `sys` until `done`, checking every agent stands on a walkable cell of its own layer; the steps taken, -1 past `budget`. */
function stepOnLayers(sys: NavigationSystem, done: () => boolean, budget: number, each?: () => void): number {
  for (let s = 0; s < budget; s++) {
    if (done()) return s;
    sys.step();
    for (let id = 0; id < sys.count; id++) {
      const [x, y, l] = [Math.floor(sys.x[id] + 0.5), Math.floor(sys.y[id] + 0.5), sys.layers[id]];
      assert.ok(sys.grid.isWalkable(x, y, l), `agent ${id} stands in a wall at (${sys.x[id]}, ${sys.y[id]}) on layer ${l}`);
    }
    each?.();
  }
  return done() ? budget : -1;
}

test('agents take stairs between layers: up, across the upper floor, down, and on to the target; a target upstairs; agents on two floors do not meet', () => {
  const grid = new NavGrid(9, 3, { layers: ['Ground', 'Upstairs'] });
  // A wall across the ground floor; stairs up before it, down after it.
  grid.fillRect(4, 0, 1, 3, { walkable: false }, 0);
  grid.addLink({ from: { x: 2, y: 1 }, to: { x: 2, y: 1, layer: 1 }, cost: 1 });
  grid.addLink({ from: { x: 6, y: 1, layer: 1 }, to: { x: 6, y: 1 }, cost: 1 });
  const r = findPath(grid, 0, 1, 8, 1);
  assert.equal(r.status, 'found');
  assert.ok(r.layers !== null && r.layers.includes(1), 'the path climbs');
  const sys = new NavigationSystem(grid);
  const id = sys.addAgent({ x: 0, y: 1 });
  assert.equal(sys.layers[id], 0);
  let arrived = false;
  sys.moveTo(id, 8, 1, { onArrived: () => (arrived = true) });
  const seen: string[] = [];
  const steps = stepOnLayers(sys, () => arrived, 2000, () => {
    const at = `${sys.layers[id]}`;
    if (seen[seen.length - 1] !== at) seen.push(at);
  });
  assert.ok(steps > 0, 'did not arrive');
  assert.deepEqual(seen, ['0', '1', '0'], 'up the stairs, across, and down');
  assert.ok(Math.hypot(sys.x[id] - 8, sys.y[id] - 1) < 0.5);
  assert.equal(sys.flags[id] & AGENT_UNREACHABLE, 0);
  // A target on the upper floor: up the stairs, and it stays there.
  let up = false;
  sys.moveTo(id, 5, 1, { layer: 'Upstairs', onArrived: () => (up = true) });
  assert.ok(stepOnLayers(sys, () => up, 2000) > 0, 'did not reach the upper floor');
  assert.equal(sys.layers[id], 1);
  assert.ok(Math.hypot(sys.x[id] - 5, sys.y[id] - 1) < 0.5);
  // Two agents over one spot on two floors stand where they are: they do not push each other.
  const above = sys.addAgent({ x: 7, y: 1, layer: 'Upstairs' });
  const twin = sys.addAgent({ x: 7.1, y: 1 });
  for (let s = 0; s < 20; s++) sys.step();
  assert.equal(sys.layers[above], 1);
  assert.equal(sys.layers[twin], 0);
  assert.ok(Math.abs(sys.x[above] - 7) < 1e-9 && Math.abs(sys.x[twin] - 7.1) < 1e-9, 'pushed by an agent on another floor');
  assert.throws(() => sys.moveTo(id, 1, 1, { layer: 'Attic' }), (e: unknown) => e instanceof TilenavError && e.element === 'layer');
  assert.throws(() => sys.addAgent({ x: 1, y: 1, layer: 9 }), (e: unknown) => e instanceof TilenavError && e.element === 'agent.layer');
});

test('groups on a layer with links plan one by one (flow fields know no links), and cross by them', () => {
  const grid = new NavGrid(9, 3, { layers: ['Ground', 'Upstairs'] });
  grid.fillRect(4, 0, 1, 3, { walkable: false }, 0);
  grid.addLink({ from: { x: 3, y: 0 }, to: { x: 5, y: 0 }, cost: 1 });
  const sys = new NavigationSystem(grid);
  const ids = [0, 1, 2].map((y) => sys.addAgent({ x: 0, y }));
  const order = sys.moveGroup(ids, 7, 1, { mode: 'auto' });
  assert.equal(order.mode, 'formation');
  stepOnLayers(sys, () => ids.every((k) => !sys.isMoving(k)), 4000);
  for (const k of ids) assert.ok(sys.x[k] > 4, `unit ${k} did not cross by the link`);
  // A group sent upstairs by a ladder: formation slots on the upper floor, every unit climbs.
  grid.addLink({ from: { x: 6, y: 2 }, to: { x: 6, y: 2, layer: 1 }, cost: 2 });
  const up = sys.moveGroup(ids, 7, 1, { layer: 'Upstairs' });
  assert.equal(up.mode, 'formation');
  stepOnLayers(sys, () => ids.every((k) => !sys.isMoving(k)), 4000);
  for (const k of ids) assert.equal(sys.layers[k], 1, `unit ${k} did not climb`);
  assert.throws(() => sys.moveGroup(ids, 7, 1, { layer: 1, mode: 'flow' }), (e: unknown) => e instanceof TilenavError && e.element === 'mode');
});

test('a Tiled map declares links with object properties: linkTo, linkCost, linkOneWay, linkEnabled; bad ones are left out with a warning naming the object', () => {
  const path = fixture('tiled/links/links.tmj');
  const m = parseTiled(readFileSync(path), { file: path });
  const grid = m.grid;
  assert.deepEqual(
    grid.links().map(({ from, to, cost, bidirectional, enabled }) => ({ from, to, cost, bidirectional, enabled })),
    [
      { from: { x: 2, y: 1, layer: 0 }, to: { x: 2, y: 1, layer: 1 }, cost: 2.5, bidirectional: true, enabled: true },
      { from: { x: 1, y: 3, layer: 0 }, to: { x: 6, y: 3, layer: 0 }, cost: 0.5, bidirectional: false, enabled: true },
      { from: { x: 0, y: 0, layer: 0 }, to: { x: 7, y: 0, layer: 0 }, cost: 1, bidirectional: true, enabled: false },
    ],
  );
  assert.ok(m.warnings.some((w) => /object 17 "typo".*linkTo is a int property/.test(w)), m.warnings.join('\n'));
  assert.ok(m.warnings.some((w) => /object 18 "dangling".*object 99/.test(w)), m.warnings.join('\n'));
  // The wall splits the ground; the teleporter crosses it one way, the locked door not at all.
  assert.equal(grid.isWalkable(4, 2), false);
  const r = findPath(grid, 0, 3, 7, 3);
  assert.equal(r.status, 'found');
  assert.equal(r.cost, 1 + 0.5 + 1);
  assert.equal(findPath(grid, 7, 3, 0, 3).status, 'no-path');
  // The stairs lead to the upper layer.
  assert.equal(findPath(grid, 0, 1, 2, 0, { goalLayer: 1 }).cost, 2 + 2.5 + 1);
});

test('LDtk entities declare links with fields: linkTo (EntityRef), linkCost, linkOneWay, linkEnabled, linkLayer; the stitched world keeps them', () => {
  const file = fixture('ldtk/Typical_TopDown_example.ldtk');
  // The example project, with two of its doors joined by a one-way link (fields added here).
  const json = JSON.parse(readFileSync(file, 'utf8'));
  const level = json.levels.find((l: { identifier: string }) => l.identifier === 'World_Level_0');
  const doors = level.layerInstances.flatMap((li: { entityInstances: unknown[] }) => li.entityInstances).filter((e: { __identifier: string }) => e.__identifier === 'Door');
  const from = doors.find((e: { __grid: number[] }) => e.__grid[0] === 10 && e.__grid[1] === 7);
  const to = doors.find((e: { __grid: number[] }) => e.__grid[0] === 18 && e.__grid[1] === 7);
  from.fieldInstances.push(
    { __identifier: 'linkTo', __type: 'EntityRef', __value: { entityIid: to.iid, layerIid: '', levelIid: level.iid, worldIid: '' }, __tile: null, defUid: 9001 },
    { __identifier: 'linkCost', __type: 'Float', __value: 0.5, __tile: null, defUid: 9002 },
    { __identifier: 'linkOneWay', __type: 'Bool', __value: true, __tile: null, defUid: 9003 },
  );
  const other = doors.find((e: { __grid: number[] }) => e.__grid[0] === 7 && e.__grid[1] === 9);
  other.fieldInstances.push({ __identifier: 'linkTo', __type: 'String', __value: 'nowhere', __tile: null, defUid: 9004 });
  const p = parseLdtk(JSON.stringify(json), { file, readFile: (f: string) => readFileSync(f) });
  const lv = p.levels.find((l) => l.name === 'World_Level_0')!;
  const links = lv.grid.links();
  assert.equal(links.length, 1);
  const [k] = links;
  const a = lv.entities.find((e) => e.iid === from.iid)!;
  const b = lv.entities.find((e) => e.iid === to.iid)!;
  assert.deepEqual([k.from, k.to, k.cost, k.bidirectional, k.enabled], [{ x: a.x, y: a.y, layer: 0 }, { x: b.x, y: b.y, layer: 0 }, 0.5, false, true]);
  assert.ok(lv.warnings.some((w) => /linkTo is a String field/.test(w)), lv.warnings.join('\n'));
  // The world stitched from the levels holds the link too, moved with its level.
  const world = p.worlds.find((w) => w.levels.some((l) => l.name === 'World_Level_0'))!;
  const placed = world.levels.find((l) => l.name === 'World_Level_0')!;
  assert.deepEqual(world.grid.links().map((w) => [w.from.x, w.from.y, w.to.x, w.to.y]), [[a.x + placed.x, a.y + placed.y, b.x + placed.x, b.y + placed.y]]);
});

test('the path service answers across links as the Pathfinder does, and its workers follow links added and switched after they started', async () => {
  const grid = new NavGrid(9, 3, { layers: ['Ground', 'Upstairs'] });
  grid.fillRect(4, 0, 1, 3, { walkable: false }, 0);
  grid.addLink({ from: { x: 2, y: 1 }, to: { x: 2, y: 1, layer: 1 }, cost: 2 });
  const svc = new PathService(grid, { factory: inProcess(), workers: 2, share: 'never' });
  try {
    const finder = new Pathfinder(grid);
    const ask = async (sx: number, sy: number, gx: number, gy: number, options = {}) => {
      const [a, b] = [await svc.findPath(sx, sy, gx, gy, options), finder.findPath(sx, sy, gx, gy, options)];
      assert.equal(a.status, b.status);
      assert.equal(a.cost, b.cost);
      assert.deepEqual([...a.cells], [...b.cells]);
      assert.deepEqual(a.layers === null ? null : [...a.layers], b.layers === null ? null : [...b.layers]);
      return a;
    };
    assert.equal((await ask(0, 1, 8, 1)).status, 'no-path');
    const up = await ask(0, 1, 6, 1, { goalLayer: 1 });
    assert.deepEqual([...up.layers!], [0, 0, 0, 1, 1, 1, 1, 1]);
    // Added after the workers started: the way down on the far side, then a teleporter.
    const down = grid.addLink({ from: { x: 6, y: 1, layer: 1 }, to: { x: 6, y: 1 }, cost: 2 });
    assert.equal((await ask(0, 1, 8, 1)).status, 'found');
    const tp = grid.addLink({ from: { x: 0, y: 0 }, to: { x: 8, y: 0 }, cost: 0.5 });
    assert.equal((await ask(0, 0, 8, 0)).cost, 0.5);
    grid.setLinkEnabled(tp, false);
    grid.removeLink(down);
    assert.equal((await ask(0, 0, 8, 0)).status, 'no-path');
  } finally {
    await svc.close();
  }
});

test('the binary grid format keeps links (new ids, in order) and names a bad one', () => {
  const grid = new NavGrid(5, 4, { layers: 2 });
  grid.addLink({ from: { x: 0, y: 0 }, to: { x: 4, y: 3, layer: 1 }, cost: 2.5, bidirectional: false });
  const gone = grid.addLink({ from: { x: 1, y: 0 }, to: { x: 1, y: 1 }, cost: 1 });
  grid.addLink({ from: { x: 2, y: 2, layer: 1 }, to: { x: 3, y: 2, layer: 1 }, cost: 0, enabled: false });
  grid.removeLink(gone);
  const copy = parseBinaryGrid(formatBinaryGrid(grid)).grid;
  const strip = (g: NavGrid) => g.links().map(({ id: _, ...k }) => k);
  assert.deepEqual(strip(copy), strip(grid));
  assert.equal(findPath(copy, 0, 0, 4, 3, { goalLayer: 1 }).cost, 2.5);
  // A link off the grid in a hand-edited header.
  const bytes = new Uint8Array(formatBinaryGrid(grid));
  const text = new TextDecoder().decode(bytes);
  const at = text.indexOf('"x":4,"y":3');
  assert.ok(at > 0);
  bytes.set(new TextEncoder().encode('"x":9'), at);
  assert.throws(() => parseBinaryGrid(bytes.buffer, { file: 'edited.tnav' }), (e: unknown) => e instanceof TilenavError && e.element === 'header.links[0]' && e.file === 'edited.tnav');
});

test('agents planning through the path service take stairs between layers too', async () => {
  const grid = new NavGrid(9, 3, { layers: ['Ground', 'Upstairs'] });
  grid.fillRect(4, 0, 1, 3, { walkable: false }, 0);
  grid.addLink({ from: { x: 2, y: 1 }, to: { x: 2, y: 1, layer: 1 }, cost: 1 });
  grid.addLink({ from: { x: 6, y: 1, layer: 1 }, to: { x: 6, y: 1 }, cost: 1 });
  const service = new PathService(grid, { factory: inProcess(), workers: 1, share: 'never' });
  const sys = new NavigationSystem(grid, { service });
  try {
    const id = sys.addAgent({ x: 0, y: 1 });
    let arrived = false;
    sys.moveTo(id, 8, 1, { onArrived: () => (arrived = true) });
    const seen: number[] = [];
    for (let s = 0; s < 3000 && !arrived; s++) {
      sys.step();
      if (seen[seen.length - 1] !== sys.layers[id]) seen.push(sys.layers[id]);
      assert.ok(grid.isWalkable(Math.floor(sys.x[id] + 0.5), Math.floor(sys.y[id] + 0.5), sys.layers[id]), 'in a wall');
      // The answers come back between steps.
      await new Promise((r) => setImmediate(r));
    }
    assert.ok(arrived, 'did not arrive');
    assert.deepEqual(seen, [0, 1, 0]);
    assert.ok(Math.hypot(sys.x[id] - 8, sys.y[id] - 1) < 0.5);
  } finally {
    sys.dispose();
    await service.close();
  }
});
