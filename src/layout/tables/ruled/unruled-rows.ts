/**
 * Rows of a ruled table that no rule divides (only a rule under the header): a grid row is split at
 * the text lines that run across several of its columns.
 */
import { ENDS_ON_JOINING_WORD, type Word } from '../../lines.js';
import { wordsWithin } from '../geometry.js';
import {
  BAND_OVERLAP_SHARE,
  GROUP_HEAD_MIN_COLUMNS,
  WORD_ACROSS_CUT_MARGIN,
  WRAPPED_TEXT_CELL_CHARS,
} from '../thresholds.js';
import type { UnruledSplit } from './rules.js';

/** A text line of a grid row: from y0 down to y1, and the columns its words fall in. */
interface TextBand {
  y0: number;
  y1: number;
  cols: Set<number>;
}

/** The words of a grid row (`inRow`) as text lines, top to bottom, with the columns (edges `xs`) each reaches. */
function textBands(inRow: Word[], xs: number[]): TextBand[] {
  const bands: TextBand[] = [];
  for (const w of [...inRow].sort((a, b) => a.y0 - b.y0)) {
    const cx = (w.x0 + w.x1) / 2;
    let c = 0;
    while (c < xs.length - 2 && cx > xs[c + 1]!) c++;
    const last = bands[bands.length - 1];
    const h = w.y1 - w.y0;
    if (last && w.y0 < last.y1 - h * BAND_OVERLAP_SHARE) {
      last.y1 = Math.max(last.y1, w.y1);
      last.cols.add(c);
    } else bands.push({ y0: w.y0, y1: w.y1, cols: new Set([c]) });
  }
  return bands;
}

/** The words of `inRow` whose centres lie within a band's height. */
function wordsInBand(inRow: Word[], b: { y0: number; y1: number }): Word[] {
  return inRow.filter((w) => {
    const cy = (w.y0 + w.y1) / 2;
    return cy >= b.y0 && cy <= b.y1;
  });
}

/**
 * A head of two lines where the upper one holds a group label set across several columns
 * ("Top-20" over "NQ TriviaQA WQ TREC SQuAD") and the lower one a head for each column: two
 * rows, the label a cell spanning its columns, the lower line split at every column it passes.
 * The y that parts the two lines, with the splits of the lower line added to `virtualV`; null when
 * the head is not set that way.
 */
function splitUnderGroupHead(
  bands: TextBand[],
  inRow: Word[],
  xs: number[],
  rowBottom: number,
  virtualV: UnruledSplit[],
): number | null {
  const inner = xs.slice(1, -1);
  const across = (w: Word): boolean =>
    inner.some((x) => w.x0 < x - WORD_ACROSS_CUT_MARGIN && w.x1 > x + WORD_ACROSS_CUT_MARGIN);
  const upper = wordsInBand(inRow, bands[0]!),
    lower = wordsInBand(inRow, bands[1]!);
  if (!(upper.some(across) && !lower.some(across) && bands[1]!.cols.size >= GROUP_HEAD_MIN_COLUMNS)) return null;
  const y = (bands[0]!.y1 + bands[1]!.y0) / 2;
  for (const x of inner)
    if (lower.some((w) => w.x1 <= x) && lower.some((w) => w.x0 >= x)) virtualV.push({ x, y0: y, y1: rowBottom });
  return y;
}

/**
 * Where a grid row's text lines (`bands`) start rows of their own: between lines that start a new
 * row in the key column (the first with a line per row), where no cell's text goes on from one line
 * into the next. None when the lines are running text wrapped inside a cell.
 */
function rowStartsInGroup(bands: TextBand[], inRow: Word[], xs: number[]): number[] {
  const colBands = new Map<number, number>();
  for (const b of bands) for (const c of b.cols) colBands.set(c, (colBands.get(c) ?? 0) + 1);
  const multi = [...colBands.values()].filter((n) => n >= 2).length;
  // The key column: the first with a line per row. Columns left of it may hold one label set
  // beside the group of rows ("Single" beside its two rows).
  const cols = [...colBands.keys()].sort((a, b) => a - b);
  const key = cols.find((c) => colBands.get(c)! >= 2);
  if (key === undefined || cols.some((c) => c < key && colBands.get(c)! !== 1)) return [];
  if (!(multi >= Math.max(2, Math.ceil(colBands.size * 0.5)))) return [];
  // Lines of running text wrapped inside a cell are not rows.
  const lineChars = bands.map(
    (b) => wordsInBand(inRow, b).reduce((n, w) => n + w.text.length + 1, 0) / Math.max(1, b.cols.size),
  );
  lineChars.sort((a, b) => a - b);
  if (lineChars[Math.floor(lineChars.length / 2)]! > WRAPPED_TEXT_CELL_CHARS) return [];
  // A band's text in one column, left to right.
  const textIn = (b: { y0: number; y1: number }, c: number): string =>
    inRow
      .filter((w) => {
        const cy = (w.y0 + w.y1) / 2,
          cx = (w.x0 + w.x1) / 2;
        return cy >= b.y0 && cy <= b.y1 && cx > xs[c]! && cx <= xs[c + 1]!;
      })
      .sort((p, q) => p.x0 - q.x0)
      .map((w) => w.text)
      .join(' ');
  const out: number[] = [];
  for (let k = 0; k + 1 < bands.length; k++) {
    // Only between bands that start a new row in the first column (wrapped cells stay whole).
    if (!bands[k + 1]!.cols.has(key)) continue;
    // Nor where a cell's text goes on from one band into the next ("... on the loading bay and"
    // over "record the inspection ..."): a wrapped cell beside an empty first one.
    const goesOn =
      !bands[k + 1]!.cols.has(cols[0]!) &&
      [...bands[k + 1]!.cols].some((c) => {
        if (!bands[k]!.cols.has(c)) return false;
        const a = textIn(bands[k]!, c),
          b = textIn(bands[k + 1]!, c);
        // (Words, not a dash or a figure standing for a value.)
        return (
          /\p{L}{2}/u.test(a) &&
          /\p{L}{2}/u.test(b) &&
          (/^\p{Ll}/u.test(b) || /\p{L}[-,;/&]$/u.test(a) || ENDS_ON_JOINING_WORD.test(a))
        );
      });
    if (goesOn) continue;
    out.push((bands[k]!.y1 + bands[k + 1]!.y0) / 2);
  }
  return out;
}

/**
 * Rows without rules between them (only a rule under the header): the ys where a grid row (edges
 * `ys`, columns' edges `xs`) splits at the text lines that run across several of its columns. Splits
 * of a head's lower line under a group label are added to `virtualV`.
 */
export function unruledRowSplits(xs: number[], ys: number[], words: Word[], virtualV: UnruledSplit[]): number[] {
  const virtualY: number[] = [];
  for (let r = 0; r + 1 < ys.length; r++) {
    const inRow = wordsWithin(words, xs[0]!, xs[xs.length - 1]!, ys[r]!, ys[r + 1]!);
    if (inRow.length < 2) continue;
    const bands = textBands(inRow, xs);
    if (bands.length < 2) continue;
    if (r === 0 && bands.length === 2) {
      const y = splitUnderGroupHead(bands, inRow, xs, ys[r + 1]!, virtualV);
      if (y !== null) {
        virtualY.push(y);
        continue;
      }
    }
    virtualY.push(...rowStartsInGroup(bands, inRow, xs));
  }
  return virtualY;
}
