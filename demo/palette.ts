/**
 * The "Tiles" panel: collision rules for a Tiled map picked on the page. It lists the map's
 * tilesets drawn from their images (the tiles the map uses first, with their cell counts) and its
 * layers; a click sets the chosen rule on a tile or a layer, and the map is read again with the
 * rules so the grid and the path follow at once. The rules are saved as a .rules.json file, read
 * back from one, or written into the tilesets' own files as the tile properties Tiled keeps.
 */
import { TilenavError, type NavGrid } from 'tilenav';
import { GID_MASK, applyRulesToTileset, checkTiledRules, formatTiledRules, type TiledMap, type TiledRule, type TiledRules, type TiledTilesetInfo } from 'tilenav/loaders';
import type { DemoArt } from './art.js';
import { option } from './panel.js';

/** A Tiled map the panel can read again with rules, and the tileset files it came with. */
export interface TiledSource {
  /** The map's path (names the saved files). */
  file: string;
  /** The map as first read, without rules. */
  map: TiledMap;
  /** Reads the map again with `rules` (synchronously: every file it needs was read already). */
  load(rules: TiledRules): TiledMap;
  /** An external tileset's text by its resolved path, or null when it was not picked. */
  tilesetText(path: string): Promise<string | null>;
}

/** What the panel needs from the page. */
export interface PaletteHost {
  /** After the grid changed under a rule: statistics and the like. */
  changed(): void;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
/** Marker colours per kind of rule, in the tile lists and the sheet. */
const RULE_COLOR = { blocked: '#ff5a5a', bridge: '#5ad17a', terrain: '#5aa8ff', cost: '#ffc94a' } as const;

/** A rule in a few words: "blocked", "bridge", "Water", "cost 2.5", joined. */
export function ruleLabel(r: TiledRule | undefined): string {
  if (r === undefined) return '';
  const parts: string[] = [];
  if (r.walkable === false) parts.push('blocked');
  if (r.walkable === true) parts.push('bridge');
  if (r.terrain !== undefined) parts.push(r.terrain);
  if (r.cost !== undefined) parts.push(`cost ${r.cost}`);
  return parts.join(', ');
}

function ruleColor(r: TiledRule): string {
  if (r.walkable === false) return RULE_COLOR.blocked;
  if (r.walkable === true) return RULE_COLOR.bridge;
  return r.terrain !== undefined ? RULE_COLOR.terrain : RULE_COLOR.cost;
}

/** How the loader's warnings about a map where nothing blocks begin: without rules, and with rules that block nothing. */
const NO_RULES_WARNING = 'no layer or tile of this map says which tiles block';
const NOTHING_BLOCKS_WARNING = 'nothing blocks: the rules';

/**
 * A loader warning in the page's words, with what to do about it here. The warning that nothing
 * blocks points at the palette; others (a rules file naming a tileset the map lacks) are kept.
 */
export function plainWarning(w: string): string {
  if (w.startsWith(NO_RULES_WARNING)) {
    return 'No layer or tile of this map says which tiles block, so every cell is walkable. Fix: choose "Blocked" below and click the blocking tiles (water, walls) in the palette, or give those tiles a bool property `collides` set to true in Tiled.';
  }
  if (w.startsWith(NOTHING_BLOCKS_WARNING)) return 'Nothing blocks: the rules block no cell of this map, so every cell is walkable. Fix: choose "Blocked" and click the tiles that should block; a rules file must name the map\'s tilesets by their Tiled names.';
  return w;
}

/**
 * Whether the loader's warnings say the map has no collision rules (nothing of it blocks): the
 * Tiles panel opens for such a map, and stays folded for one that says which tiles block.
 */
export function asksForRules(warnings: readonly string[]): boolean {
  return warnings.some((w) => w.startsWith(NO_RULES_WARNING) || w.startsWith(NOTHING_BLOCKS_WARNING));
}

/** Starts a download of `text` as a file named `name`. */
function download(name: string, text: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * A sheet tileset's columns and tile count: as the file says, or (an old file that leaves them
 * out) from the decoded image's size, as Tiled does; zeros without either.
 */
function sheetGrid(ts: TiledTilesetInfo, img: ImageBitmap | undefined): { columns: number; count: number } {
  if (ts.columns > 0 && ts.tileCount > 0) return { columns: ts.columns, count: ts.tileCount };
  const w = img?.width ?? ts.image?.width ?? 0;
  const h = img?.height ?? ts.image?.height ?? 0;
  const columns = ts.columns > 0 ? ts.columns : Math.max(0, Math.floor((w - 2 * ts.margin + ts.spacing) / (ts.tileWidth + ts.spacing)));
  const rows = Math.max(0, Math.floor((h - 2 * ts.margin + ts.spacing) / (ts.tileHeight + ts.spacing)));
  return { columns, count: ts.tileCount > 0 ? ts.tileCount : columns * rows };
}

const baseName = (p: string) => p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);

