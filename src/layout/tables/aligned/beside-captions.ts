/** Tables set side by side under captions side by side, which share rows, told apart. */
import type { Line } from '../../lines.js';
import { CAPTION_RE } from '../text-cues.js';
import type { Interval } from '../types.js';

/**
 * Tables set side by side under captions side by side ("Table 1. Staff by site" over the left one,
 * "Table 2. Visits by month" over the right one) share rows and come as one set of rows. Each caption
 * after the first starts where its table does, at the end of one of the gutters: the rows are split
 * there into one table per caption. Without such a caption row above, the rows stay one table.
 */
export function besideCaptions(
  members: Line[][],
  gutters: Interval[],
  captions: Line[] | undefined,
  notes: Set<Line[]>,
): Array<{ members: Line[][]; gutters: Interval[]; notes: Set<Line[]> }> {
  const whole = [{ members, gutters, notes }];
  if (!captions || captions.length < 2 || !captions.every((l) => CAPTION_RE.test(l.text))) return whole;
  const first = members[0]!;
  const lineH = Math.max(...first.map((l) => l.y1 - l.y0));
  if (Math.min(...first.map((l) => l.y0)) - Math.max(...captions.map((l) => l.y1)) > lineH * 3) return whole;
  const cuts: number[] = [];
  for (const c of [...captions].sort((a, b) => a.x0 - b.x0).slice(1)) {
    const em = c.size;
    const g = gutters
      .filter((v) => c.x0 >= v.a && c.x0 <= v.b + em)
      .sort((a, b) => Math.abs(a.b - c.x0) - Math.abs(b.b - c.x0))[0];
    if (!g) return whole;
    cuts.push((g.a + g.b) / 2);
  }
  const edges = [-Infinity, ...cuts, Infinity];
  const parts = [];
  for (let k = 0; k + 1 < edges.length; k++) {
    const a = edges[k]!,
      b = edges[k + 1]!;
    const inside = (l: Line): boolean => {
      const cx = (l.x0 + l.x1) / 2;
      return cx > a && cx < b;
    };
    const partNotes = new Set<Line[]>();
    const rowsOf = members.flatMap((r) => {
      const kept = r.filter(inside);
      if (!kept.length) return [];
      if (notes.has(r)) partNotes.add(kept);
      return [kept];
    });
    parts.push({ members: rowsOf, gutters: gutters.filter((v) => v.a > a && v.b < b), notes: partNotes });
  }
  // Each side must still be a table of two columns or more.
  return parts.every((p) => p.members.length >= 2 && p.gutters.length >= 1) ? parts : whole;
}
