/**
 * Cleaning an HTML document for the `html` format and for markdown: removing non-content
 * elements, resolving URLs, choosing the main content, applying includeTags/excludeTags.
 */
import type { Cheerio, CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import { ParseError } from '../errors.js';

/** Elements that never carry document content (spec: script, style, noscript, meta and head). */
const NON_CONTENT = new Set([
  'script',
  'style',
  'noscript',
  'meta',
  'head',
  'template',
  'link',
  'base',
  'frameset',
  'frame',
]);

// Page chrome removed when `onlyMainContent` is on. Matched by one walk over the elements rather than
// CSS selectors, which are slow on large pages. Two zones are told apart:
//
// - the content zone (inside the chosen main element, or inside a main/article landmark): only
//   navigation and landmark furniture goes, and class names only when they are unmistakable
//   (wiki navigation boxes, edit links, share bars, adverts, consent banners);
// - the page zone (the body, when no main element was found): page headers, footers, sidebars and
//   widgets go too, by element or by class.
//
// Whatever the zone, a class or id never removes a table part, heading, paragraph or list item, and
// no removal but navigation's takes one element that holds most of the text of the page or article
// unless that element is mostly links: class names lie (Blogger puts the post in "widget Blog", page
// builders put sections in "so-panel widget", tablesorter marks header cells "header").

/** Roles of navigation furniture, removed wherever they are. */
const NAVIGATION_ROLES = new Set(['navigation', 'search', 'dialog', 'alertdialog']);
/** Class tokens and ids of furniture, removed in both zones (matched as whole tokens). */
const FURNITURE_TOKENS = new Set([
  'breadcrumb',
  'breadcrumbs',
  'share',
  'sharing',
  'social',
  'social-media',
  'social-links',
  'related-posts',
  'modal',
  'popup',
  'overlay',
  'newsletter',
  'subscribe',
  'ad',
  'ads',
  'advert',
  'advertisement',
  'sponsored',
  'lang-selector',
  'language-selector',
  'gdpr',
  'skip-link',
  'skip-to-content',
  // Wiki and documentation conventions: edit links, tables of contents, navigation boxes, print-hidden parts.
  'mw-editsection',
  'mw-jump-link',
  'toc',
  'navbox',
  'vertical-navbox',
  'noprint',
  'catlinks',
  'printfooter',
]);
/** Class tokens and ids of navigation blocks: removed in both zones when the block is mostly links (a "menu" may be a restaurant's). */
const NAVIGATION_TOKENS = new Set(['nav', 'navbar', 'navigation', 'menu']);
/** Class tokens and ids of page chrome, removed in the page zone only. */
const PAGE_TOKENS = new Set(['header', 'footer', 'sidebar', 'side', 'aside', 'widget', 'language']);
/** Substrings of class or id that mark consent banners and drop-down menus whatever their exact name. */
const BOILERPLATE_SUBSTRINGS = /cookie|consent|dropdown|skiplink/i;
/** Class tokens of an aside that is part of the text (a note, a tip, a pull quote), with any suffix ("callout-info"). */
const CALLOUT_CLASS =
  /^(?:note|notes|tip|tips|hint|warning|caution|important|info|information|notice|callout|admonition|example|definition|pullquote|pull-quote|quote|summary|highlight|key-?points?|box|boxout|textbox)(?:[-_].*)?$/i;

/** Elements a class name never removes: table parts, headings, paragraphs, list items, quotations, code. */
const CLASS_PROOF = new Set([
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'caption',
  'colgroup',
  'col',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'p',
  'li',
  'dt',
  'dd',
  'blockquote',
  'pre',
  'figure',
  'figcaption',
]);
/** Whole tables and lists: removed by class only as furniture or as link lists (a wiki's navigation table, a "menu" list of links). */
const CLASS_SHY = new Set(['table', 'ul', 'ol', 'dl']);
/** Inline elements: removed by class only as furniture (edit links, print-hidden notes), never as page chrome ("side effects"). */
const INLINE = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'big',
  'cite',
  'code',
  'data',
  'del',
  'dfn',
  'em',
  'font',
  'i',
  'ins',
  'kbd',
  'label',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'tt',
  'u',
  'var',
]);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Elements whose headers and footers are theirs rather than the page's landmarks (HTML-AAM); sections are weighed apart. */
const SECTIONING = new Set(['article', 'aside', 'main', 'nav']);

