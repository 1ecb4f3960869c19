/**
 * "Do no harm" line by line (src/ocr/plain-regions.ts) and doubtful OCR tables given back as rows
 * (src/ocr/doubtful-tables.ts): the merge and the table test on engine output made up here, then end to
 * end on a scanned table of figures the processing reads worse than the plain render (camelot/agstat.pdf
 * scanned in grey at 200 dpi, tilted 0.58°, by the scan set generator test-support/scan-set.ts into
 * .cache/scan-set/). Needs `npm run build` for tesseract's thread script.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { OcrLine, OcrPage, OcrWord } from '../src/ocr/ocr-page.js';
import { mergePlainLines } from '../src/ocr/plain-regions.js';
import { rowsForDoubtfulTables } from '../src/ocr/doubtful-tables.js';
import { ocrPlainText } from '../src/ocr/page.js';
import { ocrPageReader } from '../src/ocr/page-reader.js';
import { DEFAULT_PREPROCESS } from '../src/ocr/preprocess.js';
import { DEFAULT_RENDER } from '../src/ocr/render.js';
import type { OcrTask, OcrTaskResult } from '../src/ocr/protocol.js';
import type { LaidOutBlock } from '../src/layout/types.js';
import { renderNode } from '../src/markdown/serialize.js';
import { corpusAvailable, CORPUS_SKIP_MESSAGE, REPO_ROOT } from '../test-support/corpus.js';
import { buildScanSet, SOURCE_PAGES } from '../test-support/scan-set.js';
import { bagSimilarity, cer, plainFromMarkdown } from '../test-support/text-metrics.js';

/** A line of `words` ([text, confidence]) at height `y`, 60 pixels a word from `x`, times `k`. */
function lineOf(words: Array<[string, number]>, y: number, x = 100, k = 1): OcrLine {
  const ws: OcrWord[] = words.map(([text, confidence], i) => ({
    text,
    confidence,
    bbox: { x0: (x + i * 60) * k, y0: y * k, x1: (x + i * 60 + 50) * k, y1: (y + 20) * k },
  }));
  const bbox = { x0: ws[0]!.bbox.x0, y0: y * k, x1: ws.at(-1)!.bbox.x1, y1: (y + 20) * k };
  return { words: ws, bbox, confidence: 0.9, rowHeight: 20 * k, xHeight: 10 * k };
}

function pageOf(lines: OcrLine[], scale: number, skew = 0): OcrPage {
  return {
    pageNumber: 1,
    width: 612,
    height: 792,
    rotation: 0,
    scale,
    skew,
    blocks: lines.map((l) => ({
      paragraphs: [{ lines: [l], bbox: l.bbox, confidence: 0.9 }],
      bbox: l.bbox,
      confidence: 0.9,
    })),
    confidence: 0.9,
  };
}

const FIGURES: Array<[string, number]> = [
  ['Balasore', 0.95],
  ['23.65', 0.93],
  ['20.81', 0.92],
  ['3.04', 0.94],
  ['3.47', 0.91],
];
const MISREAD: Array<[string, number]> = [
  ['Balasore', 0.95],
  ['2365|', 0.55],
  ['2081)', 0.5],
  ['304', 0.6],
  ['3.47', 0.91],
];
const words = (p: OcrPage) => ocrPlainText(p).split(/\s+/);

