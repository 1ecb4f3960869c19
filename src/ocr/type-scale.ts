/**
 * Whether tesseract was told a resolution too high for the page's type, and the one to read it at
 * again.
 *
 * Tesseract's rule finder (run first in automatic page segmentation) closes gaps of resolution/60
 * pixels, keeps dark runs at least resolution/4 long and at most resolution/20 thick, and erases them
 * as rules before any recognition. A line of text whose x-height is under resolution/20 pixels, with
 * letters set closer than the closing, passes for a rule: words are cut out of it ("Patient p' its
 * with persi occurring" for "Patient presents with persistent headaches occurring"). That happens
 * where the resolution a PDF declares overstates the type's scale (a letter-size page scanned at
 * 200 dpi placed on a smaller page) or where print is small. The x-height tesseract measured on the
 * lines it did read tells whether it can happen, and the separators it reports whether it did (a bar
 * as thick as the type); the page is then read again at a resolution where that x-height clears the
 * limit with a margin.
 */
import type { Box, HocrBlock } from './hocr.js';

/** The x-height must exceed tesseract's thin-rule limit (resolution/20) by this factor. */
const MARGIN = 1.3;
/** A second reading is worth it only when the safe resolution is this far below the one told. */
const REREAD_BELOW = 0.85;
/** Never tell less than this share of the declared resolution. */
const MIN_SHARE = 0.5;
/** Fewer characters than this tell nothing about the page's type. */
const MIN_CHARS = 100;

/** The x-height of the page's body text in pixels (the median over characters), or null. */
export function bodyXHeight(blocks: readonly HocrBlock[]): number | null {
  const heights: Array<[number, number]> = [];
  let total = 0;
  for (const b of blocks) {
    for (const p of b.paragraphs) {
      for (const l of p.lines) {
        const { rowHeight, ascenders, descenders } = l.rowAttributes;
        const x = rowHeight - ascenders - descenders;
        if (!(x > rowHeight * 0.3 && x < rowHeight * 0.8)) continue;
        const chars = l.words.reduce((n, w) => n + w.text.length, 0);
        if (!chars) continue;
        heights.push([x, chars]);
        total += chars;
      }
    }
  }
  if (total < MIN_CHARS) return null;
  heights.sort((a, b) => a[0] - b[0]);
  let seen = 0;
  for (const [x, n] of heights) {
    seen += n;
    if (seen * 2 >= total) return x;
  }
  return null;
}

/**
 * The resolution to read a page again at, after a reading at `told` dpi measured this x-height; null
 * when the reading stands.
 */
export function rereadDpi(told: number, xHeight: number | null): number | null {
  if (xHeight === null) return null;
  const safe = (xHeight * 20) / MARGIN;
  if (safe >= told * REREAD_BELOW) return null;
  return Math.round(Math.max(told * MIN_SHARE, safe));
}

/**
 * Whether the rule finder took out something as thick as a line of the page's type: a horizontal
 * separator at least this share of the x-height thick. Printed rules are thinner (1-5 px at 300 dpi
 * against 12 px of small type); a line of letters closed into a bar is about an x-height thick. A page
 * whose separators are all thin lost no text, and is not read again.
 */
const ERASED_SHARE = 0.6;

export function erasedText(separators: readonly Box[], xHeight: number | null): boolean {
  if (xHeight === null) return false;
  return separators.some((b) => b.x1 - b.x0 >= (b.y1 - b.y0) * 2 && b.y1 - b.y0 >= xHeight * ERASED_SHARE);
}

/** Characters read, weighted by confidence: the better of two readings of one page has more. */
export function readingWeight(blocks: readonly HocrBlock[]): number {
  let sum = 0;
  for (const b of blocks)
    for (const p of b.paragraphs)
      for (const l of p.lines) for (const w of l.words) sum += w.text.length * Math.max(0, w.confidence);
  return sum;
}

