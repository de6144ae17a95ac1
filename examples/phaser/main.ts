/**
 * The Phaser example: examples/frontier.tmx (as frontier.tmj, Phaser reads Tiled JSON) drawn with
 * its tile art, a few units, click to select, right-click to move, D opens and closes the south
 * door of the fort, P shows the navigation overlay and the units' paths.
 * `?units=N` starts with N units (the e2e test measures frame time with 50).
 *
 * `?mode=army`: army mode, 500 units on the open ground east of the fort, drag a box to select
 * (a click selects one, shift adds), right-click to send the selection there as one group order
 * (`moveGroup`: formation slots and one flow field shared by the whole group, computed at the
 * order, so every unit walks from the next frame), and the frame's cost shown in the corner: the
 * game's own work per frame (update and render, from Phaser's prestep to its postrender) and the
 * time between frames.
 */
import * as Phaser from 'phaser';
import { drawDebug, worldToCell, TILENAV_SCENE_PLUGIN, type SceneNavigation, type AgentSprites } from 'tilenav/phaser';
import mapUrl from './frontier.tmj?url';
import tilesUrl from '../frontier-tiles.png?url';

/** The fort's south gate (cells on the Walls layer); gid 11 is the door tile, blocking there. */
const DOOR = [16, 17, 18].map((x) => ({ x, y: 22 }));
const DOOR_GID = 11;
const params = new URLSearchParams(location.search);
const ARMY = params.get('mode') === 'army';
const UNIT_COUNT = ARMY ? 500 : Math.max(1, Math.min(500, Number(params.get('units') ?? 6) || 6));
/** Frames the figures in the corner are taken over, and how often they are written (ms). */
const WINDOW = 120;
const HUD_EVERY_MS = 250;
/** A drag shorter than this (screen pixels) is a click. */
const DRAG_PX = 5;
const COLOURS = [0x4da3ff, 0xff8a3d, 0x7be07b, 0xf06bd0, 0xffe45c, 0x9b7bff];
const SELECTED_TINT = 0xffffff;

interface Unit {
  id: number;
  sprite: Phaser.GameObjects.Image;
}

declare global {
  interface Window {
    __phaser?: Record<string, unknown>;
  }
}

class FrontierScene extends Phaser.Scene {
  private nav!: SceneNavigation;
  private agents!: AgentSprites<Phaser.GameObjects.Image>;
  private walls!: Phaser.Tilemaps.TilemapLayer;
  private units: Unit[] = [];
  private selected = new Set<number>();
  private doorClosed = false;
  private debug = false;
  private overlay!: Phaser.GameObjects.Graphics;
  private paths!: Phaser.GameObjects.Graphics;
  private rings!: Phaser.GameObjects.Graphics;
  private overlayVersion = -1;
  private updateMs: number[] = [];
  private frameMs: number[] = [];
  /** The game's work per frame (ms): from Phaser's prestep to its postrender (update and render). */
  private workMs: number[] = [];
  /** Units walking at the end of each frame of workMs. */
  private walkingAt: number[] = [];
  /** Real time between the starts of successive frames (ms; Phaser's own delta is smoothed). */
  private gapMs: number[] = [];
  private stepStart = 0;
  private box!: Phaser.GameObjects.Graphics;
  private hud: Phaser.GameObjects.Text | null = null;
  private hudAt = 0;
  /** Where a left-button drag began (screen and world), or null. */
  private dragFrom: { x: number; y: number; wx: number; wy: number } | null = null;

  constructor() {
    super('frontier');
  }

  preload(): void {
    this.load.tilemapTiledJSON('frontier', mapUrl);
    this.load.image('frontier-tiles', tilesUrl);
  }

