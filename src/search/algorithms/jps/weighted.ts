/**
 * Cost boundaries: what lets jump point search stay exact on layers whose cells cost different
 * amounts (weighted jump point search, in the spirit of Carlson, Harabor, Stuckey et al.,
 * "Optimal Pathfinding on Weighted Grid Maps", AAAI 2023, mapped to this library's cost model:
 * a step costs its length times the cost of the cell it enters).
 *
 * A walkable cell is a *boundary* cell when some walkable cell among its eight neighbours costs
 * something else; every other walkable cell is *interior*. The search then runs the ordinary jump
 * point rules with three changes:
 * 1. every jump (straight scan, diagonal run, cardinal vertical run) stops at the first boundary
 *    cell it enters and makes it a jump point;
 * 2. a boundary cell prunes its neighbours by JPS's comparisons made on the actual costs (octile;
 *    cardinal prunes only what a path from behind reaches strictly more cheaply): see
 *    {@link weightedOctile} and {@link cardinalSides};
 * 3. a jump's cost is its octile (or Manhattan) length times the cost of its first cell.
 *
 * Why it is exact: JPS prunes a neighbour n of cell x (reached from p) only when a path from p to
 * n that avoids x is no dearer than p-x-n, and on a tie comes first in JPS's canonical order
 * (shorter, or its diagonal earlier). An optimal path can then be rewritten pair of steps by pair
 * of steps into one no rule prunes, each rewrite keeping the cost and ending after finitely many.
 * When x is interior every walkable cell of its 3x3 block (n included) costs what x costs, so the
 * comparisons are the unweighted ones; at a boundary cell rule 2 makes them on the costs. Rule 3
 * holds because every cell a jump enters before its end is interior, an interior cell's walkable
 * neighbours (the next cell of the jump among them) cost what it costs, and so every cell of the
 * jump, the end included, costs what the first one does.
 *
 * On a uniform layer there are no boundary cells and this is plain JPS; on map-like terrain
 * (regions of sand, mud, water) only the cells along region edges are boundary cells, so jumps
 * still cross the regions' insides in one scan.
 */
import type { SearchView } from '../../../grid/navgrid.js';

const SQRT2 = Math.SQRT2;

/**
 * The boundary cells of one layer as bit planes laid out like {@link WalkBits} (rows, and a
 * transposed copy by columns; padded coordinates; bit 31 of a word is its first cell), so the row
 * scans stop at them with the same word operations they stop at forced neighbours with.
 *
 * Memory: 2 bits per cell (0.25 bytes).
 */
export class CostBoundaries {
  readonly rowWords: number;
  readonly colWords: number;
  readonly rows: Int32Array;
  readonly cols: Int32Array;
  private readonly view: SearchView;
  private readonly width: number;
  private readonly height: number;

  /** @param view the layer's padded search view, kept current by the grid (read at each update). */
  constructor(view: SearchView, width: number, height: number) {
    this.view = view;
    this.width = width;
    this.height = height;
    const W = width + 2;
    const H = height + 2;
    this.rowWords = (W + 31) >>> 5;
    this.colWords = (H + 31) >>> 5;
    // The same spare word at each end as WalkBits: the scans read one word beyond either end.
    this.rows = new Int32Array(this.rowWords * H + 2);
    this.cols = new Int32Array(this.colWords * W + 2);
    this.update(0, 0, width, height);
  }

  /**
   * Re-derives the cells a change to the rectangle (unpadded cell coordinates) can affect: the
   * rectangle and a one-cell ring around it, since a cell's status reads its neighbours' costs.
   */
  update(x: number, y: number, width: number, height: number): void {
    const x0 = Math.max(0, x - 1);
    const y0 = Math.max(0, y - 1);
    const x1 = Math.min(this.width, x + width + 1);
    const y1 = Math.min(this.height, y + height + 1);
    const pass = this.view.pass;
    const W = this.view.stride;
    const rows = this.rows;
    const cols = this.cols;
    const rw = this.rowWords;
    const cw = this.colWords;
    for (let yy = y0; yy < y1; yy++) {
      const py = yy + 1;
      for (let xx = x0; xx < x1; xx++) {
        const px = xx + 1;
        const p = py * W + px;
        const rb = 1 << (31 - (px & 31));
        const cb = 1 << (31 - (py & 31));
        const ri = py * rw + (px >>> 5) + 1;
        const ci = px * cw + (py >>> 5) + 1;
        if (isBoundary(pass, p, W)) {
          rows[ri] |= rb;
          cols[ci] |= cb;
        } else {
          rows[ri] &= ~rb;
          cols[ci] &= ~cb;
        }
      }
    }
  }

