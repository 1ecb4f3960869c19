/**
 * A small, strict-enough XML parser for the parts of office packages (OOXML, OpenDocument, EPUB
 * OPF/NCX), with names resolved through their namespaces: the text-document readers (docx, odt, epub,
 * OMML, XHTML) use it. `local-xml.ts` is its light sibling that matches names by local name only.
 *
 * Safety: no entity declared in a DTD is ever expanded (a DOCTYPE that declares entities is refused
 * with RESOURCE_LIMIT, the "billion laughs" and external-entity attacks), only the five predefined
 * entities and numeric character references are decoded; nesting depth and element count are
 * bounded. Damage (unclosed or mismatched tags) is tolerated: the tree holds what was readable.
 *
 * Names: with `namespaces` (URI → canonical prefix), element and attribute names are rewritten to
 * `canonical:local` whatever prefix the file used, so that readers match `w:p` in Transitional and
 * Strict OOXML alike (they use different namespace URIs) and in files written with odd prefixes.
 */
import { ParseError } from '../../errors.js';

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}

export type XmlNode = XmlElement | string;

export interface XmlOptions {
  /** Namespace URI → prefix used in the resulting names. */
  namespaces?: Readonly<Record<string, string>>;
  /** Elements whose white-space-only text is kept (elsewhere it is dropped). */
  keepWhitespaceIn?: ReadonlySet<string>;
  /** Keeps white-space-only text everywhere (XHTML: the space between two inline elements is text). */
  keepAllWhitespace?: boolean;
  maxDepth?: number;
  maxElements?: number;
  /**
   * Elements (resolved names) a reader never looks at: they and their content are skipped without
   * building nodes, which keeps large parts light (formatting properties, bookmarks, geometry).
   */
  ignore?: ReadonlySet<string>;
  /**
   * Streams the elements at one depth (the root element is depth 1): each is handed over as soon as
   * it is complete and then dropped from the tree, so a large part (a long document body) is never
   * held whole in memory.
   */
  stream?: { depth: number; onElement: (el: XmlElement, parent: XmlElement) => void };
}

export const XML_LIMITS = { maxDepth: 256, maxElements: 5_000_000 };

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decodes the predefined entities and character references; anything else is left as written. */
export function decodeEntities(s: string): string {
  if (s.indexOf('&') < 0) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/g, (m, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      if (!Number.isFinite(code) || code < 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
      return String.fromCodePoint(code);
    }
    return PREDEFINED[body] ?? m;
  });
}

function limitError(what: string): ParseError {
  return new ParseError('RESOURCE_LIMIT', `The XML part exceeds a safety limit: ${what}.`);
}

/** Namespace scope: declared prefix → canonical prefix, with caches of resolved names. */
interface Scope {
  prefixes: Map<string, string>;
  elNames: Map<string, string>;
  attrNames: Map<string, string>;
  /** Every declared prefix is already canonical (and no default namespace is renamed): names stay as written. */
  identity: boolean;
}

function newScope(prefixes: Map<string, string>): Scope {
  let identity = true;
  for (const [p, canon] of prefixes) if (p === '' ? canon !== '' : canon !== p) identity = false;
  return { prefixes, elNames: new Map(), attrNames: new Map(), identity };
}

function resolveName(scope: Scope, qname: string, isAttr: boolean): string {
  if (scope.identity) return qname;
  const cache = isAttr ? scope.attrNames : scope.elNames;
  let r = cache.get(qname);
  if (r !== undefined) return r;
  const c = qname.indexOf(':');
  if (c < 0) {
    const d = isAttr ? undefined : scope.prefixes.get('');
    r = d ? `${d}:${qname}` : qname;
  } else {
    const prefix = qname.slice(0, c);
    const canon = prefix === 'xml' || prefix === 'xmlns' ? undefined : scope.prefixes.get(prefix);
    r = canon === undefined ? qname : canon === '' ? qname.slice(c + 1) : `${canon}:${qname.slice(c + 1)}`;
  }
  cache.set(qname, r);
  return r;
}

