/** World <-> cell, debug drawing onto a Phaser Graphics, and sprites that follow navigation agents. */
import { TilenavError, describe } from '../../errors.js';
import type { NavGrid, PathResult, Pathfinder } from '../../index.js';
import type { NavigationSystem } from '../../agents/index.js';
import { OVERLAY_COLORS, EXPANDED_ALPHA, cellColor, cellOutline, pickCell, type Rgb } from '../../render/index.js';
import type { GraphicsLike, PositionedLike } from './types.js';

/**
 * The world position (pixels) of a cell's centre, where Phaser draws its tile. Fractional cells
 * lie between centres (agents' positions), so sprites glide along the path.
 */
export function cellToWorld(grid: NavGrid, cx: number, cy: number, out: { x: number; y: number } = { x: 0, y: 0 }): {
  /** World x, in pixels. */
  x: number;
  /** World y, in pixels. */
  y: number;
} {
  const p = grid.projection.cellToWorld(cx, cy);
  out.x = p.x;
  out.y = p.y;
  return out;
}

/**
 * The cell whose drawn tile holds world point (x, y) (e.g. `pointer.worldX, pointer.worldY`), or
 * null outside the map.
 */
export function worldToCell(grid: NavGrid, x: number, y: number): {
  /** The cell's column. */
  x: number;
  /** The cell's row. */
  y: number;
} | null {
  const c = pickCell(grid.projection, x, y);
  return grid.inBounds(c.x, c.y) ? c : null;
}

/** A colour as Phaser's 0xRRGGBB number. */
export function colorNumber(rgb: Rgb): number {
  return (rgb[0] << 16) | (rgb[1] << 8) | rgb[2];
}

/**
 * What {@link drawDebug} draws. Nothing is drawn unless asked: by default only the `paths` given,
 * no cell tints and no expanded cells.
 */
export interface DebugDrawOptions {
  /** Tint every cell with its overlay colour (walkable by cost band, blocked dark). @default false */
  cells?: boolean;
  /** Opacity of the cell tints. @default 0.35 */
  alpha?: number;
  /** Navigation layer whose cells are tinted. @default 0 */
  layer?: number | string;
  /** Paths to draw as lines through cell centres: PathResults, cell-index arrays or agents' waypoints. @default none */
  paths?: readonly (PathResult | Int32Array | Float64Array | readonly number[])[];
  /** Tint what this Pathfinder's last search expanded (Pathfinder.expandedInto). @default none */
  expandedBy?: Pathfinder;
  /** Path line width in pixels. @default 3 */
  lineWidth?: number;
  /** Radius in pixels of the dot on each path's last cell; 0 draws none. @default 4 */
  dotRadius?: number;
}

/** The defaults of {@link DebugDrawOptions}: paths only, no cell tints. */
export const DEFAULT_DEBUG_DRAW_OPTIONS: Readonly<Required<Pick<DebugDrawOptions, 'cells' | 'alpha' | 'layer' | 'lineWidth' | 'dotRadius'>>> = Object.freeze({
  cells: false,
  alpha: 0.35,
  layer: 0,
  lineWidth: 3,
  dotRadius: 4,
});

const outline = new Float64Array(12);
let expandedScratch: Uint8Array | null = null;

function fillCell(g: GraphicsLike, grid: NavGrid, x: number, y: number, color: number, alpha: number): void {
  const n = cellOutline(grid.projection, x, y, outline);
  g.fillStyle(color, alpha);
  g.beginPath();
  g.moveTo(outline[0], outline[1]);
  for (let k = 1; k < n; k++) g.lineTo(outline[2 * k], outline[2 * k + 1]);
  g.closePath();
  g.fillPath();
}

/**
 * Clears a Phaser Graphics and draws, in world pixels, the `paths` given (a line through the cell
 * centres, a dot on the last one); with `cells: true` also the grid's overlay (tilenav/render's
 * OVERLAY_COLORS: green normal, yellow slow, red very slow, dark blocked), and with `expandedBy`
 * the cells a Pathfinder's last search expanded. Defaults: {@link DEFAULT_DEBUG_DRAW_OPTIONS}.
 * The cell tints are one fill per cell: meant for debug views, not every frame of a huge map.
 */
