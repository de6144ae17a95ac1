/**
 * Map formats: a 1000 x 1000 two-layer grid saved and loaded in the binary format, the same
 * ground layer as a text grid, and a polygon config of ~50 areas and obstacles built into a grid.
 * Medians and p95 over repeated runs; the machine is shared, so rerun before quoting.
 */
import { writeFileSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NavGrid } from '../src/index.js';
import { formatTextGrid, parseTextGrid, parsePolygonConfig, formatBinaryGrid, parseBinaryGrid } from '../src/loaders/index.js';
import { percentiles, round } from '../src/cli/io.js';

function time(runs: number, fn: () => void): { median: number; p95: number } {
  fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    ms.push(performance.now() - t0);
  }
  const { median, p95 } = percentiles(ms);
  return { median: round(median, 2), p95: round(p95, 2) };
}

/** Fixed pseudo-random walls so every run measures the same grid. */
function bigGrid(): NavGrid {
  const g = new NavGrid(1000, 1000, { layers: ['Ground', 'Sky'] });
  let s = 12345;
  const next = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296;
  for (let k = 0; k < 3000; k++) {
    const x = Math.floor(next() * 990);
    const y = Math.floor(next() * 990);
    g.fillRect(x, y, 1 + Math.floor(next() * 10), 1 + Math.floor(next() * 10), next() < 0.5 ? { walkable: false } : { terrain: 'Mud' }, next() < 0.8 ? 0 : 1);
  }
  return g;
}

/** 50 polygons: a 5 x 5 block of concave rooms, 20 doors between them, and 5 pillars. */
function polygonConfig(): object {
  const areas: object[] = [];
  const obstacles: object[] = [];
  for (let i = 0; i < 5; i++) {
    for (let j = 0; j < 5; j++) {
      const x = i * 20;
      const z = j * 20;
      areas.push({ name: `room${i}_${j}`, polygon: [[x, z], [x + 18, z], [x + 18, z + 10], [x + 10, z + 18], [x, z + 18]] });
      if (i < 4) areas.push({ name: `door${i}_${j}`, available: (i + j) % 2 === 0, polygon: [[x + 17, z + 4], [x + 21, z + 4], [x + 21, z + 6], [x + 17, z + 6]] });
    }
  }
  for (let k = 0; k < 5; k++) {
    const x = 5 + (k % 5) * 20;
    const z = 5 + Math.floor(k / 5) * 20;
    obstacles.push({ name: `pillar${k}`, polygon: [[x, z], [x + 2, z + 0.5], [x + 1.5, z + 2.5], [x - 0.5, z + 1.5]] });
  }
  return { cellSize: 0.25, agentRadius: 0.45, objectPadding: 0.25, boundaryPadding: 0.1, areas, obstacles };
}

/** One star-shaped (concave) area of 200 vertices, 100 m across at cellSize 0.1: ~1000 x 1000 cells. */
function bigAreaConfig(): object {
  const polygon = Array.from({ length: 200 }, (_, k) => {
    const a = (k / 200) * 2 * Math.PI;
    const radius = k % 2 === 0 ? 50 : 44;
    return [radius * Math.cos(a), radius * Math.sin(a)];
  });
  return { cellSize: 0.1, boundaryPadding: 0.3, areas: [{ name: 'star', polygon }], obstacles: [{ polygon: [[-3, -3], [3, -3], [0, 4]] }] };
}

const grid = bigGrid();
const buffer = formatBinaryGrid(grid);
const bytes = new Uint8Array(buffer);
const text = formatTextGrid(grid, { params: { cellSize: 1 } });
const config = polygonConfig();
const nav = parsePolygonConfig(config);
const polygons = (config as { areas: unknown[]; obstacles: unknown[] }).areas.length + (config as { obstacles: unknown[] }).obstacles.length;

const dir = mkdtempSync(join(tmpdir(), 'tilenav-bench-'));
const file = join(dir, 'grid.tnav');
writeFileSync(file, bytes);

const rows = [
  { case: 'formatBinaryGrid 1000x1000, 2 layers', ...time(15, () => formatBinaryGrid(grid)), size: `${round(buffer.byteLength / 1e6, 2)} MB` },
  { case: 'parseBinaryGrid (adopts, validates cells)', ...time(30, () => parseBinaryGrid(buffer)), size: 'target < 20 ms' },
  { case: 'parseBinaryGrid trusted (no cell scan)', ...time(30, () => parseBinaryGrid(buffer, { trusted: true })), size: '' },
  { case: 'readFileSync + parseBinaryGrid (.tnav on disk)', ...time(15, () => parseBinaryGrid(readFileSync(file))), size: '' },
  { case: 'parseBinaryGrid from a copied Uint8Array', ...time(15, () => parseBinaryGrid(bytes.slice())), size: 'incl. the copy' },
  { case: 'formatBinaryGrid shared: true', ...time(15, () => formatBinaryGrid(grid, { shared: true })), size: '' },
  { case: 'formatTextGrid 1000x1000', ...time(10, () => formatTextGrid(grid, { params: { cellSize: 1 } })), size: `${round(text.length / 1e6, 2)} MB` },
  { case: 'parseTextGrid 1000x1000', ...time(10, () => parseTextGrid(text)), size: '' },
  { case: `polygon build (${polygons} polygons)`, ...time(10, () => parsePolygonConfig(config)), size: `${nav.grid.width} x ${nav.grid.height}` },
  { case: 'polygon build (1 area, 200 vertices, bp 0.3)', ...time(5, () => parsePolygonConfig(bigAreaConfig())), size: '' },
  {
    case: 'setAreaAvailable (one door, toggled)',
    ...time(200, () => {
      nav.setAreaAvailable('door1_1', !nav.isAreaAvailable('door1_1'));
    }),
    size: '',
  },
];
rmSync(dir, { recursive: true, force: true });
console.log('formats (ms)');
console.table(rows);
