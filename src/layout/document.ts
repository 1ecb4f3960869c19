/**
 * Document-wide passes over the compact per-page layouts, run on the main thread once every page is
 * back: heading levels from font statistics over all pages, running headers, footers and page
 * numbers found by repetition across pages and by position, and hyphens at line ends settled by
 * the document's own spellings.
 */
import {
  inlinesText,
  type DocBlock,
  type DocPage,
  type HeadingNode,
  type Inline,
  type Node,
  type TextInline,
} from '../model/document.js';
import type { LaidOutBlock, OutlineEntry, PageLayout } from './types.js';
import { collectSpellings, settleLineEndHyphens, type Spellings } from './inlines.js';
import { ENDS_ON_JOINING_WORD, ENDS_SENTENCE } from './lines.js';
import { keyOf, markFurniture, sameButPageNumber } from './furniture.js';
import { headingsFromOutline } from './outline-headings.js';
import { joinContinuedTables } from './table-continuation.js';
import { titleFirst } from './cover-order.js';

/**
 * A heading's content without the emphasis its face gives every heading; links and strikethrough
 * say more than the face, and stay.
 */
function stripMarks(inlines: Inline[]): Inline[] {
  return inlines.map((i) =>
    i.type === 'text'
      ? ({
          type: 'text',
          text: i.text,
          ...(i.href ? { href: i.href } : {}),
          ...(i.strike ? { strike: true } : {}),
        } as TextInline)
      : i,
  );
}

/** Body font size: the size carrying the most characters over the document. */
export function bodyFontSize(pages: PageLayout[]): number {
  const hist = new Map<number, number>();
  for (const p of pages)
    for (const [k, n] of Object.entries(p.stats.fontChars)) hist.set(Number(k), (hist.get(Number(k)) ?? 0) + n);
  let best = 10,
    bestN = -1;
  for (const [k, n] of hist)
    if (n > bestN) {
      best = k;
      bestN = n;
    }
  return best;
}

/**
 * A running head (or foot) that a table at the page's edge took in as its first (or last) row: the
 * head of a page where a table goes on from the page before sits right over the table's column heads,
 * as a row of two or three parts ("Northgate Trust ... Annual Review 2024"). The same words at the
 * same height stand alone on other pages of the document, where they are running text: such a row
 * leaves the table and becomes blocks of its own, which the repetition test then takes as running
 * text. Every filled cell of the row must be one of those texts (digits aside: "Working Paper No. 17
 * ... 2" against "... 3"), so a table's own row stays.
 */
function peelRunningRows(pages: PageLayout[]): void {
  if (pages.length < 2) return;
  // Margin text standing alone (no table) by its wording, digits aside: where and on which page.
  const margin = new Map<string, Array<{ b: LaidOutBlock; page: number }>>();
  for (const p of pages)
    for (const b of p.blocks) {
      const band = b.hints.zone !== 'body' ? b.hints.zone : b.hints.band;
      if (!band || band === 'body' || b.block.node.kind === 'table' || !b.hints.text.trim() || !b.block.bbox) continue;
      const k = keyOf(b.hints.text);
      (margin.get(k) ?? margin.set(k, []).get(k)!).push({ b, page: p.pageNumber });
    }
  if (!margin.size) return;
  const cellText = (c: { content: Inline[] }): string => squeeze(inlinesText(c.content));
  for (const p of pages) {
    p.blocks = p.blocks.flatMap((lb): LaidOutBlock[] => {
      const node = lb.block.node,
        box = lb.block.bbox;
      if (node.kind !== 'table' || !box || node.rows.length < 3) return [lb];
      for (const edge of ['top', 'bottom'] as const) {
        const y = edge === 'top' ? box[1] : box[3];
        if (edge === 'top' ? y > 0.13 : y < 0.87) continue;
        const r = edge === 'top' ? 0 : node.rows.length - 1;
        const cells = node.rows[r]!.filter((c) => cellText(c));
        if (!cells.length || cells.length > 3 || cells.some((c) => c.rowSpan && c.rowSpan > 1)) continue;
        // Each cell's twin: the same words at the same height, alone, on another page.
        const twins = cells.map((c) =>
          (margin.get(keyOf(cellText(c))) ?? []).find(
            (o) =>
              o.page !== p.pageNumber &&
              Math.abs((edge === 'top' ? o.b.block.bbox![1] : o.b.block.bbox![3]) - y) < 0.012 &&
              sameButPageNumber(o.b.hints.text.trim(), o.page, cellText(c), p.pageNumber),
          ),
        );
        if (twins.some((t) => !t) || !cells.some((c) => /\p{L}{3}/u.test(cellText(c)))) continue;
        const rows = node.rows.filter((_, k) => k !== r);
        const peeled = cells.map((c, k): LaidOutBlock => {
          const twin = twins[k]!.b,
            [, ty0, , ty1] = twin.block.bbox!;
          const [x0, , x1] = box;
          return {
            block: {
              ...lb.block,
              node: { kind: 'paragraph', content: c.content },
              type: 'text',
              label: 'paragraph',
              bbox: [x0, edge === 'top' ? y : y - (ty1 - ty0), x1, edge === 'top' ? y + (ty1 - ty0) : y],
            },
            hints: { ...twin.hints, text: cellText(c), headingCandidate: false, numbering: '' },
          };
        });
        const table: LaidOutBlock = { ...lb, block: { ...lb.block, node: { ...node, rows } } };
        return edge === 'top' ? [...peeled, table] : [table, ...peeled];
      }
      return [lb];
    });
  }
}

