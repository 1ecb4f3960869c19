/**
 * Inline marks a PDF draws rather than writes: links (the page's link annotations that go to a URL)
 * and strikethrough (a thin line drawn across the middle of the text). Both are areas of the page,
 * not properties of its text runs, and a run often carries more than the marked words (a producer
 * writes a whole line as one run), so a run is cut where its marks change: at its glyphs' positions
 * where the source gives them, otherwise at word boundaries estimated from the run's width and the
 * usual widths of its letters.
 *
 * Runs first, before lines are built, so that every later step (lines, tables, blocks) carries the
 * marks on its words without knowing where they came from.
 */
import type { LinkArea, PageInput, Segment, TextItem } from './types.js';

/** Height of the bands the link areas are filed under, points. */
const BAND = 16;

/**
 * A strikethrough crosses the x-height: its line lies between these fractions of the font size
 * above the baseline. An underline lies at or below the baseline, an overline or a box's edge above
 * the x-height.
 */
const STRIKE_LOW = 0.1;
const STRIKE_HIGH = 0.5;
/** A strikethrough is a hairline: no thicker than this fraction of the font size. */
const STRIKE_THICKNESS = 0.2;

/**
 * Text runs with their links and strikethrough. Runs that only partly carry a mark come back cut
 * into pieces; the others come back as they were (with the mark set where they carry one).
 */
export function markRuns(page: PageInput): TextItem[] {
  const links = linkIndex(page.links ?? [], page.height);
  const strikes = strikeLines(page);
  if (!links && !strikes) return page.items;
  const out: TextItem[] = [];
  for (const item of page.items) {
    const areas = links ? linksOver(links, item) : [];
    const lines = strikes ? strikes.over(item) : [];
    if (!areas.length && !lines.length) {
      out.push(item);
      continue;
    }
    out.push(...cutAtMarks(item, areas, lines));
  }
  return out;
}

// ---------------------------------------------------------------- links

interface LinkIndex {
  areas: LinkArea[];
  /** Indexes of the areas reaching into each band of the page's height. */
  bands: number[][];
}

function linkIndex(areas: readonly LinkArea[], height: number): LinkIndex | null {
  if (!areas.length) return null;
  const kept = areas.filter((a) => a.x1 > a.x0 && a.y1 > a.y0 && Number.isFinite(a.x0 + a.x1 + a.y0 + a.y1));
  if (!kept.length) return null;
  const bottom = kept.reduce((y, a) => Math.max(y, a.y1), height);
  const n = Math.max(1, Math.ceil(bottom / BAND) + 1);
  const bands: number[][] = Array.from({ length: n }, () => []);
  kept.forEach((a, k) => {
    for (let b = band(a.y0, n); b <= band(a.y1, n); b++) bands[b]!.push(k);
  });
  return { areas: kept, bands };
}

function band(y: number, n: number): number {
  return Math.min(n - 1, Math.max(0, Math.floor(y / BAND)));
}

/**
 * The link areas a run lies in: over it horizontally, and over most of its height (a link's
 * rectangle is drawn around the line's text, a little taller or shorter as producers go).
 */
function linksOver(index: LinkIndex, item: TextItem): LinkArea[] {
  const n = index.bands.length;
  const h = Math.max(0.1, item.y1 - item.y0);
  const seen = new Set<number>();
  const out: LinkArea[] = [];
  for (let b = band(item.y0, n); b <= band(item.y1, n); b++) {
    for (const k of index.bands[b]!) {
      if (seen.has(k)) continue;
      seen.add(k);
      const a = index.areas[k]!;
      if (a.x1 <= item.x0 || a.x0 >= item.x1) continue;
      if (Math.min(a.y1, item.y1) - Math.max(a.y0, item.y0) < h * 0.5) continue;
      out.push(a);
    }
  }
  return out;
}

// ---------------------------------------------------------------- strikethrough

interface StrikeLines {
  /** The page's strikethrough lines crossing the run's x-height. */
  over(item: TextItem): Segment[];
}

