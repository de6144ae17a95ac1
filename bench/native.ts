/**
 * The native anchors of the benchmarks: the tight C++ A* (bench/native/astar-ref.cpp, built here
 * with g++ -O3) and Daniel Harabor's warthog (JPS, JPS2+; built from a snapshot by
 * bench/native/warthog.sh). Each runs on a Moving AI map and a scenario file written with the very
 * queries the TypeScript rows time, and reports its mean microseconds per query and how many of its
 * answers were optimal. When an anchor cannot run, the reason is returned instead, for the
 * benchmark to print.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScenarioQuery } from '../src/loaders/index.js';

export interface NativeRun {
  queries: number;
  correct: number;
  meanUs: number;
  /** Mean expansions per query, when the program reports them. */
  expanded: number;
  /**
   * The process's CPU time per query (user + system, map loading included), when measured: on a
   * shared machine it moves far less than wall time. NaN when not measured.
   */
  cpuUs: number;
}

const work = mkdtempSync(join(tmpdir(), 'tilenav-native-'));
let scenCount = 0;

/** Writes `queries` as a Moving AI scenario file (for `mapName` of `w` x `h`) and returns its path. */
export function writeScenario(queries: ScenarioQuery[], mapName: string, w: number, h: number): string {
  const lines = ['version 1'];
  for (const q of queries) lines.push([q.bucket, `${mapName}.map`, w, h, q.startX, q.startY, q.goalX, q.goalY, q.optimal].join('\t'));
  const file = join(work, `q${scenCount++}.scen`);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

let refBinary: string | { reason: string } | undefined;

/** The tight native A*, built once per process: its path, or why it could not be built. */
export function nativeAstar(): string | { reason: string } {
  if (refBinary !== undefined) return refBinary;
  const src = fileURLToPath(new URL('./native/astar-ref.cpp', import.meta.url));
  const out = join(work, 'astar-ref');
  const r = spawnSync('g++', ['-O3', '-DNDEBUG', '-std=c++17', '-o', out, src], { encoding: 'utf8' });
  if (r.error !== undefined) refBinary = { reason: `g++ not found (${r.error.message})` };
  else if (r.status !== 0 || !existsSync(out)) refBinary = { reason: `g++ failed: ${r.stderr.trim().split('\n').slice(0, 3).join(' ')}` };
  else refBinary = out;
  return refBinary;
}

/** Runs the tight native A* over the scenario file `scen` on `map` (best of `repeat` runs). */
export function runNativeAstar(map: string, scen: string, repeat = 1): NativeRun | { reason: string } {
  const bin = nativeAstar();
  if (typeof bin !== 'string') return bin;
  // bash's `times` prints the CPU time of the shell's children (the program) on its last line.
  const r = spawnSync('bash', ['-c', '"$@"; s=$?; times; exit $s', 'native', bin, map, scen, '--repeat', String(repeat)], { encoding: 'utf8' });
  const lines = r.stdout.trim().split('\n');
  const kv = new Map(lines[0].split('\t').map((f) => f.split('=') as [string, string]));
  const correct = kv.get('correct');
  if (correct === undefined) return { reason: `native A* failed (status ${r.status}): ${r.stderr.trim().split('\n')[0] ?? ''}` };
  const [ok, n] = correct.split('/').map(Number);
  const cpu = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s/.exec(lines[lines.length - 1]);
  const cpuUs = cpu === null ? NaN : ((Number(cpu[1]) + Number(cpu[3])) * 60 + Number(cpu[2]) + Number(cpu[4])) * 1e6 / (n * repeat);
  return { queries: n, correct: ok, meanUs: Number(kv.get('mean_us')), expanded: Number(kv.get('exp_per_query')), cpuUs };
}

const warthogScript = fileURLToPath(new URL('./native/warthog.sh', import.meta.url));
let warthogReady: true | { reason: string } | undefined;

/**
 * Whether warthog can run: its build (in $WARTHOG_BUILD, default /tmp/warthog-build) exists or is
 * made now from the snapshot in $WARTHOG_GIT (default $MIRROR_ROOT/krnbatta+warthog/repo).
 */
export function warthogAvailable(): true | { reason: string } {
  if (warthogReady !== undefined) return warthogReady;
  const r = spawnSync('bash', [warthogScript, 'build'], { encoding: 'utf8' });
  if (r.error !== undefined) warthogReady = { reason: `bash not found (${r.error.message})` };
  else if (r.status !== 0) warthogReady = { reason: r.stderr.trim().split('\n').slice(0, 2).join(' ').replace(/^warthog\.sh: /, '') };
  else warthogReady = true;
  return warthogReady;
}

/** Runs warthog's `alg` (its names: jps, jps2+, ...) over `scen` on `map`: search time only, by warthog's own timer. */
export function runWarthog(map: string, scen: string, alg: string): NativeRun | { reason: string } {
  const ready = warthogAvailable();
  if (ready !== true) return ready;
  const r = spawnSync('bash', [warthogScript, map, scen, alg], { encoding: 'utf8' });
  const out = r.stdout;
  const mean = /mean_us=([\d.]+)/.exec(out);
  const correct = /correct=(\d+)\/(\d+)/.exec(out);
  if (mean === null || correct === null) return { reason: `warthog ${alg} failed (status ${r.status}): ${r.stderr.trim().split('\n')[0] ?? ''}` };
  const expanded = /mean_expanded=([\d.]+)/.exec(out);
  return { queries: Number(correct[2]), correct: Number(correct[1]), meanUs: Number(mean[1]), expanded: expanded === null ? NaN : Number(expanded[1]), cpuUs: NaN };
}
