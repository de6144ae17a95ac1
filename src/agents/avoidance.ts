import type { NavGrid } from '../grid/navgrid.js';
import type { NavigationOptions } from './options.js';
import { OrcaSolver } from './orca.js';
import { AgentGrid } from './spatial.js';
import { AGENT_INTENT, type AgentStore } from './store.js';

/** AGENT_INTENT read once: some module loaders turn each read of an imported binding into a call. */
const INTENT = AGENT_INTENT;

/** Numbers per wall segment: the ends (ax, ay, bx, by) relative to the agent, the unit normal into the wall (nx, ny). */
const SEG = 6;

/**
 * A walker whose velocity, avoiding standing units too, makes less than this part of its preferred
 * headway is barred by them and walks on without avoiding them (see Avoidance).
 */
const BLOCKED = 0.25;

/**
 * In a jam (two walkers both held back by others at the last step) the lower id takes this part
 * of their turn and the other the rest, instead of half each: a right of way that dissolves, the
 * same way every run, the standstills of equal shares (a ring of walkers all pressing toward one
 * point holds itself up like an arch).
 */
const JAM_SHARE = 0.1;

/** Slack (cells, squared cells) in the neighbour search's bounds, so that rounding never leaves a row or bucket out. */
const PAD = 1e-9;

// The registers of the agent being solved (see Avoidance.reg): its position, radius, speed
// limit, velocity at the last step, the reach of the walls it looks at, the step's length and
// its preferred velocity.
const PX = 0;
const PY = 1;
const RADIUS = 2;
const SPEED = 3;
const VX = 4;
const VY = 5;
const REACH = 6;
const STEP = 7;
const WANT_X = 8;
const WANT_Y = 9;

/**
 * Velocity-based local avoidance for walkers (optimal reciprocal collision avoidance, ORCA):
 * each step every walker with somewhere to go picks, from its preferred velocity (set by the
 * steering), the nearest velocity that keeps it clear, for `timeHorizon` seconds, of the walkers
 * near it (each of two walkers takes half the turn; a walker that stands this step, waiting for
 * its plan, is passed by the other alone) and, for `timeHorizonObstacles` seconds, of the grid's
 * walls: the edges between walkable and blocked cells (and the grid's border) around it, read from
 * the layer each step, so a wall painted in is avoided at once. A walker goes round standing units
 * too, unless they bar its way (its velocity would make less than a quarter of its preferred
 * headway: a unit in a doorway, a packed formation): then it walks on as if they were not there,
 * and pushes past them and nudges them aside as without avoidance. A walker of a group order on
 * the last leg to its formation slot does not avoid its groupmates: packing a formation tight is
 * left to push-apart and nudging, which settle it far sooner than polite avoidance.
 *
 * Two walkers both held back at the last step share their turn unequally (JAM_SHARE), which
 * dissolves symmetric standstills without randomness. A disc pushed against a wall where the
 * walls alone leave it no headway slides along them for that step as without avoidance (unwedge).
 *
 * Every velocity is chosen from where the agents stood and how they moved at the start of the
 * step, before any moves, in id order; the neighbours are taken nearest first (then by id), the
 * walls nearest first: the same inputs give the same velocities bit for bit. Typed arrays and
 * scratch reused from step to step: nothing is allocated per agent.
 */
export class Avoidance {
  /** The velocity each agent chose at the last step (cells per second); 0 for agents that stood. */
  vx = new Float64Array(0);
  /** The velocity each agent chose at the last step: y. */
  vy = new Float64Array(0);
  /** Preferred velocity this step (set by the steering for the agents it marks `active`). */
  prefX = new Float64Array(0);
  /** Preferred velocity this step: y. */
  prefY = new Float64Array(0);
  /** 1 for the agents that choose a velocity this step (walkers with somewhere to go). */
  active = new Uint8Array(0);
  /** 1 when others held the agent's velocity well short of its preferred one this step (it is in a crowd). */
  held = new Uint8Array(0);
  /** 1 for the agents walking the last leg to their target this step (set by the steering). */
  lastLeg = new Uint8Array(0);
  /** 1 when others (not walls) turned the agent from its preferred velocity this step (it may not reach an exact spot). */
  turned = new Uint8Array(0);

