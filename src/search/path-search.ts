/**
 * A path search spread over frames (`Pathfinder.begin`): the algorithm findPath would run (A*,
 * jump point search, JPS+, A* across links) run a slice of expansions at a time on a search slot
 * of its own, for games that search on the main thread without workers.
 */
import { TilenavError } from '../errors.js';
import type { SearchView } from '../grid/navgrid.js';
import { padXY } from '../grid/padded.js';
import { ObstacleOverlay, type DynamicObstacle, type DynamicObstacleOptions } from '../query/obstacles.js';
import type { GridAStar } from './algorithms/astar/astar.js';
import { NEAREST, PLAIN, type GenericMode } from './algorithms/astar/astar.js';
import { LinkBounds, linkedSearch, type LinkedSearch } from './algorithms/astar/linked.js';
import { JumpRun, type JumpPointSearch } from './algorithms/jps/jps.js';
import { SearchScratch, outcome } from './kernel/scratch.js';
import { newLinkedSearch, newPlan, type Pathfinder, type Query } from './pathfinder.js';
import type { FindPathOptions, PathResult } from './result.js';
import { runStep, stepBudget, type PathSearchState, type StepOptions } from './step.js';

/**
 * What one running search owns: a search scratch for the grid's padded size with the A* loops on
 * it, and the obstacle overlays (per layer) its `obstacles` are stamped on. Borrowed from the
 * Pathfinder that began the search and given back when it ends. @internal
 */
export interface SearchSlot {
  readonly scratch: SearchScratch;
  readonly astar: GridAStar;
  readonly overlays: (ObstacleOverlay | undefined)[];
  /** Jump point search's own state on {@link scratch} (node states, open list), made on first use. */
  jump?: JumpRun;
  /** A search across links: its record, and its scratch of one padded grid per layer (when more than one). */
  link?: LinkedSearch;
  layers?: SearchScratch;
}

/** Bytes a search slot holds: its scratch, its obstacle overlays, and what jump point search and searches across layers made. @internal */
export function slotBytes(slot: SearchSlot): number {
  let b = slot.scratch.bytes;
  for (const o of slot.overlays) if (o !== undefined) b += o.bytes;
  if (slot.jump !== undefined) b += slot.jump.bytes;
  if (slot.layers !== undefined) b += slot.layers.bytes;
  return b;
}

export type { StepOptions, PathSearchState } from './step.js';

/** Phases of a search with obstacles: around them first, then through them (as findPath). */
const AROUND = 1;
const THROUGH = 2;

/**
 * One path question answered over several frames: made by `Pathfinder.begin`, advanced by
 * {@link step} (a slice of expansions, or of time, per call), answered in {@link result}. It runs
 * the algorithm `pathfinder.findPath` runs for the same question (A*, jump point search, JPS+, A*
 * across links; `hpa` answers in the first step, whole), and its answer is findPath's, whatever
 * the slices: the same cells, cost, `expanded` and status.
 *
 * A change to the grid between two steps (any tile write, on any layer: `grid.version` moved; a
 * link added, removed or switched: `grid.linksVersion` moved) makes the next step start the search again on the grid as it is then ({@link restarts} counts
 * them); the answer is then the one findPath gives on the changed grid. A search that has
 * answered keeps its answer.
 *
 * Memory: while running, the search slot it borrowed (about 20 bytes per padded cell, plus 20
 * per queued node, plus 4 per padded cell when it has obstacles, 0.5 with jump point search, a padded grid's scratch per layer across links; {@link bytes}); nothing once it
 * has answered or was cancelled. Drop a search without cancelling it and its slot goes with it
 * (to the garbage collector, not back to the Pathfinder).
 */
