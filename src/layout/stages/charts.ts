/**
 * Charts drawn with vector paths, found among the page's rules and filled boxes: their tick labels
 * and legend are part of the figure.
 */
import { CAPTION_RE, type FoundTable } from '../tables.js';
import {
  CHART_CLUSTER_GAP,
  CHART_MAX_BOX_AREA,
  CHART_MAX_GRAPHICS,
  CHART_MIN_AREA,
  CHART_MIN_HEIGHT,
  CHART_MIN_WIDTH,
  DEFAULT_PAGE_HEIGHT,
  DEFAULT_PAGE_WIDTH,
} from '../thresholds.js';
import type { Box, PageInput } from '../types.js';
import { grow, type TextBlock } from './elements.js';

/** A chart: its box (labels and legend included) and the text blocks that are its labels. */
export interface Chart extends Box {
  labels: TextBlock[];
}

/** A rule (a segment) or a filled box drawn on the page. */
interface G extends Box {
  filled: boolean;
  seg: boolean;
}

/** The candidate for a chart: its box, and whether it is a grid of rules (nothing may be written inside). */
interface Candidate {
  box: Box;
  grid: boolean;
}

/** Filled boxes (no larger than a third of the page) and rules of the page, outside ruled tables. */
function graphicsOf(page: PageInput, ruled: FoundTable[], W: number, H: number): G[] {
  const gs: G[] = [];
  const inRuled = (b: Box): boolean =>
    ruled.some((t) => b.x0 >= t.x0 - 2 && b.x1 <= t.x1 + 2 && b.y0 >= t.y0 - 2 && b.y1 <= t.y1 + 2);
  for (const r of page.rects) {
    if (!r.filled || (r.x1 - r.x0) * (r.y1 - r.y0) > W * H * CHART_MAX_BOX_AREA || inRuled(r)) continue;
    gs.push({ x0: r.x0, y0: r.y0, x1: r.x1, y1: r.y1, filled: true, seg: false });
  }
  for (const l of page.lines) {
    if (inRuled(l)) continue;
    gs.push({
      x0: Math.min(l.x0, l.x1),
      y0: Math.min(l.y0, l.y1),
      x1: Math.max(l.x0, l.x1),
      y1: Math.max(l.y0, l.y1),
      filled: false,
      seg: true,
    });
  }
  return gs;
}

/**
 * Grids: four or more rules of one extent, evenly spaced (horizontal or vertical), with a scale of
 * numbers written beside them.
 */
function gridCandidates(gs: G[], blocks: TextBlock[]): Candidate[] {
  const candidates: Candidate[] = [];
  for (const horizontal of [true, false]) {
    const groups = new Map<string, G[]>();
    for (const g of gs) {
      if (!g.seg || (horizontal ? g.y1 - g.y0 > 1 || g.x1 - g.x0 < 60 : g.x1 - g.x0 > 1 || g.y1 - g.y0 < 40)) continue;
      const k = horizontal
        ? `${Math.round(g.x0 / 4)}|${Math.round(g.x1 / 4)}`
        : `${Math.round(g.y0 / 4)}|${Math.round(g.y1 / 4)}`;
      (groups.get(k) ?? groups.set(k, []).get(k)!).push(g);
    }
    for (const grp of groups.values()) {
      if (grp.length < 4) continue;
      const pos = [...new Set(grp.map((g) => Math.round(horizontal ? g.y0 : g.x0)))].sort((a, b) => a - b);
      if (pos.length < 4) continue;
      const gaps = pos.slice(1).map((v, i) => v - pos[i]!);
      const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
      if (mean < 8 || gaps.some((d) => Math.abs(d - mean) > mean * 0.2)) continue;
      // The value axis: numbers written level with three or more of the rules, just outside the
      // grid (lines of a form to write on have words beside them, not a scale).
      const bx0 = Math.min(...grp.map((g) => g.x0)),
        by0 = Math.min(...grp.map((g) => g.y0)),
        bx1 = Math.max(...grp.map((g) => g.x1)),
        by1 = Math.max(...grp.map((g) => g.y1));
      const scale = blocks.filter(
        (b) =>
          b.lines.length === 1 &&
          /^[-−+$€£]?\d[\d.,]*\s*[%kKmM]?$/.test(b.lines[0]!.text.trim()) &&
          pos.some((v) =>
            horizontal
              ? Math.abs((b.y0 + b.y1) / 2 - v) < Math.max(3, b.size * 0.6) &&
                (b.x1 <= bx0 + 2 || b.x0 >= bx1 - 2) &&
                Math.min(Math.abs(b.x1 - bx0), Math.abs(b.x0 - bx1)) < b.size * 4
              : Math.abs((b.x0 + b.x1) / 2 - v) < Math.max(4, b.size) &&
                (b.y0 >= by1 - 2 || b.y1 <= by0 + 2) &&
                Math.min(Math.abs(b.y0 - by1), Math.abs(b.y1 - by0)) < b.size * 3,
          ),
      ).length;
      if (scale < 3) continue;
      candidates.push({ box: { x0: bx0, y0: by0, x1: bx1, y1: by1 }, grid: true });
    }
  }
  return candidates;
}

