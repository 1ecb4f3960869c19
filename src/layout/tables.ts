/**
 * Tables: from ruling lines (cell grid from horizontal and vertical segments, merged cells where a
 * rule is missing) and from text alignment (columns of whitespace running down consecutive rows).
 */
import type { TableCell, TextInline } from '../model/document.js';
import { blockInlines } from './inlines.js';
import { ENDS_ON_JOINING_WORD, makeLine, type Line, type Word } from './lines.js';
import type { Box } from './types.js';
export { findRuledTables } from './tables/ruled/find-ruled.js';

export interface FoundTable extends Box {
  rows: TableCell[][];
  /** Words consumed by the table (removed from the text flow). */
  words: Set<Word>;
  lines: Set<Line>;
  ruled: boolean;
  confidence: number;
  /** Where each column of `rows` stands across the page (its cells' text, or its rules), left to right. */
  columns?: Interval[];
  /** Where each row of `rows` stands down the page (its text, or its rules), top to bottom. */
  rowBands?: Interval[];
}

function clusterValues(values: number[], tol: number): number[] {
  const s = [...values].sort((a, b) => a - b);
  const out: number[][] = [];
  for (const v of s) {
    const last = out[out.length - 1];
    if (last && v - last[last.length - 1]! <= tol) last.push(v);
    else out.push([v]);
  }
  return out.map((g) => g.reduce((a, b) => a + b, 0) / g.length);
}

/** A cell's words as lines, top to bottom, each in reading order. */
function cellLines(words: Word[]): Line[] {
  const sorted = [...words].sort((a, b) => a.y0 - b.y0);
  const rows: Word[][] = [];
  for (const w of sorted) {
    const r = rows.find((row) => {
      const f = row[0]!;
      const ov = Math.min(f.y1, w.y1) - Math.max(f.y0, w.y0);
      return ov > 0.45 * Math.min(f.y1 - f.y0, w.y1 - w.y0);
    });
    if (r) r.push(w);
    else rows.push([w]);
  }
  return rows.map((r) => {
    const rtl = r.filter((w) => w.rtl).length > r.length / 2;
    const ws = r.sort((a, b) => a.x0 - b.x0);
    // A cell's line is short: its largest type is its body size even where sub- or superscripts
    // have more characters ("P" and its "start"), which the median by characters would pick.
    return { ...makeLine(rtl ? ws.reverse() : ws, rtl), size: ws.reduce((m, w) => Math.max(m, w.size), 0) };
  });
}

/**
 * A cell's content, with the same inline marks as a paragraph's (emphasis of some of its words,
 * footnote marks as superscripts, subscripts) and its lines joined as a paragraph's are.
 */
export function cellInlines(words: Word[]): TableCell['content'] {
  if (!words.length) return [];
  const runs = blockInlines(cellLines(words), '') as TextInline[];
  // Dot leaders running from a label towards its number are layout, not content.
  if (runs.length) {
    const last = runs[runs.length - 1]!;
    last.text = last.text.replace(/\s*(?:\.{3,}|…+|(?:\. ){3,}\.?)\s*$/u, '');
    runs[0]!.text = runs[0]!.text.replace(/^\s*(?:\.{3,}|…+)\s*/u, '');
  }
  const out = runs.filter((r) => r.text !== '');
  while (out.length && !out[out.length - 1]!.text.trim()) out.pop();
  while (out.length && !out[0]!.text.trim()) out.shift();
  return out;
}

/** A cell's plain text. */
function plainOf(content: TableCell['content']): string {
  return content.map((r) => (r.type === 'text' ? r.text : '')).join('');
}

// ---------------------------------------------------------------- ruled tables

/** Cells of a row that hold text. */
function filledCells(r: Line[][]): number {
  return r.filter((c) => c.length > 0).length;
}

/** Words whose centres lie strictly inside a box. */
function wordsWithin(words: Word[], x0: number, x1: number, y0: number, y1: number): Word[] {
  return words.filter((w) => {
    const cx = (w.x0 + w.x1) / 2,
      cy = (w.y0 + w.y1) / 2;
    return cx > x0 && cx < x1 && cy > y0 && cy < y1;
  });
}

/** Median type size of some words. */
function medianSize(ws: Word[]): number {
  const sizes = ws.map((w) => w.size).sort((a, b) => a - b);
  return sizes[sizes.length >> 1]!;
}

/** Distinct text lines (baselines to the point) among some words. */
function linesOf(ws: Word[]): number {
  return new Set(ws.map((q) => Math.round(q.y0))).size;
}

/**
 * Vertical strips at least `minGap` wide that no word crosses, between the leftmost and the
 * rightmost word: where a column of text ends and the next begins. Each with the words on its left
 * and on its right.
 */
function whitespaceRivers(ws: Word[], minGap: number): Array<{ x: number; left: Word[]; right: Word[] }> {
  const out: Array<{ x: number; left: Word[]; right: Word[] }> = [];
  if (!ws.length) return out;
  const sorted = [...ws].sort((a, b) => a.x0 - b.x0);
  let reach = sorted[0]!.x1;
  for (let k = 1; k < sorted.length; k++) {
    const w = sorted[k]!;
    if (w.x0 - reach >= minGap) out.push({ x: (reach + w.x0) / 2, left: sorted.slice(0, k), right: sorted.slice(k) });
    reach = Math.max(reach, w.x1);
  }
  return out;
}

// ---------------------------------------------------------------- aligned-text tables

export interface Interval {
  a: number;
  b: number;
}

/** A figure: amount, percentage, year, signed or in brackets. */
const NUMBER_WORD = /^[-+−(]?[$€£¥]?\d[\d.,]*%?\)?$/;
// Marks that stand for a value in a cell: yes / no, or nothing.
const MARK_WORD = /^[✓✔✗✘–—-]$/u;

/** A line's space-separated tokens as words, placed within their run by share of characters. */
function tokens(l: Line): Word[] {
  const out: Word[] = [];
  for (const w of l.words) {
    const text = w.text;
    const per = (w.x1 - w.x0) / Math.max(1, text.length);
    const re = /\S+/g;
    for (let m = re.exec(text); m; m = re.exec(text))
      out.push({ ...w, text: m[0], x0: w.x0 + m.index * per, x1: w.x0 + (m.index + m[0].length) * per });
  }
  return out;
}

/** The tokens of a line when every one is a figure (or a mark standing for a value); null otherwise. */
function figures(l: Line): Word[] | null {
  const t = tokens(l);
  return t.length &&
    t.every((w) => NUMBER_WORD.test(w.text) || MARK_WORD.test(w.text)) &&
    t.some((w) => NUMBER_WORD.test(w.text))
    ? t
    : null;
}

/**
 * The figures (and value marks) of a cell set on one line, left to right, whether the line builder
 * kept them as one line or broke them into several at wider spaces ("47.1" "17.7 21.3" "33.2");
 * null when the cell holds anything else or lines of more than one text line.
 */
function cellFigures(cell: Line[]): Word[] | null {
  if (!cell.length) return null;
  const cy = (l: Line): number => (l.y0 + l.y1) / 2;
  const h = Math.min(...cell.map((l) => l.y1 - l.y0));
  if (cell.some((l) => Math.abs(cy(l) - cy(cell[0]!)) > h * 0.5)) return null;
  const t = cell.flatMap(tokens).sort((a, b) => a.x0 - b.x0);
  // Marks alone ("- -") are values too here: the column as a whole must hold figures.
  return t.length && t.every((w) => NUMBER_WORD.test(w.text) || MARK_WORD.test(w.text)) ? t : null;
}

function intersect(gaps: Interval[], other: Interval[], minW: number): Interval[] {
  const out: Interval[] = [];
  for (const g of gaps)
    for (const o of other) {
      const a = Math.max(g.a, o.a),
        b = Math.min(g.b, o.b);
      if (b - a >= minW) out.push({ a, b });
    }
  return out;
}

function rowGaps(lines: Line[], left: number, right: number): Interval[] {
  const s = [...lines].sort((a, b) => a.x0 - b.x0);
  const out: Interval[] = [];
  let x = left;
  for (const l of s) {
    if (l.x0 > x) out.push({ a: x, b: l.x0 });
    x = Math.max(x, l.x1);
  }
  if (right > x) out.push({ a: x, b: right });
  return out;
}

/**
 * Rows of lines (lines sharing a baseline band, as built from the page) → tables where whitespace
 * columns run down at least three consecutive rows.
 */
