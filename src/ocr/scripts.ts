/**
 * Pages in another script than the configured languages' (Korean, Arabic, Hebrew, Chinese, Japanese,
 * Devanagari, Cyrillic, ...): read with the installed model of their script (src/ocr/models.ts).
 *
 * The script is found by reading: a page the configured model reads with low confidence is read again
 * with each installed script model, and the model that reads it with clearly the highest confidence
 * wins. tesseract's own orientation-and-script detection (`@tesseract.js-data/osd`) was tried first
 * and dropped: on the short pages of fixtures/ocr/scripts it named Hebrew "Thai", Chinese "Japanese",
 * and found no script at all on the Arabic and Hindi pages ("too few characters"), while the readings'
 * confidences told every page apart (the right model 85–95, every other one 74 or less, English 45 or
 * less; fixtures/ocr/scripts/README.md).
 */
import type { OcrPage } from './ocr-page.js';
import { scriptModels, type ModelSource } from './models.js';

/** A reading more confident than this is taken as the configured languages reading their own script. */
export const OWN_SCRIPT_CONFIDENCE = 0.6;
/** A script model must read the page this much more confidently than the configured one to be used. */
export const SCRIPT_BETTER_BY = 0.15;
/** Fewer dark marks than this on a page: nothing to decide a script on. */
const MIN_MARKS = 8;

const cache = new Map<string, ModelSource[]>();

/** The script models worth trying on a page read as `page` with the configured languages, if any. */
export function scriptCandidates(page: OcrPage, marks: number, langPath: string | undefined): ModelSource[] {
  if (page.confidence >= OWN_SCRIPT_CONFIDENCE || marks < MIN_MARKS) return [];
  const key = langPath ?? '';
  let models = cache.get(key);
  if (!models) {
    models = scriptModels(langPath);
    cache.set(key, models);
  }
  return models;
}
