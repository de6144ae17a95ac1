/**
 * One table of small hand-drawn maps, run through every search algorithm and every movement
 * model. Each answer is checked against the reference Dijkstra (test/reference.ts); a few costs
 * are also written out by hand, which checks the reference itself. Where an algorithm cannot
 * search a model or layer it must throw a TilenavError, and the table says so.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findPath, checkPath, MOVEMENT_NAMES, TilenavError, FLAG_NO_EXIT_WEST, FLAG_NO_EXIT_NORTH } from '../src/index.js';
import type { MovementName, NavGrid, SearchAlgorithm } from '../src/index.js';
import { asciiGrid, gridFor } from './grids.js';
import { refDistances } from './reference.js';

const SQ2 = Math.SQRT2;

interface Scenario {
  name: string;
  /** `.` floor, `@` wall; rows from the top. */
  map: string[];
  from: [number, number];
  to: [number, number];
  /** Rectangles [x, y, w, h, cost] painted over the floor (cost 1 elsewhere). */
  terrain?: [number, number, number, number, number][];
  /** One-way cells [x, y, FLAG_NO_EXIT_* bits]. */
  oneWay?: [number, number, number][];
  /** Costs worked out by hand (Infinity: no path); every other model's comes from the reference. */
  hand?: Partial<Record<MovementName, number>>;
}

const SCENARIOS: Scenario[] = [
  {
    name: 'open room, 7 x 3',
    map: ['.......', '.......', '.......'],
    from: [0, 0],
    to: [6, 2],
    // Two diagonal steps, then four straight ones; cardinal walks 6 + 2; iso has no diagonal either.
    hand: { octile: 4 + 2 * SQ2, 'octile-one-obstacle': 4 + 2 * SQ2, 'octile-always': 4 + 2 * SQ2, cardinal: 8, iso: 8 },
  },
  {
    name: 'start is the goal',
    map: ['...', '.@.'],
    from: [2, 1],
    to: [2, 1],
    hand: { octile: 0, cardinal: 0, 'hex-odd-r': 0, 'staggered-even-q': 0 },
  },
  {
    name: 'wall with a gap at the bottom, 6 x 4',
    map: ['..@...', '..@...', '..@...', '......'],
    from: [0, 0],
    to: [5, 0],
    // Every path crosses column 2 at (2, 3). Cardinal: down 3, across 5, up 3. Octile may not cut
    // the wall's foot (2, 2): (0,0)-(1,3) is 1 diagonal + 2 straight, then 3 straight to (3,3),
    // then 1 + 2 diagonals up to (5,0). Cutting one corner, (0,0)-(2,3) is 1 + 2 diagonals and
    // (2,3)-(5,0) three diagonals.
    hand: { cardinal: 11, octile: 5 + 3 * SQ2, 'octile-one-obstacle': 1 + 5 * SQ2, 'octile-always': 1 + 5 * SQ2 },
  },
  {
    name: 'diagonal squeeze between two walls',
    map: ['.@', '@.'],
    from: [0, 0],
    to: [1, 1],
    // Only a model that ignores corners squeezes through.
    hand: { octile: Infinity, 'octile-one-obstacle': Infinity, 'octile-always': SQ2, cardinal: Infinity, iso: Infinity },
  },
  {
    name: 'diagonal past one wall',
    map: ['.@', '..'],
    from: [0, 0],
    to: [1, 1],
    hand: { octile: 2, 'octile-one-obstacle': SQ2, 'octile-always': SQ2, cardinal: 2 },
  },
  {
    name: 'sealed room: no path',
    map: ['..@..', '..@..', '..@..'],
    from: [0, 1],
    to: [4, 1],
    hand: { octile: Infinity, cardinal: Infinity, 'octile-always': Infinity, hex: Infinity },
  },
  {
    name: 'winding corridor, 9 x 5',
    map: ['.@.......', '.@.@@@@@.', '.@.@...@.', '...@.@...', '@@@@.@@@.'],
    from: [0, 0],
    to: [4, 4],
  },
  {
    name: 'costly band with a cheap road below (costs 9 and 0.5)',
    map: ['.....', '.....', '.....'],
    from: [0, 0],
    to: [4, 0],
    terrain: [
      [2, 0, 1, 2, 9],
      [0, 2, 5, 1, 0.5],
    ],
    // Cardinal: down 1 (1), down to the road (0.5), along it 4 x 0.5, up 1 (1), up 1 (1) = 5.5.
    // Octile: (0,0)-(1,1) diagonal (1 x sqrt 2), (1,1)-(2,2) (0.5 x sqrt 2), (2,2)-(3,1)
    // (1 x sqrt 2), (3,1)-(4,0) (1 x sqrt 2) = 3.5 sqrt 2.
    hand: { cardinal: 5.5, octile: 3.5 * SQ2 },
  },
  {
    name: 'uniform cost 2 everywhere, 5 x 4',
    map: ['.....', '.@@..', '.....', '.....'],
    from: [0, 0],
    to: [4, 3],
    terrain: [[0, 0, 5, 4, 2]],
    hand: { cardinal: 14 },
  },
  {
    name: 'one-way cell lets walkers east but not west (forward)',
    map: ['.....'],
    from: [0, 0],
    to: [4, 0],
    oneWay: [[2, 0, FLAG_NO_EXIT_WEST]],
    hand: { cardinal: 4, octile: 4 },
  },
  {
    name: 'one-way cell lets walkers east but not west (back, blocked)',
    map: ['.....'],
    from: [4, 0],
    to: [0, 0],
    oneWay: [[2, 0, FLAG_NO_EXIT_WEST]],
    hand: { cardinal: Infinity, octile: Infinity },
  },
  {
    name: 'a one-way cell forces a detour through the lower row',
    map: ['......', '......'],
    from: [5, 0],
    to: [0, 0],
    oneWay: [
      [3, 0, FLAG_NO_EXIT_WEST],
      [1, 1, FLAG_NO_EXIT_NORTH],
    ],
    // Cardinal: 5 west + down and up once (the climb back cannot start from (1,1)). Octile: a
    // diagonal down past (3,0) (from (4,0) or (5,0)), along row 1, a diagonal up from (2,1).
    hand: { cardinal: 7, octile: 3 + 2 * SQ2 },
  },
];