/** Whitespace collapsed. */
const squeeze = (t: string): string => t.replace(/\s+/g, ' ').trim();

/**
 * A running footer set right under the body's last line is taken into the body's last block (a
 * contents entry "Command Code BMFOL Tax Module Display" over the footer "Cat. No. 28171E
 * (12-12-2022)"): the block, in the bottom band, ends with the words of a footer that other pages
 * show on its own, or with the first words of one (the footer's first line, when its second went
 * into the block too), and the block's last line stands where that footer's first line stands on
 * the other pages. Returns how many characters at the end of each such block are the footer's: at
 * least two words and a dozen characters, and never the whole block.
 */
function footerTails(pages: PageLayout[], furniture: Map<LaidOutBlock, string>): Map<LaidOutBlock, number> {
  const out = new Map<LaidOutBlock, number>();
  // Each footer's leading runs of words (a first line may end after any of them), with the pages
  // and heights of the footers they open.
  const heads = new Map<string, Array<{ page: number; y0: number }>>();
  for (const p of pages)
    for (const b of p.blocks) {
      if (furniture.get(b) !== 'page_footer' || !b.block.bbox) continue;
      const words = squeeze(b.block.node.kind === 'paragraph' ? inlinesText(b.block.node.content) : b.hints.text).split(
        ' ',
      );
      for (let k = 2; k <= words.length; k++) {
        const h = words.slice(0, k).join(' ');
        if (h.length >= 12)
          (heads.get(h) ?? heads.set(h, []).get(h)!).push({ page: p.pageNumber, y0: b.block.bbox[1] });
      }
    }
  if (!heads.size) return out;
  for (const p of pages)
    for (const b of p.blocks) {
      if (
        furniture.has(b) ||
        b.hints.band !== 'bottom' ||
        b.hints.lineCount < 2 ||
        b.block.node.kind !== 'paragraph' ||
        !b.block.bbox
      )
        continue;
      const t = squeeze(inlinesText(b.block.node.content));
      const [, y0, , y1] = b.block.bbox;
      const lastLine = y1 - (y1 - y0) / b.hints.lineCount;
      let best = 0;
      for (const [h, at] of heads) {
        if (
          h.length > best &&
          t.length > h.length + 1 &&
          t.endsWith(` ${h}`) &&
          at.some((f) => f.page !== p.pageNumber && Math.abs(f.y0 - lastLine) < 0.012)
        )
          best = h.length;
      }
      if (best) out.set(b, best);
    }
  return out;
}

/**
 * Content split before its last `n` characters of text, counted as `squeeze` counts them (a run of
 * spaces as one, none at the end); the spaces at the cut are dropped.
 */
function splitTail(content: Inline[], n: number): [Inline[], Inline[]] {
  const text = inlinesText(content).replace(/\s+$/, '');
  let at = text.length;
  for (let seen = 0; at > 0 && seen < n; at--) if (!/\s/.test(text[at - 1]!) || !/\s/.test(text[at - 2] ?? '')) seen++;
  const head: Inline[] = [],
    tail: Inline[] = [];
  let pos = 0;
  for (const i of content) {
    if (i.type !== 'text') {
      (pos < at ? head : tail).push(i);
      continue;
    }
    const end = pos + i.text.length;
    if (end <= at) head.push(i);
    else if (pos >= at) tail.push(i);
    else {
      head.push({ ...i, text: i.text.slice(0, at - pos) });
      tail.push({ ...i, text: i.text.slice(at - pos) });
    }
    pos = end;
  }
  const h = head.at(-1),
    t = tail[0];
  if (h?.type === 'text') head[head.length - 1] = { ...h, text: h.text.replace(/\s+$/, '') };
  if (t?.type === 'text') tail[0] = { ...t, text: t.text.replace(/^\s+/, '') };
  const kept = (xs: Inline[]): Inline[] => xs.filter((x) => x.type !== 'text' || x.text !== '');
  return [kept(head), kept(tail)];
}

