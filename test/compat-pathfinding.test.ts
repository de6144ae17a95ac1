/**
 * tilenav/compat/pathfinding against PathFinding.js 0.4 itself: each test below, written from
 * PathFinding.js's README and user guide, runs once on the real package and once on the compat
 * entry with the same code. Then fast-check compares the two on random grids (the compat finders
 * cost the same as PathFinding.js's A* and Dijkstra, never more than its other finders), and the
 * compat-only tests cover what the original cannot do (one grid for many searches) and the
 * differences the compat entry documents.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import * as compat from '../src/compat/pathfinding.js';
import PFDefault from '../src/compat/pathfinding.js';
import { TilenavError } from '../src/index.js';
import { mulberry32 } from '../src/query/index.js';

// The real package has no types; it is driven through the compat entry's.
const real = createRequire(import.meta.url)('pathfinding') as typeof compat;
const LIBS: [string, typeof compat][] = [
  ['PathFinding.js', real],
  ['tilenav/compat/pathfinding', compat],
];

const SQ2 = Math.SQRT2;
const { Always, Never, IfAtMostOneObstacle, OnlyWhenNoObstacles } = compat.DiagonalMovement;
const RULES = [Always, Never, IfAtMostOneObstacle, OnlyWhenNoObstacles] as const;
type Rule = (typeof RULES)[number];
const RULE_NAME: Record<Rule, string> = { 1: 'Always', 2: 'Never', 3: 'IfAtMostOneObstacle', 4: 'OnlyWhenNoObstacles' };

/** `.` walkable, `@` blocked, rows from the top, as a 0/1 matrix. */
const matrixOf = (rows: string[]): number[][] => rows.map((r) => [...r].map((c) => (c === '@' ? 1 : 0)));

/** Euclidean length of a path of [x, y] points, computed here (not by either library). */
function lengthOf(path: number[][]): number {
  let sum = 0;
  for (let k = 1; k < path.length; k++) sum += Math.hypot(path[k][0] - path[k - 1][0], path[k][1] - path[k - 1][1]);
  return sum;
}

/** Why `path` is not a legal path from s to e on `matrix` under `rule`, or null when it is. */
function illegal(path: number[][], matrix: number[][], rule: Rule, s: [number, number], e: [number, number]): string | null {
  const free = (x: number, y: number) => y >= 0 && y < matrix.length && x >= 0 && x < matrix[0].length && matrix[y][x] === 0;
  if (path.length === 0) return 'empty';
  if (path[0][0] !== s[0] || path[0][1] !== s[1]) return `starts at ${path[0]}`;
  const last = path[path.length - 1];
  if (last[0] !== e[0] || last[1] !== e[1]) return `ends at ${last}`;
  for (let k = 1; k < path.length; k++) {
    const [x0, y0] = path[k - 1];
    const [x1, y1] = path[k];
    const dx = x1 - x0;
    const dy = y1 - y0;
    if (Math.abs(dx) > 1 || Math.abs(dy) > 1 || (dx === 0 && dy === 0)) return `step ${k} jumps`;
    if (!free(x1, y1)) return `step ${k} enters a wall`;
    if (dx !== 0 && dy !== 0) {
      const blocked = (free(x0 + dx, y0) ? 0 : 1) + (free(x0, y0 + dy) ? 0 : 1);
      const allowed = rule === Always ? 2 : rule === IfAtMostOneObstacle ? 1 : rule === OnlyWhenNoObstacles ? 0 : -1;
      if (blocked > allowed) return `step ${k} is a diagonal ${RULE_NAME[rule]} forbids`;
    }
  }
  return null;
}

interface Scenario {
  name: string;
  map: string[];
  from: [number, number];
  to: [number, number];
  /** Shortest length under each rule, worked out by hand; Infinity: no path. */
  length: Record<Rule, number>;
}

