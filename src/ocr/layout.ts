/**
 * Lays out one recognised page with the same engine as native text (columns, lists, tables, heading
 * hints), fed the recognised words; runs in the OCR pool thread, as native layout runs in the text
 * pool. Blocks then get `source: layout_ocr` and the mean confidence of their words.
 */
import { layoutPage } from '../layout/engine.js';
import type { LinkArea, PageLayout } from '../layout/types.js';
import { rowsForDoubtfulTables } from './doubtful-tables.js';
import { annotateOcrBlocks, ocrLayout, toPageInput, type OcrPage } from './page.js';

/**
 * A page kept as its plain reading (src/ocr/plain-reading.ts) laid out as the engine read it: its
 * paragraphs in tesseract's own block order. That reading won because the processing read the page worse,
 * and the processing is also what the layout's structure stands on (the deskew that levels its rows,
 * the rules that bound its tables); without it, the layout analysis of the tilted, unruled words built
 * tables across prose and read columns out of order (bench/README.md, "OCR quality on scans like
 * users'": on the tuning pages the plain reading laid out read 2-22 points of CER worse than the same
 * words in the engine's order).
 */
export function layoutPlainReading(page: OcrPage): PageLayout {
  return ocrLayout(page);
}

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
  layout.blocks = rowsForDoubtfulTables(layout.blocks, page);
  return layout;
}