/**
 * Whether cluster c of graphics is a chart: large enough, with bars standing on a common base or an
 * axis with tick marks. Its box when it is, or null.
 */
function chartBox(c: G[], W: number, H: number): Box | null {
  if (c.length < 4) return null;
  const box = {
    x0: Math.min(...c.map((g) => g.x0)),
    y0: Math.min(...c.map((g) => g.y0)),
    x1: Math.max(...c.map((g) => g.x1)),
    y1: Math.max(...c.map((g) => g.y1)),
  };
  const w = box.x1 - box.x0,
    h = box.y1 - box.y0;
  if (w < CHART_MIN_WIDTH || h < CHART_MIN_HEIGHT || w * h < W * H * CHART_MIN_AREA) return null;
  // Bars: three or more filled boxes standing on one base line (vertical or horizontal bars).
  const bars = c.filter((g) => g.filled && g.x1 - g.x0 >= 2 && g.y1 - g.y0 >= 2);
  // Bars of one height on one base are a row of boxes (a form, a header band, a table's shaded
  // cells, each row of them as tall as its row), not data: three bars or more on one base, of
  // two lengths or more.
  const standOnBase = (base: (g: G) => number, length: (g: G) => number): boolean => {
    const m = new Map<number, Set<number>>();
    const count = new Map<number, number>();
    for (const g of bars) {
      const k = Math.round(base(g));
      (m.get(k) ?? m.set(k, new Set()).get(k)!).add(Math.round(length(g)));
      count.set(k, (count.get(k) ?? 0) + 1);
    }
    return [...m].some(([k, lengths]) => count.get(k)! >= 3 && lengths.size >= 2);
  };
  const barLike =
    bars.length >= 3 &&
    (standOnBase(
      (g) => g.y1,
      (g) => g.y1 - g.y0,
    ) ||
      standOnBase(
        (g) => g.x0,
        (g) => g.x1 - g.x0,
      ));
  // An axis: a long rule with three or more short tick marks across it.
  const segs = c.filter((g) => g.seg);
  const ticks = (axis: G): number => {
    const horizontal = axis.x1 - axis.x0 >= axis.y1 - axis.y0;
    return segs.filter(
      (t) =>
        t !== axis &&
        (horizontal
          ? t.x1 - t.x0 < 1 &&
            t.y1 - t.y0 <= 10 &&
            t.x0 >= axis.x0 - 1 &&
            t.x0 <= axis.x1 + 1 &&
            t.y0 <= axis.y0 + 1 &&
            t.y1 >= axis.y0 - 1
          : t.y1 - t.y0 < 1 &&
            t.x1 - t.x0 <= 10 &&
            t.y0 >= axis.y0 - 1 &&
            t.y0 <= axis.y1 + 1 &&
            t.x0 <= axis.x0 + 1 &&
            t.x1 >= axis.x0 - 1),
    ).length;
  };
  const axisLike = segs.some((a) => Math.max(a.x1 - a.x0, a.y1 - a.y0) >= Math.min(w, h) * 0.5 && ticks(a) >= 3);
  return barLike || axisLike ? box : null;
}