export class TilePalette {
  readonly root = $<HTMLDetailsElement>('tiles');
  private readonly ruleSelect = $<HTMLSelectElement>('rule');
  private readonly costInput = $<HTMLInputElement>('rule-cost');
  private readonly costRow = $<HTMLLabelElement>('rule-cost-row');
  private readonly warnings = $<HTMLDivElement>('tiles-warnings');
  private readonly message = $<HTMLDivElement>('tiles-message');
  private readonly sets = $<HTMLDivElement>('palette');
  private readonly layerList = $<HTMLDivElement>('tiles-layers');
  private readonly rulesFile = $<HTMLInputElement>('rules-file');
  private source: TiledSource | null = null;
  private grid: NavGrid | null = null;
  private art: DemoArt | null = null;
  /** The rules picked so far, as a rules file holds them. */
  rules: TiledRules = { version: 1, tilesets: {}, layers: {} };

  constructor(private readonly host: PaletteHost) {
    this.ruleSelect.addEventListener('change', () => (this.costRow.hidden = this.ruleSelect.value !== 'cost'));
    $('save-rules').addEventListener('click', () => this.save());
    $('load-rules').addEventListener('click', () => this.rulesFile.click());
    $('export-tilesets').addEventListener('click', () => void this.exportTilesets());
    this.rulesFile.addEventListener('change', () => {
      const f = this.rulesFile.files?.[0];
      this.rulesFile.value = '';
      if (f !== undefined) void f.text().then((t) => this.loadRules(t, f.name));
    });
    this.sets.addEventListener('click', (e) => this.paletteClick(e));
    this.layerList.addEventListener('click', (e) => {
      const b = (e.target as HTMLElement).closest<HTMLButtonElement>('button[data-layer]');
      if (b !== null) this.setLayerRule(b.dataset.layer!);
    });
  }

  /**
   * Shows the panel for a Tiled map (`source` null hides it); `grid` is the grid on screen, which
   * rules rewrite. The panel opens when the map says nothing about which tiles block, and is
   * folded (its title alone) when it does.
   */
  show(source: TiledSource | null, grid: NavGrid): void {
    this.source = source;
    this.grid = grid;
    this.art = null;
    this.rules = { version: 1, tilesets: {}, layers: {} };
    this.root.hidden = source === null;
    this.message.textContent = '';
    if (source === null) return;
    this.root.open = asksForRules(source.map.warnings);
    this.ruleSelect.replaceChildren();
    option(this.ruleSelect, 'blocked', 'Blocked');
    option(this.ruleSelect, 'bridge', 'Bridge (walkable over what is below)');
    for (const t of grid.terrain.entries()) option(this.ruleSelect, `terrain:${t.name}`, t.walkable ? `Terrain ${t.name} (cost ${t.cost})` : `Terrain ${t.name} (impassable)`);
    option(this.ruleSelect, 'cost', 'Cost (a number)');
    option(this.ruleSelect, 'clear', "Clear (the map's own)");
    this.costRow.hidden = true;
    this.showWarnings(source.map.warnings);
    this.buildSets();
    this.buildLayers();
  }

