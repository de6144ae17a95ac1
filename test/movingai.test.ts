import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMovingAiMap, parseScenario, formatMovingAiMap } from '../src/loaders/index.js';
import { Pathfinder, TilenavError, checkPath } from '../src/index.js';
import { readFixture } from './fixtures.js';

const read = (name: string) => readFixture(`movingai/${name}`);

test('parses a .map: header, passable . G S, blocked @ O T W, non-square', () => {
  const g = parseMovingAiMap('type octile\nheight 2\nwidth 4\nmap\n.GS@\nOTW.\n').grid;
  assert.equal(g.width, 4);
  assert.equal(g.height, 2);
  assert.deepEqual(Array.from(g.layers[0].walkable), [1, 1, 1, 0, 0, 0, 0, 1]);
  assert.equal(formatMovingAiMap(g), 'type octile\nheight 2\nwidth 4\nmap\n...@\n@@@.\n');
  assert.deepEqual(Array.from(parseMovingAiMap(formatMovingAiMap(g)).grid.layers[0].walkable), Array.from(g.layers[0].walkable));
  // Windows line ends.
  assert.equal(parseMovingAiMap('type octile\r\nheight 1\r\nwidth 2\r\nmap\r\n.@\r\n').grid.isWalkable(1, 0), false);
});

test('bad .map files name the file, the line and the problem', () => {
  const cases: [string, RegExp][] = [
    ['type octile\nheight 2\nwidth 3\nmap\n...\n..\n', /m\.map:6: row 1 has 2 characters; the header says width 3/],
    ['type octile\nheight 2\nwidth 3\nmap\n...\n', /m\.map:5: the map ends after 1 of 2 rows/],
    ['type octile\nheight 1\nwidth 3\nmap\n.x.\n', /m\.map:5: unknown terrain character "x" at column 2/],
    ['type hex\nheight 1\nwidth 1\nmap\n.\n', /m\.map:1: unsupported map type "hex"/],
    ['type octile\nheight -4\nwidth 1\nmap\n', /m\.map:2: height must be a whole number/],
    ['type octile\nwidth 1\nmap\n.\n', /lacks "height N"/],
    ['type octile\nheight 1\nwidth 1\n', /no "map" line/],
    ['hello\n', /m\.map:1: expected a header line/],
    ['type octile\nheight 1\nwidth 1\nmap\n.\n.\n', /m\.map:6: unexpected text after the 1 map rows/],
    ['', /no "map" line/],
  ];
  for (const [text, re] of cases) {
    assert.throws(() => parseMovingAiMap(text, { file: 'm.map' }), (e: unknown) => e instanceof TilenavError && re.test(e.message), re.source);
  }
  assert.throws(() => parseMovingAiMap('type octile\nheight 5000\nwidth 5000\nmap\n', { file: 'big.map', maxCells: 1_000_000 }), /exceeds maxCells/);
});

test('parses a .scen: version 1, folders in the map column, 9 columns', () => {
  const q = parseScenario('version 1\n0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1.00000000\n3\tx.map\t4\t4\t0\t0\t3\t3\t0\n');
  assert.equal(q.length, 2);
  assert.deepEqual({ ...q[0], line: 0 }, { bucket: 0, map: 'maps/dao/arena.map', mapWidth: 49, mapHeight: 49, startX: 1, startY: 11, goalX: 1, goalY: 12, optimal: 1, line: 0 });
  assert.equal(q[1].line, 3);
  assert.throws(() => parseScenario('version 2\n', { file: 's.scen' }), /s\.scen:1: unsupported scenario version "2"/);
  assert.throws(() => parseScenario('0\ta.map\n', { file: 's.scen' }), /s\.scen:1: expected the first line "version 1"/);
  assert.throws(() => parseScenario('version 1\n0\ta.map\t4\t4\t0\t0\t3\n', { file: 's.scen' }), /s\.scen:2: expected 9 columns/);
  assert.throws(() => parseScenario('version 1\n0\ta.map\t4\t4\t0\t-1\t3\t3\t1\n', { file: 's.scen' }), /s\.scen:2: column 6 must be a whole number/);
  assert.throws(() => parseScenario('version 1\n0\ta.map\t4\t4\t0\t1\t3\t3\tabc\n', { file: 's.scen' }), /optimal length/);
});

/** Runs every query (or every `step`-th) and checks optimality and validity. */
function runScenario(name: string, step = 1): { checked: number; noPath: number } {
  const grid = parseMovingAiMap(read(`${name}.map`), { file: name }).grid;
  const queries = parseScenario(read(`${name}.map.scen`));
  const finder = new Pathfinder(grid);
  let checked = 0;
  let noPath = 0;
  for (let k = 0; k < queries.length; k += step) {
    const q = queries[k];
    const r = finder.findPath(q.startX, q.startY, q.goalX, q.goalY);
    const unreachable = q.optimal === 0 && (q.startX !== q.goalX || q.startY !== q.goalY);
    if (unreachable) {
      assert.equal(r.status, 'no-path', `${name} line ${q.line}`);
      noPath++;
    } else {
      assert.equal(r.status, 'found', `${name} line ${q.line}`);
      assert.ok(Math.abs(r.cost - q.optimal) <= 1e-4 * Math.max(1, q.optimal), `${name} line ${q.line}: ${r.cost} vs ${q.optimal}`);
      const check = checkPath(grid, r.cells);
      assert.ok(check.valid, `${name} line ${q.line}: ${check.problem}`);
    }
    checked++;
  }
  return { checked, noPath };
}

for (const [name, count] of [['maze-100-1', 2430], ['random-100-33', 490], ['rmtst01', 470], ['room-100-10', 420]] as const) {
  test(`every query of ${name} is optimal and valid`, () => {
    assert.equal(runScenario(name).checked, count);
  });
}

test('AcrosstheCape: a sample of the 2940 queries (every 20th) is optimal and valid', () => {
  assert.equal(runScenario('AcrosstheCape', 20).checked, 147);
});
