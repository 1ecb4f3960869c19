/**
 * The response document of a parse: the `data` member of a successful `POST /v2/parse` response.
 * Every member follows the web-data-service v2 specification; members that a parse never produces
 * (screenshot, audio, actions, branding, ...) are typed so that a shared client can read the same shape.
 */

/** Layout block types the engine emits. The specification says new types may appear over time. */
export type BlockType =
  | 'title'
  | 'section_header'
  | 'text'
  | 'list_item'
  | 'table'
  | 'formula'
  | 'figure'
  | 'caption'
  | 'code'
  | 'page_number'
  | 'page_header'
  | 'page_footer';

/** Page rollup status: `ok`, `partial` (some of the page could not be read) or `failed`. */
export type PageStatus = 'ok' | 'partial' | 'failed';

/** Pipeline path that produced a block. */
export type BlockSource = 'native_text' | 'layout_ocr' | 'full_page' | 'tsr' | 'formula_model' | (string & {});

export interface BlockConfidence {
  /** 0..1; null when layout analysis was bypassed. */
  layout: number | null;
  /** 0..1; null when the block was not produced by OCR. */
  ocr: number | null;
}

export interface LayoutBlock {
  /** `p<page>.b<index in reading order>`, stable within one response. */
  id: string;
  type: BlockType;
  /** Raw label of the layout analysis that produced the block. */
  label: string | null;
  /** `[x0, y0, x1, y1]` normalised to 0..1 of the page; null when the page has no geometry. */
  bbox: [number, number, number, number] | null;
  /** The markdown fragment the block contributed. */
  content: string;
  /** `[start, end)` offsets into `markdown`; null when a later transform rewrote the fragment. */
  markdownSpan: [number, number] | null;
  readingOrder: number;
  source: BlockSource | null;
  confidence: BlockConfidence;
}

export interface LayoutPage {
  pageNumber: number;
  /**
   * Page size in pixels (72 dpi for native PDF pages) as the page is displayed (its /Rotate applied, as
   * pdf.js's viewport gives it); `bbox` is in the same frame. Null for pages that have no geometry.
   */
  width: number | null;
  height: number | null;
  status: PageStatus;
  items: LayoutBlock[];
}

export interface PageMarkdown {
  /** 1-based physical page (slide for presentations, sheet for spreadsheets). */
  pageNumber: number;
  markdown: string;
}

export interface DocumentMetadata {
  title?: string | string[];
  description?: string | string[];
  keywords?: string | string[];
  language?: string | string[] | null;
  sourceURL?: string;
  url?: string;
  ogLocaleAlternate?: string[];
  statusCode?: number;
  /** Pages parsed (after `maxPages`), for paged inputs. */
  numPages?: number;
  /** True page count before capping; omitted when it cannot be determined. */
  totalPages?: number;
  contentType?: string;
  /** Per-page or per-part problems, joined; null when there were none. */
  error?: string | null;
  concurrencyLimited?: boolean;
  concurrencyQueueDurationMs?: number;
  /** Other metadata (HTML meta tags, document properties): string or array of strings. */
  [key: string]: string | string[] | number | boolean | null | undefined;
}

export interface ParseDocument {
  markdown?: string;
  pages?: PageMarkdown[] | null;
  blocks?: LayoutPage[] | null;
  summary?: string | null;
  html?: string | null;
  rawHtml?: string | null;
  links?: string[];
  images?: string[];
  /** Structured extraction result of the `json` format. */
  json?: unknown;
  screenshot?: string | null;
  audio?: string | null;
  video?: string | null;
  answer?: string | null;
  highlights?: string | null;
  actions?: Record<string, unknown> | null;
  changeTracking?: Record<string, unknown> | null;
  branding?: Record<string, unknown> | null;
  product?: Record<string, unknown> | null;
  menu?: Record<string, unknown> | null;
  metadata: DocumentMetadata;
  /** Problems that did not stop the parse (formats that could not be produced, content left out). */
  warning?: string | null;
}

/** The body of a successful parse over HTTP. */
export interface ParseResponse {
  success: true;
  data: ParseDocument;
}
