/**
 * Is a scan's text layer (the invisible text an earlier OCR left on the page) worth keeping? A poor
 * layer reads as letters strewn with spaces ("l e t t e r") and fragments with no vowel; a good one as
 * words. Measured on the corpus: pdf-with-ocr-text.pdf (a poor layer over a typewritten scan) had 49%
 * single-letter tokens and 40% word-like tokens, a1977-backus-p21.pdf (a good layer over a scan
 * heavy with formulas) 25% and 65%, born-digital text under 8% and over 80%. Only Latin-script
 * text is judged: the vowel test means nothing elsewhere.
 */
import type { PageLayout } from '../layout/types.js';

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

/**
 * How much of the same text two readings of a page share: the Dice coefficient of their letter and
 * digit bigrams (case and accents folded, everything else a word break), 0..1. Recognition errors
 * of a few percent leave it above 0.8; a text layer that names other letters than the page shows
 * shares little more than chance (under 0.3) with what the page shows.
 */
export function textAgreement(a: string, b: string): number {
  const grams = (s: string): Map<string, number> => {
    const m = new Map<string, number>();
    const words = s
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u);
    for (const w of words)
      for (let i = 0; i + 1 < w.length; i++) m.set(w.slice(i, i + 2), (m.get(w.slice(i, i + 2)) ?? 0) + 1);
    return m;
  };
  const x = grams(a);
  const y = grams(b);
  let nx = 0;
  let ny = 0;
  let both = 0;
  for (const v of x.values()) nx += v;
  for (const [k, v] of y) {
    ny += v;
    both += Math.min(v, x.get(k) ?? 0);
  }
  return nx + ny === 0 ? 1 : (2 * both) / (nx + ny);
}

/** Below this agreement a page's text layer is taken not to be what the page shows. */
export const TEXT_LAYER_MISMATCH = 0.5;

/** All the text of a page's blocks (every text inline of every node, tables and lists included). */
export function layoutText(layout: PageLayout): string {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (o.type === 'text' && typeof o.text === 'string') out.push(o.text);
      else for (const x of Object.values(o)) if (x && typeof x === 'object') walk(x);
    }
  };
  for (const b of layout.blocks) walk(b.block.node);
  return out.join(' ');
}