  private readonly agents: AgentStore;
  /** The agents in buckets at the start of the step, for the neighbour search (see findNeighbours). */
  private readonly near = new AgentGrid();
  private readonly grid: NavGrid;
  /** The layer of the agent being handled (set per agent: agents on other layers neither meet nor share walls). */
  private layer: number;
  private readonly options: Readonly<NavigationOptions>;
  private readonly solver = new OrcaSolver();
  /** Velocities chosen this step, copied to vx, vy once all are chosen. */
  private outX = new Float64Array(0);
  private outY = new Float64Array(0);
  /** The nearest neighbours of the agent being solved, by squared distance then id. */
  private readonly nearId: Int32Array;
  private readonly nearD: Float64Array;
  /** How many of nearId / nearD are filled (see findNeighbours). */
  private found = 0;
  /** Wall segments near the agent being solved (SEG numbers each) and their order, nearest first. */
  private segments = new Float64Array(SEG * 32);
  private segD = new Float64Array(32);
  private order = new Int32Array(32);
  private segCount = 0;
  /** The half-planes of the agent being solved up to its walking neighbours' (the standing units' come after). */
  private walkerLines = 0;
  /** The agent being solved (see PX, PY...): numbers kept here are never boxed as call arguments. */
  private readonly reg = new Float64Array(10);

  constructor(agents: AgentStore, grid: NavGrid, layer: number, options: Readonly<NavigationOptions>) {
    this.agents = agents;
    this.grid = grid;
    this.layer = layer;
    this.options = options;
    this.nearId = new Int32Array(Math.max(1, options.maxNeighbours));
    this.nearD = new Float64Array(Math.max(1, options.maxNeighbours));
  }

  /** Starts a step: sizes the arrays to the store, clears `active`, stops the agents without an order, hashes the positions. */
  begin(): void {
    const a = this.agents;
    const cap = a.x.length;
    if (this.vx.length < cap) {
      const vx = new Float64Array(cap);
      const vy = new Float64Array(cap);
      vx.set(this.vx);
      vy.set(this.vy);
      this.vx = vx;
      this.vy = vy;
      this.prefX = new Float64Array(cap);
      this.prefY = new Float64Array(cap);
      this.outX = new Float64Array(cap);
      this.outY = new Float64Array(cap);
      this.active = new Uint8Array(cap);
      this.held = new Uint8Array(cap);
      this.turned = new Uint8Array(cap);
      this.lastLeg = new Uint8Array(cap);
    }
    const n = a.count;
    for (let i = 0; i < n; i++) {
      this.active[i] = 0;
      this.lastLeg[i] = 0;
      if ((a.flags[i] & INTENT) === 0) {
        this.vx[i] = 0;
        this.vy[i] = 0;
      }
    }
    this.near.build(a);
  }

  /** Chooses the velocity of every active agent (`dt`: the step, seconds), then makes them the agents' velocities (0 for the rest). */
  solve(dt: number): void {
    const n = this.agents.count;
    this.reg[STEP] = dt;
    for (let i = 0; i < n; i++) if (this.active[i] === 1) this.choose(i);
    for (let i = 0; i < n; i++) {
      const on = this.active[i] === 1;
      this.vx[i] = on ? this.outX[i] : 0;
      this.vy[i] = on ? this.outY[i] : 0;
      if (!on) {
        this.held[i] = 0;
        this.turned[i] = 0;
      }
    }
  }

