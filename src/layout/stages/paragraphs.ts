/**
 * Lines → paragraphs and list items: each line joins the open block above it that it goes on from
 * (same column, size and face, at the block's leading, not starting something new), or opens a
 * block of its own; then stacks of short one-line items are taken apart.
 */
import { endsOpen, ENDS_SENTENCE, isNumberedEquation, noteMarked, type Line } from '../lines.js';
import { LABELLED_VALUE } from '../tables.js';
import { MAX_LINES_COMPARED, NEIGHBOUR_WINDOW, NESTED_NUMBER_LOOKBACK } from '../thresholds.js';
import type { Box } from '../types.js';
import { grow, hOverlap, type Marker, type TextBlock } from './elements.js';
import { hangingTerms } from './hanging-terms.js';
import { letterBullet, listMarker, nestedNumber, pictureBullets, textStart } from './markers.js';

// A table-of-contents entry: dot (or space) leaders then a page number.
/** A line of one sign repeated (five or more): a rule typed as text. */
const TYPED_RULE = /^([=\-_~*#·•─━═])\1{4,}$/u;
const TOC_LINE = /(?:\.{3,}|…+|(?:\. ?){3,})\s*[\divxlc]{1,5}$/i;
const CODE_LINE =
  /[{}();=\[\]<>]|^\s*(?:import|from|def|return|for|if|else|while|class|function|var|let|const|public|private|#include)\b/;

/** Monospaced lines of which two in five or more look like program text. */
export function looksLikeCode(lines: readonly Line[]): boolean {
  return (
    lines.length > 0 &&
    lines.every((l) => l.mono) &&
    lines.filter((l) => CODE_LINE.test(l.text)).length >= lines.length * 0.4
  );
}

/** What the paragraph pass knows of the page's lines, worked out once before lines are joined. */
interface LinesAround {
  /** The line directly below each line (same column, normal leading). */
  below: Map<Line, Line>;
  /** A line that stops well short of its column. */
  isShort: (L: Line) => boolean;
  /** A line set flush right with the next that starts well right of the text it is set flush with. */
  isShortLeft: (L: Line, next: Line) => boolean;
  /** Fields of a form row ("Prepared by: ..." beside "Checked by: ..."). */
  fieldRow: Set<Line>;
  /** The leading of a page set with wide leading, or null. */
  wide: { size: number; gap: number } | null;
  /** Whether a number opening a line at this margin has its neighbour in the sequence nearby. */
  sequenceAt: (L: Line, value: number) => boolean;
}

/** The line directly below each line (same column, normal leading). */
function linesBelow(sorted: Line[]): Map<Line, Line> {
  const below = new Map<Line, Line>();
  for (let i = 0; i < sorted.length; i++) {
    const L = sorted[i]!;
    for (let j = i + 1; j < sorted.length; j++) {
      const M = sorted[j]!;
      if (M.y0 - L.y1 > L.size * 0.8) break;
      if (M.y0 > L.y0 + L.size * 0.5 && hOverlap(L, M) > 0) {
        below.set(L, M);
        break;
      }
    }
  }
  return below;
}

/**
 * Right edge of the column a line sits in: the furthest right edge among nearby lines that start
 * where it starts.
 */
function columnRights(sorted: Line[]): Map<Line, number> {
  const colRight = new Map<Line, number>();
  if (sorted.length <= MAX_LINES_COMPARED) {
    for (let i = 0; i < sorted.length; i++) {
      const L = sorted[i]!;
      let r = L.x1;
      // A line of another column level with this one bounds the column: a full-width line (an
      // abstract, a caption) further up does not tell where this column ends.
      let limit = Infinity;
      // (Lines of running text only: a short cell beside another keeps the wider view.)
      if (L.x1 - L.x0 >= L.size * 12)
        for (let j = Math.max(0, i - NEIGHBOUR_WINDOW); j < Math.min(sorted.length, i + NEIGHBOUR_WINDOW); j++) {
          const M = sorted[j]!;
          if (M.x0 > L.x1 && Math.abs(M.y0 - L.y0) < L.size * 0.5) limit = Math.min(limit, M.x0);
        }
      for (let j = Math.max(0, i - NEIGHBOUR_WINDOW); j < Math.min(sorted.length, i + NEIGHBOUR_WINDOW); j++) {
        const M = sorted[j]!;
        if (M.x1 > limit) continue;
        if (
          Math.abs(M.x0 - L.x0) < L.size * 2 &&
          Math.abs(M.size - L.size) < 1.5 &&
          Math.abs(M.y0 - L.y0) < L.size * 30
        )
          r = Math.max(r, M.x1);
      }
      colRight.set(L, r);
    }
  }
  return colRight;
}

/**
 * Left edge of the text a line is set flush right with: the furthest left start among nearby lines
 * of its size that end where it ends (a paragraph or a return address set flush right).
 * (Asked only of lines set flush right with the next: worked out when first asked.)
 */
function columnLeftFinder(sorted: Line[]): (L: Line) => number {
  const colLeft = new Map<Line, number>();
  const indexOf = new Map<Line, number>();
  return (L: Line): number => {
    const known = colLeft.get(L);
    if (known !== undefined) return known;
    if (!indexOf.size) sorted.forEach((M, k) => indexOf.set(M, k));
    const i = indexOf.get(L) ?? 0;
    let l = L.x0;
    for (let j = Math.max(0, i - NEIGHBOUR_WINDOW); j < Math.min(sorted.length, i + NEIGHBOUR_WINDOW); j++) {
      const M = sorted[j]!;
      if (
        Math.abs(M.x1 - L.x1) < L.size * 0.5 &&
        Math.abs(M.size - L.size) < 1.5 &&
        Math.abs(M.y0 - L.y0) < L.size * 30
      )
        l = Math.min(l, M.x0);
    }
    colLeft.set(L, l);
    return l;
  };
}

/**
 * Fields of a form row: a "Label: value" line with another one level with it ("Prepared by: ..."
 * beside "Checked by: ..."). Such a field is complete; the line under it is not its continuation.
 */
function fieldRows(sorted: Line[]): Set<Line> {
  const fieldRow = new Set<Line>();
  for (let i = 0; i < sorted.length; i++) {
    const L = sorted[i]!;
    if (!LABELLED_VALUE.test(L.text)) continue;
    for (let j = i + 1; j < sorted.length && sorted[j]!.y0 - L.y0 < L.size * 0.3; j++) {
      const M = sorted[j]!;
      if (Math.abs(M.size - L.size) < 1 && (M.x0 > L.x1 || M.x1 < L.x0) && LABELLED_VALUE.test(M.text)) {
        fieldRow.add(L);
        fieldRow.add(M);
      }
    }
  }
  return fieldRow;
}

/** Numbered lines by value, for the sequence test: whether the next or previous number starts a line at L's margin. */
function numberSequence(sorted: Line[]): (L: Line, value: number) => boolean {
  const numbered = new Map<number, Line[]>();
  for (const L of sorted) {
    const m = /^\(?(\d{1,3})[.)]\s/.exec(L.text);
    if (m) (numbered.get(Number(m[1])) ?? numbered.set(Number(m[1]), []).get(Number(m[1]))!).push(L);
  }
  return (L: Line, value: number): boolean =>
    [value - 1, value + 1].some((v) =>
      (numbered.get(v) ?? []).some(
        (M) => M !== L && Math.abs(M.x0 - L.x0) < L.size * 0.5 && Math.abs(M.y0 - L.y0) < L.size * 40,
      ),
    );
}

function linesAround(sorted: Line[]): LinesAround {
  const below = linesBelow(sorted);
  const colRight = columnRights(sorted);
  const colLeftOf = columnLeftFinder(sorted);
  const fieldRow = fieldRows(sorted);
  const isShort = (L: Line): boolean => {
    const r = colRight.get(L) ?? L.x1;
    return r - L.x1 > Math.max(L.size * 4, (r - L.x0) * 0.2);
  };
  // A line set flush right with the next that starts well right of the text it is set flush with
  // (a line of a return address, the end of a paragraph set flush right).
  const isShortLeft = (L: Line, next: Line): boolean => {
    if (Math.abs(next.x1 - L.x1) >= L.size * 0.5 || Math.abs(next.x0 - L.x0) < L.size) return false;
    const l = colLeftOf(L);
    // (The next line starts right of that text's left edge as well: text set ragged on the left, not
    // a justified line whose start was taken by a run-in head.)
    return L.x0 - l > Math.max(L.size * 4, (L.x1 - l) * 0.2) && next.x0 - l > L.size;
  };
  const wide = wideLeading(sorted, isShort);
  return { below, isShort, isShortLeft, fieldRow, wide, sequenceAt: numberSequence(sorted) };
}

/** What a line opens: the marker of a list item (or null), the picture bullet before it, and whether
 * it is a numbered item whose wrapped lines return to the number's margin. */
function markerOf(
  L: Line,
  i: number,
  sorted: Line[],
  items: Map<Line, Marker>,
  starNotes: boolean,
  pictured: Map<Line, Box>,
  around: LinesAround,
): { marker: Marker | null; picture: Box | null; flushItem: boolean } {
  let marker =
    listMarker(L.text) ??
    letterBullet(L) ??
    nestedNumber(L, sorted.slice(Math.max(0, i - NESTED_NUMBER_LOOKBACK), i), items);
  if (marker?.kind === 'bullet' && starNotes && marker.text.trim() === '*') marker = null;
  if (marker) items.set(L, marker);
  // A picture bullet stands where the item starts (its level goes by it).
  const picture = marker ? null : (pictured.get(L) ?? null);
  if (picture) marker = { kind: 'bullet', text: '', value: 0 };
  let flushItem = false;
  if (marker && marker.kind !== 'bullet') {
    // "(1) ..." wrapped back to the margin at full width is an enumeration inside running text,
    // unless the next or previous number starts a line at the same margin: a list whose items
    // wrap without a hanging indent.
    const next = around.below.get(L);
    if (next && !listMarker(next.text) && Math.abs(next.x0 - L.x0) < L.size * 0.4 && L.x1 >= next.x1 - L.size * 1.5) {
      const m = marker;
      if (m.kind === 'number' && around.sequenceAt(L, m.value)) flushItem = true;
      else marker = null;
    }
  }
  return { marker, picture, flushItem };
}

/**
 * Whether line L may go on from open block B (same column, size and face, within the block's leading,
 * not starting something new of its own): the gap from B's last line when it may, or null.
 */
function joinGap(B: TextBlock, L: Line, around: LinesAround): number | null {
  const { isShort, isShortLeft, fieldRow, wide } = around;
  const last = B.lines[B.lines.length - 1]!;
  const gap = L.y0 - last.y1;
  const size = Math.min(L.size, B.size);
  if (gap < -size * 0.4) return null;
  const internal = B.lines.length >= 2 ? B.lines[B.lines.length - 1]!.y0 - B.lines[B.lines.length - 2]!.y1 : null;
  let maxGap = internal !== null ? Math.max(internal + size * 0.35, size * 0.25) : size * 0.7;
  // On a page set with wide leading (double spacing), a full line and the next are one paragraph.
  if (internal === null && wide && Math.abs(size - wide.size) < 0.6 && !isShort(last) && last.x1 - last.x0 >= size * 20)
    maxGap = Math.max(maxGap, wide.gap + size * 0.25);
  if (gap > maxGap) return null;
  if (Math.abs(L.size - B.size) > Math.max(L.size, B.size) * 0.15) return null;
  const ov = hOverlap(L, last);
  if (ov < Math.min(L.x1 - L.x0, last.x1 - last.x0) * 0.3 && Math.abs(L.x0 - last.x0) > size) return null;
  // A line wider than the block on the right starts something else (a full-width line after a column).
  const slack = Math.max(size * 3, (B.x1 - B.x0) * 0.3);
  if (B.lines.length >= 2 && L.x1 > B.x1 + slack) return null;
  if (B.lines.length >= 2 && L.x0 < B.x0 - slack) return null;
  // A bold line after a plain paragraph, or plain text after a bold title line, starts a new block.
  // (Not a bold lead-in wrapped mid-phrase: "Organizational roles, responsibilities, and" over
  // "coordination. While ..." — a title does not end on a comma or a joining word.)
  if (
    L.bold !== last.bold &&
    (L.bold || B.lines.every((l) => l.bold)) &&
    !(last.bold && endsOpen(last.text) && /^\p{Ll}/u.test(L.text))
  )
    return null;
  // Bold lines of two sizes are two headings ("EXPERIENCE" over "Senior Engineer, ..."), not one
  // heading over two lines.
  if (L.bold && last.bold && Math.abs(L.size - last.size) > Math.max(L.size, last.size) * 0.06) return null;
  // After a line that stops well short of its column, a capitalised line starts a new paragraph;
  // so it does after a paragraph's line that had room, within the width of the paragraph's own
  // lines, for its first word (wrapping moves a word down only when it does not fit). Not the
  // column's width: text wrapped by a count of characters, or around an inset, leaves lines
  // short of it, and another paragraph may be wider.
  if (
    (isShort(last) || isShortLeft(last, L) || (B.lines.length >= 2 && roomFor(last, L, B.x1))) &&
    !(last.bold && L.bold) &&
    (/^[\p{Lu}\p{N}"“‘(+]/u.test(L.text) || /[.!?:。]$/.test(last.text)) &&
    !last.mono
  )
    return null;
  if (L.mono !== last.mono) return null;
  // (A number wider than the hanging indent pushes the first line's text to the next tab stop;
  // the item's lines wrap back to the indent, between the number and its text, going on in
  // lower case.)
  const underNumber =
    B.marker?.kind === 'number' && L.x0 > B.x0 + size * 0.6 && (/^\p{Ll}/u.test(L.text) || endsOpen(last.text));
  if (B.marker && L.x0 < B.textX0 - size * 0.6 && !(B.flush && Math.abs(L.x0 - B.x0) < size * 0.5) && !underNumber)
    return null;
  // "Label: value" lines (forms, metadata blocks) stay one per line.
  if (LABELLED_VALUE.test(L.text) && (LABELLED_VALUE.test(last.text) || L.words[0]?.bold)) return null;
  if (fieldRow.has(last)) return null;
  // First-line indent starts a paragraph.
  // (Not a line set far right under a long line, flush with it: the end of a paragraph set flush
  // right. Short lines set flush right, as in a letterhead, are lines of their own.)
  if (
    !B.marker &&
    B.lines.length >= 2 &&
    L.x0 - B.x0 > size * 0.8 &&
    (L.x0 - B.x0 < size * 6 || last.x1 - last.x0 < size * 20) &&
    Math.abs(last.x0 - B.x0) < size * 0.5 &&
    Math.abs(L.x1 - B.x1) < size * 3
  )
    return null;
  return gap;
}

export function buildBlocks(lines: Line[], pictures: readonly Box[] = [], starNotes = false): TextBlock[] {
  const sorted = [...lines].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const blocks: TextBlock[] = [];
  const around = linesAround(sorted);
  const pictured = pictureBullets(sorted, pictures);
  // Lines found to open numbered items so far (the parents of a multi-level list's items).
  const items = new Map<Line, Marker>();
  // A definition's term and the description beside it each start a block; the term's ends with it.
  const described = hangingTerms(sorted);
  const terms = new Set(described.values());
  for (const [i, L] of sorted.entries()) {
    const { marker, picture, flushItem } = markerOf(L, i, sorted, items, starNotes, pictured, around);
    let best: TextBlock | null = null;
    let bestGap = Infinity;
    if (!marker && !described.has(L) && !terms.has(L)) {
      for (const B of blocks) {
        if (B.closed) continue;
        const gap = joinGap(B, L, around);
        if (gap !== null && gap < bestGap) {
          best = B;
          bestGap = gap;
        }
      }
    }
    if (
      best &&
      (startsItem(L, best.lines[best.lines.length - 1]!, best.lines[0]!) ||
        TOC_LINE.test(L.text) ||
        TOC_LINE.test(best.lines[best.lines.length - 1]!.text))
    )
      best = null;
    // A rule typed as text stands between paragraphs, never in one.
    const typedRule = TYPED_RULE.test(L.text.replace(/\s+/g, ''));
    if (typedRule) {
      best = null;
      // Nor does the text above it go on under it.
      for (const B of blocks) if (!B.closed && hOverlap(B, L) > 0 && B.y1 <= L.y0 + L.size * 0.5) B.closed = true;
    }
    // A numbered displayed equation is a block of its own (its tall brackets bring it within a line's
    // spacing of the text around it).
    const equation = isNumberedEquation(L);
    if (best && (equation || isNumberedEquation(best.lines[best.lines.length - 1]!))) best = null;
    if (best) {
      best.lines.push(L);
      grow(best, L);
      // A line that stops well short of the block's right edge ends its paragraph, unless it is only the first line.
      const width = best.x1 - best.x0;
      if (L.x1 < best.x1 - Math.max(width * 0.15, best.size * 4) && /[.!?:;)"”’。]$/.test(L.text) && !L.mono)
        best.closed = true;
    } else {
      const textX0 = picture ? L.x0 : marker ? textStart(L, marker) : L.x0;
      blocks.push({
        kind: 'text',
        x0: picture?.x0 ?? L.x0,
        y0: L.y0,
        x1: L.x1,
        y1: L.y1,
        lines: [L],
        size: L.size,
        marker: typedRule ? null : marker,
        textX0,
        closed: equation || typedRule || terms.has(L),
        ...(flushItem && marker ? { flush: true } : {}),
        ...(typedRule ? { rule: true } : {}),
      });
    }
  }
  return blocks;
}

/**
 * A stack of short items set one to a line (a résumé's skills, contact lines in a sidebar): three or
 * more short lines in the body's face, each after the first opening with a capital, a figure or a
 * sign, none ending on a comma, a hyphen or a joining word. Wrapped prose in a narrow column starts
 * most of its lines in lower case; so each such line is a paragraph of its own.
 */
export function splitStackedItems(blocks: TextBlock[], all: Line[]): TextBlock[] {
  const out: TextBlock[] = [];
  const short = (l: Line): boolean => l.x1 - l.x0 <= l.size * 14 && l.text.length <= 40;
  // (Short lines level with them close by make a grid: a table's columns, read by the table pass or
  // as the page's rows, not a stack.)
  const inGrid = (l: Line): boolean =>
    all.some(
      (o) =>
        o !== l &&
        short(o) &&
        Math.abs(o.y0 - l.y0) < l.size * 0.3 &&
        (o.x0 >= l.x1 ? o.x0 - l.x1 : l.x0 - o.x1) < l.size * 6 &&
        (o.x0 >= l.x1 || o.x1 <= l.x0),
    );
  for (const B of blocks) {
    const candidate = !B.marker && !B.rule && B.lines.length >= 3;
    const stacked =
      candidate &&
      B.lines.every((l) => short(l) && !l.bold && !l.mono) &&
      B.lines.slice(1).every((l) => /^[\p{Lu}\p{N}+(@#&]/u.test(l.text)) &&
      !B.lines.some((l) => endsOpen(l.text));
    // Short lines of a monospaced face laid out by hand (a receipt, a plain-text form), not code: one
    // paragraph a line as well.
    const typed = candidate && B.lines.every((l) => l.mono && l.text.length <= 40) && !looksLikeCode(B.lines);
    if (!(stacked || typed) || B.lines.filter(inGrid).length >= 2) {
      out.push(B);
      continue;
    }
    for (const l of B.lines)
      out.push({
        kind: 'text',
        x0: l.x0,
        y0: l.y0,
        x1: l.x1,
        y1: l.y1,
        lines: [l],
        size: l.size,
        marker: null,
        textX0: l.x0,
        closed: true,
      });
  }
  return out;
}

/**
 * Whether `last` had room for the first word of the line under it within `right` (the right edge of
 * its paragraph so far), with a space and an em to spare (measured widths are not exact); never
 * after a line that ends on a hyphen, a comma or a joining word, which goes on.
 */
function roomFor(last: Line, next: Line, right: number): boolean {
  if (endsOpen(last.text)) return false;
  const w = next.words[0];
  const token = /^\S+/.exec(w?.text ?? '')?.[0];
  if (!w || !token) return false;
  // A note mark is no word of its own: it wraps with the text it is set against.
  if (noteMarked(next)) return false;
  const width = ((w.x1 - w.x0) * token.length) / Math.max(1, w.text.length);
  return last.x1 + next.size * 1.25 + width <= right;
}

/**
 * The gap between the lines of wrapped prose when a page is set with wide leading (double spacing, as
 * in manuscripts and court filings), or null. Measured on pairs of lines one above the other in the same
 * column and size whose upper line is long, runs to the column's edge and stops mid-sentence (wrapped
 * text, not a list of one-line items): the page has wide leading when such pairs are mostly a line or
 * more apart.
 */
function wideLeading(sorted: Line[], isShort: (L: Line) => boolean): { size: number; gap: number } | null {
  if (sorted.length > MAX_LINES_COMPARED) return null;
  const wideGaps = new Map<number, number[]>();
  let normal = 0;
  for (let i = 0; i < sorted.length; i++) {
    const L = sorted[i]!;
    // Wrapped prose: a long line that runs to its column's edge and stops mid-sentence.
    if (isShort(L) || L.x1 - L.x0 < L.size * 20 || /[.!?:;]["”’)]?$/.test(L.text)) continue;
    for (let j = i + 1; j < Math.min(sorted.length, i + NEIGHBOUR_WINDOW); j++) {
      const M = sorted[j]!;
      if (M.y0 < L.y0 + L.size * 0.5 || hOverlap(L, M) <= 0) continue;
      const gap = M.y0 - L.y1;
      if (gap > L.size * 1.8) break;
      if (Math.abs(M.size - L.size) >= 0.6 || Math.abs(M.x0 - L.x0) > L.size * 3) break;
      if (gap <= L.size * 0.7) normal++;
      else (wideGaps.get(L.size) ?? wideGaps.set(L.size, []).get(L.size)!).push(gap);
      break;
    }
  }
  let best: { size: number; gaps: number[] } | null = null;
  for (const [size, gaps] of wideGaps) if (!best || gaps.length > best.gaps.length) best = { size, gaps };
  if (!best || best.gaps.length < 6 || best.gaps.length < normal * 2) return null;
  const gaps = best.gaps.sort((a, b) => a - b);
  const gap = gaps[Math.floor(gaps.length / 2)]!;
  // One leading, not a mix of blank-line gaps: most gaps within a fifth of a line of the median.
  if (gaps.filter((g) => Math.abs(g - gap) <= best.size * 0.2).length < gaps.length * 0.7) return null;
  return { size: best.size, gap };
}

/**
 * Lines that begin an entry of their own without being list items: "1.2: ...", footnotes. (Not a
 * figure with a decimal point that a sentence wrapped onto the line, "... from 1.1 to" over "13.8
 * over the trial period": the line above goes on, and lower case follows the figure.)
 */
function startsItem(L: Line, prev: Line, blockFirst: Line): boolean {
  // A note under a table marked by a letter or a sign, after a line that ended its sentence
  // ("* Significant at p < 0.05." over "a Trained on half of the data."): no sentence starts so.
  if (/^[a-z†‡§*]\s+\p{Lu}/u.test(L.text) && ENDS_SENTENCE.test(prev.text)) return true;
  if (/^\d{1,3}(?:\.\d{1,3})+[:.)]?\s/.test(L.text))
    return !(/^\d{1,3}\.\d{1,3}\s+\p{Ll}/u.test(L.text) && !ENDS_SENTENCE.test(prev.text));
  // A footnote starts with a raised, smaller number, under another that did. (Not a paragraph's line
  // that a note mark set after a full stop happens to open: "...hardness.¹" wrapped as "¹ All samples".)
  return noteMarked(L) && noteMarked(blockFirst);
}
