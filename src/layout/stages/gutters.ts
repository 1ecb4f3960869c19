/**
 * Rows → lines: a row of words is split where a gap is a gutter (between columns, or a table's
 * columns) and kept whole where the gap is only a space, however stretched, of a line of text: a
 * gap is spanned when the lines above and below run text across it, or when it is a space of a
 * justified line beside a full line of the same measure.
 */
import { narrowGutters, splitRow, type Line, type Word } from '../lines.js';
import {
  GAP_COVER_HOLE_EMS,
  GAP_COVER_REACH_EMS,
  ROW_SPLIT_GAP_EMS,
  SAME_MEASURE_PT,
  STRETCHED_ROWS_REACH_EMS,
} from '../thresholds.js';

/** The left and right ends of a line of text. */
type Measure = { x0: number; x1: number };

/**
 * Where the page's columns start: the left edges that at least COLUMN_START_ROWS rows begin a run of
 * words at, after a gap of an em or more (within 0.8 pt), with no row between them running a word
 * across. A column's lines all start at its edge and nothing crosses its gutter, while the words after
 * the stretched spaces of justified lines start anywhere (and where they line up, as in fixed-pitch
 * text, the lines between run words through them).
 */
type ColumnStarts = (x: number) => boolean;
const COLUMN_START_ROWS = 4;
function columnStarts(free: readonly Word[][]): ColumnStarts {
  const hits: Array<{ x: number; row: number }> = [];
  free.forEach((r, row) => {
    for (let i = 1; i < r.length; i++) {
      const w = r[i]!;
      if (w.x0 - r[i - 1]!.x1 >= Math.min(w.size, r[i - 1]!.size)) hits.push({ x: w.x0, row });
    }
  });
  hits.sort((a, b) => a.x - b.x);
  const crosses = (row: number, x: number): boolean => free[row]!.some((w) => w.x0 < x - 0.8 && w.x1 > x + 0.8);
  const starts: number[] = [];
  for (let s = 0; s < hits.length;) {
    let e = s + 1;
    while (e < hits.length && hits[e]!.x - hits[e - 1]!.x <= 0.8 && hits[e]!.x - hits[s]!.x <= 1.6) e++;
    if (e - s >= COLUMN_START_ROWS) {
      const x = hits[s]!.x;
      const rows = [...new Set(hits.slice(s, e).map((h) => h.row))].sort((a, b) => a - b);
      let run = 1;
      for (let k = 1; k < rows.length && run < COLUMN_START_ROWS; k++) {
        let crossed = false;
        for (let j = rows[k - 1]! + 1; j < rows[k]! && !crossed; j++) crossed = crosses(j, x);
        run = crossed ? 1 : run + 1;
      }
      if (run >= COLUMN_START_ROWS) starts.push(x);
    }
    s = e;
  }
  return (x) => starts.some((st) => Math.abs(st - x) <= 0.8);
}

/**
 * The ends of the run of words around row[i] whose spaces are none wider than maxGap, not running
 * across a column's start (in narrow justified columns the stretched spaces of a line can be wider
 * than the gutter beside it).
 */
function runAround(row: readonly Word[], i: number, maxGap: number, isStart: ColumnStarts): Measure {
  let a = i,
    b = i;
  while (a > 0 && !isStart(row[a]!.x0) && row[a]!.x0 - row[a - 1]!.x1 <= maxGap) a--;
  while (b + 1 < row.length && !isStart(row[b + 1]!.x0) && row[b + 1]!.x0 - row[b]!.x1 <= maxGap) b++;
  return { x0: row[a]!.x0, x1: row[b]!.x1 };
}

/**
 * Whether the gap from x0 to x1 in a row is a space of a line stretched to its column's width:
 * justified text stretches every space of a line alike, so a space beside it is as wide, within a
 * quarter. A gutter or a table's gap stands out from the word spaces
 * around it (a contents entry's dot leaders and page number, the next column's words). Gives the
 * line's measure (the run of words around the gap whose spaces are no wider than it), or null.
 */