export function drawDebug(g: GraphicsLike, grid: NavGrid, options: DebugDrawOptions = {}): void {
  const alpha = options.alpha ?? DEFAULT_DEBUG_DRAW_OPTIONS.alpha;
  const dotRadius = options.dotRadius ?? DEFAULT_DEBUG_DRAW_OPTIONS.dotRadius;
  if (typeof dotRadius !== 'number' || !(dotRadius >= 0) || dotRadius === Infinity) throw new TilenavError(`expected a number of pixels >= 0, got ${describe(dotRadius)}`, { element: 'dotRadius' });
  // Looked up even when no cell is tinted, so a wrong layer throws either way.
  const layer = grid.layer(options.layer ?? DEFAULT_DEBUG_DRAW_OPTIONS.layer);
  g.clear();
  if (options.cells ?? DEFAULT_DEBUG_DRAW_OPTIONS.cells) {
    for (let y = 0, i = 0; y < grid.height; y++) {
      for (let x = 0; x < grid.width; x++, i++) fillCell(g, grid, x, y, colorNumber(cellColor(layer.walkable[i] === 1, layer.cost[i])), alpha);
    }
  }
  if (options.expandedBy !== undefined) {
    if (expandedScratch === null || expandedScratch.length !== grid.size) expandedScratch = new Uint8Array(grid.size);
    options.expandedBy.expandedInto(expandedScratch);
    for (let i = 0; i < grid.size; i++) {
      const e = expandedScratch[i];
      if (e === 0) continue;
      fillCell(g, grid, i % grid.width, (i / grid.width) | 0, colorNumber(e === 1 ? OVERLAY_COLORS.expanded : OVERLAY_COLORS.open), e === 1 ? EXPANDED_ALPHA : EXPANDED_ALPHA / 2);
    }
  }
  const p = { x: 0, y: 0 };
  for (const path of options.paths ?? []) {
    const points = pathPoints(grid, path);
    if (points.length < 2) continue;
    g.lineStyle(options.lineWidth ?? DEFAULT_DEBUG_DRAW_OPTIONS.lineWidth, colorNumber(OVERLAY_COLORS.path), 1);
    g.beginPath();
    for (let k = 0; k < points.length; k += 2) {
      cellToWorld(grid, points[k], points[k + 1], p);
      if (k === 0) g.moveTo(p.x, p.y);
      else g.lineTo(p.x, p.y);
    }
    g.strokePath();
    if (dotRadius === 0) continue;
    cellToWorld(grid, points[points.length - 2], points[points.length - 1], p);
    g.fillStyle(colorNumber(OVERLAY_COLORS.goal), 1);
    g.fillCircle(p.x, p.y, dotRadius);
  }
}

/** Cell coordinates [x0, y0, ...] of a PathResult or cell-index list (integers), or waypoints (Float64Array, already x, y pairs). */
function pathPoints(grid: NavGrid, path: PathResult | Int32Array | Float64Array | readonly number[]): ArrayLike<number> {
  if (path instanceof Float64Array) return path;
  const cells = path instanceof Int32Array || Array.isArray(path) ? (path as ArrayLike<number>) : (path as PathResult).cells;
  const out = new Array<number>(cells.length * 2);
  for (let k = 0; k < cells.length; k++) {
    out[2 * k] = cells[k] % grid.width;
    out[2 * k + 1] = Math.floor(cells[k] / grid.width);
  }
  return out;
}

/** Options of {@link AgentSprites}. */
export interface AgentSpritesOptions {
  /** Turn sprites to the agent's heading (radians, plus this offset). Off by default: top-down art often should not turn. */
  rotate?: boolean;
  /** Added to the heading when `rotate`. @default 0 */
  rotationOffset?: number;
}

/**
 * Sprites driven by a NavigationSystem: bind a sprite to an agent, call `update(delta)` from the
 * scene's update, and each sprite is placed at its agent's interpolated position, in the world
 * pixels of the grid's projection (where the tilemap draws the cell).
 */
export class AgentSprites<S extends PositionedLike = PositionedLike> {
  /** The agents the sprites follow; step it through `update`. */
  readonly system: NavigationSystem;
  private readonly options: AgentSpritesOptions;
  private readonly bound = new Map<number, S>();
  private readonly scratch = { x: 0, y: 0, z: 0 };

  /** Sprites for the agents of `system`; none is bound yet. */
  constructor(system: NavigationSystem, options: AgentSpritesOptions = {}) {
    this.system = system;
    this.options = options;
  }

  /** Places `sprite` on agent `id` from now on (replacing any sprite bound before). */
  bind(id: number, sprite: S): S {
    if (!this.system.has(id)) throw new TilenavError(`no agent ${id}`, { element: 'id' });
    this.bound.set(id, sprite);
    this.place(id, sprite);
    return sprite;
  }

  /** Stops placing the sprite of agent `id`; returns it (or undefined). */
  unbind(id: number): S | undefined {
    const s = this.bound.get(id);
    this.bound.delete(id);
    return s;
  }

  /** The sprite bound to agent `id`. */
  sprite(id: number): S | undefined {
    return this.bound.get(id);
  }

  /** Agent ids with a sprite, in binding order. */
  ids(): IterableIterator<number> {
    return this.bound.keys();
  }

  /**
   * Steps the system by `deltaMs` milliseconds (Phaser's update delta) and places every bound
   * sprite. Agents removed from the system lose their sprite binding.
   * @returns fixed steps run
   */
  update(deltaMs: number): number {
    const steps = this.system.update(Math.min(Math.max(deltaMs, 0), 250) / 1000);
    for (const [id, sprite] of this.bound) {
      if (!this.system.has(id)) this.bound.delete(id);
      else this.place(id, sprite);
    }
    return steps;
  }

  private place(id: number, sprite: S): void {
    const p = this.system.toWorld(id, this.scratch);
    sprite.x = p.x;
    sprite.y = p.y;
    if (this.options.rotate) sprite.rotation = this.system.heading[id] + (this.options.rotationOffset ?? 0);
  }
}
