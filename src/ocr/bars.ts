/**
 * Light type on dark bars (the head row of a table on a dark fill, a form's section bar, a report's
 * title band), turned into dark type on paper before recognition.
 *
 * tesseract binarises the page at one level. A bar lighter than that level is paper to it, and its
 * white type is white on white: calibre's table page (officeparser/test.pdf, page 3) lost its head row
 * ("College", "New students", ...) so, and the shade finder (src/ocr/fills.ts), which takes the bar's
 * grey for a shade and turns it white, made sure of it. A bar darker than the level is read only where
 * tesseract's own check of inverted lines catches it, and a grey bar next to black ones (one threshold
 * for both) is lost.
 *
 * A bar is found as a region, each at its own grey level: cells of the page (a 240th of its shorter
 * side) mostly darker than the paper by DARKER levels join into areas; an area much larger than a
 * letter, whose cells fill most of its box, is a candidate. A large area that is not solid (a bar
 * joined to a table's frame) is looked at again with the lines that touch its blocks taken off. In
 * the pixels, the candidate's rectangle must be mostly of one level (the bar's) with lighter pixels
 * that form letter-shaped components (src/ocr/type-scale.ts, on the negative of the bar): the holes
 * that light type makes, clear of the bar's top and bottom edges. A photograph has no one level, a
 * black box or a chart's bar has no light holes, black type on a grey shade has dark ones (left to the
 * shade finder), type printed over itself runs to the edges. Each bar found is mapped on its own: its
 * level becomes paper, its type's level ink, row by row between the bar's ends, and its edges paper;
 * the rules of a grid it heads are drawn up through it (rulesThroughBars). The rest of the page is
 * flattened and its rules found from the page's levels as scanned, so a page with no such bar, and a
 * page with bars outside them, is left exactly as it was. Looking costs one pass over every other row:
 * 10-22 ms on pages of 2 to 8 million pixels, against 160-700 ms for the whole preprocessing.
 */
import { letterComponents } from './type-scale.js';
import { histMedian } from './fills.js';
import type { PixelRule } from './rules.js';

/** A bar found on the page: its rectangle (inclusive, image pixels), its level and its type's. */
export interface Bar {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Grey level of the bar (the median of its rectangle). */
  level: number;
  /** Grey level of its type (the median of the pixels lighter than halfway to the paper). */
  light: number;
}

/** A bar is darker than the paper by at least this many grey levels (a table's light shade is not). */
const DARKER = 48;
/** A cell is dark when this share of its pixels is. */
const DARK_CELL = 0.5;
/** Dark cells must fill this share of their area's box: a bar is solid, letters and rules are not. */
const SOLID = 0.75;
/** A bar is at least this many cells high and wide (with type in it, well over a line of text high). */
const MIN_CELLS = 3;
/** A bar covers at most this share of the page (a page dark all over is a negative: illumination.ts). */
const MAX_SHARE = 0.4;
/** Share of a bar's rectangle within NEAR levels of its level: one flat fill, not a picture. */
const FLAT = 0.5;
/** Light pixels (type) make up this share of a bar's rectangle at least and at most. */
const LIGHT_SHARE = [0.02, 0.5] as const;
/** Letter-shaped light holes a bar must hold. */
const MIN_LETTERS = 2;
/**
 * Rows along the top and bottom of a bar (inside its blurred edges) that must be nearly free of light
 * pixels: at most MARGIN_LIGHT of them. Bars of the corpus and the fixtures have none there; a block of
 * type printed over itself (markitdown's medical report scan) has 8% and 33%.
 */
const MARGIN_ROWS = 2;
const MARGIN_LIGHT = 0.02;

/** Side of the cells the page is looked at in, pixels. */
function cellSize(width: number, height: number): number {
  return Math.max(4, Math.round(Math.min(width, height) / 240));
}

/**
 * The dark cells of the page (every other row looked at): 1 where DARK_CELL of a cell's pixels are
 * darker than `dark`.
 */
function darkCells(
  grey: Uint8Array,
  width: number,
  height: number,
  cell: number,
  dark: number,
): { cells: Uint8Array; cols: number; rows: number } {
  const cols = Math.ceil(width / cell);
  const rows = Math.ceil(height / cell);
  const counts = new Uint32Array(cols * rows);
  for (let y = 0; y < height; y += 2) {
    const base = y * width;
    const rowCells = Math.floor(y / cell) * cols;
    for (let c = 0; c < cols; c++) {
      const end = Math.min(width, (c + 1) * cell);
      let n = 0;
      for (let i = base + c * cell; i < base + end; i++) if (grey[i]! < dark) n++;
      counts[rowCells + c]! += n;
    }
  }
  const cells = new Uint8Array(cols * rows);
  for (let r = 0; r < rows; r++) {
    const sampled = Math.ceil((Math.min(height, (r + 1) * cell) - r * cell) / 2);
    for (let c = 0; c < cols; c++) {
      const w = Math.min(width, (c + 1) * cell) - c * cell;
      if (counts[r * cols + c]! >= DARK_CELL * sampled * w) cells[r * cols + c] = 1;
    }
  }
  return { cells, cols, rows };
}

