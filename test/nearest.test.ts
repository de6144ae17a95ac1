import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NavGrid, Pathfinder, distanceMap, checkPath, continuous, findPath, orthogonal, isometric } from '../src/index.js';
import { nearestWalkable, planPath, ObstacleOverlay, ReachabilityIndex } from '../src/query/index.js';
import { flood } from './helpers-queries.js';
import { gridArb, VARYING_COSTS } from './grids.js';

test('nearestWalkable grows rings, keeps the Euclidean nearest (ties to the lower index), within the radius', () => {
  const g = new NavGrid(9, 7);
  g.fillRect(2, 1, 5, 5, { walkable: false });
  // (4,0), (1,3), (7,3), (4,6) are all 3 away; (4,0) has the lowest index.
  assert.equal(nearestWalkable(g, 4, 3), 4);
  assert.equal(nearestWalkable(g, 4, 3, { radius: 2 }), -1);
  assert.equal(nearestWalkable(g, 3.2, 2), 3);
  assert.equal(nearestWalkable(g, -3, 3), 3 * 9, 'a point off the grid snaps onto it');
  assert.equal(nearestWalkable(g, 0, 0), 0);
});

/** Brute force: the reachable cell nearest (Euclidean, then cheapest path, then lower index) the goal. */
function bruteNearest(g: NavGrid, start: number, gx: number, gy: number): number {
  let best = -1;
  let bestD = Infinity;
  const dist = distanceMap(g, [start]);
  for (const c of [...flood(g, start)].sort((a, b) => a - b)) {
    const d = (g.xOf(c) - gx) ** 2 + (g.yOf(c) - gy) ** 2;
    if (d < bestD || (d === bestD && dist[c] < dist[best] - 1e-9)) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

test('property: nearest-reachable equals the brute-force answer on random grids', () => {
  fc.assert(
    fc.property(gridArb({ costs: VARYING_COSTS }), fc.nat(), fc.nat(), ({ grid: g }, a, b) => {
      const s = a % g.size;
      const goal = b % g.size;
      if (g.layers[0].walkable[s] !== 1) return;
      const r = findPath(g, g.xOf(s), g.yOf(s), g.xOf(goal), g.yOf(goal), { nearest: true });
      const expect = bruteNearest(g, s, g.xOf(goal), g.yOf(goal));
      const dist = distanceMap(g, [s]);
      if (expect === goal) {
        assert.equal(r.status, 'found');
      } else if (expect === s) {
        // Already as near as it gets: partial, one cell, the start.
        assert.equal(r.status, 'partial');
        assert.deepEqual(Array.from(r.cells), [s]);
        assert.equal(r.reached, s);
        assert.equal(r.cost, 0);
      } else {
        assert.equal(r.status, 'partial');
        assert.equal(r.reached, expect);
        assert.equal(r.cells[r.cells.length - 1], expect);
      }
      if (r.cells.length > 0) {
        const check = checkPath(g, r.cells);
        assert.ok(check.valid, check.problem);
        assert.ok(Math.abs(r.cost - dist[r.reached]) < 1e-6, 'the path to the reached cell is optimal');
      }
    }),
    { numRuns: 400 },
  );
});

test('cascade: obstacles avoided when possible, ignored when they close the only way', () => {
  const g = new NavGrid(9, 5);
  g.fillRect(4, 0, 1, 5, { walkable: false });
  g.setWalkable(4, 2, true); // a one-cell doorway
  // An NPC standing in the doorway (orthogonal projection: world = cell centre + 0.5).
  const npc = { x: 4.5, y: 2.5, radius: 0.5 };
  const r = findPath(g, 0, 2, 8, 2, { nearest: true, obstacles: [npc] });
  assert.equal(r.status, 'found');
  assert.equal(r.avoided, false, 'went through the NPC: no other way');
  g.setWalkable(4, 4, true); // a second doorway
  const r2 = findPath(g, 0, 2, 8, 2, { nearest: true, obstacles: [npc] });
  assert.equal(r2.status, 'found');
  assert.equal(r2.avoided, true);
  assert.ok(!Array.from(r2.cells).includes(2 * 9 + 4), 'kept off the NPC cell');
  // Far from the segment: ignored (influence 6 by default, 0.5 here).
  const far = findPath(g, 0, 2, 8, 2, { nearest: true, obstacles: [npc], obstacleOptions: { influence: 0 } });
  assert.equal(far.avoided, true);
  assert.equal(findPath(g, 0, 2, 8, 2).cost, r.cost, 'the static grid was never stamped');
});

test('the overlay stamps a disc of radius x fraction and restores it between queries', () => {
  const g = new NavGrid(11, 11);
  const o = new ObstacleOverlay(g);
  const v = o.stamp([{ x: 5.5, y: 5.5, radius: 2 / 0.6 }], 0, 0, 10, 10);
  let blocked = 0;
  for (let y = 0; y < 11; y++) for (let x = 0; x < 11; x++) if (v.pass[(y + 1) * 13 + x + 1] === 0) blocked++;
  assert.equal(blocked, 13, 'cells with centre within 2 of (5,5)');
  const v2 = o.stamp([], 0, 0, 10, 10);
  assert.equal(v2.pass[6 * 13 + 6], 1);
  assert.throws(() => o.stamp([{ x: NaN, y: 0, radius: 1 }], 0, 0, 1, 1), /obstacle/);
});

test('planPath: snaps a start in a wall, smooths, world waypoints with floorY and the exact end', () => {
  const g = new NavGrid(20, 10, { projection: continuous(0.4, 0, 0, 2) });
  g.fillRect(0, 0, 20, 1, { walkable: false });
  const start = { x: 1.1, y: 2, z: 0.1 }; // in the wall row: snaps to (2, 1)
  const end = { x: 7.5, y: 2, z: 3.3 };
  const p = planPath(g, start, end);
  assert.equal(p.status, 'found');
  assert.deepEqual(p.waypoints[p.waypoints.length - 1], end);
  for (const w of p.waypoints) assert.equal(w.y, 2);
  // A goal in a sealed room: partial, ends near the room.
  g.fillRect(15, 3, 5, 1, { walkable: false });
  g.fillRect(15, 3, 1, 7, { walkable: false });
  const q = planPath(g, start, { x: 7.5, y: 2, z: 3.3 });
  assert.equal(q.status, 'partial');
  assert.ok(q.waypoints.length >= 1);
  const last = q.waypoints[q.waypoints.length - 1];
  assert.ok(last.x < 15 * 0.4 + 1e-9, `stops outside the room, x ${last.x}`);
});

test('nearestWalkable and planPath from far outside the grid with a huge radius: the grid cell nearest, at once', () => {
  const g = new NavGrid(40, 30);
  g.fillRect(35, 0, 5, 30, { walkable: false });
  // Brute force over the grid's cells, as the rings must agree with it.
  const brute = (x: number, y: number, radius: number) => {
    let best = -1;
    let bestD = Infinity;
    for (let cy = 0; cy < 30; cy++) {
      for (let cx = 0; cx < 40; cx++) {
        const d = (cx - x) ** 2 + (cy - y) ** 2;
        if (g.isWalkable(cx, cy) && d <= radius * radius && d < bestD) [best, bestD] = [cy * 40 + cx, d];
      }
    }
    return best;
  };
  for (const [x, y, r] of [[1e6, 0, 1e5], [1e6, 3, 2e6], [-1e9, 1e9, 1e12], [60, 10, 30], [20, -50, 60.5], [-3.4, 12.6, 8]]) {
    assert.equal(nearestWalkable(g, x, y, { radius: r }), brute(x, y, r), `(${x}, ${y}) radius ${r}`);
  }
  const far = planPath(g, { x: 1e6, y: 4, z: 0 }, { x: 5, y: 5, z: 0 }, { snapRadius: 1e7 });
  assert.equal(far.status, 'found');
  assert.equal(far.cells[0] % 40, 34, 'snapped to the column nearest the far start');
});

test('planPath and nearest findPath on a kept Pathfinder answer as on the grid\'s own; one of another grid is refused', () => {
  const g = new NavGrid(30, 20, { projection: continuous(1, 0, 0, 0), layers: 2 });
  g.fillRect(12, 0, 2, 16, { walkable: false });
  const pathfinder = new Pathfinder(g);
  const obstacles = [{ x: 6.5, y: 0, z: 10.5, radius: 1.5 }, { x: 20.5, y: 0, z: 4.5, radius: 1 }];
  for (const [a, b] of [[{ x: 2.5, y: 0, z: 10.5 }, { x: 27.5, y: 0, z: 3.5 }], [{ x: 27.5, y: 0, z: 18.5 }, { x: 1.5, y: 0, z: 1.5 }]]) {
    const kept = planPath(g, a, b, { obstacles, pathfinder });
    const fresh = planPath(g, a, b, { obstacles });
    assert.equal(kept.status, 'found');
    assert.ok(kept.avoided);
    assert.equal(kept.cost, fresh.cost);
    assert.deepEqual(Array.from(kept.cells), Array.from(fresh.cells));
  }
  const near = pathfinder.findPath(1, 1, 12, 5, { nearest: true, obstacles });
  assert.equal(near.status, 'partial');
  assert.equal(near.cost, findPath(g, 1, 1, 12, 5, { nearest: true, obstacles }).cost);
  // Obstacles on another layer stamp that layer's view: the wall of layer 0 is not there.
  const sky = planPath(g, { x: 2.5, y: 0, z: 10.5 }, { x: 27.5, y: 0, z: 3.5 }, { obstacles, pathfinder, layer: 1 });
  assert.equal(sky.status, 'found');
  assert.ok(sky.cost < planPath(g, { x: 2.5, y: 0, z: 10.5 }, { x: 27.5, y: 0, z: 3.5 }, { obstacles, pathfinder }).cost);
  const other = new NavGrid(30, 20);
  assert.throws(() => planPath(g, { x: 1, y: 0, z: 1 }, { x: 5, y: 0, z: 5 }, { pathfinder: new Pathfinder(other) }), /same grid/);
});

test('nearest stays at a start exactly as near the goal as any reachable cell: partial, one cell', () => {
  const g = new NavGrid(7, 5);
  g.fillRect(0, 2, 7, 1, { walkable: false });
  g.setWalkable(3, 1, false);
  const start = 1 * 7 + 4;
  for (const options of [{ nearest: true }, { nearest: true, reachabilityCheck: false }, { nearest: true, algorithm: 'astar' as const }]) {
    const r = findPath(g, 4, 1, 3, 4, options);
    assert.equal(r.status, 'partial', 'the start (4,1) is as near (3,4) as (2,1): it stays');
    assert.deepEqual(Array.from(r.cells), [start]);
    assert.equal(r.reached, start);
    assert.equal(r.cost, 0);
  }
  // The reachability index's nearest reachable cell is as near as the start, no nearer.
  const index = new ReachabilityIndex(g);
  const cell = index.nearestReachableCell(start, 3, 4);
  assert.equal((g.xOf(cell) - 3) ** 2 + (g.yOf(cell) - 4) ** 2, (4 - 3) ** 2 + (1 - 4) ** 2);
});

test('ObstacleOverlay: every cell whose centre lies within the stamped radius is blocked, on tiles wider than tall too', () => {
  for (const projection of [orthogonal(1), orthogonal(32, 16), orthogonal(8, 20, 3, -5), isometric(64, 32), continuous(2)]) {
    const g = new NavGrid(30, 24, { projection });
    const overlay = new ObstacleOverlay(g);
    const w = projection.cellToWorld(14.3, 11.6);
    const obstacle = { x: w.x, y: w.y, z: w.z, radius: 5 * Math.hypot(projection.cellToWorld(1, 1).x - projection.cellToWorld(0, 0).x, projection.cellToWorld(1, 1).y - projection.cellToWorld(0, 0).y) };
    const view = overlay.stamp([obstacle], 0, 0, 29, 23, { radiusFraction: 1, influence: Infinity });
    const stride = g.width + 2;
    const plane = (p: { x: number; y: number; z: number }) => (projection.spec.kind === 'continuous' ? [p.x, p.z] : [p.x, p.y]);
    const [ox, oy] = plane(w);
    const own = projection.worldToCell(ox, oy);
    let blocked = 0;
    for (let y = 0; y < g.height; y++) {
      for (let x = 0; x < g.width; x++) {
        const [cx, cy] = plane(projection.cellToWorld(x, y));
        const inside = Math.hypot(cx - ox, cy - oy) <= obstacle.radius;
        // The cell holding the obstacle's centre is blocked whatever the radius.
        const held = x === own.x && y === own.y;
        assert.equal(view.pass[(y + 1) * stride + x + 1] === 0, inside || held, `${projection.spec.kind} cell (${x}, ${y})`);
        if (inside) blocked++;
      }
    }
    assert.ok(blocked > 10, `${projection.spec.kind}: ${blocked} cells`);
  }
});
