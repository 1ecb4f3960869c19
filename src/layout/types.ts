/**
 * The neutral input and output of the page layout engine.
 *
 * The engine never sees pdf.js: native text extraction (src/pdf/extract.ts) and OCR both describe a
 * page as a `PageInput` — words or text runs with boxes in PDF points (top-left origin, y down, the
 * page already turned upright), ruling segments, filled rectangles and image boxes — and get back a
 * `PageLayout`: model blocks in reading order plus the few numbers the document-wide passes
 * (heading levels, running headers and footers) need. Everything here is plain data so that it
 * crosses worker boundaries by structured clone.
 */
import type { DocBlock } from '../model/document.js';
import type { PageStatus } from '../types.js';

/** A box in PDF points, top-left origin: x grows right, y grows down; x0 ≤ x1, y0 ≤ y1. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** One run of text on one baseline (a pdf.js text item, or one OCR word). */
export interface TextItem extends Box {
  text: string;
  /** Font size in points (the run's height for OCR words). */
  fontSize: number;
  /** Font family or PostScript name when known; '' otherwise. */
  fontName: string;
  bold: boolean;
  italic: boolean;
  /** Writing direction of the run as the source reports it. */
  dir: 'ltr' | 'rtl' | 'ttb';
  /** 0..1 recognition confidence for OCR words; absent for native text. */
  confidence?: number;
  /** Fixed-pitch font (code listings). */
  monospace?: boolean;
  /**
   * Runs of `PageInput.turned` only: the angle, clockwise on screen, from the page's reading direction
   * to the run's (270: read bottom to top, 90: top to bottom). The box is the run's box in the
   * upright view.
   */
  angle?: 90 | 270;
  /**
   * Where each character starts, and the last one ends (text.length + 1 values, ascending), where the
   * source knows its glyphs' positions (native text read from the operator list). A run is cut inside
   * at these when only part of it is a link or struck through; without them the cut is estimated.
   */
  edges?: number[];
  /** The baseline's y, where the source knows it; estimated from the box otherwise. */
  baseline?: number;
  /** The run is (part of) a link to this URL (set by the layout from the page's link areas). */
  href?: string;
  /** The run is struck through (set by the layout from the lines drawn across it). */
  strike?: boolean;
}

/** A stroked line or a thin filled rectangle that may rule a table. */
export interface Segment {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Stroke width in points. */
  width: number;
}

/** A filled or stroked rectangle (cell background or border box). */
export interface Rect extends Box {
  filled: boolean;
  stroked: boolean;
}

/**
 * Where a link annotation of the page sends its reader to a web or mail address: the rectangle
 * (or one of the quadrilaterals) the reader clicks, in the upright view like the text.
 */
export interface LinkArea extends Box {
  /** Absolute http, https, mailto or ftp URL. */
  url: string;
}

/** Where an image is painted. */
export interface ImageBox extends Box {
  /** Alternative text when the producer gave one (tagged PDF); '' otherwise. */
  alt?: string;
}

/** Pipeline path that produced a page's words: native text layer or OCR. */
export type PageSource = 'native_text' | 'layout_ocr';

export interface PageInput {
  /** 1-based physical page number. */
  pageNumber: number;
  /** Page size in points after rotation (the upright view). */
  width: number;
  height: number;
  /** Rotation applied to reach the upright view, degrees (0, 90, 180, 270). */
  rotation: number;
  items: TextItem[];
  /**
   * Runs set at a right angle to the page's text: column heads turned to stand over narrow columns,
   * stamps and notes up a margin. Not part of the text flow; the engine takes those standing over a
   * table's columns as its heads. Absent when the source has none (OCR input).
   */
  turned?: TextItem[];
  lines: Segment[];
  rects: Rect[];
  images: ImageBox[];
  /** Small filled marks drawn as paths (discs, squares): bullets where they stand before lines of text. */
  dots?: ImageBox[];
  source: PageSource;
  /** The page's link areas (absent when it has none). */
  links?: LinkArea[];
  /**
   * Marks the page's drawing operators paint besides text: filled or stroked paths (curved ones too),
   * shadings and images. 0 means the page draws nothing but its text; absent when the drawing
   * operators were not read (text-only fallback, OCR input).
   */
  paints?: number;
}

/**
 * What a block needs carrying to the document-wide passes. Only the main thread turns candidates
 * into headings or furniture, because that needs statistics over every page.
 */
export interface BlockHints {
  /** Dominant font size of the block's text, points. */
  fontSize: number;
  /** True when all (or nearly all) of the block's text is bold. */
  bold: boolean;
  italic: boolean;
  /** Number of text lines in the block. */
  lineCount: number;
  /** Plain text of the block (for repetition tests); at most a few hundred characters. */
  text: string;
  /** Short, single-ish line that could be a heading if its font stands out document-wide. */
  headingCandidate: boolean;
  /** Numbering prefix like "1.2" or "A." seen at the start of a heading candidate; '' when none. */
  numbering: string;
  /** Where the block sits: in the top or bottom margin band (running header/footer candidates) or the body. */
  zone: 'top' | 'bottom' | 'body';
  /** Looser than `zone`: any short text in the top or bottom eighth of the page (repetition candidates). */
  band?: 'top' | 'bottom' | 'body';
  /** Margin blocks: no other text within two of its line heights towards the body (a header or footer standing alone, not the end of the text). */
  isolated?: boolean;
  /** A column of line numbers in a margin (furniture). */
  lineNumbers?: boolean;
}

/**
 * One entry of the document's outline (bookmarks): its title, the 1-based page its destination
 * names, and its depth in the outline's tree (0 for the entries at the top).
 */
export interface OutlineEntry {
  page: number;
  title: string;
  depth: number;
}

/** A block of the page plus its hints. `block.bbox` is normalised 0..1 to the page. */
export interface LaidOutBlock {
  block: DocBlock;
  hints: BlockHints;
}

export interface PageStats {
  /** Characters per rounded font size (key: size to 0.5 pt, as a string), for body size estimation. */
  fontChars: Record<string, number>;
  /** Characters of text on the page. */
  chars: number;
}

export interface PageLayout {
  pageNumber: number;
  width: number;
  height: number;
  status: PageStatus;
  /** Why the page is partial or failed. */
  error?: string;
  blocks: LaidOutBlock[];
  stats: PageStats;
}
