import { hypot } from './hypot.js';
import type { NavGrid } from '../grid/navgrid.js';
import { LazyNodeHeap } from '../search/kernel/heap.js';
import { movementModel, type MovementModel, type MovementName } from '../search/movement.js';
import type { UnitField } from './flowfield.js';
import type { NavigationOptions } from './options.js';
import { cellIndexAt, cellOf, segmentDistance, walkableAt } from './planner.js';
import type { SpatialHash } from './spatial.js';
import { AGENT_ACTIVE, AGENT_FLOW, AGENT_HAS_PATH, AGENT_INTENT, AGENT_NUDGED, AGENT_PATHFINDING, AGENT_PLAYER, DEFAULT_INTENT, type AgentStore } from './store.js';

/** Room kept between a spot to step to and a walker's way, beyond the two radii (cells). */
const SPOT_MARGIN = 0.1;
/** What each cell of a spot's offset along the walker's way adds to its walk: sideways is preferred... */
const ALONG_COST = 0.25;
/** ...and what each cell of it adds again when the offset is back toward the walker. */
const BACK_COST = 0.25;
/** Between spots as far to walk, the one nearer where the unit stands (its side of the way) wins. */
const NEAR_COST = 0.1;
/** What {@link StepAside.post} says of a post: clear to walk back to, held by another agent, or on a walker's way. */
const POST_CLEAR = 0;
const POST_HELD = 1;
const POST_PASSING = 2;
/**
 * A walker looks ahead for units in its way every this many steps (a quarter of the walkers each
 * step): at 60 steps a second and `stepAsideTime` 0.75 s, it sees a unit 45 steps before it would
 * reach it, and a few steps late is early enough.
 */
const CHECK_EVERY = 4;
/** A unit that found no free cell to step to early looks again this much later (seconds); a walker's touch still sends it aside at once. */
const RETRY_TIME = 0.25;
/** Most points of one way: a walker's position and the waypoints (or flow field cells) ahead of it. */
const WAY_POINTS = 64;

/**
 * Units making way for walkers, and walking back to their posts afterwards.
 *
 * A standing unit (not the player) steps aside when a walker on a real order is about to reach
 * it: when the walker's way ahead (its path, or its group's flow field, for `stepAsideTime`
 * seconds at its speed) passes within the two radii of it, or when the walker touches it. It goes
 * to the nearest free cell off the ways of the walkers near it (a search over the cells within
 * `nudgeDist` of walk, not through the walker nor another standing unit; sideways preferred, then
 * ahead, then back), so a unit in a doorway takes the next cell beside the door rather than
 * walking ahead of the walker down its route. With no such cell (a long corridor), a walker's touch sends it `nudgeDist`
 * straight away from the walker (else to a side, else back past it). A unit walking back to its
 * post whose post lies on a walker's way steps aside again.
 *
 * A unit that made way (or was shoved) walks back to its post (see `returnToPost`) after standing
 * `returnAfterNudge` seconds, once no walker's way ahead passes the post and no other unit stands
 * on it or is headed there; within `crowdedArrivalDist` of a post another unit holds, it is home.
 *
 * Every step is a function of the agents' state and the number of steps so far, agents visited
 * in id order: no randomness, no clock.
 */
