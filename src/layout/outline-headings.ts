/**
 * Headings from the document's outline (bookmarks): where the producer wrote one, an entry names a
 * heading's words, its page and its depth. The line of that page that reads as the entry (the same
 * letters and digits, spacing and punctuation aside, case too where one of the two is set in
 * capitals; its numbering may be on one side only:
 * "5.1 Results" against "Results") becomes a heading of the entry's depth, whether or not its face
 * made it one. Each entry takes the first such line of its page not taken by an entry before it;
 * running heads, captions and tables are never taken, nor text longer than a heading is.
 */
import type { LaidOutBlock, OutlineEntry, PageLayout } from './types.js';

/** Letters and digits, runs of anything else as one space. */
function normalised(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * The same words: letter for letter, or in another case where one of the two is set in capitals
 * ("MAIN GAME" for "Main Game"); "Empress of fire," (a line of verse) is not "Empress of Fire".
 */
function sameWords(a: string, b: string): boolean {
  if (a === b) return true;
  const capitals = (t: string): boolean => !/\p{Ll}/u.test(t);
  return (capitals(a) || capitals(b)) && a.toLowerCase() === b.toLowerCase();
}

/** The text without a leading section number ("5.1", "IV.", "A.", "3)"), normalised. */
function withoutNumbering(text: string): string {
  return normalised(
    text.trim().replace(/^(?:\d{1,3}(?:\.\d{1,3}){0,4}\.?|[IVXLCivxlc]{1,6}\.|[A-Z]\.|\d{1,3}\))\s+/, ''),
  );
}

/** A block that can be a heading: a paragraph (or a one-item list) of at most three short lines. */
function eligible(b: LaidOutBlock): boolean {
  const kind = b.block.node.kind;
  return (
    (kind === 'paragraph' || kind === 'list') &&
    b.block.type !== 'caption' &&
    b.hints.lineCount <= 3 &&
    b.hints.text.length <= 300 &&
    /[\p{L}\p{N}]/u.test(b.hints.text)
  );
}

/** The block reads as the entry. */
function reads(b: LaidOutBlock, title: string): boolean {
  const t = normalised(title);
  // A line that stops on a comma, a colon, a semicolon, an exclamation or a question the entry does
  // not end on is a line of the text saying the same words ("Enchanters!" in a song under the
  // heading "Enchanters", a speaker's "Lieutenant Renn:"), not the heading.
  const end = /[,;:!?]$/.exec(b.hints.text.trim())?.[0];
  if (!t || (end && !title.trim().endsWith(end))) return false;
  const text = normalised(b.hints.text);
  if (sameWords(text, t)) return true;
  // The numbering on one side only; the words left must still say something (not a bare number).
  const bare = withoutNumbering(b.hints.text),
    bareTitle = withoutNumbering(title);
  return (sameWords(bare, t) || sameWords(bareTitle, text)) && /\p{L}/u.test(bare);
}

/**
 * Sets the levels of the outline's headings in `heading` (a block to its level): the entries at the
 * top are level 1, or 2 under a title the layout found on the first page that the outline does not
 * name. A flat outline (every entry at the top) says which lines are headings but not how they nest:
 * there headings keep the levels the layout gave them, and lines it did not take for headings get the
 * level most of the others have. Blocks in `furniture` are left alone. Where several lines of the
 * page read as the entry, one the layout took for a heading (or a heading's candidate) is preferred.
 */
export function headingsFromOutline(
  pages: readonly PageLayout[],
  outline: readonly OutlineEntry[],
  heading: Map<LaidOutBlock, number>,
  furniture: ReadonlyMap<LaidOutBlock, unknown>,
  title: LaidOutBlock | null,
): void {
  const byPage = new Map(pages.map((p) => [p.pageNumber, p]));
  const taken = new Map<LaidOutBlock, number>();
  for (const entry of outline) {
    const page = byPage.get(entry.page);
    if (!page) continue;
    const matches = page.blocks.filter(
      (x) => !taken.has(x) && !furniture.has(x) && eligible(x) && reads(x, entry.title),
    );
    const b = matches.find((x) => heading.has(x)) ?? matches.find((x) => x.hints.headingCandidate) ?? matches[0];
    if (b) taken.set(b, entry.depth);
  }
  if (!taken.size) return;
  if (outline.every((e) => e.depth === 0)) {
    const counts = new Map<number, number>();
    for (const b of taken.keys()) {
      const l = heading.get(b);
      if (l !== undefined && b !== title) counts.set(l, (counts.get(l) ?? 0) + 1);
    }
    const usual = [...counts].sort((x, y) => y[1] - x[1] || x[0] - y[0])[0]?.[0] ?? (title ? 2 : 1);
    for (const b of taken.keys()) if (!heading.has(b)) heading.set(b, usual);
    return;
  }
  const shift = title && !taken.has(title) ? 1 : 0;
  for (const [b, depth] of taken) if (b !== title) heading.set(b, Math.min(6, depth + 1 + shift));
}
