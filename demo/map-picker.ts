/**
 * The Map panel: the bundled maps, maps picked from disk (a file with its tilesets and images, or
 * a folder), and switching the page to the map chosen.
 */
import { Pathfinder, TilenavError } from 'tilenav';
import { gridBounds, movementFor } from 'tilenav/render';
import { drawArt } from './art.js';
import { BUNDLED_MAPS, COMPANION_EXTENSIONS, FILE_LOADERS, loaderFor, movementsFor, pickedPath, type DemoMap } from './maps.js';
import { option } from './panel.js';
import { GridView } from './view.js';
import { $, clearToast, page, palette, resize, screen, ui, updateStats } from './page.js';
import { fitToMovement, query } from './search.js';
import { listTools, restartRouteClicks } from './tools.js';
import { showUnits } from './units-panel.js';

const bundledGroup = document.createElement('optgroup');
bundledGroup.label = 'Bundled';
const diskGroup = document.createElement('optgroup');
diskGroup.label = 'From disk';
ui.map.append(bundledGroup, diskGroup);
for (const m of BUNDLED_MAPS) option(bundledGroup, m.id, m.label);
ui.file.accept = [...FILE_LOADERS.flatMap((l) => l.extensions), ...COMPANION_EXTENSIONS].join(',');
ui.file.multiple = true;
ui.folder.webkitdirectory = true;

/** Shows a map: a new view, finder and scratch; the old grid's listener is dropped. */
function show(name: string, m: DemoMap): void {
  page.state?.unsubscribe();
  page.state?.units?.dispose();
  const grid = m.grid;
  const view = new GridView(grid, 0);
  const cell = (p?: [number, number]) => (p && grid.isWalkable(p[0], p[1]) ? p[1] * grid.width + p[0] : null);
  page.state = {
    mapName: name,
    grid,
    finder: new Pathfinder(grid),
    view,
    marks: new Uint8Array(grid.size),
    start: cell(m.start),
    goal: cell(m.goal),
    result: null,
    smoothed: { points: null, length: 0, note: '' },
    queryError: '',
    lastQueryMs: 0,
    lastFrameMs: 0,
    lastInputToFrameMs: 0,
    units: null,
    artReady: m.art === undefined,
    unsubscribe: grid.onChange((c) => {
      if (c.layer === page.state.view.layer) page.state.view.redrawCells(c);
      // A brush stroke changes the grid many times between two frames: search once per frame.
      page.queryPending = true;
      page.dirty = true;
    }),
  };
  restartRouteClicks();
  // Only the models that fit the map's cells: square ones on square and isometric maps, the map's
  // own on hexagonal and staggered ones.
  ui.movement.replaceChildren();
  for (const mv of movementsFor(grid.projection, m.movement)) option(ui.movement, mv, mv);
  ui.movement.value = m.movement;
  fitToMovement();
  ui.layer.replaceChildren();
  grid.layers.forEach((l, i) => option(ui.layer, String(i), l.name));
  palette.show(m.tiled ?? null, grid);
  listTools(grid, m.tiled !== undefined);
  ui.error.textContent = '';
  clearToast();
  ui.missing.textContent = '';
  // The field shows the weight kept: a refusal of an earlier attempt means nothing on the next map.
  ui.weightError.textContent = '';
  $('overlay-row').hidden = true;
  resize();
  view.fit(screen.width, screen.height);
  query();
  updateStats();
  showUnits();
  const shown = page.state;
  m.art
    ?.then((a) => {
      if (page.state !== shown) return;
      palette.setArt(a);
      const drawnArt = drawArt(a, gridBounds(grid));
      // Without a single tile (every image missing) the overlay stays opaque, as on other maps.
      if (drawnArt.tiles > 0) view.setArt(drawnArt);
      $('overlay-row').hidden = drawnArt.tiles === 0;
      view.overlayVisible = ui.overlay.checked;
      view.overlayOpacity = Number(ui.opacity.value) / 100;
      if (a.missing.length > 0) ui.missing.textContent = `Not picked, so not drawn: ${a.missing.join(', ')}. Pick them with the map (or pick its folder).`;
      view.fit(screen.width, screen.height);
    })
    .catch((e: unknown) => {
      if (page.state === shown) ui.missing.textContent = `The map's tiles cannot be drawn: ${e instanceof Error ? e.message : String(e)}`;
    })
    .finally(() => {
      shown.artReady = true;
      page.dirty = true;
    });
}

