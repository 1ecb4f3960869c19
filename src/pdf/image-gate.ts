/**
 * Images whose pixels would cost more than a page is worth, found before pdf.js reads the file.
 *
 * pdf.js leaves out an image whose own /Width × /Height passes its `maxImageSize`, but it checks nothing
 * else an image declares: a 48 × 6 picture with a 34,862 × 4,332 /SMask or /Mask is decoded at the
 * mask's size (pdf.js draws an image at the larger of its own and its mask's size: 600 MB of RGBA for
 * that one), and a JPEG or JPEG 2000 stream is decoded at the size its own header gives, whatever the
 * dictionary says. This reads every image XObject's dictionary with the project's own object reader
 * (src/pdf/pdf-objects.ts), the frame header of its JPEG (SOF) or JPEG 2000 (SIZ) data, and the size of
 * its mask, and says what to change in the copy of the file handed to pdf.js so that it never
 * decodes more than `maxPixels` for one image:
 *
 * - a mask past the limit under an image within it: the image's /SMask or /Mask key is renamed (to a
 *   key of the same length that means nothing), so pdf.js draws the image unmasked at its own size;
 * - an image whose coded data is past the limit while its dictionary is within it: its `/Subtype
 *   /Image` becomes `/Subtype /PS`, which pdf.js passes over as it does any PostScript XObject (its
 *   placement still shows in the text pass as the `q cm Q` it leaves, as for an image pdf.js drops).
 *
 * Edits keep every byte offset, so the cross-reference table stays right. Images are streams and so
 * never sit in object streams: their dictionaries are always plain bytes of the file. What the reader
 * cannot read plainly (a /Subtype written with escapes, a mask behind a broken reference) is left to
 * pdf.js as before. Inline images (BI … ID … EI inside a content stream) cannot carry masks of their
 * own and are decoded by pdf.js only when small (width + height under 200).
 */
import { inflateSync, constants as zlibConstants } from 'node:zlib';
import { attempt, filterNames, PdfName, type PdfObjects, PdfStream } from './pdf-objects.js';

export interface ByteEdit {
  /** Offset in the file of the first byte replaced. */
  offset: number;
  /** Replacement, as many bytes as it replaces (latin1). */
  text: string;
  /** What was there, for tests and diagnostics. */
  was: string;
}

/** Images inspected at most per document: past this, the rest is left to pdf.js's own limits. */
const MAX_IMAGES = 50_000;
/** Bytes of coded data read to find a JPEG or JPEG 2000 frame header. */
const HEADER_BYTES = 64 * 1024;

/** The edits that keep pdf.js from decoding more than `maxPixels` for any one image of the file. */
export function costlyImageEdits(objects: PdfObjects, maxPixels: number): ByteEdit[] {
  const b = objects.bytes;
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  const edits: ByteEdit[] = [];
  const seen = new Set<number>();
  let images = 0;
  for (let i = buf.indexOf('/Image', 0, 'latin1'); i >= 0; i = buf.indexOf('/Image', i + 6, 'latin1')) {
    // `/ImageB`, `/ImageC`, `/ImageI` (procedure sets) are other names.
    if (isNameChar(b[i + 6])) continue;
    const def = attempt(() => objects.definedBefore(i));
    if (!def || seen.has(def.num)) continue;
    const image = attempt(() => objects.get(def.num));
    // The name must be in the stream's dictionary (not in its data, nor in an older definition).
    if (!(image instanceof PdfStream) || i >= image.start) continue;
    seen.add(def.num);
    if (++images > MAX_IMAGES) break;
    edits.push(...(attempt(() => editsFor(objects, image, def.at, maxPixels)) ?? []));
  }
  return edits;
}

/** Copies `bytes` with `edits` applied (pdf.js takes ownership of the buffer it is given, so it gets a copy anyway). */
export function applyEdits(bytes: Uint8Array, edits: readonly ByteEdit[]): Uint8Array {
  const out = new Uint8Array(bytes.byteLength);
  out.set(bytes);
  for (const e of edits) out.set(Buffer.from(e.text, 'latin1'), e.offset);
  return out;
}

function editsFor(objects: PdfObjects, image: PdfStream, dictAt: number, maxPixels: number): ByteEdit[] {
  const dict = image.dict;
  const subtype = objects.resolve(dict.get('Subtype'));
  if (!(subtype instanceof PdfName) || subtype.name !== 'Image') return [];
  const own = dictPixels(objects, image);
  // Past the limit by its own dictionary: pdf.js leaves it out already (maxImageSize).
  if (own === null || own > maxPixels) return [];
  if ((codedPixels(objects, image) ?? 0) > maxPixels) {
    const edit = renameSubtype(objects.bytes, dictAt, image.start);
    return edit ? [edit] : [];
  }
  const edits: ByteEdit[] = [];
  for (const key of ['SMask', 'Mask']) {
    const mask = objects.resolve(dict.get(key));
    // A /Mask array (colour key masking) costs nothing.
    if (!(mask instanceof PdfStream)) continue;
    const pixels = Math.max(dictPixels(objects, mask) ?? 0, codedPixels(objects, mask) ?? 0);
    if (pixels <= maxPixels) continue;
    const edit = renameKey(objects.bytes, dictAt, image.start, key);
    if (edit) edits.push(edit);
  }
  return edits;
}

