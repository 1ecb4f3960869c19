/**
 * From recognised words to the layout engine's neutral page: tesseract's blocks → paragraphs → lines →
 * words become `TextItem`s in PDF points (runs of words on a line), each carrying its confidence. `ocrLayout` is the
 * OCR-only layout used when no native layout engine is given: tesseract's own paragraphs, in its
 * reading order (mode 3 reads columns one after the other).
 */
import { bulletLines } from './bullets.js';
import type { Bbox } from 'tesseract.js';
import type { HocrBlock } from './hocr.js';
import type { DocBlock } from '../model/document.js';
import type { LaidOutBlock, PageInput, PageLayout, TextItem } from '../layout/types.js';
import { clusterSizes } from './sizes.js';
import { SECTION_NUMBER } from '../layout/lines.js';
import { wordsOf, type OcrBlock, type OcrLine, type OcrPage, type OcrParagraph, type OcrWord } from './ocr-page.js';
import type { PixelRule } from './rules.js';

export type { OcrBlock, OcrLine, OcrPage, OcrParagraph, OcrWord } from './ocr-page.js';

const conf = (c: number | undefined) => Math.max(0, Math.min(1, (c ?? 0) / 100));

/** Words that follow the pronoun "I" (so a lone "|" or "l" before them is the pronoun). */
const PRONOUN_NEXT =
  /^(?:am|have|had|was|will|would|can|could|cannot|can't|do|did|don't|didn't|think|thought|believe|hope|want|wanted|need|know|knew|feel|felt|also|just|should|must|may|might|shall|wish|like|love|agree|understand|see|saw|look|write|wrote|appreciate|recommend|remain|received|enclose|confirm|certify|declare)[.,;:!?]?$/i;

/**
 * The recognised tree as docmill keeps it (blocks, paragraphs, lines, words; from hOCR, see hocr.ts)
 * with its confidences scaled to 0..1. tesseract.js's own block tree has the same shape.
 */
export function compactTesseractPage(
  page: { blocks: HocrBlock[] | null },
  meta: { pageNumber: number; width: number; height: number; rotation: number; scale: number; skew: number },
): OcrPage {
  const blocks: OcrBlock[] = [];
  for (const b of page.blocks ?? []) {
    const paragraphs: OcrParagraph[] = [];
    for (const p of b.paragraphs ?? []) {
      const lines: OcrLine[] = [];
      for (const l of p.lines ?? []) {
        const words: OcrWord[] = [];
        for (const [wi, w] of (l.words ?? []).entries()) {
          let text = w.text.trim();
          if (!text) continue;
          // A dash bullet is often read as two dashes; the layout engine knows single dashes as bullets.
          if (wi === 0 && /^[-\u2013\u2014]{2,3}$/.test(text) && (l.words?.length ?? 0) > 1) text = '-';
          // The pronoun set as a plain stroke (sans-serif "I") comes out "|" or "l": given back before
          // the words that follow it ("| am writing", "l have").
          if ((text === '|' || text === 'l') && PRONOUN_NEXT.test(l.words?.[wi + 1]?.text ?? '')) text = 'I';
          // An underscore read where no horizontal stroke is: the engine writes "_" for a speck or a
          // stretched space of justified text, in a box taller than it is wide. An underscore's is wide.
          if (/^_{1,2}$/.test(text) && w.bbox.y1 - w.bbox.y0 > 2 * (w.bbox.x1 - w.bbox.x0)) continue;
          words.push({ text, bbox: { ...w.bbox }, confidence: conf(w.confidence) });
        }
        if (words.length) {
          const rowHeight = l.rowAttributes?.rowHeight ?? l.bbox.y1 - l.bbox.y0;
          const x = rowHeight - (l.rowAttributes?.ascenders ?? 0) - (l.rowAttributes?.descenders ?? 0);
          const xHeight = x > rowHeight * 0.3 && x < rowHeight * 0.8 ? x : rowHeight * 0.55;
          const bl = l.baseline;
          const baseline = bl && bl.x1 > bl.x0 ? { x0: bl.x0, y0: bl.y0, x1: bl.x1, y1: bl.y1 } : undefined;
          lines.push({
            words,
            bbox: { ...l.bbox },
            confidence: conf(l.confidence),
            rowHeight,
            xHeight,
            ...(baseline ? { baseline } : {}),
          });
        }
      }
      if (lines.length) paragraphs.push({ lines, bbox: { ...p.bbox }, confidence: conf(p.confidence) });
    }
    if (paragraphs.length) blocks.push({ paragraphs, bbox: { ...b.bbox }, confidence: conf(b.confidence) });
  }
  const out: OcrPage = { ...meta, blocks, confidence: 0 };
  out.confidence = meanConfidence(out);
  return out;
}

/** Mean confidence of a page's words, 0..1 (0 when it has none). */
export function meanConfidence(page: OcrPage): number {
  let sum = 0;
  let n = 0;
  for (const w of wordsOf(page)) {
    sum += w.confidence;
    n++;
  }
  return n ? sum / n : 0;
}

/**
 * Font size of a line in points, from the ink heights of its words. Each word's box spans the x-height
 * (about 0.52 em) or, with a capital, figure or ascender, the cap height (about 0.73 em), plus the
 * descender (about 0.22 em) when it has one; the median over the line's words is steady where
 * tesseract's own x-height is not: on lines of capitals and figures ("NORMAL", "PAT-3847") it measures
 * the cap height as the x-height, which made a table row of a scan read 35% larger than the next and a
 * label line a heading. Lines without a Latin word fall back to that x-height (x-height / 0.55 came
 * within 0.3 pt on the generated fixtures).
 */
function lineFontSize(line: OcrLine, scale: number): number {
  const ems: number[] = [];
  for (const w of line.words) {
    const em = wordEm(w);
    if (em !== null) ems.push(em);
  }
  if (!ems.length) return Math.max(1, line.xHeight / scale / 0.55);
  ems.sort((a, b) => a - b);
  return Math.max(1, ems[Math.floor(ems.length / 2)]! / scale);
}

/** Reaching the cap height: capitals, figures, ascenders, dotted letters, accented letters, tall symbols. */
const TALL = /[A-Z0-9bdfhiklt!?#$%&@/\\|'"\u00C0-\u024F]/;
const DESCENDING = /[gjpqy,;]/;
const BRACKET = /[()[\]{}]/;
const LATIN_WORD = /^[\p{Script=Latin}\p{N}\p{P}\p{S}]+$/u;

/** A word's em in image pixels from its box height, or null when its shape says nothing reliable. */
function wordEm(w: OcrWord): number | null {
  const h = w.bbox.y1 - w.bbox.y0;
  const t = w.text;
  if (h <= 0 || !/[\p{L}\p{N}]/u.test(t) || !LATIN_WORD.test(t)) return null;
  const bracket = BRACKET.test(t);
  const top = TALL.test(t) || bracket ? 0.73 : 0.52;
  const bottom = DESCENDING.test(t) || bracket ? 0.22 : 0;
  return h / (top + bottom);
}

/** The baseline's height at `x`, image pixels; null when the line has no usable baseline. */
function baselineAt(line: OcrLine, x: number): number | null {
  const b = line.baseline;
  if (!b) return null;
  const y = b.y0 + ((b.y1 - b.y0) * (x - b.x0)) / (b.x1 - b.x0);
  // A baseline outside the line's own box is a recognition artefact.
  return y >= line.bbox.y0 && y <= line.bbox.y1 + 2 ? y : null;
}

/**
 * Word gaps wider than this many em split a line into separate runs (a column gutter or a table
 * cell gap); narrower ones are spaces inside a run. Ordinary spaces are 0.25-0.35 em.
 */
const RUN_GAP_EM = 0.8;
/** The widest space of a justified line kept as one run (stretched spaces of a narrow column, in em). */
const JUSTIFIED_MAX_GAP_EM = 3;

/** A paragraph's first line this much larger than the paragraph's median keeps its own size. */
const OWN_SIZE = 1.25;

/** Characters recognised on a line. */
export function lineChars(l: OcrLine): number {
  return l.words.reduce((n, w) => n + w.text.length, 0);
}

/**
 * A line taller than wide: text running up or down the page. Single short words are square-ish either
 * way; only lines of some length say which way they run.
 */
function isVerticalLine(l: OcrLine): boolean {
  return l.bbox.y1 - l.bbox.y0 > 1.5 * (l.bbox.x1 - l.bbox.x0);
}

/** Share of recognised characters on vertical lines. */
export function verticalShare(page: OcrPage): number {
  let all = 0;
  let vertical = 0;
  for (const b of page.blocks) {
    for (const p of b.paragraphs) {
      for (const l of p.lines) {
        const chars = lineChars(l);
        all += chars;
        if (isVerticalLine(l)) vertical += chars;
      }
    }
  }
  return all ? vertical / all : 0;
}

/**
 * A short line of marks that recognition doubts: no word of three letters, at most a dozen characters,
 * mean confidence under 0.6. The tick labels and curve marks of a chart, a stamp's scraps and specks come
 * out so ("1s", "= 2 0", "—_—)", "nee"); a line of figures that was really printed reads with
 * confidence (a table's numbers at 0.85-0.96) and stays, and inside ruled tables nothing is dropped.
 */
function doubtfulMarks(l: OcrLine): boolean {
  let chars = 0;
  let conf = 0;
  for (const w of l.words) {
    if (/\p{L}{3}/u.test(w.text)) return false;
    chars += w.text.length;
    conf += w.confidence * w.text.length;
  }
  return chars > 0 && chars <= 12 && conf / chars < 0.6;
}

/** A line inside a paragraph that may be a heading set in it: one to five words, five letters or more. */
function headLike(l: OcrLine, last: boolean): boolean {
  if (l.words.length > 5) return false;
  const letters = l.words.reduce((n, w) => n + (w.text.match(/\p{L}/gu)?.length ?? 0), 0);
  return letters >= (last ? 8 : 5);
}

/** Whether the words after the line's first form one run (no gap wider than a run's). */
function restIsOneRun(l: OcrLine, scale: number, fontSize: number): boolean {
  for (let k = 2; k < l.words.length; k++) {
    if ((l.words[k]!.bbox.x0 - l.words[k - 1]!.bbox.x1) / scale > RUN_GAP_EM * fontSize) return false;
  }
  return true;
}

/** The font sizes of the page's recognised text (see `pageFontSizes`). */
interface OcrFontSizes {
  /** Each paragraph's size (the median of its lines). */
  paraSize: Map<OcrParagraph, number>;
  /** Lines that keep a size of their own (a heading run into the paragraph under it). */
  ownSize: Map<OcrLine, number>;
  /** Sizes within 10% merged: each size to the size it is read as. */
  merged: Map<number, number>;
  /** The page's text size: the merged size that carries the most characters. */
  pageBody: number;
}

function pageFontSizes(page: OcrPage): OcrFontSizes {
  const s = page.scale;
  // One size per recognised paragraph (the median of its lines), then sizes within 10% merged over the
  // page: line-to-line wobble of a pixel would otherwise read as a change of font and split paragraphs.
  // A first line set a quarter larger than the rest of its paragraph keeps its own size: tesseract
  // often puts a heading into the paragraph under it. So does a short line of words inside a
  // paragraph (a form's section heads, which tesseract runs together with the fields between them);
  // a last line of one short word is not taken, its size wobbles with what its letters allow.
  const paraSize = new Map<OcrParagraph, number>();
  const ownSize = new Map<OcrLine, number>();
  const weights = new Map<number, number>();
  for (const b of page.blocks) {
    for (const p of b.paragraphs) {
      const lineSizes = p.lines.map((l) => lineFontSize(l, s));
      const sizes = [...lineSizes].sort((x, y) => x - y);
      const size = sizes[Math.floor(sizes.length / 2)] ?? 10;
      paraSize.set(p, size);
      let chars = 0;
      p.lines.forEach((l, k) => {
        const own = lineSizes[k]!;
        if (p.lines.length > 1 && own > size * OWN_SIZE && (k === 0 || headLike(l, k === p.lines.length - 1))) {
          ownSize.set(l, own);
          weights.set(own, (weights.get(own) ?? 0) + lineChars(l));
        } else chars += lineChars(l);
      });
      weights.set(size, (weights.get(size) ?? 0) + chars);
    }
  }
  const merged = clusterSizes(weights);
  // The page's text size: the merged size that carries the most characters.
  const bySize = new Map<number, number>();
  for (const [k, n] of weights) {
    const v = merged.get(k) ?? k;
    bySize.set(v, (bySize.get(v) ?? 0) + n);
  }
  let pageBody = 0;
  let most = -1;
  for (const [v, n] of bySize)
    if (n > most) {
      most = n;
      pageBody = v;
    }
  return { paraSize, ownSize, merged, pageBody };
}

/** Whether a box lies where rules were found (a ruled table or form). */
function ruledAreaTest(page: OcrPage): (b: Bbox) => boolean {
  // Where rules were found (a ruled table or form), a doubtful figure may be a cell's only content.
  const ruled = page.rules?.length
    ? page.rules.reduce(
        (a, r) => ({
          x0: Math.min(a.x0, r.x0),
          y0: Math.min(a.y0, r.y0),
          x1: Math.max(a.x1, r.x1),
          y1: Math.max(a.y1, r.y1),
        }),
        { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity },
      )
    : null;
  const inRuledArea = (b: Bbox): boolean =>
    ruled !== null && b.x0 >= ruled.x0 && b.x1 <= ruled.x1 && b.y0 >= ruled.y0 && b.y1 <= ruled.y1;
  return inRuledArea;
}

/** Tests for text running up or down the page, and for the short level lines read over it. */
function sidewaysTests(page: OcrPage): {
  runsSideways: (l: OcrLine) => boolean;
  sidewaysScrap: (l: OcrLine) => boolean;
} {
  // Lines of four characters or more: a lone figure ("1", "7") is taller than wide too.
  const runsSideways = (l: OcrLine): boolean => isVerticalLine(l) && lineChars(l) >= 4;
  const sideways: Bbox[] = [];
  for (const b of page.blocks)
    for (const p of b.paragraphs) for (const l of p.lines) if (runsSideways(l)) sideways.push(l.bbox);
  /** A few characters on a level line lying over the width of a vertical line: part of it. */
  const sidewaysScrap = (l: OcrLine): boolean => {
    if (!sideways.length || lineChars(l) > 6) return false;
    const w = l.bbox.x1 - l.bbox.x0;
    return sideways.some(
      (v) =>
        Math.min(v.x1, l.bbox.x1) - Math.max(v.x0, l.bbox.x0) >= 0.5 * w &&
        l.bbox.y0 < v.y1 + 3 * (v.x1 - v.x0) &&
        l.bbox.y1 > v.y0 - 3 * (v.x1 - v.x0),
    );
  };
  return { runsSideways, sidewaysScrap };
}

/** What turning a recognised line into runs needs of its page. */
interface RunContext {
  scale: number;
  /** Vertical rules of the page (a run ends at one). */
  vertical: PixelRule[];
  /** Lines whose first word is a misread bullet. */
  bullets: Set<OcrLine>;
  /** Words that are a rule read as a stroke. */
  strokes: Set<OcrWord>;
  pageBody: number;
}

/** The runs of words of one recognised line, as text items in points, appended to `items`. */
function lineRuns(l: OcrLine, fontSize: number, ctx: RunContext, items: TextItem[]): void {
  const { scale: s, vertical, bullets, strokes, pageBody } = ctx;
  let run: OcrWord[] = [];
  const flush = () => {
    if (!run.length) return;
    const chars = run.reduce((n, w) => n + w.text.length, 0);
    const x0 = Math.min(...run.map((w) => w.bbox.x0));
    const x1 = Math.max(...run.map((w) => w.bbox.x1));
    // Boxes from the baseline and the font size, as a text layer gives them: ink boxes differ
    // with the letters (a line without descenders looks farther from the next one).
    const base = baselineAt(l, (x0 + x1) / 2);
    const em = fontSize * s;
    const y0 = base !== null ? base - 0.78 * em : Math.min(...run.map((w) => w.bbox.y0));
    const y1 = base !== null ? base + 0.22 * em : Math.max(...run.map((w) => w.bbox.y1));
    const marker = run[0] === l.words[0] && bullets.has(l);
    items.push({
      text: run.map((w, k) => (k === 0 && marker ? '•' : w.text)).join(' '),
      x0: x0 / s,
      y0: y0 / s,
      x1: x1 / s,
      y1: y1 / s,
      fontSize,
      fontName: '',
      bold: run.every((w) => w.bold === true),
      italic: false,
      dir: 'ltr',
      confidence: run.reduce((n, w) => n + w.confidence * w.text.length, 0) / Math.max(1, chars),
    });
    run = [];
  };
  const justified = justifiedLine(l, fontSize * s);
  for (const [k, w] of l.words.entries()) {
    // A rule read as a stroke ends the run it stood in, and is no text.
    if (strokes.has(w)) {
      flush();
      continue;
    }
    const prev = run[run.length - 1];
    const gap = prev ? (w.bbox.x0 - prev.bbox.x1) / s : 0;
    // A section number set apart from its heading ("1   Introduction") stays on the heading's run
    // when the line is a heading's: larger than the page's text or bold, and one run after the number.
    const numbered =
      k === 1 &&
      SECTION_NUMBER.test(prev?.text ?? '') &&
      /^\p{Lu}/u.test(w.text) &&
      gap <= 2.5 * fontSize &&
      (fontSize >= pageBody * 1.1 || l.words.every((x) => x.bold === true)) &&
      restIsOneRun(l, s, fontSize);
    if (prev && !numbered && ((gap > RUN_GAP_EM * fontSize && !justified) || ruleBetween(vertical, prev.bbox, w.bbox)))
      flush();
    run.push(w);
  }
  flush();
}

/**
 * A line of prose set justified in a narrow column: its spaces stretched wider than a run's, but all
 * alike (a justified line stretches every space by the same amount), its words prose, not figures. It
 * stays one run: split, its pieces were taken for columns and read out of order. (A table's row has gaps
 * of all sizes, or figures in its cells.) `em` in pixels.
 */
function justifiedLine(l: OcrLine, em: number): boolean {
  const words = l.words;
  if (words.length < 3) return false;
  const gaps: number[] = [];
  for (let i = 1; i < words.length; i++) gaps.push(words[i]!.bbox.x0 - words[i - 1]!.bbox.x1);
  const max = Math.max(...gaps),
    min = Math.min(...gaps);
  if (max <= RUN_GAP_EM * em || max > JUSTIFIED_MAX_GAP_EM * em || min < 0) return false;
  if (max - min > Math.max(0.25 * em, 0.3 * min)) return false;
  const prose = words.filter((w) => /\p{Ll}/u.test(w.text)).length;
  const figures = words.filter((w) => /\d/.test(w.text)).length;
  return prose * 2 >= words.length && figures <= 1;
}

/**
 * The page as the layout engine reads it: the words of each recognised line joined into runs, as a
 * PDF's text layer has them. Feeding single words instead made the engine take the chance alignment
 * of word gaps over a few short lines (a list) for a column gutter.
 */
export function toPageInput(page: OcrPage): PageInput {
  const s = page.scale;
  // A vertical rule between two words of a line (the border of two table cells) ends the run there:
  // the rule was taken out of the image, and tesseract reads the cells' texts as one line.
  const vertical = (page.rules ?? []).filter((r) => r.x0 === r.x1);
  const items: TextItem[] = [];
  const { paraSize, ownSize, merged, pageBody } = pageFontSizes(page);
  const inRuledArea = ruledAreaTest(page);
  // Misread bullets are given back as bullets (the page's words keep what was read).
  const bullets = bulletLines(page);
  const strokes = ruleStrokes(page);
  const upright = verticalShare(page) < 0.5;
  const { runsSideways, sidewaysScrap } = sidewaysTests(page);
  const ctx: RunContext = { scale: s, vertical, bullets, strokes, pageBody };
  for (const b of page.blocks) {
    for (const p of b.paragraphs) {
      const paraFont = merged.get(paraSize.get(p)!) ?? paraSize.get(p)!;
      for (const l of p.lines) {
        // Text running up or down the margin of an upright page (an archive's stamp, a journal's
        // sideways running head) is left out, as the text layer's rotated text is: laid out as a line
        // it cuts across the columns beside it. So are the scraps of it read as short level lines.
        if (upright && (runsSideways(l) || sidewaysScrap(l))) continue;
        if (doubtfulMarks(l) && !inRuledArea(l.bbox)) continue;
        const own = ownSize.get(l);
        const fontSize = own !== undefined ? (merged.get(own) ?? own) : paraFont;
        lineRuns(l, fontSize, ctx, items);
      }
    }
  }
  // Rules as a text layer's vector rules: a line of no height (or width) and its stroke width.
  const lines = (page.rules ?? []).map((r) => ({
    x0: r.x0 / s,
    y0: r.y0 / s,
    x1: r.x1 / s,
    y1: r.y1 / s,
    width: r.thickness / s,
  }));
  return {
    pageNumber: page.pageNumber,
    width: page.width,
    height: page.height,
    rotation: page.rotation,
    items,
    lines,
    rects: [],
    images: [],
    source: 'layout_ocr',
  };
}

/** Lines of a rule's strokes, one above the other, that make a rule. */
const STROKES_IN_RULE = 2;

/**
 * The "|" words that are a vertical rule left in the image (a table's column rule or border, too few
 * rules for src/ocr/rules.ts to take as a grid): tesseract reads the rule, line by line, as a stroke
 * between the cells' words ("PointB | 87 = |"). A stroke is one when it stands, within a third of an
 * x-height, over or under strokes of STROKES_IN_RULE - 1 other lines; a "|" written in the text stands alone.
 */
function ruleStrokes(page: OcrPage): Set<OcrWord> {
  const bars: Array<{ w: OcrWord; line: OcrLine; x: number }> = [];
  for (const b of page.blocks)
    for (const p of b.paragraphs)
      for (const l of p.lines) {
        for (const w of l.words) if (w.text === '|') bars.push({ w, line: l, x: (w.bbox.x0 + w.bbox.x1) / 2 });
      }
  const out = new Set<OcrWord>();
  if (bars.length < STROKES_IN_RULE) return out;
  for (const a of bars) {
    const tolerance = a.line.xHeight / 3;
    const lines = new Set(bars.filter((b) => Math.abs(b.x - a.x) <= tolerance).map((b) => b.line));
    if (lines.size >= STROKES_IN_RULE) out.add(a.w);
  }
  return out;
}

/** A vertical rule standing in the gap between two word boxes, over their height. */
function ruleBetween(rules: PixelRule[], a: Bbox, b: Bbox): boolean {
  const y = ((a.y0 + a.y1) / 2 + (b.y0 + b.y1) / 2) / 2;
  return rules.some((r) => r.x0 >= a.x1 && r.x0 <= b.x0 && r.y0 <= y && r.y1 >= y);
}

const clamp01 = (v: number) => Math.max(0, Math.min(1, v));

/**
 * Gives every block of an OCR page `source` and `confidence.ocr`: the mean confidence of the words
 * whose centres fall in the block (the layout engine only knows geometry).
 */
export function annotateOcrBlocks(blocks: DocBlock[], input: PageInput, source = 'layout_ocr'): void {
  for (const block of blocks) {
    block.source = source;
    const bb = block.bbox;
    let sum = 0;
    let n = 0;
    if (bb) {
      for (const it of input.items) {
        const cx = (it.x0 + it.x1) / 2 / input.width;
        const cy = (it.y0 + it.y1) / 2 / input.height;
        if (cx >= bb[0] - 0.002 && cx <= bb[2] + 0.002 && cy >= bb[1] - 0.002 && cy <= bb[3] + 0.002) {
          sum += it.confidence ?? 0;
          n++;
        }
      }
    }
    const ocr = n ? Math.round((sum / n) * 1000) / 1000 : null;
    block.confidence = { layout: block.confidence?.layout ?? null, ocr: block.confidence?.ocr ?? ocr };
  }
}

/** Joins the lines of a paragraph, undoing hyphenation at line ends. */
function joinLines(lines: string[]): string {
  let out = '';
  for (const raw of lines) {
    const line = raw.trim();
    if (!line) continue;
    if (!out) out = line;
    else if (/[A-Za-z]-$/.test(out) && /^[a-z]/.test(line)) out = out.slice(0, -1) + line;
    else out += ' ' + line;
  }
  return out;
}

/** The OCR-only layout: tesseract's paragraphs as text blocks in its reading order. */
export function ocrLayout(page: OcrPage): PageLayout {
  const s = page.scale;
  const blocks: LaidOutBlock[] = [];
  const fontChars: Record<string, number> = {};
  let chars = 0;
  for (const b of page.blocks) {
    for (const p of b.paragraphs) {
      const lines = p.lines.map((l) => l.words.map((w) => w.text).join(' '));
      const text = joinLines(lines);
      if (!text) continue;
      const sizes = p.lines.map((l) => lineFontSize(l, s)).sort((a, b2) => a - b2);
      const fontSize = Math.round((sizes[Math.floor(sizes.length / 2)] ?? 10) * 2) / 2;
      fontChars[String(fontSize)] = (fontChars[String(fontSize)] ?? 0) + text.length;
      chars += text.length;
      let wsum = 0;
      let wn = 0;
      for (const l of p.lines)
        for (const w of l.words) {
          wsum += w.confidence;
          wn++;
        }
      const block: DocBlock = {
        node: { kind: 'paragraph', content: [{ type: 'text', text }] },
        type: 'text',
        label: 'ocr_paragraph',
        bbox: [
          clamp01(p.bbox.x0 / s / page.width),
          clamp01(p.bbox.y0 / s / page.height),
          clamp01(p.bbox.x1 / s / page.width),
          clamp01(p.bbox.y1 / s / page.height),
        ],
        source: 'layout_ocr',
        confidence: { layout: null, ocr: wn ? Math.round((wsum / wn) * 1000) / 1000 : null },
      };
      blocks.push({
        block,
        hints: {
          fontSize,
          bold: false,
          italic: false,
          lineCount: p.lines.length,
          text: text.slice(0, 300),
          headingCandidate: p.lines.length <= 2 && text.length <= 120 && !/[.:;,]$/.test(text),
          numbering: /^((?:\d+\.)*\d+\.?|[A-Z]\.)\s/.exec(text)?.[1] ?? '',
          zone: block.bbox![3] < 0.1 ? 'top' : block.bbox![1] > 0.9 ? 'bottom' : 'body',
        },
      });
    }
  }
  return {
    pageNumber: page.pageNumber,
    width: page.width,
    height: page.height,
    status: 'ok',
    blocks,
    stats: { fontChars, chars },
  };
}

/** Plain text of an OCR page, paragraphs separated by blank lines (for error rates and debugging). */
export function ocrPlainText(page: OcrPage): string {
  return page.blocks
    .flatMap((b) => b.paragraphs.map((p) => p.lines.map((l) => l.words.map((w) => w.text).join(' ')).join('\n')))
    .join('\n\n');
}
