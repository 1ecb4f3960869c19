/**
 * Notes at the foot of the page: note numbers set at a tab before their text joined to it, and
 * footnote blocks told apart (read after the page's text, never list items).
 */
import { makeLine, type Line } from '../lines.js';
import { FOOTNOTE_MIN_Y } from '../thresholds.js';
import { hOverlap, type El, type TextBlock } from './elements.js';

const NOTE_SIGN = /^[∗*†‡§¶]/;

export function isFootnote(e: TextBlock, pageBody: number, H: number): boolean {
  // (An asterisk read as a bullet opens a note when set smaller than the text, under it.)
  if (
    (e.marker && !(e.marker.kind === 'bullet' && NOTE_SIGN.test(e.marker.text))) ||
    e.size > pageBody * 0.9 ||
    e.y0 < H * FOOTNOTE_MIN_Y
  )
    return false;
  const first = e.lines[0]!;
  const w0 = first.words[0];
  if (!w0) return false;
  if (NOTE_SIGN.test(first.text)) return true;
  // A raised, smaller number before the note's text.
  return (
    first.words.length > 1 &&
    /^\d{1,3}$/.test(w0.text.trim()) &&
    w0.size < first.size * 0.85 &&
    w0.y1 < first.y1 - first.size * 0.1
  );
}

/**
 * Notes whose number stands at a tab before their text (LibreOffice's and Word's notes at the page
 * foot: "2", an em of space, "The textured creep curve…"): the row splits there, and the number
 * alone would read as a page number, the note beside it as a footer level with it. A lone number of
 * one to three figures in the lower half of the page, in a face smaller than the page's text, with
 * a line of words in its size level with it that starts within two of its ems and reads as a note
 * (a sentence, or most of a line), is that line's start. (Tables have taken their lines already; a
 * page number beside a running title stands further off, or the title is short and stops without
 * a stop.)
 */
export function joinNoteNumbers(lines: Line[], pageBody: number, H: number): Line[] {
  const numbers = lines.filter((l) => /^\d{1,3}$/.test(l.text) && l.y0 > H * 0.5 && l.size <= pageBody * 0.9);
  if (!numbers.length) return lines;
  const joined = new Map<Line, Line>();
  const taken = new Set<Line>();
  for (const n of numbers) {
    let best: Line | null = null;
    for (const l of lines) {
      if (l === n || taken.has(l) || Math.abs(l.size - n.size) > 0.5 || Math.abs(l.y0 - n.y0) > n.size * 0.3) continue;
      const gap = l.x0 - n.x1;
      if (
        gap < 0 ||
        gap > n.size * 2 ||
        !/^\p{L}/u.test(l.text) ||
        l.text.split(' ').length < 4 ||
        !(/[.!?)]$/.test(l.text) || l.text.length >= 60)
      )
        continue;
      if (!best || l.x0 < best.x0) best = l;
    }
    if (!best) continue;
    taken.add(best);
    joined.set(n, makeLine([...n.words, ...best.words], false));
  }
  const out: Line[] = [];
  for (const l of lines) if (!taken.has(l)) out.push(joined.get(l) ?? l);
  return out;
}

/**
 * Footnotes at the foot of a column (smaller face, opening with a raised number or a note sign) are
 * read after the text of the page, not between the columns: `body` (in reading order) with its notes
 * moved last, and the notes (those of the bottom margin as well), which lose any list marker.
 */
export function footnotesLast(
  body: El[],
  bottom: readonly El[],
  pageBody: number,
  H: number,
): { body: El[]; notes: Set<El> } {
  const notes = new Set(
    body.filter(
      (e) =>
        e.kind === 'text' &&
        isFootnote(e, pageBody, H) &&
        !body.some(
          (o) => o !== e && o.kind === 'text' && o.size > e.size * 1.1 && hOverlap(o, e) > 0 && o.y0 >= e.y1 - 1,
        ),
    ),
  );
  if (notes.size) body = [...body.filter((e) => !notes.has(e)), ...body.filter((e) => notes.has(e))];
  // A note set low enough to count as margin text is a note as well (not a list item, not a footer).
  for (const e of bottom) if (e.kind === 'text' && isFootnote(e, pageBody, H)) notes.add(e);
  for (const n of notes) if (n.kind === 'text') n.marker = null;
  return { body, notes };
}
