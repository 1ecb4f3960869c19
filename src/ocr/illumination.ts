/**
 * Uneven light evened out, and negatives turned positive, before anything else reads the page.
 *
 * Every later step thresholds the page at one grey level: the skew estimate, the shade and rule finders,
 * the type estimate and tesseract's own binarisation (Otsu's, global). A page lit unevenly (the dark
 * gutter of a bound book, a shadow across a photographed sheet, a scanner lamp fading towards one edge)
 * has paper darker on one side than the ink on the other, and one threshold turns the dark side into
 * a block of black: on the generated scans with paper fading to 45% at one edge, recognition lost 75-100%
 * of the text.
 *
 * The paper's own level is measured in cells about a sixth of an inch wide (the 90th percentile of each
 * cell: the light pixels between the letters), smoothed by a median over 5 × 5 cells so that a shaded
 * box, a dark bar or a figure smaller than that does not count as light. Where that map spans more than
 * MIN_RANGE grey levels, changing gradually (light fades over several cells; a shaded table head or a
 * photograph larger than the median's reach has a sharp edge, and is left to the shade finder of
 * src/ocr/fills.ts), the light is uneven, and every pixel is divided by the paper level at its place
 * (interpolated between cell centres): paper becomes white everywhere and ink keeps its contrast. A page
 * evenly lit is left exactly as it was.
 */

/**
 * A page that is a negative (white type on black: a microfilm scan, a page scanned inverted) reads as
 * nothing, since tesseract's layout takes the black sheet for one picture. When most of the page is
 * darker than Otsu's threshold between its two levels, the dark level is the paper: the page is
 * turned positive. A page of ordinary print has 5-20% ink; a page half covered by dark photographs
 * stays below NEGATIVE_SHARE.
 */
const NEGATIVE_SHARE = 0.7;

export function isNegative(grey: Uint8Array, otsu: number): boolean {
  let dark = 0;
  // Every third pixel is plenty for a share.
  for (let i = 0; i < grey.length; i += 3) if (grey[i]! < otsu) dark++;
  return dark > NEGATIVE_SHARE * Math.ceil(grey.length / 3);
}

/** Spread of the smoothed paper level (5th to 95th percentile of cells) that counts as uneven light. */
const MIN_RANGE = 40;
/** Light changes gradually: no step between neighbouring cells may exceed this share of the range. */
const MAX_STEP_SHARE = 0.5;
/** Never divide by less than this: a black area stays black rather than becoming noise. */
const MIN_PAPER = 48;
/** Cells on each side of a cell in the median that smooths the paper map (5 × 5 cells). */
const SMOOTH = 2;

export interface PaperMap {
  /** Cells across and down. */
  cols: number;
  rows: number;
  /** Cell size in pixels. */
  cell: number;
  /** Smoothed paper level of each cell, row by row. */
  level: Float32Array;
  /** 95th minus 5th percentile of the levels. */
  range: number;
  /** Largest difference between the levels of two cells side by side or one above the other. */
  maxStep: number;
}

/** The paper level across the page (see the file comment); null on a page too small to tell. */
export function paperMap(grey: Uint8Array, width: number, height: number): PaperMap | null {
  // About a sixth of an inch at 200-300 dpi, at least 16 pixels.
  const cell = Math.max(16, Math.round(Math.max(width, height) / 60));
  const cols = Math.floor(width / cell);
  const rows = Math.floor(height / cell);
  if (cols < 2 * SMOOTH + 1 || rows < 2 * SMOOTH + 1) return null;
  const raw = new Float32Array(cols * rows);
  const hist = new Uint32Array(cols * 256);
  // Every other pixel of every other row is plenty for a percentile of a few hundred pixels.
  const step = cell >= 32 ? 2 : 1;
  const perCell = Math.ceil(cell / step) ** 2;
  const want = Math.ceil(perCell * 0.1);
  for (let r = 0; r < rows; r++) {
    hist.fill(0);
    for (let y = r * cell; y < (r + 1) * cell; y += step) {
      const row = y * width;
      for (let c = 0; c < cols; c++) {
        const base = c * 256;
        const end = row + (c + 1) * cell;
        for (let i = row + c * cell; i < end; i += step) hist[base + grey[i]!]!++;
      }
    }
    for (let c = 0; c < cols; c++) {
      const base = c * 256;
      let seen = 0;
      let v = 255;
      for (; v > 0; v--) {
        seen += hist[base + v]!;
        if (seen >= want) break;
      }
      raw[r * cols + c] = v;
    }
  }
  const level = new Float32Array(cols * rows);
  const win: number[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      win.length = 0;
      for (let dr = -SMOOTH; dr <= SMOOTH; dr++) {
        const rr = Math.min(rows - 1, Math.max(0, r + dr));
        for (let dc = -SMOOTH; dc <= SMOOTH; dc++) win.push(raw[rr * cols + Math.min(cols - 1, Math.max(0, c + dc))]!);
      }
      win.sort((a, b) => a - b);
      level[r * cols + c] = win[win.length >> 1]!;
    }
  }
  const sorted = Float32Array.from(level).sort();
  const range = sorted[Math.floor(sorted.length * 0.95)]! - sorted[Math.floor(sorted.length * 0.05)]!;
  let maxStep = 0;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const v = level[r * cols + c]!;
      if (c + 1 < cols) maxStep = Math.max(maxStep, Math.abs(v - level[r * cols + c + 1]!));
      if (r + 1 < rows) maxStep = Math.max(maxStep, Math.abs(v - level[(r + 1) * cols + c]!));
    }
  }
  return { cols, rows, cell, level, range, maxStep };
}

/**
 * The page with its light evened out, or null when it is evenly lit (or too small to tell). `grey` is
 * one byte a pixel.
 */
export function evenLight(grey: Uint8Array, width: number, height: number): Buffer | null {
  const map = paperMap(grey, width, height);
  if (!map || map.range <= MIN_RANGE || map.maxStep > map.range * MAX_STEP_SHARE) return null;
  const { cols, rows, cell, level } = map;
  const out = Buffer.allocUnsafe(width * height);
  // Gain (255 / paper) at each cell centre, interpolated along each row between the two cell rows
  // around it, then along the row.
  const gain = new Float32Array(cols * rows);
  for (let i = 0; i < gain.length; i++) gain[i] = 255 / Math.max(MIN_PAPER, level[i]!);
  const line = new Float32Array(cols);
  const half = cell / 2;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(rows - 1, Math.max(0, (y - half) / cell));
    const r0 = Math.floor(fy);
    const r1 = Math.min(rows - 1, r0 + 1);
    const ty = fy - r0;
    for (let c = 0; c < cols; c++) line[c] = gain[r0 * cols + c]! * (1 - ty) + gain[r1 * cols + c]! * ty;
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(cols - 1, Math.max(0, (x - half) / cell));
      const c0 = Math.floor(fx);
      const c1 = Math.min(cols - 1, c0 + 1);
      const tx = fx - c0;
      const g = line[c0]! * (1 - tx) + line[c1]! * tx;
      const v = grey[row + x]! * g;
      out[row + x] = v >= 255 ? 255 : v;
    }
  }
  return out;
}
