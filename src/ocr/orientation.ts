/**
 * Pages fed sideways or upside down. tesseract.js can only detect orientation with the legacy engine
 * and an OSD model (`worker.detect` refuses to run on the LSTM-only core docmill loads, and the legacy
 * core plus osd.traineddata would be a second, larger engine per thread), so docmill decides from the
 * recognition itself, which costs nothing on an upright page:
 *
 * - Upside down: tesseract reads a turned page with a mean word confidence of 0.21-0.42 (measured on
 *   the generated scans and the corpus' scanned pages) against 0.73-0.96 upright. A page read with many
 *   words below `LOW_CONFIDENCE` is probed first: the middle third of the page, turned by 180 degrees,
 *   is read alone (about a third of a page's work) and compared with the first reading's words there;
 *   only when the turned band reads clearly better is the whole page read again turned, and the better
 *   reading kept. A poor but upright scan so costs a third more, not double.
 * - Sideways: tesseract's layout analysis finds vertical text lines and reads a page turned one way
 *   (90 degrees clockwise) itself, but its boxes then stand on end, which the layout engine cannot
 *   use; the other way (270) reads as upside down. So after the check above, a page whose lines are
 *   mostly taller than wide is turned upright and read again.
 */
import sharp from 'sharp';
import { linesOf } from './ocr-page.js';
import type { OcrPage } from './page.js';
import type { RawImage } from './raw-image.js';

/** Below this mean word confidence a page is read again turned by 180 degrees. */
const LOW_CONFIDENCE = 0.6;
/** A turned reading must beat the first by this much (confidence is noisy on poor scans). */
export const BETTER_BY = 0.1;
/** Fewer words than this: a blank or near-blank page, not worth a second reading. */
export const MIN_WORDS = 10;

function wordCount(page: OcrPage): number {
  let n = 0;
  for (const l of linesOf(page)) n += l.words.length;
  return n;
}

/** Worth reading again turned by 180 degrees. */
export function maybeUpsideDown(page: OcrPage): boolean {
  return page.confidence < LOW_CONFIDENCE && wordCount(page) >= MIN_WORDS;
}

/** Mean confidence and number of the words whose centres lie between rows `top` and `bottom`. */
export function bandConfidence(page: OcrPage, top: number, bottom: number): { confidence: number; words: number } {
  let sum = 0;
  let n = 0;
  for (const b of page.blocks) {
    for (const p of b.paragraphs) {
      for (const l of p.lines) {
        for (const w of l.words) {
          const cy = (w.bbox.y0 + w.bbox.y1) / 2;
          if (cy >= top && cy < bottom) {
            sum += w.confidence;
            n++;
          }
        }
      }
    }
  }
  return { confidence: n ? sum / n : 0, words: n };
}

/** The image turned clockwise by a multiple of 90 degrees. */
export async function turnImage(img: RawImage, degrees: number): Promise<RawImage> {
  if (degrees % 360 === 0) return img;
  let s = sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } }).rotate(degrees);
  if (img.channels === 1) s = s.toColourspace('b-w');
  const { data, info } = await s.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 1 | 3 | 4 };
}
