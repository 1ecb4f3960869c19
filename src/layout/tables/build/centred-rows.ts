/** Cells centred vertically in their rows, whose rows come apart, joined again. */
import type { Line } from '../../lines.js';
import { wrapsInto } from './wrapped-rows.js';

/**
 * Cells centred vertically in their rows, as browsers and word processors set them: beside a cell
 * wrapped over two lines the row's other cells sit between those lines, a row of their own between
 * two rows of the wrapped cell's lines ("Numerical Methods for" / "6  Spring" /
 * "Differential Equations"). Such a row, whose cells fill exactly the columns the rows either side
 * leave empty, centred between them, and those rows' lines at line spacing and reading as one
 * wrapped cell's (`wrapsInto`: not figures, as a label set once beside two rows is), is one row
 * with them; so are further pairs of lines above and below (a cell of four lines). A table
 * found to centre its cells that way also centres cells of three lines, whose middle line shares the
 * row with the other cells: those join too. Alone, that pattern is also a label row over a cell
 * that wraps, so it needs the evidence of the even case. Rows are changed in place.
 */
export function joinCentredRows(grid: Line[][][]): void {
  const filled = (r: Line[][]): number[] => r.flatMap((c, k) => (c.length ? [k] : []));
  const cy = (ls: Line[]): number => ls.reduce((n, l) => n + (l.y0 + l.y1) / 2, 0) / ls.length;
  const lineH = (ls: Line[]): number => Math.max(...ls.map((l) => l.y1 - l.y0));
  // Each column's lines: joining rows moves lines between rows, never between columns.
  const columns = (grid[0] ?? []).map((_, c) => grid.flatMap((r) => r[c]!));
  // Do rows a and b (a above b) hold consecutive lines of the same cells, in the columns `cols`?
  const tight = (a: Line[][], b: Line[][], cols: number[]): boolean =>
    cols.every((c) => {
      const up = a[c]!,
        down = b[c]!;
      if (!up.length || !down.length) return false;
      const gap = Math.min(...down.map((l) => l.y0)) - Math.max(...up.map((l) => l.y1));
      const last = up.reduce((m, l) => (l.y1 > m.y1 ? l : m)),
        first = down.reduce((m, l) => (l.y0 < m.y0 ? l : m));
      return gap > -1 && gap < lineH([...up, ...down]) * 0.6 && wrapsInto(last, first, columns[c]!);
    });
  const same = (a: number[], b: number[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
  // Grows a block of rows around `mid` by pairs of rows above and below holding lines of the
  // wrapped cells (columns `cols`) and nothing else; returns its first and last row.
  const grow = (first: number, last: number, cols: number[]): [number, number] => {
    while (
      first > 1 &&
      last + 1 < grid.length &&
      same(filled(grid[first - 1]!), cols) &&
      same(filled(grid[last + 1]!), cols) &&
      tight(grid[first - 1]!, grid[first]!, cols) &&
      tight(grid[last]!, grid[last + 1]!, cols)
    ) {
      first--;
      last++;
    }
    return [first, last];
  };
  const merge = (first: number, last: number): void => {
    const row = grid[first]!;
    for (let k = first + 1; k <= last; k++) grid[k]!.forEach((c, i) => row[i]!.push(...c));
    grid.splice(first + 1, last - first);
  };
  let centred = false;
  // Even line counts: the other cells' row between two rows of the wrapped cells' lines.
  for (let k = 2; k + 1 < grid.length; k++) {
    const up = grid[k - 1]!,
      mid = grid[k]!,
      down = grid[k + 1]!;
    const cols = filled(up),
      own = filled(mid);
    if (
      !cols.length ||
      !own.length ||
      !same(cols, filled(down)) ||
      own.some((c) => cols.includes(c)) ||
      !tight(up, down, cols)
    )
      continue;
    const m = cy(mid.flat()),
      a = cy(up.flat()),
      b = cy(down.flat());
    if (!(m > a && m < b) || Math.abs(m - (a + b) / 2) > lineH(mid.flat()) * 0.25) continue;
    const [first, last] = grow(k - 1, k + 1, cols);
    merge(first, last);
    centred = true;
    k = first + 1;
  }
  if (!centred) return;
  // Odd line counts: the middle line in the row of the other cells.
  for (let k = 2; k + 1 < grid.length; k++) {
    const up = grid[k - 1]!,
      mid = grid[k]!,
      down = grid[k + 1]!;
    const cols = filled(up),
      own = filled(mid);
    if (
      !cols.length ||
      own.length < 2 ||
      !same(cols, filled(down)) ||
      !cols.every((c) => own.includes(c)) ||
      cols.length === own.length
    )
      continue;
    if (!tight(up, mid, cols) || !tight(mid, down, cols)) continue;
    const others = own.filter((c) => !cols.includes(c)).flatMap((c) => mid[c]!);
    const block = cols.flatMap((c) => [...up[c]!, ...mid[c]!, ...down[c]!]);
    if (Math.abs(cy(others) - cy(block)) > lineH(others) * 0.25) continue;
    const [first, last] = grow(k - 1, k + 1, cols);
    merge(first, last);
    k = first + 1;
  }
}