const SCENARIOS: Scenario[] = [
  {
    name: 'open room, 7 x 3',
    map: ['.......', '.......', '.......'],
    from: [0, 0],
    to: [6, 2],
    // Two diagonals then four straight steps; four neighbours walk 6 + 2.
    length: { 1: 4 + 2 * SQ2, 2: 8, 3: 4 + 2 * SQ2, 4: 4 + 2 * SQ2 },
  },
  {
    name: 'wall with a gap at the bottom, 6 x 4',
    map: ['..@...', '..@...', '..@...', '......'],
    from: [0, 0],
    to: [5, 0],
    // Through (2, 3). No corner cutting may not pass the wall's foot (2, 2) diagonally: 1 diagonal
    // and 2 straight down to (1, 3), 2 straight to (3, 3), 2 diagonals and 1 straight up. Passing
    // one blocked corner: 3 diagonals down to (2, 3)... after 1 straight, then 3 diagonals up.
    length: { 1: 1 + 5 * SQ2, 2: 11, 3: 1 + 5 * SQ2, 4: 5 + 3 * SQ2 },
  },
  {
    name: 'the README matrix, (1, 2) to (4, 2)',
    map: ['...@.', '@...@', '..@..'],
    from: [1, 2],
    to: [4, 2],
    // Round (2, 2): with one blocked corner allowed, (2, 1) and (3, 2) by diagonals; with none,
    // every diagonal here passes a wall, so the four-neighbour path of 5.
    length: { 1: 1 + 2 * SQ2, 2: 5, 3: 1 + 2 * SQ2, 4: 5 },
  },
  {
    name: 'diagonal squeeze between two walls',
    map: ['.@', '@.'],
    from: [0, 0],
    to: [1, 1],
    length: { 1: SQ2, 2: Infinity, 3: Infinity, 4: Infinity },
  },
  {
    name: 'a wall across the room',
    map: ['..@..', '..@..', '..@..'],
    from: [0, 0],
    to: [4, 0],
    length: { 1: Infinity, 2: Infinity, 3: Infinity, 4: Infinity },
  },
];

/** The finders PathFinding.js's README marks as finding a shortest path (with four neighbours, where they all do). */
const SHORTEST: [string, (rule: Rule, PF: typeof compat) => { findPath(a: number, b: number, c: number, d: number, g: compat.Grid): number[][] }][] = [
  ['AStarFinder', (rule, PF) => new PF.AStarFinder({ diagonalMovement: rule })],
  ['BreadthFirstFinder', (rule, PF) => new PF.BreadthFirstFinder({ diagonalMovement: rule })],
  ['DijkstraFinder', (rule, PF) => new PF.DijkstraFinder({ diagonalMovement: rule })],
  ['IDAStarFinder', (rule, PF) => new PF.IDAStarFinder({ diagonalMovement: rule })],
  ['JumpPointFinder', (rule, PF) => PF.JumpPointFinder({ diagonalMovement: rule })],
  ['BiBreadthFirstFinder', (rule, PF) => new PF.BiBreadthFirstFinder({ diagonalMovement: rule })],
  ['BiDijkstraFinder', (rule, PF) => new PF.BiDijkstraFinder({ diagonalMovement: rule })],
];
/** The others: PathFinding.js promises a path, not a shortest one. */
const OTHERS: typeof SHORTEST = [
  ['BestFirstFinder', (rule, PF) => new PF.BestFirstFinder({ diagonalMovement: rule })],
  ['BiAStarFinder', (rule, PF) => new PF.BiAStarFinder({ diagonalMovement: rule })],
  ['BiBestFirstFinder', (rule, PF) => new PF.BiBestFirstFinder({ diagonalMovement: rule })],
];

