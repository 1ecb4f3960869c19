/**
 * Lists: consecutive list items are nested by the indentation of their markers into list blocks.
 */
import type { ListItem, ListNode } from '../../model/document.js';
import type { Line } from '../lines.js';
import { LIST_CONFIDENCE } from '../thresholds.js';
import type { BlockHints, Box, LaidOutBlock, PageSource } from '../types.js';
import { grow, type El, type TextBlock } from './elements.js';

/**
 * An item of a run of consecutive list items. `more`: blocks of text the item goes on with (a second
 * paragraph set at the item's text indent).
 */
export interface ListRunEntry {
  el: TextBlock;
  item: ListItem;
  ordered: boolean;
  start: number;
  more?: TextBlock[];
}

/**
 * The list blocks of a run of consecutive list items, nested by the indentation of their markers.
 * `hintsBase` gives a block's hints from its element and lines, `bboxOf` its box on the page.
 */
export function listBlocks(
  listRun: readonly ListRunEntry[],
  hintsBase: (e: El, lines: Line[]) => BlockHints,
  bboxOf: (b: Box) => [number, number, number, number],
  source: PageSource,
): LaidOutBlock[] {
  const out: LaidOutBlock[] = [];
  // An item is nested in the item before it, or in one of that item's parents, when its marker
  // starts more than half an em further right. Levels go by those ancestors, not by every marker
  // position in the run: numbers set flush right start at two positions ("9." right of "10.") in
  // one level. (Text starts do not tell: a scan's sub-items' text may start left of their parent's.)
  const open: number[] = [];
  const levelOf = (el: TextBlock): number => {
    while (open.length && !(el.x0 > open[open.length - 1]! + el.size * 0.6)) open.pop();
    open.push(el.x0);
    return open.length - 1;
  };
  let top: { node: ListNode; el: TextBlock; box: Box; lines: Line[] } | null = null;
  const emitTop = (): void => {
    if (!top) return;
    const hints = hintsBase(top.el, top.lines);
    const first = top.el.lines[0]!.text;
    // A short, numbered line in a larger or bold font may be a section heading: the document pass decides.
    hints.headingCandidate =
      top.node.items.length === 1 &&
      !top.node.items[0]!.children &&
      top.lines.length <= 2 &&
      first.length < 120 &&
      top.el.marker?.kind === 'number' &&
      !/[.;,]$/.test(first);
    if (hints.headingCandidate && !hints.numbering) hints.numbering = top.el.marker!.text.trim();
    out.push({
      block: {
        node: top.node,
        type: 'list_item',
        label: 'list',
        bbox: bboxOf(top.box),
        source,
        confidence: { layout: LIST_CONFIDENCE, ocr: null },
      },
      hints,
    });
    top = null;
  };
  const stacks: ListNode[] = [];
  let prevEl: TextBlock | null = null;
  for (const r of listRun) {
    // An item in the next column (it starts above the one before, or right of its right edge)
    // starts a list of its own, whatever its indent.
    if (prevEl && (r.el.y0 < prevEl.y0 - r.el.size * 0.5 || r.el.x0 >= prevEl.x1)) open.length = 0;
    prevEl = r.el;
    const depth = levelOf(r.el);
    const lv = top ? Math.min(depth, stacks.length) : 0;
    if (lv === 0 || !top) {
      emitTop();
      const node: ListNode = { kind: 'list', ordered: r.ordered, items: [r.item] };
      if (r.ordered && r.start !== 1) node.start = r.start;
      top = { node, el: r.el, box: { x0: r.el.x0, y0: r.el.y0, x1: r.el.x1, y1: r.el.y1 }, lines: [...r.el.lines] };
      for (const m of r.more ?? []) {
        grow(top.box, m);
        top.lines.push(...m.lines);
      }
      stacks.length = 0;
      stacks.push(node);
      continue;
    }
    const t = top as { node: ListNode; el: TextBlock; box: Box; lines: Line[] };
    grow(t.box, r.el);
    t.lines.push(...r.el.lines);
    for (const m of r.more ?? []) {
      grow(t.box, m);
      t.lines.push(...m.lines);
    }
    stacks.length = Math.min(stacks.length, lv + 1);
    const parentList = stacks[Math.min(lv, stacks.length) - 1]!;
    const parentItem = parentList.items[parentList.items.length - 1]!;
    const existing = stacks.length > lv ? stacks[lv] : undefined;
    if (existing && existing.ordered === r.ordered && (parentItem.children ?? []).includes(existing))
      existing.items.push(r.item);
    else {
      const sub: ListNode = { kind: 'list', ordered: r.ordered, items: [r.item] };
      if (r.ordered && r.start !== 1) sub.start = r.start;
      parentItem.children = [...(parentItem.children ?? []), sub];
      stacks.length = lv;
      stacks.push(sub);
    }
  }
  emitTop();
  return out;
}
