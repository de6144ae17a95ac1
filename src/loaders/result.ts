/** The one result shape of every map parser and loader. No Node imports. */
import type { NavGrid } from '../grid/navgrid.js';

/**
 * What every `parseX` (text or bytes in) and every Node `loadX` (a file's path in) gives back: the
 * grid and the warnings, with the format's own extras beside them (a Tiled map's projection and
 * properties, a text grid's header numbers, a polygon config's areas).
 */
export interface LoadedGrid {
  /** The navigation grid the file describes. */
  grid: NavGrid;
  /** What the loader did that the map's author may not expect, one line each; empty when nothing. */
  warnings: string[];
}