/** Shows the bundled map `id` (the first one when there is no such map). */
export function loadBundled(id: string): void {
  const m = BUNDLED_MAPS.find((b) => b.id === id) ?? BUNDLED_MAPS[0];
  ui.map.value = m.id;
  show(m.id, m.load());
  shownValue = ui.map.value;
}

/** The files picked last (a folder, or a map with its tilesets and images); their maps are listed. */
let picked: File[] = [];
/** The value the map list showed before the last pick, to return to when the pick fails. */
let shownValue = '';

/**
 * Reads one picked map with the loader its extension names (the other picked files serve as its
 * tilesets and images); errors go to the page, naming the file, never to the console.
 */
async function loadPicked(file: File): Promise<void> {
  const loader = loaderFor(file.name);
  const name = pickedPath(file);
  try {
    if (loader === undefined) throw new TilenavError(`no loader for this file; expected ${FILE_LOADERS.flatMap((l) => l.extensions).join(', ')} (with ${COMPANION_EXTENSIONS.join(', ')} files beside a Tiled map)`, { file: name });
    const m = await loader.read(file, picked.filter((f) => f !== file));
    show(name, { grid: m.grid, movement: m.movement ?? movementFor(m.grid.projection), art: m.art, tiled: m.tiled });
    ui.map.value = `disk:${name}`;
  } catch (e) {
    ui.map.value = shownValue;
    ui.error.textContent = e instanceof TilenavError ? e.message : `${name}: ${e instanceof Error ? e.message : String(e)}`;
  }
  shownValue = ui.map.value;
}

/** Lists the picked maps under "From disk" and opens the first (Tiled maps first). */
function pick(files: File[]): void {
  shownValue = ui.map.value;
  // Tiled maps first: a folder's other files may carry a map extension (a LICENSE.map text).
  const tiled = (f: File) => (/\.tm[xj]$/i.test(f.name) ? 0 : 1);
  const maps = files.filter((f) => loaderFor(f.name) !== undefined).sort((a, b) => tiled(a) - tiled(b) || pickedPath(a).localeCompare(pickedPath(b)));
  if (maps.length === 0) {
    ui.error.textContent = `${files.map(pickedPath).join(', ')}: no loader for ${files.length === 1 ? 'this file' : 'these files'}; expected ${FILE_LOADERS.flatMap((l) => l.extensions).join(', ')} (with ${COMPANION_EXTENSIONS.join(', ')} files beside a Tiled map)`;
    return;
  }
  picked = files;
  diskGroup.replaceChildren();
  // Paths inside a picked folder start with the folder's name: it goes to the group's title, so
  // the options stay short enough to read whole.
  const paths = maps.map(pickedPath);
  const folder = paths.every((p) => p.includes('/')) ? paths[0].slice(0, paths[0].indexOf('/') + 1) : '';
  const common = folder !== '' && paths.every((p) => p.startsWith(folder)) ? folder : '';
  diskGroup.label = common === '' ? 'From disk' : `From disk: ${common}`;
  for (const f of maps) option(diskGroup, `disk:${pickedPath(f)}`, pickedPath(f).slice(common.length));
  void loadPicked(maps[0]);
}

ui.map.addEventListener('change', () => {
  const v = ui.map.value;
  if (!v.startsWith('disk:')) {
    loadBundled(v);
    return;
  }
  const f = picked.find((p) => `disk:${pickedPath(p)}` === v);
  if (f !== undefined) void loadPicked(f);
});
$('pick-file').addEventListener('click', () => ui.file.click());
$('pick-folder').addEventListener('click', () => ui.folder.click());
for (const input of [ui.file, ui.folder]) {
  input.addEventListener('change', () => {
    const files = [...(input.files ?? [])];
    // Cleared so picking the same file again (after fixing it) loads it again.
    input.value = '';
    if (files.length > 0) pick(files);
  });
}
