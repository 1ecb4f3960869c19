/**
 * The per-page decision of `auto` mode: does the native text layer carry the page, or must the page
 * be recognised from its pixels? Runs on a page's native extraction (the same `PageInput` the layout
 * engine reads), so it costs nothing beyond the text pass.
 */
import type { PageInput } from '../layout/types.js';
import { implausibleSpelling } from './spelling.js';

export interface OcrDecision {
  needed: boolean;
  /** Short reason, for metadata and debugging: 'blank', 'no-text', 'image-only', 'garbage-text', ... */
  reason: string;
  /** Visible characters of the native text layer. */
  chars: number;
  /** Share of those characters that look broken (U+FFFD, private use, controls, unmapped glyphs). */
  badRatio: number;
  /** Share of the page area covered by images (0..1, overlaps counted once per image). */
  imageCoverage: number;
  /**
   * The text reads as letters but not as a language (src/pdf/spelling.ts): a font whose Unicode map
   * names other letters than it draws. Such a page is recognised and kept native when the two agree.
   */
  verify?: boolean;
}

// U+FFFD, C0/C1 controls (not tab/newline), private-use areas: what unmapped glyphs decode to.
const BAD_CHAR =
  /[\uFFFD\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uE000-\uF8FF]|[\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}]/u;

const SPACE = /\s/;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

// A symbol repeated three or more times, spaces allowed between: dot leaders of a table of contents,
// rules typed as dashes or underscores, form blanks. They are symbols, but nothing about the font.
const LEADER = /([^\p{L}\p{N}\s])(?:\s*\1){2,}/gu;

/** `spelling`: also flag text that spells like no language (`verify`); only auto mode acts on it. */
export function needsOcr(page: PageInput, opts: { spelling?: boolean } = {}): OcrDecision {
  let chars = 0;
  let bad = 0;
  let letters = 0;
  // Characters other than leaders, for the symbols-instead-of-letters test.
  let judged = 0;
  for (const item of page.items) {
    const text = item.text;
    // Runs on every page in every mode: ASCII is classified by code, other characters by pattern.
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x80) {
        if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) continue;
        chars++;
        if (c < 0x20 || c === 0x7f) bad++;
        else if ((c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a)) letters++;
        continue;
      }
      let ch = text[i]!;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) ch = text.slice(i, ++i + 1);
      if (SPACE.test(ch)) continue;
      chars++;
      if (BAD_CHAR.test(ch)) bad++;
      else if (LETTER_OR_DIGIT.test(ch)) letters++;
    }
    const leaders = item.text.match(LEADER);
    let leaderChars = 0;
    if (leaders) for (const run of leaders) if (!BAD_CHAR.test(run)) leaderChars += run.replace(/\s/g, '').length;
    judged -= leaderChars;
  }
  judged += chars;
  const area = Math.max(1, page.width * page.height);
  let imageArea = 0;
  for (const img of page.images) {
    const w = Math.max(0, Math.min(img.x1, page.width) - Math.max(img.x0, 0));
    const h = Math.max(0, Math.min(img.y1, page.height) - Math.max(img.y0, 0));
    imageArea += w * h;
  }
  const imageCoverage = Math.min(1, imageArea / area);
  const badRatio = chars ? bad / chars : 0;
  const base = { chars, badRatio, imageCoverage };

  // A page that paints nothing at all is blank: its pixels hold nothing to read (separator pages, the
  // empty pages of a damaged or padded file), and recognising them would cost a second or so each.
  if (chars === 0 && page.images.length === 0 && page.paints === 0) return { needed: false, reason: 'blank', ...base };
  if (chars === 0) return { needed: true, reason: page.images.length ? 'image-only' : 'no-text', ...base };
  if (badRatio > 0.1) return { needed: true, reason: 'garbage-text', ...base };
  // Text made almost entirely of symbols (a font without a usable ToUnicode map often decodes so).
  if (judged >= 20 && letters / judged < 0.3) return { needed: true, reason: 'garbage-text', ...base };
  // A page mostly covered by an image but with only a few words of text (a scan with a stamp or a
  // page number laid over it): the image carries the content.
  if (imageCoverage > 0.5 && chars < 40 + 200 * (1 - imageCoverage))
    return { needed: true, reason: 'sparse-text-over-image', ...base };
  if (opts.spelling && implausibleSpelling(page.items.map((i) => i.text).join(' ')))
    return { needed: false, verify: true, reason: 'implausible-text', ...base };
  return { needed: false, reason: 'native-text', ...base };
}