describe('the plain reading taken line by line', () => {
  it('puts the plain line where it reads far more confident words, moved into the processed frame', () => {
    // The processed image was scaled by 1.5 after the reading frame; the plain one was not.
    const processed = pageOf([lineOf(MISREAD, 200, 100, 1.5), lineOf(FIGURES, 300, 100, 1.5)], 1.5 * (300 / 72));
    const plain = pageOf([lineOf(FIGURES, 200), lineOf(FIGURES, 300)], 300 / 72);
    const merged = mergePlainLines(processed, plain, { width: 2550, height: 3300 }, 1.5);
    expect(merged.lines).toBe(1);
    expect(words(processed)).not.toContain('2365|');
    expect(words(processed).filter((w) => w === '23.65')).toHaveLength(2);
    // In the processed frame: where the misread line was.
    const taken = processed.blocks.flatMap((b) => b.paragraphs.flatMap((p) => p.lines)).find((l) => l.bbox.y0 < 400)!;
    expect(taken.words[1]!.text).toBe('23.65');
    expect(Math.abs(taken.bbox.y0 - 300)).toBeLessThan(3);
    expect(Math.abs(taken.words[0]!.bbox.x0 - 150)).toBeLessThan(3);
  });

  it('keeps the processed line where the plain one reads it no better, and a line of garbage out', () => {
    const processed = pageOf([lineOf(FIGURES, 200)], 300 / 72);
    const plain = pageOf(
      [
        lineOf(FIGURES, 200),
        lineOf(
          [
            ['ise)', 0.4],
            ['BaEeEtt', 0.3],
          ],
          600,
        ),
      ],
      300 / 72,
    );
    const before = ocrPlainText(processed);
    expect(mergePlainLines(processed, plain, { width: 2550, height: 3300 }, 1).lines).toBe(0);
    expect(ocrPlainText(processed)).toBe(before);
  });

  it('undoes the deskew the processed reading had, in the direction the words agree with', () => {
    // Processed image turned by 1° about the centre of a 2000 × 2000 image: the plain words sit where the
    // turn puts them back.
    const c = 1000;
    const t = (-1 * Math.PI) / 180;
    const turn = (x: number, y: number) => ({
      x: c + (x - c) * Math.cos(t) - (y - c) * Math.sin(t),
      y: c + (x - c) * Math.sin(t) + (y - c) * Math.cos(t),
    });
    const plainLines = [lineOf(FIGURES, 400), lineOf(FIGURES, 1400, 1200)];
    const processedLines = plainLines.map((l, i) => {
      const at = turn(l.words[0]!.bbox.x0, l.words[0]!.bbox.y0);
      return lineOf(i === 0 ? MISREAD : FIGURES, Math.round(at.y), Math.round(at.x));
    });
    const processed = pageOf(processedLines, 300 / 72, 1);
    const merged = mergePlainLines(processed, pageOf(plainLines, 300 / 72), { width: 2000, height: 2000 }, 1);
    expect(merged.lines).toBe(1);
    expect(words(processed)).not.toContain('2081)');
    // The second line was read well by both: not taken twice.
    expect(words(processed).filter((w) => w === '20.81')).toHaveLength(2);
  });
});

/** A laid-out table block over the page's top half, with `rows` as its cells' text. */
function tableBlock(rows: string[][]): LaidOutBlock {
  return {
    block: {
      node: { kind: 'table', rows: rows.map((r) => r.map((text) => ({ content: [{ type: 'text', text }] }))) },
      type: 'table',
      bbox: [0, 0, 1, 0.5],
      source: 'layout_ocr',
    },
    hints: {
      fontSize: 10,
      bold: false,
      italic: false,
      lineCount: rows.length,
      text: '',
      headingCandidate: false,
      numbering: '',
      zone: 'body',
    },
  };
}

