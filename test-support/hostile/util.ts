/**
 * Shared pieces of the hostile-input generators: a seeded random source (so every variant can be
 * regenerated from its id) and byte helpers.
 */
import { crc32, deflateRawSync, constants as zc } from 'node:zlib';

/** A hostile input: `make()` builds its bytes on demand so that a large sweep does not hold them all. */
export interface Variant {
  /** Stable id: family/name[/parameters]; the same seed always gives the same bytes for the same id. */
  id: string;
  /** Format family, for grouping in reports. */
  family: 'pdf' | 'zip' | 'ole2' | 'html' | 'csv' | 'rtf' | 'other';
  /** The file name handed to the parser (its extension is a hint for CSV/HTML). */
  filename: string;
  /** How the bytes are made, in words, for a bug report. */
  recipe: string;
  make: () => Uint8Array;
}

/** Small, fast, good enough to pick offsets and bits reproducibly. */
export { seededRandom as rng } from '../random.js';

/** A seed derived from a base seed and a string, so variants do not share random streams. */
export function subSeed(seed: number, key: string): number {
  let h = (seed >>> 0) ^ 0x9e3779b9;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return h >>> 0;
}

export function intIn(r: () => number, lo: number, hi: number): number {
  return lo + Math.floor(r() * (hi - lo + 1));
}

export const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
export const latin1 = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'latin1'));
export const asLatin1 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');

export function concat(parts: (Uint8Array | string)[]): Uint8Array {
  const bufs = parts.map((p) => (typeof p === 'string' ? latin1(p) : p));
  const out = new Uint8Array(bufs.reduce((n, b) => n + b.length, 0));
  let o = 0;
  for (const b of bufs) {
    out.set(b, o);
    o += b.length;
  }
  return out;
}

export function randomBytes(r: () => number, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(r() * 256);
  return out;
}

/** Flips `count` random bits in [from, to) of a copy of `src`. */
export function flipBits(src: Uint8Array, r: () => number, count: number, from = 0, to = src.length): Uint8Array {
  const out = src.slice();
  if (to <= from) return out;
  for (let i = 0; i < count; i++) {
    const at = from + Math.floor(r() * (to - from));
    out[at] = out[at]! ^ (1 << Math.floor(r() * 8));
  }
  return out;
}

/** Overwrites `count` random bytes in [from, to) of a copy of `src` with random values. */
export function smashBytes(src: Uint8Array, r: () => number, count: number, from = 0, to = src.length): Uint8Array {
  const out = src.slice();
  if (to <= from) return out;
  for (let i = 0; i < count; i++) out[from + Math.floor(r() * (to - from))] = Math.floor(r() * 256);
  return out;
}

export function indexOf(hay: Uint8Array, needle: string, from = 0): number {
  return Buffer.from(hay.buffer, hay.byteOffset, hay.byteLength).indexOf(needle, from, 'latin1');
}

export function lastIndexOf(hay: Uint8Array, needle: string): number {
  return Buffer.from(hay.buffer, hay.byteOffset, hay.byteLength).lastIndexOf(needle, undefined, 'latin1');
}

/**
 * A raw deflate stream that inflates to `prefix + unit × repeats + suffix` without ever holding the
 * inflated bytes: the unit is compressed once with a full flush (byte aligned, no back references
 * across it) and its blocks repeated. Returns the stream, inflated size and CRC-32.
 */
export function deflateBomb(
  prefix: Uint8Array,
  unit: Uint8Array,
  repeats: number,
  suffix: Uint8Array,
): { data: Uint8Array; size: number; crc: number } {
  const flush = { finishFlush: zc.Z_FULL_FLUSH, level: 9 } as const;
  const head = prefix.length ? deflateRawSync(prefix, flush) : new Uint8Array(0);
  const mid = deflateRawSync(unit, flush);
  const tail = deflateRawSync(suffix, { level: 9 });
  const data = new Uint8Array(head.length + mid.length * repeats + tail.length);
  data.set(head, 0);
  for (let i = 0; i < repeats; i++) data.set(mid, head.length + i * mid.length);
  data.set(tail, head.length + mid.length * repeats);
  let crc = crc32(prefix);
  for (let i = 0; i < repeats; i++) crc = crc32(unit, crc);
  crc = crc32(suffix, crc);
  return { data, size: prefix.length + unit.length * repeats + suffix.length, crc };
}

/** A zlib (RFC 1950) wrapper around a raw deflate stream, for PDF FlateDecode; the Adler-32 is left zero. */
export function zlibWrap(raw: Uint8Array): Uint8Array {
  return concat([Uint8Array.of(0x78, 0xda), raw, Uint8Array.of(0, 0, 0, 0)]);
}
