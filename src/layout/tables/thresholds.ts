/**
 * The thresholds of the table finders, named in one place. Lengths are in points (PDF user space,
 * or the OCR page's equivalent); shares are of the length named; "em" factors multiply a type size.
 * A value here is used as it stands: changing one changes which tables are found.
 */

// ---------------------------------------------------------------- page geometry
// (Shared page geometry: the page-margin band of running heads and footers. Kept here so the table
// finders need nothing outside src/layout/tables*; the same values as the layout engine's band.)

/** Share of the page height above which a line sits in the top margin (a running head). */
export const PAGE_HEAD_BAND = 0.08;
/** Share of the page height below which a line sits in the bottom margin (a running foot). */
export const PAGE_FOOT_BAND = 0.92;

// ---------------------------------------------------------------- ruled tables: rules

/** A segment drawn wider than this is a bar (decoration, shading), not a rule. */
export const DECORATION_BAR_WIDTH = 6;
/** A rule is at most this thick across its length... */
export const RULE_MAX_THICKNESS = 1;
/** ...and at least this long. */
export const RULE_MIN_LENGTH = 4;
/** Only the first this many rules of a page are looked at (a page of hatching would be quadratic). */
export const MAX_RULE_SEGMENTS = 4000;
/** How far apart two rules' ends (or a rule and a grid line) may be and still meet. */
export const RULE_END_TOL = 2;
/** At most this many groups of touching rules (frames peeled included) are examined on a page. */
export const MAX_RULE_GROUPS_EXAMINED = 200;
/** A group of rules this wide and this tall (shares of the page) frames the whole page: no table. */
export const PAGE_FRAME_WIDTH_SHARE = 0.95;
export const PAGE_FRAME_HEIGHT_SHARE = 0.9;
/** A rule within this of a side of its group's box, and covering FRAME_SIDE_SHARE of that side, is the frame's. */
export const FRAME_SIDE_TOL = 3;
export const FRAME_SIDE_SHARE = 0.6;

// ---------------------------------------------------------------- ruled tables: rule stacks (booktabs)

/** A horizontal rule of a stack is longer than this. */
export const RULE_STACK_MIN_LENGTH = 40;
/** Rules above this share of the page height (under a running head) are no table rules... */
export const RULE_STACK_PAGE_TOP = 0.1;
/** ...nor rules below this share (over a footer). */
export const RULE_STACK_PAGE_BOTTOM = 0.9;
/** The rules of a stack start and end within this of one another. */
export const RULE_STACK_ALIGN = 6;
/** Each rule of a stack is at most this far under the previous one. */
export const RULE_STACK_MAX_STEP = 250;
/** A stack spans more than this from its first rule to its last. */
export const RULE_STACK_MIN_HEIGHT = 10;

// ---------------------------------------------------------------- ruled tables: the grid

/** Rule positions within this of one another are one grid line; a rule within this of a grid line is on it. */
export const GRID_SNAP = 3;
/** A grid of more slots than this is no table (and is not examined slot by slot). */
export const MAX_GRID_SLOTS = 5000;
/** A framed region averaging more characters than this (regions with text) holds paragraphs: no data table. */
export const FRAME_MAX_MEAN_REGION_CHARS = 250;
/** A region covering this share of the grid's area or more may be a frame around text... */
export const FRAME_REGION_SHARE = 0.25;
/** ...when it holds this many lines or more (word centres within LINE_CENTRE_TOL are one line)... */
export const FRAME_MIN_LINES = 5;
/** ...in mixed sizes, or more characters than this. */
export const FRAME_TEXT_CHARS = 400;
/** Word centres within this of one another stand on one line. */
export const LINE_CENTRE_TOL = 2;
/** A ruled cell's text splits at whitespace only with this many words... */
export const GROUP_SPLIT_MIN_WORDS = 4;
/** ...at a strip at least this wide, and at least GROUP_SPLIT_MIN_GAP_EM of the words' size. */
export const GROUP_SPLIT_MIN_GAP = 6;
export const GROUP_SPLIT_MIN_GAP_EM = 0.9;
/** A ruled column's text splits down the whole table only with this many words... */
export const WHOLE_COLUMN_SPLIT_MIN_WORDS = 6;
/** ...at a strip at least this wide, and WHOLE_COLUMN_SPLIT_MIN_GAP_EM of the words' size (narrower than within a group)... */
export const WHOLE_COLUMN_SPLIT_MIN_GAP = 4;
export const WHOLE_COLUMN_SPLIT_MIN_GAP_EM = 0.6;
/** ...with words on either side in this many lines or more. */
export const WHOLE_COLUMN_SPLIT_MIN_LINES = 3;
/** A head's words across a split found elsewhere in the column stand this many ems apart (more than a word space). */
export const HEAD_SPLIT_MIN_GAP_EM = 2;
/** Words overlapping a line by more than this share of their height stand on it. */
export const BAND_OVERLAP_SHARE = 0.4;
/** A word runs across a column edge when it passes it by more than this on both sides. */
export const WORD_ACROSS_CUT_MARGIN = 1;
/** A head line under a group label splits at every column when it reaches this many columns. */
export const GROUP_HEAD_MIN_COLUMNS = 3;
/** Lines averaging more characters a cell than this (the median line) are running text wrapped in a cell, not rows. */
export const WRAPPED_TEXT_CELL_CHARS = 30;
/** An unruled row split is matched to a grid line within this. */
export const VIRTUAL_ROW_MATCH = 0.01;
/** Two slots are parted when a rule covers the middle of their common side, this share of it either way. */
export const RULE_PROBE_SHARE = 0.25;
/** An empty grid row or column no wider than this is a sliver between double rules. */
export const EMPTY_SLIVER_MAX = 6;
/** A cell over this share of the table's area holding more than FRAME_CELL_CHARS is a framed page region. */
export const FRAME_CELL_AREA_SHARE = 0.4;
export const FRAME_CELL_CHARS = 200;
/** A full-width cell with more characters than this holds a paragraph: the rules frame a page region. */
export const FRAME_FULL_WIDTH_CELL_CHARS = 300;
/** A ruled box whose filled cells average more characters than this holds paragraphs (a sidebar, a form). */
export const RULED_BOX_MAX_MEAN_CELL_CHARS = 250;
/** Confidence in a table found from its rules. */
export const RULED_CONFIDENCE = 0.9;
