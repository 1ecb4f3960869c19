/**
 * Ruled tables: a cell grid from the page's horizontal and vertical rules (merged cells where a rule
 * is missing, columns and rows that whitespace shows where no rule is drawn), and the stacks of
 * horizontal rules (booktabs style) that the aligned-text finder uses.
 */
import type { Word } from '../../lines.js';
import type { Box, Segment } from '../../types.js';
import { clusterValues } from '../geometry.js';
import {
  DECORATION_BAR_WIDTH,
  FRAME_SIDE_SHARE,
  FRAME_SIDE_TOL,
  GRID_SNAP,
  MAX_RULE_GROUPS_EXAMINED,
  MAX_RULE_SEGMENTS,
  PAGE_FRAME_HEIGHT_SHARE,
  PAGE_FRAME_WIDTH_SHARE,
  RULE_END_TOL,
  RULE_MAX_THICKNESS,
  RULE_MIN_LENGTH,
  RULE_STACK_ALIGN,
  RULE_STACK_MAX_STEP,
  RULE_STACK_MIN_HEIGHT,
  RULE_STACK_MIN_LENGTH,
  RULE_STACK_PAGE_BOTTOM,
  RULE_STACK_PAGE_TOP,
} from '../thresholds.js';
import type { FoundTable } from '../types.js';
import { framesText } from './frame.js';
import { tableFromGrid } from './grid-cells.js';
import type { Rules } from './rules.js';
import { connectedGroups, dedupeBoxes, mergeCollinear, type Seg } from './segments.js';
import { unruledColumnSplits } from './unruled-columns.js';
import { unruledRowSplits } from './unruled-rows.js';

/** A group of touching rules (horizontal `hs`, vertical `vs`) spanning `box` as a table; null when it is none. */
function gridTable(hs: Seg[], vs: Seg[], box: Box, words: Word[], tol: number): FoundTable | null {
  // The group's outer extent bounds the grid even where no rule is drawn there (open-sided tables).
  const xs = clusterValues([...vs.map((s) => s.x0), box.x0, box.x1], GRID_SNAP);
  const ys = clusterValues([...hs.map((s) => s.y0), box.y0, box.y1], GRID_SNAP);
  if (xs.length < 2 || ys.length < 2) return null;
  const rules: Rules = { hs, vs, tol };
  if (framesText(xs, ys, rules, words)) return null;
  const virtualV = unruledColumnSplits(xs, ys, rules, words);
  if (virtualV.length) {
    const merged = clusterValues([...xs, ...virtualV.map((v) => v.x)], GRID_SNAP);
    xs.length = 0;
    xs.push(...merged);
  }
  const virtualY = unruledRowSplits(xs, ys, words, virtualV);
  if (virtualY.length) {
    ys.push(...virtualY);
    ys.sort((a, b) => a - b);
  }
  return tableFromGrid(box, xs, ys, rules, virtualV, virtualY, words);
}

/** The page's thin segments as rules: thick bars are decoration, and only so many are looked at. */
function rulesOf(segments: Segment[]): Seg[] {
  let segs: Seg[] = [];
  for (const s of segments) {
    const w = s.x1 - s.x0,
      h = s.y1 - s.y0;
    if (s.width > DECORATION_BAR_WIDTH) continue; // thick bars are decoration, not rules
    if (h <= RULE_MAX_THICKNESS && w >= RULE_MIN_LENGTH)
      segs.push({ x0: s.x0, x1: s.x1, y0: (s.y0 + s.y1) / 2, y1: (s.y0 + s.y1) / 2, h: true });
    else if (w <= RULE_MAX_THICKNESS && h >= RULE_MIN_LENGTH)
      segs.push({ x0: (s.x0 + s.x1) / 2, x1: (s.x0 + s.x1) / 2, y0: s.y0, y1: s.y1, h: false });
  }
  if (segs.length > MAX_RULE_SEGMENTS) segs = segs.slice(0, MAX_RULE_SEGMENTS);
  return segs;
}

/**
 * Horizontal-only rules (booktabs style): stacks of parallel full-width rules, for the aligned-text finder.
 * Rules under a running header or over a footer are not table rules; nor are the rules of a ruled table.
 */
