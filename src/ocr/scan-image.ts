/**
 * The fast path for the common scanned page: one image that fills the page. Instead of letting pdf.js
 * decode the JPEG in JavaScript and paint it on a canvas, the image's encoded bytes are taken from the
 * PDF (src/ocr/pdf-objects.ts) and decoded natively by sharp (libjpeg-turbo) straight to grey, turned
 * and mirrored as the page places it, and scaled to the size the render would have had. A black-and-
 * white scan compressed as CCITT Group 4 (the fax coding most archives and office scanners use for
 * bitonal pages) gets a minimal TIFF header around its bytes and is decoded by libtiff the same way:
 * about 30 ms for a letter page at 300 dpi, where pdf.js's JavaScript decoder and paint take 350.
 *
 * It only takes pages it fully understands: the page's content must do nothing visible but draw that
 * one image (an invisible OCR text layer is allowed), with no annotations, clipping, transparency,
 * masks, decode arrays or colour spaces other than grey and RGB (8-bit, or 1-bit grey). Everything else returns null and the
 * page is rendered by pdf.js as before.
 */
import sharp, { type Sharp } from 'sharp';
import {
  attempt,
  filterNames,
  isOp,
  PdfDict,
  PdfLexer,
  PdfName,
  PdfObjects,
  PdfRef,
  PdfStream,
  type PdfValue,
  mul,
  type Matrix,
} from './pdf-seam.js';

/** `m` applied first, then `n`. */
const multiply = (m: Matrix, n: Matrix): Matrix => mul(n, m);

export interface ScanImage {
  /** How the image is stored: a JPEG file, a TIFF file (CCITT Group 4 data with a header), or raw 8-bit samples. */
  encoding: 'jpeg' | 'tiff' | 'raw';
  data: Uint8Array;
  width: number;
  height: number;
  /** Samples per pixel of raw data (1 grey, 3 RGB); for JPEG what the image dictionary declares (0: unknown). */
  components: number;
  /** Image space → page user space (the CTM at the `Do`). */
  ctm: Matrix;
}

/** Operators that draw nothing and change nothing that matters for one image's placement. */
const HARMLESS = new Set([
  'w',
  'J',
  'j',
  'M',
  'd',
  'ri',
  'i',
  'g',
  'G',
  'rg',
  'RG',
  'k',
  'K',
  'cs',
  'CS',
  'sc',
  'SC',
  'scn',
  'SCN',
  'm',
  'l',
  'c',
  'v',
  'y',
  'h',
  're',
  'n',
  'BT',
  'ET',
  'Tc',
  'Tw',
  'Tz',
  'TL',
  'Tf',
  'Ts',
  'Td',
  'TD',
  'Tm',
  'T*',
  'BMC',
  'EMC',
  'MP',
  'DP',
  'BX',
  'EX',
  'd0',
  'd1',
]);
const SHOW_TEXT = new Set(['Tj', 'TJ', "'", '"']);
const MAX_CONTENT = 8 * 1024 * 1024;
/** Same bound as the pdf.js render (render.ts, maxImageSize). */
const MAX_IMAGE_PIXELS = 64 * 1024 * 1024;

/** Inherited page attributes (Resources, Rotate, MediaBox, CropBox) looked up through /Parent. */
function inherited(objs: PdfObjects, page: PdfDict, key: string): PdfValue | undefined {
  let d: PdfDict | undefined = page;
  for (let i = 0; d && i < 32; i++) {
    const v = d.get(key);
    if (v !== undefined) return objs.resolve(v);
    d = objs.dict(d.get('Parent'));
  }
  return undefined;
}

function nums(v: PdfValue | undefined, objs: PdfObjects): number[] | null {
  const a = objs.resolve(v);
  if (!Array.isArray(a)) return null;
  const out = a.map((x) => objs.resolve(x));
  return out.every((x) => typeof x === 'number') ? (out as number[]) : null;
}

