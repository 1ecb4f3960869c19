/**
 * The one XML reader of office packages (OOXML, OpenDocument, EPUB OPF/NCX/XHTML): a small tokenizer and
 * tree builder. Its callers differ in how much damage they forgive and what they keep, and each says so
 * through the named options of `XmlOptions` (why each exists is written beside it), so that one reader
 * gives every caller exactly the tree it was built on. Navigation: by name here (`child`, `children`,
 * ...), by local name whatever the prefix in `local-names.ts`.
 *
 * Safety: no entity declared in a DTD is ever expanded (a DOCTYPE that declares entities is refused
 * with RESOURCE_LIMIT, the "billion laughs" and external-entity attacks), only the five predefined
 * entities and numeric character references are decoded; nesting depth and element count are
 * bounded.
 *
 * Names: with `namespaces` (URI → canonical prefix), element and attribute names are rewritten to
 * `canonical:local` whatever prefix the file used, so that readers match `w:p` in Transitional and
 * Strict OOXML alike (they use different namespace URIs) and in files written with odd prefixes.
 * Without it names stay as written.
 */
import { ParseError } from '../../errors.js';

export interface XmlElement {
  /** Name as written, or `canonical:local` when the reader resolved namespaces. */
  name: string;
  /** The name without its prefix (`t` of `a:t`). */
  readonly local: string;
  /** Attributes by name (resolved like element names); parsed on first use. */
  attrs: Record<string, string>;
  children: XmlNode[];
}

export type XmlNode = XmlElement | string;

/**
 * What a character reference that names no character reads as.
 * - `replace`: U+FFFD for a code outside Unicode or a surrogate (`&#0;` stays U+0000). The text-document
 *   readers (docx, odt, epub) show that a character was there.
 * - `drop`: nothing for 0 or a code outside Unicode (a surrogate code stays a lone surrogate). The
 *   presentation and spreadsheet readers and relationship parts were built on it.
 */
export type InvalidCharRefs = 'replace' | 'drop';

export interface XmlOptions {
  /** Namespace URI → prefix used in the resulting names. */
  namespaces?: Readonly<Record<string, string>>;
  /**
   * Elements (by name) whose white-space-only text is kept; elsewhere it is dropped, since indentation
   * between elements is not content and leaving it out keeps big trees small. A `w:t` of one space is a
   * word break.
   */
  keepWhitespaceIn?: ReadonlySet<string>;
  /**
   * The same by local name whatever the prefix: the readers that match by local name (pptx, odp, ods)
   * keep the white space of text runs, paragraphs, spans, links and values this way.
   */
  keepWhitespaceInLocal?: ReadonlySet<string>;
  /** Keeps white-space-only text everywhere (XHTML: the space between two inline elements is text). */
  keepAllWhitespace?: boolean;
  /**
   * Elements nested deeper than this are refused with RESOURCE_LIMIT (a hostile part nested millions
   * deep would otherwise overflow the readers' recursion). Default XML_LIMITS.maxDepth.
   */
  maxDepth?: number;
  /** More elements than this are refused with RESOURCE_LIMIT. Default XML_LIMITS.maxElements. */
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
  /**
   * Markup that is not well-formed: a start tag that is not `<name attr="value" ...>`, an end tag,
   * comment, CDATA section or processing instruction left open, an unknown `<!` declaration.
   * - `tolerate`: read what can be read (a start tag runs to its `>`, an unquoted value to white space,
   *   an open construct to the end of the text). Word and OpenDocument text files from odd writers are
   *   still read: the tree holds what was readable. Default.
   * - `fail`: refuse the part with MALFORMED. The presentation and spreadsheet readers then leave the
   *   part out or fall back, rather than read a damaged part half.
   * Unclosed and mismatched elements are tolerated in both (a stray end tag is ignored).
   */
  onBadTag?: 'tolerate' | 'fail';
  /** See `InvalidCharRefs`. Default `replace`. */
  invalidCharRefs?: InvalidCharRefs;
  /** What the part is called in error messages (`part ppt/slides/slide1.xml`). Default `XML part`. */
  part?: string;
}

