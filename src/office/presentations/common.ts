/** Pieces shared by the slide readers (.pptx, .odp, .ppt). */
import type { BBox, DocBlock, DocPage, Inline, ListItem, ListNode, Node } from '../../model/document.js';

/** A paragraph of a text frame: either running text or a list item at a nesting level. */
export interface SlideParagraph {
  content: Inline[];
  /** 0-based nesting level; undefined for a paragraph that is not a list item. */
  level?: number;
  ordered?: boolean;
  /** First number of an ordered list that does not start at 1. */
  start?: number;
}

/** Something placed on a slide, in slide coordinates. */
export interface PlacedItem {
  /** Box in slide units; null when the source gives no position. */
  box: { x: number; y: number; w: number; h: number } | null;
  /** Title placeholders come first whatever their position. */
  title?: boolean;
  /** Dates, footers and slide numbers: page furniture. */
  furniture?: boolean;
  nodes: Node[];
  /** Document order, the tie-breaker. */
  seq: number;
}

export function isBlank(content: readonly Inline[]): boolean {
  return content.every((i) => (i.type === 'text' ? i.text.trim() === '' : i.type === 'break'));
}

/** Turns a frame's paragraphs into paragraphs and nested lists. */
export function paragraphsToNodes(paras: readonly SlideParagraph[]): Node[] {
  const out: Node[] = [];
  let i = 0;
  while (i < paras.length) {
    const p = paras[i]!;
    if (p.level === undefined) {
      if (!isBlank(p.content)) out.push({ kind: 'paragraph', content: trimInlines(p.content) });
      i++;
      continue;
    }
    const run: SlideParagraph[] = [];
    while (i < paras.length && paras[i]!.level !== undefined) {
      if (!isBlank(paras[i]!.content)) run.push(paras[i]!);
      i++;
    }
    if (run.length) out.push(...buildLists(run));
  }
  return out;
}

function buildLists(items: SlideParagraph[]): ListNode[] {
  const lists: ListNode[] = [];
  // Stack of open lists by depth; each knows the level it was opened for.
  const stack: { list: ListNode; level: number }[] = [];
  const base = Math.min(...items.map((p) => p.level ?? 0));
  for (const p of items) {
    const level = (p.level ?? 0) - base;
    const item: ListItem = { content: trimInlines(p.content) };
    while (stack.length && stack[stack.length - 1]!.level > level) stack.pop();
    const top = stack[stack.length - 1];
    // A start number continues the open list when it is the next number or the list's own start
    // (PresentationML repeats the scheme's startAt on every paragraph); anything else restarts.
    const expected = (top?.list.start ?? 1) + (top?.list.items.length ?? 0);
    const continues = p.start === undefined || p.start === expected || p.start === (top?.list.start ?? 1);
    if (top && top.level === level && top.list.ordered === !!p.ordered && continues) {
      top.list.items.push(item);
      continue;
    }
    if (top && top.level === level) stack.pop();
    const list: ListNode = { kind: 'list', ordered: !!p.ordered, items: [item] };
    if (p.ordered && p.start !== undefined && p.start !== 1) list.start = p.start;
    const parent = stack[stack.length - 1];
    if (parent) {
      const last = parent.list.items[parent.list.items.length - 1]!;
      (last.children ??= []).push(list);
    } else lists.push(list);
    stack.push({ list, level });
  }
  return lists;
}

export function trimInlines(content: readonly Inline[]): Inline[] {
  const out = [...content];
  while (
    out.length &&
    (out[0]!.type === 'break' || (out[0]!.type === 'text' && !(out[0] as { text: string }).text.trim()))
  )
    out.shift();
  while (out.length) {
    const last = out[out.length - 1]!;
    if (last.type === 'break' || (last.type === 'text' && !last.text.trim())) out.pop();
    else break;
  }
  if (out[0]?.type === 'text') out[0] = { ...out[0], text: out[0].text.replace(/^\s+/, '') };
  const l = out[out.length - 1];
  if (l?.type === 'text') out[out.length - 1] = { ...l, text: l.text.replace(/\s+$/, '') };
  return out;
}

/**
 * Reading order: titles first, then top-to-bottom, left-to-right. Items whose tops are within a
 * small band of each other count as one row and are read left to right, so side-by-side columns
 * come out column by column rather than interleaved by a few units of vertical offset.
 */
