/**
 * What the command prints for a parsed document: what the flags and options asked for, or a note on
 * standard error saying why it cannot (a format without pages or layout blocks), never nothing.
 */
import type { ParseDocument } from '../types.js';

/** Exit status of a document that came back incomplete: pages failed or partial, or time ran out. */
export const EXIT_INCOMPLETE = 3;

export interface Rendered {
  text: string;
  /** File extension of the text, for -o DIR. */
  ext: 'md' | 'json' | 'html' | 'txt';
  notes: string[];
}

export function render(data: ParseDocument, flags: { json: boolean; pages: boolean; blocks: boolean }): Rendered {
  if (flags.json) return { text: `${JSON.stringify({ success: true, data }, null, 2)}\n`, ext: 'json', notes: [] };
  const notes: string[] = [];
  if (flags.blocks) {
    if (data.blocks) return { text: `${JSON.stringify(data.blocks, null, 2)}\n`, ext: 'json', notes };
    notes.push('--blocks: this document has no layout blocks (only PDF input has them); printing its markdown');
  }
  if (flags.pages) {
    if (data.pages?.length)
      return {
        text: data.pages.map((p) => `<!-- page ${p.pageNumber} -->\n\n${p.markdown}\n`).join('\n'),
        ext: 'md',
        notes,
      };
    notes.push('--pages: this document has no pages (only PDF input has them); printing its markdown');
  }
  if (typeof data.markdown === 'string') return { text: data.markdown, ext: 'md', notes };
  // options.formats without markdown: the first format asked for that has text.
  if (typeof data.html === 'string') return { text: data.html, ext: 'html', notes };
  if (typeof data.rawHtml === 'string') return { text: data.rawHtml, ext: 'html', notes };
  if (typeof data.summary === 'string') return { text: `${data.summary}\n`, ext: 'txt', notes };
  if (data.links) return { text: data.links.map((l) => `${l}\n`).join(''), ext: 'txt', notes };
  if (data.images) return { text: data.images.map((l) => `${l}\n`).join(''), ext: 'txt', notes };
  if (data.json !== undefined) return { text: `${JSON.stringify(data.json, null, 2)}\n`, ext: 'json', notes };
  notes.push('nothing to print: the formats asked for have no text output; use --json for the whole document');
  return { text: '', ext: 'md', notes };
}

/** Why the document is incomplete, or null when it is whole. */
export function incompleteReason(data: ParseDocument): string | null {
  if (typeof data.metadata.error === 'string' && data.metadata.error) return data.metadata.error;
  if (data.warning && /ran out of time|did not finish within the timeout/.test(data.warning)) return data.warning;
  return null;
}
