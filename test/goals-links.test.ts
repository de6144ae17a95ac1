/**
 * The nearest of several goals on a grid with links (stairs, teleporters) and goals on other
 * layers: one A* over (layer, cell) nodes, exact against the reference Dijkstra extended with
 * links, through tile changes and links switched on and off; a goal list with layers, and
 * `goalLayer` for the entries without one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, Pathfinder, TilenavError, checkPath, type MovementName } from '../src/index.js';
import { gridArb, gridFor, applyChange } from './grids.js';
import { refLinked } from './reference.js';

const linkArb = fc.record({
  from: fc.nat(),
  to: fc.nat(),
  fromLayer: fc.nat(1),
  toLayer: fc.nat(1),
  cost: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 1, max: 20, noNaN: true })),
  bidirectional: fc.boolean(),
  enabled: fc.constantFrom(true, true, false),
});

const goalArb = fc.record({ cell: fc.nat(), layer: fc.option(fc.nat(1), { nil: undefined }) });

test('property: several goals across links and layers reach the cheapest goal at the reference cost, through tile changes and links toggled', () => {
  fc.assert(
    fc.property(
      gridArb({ width: [2, 10], height: [2, 10], layers: [1, 2], costs: ['uniform', 'mixed'], oneWay: true }),
      fc.constantFrom<MovementName>('octile', 'cardinal', 'chebyshev', 'hex', 'octile-always'),
      fc.array(linkArb, { maxLength: 6 }),
      fc.array(goalArb, { minLength: 1, maxLength: 20 }),
      fc.array(fc.tuple(fc.nat(), fc.nat(4), fc.nat(2), fc.boolean()), { maxLength: 3 }),
      fc.constantFrom<'auto' | 'astar'>('auto', 'astar'),
      ({ grid: drawn, rnd }, movement, links, goalDraws, changes, algorithm) => {
        const grid = gridFor(drawn, movement);
        const L = grid.layers.length;
        const ids: number[] = [];
        for (const d of links) {
          const a = d.from % grid.size;
          const b = d.to % grid.size;
          const la = d.fromLayer % L;
          const lb = d.toLayer % L;
          if (a === b && la === lb) continue;
          ids.push(grid.addLink({ from: { x: grid.xOf(a), y: grid.yOf(a), layer: la }, to: { x: grid.xOf(b), y: grid.yOf(b), layer: lb }, cost: d.cost, bidirectional: d.bidirectional, enabled: d.enabled }));
        }
        const finder = new Pathfinder(grid);
        const check = () => {
          for (let q = 0; q < 3; q++) {
            const s = Math.floor(rnd() * grid.size);
            const layer = Math.floor(rnd() * L);
            const goalLayer = Math.floor(rnd() * L);
            const first = Math.floor(rnd() * grid.size);
            const goals = goalDraws.map((g) => {
              const c = g.cell % grid.size;
              return g.layer === undefined ? ([grid.xOf(c), grid.yOf(c)] as const) : ([grid.xOf(c), grid.yOf(c), g.layer % L] as const);
            });
            const all: [number, number][] = [[goalLayer, first], ...goalDraws.map((g): [number, number] => [g.layer === undefined ? goalLayer : g.layer % L, g.cell % grid.size])];
            const r = finder.findPath(grid.xOf(s), grid.yOf(s), grid.xOf(first), grid.yOf(first), { layer, goalLayer, movement, algorithm, goals });
            const what = `${movement} (${layer}, ${s}) -> ${JSON.stringify(all)} links ${JSON.stringify(grid.links())}`;
            if (grid.layers[layer].walkable[s] !== 1) {
              assert.equal(r.status, 'invalid-start', what);
              continue;
            }
            const usable = all.filter(([l, c]) => grid.layers[l].walkable[c] === 1);
            if (usable.length === 0) {
              assert.equal(r.status, 'invalid-goal', what);
              continue;
            }
            const ref = refLinked(grid, movement, layer, s);
            const best = Math.min(...usable.map(([l, c]) => ref[l * grid.size + c]));
            if (best === Infinity) {
              assert.equal(r.status, 'no-path', what);
              continue;
            }
            assert.equal(r.status, 'found', what);
            assert.ok(Math.abs(r.cost - best) <= 1e-6 * Math.max(1, best), `cost ${r.cost}, reference ${best}: ${what}`);
            const endLayer = r.layers === null ? layer : r.layers[r.layers.length - 1];
            assert.ok(
              usable.some(([l, c]) => l === endLayer && c === r.reached),
              `reached (${endLayer}, ${r.reached}) is a goal: ${what}`,
            );
            assert.ok(Math.abs(ref[endLayer * grid.size + r.reached] - best) <= 1e-6 * Math.max(1, best), 'the goal reached is a cheapest one');
            assert.equal(r.cells[0], s);
            const c = checkPath(grid, r.cells, { layer, movement, layers: r.layers });
            assert.ok(c.valid && Math.abs(c.cost - r.cost) <= 1e-6 * Math.max(1, best), `checkPath: ${c.problem ?? c.cost} vs ${r.cost}: ${what}`);
          }
        };
        check();
        for (const [at, kind, size, toggle] of changes) {
          if (toggle && ids.length > 0) {
            const id = ids[at % ids.length];
            grid.setLinkEnabled(id, !grid.links().find((k) => k.id === id)!.enabled);
          } else applyChange(grid, at, kind, size);
          check();
        }
      },
    ),
    { numRuns: 200 },
  );
});

test('the nearest exit upstairs: goals on another layer are reached by the stairs; goals on a layer no link reaches are left out', () => {
  const grid = new NavGrid(12, 3, { layers: ['Ground', 'Upstairs', 'Cellar'] });
  grid.addLink({ from: { x: 1, y: 1 }, to: { x: 1, y: 1, layer: 'Upstairs' }, cost: 2 });
  const finder = new Pathfinder(grid);
  // Two exits upstairs, one on the ground far away, one in a cellar no link reaches.
  const r = finder.findPath(0, 1, 11, 1, { goals: [[3, 1, 'Upstairs'], [9, 1, 1], [0, 0, 'Cellar']] });
  assert.equal(r.status, 'found');
  assert.equal(r.reached, 1 * 12 + 3);
  assert.deepEqual([...r.layers!], [0, 0, 1, 1, 1]);
  assert.ok(Math.abs(r.cost - (1 + 2 + 2)) < 1e-9);
  // goalLayer applies to (gx, gy) and to the entries without a layer.
  const up = finder.findPath(0, 1, 8, 1, { goalLayer: 'Upstairs', goals: [[10, 1]] });
  assert.equal(up.reached, 1 * 12 + 8);
  assert.equal(up.layers![up.layers!.length - 1], 1);
  // Only the cellar: no link leads there.
  assert.equal(finder.findPath(0, 1, 0, 0, { goalLayer: 'Cellar', goals: [[5, 1]] }).status, 'no-path');
  // Without links, goals on another layer are left out and the rest searched on the layer.
  const flat = new NavGrid(6, 1, { layers: 2 });
  const g = new Pathfinder(flat).findPath(0, 0, 5, 0, { goals: [[1, 0, 1], [3, 0]] });
  assert.equal(g.reached, 3);
  assert.equal(g.layers, null);
  assert.throws(
    () => finder.findPath(0, 1, 1, 1, { goals: [[2, 1, 'Attic']] }),
    (e: unknown) => e instanceof TilenavError && e.element === 'goals' && /entry 0/.test(e.message),
  );
});
