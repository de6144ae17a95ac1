/**
 * Edge walls from level editors: LDtk IntGrid values named for a side (`wall_north`, `fence_e`),
 * Wall / Fence / Gate entities with a side field or a thin box, and Tiled objects (a polyline, a
 * thin or wide rectangle with a wall property or class), each loaded edge for edge as the fixtures'
 * READMEs list them; searches then refuse to cross them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { findPath, type NavGrid } from '../src/index.js';
import { parseLdtk, parseTiled } from '../src/loaders/index.js';
import { fixture } from './fixtures.js';
import { refDistancesTo, wallNeighbours } from './reference.js';

/** Every wall of layer 0 as `x,y N` (north side) or `x,y W` (west side), sorted. */
function wallsOf(g: NavGrid): string[] {
  const out: string[] = [];
  for (let y = 0; y < g.height; y++) {
    for (let x = 0; x < g.width; x++) {
      if (g.hasEdgeWall(x, y, 'north')) out.push(`${x},${y} N`);
      if (g.hasEdgeWall(x, y, 'west')) out.push(`${x},${y} W`);
    }
  }
  return out.sort();
}

const ldtkPath = fixture('ldtk-walls/EdgeWalls.ldtk');
const loadLdtk = (options = {}) => parseLdtk(readFileSync(ldtkPath), { file: ldtkPath, ...options });

test('LDtk: IntGrid values named for a side and Wall / Fence / Gate entities load as exactly these edge walls', () => {
  const p = loadLdtk();
  const g = p.levels[0].grid;
  const expected = [
    // IntGrid: wall_north at (1,1); fence_e at (3,2); wallSouth at (0,4); edge-W at (2,5); wall_north at (4,0) is the outer edge.
    '1,1 N', '4,2 W', '0,5 N', '2,5 W',
    // Fence, side "N", a box over (2..4, 4).
    '2,4 N', '3,4 N', '4,4 N',
    // Gate, enum side West, closed; the open gate at (6,3) puts up nothing.
    '6,2 W',
    // Thin Walls without a side: a vertical one on x = 5 over rows 0-1, a horizontal one on y = 3 over columns 0-1.
    '5,0 W', '5,1 W', '0,3 N', '1,3 N',
    // Wall with sides ["S", "E"] on (0,0).
    '0,1 N', '1,0 W',
  ].sort();
  assert.deepEqual(wallsOf(g), expected);
  // The cells stay walkable (only `walls` blocks, at (7,5)).
  assert.equal(g.isWalkable(1, 1), true);
  assert.equal(g.isWalkable(7, 5), false);
  assert.equal(g.stats()[0].blocked, 1);
  // What puts up nothing says why, naming the entity.
  assert.equal(p.warnings.length, 2, p.warnings.join('\n'));
  assert.match(p.warnings[0], /entity "Wall" \(wall-bad-side\): its field side should name sides/);
  assert.match(p.warnings[1], /entity "Fence" \(fence-no-side\): give it a side field/);
  // The stitched world (a Free world of this one level) keeps them.
  assert.deepEqual(wallsOf(p.world!.grid), expected);
  // Searches refuse to cross them: the reference Dijkstra, which reads walls, agrees on every cell.
  for (const movement of ['octile', 'cardinal'] as const) {
    // Distances to (0,0) equal distances from it: every cell costs 1.
    const ref = refDistancesTo(g, 0, movement, 0, wallNeighbours);
    for (let i = 0; i < g.size; i++) {
      const r = findPath(g, 0, 0, i % g.width, Math.floor(i / g.width), { movement });
      if (ref[i] === Infinity) assert.notEqual(r.status, 'found');
      else assert.ok(Math.abs(r.cost - ref[i]) < 1e-9, `${movement} to ${i}: ${r.cost} vs ${ref[i]}`);
    }
  }
  // Straight from (1,0) down to (1,1) crosses the wall_north: the way round costs more than 1.
  assert.ok(findPath(g, 1, 0, 1, 1, { movement: 'cardinal' }).cost > 1);
});

