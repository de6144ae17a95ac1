import { AGENT_ACTIVE, type AgentStore } from './store.js';

/** Side of the agents' sort buckets beyond the widest pair's two radii (cells): the list's skin. */
const SKIN = 0.3;

/**
 * The pairs of agents near enough to touch soon, kept between steps (a neighbour list with a
 * skin, as molecular dynamics and physics engines keep one): every pair of active agents on one
 * layer whose centres lay closer than their two radii plus `SKIN` when the list was built. While
 * no agent has moved more than half the skin since then (and none was added, removed, resized
 * or changed layer), no pair missing from the list can overlap, so push-apart reads the list
 * alone: a jam of thousands of units costs the pairs that touch, not a search around every unit
 * on every pass.
 *
 * Built by sorting the agents into square buckets (`SKIN` wider than the widest pair) row by
 * row, a counting sort on each axis, then sweeping the rows: an agent meets the later agents of
 * its own bucket, the bucket to its right and the three below it, so each pair is met once, no
 * hashing, nothing visited twice. The order of the pairs (by bucket, then id) is a function of
 * the positions alone: the same steps give the same pushes, bit for bit.
 */
export class NearPairs {
  /** Pair k is first[k] < second[k]. */
  first = new Int32Array(0);
  second = new Int32Array(0);
  /** Pairs in the list. */
  count = 0;
  /** Builds so far (for tests and benchmarks: how often the list is renewed). */
  builds = 0;
  /** Agent slots the list was built over; -1 before the first build. */
  private agentCount = -1;
  // Each agent at the last build: where it stood, its radius and its layer (the radius NaN for an inactive one).
  private builtX = new Float64Array(0);
  private builtY = new Float64Array(0);
  private builtR = new Float64Array(0);
  private builtLayer = new Uint8Array(0);
  // The sort: agents in bucket order, with their bucket's column and row; counts per column or row.
  private order = new Int32Array(0);
  private sorted = new Int32Array(0);
  private column = new Int32Array(0);
  private row = new Int32Array(0);
  private counts = new Int32Array(0);
  // The pairs before their sort by first id (the two lists swap at each build).
  private spareFirst = new Int32Array(0);
  private spareSecond = new Int32Array(0);

  /** Brings the list up to date: rebuilt when an agent moved more than half the skin since the last build, or the agents changed. */
  update(agents: AgentStore): void {
    if (this.stale(agents)) this.build(agents);
  }

  /** Whether a pair not in the list may overlap now. */
  private stale(agents: AgentStore): boolean {
    const n = agents.count;
    if (n !== this.agentCount) return true;
    const { x, y, radius, flags, layer } = agents;
    const { builtX, builtY, builtR, builtLayer } = this;
    const limit = (SKIN / 2) * (SKIN / 2);
    for (let i = 0; i < n; i++) {
      if ((flags[i] & AGENT_ACTIVE) === 0) {
        if (builtR[i] === builtR[i]) return true;
        continue;
      }
      const dx = x[i] - builtX[i];
      const dy = y[i] - builtY[i];
      // A NaN radius (inactive at the build) fails the comparison as well.
      if (!(dx * dx + dy * dy <= limit) || radius[i] !== builtR[i] || layer[i] !== builtLayer[i]) return true;
    }
    return false;
  }

  /** Sorts the active agents into buckets and sweeps them for the pairs within reach. */
  private build(agents: AgentStore): void {
    const n = agents.count;
    const { x, y, radius, flags, layer } = agents;
    this.builds++;
    this.agentCount = n;
    this.ensureAgents(agents.x.length);
    const { builtX, builtY, builtR, builtLayer, order } = this;
    let maxR = 0;
    let m = 0;
    for (let i = 0; i < n; i++) {
      builtX[i] = x[i];
      builtY[i] = y[i];
      builtLayer[i] = layer[i];
      if ((flags[i] & AGENT_ACTIVE) === 0) {
        builtR[i] = NaN;
        continue;
      }
      builtR[i] = radius[i];
      if (radius[i] > maxR) maxR = radius[i];
      order[m++] = i;
    }
    this.count = 0;
    if (m < 2) return;
    const side = 2 * maxR + SKIN;
    let minCol = Infinity;
    let maxCol = -Infinity;
    let minRow = Infinity;
    let maxRow = -Infinity;
    const { column, row } = this;
    for (let k = 0; k < m; k++) {
      const i = order[k];
      const c = Math.floor(x[i] / side);
      const r = Math.floor(y[i] / side);
      column[i] = c;
      row[i] = r;
      if (c < minCol) minCol = c;
      if (c > maxCol) maxCol = c;
      if (r < minRow) minRow = r;
      if (r > maxRow) maxRow = r;
    }
    // Ids by column, then (a stable sort) by row: row by row, each row left to right, ids ascending in a bucket.
    this.sortBy(column, minCol, maxCol, order, this.sorted, m);
    this.sortBy(row, minRow, maxRow, this.sorted, order, m);
    this.sweep(agents, m);
    this.byFirst(n);
  }

