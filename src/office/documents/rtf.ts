/**
 * RTF → document model: paragraphs, headings (from the stylesheet's "heading N" styles or
 * \outlinelevel), lists (\ls/\ilvl: bullet or number by the list table's level format, the number
 * the \listtext label shows), tables (\trowd ... \cell ... \row, with horizontal and vertical
 * merges; also in headers, footers and notes), bold/italic/strike/super/sub (\super or \up),
 * hyperlink fields, footnotes as GFM notes, headers before the body and footers after it, pictures.
 * Text: \uN escapes (with \ucN fallback skipping) and \'hh bytes decoded in the code page of the
 * current font's charset or the document's \ansicpg (through iconv-lite); text in a Symbol or
 * Wingdings font through `symbol-fonts.ts`.
 */
import { ParseError } from '../../errors.js';
import type { DocBlock, DocModel } from '../../model/document.js';
import type { ReaderContext } from '../../readers/reader.js';
import { RtfReader } from './rtf/reader.js';

export function readRtf(ctx: ReaderContext): DocModel {
  const src = Buffer.from(ctx.bytes.buffer, ctx.bytes.byteOffset, ctx.bytes.byteLength).toString('latin1');
  if (!/^\s*\{\\rtf/.test(src.slice(0, 64)))
    throw new ParseError('MALFORMED', 'The file does not start with an RTF header ({\\rtf).');
  const reader = new RtfReader(src, { removeBase64: ctx.options.removeBase64Images, deadline: ctx.deadline });
  const warnings: string[] = [];
  try {
    reader.run();
  } catch (err) {
    if (err instanceof ParseError) throw err;
    warnings.push(`Part of the RTF could not be read: ${(err as Error).message}`);
  }
  const metadata: DocModel['metadata'] = { ...reader.metadata };
  return {
    contentType: ctx.contentType,
    pages: [
      {
        pageNumber: 1,
        width: null,
        height: null,
        status: warnings.length ? 'partial' : 'ok',
        blocks: [
          ...dedupe(reader.headers),
          ...reader.body.blocks,
          ...dedupe(reader.footers),
          ...reader.notes,
          ...reader.comments,
        ],
      },
    ],
    metadata,
    warnings,
  };
}

/**
 * Headers for left, right and first pages, and those of later sections, often repeat one another:
 * each distinct header (or footer) is kept once, whole, as the other readers keep them. Lines that
 * several different footers share ("Effective October 1, 2012") stay in each of them.
 */
function dedupe(parts: DocBlock[][]): DocBlock[] {
  const seen = new Set<string>();
  const out: DocBlock[] = [];
  for (const blocks of parts) {
    if (!blocks.length) continue;
    const k = JSON.stringify(blocks.map((b) => b.node));
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(...blocks);
  }
  return out;
}