export function findAlignedTables(
  allRows: Line[][],
  regions: Box[],
  pageW: number,
  pageH = Infinity,
  barriers: Box[] = [],
  band?: Interval,
  hRules: Box[] = [],
  restartWhereCellsGrow = false,
): FoundTable[] {
  const out: FoundTable[] = [];
  // Running headers and footers sit on the page edges: they are never table rows.
  const rows = allRows.filter((r) => !r.every((l) => l.y1 <= pageH * 0.08 || l.y0 >= pageH * 0.92));
  const left = band?.a ?? 0,
    right = band?.b ?? pageW;
  let i = 0;
  // The page's running head, once the scan has passed over it: never the head line of a table
  // under it either.
  let head0: Line[] | null = null;
  while (i < rows.length) {
    const start = rows[i]!;
    if (start.length < 2) {
      i++;
      continue;
    }
    const size = Math.max(4, Math.min(...start.map((l) => l.size)));
    const minGap = size * 0.8;
    // Gutters: whitespace columns open in every row so far (edge gaps included: later rows may fill them).
    let gutters = rowGaps(start, left, right).filter((g) => g.b - g.a >= minGap);
    let ex0 = Math.min(...start.map((l) => l.x0)),
      ex1 = Math.max(...start.map((l) => l.x1));
    const innerOf = (gs: Interval[], x0: number, x1: number): Interval[] => gs.filter((iv) => iv.a > x0 && iv.b < x1);
    if (!innerOf(gutters, ex0, ex1).length) {
      i++;
      continue;
    }
    // Captions side by side (two tables, or two figures, each under its own) are no row: their
    // spaces would set the columns of the rows below.
    if (start.every((l) => CAPTION_RE.test(l.text))) {
      i++;
      continue;
    }
    if (i === 0 && runningHead(start, rows[1], rows[2], pageH)) {
      head0 = start;
      i++;
      continue;
    }
    // A row of "Label: value" pairs over rows of more columns (a form's header above a table) is no
    // row of that table: its few gutters would merge the table's columns.
    if (
      start.every((l) => LABELLED_VALUE.test(l.text)) &&
      rows.slice(i + 1, i + 3).some((r) => r.length >= 3 && r.length > start.length)
    ) {
      i++;
      continue;
    }
    const members: Line[][] = [start];
    // The largest type among the rows taken so far (a lone line set larger is a heading).
    let largest = Math.max(...start.map((l) => l.size));
    let bodyGutters: Interval[] | null = null;
    const notes = new Set<Line[]>();
    let j = i + 1;
    let prevBottom = Math.max(...start.map((l) => l.y1));
    const inRegion = regions.find((r) => start.some((l) => l.y0 >= r.y0 - 2 && l.y1 <= r.y1 + 2));
    while (j < rows.length) {
      const row = resplit(rows[j]!, bodyGutters ?? gutters);
      rows[j] = row;
      const top = Math.min(...row.map((l) => l.y0));
      const lineH = Math.max(...row.map((l) => l.y1 - l.y0));
      if (top - prevBottom > Math.max(lineH, size) * (inRegion ? 3 : 2)) break;
      if (inRegion && top > inRegion.y1 + 2) break;
      // A ruled table (or its rules) between two rows ends the aligned one. (Not a table beside it, in
      // the other column.)
      const bx0 = band ? Math.max(band.a, Math.min(ex0, ...row.map((l) => l.x0))) : -Infinity,
        bx1 = band ? Math.min(band.b, Math.max(ex1, ...row.map((l) => l.x1))) : Infinity;
      if (barriers.some((b) => b.y0 >= prevBottom - 2 && b.y0 <= top + lineH && b.x0 < bx1 && b.x1 > bx0)) break;
      const gaps = rowGaps(row, left, right);
      // The first row may be a header centred over pairs of columns: below it, the gutters follow
      // the body rows alone, so a header that narrows a gutter does not close it for them.
      // (Or a gap under a head cell set over two columns, "Customer Information" over its labels and
      // values, when the row after has it too.
      // Only one gap under that cell: a line of several heads run together is no such cell.)
      const within = (h: Line): number =>
        gaps.filter((o) => o.b - o.a >= minGap * 0.6 && h.x0 < o.a && h.x1 > o.b).length;
      // A head whose word space stands over the gap is two heads set close ("Training Model").
      const spaceOver = (h: Line, iv: Interval): boolean =>
        h.words.some((w, k) => k > 0 && h.words[k - 1]!.x1 < iv.b && w.x0 > iv.a);
      let nextGaps: Interval[] | undefined;
      const underHead = (iv: Interval): boolean =>
        start.some((h) => h.x0 < iv.a && h.x1 > iv.b && within(h) === 1 && !spaceOver(h, iv)) &&
        !!rows[j + 1] &&
        (nextGaps ??= rowGaps(rows[j + 1]!, left, right)).some(
          (n) => Math.min(n.b, iv.b) - Math.max(n.a, iv.a) >= minGap * 0.6,
        );
      const g: Interval[] = bodyGutters
        ? intersect(bodyGutters, gaps, minGap * 0.6)
        : gaps.filter(
            (iv) => iv.b - iv.a >= minGap * 0.6 && (gutters.some((gv) => gv.a < iv.b && gv.b > iv.a) || underHead(iv)),
          );
      const x0 = Math.min(ex0, ...row.map((l) => l.x0));
      const x1 = Math.max(ex1, ...row.map((l) => l.x1));
      const inner = innerOf(g, x0, x1);
      // A row that closes one of the gutters has another column structure (the next table, or prose):
      // only the second row may still drop gutters the first row had by chance.
      const before = innerOf(bodyGutters ?? gutters, ex0, ex1);
      const kept = before.filter((gv) => g.some((iv) => iv.a < gv.b && iv.b > gv.a));
      // A head cell wrapped onto a second line ("Graduating" over "students"): one line set tighter
      // under the first row than a line's height, inside one of its columns, when the first row has
      // three cells or more and the row after (or the one after a one-line sub-head) takes up all of
      // its columns.
      if (
        members.length === 1 &&
        !bodyGutters &&
        row.length === 1 &&
        start.length >= 3 &&
        top - prevBottom < lineH * 0.5
      ) {
        const l = row[0]!;
        const after = rows[j + 1]?.length === 1 ? rows[j + 2] : rows[j + 1];
        const inOneColumn = !before.some((gv) => l.x0 < gv.a && l.x1 > gv.b);
        // It is set in the face of the head cell it continues (an italic sub-head under a bold head is a row).
        const above = members[0]!.find((h) => h.x0 < l.x1 && h.x1 > l.x0);
        const afterGaps = after ? rowGaps(after, left, right) : [];
        // (Not the label of a group of rows whose first cells are set in from it: "Staff costs" under
        // "Expense", over "Salaries".)
        const labelOfGroup =
          !!after &&
          Math.abs(l.x0 - Math.min(...members[0]!.map((h) => h.x0))) <= 1 &&
          Math.min(...after.map((a) => a.x0)) >= l.x0 + l.size * 0.8;
        if (
          inOneColumn &&
          above &&
          !labelOfGroup &&
          above.bold === l.bold &&
          above.italic === l.italic &&
          after &&
          after.length >= 3 &&
          before.every((gv) => afterGaps.some((iv) => iv.a < gv.b && iv.b > gv.a))
        ) {
          members[0] = [...members[0]!, l];
          gutters = gutters.map((gv) =>
            l.x1 <= gv.a || l.x0 >= gv.b ? gv : l.x0 > gv.a ? { a: gv.a, b: l.x0 } : { a: l.x1, b: gv.b },
          );
          prevBottom = Math.max(prevBottom, l.y1);
          j++;
          continue;
        }
      }
      // Two cells or more set inside one of the columns' gutters (a line of prose under the table, cut
      // at its stretched spaces, lands words all over the gutters) are no row of this table. (One is:
      // a column filled only now and then.)
      if (
        members.length > 1 &&
        before.some((gv) => row.filter((l) => l.x0 > gv.a + 0.5 && l.x1 < gv.b - 0.5).length >= 2)
      )
        break;
      if (!inner.length || (kept.length < before.length && members.length > 1)) {
        // A single note line across the columns (a remark under a row) is part of the table when the
        // row after it takes the columns up again.
        // (Cut at the gutters, as it will be when its turn comes: its cells may stand closer than a
        // line split allows. Only for the test: the row may be no row of this table.)
        const next = rows[j + 1] && resplit(rows[j + 1]!, bodyGutters ?? gutters);
        // (A line set larger than the rows is a heading over the next table, not a note.)
        if (
          members.length >= 1 &&
          row.length === 1 &&
          row[0]!.size <= largest * 1.1 &&
          next &&
          next.length >= 2 &&
          Math.min(...next.map((l) => l.y0)) - row[0]!.y1 < Math.max(lineH, size) * 1.6
        ) {
          const nextGaps = rowGaps(next, left, right);
          const gn = intersect(bodyGutters ?? gutters, nextGaps, minGap * 0.6);
          const keptNext = before.filter((gv) => gn.some((iv) => iv.a < gv.b && iv.b > gv.a));
          // The row after must not have more columns than the rows so far: then those rows belong to
          // something else (a line of labels above a heading and the table under it).
          const moreColumns =
            innerOf(
              nextGaps.filter((iv) => iv.b - iv.a >= minGap),
              ex0,
              ex1,
            ).length > before.length;
          if (keptNext.length === before.length && !moreColumns) {
            notes.add(row);
            members.push(row);
            prevBottom = row[0]!.y1;
            j++;
            continue;
          }
        }
        break;
      }
      // A lone bold line after plain rows is a caption or section title, not a row; so is a lone
      // line set larger than every row so far (bold, or much larger).
      // (Not a label of the rows that follow, the first cells of those set in from it, over rows of
      // the table's columns: "Premises" over "Rent", "Utilities". It is a row.)
      if (row.length === 1 && row[0]!.bold && !members[members.length - 1]!.every((l) => l.bold)) {
        const label = row[0]!;
        const next = rows[j + 1] && resplit(rows[j + 1]!, bodyGutters ?? gutters);
        const firstOf = (r: Line[]): Line => r.reduce((a, b) => (b.x0 < a.x0 ? b : a));
        // (Flush with the head row's first cell, the rows of the group set in by most of an em, the
        // label no larger than they are: a heading after the table stands apart from all of that.)
        const indented = (r: Line[]): boolean => firstOf(r).x0 >= label.x0 + label.size * 0.8;
        const groupRow =
          !!next &&
          next.length >= 2 &&
          indented(next) &&
          Math.abs(label.x0 - firstOf(members[0]!).x0) <= 1 &&
          label.size <= largest + 0.2 &&
          members.slice(1).some((m) => m.length >= 2 && indented(m)) &&
          Math.min(...next.map((l) => l.y0)) - label.y1 < Math.max(lineH, size) * 1.6 &&
          intersect(bodyGutters ?? gutters, rowGaps(next, left, right), minGap * 0.6).length >=
            innerOf(bodyGutters ?? gutters, ex0, ex1).length;
        if (!groupRow) break;
        notes.add(row);
        members.push(row);
        prevBottom = label.y1;
        j++;
        continue;
      }
      if (row.length === 1 && row[0]!.size > largest * (row[0]!.bold ? 1.1 : 1.3)) break;
      bodyGutters = g;
      ex0 = x0;
      ex1 = x1;
      members.push(row);
      for (const l of row) largest = Math.max(largest, l.size);
      prevBottom = Math.max(...row.map((l) => l.y1));
      j++;
    }
    // The last row's note (a sub-line under its cell, "(Runtime: 98 min)"): no row follows to take
    // the columns up again, but it is set as the table's other notes are.
    if (rows[j] && noteLike(rows[j]!, members, notes, prevBottom)) {
      notes.add(rows[j]!);
      members.push(rows[j]!);
      j++;
    }
    gutters = innerOf(bodyGutters ?? gutters, ex0, ex1);
    // Column boundaries that every body row keeps but a head line runs over ("Tax Per Result" over
    // two columns whose heads are set a word space apart).
    if (members.length >= 4) gutters = reopenUnderHead(members, gutters, notes, left, right, minGap, ex0, ex1);
    // The row above, when it is the table's column heads set as one line: it had no gutter of its own
    // to start the table with.
    const above =
      members.length >= 2 && i > 0 && rows[i - 1] !== head0
        ? rows[i - 1]!.filter((l) => !out.some((t) => l.words.some((w) => t.words.has(w))))
        : [];
    const head = above.length
      ? headLine(
          above,
          gutters,
          ex0,
          ex1,
          Math.min(...start.map((l) => l.y0)),
          Math.max(size, ...start.map((l) => l.y1 - l.y0)) * (inRegion ? 3 : 2),
        )
      : null;
    if (head) members.unshift(head);
    else if (above.length === 1 && members.length >= 3 && stackedHead(above[0]!, members[0]!, gutters))
      members[0] = [above[0]!, ...members[0]!];
    const captions = rows[i - (head ? 2 : 1)];
    const built =
      members.length >= 2
        ? besideCaptions(members, gutters, captions, notes)
            .map((p) => buildAligned(p.members, p.gutters, !!inRegion, p.notes, hRules))
            .filter((x): x is FoundTable => x !== null)
        : [];
    if (built.length) {
      out.push(...built);
      i = j;
    }
    // A long run of rows sharing gutters that is no table (columns of running text): starting again
    // inside it finds the same columns, so the scan goes on near its end. (Restarting on every row
    // made dense multi-column pages quadratic.) Where the run changes, though, a table may start:
    // on a page whose columns are not scanned one by one (`restartWhereCellsGrow`), a row of more
    // cells than the run started with, all short (a table's rows under two columns of text, their
    // gutter lined up with one of the table's), is where the scan goes on.
    else if (members.length >= 8)
      i = Math.max(i + 1, Math.min(j - 2, restartWhereCellsGrow ? moreCells(rows, i, j) : j));
    else i++;
  }
  return out;
}

/**
 * The page's first row, in its top eighth, of two or three parts (a running head: the journal at
 * the left, the page number at the right), over a row of more cells set off from it by more than
 * most of a line and by half as much again as that row is from the next: no head row of a table
 * that starts under it.
 */
function runningHead(row: Line[], next: Line[] | undefined, after: Line[] | undefined, pageH: number): boolean {
  if (!next || !after || !Number.isFinite(pageH) || row.length > 3 || next.length <= row.length) return false;
  const bottom = (r: Line[]): number => Math.max(...r.map((l) => l.y1));
  const top = (r: Line[]): number => Math.min(...r.map((l) => l.y0));
  const h = Math.max(...row.map((l) => l.y1 - l.y0));
  const gap = top(next) - bottom(row);
  if (!(bottom(row) <= pageH * 0.13 && gap > h * 0.8 && gap > (top(after) - bottom(next)) * 1.5)) return false;
  // Set plain over a head row set bold, it is no head of that table wherever its parts stand.
  if (row.every((l) => !l.bold) && next.every((l) => l.bold)) return true;
  // Its parts stand at the page's edges, not over the table's columns: each space between them
  // spans two of the spaces between the cells of the row below or more. (Column heads set one line
  // apart over their table, over a rule, stand over their columns.)
  const parts = [...row].sort((a, b) => a.x0 - b.x0),
    cells = [...next].sort((a, b) => a.x0 - b.x0);
  for (let k = 1; k < parts.length; k++) {
    const a = parts[k - 1]!.x1,
      b = parts[k]!.x0;
    let spans = 0;
    for (let c = 1; c < cells.length; c++) if (cells[c - 1]!.x1 >= a && cells[c]!.x0 <= b) spans++;
    if (spans < 2) return false;
  }
  return true;
}

/**
 * The first row after row i, before row j, with more lines than row i, all of them short as cells
 * are (j when none has).
 */
function moreCells(rows: Line[][], i: number, j: number): number {
  for (let k = i + 1; k < j; k++)
    if (rows[k]!.length > rows[i]!.length && rows[k]!.every((l) => l.text.length <= 40)) return k;
  return j;
}

/**
 * A single line under the last row set like the table's notes so far: a note row of its own (one line
 * that sets aside the columns) follows each of them at the same distance from its row, starting where
 * this one starts, in the same size and face. Two notes like it are needed: one could be the first
 * line of what follows the table.
 */