for (const [name, PF] of LIBS) {
  test(`${name}: new Grid(width, height) is walkable everywhere; setWalkableAt blocks a cell; outside is not walkable`, () => {
    const grid = new PF.Grid(5, 3);
    assert.equal(grid.width, 5);
    assert.equal(grid.height, 3);
    for (let y = 0; y < 3; y++) for (let x = 0; x < 5; x++) assert.equal(grid.isWalkableAt(x, y), true);
    grid.setWalkableAt(0, 1, false);
    assert.equal(grid.isWalkableAt(0, 1), false);
    assert.equal(grid.isWalkableAt(1, 1), true);
    assert.equal(grid.isWalkableAt(-1, 0), false);
    assert.equal(grid.isWalkableAt(5, 0), false);
    assert.equal(grid.isWalkableAt(0, 3), false);
  });

  test(`${name}: new Grid(matrix) reads 0 as walkable and 1 as blocked, and A* finds the README's path`, () => {
    const matrix = matrixOf(['...@.', '@...@', '..@..']);
    for (const grid of [new PF.Grid(matrix), new PF.Grid(5, 3, matrix)]) {
      assert.equal(grid.width, 5);
      assert.equal(grid.height, 3);
      assert.equal(grid.isWalkableAt(3, 0), false);
      assert.equal(grid.isWalkableAt(0, 1), false);
      assert.equal(grid.isWalkableAt(1, 1), true);
      // The only shortest four-neighbour path round (2, 2).
      assert.deepEqual(new PF.AStarFinder().findPath(1, 2, 4, 2, grid), [[1, 2], [1, 1], [2, 1], [3, 1], [3, 2], [4, 2]]);
    }
  });

  test(`${name}: the finders that promise a shortest path find one of the worked-out length (four neighbours)`, () => {
    for (const s of SCENARIOS) {
      const grid = new PF.Grid(matrixOf(s.map));
      for (const [finderName, make] of SHORTEST) {
        const expected = s.length[Never];
        // PathFinding.js's IDA* never ends when there is no path: it deepens forever.
        if (expected === Infinity && finderName === 'IDAStarFinder') continue;
        const path = make(Never, PF).findPath(s.from[0], s.from[1], s.to[0], s.to[1], grid.clone());
        const where = `${s.name}, ${finderName}`;
        if (expected === Infinity) {
          assert.deepEqual(path, [], where);
          continue;
        }
        assert.equal(illegal(path, matrixOf(s.map), Never, s.from, s.to), null, where);
        assert.equal(path.length, expected + 1, where);
      }
    }
  });

  test(`${name}: A* and Dijkstra find the worked-out length under each diagonal rule`, () => {
    for (const s of SCENARIOS) {
      const grid = new PF.Grid(matrixOf(s.map));
      for (const rule of RULES) {
        for (const finder of [new PF.AStarFinder({ diagonalMovement: rule }), new PF.DijkstraFinder({ diagonalMovement: rule })]) {
          const path = finder.findPath(s.from[0], s.from[1], s.to[0], s.to[1], grid.clone());
          const where = `${s.name}, ${finder.constructor.name} ${RULE_NAME[rule]}`;
          if (s.length[rule] === Infinity) {
            assert.deepEqual(path, [], where);
            continue;
          }
          assert.equal(illegal(path, matrixOf(s.map), rule, s.from, s.to), null, where);
          assert.ok(Math.abs(lengthOf(path) - s.length[rule]) < 1e-9, `${where}: ${lengthOf(path)}`);
        }
      }
    }
  });

  test(`${name}: every finder returns a legal path from start to end, or [] where none exists`, () => {
    for (const s of SCENARIOS) {
      const grid = new PF.Grid(matrixOf(s.map));
      for (const [finderName, make] of [...SHORTEST, ...OTHERS]) {
        for (const rule of RULES) {
          if (s.length[rule] === Infinity && finderName === 'IDAStarFinder') continue;
          const path = make(rule, PF).findPath(s.from[0], s.from[1], s.to[0], s.to[1], grid.clone());
          const where = `${s.name}, ${finderName} ${RULE_NAME[rule]}`;
          if (s.length[rule] === Infinity) assert.deepEqual(path, [], where);
          else assert.equal(illegal(path, matrixOf(s.map), rule, s.from, s.to), null, where);
        }
      }
    }
  });

  test(`${name}: the user guide's four diagonal rules on a free corner, one blocked side (either one) and two`, () => {
    // From (0, 1) to (1, 0); the side cells are (0, 0) and (1, 1).
    const maps: Record<string, string[]> = { A: ['..', '..'], B: ['@.', '..'], C: ['..', '.@'], D: ['@.', '.@'] };
    const diagonalIn: Record<Rule, string> = { [Always]: 'ABCD', [Never]: '', [IfAtMostOneObstacle]: 'ABC', [OnlyWhenNoObstacles]: 'A' };
    for (const rule of RULES) {
      for (const [label, map] of Object.entries(maps)) {
        const path = new PF.AStarFinder({ diagonalMovement: rule }).findPath(0, 1, 1, 0, new PF.Grid(matrixOf(map)));
        const where = `map ${label}, ${RULE_NAME[rule]}`;
        if (diagonalIn[rule].includes(label)) assert.deepEqual(path, [[0, 1], [1, 0]], where);
        else if (label === 'D') assert.deepEqual(path, [], where);
        else assert.equal(path.length, 3, where);
      }
    }
  });

  test(`${name}: allowDiagonal and dontCrossCorners choose the rules diagonalMovement names`, () => {
    assert.equal(new PF.AStarFinder().diagonalMovement, Never);
    assert.equal(new PF.AStarFinder({ allowDiagonal: true }).diagonalMovement, IfAtMostOneObstacle);
    assert.equal(new PF.AStarFinder({ allowDiagonal: true, dontCrossCorners: true }).diagonalMovement, OnlyWhenNoObstacles);
    assert.equal(new PF.BreadthFirstFinder({ allowDiagonal: true }).diagonalMovement, IfAtMostOneObstacle);
    assert.equal(new PF.AStarFinder({ allowDiagonal: true, diagonalMovement: Always }).diagonalMovement, Always);
    // Map B: one blocked side; without crossing corners the path goes round.
    const grid = new PF.Grid(matrixOf(['@.', '..']));
    assert.equal(new PF.AStarFinder({ allowDiagonal: true }).findPath(0, 1, 1, 0, grid.clone()).length, 2);
    assert.equal(new PF.AStarFinder({ allowDiagonal: true, dontCrossCorners: true }).findPath(0, 1, 1, 0, grid.clone()).length, 3);
  });

  test(`${name}: start == end gives that one cell; a blocked end gives []`, () => {
    const grid = new PF.Grid(matrixOf(['...', '.@.']));
    assert.deepEqual(new PF.AStarFinder().findPath(2, 1, 2, 1, grid.clone()), [[2, 1]]);
    assert.deepEqual(new PF.AStarFinder().findPath(0, 0, 1, 1, grid.clone()), []);
  });

  test(`${name}: a search leaves a blocked start (a unit standing on its own cell)`, () => {
    const grid = new PF.Grid(matrixOf(['@..', '...']));
    const path = new PF.AStarFinder().findPath(0, 0, 2, 0, grid.clone());
    assert.equal(path.length, 3);
    assert.deepEqual(path[0], [0, 0]);
  });

  test(`${name}: clone() copies the cells; changing the clone leaves the original as it was`, () => {
    const grid = new PF.Grid(matrixOf(['...', '...']));
    const copy = grid.clone();
    assert.equal(copy.width, 3);
    assert.equal(copy.height, 2);
    copy.setWalkableAt(1, 0, false);
    assert.equal(copy.isWalkableAt(1, 0), false);
    assert.equal(grid.isWalkableAt(1, 0), true);
    copy.setWalkableAt(1, 1, false);
    assert.deepEqual(new PF.AStarFinder().findPath(0, 0, 2, 0, copy), []);
    assert.deepEqual(new PF.AStarFinder().findPath(0, 0, 2, 0, grid), [[0, 0], [1, 0], [2, 0]]);
  });

  test(`${name}: getNodeAt(x, y) is the cell; writing its walkable blocks it for the search`, () => {
    const grid = new PF.Grid(3, 2);
    const node = grid.getNodeAt(1, 0);
    assert.equal(node.x, 1);
    assert.equal(node.y, 0);
    assert.equal(node.walkable, true);
    node.walkable = false;
    assert.equal(grid.isWalkableAt(1, 0), false);
    assert.deepEqual(grid.nodes[0][1], node);
    assert.deepEqual(new PF.AStarFinder().findPath(0, 0, 2, 0, grid), [[0, 0], [0, 1], [1, 1], [2, 1], [2, 0]]);
  });

  test(`${name}: getNeighbors lists up, right, down, left, then the corners each rule allows`, () => {
    // Up (1, 0) and right (2, 1) are blocked: up-right passes two blocked sides, up-left and
    // down-right one each, down-left none.
    const grid = new PF.Grid(matrixOf(['.@.', '..@', '...']));
    const at = (rule: Rule) => grid.getNeighbors(grid.getNodeAt(1, 1), rule).map((n) => [n.x, n.y]);
    assert.deepEqual(at(Never), [[1, 2], [0, 1]]);
    assert.deepEqual(at(OnlyWhenNoObstacles), [[1, 2], [0, 1], [0, 2]]);
    assert.deepEqual(at(IfAtMostOneObstacle), [[1, 2], [0, 1], [0, 0], [2, 2], [0, 2]]);
    assert.deepEqual(at(Always), [[1, 2], [0, 1], [0, 0], [2, 0], [2, 2], [0, 2]]);
  });

  test(`${name}: the four heuristics measure dx = 3, dy = 4 as their names say`, () => {
    assert.equal(PF.Heuristic.manhattan(3, 4), 7);
    assert.equal(PF.Heuristic.euclidean(3, 4), 5);
    assert.equal(PF.Heuristic.chebyshev(3, 4), 4);
    assert.ok(Math.abs(PF.Heuristic.octile(3, 4) - (1 + 3 * SQ2)) < 1e-12);
    assert.ok(Math.abs(PF.Heuristic.octile(4, 3) - (1 + 3 * SQ2)) < 1e-12);
  });

  test(`${name}: Util.compressPath keeps the corners and Util.expandPath fills the segments back in (the README's examples)`, () => {
    assert.deepEqual(PF.Util.compressPath([[0, 1], [0, 2], [0, 3], [0, 4]]), [[0, 1], [0, 4]]);
    assert.deepEqual(PF.Util.compressPath([[0, 1], [0, 2], [0, 3], [0, 4], [1, 5], [2, 6]]), [[0, 1], [0, 4], [2, 6]]);
    assert.deepEqual(PF.Util.compressPath([]), []);
    assert.deepEqual(PF.Util.expandPath([[0, 1], [0, 4]]), [[0, 1], [0, 2], [0, 3], [0, 4]]);
    assert.deepEqual(PF.Util.expandPath([[0, 1], [0, 4], [2, 6]]), [[0, 1], [0, 2], [0, 3], [0, 4], [1, 5], [2, 6]]);
    assert.deepEqual(PF.Util.expandPath([]), []);
    assert.deepEqual(PF.Util.interpolate(0, 1, 0, 4), [[0, 1], [0, 2], [0, 3], [0, 4]]);
    // A shallow line: x advances every step, y on the middle one.
    assert.deepEqual(PF.Util.interpolate(0, 0, 4, 1), [[0, 0], [1, 0], [2, 0], [3, 1], [4, 1]]);
    const path = [[0, 0], [1, 1], [1, 2], [2, 3]];
    assert.deepEqual(PF.Util.compressPath(path), [[0, 0], [1, 1], [1, 2], [2, 3]]);
    assert.deepEqual(path, [[0, 0], [1, 1], [1, 2], [2, 3]], 'the input is not modified');
  });

  test(`${name}: Util.smoothenPath keeps both ends, drops the corners a clear line passes, and returns a new path`, () => {
    const grid = new PF.Grid(matrixOf(['.....', '.....', '..@..', '.....']));
    const open = [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0], [4, 1], [4, 2], [4, 3]];
    assert.deepEqual(PF.Util.smoothenPath(grid, open), [[0, 0], [4, 3]]);
    // Round the wall at (2, 2): the straight line from (0, 3) to (4, 0) crosses it.
    const round = [[0, 3], [1, 3], [2, 3], [3, 2], [4, 1], [4, 0]];
    const smooth = PF.Util.smoothenPath(grid, round);
    assert.deepEqual(smooth[0], [0, 3]);
    assert.deepEqual(smooth[smooth.length - 1], [4, 0]);
    assert.ok(smooth.length < round.length);
    for (let k = 1; k < smooth.length; k++) {
      for (const [x, y] of PF.Util.interpolate(smooth[k - 1][0], smooth[k - 1][1], smooth[k][0], smooth[k][1])) assert.ok(grid.isWalkableAt(x, y), `(${x}, ${y}) on segment ${k}`);
    }
    assert.equal(round.length, 6, 'the input is not modified');
  });

  test(`${name}: Util.backtrace follows parent links back to the start; Util.pathLength measures the result`, () => {
    const a = { x: 0, y: 0, parent: null };
    const b = { x: 1, y: 1, parent: a };
    const c = { x: 1, y: 2, parent: b };
    assert.deepEqual(PF.Util.backtrace(c), [[0, 0], [1, 1], [1, 2]]);
    assert.ok(Math.abs(PF.Util.pathLength([[0, 0], [1, 1], [1, 2]]) - (SQ2 + 1)) < 1e-12);
    // Meeting in the middle: the second chain runs from the meeting cell back to the end.
    const d = { x: 2, y: 2, parent: { x: 3, y: 2, parent: null } };
    assert.deepEqual(PF.Util.biBacktrace(c, d), [[0, 0], [1, 1], [1, 2], [2, 2], [3, 2]]);
  });

  test(`${name}: DiagonalMovement keeps PathFinding.js's numbers, and JumpPointFinder returns the variant for the rule`, () => {
    assert.deepEqual({ ...PF.DiagonalMovement }, { Always: 1, Never: 2, IfAtMostOneObstacle: 3, OnlyWhenNoObstacles: 4 });
    assert.equal(PF.JumpPointFinder({ diagonalMovement: Never }).constructor.name, 'JPFNeverMoveDiagonally');
    assert.equal(new PF.JumpPointFinder({ diagonalMovement: Always }).constructor.name, 'JPFAlwaysMoveDiagonally');
    assert.equal(new PF.JumpPointFinder({ diagonalMovement: OnlyWhenNoObstacles }).constructor.name, 'JPFMoveDiagonallyIfNoObstacles');
    assert.equal(new PF.JumpPointFinder().constructor.name, 'JPFMoveDiagonallyIfAtMostOneObstacle');
    // The jump point finders read only diagonalMovement: allowDiagonal: false still cuts a corner.
    const grid = new PF.Grid(matrixOf(['@.', '..']));
    assert.deepEqual(new PF.JumpPointFinder({ allowDiagonal: false }).findPath(0, 1, 1, 0, grid), [[0, 1], [1, 0]]);
  });
}

