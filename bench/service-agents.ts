/**
 * A thousand units ordered at once on a seeded 1024 x 1024 rooms and corridors map
 * (roomsAndCorridors(1024, 1024, 7)): each to its own target, and all as one group to one target,
 * with the synchronous planner and through the PathService, stepped until every unit stands.
 * Reports the steps until the last unit started moving, the longest and median main-thread step
 * (the fixed step; with the service also the event-loop turn between frames where its answers
 * arrive), steps over 16 ms, replans per 100 steps, how many arrived, and how much longer than its
 * exact path the walk was for units that walked straight at their target before their plan came.
 * With the service a group order's flow field is built in a worker (service.flowField, as far as
 * the units' cells) and installed in the grid's cache; the table says how long after the order it
 * came, and in how many steps (the units walk straight at their slots meanwhile).
 * Targets: every unit moving within 2 steps; no step over 16 ms, median under 4 ms; the group
 * order's call under 16 ms the first time in a process; all arrive.
 * `npm run bench service-agents`; TILENAV_AGENTS=N for another count, TILENAV_STEPS for the cap,
 * TILENAV_RUNS=group (or each, synchronous, PathService) for some of the runs.
 */
import { availableParallelism, loadavg } from 'node:os';
import { NavGrid } from '../src/index.js';
import { NavigationSystem, GridPlanner, flowFieldCache, AGENT_BLOCKED, AGENT_UNREACHABLE } from '../src/agents/index.js';
import { createPathService } from '../src/service/node.js';
import { roomsAndCorridors, rng } from './worldgen.js';

const AGENTS = Number(process.env.TILENAV_AGENTS ?? 1000);
/** At most this many steps per run (the longest walks are about 3,000 cells: 750 s at 4 cells a second). */
const MAX_STEPS = Number(process.env.TILENAV_STEPS ?? 60_000);

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

/** Walkable starts and targets, the same every run. */
function orders(grid: NavGrid, n: number): Float64Array {
  const rand = rng(2024);
  const out = new Float64Array(n * 4);
  const pick = (): [number, number] => {
    for (;;) {
      const x = Math.floor(rand() * grid.width);
      const y = Math.floor(rand() * grid.height);
      if (grid.isWalkable(x, y)) return [x, y];
    }
  };
  for (let k = 0; k < n; k++) out.set([...pick(), ...pick()], k * 4);
  return out;
}

interface Run {
  /** Main-thread milliseconds of each fixed step (wall clock: a loaded machine stretches them). */
  stepMs: number[];
  /** CPU milliseconds of the process during each step (the service's workers' included). */
  stepCpuMs: number[];
  /** Milliseconds of each event-loop turn between steps (the service's answers arriving; idle time included). */
  betweenMs: number[];
  /** Milliseconds of the order call(s). */
  orderMs: number;
  /** Steps until the last unit had moved (or stood with its order over). */
  startSteps: number;
  steps: number;
  replans: number;
  arrived: number;
  blocked: number;
  unreachable: number;
  /** Per unit: walked length, and whether it walked before its first plan came. */
  walked: Float64Array;
  coarse: Uint8Array;
  maxStepPlanWork: number;
  /** With the service: ms from the order until the workers' field was installed, and the steps run by then (-1: none came). */
  fieldMs: number;
  fieldSteps: number;
}

const turn = () => new Promise<void>((r) => setImmediate(r));

