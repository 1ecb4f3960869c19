/**
 * Tables: from ruling lines (cell grid from horizontal and vertical segments, merged cells where a
 * rule is missing) and from text alignment (columns of whitespace running down consecutive rows).
 * The finders and their stages live in src/layout/tables/; this is what the rest of the layout uses.
 */
export { findAlignedTables } from './tables/aligned/find-aligned.js';
export { columnGutters } from './tables/aligned/column-gutters.js';
export { cellInlines } from './tables/cell-text.js';
export { findRuledTables } from './tables/ruled/find-ruled.js';
export { CAPTION_RE, LABELLED_VALUE } from './tables/text-cues.js';
export type { FoundTable, Interval } from './tables/types.js';
