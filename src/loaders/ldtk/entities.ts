/**
 * LDtk entity instances and custom fields, placed on the navigation grid's cells: a door's cells,
 * a spawn's cell, a path of points, references to other entities. Internal to the LDtk loader.
 */
import { fail, quote, warn, type Ctx } from '../tiled/model.js';
import { got, int, list, MAX_INT, named, object, pair, str } from './read.js';

/** A cell of a grid: a `Point` field's value, moved onto the navigation grid. */
export interface LdtkCell {
  /** Column, from the left. */
  x: number;
  /** Row, from the top. */
  y: number;
}

/** An `EntityRef` field's value: the entity it names, and where that one lives. */
export interface LdtkEntityRef {
  /** The iid of the entity named (a key of `project.entities`). */
  entityIid: string;
  /** The iid of its entity layer. */
  layerIid: string;
  /** The iid of its level. */
  levelIid: string;
  /** The iid of its world. */
  worldIid: string;
}

/** A `Tile` field's value: a rectangle of a tileset, in the tileset's pixels. */
export interface LdtkTileRect {
  /** The tileset's uid (as in `project.tilesets`). */
  tilesetUid: number;
  /** Left edge, in the tileset image's pixels. */
  x: number;
  /** Top edge, in the tileset image's pixels. */
  y: number;
  /** Width in pixels. */
  w: number;
  /** Height in pixels. */
  h: number;
}

/**
 * A field's value by its type: `Int` and `Float` numbers, `Bool` booleans, `String`, `Multilines`,
 * `Color` (`#rrggbb`), `FilePath` and enum values text, `Point` an {@link LdtkCell} of the
 * navigation grid, `EntityRef` an {@link LdtkEntityRef}, `Tile` an {@link LdtkTileRect}; null when
 * unset; an `Array<...>` type a list of them. A type this reader does not know keeps the JSON value.
 */
export type LdtkFieldValue = null | boolean | number | string | LdtkCell | LdtkEntityRef | LdtkTileRect | readonly LdtkFieldValue[];

/** One custom field: LDtk's type name (`Int`, `LocalEnum.Item`, `Array<Point>`, ...) and its value. */
export interface LdtkField {
  /** LDtk's type name. */
  readonly type: string;
  /** The value, typed as {@link LdtkFieldValue} says. */
  readonly value: LdtkFieldValue;
}

/** A cell rectangle: `width` x `height` cells from (x, y). */
export interface LdtkCellRect {
  /** Left column. */
  x: number;
  /** Top row. */
  y: number;
  /** Columns covered. */
  width: number;
  /** Rows covered. */
  height: number;
}

/** An entity instance placed on its level's navigation grid (or, in a world's list, on the world's). */
export interface LdtkEntity {
  /** The entity definition's identifier (`Door`, `Player`). */
  name: string;
  /** LDtk's unique instance id; `EntityRef` fields name entities by it. */
  iid: string;
  /** The level it is in (its identifier). */
  level: string;
  /** Its entity layer's identifier. */
  layer: string;
  /** The column of its pivot point's cell. */
  x: number;
  /** The row of its pivot point's cell. */
  y: number;
  /** The cells its box covers (at least one). */
  cells: LdtkCellRect;
  /** Its pivot point in pixels (the level's, with the layer's offset; a world's entities: the world's). */
  px: {
    /** Pixels from the left. */
    x: number;
    /** Pixels from the top. */
    y: number;
  };
  /** Its box's width in pixels. */
  width: number;
  /** Its box's height in pixels. */
  height: number;
  /** Where the pivot sits in its box, 0 to 1 on each axis. */
  pivot: {
    /** 0 the left edge, 1 the right. */
    x: number;
    /** 0 the top edge, 1 the bottom. */
    y: number;
  };
  /** The tags of its definition. */
  tags: readonly string[];
  /** Its custom fields by identifier. A Map, so no field name can reach an object prototype. */
  fields: ReadonlyMap<string, LdtkField>;
}

/** How a grid's cells lie under a layer's: pixels per nav cell, and the layer's grid size and offset. */
export interface Placement {
  cellSize: number;
  gridSize: number;
  offsetX: number;
  offsetY: number;
}

function cellOfPoint(p: Placement, cx: number, cy: number): LdtkCell {
  const g = p.gridSize;
  return { x: Math.floor((p.offsetX + cx * g + g / 2) / p.cellSize), y: Math.floor((p.offsetY + cy * g + g / 2) / p.cellSize) };
}

const SIMPLE: Readonly<Record<string, 'number' | 'int' | 'boolean' | 'string'>> = { Int: 'int', Float: 'number', Bool: 'boolean', String: 'string', Multilines: 'string', Color: 'string', FilePath: 'string' };

