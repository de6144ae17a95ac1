/**
 * The parts of one hierarchy, as its coordinator (index.ts) hands them to the query and to the
 * rebuild after tile changes.
 */
import type { SearchView } from '../../../grid/navgrid.js';
import type { SearchScratch } from '../../kernel/scratch.js';
import type { Clusters } from './clusters.js';
import type { Groups } from './groups.js';
import type { ClusterLayout, CompactIds } from './ids.js';
import type { GroupLandmarks } from './group-landmarks.js';
import type { ClusterSearch } from './local-search.js';
import type { ClusterStore } from './store.js';

export interface HierarchyParts {
  layout: ClusterLayout;
  view: SearchView;
  cardinal: boolean;
  /** The padded-cell search arrays shared with the Pathfinder (and its jump point search). */
  scratch: SearchScratch;
  store: ClusterStore;
  clusterSearch: ClusterSearch;
  clusters: Clusters;
  groups: Groups;
  landmarks: GroupLandmarks;
  ids: CompactIds;
}
