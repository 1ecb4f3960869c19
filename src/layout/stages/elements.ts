/**
 * The elements the layout stages pass between them: text blocks (paragraphs and list items, with
 * their lines), tables and figures, each with its box in page points (y down).
 */
import type { FoundTable } from '../tables.js';
import type { Line } from '../lines.js';
import type { Box } from '../types.js';

/** The marker that opens a list item ("•", "3.", "b)"), its kind and its number. */
export interface Marker {
  kind: 'bullet' | 'number' | 'letter';
  text: string;
  value: number;
}

export interface TextBlock extends Box {
  kind: 'text';
  lines: Line[];
  size: number;
  marker: Marker | null;
  /** Left edge of the item text after the marker (for continuation lines). */
  textX0: number;
  closed: boolean;
  /** A numbered item whose wrapped lines return to the number's margin (no hanging indent). */
  flush?: boolean;
  /** A line of one repeated sign ("=====", "-----"): a rule typed as text, as on receipts and in plain-text reports. */
  rule?: boolean;
}
export interface TableEl extends Box {
  kind: 'table';
  table: FoundTable;
}
export interface FigureEl extends Box {
  kind: 'figure';
}
export type El = TextBlock | TableEl | FigureEl;

export function hOverlap(a: Box, b: Box): number {
  return Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
}

export function grow(b: Box, o: Box): void {
  b.x0 = Math.min(b.x0, o.x0);
  b.y0 = Math.min(b.y0, o.y0);
  b.x1 = Math.max(b.x1, o.x1);
  b.y1 = Math.max(b.y1, o.y1);
}