  /** Agent i's velocity for this step, into outX, outY. */
  private choose(i: number): void {
    const a = this.agents;
    this.layer = a.layer[i];
    const o = this.options;
    const reg = this.reg;
    const speed = a.walkSpeed[i] * a.desiredSpeed[i];
    const solver = this.solver;
    solver.clear();
    if (!(speed > 0)) {
      this.outX[i] = 0;
      this.outY[i] = 0;
      this.held[i] = 0;
      this.turned[i] = 0;
      return;
    }
    reg[PX] = a.x[i];
    reg[PY] = a.y[i];
    reg[RADIUS] = a.radius[i];
    reg[SPEED] = speed;
    reg[VX] = this.vx[i];
    reg[VY] = this.vy[i];
    reg[REACH] = o.timeHorizonObstacles * speed + a.radius[i];
    reg[WANT_X] = this.prefX[i];
    reg[WANT_Y] = this.prefY[i];
    this.findWalls();
    this.wallLines();
    solver.hard = solver.count;
    this.walkerLines = solver.count;
    this.agentLines(i);
    const io = solver.io;
    const prefX = this.prefX[i];
    const prefY = this.prefY[i];
    io[0] = prefX;
    io[1] = prefY;
    io[2] = speed;
    solver.solve();
    if (solver.count > this.walkerLines && io[3] * prefX + io[4] * prefY < BLOCKED * (prefX * prefX + prefY * prefY)) {
      // Standing units bar the way (a doorway, a packed formation): walk on as if they were not
      // there, to push past them and nudge them aside.
      solver.count = this.walkerLines;
      io[0] = prefX;
      io[1] = prefY;
      solver.solve();
    }
    if (solver.hard > 0 && io[3] * prefX + io[4] * prefY < BLOCKED * (prefX * prefX + prefY * prefY)) this.unwedge();
    this.outX[i] = io[3];
    this.outY[i] = io[4];
    const ex = io[3] - prefX;
    const ey = io[4] - prefY;
    const slack = 0.1 * speed;
    // Others turned it when the preferred velocity breaks one of their half-planes.
    let turned = 0;
    const L = solver.lines;
    for (let k = solver.hard; k < solver.count && turned === 0; k++) if (L[3 * k] * prefX + L[3 * k + 1] * prefY < L[3 * k + 2] - 1e-9) turned = 1;
    this.turned[i] = turned;
    this.held[i] = turned === 1 && ex * ex + ey * ey > slack * slack ? 1 : 0;
  }

  /**
   * Moves the point `p` (cell coordinates, in place) as little as it takes for agent i's disc
   * centred there to clear the walls round its cell: a target a disc cannot reach (a formation
   * slot or a step aside against a wall) becomes the nearest spot it can, so the walker stops
   * there. Where the disc fits nowhere in the cell (wider than a corridor) it centres on that
   * axis; a point in a blocked cell stays as it is.
   */
  fitInWalls(p: Float64Array, i: number): void {
    const r = this.agents.radius[i];
    this.layer = this.agents.layer[i];
    const cx = Math.floor(p[0] + 0.5);
    const cy = Math.floor(p[1] + 0.5);
    if (!this.open(cx, cy)) return;
    const west = !this.open(cx - 1, cy);
    const east = !this.open(cx + 1, cy);
    const north = !this.open(cx, cy - 1);
    const south = !this.open(cx, cy + 1);
    p[0] = fitAxis(p[0], cx, west, east, r);
    p[1] = fitAxis(p[1], cy, north, south, r);
    // A blocked diagonal neighbour whose two sides are open leaves a corner to keep r from.
    for (let k = 0; k < 4; k++) {
      const sx = k === 0 || k === 2 ? -1 : 1;
      const sy = k < 2 ? -1 : 1;
      if (this.open(cx + sx, cy + sy) || (sx < 0 ? west : east) || (sy < 0 ? north : south)) continue;
      const dx = p[0] - (cx + 0.5 * sx);
      const dy = p[1] - (cy + 0.5 * sy);
      const d = Math.sqrt(dx * dx + dy * dy);
      if (d >= r) continue;
      // Straight out of the corner (along the cell's diagonal when on the corner itself).
      const ux = d > 1e-12 ? dx / d : -sx * Math.SQRT1_2;
      const uy = d > 1e-12 ? dy / d : -sy * Math.SQRT1_2;
      p[0] = cx + 0.5 * sx + ux * r;
      p[1] = cy + 0.5 * sy + uy * r;
    }
  }

