/** The flag bits of a cell (8 per cell per layer); bits 5-7 are free for a game's own use. */

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
