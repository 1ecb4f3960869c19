/**
 * Splits markdown from the HTML-to-markdown path into top-level blocks, so that HTML-shaped
 * documents report layout blocks like every other format. Joining the blocks with blank lines
 * gives back the same markdown.
 */
import type { BlockType } from '../types.js';
import type { DocBlock } from '../model/document.js';

function blockType(chunk: string): BlockType {
  const first = chunk.split('\n', 1)[0]!;
  if (/^# /.test(first)) return 'title';
  if (/^#{2,6} /.test(first)) return 'section_header';
  if (/^(```|~~~)/.test(first)) return 'code';
  if (/^\|.*\|$/.test(first) && /^\|(?: *:?-{3,}:? *\|)+$/.test(chunk.split('\n', 2)[1] ?? '')) return 'table';
  if (/^(?:[-*+]|\d{1,9}[.)]) /.test(first)) return 'list_item';
  if (/^(?:\s*\[?!\[[^\]]*\]\([^)]*\)(?:\]\([^)]*\))?\s*)+$/.test(chunk)) return 'figure';
  if (/^\$\$/.test(first)) return 'formula';
  return 'text';
}

export function markdownBlocks(markdown: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  const flush = (): void => {
    const chunk = current.join('\n').replace(/^\n+|\s+$/g, '');
    if (chunk)
      blocks.push({ node: { kind: 'markdown', markdown: chunk }, type: blockType(chunk), source: 'native_text' });
    current = [];
  };
  let blank = false;
  for (const line of markdown.split('\n')) {
    const m = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence === null && line.trim() === '') {
      blank = true;
      continue;
    }
    if (blank) {
      // An indented line after a blank line continues the block above (a loose list item).
      if (fence === null && /^\s/.test(line) && current.length > 0) current.push('');
      else flush();
      blank = false;
    }
    if (fence === null && m) fence = m[1]!;
    else if (fence !== null && m && m[1]!.startsWith(fence) && line.trim() === m[1]) fence = null;
    current.push(line);
  }
  flush();
  return blocks;
}
