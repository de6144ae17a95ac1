/**
 * The Edit panel's tools and what the mouse does with them on the map: route clicks and marker
 * drags, brush strokes, unit selection and orders, tile rules, panning and zooming.
 */
import type { NavGrid } from 'tilenav';
import { forEachTouchedCell } from 'tilenav/path';
import { hintFor, option } from './panel.js';
import { clearToast, page, palette, screen, selectedLayer, toast, ui, updateStats } from './page.js';
import { query } from './search.js';
import { addUnits, orderUnits, selectOnScreen } from './units-panel.js';

let drag: 'start' | 'goal' | 'paint' | 'pan' | 'box' | null = null;
/** The Units tool's selection rectangle (screen pixels: x0, y0, x1, y1) while dragging. */
let box: [number, number, number, number] | null = null;
/** Where a right-button press began: a press that does not pan orders the selection there. */
let rightDown: [number, number] | null = null;
/** Route clicks alternate: start, goal, start, ... */
let nextIsStart = true;

/** The Units tool's selection rectangle being dragged (screen pixels: x0, y0, x1, y1), or null. */
export const selectionBox = (): [number, number, number, number] | null => box;

/** The next route click sets the start again (a new map, a cleared route). */
export function restartRouteClicks(): void {
  nextIsStart = true;
}

/** What a left click does with the chosen tool, shown under the tool picker. */
export function showHint(): void {
  ui.hint.textContent = hintFor(ui.tool.value);
}

/** Fills the Tool list for a map: route, units, wall, erase, one per walkable terrain, and the tile rule on a Tiled map. */
export function listTools(grid: NavGrid, tiled: boolean): void {
  ui.tool.replaceChildren();
  option(ui.tool, 'route', 'Route (start / goal)');
  option(ui.tool, 'units', 'Units (select, right-click to move)');
  option(ui.tool, 'wall', 'Wall');
  option(ui.tool, 'erase', 'Erase (Ground)');
  for (const t of grid.terrain.entries()) if (t.walkable && t.name !== 'Ground') option(ui.tool, `terrain:${t.name}`, `${t.name} (cost ${t.cost})`);
  if (tiled) option(ui.tool, 'tile-rule', 'Tile rule (the tile under the cursor)');
  showHint();
}

/** Paints one brush stamp centred on (x, y) with `tool` (wall, erase, terrain:NAME). */
export function paint(x: number, y: number, tool = ui.tool.value): void {
  const g = page.state.grid;
  const b = Number(ui.brush.value) || 1;
  const x0 = Math.max(0, x - ((b - 1) >> 1));
  const y0 = Math.max(0, y - ((b - 1) >> 1));
  const w = Math.min(g.width, x0 + b) - x0;
  const h = Math.min(g.height, y0 + b) - y0;
  const layer = selectedLayer();
  if (tool === 'wall') g.fillRect(x0, y0, w, h, { walkable: false }, layer);
  else if (tool === 'erase') g.fillRect(x0, y0, w, h, { terrain: 'Ground' }, layer);
  else if (tool.startsWith('terrain:')) g.fillRect(x0, y0, w, h, { terrain: tool.slice(8) }, layer);
}

/** The cell the brush stroke reached last: the next pointer event paints on from there. */
let strokeAt: [number, number] = [0, 0];

/**
 * Paints every cell from the stroke's last cell to (x, y), in one change: pointer events come a
 * few cells apart on a quick drag, and a wall painted only where they landed had gaps.
 */
function paintStroke(x: number, y: number): void {
  const [x0, y0] = strokeAt;
  strokeAt = [x, y];
  page.state.grid.batch(() => forEachTouchedCell(x0, y0, x, y, (cx, cy) => paint(cx, cy)));
}

let lastPan: [number, number] = [0, 0];

function pointer(e: PointerEvent): [number, number] {
  const r = screen.getBoundingClientRect();
  return [e.clientX - r.left, e.clientY - r.top];
}

/**
 * Moves the start or goal to (x, y); a blocked cell is refused with a message beside the pointer
 * at (sx, sy). Returns whether it moved.
 */
function setPoint(which: 'start' | 'goal', x: number, y: number, sx: number, sy: number): boolean {
  const state = page.state;
  const layer = selectedLayer();
  if (!state.grid.isWalkable(x, y, layer)) {
    toast(`(${x}, ${y}) is blocked on layer ${state.grid.layers[layer].name}: pick a walkable cell for the ${which}.`, sx, sy);
    page.dirty = true;
    return false;
  }
  clearToast();
  state[which] = y * state.grid.width + x;
  query();
  return true;
}

