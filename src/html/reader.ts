import type { Reader } from '../readers/reader.js';
import { notYetSupported } from '../readers/registry.js';

export const read: Reader = async (ctx) => {
  throw notYetSupported(ctx.kind);
};
