/**
 * Where pictures stand on a page. pdf.js leaves images over 4096 pixels out of the operator list
 * (docmill does not decode them for text), so extract.ts recovers each one's placement from the
 * `q cm ... Q` left behind. Producers put state between the placement and the `Do`: Chromium writes
 * colours, a graphics state and marked content (`q cm RG rg gs /Figure <<>> BDC /Im Do EMC Q`), others
 * a clip (`q cm re W n /Im Do Q`).
 * Pages are made here with pdf-lib, the image from sharp.
 */
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  PDFDocument,
  concatTransformationMatrix,
  drawObject,
  popGraphicsState,
  pushGraphicsState,
  type PDFPage,
} from 'pdf-lib';
import { openPdf } from '../src/pdf/pdfjs.js';
import { extractPage, type PdfPage } from '../src/pdf/extract.js';
import { needsOcr } from '../src/pdf/needs-ocr.js';

type M = [number, number, number, number, number, number];

/** A grey picture of 240 × 160 pixels (38,400: pdf.js drops it from the operator list). */
async function picture(): Promise<Buffer> {
  const w = 240,
    h = 160;
  const px = Buffer.alloc(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) px[y * w + x] = (x * 7 + y * 3) % 256;
  return sharp(px, { raw: { width: w, height: h, channels: 1 } })
    .png()
    .toBuffer();
}

/** One Letter page with the picture placed by `m`, the way `style` writes it. */
async function pagePdf(m: M, style: 'plain' | 'chromium' | 'clipped'): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page: PDFPage = doc.addPage([612, 792]);
  const image = await doc.embedPng(await picture());
  const name = page.node.newXObject('Im', image.ref);
  if (style === 'plain') {
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...m), drawObject(name), popGraphicsState());
  } else if (style === 'clipped') {
    // Clipped to its own unit square after the placement, as cairo and others write it.
    page.node.addContentStream(
      doc.context.register(doc.context.stream(`q ${m.join(' ')} cm 0 0 1 1 re W n /${name.asString().slice(1)} Do Q`)),
    );
  } else {
    const gs = page.node.newExtGState('G', doc.context.obj({ ca: 1, CA: 1 }));
    const content = `q ${m.join(' ')} cm 0 0 0 RG 0 0 0 rg /${gs.asString().slice(1)} gs /Figure <</MCID 0>> BDC /${name.asString().slice(1)} Do EMC Q`;
    page.node.addContentStream(doc.context.register(doc.context.stream(content)));
  }
  return doc.save({ useObjectStreams: false });
}

async function extracted(bytes: Uint8Array) {
  const opened = await openPdf(bytes);
  try {
    return await extractPage((await opened.doc.getPage(1)) as PdfPage, 1);
  } finally {
    await opened.destroy();
  }
}

describe('pictures pdf.js leaves out of the operator list', () => {
  it('are found where colours, a graphics state, marked content or a clip stand between placement and Do', async () => {
    const m: M = [468, 0, 0, 200, 72, 400];
    const plain = await extracted(await pagePdf(m, 'plain'));
    const chromium = await extracted(await pagePdf(m, 'chromium'));
    expect(plain.images).toHaveLength(1);
    // Top-left origin: y0 = 792 - (400 + 200).
    expect(plain.images[0]).toMatchObject({ x0: 72, y0: 192, x1: 540, y1: 392 });
    expect(chromium.images).toEqual(plain.images);
    expect((await extracted(await pagePdf(m, 'clipped'))).images).toEqual(plain.images);
  });

  it('make a page that is one picture and no text a page for OCR', async () => {
    const page = await extracted(await pagePdf([612, 0, 0, 792, 0, 0], 'chromium'));
    expect(page.items).toHaveLength(0);
    expect(needsOcr(page)).toMatchObject({ needed: true, reason: 'image-only' });
  });
});
