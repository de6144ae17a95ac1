import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testTsBlocks } from './helpers-markdown.js';

/** README's examples run as written against the source (imports of 'tilenav' point at src/). */
const count = testTsBlocks('README.md');
test('README has runnable TypeScript examples', () => assert.ok(count >= 3, `${count} blocks`));
