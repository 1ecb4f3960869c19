/**
 * The recognised tree of one page as docmill keeps it: blocks, paragraphs, lines and words in image
 * pixels, with their confidences (made from tesseract's hOCR in page.ts).
 */
import type { Bbox } from 'tesseract.js';
import type { PixelRule } from './rules.js';

export interface OcrWord {
  text: string;
  /** Box in image pixels. */
  bbox: Bbox;
  /** 0..1 */
  confidence: number;
  /** Strokes clearly heavier than the page's usual text (see bold.ts). */
  bold?: boolean;
}

export interface OcrLine {
  words: OcrWord[];
  bbox: Bbox;
  confidence: number;
  /** Height of the line's letters from descender to ascender, image pixels (tesseract's row height). */
  rowHeight: number;
  /** x-height of the line, image pixels: row height less ascender rise and descender drop. */
  xHeight: number;
  /** The baseline from its left to its right end, image pixels (absent when tesseract gave none). */
  baseline?: Bbox;
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
  /** Ruling lines found in the image and taken out of it before recognition, image pixels (src/ocr/rules.ts). */
  rules?: PixelRule[];
  /**
   * Degrees the page image was turned clockwise before recognition because it was fed sideways or
   * upside down (absent when read as it is); width, height and boxes are then in the turned frame.
   */
  turned?: number;
  /**
   * Read from the plain grey render, nothing done to it, because the processed reading was doubtful and
   * read worse (src/ocr/plain-reading.ts); absent for the processed reading.
   */
  plain?: boolean;
  blocks: OcrBlock[];
  /** Mean word confidence, 0..1 (0 when no words). */
  confidence: number;
}

/** A page's lines, block by block and paragraph by paragraph, in the engine's order. */
export function* linesOf(page: Pick<OcrPage, 'blocks'>): Generator<OcrLine> {
  for (const b of page.blocks) for (const p of b.paragraphs) yield* p.lines;
}

/** A page's words, line by line, in the engine's order. */
export function* wordsOf(page: Pick<OcrPage, 'blocks'>): Generator<OcrWord> {
  for (const l of linesOf(page)) yield* l.words;
}
