/**
 * tilenav/graph: A* over any graph the caller describes (node ids 0..n-1, edges from a callback),
 * for road networks, waypoint graphs or anything that is not a grid.
 *
 * @module tilenav/graph
 */
export { GraphAStar, GraphSearch, aStarGraph } from '../search/graph/graph-astar.js';
export type { Graph, GraphPathResult, GraphSearchOptions } from '../search/graph/graph-astar.js';
export type { PathStatus } from '../search/result.js';
export type { StepOptions, PathSearchState } from '../search/step.js';
