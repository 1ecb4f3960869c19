/**
 * Image clean-up before recognition, with sharp. Each step is optional so the benchmark can measure
 * what it buys (bench/ocr.ts); `DEFAULT_PREPROCESS` keeps only the steps that lowered the character
 * error rate there (see bench/README.md, "OCR").
 */
import sharp from 'sharp';
import { applyMap, fillLevels, flattenMap, greyHistogram, shadeIsArea } from './fills.js';
import { removeRules, type PixelRule } from './rules.js';
import { evenLight, isNegative } from './illumination.js';
import { speckled } from './specks.js';
import type { RawImage } from './raw-image.js';
import { barReach, findBars, invertBars, rulesThroughBars, type Bar } from './bars.js';

export interface PreprocessOptions {
  /** One grey channel: a third of the bytes to encode and hand over, and what tesseract reads anyway. */
  grayscale: boolean;
  /** Stretch the histogram so faint or greyed scans get full contrast. */
  normalize: boolean;
  /** Threshold to pure black and white: a grey level (0..255), 'otsu' to pick it per page, or false. */
  threshold: number | 'otsu' | false;
  /** Estimate and undo small rotations (±5°) of the page. */
  deskew: boolean;
  /**
   * Turn a negative page (white type on black) positive, and even out light that fades across a grey
   * page, before anything thresholds it (src/ocr/illumination.ts).
   */
  evenLight?: boolean;
  /** Smooth a page strewn with specks by a 3 × 3 median (src/ocr/specks.ts). */
  despeckle?: boolean;
  /** Turn light type on dark bars of a grey page into dark type on paper (src/ocr/bars.ts). */
  invertBars?: boolean;
  /** Turn shaded areas of a grey page to paper white (src/ocr/fills.ts). */
  flattenFills?: boolean;
  /** Take ruling lines (table and form rules) out of a grey page and report them (src/ocr/rules.ts). */
  removeRules?: boolean;
}

export const DEFAULT_PREPROCESS: PreprocessOptions = {
  grayscale: true,
  normalize: false,
  threshold: false,
  deskew: true,
  evenLight: true,
  despeckle: true,
  invertBars: true,
  flattenFills: true,
  removeRules: true,
};

/**
 * Skew angle in degrees (positive: the text rises to the right as drawn, so rotating by the negative
 * straightens it), from the sharpest horizontal projection profile of dark pixels on a reduced copy.
 */