/** The most of the page's (or article's) text one class-based removal may take. */
const MAX_REMOVED_SHARE = 0.5;
/** Share of the page's text from which a section outside the content is the page's wrapper, not a section of it. */
const WRAPPER_SHARE = 0.9;
/** Share of a navigation-classed block's text that must be link text for it to count as navigation. */
const MIN_NAVIGATION_LINK_SHARE = 0.5;

function isMainLandmark(el: Element): boolean {
  return el.tagName === 'main' || el.tagName === 'article' || el.attribs['role'] === 'main';
}

function tokensOf(el: Element): string[] {
  const a = el.attribs;
  const tokens = (a['class'] ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (a['id']) tokens.push(a['id'].toLowerCase());
  return tokens;
}

/**
 * Why an element is removed: navigation (its element or role says so; always removed), a landmark
 * of the page (header, footer, sidebar), or page chrome guessed from a class name. The last two are
 * weighed against the text they would take.
 */
type Verdict = 'navigation' | 'landmark' | 'class' | 'navigation-class' | undefined;

function verdictOf(el: Element, contentZone: boolean, isWrapper: (section: Element) => boolean): Verdict {
  const tag = el.tagName;
  const role = el.attribs['role']?.trim().toLowerCase() ?? '';
  if (tag === 'nav' || tag === 'dialog' || NAVIGATION_ROLES.has(role)) return 'navigation';
  // Headers and footers inside a section, an article or the main landmark belong to it (title, byline,
  // captions); only page-level ones are chrome. ARIA scopes banner/contentinfo the same way. A section
  // that wraps the whole page outside the content is no section.
  const section = (p: Element): boolean =>
    p.tagName === 'article' || (p.tagName === 'section' && (contentZone || !isWrapper(p)));
  if (
    (tag === 'header' || tag === 'footer') &&
    !hasAncestor(el, null, (p) => section(p) || SECTIONING.has(p.tagName) || isMainLandmark(p))
  )
    return 'landmark';
  if ((role === 'banner' || role === 'contentinfo') && !hasAncestor(el, null, isMainLandmark)) return 'landmark';
  const tokens = tokensOf(el);
  if (tag === 'aside' || role === 'complementary') {
    // An aside inside a section or article is a note of that text; a callout class says the same.
    if (tag === 'aside' && role !== 'complementary' && hasAncestor(el, null, section)) return undefined;
    if (tokens.some((t) => CALLOUT_CLASS.test(t))) return undefined;
    return 'landmark';
  }
  // A button's label is content inside the article (an accordion's questions) and in a heading.
  if (tag === 'button')
    return contentZone || hasAncestor(el, null, (p) => HEADINGS.has(p.tagName)) ? undefined : 'navigation';
  if (CLASS_PROOF.has(tag) || tokens.length === 0) return undefined;
  const a = el.attribs;
  if (
    tokens.some((t) => FURNITURE_TOKENS.has(t)) ||
    BOILERPLATE_SUBSTRINGS.test(a['class'] ?? '') ||
    BOILERPLATE_SUBSTRINGS.test(a['id'] ?? '')
  )
    return 'class';
  if (INLINE.has(tag)) return undefined;
  if (tokens.some((t) => NAVIGATION_TOKENS.has(t))) return 'navigation-class';
  if (tokens.includes('sidebar')) return contentZone || CLASS_SHY.has(tag) ? 'navigation-class' : 'class';
  if (!contentZone && !CLASS_SHY.has(tag) && tokens.some((t) => PAGE_TOKENS.has(t))) return 'class';
  return undefined;
}

/** Page headers: the element, the banner role, or a header class or id. */
function isHeaderLike(el: Element): boolean {
  return (
    el.tagName === 'header' || el.attribs['role']?.trim().toLowerCase() === 'banner' || tokensOf(el).includes('header')
  );
}

/** Landmarks of the main content, in order of preference. */
const MAIN_CANDIDATES: Array<(el: Element) => boolean> = [
  (el) => el.tagName === 'main',
  (el) => el.attribs['role'] === 'main',
  (el) => el.tagName === 'article',
  (el) => el.attribs['id'] === 'main',
  (el) => el.attribs['id'] === 'content',
  (el) => (el.attribs['class'] ?? '').split(/\s+/).includes('main-content'),
  (el) => el.attribs['id'] === 'main-content',
];

export interface CleanOptions {
  onlyMainContent: boolean;
  includeTags: string[];
  excludeTags: string[];
  /** Absolute base URL from `<base href>`; URLs stay as written when undefined. */
  baseUrl: string | undefined;
}

export function resolveUrl(url: string, baseUrl: string | undefined): string {
  const trimmed = url.trim();
  if (!baseUrl || !trimmed) return trimmed;
  if (/^(?:javascript|data|mailto|tel|about|blob):/i.test(trimmed)) return trimmed;
  try {
    return new URL(trimmed, baseUrl).href;
  } catch {
    return trimmed;
  }
}

export interface SrcsetCandidate {
  url: string;
  /** Width in pixels (`w` descriptor) or pixel density (`x`, default 1). */
  width?: number;
  density?: number;
}

/** Parses a `srcset` attribute as the HTML standard does: URLs may contain commas, descriptors follow white space. */
export function parseSrcset(srcset: string): SrcsetCandidate[] {
  const out: SrcsetCandidate[] = [];
  let i = 0;
  const s = srcset;
  while (i < s.length) {
    while (i < s.length && /[\s,]/.test(s[i]!)) i++;
    if (i >= s.length) break;
    let j = i;
    while (j < s.length && !/\s/.test(s[j]!)) j++;
    let url = s.slice(i, j);
    let descriptor = '';
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
      i = j;
    } else {
      let k = j;
      while (k < s.length && s[k] !== ',') k++;
      descriptor = s.slice(j, k).trim();
      i = k + 1;
    }
    const candidate: SrcsetCandidate = { url };
    const w = /^(\d+)w$/i.exec(descriptor);
    const x = /^([\d.]+)x$/i.exec(descriptor);
    if (w) candidate.width = Number(w[1]);
    else candidate.density = x ? Number(x[1]) : 1;
    if (url) out.push(candidate);
  }
  return out;
}

