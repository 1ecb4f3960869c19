/**
 * One aligned table cut in two by the label of a group of its rows ("Class B", "Total for the
 * Fund" set alone in the first column between rows of the same columns): the scan ends a run at
 * a line with no cell beside it, so each group came as a table of its own. Joined again here, the
 * labels rows of the table with only their first cell filled.
 */
import type { Line, Word } from '../../lines.js';
import { cellInlines, plainOf } from '../cell-text.js';
import { CAPTION_RE } from '../text-cues.js';
import {
  ADJACENT_MAX_GAP_LINES,
  GROUP_LABEL_MAX_CHARS,
  GROUP_LABEL_MAX_LINES,
  GROUP_LABEL_MAX_GAP_LINES,
  GROUP_LABEL_SIZE_RATIO,
} from '../thresholds.js';
import type { FoundTable, Interval } from '../types.js';

/** Each column of `a` stands over the column of `b` of the same place: flush at one side or centred, overlapping. */
function sameColumns(a: Interval[], b: Interval[], tol: number): boolean {
  if (a.length !== b.length || a.length < 2) return false;
  return a.every((ca, k) => {
    const cb = b[k]!;
    if (!(ca.a < cb.b && cb.a < ca.b)) return false;
    // Not over two columns of the other table.
    if (a.some((o, m) => m !== k && o.a < cb.b - tol && cb.a < o.b - tol)) return false;
    return Math.abs(ca.a - cb.a) <= tol || Math.abs(ca.b - cb.b) <= tol || Math.abs(ca.a + ca.b - cb.a - cb.b) <= tol;
  });
}

/** The size of type most of the table's lines are set in. */
function typeSize(t: FoundTable): number {
  const sizes = [...t.lines].map((l) => l.size).sort((x, y) => x - y);
  return sizes[sizes.length >> 1] ?? 0;
}

/**
 * The lines between tables `a` (above) and `b` that are labels of `b`'s rows: at most a few, each
 * alone across the tables' width, starting in the first column, short, set no larger than the rows
 * (a heading over a new table is larger), no caption, no sentence. Null when anything else stands
 * there, or when the tables stand further apart than a few lines.
 */
function labelsBetween(a: FoundTable, b: FoundTable, lines: Line[]): Line[] | null {
  const size = Math.max(typeSize(a), typeSize(b));
  const x0 = Math.min(a.x0, b.x0),
    x1 = Math.max(a.x1, b.x1);
  if (b.y0 - a.y1 > size * GROUP_LABEL_MAX_GAP_LINES * 1.2) return null;
  const between = lines.filter((l) => l.y0 >= a.y1 - 1 && l.y1 <= b.y0 + 1 && l.x0 < x1 && l.x1 > x0);
  if (between.length > GROUP_LABEL_MAX_LINES) return null;
  // With nothing between, the gap alone cut the table (a wider space before a group whose label
  // is a row of cells): joined only when they stand closer than a few lines.
  if (!between.length) return b.y0 - a.y1 <= size * 1.2 * ADJACENT_MAX_GAP_LINES ? [] : null;
  for (const l of between) {
    if (!labelLike(l, a, size)) return null;
    if (between.some((o) => o !== l && Math.abs(o.y0 - l.y0) < l.size * 0.5)) return null;
  }
  return between.sort((p, q) => p.y0 - q.y0);
}

/** A line that may label a group of the rows of `a` (whose rows are set in type of `size`). */
function labelLike(l: Line, a: FoundTable, size: number): boolean {
  const first = a.columns![0]!;
  if (l.x0 < first.a - size || l.x0 > first.b) return false;
  if (l.text.length > GROUP_LABEL_MAX_CHARS || /[.;:]$/.test(l.text) || CAPTION_RE.test(l.text)) return false;
  return l.size <= size * GROUP_LABEL_SIZE_RATIO;
}

/**
 * Labels and the rows of their group under table `a` that made no table of their own (too few
 * rows: "Total for the fund" over two rows): label lines, then rows whose lines each stand in one
 * of `a`'s columns, two columns filled or more, at row spacing. Null when there are none.
 */
function groupUnder(a: FoundTable, lineRows: Line[][], taken: Set<Word>): { labels: Line[]; rows: Line[][] } | null {
  const size = typeSize(a);
  const cols = a.columns!;
  const tol = Math.max(2, size * 0.5);
  const rows = lineRows
    .map((r) => r.filter((l) => l.x0 < a.x1 + tol && l.x1 > a.x0 - tol && !l.words.some((w) => taken.has(w))))
    .filter((r) => r.length && Math.min(...r.map((l) => l.y0)) >= a.y1 - 1)
    .sort((p, q) => p[0]!.y0 - q[0]!.y0);
  const labels: Line[] = [];
  const body: Line[][] = [];
  let bottom = a.y1;
  for (const r of rows) {
    const top = Math.min(...r.map((l) => l.y0));
    const columnOf = (l: Line): number => cols.findIndex((c) => l.x0 >= c.a - tol && l.x1 <= c.b + tol);
    const filled = new Set(r.map(columnOf));
    if (!body.length && r.length === 1 && labels.length < GROUP_LABEL_MAX_LINES && labelLike(r[0]!, a, size)) {
      if (top - bottom > size * GROUP_LABEL_MAX_GAP_LINES * 1.2) break;
      labels.push(r[0]!);
    } else if (labels.length && !filled.has(-1) && filled.size >= 2 && filled.size === r.length) {
      if (top - bottom > size * 1.2 * 2) break;
      body.push(r);
    } else break;
    bottom = Math.max(...r.map((l) => l.y1));
  }
  return labels.length && body.length ? { labels, rows: body } : null;
}