  /**
   * The velocity chosen makes next to no headway: if the walls alone allow none either (a disc
   * pushed into a wall by others, where the half-planes of the wall pieces round it leave only
   * standing still), the walls are left out this step and the agent slides along them cell by
   * cell, as without avoidance; else the answer stands (others hold it back).
   */
  private unwedge(): void {
    const prefX = this.reg[WANT_X];
    const prefY = this.reg[WANT_Y];
    const solver = this.solver;
    const io = solver.io;
    const keepX = io[3];
    const keepY = io[4];
    const count = solver.count;
    solver.count = solver.hard;
    io[0] = prefX;
    io[1] = prefY;
    solver.solve();
    if (io[3] * prefX + io[4] * prefY >= BLOCKED * (prefX * prefX + prefY * prefY)) {
      solver.count = count;
      io[3] = keepX;
      io[4] = keepY;
      return;
    }
    const L = solver.lines;
    L.copyWithin(0, 3 * solver.hard, 3 * count);
    solver.count = count - solver.hard;
    solver.hard = 0;
    io[0] = prefX;
    io[1] = prefY;
    solver.solve();
  }

  /** Whether every cell of columns x0..x1, rows y0..y1 is on the grid and walkable: no wall there (most agents, most steps). */
  private allOpen(x0: number, x1: number, y0: number, y1: number): boolean {
    const g = this.grid;
    const w = g.width;
    if (x0 < 0 || y0 < 0 || x1 >= w || y1 >= g.height) return false;
    const walkable = g.layers[this.layer].walkable;
    for (let y = y0; y <= y1; y++) {
      for (let i = y * w + x0, end = y * w + x1; i <= end; i++) if (walkable[i] === 0) return false;
    }
    return true;
  }

  /** Whether cell (cx, cy) is on the grid and walkable on the layer. */
  private open(cx: number, cy: number): boolean {
    const g = this.grid;
    return cx >= 0 && cy >= 0 && cx < g.width && cy < g.height && g.layers[this.layer].walkable[cy * g.width + cx] === 1;
  }

  /**
   * The walls within reach of the agent (its speed for `timeHorizonObstacles` plus its radius):
   * every edge between a walkable cell on the agent's side and a blocked cell (or the grid's
   * border) beyond, straight runs of them joined into one segment; nearest first.
   */
  private findWalls(): void {
    const reg = this.reg;
    const px = reg[PX];
    const py = reg[PY];
    const reach = reg[REACH];
    // The cells the square of side 2 reach round the agent touches; cell c spans c - 0.5 .. c + 0.5.
    const x0 = Math.floor(px - reach + 0.5);
    const x1 = Math.floor(px + reach + 0.5);
    const y0 = Math.floor(py - reach + 0.5);
    const y1 = Math.floor(py + reach + 0.5);
    this.segCount = 0;
    if (this.allOpen(x0, x1, y0, y1)) return;
    // Vertical edges: x = cx + 0.5, between cells cx and cx + 1; the agent's side is the near one.
    for (let cx = x0; cx < x1; cx++) {
      const side = px < cx + 0.5 ? 1 : -1;
      const near = side > 0 ? cx : cx + 1;
      let run = -1;
      for (let cy = y0; cy <= y1 + 1; cy++) {
        const wall = cy <= y1 && this.open(near, cy) && !this.open(near + side, cy);
        if (wall) {
          if (run < 0) run = cy;
        } else if (run >= 0) {
          this.addSegment(true, cx, run, cy - 1, side);
          run = -1;
        }
      }
    }
    // Horizontal edges: y = cy + 0.5, between rows cy and cy + 1.
    for (let cy = y0; cy < y1; cy++) {
      const side = py < cy + 0.5 ? 1 : -1;
      const near = side > 0 ? cy : cy + 1;
      let run = -1;
      for (let cx = x0; cx <= x1 + 1; cx++) {
        const wall = cx <= x1 && this.open(cx, near) && !this.open(cx, near + side);
        if (wall) {
          if (run < 0) run = cx;
        } else if (run >= 0) {
          this.addSegment(false, cy, run, cx - 1, side);
          run = -1;
        }
      }
    }
  }

