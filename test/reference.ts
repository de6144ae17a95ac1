/**
 * A plain reference Dijkstra for the tests, written from the movement rules' definitions rather
 * than from the library's step tables, so a wrong table in the library cannot agree with it.
 */
import type { MovementName, NavGrid } from '../src/index.js';

/** The library's movement names; the rules behind them are re-derived below. */
export type RefMovement = MovementName;

/** Axial coordinates of an offset cell, from Red Blob Games' definitions. */
function axial(m: RefMovement, x: number, y: number): [number, number] {
  switch (m) {
    case 'hex-odd-r':
      return [x - Math.floor(y / 2), y];
    case 'hex-even-r':
      return [x - Math.ceil(y / 2), y];
    case 'hex-odd-q':
      return [x, y - Math.floor(x / 2)];
    case 'hex-even-q':
      return [x, y - Math.ceil(x / 2)];
    default:
      return [x, y];
  }
}

/** Every legal move from (x, y): [nx, ny, length]. */
export function refNeighbours(grid: NavGrid, layer: number, m: RefMovement, x: number, y: number): [number, number, number][] {
  const L = grid.layers[layer];
  const walk = (cx: number, cy: number) => cx >= 0 && cy >= 0 && cx < grid.width && cy < grid.height && L.walkable[cy * grid.width + cx] === 1;
  const flags = L.flags[y * grid.width + x];
  const exitOk = (dx: number, dy: number) =>
    !((dy < 0 && flags & 2) || (dx > 0 && flags & 4) || (dy > 0 && flags & 8) || (dx < 0 && flags & 16));
  const out: [number, number, number][] = [];
  if (m.startsWith('staggered')) {
    // Tiled's staggered isometric layout: diamonds w wide and h tall, every other row (r) or column
    // (q) shifted by half a tile. Diamonds share an edge when their centres are half a tile apart
    // on both axes.
    const w = 2;
    const h = 2;
    const oddShift = m.endsWith('odd-r') || m.endsWith('odd-q');
    const centre = (cx: number, cy: number): [number, number] => {
      if (m.endsWith('-r')) return [cx * w + ((cy & 1) === (oddShift ? 1 : 0) ? w / 2 : 0), (cy * h) / 2];
      return [(cx * w) / 2, cy * h + ((cx & 1) === (oddShift ? 1 : 0) ? h / 2 : 0)];
    };
    const [px, py] = centre(x, y);
    for (let ny = y - 2; ny <= y + 2; ny++) {
      for (let nx = x - 2; nx <= x + 2; nx++) {
        if ((nx === x && ny === y) || !walk(nx, ny)) continue;
        const [qx, qy] = centre(nx, ny);
        if (Math.abs(qx - px) === w / 2 && Math.abs(qy - py) === h / 2 && exitOk(nx - x, ny - y)) out.push([nx, ny, 1]);
      }
    }
    return out;
  }
  if (m.startsWith('hex')) {
    const [q, r] = axial(m, x, y);
    for (let ny = y - 1; ny <= y + 1; ny++) {
      for (let nx = x - 1; nx <= x + 1; nx++) {
        if ((nx === x && ny === y) || !walk(nx, ny)) continue;
        const [q2, r2] = axial(m, nx, ny);
        const d = (Math.abs(q - q2) + Math.abs(r - r2) + Math.abs(q - q2 + r - r2)) / 2;
        if (d === 1 && exitOk(nx - x, ny - y)) out.push([nx, ny, 1]);
      }
    }
    return out;
  }
  // Square cells: 8 neighbours; a Chebyshev (king's move) diagonal is one step like a straight one,
  // an octile diagonal is sqrt 2 long. The corner rule: how many blocked side cells a diagonal passes.
  const chebyshev = m.startsWith('chebyshev');
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      if (dx === 0 && dy === 0) continue;
      const diagonal = dx !== 0 && dy !== 0;
      if (diagonal && (m === 'cardinal' || m === 'iso')) continue;
      if (!walk(x + dx, y + dy) || !exitOk(dx, dy)) continue;
      if (diagonal) {
        const blocked = (walk(x + dx, y) ? 0 : 1) + (walk(x, y + dy) ? 0 : 1);
        const allowed = m.endsWith('-one-obstacle') ? 1 : m.endsWith('-always') ? 2 : 0;
        if (blocked > allowed) continue;
      }
      out.push([x + dx, y + dy, diagonal && !chebyshev ? Math.SQRT2 : 1]);
    }
  }
  return out;
}

