import type * as Phaser from 'phaser';
import { findPath } from 'tilenav';
import { tilemapToNavGrid, watch, worldToCell, drawDebug } from 'tilenav/phaser';

/** From a scene's create(), once the tilemap and its layers exist: click to find a path from `from`. */
export function addNavigation(scene: Phaser.Scene, map: Phaser.Tilemaps.Tilemap, from = { x: 0, y: 0 }) {
  // Tiles marked by setCollision*, or with a collides / collision / solid property, block;
  // terrainType, cost and slowMultiplier tile properties set costs.
  const { grid, movement } = tilemapToNavGrid(map);
  // From now on putTileAt / removeTileAt / setCollision* on the map or its layers update the grid.
  watch(map, grid);
  const debug = scene.add.graphics();
  const goTo = (worldX: number, worldY: number) => {
    const goal = worldToCell(grid, worldX, worldY);
    if (goal === null) return null;
    const path = findPath(grid, from.x, from.y, goal.x, goal.y, { movement });
    drawDebug(debug, grid, { paths: [path] });
    return path;
  };
  scene.input.on('pointerdown', (p: Phaser.Input.Pointer) => goTo(p.worldX, p.worldY));
  return { grid, movement, goTo };
}
