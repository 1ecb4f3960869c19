/**
 * Columns of the grid that hold more than one column (figures run together, columns set closer than
 * a gutter, "Label: value" cells), or less (stray fragments, currency signs apart from their amounts).
 * Rows are changed in place; lines cut apart are added to `splitFrom`.
 */
import type { Line, Word } from '../../lines.js';
import { makeLine } from '../../lines.js';
import { cellLines } from '../cell-text.js';
import { cellFigures, NUMBER_WORD, tokens } from '../figures.js';
import { medianSize, whitespaceRivers } from '../geometry.js';

/** A column with a single filled cell is a stray fragment next to the table, not a column. */
export function dropStrayColumns(merged: Line[][][], cols: number): void {
  if (merged.length >= 4) {
    // Only a fragment in the first row (a heading or running text above the table) is stray.
    const keep = Array.from(
      { length: cols },
      (_, c) => merged.filter((r) => r[c]!.length > 0).length > 1 || merged[0]![c]!.length === 0,
    );
    if (keep.filter(Boolean).length >= 2 && keep.some((k) => !k)) {
      for (let k = merged.length - 1; k >= 0; k--) {
        const r = merged[k]!;
        merged[k] = r.filter((_, c) => keep[c]);
      }
    }
  }
}

/**
 * Figures set so tightly that a row's numbers came as one line, often as one text run
 * ("1,204 1,310 1,422"): a column whose every data cell holds the same number (two or more) of
 * figures is split into that many columns, figure by figure.
 */
export function splitFigureRuns(merged: Line[][][], splitFrom: Set<Line>): void {
  for (let c = (merged[0]?.length ?? 0) - 1; c >= 0; c--) {
    const data = merged
      .slice(1)
      .map((r) => r[c]!)
      .filter((cell) => cell.length > 0);
    if (data.length < 2) continue;
    const counts = data.map(cellFigures);
    const k = counts[0]?.length ?? 0;
    if (k < 2 || !counts.every((f) => f && f.length === k)) continue;
    if (!counts.some((f) => f!.some((w) => NUMBER_WORD.test(w.text)))) continue;
    // "12 500" is one figure where a space groups thousands (unless the column groups them with
    // commas or points elsewhere: "880 912 1,005" are three figures).
    const grouped = counts.some((f) => f!.some((w) => /\d[,.]\d{3}(?!\d)/.test(w.text)));
    if (
      !grouped &&
      counts.some((f) =>
        f!.some(
          (w, i) => i > 0 && /^\d{3}(?:[.,]\d+)?%?\)?$/.test(w.text) && /^[-+−(]?[$€£¥]?\d{1,3}$/.test(f![i - 1]!.text),
        ),
      )
    )
      continue;
    // Where each new column sits: the mean centre of its figures.
    const centres = Array.from(
      { length: k },
      (_, i) => counts.reduce((n, f) => n + (f![i]!.x0 + f![i]!.x1) / 2, 0) / counts.length,
    );
    for (const r of merged) {
      const cell = r[c]!;
      for (const l of cell) splitFrom.add(l);
      const f = cellFigures(cell);
      // Other cells (a header over the figures): each token goes to the nearest new column.
      const ws = f && f.length === k ? f : cell.flatMap(tokens);
      const parts: Word[][] = Array.from({ length: k }, () => []);
      for (const w of ws) {
        const cx = (w.x0 + w.x1) / 2;
        let best = 0;
        for (let i = 1; i < k; i++) if (Math.abs(centres[i]! - cx) < Math.abs(centres[best]! - cx)) best = i;
        // A head centred across the boundary of two new columns (a group head over both) starts in
        // the left one, as a spanning cell does.
        const ww = w.x1 - w.x0;
        const boundary = best > 0 ? (centres[best - 1]! + centres[best]!) / 2 : -Infinity;
        if (boundary > w.x0 + ww * 0.3 && boundary < w.x1 - ww * 0.3) best--;
        parts[best]!.push(w);
      }
      r.splice(c, 1, ...parts.map((p) => (p.length ? [makeLine(p, false)] : [])));
    }
  }
}