/** Colour components of an image colour space this path accepts (1 or 3), or 0 when it does not. */
function components(objs: PdfObjects, cs: PdfValue | undefined, resources: PdfDict | undefined): number {
  let v = objs.resolve(cs);
  if (v instanceof PdfName && !['DeviceGray', 'DeviceRGB', 'G', 'RGB'].includes(v.name)) {
    // A named colour space from the resources.
    const named = objs.dict(resources?.get('ColorSpace'))?.get(v.name);
    if (named !== undefined) v = objs.resolve(named);
  }
  if (v instanceof PdfName)
    return v.name === 'DeviceGray' || v.name === 'G' ? 1 : v.name === 'DeviceRGB' || v.name === 'RGB' ? 3 : 0;
  if (Array.isArray(v) && v.length === 2) {
    const kind = objs.resolve(v[0]);
    if (kind instanceof PdfName && kind.name === 'ICCBased') {
      const n = objs.dict(v[1])?.get('N');
      return n === 1 || n === 3 ? n : 0;
    }
    if (kind instanceof PdfName && (kind.name === 'CalGray' || kind.name === 'CalRGB'))
      return kind.name === 'CalGray' ? 1 : 3;
  }
  return 0;
}

/** What the content of a page that may be a bare scan can use: its resources. */
interface ScanPage {
  page: PdfDict;
  resources: PdfDict | undefined;
  xobjects: PdfDict;
  gstates: PdfDict | undefined;
}

/** The image a page's content paints, with the matrix it is painted with. */
interface PaintedImage {
  stream: PdfStream;
  ctm: Matrix;
}

/** The page's dictionary and resources, when it is the page pdf.js found and it has no annotations; else null. */
function scanPage(
  objs: PdfObjects,
  pageRef: { num: number; gen: number },
  pdfjsView: number[],
  pdfjsRotate: number,
): ScanPage | null {
  const page = objs.dict(new PdfRef(pageRef.num, pageRef.gen));
  if (!page) return null;
  const type = page.get('Type');
  if (type instanceof PdfName && type.name !== 'Page') return null;
  // The page pdf.js found must be the one read here: same box and rotation.
  const media = nums(inherited(objs, page, 'MediaBox'), objs);
  if (!media || media.length !== 4) return null;
  const rot = inherited(objs, page, 'Rotate');
  const rotate = typeof rot === 'number' ? ((rot % 360) + 360) % 360 : 0;
  if (rotate !== pdfjsRotate) return null;
  const crop = nums(inherited(objs, page, 'CropBox'), objs);
  const box = crop && crop.length === 4 ? crop : media;
  const w = Math.abs(box[2]! - box[0]!);
  const h = Math.abs(box[3]! - box[1]!);
  const vw = pdfjsView[2]! - pdfjsView[0]!;
  const vh = pdfjsView[3]! - pdfjsView[1]!;
  if (Math.abs(w - vw) > 1 || Math.abs(h - vh) > 1) return null;
  // Annotations are painted by the render; a page with any is left to it.
  const annots = objs.resolve(page.get('Annots'));
  if (Array.isArray(annots) && annots.length > 0) return null;
  const resources = objs.dict(inherited(objs, page, 'Resources'));
  const xobjects = objs.dict(resources?.get('XObject'));
  const gstates = objs.dict(resources?.get('ExtGState'));
  if (!xobjects) return null;
  return { page, resources, xobjects, gstates };
}

/** The page's content, decoded (Flate or none) and joined; null when a part cannot be read or it is too long. */
function pageContent(objs: PdfObjects, page: PdfDict): Buffer | null {
  let contents = objs.resolve(page.get('Contents'));
  if (!Array.isArray(contents)) contents = contents === undefined ? [] : [contents];
  const parts: Uint8Array[] = [];
  let total = 0;
  for (const c of contents) {
    const s = objs.resolve(c);
    if (!(s instanceof PdfStream)) return null;
    const data = objs.decodeStream(s, MAX_CONTENT);
    if (!data) return null;
    total += data.length + 1;
    if (total > MAX_CONTENT) return null;
    parts.push(data, new Uint8Array([0x0a]));
  }
  const content = Buffer.concat(parts);
  return content;
}

