/**
 * Reading order: XY-cut whose horizontal bands are re-joined when they share a column gutter, so that
 * columns are read top to bottom and full-width elements stay in place; side heads read before their
 * text, a few lines set aside read where they stand.
 */
import { CAPTION_RE } from '../tables.js';
import { MAX_ORDER_DEPTH, MIN_GUTTER, NOMINAL_SIZE } from '../thresholds.js';
import type { El, TextBlock } from './elements.js';

interface Interval {
  a: number;
  b: number;
}

function coverage(els: El[]): Interval[] {
  const s = [...els].sort((a, b) => a.x0 - b.x0);
  const out: Interval[] = [];
  for (const e of s) {
    const last = out[out.length - 1];
    if (last && e.x0 <= last.b) last.b = Math.max(last.b, e.x1);
    else out.push({ a: e.x0, b: e.x1 });
  }
  return out;
}

function gapsOf(cov: Interval[], lo: number, hi: number): Interval[] {
  const out: Interval[] = [];
  let x = lo;
  for (const c of cov) {
    if (c.a > x) out.push({ a: x, b: c.a });
    x = Math.max(x, c.b);
  }
  if (hi > x) out.push({ a: x, b: hi });
  return out;
}

function intersectAll(a: Interval[], b: Interval[], minW: number): Interval[] {
  const out: Interval[] = [];
  for (const p of a)
    for (const q of b) {
      const lo = Math.max(p.a, q.a),
        hi = Math.min(p.b, q.b);
      if (hi - lo >= minW) out.push({ a: lo, b: hi });
    }
  return out;
}

function headStacks(heads: El[]): El[][] {
  const sorted = [...heads].sort((a, b) => a.y0 - b.y0);
  const stacks: El[][] = [];
  let bottom = -Infinity;
  for (const h of sorted) {
    const size = 'size' in h ? (h as TextBlock).size : NOMINAL_SIZE;
    if (!stacks.length || h.y0 - bottom > size * 1.5) stacks.push([h]);
    else stacks[stacks.length - 1]!.push(h);
    bottom = Math.max(bottom, h.y1);
  }
  return stacks;
}

/** True when every element of `heads` is a short text sitting level with the top of an element of `body`. */
function sideHeads(heads: El[], body: El[]): boolean {
  if (heads.length < 2 || body.length < 2) return false;
  const short = heads.every((e) => e.kind === 'text' && e.lines.length <= 3);
  if (!short) return false;
  const headW = Math.max(...heads.map((e) => e.x1)) - Math.min(...heads.map((e) => e.x0));
  const bodyW = Math.max(...body.map((e) => e.x1)) - Math.min(...body.map((e) => e.x0));
  if (headW > bodyW * 0.6) return false;
  // Heads come in little stacks (number, date, title); each stack starts level with a body block.
  const tops = headStacks(heads).map((st) => st[0]!);
  const level = tops.filter((h) =>
    body.some((b) => Math.abs(b.y0 - h.y0) < Math.max(3, (h as TextBlock).size * 0.8)),
  ).length;
  return tops.length >= 2 && level >= tops.length * 0.7;
}

/** Orders elements: bands top to bottom; bands sharing a column gutter are read column by column. */
/**
 * Top to bottom, and across each row in reading direction. Elements level with each other (each one's
 * middle inside the other's height) form a row: a line of a scan that slopes by a fraction of a point,
 * or a label set a little higher than its value, is still read left to right, not by which top is higher.
 */
