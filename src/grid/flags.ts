/**
 * The flag bits of a cell (8 per cell per layer): bit 0 safe zone, bits 1-4 one-way exits, bits 5-6
 * the walls on the cell's north and west edges; bit 7 is free for a game's own use.
 */

/** Flag bit 0: safe zone (a game-defined marker; searches ignore it). */
export const FLAG_SAFE_ZONE = 0x01;
/** Flag bits 1-4 forbid leaving a cell northward (y - 1), eastward (x + 1), southward, westward. */
export const FLAG_NO_EXIT_NORTH = 0x02;
/** Flag bit 2: no leaving the cell eastward (x + 1). */
export const FLAG_NO_EXIT_EAST = 0x04;
/** Flag bit 3: no leaving the cell southward (y + 1). */
export const FLAG_NO_EXIT_SOUTH = 0x08;
/** Flag bit 4: no leaving the cell westward (x - 1). */
export const FLAG_NO_EXIT_WEST = 0x10;
/** All one-way bits. */
export const FLAG_ONE_WAY_MASK = 0x1e;
/**
 * Flag bit 5: a wall on the cell's north edge, the edge it shares with (x, y - 1). Each edge inside
 * the grid is stored once, by the cell south or east of it: a wall on the east edge of (x, y) is
 * the west wall of (x + 1, y). Write walls with `NavGrid.setEdgeWall`, which keeps that straight;
 * the bit on a cell of row 0 (the grid's outer edge) means nothing.
 */
export const FLAG_WALL_NORTH = 0x20;
/** Flag bit 6: a wall on the cell's west edge, the edge it shares with (x - 1, y) (see {@link FLAG_WALL_NORTH}). */
export const FLAG_WALL_WEST = 0x40;
/** Both wall bits. */
export const FLAG_WALL_MASK = 0x60;
