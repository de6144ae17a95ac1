/**
 * Bad arguments to the public functions of the root entry, tilenav/path and tilenav/query: each
 * call returns a result or throws a TilenavError; never a TypeError or RangeError, never a hang.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NavGrid, Pathfinder, TerrainTable, TilenavError, checkPath, createProjection, distanceMap, findPath, isometric, movementModel, orthogonal } from '../src/index.js';
import { parseBinaryGrid, formatBinaryGrid } from '../src/loaders/index.js';
import { cellsToPoints, polylineCost, smoothPath, toWorldWaypoints } from '../src/path/index.js';
import { ClearanceMap, ReachabilityIndex, clearanceOf, nearestWalkable, planPath, randomPoint } from '../src/query/index.js';

const BAD: readonly unknown[] = [null, undefined, NaN, 'x', -1, -4, 1e12, Infinity, {}, [], 0.5, true];

/** Each call gets a fresh 6 x 5 grid with a wall, and one bad value in the argument it names. */
const CALLS: Record<string, (g: NavGrid, v: any) => unknown> = {
  'new NavGrid width': (_g, v) => new NavGrid(v, 4),
  'new NavGrid options': (_g, v) => new NavGrid(4, 4, v),
  'new NavGrid maxCells': (_g, v) => new NavGrid(4, 4, { maxCells: v }),
  'new NavGrid layers': (_g, v) => new NavGrid(4, 4, { layers: v }),
  'new NavGrid projection': (_g, v) => new NavGrid(4, 4, { projection: v }),
  'new NavGrid terrain': (_g, v) => new NavGrid(4, 4, { terrain: v }),
  'new NavGrid storageOffset': (_g, v) => new NavGrid(2, 2, { storage: new ArrayBuffer(256), storageOffset: v }),
  'new NavGrid walkable': (_g, v) => new NavGrid(2, 2, { walkable: v }),
  'setCost cost': (g, v) => g.setCost(1, 1, v),
  'setCost x': (g, v) => g.setCost(v, 1, 2),
  'setWalkable walkable': (g, v) => g.setWalkable(1, 1, v),
  'setTerrain terrain': (g, v) => g.setTerrain(1, 1, v),
  'setFlags flags': (g, v) => g.setFlags(1, 1, v),
  'fillRect values': (g, v) => g.fillRect(0, 0, 2, 2, v),
  'fillRect width': (g, v) => g.fillRect(0, 0, v, 2, { cost: 2 }),
  'fillRect layer': (g, v) => g.fillRect(0, 0, 1, 1, { cost: 2 }, v),
  'getCost y': (g, v) => g.getCost(1, v),
  'isWalkable layer': (g, v) => g.isWalkable(1, 1, v),
  'refresh rect': (g, v) => g.refresh(0, v),
  'batch fn': (g, v) => g.batch(v),
  'onChange listener': (g, v) => g.onChange(v),
  'TerrainTable.define cost': (_g, v) => new TerrainTable().define('Tar', v),
  'TerrainTable.define name': (_g, v) => new TerrainTable().define(v, 1),
  'TerrainTable entries': (_g, v) => new TerrainTable(v),
  'new Pathfinder grid': (_g, v) => new Pathfinder(v),
  'findPath options': (g, v) => findPath(g, 0, 0, 5, 4, v),
  'findPath goal x': (g, v) => findPath(g, 0, 0, v, 4),
  'findPath movement': (g, v) => findPath(g, 0, 0, 5, 4, { movement: v }),
  'findPath algorithm': (g, v) => findPath(g, 0, 0, 5, 4, { algorithm: v }),
  'findPath maxIterations': (g, v) => findPath(g, 0, 0, 5, 4, { maxIterations: v }),
  'findPath weight': (g, v) => findPath(g, 0, 0, 5, 4, { weight: v }),
  'findPath layer': (g, v) => findPath(g, 0, 0, 5, 4, { layer: v }),
  'findPath out': (g, v) => findPath(g, 0, 0, 5, 4, { out: v }),
  'findPath grid': (_g, v) => findPath(v, 0, 0, 1, 1),
  'Pathfinder.findPath options': (g, v) => new Pathfinder(g).findPath(0, 0, 5, 4, v),
  'Pathfinder.findPath start y': (g, v) => new Pathfinder(g).findPath(0, v, 5, 4),
  'Pathfinder.prepare options': (g, v) => new Pathfinder(g).prepare(v),
  'Pathfinder.hierarchy movement': (g, v) => new Pathfinder(g).hierarchy(0, v),
  'distanceMap sources': (g, v) => distanceMap(g, v),
  'distanceMap options': (g, v) => distanceMap(g, [0], v),
  'checkPath cells': (g, v) => checkPath(g, v),
  'movementModel name': (_g, v) => movementModel(v),
  'createProjection spec': (_g, v) => createProjection(v),
  'orthogonal tileWidth': (_g, v) => orthogonal(v),
  'isometric tileHeight': (_g, v) => isometric(2, v),
  'formatBinaryGrid options': (g, v) => formatBinaryGrid(g, v),
  'parseBinaryGrid buffer': (_g, v) => parseBinaryGrid(v).grid,
  'parseBinaryGrid options': (g, v) => parseBinaryGrid(formatBinaryGrid(g), v).grid,
  'parseBinaryGrid maxCells': (g, v) => parseBinaryGrid(formatBinaryGrid(g), { maxCells: v }).grid,
  'smoothPath cells': (g, v) => smoothPath(g, v),
  'smoothPath cell': (g, v) => smoothPath(g, [0, v, 29]),
  'smoothPath options': (g, v) => smoothPath(g, [0, 1, 2], v),
  'polylineCost points': (g, v) => polylineCost(g, v),
  'polylineCost point': (g, v) => polylineCost(g, [0, 0, v, 1]),
  'cellsToPoints cells': (g, v) => cellsToPoints(g, v),
  'toWorldWaypoints points': (g, v) => toWorldWaypoints(g, v),
  'toWorldWaypoints options': (g, v) => toWorldWaypoints(g, [0, 0, 1, 1], v),
  'findPath anyAngle': (g, v) => findPath(g, 0, 0, 5, 4, { anyAngle: v }),
  'findPath anyAngle goal y': (g, v) => findPath(g, 0, 0, 5, v, { anyAngle: true }),
  'findPath anyAngle maxIterations': (g, v) => findPath(g, 0, 0, 5, 4, { anyAngle: true, maxIterations: v }),
  'nearestWalkable x': (g, v) => nearestWalkable(g, v, 1),
  'nearestWalkable options': (g, v) => nearestWalkable(g, 1, 1, v),
  'nearestWalkable radius': (g, v) => nearestWalkable(g, 1, 1, { radius: v }),
  'findPath nearest': (g, v) => findPath(g, 0, 0, 5, 4, { nearest: v }),
  'findPath nearest goal x': (g, v) => findPath(g, 0, 0, v, 4, { nearest: true }),
  'findPath nearest start x': (g, v) => findPath(g, v, 0, 5, 4, { nearest: true }),
  'findPath obstacles': (g, v) => findPath(g, 0, 0, 5, 4, { obstacles: v }),
  'findPath obstacle': (g, v) => findPath(g, 0, 0, 5, 4, { obstacles: [v] }),
  'findPath obstacleOptions': (g, v) => findPath(g, 0, 0, 5, 4, { obstacles: [{ x: 2.5, y: 0.5, radius: 1 }], obstacleOptions: v }),
  'findPath reachabilityCheck': (g, v) => findPath(g, 0, 0, 5, 4, { reachabilityCheck: v }),
  'planPath start': (g, v) => planPath(g, v, { x: 4.5, y: 3.5, z: 0 }),
  'planPath options': (g, v) => planPath(g, { x: 0.5, y: 0.5, z: 0 }, { x: 4.5, y: 3.5, z: 0 }, v),
  'planPath snapRadius': (g, v) => planPath(g, { x: 0.5, y: 0.5, z: 0 }, { x: 4.5, y: 3.5, z: 0 }, { snapRadius: v }),
  'new ReachabilityIndex options': (g, v) => new ReachabilityIndex(g, v),
  'new ClearanceMap options': (g, v) => new ClearanceMap(g, v),
  'findPath radius': (g, v) => findPath(g, 0, 0, 5, 4, { radius: v }),
  'findPath radius nearest': (g, v) => findPath(g, 0, 0, 5, 4, { radius: v, nearest: true }),
  'clearanceOf radius': (g, v) => clearanceOf(g, 0, v),
  'clearanceOf layer': (g, v) => clearanceOf(g, v, 1),
  'planPath radius': (g, v) => planPath(g, { x: 0.5, y: 0.5, z: 0 }, { x: 4.5, y: 3.5, z: 0 }, { radius: v }),
  'planPath movement': (g, v) => planPath(g, { x: 0.5, y: 0.5, z: 0 }, { x: 4.5, y: 3.5, z: 0 }, { movement: v }),
  'randomPoint radius': (g, v) => randomPoint(g, { x: 2, y: 2, z: 0 }, v),
  'randomPoint center': (g, v) => randomPoint(g, v, 2),
  'randomPoint options': (g, v) => randomPoint(g, { x: 2, y: 2, z: 0 }, 2, v),
};

