/**
 * A chase: units that follow a moving target (a horde after the player) down flow fields that the
 * grid's cache shares with every other order to the same cell.
 *
 * The target's cell changes often; a field to a new cell costs a search out to the farthest
 * unit, too much to pay in one step for a big map and a big crowd. So a chase keeps up to three
 * fields, each exact for its own goal cell, and spends a budget of cells per step on them:
 * - `fresh`: the field to the target's cell now, started anew when the target changes cell;
 *   it grows around the target, so the units near it (the ones that matter most) follow the
 *   target itself within a step or two.
 * - `building`: the newest field still growing toward every unit (it starts as a fresh field).
 * - `complete`: the newest field that reached every unit.
 * A unit follows the newest of them that has its cell: the units beyond the fresh field walk a
 * cheapest path to where the target stood when the complete field was started, a little while
 * ago. Once `building` reaches every unit it becomes `complete`, and the fresh field, if the
 * target has moved on, starts building.
 *
 * With a PathService (`NavigationSystem({ service })`) the fields that must reach every unit (the
 * first, and each `building` one) are built in the service's workers, as far as the units' cells
 * (`build`); the main thread grows only the fresh field around the target meanwhile, and the units
 * whose cell no field has yet walk straight at the target until the worker's field comes.
 */
import type { FlowField, FlowFieldCache, UnitField } from './flowfield.js';
import type { MovementModel } from '../search/movement.js';
import type { CellPoint } from '../grid/projection.js';

/**
 * Whom a chase follows: an agent's id, or a function called once per step that says where the
 * target is (cell coordinates; it may return the same object every time), or null when the chase
 * is over.
 */
export type ChaseTarget = number | (() => CellPoint | null | undefined);

/** A chase order's outcome. */
export interface ChaseOrder {
  /** The group order id the units carry in `group`. */
  group: number;
  /** Units known at once to be unable to reach the target (they stand, flagged AGENT_UNREACHABLE). */
  unreachable: number;
}

/** The fields of one chase and the units it moves. @internal */
/** Asks for `field` to be built elsewhere as far as `cells` need (a PathService worker); it is installed later. @internal */
export type FieldBuilder = (field: FlowField, cells: Int32Array) => void;

export class Chase implements UnitField {
  readonly chasing = true;
  readonly target: ChaseTarget;
  /** The units ordered (those given another order since are skipped: their group changed). */
  readonly members: Int32Array;
  /** The members' cells this step, -1 for those no longer chasing. */
  readonly cells: Int32Array;
  /** The target's position this step (cell coordinates). */
  x = 0;
  y = 0;
  private fresh: FlowField;
  private building: FlowField | null = null;
  private complete: FlowField;
  /** The fields this chase holds in the cache (one hold each, whatever roles it plays). */
  private readonly held = new Set<FlowField>();
  private readonly cache: FlowFieldCache;
  private readonly layer: number;
  private readonly model: MovementModel;
  /** Builds the fields that must reach every member off the main thread; null: grown here. */
  private readonly build: FieldBuilder | null;
  /** The field `build` was last asked for (asked once: if its build fails, it grows here). */
  private asked: FlowField | null = null;

  /** A chase whose first field `first` reaches every member already (or is being built by `build`). */
  constructor(cache: FlowFieldCache, layer: number, model: MovementModel, target: ChaseTarget, members: ArrayLike<number>, first: FlowField, build: FieldBuilder | null = null) {
    this.build = build;
    this.cache = cache;
    this.layer = layer;
    this.model = model;
    this.target = target;
    this.members = Int32Array.from(members);
    this.cells = new Int32Array(members.length).fill(-1);
    this.fresh = this.complete = first;
    this.hold();
  }

  /** The target's cell: the goal of the newest field. */
  get goal(): number {
    return this.fresh.goal;
  }

  /** The fields held now, newest first (for tests and debug views). */
  get fields(): FlowField[] {
    const out = [this.fresh];
    if (this.building !== null && this.building !== this.fresh) out.push(this.building);
    if (this.complete !== this.fresh && this.complete !== this.building) out.push(this.complete);
    return out;
  }

  /**
   * One step: the goal moves to cell `goal` (walkable), and the fields may compute up to `budget`
   * cells, a quarter for the fresh field while another one is building. Reads `cells`.
   */
  step(goal: number, budget: number): void {
    if (goal !== this.fresh.goal) {
      this.fresh = this.cache.get(goal, this.layer, this.model);
      if (this.building === null && this.fresh !== this.complete) this.building = this.fresh;
      this.hold();
    }
    const b = this.building;
    if (b === null) return;
    if (this.build !== null) {
      // The field that must reach every unit comes from a worker; the fresh one, round the target,
      // grows here meanwhile (the moving goal's update), even while a worker builds it too.
      if (this.asked !== b && !b.covers(this.cells, Infinity)) {
        this.asked = b;
        this.build(b, this.cells);
      }
      if (b.workerBuilds > 0) {
        if (this.fresh !== this.complete) this.fresh.grow(Math.floor(budget / 4));
        return;
      }
    }
    const own = b === this.fresh ? budget : budget - Math.floor(budget / 4);
    if (this.fresh !== b && this.fresh !== this.complete) this.fresh.grow(Math.floor(budget / 4));
    if (b.cover(this.cells, own)) {
      this.complete = b;
      this.building = this.fresh !== b && this.fresh !== this.complete ? this.fresh : null;
      this.hold();
    }
  }

  /** The newest field that has cell i settled (the complete one when none has). */
  fieldFor(i: number): FlowField {
    if (this.fresh.isSettled(i)) return this.fresh;
    const b = this.building;
    if (b !== null && b !== this.fresh && b.isSettled(i)) return b;
    return this.complete;
  }

  next(i: number): number {
    return this.fieldFor(i).next(i);
  }

  cost(i: number): number {
    return this.fieldFor(i).cost(i);
  }

  /** Whether no field has cell i yet and the one that will is still being built by a worker. */
  waits(i: number): boolean {
    const f = this.fieldFor(i);
    return f.workerBuilds > 0 && !f.isSettled(i);
  }

  cannotReach(i: number): boolean {
    return this.complete.cannotReach(i);
  }

  /** Lets go of every field (the chase is over). */
  end(): void {
    for (const f of this.held) f.holders--;
    this.held.clear();
  }

  /** Holds the fields in use (the cache keeps them), and lets go of the others. */
  private hold(): void {
    const use = this.fields;
    for (const f of use) {
      if (this.held.has(f)) continue;
      this.held.add(f);
      f.holders++;
    }
    for (const f of this.held) {
      if (use.includes(f)) continue;
      this.held.delete(f);
      f.holders--;
    }
  }
}
