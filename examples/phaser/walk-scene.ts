import * as Phaser from 'phaser';
import { TILENAV_SCENE_PLUGIN, drawDebug, worldToCell } from 'tilenav/phaser';
// Vite turns these imports into the files' addresses; with another bundler use your own paths.
import mapUrl from './frontier.tmj?url';
import tilesUrl from '../frontier-tiles.png?url';

/** Pixels per millisecond the hero walks. */
const SPEED = 0.12;

/** A Tiled map; click anywhere and the hero walks there along the shortest path. */
export class WalkScene extends Phaser.Scene {
  hero!: Phaser.GameObjects.Arc;

  preload(): void {
    this.load.tilemapTiledJSON('map', mapUrl);
    this.load.image('tiles', tilesUrl);
  }

  create(): void {
    const map = this.make.tilemap({ key: 'map' });
    const tiles = map.addTilesetImage('terrain', 'tiles')!;
    for (const name of ['Ground', 'Walls', 'Towers']) map.createLayer(name, tiles);
    // One cell per tile: colliding tiles block, terrainType / cost properties set costs. The grid
    // carries the map's movement model, follows putTileAt / removeTileAt, and knows where tiles are drawn.
    const { grid } = this.tilenav.fromTilemap(map);
    const start = grid.projection.cellToWorld(10, 12);
    this.hero = this.add.circle(start.x, start.y, 6, 0xffe45c).setDepth(1);
    const line = this.add.graphics();

    // The scene's own click handler: tilenav adds none.
    this.input.on('pointerdown', (pointer: Phaser.Input.Pointer) => {
      const from = worldToCell(grid, this.hero.x, this.hero.y);
      const to = worldToCell(grid, pointer.worldX, pointer.worldY);
      if (from === null || to === null) return;
      const path = this.tilenav.findPath(from.x, from.y, to.x, to.y);
      if (path.status !== 'found') return;
      drawDebug(line, grid, { paths: [path] }); // the path only; { cells: true } would tint every cell
      // One tween per cell centre on the way, each as long as its distance takes at SPEED. The
      // hero may be anywhere in the first cell (a new click mid-walk): it heads for the next one.
      const cells = path.cells.length > 1 ? path.cells.subarray(1) : path.cells;
      let at: { x: number; y: number } = this.hero;
      const steps = Array.from(cells, (cell) => {
        const p = grid.projection.cellToWorld(cell % grid.width, Math.floor(cell / grid.width));
        const duration = Math.max(1, Phaser.Math.Distance.Between(at.x, at.y, p.x, p.y) / SPEED);
        at = p;
        return { x: p.x, y: p.y, duration };
      });
      this.tweens.killTweensOf(this.hero);
      this.tweens.chain({ targets: this.hero, tweens: steps });
    });
  }
}

export const game = new Phaser.Game({
  type: Phaser.AUTO,
  parent: 'game',
  width: 1024,
  height: 640,
  pixelArt: true,
  scene: WalkScene,
  plugins: { scene: [TILENAV_SCENE_PLUGIN] }, // this.tilenav in every scene
});
