import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTiled } from '../src/loaders/index.js';
import { cellOutline, movementFor, pickCell } from '../src/render/index.js';
import { runCli } from './helpers-cli.js';

const fixture = (f: string) => fileURLToPath(new URL(`./fixtures/tiled/${f}`, import.meta.url));
const read = (p: string) => readFileSync(p);

/** The cost a CLI command prints, from `path --json` or render's summary line. */
async function pathCost(map: string, from: string, to: string, ...extra: string[]): Promise<number | null> {
  const r = await runCli('path', map, '--from', from, '--to', to, '--json', ...extra);
  assert.equal(r.code, 0, r.err.join('\n'));
  return JSON.parse(r.out.filter((l) => l.startsWith('{')).pop()!).cost;
}

async function renderCost(map: string, from: string, to: string, out: string): Promise<number | null> {
  const r = await runCli('render', map, '--from', from, '--to', to, '--out', out);
  assert.equal(r.code, 0, r.err.join('\n'));
  const m = /path cost ([\d.]+)/.exec(r.out.join('\n'));
  return m ? Number(m[1]) : null;
}

test("render draws the path `path` finds on hexagonal and staggered Tiled maps: the same cost in the map's own model", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tilenav-render-tiled-'));
  let differsFromOctile = 0;
  let found = 0;
  for (const name of ['hex-even-r.tmj', 'hex-odd-q.tmj', 'staggered-even-q.tmj', 'staggered-odd-r.tmj']) {
    const map = fixture(name);
    const m = loadTiled(read(map), { file: map, readFile: read });
    assert.equal(movementFor(m.projection), m.movement, `${name}: the renderer's model is the loader's`);
    const cells: string[] = [];
    for (let y = 0; y < m.grid.height; y++) for (let x = 0; x < m.grid.width; x++) if (m.grid.isWalkable(x, y)) cells.push(`${x},${y}`);
    // Far corners and a few pairs between: each one's cost printed by both commands.
    const pairs = [[cells[0], cells[cells.length - 1]], [cells[1], cells[cells.length >> 1]], [cells[cells.length >> 2], cells[cells.length - 2]]];
    for (const [from, to] of pairs) {
      const p = await pathCost(map, from, to);
      const r = await renderCost(map, from, to, join(dir, 'out.png'));
      if (p === null || r === null) {
        assert.equal(r, p, `${name} ${from} -> ${to}: both say there is no path`);
        continue;
      }
      found++;
      assert.ok(Math.abs(p - r) < 1e-3, `${name} ${from} -> ${to}: path ${p}, render ${r}`);
      const octile = await pathCost(map, from, to, '--movement', 'octile');
      if (octile === null || Math.abs(octile - p) > 1e-3) differsFromOctile++;
    }
  }
  assert.ok(found >= 8, `${found} of 12 queries found a path`);
  assert.ok(differsFromOctile > 0, 'some query costs differently on octile, so the comparison tells the models apart');
});

test('staggered cells are outlined as Tiled draws them: diamonds on staggered maps, hexagons on hexagonal ones, neighbours sharing edges', () => {
  const out = new Float64Array(12);
  for (const [name, vertices] of [['staggered-odd-r.tmj', 4], ['hex-even-r.tmj', 6], ['hex-odd-q.tmj', 6], ['staggered-even-q.tmj', 4]] as const) {
    const map = fixture(name);
    const m = loadTiled(read(map), { file: map, readFile: read });
    const spec = m.projection.spec as { tileWidth: number; tileHeight: number };
    assert.equal(cellOutline(m.projection, 2, 1, out), vertices, name);
    const xs = Array.from({ length: vertices }, (_, k) => out[2 * k]);
    const ys = Array.from({ length: vertices }, (_, k) => out[2 * k + 1]);
    // The outline fills the tile's box: tileWidth wide, tileHeight tall.
    assert.ok(Math.abs(Math.max(...xs) - Math.min(...xs) - spec.tileWidth) < 1e-9 && Math.abs(Math.max(...ys) - Math.min(...ys) - spec.tileHeight) < 1e-9, `${name}: ${xs} ${ys}`);
    // A click just inside any corner picks the cell drawn there; just outside, a neighbour.
    const c = m.projection.cellToWorld(2, 1);
    for (let k = 0; k < vertices; k++) {
      const inside = pickCell(m.projection, c.x + (out[2 * k] - c.x) * 0.97, c.y + (out[2 * k + 1] - c.y) * 0.97);
      assert.deepEqual([inside.x, inside.y], [2, 1], `${name}: just inside corner ${k} is cell (2, 1)`);
      const outside = pickCell(m.projection, c.x + (out[2 * k] - c.x) * 1.05, c.y + (out[2 * k + 1] - c.y) * 1.05);
      assert.notDeepEqual([outside.x, outside.y], [2, 1], `${name}: just outside corner ${k} is another cell`);
    }
  }
});