/** A 3 × 3 dilation (`grow`) or erosion of a grid of cells; outside the grid counts as not set. */
function morph(cells: Uint8Array, cols: number, rows: number, grow: boolean): Uint8Array {
  const out = new Uint8Array(cells.length);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      let hit = !grow;
      for (let dr = -1; dr <= 1 && hit !== grow; dr++) {
        for (let dc = -1; dc <= 1 && hit !== grow; dc++) {
          const rr = r + dr,
            cc = c + dc;
          const set = rr >= 0 && rr < rows && cc >= 0 && cc < cols && cells[rr * cols + cc] === 1;
          if (set === grow) hit = grow;
        }
      }
      if (hit) out[r * cols + c] = 1;
    }
  }
  return out;
}

/**
 * The dark cells with the lines that touch their blocks taken off: the pores that a bar's type makes
 * in its cells are filled (a closing), then what is not a block of 3 × 3 cells or more goes (an
 * opening). A table's frame running into its head row, or a label box set against the frame, no longer
 * joins the bar to an area that is not solid.
 */
function withoutLines(cells: Uint8Array, cols: number, rows: number): Uint8Array {
  const closed = morph(morph(cells, cols, rows, true), cols, rows, false);
  const opened = morph(morph(closed, cols, rows, false), cols, rows, true);
  for (let i = 0; i < opened.length; i++) opened[i]! &= closed[i]!;
  return opened;
}

interface Area {
  c0: number;
  r0: number;
  c1: number;
  r1: number;
  n: number;
}

/**
 * Areas of 4-connected dark cells: their boxes (in cells) and cell counts. `label`, when given, gets
 * each cell's area number plus one.
 */
function cellAreas(cells: Uint8Array, cols: number, rows: number, label?: Uint32Array): Area[] {
  const seen = new Uint8Array(cells.length);
  const out: Area[] = [];
  const stack: number[] = [];
  for (let start = 0; start < cells.length; start++) {
    if (!cells[start] || seen[start]) continue;
    const a: Area = { c0: cols, r0: rows, c1: -1, r1: -1, n: 0 };
    seen[start] = 1;
    stack.push(start);
    while (stack.length) {
      const k = stack.pop()!;
      if (label) label[k] = out.length + 1;
      const r = Math.floor(k / cols);
      const c = k - r * cols;
      a.n++;
      a.c0 = Math.min(a.c0, c);
      a.c1 = Math.max(a.c1, c);
      a.r0 = Math.min(a.r0, r);
      a.r1 = Math.max(a.r1, r);
      const next = [c > 0 ? k - 1 : -1, c + 1 < cols ? k + 1 : -1, r > 0 ? k - cols : -1, r + 1 < rows ? k + cols : -1];
      for (const j of next) {
        if (j >= 0 && cells[j] && !seen[j]) {
          seen[j] = 1;
          stack.push(j);
        }
      }
    }
    out.push(a);
  }
  return out;
}

/**
 * An area without its top and bottom rows of cells that are less than half set across its width;
 * null when nothing is left. (Cells of the area are those set in `cells` within its box.)
 */
function trimRows(a: Area, cells: Uint8Array, cols: number): Area | null {
  const w = a.c1 - a.c0 + 1;
  const setIn = (r: number): number => {
    let n = 0;
    for (let c = a.c0; c <= a.c1; c++) n += cells[r * cols + c]!;
    return n;
  };
  let r0 = a.r0,
    r1 = a.r1;
  while (r0 <= r1 && setIn(r0) * 2 < w) r0++;
  while (r1 >= r0 && setIn(r1) * 2 < w) r1--;
  if (r0 > r1) return null;
  if (r0 === a.r0 && r1 === a.r1) return a;
  let n = 0;
  for (let r = r0; r <= r1; r++) n += setIn(r);
  return { c0: a.c0, r0, c1: a.c1, r1, n };
}

interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The rectangle of a candidate area in pixels: the rows and columns (within a cell of its box) at
 * least half of whose pixels across the box are dark.
 */
