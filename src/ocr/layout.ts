/**
 * Lays out one recognised page. Runs in the OCR pool thread, like native layout runs in the text pool.
 */
import type { PageLayout } from '../pdf/layout/types.js';
import { ocrLayout, type OcrPage } from './page.js';

export function layoutOcrPage(page: OcrPage): PageLayout {
  return ocrLayout(page);
}
