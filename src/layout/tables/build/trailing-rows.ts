/** Rows after the table: text under it, unless the last row's cell wrapped onto them. */
import type { Line } from '../../lines.js';
import { filledCells } from '../geometry.js';
import { wrappedTail } from './wrapped-rows.js';

/**
 * Trailing rows with a single cell are text after the table, unless the last row's cell wrapped
 * onto them. Rows are changed in place.
 */
export function dropTrailingText(merged: Line[][][]): void {
  let tail = merged.length;
  while (tail > 2 && filledCells(merged[tail - 1]!) < 2) tail--;
  for (let k = tail; k < merged.length && tail >= 2; k++) {
    const c = merged[k]!.findIndex((cell) => cell.length > 0);
    const last = merged[tail - 1]!;
    const cell = c >= 0 && merged[k]![c]!.length === 1 ? last[c]![last[c]!.length - 1] : undefined;
    if (!cell) break;
    const column = merged.slice(0, tail).flatMap((r) => r[c]!);
    const left = Math.max(
      -Infinity,
      ...merged
        .slice(0, tail)
        .flatMap((r) => r[c - 1] ?? [])
        .map((l) => l.x1),
    );
    const right = Math.min(
      Infinity,
      ...merged
        .slice(0, tail)
        .flatMap((r) => r[c + 1] ?? [])
        .map((l) => l.x0),
    );
    if (!wrappedTail(merged[k]![c]![0]!, cell, column, left, right)) break;
    last[c]!.push(merged[k]![c]![0]!);
  }
  merged.length = tail;
}
