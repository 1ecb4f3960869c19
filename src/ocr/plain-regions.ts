/**
 * "Do no harm", line by line: where the processed reading of a doubtful page read a line worse than the
 * plain grey render did, the plain reading's words take that line's place; everything else, the
 * processed reading's rules, deskew and lines, stays.
 *
 * Keeping one reading for the whole page (src/ocr/plain-reading.ts) loses either way on pages that are
 * partly hurt: a scanned table whose processed reading lost the decimal points of its figures ("1701|"
 * for "17.01", read after the deskew and rule removal; camelot/agstat.pdf scanned at 200 dpi: word bag
 * 0.66 processed, 0.84 plain) still needs the processed reading's rules to lay its grid out, and a page
 * kept as its plain reading is laid out without them. So the plain reading is mapped into the processed
 * reading's frame (undoing the deskew and the scale) and compared line by line, on the engine's own
 * evidence: its confident dictionary words (or numbers) in the line's area.
 */
import type { Box } from './hocr.js';
import { linesOf, wordsOf, type OcrLine, type OcrPage, type OcrWord } from './ocr-page.js';
import { dictionaryWord } from './plain-reading.js';

/** A word is confident from this confidence (0..1). */
const CONFIDENT = 0.8;
/**
 * The plain line wins where it has at least this many more confident words than the processed words in
 * its area, and at least WIN_SHARE more than they do: a line both readings read about as well stays.
 */
const WIN_BY = 2;
const WIN_SHARE = 1.5;
/** A plain word lands on a processed one when their centres are this share of the word's height apart. */
const SAME_PLACE = 0.6;

/** How the plain reading's pixels sit over the processed reading's: a turn about the centre, then a scale. */
interface Frame {
  /** Degrees clockwise. */
  degrees: number;
  cx: number;
  cy: number;
  ratio: number;
}

function mapBox(b: Box, f: Frame): Box {
  const t = (f.degrees * Math.PI) / 180;
  const cos = Math.cos(t);
  const sin = Math.sin(t);
  const mx = (b.x0 + b.x1) / 2 - f.cx;
  const my = (b.y0 + b.y1) / 2 - f.cy;
  const x = (f.cx + mx * cos - my * sin) * f.ratio;
  const y = (f.cy + mx * sin + my * cos) * f.ratio;
  const hw = ((b.x1 - b.x0) / 2) * f.ratio;
  const hh = ((b.y1 - b.y0) / 2) * f.ratio;
  return { x0: Math.round(x - hw), y0: Math.round(y - hh), x1: Math.round(x + hw), y1: Math.round(y + hh) };
}

const centre = (b: Box) => ({ x: (b.x0 + b.x1) / 2, y: (b.y0 + b.y1) / 2 });
const inside = (p: { x: number; y: number }, b: Box) => p.x >= b.x0 && p.x <= b.x1 && p.y >= b.y0 && p.y <= b.y1;

/** How many words of `plain`, mapped by `f`, land on a processed word of the same text. */
function agreement(plain: readonly OcrWord[], processed: readonly OcrWord[], f: Frame): number {
  let n = 0;
  for (const w of plain) {
    if (w.text.length < 3) continue;
    const c = centre(mapBox(w.bbox, f));
    const tol = SAME_PLACE * (w.bbox.y1 - w.bbox.y0) * f.ratio;
    if (processed.some((o) => o.text === w.text && Math.hypot(centre(o.bbox).x - c.x, centre(o.bbox).y - c.y) <= tol))
      n++;
  }
  return n;
}

const confident = (words: readonly OcrWord[]) =>
  words.filter((w) => w.confidence >= CONFIDENT && dictionaryWord(w.text)).length;

/** Lines the plain reading took over, for the caller's report. */
export interface RegionMerge {
  lines: number;
  words: number;
}

/**
 * Replaces, in `processed`, the words of each area where the plain reading's line has far more confident
 * words (see WIN_BY) by that line's words, moved into the processed frame. `plainSize` is the plain
 * image's size in pixels; `skew` the degrees the processed image was turned by (its `skew`, undone by
 * turning the other way), `ratio` the processed pixels per plain pixel. The turn's direction is taken
 * from the words: the one that lays more plain words on processed words of the same text.
 */
export function mergePlainLines(
  processed: OcrPage,
  plain: OcrPage,
  plainSize: { width: number; height: number },
  ratio: number,
): RegionMerge {
  const mine = [...wordsOf(processed)];
  const theirs = [...wordsOf(plain)];
  const frames = [-processed.skew, processed.skew].map((degrees) => ({
    degrees,
    cx: plainSize.width / 2,
    cy: plainSize.height / 2,
    ratio,
  }));
  const frame = frames.reduce((a, b) => (agreement(theirs, mine, b) > agreement(theirs, mine, a) ? b : a));
  let lines = 0;
  let words = 0;
  const taken: OcrLine[] = [];
  // The processed words still in the page (the page's own walk, less what plain lines took).
  let left = mine;
  for (const l of linesOf(plain)) {
    const moved = l.words.map((w) => ({ ...w, bbox: mapBox(w.bbox, frame) }));
    const area = {
      x0: Math.min(...moved.map((w) => w.bbox.x0)),
      y0: Math.min(...moved.map((w) => w.bbox.y0)),
      x1: Math.max(...moved.map((w) => w.bbox.x1)),
      y1: Math.max(...moved.map((w) => w.bbox.y1)),
    };
    const here = left.filter((w) => inside(centre(w.bbox), area));
    const gain = confident(moved);
    const kept = confident(here);
    if (gain < kept + WIN_BY || gain < kept * WIN_SHARE) continue;
    const gone = new Set(here);
    removeWords(processed, gone);
    left = left.filter((w) => !gone.has(w));
    taken.push({ ...l, words: moved, bbox: area, ...(l.baseline ? { baseline: mapBox(l.baseline, frame) } : {}) });
    lines++;
    words += moved.length;
  }
  for (const l of taken) {
    processed.blocks.push({
      paragraphs: [{ lines: [l], bbox: l.bbox, confidence: l.confidence }],
      bbox: l.bbox,
      confidence: l.confidence,
    });
  }
  return { lines, words };
}

/** Takes `gone` out of the page, and the lines, paragraphs and blocks left empty. */
function removeWords(page: OcrPage, gone: Set<OcrWord>): void {
  if (!gone.size) return;
  for (const b of page.blocks) {
    for (const p of b.paragraphs) {
      for (const l of p.lines) l.words = l.words.filter((w) => !gone.has(w));
      p.lines = p.lines.filter((l) => l.words.length);
    }
    b.paragraphs = b.paragraphs.filter((p) => p.lines.length);
  }
  page.blocks = page.blocks.filter((b) => b.paragraphs.length);
}
