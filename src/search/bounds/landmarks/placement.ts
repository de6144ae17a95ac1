/**
 * Farthest-point placement of landmarks, shared by the grid's landmark bounds (landmark-bounds.ts)
 * and the hierarchy's level-2 landmarks (algorithms/hierarchy/group-landmarks.ts). Each landmark
 * after the first is the node farthest from every landmark placed so far: the placer keeps `near`,
 * each node's cost from its nearest landmark (Infinity: reached from none), lowers it with each new
 * landmark's costs, and places the next landmark where it is largest. The landmarks end up around
 * the rim of the map, where they lie "behind" most starts and goals and so bound them best.
 *
 * Only the placement is shared. The Dijkstra searches that fill a landmark's costs are not: the
 * grid's runs on padded cells with symmetric stand-in costs rounded down to 32-bit floats, is
 * resumable under a budget and lowers costs again after tile changes; the hierarchy's runs on the
 * level-2 graph (in-group edges and cross links, forward and reverse) over the hierarchy's compact
 * ids. One loop for both would need a neighbour callback in the hot loop of each.
 */

/**
 * The next landmark: the index of the largest finite value of `near` (the first one on ties), -1
 * when every value is Infinity (no node left that a landmark reaches). With `among`, only those
 * indices are looked at (in that order).
 */
export function farthest(near: Float32Array | Float64Array, among?: Int32Array): number {
  let best = -1;
  let bestD = -1;
  const count = among === undefined ? near.length : among.length;
  for (let i = 0; i < count; i++) {
    const n = among === undefined ? i : among[i];
    const d = near[n];
    if (d !== Infinity && d > bestD) {
      bestD = d;
      best = n;
    }
  }
  return best;
}
