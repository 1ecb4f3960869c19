/**
 * Emit: elements in reading order → model blocks (paragraphs, lists, tables, figures, code, rules,
 * captions, line numbers) with the hints the document-wide passes go by (size, face, zone, heading
 * candidates).
 */
import type { DocBlock, Node } from '../../model/document.js';
import { blockInlines } from '../inlines.js';
import { weightedMedian, type Line } from '../lines.js';
import { BOTTOM_BAND, FIGURE_CONFIDENCE, TOP_BAND } from '../thresholds.js';
import type { BlockHints, Box, LaidOutBlock, PageSource } from '../types.js';
import { captionNear } from './captions.js';
import { leadingOf } from './code-listings.js';
import type { El, FigureEl, TableEl, TextBlock } from './elements.js';
import { listBlocks, type ListRunEntry } from './lists.js';
import { looksLikeCode } from './paragraphs.js';
import type { Zones } from './zones.js';

/** A code block's character width, in ems of its size (indentation is counted in characters). */
const MONO_CHAR_WIDTH_EMS = 0.6;

const SECTION_NUM_RE = /^((?:\d{1,2}\.){1,4}\d{0,2}|[A-Z]\.|[IVX]{1,4}\.)\s+(?=\S)/;

/**
 * Whether a short block reads as words, as a heading does: it does not open with a relation or an
 * operator, and it has at least twice as many letters as other signs (digits, dots and spaces aside),
 * or one sign at most. An equation set large or a formula line read from a scan ("= (f o g):x",
 * "(p<CONS, f1, ..., fn>):x") is not a heading; "1.2.3 Results", "C++ Basics" and "Q&A" are.
 */
function readsAsWords(t: string): boolean {
  if (/^[=<>+±×÷→←≤≥≈≠∑∫√|*/\\^~-]/u.test(t)) return false;
  const letters = t.match(/\p{L}/gu)?.length ?? 0;
  const signs = t.match(/[^\p{L}\p{N}\s.]/gu)?.length ?? 0;
  return letters >= 2 && (signs <= 1 || letters >= signs * 2);
}

/**
 * A form field written out ("Name: Elizabeth A. Warren", "License #: WA-MD-45782", "Date: October 28"):
 * one to three words ending in a word forms use for a field (or in "by": "Prepared By:"), a colon, the
 * value. Such a line set larger than the body (a signature box, a letterhead) is no heading. Titles with
 * a colon ("BERT: Pre-training of ...", "Chapter 1: Origins") do not end their first part so.
 */
