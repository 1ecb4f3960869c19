/**
 * Document-wide passes over the compact per-page layouts, run on the main thread once every page is
 * back: heading levels from font statistics over all pages, and running headers, footers and page
 * numbers found by repetition across pages and by position.
 */
import { inlinesText, type DocBlock, type DocPage, type HeadingNode, type Inline, type TextInline } from '../../model/document.js';
import type { LaidOutBlock, PageLayout } from './types.js';
import { ENDS_ON_JOINING_WORD, ENDS_SENTENCE } from './lines.js';

// "3", "- 3 -", "Page 3 of 10", "iv", "Page | 3", "3 | Page", "3/10", "Seite 3 von 9", "p. 3".
const PAGE_NUMBER_RE = /^(?:(?:page|p\.|pg\.?|seite|página|pagina)\s*[|:·•]?)?\s*[-–—]?\s*(\d{1,4}|[ivxlcdm]{1,7})\s*[-–—]?\s*(?:(?:of|\/|von|de|sur)\s*\d{1,4})?(?:\s*[|·•]\s*page)?$/i;

function keyOf(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().slice(0, 120);
}

export interface DocumentPassOptions {
  /** Pages of the whole document (repetition thresholds); defaults to the layouts given. */
  pageCount?: number;
}

function stripMarks(inlines: Inline[]): Inline[] {
  return inlines.map((i) => (i.type === 'text' ? ({ type: 'text', text: i.text, ...(i.href ? { href: i.href } : {}) } as TextInline) : i));
}

/** Body font size: the size carrying the most characters over the document. */
export function bodyFontSize(pages: PageLayout[]): number {
  const hist = new Map<number, number>();
  for (const p of pages) for (const [k, n] of Object.entries(p.stats.fontChars)) hist.set(Number(k), (hist.get(Number(k)) ?? 0) + n);
  let best = 10, bestN = -1;
  for (const [k, n] of hist) if (n > bestN) { best = k; bestN = n; }
  return best;
}

const RUNNING_RE = /©|\bcopyright\b|all rights reserved|\bdoi\b|https?:\/\/|www\.|\bvol\.|\bissue\b|\bpp\.|\bpage \d|confidential|\bproceedings\b|\bconference\b|\bjournal\b|\bpreprint\b|\barxiv\b|under review|\bmanuscript\b|\bworkshop\b|\btransactions\b|\bissn\b|\bet al\.?$|\bvol(?:ume)?\.? ?\d+\b.*\b(?:no|number|issue)\.? ?\d/i;

/** Running wording that is still running text when set on two or three stacked lines. */
const RUNNING_STACKED = /©|\bcopyright\b|all rights reserved|\bissn\b|\bproceedings\b|\bjournal\b|\btransactions\b|\bvol(?:ume)?\.? ?\d+\b.*\b(?:no|number|issue)\.? ?\d/i;

