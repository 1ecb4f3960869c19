/**
 * Where OCR plugs into the PDF reader (see the comment at the top of src/pdf/reader.ts).
 *
 * Contract: given the parse context and 1-based page numbers, resolve to one `PageLayout` per page
 * that could be recognised (status `ok`/`partial`, blocks with source `layout_ocr`), or a layout with
 * status `failed` and `error` for a page whose recognition failed. Pages left out are treated as
 * "OCR unavailable". Must honour `ctx.signal` (reject with its reason) and run on its own pool.
 */
import type { ReaderContext } from '../readers/reader.js';
import type { PageLayout } from './layout/types.js';
// OCR integration: the OCR pool (src/ocr/pool.ts) fulfils this contract.
import { recognizePages } from '../ocr/pool.js';

export async function recognisePages(ctx: ReaderContext, pageNumbers: number[]): Promise<PageLayout[]> {
  const results = await recognizePages(ctx.runtime, ctx.bytes, pageNumbers, { signal: ctx.signal });
  return results.map((r) => r.layout);
}
