/**
 * Refinement: turns a query's level-1 path (padded cells, mostly border crossings) into cells.
 * Keeps the start, the goal and the far side of every few border crossings, and joins each two kept
 * cells by an exact search: on uniform-cost layers a clear straight line when there is one, else
 * jump point search over the whole layer; with terrain costs, A* inside the box of clusters the
 * level-1 path visits between them (so a path always exists there). That straightens out most
 * detours through fixed entrance cells. Owns the box search's arrays and the jump point path buffer.
 */
import type { SearchView } from '../../../grid/navgrid.js';
import type { JumpPointSearch } from '../jps/jps.js';
import { SearchScratch, outcome, type SearchOutcome } from '../../kernel/scratch.js';
import { DX as DX_, DY as DY_, OCTILE_K as OCTILE_K_, SQRT2 as SQRT2_, paddedX, paddedY, unpad } from '../../../grid/padded.js';
import type { ClusterLayout } from './ids.js';
import { appendLineCells, clearLineCost } from './lines.js';
import { reverseFrom } from './query.js';

// Module-local copies: some loaders (tsx) turn imported bindings into getter calls in hot loops.
const DX = DX_;
const DY = DY_;
const OCTILE_K = OCTILE_K_;
const SQRT2 = SQRT2_;

/**
 * With terrain costs, refinement searches run from one kept border crossing to the
 * CROSSINGS_PER_BOX-th next, inside the clusters the level-1 path visits between them.
 */
const CROSSINGS_PER_BOX = 2;
/**
 * On uniform-cost layers refinement runs jump point search over the whole layer (exact, and cheap
 * enough for longer stretches: fewer fixed crossings, a path closer to optimal).
 */
const CROSSINGS_PER_JUMP = 8;
/** On uniform layers, refinement tries a straight line up to this many kept cells ahead. */
const LINE_REACH = 4;

/** Turns level-1 paths into cell paths. */
export class Refiner {
  private readonly layout: ClusterLayout;
  private readonly view: SearchView;
  private readonly layer: number;
  private readonly cardinal: boolean;
  /** The padded-cell search arrays shared with the Pathfinder (jump point search writes them). */
  private readonly scratch: SearchScratch;
  private readonly jps: (() => JumpPointSearch) | null;
  private readonly jumpOutcome: SearchOutcome = outcome();
  /** Cells of the last jump point segment. */
  private jumpCells = new Int32Array(256);
  /** The box search's arrays over box-local cells (grown on demand). */
  private box = new SearchScratch(1);

  constructor(layout: ClusterLayout, view: SearchView, layer: number, cardinal: boolean, scratch: SearchScratch, jps: (() => JumpPointSearch) | null) {
    this.layout = layout;
    this.view = view;
    this.layer = layer;
    this.cardinal = cardinal;
    this.scratch = scratch;
    this.jps = jps;
  }

  /**
   * The cells (cell indices, start first) of a path along the level-1 path `abstract` (padded
   * cells, start first), with its cost. Returns null only if the hierarchy is out of step with the
   * grid (cannot happen: queries refresh it first).
   */
  refine(abstract: number[]): { cells: Int32Array; cost: number } | null {
    const layout = this.layout;
    const W = layout.stride;
    const c = layout.clusterSize;
    const width = layout.width;
    // Uniform costs: every cost is symmetric and a clear octile line is a cheapest path.
    const uniform = this.view.uniform;
    const jps = uniform ? this.jps : null;
    const skip = jps !== null ? CROSSINGS_PER_JUMP : CROSSINGS_PER_BOX;
    const keep: number[] = [0];
    for (let k = 1, crossings = 0; k < abstract.length - 1; k++) {
      const d = Math.abs(abstract[k] - abstract[k - 1]);
      if ((d === 1 || d === W) && ++crossings % skip === 0) keep.push(k);
    }
    keep.push(abstract.length - 1);
    const cells: number[] = [unpad(width, abstract[0])];
    let cost = 0;
    // Take the farthest clear line within reach, else search to the next kept cell.
    for (let s = 0; s < keep.length - 1; ) {
      const a = abstract[keep[s]];
      if (uniform) {
        let t = Math.min(keep.length - 1, s + LINE_REACH);
        let d = -1;
        for (; t > s; t--) if ((d = clearLineCost(this.view.pass, W, this.cardinal, a, abstract[keep[t]])) >= 0) break;
        if (t > s) {
          appendLineCells(width, this.cardinal, a, abstract[keep[t]], cells);
          cost += d;
          s = t;
          continue;
        }
      }
      let x0 = Infinity;
      let y0 = Infinity;
      let x1 = -1;
      let y1 = -1;
      for (let k = keep[s]; k <= keep[s + 1]; k++) {
        const p = abstract[k];
        const cx = ((paddedX(W, p) / c) | 0) * c;
        const cy = ((paddedY(W, p) / c) | 0) * c;
        if (cx < x0) x0 = cx;
        if (cy < y0) y0 = cy;
        if (cx + c - 1 > x1) x1 = cx + c - 1;
        if (cy + c - 1 > y1) y1 = cy + c - 1;
      }
      const b = abstract[keep[s + 1]];
      const d = jps !== null ? this.jumpSegment(jps(), a, b, cells) : -1;
      const e = d >= 0 ? d : this.boxSegment(a, b, x0, y0, Math.min(x1, width - 1), Math.min(y1, layout.height - 1), cells);
      if (e < 0) return null;
      cost += e;
      s++;
    }
    return { cells: Int32Array.from(cells), cost };
  }

