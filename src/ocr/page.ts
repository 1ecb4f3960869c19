/**
 * From recognised words to the layout engine's neutral page: tesseract's blocks → paragraphs → lines →
 * words become `TextItem`s in PDF points, each word carrying its confidence. `ocrLayout` is the
 * OCR-only layout used when no native layout engine is given: tesseract's own paragraphs, in its
 * reading order (mode 3 reads columns one after the other).
 */
import type { Page as TesseractPage, Bbox } from 'tesseract.js';
import type { DocBlock } from '../model/document.js';
import type { LaidOutBlock, PageInput, PageLayout, TextItem } from '../pdf/layout/types.js';

export interface OcrWord {
  text: string;
  /** Box in image pixels. */
  bbox: Bbox;
  /** 0..1 */
  confidence: number;
}

export interface OcrLine {
  words: OcrWord[];
  bbox: Bbox;
  confidence: number;
  /** Height of the line's letters with ascenders, image pixels (tesseract's row height). */
  rowHeight: number;
}

export interface OcrParagraph {
  lines: OcrLine[];
  bbox: Bbox;
  confidence: number;
}

export interface OcrBlock {
  paragraphs: OcrParagraph[];
  bbox: Bbox;
  confidence: number;
}

/** The compact result one page's recognition sends back across threads. */
export interface OcrPage {
  pageNumber: number;
  /** Upright page size, points. */
  width: number;
  height: number;
  rotation: number;
  /** Pixels per point of the recognised image. */
  scale: number;
  /** Degrees of skew undone before recognition. */
  skew: number;
  blocks: OcrBlock[];
  /** Mean word confidence, 0..1 (0 when no words). */
  confidence: number;
}

const conf = (c: number | undefined) => Math.max(0, Math.min(1, (c ?? 0) / 100));

/** Drops tesseract's symbol-level detail: only words, lines, paragraphs and blocks cross threads. */
export function compactTesseractPage(
  page: TesseractPage,
  meta: { pageNumber: number; width: number; height: number; rotation: number; scale: number; skew: number },
): OcrPage {
  const blocks: OcrBlock[] = [];
  let sum = 0;
  let n = 0;
  for (const b of page.blocks ?? []) {
    const paragraphs: OcrParagraph[] = [];
    for (const p of b.paragraphs ?? []) {
      const lines: OcrLine[] = [];
      for (const l of p.lines ?? []) {
        const words: OcrWord[] = [];
        for (const w of l.words ?? []) {
          const text = w.text.trim();
          if (!text) continue;
          const c = conf(w.confidence);
          words.push({ text, bbox: { ...w.bbox }, confidence: c });
          sum += c;
          n++;
        }
        if (words.length) lines.push({ words, bbox: { ...l.bbox }, confidence: conf(l.confidence), rowHeight: l.rowAttributes?.rowHeight ?? l.bbox.y1 - l.bbox.y0 });
      }
      if (lines.length) paragraphs.push({ lines, bbox: { ...p.bbox }, confidence: conf(p.confidence) });
    }
    if (paragraphs.length) blocks.push({ paragraphs, bbox: { ...b.bbox }, confidence: conf(b.confidence) });
  }
  return { ...meta, blocks, confidence: n ? sum / n : 0 };
}

/**
 * Font size of a line in points from its row height (tesseract's row height, measured at 0.93-0.95 em
 * on deskewed pages of the generated fixtures), so OCR and native pages feed comparable numbers to heading detection.
 */
function lineFontSize(line: OcrLine, scale: number): number {
  return Math.max(1, line.rowHeight / scale / 0.95);
}

/** The page as the layout engine reads it: one `TextItem` per recognised word, in points. */
export function toPageInput(page: OcrPage): PageInput {
  const s = page.scale;
  const items: TextItem[] = [];
  for (const b of page.blocks) {
    for (const p of b.paragraphs) {
      for (const l of p.lines) {
        const fontSize = lineFontSize(l, s);
        for (const w of l.words) {
          items.push({
            text: w.text,
            x0: w.bbox.x0 / s,
            y0: w.bbox.y0 / s,
            x1: w.bbox.x1 / s,
            y1: w.bbox.y1 / s,
            fontSize,
            fontName: '',
            bold: false,
            italic: false,
            dir: 'ltr',
            confidence: w.confidence,
          });
        }
      }
    }
  }
  return { pageNumber: page.pageNumber, width: page.width, height: page.height, rotation: page.rotation, items, lines: [], rects: [], images: [], source: 'layout_ocr' };
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
export function joinLines(lines: string[]): string {
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
      for (const l of p.lines) for (const w of l.words) { wsum += w.confidence; wn++; }
      const block: DocBlock = {
        node: { kind: 'paragraph', content: [{ type: 'text', text }] },
        type: 'text',
        label: 'ocr_paragraph',
        bbox: [clamp01(p.bbox.x0 / s / page.width), clamp01(p.bbox.y0 / s / page.height), clamp01(p.bbox.x1 / s / page.width), clamp01(p.bbox.y1 / s / page.height)],
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
  return { pageNumber: page.pageNumber, width: page.width, height: page.height, status: 'ok', blocks, stats: { fontChars, chars } };
}

/** Plain text of an OCR page, paragraphs separated by blank lines (for error rates and debugging). */
export function ocrPlainText(page: OcrPage): string {
  return page.blocks
    .flatMap((b) => b.paragraphs.map((p) => p.lines.map((l) => l.words.map((w) => w.text).join(' ')).join('\n')))
    .join('\n\n');
}
