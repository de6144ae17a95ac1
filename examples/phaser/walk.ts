/**
 * The short scene of docs/phaser.md (walk-scene.ts) as it is, plus what the e2e test reads: where the hero is,
 * the path a click gives, the scene's input listeners, cell <-> page coordinates.
 */
import * as Phaser from 'phaser';
import { game, type WalkScene } from './walk-scene';

declare global {
  interface Window {
    __walk?: Record<string, unknown>;
  }
}

const scene = () => game.scene.getScenes(true)[0] as WalkScene | undefined;

window.__walk = {
  version: Phaser.VERSION,
  ready: () => scene()?.hero !== undefined,
  hero: () => ({ x: scene()!.hero.x, y: scene()!.hero.y }),
  /** The path a click on (gx, gy) gives from (sx, sy), as world points through the cell centres. */
  path: (sx: number, sy: number, gx: number, gy: number) => {
    const s = scene()!;
    const grid = s.tilenav.navigation.grid;
    const result = s.tilenav.findPath(sx, sy, gx, gy);
    return { status: result.status, movement: grid.movement, points: Array.from(result.cells, (c) => grid.projection.cellToWorld(c % grid.width, Math.floor(c / grid.width))) };
  },
  /** Every event the scene's input plugin has listeners for, with their counts. */
  inputListeners: () => {
    const input = scene()!.input;
    return Object.fromEntries(input.eventNames().map((name) => [String(name), input.listenerCount(name)]));
  },
  cellToClient: (x: number, y: number) => {
    const s = scene()!;
    const w = s.tilenav.navigation.grid.projection.cellToWorld(x, y);
    const cam = s.cameras.main;
    const r = game.canvas.getBoundingClientRect();
    const k = r.width / game.canvas.width;
    return { x: r.left + (w.x - cam.scrollX) * cam.zoom * k, y: r.top + (w.y - cam.scrollY) * cam.zoom * k };
  },
  cellToCanvas: (x: number, y: number) => {
    const w = scene()!.tilenav.navigation.grid.projection.cellToWorld(x, y);
    return { x: w.x, y: w.y };
  },
};
