/**
 * Aligned-text tables: rows of lines (lines sharing a baseline band, as built from the page) where
 * columns of whitespace (gutters) run down at least three consecutive rows. The scan starts a table
 * at a row with a gutter, gathers the rows under it that keep its gutters (a head cell wrapped, note
 * rows, labels of row groups taken along), adds the column heads set above it, and hands the rows to
 * the builder.
 */
import type { Line } from '../../lines.js';
import type { Box } from '../../types.js';
import { buildAligned } from '../build/build-aligned.js';
import { intersect, rowGaps } from '../geometry.js';
import {
  GROUP_INDENT_EM,
  GUTTER_MIN_EM,
  HEAD_REGION_MAX_ROWS,
  HEADING_SIZE_RATIO,
  IN_GUTTER_MARGIN,
  LONG_RUN_ROWS,
  MIN_TYPE_SIZE,
  NARROW_GUTTER_SHARE,
  NOTE_ROW_MAX_GAP,
  PAGE_FOOT_BAND,
  PAGE_HEAD_BAND,
  PLAIN_HEADING_SIZE_RATIO,
  REGION_TOL,
  REOPEN_MIN_ROWS,
  ROW_MAX_GAP,
  ROW_MAX_GAP_IN_REGION,
  SAME_SIZE_TOL,
  WRAPPED_HEAD_MAX_GAP,
  WRAPPED_HEAD_MIN_CELLS,
} from '../thresholds.js';
import { CAPTION_RE, LABELLED_VALUE } from '../text-cues.js';
import type { FoundTable, Interval } from '../types.js';
import { besideCaptions } from './beside-captions.js';
import { headLine, stackedHead } from './heads-above.js';
import { reopenUnderHead } from './reopen-under-head.js';
import { moreCells, noteLike, resplit, runningHead } from './row-cues.js';

/** What the scan of a page (or of one of its text columns) knows throughout. */
interface Scan {
  rows: Line[][];
  regions: Box[];
  pageH: number;
  barriers: Box[];
  band: Interval | undefined;
  /** The band's (or the page's) left and right edges. */
  left: number;
  right: number;
}

/** The rows gathered for one table, from the row that starts it, and what they have set so far. */
interface Run {
  start: Line[];
  /** The starting row's smallest type (4 pt at least), and the gap that makes a gutter at that size. */
  size: number;
  minGap: number;
  members: Line[][];
  notes: Set<Line[]>;
  /** Gutters open in every row so far (edge gaps included: later rows may fill them). */
  gutters: Interval[];
  /** The gutters the body rows (after the first) keep, once there is one. */
  bodyGutters: Interval[] | null;
  /** The rows' extent across the page. */
  ex0: number;
  ex1: number;
  prevBottom: number;
  /** The largest type among the rows taken so far (a lone line set larger is a heading). */
  largest: number;
  /** A ruled region the starting row lies in (its rows may stand further apart). */
  inRegion: Box | undefined;
  /** The next row to look at. */
  j: number;
}

/** The gutters inside the extent from x0 to x1. */
function innerOf(gs: Interval[], x0: number, x1: number): Interval[] {
  return gs.filter((iv) => iv.a > x0 && iv.b < x1);
}

/**
 * A head cell wrapped onto a second line ("Graduating" over "students"): one line set tighter
 * under the first row than a line's height, inside one of its columns, when the first row has
 * three cells or more and the row after (or the one after a one-line sub-head) takes up all of
 * its columns. Taken into the first row when so (true).
 */
