/**
 * Rows of a table's grid that are no rows: the further lines of cells wrapped over several lines,
 * labels set once beside their rows, a last cell wrapped under the table. Joined to the rows they
 * belong to.
 */
import type { Line } from '../../lines.js';
import { figures } from '../figures.js';
import { filledCells } from '../geometry.js';
import { GOES_ON, LABELLED_VALUE, openEnd } from '../text-cues.js';

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
export function joinWrappedFirstCells(grid: Line[][][], by: 'spacing' | 'text'): void {
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
export function wrappedCellsColumn(grid: Line[][][], c: number): boolean {
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
export function spaceBeforeRows(grid: Line[][][]): number {
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
export function goesOnInCells(r: Line[][], prev: Line[][], grid: Line[][][], rowSpace: number): boolean {
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
export function attachCentredLabels(grid: Line[][][]): void {
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
export function wrappedTail(l: Line, cell: Line, column: Line[], left: number, right: number): boolean {
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
export function wrapsInto(up: Line, down: Line, column: Line[]): boolean {
  if (figures(up) || figures(down) || /:$/.test(up.text)) return false;
  if (openEnd(up.text) || GOES_ON.test(down.text)) return true;
  const tol = Math.max(2, down.size * 0.3);
  const widest = Math.max(...column.filter((a) => Math.abs(a.x0 - up.x0) <= tol).map((a) => a.x1));
  const w = down.words[0]!;
  return up.x1 + down.size * 0.25 + (w.x1 - w.x0) > widest - 1;
}
