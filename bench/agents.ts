/**
 * Agents benchmark: ms per fixed step for 1,000 agents on a 256 x 256 map following a
 * flow field (target < 4 ms), and planning time for 50 units ordered across AcrosstheCape
 * (target < 50 ms), flow field against one A* per unit, and bytes allocated per step while walking.
 * Medians over repeated runs.
 */
import { NavGrid } from '../src/index.js';
import { parseMovingAiMap } from '../src/loaders/index.js';
import { readFixture } from '../test/fixtures.js';
import { NavigationSystem, AGENT_BLOCKED, AGENT_UNREACHABLE } from '../src/agents/index.js';

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const p95 = (v: number[]) => [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor(v.length * 0.95))];

/** 256 x 256 with walls made by a fixed LCG: deterministic, so every run sees the same map. */
function arena(): NavGrid {
  const g = new NavGrid(256, 256);
  let s = 12345;
  const rnd = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
  for (let k = 0; k < 120; k++) {
    const x = Math.floor(rnd() * 236) + 10;
    const y = Math.floor(rnd() * 236) + 10;
    const horizontal = rnd() < 0.5;
    g.fillRect(x, y, horizontal ? Math.min(256 - x, 4 + Math.floor(rnd() * 16)) : 1, horizontal ? 1 : Math.min(256 - y, 4 + Math.floor(rnd() * 16)), { walkable: false });
  }
  g.fillRect(0, 0, 60, 256, { walkable: true });
  return g;
}

function thousand(steps: number, meter?: AllocMeter, meterFrom = 0): { stepMs: number[]; orderMs: number; arrived: number } {
  const grid = arena();
  const sys = new NavigationSystem(grid);
  const ids: number[] = [];
  for (let k = 0; k < 1000; k++) ids.push(sys.addAgent({ x: 5 + (k % 40) * 1.2, y: 8 + Math.floor(k / 40) * 1.2 * 8 }));
  const t0 = performance.now();
  sys.moveGroup(ids, 230, 128);
  const orderMs = performance.now() - t0;
  const stepMs: number[] = [];
  for (let s = 0; s < steps; s++) {
    if (meter !== undefined && s >= meterFrom) {
      meter.start();
      sys.step();
      meter.stop();
      continue;
    }
    const t = performance.now();
    sys.step();
    stepMs.push(performance.now() - t);
  }
  return { stepMs, orderMs, arrived: ids.filter((i) => !sys.isMoving(i)).length };
}

/**
 * 50 units from around `from` to (tx, ty) on AcrosstheCape, stepped until all stand or `budget`
 * steps; `prepare`: build the search structures first, as a game does at level load (not timed).
 */
function cape(mode: 'flow' | 'formation', tx: number, ty: number, from = [600, 150], budget = 4000, prepare = false, meter?: AllocMeter): { orderMs: number; firstPlansMs: number; totalPlanMs: number; arrived: number } {
  const grid = parseMovingAiMap(readFixture('movingai/AcrosstheCape.map')).grid;
  const sys = new NavigationSystem(grid);
  const ids: number[] = [];
  const [fx, fy] = from;
  for (let r = 0; ids.length < 50; r++) {
    for (let dy = -r; dy <= r && ids.length < 50; dy++) {
      for (let dx = -r; dx <= r && ids.length < 50; dx++) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) === r && grid.isWalkable(fx + dx, fy + dy)) ids.push(sys.addAgent({ x: fx + dx, y: fy + dy }));
      }
    }
  }
  if (prepare) sys.prepare();
  const t0 = performance.now();
  sys.moveGroup(ids, tx, ty, { mode });
  const orderMs = performance.now() - t0;
  // The formation mode plans each unit at the first step.
  sys.step();
  const firstPlansMs = sys.stats.planMs;
  for (let s = 0; s < budget && ids.some((i) => sys.isMoving(i)); s++) {
    // Steps 1000-3000 of the long crossing: the whole crowd walking down the field.
    const metered = meter !== undefined && s >= 1000 && s < 3000;
    if (metered) meter.start();
    sys.step();
    if (metered) meter.stop();
  }
  return { orderMs, firstPlansMs, totalPlanMs: sys.stats.planMs, arrived: ids.filter((i) => !sys.isMoving(i) && (sys.flags[i] & (AGENT_BLOCKED | AGENT_UNREACHABLE)) === 0).length };
}

/**
 * Bytes allocated per step: the heap's growth across each step, read before and after it, summed
 * over the steps no collection interrupted (a collection shrinks the heap), less what reading the
 * heap itself allocates, averaged. Rounded to whole bytes; a few bytes is noise.
 */
