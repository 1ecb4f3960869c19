/**
 * Scans fed sideways or upside down (fixtures/ocr/turned.pdf, made by make.mjs: the invoice page turned
 * 270 degrees, the two-column page 180, a short page 90, each tilted, blurred, speckled and JPEG'd)
 * come out as text within the same error bound as upright scans, laid out in their reading frame.
 * Needs `npm run build` (the OCR pool runs dist/workers/ocr-worker.js).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../test-support/corpus.js';
import { ParserRuntime } from '../src/runtime/runtime.js';
import { recognizePages } from '../src/ocr/pool.js';
import { ocrPlainText } from '../src/ocr/page.js';
import { cer } from '../test-support/cer.js';
import { openForRender, pageImageForOcr } from '../src/ocr/render.js';
import { PdfObjects } from '../src/pdf/pdf-objects.js';
import sharp from 'sharp';
import { PDFDocument } from 'pdf-lib';

const FIX = path.join(REPO_ROOT, 'fixtures', 'ocr');
const turned = readFileSync(path.join(FIX, 'turned.pdf'));
const truth = JSON.parse(readFileSync(path.join(FIX, 'turned.truth.json'), 'utf8')) as { page: number; text: string }[];

// The same bound as the upright generated scans (test/ocr.test.ts says why 1.5%). Read as they
// lie, the 270 and 180 degree pages measured 83-85%.
const CER_BOUND = 0.015;

describe('OCR of pages fed sideways or upside down', () => {
  const runtime = new ParserRuntime({ ocrThreads: 2 });
  afterAll(() => runtime.close());

  it('turns each page upright before reading it', async () => {
    const results = await recognizePages(runtime, turned, [1, 2, 3], { signal: new AbortController().signal });
    // Scanned turned 270, 180 and 90 degrees clockwise: turned back by 90, 180 and 270.
    const expected = { 1: 90, 2: 180, 3: 270 } as Record<number, number>;
    // Page 1: read, probed, read turned 180 (its lines then stand on end), read turned 90; page 2: read, probed,
    // read at 180; page 3: tesseract reads it on end, so it is only turned upright and read again.
    const readings = { 1: 4, 2: 3, 3: 2 } as Record<number, number>;
    for (const r of results) {
      expect(r.layout.status).toBe('ok');
      const rate = cer(ocrPlainText(r.page!), truth.find((t) => t.page === r.pageNumber)!.text);
      console.log(
        `turned.pdf page ${r.pageNumber}: CER ${(rate * 100).toFixed(2)}%, turned ${r.page!.turned ?? 0}°, confidence ${r.page!.confidence.toFixed(2)}`,
      );
      expect(rate).toBeLessThan(CER_BOUND);
      expect(r.page!.turned).toBe(expected[r.pageNumber]);
      expect(r.readings).toBe(readings[r.pageNumber]);
      // Laid out in the reading frame: a portrait page, lines wider than tall.
      expect(r.page!.height).toBeGreaterThan(r.page!.width);
      for (const b of r.page!.blocks)
        for (const p of b.paragraphs)
          for (const l of p.lines) {
            if (l.words.length > 3) expect(l.bbox.x1 - l.bbox.x0).toBeGreaterThan(l.bbox.y1 - l.bbox.y0);
          }
    }
  });

  it('a poor but upright scan costs only the probe, not a second whole reading', async () => {
    // Page 1 of scanned.pdf, upright, blurred, halved and JPEG'd at quality 20.
    const bytes = new Uint8Array(readFileSync(path.join(FIX, 'scanned.pdf')));
    const doc = await openForRender(bytes);
    const img = await pageImageForOcr(doc, new PdfObjects(bytes), 1);
    await doc.loadingTask.destroy();
    const jpeg = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } })
      .blur(3.5)
      .resize({ width: 800 })
      .resize({ width: 1700, kernel: 'nearest' })
      .jpeg({ quality: 20 })
      .toBuffer();
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([612, 792]);
    page.drawImage(await pdf.embedJpg(jpeg), { x: 0, y: 0, width: 612, height: 792 });
    // The orientation check's own cost: without the plain render a doubtful page reads too (plain-regions.ts).
    const [r] = await recognizePages(runtime, await pdf.save(), [1], {
      signal: new AbortController().signal,
      plainLines: false,
    });
    // Poor enough to be checked (measured 0.38)...
    expect(r!.page!.confidence).toBeLessThan(0.6);
    // ...and found upright by the probe of its middle third.
    expect(r!.page!.turned).toBeUndefined();
    expect(r!.readings).toBe(2);
  });

  it('reads the pages as they lie when orientation is off (what the check above guards against)', async () => {
    const [r] = await recognizePages(runtime, turned, [2], {
      signal: new AbortController().signal,
      orientation: false,
    });
    expect(r!.page!.turned).toBeUndefined();
    expect(cer(ocrPlainText(r!.page!), truth[1]!.text)).toBeGreaterThan(0.2);
  });
});
