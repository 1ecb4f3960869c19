/**
 * Page furniture: running heads, footers and page numbers, found by repetition across pages (the
 * same words, or the same words but for the page number, at the same edge), by printed page numbers
 * that keep a step from the pages' places, and by position and face (margin text set apart from the
 * body, in a smaller face, or saying what running text says).
 */
import type { LaidOutBlock, PageLayout } from './types.js';

// Heights on the page are in page heights here: 0 at the top, 1 at the bottom.
/** Repeated running text is looked up by height in buckets of this size, and matched within one. */
const RUNNING_BUCKET = 0.012;
/** Two blocks whose tops lie within this of each other start on the same line. */
const SAME_TOP = 0.006;
/** A block whose edge lies within this of another's touches it (no line between them). */
const TOUCHING = 0.002;
/** A folio is centred when its middle lies within this of the text's middle or the page's (page widths). */
const FOLIO_CENTRED = 0.015;

// "3", "- 3 -", "Page 3 of 10", "iv", "Page | 3", "3 | Page", "3/10", "Seite 3 von 9", "p. 3".
const PAGE_NUMBER_RE =
  /^(?:(?:page|p\.|pg\.?|seite|página|pagina)\s*[|:·•]?)?\s*[-–—]?\s*(\d{1,4}|[ivxlcdm]{1,7})\s*[-–—]?\s*(?:(?:of|\/|von|de|sur)\s*\d{1,4})?(?:\s*[|·•]\s*page)?$/i;

export function keyOf(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().slice(0, 120);
}

/** The numbers in a text, in order ("2.3.59-18" → 2, 3, 59, 18). */
function numbersOf(text: string): number[] {
  return (text.match(/\d+/g) ?? []).map(Number);
}

/**
 * Two margin texts of one shape that read the same but for the page number: every number that
 * differs between them differs as their pages do ("Page 3 of 9" on page 3 and "Page 5 of 9" on page
 * 5, or a printed number a fixed step ahead of the page's place). Numbered rows ending a page
 * ("2.3.59-18", "2.3.59-57") share the shape, not this.
 */
export function sameButPageNumber(a: string, pageA: number, b: string, pageB: number): boolean {
  const na = numbersOf(a),
    nb = numbersOf(b);
  return na.length === nb.length && na.every((x, i) => x === nb[i] || x - pageA === nb[i]! - pageB);
}

const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100, d: 500, m: 1000 };

/** The value of a page number's figure, arabic or roman; NaN when it has none. */
function pageNumberValue(text: string): number {
  const m = PAGE_NUMBER_RE.exec(text.trim());
  const f = m?.[1]?.toLowerCase();
  if (!f) return NaN;
  if (/^\d+$/.test(f)) return Number(f);
  let v = 0;
  for (let i = 0; i < f.length; i++) {
    const a = ROMAN[f[i]!]!,
      b = ROMAN[f[i + 1] ?? ''] ?? 0;
    v += a < b ? -a : a;
  }
  return v;
}

const RUNNING_RE =
  /©|\bcopyright\b|all rights reserved|\bdoi\b|https?:\/\/|www\.|\bvol\.|\bissue\b|\bpp\.|\bpage \d|confidential|\bproceedings\b|\bconference\b|\bjournal\b|\bpreprint\b|\barxiv\b|under review|\bmanuscript\b|\bworkshop\b|\btransactions\b|\bissn\b|\bet al\.?$|\bvol(?:ume)?\.? ?\d+\b.*\b(?:no|number|issue)\.? ?\d/i;

/** A publisher's imprint: copyright, DOI, ISSN. */
const IMPRINT_RE = /©|\bcopyright\b|all rights reserved|\bdoi\b|doi\.org\/|\bissn\b/i;

/**
 * Sentences of prose: a full stop and a capital after it, ten words or more ("Issue 42, June 2024. The
 * subsidised commuter flow at Carrow contracted ..." under a newsletter's masthead). Running wording
 * in such a line is the text's own; an imprint ("© 2024 Coastal Ecology Society. All rights
 * reserved.") is still running text.
 */
