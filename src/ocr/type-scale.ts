/**
 * Whether tesseract was told a resolution too high for the page's type, and the one to read it at
 * again.
 *
 * Tesseract's rule finder (run first in automatic page segmentation) closes gaps of resolution/60
 * pixels, keeps dark runs at least resolution/4 long and at most resolution/20 thick, and erases them
 * as rules before any recognition. A line of text whose x-height is under resolution/20 pixels, with
 * letters set closer than the closing, passes for a rule: words are cut out of it ("Patient p' its
 * with persi occurring" for "Patient presents with persistent headaches occurring"). That happens
 * where the resolution a PDF declares overstates the type's scale (a letter-size page scanned at
 * 200 dpi placed on a smaller page) or where print is small. The x-height tesseract measured on the
 * lines it did read tells whether it can happen, and the separators it reports whether it did (a bar
 * as thick as the type); the page is then read again at a resolution where that x-height clears the
 * limit with a margin.
 */
import type { Box, HocrBlock } from './hocr.js';

/** The x-height must exceed tesseract's thin-rule limit (resolution/20) by this factor. */
const MARGIN = 1.3;
/** A second reading is worth it only when the safe resolution is this far below the one told. */
const REREAD_BELOW = 0.85;
/** Never tell less than this share of the declared resolution. */
const MIN_SHARE = 0.5;
/** Fewer characters than this tell nothing about the page's type. */
const MIN_CHARS = 100;

/** The x-height of the page's body text in pixels (the median over characters), or null. */
export function bodyXHeight(blocks: readonly HocrBlock[]): number | null {
  const heights: Array<[number, number]> = [];
  let total = 0;
  for (const b of blocks) {
    for (const p of b.paragraphs) {
      for (const l of p.lines) {
        const { rowHeight, ascenders, descenders } = l.rowAttributes;
        const x = rowHeight - ascenders - descenders;
        if (!(x > rowHeight * 0.3 && x < rowHeight * 0.8)) continue;
        const chars = l.words.reduce((n, w) => n + w.text.length, 0);
        if (!chars) continue;
        heights.push([x, chars]);
        total += chars;
      }
    }
  }
  if (total < MIN_CHARS) return null;
  heights.sort((a, b) => a[0] - b[0]);
  let seen = 0;
  for (const [x, n] of heights) {
    seen += n;
    if (seen * 2 >= total) return x;
  }
  return null;
}

/**
 * The resolution to read a page again at, after a reading at `told` dpi measured this x-height; null
 * when the reading stands.
 */
export function rereadDpi(told: number, xHeight: number | null): number | null {
  if (xHeight === null) return null;
  const safe = (xHeight * 20) / MARGIN;
  if (safe >= told * REREAD_BELOW) return null;
  return Math.round(Math.max(told * MIN_SHARE, safe));
}

/**
 * Whether the rule finder took out something as thick as a line of the page's type: a horizontal
 * separator at least this share of the x-height thick. Printed rules are thinner (1-5 px at 300 dpi
 * against 12 px of small type); a line of letters closed into a bar is about an x-height thick. A page
 * whose separators are all thin lost no text, and is not read again.
 */
const ERASED_SHARE = 0.6;

export function erasedText(separators: readonly Box[], xHeight: number | null): boolean {
  if (xHeight === null) return false;
  return separators.some((b) => b.x1 - b.x0 >= (b.y1 - b.y0) * 2 && b.y1 - b.y0 >= xHeight * ERASED_SHARE);
}

/** Characters read, weighted by confidence: the better of two readings of one page has more. */
export function readingWeight(blocks: readonly HocrBlock[]): number {
  let sum = 0;
  for (const b of blocks) for (const p of b.paragraphs) for (const l of p.lines) for (const w of l.words) sum += w.text.length * Math.max(0, w.confidence);
  return sum;
}
