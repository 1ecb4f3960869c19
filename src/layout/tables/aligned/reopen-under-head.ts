/** Column boundaries that the body keeps open but a head line runs over. */
import { makeLine, type Line } from '../../lines.js';
import { intersect, rowGaps } from '../geometry.js';
import type { Interval } from '../types.js';

/**
 * The gutters of a table with one more wherever the body rows (all rows but the first one or two,
 * the heads) leave a space open down the table that only head lines run over, each at a space of
 * half an em or more between two runs ("Tax Per" and "Result", set close because the heads are wider
 * than the cells under them). The head lines are cut there (the head rows of `members` replaced); a
 * head that only reaches into the space narrows it. A space the body keeps has text on both sides in three rows or more: it is a
 * column boundary, not the ragged end of one.
 */
export function reopenUnderHead(
  members: Line[][],
  gutters: Interval[],
  notes: Set<Line[]>,
  left: number,
  right: number,
  minGap: number,
  ex0: number,
  ex1: number,
): Interval[] {
  for (const h of [1, 2]) {
    const body = members.slice(h).filter((r) => !notes.has(r));
    if (body.length < 3) break;
    let open = rowGaps(body[0]!, left, right);
    for (const r of body.slice(1)) open = intersect(open, rowGaps(r, left, right), minGap * 0.6);
    const fresh = open.filter(
      (g) =>
        g.b - g.a >= minGap &&
        g.a > ex0 &&
        g.b < ex1 &&
        !gutters.some((v) => v.a < g.b && v.b > g.a) &&
        body.filter((r) => r.some((l) => l.x1 <= g.a) && r.some((l) => l.x0 >= g.b)).length >= 3,
    );
    if (!fresh.length) continue;
    const cutsOf = new Map<Line, number[]>();
    const added: Interval[] = [];
    for (const g of fresh) {
      let a = g.a,
        b = g.b;
      for (const l of members.slice(0, h).flat()) {
        if (l.x1 <= a || l.x0 >= b) continue;
        if (l.x0 > a) {
          b = l.x0;
          continue;
        }
        if (l.x1 < b) {
          a = l.x1;
          continue;
        }
        // Across the space: cut at the space between two runs inside it.
        const k = l.rtl
          ? -1
          : l.words.findIndex(
              (w, n) => n > 0 && l.words[n - 1]!.x1 < b && w.x0 > a && w.x0 - l.words[n - 1]!.x1 >= l.size * 0.5,
            );
        // A group head in the upper of two head rows, over heads of the lower row on both sides of
        // the space ("Rainfall (mm)" over "Mean" and "Max"), spans the columns either side of it.
        if (k < 0 && h === 2 && members[0]!.includes(l) && groupHeadOver(l, members[1]!, a, b)) continue;
        if (k < 0) return gutters;
        a = Math.max(a, l.words[k - 1]!.x1);
        b = Math.min(b, l.words[k]!.x0);
        cutsOf.set(l, [...(cutsOf.get(l) ?? []), k]);
      }
      if (b - a < minGap * 0.6) return gutters;
      added.push({ a, b });
    }
    // New rows in place of the head rows (the page's rows stay as they are for the scans after
    // this one, should this table come to nothing).
    for (let r = 0; r < h; r++) {
      const row = members[r]!.flatMap((l) => {
        const at = cutsOf.get(l);
        if (!at) return [l];
        const edges = [0, ...[...new Set(at)].sort((p, q) => p - q), l.words.length];
        return edges.slice(1).map((e, n) => makeLine(l.words.slice(edges[n]!, e), false));
      }).sort((p, q) => p.x0 - q.x0);
      if (notes.has(members[r]!)) notes.add(row);
      members[r] = row;
    }
    return [...gutters, ...added].sort((p, q) => p.a - q.a);
  }
  return gutters;
}

/**
 * A head line over a space in the columns (from a to b) with words of the head row under it on
 * both sides of the space, none across it, within its own width: a group head over them.
 */
function groupHeadOver(l: Line, lower: Line[], a: number, b: number): boolean {
  const tol = l.size;
  // (Words: the heads under it may have come as one line, to be cut at the space too, and may
  // reach into the space from either side.)
  const under = lower.flatMap((x) => x.words).filter((w) => w.x0 >= l.x0 - tol && w.x1 <= l.x1 + tol);
  return (
    under.some((w) => w.x0 < a && w.x1 <= b) &&
    under.some((w) => w.x0 >= a && w.x1 > b) &&
    !under.some((w) => w.x0 < a && w.x1 > b)
  );
}