/** Splits a start tag's attribute text into raw name/value pairs. */
function splitAttrs(raw: string, out: (name: string, value: string) => void): void {
  const n = raw.length;
  let j = 0;
  while (j < n) {
    let ch = raw.charCodeAt(j);
    while (ch === 32 || ch === 9 || ch === 10 || ch === 13) ch = raw.charCodeAt(++j);
    if (j >= n || ch === 47) break;
    const eq = raw.indexOf('=', j);
    if (eq < 0) break;
    let ae = eq;
    while (ae > j && raw.charCodeAt(ae - 1) <= 32) ae--;
    const name = raw.slice(j, ae);
    let q = eq + 1;
    while (q < n && raw.charCodeAt(q) <= 32) q++;
    const quote = raw.charCodeAt(q);
    if (quote !== 34 && quote !== 39) {
      // Unquoted value (damaged file): read to white space.
      let e = q;
      while (e < n && raw.charCodeAt(e) > 32) e++;
      out(name, decodeEntities(raw.slice(q, e)));
      j = e;
      continue;
    }
    const e = raw.indexOf(quote === 34 ? '"' : "'", q + 1);
    const value = raw.slice(q + 1, e < 0 ? n : e);
    out(name, value.indexOf('&') >= 0 ? decodeEntities(value) : value);
    j = e < 0 ? n : e + 1;
  }
}

/**
 * An element whose attributes are parsed on first use: most attributes of office XML (revision ids,
 * fonts, sizes) are never read, and not building them keeps large parts fast and light.
 */
/** Children of self-closing elements: shared, never written to. */
const NO_CHILDREN: XmlNode[] = Object.freeze([]) as unknown as XmlNode[];

class Element implements XmlElement {
  private parsed: Record<string, string> | undefined;

  constructor(
    public name: string,
    private raw: string,
    private readonly scope: Scope | null,
    public children: XmlNode[],
  ) {}

  get attrs(): Record<string, string> {
    if (this.parsed === undefined) {
      const attrs: Record<string, string> = {};
      const scope = this.scope;
      if (this.raw)
        splitAttrs(this.raw, (a, v) => {
          attrs[scope ? resolveName(scope, a, true) : a] = v;
        });
      this.parsed = attrs;
      this.raw = '';
    }
    return this.parsed;
  }

  set attrs(value: Record<string, string>) {
    this.parsed = value;
  }
}

/**
 * The end of a `<!DOCTYPE ...>` (or other `<!` declaration) starting at `lt`: the index of its `>`,
 * an internal subset in brackets included. Entity declarations are refused outright.
 */
function doctypeEnd(xml: string, lt: number): number {
  const n = xml.length;
  let e = lt + 2;
  let depth = 0;
  for (; e < n; e++) {
    const ch = xml.charCodeAt(e);
    if (ch === 91) depth++;
    else if (ch === 93) depth--;
    else if (ch === 62 && depth <= 0) break;
  }
  const decl = xml.slice(lt, e);
  if (/<!ENTITY/i.test(decl))
    throw limitError('the document type declaration declares entities, which are never expanded');
  return e;
}

/** Positions of the next double and single quote at or after the scan point (-1: not looked up yet). */
interface QuoteCache {
  dq: number;
  sq: number;
}

/**
 * The index of the `>` that ends a start tag whose attribute text begins at `from`, or the text's
 * length. The tag ends at the first '>' outside quotes. The next quote positions are cached (the scan
 * only moves forward), so finding the end costs a few indexOf calls instead of a loop per character.
 */