  create(): void {
    const map = this.make.tilemap({ key: 'frontier' });
    const tiles = map.addTilesetImage('terrain', 'frontier-tiles')!;
    for (const name of ['Ground', 'Walls', 'Towers']) {
      const layer = map.createLayer(name, tiles, 0, 0) as Phaser.Tilemaps.TilemapLayer;
      if (name === 'Walls') this.walls = layer;
    }
    // Only the walkers' layers count: Sky and Towers are the flyers' navigation layer.
    this.nav = this.tilenav.fromTilemap(map, { layers: ['Ground', 'Walls'] });
    this.agents = this.nav.agents({ walkSpeed: 5 }) as AgentSprites<Phaser.GameObjects.Image>;
    this.overlay = this.add.graphics().setVisible(false);
    this.paths = this.add.graphics().setVisible(false);
    this.rings = this.add.graphics();

    const g = this.add.graphics();
    g.fillStyle(0x000000, 0.35).fillCircle(7, 8, 6);
    g.fillStyle(0xffffff, 1).fillCircle(6, 6, 5);
    g.lineStyle(1.5, 0x1b2a4a, 1).strokeCircle(6, 6, 5);
    g.generateTexture('unit', 14, 14);
    g.destroy();
    const system = this.agents.system;
    const spots = ARMY ? armySpots(this.nav, UNIT_COUNT) : null;
    for (let k = 0; k < UNIT_COUNT; k++) {
      let x: number;
      let y: number;
      if (spots !== null) {
        x = spots[2 * k];
        y = spots[2 * k + 1];
      } else {
        // Inside and around the fort, on walkable cells.
        x = 8 + (k % 12);
        y = 10 + Math.floor(k / 12);
        while (!this.nav.grid.isWalkable(x, y)) x++;
      }
      const id = system.addAgent({ x, y, radius: 0.3 });
      const sprite = this.add.image(0, 0, 'unit').setTint(COLOURS[k % COLOURS.length]);
      this.agents.bind(id, sprite);
      this.units.push({ id, sprite });
    }
    this.box = this.add.graphics().setDepth(10);
    if (ARMY) {
      this.hud = this.add.text(6, 6, '', { fontFamily: 'monospace', fontSize: '13px', color: '#ffffff', backgroundColor: 'rgba(10,12,20,0.75)', padding: { x: 6, y: 4 } }).setDepth(20).setScrollFactor(0);
    }
    // The game's own work per frame, update and render, whatever the browser's frame rate.
    this.game.events.on('prestep', () => {
      const now = performance.now();
      if (this.stepStart > 0) {
        this.gapMs.push(now - this.stepStart);
        if (this.gapMs.length > 600) this.gapMs.shift();
      }
      this.stepStart = now;
    });
    this.game.events.on('postrender', () => {
      this.workMs.push(performance.now() - this.stepStart);
      this.walkingAt.push(this.walking());
      if (this.workMs.length > 600) {
        this.workMs.shift();
        this.walkingAt.shift();
      }
    });

    this.input.mouse?.disableContextMenu();
    this.input.on('pointerdown', (p: Phaser.Input.Pointer) => this.pointer(p));
    this.input.on('pointermove', (p: Phaser.Input.Pointer) => this.drag(p));
    this.input.on('pointerup', (p: Phaser.Input.Pointer) => this.release(p));
    this.input.keyboard?.on('keydown-D', () => this.toggleDoor());
    this.input.keyboard?.on('keydown-P', () => this.toggleDebug());
    this.expose();
  }

  /** Right button: the selection's order. Left button: a drag begins (a click or a box, told apart on release). */
  private pointer(p: Phaser.Input.Pointer): void {
    const cell = worldToCell(this.nav.grid, p.worldX, p.worldY);
    const system = this.agents.system;
    if (p.rightButtonDown()) {
      if (cell === null || this.selected.size === 0) return;
      const ids = [...this.selected];
      // One group order: formation slots and, from 24 units, one shared flow field.
      if (ids.length === 1) system.moveTo(ids[0], cell.x, cell.y);
      else system.moveGroup(ids, cell.x, cell.y);
      return;
    }
    this.dragFrom = { x: p.x, y: p.y, wx: p.worldX, wy: p.worldY };
  }

