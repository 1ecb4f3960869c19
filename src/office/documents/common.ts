/**
 * Pieces every text-document reader shares: building nested lists from numbered paragraphs,
 * image sources (inline data or the removed-data placeholder), tidy inline runs.
 */
import type { DocBlock, Inline, ListItem, ListNode, Node, TableCell } from '../../model/document.js';

/** What an image's `src` becomes when `removeBase64Images` is on: the MIME type stays visible. */
export function removedImageSrc(mime: string): string {
  return `data:${mime};base64...`;
}

export function imageSrc(mime: string, bytes: Uint8Array | undefined, removeBase64: boolean): string {
  if (!bytes) return '';
  if (removeBase64) return removedImageSrc(mime);
  return `data:${mime};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;
}

const MIME_BY_EXT: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jpe: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  emf: 'image/x-emf',
  wmf: 'image/x-wmf',
  wdp: 'image/vnd.ms-photo',
  jxr: 'image/vnd.ms-photo',
  ico: 'image/x-icon',
};

export function mimeOf(name: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  return MIME_BY_EXT[ext] ?? 'application/octet-stream';
}

/** True when inlines hold no visible text, image, math or note reference. */
export function isBlank(inlines: readonly Inline[]): boolean {
  for (const i of inlines) {
    if (i.type === 'text' ? /\S/.test(i.text) : i.type !== 'break') return false;
  }
  return true;
}

/** Drops leading/trailing breaks and white space so that paragraphs do not start or end with `\`. */
export function trimInlines(inlines: Inline[]): Inline[] {
  let s = 0;
  let e = inlines.length;
  while (
    s < e &&
    (inlines[s]!.type === 'break' || (inlines[s]!.type === 'text' && !/\S/.test((inlines[s] as { text: string }).text)))
  )
    s++;
  while (
    e > s &&
    (inlines[e - 1]!.type === 'break' ||
      (inlines[e - 1]!.type === 'text' && !/\S/.test((inlines[e - 1] as { text: string }).text)))
  )
    e--;
  return s === 0 && e === inlines.length ? inlines : inlines.slice(s, e);
}

/** Flattens blocks into inline content for a table cell (paragraphs joined by line breaks). */
export function blocksToCellInlines(nodes: readonly Node[]): Inline[] {
  const out: Inline[] = [];
  const push = (inl: Inline[]): void => {
    const t = trimInlines(inl);
    if (t.length === 0) return;
    if (out.length) out.push({ type: 'break' });
    out.push(...t);
  };
  const walk = (node: Node): void => {
    switch (node.kind) {
      case 'heading':
      case 'paragraph':
        push(node.content);
        break;
      case 'list':
        node.items.forEach((item, i) => {
          const marker = node.ordered ? `${(node.start ?? 1) + i}. ` : '- ';
          push([{ type: 'text', text: marker }, ...item.content]);
          for (const c of item.children ?? []) walk(c);
        });
        break;
      case 'table':
        for (const row of node.rows)
          push(row.flatMap((c, i) => (i ? [{ type: 'text', text: ' ' } as Inline, ...c.content] : c.content)));
        break;
      case 'figure':
        push([{ type: 'image', alt: node.alt, src: node.src ?? '' }]);
        break;
      case 'formula':
        push([{ type: 'math', latex: node.latex }]);
        break;
      case 'code':
        push([{ type: 'text', text: node.text, code: true }]);
        break;
      case 'quote':
        node.children.forEach(walk);
        break;
      case 'note':
        node.children.forEach(walk);
        break;
      case 'markdown':
        push([{ type: 'text', text: node.markdown }]);
        break;
      case 'rule':
        break;
    }
  };
  nodes.forEach(walk);
  return out;
}

/** Paragraph style names (lower case) of code: Word's built-in ones and common custom names. */
export const CODE_STYLE = /^(html preformatted|source code|code|plain text|macro text|verbatim|preformatted text)$/;
/** Paragraph style names (lower case) of quotations: Word's and LibreOffice's ("Quotations"). */
export const QUOTE_STYLE = /^(quote|quotations?|intense quote|block text|block quote|blockquote)$/;

const HEADING_STYLE = /^(?:heading|überschrift|titre|titolo|encabezado|título|kop|rubrik|nagłówek|заголовок)\s*(\d)$/;

/**
 * The heading level a paragraph style's name stands for: "heading 1" … "heading 9" (Word's names
 * in several languages too), "Title" a level-1 heading. Undefined for other names.
 */
export function headingLevelOfStyleName(name: string): number | undefined {
  const n = name.trim().toLowerCase();
  const m = HEADING_STYLE.exec(n);
  if (m) return Number(m[1]);
  return n === 'title' ? 1 : undefined;
}

/**
 * A comment's blocks headed by its author in bold ("**Jane Roe:** text"), the way every reader
 * writes comment notes; unchanged when the author is not known.
 */
export function withAuthor(nodes: Node[], author: string): Node[] {
  if (!author) return nodes;
  const tag: Inline = { type: 'text', text: `${author}:`, bold: true };
  const first = nodes[0];
  if (first?.kind === 'paragraph') first.content = [tag, { type: 'text', text: ' ' }, ...first.content];
  else nodes.unshift({ kind: 'paragraph', content: [tag] });
  return nodes;
}

/** Largest span kept: a declared span of a million columns is damage, not layout. */
const MAX_SPAN = 1000;
/** Cells of the expanded grid (rows × columns) a table may have before it is simplified. */
const MAX_GRID_CELLS = 2_000_000;

export function cell(content: Inline[], colSpan = 1, rowSpan = 1): TableCell {
  const c: TableCell = { content };
  if (colSpan > 1) c.colSpan = Math.min(colSpan, MAX_SPAN);
  if (rowSpan > 1) c.rowSpan = Math.min(rowSpan, MAX_SPAN);
  return c;
}

/**
 * Keeps the grid the serializer expands bounded: when rows × columns would pass the limit, spans are
 * dropped and, if still needed, the cells past the last allowed column are joined into it.
 */
export function boundTable(rows: TableCell[][]): TableCell[][] {
  const width = (rs: TableCell[][]): number => {
    let w = 0;
    for (const r of rs) {
      let x = 0;
      for (const c of r) x += c.colSpan ?? 1;
      if (x > w) w = x;
    }
    return w;
  };
  if (rows.length * width(rows) <= MAX_GRID_CELLS) return rows;
  for (const r of rows)
    for (const c of r) {
      delete c.colSpan;
      delete c.rowSpan;
    }
  const w = width(rows);
  if (rows.length * w <= MAX_GRID_CELLS) return rows;
  const cap = Math.max(1, Math.floor(MAX_GRID_CELLS / rows.length));
  return rows.map((r) => {
    if (r.length <= cap) return r;
    const kept = r.slice(0, cap);
    const last = kept[cap - 1]!;
    const rest: Inline[] = [];
    for (const c of r.slice(cap - 1)) {
      if (rest.length) rest.push({ type: 'text', text: ' ' });
      rest.push(...c.content);
    }
    kept[cap - 1] = { ...last, content: rest };
    return kept;
  });
}

/**
 * Collects blocks in document order and folds numbered/bulleted paragraphs into nested list nodes:
 * an item deeper than the previous one opens a sub-list inside that item.
 */
export class BlockSink {
  readonly blocks: DocBlock[] = [];
  private stack: { list: ListNode; level: number }[] = [];

  add(node: Node, extra?: Omit<DocBlock, 'node'>): void {
    this.stack = [];
    this.blocks.push({ node, ...extra });
  }

  addListItem(level: number, ordered: boolean, start: number | undefined, content: Inline[], children?: Node[]): void {
    while (this.stack.length && this.stack[this.stack.length - 1]!.level > level) this.stack.pop();
    let top = this.stack[this.stack.length - 1];
    // A different kind of list, or a number that does not follow on (another list restarting at 1
    // right after this one), starts a new list.
    if (
      top &&
      top.level === level &&
      (top.list.ordered !== ordered ||
        (ordered && start !== undefined && start !== (top.list.start ?? 1) + top.list.items.length))
    ) {
      this.stack.pop();
      top = this.stack[this.stack.length - 1];
    }
    const item: ListItem = { content };
    if (children?.length) item.children = [...children];
    if (top && top.level === level) {
      top.list.items.push(item);
      return;
    }
    const list: ListNode = { kind: 'list', ordered, items: [item] };
    if (ordered && start !== undefined && start !== 1) list.start = start;
    if (top) {
      const parentItem = top.list.items[top.list.items.length - 1]!;
      (parentItem.children ??= []).push(list);
    } else {
      this.blocks.push({ node: list });
    }
    this.stack.push({ list, level });
  }

  /** A paragraph in a code style: one line of the code block it follows, or a new code block. */
  addCodeLine(content: Inline[], extra?: Omit<DocBlock, 'node'>): void {
    const text = content.map((i) => (i.type === 'text' ? i.text : i.type === 'break' ? '\n' : '')).join('');
    const last = this.blocks[this.blocks.length - 1]?.node;
    if (last?.kind === 'code') last.text += `\n${text}`;
    else this.add({ kind: 'code', text }, extra);
  }

  /** A paragraph in a quote style: the next paragraph of the quote it follows, or a new quote. */
  addQuoteParagraph(content: Inline[], extra?: Omit<DocBlock, 'node'>): void {
    const last = this.blocks[this.blocks.length - 1]?.node;
    if (last?.kind === 'quote') last.children.push({ kind: 'paragraph', content });
    else this.add({ kind: 'quote', children: [{ kind: 'paragraph', content }] }, extra);
  }

  /** Appends a block inside the current list item (a paragraph that continues it), else as a block. */
  addToCurrentItem(node: Node): boolean {
    const top = this.stack[this.stack.length - 1];
    if (!top) return false;
    const item = top.list.items[top.list.items.length - 1]!;
    (item.children ??= []).push(node);
    return true;
  }

  endList(): void {
    this.stack = [];
  }

  nodes(): Node[] {
    return this.blocks.map((b) => b.node);
  }
}

/**
 * Grid columns in which no cell starts (every row spans across them) carry nothing: the spans
 * covering them are narrowed so that the markdown table has no empty filler columns.
 */
export function compactSpans(rows: TableCell[][]): void {
  const starts = new Set<number>();
  let width = 0;
  const occupied: Set<number>[] = [];
  rows.forEach((row, r) => {
    let c = 0;
    for (const cl of row) {
      while (occupied[r]?.has(c)) c++;
      starts.add(c);
      const cs = cl.colSpan ?? 1;
      for (let dr = 1; dr < (cl.rowSpan ?? 1); dr++)
        for (let k = 0; k < cs; k++) (occupied[r + dr] ??= new Set()).add(c + k);
      c += cs;
    }
    width = Math.max(width, c);
  });
  if (starts.size >= width) return;
  rows.forEach((row, r) => {
    let c = 0;
    for (const cl of row) {
      while (occupied[r]?.has(c)) c++;
      const cs = cl.colSpan ?? 1;
      let keep = 0;
      for (let k = 0; k < cs; k++) if (starts.has(c + k)) keep++;
      if (keep !== cs) {
        if (keep <= 1) delete cl.colSpan;
        else cl.colSpan = keep;
      }
      c += cs;
    }
  });
}

/** A table row as binary formats describe it: cells with their right edges (twips) and vertical merges. */
export interface RawRow {
  cells: TableCell[];
  /** Cell edges, `cells.length + 1` of them (left edge of the first cell, then each right edge). */
  bounds?: number[];
  vmerge?: ('none' | 'start' | 'cont')[];
}

/**
 * Builds table rows from cell edges: a cell spanning several of the table's columns (the union of
 * all rows' edges) gets a colSpan; a vertically merged continuation cell grows its origin's rowSpan.
 */
export function buildTable(raw: RawRow[]): TableCell[][] {
  const all: number[] = [];
  for (const r of raw) if (r.bounds && r.bounds.length === r.cells.length + 1) all.push(...r.bounds);
  all.sort((a, b) => a - b);
  const edges: number[] = [];
  for (const e of all) if (!edges.length || e - edges[edges.length - 1]! > 20) edges.push(e);
  // Nearest edge by binary search: rows may have very many cells.
  const colOf = (x: number): number => {
    let lo = 0;
    let hi = edges.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (edges[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0 && Math.abs(edges[lo - 1]! - x) <= Math.abs(edges[lo]! - x)) return lo - 1;
    return lo;
  };
  const out: TableCell[][] = [];
  const vOrigin = new Map<number, TableCell>();
  for (const r of raw) {
    const row: TableCell[] = [];
    const usable = !!r.bounds && r.bounds.length === r.cells.length + 1 && edges.length > 1;
    r.cells.forEach((c, i) => {
      let start = i;
      let span = 1;
      if (usable) {
        start = colOf(r.bounds![i]!);
        span = Math.max(1, colOf(r.bounds![i + 1]!) - start);
      }
      const vm = r.vmerge?.[i] ?? 'none';
      if (vm === 'cont') {
        const o = vOrigin.get(start);
        if (o) {
          o.rowSpan = (o.rowSpan ?? 1) + 1;
          return;
        }
      }
      if (span > 1) c.colSpan = span;
      else delete c.colSpan;
      row.push(c);
      if (vm === 'start') vOrigin.set(start, c);
      else vOrigin.delete(start);
    });
    out.push(row);
  }
  return out;
}

/**
 * Contents entries: the tab (written as U+0000 by the reader) and the page number after it are
 * layout, not content. Other such tabs become spaces.
 */
export function dropPageNumbers(inlines: Inline[], contents = true): Inline[] {
  if (!contents || !inlines.some((i) => i.type === 'text' && i.text.includes('\u0000'))) {
    return inlines.map((i) =>
      i.type === 'text' && i.text.includes('\u0000') ? { ...i, text: i.text.replace(/\u0000/g, ' ') } : i,
    );
  }
  const out = inlines.map((i) => (i.type === 'text' ? { ...i } : i));
  for (let k = out.length - 1; k >= 0; k--) {
    const i = out[k]!;
    if (i.type !== 'text') continue;
    const at = i.text.lastIndexOf('\u0000');
    if (at < 0) continue;
    const tail =
      i.text.slice(at + 1) +
      out
        .slice(k + 1)
        .map((x) => (x.type === 'text' ? x.text : ''))
        .join('');
    if (/^\s*[\divxlcdm]*\s*$/i.test(tail)) {
      i.text = i.text.slice(0, at);
      out.length = k + 1;
    }
    break;
  }
  return out.map((i) =>
    i.type === 'text' && i.text.includes('\u0000') ? { ...i, text: i.text.replace(/\u0000/g, ' ') } : i,
  );
}

/** Runs of spaces collapsed to one, also across runs with different formatting (markdown shows one anyway). */
export function collapseSpaces(inlines: Inline[]): Inline[] {
  const out: Inline[] = [];
  for (const i of inlines) {
    if (i.type !== 'text') {
      out.push(i);
      continue;
    }
    let t = i.text.indexOf('  ') >= 0 ? i.text.replace(/ {2,}/g, ' ') : i.text;
    const prev = out[out.length - 1];
    if (t.startsWith(' ') && prev?.type === 'text' && prev.text.endsWith(' ')) t = t.slice(1);
    if (t) out.push(t === i.text ? i : { ...i, text: t });
  }
  return out;
}
