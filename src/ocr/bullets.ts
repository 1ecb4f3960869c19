/**
 * Bullets and check boxes that recognition misreads. tesseract has no class for "•", "▪" or "☐" and
 * reads them as whatever letter or sign is nearest ("e", "©", "«", "=", "0", "C", "7"), a different one
 * on each line: the list becomes paragraphs that open with stray characters. A line whose first word is
 * one such character, standing apart from words that follow (a letter first, and few signs among them:
 * a chain of formulas opening with "=" is none), is a list item when at least two more such lines
 * follow it in the same column at list spacing, and the markers are not just letters and digits that
 * could be the text itself (at least one is a sign, or all are the same).
 */
import type { OcrLine, OcrPage } from './page.js';

/** What tesseract makes of bullets and boxes (and the bullets it does read). */
const MARKERS = new Set(['•', '·', '●', '○', '◦', '▪', '■', '□', '☐', '✓', '✔', '➢', '➤', '*', '=', '«', '»', '°', '©', '®', 'o', 'O', '0', 'e', 'C', 'c', '7', '-', '–', '—', '~', '+', '¢', '§', '¥', '€', '£', '>', '<', '#', '@', '&']);
const MIN_LINES = 3;

/** Lines of `page` whose first word is a misread (or read) bullet, by the rule of the file comment. */
export function bulletLines(page: OcrPage): Set<OcrLine> {
  const candidates: OcrLine[] = [];
  for (const b of page.blocks) {
    for (const p of b.paragraphs) {
      for (const l of p.lines) {
        const [first, second] = l.words;
        if (!first || !second || first.text.length !== 1 || !MARKERS.has(first.text)) continue;
        if (!/^\p{L}/u.test(second.text)) continue;
        // What follows reads as words: a chain of formulas opening with "=" is no list.
        const rest = l.words.slice(1).map((w) => w.text).join(' ');
        const letters = rest.match(/\p{L}/gu)?.length ?? 0;
        const signs = rest.match(/[^\p{L}\p{N}\s.,;:'’-]/gu)?.length ?? 0;
        if (letters < 4 || letters < signs * 4) continue;
        // The marker stands apart from the text: a gap of at least a fifth of the row height.
        if (second.bbox.x0 - first.bbox.x1 < l.rowHeight * 0.2) continue;
        candidates.push(l);
      }
    }
  }
  candidates.sort((a, b) => a.bbox.y0 - b.bbox.y0);
  const out = new Set<OcrLine>();
  const used = new Set<OcrLine>();
  for (const start of candidates) {
    if (used.has(start)) continue;
    const run = [start];
    used.add(start);
    for (;;) {
      const last = run[run.length - 1]!;
      const h = last.rowHeight;
      // The next line of the column: its marker at the same x, below within two and a half rows.
      const next = candidates.find((c) => !used.has(c) && c.bbox.y0 > last.bbox.y0 && c.bbox.y0 - last.bbox.y1 < 2.5 * h
        && Math.abs(c.words[0]!.bbox.x0 - last.words[0]!.bbox.x0) < 0.6 * h);
      if (!next) break;
      run.push(next);
      used.add(next);
    }
    if (run.length < MIN_LINES) continue;
    const marks = run.map((l) => l.words[0]!.text);
    if (!marks.some((m) => !/[\p{L}\p{N}]/u.test(m)) && !marks.every((m) => m === marks[0])) continue;
    for (const l of run) out.add(l);
  }
  return out;
}
