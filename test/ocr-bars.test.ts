/**
 * Light type on dark bars turned into dark type on paper before recognition (src/ocr/bars.ts), and
 * the strokes of a vertical rule read as "|" left out of the text (src/ocr/page.ts). End to end on
 * fixtures/ocr/bars.pdf (make.mjs): a scanned table whose head row is white type on a mid-blue fill,
 * under a white-on-grey section bar. Needs `npm run build` for the OCR pool.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OCR_FIXTURES, fixturePageGrey, fixtureTruth } from '../test-support/scans.js';
import { findBars, invertBars } from '../src/ocr/bars.js';
import { DEFAULT_PREPROCESS, preprocess } from '../src/ocr/preprocess.js';
import { ParserRuntime } from '../src/runtime/runtime.js';
import { recognizePages } from '../src/ocr/pool.js';
import { ocrPlainText, toPageInput, type OcrLine, type OcrPage, type OcrWord } from '../src/ocr/page.js';
import { cer } from '../test-support/cer.js';
import { createParser } from '../src/parser.js';

const PAPER = 240;

/** A grey page of paper with helpers to lay rectangles of a level on it. */
function page(w: number, h: number) {
  const data = Buffer.alloc(w * h, PAPER);
  const rect = (x0: number, y0: number, x1: number, y1: number, v: number) => {
    for (let y = y0; y < y1; y++) data.fill(v, y * w + x0, y * w + x1);
  };
  /** `n` letter-like marks of level `v` (a stem and a cross stroke, 10 × 20 px) from (x, y). */
  const letters = (x: number, y: number, n: number, v: number) => {
    for (let k = 0; k < n; k++) {
      rect(x + k * 16, y, x + k * 16 + 3, y + 20, v);
      rect(x + k * 16, y + 8, x + k * 16 + 10, y + 11, v);
    }
  };
  return { data, width: w, height: h, rect, letters };
}

describe('bars of light type', () => {
  it('finds a mid-grey bar and a black one carrying light type, and maps their type to ink on paper', () => {
    const p = page(1700, 2200);
    p.rect(180, 400, 1520, 460, 150);
    p.letters(200, 420, 20, 235);
    p.rect(180, 700, 800, 760, 30);
    p.letters(200, 720, 12, 230);
    const bars = findBars(p.data, p.width, p.height, PAPER);
    expect(bars.map((b) => [b.y0, b.y1])).toEqual([
      [400, 459],
      [700, 759],
    ]);
    expect(Math.abs(bars[0]!.level - 150)).toBeLessThan(3);
    expect(bars[0]!.light).toBeGreaterThan(225);
    const out = invertBars(p.data, p.width, p.height, bars, PAPER);
    // The bar's fill is paper, a letter's stem ink; the page round the bars is as it was.
    expect(out[430 * p.width + 700]).toBe(PAPER);
    expect(out[430 * p.width + 201]).toBe(0);
    expect(out[730 * p.width + 201]).toBe(0);
    expect(out[1000 * p.width + 100]).toBe(PAPER);
  });

  it('finds a full-width black bar inside a table frame, with a dark box set under one end of it', () => {
    // A form's "Estimate Totals" bar: light type in the middle of a black bar as wide as the frame,
    // the frame's sides running through it, a dark cell under its right end. Without the lines the
    // bar and the box are one area too ragged to be a bar; the bar is its rows that are mostly dark.
    const p = page(1700, 2200);
    p.rect(213, 1000, 216, 1960, 20);
    p.rect(1418, 1000, 1421, 1960, 20);
    p.rect(213, 1000, 1421, 1003, 20);
    p.rect(213, 1316, 1421, 1360, 12);
    p.letters(700, 1328, 16, 235);
    p.rect(1240, 1360, 1421, 1381, 20);
    const bars = findBars(p.data, p.width, p.height, PAPER);
    expect(bars.map((b) => [b.y0, b.y1])).toEqual([[1316, 1359]]);
  });

  it('finds none in a black box without type, a grey shade with dark type, text, or type printed over itself', () => {
    const p = page(1700, 2200);
    // A black box (a redaction, a chart's bar).
    p.rect(200, 200, 900, 300, 25);
    // A shaded head row with dark type: the shade finder's (src/ocr/fills.ts).
    p.rect(180, 500, 1520, 560, 175);
    p.letters(200, 520, 20, 30);
    // Lines of text.
    for (let k = 0; k < 20; k++) p.letters(180, 800 + k * 40, 60, 30);
    // Type printed over itself: a dark block whose light letter-shaped gaps ("H", 12 × 26 px) run to
    // its top and bottom edges, where a bar's type keeps clear of them. Only that tells it from a bar.
    p.rect(300, 1700, 624, 1726, 30);
    for (let k = 0; k < 17; k++) {
      const x = 304 + k * 18;
      p.rect(x, 1700, x + 2, 1726, 235);
      p.rect(x + 10, 1700, x + 12, 1726, 235);
      p.rect(x, 1711, x + 12, 1713, 235);
    }
    expect(findBars(p.data, p.width, p.height, PAPER)).toEqual([]);
  });

  it('leaves the fixtures without bars exactly as they were preprocessed before', async () => {
    for (const [file, n] of [
      ['scanned.pdf', 1],
      ['table.pdf', 1],
      ['unevenlight.pdf', 1],
    ] as const) {
      const g = await fixturePageGrey(file, n);
      const img = { data: g.data, width: g.width, height: g.height, channels: 1 as const };
      const on = await preprocess(img, DEFAULT_PREPROCESS);
      const off = await preprocess(img, { ...DEFAULT_PREPROCESS, invertBars: false });
      expect(on.bars, `${file} p${n}`).toEqual([]);
      expect(on.image.equals(off.image), `${file} p${n}`).toBe(true);
      expect(on.rules).toEqual(off.rules);
    }
  }, 60000);

  it('finds the section bar and the head row of fixtures/ocr/bars.pdf, once the page is deskewed', async () => {
    const g = await fixturePageGrey('bars.pdf', 1);
    const { bars } = await preprocess(
      { data: g.data, width: g.width, height: g.height, channels: 1 },
      DEFAULT_PREPROCESS,
    );
    expect(bars).toHaveLength(2);
    // The section bar a dark grey, the head row a mid blue, both with white type.
    expect(bars[0]!.level).toBeLessThan(bars[1]!.level);
    for (const b of bars) expect(b.light).toBeGreaterThan(190);
  });
});

