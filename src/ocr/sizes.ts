/**
 * Font sizes measured on pixels wobble: at 200 dpi one pixel is a third of a point, so the same 22 pt
 * title reads 21 pt on one page and 22.5 pt on the next, and heading levels (decided per distinct size
 * over the document) would split. After all pages of a document are recognised, sizes within 10% of
 * each other are merged into one, weighted by the characters set in them.
 */
import type { PageLayout } from '../layout/types.js';

const TOLERANCE = 0.1;

/**
 * Maps each measured size to its cluster's size, rounded to a whole point: documents are mostly set
 * in whole sizes, so a recognised 22.2 pt title meets the native 22 pt titles of a mixed document.
 */
export function clusterSizes(weights: Map<number, number>): Map<number, number> {
  const sizes = [...weights.keys()].sort((a, b) => a - b);
  const out = new Map<number, number>();
  let group: number[] = [];
  let sum = 0;
  let weight = 0;
  const flush = () => {
    if (!group.length) return;
    const v = Math.max(1, Math.round(sum / Math.max(weight, 1e-9)));
    for (const s of group) out.set(s, v);
    group = [];
    sum = 0;
    weight = 0;
  };
  for (const s of sizes) {
    const w = Math.max(weights.get(s) ?? 0, 1);
    // Compare with the group's smallest member so a chain of small steps cannot drift far.
    if (group.length && s > group[0]! * (1 + TOLERANCE)) flush();
    group.push(s);
    sum += s * w;
    weight += w;
  }
  flush();
  return out;
}

/** Rewrites block hints and page statistics of recognised pages to the merged sizes. */
export function harmonizeFontSizes(layouts: PageLayout[]): void {
  const weights = new Map<number, number>();
  for (const l of layouts) {
    for (const b of l.blocks) weights.set(b.hints.fontSize, (weights.get(b.hints.fontSize) ?? 0) + b.hints.text.length);
    for (const [k, n] of Object.entries(l.stats.fontChars)) weights.set(Number(k), (weights.get(Number(k)) ?? 0) + n);
  }
  const map = clusterSizes(weights);
  for (const l of layouts) {
    for (const b of l.blocks) b.hints.fontSize = map.get(b.hints.fontSize) ?? b.hints.fontSize;
    const chars: Record<string, number> = {};
    for (const [k, n] of Object.entries(l.stats.fontChars)) {
      const v = String(map.get(Number(k)) ?? Number(k));
      chars[v] = (chars[v] ?? 0) + n;
    }
    l.stats.fontChars = chars;
  }
}
