/**
 * The native decoding of full-page scans (src/ocr/scan-image.ts): for every way a page can place its
 * image (turned by 0/90/180/270 degrees, mirrored, on a page with /Rotate) the grey pixels must equal
 * what the pdf.js render gives, and any page it does not fully understand must go to the render.
 * PDFs are built here with pdf-lib around a small asymmetric test image.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFRef,
  StandardFonts,
  concatTransformationMatrix,
  degrees,
  drawObject,
  popGraphicsState,
  pushGraphicsState,
  rgb,
} from 'pdf-lib';
import { CORPUS_SKIP_MESSAGE, REPO_ROOT, corpusAvailable, readCorpus } from '../test-support/corpus.js';
import { openForRender, pageImageForOcr } from '../src/ocr/render.js';
import { PdfObjects } from '../src/pdf/pdf-objects.js';
import { drawScanImage, findScanImage } from '../src/ocr/scan-image.js';

/** 400 × 600 grey test card at 200 dpi on a 2 × 3 inch page: a gradient, a black corner block, a bar. */
async function testCard(): Promise<{ jpeg: Buffer; raw: Buffer }> {
  const w = 400;
  const h = 600;
  const px = Buffer.alloc(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let v = 90 + Math.round((x / w) * 80 + (y / h) * 80);
      if (x < 80 && y < 60) v = 0;
      if (y > 400 && y < 420 && x > 200) v = 250;
      px[y * w + x] = v;
    }
  }
  const jpeg = await sharp(px, { raw: { width: w, height: h, channels: 1 } })
    .jpeg({ quality: 95 })
    .toBuffer();
  return { jpeg, raw: px };
}

type M = [number, number, number, number, number, number];

/** One page showing the image with matrix `m` (page size from the placement), optional /Rotate. */
async function pagePdf(
  img: Buffer,
  m: M,
  size: [number, number],
  opts: { rotate?: number; extra?: (doc: PDFDocument, page: ReturnType<PDFDocument['addPage']>) => Promise<void> } = {},
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage(size);
  const image = await doc.embedJpg(img);
  const name = page.node.newXObject('Im', image.ref);
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...m), drawObject(name), popGraphicsState());
  if (opts.rotate) page.setRotation(degrees(opts.rotate));
  await opts.extra?.(doc, page);
  return doc.save({ useObjectStreams: false });
}

async function compare(bytes: Uint8Array): Promise<{ via: string; diff: number; size: string }> {
  const doc = await openForRender(bytes);
  try {
    const a = await pageImageForOcr(doc, new PdfObjects(bytes), 1);
    const b = await pageImageForOcr(doc, null, 1);
    const g = await sharp(b.data, { raw: { width: b.width, height: b.height, channels: 4 } })
      .removeAlpha()
      .grayscale()
      .toColourspace('b-w')
      .raw()
      .toBuffer();
    if (a.channels !== 1 || g.length !== a.data.length)
      return { via: a.via, diff: Infinity, size: `${a.width}x${a.height} vs ${b.width}x${b.height}` };
    let s = 0;
    for (let i = 0; i < g.length; i++) s += Math.abs(g[i]! - a.data[i]!);
    return { via: a.via, diff: s / g.length, size: `${a.width}x${a.height}` };
  } finally {
    await doc.loadingTask.destroy();
  }
}

// 144 × 216 pt upright; 216 × 144 when the image lies on its side.
const PLACEMENTS: Record<string, { m: M; size: [number, number] }> = {
  upright: { m: [144, 0, 0, 216, 0, 0], size: [144, 216] },
  'mirrored left-right': { m: [-144, 0, 0, 216, 144, 0], size: [144, 216] },
  'upside down (mirror)': { m: [144, 0, 0, -216, 0, 216], size: [144, 216] },
  'turned 180': { m: [-144, 0, 0, -216, 144, 216], size: [144, 216] },
  'turned 90': { m: [0, 144, -216, 0, 216, 0], size: [216, 144] },
  'turned 270': { m: [0, -144, 216, 0, 0, 144], size: [216, 144] },
  transposed: { m: [0, 144, 216, 0, 0, 0], size: [216, 144] },
  'anti-transposed': { m: [0, -144, -216, 0, 216, 144], size: [216, 144] },
};

