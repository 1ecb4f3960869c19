/**
 * Lays out one recognised page with the same engine as native text (columns, lists, tables, heading
 * hints), fed the recognised words; runs in the OCR pool thread, as native layout runs in the text
 * pool. Blocks then get `source: layout_ocr` and the mean confidence of their words.
 */
import { layoutPage } from '../layout/engine.js';
import type { LinkArea, PageLayout } from '../layout/types.js';
import { annotateOcrBlocks, ocrLayout, toPageInput, type OcrPage } from './page.js';

/** `links`: the page's link areas, in the frame of the recognised words (see workers/ocr-worker.ts). */
export function layoutOcrPage(page: OcrPage, links: readonly LinkArea[] = []): PageLayout {
  const input = toPageInput(page);
  if (links.length) input.links = [...links];
  let layout: PageLayout;
  try {
    layout = layoutPage(input);
  } catch (err) {
    // The page is still worth its recognised paragraphs; say why the structure is missing.
    layout = ocrLayout(page);
    layout.status = 'partial';
    layout.error = `layout analysis failed on the recognised page: ${err instanceof Error ? err.message : String(err)}`;
    return layout;
  }
  annotateOcrBlocks(
    layout.blocks.map((b) => b.block),
    input,
  );
  return layout;
}