function rowsInOrder(els: El[], rtl: boolean): El[] {
  const byY = [...els].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const out: El[] = [];
  let row: El[] = [];
  // Where a text's first line starts: a paragraph that runs on after a run-in heading ("In-batch
  // negatives. We ...") has its block's left edge at the margin, but its first line starts after the heading.
  const start = (e: El): number =>
    e.kind === 'text' && e.lines.length ? (rtl ? -e.lines[0]!.x1 : e.lines[0]!.x0) : rtl ? -e.x1 : e.x0;
  const flush = (): void => {
    row.sort((a, b) => start(a) - start(b));
    out.push(...row);
    row = [];
  };
  // Two texts whose first lines share a line are level whatever their heights: a one-line run-in
  // heading and the tall paragraph it opens, whose tops differ by a hundredth of a point either way.
  const sameFirstLine = (a: El, b: El): boolean =>
    a.kind === 'text' &&
    b.kind === 'text' &&
    Math.abs(a.y0 - b.y0) < Math.min(a.size, b.size) * 0.4 &&
    Math.abs(a.lines[0]!.y1 - b.lines[0]!.y1) < Math.min(a.size, b.size) * 0.4;
  for (const e of byY) {
    const mid = (e.y0 + e.y1) / 2;
    const level =
      row.length > 0 &&
      row.every(
        (r) =>
          (mid > r.y0 && mid < r.y1 && (r.y0 + r.y1) / 2 > e.y0 && (r.y0 + r.y1) / 2 < e.y1) || sameFirstLine(r, e),
      );
    if (!level) flush();
    row.push(e);
  }
  flush();
  return out;
}

/**
 * A heading or a row of short lines set level with each other (a paper's authors side by side), two
 * lines at most each, centred on the width from lo to hi as a whole.
 */
function centredRow(els: El[], lo: number, hi: number): boolean {
  if (!els.length || els.length > 4) return false;
  if (!els.every((e): e is TextBlock => e.kind === 'text' && e.lines.length <= 2)) return false;
  const size = Math.max(...els.map((e) => e.size));
  const x0 = Math.min(...els.map((e) => e.x0)),
    x1 = Math.max(...els.map((e) => e.x1));
  const level = els.every((e) => els.every((o) => Math.min(e.y1, o.y1) > Math.max(e.y0, o.y0)));
  // (Several side by side stand clear of both margins: a row from margin to margin is centred too, and
  // is the first lines of columns.)
  const clear = els.length === 1 || (x0 > lo + size * 2 && x1 < hi - size * 2);
  return level && clear && Math.abs((x0 + x1) / 2 - (lo + hi) / 2) < size;
}

/**
 * Whether the band after a caption holds only text on the caption's side of every inner gutter of the
 * columns above (`gutters`), the caption crossing none: that column goes on under the caption.
 */
function columnGoesOn(caption: El, next: El[] | undefined, gutters: Interval[]): boolean {
  if (!next?.length) return false;
  const mid = (caption.x0 + caption.x1) / 2;
  const sameSide = (e: El, g: Interval): boolean => (mid < g.a ? e.x1 <= g.a + 0.5 : e.x0 >= g.b - 0.5);
  if (!gutters.length || !gutters.every((g) => sameSide(caption, g))) return false;
  return next.every((e) => gutters.every((g) => sameSide(e, g)));
}

/** Elements read together: consecutive bands joined where they share a column gutter. */
interface BandGroup {
  els: El[];
  gutters: Interval[];
}

/**
 * Consecutive horizontal bands that share an inner gutter, joined (`lo` and `hi` are the left and
 * right ends of all the elements being ordered).
 */
