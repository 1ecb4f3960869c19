/**
 * Cleaning an HTML document for the `html` format and for markdown: removing non-content
 * elements, resolving URLs, choosing the main content, applying includeTags/excludeTags.
 */
import type { Cheerio, CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import { ParseError } from '../errors.js';

/** Elements that never carry document content (spec: script, style, noscript, meta and head). */
const NON_CONTENT = 'script, style, noscript, meta, head, template, link, base';

/** Page chrome removed when `onlyMainContent` is on: landmarks and common boilerplate conventions. */
const BOILERPLATE = [
  'header', 'footer', 'nav', 'aside', 'form[role=search]', 'button', 'dialog',
  '[role=banner]', '[role=navigation]', '[role=contentinfo]', '[role=complementary]', '[role=search]', '[role=dialog]', '[role=alertdialog]',
  '.header', '#header', '.footer', '#footer', '.navbar', '.nav', '#nav', '.navigation', '.menu', '#menu',
  '.sidebar', '#sidebar', '.side', '.aside', '.breadcrumb', '.breadcrumbs', '#breadcrumbs',
  '.share', '#share', '.social', '.social-media', '.social-links', '.sharing', '.related-posts',
  '.modal', '.popup', '#modal', '.overlay', '.newsletter', '.subscribe',
  '.ad', '.ads', '.advert', '.advertisement', '#ad', '.sponsored',
  '.lang-selector', '.language', '#language-selector', '.widget', '#widget',
  '[class*=dropdown i]', '[id*=cookie i]', '[class*=cookie i]', '[id*=consent i]', '[class*=consent i]', '.gdpr',
  '.skip-link', '.skip-to-content', '[class*=skiplink i]',
  // Wiki and documentation conventions: edit links, tables of contents, navigation boxes, print-hidden parts.
  '.mw-editsection', '.mw-jump-link', '.toc', '#toc', '.navbox', '.vertical-navbox', '.noprint', '.catlinks', '.printfooter',
].join(', ');

const SCOPED = new Set(['header', 'footer']);

/** Landmarks of the main content, in order of preference. */
const MAIN_CANDIDATES = ['main', '[role=main]', 'article', '#main', '#content', '.main-content', '#main-content'];

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

/** Resolves srcset to the largest candidate and, when there is a base URL, makes URLs absolute. */
export function resolveUrls($: CheerioAPI, root: Cheerio<AnyNode>, baseUrl: string | undefined): void {
  root.find('img[srcset], source[srcset]').each((_, el) => {
    const node = $(el);
    const largest = largestSrcset(node.attr('srcset') ?? '');
    if (largest) {
      if (el.tagName === 'img') {
        node.attr('src', largest);
        node.removeAttr('srcset');
      } else node.attr('srcset', resolveUrl(largest, baseUrl));
    }
  });
  // Lazy-loading pages keep the real address in data-src.
  root.find('img[data-src]').each((_, el) => {
    const node = $(el);
    const src = node.attr('src') ?? '';
    if (!src || /^data:/i.test(src)) node.attr('src', node.attr('data-src') ?? '');
  });
  if (!baseUrl) return;
  for (const [tag, attr] of URL_ATTRIBUTES) {
    root.find(`${tag}[${attr}]`).each((_, el) => {
      const value = el.attribs[attr];
      if (value !== undefined && !value.trim().startsWith('#')) el.attribs[attr] = resolveUrl(value, baseUrl);
    });
  }
}

function textLength(node: Cheerio<AnyNode>): number {
  return node.text().replace(/\s+/g, '').length;
}

function hasVisualContent(node: Cheerio<AnyNode>): boolean {
  return textLength(node) > 0 || node.find('img, table, video, picture').length > 0;
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
  for (const selector of MAIN_CANDIDATES) {
    const found = body.find(selector).filter((_, el) => hasVisualContent($(el)));
    if (found.length === 0) continue;
    // Several articles (a listing) are the content together: keep their container, not the first.
    if (selector === 'article' && found.length > 1) return undefined;
    return found.first();
  }
  return undefined;
}

function removeBoilerplate($: CheerioAPI, root: Cheerio<AnyNode>): void {
  root.find(BOILERPLATE).each((_, el) => {
    const node = $(el);
    // Never remove a container of the main content (a site that wraps everything in a "side" div).
    if (node.find('main, [role=main], article').length > 0) return;
    // Headers and footers inside an article or the main landmark belong to the content (title, byline,
    // captions); only the page-level ones are chrome. ARIA scopes banner/contentinfo the same way.
    if (SCOPED.has(el.tagName) || /^(?:banner|contentinfo)$/.test(el.attribs['role'] ?? '')) {
      if (node.parents('article, main, [role=main]').length > 0) return;
    }
    node.remove();
  });
}

/**
 * Produces the content root for the requested options. The document is modified in place;
 * callers clone when they need the original.
 */
export function contentRoot($: CheerioAPI, options: CleanOptions): Cheerio<AnyNode> {
  $(NON_CONTENT).remove();
  $('*').contents().filter((_, n) => n.type === 'comment').remove();
  let body: Cheerio<AnyNode> = $('body');
  if (body.length === 0) body = $.root();
  resolveUrls($, body, options.baseUrl);

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
    const fallback = body.clone();
    const main = mainElement($, body);
    let root: Cheerio<AnyNode> = main ?? body;
    removeBoilerplate($, root);
    if (!hasVisualContent(root) && main) {
      root = body;
      removeBoilerplate($, root);
    }
    // Better the whole page than nothing: some pages put their text inside landmarks only.
    if (!hasVisualContent(root)) {
      body.empty().append(fallback.contents());
      root = body;
    }
    return root;
  }
  if (options.onlyMainContent) removeBoilerplate($, body);
  return body;
}