/**
 * The one image the content paints, when it paints nothing else visible (an invisible OCR text layer
 * may sit over it) and no graphics state could change how it shows; else null.
 */
function lonePicture(
  objs: PdfObjects,
  content: Buffer,
  xobjects: PdfDict,
  gstates: PdfDict | undefined,
): PaintedImage | null {
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  let textMode = 0;
  const stack: { ctm: Matrix; textMode: number }[] = [];
  let found: { stream: PdfStream; ctm: Matrix } | null = null;
  const lex = new PdfLexer(content);
  const operands: PdfValue[] = [];
  const items = { n: 0 };
  for (;;) {
    const v = lex.next(0, items);
    if (v === undefined) break;
    if (!isOp(v)) {
      operands.push(v);
      if (operands.length > 64) return null;
      continue;
    }
    const op = v.op;
    if (op === 'q') {
      if (stack.length > 64) return null;
      stack.push({ ctm, textMode });
    } else if (op === 'Q') {
      const s = stack.pop();
      if (s) ({ ctm, textMode } = s);
    } else if (op === 'cm') {
      if (operands.length !== 6 || !operands.every((x) => typeof x === 'number')) return null;
      ctm = multiply(operands as Matrix, ctm);
    } else if (op === 'Tr') {
      textMode = typeof operands[0] === 'number' ? operands[0] : 0;
    } else if (SHOW_TEXT.has(op)) {
      // Only invisible text (an OCR layer) may sit over the scan.
      if (textMode !== 3) return null;
    } else if (op === 'gs') {
      const g = objs.dict(gstates?.get(operands[0] instanceof PdfName ? operands[0].name : ''));
      if (!g) return null;
      for (const [k, raw] of g.map) {
        const val = objs.resolve(raw);
        if ((k === 'CA' || k === 'ca') && val !== 1) return null;
        if (k === 'SMask' && !(val instanceof PdfName && val.name === 'None')) return null;
        if (k === 'BM' && !(val instanceof PdfName && (val.name === 'Normal' || val.name === 'Compatible')))
          return null;
        if (k === 'TR' || k === 'TR2' || k === 'Font') return null;
      }
    } else if (op === 'BDC') {
      // Optional content may hide what it encloses.
      if (operands[0] instanceof PdfName && operands[0].name === 'OC') return null;
    } else if (op === 'Do') {
      if (found) return null;
      const name = operands[0];
      if (!(name instanceof PdfName)) return null;
      const xo = objs.resolve(xobjects.get(name.name));
      if (!(xo instanceof PdfStream)) return null;
      const sub = xo.dict.get('Subtype');
      if (!(sub instanceof PdfName) || sub.name !== 'Image') return null;
      found = { stream: xo, ctm };
    } else if (!HARMLESS.has(op)) {
      // Painting (f, S, B, sh, inline images), clipping (W), forms, unknown operators: not a bare scan.
      return null;
    }
    operands.length = 0;
  }
  if (!found) return null;
  return found;
}