// ---- random grids --------------------------------------------------------------------------------

/** A random matrix (about `wallRate` of it walls) with free cells at the two ends. */
function randomMatrix(w: number, h: number, seed: number, wallRate: number, s: [number, number], e: [number, number]): number[][] {
  const rnd = mulberry32(seed);
  const m = Array.from({ length: h }, () => Array.from({ length: w }, () => (rnd() < wallRate ? 1 : 0)));
  m[s[1]][s[0]] = 0;
  m[e[1]][e[0]] = 0;
  return m;
}

const arbQuery = fc
  .record({ w: fc.integer({ min: 2, max: 12 }), h: fc.integer({ min: 2, max: 10 }), seed: fc.integer(), wallRate: fc.constantFrom(0.1, 0.3, 0.45), rule: fc.constantFrom(...RULES) })
  .chain((g) => fc.record({ g: fc.constant(g), s: fc.tuple(fc.nat(g.w - 1), fc.nat(g.h - 1)), e: fc.tuple(fc.nat(g.w - 1), fc.nat(g.h - 1)) }));

test('random grids: the compat finders cost exactly what PathFinding.js A* and Dijkstra cost, under every diagonal rule (fast-check)', () => {
  fc.assert(
    fc.property(arbQuery, ({ g, s, e }) => {
      const m = randomMatrix(g.w, g.h, g.seed, g.wallRate, s, e);
      const ours = new compat.AStarFinder({ diagonalMovement: g.rule }).findPath(s[0], s[1], e[0], e[1], new compat.Grid(m));
      for (const theirs of [new real.AStarFinder({ diagonalMovement: g.rule }), new real.DijkstraFinder({ diagonalMovement: g.rule })].map((f) => f.findPath(s[0], s[1], e[0], e[1], new real.Grid(m)))) {
        assert.equal(ours.length === 0, theirs.length === 0);
        assert.ok(Math.abs(lengthOf(ours) - lengthOf(theirs)) < 1e-9, `${lengthOf(ours)} vs ${lengthOf(theirs)}`);
      }
      if (ours.length > 0) assert.equal(illegal(ours, m, g.rule, s, e), null);
    }),
    { numRuns: 400, seed: 2402 },
  );
});

