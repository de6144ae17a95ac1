/**
 * The cluster hierarchy's entry point. For now it re-exports the hierarchy from its current home;
 * the hierarchy's own files take this place.
 */
export { Hierarchy, DEFAULT_CLUSTER_SIZE, type HierarchyOptions } from '../hpa.js';
