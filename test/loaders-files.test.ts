/**
 * Map files on disk: the one bounded reader the CLI and loadTiled share, tileset and template
 * paths resolved relative to the map (and refused when they escape it), each referenced file read
 * once per load.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TilenavError } from '../src/index.js';
import { parseTiled, parseTiledAsync } from '../src/loaders/index.js';
import { loadTiled, readFileBounded, readFileBoundedSync } from '../src/loaders/node.js';
import { runCli } from './helpers-cli.js';

const run = runCli;

const dir = () => mkdtempSync(join(tmpdir(), 'tilenav-files-'));

/** A one-tile-layer TMX naming `tileset` as its external tileset. */
const mapWith = (tileset: string, w = 2, h = 1) =>
  `<map orientation="orthogonal" width="${w}" height="${h}" tilewidth="8" tileheight="8"><tileset firstgid="1" source="${tileset}"/><layer name="a" width="${w}" height="${h}"><data encoding="csv">${Array(w * h).fill(0).join(',')}</data></layer></map>`;
const TSX = '<tileset name="t" tilewidth="8" tileheight="8" tilecount="1"><tile id="0"><properties><property name="collides" type="bool" value="true"/></properties></tile></tileset>';

// ---- special files

test('the CLI refuses /dev/zero at once instead of reading it', async () => {
  const t0 = performance.now();
  const r = await run('info', '/dev/zero', '--format', 'movingai');
  assert.notEqual(r.code, 0);
  assert.match(r.err.join(' '), /\/dev\/zero: is a character device; expected a regular file/);
  assert.ok(performance.now() - t0 < 2000);
});

test('a FIFO is refused without blocking, as a map and as a tileset', async () => {
  const d = dir();
  const fifo = join(d, 'pipe.tsx');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
  assert.throws(() => readFileBoundedSync(fifo), /pipe\.tsx: is a FIFO/);
  await assert.rejects(readFileBounded(fifo), /pipe\.tsx: is a FIFO/);
  writeFileSync(join(d, 'm.tmx'), mapWith('pipe.tsx'));
  const r = await run('info', join(d, 'm.tmx'));
  assert.notEqual(r.code, 0);
  assert.match(r.err.join(' '), /pipe\.tsx: is a FIFO \(named pipe\); expected a regular file/);
  await assert.rejects(loadTiled(join(d, 'm.tmx')), /pipe\.tsx: is a FIFO/);
});

test('files over maxFileBytes are refused before they are read; a NaN limit is refused', async () => {
  const d = dir();
  const p = join(d, 'big.map');
  writeFileSync(p, 'x'.repeat(1000));
  assert.throws(() => readFileBoundedSync(p, { maxFileBytes: 999 }), (e: unknown) => e instanceof TilenavError && /big\.map: the file is 1000 bytes, over the 999-byte limit \(maxFileBytes\)/.test(e.message));
  assert.equal(readFileBoundedSync(p, { maxFileBytes: 1000 }).length, 1000);
  await assert.rejects(readFileBounded(p, { maxFileBytes: 10 }), /over the 10-byte limit/);
  assert.throws(() => readFileBoundedSync(p, { maxFileBytes: NaN }), /maxFileBytes: expected a number >= 0/);
  assert.throws(() => readFileBoundedSync(d), /is a directory/);
  assert.throws(() => readFileBoundedSync(join(d, 'missing')), /missing: cannot read the file \(ENOENT: no such file or directory\)/);
});

test('loadTiled reads the map and its tileset through the bounded reader', async () => {
  const d = dir();
  writeFileSync(join(d, 't.tsx'), TSX);
  writeFileSync(join(d, 'm.tmx'), mapWith('t.tsx').replace('0,0', '1,0'));
  const m = await loadTiled(join(d, 'm.tmx'));
  assert.equal(m.grid.isWalkable(0, 0), false);
  assert.equal(m.grid.isWalkable(1, 0), true);
  await assert.rejects(loadTiled(join(d, 'm.tmx'), { maxFileBytes: 100 }), /m\.tmx: the file is \d+ bytes, over the 100-byte limit/);
});

// ---- paths that escape the map

