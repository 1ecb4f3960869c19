/**
 * Is a scan's text layer (the invisible text an earlier OCR left on the page) worth keeping? A poor
 * layer reads as letters strewn with spaces ("l e t t e r") and fragments with no vowel; a good one as
 * words. Measured on the corpus: pdf-with-ocr-text.pdf (a poor layer over a typewritten scan) had 49%
 * single-letter tokens and 40% word-like tokens, a1977-backus-p21.pdf (a good layer over a scan
 * heavy with formulas) 25% and 65%, born-digital text under 8% and over 80%. Only Latin-script
 * text is judged: the vowel test means nothing elsewhere.
 */
import type { PageLayout } from '../pdf/layout/types.js';

export interface TextLayerQuality {
  poor: boolean;
  /** Tokens with letters. */
  tokens: number;
  /** Share of letter tokens that are a single letter (other than a, A, I). */
  singleLetters: number;
  /** Share of letter tokens that look like words: letters only (with trailing punctuation) and a vowel. */
  wordLike: number;
}

const MIN_TOKENS = 20;

export function judgeTextLayer(text: string): TextLayerQuality {
  const tokens = text.split(/\s+/).filter((t) => /\p{L}/u.test(t));
  const letters = [...text.matchAll(/\p{L}/gu)].length;
  const latin = [...text.matchAll(/\p{Script=Latin}/gu)].length;
  let single = 0;
  let word = 0;
  for (const t of tokens) {
    const core = t.replace(/[^\p{L}]/gu, '');
    if ([...core].length === 1 && !/^[aAI]$/.test(core)) single++;
    if (/^[(["'«]?\p{L}[\p{L}'’-]*\p{L}[.,;:!?)\]"'»]*$/u.test(t) && /[aeiouyAEIOUY]/.test(t)) word++;
  }
  const n = Math.max(1, tokens.length);
  const q = { tokens: tokens.length, singleLetters: single / n, wordLike: word / n };
  const judged = tokens.length >= MIN_TOKENS && latin >= letters * 0.8;
  return { poor: judged && (q.singleLetters >= 0.35 || q.wordLike < 0.5), ...q };
}

/**
 * For `auto` mode: a page that is mostly one scanned image and whose text layer is poor is better
 * recognised again. `imageCoverage` comes from the per-page decision (src/pdf/needs-ocr.ts).
 */
export function poorScanTextLayer(layout: PageLayout, decision: { imageCoverage: number } | null): boolean {
  if (!decision || decision.imageCoverage < 0.5) return false;
  return judgeTextLayer(layout.blocks.map((b) => b.hints.text).join('\n')).poor;
}
