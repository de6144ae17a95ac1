import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NavGrid } from '../src/index.js';
import { createNavWorld, spawnUnit, orderMove, navigationSystem, Position, MoveIntent } from '../examples/ecs-bitecs.js';

test('bitECS adapter example: intents in, positions and arrival out', () => {
  const grid = new NavGrid(24, 10);
  grid.fillRect(12, 0, 1, 8, { walkable: false });
  const world = createNavWorld(grid);
  const a = spawnUnit(world, 2, 2);
  const b = spawnUnit(world, 2, 6);
  orderMove(a, 20, 2);
  orderMove(b, 20, 6);
  for (let f = 0; f < 900 && (MoveIntent.hasIntent[a] || MoveIntent.hasIntent[b]); f++) navigationSystem(world, 1 / 60);
  assert.equal(MoveIntent.hasIntent[a], 0);
  assert.equal(MoveIntent.hasIntent[b], 0);
  assert.ok(Math.hypot(Position.x[a] - 20, Position.y[a] - 2) < 0.5, `a at ${Position.x[a]}, ${Position.y[a]}`);
  assert.ok(Math.hypot(Position.x[b] - 20, Position.y[b] - 6) < 0.5);
});
