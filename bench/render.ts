/**
 * Debug pictures: the cost of `tilenav render`'s parts on AcrosstheCape (768 x 768) and of
 * `Pathfinder.expandedInto`, which the demo calls after every query. Medians of repeated runs.
 */
import { readFileSync } from 'node:fs';
import { Pathfinder } from '../src/index.js';
import { parseMovingAiMap } from '../src/loaders/index.js';
import { renderOverlayImage } from '../src/render/index.js';
import { renderPng } from '../src/cli/commands/render.js';
import { fixture } from '../test/fixtures.js';

const file = fixture('movingai/AcrosstheCape.map');
const grid = parseMovingAiMap(readFileSync(file, 'utf8'), { file }).grid;
const finder = new Pathfinder(grid);
const marks = new Uint8Array(grid.size);
finder.findPath(100, 100, 700, 700);
const median = (fn: () => void, runs: number) => {
  const t: number[] = [];
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now();
    fn();
    t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  return { median: t[runs >> 1], p95: t[Math.min(runs - 1, Math.floor(runs * 0.95))] };
};
const rows = [
  ['expandedInto (768 x 768)', median(() => finder.expandedInto(marks), 50)],
  ['renderOverlayImage (768 px)', median(() => renderOverlayImage(grid, { expanded: marks }), 10)],
  ['renderPng with query (PNG encode)', median(() => renderPng(grid, { from: [100, 100], to: [700, 700] }), 5)],
] as const;
console.log('render: AcrosstheCape 768 x 768');
console.log('| step | median ms | p95 ms |\n|---|---|---|');
for (const [name, r] of rows) console.log(`| ${name} | ${r.median.toFixed(2)} | ${r.p95.toFixed(2)} |`);
