/**
 * The Search and Result panels: runs the route query with the chosen algorithm, movement, weight
 * and layer, smooths the path, and shows the outcome (or why there is none).
 */
import { TilenavError, type FindPathOptions, type MovementName } from 'tilenav';
import { polylineLength, smoothPath } from 'tilenav/path';
import { ALGORITHMS, FALLBACK_ALGORITHM, SMOOTHING, algorithmRefusal, smoothingRefusal, type Smoothed } from './panel.js';
import { page, selectedLayer, ui } from './page.js';

/** The heuristic weight the search runs with: the field's value once it passed {@link checkWeight}. */
let weight = 1;

function options(): FindPathOptions {
  return { layer: selectedLayer(), movement: ui.movement.value as MovementName, weight };
}

/** The weight the field holds, or null when the search cannot use it (empty, not a number, outside 0 to 10). */
function fieldWeight(): number | null {
  const text = ui.weight.value.trim();
  const w = Number(text);
  return text === '' || !Number.isFinite(w) || w < 0 || w > 10 ? null : w;
}

/** Takes the weight field's value when the search can use it (0 to 10), else says why and restores the last one. */
export function checkWeight(): void {
  const w = fieldWeight();
  if (w === null) {
    ui.weightError.textContent = `Weight ${JSON.stringify(ui.weight.value)} cannot be used: give a number from 0 (Dijkstra) to 10 (1 keeps paths optimal). Kept ${weight}.`;
    ui.weight.value = String(weight);
    return;
  }
  ui.weightError.textContent = '';
  weight = w;
  query();
}

/**
 * While the weight is typed: the refusal goes as soon as the field holds a usable value (the
 * search takes it on change, as before). Typing the kept value again fires no change event, so
 * without this the message stayed beside a valid weight.
 */
export function weightTyped(): void {
  if (fieldWeight() !== null) ui.weightError.textContent = '';
}

/**
 * Disables the algorithms and smoothing modes the chosen movement rules out, the reason as the
 * option's tooltip (its text stays short enough to read whole in the list). A chosen one so
 * ruled out (Hierarchy on a hexagonal map) falls back to auto or to no smoothing, and the Search
 * panel says so; otherwise its note is cleared.
 */
export function fitToMovement(): void {
  const movement = ui.movement.value as MovementName;
  const notes: string[] = [];
  const fit = (select: HTMLSelectElement, labels: Record<string, string>, why: (id: string, m: MovementName) => string, fallback: string, instead: string) => {
    const chosen = select.value;
    for (const o of select.options) {
      const reason = why(o.value, movement);
      o.disabled = reason !== '';
      o.title = reason === '' ? '' : `${labels[o.value]} ${reason}`;
    }
    const reason = why(chosen, movement);
    if (reason === '') return;
    select.value = fallback;
    notes.push(`${labels[chosen]} ${reason}: ${instead}.`);
  };
  const algorithmLabels = Object.fromEntries(Object.entries(ALGORITHMS).map(([id, a]) => [id, a.label]));
  fit(ui.algorithm, algorithmLabels, algorithmRefusal, FALLBACK_ALGORITHM, `searching with ${ALGORITHMS[FALLBACK_ALGORITHM].label} instead`);
  fit(ui.smoothing, SMOOTHING, smoothingRefusal, 'none', 'smoothing is off');
  ui.searchNote.textContent = notes.join('\n');
}

/**
 * A search's refusal in the page's words: without the option name the library puts first
 * ('algorithm: ...'), its advice naming the page's choices rather than the option values.
 */
function refusal(e: TilenavError): string {
  const text = e.element !== undefined && e.file === undefined ? e.message.slice(e.element.length + 2) : e.message;
  return text.replace("use algorithm 'auto' or 'astar'", `pick ${ALGORITHMS[FALLBACK_ALGORITHM].label} or ${ALGORITHMS.astar.label}`);
}

/** Runs the current query and records its time; the next frame draws it. */
export function query(): void {
  const s = page.state;
  page.queryPending = false;
  page.dirty = true;
  s.smoothed = { points: null, length: 0, note: '' };
  if (s.start === null || s.goal === null) {
    s.result = null;
    s.view.setExpanded(null);
    showResult();
    return;
  }
  const W = s.grid.width;
  const algorithm = ALGORITHMS[ui.algorithm.value] ?? ALGORITHMS.jps;
  const t0 = performance.now();
  try {
    s.result = algorithm.run(s.finder, s.start % W, (s.start / W) | 0, s.goal % W, (s.goal / W) | 0, options());
    s.queryError = '';
  } catch (e) {
    if (!(e instanceof TilenavError)) throw e;
    s.result = null;
    s.queryError = `${ui.algorithm.selectedOptions[0]?.textContent ?? ui.algorithm.value}: ${refusal(e)}`;
  }
  s.lastQueryMs = performance.now() - t0;
  s.smoothed = smooth(s.start % W, (s.start / W) | 0, s.goal % W, (s.goal / W) | 0);
  if (ui.expanded.checked && s.result !== null) {
    s.finder.expandedInto(s.marks);
    s.view.setExpanded(s.marks);
  }
  showResult();
}

/** The smoothed polyline of the current route in the selected mode. */
function smooth(sx: number, sy: number, gx: number, gy: number): Smoothed {
  const s = page.state;
  const o = options();
  const mode = ui.smoothing.value;
  const none = (note = ''): Smoothed => ({ points: null, length: 0, note });
  if (mode === 'none' || s.result?.status !== 'found') return none();
  try {
    if (mode === 'string') {
      const points = smoothPath(s.grid, s.result.cells, { layer: o.layer, movement: o.movement });
      return { points, length: polylineLength(points), note: '' };
    }
    if (o.movement !== 'octile') return none('any-angle needs octile movement');
    // The map's kept Pathfinder: its any-angle search reuses the same scratch across queries.
    const r = s.finder.findPath(sx, sy, gx, gy, { layer: o.layer, movement: o.movement, anyAngle: true });
    return r.status === 'found' && r.points !== null ? { points: r.points, length: polylineLength(r.points), note: '' } : none(`any-angle: ${r.status}`);
  } catch (e) {
    if (!(e instanceof TilenavError)) throw e;
    return none(e.message);
  }
}

/** The Result panel: the query's status, cost, steps, cells expanded, smoothed length and timings. */
function showResult(): void {
  const state = page.state;
  const r = state.result;
  const rows: [string, string][] = [
    ['status', r?.status ?? (state.queryError || 'set start and goal')],
    ['cost', r && r.status === 'found' ? r.cost.toFixed(3) : '-'],
    ['steps', r && r.status === 'found' ? String(r.cells.length - 1) : '-'],
    ['expanded', r ? String(r.expanded) : '-'],
    // A length, not a cost: on terrain it is not comparable with the cost row, and says so.
    ['smoothed', state.smoothed.points !== null ? `length ${state.smoothed.length.toFixed(3)} (${state.smoothed.points.length / 2} points)` : state.smoothed.note || '-'],
    ['query', `${state.lastQueryMs.toFixed(2)} ms`],
    ['frame', `${state.lastFrameMs.toFixed(2)} ms`],
  ];
  ui.result.innerHTML = rows.map(([k, v]) => `<div><span>${k}</span><b data-k="${k}">${v}</b></div>`).join('');
}
