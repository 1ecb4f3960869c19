/** Head rows set over two lines or more, joined into one head row. */
import type { Line } from '../../lines.js';
import { filledCells } from '../geometry.js';

/**
 * A header set on two lines: the second line fills only cells the first one started, and neither
 * holds numbers. Rows are changed in place.
 */
export function joinTwoLineHead(merged: Line[][][], noteLines: Set<Line>): void {
  if (merged.length >= 3) {
    const [h1, h2] = [merged[0]!, merged[1]!];
    const textOf = (c: Line[]): string => c.map((l) => l.text).join(' ');
    // (A year, with its unit or not, heads a column: "Change on" over "2021 (%)".)
    const year = (c: Line[]): boolean => /^(?:19|20)\d\d(?:\s*\([^)\d]*\))?$/.test(textOf(c).trim());
    const numeric = (c: Line[]): boolean =>
      /^[\d.,%$€£()+\-−\s]+$/.test(textOf(c)) && textOf(c).trim() !== '' && !year(c);
    // A note row (a remark set across the columns) is no second line of the head, unless it is set
    // at line spacing right under it (a head cell wrapped: "City or" over "Town").
    const h1Bottom = Math.max(...h1.flat().map((l) => l.y1));
    const noteRow = h2.some((c) => c.some((l) => noteLines.has(l) && l.y0 - h1Bottom >= (l.y1 - l.y0) * 0.5));
    const under = !noteRow && h2.every((c, k) => c.length === 0 || h1[k]!.length > 0);
    // Or both lines are set bold over plain rows ("Year ended" over "31 Dec 2023" in each column).
    const bold = (r: Line[][]): boolean => r.every((c) => c.every((l) => l.bold)) && filledCells(r) > 0;
    const boldPair = bold(h1) && bold(h2) && !bold(merged[2]!);
    // A line in plain or italic type under a bold head is a sub-head row, not the head's second line.
    const faceBreak = bold(h1) && !h2.some((c) => c.some((l) => l.bold));
    // Or heads wrapped over two lines and set flush to the foot, as heads over figures often are
    // ("Number of" over "employees", with a one-line "Region" on the second line): every head of the
    // first line goes on right under itself, flush with it at one side or centred, at line spacing.
    const flush = (a: Line, b: Line): boolean => {
      const tol = Math.max(2, a.size * 0.2);
      return (
        Math.abs(a.x0 - b.x0) < tol || Math.abs(a.x1 - b.x1) < tol || Math.abs(a.x0 + a.x1 - b.x0 - b.x1) < tol * 2
      );
    };
    // Left-aligned cells of any two rows are flush too: the heads must stand over figures, or be set
    // bold over plain rows.
    const figuresUnder = h1.every((c, k) => {
      if (!c.length || k === 0) return true;
      const body = merged
        .slice(2)
        .map((r) => r[k]!)
        .filter((x) => x.length > 0);
      return body.length >= 2 && body.filter(numeric).length >= body.length * 0.6;
    });
    const wrappedHeads =
      !noteRow &&
      filledCells(h1) >= 2 &&
      (figuresUnder || boldPair) &&
      h1.every((c, k) => {
        const up = c[c.length - 1],
          down = h2[k]![0];
        return !up || (!!down && flush(up, down) && down.y0 - up.y1 < (down.y1 - down.y0) * 0.6);
      });
    // A label of the rows under it, alone in the first cell with the first cells of those rows set
    // in from it ("Staff costs" over "Salaries", "Pension contributions"), is a row of its own.
    const groupLabel =
      filledCells(h2) === 1 &&
      h2[0]!.length === 1 &&
      h1[0]!.length > 0 &&
      merged.length >= 3 &&
      merged[2]![0]!.length > 0 &&
      Math.abs(h2[0]![0]!.x0 - h1[0]![0]!.x0) <= 1 &&
      merged[2]![0]![0]!.x0 >= h2[0]![0]!.x0 + h2[0]![0]!.size * 0.8;
    if (
      (under || wrappedHeads) &&
      !faceBreak &&
      !groupLabel &&
      (filledCells(h2) < filledCells(h1) || boldPair || wrappedHeads) &&
      filledCells(h2) > 0 &&
      !h1.some(numeric) &&
      !h2.some(numeric)
    ) {
      h2.forEach((c, k) => h1[k]!.push(...c));
      merged.splice(1, 1);
    }
  }
}

/**
 * Column heads set bold over three lines or more ("Year ended" / "December 31," / "2024") above
 * plain rows: one head row. Every line fills the same columns right of the first (a group head
 * over several columns fills fewer than the heads under it, and stays a row of its own), the lines
 * follow at line spacing, and the first column may hold a plain note ("(in thousands)"). Rows are
 * changed in place.
 */
export function joinStackedBoldHeads(merged: Line[][][]): void {
  const boldRight = (r: Line[][]): boolean =>
    r.slice(1).some((c) => c.length > 0) && r.slice(1).every((c) => c.every((l) => l.bold));
  const sameCols = (a: Line[][], b: Line[][]): boolean =>
    a.every((c, k) => k === 0 || c.length > 0 === b[k]!.length > 0);
  const tightUnder = (a: Line[][], b: Line[][]): boolean => {
    const bottom = Math.max(...a.flat().map((l) => l.y1)),
      top = Math.min(...b.flat().map((l) => l.y0));
    return top - bottom < Math.max(...b.flat().map((l) => l.y1 - l.y0)) * 0.6;
  };
  let k = 1;
  while (
    k < merged.length - 1 &&
    boldRight(merged[k]!) &&
    sameCols(merged[0]!, merged[k]!) &&
    tightUnder(merged[k - 1]!, merged[k]!)
  )
    k++;
  if (k >= 2 && boldRight(merged[0]!) && !boldRight(merged[k]!)) {
    for (let r = 1; r < k; r++) merged[r]!.forEach((c, col) => merged[0]![col]!.push(...c));
    merged.splice(1, k - 1);
  }
}