  /**
   * Keeps the wall along edge line `line` (x = line + 0.5 when `vertical`, else y = line + 0.5)
   * over cells `from`..`to`, the wall on the `side` (+1 or -1) of it, if it lies within reach;
   * in distance order (ties in the order found).
   */
  private addSegment(vertical: boolean, line: number, from: number, to: number, side: number): void {
    const reg = this.reg;
    const px = reg[PX];
    const py = reg[PY];
    const e = line + 0.5;
    const ax = vertical ? e - px : from - 0.5 - px;
    const ay = vertical ? from - 0.5 - py : e - py;
    const bx = vertical ? ax : to + 0.5 - px;
    const by = vertical ? to + 0.5 - py : ay;
    // Squared distance from the agent (the origin) to the axis-aligned segment.
    const gx = ax > 0 ? ax : bx < 0 ? bx : 0;
    const gy = ay > 0 ? ay : by < 0 ? by : 0;
    const d2 = gx * gx + gy * gy;
    const reach = reg[REACH];
    if (d2 > reach * reach) return;
    if (this.segCount === this.order.length) this.growSegments();
    const k = this.segCount++;
    const s = this.segments;
    s[k * SEG] = ax;
    s[k * SEG + 1] = ay;
    s[k * SEG + 2] = bx;
    s[k * SEG + 3] = by;
    s[k * SEG + 4] = vertical ? side : 0;
    s[k * SEG + 5] = vertical ? 0 : side;
    this.segD[k] = d2;
    let p = k;
    while (p > 0 && this.segD[this.order[p - 1]] > d2) {
      this.order[p] = this.order[p - 1];
      p--;
    }
    this.order[p] = k;
  }

  private growSegments(): void {
    const size = this.order.length * 2;
    const s = new Float64Array(SEG * size);
    s.set(this.segments);
    this.segments = s;
    const d = new Float64Array(size);
    d.set(this.segD);
    this.segD = d;
    const o = new Int32Array(size);
    o.set(this.order);
    this.order = o;
  }