test('absolute tileset paths, file: URLs and paths above the root are refused unless allowed', async () => {
  const read = (p: string) => {
    throw new Error(`must not be read: ${p}`);
  };
  for (const source of ['/etc/passwd', 'file:///etc/passwd', 'C:\\\\Windows\\\\win.ini', 'https://example.com/t.tsx', '\\\\server\\share\\t.tsx']) {
    assert.throws(() => parseTiled(mapWith(source), { file: '/maps/m.tmx', readFile: read }), (e: unknown) => e instanceof TilenavError && /is absolute or a URL; only paths relative to the map are read \(set allowAbsolutePaths/.test(e.message), source);
  }
  assert.throws(() => parseTiled(mapWith('../../../../etc/passwd'), { file: '/maps/m.tmx', readFile: read }), /climbs above the filesystem root/);
  await assert.rejects(parseTiledAsync(mapWith('/etc/passwd'), { file: '/maps/m.tmx', readFile: read }), /is absolute or a URL/);
  // Allowed on purpose, an absolute path reaches readFile unchanged.
  const seen: string[] = [];
  parseTiled(mapWith('/abs/t.tsx'), { file: '/maps/m.tmx', allowAbsolutePaths: true, readFile: (p) => (seen.push(p), TSX) });
  assert.deepEqual(seen, ['/abs/t.tsx']);
  // Relative paths resolve against the map's folder, `..` included.
  parseTiled(mapWith('../sets/t.tsx'), { file: '/maps/a/m.tmx', readFile: (p) => (seen.push(p), TSX) });
  assert.equal(seen[1], '/maps/sets/t.tsx');
});

test('a tileset that is not a tileset is reported by its path, never by its contents', () => {
  const d = dir();
  mkdirSync(join(d, 'maps'));
  writeFileSync(join(d, 'secret.txt'), 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1');
  writeFileSync(join(d, 'maps', 'm.tmx'), mapWith('../secret.txt'));
  writeFileSync(join(d, 'secret.tsx'), '<tileset name="root:x:0:0"><tile></tileset>');
  writeFileSync(join(d, 'maps', 'm2.tmx'), mapWith('../secret.tsx'));
  for (const map of ['m.tmx', 'm2.tmx']) {
    let message = '';
    try {
      parseTiled(readFileBoundedSync(join(d, 'maps', map)), { file: join(d, 'maps', map), readFile: (p) => readFileBoundedSync(p) });
    } catch (e) {
      assert.ok(e instanceof TilenavError);
      message = e.message;
    }
    assert.match(message, /secret\.(txt|tsx)/);
    assert.doesNotMatch(message, /root|daemon|bash/);
    assert.doesNotMatch(message, /\n/);
  }
});

// ---- each referenced file once

test('5,000 references to one 400 KB tileset read and parse it once', () => {
  const tiles: string[] = [];
  for (let i = 0; i < 10; i++) tiles.push(`<tile id="${i}"><properties><property name="collides" type="bool" value="${i === 0}"/></properties></tile>`);
  const tsx = `<tileset name="big" tilewidth="8" tileheight="8" tilecount="10"><properties><property name="notes" value="${'n'.repeat(400_000)}"/></properties>${tiles.join('')}</tileset>`;
  const refs: string[] = [];
  for (let k = 0; k < 5000; k++) refs.push(`<tileset firstgid="${1 + 10 * k}" source="big.tsx"/>`);
  const tmx = `<map orientation="orthogonal" width="2" height="1" tilewidth="8" tileheight="8">${refs.join('')}<layer name="a" width="2" height="1"><data encoding="csv">1,${1 + 10 * 4999}</data></layer></map>`;
  let reads = 0;
  const t0 = performance.now();
  const m = parseTiled(tmx, { file: 'm.tmx', readFile: () => (reads++, tsx) });
  assert.ok(performance.now() - t0 < 10000, `took ${Math.round(performance.now() - t0)} ms`);
  assert.equal(reads, 1);
  assert.equal(m.grid.isWalkable(0, 0), false);
  assert.equal(m.grid.isWalkable(1, 0), false);
});

test('parseTiledAsync reads each referenced file once too', async () => {
  const refs = [1, 2, 3].map((k) => `<tileset firstgid="${k}" source="t.tsx"/>`).join('');
  const tmx = `<map orientation="orthogonal" width="1" height="1" tilewidth="8" tileheight="8">${refs}<layer name="a" width="1" height="1"><data encoding="csv">3</data></layer></map>`;
  let reads = 0;
  const m = await parseTiledAsync(tmx, { file: 'm.tmx', readFile: async () => (reads++, TSX) });
  assert.equal(reads, 1);
  assert.equal(m.grid.isWalkable(0, 0), false);
});

test('the CLI names the file for errors found below the loaders (a .tnav with a layer name twice)', async () => {
  const { NavGrid } = await import('../src/index.js');
  const { formatBinaryGrid } = await import('../src/grid/binary.js');
  const bytes = new Uint8Array(formatBinaryGrid(new NavGrid(2, 2, { layers: ['aa', 'bb'] })));
  const text = Buffer.from(bytes).toString('latin1');
  const at = text.indexOf('"bb"');
  assert.ok(at > 0);
  bytes.set(Buffer.from('"aa"', 'latin1'), at);
  const d = dir();
  writeFileSync(join(d, 'dup.tnav'), bytes);
  const r = await run('info', join(d, 'dup.tnav'));
  assert.notEqual(r.code, 0);
  assert.match(r.err.join(' '), /dup\.tnav: layers: layer name "aa" appears twice/);
});

test('a map read from a URL resolves its tilesets within that URL', async () => {
  const { resolveTiledPath } = await import('../src/loaders/index.js');
  assert.equal(resolveTiledPath('https://host/maps/m.tmx', '../sets/t.tsx'), 'https://host/sets/t.tsx');
  assert.equal(resolveTiledPath('https://host/m.tmx', '../../x.tsx'), 'https://host/x.tsx');
  assert.equal(resolveTiledPath('https://host', 't.tsx'), 'https://host/t.tsx');
  assert.equal(resolveTiledPath('maps/level1.tmx', '../tilesets/a.tsx'), 'tilesets/a.tsx');
  const seen: string[] = [];
  await parseTiledAsync(mapWith('t.tsx'), { file: 'https://host/maps/m.tmx', readFile: async (p) => (seen.push(p), TSX) });
  assert.deepEqual(seen, ['https://host/maps/t.tsx']);
});
