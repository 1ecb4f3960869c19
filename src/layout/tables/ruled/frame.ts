/**
 * A frame rather than a table: rules around a region of the page that holds running text (a letterhead,
 * a heading and its text), where no rule divides the region into cells.
 */
import type { Word } from '../../lines.js';
import { clusterValues } from '../geometry.js';
import {
  FRAME_MAX_MEAN_REGION_CHARS,
  FRAME_MIN_LINES,
  FRAME_REGION_SHARE,
  FRAME_TEXT_CHARS,
  LINE_CENTRE_TOL,
  MAX_GRID_SLOTS,
} from '../thresholds.js';
import { ruleAcrossAt, ruleDownAt, type Rules } from './rules.js';

/** A region of the grid: slots that no rule separates, their area, the words in them. */
interface SlotRegion {
  area: number;
  ws: Word[];
}

/**
 * The grid's slots merged where no rule separates them (probed a point either side of each slot's
 * middle), with the area and the words of each region.
 */
function regionsOfSlots(xs: number[], ys: number[], rules: Rules, words: Word[]): SlotRegion[] {
  const nr = ys.length - 1,
    nc = xs.length - 1;
  const par = Array.from({ length: nr * nc }, (_, i) => i);
  const fd = (i: number): number => (par[i] === i ? i : (par[i] = fd(par[i]!)));
  for (let r = 0; r < nr; r++)
    for (let c = 0; c < nc; c++) {
      const ym = (ys[r]! + ys[r + 1]!) / 2,
        xm = (xs[c]! + xs[c + 1]!) / 2;
      if (c + 1 < nc && !ruleDownAt(rules, xs[c + 1]!, ym - 1, ym + 1)) par[fd(r * nc + c)] = fd(r * nc + c + 1);
      if (r + 1 < nr && !ruleAcrossAt(rules, ys[r + 1]!, xm - 1, xm + 1)) par[fd(r * nc + c)] = fd((r + 1) * nc + c);
    }
  const regs = new Map<number, SlotRegion>();
  for (let r = 0; r < nr; r++)
    for (let c = 0; c < nc; c++) {
      const root = fd(r * nc + c);
      const reg = regs.get(root) ?? regs.set(root, { area: 0, ws: [] }).get(root)!;
      reg.area += (xs[c + 1]! - xs[c]!) * (ys[r + 1]! - ys[r]!);
    }
  for (const w of words) {
    const cx = (w.x0 + w.x1) / 2,
      cy = (w.y0 + w.y1) / 2;
    if (cx < xs[0]! || cx > xs[nc]! || cy < ys[0]! || cy > ys[nr]!) continue;
    let c = 0;
    while (c < nc - 1 && cx > xs[c + 1]!) c++;
    let r = 0;
    while (r < nr - 1 && cy > ys[r + 1]!) r++;
    regs.get(fd(r * nc + c))!.ws.push(w);
  }
  return [...regs.values()];
}

/**
 * A frame: one rule-bounded region (slots merged where no rule separates them) covering much of
 * the box and holding many lines of text.
 */
export function framesText(xs: number[], ys: number[], rules: Rules, words: Word[]): boolean {
  const total = (xs[xs.length - 1]! - xs[0]!) * (ys[ys.length - 1]! - ys[0]!);
  if ((ys.length - 1) * (xs.length - 1) > MAX_GRID_SLOTS) return false;
  const regs = regionsOfSlots(xs, ys, rules, words);
  // Boxes full of paragraphs (a page laid out with an invisible table) are not a data table.
  const texts = regs.map((r) => r.ws.reduce((n, w) => n + w.text.length, 0)).filter((n) => n > 0);
  if (texts.length && texts.reduce((a, b) => a + b, 0) / texts.length > FRAME_MAX_MEAN_REGION_CHARS) return true;
  for (const reg of regs) {
    if (reg.area < total * FRAME_REGION_SHARE) continue;
    const rowsIn = clusterValues(
      reg.ws.map((w) => (w.y0 + w.y1) / 2),
      LINE_CENTRE_TOL,
    ).length;
    // Many lines in mixed sizes (a letterhead, a heading and its text) or much text: a frame.
    const sizes = new Set(reg.ws.map((w) => Math.round(w.size)));
    const chars = reg.ws.reduce((n, w) => n + w.text.length, 0);
    if (rowsIn >= FRAME_MIN_LINES && (sizes.size >= 2 || chars > FRAME_TEXT_CHARS)) return true;
  }
  return false;
}
