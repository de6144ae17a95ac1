import { TilenavError } from '../../errors.js';
import { NavigationSystem, AGENT_UNREACHABLE, AGENT_BLOCKED } from '../../agents/index.js';
import { loadMap, parse, parsePoint, round, type CliIo } from '../io.js';

export const usage = 'tilenav simulate MAP --units N --from x,y --to x,y [--steps S] [--mode auto|formation|flow] [--format F] [--json]';

/** The default step budget of `tilenav simulate`: 5 simulated minutes at 60 steps per second. */
export const DEFAULT_SIMULATE_STEPS = 18_000;

/**
 * `tilenav simulate`: N units on the walkable cells nearest the start, ordered as one group to
 * the goal, stepped headlessly at the fixed step until all stand or the budget runs out.
 */
export function simulateCommand(args: string[], io: CliIo): number {
  const { values, positionals } = parse(args, {
    units: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    steps: { type: 'string' },
    mode: { type: 'string' },
    format: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (positionals.length !== 1) throw new TilenavError(`expected one map file, got ${positionals.length}; usage: ${usage}`, { element: 'arguments' });
  const units = wholeNumber(values.units, '--units', 1, 100_000);
  const budget = values.steps === undefined ? DEFAULT_SIMULATE_STEPS : wholeNumber(values.steps, '--steps', 0, 10_000_000);
  const mode = values.mode ?? 'auto';
  if (mode !== 'auto' && mode !== 'formation' && mode !== 'flow') throw new TilenavError(`expected auto, formation or flow, got ${JSON.stringify(mode)}`, { element: '--mode' });
  const from = parsePoint(values.from, '--from');
  const to = parsePoint(values.to, '--to');
  const { grid } = loadMap(positionals[0], values.format);
  for (const [p, flag] of [[from, '--from'], [to, '--to']] as const) {
    if (!grid.inBounds(p[0], p[1])) throw new TilenavError(`(${p[0]}, ${p[1]}) is outside the ${grid.width} x ${grid.height} map`, { element: flag });
  }
  const sys = new NavigationSystem(grid, { measureOverlap: true });
  const ids: number[] = [];
  // Square rings around the start, nearest first: one unit per walkable cell.
  const maxR = Math.max(grid.width, grid.height);
  for (let r = 0; ids.length < units && r <= maxR; r++) {
    for (let dy = -r; dy <= r && ids.length < units; dy++) {
      const step = Math.abs(dy) === r ? 1 : 2 * r;
      for (let dx = -r; dx <= r && ids.length < units; dx += Math.max(1, step)) {
        if (grid.isWalkable(from[0] + dx, from[1] + dy)) ids.push(sys.addAgent({ x: from[0] + dx, y: from[1] + dy }));
      }
    }
  }
  if (ids.length < units) throw new TilenavError(`the map has only ${ids.length} walkable cells for ${units} units`, { element: '--units' });
  const order = sys.moveGroup(ids, to[0], to[1], { mode });
  let steps = 0;
  let stepMs = 0;
  const moving = () => ids.some((i) => sys.isMoving(i));
  while (steps < budget && moving()) {
    const t0 = performance.now();
    sys.step();
    stepMs += performance.now() - t0;
    steps++;
  }
  let unreachable = 0;
  let arrived = 0;
  let blocked = 0;
  for (const id of ids) {
    if ((sys.flags[id] & AGENT_UNREACHABLE) !== 0) unreachable++;
    else if ((sys.flags[id] & AGENT_BLOCKED) !== 0) blocked++;
    else if (!sys.isMoving(id)) arrived++;
  }
  const summary = {
    units,
    arrived,
    unreachable,
    /** Gave up hemmed in by other units (stuckTime), standing short of their slots. */
    blocked,
    stillMoving: units - arrived - unreachable - blocked,
    steps,
    seconds: round(steps * sys.options.fixedStep, 2),
    mode: order.mode,
    planMs: round(sys.stats.planMs, 2),
    plans: sys.stats.plans,
    replans: sys.stats.replans,
    stepMsMean: round(steps > 0 ? stepMs / steps : 0, 4),
    maxOverlap: round(sys.stats.maxOverlap, 4),
  };
  if (!values.json) {
    io.out(`${units} units, ${order.mode}: ${arrived} arrived, ${unreachable} unreachable, ${blocked} blocked, ${summary.stillMoving} still moving after ${steps} steps (${summary.seconds} s simulated)`);
    io.out(`planning ${summary.planMs} ms (${summary.plans} plans, ${summary.replans} replans); ${summary.stepMsMean} ms per step; deepest overlap ${summary.maxOverlap} cells`);
  }
  io.out(JSON.stringify(summary));
  return 0;
}

function wholeNumber(value: string | undefined, flag: string, min: number, max: number): number {
  if (value === undefined) throw new TilenavError('is required', { element: flag });
  if (!/^\d+$/.test(value.trim()) || Number(value) < min || Number(value) > max) throw new TilenavError(`expected a whole number ${min}..${max}, got ${JSON.stringify(value)}`, { element: flag });
  return Number(value);
}
