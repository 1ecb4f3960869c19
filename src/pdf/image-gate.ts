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
 * - with a budget for the images one page draws (the OCR render's), the costliest images of a page
 *   past it: left out.
 *
 * Edits keep every byte offset, so the cross-reference table stays right. Images are streams and so
 * never sit in object streams: their dictionaries are always plain bytes of the file. What the reader
 * cannot read plainly (a /Subtype written with escapes, a mask behind a broken reference) is left to
 * pdf.js as before. Inline images (BI … ID … EI inside a content stream) are not read here: they
 * cannot have a mask stream, but JPEG data inside one could still declare a larger frame than its
 * dictionary.
 */
import { inflateSync, constants as zlibConstants } from 'node:zlib';
import {
  attempt,
  filterNames,
  isOp,
  type PdfDict,
  PdfLexer,
  PdfName,
  type PdfObjects,
  PdfRef,
  PdfStream,
  type PdfValue,
} from './pdf-objects.js';

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

/** What the check of one image found: the edits it needs, and what it costs a page where it is drawn. */
interface Checked {
  dictAt: number;
  image: PdfStream;
  edits: ByteEdit[];
  /** Pixels pdf.js would draw it at, a bilevel image's counted at a third; 0 once it is left out. */
  cost: number;
}

/**
 * The edits that keep pdf.js from decoding more than `maxPixels` for any one image of the file (its
 * `maxImageSize`). With `pageBudget`, the images one page draws must also come to no more than that
 * many pixels, a bilevel image's (an image mask, a 1-bit image: the usual black-and-white scan)
 * counted at a third: the costliest images of a page past it are left out (their subtype renamed).
 * pdf.js keeps the decoded bytes of every image of the page it renders and paints each through a
 * canvas of its full size, which measured 16-18 bytes a pixel of the OCR run's memory for a colour
 * image and 6.5 for a 1-bit one.
 */
export function costlyImageEdits(objects: PdfObjects, maxPixels: number, pageBudget?: number): ByteEdit[] {
  const b = objects.bytes;
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  const checked = new Map<number, Checked>();
  for (let i = buf.indexOf('/Image', 0, 'latin1'); i >= 0; i = buf.indexOf('/Image', i + 6, 'latin1')) {
    // `/ImageB`, `/ImageC`, `/ImageI` (procedure sets) are other names.
    if (isNameChar(b[i + 6])) continue;
    const def = attempt(() => objects.definedBefore(i));
    if (!def || checked.has(def.num)) continue;
    const image = attempt(() => objects.get(def.num));
    // The name must be in the stream's dictionary (not in its data, nor in an older definition).
    if (!(image instanceof PdfStream) || i >= image.start) continue;
    const c = attempt(() => check(objects, image, def.at, maxPixels));
    if (c) checked.set(def.num, c);
    if (checked.size >= MAX_IMAGES) break;
  }
  if (pageBudget !== undefined && checked.size) attempt(() => keepPagesWithin(objects, checked, pageBudget));
  return [...checked.values()].flatMap((c) => c.edits);
}

/** Copies `bytes` with `edits` applied (pdf.js takes ownership of the buffer it is given, so it gets a copy anyway). */
export function applyEdits(bytes: Uint8Array, edits: readonly ByteEdit[]): Uint8Array {
  const out = new Uint8Array(bytes.byteLength);
  out.set(bytes);
  for (const e of edits) out.set(Buffer.from(e.text, 'latin1'), e.offset);
  return out;
}

function check(objects: PdfObjects, image: PdfStream, dictAt: number, maxPixels: number): Checked | null {
  const dict = image.dict;
  const subtype = objects.resolve(dict.get('Subtype'));
  if (!(subtype instanceof PdfName) || subtype.name !== 'Image') return null;
  const own = dictPixels(objects, image);
  // Past the limit by its own dictionary: pdf.js leaves it out already (maxImageSize).
  if (own === null || own > maxPixels) return null;
  const checked: Checked = { dictAt, image, edits: [], cost: 0 };
  if ((codedPixels(objects, image) ?? 0) > maxPixels) return leaveOut(objects, checked);
  // pdf.js draws a masked image at the larger of its own and its mask's size, in RGBA.
  let drawn = own;
  let masked = false;
  for (const key of ['SMask', 'Mask']) {
    const mask = objects.resolve(dict.get(key));
    // A /Mask array (colour key masking) costs nothing.
    if (!(mask instanceof PdfStream)) continue;
    const pixels = Math.max(dictPixels(objects, mask) ?? 0, codedPixels(objects, mask) ?? 0);
    if (pixels <= maxPixels) {
      drawn = Math.max(drawn, pixels);
      masked = true;
      continue;
    }
    const edit = renameKey(objects.bytes, dictAt, image.start, key);
    if (edit) checked.edits.push(edit);
  }
  checked.cost = !masked && bilevel(objects, image) ? drawn / 3 : drawn;
  return checked;
}

/** The image left out of what pdf.js reads: `/Subtype /Image` renamed (its other edits are moot). */
function leaveOut(objects: PdfObjects, c: Checked): Checked {
  const edit = renameSubtype(objects.bytes, c.dictAt, c.image.start);
  c.edits = edit ? [edit] : [];
  c.cost = 0;
  return c;
}

/**
 * Leaves out the costliest images of every page whose images come to more than `budget`. The images a
 * page's resources list are taken as the ones it draws; where pages share one resources dictionary
 * (some producers list every image of the document in one), each image is held to the budget alone.
 */
function keepPagesWithin(objects: PdfObjects, checked: Map<number, Checked>, budget: number): void {
  const images = new PageImages(objects, checked);
  const pages = [...pageResources(objects)];
  const uses = new Map<string, number>();
  for (const p of pages) if (p.key) uses.set(p.key, (uses.get(p.key) ?? 0) + 1);
  for (const p of pages) {
    const drawn = [...images.of(p.resources)].map((n) => checked.get(n)!).filter((c) => c.cost > 0);
    drawn.sort((x, y) => y.cost - x.cost);
    const shared = p.key !== undefined && uses.get(p.key)! > 1;
    let total = shared ? 0 : drawn.reduce((sum, c) => sum + c.cost, 0);
    for (const c of drawn) {
      if (shared ? c.cost <= budget : total <= budget) continue;
      total -= c.cost;
      leaveOut(objects, c);
    }
  }
}

/** Pages read at most for the page budget; past this, pages are left to the one-image bound. */
const MAX_PAGES = 100_000;
/** Form XObjects inside form XObjects followed at most. */
const MAX_FORM_DEPTH = 8;

interface PageResources {
  resources: PdfDict;
  /** Names the dictionary when other pages may share it (an indirect object, or inherited). */
  key: string | undefined;
}

/** The resources of every page (inherited from the page tree where the page has none), in order. */
function* pageResources(objects: PdfObjects): Generator<PageResources> {
  const root = objects.dict(rootRef(objects));
  const stack: Array<{ node: PdfValue | undefined; inherited: PageResources | undefined }> = [
    { node: root?.get('Pages'), inherited: undefined },
  ];
  const seen = new Set<number>();
  let pages = 0;
  while (stack.length && pages < MAX_PAGES) {
    const { node, inherited } = stack.pop()!;
    if (node instanceof PdfRef) {
      if (seen.has(node.num)) continue;
      seen.add(node.num);
    }
    const dict = objects.dict(node);
    if (!dict) continue;
    const value = dict.get('Resources');
    const own = objects.dict(value);
    const kids = objects.resolve(dict.get('Kids'));
    // Resources written in a page tree node are shared by the pages under it.
    const key = value instanceof PdfRef ? `ref ${value.num}` : Array.isArray(kids) ? `node ${seen.size}` : undefined;
    const resources = own ? { resources: own, key } : inherited;
    if (Array.isArray(kids)) {
      for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i], inherited: resources });
    } else if (resources) {
      pages++;
      yield resources;
    }
  }
}

