/**
 * What a row of the page says about the aligned table being scanned: a running head over it, a row
 * where a table may start in a run of text columns, a note under its last row, a row to cut at the
 * table's gutters.
 */
import { makeLine, type Line } from '../../lines.js';
import type { Interval } from '../types.js';

/**
 * The page's first row, in its top eighth, of two or three parts (a running head: the journal at
 * the left, the page number at the right), over a row of more cells set off from it by more than
 * most of a line and by half as much again as that row is from the next: no head row of a table
 * that starts under it.
 */
export function runningHead(row: Line[], next: Line[] | undefined, after: Line[] | undefined, pageH: number): boolean {
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
export function moreCells(rows: Line[][], i: number, j: number): number {
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
export function noteLike(row: Line[], members: Line[][], notes: Set<Line[]>, prevBottom: number): boolean {
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
 * A table row whose cells stand closer than a line split allows (tight numeric columns) comes as one
 * line across a gutter: split it at the word space that falls in the gutter. Only rows that already
 * have two cells are touched, so running text stays whole.
 */
export function resplit(row: Line[], gutters: Interval[]): Line[] {
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