export class PathSearch {
  private readonly finder: Pathfinder;
  private readonly q: Query;
  private readonly sx: number;
  private readonly sy: number;
  /** The goal as asked, and as searched (clamped to the grid with `nearest`). */
  private readonly askedX: number;
  private readonly askedY: number;
  private readonly goalXY: [number, number] = [0, 0];
  /** The query's own `nearest` (the phases set `q.nearest` to theirs). */
  private readonly nearest: boolean;
  private readonly radius: number;
  private readonly obstacles: readonly DynamicObstacle[];
  private readonly obstacleOptions: DynamicObstacleOptions | undefined;
  private slot: SearchSlot | null = null;
  /** The grid's version and links version the current run started on. */
  private version = -1;
  private linksVersion = -1;
  /** AROUND or THROUGH while running; the view the THROUGH phase searches. */
  private phase = THROUGH;
  private baseView: SearchView | null = null;
  /** The running phase's search: padded start and goal (nodes across links), goal cell, what runs it, whether it has begun. */
  private start = 0;
  private goal = 0;
  private goalCell = 0;
  private readonly plan = newPlan();
  private jps: JumpPointSearch | null = null;
  private linkScratch: SearchScratch | null = null;
  /** With several goals: the one-layer search's mode (its goals), made by the first such run; null for one goal. */
  private goalsMode: GenericMode | null = null;
  private fresh = true;
  private done = 0;
  /** Search work of every slice so far (see {@link work}). */
  private workDone = 0;
  /** Expansions of an AROUND phase that found no way round, added to the answer's. */
  private aroundExpanded = 0;
  private readonly out = outcome();
  private answer: PathResult | null = null;
  private cancelled = false;
  private restartCount = 0;

  /** Made by `Pathfinder.begin`, which has checked the query into `q` (a record of its own). @internal */
  static begin(finder: Pathfinder, q: Query, sx: number, sy: number, gx: number, gy: number, options: FindPathOptions): PathSearch {
    return new PathSearch(finder, q, sx, sy, gx, gy, options);
  }

  /** Searches are begun by `Pathfinder.begin`. */
  private constructor(finder: Pathfinder, q: Query, sx: number, sy: number, gx: number, gy: number, options: FindPathOptions) {
    this.finder = finder;
    this.q = q;
    this.sx = sx;
    this.sy = sy;
    this.askedX = gx;
    this.askedY = gy;
    this.nearest = q.nearest;
    this.radius = options.radius ?? 0;
    this.obstacles = options.obstacles === undefined ? [] : [...options.obstacles];
    this.obstacleOptions = options.obstacleOptions;
    this.restart();
  }

  /** `running` until {@link step} returns the answer (`done`), or {@link cancel} (`cancelled`). */
  get state(): PathSearchState {
    return this.cancelled ? 'cancelled' : this.answer !== null ? 'done' : 'running';
  }

  /** The answer once the search is done (the one {@link step} returned), else null. */
  get result(): PathResult | null {
    return this.cancelled ? null : this.answer;
  }

  /** Nodes expanded so far by the current run (what `result.expanded` counts once done). */
  get expanded(): number {
    return this.answer !== null ? this.answer.expanded : this.aroundExpanded + this.done;
  }

  /**
   * Search work of every slice so far, restarts included, as findPath's `maxIterations` counts it:
   * A* one per expansion, jump point search one per expanded node and per cell its jumps scan. @internal
   */
  get work(): number {
    return this.workDone;
  }

  /** How many times a grid change made this search start again. */
  get restarts(): number {
    return this.restartCount;
  }

  /** Bytes this search holds now: its search slot while running, 0 once done or cancelled. */
  get bytes(): number {
    return this.slot === null ? 0 : slotBytes(this.slot);
  }

  /**
   * Runs the search on: up to `maxExpansions` expansions, or until `budgetMs` milliseconds have
   * passed, whichever comes first (neither: to the end), at least one expansion. Returns the
   * answer when the search is done (then every later call returns it again, doing nothing), or
   * null while it is not. When the grid or its links have changed since the last step, the
   * search starts again first (and throws the TilenavError findPath would, if the algorithm asked
   * for by name cannot answer on the grid as it is now). Throws a TilenavError naming the option for a budget out of range (`maxExpansions` a
   * whole number >= 1, `budgetMs` a number >= 0; both may be Infinity), and one naming `search`
   * after {@link cancel}.
   */
  step(options: StepOptions = {}): PathResult | null {
    const { maxExpansions, until } = stepBudget(options);
    if (this.cancelled) throw new TilenavError('this search was cancelled: begin another one', { element: 'search' });
    if (this.answer !== null) return this.answer;
    // Deferred changes (an obstacle registry's flush) land now, and move the version.
    this.finder.grid.searchView(this.q.layer);
    if (this.finder.grid.version !== this.version || this.finder.grid.linksVersion !== this.linksVersion) {
      this.restartCount++;
      this.restart();
      if (this.answer !== null) return this.answer;
    }
    runStep(maxExpansions, until, (slice) => this.advance(slice), () => this.answer !== null);
    return this.answer;
  }