function prose(t: string): boolean {
  return !IMPRINT_RE.test(t) && /[.!?]["”’)]?\s+\p{Lu}/u.test(t) && t.split(/\s+/).length >= 10;
}

/** Running wording that is still running text when set on two or three stacked lines. */
const RUNNING_STACKED =
  /©|\bcopyright\b|all rights reserved|\bissn\b|\bproceedings\b|\bjournal\b|\btransactions\b|\bvol(?:ume)?\.? ?\d+\b.*\b(?:no|number|issue)\.? ?\d/i;

export type Furniture = 'page_header' | 'page_footer' | 'page_number';

/** What the furniture passes share. */
interface FurnitureScan {
  pages: PageLayout[];
  /** The document's body font size. */
  body: number;
  /** Pages. */
  n: number;
  /** On how many pages text must repeat to be running text. */
  need: number;
  /** The furniture found so far, by block. */
  out: Map<LaidOutBlock, Furniture>;
  /** The pages each margin text's shape (band and words, digits aside) stands on. */
  counts: Map<string, Set<number>>;
  /** The margin texts of each shape (digits aside), with their pages. */
  shapes: Map<string, Array<{ b: LaidOutBlock; page: number }>>;
}

/** Margin text that neither a page number nor repetition settled, with its band. */
interface Fallback {
  b: LaidOutBlock;
  band: 'top' | 'bottom';
}

function bandOf(b: LaidOutBlock): 'top' | 'bottom' | 'body' {
  return b.hints.zone !== 'body' ? b.hints.zone : (b.hints.band ?? 'body');
}

function midY(b: LaidOutBlock): number {
  return ((b.block.bbox?.[1] ?? 0) + (b.block.bbox?.[3] ?? 0)) / 2;
}

function box(b: LaidOutBlock): [number, number, number, number] {
  return (b.block.bbox ?? [0, 0, 0, 0]) as [number, number, number, number];
}

/** The margin texts of each shape (band and words, digits aside), with the pages they stand on. */
function marginShapes(pages: PageLayout[]): Pick<FurnitureScan, 'counts' | 'shapes'> {
  const counts = new Map<string, Set<number>>();
  // The margin texts of each shape (digits aside), with their pages.
  const shapes = new Map<string, Array<{ b: LaidOutBlock; page: number }>>();
  for (const p of pages) {
    for (const b of p.blocks) {
      const band = bandOf(b);
      if (band === 'body' || !b.hints.text) continue;
      const k = `${band}|${keyOf(b.hints.text)}`;
      (counts.get(k) ?? counts.set(k, new Set()).get(k)!).add(p.pageNumber);
      (shapes.get(k) ?? shapes.set(k, []).get(k)!).push({ b, page: p.pageNumber });
    }
  }
  return { counts, shapes };
}

/** Two texts set in sizes no more than a quarter apart. */
function comparableSize(a: LaidOutBlock, b: LaidOutBlock): boolean {
  const x = a.hints.fontSize,
    y = b.hints.fontSize;
  return Math.max(x, y) <= Math.min(x, y) * 1.25;
}

/**
 * Text in the margin band that no space sets apart from the body (zone 'body') may be the body's
 * last or first lines: the same shape on other pages is no evidence there (the last rows of a
 * numbered list or a contents page end every page the same way). It is running text when other
 * pages show the same words at that edge (a masthead set larger than the text, so never a margin
 * zone), or the same words but for the page number at the same height.
 */
function repeatedTest(scan: FurnitureScan): (b: LaidOutBlock, k: string, page: number) => boolean {
  const first = scan.pages[0]?.pageNumber;
  return (b: LaidOutBlock, k: string, page: number): boolean => {
    if (b.hints.zone !== 'body') {
      if (page !== first) return (scan.counts.get(k)?.size ?? 0) >= scan.need;
      // On the first page, the same words in a face of another size are not the running text
      // repeated: the title set large under the running head that repeats it small ("Short Notes on
      // Sampling"). (A masthead set large over a later page's running head is still running text.)
      const on = new Set<number>();
      for (const o of scan.shapes.get(k) ?? []) if (comparableSize(o.b, b)) on.add(o.page);
      return on.size >= scan.need;
    }
    const t = b.hints.text.trim();
    const on = new Set<number>();
    for (const o of scan.shapes.get(k) ?? []) {
      const u = o.b.hints.text.trim();
      if (
        o.b === b ||
        (u.toLowerCase() === t.toLowerCase() && (page !== first || comparableSize(o.b, b))) ||
        (Math.abs(midY(o.b) - midY(b)) < 0.025 && sameButPageNumber(u, o.page, t, page))
      )
        on.add(o.page);
    }
    return on.size >= scan.need;
  };
}

/**
 * How far printed page numbers stand from the pages' places, in the margins set apart from the
 * body: a lone number in the band at the body's edge is a page number only when it keeps one of
 * those steps (the last entry of a column of figures or of page references does not).
 */
function numberStepTest(pages: PageLayout[]): (b: LaidOutBlock, band: string, page: number) => boolean {
  const steps = new Set<string>();
  for (const p of pages)
    for (const b of p.blocks) {
      const band = bandOf(b),
        t = b.hints.text.trim();
      if (band !== 'body' && PAGE_NUMBER_RE.test(t) && t.length <= 20)
        steps.add(`${band}|${b.hints.zone === 'body' ? p.pageNumber : 'zone'}|${pageNumberValue(t) - p.pageNumber}`);
    }
  return (b: LaidOutBlock, band: string, page: number): boolean => {
    if (b.hints.zone !== 'body') return true;
    const step = pageNumberValue(b.hints.text) - page;
    return [...steps].some((s) => {
      const [bd, where, v] = s.split('|');
      return bd === band && where !== String(page) && Number(v) === step;
    });
  };
}

/** Page numbers and text repeated at the page's edge; the margin text left to judge otherwise. */
function pageNumbersAndRepeats(scan: FurnitureScan): Fallback[] {
  const { pages, n, out } = scan;
  const repeated = repeatedTest(scan);
  const numberStep = numberStepTest(pages);
  const fallback: Array<{ b: LaidOutBlock; band: 'top' | 'bottom' }> = [];
  for (const p of pages) {
    for (const b of p.blocks) {
      const band = bandOf(b);
      if (band === 'body' || !b.hints.text) continue;
      const t = b.hints.text.trim();
      if (
        PAGE_NUMBER_RE.test(t) &&
        t.length <= 20 &&
        (b.hints.zone !== 'body' || (n >= 2 && numberStep(b, band, p.pageNumber)))
      ) {
        out.set(b, 'page_number');
        continue;
      }
      const k = `${band}|${keyOf(t)}`;
      if (n >= 2 && repeated(b, k, p.pageNumber)) {
        out.set(b, band === 'top' ? 'page_header' : 'page_footer');
        continue;
      }
      fallback.push({ b, band });
    }
  }
  return fallback;
}

/**
 * Running text found by repetition, by height on the page and face: in a long document, margin
 * text not repeated word for word is running text only when it sits where the repeated running
 * text of other pages sits, in the same face (heads that alternate between even and odd pages,
 * chapter titles that change).
 * Repeated running text by height on the page (buckets of 0.012 page heights: a lookup per block,
 * not a scan of every page's running text).
 */
function runningByHeight(out: ReadonlyMap<LaidOutBlock, Furniture>): (b: LaidOutBlock, anyFace?: boolean) => boolean {
  const byHeight = new Map<number, LaidOutBlock[]>();
  for (const [b, f] of out) {
    if (f === 'page_number') continue;
    const k = Math.round(midY(b) / RUNNING_BUCKET);
    (byHeight.get(k) ?? byHeight.set(k, []).get(k)!).push(b);
  }
  // (Running wording — a journal's name, a volume — says what it is in any face: mirrored heads set
  // the journal in one face on odd pages and the authors in another on even ones.)
  return (b: LaidOutBlock, anyFace = false): boolean => {
    const cy = midY(b),
      k = Math.round(cy / RUNNING_BUCKET);
    for (const kk of [k - 1, k, k + 1]) {
      for (const r of byHeight.get(kk) ?? []) {
        if (
          r !== b &&
          Math.abs(midY(r) - cy) < RUNNING_BUCKET &&
          (anyFace ||
            (Math.abs(r.hints.fontSize - b.hints.fontSize) < 0.6 &&
              r.hints.italic === b.hints.italic &&
              r.hints.bold === b.hints.bold))
        )
          return true;
      }
    }
    return false;
  };
}

/**
 * Text level with a page number in the margin is part of the same running line ("Page 1 ...
 * Report title", "633 ... Communications of the ACM").
 * (A lone capital letter is more often a table code than a roman page number.)
 */
function marginPageNumbers(out: ReadonlyMap<LaidOutBlock, Furniture>): LaidOutBlock[] {
  return [...out.entries()]
    .filter(
      ([b, f]) =>
        f === 'page_number' && (/\d/.test(b.hints.text) || /^[ivxlc]+$|^[IVXLC]{2,}$/.test(b.hints.text.trim())),
    )
    .map(([b]) => b);
}

/** How margin text joins the running text of its page (see growRunning). */
function runningNeighbours(
  numbers: readonly LaidOutBlock[],
  pageOf: ReadonlyMap<LaidOutBlock, number>,
): {
  joins: (a: LaidOutBlock, b: LaidOutBlock) => boolean;
  outward: (a: LaidOutBlock, b: LaidOutBlock) => boolean;
  levelWithNumber: (a: LaidOutBlock, b: LaidOutBlock) => boolean;
} {
  // The same goes, step by step, for margin text stacked right on top of such a line, or level with it.
  const joins = (a: LaidOutBlock, b: LaidOutBlock): boolean => {
    if (pageOf.get(a) !== pageOf.get(b) || Math.abs(a.hints.fontSize - b.hints.fontSize) >= 1) return false;
    const [ax0, ay0, ax1, ay1] = box(a),
      [bx0, by0, bx1, by1] = box(b);
    if (Math.abs(ay0 - by0) < SAME_TOP) return true;
    return Math.min(ax1, bx1) > Math.max(ax0, bx0) && Math.max(by0 - ay1, ay0 - by1) < 0.01;
  };
  // From running text found otherwise, only towards the page edge (never up into the text).
  const outward = (a: LaidOutBlock, b: LaidOutBlock): boolean => {
    const [, ay0, , ay1] = box(a),
      [, by0, , by1] = box(b);
    return Math.abs(ay0 - by0) < SAME_TOP || (b.hints.zone === 'top' ? by1 <= ay0 + TOUCHING : by0 >= ay1 - TOUCHING);
  };
  // A single line level with a page number at the edge of the page is its running head, in
  // whatever face (a chapter title set larger than the text beside "page 4").
  const levelWithNumber = (a: LaidOutBlock, b: LaidOutBlock): boolean =>
    numbers.includes(a) &&
    a.hints.zone !== 'body' &&
    b.hints.lineCount === 1 &&
    pageOf.get(a) === pageOf.get(b) &&
    Math.abs(box(a)[1] - box(b)[1]) < SAME_TOP;
  return { joins, outward, levelWithNumber };
}

/**
 * Running text grown from `anchors`, step by step (three rounds at most): margin text of the same
 * page stacked on or level with it (`towardsEdge`: only towards the page edge).
 */
function growRunning(
  scan: FurnitureScan,
  fallback: readonly Fallback[],
  numbers: readonly LaidOutBlock[],
  pageOf: ReadonlyMap<LaidOutBlock, number>,
  anchors: LaidOutBlock[],
  towardsEdge: boolean,
): void {
  const { out } = scan;
  const { joins, outward, levelWithNumber } = runningNeighbours(numbers, pageOf);
  // Anchors by page: a block is only compared with the running text of its own page.
  const onPage = new Map<number, LaidOutBlock[]>();
  for (const a of anchors) {
    const pn = pageOf.get(a) ?? 0;
    (onPage.get(pn) ?? onPage.set(pn, []).get(pn)!).push(a);
  }
  for (let round = 0; round < 3; round++) {
    let grew = false;
    for (const { b } of fallback) {
      if (out.has(b) || b.hints.lineCount > 3 || b.hints.text.length > 120) continue;
      const here = onPage.get(pageOf.get(b) ?? 0);
      if (!here) continue;
      if (
        b.hints.zone === 'body'
          ? !here.some((a) => levelWithNumber(a, b))
          : !here.some((a) => a !== b && joins(a, b) && (!towardsEdge || outward(a, b)))
      )
        continue;
      out.set(b, b.hints.zone === 'top' ? 'page_header' : 'page_footer');
      here.push(b);
      grew = true;
    }
    if (!grew) break;
  }
}

/**
 * Margin text that repetition did not settle: running wording, or (in a long document) text where
 * the running text of other pages sits, in its face; in a short one, text set apart in a smaller face.
 */
function judgeUnrepeated(
  scan: FurnitureScan,
  fallback: readonly Fallback[],
  likeRunning: (b: LaidOutBlock, anyFace?: boolean) => boolean,
): void {
  const { out, n, need, body } = scan;
  for (const { b } of fallback) {
    const t = b.hints.text.trim();
    if (out.has(b)) continue;
    // Running wording ("Volume 21 Number 8", a journal's name) may be set on a few stacked lines.
    // In a long document only words that can be nothing else count so (a copyright line, a DOI, an
    // ISSN under the first page's text): elsewhere "journal" or "conference" may be the text's own.
    if (
      b.hints.lineCount <= 3 &&
      t.length <= 120 &&
      b.hints.zone !== 'body' &&
      (n < need + 1 || IMPRINT_RE.test(t)) &&
      (b.hints.lineCount === 1 ? RUNNING_RE : RUNNING_STACKED).test(t) &&
      !prose(t)
    ) {
      out.set(b, b.hints.zone === 'top' ? 'page_header' : 'page_footer');
      continue;
    }
    // Footnotes open with a number or a sign; a header may start with a year or a number.
    if (
      b.hints.lineCount !== 1 ||
      t.length > 120 ||
      (b.hints.zone !== 'top' && /^[\d*†‡§]/.test(t)) ||
      /^[*†‡§]/.test(t)
    )
      continue;
    if (n >= need + 1) {
      const wording = b.hints.zone === 'top' && RUNNING_RE.test(t);
      if (b.hints.zone !== 'body' && (b.hints.isolated || wording) && likeRunning(b, wording))
        out.set(b, b.hints.zone === 'top' ? 'page_header' : 'page_footer');
      continue;
    }
    // Too few pages to see repetition: margin text set apart from the body, in a smaller face or
    // saying what running text says (journal, volume, copyright, address of the document).
    // The bottom margin also holds footnotes and notes, so there only the wording counts.
    // (Not a table's or a figure's caption set at the head of the page, in the small face captions have.)
    if (
      b.hints.zone === 'top' &&
      b.block.type !== 'caption' &&
      ((b.hints.fontSize <= body * 0.92 && t.length <= 80) || (RUNNING_RE.test(t) && !prose(t)))
    )
      out.set(b, 'page_header');
    else if (b.hints.zone === 'bottom' && RUNNING_RE.test(t) && !prose(t)) out.set(b, 'page_footer');
    // A line in a clearly smaller face at the very foot of the page (an imprint, an address) is
    // a footer; notes and sources under the text say so, and footnotes start with their mark.
    else if (
      b.hints.zone === 'bottom' &&
      b.hints.isolated &&
      b.hints.fontSize <= body * 0.8 &&
      t.length <= 100 &&
      (b.block.bbox?.[1] ?? 0) >= 0.92 &&
      !/^(?:notes?|sources?|\(?[a-z]\))\b/i.test(t)
    )
      out.set(b, 'page_footer');
    // A short line alone at the very foot of the page, set no larger than the text, well apart
    // from it: a footer, whatever its face.
    else if (
      b.hints.zone === 'bottom' &&
      b.hints.isolated &&
      b.hints.fontSize <= body + 0.5 &&
      !b.hints.bold &&
      t.length <= 80 &&
      (b.block.bbox?.[1] ?? 0) >= 0.93 &&
      !/^(?:notes?|sources?|\(?[a-z]\))\b/i.test(t) &&
      !/[.:]$/.test(t)
    )
      out.set(b, 'page_footer');
  }
}

/**
 * Nothing of a page's own text stands above its running head. Top-margin text that no other page
 * repeats and that has no running wording, set under a title or a paragraph, is the start of what
 * follows (a table's column heads "Notes 2024 2023" under the statement's title), not a header or
 * a page number.
 */
function dropAboveText(scan: FurnitureScan): void {
  const { pages, out, n, counts, need } = scan;
  for (const p of pages) {
    let firstBottom = Infinity;
    for (const o of p.blocks) if (!out.has(o) && o.hints.text.trim()) firstBottom = Math.min(firstBottom, box(o)[3]);
    if (firstBottom === Infinity) continue;
    for (const b of p.blocks) {
      if (!out.has(b) || bandOf(b) !== 'top' || b.hints.lineNumbers) continue;
      if (n >= 2 && (counts.get(`top|${keyOf(b.hints.text.trim())}`)?.size ?? 0) >= need) continue;
      // Running wording ("Page 1 of 1", a journal's name) says what it is wherever it stands.
      if (RUNNING_RE.test(b.hints.text)) continue;
      const y0 = box(b)[1];
      if (firstBottom <= y0 + TOUCHING) out.delete(b);
    }
  }
}

/**
 * A running head set in parts across the top of the page, one line: two or three short texts level
 * with each other, spread from near one side of the page to near the other, set apart from the body
 * above all of its text ("DEMO(1)   User Commands   DEMO(1)" over a manual page, "Chapter 2 ...
 * 17"). A page alone shows it as well as a long document does: a heading or a line of text is not
 * set in parts spread over the width.
 */
function partedHeads(scan: FurnitureScan): void {
  const { pages, out } = scan;
  for (const p of pages) {
    const top = p.blocks.filter(
      (b) =>
        !out.has(b) &&
        b.hints.zone === 'top' &&
        b.hints.lineCount === 1 &&
        b.block.node.kind === 'paragraph' &&
        b.hints.text.trim().length > 0 &&
        b.hints.text.length <= 60,
    );
    const done = new Set<LaidOutBlock>();
    for (const b of top) {
      if (done.has(b)) continue;
      const row = top.filter((o) => Math.abs(box(o)[1] - box(b)[1]) < SAME_TOP).sort((x, y) => box(x)[0] - box(y)[0]);
      for (const o of row) done.add(o);
      if (row.length < 2 || row.length > 3) continue;
      const x0 = box(row[0]!)[0],
        x1 = box(row.at(-1)!)[2];
      const apart = row.every((o, i) => i === 0 || box(o)[0] - box(row[i - 1]!)[2] >= 0.05);
      const rowTop = Math.min(...row.map((o) => box(o)[1]));
      const above = p.blocks.some((o) => !row.includes(o) && !out.has(o) && box(o)[3] <= rowTop + TOUCHING);
      if (x1 - x0 < 0.6 || !apart || above) continue;
      for (const o of row) out.set(o, 'page_header');
    }
  }
}

/** A page number standing alone: one to three figures or a roman numeral, with the dashes some set round it. */
const BARE_NUMBER = /^[-–—]?\s*(?:\d{1,3}|[ivxlc]{1,6})\s*[-–—]?$/i;

/**
 * A bare page number under the text of a page that is not full (LaTeX's folio under a short page, a
 * report's last page), too high on the page for the margin bands: the page's lowest text, one number
 * in no larger a face than the text, centred under the text or on the page, a line or more below
 * everything else. A page alone shows it as well as a long document. (A number that is the body's
 * own last line stands flush with the text, not centred: "42" under "The deepest well reached".)
 */
function centredFolios(scan: FurnitureScan): void {
  const { pages, out, body } = scan;
  for (const p of pages) {
    const text = p.blocks.filter((b) => !out.has(b) && b.hints.text.trim().length > 0);
    if (text.length < 2) continue;
    const last = text.reduce((m, b) => (box(b)[1] > box(m)[1] ? b : m));
    const [x0, y0, x1, y1] = box(last);
    if (
      !BARE_NUMBER.test(last.hints.text.trim()) ||
      last.hints.lineCount !== 1 ||
      last.block.node.kind !== 'paragraph' ||
      last.hints.fontSize > body + 0.5 ||
      y0 < 0.5
    )
      continue;
    const others = text.filter((b) => b !== last);
    const above = Math.max(...others.map((b) => box(b)[3]));
    if (y0 - above < (y1 - y0) * 1.2) continue;
    const left = Math.min(...others.map((b) => box(b)[0])),
      right = Math.max(...others.map((b) => box(b)[2]));
    const cx = (x0 + x1) / 2;
    if (Math.abs(cx - (left + right) / 2) > FOLIO_CENTRED && Math.abs(cx - 0.5) > FOLIO_CENTRED) continue;
    out.set(last, 'page_number');
  }
}

export function markFurniture(pages: PageLayout[], body: number): Map<LaidOutBlock, Furniture> {
  const out = new Map<LaidOutBlock, Furniture>();
  for (const p of pages) for (const b of p.blocks) if (b.hints.lineNumbers) out.set(b, 'page_number');
  const { counts, shapes } = marginShapes(pages);
  const n = pages.length;
  // Repeated on three pages (two in a short document) at the same edge: running text. Chapter
  // headers change every few pages, so the bar is not a share of the whole document.
  const need = Math.min(3, Math.max(2, Math.ceil(n * 0.25)));
  const scan: FurnitureScan = { pages, body, n, need, out, counts, shapes };
  const fallback = pageNumbersAndRepeats(scan);
  const likeRunning = runningByHeight(out);
  const numbers = marginPageNumbers(out);
  const pageOf = new Map<LaidOutBlock, number>();
  for (const p of pages) for (const b of p.blocks) pageOf.set(b, p.pageNumber);
  growRunning(scan, fallback, numbers, pageOf, [...numbers], false);
  judgeUnrepeated(scan, fallback, likeRunning);
  partedHeads(scan);
  centredFolios(scan);
  growRunning(
    scan,
    fallback,
    numbers,
    pageOf,
    [...out.entries()]
      .filter(([b, f]) => b.hints.zone !== 'body' && (f !== 'page_number' || numbers.includes(b)))
      .map(([b]) => b),
    true,
  );
  dropAboveText(scan);
  return out;
}
