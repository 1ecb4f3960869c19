/**
 * "Do no harm" (src/ocr/plain-reading.ts): where the processed reading of a page is doubtful, the plain
 * grey render is read too and the reading with more confident dictionary words kept. The choice on
 * engine output made up here, then on a real page where the processing reads worse than the plain
 * render: a two-column page (unstructured/invalid-pdf-structure-pdfminer-one-page.pdf) scanned in colour at
 * 300 dpi by the scan set generator
 * (test-support/scan-set.ts, made from the corpus into .cache/scan-set/). The pages are read in this
 * process by the OCR pool thread's own page reader; it needs `npm run build` for tesseract's thread script.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dictionaryWord, evidenceOf, isDoubtful, plainReadsBetter } from '../src/ocr/plain-reading.js';
import type { OcrPage, OcrWord } from '../src/ocr/ocr-page.js';
import { ocrPlainText } from '../src/ocr/page.js';
import { ocrPageReader } from '../src/ocr/page-reader.js';
import { DEFAULT_PREPROCESS } from '../src/ocr/preprocess.js';
import { DEFAULT_RENDER } from '../src/ocr/render.js';
import type { OcrTask, OcrTaskResult } from '../src/ocr/protocol.js';
import { corpusAvailable, CORPUS_SKIP_MESSAGE, REPO_ROOT } from '../test-support/corpus.js';
import { buildScanSet, SOURCE_PAGES } from '../test-support/scan-set.js';
import { bagSimilarity, cer, plainFromMarkdown } from '../test-support/text-metrics.js';
import { renderNode } from '../src/markdown/serialize.js';

/** A page of one line holding `words`, each [text, confidence]. */
function pageOf(words: Array<[string, number]>): OcrPage {
  const ws: OcrWord[] = words.map(([text, confidence], i) => ({
    text,
    confidence,
    bbox: { x0: i * 60, y0: 0, x1: i * 60 + 50, y1: 20 },
  }));
  const bbox = { x0: 0, y0: 0, x1: words.length * 60, y1: 20 };
  const line = { words: ws, bbox, confidence: 0.9, rowHeight: 20, xHeight: 10 };
  return {
    pageNumber: 1,
    width: 612,
    height: 792,
    rotation: 0,
    scale: 300 / 72,
    skew: 0,
    blocks: [{ paragraphs: [{ lines: [line], bbox, confidence: 0.9 }], bbox, confidence: 0.9 }],
    confidence: 0.9,
  };
}

const SENTENCE = 'The screws hold the frame , and the force on each of them is 120 N at most .'.split(' ');

describe('the choice between the processed and the plain reading', () => {
  it('counts words the dictionary knows and numbers, not misreads or stray marks', () => {
    expect(['screws', 'Force,', '(the', '120', '3.5%', 'a', 'I'].every(dictionaryWord)).toBe(true);
    expect(['serews', 'foree', 'theframe', '|', '.', 'x', '--'].some(dictionaryWord)).toBe(false);
  });

  it('keeps a confident reading without looking further', () => {
    const read = evidenceOf(pageOf(SENTENCE.map((w) => [w, 0.95])));
    expect(read.words).toBe(SENTENCE.length);
    expect(read.confidence).toBeCloseTo(0.95);
    expect(isDoubtful(read)).toBe(false);
  });

  it('doubts a reading of low confidence, of broken words, or of next to nothing', () => {
    expect(isDoubtful(evidenceOf(pageOf(SENTENCE.map((w) => [w, 0.8]))))).toBe(true);
    // Confident, but half of it is not words: "serews", "foree", words run together.
    const broken = SENTENCE.map((w, i): [string, number] => [i % 2 ? `${w}xq` : w, 0.95]);
    expect(isDoubtful(evidenceOf(pageOf(broken)))).toBe(true);
    expect(isDoubtful(evidenceOf(pageOf([['Total', 0.96]])))).toBe(true);
  });

  it('takes the plain reading only when it has more confident dictionary words', () => {
    const processed = evidenceOf(
      pageOf([
        ['The', 0.9],
        ['serews', 0.6],
        ['hold', 0.9],
        ['theframe', 0.5],
      ]),
    );
    const plain = evidenceOf(
      pageOf([
        ['The', 0.9],
        ['screws', 0.85],
        ['hold', 0.9],
        ['the', 0.8],
        ['frame', 0.8],
      ]),
    );
    expect(plainReadsBetter(processed, plain)).toBe(true);
    expect(plainReadsBetter(plain, processed)).toBe(false);
    // More words, but less sure of them: noise read as words does not win.
    const noisy = evidenceOf(
      pageOf([
        ['The', 0.3],
        ['screws', 0.3],
        ['hold', 0.3],
        ['the', 0.3],
        ['frame', 0.3],
      ]),
    );
    expect(plainReadsBetter(processed, noisy)).toBe(false);
    // A tie keeps the processed reading.
    expect(plainReadsBetter(processed, processed)).toBe(false);
  });
});