export function readingOrder(items: PlacedItem[], slideHeight: number | null): PlacedItem[] {
  const band = (slideHeight ?? 0) > 0 ? slideHeight! * 0.02 : 0;
  const positioned = items.filter((i) => i.box);
  const unpositioned = items.filter((i) => !i.box);
  positioned.sort((a, b) => a.box!.y - b.box!.y || a.box!.x - b.box!.x || a.seq - b.seq);
  const rows: PlacedItem[][] = [];
  for (const it of positioned) {
    const row = rows[rows.length - 1];
    if (row && (it.box!.y - row[0]!.box!.y <= band || sideBySide(row[0]!.box!, it.box!))) row.push(it);
    else rows.push([it]);
  }
  const ordered = rows.flatMap((r) => r.sort((a, b) => a.box!.x - b.box!.x || a.box!.y - b.box!.y || a.seq - b.seq));
  const all = [...ordered, ...unpositioned.sort((a, b) => a.seq - b.seq)];
  const titles = all.filter((i) => i.title);
  return [...titles, ...all.filter((i) => !i.title)];
}

/**
 * Two frames stand side by side (columns) when they overlap vertically for most of the shorter
 * one's height and do not overlap horizontally.
 */
function sideBySide(
  a: { x: number; y: number; w: number; h: number },
  b: { x: number; y: number; w: number; h: number },
): boolean {
  const overlapY = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  const overlapX = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const shorter = Math.min(a.h, b.h);
  return shorter > 0 && overlapY > shorter * 0.6 && overlapX <= 0;
}

/**
 * Builds a slide page from placed items and optional speaker notes. `size` is the slide in the items'
 * units (for normalised boxes); `pageSize` what the page reports (points).
 */
export function slidePage(
  pageNumber: number,
  items: PlacedItem[],
  notes: Node[],
  size: { width: number; height: number } | null,
  pageSize: { width: number; height: number } | null = size,
): DocPage {
  const blocks: DocBlock[] = [];
  let titled = false;
  for (const item of readingOrder(items, size?.height ?? null)) {
    const bbox = item.box && size ? normBox(item.box, size) : null;
    for (let node of item.nodes) {
      if (item.title) {
        // One heading per slide; a second title-like frame reads as a paragraph.
        const content = plainInlines(node);
        if (!titled && content.length) {
          node = { kind: 'heading', level: 2, content };
          titled = true;
        } else if (node.kind === 'heading') node = { kind: 'paragraph', content: node.content };
      }
      blocks.push({
        node,
        bbox,
        ...(item.title && node.kind === 'heading' ? { type: 'title' as const } : {}),
        ...(item.furniture ? { furniture: true, type: 'page_footer' as const } : {}),
      });
    }
  }
  // A slide without a title has nothing to mark where it starts: without a rule its text would read as
  // part of the slide before (as that slide's notes, when it has some).
  if (!titled && pageNumber > 1 && blocks.some((b) => !b.furniture)) blocks.unshift({ node: { kind: 'rule' } });
  if (notes.length) {
    blocks.push({ node: { kind: 'heading', level: 3, content: [{ type: 'text', text: 'Notes' }] } });
    for (const node of notes) blocks.push({ node });
  }
  return { pageNumber, width: pageSize?.width ?? null, height: pageSize?.height ?? null, status: 'ok', blocks };
}

/** A title's text without emphasis marks (titles are bold by style; the heading says enough). */
function plainInlines(node: Node): Inline[] {
  let content: Inline[] = [];
  if (node.kind === 'paragraph' || node.kind === 'heading') content = node.content;
  else if (node.kind === 'list')
    content = node.items.flatMap((it, i) => (i ? [{ type: 'text' as const, text: ' ' }, ...it.content] : it.content));
  else return [];
  return content.map((i) =>
    i.type === 'text'
      ? { type: 'text' as const, text: i.text, ...(i.href ? { href: i.href } : {}) }
      : i.type === 'break'
        ? { type: 'text' as const, text: ' ' }
        : i,
  );
}

function normBox(b: { x: number; y: number; w: number; h: number }, size: { width: number; height: number }): BBox {
  const clamp = (v: number): number => Math.round(Math.min(1, Math.max(0, v)) * 10000) / 10000;
  return [
    clamp(b.x / size.width),
    clamp(b.y / size.height),
    clamp((b.x + b.w) / size.width),
    clamp((b.y + b.h) / size.height),
  ];
}
