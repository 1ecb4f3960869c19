/**
 * Scanned tables: ruling lines found in the pixels and taken out of the image tesseract reads
 * (src/ocr/rules.ts), shaded areas turned to paper white (src/ocr/fills.ts), and, end to end, a
 * scanned ruled table with a shaded head row (fixtures/ocr/table.pdf) read as a table. Needs
 * `npm run build` for the end-to-end part (the OCR pool runs dist/workers/ocr-worker.js).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS_SKIP_MESSAGE, corpusAvailable, readCorpus, REPO_ROOT } from '../test-support/corpus.js';
import { cer } from '../test-support/cer.js';
import { removeRules } from '../src/ocr/rules.js';
import { fillLevels, greyHistogram, shadeIsArea } from '../src/ocr/fills.js';
import { otsuLevel, DEFAULT_PREPROCESS } from '../src/ocr/preprocess.js';
import { createParser } from '../src/parser.js';
import { ParserRuntime } from '../src/runtime/runtime.js';
import { recognizePages } from '../src/ocr/pool.js';
import { ocrPlainText, type OcrPage } from '../src/ocr/page.js';
import { rereadGridCells } from '../src/ocr/cells.js';
import type { HocrBlock } from '../src/ocr/hocr.js';
import { typesetScan } from '../test-support/scans.js';

const PAPER = 245;

/** A grey page of `w` × `h` pixels of paper, with helpers to lay ink on it. */
function page(w: number, h: number) {
  const data = Buffer.alloc(w * h, PAPER);
  const rect = (x0: number, y0: number, x1: number, y1: number, v: number) => {
    for (let y = y0; y < y1; y++) data.fill(v, y * w + x0, y * w + x1);
  };
  return {
    img: { data, width: w, height: h, channels: 1 as const },
    rect,
    at: (x: number, y: number) => data[y * w + x]!,
  };
}

/** Letter-like blobs: short strokes, each far shorter than a rule. */
function words(
  rect: (x0: number, y0: number, x1: number, y1: number, v: number) => void,
  x: number,
  y: number,
  n: number,
) {
  for (let k = 0; k < n; k++) {
    rect(x + k * 14, y, x + k * 14 + 3, y + 20, 20);
    rect(x + k * 14, y + 8, x + k * 14 + 10, y + 11, 20);
  }
}

describe('ruling lines in a scanned page', () => {
  it('takes out the rules of a grid and reports them; leaves text, a lone underline and a filled block', () => {
    const { img, rect, at } = page(1000, 1200);
    // A 4-column, 4-row grid of 3-pixel rules.
    const xs = [100, 300, 500, 700, 900];
    const ys = [200, 260, 320, 380, 440];
    for (const y of ys) rect(100, y, 903, y + 3, 30);
    for (const x of xs) rect(x, 200, x + 3, 443, 30);
    for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) words(rect, xs[c]! + 15, ys[r]! + 20, 5);
    // An underlined heading, and a black bar 40 pixels thick, both as long as the grid.
    words(rect, 100, 600, 20);
    rect(100, 625, 900, 628, 30);
    rect(100, 800, 900, 840, 10);
    const { image, rules } = removeRules(img, otsuLevel(img.data), PAPER);
    const horizontal = rules.filter((r) => r.y0 === r.y1);
    const vertical = rules.filter((r) => r.x0 === r.x1);
    expect(horizontal.map((r) => Math.round(r.y0)).sort((a, b) => a - b)).toEqual(ys.map((y) => y + 2));
    expect(vertical.map((r) => Math.round(r.x0)).sort((a, b) => a - b)).toEqual(xs.map((x) => x + 2));
    for (const r of horizontal) expect(r.x1 - r.x0).toBeGreaterThan(780);
    // The rules are paper now; the letters inside the cells, the underline and the bar are not.
    const out = (x: number, y: number) => image.data[y * 1000 + x]!;
    expect(out(400, 201)).toBe(PAPER);
    expect(out(301, 350)).toBe(PAPER);
    expect(out(116, 230)).toBe(20);
    expect(out(500, 626)).toBe(30);
    expect(out(500, 820)).toBe(10);
    // The input is not changed.
    expect(at(400, 201)).toBe(30);
  });

  it('leaves a page without a grid as it is: a plain box around a paragraph is no grid', () => {
    const { img, rect } = page(1000, 1200);
    rect(100, 200, 900, 203, 30);
    rect(100, 500, 900, 503, 30);
    rect(100, 200, 103, 503, 30);
    rect(897, 200, 900, 503, 30);
    words(rect, 120, 300, 40);
    const { image, rules } = removeRules(img, otsuLevel(img.data), PAPER);
    expect(rules).toEqual([]);
    expect(image).toBe(img);
  });
});

