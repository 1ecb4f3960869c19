/**
 * Applies PII redaction to a response document: the markdown, per-page markdown, layout block
 * contents, summary, links, images, html, extracted json and the metadata's text fields (title,
 * description, author, keywords, HTML meta tags, document properties). Block spans stay exact: the edits made to
 * the document markdown shift every later span, and a block's content is re-read from the rewritten
 * markdown, so `markdown.slice(start, end) === content` still holds.
 */
import type { RedactOptions } from '../options/schema.js';
import type { LayoutPage, ParseDocument } from '../types.js';
import type { DetectOptions } from './detect.js';
import type { offsetMapper } from './markdown.js';

export interface RedactLimits {
  /** Epoch milliseconds: past it, redaction stops with ParseError TIMEOUT. */
  deadline?: number;
}

export async function redactDocument(
  doc: ParseDocument,
  options: RedactOptions,
  limits: RedactLimits = {},
): Promise<ParseDocument> {
  // The detectors bring word lists of a few megabytes and the tagger: loaded on the first redaction only,
  // so that importing the library and parses without redaction do not pay for them.
  const { offsetMapper, redactMarkdown } = await import('./markdown.js');
  const { redactHtml } = await import('./html.js');
  const detectOptions: DetectOptions = { mode: options.mode, entities: options.entities, deadline: limits.deadline };
  const style = options.replaceStyle;
  const red = (s: string): string => redactMarkdown(s, detectOptions, style).markdown;
  const out: ParseDocument = { ...doc };

  // The document markdown is redacted once; blocks and pages that are pieces of it take their
  // redacted text from it, so the three agree and long documents are not searched twice.
  let whole: { before: string; after: string; map: ReturnType<typeof offsetMapper> } | undefined;
  if (typeof doc.markdown === 'string') {
    const { markdown, edits } = redactMarkdown(doc.markdown, detectOptions, style);
    out.markdown = markdown;
    whole = { before: doc.markdown, after: markdown, map: offsetMapper(edits) };
  }
  if (doc.blocks) out.blocks = redactBlocks(doc.blocks, whole, red);
  if (doc.pages) {
    let cursor = 0;
    out.pages = doc.pages.map((p) => {
      const at = whole && p.markdown ? whole.before.indexOf(p.markdown, cursor) : -1;
      if (whole && at >= 0) {
        cursor = at + p.markdown.length;
        return { ...p, markdown: whole.after.slice(whole.map(at, 'start'), whole.map(at + p.markdown.length, 'end')) };
      }
      return { ...p, markdown: red(p.markdown) };
    });
  }
  if (typeof doc.summary === 'string') out.summary = red(doc.summary);
  if (doc.links) out.links = doc.links.map(red);
  if (doc.images) out.images = doc.images.map(red);
  if (typeof doc.html === 'string') out.html = redactHtml(doc.html, detectOptions, style);
  if (typeof doc.rawHtml === 'string') out.rawHtml = redactHtml(doc.rawHtml, detectOptions, style);
  if (doc.json !== undefined) out.json = redactJson(doc.json, red);
  out.metadata = redactMetadata(doc.metadata, red);
  return out;
}

/**
 * Metadata members that describe the file or the parse rather than carry its text: codes, counts, types
 * and the problems found. Every other string (title, description, author, keywords, subject, meta tags,
 * document properties) is text taken from the document and is redacted like the markdown.
 */
const STRUCTURAL_METADATA = new Set([
  'language',
  'sourceURL',
  'url',
  'ogLocaleAlternate',
  'statusCode',
  'numPages',
  'totalPages',
  'contentType',
  'error',
  'concurrencyLimited',
  'concurrencyQueueDurationMs',
]);

function redactMetadata(metadata: ParseDocument['metadata'], red: (s: string) => string): ParseDocument['metadata'] {
  const out: ParseDocument['metadata'] = { ...metadata };
  for (const [key, value] of Object.entries(metadata)) {
    if (STRUCTURAL_METADATA.has(key)) continue;
    if (typeof value === 'string') out[key] = red(value);
    else if (Array.isArray(value)) out[key] = value.map((v) => (typeof v === 'string' ? red(v) : v));
  }
  return out;
}

function redactBlocks(
  pages: LayoutPage[],
  whole: { before: string; after: string; map: ReturnType<typeof offsetMapper> } | undefined,
  red: (s: string) => string,
): LayoutPage[] {
  return pages.map((page) => ({
    ...page,
    items: page.items.map((block) => {
      const span = block.markdownSpan;
      if (span && whole && whole.before.slice(span[0], span[1]) === block.content) {
        const start = whole.map(span[0], 'start');
        const end = Math.max(start, whole.map(span[1], 'end'));
        return { ...block, content: whole.after.slice(start, end), markdownSpan: [start, end] as [number, number] };
      }
      // Not in the document markdown (furniture left out, or a span that no longer matches): redact alone.
      const content = red(block.content);
      return content === block.content ? block : { ...block, content, markdownSpan: null };
    }),
  }));
}

function redactJson(value: unknown, red: (s: string) => string): unknown {
  if (typeof value === 'string') return red(value);
  if (Array.isArray(value)) return value.map((v) => redactJson(v, red));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactJson(v, red);
    return out;
  }
  return value;
}