function startTagEnd(xml: string, from: number, quotes: QuoteCache): number {
  const n = xml.length;
  let j = from;
  let gt = xml.indexOf('>', j);
  if (gt < 0) gt = n;
  for (;;) {
    if (quotes.dq < j) {
      quotes.dq = xml.indexOf('"', j);
      if (quotes.dq < 0) quotes.dq = n;
    }
    if (quotes.sq < j) {
      quotes.sq = xml.indexOf("'", j);
      if (quotes.sq < 0) quotes.sq = n;
    }
    const q = quotes.dq < quotes.sq ? quotes.dq : quotes.sq;
    if (q >= gt) break;
    const close = xml.indexOf(q === quotes.dq ? '"' : "'", q + 1);
    j = close < 0 ? n : close + 1;
    if (gt < j) {
      gt = xml.indexOf('>', j);
      if (gt < 0) gt = n;
    }
  }
  return gt;
}

/** Parses XML text into a tree and returns the root element (a synthetic `#document` holding it). */
export function parseXml(xml: string, options: XmlOptions = {}): XmlElement {
  const maxDepth = options.maxDepth ?? XML_LIMITS.maxDepth;
  const maxElements = options.maxElements ?? XML_LIMITS.maxElements;
  const nsMap = options.namespaces;
  const keepWs = options.keepWhitespaceIn;
  const keepAll = options.keepAllWhitespace === true;
  const ignore = options.ignore;
  const stream = options.stream;
  // Depth inside an ignored element (0: building nodes).
  let skipping = 0;
  const root: XmlElement = new Element('#document', '', null, []);
  const stack: XmlElement[] = [root];
  // Per open element: whether it opened a namespace scope.
  const opened: boolean[] = [false];
  let scope: Scope = newScope(new Map());
  const scopeStack: Scope[] = [scope];
  let elements = 0;
  const quotes: QuoteCache = { dq: -1, sq: -1 };
  let i = 0;
  const n = xml.length;

  while (i < n) {
    const lt = xml.indexOf('<', i);
    const textEnd = lt < 0 ? n : lt;
    if (textEnd > i && skipping === 0) {
      const raw = xml.slice(i, textEnd);
      const parent = stack[stack.length - 1]!;
      // XML white space is space, tab, CR and LF only: text of no-break spaces is content.
      if (keepAll || keepWs?.has(parent.name) || /[^ \t\r\n]/.test(raw)) parent.children.push(decodeEntities(raw));
    }
    if (lt < 0) break;
    const c1 = xml.charCodeAt(lt + 1);
    if (c1 === 33 /* ! */) {
      if (xml.startsWith('<!--', lt)) {
        const e = xml.indexOf('-->', lt + 4);
        i = e < 0 ? n : e + 3;
        continue;
      }
      if (xml.startsWith('<![CDATA[', lt)) {
        const e = xml.indexOf(']]>', lt + 9);
        const body = xml.slice(lt + 9, e < 0 ? n : e);
        if (body && skipping === 0) stack[stack.length - 1]!.children.push(body);
        i = e < 0 ? n : e + 3;
        continue;
      }
      i = doctypeEnd(xml, lt) + 1;
      continue;
    }
    if (c1 === 63 /* ? */) {
      const e = xml.indexOf('?>', lt + 2);
      i = e < 0 ? n : e + 2;
      continue;
    }
    if (c1 === 47 /* / */) {
      const e = xml.indexOf('>', lt + 2);
      if (skipping > 0) {
        skipping--;
        i = e < 0 ? n : e + 1;
        continue;
      }
      const qname = xml.slice(lt + 2, e < 0 ? n : e).trim();
      const name = nsMap ? resolveName(scope, qname, false) : qname;
      // Pop to the matching element; a stray closing tag is ignored.
      for (let k = stack.length - 1; k > 0; k--) {
        if (stack[k]!.name === name) {
          while (stack.length > k) {
            const done = stack.pop()!;
            if (opened.pop()) {
              scopeStack.pop();
              scope = scopeStack[scopeStack.length - 1]!;
            }
            if (stream && stack.length === stream.depth) {
              const parent = stack[stack.length - 1]!;
              if (parent.children[parent.children.length - 1] === done) parent.children.pop();
              stream.onElement(done, parent);
            }
          }
          break;
        }
      }
      i = e < 0 ? n : e + 1;
      continue;
    }
    // Start tag: its name, then the attribute text up to the closing '>' (quotes may hold '>').
    let j = lt + 1;
    while (j < n) {
      const ch = xml.charCodeAt(j);
      if (ch === 32 || ch === 62 || ch === 47 || ch === 9 || ch === 10 || ch === 13) break;
      j++;
    }
    const qname = xml.slice(lt + 1, j);
    const attrStart = j;
    j = startTagEnd(xml, j, quotes);
    const selfClose = j > attrStart && xml.charCodeAt(j - 1) === 47;
    const rawAttrs = xml.slice(attrStart, selfClose ? j - 1 : j);
    i = j + 1;
    if (++elements > maxElements) throw limitError(`more than ${maxElements} elements`);
    if (skipping > 0) {
      if (!selfClose) {
        if (++skipping > maxDepth) throw limitError(`elements nested more than ${maxDepth} deep`);
      }
      continue;
    }
    if (ignore && ignore.has(nsMap ? resolveName(scope, qname, false) : qname) && rawAttrs.indexOf('xmlns') < 0) {
      if (!selfClose) skipping = 1;
      continue;
    }
    let declares = false;
    if (nsMap && rawAttrs.indexOf('xmlns') >= 0) {
      const prefixes = new Map(scope.prefixes);
      splitAttrs(rawAttrs, (a, v) => {
        if (a === 'xmlns') prefixes.set('', nsMap[v] ?? '');
        else if (a.startsWith('xmlns:')) prefixes.set(a.slice(6), nsMap[v] ?? a.slice(6));
        else return;
        declares = true;
      });
      if (declares) {
        scope = newScope(prefixes);
        scopeStack.push(scope);
      }
    }
    const el = new Element(
      nsMap ? resolveName(scope, qname, false) : qname,
      rawAttrs,
      nsMap ? scope : null,
      selfClose ? NO_CHILDREN : [],
    );
    if (selfClose) {
      if (declares) {
        scopeStack.pop();
        scope = scopeStack[scopeStack.length - 1]!;
      }
      if (stream && stack.length === stream.depth) stream.onElement(el, stack[stack.length - 1]!);
      else stack[stack.length - 1]!.children.push(el);
      continue;
    }
    stack[stack.length - 1]!.children.push(el);
    if (stack.length > maxDepth) throw limitError(`elements nested more than ${maxDepth} deep`);
    stack.push(el);
    opened.push(declares);
  }
  return root;
}

