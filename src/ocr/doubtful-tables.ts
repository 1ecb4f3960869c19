/**
 * A table the layout built from recognised words, given back as the page's rows of words when the table
 * is doubtful. The layout engine builds a scanned table from the words' positions and the rules the
 * processing found; where tesseract read the grid column by column, dropped values, or ran values of
 * neighbouring columns into one word, the grid it makes has many empty cells and misplaced values, and
 * reads further from the page than the same words in rows (a scanned table of figures at 200 dpi,
 * camelot/agstat.pdf in the bench's scan set: see bench/README.md). Rows keep every word in the order a reader reads the printed table, left to right.
 *
 * A table is doubtful when more than half of its cells are empty, or when the mean confidence of the
 * words in it is under LOW_CONFIDENCE. A table tesseract read well fills its cells with confident words
 * (the bench's scanned invoice and health tables: 0-22% of their cells empty, words at 0.85-0.94; the
 * scanned table of figures above: words at 0.67); a sparse table leaves cells empty, hence the half.
 */
import type { DocBlock, TableNode } from '../model/document.js';
import type { LaidOutBlock } from '../layout/types.js';
import { wordsOf, type OcrPage, type OcrWord } from './ocr-page.js';

const EMPTY_SHARE = 0.5;
const LOW_CONFIDENCE = 0.8;

interface PlacedWord {
  w: OcrWord;
  /** In page fractions (0..1), as block boxes are. */
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

function cellText(node: TableNode): string[] {
  return node.rows.flatMap((r) =>
    r.map((c) =>
      c.content
        .map((i) => ('text' in i && typeof i.text === 'string' ? i.text : ''))
        .join('')
        .trim(),
    ),
  );
}

function wordsIn(page: OcrPage, bbox: readonly number[]): PlacedWord[] {
  const s = page.scale;
  const out: PlacedWord[] = [];
  for (const w of wordsOf(page)) {
    const x0 = w.bbox.x0 / s / page.width;
    const x1 = w.bbox.x1 / s / page.width;
    const y0 = w.bbox.y0 / s / page.height;
    const y1 = w.bbox.y1 / s / page.height;
    const cx = (x0 + x1) / 2;
    const cy = (y0 + y1) / 2;
    if (cx >= bbox[0]! - 0.002 && cx <= bbox[2]! + 0.002 && cy >= bbox[1]! - 0.002 && cy <= bbox[3]! + 0.002)
      out.push({ w, x0, x1, y0, y1 });
  }
  return out;
}

/** Whether the table block is doubtful (see the file comment). */
export function doubtfulTable(node: TableNode, words: readonly PlacedWord[]): boolean {
  const cells = cellText(node);
  const empty = cells.filter((c) => !c).length;
  const conf = words.length ? words.reduce((n, p) => n + p.w.confidence, 0) / words.length : 0;
  return cells.length > 0 && (empty > EMPTY_SHARE * cells.length || conf < LOW_CONFIDENCE);
}

/** Words grouped into rows: a word joins the row its vertical centre falls in; rows top to bottom. */
function rowsOf(words: readonly PlacedWord[]): PlacedWord[][] {
  const sorted = [...words].sort((a, b) => (a.y0 + a.y1) / 2 - (b.y0 + b.y1) / 2);
  const rows: { y0: number; y1: number; words: PlacedWord[] }[] = [];
  for (const p of sorted) {
    const cy = (p.y0 + p.y1) / 2;
    const row = rows.find((r) => cy >= r.y0 && cy <= r.y1);
    if (row) row.words.push(p);
    else rows.push({ y0: p.y0, y1: p.y1, words: [p] });
  }
  return rows.map((r) => r.words.sort((a, b) => a.x0 - b.x0));
}

/**
 * The laid-out blocks with each doubtful table replaced by its rows of words, one paragraph a row, in
 * the table's place.
 */
export function rowsForDoubtfulTables(blocks: LaidOutBlock[], page: OcrPage): LaidOutBlock[] {
  const out: LaidOutBlock[] = [];
  for (const lb of blocks) {
    const node = lb.block.node;
    const bbox = lb.block.bbox;
    if (node.kind !== 'table' || !bbox) {
      out.push(lb);
      continue;
    }
    const words = wordsIn(page, bbox);
    if (!words.length || !doubtfulTable(node, words)) {
      out.push(lb);
      continue;
    }
    for (const row of rowsOf(words)) {
      const text = row.map((p) => p.w.text).join(' ');
      const conf = row.reduce((n, p) => n + p.w.confidence, 0) / row.length;
      const block: DocBlock = {
        node: { kind: 'paragraph', content: [{ type: 'text', text }] },
        type: 'text',
        label: 'ocr_paragraph',
        bbox: [
          Math.min(...row.map((p) => p.x0)),
          Math.min(...row.map((p) => p.y0)),
          Math.max(...row.map((p) => p.x1)),
          Math.max(...row.map((p) => p.y1)),
        ],
        source: lb.block.source,
        confidence: { layout: null, ocr: Math.round(conf * 1000) / 1000 },
      };
      out.push({
        block,
        hints: { ...lb.hints, lineCount: 1, text: text.slice(0, 300), headingCandidate: false, numbering: '' },
      });
    }
  }
  return out;
}