/** Where a run's baseline lies: as the source gave it, or where a text layer's box puts it. */
function baselineOf(item: TextItem): number {
  return item.baseline ?? item.y0 + (item.y1 - item.y0) * 0.8;
}

/** The y band of a run a strikethrough line crosses it in. */
function strikeBand(item: TextItem): [number, number] {
  const b = baselineOf(item);
  return [b - item.fontSize * STRIKE_HIGH, b - item.fontSize * STRIKE_LOW];
}

/**
 * The page's lines that strike text through. A candidate is a thin level line that is no part of a
 * grid (no vertical line meets it: cell borders, boxes, charts), lying in the x-height of the runs it
 * crosses. It must run over text for its whole length, give or take a space: a table's rule, a
 * heading's decoration or a chart's grid line reaches past the text or over the gaps between cells.
 */
function strikeLines(page: PageInput): StrikeLines | null {
  const level = page.lines.filter((s) => Math.abs(s.y1 - s.y0) <= 0.5 && s.x1 - s.x0 >= 1 && s.width <= 4);
  if (!level.length || !page.items.length) return null;
  const mid = (s: Segment): number => (s.y0 + s.y1) / 2;
  level.sort((a, b) => mid(a) - mid(b));
  const ys = level.map(mid);
  /** The level lines in a run's x-height band and over it, as thin as its type's strikethrough. */
  const crossing = (item: TextItem): number[] => {
    const [lo, hi] = strikeBand(item);
    const out: number[] = [];
    for (let k = lowerBound(ys, lo); k < ys.length && ys[k]! <= hi; k++) {
      const s = level[k]!;
      if (s.x1 <= item.x0 || s.x0 >= item.x1 || s.width > item.fontSize * STRIKE_THICKNESS) continue;
      out.push(k);
      // A band holding more lines than this is hatching or a drawing, not text struck through.
      if (out.length > 16) return [];
    }
    return out;
  };
  // What text each candidate runs over, and the type size there.
  const spans = new Map<number, { over: Array<[number, number]>; size: number }>();
  for (const item of page.items) {
    for (const k of crossing(item)) {
      const s = level[k]!;
      const e = spans.get(k) ?? { over: [], size: 0 };
      e.over.push([Math.max(s.x0, item.x0), Math.min(s.x1, item.x1)]);
      e.size = Math.max(e.size, item.fontSize);
      spans.set(k, e);
    }
  }
  if (!spans.size) return null;
  const verticals = page.lines
    .filter((s) => Math.abs(s.x1 - s.x0) <= 0.5 && s.y1 - s.y0 >= 1)
    .sort((a, b) => a.x0 - b.x0);
  const vx = verticals.map((s) => s.x0);
  const valid = new Set<number>();
  for (const [k, { over, size }] of spans) {
    const s = level[k]!;
    if (runsOverText(s, over, size) && !meetsVertical(s, verticals, vx)) valid.add(k);
  }
  if (!valid.size) return null;
  return {
    over: (item) =>
      crossing(item)
        .filter((k) => valid.has(k))
        .map((k) => level[k]!),
  };
}

/**
 * The line runs over text from end to end: it starts and ends within half an em of the text it
 * crosses, and leaves no gap wider than an em (a word space between two runs is narrower; the
 * gutter between two cells or columns is wider).
 */
function runsOverText(s: Segment, over: Array<[number, number]>, size: number): boolean {
  over.sort((a, b) => a[0] - b[0]);
  if (over[0]![0] - s.x0 > size * 0.5) return false;
  let reach = over[0]![1];
  for (const [a, b] of over) {
    if (a - reach > size) return false;
    reach = Math.max(reach, b);
  }
  return s.x1 - reach <= size * 0.5;
}

/** A vertical line meets the level line (touches or crosses it): a grid's or a box's rule. */
function meetsVertical(s: Segment, verticals: readonly Segment[], vx: readonly number[]): boolean {
  const y = (s.y0 + s.y1) / 2;
  const tol = 1.5;
  for (let k = lowerBound(vx, s.x0 - tol); k < vx.length && vx[k]! <= s.x1 + tol; k++) {
    const v = verticals[k]!;
    if (v.y0 - tol <= y && y <= v.y1 + tol) return true;
  }
  return false;
}

