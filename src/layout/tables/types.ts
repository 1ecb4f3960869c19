/** What the table finders hand the page layout: a table found, with the words and lines it took. */
import type { TableCell } from '../../model/document.js';
import type { Line, Word } from '../lines.js';
import type { Box } from '../types.js';

/** A stretch along one axis, from a to b (a column's or a gutter's x-extent, a row's y-extent). */
export interface Interval {
  a: number;
  b: number;
}

export interface FoundTable extends Box {
  rows: TableCell[][];
  /** Words consumed by the table (removed from the text flow). */
  words: Set<Word>;
  lines: Set<Line>;
  ruled: boolean;
  confidence: number;
  /** Where each column of `rows` stands across the page (its cells' text, or its rules), left to right. */
  columns?: Interval[];
  /** Where each row of `rows` stands down the page (its text, or its rules), top to bottom. */
  rowBands?: Interval[];
}