/**
 * Two columns set closer than a line split allows (a label column beside a name column, each row
 * one line "Single  BM25+BERT (Lee et al., 2019)"): a space of 0.8 em or more that runs clear
 * down the column, with words on both sides in three rows or more, splits it. A word space is a
 * quarter of an em, so words that merely repeat ("Total revenue", "Total costs") stay together.
 */
export function splitAtRivers(merged: Line[][][], splitFrom: Set<Line>): void {
  for (let c = (merged[0]?.length ?? 0) - 1; c >= 0; c--) {
    const cells = merged.map((r) => r[c]!);
    const ws = cells.flatMap((cell) => cell.flatMap((l) => l.words));
    if (ws.length < 6 || cells.some((cell) => cell.some((l) => l.rtl))) continue;
    // Letters or figures on both sides: a currency sign set apart from its amounts ("$  1,200")
    // belongs with them.
    const alnum = (q: Word): boolean => /[\p{L}\p{N}]/u.test(q.text);
    const rivers = whitespaceRivers(ws, medianSize(ws) * 0.8)
      .map((v) => v.x)
      .filter(
        (x) =>
          cells.filter(
            (cell) =>
              cell.some((l) => l.words.some((q) => q.x1 <= x && alnum(q))) &&
              cell.some((l) => l.words.some((q) => q.x0 >= x && alnum(q))),
          ).length >= 3,
      );
    if (!rivers.length) continue;
    for (const r of merged) {
      const cell = r[c]!;
      for (const l of cell) splitFrom.add(l);
      const parts: Word[][] = Array.from({ length: rivers.length + 1 }, () => []);
      for (const l of cell) for (const w of l.words) parts[rivers.filter((x) => w.x0 >= x).length]!.push(w);
      // Each part keeps its lines apart (a cell of two lines stays two lines).
      r.splice(c, 1, ...parts.map((p) => cellLines(p)));
    }
  }
}

/**
 * Form columns: cells that read "Label: value" with the label as a run of its own become two
 * cells, so that each value stands beside its label.
 */
export function splitFormColumns(merged: Line[][][]): void {
  for (let c = (merged[0]?.length ?? 0) - 1; c >= 0; c--) {
    const cells = merged.map((r) => r[c]!).filter((cell) => cell.length > 0);
    const splitAt = (cell: Line[]): number => {
      if (cell.length !== 1) return -1;
      const ws = cell[0]!.words;
      const k = ws.findIndex((w) => /:$/.test(w.text.trim()));
      return k >= 0 &&
        k < ws.length - 1 &&
        ws
          .slice(0, k + 1)
          .map((w) => w.text)
          .join(' ').length <= 30
        ? k + 1
        : -1;
    };
    if (cells.length < 2 || cells.filter((cell) => splitAt(cell) > 0).length < cells.length * 0.75) continue;
    for (const r of merged) {
      const cell = r[c]!;
      const k = splitAt(cell);
      if (k < 0) {
        r.splice(c + 1, 0, []);
        continue;
      }
      const l = cell[0]!;
      r.splice(c, 1, [makeLine(l.words.slice(0, k), l.rtl)], [makeLine(l.words.slice(k), l.rtl)]);
    }
  }
}

/**
 * A column of currency signs only ("$" set at the left of its amounts, which are set flush right):
 * the signs belong to the amounts beside them, not to a column of their own.
 */
export function joinCurrencySigns(merged: Line[][][]): void {
  for (let c = (merged[0]?.length ?? 0) - 2; c >= 0; c--) {
    const signs = merged.filter((r) => r[c]!.length > 0);
    if (
      !signs.length ||
      !signs.every(
        (r) =>
          /^[$€£¥₹]$/u.test(
            r[c]!.map((l) => l.text)
              .join('')
              .trim(),
          ) && r[c + 1]!.length > 0,
      )
    )
      continue;
    for (const r of merged) {
      r[c + 1] = [...r[c]!, ...r[c + 1]!];
      r.splice(c, 1);
    }
  }
}
