/**
 * Tile layer data: CSV, base64 (raw, zlib, gzip, zstd) and JSON arrays into gids. Pure JavaScript
 * (no Node Buffer), bounded allocations: a layer's size is known before its data is decoded, so no
 * decoder ever writes past width x height x 4 bytes, whatever the compressed stream claims.
 */
import { Gunzip, Unzlib } from 'fflate';
import { Decompress as ZstdDecompress } from 'fzstd';
import { fail, type Ctx, type DecodeLimits } from './model.js';

/** The largest decompressed size a layer may reach unless `maxDecompressedBytes` says otherwise: 256 MiB. */
export const DEFAULT_MAX_DECOMPRESSED_BYTES = 256 * 1024 * 1024;

const B64 = new Int16Array(256).fill(-1);
for (let i = 0; i < 64; i++) B64['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(i)] = i;

/** Decodes base64, skipping whitespace; any other character outside the alphabet is an error. */
export function decodeBase64(ctx: Ctx, element: string, text: string): Uint8Array {
  const n = text.length;
  const out = new Uint8Array(Math.floor((n * 3) / 4) + 3);
  let acc = 0;
  let bits = 0;
  let o = 0;
  let pad = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9) continue;
    if (c === 61) {
      pad++;
      continue;
    }
    const v = c < 256 ? B64[c] : -1;
    if (v < 0 || pad > 0) {
      fail(ctx, element, pad > 0 ? 'invalid base64: data after the "=" padding' : `invalid base64: unexpected character ${JSON.stringify(text[i])} at offset ${i}`);
    }
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  // 6 leftover bits can never complete a byte: the text was cut mid-group.
  if (bits >= 6 || pad > 2) fail(ctx, element, 'invalid base64: the text ends mid-group (truncated?)');
  return out.subarray(0, o);
}

/** Decompresses to exactly `expected` bytes, or throws naming what went wrong. */
export function decompress(ctx: Ctx, element: string, compression: string, bytes: Uint8Array, expected: number, limits: DecodeLimits): Uint8Array {
  if (compression === '') return bytes;
  if (limits.used + expected > limits.maxDecompressedBytes) {
    fail(ctx, element, `decompressing this layer would bring the map to ${limits.used + expected} bytes, over maxDecompressedBytes ${limits.maxDecompressedBytes}`);
  }
  limits.used += expected;
  // One byte of slack: a stream that fills it is longer than the layer, and is refused as such.
  const out = new Uint8Array(expected + 1);
  let got: Uint8Array;
  try {
    // A deflate byte inflates to at most 1032 bytes; a zstd byte, through RLE blocks, to ~32 KiB.
    const budget = limits.maxDecompressedBytes;
    if (compression === 'zlib') got = stream((ondata) => new Unzlib(ondata), bytes, out, 1032, 256, budget);
    else if (compression === 'gzip') got = stream((ondata) => new Gunzip(ondata), bytes, out, 1032, 256, budget);
    else if (compression === 'zstd') {
      checkZstdFrames(ctx, element, bytes, expected, Math.min(budget, Math.max(16 * expected, 8 << 20)));
      got = stream((ondata) => new ZstdDecompress(ondata), bytes, out, 32768, 64, budget);
    }
    else fail(ctx, element, `unknown compression ${JSON.stringify(compression)}; expected zlib, gzip or zstd (or none)`);
  } catch (e) {
    if (e instanceof Error && e.name === 'TilenavError') throw e;
    fail(ctx, element, `corrupt ${compression} data (${(e as Error)?.message ?? String(e)})`);
  }
  if (got.length !== expected) {
    fail(ctx, element, `${compression} data decompresses to ${got.length > expected ? 'more than ' + expected : got.length} bytes; the layer size needs exactly ${expected}`);
  }
  return got;
}

/**
 * Inflates slice by slice into `out`, stopping as soon as the output would pass its end, so a
 * bomb costs little more work than the layer's own size. (One-shot decoders either allocate
 * what the header claims, or, given a buffer, keep inflating into nothing and cannot say how much
 * there was.)
 */
