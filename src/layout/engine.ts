/**
 * The page layout engine: one `PageInput` (native text or OCR words) → blocks in reading order. The
 * stages, each a module of src/layout/stages/ passing plain data to the next:
 *
 *   runs (cut where a link or a strikethrough starts or ends, marks.ts) → words → rows (lines.ts)
 *         → ruled tables (tables.ts) → lines, split at gutters (stages/gutters.ts)
 *         → aligned-text tables, by page and by column (stages/page-tables.ts), figures
 *           (stages/figures.ts), line numbers (stages/line-numbers.ts)
 *         → paragraphs and list items (stages/paragraphs.ts, stages/markers.ts) → charts (stages/charts.ts)
 *         → margin zones (stages/zones.ts) → captions with their tables and figures (stages/captions.ts)
 *         → reading order (stages/order.ts: XY-cut whose horizontal bands are re-joined when they
 *           share a column gutter, so that columns are read top to bottom and full-width elements
 *           stay in place), footnotes last (stages/notes.ts), broken paragraphs joined
 *           (stages/broken-paragraphs.ts)
 *         → model blocks with hints for the document-wide passes (stages/emit.ts, stages/lists.ts).
 *
 * Shared thresholds are named in thresholds.ts.
 */
import { buildRows, type Word } from './lines.js';
import { findRuledTables } from './tables.js';
import { markRuns } from './marks.js';
import { attachTurnedHeads } from './turned.js';
import { joinBrokenParagraphs } from './stages/broken-paragraphs.js';
import { captionUnits } from './stages/captions.js';
import { findCharts } from './stages/charts.js';
import { hOverlap, type El, type FigureEl, type TableEl, type TextBlock } from './stages/elements.js';
import { emitBlocks } from './stages/emit.js';
import { mergeImages } from './stages/figures.js';
import { linesOfRows } from './stages/gutters.js';
import { lineNumberColumns } from './stages/line-numbers.js';
import { footnotesLast, joinNoteNumbers } from './stages/notes.js';
import { order } from './stages/order.js';
import { findPageAlignedTables } from './stages/page-tables.js';
import { buildBlocks, splitStackedItems } from './stages/paragraphs.js';
import { joinCodeListings } from './stages/code-listings.js';
import { marginZones } from './stages/zones.js';
import { DEFAULT_PAGE_HEIGHT, DEFAULT_PAGE_WIDTH, HEAVY_PAGE_ITEMS, TEXT_CONFIDENCE } from './thresholds.js';
import type { PageInput, PageLayout } from './types.js';

export interface LayoutOptions {
  /** Confidence given to text blocks (OCR callers may lower it). */
  textConfidence?: number;
}

/** The size carrying most of a page's characters (0 on a page without text). */
function bodySizeOf(fontChars: Record<string, number>): number {
  let size = 0,
    most = -1;
  for (const [k, n] of Object.entries(fontChars))
    if (n > most) {
      size = Number(k);
      most = n;
    }
  return size;
}

/** Characters by font size (rounded to half a point) and in all, over the page's runs. */
function fontStats(page: PageInput): { fontChars: Record<string, number>; chars: number } {
  const fontChars: Record<string, number> = {};
  let chars = 0;
  for (const it of page.items) {
    const n = it.text.replace(/\s/g, '').length;
    chars += n;
    const k = String(Math.round(it.fontSize * 2) / 2);
    fontChars[k] = (fontChars[k] ?? 0) + n;
  }
  return { fontChars, chars };
}

