/**
 * Bullets and check boxes that recognition misreads. tesseract has no class for "•", "▪" or "☐" and
 * reads them as whatever letter or sign is nearest ("e", "©", "«", "¢", "=", "0", "C", "7"), a
 * different one on each line: the list becomes paragraphs that open with stray characters. A line whose
 * first word is one such character, standing apart from words that follow (a letter first, and few
 * signs among them: a chain of formulas opening with "=" is none), is a list item when at least two
 * more such lines make a list with it, and the markers are not just letters and digits that could be
 * the text itself (at least one is a sign, or all are the same); or when one more line makes a list
 * with it and both open with the same round bullet, set a tab's width from the text (ROUND).
 *
 * Lines make a list when each marker comes below the item before it at list spacing: right under its
 * last line, where an item runs on over lines set right of its marker (wrapped text hangs at the text's
 * indent: the scanned GAO report's items are three to five lines each), and either level with a marker
 * of the list (the same level) or indented past the item before it (a nested item, its marker right of
 * the marker above and near that item's text: a slide's sub-bullets).
 */
import type { OcrLine, OcrPage } from './ocr-page.js';

/** What tesseract makes of bullets and boxes (and the bullets it does read). */
const MARKERS = new Set([
  '•',
  '·',
  '●',
  '○',
  '◦',
  '▪',
  '■',
  '□',
  '☐',
  '✓',
  '✔',
  '➢',
  '➤',
  '*',
  '=',
  '«',
  '»',
  '°',
  '©',
  '®',
  'o',
  'O',
  '0',
  'e',
  'C',
  'c',
  '7',
  '-',
  '–',
  '—',
  '~',
  '+',
  '¢',
  '§',
  '¥',
  '€',
  '£',
  '>',
  '<',
  '#',
  '@',
  '&',
]);
const MIN_LINES = 3;
/**
 * What a round or square bullet is read as. Two lines make a list when both open with the same one of
 * these set a tab's width apart from the text (half a row height or more, where a word space is a
 * fifth): a list of two items (a slide's, a short note's) is common, and prose never opens two
 * lines so.
 */
const ROUND = new Set(['•', '·', '●', '○', '◦', '▪', '■', '□', '☐', '«', '©', '®', '¢', '@', 'e', 'o', '*']);
const TAB_GAP = 0.5;
/** Space between an item's last line and the next marker, in row heights. */
const ITEM_GAP = 2.5;
/** Space between the lines of one item, in row heights (a paragraph's line spacing). */
const LINE_GAP = 1.2;
/** How far right of the item above a nested marker may stand, past that item's text start, in row heights. */
const NEST_REACH = 3;

/** Whether a line opens with a lone marker standing apart from words (see the file comment). */
function isCandidate(l: OcrLine): boolean {
  const [first, second] = l.words;
  if (!first || !second || first.text.length !== 1 || !MARKERS.has(first.text)) return false;
  if (!/^\p{L}/u.test(second.text)) return false;
  // What follows reads as words: a chain of formulas opening with "=" is no list.
  const rest = l.words
    .slice(1)
    .map((w) => w.text)
    .join(' ');
  const letters = rest.match(/\p{L}/gu)?.length ?? 0;
  const signs = rest.match(/[^\p{L}\p{N}\s.,;:'’-]/gu)?.length ?? 0;
  if (letters < 4 || letters < signs * 4) return false;
  // The marker stands apart from the text: a gap of at least a fifth of the row height.
  return second.bbox.x0 - first.bbox.x1 >= l.rowHeight * 0.2;
}

/**
 * The last line of the item a marker line opens: the lines below it that start right of its marker
 * (its wrapped text) and overlap it, each within a paragraph's spacing of the one above.
 */
function itemEnd(item: OcrLine, lines: OcrLine[], candidates: Set<OcrLine>): OcrLine {
  const marker = item.words[0]!.bbox;
  const h = item.rowHeight;
  let last = item;
  for (;;) {
    const next = lines.find(
      (l) =>
        !candidates.has(l) &&
        l.bbox.y0 > last.bbox.y0 &&
        l.bbox.y0 - last.bbox.y1 < LINE_GAP * h &&
        l.bbox.x0 >= marker.x1 - 0.2 * h &&
        l.bbox.x0 < item.bbox.x1,
    );
    if (!next) return last;
    last = next;
  }
}

/** Two lines opening with the same round bullet set a tab's width apart from their text (see ROUND). */
function tabbedPair(a: OcrLine, b: OcrLine): boolean {
  const tabbed = (l: OcrLine): boolean => l.words[1]!.bbox.x0 - l.words[0]!.bbox.x1 >= TAB_GAP * l.rowHeight;
  return a.words[0]!.text === b.words[0]!.text && ROUND.has(a.words[0]!.text) && tabbed(a) && tabbed(b);
}

/** Lines of `page` whose first word is a misread (or read) bullet, by the rule of the file comment. */
export function bulletLines(page: OcrPage): Set<OcrLine> {
  const lines: OcrLine[] = [];
  for (const b of page.blocks) for (const p of b.paragraphs) lines.push(...p.lines);
  lines.sort((a, b) => a.bbox.y0 - b.bbox.y0);
  const candidates = lines.filter(isCandidate);
  const isMarked = new Set(candidates);
  const out = new Set<OcrLine>();
  const used = new Set<OcrLine>();
  for (const start of candidates) {
    if (used.has(start)) continue;
    const run = [start];
    used.add(start);
    for (;;) {
      const last = run[run.length - 1]!;
      const h = last.rowHeight;
      const end = itemEnd(last, lines, isMarked);
      const lastMarker = last.words[0]!.bbox;
      const textStart = last.words[1]!.bbox.x0;
      // The next item: below the last one's end at list spacing, its marker level with one of the
      // list's (the same or an outer level) or nested under the item above.
      const next = candidates.find((c) => {
        if (used.has(c) || c.bbox.y0 <= end.bbox.y0 || c.bbox.y0 - end.bbox.y1 >= ITEM_GAP * h) return false;
        const x = c.words[0]!.bbox.x0;
        const level = run.some((r) => Math.abs(x - r.words[0]!.bbox.x0) < 0.6 * h);
        const nested = x > lastMarker.x1 && x < textStart + NEST_REACH * h;
        return level || nested;
      });
      if (!next) break;
      run.push(next);
      used.add(next);
    }
    if (run.length < MIN_LINES && !(run.length === 2 && tabbedPair(run[0]!, run[1]!))) continue;
    const marks = run.map((l) => l.words[0]!.text);
    if (!marks.some((m) => !/[\p{L}\p{N}]/u.test(m)) && !marks.every((m) => m === marks[0])) continue;
    for (const l of run) out.add(l);
  }
  return out;
}
