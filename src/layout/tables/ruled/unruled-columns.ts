/**
 * Columns of a ruled table that no rule divides: whitespace running down the text of a ruled cell,
 * or of a ruled column, splits it.
 */
import type { Word } from '../../lines.js';
import { MARK_WORD, NUMBER_WORD } from '../figures.js';
import { linesOf, medianSize, whitespaceRivers, wordsWithin } from '../geometry.js';
import {
  GRID_SNAP,
  GROUP_SPLIT_MIN_GAP,
  GROUP_SPLIT_MIN_GAP_EM,
  GROUP_SPLIT_MIN_WORDS,
  HEAD_SPLIT_MIN_GAP_EM,
  WHOLE_COLUMN_SPLIT_MIN_GAP,
  WHOLE_COLUMN_SPLIT_MIN_GAP_EM,
  WHOLE_COLUMN_SPLIT_MIN_LINES,
  WHOLE_COLUMN_SPLIT_MIN_WORDS,
} from '../thresholds.js';
import { ruleDownAt, type Rules, type UnruledSplit } from './rules.js';

/**
 * Columns without rules between them: whitespace running down a ruled cell's text from top to
 * bottom splits it; the split holds only within that cell (elsewhere the slots merge back).
 */
function splitsInRowGroups(xs: number[], ys: number[], rules: Rules, words: Word[]): UnruledSplit[] {
  const virtualV: UnruledSplit[] = [];
  for (let r = 0; r + 1 < ys.length; r++) {
    // Within each run of slots that no rule separates in this row: a rule drawn in some rows only
    // (around a total's label) leaves the others one region, whose own whitespace tells its columns.
    const ym = (ys[r]! + ys[r + 1]!) / 2;
    const spans: Array<[number, number]> = [];
    for (let c = 0, from = 0; c + 1 < xs.length; c++) {
      if (c + 2 < xs.length && !ruleDownAt(rules, xs[c + 1]!, ym - 1, ym + 1)) continue;
      spans.push([xs[from]!, xs[c + 1]!]);
      from = c + 1;
    }
    for (const [xa, xb] of spans) {
      const ws = wordsWithin(words, xa, xb, ys[r]!, ys[r + 1]!);
      if (ws.length < GROUP_SPLIT_MIN_WORDS) continue;
      for (const v of whitespaceRivers(ws, Math.max(GROUP_SPLIT_MIN_GAP, medianSize(ws) * GROUP_SPLIT_MIN_GAP_EM))) {
        if (v.left.length >= 2 && v.right.length >= 2 && linesOf(v.left) >= 2 && linesOf(v.right) >= 2)
          virtualV.push({ x: v.x, y0: ys[r]!, y1: ys[r + 1]! });
      }
    }
  }
  return virtualV;
}

/**
 * The top of a column's body under the row groups that split it on their own (its head): the bottom
 * of the lowest of them. Null when fewer than WHOLE_COLUMN_SPLIT_MIN_LINES row groups are left under
 * it (too few to show columns of their own).
 */
function bodyTop(xs: number[], ys: number[], c: number, virtualV: UnruledSplit[]): number | null {
  const own = virtualV.filter((v) => v.x > xs[c]! && v.x < xs[c + 1]!);
  const bottom = Math.max(...own.map((v) => v.y1));
  const r = ys.findIndex((y) => Math.abs(y - bottom) <= GRID_SNAP);
  if (r < 0 || ys.length - 1 - r < WHOLE_COLUMN_SPLIT_MIN_LINES) return null;
  return ys[r]!;
}

/**
 * Whitespace running down a ruled column through all its row groups, with words on either side in
 * three or more lines: sub-columns whose row groups are too short to show it alone (a label set
 * once beside a group of lines, such as "Single" beside "DPR" and "BM25 + DPR").
 * Only columns that no row group split: where some did, their splits are the column's own.
 * Added to `virtualV`.
 */
