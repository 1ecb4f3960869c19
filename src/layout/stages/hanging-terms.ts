/**
 * Definition lists set with a hanging indent, as manual pages set their options (groff's `.TP`): a
 * term at the list's margin, its description indented under it, and a term short enough to fit in
 * the indent has the description's first line beside it on its own line ("-q      Quiet.").
 *
 * Such a row is split where the description starts, like a row of two columns; it is told from two
 * columns by the text around it: lines starting at the term's margin a few lines above or below run
 * on across the place where the description starts, so there is no gutter there. The term is a few
 * words, the description's line starts within a few characters of its end, and the line above it in
 * its column ends a sentence (the description before it ended there).
 */
import type { Line } from '../lines.js';

/**
 * The line right above L in its column stops mid-sentence: L is that text wrapped (a heading or an
 * item in the body column beside a number in the margin), not a description starting.
 */
function goesOn(sorted: readonly Line[], L: Line): boolean {
  let above: Line | undefined;
  for (const P of sorted) {
    if (P === L || P.y1 > L.y0 + L.size * 0.3 || L.y0 - P.y1 > L.size * 2) continue;
    if (Math.min(P.x1, L.x1) <= Math.max(P.x0, L.x0)) continue;
    if (!above || P.y1 > above.y1) above = P;
  }
  return !!above && !/[.!?:;]["”’)]?$/.test(above.text.trim());
}

/** Lines (the first line of a description) beside a term on their row, with that term. */
export function hangingTerms(sorted: readonly Line[]): Map<Line, Line> {
  const out = new Map<Line, Line>();
  for (const [i, L] of sorted.entries()) {
    const size = L.size;
    // Lines on the row, left of L and ending just before it.
    for (let j = Math.max(0, i - 8); j < Math.min(sorted.length, i + 8); j++) {
      const M = sorted[j]!;
      if (M === L || Math.abs(M.y0 - L.y0) > size * 0.3 || M.x1 > L.x0 || L.x0 - M.x1 > size * 4) continue;
      if (M.words.length > 4 || M.text.length > 30) continue;
      // Text at the term's margin nearby runs across where the description starts: no gutter.
      const crossed = sorted.some(
        (N) =>
          N !== M &&
          N !== L &&
          Math.abs(N.y0 - L.y0) < size * 8 &&
          Math.abs(N.y0 - L.y0) > size * 0.3 &&
          Math.abs(N.x0 - M.x0) < size * 0.5 &&
          N.x1 > L.x0 + size,
      );
      if (crossed && !goesOn(sorted, L)) {
        out.set(L, M);
        break;
      }
    }
  }
  return out;
}
