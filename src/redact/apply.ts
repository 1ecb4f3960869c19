/**
 * Applies PII redaction to a response document: the markdown, per-page markdown, layout block
 * contents, summary, links, images, html and extracted json. Block spans stay exact: the edits made to
 * the document markdown shift every later span, and a block's content is re-read from the rewritten
 * markdown, so `markdown.slice(start, end) === content` still holds.
 */
import type { RedactOptions } from '../options/schema.js';
import type { LayoutPage, ParseDocument } from '../types.js';
import type { DetectOptions } from './detect.js';
import { redactHtml } from './html.js';
import { applyEdits, offsetMapper, redactMarkdown } from './markdown.js';

export async function redactDocument(doc: ParseDocument, options: RedactOptions): Promise<ParseDocument> {
  const detectOptions: DetectOptions = { mode: options.mode, entities: options.entities };
  const style = options.replaceStyle;
  const red = (s: string): string => redactMarkdown(s, detectOptions, style).markdown;
  const out: ParseDocument = { ...doc };

  if (typeof doc.markdown === 'string') {
    const { markdown, edits } = redactMarkdown(doc.markdown, detectOptions, style);
    out.markdown = markdown;
    if (doc.blocks) out.blocks = redactBlocks(doc.blocks, doc.markdown, markdown, edits, red);
  } else if (doc.blocks) {
    out.blocks = redactBlocks(doc.blocks, undefined, undefined, [], red);
  }
  if (doc.pages) out.pages = doc.pages.map((p) => ({ ...p, markdown: red(p.markdown) }));
  if (typeof doc.summary === 'string') out.summary = red(doc.summary);
  if (doc.links) out.links = doc.links.map(red);
  if (doc.images) out.images = doc.images.map(red);
  if (typeof doc.html === 'string') out.html = redactHtml(doc.html, detectOptions, style);
  if (typeof doc.rawHtml === 'string') out.rawHtml = redactHtml(doc.rawHtml, detectOptions, style);
  if (doc.json !== undefined) out.json = redactJson(doc.json, red);
  return out;
}

type Edits = Parameters<typeof applyEdits>[1];

function redactBlocks(pages: LayoutPage[], before: string | undefined, after: string | undefined, edits: Edits, red: (s: string) => string): LayoutPage[] {
  const map = offsetMapper(edits);
  return pages.map((page) => ({
    ...page,
    items: page.items.map((block) => {
      const span = block.markdownSpan;
      if (span && before !== undefined && after !== undefined && before.slice(span[0], span[1]) === block.content) {
        const start = map(span[0], 'start');
        const end = Math.max(start, map(span[1], 'end'));
        return { ...block, content: after.slice(start, end), markdownSpan: [start, end] as [number, number] };
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