export class StepAside {
  private readonly agents: AgentStore;
  private readonly hash: SpatialHash;
  private readonly grid: NavGrid;
  /** The layer of the unit being moved aside (set per unit). */
  private layer: number;
  private readonly model: MovementModel;
  private readonly options: Readonly<NavigationOptions>;
  /** Each group order's flow field, by group id (shared with the replanner that builds them). */
  private readonly fields: readonly (UnitField | null)[];
  /**
   * Walkers' ways as polylines: way k's points are ways[2 * wayStart[k]] .. before
   * ways[2 * wayStart[k + 1]], [x, y] each, and it keeps wayRoom[k] (its walker's radius) clear.
   */
  private ways = new Float64Array(WAY_POINTS * 2);
  private wayStart: Int32Array<ArrayBuffer> = new Int32Array(2);
  private wayRoom = new Float64Array(1);
  private wayCount = 0;
  /** The direction of the first way near the unit being placed (a unit vector), for the sideways preference. */
  private readonly dir = new Float64Array(2);
  /**
   * The point and distance {@link nearWay} tests: [x, y, room]. Fractional numbers passed to or
   * returned from a call the compiler does not inline are boxed on the heap, and these tests run
   * for every standing unit near every walker, every step; through this array they stay unboxed.
   */
  private readonly probe = new Float64Array(3);
  /** The length a way is cut at, and what is left of it while {@link appendWay} extends it (cells): unboxed, as `probe`. */
  private readonly left = new Float64Array(1);
  /** The disc {@link stampDisc} stamps: [x, y, radius]. */
  private readonly disc = new Float64Array(3);
  /** Calls of {@link yieldToWalkers} so far: whose turn it is to look ahead. */
  private checks = 0;
  /** When each agent last found no free cell to step to early (seconds); it looks again RETRY_TIME later. */
  private triedAt = new Float64Array(0);
  /** The standing agents found in one walker's way, collected before any of them moves. */
  private inWay: Int32Array<ArrayBuffer> = new Int32Array(16);
  /** The cell the last {@link findSpot} chose: [x, y]. */
  private readonly spot = new Float64Array(2);
  // The spot search: a Dijkstra over the square of cells within `reach` of the unit's cell.
  private reach = -1;
  private dist = new Float64Array(0);
  private mark = new Uint32Array(0);
  private blocked = new Uint32Array(0);
  private taken = new Uint32Array(0);
  private generation = 0;
  private settled = new Uint32Array(0);
  private readonly heap = new LazyNodeHeap();

  constructor(agents: AgentStore, hash: SpatialHash, grid: NavGrid, layer: number, movement: MovementName, options: Readonly<NavigationOptions>, fields: readonly (UnitField | null)[]) {
    this.agents = agents;
    this.hash = hash;
    this.grid = grid;
    this.layer = layer;
    this.model = movementModel(movement);
    this.options = options;
    this.fields = fields;
  }

  /**
   * Sends aside, at simulated time `now`, the standing units (and those walking back to a post)
   * that a walker on a real order would reach within `stepAsideTime`, when each has a free cell
   * to step to; walkers in id order, each looking ahead every CHECK_EVERY steps (in turn, by id).
   * Off at `stepAsideTime` 0.
   */
  yieldToWalkers(now: number): void {
    const o = this.options;
    const turn = this.checks++ % CHECK_EVERY;
    if (!(o.stepAsideTime > 0)) return;
    const a = this.agents;
    const hash = this.hash;
    // Most steps of a long march have nobody standing: nothing to look for.
    let standing = false;
    for (let j = 0; j < a.count && !standing; j++) standing = (a.flags[j] & (AGENT_ACTIVE | AGENT_PLAYER)) === AGENT_ACTIVE && (a.flags[j] & (AGENT_INTENT | AGENT_NUDGED)) !== AGENT_INTENT;
    if (!standing) return;
    if (this.triedAt.length < a.x.length) {
      const tried = new Float64Array(a.x.length).fill(-Infinity);
      tried.set(this.triedAt);
      this.triedAt = tried;
    }
    let built = false;
    for (let w = 0; w < a.count; w++) {
      if (w % CHECK_EVERY !== turn || (a.flags[w] & (AGENT_ACTIVE | AGENT_INTENT | AGENT_NUDGED)) !== (AGENT_ACTIVE | AGENT_INTENT)) continue;
      this.wayCount = 0;
      this.setAhead(w);
      if (!this.appendWay(w)) continue;
      if (!built) {
        hash.build(a);
        built = true;
      }
      let x0 = Infinity;
      let y0 = Infinity;
      let x1 = -Infinity;
      let y1 = -Infinity;
      for (let p = 0; p < this.wayStart[1]; p++) {
        x0 = Math.min(x0, this.ways[2 * p]);
        x1 = Math.max(x1, this.ways[2 * p]);
        y0 = Math.min(y0, this.ways[2 * p + 1]);
        y1 = Math.max(y1, this.ways[2 * p + 1]);
      }
      // A bucket is at least any agent's diameter, so it covers the radius of whoever stands there.
      const pad = a.radius[w] + hash.bucket;
      hash.beginRect(hash.bucketOf(x0 - pad), hash.bucketOf(x1 + pad), hash.bucketOf(y0 - pad), hash.bucketOf(y1 + pad));
      let found = 0;
      for (let s = hash.nextSlot(); s >= 0; s = hash.nextSlot()) {
        for (let q = hash.start[s]; q < hash.start[s + 1]; q++) {
          const j = hash.items[q];
          if (j === w || now - this.triedAt[j] < RETRY_TIME || !this.inWayOf(j, w)) continue;
          if (found === this.inWay.length) this.inWay = grownInt(this.inWay, found * 2);
          this.inWay[found++] = j;
        }
      }
      for (let q = 0; q < found; q++) if (!this.sendAside(this.inWay[q], w, now, false)) this.triedAt[this.inWay[q]] = now;
    }
  }