test("random grids: no compat finder's path is longer than PathFinding.js's from any of its finders (fast-check)", () => {
  const finders = [...SHORTEST, ...OTHERS].filter(([n]) => n !== 'IDAStarFinder');
  fc.assert(
    fc.property(arbQuery, ({ g, s, e }) => {
      const m = randomMatrix(g.w, g.h, g.seed, g.wallRate, s, e);
      const grid = new compat.Grid(m);
      const best = lengthOf(new compat.AStarFinder({ diagonalMovement: g.rule }).findPath(s[0], s[1], e[0], e[1], grid));
      for (const [name, make] of finders) {
        const ours = make(g.rule, compat).findPath(s[0], s[1], e[0], e[1], grid);
        const theirs = make(g.rule, real).findPath(s[0], s[1], e[0], e[1], new real.Grid(m));
        // From a cell to itself PathFinding.js's jump point and bidirectional finders answer
        // otherwise (a test below); the rest find a path exactly when PathFinding.js does.
        if (s[0] !== e[0] || s[1] !== e[1]) assert.equal(ours.length === 0, theirs.length === 0, name);
        assert.ok(Math.abs(lengthOf(ours) - best) < 1e-9, `${name}: ${lengthOf(ours)}, A* ${best}`);
        assert.ok(lengthOf(ours) <= lengthOf(theirs) + 1e-9, `${name}: ${lengthOf(ours)} > PathFinding.js ${lengthOf(theirs)}`);
      }
    }),
    { numRuns: 200, seed: 2403 },
  );
});