describe('the rules of a short table', () => {
  it('takes a framed grid of two rows whose vertical rules are shorter than a tenth of the page', () => {
    const { img, rect } = page(1000, 1200);
    // Rows of 40 pixels: the vertical rules are 83 long, under the 100 a long rule needs here.
    const xs = [100, 400, 900];
    const ys = [200, 240, 280];
    for (const y of ys) rect(100, y, 903, y + 3, 30);
    for (const x of xs) rect(x, 200, x + 3, 283, 30);
    for (const y of ys.slice(0, 2)) for (const x of xs.slice(0, 2)) words(rect, x + 15, y + 10, 8);
    const { rules } = removeRules(img, otsuLevel(img.data), PAPER);
    expect(rules.filter((r) => r.y0 === r.y1).map((r) => Math.round(r.y0))).toEqual(ys.map((y) => y + 2));
    expect(
      rules
        .filter((r) => r.x0 === r.x1)
        .map((r) => Math.round(r.x0))
        .sort((a, b) => a - b),
    ).toEqual(xs.map((x) => x + 2));
  });

  it('takes no tall letters standing between two underlined lines for the rules of a grid', () => {
    const { img, rect } = page(1000, 1200);
    // Two underlined lines set tight: the second line's ascenders run from the first underline to
    // its own, as tall as a short table's rules.
    rect(100, 300, 900, 303, 30);
    rect(100, 340, 900, 343, 30);
    for (let k = 0; k < 12; k++) rect(130 + k * 60, 303, 133 + k * 60, 340, 20);
    words(rect, 120, 270, 40);
    const { image, rules } = removeRules(img, otsuLevel(img.data), PAPER);
    expect(rules).toEqual([]);
    expect(image).toBe(img);
  });
});

describe('shaded areas in a scanned page', () => {
  it('finds a shaded head row as a shade laid as an area, with the level where its tones begin', () => {
    const { img, rect } = page(1000, 1200);
    rect(100, 200, 900, 260, 175);
    words(rect, 120, 220, 30);
    words(rect, 120, 400, 40);
    const levels = fillLevels(greyHistogram(img.data));
    expect(levels.paper).toBe(PAPER);
    expect(levels.shade).toBeGreaterThanOrEqual(170);
    expect(levels.shade).toBeLessThanOrEqual(180);
    expect(levels.white).toBeLessThan(170);
    expect(levels.white).toBeGreaterThan(20);
    expect(shadeIsArea(img.data, img.width, img.height, levels.shade!)).toBe(true);
  });

  it('finds no shade on a page of text, and takes grey rules for no area', () => {
    const { img, rect } = page(1000, 1200);
    for (let k = 0; k < 30; k++) words(rect, 100, 100 + k * 30, 50);
    expect(fillLevels(greyHistogram(img.data)).shade).toBeNull();
    // Blurred grey rules make a peak of their own in the histogram, but no area.
    for (let k = 0; k < 20; k++) rect(100, 100 + k * 50 + 25, 900, 100 + k * 50 + 27, 170);
    const levels = fillLevels(greyHistogram(img.data));
    expect(levels.shade === null || !shadeIsArea(img.data, img.width, img.height, levels.shade)).toBe(true);
  });
});