/** The first index of an ascending array whose value is at least `v`. */
function lowerBound(sorted: readonly number[], v: number): number {
  let lo = 0,
    hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// ---------------------------------------------------------------- cutting runs

/**
 * Where each character of a run starts and the last ends. Where the source gave no positions, the
 * run's width is shared out by the usual widths of the letters in a proportional face (a line of
 * "ill" and "mum" drifts by whole words when shared evenly), or evenly in a fixed-pitch one; a
 * right-to-left run's first character is its rightmost.
 */
function edgesOf(item: TextItem): { edges: number[]; exact: boolean } {
  const text = item.text;
  const n = text.length;
  if (item.edges && item.edges.length === n + 1) return { edges: item.edges, exact: true };
  const widths = Array.from({ length: n }, (_, i) => (item.monospace ? 1 : typicalWidth(text[i]!)));
  const total = widths.reduce((a, b) => a + b, 0) || 1;
  const rtl = item.dir === 'rtl';
  const at = (share: number): number =>
    rtl ? item.x1 - share * (item.x1 - item.x0) : item.x0 + share * (item.x1 - item.x0);
  const edges = [at(0)];
  let acc = 0;
  for (let i = 0; i < n; i++) {
    acc += widths[i]!;
    edges.push(at(acc / total));
  }
  return { edges, exact: false };
}

/** A character's usual advance in thousandths of an em, in the manner of Helvetica and Times. */
function typicalWidth(c: string): number {
  if (/[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFF60]/.test(c)) return 1000;
  // The second half of a surrogate pair and combining marks add nothing to the first.
  if (/[\uDC00-\uDFFF\u0300-\u036F]/.test(c)) return 0;
  if (/[ijlI.,:;'!|]/.test(c)) return 250;
  if (/[\sftr()[\]{}"-]/.test(c)) return 320;
  if (/[mMW]/.test(c)) return 850;
  if (c === 'w') return 740;
  if (/[A-Z]/.test(c)) return 680;
  if (/[0-9]/.test(c)) return 556;
  return 530;
}

/** A character that belongs with the one before it: the second half of a surrogate pair, a combining mark. */
const JOINS_PREVIOUS = /[\uDC00-\uDFFF\p{M}]/u;

/**
 * Each character's link (an index into `areas`, -1 for none) and strikethrough, by where its middle
 * falls. A link area overlapping another (a producer's duplicate, a link inside a larger one) gives
 * way to the smaller. White space takes the marks only between two characters that share them, so a
 * mark never starts or ends on a space.
 */
function charMarks(
  item: TextItem,
  edges: readonly number[],
  exact: boolean,
  areas: readonly LinkArea[],
  lines: readonly Segment[],
): { link: Int32Array; strike: Uint8Array } {
  const text = item.text;
  const n = text.length;
  const link = new Int32Array(n).fill(-1);
  const strike = new Uint8Array(n);
  const size = (a: LinkArea): number => (a.x1 - a.x0) * (a.y1 - a.y0);
  for (let i = 0; i < n; i++) {
    if (i > 0 && JOINS_PREVIOUS.test(text[i]!)) {
      link[i] = link[i - 1]!;
      strike[i] = strike[i - 1]!;
      continue;
    }
    const c = (edges[i]! + edges[i + 1]!) / 2;
    let best = -1;
    areas.forEach((a, k) => {
      if (c >= a.x0 && c <= a.x1 && (best < 0 || size(a) < size(areas[best]!))) best = k;
    });
    link[i] = best;
    strike[i] = lines.some((s) => c >= s.x0 && c <= s.x1) ? 1 : 0;
  }
  // Estimated positions drift along a run of proportional type: each word takes the marks most of
  // its characters have, as producers mark whole words (the punctuation around it keeps its own).
  if (!exact) {
    for (const m of text.matchAll(/\S+/g)) {
      let from = m.index,
        to = m.index + m[0].length;
      while (to - from > 1 && TRAILING.test(text[to - 1]!)) to--;
      while (to - from > 1 && LEADING.test(text[from]!)) from++;
      wholeWord(link, from, to);
      wholeWord(strike, from, to);
    }
  }
  trimPunctuation(link, areas, edges, text, exact);
  for (const m of text.matchAll(/\s+/g)) {
    const before = m.index - 1,
      after = m.index + m[0].length;
    const keepLink = before >= 0 && after < n && link[before] === link[after] ? link[before]! : -1;
    const keepStrike = before >= 0 && after < n && strike[before] === 1 && strike[after] === 1 ? 1 : 0;
    link.fill(keepLink, m.index, after);
    strike.fill(keepStrike, m.index, after);
  }
  return { link, strike };
}

/** Punctuation that closes or opens a sentence or clause around a link rather than belonging to it. */
const TRAILING = /[.,;:!?)\]}"'’”»]/;
const LEADING = /[(\["'‘“«]/;

/**
 * Producers draw a link's rectangle a little wider than its words (two points or so either side),
 * wide enough to take in the middle of a full stop or a bracket set against them. Punctuation at the
 * ends of a link that reaches out of its rectangle is the sentence's, not the link's; where the
 * positions are estimated, so is punctuation that ends a word at a link's end.
 */
function trimPunctuation(
  link: Int32Array,
  areas: readonly LinkArea[],
  edges: readonly number[],
  text: string,
  exact: boolean,
): void {
  const n = text.length;
  for (let i = 0; i < n;) {
    const k = link[i]!;
    let j = i;
    while (j < n && link[j] === k) j++;
    if (k >= 0) {
      const a = areas[k]!;
      let from = i,
        to = j;
      const endsWord = to === n || /\s/.test(text[to]!);
      while (to > from && TRAILING.test(text[to - 1]!) && (exact ? edges[to]! > a.x1 + 0.1 : endsWord)) link[--to] = -1;
      while (
        from < to &&
        LEADING.test(text[from]!) &&
        (exact ? edges[from]! < a.x0 - 0.1 : from === 0 || /\s/.test(text[from - 1]!))
      )
        link[from++] = -1;
    }
    i = j;
  }
}

/** Gives a word's characters the value most of them have (the first such value on a tie). */
function wholeWord(values: Int32Array | Uint8Array, from: number, to: number): void {
  const counts = new Map<number, number>();
  let best = values[from]!,
    most = 0;
  for (let i = from; i < to; i++) {
    const v = values[i]!;
    const c = (counts.get(v) ?? 0) + 1;
    counts.set(v, c);
    if (c > most) {
      most = c;
      best = v;
    }
  }
  values.fill(best, from, to);
}

/** The run with its marks: whole where one set of marks covers it, else cut where they change. */
function cutAtMarks(item: TextItem, areas: readonly LinkArea[], lines: readonly Segment[]): TextItem[] {
  const { edges, exact } = edgesOf(item);
  const { link, strike } = charMarks(item, edges, exact, areas, lines);
  const text = item.text;
  const piece = (from: number, to: number): TextItem => {
    const { edges: _edges, ...rest } = item;
    const whole = from === 0 && to === text.length;
    const out: TextItem = whole
      ? { ...rest }
      : {
          ...rest,
          text: text.slice(from, to),
          x0: Math.min(edges[from]!, edges[to]!),
          x1: Math.max(edges[from]!, edges[to]!),
        };
    const k = link[from]!;
    if (k >= 0) out.href = areas[k]!.url;
    if (strike[from]) out.strike = true;
    return out;
  };
  const out: TextItem[] = [];
  let from = 0;
  for (let i = 1; i <= text.length; i++) {
    if (i < text.length && link[i] === link[from] && strike[i] === strike[from]) continue;
    const p = piece(from, i);
    // White space cut off on its own is no text: the gap it leaves reads as a space.
    if (p.text.trim()) out.push(p);
    from = i;
  }
  return out;
}