function noteLike(row: Line[], members: Line[][], notes: Set<Line[]>, prevBottom: number): boolean {
  if (row.length !== 1 || notes.has(row) || notes.size < 2) return false;
  const l = row[0]!;
  const tol = Math.max(2, l.size * 0.3);
  const seen = members.filter((r) => notes.has(r) && r.length === 1);
  if (seen.length < 2) return false;
  // Each note's distance from the row above it.
  const gaps = seen.map((r) => {
    const k = members.indexOf(r);
    return r[0]!.y0 - Math.max(...members[k - 1]!.map((x) => x.y1));
  });
  const gap = l.y0 - prevBottom;
  if (gap < -1 || gap > Math.max(...gaps) + tol) return false;
  return seen.every((r) => {
    const n = r[0]!;
    return (
      Math.abs(n.x0 - l.x0) <= tol &&
      Math.abs(n.size - l.size) <= l.size * 0.1 &&
      n.bold === l.bold &&
      n.italic === l.italic
    );
  });
}

/**
 * The first line of a head set over three lines ("Display" over "File" over "Source") stands alone
 * above the row that starts the table, which holds the head's other lines: right over one of that
 * row's heads, at line spacing, flush with it, in its face, inside its column. Not over the first
 * column, where a title or a heading above the table stands.
 */
function stackedHead(l: Line, start: Line[], gutters: Interval[]): boolean {
  if (CAPTION_RE.test(l.text) || /[.:;]$/.test(l.text) || gutters.some((g) => l.x0 < g.a && l.x1 > g.b)) return false;
  const tol = Math.max(2, l.size * 0.3);
  return start.some((h) => {
    const gap = h.y0 - l.y1;
    if (gap < -1 || gap >= (h.y1 - h.y0) * 0.6 || !gutters.some((g) => g.b <= h.x0 + 1)) return false;
    if (h.bold !== l.bold || h.italic !== l.italic || Math.abs(h.size - l.size) > l.size * 0.1) return false;
    return (
      Math.abs(h.x0 - l.x0) <= tol || Math.abs(h.x1 - l.x1) <= tol || Math.abs(h.x0 + h.x1 - l.x0 - l.x1) <= tol * 2
    );
  });
}

/**
 * The gutters of a table with one more wherever the body rows (all rows but the first one or two,
 * the heads) leave a space open down the table that only head lines run over, each at a space of
 * half an em or more between two runs ("Tax Per" and "Result", set close because the heads are wider
 * than the cells under them). The head lines are cut there (the head rows of `members` replaced); a
 * head that only reaches into the space narrows it. A space the body keeps has text on both sides in three rows or more: it is a
 * column boundary, not the ragged end of one.
 */
function reopenUnderHead(
  members: Line[][],
  gutters: Interval[],
  notes: Set<Line[]>,
  left: number,
  right: number,
  minGap: number,
  ex0: number,
  ex1: number,
): Interval[] {
  for (const h of [1, 2]) {
    const body = members.slice(h).filter((r) => !notes.has(r));
    if (body.length < 3) break;
    let open = rowGaps(body[0]!, left, right);
    for (const r of body.slice(1)) open = intersect(open, rowGaps(r, left, right), minGap * 0.6);
    const fresh = open.filter(
      (g) =>
        g.b - g.a >= minGap &&
        g.a > ex0 &&
        g.b < ex1 &&
        !gutters.some((v) => v.a < g.b && v.b > g.a) &&
        body.filter((r) => r.some((l) => l.x1 <= g.a) && r.some((l) => l.x0 >= g.b)).length >= 3,
    );
    if (!fresh.length) continue;
    const cutsOf = new Map<Line, number[]>();
    const added: Interval[] = [];
    for (const g of fresh) {
      let a = g.a,
        b = g.b;
      for (const l of members.slice(0, h).flat()) {
        if (l.x1 <= a || l.x0 >= b) continue;
        if (l.x0 > a) {
          b = l.x0;
          continue;
        }
        if (l.x1 < b) {
          a = l.x1;
          continue;
        }
        // Across the space: cut at the space between two runs inside it.
        const k = l.rtl
          ? -1
          : l.words.findIndex(
              (w, n) => n > 0 && l.words[n - 1]!.x1 < b && w.x0 > a && w.x0 - l.words[n - 1]!.x1 >= l.size * 0.5,
            );
        // A group head in the upper of two head rows, over heads of the lower row on both sides of
        // the space ("Rainfall (mm)" over "Mean" and "Max"), spans the columns either side of it.
        if (k < 0 && h === 2 && members[0]!.includes(l) && groupHeadOver(l, members[1]!, a, b)) continue;
        if (k < 0) return gutters;
        a = Math.max(a, l.words[k - 1]!.x1);
        b = Math.min(b, l.words[k]!.x0);
        cutsOf.set(l, [...(cutsOf.get(l) ?? []), k]);
      }
      if (b - a < minGap * 0.6) return gutters;
      added.push({ a, b });
    }
    // New rows in place of the head rows (the page's rows stay as they are for the scans after
    // this one, should this table come to nothing).
    for (let r = 0; r < h; r++) {
      const row = members[r]!.flatMap((l) => {
        const at = cutsOf.get(l);
        if (!at) return [l];
        const edges = [0, ...[...new Set(at)].sort((p, q) => p - q), l.words.length];
        return edges.slice(1).map((e, n) => makeLine(l.words.slice(edges[n]!, e), false));
      }).sort((p, q) => p.x0 - q.x0);
      if (notes.has(members[r]!)) notes.add(row);
      members[r] = row;
    }
    return [...gutters, ...added].sort((p, q) => p.a - q.a);
  }
  return gutters;
}

/**
 * A head line over a space in the columns (from a to b) with words of the head row under it on
 * both sides of the space, none across it, within its own width: a group head over them.
 */
function groupHeadOver(l: Line, lower: Line[], a: number, b: number): boolean {
  const tol = l.size;
  // (Words: the heads under it may have come as one line, to be cut at the space too, and may
  // reach into the space from either side.)
  const under = lower.flatMap((x) => x.words).filter((w) => w.x0 >= l.x0 - tol && w.x1 <= l.x1 + tol);
  return (
    under.some((w) => w.x0 < a && w.x1 <= b) &&
    under.some((w) => w.x0 >= a && w.x1 > b) &&
    !under.some((w) => w.x0 < a && w.x1 > b)
  );
}

/**
 * Tables set side by side under captions side by side ("Table 1. Staff by site" over the left one,
 * "Table 2. Visits by month" over the right one) share rows and come as one set of rows. Each caption
 * after the first starts where its table does, at the end of one of the gutters: the rows are split
 * there into one table per caption. Without such a caption row above, the rows stay one table.
 */
function besideCaptions(
  members: Line[][],
  gutters: Interval[],
  captions: Line[] | undefined,
  notes: Set<Line[]>,
): Array<{ members: Line[][]; gutters: Interval[]; notes: Set<Line[]> }> {
  const whole = [{ members, gutters, notes }];
  if (!captions || captions.length < 2 || !captions.every((l) => CAPTION_RE.test(l.text))) return whole;
  const first = members[0]!;
  const lineH = Math.max(...first.map((l) => l.y1 - l.y0));
  if (Math.min(...first.map((l) => l.y0)) - Math.max(...captions.map((l) => l.y1)) > lineH * 3) return whole;
  const cuts: number[] = [];
  for (const c of [...captions].sort((a, b) => a.x0 - b.x0).slice(1)) {
    const em = c.size;
    const g = gutters
      .filter((v) => c.x0 >= v.a && c.x0 <= v.b + em)
      .sort((a, b) => Math.abs(a.b - c.x0) - Math.abs(b.b - c.x0))[0];
    if (!g) return whole;
    cuts.push((g.a + g.b) / 2);
  }
  const edges = [-Infinity, ...cuts, Infinity];
  const parts = [];
  for (let k = 0; k + 1 < edges.length; k++) {
    const a = edges[k]!,
      b = edges[k + 1]!;
    const inside = (l: Line): boolean => {
      const cx = (l.x0 + l.x1) / 2;
      return cx > a && cx < b;
    };
    const partNotes = new Set<Line[]>();
    const rowsOf = members.flatMap((r) => {
      const kept = r.filter(inside);
      if (!kept.length) return [];
      if (notes.has(r)) partNotes.add(kept);
      return [kept];
    });
    parts.push({ members: rowsOf, gutters: gutters.filter((v) => v.a > a && v.b < b), notes: partNotes });
  }
  // Each side must still be a table of two columns or more.
  return parts.every((p) => p.members.length >= 2 && p.gutters.length >= 1) ? parts : whole;
}

/**
 * Column heads set as one line of text above the rows of a table ("Top-1 Top-5 Top-20 Top-100" over
 * columns of figures): the line builder keeps them together because their spaces are ordinary word
 * spaces, so the row had no gutter and could not start the table. Taken as the table's first row,
 * split at the gutters' middles, when the line sits within the table's width just above it, splits
 * into at least two short cells, and each split falls in a space at least half an em wide (a caption
 * or a sentence above the table has only word spaces there). A line with a head over every column may
 * stand up to half as far again from the rows as other lines. Null otherwise.
 */
function headLine(
  above: Line[],
  gutters: Interval[],
  x0: number,
  x1: number,
  top: number,
  maxGap: number,
): Line[] | null {
  if (!gutters.length) return null;
  const lines = above.filter((l) => l.x1 > x0 && l.x0 < x1);
  if (!lines.length) return null;
  const size = Math.max(...lines.map((l) => l.size));
  if (lines.some((l) => l.x0 < x0 - size * 2 || l.x1 > x1 + size * 2)) return null;
  const gap = top - Math.max(...lines.map((l) => l.y1));
  if (gap > maxGap * 1.5) return null;
  if (lines.some((l) => l.text.length > 80 || /[.;]$/.test(l.text.trim()))) return null;
  const cuts = gutters.map((g) => (g.a + g.b) / 2).sort((a, b) => a - b);
  const words = lines.flatMap((l) => l.words).sort((a, b) => a.x0 - b.x0);
  const cells: Word[][] = Array.from({ length: cuts.length + 1 }, () => []);
  for (const w of words) {
    // A word across a cut is no head over these columns.
    if (cuts.some((c) => w.x0 < c && w.x1 > c)) return null;
    cells[cuts.filter((c) => c <= w.x0).length]!.push(w);
  }
  // Where neighbouring words fall on either side of a cut, the space between them must be wide.
  for (let k = 1; k < words.length; k++) {
    const a = words[k - 1]!,
      b = words[k]!;
    if (cuts.some((c) => a.x1 <= c && b.x0 >= c) && b.x0 - a.x1 < size * 0.5) return null;
  }
  const filled = cells.filter((c) => c.length > 0);
  if (filled.length < 2) return null;
  // A head for every column may stand further off (over a rule under the heads, or a row's space).
  if (gap > maxGap && filled.length < cells.length) return null;
  const heads = filled.map((c) => makeLine(c, false));
  // Column heads are short (as the first rows of buildAligned's two-row tables): not prose beside it.
  return heads.every((h) => h.text.length <= 30) ? heads : null;
}

/**
 * Gutters between the text columns of a page: x-intervals in the middle of the page that no line
 * crosses (lines wider than half the page, such as a title over both columns, aside), with a good
 * share of the page's lines on either side. On such a page a row of the page holds lines of both
 * columns, so a table in one column shares its rows with the prose of the other, which hides its
 * column structure; src/pdf/layout/engine.ts looks for aligned tables in each column as well.
 */
