/**
 * A small, strict-enough XML reader for Office and OpenDocument parts. It builds a light element
 * tree and deliberately knows nothing of DTDs: a part that declares entities is refused with
 * RESOURCE_LIMIT (entity expansion is the classic "billion laughs" bomb, and no Office or ODF
 * writer declares entities), and nesting deeper than a fixed bound is refused too.
 */
import { ParseError } from '../../errors.js';

export interface XmlElement {
  /** Qualified name as written (`a:t`). */
  name: string;
  /** Name without its prefix (`t`). */
  local: string;
  /** Attributes by qualified name; parsed on first use (most elements' attributes are never read). */
  readonly attrs: Record<string, string>;
  children: XmlChild[];
}

class Element implements XmlElement {
  children: XmlChild[] = [];
  private parsed: Record<string, string> | undefined;

  constructor(readonly name: string, readonly local: string, private raw: string) {}

  get attrs(): Record<string, string> {
    if (this.parsed) return this.parsed;
    const attrs: Record<string, string> = {};
    if (this.raw) {
      ATTR.lastIndex = 0;
      for (let a = ATTR.exec(this.raw); a; a = ATTR.exec(this.raw)) attrs[a[1]!] = decodeEntities(a[2] ?? a[3] ?? '');
      this.raw = '';
    }
    return (this.parsed = attrs);
  }
}

export type XmlChild = XmlElement | string;

export const MAX_XML_DEPTH = 512;

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/g, (m, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return NAMED[ref] ?? m;
  });
}

function localOf(name: string): string {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
}

const ATTR = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const START_TAG = /<([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;

/** Parses an XML document into its root element. Throws MALFORMED or RESOURCE_LIMIT. */
export function parseXml(xml: string, part = 'XML part'): XmlElement {
  const root: XmlElement = new Element('#document', '#document', '');
  const stack: XmlElement[] = [root];
  let i = 0;
  const n = xml.length;
  while (i < n) {
    const lt = xml.indexOf('<', i);
    if (lt < 0) {
      pushText(stack[stack.length - 1]!, xml.slice(i));
      break;
    }
    if (lt > i) pushText(stack[stack.length - 1]!, xml.slice(i, lt));
    const c = xml.charCodeAt(lt + 1);
    if (c === 0x3f /* ? */) {
      const end = xml.indexOf('?>', lt + 2);
      if (end < 0) throw bad(part, 'unterminated processing instruction');
      i = end + 2;
      continue;
    }
    if (c === 0x21 /* ! */) {
      if (xml.startsWith('<!--', lt)) {
        const end = xml.indexOf('-->', lt + 4);
        if (end < 0) throw bad(part, 'unterminated comment');
        i = end + 3;
        continue;
      }
      if (xml.startsWith('<![CDATA[', lt)) {
        const end = xml.indexOf(']]>', lt + 9);
        if (end < 0) throw bad(part, 'unterminated CDATA section');
        const top = stack[stack.length - 1]!;
        top.children.push(xml.slice(lt + 9, end));
        i = end + 3;
        continue;
      }
      if (xml.startsWith('<!DOCTYPE', lt) || xml.startsWith('<!doctype', lt)) {
        // Find the end of the declaration, including an internal subset in brackets.
        let j = lt + 9;
        let depth = 0;
        for (; j < n; j++) {
          const ch = xml[j];
          if (ch === '[') depth++;
          else if (ch === ']') depth--;
          else if (ch === '>' && depth <= 0) break;
        }
        const decl = xml.slice(lt, j);
        if (/<!ENTITY/i.test(decl)) {
          throw new ParseError('RESOURCE_LIMIT', `The ${part} declares XML entities; entity expansion is refused as a safety limit.`);
        }
        i = j + 1;
        continue;
      }
      throw bad(part, 'unexpected markup declaration');
    }
    if (c === 0x2f /* / */) {
      const end = xml.indexOf('>', lt + 2);
      if (end < 0) throw bad(part, 'unterminated end tag');
      const name = xml.slice(lt + 2, end).trim();
      // Tolerate a stray end tag rather than lose the document; close up to the matching element.
      for (let k = stack.length - 1; k > 0; k--) {
        if (stack[k]!.name === name) {
          stack.length = k;
          break;
        }
      }
      i = end + 1;
      continue;
    }
    // Start tag: name, attributes (quoted values may hold '>'), optional self-closing slash.
    START_TAG.lastIndex = lt;
    const m = START_TAG.exec(xml);
    if (!m) throw bad(part, 'malformed start tag');
    const name = m[1]!;
    const el = new Element(name, localOf(name), m[2]!);
    stack[stack.length - 1]!.children.push(el);
    if (!m[3]) {
      stack.push(el);
      if (stack.length > MAX_XML_DEPTH) {
        throw new ParseError('RESOURCE_LIMIT', `The ${part} nests elements deeper than ${MAX_XML_DEPTH} levels.`);
      }
    }
    i = START_TAG.lastIndex;
  }
  const first = root.children.find((ch): ch is XmlElement => typeof ch !== 'string');
  if (!first) throw bad(part, 'no root element');
  return first;
}

/** Elements whose white space can be content (text runs, paragraphs, spans, links, values). */
const TEXT_PARENTS = new Set(['t', 'p', 'h', 'span', 'a', 'v', 'title', 'desc', 'text']);

function pushText(el: XmlElement, raw: string): void {
  // Indentation between elements is not content; leaving it out keeps big trees small.
  if (!TEXT_PARENTS.has(el.local) && /^[ \t\r\n]*$/.test(raw)) return;
  el.children.push(decodeEntities(raw));
}

function bad(part: string, why: string): ParseError {
  return new ParseError('MALFORMED', `The ${part} is not well-formed XML: ${why}.`);
}

// ---------------------------------------------------------------- navigation helpers

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

/** All descendants with the local name, in document order. */
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

/** Attribute by local name, whatever its prefix. */
export function attr(el: XmlElement | undefined, local: string): string | undefined {
  if (!el) return undefined;
  const direct = el.attrs[local];
  if (direct !== undefined) return direct;
  const suffix = `:${local}`;
  for (const k in el.attrs) if (k.endsWith(suffix)) return el.attrs[k];
  return undefined;
}
