/**
 * Edge walls on a tile's own sides: the tile bool properties `wallNorth` ... `wallWest`, turned
 * with the tile's flips and put on the cell edges they fall on. Shared by the Tiled loader and the
 * Phaser adapter (which reads the same properties from Phaser's tiles). Described in docs/formats.md.
 */
import { FLAG_WALL_NORTH, FLAG_WALL_WEST } from '../../grid/navgrid.js';

/** The tile bool properties that wall a tile's sides, in the order of the side bits (1 north, 2 east, 4 south, 8 west). */
export const WALL_PROPERTIES = ['wallNorth', 'wallEast', 'wallSouth', 'wallWest'] as const;

/** The sides a tile walls (1 north, 2 east, 4 south, 8 west), from whether each of {@link WALL_PROPERTIES} is true. */
export function tileWallSides(isTrue: (name: string) => boolean): number {
  let sides = 0;
  WALL_PROPERTIES.forEach((name, k) => {
    if (isTrue(name)) sides |= 1 << k;
  });
  return sides;
}

/** The names of the wall properties set in `sides`, for messages. */
export function wallNames(sides: number): string {
  return WALL_PROPERTIES.filter((_, k) => (sides & (1 << k)) !== 0).join(', ');
}

/**
 * Where a placed tile's walls stand, by its flip bits (row (H << 2 | V << 1 | D), as the top three
 * bits of a Tiled gid, 16 columns of the tile's own wall sides). Tiled flips the diagonal first,
 * then horizontally, then vertically. The sides are tile coordinates: on an orthogonal map north is
 * the image's top; on an isometric map it is the diamond's upper right edge, east the lower right.
 */
export function wallFlipTable(orientation: 'orthogonal' | 'isometric'): Uint8Array {
  // Each flip as a permutation of the four sides N E S W (index 0-3): side k goes to p[k].
  const iso = orientation === 'isometric';
  const diagonal = iso ? [2, 1, 0, 3] : [3, 2, 1, 0];
  const horizontal = iso ? [3, 2, 1, 0] : [0, 3, 2, 1];
  const vertical = iso ? [1, 0, 3, 2] : [2, 1, 0, 3];
  const apply = (perm: number[], sides: number) => perm.reduce((out, to, from) => out | ((sides >> from) & 1) << to, 0);
  const table = new Uint8Array(8 * 16);
  for (let flips = 0; flips < 8; flips++) {
    for (let sides = 0; sides < 16; sides++) {
      let s = sides;
      if ((flips & 1) !== 0) s = apply(diagonal, s);
      if ((flips & 4) !== 0) s = apply(horizontal, s);
      if ((flips & 2) !== 0) s = apply(vertical, s);
      table[flips * 16 + sides] = s;
    }
  }
  return table;
}

/**
 * Sets in `flags` (one layer, `W` x `H` cells) the wall bits of a tile at cell `i` whose walled
 * sides, already turned by its flips, are `sides`. An edge's bit lives in the cell south or east
 * of it, so the east and south sides write the neighbours; the map's outer edge holds none. Only
 * cells inside the rectangle [x0, x1) x [y0, y1) are written (default: the whole layer).
 */
export function putTileWalls(flags: Uint8Array, W: number, H: number, i: number, sides: number, x0 = 0, y0 = 0, x1 = W, y1 = H): void {
  const x = i % W;
  const y = (i - x) / W;
  const inX = x >= x0 && x < x1;
  const inY = y >= y0 && y < y1;
  if ((sides & 1) !== 0 && y > 0 && inX && inY) flags[i] |= FLAG_WALL_NORTH;
  if ((sides & 2) !== 0 && x + 1 < W && x + 1 >= x0 && x + 1 < x1 && inY) flags[i + 1] |= FLAG_WALL_WEST;
  if ((sides & 4) !== 0 && y + 1 < H && inX && y + 1 >= y0 && y + 1 < y1) flags[i + W] |= FLAG_WALL_NORTH;
  if ((sides & 8) !== 0 && x > 0 && inX && inY) flags[i] |= FLAG_WALL_WEST;
}