/** Cost of the cheapest path from every source to every cell (Infinity where unreachable). */
export function refDistances(grid: NavGrid, layer: number, m: RefMovement, sources: number[]): Float64Array {
  const n = grid.size;
  const dist = new Float64Array(n).fill(Infinity);
  const done = new Uint8Array(n);
  const L = grid.layers[layer];
  for (const s of sources) if (L.walkable[s] === 1) dist[s] = 0;
  for (;;) {
    let best = -1;
    for (let i = 0; i < n; i++) if (!done[i] && dist[i] < Infinity && (best < 0 || dist[i] < dist[best])) best = i;
    if (best < 0) break;
    done[best] = 1;
    const x = best % grid.width;
    const y = (best - x) / grid.width;
    for (const [nx, ny, len] of refNeighbours(grid, layer, m, x, y)) {
      const j = ny * grid.width + nx;
      const d = dist[best] + len * L.cost[j];
      if (d < dist[j]) dist[j] = d;
    }
  }
  return dist;
}

/** Rules of a movement range for {@link refRange}. */
export interface RefRangeRules {
  /** Cells that cannot be entered (the start excepted). */
  occupied?: readonly number[];
  /** Cells that can be entered but not left (the start excepted). */
  stopAt?: readonly number[];
}

/**
 * Movement range by the rules' definitions: the cheapest cost from `start` to every cell over
 * paths that enter no occupied cell and leave no stop cell but the start, Infinity where no such
 * path exists or it costs more than `budget` (with the float32 margin below). Dijkstra over the whole grid, cut afterwards, so a
 * wrong cut in the library cannot agree with it.
 */
export function refRange(grid: NavGrid, layer: number, m: RefMovement, start: number, budget: number, rules: RefRangeRules = {}): Float64Array {
  const n = grid.size;
  const dist = new Float64Array(n).fill(Infinity);
  const done = new Uint8Array(n);
  const L = grid.layers[layer];
  const occupied = new Set(rules.occupied ?? []);
  const stop = new Set(rules.stopAt ?? []);
  occupied.delete(start);
  if (L.walkable[start] !== 1) return dist;
  dist[start] = 0;
  for (;;) {
    let best = -1;
    for (let i = 0; i < n; i++) if (!done[i] && dist[i] < Infinity && (best < 0 || dist[i] < dist[best])) best = i;
    if (best < 0) break;
    done[best] = 1;
    if (best !== start && stop.has(best)) continue;
    const x = best % grid.width;
    const y = (best - x) / grid.width;
    for (const [nx, ny, len] of refNeighbours(grid, layer, m, x, y)) {
      const j = ny * grid.width + nx;
      if (occupied.has(j)) continue;
      const d = dist[best] + len * L.cost[j];
      if (d < dist[j]) dist[j] = d;
    }
  }
  // The budget's documented margin: costs are float32 (1.2 is 1.2000000477), so a sum of them may
  // lie up to 2^-24 relatively over the sum of the numbers given; a relative 1e-7 still counts.
  for (let i = 0; i < n; i++) if (dist[i] > budget * (1 + 1e-7)) dist[i] = Infinity;
  return dist;
}

// ---- edge walls, from their definition (NavGrid.setEdgeWall) ----------------------------------

/** Whether the edge between the side-adjacent cells (x1, y1) and (x2, y2) is walled, read from the raw flag bits. */
export function walled(g: NavGrid, layer: number, x1: number, y1: number, x2: number, y2: number): boolean {
  const f = g.layers[layer].flags;
  // Bit 5 (0x20): a wall on the cell's north edge; bit 6 (0x40): on its west edge.
  if (y1 === y2) return (f[y1 * g.width + Math.max(x1, x2)] & 0x40) !== 0 && Math.max(x1, x2) > 0;
  return (f[Math.max(y1, y2) * g.width + x1] & 0x20) !== 0 && Math.max(y1, y2) > 0;
}

/**
 * The moves from (x, y) with edge walls: no step across a walled edge, no diagonal from A to D
 * (side cells B and C) when any of the edges A|B, A|C, B|D, C|D meeting at its corner is walled,
 * whatever the model's corner rule.
 */