/** The largest candidate of a srcset: widest when widths are given, else the highest density. */
export function largestSrcset(srcset: string): string | undefined {
  const candidates = parseSrcset(srcset);
  const widths = candidates.filter((c) => c.width !== undefined);
  const pool = widths.length > 0 ? widths : candidates;
  let best: SrcsetCandidate | undefined;
  for (const c of pool) if (!best || (c.width ?? c.density ?? 0) > (best.width ?? best.density ?? 0)) best = c;
  return best?.url;
}

const URL_ATTRIBUTES: Array<[string, string]> = [
  ['a', 'href'],
  ['area', 'href'],
  ['img', 'src'],
  ['source', 'src'],
  ['video', 'src'],
  ['video', 'poster'],
  ['audio', 'src'],
  ['track', 'src'],
  ['iframe', 'src'],
  ['embed', 'src'],
  ['object', 'data'],
  ['form', 'action'],
  ['input', 'src'],
  ['blockquote', 'cite'],
  ['q', 'cite'],
  ['del', 'cite'],
  ['ins', 'cite'],
];

/** Every element below `root`, in document order, by one explicit walk (cheap on very large pages). */
export function elementsOf(root: AnyNode): Element[] {
  const out: Element[] = [];
  const stack: AnyNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === 'tag' || node.type === 'script' || node.type === 'style') out.push(node as Element);
    if ('children' in node) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return out;
}

