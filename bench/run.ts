/**
 * `npm run bench`: every benchmark in this list, in one process, one after another.
 * Each module runs when imported and prints its own table.
 */
const suites = ['./astar.ts', './formats.ts', './render.ts', './queries.ts', './unreachable.ts', './tiled.ts', './agents.ts', './service.ts', './service-agents.ts', './speed.ts', './large.ts', './weighted.ts'];
const only = process.argv.slice(2);
for (const s of suites) {
  if (only.length > 0 && !only.some((o) => s.includes(o))) continue;
  await import(s);
}
