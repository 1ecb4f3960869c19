/**
 * Text pool worker: extracts and lays out a range of pages of one document. The document bytes
 * arrive as a SharedArrayBuffer (shared, not copied per task); the opened document is kept for the
 * next range of the same parse, so a worker opens each document about once per parse.
 */
import { extractPage, type PdfPage } from '../src/pdf/extract.js';
import { layoutPage } from '../src/pdf/layout/engine.js';
import type { PageLayout } from '../src/pdf/layout/types.js';
import { needsOcr, type OcrDecision } from '../src/pdf/needs-ocr.js';
import { documentInfo, installInertFontFaces, installLoopbackShortcut, installSyncInflate, OPERATOR_LIMIT_MESSAGE, openPdf, operatorLimitReached, preloadPdfjs, PdfOpenError, type OpenedPdf, type PdfInfo } from '../src/pdf/pdfjs.js';

installSyncInflate();
installLoopbackShortcut();
installInertFontFaces();
preloadPdfjs();

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
}

export interface TextPageResult {
  layout: PageLayout;
  /** Null when the page failed before its text could be judged. */
  ocr: OcrDecision | null;
}

export type TextTaskResult =
  | { ok: true; info?: PdfInfo; pages: TextPageResult[] }
  | { ok: false; code: 'ENCRYPTED' | 'MALFORMED'; message: string };

interface Cached { key: string; opened: Promise<OpenedPdf>; timer: NodeJS.Timeout | null }
const cache: Cached[] = [];
const KEEP_MS = 3000;
const MAX_OPEN = 2;

function release(c: Cached): void {
  const i = cache.indexOf(c);
  if (i >= 0) cache.splice(i, 1);
  if (c.timer) clearTimeout(c.timer);
  c.opened.then((o) => o.destroy(), () => undefined);
}

function acquire(key: string, bytes: Uint8Array): Cached {
  let c = cache.find((x) => x.key === key);
  if (!c) {
    while (cache.length >= MAX_OPEN) release(cache[0]!);
    c = { key, opened: openPdf(bytes), timer: null };
    cache.push(c);
  }
  if (c.timer) clearTimeout(c.timer);
  c.timer = null;
  return c;
}

function park(c: Cached): void {
  if (!cache.includes(c)) return;
  // Unreferenced: an idle worker holding a document must not keep the process alive.
  c.timer = setTimeout(() => release(c), KEEP_MS);
  c.timer.unref();
}

function failed(pageNumber: number, message: string): TextPageResult {
  return { layout: { pageNumber, width: 0, height: 0, status: 'failed', error: message, blocks: [], stats: { fontChars: {}, chars: 0 } }, ocr: null };
}

export default async function run(task: TextTask): Promise<TextTaskResult> {
  // A warm-up task (no bytes, no pages): loading this module has started loading pdf.js.
  if (task.pages.length === 0 && task.bytes.byteLength === 0) return { ok: true, pages: [] };
  const c = acquire(task.docKey, task.bytes);
  let opened: OpenedPdf;
  try {
    opened = await c.opened;
  } catch (err) {
    release(c);
    if (err instanceof PdfOpenError) return { ok: false, code: err.code, message: err.message };
    return { ok: false, code: 'MALFORMED', message: `The PDF cannot be read: ${err instanceof Error ? err.message : String(err)}` };
  }
  try {
    const info = task.wantInfo ? await documentInfo(opened.doc) : undefined;
    const pages: TextPageResult[] = [];
    let wanted = task.pages;
    const limit = Math.min(opened.doc.numPages, task.maxPages ?? Infinity);
    if (task.wholeUpTo && limit <= task.wholeUpTo && limit > wanted.length) wanted = Array.from({ length: limit }, (_, i) => i + 1);
    for (const n of wanted) {
      if (n < 1 || n > opened.doc.numPages) continue;
      let page: PdfPage | null = null;
      operatorLimitReached();
      try {
        page = (await opened.doc.getPage(n)) as PdfPage;
        let input;
        try {
          input = await extractPage(page, n);
        } catch {
          // Broken drawing operators: the text alone may still be readable.
          input = await extractPage(page, n, { textOnly: true });
        }
        const cut = operatorLimitReached();
        const layout = layoutPage(input);
        if (cut) { layout.status = 'partial'; layout.error = OPERATOR_LIMIT_MESSAGE; }
        pages.push({ layout, ocr: needsOcr(input) });
      } catch (err) {
        pages.push(failed(n, `page ${n} could not be read: ${err instanceof Error ? err.message : String(err)}`));
      } finally {
        try { page?.cleanup(); } catch { /* already released */ }
      }
    }
    return { ok: true, ...(info ? { info } : {}), pages };
  } finally {
    park(c);
  }
}