export function wallNeighbours(g: NavGrid, layer: number, m: MovementName, x: number, y: number): [number, number, number][] {
  return refNeighbours(g, layer, m, x, y).filter(([nx, ny]) => {
    if (nx === x || ny === y) return !walled(g, layer, x, y, nx, ny);
    return !(walled(g, layer, x, y, nx, y) || walled(g, layer, x, y, x, ny) || walled(g, layer, nx, y, nx, ny) || walled(g, layer, x, ny, nx, ny));
  });
}

/**
 * Cost of the cheapest path from every cell to `goal` (Infinity where none): a Dijkstra from the
 * goal over the reversed moves of {@link refNeighbours}, a move into cell j costing its length
 * times j's cost (`moves`: {@link wallNeighbours} for grids with edge walls). Differs from
 * {@link refDistances} from the goal where costs vary or cells are one-way.
 */
export function refDistancesTo(grid: NavGrid, layer: number, m: RefMovement, goal: number, moves: typeof refNeighbours = refNeighbours): Float64Array {
  const n = grid.size;
  const L = grid.layers[layer];
  // Every move p -> j, listed at j.
  const into: [number, number][][] = Array.from({ length: n }, () => []);
  for (let p = 0; p < n; p++) {
    if (L.walkable[p] !== 1) continue;
    const x = p % grid.width;
    for (const [nx, ny, len] of moves(grid, layer, m, x, (p - x) / grid.width)) into[ny * grid.width + nx].push([p, len]);
  }
  const dist = new Float64Array(n).fill(Infinity);
  const done = new Uint8Array(n);
  if (L.walkable[goal] === 1) dist[goal] = 0;
  for (;;) {
    let best = -1;
    for (let i = 0; i < n; i++) if (!done[i] && dist[i] < Infinity && (best < 0 || dist[i] < dist[best])) best = i;
    if (best < 0) break;
    done[best] = 1;
    for (const [p, len] of into[best]) {
      const d = dist[best] + len * L.cost[best];
      if (d < dist[p]) dist[p] = d;
    }
  }
  return dist;
}

/**
 * The reference Dijkstra extended with links, written from their definition: nodes are (layer,
 * cell), node id `layer * size + cell`; a step is a move of the movement model on one layer, at its
 * length times the cost of the cell entered; an enabled link whose two cells are walkable is an
 * edge from `from` to `to` (and back when two-way) at the link's own cost.
 */
export function refLinked(grid: NavGrid, m: RefMovement, layer: number, source: number): Float64Array {
  const n = grid.size;
  const L = grid.layers.length;
  const dist = new Float64Array(n * L).fill(Infinity);
  const done = new Uint8Array(n * L);
  const walk = (l: number, c: number) => grid.layers[l].walkable[c] === 1;
  const edges = new Map<number, [number, number][]>();
  for (const k of grid.links()) {
    if (!k.enabled) continue;
    const a = k.from.layer * n + k.from.y * grid.width + k.from.x;
    const b = k.to.layer * n + k.to.y * grid.width + k.to.x;
    const add = (u: number, v: number) => (edges.get(u) ?? edges.set(u, []).get(u)!).push([v, k.cost]);
    add(a, b);
    if (k.bidirectional) add(b, a);
  }
  if (walk(layer, source)) dist[layer * n + source] = 0;
  for (;;) {
    let best = -1;
    for (let i = 0; i < n * L; i++) if (!done[i] && dist[i] < Infinity && (best < 0 || dist[i] < dist[best])) best = i;
    if (best < 0) break;
    done[best] = 1;
    const l = Math.floor(best / n);
    const c = best - l * n;
    const x = c % grid.width;
    const y = (c - x) / grid.width;
    for (const [nx, ny, len] of refNeighbours(grid, l, m, x, y)) {
      const j = ny * grid.width + nx;
      const d = dist[best] + len * grid.layers[l].cost[j];
      if (d < dist[l * n + j]) dist[l * n + j] = d;
    }
    for (const [v, cost] of edges.get(best) ?? []) {
      if (!walk(Math.floor(v / n), v % n)) continue;
      if (dist[best] + cost < dist[v]) dist[v] = dist[best] + cost;
    }
  }
  return dist;
}