/**
 * The x-height of a page's type in pixels, estimated from the image before any reading, or null when
 * the page has too few letters to tell.
 *
 * Ink is cut at Otsu's level into connected components; letter-shaped ones (0.4-1.6 times as wide as
 * tall) vote for their height. The commonest height is the x-height on most pages, but where letters
 * of the x-height touch their neighbours (degraded scans, typewriters) the isolated letters are mostly
 * ascenders and capitals, and their height wins the vote: a second peak under the winner, where an
 * x-height can be (LOWER_PEAK), with at least a third of its votes, is the x-height then.
 */
/**
 * Letter votes (weighted 1, 2, 1 over the winning height and its neighbours) under which the image
 * says nothing of its type. A page of text gives thousands; large type fills a page with few
 * letters (a table of a dozen rows set large gives about a hundred).
 */
const FEW_VOTES = 60;
/** Components past which a page is noise rather than text (the estimate's memory stays bounded). */
const MAX_COMPONENTS = 400_000;
/** Share of its box above which a component is a blot, not a letter (letters fill 0.3-0.6 of theirs). */
const FULL = 0.7;
/** Votes that make an estimate of small type: a reading at another resolution rests on it. */
const SMALL_VOTES = 300;
/**
 * Where the x-height can sit under the height of ascenders and capitals: 0.66 of it in Times and
 * Courier, 0.72 in Helvetica, 0.75 on typewritten and degraded scans. Dots, commas and quotes stay
 * under half.
 */
const LOWER_PEAK = [0.58, 0.86] as const;

export interface TypeEstimate {
  /** Pixels. */
  xHeight: number;
  /** Letter votes behind it (weighted 1, 2, 1 over the winning height and its neighbours). */
  votes: number;
}

/** The letter-shaped ink components of a page (see imageXHeight): boxes in image pixels. */
export interface Letters {
  /** x0, y0, x1, y1 (inclusive) of each component, one after the other. */
  boxes: Int32Array;
  count: number;
}

export function imageXHeight(
  grey: Uint8Array,
  width: number,
  height: number,
  level: number,
  maxComponents = MAX_COMPONENTS,
): TypeEstimate | null {
  const letters = letterComponents(grey, width, height, level, maxComponents);
  return letters ? xHeightOf(letters) : null;
}

/**
 * The letter-shaped connected components of the ink at `level` (0.4-1.6 times as wide as tall, 5-200
 * pixels high, filling at most FULL of their box), or null when the page has more components than
 * `maxComponents` (noise, not text).
 */
export function letterComponents(
  grey: Uint8Array,
  width: number,
  height: number,
  level: number,
  maxComponents = MAX_COMPONENTS,
): Letters | null {
  // Connected components by runs: each row's dark runs join the runs of the row above that they touch.
  const parent: number[] = [];
  const box: number[] = []; // x0, y0, x1, y1 per component
  const ink: number[] = []; // dark pixels per component
  const find = (a: number): number => {
    while (parent[a] !== a) {
      parent[a] = parent[parent[a]!]!;
      a = parent[a]!;
    }
    return a;
  };
  let prev: number[] = []; // x0, x1, label triples of the row above
  for (let y = 0; y < height; y++) {
    const cur: number[] = [];
    const row = y * width;
    let x = 0;
    let from = 0;
    while (x < width) {
      while (x < width && grey[row + x]! >= level) x++;
      if (x >= width) break;
      const x0 = x;
      while (x < width && grey[row + x]! < level) x++;
      const x1 = x - 1;
      let label = -1;
      while (from < prev.length && prev[from + 1]! < x0 - 1) from += 3;
      for (let i = from; i < prev.length && prev[i]! <= x1 + 1; i += 3) {
        const l = find(prev[i + 2]!);
        if (label < 0) label = l;
        else if (l !== label) {
          parent[l] = label;
          const a = label * 4;
          const b = l * 4;
          box[a] = Math.min(box[a]!, box[b]!);
          box[a + 1] = Math.min(box[a + 1]!, box[b + 1]!);
          box[a + 2] = Math.max(box[a + 2]!, box[b + 2]!);
          box[a + 3] = Math.max(box[a + 3]!, box[b + 3]!);
          ink[label] = ink[label]! + ink[l]!;
        }
      }
      if (label < 0) {
        // A page of text has some thousands of components; a page of noise, millions: no estimate.
        if (parent.length >= maxComponents) return null;
        label = parent.length;
        parent.push(label);
        box.push(x0, y, x1, y);
        ink.push(x1 - x0 + 1);
      } else {
        ink[label] = ink[label]! + x1 - x0 + 1;
        const a = label * 4;
        box[a] = Math.min(box[a]!, x0);
        box[a + 2] = Math.max(box[a + 2]!, x1);
        box[a + 3] = y;
      }
      cur.push(x0, x1, label);
    }
    prev = cur;
  }
  const keep: number[] = [];
  for (let i = 0; i < parent.length; i++) {
    if (parent[i] !== i) continue;
    const w = box[i * 4 + 2]! - box[i * 4]! + 1;
    const h = box[i * 4 + 3]! - box[i * 4 + 1]! + 1;
    // Letters are strokes: a component that fills most of its box is a speck of noise or a blot.
    if (h < 5 || h > 200 || w < h * 0.4 || w > h * 1.6 || ink[i]! > w * h * FULL) continue;
    keep.push(box[i * 4]!, box[i * 4 + 1]!, box[i * 4 + 2]!, box[i * 4 + 3]!);
  }
  return { boxes: Int32Array.from(keep), count: keep.length / 4 };
}