// ---------------------------------------------------------------- navigation helpers

export function isElement(node: XmlNode | undefined): node is XmlElement {
  return typeof node === 'object' && node !== null;
}

/** First child element with the name. */
export function child(el: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const c of el.children) if (typeof c !== 'string' && c.name === name) return c;
  return undefined;
}

/** Child elements, optionally only those with the name. */
export function children(el: XmlElement | undefined, name?: string): XmlElement[] {
  if (!el) return [];
  const out: XmlElement[] = [];
  for (const c of el.children) if (typeof c !== 'string' && (name === undefined || c.name === name)) out.push(c);
  return out;
}

/** Follows a path of child names. */
export function path(el: XmlElement | undefined, ...names: string[]): XmlElement | undefined {
  let cur = el;
  for (const n of names) cur = child(cur, n);
  return cur;
}

/** Depth-first search for descendants with the name (not below a match). */
export function descendants(el: XmlElement | undefined, name: string, out: XmlElement[] = []): XmlElement[] {
  if (!el) return out;
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.name === name) out.push(c);
    else descendants(c, name, out);
  }
  return out;
}

/** First descendant with the name. */
export function find(el: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.name === name) return c;
    const f = find(c, name);
    if (f) return f;
  }
  return undefined;
}

/** All text below the element, in order. */
export function textContent(el: XmlNode | undefined): string {
  if (el === undefined) return '';
  if (typeof el === 'string') return el;
  let s = '';
  for (const c of el.children) s += typeof c === 'string' ? c : textContent(c);
  return s;
}