  /**
   * One hard half-plane per wall segment, nearest first, unless an earlier one already rules out
   * the whole segment: its velocity obstacle (the velocities that bring the agent's disc onto the
   * segment within `timeHorizonObstacles`, a cone cut off by the segment's capsule scaled by 1 /
   * horizon) is convex, and the half-plane is the one that touches it at the boundary point
   * nearest the agent's preferred velocity, the wall taking no share of the turn.
   */
  private wallLines(): void {
    const reg = this.reg;
    const r = reg[RADIUS];
    // A wall does not move: its half-plane touches its velocity obstacle nearest the velocity the
    // agent wants, the best single half-plane for it (nearest its last velocity, an agent sliding
    // along a wall toward a corner can be kept from turning round it).
    const vx = reg[WANT_X];
    const vy = reg[WANT_Y];
    const inv = 1 / this.options.timeHorizonObstacles;
    const rho = r * inv;
    const solver = this.solver;
    const s = this.segments;
    for (let k = 0; k < this.segCount; k++) {
      const b = this.order[k] * SEG;
      const ax = s[b];
      const ay = s[b + 1];
      const bx = s[b + 2];
      const by = s[b + 3];
      const wx = s[b + 4];
      const wy = s[b + 5];
      const L = solver.lines;
      let covered = false;
      for (let j = 0; j < solver.count && !covered; j++) {
        const nx = L[3 * j];
        const ny = L[3 * j + 1];
        const c = L[3 * j + 2] + 1e-9;
        covered = (nx * ax + ny * ay) * inv + rho <= c && (nx * bx + ny * by) * inv + rho <= c;
      }
      if (covered) continue;
      solver.reserve(1);
      const out = solver.lines;
      const at = 3 * solver.count++;
      // The segment's point nearest the agent.
      const ex = bx - ax;
      const ey = by - ay;
      let t = -(ax * ex + ay * ey) / (ex * ex + ey * ey);
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      const qx = ax + t * ex;
      const qy = ay + t * ey;
      const q2 = qx * qx + qy * qy;
      if (q2 <= r * r) {
        // The disc touches the wall already: no velocity that goes further in.
        const q = Math.sqrt(q2);
        const flat = (t > 0 && t < 1) || q < 1e-9;
        out[at] = flat ? -wx : -qx / q;
        out[at + 1] = flat ? -wy : -qy / q;
        out[at + 2] = 0;
        continue;
      }
      // The tangents from the agent to the discs of radius r round both ends; the cone's edges
      // (legs) are the most counterclockwise left tangent and the most clockwise right one.
      const a2 = ax * ax + ay * ay;
      const la = Math.sqrt(a2 - r * r);
      const b2 = bx * bx + by * by;
      const lb = Math.sqrt(b2 - r * r);
      const aLx = (ax * la - ay * r) / a2;
      const aLy = (ay * la + ax * r) / a2;
      const bLx = (bx * lb - by * r) / b2;
      const bLy = (by * lb + bx * r) / b2;
      const leftB = aLx * bLy - aLy * bLx > 0;
      const lx = leftB ? bLx : aLx;
      const ly = leftB ? bLy : aLy;
      const ll = leftB ? lb : la;
      const aRx = (ax * la + ay * r) / a2;
      const aRy = (ay * la - ax * r) / a2;
      const bRx = (bx * lb + by * r) / b2;
      const bRy = (by * lb - bx * r) / b2;
      const rightB = aRx * bRy - aRy * bRx < 0;
      const rx = rightB ? bRx : aRx;
      const ry = rightB ? bRy : aRy;
      const rl = rightB ? lb : la;
      // Left leg beyond its tangent point; outward normal: the leg turned counterclockwise.
      const tl = Math.max(vx * lx + vy * ly, ll * inv);
      const hx = tl * lx - vx;
      const hy = tl * ly - vy;
      let bestD = hx * hx + hy * hy;
      let nx = -ly;
      let ny = lx;
      let c = 0;
      // Right leg likewise, turned clockwise.
      const tr = Math.max(vx * rx + vy * ry, rl * inv);
      const jx = tr * rx - vx;
      const jy = tr * ry - vy;
      const dr = jx * jx + jy * jy;
      if (dr < bestD) {
        bestD = dr;
        nx = ry;
        ny = -rx;
      }
      // The cut-off capsule's side that faces the origin.
      const cAx = ax * inv;
      const cAy = ay * inv;
      const cex = ex * inv;
      const cey = ey * inv;
      let u = ((vx - cAx) * cex + (vy - cAy) * cey) / (cex * cex + cey * cey);
      u = u < 0 ? 0 : u > 1 ? 1 : u;
      const cx = cAx + u * cex;
      const cy = cAy + u * cey;
      const gx = vx - cx;
      const gy = vy - cy;
      const gl = Math.sqrt(gx * gx + gy * gy);
      const mx = gl > 1e-12 ? gx / gl : -wx;
      const my = gl > 1e-12 ? gy / gl : -wy;
      const ox = cx + rho * mx;
      const oy = cy + rho * my;
      const mc = mx * ox + my * oy;
      const kx = ox - vx;
      const ky = oy - vy;
      if (mc <= 0 && kx * kx + ky * ky < bestD) {
        nx = mx;
        ny = my;
        c = mc;
      }
      out[at] = nx;
      out[at + 1] = ny;
      out[at + 2] = c;
    }
  }

