/**
 * Crowd benchmark (`npm run bench crowd`): local avoidance in scenarios, each with avoidance
 * 'orca', 'orca' without push-apart (avoidance alone) and 'none' (the default: push-apart alone).
 * Not a timed test: it prints what happened.
 *
 * - Circle swap: units of radius 0.5 cell evenly on a circle, each ordered to the opposite point,
 *   all through the middle at once (250 units on a circle of 66.7 cells, the classic scene of
 *   250 agents of radius 1.5 on a circle of 200 scaled to cells; and 1,000 units on a circle
 *   four times as long, spaced the same).
 * - Crossing groups: two groups of 200 at the two ends of a corridor 12 cells wide and 160 long,
 *   ordered (moveGroup: a flow field each, formation slots) to each other's end at once.
 *
 * Columns: units standing at the end without having given up (of all), the closest approach of two
 * centres over the whole run as a part of the sum of their radii (after push-apart, as drawn),
 * simulated seconds until every unit stood, and the wall-clock ms per fixed step (median, p95).
 * Walk speed 4 cells per second, fixed step 1/60 s. The machine is shared: its load is printed.
 */
import { cpus, loadavg } from 'node:os';
import { NavGrid } from '../src/index.js';
import { NavigationSystem, AGENT_BLOCKED, AGENT_UNREACHABLE, type NavigationSystemOptions } from '../src/agents/index.js';

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const p95 = (v: number[]) => [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor(v.length * 0.95))];
const load = () => `load average ${loadavg().map((l) => l.toFixed(2)).join(', ')} on ${cpus().length} cores`;

/** A scene: the system with its units placed and ordered. */
interface Scene {
  sys: NavigationSystem;
  ids: number[];
}

/** Steps the scene until every unit stands or `budget` steps; what the table shows. */
function measure(name: string, variant: string, scene: Scene, budget: number): Record<string, string | number> {
  const { sys, ids } = scene;
  const stepMs: number[] = [];
  let steps = 0;
  for (; steps < budget && ids.some((i) => sys.isMoving(i)); steps++) {
    const t = performance.now();
    sys.step();
    stepMs.push(performance.now() - t);
  }
  const arrived = ids.filter((i) => !sys.isMoving(i) && (sys.flags[i] & (AGENT_BLOCKED | AGENT_UNREACHABLE)) === 0).length;
  // Every unit has radius 0.5: the sum of two radii is 1 cell.
  const closest = 1 - sys.stats.maxOverlap;
  return {
    scene: name,
    avoidance: variant,
    arrived: `${arrived} / ${ids.length}`,
    'closest / radii': +closest.toFixed(3),
    'finish s': steps < budget ? +(steps * sys.options.fixedStep).toFixed(1) : `> ${(budget * sys.options.fixedStep).toFixed(0)}`,
    'median ms/step': +median(stepMs).toFixed(3),
    'p95 ms/step': +p95(stepMs).toFixed(3),
    replans: sys.stats.replans,
  };
}

/** n units of radius 0.5 evenly on a circle of `radius` cells round the middle of an open grid, each ordered to the opposite point. */
function circle(n: number, radius: number, options: NavigationSystemOptions): Scene {
  const size = Math.ceil(2 * radius) + 20;
  const sys = new NavigationSystem(new NavGrid(size, size), { ...options, measureOverlap: true });
  const c = size / 2;
  const ids: number[] = [];
  for (let k = 0; k < n; k++) {
    const a = (2 * Math.PI * k) / n;
    ids.push(sys.addAgent({ x: c + radius * Math.cos(a), y: c + radius * Math.sin(a), radius: 0.5 }));
  }
  ids.forEach((id, k) => {
    const a = (2 * Math.PI * k) / n;
    sys.moveTo(id, c - radius * Math.cos(a), c - radius * Math.sin(a));
  });
  return { sys, ids };
}

/** Two groups of `perGroup` at the ends of a corridor `width` cells wide and `length` long (walls above and below), each ordered to the other's end. */
function crossing(perGroup: number, width: number, length: number, options: NavigationSystemOptions): Scene {
  const grid = new NavGrid(length, width + 2);
  grid.fillRect(0, 0, length, 1, { walkable: false });
  grid.fillRect(0, width + 1, length, 1, { walkable: false });
  const sys = new NavigationSystem(grid, { ...options, measureOverlap: true });
  // Ranks across the corridor, 1.1 cells apart, filled from the ends inward.
  const across = Math.floor((width - 1) / 1.1) + 1;
  const left: number[] = [];
  const right: number[] = [];
  for (let k = 0; k < perGroup; k++) {
    const y = 1 + (k % across) * 1.1;
    const dx = 1 + Math.floor(k / across) * 1.1;
    left.push(sys.addAgent({ x: dx, y, radius: 0.5 }));
    right.push(sys.addAgent({ x: length - 1 - dx, y, radius: 0.5 }));
  }
  const mid = (width + 1) / 2;
  sys.moveGroup(left, length - 14, mid);
  sys.moveGroup(right, 13, mid);
  return { sys, ids: [...left, ...right] };
}

console.log(`crowd benchmark: ${load()}`);
const variants: [string, NavigationSystemOptions][] = [
  ['orca', { avoidance: 'orca' }],
  ['orca, no push-apart', { avoidance: 'orca', collisionIterations: 0 }],
  ['none', { avoidance: 'none' }],
];
const rows: Record<string, string | number>[] = [];
for (const [variant, options] of variants) {
  rows.push(measure('circle swap, 250 units', variant, circle(250, 200 / 3, options), 12_000));
}
for (const [variant, options] of variants) {
  rows.push(measure('crossing groups, 2 x 200, corridor 12 wide', variant, crossing(200, 12, 160, options), 12_000));
}
for (const [variant, options] of variants.filter(([v]) => v !== 'orca, no push-apart')) {
  rows.push(measure('circle swap, 1,000 units', variant, circle(1000, 800 / 3, options), 30_000));
}
console.table(rows);
console.log(`crowd benchmark done: ${load()}`);
