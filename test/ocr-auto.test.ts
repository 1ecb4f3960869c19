/**
 * `auto` and `ocr` modes end to end on the generated mixed PDF (fixtures/ocr/mixed.pdf: native text,
 * a scanned page, native text): auto recognises only the scan; ocr recognises every page; a page
 * whose OCR fails is reported as failed while the others come back; timeout and abort stop OCR.
 * Needs `npm run build` (pools run dist/workers/*.js).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../test-support/corpus.js';
import { createParser } from '../src/parser.js';
import { cer } from '../test-support/cer.js';
import type { ParseDocument } from '../src/types.js';

const FIX = path.join(REPO_ROOT, 'fixtures', 'ocr');
const mixed = readFileSync(path.join(FIX, 'mixed.pdf'));
const scanned = readFileSync(path.join(FIX, 'scanned.pdf'));
const truth = JSON.parse(readFileSync(path.join(FIX, 'mixed.truth.json'), 'utf8')) as {
  page: number;
  scanned: boolean;
  text: string;
}[];

/** A page's block contents as plain text: heading marks dropped (list dashes are in the truth). */
function pageText(doc: ParseDocument, page: number): string {
  const p = doc.blocks!.find((x) => x.pageNumber === page)!;
  return p.items.map((b) => b.content.replace(/^#{1,6} /gm, '')).join('\n');
}

// See test/ocr.test.ts for why 1.5%.
const CER_BOUND = 0.015;

describe('PDF auto and ocr modes', () => {
  const parser = createParser({ ocrThreads: 2 });
  afterAll(() => parser.close());

  it('auto: native text for text pages, OCR only for the scanned page', async () => {
    const doc = await parser.parseFile(mixed, {
      timeout: 100000,
      parsers: [{ type: 'pdf', mode: 'auto', blocks: true, pages: true }],
    });
    const fast = await parser.parseFile(mixed, { parsers: [{ type: 'pdf', mode: 'fast', blocks: true }] });
    expect(doc.blocks!.map((p) => p.status)).toEqual(['ok', 'ok', 'ok']);
    for (const page of doc.blocks!) {
      const scan = truth.find((t) => t.page === page.pageNumber)!.scanned;
      expect(page.items.length).toBeGreaterThan(0);
      for (const b of page.items) {
        if (scan) {
          expect(b.source).toBe('layout_ocr');
          expect(b.confidence.ocr).toBeGreaterThan(0);
          expect(b.confidence.ocr).toBeLessThanOrEqual(1);
        } else {
          expect(b.source).toBe('native_text');
          expect(b.confidence.ocr).toBeNull();
        }
      }
      if (scan) {
        // A clean scan: most text is read with high confidence (single odd marks may be low).
        const chars = page.items.reduce((n, b) => n + b.content.length, 0);
        const mean = page.items.reduce((n, b) => n + (b.confidence.ocr ?? 0) * b.content.length, 0) / chars;
        expect(mean).toBeGreaterThan(0.85);
      } else {
        // The text pages carry exactly the text fast mode reads from the text layer (heading levels
        // may differ: they are decided over the whole document, recognised pages included).
        const f = fast.blocks!.find((p) => p.pageNumber === page.pageNumber)!;
        const strip = (c: string) => c.replace(/^#{1,6} /, '');
        expect(page.items.map((b) => strip(b.content))).toEqual(f.items.map((b) => strip(b.content)));
        expect(page.items.map((b) => b.type)).toEqual(f.items.map((b) => b.type));
      }
    }
    // Fast mode has nothing for the scan.
    expect(fast.blocks![1]!.items).toHaveLength(0);
    const rate = cer(pageText(doc, 2), truth[1]!.text);
    console.log(`mixed.pdf page 2 (auto, OCR): CER ${(rate * 100).toFixed(2)}%`);
    expect(rate).toBeLessThan(CER_BOUND);
    // The scanned page's list comes out as a list and its heading as a heading.
    expect(doc.markdown).toMatch(/^#+ Maintenance Agreement Renewal$/m);
    expect(doc.markdown).toContain('- March: full inspection and filter change\n- June: cooling circuit pressure test');
  });

  it('ocr: every page is recognised, text pages included', async () => {
    const doc = await parser.parseFile(mixed, {
      timeout: 100000,
      parsers: [{ type: 'pdf', mode: 'ocr', blocks: true }],
    });
    expect(doc.blocks!.map((p) => p.status)).toEqual(['ok', 'ok', 'ok']);
    for (const page of doc.blocks!) {
      for (const b of page.items) expect(b.source).toBe('layout_ocr');
      const t = truth.find((x) => x.page === page.pageNumber)!;
      const rate = cer(pageText(doc, page.pageNumber), t.text);
      console.log(`mixed.pdf page ${page.pageNumber} (ocr mode): CER ${(rate * 100).toFixed(2)}%`);
      expect(rate).toBeLessThan(CER_BOUND);
    }
  });

  it('a page whose OCR fails is failed with a message; the other pages still come back', async () => {
    // German is not shipped and no ocrLangPath is given: recognition cannot start.
    const p = createParser({ ocrThreads: 1, ocrLanguages: 'eng+deu' });
    try {
      const doc = await p.parseFile(mixed, { parsers: [{ type: 'pdf', mode: 'auto', blocks: true }] });
      expect(doc.blocks!.map((x) => x.status)).toEqual(['ok', 'failed', 'ok']);
      expect(doc.markdown).toContain('Quarterly Operations Report');
      expect(doc.markdown).toContain('Staffing and Training');
      expect(doc.markdown).not.toContain('Maintenance Agreement');
      expect(JSON.stringify(doc)).toMatch(/ocrLangPath/);
    } finally {
      await p.close();
    }
  });

  it('timeout and AbortSignal stop a parse in the middle of OCR', async () => {
    await expect(
      parser.parseFile(scanned, { timeout: 800, parsers: [{ type: 'pdf', mode: 'ocr' }] }),
    ).rejects.toMatchObject({ code: 'TIMEOUT' });
    const ac = new AbortController();
    const pending = parser.parseFile(scanned, { parsers: [{ type: 'pdf', mode: 'ocr' }] }, { signal: ac.signal });
    setTimeout(() => ac.abort(), 800);
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' });
    // The pool is still usable afterwards.
    const doc = await parser.parseFile(mixed, { parsers: [{ type: 'pdf', mode: 'auto' }] });
    expect(doc.markdown).toContain('Maintenance Agreement Renewal');
  });
});