describe('a doubtful OCR table given back as rows', () => {
  const scale = 300 / 72;
  it('keeps a table whose cells are filled with confident words', () => {
    const page = pageOf([lineOf(FIGURES, 200), lineOf(FIGURES, 300)], scale);
    const table = tableBlock([FIGURES.map(([t]) => t), FIGURES.map(([t]) => t)]);
    expect(rowsForDoubtfulTables([table], page)).toEqual([table]);
  });

  it('gives rows of words, left to right and top to bottom, for a table of low-confidence words', () => {
    // tesseract read the two rows as columns: the words of each row come from two of its lines.
    const left = (y: number): OcrLine => lineOf(MISREAD.slice(0, 2), y);
    const right = (y: number): OcrLine => lineOf(MISREAD.slice(2), y, 220);
    const page = pageOf([left(200), left(300), right(200), right(300)], scale);
    const table = tableBlock([MISREAD.map(([t]) => t), MISREAD.map(([t]) => t)]);
    const out = rowsForDoubtfulTables([table], page);
    expect(out.map((b) => b.block.node.kind)).toEqual(['paragraph', 'paragraph']);
    expect(out.map((b) => renderNode(b.block.node))).toEqual([
      'Balasore 2365| 2081) 304 3.47',
      'Balasore 2365| 2081) 304 3.47',
    ]);
    expect(out[0]!.block.bbox![1]).toBeLessThan(out[1]!.block.bbox![1]);
  });

  it('gives rows for a table of confident words most of whose cells are empty', () => {
    const page = pageOf([lineOf(FIGURES, 200), lineOf(FIGURES, 300)], scale);
    const spread = [FIGURES.map(([t]) => t).join(' '), '', '', '', ''];
    const out = rowsForDoubtfulTables([tableBlock([spread, ['', '', '', '', '']])], page);
    expect(out.map((b) => renderNode(b.block.node))).toEqual([
      'Balasore 23.65 20.81 3.04 3.47',
      'Balasore 23.65 20.81 3.04 3.47',
    ]);
  });
});

describe.skipIf(!corpusAvailable)(
  `a scanned table the processing reads worse than the plain render${corpusAvailable ? '' : ` (${CORPUS_SKIP_MESSAGE})`}`,
  () => {
    const read = ocrPageReader(`${REPO_ROOT}/dist/workers/ocr-tesseract.js`);
    const task = (bytes: Uint8Array, plainLines: boolean): OcrTask => ({
      docKey: `agstat-${plainLines}`,
      bytes,
      pageNumber: 1,
      render: DEFAULT_RENDER,
      preprocess: DEFAULT_PREPROCESS,
      languages: 'eng',
      recycleAfter: 50,
      plainLines,
    });
    const ok = (r: OcrTaskResult): OcrTaskResult & { ok: true } => {
      if (!r.ok) throw new Error(r.error);
      return r;
    };
    const markdown = (r: OcrTaskResult & { ok: true }) =>
      plainFromMarkdown(r.layout.blocks.map((b) => renderNode(b.block.node)).join('\n\n'));

    it('takes the plain lines that read the figures, and lays the doubtful table out as rows', async () => {
      const source = SOURCE_PAGES.find((p) => p.file === 'camelot/agstat.pdf')!;
      const scan = (await buildScanSet([source])).find((s) => s.dpi === 200)!;
      const bytes = new Uint8Array(readFileSync(scan.pdf));
      const without = ok(await read(task(bytes, false)));
      const merged = ok(await read(task(bytes, true)));
      // More of the page's words, whatever their order (0.657 to 0.687 when measured).
      const before = bagSimilarity(ocrPlainText(without.page), scan.truth);
      const after = bagSimilarity(ocrPlainText(merged.page), scan.truth);
      expect(after).toBeGreaterThan(before + 0.02);
      // The figures the processed reading lost the decimal points of, read with them.
      expect(ocrPlainText(merged.page)).toContain('17.01');
      expect(ocrPlainText(without.page)).not.toContain('17.01');
      // The table of low-confidence words comes out as rows: a district's figures in the printed order.
      expect(merged.layout.blocks.some((b) => b.block.node.kind === 'table')).toBe(false);
      expect(markdown(merged)).toMatch(/Balangir 17\.01 14\.97 2\.19 2\.50/);
      // Laid out so, the markdown is within 2.5 points of CER of the plain engine's text (21.85% when
      // measured); before the plain lines and the rows, the page read 24.32%.
      expect(cer(markdown(merged), scan.truth)).toBeLessThan(0.245);
    }, 400_000);
  },
);