function joinBands(bands: El[][], lo: number, hi: number): BandGroup[] {
  const groups: BandGroup[] = [];
  // A heading alone in its band (bold, or set larger than the text after it) right over text that
  // runs across the gutter heads that text, not the foot of the column it happens to stand in.
  const headsNext = (band: El[], next: El[] | undefined, gutters: Interval[]): boolean => {
    const h = band[0]!;
    if (band.length !== 1 || h.kind !== 'text' || h.lines.length > 2 || !next) return false;
    const below = next.filter((e): e is TextBlock => e.kind === 'text');
    // (Across the gutter of the columns above: a column that runs on below is no such text.)
    const inner = gutters.filter((g) => g.a > lo + 1 && g.b < hi - 1);
    if (!below.length || !inner.length || !inner.every((g) => next.some((e) => e.x0 < g.a && e.x1 > g.b))) return false;
    return (h.lines.every((l) => l.bold) && !below[0]!.lines.every((l) => l.bold)) || h.size >= below[0]!.size * 1.15;
  };
  for (const [bi, band] of bands.entries()) {
    const gaps = gapsOf(coverage(band), lo, hi);
    const prev = groups[groups.length - 1];
    if (prev && headsNext(band, bands[bi + 1], prev.gutters)) {
      groups.push({ els: [...band], gutters: gaps });
      continue;
    }
    // A caption with no table or figure beside it (theirs was not found or follows on the next page),
    // alone below columns: it closes what stands above it, read after every column, not at the foot of
    // the column it happens to stand under.
    // (Not where the caption's column goes on under it, the other columns ended above: a figure in
    // that column, its caption, and the column's text after them, as a paper's last page has them.)
    const lone = band[0]!;
    if (
      prev &&
      band.length === 1 &&
      lone.kind === 'text' &&
      lone.lines.length <= 3 &&
      CAPTION_RE.test(lone.lines[0]!.text) &&
      !columnGoesOn(
        lone,
        bands[bi + 1],
        prev.gutters.filter((g) => g.a > lo + 1 && g.b < hi - 1),
      )
    ) {
      groups.push({ els: [...band], gutters: gaps });
      continue;
    }
    // A heading centred on the whole width above columns is read before them, even where it happens
    // to stand clear of the gutter (a narrow float at the left: the heading sits over the text only).
    // So is a row of a few short lines centred on the width as a whole (a paper's authors side by side
    // under its title): the space between them is no column gutter, whatever it lines up with.
    const centred = prev !== undefined && centredRow(prev.els, lo, hi);
    if (prev && !centred) {
      const shared = intersectAll(prev.gutters, gaps, MIN_GUTTER);
      const all = [...prev.els, ...band];
      const x0 = Math.min(...all.map((e) => e.x0)),
        x1 = Math.max(...all.map((e) => e.x1));
      const inner = shared.filter(
        (g) => g.a > x0 + 1 && g.b < x1 - 1 && all.some((e) => e.x1 <= g.a + 0.5) && all.some((e) => e.x0 >= g.b - 0.5),
      );
      const prevInner = prev.gutters.some((g) => g.a > lo + 1 && g.b < hi - 1);
      const bandInner = gaps.some((g) => g.a > lo + 1 && g.b < hi - 1);
      if (inner.length && (prevInner || bandInner)) {
        prev.els.push(...band);
        prev.gutters = inner;
        continue;
      }
    }
    groups.push({ els: [...band], gutters: gaps });
  }
  return groups;
}

