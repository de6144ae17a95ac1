import { TilenavError, assertOptionsObject, assertPoint, describe } from '../errors.js';
import type { NavGrid } from '../grid/navgrid.js';
import type { WorldPoint } from '../grid/projection.js';
import { planeOf } from '../path/smooth.js';
import type { ReachabilityIndex } from './reachability.js';

/**
 * mulberry32: a small, fast, seedable generator of floats in [0, 1). The same seed gives the same
 * sequence on every machine, so a game can replay (lockstep, tests). Not for cryptography.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Options of {@link randomPoint}. */
export interface RandomPointOptions {
  /** Layer index or name. @default 0 */
  layer?: number | string;
  /** Draws before giving up. @default 10 */
  maxAttempts?: number;
  /** Random source returning floats in [0, 1). @default Math.random (pass mulberry32(seed) to replay) */
  random?: () => number;
  /** Only accept points reachable from this cell [x, y]; needs `reachability`. */
  reachableFrom?: readonly [number, number];
  /** The index that decides `reachableFrom` (for this layer and the unit's movement model). */
  reachability?: ReachabilityIndex;
}

/**
 * A uniformly random walkable world point within `radius` (world units) of `center`: draws a
 * point uniform in the disc (sqrt on the radius, or points crowd the centre) and keeps it when its cell is walkable (and reachable from `reachableFrom`),
 * up to `maxAttempts` draws. Returns null when every draw missed. The continuous world draws in
 * its XZ plane and returns the centre's y.
 */
export function randomPoint(grid: NavGrid, center: WorldPoint, radius: number, options: RandomPointOptions = {}): WorldPoint | null {
  assertOptionsObject(options, 'options');
  assertPoint(center, 'center');
  const layer = grid.layerIndex(options.layer ?? 0);
  if (typeof radius !== 'number' || !Number.isFinite(radius) || radius < 0) throw new TilenavError(`expected a finite radius >= 0 in world units, got ${describe(radius)}`, { element: 'radius' });
  const maxAttempts = options.maxAttempts ?? 10;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new TilenavError(`expected a whole number >= 1, got ${describe(maxAttempts)}`, { element: 'maxAttempts' });
  const random = options.random ?? Math.random;
  const proj = grid.projection;
  const [ca, cb] = planeOf(proj, center);
  if (!Number.isFinite(ca) || !Number.isFinite(cb)) throw new TilenavError('expected a centre with finite coordinates', { element: 'center' });
  let component = -1;
  const index = options.reachability;
  if (options.reachableFrom !== undefined) {
    if (index === undefined) throw new TilenavError('reachableFrom needs a reachability index (options.reachability)', { element: 'reachableFrom' });
    if (index.grid !== grid || index.layer !== layer) throw new TilenavError(`the reachability index is for layer ${index.layer}, not ${layer}`, { element: 'reachability' });
    component = index.componentOf(options.reachableFrom[0], options.reachableFrom[1]);
    if (component < 0) return null;
  }
  const continuousWorld = proj.spec.kind === 'continuous';
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const angle = random() * 2 * Math.PI;
    const r = Math.sqrt(random()) * radius;
    const a = ca + r * Math.cos(angle);
    const b = cb + r * Math.sin(angle);
    const c = proj.worldToCell(a, b);
    if (!grid.isWalkable(c.x, c.y, layer)) continue;
    if (component >= 0 && (index as ReachabilityIndex).componentOf(c.x, c.y) !== component) continue;
    return continuousWorld ? { x: a, y: center.y, z: b } : { x: a, y: b, z: center.z };
  }
  return null;
}
