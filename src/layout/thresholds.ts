/**
 * Page geometry and tolerances shared by the layout stages (src/layout/stages/), named in one place.
 * Lengths given as a fraction of the page are multiplied by its width or height; lengths given "in
 * ems" by the type size of the line or block at hand; the rest are PDF points (1/72 inch).
 * Thresholds that only the table finder uses live with it.
 */

/** Width of a page that gives none (US Letter, in points). */
export const DEFAULT_PAGE_WIDTH = 612;
/** Height of a page that gives none (US Letter, in points). */
export const DEFAULT_PAGE_HEIGHT = 792;

/**
 * The top margin band: a short element ending above this fraction of the page height may be a
 * running head (or, in the band hint, sits in the top band).
 */
export const TOP_BAND = 0.13;
/** The bottom margin band: a short element starting below this fraction of the height may be a footer. */
export const BOTTOM_BAND = 0.87;

/**
 * A page with more text runs or drawn lines than this (generated or hostile) gets the plain
 * reading-order pass only: table, chart and gutter finding are the costly parts.
 */
export const HEAVY_PAGE_ITEMS = 20000;

/**
 * Above this many lines, searches that compare each line with its neighbours (column edges, picture
 * bullets, wide leading) are skipped: they would cost too much for what they tell.
 */
export const MAX_LINES_COMPARED = 3000;
/** How many lines before and after a line (in top-to-bottom order) the neighbour searches look at. */
export const NEIGHBOUR_WINDOW = 40;

/**
 * Words of a row further apart than this many ems of their size are split into two lines unless the
 * gap is spanned (lines.ts `splitRow`).
 */
export const ROW_SPLIT_GAP_EMS = 1.0;
/** How far (in lines of the row's size) the rows above and below are scanned for text across a gap. */
export const GAP_COVER_REACH_EMS = 2.2;
/** A hole narrower than this (in ems) among the words above or below a gap is a word space, not a gutter. */
export const GAP_COVER_HOLE_EMS = 0.6;
/** How far (in lines) the rows about a stretched space are looked for. */
export const STRETCHED_ROWS_REACH_EMS = 4.5;
/** A line has "the very measure" of another when both its ends lie within this many points of the other's. */
export const SAME_MEASURE_PT = 0.6;

/** How many lines above (in top-to-bottom order) the parent item of a multi-level number is looked for. */
export const NESTED_NUMBER_LOOKBACK = 60;

/** The narrowest gap (points) between elements that reading order treats as a column gutter. */
export const MIN_GUTTER = 6;
/** The deepest reading-order recursion (columns within columns). */
export const MAX_ORDER_DEPTH = 12;

/** A text block's font size when an element has none (tables, figures), for tolerances in ems. */
export const NOMINAL_SIZE = 10;

/** Images smaller than this fraction of the page area are no figures (icons, bullets, rules). */
export const FIGURE_MIN_AREA = 0.004;
/** Images larger than this fraction of the page area are a background or the page's scan. */
export const FIGURE_MAX_AREA = 0.6;
/** Images narrower or shorter than this (points) are no figures. */
export const FIGURE_MIN_SIDE = 20;
/** An image whose area is this much covered by text or more is a background panel. */
export const FIGURE_MAX_TEXT_COVER = 0.25;

/** A filled box larger than this fraction of the page area is a background, not a chart's bar. */
export const CHART_MAX_BOX_AREA = 0.3;
/** A page drawn with more rules and boxes than this is not searched for charts (a drawing, a hostile page). */
export const CHART_MAX_GRAPHICS = 600;
/** Graphics closer than this (points) belong to one cluster, a chart candidate. */
export const CHART_CLUSTER_GAP = 24;
/** A chart is at least this wide (points)... */
export const CHART_MIN_WIDTH = 60;
/** ... this tall (points) ... */
export const CHART_MIN_HEIGHT = 40;
/** ... and covers at least this fraction of the page area. */
export const CHART_MIN_AREA = 0.015;

/** A footnote starts below this fraction of the page height. */
export const FOOTNOTE_MIN_Y = 0.4;

/** Confidence given to text blocks unless the caller says otherwise (OCR callers lower it). */
export const TEXT_CONFIDENCE = 0.9;
/** Confidence given to list blocks. */
export const LIST_CONFIDENCE = 0.85;
/** Confidence given to figure blocks. */
export const FIGURE_CONFIDENCE = 0.7;