/** A field's value checked against its type; Points moved onto the navigation grid. */
function fieldValue(ctx: Ctx, element: string, type: string, v: unknown, p: Placement, depth = 0): LdtkFieldValue {
  const arr = /^Array<(.*)>$/.exec(type);
  if (arr !== null && depth === 0) {
    if (v === null) return [];
    if (!Array.isArray(v)) fail(ctx, element, `a field of type ${quote(type, 60)} holds a list, got ${got(v)}`);
    return v.map((item, k) => fieldValue(ctx, `${element}[${k}]`, arr[1], item, p, 1));
  }
  if (v === null) return null;
  const simple = Object.hasOwn(SIMPLE, type) ? SIMPLE[type] : /^(Local|Extern)Enum\./.test(type) ? 'string' : undefined;
  if (simple !== undefined) {
    const ok = simple === 'int' ? typeof v === 'number' && Number.isInteger(v) : simple === 'number' ? typeof v === 'number' && Number.isFinite(v) : typeof v === simple;
    if (!ok) fail(ctx, element, `a field of type ${quote(type, 60)} holds ${simple === 'int' ? 'a whole number' : simple === 'number' ? 'a number' : simple === 'boolean' ? 'true or false' : 'text'}, got ${got(v)}`);
    return v as number | string | boolean;
  }
  if (type === 'Point') {
    const o = object(ctx, element, v, 'a point { "cx", "cy" }');
    return cellOfPoint(p, int(ctx, element, o, 'cx', -MAX_INT - 1, MAX_INT), int(ctx, element, o, 'cy', -MAX_INT - 1, MAX_INT));
  }
  if (type === 'EntityRef') {
    const o = object(ctx, element, v, 'an entity reference { "entityIid", ... }');
    return { entityIid: str(ctx, element, o, 'entityIid'), layerIid: str(ctx, element, o, 'layerIid', ''), levelIid: str(ctx, element, o, 'levelIid', ''), worldIid: str(ctx, element, o, 'worldIid', '') };
  }
  if (type === 'Tile') {
    const o = object(ctx, element, v, 'a tileset rectangle { "tilesetUid", "x", "y", "w", "h" }');
    return { tilesetUid: int(ctx, element, o, 'tilesetUid', -MAX_INT, MAX_INT), x: int(ctx, element, o, 'x', 0, MAX_INT), y: int(ctx, element, o, 'y', 0, MAX_INT), w: int(ctx, element, o, 'w', 0, MAX_INT), h: int(ctx, element, o, 'h', 0, MAX_INT) };
  }
  warn(ctx, `${element}: the field type ${quote(type, 60)} is not one this reader knows; its value is kept as read`);
  return v as LdtkFieldValue;
}

/** A list of field instances as a Map by identifier. */
export function readFields(ctx: Ctx, element: string, raw: unknown, p: Placement): Map<string, LdtkField> {
  if (raw !== null && raw !== undefined && !Array.isArray(raw)) fail(ctx, element, `"fieldInstances" must be a list, got ${got(raw)}`);
  const out = new Map<string, LdtkField>();
  ((raw ?? []) as unknown[]).forEach((f, k) => {
    const fo = object(ctx, `${element} fieldInstances[${k}]`, f, 'a field');
    const fel = `${element} ${named('field', fo, '__identifier', k)}`;
    const name = str(ctx, fel, fo, '__identifier');
    const type = str(ctx, fel, fo, '__type');
    out.set(name, { type, value: fieldValue(ctx, fel, type, Object.hasOwn(fo, '__value') ? fo.__value : null, p) });
  });
  return out;
}

/** The entity instances of one entity layer. */
export function readEntities(ctx: Ctx, element: string, raw: unknown[], level: string, layer: string, p: Placement): LdtkEntity[] {
  const cs = p.cellSize;
  return raw.map((e, k) => {
    const eo = object(ctx, `${element} entityInstances[${k}]`, e, 'an entity instance');
    const el = `${element} ${named('entity', eo, '__identifier', k)}`;
    const [px, py] = pair(ctx, el, eo, 'px');
    const [pvx, pvy] = pair(ctx, el, eo, '__pivot', false, [0, 0]);
    const width = int(ctx, el, eo, 'width', 0, MAX_INT, 0);
    const height = int(ctx, el, eo, 'height', 0, MAX_INT, 0);
    const tags = list(ctx, el, eo, '__tags').map((t) => {
      if (typeof t !== 'string') fail(ctx, el, `"__tags" must hold text, got ${got(t)}`);
      return t;
    });
    const x = px + p.offsetX;
    const y = py + p.offsetY;
    const left = x - pvx * width;
    const top = y - pvy * height;
    const cx0 = Math.floor(left / cs);
    const cy0 = Math.floor(top / cs);
    return {
      name: str(ctx, el, eo, '__identifier'),
      iid: str(ctx, el, eo, 'iid', ''),
      level,
      layer,
      x: Math.floor(x / cs),
      y: Math.floor(y / cs),
      cells: { x: cx0, y: cy0, width: Math.max(1, Math.ceil((left + width) / cs) - cx0), height: Math.max(1, Math.ceil((top + height) / cs) - cy0) },
      px: { x, y },
      width,
      height,
      pivot: { x: pvx, y: pvy },
      tags,
      fields: readFields(ctx, el, Object.hasOwn(eo, 'fieldInstances') ? eo.fieldInstances : [], p),
    };
  });
}

/** Point values moved by (dx, dy) cells; every other value as it is. */
function shiftValue(type: string, v: LdtkFieldValue, dx: number, dy: number): LdtkFieldValue {
  if (v === null) return v;
  if (type === 'Point') return { x: (v as LdtkCell).x + dx, y: (v as LdtkCell).y + dy };
  if (type === 'Array<Point>') return (v as LdtkFieldValue[]).map((c) => shiftValue('Point', c, dx, dy));
  return v;
}

/** An entity as a world's list holds it: cells moved by (dx, dy), pixels by (pdx, pdy). */
export function shiftEntity(e: LdtkEntity, dx: number, dy: number, pdx: number, pdy: number): LdtkEntity {
  const fields = new Map<string, LdtkField>();
  for (const [k, f] of e.fields) fields.set(k, f.type === 'Point' || f.type === 'Array<Point>' ? { type: f.type, value: shiftValue(f.type, f.value, dx, dy) } : f);
  return { ...e, x: e.x + dx, y: e.y + dy, cells: { ...e.cells, x: e.cells.x + dx, y: e.cells.y + dy }, px: { x: e.px.x + pdx, y: e.px.y + pdy }, fields };
}

