/**
 * A page of three narrow justified columns, scanned at 150 dpi (fixtures/ocr/columns-scan.pdf, made by
 * make-columns-scan.mjs from fixtures/pdf/rendered/three-columns.pdf): the laid-out markdown, not only
 * the recognised words, must read as the page does. The stretched spaces of its short justified lines
 * are wider than the gutters; split at them, the pieces were read as columns of their own and put out of
 * order, and the engine's "_" in a wide space went into the text. Needs `npm run build` (the OCR pool
 * runs dist/workers/ocr-worker.js).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createParser } from '../src/parser.js';
import { cer } from '../test-support/cer.js';
import { REPO_ROOT } from '../test-support/corpus.js';
import { plainFromMarkdown } from '../test-support/text-metrics.js';

const FIX = path.join(REPO_ROOT, 'fixtures', 'ocr');
const truth = (JSON.parse(readFileSync(path.join(FIX, 'columns-scan.truth.json'), 'utf8')) as { text: string }[])[0]!
  .text;
const parser = createParser();
afterAll(() => parser.close());

describe('OCR of three narrow justified columns (150 dpi scan)', () => {
  it('reads every paragraph whole and in column order', { timeout: 180_000 }, async () => {
    const doc = await parser.parseFile(
      readFileSync(path.join(FIX, 'columns-scan.pdf')),
      { parsers: [{ type: 'pdf', mode: 'ocr' }] },
      { filename: 'columns-scan.pdf', noTimeout: true },
    );
    const md = doc.markdown ?? '';
    const rate = cer(plainFromMarkdown(md), truth);
    console.log(`columns-scan: CER of the markdown ${(rate * 100).toFixed(2)}%`);
    // Measured 0.08%; with the lines split at their stretched spaces, 6.1%.
    expect(rate).toBeLessThan(0.015);
    expect(md).not.toMatch(/(^|\s)_(\s|$)/);
    const paragraphs = md.split('\n\n');
    for (const line of truth.split('\n').filter((l) => l.split(' ').length > 12))
      expect(paragraphs.some((p) => p.startsWith(line.split(' ').slice(0, 8).join(' ')))).toBe(true);
  });
});
