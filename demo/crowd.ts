/**
 * The Units panel's crowd scenes: hundreds of units on the crowd field, two groups crossing each
 * other or a circle of units each walking to the opposite point, with avoidance ('orca') or
 * push-apart alone (the default), and what the simulation and the drawing cost, shown over the map.
 */
import { CROWD_MAP } from './maps.js';
import { loadBundled } from './map-picker.js';
import { page, selectedLayer, ui } from './page.js';
import { query } from './search.js';
import { restartRouteClicks } from './tools.js';
import { Units } from './units.js';
import { showUnits } from './units-panel.js';
import type { MovementName } from 'tilenav';

export type CrowdScene = 'crossing' | 'circle';

/** Units per scene: two groups of 200, or 250 on the circle. */
export const CROWD_UNITS: Record<CrowdScene, number> = { crossing: 400, circle: 250 };

/** The units' radius (cells) and the spacing of their ranks (cells between centres). */
const RADIUS = 0.4;
const SPACING = 1.1;
/** Frames the mean times are taken over. */
const WINDOW = 60;

/** The scene running, with the units it made (it ends when they are replaced). */
let running: { scene: CrowdScene; avoidance: boolean; units: Units } | null = null;
/** The last WINDOW frames' work (the units' step plus drawing, ms) and their distances apart (ms), rings. */
const work = new Float64Array(WINDOW);
const gaps = new Float64Array(WINDOW);
let frames = 0;
let lastFrameAt = -1;

/** The scene in view, or null (none started, or its units were removed or rebuilt). */
export function crowdScene(): { scene: CrowdScene; avoidance: boolean } | null {
  if (running !== null && page.state.units !== running.units) running = null;
  return running === null ? null : { scene: running.scene, avoidance: running.avoidance };
}

/**
 * Shows the crowd field (loading it if another map is in view), replaces the units with the
 * scene's and orders them at once: 'crossing', two groups of 200 in ranks at the field's two ends,
 * each sent as a group (`moveGroup`: a flow field and formation slots) to the other's end;
 * 'circle', 250 units evenly on a circle, each sent (`moveTo`) to the opposite point. Returns the
 * number of units.
 */
export function startCrowd(scene: CrowdScene, avoidance: boolean): number {
  if (page.state.mapName !== 'crowd') loadBundled('crowd');
  const s = page.state;
  s.units?.dispose();
  const u = new Units(s.grid, selectedLayer(), ui.movement.value as MovementName, avoidance ? 'orca' : 'none');
  u.showRoutes = false;
  s.units = u;
  const sys = u.sys;
  const { width, height } = CROWD_MAP;
  const cy = height / 2;
  if (scene === 'crossing') {
    const per = CROWD_UNITS.crossing / 2;
    const rows = 20;
    const left: number[] = [];
    const right: number[] = [];
    for (let k = 0; k < per; k++) {
      const y = cy + (k % rows - (rows - 1) / 2) * SPACING;
      const dx = 4 + Math.floor(k / rows) * SPACING;
      left.push(sys.addAgent({ x: dx, y, radius: RADIUS }));
      right.push(sys.addAgent({ x: width - 1 - dx, y, radius: RADIUS }));
    }
    u.selected.clear();
    for (const [ids, x] of [[left, width - 14], [right, 13]] as const) {
      for (const i of ids) u.selected.add(i);
      u.order(x, cy);
      u.selected.clear();
    }
  } else {
    const n = CROWD_UNITS.circle;
    const cx = width / 2;
    const r = 46;
    for (let k = 0; k < n; k++) {
      const a = (2 * Math.PI * k) / n;
      sys.addAgent({ x: cx + r * Math.cos(a), y: cy + r * Math.sin(a), radius: RADIUS });
    }
    for (let k = 0; k < n; k++) {
      const a = (2 * Math.PI * k) / n;
      sys.moveTo(k, cx - r * Math.cos(a), cy - r * Math.sin(a));
    }
  }
  // The route's line and markers would hide the crowd: cleared, as "Clear route" does.
  s.start = s.goal = null;
  restartRouteClicks();
  query();
  running = { scene, avoidance, units: u };
  frames = 0;
  lastFrameAt = -1;
  s.view.orderTarget = null;
  page.dirty = true;
  showUnits();
  return sys.count;
}

/** Records one frame: when it began (requestAnimationFrame's time, ms) and the work it did (ms). */
export function crowdFrame(now: number, workMs: number): void {
  if (crowdScene() === null) return;
  work[frames % WINDOW] = workMs;
  gaps[frames % WINDOW] = lastFrameAt < 0 ? 0 : now - lastFrameAt;
  lastFrameAt = now;
  frames++;
}

/** The scene's figures: units, units still walking, the last and mean step (ms), the mean frame work and the mean time between frames (ms). */
export function crowdFigures(): { units: number; walking: number; stepMs: number; meanStepMs: number; meanFrameMs: number; meanGapMs: number } | null {
  const c = running;
  if (crowdScene() === null || c === null) return null;
  const n = Math.min(frames, WINDOW);
  let w = 0;
  let g = 0;
  for (let k = 0; k < n; k++) {
    w += work[k];
    g += gaps[k];
  }
  let walking = 0;
  for (let i = 0; i < c.units.sys.count; i++) if (c.units.sys.isMoving(i)) walking++;
  return { units: c.units.sys.count, walking, stepMs: c.units.lastStepMs, meanStepMs: c.units.meanStepMs(), meanFrameMs: n === 0 ? 0 : w / n, meanGapMs: n < 2 ? 0 : g / (n - (frames <= WINDOW ? 1 : 0)) };
}

/** The scene's figures in a box at the map's top left corner (screen pixels). */
export function drawCrowdHud(ctx: CanvasRenderingContext2D): void {
  const f = crowdFigures();
  const c = running;
  if (f === null || c === null) return;
  const lines = [
    `${c.scene === 'crossing' ? 'two groups crossing' : 'circle swap'}: ${f.units} units, ${f.walking} walking`,
    `avoidance: ${c.avoidance ? "'orca' (velocity obstacles)" : "'none' (push-apart only)"}`,
    `step ${f.stepMs.toFixed(2)} ms, mean ${f.meanStepMs.toFixed(2)} ms`,
    `frame work ${f.meanFrameMs.toFixed(2)} ms, ${f.meanGapMs > 0 ? (1000 / f.meanGapMs).toFixed(0) : '-'} frames/s`,
  ];
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.font = '13px system-ui, sans-serif';
  const w = Math.max(...lines.map((l) => ctx.measureText(l).width)) + 16;
  ctx.fillStyle = 'rgba(16,18,28,0.82)';
  ctx.fillRect(8, 8, w, lines.length * 18 + 10);
  ctx.fillStyle = '#e8e8f0';
  lines.forEach((l, k) => ctx.fillText(l, 16, 26 + k * 18));
  ctx.restore();
}
