import type { CellRect, NavGrid } from 'tilenav';
import type { UnitFrame } from './units.js';
import { EXPANDED_ALPHA, OVERLAY_COLORS, cellColor, cellOutline, gridBounds, pickCell, type Rgb } from 'tilenav/render';
import type { ArtCanvas } from './art.js';

/**
 * Draws one grid layer. The cells live in an offscreen canvas ("base") that is only touched where
 * the grid changed; expanded nodes live in a second one; each frame just composites the two,
 * scaled, and strokes the path. Square grids use one pixel per cell (ImageData writes, fast on
 * 1024 x 1024); isometric and hexagonal grids draw each cell's outline in its projection.
 */
export class GridView {
  readonly grid: NavGrid;
  layer: number;
  /** Base pixels per world unit (polygon mode) or per cell (pixel mode). */
  private readonly k: number;
  private readonly pixelMode: boolean;
  private readonly originX: number;
  private readonly originY: number;
  private readonly base: HTMLCanvasElement;
  private readonly overlay: HTMLCanvasElement;
  private readonly baseCtx: CanvasRenderingContext2D;
  private readonly overlayCtx: CanvasRenderingContext2D;
  private baseImage: ImageData | null = null;
  private overlayImage: ImageData | null = null;
  private readonly poly = new Float64Array(12);
  /** Base pixels per world unit along x and y (pixel mode: one per cell). */
  private readonly kx: number;
  private readonly ky: number;
  /** The map's own tiles under the overlay, in world units, or null. */
  private art: ArtCanvas | null = null;
  private marks: Uint8Array | null = null;
  /** Screen = base * zoom + pan. */
  zoom = 1;
  panX = 0;
  panY = 0;
  /** Whether the cost overlay is drawn over the map's art, and how opaque (0..1). */
  overlayVisible = true;
  overlayOpacity = 0.25;
  /** Where the last right-click order sent the units (cell), drawn as a ring; null for none. */
  orderTarget: [number, number] | null = null;

  constructor(grid: NavGrid, layer: number) {
    this.grid = grid;
    this.layer = layer;
    this.pixelMode = grid.projection.spec.kind === 'orthogonal';
    const b = gridBounds(grid);
    if (this.pixelMode) {
      const spec = grid.projection.spec as { tileWidth: number; tileHeight: number; originX?: number; originY?: number };
      this.k = 1;
      this.originX = spec.originX ?? 0;
      this.originY = spec.originY ?? 0;
      this.kx = 1 / spec.tileWidth;
      this.ky = 1 / spec.tileHeight;
    } else {
      const long = Math.max(b.maxX - b.minX, b.maxY - b.minY);
      // Enough pixels that a cell stays crisp when zoomed to fit, few enough to redraw quickly.
      this.k = Math.min(2048, Math.max(600, long)) / long;
      this.originX = b.minX;
      this.originY = b.minY;
      this.kx = this.k;
      this.ky = this.k;
    }
    const w = this.pixelMode ? grid.width : Math.ceil((b.maxX - b.minX) * this.k);
    const h = this.pixelMode ? grid.height : Math.ceil((b.maxY - b.minY) * this.k);
    this.base = canvas(w, h);
    this.overlay = canvas(w, h);
    this.baseCtx = this.base.getContext('2d', { willReadFrequently: false })!;
    this.overlayCtx = this.overlay.getContext('2d')!;
    if (this.pixelMode) {
      this.baseImage = this.baseCtx.createImageData(w, h);
      this.overlayImage = this.overlayCtx.createImageData(w, h);
    }
    this.redrawCells({ x: 0, y: 0, width: grid.width, height: grid.height });
  }

  get baseWidth(): number {
    return this.base.width;
  }

  get baseHeight(): number {
    return this.base.height;
  }

  /** Puts the map's own tiles under the overlay (null: the overlay alone, opaque). */
  setArt(art: ArtCanvas | null): void {
    this.art = art;
  }

  get hasArt(): boolean {
    return this.art !== null;
  }

