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
  toast: $<HTMLDivElement>('toast'),
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
  avoidance: $<HTMLInputElement>('avoidance'),
  crowdScene: $<HTMLSelectElement>('crowd-scene'),
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

/** How long a message beside the map stays before it fades (ms), and how long the fade takes (as the CSS transition). */
const TOAST_MS = 3500;
const TOAST_FADE_MS = 600;
let toastTimers: ReturnType<typeof setTimeout>[] = [];

/**
 * Shows `text` in a bubble beside the map point (sx, sy) (canvas pixels, as a click's): below and
 * to the right of it, or on the other side where the map's area ends, so it stays in view. It
 * fades after a few seconds; the next message replaces it.
 */
export function toast(text: string, sx: number, sy: number): void {
  const t = ui.toast;
  for (const id of toastTimers) clearTimeout(id);
  t.textContent = text;
  t.classList.remove('fading');
  t.hidden = false;
  // Measured at the area's corner: where it stood last would narrow it (shrink-to-fit).
  t.style.left = t.style.top = '0px';
  const gap = 14;
  const margin = 6;
  const w = t.offsetWidth;
  const h = t.offsetHeight;
  const areaW = screen.clientWidth;
  const areaH = screen.clientHeight;
  let x = sx + gap;
  let y = sy + gap;
  if (x + w > areaW - margin) x = sx - gap - w;
  if (y + h > areaH - margin) y = sy - gap - h;
  t.style.left = `${Math.round(Math.max(margin, Math.min(x, areaW - margin - w)))}px`;
  t.style.top = `${Math.round(Math.max(margin, Math.min(y, areaH - margin - h)))}px`;
  toastTimers = [setTimeout(() => t.classList.add('fading'), TOAST_MS), setTimeout(() => (t.hidden = true), TOAST_MS + TOAST_FADE_MS)];
}

/** Takes the message beside the map away at once (the next click went through). */
export function clearToast(): void {
  for (const id of toastTimers) clearTimeout(id);
  toastTimers = [];
  ui.toast.textContent = '';
  ui.toast.classList.remove('fading');
  ui.toast.hidden = true;
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