function ruleStacks(segs: Seg[], tables: FoundTable[], pageH: number, tol: number): Box[] {
  const hRuleGroups: Box[] = [];
  const hOnly = segs
    .filter(
      (s) =>
        s.h &&
        s.x1 - s.x0 > RULE_STACK_MIN_LENGTH &&
        s.y0 > pageH * RULE_STACK_PAGE_TOP &&
        s.y0 < pageH * RULE_STACK_PAGE_BOTTOM,
    )
    .sort((a, b) => a.y0 - b.y0);
  for (let i = 0; i < hOnly.length; i++) {
    const a = hOnly[i]!;
    // Parallel rules of one width, each within a short distance of the previous one.
    const same: Seg[] = [a];
    for (const b of hOnly) {
      if (
        b.y0 <= same[same.length - 1]!.y0 ||
        Math.abs(b.x0 - a.x0) >= RULE_STACK_ALIGN ||
        Math.abs(b.x1 - a.x1) >= RULE_STACK_ALIGN
      )
        continue;
      if (b.y0 - same[same.length - 1]!.y0 > RULE_STACK_MAX_STEP) break;
      same.push(b);
    }
    if (same.length >= 2) {
      const last = same[same.length - 1]!;
      if (last.y0 - a.y0 > RULE_STACK_MIN_HEIGHT && !tables.some((t) => t.y0 <= a.y0 + tol && t.y1 >= last.y0 - tol)) {
        hRuleGroups.push({ x0: a.x0, x1: a.x1, y0: a.y0, y1: last.y0 });
      }
    }
  }
  return dedupeBoxes(hRuleGroups);
}

export function findRuledTables(
  segments: Segment[],
  words: Word[],
  pageW: number,
  pageH: number,
): { tables: FoundTable[]; hRuleGroups: Box[] } {
  const tol = RULE_END_TOL;
  const segs = mergeCollinear(rulesOf(segments), tol);
  const tables: FoundTable[] = [];
  // Groups of touching segments; a group that is only a frame around content is peeled (its border
  // dropped) and what is inside is grouped again: frames often enclose the real table.
  const work: Seg[][] = connectedGroups(segs, tol * 2);
  let guard = 0;
  while (work.length && guard++ < MAX_RULE_GROUPS_EXAMINED) {
    const g = work.shift()!;
    const hs = g.filter((s) => s.h);
    const vs = g.filter((s) => !s.h);
    if (vs.length < 1 || hs.length < 1 || g.length < 3) continue;
    const box = {
      x0: Math.min(...g.map((s) => s.x0)),
      y0: Math.min(...g.map((s) => s.y0)),
      x1: Math.max(...g.map((s) => s.x1)),
      y1: Math.max(...g.map((s) => s.y1)),
    };
    const pageFrame =
      box.x1 - box.x0 > pageW * PAGE_FRAME_WIDTH_SHARE && box.y1 - box.y0 > pageH * PAGE_FRAME_HEIGHT_SHARE;
    const t = !pageFrame && vs.length >= 1 && hs.length >= 2 ? gridTable(hs, vs, box, words, tol) : null;
    if (t) {
      tables.push(t);
      continue;
    }
    const inner = g.filter(
      (s) =>
        !(s.h
          ? (Math.abs(s.y0 - box.y0) <= FRAME_SIDE_TOL || Math.abs(s.y0 - box.y1) <= FRAME_SIDE_TOL) &&
            s.x1 - s.x0 >= (box.x1 - box.x0) * FRAME_SIDE_SHARE
          : (Math.abs(s.x0 - box.x0) <= FRAME_SIDE_TOL || Math.abs(s.x0 - box.x1) <= FRAME_SIDE_TOL) &&
            s.y1 - s.y0 >= (box.y1 - box.y0) * FRAME_SIDE_SHARE),
    );
    if (inner.length && inner.length < g.length) work.push(...connectedGroups(inner, tol * 2));
  }
  return { tables, hRuleGroups: ruleStacks(segs, tables, pageH, tol) };
}
