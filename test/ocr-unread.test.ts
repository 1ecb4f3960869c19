/**
 * Text that the page's reading left out, read again on its own (src/ocr/unread.ts): a page of two
 * short list items that tesseract's automatic segmentation reads as empty, and lone lines beside a
 * grid whose rules were taken out. Needs `npm run build` (the OCR pool runs dist/workers/ocr-worker.js).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createParser } from '../src/parser.js';
import { grainFreeLevel, unreadAreas } from '../src/ocr/unread.js';
import type { OcrPage } from '../src/ocr/page.js';
import type { Letters } from '../src/ocr/type-scale.js';
import { typesetScan } from '../test-support/scans.js';

/** Letters of `h` pixels, `w` wide, set `step` apart along a line from (x, y). */
function letterRow(x: number, y: number, n: number, w = 14, h = 20, step = 18): number[] {
  return Array.from({ length: n }, (_, k) => [x + k * step, y, x + k * step + w - 1, y + h - 1]).flat();
}
const lettersOf = (boxes: number[]): Letters => ({ boxes: Int32Array.from(boxes), count: boxes.length / 4 });

/** A page with one recognised word over the box given. */
function pageWith(box: { x0: number; y0: number; x1: number; y1: number }): OcrPage {
  const word = { text: 'Read', bbox: box, confidence: 0.95 };
  const line = { words: [word], bbox: box, confidence: 0.95, rowHeight: 28, xHeight: 14 };
  return {
    pageNumber: 1,
    width: 612,
    height: 792,
    rotation: 0,
    scale: 200 / 72,
    skew: 0,
    confidence: 0.95,
    blocks: [{ bbox: box, confidence: 0.95, paragraphs: [{ bbox: box, confidence: 0.95, lines: [line] }] }],
  };
}

describe('the letters a reading left out', () => {
  it('finds a line of letters no word covers, and not the letters of a word read or a few stray marks', () => {
    const letters = lettersOf([...letterRow(100, 100, 6), ...letterRow(100, 300, 6), ...letterRow(600, 600, 2)]);
    const areas = unreadAreas(letters, pageWith({ x0: 95, y0: 95, x1: 210, y1: 125 }), 1700, 2200);
    expect(areas).toHaveLength(1);
    const a = areas[0]!;
    // The unread line with a margin round it: a line's height above and below, three to the sides.
    expect(a.y0).toBeLessThan(300);
    expect(a.y1).toBeGreaterThan(319);
    expect(a.x0).toBeLessThan(100 - 40);
    expect(a.x1).toBeGreaterThan(100 + 5 * 18 + 14 + 40);
  });

  it('keeps the ink threshold out of the paper grain of a page of little text', () => {
    // Paper at 240 with a grain of 12 levels' standard deviation (seeded); a clean white page.
    const w = 400,
      h = 100;
    let seed = 7;
    const rand = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 0x100000000;
    const grainy = new Uint8Array(w * h).map(() => Math.round(240 + (rand() + rand() + rand() - 1.5) * 24));
    const clean = new Uint8Array(w * h).fill(255);
    expect(grainFreeLevel(grainy, w, h, 236)).toBeLessThan(200);
    expect(grainFreeLevel(clean, w, h, 140)).toBe(140);
  });
});

describe('scanned pages whose reading leaves text out', () => {
  const parser = createParser({ ocrThreads: 1 });
  afterAll(() => parser.close());

  it('reads a page of two list items that automatic segmentation takes for an empty page', async () => {
    const scan = await typesetScan(
      (p, f) => {
        for (const [k, t] of ['Apples', 'Bananas'].entries()) {
          p.drawCircle({ x: 80, y: 720 - k * 16, size: 2 });
          p.drawText(t, { x: 95, y: 716 - k * 16, size: 11, font: f.regular });
        }
      },
      { dpi: 300, blur: 0.3, angle: 0, seed: 3 },
    );
    const md =
      (await parser.parseFile(scan, { timeout: 100000, parsers: [{ type: 'pdf', mode: 'ocr' }] })).markdown ?? '';
    expect(md).toMatch(/^- Apples\n- Bananas$/m);
  }, 120000);

  it('reads the lines above and below a short ruled table', async () => {
    const scan = await typesetScan(
      (p, f) => {
        p.drawText('Above the table', { x: 72, y: 700, size: 11, font: f.regular });
        const cols = [72, 306, 540];
        const rows = [680, 662, 644];
        for (const y of rows) p.drawLine({ start: { x: cols[0]!, y }, end: { x: cols[2]!, y }, thickness: 0.5 });
        for (const x of cols) p.drawLine({ start: { x, y: rows[0]! }, end: { x, y: rows[2]! }, thickness: 0.5 });
        [
          ['Top left', 'Top right'],
          ['Bottom left', 'Bottom right'],
        ].forEach((cells, r) =>
          cells.forEach((t, c) => p.drawText(t, { x: cols[c]! + 4, y: rows[r]! - 13, size: 11, font: f.regular })),
        );
        p.drawText('Below the table', { x: 72, y: 630, size: 11, font: f.regular });
      },
      { angle: 0.4, seed: 5 },
    );
    const md =
      (await parser.parseFile(scan, { timeout: 100000, parsers: [{ type: 'pdf', mode: 'ocr' }] })).markdown ?? '';
    expect(md).toMatch(/^\| Top left \| Top right \|$/m);
    expect(md).toMatch(/^Above the table$/m);
    expect(md).toMatch(/^Below the table$/m);
  }, 120000);
});
