/**
 * Object templates (`.tx` / `.tj`): an object naming a template takes every field it leaves out
 * from the template's object, so template-based collision shapes count like drawn ones.
 */
import { fail, givenFields, GID_MASK, quote, warn, type Ctx, type RawLayer, type RawMap, type RawObject, type RawTemplate, type RawTileset, type TiledProperty } from './model.js';

/** What applying templates needs from the loader: paths resolved its way, each file read once. */
export interface TemplateSource {
  resolve(element: string, from: string, source: string, what: string): string;
  /** The template, or null (after a warning) when it cannot be read for want of a reader. */
  template(element: string, source: string): { path: string; template: RawTemplate } | null;
}

/** Calls `fn` for every object in the map's object layers (groups included) that names a template. */
export function forEachTemplated(layers: readonly RawLayer[], fn: (o: RawObject, element: string, index: number, list: RawObject[]) => void): void {
  for (const l of layers) {
    if (l.kind === 'group') forEachTemplated(l.layers, fn);
    else if (l.kind === 'object') l.objects.forEach((o, k) => o.template !== '' && fn(o, `${l.element} object ${o.id || `[${k}]`}`, k, l.objects));
  }
}

/** Replaces every templated object of the map's layers with its merge over its template. */
export function applyTemplates(ctx: Ctx, raw: RawMap, sets: readonly RawTileset[], refs: TemplateSource): void {
  // The map's external tilesets by resolved path, to move a template's tile gid into the map's numbering.
  let firstgids: Map<string, number> | null = null;
  forEachTemplated(raw.layers, (o, element, k, list) => {
    const found = refs.template(element, o.template);
    if (found === null) return;
    const { path, template } = found;
    let gid = template.object.gid;
    if (gid !== 0 && template.tileset !== null) {
      if (firstgids === null) {
        firstgids = new Map();
        raw.tilesets.forEach((ref, i) => {
          if (ref.source !== null) firstgids!.set(refs.resolve(ref.element, ctx.file, ref.source, 'tileset'), sets[i].firstgid);
        });
      }
      const tsPath = refs.resolve(element, path, template.tileset.source, 'tileset');
      const first = firstgids.get(tsPath);
      const local = (gid & GID_MASK) - template.tileset.firstgid;
      if (first === undefined || local < 0) warn(ctx, `${ctx.file}: ${element}: its template's tileset ${quote(template.tileset.source, 80)} is not one of the map's; the tile's own properties are not looked up`);
      else gid = ((gid & ~GID_MASK) | (first + local)) >>> 0;
    }
    list[k] = merge(ctx, element, o, template.object, gid);
  });
}

function merge(ctx: Ctx, element: string, inst: RawObject, tpl: RawObject, gid: number): RawObject {
  const given = givenFields.get(inst);
  if (given === undefined) fail(ctx, element, 'internal: a templated object lost its given fields');
  const properties = new Map<string, TiledProperty>(tpl.properties);
  for (const [k, v] of inst.properties) properties.set(k, v);
  const out: RawObject = { ...tpl, gid, id: inst.id, template: inst.template, properties };
  const from = inst as unknown as Record<string, unknown>;
  const to = out as unknown as Record<string, unknown>;
  for (const key of given) {
    to[key] = from[key];
    if (key === 'shape') out.points = inst.points;
  }
  return out;
}