function tookWrappedHeadCell(
  scan: Scan,
  run: Run,
  row: Line[],
  top: number,
  lineH: number,
  before: Interval[],
): boolean {
  const { rows, left, right } = scan;
  const { members, j } = run;
  if (!(members.length === 1 && !run.bodyGutters && row.length === 1 && run.start.length >= WRAPPED_HEAD_MIN_CELLS))
    return false;
  if (!(top - run.prevBottom < lineH * WRAPPED_HEAD_MAX_GAP)) return false;
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
    Math.min(...after.map((a) => a.x0)) >= l.x0 + l.size * GROUP_INDENT_EM;
  if (!(
    inOneColumn &&
    above &&
    !labelOfGroup &&
    above.bold === l.bold &&
    above.italic === l.italic &&
    after &&
    after.length >= WRAPPED_HEAD_MIN_CELLS &&
    before.every((gv) => afterGaps.some((iv) => iv.a < gv.b && iv.b > gv.a))
  ))
    return false;
  members[0] = [...members[0]!, l];
  run.gutters = run.gutters.map((gv) =>
    l.x1 <= gv.a || l.x0 >= gv.b ? gv : l.x0 > gv.a ? { a: gv.a, b: l.x0 } : { a: l.x1, b: gv.b },
  );
  run.prevBottom = Math.max(run.prevBottom, l.y1);
  return true;
}

/**
 * A single note line across the columns (a remark under a row) is part of the table when the
 * row after it takes the columns up again. Taken as a note row when so (true).
 */
function tookNoteRow(scan: Scan, run: Run, row: Line[], lineH: number, before: Interval[]): boolean {
  const { rows, left, right } = scan;
  const { members, notes, j, size, minGap, ex0, ex1 } = run;
  // (Cut at the gutters, as it will be when its turn comes: its cells may stand closer than a
  // line split allows. Only for the test: the row may be no row of this table.)
  const next = rows[j + 1] && resplit(rows[j + 1]!, run.bodyGutters ?? run.gutters);
  // (A line set larger than the rows is a heading over the next table, not a note.)
  if (!(
    members.length >= 1 &&
    row.length === 1 &&
    row[0]!.size <= run.largest * HEADING_SIZE_RATIO &&
    next &&
    next.length >= 2 &&
    Math.min(...next.map((l) => l.y0)) - row[0]!.y1 < Math.max(lineH, size) * NOTE_ROW_MAX_GAP
  ))
    return false;
  const nextGaps = rowGaps(next, left, right);
  const gn = intersect(run.bodyGutters ?? run.gutters, nextGaps, minGap * NARROW_GUTTER_SHARE);
  const keptNext = before.filter((gv) => gn.some((iv) => iv.a < gv.b && iv.b > gv.a));
  // The row after must not have more columns than the rows so far: then those rows belong to
  // something else (a line of labels above a heading and the table under it).
  const moreColumns =
    innerOf(
      nextGaps.filter((iv) => iv.b - iv.a >= minGap),
      ex0,
      ex1,
    ).length > before.length;
  if (keptNext.length !== before.length || moreColumns) return false;
  notes.add(row);
  members.push(row);
  run.prevBottom = row[0]!.y1;
  return true;
}

/**
 * A lone bold line after plain rows is a caption or section title, not a row; but a label of the
 * rows that follow, the first cells of those set in from it, over rows of the table's columns
 * ("Premises" over "Rent", "Utilities"), is a row. Taken as a note row when so (true).
 */
function tookGroupLabel(scan: Scan, run: Run, row: Line[], lineH: number): boolean {
  const { rows, left, right } = scan;
  const { members, notes, j, size, minGap, ex0, ex1 } = run;
  const label = row[0]!;
  const next = rows[j + 1] && resplit(rows[j + 1]!, run.bodyGutters ?? run.gutters);
  const firstOf = (r: Line[]): Line => r.reduce((a, b) => (b.x0 < a.x0 ? b : a));
  // (Flush with the head row's first cell, the rows of the group set in by most of an em, the
  // label no larger than they are: a heading after the table stands apart from all of that.)
  const indented = (r: Line[]): boolean => firstOf(r).x0 >= label.x0 + label.size * GROUP_INDENT_EM;
  const groupRow =
    !!next &&
    next.length >= 2 &&
    indented(next) &&
    Math.abs(label.x0 - firstOf(members[0]!).x0) <= 1 &&
    label.size <= run.largest + SAME_SIZE_TOL &&
    members.slice(1).some((m) => m.length >= 2 && indented(m)) &&
    Math.min(...next.map((l) => l.y0)) - label.y1 < Math.max(lineH, size) * NOTE_ROW_MAX_GAP &&
    intersect(run.bodyGutters ?? run.gutters, rowGaps(next, left, right), minGap * NARROW_GUTTER_SHARE).length >=
      innerOf(run.bodyGutters ?? run.gutters, ex0, ex1).length;
  if (!groupRow) return false;
  notes.add(row);
  members.push(row);
  run.prevBottom = label.y1;
  return true;
}

