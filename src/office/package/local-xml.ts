/**
 * A small, strict-enough XML reader for Office and OpenDocument parts. It builds a light element
 * tree and deliberately knows nothing of DTDs: a part that declares entities is refused with
 * RESOURCE_LIMIT (entity expansion is the classic "billion laughs" bomb, and no Office or ODF
 * writer declares entities), and nesting deeper than a fixed bound is refused too.
 *
 * Names are matched by local name whatever the prefix (`attr(el, 'href')`), which is all the
 * presentation and spreadsheet readers and the relationship parts need; `xml.ts` is the reader that
 * resolves namespaces, for the text documents.
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
  /** Name start, name end, value start, value end of each attribute in `raw` (quotes excluded). */
  private spans: number[] | undefined;

  constructor(
    readonly name: string,
    readonly local: string,
    private readonly raw: string,
  ) {}

  private split(): number[] {
    const spans: number[] = [];
    const raw = this.raw;
    // `raw` passed the start-tag scan: a run of `name = "value"` pairs separated by white space,
    // and names hold no `=`: each pair is found with a few indexOf calls.
    const n = raw.length;
    let i = 0;
    while (i < n) {
      const eq = raw.indexOf('=', i);
      if (eq < 0) break;
      while (i < eq && isSpace(raw.charCodeAt(i))) i++;
      let nameStop = eq;
      while (nameStop > i && isSpace(raw.charCodeAt(nameStop - 1))) nameStop--;
      let v = eq + 1;
      while (v < n && isSpace(raw.charCodeAt(v))) v++;
      const close = raw.indexOf(raw.charCodeAt(v) === 0x27 ? "'" : '"', v + 1);
      if (close < 0) break;
      spans.push(i, nameStop, v + 1, close);
      i = close + 1;
    }
    return (this.spans = spans);
  }

  get attrs(): Record<string, string> {
    if (this.parsed) return this.parsed;
    const attrs: Record<string, string> = {};
    const spans = this.spans ?? this.split();
    for (let j = 0; j < spans.length; j += 4)
      attrs[this.raw.slice(spans[j], spans[j + 1])] = decodeEntities(this.raw.slice(spans[j + 2], spans[j + 3]));
    return (this.parsed = attrs);
  }

  /**
   * `attr` without building the attribute record: the unprefixed attribute named `local` (the last
   * one, as in the record), else the first whose name ends in `:local`. Only that value is decoded.
   */
  find(local: string): string | undefined {
    const spans = this.spans ?? this.split();
    const raw = this.raw;
    const l = local.length;
    const last = local.charCodeAt(l - 1);
    let direct = -1;
    let prefixed = -1;
    for (let j = 0; j < spans.length; j += 4) {
      const e = spans[j + 1]!;
      // Both kinds of match end with the same character: most names are passed over on it.
      if (raw.charCodeAt(e - 1) !== last) continue;
      const s = spans[j]!;
      const len = e - s;
      if (len === l) {
        if (raw.startsWith(local, s)) direct = j;
      } else if (prefixed < 0 && len > l && raw.charCodeAt(e - l - 1) === 0x3a && raw.startsWith(local, e - l))
        prefixed = j;
    }
    const j = direct >= 0 ? direct : prefixed;
    return j < 0 ? undefined : decodeEntities(raw.slice(spans[j + 2], spans[j + 3]));
  }
}

/** JavaScript's `\s`. */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
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

const START_TAG = /<([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;

function localOf(name: string): string {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
}

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
          throw new ParseError(
            'RESOURCE_LIMIT',
            `The ${part} declares XML entities; entity expansion is refused as a safety limit.`,
          );
        }
        i = j + 1;
        continue;
      }
      throw bad(part, 'unexpected markup declaration');
    }
    if (c === 0x2f /* / */) {
      // The usual case: the end tag of the open element, exactly as it was opened.
      const top = stack[stack.length - 1]!;
      if (stack.length > 1 && xml.startsWith(top.name, lt + 2) && xml.charCodeAt(lt + 2 + top.name.length) === 0x3e) {
        stack.length--;
        i = lt + 3 + top.name.length;
        continue;
      }
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
  if (el instanceof Element && !local.includes(':') && !(local in Object.prototype)) return el.find(local);
  const direct = el.attrs[local];
  if (direct !== undefined) return direct;
  const suffix = `:${local}`;
  for (const k in el.attrs) if (k.endsWith(suffix)) return el.attrs[k];
  return undefined;
}