const ALGORITHMS: SearchAlgorithm[] = ['astar', 'jps', 'jps+', 'hpa', 'auto'];

function build(s: Scenario): NavGrid {
  const grid = asciiGrid(s.map);
  for (const [x, y, w, h, cost] of s.terrain ?? []) grid.fillRect(x, y, w, h, { cost });
  for (const [x, y, flags] of s.oneWay ?? []) grid.setFlags(x, y, flags);
  return grid;
}

/** Why `algorithm` cannot search this model and layer (README's table), or null when it can. */
function unsupported(algorithm: SearchAlgorithm, movement: MovementName, grid: NavGrid): string | null {
  const L = grid.layers[0];
  let uniform = true;
  let first = -1;
  let oneWay = false;
  for (let i = 0; i < grid.size; i++) {
    if (L.flags[i] !== 0) oneWay = true;
    if (L.walkable[i] !== 1) continue;
    if (first < 0) first = i;
    else if (L.cost[i] !== L.cost[first]) uniform = false;
  }
  const squareModel = movement === 'octile' || movement === 'cardinal';
  if (algorithm === 'jps' || algorithm === 'jps+') {
    if (algorithm === 'jps+' && movement !== 'octile') return 'jps+ needs octile';
    if (!squareModel) return 'jps needs octile or cardinal';
    if (algorithm === 'jps+' && !uniform) return 'jps+ needs one cost';
    if (oneWay) return 'jps refuses one-way flags';
  }
  if (algorithm === 'hpa') {
    if (!squareModel) return 'hpa needs octile or cardinal';
    if (oneWay) return 'hpa refuses one-way flags';
  }
  return null;
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

test('scenario table: hand-written costs agree with the reference Dijkstra', () => {
  let checked = 0;
  for (const s of SCENARIOS) {
    const grid = build(s);
    const start = s.from[1] * grid.width + s.from[0];
    const goal = s.to[1] * grid.width + s.to[0];
    for (const [movement, want] of Object.entries(s.hand ?? {}) as [MovementName, number][]) {
      const ref = refDistances(grid, 0, movement, [start])[goal];
      assert.ok(ref === want || close(ref, want), `${s.name}, ${movement}: by hand ${want}, reference ${ref}`);
      checked++;
    }
  }
  assert.ok(checked >= 30, `${checked} hand-written costs`);
});

for (const s of SCENARIOS) {
  for (const algorithm of ALGORITHMS) {
    test(`scenario "${s.name}": ${algorithm}, every movement model`, () => {
      const grid = build(s);
      assert.deepEqual([grid.width, grid.height], [s.map[0].length, s.map.length], 'the map as drawn');
      const start = s.from[1] * grid.width + s.from[0];
      const goal = s.to[1] * grid.width + s.to[0];
      for (const movement of MOVEMENT_NAMES) {
        const label = `${s.name}, ${algorithm}, ${movement}`;
        // The map's cells as the model steps on them: hexagons for hex models, diamonds for staggered.
        const cells = gridFor(grid, movement);
        const call = () => findPath(cells, s.from[0], s.from[1], s.to[0], s.to[1], { algorithm, movement });
        const why = unsupported(algorithm, movement, grid);
        if (why !== null) {
          // findPath answers a query whose start is its goal before it looks at the algorithm, so
          // such a query does not throw; only queries that search are held to the refusal.
          if (start !== goal) assert.throws(call, TilenavError, `${label}: expected a TilenavError (${why})`);
          continue;
        }
        const want = s.hand?.[movement] ?? refDistances(grid, 0, movement, [start])[goal];
        const r = call();
        if (want === Infinity) {
          assert.equal(r.status, 'no-path', label);
          assert.equal(r.cells.length, 0, label);
          continue;
        }
        assert.equal(r.status, 'found', label);
        assert.ok(close(r.cost, want), `${label}: cost ${r.cost}, expected ${want}`);
        assert.equal(r.cells[0], start, label);
        assert.equal(r.cells[r.cells.length - 1], goal, label);
        const c = checkPath(cells, r.cells, { movement });
        assert.ok(c.valid, `${label}: ${c.problem}`);
        assert.ok(close(c.cost, r.cost), `${label}: the path costs ${c.cost}, reported ${r.cost}`);
      }
    });
  }
}
