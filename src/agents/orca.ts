/**
 * The linear programs of optimal reciprocal collision avoidance (ORCA): given half-planes of
 * permitted velocities and a preferred velocity, the permitted velocity nearest the preferred one
 * within a speed disc, or, when the half-planes leave nothing, the velocity that breaks the soft
 * ones least while keeping the hard ones (walls).
 *
 * A half-plane is three numbers (nx, ny, c): the velocities v with nx * vx + ny * vy >= c, where
 * (nx, ny) is a unit normal pointing into the permitted side. Everything works in place on
 * preallocated Float64Arrays and scratch registers: nothing is allocated per solve, and no
 * fractional number is passed to or returned from a call (the compiler would box it on the heap).
 */

/** Below this, two normals count as parallel. */
const PARALLEL = 1e-9;

/** Reads and writes of the registers in `io`. */
const TARGET_X = 0;
const TARGET_Y = 1;
const SPEED = 2;
const OUT_X = 3;
const OUT_Y = 4;

/**
 * One solver, reused for every agent of every step: fill `lines` (the hard ones first, `hard` of
 * them), put the preferred velocity in `io[0]`, `io[1]` (at most the speed limit long) and the
 * speed limit in `io[2]`, then {@link OrcaSolver.solve}; the answer is `io[3]`, `io[4]`.
 */
export class OrcaSolver {
  /** Half-planes as (nx, ny, c) triples: nx * vx + ny * vy >= c. Grown by {@link OrcaSolver.reserve}. */
  lines = new Float64Array(3 * 32);
  /** Half-planes in use. */
  count = 0;
  /** The first `hard` half-planes are never relaxed (walls); the rest may be (other agents). */
  hard = 0;
  /** Registers: preferred velocity (0, 1) and speed limit (2) in; the chosen velocity (3, 4) out. */
  readonly io = new Float64Array(5);
  /** The half-planes of the relaxed program (see relax), as many as `lines` can hold. */
  private projected = new Float64Array(3 * 32);

  /** Forgets the half-planes, keeping the storage. */
  clear(): void {
    this.count = 0;
    this.hard = 0;
  }

  /** Makes room for `more` half-planes beyond `count` (grows rarely; amortised, not per agent). */
  reserve(more: number): void {
    const need = 3 * (this.count + more);
    if (need <= this.lines.length) return;
    let size = this.lines.length;
    while (size < need) size *= 2;
    const grown = new Float64Array(size);
    grown.set(this.lines);
    this.lines = grown;
    this.projected = new Float64Array(size);
  }

  /**
   * The permitted velocity nearest the preferred one, at most the speed limit long, into io[3],
   * io[4]. When the half-planes leave no such velocity, the one that breaks the soft half-planes
   * least (the largest shortfall smallest) while keeping the hard ones, which always admit a
   * standing agent (c <= 0) and so never conflict among themselves.
   */
  solve(): void {
    const failed = this.program(this.lines, this.count, false);
    if (failed < this.count) this.relax(failed);
  }

  /**
   * The two-dimensional program over half-planes 0..m-1 of `L` within the speed disc:
   * `directional` maximises the direction io[0..1] (a unit vector), else minimises the distance to
   * the point io[0..1]. Adds the half-planes one by one, moving the answer onto a half-plane's
   * line only when the answer so far breaks it. Returns m on success, else the index of the
   * half-plane that could not be met (the answer before it is kept in io[3..4]).
   */
  private program(L: Float64Array, m: number, directional: boolean): number {
    const io = this.io;
    const speed = io[SPEED];
    const tx = io[TARGET_X];
    const ty = io[TARGET_Y];
    const t2 = tx * tx + ty * ty;
    if (directional) {
      io[OUT_X] = tx * speed;
      io[OUT_Y] = ty * speed;
    } else if (t2 > speed * speed) {
      const k = speed / Math.sqrt(t2);
      io[OUT_X] = tx * k;
      io[OUT_Y] = ty * k;
    } else {
      io[OUT_X] = tx;
      io[OUT_Y] = ty;
    }
    for (let i = 0; i < m; i++) {
      const b = 3 * i;
      if (L[b] * io[OUT_X] + L[b + 1] * io[OUT_Y] >= L[b + 2]) continue;
      const keepX = io[OUT_X];
      const keepY = io[OUT_Y];
      if (!this.onLine(L, i, directional)) {
        io[OUT_X] = keepX;
        io[OUT_Y] = keepY;
        return i;
      }
    }
    return m;
  }

