/**
 * Aligned-text tables on the page: looked for in the page's rows, and on a page of columns in each
 * column on its own as well (src/layout/tables.ts finds them; this stage says where to look).
 */
import type { Line, Word } from '../lines.js';
import { columnGutters, findAlignedTables, type FoundTable, type Interval } from '../tables.js';
import { joinAtGroupLabels } from '../tables/build/join-at-labels.js';
import type { Box, PageInput, Segment } from '../types.js';

/** Horizontal segments at one height (within half a point) that meet end to end, joined into one. */
function joinedRules(segs: Segment[]): Segment[] {
  const sorted = [...segs].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const out: Segment[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && Math.abs(last.y0 - s.y0) <= 0.5 && s.x0 <= last.x1 + 1 && s.x0 >= last.x0)
      out[out.length - 1] = { ...last, x1: Math.max(last.x1, s.x1) };
    else out.push({ ...s });
  }
  return out;
}

/**
 * The aligned tables of a page whose text is split into `lineRows` (ruled tables already found:
 * `ruled`, with the groups of horizontal rules `hRuleGroups`).
 */
export function findPageAlignedTables(
  page: PageInput,
  lineRows: Line[][],
  hRuleGroups: Box[],
  ruled: FoundTable[],
  W: number,
  H: number,
): FoundTable[] {
  // Short rules under column group heads (booktabs' \cmidrule) say which columns a head spans.
  // (Pieces of one rule drawn cell by cell, end to end, as browsers draw each cell's border, are one
  // rule across the table: they say nothing of spans.)
  const hRules = joinedRules(page.lines.filter((s) => s.y1 - s.y0 <= 1.5 && s.width <= 6)).filter(
    (s) => s.x1 - s.x0 >= 4,
  );
  // On a page of columns, each column is looked at on its own as well (see columnGutters): there a
  // table in one column is left to its column's scan, not started on the page's rows.
  const gutters = columnGutters(lineRows.flat(), W, H);
  const aligned = findAlignedTables(lineRows, hRuleGroups, W, H, ruled, undefined, hRules, gutters.length === 0);
  if (gutters.length) addColumnTables(aligned, gutters, lineRows, hRuleGroups, ruled, hRules, W, H);
  joinAtGroupLabels(aligned, lineRows, ruled);
  return aligned;
}

/**
 * On a page of columns (`gutters`), tables found across the page that are a column's to find are
 * dropped from `aligned`, and each column's own scan adds its tables.
 */
function addColumnTables(
  aligned: FoundTable[],
  gutters: Interval[],
  lineRows: Line[][],
  hRuleGroups: Box[],
  ruled: FoundTable[],
  hRules: Segment[],
  W: number,
  H: number,
): void {
  const edges = [0, ...gutters.flatMap((g) => [g.a, g.b]), W];
  // A table the page's rows found inside one column (its rows shared with the lines of the
  // column beside it, which were set aside as prose) is that column's to find: there its rows
  // are not cut short where a line of the other column stands alone between two of them.
  const inBand = (t: FoundTable): boolean => {
    let x0 = Infinity,
      x1 = -Infinity;
    for (const w of t.words) {
      x0 = Math.min(x0, w.x0);
      x1 = Math.max(x1, w.x1);
    }
    for (let b = 0; b + 1 < edges.length; b += 2) if (x0 >= edges[b]! - 1 && x1 <= edges[b + 1]! + 1) return true;
    return false;
  };
  // Nor is a "table" across a column gutter whose lines on its two sides are never level with each
  // other: the foot of a table in one column and the head of another in the next, run together.
  // Each column's scan finds its own.
  const apart = (t: FoundTable): boolean =>
    gutters.some((g) => {
      const lines = [...t.lines];
      if (lines.some((l) => l.x0 < g.a - 1 && l.x1 > g.b + 1)) return false;
      const left = lines.filter((l) => l.x1 <= g.a + 1),
        right = lines.filter((l) => l.x0 >= g.b - 1);
      if (!left.length || !right.length) return false;
      const mid = (l: Line): number => (l.y0 + l.y1) / 2;
      return !left.some((a) => right.some((b) => Math.abs(mid(a) - mid(b)) < Math.min(a.size, b.size) * 0.35));
    });
  for (let k = aligned.length - 1; k >= 0; k--) if (inBand(aligned[k]!) || apart(aligned[k]!)) aligned.splice(k, 1);
  const used = new Set<Word>();
  for (const t of aligned) for (const w of t.words) used.add(w);
  for (let b = 0; b + 1 < edges.length; b += 2) {
    const band = { a: edges[b]!, b: edges[b + 1]! };
    const bandRows = lineRows
      .map((r) => r.filter((l) => l.x0 >= band.a - 1 && l.x1 <= band.b + 1 && !l.words.some((w) => used.has(w))))
      .filter((r) => r.length > 0);
    aligned.push(...findAlignedTables(bandRows, hRuleGroups, W, H, [...ruled, ...aligned], band, hRules));
  }
}