  /**
   * The `maxNeighbours` agents nearest agent i within `neighbourDistance`, into nearId / nearD
   * (squared distances), nearest first, ties by id; returns how many. The rows of buckets are read
   * from the agent's own outward, each only across the disc still worth searching: of the
   * neighbour distance, or, once `maxNeighbours` are found, of the farthest of them, so in a crowd
   * a few short runs of ids are read, not every agent within reach. The answer does not depend on
   * the order agents are read in (the order by distance then id is total).
   */
  private findNeighbours(i: number): number {
    const k = this.options.maxNeighbours;
    this.found = 0;
    if (k === 0) return 0;
    const g = this.near;
    const px = this.reg[PX];
    const py = this.reg[PY];
    const range = this.options.neighbourDistance;
    const range2 = range * range;
    const side = g.side;
    const ox = g.originX;
    const oy = g.originY;
    const cols = g.cols;
    const rows = g.rows;
    const start = g.start;
    const nearD = this.nearD;
    const row = Math.floor((py - oy) / side);
    // Rows above and below at the same time, nearest first; a side is done once its next row
    // lies beyond the disc (PAD: a hair for rounding, so that no row is left out wrongly).
    let up = row;
    let down = row + 1;
    let upOpen = true;
    let downOpen = true;
    while (upOpen || downOpen) {
      for (let pass = 0; pass < 2; pass++) {
        const r = pass === 0 ? up : down;
        if (pass === 0 ? !upOpen : !downOpen) continue;
        const reach2 = this.found === k ? nearD[k - 1] : range2;
        const gap = r === row ? 0 : r < row ? py - (oy + (r + 1) * side) : oy + r * side - py;
        if (r < 0 || r >= rows || (gap > 0 && gap * gap > reach2 + PAD)) {
          if (pass === 0) upOpen = false;
          else downOpen = false;
          continue;
        }
        const h = Math.sqrt(Math.max(0, reach2 - (gap > 0 ? gap * gap : 0))) + PAD;
        let c0 = Math.floor((px - h - ox) / side);
        let c1 = Math.floor((px + h - ox) / side);
        if (c0 < 0) c0 = 0;
        if (c1 >= cols) c1 = cols - 1;
        if (c0 <= c1) this.scanRun(i, start[r * cols + c0], start[r * cols + c1 + 1]);
        if (pass === 0) up--;
        else down++;
      }
    }
    return this.found;
  }

  /** Offers the agents items[from] .. items[to - 1] of the bucket grid as neighbours of agent i (see findNeighbours). */
  private scanRun(i: number, from: number, to: number): void {
    const a = this.agents;
    const items = this.near.items;
    const k = this.options.maxNeighbours;
    const px = this.reg[PX];
    const py = this.reg[PY];
    const range = this.options.neighbourDistance;
    const range2 = range * range;
    const nearId = this.nearId;
    const nearD = this.nearD;
    const x = a.x;
    const y = a.y;
    let found = this.found;
    const group = a.group[i];
    // On its last leg into its group's formation a walker leaves its groupmates to push-apart.
    const packing = group >= 0 && this.lastLeg[i] === 1;
    // Agents on another layer (another floor) are no neighbours.
    const layer = a.layer;
    const own = layer[i];
    for (let q = from; q < to; q++) {
      const j = items[q];
      if (j === i || (packing && a.group[j] === group) || layer[j] !== own) continue;
      const dx = x[j] - px;
      const dy = y[j] - py;
      const d2 = dx * dx + dy * dy;
      if (d2 >= range2) continue;
      if (found === k && (d2 > nearD[k - 1] || (d2 === nearD[k - 1] && j > nearId[k - 1]))) continue;
      let p = found < k ? found++ : k - 1;
      while (p > 0 && (nearD[p - 1] > d2 || (nearD[p - 1] === d2 && nearId[p - 1] > j))) {
        nearD[p] = nearD[p - 1];
        nearId[p] = nearId[p - 1];
        p--;
      }
      nearD[p] = d2;
      nearId[p] = j;
    }
    this.found = found;
  }

  /**
   * One soft half-plane per neighbour: the `maxNeighbours` agents nearest agent i within
   * `neighbourDistance` (by squared distance, then id), each giving the half of the smallest
   * change of the relative velocity that leaves their velocity obstacle for `timeHorizon` (the
   * whole of it when the neighbour stands this step); when the discs already overlap, the change
   * that parts them within the step. The walkers' half-planes come first (`walkerLines` of them with
   * the walls'), the standing units' after.
   */
  private agentLines(i: number): void {
    const found = this.findNeighbours(i);
    const a = this.agents;
    const nearId = this.nearId;
    const solver = this.solver;
    solver.reserve(found);
    // The walkers' half-planes first, then the standing units', so that these can be dropped.
    for (let q = 0; q < found; q++) if ((a.flags[nearId[q]] & INTENT) !== 0) this.agentLine(i, nearId[q]);
    this.walkerLines = solver.count;
    for (let q = 0; q < found; q++) if ((a.flags[nearId[q]] & INTENT) === 0) this.agentLine(i, nearId[q]);
  }