function stretchedLine(row: readonly Word[], x0: number, x1: number, isStart: ColumnStarts): Measure | null {
  const i = row.findIndex((w) => w.x0 === x1);
  // (A gap before a column's start is that column's gutter.)
  if (i < 1 || row[i - 1]!.x1 !== x0 || isStart(x1)) return null;
  const gap = x1 - x0;
  const near: number[] = [];
  if (i >= 2) near.push(row[i - 1]!.x0 - row[i - 2]!.x1);
  if (i + 1 < row.length) near.push(row[i + 1]!.x0 - row[i]!.x1);
  // The measure: word processors stretch every space of a line by the same amount (browsers within a
  // few tenths of a point), so the line ends where a space 15% wider than this one stands (a gutter
  // a quarter wider than the spaces is not one of them).
  return near.some((g) => g >= gap * 0.75 && g <= gap / 0.75) ? runAround(row, i, gap * 1.15, isStart) : null;
}

// Does text in the rows just above (dir -1) or below (dir 1) row k cover most of [x0, x1]? Null when
// there is no text there at all. Rows are page-wide, so the rows of the other column are scanned too.
/** The middle height of a row. */
const cy = (r: Word[]): number => (r[0]!.y0 + r[0]!.y1) / 2;

function covers(
  free: Word[][],
  k: number,
  dir: 1 | -1,
  x0: number,
  x1: number,
  further: Measure | null = null,
): boolean | null {
  const base = free[k]!;
  const size = base[0]!.size;
  let any = false;
  const spans: Array<[number, number]> = [];
  for (let j = k + dir; j >= 0 && j < free.length; j += dir) {
    const r = free[j]!;
    if (!r.length) continue;
    if (Math.abs(cy(r) - cy(base)) > size * GAP_COVER_REACH_EMS) break;
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
  return hole < size * GAP_COVER_HOLE_EMS || (further !== null && crossedByMost(free, k, dir, x0, x1, further));
}
// For a space of a stretched line: the nearest rows (three at most, within four and a half lines,
// in the column's size) that hold text about the gap, and whether most of them run a word through
// its middle. In a narrow justified column the spaces of the next lines are stretched too and may
// overlap the gap, leaving a hole that the lines after them fill; a table's evenly spaced columns
// leave the gap open row after row. (A row whose word starts where the gap ends has a column
// starting there: it crosses nothing.) Where the spaces of a few lines in a row happen to line up (a
// "river"), a line that runs through the gap and has the very measure of the stretched line, both
// ends within 0.6 pt, is enough: it is a full line of the same column, and the stretched line is one
// too. A gutter's two sides are never one line of some other row's exact length that runs across it.
function crossedByMost(free: Word[][], k: number, dir: 1 | -1, x0: number, x1: number, measure: Measure): boolean {
  let seen = 0,
    crossed = 0;
  for (const r of rowsAbout(free, k, dir, x0, x1)) {
    seen++;
    if (!throughGap(r, x0, x1)) continue;
    crossed++;
    if (lineOfMeasure(r, measure)) return true;
  }
  return seen >= 2 && crossed * 2 > seen;
}
// The nearest rows (three at most, within four and a half lines, in the size of the word after the
// gap: a heading beside in another column has its own) above (dir -1) or below (dir 1) row k that
// hold text about the gap from x0 to x1.
function* rowsAbout(free: Word[][], k: number, dir: 1 | -1, x0: number, x1: number): Generator<Word[]> {
  const base = free[k]!;
  const size = (base.find((w) => w.x0 === x1) ?? base[0]!).size;
  let seen = 0;
  for (let j = k + dir; j >= 0 && j < free.length && seen < 3; j += dir) {
    const r = free[j]!.filter((w) => Math.abs(w.size - size) <= 0.5);
    if (!r.length) continue;
    if (Math.abs(cy(r) - cy(base)) > size * STRETCHED_ROWS_REACH_EMS) break;
    if (!r.some((w) => w.x1 >= x0 - size * 2 && w.x0 <= x1 + size * 2)) continue;
    seen++;
    yield r;
  }
}
// Whether row r runs a word through the middle half of the gap from x0 to x1 (a row whose word starts
// where the gap ends has a column starting there: it crosses nothing).
function throughGap(r: Word[], x0: number, x1: number): boolean {
  const m0 = x0 + (x1 - x0) * 0.25,
    m1 = x1 - (x1 - x0) * 0.25;
  return r.some((w) => w.x0 < m1 && w.x1 > m0) && !r.some((w) => Math.abs(w.x0 - x1) < 1);
}
// Whether row r holds a line of the very measure given (its first word starts and its last ends
// within 0.6 pt of the measure's ends) whose spaces are alike, the widest within 15% of their
// median: a full line of the same column, set justified or not stretched at all. (A table's row
// across the same width has gaps of all sizes.)
function lineOfMeasure(r: Word[], measure: Measure): boolean {
  const inside = r.filter((w) => w.x1 > measure.x0 - SAME_MEASURE_PT && w.x0 < measure.x1 + SAME_MEASURE_PT);
  if (
    !inside.length ||
    Math.abs(inside[0]!.x0 - measure.x0) > SAME_MEASURE_PT ||
    Math.abs(inside[inside.length - 1]!.x1 - measure.x1) > SAME_MEASURE_PT
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
}
// The line next to a stretched line on one side is a full line of its measure through the gap, and
// neither of the two lines next to it on the other side shares its columns, as a table's rows do:
// at half of its spaces or more (one at least), the word after starts where one of that line starts,
// or the word before ends where one of that line ends. Then it is the first or last line of a
// justified paragraph whose spaces happen to line up with those of the lines beside it. (A line of
// a river may start a word at one of its spaces by chance, not at half of them.)
function besideFullLine(free: Word[][], k: number, x0: number, x1: number, measure: Measure): boolean {
  const row = free[k]!.filter((w) => w.x0 >= measure.x0 - 0.1 && w.x1 <= measure.x1 + 0.1);
  const size = row.find((w) => w.x0 === x1)?.size ?? 10;
  const spaces: number[] = [];
  for (let i = 1; i < row.length; i++) if (row[i]!.x0 - row[i - 1]!.x1 > size * 0.15) spaces.push(i);
  // Where the words of a row start and end: pieces of one word (cut at a ligature or a change of
  // font, no space between) are one word, or their seams would line up with spaces by chance.
  const edges = (r: Word[]): { starts: number[]; ends: number[] } => {
    const starts: number[] = [],
      ends: number[] = [];
    for (let i = 0; i < r.length; i++) {
      const w = r[i]!;
      if (i === 0 || w.x0 - r[i - 1]!.x1 > w.size * 0.15) starts.push(w.x0);
      if (i === r.length - 1 || r[i + 1]!.x0 - w.x1 > w.size * 0.15) ends.push(w.x1);
    }
    return { starts, ends };
  };
  const sharesColumns = (r: Word[]): boolean => {
    const { starts, ends } = edges(r);
    const matched = spaces.filter(
      (i) =>
        starts.some((x) => Math.abs(x - row[i]!.x0) <= 0.8) || ends.some((x) => Math.abs(x - row[i - 1]!.x1) <= 0.8),
    ).length;
    return matched >= Math.max(1, spaces.length / 2);
  };
  for (const dir of [-1, 1] as const) {
    const near = rowsAbout(free, k, dir, x0, x1).next();
    if (near.done || !throughGap(near.value, x0, x1) || !lineOfMeasure(near.value, measure)) continue;
    const other: Word[][] = [];
    for (const r of rowsAbout(free, k, dir === 1 ? -1 : 1, x0, x1)) if (other.push(r) === 2) break;
    if (!other.some(sharesColumns)) return true;
  }
  return false;
}

/**
 * The rows' words (those no ruled table took), split into lines at gutters. `heavy`: a page too
 * large for the narrow-gutter search.
 */
export function linesOfRows(free: Word[][], heavy: boolean): Line[][] {
  const lineRows: Line[][] = [];
  const narrow = heavy ? [] : narrowGutters(free);
  const isStart = columnStarts(free);
  for (let k = 0; k < free.length; k++) {
    const rest = free[k]!;
    if (!rest.length) continue;
    const spanned = (x0: number, x1: number): boolean => {
      const further = stretchedLine(rest, x0, x1, isStart);
      if (further && besideFullLine(free, k, x0, x1, further)) return true;
      const up = covers(free, k, -1, x0, x1, further);
      const down = covers(free, k, 1, x0, x1, further);
      if (up === null && down === null) return false;
      return (up ?? true) && (down ?? true);
    };
    const gutter = (a: Word, b: Word): boolean =>
      narrow.some(
        (g) => k >= g.from && k <= g.to && Math.abs(b.x0 - g.x) <= 0.8 && a.x1 < g.x - Math.min(a.size, b.size) * 0.3,
      );
    lineRows.push(splitRow(rest, ROW_SPLIT_GAP_EMS, spanned, narrow.length ? gutter : undefined));
  }
  return lineRows;
}