const XML_LIMITS = { maxDepth: 256, maxElements: 5_000_000 };

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** A numeric character reference's text under the caller's policy. */
function charRef(code: number, invalid: InvalidCharRefs): string {
  if (invalid === 'drop')
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  if (!Number.isFinite(code) || code < 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(code);
}

/** Decodes the predefined entities and character references; anything else is left as written. */
function decodeEntities(s: string, invalid: InvalidCharRefs): string {
  if (s.indexOf('&') < 0) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/g, (m, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return charRef(code, invalid);
    }
    return PREDEFINED[body] ?? m;
  });
}

function limitError(part: string, what: string): ParseError {
  return new ParseError('RESOURCE_LIMIT', `The ${part} exceeds a safety limit: ${what}.`);
}

function malformed(part: string, why: string): ParseError {
  return new ParseError('MALFORMED', `The ${part} is not well-formed XML: ${why}.`);
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

/** XML white space: space, tab, CR, LF. */
function isXmlSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** A control character or space. */
function isControlOrSpace(c: number): boolean {
  return c <= 32;
}

/** JavaScript's `\s` (what the well-formed start-tag pattern takes for white space). */
function isJsSpace(c: number): boolean {
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

/**
 * White space inside a start tag: `lead` before an attribute name, `pad` around its `=`. A tolerated
 * tag was cut at XML white space and pads with any control character; a well-formed tag (`fail`) was
 * checked with JavaScript's `\s`, and its attributes are split the same way.
 */
interface TagSpace {
  lead: (c: number) => boolean;
  pad: (c: number) => boolean;
}

const TOLERANT_TAG_SPACE: TagSpace = { lead: isXmlSpace, pad: isControlOrSpace };
const WELL_FORMED_TAG_SPACE: TagSpace = { lead: isJsSpace, pad: isJsSpace };

/**
 * Splits a start tag's attribute text into spans: name start, name end, value start, value end of
 * each attribute (quotes excluded; an unquoted value of a damaged tag runs to white space).
 */
function splitAttrs(raw: string, space: TagSpace): number[] {
  const spans: number[] = [];
  const n = raw.length;
  let j = 0;
  while (j < n) {
    let ch = raw.charCodeAt(j);
    while (space.lead(ch)) ch = raw.charCodeAt(++j);
    if (j >= n || ch === 47) break;
    const eq = raw.indexOf('=', j);
    if (eq < 0) break;
    let ae = eq;
    while (ae > j && space.pad(raw.charCodeAt(ae - 1))) ae--;
    let q = eq + 1;
    while (q < n && space.pad(raw.charCodeAt(q))) q++;
    const quote = raw.charCodeAt(q);
    if (quote !== 34 && quote !== 39) {
      // Unquoted value (damaged file): read to white space.
      let e = q;
      while (e < n && raw.charCodeAt(e) > 32) e++;
      spans.push(j, ae, q, e);
      j = e;
      continue;
    }
    const e = raw.indexOf(quote === 34 ? '"' : "'", q + 1);
    spans.push(j, ae, q + 1, e < 0 ? n : e);
    j = e < 0 ? n : e + 1;
  }
  return spans;
}

/** What the elements of one namespace scope share: how their attributes are read. */
interface ElementContext {
  scope: Scope | null;
  space: TagSpace;
  invalidCharRefs: InvalidCharRefs;
}

/** Children of self-closing elements: shared, never written to. */
const NO_CHILDREN: XmlNode[] = Object.freeze([]) as unknown as XmlNode[];

/**
 * An element whose attributes are parsed on first use: most attributes of office XML (revision ids,
 * fonts, sizes) are never read, and not building them keeps large parts fast and light.
 */
class Element implements XmlElement {
  private parsed: Record<string, string> | undefined;
  private spans: number[] | undefined;
  private localName: string | undefined;

  constructor(
    public name: string,
    private readonly raw: string,
    private readonly context: ElementContext,
    public children: XmlNode[],
  ) {}

  get local(): string {
    if (this.localName === undefined) {
      const i = this.name.indexOf(':');
      this.localName = i < 0 ? this.name : this.name.slice(i + 1);
    }
    return this.localName;
  }

  private split(): number[] {
    return (this.spans = this.raw ? splitAttrs(this.raw, this.context.space) : []);
  }

  get attrs(): Record<string, string> {
    if (this.parsed === undefined) {
      const attrs: Record<string, string> = {};
      const { scope, invalidCharRefs } = this.context;
      const spans = this.spans ?? this.split();
      const raw = this.raw;
      for (let j = 0; j < spans.length; j += 4) {
        const name = raw.slice(spans[j], spans[j + 1]);
        attrs[scope ? resolveName(scope, name, true) : name] = decodeEntities(
          raw.slice(spans[j + 2], spans[j + 3]),
          invalidCharRefs,
        );
      }
      this.parsed = attrs;
    }
    return this.parsed;
  }

  set attrs(value: Record<string, string>) {
    this.parsed = value;
  }

  /**
   * The attribute named `local` as written, without building the attribute record: the unprefixed one
   * (the last, as in the record), else the first whose name ends in `:local`. Only that value is decoded.
   */
  byLocalName(local: string): string | undefined {
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
    return j < 0 ? undefined : decodeEntities(raw.slice(spans[j + 2], spans[j + 3]), this.context.invalidCharRefs);
  }
}

/**
 * An attribute by local name, whatever its prefix (`attrByLocalName(el, 'href')` finds `xlink:href`):
 * the unprefixed one, else the first prefixed one.
 */
export function attrByLocalName(el: XmlElement | undefined, local: string): string | undefined {
  if (!el) return undefined;
  if (el instanceof Element && !local.includes(':') && !(local in Object.prototype)) return el.byLocalName(local);
  const direct = el.attrs[local];
  if (direct !== undefined) return direct;
  const suffix = `:${local}`;
  for (const k in el.attrs) if (k.endsWith(suffix)) return el.attrs[k];
  return undefined;
}

/**
 * The end of a `<!DOCTYPE ...>` (or other `<!` declaration) starting at `lt`: the index of its `>`,
 * an internal subset in brackets included. Entity declarations are refused outright.
 */
function doctypeEnd(xml: string, lt: number, part: string): number {
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
    throw limitError(part, 'the document type declaration declares entities, which are never expanded');
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

/** A start tag as read: its name as written, its attribute text, whether it closes itself, where it ends. */
interface StartTag {
  qname: string;
  rawAttrs: string;
  selfClose: boolean;
  next: number;
}

/** A well-formed start tag: name, `name="value"` attributes, optional self-closing slash. */
const WELL_FORMED_START_TAG = /<([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;

/** Reads the start tag at `lt` as written, or returns null when `fail` is asked for and it is not well-formed. */
function readStartTag(xml: string, lt: number, strict: boolean, quotes: QuoteCache): StartTag | null {
  if (strict) {
    WELL_FORMED_START_TAG.lastIndex = lt;
    const m = WELL_FORMED_START_TAG.exec(xml);
    if (!m) return null;
    return { qname: m[1]!, rawAttrs: m[2]!, selfClose: m[3] !== '', next: WELL_FORMED_START_TAG.lastIndex };
  }
  // The name, then the attribute text up to the closing '>' (quotes may hold '>').
  const n = xml.length;
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
  return { qname, rawAttrs: xml.slice(attrStart, selfClose ? j - 1 : j), selfClose, next: j + 1 };
}

/** The tree being built: open elements, namespace scopes, the depth inside an ignored element. */
class TreeBuilder {
  readonly root: XmlElement;
  private readonly stack: XmlElement[];
  /** Per open element: whether it opened a namespace scope. */
  private readonly opened: boolean[] = [false];
  private context: ElementContext;
  private readonly contexts: ElementContext[];
  /** The context of elements whose names stay as written (no namespaces asked for). */
  private readonly plain: ElementContext;
  /** Depth inside an ignored element (0: building nodes). */
  skipping = 0;
  private elements = 0;
  private readonly maxDepth: number;
  private readonly maxElements: number;
  private readonly keepWs: ReadonlySet<string> | undefined;
  private readonly keepWsLocal: ReadonlySet<string> | undefined;
  private readonly keepAll: boolean;
  private readonly invalidCharRefs: InvalidCharRefs;

  constructor(
    private readonly options: XmlOptions,
    private readonly part: string,
    space: TagSpace,
  ) {
    this.maxDepth = options.maxDepth ?? XML_LIMITS.maxDepth;
    this.maxElements = options.maxElements ?? XML_LIMITS.maxElements;
    this.keepWs = options.keepWhitespaceIn;
    this.keepWsLocal = options.keepWhitespaceInLocal;
    this.keepAll = options.keepAllWhitespace === true;
    this.invalidCharRefs = options.invalidCharRefs ?? 'replace';
    this.context = { scope: newScope(new Map()), space, invalidCharRefs: this.invalidCharRefs };
    this.contexts = [this.context];
    this.plain = { scope: null, space, invalidCharRefs: this.invalidCharRefs };
    this.root = new Element('#document', '', this.plain, []);
    this.stack = [this.root];
  }

  private get top(): XmlElement {
    return this.stack[this.stack.length - 1]!;
  }

  private resolve(qname: string): string {
    return this.options.namespaces ? resolveName(this.context.scope!, qname, false) : qname;
  }

  text(raw: string): void {
    const parent = this.top;
    // XML white space is space, tab, CR and LF only: text of no-break spaces is content.
    if (this.keepAll || this.keepWs?.has(parent.name) || this.keepWsLocal?.has(parent.local) || /[^ \t\r\n]/.test(raw))
      parent.children.push(decodeEntities(raw, this.invalidCharRefs));
  }

  cdata(body: string): void {
    // An empty section adds nothing. (The readers that match by local name were built on a reader that
    // kept it as an empty text node; none of them shows one: they join text, or leave empty text out.)
    if (body) this.top.children.push(body);
  }

  /**
   * Where reading goes on when the end tag at `lt` is written exactly as the open element's name
   * (`</a:t>`: the usual case, found without a scan), else -1. Only where names stay as written.
   */
  closesTop(xml: string, lt: number): number {
    const top = this.top;
    if (this.options.namespaces || this.stack.length <= 1) return -1;
    const name = top.name;
    return xml.startsWith(name, lt + 2) && xml.charCodeAt(lt + 2 + name.length) === 62 ? lt + 3 + name.length : -1;
  }

  /** Closes the innermost open element named `qname` and everything open inside it; a stray end tag is ignored. */
  endTag(qname: string): void {
    const name = this.resolve(qname);
    const stack = this.stack;
    for (let k = stack.length - 1; k > 0; k--) {
      if (stack[k]!.name === name) {
        this.closeTo(k);
        return;
      }
    }
  }

  /** Closes the open elements from depth `k` up (streaming each one at the streamed depth). */
  closeTo(k: number): void {
    const stack = this.stack;
    const stream = this.options.stream;
    while (stack.length > k) {
      const done = stack.pop()!;
      if (this.opened.pop()) {
        this.contexts.pop();
        this.context = this.contexts[this.contexts.length - 1]!;
      }
      if (stream && stack.length === stream.depth) {
        const parent = this.top;
        if (parent.children[parent.children.length - 1] === done) parent.children.pop();
        stream.onElement(done, parent);
      }
    }
  }

  get depth(): number {
    return this.stack.length;
  }

  startTag(tag: StartTag): void {
    const { qname, rawAttrs, selfClose } = tag;
    const { maxDepth, maxElements, part } = this;
    const nsMap = this.options.namespaces;
    if (++this.elements > maxElements) throw limitError(part, `more than ${maxElements} elements`);
    if (this.skipping > 0) {
      if (!selfClose && ++this.skipping > maxDepth)
        throw limitError(part, `elements nested more than ${maxDepth} deep`);
      return;
    }
    const ignore = this.options.ignore;
    if (ignore && ignore.has(this.resolve(qname)) && rawAttrs.indexOf('xmlns') < 0) {
      if (!selfClose) this.skipping = 1;
      return;
    }
    let declares = false;
    if (nsMap && rawAttrs.indexOf('xmlns') >= 0) {
      const prefixes = new Map(this.context.scope!.prefixes);
      const spans = splitAttrs(rawAttrs, this.context.space);
      for (let j = 0; j < spans.length; j += 4) {
        const a = rawAttrs.slice(spans[j], spans[j + 1]);
        const v = decodeEntities(rawAttrs.slice(spans[j + 2], spans[j + 3]), this.invalidCharRefs);
        if (a === 'xmlns') prefixes.set('', nsMap[v] ?? '');
        else if (a.startsWith('xmlns:')) prefixes.set(a.slice(6), nsMap[v] ?? a.slice(6));
        else continue;
        declares = true;
      }
      if (declares) {
        this.context = { ...this.context, scope: newScope(prefixes) };
        this.contexts.push(this.context);
      }
    }
    const context = nsMap ? this.context : this.plain;
    const el = new Element(this.resolve(qname), rawAttrs, context, selfClose ? NO_CHILDREN : []);
    const stream = this.options.stream;
    if (selfClose) {
      if (declares) {
        this.contexts.pop();
        this.context = this.contexts[this.contexts.length - 1]!;
      }
      if (stream && this.stack.length === stream.depth) stream.onElement(el, this.top);
      else this.top.children.push(el);
      return;
    }
    this.top.children.push(el);
    if (this.stack.length > maxDepth) throw limitError(part, `elements nested more than ${maxDepth} deep`);
    this.stack.push(el);
    this.opened.push(declares);
  }
}

/** Parses XML text into a tree and returns the root element (a synthetic `#document` holding it). */
export function parseXml(xml: string, options: XmlOptions = {}): XmlElement {
  const part = options.part ?? 'XML part';
  const strict = options.onBadTag === 'fail';
  const tree = new TreeBuilder(options, part, strict ? WELL_FORMED_TAG_SPACE : TOLERANT_TAG_SPACE);
  const quotes: QuoteCache = { dq: -1, sq: -1 };
  // An unterminated construct: the end of the text when tolerated, else MALFORMED.
  const endOf = (e: number, what: string): number => {
    if (e >= 0) return e;
    if (strict) throw malformed(part, `unterminated ${what}`);
    return n;
  };
  let i = 0;
  const n = xml.length;
  while (i < n) {
    const lt = xml.indexOf('<', i);
    const textEnd = lt < 0 ? n : lt;
    if (textEnd > i && tree.skipping === 0) tree.text(xml.slice(i, textEnd));
    if (lt < 0) break;
    const c1 = xml.charCodeAt(lt + 1);
    if (c1 === 33 /* ! */) {
      if (xml.startsWith('<!--', lt)) {
        i = endOf(xml.indexOf('-->', lt + 4), 'comment') + 3;
      } else if (xml.startsWith('<![CDATA[', lt)) {
        const e = endOf(xml.indexOf(']]>', lt + 9), 'CDATA section');
        if (tree.skipping === 0) tree.cdata(xml.slice(lt + 9, e));
        i = e + 3;
      } else if (!strict || xml.startsWith('<!DOCTYPE', lt) || xml.startsWith('<!doctype', lt)) {
        i = doctypeEnd(xml, lt, part) + 1;
      } else throw malformed(part, 'unexpected markup declaration');
      continue;
    }
    if (c1 === 63 /* ? */) {
      i = endOf(xml.indexOf('?>', lt + 2), 'processing instruction') + 2;
      continue;
    }
    if (c1 === 47 /* / */) {
      if (tree.skipping > 0) {
        tree.skipping--;
        const e = xml.indexOf('>', lt + 2);
        i = e < 0 ? n : e + 1;
        continue;
      }
      // The usual case first: the end tag of the open element, exactly as it was opened.
      const next = tree.closesTop(xml, lt);
      if (next >= 0) {
        tree.closeTo(tree.depth - 1);
        i = next;
        continue;
      }
      const e = endOf(xml.indexOf('>', lt + 2), 'end tag');
      tree.endTag(xml.slice(lt + 2, e).trim());
      i = e + 1;
      continue;
    }
    const tag = readStartTag(xml, lt, strict, quotes);
    if (!tag) throw malformed(part, 'malformed start tag');
    i = tag.next;
    tree.startTag(tag);
  }
  return tree.root;
}

/** `parseXml`'s root element; MALFORMED when the text holds none. */
export function parseXmlRoot(xml: string, options: XmlOptions = {}): XmlElement {
  const doc = parseXml(xml, options);
  const first = doc.children.find((ch): ch is XmlElement => typeof ch !== 'string');
  if (!first) throw malformed(options.part ?? 'XML part', 'no root element');
  return first;
}

// ---------------------------------------------------------------- navigation helpers

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