export function columnGutters(lines: Line[], pageW: number, pageH = Infinity): Interval[] {
  const body = lines.filter((l) => l.x1 - l.x0 < pageW * 0.5);
  if (body.length < 12 || !(pageW > 0)) return [];
  // Lines centred on the page (a title's last line, the authors, a centred running head or page
  // number) and lines in the top and bottom margins stand over or under all the columns: a few of
  // them may cross a gutter. (The lines of a middle column are centred on the page too, but they
  // are many, and they cross no gutter.)
  // So does the last line of a paragraph set across the columns (an abstract's), short as it may
  // be: a line wider than half the page stands right over it, from the same left edge.
  const wide = lines.filter((l) => l.x1 - l.x0 >= pageW * 0.5);
  const endsWide = (l: Line): boolean =>
    wide.some(
      (w) => Math.abs(w.x0 - l.x0) < l.size * 0.5 && l.y0 - w.y1 >= -l.size * 0.3 && l.y0 - w.y1 < l.size * 0.8,
    );
  const acrossColumns = (l: Line): boolean =>
    Math.abs((l.x0 + l.x1) / 2 - pageW / 2) < pageW * 0.02 ||
    l.y1 <= pageH * 0.08 ||
    l.y0 >= pageH * 0.92 ||
    endsWide(l);
  const crossing = Math.max(3, Math.floor(body.length * 0.05));
  // Coverage at a resolution of at most 2000 steps across the page.
  const steps = Math.min(2000, Math.ceil(pageW));
  const k = steps / pageW;
  const cover = new Int32Array(steps + 2);
  const across = new Int32Array(steps + 2);
  for (const l of body) {
    const a = Math.max(0, Math.floor(l.x0 * k));
    const b = Math.min(steps, Math.ceil(l.x1 * k));
    const c = acrossColumns(l) ? across : cover;
    c[a]! += 1;
    c[b + 1]! -= 1;
  }
  const sizes = body.map((l) => l.size).sort((a, b) => a - b);
  const minW = Math.max(4, sizes[sizes.length >> 1]! * 0.8);
  const out: Interval[] = [];
  let run = 0,
    runAcross = 0;
  let start = -1;
  for (let i = 0; i <= steps; i++) {
    run += cover[i]!;
    runAcross += across[i]!;
    const x = i / k;
    const open = run === 0 && runAcross <= crossing && x > pageW * 0.15 && x < pageW * 0.85;
    if (open && start < 0) start = i;
    if ((!open || i === steps) && start >= 0) {
      const g = { a: start / k, b: i / k };
      start = -1;
      if (g.b - g.a < minW) continue;
      const leftOf = body.filter((l) => l.x1 <= g.a + 1).length;
      const rightOf = body.filter((l) => l.x0 >= g.b - 1).length;
      if (leftOf >= body.length * 0.2 && rightOf >= body.length * 0.2) out.push(g);
    }
  }
  return out;
}

/**
 * A table row whose cells stand closer than a line split allows (tight numeric columns) comes as one
 * line across a gutter: split it at the word space that falls in the gutter. Only rows that already
 * have two cells are touched, so running text stays whole.
 */
function resplit(row: Line[], gutters: Interval[]): Line[] {
  if (row.length < 2 || !gutters.length) return row;
  const out: Line[] = [];
  for (const l of row) {
    const cuts: number[] = [];
    for (let k = 1; k < l.words.length; k++) {
      const a = l.rtl ? l.words[k]!.x1 : l.words[k - 1]!.x1;
      const b = l.rtl ? l.words[k - 1]!.x0 : l.words[k]!.x0;
      if (b > a && gutters.some((g) => a < g.b && b > g.a && g.a > l.x0 && g.b < l.x1)) cuts.push(k);
    }
    if (!cuts.length) {
      out.push(l);
      continue;
    }
    let from = 0;
    for (const k of [...cuts, l.words.length]) {
      const part = l.words.slice(from, k);
      if (part.length) out.push(makeLine(part, l.rtl));
      from = k;
    }
  }
  return out;
}

/**
 * A caption's label: "Table 2.", "Figure 3:", "Fig. 4a". The label's number is digits, a roman
 * numeral or one letter ("Table of Contents" is no caption).
 */
export const CAPTION_RE =
  /^(?:fig\.?|figure|table|tab\.|chart|exhibit|image|photo|plate|diagram|graph|listing)\s*(?:[a-z]?\d+(?:[.\-–]\d+)*[a-z]?|(?<=\s)(?:[ivxlc]+|[a-z](?:\.\d+)?))\s*[.:)\-–—]?(?:\s|$)/i;

/** "Label: value" in one line (a form's field, a metadata line). */
export const LABELLED_VALUE = /^[\p{Lu}\p{N}][^:.!?]{0,40}:\s+\S/u;

// A contents entry: a title, dot leaders, a page number (arabic or roman).
const CONTENTS_ENTRY = /\S.*?(?:\.\s?){4,}\s*(?:\d{1,4}|[ivxlc]{1,6})$/i;

/** A column most of whose cells are contents entries. */
function contentsColumn(cells: string[]): boolean {
  return cells.length >= 3 && cells.filter((t) => CONTENTS_ENTRY.test(t.trim())).length >= cells.length * 0.7;
}

/**
 * A line of a cell that cannot end the cell: it stops on a joining word or sign ("Northern
 * Fabrication and" over "Welding Services Ltd", "Consoli-" over "dated").
 */
const openEnd = (text: string): boolean => /\p{L}[,&/-]$/u.test(text) || ENDS_ON_JOINING_WORD.test(text);

/** A line that can only go on a cell above it: it starts in lower case. */
const GOES_ON = /^\p{Ll}/u;

/** A bullet or note sign opening a line ("* ", "• "). */
const NOTE_MARKER = /^[•●▪■◦○\-–*※]\s*/;

const WIDE_CHAR = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\uFF01-\uFF60]/gu;

/** Width of a text in Latin characters: Hangul, Han and kana are set about twice as wide. */
function displayLength(s: string): number {
  return [...s].length + (s.match(WIDE_CHAR)?.length ?? 0);
}

/**
 * A first-column cell wrapped over two or more lines (an invoice line's description) comes as a row
 * of its own for each further line, with nothing in the other columns. Such a row joins the row
 * above when the first column's lines follow one another at two distinct spacings (line spacing
 * inside a cell, more space between rows) and it follows at the smaller; or, where rows are set as
 * tight as lines, when it follows at line spacing and the text says the cell goes on (the line above
 * ends on "and" or a comma, or this one starts in lower case). Otherwise nothing tells a wrapped line
 * from a label row ("Current assets"), and both stay rows; so does running text beside a table, whose
 * lines are evenly spaced. `by` picks the evidence: spacing on the grid as built, the text once
 * columns of running text are set aside (their lines in lower case would join). Rows are changed in
 * place.
 */
function joinWrappedFirstCells(grid: Line[][][], by: 'spacing' | 'text'): void {
  const top = (ls: Line[]): number => Math.min(...ls.map((l) => l.y0));
  const bottom = (ls: Line[]): number => Math.max(...ls.map((l) => l.y1));
  // The spaces between the first column's consecutive body rows (the head often stands further
  // off): two kinds (inside a cell, between rows) or one (running text, or rows as tight as lines).
  const gaps: number[] = [];
  for (let k = 2; k < grid.length; k++)
    if (grid[k]![0]!.length && grid[k - 1]![0]!.length) gaps.push(top(grid[k]![0]!) - bottom(grid[k - 1]![0]!));
  if (gaps.length < 2) return;
  const lo = Math.min(...gaps),
    hi = Math.max(...gaps);
  if (by === 'spacing' && hi < lo * 2 + 2) return;
  const split = by === 'spacing' ? (lo + hi) / 2 : -Infinity;
  // One pass, rebuilding the rows: a cell of three lines joins both to its first row.
  const out: Line[][][] = grid.slice(0, 2);
  for (let k = 2; k < grid.length; k++) {
    const r = grid[k]!,
      above = out[out.length - 1]!;
    const join =
      filledCells(r) === 1 &&
      r[0]!.length > 0 &&
      above[0]!.length > 0 &&
      filledCells(above) >= 2 &&
      (() => {
        const first = r[0]![0]!,
          last = above[0]![above[0]!.length - 1]!;
        if (first.bold !== last.bold) return false;
        const gap = top(r[0]!) - bottom(above[0]!);
        return (
          gap < split ||
          (by === 'text' && gap < (first.y1 - first.y0) * 0.6 && (openEnd(last.text) || GOES_ON.test(first.text)))
        );
      })();
    if (join) above[0]!.push(...r[0]!);
    else out.push(r);
  }
  grid.length = 0;
  for (const r of out) grid.push(r);
}

/**
 * A column whose cells wrap over several lines (a description beside short codes) reads like running
 * text line by line: long lines, many of them going on in lower case. It is a column of the table
 * when its lines group into cells: each row of the table starts a cell, and the lines in rows of
 * their own under it (nothing in the other columns) go on with it. Told by spacing, where rows stand
 * further apart than a cell's lines, or, where rows are set as tight as lines, by the text: the
 * further lines go on from the line above, the lines that start a row never do (in running text
 * beside a table, the lines level with its rows go on as often as any). The first row (the heads)
 * tells nothing.
 */
function wrappedCellsColumn(grid: Line[][][], c: number): boolean {
  const top = (ls: Line[]): number => Math.min(...ls.map((l) => l.y0));
  const bottom = (ls: Line[]): number => Math.max(...ls.map((l) => l.y1));
  const startGaps: number[] = [],
    wrapGaps: number[] = [];
  let startsGoOn = 0,
    wrapsGoOn = 0;
  for (let k = 2; k < grid.length; k++) {
    const r = grid[k]!,
      up = grid[k - 1]!;
    const cell = r[c]!;
    if (!cell.length) continue;
    const first = cell.reduce((m, l) => (l.y0 < m.y0 ? l : m));
    if (filledCells(r) >= 2) {
      startGaps.push(top(r.flat()) - bottom(up.flat()));
      if (GOES_ON.test(first.text)) startsGoOn++;
    } else if (up[c]!.length) {
      const last = up[c]!.reduce((m, l) => (l.y1 > m.y1 ? l : m));
      if (
        first.bold !== last.bold ||
        first.italic !== last.italic ||
        Math.abs(first.size - last.size) > first.size * 0.1
      )
        return false;
      wrapGaps.push(top(cell) - bottom(up[c]!));
      if (GOES_ON.test(first.text) || openEnd(last.text)) wrapsGoOn++;
    }
  }
  if (!wrapGaps.length || startGaps.length < 2) return false;
  const lineH = Math.max(...grid.flatMap((r) => r[c]!.map((l) => l.y1 - l.y0)));
  const spaced =
    Math.min(...startGaps) > Math.max(...wrapGaps) + Math.max(1, lineH * 0.15) && Math.max(...wrapGaps) < lineH * 0.6;
  const byText = startGaps.length >= 3 && startsGoOn === 0 && wrapsGoOn > 0;
  return spaced || byText;
}

/** The least space above a body row that starts with a label (first cell filled): the rows' spacing. */
function spaceBeforeRows(grid: Line[][][]): number {
  let least = Infinity;
  for (let k = 2; k < grid.length; k++) {
    const r = grid[k]!,
      up = grid[k - 1]!.flat();
    if (!r[0]!.length || !up.length) continue;
    least = Math.min(least, Math.min(...r.flat().map((l) => l.y0)) - Math.max(...up.map((l) => l.y1)));
  }
  return least;
}

/**
 * A row holding the further lines of several cells wrapped together (a description and a remark
 * beside it, both over two lines): the first cell empty, every filled cell under a filled cell of the
 * row above, at line spacing, in its face, and reading as its next line (`wrapsInto`). Rows set
 * further apart than that (`rowSpace`) say it is no row; where rows are as tight as lines, every cell
 * must say it goes on (lower case, or the line above ends on "and" or a comma): a row that leaves its
 * first cell empty because the value above still holds ("Sales" over "Marketing") reads as a row.
 */
function goesOnInCells(r: Line[][], prev: Line[][], grid: Line[][][], rowSpace: number): boolean {
  const filled = r.flatMap((c, k) => (c.length ? [k] : []));
  if (r[0]!.length || filled.length < 2 || filled.some((k) => !prev[k]!.length)) return false;
  return filled.every((k) => {
    const first = r[k]!.reduce((m, l) => (l.y0 < m.y0 ? l : m)),
      last = prev[k]!.reduce((m, l) => (l.y1 > m.y1 ? l : m));
    const gap = first.y0 - last.y1,
      h = first.y1 - first.y0;
    if (
      gap < -1 ||
      gap >= h * 0.6 ||
      first.bold !== last.bold ||
      first.italic !== last.italic ||
      Math.abs(first.size - last.size) > first.size * 0.1
    )
      return false;
    if (
      !wrapsInto(
        last,
        first,
        grid.flatMap((row) => row[k]!),
      )
    )
      return false;
    return gap < rowSpace - Math.max(1, h * 0.15) || openEnd(last.text) || GOES_ON.test(first.text);
  });
}

/**
 * A row label set once, centred beside the two rows of its group ("North" halfway between "Retail"
 * and "Wholesale"): a row of its own between rows without labels, half a row pitch from each. It
 * goes with the first row of the group, where a spanning cell starts. Rows are changed in place.
 */
