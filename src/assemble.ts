/**
 * The document model → the response document: markdown (and per-page markdown and layout blocks), the
 * other requested formats and the metadata. Runs where the document was read: on the reader worker for
 * the formats read there (workers/reader.ts), so that only the finished strings cross threads.
 */
import { removeBase64Images } from './formats/base64-images.js';
import { imagesFromMarkdown, linksFromMarkdown } from './formats/derived.js';
import { htmlFromDocument } from './formats/document-html.js';
import { extractJson } from './formats/json.js';
import { summarize } from './formats/summary.js';
import { serialize } from './markdown/serialize.js';
import type { DocModel } from './model/document.js';
import { wantsFormat, type NormalizedOptions } from './options/schema.js';
import type { ParseDocument } from './types.js';

export function assemble(doc: DocModel, options: NormalizedOptions, filename: string | undefined): ParseDocument {
  if (options.removeBase64Images) removeBase64Images(doc);
  // Per-page markdown and layout blocks only when asked for: on a long document they hold the markdown
  // a second time and an object per block.
  const serialized = serialize(doc, {
    onlyMainContent: options.onlyMainContent,
    pages: !!options.pdf?.pages,
    blocks: !!options.pdf?.blocks,
  });
  const warnings = [...doc.warnings];
  const metadata: ParseDocument['metadata'] = { ...doc.metadata };
  if (filename && metadata.sourceURL === undefined) metadata.sourceURL = filename;
  metadata.contentType = doc.contentType;
  const pageErrors = doc.pages.filter((p) => p.error).map((p) => `page ${p.pageNumber}: ${p.error}`);
  if (pageErrors.length) metadata.error = [metadata.error, ...pageErrors].filter(Boolean).join('; ');

  const out: ParseDocument = { metadata };
  const md = serialized.markdown;
  if (wantsFormat(options, 'markdown')) out.markdown = md;
  if (options.pdf?.pages) out.pages = serialized.pages;
  if (options.pdf?.blocks) out.blocks = serialized.layout;
  if (wantsFormat(options, 'summary')) out.summary = summarize(md);
  // Inputs that are not HTML: written from the model, which knows merged table cells.
  const html = (): string => doc.html ?? htmlFromDocument(doc, { onlyMainContent: options.onlyMainContent });
  if (wantsFormat(options, 'html')) out.html = html();
  if (wantsFormat(options, 'rawHtml')) out.rawHtml = doc.rawHtml ?? out.html ?? html();
  if (wantsFormat(options, 'links')) out.links = doc.links ?? linksFromMarkdown(md);
  if (wantsFormat(options, 'images')) out.images = doc.images ?? imagesFromMarkdown(md);
  const jsonFormat = options.formats.find((f) => f.type === 'json');
  if (jsonFormat) {
    const extracted = extractJson(md, jsonFormat.schema);
    out.json = extracted.json;
    if (extracted.warning) warnings.push(extracted.warning);
  }
  if (warnings.length) out.warning = warnings.join('\n');
  return out;
}
