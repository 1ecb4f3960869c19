import type { DocModel } from '../../model/document.js';
import type { ReaderContext } from '../../readers/reader.js';
import { notYetSupported } from '../../readers/registry.js';
export function readPpt(ctx: ReaderContext): DocModel { throw notYetSupported(ctx.kind); }