function stream(make: (ondata: (chunk: Uint8Array, final?: boolean) => void) => { push(chunk: Uint8Array, final?: boolean): void }, bytes: Uint8Array, out: Uint8Array, maxRatio: number, minSlice: number, budget: number): Uint8Array {
  let n = 0;
  let over = false;
  let done = false;
  const d = make((chunk, final) => {
    if (n + chunk.length > out.length) {
      over = true;
      throw new RangeError('stream longer than the layer');
    }
    out.set(chunk, n);
    n += chunk.length;
    if (final) done = true;
  });
  try {
    if (bytes.length === 0) d.push(bytes, true);
    // A slice, even at the format's worst ratio, inflates to at most 16 x what is left of the layer
    // (and never past maxDecompressedBytes): large slices while the layer is empty, which keeps
    // the decoder fast, small ones near its end, so a bomb stops within a few KiB of input.
    for (let i = 0; i < bytes.length; ) {
      const slice = Math.max(minSlice, Math.floor(Math.min(16 * (out.length - n), budget) / maxRatio));
      d.push(bytes.subarray(i, Math.min(bytes.length, i + slice)), i + slice >= bytes.length);
      i += slice;
    }
  } catch (e) {
    if (!over) throw e;
    return out;
  }
  if (!done) throw new Error('the stream ends early (truncated?)');
  return out.subarray(0, n);
}

/**
 * Walks the zstd frames (headers and block sizes only, nothing decoded) before fzstd sees them:
 * fzstd allocates each frame's window as its header declares, up to 2 GiB, so a forged header
 * would be a bomb of its own. A frame declaring more content than the layer needs is refused too.
 */
function checkZstdFrames(ctx: Ctx, element: string, b: Uint8Array, expected: number, maxWindow: number): void {
  const u32 = (p: number) => (b[p] | (b[p + 1] << 8) | (b[p + 2] << 16) | (b[p + 3] << 24)) >>> 0;
  const corrupt = (why: string): never => fail(ctx, element, `corrupt zstd data (${why})`);
  let p = 0;
  while (p < b.length) {
    if (p + 4 > b.length) corrupt('truncated frame');
    const magic = u32(p);
    if ((magic & 0xfffffff0) >>> 0 === 0x184d2a50) {
      if (p + 8 > b.length) corrupt('truncated skippable frame');
      p += 8 + u32(p + 4);
      continue;
    }
    if (magic !== 0xfd2fb528) corrupt('not a zstd frame');
    if (p + 6 > b.length) corrupt('truncated frame header');
    const fhd = b[p + 4];
    const single = (fhd >> 5) & 1;
    const fcf = fhd >> 6;
    let q = p + 5;
    let window = 0;
    if (!single) {
      const wd = b[q++];
      const base = 2 ** (10 + (wd >> 3));
      window = base + (base / 8) * (wd & 7);
    }
    q += [0, 1, 2, 4][fhd & 3];
    const fsb = fcf ? 1 << fcf : single;
    let size = 0;
    for (let k = fsb - 1; k >= 0; k--) size = size * 256 + (b[q + k] ?? 0);
    if (fsb === 2) size += 256;
    q += fsb;
    if (fsb > 0 && size > expected) fail(ctx, element, `zstd data decompresses to more than ${expected} bytes (its frame declares ${size}); the layer size needs exactly ${expected}`);
    if ((single ? size : window) > maxWindow) fail(ctx, element, `zstd frame asks for a ${single ? size : window}-byte window, over the ${maxWindow} bytes this layer may use`);
    for (;;) {
      if (q + 3 > b.length) corrupt('truncated block');
      const h = b[q] | (b[q + 1] << 8) | (b[q + 2] << 16);
      const type = (h >> 1) & 3;
      if (type === 3) corrupt('reserved block type');
      q += 3 + (type === 1 ? 1 : h >>> 3);
      if (h & 1) break;
    }
    p = q + (((fhd >> 2) & 1) === 1 ? 4 : 0);
  }
}

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Little-endian 32-bit gids from bytes (length already checked to be count x 4). */
export function bytesToGids(bytes: Uint8Array, count: number): Uint32Array {
  if (littleEndian && bytes.byteOffset % 4 === 0) return new Uint32Array(bytes.buffer, bytes.byteOffset, count).slice();
  const out = new Uint32Array(count);
  for (let i = 0, b = 0; i < count; i++, b += 4) out[i] = (bytes[b] | (bytes[b + 1] << 8) | (bytes[b + 2] << 16) | (bytes[b + 3] << 24)) >>> 0;
  return out;
}

