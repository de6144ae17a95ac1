/**
 * `npm run bench`: every benchmark in this list, in one process, one after another.
 * Each module runs when imported and prints its own table.
 */
const suites = ['./astar.ts', './doors.ts', './formats.ts', './render.ts', './queries.ts', './unreachable.ts', './tiled.ts', './agents.ts', './horde.ts', './crowd.ts', './service.ts', './service-agents.ts', './speed.ts', './large.ts', './weighted.ts', './compat.ts'];
const only = process.argv.slice(2);
// Whole names: `agents` runs agents.ts alone, not service-agents.ts too.
const unknown = only.filter((o) => !suites.includes(`./${o}.ts`));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.map((o) => `'${o}'`).join(', ')}; expected one of ${suites.map((s) => s.slice(2, -3)).join(', ')}`);
  process.exit(2);
}
for (const s of suites) {
  if (only.length > 0 && !only.includes(s.slice(2, -3))) continue;
  await import(s);
}
