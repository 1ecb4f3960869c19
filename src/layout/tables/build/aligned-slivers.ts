/** Column boundaries narrower than a gutter, shown by the cells' alignment. */
import type { Line } from '../../lines.js';
import type { Interval } from '../types.js';

/**
 * Column boundaries narrower than a gutter that the cells' alignment shows: figures set flush right
 * in one column end at one x, the words set flush left in the next start at one x a little further
 * right (the two cells' padding apart, "2,314" ending at 295.8 and "€ 398.1m" starting at 299.3), and
 * no line of any row runs across that strip. Two lines at least end there, and two start (one
 * where the strip is no wider than half an em), inside one column of the gutters found so far.
 */
export function alignedSlivers(members: Line[][], notes: Set<Line[]>, heads: number, gutters: Interval[]): Interval[] {
  const lines = members.filter((r) => !notes.has(r)).flat();
  // (A table of thousands of lines has its columns from its gutters; the search below looks at every
  // line for each candidate strip.)
  if (lines.length > 3000) return [];
  // The words that start after the strip are cells of the body's rows (two cells or more): heads set
  // flush left just right of the figures they head (Word centres a head's cell over figures set
  // flush right in it), and a sub-head alone in its row, are no sign of a column.
  const body = members
    .slice(heads)
    .filter((r) => !notes.has(r) && r.length >= 2)
    .flat();
  // Positions shared within 0.4 pt: the group's leftmost and rightmost, how many, their smallest type.
  const groups = (
    pairs: Array<[x: number, size: number]>,
  ): Array<{ lo: number; hi: number; n: number; size: number }> => {
    const sorted = [...pairs].sort((a, b) => a[0] - b[0]);
    const out: Array<{ lo: number; hi: number; n: number; size: number }> = [];
    for (let i = 0; i < sorted.length; i++) {
      let j = i,
        size = sorted[i]![1];
      while (j + 1 < sorted.length && sorted[j + 1]![0] - sorted[i]![0] <= 0.4) size = Math.min(size, sorted[++j]![1]);
      out.push({ lo: sorted[i]![0], hi: sorted[j]![0], n: j - i + 1, size });
      i = j;
    }
    return out;
  };
  const ends = groups(lines.map((l) => [l.x1, l.size])).filter((g) => g.n >= 2);
  const starts = groups(body.map((l) => [l.x0, l.size]));
  const out: Interval[] = [];
  // One strip at most after each place where figures end: the nearest start that qualifies. (Where
  // the strip is no wider than half an em, one line starting after it is enough: a cell's padding
  // apart from figures, text is in the next cell.)
  for (const e of ends) {
    const r = e.hi;
    const st = starts.find((g) => {
      const size = Math.min(e.size, g.size);
      const w = g.lo - r;
      return (
        w >= 1.5 &&
        w < size * 0.8 &&
        (w <= size * 0.5 || g.n >= 2) &&
        !gutters.some((gv) => gv.a < g.lo + size && gv.b > r - size)
      );
    });
    if (!st || lines.some((x) => x.x0 < st.lo - 0.4 && x.x1 > r + 0.4)) continue;
    out.push({ a: r, b: st.lo });
  }
  return out;
}
