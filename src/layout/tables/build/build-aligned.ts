/**
 * An aligned table's rows (lines sharing baseline bands, cut at the gutters) to a table: placed in
 * columns, running text beside it set aside, rows that go on from the row above merged, heads set
 * over several lines joined, columns run together split apart, text after it dropped, and the cells
 * emitted. Each stage passes the grid on (for each row, the lines of each column); null at any
 * stage that finds it is no table.
 */
import type { Line } from '../../lines.js';
import type { Box } from '../../types.js';
import { filledCells } from '../geometry.js';
import { MIN_ANCHOR_ROWS, MIN_ANCHOR_ROWS_SHORT, SHORT_CELL_CHARS, WIDE_MIN_COLUMNS } from '../thresholds.js';
import type { FoundTable, Interval } from '../types.js';
import { joinCentredRows } from './centred-rows.js';
import { emitTable } from './emit.js';
import { joinStackedBoldHeads, joinTwoLineHead } from './head-rows.js';
import { mergeContinuationRows } from './merge-rows.js';
import { listsSideBySide, setApartTail } from './not-a-table.js';
import { placeInColumns } from './place-in-columns.js';
import {
  dropStrayColumns,
  joinCurrencySigns,
  splitAtRivers,
  splitFigureRuns,
  splitFormColumns,
} from './split-columns.js';
import { dropTrailingText } from './trailing-rows.js';
import { joinColumnsUnderOneHead, withoutProseColumns } from './trim-columns.js';
import { attachCentredLabels, joinWrappedFirstCells } from './wrapped-rows.js';

/**
 * The rows with at least two filled cells a table needs: two rows make a table only when they are
 * short cells side by side (a header and one record), not fragments of justified sentences.
 */
function anchorRowsNeeded(grid: Line[][][], ruled: boolean): number {
  const cols = grid[0]!.length;
  const shortCells = grid.slice(0, 2).every((r) =>
    r.every((c) => {
      const t = c.map((l) => l.text).join(' ');
      return t.length <= SHORT_CELL_CHARS && !/[.;]$/.test(t);
    }),
  );
  const wide =
    cols >= WIDE_MIN_COLUMNS &&
    grid.length >= 2 &&
    shortCells &&
    grid.slice(0, 2).every((r) => filledCells(r) >= WIDE_MIN_COLUMNS);
  return (ruled && shortCells) || wide ? MIN_ANCHOR_ROWS_SHORT : MIN_ANCHOR_ROWS;
}

export function buildAligned(
  members: Line[][],
  gutters: Interval[],
  ruled: boolean,
  notes: Set<Line[]> = new Set(),
  hRules: Box[] = [],
): FoundTable | null {
  const noteLines = new Set(members.filter((r) => notes.has(r)).flat());
  const placed = placeInColumns(members, gutters, ruled, notes, hRules);
  joinWrappedFirstCells(placed.grid, 'spacing');
  const trimmed = withoutProseColumns(placed.grid, placed.nC);
  if (!trimmed) return null;
  const grid = joinColumnsUnderOneHead(trimmed);
  if (grid[0]!.length < 2) return null;
  // Only now, clear of running text (whose lines starting in lower case tell it from a column).
  joinWrappedFirstCells(grid, 'text');
  if (listsSideBySide(grid)) return null;
  const cols = grid[0]!.length;
  // Rows with at least two filled cells anchor the table; others continue the row above.
  const anchored = grid.filter((r) => filledCells(r) >= 2).length;
  const needed = anchorRowsNeeded(grid, ruled);
  if (anchored < needed) return null;
  joinCentredRows(grid);
  attachCentredLabels(grid);
  const merged = mergeContinuationRows(grid, cols);
  joinTwoLineHead(merged, noteLines);
  joinStackedBoldHeads(merged);
  dropStrayColumns(merged, cols);
  const splitFrom = new Set<Line>();
  splitFigureRuns(merged, splitFrom);
  splitAtRivers(merged, splitFrom);
  // A label column split off just now may hold labels set once beside their rows.
  attachCentredLabels(merged);
  splitFormColumns(merged);
  joinCurrencySigns(merged);
  dropTrailingText(merged);
  if (merged.length >= 4 && setApartTail(merged)) merged.pop();
  if (merged.length < 2 || merged.filter((r) => filledCells(r) >= 2).length < needed) return null;
  return emitTable(merged, splitFrom, ruled, cols);
}