function addWholeColumnSplits(xs: number[], ys: number[], tol: number, words: Word[], virtualV: UnruledSplit[]): void {
  const splitAlone = new Set(
    virtualV.map((v) => xs.findIndex((x, k) => k + 1 < xs.length && v.x > x && v.x < xs[k + 1]!)),
  );
  for (let c = 0; c + 1 < xs.length; c++) {
    // Where row groups at the top (the head) split the column, the body under them may still show
    // its own columns down all its rows (one line to a ruled row shows none alone); the head's
    // splits are the body's too, and spreading takes the body's into the head.
    const top = splitAlone.has(c) ? bodyTop(xs, ys, c, virtualV) : ys[0]!;
    if (top === null) continue;
    const ws = wordsWithin(words, xs[c]!, xs[c + 1]!, top, ys[ys.length - 1]!);
    if (ws.length < WHOLE_COLUMN_SPLIT_MIN_WORDS) continue;
    // Narrower than within one group: clear down the whole table is evidence enough.
    for (const v of whitespaceRivers(
      ws,
      Math.max(WHOLE_COLUMN_SPLIT_MIN_GAP, medianSize(ws) * WHOLE_COLUMN_SPLIT_MIN_GAP_EM),
    )) {
      if (
        linesOf(v.left) >= WHOLE_COLUMN_SPLIT_MIN_LINES &&
        linesOf(v.right) >= WHOLE_COLUMN_SPLIT_MIN_LINES &&
        !virtualV.some((o) => Math.abs(o.x - v.x) <= GRID_SNAP && o.y0 <= top + tol && o.y1 >= ys[ys.length - 1]! - tol)
      ) {
        // A head's split in the same strip of whitespace is the same boundary, moved to the body's.
        const reach = Math.max(...v.left.map((w) => w.x1)),
          next = Math.min(...v.right.map((w) => w.x0));
        for (const o of virtualV) if (o.y1 <= top + tol && o.x > reach && o.x < next) o.x = v.x;
        virtualV.push({ x: v.x, y0: top, y1: ys[ys.length - 1]! });
      }
    }
  }
}

/**
 * A split found in one ruled row group holds in the others of the same column where their cells
 * are figures that it passes between, or a head whose words stand apart across it (a one-line group
 * such as a baseline row or the head has too few lines to show the split itself). Added to `virtualV`.
 */
function spreadSplitsDownColumns(
  xs: number[],
  ys: number[],
  tol: number,
  words: Word[],
  virtualV: UnruledSplit[],
): void {
  const found = [...virtualV];
  for (const v of found) {
    for (let r = 0; r + 1 < ys.length; r++) {
      if (ys[r]! >= v.y0 - tol && ys[r + 1]! <= v.y1 + tol) continue;
      if (virtualV.some((o) => Math.abs(o.x - v.x) <= GRID_SNAP && o.y0 <= ys[r]! + tol && o.y1 >= ys[r + 1]! - tol))
        continue;
      const c = xs.findIndex((x, k) => k + 1 < xs.length && v.x > x && v.x < xs[k + 1]!);
      if (c < 0) continue;
      const ws = wordsWithin(words, xs[c]!, xs[c + 1]!, ys[r]!, ys[r + 1]!);
      if (!ws.length || ws.some((w) => w.x0 < v.x && w.x1 > v.x)) continue;
      const bothSides = ws.some((w) => w.x1 <= v.x) && ws.some((w) => w.x0 >= v.x);
      // Figures (on one side only too: a total in the last column of a ruled row of its own), or a
      // head line whose words stand apart across the split (more than a word space: "Area" and
      // "Hectares" over their columns, not a title running across them).
      if (!ws.every((w) => NUMBER_WORD.test(w.text) || MARK_WORD.test(w.text))) {
        if (!bothSides) continue;
        const gap =
          Math.min(...ws.filter((w) => w.x0 >= v.x).map((w) => w.x0)) -
          Math.max(...ws.filter((w) => w.x1 <= v.x).map((w) => w.x1));
        // (Where a head word runs across another split of the column, the head has group labels
        // set over several columns, and its cells span them.)
        const head =
          linesOf(ws) <= 2 &&
          gap >= medianSize(ws) * HEAD_SPLIT_MIN_GAP_EM &&
          !ws.some((w) => found.some((o) => o.x > xs[c]! && o.x < xs[c + 1]! && w.x0 < o.x && w.x1 > o.x));
        if (!head) continue;
      }
      virtualV.push({ x: v.x, y0: ys[r]!, y1: ys[r + 1]! });
    }
  }
}

/** The splits of the ruled grid (`xs` its columns' edges, `ys` its rows') that whitespace shows and no rule draws. */
export function unruledColumnSplits(xs: number[], ys: number[], rules: Rules, words: Word[]): UnruledSplit[] {
  const virtualV = splitsInRowGroups(xs, ys, rules, words);
  addWholeColumnSplits(xs, ys, rules.tol, words, virtualV);
  if (virtualV.length) spreadSplitsDownColumns(xs, ys, rules.tol, words, virtualV);
  return virtualV;
}