  /** The half-plane that agent i's neighbour j asks of i's velocity (see agentLines). */
  private agentLine(i: number, j: number): void {
    const a = this.agents;
    const reg = this.reg;
    const solver = this.solver;
    const L = solver.lines;
    const inv = 1 / this.options.timeHorizon;
    const invStep = 1 / reg[STEP];
    const r = reg[RADIUS];
    const vx = reg[VX];
    const vy = reg[VY];
    // Two walkers both held back at the last step are jammed: the lower id takes only JAM_SHARE.
    const share = this.active[j] === 0 ? 1 : this.held[i] === 1 && this.held[j] === 1 ? (i < j ? JAM_SHARE : 1 - JAM_SHARE) : 0.5;
    const dx = a.x[j] - reg[PX];
    const dy = a.y[j] - reg[PY];
    const d2 = dx * dx + dy * dy;
    const R = r + a.radius[j];
    const R2 = R * R;
    const rvx = vx - this.vx[j];
    const rvy = vy - this.vy[j];
    let nx: number;
    let ny: number;
    let ux: number;
    let uy: number;
    if (d2 > R2) {
      // w: from the centre of the cut-off disc (the neighbour's disc scaled by 1 / horizon) to the relative velocity.
      const wx = rvx - dx * inv;
      const wy = rvy - dy * inv;
      const w2 = wx * wx + wy * wy;
      const dot = wx * dx + wy * dy;
      if (dot < 0 && dot * dot > R2 * w2) {
        // Nearest the cut-off disc's rim.
        const wl = Math.sqrt(w2);
        nx = wx / wl;
        ny = wy / wl;
        ux = (R * inv - wl) * nx;
        uy = (R * inv - wl) * ny;
      } else {
        // Nearest one of the cone's legs: the left one when w lies counterclockwise of the neighbour's direction.
        const leg = Math.sqrt(d2 - R2);
        let lx: number;
        let ly: number;
        if (dx * wy - dy * wx > 0) {
          lx = (dx * leg - dy * R) / d2;
          ly = (dy * leg + dx * R) / d2;
          nx = -ly;
          ny = lx;
        } else {
          lx = (dx * leg + dy * R) / d2;
          ly = (dy * leg - dx * R) / d2;
          nx = ly;
          ny = -lx;
        }
        const along = rvx * lx + rvy * ly;
        ux = along * lx - rvx;
        uy = along * ly - rvy;
      }
    } else {
      // Overlapping: leave the disc scaled by 1 / step, so they part within this step.
      const wx = rvx - dx * invStep;
      const wy = rvy - dy * invStep;
      const wl = Math.sqrt(wx * wx + wy * wy);
      if (wl > 1e-12) {
        nx = wx / wl;
        ny = wy / wl;
      } else {
        // Same place and velocity: a direction from the ids alone keeps this deterministic.
        const angle = ((Math.min(i, j) * 7 + Math.max(i, j) * 13) % 16) * (Math.PI / 8) + (i < j ? Math.PI : 0);
        nx = Math.cos(angle);
        ny = Math.sin(angle);
      }
      ux = (R * invStep - wl) * nx;
      uy = (R * invStep - wl) * ny;
    }
    const at = 3 * solver.count++;
    L[at] = nx;
    L[at + 1] = ny;
    L[at + 2] = nx * (vx + share * ux) + ny * (vy + share * uy);
  }
}

/**
 * Coordinate v of a point in cell c moved to keep r from the cell's blocked sides on one axis
 * (`low`: the side at c - 0.5 is blocked, `high`: the side at c + 0.5); the cell's centre when
 * both are and r does not fit between them.
 */
function fitAxis(v: number, c: number, low: boolean, high: boolean, r: number): number {
  const min = low ? c - 0.5 + r : -Infinity;
  const max = high ? c + 0.5 - r : Infinity;
  if (min > max) return c;
  return v < min ? min : v > max ? max : v;
}
