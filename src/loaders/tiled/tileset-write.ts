/**
 * Writing tile rules into a tileset file (`.tsx` XML or `.tsj` JSON) as the tile properties the
 * loader reads, so the rules can live in Tiled. XML is edited as text, leaving every other byte as
 * it was; the result is read back to check it says what the rules say.
 */
import { TilenavError } from '../../errors.js';
import { quote, type Ctx, type RawTileset } from './model.js';
import { readTsj } from './json.js';
import { readTsx } from './xml.js';
import { checkTiledRules, ruleProperties, type TiledRule, type TiledRules } from './rules.js';

/** Options of {@link applyRulesToTileset}. */
export interface ApplyRulesOptions {
  /** The tileset's file name, for errors and to tell XML from JSON. @default '<tileset>' (then the first character decides) */
  file?: string;
  /** The rules' file name, for errors. @default '<rules>' */
  rulesFile?: string;
}

function isXml(file: string, text: string): boolean {
  if (/\.(tsx|xml)$/i.test(file)) return true;
  if (/\.(tsj|json)$/i.test(file)) return false;
  return text.trimStart().startsWith('<');
}

/**
 * The tileset text with `rules.tilesets[tilesetName]` written into its tiles: `walkable: false` as
 * the bool `collides` true, `walkable: true` as the bool `walkable` true, `terrain` as the string
 * `terrainType`, `cost` as the float `cost` (each replacing a property of that name; other
 * properties, tiles and bytes are kept). Tiles the file does not list yet are added. Layer rules
 * belong to a map, not a tileset, and are not written. Throws a TilenavError naming the tileset
 * file when it is not a tileset or its name is not `tilesetName`, or naming the rules file for
 * rules that do not check (see checkTiledRules).
 */
export function applyRulesToTileset(tilesetText: string, tilesetName: string, rules: TiledRules | string, options: ApplyRulesOptions = {}): string {
  const file = options.file ?? '<tileset>';
  const checked = checkTiledRules(rules, options.rulesFile ?? '<rules>');
  const text = tilesetText.charCodeAt(0) === 0xfeff ? tilesetText.slice(1) : tilesetText;
  const xml = isXml(file, text);
  const ctx: Ctx = { file, warnings: [] };
  const read = (t: string): RawTileset => (xml ? readTsx(ctx, t, 1) : readTsj(ctx, t, 1));
  const before = read(text);
  if (before.name !== tilesetName) throw new TilenavError(`the tileset is named ${quote(before.name, 80)}, not ${quote(tilesetName, 80)}`, { file });
  const tiles = checked.tilesets.get(tilesetName);
  if (tiles === undefined || tiles.size === 0) return tilesetText;
  const out = xml ? writeXml(text, tiles) : writeJson(text, tiles);
  // The written file must read back with every rule's properties: a check on the text editing.
  const after = read(out);
  for (const [id, rule] of tiles) {
    const props = after.tiles.find((t) => t.id === id)?.properties;
    for (const p of ruleProperties(rule)) {
      const got = props?.get(p.name);
      if (got?.type !== p.type || got.value !== p.value) throw new TilenavError(`tile ${id}: the written property ${quote(p.name, 40)} did not read back (the file's layout is not one this writer knows)`, { file });
    }
  }
  return out;
}

function writeJson(text: string, rules: Map<number, TiledRule>): string {
  const root = JSON.parse(text) as Record<string, unknown>;
  const tiles = Array.isArray(root.tiles) ? (root.tiles as Record<string, unknown>[]) : [];
  for (const [id, rule] of rules) {
    let tile = tiles.find((t) => t !== null && typeof t === 'object' && t.id === id);
    if (tile === undefined) {
      tile = { id };
      tiles.push(tile);
    }
    const props = Array.isArray(tile.properties) ? (tile.properties as { name: string }[]) : [];
    for (const p of ruleProperties(rule)) {
      const k = props.findIndex((q) => q !== null && typeof q === 'object' && q.name === p.name);
      if (k >= 0) props[k] = p;
      else props.push(p);
    }
    tile.properties = props;
  }
  tiles.sort((a, b) => (a.id as number) - (b.id as number));
  root.tiles = tiles;
  return JSON.stringify(root, null, 1) + '\n';
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** One tag of an XML text: its name, where it starts and ends, and its kind. */
interface Tag {
  name: string;
  start: number;
  end: number;
  kind: 'open' | 'close' | 'empty';
  attrs: string;
}

/** The element tags of an XML text, skipping comments, CDATA, declarations and processing instructions. */
function tags(text: string): Tag[] {
  const out: Tag[] = [];
  const re = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<[?!][^>]*>|<(\/?)([A-Za-z_][\w.:-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[2] === undefined) continue;
    out.push({ name: m[2], start: m.index, end: m.index + m[0].length, kind: m[1] === '/' ? 'close' : m[4] === '/' ? 'empty' : 'open', attrs: m[3] });
  }
  return out;
}

const attr = (attrs: string, name: string) => new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attrs)?.slice(1).find((v) => v !== undefined);

