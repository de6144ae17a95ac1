/**
 * `npm run bench doors`: what a call through each door costs on a 1024 x 1024 map, per call, in
 * one process: a kept `Pathfinder`, the free `findPath(grid, ...)` (the grid keeps its search
 * scratch after the first call), and a Pathfinder made for every call (what the free function
 * cost before the grid kept one: about 20 bytes per cell allocated per call). Short paths (goals
 * 2-12 cells away) on rooms and corridors, and goals on walled islands (answered from the
 * component labels). Prints the machine's load.
 */
import { loadavg } from 'node:os';
import { Pathfinder, findPath, type NavGrid } from '../src/index.js';
import { islands, rng, roomsAndCorridors } from './worldgen.js';

const CALLS = 4000;
const FRESH_CALLS = 200;

/** Walkable cell pairs: `near` picks goals 2-12 cells from the start. */
function pairs(grid: NavGrid, count: number, seed: number, near: boolean, goals?: number[]): number[][] {
  const rand = rng(seed);
  const walk = grid.layers[0].walkable;
  const out: number[][] = [];
  while (out.length < count) {
    const s = Math.floor(rand() * grid.size);
    if (walk[s] !== 1) continue;
    let g: number;
    if (goals !== undefined) g = goals[Math.floor(rand() * goals.length)];
    else if (near) {
      const x = grid.xOf(s) + Math.floor(rand() * 25) - 12;
      const y = grid.yOf(s) + Math.floor(rand() * 25) - 12;
      if (!grid.inBounds(x, y) || Math.max(Math.abs(x - grid.xOf(s)), Math.abs(y - grid.yOf(s))) < 2) continue;
      g = y * grid.width + x;
    } else g = Math.floor(rand() * grid.size);
    if (walk[g] !== 1) continue;
    out.push([grid.xOf(s), grid.yOf(s), grid.xOf(g), grid.yOf(g)]);
  }
  return out;
}

/** Mean microseconds per call of `call` over `queries`, after a warm-up of 300 ms. */
function time(queries: number[][], calls: number, call: (q: number[]) => unknown): number {
  const warm = performance.now();
  for (let k = 0; performance.now() - warm < 300; k++) call(queries[k % queries.length]);
  const t = performance.now();
  for (let k = 0; k < calls; k++) call(queries[k % queries.length]);
  return ((performance.now() - t) * 1000) / calls;
}

console.log('\n## Doors: a kept Pathfinder, the free findPath, a Pathfinder per call (1024 x 1024)');
console.log(`load average ${loadavg().map((v) => v.toFixed(2)).join(' ')}; mean us per call; ${CALLS} calls (${FRESH_CALLS} for a Pathfinder per call)`);
console.log('| map, queries | kept Pathfinder | free findPath | ratio | Pathfinder per call | ratio |');
console.log('|---|---:|---:|---:|---:|---:|');
const rooms = roomsAndCorridors(1024, 1024, 7);
const isl = islands(1024, 42);
const rows: [string, NavGrid, number[][]][] = [
  ['rooms and corridors, goals 2-12 cells away', rooms, pairs(rooms, 512, 1, true)],
  ['islands, goals on walled islands (no path)', isl.grid, pairs(isl.grid, 512, 2, false, isl.inner)],
];
for (const [name, grid, queries] of rows) {
  const kept = new Pathfinder(grid);
  const a = time(queries, CALLS, (q) => kept.findPath(q[0], q[1], q[2], q[3]));
  const b = time(queries, CALLS, (q) => findPath(grid, q[0], q[1], q[2], q[3]));
  const c = time(queries, FRESH_CALLS, (q) => new Pathfinder(grid).findPath(q[0], q[1], q[2], q[3]));
  console.log(`| ${name} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(b / a).toFixed(2)} | ${c.toFixed(1)} | ${(c / a).toFixed(1)} |`);
}