  /** Stops the search and gives its slot back; `result` is null after it. Does nothing once done. */
  cancel(): void {
    if (this.answer !== null || this.cancelled) return;
    this.cancelled = true;
    this.release();
  }

  /** Starts (again) from the grid as it is: findPath's checks, then the first phase. */
  private restart(): void {
    const finder = this.finder;
    const q = this.q;
    this.aroundExpanded = 0;
    this.done = 0;
    q.nearest = this.nearest;
    const view = finder.frame(q, this.radius);
    finder.refuseNamed(q, view);
    this.baseView = view;
    this.version = finder.grid.version;
    this.linksVersion = finder.grid.linksVersion;
    if (q.goals !== null) return this.openGoals();
    const [gx, gy] = finder.goalOf(q, this.askedX, this.askedY, this.goalXY);
    const refused = finder.refusal(this.sx, this.sy, gx, gy, q, this.radius);
    if (refused !== null) return this.finish(refused);
    if (this.obstacles.length > 0) {
      this.slot ??= finder.borrowSlot();
      const overlay = (this.slot.overlays[q.layer] ??= new ObstacleOverlay(finder.grid, q.layer));
      q.view = overlay.stamp(this.obstacles, this.sx, this.sy, gx, gy, this.obstacleOptions, view);
      q.goalView = q.view;
      q.overlay = true;
      this.open(AROUND);
    } else this.open(THROUGH);
  }

  /** Begins a phase's search, or ends the phase at once when it needs none (as findPath's searches). */
  private open(phase: number): void {
    const finder = this.finder;
    const q = this.q;
    this.phase = phase;
    // The search around obstacles goes to the goal only; the one through them as near as it can.
    q.nearest = phase === THROUGH && this.nearest;
    const [gx, gy] = this.goalXY;
    const settled = finder.opening(this.sx, this.sy, gx, gy, q, q.nearest, true);
    if (settled !== null) return this.ended(settled);
    const W = q.view.stride;
    this.start = padXY(W, this.sx, this.sy);
    this.goal = padXY(W, gx, gy);
    this.goalCell = gy * finder.grid.width + gx;
    const plan = this.plan;
    // The checks and choice findPath makes (the hierarchy answers here, in one call).
    const answered = finder.planned(this.start, this.goal, this.goalCell, q, q.view, q.goalView.pass[this.goal] <= 0, plan);
    if (answered !== null) return this.ended(answered);
    const slot = (this.slot ??= finder.borrowSlot());
    this.jps = null;
    this.linkScratch = null;
    if (plan.runner === 'jps' || plan.runner === 'jps+') {
      slot.jump ??= new JumpRun(slot.scratch);
      this.jps = finder.jumpPoints();
    } else if (plan.runner === 'linked') {
      const s = finder.linkRecord(q, plan.links, (slot.link ??= newLinkedSearch(finder.grid, slot.scratch.size, W, new LinkBounds())));
      const ends = finder.linkEnds(q, s, this.start, this.goal, this.goalCell);
      this.start = ends.startNode;
      this.goal = ends.goalNode;
      const need = s.views.length * slot.scratch.size;
      if (s.views.length > 1 && (slot.layers === undefined || slot.layers.size < need)) slot.layers = new SearchScratch(need);
      this.linkScratch = s.views.length > 1 ? slot.layers! : slot.scratch;
    }
    this.fresh = true;
    this.done = 0;
  }

  /** Begins the search to several goals (findPath's checks and choice), or answers at once when it needs none. */
  private openGoals(): void {
    const finder = this.finder;
    const q = this.q;
    const plan = this.plan;
    this.phase = THROUGH;
    const slot = (this.slot ??= finder.borrowSlot());
    const record = (slot.link ??= newLinkedSearch(finder.grid, slot.scratch.size, q.view.stride, new LinkBounds()));
    const answered = finder.goalsPlanned(this.sx, this.sy, q, this.radius, plan, record);
    if (answered !== null) {
      record.goals = null;
      return this.ended(answered);
    }
    this.goalsMode ??= { maxCost: Infinity, seeded: false, nearest: false, goals: q.goals };
    this.start = plan.start;
    this.goal = -1;
    this.jps = null;
    this.linkScratch = null;
    if (plan.runner === 'linked') {
      const need = record.views.length * slot.scratch.size;
      if (record.views.length > 1 && (slot.layers === undefined || slot.layers.size < need)) slot.layers = new SearchScratch(need);
      this.linkScratch = record.views.length > 1 ? slot.layers! : slot.scratch;
    }
    this.fresh = true;
    this.done = 0;
  }