function dictPixels(objects: PdfObjects, s: PdfStream): number | null {
  const w = objects.resolve(s.dict.get('Width') ?? s.dict.get('W'));
  const h = objects.resolve(s.dict.get('Height') ?? s.dict.get('H'));
  return typeof w === 'number' && typeof h === 'number' && w > 0 && h > 0 ? w * h : null;
}

/** Pixels the stream's JPEG or JPEG 2000 data says it holds, or null for other data or none found. */
function codedPixels(objects: PdfObjects, s: PdfStream): number | null {
  const filters = filterNames(objects.resolve(s.dict.get('Filter') ?? s.dict.get('F')));
  if (!filters?.length) return null;
  const last = filters.at(-1)!;
  const jpeg = last === 'DCTDecode' || last === 'DCT';
  if (!jpeg && last !== 'JPXDecode') return null;
  const head = codedHead(objects, s, filters.slice(0, -1));
  if (!head) return null;
  return jpeg ? jpegPixels(head) : jpxPixels(head);
}

/** The first bytes of a stream's data with the filters before the image codec undone (Flate only). */
function codedHead(objects: PdfObjects, s: PdfStream, before: string[]): Uint8Array | null {
  const raw = objects.raw(s);
  if (before.length === 0) return raw.subarray(0, HEADER_BYTES);
  if (before.length !== 1 || (before[0] !== 'FlateDecode' && before[0] !== 'Fl')) return null;
  try {
    // A prefix of the data, flushed as far as it goes: a frame header sits in the first bytes.
    return inflateSync(raw.subarray(0, 4096), {
      finishFlush: zlibConstants.Z_SYNC_FLUSH,
      maxOutputLength: 8 * 1024 * 1024,
    }).subarray(0, HEADER_BYTES);
  } catch {
    return null;
  }
}

/** Width × height of a JPEG's first frame header (SOFn), or null. */
export function jpegPixels(d: Uint8Array): number | null {
  if (d[0] !== 0xff || d[1] !== 0xd8) return null;
  let p = 2;
  while (p + 4 <= d.length) {
    if (d[p] !== 0xff) return null;
    const m = d[p + 1]!;
    if (m === 0xff) {
      p++;
      continue;
    }
    // Markers without a length: RSTn, SOI, EOI, TEM.
    if ((m >= 0xd0 && m <= 0xd9) || m === 0x01) {
      p += 2;
      continue;
    }
    const len = (d[p + 2]! << 8) | d[p + 3]!;
    const sof = m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;
    if (sof && p + 9 <= d.length) {
      const h = (d[p + 5]! << 8) | d[p + 6]!;
      const w = (d[p + 7]! << 8) | d[p + 8]!;
      return w * Math.max(h, 1);
    }
    if (m === 0xda) return null;
    p += 2 + len;
  }
  return null;
}

/** Width × height of a JPEG 2000 image (its SIZ marker segment, bare or inside a JP2 file), or null. */
export function jpxPixels(d: Uint8Array): number | null {
  for (let p = 0; p + 22 <= d.length; p++) {
    // SOC then SIZ: the start of every codestream.
    if (d[p] !== 0xff || d[p + 1] !== 0x4f || d[p + 2] !== 0xff || d[p + 3] !== 0x51) continue;
    const u32 = (o: number): number => ((d[o]! << 24) | (d[o + 1]! << 16) | (d[o + 2]! << 8) | d[o + 3]!) >>> 0;
    const x = u32(p + 8) - u32(p + 16);
    const y = u32(p + 12) - u32(p + 20);
    return x > 0 && y > 0 ? x * y : null;
  }
  return null;
}

function isNameChar(c: number | undefined): boolean {
  if (c === undefined) return false;
  return !(
    c === 0x00 ||
    c === 0x09 ||
    c === 0x0a ||
    c === 0x0c ||
    c === 0x0d ||
    c === 0x20 ||
    '()<>[]{}/%'.includes(String.fromCharCode(c))
  );
}

/** Where the name `/name` written as a key stands in the dictionary bytes [from, to), or -1. */
function keyAt(b: Uint8Array, from: number, to: number, name: string): number {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  const needle = `/${name}`;
  for (let i = buf.indexOf(needle, from, 'latin1'); i >= 0 && i < to; i = buf.indexOf(needle, i + 1, 'latin1')) {
    if (!isNameChar(b[i + needle.length])) return i;
  }
  return -1;
}

/** `/Subtype /Image` → `/Subtype /PS` padded with spaces to the same length. */
function renameSubtype(b: Uint8Array, from: number, to: number): ByteEdit | null {
  const sub = keyAt(b, from, to, 'Subtype');
  if (sub < 0) return null;
  const at = keyAt(b, sub + 8, to, 'Image');
  // Only whitespace between the key and its value.
  if (
    at < 0 ||
    Buffer.from(b.subarray(sub + 8, at))
      .toString('latin1')
      .trim() !== ''
  )
    return null;
  return { offset: at, text: '/PS   ', was: '/Image' };
}

/** A dictionary key renamed to one of the same length that pdf.js does not know: `/SMask` → `/XMask`. */
function renameKey(b: Uint8Array, from: number, to: number, key: string): ByteEdit | null {
  const at = keyAt(b, from, to, key);
  if (at < 0) return null;
  return { offset: at, text: `/X${key.slice(1)}`, was: `/${key}` };
}
