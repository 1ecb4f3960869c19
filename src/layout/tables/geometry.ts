/**
 * Measures shared by the ruled and the aligned-text finders: where words and lines stand, the
 * whitespace between them, and values grouped by nearness.
 */
import type { Line, Word } from '../lines.js';
import type { Interval } from './types.js';

/** Values sorted and grouped where each is within `tol` of the previous one: the mean of each group. */
export function clusterValues(values: number[], tol: number): number[] {
  const s = [...values].sort((a, b) => a - b);
  const out: number[][] = [];
  for (const v of s) {
    const last = out[out.length - 1];
    if (last && v - last[last.length - 1]! <= tol) last.push(v);
    else out.push([v]);
  }
  return out.map((g) => g.reduce((a, b) => a + b, 0) / g.length);
}

/** Cells of a row that hold text. */
export function filledCells(r: Line[][]): number {
  return r.filter((c) => c.length > 0).length;
}

/** Words whose centres lie strictly inside a box. */
export function wordsWithin(words: Word[], x0: number, x1: number, y0: number, y1: number): Word[] {
  return words.filter((w) => {
    const cx = (w.x0 + w.x1) / 2,
      cy = (w.y0 + w.y1) / 2;
    return cx > x0 && cx < x1 && cy > y0 && cy < y1;
  });
}

/** Median type size of some words. */
export function medianSize(ws: Word[]): number {
  const sizes = ws.map((w) => w.size).sort((a, b) => a - b);
  return sizes[sizes.length >> 1]!;
}

/** Distinct text lines (baselines to the point) among some words. */
export function linesOf(ws: Word[]): number {
  return new Set(ws.map((q) => Math.round(q.y0))).size;
}

/**
 * Vertical strips at least `minGap` wide that no word crosses, between the leftmost and the
 * rightmost word: where a column of text ends and the next begins. Each with the words on its left
 * and on its right.
 */
export function whitespaceRivers(ws: Word[], minGap: number): Array<{ x: number; left: Word[]; right: Word[] }> {
  const out: Array<{ x: number; left: Word[]; right: Word[] }> = [];
  if (!ws.length) return out;
  const sorted = [...ws].sort((a, b) => a.x0 - b.x0);
  let reach = sorted[0]!.x1;
  for (let k = 1; k < sorted.length; k++) {
    const w = sorted[k]!;
    if (w.x0 - reach >= minGap) out.push({ x: (reach + w.x0) / 2, left: sorted.slice(0, k), right: sorted.slice(k) });
    reach = Math.max(reach, w.x1);
  }
  return out;
}

/** The stretches where a gap of `gaps` and one of `other` overlap by `minW` or more. */
export function intersect(gaps: Interval[], other: Interval[], minW: number): Interval[] {
  const out: Interval[] = [];
  for (const g of gaps)
    for (const o of other) {
      const a = Math.max(g.a, o.a),
        b = Math.min(g.b, o.b);
      if (b - a >= minW) out.push({ a, b });
    }
  return out;
}

/** The spaces of a row between `left` and `right` that none of its lines covers, edge spaces included. */
export function rowGaps(lines: Line[], left: number, right: number): Interval[] {
  const s = [...lines].sort((a, b) => a.x0 - b.x0);
  const out: Interval[] = [];
  let x = left;
  for (const l of s) {
    if (l.x0 > x) out.push({ a: x, b: l.x0 });
    x = Math.max(x, l.x1);
  }
  if (right > x) out.push({ a: x, b: right });
  return out;
}
