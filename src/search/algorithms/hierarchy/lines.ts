/**
 * Straight lines on uniform-cost cells: whether the octile (or Manhattan) path between two cells is
 * clear, and its cells. Such a path has the least possible cost, so a clear one needs no search:
 * cluster builds use it for node pairs, refinement to skip searches between kept crossings.
 */
import { SQRT2, paddedX, paddedY } from '../../../grid/padded.js';

/**
 * The cost of the path from padded cell a to b that goes diagonally first, then straight (cardinal
 * movement: along x, then y), when every cell of it is walkable and no diagonal step cuts a corner;
 * -1 when it is blocked. Costs are `pass[a]` per step (sqrt 2 times that diagonally): call it only
 * where every walkable cell costs the same. `stride`: the padded row length.
 */
export function clearLineCost(pass: Float32Array, stride: number, cardinal: boolean, a: number, b: number): number {
  const W = stride;
  const ay = (a / W) | 0;
  const by = (b / W) | 0;
  const dx = b - by * W - (a - ay * W);
  const dy = by - ay;
  const sx = dx > 0 ? 1 : dx < 0 ? -1 : 0;
  const sy = dy > 0 ? W : dy < 0 ? -W : 0;
  const nx = Math.abs(dx);
  const ny = Math.abs(dy);
  const diagonals = cardinal ? 0 : Math.min(nx, ny);
  let p = a;
  for (let t = 0; t < diagonals; t++) {
    if (pass[p + sx] <= 0 || pass[p + sy] <= 0) return -1;
    p += sx + sy;
    if (pass[p] <= 0) return -1;
  }
  const rest = nx - diagonals;
  for (let t = 0; t < rest; t++) if (pass[(p += sx)] <= 0) return -1;
  const down = ny - diagonals;
  for (let t = 0; t < down; t++) if (pass[(p += sy)] <= 0) return -1;
  return (nx + ny - 2 * diagonals + SQRT2 * diagonals) * pass[a];
}

/**
 * Appends the cells of the path {@link clearLineCost} checks from padded cell a to b, after a, as
 * cell indices of a grid `width` wide.
 */
export function appendLineCells(width: number, cardinal: boolean, a: number, b: number, out: number[]): void {
  const W = width + 2;
  let x = paddedX(W, a);
  let y = paddedY(W, a);
  const dx = paddedX(W, b) - x;
  const dy = paddedY(W, b) - y;
  const sx = dx > 0 ? 1 : dx < 0 ? -1 : 0;
  const sy = dy > 0 ? 1 : dy < 0 ? -1 : 0;
  const nx = Math.abs(dx);
  const ny = Math.abs(dy);
  const diagonals = cardinal ? 0 : Math.min(nx, ny);
  for (let t = 0; t < diagonals; t++) out.push((y += sy) * width + (x += sx));
  for (let t = diagonals; t < nx; t++) out.push(y * width + (x += sx));
  for (let t = diagonals; t < ny; t++) out.push((y += sy) * width + x);
}