/** Decodes UTF-8 or UTF-16 (by byte-order mark or declaration) XML bytes to a string. */
export function decodeXml(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return new TextDecoder('utf-8').decode(bytes.subarray(3));
  return new TextDecoder('utf-8').decode(bytes);
}

/**
 * Namespaces of OOXML packages (Transitional and Strict URIs map to the same prefixes) and
 * OpenDocument, for `parseXml(text, { namespaces: OFFICE_NAMESPACES })`.
 */
export const OFFICE_NAMESPACES: Readonly<Record<string, string>> = {
  'http://schemas.openxmlformats.org/wordprocessingml/2006/main': 'w',
  'http://purl.oclc.org/ooxml/wordprocessingml/main': 'w',
  'http://schemas.openxmlformats.org/officeDocument/2006/relationships': 'r',
  'http://purl.oclc.org/ooxml/officeDocument/relationships': 'r',
  'http://schemas.openxmlformats.org/officeDocument/2006/math': 'm',
  'http://purl.oclc.org/ooxml/officeDocument/math': 'm',
  'http://schemas.openxmlformats.org/drawingml/2006/main': 'a',
  'http://purl.oclc.org/ooxml/drawingml/main': 'a',
  'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing': 'wp',
  'http://purl.oclc.org/ooxml/drawingml/wordprocessingDrawing': 'wp',
  'http://schemas.openxmlformats.org/drawingml/2006/picture': 'pic',
  'http://purl.oclc.org/ooxml/drawingml/picture': 'pic',
  'http://schemas.openxmlformats.org/drawingml/2006/chart': 'c',
  'http://purl.oclc.org/ooxml/drawingml/chart': 'c',
  'http://schemas.openxmlformats.org/spreadsheetml/2006/main': 'x',
  'http://purl.oclc.org/ooxml/spreadsheetml/main': 'x',
  'http://schemas.openxmlformats.org/presentationml/2006/main': 'p',
  'http://purl.oclc.org/ooxml/presentationml/main': 'p',
  'http://schemas.openxmlformats.org/package/2006/relationships': 'rel',
  'http://schemas.openxmlformats.org/package/2006/content-types': 'ct',
  'http://schemas.openxmlformats.org/markup-compatibility/2006': 'mc',
  'http://schemas.microsoft.com/office/word/2010/wordprocessingShape': 'wps',
  'http://schemas.microsoft.com/office/word/2010/wordprocessingGroup': 'wpg',
  'http://schemas.microsoft.com/office/word/2010/wordprocessingCanvas': 'wpc',
  'urn:schemas-microsoft-com:vml': 'v',
  'urn:schemas-microsoft-com:office:office': 'o',
  'http://schemas.openxmlformats.org/package/2006/metadata/core-properties': 'cp',
  'http://purl.org/dc/elements/1.1/': 'dc',
  'http://purl.org/dc/terms/': 'dcterms',
  'urn:oasis:names:tc:opendocument:xmlns:office:1.0': 'office',
  'urn:oasis:names:tc:opendocument:xmlns:text:1.0': 'text',
  'urn:oasis:names:tc:opendocument:xmlns:table:1.0': 'table',
  'urn:oasis:names:tc:opendocument:xmlns:style:1.0': 'style',
  'urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0': 'fo',
  'urn:oasis:names:tc:opendocument:xmlns:drawing:1.0': 'draw',
  'urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0': 'svg',
  'urn:oasis:names:tc:opendocument:xmlns:presentation:1.0': 'presentation',
  'urn:oasis:names:tc:opendocument:xmlns:meta:1.0': 'meta',
  'urn:oasis:names:tc:opendocument:xmlns:manifest:1.0': 'manifest',
  'http://www.w3.org/1999/xlink': 'xlink',
  'http://www.w3.org/1998/Math/MathML': 'math',
  'http://www.idpf.org/2007/opf': 'opf',
  'http://www.daisy.org/z3986/2005/ncx/': 'ncx',
  'urn:oasis:names:tc:opendocument:xmlns:container': 'container',
  'http://www.w3.org/1999/xhtml': 'xhtml',
};