async function run(grid: NavGrid, jobs: Float64Array, group: boolean, service: ReturnType<typeof createPathService> | null, agents = AGENTS, maxSteps = MAX_STEPS): Promise<Run> {
  // Each run starts without the fields an earlier run left in the grid's cache (a group order to
  // the same point would find its field built already).
  flowFieldCache(grid).clear();
  const sys = new NavigationSystem(grid, service !== null ? { service } : {});
  sys.prepare();
  const ids: number[] = [];
  for (let k = 0; k < agents; k++) ids.push(sys.addAgent({ x: jobs[k * 4], y: jobs[k * 4 + 1] }));
  const t0 = performance.now();
  if (group) sys.moveGroup(ids, jobs[2], jobs[3]);
  else for (let k = 0; k < agents; k++) sys.moveTo(ids[k], jobs[k * 4 + 2], jobs[k * 4 + 3]);
  const orderMs = performance.now() - t0;
  const stepMs: number[] = [];
  const betweenMs: number[] = [];
  const stepCpuMs: number[] = [];
  const started = new Uint8Array(agents);
  const planned = new Uint8Array(agents);
  const coarse = new Uint8Array(agents);
  const walked = new Float64Array(agents);
  let startSteps = -1;
  let steps = 0;
  const fieldsBefore = service?.stats().fields ?? 0;
  let fieldMs = -1;
  let fieldSteps = -1;
  for (let s = 0; s < maxSteps; s++) {
    if (fieldMs < 0 && service !== null && service.stats().fields > fieldsBefore) {
      fieldMs = performance.now() - t0;
      fieldSteps = s;
    }
    const c = process.cpuUsage();
    const t = performance.now();
    sys.step();
    stepMs.push(performance.now() - t);
    const cpu = process.cpuUsage(c);
    stepCpuMs.push((cpu.user + cpu.system) / 1000);
    steps++;
    let moving = 0;
    let waiting = 0;
    for (let k = 0; k < agents; k++) {
      const id = ids[k];
      const dx = sys.x[id] - sys.prevX[id];
      const dy = sys.y[id] - sys.prevY[id];
      const d = Math.sqrt(dx * dx + dy * dy);
      walked[k] += d;
      if (started[k] === 0 && (d > 0 || !sys.isMoving(id))) started[k] = 1;
      if (started[k] === 0) waiting++;
      if (planned[k] === 0 && (sys.path(id) !== null || sys.flowFieldOf(id) !== null || !sys.isMoving(id))) {
        planned[k] = 1;
        // Moved before its first plan (or field) came: it walked straight at its target first.
        if (walked[k] - d > 1e-9) coarse[k] = 1;
      }
      if (sys.isMoving(id)) moving++;
    }
    if (startSteps < 0 && waiting === 0) startSteps = s + 1;
    if (service !== null) {
      const u = performance.now();
      await turn();
      betweenMs.push(performance.now() - u);
    }
    if (moving === 0) break;
  }
  const still = ids.filter((i) => !sys.isMoving(i));
  const blocked = still.filter((i) => (sys.flags[i] & AGENT_BLOCKED) !== 0).length;
  const unreachable = still.filter((i) => (sys.flags[i] & AGENT_UNREACHABLE) !== 0).length;
  const arrived = still.length - blocked - unreachable;
  const out = { stepMs, stepCpuMs, betweenMs, orderMs, startSteps: startSteps < 0 ? Infinity : startSteps, steps, replans: sys.stats.replans, arrived, blocked, unreachable, walked, coarse, maxStepPlanWork: sys.stats.maxStepPlanWork, fieldMs, fieldSteps };
  sys.dispose();
  return out;
}

/** The length of the waypoints the planner gives a unit standing at its start (the exact path it would walk alone). */
function exactLengths(grid: NavGrid, jobs: Float64Array, group: boolean, agents = AGENTS): Float64Array {
  const planner = new GridPlanner(grid);
  const out = new Float64Array(agents);
  for (let k = 0; k < agents; k++) {
    const fx = jobs[k * 4];
    const fy = jobs[k * 4 + 1];
    const tx = group ? jobs[2] : jobs[k * 4 + 2];
    const ty = group ? jobs[3] : jobs[k * 4 + 3];
    const wp = planner.plan({ agent: k, fromX: fx, fromY: fy, toX: tx, toY: ty, obstacles: [], layer: 0, movement: 'octile' });
    let len = 0;
    let px = fx;
    let py = fy;
    for (let i = 0; wp !== null && i < wp.length; i += 2) {
      len += Math.hypot(wp[i] - px, wp[i + 1] - py);
      px = wp[i];
      py = wp[i + 1];
    }
    out[k] = len;
  }
  return out;
}