  /**
   * Whether agent j, measured against the way in slot 0 (walker w's), must make way: a standing
   * unit (not the player) that the way passes within the two radii of, or a unit walking back to
   * a post that lies so.
   */
  private inWayOf(j: number, w: number): boolean {
    const a = this.agents;
    const f = a.flags[j];
    if ((f & (AGENT_ACTIVE | AGENT_PLAYER)) !== AGENT_ACTIVE) return false;
    const probe = this.probe;
    probe[2] = a.radius[j] + a.radius[w];
    if ((f & AGENT_INTENT) === 0) {
      probe[0] = a.x[j];
      probe[1] = a.y[j];
      return this.nearWay(0);
    }
    if ((f & AGENT_NUDGED) === 0 || a.targetX[j] !== a.homeX[j] || a.targetY[j] !== a.homeY[j]) return false;
    probe[0] = a.targetX[j];
    probe[1] = a.targetY[j];
    return this.nearWay(0);
  }

  /**
   * Standing unit s makes way for walker w at time `now`: to the nearest free cell off the ways of
   * the walkers near it, else off w's alone; with neither and `push` (w touched it), `nudgeDist`
   * straight away from w (or to a side, or back past it: the first of those in a walkable cell).
   * False when it found no free cell.
   */
  sendAside(s: number, w: number, now: number, push: boolean): boolean {
    const a = this.agents;
    if (this.findSpot(s, w, true) || this.findSpot(s, w, false)) {
      // It stays in its group: stepping aside for a comrade must not make the group replan.
      a.order(s, this.spot[0], this.spot[1], DEFAULT_INTENT, a.group[s], now, true);
      a.flags[s] |= AGENT_NUDGED;
      return true;
    }
    if (push && !this.pushAway(s, w, now)) this.waitToReturn(s, now);
    return false;
  }

  /** Standing unit s was shoved at time `now` but not sent anywhere: it walks back after `returnAfterNudge`, like a unit that stepped aside. */
  waitToReturn(s: number, now: number): void {
    const a = this.agents;
    if (this.options.returnAfterNudge > 0 && Number.isFinite(a.homeX[s]) && a.returnAt[s] === 0) a.returnAt[s] = now + this.options.returnAfterNudge;
  }

  /**
   * Units that made way and have stood until their `returnAt` time walk back to their post,
   * once it is clear (see {@link post}; checked again each step until then), unless already
   * within their arrival threshold of it. One within `crowdedArrivalDist` of a post another unit
   * holds is home: in a crowd, half a cell from the spot is where a unit ends an order too.
   */
  sendHome(now: number): void {
    const a = this.agents;
    for (let i = 0; i < a.count; i++) {
      if (a.returnAt[i] === 0 || now < a.returnAt[i] || (a.flags[i] & (AGENT_ACTIVE | AGENT_INTENT)) !== AGENT_ACTIVE) continue;
      if (hypot(a.x[i] - a.homeX[i], a.y[i] - a.homeY[i]) <= a.arrivalThreshold[i]) {
        a.returnAt[i] = 0;
        continue;
      }
      const post = this.post(i);
      if (post !== POST_CLEAR) {
        if (post === POST_HELD && hypot(a.x[i] - a.homeX[i], a.y[i] - a.homeY[i]) <= this.options.crowdedArrivalDist) a.returnAt[i] = 0;
        continue;
      }
      a.returnAt[i] = 0;
      a.order(i, a.homeX[i], a.homeY[i], DEFAULT_INTENT, a.group[i], now, true);
      a.flags[i] |= AGENT_NUDGED;
    }
  }