/** The table of the loose `rows` (lines each in one of `columns`). */
function tableOfRows(rows: Line[][], columns: Interval[], tol: number): FoundTable {
  const words = new Set<Word>(),
    lines = new Set<Line>();
  for (const l of rows.flat()) {
    lines.add(l);
    for (const w of l.words) words.add(w);
  }
  const all = rows.flat();
  return {
    x0: Math.min(...all.map((l) => l.x0)),
    y0: Math.min(...all.map((l) => l.y0)),
    x1: Math.max(...all.map((l) => l.x1)),
    y1: Math.max(...all.map((l) => l.y1)),
    rows: rows.map((r) =>
      columns.map((c) => ({
        content: cellInlines(r.filter((l) => l.x0 >= c.a - tol && l.x1 <= c.b + tol).flatMap((l) => l.words)),
      })),
    ),
    words,
    lines,
    ruled: false,
    confidence: 0.6,
    columns,
    rowBands: rows.map((r) => ({ a: Math.min(...r.map((l) => l.y0)), b: Math.max(...r.map((l) => l.y1)) })),
  };
}

/** `a` and `b` joined, the label lines between them rows of their own. */
function joined(a: FoundTable, b: FoundTable, labels: Line[]): FoundTable {
  const cols = a.rows[0]!.length;
  const words = new Set<Word>([...a.words, ...b.words]);
  const lines = new Set<Line>([...a.lines, ...b.lines]);
  for (const l of labels) {
    lines.add(l);
    for (const w of l.words) words.add(w);
  }
  const labelRows = labels.map((l) =>
    Array.from({ length: cols }, (_, k) => ({ content: k === 0 ? cellInlines(l.words) : [] })),
  );
  return {
    x0: Math.min(a.x0, b.x0, ...labels.map((l) => l.x0)),
    y0: a.y0,
    x1: Math.max(a.x1, b.x1, ...labels.map((l) => l.x1)),
    y1: b.y1,
    rows: [...a.rows, ...labelRows, ...b.rows],
    words,
    lines,
    ruled: false,
    confidence: Math.min(a.confidence, b.confidence),
    columns: a.columns!.map((c, k) => ({ a: Math.min(c.a, b.columns![k]!.a), b: Math.max(c.b, b.columns![k]!.b) })),
    ...(a.rowBands && b.rowBands
      ? { rowBands: [...a.rowBands, ...labels.map((l) => ({ a: l.y0, b: l.y1 })), ...b.rowBands] }
      : {}),
  };
}

/**
 * A form's fields ("Name:" beside its value): most first cells end on a colon. A line between two
 * blocks of fields heads a section of the form, not a group of rows.
 */
function fields(t: FoundTable): boolean {
  const first = t.rows.map((r) => plainOf(r[0]?.content ?? []).trim()).filter(Boolean);
  return first.filter((x) => x.endsWith(':')).length >= first.length * 0.5;
}

/**
 * The aligned tables `tables` with each pair cut apart by labels of row groups joined (in place).
 * `lines`: the page's lines outside the tables; `others`: tables that may stand between (ruled ones).
 */
export function joinAtGroupLabels(tables: FoundTable[], lineRows: Line[][], others: FoundTable[]): void {
  const lines = lineRows.flat();
  let joinedAny = true;
  while (joinedAny) {
    joinedAny = false;
    const order = [...tables].sort((p, q) => p.y0 - q.y0);
    for (let i = 0; i + 1 < order.length && !joinedAny; i++) {
      const a = order[i]!;
      if (a.ruled || !a.columns || fields(a)) continue;
      // The next table down the same columns.
      const b = order.slice(i + 1).find((t) => t.x0 < a.x1 && t.x1 > a.x0);
      if (!b || !b.ruled) {
        const taken = new Set<Word>([...tables, ...others].flatMap((t) => [...t.words]));
        const group = groupUnder(a, lineRows, taken);
        const after = group && tableOfRows(group.rows, a.columns, Math.max(2, typeSize(a) * 0.5));
        if (group && after && (!b || after.y1 < b.y0)) {
          tables.splice(tables.indexOf(a), 1, joined(a, after, group.labels));
          joinedAny = true;
          continue;
        }
      }
      if (!b || b.ruled || !b.columns || b.y0 < a.y1) continue;
      // (Within most of an em: a label column's rows may be set in a little.)
      const tol = Math.max(2, typeSize(a) * 0.8);
      if (!sameColumns(a.columns, b.columns, tol)) continue;
      if (
        [...tables, ...others].some(
          (t) => t !== a && t !== b && t.y0 < b.y0 && t.y1 > a.y1 && t.x0 < a.x1 && t.x1 > a.x0,
        )
      )
        continue;
      const free = lines.filter((l) => !l.words.some((w) => a.words.has(w) || b.words.has(w)));
      const labels = labelsBetween(a, b, free);
      if (!labels) continue;
      tables.splice(tables.indexOf(a), 1, joined(a, b, labels));
      tables.splice(tables.indexOf(b), 1);
      joinedAny = true;
    }
  }
}
