/**
 * Ruling lines of a scanned page: the borders and rules of tables and forms, found in the pixels and
 * taken out of the image tesseract reads.
 *
 * Why both: tesseract's page segmentation (mode 3) takes a ruled grid for separators and pictures,
 * and around it drops short cells (the lone figures of a count column) or whole rows; with the rules
 * painted out it reads the rows as text. The rules themselves go to the layout engine as segments,
 * as a PDF's vector rules do, so that the same ruled-table analysis gives the cells.
 *
 * A rule is a run of ink at least a tenth of the page's shorter side long and at most
 * `maxThickness` thick. A filled area (a shaded header row, a black bar, a photograph) is as long but
 * thicker, so it is left alone; text is made of short runs. Only the rules of grids (at least five
 * rules, two or more each way, that meet) are taken. The scan runs over the grey image in row order
 * only (the vertical runs keep one counter a column), a few passes of simple arithmetic a pixel.
 *
 * The vertical rules of a table of one to three rows are shorter than that (a row is 40-60 pixels at
 * 200 dpi, a tenth of a letter page 170): a shorter vertical run, down to a sixtieth of the shorter
 * side (about 10 pt, more than a letter's stroke), counts when both its ends meet horizontal rules and
 * its grid is framed (its top and bottom rules end on its leftmost and rightmost vertical ones), as a
 * table's border is; tall letters standing between two underlined lines are not framed so.
 */
import type { RawImage } from './raw-image.js';

/** A rule in image pixels: a horizontal one runs x0..x1 at y0 = y1, a vertical one y0..y1 at x0 = x1. */
export interface PixelRule {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  thickness: number;
}

interface Band {
  a: number;
  b: number;
  from: number;
  to: number;
  last: number;
}

/**
 * Groups the long runs of one direction into bands (runs on neighbouring lines that overlap) and
 * keeps the thin ones. `runs[k]` holds the runs [a, b) of line k (a row for horizontal rules).
 */
function thinBands(runs: Array<Array<[number, number]>>, maxThickness: number, out: Band[]): void {
  let open: Band[] = [];
  for (let k = 0; k <= runs.length; k++) {
    const line = runs[k] ?? [];
    const next: Band[] = [];
    const used = new Set<Band>();
    for (const [a, b] of line) {
      const band = open.find((o) => !used.has(o) && o.a < b && a < o.b);
      if (band) {
        used.add(band);
        band.a = Math.min(band.a, a);
        band.b = Math.max(band.b, b);
        band.last = k;
        next.push(band);
      } else next.push({ a, b, from: k, to: k, last: k });
    }
    for (const o of open) {
      if (used.has(o)) continue;
      o.to = o.last;
      if (o.to - o.from + 1 <= maxThickness) out.push(o);
    }
    open = next;
  }
}

/**
 * Whether some sampled row and some sampled column hold a run of ink `minLength` long: without
 * both there is no grid, and most pages (text only) are done after reading a quarter of their rows
 * and of their columns.
 */
function longRunsBothWays(
  data: Uint8Array,
  W: number,
  H: number,
  level: number,
  minLength: number,
  minShort: number,
): boolean {
  const longIn = (start: number, step: number, count: number, length: number): boolean => {
    let run = 0;
    for (let k = 0, i = start; k < count; k++, i += step) {
      if (data[i]! <= level) {
        if (++run >= length) return true;
      } else run = 0;
    }
    return false;
  };
  let rows = false;
  for (let y = 0; y < H && !rows; y += 4) rows = longIn(y * W, 1, W, minLength);
  if (!rows) return false;
  for (let x = 0; x < W; x += 4) if (longIn(x, W, H, minShort)) return true;
  return false;
}

/** Past this many rules one way a page is hatched or filled with fine lines (a texture, a halftone), no table. */
const MAX_RULES = 2000;

/**
 * Which ink pixels are thin: bit 1 where the pixel's vertical ink run is at most `maxThickness` (it may
 * belong to a horizontal rule), bit 2 where its horizontal run is (a vertical rule).
 */
function thinInk(data: Buffer, W: number, H: number, level: number, maxThickness: number): Uint8Array {
  // thin & 1: ink thin across the rows (its vertical run is short): may belong to a horizontal rule.
  // thin & 2: ink thin across the columns: may belong to a vertical rule.
  const thin = new Uint8Array(W * H);
  const colRun = new Int32Array(W);
  for (let y = 0; y <= H; y++) {
    const base = y * W;
    let run = 0;
    for (let x = 0; x <= W; x++) {
      const ink = y < H && x < W && data[base + x]! <= level;
      if (ink) run++;
      else {
        if (run > 0 && run <= maxThickness) for (let k = x - run; k < x; k++) thin[base + k]! |= 2;
        run = 0;
      }
      if (x === W) continue;
      if (ink) colRun[x]!++;
      else {
        const r = colRun[x]!;
        if (r > 0 && r <= maxThickness) for (let k = y - r; k < y; k++) thin[k * W + x]! |= 1;
        colRun[x] = 0;
      }
    }
  }
  return thin;
}