const grid = roomsAndCorridors(1024, 1024, 7);
const jobs = orders(grid, AGENTS);
const workers = Math.max(1, availableParallelism() - 1);
const service = createPathService(grid, { workers });
await service.ready();
// Warm-up (untimed): compiled code for both planners and the agents' step.
await run(grid, jobs, false, service, 100, 120);
await run(grid, jobs, false, null, 100, 120);
const exact = { each: exactLengths(grid, jobs, false), group: exactLengths(grid, jobs, true) };
const rows: Record<string, string | number>[] = [];
const loads: string[] = [];
for (const [name, group, svc] of [
  ['each to its own target, synchronous', false, null],
  ['each to its own target, PathService', false, service],
  ['one group to one target, synchronous', true, null],
  ['one group to one target, PathService', true, service],
] as const) {
  // TILENAV_RUNS=group (or each, synchronous, PathService): only the runs whose name holds it.
  if (process.env.TILENAV_RUNS !== undefined && !name.includes(process.env.TILENAV_RUNS)) continue;
  const r = await run(grid, jobs, group, svc);
  loads.push(loadavg()[0].toFixed(1));
  const ex = group ? exact.group : exact.each;
  // Extra walk: walked length against the exact path's, over the units that walked straight at their target first.
  let coarseWalked = 0;
  let coarseExact = 0;
  let coarseUnits = 0;
  let restWalked = 0;
  let restExact = 0;
  for (let k = 0; k < r.walked.length; k++) {
    if (r.coarse[k] === 1) {
      coarseWalked += r.walked[k];
      coarseExact += ex[k];
      coarseUnits++;
    } else {
      restWalked += r.walked[k];
      restExact += ex[k];
    }
  }
  const all = svc !== null ? [...r.stepMs, ...r.betweenMs] : r.stepMs;
  rows.push({
    order: name,
    'steps until the last unit moves': r.startSteps,
    'order call ms': +r.orderMs.toFixed(2),
    'longest step ms': +Math.max(...r.stepMs).toFixed(2),
    'median step ms': +median(r.stepMs).toFixed(3),
    'steps over 16 ms': r.stepMs.filter((t) => t > 16).length,
    'CPU ms per step: longest / median / over 16': `${Math.max(...r.stepCpuMs).toFixed(1)} / ${median(r.stepCpuMs).toFixed(2)} / ${r.stepCpuMs.filter((t) => t > 16).length}`,
    ...(svc !== null ? { 'longest turn between steps ms': +Math.max(...r.betweenMs).toFixed(2) } : { 'longest turn between steps ms': '' }),
    'most search work in a step': svc === null ? r.maxStepPlanWork : '',
    'field from a worker: ms after the order (steps)': group && svc !== null ? (r.fieldMs < 0 ? 'none' : `${r.fieldMs.toFixed(1)} (${r.fieldSteps})`) : '',
    'replans per 100 steps': +((100 * r.replans) / r.steps).toFixed(2),
    steps: r.steps,
    'arrived / blocked / unreachable': `${r.arrived} / ${r.blocked} / ${r.unreachable}`,
    'units walking straight first': coarseUnits,
    'their walk vs exact path': coarseUnits > 0 ? `+${((100 * (coarseWalked - coarseExact)) / coarseExact).toFixed(2)} %` : '',
    'others: walk vs exact path': restExact > 0 ? `+${((100 * (restWalked - restExact)) / restExact).toFixed(2)} %` : '',
    'frames over 16 ms (step or turn)': all.filter((t) => t > 16).length,
  });
  // Each run's figures as it ends (a run lasts minutes): the table below repeats them.
  console.log(JSON.stringify({ ...rows[rows.length - 1], load: loads[loads.length - 1] }));
}
await service.close();
console.log(`${AGENTS} units ordered at once, 1024 x 1024 rooms and corridors (roomsAndCorridors(1024, 1024, 7)), default options (planBudget 262144 a step; the service's budgetMs 1), stepped until every unit stands (at most ${MAX_STEPS} steps); the machine is shared, rerun before quoting`);
console.table(rows);
console.log(`load average after each run: ${loads.join(', ')} on ${availableParallelism()} cores; PathService with ${workers} worker${workers > 1 ? 's' : ''}`);
console.log('targets: every unit moving within 2 steps; no step over 16 ms and median under 4 ms; a group order\'s call under 16 ms the first time; all arrive. "walk vs exact path" counts every push of the crowd as walk. Step ms are wall clock (a loaded machine preempts the process mid-step); CPU ms are the process\'s own (with the service, its worker threads\' too).');