/** Every run of inline content in a node (paragraphs, headings, list items, table cells, nested nodes). */
function inlineLists(node: Node): Inline[][] {
  switch (node.kind) {
    case 'paragraph':
    case 'heading':
      return [node.content];
    case 'list':
      return node.items.flatMap((i) => [i.content, ...(i.children ?? []).flatMap(inlineLists)]);
    case 'table':
      return node.rows.flatMap((r) => r.map((c) => c.content));
    case 'quote':
    case 'note':
      return node.children.flatMap(inlineLists);
    default:
      return [];
  }
}

/**
 * Line ends on a hyphen, settled by the document's own spellings (inlines.ts): "bench-" over "mark"
 * closes up in a document that writes "benchmark", "multi-" over "dataset" keeps its hyphen in one
 * that writes "multi-dataset". In place, before anything reads the blocks' text.
 */
function settleHyphens(pages: PageLayout[]): void {
  const lists = pages.flatMap((p) => p.blocks.flatMap((b) => inlineLists(b.block.node)));
  const spellings: Spellings = { words: new Set(), pairs: new Set() };
  for (const l of lists) collectSpellings(inlinesText(l), spellings);
  for (const l of lists) settleLineEndHyphens(l, spellings);
}

/**
 * A section heading told by its numbering alone, set at the body's size in the body's face
 * ("5.2 Sampling errors", "A. Station list", "IV. Discussion"): one short line of its own, its words
 * capitalised after the number, no sentence's end, and body text after it (a paragraph of more than one
 * line that is no item of the same list), which tells it from a list of short numbered items.
 */
function numberedSectionLine(b: LaidOutBlock, size: number, body: number, next: LaidOutBlock | undefined): boolean {
  const h = b.hints;
  if (!h.numbering || h.lineCount !== 1 || h.text.length > 80 || Math.abs(size - body) > 0.6) return false;
  if (!/^(?:\d{1,2}(?:\.\d{1,2}){0,3}\.?|[A-Z]\.|[IVX]{1,4}\.)$/.test(h.numbering)) return false;
  const rest = h.text.slice(h.numbering.length).trim();
  if (!/^\p{Lu}/u.test(rest) || /[.:;,!?]$/.test(rest) || rest.split(/\s+/).length > 10) return false;
  if (!next || next.hints.numbering || next.hints.lineCount < 2 || next.block.type !== 'text') return false;
  return Math.abs(next.hints.fontSize - body) <= 0.6;
}

/**
 * Numbered headings take their levels from their numbering's depth, under the level of the
 * top-level numbered ones ("5", "A.", "IV."): "5.2" set plain is as deep as "5.1" set bold, which
 * their faces alone would rank apart.
 */
function levelsFromNumbering(heading: Map<LaidOutBlock, number>): void {
  const depthOf = (b: LaidOutBlock): number =>
    /^(?:\d{1,2}(?:\.\d{1,2}){0,3}\.?|[A-Z]\.|[IVX]{1,4}\.)$/.test(b.hints.numbering)
      ? b.hints.numbering.replace(/\.$/, '').split('.').length
      : 0;
  const top = [...heading].filter(([b]) => depthOf(b) === 1).map(([, level]) => level);
  if (!top.length) return;
  const base = Math.min(...top);
  for (const [b] of heading) {
    const depth = depthOf(b);
    if (depth) heading.set(b, Math.min(6, base + depth - 1));
  }
}

/** The title: the largest heading on the first page, when nothing else in the document is as large. */
function titleOf(
  pages: PageLayout[],
  candidates: Array<{ b: LaidOutBlock; size: number }>,
  sizes: number[],
  body: number,
): LaidOutBlock | null {
  if (!sizes.length) return null;
  const firstPage = pages[0];
  const biggest = candidates.filter((c) => c.size === sizes[0]);
  if (firstPage && biggest.length === 1 && firstPage.blocks.includes(biggest[0]!.b) && sizes[0]! >= body * 1.3)
    return biggest[0]!.b;
  return null;
}

