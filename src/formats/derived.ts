/**
 * Formats derived from the markdown when the reader had no richer source (non-HTML inputs): links
 * and images. (The html format of such inputs is written from the model: document-html.ts.)
 */

const LINK = /(!?)\[((?:\\.|[^\]\\])*)\]\((<[^>]*>|[^)\s]*)(?:\s+"[^"]*")?\)/g;

function destination(raw: string): string {
  return raw.startsWith('<') && raw.endsWith('>') ? raw.slice(1, -1) : raw;
}

/** Link targets of the markdown, deduplicated, in document order. */
export function linksFromMarkdown(markdown: string): string[] {
  const out = new Set<string>();
  for (const m of markdown.matchAll(LINK)) {
    const url = destination(m[3] ?? '');
    if (m[1] !== '!' && url) out.add(url);
  }
  return [...out];
}

/** Image sources of the markdown, deduplicated, in document order. */
export function imagesFromMarkdown(markdown: string): string[] {
  const out = new Set<string>();
  for (const m of markdown.matchAll(LINK)) {
    const url = destination(m[3] ?? '');
    if (m[1] === '!' && url) out.add(url);
  }
  return [...out];
}