function tightRect(grey: Uint8Array, width: number, height: number, box: Rect, dark: number): Rect | null {
  const x0 = Math.max(0, box.x0),
    x1 = Math.min(width - 1, box.x1);
  const y0 = Math.max(0, box.y0),
    y1 = Math.min(height - 1, box.y1);
  const darkRows: number[] = [];
  for (let y = y0; y <= y1; y++) {
    let n = 0;
    for (let i = y * width + x0, e = y * width + x1; i <= e; i++) if (grey[i]! < dark) n++;
    if (n * 2 >= x1 - x0 + 1) darkRows.push(y);
  }
  if (darkRows.length < 2) return null;
  const top = darkRows[0]!,
    bottom = darkRows[darkRows.length - 1]!;
  let left = -1,
    right = -1;
  for (let x = x0; x <= x1; x++) {
    let n = 0;
    for (let y = top; y <= bottom; y++) if (grey[y * width + x]! < dark) n++;
    if (n * 2 >= bottom - top + 1) {
      if (left < 0) left = x;
      right = x;
    }
  }
  return left < 0 ? null : { x0: left, y0: top, x1: right, y1: bottom };
}

/** Pixels of a rectangle shrunk by `inset` on every side, in a new buffer, and its size. */
function cropOf(
  grey: Uint8Array,
  width: number,
  r: Rect,
  inset: number,
): { data: Uint8Array; w: number; h: number } | null {
  const x0 = r.x0 + inset,
    x1 = r.x1 - inset,
    y0 = r.y0 + inset,
    y1 = r.y1 - inset;
  if (x1 <= x0 || y1 <= y0) return null;
  const w = x1 - x0 + 1,
    h = y1 - y0 + 1;
  const data = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) data.set(grey.subarray((y0 + y) * width + x0, (y0 + y) * width + x1 + 1), y * w);
  return { data, w, h };
}

/**
 * Whether the pixels of a candidate's rectangle are a bar carrying light type (see the file
 * comment), and its two levels if so.
 */
function barLevels(
  inner: { data: Uint8Array; w: number; h: number },
  paper: number,
): { level: number; light: number } | null {
  const { data, w, h } = inner;
  const hist = new Uint32Array(256);
  for (const v of data) hist[v]!++;
  const level = histMedian(hist, data.length);
  if (level > paper - DARKER) return null;
  const near = Math.max(24, (paper - level) / 4);
  const mid = (level + paper) / 2;
  let flat = 0,
    light = 0;
  const lightHist = new Uint32Array(256);
  for (let v = 0; v < 256; v++) {
    if (Math.abs(v - level) <= near) flat += hist[v]!;
    if (v >= mid) {
      light += hist[v]!;
      lightHist[v] = hist[v]!;
    }
  }
  if (flat < FLAT * data.length) return null;
  if (light < LIGHT_SHARE[0] * data.length || light > LIGHT_SHARE[1] * data.length) return null;
  // The holes of light type are letter-shaped components of the bar's negative.
  const negative = data.map((v) => 255 - v);
  const letters = letterComponents(negative, w, h, Math.round(255 - mid));
  if (!letters || letters.count < MIN_LETTERS) return null;
  // A bar's type keeps clear of its top and bottom edges; lines of type printed over one another
  // (a form filled in twice) make a dark block too, but their letters run to its edges.
  for (const y0 of [0, h - MARGIN_ROWS]) {
    let n = 0;
    for (let i = y0 * w, e = (y0 + MARGIN_ROWS) * w; i < e; i++) if (data[i]! >= mid) n++;
    if (n > MARGIN_LIGHT * MARGIN_ROWS * w) return null;
  }
  return { level, light: histMedian(lightHist, light) };
}

/**
 * The bars of a grey page that carry light type (see the file comment). `paper` is the page's paper
 * level (src/ocr/fills.ts).
 */
export function findBars(grey: Uint8Array, width: number, height: number, paper: number): Bar[] {
  const dark = paper - DARKER;
  if (dark <= 0) return [];
  const cell = cellSize(width, height);
  const { cells, cols, rows } = darkCells(grey, width, height, cell, dark);
  const big = (a: Area): boolean => a.c1 - a.c0 + 1 >= MIN_CELLS && a.r1 - a.r0 + 1 >= MIN_CELLS;
  const solid = (a: Area): boolean => a.n >= SOLID * (a.c1 - a.c0 + 1) * (a.r1 - a.r0 + 1);
  const label = new Uint32Array(cells.length);
  const areas = cellAreas(cells, cols, rows, label);
  const candidates = areas.filter((a) => big(a) && solid(a));
  // Large areas that are not solid may be bars joined to rules: looked at again without the lines.
  const loose = new Set<number>();
  for (const [k, a] of areas.entries()) if (big(a) && !solid(a)) loose.add(k + 1);
  if (loose.size) {
    const inLoose = (a: Area): boolean => {
      for (let r = a.r0; r <= a.r1; r++)
        for (let c = a.c0; c <= a.c1; c++) if (loose.has(label[r * cols + c]!)) return true;
      return false;
    };
    const bare = withoutLines(cells, cols, rows);
    for (const a of cellAreas(bare, cols, rows)) {
      // (Its rows: what is left of the lines where they met the bar, a cell or two wide, hangs on
      // under or over it and is no part of it.)
      const t = trimRows(a, bare, cols);
      if (t && big(t) && solid(t) && inLoose(t)) candidates.push(t);
    }
  }
  const bars: Bar[] = [];
  for (const a of candidates) {
    const cw = a.c1 - a.c0 + 1,
      ch = a.r1 - a.r0 + 1;
    if (cw * ch * cell * cell > MAX_SHARE * width * height) continue;
    const rect = tightRect(
      grey,
      width,
      height,
      { x0: (a.c0 - 1) * cell, y0: (a.r0 - 1) * cell, x1: (a.c1 + 2) * cell - 1, y1: (a.r1 + 2) * cell - 1 },
      dark,
    );
    // An area looked at twice (found again without the lines) is one bar.
    if (!rect || bars.some((b) => rect.x0 <= b.x1 && b.x0 <= rect.x1 && rect.y0 <= b.y1 && b.y0 <= rect.y1)) continue;
    // Inside the bar's edges, whose blur is neither its level nor its type's.
    const inner = cropOf(grey, width, rect, edgeOf(cell));
    if (!inner) continue;
    const levels = barLevels(inner, paper);
    if (levels) bars.push({ ...rect, ...levels });
  }
  return bars;
}