/** One group of bands in reading order, onto `out`: split at its widest inner gutter, each side ordered in turn. */
function orderGroup(g: BandGroup, rtl: boolean, depth: number, out: El[]): void {
  const x0 = Math.min(...g.els.map((e) => e.x0)),
    x1 = Math.max(...g.els.map((e) => e.x1));
  const inner = g.gutters.filter((iv) => iv.a > x0 + 1 && iv.b < x1 - 1 && iv.b - iv.a >= MIN_GUTTER);
  if (!inner.length || g.els.length === 1) {
    out.push(...rowsInOrder(g.els, rtl));
    return;
  }
  // Split at the widest gutter; each side is ordered recursively.
  const cut = inner.reduce((m, iv) => (iv.b - iv.a > m.b - m.a ? iv : m));
  const mid = (cut.a + cut.b) / 2;
  const leftEls = g.els.filter((e) => (e.x0 + e.x1) / 2 < mid);
  const rightEls = g.els.filter((e) => (e.x0 + e.x1) / 2 >= mid);
  if (!leftEls.length || !rightEls.length) {
    out.push(...rowsInOrder(g.els, rtl));
    return;
  }
  const first = rtl ? rightEls : leftEls,
    second = rtl ? leftEls : rightEls;
  // A few single lines on each side (a letterhead: title left, date and reference right) read
  // line by line, not as two columns.
  // (Two sides only: three columns or more of a few lines each are the foot of a page of columns.)
  const shortSide = (xs: El[]): boolean => xs.length <= 4 && xs.every((e) => e.kind === 'text' && e.lines.length <= 2);
  if (inner.length === 1 && shortSide(leftEls) && shortSide(rightEls)) {
    out.push(...rowsInOrder(g.els, rtl));
    return;
  }
  // A few single lines on one side, each level with a short line of the other (a reference number
  // and a date set right of a letterhead, above a body that runs on at the left): read where they
  // stand, with the lines they are level with, not after everything the other side holds.
  const beside = (xs: El[], other: El[]): boolean => {
    if (!shortSide(xs)) return false;
    // The other side runs on well below them (two short columns side by side are columns).
    const top = Math.min(...other.map((o) => o.y0)),
      bottom = Math.max(...other.map((o) => o.y1));
    return (
      Math.max(...xs.map((e) => e.y1)) < top + (bottom - top) / 2 &&
      xs.every((e) =>
        other.some((o) => o.kind === 'text' && o.lines.length <= 3 && Math.min(o.y1, e.y1) > Math.max(o.y0, e.y0)),
      )
    );
  };
  const aside = beside(rightEls, leftEls) ? rightEls : beside(leftEls, rightEls) ? leftEls : null;
  if (aside) {
    const main = order(aside === leftEls ? rightEls : leftEls, rtl, depth + 1);
    // Reading direction decides whether the side lines come after or before the lines they are level with.
    const after = (aside === rightEls) !== rtl;
    for (const e of [...aside].sort((a, b) => a.y0 - b.y0)) {
      let at: number;
      if (after) {
        at = 0;
        main.forEach((o, k) => {
          if (o.y0 < e.y1 && !aside.includes(o)) at = k + 1;
        });
      } else {
        at = main.findIndex((o) => o.y1 > e.y0 && !aside.includes(o));
        if (at < 0) at = main.length;
      }
      main.splice(at, 0, e);
    }
    out.push(...main);
    return;
  }
  const heads = sideHeads(leftEls, rightEls) ? leftEls : sideHeads(rightEls, leftEls) ? rightEls : null;
  if (heads) {
    // Side heads (short labels in a margin column, each stack level with the text it introduces)
    // are read before their text, not as a column of their own.
    const bodyEls = order(heads === leftEls ? rightEls : leftEls, rtl, depth + 1);
    const stacks = headStacks(heads);
    let bi = 0;
    stacks.forEach((st, k) => {
      const nextTop = stacks[k + 1]?.[0]?.y0 ?? Infinity;
      // Body text above the first stack comes first.
      if (k === 0) while (bi < bodyEls.length && bodyEls[bi]!.y0 < st[0]!.y0 - 3) out.push(bodyEls[bi++]!);
      out.push(...st);
      while (bi < bodyEls.length && bodyEls[bi]!.y0 < nextTop - 3) out.push(bodyEls[bi++]!);
    });
    while (bi < bodyEls.length) out.push(bodyEls[bi++]!);
    return;
  }
  out.push(...order(first, rtl, depth + 1), ...order(second, rtl, depth + 1));
}

/** Orders elements: bands top to bottom; bands sharing a column gutter are read column by column. */
export function order(els: El[], rtl: boolean, depth = 0): El[] {
  if (els.length <= 1 || depth > MAX_ORDER_DEPTH) return [...els];
  const lo = Math.min(...els.map((e) => e.x0)),
    hi = Math.max(...els.map((e) => e.x1));
  // Horizontal bands: elements chained by vertical overlap.
  const byY = [...els].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const bands: El[][] = [];
  let bottom = -Infinity;
  for (const e of byY) {
    const tol = 'size' in e ? (e as TextBlock).size * 0.2 : 1;
    if (bands.length && e.y0 < bottom - tol) {
      bands[bands.length - 1]!.push(e);
      bottom = Math.max(bottom, e.y1);
    } else {
      bands.push([e]);
      bottom = e.y1;
    }
  }
  const groups = joinBands(bands, lo, hi);
  const out: El[] = [];
  for (const g of groups) orderGroup(g, rtl, depth, out);
  return out;
}
