/**
 * PDF reader: pages fanned out over the text pool (workers/pdf-text.ts: pdf.js extraction → neutral
 * PageInput → layout engine), then the document-wide passes (headings, running headers and footers)
 * on the main thread, then the document model.
 *
 * OCR seam (modes `auto` and `ocr`): the text pass judges every page with `needsOcr`
 * (src/pdf/needs-ocr.ts). Pages that need recognition — every page in `ocr` mode, the pages judged so
 * in `auto` mode — are handed to `recognisePages` (src/pdf/ocr-seam.ts) with the shared bytes and the
 * parse's signal. It returns one `PageLayout` per page (from the same layout engine, fed OCR words with
 * source `layout_ocr`), which replaces the native layout of that page before the document-wide passes
 * run, so headings and furniture are decided over native and recognised pages alike. The seam hands
 * the pages to the OCR pool (src/ocr/pool.ts). A page it leaves out, or whose recognition failed,
 * keeps its native text with status `partial` (or `failed` when there was none) and an error saying
 * why OCR did not replace it. Pages whose text spells like no language (src/pdf/spelling.ts) are
 * recognised as a check: the recognition replaces them only when it reads other text.
 *
 * Time (src/pdf/deadline.ts): the text pass stops short of the deadline too. Pages it did not reach
 * are not recognised; the document ends at the last page read (earlier pages not read come back
 * failed), `metadata.totalPages` still counts every page, and a warning names the pages left unread.
 */
import { ParseError } from '../errors.js';
import { inlinesText, type DocModel } from '../model/document.js';
import type { Reader, ReaderContext } from '../readers/reader.js';
import { finishDocument } from '../layout/document.js';
import type { PageLayout } from '../layout/types.js';
import { deadlineMargin } from './deadline.js';
import { pageInDisplayedFrame, type LayoutTurn } from './display-frame.js';
import {
  layoutText,
  ocrTimedOut,
  poorScanTextLayer,
  recognisePages,
  TEXT_LAYER_MISMATCH,
  textAgreement,
} from './ocr-seam.js';
// OCR integration: scans whose old OCR text layer is poor are recognised again in auto mode.
import { extractText, type TextExtraction } from './text-pool.js';

/** Ascending page numbers as ranges ("3, 5-9, 12"): a warning about 20,000 pages stays one short line. */
export function pageRanges(pages: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < pages.length;) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j]! + 1) j++;
    out.push(j > i ? `${pages[i]}-${pages[j]}` : String(pages[i]));
    i = j + 1;
  }
  return out.join(', ');
}

/** Flagged pages recognised to decide whether a document's text layer is what its pages show. */
const VERIFY_FIRST = 3;

/**
 * The text layer is not what the page shows: the recognised text shares little with it, and reads
 * surely enough (a poor recognition of a faint page proves nothing against the text layer).
 */
function textLayerMismatch(native: PageLayout, ocr: PageLayout): boolean {
  const words = ocr.blocks.flatMap((b) => (b.block.confidence?.ocr != null ? [b.block.confidence.ocr] : []));
  const sure = words.length > 0 && words.reduce((a, b) => a + b, 0) / words.length >= 0.7;
  return sure && textAgreement(layoutText(native), layoutText(ocr)) < TEXT_LAYER_MISMATCH;
}

type TextPage = TextExtraction['pages'][number];

/**
 * What a page handed to OCR ends as: the recognised layout where recognition read it; otherwise its
 * native layout, with the status and the error saying why recognition did not replace it.
 */
function afterOcr(native: PageLayout, ocr: PageLayout | undefined, mode: string, page: TextPage): PageLayout {
  if (ocr && ocr.status !== 'failed') return ocr;
  if (ocrTimedOut(ocr)) {
    // Out of time: auto keeps the page's text layer; in ocr mode the page was not read.
    return mode === 'auto' && native.blocks.length
      ? { ...native, status: 'partial', error: `${ocr!.error}; the page's text layer was kept` }
      : { ...native, blocks: [], status: 'failed', error: ocr!.error };
  }
  const why = ocr?.error ?? 'OCR is not available in this build';
  if (mode === 'ocr' && ocr === undefined && native.blocks.length) {
    // Without OCR, `ocr` mode falls back to the text layer where there is one.
    return { ...native, status: 'partial', error: `${why}; the page's text layer was used instead` };
  } else if (native.blocks.length) {
    return {
      ...native,
      status: 'partial',
      error: `the page needs OCR (${page.ocr?.reason ?? 'unreadable text'}) but ${why}`,
    };
  } else {
    return {
      ...native,
      status: 'failed',
      error: native.error ?? `the page has no usable text layer and ${why}`,
    };
  }
}