  /**
   * Whether agent i's post is clear to walk back to (POST_CLEAR), held (POST_HELD: another agent
   * stands on it or is headed there), or about to be walked over (POST_PASSING: a walker on a
   * real order has it on its way ahead, `stepAsideTime` at its speed).
   */
  private post(i: number): number {
    const a = this.agents;
    const hx = a.homeX[i];
    const hy = a.homeY[i];
    const ri = a.radius[i];
    let passing = false;
    for (let j = 0; j < a.count; j++) {
      const f = a.flags[j];
      if (j === i || (f & AGENT_ACTIVE) === 0) continue;
      const room = ri + a.radius[j];
      if ((f & AGENT_INTENT) === 0) {
        if (hypot(a.x[j] - hx, a.y[j] - hy) < room) return POST_HELD;
        continue;
      }
      if (hypot(a.targetX[j] - hx, a.targetY[j] - hy) < room) return POST_HELD;
      if ((f & AGENT_NUDGED) !== 0 || passing) continue;
      this.setAhead(j);
      if (hypot(a.x[j] - hx, a.y[j] - hy) > this.left[0] + room) continue;
      this.wayCount = 0;
      this.probe[0] = hx;
      this.probe[1] = hy;
      this.probe[2] = room + SPOT_MARGIN;
      passing = this.appendWay(j) && this.nearWay(0);
    }
    return passing ? POST_PASSING : POST_CLEAR;
  }

  /**
   * Finds the spot for unit s making way for walker w, into `spot`: the cell with the least walk
   * from s's cell (within `nudgeDist`, by the movement's steps and corner rule, never into the
   * walker's disc) plus the sideways preference, whose centre keeps clear of the ways (w's alone,
   * or with `all` those of every walker on a real order that could come near within
   * `stepAsideTime`) and of every other agent (where it stands, or where it is headed).
   */
  private findSpot(s: number, w: number, all: boolean): boolean {
    const a = this.agents;
    const o = this.options;
    const limit = o.nudgeDist;
    const rs = a.radius[s];
    const sx = a.x[s];
    const sy = a.y[s];
    const wx = a.x[w];
    const wy = a.y[w];
    const gap = hypot(sx - wx, sy - wy);
    this.wayCount = 0;
    this.left[0] = gap + limit + 2 * (rs + a.radius[w]) + 1;
    if (!this.appendWay(w)) {
      // No way known yet (a plan pending): the line from the walker through the unit.
      const ux = gap > 1e-9 ? (sx - wx) / gap : 1;
      const uy = gap > 1e-9 ? (sy - wy) / gap : 0;
      const far = gap + limit + rs + a.radius[w];
      this.ensureWays(2);
      this.ways[0] = wx;
      this.ways[1] = wy;
      this.ways[2] = wx + ux * far;
      this.ways[3] = wy + uy * far;
      this.wayStart[1] = 2;
      this.wayRoom[0] = a.radius[w];
      this.wayCount = 1;
    }
    this.wayDirection(sx, sy);
    if (all) {
      for (let j = 0; j < a.count; j++) {
        if (j === w || j === s || (a.flags[j] & (AGENT_ACTIVE | AGENT_INTENT | AGENT_NUDGED)) !== (AGENT_ACTIVE | AGENT_INTENT)) continue;
        const d = hypot(a.x[j] - sx, a.y[j] - sy);
        this.setAhead(j);
        if (d > this.left[0] + limit + rs + a.radius[j]) continue;
        this.left[0] = d + limit + 2 * (rs + a.radius[j]) + 1;
        this.appendWay(j);
      }
      // Nothing but w near: the search without the others gives the same answer.
      if (this.wayCount === 1) return false;
    }
    return this.search(s, w);
  }

