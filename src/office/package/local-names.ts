/**
 * Navigation by local name, whatever the prefix, over the trees of the XML reader (`xml.ts`): what the
 * presentation and spreadsheet readers, the OpenDocument cell values and the relationship parts need
 * (`child(el, 't')` finds `a:t`, `attr(el, 'href')` finds `xlink:href`). `xml.ts` itself navigates by
 * name, for the readers that resolve namespaces.
 */
import { attrByLocalName, type XmlElement, type XmlOptions } from './xml.js';

export type { XmlElement } from './xml.js';

/** Elements whose white space can be content (text runs, paragraphs, spans, links, values). */
const TEXT_RUN_ELEMENTS = new Set(['t', 'p', 'h', 'span', 'a', 'v', 'title', 'desc', 'text']);

/**
 * How the readers that match by local name (pptx, odp, ods, relationship parts) read a part; each adds
 * the `part` name its errors give. They were built on these choices:
 * - damaged markup refuses the part (MALFORMED): the presentation readers leave a bad slide part out and
 *   a bad relationships part reads as none, rather than reading half of it;
 * - a character reference to no character reads as nothing;
 * - white space is kept in text runs, paragraphs, spans, links and values, whatever their prefix;
 * - nesting is refused beyond 511 levels (these parts nest deeper than a Word body: grouped shapes in
 *   grouped shapes), and the element count is left to the package's size limits.
 */
export const WELL_FORMED_PARTS: XmlOptions = {
  onBadTag: 'fail',
  invalidCharRefs: 'drop',
  keepWhitespaceInLocal: TEXT_RUN_ELEMENTS,
  maxDepth: 511,
  maxElements: Infinity,
};

/** Attribute by local name, whatever its prefix. */
export const attr = attrByLocalName;

export function elements(el: XmlElement | undefined): XmlElement[] {
  if (!el) return [];
  const out: XmlElement[] = [];
  for (const c of el.children) if (typeof c !== 'string') out.push(c);
  return out;
}

/** First child element with the local name. */
export function child(el: XmlElement | undefined, local: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const c of el.children) if (typeof c !== 'string' && c.local === local) return c;
  return undefined;
}

export function childrenNamed(el: XmlElement | undefined, local: string): XmlElement[] {
  return elements(el).filter((c) => c.local === local);
}

/** Follows a path of local names through first children. */
export function path(el: XmlElement | undefined, ...locals: string[]): XmlElement | undefined {
  let cur = el;
  for (const l of locals) cur = child(cur, l);
  return cur;
}

/** All descendants with the local name, in document order (matches inside matches included). */
export function descendants(el: XmlElement | undefined, local: string, out: XmlElement[] = []): XmlElement[] {
  if (!el) return out;
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.local === local) out.push(c);
    descendants(c, local, out);
  }
  return out;
}

/** Concatenated character data of the element's subtree. */
export function textOf(el: XmlElement | undefined): string {
  if (!el) return '';
  let s = '';
  for (const c of el.children) s += typeof c === 'string' ? c : textOf(c);
  return s;
}