/** Runs of thin ink at least `minLength` long along each row and at least `minShort` down each column. */
function thinRuns(
  data: Buffer,
  thin: Uint8Array,
  W: number,
  H: number,
  level: number,
  bridge: number,
  minLength: number,
  minShort: number,
): { rows: Array<Array<[number, number]>>; cols: Array<Array<[number, number]>> } {
  // Long runs of thin ink: along the rows for horizontal rules, down the columns for vertical ones.
  // Where two rules cross, the ink is thick both ways: a run goes on over up to `bridge` pixels of
  // ink that is not thin, so the rules of a grid are not cut into cells too short to count.
  const rows: Array<Array<[number, number]>> = new Array(H);
  const cols: Array<Array<[number, number]>> = Array.from({ length: W }, () => []);
  const colRun = new Int32Array(W);
  const colGap = new Int32Array(W);
  for (let y = 0; y <= H; y++) {
    const base = y * W;
    const row: Array<[number, number]> = [];
    let run = 0;
    let gap = 0;
    for (let x = 0; x <= W; x++) {
      const inside = y < H && x < W;
      const t = inside ? thin[base + x]! : 0;
      const ink = inside && data[base + x]! <= level;
      if (t & 1) {
        run += gap + 1;
        gap = 0;
      } else if (ink && run > 0 && gap < bridge) gap++;
      else {
        if (run >= minLength) row.push([x - gap - run, x - gap]);
        run = 0;
        gap = 0;
      }
      if (x === W) continue;
      if (t & 2) {
        colRun[x]! += colGap[x]! + 1;
        colGap[x] = 0;
      } else if (ink && colRun[x]! > 0 && colGap[x]! < bridge) colGap[x]!++;
      else {
        if (colRun[x]! >= minShort) cols[x]!.push([y - colGap[x]! - colRun[x]!, y - colGap[x]!]);
        colRun[x] = 0;
        colGap[x] = 0;
      }
    }
    if (y < H) rows[y] = row;
  }
  return { rows, cols };
}

/** The bands that are rules of a grid, horizontal and vertical, or null when there is no grid. */
function gridRules(
  hBands: Band[],
  vAll: Band[],
  bridge: number,
  minLength: number,
): { hGrid: Band[]; vGrid: Band[] } | null {
  // Only the rules of a grid are taken: they are what trips the page segmentation. A lone rule (a
  // heading's underline, a separator) stays in the image, where it has always been read well, and is
  // not reported.
  const meets = (h: Band, v: Band): boolean =>
    v.from - bridge <= h.b && v.to + bridge >= h.a && h.from - bridge <= v.b && h.to + bridge >= v.a;
  /** A horizontal rule passing the vertical band `v` at height `y`. */
  const endsOn = (v: Band, y: number): boolean =>
    hBands.some((h) => h.from - bridge <= y && h.to + bridge >= y && h.a - bridge <= v.to && h.b + bridge >= v.from);
  const short = (v: Band): boolean => v.b - v.a < minLength;
  // A short vertical run is a rule only between two horizontal ones.
  const vBands = vAll.filter((v) => !short(v) || (endsOn(v, v.a) && endsOn(v, v.b - 1)));
  if (!vBands.length || vBands.length > MAX_RULES) return null;
  // Rules that meet form groups; a group is a grid when it has two rules each way and three one way
  // (a plain box around a paragraph is not one: it was always read well as it is).
  const all = [...hBands, ...vBands];
  const parent = all.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let i = 0; i < hBands.length; i++) {
    for (let j = 0; j < vBands.length; j++)
      if (meets(hBands[i]!, vBands[j]!)) parent[find(i)] = find(hBands.length + j);
  }
  // Counted by position: a rule drawn twice, or in pieces, is one line of the grid.
  const lines = new Map<number, { h: number[]; v: number[] }>();
  all.forEach((b, i) => {
    const c = lines.get(find(i)) ?? { h: [], v: [] };
    const at = (b.from + b.to) / 2;
    const list = i < hBands.length ? c.h : c.v;
    if (!list.some((p) => Math.abs(p - at) <= bridge)) list.push(at);
    lines.set(find(i), c);
  });
  // A group whose vertical rules are all short must be framed: its top and bottom rules end on its
  // leftmost and rightmost vertical ones, the four corners of a table's border.
  const framed = new Map<number, boolean>();
  const groups = new Map<number, { h: Band[]; v: Band[] }>();
  all.forEach((b, i) => {
    const g = groups.get(find(i)) ?? { h: [], v: [] };
    (i < hBands.length ? g.h : g.v).push(b);
    groups.set(find(i), g);
  });
  // A line of the frame may be drawn in pieces (a rule broken where the scan's skew steps a row).
  const first = (bands: Band[]): Band[] => {
    const at = Math.min(...bands.map((b) => b.from));
    return bands.filter((b) => b.from <= at + bridge);
  };
  const last = (bands: Band[]): Band[] => {
    const at = Math.max(...bands.map((b) => b.to));
    return bands.filter((b) => b.to >= at - bridge);
  };
  /** Whether a rule of `hs` ends on (meets at its left or right end) a rule of `vs`. */
  const corner = (hs: Band[], vs: Band[], side: 'left' | 'right'): boolean =>
    hs.some((h) =>
      vs.some((v) => meets(h, v) && (side === 'left' ? Math.abs(h.a - v.from) : Math.abs(h.b - v.to - 1)) <= bridge),
    );
  for (const [root, g] of groups) {
    if (!g.v.length || !g.h.length || !g.v.every(short)) continue;
    const [top, bottom, left, right] = [first(g.h), last(g.h), first(g.v), last(g.v)];
    framed.set(
      root,
      corner(top, left, 'left') &&
        corner(top, right, 'right') &&
        corner(bottom, left, 'left') &&
        corner(bottom, right, 'right'),
    );
  }
  const grid = (i: number): boolean => {
    const c = lines.get(find(i))!;
    return c.h.length >= 2 && c.v.length >= 2 && c.h.length + c.v.length >= 5 && framed.get(find(i)) !== false;
  };
  const hGrid = hBands.filter((_, i) => grid(i));
  const vGrid = vBands.filter((_, j) => grid(hBands.length + j));
  if (!hGrid.length || !vGrid.length) return null;
  return { hGrid, vGrid };
}