class AllocMeter {
  private sum = 0;
  private counted = 0;
  private before = 0;
  private readonly overhead: number;

  constructor() {
    let sum = 0;
    let counted = 0;
    let prev = process.memoryUsage().heapUsed;
    for (let k = 0; k < 2000; k++) {
      const h = process.memoryUsage().heapUsed;
      if (h >= prev) { sum += h - prev; counted++; }
      prev = h;
    }
    this.overhead = counted > 0 ? sum / counted : 0;
  }

  start(): void {
    this.before = process.memoryUsage().heapUsed;
  }

  stop(): void {
    const h = process.memoryUsage().heapUsed;
    if (h >= this.before) { this.sum += h - this.before; this.counted++; }
  }

  get bytesPerStep(): number {
    return this.counted > 0 ? Math.max(0, Math.round(this.sum / this.counted - this.overhead)) : NaN;
  }
}

thousand(60); // warm-up
// 70 s of simulated time: the field walk (first 10 s), then the crowd packing in and settling into
// formation slots at the goal (plans, nudges, dense collisions).
const run = thousand(4200);
const walk = run.stepMs.slice(0, 600);
// A separate run for allocation, so reading the heap does not weigh on the timings: steps 300-600,
// the crowd walking the field once the code is warm.
const thousandAlloc = new AllocMeter();
thousand(600, thousandAlloc, 300);
const settle = run.stepMs.slice(3000, 4200);
console.log('agents benchmark (medians; the machine is shared, rerun before quoting)');
console.table([
  { case: '1,000 agents 256x256 flow field: walking, steps 0-600', 'median ms/step': +median(walk).toFixed(3), 'p95 ms/step': +p95(walk).toFixed(3), 'order ms (field + formation)': +run.orderMs.toFixed(2), 'bytes alloc/step (steps 300-600)': thousandAlloc.bytesPerStep, target: '< 4 ms/step' },
  { case: '1,000 agents: arriving and settling, steps 3000-4200', 'median ms/step': +median(settle).toFixed(3), 'p95 ms/step': +p95(settle).toFixed(3), 'order ms (field + formation)': '', target: '< 4 ms/step' },
  { case: `1,000 agents: whole run, ${run.arrived} standing after 4200 steps`, 'median ms/step': +median(run.stepMs).toFixed(3), 'p95 ms/step': +p95(run.stepMs).toFixed(3), 'order ms (field + formation)': '', target: '< 4 ms/step' },
]);
const rows: Record<string, string | number>[] = [];
// A short open crossing (path cost 150) and a winding one (cost 271, A* expands 18k cells per unit).
for (const [tx, ty] of [[740, 150], [600, 300]]) {
  for (const mode of ['flow', 'formation'] as const) {
    cape(mode, tx, ty);
    const r = [cape(mode, tx, ty), cape(mode, tx, ty), cape(mode, tx, ty)];
    rows.push({
      case: `50 units AcrosstheCape 600,150 -> ${tx},${ty}`,
      mode: mode === 'flow' ? 'flow field' : 'A* per unit',
      'order planning ms': +median(r.map((x) => x.firstPlansMs)).toFixed(2),
      'all planning in the run ms': +median(r.map((x) => x.totalPlanMs)).toFixed(2),
      target: '< 50 ms',
    });
  }
}
// Corner to corner across the whole map (route cost 1177, five simulated minutes): one flow field
// for the whole order, the crowd packing into the goal's corner; run until every unit stands.
{
  const r = [cape('flow', 10, 5, [666, 737], 60_000, true), cape('flow', 10, 5, [666, 737], 60_000, true), cape('flow', 10, 5, [666, 737], 60_000, true)];
  rows.push({
    case: `50 units AcrosstheCape 666,737 -> 10,5, ${r[0].arrived} arrived`,
    mode: 'flow field',
    'order planning ms': +median(r.map((x) => x.firstPlansMs)).toFixed(2),
    'all planning in the run ms': +median(r.map((x) => x.totalPlanMs)).toFixed(2),
    target: '< 50 ms',
  });
  const meter = new AllocMeter();
  cape('flow', 10, 5, [666, 737], 3000, true, meter);
  rows.push({ case: '50 units AcrosstheCape 666,737 -> 10,5: bytes allocated per step while walking (steps 1000-3000)', mode: 'flow field', 'bytes alloc/step': meter.bytesPerStep });
}
console.table(rows);