  /** The Dijkstra of {@link findSpot} over the ways collected; the cell into `spot`. */
  private search(s: number, w: number): boolean {
    const a = this.agents;
    this.layer = a.layer[s];
    const model = this.model;
    const limit = this.options.nudgeDist;
    const R = Math.ceil(limit) + 1;
    const side = 2 * R + 1;
    this.ensureSearch(R);
    const x0 = cellOf(a.x[s]);
    const y0 = cellOf(a.y[s]);
    if (!this.open(x0, y0)) return false;
    const gen = this.nextGeneration();
    const dist = this.dist;
    const mark = this.mark;
    this.markAgents(s, w, x0, y0, R, gen);
    const blocked = this.blocked;
    const taken = this.taken;
    const rs = a.radius[s];
    const ux = this.dir[0];
    const uy = this.dir[1];
    const settled = this.settled;
    const heap = this.heap;
    const start = R * side + R;
    dist[start] = 0;
    mark[start] = gen;
    heap.clear();
    // Ties by cell index: the same spot on every run.
    heap.push(start, 0, 0);
    let best = Infinity;
    while (heap.size > 0) {
      const k = heap.pop();
      // An improved cell was pushed again: its first entry out has its least walk.
      if (settled[k] === gen) continue;
      settled[k] = gen;
      const d = dist[k];
      if (d >= best) break;
      const cx = x0 + (k % side) - R;
      const cy = y0 + Math.floor(k / side) - R;
      const ox = cx - a.x[s];
      const oy = cy - a.y[s];
      const along = ox * ux + oy * uy;
      const score = d + ALONG_COST * Math.abs(along) + (along < 0 ? -BACK_COST * along : 0) + NEAR_COST * hypot(ox, oy);
      if (score < best && taken[k] !== gen && this.offWays(cx, cy, s)) {
        best = score;
        this.spot[0] = cx;
        this.spot[1] = cy;
      }
      const parity = model.parityAxis === 'y' ? cy & 1 : model.parityAxis === 'x' ? cx & 1 : 0;
      const steps = model.steps[parity];
      for (let q = 0; q < steps.length; q++) {
        const st = steps[q];
        const nx = cx + st.dx;
        const ny = cy + st.dy;
        if (Math.abs(nx - x0) > R || Math.abs(ny - y0) > R || !this.open(nx, ny)) continue;
        if (st.diagonal && (this.open(nx, cy) ? 0 : 1) + (this.open(cx, ny) ? 0 : 1) > model.corner) continue;
        const nd = d + st.length;
        const kk = (ny - y0 + R) * side + (nx - x0 + R);
        if (nd > limit || blocked[kk] === gen || (mark[kk] === gen && dist[kk] <= nd)) continue;
        mark[kk] = gen;
        dist[kk] = nd;
        heap.push(kk, nd, 0);
      }
    }
    return best < Infinity;
  }

  /** Whether cell (x, y) is on the grid and walkable on the agents' layer. */
  private open(x: number, y: number): boolean {
    const grid = this.grid;
    return x >= 0 && y >= 0 && x < grid.width && y < grid.height && grid.layers[this.layer].walkable[y * grid.width + x] === 1;
  }

  /** Whether cell (x, y) keeps every collected way's radius plus unit s's plus the margin clear. */
  private offWays(x: number, y: number, s: number): boolean {
    const rs = this.agents.radius[s];
    const probe = this.probe;
    probe[0] = x;
    probe[1] = y;
    for (let k = 0; k < this.wayCount; k++) {
      probe[2] = rs + this.wayRoom[k] + SPOT_MARGIN;
      if (this.nearWay(k)) return false;
    }
    return true;
  }

  /**
   * Stamps `gen` on the window's cells (centred on cell (x0, y0), R each way) that unit s cannot
   * use: `taken` where its disc would overlap another agent standing there, one with an order
   * headed there, or another's post (walker w aside: its way is kept clear anyway); and `blocked`,
   * not to be walked through, where it would overlap w or another standing agent. Stepping
   * through a comrade would shove it, and in a corridor the two would change places and each
   * walk back through the other for ever; standing on another's post, it would keep that one
   * waiting.
   */
  private markAgents(s: number, w: number, x0: number, y0: number, R: number, gen: number): void {
    const a = this.agents;
    const rs = a.radius[s];
    for (let j = 0; j < a.count; j++) {
      const f = a.flags[j];
      if (j === s || (f & AGENT_ACTIVE) === 0) continue;
      const standing = (f & AGENT_INTENT) === 0;
      const disc = this.disc;
      disc[2] = rs + a.radius[j];
      disc[0] = standing || j === w ? a.x[j] : a.targetX[j];
      disc[1] = standing || j === w ? a.y[j] : a.targetY[j];
      this.stampDisc(x0, y0, R, gen, standing || j === w, j !== w);
      if (j === w || !Number.isFinite(a.homeX[j])) continue;
      disc[0] = a.homeX[j];
      disc[1] = a.homeY[j];
      this.stampDisc(x0, y0, R, gen, false, true);
    }
  }