  /** The shown map's tilesets (empty when it is not a Tiled map). */
  get tilesets(): TiledTilesetInfo[] {
    return this.source?.map.tilesets ?? [];
  }

  /** The map's images are decoded: the tiles are drawn from them. */
  setArt(art: DemoArt): void {
    this.art = art;
    this.drawTiles();
  }

  /** A sheet tileset's decoded image, once the art is read. */
  private imageOf(ts: TiledTilesetInfo): ImageBitmap | undefined {
    return ts.image === null ? undefined : this.art?.images.get(ts.image.source);
  }

  /** The rule the picker stands for, undefined for "clear", or null (with a message) for a bad cost. */
  private chosen(): TiledRule | undefined | null {
    const v = this.ruleSelect.value;
    if (v === 'blocked') return { walkable: false };
    if (v === 'bridge') return { walkable: true };
    if (v.startsWith('terrain:')) return { terrain: v.slice(8) };
    if (v === 'cost') {
      const c = Number(this.costInput.value);
      if (this.costInput.value.trim() === '' || !(c > 0 && c < 3.4e38)) {
        this.message.textContent = `Cost ${JSON.stringify(this.costInput.value)} cannot be used: give a number above 0 (plain ground costs 1).`;
        return null;
      }
      return { cost: c };
    }
    return undefined;
  }

  /** Sets (or clears) the chosen rule on tile `id` of tileset `name` and reads the map again. */
  setTileRule(name: string, id: number): void {
    const rule = this.chosen();
    if (rule === null) return;
    const next = structuredClone(this.rules);
    const tiles = (next.tilesets![name] ??= {});
    if (rule === undefined) delete tiles[String(id)];
    else tiles[String(id)] = rule;
    if (Object.keys(tiles).length === 0) delete next.tilesets![name];
    if (this.apply(next)) this.message.textContent = rule === undefined ? `${name} tile ${id}: rule cleared.` : `${name} tile ${id}: ${ruleLabel(rule)}.`;
  }

  /** Sets (or clears) the chosen rule on a layer (or group) by name. */
  setLayerRule(name: string): void {
    const rule = this.chosen();
    if (rule === null) return;
    const info = this.source?.map.properties.layers.find((l) => l.name === name);
    if (rule !== undefined && info?.type === 'object' && rule.walkable !== false) {
      this.message.textContent = `${name} is an object layer: only "Blocked" applies to it (its shapes block).`;
      return;
    }
    const next = structuredClone(this.rules);
    if (rule === undefined) delete next.layers![name];
    else next.layers![name] = rule;
    if (this.apply(next)) this.message.textContent = rule === undefined ? `Layer ${name}: rule cleared.` : `Layer ${name}: ${ruleLabel(rule)}.`;
  }

  /**
   * The tile drawn on top at grid cell (x, y) (visible layers first, the topmost one with a tile
   * there): its tileset and local id, or null for an empty cell or before the art is read.
   */
  tileAt(x: number, y: number): { tileset: string; id: number } | null {
    const a = this.art;
    const map = this.source?.map;
    if (a === null || a.art === null || map === undefined) return null;
    const tx = x + a.offset.x;
    const ty = y + a.offset.y;
    const layers = [...a.art.layers].reverse();
    for (const pass of [true, false]) {
      for (const l of layers) {
        if (l.visible !== pass) continue;
        for (const b of l.blocks) {
          if (tx < b.x || ty < b.y || tx >= b.x + b.width || ty >= b.y + b.height) continue;
          const gid = b.gids[(ty - b.y) * b.width + (tx - b.x)] & GID_MASK;
          if (gid === 0) continue;
          let best: TiledTilesetInfo | null = null;
          for (const ts of map.tilesets) if (ts.firstgid <= gid && (best === null || ts.firstgid > best.firstgid)) best = ts;
          if (best !== null) return { tileset: best.name, id: gid - best.firstgid };
        }
      }
    }
    return null;
  }