/** The index of the tag closing `tags[k]` (an open tag). */
function closing(list: Tag[], k: number): number {
  let depth = 0;
  for (let j = k; j < list.length; j++) {
    if (list[j].kind === 'open') depth++;
    else if (list[j].kind === 'close' && --depth === 0) return j;
  }
  return list.length - 1;
}

function propertyXml(p: { name: string; type: string; value: boolean | string | number }): string {
  return `<property name="${p.name}" type="${p.type}" value="${escapeAttr(String(p.value))}"/>`;
}

/** A tile's `<properties>` element, indented as Tiled writes it. */
function propertiesXml(props: { name: string; type: string; value: boolean | string | number }[]): string {
  return `<properties>\n${props.map((p) => `   ${propertyXml(p)}\n`).join('')}  </properties>`;
}

/** Writes each tile's properties, one edit at a time from the end of the file back, so earlier offsets stay valid. */
function writeXml(text: string, rules: Map<number, TiledRule>): string {
  const all = tags(text);
  const root = all.findIndex((t) => t.name === 'tileset' && t.kind === 'open');
  const rootEnd = closing(all, root);
  // The tileset's direct children: tiles by id, and where a new tile goes.
  const children: number[] = [];
  for (let k = root + 1; k < rootEnd; k = all[k].kind === 'open' ? closing(all, k) + 1 : k + 1) children.push(k);
  const tileAt = new Map<number, number>();
  for (const k of children) if (all[k].name === 'tile') tileAt.set(Number(attr(all[k].attrs, 'id')), k);
  const edits: { at: number; cut: number; text: string }[] = [];
  const newTiles: number[] = [];
  for (const [id, rule] of rules) {
    const props = ruleProperties(rule);
    const k = tileAt.get(id);
    if (k === undefined) {
      newTiles.push(id);
      continue;
    }
    const tag = all[k];
    if (tag.kind === 'empty') {
      const open = text.slice(tag.start, tag.end).replace(/\s*\/>$/, '>');
      edits.push({ at: tag.start, cut: tag.end - tag.start, text: `${open}\n  ${propertiesXml(props)}\n </tile>` });
      continue;
    }
    const end = closing(all, k);
    let pk = -1;
    for (let j = k + 1; j < end; j = all[j].kind === 'open' ? closing(all, j) + 1 : j + 1) if (all[j].name === 'properties') pk = j;
    if (pk < 0) {
      edits.push({ at: tag.end, cut: 0, text: `\n  ${propertiesXml(props)}` });
      continue;
    }
    if (all[pk].kind === 'empty') {
      edits.push({ at: all[pk].start, cut: all[pk].end - all[pk].start, text: `${propertiesXml(props)}` });
      continue;
    }
    const pend = closing(all, pk);
    const have = new Map<string, number>();
    for (let j = pk + 1; j < pend; j = all[j].kind === 'open' ? closing(all, j) + 1 : j + 1) if (all[j].name === 'property') have.set(attr(all[j].attrs, 'name') ?? '', j);
    const added: string[] = [];
    for (const p of props) {
      const j = have.get(p.name);
      if (j === undefined) added.push(`   ${propertyXml(p)}\n`);
      else edits.push({ at: all[j].start, cut: (all[j].kind === 'open' ? all[closing(all, j)].end : all[j].end) - all[j].start, text: propertyXml(p) });
    }
    if (added.length > 0) {
      const lineStart = text.lastIndexOf('\n', all[pend].start) + 1;
      const at = /^\s*$/.test(text.slice(lineStart, all[pend].start)) ? lineStart : all[pend].start;
      edits.push({ at, cut: 0, text: added.join('') });
    }
  }
  if (newTiles.length > 0) {
    newTiles.sort((a, b) => a - b);
    // Tiled lists tiles by id, after the tileset's image and properties and before its wang sets.
    const lastTile = children.filter((k) => all[k].name === 'tile').pop();
    const wang = children.find((k) => all[k].name === 'wangsets' || all[k].name === 'transformations');
    const after = lastTile !== undefined ? all[all[lastTile].kind === 'open' ? closing(all, lastTile) : lastTile].end : undefined;
    const at = after ?? (wang !== undefined ? text.lastIndexOf('\n', all[wang].start) : text.lastIndexOf('\n', all[rootEnd].start));
    const body = newTiles.map((id) => `\n <tile id="${id}">\n  ${propertiesXml(ruleProperties(rules.get(id)!))}\n </tile>`).join('');
    edits.push({ at: at < 0 ? all[rootEnd].start : at, cut: 0, text: body });
  }
  edits.sort((a, b) => b.at - a.at);
  let out = text;
  for (const e of edits) out = out.slice(0, e.at) + e.text + out.slice(e.at + e.cut);
  return out;
}
