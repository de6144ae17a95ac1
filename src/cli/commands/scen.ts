import { basename } from 'node:path';
import cliProgress from 'cli-progress';
import { TilenavError, Pathfinder, movementModel, checkPath, type SearchAlgorithm, type MovementName } from '../../index.js';
import { parseScenario } from '../../loaders/index.js';
import { COMMON_FLAGS, layerArg, parseCommand, type CommandSpec } from '../flags.js';
import { loadMap, percentiles, readText, round, type CliIo } from '../io.js';
import { runOnWorkers } from './scen-workers.js';
import { checkInput } from '../output.js';

export const spec = {
  summary: "run a Moving AI scenario: check every path and compare its cost with the file's optimum",
  args: ['MAP', 'SCEN'],
  flags: {
    algorithm: COMMON_FLAGS.algorithm,
    movement: { ...COMMON_FLAGS.movement, default: 'octile' },
    layer: COMMON_FLAGS.layer,
    format: COMMON_FLAGS.format, rules: COMMON_FLAGS.rules,
    workers: { kind: 'number', value: 'N', integer: true, min: 1, max: 256, default: 'none: queries run on this thread', description: 'answer through a worker PathService of N threads (algorithm auto only)' },
    json: COMMON_FLAGS.json,
  },
} as const satisfies CommandSpec;

/**
 * Search algorithms `scen` can run. Each entry builds what it needs for `layer` (timed as the
 * run's buildMs) and returns the query function.
 */
export const ALGORITHMS: Record<SearchAlgorithm, (finder: Pathfinder, layer: number) => Pathfinder['findPath']> = {
  astar: (finder) => withAlgorithm(finder, 'astar'),
  auto: (finder, layer) => {
    finder.prepare({ algorithm: 'auto', layer });
    return withAlgorithm(finder, 'auto');
  },
  jps: (finder, layer) => {
    finder.prepare({ algorithm: 'jps', layer });
    return withAlgorithm(finder, 'jps');
  },
  'jps+': (finder, layer) => {
    finder.prepare({ algorithm: 'jps+', layer });
    return withAlgorithm(finder, 'jps+');
  },
  hpa: (finder, layer) => {
    finder.prepare({ algorithm: 'hpa', layer });
    return withAlgorithm(finder, 'hpa');
  },
  subgoal: (finder, layer) => {
    finder.prepare({ algorithm: 'subgoal', layer });
    return withAlgorithm(finder, 'subgoal');
  },
};

function withAlgorithm(finder: Pathfinder, algorithm: SearchAlgorithm): Pathfinder['findPath'] {
  return (sx, sy, gx, gy, options) => finder.findPath(sx, sy, gx, gy, { ...options, algorithm });
}

/**
 * `tilenav scen`: runs every query of a Moving AI scenario, checks each returned path (adjacent
 * steps, no blocked cell, no cut corner, cost recomputed) and compares its cost with the file's
 * optimum. Exit 1 when any answer is wrong.
 */