  /** Stamps `gen` in `blocked` (with `block`) and `taken` (with `take`) on the window's cells whose centre lies within disc[2] of (disc[0], disc[1]). */
  private stampDisc(x0: number, y0: number, R: number, gen: number, block: boolean, take: boolean): void {
    const x = this.disc[0];
    const y = this.disc[1];
    const r = this.disc[2];
    const side = 2 * R + 1;
    const cx0 = Math.max(Math.ceil(x - r), x0 - R);
    const cx1 = Math.min(Math.floor(x + r), x0 + R);
    const cy0 = Math.max(Math.ceil(y - r), y0 - R);
    const cy1 = Math.min(Math.floor(y + r), y0 + R);
    for (let cy = cy0; cy <= cy1; cy++) {
      for (let cx = cx0; cx <= cx1; cx++) {
        if (hypot(cx - x, cy - y) >= r) continue;
        const k = (cy - y0 + R) * side + (cx - x0 + R);
        if (block) this.blocked[k] = gen;
        if (take) this.taken[k] = gen;
      }
    }
  }

  /** The old step aside, when no free cell is near: `nudgeDist` straight away from `from`, else to a side, else back past it. */
  private pushAway(s: number, from: number, now: number): boolean {
    const a = this.agents;
    let dx = a.x[s] - a.x[from];
    let dy = a.y[s] - a.y[from];
    const d = hypot(dx, dy);
    if (d < 1e-9) {
      dx = 1;
      dy = 0;
    } else {
      dx /= d;
      dy /= d;
    }
    const dist = this.options.nudgeDist;
    for (let k = 0; k < 4; k++) {
      const ux = k === 0 ? dx : k === 1 ? -dy : k === 2 ? dy : -dx;
      const uy = k === 0 ? dy : k === 1 ? dx : k === 2 ? -dx : -dy;
      const tx = a.x[s] + ux * dist;
      const ty = a.y[s] + uy * dist;
      if (!walkableAt(this.grid, a.layer[s], tx, ty)) continue;
      a.order(s, tx, ty, DEFAULT_INTENT, a.group[s], now, true);
      a.flags[s] |= AGENT_NUDGED;
      return true;
    }
    return false;
  }

  // ---- ways ----------------------------------------------------------------------------------

  /** Into `left`: how far ahead of walker w its way is watched (cells), `stepAsideTime` at its speed plus its diameter and a half cell. */
  private setAhead(w: number): void {
    const a = this.agents;
    this.left[0] = a.walkSpeed[w] * a.desiredSpeed[w] * this.options.stepAsideTime + 2 * a.radius[w] + 0.5;
  }

  /**
   * Appends walker w's way as a polyline: from where it stands along its waypoints (or down its
   * group's flow field, or straight at its target when it walks without pathfinding), cut at
   * `left[0]` cells and WAY_POINTS points. False (nothing appended) when it has no way yet.
   */
  private appendWay(w: number): boolean {
    const a = this.agents;
    const grid = this.grid;
    const f = a.flags[w];
    this.ensureWays(WAY_POINTS);
    const first = this.wayStart[this.wayCount];
    let n = first;
    const ways = this.ways;
    const left = this.left;
    ways[2 * n] = a.x[w];
    ways[2 * n + 1] = a.y[w];
    n++;
    const field = (f & AGENT_FLOW) !== 0 ? this.fields[a.group[w]] : null;
    if (field) {
      let c = cellIndexAt(grid, a.x[w], a.y[w]);
      while (left[0] > 0 && n - first < WAY_POINTS) {
        // A cell the field has not reached yet (it grows a step at a time) gives no way ahead.
        const next = c < 0 || field.waits(c) ? -1 : field.next(c);
        if (next < 0) break;
        ways[2 * n] = grid.xOf(next);
        ways[2 * n + 1] = grid.yOf(next);
        this.cut(n++);
        c = next;
      }
    } else if ((f & AGENT_PATHFINDING) === 0) {
      ways[2 * n] = a.targetX[w];
      ways[2 * n + 1] = a.targetY[w];
      this.cut(n++);
    } else {
      const path = a.paths[w];
      if ((f & AGENT_HAS_PATH) === 0 || path === null) return false;
      for (let k = a.waypointIndex[w]; 2 * k + 1 < path.length && left[0] > 0 && n - first < WAY_POINTS; k++) {
        ways[2 * n] = path[2 * k];
        ways[2 * n + 1] = path[2 * k + 1];
        this.cut(n++);
      }
    }
    if (n - first < 2) return false;
    this.wayRoom[this.wayCount] = a.radius[w];
    this.wayCount++;
    this.wayStart[this.wayCount] = n;
    return true;
  }