function pointerDown(e: PointerEvent): void {
  const state = page.state;
  page.inputAt = performance.now();
  const [sx, sy] = pointer(e);
  screen.setPointerCapture(e.pointerId);
  if (e.button !== 0) {
    drag = 'pan';
    lastPan = [sx, sy];
    rightDown = e.button === 2 && ui.tool.value === 'units' ? [sx, sy] : null;
    return;
  }
  if (ui.tool.value === 'units') {
    const c = state.view.cellAt(sx, sy);
    if (e.shiftKey) {
      if (c !== null) addUnits(1, c[0], c[1]);
      return;
    }
    drag = 'box';
    box = [sx, sy, sx, sy];
    return;
  }
  const c = state.view.cellAt(sx, sy);
  if (c === null) return;
  const i = c[1] * state.grid.width + c[0];
  if (ui.tool.value === 'tile-rule') {
    const said = palette.ruleAtCell(c[0], c[1]);
    if (said !== '') toast(said, sx, sy);
    return;
  }
  if (ui.tool.value !== 'route') {
    drag = 'paint';
    strokeAt = c;
    paint(c[0], c[1]);
    updateStats();
    return;
  }
  if (i === state.start || i === state.goal) {
    drag = i === state.start ? 'start' : 'goal';
    return;
  }
  // A refused (blocked) cell leaves the turn: the next click still sets the same marker.
  if (setPoint(nextIsStart ? 'start' : 'goal', c[0], c[1], sx, sy)) nextIsStart = !nextIsStart;
}

function pointerMove(e: PointerEvent): void {
  const state = page.state;
  if (ui.tool.value === 'tile-rule') {
    const c = state.view.cellAt(...pointer(e));
    ui.hint.textContent = `${hintFor('tile-rule')} ${c === null ? '' : palette.describeAt(c[0], c[1])}`;
  }
  if (drag === null) return;
  const [sx, sy] = pointer(e);
  if (drag === 'box') {
    box![2] = sx;
    box![3] = sy;
    page.dirty = true;
    return;
  }
  if (drag === 'pan') {
    state.view.panX += sx - lastPan[0];
    state.view.panY += sy - lastPan[1];
    lastPan = [sx, sy];
    page.dirty = true;
    return;
  }
  const c = state.view.cellAt(sx, sy);
  if (c === null) return;
  page.inputAt = performance.now();
  if (drag === 'paint') paintStroke(c[0], c[1]);
  else if (c[1] * state.grid.width + c[0] !== state[drag]) setPoint(drag, c[0], c[1], sx, sy);
}

function pointerUp(e: PointerEvent): void {
  if (drag === 'paint') updateStats();
  if (drag === 'box' && box !== null) {
    selectOnScreen(box[0], box[1], box[2], box[3]);
    box = null;
  }
  if (rightDown !== null) {
    const [sx, sy] = pointer(e);
    const c = Math.hypot(sx - rightDown[0], sy - rightDown[1]) < 4 ? page.state.view.cellAt(sx, sy) : null;
    if (c !== null && orderUnits(c[0], c[1]) === null) toast('No unit is selected: click a unit or drag a box around some first.', sx, sy);
    rightDown = null;
  }
  drag = null;
}

/** Zooms about the pointer. */
function wheel(e: WheelEvent): void {
  e.preventDefault();
  const [sx, sy] = [e.offsetX, e.offsetY];
  const v = page.state.view;
  const f = Math.exp(-e.deltaY * 0.0015);
  v.panX = sx - (sx - v.panX) * f;
  v.panY = sy - (sy - v.panY) * f;
  v.zoom *= f;
  page.dirty = true;
}

screen.addEventListener('contextmenu', (e) => e.preventDefault());
screen.addEventListener('pointerdown', pointerDown);
screen.addEventListener('pointermove', pointerMove);
screen.addEventListener('pointerup', pointerUp);
screen.addEventListener('wheel', wheel, { passive: false });
ui.tool.addEventListener('change', () => {
  showHint();
  // The tool sets the rule chosen under Tiles: the panel opens to show it.
  if (ui.tool.value === 'tile-rule') palette.root.open = true;
});
