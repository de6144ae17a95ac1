/**
 * Horde benchmark: 10,000 units chasing one moving target across a seeded 1024 x 1024 map
 * (NavigationSystem.chase: shared flow fields in sectors, a budget of cells per step). Reports ms
 * per fixed step (all of it, and the flow fields' part), the chase order's first field, what a
 * whole-map field would cost instead, memory, and how much longer the units' ways are than the
 * cheapest to where the target is now: a unit beyond the freshest field walks a cheapest path to
 * where the target stood a little earlier, then on from there. Target: under 8 ms per step. On a
 * shared machine the wall clock counts the time other processes take the core; the step's
 * process CPU time is printed beside it.
 *
 * With `TILENAV_HORDE_SERVICE=1`, a row more: the rooms map with a PathService (one worker) building
 * the fields that reach every unit, the main thread growing only the field round the target.
 *
 * `TILENAV_HORDE_STEPS=N` for another run length (default 1200 steps, 20 s of simulated time).
 */
import os from 'node:os';
import { Pathfinder, type NavGrid } from '../src/index.js';
import { NavigationSystem, flowFieldCache, flowFieldTo, AGENT_FLOW } from '../src/agents/index.js';
import { createPathService } from '../src/service/node.js';
import type { PathService } from '../src/service/service.js';
import { caves, roomsAndCorridors } from './worldgen.js';

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const p95 = (v: number[]) => [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor(v.length * 0.95))];
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
const STEPS = Number(process.env.TILENAV_HORDE_STEPS ?? 1200);
const UNITS = 10_000;

/** The walkable cell nearest (x, y) along its row (then the next rows). */
function walkableNear(grid: NavGrid, x: number, y: number): [number, number] {
  for (let i = y * grid.width + x; i < grid.size; i++) if (grid.layers[0].walkable[i] === 1) return [grid.xOf(i), grid.yOf(i)];
  throw new Error('no walkable cell');
}

/** The target's route: cheapest paths through the waypoints and back to the first, as cells. */
function route(grid: NavGrid, points: [number, number][]): Int32Array {
  const pf = new Pathfinder(grid);
  const cells: number[] = [];
  for (let k = 0; k < points.length; k++) {
    const [ax, ay] = walkableNear(grid, ...points[k]);
    const [bx, by] = walkableNear(grid, ...points[(k + 1) % points.length]);
    const r = pf.findPath(ax, ay, bx, by);
    if (r.status !== 'found') throw new Error(`no route from ${ax},${ay} to ${bx},${by}`);
    for (const c of r.cells) cells.push(c);
  }
  return Int32Array.from(cells);
}

interface Excess {
  /** Sum over units of (way followed) / (cheapest way to the target's cell now) - 1, weighted by the cheapest way. */
  longer: number;
  /** Share of units following a field to the target's cell now. */
  current: number;
  /** Worst unit: its way followed over the cheapest. */
  worst: number;
  /** Units whose followed field's cost differs from an exact Dijkstra to that field's goal (must be 0). */
  inexact: number;
}

/**
 * Every chasing unit's way to the target's cell now: down the field it follows (exact cost to that
 * field's goal), then the cheapest way from that goal to the target's cell; against the cheapest
 * way from the unit's cell. Exact costs by the library's Dijkstra from each goal (these maps have
 * uniform costs and no one-way cells, so costs from a cell and to it are the same).
 */
function measureExcess(grid: NavGrid, sys: NavigationSystem, ids: number[], goal: number, finder: Pathfinder): Excess {
  const now = finder.distanceMap([goal]);
  const byGoal = new Map<number, Float64Array>();
  let way = 0;
  let best = 0;
  let current = 0;
  let count = 0;
  let worst = 1;
  let inexact = 0;
  for (const id of ids) {
    if ((sys.flags[id] & AGENT_FLOW) === 0) continue;
    const c = Math.round(sys.y[id]) * grid.width + Math.round(sys.x[id]);
    const f = sys.flowFieldOf(id);
    // A cell no field has yet (a worker builds it): the unit walks straight meanwhile.
    if (f === null || now[c] === Infinity || now[c] === 0 || !f.isSettled(c)) continue;
    const followed = f.cost(c);
    let exact = byGoal.get(f.goal);
    if (exact === undefined) byGoal.set(f.goal, (exact = finder.distanceMap([f.goal])));
    if (Math.abs(exact[c] - followed) > 1e-6 * Math.max(1, followed)) inexact++;
    const w = followed + now[f.goal];
    way += w;
    best += now[c];
    worst = Math.max(worst, w / now[c]);
    if (f.goal === goal) current++;
    count++;
  }
  return { longer: way / best - 1, current: current / Math.max(1, count), worst, inexact };
}

