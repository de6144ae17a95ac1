import type { MovementName, NavGrid } from 'tilenav';
import { AGENT_ACTIVE, AGENT_FLOW, AGENT_UNREACHABLE, NavigationSystem, type GroupOrder } from 'tilenav/agents';

/** What the view needs to draw the units of one frame (cell coordinates, interpolated). */
export interface UnitFrame {
  count: number;
  x: Float64Array;
  y: Float64Array;
  radius: Float64Array;
  selected: Uint8Array;
  /** Remaining route of each moving unit: [x0, y0, x1, y1, ...] from its position, or null. */
  routes: (Float64Array | null)[];
}

/** The longest real-time gap one frame simulates (a hidden tab does not make units jump far). */
const MAX_FRAME_SECONDS = 0.25;
/** Steps between checks that ordered units still head for their slots (1 s at 60 steps/s). */
const RETRY_STEPS = 60;
/** How often a unit standing short of its slot is sent again before the order is dropped. */
const MAX_RETRIES = 30;
/**
 * Within this of its slot (cells) a unit counts as in formation: in a crowd units settle in each
 * other's slots; a nudge (nudgeDist 3) or a unit left behind at a door is farther.
 */
const SLOT_TOLERANCE = 2;
/** Ticks the mean step time is taken over (about a second at 60 frames a second). */
const STEP_WINDOW = 60;

/**
 * The demo's units: a NavigationSystem on the shown grid and layer, the selection, and the
 * fixed-step clock driven from requestAnimationFrame (update(dt) with the system's accumulator;
 * drawing interpolates between the last two steps).
 *
 * Orders persist as a player expects: the system gives up on a unit stuck behind others in a
 * one-cell door (stuckTime) and a nudge replaces a standing unit's target, so once a second a
 * unit standing more than SLOT_TOLERANCE from its formation slot is sent there again (at most
 * MAX_RETRIES times per order): a unit nudged aside after arriving walks back to its slot.
 */
export class Units {
  readonly sys: NavigationSystem;
  readonly selected = new Set<number>();
  /** When true, real time does not advance the simulation (tests step it with `step`). */
  paused = false;
  /** Milliseconds the last tick spent stepping the simulation. */
  lastStepMs = 0;
  private lastTime = -1;
  private readonly frameData: UnitFrame = { count: 0, x: new Float64Array(0), y: new Float64Array(0), radius: new Float64Array(0), selected: new Uint8Array(0), routes: [] };
  private readonly p = { x: 0, y: 0 };
  /** Each ordered unit's formation slot (until its next order or removal). */
  private readonly goals = new Map<number, { x: number; y: number; tries: number }>();
  private lastRetryStep = 0;

  /** Draw each moving unit's remaining route (off for the crowd scenes: hundreds of lines hide the units). */
  showRoutes = true;
  /** The time of the last STEP_WINDOW ticks that stepped (ms), a ring, for the mean shown with a crowd. */
  readonly stepTimes = new Float64Array(STEP_WINDOW);
  /** Ticks written to stepTimes so far. */
  stepTicks = 0;

  constructor(
    readonly grid: NavGrid,
    readonly layer: number,
    movement: MovementName,
    readonly avoidance: 'orca' | 'none' = 'none',
  ) {
    this.sys = new NavigationSystem(grid, { layer, movement, avoidance });
  }

  /** The mean of the last STEP_WINDOW ticks' step times (ms), 0 before the first. */
  meanStepMs(): number {
    const n = Math.min(this.stepTicks, STEP_WINDOW);
    let sum = 0;
    for (let k = 0; k < n; k++) sum += this.stepTimes[k];
    return n === 0 ? 0 : sum / n;
  }

  dispose(): void {
    this.sys.dispose();
  }