/** The painted image's encoded bytes in a form the native decoder reads, or null (the render decodes it). */
function encodedImage(objs: PdfObjects, found: PaintedImage, resources: PdfDict | undefined): ScanImage | null {
  const d = found.stream.dict;
  const get = (k: string) => objs.resolve(d.get(k));
  const width = get('Width');
  const height = get('Height');
  if (typeof width !== 'number' || typeof height !== 'number' || !Number.isInteger(width) || !Number.isInteger(height))
    return null;
  if (width < 16 || height < 16 || width * height > MAX_IMAGE_PIXELS) return null;
  const imageMask = get('ImageMask');
  if (imageMask === true || get('SMask') !== undefined || get('Mask') !== undefined || get('OC') !== undefined)
    return null;
  const decode = get('Decode');
  if (decode !== undefined && decode !== null) {
    const dv = nums(decode, objs);
    if (!dv || dv.some((x, i) => x !== (i % 2 === 0 ? 0 : 1))) return null;
  }
  const bpc = get('BitsPerComponent');
  const filters = filterNames(get('Filter'));
  if (!filters) return null;
  const comps = components(objs, d.get('ColorSpace'), resources);
  if (filters.length === 1 && (filters[0] === 'DCTDecode' || filters[0] === 'DCT')) {
    if (bpc !== undefined && bpc !== 8) return null;
    const parms = objs.dict(d.get('DecodeParms'));
    if (parms && parms.get('ColorTransform') !== undefined) return null;
    // A JPEG may omit its colour space only if the bytes say it; CMYK and others are refused below.
    if (comps === 0 && d.get('ColorSpace') !== undefined) return null;
    return {
      encoding: 'jpeg',
      data: objs.raw(found.stream),
      width,
      height,
      components: comps,
      ctm: found.ctm,
    } satisfies ScanImage;
  }
  if (filters.length === 1 && (filters[0] === 'CCITTFaxDecode' || filters[0] === 'CCF')) {
    if ((bpc !== undefined && bpc !== 1) || comps !== 1) return null;
    const tiff = g4Tiff(objs, d, width, height, objs.raw(found.stream));
    return tiff
      ? ({ encoding: 'tiff', data: tiff, width, height, components: 1, ctm: found.ctm } satisfies ScanImage)
      : null;
  }
  if (filters.length <= 1 && bpc === 8 && comps !== 0) {
    const data =
      filters.length === 0 ? objs.raw(found.stream) : objs.decodeStream(found.stream, width * height * comps + 1);
    if (!data || data.length < width * height * comps) return null;
    return {
      encoding: 'raw',
      data: data.subarray(0, width * height * comps),
      width,
      height,
      components: comps,
      ctm: found.ctm,
    } satisfies ScanImage;
  }
  if (filters.length <= 1 && bpc === 1 && comps === 1) {
    // Black-and-white scans: one bit a pixel, rows padded to whole bytes, 0 black and 1 white.
    const rowBytes = Math.ceil(width / 8);
    const data = filters.length === 0 ? objs.raw(found.stream) : objs.decodeStream(found.stream, rowBytes * height + 1);
    if (!data || data.length < rowBytes * height) return null;
    const grey = Buffer.alloc(width * height);
    for (let y = 0; y < height; y++) {
      const row = y * rowBytes;
      const o = y * width;
      for (let x = 0; x < width; x++) grey[o + x] = (data[row + (x >> 3)]! >> (7 - (x & 7))) & 1 ? 255 : 0;
    }
    return { encoding: 'raw', data: grey, width, height, components: 1, ctm: found.ctm } satisfies ScanImage;
  }
  return null;
}

/** The encoded image of a page that is one full-page picture, or null (see the file comment). */
export function findScanImage(
  objs: PdfObjects,
  pageRef: { num: number; gen: number },
  pdfjsView: number[],
  pdfjsRotate: number,
): ScanImage | null {
  return attempt(() => {
    const scan = scanPage(objs, pageRef, pdfjsView, pdfjsRotate);
    if (!scan) return null;
    const content = pageContent(objs, scan.page);
    if (!content) return null;
    const found = lonePicture(objs, content, scan.xobjects, scan.gstates);
    if (!found) return null;
    return encodedImage(objs, found, scan.resources);
  });
}

/**
 * A one-strip TIFF around CCITT Group 4 data, when the stream's parameters say what TIFF can: K < 0
 * (Group 4; Group 3 streams may lack the end-of-line codes libtiff expects), rows not byte-aligned, and
 * as many columns and rows as the image dictionary. Null otherwise (the render decodes it).
 */