/**
 * The gaps of a row that continue the run's gutters: the body's gutters once there are some; for
 * the second row, gaps under the first row's gutters or under a head cell set over two columns.
 */
function continuedGutters(scan: Scan, run: Run, gaps: Interval[]): Interval[] {
  const { rows, left, right } = scan;
  const { start, minGap, j } = run;
  if (run.bodyGutters) return intersect(run.bodyGutters, gaps, minGap * NARROW_GUTTER_SHARE);
  // The first row may be a header centred over pairs of columns: below it, the gutters follow
  // the body rows alone, so a header that narrows a gutter does not close it for them.
  // (Or a gap under a head cell set over two columns, "Customer Information" over its labels and
  // values, when the row after has it too.
  // Only one gap under that cell: a line of several heads run together is no such cell.)
  const within = (h: Line): number =>
    gaps.filter((o) => o.b - o.a >= minGap * NARROW_GUTTER_SHARE && h.x0 < o.a && h.x1 > o.b).length;
  // A head whose word space stands over the gap is two heads set close ("Training Model").
  const spaceOver = (h: Line, iv: Interval): boolean =>
    h.words.some((w, k) => k > 0 && h.words[k - 1]!.x1 < iv.b && w.x0 > iv.a);
  let nextGaps: Interval[] | undefined;
  const underHead = (iv: Interval): boolean =>
    start.some((h) => h.x0 < iv.a && h.x1 > iv.b && within(h) === 1 && !spaceOver(h, iv)) &&
    !!rows[j + 1] &&
    (nextGaps ??= rowGaps(rows[j + 1]!, left, right)).some(
      (n) => Math.min(n.b, iv.b) - Math.max(n.a, iv.a) >= minGap * NARROW_GUTTER_SHARE,
    );
  return gaps.filter(
    (iv) =>
      iv.b - iv.a >= minGap * NARROW_GUTTER_SHARE &&
      (run.gutters.some((gv) => gv.a < iv.b && gv.b > iv.a) || underHead(iv)),
  );
}

/**
 * Whether the ruled region the run started in holds only the table's column heads: at most
 * HEAD_REGION_MAX_ROWS rows so far, none holding a figure, over no more rows in it.
 */
function headOnlyRegion(run: Run, region: Box): boolean {
  const { members } = run;
  if (members.length > HEAD_REGION_MAX_ROWS || run.notes.size) return false;
  const figure = /^[-−+(]?[$€£]?\d[\d.,]*%?\)?$/;
  if (members.some((r) => r.some((l) => l.words.some((w) => figure.test(w.text))))) return false;
  return members.every((r) => r.every((l) => l.y1 <= region.y1 + REGION_TOL));
}

