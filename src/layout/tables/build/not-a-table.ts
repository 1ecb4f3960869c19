/** Grids that are no table: lists side by side, justified text cut at its spaces; a last row set apart. */
import type { TableCell } from '../../../model/document.js';
import type { Line } from '../../lines.js';
import { cellFigures } from '../figures.js';
import { filledCells } from '../geometry.js';
import { BULLETED } from '../text-cues.js';

/**
 * Bulleted lists set side by side (a slide's two columns of points): every cell of every column
 * opens with a bullet, so the "rows" are only items that happen to stand level, not records. A
 * table with bulleted cells has a head, or a column of labels, that is not bulleted.
 */
export function listsSideBySide(grid: Line[][][]): boolean {
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
export function setApartTail(merged: Line[][][]): boolean {
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
export function fullGrid(rows: TableCell[][]): boolean {
  const complete = rows.filter((r) => r.length >= 2 && r.every((c) => c.content.length > 0)).length;
  return complete >= 4 && complete >= rows.length * 0.8;
}

/**
 * Whether most rows of a table (two at least) are lines of justified text cut at their stretched
 * spaces: every space inside a cell wider than half an em, and the spaces inside the cells and
 * between them alike (the widest within a third of the narrowest). A table's cells set their words a
 * word space apart, closer than the cells stand; a narrow justified column stretches every space of
 * a line alike, and where a few lines' spaces line up they looked like a gutter.
 */
export function justifiedRows(merged: Line[][][]): boolean {
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
