/**
 * Shortcuts a grid change opened: GridChange.opened, pathsAffectedBy's `shortcuts` option and
 * the agents' `shortcutFactor`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NavGrid, TilenavError, findPath, pathsAffectedBy, shortcutPaths, FLAG_NO_EXIT_EAST, type GridChange } from '../src/index.js';
import { NavigationSystem } from '../src/agents/index.js';

/**
 * 40 x 20: a wall down x = 20 from the top to y = 18, open only at the bottom row, so the way
 * from (10, 2) to (30, 2) walks down and round (about 43) instead of across (20).
 */
function detour(): NavGrid {
  const g = new NavGrid(40, 20);
  g.fillRect(20, 0, 1, 19, { walkable: false });
  // A lone wall cell in the far corner, at least 58 cells' walk from (10, 2) round to (30, 2).
  g.setWalkable(0, 19, false);
  return g;
}

function changes(g: NavGrid): GridChange[] {
  const list: GridChange[] = [];
  g.onChange((c) => list.push(c));
  return list;
}

test('GridChange.opened: true when a cell became walkable, cheaper or lost a one-way flag; false for walls, dearer cells, added flags', () => {
  const g = new NavGrid(6, 6);
  const events = changes(g);
  const opened = (write: () => void) => {
    events.length = 0;
    write();
    assert.equal(events.length, 1);
    return events[0].opened;
  };
  assert.equal(opened(() => g.setWalkable(1, 1, false)), false, 'a wall');
  assert.equal(opened(() => g.setWalkable(1, 1, true)), true, 'the wall removed');
  assert.equal(opened(() => g.setWalkable(1, 1, true)), false, 'already walkable');
  assert.equal(opened(() => g.setCost(2, 2, 3)), false, 'dearer');
  assert.equal(opened(() => g.setCost(2, 2, 2)), true, 'cheaper');
  assert.equal(opened(() => g.setFlags(3, 3, FLAG_NO_EXIT_EAST)), false, 'a one-way flag added');
  assert.equal(opened(() => g.setFlags(3, 3, 0)), true, 'the one-way flag cleared');
  assert.equal(opened(() => g.fillRect(0, 0, 2, 2, { walkable: false, cost: 0.5 })), false, 'cheaper but blocked');
  assert.equal(opened(() => g.batch(() => { g.setWalkable(4, 4, false); g.setWalkable(0, 0, true); })), true, 'a batch that opens one cell');
  assert.equal(opened(() => g.batch(() => { g.setWalkable(4, 5, false); g.setCost(5, 5, 9); })), false, 'a batch of walls and dearer cells');
  assert.equal(opened(() => g.refresh()), true, 'refresh cannot tell');
});

test('shortcuts: a wall removed in a long detour flags the path; one removed far away does not; walls alone never do', async () => {
  const g = detour();
  const events = changes(g);
  const cells = findPath(g, 10, 2, 30, 2);
  assert.ok(cells.cost > 40, `the detour costs ${cells.cost}`);
  const points = { points: Array.from(cells.cells, (c) => [g.xOf(c), g.yOf(c)]).flat() };
  const shortcuts = { grid: g, factor: 1.2 };
  // Far away: no route through the corner cell is shorter; the bound alone rules it out.
  g.setWalkable(0, 19, true);
  assert.equal(events.at(-1)!.opened, true);
  assert.deepEqual(pathsAffectedBy(events.at(-1)!, [cells, points], 40, { shortcuts }), []);
  // Walls alone: an event that opened nothing flags nothing.
  g.fillRect(1, 10, 2, 2, { walkable: false });
  assert.deepEqual(pathsAffectedBy(events.at(-1)!, [cells, points], 40, { shortcuts }), []);
  // A gap in the wall beside the way's start: the straight route is less than half the detour.
  g.setWalkable(20, 2, true);
  const gap = events.at(-1)!;
  assert.deepEqual(pathsAffectedBy(gap, [cells, points], 40), [], 'without the option the gap touches neither path');
  assert.deepEqual(pathsAffectedBy(gap, [cells, points], 40, { shortcuts }), [0, 1]);
  assert.deepEqual(shortcutPaths(gap, [cells, points], shortcuts), [0, 1]);
  // A Pathfinder of the caller's is reused; one over another grid is refused by name.
  const { Pathfinder } = await import('../src/index.js');
  const finder = new Pathfinder(g);
  assert.deepEqual(shortcutPaths(gap, [cells, points], { ...shortcuts, pathfinder: finder }), [0, 1]);
  assert.throws(() => shortcutPaths(gap, [cells], { ...shortcuts, pathfinder: new Pathfinder(new NavGrid(40, 20)) }), /shortcuts\.pathfinder: expected a Pathfinder over shortcuts\.grid/);
  // A factor past the detour's ratio (about 2.2) flags nothing.
  assert.deepEqual(shortcutPaths(gap, [cells, points], { grid: g, factor: 2.5 }), []);
  // A dearer cell beside the gap opens nothing: the event says so, though its rectangle has a
  // walkable cell that a route through would use (plain rectangles cannot tell).
  g.setCost(21, 2, 3);
  const dearer = events.at(-1)!;
  assert.equal(dearer.opened, false);
  assert.deepEqual(shortcutPaths(dearer, [cells, points], shortcuts), []);
  assert.deepEqual(shortcutPaths(dearer.rects, [cells, points], shortcuts), [0, 1]);
  // A confirming search that runs out flags nothing.
  assert.deepEqual(shortcutPaths(gap, [cells], { grid: g, factor: 1.2, maxIterations: 2 }), []);
});