  private drag(p: Phaser.Input.Pointer): void {
    const d = this.dragFrom;
    this.box.clear();
    if (d === null || Math.hypot(p.x - d.x, p.y - d.y) < DRAG_PX) return;
    this.box.lineStyle(1, 0x9fd8ff, 1).fillStyle(0x9fd8ff, 0.12);
    this.box.fillRect(Math.min(d.wx, p.worldX), Math.min(d.wy, p.worldY), Math.abs(p.worldX - d.wx), Math.abs(p.worldY - d.wy));
    this.box.strokeRect(Math.min(d.wx, p.worldX), Math.min(d.wy, p.worldY), Math.abs(p.worldX - d.wx), Math.abs(p.worldY - d.wy));
  }

  /** The end of a left drag: a click selects the unit under it, a box every unit inside (shift adds to the selection). */
  private release(p: Phaser.Input.Pointer): void {
    const d = this.dragFrom;
    this.dragFrom = null;
    this.box.clear();
    if (d === null) return;
    const system = this.agents.system;
    if (!p.event.shiftKey) this.selected.clear();
    // Agents live in cell coordinates whose integers are cell centres.
    const at = fractionalCell(this.nav, p.worldX, p.worldY);
    if (Math.hypot(p.x - d.x, p.y - d.y) < DRAG_PX) {
      const hit = system.agentAt(at.x, at.y);
      if (hit >= 0) this.selected.add(hit);
    } else {
      const from = fractionalCell(this.nav, d.wx, d.wy);
      for (const id of system.agentsInRect(from.x, from.y, at.x, at.y)) this.selected.add(id);
    }
    this.tintSelection();
  }

  /** In army mode the selection is shown by tint (500 rings a frame would cost more than the units). */
  private tintSelection(): void {
    if (!ARMY) return;
    this.units.forEach((u, k) => u.sprite.setTint(this.selected.has(u.id) ? SELECTED_TINT : COLOURS[k % COLOURS.length]));
  }

  private toggleDoor(): void {
    this.doorClosed = !this.doorClosed;
    // putTileAt / removeTileAt are watched by the plugin: the grid follows, walkers replan.
    for (const c of DOOR) {
      if (this.doorClosed) this.walls.putTileAt(DOOR_GID, c.x, c.y);
      else this.walls.removeTileAt(c.x, c.y);
    }
  }

  private toggleDebug(): void {
    this.debug = !this.debug;
    this.overlay.setVisible(this.debug);
    this.paths.setVisible(this.debug);
  }

  update(_time: number, delta: number): void {
    const t0 = performance.now();
    this.agents.update(delta);
    const system = this.agents.system;
    this.rings.clear();
    this.rings.lineStyle(2, 0xffffff, 1);
    if (!ARMY) {
      for (const id of this.selected) {
        const s = this.agents.sprite(id);
        if (s) this.rings.strokeCircle(s.x, s.y, 9);
      }
    }
    if (this.debug) {
      if (this.overlayVersion !== this.nav.grid.version) {
        drawDebug(this.overlay, this.nav.grid, { cells: true, alpha: 0.4 });
        this.overlayVersion = this.nav.grid.version;
      }
      const paths: Float64Array[] = [];
      for (const u of this.units) {
        const path = system.isMoving(u.id) ? system.path(u.id) : null;
        if (path) paths.push(path);
      }
      drawDebug(this.paths, this.nav.grid, { paths, lineWidth: 2 });
    }
    this.updateMs.push(performance.now() - t0);
    this.frameMs.push(delta);
    if (this.updateMs.length > 600) {
      this.updateMs.shift();
      this.frameMs.shift();
    }
    if (this.hud !== null && performance.now() - this.hudAt > HUD_EVERY_MS) {
      this.hudAt = performance.now();
      this.hud.setText(this.figures());
    }
  }

  private walking(): number {
    const system = this.agents.system;
    let n = 0;
    for (const u of this.units) if (system.isMoving(u.id)) n++;
    return n;
  }

  /** The corner's text: units, walking, selected; the navigation update, the game's work per frame and the time between frames (mean, p95). */
  private figures(): string {
    const walking = this.walking();
    const f = (a: number[]) => {
      const r = a.slice(-WINDOW);
      const sorted = [...r].sort((x, y) => x - y);
      return `${(r.reduce((s, v) => s + v, 0) / Math.max(1, r.length)).toFixed(2)} / ${(sorted[Math.floor(sorted.length * 0.95)] ?? 0).toFixed(2)}`;
    };
    return [
      `${this.units.length} units, ${walking} walking, ${this.selected.size} selected`,
      `ms, mean / p95 of ${WINDOW} frames:`,
      `navigation update ${f(this.updateMs)}`,
      `frame work        ${f(this.workMs)}`,
      `between frames    ${f(this.gapMs)}`,
      'drag: select, right-click: go',
    ].join('\n');
  }