/** The rows under the starting row that keep its gutters, gathered into `run` (up to `run.j`). */
function gatherRows(scan: Scan, run: Run): void {
  const { rows, band, barriers, left, right } = scan;
  const { members, size, inRegion } = run;
  while (run.j < rows.length) {
    const j = run.j;
    const row = resplit(rows[j]!, run.bodyGutters ?? run.gutters);
    rows[j] = row;
    const top = Math.min(...row.map((l) => l.y0));
    const lineH = Math.max(...row.map((l) => l.y1 - l.y0));
    if (top - run.prevBottom > Math.max(lineH, size) * (run.inRegion ? ROW_MAX_GAP_IN_REGION : ROW_MAX_GAP)) break;
    if (run.inRegion && top > run.inRegion.y1 + REGION_TOL) {
      // Rules over and under the column heads alone (a report's table whose foot rule is missing or
      // drawn as a bar) frame the head, not the table: its body rows go on under the head's rule.
      if (!headOnlyRegion(run, inRegion!)) break;
      run.inRegion = undefined;
      if (top - run.prevBottom > Math.max(lineH, size) * ROW_MAX_GAP) break;
    }
    // A ruled table (or its rules) between two rows ends the aligned one. (Not a table beside it, in
    // the other column.)
    const bx0 = band ? Math.max(band.a, Math.min(run.ex0, ...row.map((l) => l.x0))) : -Infinity,
      bx1 = band ? Math.min(band.b, Math.max(run.ex1, ...row.map((l) => l.x1))) : Infinity;
    if (barriers.some((b) => b.y0 >= run.prevBottom - REGION_TOL && b.y0 <= top + lineH && b.x0 < bx1 && b.x1 > bx0))
      break;
    const g = continuedGutters(scan, run, rowGaps(row, left, right));
    const x0 = Math.min(run.ex0, ...row.map((l) => l.x0));
    const x1 = Math.max(run.ex1, ...row.map((l) => l.x1));
    const inner = innerOf(g, x0, x1);
    // A row that closes one of the gutters has another column structure (the next table, or prose):
    // only the second row may still drop gutters the first row had by chance.
    const before = innerOf(run.bodyGutters ?? run.gutters, run.ex0, run.ex1);
    const kept = before.filter((gv) => g.some((iv) => iv.a < gv.b && iv.b > gv.a));
    if (tookWrappedHeadCell(scan, run, row, top, lineH, before)) {
      run.j++;
      continue;
    }
    // Two cells or more set inside one of the columns' gutters (a line of prose under the table, cut
    // at its stretched spaces, lands words all over the gutters) are no row of this table. (One is:
    // a column filled only now and then.)
    if (
      members.length > 1 &&
      before.some(
        (gv) => row.filter((l) => l.x0 > gv.a + IN_GUTTER_MARGIN && l.x1 < gv.b - IN_GUTTER_MARGIN).length >= 2,
      )
    )
      break;
    if (!inner.length || (kept.length < before.length && members.length > 1)) {
      if (!tookNoteRow(scan, run, row, lineH, before)) break;
      run.j++;
      continue;
    }
    if (row.length === 1 && row[0]!.bold && !members[members.length - 1]!.every((l) => l.bold)) {
      if (!tookGroupLabel(scan, run, row, lineH)) break;
      run.j++;
      continue;
    }
    if (row.length === 1 && row[0]!.size > run.largest * (row[0]!.bold ? HEADING_SIZE_RATIO : PLAIN_HEADING_SIZE_RATIO))
      break;
    run.bodyGutters = g;
    run.ex0 = x0;
    run.ex1 = x1;
    members.push(row);
    for (const l of row) run.largest = Math.max(run.largest, l.size);
    run.prevBottom = Math.max(...row.map((l) => l.y1));
    run.j++;
  }
}

/**
 * Whether the row at i cannot start a table: no gutter inside it, captions side by side, a "Label:
 * value" row over rows of more columns. 'running head' for the page's running head.
 */
function noStart(scan: Scan, i: number, gutters: Interval[], ex0: number, ex1: number): boolean | 'running head' {
  const { rows, pageH } = scan;
  const start = rows[i]!;
  if (!innerOf(gutters, ex0, ex1).length) return true;
  // Captions side by side (two tables, or two figures, each under its own) are no row: their
  // spaces would set the columns of the rows below.
  if (start.every((l) => CAPTION_RE.test(l.text))) return true;
  if (i === 0 && runningHead(start, rows[1], rows[2], pageH)) return 'running head';
  // A row of "Label: value" pairs over rows of more columns (a form's header above a table) is no
  // row of that table: its few gutters would merge the table's columns.
  return (
    start.every((l) => LABELLED_VALUE.test(l.text)) &&
    rows.slice(i + 1, i + 3).some((r) => r.length >= 3 && r.length > start.length)
  );
}

/**
 * The table's heads above its first row: the row above, when it is the table's column heads set as
 * one line (it had no gutter of its own to start the table with), or the first line of a head
 * stacked over three lines. Returns whether a head line was added as a row of its own.
 */
