/**
 * Where OCR plugs into the PDF reader (see the comment at the top of src/pdf/reader.ts).
 *
 * Contract: given the parse context and 1-based page numbers, resolve to one `PageLayout` per page
 * that could be recognised (status `ok`/`partial`, blocks with source `layout_ocr`), or a layout with
 * status `failed` and `error` for a page whose recognition failed. Pages left out are treated as
 * "OCR unavailable". Must honour `ctx.signal` (reject with its reason) and run on its own pool.
 *
 * Time: recognition stops short of the parse's deadline, leaving `deadlineMargin` for the rest of the
 * parse (document passes, serialising, redaction) so the answer still arrives within `timeout`.
 * Pages not recognised by then come back failed and `ocrTimedOut` is true for them; their tasks
 * are cancelled, so nothing keeps running once the caller has its answer.
 */
import type { ReaderContext } from '../readers/reader.js';
import type { PageLayout } from '../layout/types.js';
// OCR integration: the OCR pool (src/ocr/pool.ts) fulfils this contract. It is imported when OCR
// first runs: its stack (sharp with libvips, tesseract.js) costs 0.15-0.3 CPU s and about 25 MB in
// every thread that loads it, and fast mode, most parses, never recognises a page.
type OcrPool = typeof import('../ocr/pool.js');
let ocrPool: OcrPool | undefined;
import { deadlineMargin } from './deadline.js';

// How a page's text layer is judged against what recognition read (src/ocr/text-layer.ts).
export { layoutText, poorScanTextLayer, TEXT_LAYER_MISMATCH, textAgreement } from '../ocr/text-layer.js';

export async function recognisePages(ctx: ReaderContext, pageNumbers: number[]): Promise<PageLayout[]> {
  // Without a deadline (FileInfo.noTimeout) recognition is not cut short.
  const stopAt = Number.isFinite(ctx.deadline) ? ctx.deadline - deadlineMargin(ctx.options.timeout) : undefined;
  ocrPool ??= await import('../ocr/pool.js');
  const results = await ocrPool.recognizePages(ctx.runtime, ctx.bytes, pageNumbers, { signal: ctx.signal, stopAt });
  return results.map((r) => r.layout);
}

/** True for a page whose recognition was given up because the parse's time ran out. */
export function ocrTimedOut(layout: PageLayout | undefined): boolean {
  // No OCR pool loaded: no page was recognised, so none was given up.
  return layout !== undefined && ocrPool !== undefined && ocrPool.isOcrTimeout(layout);
}
