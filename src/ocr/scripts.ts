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
import { wordsOf, type OcrPage } from './ocr-page.js';
import { scriptModels, type ModelSource } from './models.js';
import { commonWordList } from '../redact/gazetteer.js';

/** A reading more confident than this is taken as the configured languages reading their own script. */
export const OWN_SCRIPT_CONFIDENCE = 0.6;
/** A script model must read the page this much more confidently than the configured one to be used. */
export const SCRIPT_BETTER_BY = 0.15;
/**
 * Fewer letters than this on a page (its ink without the paper's grain): nothing to decide a script on,
 * and trying every installed model on it costs a model's start and a reading each (80 s of CPU for a
 * scanned page of two list items with seven models installed). The script pages of fixtures/ocr/scripts,
 * a heading and two sentences each, show 34-64.
 */
const MIN_MARKS = 24;

/**
 * A reading in which this share of the longer words are common English words is in its own (Latin)
 * script, however low its confidence: a poor scan, not another script. Read with an English model, a
 * Korean, Arabic or Devanagari page gives strings of letters that are almost never words, so trying
 * every installed script model (several whole-page readings) is kept for pages that read as no words.
 */
export const OWN_SCRIPT_WORD_SHARE = 0.3;
/** Words shorter than this say little about the language (initials, "a", "of"). */
const MIN_WORD_LETTERS = 3;

let commonWords: Set<string> | undefined;

/** Share of the reading's words of three letters or more that are common English words. */
export function commonWordShare(page: OcrPage): number {
  commonWords ??= new Set(commonWordList().split('\n'));
  let words = 0;
  let known = 0;
  for (const word of wordsOf(page)) {
    const bare = word.text.toLowerCase().replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
    if (bare.length < MIN_WORD_LETTERS) continue;
    words++;
    if (commonWords.has(bare)) known++;
  }
  return words === 0 ? 0 : known / words;
}

const cache = new Map<string, ModelSource[]>();

/** The script models worth trying on a page read as `page` with the configured languages, if any. */
export function scriptCandidates(page: OcrPage, marks: number, langPath: string | undefined): ModelSource[] {
  if (page.confidence >= OWN_SCRIPT_CONFIDENCE || marks < MIN_MARKS) return [];
  if (commonWordShare(page) >= OWN_SCRIPT_WORD_SHARE) return [];
  const key = langPath ?? '';
  let models = cache.get(key);
  if (!models) {
    models = scriptModels(langPath);
    cache.set(key, models);
  }
  return models;
}
