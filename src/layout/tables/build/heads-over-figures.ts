/**
 * The head rows of a table and the columns their heads go to: a head for each column, heads over
 * figures set flush right, head lines run on across a column's end.
 */
import { makeLine, type Line } from '../../lines.js';
import { figures } from '../figures.js';
import { medianSize } from '../geometry.js';

/**
 * A head row with one head for each column names the columns in order, wherever each head stands:
 * heads set flush left or centred in their cells over figures set flush right may stand nearer the
 * cut before their column's figures than after it, or over it, and would be taken for a head over
 * two columns or fall into the column on their left. Each head stays within a column of its own.
 * The column of each line of the row, or null when the row has not one line for each column.
 */
export function oneHeadEach(row: Line[], cuts: number[]): number[] | null {
  if (row.length !== cuts.length + 1 || row.length < 2) return null;
  const order = row.map((l, k) => ({ l, k })).sort((a, b) => a.l.x0 - b.l.x0);
  const out: number[] = new Array(row.length);
  for (let c = 0; c < order.length; c++) {
    const { l, k } = order[c]!;
    const cx = (l.x0 + l.x1) / 2;
    // (Within the column's neighbours: a head two columns off names some other column.)
    if ((c >= 2 && cx < cuts[c - 2]!) || (c + 1 < cuts.length && cx > cuts[c + 1]!)) return null;
    if (c > 0 && order[c - 1]!.l.x1 > l.x0) return null;
    out[k] = c;
  }
  return out;
}

/**
 * The head rows of a table whose body holds figures: the rows before the first one with a figure
 * (three at most; none when the first row has one or no row has).
 */
export function leadingHeads(members: Line[][], notes: Set<Line[]>): number {
  // A row of years alone ("2019 2023 2019 2023" under "Commuting", "Leisure") heads the columns
  // of figures under it: it is no row of the body.
  const years = (r: Line[]): boolean => r.every((l) => /^(?:(?:19|20)\d\d\s*)+$/.test(l.text.trim()));
  let k = members.findIndex(
    (r, i) =>
      !notes.has(r) &&
      r.some((l) => figures(l) !== null) &&
      !(i > 0 && i < 3 && years(r) && members[i + 1] && !years(members[i + 1]!)),
  );
  // (Under bold heads, a row with nothing bold is a sub-head row over the body, an italic
  // "Undergraduate" under "New students": a label of the rows under it, where it stands.)
  const bold = (r: Line[]): boolean => r.every((l) => l.bold);
  if (k > 1 && bold(members[0]!)) {
    const sub = members.slice(1, k).findIndex((r) => !r.some((l) => l.bold));
    if (sub >= 0) k = sub + 1;
  }
  return k > 0 && k <= 3 ? k : 0;
}

interface FigureColumns {
  /** Where the figures of each column set flush right end (undefined for other columns). */
  edge: Array<number | undefined>;
  /** Columns with text in some body row. */
  filled: boolean[];
}

/**
 * Columns of the body (rows under the heads) whose cells are mostly figures and end at one x, as
 * figures set flush right in their cells do; null when there is none.
 */
export function flushRightFigures(body: Line[][], colOf: (l: Line) => number, nC: number): FigureColumns | null {
  const ends: number[][] = Array.from({ length: nC }, () => []);
  const cells = new Array<number>(nC).fill(0);
  for (const row of body) {
    const byCol = new Map<number, Line[]>();
    for (const l of row) {
      const c = colOf(l);
      byCol.set(c, [...(byCol.get(c) ?? []), l]);
    }
    for (const [c, ls] of byCol) {
      cells[c]!++;
      if (ls.every((l) => figures(l) !== null)) ends[c]!.push(Math.max(...ls.map((l) => l.x1)));
    }
  }
  const size = medianSize(body.flat().flatMap((l) => l.words));
  const edge = ends.map((e, c) =>
    e.length >= 2 && e.length >= cells[c]! * 0.6 && Math.max(...e) - Math.min(...e) <= Math.max(1.5, size * 0.15)
      ? Math.max(...e)
      : undefined,
  );
  return edge.some((e) => e !== undefined) ? { edge, filled: cells.map((n) => n > 0) } : null;
}

/**
 * A head line run on from one head into the next across the end of a column of flush-right
 * figures ("Temp (°C)" and "Hours", whose wide space lines up with spaces of a caption above): cut at
 * a space of half an em or more that holds the end of such a column. A head lies within its cell,
 * and a flush-right column's cell ends where its figures end, so no head goes on past it. (A word
 * space is a quarter of an em: a group head's words stay together.)
 */
export function cutHeadsAtEdges(row: Line[], edge: Array<number | undefined>): Line[] {
  const ends = edge.filter((e): e is number => e !== undefined).map((e) => e + 1);
  return row.flatMap((l) => {
    if (l.rtl) return [l];
    const at = l.words.flatMap((w, k) =>
      k > 0 && w.x0 - l.words[k - 1]!.x1 >= l.size * 0.5 && ends.some((e) => l.words[k - 1]!.x1 <= e && w.x0 > e)
        ? [k]
        : [],
    );
    if (!at.length) return [l];
    const edges = [0, ...at, l.words.length];
    return edges.slice(1).map((e, n) => makeLine(l.words.slice(edges[n]!, e), false));
  });
}

/**
 * The column of a head line over figures set flush right. A head lies within its cell, and the cell
 * of such a column ends where its figures end: a head starting right of them heads a column further
 * right (a head set flush left in a wide cell stands in the space before its own figures, nearer
 * the column on its left). So does a head standing in a column of its own, nothing under it, where
 * the column after it holds figures it ends over. `c` is the column it would go to otherwise.
 */
export function headOverFigures(l: Line, c: number, cols: FigureColumns, taken: ReadonlySet<number>): number {
  // (Never into a column in `taken`: where each head of the row stands over a column of its own,
  // heads set flush left just after figures set flush right, "New students" just right of "110",
  // head those columns, not the next ones.)
  while (c + 1 < cols.edge.length && !taken.has(c + 1)) {
    const e = cols.edge[c],
      next = cols.edge[c + 1];
    if (e !== undefined && l.x0 > e + 1) c++;
    else if (!cols.filled[c] && next !== undefined && l.x1 <= next + 1) c++;
    else break;
  }
  return c;
}
