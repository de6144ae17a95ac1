/**
 * The demo page: wires the panels together, runs the frame loop (search when the grid changed,
 * step the units, redraw) and offers the page's API as `window.__tilenav`.
 */
import { ALGORITHMS, LEGEND_HTML, SMOOTHING, option } from './panel.js';
import { pageApi, type PageApi } from './api.js';
import { BUNDLED_MAPS } from './maps.js';
import { $, clearToast, page, palette, resize, screen, selectedLayer, ui } from './page.js';
import { checkWeight, fitToMovement, query, weightTyped } from './search.js';
import { paint, restartRouteClicks, selectionBox } from './tools.js';
import { loadBundled } from './map-picker.js';
import { addUnits, clearUnits, orderUnits, rebuildUnits, showUnits, units, unitsShownAgo } from './units-panel.js';
import { crowdFigures, crowdFrame, crowdScene, drawCrowdHud, startCrowd, type CrowdScene } from './crowd.js';

const ctx = screen.getContext('2d')!;
const frameLog: { queryMs: number; frameMs: number; inputToFrameMs: number }[] = [];

for (const [id, a] of Object.entries(ALGORITHMS)) option(ui.algorithm, id, a.label);
// The library's default search (auto: JPS where it applies, A* elsewhere), as in the CLI.
ui.algorithm.value = 'jps';
for (const [id, label] of Object.entries(SMOOTHING)) if (id !== 'none') option(ui.smoothing, id, label);
$('smoothing-row').hidden = Object.keys(SMOOTHING).length <= 1;
$('legend').innerHTML = LEGEND_HTML;

let unitsWereMoving = false;

function frame(now: number): void {
  const frameStart = performance.now();
  if (page.queryPending) query();
  const state = page.state;
  if (state.units !== null) {
    let moved = false;
    try {
      moved = state.units.tick(now);
    } catch (e) {
      // The simulation refused something (a TilenavError): say so on the page and drop the units.
      ui.error.textContent = `units: ${e instanceof Error ? e.message : String(e)}`;
      state.units.dispose();
      state.units = null;
    }
    if (moved) page.dirty = true;
    // The panel follows the units a few times a second while they move, once more when they stop.
    if ((moved || unitsWereMoving) && unitsShownAgo(now) > 250) {
      showUnits();
      unitsWereMoving = moved;
    }
  }
  if (page.dirty) {
    page.dirty = false;
    const s = state;
    const box = selectionBox();
    const t0 = performance.now();
    s.view.draw(ctx, s.result?.status === 'found' ? s.result.cells : null, s.start, s.goal, ui.expanded.checked && s.result !== null, s.smoothed.points);
    if (s.units !== null || box !== null) s.view.drawUnits(ctx, s.units?.frame() ?? EMPTY_UNITS, box);
    drawCrowdHud(ctx);
    const t1 = performance.now();
    s.lastFrameMs = t1 - t0;
    if (page.inputAt >= 0) {
      s.lastInputToFrameMs = t1 - page.inputAt;
      frameLog.push({ queryMs: s.lastQueryMs, frameMs: s.lastFrameMs, inputToFrameMs: s.lastInputToFrameMs });
      if (frameLog.length > 1000) frameLog.shift();
      page.inputAt = -1;
    }
    const f = ui.result.querySelector('[data-k=frame]');
    if (f) f.textContent = `${s.lastFrameMs.toFixed(2)} ms`;
  }
  crowdFrame(now, performance.now() - frameStart);
  requestAnimationFrame(frame);
}

const EMPTY_UNITS = { count: 0, x: new Float64Array(0), y: new Float64Array(0), radius: new Float64Array(0), selected: new Uint8Array(0), routes: [] };

ui.overlay.addEventListener('change', () => {
  page.state.view.overlayVisible = ui.overlay.checked;
  page.dirty = true;
});
ui.opacity.addEventListener('input', () => {
  page.state.view.overlayOpacity = Number(ui.opacity.value) / 100;
  page.dirty = true;
});
// Before the query: a movement the chosen search or smoothing does not fit switches them first.
ui.movement.addEventListener('change', fitToMovement);
// A note about a fallback goes once the user picks again.
for (const el of [ui.algorithm, ui.smoothing]) el.addEventListener('change', () => (ui.searchNote.textContent = ''));
for (const el of [ui.algorithm, ui.movement, ui.expanded, ui.smoothing]) el.addEventListener('change', query);
ui.weight.addEventListener('change', checkWeight);
ui.weight.addEventListener('input', weightTyped);
ui.movement.addEventListener('change', rebuildUnits);
$('add-units').addEventListener('click', () => addUnits(12));
$('clear-units').addEventListener('click', clearUnits);
$('crowd').addEventListener('click', () => startCrowd(ui.crowdScene.value as CrowdScene, ui.avoidance.checked));
// Avoidance is chosen when the units are made: a crowd starts again with the new choice, other units are rebuilt.
ui.avoidance.addEventListener('change', () => {
  const c = crowdScene();
  if (c !== null) startCrowd(c.scene, ui.avoidance.checked);
  else rebuildUnits();
});
ui.layer.addEventListener('change', () => {
  rebuildUnits();
  const state = page.state;
  state.view.layer = selectedLayer();
  state.view.redrawCells({ x: 0, y: 0, width: state.grid.width, height: state.grid.height });
  query();
});
$('fit').addEventListener('click', () => {
  page.state.view.fit(screen.width, screen.height);
  page.dirty = true;
});
$('clear').addEventListener('click', () => {
  page.state.start = page.state.goal = null;
  restartRouteClicks();
  query();
});
window.addEventListener('resize', resize);
// A message about a click on the map goes once the user works in the side panel.
$('side').addEventListener('pointerdown', clearToast);

loadBundled(new URLSearchParams(location.search).get('map') ?? BUNDLED_MAPS[0].id);
requestAnimationFrame(frame);

(window as unknown as { __tilenav: PageApi }).__tilenav = pageApi({
  get state() {
    return page.state;
  },
  get drawn() {
    return !page.dirty && !page.queryPending && page.state.artReady;
  },
  get layer() {
    return selectedLayer();
  },
  screen,
  frameLog,
  markDirty: () => {
    page.dirty = true;
  },
  markInput: () => {
    page.inputAt = performance.now();
  },
  paint,
  query,
  load: loadBundled,
  addUnits,
  units,
  orderUnits,
  showUnits,
  palette,
  startCrowd: (scene: string, avoidance: boolean) => {
    ui.crowdScene.value = scene;
    ui.avoidance.checked = avoidance;
    return startCrowd(scene as CrowdScene, avoidance);
  },
  crowdFigures,
});
