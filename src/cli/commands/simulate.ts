import { Pathfinder, TilenavError, movementModel, type MovementName, type NavGrid } from '../../index.js';
import { NavigationSystem, GridPlanner, AGENT_UNREACHABLE, AGENT_BLOCKED } from '../../agents/index.js';
import { COMMON_FLAGS, parseCommand, type CommandSpec } from '../flags.js';
import { loadMap, round, type CliIo } from '../io.js';
import { checkInput } from '../output.js';

/**
 * The least default step budget of `tilenav simulate`: 5 simulated minutes at 60 steps per
 * second. A longer route gets {@link ROUTE_TIME_FACTOR} times its walking time.
 */
export const DEFAULT_SIMULATE_STEPS = 18_000;

/** The default budget covers this many times the time one unit takes to walk the route alone. */
export const ROUTE_TIME_FACTOR = 3;

export const spec = {
  summary: 'move N units as one group across a map, headless, and report arrivals and timings',
  args: ['MAP'],
  flags: {
    units: { kind: 'number', value: 'N', integer: true, min: 1, max: 100_000, required: true, description: 'how many units, placed on the walkable cells nearest --from' },
    from: { ...COMMON_FLAGS.from, required: true, description: 'where the group starts' },
    to: { ...COMMON_FLAGS.to, required: true, description: 'where the group goes' },
    steps: { kind: 'number', value: 'S', integer: true, min: 0, max: 10_000_000, default: `${DEFAULT_SIMULATE_STEPS} or ${ROUTE_TIME_FACTOR}x the route's walking time, the larger`, description: 'step budget (60 steps per simulated second)' },
    mode: { kind: 'string', choices: ['auto', 'formation', 'flow'], default: 'auto', description: 'group movement: formation slots, a flow field, or chosen by size' },
    movement: { ...COMMON_FLAGS.movement, default: "octile, or a Tiled map's own (iso, staggered, hex)" },
    format: COMMON_FLAGS.format, rules: COMMON_FLAGS.rules,
    json: COMMON_FLAGS.json,
  },
} as const satisfies CommandSpec;

/**
 * `tilenav simulate`: N units on the walkable cells nearest the start, ordered as one group to
 * the goal, stepped headlessly at the fixed step until all stand or the budget runs out.
 */
export function simulateCommand(args: string[], io: CliIo): number {
  const { values, positionals } = parseCommand('simulate', spec, args);
  for (const file of positionals) checkInput(file);
  const units = values.units!;
  const mode = (values.mode ?? 'auto') as 'auto' | 'formation' | 'flow';
  const from = values.from!;
  const to = values.to!;
  const loaded = loadMap(positionals[0], values.format, values.rules, io);
  const { grid } = loaded;
  for (const [p, flag] of [[from, '--from'], [to, '--to']] as const) {
    if (!grid.inBounds(p[0], p[1])) throw new TilenavError(`(${p[0]}, ${p[1]}) is outside the ${grid.width} x ${grid.height} map`, { element: flag });
  }
  // Units walk the map's own model, as `path` and `render` search it (isometric, staggered, hexagonal Tiled maps).
  const movement = movementModel(values.movement ?? loaded.movement ?? 'octile').name as MovementName;
  const sys = new NavigationSystem(grid, { measureOverlap: true, movement });
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
  // A game builds the search structures while the level loads (once per map, whatever the
  // orders); timed apart from the order, whose planMs counts its flow field and every plan.
  const p0 = performance.now();
  sys.prepare();
  const prepareMs = performance.now() - p0;
  const order = sys.moveGroup(ids, to[0], to[1], { mode });
  const budget = values.steps ?? defaultBudget(grid, sys, ids[0], to);
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
    movement,
    prepareMs: round(prepareMs, 2),
    planMs: round(sys.stats.planMs, 2),
    plans: sys.stats.plans,
    replans: sys.stats.replans,
    stepMsMean: round(steps > 0 ? stepMs / steps : 0, 4),
    maxOverlap: round(sys.stats.maxOverlap, 4),
  };
  if (!values.json) {
    io.out(`${units} units, ${order.mode}: ${arrived} arrived, ${unreachable} unreachable, ${blocked} blocked, ${summary.stillMoving} still moving after ${steps} steps (${summary.seconds} s simulated)`);
    io.out(`planning ${summary.planMs} ms (${summary.plans} plans, ${summary.replans} replans); ${summary.stepMsMean} ms per step; deepest overlap ${summary.maxOverlap} cells`);
    return 0;
  }
  io.out(JSON.stringify(summary));
  return 0;
}

/**
 * The step budget when --steps is not given: {@link DEFAULT_SIMULATE_STEPS}, or
 * {@link ROUTE_TIME_FACTOR} times the steps unit `id` needs to walk its route to `to` alone at
 * full speed when that is more (a crossing of a big map takes longer than five minutes).
 */
function defaultBudget(grid: NavGrid, sys: NavigationSystem, id: number, to: readonly number[]): number {
  // The system's own Pathfinder when it has one: its jump point planes are built already.
  const finder = sys.planner instanceof GridPlanner ? sys.planner.pathfinder : new Pathfinder(grid);
  const route = finder.findPath(Math.round(sys.x[id]), Math.round(sys.y[id]), to[0], to[1], { layer: sys.layer, movement: sys.movement });
  if (route.status !== 'found') return DEFAULT_SIMULATE_STEPS;
  const seconds = route.cost / (sys.walkSpeed[id] * sys.desiredSpeed[id] || 1);
  return Math.max(DEFAULT_SIMULATE_STEPS, Math.ceil((ROUTE_TIME_FACTOR * seconds) / sys.options.fixedStep));
}