  /**
   * The best velocity on the boundary line of half-plane i of `L` that keeps half-planes 0..i-1
   * and the speed disc, into io[3..4]; false when there is none. The line is base + t * dir with
   * base = c * n (the point of the line nearest the origin) and dir = n turned a quarter.
   */
  private onLine(L: Float64Array, i: number, directional: boolean): boolean {
    const io = this.io;
    const speed = io[SPEED];
    const b = 3 * i;
    const nx = L[b];
    const ny = L[b + 1];
    const c = L[b + 2];
    // The base point is perpendicular to dir, so the disc cuts the line at t = ±sqrt(speed² - c²).
    const room = speed * speed - c * c;
    if (room < 0) return false;
    const baseX = nx * c;
    const baseY = ny * c;
    const dirX = -ny;
    const dirY = nx;
    let lo = -Math.sqrt(room);
    let hi = -lo;
    for (let j = 0; j < i; j++) {
      const e = 3 * j;
      // Half-plane j along the line: t * (n_j . dir) >= c_j - n_j . base.
      const slope = L[e] * dirX + L[e + 1] * dirY;
      const need = L[e + 2] - (L[e] * baseX + L[e + 1] * baseY);
      if (Math.abs(slope) <= PARALLEL) {
        // Parallel: the whole line is inside half-plane j or none of it is (rounding aside: two
        // copies of one half-plane must not conflict).
        if (need > PARALLEL) return false;
        continue;
      }
      const t = need / slope;
      if (slope > 0) {
        if (t > lo) lo = t;
      } else if (t < hi) {
        hi = t;
      }
      if (lo > hi) return false;
    }
    let t: number;
    if (directional) {
      t = io[TARGET_X] * dirX + io[TARGET_Y] * dirY > 0 ? hi : lo;
    } else {
      t = (io[TARGET_X] - baseX) * dirX + (io[TARGET_Y] - baseY) * dirY;
      t = t < lo ? lo : t > hi ? hi : t;
    }
    io[OUT_X] = baseX + t * dirX;
    io[OUT_Y] = baseY + t * dirY;
    return true;
  }

  /**
   * No velocity meets every half-plane: from half-plane `first` (the one the program stopped at)
   * on, minimise the largest shortfall of the soft half-planes, keeping the hard ones. For each
   * soft half-plane i broken by more than the shortfall reached so far, the best velocity for i
   * alone subject to: the hard half-planes, and every earlier soft half-plane j broken no more
   * than i (the half-plane (n_j - n_i) . v >= c_j - c_i); a three-dimensional program solved as a
   * sequence of two-dimensional ones.
   */
  private relax(first: number): void {
    const io = this.io;
    const L = this.lines;
    const P = this.projected;
    const hard = this.hard;
    let shortfall = 0;
    for (let i = first; i < this.count; i++) {
      const b = 3 * i;
      const nx = L[b];
      const ny = L[b + 1];
      const c = L[b + 2];
      if (c - (nx * io[OUT_X] + ny * io[OUT_Y]) <= shortfall) continue;
      let m = 0;
      for (; m < hard; m++) {
        P[3 * m] = L[3 * m];
        P[3 * m + 1] = L[3 * m + 1];
        P[3 * m + 2] = L[3 * m + 2];
      }
      for (let j = hard; j < i; j++) {
        const e = 3 * j;
        const ex = L[e] - nx;
        const ey = L[e + 1] - ny;
        const len = Math.sqrt(ex * ex + ey * ey);
        // The same normal: j is broken no more than i wherever the answer goes, as it is now.
        if (len <= PARALLEL) continue;
        P[3 * m] = ex / len;
        P[3 * m + 1] = ey / len;
        P[3 * m + 2] = (L[e + 2] - c) / len;
        m++;
      }
      const keepX = io[OUT_X];
      const keepY = io[OUT_Y];
      io[TARGET_X] = nx;
      io[TARGET_Y] = ny;
      // Cannot fail but for rounding (the answer so far meets these half-planes); keep it then.
      if (this.program(P, m, true) < m) {
        io[OUT_X] = keepX;
        io[OUT_Y] = keepY;
      }
      shortfall = c - (nx * io[OUT_X] + ny * io[OUT_Y]);
    }
  }
}