function g4Tiff(objs: PdfObjects, d: PdfDict, width: number, height: number, data: Uint8Array): Uint8Array | null {
  let parms = objs.resolve(d.get('DecodeParms'));
  if (Array.isArray(parms)) parms = parms.length === 1 ? objs.resolve(parms[0]) : undefined;
  const p = parms instanceof PdfDict ? parms : undefined;
  const get = (k: string) => (p ? objs.resolve(p.get(k)) : undefined);
  const k = get('K') ?? 0;
  const columns = get('Columns') ?? 1728;
  const rows = get('Rows') ?? 0;
  const aligned = get('EncodedByteAlign') ?? false;
  const blackIs1 = get('BlackIs1') ?? false;
  if (typeof k !== 'number' || k >= 0 || columns !== width || (rows !== 0 && rows !== height)) return null;
  if (aligned !== false || typeof blackIs1 !== 'boolean') return null;
  // libtiff gives a white run 0 bits. With BlackIs1 false the PDF gives it 1 bits, white under the default
  // decode: TIFF's WhiteIsZero. With BlackIs1 true a white run is 0 bits, black: BlackIsZero.
  const photometric = blackIs1 ? 1 : 0;
  // [tag, type (3 SHORT, 4 LONG), value]; tags in ascending order, as TIFF requires.
  const entries: [number, 3 | 4, number][] = [
    [256, 4, width], // ImageWidth
    [257, 4, height], // ImageLength
    [258, 3, 1], // BitsPerSample
    [259, 3, 4], // Compression: CCITT T.6 (Group 4)
    [262, 3, photometric], // PhotometricInterpretation
    [273, 4, 0], // StripOffsets (filled in below)
    [277, 3, 1], // SamplesPerPixel
    [278, 4, height], // RowsPerStrip: one strip
    [279, 4, data.length], // StripByteCounts
    [293, 4, 0], // T6Options
  ];
  const start = 8 + 2 + entries.length * 12 + 4;
  const out = Buffer.alloc(start + data.length);
  out.write('II', 0, 'latin1');
  out.writeUInt16LE(42, 2);
  out.writeUInt32LE(8, 4);
  out.writeUInt16LE(entries.length, 8);
  entries.forEach(([tag, type, value], i) => {
    const o = 10 + i * 12;
    out.writeUInt16LE(tag, o);
    out.writeUInt16LE(type, o + 2);
    out.writeUInt32LE(1, o + 4);
    const v = tag === 273 ? start : value;
    if (type === 3) out.writeUInt16LE(v, o + 8);
    else out.writeUInt32LE(v, o + 8);
  });
  out.writeUInt32LE(0, 10 + entries.length * 12);
  out.set(data, start);
  return out;
}

export interface ScanPlacement {
  /** Image resolution in dots per inch of the page. */
  dpi: number;
}

/**
 * The image's resolution on the page, when it fills the page (at least 90% of its area) and sits
 * straight (turned by a multiple of 90 degrees at most); null otherwise.
 */
export function placement(
  img: ScanImage,
  viewTransform: number[],
  pageWidth: number,
  pageHeight: number,
): ScanPlacement | null {
  const m = multiply(img.ctm, viewTransform as Matrix);
  const straight =
    (Math.abs(m[1]) < 1e-3 * Math.abs(m[0]) && Math.abs(m[2]) < 1e-3 * Math.abs(m[3])) ||
    (Math.abs(m[0]) < 1e-3 * Math.abs(m[1]) && Math.abs(m[3]) < 1e-3 * Math.abs(m[2]));
  if (!straight) return null;
  const x = [m[4], m[4] + m[0], m[4] + m[2], m[4] + m[0] + m[2]];
  const y = [m[5], m[5] + m[1], m[5] + m[3], m[5] + m[1] + m[3]];
  const x0 = Math.max(0, Math.min(...x));
  const x1 = Math.min(pageWidth, Math.max(...x));
  const y0 = Math.max(0, Math.min(...y));
  const y1 = Math.min(pageHeight, Math.max(...y));
  if (x1 <= x0 || y1 <= y0 || (x1 - x0) * (y1 - y0) < 0.9 * pageWidth * pageHeight) return null;
  const alongX = Math.hypot(m[0], m[1]);
  const alongY = Math.hypot(m[2], m[3]);
  const dpiX = (img.width / alongX) * 72;
  const dpiY = (img.height / alongY) * 72;
  if (Math.abs(dpiX - dpiY) > 0.05 * dpiX) return null;
  return { dpi: dpiX };
}

/**
 * Decodes the image to grey and lays it out as the page shows it at the viewport `viewTransform`
 * (pixels: `width` × `height`), white where the image does not reach. Null when the bytes do not
 * match the image dictionary (sizes, colour).
 */