/** Comma-separated gids (whitespace anywhere), exactly `count` of them. */
export function decodeCsv(ctx: Ctx, element: string, text: string, count: number): Uint32Array {
  const out = new Uint32Array(count);
  let k = 0;
  let v = 0;
  let digits = 0;
  const n = text.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 44;
    if (c >= 48 && c <= 57) {
      v = v * 10 + (c - 48);
      digits++;
      if (v > 0xffffffff) fail(ctx, element, `CSV value ${k + 1} is larger than a 32-bit gid`);
      continue;
    }
    if (c === 44) {
      if (digits === 0) {
        // A trailing comma at the very end is tolerated; an empty field elsewhere is not.
        if (i === n || text.slice(i + 1).trim() === '') break;
        fail(ctx, element, `CSV value ${k + 1} is empty`);
      }
      if (k >= count) fail(ctx, element, `CSV has more than the ${count} values the layer size needs`);
      out[k++] = v;
      v = 0;
      digits = 0;
      continue;
    }
    if (c === 32 || c === 10 || c === 13 || c === 9) {
      if (digits > 0) {
        // Whitespace ends a number only before a comma or the end.
        let j = i + 1;
        while (j < n && isSpace(text.charCodeAt(j))) j++;
        if (j < n && text.charCodeAt(j) !== 44) fail(ctx, element, `CSV value ${k + 1}: expected a comma after ${v}`);
        // The run is all whitespace: skip it, so a long run is read once, not once per character.
        i = j - 1;
      }
      continue;
    }
    fail(ctx, element, `CSV value ${k + 1}: unexpected character ${JSON.stringify(text[i])}`);
  }
  if (k !== count) fail(ctx, element, `CSV has ${k} values; the layer size needs ${count}`);
  return out;
}

const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/** A JSON array of gids, exactly `count` of them. */
export function decodeArray(ctx: Ctx, element: string, data: unknown[], count: number): Uint32Array {
  if (data.length !== count) fail(ctx, element, `data has ${data.length} values; the layer size needs ${count}`);
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const v = data[i];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffff) fail(ctx, element, `data[${i}] must be a gid (a whole number 0..4294967295), got ${JSON.stringify(v)}`);
    out[i] = v;
  }
  return out;
}

/** Decodes one base64 payload (any compression) into `count` gids. */
export function decodeBase64Gids(ctx: Ctx, element: string, text: string, compression: string, count: number, limits: DecodeLimits): Uint32Array {
  const raw = decodeBase64(ctx, element, text);
  const bytes = decompress(ctx, element, compression, raw, count * 4, limits);
  if (bytes.length !== count * 4) fail(ctx, element, `data has ${bytes.length} bytes; the layer size needs ${count} x 4 = ${count * 4}`);
  return bytesToGids(bytes, count);
}

/** Checks a layer / chunk size against maxCells before anything is allocated for it. */
export function checkSize(ctx: Ctx, element: string, width: number, height: number, limits: DecodeLimits): number {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) fail(ctx, element, `size ${width} x ${height} is not a whole number of tiles`);
  const count = width * height;
  if (count > limits.maxCells) fail(ctx, element, `${width} x ${height} = ${count} tiles exceeds maxCells ${limits.maxCells}; pass a larger maxCells to allow it`);
  return count;
}