// ---- the compat entry alone ------------------------------------------------------------------------

test('tilenav/compat/pathfinding: one grid, changed between searches, answers as PathFinding.js does on a fresh grid each time (fast-check)', () => {
  // Writes of one cell, of a block (past the change list: the next search compares every cell),
  // through nodes and through clones, with starts that are sometimes blocked.
  const op = fc.oneof(
    fc.record({ kind: fc.constant('set' as const), x: fc.nat(9), y: fc.nat(7), walkable: fc.boolean() }),
    fc.record({ kind: fc.constant('node' as const), x: fc.nat(9), y: fc.nat(7), walkable: fc.boolean() }),
    fc.record({ kind: fc.constant('block' as const), x: fc.nat(9), y: fc.nat(7), walkable: fc.boolean() }),
    fc.record({ kind: fc.constant('clone' as const) }),
    fc.record({ kind: fc.constant('search' as const), sx: fc.nat(9), sy: fc.nat(7), ex: fc.nat(9), ey: fc.nat(7), rule: fc.constantFrom(...RULES) }),
  );
  fc.assert(
    fc.property(fc.integer(), fc.array(op, { maxLength: 40 }), (seed, ops) => {
      const w = 10;
      const h = 8;
      const m = randomMatrix(w, h, seed, 0.3, [0, 0], [0, 0]);
      let grid = new compat.Grid(m);
      const kept: compat.Grid[] = [grid];
      for (const o of ops) {
        if (o.kind === 'set') {
          grid.setWalkableAt(o.x, o.y, o.walkable);
          m[o.y][o.x] = o.walkable ? 0 : 1;
        } else if (o.kind === 'node') {
          grid.getNodeAt(o.x, o.y).walkable = o.walkable;
          m[o.y][o.x] = o.walkable ? 0 : 1;
        } else if (o.kind === 'block') {
          for (let y = o.y; y < h; y++) {
            for (let x = o.x; x < w; x++) {
              grid.setWalkableAt(x, y, o.walkable);
              m[y][x] = o.walkable ? 0 : 1;
            }
          }
        } else if (o.kind === 'clone') {
          // Search the old grid once more (it holds other cells now), then go on with its clone.
          const copy = grid.clone();
          new compat.AStarFinder().findPath(0, 0, w - 1, h - 1, kept[0]);
          kept.push(copy);
          grid = copy;
        } else {
          const ours = new compat.AStarFinder({ diagonalMovement: o.rule }).findPath(o.sx, o.sy, o.ex, o.ey, grid);
          const theirs = new real.AStarFinder({ diagonalMovement: o.rule }).findPath(o.sx, o.sy, o.ex, o.ey, new real.Grid(m));
          assert.equal(ours.length === 0, theirs.length === 0);
          assert.ok(Math.abs(lengthOf(ours) - lengthOf(theirs)) < 1e-9, `${lengthOf(ours)} vs ${lengthOf(theirs)}`);
          for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) assert.equal(grid.isWalkableAt(x, y), m[y][x] === 0);
        }
      }
    }),
    { numRuns: 200, seed: 2404 },
  );
});

