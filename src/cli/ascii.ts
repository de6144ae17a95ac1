import type { NavGrid } from '../grid/navgrid.js';

/**
 * Draws a layer with a path as text: `.` walkable, `#` blocked, `*` path, `S` start, `G` goal.
 * Crops to the path's surroundings so a big map still fits `maxWidth` x `maxHeight`; returns
 * null when even the crop does not fit.
 */
export function drawAscii(grid: NavGrid, layer: number, cells: ArrayLike<number>, start: [number, number], goal: [number, number], maxWidth: number, maxHeight: number): string[] | null {
  let minX = Math.min(start[0], goal[0]);
  let maxX = Math.max(start[0], goal[0]);
  let minY = Math.min(start[1], goal[1]);
  let maxY = Math.max(start[1], goal[1]);
  for (let k = 0; k < cells.length; k++) {
    const x = grid.xOf(cells[k]);
    const y = grid.yOf(cells[k]);
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  if (maxX - minX + 1 > maxWidth || maxY - minY + 1 > maxHeight) return null;
  // Grow the window around the path up to the limits, then clamp to the grid.
  const w = Math.min(grid.width, maxWidth);
  const h = Math.min(grid.height, maxHeight);
  let x0 = Math.max(0, Math.min(grid.width - w, Math.floor((minX + maxX + 1 - w) / 2)));
  let y0 = Math.max(0, Math.min(grid.height - h, Math.floor((minY + maxY + 1 - h) / 2)));
  x0 = Math.min(x0, minX);
  y0 = Math.min(y0, minY);
  const walk = grid.layers[layer].walkable;
  const onPath = new Set<number>();
  for (let k = 0; k < cells.length; k++) onPath.add(cells[k]);
  const rows: string[] = [];
  for (let y = y0; y < y0 + h; y++) {
    let s = '';
    for (let x = x0; x < x0 + w; x++) {
      const i = y * grid.width + x;
      if (x === start[0] && y === start[1]) s += 'S';
      else if (x === goal[0] && y === goal[1]) s += 'G';
      else if (onPath.has(i)) s += '*';
      else s += walk[i] === 1 ? '.' : '#';
    }
    rows.push(s);
  }
  return rows;
}
