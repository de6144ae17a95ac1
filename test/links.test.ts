import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, Pathfinder, TilenavError, MOVEMENT_NAMES, findPath, type MovementName, type NavLink, type PathResult } from '../src/index.js';
import { ReachabilityIndex } from '../src/query/index.js';
import { gridArb, gridFor, applyChange } from './grids.js';
import { refNeighbours } from './reference.js';

/**
 * The reference Dijkstra extended with links, written from their definition: nodes are (layer,
 * cell), node id `layer * size + cell`; a step is a move of the movement model on one layer, at its
 * length times the cost of the cell entered; an enabled link whose two cells are walkable is an
 * edge from `from` to `to` (and back when two-way) at the link's own cost.
 */
function refLinked(grid: NavGrid, m: MovementName, layer: number, source: number): Float64Array {
  const n = grid.size;
  const L = grid.layers.length;
  const dist = new Float64Array(n * L).fill(Infinity);
  const done = new Uint8Array(n * L);
  const walk = (l: number, c: number) => grid.layers[l].walkable[c] === 1;
  const edges = new Map<number, [number, number][]>();
  for (const k of grid.links()) {
    if (!k.enabled) continue;
    const a = k.from.layer * n + k.from.y * grid.width + k.from.x;
    const b = k.to.layer * n + k.to.y * grid.width + k.to.x;
    const add = (u: number, v: number) => (edges.get(u) ?? edges.set(u, []).get(u)!).push([v, k.cost]);
    add(a, b);
    if (k.bidirectional) add(b, a);
  }
  if (walk(layer, source)) dist[layer * n + source] = 0;
  for (;;) {
    let best = -1;
    for (let i = 0; i < n * L; i++) if (!done[i] && dist[i] < Infinity && (best < 0 || dist[i] < dist[best])) best = i;
    if (best < 0) break;
    done[best] = 1;
    const l = Math.floor(best / n);
    const c = best - l * n;
    const x = c % grid.width;
    const y = (c - x) / grid.width;
    for (const [nx, ny, len] of refNeighbours(grid, l, m, x, y)) {
      const j = ny * grid.width + nx;
      const d = dist[best] + len * grid.layers[l].cost[j];
      if (d < dist[l * n + j]) dist[l * n + j] = d;
    }
    for (const [v, cost] of edges.get(best) ?? []) {
      if (!walk(Math.floor(v / n), v % n)) continue;
      if (dist[best] + cost < dist[v]) dist[v] = dist[best] + cost;
    }
  }
  return dist;
}

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
      fc.constantFrom<MovementName>('octile', 'octile', 'cardinal', 'octile-always', 'hex', 'hex-odd-r', 'staggered-odd-r', 'iso'),
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