test('shortcuts: a path already touched by the change is listed once; the result stays in order', () => {
  const g = detour();
  const events = changes(g);
  const a = findPath(g, 10, 2, 30, 2);
  const b = { points: [19, 7, 21, 7] };
  g.setWalkable(20, 7, true);
  assert.deepEqual(pathsAffectedBy(events.at(-1)!, [b, a, b], 40, { shortcuts: { grid: g, factor: 1.2 } }), [0, 1, 2]);
});

test('shortcuts: NaN and other bad option values are refused naming the option', () => {
  const g = detour();
  const rect = { x: 20, y: 2, width: 1, height: 1 };
  const paths = [{ points: [10, 2, 30, 2] }];
  const bad: [unknown, RegExp][] = [
    [{ grid: g, factor: NaN }, /shortcuts\.factor: expected a finite number >= 1/],
    [{ grid: g, factor: 0.5 }, /shortcuts\.factor/],
    [{ grid: g, factor: Infinity }, /shortcuts\.factor/],
    [{ grid: g, factor: '1.2' }, /shortcuts\.factor/],
    [{ grid: g, factor: 1.2, maxIterations: NaN }, /shortcuts\.maxIterations: expected a whole number >= 1 or Infinity/],
    [{ grid: g, factor: 1.2, maxIterations: 0 }, /shortcuts\.maxIterations/],
    [{ grid: g, factor: 1.2, maxIterations: 2.5 }, /shortcuts\.maxIterations/],
    [{ factor: 1.2 }, /shortcuts\.grid/],
    [{ grid: g, factor: 1.2, layer: 3 }, /layer 3/],
    [{ grid: g, factor: 1.2, movement: 'diagonal' }, /movement "diagonal"/],
    [null, /shortcuts: expected \{ grid, factor \}/],
    [{ grid: new NavGrid(41, 20), factor: 1.2 }, /shortcuts\.grid: expected the grid the paths run on, 40 cells wide/],
  ];
  for (const [shortcuts, pattern] of bad) {
    assert.throws(() => pathsAffectedBy(rect, paths, 40, { shortcuts: shortcuts as never }), (e: unknown) => e instanceof TilenavError && pattern.test(e.message), JSON.stringify(shortcuts));
  }
  assert.throws(() => shortcutPaths([rect], paths, { grid: g, factor: NaN }), /shortcuts\.factor/);
  assert.throws(() => shortcutPaths(rect as never, paths, { grid: g, factor: 1.2 }), /change: expected a list of rectangles or a grid change event/);
  assert.throws(() => shortcutPaths([rect], null as never, { grid: g, factor: 1.2 }), /paths: expected an array/);
});

/** An agent walking the detour of {@link detour}, and the system, stepped until it is on its way. */
function walker(options: ConstructorParameters<typeof NavigationSystem>[1] = {}) {
  const g = detour();
  const sys = new NavigationSystem(g, options);
  const id = sys.addAgent({ x: 10, y: 2 });
  sys.moveTo(id, 30, 2);
  sys.step();
  return { g, sys, id };
}

test('agents: with shortcutFactor a gap opened in the detour replans the walker; without it, or far away, it keeps its path', () => {
  const on = walker({ shortcutFactor: 1.2 });
  assert.equal(on.sys.replanCount[on.id], 0);
  on.g.setWalkable(0, 19, true);
  on.sys.step();
  assert.equal(on.sys.replanCount[on.id], 0, 'a wall removed far away');
  on.g.setWalkable(20, 2, true);
  on.sys.step();
  assert.equal(on.sys.replanCount[on.id], 1, 'the gap opened a shortcut');
  const path = on.sys.path(on.id)!;
  assert.ok(path.length <= 8, `the new path goes through the gap: ${Array.from(path)}`);
  const off = walker();
  off.g.setWalkable(20, 2, true);
  off.sys.step();
  assert.equal(off.sys.replanCount[off.id], 0, 'off by default');
  const walls = walker({ shortcutFactor: 1.2 });
  walls.g.fillRect(1, 10, 2, 2, { walkable: false });
  walls.sys.step();
  assert.equal(walls.sys.replanCount[walls.id], 0, 'walls never open a shortcut');
});

test('agents: shortcutFactor and shortcutSearchLimit refuse NaN and out-of-range values by name', () => {
  const g = new NavGrid(4, 4);
  for (const [options, name] of [[{ shortcutFactor: NaN }, 'shortcutFactor'], [{ shortcutFactor: 0.5 }, 'shortcutFactor'], [{ shortcutFactor: -1 }, 'shortcutFactor'], [{ shortcutSearchLimit: 0 }, 'shortcutSearchLimit'], [{ shortcutSearchLimit: 2.5 }, 'shortcutSearchLimit'], [{ shortcutSearchLimit: NaN }, 'shortcutSearchLimit']] as const) {
    assert.throws(() => new NavigationSystem(g, options), (e: unknown) => e instanceof TilenavError && e.element === name, JSON.stringify(options));
  }
  assert.equal(new NavigationSystem(g, { shortcutFactor: 1 }).count, 0);
});
