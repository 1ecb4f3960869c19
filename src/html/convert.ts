/**
 * The HTML conversion proper, synchronous and free of the pipeline's context so that it can run on
 * the main thread or in a worker: decode, read metadata, links and images from the whole page,
 * clean and choose the content the options ask for, convert through the shared HTML-to-markdown path.
 */
import * as cheerio from 'cheerio';
import type { CheerioAPI } from 'cheerio';
import { htmlToMarkdown, unwrapRedirect } from '../markdown/html-to-markdown.js';
import { markdownBlocks } from '../markdown/html-blocks.js';
import type { DocModel } from '../model/document.js';
import { decodeText } from './charset.js';
import { limitTagAttributes, limitTagNesting, PARSE_ATTRIBUTE_LIMIT, PARSE_NESTING_LIMIT } from './depth.js';
import { contentRoot, elementsOf, flattenDeepNesting, largestSrcset, MAX_NESTING, resolveUrl } from './clean.js';
import { extractMetadata } from './metadata.js';

/** XHTML proper (XML declaration or an .xhtml name): parse so that `<div/>` closes itself. */
function isXhtml(text: string, filename: string | undefined, contentType: string): boolean {
  if (/\.xht(ml)?$/i.test(filename ?? '') || /xhtml\+xml/i.test(contentType)) return true;
  return /^\s*<\?xml\b/i.test(text.slice(0, 200));
}

export function loadHtml(text: string, xhtml: boolean): CheerioAPI {
  if (xhtml) {
    return cheerio.load(text, {
      xml: {
        xmlMode: false,
        recognizeSelfClosing: true,
        lowerCaseTags: true,
        lowerCaseAttributeNames: true,
        decodeEntities: true,
      },
    });
  }
  return cheerio.load(text);
}

/** The `<base href>` when it is an absolute URL: the one base relative URLs can be resolved against. */
export function baseHref($: CheerioAPI): string | undefined {
  const href = $('base[href]').first().attr('href')?.trim();
  if (!href) return undefined;
  try {
    return new URL(href).href;
  } catch {
    return undefined;
  }
}

/** Every hyperlink of the page: absolute where a base allows, deduplicated, in document order. */
export function pageLinks($: CheerioAPI, baseUrl: string | undefined): string[] {
  const seen = new Set<string>();
  for (const el of elementsOf($.root().get(0)!)) {
    if ((el.tagName !== 'a' && el.tagName !== 'area') || el.attribs['href'] === undefined) continue;
    const href = el.attribs['href'].trim();
    if (!href || (href.startsWith('#') && !baseUrl)) continue;
    const url = unwrapRedirect(resolveUrl(href, baseUrl));
    if (/^(?:javascript|vbscript|data):/i.test(url)) continue;
    seen.add(url);
  }
  return [...seen];
}

/** Every image of the page: the largest srcset candidate or the src, absolute where a base allows. */
export function pageImages($: CheerioAPI, baseUrl: string | undefined, removeBase64Images: boolean): string[] {
  const seen = new Set<string>();
  for (const el of elementsOf($.root().get(0)!)) {
    if (el.tagName !== 'img') continue;
    const a = el.attribs;
    let src = (a['srcset'] && largestSrcset(a['srcset'])) || a['src']?.trim() || '';
    if ((!src || /^data:/i.test(src)) && a['data-src']) src = a['data-src'].trim();
    if (!src) continue;
    if (/^data:/i.test(src) && removeBase64Images) continue;
    seen.add(resolveUrl(src, baseUrl));
  }
  return [...seen];
}

export interface HtmlConvertOptions {
  onlyMainContent: boolean;
  includeTags: string[];
  excludeTags: string[];
  removeBase64Images: boolean;
}

export interface HtmlSource {
  filename: string | undefined;
  /** The detected content type (text/html or application/xhtml+xml). */
  contentType: string;
}

export function convertHtml(bytes: Uint8Array, source: HtmlSource, options: HtmlConvertOptions): DocModel {
  const decoded = decodeText(bytes, { markup: true });
  const rawHtml = decoded.text;
  const xhtml = isXhtml(rawHtml, source.filename, source.contentType);
  const attributes = limitTagAttributes(rawHtml);
  const limited = limitTagNesting(attributes.html);
  const $ = loadHtml(limited.html, xhtml);
  const warnings: string[] = [];
  if (attributes.trimmed > 0) {
    warnings.push(
      `${attributes.trimmed} element(s) carry more than ${PARSE_ATTRIBUTE_LIMIT} attributes; those past the first ${PARSE_ATTRIBUTE_LIMIT} were dropped before parsing.`,
    );
  }
  if (limited.dropped > 0) {
    warnings.push(
      `The page nests elements more than ${PARSE_NESTING_LIMIT} deep; ${limited.dropped} deeper tags were dropped before parsing and their text kept.`,
    );
  }
  if (flattenDeepNesting($.root().get(0)!)) {
    warnings.push(
      `The page nests elements more than ${MAX_NESTING} deep; below that depth only its text and images were kept.`,
    );
  }

  const metadata = extractMetadata($);
  const baseUrl = baseHref($);
  const links = pageLinks($, baseUrl);
  const images = pageImages($, baseUrl, options.removeBase64Images);

  const root = contentRoot($, {
    onlyMainContent: options.onlyMainContent,
    includeTags: options.includeTags,
    excludeTags: options.excludeTags,
    baseUrl,
  });
  // The whole (cleaned) document when nothing narrower was chosen, else the chosen element.
  const rootIsDocument = root.get(0) === $('body').get(0) || root.get(0)?.type === 'root';
  const html = rootIsDocument ? $.html() : $.html(root);
  const markdown = htmlToMarkdown(root.html() ?? '', { baseUrl, removeBase64Images: options.removeBase64Images });

  return {
    contentType: xhtml && /xhtml/i.test(source.contentType) ? source.contentType : 'text/html',
    pages: [{ pageNumber: 1, width: null, height: null, status: 'ok', blocks: markdownBlocks(markdown) }],
    metadata,
    warnings,
    html,
    rawHtml,
    links,
    images,
  };
}
