/**
 * Separate tables on one sheet: a sheet often holds several tables (side by side, or one under the
 * other), each with its own head, parted by empty rows or columns. Writing them as one grid makes a
 * sparse table whose head is the first table's alone; this finds the tables so that each is written
 * on its own.
 *
 * The rule is a recursive XY-cut over the sheet's cells: a region whose cells leave at least one row
 * (across the region's columns) or one column (across its rows) fully empty is cut there, rows first,
 * so that the regions come in reading order: top to bottom, then left to right within a band. A
 * merged cell fills its whole range, so a merge (a title over the table) never lets a table be cut.
 *
 * Empty lines inside a table are spacers, not borders: an empty row between head and body, empty
 * columns (one or more) between groups of figures. Two neighbours stay one table when they line up
 * across the gap, that is when at least SPACER_OVERLAP of the rows either uses are used by both (for
 * parts side by side; of the columns, for parts one above the other), and the gap is a single row or
 * any number of columns: spreadsheets use empty columns of every width for layout, while two or more
 * empty rows close a table. Two tables that line up that way are indistinguishable from one table
 * with spacers, except when the one below repeats one of the head rows of the one above: a repeated
 * head starts a new table (side by side it does not: groups of figures under the same heads, this
 * year and last year, are one table). Spacers are joined before a part is cut further, so a head set off from its
 * body by an empty row is cut along the same columns as the body, not along its own gaps.
 */

/** The cells of a sheet that hold text, in row-major order, each with the range its merge covers. */
export interface SheetCells {
  row: number[];
  col: number[];
  /** Last row and column the cell covers (itself, or the end of the merge it starts). */
  lastRow: number[];
  lastCol: number[];
  text: string[];
}

/** A table found on the sheet: its cells (indices into SheetCells) and the rows and columns it uses. */
export interface SheetRegion {
  /** Cells in row-major order. */
  cells: number[];
  /** Rows and columns holding text, ascending. */
  rows: number[];
  cols: number[];
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** Deeper cuts than this are not made (a damaged staircase of cells must not exhaust the stack). */
const MAX_DEPTH = 64;

/**
 * Splits a sheet's cells into its separate regions, in reading order. `budget` bounds the cells
 * visited over the whole recursion; past it, regions are no longer cut.
 */
export function sheetRegions(cells: SheetCells, budget: number): SheetRegion[] {
  const all = cells.row.map((_, i) => i);
  if (!all.length) return [];
  const state = { budget };
  return cut(cells, all, 0, state).map((group) => region(cells, group));
}

function cut(cells: SheetCells, items: number[], depth: number, state: { budget: number }): number[][] {
  if (items.length < 2 || depth >= MAX_DEPTH || state.budget < items.length) return [items];
  state.budget -= items.length;
  for (const axis of ['row', 'col'] as const) {
    const parts = axis === 'row' ? splitRows(cells, items) : splitCols(cells, items);
    if (parts.length < 2) continue;
    const groups = spacerGroups(cells, parts, axis);
    if (groups.length < 2) continue;
    const out: number[][] = [];
    for (const group of groups) for (const r of cut(cells, group, depth + 1, state)) out.push(r);
    return out;
  }
  return [items];
}

interface Part {
  items: number[];
  /** Empty rows or columns between this part and the one before. */
  gap: number;
}

/** Bands of rows parted by fully empty rows; items stay in row-major order. */
function splitRows(cells: SheetCells, items: number[]): Part[] {
  const parts: Part[] = [];
  let start = 0;
  let end = cells.lastRow[items[0]!]!;
  let gap = 0;
  for (let k = 1; k < items.length; k++) {
    const i = items[k]!;
    const r = cells.row[i]!;
    if (r > end + 1) {
      parts.push({ items: items.slice(start, k), gap });
      gap = r - end - 1;
      start = k;
    }
    end = Math.max(end, cells.lastRow[i]!);
  }
  parts.push({ items: start ? items.slice(start) : items, gap });
  return parts;
}

/** Stripes of columns parted by fully empty columns (over these items' rows), left to right. */
function splitCols(cells: SheetCells, items: number[]): Part[] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const i of items) {
    lo = Math.min(lo, cells.col[i]!);
    hi = Math.max(hi, cells.lastCol[i]!);
  }
  // Columns covered by some item: +1 where an item starts, -1 after it ends.
  const cover = new Int32Array(hi - lo + 2);
  for (const i of items) {
    cover[cells.col[i]! - lo]!++;
    cover[cells.lastCol[i]! - lo + 1]!--;
  }
  const partOf = new Int32Array(hi - lo + 1);
  const gaps: number[] = [0];
  let depth = 0;
  let empty = 0;
  for (let c = 0; c <= hi - lo; c++) {
    depth += cover[c]!;
    if (depth === 0) {
      empty++;
      continue;
    }
    if (empty) gaps.push(empty);
    empty = 0;
    partOf[c] = gaps.length - 1;
  }
  if (gaps.length < 2) return [{ items, gap: 0 }];
  const parts: Part[] = gaps.map((gap) => ({ items: [], gap }));
  for (const i of items) parts[partOf[cells.col[i]! - lo]!]!.items.push(i);
  return parts;
}