export async function drawScanImage(
  img: ScanImage,
  viewTransform: number[],
  width: number,
  height: number,
): Promise<Buffer | null> {
  const m = multiply(img.ctm, viewTransform as Matrix);
  let pipeline: Sharp;
  if (img.encoding === 'jpeg') {
    pipeline = sharp(img.data, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' });
    const meta = await pipeline.metadata();
    if (meta.width !== img.width || meta.height !== img.height || meta.format !== 'jpeg') return null;
    const ch = meta.channels ?? 0;
    if (
      (ch !== 1 && ch !== 3) ||
      (img.components !== 0 && img.components !== ch) ||
      (meta.space !== 'b-w' && meta.space !== 'srgb')
    )
      return null;
    // The PDF places the pixels; an EXIF orientation tag must not turn them again (sharp only turns on request).
  } else if (img.encoding === 'tiff') {
    // libtiff warns about damaged coding (and fills the rest of the page); the render decides then.
    pipeline = sharp(img.data, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'warning' });
    const meta = await pipeline.metadata();
    if (meta.width !== img.width || meta.height !== img.height || meta.format !== 'tiff' || meta.channels !== 1)
      return null;
  } else {
    pipeline = sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.components as 1 | 3 } });
  }
  // Where the image's columns and rows run on the viewport: image x → (m0, m1); image rows go down the
  // image, i.e. against the PDF's unit-square y → (-m2, -m3).
  const transposed = Math.abs(m[0]) < Math.abs(m[1]);
  let flop: boolean;
  let flip: boolean;
  if (!transposed) {
    flop = m[0] < 0;
    flip = -m[3] < 0;
  } else {
    // Rotating 90° clockwise puts image rows (reversed) along x and columns along y; sharp mirrors
    // before it rotates, so mirrors wanted after the turn are done as the other mirror before it.
    const wantFlopAfter = !(-m[2] < 0);
    const wantFlipAfter = m[1] < 0;
    flip = wantFlopAfter;
    flop = wantFlipAfter;
  }
  pipeline = pipeline.greyscale();
  if (flip) pipeline = pipeline.flip();
  if (flop) pipeline = pipeline.flop();
  if (transposed) pipeline = pipeline.rotate(90);
  // The image's box on the viewport, in pixels.
  const xs = [m[4], m[4] + m[0], m[4] + m[2], m[4] + m[0] + m[2]];
  const ys = [m[5], m[5] + m[1], m[5] + m[3], m[5] + m[1] + m[3]];
  const bx0 = Math.round(Math.min(...xs));
  const bx1 = Math.round(Math.max(...xs));
  const by0 = Math.round(Math.min(...ys));
  const by1 = Math.round(Math.max(...ys));
  const bw = bx1 - bx0;
  const bh = by1 - by0;
  if (bw < 1 || bh < 1) return null;
  const natW = transposed ? img.height : img.width;
  const natH = transposed ? img.width : img.height;
  // Enlarged by nearest neighbour, as the pdf.js render on @napi-rs/canvas does (the pixels then match
  // the render's within decoder rounding, so recognition reads the same page either way).
  if (natW !== bw || natH !== bh)
    pipeline = pipeline.resize({
      width: bw,
      height: bh,
      fit: 'fill',
      kernel: bw >= natW && bh >= natH ? 'nearest' : 'cubic',
    });
  let { data, info } = await pipeline.toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 1 || info.width !== bw || info.height !== bh) return null;
  if (bx0 === 0 && by0 === 0 && bw === width && bh === height) return data;
  // Crop to the viewport and pad with paper white.
  const out = Buffer.alloc(width * height, 255);
  const cx0 = Math.max(0, bx0);
  const cy0 = Math.max(0, by0);
  const cx1 = Math.min(width, bx1);
  const cy1 = Math.min(height, by1);
  for (let y = cy0; y < cy1; y++) {
    const src = (y - by0) * bw + (cx0 - bx0);
    data.copy(out, y * width + cx0, src, src + (cx1 - cx0));
  }
  data = out;
  info = { ...info, width, height };
  return data;
}