  /** Up to `n` expansions of the running phase; returns how many it made (the phase may end). */
  private advance(n: number): number {
    const q = this.q;
    const slot = this.slot as SearchSlot;
    const before = this.done;
    const runner = this.plan.runner;
    const fresh = this.fresh;
    this.fresh = false;
    if (runner === 'jps' || runner === 'jps+') {
      // Jump point search pauses between two expansions; maxIterations counts its scans too.
      const run = slot.jump as JumpRun;
      run.counts.fresh = fresh;
      run.counts.stopAt = before + n;
      const cardinal = q.model.name === 'cardinal';
      const workBefore = fresh ? 0 : run.counts.work;
      const out = this.jps!.search(q.view, q.layer, this.start, this.goal, cardinal, q.maxIterations, runner === 'jps+', this.out, this.plan.tables, run);
      this.workDone += run.counts.work - workBefore;
      this.done = out.expanded;
      if (!run.counts.paused) this.ended(this.finder.answer(out, slot.astar, this.jps, cardinal, q, this.goal, this.goalCell));
      return out.expanded - before;
    }
    if (runner === 'linked') {
      const s = slot.link as LinkedSearch;
      const scratch = this.linkScratch as SearchScratch;
      const out = linkedSearch(scratch, s, this.start, this.goal, q.maxIterations, this.out, fresh, before, before + n);
      this.done = out.expanded;
      this.workDone += out.expanded - before;
      if (!s.paused) {
        const goals = q.goals !== null;
        s.goals = null;
        this.ended(goals ? this.finder.linkedGoalsAnswer(out, scratch, s, q) : this.finder.linkedAnswer(out, scratch, s, q, this.goal));
      }
      return out.expanded - before;
    }
    const stopAt = Math.min(q.maxIterations, before + n);
    const hs = q.view.minCost * q.weight;
    const out =
      runner === 'octile'
        ? slot.astar.octileSteps(q.view, this.start, this.goal, hs, fresh, before, stopAt, this.out)
        : q.goals !== null
          ? slot.astar.genericSteps(q.view, q.model, this.start, -1, this.plan.hs, fresh, before, stopAt, this.out, this.goalsMode!)
          : slot.astar.genericSteps(q.view, q.model, this.start, this.goal, hs, fresh, before, stopAt, this.out, q.nearest ? NEAREST : PLAIN);
    this.done = out.expanded;
    this.workDone += out.expanded - before;
    // Stopped by the slice, not by maxIterations: paused.
    if (!(out.limited && out.expanded < q.maxIterations)) this.ended(q.goals !== null ? this.finder.goalsAnswer(out, slot.astar, q) : this.finder.answer(out, slot.astar, null, false, q, this.goal, this.goalCell));
    return out.expanded - before;
  }

  /** A phase's answer: the search's, or (around obstacles, without a way round) on to the next phase. */
  private ended(r: PathResult): void {
    if (this.phase === AROUND) {
      if (r.status === 'found') {
        r.avoided = true;
        return this.finish(r);
      }
      this.aroundExpanded = r.expanded;
      const q = this.q;
      q.view = this.baseView as SearchView;
      q.goalView = q.view;
      q.overlay = q.view !== this.finder.grid.searchView(q.layer);
      return this.open(THROUGH);
    }
    r.expanded += this.aroundExpanded;
    r.avoided = this.obstacles.length === 0;
    this.finish(r);
  }

  private finish(r: PathResult): void {
    this.answer = r;
    this.release();
  }

  private release(): void {
    if (this.slot !== null) this.finder.returnSlot(this.slot);
    this.slot = null;
    this.baseView = null;
    this.jps = null;
    this.linkScratch = null;
  }
}
