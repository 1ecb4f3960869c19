/**
 * Small type for the resolution tesseract is told: its rule finder erases lines of it, and the page
 * is read again at a resolution that keeps them (src/ocr/type-scale.ts). Needs `npm run build` (the
 * OCR pool runs dist/workers/ocr-worker.js).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS_SKIP_MESSAGE, corpusAvailable, readCorpus, REPO_ROOT } from '../test-support/corpus.js';
import { ParserRuntime } from '../src/runtime/runtime.js';
import { recognizePages } from '../src/ocr/pool.js';
import { ocrPlainText } from '../src/ocr/page.js';
import { cer } from '../test-support/cer.js';
import { createParser } from '../src/parser.js';
import type { HocrBlock, HocrLine } from '../src/ocr/hocr.js';
import {
  bodyXHeight,
  erasedText,
  firstDpi,
  imageXHeight,
  readingWeight,
  rereadDpi,
  scaleFor,
} from '../src/ocr/type-scale.js';
import { openForRender, pageImageForOcr } from '../src/ocr/render.js';
import { PdfObjects } from '../src/pdf/pdf-objects.js';
import { DEFAULT_PREPROCESS, otsuLevel, preprocess } from '../src/ocr/preprocess.js';

const FIX = path.join(REPO_ROOT, 'fixtures', 'ocr');

function line(text: string, rowHeight: number, ascenders: number, descenders: number, confidence = 90): HocrLine {
  const box = { x0: 0, y0: 0, x1: 10, y1: 10 };
  return {
    bbox: box,
    confidence,
    rowAttributes: { rowHeight, ascenders, descenders },
    baseline: null,
    words: text.split(' ').map((t) => ({ text: t, bbox: box, confidence })),
  };
}
function page(lines: HocrLine[]): HocrBlock[] {
  const box = { x0: 0, y0: 0, x1: 10, y1: 10 };
  return [{ bbox: box, confidence: 90, paragraphs: [{ bbox: box, confidence: 90, lines }] }];
}

describe('type scale', () => {
  it('takes the body x-height as the median over characters, heading lines aside', () => {
    const body = 'the quick brown fox jumps over the lazy dog and runs on'.repeat(2);
    // Body rows 21 px high with 5 px ascenders and 4 px descenders: x-height 12 px.
    const blocks = page([
      line('A Large Title', 54, 13, 13),
      line(body, 21, 5, 4),
      line(body, 21, 5, 4),
      line(body, 20, 3, 5),
    ]);
    expect(bodyXHeight(blocks)).toBe(12);
    expect(bodyXHeight(page([line('too few', 21, 5, 4)]))).toBeNull();
  });

  it("reads again only where the x-height is under tesseract's thin-rule limit with a margin", () => {
    // 12 px at a declared 300 dpi (limit 15 px): read again at 12 * 20 / 1.3 = 185 dpi.
    expect(rereadDpi(300, 12)).toBe(185);
    // 11 pt text at 300 dpi (x-height about 24 px) and at 200 dpi (about 16 px) stand.
    expect(rereadDpi(300, 24)).toBeNull();
    expect(rereadDpi(200, 16)).toBeNull();
    // Never below half the declared resolution.
    expect(rereadDpi(300, 4)).toBe(150);
    expect(rereadDpi(300, null)).toBeNull();
  });

  it('tells a line of type the rule finder took out from a printed rule by its thickness', () => {
    // Small type (x-height 12 px): a bar 13 px thick is a line of it closed into a rule; 2-5 px are rules.
    expect(erasedText([{ x0: 100, y0: 400, x1: 440, y1: 413 }], 12)).toBe(true);
    expect(
      erasedText(
        [
          { x0: 100, y0: 400, x1: 1500, y1: 402 },
          { x0: 100, y0: 500, x1: 600, y1: 505 },
        ],
        12,
      ),
    ).toBe(false);
    // Vertical separators (a column rule) say nothing about lines of type.
    expect(erasedText([{ x0: 800, y0: 100, x1: 812, y1: 900 }], 12)).toBe(false);
    expect(erasedText([], 12)).toBe(false);
    expect(erasedText([{ x0: 100, y0: 400, x1: 440, y1: 413 }], null)).toBe(false);
  });

  it('weighs a reading by its characters and their confidence', () => {
    expect(readingWeight(page([line('damage fourteen', 30, 5, 4, 90)]))).toBeGreaterThan(
      readingWeight(page([line('di ge f', 30, 5, 4, 90)])),
    );
  });
});

/**
 * A white page with letter-like shapes of the given sizes (w × h each: a ring two pixels thick, as
 * an "o" is drawn), or filled specks, set in rows like letters.
 */
