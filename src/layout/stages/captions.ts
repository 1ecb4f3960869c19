/**
 * Captions: a caption travels with the table or figure it names (the two are ordered as one
 * element), and a text block naming one close by is a caption, never a heading.
 */
import { CAPTION_RE } from '../tables.js';
import { hOverlap, type El, type FigureEl, type TextBlock } from './elements.js';

/**
 * A caption travels with its table or figure: ordered as one element, so that a caption line
 * narrower than the table it names is not read as part of a column beside it. Each unit (a figure
 * element spanning both) with its caption and table or figure, in their order down the page.
 */
export function captionUnits(bodyList: El[]): Map<El, El[]> {
  const units = new Map<El, El[]>();
  const captionOf = new Set<El>();
  for (const e of bodyList) {
    if (e.kind !== 'text' || e.lines.length > 3 || !CAPTION_RE.test(e.lines[0]?.text ?? '')) continue;
    let best: El | null = null,
      bestD = e.size * 3;
    for (const o of bodyList) {
      if (o.kind === 'text' || captionOf.has(o) || hOverlap(o, e) <= 0) continue;
      const d = Math.max(o.y0 - e.y1, e.y0 - o.y1);
      if (d >= -1 && d < bestD) {
        best = o;
        bestD = d;
      }
    }
    // Only when nothing stands between them (a caption's own description below its label stays in place).
    if (best) {
      const b = best;
      const lo = Math.min(e.y1, b.y1),
        hi = Math.max(e.y0, b.y0);
      if (
        bodyList.some(
          (o) => o !== e && o !== b && hOverlap(o, e) > 0 && (o.y0 + o.y1) / 2 > lo && (o.y0 + o.y1) / 2 < hi,
        )
      )
        best = null;
    }
    if (!best) continue;
    captionOf.add(best);
    const unit: FigureEl = {
      kind: 'figure',
      x0: Math.min(e.x0, best.x0),
      y0: Math.min(e.y0, best.y0),
      x1: Math.max(e.x1, best.x1),
      y1: Math.max(e.y1, best.y1),
    };
    units.set(unit, e.y0 < best.y0 ? [e, best] : [best, e]);
  }
  return units;
}

/** Whether text block e names a table or figure (CAPTION_RE) standing just above or below it. */
export function captionNear(els: El[], e: TextBlock): boolean {
  const text = e.lines[0]?.text ?? '';
  if (!CAPTION_RE.test(text)) return false;
  return els.some(
    (o) =>
      o.kind !== 'text' &&
      hOverlap(o, e) > 0 &&
      (Math.abs(e.y0 - o.y1) < e.size * 4 || Math.abs(o.y0 - e.y1) < e.size * 4),
  );
}