function markFurniture(pages: PageLayout[], body: number): Map<LaidOutBlock, 'page_header' | 'page_footer' | 'page_number'> {
  const out = new Map<LaidOutBlock, 'page_header' | 'page_footer' | 'page_number'>();
  for (const p of pages) for (const b of p.blocks) if (b.hints.lineNumbers) out.set(b, 'page_number');
  const bandOf = (b: LaidOutBlock): 'top' | 'bottom' | 'body' => (b.hints.zone !== 'body' ? b.hints.zone : b.hints.band ?? 'body');
  const counts = new Map<string, Set<number>>();
  for (const p of pages) {
    for (const b of p.blocks) {
      const band = bandOf(b);
      if (band === 'body' || !b.hints.text) continue;
      const k = `${band}|${keyOf(b.hints.text)}`;
      (counts.get(k) ?? counts.set(k, new Set()).get(k)!).add(p.pageNumber);
    }
  }
  const n = pages.length;
  // Repeated on three pages (two in a short document) at the same edge: running text. Chapter
  // headers change every few pages, so the bar is not a share of the whole document.
  const need = Math.min(3, Math.max(2, Math.ceil(n * 0.25)));
  const fallback: Array<{ b: LaidOutBlock; band: 'top' | 'bottom' }> = [];
  for (const p of pages) {
    for (const b of p.blocks) {
      const band = bandOf(b);
      if (band === 'body' || !b.hints.text) continue;
      const t = b.hints.text.trim();
      if (PAGE_NUMBER_RE.test(t) && t.length <= 20 && (b.hints.zone !== 'body' || n >= 2)) { out.set(b, 'page_number'); continue; }
      const k = `${band}|${keyOf(t)}`;
      if (n >= 2 && (counts.get(k)?.size ?? 0) >= need) { out.set(b, band === 'top' ? 'page_header' : 'page_footer'); continue; }
      fallback.push({ b, band });
    }
  }
  // Running text found by repetition, by height on the page and face: in a long document, margin
  // text not repeated word for word is running text only when it sits where the repeated running
  // text of other pages sits, in the same face (heads that alternate between even and odd pages,
  // chapter titles that change).
  // Repeated running text by height on the page (buckets of 0.012 page heights: a lookup per block,
  // not a scan of every page's running text).
  const midY = (b: LaidOutBlock): number => ((b.block.bbox?.[1] ?? 0) + (b.block.bbox?.[3] ?? 0)) / 2;
  const byHeight = new Map<number, LaidOutBlock[]>();
  for (const [b, f] of out) {
    if (f === 'page_number') continue;
    const k = Math.round(midY(b) / 0.012);
    (byHeight.get(k) ?? byHeight.set(k, []).get(k)!).push(b);
  }
  const likeRunning = (b: LaidOutBlock): boolean => {
    const cy = midY(b), k = Math.round(cy / 0.012);
    for (const kk of [k - 1, k, k + 1]) {
      for (const r of byHeight.get(kk) ?? []) {
        if (r !== b && Math.abs(midY(r) - cy) < 0.012 && Math.abs(r.hints.fontSize - b.hints.fontSize) < 0.6 && r.hints.italic === b.hints.italic && r.hints.bold === b.hints.bold) return true;
      }
    }
    return false;
  };
  // Text level with a page number in the margin is part of the same running line ("Page 1 ...
  // Report title", "633 ... Communications of the ACM").
  // (A lone capital letter is more often a table code than a roman page number.)
  const numbers = [...out.entries()].filter(([b, f]) => f === 'page_number' && (/\d/.test(b.hints.text) || /^[ivxlc]+$|^[IVXLC]{2,}$/.test(b.hints.text.trim()))).map(([b]) => b);
  const pageOf = new Map<LaidOutBlock, number>();
  for (const p of pages) for (const b of p.blocks) pageOf.set(b, p.pageNumber);
  // The same goes, step by step, for margin text stacked right on top of such a line, or level with it.
  const box = (b: LaidOutBlock): [number, number, number, number] => (b.block.bbox ?? [0, 0, 0, 0]) as [number, number, number, number];
  const joins = (a: LaidOutBlock, b: LaidOutBlock): boolean => {
    if (pageOf.get(a) !== pageOf.get(b) || Math.abs(a.hints.fontSize - b.hints.fontSize) >= 1) return false;
    const [ax0, ay0, ax1, ay1] = box(a), [bx0, by0, bx1, by1] = box(b);
    if (Math.abs(ay0 - by0) < 0.006) return true;
    return Math.min(ax1, bx1) > Math.max(ax0, bx0) && Math.max(by0 - ay1, ay0 - by1) < 0.01;
  };
  // From running text found otherwise, only towards the page edge (never up into the text).
  const outward = (a: LaidOutBlock, b: LaidOutBlock): boolean => {
    const [, ay0, , ay1] = box(a), [, by0, , by1] = box(b);
    return Math.abs(ay0 - by0) < 0.006 || (b.hints.zone === 'top' ? by1 <= ay0 + 0.002 : by0 >= ay1 - 0.002);
  };
  // A single line level with a page number at the edge of the page is its running head, in
  // whatever face (a chapter title set larger than the text beside "page 4").
  const levelWithNumber = (a: LaidOutBlock, b: LaidOutBlock): boolean => numbers.includes(a) && a.hints.zone !== 'body' && b.hints.lineCount === 1
    && pageOf.get(a) === pageOf.get(b) && Math.abs(box(a)[1] - box(b)[1]) < 0.006;
  const grow = (anchors: LaidOutBlock[], towardsEdge: boolean): void => {
    // Anchors by page: a block is only compared with the running text of its own page.
    const onPage = new Map<number, LaidOutBlock[]>();
    for (const a of anchors) { const pn = pageOf.get(a) ?? 0; (onPage.get(pn) ?? onPage.set(pn, []).get(pn)!).push(a); }
    for (let round = 0; round < 3; round++) {
      let grew = false;
      for (const { b } of fallback) {
        if (out.has(b) || b.hints.lineCount > 3 || b.hints.text.length > 120) continue;
        const here = onPage.get(pageOf.get(b) ?? 0);
        if (!here) continue;
        if (b.hints.zone === 'body' ? !here.some((a) => levelWithNumber(a, b)) : !here.some((a) => a !== b && joins(a, b) && (!towardsEdge || outward(a, b)))) continue;
        out.set(b, b.hints.zone === 'top' ? 'page_header' : 'page_footer');
        here.push(b);
        grew = true;
      }
      if (!grew) break;
    }
  };
  grow([...numbers], false);
  for (const { b } of fallback) {
    const t = b.hints.text.trim();
    if (out.has(b)) continue;
    // Running wording ("Volume 21 Number 8", a journal's name) may be set on a few stacked lines.
    if (b.hints.lineCount <= 3 && t.length <= 120 && b.hints.zone !== 'body' && n < need + 1 && (b.hints.lineCount === 1 ? RUNNING_RE : RUNNING_STACKED).test(t)) { out.set(b, b.hints.zone === 'top' ? 'page_header' : 'page_footer'); continue; }
    // Footnotes open with a number or a sign; a header may start with a year or a number.
    if (b.hints.lineCount !== 1 || t.length > 120 || (b.hints.zone !== 'top' && /^[\d*†‡§]/.test(t)) || /^[*†‡§]/.test(t)) continue;
    if (n >= need + 1) {
      if (b.hints.zone !== 'body' && b.hints.isolated && likeRunning(b)) out.set(b, b.hints.zone === 'top' ? 'page_header' : 'page_footer');
      continue;
    }
    // Too few pages to see repetition: margin text set apart from the body, in a smaller face or
    // saying what running text says (journal, volume, copyright, address of the document).
    // The bottom margin also holds footnotes and notes, so there only the wording counts.
    if (b.hints.zone === 'top' && ((b.hints.fontSize <= body * 0.92 && t.length <= 80) || RUNNING_RE.test(t))) out.set(b, 'page_header');
    else if (b.hints.zone === 'bottom' && RUNNING_RE.test(t)) out.set(b, 'page_footer');
    // A line in a clearly smaller face at the very foot of the page (an imprint, an address) is
    // a footer; notes and sources under the text say so, and footnotes start with their mark.
    else if (b.hints.zone === 'bottom' && b.hints.isolated && b.hints.fontSize <= body * 0.8 && t.length <= 100 && (b.block.bbox?.[1] ?? 0) >= 0.92
      && !/^(?:notes?|sources?|\(?[a-z]\))\b/i.test(t)) out.set(b, 'page_footer');
    // A short line alone at the very foot of the page, set no larger than the text, well apart
    // from it: a footer, whatever its face.
    else if (b.hints.zone === 'bottom' && b.hints.isolated && b.hints.fontSize <= body + 0.5 && !b.hints.bold && t.length <= 80 && (b.block.bbox?.[1] ?? 0) >= 0.93
      && !/^(?:notes?|sources?|\(?[a-z]\))\b/i.test(t) && !/[.:]$/.test(t)) out.set(b, 'page_footer');
  }
  grow([...out.entries()].filter(([b, f]) => b.hints.zone !== 'body' && (f !== 'page_number' || numbers.includes(b))).map(([b]) => b), true);
  // Nothing of a page's own text stands above its running head. Top-margin text that no other page
  // repeats and that has no running wording, set under a title or a paragraph, is the start of what
  // follows (a table's column heads "Notes 2024 2023" under the statement's title), not a header or
  // a page number.
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
      if (firstBottom <= y0 + 0.002) out.delete(b);
    }
  }
  return out;
}

