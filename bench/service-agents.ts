/**
 * Agents planning off the main thread: 1,000 agents ordered at once on a seeded 1024 x 1024 rooms
 * and corridors map, each to its own target. Reports the longest main-thread frame (one fixed
 * step, and separately the event-loop turn between frames where the service's answers arrive)
 * with the PathService planner against the synchronous one. Target with the service: no frame
 * above 16 ms. `npm run bench service-agents`; TILENAV_AGENTS=N for another count.
 */
import { availableParallelism, loadavg } from 'node:os';
import { NavGrid } from '../src/index.js';
import { NavigationSystem } from '../src/agents/index.js';
import { createPathService } from '../src/service/node.js';
import { roomsAndCorridors, rng } from './worldgen.js';

const AGENTS = Number(process.env.TILENAV_AGENTS ?? 1000);
/** Frames each run lasts (10 s at 60 fps): the first plans, then walking and the replans it causes. */
const FRAMES = Number(process.env.TILENAV_FRAMES ?? 600);

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
  frames: number;
  /** Main-thread milliseconds of each frame's fixed step. */
  stepMs: number[];
  /** Milliseconds of each event-loop turn between frames (answers arriving; idle time included). */
  betweenMs: number[];
  planned: number;
  unreachable: number;
  planMs: number;
  /** The most main-thread planning time in one step. */
  planFrame: number;
}

const turn = () => new Promise<void>((r) => setImmediate(r));

async function run(grid: NavGrid, jobs: Float64Array, service: ReturnType<typeof createPathService> | null, agents = AGENTS, frameCount = FRAMES): Promise<Run> {
  const sys = new NavigationSystem(grid, service !== null ? { service } : {});
  const ids: number[] = [];
  for (let k = 0; k < agents; k++) ids.push(sys.addAgent({ x: jobs[k * 4], y: jobs[k * 4 + 1] }));
  for (let k = 0; k < agents; k++) sys.moveTo(ids[k], jobs[k * 4 + 2], jobs[k * 4 + 3]);
  const stepMs: number[] = [];
  const betweenMs: number[] = [];
  let frames = -1;
  let planFrame = 0;
  // Agents that have had their first plan (a path, or none: unreachable).
  const planned = new Uint8Array(agents);
  let count = 0;
  const waiting = () => {
    for (let k = 0; k < agents; k++) {
      if (planned[k] === 0 && (sys.path(ids[k]) !== null || !sys.isMoving(ids[k]))) {
        planned[k] = 1;
        count++;
      }
    }
    return count < agents;
  };
  for (let f = 0; f < frameCount; f++) {
    const p0 = sys.stats.planMs;
    const t = performance.now();
    sys.step();
    stepMs.push(performance.now() - t);
    planFrame = Math.max(planFrame, sys.stats.planMs - p0);
    if (frames < 0 && !waiting()) frames = f;
    const u = performance.now();
    await turn();
    betweenMs.push(performance.now() - u);
  }
  const unreachable = ids.filter((i) => !sys.isMoving(i) && sys.path(i) === null).length;
  sys.dispose();
  return { planFrame, frames: frames < 0 ? Infinity : frames + 1, stepMs, betweenMs, planned: sys.stats.plans, unreachable, planMs: sys.stats.planMs };
}

const grid = roomsAndCorridors(1024, 1024, 7);
const jobs = orders(grid, AGENTS);
const workers = Math.max(1, availableParallelism() - 1);
const service = createPathService(grid, { workers });
await service.ready();
// Warm-up (untimed): compiled code for both planners and the agents' step.
await run(grid, jobs, service, 100, 60);
await run(grid, jobs, null, 100, 60);
const withService = await run(grid, jobs, service);
await service.close();
const sync = await run(grid, jobs, null);

const row = (name: string, r: Run) => ({
  planner: name,
  'longest step ms': +Math.max(...r.stepMs).toFixed(2),
  'median step ms': +median(r.stepMs).toFixed(3),
  'steps over 16 ms': r.stepMs.filter((t) => t > 16).length,
  'longest turn between frames ms': +Math.max(...r.betweenMs).toFixed(2),
  'frames until every agent had its first plan': r.frames,
  'seconds at 60 fps': +(r.frames / 60).toFixed(1),
  'most planning in one step ms': +r.planFrame.toFixed(2),
  'main-thread planning ms (all frames)': +r.planMs.toFixed(0),
  plans: r.planned,
});
console.log(`agents planning off the main thread: ${AGENTS} agents ordered at once, 1024 x 1024 rooms and corridors (roomsAndCorridors(1024, 1024, 7)); the machine is shared, rerun before quoting`);
console.table([row(`PathService (${workers} worker${workers > 1 ? 's' : ''})`, withService), row('synchronous (GridPlanner)', sync)]);
console.log(`${FRAMES} frames each; load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores (wall-clock frames stretch with the load)`);
console.log(`target with the service: no frame above 16 ms; longest: ${Math.max(...withService.stepMs, ...withService.betweenMs).toFixed(2)} ms`);
