/**
 * OCR and the parse's timeout: when time runs out in the middle of recognition, the pages already
 * read are kept, the others keep their text layer (auto) or are failed (ocr), the answer arrives
 * within the timeout, and the recognition work still queued or running is cancelled.
 * Needs `npm run build` (pools run dist/workers/*.js).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { REPO_ROOT } from '../test-support/corpus.js';
import { createParser } from '../src/parser.js';
import { ParserRuntime } from '../src/runtime/runtime.js';
import { isOcrTimeout, ocrPool, recognizePages } from '../src/ocr/pool.js';

const scanned = readFileSync(path.join(REPO_ROOT, 'fixtures', 'ocr', 'scanned.pdf'));

/**
 * Twenty scanned pages (the two of scanned.pdf, ten times), each with a short visible stamp: a few words
 * of native text over a full-page image, which auto mode sends to OCR ('sparse-text-over-image').
 */
async function stampedScans(copies: number): Promise<Uint8Array> {
  const src = await PDFDocument.load(scanned);
  const out = await PDFDocument.create();
  const font = await out.embedFont(StandardFonts.Helvetica);
  for (let c = 0; c < copies; c++) {
    for (const page of await out.copyPages(src, [0, 1])) {
      out.addPage(page);
      page.drawText(`Received stamp ${out.getPageCount()}`, { x: 420, y: 20, size: 9, font });
    }
  }
  return out.save();
}

describe('OCR against the parse timeout', () => {
  let pdf: Uint8Array;
  // One OCR thread: twenty pages take well over the timeouts below (about a second each and more).
  const parser = createParser({ ocrThreads: 1 });
  beforeAll(async () => {
    pdf = await stampedScans(10);
  });
  afterAll(() => parser.close());

  it('auto: returns the document with the unread pages partial (their text layer), not TIMEOUT', async () => {
    const doc = await parser.parseFile(pdf, { timeout: 6000, parsers: [{ type: 'pdf', mode: 'auto', blocks: true }] });
    const statuses = doc.blocks!.map((p) => p.status);
    expect(statuses).toHaveLength(20);
    expect(statuses.every((s) => s === 'ok' || s === 'partial')).toBe(true);
    const partial = doc.blocks!.filter((p) => p.status === 'partial');
    expect(partial.length).toBeGreaterThan(0);
    for (const p of partial) {
      // The page's own text layer, and no recognised text.
      expect(p.items.map((b) => b.content).join('\n')).toContain(`Received stamp ${p.pageNumber}`);
      expect(p.items.every((b) => b.source !== 'layout_ocr')).toBe(true);
    }
    expect(doc.metadata.error).toMatch(
      /OCR did not finish on page \d+ within the parse's timeout; the page's text layer was kept/,
    );
    expect(doc.warning ?? '').toMatch(/OCR did not finish within the timeout on pages? [\d, ]+/);
  });

  it('ocr: pages read in time are kept, the others failed with a message', async () => {
    // Long enough for the first pages even on a machine busy with other work, far too short for
    // sixty pages on one thread.
    const long = await stampedScans(30);
    const doc = await parser.parseFile(long, { timeout: 20000, parsers: [{ type: 'pdf', mode: 'ocr', blocks: true }] });
    const ok = doc.blocks!.filter((p) => p.status === 'ok');
    const failed = doc.blocks!.filter((p) => p.status === 'failed');
    expect(ok.length + failed.length).toBe(60);
    expect(ok.length).toBeGreaterThan(0);
    expect(failed.length).toBeGreaterThan(0);
    // Pages go to the pool in order: the ones read in time are the first ones.
    expect(ok.map((p) => p.pageNumber)).toEqual(ok.map((_, i) => i + 1));
    for (const p of ok) expect(p.items.some((b) => b.source === 'layout_ocr')).toBe(true);
    for (const p of failed) expect(p.items).toHaveLength(0);
    console.log(`ocr mode, 20 s: pages ${ok.map((p) => p.pageNumber).join(', ')} read in time`);
    expect(doc.markdown).toMatch(/Summary of Terms|Notes from the Reading Room/);
    expect(doc.metadata.error).toMatch(/OCR did not finish on page \d+ within the parse's timeout/);
  });

  it('ocr: nothing recognised in time is still a TIMEOUT', async () => {
    await expect(
      parser.parseFile(pdf, { timeout: 400, parsers: [{ type: 'pdf', mode: 'ocr' }] }),
    ).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('cancels the pages it stopped waiting for', async () => {
    const runtime = new ParserRuntime({ ocrThreads: 1 });
    try {
      const results = await recognizePages(runtime, pdf, [1, 2, 3, 4, 5, 6], {
        signal: new AbortController().signal,
        stopAt: Date.now() + 1500,
      });
      const late = results.filter((r) => isOcrTimeout(r.layout));
      expect(late.length).toBeGreaterThan(0);
      for (const r of late)
        expect(r.layout).toMatchObject({
          status: 'failed',
          error: `OCR did not finish on page ${r.pageNumber} within the parse's timeout`,
        });
      const pool = ocrPool(runtime);
      // Nothing queued, and the thread that was still recognising was ended rather than left to finish.
      expect(pool.queueSize).toBe(0);
      await new Promise((r) => setTimeout(r, 200));
      expect(pool.threads.length).toBe(0);
      // The pool still works afterwards.
      const [again] = await recognizePages(runtime, pdf, [1], { signal: new AbortController().signal });
      expect(again!.layout.status).toBe('ok');
    } finally {
      await runtime.close();
    }
  });
});