function blocksPage(sizes: Array<[number, number, number] | [number, number, number, 'filled']>): {
  grey: Uint8Array;
  width: number;
  height: number;
} {
  const width = 1200;
  const height = 1600;
  const grey = new Uint8Array(width * height).fill(245);
  let x = 10;
  let y = 10;
  for (const [count, w, h, filled] of sizes) {
    for (let i = 0; i < count; i++) {
      if (x + w + 10 > width) {
        x = 10;
        y += 30;
      }
      const top = y + (20 - h);
      for (let r = top; r < y + 20; r++) {
        for (let c = x; c < x + w; c++) {
          const edge = r < top + 2 || r >= y + 18 || c < x + 2 || c >= x + w - 2;
          if (filled || edge) grey[r * width + c] = 20;
        }
      }
      x += w + 4;
    }
  }
  return { grey, width, height };
}

describe('x-height from the image, before any reading', () => {
  it('takes the commonest height of letter-shaped ink', () => {
    // 400 x-height letters (10 × 12), 150 ascenders and capitals (10 × 17), 300 dots (4 × 5).
    const p = blocksPage([
      [400, 10, 12],
      [150, 10, 17],
      [300, 4, 5],
    ]);
    expect(imageXHeight(p.grey, p.width, p.height, 128)?.xHeight).toBe(12);
  });

  it('where letters of the x-height touch, takes the lower peak under the tall letters', () => {
    // Only 200 x-height letters stand alone (the rest merged into words: too wide to vote), against
    // 350 ascenders and capitals.
    const p = blocksPage([
      [200, 10, 12],
      [350, 10, 17],
      [60, 60, 12],
    ]);
    expect(imageXHeight(p.grey, p.width, p.height, 128)?.xHeight).toBe(12);
  });

  it('says nothing of a page with a handful of letters, and too little of a page with few for a reading at another resolution', () => {
    const none = blocksPage([
      [20, 10, 12],
      [8, 10, 17],
    ]);
    expect(imageXHeight(none.grey, none.width, none.height, 128)).toBeNull();
    const few = blocksPage([
      [60, 10, 12],
      [20, 10, 17],
    ]);
    const estimate = imageXHeight(few.grey, few.width, few.height, 128);
    expect(estimate?.xHeight).toBe(12);
    // 12 px at 300 dpi would be read at 185 dpi, but not on 60 letters' word.
    expect(firstDpi(300, estimate)).toBe(300);
    const many = blocksPage([
      [400, 10, 12],
      [150, 10, 17],
    ]);
    expect(firstDpi(300, imageXHeight(many.grey, many.width, many.height, 128))).toBe(185);
  });

  it('scales large type down to the size tesseract reads best, and leaves other type as it is', () => {
    // An x-height of 50 px (capitals about 70 px, a table set large and scanned at 264 dpi) to 28 px.
    expect(scaleFor({ xHeight: 50, votes: 100 })).toBeCloseTo(0.56, 2);
    expect(scaleFor({ xHeight: 21, votes: 5000 })).toBe(1);
    expect(scaleFor({ xHeight: 40, votes: 5000 })).toBe(1);
    // Tiny type is read as it is (scaling it up raised the error rate, see type-scale.ts).
    expect(scaleFor({ xHeight: 8, votes: 5000 })).toBe(1);
    expect(scaleFor(null)).toBe(1);
  });

  it('gives up past a bound on components, so a page of noise cannot take its memory', () => {
    // The bound is 400,000 components (a page of text has some thousands); here it is lowered to
    // show the page of 550 letters going without an estimate past it.
    const p = blocksPage([
      [400, 10, 12],
      [150, 10, 17],
    ]);
    expect(imageXHeight(p.grey, p.width, p.height, 128, 1000)?.xHeight).toBe(12);
    expect(imageXHeight(p.grey, p.width, p.height, 128, 500)).toBeNull();
  });

  it('takes a speck of noise for no letter', () => {
    // 300 letters of an x-height of 14 px among 900 filled specks 6 px high.
    const p = blocksPage([
      [900, 6, 6, 'filled'],
      [300, 10, 14],
    ]);
    expect(imageXHeight(p.grey, p.width, p.height, 128)?.xHeight).toBe(14);
  });

  it('agrees with the x-height tesseract measures on scanned fixtures', async () => {
    // Tesseract's own measurements on these pages (bodyXHeight of their readings): 17 px at 200 dpi
    // for scanned.pdf page 1, 13 px at a declared 300 dpi for smallprint.pdf.
    for (const [file, expected] of [
      ['scanned.pdf', 17],
      ['smallprint.pdf', 13],
    ] as const) {
      const bytes = new Uint8Array(readFileSync(path.join(FIX, file)));
      const doc = await openForRender(bytes.slice());
      try {
        const r = await pageImageForOcr(doc, new PdfObjects(bytes), 1);
        const pre = await preprocess(
          { data: r.data, width: r.width, height: r.height, channels: r.channels },
          DEFAULT_PREPROCESS,
        );
        const px = pre.pixels;
        expect(
          Math.abs(imageXHeight(px.data, px.width, px.height, otsuLevel(px.data))!.xHeight - expected),
          file,
        ).toBeLessThanOrEqual(1);
      } finally {
        await doc.loadingTask.destroy();
      }
    }
  });
});