export async function scenCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand('scen', spec, args);
  for (const file of positionals) checkInput(file);
  const [mapPath, scenPath] = positionals;
  const movement = movementModel(values.movement ?? 'octile').name as MovementName;
  const algorithm = (values.algorithm ?? 'auto') as SearchAlgorithm;
  const make = ALGORITHMS[algorithm];
  const workers = values.workers ?? 0;
  // The PathService answers with findPath's default search; another would be measured as auto.
  if (workers > 0 && algorithm !== 'auto') throw new TilenavError(`the workers search with auto only; --algorithm ${algorithm} does not combine with --workers`, { element: '--algorithm' });
  const t0 = performance.now();
  const { grid } = loadMap(mapPath, values.format, values.rules, io);
  const layer = grid.layerIndex(layerArg(values.layer));
  const queries = parseScenario(readText(scenPath), { file: scenPath });
  for (const q of queries) {
    if (q.mapWidth !== grid.width || q.mapHeight !== grid.height) {
      throw new TilenavError(`the query is for a ${q.mapWidth} x ${q.mapHeight} map, but ${basename(mapPath)} is ${grid.width} x ${grid.height}`, { file: scenPath, line: q.line });
    }
    for (const [x, y, what] of [[q.startX, q.startY, 'start'], [q.goalX, q.goalY, 'goal']] as const) {
      if (!grid.inBounds(x, y)) throw new TilenavError(`${what} (${x}, ${y}) is outside the map`, { file: scenPath, line: q.line });
    }
  }
  const finder = new Pathfinder(grid);
  const search = make(finder, layer);
  // Octile answers are checked against the file; other models against our own Dijkstra, since the
  // file's lengths are octile ones.
  const reference = movement === 'octile' ? null : new Pathfinder(grid);
  const buildMs = performance.now() - t0;

  const bar = io.errIsTty && !values.json ? new cliProgress.SingleBar({ stream: process.stderr, clearOnComplete: true, format: 'scen [{bar}] {value}/{total} queries' }, cliProgress.Presets.shades_classic) : null;
  bar?.start(queries.length, 0);
  // With --workers every query is answered by the PathService first; the loop below checks them.
  const pooled = workers > 0 ? await runOnWorkers(grid, queries, layer, movement, workers) : null;
  const times: number[] = pooled?.latenciesUs ?? [];
  let solved = 0;
  let optimal = 0;
  // Goals the scenario itself marks out of reach (optimal 0, start not the goal), answered no-path.
  let unreachable = 0;
  // The hierarchy is not exact: a legal path no cheaper than the optimum counts as an answer, and
  // its mean excess is reported instead of failing the run.
  const exact = algorithm !== 'hpa';
  let suboptimal = 0;
  let excess = 0;
  let invalid = 0;
  const wrong: string[] = [];
  for (let k = 0; k < queries.length; k++) {
    const q = queries[k];
    const t = performance.now();
    const r = pooled ? pooled.results[k] : search(q.startX, q.startY, q.goalX, q.goalY, { layer, movement });
    if (!pooled) times.push((performance.now() - t) * 1000);
    const same = q.startX === q.goalX && q.startY === q.goalY;
    let expected: number;
    if (reference) {
      const ref = reference.findPath(q.startX, q.startY, q.goalX, q.goalY, { layer, movement, weight: 0 });
      expected = ref.status === 'found' ? ref.cost : Infinity;
    } else {
      expected = q.optimal === 0 && !same ? Infinity : q.optimal;
    }
    if (r.status === 'found') {
      solved++;
      const check = checkPath(grid, r.cells, { layer, movement });
      const s = r.cells[0];
      const e = r.cells[r.cells.length - 1];
      const endsRight = s === q.startY * grid.width + q.startX && e === q.goalY * grid.width + q.goalX;
      if (!check.valid || !endsRight || Math.abs(check.cost - r.cost) > 1e-6 * Math.max(1, r.cost)) {
        invalid++;
        if (wrong.length < 5) wrong.push(`line ${q.line}: invalid path (${check.problem ?? (endsRight ? 'cost mismatch' : 'wrong end points')})`);
      } else if (Math.abs(r.cost - expected) <= 1e-4 * Math.max(1, expected)) {
        optimal++;
      } else if (!exact && r.cost > expected) {
        suboptimal++;
        excess += r.cost / expected - 1;
      } else if (wrong.length < 5) {
        wrong.push(`line ${q.line}: cost ${r.cost} but optimal is ${expected}`);
      }
    } else if (expected === Infinity && r.status === 'no-path') {
      optimal++;
      unreachable++;
    } else if (wrong.length < 5) {
      wrong.push(`line ${q.line}: ${r.status} but optimal is ${expected}`);
    }
    bar?.update(k + 1);
  }
  bar?.stop();
  const searchMs = pooled ? pooled.wallMs : times.reduce((a, b) => a + b, 0) / 1000;
  const p = percentiles(times);
  const summary = {
    map: basename(mapPath),
    scenario: basename(scenPath),
    algorithm,
    movement,
    queries: queries.length,
    solved,
    optimal,
    invalid,
    meanUs: round(p.mean),
    medianUs: round(p.median),
    p95Us: round(p.p95),
    buildMs: round(buildMs),
    workers,
    throughputQps: round(queries.length / (searchMs / 1000)),
    ...(exact ? {} : { suboptimal, meanExcessPct: round((100 * excess) / Math.max(1, optimal + suboptimal), 2) }),
  };
  if (!values.json) {
    // "468 solved, 470 optimal" read as a contradiction: say which answers were no-path, and why right.
    const none = unreachable > 0 ? ` and ${unreachable} no-path where the scenario has no path` : '';
    io.out(`${summary.map}: ${queries.length} queries, ${optimal} optimal (${solved} paths found${none}), ${invalid} invalid`);
    if (!exact) io.out(`${suboptimal} above optimal; mean excess over optimal ${summary.meanExcessPct} %`);
    io.out(`time per query: mean ${summary.meanUs} us, median ${summary.medianUs} us, p95 ${summary.p95Us} us (load ${summary.buildMs} ms)`);
    if (workers > 0) io.out(`${workers} workers: ${summary.throughputQps} queries/s (time per query above is request-to-answer latency)`);
  }
  for (const w of wrong) io.err(w);
  if (values.json) io.out(JSON.stringify(summary));
  return optimal + suboptimal === queries.length && invalid === 0 ? 0 : 1;
}