/** A run of parts joined across spacers: the rows (columns) they use, and the head rows of the first. */
interface Group {
  parts: number[][];
  cross: Set<number>;
  heads: Set<string> | null;
}

/**
 * Joins the parts across spacer lines into groups, each one table or more to cut further. Parts are
 * joined before any is cut further, so that a head set off from its body by an empty row is never cut
 * apart along the body's spacer columns. Linear in the items: a group's rows (columns) grow in place.
 */
function spacerGroups(cells: SheetCells, parts: Part[], axis: 'row' | 'col'): number[][] {
  // Across a spacer row the parts must use nearly the same columns; across spacer columns, the same rows.
  const cross = axis === 'row' ? cells.col : cells.row;
  const crossOf = (items: number[]): Set<number> => new Set(items.map((i) => cross[i]!));
  const groups: Group[] = [];
  for (const part of parts) {
    const last = groups[groups.length - 1];
    const set = crossOf(part.items);
    if (last && (axis === 'col' || part.gap === 1) && isSpacer(cells, last, part.items, set, axis)) {
      last.parts.push(part.items);
      for (const x of set) last.cross.add(x);
    } else {
      groups.push({ parts: [part.items], cross: set, heads: null });
    }
  }
  return groups.map((g) => {
    if (g.parts.length === 1) return g.parts[0]!;
    const items = g.parts.flat();
    // Parts side by side interleave by row: back to row-major order.
    if (axis === 'col') items.sort((x, y) => cells.row[x]! - cells.row[y]! || cells.col[x]! - cells.col[y]!);
    return items;
  });
}

/**
 * Whether `after`, parted from the group before it by a spacer row (or columns), goes on with the same
 * table: the two use nearly the same columns (across spacer columns, the same rows), and (below a spacer
 * row) `after` does not repeat a head row of the group. A title, a note or a table of other columns or
 * length than its neighbour fails the first test.
 */
function isSpacer(cells: SheetCells, before: Group, after: number[], b: Set<number>, axis: 'row' | 'col'): boolean {
  let shared = 0;
  for (const x of b) if (before.cross.has(x)) shared++;
  if (shared < SPACER_OVERLAP * (before.cross.size + b.size - shared)) return false;
  // Side by side, a repeated head is a second group of figures under the same heads (this year, last
  // year): only a part below that repeats a head starts a new table.
  if (axis === 'col') return true;
  before.heads ??= new Set(headRows(cells, before.parts[0]!));
  return !headRows(cells, after).some((h) => before.heads!.has(h));
}

/** Share of the rows (columns) two parts have in common, of all they use, for a spacer between them. */
const SPACER_OVERLAP = 0.75;
/** Rows at the top of a part compared as its head. */
const HEAD_ROWS = 2;

/** The first rows of a part (row-major items) of two cells or more, as text keys. */
function headRows(cells: SheetCells, items: number[]): string[] {
  const rows = new Map<number, number[]>();
  for (const i of items) {
    const r = cells.row[i]!;
    const row = rows.get(r);
    if (row) row.push(i);
    else if (rows.size < HEAD_ROWS) rows.set(r, [i]);
    else break;
  }
  // A head has at least two cells: one repeated value ("Total", "—") is no head.
  return [...rows.values()]
    .filter((row) => row.length > 1)
    .map((row) => JSON.stringify(row.sort((x, y) => cells.col[x]! - cells.col[y]!).map((i) => cells.text[i]!.trim())));
}

function region(cells: SheetCells, items: number[]): SheetRegion {
  const rows = new Set<number>();
  const cols = new Set<number>();
  let top = Infinity;
  let bottom = -Infinity;
  let left = Infinity;
  let right = -Infinity;
  for (const i of items) {
    rows.add(cells.row[i]!);
    cols.add(cells.col[i]!);
    top = Math.min(top, cells.row[i]!);
    bottom = Math.max(bottom, cells.lastRow[i]!);
    left = Math.min(left, cells.col[i]!);
    right = Math.max(right, cells.lastCol[i]!);
  }
  const asc = (x: number, y: number): number => x - y;
  return { cells: items, rows: [...rows].sort(asc), cols: [...cols].sort(asc), top, bottom, left, right };
}
