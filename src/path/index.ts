/**
 * tilenav/path: what to do with a grid path. String pulling and world waypoints, line of sight and
 * the exact cost of a straight segment, and any-angle paths (Theta*).
 *
 * @module tilenav/path
 */
export { canSmooth, smoothPath, polylineCost, polylineLength, cellsToPoints, cellStep, planeOf, worldToCellPoint, toWorldWaypoints } from './smooth.js';
export type { SmoothOptions, WorldWaypointOptions } from './smooth.js';
export { segmentCost, lineOfSight, forEachTouchedCell } from './los.js';