const URL_ATTRIBUTE_MAP = new Map<string, string[]>();
for (const [tag, attr] of URL_ATTRIBUTES) URL_ATTRIBUTE_MAP.set(tag, [...(URL_ATTRIBUTE_MAP.get(tag) ?? []), attr]);

/** Resolves srcset to the largest candidate and, when there is a base URL, makes URLs absolute. */
export function resolveUrls(root: Cheerio<AnyNode>, baseUrl: string | undefined): void {
  for (const top of root.toArray()) {
    for (const el of elementsOf(top)) {
      const a = el.attribs;
      if ((el.tagName === 'img' || el.tagName === 'source') && a['srcset'] !== undefined) {
        const largest = largestSrcset(a['srcset']);
        if (largest) {
          if (el.tagName === 'img') {
            a['src'] = largest;
            delete a['srcset'];
          } else a['srcset'] = resolveUrl(largest, baseUrl);
        }
      }
      // Lazy-loading pages keep the real address in data-src.
      if (el.tagName === 'img' && a['data-src'] && (!a['src'] || /^data:/i.test(a['src']))) a['src'] = a['data-src'];
      if (!baseUrl) continue;
      for (const attr of URL_ATTRIBUTE_MAP.get(el.tagName) ?? []) {
        const value = a[attr];
        if (value !== undefined && !value.trim().startsWith('#')) a[attr] = resolveUrl(value, baseUrl);
      }
    }
  }
}

/** Element nesting kept as is; deeper structure is flattened (real pages stay far below this). */
export const MAX_NESTING = 256;

/**
 * Flattens elements nested deeper than MAX_NESTING: below that depth only the text, images and
 * line breaks are kept, in order. Tree walkers (serializers, text extraction, turndown) recurse,
 * and a hostile or broken page nested thousands deep would overflow the stack.
 */
export function flattenDeepNesting(root: AnyNode): boolean {
  let flattened = false;
  const stack: Array<[AnyNode, number]> = [[root, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (!('children' in node)) continue;
    if (depth < MAX_NESTING) {
      for (const child of node.children) stack.push([child, depth + 1]);
      continue;
    }
    const leaves: AnyNode[] = [];
    const inner: AnyNode[] = [...node.children].reverse();
    while (inner.length) {
      const n = inner.pop()!;
      if ('children' in n && n.children.length > 0) {
        for (let i = n.children.length - 1; i >= 0; i--) inner.push(n.children[i]!);
      } else if (n.type === 'text' || (n.type === 'tag' && ['img', 'br'].includes((n as Element).tagName)))
        leaves.push(n);
    }
    if (leaves.length === node.children.length && leaves.every((l, i) => l === node.children[i])) continue;
    flattened = true;
    leaves.forEach((leaf, i) => {
      leaf.parent = node as Element;
      leaf.prev = leaves[i - 1] ?? null;
      leaf.next = leaves[i + 1] ?? null;
      if ('children' in leaf) leaf.children = [];
    });
    node.children = leaves as typeof node.children;
  }
  return flattened;
}

/** Every comment node below `root` (an explicit walk: `$('*').contents()` is quadratic on large pages). */
function comments(root: AnyNode): AnyNode[] {
  const out: AnyNode[] = [];
  const stack: AnyNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === 'comment') out.push(node);
    else if ('children' in node) for (const child of node.children) stack.push(child);
  }
  return out;
}

function textLength(node: Cheerio<AnyNode>): number {
  return node.text().replace(/\s+/g, '').length;
}

function hasVisualContent(node: Cheerio<AnyNode>): boolean {
  if (textLength(node) > 0) return true;
  return node
    .toArray()
    .some((top) =>
      elementsOf(top).some(
        (el) => el.tagName === 'img' || el.tagName === 'table' || el.tagName === 'video' || el.tagName === 'picture',
      ),
    );
}