describe('doubtful cells of a scanned grid read again', () => {
  /** A 3 × 2 grid of 200 × 100 pixel cells with the given words (text, confidence, x, y). */
  function gridPage(words: Array<[string, number, number, number]>): OcrPage {
    const rules = [
      ...[100, 200, 300].map((y) => ({ x0: 100, x1: 700, y0: y, y1: y, thickness: 3 })),
      ...[100, 300, 500, 700].map((x) => ({ x0: x, x1: x, y0: 100, y1: 300, thickness: 3 })),
    ];
    const line = (t: string, c: number, x: number, y: number) => ({
      words: [{ text: t, confidence: c, bbox: { x0: x, y0: y, x1: x + 20 * t.length, y1: y + 30 } }],
      bbox: { x0: x, y0: y, x1: x + 20 * t.length, y1: y + 30 },
      confidence: c,
      rowHeight: 30,
      xHeight: 16,
    });
    return {
      pageNumber: 1,
      width: 600,
      height: 800,
      rotation: 0,
      scale: 1,
      skew: 0,
      confidence: 0.8,
      rules,
      blocks: words.map(([t, c, x, y]) => ({
        bbox: { x0: x, y0: y, x1: x + 20, y1: y + 30 },
        confidence: c,
        paragraphs: [{ bbox: { x0: x, y0: y, x1: x + 20, y1: y + 30 }, confidence: c, lines: [line(t, c, x, y)] }],
      })),
    };
  }
  const reading = (text: string, confidence: number): HocrBlock[] => [
    {
      bbox: { x0: 12, y0: 12, x1: 40, y1: 40 },
      confidence,
      paragraphs: [
        {
          bbox: { x0: 12, y0: 12, x1: 40, y1: 40 },
          confidence,
          lines: [
            {
              bbox: { x0: 12, y0: 12, x1: 40, y1: 40 },
              confidence,
              baseline: null,
              rowAttributes: { rowHeight: 28, ascenders: 6, descenders: 6 },
              words: [{ text, confidence, bbox: { x0: 12, y0: 12, x1: 40, y1: 40 } }],
            },
          ],
        },
      ],
    },
  ];
  const texts = (page: OcrPage) =>
    page.blocks.flatMap((b) => b.paragraphs.flatMap((p) => p.lines.flatMap((l) => l.words.map((w) => w.text))));

  it('replaces a doubtful short value when the cell alone reads surer, and leaves confident cells unread', async () => {
    const { img, rect } = page(800, 400);
    rect(380, 140, 400, 170, 20);
    const p = gridPage([
      ['Name', 0.96, 120, 130],
      ['ie)', 0.4, 380, 140],
      ['Total', 0.95, 520, 130],
    ]);
    const n = await rereadGridCells(p, img, PAPER, async () => reading('0', 93));
    expect(n).toBe(1);
    expect(texts(p)).toEqual(['Name', '0', 'Total']);
  });

  it('keeps the old reading when the second is no surer, and reads an inked cell where nothing was read', async () => {
    const { img, rect } = page(800, 400);
    // Ink in the empty cell of the second row, middle column.
    rect(380, 230, 420, 260, 20);
    const p = gridPage([
      ['Name', 0.96, 120, 130],
      ['ie)', 0.4, 380, 140],
    ]);
    let call = 0;
    const n = await rereadGridCells(p, img, PAPER, async () =>
      call++ === 0 ? reading('ie', 30) : reading('95.4%', 91),
    );
    expect(n).toBe(2);
    expect(texts(p)).toEqual(['Name', 'ie)', '95.4%']);
  });
});

describe('a scanned ruled table with a shaded head row (fixtures/ocr/table.pdf)', () => {
  const pdf = readFileSync(path.join(REPO_ROOT, 'fixtures', 'ocr', 'table.pdf'));
  const parser = createParser({});
  const runtime = new ParserRuntime({});
  afterAll(async () => {
    await parser.close();
    await runtime.close();
  });

  it('comes out as a table with its head row and the figures of its cells', async () => {
    const doc = await parser.parseFile(pdf, { timeout: 100000, parsers: [{ type: 'pdf', mode: 'ocr', blocks: true }] });
    const md = doc.markdown!;
    expect(md).toContain('| **Group** | **Participants** | **Completed** | **Incomplete** | **Accuracy** |');
    // Single figures in their own cells are what tesseract's page segmentation drops beside a grid.
    const rows = [
      '| Blind | 5 | 1 | 4 | 34.5% |',
      '| Low Vision | 5 | 2 | 3 | 98.3% |',
      '| Dexterity | 5 | 4 | 1 | 98.3% |',
      '| Mobility | 3 | 3 | 0 | 95.4% |',
    ];
    expect(rows.filter((r) => md.includes(r)).length).toBeGreaterThanOrEqual(3);
    const table = doc.blocks![0]!.items.find((b) => b.type === 'table');
    expect(table?.source).toBe('layout_ocr');
    expect(table?.label).toBe('table_ruled');
    // The text around the table is read as well.
    expect(md).toContain('# Accessibility Trial Results');
    expect(md).toContain('Ballots left incomplete were reviewed');
  }, 120000);

  it('loses the head row without those two steps (the shade binarised to a black block)', async () => {
    const signal = new AbortController().signal;
    const [plain] = await recognizePages(runtime, pdf, [1], {
      signal,
      preprocess: { ...DEFAULT_PREPROCESS, flattenFills: false, removeRules: false },
    });
    const [cleaned] = await recognizePages(runtime, pdf, [1], { signal });
    const heads = ['Group', 'Participants', 'Completed', 'Incomplete'];
    const found = (text: string) => heads.filter((h) => text.includes(h)).length;
    expect(found(ocrPlainText(cleaned!.page!))).toBe(4);
    expect(found(ocrPlainText(plain!.page!))).toBeLessThan(2);
  }, 120000);
});