async function horde(name: string, grid: NavGrid, budget: number, service: PathService | null = null): Promise<Record<string, string | number>> {
  const sys = new NavigationSystem(grid, { flowFieldBudget: budget, ...(service !== null ? { service } : {}) });
  // The horde: 10,000 units spread over the walkable cells of the map's far quarter.
  const spots: number[] = [];
  for (let y = 600; y < grid.height; y++) for (let x = 600; x < grid.width; x++) if (grid.layers[0].walkable[y * grid.width + x] === 1) spots.push(y * grid.width + x);
  const ids: number[] = [];
  const stride = spots.length / UNITS;
  for (let k = 0; k < UNITS && k * stride < spots.length; k++) {
    const c = spots[Math.floor(k * stride)];
    ids.push(sys.addAgent({ x: grid.xOf(c), y: grid.yOf(c) }));
  }
  // The target walks a loop through the middle of the map at 3 cells per second.
  const path = route(grid, [[450, 300], [560, 520], [300, 560], [250, 330]]);
  let along = 0;
  const at = { x: 0, y: 0 };
  const target = () => {
    const c = path[Math.floor(along) % path.length];
    at.x = grid.xOf(c);
    at.y = grid.yOf(c);
    return at;
  };
  const t0 = performance.now();
  const order = sys.chase(ids, target);
  const orderMs = performance.now() - t0;
  const finder = new Pathfinder(grid);
  const stepMs: number[] = [];
  const cpuMs: number[] = [];
  const fieldMs: number[] = [];
  const samples: Excess[] = [];
  for (let s = 0; s < STEPS; s++) {
    along += 3 / 60;
    const planned = sys.stats.planMs;
    const cpu = process.cpuUsage();
    const t = performance.now();
    sys.step();
    stepMs.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    cpuMs.push((used.user + used.system) / 1000);
    fieldMs.push(sys.stats.planMs - planned);
    // The workers' answers arrive between frames.
    if (service !== null) await new Promise<void>((r) => setImmediate(r));
    if (s % 120 === 119) samples.push(measureExcess(grid, sys, ids, path[Math.floor(along) % path.length], finder));
  }
  const fields = grid.memory().entries.filter((e) => e.name.startsWith('flow field'));
  const meanOf = (k: keyof Excess) => samples.reduce((sum, e) => sum + e[k], 0) / samples.length;
  return {
    map: service === null ? name : `${name}, PathService`,
    units: ids.length - order.unreachable,
    'budget cells/step': budget,
    'order ms (first field)': +orderMs.toFixed(0),
    'median ms/step': +median(stepMs).toFixed(2),
    'median CPU ms/step': +median(cpuMs).toFixed(2),
    'p95 ms/step': +p95(stepMs).toFixed(2),
    'max ms/step': +Math.max(...stepMs).toFixed(1),
    'fields median ms/step': +median(fieldMs).toFixed(2),
    'fields p95 ms/step': +p95(fieldMs).toFixed(2),
    'fields max ms/step': +Math.max(...fieldMs).toFixed(1),
    'fields built': sys.stats.flowFields,
    'fields from workers': service === null ? '' : service.stats().fields,
    'fields MB': +(fields.reduce((b, e) => b + e.bytes, 0) / 1e6).toFixed(1),
    'ways longer %': +(100 * meanOf('longer')).toFixed(3),
    'worst unit x': +Math.max(...samples.map((e) => e.worst)).toFixed(3),
    'on current goal %': +(100 * meanOf('current')).toFixed(1),
    'inexact costs': samples.reduce((n, e) => n + e.inexact, 0),
  };
}

/** One field over the whole map (what rebuilding every goal cell would cost): ms, cells. */
function wholeField(grid: NavGrid): { ms: number; cells: number } {
  const [x, y] = walkableNear(grid, 450, 300);
  flowFieldCache(grid).clear();
  const f = flowFieldTo(grid, x, y);
  const t0 = performance.now();
  while (f.grow(1 << 20) > 0);
  const ms = performance.now() - t0;
  const cells = f.settledCells;
  flowFieldCache(grid).clear();
  return { ms, cells };
}

const gc = (globalThis as { gc?: () => void }).gc;
console.log(`horde benchmark: ${UNITS} units chase one target on 1024 x 1024 maps, ${STEPS} steps (load average before: ${load()})`);
const rows: Record<string, string | number>[] = [];
const whole: Record<string, string | number>[] = [];
for (const [name, make] of [
  ['caves', () => caves(1024, 1024, 7)],
  ['rooms', () => roomsAndCorridors(1024, 1024, 7)],
] as const) {
  const budgets = name === 'caves' ? [8192, 32768] : [8192];
  for (const budget of budgets) {
    gc?.();
    rows.push(await horde(name, make(), budget));
  }
  if (name === 'rooms' && process.env.TILENAV_HORDE_SERVICE === '1') {
    gc?.();
    const grid = make();
    const service = createPathService(grid, { workers: 1 });
    await service.ready();
    rows.push(await horde(name, grid, 8192, service));
    await service.close();
  }
  const grid = make();
  wholeField(grid);
  const w = [wholeField(grid), wholeField(grid), wholeField(grid)];
  whole.push({ map: name, 'whole-map field ms': +median(w.map((r) => r.ms)).toFixed(1), cells: w[0].cells });
}
console.table(rows);
console.table(whole);
console.log(`load average after: ${load()} (2 cores, shared: rerun before quoting)`);