  /**
   * Jump point search from padded cell a to b over the whole layer (uniform costs only): appends the
   * path's cells after a to `out` and returns its cost, -1 when it found none (the caller then
   * searches its box). Exact, so never dearer than the box search; and a path inside the box
   * exists, which bounds how far it looks.
   */
  private jumpSegment(jps: JumpPointSearch, a: number, b: number, out: number[]): number {
    if (a === b) return 0;
    const r = jps.search(this.view, this.layer, a, b, this.cardinal, Infinity, false, this.jumpOutcome);
    if (!r.reached) return -1;
    const cells = jps.reconstruct(b, this.cardinal, this.jumpCells);
    for (let i = 1; i < cells.length; i++) out.push(cells[i]);
    if (cells.buffer !== this.jumpCells.buffer) this.jumpCells = new Int32Array(cells.length * 2);
    return this.scratch.g[b];
  }

  /**
   * Exact A* from padded cell a to b inside the box x0..x1, y0..y1 (cells); appends the path's
   * cells after a (as cell indices) to `out` and returns its cost, or -1 when the box holds no path.
   */
  private boxSegment(a: number, b: number, x0: number, y0: number, x1: number, y1: number, out: number[]): number {
    const W = this.layout.stride;
    const pass = this.view.pass;
    const bw = x1 - x0 + 1;
    const n = bw * (y1 - y0 + 1);
    if (this.box.size < n) this.box = new SearchScratch(n);
    const box = this.box;
    const { g, parent, stamp, heap } = box;
    const hs = this.view.minCost;
    const cardinal = this.cardinal;
    const dirs = cardinal ? 4 : 8;
    const by = paddedY(W, b);
    const bx = paddedX(W, b);
    const la = (paddedY(W, a) - y0) * bw + (paddedX(W, a) - x0);
    const lb = (by - y0) * bw + (bx - x0);
    const open = box.start(la);
    const closed = open + 1;
    const rows = y1 - y0 + 1;
    while (heap.size > 0) {
      const l = heap.pop();
      stamp[l] = closed;
      if (l === lb) break;
      const ly = (l / bw) | 0;
      const lx = l - ly * bw;
      const p = (ly + y0 + 1) * W + lx + x0 + 1;
      const gp = g[l];
      for (let dir = 0; dir < dirs; dir++) {
        const nx = lx + DX[dir];
        const ny = ly + DY[dir];
        if (nx < 0 || ny < 0 || nx >= bw || ny >= rows) continue;
        const q = p + DY[dir] * W + DX[dir];
        const cq = pass[q];
        if (cq <= 0) continue;
        if (dir >= 4 && (pass[p + DX[dir]] <= 0 || pass[p + DY[dir] * W] <= 0)) continue;
        const nl = ny * bw + nx;
        const s = stamp[nl];
        if (s === closed) continue;
        const ng = gp + (dir >= 4 ? SQRT2 * cq : cq);
        if (s === open && ng >= g[nl]) continue;
        const dx = Math.abs(nx + x0 - bx);
        const dy = Math.abs(ny + y0 - by);
        const f = ng + (cardinal ? dx + dy : dx > dy ? dx + OCTILE_K * dy : dy + OCTILE_K * dx) * hs;
        g[nl] = ng;
        parent[nl] = l;
        if (s === open) heap.decrease(nl, f, ng);
        else {
          stamp[nl] = open;
          heap.push(nl, f, ng);
        }
      }
    }
    if (stamp[lb] !== closed) return -1;
    const start = out.length;
    const width = this.layout.width;
    for (let l = lb; l !== la; l = parent[l]) {
      const ly = (l / bw) | 0;
      out.push((ly + y0) * width + (l - ly * bw) + x0);
    }
    reverseFrom(out, start);
    return g[lb];
  }
}
