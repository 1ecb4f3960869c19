/**
 * Document metadata from an HTML head: title, description, keywords, language, Open Graph,
 * Twitter cards and every other named meta tag (a string, or an array when the name repeats).
 */
import type { CheerioAPI } from 'cheerio';
import type { DocumentMetadata } from '../types.js';

/** Members of the response metadata that describe the parse, not the page: a meta tag never sets them. */
const RESERVED = new Set([
  'sourceURL',
  'url',
  'statusCode',
  'numPages',
  'totalPages',
  'contentType',
  'error',
  'concurrencyLimited',
  'concurrencyQueueDurationMs',
  'ogLocaleAlternate',
  'language',
  'title',
]);

function clean(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function add(meta: Partial<DocumentMetadata>, key: string, value: string): void {
  const existing = meta[key];
  if (existing === undefined || existing === null) meta[key] = value;
  else if (Array.isArray(existing)) {
    if (!existing.includes(value)) existing.push(value);
  } else if (typeof existing === 'string' && existing !== value) meta[key] = [existing, value];
}

/** `og:site_name` → `ogSiteName`, as the web data API names Open Graph members. */
function camelOg(key: string): string {
  return key
    .replace(/^og:/, 'og_')
    .split(/[:_-]/)
    .map((part, i) => (i === 0 ? part : part.charAt(0).toUpperCase() + part.slice(1)))
    .join('');
}

export function extractMetadata($: CheerioAPI): Partial<DocumentMetadata> {
  const meta: Partial<DocumentMetadata> = {};
  const title = clean($('head title').first().text() || $('title').first().text());
  if (title) meta.title = title;

  const lang = $('html').attr('lang') ?? $('html').attr('xml:lang');
  if (lang?.trim()) meta.language = lang.trim();

  const alternates: string[] = [];
  $('meta').each((_, el) => {
    const attrs = el.attribs;
    const key = (attrs['name'] ?? attrs['property'] ?? attrs['itemprop'] ?? '').trim();
    const content = attrs['content'];
    if (!key || content === undefined) return;
    const value = clean(content);
    if (!value) return;
    const lower = key.toLowerCase();
    if (lower === 'og:locale:alternate') {
      if (value && !alternates.includes(value)) alternates.push(value);
      return;
    }
    if (lower === 'title') {
      if (!meta.title && value) meta.title = value;
      return;
    }
    if (lower === 'description' || lower === 'keywords') {
      add(meta, lower, value);
      return;
    }
    if (RESERVED.has(key)) return;
    add(meta, key, value);
    if (lower.startsWith('og:')) {
      const camel = camelOg(lower);
      if (!RESERVED.has(camel)) add(meta, camel, value);
    }
  });
  if (alternates.length) meta.ogLocaleAlternate = alternates;
  if (!meta.language) {
    const httpLang = $('meta[http-equiv="content-language" i]').attr('content');
    if (httpLang?.trim()) meta.language = httpLang.trim();
  }
  return meta;
}
