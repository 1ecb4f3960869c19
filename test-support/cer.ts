/**
 * Character error rate: edit distance between recognised and true text over the length of the truth.
 * Whitespace runs count as one space and typographic quotes and dashes are folded, so layout and
 * typography choices are not counted as recognition errors.
 */
import { editDistance as sequenceEditDistance } from './text-metrics.js';

export function normalizeForCer(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u201B\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201F\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Levenshtein distance over code points (text-metrics.ts holds the one edit distance). */
export function editDistance(a: string, b: string): number {
  return sequenceEditDistance([...a], [...b]);
}

/** CER of `hypothesis` against `truth`, both normalised; 0 is perfect, can exceed 1. */
export function cer(hypothesis: string, truth: string): number {
  const h = normalizeForCer(hypothesis);
  const t = normalizeForCer(truth);
  if (t.length === 0) return h.length === 0 ? 0 : 1;
  return editDistance(h, t) / [...t].length;
}