export function layoutPage(page: PageInput, opts: LayoutOptions = {}): PageLayout {
  const W = page.width > 0 ? page.width : DEFAULT_PAGE_WIDTH;
  const H = page.height > 0 ? page.height : DEFAULT_PAGE_HEIGHT;
  const { fontChars, chars } = fontStats(page);

  // Links and strikethrough on the runs first (cut where only part of a run carries them).
  const rows = buildRows(markRuns(page));
  const allWords = rows.flat();
  // A page with an extreme number of text runs or rules (generated or hostile) gets the plain
  // reading-order pass only: table finding is the costly part.
  const heavy = page.items.length > HEAVY_PAGE_ITEMS || page.lines.length > HEAVY_PAGE_ITEMS;
  const { tables: ruled, hRuleGroups } = heavy
    ? { tables: [], hRuleGroups: [] }
    : findRuledTables(page.lines, allWords, W, H);
  const taken = new Set<Word>();
  for (const t of ruled) for (const w of t.words) taken.add(w);
  const free = rows.map((r) => r.filter((w) => !taken.has(w)));
  const lineRows = linesOfRows(free, heavy);
  const aligned = heavy ? [] : findPageAlignedTables(page, lineRows, hRuleGroups, ruled, W, H);
  const tables = [...ruled, ...aligned];
  // Heads turned upright over a table's columns are its head row (other turned text stays out),
  // and the lines stacked over them its upper head rows.
  if (!heavy) attachTurnedHeads(tables, page.turned ?? [], lineRows.flat());
  // Lines a table took (or split into its cells) leave the text flow.
  const tableWords = new Set<Word>();
  for (const t of tables) for (const w of t.words) tableWords.add(w);
  const flowLines = lineRows.flat().filter((l) => !l.words.every((w) => tableWords.has(w)));
  // Line numbers in a margin leave the text flow; each column of them becomes one furniture block.
  const numberColumns = heavy ? [] : lineNumberColumns(flowLines);
  const numbered = new Set(numberColumns.flat());
  const textLines = joinNoteNumbers(
    numbered.size ? flowLines.filter((l) => !numbered.has(l)) : flowLines,
    bodySizeOf(fontChars),
    H,
  );
  const figures = mergeImages(page.images, W, H, textLines);

  // An asterisk set right after a figure or a word ("72.2*", in a table or the text) marks a note:
  // on such a page a line that opens with one is that note ("* Significant at p < 0.05."), not a
  // bulleted item.
  const starNotes = lineRows.some((r) => r.some((l) => /[\p{L}\p{N})\]]\*(?=[\s,;)]|$)/u.test(l.text)));
  let blocks = joinCodeListings(
    splitStackedItems(
      buildBlocks(textLines, page.dots?.length ? [...page.images, ...page.dots] : page.images, starNotes),
      textLines,
    ),
  );
  const lineNumberEls = new Set<TextBlock>();
  for (const col of numberColumns) {
    const el: TextBlock = {
      kind: 'text',
      x0: Math.min(...col.map((l) => l.x0)),
      y0: col[0]!.y0,
      x1: Math.max(...col.map((l) => l.x1)),
      y1: col[col.length - 1]!.y1,
      lines: col,
      size: col[0]!.size,
      marker: null,
      textX0: col[0]!.x0,
      closed: true,
    };
    lineNumberEls.add(el);
    blocks.push(el);
  }
  let tableEls = tables.map((t): TableEl => ({ kind: 'table', x0: t.x0, y0: t.y0, x1: t.x1, y1: t.y1, table: t }));
  // Charts drawn with vector paths: their tick labels and legend are part of the figure.
  const charts = heavy ? [] : findCharts(page, blocks, ruled);
  if (charts.length) {
    const inChart = new Set(charts.flatMap((c) => c.labels));
    blocks = blocks.filter((b) => !inChart.has(b));
    tableEls = tableEls.filter(
      (t) =>
        t.table.ruled ||
        !charts.some((c) => t.x0 >= c.x0 - 2 && t.x1 <= c.x1 + 2 && t.y0 >= c.y0 - 2 && t.y1 <= c.y1 + 2),
    );
  }
  const els: El[] = [
    ...blocks,
    ...tableEls,
    ...figures
      .filter((f) => !charts.some((c) => hOverlap(c, f) > 0 && Math.min(c.y1, f.y1) > Math.max(c.y0, f.y0)))
      .map((f): FigureEl => ({ kind: 'figure', ...f })),
    ...charts.map((c): FigureEl => ({ kind: 'figure', x0: c.x0, y0: c.y0, x1: c.x1, y1: c.y1 })),
  ];

  const pageBody = bodySizeOf(fontChars);
  const zones = marginZones(els, H, pageBody);
  const { top, bottom } = zones;
  const rtlPage = textLines.filter((l) => l.rtl).length > textLines.length / 2;
  const bodyList = els.filter((e) => !top.includes(e) && !bottom.includes(e));
  const units = captionUnits(bodyList);
  const grouped = new Set([...units.values()].flat());
  const inOrder = order([...bodyList.filter((e) => !grouped.has(e)), ...units.keys()], rtlPage).flatMap(
    (e) => units.get(e) ?? [e],
  );
  const { body, notes } = footnotesLast(inOrder, bottom, pageBody, H);
  const ordered = [...top, ...joinBrokenParagraphs(body), ...bottom];

  const out = emitBlocks(ordered, {
    W,
    H,
    source: page.source,
    textConf: opts.textConfidence ?? TEXT_CONFIDENCE,
    els,
    notes,
    lineNumberEls,
    zones,
  });
  return { pageNumber: page.pageNumber, width: W, height: H, status: 'ok', blocks: out, stats: { fontChars, chars } };
}
