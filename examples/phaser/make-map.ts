/**
 * Writes examples/phaser/frontier.tmj, the Tiled JSON copy of examples/frontier.tmx that Phaser's
 * Tiled loader reads (it reads JSON only). Handles what that map uses: map properties, embedded
 * tilesets with one image and tile properties, CSV tile layers with properties and visibility.
 * Run: node --import tsx examples/phaser/make-map.ts [--check] (--check fails when the copy is stale).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';

const TMX = fileURLToPath(new URL('../frontier.tmx', import.meta.url));
const TMJ = fileURLToPath(new URL('./frontier.tmj', import.meta.url));

type Node = Record<string, unknown>;
const list = (v: unknown): Node[] => (v === undefined ? [] : Array.isArray(v) ? (v as Node[]) : [v as Node]);

function properties(node: Node): { name: string; type: string; value: unknown }[] {
  return list((node.properties as Node | undefined)?.property).map((p) => {
    const type = (p['@type'] as string | undefined) ?? 'string';
    const raw = String(p['@value'] ?? '');
    const value = type === 'bool' ? raw === 'true' : type === 'int' || type === 'float' ? Number(raw) : raw;
    return { name: String(p['@name']), type, value };
  });
}

/** The Tiled JSON text of a TMX map of the shape described above. */
export function tmxToTmj(text: string): string {
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseAttributeValue: false }).parse(text) as Node;
  const map = doc.map as Node;
  const num = (n: Node, k: string) => Number(n[`@${k}`]);
  const tilesets = list(map.tileset).map((t) => {
    const image = t.image as Node;
    return {
      firstgid: num(t, 'firstgid'), name: String(t['@name']), tilewidth: num(t, 'tilewidth'), tileheight: num(t, 'tileheight'), tilecount: num(t, 'tilecount'), columns: num(t, 'columns'),
      margin: 0, spacing: 0, image: String(image['@source']), imagewidth: num(image, 'width'), imageheight: num(image, 'height'),
      tiles: list(t.tile).map((tile) => ({ id: num(tile, 'id'), properties: properties(tile) })),
    };
  });
  const layers = list(map.layer).map((l) => {
    const data = l.data as Node;
    if (data['@encoding'] !== 'csv') throw new Error(`layer ${String(l['@name'])}: only CSV data is handled`);
    return {
      id: num(l, 'id'), name: String(l['@name']), type: 'tilelayer', x: 0, y: 0, width: num(l, 'width'), height: num(l, 'height'),
      opacity: 1, visible: l['@visible'] !== '0', properties: properties(l), data: String(data['#text']).trim().split(/\s*,\s*/).map(Number),
    };
  });
  const out = {
    type: 'map', version: '1.10', tiledversion: String(map['@tiledversion']), orientation: String(map['@orientation']), renderorder: String(map['@renderorder']),
    width: num(map, 'width'), height: num(map, 'height'), tilewidth: num(map, 'tilewidth'), tileheight: num(map, 'tileheight'), infinite: false,
    nextlayerid: num(map, 'nextlayerid'), nextobjectid: num(map, 'nextobjectid'), properties: properties(map), tilesets, layers,
  };
  return JSON.stringify(out) + '\n';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const json = tmxToTmj(readFileSync(TMX, 'utf8'));
  if (process.argv.includes('--check')) {
    if (readFileSync(TMJ, 'utf8') !== json) {
      console.error('examples/phaser/frontier.tmj is stale: run node --import tsx examples/phaser/make-map.ts');
      process.exit(1);
    }
  } else writeFileSync(TMJ, json);
}
