/** Figures in cells: amounts, percentages, years, and the marks that stand for a value. */
import type { Line, Word } from '../lines.js';

/** A figure: amount, percentage, year, signed or in brackets. */
export const NUMBER_WORD = /^[-+−(]?[$€£¥]?\d[\d.,]*%?\)?$/;
// Marks that stand for a value in a cell: yes / no, or nothing.
export const MARK_WORD = /^[✓✔✗✘–—-]$/u;

/** A line's space-separated tokens as words, placed within their run by share of characters. */
export function tokens(l: Line): Word[] {
  const out: Word[] = [];
  for (const w of l.words) {
    const text = w.text;
    const per = (w.x1 - w.x0) / Math.max(1, text.length);
    const re = /\S+/g;
    for (let m = re.exec(text); m; m = re.exec(text))
      out.push({ ...w, text: m[0], x0: w.x0 + m.index * per, x1: w.x0 + (m.index + m[0].length) * per });
  }
  return out;
}

/** The tokens of a line when every one is a figure (or a mark standing for a value); null otherwise. */
export function figures(l: Line): Word[] | null {
  const t = tokens(l);
  return t.length &&
    t.every((w) => NUMBER_WORD.test(w.text) || MARK_WORD.test(w.text)) &&
    t.some((w) => NUMBER_WORD.test(w.text))
    ? t
    : null;
}

/**
 * The figures (and value marks) of a cell set on one line, left to right, whether the line builder
 * kept them as one line or broke them into several at wider spaces ("47.1" "17.7 21.3" "33.2");
 * null when the cell holds anything else or lines of more than one text line.
 */
export function cellFigures(cell: Line[]): Word[] | null {
  if (!cell.length) return null;
  const cy = (l: Line): number => (l.y0 + l.y1) / 2;
  const h = Math.min(...cell.map((l) => l.y1 - l.y0));
  if (cell.some((l) => Math.abs(cy(l) - cy(cell[0]!)) > h * 0.5)) return null;
  const t = cell.flatMap(tokens).sort((a, b) => a.x0 - b.x0);
  // Marks alone ("- -") are values too here: the column as a whole must hold figures.
  return t.length && t.every((w) => NUMBER_WORD.test(w.text) || MARK_WORD.test(w.text)) ? t : null;
}
