/**
 * tilenav/query: questions asked of a grid beyond one path. The nearest walkable cell, paths that
 * go as close as they can or around moving obstacles, whole-unit planning in world coordinates,
 * reachability, clearance for wide units, and random points. Radii and distances here are in world
 * units (the projection's); cell arguments are cell coordinates.
 *
 * @module tilenav/query
 */
export { nearestWalkable, DEFAULT_NEAREST_RADIUS } from './nearest.js';
export type { NearestWalkableOptions } from './nearest.js';
export { planPath } from './navigate.js';
export type { PlanOptions, WorldPath } from './navigate.js';
export { ReachabilityIndex } from './reachability.js';
export type { ReachabilityOptions } from './reachability.js';
export { ClearanceMap, clearanceOf } from './clearance.js';
export type { ClearanceOptions } from './clearance.js';
export { ObstacleOverlay, DEFAULT_DYNAMIC_OBSTACLE_OPTIONS } from './obstacles.js';
export type { DynamicObstacle, DynamicObstacleOptions } from './obstacles.js';
export { randomPoint, mulberry32 } from './random.js';
export type { RandomPointOptions } from './random.js';