/** The document catalog's reference, from the last trailer (or cross-reference stream) that names one. */
function rootRef(objects: PdfObjects): PdfRef | undefined {
  const b = objects.bytes;
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  let i = buf.lastIndexOf('/Root', undefined, 'latin1');
  for (let tries = 0; i >= 0 && tries < 16; tries++, i = buf.lastIndexOf('/Root', i - 1, 'latin1')) {
    const lex = new PdfLexer(b, i + 5, Math.min(b.length, i + 64));
    const num = lex.next();
    const gen = lex.next();
    const r = lex.next();
    if (typeof num === 'number' && typeof gen === 'number' && isOp(r) && r.op === 'R') return new PdfRef(num, gen);
  }
  return undefined;
}

/** The checked images a resources dictionary reaches, through its form XObjects too (each form read once). */
class PageImages {
  private readonly forms = new Map<number, Set<number>>();
  constructor(
    private readonly objects: PdfObjects,
    private readonly checked: Map<number, Checked>,
  ) {}

  of(resources: PdfDict, depth = 0): Set<number> {
    const out = new Set<number>();
    const xobjects = this.objects.dict(resources.get('XObject'));
    if (!xobjects) return out;
    for (const v of xobjects.map.values()) {
      if (!(v instanceof PdfRef)) continue;
      if (this.checked.has(v.num)) out.add(v.num);
      else if (depth < MAX_FORM_DEPTH) for (const n of this.form(v.num, depth + 1)) out.add(n);
    }
    return out;
  }

  private form(num: number, depth: number): Set<number> {
    let images = this.forms.get(num);
    if (images) return images;
    // Marked first: a form that draws itself stops here.
    images = new Set<number>();
    this.forms.set(num, images);
    const form = this.objects.resolve(new PdfRef(num, 0));
    if (!(form instanceof PdfStream)) return images;
    const subtype = this.objects.resolve(form.dict.get('Subtype'));
    const resources = this.objects.dict(form.dict.get('Resources'));
    if (!(subtype instanceof PdfName) || subtype.name !== 'Form' || !resources) return images;
    for (const n of this.of(resources, depth)) images.add(n);
    return images;
  }
}

/** An image mask, or an image of one bit a pixel (a black-and-white scan, CCITT or JBIG2 coded). */
function bilevel(objects: PdfObjects, image: PdfStream): boolean {
  const dict = image.dict;
  if (objects.resolve(dict.get('ImageMask') ?? dict.get('IM')) === true) return true;
  const filters = filterNames(objects.resolve(dict.get('Filter') ?? dict.get('F'))) ?? [];
  if (filters.some((f) => f === 'JBIG2Decode' || f === 'CCITTFaxDecode' || f === 'CCF')) return true;
  return objects.resolve(dict.get('BitsPerComponent') ?? dict.get('BPC')) === 1;
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
