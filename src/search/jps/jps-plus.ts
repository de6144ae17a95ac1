/**
 * JPS+: jump distances precomputed per cell and direction, read by {@link JumpPointSearch} in
 * place of the row scans.
 */
import type { SearchView } from '../../grid/navgrid.js';
import { DX, DY } from '../padded.js';

/**
 * JPS+ (precomputed jump distances) for octile without corner cutting: for every padded cell and
 * each direction N E S W NE SE SW NW, d > 0 is the number of steps to the next jump point that
 * way (for a diagonal: to the next cell with a straight jump point), and d <= 0 is minus the
 * number of free steps before a wall. The same forced-neighbour rules as the row scans.
 */
export interface JumpTable {
  /** 8 entries per padded cell, `jumps[p * 8 + k]`. Int16 when both sides fit, else Int32. */
  readonly jumps: Int16Array | Int32Array;
  /** Build time in milliseconds. */
  readonly buildMs: number;
  /** 16 (Int16) or 32 bytes per padded cell. */
  readonly bytes: number;
}

/** Builds the jump table in eight sweeps over the padded view (O(cells)). */
export function buildJumpTable(view: SearchView): JumpTable {
  const t0 = performance.now();
  const pass = view.pass;
  const W = view.stride;
  const H = pass.length / W;
  const jumps = Math.max(W, H) < 32000 ? new Int16Array(pass.length * 8) : new Int32Array(pass.length * 8);
  const open = (p: number): boolean => pass[p] > 0;
  // Straight directions: a cell's value follows from the next cell's, so sweep against the motion.
  for (let k = 0; k < 4; k++) {
    const dx = DX[k];
    const dy = DY[k];
    const step = dy * W + dx;
    const side = dx !== 0 ? W : 1;
    for (let yi = 1; yi < H - 1; yi++) {
      const y = dy > 0 ? H - 1 - yi : yi;
      for (let xi = 1; xi < W - 1; xi++) {
        const x = dx > 0 ? W - 1 - xi : xi;
        const p = y * W + x;
        if (!open(p)) continue;
        const c = p + step;
        if (!open(c)) continue;
        const forced = (open(c - side) && !open(c - side - step)) || (open(c + side) && !open(c + side - step));
        const t = jumps[c * 8 + k];
        jumps[p * 8 + k] = forced ? 1 : t > 0 ? t + 1 : t - 1;
      }
    }
  }
  for (let k = 4; k < 8; k++) {
    const dx = DX[k];
    const dy = DY[k];
    const kh = dx > 0 ? 1 : 3;
    const kv = dy > 0 ? 2 : 0;
    const step = dy * W + dx;
    for (let yi = 1; yi < H - 1; yi++) {
      const y = dy > 0 ? H - 1 - yi : yi;
      for (let xi = 1; xi < W - 1; xi++) {
        const x = dx > 0 ? W - 1 - xi : xi;
        const p = y * W + x;
        const c = p + step;
        if (!open(p) || !open(p + dx) || !open(p + dy * W) || !open(c)) continue;
        const t = jumps[c * 8 + k];
        jumps[p * 8 + k] = jumps[c * 8 + kh] > 0 || jumps[c * 8 + kv] > 0 ? 1 : t > 0 ? t + 1 : t - 1;
      }
    }
  }
  return { jumps, buildMs: performance.now() - t0, bytes: jumps.byteLength };
}