  /** The box (base pixels) the map and its art cover: x0, y0, x1, y1. */
  private extent(): [number, number, number, number] {
    const e: [number, number, number, number] = [0, 0, this.base.width, this.base.height];
    const a = this.art;
    if (a !== null) {
      const [x0, y0] = this.worldToBase(a.minX, a.minY);
      const [x1, y1] = this.worldToBase(a.minX + a.canvas.width / a.scale, a.minY + a.canvas.height / a.scale);
      e[0] = Math.min(e[0], x0);
      e[1] = Math.min(e[1], y0);
      e[2] = Math.max(e[2], x1);
      e[3] = Math.max(e[3], y1);
    }
    return e;
  }

  /** Zooms and centres the whole map (and its art) in a screen of w x h pixels, a small margin around. */
  fit(w: number, h: number): void {
    const [x0, y0, x1, y1] = this.extent();
    const m = 8;
    this.zoom = Math.min((w - 2 * m) / (x1 - x0), (h - 2 * m) / (y1 - y0));
    this.panX = (w - (x1 + x0) * this.zoom) / 2;
    this.panY = (h - (y1 + y0) * this.zoom) / 2;
  }

  /** The map's box on screen (pixels): x0, y0, x1, y1. */
  screenExtent(): [number, number, number, number] {
    const [x0, y0, x1, y1] = this.extent();
    return [x0 * this.zoom + this.panX, y0 * this.zoom + this.panY, x1 * this.zoom + this.panX, y1 * this.zoom + this.panY];
  }

  private worldToBase(x: number, y: number): [number, number] {
    return [(x - this.originX) * this.kx, (y - this.originY) * this.ky];
  }

  /** Recolours the cells of a rectangle (after a grid change) in the offscreen base. */
  redrawCells(r: CellRect): void {
    const layer = this.grid.layers[this.layer];
    const W = this.grid.width;
    if (this.pixelMode) {
      const img = this.baseImage!;
      const px = new Uint32Array(img.data.buffer);
      for (let y = r.y; y < r.y + r.height; y++) {
        for (let x = r.x, i = y * W + r.x; x < r.x + r.width; x++, i++) px[i] = abgr(cellColor(layer.walkable[i] === 1, layer.cost[i]), 255);
      }
      this.baseCtx.putImageData(img, 0, 0, r.x, r.y, r.width, r.height);
      return;
    }
    const ctx = this.baseCtx;
    for (let y = r.y; y < r.y + r.height; y++) {
      for (let x = r.x; x < r.x + r.width; x++) {
        const i = y * W + x;
        this.fillCell(ctx, x, y, css(cellColor(layer.walkable[i] === 1, layer.cost[i])));
      }
    }
  }

  /** Replaces the expanded-node overlay (1 expanded, 2 open, per cell), or clears it with null. */
  setExpanded(marks: Uint8Array | null): void {
    this.marks = marks;
    const ctx = this.overlayCtx;
    if (this.pixelMode) {
      const img = this.overlayImage!;
      const px = new Uint32Array(img.data.buffer);
      if (marks === null) px.fill(0);
      else {
        const closed = abgr(OVERLAY_COLORS.expanded, Math.round(EXPANDED_ALPHA * 255));
        const open = abgr(OVERLAY_COLORS.open, Math.round((EXPANDED_ALPHA / 2) * 255));
        for (let i = 0; i < marks.length; i++) px[i] = marks[i] === 0 ? 0 : marks[i] === 1 ? closed : open;
      }
      ctx.putImageData(img, 0, 0);
      return;
    }
    ctx.clearRect(0, 0, this.overlay.width, this.overlay.height);
    if (marks === null) return;
    const W = this.grid.width;
    for (let i = 0; i < marks.length; i++) {
      if (marks[i] === 0) continue;
      ctx.globalAlpha = marks[i] === 1 ? EXPANDED_ALPHA : EXPANDED_ALPHA / 2;
      this.fillCell(ctx, i % W, (i / W) | 0, css(marks[i] === 1 ? OVERLAY_COLORS.expanded : OVERLAY_COLORS.open));
    }
    ctx.globalAlpha = 1;
  }