/**
 * Modes `auto` and `ocr`: the pages that need recognition (and, in `auto`, pages whose text layer is
 * suspect) recognised, and their layouts in `layouts` replaced; warnings about them added.
 */
async function applyOcr(
  ctx: ReaderContext,
  mode: string,
  timeout: number | undefined,
  pages: TextPage[],
  layouts: PageLayout[],
  unreadSet: ReadonlySet<number>,
  warnings: string[],
): Promise<void> {
  const readable = pages
    .filter((p) => !unreadSet.has(p.layout.pageNumber) && !p.overTime)
    .filter((p) => p.layout.status !== 'failed' || p.ocr === null);
  const wanted = readable
    .filter((p) => mode === 'ocr' || p.ocr === null || p.ocr.needed || poorScanTextLayer(p.layout, p.ocr))
    .map((p) => p.layout.pageNumber);
  // Pages whose text spells like no language are recognised too, and keep their text layer when
  // the recognition reads the same text. The first few settle it for the document: when none of
  // them differs, the flag is taken as the document's style (codes, abbreviations) and the other
  // flagged pages are not recognised.
  const wantedSet = new Set(wanted);
  const suspects =
    mode === 'auto'
      ? readable.filter((p) => p.ocr?.verify && !wantedSet.has(p.layout.pageNumber)).map((p) => p.layout.pageNumber)
      : [];
  const suspectSet = new Set(suspects);
  const verifyFirst = suspects.slice(0, VERIFY_FIRST);
  for (const n of verifyFirst) wantedSet.add(n);
  if (wantedSet.size) {
    ctx.progress?.({ phase: 'ocr', ocrPages: wantedSet.size });
    const recognised = await recognisePages(
      ctx,
      [...wantedSet].sort((a, b) => a - b),
    );
    const byPage = new Map(recognised.map((l) => [l.pageNumber, l]));
    const nativeOf = new Map(layouts.map((l) => [l.pageNumber, l]));
    // Judged once a page: the first flagged pages are asked twice (whether to go on, which to replace).
    const judged = new Map<number, boolean>();
    const mismatched = (n: number): boolean => {
      let m = judged.get(n);
      if (m === undefined) {
        const ocr = byPage.get(n);
        m = !!ocr && ocr.status !== 'failed' && textLayerMismatch(nativeOf.get(n)!, ocr);
        judged.set(n, m);
      }
      return m;
    };
    if (suspects.length > verifyFirst.length && verifyFirst.some(mismatched)) {
      const rest = suspects.slice(verifyFirst.length);
      for (const n of rest) wantedSet.add(n);
      ctx.progress?.({ phase: 'ocr', ocrPages: wantedSet.size });
      for (const l of await recognisePages(ctx, rest)) byPage.set(l.pageNumber, l);
    }
    // A check, not a need: a flagged page keeps its text layer unless the recognition shows it wrong.
    const relabelled = suspects.filter((n) => wantedSet.has(n) && mismatched(n));
    const relabelledSet = new Set(relabelled);
    for (let i = 0; i < layouts.length; i++) {
      const native = layouts[i]!;
      if (!wantedSet.has(native.pageNumber)) continue;
      const ocr = byPage.get(native.pageNumber);
      if (suspectSet.has(native.pageNumber)) {
        if (relabelledSet.has(native.pageNumber)) layouts[i] = ocr!;
        continue;
      }
      layouts[i] = afterOcr(native, ocr, mode, pages[i]!);
    }
    if (relabelled.length) {
      const many = relabelled.length > 1;
      warnings.push(
        `The text layer of page${many ? 's' : ''} ${pageRanges(relabelled)} does not match what ${many ? 'they show' : 'it shows'} (a font names other letters than it draws); ${many ? 'they were' : 'it was'} read by OCR instead`,
      );
    }
    const late = [...wantedSet].filter((n) => !suspectSet.has(n) && ocrTimedOut(byPage.get(n)));
    if (late.length) {
      // Nothing to show for the time spent: the parse timed out, as it would have without this.
      const nothing =
        mode === 'ocr' ? recognised.every((l) => l.status === 'failed') : layouts.every((l) => l.status === 'failed');
      if (nothing) throw new ParseError('TIMEOUT', `The parse did not finish within options.timeout (${timeout} ms).`);
      warnings.push(`OCR did not finish within the timeout on page${late.length > 1 ? 's' : ''} ${pageRanges(late)}`);
    }
  }
}