  /** The tile under the cursor in words, with its rule: "Under the cursor: beach_tileset tile 148 (blocked)." */
  describeAt(x: number, y: number): string {
    const t = this.tileAt(x, y);
    if (t === null) return `Under the cursor (${x}, ${y}): no tile.`;
    const r = ruleLabel(this.rules.tilesets?.[t.tileset]?.[String(t.id)]);
    return `Under the cursor (${x}, ${y}): ${t.tileset} tile ${t.id}${r === '' ? '' : ` (${r})`}.`;
  }

  /**
   * A map click with the "tile rule" tool: the chosen rule on the tile under the cursor. Returns
   * the panel's message about it (the page shows it beside the click too).
   */
  ruleAtCell(x: number, y: number): string {
    const t = this.tileAt(x, y);
    if (t === null) this.message.textContent = `(${x}, ${y}) shows no tile (or the tiles are not read yet).`;
    else this.setTileRule(t.tileset, t.id);
    return this.message.textContent ?? '';
  }

  /** Reads rules from a file's text: checked, then applied whole in place of the current ones. */
  loadRules(text: string, file: string): void {
    try {
      checkTiledRules(text, file);
      const parsed = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as TiledRules;
      if (this.apply({ version: 1, tilesets: parsed.tilesets ?? {}, layers: parsed.layers ?? {} }, file)) this.message.textContent = `Rules read from ${file}.`;
    } catch (e) {
      this.message.textContent = e instanceof TilenavError ? e.message : String(e);
    }
  }

  /**
   * Reads the map again with `next` and copies the new grid into the one on screen (same size and
   * layers: the map did not change), which emits the change the view and the search follow. A
   * rule the loader refuses leaves the rules as they were and says why.
   */
  private apply(next: TiledRules, file = 'the rules picked here'): boolean {
    const src = this.source;
    const grid = this.grid;
    if (src === null || grid === null) return false;
    let m: TiledMap;
    try {
      m = src.load(next);
    } catch (e) {
      this.message.textContent = e instanceof TilenavError ? e.message.replace('<rules>', file) : String(e);
      return false;
    }
    if (m.grid.width !== grid.width || m.grid.height !== grid.height || m.grid.layers.length !== grid.layers.length) {
      this.message.textContent = 'The map read again does not match the one shown; pick it again.';
      return false;
    }
    this.rules = next;
    grid.layers.forEach((l, k) => {
      const n = m.grid.layers[k];
      l.walkable.set(n.walkable);
      l.cost.set(n.cost);
      l.flags.set(n.flags);
      l.terrain.set(n.terrain);
      grid.refresh(k);
    });
    this.showWarnings(m.warnings);
    this.drawTiles();
    this.buildLayers();
    this.host.changed();
    return true;
  }

  private showWarnings(list: string[]): void {
    this.warnings.replaceChildren(...list.map((w) => Object.assign(document.createElement('div'), { textContent: plainWarning(w) })));
  }

  /** The rules as a .rules.json file, downloaded. */
  save(): void {
    const src = this.source;
    if (src === null) return;
    download(baseName(src.file).replace(/\.\w+$/, '') + '.rules.json', formatTiledRules(this.rules));
    this.message.textContent = 'Rules saved (downloaded).';
  }

  /**
   * Each external tileset with tile rules, written with them as tile properties, downloaded under
   * its own name. A tileset inside the map is named instead: the map would have to be rewritten.
   */
  async exportTilesets(): Promise<void> {
    const src = this.source;
    if (src === null) return;
    const notes: string[] = [];
    for (const ts of src.map.tilesets) {
      if (Object.keys(this.rules.tilesets?.[ts.name] ?? {}).length === 0) continue;
      if (ts.file === src.file) {
        notes.push(`${ts.name} is inside the map, not a file of its own: save the rules instead, or set the tile properties in Tiled`);
        continue;
      }
      const text = await src.tilesetText(ts.file);
      if (text === null) {
        notes.push(`${baseName(ts.file)} was not picked`);
        continue;
      }
      try {
        download(baseName(ts.file), applyRulesToTileset(text, ts.name, this.rules, { file: ts.file }), 'application/xml');
        notes.push(`${baseName(ts.file)} written (downloaded)`);
      } catch (e) {
        notes.push(e instanceof Error ? e.message : String(e));
      }
    }
    this.message.textContent = notes.length === 0 ? 'No tile has a rule yet: nothing to write.' : notes.join('\n');
  }

