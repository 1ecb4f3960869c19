/** The table's column heads set above the row that started it: a head line, or a stacked head's first line. */
import { makeLine, type Line, type Word } from '../../lines.js';
import { CAPTION_RE } from '../text-cues.js';
import type { Interval } from '../types.js';

/**
 * The first line of a head set over three lines ("Display" over "File" over "Source") stands alone
 * above the row that starts the table, which holds the head's other lines: right over one of that
 * row's heads, at line spacing, flush with it, in its face, inside its column. Not over the first
 * column, where a title or a heading above the table stands.
 */
export function stackedHead(l: Line, start: Line[], gutters: Interval[]): boolean {
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
 * Column heads set as one line of text above the rows of a table ("Top-1 Top-5 Top-20 Top-100" over
 * columns of figures): the line builder keeps them together because their spaces are ordinary word
 * spaces, so the row had no gutter and could not start the table. Taken as the table's first row,
 * split at the gutters' middles, when the line sits within the table's width just above it, splits
 * into at least two short cells, and each split falls in a space at least half an em wide (a caption
 * or a sentence above the table has only word spaces there). A line with a head over every column may
 * stand up to half as far again from the rows as other lines. Null otherwise.
 */
export function headLine(
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