/** The document model of the finished pages, with the document information as metadata. */
function documentModel(
  info: TextExtraction['info'],
  layouts: PageLayout[],
  turns: ReadonlyMap<number, LayoutTurn>,
  warnings: string[],
): DocModel {
  const docPages = finishDocument(layouts, info.outline).map((p) =>
    pageInDisplayedFrame(p, turns.get(p.pageNumber) ?? 0),
  );
  // Without a title in the document information, the title the layout found on the first page.
  let title = info.title;
  if (!title) {
    const block = docPages[0]?.blocks.find((b) => b.type === 'title');
    if (block?.node.kind === 'heading') title = inlinesText(block.node.content).trim() || undefined;
  }
  const doc: DocModel = {
    contentType: 'application/pdf',
    pages: docPages,
    metadata: {
      numPages: layouts.length,
      totalPages: info.numPages,
      ...(title ? { title } : {}),
      ...(info.author ? { author: info.author } : {}),
      ...(info.subject ? { subject: info.subject } : {}),
      ...(info.keywords ? { keywords: info.keywords } : {}),
      ...(info.creator ? { creator: info.creator } : {}),
      ...(info.producer ? { producer: info.producer } : {}),
      ...(info.language ? { language: info.language } : {}),
    },
    warnings,
  };
  return doc;
}

export const read: Reader = async (ctx) => {
  const pdf = ctx.options.pdf;
  const mode = pdf?.mode ?? 'auto';
  const maxPages = pdf?.maxPages;
  const timeout = ctx.options.timeout;
  const { info, pages, unread } = await extractText(ctx.runtime, ctx.bytes, {
    maxPages,
    signal: ctx.signal,
    stopAt: Number.isFinite(ctx.deadline) ? ctx.deadline - deadlineMargin(timeout) : undefined,
    timeoutMs: timeout,
    spelling: mode === 'auto',
    ...(ctx.progress
      ? { onPages: (done: number, total: number) => ctx.progress!({ pagesDone: done, pagesTotal: total }) }
      : {}),
  });
  const layouts: PageLayout[] = pages.map((p) => p.layout);
  const warnings: string[] = [];
  const unreadSet = new Set(unread);
  if (unread.length) {
    const limit = Math.min(info.numPages, maxPages ?? Infinity);
    warnings.push(
      `The parse ran out of time (options.timeout ${timeout} ms) before page${unread.length > 1 ? 's' : ''} ${pageRanges(unread)} could be read; ${pages.length} of ${limit} pages are returned`,
    );
  }

  if (mode !== 'fast') await applyOcr(ctx, mode, timeout, pages, layouts, unreadSet, warnings);

  if (
    pages.length > 0 &&
    layouts.every((l) => l.status === 'failed') &&
    info.numPages > 0 &&
    pages.every((p) => p.ocr === null)
  ) {
    // The pages not reached might have read: that is a timeout, not a broken file.
    if (unread.length)
      throw new ParseError('TIMEOUT', `The parse did not finish within options.timeout (${timeout} ms).`);
    throw new ParseError('MALFORMED', `The PDF cannot be read: ${layouts[0]!.error ?? 'no page could be read'}`);
  }

  // Geometry as the page is displayed, for pages whose layout is still the text pass's (or its size
  // with no blocks left); OCR layouts replaced the others and come in their own frame.
  const native = (l: PageLayout | undefined, p: (typeof pages)[number]): boolean =>
    !!l && (l.blocks === p.layout.blocks || (l.blocks.length === 0 && l.width === p.layout.width));
  const turns = new Map(
    pages.flatMap((p, i) => (p.turn && native(layouts[i], p) ? [[p.layout.pageNumber, p.turn] as const] : [])),
  );
  ctx.progress?.({ phase: 'assemble' });
  return documentModel(info, layouts, turns, warnings);
};
