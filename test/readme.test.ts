import { test } from 'node:test';
import assert from 'node:assert/strict';
import { format } from 'node:util';
import { saidValue, saysPrinted, testTsBlocks } from './helpers-markdown.js';

/** README's examples run as written against the source (imports of 'tilenav' point at src/). */
const count = testTsBlocks('README.md');
test('README has runnable TypeScript examples', () => assert.ok(count >= 3, `${count} blocks`));

test('an example whose comment says another value than it prints is caught', () => {
  const path = format([[0, 0], [1, 0], [2, 0], [2, 1], [2, 2], [1, 2], [0, 2]]);
  assert.equal(saysPrinted(saidValue('[[0, 0], [1, 0], [2, 1], [1, 2], [0, 2]]: no clone needed')!, path), false);
  assert.equal(saysPrinted(saidValue('[[0, 0], [1, 0], [2, 0], [2, 1], [2, 2], [1, 2], [0, 2]]: round the wall')!, path), true);
  assert.equal(saysPrinted(saidValue('[[0, 0], [1, 0], ...]')!, path), true);
  assert.equal(saysPrinted(saidValue("'partial' [[9, 10]]")!, format('partial', [[9, 10]])), true);
  assert.equal(saysPrinted(saidValue('41: highlight them')!, format(41, 'cells in range')), true);
  assert.equal(saysPrinted(saidValue('4: the answer')!, format(41)), false);
  assert.equal(saidValue('[x0, y0, x1, y1, ...] in cells'), null);
  assert.equal(saidValue('pixel positions'), null);
});