describe.skipIf(!corpusAvailable)(
  `the plain reading on a scan the processing reads worse${corpusAvailable ? '' : ` (${CORPUS_SKIP_MESSAGE})`}`,
  () => {
    const read = ocrPageReader(`${REPO_ROOT}/dist/workers/ocr-tesseract.js`);
    const task = (bytes: Uint8Array, plainCheck: boolean): OcrTask => ({
      docKey: `${plainCheck}`,
      bytes,
      pageNumber: 1,
      render: DEFAULT_RENDER,
      preprocess: DEFAULT_PREPROCESS,
      languages: 'eng',
      recycleAfter: 50,
      plainCheck,
      // The whole-page choice against the processed reading as it was: without the plain lines a doubtful
      // page now takes in by default (src/ocr/plain-regions.ts, test/ocr-plain-lines.test.ts).
      plainLines: false,
    });
    const ok = (r: OcrTaskResult): OcrTaskResult & { ok: true } => {
      if (!r.ok) throw new Error(r.error);
      return r;
    };

    it('reads the plain render of a doubtful two-column page, keeps it, and reads closer to the truth', async () => {
      const source = SOURCE_PAGES.find((p) => p.file === 'unstructured/invalid-pdf-structure-pdfminer-one-page.pdf')!;
      const scan = (await buildScanSet([source])).find((s) => s.dpi === 300)!;
      const bytes = new Uint8Array(readFileSync(scan.pdf));
      const processed = ok(await read(task(bytes, false)));
      const chosen = ok(await read(task(bytes, true)));
      // The processed reading is doubtful by the engine's own report (mean word confidence 0.90 here).
      expect(isDoubtful(evidenceOf(processed.page))).toBe(true);
      expect(processed.page.plain).toBeUndefined();
      expect(chosen.page.plain).toBe(true);
      expect(chosen.page.skew).toBe(0);
      // The processed reading and the plain one at least (the areas each leaves out are read again after
      // the choice, so the totals differ from page to page).
      expect(chosen.readings).toBeGreaterThanOrEqual(2);
      // Closer to the born-digital text: in characters, and in words whatever their order.
      const before = ocrPlainText(processed.page);
      const after = ocrPlainText(chosen.page);
      expect(cer(after, scan.truth)).toBeLessThan(cer(before, scan.truth));
      expect(bagSimilarity(after, scan.truth)).toBeGreaterThan(bagSimilarity(before, scan.truth));
      // The plain reading is laid out in the engine's own order, one paragraph block per paragraph it
      // read (no tables, no columns rebuilt from its tilted words), and its markdown reads closer to the
      // truth than the processed reading's laid-out markdown.
      const markdown = (r: OcrTaskResult & { ok: true }) =>
        plainFromMarkdown(r.layout.blocks.map((b) => renderNode(b.block.node)).join('\n\n'));
      expect(chosen.layout.blocks.every((b) => b.block.label === 'ocr_paragraph')).toBe(true);
      expect(cer(markdown(chosen), scan.truth)).toBeLessThan(cer(markdown(processed), scan.truth));
    }, 400_000);

    it('reads a confident page once: the check costs it nothing', async () => {
      const source = SOURCE_PAGES.find((p) => p.file === 'markitdown/test.pdf')!;
      const scan = (await buildScanSet([source])).find((s) => s.dpi === 300)!;
      const bytes = new Uint8Array(readFileSync(scan.pdf));
      const processed = ok(await read(task(bytes, false)));
      const chosen = ok(await read(task(bytes, true)));
      expect(isDoubtful(evidenceOf(processed.page))).toBe(false);
      expect(chosen.page.plain).toBeUndefined();
      expect(chosen.readings).toBe(processed.readings);
      expect(ocrPlainText(chosen.page)).toBe(ocrPlainText(processed.page));
    }, 400_000);
  },
);