function select(root: Cheerio<AnyNode>, selector: string, field: string): Cheerio<Element> {
  try {
    return root.find(selector);
  } catch (err) {
    throw new ParseError(
      'BAD_REQUEST',
      `${field}: "${selector}" is not a valid CSS selector (${err instanceof Error ? err.message : String(err)}).`,
      { details: { field } },
    );
  }
}

/** The element the main content lives in, when the page marks one. */
function mainElement($: CheerioAPI, body: Cheerio<AnyNode>): Cheerio<AnyNode> | undefined {
  const all = body.toArray().flatMap((top) => elementsOf(top));
  for (let i = 0; i < MAIN_CANDIDATES.length; i++) {
    const found = all.filter((el) => MAIN_CANDIDATES[i]!(el) && hasVisualContent($(el)));
    if (found.length === 0) continue;
    // Several articles (a listing) are the content together: keep their container, not the first.
    if (i === 2 && found.length > 1) return undefined;
    return $(found[0]!);
  }
  return undefined;
}

function hasAncestor(el: AnyNode, stop: AnyNode | null, test: (e: Element) => boolean): boolean {
  for (let p = el.parent; p && p !== stop; p = p.parent) if (p.type === 'tag' && test(p as Element)) return true;
  return false;
}

/** Characters of text (white space left out) below each element of `all`, and how many of them are inside links. */
function textCounts(all: Element[]): Map<AnyNode, { text: number; links: number }> {
  const counts = new Map<AnyNode, { text: number; links: number }>();
  // Children follow their parent in document order: going backwards, each child is counted before its parent.
  for (let i = all.length - 1; i >= 0; i--) {
    const el = all[i]!;
    const c = { text: 0, links: 0 };
    for (const child of el.children) {
      if (child.type === 'text') c.text += child.data.replace(/\s+/g, '').length;
      else {
        const sub = counts.get(child);
        if (sub) {
          c.text += sub.text;
          c.links += sub.links;
        }
      }
    }
    if (el.tagName === 'a') c.links = c.text;
    counts.set(el, c);
  }
  return counts;
}

/** The document's h1 when it has exactly one (the page title a page-level header may hold). */
function onlyH1($: CheerioAPI): Element | undefined {
  const h1s = elementsOf($.root().get(0)!).filter((el) => el.tagName === 'h1');
  return h1s.length === 1 ? h1s[0] : undefined;
}

/** Everything of `container` except `keep` and the elements that lead to it. */
function allBut(container: AnyNode, keep: AnyNode): AnyNode[] {
  const out: AnyNode[] = [];
  for (let node: AnyNode = keep; node !== container && node.parent; node = node.parent) {
    for (const sibling of node.parent.children) if (sibling !== node) out.push(sibling);
  }
  return out;
}

/**
 * The outermost boilerplate nodes below `root` (not yet removed). `contentZone` says that `root` is
 * the main content (the chosen main element, or elements the caller picked); else it is the page and
 * only main/article landmarks inside it are content.
 */
function boilerplateOf($: CheerioAPI, root: Cheerio<AnyNode>, contentZone: boolean): AnyNode[] {
  const plan: AnyNode[] = [];
  const h1 = onlyH1($);
  for (const top of root.toArray()) {
    const all = elementsOf(top);
    const counts = textCounts(all);
    const rootText = counts.get(top)?.text ?? 0;
    // Containers of the main content are never removed (a site that wraps everything in a "side" div).
    const holdsMain = new Set<AnyNode>();
    for (const el of all) {
      if (!isMainLandmark(el)) continue;
      for (let p = el.parent; p && !holdsMain.has(p); p = p.parent) holdsMain.add(p);
    }
    // Elements below these are decided already (removed, or reduced to the page title).
    const decided = new Set<AnyNode>();
    for (const el of all) {
      if (el === top || holdsMain.has(el) || hasAncestor(el, top, (p) => decided.has(p))) continue;
      const inContent = contentZone || hasAncestor(el, null, isMainLandmark);
      const verdict = verdictOf(
        el,
        inContent,
        (section) => rootText > 0 && (counts.get(section)?.text ?? 0) >= rootText * WRAPPER_SHARE,
      );
      if (!verdict) continue;
      if (verdict !== 'navigation') {
        // Landmarks and class names are weighed: a block that is mostly links is navigation whatever
        // its size; one that is not never takes most of the text, and a navigation class needs links.
        const { text, links } = counts.get(el)!;
        const linkList = text > 0 && links >= text * MIN_NAVIGATION_LINK_SHARE;
        if (verdict === 'navigation-class' && text > 0 && !linkList) continue;
        if (text > rootText * MAX_REMOVED_SHARE && !linkList) continue;
      }
      decided.add(el);
      // A page header that holds the document's only h1 holds the title of what follows: keep the heading.
      if (h1 && isHeaderLike(el) && hasAncestor(h1, el.parent, (p) => p === el)) plan.push(...allBut(el, h1));
      else plan.push(el);
    }
  }
  return plan;
}

