/**
 * The one serializer from the document model to markdown. It records, as it writes, the span every
 * block occupies in the document markdown, so that layout blocks can point into it exactly.
 */
import type { BlockType, LayoutBlock, LayoutPage, PageMarkdown } from '../types.js';
import type { DocBlock, DocModel, ListNode, Node, TableNode } from '../model/document.js';
import { escapeLabel } from './escape.js';
import { linkDestination, noteLabel } from './inline-tokens.js';
import { renderInlines } from './inline.js';
export { renderInlines } from './inline.js';

export interface SerializeOptions {
  /** Leave page headers, footers and page numbers out of the markdown. */
  onlyMainContent: boolean;
  /**
   * Write each page's own markdown (`Serialized.pages`); default true. Without it `pages` is empty: a
   * long document's markdown is not held twice when only the whole of it is asked for.
   */
  pages?: boolean;
  /** List the layout blocks (`Serialized.layout`); default true. Without it `layout` is empty. */
  blocks?: boolean;
}

export interface Serialized {
  markdown: string;
  pages: PageMarkdown[];
  layout: LayoutPage[];
}

// ---------------------------------------------------------------- inlines

// ---------------------------------------------------------------- blocks

function renderList(list: ListNode, indent: string): string {
  const lines: string[] = [];
  let n = list.start ?? 1;
  for (const item of list.items) {
    const marker = list.ordered ? `${n++}.` : '-';
    const task = item.checked === undefined ? '' : item.checked ? '[x] ' : '[ ] ';
    const pad = ' '.repeat(marker.length + 1);
    let body = renderInlines(item.content);
    // Text that starts like a task box would read as one in GFM.
    if (!task && /^\[[ xX]\](\s|$)/.test(body)) body = `\\${body}`;
    const first = `${indent}${marker} ${task}${body.split('\n').join(`\n${indent}${pad}`)}`;
    lines.push(first);
    for (const child of item.children ?? []) {
      const rendered =
        child.kind === 'list' ? renderList(child, indent + pad) : indentBlock(renderNode(child), indent + pad);
      if (rendered) lines.push(rendered);
    }
  }
  return lines.join('\n');
}

function indentBlock(s: string, indent: string): string {
  return s
    .split('\n')
    .map((l) => (l ? indent + l : l))
    .join('\n');
}

/** Expands row and column spans into a rectangular grid; a merged cell's text goes in its first slot. */
export function tableGrid(table: TableNode): string[][] {
  const grid: (string | undefined)[][] = [];
  table.rows.forEach((row, r) => {
    grid[r] ??= [];
    let c = 0;
    for (const cell of row) {
      while (grid[r]![c] !== undefined) c++;
      const text = renderInlines(cell.content, true);
      const cs = Math.max(1, cell.colSpan ?? 1);
      const rs = Math.max(1, cell.rowSpan ?? 1);
      for (let dr = 0; dr < rs; dr++) {
        grid[r + dr] ??= [];
        for (let dc = 0; dc < cs; dc++) grid[r + dr]![c + dc] = dr === 0 && dc === 0 ? text : '';
      }
      c += cs;
    }
  });
  const width = Math.max(0, ...grid.map((row) => row.length));
  return grid.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? ''));
}

export function renderTable(table: TableNode): string {
  // Rows and columns empty from end to end carry nothing a markdown table can show: spacer columns
  // of a calendar laid out in a word processor, blank rows between its weeks, slots only ever
  // covered by merged cells.
  const full = tableGrid(table);
  const used = (full[0] ?? []).map((_, c) => full.some((row) => row[c] !== ''));
  const grid = full.filter((row) => row.some((t) => t !== '')).map((row) => row.filter((_, c) => used[c]));
  if (grid.length === 0 || grid[0]!.length === 0) return '';
  const width = grid[0]!.length;
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  const out = [line(grid[0]!), `|${' --- |'.repeat(width)}`];
  for (const row of grid.slice(1)) out.push(line(row));
  return out.join('\n');
}