describe('a short ruled table scanned', () => {
  const parser = createParser({ ocrThreads: 1 });
  afterAll(() => parser.close());

  it('comes out as a table: a grid of two rows of two wide cells, its rules a quarter of an inch apart', async () => {
    // An office document's default table: hairline rules, rows one line of 11 pt type high. Read
    // with its rules in place, the right column came out as one paragraph beside the left one's two.
    const scan = await typesetScan(
      (p, f) => {
        const cols = [72, 306, 540];
        const rows = [680, 662, 644];
        for (const y of rows) p.drawLine({ start: { x: cols[0]!, y }, end: { x: cols[2]!, y }, thickness: 0.5 });
        for (const x of cols) p.drawLine({ start: { x, y: rows[0]! }, end: { x, y: rows[2]! }, thickness: 0.5 });
        [
          ['Depot address', 'Harbour Street'],
          ['Opening hours', 'Weekdays only'],
        ].forEach((cells, r) =>
          cells.forEach((t, c) => p.drawText(t, { x: cols[c]! + 4, y: rows[r]! - 13, size: 11, font: f.regular })),
        );
      },
      { angle: 0.4, seed: 5 },
    );
    const md =
      (await parser.parseFile(scan, { timeout: 100000, parsers: [{ type: 'pdf', mode: 'ocr' }] })).markdown ?? '';
    expect(md).toMatch(/^\| Depot address \| Harbour Street \|$/m);
    expect(md).toMatch(/^\| Opening hours \| Weekdays only \|$/m);
  }, 120000);
});

describe('a scanned page set large (fixtures/ocr/largetable.pdf)', () => {
  const pdf = readFileSync(path.join(REPO_ROOT, 'fixtures', 'ocr', 'largetable.pdf'));
  const runtime = new ParserRuntime({ ocrThreads: 1 });
  const parser = createParser({ ocrThreads: 1 });
  afterAll(async () => {
    await parser.close();
    await runtime.close();
  });

  it('is scaled down to the type size tesseract reads best, and read once, every figure in its cell', async () => {
    // 30 pt type scanned at 300 dpi: an x-height of about 67 px, read at 28 px (300 × 28 / 67 dpi).
    // Read as scanned, "0" came out "O".
    const [r] = await recognizePages(runtime, pdf, [1], { signal: new AbortController().signal });
    expect(r!.readings).toBe(1);
    expect(r!.dpi).toBeGreaterThan(110);
    expect(r!.dpi).toBeLessThan(140);
    const truth = JSON.parse(
      readFileSync(path.join(REPO_ROOT, 'fixtures', 'ocr', 'largetable.truth.json'), 'utf8'),
    ) as Array<{ text: string }>;
    expect(cer(ocrPlainText(r!.page!), truth[0]!.text)).toBeLessThan(0.02);
    const doc = await parser.parseFile(pdf, { timeout: 100000, parsers: [{ type: 'pdf', mode: 'ocr' }] });
    for (const row of ['| Ashford | 5 | 2 |', '| Barton | 3 | 1 |', '| Chester | 8 | 4 |', '| Dover | 6 | 0 |'])
      expect(doc.markdown).toContain(row);
  }, 120000);
});

describe.skipIf(!corpusAvailable)(
  `a scanned table set large${corpusAvailable ? '' : ` (${CORPUS_SKIP_MESSAGE})`}`,
  () => {
    const parser = createParser({ ocrThreads: 1 });
    afterAll(() => parser.close());

    it('reads the lone figures of its wide cells (unstructured/table-multi-row-column-cells.pdf)', async () => {
      // Capitals about 70 px high at the scan's 264 dpi. Read at that size, the "5"s of the
      // Participants column came out ".)" and "=)", even read again cell by cell.
      const doc = await parser.parseFile(readCorpus('unstructured', 'table-multi-row-column-cells.pdf'), {
        timeout: 100000,
        parsers: [{ type: 'pdf', mode: 'auto' }],
      });
      expect(doc.markdown).toContain('| Blind | 5 | 1 | 4 |');
      expect(doc.markdown).toContain('| Dexterity | 5 | 4 | 1 |');
      expect(doc.markdown).toContain('| Mobility | 3 | 3 | 0 |');
    }, 120000);
  },
);