/**
 * Turns per-page layouts into model pages: headings get levels, the largest heading on the first
 * page may become the title, and margin text repeated across pages becomes furniture. The document's
 * outline (bookmarks), where it has one, names headings and their levels (outline-headings.ts).
 */
export function finishDocument(pages: PageLayout[], outline?: readonly OutlineEntry[]): DocPage[] {
  settleHyphens(pages);
  peelRunningRows(pages);
  const body = bodyFontSize(pages);
  const furniture = markFurniture(pages, body);
  joinContinuedTables(pages, furniture);
  const totalChars = pages.reduce((n, p) => n + p.stats.chars, 0);

  // Sizes that stand out from body text, and how much text each carries.
  const sizeChars = new Map<number, number>();
  for (const p of pages)
    for (const [k, n] of Object.entries(p.stats.fontChars))
      sizeChars.set(Number(k), (sizeChars.get(Number(k)) ?? 0) + n);
  const isHeadingSize = (s: number): boolean => s >= body * 1.12 && s - body >= 0.9;
  const boldBodyChars = pages.reduce(
    (n, p) =>
      n +
      p.blocks.filter((b) => b.hints.bold && !b.hints.headingCandidate).reduce((m, b) => m + b.hints.text.length, 0),
    0,
  );
  // When most of the text is bold, bold says nothing about headings.
  const boldMeansHeading = boldBodyChars < totalChars * 0.4;

  const candidates: Array<{ b: LaidOutBlock; size: number }> = [];
  for (const p of pages) {
    // A heading also stands out from the body text of its own page: where most of the document
    // is set smaller (pages of notes, a long appendix), its body size would make every line of a
    // normal page look large.
    let pageBody = 0,
      pageBodyN = 0;
    for (const [k, n] of Object.entries(p.stats.fontChars))
      if (n > pageBodyN) {
        pageBody = Number(k);
        pageBodyN = n;
      }
    const localBody = p.stats.chars >= 300 && pageBodyN >= p.stats.chars * 0.4 ? Math.max(body, pageBody) : body;
    for (const [i, b] of p.blocks.entries()) {
      if (!b.hints.headingCandidate || furniture.has(b)) continue;
      // Recognition that doubts what it read (under 0.5: often marks of a chart or a stamp taken for
      // letters) is no ground for a heading.
      const ocr = b.block.confidence?.ocr;
      if (ocr != null && ocr < 0.5) continue;
      const s = Math.round(b.hints.fontSize * 2) / 2;
      const standsOut = isHeadingSize(s) && s >= localBody * 1.12 && s - localBody >= 0.9;
      // Bold at body size is a heading when short and not a list of names or terms (author lines).
      const boldHeading =
        boldMeansHeading &&
        b.hints.bold &&
        s >= localBody - 0.6 &&
        b.hints.lineCount <= 2 &&
        b.hints.text.length <= 120 &&
        (b.hints.text.match(/,/g)?.length ?? 0) < 3;
      // A numbered subsection set in italic at body size, alone on its line ("2.1 Acoustic surveys").
      const italicSection =
        b.hints.italic &&
        /^\d{1,2}(?:\.\d{1,2})+\.?$/.test(b.hints.numbering) &&
        b.hints.lineCount === 1 &&
        b.hints.text.length <= 80 &&
        !/[.:;,]$/.test(b.hints.text) &&
        Math.abs(s - localBody) <= 0.6;
      const plainSection = numberedSectionLine(b, s, localBody, p.blocks[i + 1]);
      if (!standsOut && !boldHeading && !italicSection && !plainSection) continue;
      // A size carrying a large share of the document's text is a body size (two-size documents).
      if (standsOut && (sizeChars.get(s) ?? 0) > totalChars * 0.35) continue;
      candidates.push({ b, size: s + (b.hints.bold ? 0.01 : 0) });
    }
  }
  const sizes = [...new Set(candidates.map((c) => c.size))].sort((a, b) => b - a);
  const levelOfSize = new Map<number, number>();
  sizes.forEach((s, i) => levelOfSize.set(s, Math.min(6, i + 1)));
  const titleBlock = titleOf(pages, candidates, sizes, body);
  const shift = titleBlock ? 1 : 0;
  const heading = new Map<LaidOutBlock, number>();
  for (const c of candidates) {
    let level = levelOfSize.get(c.size) ?? 1;
    // Numbered sections: "1.2.3" is one level deeper than "1.2".
    const depth = c.b.hints.numbering ? c.b.hints.numbering.replace(/\.$/, '').split('.').filter(Boolean).length : 0;
    if (depth >= 2) level = Math.max(level, Math.min(6, depth + shift));
    heading.set(c.b, Math.max(1, Math.min(6, level)));
  }
  levelsFromNumbering(heading);
  if (outline?.length) headingsFromOutline(pages, outline, heading, furniture, titleBlock);
  titleFirst(pages[0], titleBlock, furniture);

  const { runsOn, continues } = pageBreakContinuations(pages, furniture, heading);

  const tails = footerTails(pages, furniture);

  return pages.map((p): DocPage => {
    const blocks: DocBlock[] = p.blocks.flatMap((lb): DocBlock | DocBlock[] => {
      const f = furniture.get(lb);
      const cut = tails.get(lb);
      if (cut && lb.block.node.kind === 'paragraph') {
        // The footer goes out as a block of its own, over the block's last line.
        const [body, foot] = splitTail(lb.block.node.content, cut);
        const [x0, y0, x1, y1] = lb.block.bbox ?? [0, 0, 0, 0];
        const split = y1 - (y1 - y0) / lb.hints.lineCount;
        return [
          {
            ...lb.block,
            node: { kind: 'paragraph', content: body },
            ...(lb.block.bbox ? { bbox: [x0, y0, x1, split] as typeof lb.block.bbox } : {}),
          },
          {
            ...lb.block,
            node: { kind: 'paragraph', content: foot },
            type: 'page_footer',
            label: 'page_footer',
            furniture: true,
            ...(lb.block.bbox ? { bbox: [x0, split, x1, y1] as typeof lb.block.bbox } : {}),
          },
        ];
      }
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
      if (continues.has(lb) || runsOn.has(lb))
        return {
          ...lb.block,
          ...(continues.has(lb) ? { continues: true } : {}),
          ...(runsOn.has(lb) ? { runsOn: true } : {}),
        };
      return lb.block;
    });
    // A page that could not be read has no geometry to report.
    const page: DocPage = {
      pageNumber: p.pageNumber,
      width: p.width > 0 ? p.width : null,
      height: p.height > 0 ? p.height : null,
      status: p.status,
      blocks,
    };
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
function pageBreakContinuations(
  pages: PageLayout[],
  furniture: Map<LaidOutBlock, unknown>,
  heading: Map<LaidOutBlock, number>,
): { runsOn: Set<LaidOutBlock>; continues: Set<LaidOutBlock> } {
  const runsOn = new Set<LaidOutBlock>();
  const continues = new Set<LaidOutBlock>();
  // Footnotes at the foot of the page come after its text, but the text goes on over them.
  const bodyBlocks = (p: PageLayout): LaidOutBlock[] =>
    p.blocks.filter((b) => !furniture.has(b) && b.block.label !== 'footnote');
  // (The block's own text: the hint is cut short.)
  const textOf = (b: LaidOutBlock): string =>
    b.block.node.kind === 'paragraph' ? inlinesText(b.block.node.content).trim() : '';
  // Running text: a paragraph of several lines (a stack of short lines says less).
  const running = (b: LaidOutBlock): boolean => b.hints.lineCount >= 2 && textOf(b).length >= 150;
  const sameFace = (a: LaidOutBlock, b: LaidOutBlock): boolean =>
    Math.abs(a.hints.fontSize - b.hints.fontSize) < 0.6 &&
    a.hints.bold === b.hints.bold &&
    a.hints.italic === b.hints.italic;
  for (let i = 1; i < pages.length; i++) {
    const before = pages[i - 1]!,
      page = pages[i]!;
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
      if (
        !ENDS_SENTENCE.test(ending) &&
        (lower || /,$/.test(ending) || ENDS_ON_JOINING_WORD.test(ending) || running(last))
      )
        half = last;
    }
    if (!half && lower) {
      // The last paragraph of running text on the page, in the face of the continuation, that stops
      // without a stop; after it only other kinds of text (a sidebar, a figure's labels and lists).
      for (let k = body.length - 1; k >= 0 && !half; k--) {
        const b = body[k]!;
        if (b.block.node.kind !== 'paragraph' || heading.has(b) || !sameFace(b, first) || b.hints.lineCount < 2)
          continue;
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