/** The image with the grid's rules (and their edges) painted over with `paper`, and the rules. */
function eraseRules(
  img: RawImage,
  hGrid: Band[],
  vGrid: Band[],
  paper: number,
): { image: RawImage; rules: PixelRule[] } {
  const { width: W, height: H, data } = img;
  const out = Buffer.from(data);
  const rules: PixelRule[] = [];
  // The anti-aliased edge of a rule is lighter than ink but still a line to the recogniser, which
  // reads the grey image: a margin of half the rule's thickness (at least 2 pixels) goes too.
  const margin = (b: Band): number => Math.max(2, Math.ceil((b.to - b.from + 1) / 2));
  for (const b of hGrid) {
    const m = margin(b);
    for (let y = Math.max(0, b.from - m); y <= Math.min(H - 1, b.to + m); y++)
      out.fill(paper, y * W + b.a, y * W + b.b);
    const y = (b.from + b.to + 1) / 2;
    rules.push({ x0: b.a, x1: b.b, y0: y, y1: y, thickness: b.to - b.from + 1 });
  }
  for (const b of vGrid) {
    const m = margin(b);
    for (let y = b.a; y < b.b; y++) out.fill(paper, y * W + Math.max(0, b.from - m), y * W + Math.min(W, b.to + 1 + m));
    const x = (b.from + b.to + 1) / 2;
    rules.push({ x0: x, x1: x, y0: b.a, y1: b.b, thickness: b.to - b.from + 1 });
  }
  return { image: { data: out, width: W, height: H, channels: 1 }, rules };
}

/**
 * Finds the rules of a grey page image, ink being grey levels up to `level` (the page's Otsu
 * threshold), and returns them with a copy of the image in which their pixels (and their edges)
 * are the paper's grey level `paper` (a stripe of pure white on greyish paper reads as a dash). Images that are not one grey channel come back
 * unchanged, without rules.
 *
 * Thinness is judged at each pixel, not over a whole run: a horizontal rule is a long row of ink
 * pixels each of which is thin vertically (its column's ink run there is at most `maxThickness`),
 * so a rule that runs into a filled area (the shaded head row of a table) still counts up to it.
 */
export function removeRules(img: RawImage, level: number, paper = 255): { image: RawImage; rules: PixelRule[] } {
  if (img.channels !== 1) return { image: img, rules: [] };
  const { width: W, height: H, data } = img;
  const minLength = Math.max(40, Math.round(Math.min(W, H) / 10));
  const maxThickness = Math.max(3, Math.round(Math.min(W, H) / 250));
  // The shortest vertical rule of a framed grid (see the file comment).
  const minShort = Math.max(20, Math.round(Math.min(W, H) / 60));
  if (!longRunsBothWays(data, W, H, level, minLength, minShort)) return { image: img, rules: [] };
  const thin = thinInk(data, W, H, level, maxThickness);
  // Where two rules cross, the ink is thick both ways: a run goes on over up to `bridge` pixels of
  // ink that is not thin, so the rules of a grid are not cut into cells too short to count.
  const bridge = maxThickness + 2;
  const { rows, cols } = thinRuns(data, thin, W, H, level, bridge, minLength, minShort);
  const hBands: Band[] = [];
  const vAll: Band[] = [];
  thinBands(rows, maxThickness + 2, hBands);
  // Vertical runs as lines of columns: a band groups neighbouring columns.
  thinBands(cols, maxThickness + 2, vAll);
  // A page hatched or filled with fine lines (a texture, a halftone) is no table; past this many
  // rules pairing them up would cost more than it could bring.
  if (!hBands.length || !vAll.length || hBands.length > MAX_RULES) return { image: img, rules: [] };
  const grid = gridRules(hBands, vAll, bridge, minLength);
  if (!grid) return { image: img, rules: [] };
  return eraseRules(img, grid.hGrid, grid.vGrid, paper);
}
