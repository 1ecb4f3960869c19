/**
 * Shaded areas of a scanned page (the grey or coloured head row of a table, a shaded box) turned
 * to paper white before recognition.
 *
 * tesseract binarises the whole page at one threshold (Otsu's). On a page of white paper with a
 * shaded area, that threshold falls between the paper and the shade, so the area becomes a block of
 * black: its text is lost, and page segmentation, taking the block for a picture, can lose the text
 * around it too (a ruled table under a shaded head row read as an empty page). A shade shows in the
 * grey-level histogram as a second narrow peak below the paper's; stretching the levels so that this
 * peak (and everything lighter) is white keeps dark text on the shade and on the paper as it was.
 * A photograph or a gradient spreads over many levels and makes no narrow peak, so it is left alone.
 */

/** Share of the page a shade must cover to count (a shaded head row of a table is about 2%). */
const MIN_SHARE = 0.005;
/** How much higher than the valleys either side of it a shade's peak must stand. */
const PROMINENCE = 2;

export interface FillLevels {
  /** Grey level of the paper (the most common light level). */
  paper: number;
  /** Grey level of the darkest shade found, or null when there is none. */
  shade: number | null;
  /** The level from which the shade's levels run up (the valley below it): white after flattening. */
  white: number | null;
}

/** The median level of a histogram of `n` values (the first level at which half of them are counted). */
export function histMedian(hist: ArrayLike<number>, n: number): number {
  let seen = 0;
  for (let v = 0; v < 256; v++) if ((seen += hist[v]!) * 2 >= n) return v;
  return 255;
}

/** Count of each grey level. */
export function greyHistogram(grey: Uint8Array): Float64Array {
  // Two integer tables filled alternately: neighbouring pixels of one level do not wait on each other's
  // increment (half the time of one float table on a page of 8 million pixels).
  const a = new Uint32Array(256);
  const b = new Uint32Array(256);
  const n = grey.length;
  let i = 0;
  for (; i + 1 < n; i += 2) {
    a[grey[i]!]!++;
    b[grey[i + 1]!]!++;
  }
  if (i < n) a[grey[i]!]!++;
  const hist = new Float64Array(256);
  for (let k = 0; k < 256; k++) hist[k] = a[k]! + b[k]!;
  return hist;
}

/** The paper's level and the darkest shaded level of a grey-level histogram. */
export function fillLevels(hist: Float64Array): FillLevels {
  let total = 0;
  for (let v = 0; v < 256; v++) total += hist[v]!;
  // Smoothed over 7 levels: a scan's noise makes a flat tint a hill, not a spike.
  const sm = new Float64Array(256);
  for (let v = 0; v < 256; v++) {
    let m = 0;
    for (let d = -3; d <= 3; d++) m += hist[Math.max(0, Math.min(255, v + d))]!;
    sm[v] = m / 7;
  }
  let paper = 255;
  for (let v = 128; v <= 255; v++)
    if (sm[v]! > sm[paper]! || (sm[v] === sm[paper] && hist[v]! > hist[paper]!)) paper = v;
  const minOf = (a: number, b: number): number => {
    let m = Infinity;
    for (let v = Math.max(0, a); v <= Math.min(255, b); v++) m = Math.min(m, sm[v]!);
    return m;
  };
  // Shades between a light mid grey and a little below the paper; darker ones carry light text
  // (reversed out), which this would lose, and a blurred scan's text edges pile up there too. The
  // darkest one that stands out between its valleys counts.
  for (let v = 140; v <= paper - 25; v++) {
    if (sm[v]! < minOf(v - 5, v + 5) || sm[v]! * 31 < total * MIN_SHARE) continue;
    if (sm[v]! < PROMINENCE * minOf(v + 5, paper - 10) || sm[v]! < PROMINENCE * minOf(v - 40, v - 5)) continue;
    // White from the valley below the shade, where its levels end and the ink's begin.
    let white = v - 5;
    for (let u = v - 5; u >= Math.max(0, v - 40); u--) if (sm[u]! < sm[white]!) white = u;
    return { paper, shade: v, white };
  }
  return { paper, shade: null, white: null };
}

/**
 * The grey-level map that puts level `white` (where a shade's levels begin) and everything lighter
 * at white and stretches darker levels in proportion.
 */
export function flattenMap(white: number): Uint8Array {
  const map = new Uint8Array(256);
  for (let v = 0; v < 256; v++) map[v] = v >= white ? 255 : Math.round((v * 255) / white);
  return map;
}

/** `grey` through `map`, in a new buffer; `hist` (its histogram) through it as well. */
export function applyMap(grey: Buffer, hist: Float64Array, map: Uint8Array): { grey: Buffer; hist: Float64Array } {
  const out = Buffer.allocUnsafe(grey.length);
  for (let i = 0; i < grey.length; i++) out[i] = map[grey[i]!]!;
  const mapped = new Float64Array(256);
  for (let v = 0; v < 256; v++) mapped[map[v]!]! += hist[v]!;
  return { grey: out, hist: mapped };
}

/**
 * Whether the shade is laid as areas, not only as the edges of letters or the grey of blurred rules:
 * on every fourth row, pixels of the shade (within 12 levels) whose neighbours 4 pixels right and 4
 * pixels down are of it too must make up 0.2% of the pixels read (a shaded head row of a table
 * gives several times that; letters and rules, which are thin one way or the other, hardly any).
 */
export function shadeIsArea(grey: Uint8Array, width: number, height: number, shade: number): boolean {
  const near = (i: number): boolean => Math.abs(grey[i]! - shade) <= 12;
  let inside = 0;
  let read = 0;
  for (let y = 0; y + 4 < height; y += 4) {
    const base = y * width;
    for (let x = 0; x + 4 < width; x++) {
      const i = base + x;
      if (near(i) && near(i + 4) && near(i + 4 * width)) inside++;
    }
    read += width;
  }
  return inside >= read * 0.002;
}
