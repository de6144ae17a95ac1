/**
 * The Phaser example: examples/frontier.tmx (as frontier.tmj, Phaser reads Tiled JSON) drawn with
 * its tile art, a few units, click to select, right-click to move, D opens and closes the south
 * door of the fort, P shows the navigation overlay and the units' paths.
 * `?units=N` starts with N units (the e2e test measures frame time with 50).
 */
import * as Phaser from 'phaser';
import { drawDebug, worldToCell, TILENAV_SCENE_PLUGIN, type SceneNavigation, type AgentSprites } from 'tilenav/phaser';
import mapUrl from './frontier.tmj?url';
import tilesUrl from '../frontier-tiles.png?url';

/** The fort's south gate (cells on the Walls layer); gid 11 is the door tile, blocking there. */
const DOOR = [16, 17, 18].map((x) => ({ x, y: 22 }));
const DOOR_GID = 11;
const params = new URLSearchParams(location.search);
const UNIT_COUNT = Math.max(1, Math.min(500, Number(params.get('units') ?? 6) || 6));

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
    const colours = [0x4da3ff, 0xff8a3d, 0x7be07b, 0xf06bd0, 0xffe45c, 0x9b7bff];
    const system = this.agents.system;
    for (let k = 0; k < UNIT_COUNT; k++) {
      // Inside and around the fort, on walkable cells.
      let x = 8 + (k % 12);
      let y = 10 + Math.floor(k / 12);
      while (!this.nav.grid.isWalkable(x, y)) x++;
      const id = system.addAgent({ x, y, radius: 0.3 });
      const sprite = this.add.image(0, 0, 'unit').setTint(colours[k % colours.length]);
      this.agents.bind(id, sprite);
      this.units.push({ id, sprite });
    }

    this.input.mouse?.disableContextMenu();
    this.input.on('pointerdown', (p: Phaser.Input.Pointer) => this.pointer(p));
    this.input.keyboard?.on('keydown-D', () => this.toggleDoor());
    this.input.keyboard?.on('keydown-P', () => this.toggleDebug());
    this.expose();
  }

  private pointer(p: Phaser.Input.Pointer): void {
    const cell = worldToCell(this.nav.grid, p.worldX, p.worldY);
    const system = this.agents.system;
    // Agents live in cell coordinates whose integers are cell centres.
    const at = fractionalCell(this.nav, p.worldX, p.worldY);
    if (p.rightButtonDown()) {
      if (cell === null || this.selected.size === 0) return;
      const ids = [...this.selected];
      if (ids.length === 1) system.moveTo(ids[0], cell.x, cell.y);
      else system.moveGroup(ids, cell.x, cell.y);
      return;
    }
    const hit = system.agentAt(at.x, at.y);
    if (!p.event.shiftKey) this.selected.clear();
    if (hit >= 0) this.selected.add(hit);
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
    for (const id of this.selected) {
      const s = this.agents.sprite(id);
      if (s) this.rings.strokeCircle(s.x, s.y, 9);
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
      timing: () => ({ updateMs: [...this.updateMs], frameMs: [...this.frameMs] }),
      orderAll: (x: number, y: number) => system.moveGroup(this.units.map((u) => u.id), x, y),
    };
  }
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