  /** Pulls point n of the way toward point n - 1 when the segment is longer than what is left of the way, `left[0]`, and takes its length from that. */
  private cut(n: number): void {
    const ways = this.ways;
    const px = ways[2 * n - 2];
    const py = ways[2 * n - 1];
    const x = ways[2 * n];
    const y = ways[2 * n + 1];
    const d = hypot(x - px, y - py);
    const left = this.left[0];
    const t = d > left ? left / d : 1;
    ways[2 * n] = px + (x - px) * t;
    ways[2 * n + 1] = py + (y - py) * t;
    this.left[0] = left - d;
  }

  /** Whether way k passes closer than probe[2] to the point (probe[0], probe[1]). */
  private nearWay(k: number): boolean {
    const ways = this.ways;
    const px = this.probe[0];
    const py = this.probe[1];
    const room2 = this.probe[2] * this.probe[2];
    for (let p = this.wayStart[k]; p + 1 < this.wayStart[k + 1]; p++) {
      // The squared distance to segment p, p + 1 (as segmentDistance, without its square root).
      const ax = ways[2 * p];
      const ay = ways[2 * p + 1];
      const vx = ways[2 * p + 2] - ax;
      const vy = ways[2 * p + 3] - ay;
      const len2 = vx * vx + vy * vy;
      let t = len2 > 0 ? ((px - ax) * vx + (py - ay) * vy) / len2 : 0;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      const dx = px - (ax + t * vx);
      const dy = py - (ay + t * vy);
      if (dx * dx + dy * dy < room2) return true;
    }
    return false;
  }

  /** Into `dir`: the direction of way 0's segment nearest (x, y), or from the way's start toward (x, y) when that segment has no length. */
  private wayDirection(x: number, y: number): void {
    const ways = this.ways;
    let best = Infinity;
    let dx = x - ways[0];
    let dy = y - ways[1];
    for (let p = this.wayStart[0]; p + 1 < this.wayStart[1]; p++) {
      const ex = ways[2 * p + 2] - ways[2 * p];
      const ey = ways[2 * p + 3] - ways[2 * p + 1];
      const d = segmentDistance(x, y, ways[2 * p], ways[2 * p + 1], ways[2 * p + 2], ways[2 * p + 3]);
      if (d < best && (ex !== 0 || ey !== 0)) {
        best = d;
        dx = ex;
        dy = ey;
      }
    }
    const m = hypot(dx, dy);
    this.dir[0] = m > 1e-9 ? dx / m : 1;
    this.dir[1] = m > 1e-9 ? dy / m : 0;
  }

  /** Room for `points` more points and one more way after those collected. */
  private ensureWays(points: number): void {
    const need = 2 * (this.wayStart[this.wayCount] + points);
    if (this.ways.length < need) {
      const grown = new Float64Array(Math.max(need, this.ways.length * 2));
      grown.set(this.ways);
      this.ways = grown;
    }
    if (this.wayStart.length < this.wayCount + 2) {
      this.wayStart = grownInt(this.wayStart, this.wayStart.length * 2);
      const room = new Float64Array(this.wayStart.length);
      room.set(this.wayRoom);
      this.wayRoom = room;
    }
  }

  // ---- the search's scratch ------------------------------------------------------------------

  /** Sizes the search's arrays for a square of (2R + 1)^2 cells. */
  private ensureSearch(R: number): void {
    if (this.reach === R) return;
    this.reach = R;
    const cells = (2 * R + 1) * (2 * R + 1);
    this.dist = new Float64Array(cells);
    this.mark = new Uint32Array(cells);
    this.blocked = new Uint32Array(cells);
    this.taken = new Uint32Array(cells);
    this.settled = new Uint32Array(cells);
    this.generation = 0;
  }

  private nextGeneration(): number {
    if (++this.generation === 0xffffffff) {
      this.mark.fill(0);
      this.blocked.fill(0);
      this.taken.fill(0);
      this.settled.fill(0);
      this.generation = 1;
    }
    return this.generation;
  }
}

/** A copy of `a`, `capacity` long. */
function grownInt(a: Int32Array, capacity: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(capacity);
  b.set(a);
  return b;
}
