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
  if (ax === Infinity || ay === Infinity) return Infinity;
  if (ax !== ax || ay !== ay) return NaN;
  const max = ax > ay ? ax : ay;
  if (max === 0) return 0;
  const nx = ax / max;
  const ny = ay / max;
  return Math.sqrt(nx * nx + ny * ny) * max;
}