test('tilenav/compat/pathfinding: every finder returns a shortest path under every rule, where PathFinding.js may not', () => {
  for (const s of SCENARIOS) {
    const grid = new compat.Grid(matrixOf(s.map));
    for (const [finderName, make] of [...SHORTEST, ...OTHERS]) {
      for (const rule of RULES) {
        const path = make(rule, compat).findPath(s.from[0], s.from[1], s.to[0], s.to[1], grid);
        const where = `${s.name}, ${finderName} ${RULE_NAME[rule]}`;
        if (s.length[rule] === Infinity) assert.deepEqual(path, [], where);
        else assert.ok(Math.abs(lengthOf(path) - s.length[rule]) < 1e-9, `${where}: ${lengthOf(path)}`);
      }
    }
  }
  // With diagonals, PathFinding.js's breadth-first search counts steps, so it may take any path
  // of the fewest steps: here three diagonals (3 sqrt 2) round the wall at (1, 3), where one
  // diagonal and two straight steps (2 + sqrt 2) also take three.
  const map = matrixOf(['...', '...', '...', '.@.', '...', '...']);
  const theirs = new real.BreadthFirstFinder({ diagonalMovement: Always }).findPath(1, 4, 2, 1, new real.Grid(map));
  const ours = new compat.BreadthFirstFinder({ diagonalMovement: Always }).findPath(1, 4, 2, 1, new compat.Grid(map));
  assert.ok(Math.abs(lengthOf(theirs) - 3 * SQ2) < 1e-9, `${lengthOf(theirs)}`);
  assert.ok(Math.abs(lengthOf(ours) - (2 + SQ2)) < 1e-9, `${lengthOf(ours)}`);
});

