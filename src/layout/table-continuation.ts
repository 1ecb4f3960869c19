/**
 * Tables continued over a page break: a table that ends one page's body and one that starts the
 * next page's body are one table when they have as many columns and either the second repeats the
 * first's head (its first rows read as the first's, cell for cell), or neither has such a head but
 * the first runs down to the foot of its page's text and the second starts at the head of the next
 * page's, over the same width. The second table's rows (less its repeated head) go on the end of the
 * first, and the second block leaves its page. Running heads, footers, page numbers and footnotes
 * between the two do not count.
 */
import { inlinesText, type TableCell, type TableNode } from '../model/document.js';
import type { LaidOutBlock, PageLayout } from './types.js';

/** Columns of a table: the widest row, spans counted. */
function columns(t: TableNode): number {
  return Math.max(0, ...t.rows.map((r) => r.reduce((n, c) => n + (c.colSpan ?? 1), 0)));
}

const cellKey = (c: TableCell): string =>
  inlinesText(c.content).normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
const rowKey = (r: TableCell[]): string => r.map(cellKey).join('\u0001');

/** How many of the first rows of `next` repeat the first rows of `first` (at most three, never all of `next`). */
function repeatedHeadRows(first: TableNode, next: TableNode): number {
  let k = 0;
  while (
    k < 3 &&
    k < first.rows.length - 1 &&
    k < next.rows.length - 1 &&
    rowKey(first.rows[k]!) === rowKey(next.rows[k]!) &&
    first.rows[k]!.some((c) => /[\p{L}\p{N}]/u.test(cellKey(c)))
  )
    k++;
  return k;
}

/** Body blocks of a page: not furniture, not footnotes. */
function bodyOf(p: PageLayout, furniture: ReadonlyMap<LaidOutBlock, unknown>): LaidOutBlock[] {
  return p.blocks.filter((b) => !furniture.has(b) && b.block.label !== 'footnote');
}

/** The two tables sit where a table broken by the page would: the first at its page's foot, the second at the next's head, one width. */
function brokenByPage(a: LaidOutBlock, aBody: LaidOutBlock[], b: LaidOutBlock, bBody: LaidOutBlock[]): boolean {
  const ab = a.block.bbox,
    bb = b.block.bbox;
  if (!ab || !bb) return false;
  const lowest = Math.max(...aBody.map((x) => x.block.bbox?.[3] ?? 0));
  const highest = Math.min(...bBody.map((x) => x.block.bbox?.[1] ?? 1));
  return (
    ab[3] >= lowest - 0.005 &&
    ab[3] >= 0.7 &&
    bb[1] <= highest + 0.005 &&
    bb[1] <= 0.3 &&
    Math.abs(ab[0] - bb[0]) < 0.03 &&
    Math.abs(ab[2] - bb[2]) < 0.03
  );
}

/** Joins tables continued over page breaks, in place (a table over three pages and more too). */
export function joinContinuedTables(pages: PageLayout[], furniture: ReadonlyMap<LaidOutBlock, unknown>): void {
  // A table that went on the end of one before it, and was all its page's body: the page after may go on with it.
  type Carried = { target: LaidOutBlock; tail: LaidOutBlock; page: number };
  const state: { carried: Carried | null } = { carried: null };
  for (let i = 1; i < pages.length; i++) {
    const before = pages[i - 1]!,
      page = pages[i]!;
    const wasCarried = state.carried?.page === before.pageNumber ? state.carried : null;
    state.carried = null;
    if (page.pageNumber !== before.pageNumber + 1 || before.status === 'failed' || page.status === 'failed') continue;
    const aBody = wasCarried ? [wasCarried.tail] : bodyOf(before, furniture),
      bBody = bodyOf(page, furniture);
    const tail = aBody.at(-1),
      b = bBody[0];
    const a: LaidOutBlock | undefined = wasCarried?.target ?? tail;
    if (!a || !tail || !b || a.block.node.kind !== 'table' || b.block.node.kind !== 'table') continue;
    const first = a.block.node,
      next = b.block.node;
    if (columns(first) !== columns(next) || columns(first) < 2) continue;
    const head = repeatedHeadRows(first, next);
    if (!head && !brokenByPage(tail, aBody, b, bBody)) continue;
    a.block = { ...a.block, node: { ...first, rows: [...first.rows, ...next.rows.slice(head)] } };
    page.blocks = page.blocks.filter((x) => x !== b);
    if (bBody.length === 1) state.carried = { target: a, tail: b, page: page.pageNumber };
  }
}
