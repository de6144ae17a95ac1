/**
 * Math.hypot(x, y), bit for bit, without allocating. Math.hypot is a variadic builtin that the
 * optimizing compiler calls rather than inlines: each call boxes its result and copies its
 * arguments to the heap, which in the per-step loops (every agent, every overlapping pair) was
 * most of what a step allocated. This is the same computation (scale by the larger magnitude,
 * sum the squares in argument order, square root, scale back), so positions come out identical.
 * Infinity if either is infinite, else NaN if either is NaN; 0 for (0, 0).
 */
export function hypot(x: number, y: number): number {
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  // NaN when either is NaN, which carries through to r.
  const max = Math.max(ax, ay);
  const nx = ax / max;
  const ny = ay / max;
  const r = Math.sqrt(nx * nx + ny * ny) * max;
  // One expression, no early returns: inlined, the result stays an unboxed number (separate
  // returns of constants made the compiler box it).
  return ax === Infinity || ay === Infinity ? Infinity : max === 0 ? 0 : r;
}
