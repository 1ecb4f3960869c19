/**
 * Code listings: the paragraph pass cuts a listing at its blank lines (a gap wider than the leading),
 * and a single line after such a gap is no code by itself, so one listing came out as two fences and a
 * stray paragraph. Monospaced blocks stacked in one column, each gap no more than a few blank lines and
 * nothing between them, are joined into one when the whole reads as program text.
 */
import type { Line } from '../lines.js';
import { type TextBlock, hOverlap } from './elements.js';
import { looksLikeCode } from './paragraphs.js';

/** Blank lines a listing may hold between two of its parts, in lines of its own leading. */
const MAX_BLANK_LINES = 3;

const mono = (B: TextBlock): boolean => !B.marker && !B.rule && B.lines.every((l) => l.mono);

export function joinCodeListings(blocks: TextBlock[]): TextBlock[] {
  const out: TextBlock[] = [];
  const absorbed = new Set<TextBlock>();
  for (const [i, A] of blocks.entries()) {
    if (absorbed.has(A)) continue;
    if (!mono(A)) {
      out.push(A);
      continue;
    }
    let cur: TextBlock = A;
    for (const B of blocks.slice(i + 1)) {
      if (absorbed.has(B) || !mono(B) || Math.abs(B.size - cur.size) > cur.size * 0.1) continue;
      if (B.y0 < cur.y1 || B.x0 < cur.x0 - cur.size || hOverlap(B, cur) <= 0) continue;
      const leading = leadingOf(cur.lines) ?? cur.size * 1.2;
      if (B.y0 - cur.y1 > leading * (MAX_BLANK_LINES + 0.5)) continue;
      // Nothing else set between them in the same column.
      const between = blocks.some(
        (C) =>
          C !== cur && C !== B && !absorbed.has(C) && C.y0 >= cur.y1 - 1 && C.y1 <= B.y0 + 1 && hOverlap(C, cur) > 0,
      );
      if (between) break;
      const lines = [...cur.lines, ...B.lines];
      if (!looksLikeCode(lines)) break;
      cur = {
        ...cur,
        x0: Math.min(cur.x0, B.x0),
        x1: Math.max(cur.x1, B.x1),
        y1: Math.max(cur.y1, B.y1),
        lines,
        textX0: Math.min(cur.textX0, B.textX0),
      };
      absorbed.add(B);
    }
    out.push(cur);
  }
  return out;
}

/** The smallest step between the tops of consecutive lines (a listing's own leading), or null. */
export function leadingOf(lines: readonly Line[]): number | null {
  let best: number | null = null;
  for (let i = 1; i < lines.length; i++) {
    const d = lines[i]!.y0 - lines[i - 1]!.y0;
    if (d > lines[i]!.size * 0.5 && (best === null || d < best)) best = d;
  }
  return best;
}
