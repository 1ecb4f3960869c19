/**
 * Paragraphs broken by the page design, joined again in reading order: across a column break, and
 * under an inset (a box or a figure) set beside the paragraph.
 */
import { endsOpen, ENDS_SENTENCE, noteMarked, WIDE_LETTER } from '../lines.js';
import { CAPTION_RE } from '../tables.js';
import { grow, type El, type TextBlock } from './elements.js';

/**
 * A paragraph broken by the page design: the last line of a column stops without closing
 * punctuation and the next element in reading order, in another column, goes on in lower case in
 * the same face. The two parts are one paragraph.
 */
export function joinBrokenParagraphs(els: El[]): El[] {
  const out: El[] = [];
  for (const e of els) {
    if (e.kind === 'text' && goesOnUnderInset(out, e)) continue;
    const prev = out[out.length - 1];
    if (
      prev &&
      prev.kind === 'text' &&
      e.kind === 'text' &&
      !e.marker &&
      !prev.lines.some((l) => l.mono) &&
      !e.lines.some((l) => l.mono)
    ) {
      const last = prev.lines[prev.lines.length - 1]!.text;
      const first = e.lines[0]!.text;
      const otherColumn = e.x0 >= prev.x1 - prev.size || e.y1 <= prev.y0 + prev.size;
      const running = (prev.lines.length >= 2 || last.length > 80) && !CAPTION_RE.test(prev.lines[0]!.text);
      // (Or with a figure, where the column ended on a joining word: "... from 2.2 to" / "18.5 over".
      // In CJK text, without case: the column stops on a letter and the next goes on with one.)
      const goesOn =
        !ENDS_SENTENCE.test(last) &&
        (/^\p{Ll}/u.test(first) ||
          (/^\p{N}/u.test(first) && endsOpen(last)) ||
          (WIDE_LETTER.test(last.slice(-1)) && WIDE_LETTER.test(first[0] ?? '')));
      // A note's mark set after a full stop, wrapped to the head of the next column: no paragraph
      // opens with one at the text's size (a footnote is set smaller, under the text; and a note
      // after a note is the next note).
      if (
        otherColumn &&
        running &&
        (goesOn || (noteMarked(e.lines[0]!) && !noteMarked(prev.lines[0]!))) &&
        Math.abs(prev.size - e.size) < 0.6 &&
        prev.lines[0]!.bold === e.lines[0]!.bold
      ) {
        prev.lines.push(...e.lines);
        grow(prev, e);
        continue;
      }
    }
    out.push(e);
  }
  return out;
}

/**
 * A paragraph that goes on under an inset set beside it (a box or a figure in the text, the lines
 * beside it shorter): the lines below the inset are a block of their own, and the inset's blocks come
 * between the two in reading order. The continuation starts with a word in lower case right under
 * the paragraph's last line, flush with it, and every block between them stands beside the paragraph
 * and ends above the continuation. It joins the paragraph (the inset then follows it). True when it
 * joined.
 */
function goesOnUnderInset(out: El[], e: TextBlock): boolean {
  // Running text starts with a word in lower case ("flooded on purpose"), not a symbol (a formula).
  if (e.marker || e.lines.some((l) => l.mono) || !/^(?:\p{Ll}{2,}|a)[\s,;]/u.test(e.lines[0]!.text)) return false;
  // The paragraph is one of the last few blocks; those after it are the inset's.
  for (let k = out.length - 1; k >= Math.max(0, out.length - 5); k--) {
    const p = out[k]!;
    if (p.kind !== 'text' || p.lines.length < 2 || p.marker || p.lines.some((l) => l.mono)) continue;
    const last = p.lines[p.lines.length - 1]!;
    if (ENDS_SENTENCE.test(last.text) || Math.abs(p.size - e.size) >= 0.6 || p.lines[0]!.bold !== e.lines[0]!.bold)
      continue;
    if (Math.abs(e.x0 - p.x0) > p.size && !underLeftInset(out, p, e)) continue;
    const gap = e.y0 - last.y1;
    if (gap < -p.size * 0.3 || gap > p.size) continue;
    if (
      !out
        .slice(k + 1)
        .every(
          (b) =>
            (b.x0 >= p.x1 - p.size * 0.5 || b.x1 <= p.x0 + p.size * 0.5) && b.y0 < p.y1 && b.y1 <= e.y0 + p.size * 0.5,
        )
    )
      continue;
    p.lines.push(...e.lines);
    grow(p, e);
    return true;
  }
  return false;
}

/**
 * Whether `e` starts under an inset set at the left of paragraph `p` (a floating table or figure the
 * paragraph wraps around): some recent block stands beside `p` on its left, level with it, ends above
 * `e`, and starts where `e` starts; `e` ends where `p` ends, on the column's right edge.
 */
function underLeftInset(out: El[], p: TextBlock, e: TextBlock): boolean {
  if (e.x0 >= p.x0 || Math.abs(e.x1 - p.x1) > p.size * 2) return false;
  return out
    .slice(-6)
    .some(
      (b) =>
        b !== p &&
        b.x1 <= p.x0 + p.size * 0.5 &&
        Math.abs(b.x0 - e.x0) < p.size * 2 &&
        b.y0 < p.y1 &&
        b.y1 > p.y0 &&
        b.y1 <= e.y0 + p.size * 0.5,
    );
}
