/**
 * What crosses the thread boundary between the PDF text pool (src/pdf/text-pool.ts) and its worker
 * (workers/pdf-text.ts): a range of pages of one document to read, and their layouts or the reason the
 * document could not be opened.
 */
import type { LayoutTurn } from './display-frame.js';
import type { PageLayout } from '../layout/types.js';
import type { OcrDecision } from './needs-ocr.js';
import type { PdfInfo } from './pdfjs.js';

export interface TextTask {
  /** Identifies the parse's document; ranges of the same parse reuse the opened document. */
  docKey: string;
  bytes: Uint8Array;
  /** 1-based page numbers to read, in order. */
  pages: number[];
  /** Also return document information (page count, title). */
  wantInfo: boolean;
  /**
   * When the document's pages to read (at most `maxPages`) number no more than this, read them all
   * in this task: a short document is then opened, and its fonts converted, by one thread only.
   */
  wholeUpTo?: number;
  maxPages?: number;
  /** Longest one page's operators and text may take to read before the rest of the page is cut. */
  pageTimeLimitMs?: number;
  /** Judge the spelling of each page's text (auto mode checks pages that spell like no language). */
  spelling?: boolean;
}

export interface TextPageResult {
  layout: PageLayout;
  /** Null when the page failed before its text could be judged. */
  ocr: OcrDecision | null;
  /**
   * Reading the page passed its time limit (it is partial or failed). Rendering it for OCR would run
   * the same drawing operators, so such a page is not recognised.
   */
  overTime?: true;
  /** The layout's frame is the displayed page turned this much (absent when it is the displayed page). */
  turn?: Exclude<LayoutTurn, 0>;
}

export type TextTaskResult =
  | { ok: true; info?: PdfInfo; pages: TextPageResult[] }
  | { ok: false; code: 'ENCRYPTED' | 'MALFORMED'; message: string };

/** The result of a page that could not be read: failed, with `message` saying why. */
export function failedPage(pageNumber: number, message: string): TextPageResult {
  return {
    layout: {
      pageNumber,
      width: 0,
      height: 0,
      status: 'failed',
      error: message,
      blocks: [],
      stats: { fontChars: {}, chars: 0 },
    },
    ocr: null,
  };
}