/** Bars or tick marks: clusters of graphics standing close together that look like a chart. */
function clusterCandidates(gs: G[], W: number, H: number): Candidate[] {
  const candidates: Candidate[] = [];
  // Bars or tick marks: pages of table rules alone are passed over without clustering.
  let small = 0,
    filled = 0;
  for (const g of gs) {
    if (g.filled) filled++;
    else if (Math.max(g.x1 - g.x0, g.y1 - g.y0) <= 10) small++;
  }
  if (filled >= 3 || small >= 3) {
    // Clusters of graphics standing close together (sweep over x: only boxes that can touch are compared).
    gs.sort((a, b) => a.x0 - b.x0);
    const parent = gs.map((_, i) => i);
    const find = (i: number): number => {
      while (parent[i] !== i) {
        parent[i] = parent[parent[i]!]!;
        i = parent[i]!;
      }
      return i;
    };
    const near = CHART_CLUSTER_GAP;
    for (let i = 0; i < gs.length; i++) {
      const a = gs[i]!;
      for (let j = i + 1; j < gs.length && gs[j]!.x0 - near <= a.x1; j++) {
        const b = gs[j]!;
        if (a.y0 - near <= b.y1 && b.y0 - near <= a.y1) parent[find(i)] = find(j);
      }
    }
    const clusters = new Map<number, G[]>();
    gs.forEach((g, i) => {
      const r = find(i);
      (clusters.get(r) ?? clusters.set(r, []).get(r)!).push(g);
    });
    for (const c of clusters.values()) {
      const box = chartBox(c, W, H);
      if (box) candidates.push({ box, grid: false });
    }
  }
  return candidates;
}

/** The candidates with their labels and legend: a chart has two labels or more and no prose inside. */
function chartsOf(candidates: Candidate[], blocks: TextBlock[]): Chart[] {
  const out: Chart[] = [];
  for (const { box, grid } of candidates) {
    if (out.some((c) => box.x0 >= c.x0 - 2 && box.x1 <= c.x1 + 2 && box.y0 >= c.y0 - 2 && box.y1 <= c.y1 + 2)) continue;
    // Text inside the chart or at its edges: only short labels; a sentence inside means a diagram
    // with prose (or a table), left alone. Between the rules of a grid nothing may be written at
    // all (rules under every row of a table have text between them).
    const labels: TextBlock[] = [];
    let reject = false;
    for (const b of blocks) {
      const m = b.size * 2.5;
      if (b.x1 < box.x0 - m || b.x0 > box.x1 + m || b.y1 < box.y0 - m || b.y0 > box.y1 + m) continue;
      const cx = (b.x0 + b.x1) / 2,
        cy = (b.y0 + b.y1) / 2;
      const inside = cx > box.x0 && cx < box.x1 && cy > box.y0 && cy < box.y1;
      if (grid && inside && cx > box.x0 + 4 && cx < box.x1 - 4 && cy > box.y0 + 4 && cy < box.y1 - 4) {
        reject = true;
        break;
      }
      const short =
        b.lines.length <= 2 && b.lines.every((l) => l.text.length <= 30 && l.text.split(' ').length <= 4) && !b.marker;
      if (!short) {
        if (inside) {
          reject = true;
          break;
        }
        continue;
      }
      if (CAPTION_RE.test(b.lines[0]!.text)) continue;
      labels.push(b);
    }
    if (reject || labels.length < 2) continue;
    const chart: Chart = { ...box, labels };
    for (const l of labels) grow(chart, l);
    // A legend beside the plot: single short lines in the labels' face, level with the chart.
    const labelSize = Math.max(...labels.map((l) => l.size));
    for (const b of blocks) {
      if (labels.includes(b) || b.lines.length > 1 || b.marker || b.size > labelSize * 1.1) continue;
      const t = b.lines[0]!.text;
      if (t.length > 30 || t.split(' ').length > 4 || CAPTION_RE.test(t)) continue;
      const cy = (b.y0 + b.y1) / 2;
      if (cy < chart.y0 || cy > chart.y1 || Math.max(b.x0 - chart.x1, chart.x0 - b.x1) > b.size * 6) continue;
      labels.push(b);
      grow(chart, b);
    }
    out.push(chart);
  }
  return out;
}

/**
 * Charts drawn with vector paths: a cluster of rules and filled boxes that has bars standing on a
 * common base or an axis with tick marks, or a grid of evenly spaced parallel rules with nothing
 * written between them; with only short labels inside or at its edges.
 */
export function findCharts(page: PageInput, blocks: TextBlock[], ruled: FoundTable[]): Chart[] {
  const W = page.width || DEFAULT_PAGE_WIDTH,
    H = page.height || DEFAULT_PAGE_HEIGHT;
  const gs = graphicsOf(page, ruled, W, H);
  if (gs.length < 4 || gs.length > CHART_MAX_GRAPHICS) return [];
  const candidates = gridCandidates(gs, blocks);
  candidates.push(...clusterCandidates(gs, W, H));
  return chartsOf(candidates, blocks);
}
