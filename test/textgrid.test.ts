import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, TilenavError, continuous, orthogonal, hexagonal } from '../src/index.js';
import { mulberry32 } from '../src/query/index.js';
import { parseTextGrid, formatTextGrid } from '../src/loaders/index.js';
import { fillRandom } from './grids.js';

const SAMPLE = `cellSize 0.4
agentRadius 0.45
floorY 0.5
objectPadding 0.25
minX -5
minZ -2.2
gridWidth 5
gridDepth 3
11111
10001
11011
`;

test('txt: parses the header and rows; row z is grid row y, 1 walkable', () => {
  const { grid, params } = parseTextGrid(SAMPLE);
  assert.equal(grid.width, 5);
  assert.equal(grid.height, 3);
  assert.deepEqual(grid.projection.spec, { kind: 'continuous', cellSize: 0.4, minX: -5, minZ: -2.2, floorY: 0.5 });
  assert.deepEqual(params.extra, [['agentRadius', 0.45], ['objectPadding', 0.25]]);
  const walk = Array.from({ length: 3 }, (_, y) => Array.from({ length: 5 }, (_, x) => (grid.isWalkable(x, y) ? '1' : '0')).join(''));
  assert.deepEqual(walk, ['11111', '10001', '11011']);
  const c = grid.projection.cellToWorld(1, 2);
  assert.ok(Math.abs(c.x - (-5 + 1.5 * 0.4)) < 1e-12 && Math.abs(c.z - (-2.2 + 2.5 * 0.4)) < 1e-12 && c.y === 0.5);
});

test('txt: text -> grid -> text is exact for canonical text, CRLF accepted', () => {
  const { grid, params } = parseTextGrid(SAMPLE);
  assert.equal(formatTextGrid(grid, { params }), SAMPLE);
  const crlf = parseTextGrid(SAMPLE.replace(/\n/g, '\r\n'));
  assert.equal(formatTextGrid(crlf.grid, { params: crlf.params }), SAMPLE);
});

test('txt: grid -> text -> grid is exact on random non-square grids (property)', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 23 }),
      fc.integer({ min: 1, max: 17 }),
      fc.double({ min: 0.01, max: 10, noNaN: true }),
      fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      fc.integer(),
      (w, h, cellSize, minX, minZ, seed) => {
        const g = fillRandom(new NavGrid(w, h, { projection: continuous(cellSize, minX, minZ, 0.25) }), mulberry32(seed), { wallRate: 0.5 });
        const text = formatTextGrid(g);
        const back = parseTextGrid(text);
        assert.deepEqual(back.grid.projection.spec, g.projection.spec);
        assert.deepEqual(back.grid.layers[0].walkable, g.layers[0].walkable);
        assert.equal(formatTextGrid(back.grid, { params: back.params }), text);
      },
    ),
    { numRuns: 200, seed: 7 },
  );
});

test('txt: orthogonal square tiles map to cellSize and origin; other projections need params.cellSize', () => {
  const g = new NavGrid(2, 1, { projection: orthogonal(32, 32, 10, 20) });
  assert.match(formatTextGrid(g), /^cellSize 32\nfloorY 0\nminX 10\nminZ 20\ngridWidth 2\ngridDepth 1\n11\n$/);
  const hex = new NavGrid(2, 2, { projection: hexagonal(1) });
  assert.throws(() => formatTextGrid(hex), (e: unknown) => e instanceof TilenavError && /hexagonal projection has no text grid equivalent/.test(e.message));
  assert.match(formatTextGrid(hex, { params: { cellSize: 1 } }), /^cellSize 1\n/);
});

test('txt: bad input names the file and the line', () => {
  const cases: [string, RegExp][] = [
    [SAMPLE.replace('gridDepth 3\n', ''), /^f\.txt:8: the header lacks "gridDepth"/],
    [SAMPLE.replace('cellSize 0.4', 'cellSize abc'), /^f\.txt:1: cellSize must be a finite number, got "abc"/],
    [SAMPLE.replace('cellSize 0.4', 'cellSize -1'), /^f\.txt:1: cellSize must be > 0/],
    [SAMPLE.replace('gridWidth 5', 'gridWidth 4.5'), /^f\.txt:7: gridWidth must be a whole number/],
    [SAMPLE.replace('minX -5', 'minX NaN'), /^f\.txt:5: minX must be a finite number/],
    [SAMPLE.replace('minZ -2.2', 'minX 3'), /^f\.txt:6: minX appears twice/],
    [SAMPLE.replace('floorY 0.5', 'floorY = 0.5'), /^f\.txt:3: expected a header line/],
    [SAMPLE.replace('10001', '1001'), /^f\.txt:10: row 1 has 4 characters; gridWidth is 5/],
    [SAMPLE.replace('10001', '10201'), /^f\.txt:10: expected 0 or 1 at column 3, got "2"/],
    [SAMPLE.replace('11011\n', ''), /^f\.txt:11: the grid ends after 2 of 3 rows/],
    [SAMPLE + '11111\n', /^f\.txt:12: unexpected text after the 3 grid rows/],
    [SAMPLE.replace('gridWidth 5', 'gridWidth 50000').replace('gridDepth 3', 'gridDepth 50000'), /^f\.txt:7: grid of 50000 x 50000 .* exceeds maxCells/],
    ['', /the header lacks "cellSize"/],
  ];
  for (const [text, pattern] of cases) {
    assert.throws(() => parseTextGrid(text, { file: 'f.txt' }), (e: unknown) => e instanceof TilenavError && pattern.test(e.message), String(pattern));
  }
  assert.throws(() => parseTextGrid(SAMPLE, { maxCells: 14 }), /exceeds maxCells 14/);
});
