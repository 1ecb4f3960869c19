/** Rules as drawn: the page's thin segments, joined where they run on and grouped where they touch. */
import type { Box } from '../../types.js';

/** A rule: horizontal (`h`) or vertical, its ends. */
export interface Seg {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  h: boolean;
}

/** Collinear rules that overlap or nearly meet (within `tol`) as one. */
export function mergeCollinear(segs: Seg[], tol: number): Seg[] {
  const out: Seg[] = [];
  const hs = segs.filter((s) => s.h).sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const vs = segs.filter((s) => !s.h).sort((a, b) => a.x0 - b.x0 || a.y0 - b.y0);
  for (const s of hs) {
    const last = out.find((o) => o.h && Math.abs(o.y0 - s.y0) <= tol && s.x0 <= o.x1 + tol && s.x1 >= o.x0 - tol);
    if (last) {
      last.x0 = Math.min(last.x0, s.x0);
      last.x1 = Math.max(last.x1, s.x1);
      last.y0 = last.y1 = (last.y0 + s.y0) / 2;
    } else out.push({ ...s });
  }
  for (const s of vs) {
    const last = out.find((o) => !o.h && Math.abs(o.x0 - s.x0) <= tol && s.y0 <= o.y1 + tol && s.y1 >= o.y0 - tol);
    if (last) {
      last.y0 = Math.min(last.y0, s.y0);
      last.y1 = Math.max(last.y1, s.y1);
      last.x0 = last.x1 = (last.x0 + s.x0) / 2;
    } else out.push({ ...s });
  }
  return out;
}

/** Whether two rules touch or cross (within `tol`). */
function touches(a: Seg, b: Seg, tol: number): boolean {
  if (a.h === b.h) {
    if (a.h) return Math.abs(a.y0 - b.y0) <= tol && a.x0 <= b.x1 + tol && b.x0 <= a.x1 + tol;
    return Math.abs(a.x0 - b.x0) <= tol && a.y0 <= b.y1 + tol && b.y0 <= a.y1 + tol;
  }
  const h = a.h ? a : b;
  const v = a.h ? b : a;
  return v.x0 >= h.x0 - tol && v.x0 <= h.x1 + tol && h.y0 >= v.y0 - tol && h.y0 <= v.y1 + tol;
}

/** Rules in groups that touch one another, directly or through others. */
export function connectedGroups(segs: Seg[], tol: number): Seg[][] {
  const parent = segs.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let i = 0; i < segs.length; i++) {
    for (let j = i + 1; j < segs.length; j++) if (touches(segs[i]!, segs[j]!, tol)) parent[find(i)] = find(j);
  }
  const groups = new Map<number, Seg[]>();
  segs.forEach((s, i) => {
    const r = find(i);
    (groups.get(r) ?? groups.set(r, []).get(r)!).push(s);
  });
  return [...groups.values()];
}

/** Boxes less any box inside a larger one (within a point). */
export function dedupeBoxes(boxes: Box[]): Box[] {
  const out: Box[] = [];
  for (const b of boxes.sort((p, q) => q.y1 - q.y0 - (p.y1 - p.y0))) {
    if (!out.some((o) => b.y0 >= o.y0 - 1 && b.y1 <= o.y1 + 1 && b.x0 >= o.x0 - 1 && b.x1 <= o.x1 + 1)) out.push(b);
  }
  return out;
}