/** The x-height the letters' heights vote for (see imageXHeight), or null when they are too few. */
export function xHeightOf(letters: Letters): TypeEstimate | null {
  const votes = new Float64Array(202);
  for (let i = 0; i < letters.count; i++) {
    const h = letters.boxes[i * 4 + 3]! - letters.boxes[i * 4 + 1]! + 1;
    votes[h] = votes[h]! + 1;
  }
  // Votes over three neighbouring heights (weights 1, 2, 1), so a size that rounds either way still
  // counts as one and a tie goes to the middle.
  const near = (h: number) => votes[h - 1]! + 2 * votes[h]! + votes[h + 1]!;
  let top = 5;
  for (let h = 6; h <= 200; h++) if (near(h) > near(top)) top = h;
  if (near(top) < FEW_VOTES) return null;
  let lower = 0;
  for (let h = Math.ceil(top * LOWER_PEAK[0]); h <= Math.floor(top * LOWER_PEAK[1]); h++) {
    if (near(h) >= near(top) / 3 && (lower === 0 || near(h) > near(lower))) lower = h;
  }
  return lower ? { xHeight: lower, votes: near(lower) } : { xHeight: top, votes: near(top) };
}

/**
 * Large type: tesseract reads best with capitals about 30 pixels high (an x-height near 20); type
 * far above that reads worse, not better ("5" alone in a table cell, 70 pixels high, comes out as
 * "s)"), and costs time on pixels that add nothing. A page whose body x-height is over LARGE_X
 * pixels is scaled down to an x-height of TARGET_X before reading. Tiny type is not scaled up: on
 * fixtures/ocr/tinyprint.pdf (5.5 pt scanned at 200 dpi, an x-height of 9 px) scaling by 1.3-2
 * raised the character error rate from 1.3% to 15-24%, whatever resolution tesseract was told.
 */
const LARGE_X = 40;
const TARGET_X = 28;

/** The factor to scale a page image by before reading it (1: as it is). */
export function scaleFor(estimate: TypeEstimate | null): number {
  if (!estimate || estimate.xHeight <= LARGE_X) return 1;
  return TARGET_X / estimate.xHeight;
}

/** The resolution to tell tesseract for a first reading, from the image's estimate of its type. */
export function firstDpi(told: number, estimate: TypeEstimate | null): number {
  if (!estimate || estimate.votes < SMALL_VOTES) return told;
  return rereadDpi(told, estimate.xHeight) ?? told;
}
