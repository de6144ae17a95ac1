/**
 * Padded indexing: the one place that converts between cell indices and the padded indices the
 * searches run on.
 *
 * A grid `width` x `height` is searched on a copy one cell larger on every side, whose border cells
 * are blocked. A step from any real cell then lands on a cell of the padded array, so hot loops
 * read a neighbour without a bounds check. The padded row length (stride) is `width + 2`; cell
 * (x, y) sits at padded index `(y + 1) * stride + x + 1`.
 *
 * Hot loops keep `stride` in a local and add the deltas from {@link octileDeltas}; code outside them
 * uses the functions here.
 */
import { FLAG_NO_EXIT_EAST, FLAG_NO_EXIT_NORTH, FLAG_NO_EXIT_SOUTH, FLAG_NO_EXIT_WEST } from './flags.js';

export const SQRT2 = Math.SQRT2;
/** sqrt 2 - 1: the octile distance of (dx, dy) is max + OCTILE_K * min. */
export const OCTILE_K = SQRT2 - 1;

/** The eight directions in the order N E S W NE SE SW NW: x offsets. */
export const DX: Int32Array = Int32Array.of(0, 1, 0, -1, 1, 1, -1, -1);
/** The eight directions in the order N E S W NE SE SW NW: y offsets (y grows down). */
export const DY: Int32Array = Int32Array.of(-1, 0, 1, 0, -1, 1, 1, -1);

/** The padded row length for a grid `width` cells wide. */
export function strideOf(width: number): number {
  return width + 2;
}

/** The padded array's length for a grid `width` x `height`. */
export function paddedSize(width: number, height: number): number {
  return (width + 2) * (height + 2);
}

/** The padded index of cell (x, y), given the padded row length. */
export function padXY(stride: number, x: number, y: number): number {
  return (y + 1) * stride + x + 1;
}

/** The padded index of cell index `i` (`y * width + x`) on a grid `width` wide. */
export function pad(width: number, i: number): number {
  const y = (i / width) | 0;
  return (y + 1) * (width + 2) + (i - y * width) + 1;
}

/** The cell index (`y * width + x`) of padded index `p` on a grid `width` wide. */
export function unpad(width: number, p: number): number {
  const W = width + 2;
  const y = ((p / W) | 0) - 1;
  return y * width + (p - (y + 1) * W - 1);
}

/** The cell x of padded index `p`, given the padded row length. */
export function paddedX(stride: number, p: number): number {
  return (p % stride) - 1;
}

/** The cell y of padded index `p`, given the padded row length. */
export function paddedY(stride: number, p: number): number {
  return ((p / stride) | 0) - 1;
}

/** Padded index deltas of the eight directions N E S W NE SE SW NW. */
export function octileDeltas(stride: number): Int32Array {
  const d = new Int32Array(8);
  for (let k = 0; k < 8; k++) d[k] = DY[k] * stride + DX[k];
  return d;
}

/** The octile distance between (0, 0) and (dx, dy): straight steps 1, diagonal sqrt 2. */
export function octile(dx: number, dy: number): number {
  const ax = Math.abs(dx);
  const ay = Math.abs(dy);
  return ax > ay ? ax + OCTILE_K * ay : ay + OCTILE_K * ax;
}

/*
 * A search view's exit byte per padded cell (`SearchView.exits`, and `walls` for the walls alone):
 * bits 1-4 are the FLAG_NO_EXIT_* bits (a one-way flag, or a wall on that edge: both cells sharing
 * a walled edge get the bit), and bits 0, 5, 6, 7 close the cell's NE, SE, SW and NW diagonals,
 * set when a wall touches that corner point (any of the four edges meeting there). The bits sit
 * where the cell's own flags keep the safe zone and wall bits: a view's byte is not a flag byte.
 */
/** View exit bit: the NE diagonal out of the cell passes a wall at its corner. */
export const EXIT_CORNER_NE = 0x01;
/** View exit bit: the SE diagonal out of the cell passes a wall at its corner. */
export const EXIT_CORNER_SE = 0x20;
/** View exit bit: the SW diagonal out of the cell passes a wall at its corner. */
export const EXIT_CORNER_SW = 0x40;
/** View exit bit: the NW diagonal out of the cell passes a wall at its corner. */
export const EXIT_CORNER_NW = 0x80;

/**
 * The bits of a search view's exit byte (`SearchView.exits`) that forbid a step (dx, dy) out of a
 * cell: the FLAG_NO_EXIT_* bit of a straight step's direction; for a diagonal the corner bit of
 * its corner alone (a wall touching the corner point it passes through, or a one-way flag or wall
 * refusing either direction it moves in: views set the corner bits for those too).
 */
export function exitMask(dx: number, dy: number): number {
  // A diagonal by its corner bit alone: views set it wherever a one-way flag or a wall refuses
  // either of its directions, so a unit's view can refuse a straight step and keep the diagonals.
  if (dx !== 0 && dy !== 0) return dy < 0 ? (dx > 0 ? EXIT_CORNER_NE : EXIT_CORNER_NW) : dx > 0 ? EXIT_CORNER_SE : EXIT_CORNER_SW;
  return (dy < 0 ? FLAG_NO_EXIT_NORTH : 0) | (dx > 0 ? FLAG_NO_EXIT_EAST : 0) | (dy > 0 ? FLAG_NO_EXIT_SOUTH : 0) | (dx < 0 ? FLAG_NO_EXIT_WEST : 0);
}
