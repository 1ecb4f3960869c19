/** Rows of the grid that go on from the row above (further lines of its cells) merged into it. */
import type { Line } from '../../lines.js';
import { figures } from '../figures.js';
import { filledCells } from '../geometry.js';
import { goesOnInCells, spaceBeforeRows } from './wrapped-rows.js';

/** The grid's rows (of `cols` columns) with each row that goes on from the row above merged into it. */
export function mergeContinuationRows(grid: Line[][][], cols: number): Line[][][] {
  const merged: Line[][][] = [];
  // Words in another face under a figure or a bold head, a row's spacing below it (an italic
  // "Graduate" under "202", an italic "Undergraduate" under the head "New students"), are a row of
  // their own, a sub-head: a figure does not go on over a second line, and a head goes on in its own
  // face. Plain text does, in any face and after a paragraph's space too ("... notice" over an italic
  // "See ...").
  const sameFace = (r: Line[][], prev: Line[][]): boolean =>
    r.every((c, k) => {
      const above = prev[k]![prev[k]!.length - 1];
      // A bold line under plain text is a head of its own ("Estimate Totals" under a form's last value).
      if (c.length && above && c[0]!.bold && !above.bold) return false;
      if (!c.length || !above || !(figures(above) || above.bold)) return true;
      return (
        (c[0]!.italic === above.italic && c[0]!.bold === above.bold) ||
        c[0]!.y0 - above.y1 < (above.y1 - above.y0) * 0.5
      );
    });
  const rowSpace = spaceBeforeRows(grid);
  for (const r of grid) {
    const prev = merged[merged.length - 1];
    if (
      prev &&
      ((filledCells(r) < Math.min(2, cols) && r[0]!.length === 0 && sameFace(r, prev)) ||
        goesOnInCells(r, prev, grid, rowSpace))
    ) {
      r.forEach((c, k) => prev[k]!.push(...c));
    } else merged.push(r.map((c) => [...c]));
  }
  return merged;
}