/** How far from a bar's foot the rules of a grid it heads start (pixels): its blurred edge and a rule's width. */
export function barReach(width: number, height: number): number {
  return 2 * cellSize(width, height);
}

/** The band along a bar's edges that becomes paper: the blur between the bar and the page round it. */
function edgeOf(cell: number): number {
  return Math.max(2, Math.round(cell / 2));
}

/**
 * A copy of the page with each bar mapped to dark type on paper: on each row, between the bar's
 * first and last dark pixel, the bar's level (and anything darker: its rules, its border) becomes
 * `paper` and its type's level black, linearly from 0.4 to 0.75 of the way (below 0.4 the grain of a
 * scanned fill showed as specks: "Visits : Faults" on fixtures/ocr/bars.pdf at a quarter); a band of
 * `edgeOf` pixels along the bar's edges becomes paper.
 */
export function invertBars(grey: Buffer, width: number, height: number, bars: readonly Bar[], paper: number): Buffer {
  const out = Buffer.from(grey);
  const cell = cellSize(width, height);
  const edge = edgeOf(cell);
  const dark = paper - DARKER;
  for (const b of bars) {
    const lo = b.level + (b.light - b.level) * 0.4;
    const hi = b.light - (b.light - b.level) / 4;
    const map = new Uint8Array(256);
    for (let v = 0; v < 256; v++) map[v] = v <= lo ? paper : v >= hi ? 0 : Math.round((paper * (hi - v)) / (hi - lo));
    for (let y = b.y0; y <= b.y1 && y < height; y++) {
      const row = y * width;
      let first = b.x0,
        last = b.x1;
      while (first <= last && grey[row + first]! >= dark) first++;
      while (last >= first && grey[row + last]! >= dark) last--;
      if (first > last) continue;
      const band = y - b.y0 < edge || b.y1 - y < edge;
      for (let x = first; x <= last; x++)
        out[row + x] = band || x - first < edge || last - x < edge ? paper : map[grey[row + x]!]!;
    }
  }
  return out;
}

/**
 * The rules of a grid that a bar heads (its head row on a dark fill), run up through the bar: turned
 * to paper with the fill, the bar's edges and the column rules inside it no longer bound the head row,
 * and the table analysis would take the grid to start under it and its head words for headings. A bar
 * heads a grid when two vertical rules or more start at its foot, within `reach` pixels, under it; they
 * are drawn up to its top, and its top and foot become horizontal rules across them where no rule is.
 */
export function rulesThroughBars(rules: readonly PixelRule[], bars: readonly Bar[], reach: number): PixelRule[] {
  const out = rules.map((r) => ({ ...r }));
  for (const b of bars) {
    const columns = out.filter(
      (r) => r.x0 === r.x1 && Math.abs(r.y0 - b.y1) <= reach && r.x0 >= b.x0 - reach && r.x0 <= b.x1 + reach,
    );
    if (columns.length < 2) continue;
    for (const r of columns) r.y0 = b.y0;
    const x0 = Math.min(...columns.map((r) => r.x0));
    const x1 = Math.max(...columns.map((r) => r.x0));
    const thickness = columns.map((r) => r.thickness).sort((p, q) => p - q)[columns.length >> 1]!;
    for (const y of [b.y0, b.y1]) {
      if (!out.some((r) => r.y0 === r.y1 && Math.abs(r.y0 - y) <= reach && r.x0 <= x0 + reach && r.x1 >= x1 - reach))
        out.push({ x0, y0: y, x1, y1: y, thickness });
    }
  }
  return out;
}