async function estimateSkew(img: RawImage): Promise<number> {
  const targetW = Math.min(1000, img.width);
  let pipeline = sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } });
  if (img.channels !== 1) pipeline = pipeline.removeAlpha().grayscale();
  // A linear reduction is enough for a profile of ink rows (the default lanczos3 found the same angles
  // on the benchmark pages for a third more CPU).
  const { data, info } = await pipeline
    .resize({ width: targetW, kernel: 'linear' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const w = info.width;
  const h = info.height;
  const stride = info.channels;
  let dark = 0;
  for (let i = 0; i < data.length; i += stride) if (data[i]! < 128) dark++;
  if (dark < 200) return 0;
  // Every k-th dark pixel is enough for the profile and keeps the ~50 angle trials cheap on dense pages.
  const every = Math.max(1, Math.ceil(dark / 60_000));
  const xs = new Float64Array(Math.ceil(dark / every));
  const ys = new Float64Array(xs.length);
  let n = 0;
  let seen = 0;
  for (let y = 0; y < h; y++) {
    const row = y * w * stride;
    for (let x = 0; x < w; x++) {
      if (data[row + x * stride]! < 128 && seen++ % every === 0) {
        xs[n] = x;
        ys[n] = y;
        n++;
      }
    }
  }
  const bins = new Int32Array(h * 2 + w);
  const off = w;
  const score = (deg: number) => {
    const t = (deg * Math.PI) / 180;
    const sin = Math.sin(t);
    const cos = Math.cos(t);
    bins.fill(0);
    // `off` keeps every value positive (|x sin| < w), so truncating after adding 0.5 rounds as Math.round
    // does, at a fraction of the cost over ~50 trials of up to 60,000 points.
    const top = bins.length;
    for (let i = 0; i < n; i++) {
      const yy = (ys[i]! * cos - xs[i]! * sin + off + 0.5) | 0;
      if (yy < top) bins[yy]!++;
    }
    let s = 0;
    for (let i = 0; i < bins.length; i++) s += bins[i]! * bins[i]!;
    return s;
  };
  let best = 0;
  let bestScore = score(0);
  for (let d = -5; d <= 5.0001; d += 0.25) {
    const sc = score(d);
    if (sc > bestScore) {
      bestScore = sc;
      best = d;
    }
  }
  for (let d = best - 0.2; d <= best + 0.2001; d += 0.05) {
    const sc = score(d);
    if (sc > bestScore) {
      bestScore = sc;
      best = d;
    }
  }
  return Math.abs(best) < 0.1 ? 0 : Math.round(best * 100) / 100;
}

/** Otsu's threshold of a grey image: the level that best separates ink from paper. */
export function otsuLevel(grey: Uint8Array): number {
  return otsuOfHistogram(greyHistogram(grey));
}

/** Otsu's threshold from a grey-level histogram. */
function otsuOfHistogram(hist: Float64Array): number {
  let total = 0;
  for (let i = 0; i < 256; i++) total += hist[i]!;
  let sumAll = 0;
  for (let i = 0; i < 256; i++) sumAll += i * hist[i]!;
  let wB = 0;
  let sumB = 0;
  let best = 128;
  let bestVar = -1;
  for (let t = 0; t < 256; t++) {
    wB += hist[t]!;
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * hist[t]!;
    const mB = sumB / wB;
    const mF = (sumAll - sumB) / wF;
    const v = wB * wF * (mB - mF) * (mB - mF);
    if (v > bestVar) {
      bestVar = v;
      best = t;
    }
  }
  return Math.max(1, Math.min(254, best + 1));
}

/** Undoes a small rotation, keeping the canvas size so word boxes still map onto the page. */
async function rotateKeepingSize(img: RawImage, degrees: number): Promise<RawImage> {
  let rotate = sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } }).rotate(
    degrees,
    { background: '#ffffff' },
  );
  // A grey page stays one channel (sharp would otherwise widen it to sRGB for the white background).
  if (img.channels === 1) rotate = rotate.toColourspace('b-w');
  const r = await rotate.raw().toBuffer({ resolveWithObject: true });
  const left = Math.max(0, Math.floor((r.info.width - img.width) / 2));
  const top = Math.max(0, Math.floor((r.info.height - img.height) / 2));
  const out = await sharp(r.data, { raw: { width: r.info.width, height: r.info.height, channels: r.info.channels } })
    .extract({ left, top, width: Math.min(img.width, r.info.width), height: Math.min(img.height, r.info.height) })
    .toColourspace(r.info.channels === 1 ? 'b-w' : 'srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: out.data, width: out.info.width, height: out.info.height, channels: out.info.channels as 1 | 3 | 4 };
}

/** One grey channel from RGB(A) pixels, in one pass of sharp. */
async function toGrey(img: RawImage): Promise<RawImage> {
  if (img.channels === 1) return img;
  const { data, info } = await sharp(img.data, {
    raw: { width: img.width, height: img.height, channels: img.channels },
  })
    .removeAlpha()
    .grayscale()
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 1 };
}

/**
 * Applies the chosen steps and returns the image for the recogniser, plus the angle undone. The image
 * is a binary PGM (or PPM when colour is kept): leptonica reads it without decompressing anything, and
 * producing it costs no encoding. Grey pages go grey first, so the skew estimate and the rotation work
 * on one channel instead of four.
 */