function attachCentredLabels(grid: Line[][][]): void {
  const cy = (r: Line[][]): number => {
    const ls = r.flat();
    return ls.reduce((n, l) => n + (l.y0 + l.y1) / 2, 0) / ls.length;
  };
  const centres = grid.map((r) => (filledCells(r) ? cy(r) : NaN));
  const steps: number[] = [];
  for (let k = 1; k < grid.length; k++)
    if (filledCells(grid[k]!) >= 2 && filledCells(grid[k - 1]!) >= 2) steps.push(centres[k]! - centres[k - 1]!);
  steps.sort((a, b) => a - b);
  const pitch = steps[steps.length >> 1];
  if (pitch === undefined || !(pitch > 0)) return;
  const gone = new Set<number>();
  for (let k = 2; k + 1 < grid.length; k++) {
    const r = grid[k]!,
      above = grid[k - 1]!,
      below = grid[k + 1]!;
    if (gone.has(k - 1) || filledCells(r) !== 1 || r[0]!.length === 0 || above[0]!.length > 0 || below[0]!.length > 0)
      continue;
    if (filledCells(above) < 2 || filledCells(below) < 2) continue;
    if (centres[k]! - centres[k - 1]! > pitch * 0.7 || centres[k + 1]! - centres[k]! > pitch * 0.7) continue;
    above[0]!.push(...r[0]!);
    gone.add(k);
  }
  if (gone.size) {
    const kept = grid.filter((_, k) => !gone.has(k));
    grid.length = 0;
    for (const r of kept) grid.push(r);
  }
}

/**
 * The last row's cell wrapped onto a line of its own under the table ("Harbour Street Electrical"
 * over "Contractors"): a row with a single cell, which would otherwise end the table and stand as a
 * paragraph after it. The line is set at line spacing under the cell, flush with it, in its face and
 * size, clear of the columns on either side, and the cell could not have taken its first word (or
 * the text says the cell goes on). No row follows it, so it is no label row; notes under a table
 * ("Source: ...") are not taken.
 */
function wrappedTail(l: Line, cell: Line, column: Line[], left: number, right: number): boolean {
  const tol = Math.max(2, l.size * 0.3);
  const gap = l.y0 - cell.y1;
  if (Math.abs(cell.x0 - l.x0) > tol || gap >= (l.y1 - l.y0) * 0.6 || gap < -1) return false;
  if (cell.bold !== l.bold || cell.italic !== l.italic || Math.abs(cell.size - l.size) > l.size * 0.1) return false;
  if (
    l.x0 < left ||
    l.x1 > right ||
    LABELLED_VALUE.test(l.text) ||
    /^(?:notes?|sources?)\b|^(?:\(?[a-z\d]\)|[*†‡§¹²³])/iu.test(l.text)
  )
    return false;
  return wrapsInto(cell, l, column);
}

/**
 * Can `down` be the line after `up` in one wrapped cell of a column (whose lines are `column`)?
 * The text says so (`up` ends on "and", `down` starts in lower case), or at least nothing says not:
 * `up` holds no figures and does not end a label (":"), and its cell could not have taken `down`'s
 * first word, which would pass the widest line of the column: wrapping moves a word down only when
 * it does not fit.
 */
function wrapsInto(up: Line, down: Line, column: Line[]): boolean {
  if (figures(up) || figures(down) || /:$/.test(up.text)) return false;
  if (openEnd(up.text) || GOES_ON.test(down.text)) return true;
  const tol = Math.max(2, down.size * 0.3);
  const widest = Math.max(...column.filter((a) => Math.abs(a.x0 - up.x0) <= tol).map((a) => a.x1));
  const w = down.words[0]!;
  return up.x1 + down.size * 0.25 + (w.x1 - w.x0) > widest - 1;
}

/**
 * Cells centred vertically in their rows, as browsers and word processors set them: beside a cell
 * wrapped over two lines the row's other cells sit between those lines, a row of their own between
 * two rows of the wrapped cell's lines ("Numerical Methods for" / "6  Spring" /
 * "Differential Equations"). Such a row, whose cells fill exactly the columns the rows either side
 * leave empty, centred between them, and those rows' lines at line spacing and reading as one
 * wrapped cell's (`wrapsInto`: not figures, as a label set once beside two rows is), is one row
 * with them; so are further pairs of lines above and below (a cell of four lines). A table
 * found to centre its cells that way also centres cells of three lines, whose middle line shares the
 * row with the other cells: those join too. Alone, that pattern is also a label row over a cell
 * that wraps, so it needs the evidence of the even case. Rows are changed in place.
 */