  /**
   * Orders the pairs by their first id (a stable counting sort): push-apart then settles agents
   * in id order, as a pass over the agents would, whatever their places.
   */
  private byFirst(n: number): void {
    const count = this.count;
    if (this.counts.length < n + 1) this.counts = new Int32Array(Math.max(n + 1, 2 * this.counts.length));
    if (this.spareFirst.length < this.first.length) {
      this.spareFirst = new Int32Array(this.first.length);
      this.spareSecond = new Int32Array(this.first.length);
    }
    const { counts, first, second, spareFirst, spareSecond } = this;
    counts.fill(0, 0, n + 1);
    for (let k = 0; k < count; k++) counts[first[k] + 1]++;
    for (let i = 0; i < n; i++) counts[i + 1] += counts[i];
    for (let k = 0; k < count; k++) {
      const at = counts[first[k]]++;
      spareFirst[at] = first[k];
      spareSecond[at] = second[k];
    }
    this.first = spareFirst;
    this.second = spareSecond;
    this.spareFirst = first;
    this.spareSecond = second;
  }

  /** Stable counting sort of the m ids of `from` by `key[id]` (minKey..maxKey) into `out`. */
  private sortBy(key: Int32Array, minKey: number, maxKey: number, from: Int32Array, out: Int32Array, m: number): void {
    const span = maxKey - minKey + 1;
    if (this.counts.length < span + 1) this.counts = new Int32Array(Math.max(span + 1, 2 * this.counts.length));
    const counts = this.counts;
    counts.fill(0, 0, span + 1);
    for (let k = 0; k < m; k++) counts[key[from[k]] - minKey + 1]++;
    for (let s = 0; s < span; s++) counts[s + 1] += counts[s];
    for (let k = 0; k < m; k++) {
      const i = from[k];
      out[counts[key[i] - minKey]++] = i;
    }
  }

  /** The pairs within reach, from the m agents of `order` (sorted by row, then column). */
  private sweep(agents: AgentStore, m: number): void {
    const { x, y, radius, layer } = agents;
    const { order, column, row } = this;
    let p0 = 0;
    while (p0 < m) {
      const r = row[order[p0]];
      let p1 = p0 + 1;
      while (p1 < m && row[order[p1]] === r) p1++;
      // The next row of buckets, when agents stand in it.
      let p2 = p1;
      if (p1 < m && row[order[p1]] === r + 1) while (p2 < m && row[order[p2]] === r + 1) p2++;
      let below = p1;
      for (let p = p0; p < p1; p++) {
        const i = order[p];
        const c = column[i];
        // Its own bucket (the agents after it) and the one to the right.
        for (let q = p + 1; q < p1; q++) {
          const j = order[q];
          if (column[j] > c + 1) break;
          this.consider(i, j, x, y, radius, layer);
        }
        // The three buckets below: columns never go back along a row, so neither does `below`.
        while (below < p2 && column[order[below]] < c - 1) below++;
        for (let q = below; q < p2; q++) {
          const j = order[q];
          if (column[j] > c + 1) break;
          this.consider(i, j, x, y, radius, layer);
        }
      }
      p0 = p1;
    }
  }

  /** Adds i and j (ids, any order) when they share a layer and stand within their radii plus the skin. */
  private consider(i: number, j: number, x: Float64Array, y: Float64Array, radius: Float64Array, layer: Uint8Array): void {
    if (layer[i] !== layer[j]) return;
    const dx = x[j] - x[i];
    const dy = y[j] - y[i];
    const reach = radius[i] + radius[j] + SKIN;
    if (dx * dx + dy * dy >= reach * reach) return;
    if (this.count === this.first.length) this.grow();
    this.first[this.count] = i < j ? i : j;
    this.second[this.count] = i < j ? j : i;
    this.count++;
  }

  private grow(): void {
    const size = Math.max(1024, 2 * this.first.length);
    const first = new Int32Array(size);
    const second = new Int32Array(size);
    first.set(this.first);
    second.set(this.second);
    this.first = first;
    this.second = second;
  }

  /** Room for `capacity` agent slots. */
  private ensureAgents(capacity: number): void {
    if (this.builtX.length >= capacity) return;
    this.builtX = new Float64Array(capacity);
    this.builtY = new Float64Array(capacity);
    this.builtR = new Float64Array(capacity);
    this.builtLayer = new Uint8Array(capacity);
    this.order = new Int32Array(capacity);
    this.sorted = new Int32Array(capacity);
    this.column = new Int32Array(capacity);
    this.row = new Int32Array(capacity);
  }
}