/**
 * Turns per-page layouts into model pages: headings get levels, the largest heading on the first
 * page may become the title, and margin text repeated across pages becomes furniture.
 */
export function finishDocument(pages: PageLayout[]): DocPage[] {
  const body = bodyFontSize(pages);
  const furniture = markFurniture(pages, body);
  const totalChars = pages.reduce((n, p) => n + p.stats.chars, 0);

  // Sizes that stand out from body text, and how much text each carries.
  const sizeChars = new Map<number, number>();
  for (const p of pages) for (const [k, n] of Object.entries(p.stats.fontChars)) sizeChars.set(Number(k), (sizeChars.get(Number(k)) ?? 0) + n);
  const isHeadingSize = (s: number): boolean => s >= body * 1.12 && s - body >= 0.9;
  const boldBodyChars = pages.reduce((n, p) => n + p.blocks.filter((b) => b.hints.bold && !b.hints.headingCandidate).reduce((m, b) => m + b.hints.text.length, 0), 0);
  // When most of the text is bold, bold says nothing about headings.
  const boldMeansHeading = boldBodyChars < totalChars * 0.4;

  const candidates: Array<{ b: LaidOutBlock; size: number }> = [];
  for (const p of pages) {
    // A heading also stands out from the body text of its own page: where most of the document
    // is set smaller (pages of notes, a long appendix), its body size would make every line of a
    // normal page look large.
    let pageBody = 0, pageBodyN = 0;
    for (const [k, n] of Object.entries(p.stats.fontChars)) if (n > pageBodyN) { pageBody = Number(k); pageBodyN = n; }
    const localBody = p.stats.chars >= 300 && pageBodyN >= p.stats.chars * 0.4 ? Math.max(body, pageBody) : body;
    for (const b of p.blocks) {
      if (!b.hints.headingCandidate || furniture.has(b)) continue;
      // Recognition that doubts what it read (under 0.5: often marks of a chart or a stamp taken for
      // letters) is no ground for a heading.
      const ocr = b.block.confidence?.ocr;
      if (ocr != null && ocr < 0.5) continue;
      const s = Math.round(b.hints.fontSize * 2) / 2;
      const standsOut = isHeadingSize(s) && s >= localBody * 1.12 && s - localBody >= 0.9;
      // Bold at body size is a heading when short and not a list of names or terms (author lines).
      const boldHeading = boldMeansHeading && b.hints.bold && s >= localBody - 0.6 && b.hints.lineCount <= 2 && b.hints.text.length <= 120
        && (b.hints.text.match(/,/g)?.length ?? 0) < 3;
      // A numbered subsection set in italic at body size, alone on its line ("2.1 Acoustic surveys").
      const italicSection = b.hints.italic && /^\d{1,2}(?:\.\d{1,2})+\.?$/.test(b.hints.numbering) && b.hints.lineCount === 1
        && b.hints.text.length <= 80 && !/[.:;,]$/.test(b.hints.text) && Math.abs(s - localBody) <= 0.6;
      if (!standsOut && !boldHeading && !italicSection) continue;
      // A size carrying a large share of the document's text is a body size (two-size documents).
      if (standsOut && (sizeChars.get(s) ?? 0) > totalChars * 0.35) continue;
      candidates.push({ b, size: s + (b.hints.bold ? 0.01 : 0) });
    }
  }
  const sizes = [...new Set(candidates.map((c) => c.size))].sort((a, b) => b - a);
  const levelOfSize = new Map<number, number>();
  sizes.forEach((s, i) => levelOfSize.set(s, Math.min(6, i + 1)));
  // The title: the largest heading on the first page, when nothing else in the document is as large.
  let titleBlock: LaidOutBlock | null = null;
  if (sizes.length) {
    const firstPage = pages[0];
    const biggest = candidates.filter((c) => c.size === sizes[0]);
    if (firstPage && biggest.length === 1 && firstPage.blocks.includes(biggest[0]!.b) && sizes[0]! >= body * 1.3) titleBlock = biggest[0]!.b;
  }
  const shift = titleBlock ? 1 : 0;
  const heading = new Map<LaidOutBlock, number>();
  for (const c of candidates) {
    let level = levelOfSize.get(c.size) ?? 1;
    // Numbered sections: "1.2.3" is one level deeper than "1.2".
    const depth = c.b.hints.numbering ? c.b.hints.numbering.replace(/\.$/, '').split('.').filter(Boolean).length : 0;
    if (depth >= 2) level = Math.max(level, Math.min(6, depth + shift));
    heading.set(c.b, Math.max(1, Math.min(6, level)));
  }

  const { runsOn, continues } = pageBreakContinuations(pages, furniture, heading);

  return pages.map((p): DocPage => {
    const blocks: DocBlock[] = p.blocks.map((lb) => {
      const f = furniture.get(lb);
      if (f) return { ...lb.block, type: f, label: f, furniture: true };
      const level = heading.get(lb);
      if (level !== undefined) {
        let content: Inline[];
        const n = lb.block.node;
        if (n.kind === 'paragraph') content = stripMarks(n.content);
        else if (n.kind === 'list') content = [{ type: 'text', text: lb.hints.text }];
        else return lb.block;
        const node: HeadingNode = { kind: 'heading', level: level as HeadingNode['level'], content };
        return { ...lb.block, node, type: lb === titleBlock ? 'title' : 'section_header', label: `heading_${level}` };
      }
      if (continues.has(lb) || runsOn.has(lb)) return { ...lb.block, ...(continues.has(lb) ? { continues: true } : {}), ...(runsOn.has(lb) ? { runsOn: true } : {}) };
      return lb.block;
    });
    // A page that could not be read has no geometry to report.
    const page: DocPage = { pageNumber: p.pageNumber, width: p.width > 0 ? p.width : null, height: p.height > 0 ? p.height : null, status: p.status, blocks };
    if (p.error) page.error = p.error;
    return page;
  });
}