test('LDtk: a stitched world keeps the walls a level puts on its own outer edge where another level borders it', () => {
  // Three copies of the yard in one Free world: one at (0, 0), one below it, one to its right.
  // The level below has its wall_north at (4, 0) on its top edge, which its own grid cannot hold;
  // the one to the right gets an edge-W value at (0, 2), on its left edge.
  const raw = JSON.parse(readFileSync(ldtkPath, 'utf8'));
  const yard = raw.levels[0];
  const copy = (name: string, uid: number, worldX: number, worldY: number) => {
    const level = JSON.parse(JSON.stringify(yard));
    Object.assign(level, { identifier: name, iid: `level-${name}`, uid, worldX, worldY });
    for (const layer of level.layerInstances) {
      layer.levelId = uid;
      for (const e of layer.entityInstances) e.iid = `${name}-${e.iid}`;
    }
    return level;
  };
  const right = copy('Right', 2, 128, 0);
  right.layerInstances.find((l: { __identifier: string }) => l.__identifier === 'Collisions').intGridCsv[2 * 8] = 5;
  raw.levels.push(copy('Below', 1, 0, 96), right);
  const p = parseLdtk(JSON.stringify(raw), { file: 'three-yards.ldtk' });
  const [own, below, side] = p.levels;
  // The levels' own grids leave their outer edges as they are.
  assert.equal(below.grid.hasEdgeWall(4, 0, 'north'), false);
  assert.equal(side.grid.hasEdgeWall(0, 2, 'west'), false);
  const shifted = (g: NavGrid, ox: number, oy: number) =>
    wallsOf(g).map((w) => {
      const [xy, s] = w.split(' ');
      const [x, y] = xy.split(',').map(Number);
      return `${x + ox},${y + oy} ${s}`;
    });
  const world = p.world!.grid;
  assert.equal(world.width, 16);
  assert.equal(world.height, 12);
  const expected = [...shifted(own.grid, 0, 0), ...shifted(below.grid, 0, 6), ...shifted(side.grid, 8, 0), '4,6 N', '8,2 W'].sort();
  assert.deepEqual(wallsOf(world), expected);
  // Searches in the world respect them: straight down from (4, 5) to (4, 6) is walled.
  assert.ok(findPath(world, 4, 5, 4, 6, { movement: 'cardinal' }).cost > 1);
  assert.ok(findPath(world, 7, 2, 8, 2, { movement: 'cardinal' }).cost > 1);
});

test('LDtk: the mapping names the words and entities; empty lists read no walls', () => {
  const none = loadLdtk({ mapping: { edgeWallValues: [], edgeWallEntities: [] } });
  assert.deepEqual(wallsOf(none.levels[0].grid), []);
  // Without the words, the side values are plain values of a collision layer ("Collisions"): they block.
  assert.equal(none.levels[0].grid.isWalkable(1, 1), false);
  const fencesOnly = loadLdtk({ mapping: { edgeWallValues: ['fence'], edgeWallEntities: ['fence'] } });
  assert.deepEqual(wallsOf(fencesOnly.levels[0].grid), ['2,4 N', '3,4 N', '4,2 W', '4,4 N']);
  assert.throws(() => loadLdtk({ mapping: { edgeWallEntities: 'wall' } }), /mapping\.edgeWallEntities/);
});

test('Tiled: wall objects (a fence polyline, a thin EdgeWall rectangle, a pen outline) load as edge walls and block no cell', () => {
  const path = fixture('tiled/walls/edge-wall-objects.tmj');
  const map = parseTiled(readFileSync(path), { file: path });
  const g = map.grid;
  assert.deepEqual(wallsOf(g), [
    // fence polyline: y = 2 over columns 1-3, then x = 4 over rows 2-4
    '1,2 N', '2,2 N', '3,2 N', '4,2 W', '4,3 W', '4,4 W',
    // thin EdgeWall rectangle on x = 6, rows 0-1
    '6,0 W', '6,1 W',
    // the pen (5..6, 4..5): north, west and east sides; its south side is the map's edge
    '5,4 N', '6,4 N', '5,4 W', '5,5 W', '7,4 W', '7,5 W',
  ].sort());
  // On a collision layer, only the plain rectangle blocks.
  assert.equal(g.stats()[0].blocked, 1);
  assert.equal(g.isWalkable(0, 5), false);
  assert.ok(map.warnings.some((w) => /object 4 "slanted": a line of it does not lie along a tile edge/.test(w)), map.warnings.join('\n'));
  const ref = refDistancesTo(g, 0, 'octile', 0, wallNeighbours);
  for (let i = 0; i < g.size; i++) {
    const r = findPath(g, 0, 0, i % g.width, Math.floor(i / g.width));
    if (ref[i] === Infinity) assert.notEqual(r.status, 'found');
    else assert.ok(Math.abs(r.cost - ref[i]) < 1e-9);
  }
  // A mapping without the conventions: the objects are plain collision shapes again.
  const plain = parseTiled(readFileSync(path), { file: path, mapping: { edgeWallProperties: [], edgeWallTypes: [] } });
  assert.deepEqual(wallsOf(plain.grid), []);
  assert.ok(plain.grid.stats()[0].blocked > 1);
});