function addHeadsAbove(scan: Scan, run: Run, i: number, head0: Line[] | null, out: FoundTable[]): boolean {
  const { rows } = scan;
  const { members, start, gutters, size, inRegion } = run;
  const above =
    members.length >= 2 && i > 0 && rows[i - 1] !== head0
      ? rows[i - 1]!.filter((l) => !out.some((t) => l.words.some((w) => t.words.has(w))))
      : [];
  const head = above.length
    ? headLine(
        above,
        gutters,
        run.ex0,
        run.ex1,
        Math.min(...start.map((l) => l.y0)),
        Math.max(size, ...start.map((l) => l.y1 - l.y0)) * (inRegion ? ROW_MAX_GAP_IN_REGION : ROW_MAX_GAP),
      )
    : null;
  if (head) members.unshift(head);
  else if (above.length === 1 && members.length >= 3 && stackedHead(above[0]!, members[0]!, gutters))
    members[0] = [above[0]!, ...members[0]!];
  return !!head;
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
  const rows = allRows.filter((r) => !r.every((l) => l.y1 <= pageH * PAGE_HEAD_BAND || l.y0 >= pageH * PAGE_FOOT_BAND));
  const scan: Scan = { rows, regions, pageH, barriers, band, left: band?.a ?? 0, right: band?.b ?? pageW };
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
    const size = Math.max(MIN_TYPE_SIZE, Math.min(...start.map((l) => l.size)));
    const minGap = size * GUTTER_MIN_EM;
    // Gutters: whitespace columns open in every row so far (edge gaps included: later rows may fill them).
    const gutters = rowGaps(start, scan.left, scan.right).filter((g) => g.b - g.a >= minGap);
    const ex0 = Math.min(...start.map((l) => l.x0)),
      ex1 = Math.max(...start.map((l) => l.x1));
    const skip = noStart(scan, i, gutters, ex0, ex1);
    if (skip) {
      if (skip === 'running head') head0 = start;
      i++;
      continue;
    }
    const run: Run = {
      start,
      size,
      minGap,
      members: [start],
      notes: new Set<Line[]>(),
      gutters,
      bodyGutters: null,
      ex0,
      ex1,
      prevBottom: Math.max(...start.map((l) => l.y1)),
      largest: Math.max(...start.map((l) => l.size)),
      inRegion: regions.find((r) => start.some((l) => l.y0 >= r.y0 - REGION_TOL && l.y1 <= r.y1 + REGION_TOL)),
      j: i + 1,
    };
    gatherRows(scan, run);
    const { members, notes } = run;
    // The last row's note (a sub-line under its cell, "(Runtime: 98 min)"): no row follows to take
    // the columns up again, but it is set as the table's other notes are.
    if (rows[run.j] && noteLike(rows[run.j]!, members, notes, run.prevBottom)) {
      notes.add(rows[run.j]!);
      members.push(rows[run.j]!);
      run.j++;
    }
    const j = run.j;
    run.gutters = innerOf(run.bodyGutters ?? run.gutters, run.ex0, run.ex1);
    // Column boundaries that every body row keeps but a head line runs over ("Tax Per Result" over
    // two columns whose heads are set a word space apart).
    if (members.length >= REOPEN_MIN_ROWS)
      run.gutters = reopenUnderHead(members, run.gutters, notes, scan.left, scan.right, minGap, run.ex0, run.ex1);
    const headAdded = addHeadsAbove(scan, run, i, head0, out);
    const captions = rows[i - (headAdded ? 2 : 1)];
    const built =
      members.length >= 2
        ? besideCaptions(members, run.gutters, captions, notes)
            .map((p) => buildAligned(p.members, p.gutters, !!run.inRegion, p.notes, hRules))
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
    else if (members.length >= LONG_RUN_ROWS)
      i = Math.max(i + 1, Math.min(j - 2, restartWhereCellsGrow ? moreCells(rows, i, j) : j));
    else i++;
  }
  return out;
}