const FIELD_LINE =
  /^(?:[\p{L}'’.&/-]+\s+){0,2}(?:name|date|time|address|phone|telephone|tel|fax|mobile|cell|e-?mail|license|licence|id|no\.?|number|#|signature|signed|position|department|dept\.?|company|account|invoice|order|reference|ref\.?|total|subtotal|amount|balance|due|status|patient|physician|doctor|dob|birth|age|sex|gender|customer|client|vendor|attn|subject|code|policy|member|group|claim|plan|insurance|provider|npi|ssn|zip|city|state|country|email|website|fein|ein|tax|vat|iban|swift|bic|routing|terms|ship|bill|sold|prepared|approved|reviewed|issued|expires|expiry|valid|room|bed|ward|unit|class|grade|score|rate|qty|quantity|price|by)\.?(?:\s*#)?\s*:\s+\S/iu;

/** What the emit stage needs to know of the page. */
export interface EmitContext {
  W: number;
  H: number;
  source: PageSource;
  /** Confidence given to text blocks. */
  textConf: number;
  /** Every element of the page (captions look for the table or figure they name). */
  els: El[];
  /** Footnotes. */
  notes: Set<El>;
  /** Columns of line numbers. */
  lineNumberEls: Set<TextBlock>;
  zones: Zones;
}

function plain(lines: Line[]): string {
  return lines
    .map((l) => l.text)
    .join(' ')
    .slice(0, 400);
}

function norm(b: Box, W: number, H: number): [number, number, number, number] {
  const c = (v: number): number => Math.min(1, Math.max(0, Math.round(v * 10000) / 10000));
  return [c(b.x0 / W), c(b.y0 / H), c(b.x1 / W), c(b.y1 / H)];
}

function hintsOf(e: El, lines: Line[], ctx: EmitContext): BlockHints {
  // Median size over characters (at most 50 a line).
  const { zoneOf, isolated } = ctx.zones;
  const H = ctx.H;
  const medianSize = lines.length
    ? weightedMedian(lines.map((l) => [l.size, Math.max(1, Math.min(50, l.text.length))]))
    : 0;
  const text = plain(lines);
  const sec = SECTION_NUM_RE.exec(text);
  return {
    fontSize: medianSize,
    bold: lines.length > 0 && lines.every((l) => l.bold),
    italic: lines.length > 0 && lines.every((l) => l.italic),
    lineCount: lines.length,
    text,
    headingCandidate: false,
    numbering: sec ? sec[1]! : '',
    zone: zoneOf(e),
    band:
      e.kind === 'text' && e.lines.length <= 3
        ? e.y1 <= H * TOP_BAND
          ? 'top'
          : e.y0 >= H * BOTTOM_BAND
            ? 'bottom'
            : 'body'
        : 'body',
    ...(zoneOf(e) !== 'body' ? { isolated: isolated(e, zoneOf(e) as 'top' | 'bottom') } : {}),
  };
}

/** Hints of a block that carries no text of its own (a table, a figure). */
const NO_TEXT_HINTS = (): BlockHints => ({
  fontSize: 0,
  bold: false,
  italic: false,
  lineCount: 0,
  text: '',
  headingCandidate: false,
  numbering: '',
  zone: 'body',
});

function tableBlock(e: TableEl, ctx: EmitContext): LaidOutBlock {
  return {
    block: {
      node: { kind: 'table', rows: e.table.rows },
      type: 'table',
      label: e.table.ruled ? 'table_ruled' : 'table_aligned',
      bbox: norm(e, ctx.W, ctx.H),
      source: ctx.source,
      confidence: { layout: e.table.confidence, ocr: null },
    },
    hints: NO_TEXT_HINTS(),
  };
}

function figureBlock(e: FigureEl, ctx: EmitContext): LaidOutBlock {
  return {
    // No address and no description: the block (with its box) is listed, the markdown gets nothing.
    block: {
      node: { kind: 'figure', alt: '' },
      type: 'figure',
      label: 'image',
      bbox: norm(e, ctx.W, ctx.H),
      source: ctx.source,
      confidence: { layout: FIGURE_CONFIDENCE, ocr: null },
    },
    hints: NO_TEXT_HINTS(),
  };
}

/**
 * A label and its value set side by side on one row ("Report ID:  R-17   Date:  3 May") are a form's
 * fields, not headings, however large their type: a one-line block level with a neighbour where the
 * left one of the pair ends with a colon.
 * Gives the test for the blocks of `ordered`.
 */
function fieldRowTest(ordered: El[]): (e: TextBlock) => boolean {
  const oneLiners = ordered.filter((o): o is TextBlock => o.kind === 'text' && o.lines.length === 1);
  const levelWith = (a: TextBlock, b: TextBlock): boolean => {
    const ma = (a.y0 + a.y1) / 2,
      mb = (b.y0 + b.y1) / 2;
    return ma > b.y0 && ma < b.y1 && mb > a.y0 && mb < a.y1;
  };
  return (e: TextBlock): boolean => {
    if (e.lines.length !== 1 || oneLiners.length > 2000) return false;
    const near = e.size * 12;
    for (const o of oneLiners) {
      if (o === e || !levelWith(o, e)) continue;
      if (o.x0 >= e.x1 && o.x0 - e.x1 < near && /:$/.test(e.lines[0]!.text.trim())) return true;
      if (o.x1 <= e.x0 && e.x0 - o.x1 < near && /:$/.test(o.lines[0]!.text.trim())) return true;
    }
    return false;
  };
}

/**
 * Whether e goes into the run of list items (`listRun`, added to): a list item, or a paragraph that
 * goes on with the item above it.
 */
function joinsList(e: El, listRun: ListRunEntry[]): boolean {
  if (e.kind === 'text' && e.marker && !e.lines.every((l) => l.mono)) {
    const numbered = e.marker.kind === 'number';
    const content = blockInlines(e.lines, e.marker.kind === 'letter' ? '' : e.marker.text);
    if (content.length) {
      listRun.push({ el: e, item: { content }, ordered: numbered, start: e.marker.value || 1 });
      return true;
    }
  }
  // A paragraph set at the text indent of the item above it, right under it, goes on with that item
  // ("If the filter is missing, ..." under its bullet): a paragraph of the item, and the list goes on.
  const prev = listRun[listRun.length - 1];
  if (prev && e.kind === 'text' && !e.marker && !e.lines.some((l) => l.mono) && !e.lines.every((l) => l.bold)) {
    const last = prev.more?.[prev.more.length - 1] ?? prev.el;
    const size = prev.el.size;
    if (
      Math.abs(e.x0 - prev.el.textX0) < size * 0.6 &&
      e.x0 > prev.el.x0 + size * 0.5 &&
      e.y0 > last.y1 - size * 0.3 &&
      e.y0 - last.y1 < size * 2.5 &&
      Math.abs(e.size - size) < 0.6
    ) {
      prev.item.children = [...(prev.item.children ?? []), { kind: 'paragraph', content: blockInlines(e.lines, '') }];
      (prev.more ??= []).push(e);
      return true;
    }
  }
  return false;
}

/** A text block: a paragraph (maybe a heading), a caption, code, a rule typed as text, line numbers or a footnote. */
function textBlock(e: TextBlock, ctx: EmitContext, inFieldRow: (e: TextBlock) => boolean): LaidOutBlock {
  const hints = hintsOf(e, e.lines, ctx);
  if (ctx.lineNumberEls.has(e)) {
    hints.lineNumbers = true;
    return {
      block: {
        node: { kind: 'paragraph', content: blockInlines(e.lines, '') },
        type: 'page_number',
        label: 'line_numbers',
        bbox: norm(e, ctx.W, ctx.H),
        source: ctx.source,
        confidence: { layout: ctx.textConf, ocr: null },
      },
      hints,
    };
  }
  let node: Node;
  let type: DocBlock['type'] = 'text';
  if (e.rule) {
    return {
      block: {
        node: { kind: 'rule' },
        type,
        label: 'rule',
        bbox: norm(e, ctx.W, ctx.H),
        source: ctx.source,
        confidence: { layout: ctx.textConf, ocr: null },
      },
      hints,
    };
  }
  if (e.lines.length >= 2 && looksLikeCode(e.lines)) {
    const charW = e.size * MONO_CHAR_WIDTH_EMS;
    const minX = Math.min(...e.lines.map((l) => l.x0));
    node = {
      kind: 'code',
      text: codeText(e.lines, minX, charW),
    };
    type = 'code';
  } else {
    node = { kind: 'paragraph', content: blockInlines(e.lines, '') };
    const t = hints.text;
    hints.headingCandidate =
      e.lines.length <= 3 &&
      t.length <= 200 &&
      t.length >= 2 &&
      !/^[\p{Ll}]/u.test(t) &&
      !/[,;]$/.test(t) &&
      !(/\.$/.test(t) && !/^(?:\d+\.)+$/.test(t.split(' ')[0] ?? '') && t.split(' ').length > 8) &&
      /\p{L}/u.test(t) &&
      readsAsWords(t) &&
      !FIELD_LINE.test(t) &&
      // Two sentences in a row are text, not a title ("Sales rose. Costs fell.").
      !/\p{Ll}{2,}[.!?]\S{0,3}\s+\p{Lu}\p{Ll}+\s+\p{Ll}+.*[.!?]$/u.test(t);
    if (captionNear(ctx.els, e)) {
      type = 'caption';
      hints.headingCandidate = false;
    } else if (hints.headingCandidate && inFieldRow(e)) hints.headingCandidate = false;
  }
  const label = type === 'code' ? 'code' : type === 'caption' ? 'caption' : ctx.notes.has(e) ? 'footnote' : 'paragraph';
  return {
    block: {
      node,
      type,
      label,
      bbox: norm(e, ctx.W, ctx.H),
      source: ctx.source,
      confidence: { layout: ctx.textConf, ocr: null },
    },
    hints,
  };
}

/** The page's blocks, from its elements in reading order. */
export function emitBlocks(ordered: El[], ctx: EmitContext): LaidOutBlock[] {
  const out: LaidOutBlock[] = [];
  const hintsBase = (e: El, lines: Line[]): BlockHints => hintsOf(e, lines, ctx);
  const bboxOf = (b: Box): [number, number, number, number] => norm(b, ctx.W, ctx.H);
  let listRun: ListRunEntry[] = [];
  const flushList = (): void => {
    if (!listRun.length) return;
    out.push(...listBlocks(listRun, hintsBase, bboxOf, ctx.source));
    listRun = [];
  };
  const inFieldRow = fieldRowTest(ordered);
  for (const e of ordered) {
    if (joinsList(e, listRun)) continue;
    flushList();
    if (e.kind === 'table') out.push(tableBlock(e, ctx));
    else if (e.kind === 'figure') out.push(figureBlock(e, ctx));
    else out.push(textBlock(e, ctx, inFieldRow));
  }
  flushList();
  return out;
}

/**
 * A listing's text: each line indented by its offset in characters, and the blank lines it holds
 * (a gap of more than its own leading) kept.
 */
function codeText(lines: readonly Line[], minX: number, charW: number): string {
  const leading = leadingOf(lines);
  return lines
    .map((l, i) => {
      const prev = lines[i - 1];
      const blanks = prev && leading ? Math.max(0, Math.round((l.y0 - prev.y0) / leading) - 1) : 0;
      return '\n'.repeat(Math.min(blanks, 3)) + ' '.repeat(Math.max(0, Math.round((l.x0 - minX) / charW))) + l.text;
    })
    .join('\n');
}