  /**
   * Composites the map, the overlay, the path, the smoothed polyline (cell coordinates, drawn
   * thin over the path) and the markers onto the screen canvas.
   */
  draw(ctx: CanvasRenderingContext2D, path: Int32Array | null, start: number | null, goal: number | null, showExpanded: boolean, smoothed: Float64Array | null = null): void {
    const { canvas: c } = ctx;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = css(OVERLAY_COLORS.background);
    ctx.fillRect(0, 0, c.width, c.height);
    ctx.setTransform(this.zoom, 0, 0, this.zoom, this.panX, this.panY);
    ctx.imageSmoothingEnabled = false;
    const a = this.art;
    if (a !== null) {
      const [x0, y0] = this.worldToBase(a.minX, a.minY);
      ctx.drawImage(a.canvas, x0, y0, (a.canvas.width / a.scale) * this.kx, (a.canvas.height / a.scale) * this.ky);
    }
    const costAlpha = a === null ? 1 : this.overlayVisible ? this.overlayOpacity : 0;
    // Zoomed in on polygon cells, the offscreen picture would be magnified and blurred: the
    // cells in view are drawn as vectors instead, sharp at any zoom.
    const vector = !this.pixelMode && this.zoom > 1.25;
    // The search's marks keep their own strength, as the path does: at the cost colours' opacity
    // over a map's tiles (0.25 by default) they hardly showed, and not at all with the overlay off.
    if (vector) {
      if (costAlpha > 0 || showExpanded) this.drawCellsVector(ctx, costAlpha, showExpanded);
    } else {
      if (costAlpha > 0) {
        ctx.globalAlpha = costAlpha;
        ctx.drawImage(this.base, 0, 0);
        ctx.globalAlpha = 1;
      }
      if (showExpanded) ctx.drawImage(this.overlay, 0, 0);
    }
    ctx.globalAlpha = 1;
    const W = this.grid.width;
    const unit = this.cellSizeOnBase();
    if (path !== null && path.length > 1) {
      ctx.strokeStyle = css(OVERLAY_COLORS.path);
      ctx.lineWidth = Math.max(unit * 0.35, 2 / this.zoom);
      ctx.lineJoin = 'round';
      ctx.lineCap = 'round';
      ctx.beginPath();
      for (let k = 0; k < path.length; k++) {
        const [x, y] = this.cellCentre(path[k] % W, (path[k] / W) | 0);
        if (k === 0) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      }
      ctx.stroke();
    }
    if (smoothed !== null && smoothed.length >= 4) {
      ctx.strokeStyle = SMOOTHED_COLOR;
      ctx.lineWidth = Math.max(unit * 0.15, 1.5 / this.zoom);
      ctx.beginPath();
      this.tracePoints(ctx, smoothed);
      ctx.stroke();
    }
    const r = Math.max(unit * 0.45, 5 / this.zoom);
    for (const [cell, color] of [[start, OVERLAY_COLORS.start], [goal, OVERLAY_COLORS.goal]] as const) {
      if (cell === null) continue;
      const [x, y] = this.cellCentre(cell % W, (cell / W) | 0);
      ctx.fillStyle = css(color);
      ctx.strokeStyle = '#000';
      ctx.lineWidth = 1.5 / this.zoom;
      ctx.beginPath();
      ctx.arc(x, y, r, 0, Math.PI * 2);
      ctx.fill();
      ctx.stroke();
    }
    if (this.orderTarget !== null) {
      // A ring with a cross: where the units were sent, clear of the route's filled discs.
      const [x, y] = this.cellCentre(this.orderTarget[0], this.orderTarget[1]);
      ctx.strokeStyle = ORDER_COLOR;
      ctx.lineWidth = Math.max(r * 0.3, 2 / this.zoom);
      ctx.beginPath();
      ctx.arc(x, y, r * 1.1, 0, Math.PI * 2);
      ctx.moveTo(x - r * 1.6, y);
      ctx.lineTo(x - r * 0.5, y);
      ctx.moveTo(x + r * 0.5, y);
      ctx.lineTo(x + r * 1.6, y);
      ctx.moveTo(x, y - r * 1.6);
      ctx.lineTo(x, y - r * 0.5);
      ctx.moveTo(x, y + r * 0.5);
      ctx.lineTo(x, y + r * 1.6);
      ctx.stroke();
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
  }

  /**
   * Fills the cells in view as polygons, one path per colour: the cost colours at `alpha` (none at
   * 0), the expanded marks at their own strength.
   */
  private drawCellsVector(ctx: CanvasRenderingContext2D, alpha: number, showExpanded: boolean): void {
    const layer = this.grid.layers[this.layer];
    const W = this.grid.width;
    const c = ctx.canvas;
    const reach = this.cellSizeOnBase() * this.zoom * 2;
    const paths = new Map<string, Path2D>();
    const marks = showExpanded ? this.marks : null;
    const add = (key: string, x: number, y: number) => {
      let p = paths.get(key);
      if (p === undefined) paths.set(key, (p = new Path2D()));
      const n = cellOutline(this.grid.projection, x, y, this.poly);
      for (let k = 0; k < n; k++) {
        const px = (this.poly[2 * k] - this.originX) * this.k;
        const py = (this.poly[2 * k + 1] - this.originY) * this.k;
        if (k === 0) p.moveTo(px, py);
        else p.lineTo(px, py);
      }
      p.closePath();
    };
    for (let y = 0; y < this.grid.height; y++) {
      for (let x = 0; x < W; x++) {
        const [bx, by] = this.cellCentre(x, y);
        const sx = bx * this.zoom + this.panX;
        const sy = by * this.zoom + this.panY;
        if (sx < -reach || sy < -reach || sx > c.width + reach || sy > c.height + reach) continue;
        const i = y * W + x;
        if (alpha > 0) add(css(cellColor(layer.walkable[i] === 1, layer.cost[i])), x, y);
        if (marks !== null && marks[i] !== 0) add(marks[i] === 1 ? 'expanded' : 'open', x, y);
      }
    }
    // The marks go over every cost colour, whichever colour was met first in the scan.
    const order = [...paths].sort(([a], [b]) => Number(a === 'expanded' || a === 'open') - Number(b === 'expanded' || b === 'open'));
    for (const [key, p] of order) {
      const mark = key === 'expanded' || key === 'open';
      ctx.globalAlpha = key === 'expanded' ? EXPANDED_ALPHA : key === 'open' ? EXPANDED_ALPHA / 2 : alpha;
      ctx.fillStyle = mark ? css(key === 'expanded' ? OVERLAY_COLORS.expanded : OVERLAY_COLORS.open) : key;
      ctx.fill(p);
      if (!mark && alpha === 1) {
        // Same-colour hairlines close the antialiasing seams between neighbours (translucent,
        // they would draw the seams twice as strong instead).
        ctx.strokeStyle = key;
        ctx.lineWidth = 0.75 / this.zoom;
        ctx.stroke(p);
      }
    }
    ctx.globalAlpha = 1;
  }

  /**
   * Draws units over the last `draw`: their remaining routes faintly, then discs (selected ones
   * highlighted), batched into a few paths so a hundred units cost a handful of canvas calls.
   * `box` is a selection rectangle in screen pixels.
   */
  drawUnits(ctx: CanvasRenderingContext2D, u: UnitFrame, box: [number, number, number, number] | null): void {
    ctx.setTransform(this.zoom, 0, 0, this.zoom, this.panX, this.panY);
    const unit = this.pixelMode ? 1 : this.cellSizeOnBase() / 0.6;
    ctx.lineJoin = 'round';
    ctx.lineCap = 'round';
    ctx.strokeStyle = 'rgba(255,255,255,0.35)';
    ctx.lineWidth = Math.max(unit * 0.08, 1 / this.zoom);
    ctx.beginPath();
    for (const r of u.routes) if (r !== null) this.tracePoints(ctx, r);
    ctx.stroke();
    for (const sel of [0, 1]) {
      ctx.beginPath();
      for (let i = 0; i < u.count; i++) {
        if (u.selected[i] !== sel) continue;
        const [x, y] = this.cellCentre(u.x[i], u.y[i]);
        const r = Math.max(u.radius[i] * unit, 2 / this.zoom);
        ctx.moveTo(x + r, y);
        ctx.arc(x, y, r, 0, Math.PI * 2);
      }
      ctx.fillStyle = sel ? '#4cf' : '#e8e8f0';
      ctx.fill();
      ctx.strokeStyle = sel ? '#fff' : '#223';
      ctx.lineWidth = (sel ? 2 : 1) / this.zoom;
      ctx.stroke();
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    if (box !== null) {
      ctx.strokeStyle = '#4cf';
      ctx.lineWidth = 1;
      ctx.setLineDash([4, 3]);
      ctx.strokeRect(Math.min(box[0], box[2]) + 0.5, Math.min(box[1], box[3]) + 0.5, Math.abs(box[2] - box[0]), Math.abs(box[3] - box[1]));
      ctx.setLineDash([]);
    }
  }

  /** Adds a polyline through points [x0, y0, ...] (cell coordinates) to the current path. */
  private tracePoints(ctx: CanvasRenderingContext2D, pts: ArrayLike<number>): void {
    for (let k = 0; k + 1 < pts.length; k += 2) {
      const [x, y] = this.cellCentre(pts[k], pts[k + 1]);
      if (k === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
  }

  /** The centre of cell (x, y) in base pixels. */
  cellCentre(x: number, y: number): [number, number] {
    if (this.pixelMode) return [x + 0.5, y + 0.5];
    const w = this.grid.projection.cellToWorld(x, y);
    return [(w.x - this.originX) * this.k, (w.y - this.originY) * this.k];
  }

  /** The cell under a screen point, or null outside the grid. */
  cellAt(sx: number, sy: number): [number, number] | null {
    const bx = (sx - this.panX) / this.zoom;
    const by = (sy - this.panY) / this.zoom;
    let x: number;
    let y: number;
    if (this.pixelMode) {
      x = Math.floor(bx);
      y = Math.floor(by);
    } else {
      const c = pickCell(this.grid.projection, bx / this.k + this.originX, by / this.k + this.originY);
      x = c.x;
      y = c.y;
    }
    return this.grid.inBounds(x, y) ? [x, y] : null;
  }

  /** Screen pixels per cell (to size a unit's disc). */
  unitPixels(): number {
    return (this.pixelMode ? 1 : this.cellSizeOnBase() / 0.6) * this.zoom;
  }

  /** Screen position of a cell's centre, or of a unit at fractional cell coordinates. */
  cellToScreen(x: number, y: number): [number, number] {
    const [bx, by] = this.cellCentre(x, y);
    return [bx * this.zoom + this.panX, by * this.zoom + this.panY];
  }

  private cellSizeOnBase(): number {
    if (this.pixelMode) return 1;
    const n = cellOutline(this.grid.projection, 0, 0, this.poly);
    let minX = Infinity;
    let maxX = -Infinity;
    for (let k = 0; k < n; k++) {
      minX = Math.min(minX, this.poly[2 * k]);
      maxX = Math.max(maxX, this.poly[2 * k]);
    }
    return (maxX - minX) * this.k * 0.6;
  }

  private fillCell(ctx: CanvasRenderingContext2D, x: number, y: number, color: string): void {
    const p = this.poly;
    const n = cellOutline(this.grid.projection, x, y, p);
    ctx.fillStyle = color;
    ctx.beginPath();
    for (let k = 0; k < n; k++) {
      const px = (p[2 * k] - this.originX) * this.k;
      const py = (p[2 * k + 1] - this.originY) * this.k;
      if (k === 0) ctx.moveTo(px, py);
      else ctx.lineTo(px, py);
    }
    ctx.closePath();
    ctx.fill();
    // A hairline in the same colour closes the antialiasing seams between neighbours.
    ctx.strokeStyle = color;
    ctx.lineWidth = 0.75;
    ctx.stroke();
  }
}

/** The smoothed polyline's colour (over the path's). */
export const SMOOTHED_COLOR = '#ffa726';
/** The colour of the ring marking where the units were last sent. */
export const ORDER_COLOR = '#ffd54a';

function canvas(w: number, h: number): HTMLCanvasElement {
  const c = document.createElement('canvas');
  c.width = Math.max(1, w);
  c.height = Math.max(1, h);
  return c;
}

/** A colour as the little-endian 32-bit pixel ImageData stores. */
function abgr(c: Rgb, a: number): number {
  return ((a << 24) | (c[2] << 16) | (c[1] << 8) | c[0]) >>> 0;
}

function css(c: Rgb): string {
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}
