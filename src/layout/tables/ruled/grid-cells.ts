/**
 * A ruled grid to cells: the page's words placed in the grid's slots, slots that no rule (drawn, or
 * found in the whitespace) separates merged into spanning cells, empty slivers dropped, and the
 * tests that tell a framed page region from a table.
 */
import type { TableCell } from '../../../model/document.js';
import type { Word } from '../../lines.js';
import type { Box } from '../../types.js';
import { cellInlines, plainOf } from '../cell-text.js';
import type { FoundTable } from '../types.js';
import {
  EMPTY_SLIVER_MAX,
  FRAME_CELL_AREA_SHARE,
  FRAME_CELL_CHARS,
  FRAME_FULL_WIDTH_CELL_CHARS,
  GRID_SNAP,
  MAX_GRID_SLOTS,
  RULED_BOX_MAX_MEAN_CELL_CHARS,
  RULE_PROBE_SHARE,
  RULED_CONFIDENCE,
  VIRTUAL_ROW_MATCH,
} from '../thresholds.js';
import type { Rules, UnruledSplit } from './rules.js';

/** Slots of the grid merged into one cell: its first and last row and column, and its slots. */
interface Region {
  r0: number;
  c0: number;
  r1: number;
  c1: number;
  cells: number[];
}

/** The words in each slot of the grid (row by row), and all the words placed. */
function wordsBySlot(xs: number[], ys: number[], words: Word[]): { inCell: Word[][]; used: Set<Word> } {
  const nR = ys.length - 1,
    nC = xs.length - 1;
  const inCell: Word[][] = Array.from({ length: nR * nC }, () => []);
  const used = new Set<Word>();
  for (const w of words) {
    const cx = (w.x0 + w.x1) / 2,
      cy = (w.y0 + w.y1) / 2;
    if (cx < xs[0]! || cx > xs[nC]! || cy < ys[0]! || cy > ys[nR]!) continue;
    let c = 0;
    while (c < nC - 1 && cx > xs[c + 1]!) c++;
    let r = 0;
    while (r < nR - 1 && cy > ys[r + 1]!) r++;
    inCell[r * nC + c]!.push(w);
    used.add(w);
  }
  return { inCell, used };
}

/**
 * The cells of the grid: slots not separated by a rule (drawn, or an unruled split) merged. A merge
 * that is not a rectangle (a broken rule) falls back to one cell per slot.
 */
function mergedRegions(
  xs: number[],
  ys: number[],
  rules: Rules,
  virtualV: UnruledSplit[],
  virtualY: number[],
): Region[] {
  const { hs, vs, tol } = rules;
  const nR = ys.length - 1,
    nC = xs.length - 1;
  const isVirtual = (y: number): boolean => virtualY.some((v) => Math.abs(v - y) < VIRTUAL_ROW_MATCH);
  const vAt = (x: number, ya: number, yb: number): boolean =>
    virtualV.some((v) => Math.abs(v.x - x) <= GRID_SNAP && v.y0 <= ya + tol && v.y1 >= yb - tol) ||
    vs.some((s) => Math.abs(s.x0 - x) <= GRID_SNAP && s.y0 <= ya + tol && s.y1 >= yb - tol);
  const hAt = (y: number, xa: number, xb: number): boolean =>
    isVirtual(y) || hs.some((s) => Math.abs(s.y0 - y) <= GRID_SNAP && s.x0 <= xa + tol && s.x1 >= xb - tol);
  // Union cells not separated by a rule.
  const parent = Array.from({ length: nR * nC }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let r = 0; r < nR; r++) {
    for (let c = 0; c < nC; c++) {
      const ya = ys[r]!,
        yb = ys[r + 1]!,
        xa = xs[c]!,
        xb = xs[c + 1]!;
      const ym = (ya + yb) / 2,
        xm = (xa + xb) / 2;
      if (c + 1 < nC && !vAt(xs[c + 1]!, ym - (yb - ya) * RULE_PROBE_SHARE, ym + (yb - ya) * RULE_PROBE_SHARE))
        parent[find(r * nC + c)] = find(r * nC + c + 1);
      if (r + 1 < nR && !hAt(ys[r + 1]!, xm - (xb - xa) * RULE_PROBE_SHARE, xm + (xb - xa) * RULE_PROBE_SHARE))
        parent[find(r * nC + c)] = find((r + 1) * nC + c);
    }
  }
  const regions = new Map<number, Region>();
  for (let i = 0; i < nR * nC; i++) {
    const root = find(i);
    const r = Math.floor(i / nC),
      c = i % nC;
    const reg = regions.get(root);
    if (!reg) regions.set(root, { r0: r, c0: c, r1: r, c1: c, cells: [i] });
    else {
      reg.r0 = Math.min(reg.r0, r);
      reg.c0 = Math.min(reg.c0, c);
      reg.r1 = Math.max(reg.r1, r);
      reg.c1 = Math.max(reg.c1, c);
      reg.cells.push(i);
    }
  }
  // Non-rectangular merges (broken rules) fall back to one cell per grid slot.
  for (const reg of [...regions.values()]) {
    if (reg.cells.length !== (reg.r1 - reg.r0 + 1) * (reg.c1 - reg.c0 + 1)) {
      for (const i of reg.cells)
        regions.set(-1 - i, { r0: Math.floor(i / nC), c0: i % nC, r1: Math.floor(i / nC), c1: i % nC, cells: [i] });
      for (const [k, v] of regions) if (v === reg) regions.delete(k);
    }
  }
  return [...regions.values()];
}