  private paletteClick(e: MouseEvent): void {
    const t = e.target as HTMLElement;
    const b = t.closest<HTMLElement>('[data-ts][data-id]');
    if (b !== null) {
      this.setTileRule(b.dataset.ts!, Number(b.dataset.id));
      return;
    }
    if (t instanceof HTMLCanvasElement && t.dataset.sheet !== undefined) {
      const ts = this.source?.map.tilesets.find((s) => s.name === t.dataset.sheet);
      if (ts === undefined) return;
      const r = t.getBoundingClientRect();
      const px = ((e.clientX - r.left) / r.width) * t.width;
      const py = ((e.clientY - r.top) / r.height) * t.height;
      const col = Math.floor((px - ts.margin) / (ts.tileWidth + ts.spacing));
      const row = Math.floor((py - ts.margin) / (ts.tileHeight + ts.spacing));
      const { columns, count } = sheetGrid(ts, this.imageOf(ts));
      const id = row * columns + col;
      if (col >= 0 && col < columns && row >= 0 && id < count) this.setTileRule(ts.name, id);
    }
  }

  /** One block per tileset: its used tiles (most cells first, with counts), then its whole sheet. */
  private buildSets(): void {
    const map = this.source!.map;
    this.sets.replaceChildren();
    for (const ts of map.tilesets) {
      const box = document.createElement('div');
      box.className = 'tileset';
      const used = [...ts.used].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
      const title = document.createElement('div');
      title.className = 'hint';
      title.textContent = `${ts.name}: ${used.length}${ts.tileCount > 0 ? ` of ${ts.tileCount}` : ''} tiles used, most cells first`;
      const list = document.createElement('div');
      list.className = 'tiles';
      for (const [id, n] of used) {
        const b = document.createElement('button');
        b.className = 'tile';
        b.dataset.ts = ts.name;
        b.dataset.id = String(id);
        b.title = `${ts.name} tile ${id}: ${n} cell${n === 1 ? '' : 's'}`;
        const c = Object.assign(document.createElement('canvas'), { width: ts.tileWidth || 1, height: ts.tileHeight || 1 });
        const count = Object.assign(document.createElement('small'), { textContent: n >= 10_000 ? `${Math.round(n / 1000)}k` : String(n) });
        b.append(c, count);
        list.append(b);
      }
      box.append(title, list);
      if (ts.image !== null) {
        const all = document.createElement('details');
        const sum = Object.assign(document.createElement('summary'), { textContent: `All ${ts.tileCount > 0 ? ts.tileCount : 'its'} tiles (unused ones dimmed)` });
        const sheet = Object.assign(document.createElement('canvas'), { width: ts.image.width || 1, height: ts.image.height || 1 });
        sheet.dataset.sheet = ts.name;
        sheet.className = 'sheet';
        all.append(sum, sheet);
        box.append(all);
      }
      this.sets.append(box);
    }
    this.drawTiles();
  }

