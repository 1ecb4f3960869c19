/**
 * The page layout engine: one `PageInput` (native text or OCR words) → blocks in reading order.
 *
 *   runs (cut where a link or a strikethrough starts or ends, marks.ts) → words → rows
 *         → lines (split at gutters) → ruled tables, aligned-text tables, figures
 *         → paragraphs and list items → reading order (XY-cut whose horizontal bands are re-joined
 *           when they share a column gutter, so that columns are read top to bottom and full-width
 *           elements stay in place) → model blocks with hints for the document-wide passes.
 */
import type { DocBlock, ListItem, ListNode, Node } from '../model/document.js';
import {
  buildRows,
  endsOpen,
  ENDS_SENTENCE,
  isNumberedEquation,
  makeLine,
  narrowGutters,
  splitRow,
  weightedMedian,
  type Line,
  type Word,
} from './lines.js';
import {
  CAPTION_RE,
  columnGutters,
  findAlignedTables,
  findRuledTables,
  LABELLED_VALUE,
  type FoundTable,
} from './tables.js';
import { blockInlines } from './inlines.js';
import { markRuns } from './marks.js';
import { attachTurnedHeads } from './turned.js';
import type { BlockHints, Box, ImageBox, LaidOutBlock, PageInput, PageLayout, Segment } from './types.js';

export interface LayoutOptions {
  /** Confidence given to text blocks (OCR callers may lower it). */
  textConfidence?: number;
}

const BULLET_RE = /^([•●▪■◦○◆◇►▶‣⁃∙·✓✔➢➤❖□☐❑]|[-–—*](?=\s))\s*/;
const ENUM_RE =
  /^(\(?(\d{1,3})[.)]|\((\d{1,3})\)|\(?([a-z])[.)]|\(?((?:i|ii|iii|iv|v|vi|vii|viii|ix|x))[.)])(?=\s|$)\s*/;