describe('native decoding of full-page scans', () => {
  for (const [name, p] of Object.entries(PLACEMENTS)) {
    for (const rotate of [0, 90, 270]) {
      it(`gives the render's pixels: ${name}, /Rotate ${rotate}`, async () => {
        const { jpeg } = await testCard();
        const r = await compare(await pagePdf(jpeg, p.m, p.size, { rotate }));
        expect(r.via).toBe('scan');
        // JPEG decoders round differently by a level or so; a wrong turn or mirror costs tens of levels.
        expect(r.diff, r.size).toBeLessThan(1.5);
      });
    }
  }

  /** A page showing an image stream written here (Flate-compressed unless `plain`), upright. */
  async function streamPdf(contents: Uint8Array, dict: Record<string, unknown>, plain = false): Promise<Uint8Array> {
    const doc = await PDFDocument.create();
    const page = doc.addPage([144, 216]);
    const full = { Type: 'XObject', Subtype: 'Image', Width: 400, Height: 600, ...dict };
    const stream = plain
      ? doc.context.stream(contents, full as never)
      : doc.context.flateStream(contents, full as never);
    const name = page.node.newXObject('Im', doc.context.register(stream));
    page.pushOperators(
      pushGraphicsState(),
      concatTransformationMatrix(144, 0, 0, 216, 0, 0),
      drawObject(name),
      popGraphicsState(),
    );
    return doc.save({ useObjectStreams: false });
  }

  /** PNG row filters, cycling through all five types, as a PNG-predicted stream stores rows. */
  function pngFilter(px: Uint8Array, rowBytes: number, bpp: number): Uint8Array {
    const rows = px.length / rowBytes;
    const out = new Uint8Array(rows * (rowBytes + 1));
    for (let r = 0; r < rows; r++) {
      const t = r % 5;
      out[r * (rowBytes + 1)] = t;
      for (let i = 0; i < rowBytes; i++) {
        const x = px[r * rowBytes + i]!;
        const a = i >= bpp ? px[r * rowBytes + i - bpp]! : 0;
        const b = r > 0 ? px[(r - 1) * rowBytes + i]! : 0;
        const c = r > 0 && i >= bpp ? px[(r - 1) * rowBytes + i - bpp]! : 0;
        const p = a + b - c;
        const pred = [
          0,
          a,
          b,
          (a + b) >> 1,
          Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
            ? a
            : Math.abs(p - b) <= Math.abs(p - c)
              ? b
              : c,
        ][t]!;
        out[r * (rowBytes + 1) + 1 + i] = (x - pred) & 0xff;
      }
    }
    return out;
  }

  it('reads Flate and uncompressed grey, RGB and 1-bit images, with PNG predictors', async () => {
    const { raw } = await testCard();
    const rgb = new Uint8Array(raw.length * 3);
    for (let i = 0; i < raw.length; i++) {
      rgb[i * 3] = raw[i]!;
      rgb[i * 3 + 1] = 255 - raw[i]!;
      rgb[i * 3 + 2] = (raw[i]! * 7) & 0xff;
    }
    const bits = new Uint8Array(50 * 600);
    for (let y = 0; y < 600; y++)
      for (let x = 0; x < 400; x++) if (raw[y * 400 + x]! > 128) bits[y * 50 + (x >> 3)]! |= 0x80 >> (x & 7);
    const cases: [string, Uint8Array][] = [
      ['grey, Flate', await streamPdf(raw, { ColorSpace: 'DeviceGray', BitsPerComponent: 8 })],
      ['grey, uncompressed', await streamPdf(raw, { ColorSpace: 'DeviceGray', BitsPerComponent: 8 }, true)],
      [
        'grey, Flate with PNG predictors',
        await streamPdf(pngFilter(raw, 400, 1), {
          ColorSpace: 'DeviceGray',
          BitsPerComponent: 8,
          DecodeParms: { Predictor: 15, Colors: 1, Columns: 400, BitsPerComponent: 8 },
        }),
      ],
      [
        'RGB, Flate with PNG predictors',
        await streamPdf(pngFilter(rgb, 1200, 3), {
          ColorSpace: 'DeviceRGB',
          BitsPerComponent: 8,
          DecodeParms: { Predictor: 15, Colors: 3, Columns: 400, BitsPerComponent: 8 },
        }),
      ],
      ['1-bit grey, Flate', await streamPdf(bits, { ColorSpace: 'DeviceGray', BitsPerComponent: 1 })],
    ];
    for (const [name, bytes] of cases) {
      const r = await compare(bytes);
      expect(r.via, name).toBe('scan');
      expect(r.diff, name).toBeLessThan(1.5);
    }
    // A TIFF predictor (2) is not read here: the render takes it.
    const tiff = await streamPdf(raw, {
      ColorSpace: 'DeviceGray',
      BitsPerComponent: 8,
      DecodeParms: { Predictor: 2, Colors: 1, Columns: 400 },
    });
    expect((await compare(tiff)).via).toBe('render');
  });

  /** The test card in black and white, coded CCITT Group 4 by libtiff (through sharp), without the TIFF around it. */
  async function g4Card(whiteIsZero: boolean): Promise<Uint8Array> {
    const { raw } = await testCard();
    // tileHeight beyond the image makes libvips write a single strip: one Group 4 stream for the page.
    const tiff = await sharp(raw, { raw: { width: 400, height: 600, channels: 1 } })
      .threshold(128)
      // One channel, or libvips refuses to write one bit a sample.
      .toColourspace('b-w')
      .tiff({ compression: 'ccittfax4', bitdepth: 1, miniswhite: whiteIsZero, tileHeight: 1024, tileWidth: 1024 })
      .toBuffer();
    const ifd = tiff.readUInt32LE(4);
    const tag = (t: number) => {
      for (let i = 0; i < tiff.readUInt16LE(ifd); i++) {
        const o = ifd + 2 + i * 12;
        if (tiff.readUInt16LE(o) === t) {
          expect(tiff.readUInt32LE(o + 4), `tag ${t} count`).toBe(1);
          return tiff.readUInt16LE(o + 2) === 3 ? tiff.readUInt16LE(o + 8) : tiff.readUInt32LE(o + 8);
        }
      }
      throw new Error(`no tag ${t}`);
    };
    expect(tag(262)).toBe(whiteIsZero ? 0 : 1);
    return new Uint8Array(tiff.subarray(tag(273), tag(273) + tag(279)));
  }

  it('reads CCITT Group 4 black-and-white scans natively, in either polarity', async () => {
    const g4 = (parms: Record<string, unknown>) => ({
      ColorSpace: 'DeviceGray',
      BitsPerComponent: 1,
      Filter: 'CCITTFaxDecode',
      DecodeParms: { K: -1, Columns: 400, Rows: 600, ...parms },
    });
    const plain = await g4Card(true);
    const inverted = await g4Card(false);
    const cases: [string, Uint8Array][] = [
      ['BlackIs1 false', await streamPdf(plain, g4({}), true)],
      ['BlackIs1 absent, Rows absent', await streamPdf(plain, g4({ Rows: undefined }), true)],
      // Coded the other way round: white runs are the card's black, shown black because 1 bits are black.
      ['BlackIs1 true', await streamPdf(inverted, g4({ BlackIs1: true }), true)],
    ];
    for (const [name, bytes] of cases) {
      const r = await compare(bytes);
      expect(r.via, name).toBe('scan');
      // Both decoders give exact black and white: any difference is a wrong pixel.
      expect(r.diff, name).toBe(0);
    }
    // What a one-strip TIFF cannot say, or a dictionary that does not match the data, goes to the render.
    const refused: [string, Uint8Array][] = [
      ['Group 3 (K 0)', await streamPdf(plain, g4({ K: 0 }), true)],
      ['byte-aligned rows', await streamPdf(plain, g4({ EncodedByteAlign: true }), true)],
      ['other column count', await streamPdf(plain, g4({ Columns: 401 }), true)],
      ['other row count', await streamPdf(plain, g4({ Rows: 599 }), true)],
      ['a colour space of three components', await streamPdf(plain, { ...g4({}), ColorSpace: 'DeviceRGB' }, true)],
      // Damaged coding: libtiff warns, and the render (whose decoder shows what it can) takes the page.
      ['truncated data', await streamPdf(plain.subarray(0, Math.floor(plain.length / 2)), g4({}), true)],
    ];
    for (const [name, bytes] of refused) expect((await compare(bytes)).via, name).toBe('render');
  });

  it('enlarges a low-resolution scan to 300 dpi as the render does', async () => {
    const { jpeg } = await testCard();
    // 400 × 600 pixels over 288 × 432 pt: 100 dpi.
    const r = await compare(await pagePdf(jpeg, [288, 0, 0, 432, 0, 0], [288, 432]));
    expect(r.via).toBe('scan');
    // The render's own size (pdf.js rounds 1800.0000001 up).
    expect(r.size).toMatch(/^1200x180[01]$/);
    expect(r.diff).toBeLessThan(1.5);
  });

  it('reads the generated fixture scans natively', async () => {
    for (const f of ['scanned.pdf', 'mixed.pdf']) {
      const bytes = new Uint8Array(readFileSync(path.join(REPO_ROOT, 'fixtures', 'ocr', f)));
      const doc = await openForRender(bytes);
      const objs = new PdfObjects(bytes);
      const via: string[] = [];
      for (let n = 1; n <= doc.numPages; n++) via.push((await pageImageForOcr(doc, objs, n)).via);
      await doc.loadingTask.destroy();
      expect(via).toEqual(f === 'scanned.pdf' ? ['scan', 'scan'] : ['render', 'scan', 'render']);
    }
  });

  const fallbacks: Record<string, (doc: PDFDocument, page: ReturnType<PDFDocument['addPage']>) => Promise<void>> = {
    'visible text over the scan': async (doc, page) => {
      page.drawText('stamp', {
        x: 10,
        y: 10,
        size: 9,
        font: await doc.embedFont(StandardFonts.Helvetica),
        color: rgb(0.5, 0.5, 0.5),
      });
    },
    'a second image': async (doc, page) => {
      const { jpeg } = await testCard();
      page.drawImage(await doc.embedJpg(jpeg), { x: 0, y: 0, width: 20, height: 30 });
    },
    'a filled rectangle': async (_doc, page) => {
      page.drawRectangle({ x: 10, y: 10, width: 20, height: 20, color: rgb(0, 0, 0) });
    },
    'an annotation': async (doc, page) => {
      page.node.set(
        PDFName.of('Annots'),
        doc.context.obj([doc.context.obj({ Type: 'Annot', Subtype: 'Square', Rect: [0, 0, 10, 10] })]),
      );
    },
  };
  for (const [name, extra] of Object.entries(fallbacks)) {
    it(`leaves the page to the render: ${name}`, async () => {
      const { jpeg } = await testCard();
      const r = await compare(await pagePdf(jpeg, PLACEMENTS.upright!.m, [144, 216], { extra }));
      expect(r.via).toBe('render');
    });
  }

  /** The test page with its image stream changed by `edit` (the file is saved, reloaded, edited, saved). */
  async function withImage(edit: (doc: PDFDocument, s: PDFRawStream, ref: PDFRef) => void): Promise<Uint8Array> {
    const { jpeg } = await testCard();
    const doc = await PDFDocument.load(await pagePdf(jpeg, PLACEMENTS.upright!.m, [144, 216]));
    let n = 0;
    for (const [ref, obj] of doc.context.enumerateIndirectObjects()) {
      if (obj instanceof PDFRawStream && obj.dict.get(PDFName.of('Subtype')) === PDFName.of('Image')) {
        edit(doc, obj, ref);
        n++;
      }
    }
    expect(n).toBe(1);
    return doc.save({ useObjectStreams: false });
  }

  it('leaves images with a soft mask, a decode array or a CMYK colour space to the render', async () => {
    const edits: ((doc: PDFDocument, s: PDFRawStream) => void)[] = [
      (doc, s) => s.dict.set(PDFName.of('Decode'), doc.context.obj([1, 0])),
      (doc, s) =>
        s.dict.set(
          PDFName.of('SMask'),
          doc.context.register(
            doc.context.flateStream(new Uint8Array(400 * 600), {
              Type: 'XObject',
              Subtype: 'Image',
              Width: 400,
              Height: 600,
              ColorSpace: 'DeviceGray',
              BitsPerComponent: 8,
            }),
          ),
        ),
      (_doc, s) => s.dict.set(PDFName.of('ColorSpace'), PDFName.of('DeviceCMYK')),
      (_doc, s) => s.dict.set(PDFName.of('Filter'), PDFName.of('JPXDecode')),
    ];
    for (const edit of edits) expect((await compare(await withImage(edit))).via).toBe('render');
    // The unedited page is read natively (the edits, not the test page, send the others to the render).
    expect((await compare(await withImage(() => undefined))).via).toBe('scan');
  });

  it('falls back on a truncated JPEG and on a damaged file instead of failing', async () => {
    const cut = await withImage((doc, s, ref) => {
      doc.context.assign(ref, PDFRawStream.of(s.dict, s.contents.subarray(0, 2000)));
    });
    const doc = await openForRender(cut);
    const img = await pageImageForOcr(doc, new PdfObjects(cut), 1);
    await doc.loadingTask.destroy();
    expect(img.via).toBe('render');
    // Garbage where the objects should be: the reader refuses, the render decides.
    const { jpeg } = await testCard();
    const bytes = await pagePdf(jpeg, PLACEMENTS.upright!.m, [144, 216]);
    const objs = new PdfObjects(
      new Uint8Array(
        Buffer.from(
          Buffer.from(bytes)
            .toString('latin1')
            .replace(/\/Width \d+/, '/Width (x)'),
          'latin1',
        ),
      ),
    );
    const d2 = await openForRender(bytes);
    expect((await pageImageForOcr(d2, objs, 1)).via).toBe('render');
    await d2.loadingTask.destroy();
  });
});

