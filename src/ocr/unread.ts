/**
 * Text that the page's reading left out, read on its own.
 *
 * tesseract's automatic page segmentation (mode 3) drops text it takes for noise. A page of a few short
 * lines can come back empty ("Empty page!!": the two items of a list page printed by LibreOffice, read
 * at 300 dpi), and lone short lines beside a grid whose rules were taken out are skipped ("Above" and
 * "Below" round a table of two rows); read as one block of text (mode 6) the same pixels give the words.
 *
 * The page's letters (its letter-shaped ink components, src/ocr/type-scale.ts) that no recognised word
 * covers are chained into lines: letters of like height, level with each other, a letter's height or
 * less apart. The letters are those of the ink darker than the paper's grain reaches: on a page of
 * little text Otsu's level falls into the grain of the paper, which then makes "letters" all over it.
 * Lines of at least MIN_LETTERS letters are gathered into areas; each area, with a margin of a line's
 * height above and below and three to the sides, is cropped and read as a block, and the lines of that
 * reading that tesseract is sure of, and that no word of the page holds, join the page. A page whose
 * letters were all read (nearly every page) is not read again.
 */
import type { Box, HocrBlock } from './hocr.js';
import { compactTesseractPage, type OcrLine, type OcrPage } from './page.js';
import type { RawImage } from './raw-image.js';
import { letterComponents, type Letters } from './type-scale.js';
import { histMedian } from './fills.js';

/** Letters a chain needs to be a line of text (a page number or a stray mark has fewer). */
const MIN_LETTERS = 4;
/** At most this many areas a page are read, together at most this share of the page. */
const MAX_AREAS = 8;
const MAX_SHARE = 0.25;
/** A line read in an area joins the page when its mean word confidence reaches this (0..1). */
const SURE = 0.7;

interface Letter {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const height = (b: Letter): number => b.y1 - b.y0 + 1;

/** The letters no word box covers (a word's box grown by two pixels). */
function uncovered(letters: Letters, page: OcrPage): Letter[] {
  // Word boxes by bands of 64 rows, so each letter is checked against the words near it only.
  const BAND = 64;
  const bands = new Map<number, Box[]>();
  for (const b of page.blocks)
    for (const p of b.paragraphs)
      for (const l of p.lines)
        for (const w of l.words) {
          for (let k = Math.floor(w.bbox.y0 / BAND); k <= Math.floor(w.bbox.y1 / BAND); k++) {
            const list = bands.get(k) ?? [];
            list.push(w.bbox);
            bands.set(k, list);
          }
        }
  const out: Letter[] = [];
  const bx = letters.boxes;
  for (let i = 0; i < letters.count; i++) {
    const c = { x0: bx[i * 4]!, y0: bx[i * 4 + 1]!, x1: bx[i * 4 + 2]!, y1: bx[i * 4 + 3]! };
    let covered = false;
    for (let k = Math.floor(c.y0 / BAND); k <= Math.floor(c.y1 / BAND) && !covered; k++) {
      covered = (bands.get(k) ?? []).some(
        (w) => c.x0 <= w.x1 + 2 && c.x1 >= w.x0 - 2 && c.y0 <= w.y1 + 2 && c.y1 >= w.y0 - 2,
      );
    }
    if (!covered) out.push(c);
  }
  return out;
}

/** Share of the page's letters that some recognised word covers (1 for a page without letters). */
export function letterCoverage(letters: Letters, page: OcrPage): number {
  return letters.count === 0 ? 1 : 1 - uncovered(letters, page).length / letters.count;
}

/**
 * The ink threshold the paper's grain stays clear of: five standard deviations of the grain below the
 * paper's level (the median grey), and no lighter than `level`. The grain's deviation is measured on
 * the differences between pixels three apart along the rows (their median over 0.954, as for normal
 * noise): text edges and the smooth shades of pictures barely move that median, and pixels three
 * apart are clear of the blur a JPEG's grain shares between neighbours. A clean page's grain spans a
 * few levels and this is `level`; a grainy page of little text has its Otsu level inside the grain.
 */
export function grainFreeLevel(grey: Uint8Array, width: number, height: number, level: number): number {
  const diffs = new Float64Array(256);
  const levels = new Float64Array(256);
  let n = 0;
  for (let y = 0; y < height; y += 2) {
    for (let x = 0, i = y * width; x + 3 < width; x++, i++) {
      diffs[Math.abs(grey[i]! - grey[i + 3]!)]!++;
      levels[grey[i]!]!++;
      n++;
    }
  }
  return Math.min(level, Math.round(histMedian(levels, n) - (5 * histMedian(diffs, n)) / 0.954));
}

/** Whether two letters can be neighbours on a line: like heights, level, at most a letter's height apart. */
function neighbours(a: Letter, b: Letter): boolean {
  const ha = height(a),
    hb = height(b);
  if (Math.max(ha, hb) > 2 * Math.min(ha, hb)) return false;
  const overlap = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) + 1;
  if (overlap < 0.5 * Math.min(ha, hb)) return false;
  const gap = Math.max(a.x0, b.x0) - Math.min(a.x1, b.x1);
  return gap <= Math.max(ha, hb);
}

