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

// ---------------------------------------------------------------- aligned-text tables: the scan

/** The smallest type size the scan reckons with (a gutter is measured against it). */
export const MIN_TYPE_SIZE = 4;
/** A gutter is at least this many ems of the starting row's smallest type wide. */
export const GUTTER_MIN_EM = 0.8;
/** A gutter kept by a later row may narrow to this share of the least gutter width. */
export const NARROW_GUTTER_SHARE = 0.6;
/** A row stands at most this many line heights under the row above... */
export const ROW_MAX_GAP = 2;
/** ...or this many inside a ruled region, whose rows may stand further apart. */
export const ROW_MAX_GAP_IN_REGION = 3;
/** How far a row may stand outside a ruled region, or a barrier above the row above, and still count. */
export const REGION_TOL = 2;
/** A line set inside a gutter stands this far clear of its edges. */
export const IN_GUTTER_MARGIN = 0.5;
/** A ruled region holding this many rows or fewer, none of figures, frames the column heads only. */
export const HEAD_REGION_MAX_ROWS = 3;
/** A head cell's second line stands closer under it than this share of a line height... */
export const WRAPPED_HEAD_MAX_GAP = 0.5;
/** ...under a first row of this many cells or more, over a row of as many. */
export const WRAPPED_HEAD_MIN_CELLS = 3;
/** The rows of a group are set in from their label by this many ems or more. */
export const GROUP_INDENT_EM = 0.8;
/** A label is no larger than the rows' largest type plus this. */
export const SAME_SIZE_TOL = 0.2;
/** A note row stands less than this many line heights over the row after it. */
export const NOTE_ROW_MAX_GAP = 1.6;
/** A lone bold line this many times the rows' largest type (or a note line larger) is a heading... */
export const HEADING_SIZE_RATIO = 1.1;
/** ...and a lone plain line this many times larger. */
export const PLAIN_HEADING_SIZE_RATIO = 1.3;
/** Head lines run over body gutters are looked for in tables of this many rows or more. */
export const REOPEN_MIN_ROWS = 4;
/** A run of rows sharing gutters this long that is no table makes the scan go on near its end. */
export const LONG_RUN_ROWS = 8;

// ---------------------------------------------------------------- aligned-text tables: the builder

/** A table needs this many rows with two filled cells or more... */
export const MIN_ANCHOR_ROWS = 3;
/** ...or only this many when its first rows are short cells (ruled), or short cells across WIDE_MIN_COLUMNS columns. */
export const MIN_ANCHOR_ROWS_SHORT = 2;
/** A short cell (a head, a record's value) holds at most this many characters and ends on no full stop. */
export const SHORT_CELL_CHARS = 30;
/** A table of short cells this many columns wide, each of its first two rows filling as many, may have two rows. */
export const WIDE_MIN_COLUMNS = 3;

// ---------------------------------------------------------------- aligned-text tables: joined at group labels

/** Two tables of the same columns are one cut by labels when at most this many lines stand between... */
export const GROUP_LABEL_MAX_LINES = 2;
/** ...each of at most this many characters... */
export const GROUP_LABEL_MAX_CHARS = 60;
/** ...set no larger than this many times the rows' type... */
export const GROUP_LABEL_SIZE_RATIO = 1.25;
/** ...and the tables stand at most this many lines apart. */
export const GROUP_LABEL_MAX_GAP_LINES = 6;
/** Two tables of the same columns with nothing between them are one when at most this many lines apart. */
export const ADJACENT_MAX_GAP_LINES = 3;
