/**
 * "Do no harm": every image step before recognition (evening the light, speck removal, deskew, bar and
 * shade removal, rule removal, rescaling) is a bet that can lose on a real scan. When the engine's own
 * report on the processed reading says it is doubtful, the page's plain grey render (no processing at
 * all, page segmentation mode 3) is read too, and the reading with more confident dictionary words is
 * kept. A confident processed reading is kept without the second reading, so the common page costs
 * nothing extra; a doubtful one costs one more recognition of the page.
 *
 * The evidence is what tesseract reports, nothing about the truth: each word's confidence, and whether
 * the word is one the shipped dictionary of common English words knows (or a number). A misread
 * ("serews", "foree", words run together) is neither, so a reading that keeps more of the page's words
 * right has more of them, each weighted by how sure the engine is of it.
 */
import { commonWordList } from '../redact/gazetteer.js';
import { wordsOf, type OcrPage } from './ocr-page.js';
import type { PreprocessOptions } from './preprocess.js';

/** What the engine reports on one reading of a page. */
export interface ReadingEvidence {
  /** Words read. */
  words: number;
  /** Mean word confidence, 0..1 (0 without words). */
  confidence: number;
  /** Share of the words (of two characters or more, or numbers) the dictionary knows: 0..1. */
  dictionaryShare: number;
  /** Confident dictionary words: the sum of word confidences over the words the dictionary knows. */
  score: number;
}

/**
 * A processed reading is doubtful below this mean word confidence. tesseract's LSTM reads clean printed
 * pages at 0.95-0.96 (bench/README.md, "OCR quality on scans like users'"); a two-column scan whose
 * processed reading lost its footnotes (60 of 700 words) came out at 0.917-0.925, the pages it lost
 * words on at 0.66-0.93.
 */
export const DOUBTFUL_CONFIDENCE = 0.93;
/**
 * ... or when fewer than this share of its words are dictionary words or numbers: running English text
 * is 85-95% such words, tables of names and figures about as much; a reading where a third of the words
 * are unknown has broken words.
 */
export const DOUBTFUL_SHARE = 0.7;
/** A page with fewer words than this is judged by the plain reading too: a few words tell nothing. */
const FEW_WORDS = 5;

/** The plain reading: the render as grey, nothing else done to it (no deskew, no shade or rule removal). */
export const PLAIN_PREPROCESS: PreprocessOptions = {
  grayscale: true,
  normalize: false,
  threshold: false,
  deskew: false,
  evenLight: false,
  despeckle: false,
  invertBars: false,
  flattenFills: false,
  removeRules: false,
};

let dictionary: Set<string> | null = null;
/** The word without the punctuation around it, in lower case. */
const bare = (w: string) => w.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

/** Whether `word` is a number or a word the dictionary knows (plural -s taken off when it helps). */
export function dictionaryWord(word: string): boolean {
  const w = bare(word);
  if (!w) return false;
  if (/^[\d.,:/%$€£-]+$/.test(w)) return /\d/.test(w);
  if (w.length < 2) return /^[ai]$/.test(w);
  // SCOWL's common English vocabulary, shipped for redaction (src/redact/gazetteer.ts); a set on first use.
  dictionary ??= new Set(commonWordList().split('\n'));
  return dictionary.has(w) || (w.endsWith('s') && dictionary.has(w.slice(0, -1)));
}

/** The engine's report on a reading: its words' confidences and dictionary hits. */
export function evidenceOf(page: OcrPage): ReadingEvidence {
  let words = 0;
  let sum = 0;
  let known = 0;
  let score = 0;
  for (const w of wordsOf(page)) {
    words++;
    sum += w.confidence;
    if (dictionaryWord(w.text)) {
      known++;
      score += w.confidence;
    }
  }
  return { words, confidence: words ? sum / words : 0, dictionaryShare: words ? known / words : 0, score };
}

/** Whether a processed reading is doubtful enough for the plain render to be read too. */
export function isDoubtful(e: ReadingEvidence): boolean {
  return e.words < FEW_WORDS || e.confidence < DOUBTFUL_CONFIDENCE || e.dictionaryShare < DOUBTFUL_SHARE;
}

/**
 * Whether the plain reading wins: more confident dictionary words than the processed one. Ties keep the
 * processed reading (it carries the rules and the deskew the layout uses).
 */
export function plainReadsBetter(processed: ReadingEvidence, plain: ReadingEvidence): boolean {
  return plain.score > processed.score;
}