function visualCount(nodes: AnyNode[]): number {
  let n = 0;
  for (const top of nodes)
    for (const el of elementsOf(top))
      if (el.tagName === 'img' || el.tagName === 'table' || el.tagName === 'video' || el.tagName === 'picture') n++;
  return n;
}

/**
 * Removes the boilerplate below `root` when something is left afterwards; returns whether it did.
 * Deciding before removing spares a copy of the whole page for the fallback.
 */
function removeBoilerplateKeepingContent($: CheerioAPI, root: Cheerio<AnyNode>, contentZone: boolean): boolean {
  const plan = boilerplateOf($, root, contentZone);
  const text = textLength(root) - plan.reduce((sum, n) => sum + textLength($(n)), 0);
  if (text <= 0 && visualCount(root.toArray()) - visualCount(plan) <= 0) return false;
  $(plan).remove();
  return true;
}

/**
 * Produces the content root for the requested options. The document is modified in place;
 * callers clone when they need the original.
 */
export function contentRoot($: CheerioAPI, options: CleanOptions): Cheerio<AnyNode> {
  // A frameset page has no body: its noframes fallback (raw text to the parser) is the content.
  const frameset = $('frameset');
  if (frameset.length > 0 && $('body').length === 0) {
    const fallback = $('noframes')
      .map((_, el) => $(el).text())
      .get()
      .join('\n');
    frameset.remove();
    $('html').append(fallback);
  }
  const document = $.root().get(0)!;
  $(elementsOf(document).filter((el) => NON_CONTENT.has(el.tagName))).remove();
  $(comments(document)).remove();
  let body: Cheerio<AnyNode> = $('body');
  if (body.length === 0) body = $.root();
  resolveUrls(body, options.baseUrl);

  if (options.includeTags.length > 0) {
    // Each selector is checked on its own so that an error names the one at fault; the union
    // then lists matches once, in document order.
    options.includeTags.forEach((selector, i) => select($.root(), selector, `options.includeTags[${i}]`));
    const picked = $.root().find(options.includeTags.join(', ')).toArray();
    const set = new Set<AnyNode>(picked);
    // Keep the outermost matches: a picked element inside another is already included.
    const ordered = picked.filter((el) => {
      for (let p = el.parent; p; p = p.parent) if (set.has(p)) return false;
      return true;
    });
    const container = $('<div></div>');
    for (const el of ordered) container.append($(el).clone());
    body = container;
  }

  options.excludeTags.forEach((selector, i) => {
    select(body, selector, `options.excludeTags[${i}]`).remove();
  });

  if (options.onlyMainContent && options.includeTags.length === 0) {
    const main = mainElement($, body);
    if (main && removeBoilerplateKeepingContent($, main, true)) return main;
    // Better the whole page than nothing: some pages put their text inside landmarks only.
    removeBoilerplateKeepingContent($, body, false);
    return body;
  }
  // Picked elements are the content the caller asked for: only furniture inside them goes.
  if (options.onlyMainContent) $(boilerplateOf($, body, true)).remove();
  return body;
}