describe('a scanned table with white type on a mid-blue head row (fixtures/ocr/bars.pdf)', () => {
  const pdf = readFileSync(path.join(OCR_FIXTURES, 'bars.pdf'));
  const runtime = new ParserRuntime({ ocrThreads: 1 });
  const parser = createParser({ ocrThreads: 1 });
  afterAll(async () => {
    await runtime.close();
    await parser.close();
  });
  // "Depot" is in the title as well.
  const heads = ['Visits', 'Faults', 'Repaired', 'Score'];
  const found = (text: string) => heads.filter((h) => new RegExp(`\\b${h}\\b`).test(text)).length;

  it('reads the head row, which is lost without turning the bars over', async () => {
    const signal = new AbortController().signal;
    const [on] = await recognizePages(runtime, pdf, [1], { signal });
    const [off] = await recognizePages(runtime, pdf, [1], {
      signal,
      preprocess: { ...DEFAULT_PREPROCESS, invertBars: false },
    });
    const truth = fixtureTruth('bars', 1);
    const text = ocrPlainText(on!.page!);
    expect(text).toMatch(/Depot\W+Visits\W+Faults\W+Repaired\W+Score/);
    expect(text).toContain('Section 2: Inspection Results');
    expect(cer(text, truth)).toBeLessThan(0.015);
    // The fill read as paper and its white type with it: 7.8% errors here, "Repaired" the one head word read.
    expect(found(ocrPlainText(off!.page!))).toBeLessThan(2);
  }, 120000);

  it('comes out as a table under its head row', async () => {
    const doc = await parser.parseFile(pdf, { timeout: 100000, parsers: [{ type: 'pdf', mode: 'ocr' }] });
    expect(doc.markdown).toMatch(
      /^\| \**Depot\** \| \**Visits\** \| \**Faults\** \| \**Repaired\** \| \**Score\** \|$/m,
    );
    expect(doc.markdown).toContain('| Harbour Street | 2 | 5 | 4 | 91% |');
  }, 120000);
});

describe('the strokes of a vertical rule read as "|"', () => {
  const ROW = 30;
  /** A line of words at (x, y): each word's left edge given. */
  function line(words: Array<[string, number]>, y: number): OcrLine {
    const out: OcrWord[] = words.map(([text, x]) => ({
      text,
      confidence: 0.9,
      bbox: { x0: x, y0: y, x1: x + (text === '|' ? 4 : text.length * 12), y1: y + ROW },
    }));
    const x0 = out[0]!.bbox.x0;
    const x1 = out[out.length - 1]!.bbox.x1;
    return {
      words: out,
      bbox: { x0, y0: y, x1, y1: y + ROW },
      confidence: 0.9,
      rowHeight: ROW,
      xHeight: 14,
      baseline: { x0, y0: y + 24, x1, y1: y + 24 },
    };
  }
  function pageOf(lines: OcrLine[]): OcrPage {
    const bbox = { x0: 0, y0: 0, x1: 1700, y1: 2200 };
    return {
      pageNumber: 1,
      width: 612,
      height: 792,
      rotation: 0,
      scale: 200 / 72,
      skew: 0,
      confidence: 0.9,
      blocks: [
        { bbox, confidence: 0.9, paragraphs: lines.map((l) => ({ lines: [l], bbox: l.bbox, confidence: 0.9 })) },
      ],
    };
  }

  it('leaves out "|" words stacked in a column, and keeps a "|" written in the text', () => {
    const rows = ['B', 'C', 'D'].map((name, k) =>
      line(
        [
          ['Point', 200],
          [name, 270],
          ['|', 330 + (k % 2)],
          ['87', 360],
        ],
        400 + k * 45,
      ),
    );
    const text = line(
      [
        ['Input', 200],
        ['|', 270],
        ['Output', 284],
      ],
      700,
    );
    const items = toPageInput(pageOf([...rows, text])).items.map((i) => i.text);
    expect(items.filter((t) => t.includes('|'))).toEqual(['Input | Output']);
    // The stroke parts the words either side of it, as a rule does.
    expect(items).toContain('Point B');
    expect(items.filter((t) => t === '87')).toHaveLength(3);
  });

  it('keeps "|" words of two lines that do not stand one over the other', () => {
    const a = line(
      [
        ['left', 200],
        ['|', 260],
        ['right', 274],
      ],
      400,
    );
    const b = line(
      [
        ['up', 200],
        ['|', 234],
        ['down', 248],
      ],
      445,
    );
    const items = toPageInput(pageOf([a, b])).items.map((i) => i.text);
    expect(items).toEqual(['left | right', 'up | down']);
  });
});