  /** What the e2e test reads and drives. */
  private expose(): void {
    const system = this.agents.system;
    const grid = this.nav.grid;
    window.__phaser = {
      ready: true,
      version: Phaser.VERSION,
      renderer: this.game.renderer.type === Phaser.WEBGL ? 'webgl' : 'canvas',
      door: DOOR,
      doorClosed: () => this.doorClosed,
      debug: () => this.debug,
      units: () => this.units.map((u) => ({ id: u.id, x: system.x[u.id], y: system.y[u.id], moving: system.isMoving(u.id), path: Array.from(system.path(u.id) ?? []), sprite: { x: u.sprite.x, y: u.sprite.y } })),
      selected: () => [...this.selected],
      walkable: (x: number, y: number) => grid.isWalkable(x, y),
      cellToClient: (x: number, y: number) => {
        const w = grid.projection.cellToWorld(x, y);
        const cam = this.cameras.main;
        const r = this.game.canvas.getBoundingClientRect();
        const k = r.width / this.game.canvas.width;
        return { x: r.left + (w.x - cam.scrollX) * cam.zoom * k, y: r.top + (w.y - cam.scrollY) * cam.zoom * k };
      },
      grid: () => ({ width: grid.width, height: grid.height, layers: grid.layers.map((l) => ({ walkable: Array.from(l.walkable), cost: Array.from(l.cost) })) }),
      army: ARMY,
      timing: () => ({ updateMs: [...this.updateMs], frameMs: [...this.frameMs], workMs: [...this.workMs], gapMs: [...this.gapMs], walkingAt: [...this.walkingAt] }),
      resetTiming: () => {
        this.updateMs.length = 0;
        this.frameMs.length = 0;
        this.workMs.length = 0;
        this.walkingAt.length = 0;
        this.gapMs.length = 0;
      },
      hud: () => this.hud?.text ?? null,
      /** Positions of every unit, flat [x0, y0, x1, y1, ...] (cheaper to read than units() with 500). */
      positions: () => this.units.flatMap((u) => [system.x[u.id], system.y[u.id]]),
      orderAll: (x: number, y: number) => system.moveGroup(this.units.map((u) => u.id), x, y),
    };
  }
}

/**
 * `n` spots for the army: walkable cells of the Ground and Walls layers east of the fort, column
 * by column from x = 30, one unit per cell ([x0, y0, x1, y1, ...]).
 */
function armySpots(nav: SceneNavigation, n: number): number[] {
  const out: number[] = [];
  const g = nav.grid;
  for (let x = 30; x < g.width - 1 && out.length < 2 * n; x++) {
    for (let y = 1; y < g.height - 1 && out.length < 2 * n; y++) if (g.isWalkable(x, y)) out.push(x, y);
  }
  return out;
}

/** The point under the pointer in agent coordinates (cells, integers at centres), for picking units. */
function fractionalCell(nav: SceneNavigation, wx: number, wy: number): { x: number; y: number } {
  const spec = nav.grid.projection.spec;
  if (spec.kind !== 'orthogonal') {
    const c = worldToCell(nav.grid, wx, wy);
    return c ?? { x: -1, y: -1 };
  }
  return { x: (wx - (spec.originX ?? 0)) / spec.tileWidth - 0.5, y: (wy - (spec.originY ?? 0)) / spec.tileHeight - 0.5 };
}

new Phaser.Game({
  type: Phaser.AUTO,
  parent: 'game',
  width: 1024,
  height: 640,
  backgroundColor: '#15161a',
  pixelArt: true,
  banner: false,
  audio: { noAudio: true },
  scene: FrontierScene,
  plugins: { scene: [TILENAV_SCENE_PLUGIN] },
});
