/**
 * The document's outline (bookmarks) as plain data for the layout: each entry's title, the page its
 * destination names and its depth in the tree. The layout (src/layout/outline-headings.ts) makes the
 * line of that page that reads as the entry a heading of the entry's depth.
 *
 * Bounded: at most MAX_ENTRIES entries, MAX_DEPTH levels deep, each title cut to MAX_TITLE characters;
 * an entry whose destination cannot be resolved is left out (its children are still read), and an
 * outline that cannot be read at all is none.
 */
import type { OutlineEntry } from '../layout/types.js';

const MAX_ENTRIES = 2000;
const MAX_DEPTH = 8;
const MAX_TITLE = 300;

/** What pdf.js's outline tree gives (`PDFDocumentProxy.getOutline`), as far as it is read here. */
interface OutlineNode {
  title?: unknown;
  dest?: unknown;
  items?: OutlineNode[];
}

/** The parts of a pdf.js document the outline needs. */
export interface OutlineSource {
  getOutline?(): Promise<OutlineNode[] | null>;
  getDestination?(id: string): Promise<unknown[] | null>;
  getPageIndex?(ref: unknown): Promise<number>;
}

/** The 1-based page an explicit or named destination names; undefined when it names none. */
async function pageOf(doc: OutlineSource, dest: unknown, numPages: number): Promise<number | undefined> {
  const explicit = typeof dest === 'string' && doc.getDestination ? await doc.getDestination(dest) : dest;
  if (!Array.isArray(explicit) || explicit.length === 0) return undefined;
  const target = explicit[0];
  let index: number | undefined;
  if (typeof target === 'number') index = target;
  else if (target && typeof target === 'object' && doc.getPageIndex) index = await doc.getPageIndex(target);
  if (index === undefined || !Number.isInteger(index) || index < 0 || index >= numPages) return undefined;
  return index + 1;
}

/** The outline's entries in document order; [] when the document has none. */
export async function documentOutline(doc: OutlineSource, numPages: number): Promise<OutlineEntry[]> {
  let roots: OutlineNode[] | null;
  try {
    roots = doc.getOutline ? await doc.getOutline() : null;
  } catch {
    return [];
  }
  const out: OutlineEntry[] = [];
  let visited = 0;
  const walk = async (nodes: OutlineNode[], depth: number): Promise<void> => {
    for (const node of nodes) {
      if (visited++ >= MAX_ENTRIES) return;
      const title = typeof node.title === 'string' ? node.title.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE) : '';
      let page: number | undefined;
      try {
        page = await pageOf(doc, node.dest, numPages);
      } catch {
        page = undefined;
      }
      if (title && page !== undefined) out.push({ page, title, depth });
      if (Array.isArray(node.items) && node.items.length && depth + 1 < MAX_DEPTH) await walk(node.items, depth + 1);
    }
  };
  if (Array.isArray(roots)) await walk(roots, 0);
  return out;
}
