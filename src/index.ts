/**
 * tilenav: navigation grids and exact pathfinding for tile-based games.
 * The core: no Node or DOM imports, so it runs in browsers and workers alike.
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
} from './grid/navgrid.js';
export type { NavGridOptions, NavLayer, CellRect, CellValues, GridChange, LayerStats } from './grid/navgrid.js';
export { MAX_CHANGE_RECTS } from './grid/rects.js';
export { TerrainTable, DEFAULT_TERRAINS } from './grid/terrain.js';
export type { Terrain } from './grid/terrain.js';
export { orthogonal, isometric, hexagonal, continuous, staggered, createProjection, offsetToAxial, axialToOffset } from './grid/projection.js';
export type { Projection, ProjectionSpec, WorldPoint, CellPoint, HexLayout } from './grid/projection.js';
export { movementModel, stepDistance, MOVEMENT_NAMES } from './search/movement.js';
export type { MovementName, MovementModel, Step, CornerRule } from './search/movement.js';
export { Pathfinder, findPath, distanceMap, pathfinderFor } from './search/pathfinder.js';
export { DEFAULT_FIND_PATH_OPTIONS } from './search/result.js';
export type { PathResult, SearchStatus, FindPathOptions, DistanceMapOptions, SearchAlgorithm } from './search/result.js';
export { Hierarchy, DEFAULT_CLUSTER_SIZE } from './search/hierarchy/index.js';
export type { HierarchyOptions } from './search/hierarchy/index.js';
export { checkPath } from './search/validate.js';
export type { PathCheck } from './search/validate.js';
export { aStarGraph } from './search/graph.js';
export type { Graph, GraphPathResult, GraphSearchOptions } from './search/graph.js';
export { saveGrid, loadGrid, BINARY_MAGIC, BINARY_VERSION, BINARY_EXTENSION } from './grid/binary.js';
export type { SaveGridOptions, LoadGridOptions } from './grid/binary.js';
export type { SearchOptions, SearchResult } from './search/result.js';
export { segmentCost, lineOfSight, forEachTouchedCell } from './path/los.js';
export { smoothPath, polylineCost, polylineLength, cellsToPoints, cellStep, planeOf, worldToCellPoint, toWorldWaypoints } from './path/smooth.js';
export type { SmoothOptions, WorldWaypointOptions } from './path/smooth.js';
export { nearestWalkable, DEFAULT_NEAREST_RADIUS } from './query/nearest.js';
export type { NearestWalkableOptions } from './query/nearest.js';
export { ObstacleOverlay, overlayFor, DEFAULT_DYNAMIC_OBSTACLE_OPTIONS } from './query/obstacles.js';
export type { DynamicObstacle, DynamicObstacleOptions } from './query/obstacles.js';
export { findPathToNearest, planPath } from './query/navigate.js';
export type { NearestHooks, NearestPathOptions, NearestPathResult, PlanOptions, WorldPath } from './query/navigate.js';
export { ReachabilityIndex } from './query/reachability.js';
export type { ReachabilityOptions } from './query/reachability.js';
export { randomPoint, mulberry32 } from './query/random.js';
export type { RandomPointOptions } from './query/random.js';
export { World, pathsAffectedBy } from './world/world.js';
export type { Door, Footprint, StoredPath } from './world/world.js';
export { ClearanceMap } from './query/clearance.js';
export type { ClearanceOptions } from './query/clearance.js';
export { AnyAngleFinder, findAnyAnglePath } from './path/anyangle.js';
export type { AnyAngleOptions, AnyAngleResult } from './path/anyangle.js';