function renderCode(text: string, language?: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language ?? ''}\n${text.replace(/\n$/, '')}\n${fence}`;
}

export function renderNode(node: Node): string {
  switch (node.kind) {
    case 'heading': {
      // Inside an ATX heading a leading "1." or "#" cannot start another construct: no escape needed.
      const body = renderInlines(node.content)
        .replace(/\\?\n/g, ' ')
        .replace(/^\\(#)/, '$1')
        .replace(/^(\d{1,9})\\([.)])/, '$1$2');
      return body ? `${'#'.repeat(node.level)} ${body}` : '';
    }
    case 'paragraph':
      return renderInlines(node.content);
    case 'list':
      return renderList(node, '');
    case 'table':
      return renderTable(node);
    case 'figure':
      // A figure with neither an address nor a description has nothing to show in markdown (an
      // empty image link is noise); its block is still listed with its box.
      if (!node.src && !node.alt.trim()) return '';
      return `![${escapeLabel(node.alt).replace(/[\r\n]+/g, ' ')}](${linkDestination(node.src ?? '')})`;
    case 'code':
      return renderCode(node.text, node.language);
    case 'formula':
      return `$$\n${node.latex.trim()}\n$$`;
    case 'quote':
      return node.children
        .map(renderNode)
        .filter(Boolean)
        .join('\n\n')
        .split('\n')
        .map((l) => (l ? `> ${l}` : '>'))
        .join('\n');
    case 'rule':
      return '---';
    case 'markdown':
      return node.markdown.trim();
    case 'note': {
      // Continuation blocks of a footnote are indented four spaces (GFM).
      const body = node.children
        .map(renderNode)
        .filter(Boolean)
        .join('\n\n')
        .split('\n')
        .map((l, i) => (i > 0 && l ? `    ${l}` : l))
        .join('\n');
      return `[^${noteLabel(node.label)}]: ${body}`.trimEnd();
    }
  }
}

export function blockTypeOf(block: DocBlock): BlockType {
  if (block.type) return block.type;
  switch (block.node.kind) {
    case 'heading':
      return 'section_header';
    case 'list':
      return 'list_item';
    case 'table':
      return 'table';
    case 'figure':
      return 'figure';
    case 'code':
      return 'code';
    case 'formula':
      return 'formula';
    default:
      return 'text';
  }
}

// ---------------------------------------------------------------- document

function separator(prev: Node | undefined, next: Node): string {
  // Consecutive list blocks (a PDF reader emits one per item) continue one tight list.
  if (prev?.kind === 'list' && next.kind === 'list' && prev.ordered === next.ordered) return '\n';
  return '\n\n';
}

export function serialize(doc: DocModel, options: SerializeOptions): Serialized {
  // The document's markdown in pieces (each block's text and the separators), joined once at the end: the
  // second half of a paragraph broken by a page break is added to its first half's piece instead of
  // copying the whole markdown written so far (140 times on a 1,235-page manual).
  const parts: string[] = [];
  let length = 0;
  let prevNode: Node | undefined;
  // Where a paragraph broken by a page break goes on: the end of its first half (a block marked
  // runsOn), and the blocks written since (footnotes, a sidebar or a figure read after it).
  let joinAt: { part: number; end: number; after: LayoutBlock[] } | null = null;
  const pages: PageMarkdown[] = [];
  const layout: LayoutPage[] = [];
  const wantPages = options.pages ?? true,
    wantBlocks = options.blocks ?? true;

  for (const page of doc.pages) {
    let pageMd = '';
    let pagePrev: Node | undefined;
    const items: LayoutBlock[] = [];
    const rendered = page.blocks.map((b) => renderNode(b.node));
    const firstIncluded = page.blocks.findIndex(
      (b, i) => rendered[i] !== '' && !(b.furniture && options.onlyMainContent),
    );
    page.blocks.forEach((block, index) => {
      const content = rendered[index]!;
      const included = content !== '' && !(block.furniture && options.onlyMainContent);
      let span: [number, number] | null = null;
      const item: LayoutBlock = {
        id: `p${page.pageNumber}.b${index}`,
        type: blockTypeOf(block),
        label: block.label ?? null,
        bbox: block.bbox ?? null,
        content,
        markdownSpan: null,
        readingOrder: index,
        source: block.source ?? null,
        confidence: block.confidence ?? { layout: null, ocr: null },
      };
      if (included) {
        if (block.continues && index === firstIncluded && joinAt && block.node.kind === 'paragraph') {
          // The second half goes on the line of the first, ahead of the blocks written since.
          const at = joinAt.end;
          const insert = ` ${content}`;
          parts[joinAt.part] += insert;
          length += insert.length;
          for (const n of joinAt.after)
            if (n.markdownSpan) n.markdownSpan = [n.markdownSpan[0] + insert.length, n.markdownSpan[1] + insert.length];
          span = [at + 1, at + insert.length];
          // A paragraph over three pages goes on again at the end of what was just added.
          joinAt = block.runsOn ? { part: joinAt.part, end: at + insert.length, after: joinAt.after } : null;
        } else {
          if (length) {
            const sep = separator(prevNode, block.node);
            parts.push(sep);
            length += sep.length;
          }
          const start = length;
          parts.push(content);
          length += content.length;
          span = [start, length];
          prevNode = block.node;
          if (block.runsOn && block.node.kind === 'paragraph')
            joinAt = { part: parts.length - 1, end: length, after: [] };
          // Running heads and page numbers kept in the markdown stay between the halves; so does
          // anything when the next page does not start with the second half.
          else if (block.furniture || index === firstIncluded) joinAt = null;
          else joinAt?.after.push(item);
        }
        if (wantPages) {
          if (pageMd) pageMd += separator(pagePrev, block.node);
          pageMd += content;
          pagePrev = block.node;
        }
      }
      item.markdownSpan = span;
      if (wantBlocks) items.push(item);
    });
    if (wantPages) pages.push({ pageNumber: page.pageNumber, markdown: pageMd });
    if (wantBlocks)
      layout.push({ pageNumber: page.pageNumber, width: page.width, height: page.height, status: page.status, items });
  }
  return { markdown: length ? `${parts.join('')}\n` : '', pages, layout };
}
