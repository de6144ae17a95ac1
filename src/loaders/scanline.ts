/**
 * Even-odd scan conversion for the loaders that rasterise polygons (Tiled collision shapes,
 * polygon configs). Each edge is filed under the first scan line it crosses and stays in an
 * active list while it crosses more, so a row costs the edges that cross it, not every edge of
 * the polygon; and the whole cost is known before any row is drawn, so a budget can refuse a
 * polygon at once. No Node imports.
 */

/**
 * The edges of one closed polygon against the scan lines of rows `r0..r1`: row r's line lies at
 * `base + (r + 0.5) * pitch`. Edge k runs from vertex k to vertex k + 1 (the last back to the
 * first) and crosses row r's line when one end is at or below it and the other above (the
 * half-open rule of a ray cast); its crossing is `xa + ((line - ya) * (xb - xa)) / (yb - ya)`.
 */
export class EdgeScan {
  /**
   * The work drawing the rows takes: a unit per crossing, times the crossings' sort (log2 of the
   * row's count), plus one per edge. Known before {@link run}.
   */
  readonly work: number;
  private readonly first: Int32Array;
  private readonly last: Int32Array;
  /** The most crossings any row has. */
  private readonly widest: number;

  constructor(
    private readonly xs: ArrayLike<number>,
    private readonly ys: ArrayLike<number>,
    private readonly r0: number,
    private readonly r1: number,
    private readonly base: number,
    private readonly pitch: number,
  ) {
    const n = xs.length;
    this.first = new Int32Array(n);
    this.last = new Int32Array(n);
    const rows = Math.max(0, r1 - r0 + 1);
    // Per row, +1 where an edge starts crossing and -1 past where it stops: the crossings per row.
    const starts = new Int32Array(rows + 1);
    for (let k = 0; k < n; k++) {
      const ya = ys[k];
      const yb = ys[k + 1 === n ? 0 : k + 1];
      const lo = ya < yb ? ya : yb;
      const hi = ya < yb ? yb : ya;
      // NaN crosses nothing (the comparisons of the rule are false).
      const f = lo === lo && hi === hi ? this.firstAtOrAbove(lo) : r1 + 1;
      const l = hi === hi && lo === lo ? this.firstAtOrAbove(hi) - 1 : r0 - 1;
      this.first[k] = f;
      this.last[k] = l;
      if (f <= l) {
        starts[f - r0]++;
        starts[l + 1 - r0]--;
      }
    }
    let work = n;
    let m = 0;
    let widest = 0;
    for (let r = 0; r < rows; r++) {
      m += starts[r];
      if (m > widest) widest = m;
      work += m * Math.max(1, Math.ceil(Math.log2(m + 1)));
    }
    this.work = work;
    this.widest = widest;
  }

  private lineAt(r: number): number {
    return this.base + (r + 0.5) * this.pitch;
  }

