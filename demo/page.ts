/**
 * What the demo's parts share: the page's elements, the shown map's state, and the flags that
 * tell the frame loop to search again or redraw.
 */
import type { State } from './api.js';
import { TilePalette } from './palette.js';

export const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
export const screen = $<HTMLCanvasElement>('screen');
export const ui = {
  map: $<HTMLSelectElement>('map'),
  file: $<HTMLInputElement>('file'),
  folder: $<HTMLInputElement>('folder'),
  error: $<HTMLDivElement>('error'),
  missing: $<HTMLDivElement>('missing'),
  notice: $<HTMLDivElement>('notice'),
  hint: $<HTMLDivElement>('hint'),
  overlay: $<HTMLInputElement>('overlay'),
  opacity: $<HTMLInputElement>('opacity'),
  tool: $<HTMLSelectElement>('tool'),
  brush: $<HTMLSelectElement>('brush'),
  algorithm: $<HTMLSelectElement>('algorithm'),
  movement: $<HTMLSelectElement>('movement'),
  weight: $<HTMLInputElement>('weight'),
  weightError: $<HTMLDivElement>('weight-error'),
  layer: $<HTMLSelectElement>('layer'),
  smoothing: $<HTMLSelectElement>('smoothing'),
  searchNote: $<HTMLDivElement>('search-note'),
  expanded: $<HTMLInputElement>('expanded'),
  result: $<HTMLDivElement>('result'),
  stats: $<HTMLDivElement>('stats'),
  units: $<HTMLDivElement>('units'),
};

/**
 * The page's mutable state. `dirty` asks the next frame to redraw, `queryPending` to search
 * again first (a brush stroke changes the grid many times between two frames: one search per
 * frame), `inputAt` starts the input-to-frame clock (-1: no input waiting for its frame).
 */
export const page = {
  /** The map shown; set by the map picker before anything reads it. */
  state: undefined as unknown as State,
  dirty: true,
  queryPending: false,
  inputAt: -1,
};

/** The layer the controls select. */
export const selectedLayer = (): number => Number(ui.layer.value);

/** Sizes the canvas to its box on the page (in CSS pixels) and asks for a redraw. */
export function resize(): void {
  const r = screen.getBoundingClientRect();
  const w = Math.max(1, Math.round(r.width));
  const h = Math.max(1, Math.round(r.height));
  if (screen.width !== w || screen.height !== h) {
    screen.width = w;
    screen.height = h;
  }
  page.dirty = true;
}

/** The Statistics panel: the map's size and projection, and per layer its navigable and blocked cells. */
export function updateStats(): void {
  const g = page.state.grid;
  const pct = (n: number, t: number) => `${((100 * n) / t).toFixed(1)}%`;
  ui.stats.innerHTML =
    `<div><span>size</span><b>${g.width} x ${g.height}</b></div><div><span>projection</span><b>${g.projection.spec.kind}</b></div>` +
    g
      .stats()
      .map((l) => `<div><span>${l.name}</span><b>${l.total}</b></div><div><span>&nbsp; navigable</span><b>${l.walkable} (${pct(l.walkable, l.total)})</b></div><div><span>&nbsp; blocked</span><b>${l.blocked} (${pct(l.blocked, l.total)})</b></div>`)
      .join('');
}

/** The Tiles panel of a Tiled map: its rules change the grid, so the statistics follow. */
export const palette = new TilePalette({ changed: () => updateStats() });
