/**
 * Text set at a right angle to the page's text (`PageInput.turned`). It is no part of the text flow:
 * up a margin it is a stamp or a note (an arXiv identifier, a line number strip). Turned heads over a
 * table's narrow columns ("Sales", "Underlying Trading operating profit" set upwards above figures,
 * as spreadsheets print them) are the table's head row: each is read in its own direction, its lines
 * joined as a cell's are, and goes in the column it stands over.
 */
import type { TableCell } from '../model/document.js';
import { buildRows, type Line } from './lines.js';
import { CAPTION_RE, cellInlines, type FoundTable, type Interval } from './tables.js';
import type { Box, TextItem } from './types.js';

/** A turned cell: runs of one direction standing together, and where they stand. */
interface TurnedCell extends Box {
  items: TextItem[];
  size: number;
}

/**
 * The runs as a reader of the turned text sees them: turned upright, so that the text reads left to
 * right and its lines follow downwards. Read bottom to top (270), a run's next line stands to its
 * right; read top to bottom (90), to its left.
 */
function upright(it: TextItem): TextItem {
  const turned =
    it.angle === 90
      ? { x0: it.y0, x1: it.y1, y0: -it.x1, y1: -it.x0 }
      : { x0: -it.y1, x1: -it.y0, y0: it.x0, y1: it.x1 };
  const { angle: _angle, ...rest } = it;
  return { ...rest, ...turned };
}

/**
 * Turned runs grouped into cells: runs of one direction whose boxes touch or nearly so, across their
 * lines (the lines of one head, at line spacing) and along them (the runs of one line: a word, its
 * note mark).
 */
function turnedCells(items: TextItem[]): TurnedCell[] {
  const runs = items.slice(0, 2000);
  const parent = runs.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let i = 0; i < runs.length; i++) {
    for (let j = i + 1; j < runs.length; j++) {
      const a = runs[i]!,
        b = runs[j]!;
      if (a.angle !== b.angle) continue;
      const size = Math.min(a.fontSize, b.fontSize);
      const across = Math.max(a.x0, b.x0) - Math.min(a.x1, b.x1);
      const along = Math.max(a.y0, b.y0) - Math.min(a.y1, b.y1);
      if (across <= size * 0.6 && along <= size) parent[find(i)] = find(j);
    }
  }
  const groups = new Map<number, TextItem[]>();
  runs.forEach((r, i) => {
    const k = find(i);
    (groups.get(k) ?? groups.set(k, []).get(k)!).push(r);
  });
  return [...groups.values()].map((g) => ({
    items: g,
    x0: Math.min(...g.map((r) => r.x0)),
    y0: Math.min(...g.map((r) => r.y0)),
    x1: Math.max(...g.map((r) => r.x1)),
    y1: Math.max(...g.map((r) => r.y1)),
    size: Math.max(...g.map((r) => r.fontSize)),
  }));
}

/** A turned cell's text, read in its own direction, with a cell's inline marks. */
function turnedContent(cell: TurnedCell): TableCell['content'] {
  return cellInlines(buildRows(cell.items.map(upright)).flat());
}

/**
 * The column a turned cell stands over: the one whose share of the table's width (up to halfway to
 * its neighbours) holds the cell's middle, when the cell reaches over the column's text or comes
 * within an em of it. -1 otherwise.
 */
function columnUnder(cell: Pick<TurnedCell, 'x0' | 'x1' | 'size'>, columns: Interval[]): number {
  const mid = (cell.x0 + cell.x1) / 2;
  for (let c = 0; c < columns.length; c++) {
    const col = columns[c]!;
    if (!Number.isFinite(col.a)) continue;
    const left = c > 0 && Number.isFinite(columns[c - 1]!.b) ? (columns[c - 1]!.b + col.a) / 2 : -Infinity;
    const right =
      c + 1 < columns.length && Number.isFinite(columns[c + 1]!.a) ? (col.b + columns[c + 1]!.a) / 2 : Infinity;
    if (mid < left || mid >= right) continue;
    return cell.x1 > col.a - cell.size && cell.x0 < col.b + cell.size ? c : -1;
  }
  return -1;
}

/**
 * Turned heads standing over a table's columns become its head row. A cell is a head when it stands
 * within the table's width, over one column, above a row of the table; the heads over that row stand
 * in one band, the lowest foot among them just above the row (within two of its lines), and the head
 * row goes above it. Two such heads or more, over different columns, are needed: a lone turned line
 * near a table may be a margin note. Over heads that open a table, the lines of the page (`lines`)
 * stacked just above them, each over one column, are the head's upper row (`rowsAbove`); their
 * words join the table's. Tables are changed in place; the runs taken are returned.
 */