  /** The first row in r0..r1 whose line is at or past `v` (r1 + 1 when none): a binary search on the lines' own expression. */
  private firstAtOrAbove(v: number): number {
    let lo = this.r0;
    let hi = this.r1 + 1;
    while (lo < hi) {
      const mid = lo + ((hi - lo) >>> 1);
      if (this.lineAt(mid) >= v) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /**
   * Calls `visit` for every row some edge crosses, in increasing order, with the row's crossings
   * sorted in `xs[0..m)` (a scratch array reused between rows).
   */
  run(visit: (row: number, xs: Float64Array, m: number) => void): void {
    const { xs, ys, first, last, r0, r1 } = this;
    const n = xs.length;
    const rows = Math.max(0, r1 - r0 + 1);
    if (rows === 0 || this.widest === 0) return;
    // Edges in order of their first row (a counting sort).
    const head = new Int32Array(rows + 1);
    for (let k = 0; k < n; k++) if (first[k] <= last[k]) head[first[k] - r0 + 1]++;
    for (let r = 0; r < rows; r++) head[r + 1] += head[r];
    const order = new Int32Array(head[rows]);
    const fill = head.slice();
    for (let k = 0; k < n; k++) if (first[k] <= last[k]) order[fill[first[k] - r0]++] = k;
    // The active edges stay ordered by their last crossing: the next row's order differs only
    // where edges cross between the lines, so sorting it again is mostly linear.
    const active = new Int32Array(this.widest);
    const cross = new Float64Array(this.widest);
    let count = 0;
    let next = 0;
    for (let r = r0; r <= r1; r++) {
      // Edges past their last row leave before this row's arrive, so the list never outgrows `widest`.
      let kept = 0;
      for (let j = 0; j < count; j++) if (last[active[j]] >= r) active[kept++] = active[j];
      count = kept;
      while (next < order.length && first[order[next]] === r) active[count++] = order[next++];
      if (count === 0) {
        // Nothing crosses this row: jump to the next edge's first row.
        if (next >= order.length) return;
        r = first[order[next]] - 1;
        continue;
      }
      const line = this.lineAt(r);
      let nans = 0;
      for (let j = 0; j < count; j++) {
        const k = active[j];
        const b = k + 1 === n ? 0 : k + 1;
        const x = xs[k] + ((line - ys[k]) * (xs[b] - xs[k])) / (ys[b] - ys[k]);
        if (x !== x) nans++;
        cross[j] = x;
      }
      // NaN crossings (from infinite coordinates) go last, as a typed array's sort puts them.
      if (nans > 0) nanLast(cross, active, count);
      sortPairs(cross, active, count - nans);
      visit(r, cross, count);
    }
  }
}

/** Moves the NaN keys (and their ids) to the end, keeping the others in order. */
function nanLast(keys: Float64Array, ids: Int32Array, m: number): void {
  const nanIds: number[] = [];
  let o = 0;
  for (let i = 0; i < m; i++) {
    if (keys[i] !== keys[i]) nanIds.push(ids[i]);
    else {
      keys[o] = keys[i];
      ids[o++] = ids[i];
    }
  }
  for (const id of nanIds) {
    keys[o] = NaN;
    ids[o++] = id;
  }
}

/**
 * Sorts `keys[0..m)` ascending, moving `ids` along: by insertion while the keys are nearly in
 * order (the usual case from one scan line to the next), else by an introsort.
 */
function sortPairs(keys: Float64Array, ids: Int32Array, m: number): void {
  let shifts = 0;
  const cap = 8 * m + 64;
  for (let i = 1; i < m; i++) {
    const k = keys[i];
    if (keys[i - 1] <= k) continue;
    const id = ids[i];
    let j = i - 1;
    while (j >= 0 && keys[j] > k) {
      keys[j + 1] = keys[j];
      ids[j + 1] = ids[j];
      j--;
    }
    keys[j + 1] = k;
    ids[j + 1] = id;
    shifts += i - 1 - j;
    if (shifts > cap) {
      introSort(keys, ids, 0, m - 1, 2 * Math.ceil(Math.log2(m + 1)));
      return;
    }
  }
}

function swap(keys: Float64Array, ids: Int32Array, i: number, j: number): void {
  const k = keys[i];
  keys[i] = keys[j];
  keys[j] = k;
  const d = ids[i];
  ids[i] = ids[j];
  ids[j] = d;
}

/** Quicksort (median of three) on keys[lo..hi], heapsort past `depth` levels, insertion below 16 items. */
function introSort(keys: Float64Array, ids: Int32Array, lo: number, hi: number, depth: number): void {
  while (hi - lo > 16) {
    if (depth-- === 0) {
      heapSort(keys, ids, lo, hi);
      return;
    }
    const mid = lo + ((hi - lo) >>> 1);
    if (keys[mid] < keys[lo]) swap(keys, ids, mid, lo);
    if (keys[hi] < keys[lo]) swap(keys, ids, hi, lo);
    if (keys[hi] < keys[mid]) swap(keys, ids, hi, mid);
    const pivot = keys[mid];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (keys[i] < pivot) i++;
      while (keys[j] > pivot) j--;
      if (i <= j) swap(keys, ids, i++, j--);
    }
    // Recurse into the smaller side, loop on the larger: the stack stays logarithmic.
    if (j - lo < hi - i) {
      introSort(keys, ids, lo, j, depth);
      lo = i;
    } else {
      introSort(keys, ids, i, hi, depth);
      hi = j;
    }
  }
  for (let i = lo + 1; i <= hi; i++) {
    const k = keys[i];
    const id = ids[i];
    let j = i - 1;
    while (j >= lo && keys[j] > k) {
      keys[j + 1] = keys[j];
      ids[j + 1] = ids[j];
      j--;
    }
    keys[j + 1] = k;
    ids[j + 1] = id;
  }
}

function heapSort(keys: Float64Array, ids: Int32Array, lo: number, hi: number): void {
  const n = hi - lo + 1;
  const down = (i: number, size: number) => {
    for (;;) {
      let c = 2 * i + 1;
      if (c >= size) return;
      if (c + 1 < size && keys[lo + c + 1] > keys[lo + c]) c++;
      if (!(keys[lo + c] > keys[lo + i])) return;
      swap(keys, ids, lo + i, lo + c);
      i = c;
    }
  };
  for (let i = (n >>> 1) - 1; i >= 0; i--) down(i, n);
  for (let end = n - 1; end > 0; end--) {
    swap(keys, ids, lo, lo + end);
    down(0, end);
  }
}