test('misuse of public functions: a result or a TilenavError, never a TypeError or RangeError, never a hang', { timeout: 120_000 }, () => {
  const wrong: string[] = [];
  for (const [name, call] of Object.entries(CALLS)) {
    for (const v of BAD) {
      const g = new NavGrid(6, 5);
      g.fillRect(2, 1, 1, 3, { walkable: false });
      const t0 = performance.now();
      try {
        call(g, v);
      } catch (e) {
        if (!(e instanceof TilenavError)) wrong.push(`${name} (${describeValue(v)}): ${(e as Error)?.name}: ${(e as Error)?.message}`);
      }
      const ms = performance.now() - t0;
      if (ms > 2000) wrong.push(`${name} (${describeValue(v)}): took ${ms.toFixed(0)} ms`);
    }
  }
  assert.deepEqual(wrong, []);
});

test('misuse the brief names: each a TilenavError naming the argument', () => {
  const g = new NavGrid(6, 5);
  const names = (fn: () => unknown, name: string) =>
    assert.throws(fn, (e: unknown) => e instanceof TilenavError && e.message.includes(name), name);
  names(() => g.fillRect(0, 0, 1, 1, null as never), 'values');
  names(() => findPath(g, 0, 0, 1, 1, null as never), 'options');
  names(() => new Pathfinder(null as never), 'grid');
  names(() => new NavGrid(2, 2, { storageOffset: -4 }), 'storageOffset');
  names(() => new NavGrid(2, 2, { projection: 'iso' as never }), 'projection');
  names(() => new NavGrid(2, 2, { terrain: 'x' as never }), 'terrain');
  names(() => smoothPath(g, [0, 1, 999]), 'cells');
  names(() => smoothPath(g, [0, -1]), 'cells');
});

function describeValue(v: unknown): string {
  return typeof v === 'number' || v === null || v === undefined ? String(v) : JSON.stringify(v);
}