  /** Active unit ids, ascending. */
  ids(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.sys.count; i++) if ((this.sys.flags[i] & AGENT_ACTIVE) !== 0) out.push(i);
    return out;
  }

  get size(): number {
    return this.ids().length;
  }

  anyMoving(): boolean {
    for (let i = 0; i < this.sys.count; i++) if ((this.sys.flags[i] & AGENT_ACTIVE) !== 0 && this.busy(i)) return true;
    return false;
  }

  /** Walking, or standing short of the slot of its last order (it will be sent again). */
  busy(id: number): boolean {
    if (this.sys.isMoving(id)) return true;
    const g = this.goals.get(id);
    return g !== undefined && g.tries < MAX_RETRIES && Math.hypot(this.sys.x[id] - g.x, this.sys.y[id] - g.y) > SLOT_TOLERANCE;
  }

  /**
   * Adds up to `n` units on the free walkable cells nearest (cx, cy), breadth first over the
   * layer (one unit per cell), never on the cells of `avoid` (indices: the route markers).
   * Returns the new ids (fewer when the area is full).
   */
  add(n: number, cx: number, cy: number, avoid: readonly number[] = []): number[] {
    const g = this.grid;
    const out: number[] = [];
    if (!g.inBounds(cx, cy)) return out;
    const seen = new Uint8Array(g.size);
    const queue = [cy * g.width + cx];
    seen[queue[0]] = 1;
    for (let head = 0; head < queue.length && out.length < n; head++) {
      const c = queue[head];
      const x = c % g.width;
      const y = (c / g.width) | 0;
      // Blocked cells are passed through, not stopped at: the view centre may be a wall.
      if (g.isWalkable(x, y, this.layer) && this.sys.agentAt(x, y) < 0 && this.nearest(x, y) > 0.8 && !avoid.includes(c)) out.push(this.sys.addAgent({ x, y }));
      for (const [dx, dy] of [[1, 0], [0, 1], [-1, 0], [0, -1]]) {
        const nx = x + dx;
        const ny = y + dy;
        if (!g.inBounds(nx, ny) || seen[ny * g.width + nx]) continue;
        seen[ny * g.width + nx] = 1;
        queue.push(ny * g.width + nx);
      }
    }
    return out;
  }

  /** Orders the selection to (x, y) as one group; null without a selection. */
  order(x: number, y: number): GroupOrder | null {
    if (this.selected.size === 0) return null;
    const ids = [...this.selected].sort((a, b) => a - b);
    const o = this.sys.moveGroup(ids, x, y);
    ids.forEach((id, k) => {
      if (o.formation === null || (this.sys.flags[id] & AGENT_UNREACHABLE) !== 0) this.goals.delete(id);
      else this.goals.set(id, { x: o.formation.slots[2 * k], y: o.formation.slots[2 * k + 1], tries: 0 });
    });
    return o;
  }

  /** Sends again the ordered units that stand short of their slots (see the class comment). */
  private retry(): void {
    const s = this.sys;
    if (s.stats.steps - this.lastRetryStep < RETRY_STEPS) return;
    this.lastRetryStep = s.stats.steps;
    for (const [id, g] of this.goals) {
      if (!s.has(id) || (s.flags[id] & AGENT_UNREACHABLE) !== 0) this.goals.delete(id);
      else if (this.busy(id) && !s.isMoving(id)) {
        g.tries++;
        s.moveTo(id, g.x, g.y);
      }
    }
  }

  /** Advances real time to `now` (ms); true when something moved (the frame must be redrawn). */
  tick(now: number): boolean {
    const last = this.lastTime;
    this.lastTime = now;
    if (last < 0 || this.paused || !this.anyMoving()) return false;
    const t0 = performance.now();
    const steps = this.sys.update(Math.min(MAX_FRAME_SECONDS, (now - last) / 1000));
    this.retry();
    this.lastStepMs = performance.now() - t0;
    if (steps > 0) this.stepTimes[this.stepTicks++ % STEP_WINDOW] = this.lastStepMs;
    // Interpolation moves the drawing every frame while anyone walks, steps or not.
    return steps > 0 || this.sys.alpha > 0;
  }

  /** Runs `n` fixed steps at once (tests: faster than real time). */
  step(n: number): void {
    for (let k = 0; k < n; k++) {
      const t0 = performance.now();
      this.sys.step();
      this.retry();
      this.lastStepMs = performance.now() - t0;
      this.stepTimes[this.stepTicks++ % STEP_WINDOW] = this.lastStepMs;
    }
  }

  /** Distance from (x, y) to the nearest unit centre (Infinity without units). */
  private nearest(x: number, y: number): number {
    let best = Infinity;
    for (let i = 0; i < this.sys.count; i++) {
      if ((this.sys.flags[i] & AGENT_ACTIVE) !== 0) best = Math.min(best, Math.hypot(this.sys.x[i] - x, this.sys.y[i] - y));
    }
    return best;
  }

  /** Interpolated positions, selection and remaining routes, reusing buffers between frames. */
  frame(): UnitFrame {
    const s = this.sys;
    const f = this.frameData;
    if (f.x.length < s.count) {
      f.x = new Float64Array(s.count * 2);
      f.y = new Float64Array(s.count * 2);
      f.radius = new Float64Array(s.count * 2);
      f.selected = new Uint8Array(s.count * 2);
    }
    f.routes.length = 0;
    let n = 0;
    for (let i = 0; i < s.count; i++) {
      if ((s.flags[i] & AGENT_ACTIVE) === 0) continue;
      const p = s.interpolated(i, this.p);
      f.x[n] = p.x;
      f.y[n] = p.y;
      f.radius[n] = s.radius[i];
      f.selected[n] = this.selected.has(i) ? 1 : 0;
      f.routes.push(this.showRoutes && s.isMoving(i) && (s.flags[i] & AGENT_UNREACHABLE) === 0 ? this.route(i, p.x, p.y) : null);
      n++;
    }
    f.count = n;
    return f;
  }

  /** From the unit to its path's remaining waypoints (or straight at its target on a flow field). */
  private route(i: number, x: number, y: number): Float64Array {
    const s = this.sys;
    const path = (s.flags[i] & AGENT_FLOW) !== 0 ? null : s.path(i);
    if (path === null) return Float64Array.of(x, y, s.targetX[i], s.targetY[i]);
    const k = Math.min(s.waypointIndex[i] * 2, path.length);
    const out = new Float64Array(2 + path.length - k);
    out[0] = x;
    out[1] = y;
    out.set(path.subarray(k), 2);
    return out;
  }
}
