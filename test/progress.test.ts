/**
 * Progress reported through parseFile's `file.onProgress`: phases in order, pages read growing to the
 * page count, pages sent to OCR; a listener that throws does not fail the parse.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { createParser } from '../src/parser.js';
import type { ParseProgress } from '../src/index.js';

const parser = createParser({ textThreads: 2 });
afterAll(() => parser.close());

async function pdfOf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([300, 400]);
    page.drawText(`Page ${i} of the report`, { x: 30, y: 350, size: 14, font });
    page.drawText('Some body text for the page, long enough to read.', { x: 30, y: 320, size: 9, font });
  }
  return doc.save();
}

const ORDER = ['read', 'ocr', 'assemble', 'redact', 'done'];

function expectOrdered(events: ParseProgress[]): void {
  for (let i = 1; i < events.length; i++) {
    const a = events[i - 1]!;
    const b = events[i]!;
    expect(ORDER.indexOf(b.phase)).toBeGreaterThanOrEqual(ORDER.indexOf(a.phase));
    expect(b.pagesDone).toBeGreaterThanOrEqual(a.pagesDone);
    expect(b.ocrPages).toBeGreaterThanOrEqual(a.ocrPages);
  }
}

describe('file.onProgress', () => {
  it('PDF: pages read grow to the page count as ranges come back, then done', async () => {
    const events: ParseProgress[] = [];
    const doc = await parser.parseFile(
      await pdfOf(40),
      { parsers: [{ type: 'pdf', mode: 'fast' }] },
      {
        onProgress: (p) => events.push(p),
      },
    );
    expectOrdered(events);
    expect(events[0]).toEqual({ phase: 'read', pagesDone: 0, pagesTotal: null, ocrPages: 0 });
    const reading = events.filter((e) => e.phase === 'read' && e.pagesTotal !== null);
    // Several updates while reading: the first range, then the others.
    expect(reading.length).toBeGreaterThan(2);
    expect(reading.every((e) => e.pagesTotal === 40)).toBe(true);
    expect(reading.at(-1)!.pagesDone).toBe(40);
    expect(events.at(-1)).toEqual({ phase: 'done', pagesDone: 40, pagesTotal: 40, ocrPages: 0 });
    expect(doc.metadata.numPages).toBe(40);
  });

  it('maxPages caps the total', async () => {
    const events: ParseProgress[] = [];
    await parser.parseFile(
      await pdfOf(20),
      { parsers: [{ type: 'pdf', mode: 'fast', maxPages: 12 }] },
      {
        onProgress: (p) => events.push(p),
      },
    );
    expect(events.at(-1)).toMatchObject({ phase: 'done', pagesDone: 12, pagesTotal: 12 });
  });

  it('OCR: the pages sent to recognition are counted', async () => {
    const events: ParseProgress[] = [];
    await parser.parseFile(
      await pdfOf(2),
      { timeout: 200000, parsers: [{ type: 'pdf', mode: 'ocr' }] },
      {
        onProgress: (p) => events.push(p),
      },
    );
    expectOrdered(events);
    expect(events.find((e) => e.phase === 'ocr')).toMatchObject({ ocrPages: 2 });
    expect(events.at(-1)).toMatchObject({ phase: 'done', ocrPages: 2, pagesDone: 2 });
  }, 240_000);

  it('formats without pages: read, then done; redaction is a phase of its own', async () => {
    const events: ParseProgress[] = [];
    await parser.parseFile(
      new TextEncoder().encode('<p>Hello</p>'),
      { redactPII: { mode: 'fast' } },
      {
        filename: 'a.html',
        onProgress: (p) => events.push(p),
      },
    );
    expect(events.map((e) => e.phase)).toEqual(['read', 'redact', 'done']);
  });

  it('a listener that throws does not fail the parse', async () => {
    const doc = await parser.parseFile(
      new TextEncoder().encode('<p>Hello</p>'),
      {},
      {
        filename: 'a.html',
        onProgress: () => {
          throw new Error('display broke');
        },
      },
    );
    expect(doc.markdown).toContain('Hello');
  });
});