function joinCentredRows(grid: Line[][][]): void {
  const filled = (r: Line[][]): number[] => r.flatMap((c, k) => (c.length ? [k] : []));
  const cy = (ls: Line[]): number => ls.reduce((n, l) => n + (l.y0 + l.y1) / 2, 0) / ls.length;
  const lineH = (ls: Line[]): number => Math.max(...ls.map((l) => l.y1 - l.y0));
  // Each column's lines: joining rows moves lines between rows, never between columns.
  const columns = (grid[0] ?? []).map((_, c) => grid.flatMap((r) => r[c]!));
  // Do rows a and b (a above b) hold consecutive lines of the same cells, in the columns `cols`?
  const tight = (a: Line[][], b: Line[][], cols: number[]): boolean =>
    cols.every((c) => {
      const up = a[c]!,
        down = b[c]!;
      if (!up.length || !down.length) return false;
      const gap = Math.min(...down.map((l) => l.y0)) - Math.max(...up.map((l) => l.y1));
      const last = up.reduce((m, l) => (l.y1 > m.y1 ? l : m)),
        first = down.reduce((m, l) => (l.y0 < m.y0 ? l : m));
      return gap > -1 && gap < lineH([...up, ...down]) * 0.6 && wrapsInto(last, first, columns[c]!);
    });
  const same = (a: number[], b: number[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
  // Grows a block of rows around `mid` by pairs of rows above and below holding lines of the
  // wrapped cells (columns `cols`) and nothing else; returns its first and last row.
  const grow = (first: number, last: number, cols: number[]): [number, number] => {
    while (
      first > 1 &&
      last + 1 < grid.length &&
      same(filled(grid[first - 1]!), cols) &&
      same(filled(grid[last + 1]!), cols) &&
      tight(grid[first - 1]!, grid[first]!, cols) &&
      tight(grid[last]!, grid[last + 1]!, cols)
    ) {
      first--;
      last++;
    }
    return [first, last];
  };
  const merge = (first: number, last: number): void => {
    const row = grid[first]!;
    for (let k = first + 1; k <= last; k++) grid[k]!.forEach((c, i) => row[i]!.push(...c));
    grid.splice(first + 1, last - first);
  };
  let centred = false;
  // Even line counts: the other cells' row between two rows of the wrapped cells' lines.
  for (let k = 2; k + 1 < grid.length; k++) {
    const up = grid[k - 1]!,
      mid = grid[k]!,
      down = grid[k + 1]!;
    const cols = filled(up),
      own = filled(mid);
    if (
      !cols.length ||
      !own.length ||
      !same(cols, filled(down)) ||
      own.some((c) => cols.includes(c)) ||
      !tight(up, down, cols)
    )
      continue;
    const m = cy(mid.flat()),
      a = cy(up.flat()),
      b = cy(down.flat());
    if (!(m > a && m < b) || Math.abs(m - (a + b) / 2) > lineH(mid.flat()) * 0.25) continue;
    const [first, last] = grow(k - 1, k + 1, cols);
    merge(first, last);
    centred = true;
    k = first + 1;
  }
  if (!centred) return;
  // Odd line counts: the middle line in the row of the other cells.
  for (let k = 2; k + 1 < grid.length; k++) {
    const up = grid[k - 1]!,
      mid = grid[k]!,
      down = grid[k + 1]!;
    const cols = filled(up),
      own = filled(mid);
    if (
      !cols.length ||
      own.length < 2 ||
      !same(cols, filled(down)) ||
      !cols.every((c) => own.includes(c)) ||
      cols.length === own.length
    )
      continue;
    if (!tight(up, mid, cols) || !tight(mid, down, cols)) continue;
    const others = own.filter((c) => !cols.includes(c)).flatMap((c) => mid[c]!);
    const block = cols.flatMap((c) => [...up[c]!, ...mid[c]!, ...down[c]!]);
    if (Math.abs(cy(others) - cy(block)) > lineH(others) * 0.25) continue;
    const [first, last] = grow(k - 1, k + 1, cols);
    merge(first, last);
    k = first + 1;
  }
}

/** A line that opens with a bullet and goes on with its text ("● Topic 1", "- item"). */
const BULLETED = /^(?:[•●▪■◦○◆◇►▶‣⁃∙·➢➤❖]|[-–—*](?=\s))\s*\S/u;

/**
 * Bulleted lists set side by side (a slide's two columns of points): every cell of every column
 * opens with a bullet, so the "rows" are only items that happen to stand level, not records. A
 * table with bulleted cells has a head, or a column of labels, that is not bulleted.
 */
function listsSideBySide(grid: Line[][][]): boolean {
  const cols = grid[0]?.length ?? 0;
  if (cols < 2 || grid.length < 2) return false;
  for (let c = 0; c < cols; c++) {
    const cells = grid.map((r) => r[c]!).filter((cell) => cell.length > 0);
    if (cells.length < 2) return false;
    // The cell's first line: a cell may hold an item's wrapped lines too.
    if (!cells.every((cell) => BULLETED.test(cell.reduce((m, l) => (l.y0 < m.y0 ? l : m)).text))) return false;
  }
  return true;
}

/**
 * The last row stands apart from the table: further below the row above than a line and twice the
 * rows' usual spacing, it fills no more than half the columns and holds no figures. It is the head
 * of what follows (a units line and a period over the next table, "In millions of CHF ...
 * January–June 2022"), not a row; a total set after a blank line holds figures.
 */
function setApartTail(merged: Line[][][]): boolean {
  const top = (r: Line[][]): number => Math.min(...r.flat().map((l) => l.y0));
  const bottom = (r: Line[][]): number => Math.max(...r.flat().map((l) => l.y1));
  const last = merged[merged.length - 1]!;
  if (!last.flat().length || filledCells(last) > last.length / 2) return false;
  if (last.some((c) => c.length > 0 && cellFigures(c) !== null)) return false;
  const gaps: number[] = [];
  for (let k = 1; k + 1 < merged.length; k++)
    if (merged[k]!.flat().length && merged[k - 1]!.flat().length) gaps.push(top(merged[k]!) - bottom(merged[k - 1]!));
  if (gaps.length < 2) return false;
  gaps.sort((a, b) => a - b);
  const usual = Math.max(0, gaps[gaps.length >> 1]!);
  const lineH = Math.max(...last.flat().map((l) => l.y1 - l.y0));
  const gap = top(last) - bottom(merged[merged.length - 2]!);
  return gap > lineH && gap > usual * 2 + 1;
}

/**
 * A full grid: four rows or more, and nearly every row with every column filled. The pieces of a
 * displayed formula set apart come as a few ragged rows (a line, its sub- and superscripts, a row
 * of brackets); a sheet's cells, even where they hold only dashes or single letters, come as rows
 * that fill the columns one after the other.
 */
function fullGrid(rows: TableCell[][]): boolean {
  const complete = rows.filter((r) => r.length >= 2 && r.every((c) => c.content.length > 0)).length;
  return complete >= 4 && complete >= rows.length * 0.8;
}

/**
 * A head row with one head for each column names the columns in order, wherever each head stands:
 * heads set flush left or centred in their cells over figures set flush right may stand nearer the
 * cut before their column's figures than after it, or over it, and would be taken for a head over
 * two columns or fall into the column on their left. Each head stays within a column of its own.
 * The column of each line of the row, or null when the row has not one line for each column.
 */
function oneHeadEach(row: Line[], cuts: number[]): number[] | null {
  if (row.length !== cuts.length + 1 || row.length < 2) return null;
  const order = row.map((l, k) => ({ l, k })).sort((a, b) => a.l.x0 - b.l.x0);
  const out: number[] = new Array(row.length);
  for (let c = 0; c < order.length; c++) {
    const { l, k } = order[c]!;
    const cx = (l.x0 + l.x1) / 2;
    // (Within the column's neighbours: a head two columns off names some other column.)
    if ((c >= 2 && cx < cuts[c - 2]!) || (c + 1 < cuts.length && cx > cuts[c + 1]!)) return null;
    if (c > 0 && order[c - 1]!.l.x1 > l.x0) return null;
    out[k] = c;
  }
  return out;
}

/**
 * The head rows of a table whose body holds figures: the rows before the first one with a figure
 * (three at most; none when the first row has one or no row has).
 */
function leadingHeads(members: Line[][], notes: Set<Line[]>): number {
  // A row of years alone ("2019 2023 2019 2023" under "Commuting", "Leisure") heads the columns
  // of figures under it: it is no row of the body.
  const years = (r: Line[]): boolean => r.every((l) => /^(?:(?:19|20)\d\d\s*)+$/.test(l.text.trim()));
  let k = members.findIndex(
    (r, i) =>
      !notes.has(r) &&
      r.some((l) => figures(l) !== null) &&
      !(i > 0 && i < 3 && years(r) && members[i + 1] && !years(members[i + 1]!)),
  );
  // (Under bold heads, a row with nothing bold is a sub-head row over the body, an italic
  // "Undergraduate" under "New students": a label of the rows under it, where it stands.)
  const bold = (r: Line[]): boolean => r.every((l) => l.bold);
  if (k > 1 && bold(members[0]!)) {
    const sub = members.slice(1, k).findIndex((r) => !r.some((l) => l.bold));
    if (sub >= 0) k = sub + 1;
  }
  return k > 0 && k <= 3 ? k : 0;
}

interface FigureColumns {
  /** Where the figures of each column set flush right end (undefined for other columns). */
  edge: Array<number | undefined>;
  /** Columns with text in some body row. */
  filled: boolean[];
}

/**
 * Columns of the body (rows under the heads) whose cells are mostly figures and end at one x, as
 * figures set flush right in their cells do; null when there is none.
 */
function flushRightFigures(body: Line[][], colOf: (l: Line) => number, nC: number): FigureColumns | null {
  const ends: number[][] = Array.from({ length: nC }, () => []);
  const cells = new Array<number>(nC).fill(0);
  for (const row of body) {
    const byCol = new Map<number, Line[]>();
    for (const l of row) {
      const c = colOf(l);
      byCol.set(c, [...(byCol.get(c) ?? []), l]);
    }
    for (const [c, ls] of byCol) {
      cells[c]!++;
      if (ls.every((l) => figures(l) !== null)) ends[c]!.push(Math.max(...ls.map((l) => l.x1)));
    }
  }
  const size = medianSize(body.flat().flatMap((l) => l.words));
  const edge = ends.map((e, c) =>
    e.length >= 2 && e.length >= cells[c]! * 0.6 && Math.max(...e) - Math.min(...e) <= Math.max(1.5, size * 0.15)
      ? Math.max(...e)
      : undefined,
  );
  return edge.some((e) => e !== undefined) ? { edge, filled: cells.map((n) => n > 0) } : null;
}

/**
 * A head line run on from one head into the next across the end of a column of flush-right
 * figures ("Temp (°C)" and "Hours", whose wide space lines up with spaces of a caption above): cut at
 * a space of half an em or more that holds the end of such a column. A head lies within its cell,
 * and a flush-right column's cell ends where its figures end, so no head goes on past it. (A word
 * space is a quarter of an em: a group head's words stay together.)
 */
function cutHeadsAtEdges(row: Line[], edge: Array<number | undefined>): Line[] {
  const ends = edge.filter((e): e is number => e !== undefined).map((e) => e + 1);
  return row.flatMap((l) => {
    if (l.rtl) return [l];
    const at = l.words.flatMap((w, k) =>
      k > 0 && w.x0 - l.words[k - 1]!.x1 >= l.size * 0.5 && ends.some((e) => l.words[k - 1]!.x1 <= e && w.x0 > e)
        ? [k]
        : [],
    );
    if (!at.length) return [l];
    const edges = [0, ...at, l.words.length];
    return edges.slice(1).map((e, n) => makeLine(l.words.slice(edges[n]!, e), false));
  });
}

/**
 * The column of a head line over figures set flush right. A head lies within its cell, and the cell
 * of such a column ends where its figures end: a head starting right of them heads a column further
 * right (a head set flush left in a wide cell stands in the space before its own figures, nearer
 * the column on its left). So does a head standing in a column of its own, nothing under it, where
 * the column after it holds figures it ends over. `c` is the column it would go to otherwise.
 */
function headOverFigures(l: Line, c: number, cols: FigureColumns, taken: ReadonlySet<number>): number {
  // (Never into a column in `taken`: where each head of the row stands over a column of its own,
  // heads set flush left just after figures set flush right, "New students" just right of "110",
  // head those columns, not the next ones.)
  while (c + 1 < cols.edge.length && !taken.has(c + 1)) {
    const e = cols.edge[c],
      next = cols.edge[c + 1];
    if (e !== undefined && l.x0 > e + 1) c++;
    else if (!cols.filled[c] && next !== undefined && l.x1 <= next + 1) c++;
    else break;
  }
  return c;
}

/**
 * Whether most rows of a table (two at least) are lines of justified text cut at their stretched
 * spaces: every space inside a cell wider than half an em, and the spaces inside the cells and
 * between them alike (the widest within a third of the narrowest). A table's cells set their words a
 * word space apart, closer than the cells stand; a narrow justified column stretches every space of
 * a line alike, and where a few lines' spaces line up they looked like a gutter.
 */
function justifiedRows(merged: Line[][][]): boolean {
  let filled = 0,
    stretched = 0;
  for (const r of merged) {
    const cells = r.filter((c) => c.length > 0);
    if (cells.length < 2) continue;
    filled++;
    if (cells.some((c) => c.length !== 1)) continue;
    const lines = cells.map((c) => c[0]!);
    if (lines.some((l, i) => i > 0 && Math.abs(l.y0 - lines[0]!.y0) > l.size * 0.3)) continue;
    const size = lines[0]!.size;
    const inside: number[] = [];
    for (const l of lines)
      for (let i = 1; i < l.words.length; i++) {
        const g = l.words[i]!.x0 - l.words[i - 1]!.x1;
        if (g > size * 0.15) inside.push(g);
      }
    const between = lines.slice(1).map((l, i) => l.x0 - lines[i]!.x1);
    if (!inside.length || Math.min(...inside) < size * 0.5) continue;
    const all = [...inside, ...between];
    if (Math.max(...all) <= Math.min(...all) * 1.33) stretched++;
  }
  return stretched >= 2 && stretched * 2 >= filled;
}

/**
 * Column boundaries narrower than a gutter that the cells' alignment shows: figures set flush right
 * in one column end at one x, the words set flush left in the next start at one x a little further
 * right (the two cells' padding apart, "2,314" ending at 295.8 and "€ 398.1m" starting at 299.3), and
 * no line of any row runs across that strip. Two lines at least end there, and two start (one
 * where the strip is no wider than half an em), inside one column of the gutters found so far.
 */
function alignedSlivers(members: Line[][], notes: Set<Line[]>, heads: number, gutters: Interval[]): Interval[] {
  const lines = members.filter((r) => !notes.has(r)).flat();
  // (A table of thousands of lines has its columns from its gutters; the search below looks at every
  // line for each candidate strip.)
  if (lines.length > 3000) return [];
  // The words that start after the strip are cells of the body's rows (two cells or more): heads set
  // flush left just right of the figures they head (Word centres a head's cell over figures set
  // flush right in it), and a sub-head alone in its row, are no sign of a column.
  const body = members
    .slice(heads)
    .filter((r) => !notes.has(r) && r.length >= 2)
    .flat();
  // Positions shared within 0.4 pt: the group's leftmost and rightmost, how many, their smallest type.
  const groups = (
    pairs: Array<[x: number, size: number]>,
  ): Array<{ lo: number; hi: number; n: number; size: number }> => {
    const sorted = [...pairs].sort((a, b) => a[0] - b[0]);
    const out: Array<{ lo: number; hi: number; n: number; size: number }> = [];
    for (let i = 0; i < sorted.length; i++) {
      let j = i,
        size = sorted[i]![1];
      while (j + 1 < sorted.length && sorted[j + 1]![0] - sorted[i]![0] <= 0.4) size = Math.min(size, sorted[++j]![1]);
      out.push({ lo: sorted[i]![0], hi: sorted[j]![0], n: j - i + 1, size });
      i = j;
    }
    return out;
  };
  const ends = groups(lines.map((l) => [l.x1, l.size])).filter((g) => g.n >= 2);
  const starts = groups(body.map((l) => [l.x0, l.size]));
  const out: Interval[] = [];
  // One strip at most after each place where figures end: the nearest start that qualifies. (Where
  // the strip is no wider than half an em, one line starting after it is enough: a cell's padding
  // apart from figures, text is in the next cell.)
  for (const e of ends) {
    const r = e.hi;
    const st = starts.find((g) => {
      const size = Math.min(e.size, g.size);
      const w = g.lo - r;
      return (
        w >= 1.5 &&
        w < size * 0.8 &&
        (w <= size * 0.5 || g.n >= 2) &&
        !gutters.some((gv) => gv.a < g.lo + size && gv.b > r - size)
      );
    });
    if (!st || lines.some((x) => x.x0 < st.lo - 0.4 && x.x1 > r + 0.4)) continue;
    out.push({ a: r, b: st.lo });
  }
  return out;
}

function buildAligned(
  members: Line[][],
  gutters: Interval[],
  ruled: boolean,
  notes: Set<Line[]> = new Set(),
  hRules: Box[] = [],
): FoundTable | null {
  // Head rows (leading lines over the body), counted once for the cell-padding search and the heads below.
  const heads = leadingHeads(members, notes);
  if (!ruled) gutters = [...gutters, ...alignedSlivers(members, notes, heads, gutters)];
  const cuts = gutters.map((g) => (g.a + g.b) / 2).sort((a, b) => a - b);
  const nC = cuts.length + 1;
  const colAt = (x: number): number => {
    let c = 0;
    while (c < cuts.length && x > cuts[c]!) c++;
    return c;
  };
  const colOf = (l: Line): number => colAt((l.x0 + l.x1) / 2);
  // A group head in the first two rows with a short rule under it across several columns (booktabs'
  // \cmidrule) spans those columns: it goes in the first of them, as a spanning cell starts there,
  // rather than wherever its centre falls.
  const tableWidth =
    members.flat().reduce((m, l) => Math.max(m, l.x1), -Infinity) -
    members.flat().reduce((m, l) => Math.min(m, l.x0), Infinity);
  const spanStart = (l: Line, row: Line[]): number | null => {
    const cx = (l.x0 + l.x1) / 2,
      h = l.y1 - l.y0;
    // The head is centred over its rule, as \multicolumn{..}{c} sets it, and alone over it.
    const rule = hRules.find(
      (r) =>
        r.y0 >= l.y1 - 1 &&
        r.y0 <= l.y1 + h * 0.8 &&
        r.x1 - r.x0 >= (l.x1 - l.x0) * 1.5 &&
        Math.abs((r.x0 + r.x1) / 2 - cx) <= (r.x1 - r.x0) * 0.1 &&
        !row.some((o) => o !== l && o.x1 > r.x0 && o.x0 < r.x1),
    );
    if (!rule) {
      // Without a rule: a head centred over a column boundary (its middle fifth holds a cut) spans
      // the two columns around it. A head merely wider than its column reaches over a cut with an end.
      const w = l.x1 - l.x0;
      const mid = cuts.findIndex((c) => c > l.x0 + w * 0.25 && c < l.x1 - w * 0.25);
      return mid >= 0 && !row.some((o) => o !== l && o.x1 > cuts[mid]! - w && o.x0 < cuts[mid]! + w) ? mid : null;
    }
    // Over some columns only (a pair of label and value columns, or the figures right of the row
    // labels): a rule across the table, or nearly so, is the one under the head.
    const first = colAt(rule.x0 + 1),
      last = colAt(rule.x1 - 1);
    return first < last && rule.x1 - rule.x0 < tableWidth * 0.8 ? first : null;
  };
  const noteLines = new Set(members.filter((r) => notes.has(r)).flat());
  // Note rows go into the column they start in (a remark across the columns reads as one on the row
  // above, in the first; a sub-head set in a later column stays there).
  // Heads over columns of figures set flush right: where each such column ends, and the head lines
  // cut where they run on from one column's head into the next one's.
  const overFigures = heads
    ? flushRightFigures(
        members.slice(heads).filter((r) => !notes.has(r)),
        colOf,
        nC,
      )
    : null;
  if (overFigures)
    members = members.map((row, r) => (r < heads && !notes.has(row) ? cutHeadsAtEdges(row, overFigures.edge) : row));
  let grid: Line[][][] = members.map((row, r) => {
    const cells: Line[][] = Array.from({ length: nC }, () => []);
    const one = r < 2 && !notes.has(row) ? oneHeadEach(row, cuts) : null;
    const cols = row.map((l, k) =>
      one ? one[k]! : notes.has(row) ? colAt(l.x0 + 1) : ((r < 2 ? spanStart(l, row) : null) ?? colOf(l)),
    );
    // Heads that share a column as set must spread over the columns on their right; heads each
    // over a column of their own, with something under it, keep to those columns.
    // So must a head over a column with nothing under it. (Side by side: a head's second line
    // under it is no other head.)
    const taken = new Set(cols);
    if (
      overFigures &&
      r < heads &&
      (cols.some((c) => !overFigures.filled[c]) ||
        row.some((a, i) =>
          row.some((b, j) => j > i && cols[i] === cols[j] && Math.min(a.y1, b.y1) > Math.max(a.y0, b.y0)),
        ))
    )
      taken.clear();
    row.forEach((l, k) =>
      cells[overFigures && r < heads ? headOverFigures(l, cols[k]!, overFigures, taken) : cols[k]!]!.push(l),
    );
    return cells;
  });
  joinWrappedFirstCells(grid, 'spacing');
  // Prose columns at the edges (a text column beside the table) are not part of it.
  const colText = (c: number): string[] => grid.map((r) => r[c]!.map((l) => l.text).join(' ')).filter(Boolean);
  // A column of running text: long, wordy lines that continue one another (lines starting in lower
  // case), or very long lines.
  const prose = (c: number): boolean => {
    const t = colText(c);
    if (!t.length) return true;
    const lens = t.map(displayLength).sort((a, b) => a - b);
    const med = lens[Math.floor(lens.length / 2)]!;
    const wordy = t.filter((s) => s.split(/\s+/).length >= 4).length >= t.length * 0.5;
    // Lines that go on from the line above: a word in lower case; in a script without case, a line
    // without the marker that the column's notes start with ("* ..." wrapped onto a second line).
    const marked = t.some((s) => NOTE_MARKER.test(s));
    const goesOn = (s: string): boolean =>
      /^\p{Ll}/u.test(s.replace(NOTE_MARKER, '')) || (marked && !NOTE_MARKER.test(s) && /^[\p{Lo}(]/u.test(s));
    const flows = t.length > 1 && t.slice(1).filter(goesOn).length >= (t.length - 1) * 0.25;
    return med > 60 || (med > 25 && wordy && flows) || (t.length <= 2 && med > 45);
  };
  const isProse = Array.from({ length: nC }, (_, c) => prose(c) && !wrappedCellsColumn(grid, c));
  if (isProse.every(Boolean)) return null;
  // Two or more columns of contents entries ("Title ....... 48" in each): a table of contents set in
  // columns, read column by column like any text in columns, not row by row across them.
  if (Array.from({ length: nC }, (_, c) => contentsColumn(colText(c))).filter(Boolean).length >= 2) return null;
  let lo = 0,
    hi = nC - 1;
  // Prose columns at the edges (a text column beside a table, text beside its side heads) are not
  // part of the table.
  while (lo <= hi && isProse[lo]) lo++;
  while (hi >= lo && isProse[hi]) hi--;
  if (hi - lo + 1 < 2) return null;
  if (lo > 0 || hi < nC - 1) grid = grid.map((r) => r.slice(lo, hi + 1));
  // A column empty in every row (the space between a head and the figures it was moved over, set
  // flush right in their cells) is no column.
  const empty = grid[0]!.map((_, c) => grid.every((r) => r[c]!.length === 0));
  if (empty.some(Boolean)) grid = grid.map((r) => r.filter((_, c) => !empty[c]));
  // Two columns under one head, never both filled in a row: one column whose cells are set flush left
  // or right by what they hold ("true" flush left, "30000" flush right under "Default"). (Columns
  // with a head each, a ledger's Debit and Credit, stay two.)
  for (let c = 0; c + 1 < grid[0]!.length; c++) {
    const [h0, h1] = [grid[0]![c]!.length > 0, grid[0]![c + 1]!.length > 0];
    if (h0 === h1 || grid.length < 3) continue;
    const body = grid.slice(1);
    if (body.some((r) => r[c]!.length > 0 && r[c + 1]!.length > 0)) continue;
    if (!body.some((r) => r[c]!.length > 0) || !body.some((r) => r[c + 1]!.length > 0)) continue;
    // (One of them figures only, the other short words, no label with its colon: a form's label and
    // value columns, filled in turn, are two.)
    const cellsOf = (k: number): Line[][] => body.map((r) => r[k]!).filter((x) => x.length > 0);
    const allFigures = (k: number): boolean => cellsOf(k).every((x) => x.every((l) => figures(l) !== null));
    const shortWords = (k: number): boolean =>
      cellsOf(k).every((x) => x.length === 1 && x[0]!.words.length <= 3 && !/:$/.test(x[0]!.text.trim()));
    if (!((allFigures(c) && shortWords(c + 1)) || (allFigures(c + 1) && shortWords(c)))) continue;
    grid = grid.map((r) => [...r.slice(0, c), [...r[c]!, ...r[c + 1]!], ...r.slice(c + 2)]);
    c--;
  }
  if (grid[0]!.length < 2) return null;
  // Only now, clear of running text (whose lines starting in lower case tell it from a column).
  joinWrappedFirstCells(grid, 'text');
  if (listsSideBySide(grid)) return null;
  const cols = grid[0]!.length;
  // Rows with at least two filled cells anchor the table; others continue the row above.
  const anchored = grid.filter((r) => filledCells(r) >= 2).length;
  // Two rows make a table only when they are short cells side by side (a header and one record),
  // not fragments of justified sentences.
  const shortCells = grid.slice(0, 2).every((r) =>
    r.every((c) => {
      const t = c.map((l) => l.text).join(' ');
      return t.length <= 30 && !/[.;]$/.test(t);
    }),
  );
  const wide = cols >= 3 && grid.length >= 2 && shortCells && grid.slice(0, 2).every((r) => filledCells(r) >= 3);
  if (anchored < ((ruled && shortCells) || wide ? 2 : 3)) return null;
  joinCentredRows(grid);
  attachCentredLabels(grid);
  const merged: Line[][][] = [];
  // Words in another face under a figure or a bold head, a row's spacing below it (an italic
  // "Graduate" under "202", an italic "Undergraduate" under the head "New students"), are a row of
  // their own, a sub-head: a figure does not go on over a second line, and a head goes on in its own
  // face. Plain text does, in any face and after a paragraph's space too ("... notice" over an italic
  // "See ...").
  const sameFace = (r: Line[][], prev: Line[][]): boolean =>
    r.every((c, k) => {
      const above = prev[k]![prev[k]!.length - 1];
      // A bold line under plain text is a head of its own ("Estimate Totals" under a form's last value).
      if (c.length && above && c[0]!.bold && !above.bold) return false;
      if (!c.length || !above || !(figures(above) || above.bold)) return true;
      return (
        (c[0]!.italic === above.italic && c[0]!.bold === above.bold) ||
        c[0]!.y0 - above.y1 < (above.y1 - above.y0) * 0.5
      );
    });
  const rowSpace = spaceBeforeRows(grid);
  for (const r of grid) {
    const prev = merged[merged.length - 1];
    if (
      prev &&
      ((filledCells(r) < Math.min(2, cols) && r[0]!.length === 0 && sameFace(r, prev)) ||
        goesOnInCells(r, prev, grid, rowSpace))
    ) {
      r.forEach((c, k) => prev[k]!.push(...c));
    } else merged.push(r.map((c) => [...c]));
  }
  // A header set on two lines: the second line fills only cells the first one started, and neither
  // holds numbers.
  if (merged.length >= 3) {
    const [h1, h2] = [merged[0]!, merged[1]!];
    const textOf = (c: Line[]): string => c.map((l) => l.text).join(' ');
    const numeric = (c: Line[]): boolean => /^[\d.,%$€£()+\-−\s]+$/.test(textOf(c)) && textOf(c).trim() !== '';
    // A note row (a remark set across the columns) is no second line of the head, unless it is set
    // at line spacing right under it (a head cell wrapped: "City or" over "Town").
    const h1Bottom = Math.max(...h1.flat().map((l) => l.y1));
    const noteRow = h2.some((c) => c.some((l) => noteLines.has(l) && l.y0 - h1Bottom >= (l.y1 - l.y0) * 0.5));
    const under = !noteRow && h2.every((c, k) => c.length === 0 || h1[k]!.length > 0);
    // Or both lines are set bold over plain rows ("Year ended" over "31 Dec 2023" in each column).
    const bold = (r: Line[][]): boolean => r.every((c) => c.every((l) => l.bold)) && filledCells(r) > 0;
    const boldPair = bold(h1) && bold(h2) && !bold(merged[2]!);
    // A line in plain or italic type under a bold head is a sub-head row, not the head's second line.
    const faceBreak = bold(h1) && !h2.some((c) => c.some((l) => l.bold));
    // Or heads wrapped over two lines and set flush to the foot, as heads over figures often are
    // ("Number of" over "employees", with a one-line "Region" on the second line): every head of the
    // first line goes on right under itself, flush with it at one side or centred, at line spacing.
    const flush = (a: Line, b: Line): boolean => {
      const tol = Math.max(2, a.size * 0.2);
      return (
        Math.abs(a.x0 - b.x0) < tol || Math.abs(a.x1 - b.x1) < tol || Math.abs(a.x0 + a.x1 - b.x0 - b.x1) < tol * 2
      );
    };
    // Left-aligned cells of any two rows are flush too: the heads must stand over figures, or be set
    // bold over plain rows.
    const figuresUnder = h1.every((c, k) => {
      if (!c.length || k === 0) return true;
      const body = merged
        .slice(2)
        .map((r) => r[k]!)
        .filter((x) => x.length > 0);
      return body.length >= 2 && body.filter(numeric).length >= body.length * 0.6;
    });
    const wrappedHeads =
      !noteRow &&
      filledCells(h1) >= 2 &&
      (figuresUnder || boldPair) &&
      h1.every((c, k) => {
        const up = c[c.length - 1],
          down = h2[k]![0];
        return !up || (!!down && flush(up, down) && down.y0 - up.y1 < (down.y1 - down.y0) * 0.6);
      });
    // A label of the rows under it, alone in the first cell with the first cells of those rows set
    // in from it ("Staff costs" over "Salaries", "Pension contributions"), is a row of its own.
    const groupLabel =
      filledCells(h2) === 1 &&
      h2[0]!.length === 1 &&
      h1[0]!.length > 0 &&
      merged.length >= 3 &&
      merged[2]![0]!.length > 0 &&
      Math.abs(h2[0]![0]!.x0 - h1[0]![0]!.x0) <= 1 &&
      merged[2]![0]![0]!.x0 >= h2[0]![0]!.x0 + h2[0]![0]!.size * 0.8;
    if (
      (under || wrappedHeads) &&
      !faceBreak &&
      !groupLabel &&
      (filledCells(h2) < filledCells(h1) || boldPair || wrappedHeads) &&
      filledCells(h2) > 0 &&
      !h1.some(numeric) &&
      !h2.some(numeric)
    ) {
      h2.forEach((c, k) => h1[k]!.push(...c));
      merged.splice(1, 1);
    }
  }
  // Column heads set bold over three lines or more ("Year ended" / "December 31," / "2024") above
  // plain rows: one head row. Every line fills the same columns right of the first (a group head
  // over several columns fills fewer than the heads under it, and stays a row of its own), the lines
  // follow at line spacing, and the first column may hold a plain note ("(in thousands)").
  {
    const boldRight = (r: Line[][]): boolean =>
      r.slice(1).some((c) => c.length > 0) && r.slice(1).every((c) => c.every((l) => l.bold));
    const sameCols = (a: Line[][], b: Line[][]): boolean =>
      a.every((c, k) => k === 0 || c.length > 0 === b[k]!.length > 0);
    const tightUnder = (a: Line[][], b: Line[][]): boolean => {
      const bottom = Math.max(...a.flat().map((l) => l.y1)),
        top = Math.min(...b.flat().map((l) => l.y0));
      return top - bottom < Math.max(...b.flat().map((l) => l.y1 - l.y0)) * 0.6;
    };
    let k = 1;
    while (
      k < merged.length - 1 &&
      boldRight(merged[k]!) &&
      sameCols(merged[0]!, merged[k]!) &&
      tightUnder(merged[k - 1]!, merged[k]!)
    )
      k++;
    if (k >= 2 && boldRight(merged[0]!) && !boldRight(merged[k]!)) {
      for (let r = 1; r < k; r++) merged[r]!.forEach((c, col) => merged[0]![col]!.push(...c));
      merged.splice(1, k - 1);
    }
  }
  // A column with a single filled cell is a stray fragment next to the table, not a column.
  if (merged.length >= 4) {
    // Only a fragment in the first row (a heading or running text above the table) is stray.
    const keep = Array.from(
      { length: cols },
      (_, c) => merged.filter((r) => r[c]!.length > 0).length > 1 || merged[0]![c]!.length === 0,
    );
    if (keep.filter(Boolean).length >= 2 && keep.some((k) => !k)) {
      for (let k = merged.length - 1; k >= 0; k--) {
        const r = merged[k]!;
        merged[k] = r.filter((_, c) => keep[c]);
      }
    }
  }
  // Figures set so tightly that a row's numbers came as one line, often as one text run
  // ("1,204 1,310 1,422"): a column whose every data cell holds the same number (two or more) of
  // figures is split into that many columns, figure by figure.
  const splitFrom = new Set<Line>();
  for (let c = (merged[0]?.length ?? 0) - 1; c >= 0; c--) {
    const data = merged
      .slice(1)
      .map((r) => r[c]!)
      .filter((cell) => cell.length > 0);
    if (data.length < 2) continue;
    const counts = data.map(cellFigures);
    const k = counts[0]?.length ?? 0;
    if (k < 2 || !counts.every((f) => f && f.length === k)) continue;
    if (!counts.some((f) => f!.some((w) => NUMBER_WORD.test(w.text)))) continue;
    // "12 500" is one figure where a space groups thousands (unless the column groups them with
    // commas or points elsewhere: "880 912 1,005" are three figures).
    const grouped = counts.some((f) => f!.some((w) => /\d[,.]\d{3}(?!\d)/.test(w.text)));
    if (
      !grouped &&
      counts.some((f) =>
        f!.some(
          (w, i) => i > 0 && /^\d{3}(?:[.,]\d+)?%?\)?$/.test(w.text) && /^[-+−(]?[$€£¥]?\d{1,3}$/.test(f![i - 1]!.text),
        ),
      )
    )
      continue;
    // Where each new column sits: the mean centre of its figures.
    const centres = Array.from(
      { length: k },
      (_, i) => counts.reduce((n, f) => n + (f![i]!.x0 + f![i]!.x1) / 2, 0) / counts.length,
    );
    for (const r of merged) {
      const cell = r[c]!;
      for (const l of cell) splitFrom.add(l);
      const f = cellFigures(cell);
      // Other cells (a header over the figures): each token goes to the nearest new column.
      const ws = f && f.length === k ? f : cell.flatMap(tokens);
      const parts: Word[][] = Array.from({ length: k }, () => []);
      for (const w of ws) {
        const cx = (w.x0 + w.x1) / 2;
        let best = 0;
        for (let i = 1; i < k; i++) if (Math.abs(centres[i]! - cx) < Math.abs(centres[best]! - cx)) best = i;
        // A head centred across the boundary of two new columns (a group head over both) starts in
        // the left one, as a spanning cell does.
        const ww = w.x1 - w.x0;
        const boundary = best > 0 ? (centres[best - 1]! + centres[best]!) / 2 : -Infinity;
        if (boundary > w.x0 + ww * 0.3 && boundary < w.x1 - ww * 0.3) best--;
        parts[best]!.push(w);
      }
      r.splice(c, 1, ...parts.map((p) => (p.length ? [makeLine(p, false)] : [])));
    }
  }
  // Two columns set closer than a line split allows (a label column beside a name column, each row
  // one line "Single  BM25+BERT (Lee et al., 2019)"): a space of 0.8 em or more that runs clear
  // down the column, with words on both sides in three rows or more, splits it. A word space is a
  // quarter of an em, so words that merely repeat ("Total revenue", "Total costs") stay together.
  for (let c = (merged[0]?.length ?? 0) - 1; c >= 0; c--) {
    const cells = merged.map((r) => r[c]!);
    const ws = cells.flatMap((cell) => cell.flatMap((l) => l.words));
    if (ws.length < 6 || cells.some((cell) => cell.some((l) => l.rtl))) continue;
    // Letters or figures on both sides: a currency sign set apart from its amounts ("$  1,200")
    // belongs with them.
    const alnum = (q: Word): boolean => /[\p{L}\p{N}]/u.test(q.text);
    const rivers = whitespaceRivers(ws, medianSize(ws) * 0.8)
      .map((v) => v.x)
      .filter(
        (x) =>
          cells.filter(
            (cell) =>
              cell.some((l) => l.words.some((q) => q.x1 <= x && alnum(q))) &&
              cell.some((l) => l.words.some((q) => q.x0 >= x && alnum(q))),
          ).length >= 3,
      );
    if (!rivers.length) continue;
    for (const r of merged) {
      const cell = r[c]!;
      for (const l of cell) splitFrom.add(l);
      const parts: Word[][] = Array.from({ length: rivers.length + 1 }, () => []);
      for (const l of cell) for (const w of l.words) parts[rivers.filter((x) => w.x0 >= x).length]!.push(w);
      // Each part keeps its lines apart (a cell of two lines stays two lines).
      r.splice(c, 1, ...parts.map((p) => cellLines(p)));
    }
  }
  // A label column split off just now may hold labels set once beside their rows.
  attachCentredLabels(merged);
  // Form columns: cells that read "Label: value" with the label as a run of its own become two
  // cells, so that each value stands beside its label.
  for (let c = (merged[0]?.length ?? 0) - 1; c >= 0; c--) {
    const cells = merged.map((r) => r[c]!).filter((cell) => cell.length > 0);
    const splitAt = (cell: Line[]): number => {
      if (cell.length !== 1) return -1;
      const ws = cell[0]!.words;
      const k = ws.findIndex((w) => /:$/.test(w.text.trim()));
      return k >= 0 &&
        k < ws.length - 1 &&
        ws
          .slice(0, k + 1)
          .map((w) => w.text)
          .join(' ').length <= 30
        ? k + 1
        : -1;
    };
    if (cells.length < 2 || cells.filter((cell) => splitAt(cell) > 0).length < cells.length * 0.75) continue;
    for (const r of merged) {
      const cell = r[c]!;
      const k = splitAt(cell);
      if (k < 0) {
        r.splice(c + 1, 0, []);
        continue;
      }
      const l = cell[0]!;
      r.splice(c, 1, [makeLine(l.words.slice(0, k), l.rtl)], [makeLine(l.words.slice(k), l.rtl)]);
    }
  }
  // A column of currency signs only ("$" set at the left of its amounts, which are set flush right):
  // the signs belong to the amounts beside them, not to a column of their own.
  for (let c = (merged[0]?.length ?? 0) - 2; c >= 0; c--) {
    const signs = merged.filter((r) => r[c]!.length > 0);
    if (
      !signs.length ||
      !signs.every(
        (r) =>
          /^[$€£¥₹]$/u.test(
            r[c]!.map((l) => l.text)
              .join('')
              .trim(),
          ) && r[c + 1]!.length > 0,
      )
    )
      continue;
    for (const r of merged) {
      r[c + 1] = [...r[c]!, ...r[c + 1]!];
      r.splice(c, 1);
    }
  }
  // Trailing rows with a single cell are text after the table, unless the last row's cell wrapped
  // onto them.
  let tail = merged.length;
  while (tail > 2 && filledCells(merged[tail - 1]!) < 2) tail--;
  for (let k = tail; k < merged.length && tail >= 2; k++) {
    const c = merged[k]!.findIndex((cell) => cell.length > 0);
    const last = merged[tail - 1]!;
    const cell = c >= 0 && merged[k]![c]!.length === 1 ? last[c]![last[c]!.length - 1] : undefined;
    if (!cell) break;
    const column = merged.slice(0, tail).flatMap((r) => r[c]!);
    const left = Math.max(
      -Infinity,
      ...merged
        .slice(0, tail)
        .flatMap((r) => r[c - 1] ?? [])
        .map((l) => l.x1),
    );
    const right = Math.min(
      Infinity,
      ...merged
        .slice(0, tail)
        .flatMap((r) => r[c + 1] ?? [])
        .map((l) => l.x0),
    );
    if (!wrappedTail(merged[k]![c]![0]!, cell, column, left, right)) break;
    last[c]!.push(merged[k]![c]![0]!);
  }
  merged.length = tail;
  if (merged.length >= 4 && setApartTail(merged)) merged.pop();
  if (merged.length < 2 || merged.filter((r) => filledCells(r) >= 2).length < ((ruled && shortCells) || wide ? 2 : 3))
    return null;
  const words = new Set<Word>();
  const lines = new Set<Line>();
  // Lines cut into figures: their own words leave the text flow with the table.
  for (const l of splitFrom) {
    lines.add(l);
    for (const w of l.words) words.add(w);
  }
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  const rows: TableCell[][] = merged.map((r) =>
    r.map((cell) => {
      for (const l of cell) {
        lines.add(l);
        for (const w of l.words) words.add(w);
        x0 = Math.min(x0, l.x0);
        y0 = Math.min(y0, l.y0);
        x1 = Math.max(x1, l.x1);
        y1 = Math.max(y1, l.y1);
      }
      return { content: cellInlines(cell.flatMap((l) => l.words)) };
    }),
  );
  // Pieces of running text (justified lines whose wide spaces looked like gutters): cells that read
  // as sentence fragments, or rows whose words stand as far apart inside their cells as the cells do.
  if (justifiedRows(merged)) return null;
  {
    const cellsText = rows
      .flat()
      .map((c) => plainOf(c.content))
      .filter(Boolean);
    const sentencey = cellsText.filter(
      (t) => t.split(/\s+/).length >= 3 && (/[.;:,]$/.test(t) || /^\p{Ll}/u.test(t)),
    ).length;
    if (cellsText.length && sentencey >= cellsText.length * 0.4) return null;
  }
  // Pieces of a displayed formula (operators, sub- and superscripts set apart) are not a table.
  const texts = rows
    .flat()
    .map((c) => plainOf(c.content))
    .filter(Boolean);
  // Tall brackets drawn as glyphs come as rows of their own ("( )") above and below each line.
  const operator = (t: string): boolean => /[∑∏∫√∂∇≤≥≈≠∈∉⊂⊆∪∩∀∃→←⇒⇔±×÷·∞]/.test(t) || /^[\s()[\]{}|⟨⟩]+$/u.test(t);
  // A sign or a lone letter is a formula's piece (a minus, a variable set apart), except in a full
  // grid, where it is a value: a dash for nothing, a tick, an "x" marking a cell.
  const piece = (t: string): boolean => /^[^\p{L}\p{N}$%]{1,2}$/u.test(t) || /^\p{Ll}$/u.test(t);
  const full = fullGrid(rows);
  const mathy = texts.filter((t) => operator(t) || (!full && piece(t))).length;
  if (texts.length && mathy >= texts.length * 0.3) return null;
  // An aligned set of equations: one column holds nothing but the relation sign of each line.
  const relation = /^(?:=|:=|≤|≥|<|>|≈|≡|∝|∼|≃|≠)$/u;
  for (let c = 0; c < (rows[0]?.length ?? 0); c++) {
    const col = rows.map((r) => plainOf(r[c]?.content ?? []).trim()).filter(Boolean);
    if (col.length >= 2 && col.every((t) => relation.test(t))) return null;
  }
  // Mostly empty grids are scattered text, not tables.
  const cellsFilled = rows.flat().filter((c) => c.content.length > 0).length;
  if (cellsFilled < rows.length * (rows[0]?.length ?? cols) * 0.5) return null;
  const extent = (ls: Line[], lo: (l: Line) => number, hi: (l: Line) => number): Interval =>
    ls.length ? { a: Math.min(...ls.map(lo)), b: Math.max(...ls.map(hi)) } : { a: NaN, b: NaN };
  const columns = (merged[0] ?? []).map((_, c) =>
    extent(
      merged.flatMap((r) => r[c] ?? []),
      (l) => l.x0,
      (l) => l.x1,
    ),
  );
  const rowBands = merged.map((r) =>
    extent(
      r.flat(),
      (l) => l.y0,
      (l) => l.y1,
    ),
  );
  return { x0, y0, x1, y1, rows, words, lines, ruled: false, confidence: ruled ? 0.75 : 0.6, columns, rowBands };
}
