/**
 * Text documents: Word (.docx/.docm, Strict OOXML included), legacy Word (.doc), OpenDocument text
 * (.odt), RTF and EPUB. Each format has its own module; all produce the shared document model.
 */
import type { Reader } from '../../readers/reader.js';
import { ParseError } from '../../errors.js';
import { readDoc } from './doc.js';
import { readDocx } from './docx.js';
import { readEpub } from './epub.js';
import { readOdt } from './odt.js';
import { readRtf } from './rtf.js';

export const read: Reader = async (ctx) => {
  switch (ctx.kind) {
    case 'docx':
    case 'docm':
      return readDocx(ctx);
    case 'odt':
      return readOdt(ctx);
    case 'epub':
      return readEpub(ctx);
    case 'doc':
      return readDoc(ctx);
    case 'rtf':
      return readRtf(ctx);
    default:
      // The registry sends only the kinds above here.
      throw new ParseError('UNSUPPORTED_FILE_TYPE', `The document reader does not read .${ctx.kind} files.`);
  }
};
