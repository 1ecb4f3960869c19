/**
 * Presentations: .pptx/.pptm (PresentationML), .odp (OpenDocument) and legacy .ppt (PowerPoint
 * 97-2003 binary). Every slide is one page; see each module for what it reads.
 */
import type { Reader } from '../../readers/reader.js';
import { readOdp } from './odp.js';
import { readPpt } from './ppt.js';
import { readPptx } from './pptx.js';

export const read: Reader = async (ctx) => {
  if (ctx.kind === 'odp') return readOdp(ctx);
  if (ctx.kind === 'ppt') return readPpt(ctx);
  return readPptx(ctx);
};
