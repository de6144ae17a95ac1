/**
 * Change tracking: which clusters and groups a tile change touched, and their rebuild before the
 * next query. A change marks the clusters under it and one cell beyond (a border cell's change
 * moves the nodes on both sides), and their groups. The rebuild places and links the marked
 * clusters, gives their neighbours new cross links (the facing nodes may have moved), then does the
 * same for the marked groups, and leaves the landmark rows of rebuilt groups invalid.
 */
import type { NavGrid } from '../../../grid/navgrid.js';
import { GROUP_SIDE } from './ids.js';
import type { HierarchyParts } from './parts.js';

/** Marks in `out` every cell of a cols x rows array that is marked in `marks` or next to one. */
function markAround(marks: Uint8Array, out: Uint8Array, cols: number, rows: number): void {
  for (let k = 0; k < marks.length; k++) {
    if (marks[k] !== 1) continue;
    const x = k % cols;
    out[k] = 1;
    if (x > 0) out[k - 1] = 1;
    if (x < cols - 1) out[k + 1] = 1;
    if (k >= cols) out[k - cols] = 1;
    if (k + cols < rows * cols) out[k + cols] = 1;
  }
}

/** Follows the grid's changes on one layer and rebuilds what they touched. */
export class ChangeTracker {
  /** Per cluster / per group: 1 when a change touched it since its last build (all at first). */
  readonly dirtyClusters: Uint8Array;
  readonly dirtyGroups: Uint8Array;
  /** Clusters and groups the last rebuild rebuilt. */
  rebuiltClusters = 0;
  rebuiltGroups = 0;
  private anyDirty = true;
  private readonly parts: HierarchyParts;
  private readonly unsubscribe: () => void;

  constructor(grid: NavGrid, layer: number, parts: HierarchyParts) {
    this.parts = parts;
    const layout = parts.layout;
    this.dirtyClusters = new Uint8Array(layout.clusterCount).fill(1);
    this.dirtyGroups = new Uint8Array(layout.groupCount).fill(1);
    const c = layout.clusterSize;
    this.unsubscribe = grid.onChange((ch) => {
      if (ch.layer !== layer) return;
      parts.clusterSearch.forget();
      // One cell beyond the rectangle: a border cell's change moves the nodes on both sides.
      const cx0 = Math.max(0, Math.floor((ch.x - 1) / c));
      const cy0 = Math.max(0, Math.floor((ch.y - 1) / c));
      const cx1 = Math.min(layout.clusterColumns - 1, Math.floor((ch.x + ch.width) / c));
      const cy1 = Math.min(layout.clusterRows - 1, Math.floor((ch.y + ch.height) / c));
      for (let y = cy0; y <= cy1; y++) {
        for (let x = cx0; x <= cx1; x++) {
          this.dirtyClusters[y * layout.clusterColumns + x] = 1;
          this.dirtyGroups[Math.floor(y / GROUP_SIDE) * layout.groupColumns + Math.floor(x / GROUP_SIDE)] = 1;
        }
      }
      this.anyDirty = true;
    });
  }

  /** Stops following the grid. */
  dispose(): void {
    this.unsubscribe();
  }

  /** Rebuilds the clusters and groups marked dirty (all of them at first). */
  refresh(): void {
    if (!this.anyDirty) return;
    this.anyDirty = false;
    const { layout, store, clusters, groups, landmarks, ids } = this.parts;
    const dirty = this.dirtyClusters;
    clusters.beginRebuild(dirty.length);
    let most = 0;
    for (let k = 0; k < dirty.length; k++) {
      if (dirty[k] === 1) most = Math.max(most, clusters.placeNodes(k));
    }
    // Neighbours of changed clusters keep their nodes and edges, but the facing nodes may have moved
    // or come and gone: new cross links, maybe more or fewer. (Changed clusters get theirs in linkCluster.)
    const relink = new Uint8Array(dirty.length);
    markAround(dirty, relink, layout.clusterColumns, layout.clusterRows);
    for (let k = 0; k < relink.length; k++) if (relink[k] === 1 && dirty[k] === 0) store.relink(k, clusters.crossLinks(k));
    ids.fitClusterNodes(most);
    let n = 0;
    for (let k = 0; k < dirty.length; k++) {
      if (dirty[k] === 1) {
        clusters.linkCluster(k);
        dirty[k] = 0;
        n++;
      }
    }
    clusters.endRebuild();
    this.rebuiltClusters = n;
    const dirty2 = this.dirtyGroups;
    most = 0;
    for (let G = 0; G < dirty2.length; G++) {
      if (dirty2[G] === 1) {
        groups.placeNodes(G);
        most = Math.max(most, groups.nodes[G].length);
      }
    }
    const relink2 = new Uint8Array(dirty2.length);
    markAround(dirty2, relink2, layout.groupColumns, layout.groupRows);
    for (let G = 0; G < relink2.length; G++) if (relink2[G] === 1) groups.linkAcross(G);
    // Level-2 ids changed meaning: every id table entry moves, the landmark tables are recomputed.
    const moved = ids.fitGroupNodes(dirty2.length, most) || groups.levelTwoCell.length === 0;
    if (moved) landmarks.staleGroups = Infinity;
    groups.indexCells(dirty2, moved);
    n = 0;
    for (let G = 0; G < dirty2.length; G++) {
      if (dirty2[G] === 1) {
        groups.link(G);
        dirty2[G] = 0;
        landmarks.valid[G] = 0;
        n++;
      }
    }
    landmarks.staleGroups += n;
    this.rebuiltGroups = n;
    if (n > 0) groups.componentsStale = true;
  }
}
