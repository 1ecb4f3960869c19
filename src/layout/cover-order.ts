/**
 * A cover's title first: on the first page, the short lines set smaller than the title that the
 * reading order puts before it (a series line, an organisation, a subtitle set over the title) go
 * after it, in their order. Only when nothing but such lines (and furniture) comes before the title,
 * all standing above it: a page whose text starts before the title keeps its order.
 */
import type { LaidOutBlock, PageLayout } from './types.js';

export function titleFirst(
  page: PageLayout | undefined,
  title: LaidOutBlock | null,
  furniture: ReadonlyMap<LaidOutBlock, unknown>,
): void {
  if (!page || !title?.block.bbox) return;
  const at = page.blocks.indexOf(title);
  if (at <= 0) return;
  const before = page.blocks.slice(0, at).filter((b) => !furniture.has(b));
  const titleTop = title.block.bbox[1];
  const kicker = (b: LaidOutBlock): boolean =>
    b.block.node.kind === 'paragraph' &&
    b.hints.lineCount <= 2 &&
    b.hints.text.length <= 120 &&
    b.hints.fontSize < title.hints.fontSize - 0.5 &&
    !!b.block.bbox &&
    b.block.bbox[3] <= titleTop + 0.005;
  if (!before.length || !before.every(kicker)) return;
  const moved = new Set(before);
  const kept = page.blocks.slice(0, at).filter((b) => !moved.has(b));
  page.blocks = [...kept, title, ...before, ...page.blocks.slice(at + 1)];
}
