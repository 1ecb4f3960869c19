/** A run of inline content as markdown: tokens laid out, markers checked, text escaped. */
import type { Inline, TextInline } from '../model/document.js';
import { layOutChecked } from './emphasis-check.js';
import { writeTokens } from './escape.js';
import { buildItems } from './inline-tokens.js';

/** Renders inline content; `inTable` turns line breaks into `<br>` and escapes pipes. */
export function renderInlines(inlines: readonly Inline[], inTable = false): string {
  // Fast path: plain runs with nothing a reader could take as markdown.
  if (
    inlines.every(
      (i) =>
        i.type === 'text' && !i.bold && !i.italic && !i.strike && !i.code && !i.href && !i.superscript && !i.subscript,
    )
  ) {
    const plain = (inlines as readonly TextInline[]).map((i) => i.text).join('');
    if (!/[\\`*_[\]<&~!|\r\n]/.test(plain) && !/^\s*[#>+\-=\d]/.test(plain)) return plain.trim();
  }
  const toks = layOutChecked(buildItems(inlines, inTable), inTable);
  const out = writeTokens(toks, { pipes: inTable, lineStarts: !inTable });
  if (inTable) return out.replace(/\r?\n/g, '<br>').trim();
  if (out.indexOf('\n') < 0) return out.trim();
  return out.replace(/[ \t]*\r?\n[ \t]*/g, '\n').trim();
}