describe.skipIf(!corpusAvailable)(
  `a fax-coded scan from the corpus (${corpusAvailable ? 'corpus present' : CORPUS_SKIP_MESSAGE})`,
  () => {
    it('decodes the Group 4 page of a1977-backus-p21.pdf natively, pixel for pixel as the render', async () => {
      const bytes = new Uint8Array(readCorpus('unstructured', 'a1977-backus-p21.pdf'));
      const r = await compare(bytes);
      expect(r.via).toBe('scan');
      expect(r.size).toBe('2550x3301');
      expect(r.diff).toBe(0);
    });
  },
);

describe('the PDF object reader on damaged files', () => {
  it('never throws or hangs on mutated and truncated scans: it finds the image or gives up', async () => {
    const original = new Uint8Array(readFileSync(path.join(REPO_ROOT, 'fixtures', 'ocr', 'scanned.pdf')));
    // The page objects of the intact file, as pdf.js reports them.
    const doc = await openForRender(original);
    const pages = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const p = await doc.getPage(n);
      pages.push({ ref: p.ref!, view: p.view, rotate: p.rotate, transform: p.getViewport({ scale: 1 }).transform });
    }
    await doc.loadingTask.destroy();
    // Seeded, so a failure can be replayed.
    let seed = 4242;
    const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 0x100000000;
    // Mutations aimed at the structure (the first and last few kilobytes hold the dictionaries, content
    // streams and cross-reference table) and anywhere in the file.
    const head = latin1Indexes(original);
    let found = 0;
    for (let round = 0; round < 300; round++) {
      const bytes = original.slice(0, round % 7 === 0 ? Math.floor(rand() * original.length) : original.length);
      const edits = 1 + Math.floor(rand() * 8);
      for (let e = 0; e < edits; e++) {
        const at =
          rand() < 0.7 && head.length
            ? head[Math.floor(rand() * head.length)]! + Math.floor(rand() * 40)
            : Math.floor(rand() * bytes.length);
        if (at < bytes.length)
          bytes[at] = ' ()<>[]/R0123456789obj'.charCodeAt(Math.floor(rand() * 22)) || Math.floor(rand() * 256);
      }
      const objs = new PdfObjects(bytes);
      for (const p of pages) {
        const img = findScanImage(objs, p.ref, p.view, p.rotate);
        if (!img) continue;
        // Whatever the reader hands over must decode or be refused (a rejection is how pageImageForOcr
        // falls back to the render), without hanging (every tenth: a decode costs tens of milliseconds).
        if (found++ % 10 === 0) await drawScanImage(img, p.transform, 200, 300).catch(() => null);
      }
    }
    // Most mutations miss the few bytes that matter: the reader still reads those files.
    expect(found).toBeGreaterThan(50);
  });
});

/** Offsets of the dictionaries in a PDF (`<<`), where a mutation hits the structure. */
function latin1Indexes(bytes: Uint8Array): number[] {
  const s = Buffer.from(bytes).toString('latin1');
  const out: number[] = [];
  for (let i = s.indexOf('<<'); i >= 0; i = s.indexOf('<<', i + 2)) out.push(i);
  return out;
}
