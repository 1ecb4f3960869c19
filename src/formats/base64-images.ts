/**
 * `removeBase64Images`, one rule for every format: an image whose address is inline data (a `data:` URL,
 * whole or already cut short by a reader) is written with the placeholder the HTML path writes,
 * `<Base64-Image-Removed>`, its alt text kept. Readers may leave the bytes out early to save memory; what
 * the caller sees is decided here, once, on the document model before it is serialized.
 */
import type { DocModel, Inline, Node } from '../model/document.js';

/** The address written for an image whose inline data was left out (Firecrawl's placeholder). */
export const BASE64_IMAGE_PLACEHOLDER = '<Base64-Image-Removed>';

const DATA_URL = /^\s*data:/i;
/** A markdown image or link destination holding inline data, in markdown written by the HTML path. */
const MARKDOWN_DATA_DESTINATION = /\]\(\s*<?data:[^)\s>]*>?\s*\)/gi;

function inlines(content: Inline[]): void {
  for (const inline of content) {
    if (inline.type === 'image' && inline.src !== undefined && DATA_URL.test(inline.src))
      inline.src = BASE64_IMAGE_PLACEHOLDER;
  }
}

function node(n: Node): void {
  switch (n.kind) {
    case 'heading':
    case 'paragraph':
      inlines(n.content);
      break;
    case 'list':
      for (const item of n.items) {
        inlines(item.content);
        item.children?.forEach(node);
      }
      break;
    case 'table':
      for (const row of n.rows) for (const cell of row) inlines(cell.content);
      break;
    case 'figure':
      if (n.src !== undefined && DATA_URL.test(n.src)) n.src = BASE64_IMAGE_PLACEHOLDER;
      break;
    case 'quote':
    case 'note':
      n.children.forEach(node);
      break;
    case 'markdown':
      n.markdown = n.markdown.replace(MARKDOWN_DATA_DESTINATION, `](${BASE64_IMAGE_PLACEHOLDER})`);
      break;
    default:
      break;
  }
}

/** Replaces inline image data throughout the model (in place), and drops it from the reader's image list. */
export function removeBase64Images(doc: DocModel): DocModel {
  for (const page of doc.pages) for (const block of page.blocks) node(block.node);
  if (doc.images) doc.images = doc.images.filter((src) => !DATA_URL.test(src));
  return doc;
}