/**
 * Paragraphs that go on from the page before: the last paragraph of the body of one page stops
 * mid-sentence (no closing punctuation) and the first of the next page's body starts in lower case
 * (or the page ended on a comma, a joining word or in running text), in the same size and face. Running
 * heads, page numbers, footers and the page's footnotes between them do not count. Where the next
 * page starts in lower case, the first half may be an earlier paragraph of running text: the last
 * text of a column, read before a sidebar or a figure set beside it. Returns both halves of each.
 */
function pageBreakContinuations(pages: PageLayout[], furniture: Map<LaidOutBlock, unknown>, heading: Map<LaidOutBlock, number>): { runsOn: Set<LaidOutBlock>; continues: Set<LaidOutBlock> } {
  const runsOn = new Set<LaidOutBlock>();
  const continues = new Set<LaidOutBlock>();
  // Footnotes at the foot of the page come after its text, but the text goes on over them.
  const bodyBlocks = (p: PageLayout): LaidOutBlock[] => p.blocks.filter((b) => !furniture.has(b) && b.block.label !== 'footnote');
  // (The block's own text: the hint is cut short.)
  const textOf = (b: LaidOutBlock): string => (b.block.node.kind === 'paragraph' ? inlinesText(b.block.node.content).trim() : '');
  // Running text: a paragraph of several lines (a stack of short lines says less).
  const running = (b: LaidOutBlock): boolean => b.hints.lineCount >= 2 && textOf(b).length >= 150;
  const sameFace = (a: LaidOutBlock, b: LaidOutBlock): boolean => Math.abs(a.hints.fontSize - b.hints.fontSize) < 0.6 && a.hints.bold === b.hints.bold && a.hints.italic === b.hints.italic;
  for (let i = 1; i < pages.length; i++) {
    const before = pages[i - 1]!, page = pages[i]!;
    if (before.status === 'failed' || page.status === 'failed' || page.pageNumber !== before.pageNumber + 1) continue;
    const body = bodyBlocks(before);
    const first = bodyBlocks(page)[0];
    if (!first || heading.has(first) || first.block.node.kind !== 'paragraph' || runsOn.has(first)) continue;
    const lower = /^\p{Ll}/u.test(textOf(first));
    let half: LaidOutBlock | null = null;
    const last = body.at(-1);
    if (last && !heading.has(last) && last.block.node.kind === 'paragraph' && sameFace(last, first)) {
      const ending = textOf(last);
      // The next page starts in lower case, or the page ended on a comma or a word that cannot end
      // a sentence ("… for" over "QA datasets, …"), or in the middle of running text (a paragraph of
      // several lines that stops without a stop: "… on multiple open-domain" over "QA datasets, …").
      if (!ENDS_SENTENCE.test(ending) && (lower || /,$/.test(ending) || ENDS_ON_JOINING_WORD.test(ending) || running(last))) half = last;
    }
    if (!half && lower) {
      // The last paragraph of running text on the page, in the face of the continuation, that stops
      // without a stop; after it only other kinds of text (a sidebar, a figure's labels and lists).
      for (let k = body.length - 1; k >= 0 && !half; k--) {
        const b = body[k]!;
        if (b.block.node.kind !== 'paragraph' || heading.has(b) || !sameFace(b, first) || b.hints.lineCount < 2) continue;
        if (running(b) && !ENDS_SENTENCE.test(textOf(b))) half = b;
        else break;
      }
    }
    if (!half) continue;
    runsOn.add(half);
    continues.add(first);
  }
  return { runsOn, continues };
}