export async function preprocess(
  img: RawImage,
  opts: PreprocessOptions,
): Promise<{
  image: Buffer;
  pixels: RawImage;
  width: number;
  height: number;
  skew: number;
  rules: PixelRule[];
  bars: Bar[];
  paper: number;
  evenedLight: boolean;
  negative: boolean;
  despeckled: boolean;
}> {
  const grey = opts.grayscale || opts.threshold !== false;
  let src = grey ? await toGrey(img) : img;
  // First: the skew estimate already counts dark pixels at one level.
  let negative = false;
  let evened: Buffer | null = null;
  // Otsu's level of the page as it stands, while nothing has changed it.
  let level = src.channels === 1 && (opts.evenLight || opts.despeckle) ? otsuLevel(src.data) : 0;
  if (opts.evenLight && src.channels === 1) {
    negative = isNegative(src.data, level);
    if (negative) src = { ...src, data: Buffer.from(src.data.map((v) => 255 - v)) };
    evened = evenLight(src.data, src.width, src.height);
    if (evened) src = { ...src, data: evened };
    if (negative || evened) level = otsuLevel(src.data);
  }
  let despeckled = false;
  if (opts.despeckle && src.channels === 1 && speckled(src.data, src.width, src.height, level)) {
    const { data } = await sharp(src.data, { raw: { width: src.width, height: src.height, channels: 1 } })
      .median(3)
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    src = { ...src, data };
    despeckled = true;
  }
  const skew = opts.deskew ? await estimateSkew(src) : 0;
  if (skew !== 0) src = await rotateKeepingSize(src, -skew);
  let rules: PixelRule[] = [];
  let paper = 255;
  let bars: Bar[] = [];
  if ((opts.invertBars || opts.flattenFills || opts.removeRules) && src.channels === 1) {
    // One histogram serves the bars, the shade, the paper and the ink threshold.
    let hist = greyHistogram(src.data);
    let levels = fillLevels(hist);
    // The shade is judged on the page as scanned, bars and all, so that outside its bars a page with
    // bars is flattened and its rules found exactly as before; a bar's type is ink after inverting,
    // darker than any shade's level.
    const flatten =
      opts.flattenFills && levels.white !== null && shadeIsArea(src.data, src.width, src.height, levels.shade!);
    if (opts.invertBars) bars = findBars(src.data, src.width, src.height, levels.paper);
    if (bars.length) src = { ...src, data: invertBars(src.data, src.width, src.height, bars, levels.paper) };
    // Shades first: a rule inside a shaded head row is then thin ink on white like the others.
    if (flatten) {
      const flat = applyMap(src.data, hist, flattenMap(levels.white!));
      src = { ...src, data: flat.grey };
      hist = flat.hist;
      levels = fillLevels(hist);
    }
    // After the deskew, so that rules run along the pixel rows and columns.
    if (opts.removeRules) ({ image: src, rules } = removeRules(src, otsuOfHistogram(hist), levels.paper));
    if (bars.length && rules.length) rules = rulesThroughBars(rules, bars, barReach(src.width, src.height));
    paper = levels.paper;
  }
  let out: RawImage = src;
  if (opts.normalize || opts.threshold !== false || src.channels === 4) {
    let s = sharp(src.data, { raw: { width: src.width, height: src.height, channels: src.channels } });
    if (grey) s = s.toColourspace('b-w');
    if (opts.normalize) s = s.normalise();
    if (opts.threshold !== false) {
      const level = opts.threshold === 'otsu' ? otsuLevel(await s.clone().raw().toBuffer()) : opts.threshold;
      s = s.threshold(level);
    }
    // Colour stays colour only when grayscale was not asked for; alpha never reaches the recogniser.
    const { data, info } = await s.removeAlpha().raw().toBuffer({ resolveWithObject: true });
    out = { data, width: info.width, height: info.height, channels: info.channels as 1 | 3 };
  }
  const header = Buffer.from(`${out.channels === 1 ? 'P5' : 'P6'}\n${out.width} ${out.height}\n255\n`, 'ascii');
  return {
    image: Buffer.concat([header, out.data]),
    pixels: { data: out.data, width: out.width, height: out.height, channels: out.channels === 1 ? 1 : 3 },
    width: out.width,
    height: out.height,
    skew,
    rules,
    bars,
    paper,
    evenedLight: evened !== null,
    negative,
    despeckled,
  };
}

export type Preprocessed = Awaited<ReturnType<typeof preprocess>>;

/**
 * A preprocessed grey page scaled by `factor` (below 1: large type brought to the size tesseract
 * reads best, src/ocr/type-scale.ts), its rules moved with it.
 */
export async function scalePreprocessed(pre: Preprocessed, factor: number): Promise<Preprocessed> {
  const px = pre.pixels;
  const width = Math.max(1, Math.round(px.width * factor));
  let s = sharp(px.data, { raw: { width: px.width, height: px.height, channels: px.channels } }).resize({ width });
  if (px.channels === 1) s = s.toColourspace('b-w');
  const { data, info } = await s.raw().toBuffer({ resolveWithObject: true });
  const channels = info.channels === 1 ? 1 : 3;
  const fx = info.width / px.width,
    fy = info.height / px.height;
  const header = Buffer.from(`${channels === 1 ? 'P5' : 'P6'}\n${info.width} ${info.height}\n255\n`, 'ascii');
  return {
    ...pre,
    image: Buffer.concat([header, data]),
    pixels: { data, width: info.width, height: info.height, channels },
    width: info.width,
    height: info.height,
    rules: pre.rules.map((r) => ({
      x0: r.x0 * fx,
      y0: r.y0 * fy,
      x1: r.x1 * fx,
      y1: r.y1 * fy,
      thickness: r.thickness * fy,
    })),
  };
}