describe('small print scanned at 200 dpi on a page that declares 300 (fixtures/ocr/smallprint.pdf)', () => {
  const runtime = new ParserRuntime({ ocrThreads: 1 });
  afterAll(() => runtime.close());

  it('is read once, at a resolution its type calls for, and keeps the words the rule finder would cut out', async () => {
    const bytes = readFileSync(path.join(FIX, 'smallprint.pdf'));
    const truth = JSON.parse(readFileSync(path.join(FIX, 'smallprint.truth.json'), 'utf8')) as {
      page: number;
      text: string;
    }[];
    const [r] = await recognizePages(runtime, bytes, [1], { signal: new AbortController().signal });
    const text = ocrPlainText(r!.page!);
    // Read at the declared 300 dpi, "damage", "fourteen" and "consignee" lost letters to the rule
    // finder ("visible di ge and within f days"): CER 1.13%. Read at 200 dpi (x-height 13 px seen in
    // the image before reading, 13 × 20 / 1.3): 0.07%, with no second reading.
    expect(r!.readings).toBe(1);
    expect(r!.dpi).toBe(200);
    expect(text).toContain('visible damage and within fourteen days for damage');
    expect(text).toContain('refused by the consignee');
    expect(cer(text, truth[0]!.text)).toBeLessThan(0.005);
  });

  it('a heading tesseract put into the paragraph under it keeps its size, and is a heading', async () => {
    const parser = createParser({ ocrThreads: 1 });
    try {
      const doc = await parser.parseFile(readFileSync(path.join(FIX, 'smallprint.pdf')), {
        timeout: 100000,
        parsers: [{ type: 'pdf', mode: 'ocr' }],
      });
      // "Liability" (10.9 pt bold over 8 pt text) came in one paragraph with the text under it, and
      // took the paragraph's size.
      expect(doc.markdown).toMatch(/^#+ Liability$/m);
      expect(doc.markdown).toMatch(/^#+ Charges$/m);
    } finally {
      await parser.close();
    }
  });

  it('pages of ordinary type at their own resolution are read once', async () => {
    const [r] = await recognizePages(runtime, readFileSync(path.join(FIX, 'scanned.pdf')), [1], {
      signal: new AbortController().signal,
    });
    expect(r!.readings).toBe(1);
    expect(r!.dpi).toBe(200);
  });
});

describe('fine print scanned at 200 dpi (fixtures/ocr/tinyprint.pdf)', () => {
  const runtime = new ParserRuntime({ ocrThreads: 1 });
  afterAll(() => runtime.close());

  it('is read once, as scanned, at its own resolution', async () => {
    // 5.5 pt type, an x-height of about 9 px. Scaled up 1.3-2 times before reading, the same page
    // read at 15-24% CER (src/ocr/type-scale.ts); as scanned, about 1.3%.
    const truth = JSON.parse(readFileSync(path.join(FIX, 'tinyprint.truth.json'), 'utf8')) as {
      page: number;
      text: string;
    }[];
    // The type scale's own cost: without the plain render a doubtful page reads too (plain-regions.ts).
    const [r] = await recognizePages(runtime, readFileSync(path.join(FIX, 'tinyprint.pdf')), [1], {
      signal: new AbortController().signal,
      plainLines: false,
    });
    expect(r!.readings).toBe(1);
    expect(r!.dpi).toBe(200);
    expect(cer(ocrPlainText(r!.page!), truth[0]!.text)).toBeLessThan(0.03);
  });
});

describe.skipIf(!corpusAvailable)(
  `a typed letter scanned at 150 dpi on a page that declares 300${corpusAvailable ? '' : ` (${CORPUS_SKIP_MESSAGE})`}`,
  () => {
    const runtime = new ParserRuntime({ ocrThreads: 1 });
    afterAll(() => runtime.close());

    it('has type small for the resolution told, but no line of it was taken out: it is read once', async () => {
      // unstructured/pdf-with-ocr-text.pdf: x-height 14 px at a declared 300 dpi (under 15 × 1.3 × 0.85),
      // and tesseract reports no separator as thick as its type. It used to be read twice, to the same text.
      // The type scale's own cost: without the plain render a doubtful page reads too (plain-regions.ts;
      // this letter reads at a mean confidence of 0.66).
      const [r] = await recognizePages(runtime, readCorpus('unstructured', 'pdf-with-ocr-text.pdf'), [1], {
        signal: new AbortController().signal,
        plainLines: false,
      });
      expect(r!.readings).toBe(1);
      expect(ocrPlainText(r!.page!)).toContain('A letter from The Amalgamated Sugar Company');
    });
  },
);
