/**
 * Columns that are no columns of the table: running text beside it, contents entries set in
 * columns, empty columns, and two columns under one head that are one.
 */
import { figures } from '../figures.js';
import { WIDE_LETTER, type Line } from '../../lines.js';
import { contentsColumn, displayLength, NOTE_MARKER, wordsIn } from '../text-cues.js';
import { wrappedCellsColumn } from './wrapped-rows.js';

/**
 * The grid (of `nC` columns) less the columns of running text at its edges and the columns empty in
 * every row; null when no table is left (every column prose, or columns of contents entries).
 */
export function withoutProseColumns(grid: Line[][][], nC: number): Line[][][] | null {
  // Prose columns at the edges (a text column beside the table) are not part of it.
  const colText = (c: number): string[] => grid.map((r) => r[c]!.map((l) => l.text).join(' ')).filter(Boolean);
  // A column of running text: long, wordy lines that continue one another (lines starting in lower
  // case), or very long lines.
  const prose = (c: number): boolean => {
    const t = colText(c);
    if (!t.length) return true;
    const lens = t.map(displayLength).sort((a, b) => a - b);
    const med = lens[Math.floor(lens.length / 2)]!;
    const wordy = t.filter((s) => wordsIn(s) >= 4).length >= t.length * 0.5;
    // Lines that go on from the line above: a word in lower case; in a script without case, a line
    // without the marker that the column's notes start with ("* ..." wrapped onto a second line).
    const marked = t.some((s) => NOTE_MARKER.test(s));
    // In CJK text, a line that stops on a letter, not on punctuation, goes on in the next line.
    const goesOn = (s: string, above: string): boolean =>
      /^\p{Ll}/u.test(s.replace(NOTE_MARKER, '')) ||
      (marked && !NOTE_MARKER.test(s) && /^[\p{Lo}(]/u.test(s)) ||
      (WIDE_LETTER.test(above.slice(-1)) && WIDE_LETTER.test(s[0] ?? ''));
    const flows = t.length > 1 && t.slice(1).filter((s, i) => goesOn(s, t[i]!)).length >= (t.length - 1) * 0.25;
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
  return grid;
}

/**
 * Two columns under one head, never both filled in a row: one column whose cells are set flush left
 * or right by what they hold ("true" flush left, "30000" flush right under "Default"). (Columns
 * with a head each, a ledger's Debit and Credit, stay two.)
 */
export function joinColumnsUnderOneHead(grid: Line[][][]): Line[][][] {
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
  return grid;
}