test('tilenav/compat/pathfinding: from a cell to itself every finder gives that cell (PathFinding.js: [] from jump point search, a round trip from the bidirectional finders)', () => {
  const m = matrixOf(['...', '...']);
  assert.deepEqual(real.JumpPointFinder().findPath(1, 1, 1, 1, new real.Grid(m)), []);
  assert.deepEqual(new real.BiAStarFinder().findPath(1, 1, 1, 1, new real.Grid(m)), [[1, 1], [1, 0], [1, 1]]);
  for (const [name, make] of [...SHORTEST, ...OTHERS]) assert.deepEqual(make(Never, compat).findPath(1, 1, 1, 1, new compat.Grid(m)), [[1, 1]], name);
  // Util.expandPath of one point: PathFinding.js drops it, the compat entry keeps it.
  assert.deepEqual(real.Util.expandPath([[2, 3]]), []);
  assert.deepEqual(compat.Util.expandPath([[2, 3]]), [[2, 3]]);
});

test('tilenav/compat/pathfinding: a blocked start opened for one search stays blocked for the next', () => {
  // (1, 0) is blocked. Searching from it, then across it from (0, 0) to (2, 0), must go round.
  const grid = new compat.Grid(matrixOf(['.@.', '...']));
  const finder = new compat.AStarFinder();
  assert.equal(finder.findPath(1, 0, 1, 1, grid).length, 2);
  assert.deepEqual(finder.findPath(0, 0, 2, 0, grid), [[0, 0], [0, 1], [1, 1], [2, 1], [2, 0]]);
  assert.equal(grid.isWalkableAt(1, 0), false);
  assert.equal(finder.findPath(1, 0, 2, 0, grid).length, 2);
});

test('tilenav/compat/pathfinding: mistakes throw a TilenavError naming the argument', () => {
  const grid = new compat.Grid(4, 3);
  const finder = new compat.AStarFinder();
  const names = (fn: () => unknown, element: string) => assert.throws(fn, (e: unknown) => e instanceof TilenavError && e.element === element);
  names(() => finder.findPath(0, 0, 1, 1, new real.Grid(4, 3) as unknown as compat.Grid), 'grid');
  names(() => finder.findPath(4, 0, 1, 1, grid), 'startX');
  names(() => finder.findPath(0, -1, 1, 1, grid), 'startY');
  names(() => finder.findPath(0, 0, 1.5, 1, grid), 'endX');
  names(() => finder.findPath(0, 0, 1, 3, grid), 'endY');
  names(() => grid.setWalkableAt(9, 0, false), 'x');
  names(() => grid.getNodeAt(0, 3), 'y');
  names(() => grid.getNeighbors({ x: 1, y: 1 }, 7 as compat.DiagonalMovementValue), 'diagonalMovement');
  names(() => new compat.AStarFinder({ diagonalMovement: 5 as compat.DiagonalMovementValue }), 'diagonalMovement');
  names(() => compat.JumpPointFinder({ diagonalMovement: 9 as compat.DiagonalMovementValue }), 'diagonalMovement');
  names(() => new compat.AStarFinder({ heuristic: 'octile' as unknown as compat.HeuristicFunction }), 'heuristic');
  names(() => new compat.AStarFinder({ weight: -1 }), 'weight');
  names(() => new compat.Grid([[0, 0], [0]]), 'matrix row 1');
  names(() => new compat.Grid(3, 2, [[0, 0, 0]]), 'matrix');
  names(() => new compat.Grid([]), 'matrix');
  names(() => new compat.Grid(2.5, 2), 'width');
});

test('tilenav/compat/pathfinding: the default export holds every named export, and heuristic and weight do not change the path', () => {
  for (const [k, v] of Object.entries(compat)) if (k !== 'default') assert.equal((PFDefault as Record<string, unknown>)[k], v, k);
  assert.equal(Object.keys(PFDefault).length, Object.keys(compat).length - 1);
  const grid = new compat.Grid(matrixOf(['.....', '.@@@.', '.....', '.....']));
  const plain = new compat.AStarFinder({ diagonalMovement: Always }).findPath(0, 0, 4, 3, grid);
  const odd = new compat.AStarFinder({ diagonalMovement: Always, weight: 5, heuristic: () => 100 });
  assert.equal(odd.weight, 5);
  assert.ok(Math.abs(lengthOf(odd.findPath(0, 0, 4, 3, grid)) - lengthOf(plain)) < 1e-12);
});
