/**
 * The rows of an aligned table placed in its columns: cuts at the middles of the gutters (and of the
 * narrow boundaries the cells' alignment shows), heads placed over the columns they name.
 */
import type { Line } from '../../lines.js';
import type { Box } from '../../types.js';
import type { Interval } from '../types.js';
import { alignedSlivers } from './aligned-slivers.js';
import {
  cutHeadsAtEdges,
  flushRightFigures,
  headOverFigures,
  leadingHeads,
  oneHeadEach,
} from './heads-over-figures.js';

/** The grid of an aligned table: for each row, the lines of each column; and how many columns. */
export function placeInColumns(
  members: Line[][],
  gutters: Interval[],
  ruled: boolean,
  notes: Set<Line[]>,
  hRules: Box[],
): { grid: Line[][][]; nC: number } {
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
  return { grid, nC };
}
