import type { NavGrid } from '../src/index.js';

/** Octile (no corner cutting) neighbours of cell i that are walkable, ignoring one-way flags. */
export function octileNeighbours(grid: NavGrid, i: number, walk: Uint8Array = grid.layers[0].walkable): number[] {
  const x = grid.xOf(i);
  const y = grid.yOf(i);
  const ok = (xx: number, yy: number) => xx >= 0 && yy >= 0 && xx < grid.width && yy < grid.height && walk[yy * grid.width + xx] === 1;
  const out: number[] = [];
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      if (dx === 0 && dy === 0) continue;
      if (!ok(x + dx, y + dy)) continue;
      if (dx !== 0 && dy !== 0 && (!ok(x + dx, y) || !ok(x, y + dy))) continue;
      out.push((y + dy) * grid.width + x + dx);
    }
  }
  return out;
}

/** Cells reachable from `start` by a breadth-first flood (octile, no corner cutting). */
export function flood(grid: NavGrid, start: number, walk: Uint8Array = grid.layers[0].walkable): Set<number> {
  const seen = new Set<number>();
  if (walk[start] !== 1) return seen;
  seen.add(start);
  const queue = [start];
  while (queue.length > 0) {
    const c = queue.pop()!;
    for (const n of octileNeighbours(grid, c, walk)) {
      if (!seen.has(n)) {
        seen.add(n);
        queue.push(n);
      }
    }
  }
  return seen;
}

/**
 * True when the closed segment (x0, y0)-(x1, y1) meets the closed square of cell (cx, cy)
 * (cx - 0.5 .. cx + 0.5): the slab method, exact on the dyadic coordinates the tests use.
 */
export function segmentTouchesCell(x0: number, y0: number, x1: number, y1: number, cx: number, cy: number): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = x1 - x0;
  const dy = y1 - y0;
  const clip = (p: number, q: number): boolean => {
    if (p === 0) return q >= 0;
    const r = q / p;
    if (p < 0) {
      if (r > t1) return false;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return false;
      if (r < t1) t1 = r;
    }
    return true;
  };
  return clip(-dx, x0 - (cx - 0.5)) && clip(dx, cx + 0.5 - x0) && clip(-dy, y0 - (cy - 0.5)) && clip(dy, cy + 0.5 - y0) && t0 <= t1;
}

/**
 * The cells a segment passes through, in order, with the direction of each crossing: computed
 * from the sorted parameters where it crosses cell boundaries (an independent route to what the
 * line-of-sight traversal does). A crossing of both axes at once is a diagonal move.
 */
export function segmentCrossings(x0: number, y0: number, x1: number, y1: number): { from: [number, number]; dx: number; dy: number }[] {
  const ts: { t: number; axis: 'x' | 'y' }[] = [];
  const add = (a: number, b: number, axis: 'x' | 'y') => {
    if (a === b) return;
    const lo = Math.min(a, b);
    const hi = Math.max(a, b);
    for (let k = Math.ceil(lo - 0.5); k + 0.5 <= hi; k++) {
      const edge = k + 0.5;
      if (edge <= lo || edge >= hi) continue;
      ts.push({ t: (edge - a) / (b - a), axis });
    }
  };
  add(x0, x1, 'x');
  add(y0, y1, 'y');
  ts.sort((p, q) => p.t - q.t);
  const out: { from: [number, number]; dx: number; dy: number }[] = [];
  const sx = Math.sign(x1 - x0);
  const sy = Math.sign(y1 - y0);
  let cx = Math.round(x0);
  let cy = Math.round(y0);
  for (let k = 0; k < ts.length; k++) {
    let dx = ts[k].axis === 'x' ? sx : 0;
    let dy = ts[k].axis === 'y' ? sy : 0;
    if (k + 1 < ts.length && Math.abs(ts[k + 1].t - ts[k].t) < 1e-12) {
      dx = sx;
      dy = sy;
      k++;
    }
    out.push({ from: [cx, cy], dx, dy });
    cx += dx;
    cy += dy;
  }
  return out;
}
