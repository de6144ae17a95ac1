/**
 * tilenav: navigation grids and exact pathfinding for tile-based games.
 * The core: no Node or DOM imports, so it runs in browsers and workers alike. Queries built on
 * the search (nearest cell, obstacles, clearance, reachability) are in `tilenav/query`, path
 * post-processing and any-angle paths in `tilenav/path`, A* over any graph in `tilenav/graph`.
 *
 * @module tilenav
 */
export { TilenavError } from './errors.js';
export {
  NavGrid,
  DEFAULT_LAYER_NAMES,
  DEFAULT_MAX_CELLS,
  MAX_LAYERS,
  FLAG_SAFE_ZONE,
  FLAG_NO_EXIT_NORTH,
  FLAG_NO_EXIT_EAST,
  FLAG_NO_EXIT_SOUTH,
  FLAG_NO_EXIT_WEST,
  FLAG_ONE_WAY_MASK,
  FLAG_WALL_NORTH,
  FLAG_WALL_WEST,
  FLAG_WALL_MASK,
} from './grid/navgrid.js';
export { defaultMovement } from './grid/navgrid.js';
export type { NavGridOptions, NavLayer, CellRect, CellValues, GridChange, LayerStats, SearchView, GridMemory, MemoryEntry, EdgeSide } from './grid/navgrid.js';
export type { FromMatrixOptions } from './grid/navgrid.js';
export type { LinkSpec, LinkEndSpec, LinkEnd, NavLink } from './grid/links.js';
export { MAX_CHANGE_RECTS } from './grid/rects.js';
export { TerrainTable, DEFAULT_TERRAINS } from './grid/terrain.js';
export type { Terrain } from './grid/terrain.js';
export { orthogonal, isometric, hexagonal, continuous, staggered, createProjection, offsetToAxial, axialToOffset } from './grid/projection.js';
export type { Projection, ProjectionSpec, WorldPoint, CellPoint, HexLayout } from './grid/projection.js';
export { movementModel, stepDistance, MOVEMENT_NAMES } from './search/movement.js';
export type { MovementName, MovementModel, Step, CornerRule } from './search/movement.js';
export { Pathfinder, findPath, distanceMap, movementRange } from './search/pathfinder.js';
export { PathSearch } from './search/path-search.js';
export type { StepOptions, PathSearchState } from './search/path-search.js';
export { DEFAULT_FIND_PATH_OPTIONS } from './search/result.js';
export type { PathResult, PathStatus, PathRefusal, CostMeasure, FindPathOptions, DistanceMapOptions, RangeOptions, MovementRange, SearchAlgorithm, HierarchyInfo } from './search/result.js';
export type { DynamicObstacle, DynamicObstacleOptions } from './query/obstacles.js';
export { DEFAULT_CLUSTER_SIZE } from './search/algorithms/hierarchy/index.js';
export type { HierarchyOptions } from './search/algorithms/hierarchy/index.js';
export { checkPath } from './search/validate.js';
export type { PathCheck } from './search/validate.js';
export { World, pathsAffectedBy } from './world/world.js';
export { shortcutPaths, SHORTCUT_SEARCH_LIMIT } from './world/shortcuts.js';
export type { ShortcutOptions } from './world/shortcuts.js';
export type { Door, Footprint, StoredPath } from './world/world.js';