  /** Whether padded cell (px, py) is a boundary cell. */
  has(px: number, py: number): boolean {
    return this.rows[py * this.rowWords + (px >>> 5) + 1] << (px & 31) < 0;
  }
}

/** Walkable, with a walkable neighbour (of eight) of another cost. Padding cells are blocked. */
function isBoundary(pass: Float32Array, p: number, W: number): boolean {
  const c = pass[p];
  if (!(c > 0)) return false;
  for (let dy = -W; dy <= W; dy += W) {
    for (let dx = -1; dx <= 1; dx++) {
      const q = pass[p + dy + dx];
      if (q > 0 && q !== c) return true;
    }
  }
  return false;
}

/**
 * Cardinal movement at a cost boundary `cur` entered by step (dx, dy): the directions to the two
 * side cells that two straight steps from the cell behind reach strictly more cheaply than one
 * step from here (the cell beside the one behind costs less than `cur`). Strict, so no tie is
 * broken here.
 */
export function cardinalSides(pass: Float32Array, cur: number, W: number, dx: number, dy: number): number {
  const here = pass[cur];
  const back = cur - dy * W - dx;
  const ox = dy !== 0 ? 1 : 0;
  const oy = dx !== 0 ? 1 : 0;
  let m = 0;
  for (let sgn = -1; sgn <= 1; sgn += 2) {
    const beside = pass[back + sgn * (oy * W + ox)];
    if (pass[cur + sgn * (oy * W + ox)] > 0 && beside > 0 && beside < here) m |= dirBit(sgn * ox, sgn * oy);
  }
  return m;
}

/**
 * Octile successors of a cost boundary `cur` entered by step (dx, dy) from p = cur - (dx, dy):
 * JPS's rules with every comparison made on the actual costs (a step costs its length times the
 * cost of the cell entered). Kept: the cells ahead (natural), and each cell JPS would prune whose
 * alternative route from p, avoiding cur, costs more than the route through cur (or cannot be
 * walked). Pruned on a tie, as JPS does; the alternatives are JPS's own (one diagonal instead of
 * straight then sideways; diagonal first instead of straight first; two straight steps instead of
 * two diagonals), each shorter or with its diagonal earlier, so ties resolve as in JPS's
 * canonical order. The cells next to p are always reached more cheaply from p.
 */
export function weightedOctile(pass: Float32Array, cur: number, W: number, dx: number, dy: number): number {
  const here = pass[cur];
  let m = 0;
  if (dx !== 0 && dy !== 0) {
    const h = pass[cur + dx] > 0;
    const v = pass[cur + dy * W] > 0;
    if (h) m |= dirBit(dx, 0);
    if (v) m |= dirBit(0, dy);
    if (h && v && pass[cur + dy * W + dx] > 0) m |= dirBit(dx, dy);
    // The far corners beside p's straight neighbours: from p by two straight steps through that
    // neighbour, or from here by one diagonal (which needs it and the cell ahead walkable).
    const a = pass[cur - dx];
    const na = pass[cur - dx + dy * W];
    if (v && a > 0 && na > 0 && a + na > SQRT2 * (here + na)) m |= dirBit(-dx, dy);
    const b = pass[cur - dy * W];
    const nb = pass[cur - dy * W + dx];
    if (h && b > 0 && nb > 0 && b + nb > SQRT2 * (here + nb)) m |= dirBit(dx, -dy);
    return m;
  }
  const d = dy * W + dx;
  const ahead = pass[cur + d] > 0;
  if (ahead) m |= dirBit(dx, dy);
  const o = dx !== 0 ? W : 1;
  for (let sgn = -1; sgn <= 1; sgn += 2) {
    const side = pass[cur + sgn * o];
    if (!(side > 0)) continue;
    const beside = pass[cur - d + sgn * o] > 0;
    const sx = dx !== 0 ? 0 : sgn;
    const sy = dx !== 0 ? sgn : 0;
    // The side cell: from p by one diagonal (beside p's cell walkable) or through here.
    if (!beside || SQRT2 * side > here + side) m |= dirBit(sx, sy);
    // The diagonal ahead on this side: from p by a diagonal to the side cell, then straight on.
    const diag = pass[cur + d + sgn * o];
    if (ahead && diag > 0 && (!beside || SQRT2 * side + diag > here + SQRT2 * diag)) m |= dirBit(dx + sx, dy + sy);
  }
  return m;
}

/** The direction bit (N E S W NE SE SW NW) of step (dx, dy). */
export function dirBit(dx: number, dy: number): number {
  return dx === 0 ? (dy < 0 ? 1 : 4) : dy === 0 ? (dx > 0 ? 2 : 8) : dx > 0 ? (dy < 0 ? 16 : 32) : dy > 0 ? 64 : 128;
}
