/**
 * The shapes of the pdf.js objects the PDF text pass reads (a page, its text content and operator
 * list), as plain structural types: the modules that read them type-check without DOM libraries and
 * without importing each other for them.
 */

export interface PdfTextItem {
  str: string;
  dir: string;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
  hasEOL?: boolean;
  /** Where each character starts along the baseline, and the last one ends, in the units of `width` (operator-text.ts). */
  glyphEdges?: () => number[] | null;
}
export interface PdfTextContent {
  items: Array<PdfTextItem | { type: string }>;
  styles: Record<string, { fontFamily?: string; ascent?: number; descent?: number; vertical?: boolean }>;
}
export interface PdfOperatorList {
  fnArray: number[];
  argsArray: unknown[];
}
export interface PdfViewport {
  width: number;
  height: number;
  transform: number[];
}
export interface PdfPage {
  rotate: number;
  /** The page's visible box in user space: [x0, y0, x1, y1]. */
  view?: number[];
  getViewport(p: { scale: number }): PdfViewport;
  getTextContent(p?: Record<string, unknown>): Promise<PdfTextContent>;
  getOperatorList(p?: Record<string, unknown>): Promise<PdfOperatorList>;
  /** The page's annotations as pdf.js describes them (links: `subtype`, `rect`, `url`, `quadPoints`). */
  getAnnotations?(p?: Record<string, unknown>): Promise<unknown[]>;
  /** The page dictionary's reference. */
  ref?: { num: number; gen: number } | null;
  commonObjs: { get(name: string): unknown; has?(name: string): boolean };
  cleanup(): boolean | void;
}
