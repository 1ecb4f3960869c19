/**
 * Formats derived from the markdown when the reader had no richer source (non-HTML inputs): links
 * and images. (The html format of such inputs is written from the model: document-html.ts.)
 */

const LINK = /(!?)\[((?:\\.|[^\]\\])*)\]\((<[^>]*>|[^)\s]*)(?:\s+"[^"]*")?\)/g;
/** Links as above, and autolinks (`<https://...>`, `<name@example.org>`) not escaped. */
const LINK_OR_AUTOLINK =
  /(!?)\[((?:\\.|[^\]\\])*)\]\((<[^>]*>|[^)\s]*)(?:\s+"[^"]*")?\)|(?<!\\)<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*)>|(?<!\\)<([A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)>/g;

function destination(raw: string): string {
  return raw.startsWith('<') && raw.endsWith('>') ? raw.slice(1, -1) : raw;
}

/** Link targets of the markdown, deduplicated, in document order. */
export function linksFromMarkdown(markdown: string): string[] {
  const out = new Set<string>();
  for (const m of markdown.matchAll(LINK_OR_AUTOLINK)) {
    const url = m[4] ?? (m[5] ? `mailto:${m[5]}` : destination(m[3] ?? ''));
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
