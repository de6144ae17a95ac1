/**
 * The Units panel and what the page does with the shown map's units: add them, select them on
 * screen, send them somewhere, rebuild them for another layer or movement, show their counters.
 */
import type { MovementName } from 'tilenav';
import { Units } from './units.js';
import { page, screen, selectedLayer, ui } from './page.js';

/** When the panel last showed the units' counters (performance.now() ms). */
let shownAt = 0;

/** How long ago (ms) the panel last showed the units' counters: the frame loop refreshes it a few times a second. */
export const unitsShownAgo = (now: number): number => now - shownAt;

/** The units of the shown map, created on first use with the current layer and movement. */
export function units(): Units {
  const state = page.state;
  state.units ??= new Units(state.grid, selectedLayer(), ui.movement.value as MovementName, ui.avoidance.checked ? 'orca' : 'none');
  return state.units;
}

/**
 * Rebuilds the units for a new layer or movement model (the system walks one of each): they
 * stand where they were (those on cells walkable in the new layer), orders forgotten.
 */
export function rebuildUnits(): void {
  const state = page.state;
  const old = state.units;
  if (old === null) return;
  const at = old.ids().map((i) => [Math.round(old.sys.x[i]), Math.round(old.sys.y[i])]);
  old.dispose();
  state.units = null;
  const u = units();
  for (const [x, y] of at) u.add(1, x, y);
  showUnits();
}

/** The cell units are added around: the one at the view centre (the map's middle when off the map). */
function spawnCell(): [number, number] {
  const s = page.state;
  return s.view.cellAt(screen.width / 2, screen.height / 2) ?? [s.grid.width >> 1, s.grid.height >> 1];
}

/** Adds `n` units around cell (x, y) (default: the view centre); says so when fewer fit. Returns their ids. */
export function addUnits(n: number, x?: number, y?: number): number[] {
  const state = page.state;
  const [cx, cy] = x === undefined || y === undefined ? spawnCell() : [x, y];
  // Never on the route's markers, so both stay visible and clickable.
  const markers = [state.start, state.goal].filter((c): c is number => c !== null);
  const ids = units().add(n, cx, cy, markers);
  if (ids.length < n) ui.error.textContent = ids.length === 0 ? `no free walkable cell near (${cx}, ${cy}) for a unit` : `only ${ids.length} of ${n} units fit near (${cx}, ${cy})`;
  page.dirty = true;
  showUnits();
  return ids;
}

/** Sends the selected units to cell (x, y) as one group; returns the group's mode, null without a selection. */
export function orderUnits(x: number, y: number): string | null {
  const state = page.state;
  const o = state.units?.order(x, y) ?? null;
  state.view.orderTarget = o === null ? state.view.orderTarget : [x, y];
  page.dirty = true;
  showUnits();
  return o === null ? null : o.mode;
}

/** Selects the units whose centres lie in a screen rectangle, or the one under a click. */
export function selectOnScreen(x0: number, y0: number, x1: number, y1: number): void {
  const state = page.state;
  const u = state.units;
  if (u === null) return;
  u.selected.clear();
  const click = Math.abs(x1 - x0) < 4 && Math.abs(y1 - y0) < 4;
  let best = -1;
  let bestD = Infinity;
  for (const i of u.ids()) {
    const [sx, sy] = state.view.cellToScreen(u.sys.x[i], u.sys.y[i]);
    if (click) {
      const d = Math.hypot(sx - x0, sy - y0);
      const reach = Math.max(6, u.sys.radius[i] * state.view.unitPixels());
      if (d <= reach && d < bestD) {
        best = i;
        bestD = d;
      }
    } else if (sx >= Math.min(x0, x1) && sx <= Math.max(x0, x1) && sy >= Math.min(y0, y1) && sy <= Math.max(y0, y1)) u.selected.add(i);
  }
  if (best >= 0) u.selected.add(best);
  page.dirty = true;
  showUnits();
}

/** Removes every unit of the shown map. */
export function clearUnits(): void {
  page.state.units?.dispose();
  page.state.units = null;
  page.dirty = true;
  showUnits();
}

/** The panel's counters: units, selected, moving, replans, the last simulation step's time. */
export function showUnits(): void {
  shownAt = performance.now();
  const u = page.state.units;
  const rows: [string, string][] = u === null
    ? [['units', '0']]
    : [
        ['units', String(u.size)],
        ['avoidance', u.avoidance],
        ['selected', String(u.selected.size)],
        ['moving', String(u.ids().filter((i) => u.busy(i)).length)],
        ['replans', String(u.sys.stats.replans)],
        ['step', `${u.lastStepMs.toFixed(2)} ms (mean ${u.meanStepMs().toFixed(2)})`],
      ];
  // Two counters to a row (the panel's grid); the step time, the longest value, has a row of its own.
  ui.units.innerHTML = rows.map(([k, v]) => `<div${k === 'step' ? ' class="wide"' : ''}><span>${k}</span><b data-k="${k}">${v}</b></div>`).join('');
}