/**
 * The index among the kept ones of each slot row or column (-1 for one dropped): empty slivers
 * (double rules make thin empty rows/columns) go.
 */
function keptIndices(hasText: boolean[], edges: number[]): { index: number[]; count: number } {
  const keep = hasText.map((has, r) => has || edges[r + 1]! - edges[r]! > EMPTY_SLIVER_MAX);
  const index: number[] = [];
  let k = 0;
  for (let r = 0; r < hasText.length; r++) index.push(keep[r] ? k++ : -1);
  return { index, count: k };
}

/** A ruled grid (`xs` its columns' edges, `ys` its rows', unruled splits included) to a table; null when it frames text. */
export function tableFromGrid(
  box: Box,
  xs: number[],
  ys: number[],
  rules: Rules,
  virtualV: UnruledSplit[],
  virtualY: number[],
  words: Word[],
): FoundTable | null {
  const nR = ys.length - 1,
    nC = xs.length - 1;
  if (nR * nC > MAX_GRID_SLOTS) return null;
  const { inCell, used } = wordsBySlot(xs, ys, words);
  if (used.size === 0) return null;
  const regs = mergedRegions(xs, ys, rules, virtualV, virtualY);
  if (regs.length === 1) return null; // one big box: a frame around text, not a table
  // Drop empty slivers (double rules make thin empty rows/columns).
  const rowHasText = Array.from({ length: nR }, (_, r) =>
    regs.some((g) => g.r0 === r && g.cells.some((i) => inCell[i]!.length > 0)),
  );
  const colHasText = Array.from({ length: nC }, (_, c) =>
    regs.some((g) => g.c0 === c && g.cells.some((i) => inCell[i]!.length > 0)),
  );
  const { index: rowIdx, count: nRows } = keptIndices(rowHasText, ys);
  const { index: colIdx, count: nCols } = keptIndices(colHasText, xs);
  if (nRows < 2 || nCols < 2) {
    if (nRows < 1 || nCols < 1) return null;
    // One row or one column of ruled boxes: a form row or a boxed list; only a table when several cells hold text.
    const filled = regs.filter((g) => g.cells.some((i) => inCell[i]!.length > 0)).length;
    if (filled < 3 || nRows * nCols < 3) return null;
  }
  const rows: TableCell[][] = Array.from({ length: nRows }, () => []);
  const ordered = regs.sort((a, b) => a.r0 - b.r0 || a.c0 - b.c0);
  let totalChars = 0,
    filledCount = 0;
  for (const g of ordered) {
    const keptRows = [] as number[];
    for (let r = g.r0; r <= g.r1; r++) if (rowIdx[r]! >= 0) keptRows.push(rowIdx[r]!);
    const keptCols = [] as number[];
    for (let c = g.c0; c <= g.c1; c++) if (colIdx[c]! >= 0) keptCols.push(colIdx[c]!);
    if (!keptRows.length || !keptCols.length) continue;
    const ws = g.cells.flatMap((i) => inCell[i]!);
    const content = cellInlines(ws);
    const text = plainOf(content);
    totalChars += text.length;
    if (text) filledCount++;
    const cell: TableCell = { content };
    if (keptCols.length > 1) cell.colSpan = keptCols.length;
    if (keptRows.length > 1) cell.rowSpan = keptRows.length;
    rows[keptRows[0]!]!.push(cell);
  }
  // A frame around a page region (a big cell full of running text) is not a table.
  const tableArea = (xs[nC]! - xs[0]!) * (ys[nR]! - ys[0]!);
  for (const g of ordered) {
    const area = (xs[g.c1 + 1]! - xs[g.c0]!) * (ys[g.r1 + 1]! - ys[g.r0]!);
    const chars = g.cells.reduce((n, i) => n + inCell[i]!.reduce((m, w) => m + w.text.length, 0), 0);
    if (area > tableArea * FRAME_CELL_AREA_SHARE && chars > FRAME_CELL_CHARS) return null;
    // A full-width cell holding a long paragraph: the rules frame a page region, not a table.
    if (g.c0 === 0 && g.c1 === nC - 1 && chars > FRAME_FULL_WIDTH_CELL_CHARS) return null;
  }
  // A ruled box around a few paragraphs (a sidebar, a form) is not a table.
  if (filledCount < 2 || totalChars / filledCount > RULED_BOX_MAX_MEAN_CELL_CHARS) return null;
  const columns = xs.slice(0, -1).flatMap((x, c) => (colIdx[c]! >= 0 ? [{ a: x, b: xs[c + 1]! }] : []));
  const rowBands = ys.slice(0, -1).flatMap((y, r) => (rowIdx[r]! >= 0 ? [{ a: y, b: ys[r + 1]! }] : []));
  return { ...box, rows, words: used, lines: new Set(), ruled: true, confidence: RULED_CONFIDENCE, columns, rowBands };
}
