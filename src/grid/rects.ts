import type { CellRect } from './navgrid.js';

/**
 * How many rectangles a batched change event lists at most: past this the two closest are merged,
 * so listeners' work per event stays bounded however scattered the batch was.
 */
export const MAX_CHANGE_RECTS = 8;

/** The smallest rectangle holding both. */
export function unionRect(a: CellRect, b: CellRect): CellRect {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}

/** Whether two rectangles overlap or touch (share an edge or a corner). */
function touching(a: CellRect, b: CellRect): boolean {
  return a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height && b.y <= a.y + a.height;
}

/**
 * Adds `rect` to the list of changed rectangles `list` (modified in place): merged with every
 * rectangle it overlaps or touches (and those with the ones the merge then touches), so cells
 * written one by one gather into their blocks; past `cap` rectangles the pair whose union adds the
 * fewest cells is merged. Every cell of every rectangle added stays covered.
 */
export function addChangedRect(list: CellRect[], rect: CellRect, cap = MAX_CHANGE_RECTS): void {
  let r: CellRect = { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
  for (let merged = true; merged; ) {
    merged = false;
    for (let k = list.length - 1; k >= 0; k--) {
      if (!touching(list[k], r)) continue;
      r = unionRect(list[k], r);
      list.splice(k, 1);
      merged = true;
    }
  }
  list.push(r);
  while (list.length > cap) {
    let bi = 0;
    let bj = 1;
    let best = Infinity;
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const u = unionRect(list[i], list[j]);
        const waste = u.width * u.height - list[i].width * list[i].height - list[j].width * list[j].height;
        if (waste < best) [best, bi, bj] = [waste, i, j];
      }
    }
    const u = unionRect(list[bi], list[bj]);
    list.splice(bj, 1);
    list.splice(bi, 1);
    addChangedRect(list, u, cap);
  }
}