const SECTION_NUM_RE = /^((?:\d{1,2}\.){1,4}\d{0,2}|[A-Z]\.|[IVX]{1,4}\.)\s+(?=\S)/;
// A table-of-contents entry: dot (or space) leaders then a page number.
/** A line of one sign repeated (five or more): a rule typed as text. */
const TYPED_RULE = /^([=\-_~*#·•─━═])\1{4,}$/u;
const TOC_LINE = /(?:\.{3,}|…+|(?:\. ?){3,})\s*[\divxlc]{1,5}$/i;
const CODE_LINE =
  /[{}();=\[\]<>]|^\s*(?:import|from|def|return|for|if|else|while|class|function|var|let|const|public|private|#include)\b/;

/**
 * Whether a short block reads as words, as a heading does: it does not open with a relation or an
 * operator, and it has at least twice as many letters as other signs (digits, dots and spaces aside),
 * or one sign at most. An equation set large or a formula line read from a scan ("= (f o g):x",
 * "(p<CONS, f1, ..., fn>):x") is not a heading; "1.2.3 Results", "C++ Basics" and "Q&A" are.
 */
function readsAsWords(t: string): boolean {
  if (/^[=<>+±×÷→←≤≥≈≠∑∫√|*/\\^~-]/u.test(t)) return false;
  const letters = t.match(/\p{L}/gu)?.length ?? 0;
  const signs = t.match(/[^\p{L}\p{N}\s.]/gu)?.length ?? 0;
  return letters >= 2 && (signs <= 1 || letters >= signs * 2);
}

/**
 * A form field written out ("Name: Elizabeth A. Warren", "License #: WA-MD-45782", "Date: October 28"):
 * one to three words ending in a word forms use for a field (or in "by": "Prepared By:"), a colon, the
 * value. Such a line set larger than the body (a signature box, a letterhead) is no heading. Titles with
 * a colon ("BERT: Pre-training of ...", "Chapter 1: Origins") do not end their first part so.
 */
const FIELD_LINE =
  /^(?:[\p{L}'’.&/-]+\s+){0,2}(?:name|date|time|address|phone|telephone|tel|fax|mobile|cell|e-?mail|license|licence|id|no\.?|number|#|signature|signed|position|department|dept\.?|company|account|invoice|order|reference|ref\.?|total|subtotal|amount|balance|due|status|patient|physician|doctor|dob|birth|age|sex|gender|customer|client|vendor|attn|subject|code|policy|member|group|claim|plan|insurance|provider|npi|ssn|zip|city|state|country|email|website|fein|ein|tax|vat|iban|swift|bic|routing|terms|ship|bill|sold|prepared|approved|reviewed|issued|expires|expiry|valid|room|bed|ward|unit|class|grade|score|rate|qty|quantity|price|by)\.?(?:\s*#)?\s*:\s+\S/iu;

/** Monospaced lines of which two in five or more look like program text. */
function looksLikeCode(lines: readonly Line[]): boolean {
  return (
    lines.length > 0 &&
    lines.every((l) => l.mono) &&
    lines.filter((l) => CODE_LINE.test(l.text)).length >= lines.length * 0.4
  );
}

interface Marker {
  kind: 'bullet' | 'number' | 'letter';
  text: string;
  value: number;
}

/**
 * Word's second-level bullet: a lone "o" set in a fixed-pitch face (Courier New) before the item's
 * text in another face, a tab away (more than half an em; a word space is a quarter).
 */
function letterBullet(L: Line): Marker | null {
  const [o, next] = L.words;
  if (!o || !next || o.text.trim() !== 'o' || !o.mono || next.mono || next.x0 - o.x1 < L.size * 0.5) return null;
  return { kind: 'bullet', text: 'o ', value: 0 };
}

/**
 * Picture bullets: a small image (no larger than the line's type, no smaller than a third of it)
 * standing level with a line, just before its first word. An icon before a line (a phone beside a
 * number) looks the same, so it is a bullet only among list items: another line bulleted so at the
 * same place, or an item with a marker within two lines above or below. The box of each bullet,
 * by its line.
 */
function pictureBullets(lines: readonly Line[], pictures: readonly Box[]): Map<Line, Box> {
  const found = new Map<Line, Box>();
  if (!pictures.length || lines.length > 3000) return found;
  for (const L of lines) {
    for (const p of pictures) {
      const w = p.x1 - p.x0,
        h = p.y1 - p.y0,
        cy = (p.y0 + p.y1) / 2;
      if (w > L.size * 1.2 || h > L.size * 1.2 || w < L.size * 0.2 || h < L.size * 0.2) continue;
      if (cy < L.y0 || cy > L.y1 || p.x1 > L.x0 + 0.5 || L.x0 - p.x1 > L.size * 2) continue;
      found.set(L, p);
      break;
    }
  }
  const out = new Map<Line, Box>();
  for (const [L, p] of found) {
    const twin = [...found].some(
      ([M, q]) => M !== L && Math.abs(q.x0 - p.x0) < 1 && Math.abs(M.y0 - L.y0) < L.size * 10,
    );
    const amongItems = lines.some(
      (M) =>
        M !== L &&
        Math.abs(M.y0 - L.y0) < (M.y1 - M.y0 + L.y1 - L.y0) * 1.25 &&
        hOverlap(M, L) > -L.size * 4 &&
        (listMarker(M.text) ?? letterBullet(M)),
    );
    if (twin || amongItems) out.set(L, p);
  }
  return out;
}

const MULTILEVEL_RE = /^((\d{1,3})(?:\.(\d{1,3})){1,4})\.?\s+(?=\S)/;

/**
 * An item of a multi-level numbered list ("1.1." under "1.", "1.1.2." under "1.1."): its number
 * goes on from the number of a numbered list item above it (`items`) set further left, in the same
 * column, and it is numbered by its last part, as the list it is nested in counts. Under no such
 * item, a number of several parts opens a section ("2.1 Methods" under "2 Introduction", at one
 * margin), a clause or a contents entry ("2.3.59.1.2 Authority" under "2.3.59.1 Program Scope"),
 * and stays text with its number. `above` holds the lines before it in reading order, nearest last.
 */
function nestedNumber(L: Line, above: readonly Line[], items: ReadonlyMap<Line, Marker>): Marker | null {
  const m = MULTILEVEL_RE.exec(L.text);
  if (!m) return null;
  const parent = m[1]!.replace(/\.\d{1,3}$/, '');
  for (let k = above.length - 1; k >= 0 && k >= above.length - 60; k--) {
    const M = above[k]!;
    if (L.y0 - M.y1 > L.size * 20) break;
    if (M.x1 <= L.x0 - L.size * 20 || M.x0 >= L.x1 || !(M.x0 < L.x0 - L.size * 0.6) || items.get(M)?.kind !== 'number')
      continue;
    const own = /^(\d{1,3}(?:\.\d{1,3}){0,4})[.)]?\s/.exec(M.text);
    if (own && own[1] === parent) return { kind: 'number', text: m[0], value: Number(m[1]!.split('.').pop()) };
  }
  return null;
}

function listMarker(text: string): Marker | null {
  const b = BULLET_RE.exec(text);
  if (b && text.length > b[0].length) return { kind: 'bullet', text: b[0], value: 0 };
  const e = ENUM_RE.exec(text);
  if (e && text.length > e[0].length) {
    const n = e[2] ?? e[3];
    if (n) return { kind: 'number', text: e[0], value: Number(n) };
    return { kind: 'letter', text: e[0], value: 0 };
  }
  return null;
}

interface TextBlock extends Box {
  kind: 'text';
  lines: Line[];
  size: number;
  marker: Marker | null;
  /** Left edge of the item text after the marker (for continuation lines). */
  textX0: number;
  closed: boolean;
  /** A numbered item whose wrapped lines return to the number's margin (no hanging indent). */
  flush?: boolean;
  /** A line of one repeated sign ("=====", "-----"): a rule typed as text, as on receipts and in plain-text reports. */
  rule?: boolean;
}
interface TableEl extends Box {
  kind: 'table';
  table: FoundTable;
}
interface FigureEl extends Box {
  kind: 'figure';
}
type El = TextBlock | TableEl | FigureEl;

function hOverlap(a: Box, b: Box): number {
  return Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
}

function grow(b: Box, o: Box): void {
  b.x0 = Math.min(b.x0, o.x0);
  b.y0 = Math.min(b.y0, o.y0);
  b.x1 = Math.max(b.x1, o.x1);
  b.y1 = Math.max(b.y1, o.y1);
}

// ---------------------------------------------------------------- paragraphs

function buildBlocks(lines: Line[], pictures: readonly Box[] = [], starNotes = false): TextBlock[] {
  const sorted = [...lines].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const blocks: TextBlock[] = [];
  // The line directly below each line (same column, normal leading).
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
  // Right edge of the column a line sits in: the furthest right edge among nearby lines that start
  // where it starts.
  const colRight = new Map<Line, number>();
  if (sorted.length <= 3000) {
    for (let i = 0; i < sorted.length; i++) {
      const L = sorted[i]!;
      let r = L.x1;
      // A line of another column level with this one bounds the column: a full-width line (an
      // abstract, a caption) further up does not tell where this column ends.
      let limit = Infinity;
      // (Lines of running text only: a short cell beside another keeps the wider view.)
      if (L.x1 - L.x0 >= L.size * 12)
        for (let j = Math.max(0, i - 40); j < Math.min(sorted.length, i + 40); j++) {
          const M = sorted[j]!;
          if (M.x0 > L.x1 && Math.abs(M.y0 - L.y0) < L.size * 0.5) limit = Math.min(limit, M.x0);
        }
      for (let j = Math.max(0, i - 40); j < Math.min(sorted.length, i + 40); j++) {
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
  // Left edge of the text a line is set flush right with: the furthest left start among nearby lines
  // of its size that end where it ends (a paragraph or a return address set flush right).
  // (Asked only of lines set flush right with the next: worked out when first asked.)
  const colLeft = new Map<Line, number>();
  const indexOf = new Map<Line, number>();
  const colLeftOf = (L: Line): number => {
    const known = colLeft.get(L);
    if (known !== undefined) return known;
    if (!indexOf.size) sorted.forEach((M, k) => indexOf.set(M, k));
    const i = indexOf.get(L) ?? 0;
    let l = L.x0;
    for (let j = Math.max(0, i - 40); j < Math.min(sorted.length, i + 40); j++) {
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
  // Fields of a form row: a "Label: value" line with another one level with it ("Prepared by: ..."
  // beside "Checked by: ..."). Such a field is complete; the line under it is not its continuation.
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
  // Numbered lines by value, for the sequence test below.
  const numbered = new Map<number, Line[]>();
  for (const L of sorted) {
    const m = /^\(?(\d{1,3})[.)]\s/.exec(L.text);
    if (m) (numbered.get(Number(m[1])) ?? numbered.set(Number(m[1]), []).get(Number(m[1]))!).push(L);
  }
  const sequenceAt = (L: Line, value: number): boolean =>
    [value - 1, value + 1].some((v) =>
      (numbered.get(v) ?? []).some(
        (M) => M !== L && Math.abs(M.x0 - L.x0) < L.size * 0.5 && Math.abs(M.y0 - L.y0) < L.size * 40,
      ),
    );
  const pictured = pictureBullets(sorted, pictures);
  // Lines found to open numbered items so far (the parents of a multi-level list's items).
  const items = new Map<Line, Marker>();
  for (const [i, L] of sorted.entries()) {
    let marker = listMarker(L.text) ?? letterBullet(L) ?? nestedNumber(L, sorted.slice(Math.max(0, i - 60), i), items);
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
      const next = below.get(L);
      if (next && !listMarker(next.text) && Math.abs(next.x0 - L.x0) < L.size * 0.4 && L.x1 >= next.x1 - L.size * 1.5) {
        const m = marker;
        if (m.kind === 'number' && sequenceAt(L, m.value)) flushItem = true;
        else marker = null;
      }
    }
    let best: TextBlock | null = null;
    let bestGap = Infinity;
    if (!marker) {
      for (const B of blocks) {
        if (B.closed) continue;
        const last = B.lines[B.lines.length - 1]!;
        const gap = L.y0 - last.y1;
        const size = Math.min(L.size, B.size);
        if (gap < -size * 0.4) continue;
        const internal = B.lines.length >= 2 ? B.lines[B.lines.length - 1]!.y0 - B.lines[B.lines.length - 2]!.y1 : null;
        let maxGap = internal !== null ? Math.max(internal + size * 0.35, size * 0.25) : size * 0.7;
        // On a page set with wide leading (double spacing), a full line and the next are one paragraph.
        if (
          internal === null &&
          wide &&
          Math.abs(size - wide.size) < 0.6 &&
          !isShort(last) &&
          last.x1 - last.x0 >= size * 20
        )
          maxGap = Math.max(maxGap, wide.gap + size * 0.25);
        if (gap > maxGap) continue;
        if (Math.abs(L.size - B.size) > Math.max(L.size, B.size) * 0.15) continue;
        const ov = hOverlap(L, last);
        if (ov < Math.min(L.x1 - L.x0, last.x1 - last.x0) * 0.3 && Math.abs(L.x0 - last.x0) > size) continue;
        // A line wider than the block on the right starts something else (a full-width line after a column).
        const slack = Math.max(size * 3, (B.x1 - B.x0) * 0.3);
        if (B.lines.length >= 2 && L.x1 > B.x1 + slack) continue;
        if (B.lines.length >= 2 && L.x0 < B.x0 - slack) continue;
        // A bold line after a plain paragraph, or plain text after a bold title line, starts a new block.
        // (Not a bold lead-in wrapped mid-phrase: "Organizational roles, responsibilities, and" over
        // "coordination. While ..." — a title does not end on a comma or a joining word.)
        if (
          L.bold !== last.bold &&
          (L.bold || B.lines.every((l) => l.bold)) &&
          !(last.bold && endsOpen(last.text) && /^\p{Ll}/u.test(L.text))
        )
          continue;
        // Bold lines of two sizes are two headings ("EXPERIENCE" over "Senior Engineer, ..."), not one
        // heading over two lines.
        if (L.bold && last.bold && Math.abs(L.size - last.size) > Math.max(L.size, last.size) * 0.06) continue;
        // After a line that stops well short of its column, a capitalised line starts a new paragraph;
        // so it does after a paragraph's line that had room, within the width of the paragraph's own
        // lines, for its first word (wrapping moves a word down only when it does not fit). Not the
        // column's width: text wrapped by a count of characters, or around an inset, leaves lines
        // short of it, and another paragraph may be wider.
        if (
          (isShort(last) || isShortLeft(last, L) || (B.lines.length >= 2 && roomFor(last, L, B.x1))) &&
          !(last.bold && L.bold) &&
          (/^[\p{Lu}\p{N}"“‘(+]/u.test(L.text) || /[.!?:]$/.test(last.text)) &&
          !last.mono
        )
          continue;
        if (L.mono !== last.mono) continue;
        // (A number wider than the hanging indent pushes the first line's text to the next tab stop;
        // the item's lines wrap back to the indent, between the number and its text, going on in
        // lower case.)
        const underNumber =
          B.marker?.kind === 'number' && L.x0 > B.x0 + size * 0.6 && (/^\p{Ll}/u.test(L.text) || endsOpen(last.text));
        if (
          B.marker &&
          L.x0 < B.textX0 - size * 0.6 &&
          !(B.flush && Math.abs(L.x0 - B.x0) < size * 0.5) &&
          !underNumber
        )
          continue;
        // "Label: value" lines (forms, metadata blocks) stay one per line.
        if (LABELLED_VALUE.test(L.text) && (LABELLED_VALUE.test(last.text) || L.words[0]?.bold)) continue;
        if (fieldRow.has(last)) continue;
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
          continue;
        if (gap < bestGap) {
          best = B;
          bestGap = gap;
        }
      }
    }
    if (
      best &&
      (startsItem(L, best.lines[best.lines.length - 1]!) ||
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
      if (L.x1 < best.x1 - Math.max(width * 0.15, best.size * 4) && /[.!?:;)"”’]$/.test(L.text) && !L.mono)
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
        closed: equation || typedRule,
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
function splitStackedItems(blocks: TextBlock[], all: Line[]): TextBlock[] {
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
  if (sorted.length > 3000) return null;
  const wideGaps = new Map<number, number[]>();
  let normal = 0;
  for (let i = 0; i < sorted.length; i++) {
    const L = sorted[i]!;
    // Wrapped prose: a long line that runs to its column's edge and stops mid-sentence.
    if (isShort(L) || L.x1 - L.x0 < L.size * 20 || /[.!?:;]["”’)]?$/.test(L.text)) continue;
    for (let j = i + 1; j < Math.min(sorted.length, i + 40); j++) {
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

const LONE_NUMBER = /^\d{1,4}$/;

/**
 * Line numbers in a margin (court filings, numbered manuscripts, code listings): five or more lines that
 * are each a lone number, one above the other, counting up by one, with nothing but margin between them
 * and the text beside them. A tab-separated numbered list looks the same, so the column must also show
 * that it numbers lines rather than items: text that runs on from one numbered line to the next (a
 * sentence broken at the line end), numbers beside empty lines, or code beside them.
 */
function lineNumberColumns(lines: Line[]): Line[][] {
  const nums = lines.filter((l) => LONE_NUMBER.test(l.text));
  // (A page numbers a few dozen lines; thousands of lone numbers are a table or a hostile page.)
  if (nums.length < 5 || nums.length > 1000) return [];
  const others = lines.filter((l) => !LONE_NUMBER.test(l.text));
  const groups: Line[][] = [];
  for (const l of [...nums].sort((a, b) => a.x1 - b.x1)) {
    const g = groups.find((c) => Math.abs(c[0]!.x1 - l.x1) < l.size * 0.8);
    if (g) g.push(l);
    else groups.push([l]);
  }
  const out: Line[][] = [];
  for (const g of groups) {
    if (g.length < 5 || g.length > 300) continue;
    g.sort((a, b) => a.y0 - b.y0);
    let steps = 0;
    for (let k = 1; k < g.length; k++) if (Number(g[k]!.text) === Number(g[k - 1]!.text) + 1) steps++;
    if (steps < (g.length - 1) * 0.8) continue;
    const x0 = Math.min(...g.map((l) => l.x0));
    const x1 = Math.max(...g.map((l) => l.x1));
    const y0 = g[0]!.y0;
    const y1 = g[g.length - 1]!.y1;
    const within = others.filter((o) => o.y1 > y0 && o.y0 < y1);
    // A margin: nothing else in the column's span, and the text all on one side of it.
    if (within.some((o) => o.x0 < x1 && o.x1 > x0)) continue;
    const left = within.filter((o) => o.x1 <= x0).length;
    const right = within.length - left;
    if (left && right) continue;
    const level = g.map((n) => within.filter((o) => o.y0 < n.y1 && o.y1 > n.y0));
    let evidence = 0;
    for (let k = 0; k < g.length; k++) {
      const here = level[k]!;
      if (!here.length) {
        evidence++;
        continue;
      }
      if (here.some((o) => o.mono)) {
        evidence++;
        continue;
      }
      const next = level[k + 1];
      if (next?.length && Number(g[k + 1]!.text) === Number(g[k]!.text) + 1) {
        const a = here[here.length - 1]!.text;
        const b = next[0]!.text;
        if (!/[.!?:;]["”’)]?$/.test(a) && /^[\p{Ll}(]/u.test(b)) evidence++;
      }
    }
    if (evidence >= 2) out.push(g);
  }
  return out;
}

/**
 * Lines that begin an entry of their own without being list items: "1.2: ...", footnotes. (Not a
 * figure with a decimal point that a sentence wrapped onto the line, "... from 1.1 to" over "13.8
 * over the trial period": the line above goes on, and lower case follows the figure.)
 */
function startsItem(L: Line, prev: Line): boolean {
  // A note under a table marked by a letter or a sign, after a line that ended its sentence
  // ("* Significant at p < 0.05." over "a Trained on half of the data."): no sentence starts so.
  if (/^[a-z†‡§*]\s+\p{Lu}/u.test(L.text) && ENDS_SENTENCE.test(prev.text)) return true;
  if (/^\d{1,3}(?:\.\d{1,3})+[:.)]?\s/.test(L.text))
    return !(/^\d{1,3}\.\d{1,3}\s+\p{Ll}/u.test(L.text) && !ENDS_SENTENCE.test(prev.text));
  const first = L.words[0];
  // A footnote starts with a raised, smaller number.
  return (
    !!first &&
    L.words.length > 1 &&
    /^\d{1,3}$/.test(first.text.trim()) &&
    first.size < L.size * 0.8 &&
    first.y1 < L.y1 - L.size * 0.1
  );
}

function textStart(line: Line, marker: Marker): number {
  // Position of the first character after the marker text. pdf.js often gives the marker and the
  // first words as one run ("1. An o"): then the position inside that run is estimated by characters.
  const need = marker.text.replace(/\s+/g, '').length;
  let acc = 0;
  for (const w of line.words) {
    if (acc >= need) return w.x0;
    const t = w.text;
    const chars = t.replace(/\s+/g, '').length;
    if (acc + chars > need) {
      let k = 0;
      for (let seen = 0; k < t.length && seen < need - acc; k++) if (!/\s/.test(t[k]!)) seen++;
      while (k < t.length && /\s/.test(t[k]!)) k++;
      return w.x0 + (w.x1 - w.x0) * (k / t.length);
    }
    acc += chars;
  }
  const frac = marker.text.length / Math.max(1, line.text.length);
  return line.x0 + (line.x1 - line.x0) * frac;
}

// ---------------------------------------------------------------- reading order

interface Interval {
  a: number;
  b: number;
}

function coverage(els: El[]): Interval[] {
  const s = [...els].sort((a, b) => a.x0 - b.x0);
  const out: Interval[] = [];
  for (const e of s) {
    const last = out[out.length - 1];
    if (last && e.x0 <= last.b) last.b = Math.max(last.b, e.x1);
    else out.push({ a: e.x0, b: e.x1 });
  }
  return out;
}

function gapsOf(cov: Interval[], lo: number, hi: number): Interval[] {
  const out: Interval[] = [];
  let x = lo;
  for (const c of cov) {
    if (c.a > x) out.push({ a: x, b: c.a });
    x = Math.max(x, c.b);
  }
  if (hi > x) out.push({ a: x, b: hi });
  return out;
}

function intersectAll(a: Interval[], b: Interval[], minW: number): Interval[] {
  const out: Interval[] = [];
  for (const p of a)
    for (const q of b) {
      const lo = Math.max(p.a, q.a),
        hi = Math.min(p.b, q.b);
      if (hi - lo >= minW) out.push({ a: lo, b: hi });
    }
  return out;
}

function headStacks(heads: El[]): El[][] {
  const sorted = [...heads].sort((a, b) => a.y0 - b.y0);
  const stacks: El[][] = [];
  let bottom = -Infinity;
  for (const h of sorted) {
    const size = 'size' in h ? (h as TextBlock).size : 10;
    if (!stacks.length || h.y0 - bottom > size * 1.5) stacks.push([h]);
    else stacks[stacks.length - 1]!.push(h);
    bottom = Math.max(bottom, h.y1);
  }
  return stacks;
}

/** True when every element of `heads` is a short text sitting level with the top of an element of `body`. */
function sideHeads(heads: El[], body: El[]): boolean {
  if (heads.length < 2 || body.length < 2) return false;
  const short = heads.every((e) => e.kind === 'text' && e.lines.length <= 3);
  if (!short) return false;
  const headW = Math.max(...heads.map((e) => e.x1)) - Math.min(...heads.map((e) => e.x0));
  const bodyW = Math.max(...body.map((e) => e.x1)) - Math.min(...body.map((e) => e.x0));
  if (headW > bodyW * 0.6) return false;
  // Heads come in little stacks (number, date, title); each stack starts level with a body block.
  const tops = headStacks(heads).map((st) => st[0]!);
  const level = tops.filter((h) =>
    body.some((b) => Math.abs(b.y0 - h.y0) < Math.max(3, (h as TextBlock).size * 0.8)),
  ).length;
  return tops.length >= 2 && level >= tops.length * 0.7;
}

/** Horizontal segments at one height (within half a point) that meet end to end, joined into one. */
function joinedRules(segs: Segment[]): Segment[] {
  const sorted = [...segs].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const out: Segment[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && Math.abs(last.y0 - s.y0) <= 0.5 && s.x0 <= last.x1 + 1 && s.x0 >= last.x0)
      out[out.length - 1] = { ...last, x1: Math.max(last.x1, s.x1) };
    else out.push({ ...s });
  }
  return out;
}

/** The left and right ends of a line of text. */
type Measure = { x0: number; x1: number };

/** The ends of the run of words around row[i] whose spaces are none wider than maxGap. */
function runAround(row: readonly Word[], i: number, maxGap: number): Measure {
  let a = i,
    b = i;
  while (a > 0 && row[a]!.x0 - row[a - 1]!.x1 <= maxGap) a--;
  while (b + 1 < row.length && row[b + 1]!.x0 - row[b]!.x1 <= maxGap) b++;
  return { x0: row[a]!.x0, x1: row[b]!.x1 };
}

/**
 * Whether the gap from x0 to x1 in a row is a space of a line stretched to its column's width:
 * justified text stretches every space of a line alike, so a space beside it is as wide, within a
 * quarter. A gutter or a table's gap stands out from the word spaces
 * around it (a contents entry's dot leaders and page number, the next column's words). Gives the
 * line's measure (the run of words around the gap whose spaces are no wider than it), or null.
 */
function stretchedLine(row: readonly Word[], x0: number, x1: number): Measure | null {
  const i = row.findIndex((w) => w.x0 === x1);
  if (i < 1 || row[i - 1]!.x1 !== x0) return null;
  const gap = x1 - x0;
  const near: number[] = [];
  if (i >= 2) near.push(row[i - 1]!.x0 - row[i - 2]!.x1);
  if (i + 1 < row.length) near.push(row[i + 1]!.x0 - row[i]!.x1);
  // The measure: word processors stretch every space of a line by the same amount (browsers within a
  // few tenths of a point), so the line ends where a space 15% wider than this one stands (a gutter
  // a quarter wider than the spaces is not one of them).
  return near.some((g) => g >= gap * 0.75 && g <= gap / 0.75) ? runAround(row, i, gap * 1.15) : null;
}

/** Orders elements: bands top to bottom; bands sharing a column gutter are read column by column. */
/**
 * Top to bottom, and across each row in reading direction. Elements level with each other (each one's
 * middle inside the other's height) form a row: a line of a scan that slopes by a fraction of a point,
 * or a label set a little higher than its value, is still read left to right, not by which top is higher.
 */
function rowsInOrder(els: El[], rtl: boolean): El[] {
  const byY = [...els].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const out: El[] = [];
  let row: El[] = [];
  // Where a text's first line starts: a paragraph that runs on after a run-in heading ("In-batch
  // negatives. We ...") has its block's left edge at the margin, but its first line starts after the heading.
  const start = (e: El): number =>
    e.kind === 'text' && e.lines.length ? (rtl ? -e.lines[0]!.x1 : e.lines[0]!.x0) : rtl ? -e.x1 : e.x0;
  const flush = (): void => {
    row.sort((a, b) => start(a) - start(b));
    out.push(...row);
    row = [];
  };
  // Two texts whose first lines share a line are level whatever their heights: a one-line run-in
  // heading and the tall paragraph it opens, whose tops differ by a hundredth of a point either way.
  const sameFirstLine = (a: El, b: El): boolean =>
    a.kind === 'text' &&
    b.kind === 'text' &&
    Math.abs(a.y0 - b.y0) < Math.min(a.size, b.size) * 0.4 &&
    Math.abs(a.lines[0]!.y1 - b.lines[0]!.y1) < Math.min(a.size, b.size) * 0.4;
  for (const e of byY) {
    const mid = (e.y0 + e.y1) / 2;
    const level =
      row.length > 0 &&
      row.every(
        (r) =>
          (mid > r.y0 && mid < r.y1 && (r.y0 + r.y1) / 2 > e.y0 && (r.y0 + r.y1) / 2 < e.y1) || sameFirstLine(r, e),
      );
    if (!level) flush();
    row.push(e);
  }
  flush();
  return out;
}

function order(els: El[], rtl: boolean, depth = 0): El[] {
  if (els.length <= 1 || depth > 12) return [...els];
  const minGutter = 6;
  const lo = Math.min(...els.map((e) => e.x0)),
    hi = Math.max(...els.map((e) => e.x1));
  // Horizontal bands: elements chained by vertical overlap.
  const byY = [...els].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const bands: El[][] = [];
  let bottom = -Infinity;
  for (const e of byY) {
    const tol = 'size' in e ? (e as TextBlock).size * 0.2 : 1;
    if (bands.length && e.y0 < bottom - tol) {
      bands[bands.length - 1]!.push(e);
      bottom = Math.max(bottom, e.y1);
    } else {
      bands.push([e]);
      bottom = e.y1;
    }
  }
  // Join consecutive bands that share an inner gutter.
  const groups: Array<{ els: El[]; gutters: Interval[] }> = [];
  // A heading alone in its band (bold, or set larger than the text after it) right over text that
  // runs across the gutter heads that text, not the foot of the column it happens to stand in.
  const headsNext = (band: El[], next: El[] | undefined, gutters: Interval[]): boolean => {
    const h = band[0]!;
    if (band.length !== 1 || h.kind !== 'text' || h.lines.length > 2 || !next) return false;
    const below = next.filter((e): e is TextBlock => e.kind === 'text');
    // (Across the gutter of the columns above: a column that runs on below is no such text.)
    const inner = gutters.filter((g) => g.a > lo + 1 && g.b < hi - 1);
    if (!below.length || !inner.length || !inner.every((g) => next.some((e) => e.x0 < g.a && e.x1 > g.b))) return false;
    return (h.lines.every((l) => l.bold) && !below[0]!.lines.every((l) => l.bold)) || h.size >= below[0]!.size * 1.15;
  };
  for (const [bi, band] of bands.entries()) {
    const gaps = gapsOf(coverage(band), lo, hi);
    const prev = groups[groups.length - 1];
    if (prev && headsNext(band, bands[bi + 1], prev.gutters)) {
      groups.push({ els: [...band], gutters: gaps });
      continue;
    }
    // A caption with no table or figure beside it (theirs was not found or follows on the next page),
    // alone below columns: it closes what stands above it, read after every column, not at the foot of
    // the column it happens to stand under.
    const lone = band[0]!;
    if (
      prev &&
      band.length === 1 &&
      lone.kind === 'text' &&
      lone.lines.length <= 3 &&
      CAPTION_RE.test(lone.lines[0]!.text)
    ) {
      groups.push({ els: [...band], gutters: gaps });
      continue;
    }
    // A heading centred on the whole width above columns is read before them, even where it happens
    // to stand clear of the gutter (a narrow float at the left: the heading sits over the text only).
    const centred =
      prev?.els.length === 1 &&
      prev.els[0]!.kind === 'text' &&
      prev.els[0]!.lines.length <= 2 &&
      Math.abs((prev.els[0]!.x0 + prev.els[0]!.x1) / 2 - (lo + hi) / 2) < prev.els[0]!.size;
    if (prev && !centred) {
      const shared = intersectAll(prev.gutters, gaps, minGutter);
      const all = [...prev.els, ...band];
      const x0 = Math.min(...all.map((e) => e.x0)),
        x1 = Math.max(...all.map((e) => e.x1));
      const inner = shared.filter(
        (g) => g.a > x0 + 1 && g.b < x1 - 1 && all.some((e) => e.x1 <= g.a + 0.5) && all.some((e) => e.x0 >= g.b - 0.5),
      );
      const prevInner = prev.gutters.some((g) => g.a > lo + 1 && g.b < hi - 1);
      const bandInner = gaps.some((g) => g.a > lo + 1 && g.b < hi - 1);
      if (inner.length && (prevInner || bandInner)) {
        prev.els.push(...band);
        prev.gutters = inner;
        continue;
      }
    }
    groups.push({ els: [...band], gutters: gaps });
  }
  const out: El[] = [];
  for (const g of groups) {
    const x0 = Math.min(...g.els.map((e) => e.x0)),
      x1 = Math.max(...g.els.map((e) => e.x1));
    const inner = g.gutters.filter((iv) => iv.a > x0 + 1 && iv.b < x1 - 1 && iv.b - iv.a >= minGutter);
    if (!inner.length || g.els.length === 1) {
      out.push(...rowsInOrder(g.els, rtl));
      continue;
    }
    // Split at the widest gutter; each side is ordered recursively.
    const cut = inner.reduce((m, iv) => (iv.b - iv.a > m.b - m.a ? iv : m));
    const mid = (cut.a + cut.b) / 2;
    const leftEls = g.els.filter((e) => (e.x0 + e.x1) / 2 < mid);
    const rightEls = g.els.filter((e) => (e.x0 + e.x1) / 2 >= mid);
    if (!leftEls.length || !rightEls.length) {
      out.push(...rowsInOrder(g.els, rtl));
      continue;
    }
    const first = rtl ? rightEls : leftEls,
      second = rtl ? leftEls : rightEls;
    // A few single lines on each side (a letterhead: title left, date and reference right) read
    // line by line, not as two columns.
    // (Two sides only: three columns or more of a few lines each are the foot of a page of columns.)
    const shortSide = (xs: El[]): boolean =>
      xs.length <= 4 && xs.every((e) => e.kind === 'text' && e.lines.length <= 2);
    if (inner.length === 1 && shortSide(leftEls) && shortSide(rightEls)) {
      out.push(...rowsInOrder(g.els, rtl));
      continue;
    }
    // A few single lines on one side, each level with a short line of the other (a reference number
    // and a date set right of a letterhead, above a body that runs on at the left): read where they
    // stand, with the lines they are level with, not after everything the other side holds.
    const beside = (xs: El[], other: El[]): boolean => {
      if (!shortSide(xs)) return false;
      // The other side runs on well below them (two short columns side by side are columns).
      const top = Math.min(...other.map((o) => o.y0)),
        bottom = Math.max(...other.map((o) => o.y1));
      return (
        Math.max(...xs.map((e) => e.y1)) < top + (bottom - top) / 2 &&
        xs.every((e) =>
          other.some((o) => o.kind === 'text' && o.lines.length <= 3 && Math.min(o.y1, e.y1) > Math.max(o.y0, e.y0)),
        )
      );
    };
    const aside = beside(rightEls, leftEls) ? rightEls : beside(leftEls, rightEls) ? leftEls : null;
    if (aside) {
      const main = order(aside === leftEls ? rightEls : leftEls, rtl, depth + 1);
      // Reading direction decides whether the side lines come after or before the lines they are level with.
      const after = (aside === rightEls) !== rtl;
      for (const e of [...aside].sort((a, b) => a.y0 - b.y0)) {
        let at: number;
        if (after) {
          at = 0;
          main.forEach((o, k) => {
            if (o.y0 < e.y1 && !aside.includes(o)) at = k + 1;
          });
        } else {
          at = main.findIndex((o) => o.y1 > e.y0 && !aside.includes(o));
          if (at < 0) at = main.length;
        }
        main.splice(at, 0, e);
      }
      out.push(...main);
      continue;
    }
    const heads = sideHeads(leftEls, rightEls) ? leftEls : sideHeads(rightEls, leftEls) ? rightEls : null;
    if (heads) {
      // Side heads (short labels in a margin column, each stack level with the text it introduces)
      // are read before their text, not as a column of their own.
      const bodyEls = order(heads === leftEls ? rightEls : leftEls, rtl, depth + 1);
      const stacks = headStacks(heads);
      let bi = 0;
      stacks.forEach((st, k) => {
        const nextTop = stacks[k + 1]?.[0]?.y0 ?? Infinity;
        // Body text above the first stack comes first.
        if (k === 0) while (bi < bodyEls.length && bodyEls[bi]!.y0 < st[0]!.y0 - 3) out.push(bodyEls[bi++]!);
        out.push(...st);
        while (bi < bodyEls.length && bodyEls[bi]!.y0 < nextTop - 3) out.push(bodyEls[bi++]!);
      });
      while (bi < bodyEls.length) out.push(bodyEls[bi++]!);
      continue;
    }
    out.push(...order(first, rtl, depth + 1), ...order(second, rtl, depth + 1));
  }
  return out;
}

function plain(lines: Line[]): string {
  return lines
    .map((l) => l.text)
    .join(' ')
    .slice(0, 400);
}

// ---------------------------------------------------------------- the page

function norm(b: Box, W: number, H: number): [number, number, number, number] {
  const c = (v: number): number => Math.min(1, Math.max(0, Math.round(v * 10000) / 10000));
  return [c(b.x0 / W), c(b.y0 / H), c(b.x1 / W), c(b.y1 / H)];
}

function mergeImages(images: ImageBox[], W: number, H: number, textLines: Line[]): Box[] {
  const area = W * H;
  const boxes: Box[] = [];
  for (const im of images) {
    const a = (im.x1 - im.x0) * (im.y1 - im.y0);
    if (a < area * 0.004 || im.x1 - im.x0 < 20 || im.y1 - im.y0 < 20) continue;
    if (a > area * 0.6) continue; // page background or scan: not a figure
    const b = { ...im };
    for (let k = boxes.length - 1; k >= 0; k--) {
      const o = boxes[k]!;
      if (o.x0 <= b.x1 + 2 && b.x0 <= o.x1 + 2 && o.y0 <= b.y1 + 2 && b.y0 <= o.y1 + 2) {
        grow(b, o);
        boxes.splice(k, 1);
      }
    }
    boxes.push(b);
  }
  // An image under lots of text is a background panel, not a figure.
  return boxes.filter((b) => {
    const a = (b.x1 - b.x0) * (b.y1 - b.y0);
    let textArea = 0;
    for (const l of textLines) {
      const ox = Math.min(b.x1, l.x1) - Math.max(b.x0, l.x0),
        oy = Math.min(b.y1, l.y1) - Math.max(b.y0, l.y0);
      if (ox > 0 && oy > 0) textArea += ox * oy;
    }
    return textArea < a * 0.25;
  });
}

const NOTE_SIGN = /^[∗*†‡§¶]/;

function isFootnote(e: TextBlock, pageBody: number, H: number): boolean {
  // (An asterisk read as a bullet opens a note when set smaller than the text, under it.)
  if (
    (e.marker && !(e.marker.kind === 'bullet' && NOTE_SIGN.test(e.marker.text))) ||
    e.size > pageBody * 0.9 ||
    e.y0 < H * 0.4
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
function joinNoteNumbers(lines: Line[], pageBody: number, H: number): Line[] {
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
 * A paragraph broken by the page design: the last line of a column stops without closing
 * punctuation and the next element in reading order, in another column, goes on in lower case in
 * the same face. The two parts are one paragraph.
 */
function joinBrokenParagraphs(els: El[]): El[] {
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
      // (Or with a figure, where the column ended on a joining word: "... from 2.2 to" / "18.5 over".)
      if (
        otherColumn &&
        running &&
        !ENDS_SENTENCE.test(last) &&
        (/^\p{Ll}/u.test(first) || (/^\p{N}/u.test(first) && endsOpen(last))) &&
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

interface Chart extends Box {
  labels: TextBlock[];
}

/**
 * Charts drawn with vector paths: a cluster of rules and filled boxes that has bars standing on a
 * common base or an axis with tick marks, or a grid of evenly spaced parallel rules with nothing
 * written between them; with only short labels inside or at its edges.
 */
function findCharts(page: PageInput, blocks: TextBlock[], ruled: FoundTable[]): Chart[] {
  const W = page.width || 612,
    H = page.height || 792;
  interface G extends Box {
    filled: boolean;
    seg: boolean;
  }
  const gs: G[] = [];
  const inRuled = (b: Box): boolean =>
    ruled.some((t) => b.x0 >= t.x0 - 2 && b.x1 <= t.x1 + 2 && b.y0 >= t.y0 - 2 && b.y1 <= t.y1 + 2);
  for (const r of page.rects) {
    if (!r.filled || (r.x1 - r.x0) * (r.y1 - r.y0) > W * H * 0.3 || inRuled(r)) continue;
    gs.push({ x0: r.x0, y0: r.y0, x1: r.x1, y1: r.y1, filled: true, seg: false });
  }
  for (const l of page.lines) {
    if (inRuled(l)) continue;
    gs.push({
      x0: Math.min(l.x0, l.x1),
      y0: Math.min(l.y0, l.y1),
      x1: Math.max(l.x0, l.x1),
      y1: Math.max(l.y0, l.y1),
      filled: false,
      seg: true,
    });
  }
  if (gs.length < 4 || gs.length > 600) return [];
  const candidates: Array<{ box: Box; grid: boolean }> = [];
  // Grids: four or more rules of one extent, evenly spaced (horizontal or vertical).
  for (const horizontal of [true, false]) {
    const groups = new Map<string, G[]>();
    for (const g of gs) {
      if (!g.seg || (horizontal ? g.y1 - g.y0 > 1 || g.x1 - g.x0 < 60 : g.x1 - g.x0 > 1 || g.y1 - g.y0 < 40)) continue;
      const k = horizontal
        ? `${Math.round(g.x0 / 4)}|${Math.round(g.x1 / 4)}`
        : `${Math.round(g.y0 / 4)}|${Math.round(g.y1 / 4)}`;
      (groups.get(k) ?? groups.set(k, []).get(k)!).push(g);
    }
    for (const grp of groups.values()) {
      if (grp.length < 4) continue;
      const pos = [...new Set(grp.map((g) => Math.round(horizontal ? g.y0 : g.x0)))].sort((a, b) => a - b);
      if (pos.length < 4) continue;
      const gaps = pos.slice(1).map((v, i) => v - pos[i]!);
      const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
      if (mean < 8 || gaps.some((d) => Math.abs(d - mean) > mean * 0.2)) continue;
      // The value axis: numbers written level with three or more of the rules, just outside the
      // grid (lines of a form to write on have words beside them, not a scale).
      const bx0 = Math.min(...grp.map((g) => g.x0)),
        by0 = Math.min(...grp.map((g) => g.y0)),
        bx1 = Math.max(...grp.map((g) => g.x1)),
        by1 = Math.max(...grp.map((g) => g.y1));
      const scale = blocks.filter(
        (b) =>
          b.lines.length === 1 &&
          /^[-−+$€£]?\d[\d.,]*\s*[%kKmM]?$/.test(b.lines[0]!.text.trim()) &&
          pos.some((v) =>
            horizontal
              ? Math.abs((b.y0 + b.y1) / 2 - v) < Math.max(3, b.size * 0.6) &&
                (b.x1 <= bx0 + 2 || b.x0 >= bx1 - 2) &&
                Math.min(Math.abs(b.x1 - bx0), Math.abs(b.x0 - bx1)) < b.size * 4
              : Math.abs((b.x0 + b.x1) / 2 - v) < Math.max(4, b.size) &&
                (b.y0 >= by1 - 2 || b.y1 <= by0 + 2) &&
                Math.min(Math.abs(b.y0 - by1), Math.abs(b.y1 - by0)) < b.size * 3,
          ),
      ).length;
      if (scale < 3) continue;
      candidates.push({ box: { x0: bx0, y0: by0, x1: bx1, y1: by1 }, grid: true });
    }
  }
  // Bars or tick marks: pages of table rules alone are passed over without clustering.
  let small = 0,
    filled = 0;
  for (const g of gs) {
    if (g.filled) filled++;
    else if (Math.max(g.x1 - g.x0, g.y1 - g.y0) <= 10) small++;
  }
  if (filled >= 3 || small >= 3) {
    // Clusters of graphics standing close together (sweep over x: only boxes that can touch are compared).
    gs.sort((a, b) => a.x0 - b.x0);
    const parent = gs.map((_, i) => i);
    const find = (i: number): number => {
      while (parent[i] !== i) {
        parent[i] = parent[parent[i]!]!;
        i = parent[i]!;
      }
      return i;
    };
    const near = 24;
    for (let i = 0; i < gs.length; i++) {
      const a = gs[i]!;
      for (let j = i + 1; j < gs.length && gs[j]!.x0 - near <= a.x1; j++) {
        const b = gs[j]!;
        if (a.y0 - near <= b.y1 && b.y0 - near <= a.y1) parent[find(i)] = find(j);
      }
    }
    const clusters = new Map<number, G[]>();
    gs.forEach((g, i) => {
      const r = find(i);
      (clusters.get(r) ?? clusters.set(r, []).get(r)!).push(g);
    });
    for (const c of clusters.values()) {
      if (c.length < 4) continue;
      const box = {
        x0: Math.min(...c.map((g) => g.x0)),
        y0: Math.min(...c.map((g) => g.y0)),
        x1: Math.max(...c.map((g) => g.x1)),
        y1: Math.max(...c.map((g) => g.y1)),
      };
      const w = box.x1 - box.x0,
        h = box.y1 - box.y0;
      if (w < 60 || h < 40 || w * h < W * H * 0.015) continue;
      // Bars: three or more filled boxes standing on one base line (vertical or horizontal bars).
      const bars = c.filter((g) => g.filled && g.x1 - g.x0 >= 2 && g.y1 - g.y0 >= 2);
      // Bars of one height on one base are a row of boxes (a form, a header band, a table's shaded
      // cells, each row of them as tall as its row), not data: three bars or more on one base, of
      // two lengths or more.
      const standOnBase = (base: (g: G) => number, length: (g: G) => number): boolean => {
        const m = new Map<number, Set<number>>();
        const count = new Map<number, number>();
        for (const g of bars) {
          const k = Math.round(base(g));
          (m.get(k) ?? m.set(k, new Set()).get(k)!).add(Math.round(length(g)));
          count.set(k, (count.get(k) ?? 0) + 1);
        }
        return [...m].some(([k, lengths]) => count.get(k)! >= 3 && lengths.size >= 2);
      };
      const barLike =
        bars.length >= 3 &&
        (standOnBase(
          (g) => g.y1,
          (g) => g.y1 - g.y0,
        ) ||
          standOnBase(
            (g) => g.x0,
            (g) => g.x1 - g.x0,
          ));
      // An axis: a long rule with three or more short tick marks across it.
      const segs = c.filter((g) => g.seg);
      const ticks = (axis: G): number => {
        const horizontal = axis.x1 - axis.x0 >= axis.y1 - axis.y0;
        return segs.filter(
          (t) =>
            t !== axis &&
            (horizontal
              ? t.x1 - t.x0 < 1 &&
                t.y1 - t.y0 <= 10 &&
                t.x0 >= axis.x0 - 1 &&
                t.x0 <= axis.x1 + 1 &&
                t.y0 <= axis.y0 + 1 &&
                t.y1 >= axis.y0 - 1
              : t.y1 - t.y0 < 1 &&
                t.x1 - t.x0 <= 10 &&
                t.y0 >= axis.y0 - 1 &&
                t.y0 <= axis.y1 + 1 &&
                t.x0 <= axis.x0 + 1 &&
                t.x1 >= axis.x0 - 1),
        ).length;
      };
      const axisLike = segs.some((a) => Math.max(a.x1 - a.x0, a.y1 - a.y0) >= Math.min(w, h) * 0.5 && ticks(a) >= 3);
      if (barLike || axisLike) candidates.push({ box, grid: false });
    }
  }
  const out: Chart[] = [];
  for (const { box, grid } of candidates) {
    if (out.some((c) => box.x0 >= c.x0 - 2 && box.x1 <= c.x1 + 2 && box.y0 >= c.y0 - 2 && box.y1 <= c.y1 + 2)) continue;
    // Text inside the chart or at its edges: only short labels; a sentence inside means a diagram
    // with prose (or a table), left alone. Between the rules of a grid nothing may be written at
    // all (rules under every row of a table have text between them).
    const labels: TextBlock[] = [];
    let reject = false;
    for (const b of blocks) {
      const m = b.size * 2.5;
      if (b.x1 < box.x0 - m || b.x0 > box.x1 + m || b.y1 < box.y0 - m || b.y0 > box.y1 + m) continue;
      const cx = (b.x0 + b.x1) / 2,
        cy = (b.y0 + b.y1) / 2;
      const inside = cx > box.x0 && cx < box.x1 && cy > box.y0 && cy < box.y1;
      if (grid && inside && cx > box.x0 + 4 && cx < box.x1 - 4 && cy > box.y0 + 4 && cy < box.y1 - 4) {
        reject = true;
        break;
      }
      const short =
        b.lines.length <= 2 && b.lines.every((l) => l.text.length <= 30 && l.text.split(' ').length <= 4) && !b.marker;
      if (!short) {
        if (inside) {
          reject = true;
          break;
        }
        continue;
      }
      if (CAPTION_RE.test(b.lines[0]!.text)) continue;
      labels.push(b);
    }
    if (reject || labels.length < 2) continue;
    const chart: Chart = { ...box, labels };
    for (const l of labels) grow(chart, l);
    // A legend beside the plot: single short lines in the labels' face, level with the chart.
    const labelSize = Math.max(...labels.map((l) => l.size));
    for (const b of blocks) {
      if (labels.includes(b) || b.lines.length > 1 || b.marker || b.size > labelSize * 1.1) continue;
      const t = b.lines[0]!.text;
      if (t.length > 30 || t.split(' ').length > 4 || CAPTION_RE.test(t)) continue;
      const cy = (b.y0 + b.y1) / 2;
      if (cy < chart.y0 || cy > chart.y1 || Math.max(b.x0 - chart.x1, chart.x0 - b.x1) > b.size * 6) continue;
      labels.push(b);
      grow(chart, b);
    }
    out.push(chart);
  }
  return out;
}

/** The size carrying most of a page's characters (0 on a page without text). */
function bodySizeOf(fontChars: Record<string, number>): number {
  let size = 0,
    most = -1;
  for (const [k, n] of Object.entries(fontChars))
    if (n > most) {
      size = Number(k);
      most = n;
    }
  return size;
}

export function layoutPage(page: PageInput, opts: LayoutOptions = {}): PageLayout {
  const W = page.width > 0 ? page.width : 612;
  const H = page.height > 0 ? page.height : 792;
  const fontChars: Record<string, number> = {};
  let chars = 0;
  for (const it of page.items) {
    const n = it.text.replace(/\s/g, '').length;
    chars += n;
    const k = String(Math.round(it.fontSize * 2) / 2);
    fontChars[k] = (fontChars[k] ?? 0) + n;
  }

  // Links and strikethrough on the runs first (cut where only part of a run carries them).
  const rows = buildRows(markRuns(page));
  const allWords = rows.flat();
  // A page with an extreme number of text runs or rules (generated or hostile) gets the plain
  // reading-order pass only: table finding is the costly part.
  const heavy = page.items.length > 20000 || page.lines.length > 20000;
  const { tables: ruled, hRuleGroups } = heavy
    ? { tables: [], hRuleGroups: [] }
    : findRuledTables(page.lines, allWords, W, H);
  const taken = new Set<Word>();
  for (const t of ruled) for (const w of t.words) taken.add(w);
  const lineRows: Line[][] = [];
  const free = rows.map((r) => r.filter((w) => !taken.has(w)));
  // Does text in the rows just above (dir -1) or below (dir 1) row k cover most of [x0, x1]? Null when
  // there is no text there at all. Rows are page-wide, so the rows of the other column are scanned too.
  const cy = (r: Word[]): number => (r[0]!.y0 + r[0]!.y1) / 2;
  const covers = (k: number, dir: 1 | -1, x0: number, x1: number, further: Measure | null = null): boolean | null => {
    const base = free[k]!;
    const size = base[0]!.size;
    let any = false;
    const spans: Array<[number, number]> = [];
    for (let j = k + dir; j >= 0 && j < free.length; j += dir) {
      const r = free[j]!;
      if (!r.length) continue;
      if (Math.abs(cy(r) - cy(base)) > size * 2.2) break;
      for (const w of r) {
        if (w.x1 < x0 - size || w.x0 > x1 + size) continue;
        any = true;
        spans.push([w.x0 - w.size * 0.1, w.x1 + w.size * 0.1]);
      }
    }
    if (!any) return null;
    // Covered when no hole wider than a word space is left: a column gutter, however narrow, is a
    // strip that no line above or below crosses, while a stretched space of justified text lines up
    // with words of the neighbouring lines.
    spans.sort((a, b) => a[0] - b[0]);
    let hole = 0,
      at = x0;
    for (const [a, b] of spans) {
      if (b <= at) continue;
      if (a > at) hole = Math.max(hole, Math.min(a, x1) - at);
      at = b;
      if (at >= x1) break;
    }
    if (at < x1) hole = Math.max(hole, x1 - at);
    return hole < size * 0.6 || (further !== null && crossedByMost(k, dir, x0, x1, further));
  };
  // For a space of a stretched line: the nearest rows (three at most, within four and a half lines,
  // in the column's size) that hold text about the gap, and whether most of them run a word through
  // its middle. In a narrow justified column the spaces of the next lines are stretched too and may
  // overlap the gap, leaving a hole that the lines after them fill; a table's evenly spaced columns
  // leave the gap open row after row. (A row whose word starts where the gap ends has a column
  // starting there: it crosses nothing.) Where the spaces of a few lines in a row happen to line up (a
  // "river"), a line that runs through the gap and has the very measure of the stretched line, both
  // ends within 0.6 pt, is enough: it is a full line of the same column, and the stretched line is one
  // too. A gutter's two sides are never one line of some other row's exact length that runs across it.
  const crossedByMost = (k: number, dir: 1 | -1, x0: number, x1: number, measure: Measure): boolean => {
    let seen = 0,
      crossed = 0;
    for (const r of rowsAbout(k, dir, x0, x1)) {
      seen++;
      if (!throughGap(r, x0, x1)) continue;
      crossed++;
      if (lineOfMeasure(r, measure)) return true;
    }
    return seen >= 2 && crossed * 2 > seen;
  };
  // The nearest rows (three at most, within four and a half lines, in the size of the word after the
  // gap: a heading beside in another column has its own) above (dir -1) or below (dir 1) row k that
  // hold text about the gap from x0 to x1.
  function* rowsAbout(k: number, dir: 1 | -1, x0: number, x1: number): Generator<Word[]> {
    const base = free[k]!;
    const size = (base.find((w) => w.x0 === x1) ?? base[0]!).size;
    let seen = 0;
    for (let j = k + dir; j >= 0 && j < free.length && seen < 3; j += dir) {
      const r = free[j]!.filter((w) => Math.abs(w.size - size) <= 0.5);
      if (!r.length) continue;
      if (Math.abs(cy(r) - cy(base)) > size * 4.5) break;
      if (!r.some((w) => w.x1 >= x0 - size * 2 && w.x0 <= x1 + size * 2)) continue;
      seen++;
      yield r;
    }
  }
  // Whether row r runs a word through the middle half of the gap from x0 to x1 (a row whose word starts
  // where the gap ends has a column starting there: it crosses nothing).
  const throughGap = (r: Word[], x0: number, x1: number): boolean => {
    const m0 = x0 + (x1 - x0) * 0.25,
      m1 = x1 - (x1 - x0) * 0.25;
    return r.some((w) => w.x0 < m1 && w.x1 > m0) && !r.some((w) => Math.abs(w.x0 - x1) < 1);
  };
  // Whether row r holds a line of the very measure given (its first word starts and its last ends
  // within 0.6 pt of the measure's ends) whose spaces are alike, the widest within 15% of their
  // median: a full line of the same column, set justified or not stretched at all. (A table's row
  // across the same width has gaps of all sizes.)
  const lineOfMeasure = (r: Word[], measure: Measure): boolean => {
    const inside = r.filter((w) => w.x1 > measure.x0 - 0.6 && w.x0 < measure.x1 + 0.6);
    if (
      !inside.length ||
      Math.abs(inside[0]!.x0 - measure.x0) > 0.6 ||
      Math.abs(inside[inside.length - 1]!.x1 - measure.x1) > 0.6
    )
      return false;
    const size = inside[0]!.size;
    const spaces: number[] = [];
    for (let i = 1; i < inside.length; i++) {
      const g = inside[i]!.x0 - inside[i - 1]!.x1;
      // (Pieces of one word, cut at a ligature or a change of font, are no space.)
      if (g > size * 0.15) spaces.push(g);
    }
    if (!spaces.length) return true;
    spaces.sort((a, b) => a - b);
    return spaces[spaces.length - 1]! <= spaces[Math.floor(spaces.length / 2)]! * 1.15 + 0.5;
  };
  // The line next to a stretched line on one side is a full line of its measure through the gap, and
  // neither of the two lines next to it on the other side shares its columns, as a table's rows do:
  // at half of its spaces or more (one at least), the word after starts where one of that line starts,
  // or the word before ends where one of that line ends. Then it is the first or last line of a
  // justified paragraph whose spaces happen to line up with those of the lines beside it. (A line of
  // a river may start a word at one of its spaces by chance, not at half of them.)
  const besideFullLine = (k: number, x0: number, x1: number, measure: Measure): boolean => {
    const row = free[k]!.filter((w) => w.x0 >= measure.x0 - 0.1 && w.x1 <= measure.x1 + 0.1);
    const size = row.find((w) => w.x0 === x1)?.size ?? 10;
    const spaces: number[] = [];
    for (let i = 1; i < row.length; i++) if (row[i]!.x0 - row[i - 1]!.x1 > size * 0.15) spaces.push(i);
    const sharesColumns = (r: Word[]): boolean => {
      const matched = spaces.filter((i) =>
        r.some((w) => Math.abs(w.x0 - row[i]!.x0) <= 0.8 || Math.abs(w.x1 - row[i - 1]!.x1) <= 0.8),
      ).length;
      return matched >= Math.max(1, spaces.length / 2);
    };
    for (const dir of [-1, 1] as const) {
      const near = rowsAbout(k, dir, x0, x1).next();
      if (near.done || !throughGap(near.value, x0, x1) || !lineOfMeasure(near.value, measure)) continue;
      const other: Word[][] = [];
      for (const r of rowsAbout(k, dir === 1 ? -1 : 1, x0, x1)) if (other.push(r) === 2) break;
      if (!other.some(sharesColumns)) return true;
    }
    return false;
  };
  const narrow = heavy ? [] : narrowGutters(free);
  for (let k = 0; k < free.length; k++) {
    const rest = free[k]!;
    if (!rest.length) continue;
    const spanned = (x0: number, x1: number): boolean => {
      const further = stretchedLine(rest, x0, x1);
      if (further && besideFullLine(k, x0, x1, further)) return true;
      const up = covers(k, -1, x0, x1, further);
      const down = covers(k, 1, x0, x1, further);
      if (up === null && down === null) return false;
      return (up ?? true) && (down ?? true);
    };
    const gutter = (a: Word, b: Word): boolean =>
      narrow.some(
        (g) => k >= g.from && k <= g.to && Math.abs(b.x0 - g.x) <= 0.8 && a.x1 < g.x - Math.min(a.size, b.size) * 0.3,
      );
    lineRows.push(splitRow(rest, 1.0, spanned, narrow.length ? gutter : undefined));
  }
  // Short rules under column group heads (booktabs' \cmidrule) say which columns a head spans.
  // (Pieces of one rule drawn cell by cell, end to end, as browsers draw each cell's border, are one
  // rule across the table: they say nothing of spans.)
  const hRules = heavy
    ? []
    : joinedRules(page.lines.filter((s) => s.y1 - s.y0 <= 1.5 && s.width <= 6)).filter((s) => s.x1 - s.x0 >= 4);
  // On a page of columns, each column is looked at on its own as well (see columnGutters): there a
  // table in one column is left to its column's scan, not started on the page's rows.
  const gutters = heavy ? [] : columnGutters(lineRows.flat(), W, H);
  const aligned = heavy
    ? []
    : findAlignedTables(lineRows, hRuleGroups, W, H, ruled, undefined, hRules, gutters.length === 0);
  if (!heavy) {
    if (gutters.length) {
      const edges = [0, ...gutters.flatMap((g) => [g.a, g.b]), W];
      // A table the page's rows found inside one column (its rows shared with the lines of the
      // column beside it, which were set aside as prose) is that column's to find: there its rows
      // are not cut short where a line of the other column stands alone between two of them.
      const inBand = (t: FoundTable): boolean => {
        let x0 = Infinity,
          x1 = -Infinity;
        for (const w of t.words) {
          x0 = Math.min(x0, w.x0);
          x1 = Math.max(x1, w.x1);
        }
        for (let b = 0; b + 1 < edges.length; b += 2) if (x0 >= edges[b]! - 1 && x1 <= edges[b + 1]! + 1) return true;
        return false;
      };
      // Nor is a "table" across a column gutter whose lines on its two sides are never level with each
      // other: the foot of a table in one column and the head of another in the next, run together.
      // Each column's scan finds its own.
      const apart = (t: FoundTable): boolean =>
        gutters.some((g) => {
          const lines = [...t.lines];
          if (lines.some((l) => l.x0 < g.a - 1 && l.x1 > g.b + 1)) return false;
          const left = lines.filter((l) => l.x1 <= g.a + 1),
            right = lines.filter((l) => l.x0 >= g.b - 1);
          if (!left.length || !right.length) return false;
          const mid = (l: Line): number => (l.y0 + l.y1) / 2;
          return !left.some((a) => right.some((b) => Math.abs(mid(a) - mid(b)) < Math.min(a.size, b.size) * 0.35));
        });
      for (let k = aligned.length - 1; k >= 0; k--) if (inBand(aligned[k]!) || apart(aligned[k]!)) aligned.splice(k, 1);
      const used = new Set<Word>();
      for (const t of aligned) for (const w of t.words) used.add(w);
      for (let b = 0; b + 1 < edges.length; b += 2) {
        const band = { a: edges[b]!, b: edges[b + 1]! };
        const bandRows = lineRows
          .map((r) => r.filter((l) => l.x0 >= band.a - 1 && l.x1 <= band.b + 1 && !l.words.some((w) => used.has(w))))
          .filter((r) => r.length > 0);
        aligned.push(...findAlignedTables(bandRows, hRuleGroups, W, H, [...ruled, ...aligned], band, hRules));
      }
    }
  }
  const tables = [...ruled, ...aligned];
  // Heads turned upright over a table's columns are its head row (other turned text stays out),
  // and the lines stacked over them its upper head rows.
  if (!heavy) attachTurnedHeads(tables, page.turned ?? [], lineRows.flat());
  // Lines a table took (or split into its cells) leave the text flow.
  const tableWords = new Set<Word>();
  for (const t of tables) for (const w of t.words) tableWords.add(w);
  const flowLines = lineRows.flat().filter((l) => !l.words.every((w) => tableWords.has(w)));
  // Line numbers in a margin leave the text flow; each column of them becomes one furniture block.
  const numberColumns = heavy ? [] : lineNumberColumns(flowLines);
  const numbered = new Set(numberColumns.flat());
  const textLines = joinNoteNumbers(
    numbered.size ? flowLines.filter((l) => !numbered.has(l)) : flowLines,
    bodySizeOf(fontChars),
    H,
  );
  const figures = mergeImages(page.images, W, H, textLines);

  // An asterisk set right after a figure or a word ("72.2*", in a table or the text) marks a note:
  // on such a page a line that opens with one is that note ("* Significant at p < 0.05."), not a
  // bulleted item.
  const starNotes = lineRows.some((r) => r.some((l) => /[\p{L}\p{N})\]]\*(?=[\s,;)]|$)/u.test(l.text)));
  let blocks = splitStackedItems(
    buildBlocks(textLines, page.dots?.length ? [...page.images, ...page.dots] : page.images, starNotes),
    textLines,
  );
  const lineNumberEls = new Set<TextBlock>();
  for (const col of numberColumns) {
    const el: TextBlock = {
      kind: 'text',
      x0: Math.min(...col.map((l) => l.x0)),
      y0: col[0]!.y0,
      x1: Math.max(...col.map((l) => l.x1)),
      y1: col[col.length - 1]!.y1,
      lines: col,
      size: col[0]!.size,
      marker: null,
      textX0: col[0]!.x0,
      closed: true,
    };
    lineNumberEls.add(el);
    blocks.push(el);
  }
  let tableEls = tables.map((t): TableEl => ({ kind: 'table', x0: t.x0, y0: t.y0, x1: t.x1, y1: t.y1, table: t }));
  // Charts drawn with vector paths: their tick labels and legend are part of the figure.
  const charts = heavy ? [] : findCharts(page, blocks, ruled);
  if (charts.length) {
    const inChart = new Set(charts.flatMap((c) => c.labels));
    blocks = blocks.filter((b) => !inChart.has(b));
    tableEls = tableEls.filter(
      (t) =>
        t.table.ruled ||
        !charts.some((c) => t.x0 >= c.x0 - 2 && t.x1 <= c.x1 + 2 && t.y0 >= c.y0 - 2 && t.y1 <= c.y1 + 2),
    );
  }
  const els: El[] = [
    ...blocks,
    ...tableEls,
    ...figures
      .filter((f) => !charts.some((c) => hOverlap(c, f) > 0 && Math.min(c.y1, f.y1) > Math.max(c.y0, f.y0)))
      .map((f): FigureEl => ({ kind: 'figure', ...f })),
    ...charts.map((c): FigureEl => ({ kind: 'figure', x0: c.x0, y0: c.y0, x1: c.x1, y1: c.y1 })),
  ];

  // Margin bands first and last; the body by columns. A margin element is short, sits in the top or
  // bottom band of the page and has no multi-line body content above (or below) it.
  const inBand = (e: El): boolean => e.y1 <= H * 0.13 || e.y0 >= H * 0.87;
  const solid = els.filter((e) => e.kind !== 'text' || e.lines.length > 3 || (e.lines.length > 2 && !inBand(e)));
  const bodyTop = solid.length ? Math.min(...solid.map((e) => e.y0)) : H * 0.5;
  const bodyBottom = solid.length ? Math.max(...solid.map((e) => e.y1)) : H * 0.5;
  const pageBody = bodySizeOf(fontChars);
  // Running text in the margins is set no larger than the body and stands apart from what is below
  // (or above) it; a heading at the top of a column is larger, or close to its text.
  const inMargin = (o: El, dir: 1 | -1): boolean => (dir === 1 ? o.y1 <= H * 0.13 : o.y0 >= H * 0.87);
  const nextTo = (e: El, dir: 1 | -1): { el: El; gap: number } | null => {
    let best: { el: El; gap: number } | null = null;
    for (const o of els) {
      if (o === e || hOverlap(o, e) <= 0) continue;
      const g = dir === 1 ? o.y0 - e.y1 : e.y0 - o.y1;
      if (g >= -1 && (!best || g < best.gap)) best = { el: o, gap: g };
    }
    return best;
  };
  // The widest gap between the element and the body below (above) it, following the text it is
  // stacked on: other margin text (a header of two stacked lines) does not count as the body, but
  // lines that run on from the margin into the body without a gap (text that starts at the very top
  // of the page) are the body.
  const gapTo = (e: El, dir: 1 | -1): number => {
    let widest = 0;
    let cur = e;
    for (let steps = 0; steps < 12; steps++) {
      const next = nextTo(cur, dir);
      if (!next) return Infinity;
      widest = Math.max(widest, next.gap);
      if (!inMargin(next.el, dir)) return widest;
      cur = next.el;
    }
    return widest;
  };
  // Margin text with nothing just below it (top) or above it (bottom), whatever the column (asked
  // for margin-zone blocks only).
  const isolated = (e: El, zone: 'top' | 'bottom'): boolean => {
    const size = e.kind === 'text' ? e.size : 10;
    return zone === 'bottom'
      ? !els.some((o) => o !== e && o.y1 <= e.y0 + 1 && e.y0 - o.y1 < size * 2)
      : !els.some((o) => o !== e && o.y0 >= e.y1 - 1 && o.y0 - e.y1 < size * 2);
  };
  const zoneCache = new Map<El, BlockHints['zone']>();
  const zoneOf = (e: El): BlockHints['zone'] => {
    const hit = zoneCache.get(e);
    if (hit) return hit;
    let z: BlockHints['zone'] = 'body';
    if (e.kind === 'text' && e.lines.length <= 3 && e.size <= pageBody + 1) {
      if (e.y1 <= H * 0.13 && e.y1 <= bodyTop + 1 && gapTo(e, 1) >= e.size * 0.9) z = 'top';
      else if (e.y0 >= H * 0.87 && e.y0 >= bodyBottom - 1 && gapTo(e, -1) >= e.size * 0.9) z = 'bottom';
    }
    zoneCache.set(e, z);
    return z;
  };
  const rtlPage = textLines.filter((l) => l.rtl).length > textLines.length / 2;
  // Margin text level with body text (a print date beside a title) is read in the body's order.
  const bodyEls = els.filter((e) => zoneOf(e) === 'body');
  const apart = (e: El): boolean =>
    zoneOf(e) === 'top'
      ? bodyEls.every((b) => b.y0 >= e.y1 - 1)
      : zoneOf(e) === 'bottom'
        ? bodyEls.every((b) => b.y1 <= e.y0 + 1)
        : false;
  // The tail of a paragraph at the head of a column (the page broke it) is short and sits in the top band
  // like a running head, but it is set in the body face, fills its column and runs on to the text
  // below at paragraph spacing, with another column beside it: it is read with its column.
  const columnHead = (e: El): boolean => {
    if (e.kind !== 'text' || e.size < pageBody - 0.5) return false;
    const below = nextTo(e, 1);
    if (!below || below.gap > e.size * 3) return false;
    // Or it is the last words of a sentence, however short: it starts in lower case or with a
    // figure, ends the sentence, and is set at the column's left edge in the body's face ("since."
    // at the head of the left column, "18.5 over the survey period." of the right one).
    const first = e.lines[0]!,
      last = e.lines[e.lines.length - 1]!;
    const tail =
      e.lines.length <= 2 &&
      /^[\p{Ll}\p{N}]/u.test(first.text) &&
      ENDS_SENTENCE.test(last.text) &&
      !first.bold &&
      Math.abs(e.x0 - below.el.x0) < e.size * 0.5 &&
      Math.abs(e.size - pageBody) <= 0.5;
    if (!tail && (below.gap > e.size * 2 || e.x1 - e.x0 < (below.el.x1 - below.el.x0) * 0.8)) return false;
    if (!tail && e.lines.length < 2 && e.x1 - e.x0 < (below.el.x1 - below.el.x0) * 0.9) return false;
    return els.some((o) => o !== e && hOverlap(o, e) <= 0 && o.y0 < below.el.y0 && o.y1 > e.y0);
  };
  const top = els
    .filter((e) => zoneOf(e) === 'top' && apart(e) && !columnHead(e))
    .sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const bottom = els.filter((e) => zoneOf(e) === 'bottom' && apart(e)).sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  // A caption travels with its table or figure: ordered as one element, so that a caption line
  // narrower than the table it names is not read as part of a column beside it.
  const bodyList = els.filter((e) => !top.includes(e) && !bottom.includes(e));
  const units = new Map<El, El[]>();
  const captionOf = new Set<El>();
  for (const e of bodyList) {
    if (e.kind !== 'text' || e.lines.length > 3 || !CAPTION_RE.test(e.lines[0]?.text ?? '')) continue;
    let best: El | null = null,
      bestD = e.size * 3;
    for (const o of bodyList) {
      if (o.kind === 'text' || captionOf.has(o) || hOverlap(o, e) <= 0) continue;
      const d = Math.max(o.y0 - e.y1, e.y0 - o.y1);
      if (d >= -1 && d < bestD) {
        best = o;
        bestD = d;
      }
    }
    // Only when nothing stands between them (a caption's own description below its label stays in place).
    if (best) {
      const b = best;
      const lo = Math.min(e.y1, b.y1),
        hi = Math.max(e.y0, b.y0);
      if (
        bodyList.some(
          (o) => o !== e && o !== b && hOverlap(o, e) > 0 && (o.y0 + o.y1) / 2 > lo && (o.y0 + o.y1) / 2 < hi,
        )
      )
        best = null;
    }
    if (!best) continue;
    captionOf.add(best);
    const unit: FigureEl = {
      kind: 'figure',
      x0: Math.min(e.x0, best.x0),
      y0: Math.min(e.y0, best.y0),
      x1: Math.max(e.x1, best.x1),
      y1: Math.max(e.y1, best.y1),
    };
    units.set(unit, e.y0 < best.y0 ? [e, best] : [best, e]);
  }
  const grouped = new Set([...units.values()].flat());
  let body = order([...bodyList.filter((e) => !grouped.has(e)), ...units.keys()], rtlPage).flatMap(
    (e) => units.get(e) ?? [e],
  );
  // Footnotes at the foot of a column (smaller face, opening with a raised number or a note sign)
  // are read after the text of the page, not between the columns.
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
  body = joinBrokenParagraphs(body);
  const ordered = [...top, ...body, ...bottom];

  const textConf = opts.textConfidence ?? 0.9;
  const source = page.source;
  const out: LaidOutBlock[] = [];
  const hintsBase = (e: El, lines: Line[]): BlockHints => {
    // Median size over characters (at most 50 a line).
    const medianSize = lines.length
      ? weightedMedian(lines.map((l) => [l.size, Math.max(1, Math.min(50, l.text.length))]))
      : 0;
    const text = plain(lines);
    const sec = SECTION_NUM_RE.exec(text);
    return {
      fontSize: medianSize,
      bold: lines.length > 0 && lines.every((l) => l.bold),
      italic: lines.length > 0 && lines.every((l) => l.italic),
      lineCount: lines.length,
      text,
      headingCandidate: false,
      numbering: sec ? sec[1]! : '',
      zone: zoneOf(e),
      band:
        e.kind === 'text' && e.lines.length <= 3
          ? e.y1 <= H * 0.13
            ? 'top'
            : e.y0 >= H * 0.87
              ? 'bottom'
              : 'body'
          : 'body',
      ...(zoneOf(e) !== 'body' ? { isolated: isolated(e, zoneOf(e) as 'top' | 'bottom') } : {}),
    };
  };

  // Consecutive list items are nested by the indentation of their markers.
  // `more`: blocks of text an item goes on with (a second paragraph set at the item's text indent).
  let listRun: Array<{ el: TextBlock; item: ListItem; ordered: boolean; start: number; more?: TextBlock[] }> = [];
  const flushList = (): void => {
    if (!listRun.length) return;
    // An item is nested in the item before it, or in one of that item's parents, when its marker
    // starts more than half an em further right. Levels go by those ancestors, not by every marker
    // position in the run: numbers set flush right start at two positions ("9." right of "10.") in
    // one level. (Text starts do not tell: a scan's sub-items' text may start left of their parent's.)
    const open: number[] = [];
    const levelOf = (el: TextBlock): number => {
      while (open.length && !(el.x0 > open[open.length - 1]! + el.size * 0.6)) open.pop();
      open.push(el.x0);
      return open.length - 1;
    };
    let top: { node: ListNode; el: TextBlock; box: Box; lines: Line[] } | null = null;
    const emitTop = (): void => {
      if (!top) return;
      const hints = hintsBase(top.el, top.lines);
      const first = top.el.lines[0]!.text;
      // A short, numbered line in a larger or bold font may be a section heading: the document pass decides.
      hints.headingCandidate =
        top.node.items.length === 1 &&
        !top.node.items[0]!.children &&
        top.lines.length <= 2 &&
        first.length < 120 &&
        top.el.marker?.kind === 'number' &&
        !/[.;,]$/.test(first);
      if (hints.headingCandidate && !hints.numbering) hints.numbering = top.el.marker!.text.trim();
      out.push({
        block: {
          node: top.node,
          type: 'list_item',
          label: 'list',
          bbox: norm(top.box, W, H),
          source,
          confidence: { layout: 0.85, ocr: null },
        },
        hints,
      });
      top = null;
    };
    const stacks: ListNode[] = [];
    let prevEl: TextBlock | null = null;
    for (const r of listRun) {
      // An item in the next column (it starts above the one before, or right of its right edge)
      // starts a list of its own, whatever its indent.
      if (prevEl && (r.el.y0 < prevEl.y0 - r.el.size * 0.5 || r.el.x0 >= prevEl.x1)) open.length = 0;
      prevEl = r.el;
      const depth = levelOf(r.el);
      const lv = top ? Math.min(depth, stacks.length) : 0;
      if (lv === 0 || !top) {
        emitTop();
        const node: ListNode = { kind: 'list', ordered: r.ordered, items: [r.item] };
        if (r.ordered && r.start !== 1) node.start = r.start;
        top = { node, el: r.el, box: { x0: r.el.x0, y0: r.el.y0, x1: r.el.x1, y1: r.el.y1 }, lines: [...r.el.lines] };
        for (const m of r.more ?? []) {
          grow(top.box, m);
          top.lines.push(...m.lines);
        }
        stacks.length = 0;
        stacks.push(node);
        continue;
      }
      const t = top as { node: ListNode; el: TextBlock; box: Box; lines: Line[] };
      grow(t.box, r.el);
      t.lines.push(...r.el.lines);
      for (const m of r.more ?? []) {
        grow(t.box, m);
        t.lines.push(...m.lines);
      }
      stacks.length = Math.min(stacks.length, lv + 1);
      const parentList = stacks[Math.min(lv, stacks.length) - 1]!;
      const parentItem = parentList.items[parentList.items.length - 1]!;
      const existing = stacks.length > lv ? stacks[lv] : undefined;
      if (existing && existing.ordered === r.ordered && (parentItem.children ?? []).includes(existing))
        existing.items.push(r.item);
      else {
        const sub: ListNode = { kind: 'list', ordered: r.ordered, items: [r.item] };
        if (r.ordered && r.start !== 1) sub.start = r.start;
        parentItem.children = [...(parentItem.children ?? []), sub];
        stacks.length = lv;
        stacks.push(sub);
      }
    }
    emitTop();
    listRun = [];
  };

  // A label and its value set side by side on one row ("Report ID:  R-17   Date:  3 May") are a form's
  // fields, not headings, however large their type: a one-line block level with a neighbour where the
  // left one of the pair ends with a colon.
  const oneLiners = ordered.filter((o): o is TextBlock => o.kind === 'text' && o.lines.length === 1);
  const levelWith = (a: TextBlock, b: TextBlock): boolean => {
    const ma = (a.y0 + a.y1) / 2,
      mb = (b.y0 + b.y1) / 2;
    return ma > b.y0 && ma < b.y1 && mb > a.y0 && mb < a.y1;
  };
  const inFieldRow = (e: TextBlock): boolean => {
    if (e.lines.length !== 1 || oneLiners.length > 2000) return false;
    const near = e.size * 12;
    for (const o of oneLiners) {
      if (o === e || !levelWith(o, e)) continue;
      if (o.x0 >= e.x1 && o.x0 - e.x1 < near && /:$/.test(e.lines[0]!.text.trim())) return true;
      if (o.x1 <= e.x0 && e.x0 - o.x1 < near && /:$/.test(o.lines[0]!.text.trim())) return true;
    }
    return false;
  };

  const captionNear = (e: TextBlock): boolean => {
    const text = e.lines[0]?.text ?? '';
    if (!CAPTION_RE.test(text)) return false;
    return els.some(
      (o) =>
        o.kind !== 'text' &&
        hOverlap(o, e) > 0 &&
        (Math.abs(e.y0 - o.y1) < e.size * 4 || Math.abs(o.y0 - e.y1) < e.size * 4),
    );
  };

  for (const e of ordered) {
    if (e.kind === 'text' && e.marker && !e.lines.every((l) => l.mono)) {
      const ordered = e.marker.kind === 'number';
      const content = blockInlines(e.lines, e.marker.kind === 'letter' ? '' : e.marker.text);
      if (content.length) {
        listRun.push({ el: e, item: { content }, ordered, start: e.marker.value || 1 });
        continue;
      }
    }
    // A paragraph set at the text indent of the item above it, right under it, goes on with that item
    // ("If the filter is missing, ..." under its bullet): a paragraph of the item, and the list goes on.
    const prev = listRun[listRun.length - 1];
    if (prev && e.kind === 'text' && !e.marker && !e.lines.some((l) => l.mono) && !e.lines.every((l) => l.bold)) {
      const last = prev.more?.[prev.more.length - 1] ?? prev.el;
      const size = prev.el.size;
      if (
        Math.abs(e.x0 - prev.el.textX0) < size * 0.6 &&
        e.x0 > prev.el.x0 + size * 0.5 &&
        e.y0 > last.y1 - size * 0.3 &&
        e.y0 - last.y1 < size * 2.5 &&
        Math.abs(e.size - size) < 0.6
      ) {
        prev.item.children = [...(prev.item.children ?? []), { kind: 'paragraph', content: blockInlines(e.lines, '') }];
        (prev.more ??= []).push(e);
        continue;
      }
    }
    flushList();
    if (e.kind === 'table') {
      out.push({
        block: {
          node: { kind: 'table', rows: e.table.rows },
          type: 'table',
          label: e.table.ruled ? 'table_ruled' : 'table_aligned',
          bbox: norm(e, W, H),
          source,
          confidence: { layout: e.table.confidence, ocr: null },
        },
        hints: {
          fontSize: 0,
          bold: false,
          italic: false,
          lineCount: 0,
          text: '',
          headingCandidate: false,
          numbering: '',
          zone: 'body',
        },
      });
      continue;
    }
    if (e.kind === 'figure') {
      out.push({
        // No address and no description: the block (with its box) is listed, the markdown gets nothing.
        block: {
          node: { kind: 'figure', alt: '' },
          type: 'figure',
          label: 'image',
          bbox: norm(e, W, H),
          source,
          confidence: { layout: 0.7, ocr: null },
        },
        hints: {
          fontSize: 0,
          bold: false,
          italic: false,
          lineCount: 0,
          text: '',
          headingCandidate: false,
          numbering: '',
          zone: 'body',
        },
      });
      continue;
    }
    const hints = hintsBase(e, e.lines);
    if (lineNumberEls.has(e)) {
      hints.lineNumbers = true;
      out.push({
        block: {
          node: { kind: 'paragraph', content: blockInlines(e.lines, '') },
          type: 'page_number',
          label: 'line_numbers',
          bbox: norm(e, W, H),
          source,
          confidence: { layout: textConf, ocr: null },
        },
        hints,
      });
      continue;
    }
    let node: Node;
    let type: DocBlock['type'] = 'text';
    if (e.rule) {
      out.push({
        block: {
          node: { kind: 'rule' },
          type,
          label: 'rule',
          bbox: norm(e, W, H),
          source,
          confidence: { layout: textConf, ocr: null },
        },
        hints,
      });
      continue;
    }
    if (e.lines.length >= 2 && looksLikeCode(e.lines)) {
      const charW = e.size * 0.6;
      const minX = Math.min(...e.lines.map((l) => l.x0));
      node = {
        kind: 'code',
        text: e.lines.map((l) => ' '.repeat(Math.max(0, Math.round((l.x0 - minX) / charW))) + l.text).join('\n'),
      };
      type = 'code';
    } else {
      node = { kind: 'paragraph', content: blockInlines(e.lines, '') };
      const t = hints.text;
      hints.headingCandidate =
        e.lines.length <= 3 &&
        t.length <= 200 &&
        t.length >= 2 &&
        !/^[\p{Ll}]/u.test(t) &&
        !/[,;]$/.test(t) &&
        !(/\.$/.test(t) && !/^(?:\d+\.)+$/.test(t.split(' ')[0] ?? '') && t.split(' ').length > 8) &&
        /\p{L}/u.test(t) &&
        readsAsWords(t) &&
        !FIELD_LINE.test(t) &&
        // Two sentences in a row are text, not a title ("Sales rose. Costs fell.").
        !/\p{Ll}{2,}[.!?]\S{0,3}\s+\p{Lu}\p{Ll}+\s+\p{Ll}+.*[.!?]$/u.test(t);
      if (captionNear(e)) {
        type = 'caption';
        hints.headingCandidate = false;
      } else if (hints.headingCandidate && inFieldRow(e)) hints.headingCandidate = false;
    }
    const label = type === 'code' ? 'code' : type === 'caption' ? 'caption' : notes.has(e) ? 'footnote' : 'paragraph';
    out.push({
      block: { node, type, label, bbox: norm(e, W, H), source, confidence: { layout: textConf, ocr: null } },
      hints,
    });
  }
  flushList();
  return { pageNumber: page.pageNumber, width: W, height: H, status: 'ok', blocks: out, stats: { fontChars, chars } };
}