  /** Draws each listed tile from its image and marks the tiles that have a rule. */
  private drawTiles(): void {
    const map = this.source?.map;
    if (map === undefined) return;
    for (const ts of map.tilesets) {
      const img = this.imageOf(ts);
      const { columns, count } = sheetGrid(ts, img);
      const rules = this.rules.tilesets?.[ts.name] ?? {};
      const artSet = this.art?.art?.tilesets.find((t) => t.firstgid === ts.firstgid);
      const src = (id: number) => [ts.margin + (id % columns) * (ts.tileWidth + ts.spacing), ts.margin + Math.floor(id / columns) * (ts.tileHeight + ts.spacing)];
      for (const b of this.sets.querySelectorAll<HTMLButtonElement>(`button.tile[data-ts="${CSS.escape(ts.name)}"]`)) {
        const id = Number(b.dataset.id);
        const c = b.querySelector('canvas')!;
        const g = c.getContext('2d')!;
        g.clearRect(0, 0, c.width, c.height);
        // A tile with its own image (an image collection) or sub-rectangle, else its place on the sheet.
        const own = artSet?.tiles.get(id);
        const ownImg = own === undefined ? undefined : this.art?.images.get(own.image.path);
        if (own !== undefined && ownImg !== undefined) g.drawImage(ownImg, own.x, own.y, own.width || ownImg.width, own.height || ownImg.height, 0, 0, c.width, c.height);
        else if (img !== undefined && columns > 0) g.drawImage(img, ...(src(id) as [number, number]), ts.tileWidth, ts.tileHeight, 0, 0, c.width, c.height);
        else {
          g.fillStyle = '#ccc';
          g.font = `${Math.max(6, c.height >> 1)}px sans-serif`;
          g.fillText(String(id), 1, c.height - 2);
        }
        const r = rules[String(id)];
        b.dataset.rule = ruleLabel(r);
        b.style.borderColor = r === undefined ? '' : ruleColor(r);
        b.title = b.title.replace(/ \(rule: .*\)$/, '') + (r === undefined ? '' : ` (rule: ${ruleLabel(r)})`);
      }
      const sheet = this.sets.querySelector<HTMLCanvasElement>(`canvas.sheet[data-sheet="${CSS.escape(ts.name)}"]`);
      if (sheet === null) continue;
      if (img !== undefined && (sheet.width !== img.width || sheet.height !== img.height)) Object.assign(sheet, { width: img.width, height: img.height });
      const g = sheet.getContext('2d')!;
      g.clearRect(0, 0, sheet.width, sheet.height);
      if (img !== undefined) g.drawImage(img, 0, 0);
      for (let id = 0; id < count; id++) {
        const [x, y] = src(id);
        const r = rules[String(id)];
        if (!ts.used.has(id)) {
          g.fillStyle = 'rgba(20,22,26,0.6)';
          g.fillRect(x, y, ts.tileWidth, ts.tileHeight);
        }
        if (r !== undefined) {
          g.strokeStyle = ruleColor(r);
          g.lineWidth = 2;
          g.strokeRect(x + 1, y + 1, ts.tileWidth - 2, ts.tileHeight - 2);
        }
      }
    }
  }

  /** The map's layers and groups, each a button that takes the chosen rule, with its rule beside it. */
  private buildLayers(): void {
    const layers = this.source?.map.properties.layers ?? [];
    this.layerList.replaceChildren();
    for (const l of layers) {
      if (l.type === 'image') continue;
      const row = document.createElement('div');
      const b = Object.assign(document.createElement('button'), { textContent: l.name || '(no name)', title: `${l.type} layer ${l.path}` });
      b.dataset.layer = l.name;
      const r = this.rules.layers?.[l.name];
      const what = Object.assign(document.createElement('b'), { textContent: r === undefined ? `${l.type} layer` : ruleLabel(r) });
      if (r !== undefined) what.style.color = ruleColor(r);
      row.append(b, what);
      this.layerList.append(row);
    }
  }
}

/** Where a palette tile's button is on the page (its centre), for the e2e tests' real clicks. */
export function tileButtonCentre(tileset: string, id: number): { x: number; y: number } | null {
  const b = document.querySelector<HTMLElement>(`#palette button.tile[data-ts="${CSS.escape(tileset)}"][data-id="${id}"]`);
  if (b === null) return null;
  b.scrollIntoView({ block: 'nearest' });
  const r = b.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}