/** Lines of unread letters: chains of neighbours, with at least MIN_LETTERS letters. */
function unreadLines(letters: Letter[]): Box[] {
  letters.sort((a, b) => a.x0 - b.x0);
  const parent = letters.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let i = 0; i < letters.length; i++) {
    const a = letters[i]!;
    const reach = a.x1 + 2 * height(a);
    for (let j = i + 1; j < letters.length && letters[j]!.x0 <= reach; j++) {
      if (neighbours(a, letters[j]!)) parent[find(j)] = find(i);
    }
  }
  const groups = new Map<number, Letter[]>();
  letters.forEach((l, i) => {
    const g = groups.get(find(i)) ?? [];
    g.push(l);
    groups.set(find(i), g);
  });
  const out: Box[] = [];
  for (const g of groups.values()) {
    if (g.length < MIN_LETTERS) continue;
    out.push({
      x0: Math.min(...g.map((l) => l.x0)),
      y0: Math.min(...g.map((l) => l.y0)),
      x1: Math.max(...g.map((l) => l.x1)),
      y1: Math.max(...g.map((l) => l.y1)),
    });
  }
  return out;
}

/**
 * Areas of the page holding text its reading left out: unread lines, those within a line's height
 * of each other gathered into one area, padded with a letter height of paper round them.
 */
export function unreadAreas(letters: Letters, page: OcrPage, width: number, height: number): Box[] {
  const lines = unreadLines(uncovered(letters, page));
  if (!lines.length) return [];
  lines.sort((a, b) => a.y0 - b.y0);
  const areas: Box[] = [];
  for (const l of lines) {
    const h = l.y1 - l.y0 + 1;
    const near = areas.find(
      (a) => l.y0 - a.y1 <= 1.5 * h && l.y1 >= a.y0 - 1.5 * h && l.x0 <= a.x1 + 2 * h && l.x1 >= a.x0 - 2 * h,
    );
    if (near)
      Object.assign(near, {
        x0: Math.min(near.x0, l.x0),
        y0: Math.min(near.y0, l.y0),
        x1: Math.max(near.x1, l.x1),
        y1: Math.max(near.y1, l.y1),
      });
    else areas.push({ ...l });
  }
  const padded = areas.map((a) => {
    const pad = Math.min(a.y1 - a.y0 + 1, 60);
    // Wider to the sides: a list's bullets stand a few letters left of the text, and letters that
    // touch make no letter-shaped components, so a line's unread letters can stop short of its ends.
    return {
      x0: Math.max(0, a.x0 - 3 * pad),
      y0: Math.max(0, a.y0 - pad),
      x1: Math.min(width - 1, a.x1 + 3 * pad),
      y1: Math.min(height - 1, a.y1 + pad),
    };
  });
  // Reading costs time by area: at most MAX_SHARE of the page is read again.
  const out: Box[] = [];
  let left = MAX_SHARE * width * height;
  for (const a of padded) {
    const size = (a.x1 - a.x0 + 1) * (a.y1 - a.y0 + 1);
    if (out.length >= MAX_AREAS || size > left) continue;
    out.push(a);
    left -= size;
  }
  return out;
}

/** An area's pixels as a binary PGM. */
function crop(px: RawImage, a: Box): Buffer {
  const w = a.x1 - a.x0 + 1;
  const h = a.y1 - a.y0 + 1;
  const out = Buffer.alloc(w * h);
  for (let y = 0; y < h; y++) px.data.copy(out, y * w, (a.y0 + y) * px.width + a.x0, (a.y0 + y) * px.width + a.x1 + 1);
  return Buffer.concat([Buffer.from(`P5\n${w} ${h}\n255\n`, 'ascii'), out]);
}

const overlaps = (a: Box, b: Box): boolean => a.x0 < b.x1 && a.x1 > b.x0 && a.y0 < b.y1 && a.y1 > b.y0;

/**
 * Reads the page's unread areas with `readBlock` (one cropped area, read as a block of text) and adds
 * the lines it is sure of, that no word of the page already holds, to the page as blocks of their own.
 * Returns how many areas were read.
 */
export async function readUnread(
  page: OcrPage,
  px: RawImage,
  letters: Letters | null,
  level: number | null,
  readBlock: (image: Buffer) => Promise<HocrBlock[]>,
): Promise<number> {
  if (!letters || level === null || px.channels !== 1) return 0;
  const safe = grainFreeLevel(px.data, px.width, px.height, level);
  if (safe < level) letters = letterComponents(px.data, px.width, px.height, safe);
  if (!letters) return 0;
  const areas = unreadAreas(letters, page, px.width, px.height);
  const words: Box[] = [];
  for (const b of page.blocks)
    for (const p of b.paragraphs) for (const l of p.lines) for (const w of l.words) words.push(w.bbox);
  for (const a of areas) {
    const read = compactTesseractPage(
      { blocks: await readBlock(crop(px, a)) },
      { pageNumber: page.pageNumber, width: 0, height: 0, rotation: 0, scale: 1, skew: 0 },
    );
    const shift = (b: Box): Box => ({ x0: b.x0 + a.x0, y0: b.y0 + a.y0, x1: b.x1 + a.x0, y1: b.y1 + a.y0 });
    for (const block of read.blocks) {
      for (const p of block.paragraphs) {
        p.lines = p.lines.filter((l) => l.confidence >= SURE && /\p{L}{2}/u.test(l.words.map((w) => w.text).join(' ')));
        for (const l of p.lines) moveLine(l, shift);
        // Words the page already holds (an area's padding takes in the edge of read text) are not added twice.
        p.lines = p.lines.filter((l) => !l.words.some((w) => words.some((o) => overlaps(w.bbox, o))));
        p.bbox = shift(p.bbox);
      }
      block.paragraphs = block.paragraphs.filter((p) => p.lines.length);
      block.bbox = shift(block.bbox);
      if (block.paragraphs.length) page.blocks.push(block);
    }
  }
  return areas.length;
}

/** Moves a line read in a crop onto the page. */
function moveLine(l: OcrLine, shift: (b: Box) => Box): void {
  l.bbox = shift(l.bbox);
  if (l.baseline) l.baseline = shift(l.baseline);
  for (const w of l.words) w.bbox = shift(w.bbox);
}
