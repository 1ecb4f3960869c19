/**
 * Margin zones: running heads, footers and page numbers in the top and bottom bands of the page,
 * read first and last; everything else is the body, read by columns.
 */
import { ENDS_SENTENCE } from '../lines.js';
import { BOTTOM_BAND, NOMINAL_SIZE, TOP_BAND } from '../thresholds.js';
import type { BlockHints } from '../types.js';
import { hOverlap, type El } from './elements.js';

/** The zone of each element, and the margin elements read before and after the body. */
export interface Zones {
  zoneOf: (e: El) => BlockHints['zone'];
  /** Margin text with nothing just below it (top) or above it (bottom), whatever the column. */
  isolated: (e: El, zone: 'top' | 'bottom') => boolean;
  /** Elements read before the body, top to bottom. */
  top: El[];
  /** Elements read after the body, top to bottom. */
  bottom: El[];
}

// Margin bands first and last; the body by columns. A margin element is short, sits in the top or
// bottom band of the page and has no multi-line body content above (or below) it.
export function marginZones(els: El[], H: number, pageBody: number): Zones {
  const inBand = (e: El): boolean => e.y1 <= H * TOP_BAND || e.y0 >= H * BOTTOM_BAND;
  const solid = els.filter((e) => e.kind !== 'text' || e.lines.length > 3 || (e.lines.length > 2 && !inBand(e)));
  const bodyTop = solid.length ? Math.min(...solid.map((e) => e.y0)) : H * 0.5;
  const bodyBottom = solid.length ? Math.max(...solid.map((e) => e.y1)) : H * 0.5;
  // Running text in the margins is set no larger than the body and stands apart from what is below
  // (or above) it; a heading at the top of a column is larger, or close to its text.
  const inMargin = (o: El, dir: 1 | -1): boolean => (dir === 1 ? o.y1 <= H * TOP_BAND : o.y0 >= H * BOTTOM_BAND);
  const nextTo = (e: El, dir: 1 | -1): { el: El; gap: number } | null => {
    let best: { el: El; gap: number } | null = null;
    for (const o of els) {
      if (o === e || hOverlap(o, e) <= 0) continue;
      const g = dir === 1 ? o.y0 - e.y1 : e.y0 - o.y1;
      if (g >= -1 && (!best || g < best.gap)) best = { el: o, gap: g };
    }
    return best;
  };
  // The widest gap between the element and the body below (above) it, following the text it is
  // stacked on: other margin text (a header of two stacked lines) does not count as the body, but
  // lines that run on from the margin into the body without a gap (text that starts at the very top
  // of the page) are the body.
  const gapTo = (e: El, dir: 1 | -1): number => {
    let widest = 0;
    let cur = e;
    for (let steps = 0; steps < 12; steps++) {
      const next = nextTo(cur, dir);
      if (!next) return Infinity;
      widest = Math.max(widest, next.gap);
      if (!inMargin(next.el, dir)) return widest;
      cur = next.el;
    }
    return widest;
  };
  // Margin text with nothing just below it (top) or above it (bottom), whatever the column (asked
  // for margin-zone blocks only).
  const isolated = (e: El, zone: 'top' | 'bottom'): boolean => {
    const size = e.kind === 'text' ? e.size : NOMINAL_SIZE;
    return zone === 'bottom'
      ? !els.some((o) => o !== e && o.y1 <= e.y0 + 1 && e.y0 - o.y1 < size * 2)
      : !els.some((o) => o !== e && o.y0 >= e.y1 - 1 && o.y0 - e.y1 < size * 2);
  };
  const zoneCache = new Map<El, BlockHints['zone']>();
  const zoneOf = (e: El): BlockHints['zone'] => {
    const hit = zoneCache.get(e);
    if (hit) return hit;
    let z: BlockHints['zone'] = 'body';
    if (e.kind === 'text' && e.lines.length <= 3 && e.size <= pageBody + 1) {
      if (e.y1 <= H * TOP_BAND && e.y1 <= bodyTop + 1 && gapTo(e, 1) >= e.size * 0.9) z = 'top';
      else if (e.y0 >= H * BOTTOM_BAND && e.y0 >= bodyBottom - 1 && gapTo(e, -1) >= e.size * 0.9) z = 'bottom';
    }
    zoneCache.set(e, z);
    return z;
  };
  // Margin text level with body text (a print date beside a title) is read in the body's order.
  const bodyEls = els.filter((e) => zoneOf(e) === 'body');
  const apart = (e: El): boolean =>
    zoneOf(e) === 'top'
      ? bodyEls.every((b) => b.y0 >= e.y1 - 1)
      : zoneOf(e) === 'bottom'
        ? bodyEls.every((b) => b.y1 <= e.y0 + 1)
        : false;
  // The tail of a paragraph at the head of a column (the page broke it) is short and sits in the top band
  // like a running head, but it is set in the body face, fills its column and runs on to the text
  // below at paragraph spacing, with another column beside it: it is read with its column.
  const columnHead = (e: El): boolean => {
    if (e.kind !== 'text' || e.size < pageBody - 0.5) return false;
    const below = nextTo(e, 1);
    if (!below || below.gap > e.size * 3) return false;
    // Or it is the last words of a sentence, however short: it starts in lower case or with a
    // figure, ends the sentence, and is set at the column's left edge in the body's face ("since."
    // at the head of the left column, "18.5 over the survey period." of the right one).
    const first = e.lines[0]!,
      last = e.lines[e.lines.length - 1]!;
    const tail =
      e.lines.length <= 2 &&
      /^[\p{Ll}\p{N}]/u.test(first.text) &&
      ENDS_SENTENCE.test(last.text) &&
      !first.bold &&
      Math.abs(e.x0 - below.el.x0) < e.size * 0.5 &&
      Math.abs(e.size - pageBody) <= 0.5;
    if (!tail && (below.gap > e.size * 2 || e.x1 - e.x0 < (below.el.x1 - below.el.x0) * 0.8)) return false;
    if (!tail && e.lines.length < 2 && e.x1 - e.x0 < (below.el.x1 - below.el.x0) * 0.9) return false;
    return els.some((o) => o !== e && hOverlap(o, e) <= 0 && o.y0 < below.el.y0 && o.y1 > e.y0);
  };
  const top = els
    .filter((e) => zoneOf(e) === 'top' && apart(e) && !columnHead(e))
    .sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const bottom = els.filter((e) => zoneOf(e) === 'bottom' && apart(e)).sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  return { zoneOf, isolated, top, bottom };
}
