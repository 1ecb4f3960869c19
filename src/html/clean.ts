/**
 * Cleaning an HTML document for the `html` format and for markdown: removing non-content
 * elements, resolving URLs, choosing the main content, applying includeTags/excludeTags.
 */
import type { Cheerio, CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import { ParseError } from '../errors.js';

/** Elements that never carry document content (spec: script, style, noscript, meta and head). */
const NON_CONTENT = new Set(['script', 'style', 'noscript', 'meta', 'head', 'template', 'link', 'base', 'frameset', 'frame']);

// Page chrome removed when `onlyMainContent` is on: landmarks and common boilerplate conventions.
// Matched by one walk over the elements rather than CSS selectors, which are slow on large pages.
const BOILERPLATE_TAGS = new Set(['header', 'footer', 'nav', 'aside', 'button', 'dialog']);
const BOILERPLATE_ROLES = new Set(['banner', 'navigation', 'contentinfo', 'complementary', 'search', 'dialog', 'alertdialog']);
const BOILERPLATE_CLASSES = new Set([
  'header', 'footer', 'navbar', 'nav', 'navigation', 'menu', 'sidebar', 'side', 'aside', 'breadcrumb', 'breadcrumbs',
  'share', 'social', 'social-media', 'social-links', 'sharing', 'related-posts', 'modal', 'popup', 'overlay',
  'newsletter', 'subscribe', 'ad', 'ads', 'advert', 'advertisement', 'sponsored', 'lang-selector', 'language',
  'widget', 'gdpr', 'skip-link', 'skip-to-content',
  // Wiki and documentation conventions: edit links, tables of contents, navigation boxes, print-hidden parts.
  'mw-editsection', 'mw-jump-link', 'toc', 'navbox', 'vertical-navbox', 'noprint', 'catlinks', 'printfooter',
]);
const BOILERPLATE_IDS = new Set(['header', 'footer', 'nav', 'menu', 'sidebar', 'breadcrumbs', 'share', 'modal', 'ad', 'language-selector', 'widget', 'toc']);
/** Substrings of class or id that mark consent banners and drop-down menus whatever their exact name. */
const BOILERPLATE_SUBSTRINGS = /cookie|consent|dropdown|skiplink/i;

function isBoilerplate(el: Element): boolean {
  if (BOILERPLATE_TAGS.has(el.tagName)) return true;
  const a = el.attribs;
  const role = a['role']?.trim().toLowerCase();
  if (role && BOILERPLATE_ROLES.has(role)) return true;
  if (el.tagName === 'form' && role === 'search') return true;
  const id = a['id'];
  if (id && (BOILERPLATE_IDS.has(id) || BOILERPLATE_SUBSTRINGS.test(id))) return true;
  const cls = a['class'];
  if (cls) {
    if (BOILERPLATE_SUBSTRINGS.test(cls)) return true;
    for (const token of cls.split(/\s+/)) if (BOILERPLATE_CLASSES.has(token)) return true;
  }
  return false;
}

function isMainLandmark(el: Element): boolean {
  return el.tagName === 'main' || el.tagName === 'article' || el.attribs['role'] === 'main';
}

const SCOPED = new Set(['header', 'footer']);

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
  ['a', 'href'], ['area', 'href'], ['img', 'src'], ['source', 'src'], ['video', 'src'], ['video', 'poster'],
  ['audio', 'src'], ['track', 'src'], ['iframe', 'src'], ['embed', 'src'], ['object', 'data'], ['form', 'action'],
  ['input', 'src'], ['blockquote', 'cite'], ['q', 'cite'], ['del', 'cite'], ['ins', 'cite'],
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
      } else if (n.type === 'text' || (n.type === 'tag' && ['img', 'br'].includes((n as Element).tagName))) leaves.push(n);
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
  return node.toArray().some((top) => elementsOf(top).some((el) => el.tagName === 'img' || el.tagName === 'table' || el.tagName === 'video' || el.tagName === 'picture'));
}

function select(root: Cheerio<AnyNode>, selector: string, field: string): Cheerio<Element> {
  try {
    return root.find(selector);
  } catch (err) {
    throw new ParseError('BAD_REQUEST', `${field}: "${selector}" is not a valid CSS selector (${err instanceof Error ? err.message : String(err)}).`, { details: { field } });
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

/** The outermost boilerplate elements below `root` (not yet removed). */
function boilerplateOf(root: Cheerio<AnyNode>): AnyNode[] {
  const plan: AnyNode[] = [];
  for (const top of root.toArray()) {
    const all = elementsOf(top);
    // Containers of the main content are never removed (a site that wraps everything in a "side" div).
    const holdsMain = new Set<AnyNode>();
    for (const el of all) {
      if (!isMainLandmark(el)) continue;
      for (let p = el.parent; p && !holdsMain.has(p); p = p.parent) holdsMain.add(p);
    }
    const removed = new Set<AnyNode>();
    for (const el of all) {
      if (el === top || !isBoilerplate(el) || holdsMain.has(el)) continue;
      // Headers and footers inside an article or the main landmark belong to the content (title, byline,
      // captions); only the page-level ones are chrome. ARIA scopes banner/contentinfo the same way.
      if (SCOPED.has(el.tagName) || /^(?:banner|contentinfo)$/.test(el.attribs['role'] ?? '')) {
        if (hasAncestor(el, null, isMainLandmark)) continue;
      }
      if (hasAncestor(el, top, (p) => removed.has(p))) continue;
      removed.add(el);
    }
    plan.push(...removed);
  }
  return plan;
}

function visualCount(nodes: AnyNode[]): number {
  let n = 0;
  for (const top of nodes) for (const el of elementsOf(top)) if (el.tagName === 'img' || el.tagName === 'table' || el.tagName === 'video' || el.tagName === 'picture') n++;
  return n;
}

/**
 * Removes the boilerplate below `root` when something is left afterwards; returns whether it did.
 * Deciding before removing spares a copy of the whole page for the fallback.
 */
function removeBoilerplateKeepingContent($: CheerioAPI, root: Cheerio<AnyNode>): boolean {
  const plan = boilerplateOf(root);
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
    const fallback = $('noframes').map((_, el) => $(el).text()).get().join('\n');
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
    if (main && removeBoilerplateKeepingContent($, main)) return main;
    // Better the whole page than nothing: some pages put their text inside landmarks only.
    removeBoilerplateKeepingContent($, body);
    return body;
  }
  if (options.onlyMainContent) $(boilerplateOf(body)).remove();
  return body;
}