export function attachTurnedHeads(
  tables: FoundTable[],
  items: readonly TextItem[],
  lines: readonly Line[] = [],
): Set<TextItem> {
  const taken = new Set<TextItem>();
  if (!items.length || !tables.length) return taken;
  const inTables = (l: Line): boolean => tables.some((t) => t.lines.has(l) || l.words.some((w) => t.words.has(w)));
  const cells = turnedCells(items.filter((it) => it.angle === 90 || it.angle === 270));
  for (const t of tables) {
    const { columns, rowBands } = t;
    if (!columns || !rowBands || rowBands.length !== t.rows.length || columns.length < 2) continue;
    // The row each head stands on: the first whose top is below the head's foot.
    const heads = new Map<number, { cell: TurnedCell; row: number }>();
    let clash = false;
    for (const cell of cells) {
      if (cell.items.some((it) => taken.has(it))) continue;
      if (cell.x0 < t.x0 - cell.size * 2 || cell.x1 > t.x1 + cell.size * 2) continue;
      const row = rowBands.findIndex((b) => b.a >= cell.y1 - cell.size * 0.5);
      if (row < 0) continue;
      const col = columnUnder(cell, columns);
      if (col < 0) continue;
      if (heads.has(col)) {
        clash = true;
        break;
      }
      heads.set(col, { cell, row });
    }
    if (clash || heads.size < 2) continue;
    // All of them over one row, in one band (heads of one row of cells, set to its foot or its top),
    // the lowest foot just above that row: nothing of the table between.
    const row = Math.min(...[...heads.values()].map((h) => h.row));
    if ([...heads.values()].some((h) => h.row !== row)) continue;
    const lowest = [...heads.values()].reduce((m, h) => (h.cell.y1 > m.cell.y1 ? h : m)).cell;
    if (rowBands[row]!.a - lowest.y1 > lowest.size * 2.5 || [...heads.values()].some((h) => h.cell.y1 < lowest.y0))
      continue;
    // A cell spanning down from above into that row would be cut by a row put in between.
    if (t.rows.slice(0, row).some((r, k) => r.some((c) => k + (c.rowSpan ?? 1) > row))) continue;
    const top = Math.min(...[...heads.values()].map((h) => h.cell.y0));
    const foot = Math.max(...[...heads.values()].map((h) => h.cell.y1));
    // Heads set level with the table's first row of heads ("Region" set flush with the turned heads'
    // feet) fill that row's empty cells; otherwise they are a row of their own.
    const level = row > 0 && rowBands[row - 1]!.b > top && rowBands[row - 1]!.a < foot ? t.rows[row - 1]! : null;
    const fill =
      level &&
      level.length === columns.length &&
      level.every((c) => !c.colSpan && !c.rowSpan) &&
      [...heads.keys()].every((col) => !level[col]!.content.length)
        ? level
        : null;
    const headRow: TableCell[] = fill ?? Array.from({ length: columns.length }, () => ({ content: [] }));
    for (const [col, h] of heads) {
      headRow[col] = { content: turnedContent(h.cell) };
      for (const it of h.cell.items) taken.add(it);
      t.y0 = Math.min(t.y0, h.cell.y0);
      t.x0 = Math.min(t.x0, h.cell.x0);
      t.x1 = Math.max(t.x1, h.cell.x1);
    }
    if (fill) {
      const band = rowBands[row - 1]!;
      rowBands[row - 1] = { a: Math.min(band.a, top), b: Math.max(band.b, foot) };
      continue;
    }
    t.rows.splice(row, 0, headRow);
    rowBands.splice(row, 0, { a: top, b: foot });
    // Over heads that open the table, the head's upper rows (a units line, a period over a group
    // of columns) stand in the text above it.
    const size = Math.max(...[...heads.values()].map((h) => h.cell.size));
    const above = row === 0 ? rowsAbove(lines, top, size, t, columns, inTables) : [];
    if (!above.length) continue;
    const upper: TableCell[] = columns.map((_, c) => ({
      content: cellInlines(above.filter((a) => a.col === c).flatMap((a) => a.line.words)),
    }));
    t.rows.unshift(upper);
    const y0 = Math.min(...above.map((a) => a.line.y0));
    rowBands.unshift({ a: y0, b: Math.max(...above.map((a) => a.line.y1)) });
    t.y0 = Math.min(t.y0, y0);
    for (const a of above) {
      t.lines.add(a.line);
      for (const w of a.line.words) t.words.add(w);
    }
  }
  return taken;
}

/**
 * The lines over a table's turned heads that belong to its head: stacked at line spacing from
 * within two lines above the heads' top, in the heads' size or smaller, each within one column
 * (clear of the other columns' text) and none a caption. A line across the columns (a title) means
 * the text above is no part of the head, and none is taken.
 */
function rowsAbove(
  lines: readonly Line[],
  top: number,
  size: number,
  t: FoundTable,
  columns: Interval[],
  inTables: (l: Line) => boolean,
): Array<{ line: Line; col: number }> {
  const candidates = lines
    .filter((l) => l.y1 <= top + l.size * 0.3 && l.x0 >= t.x0 - size * 2 && l.x1 <= t.x1 + size * 2 && !inTables(l))
    .sort((a, b) => b.y1 - a.y1);
  const stack: Line[] = [];
  let reach = top;
  for (const l of candidates) {
    const gap = reach - l.y1;
    if (gap > (stack.length ? l.size * 0.6 : l.size * 2.5)) break;
    stack.push(l);
    reach = Math.min(reach, l.y0);
  }
  const out: Array<{ line: Line; col: number }> = [];
  for (const l of stack) {
    if (l.size > size * 1.15 || CAPTION_RE.test(l.text)) return [];
    const col = columnUnder({ x0: l.x0, x1: l.x1, size: l.size }, columns);
    if (col < 0 || columns.some((c, k) => k !== col && Number.isFinite(c.a) && l.x0 < c.b && l.x1 > c.a)) return [];
    out.push({ line: l, col });
  }
  return out;
}
