/**
 * Bold from pixels. LSTM recognition reports no font attributes, yet the document-wide heading pass
 * weighs boldness (a bold 15 pt heading differs from a plain 15 pt one). Bold strokes are wider: the
 * mean length of horizontal ink runs inside a word, relative to its line height, stands out against
 * the page's usual text. On the generated fixtures bold lines measured 0.19-0.22 and regular ones
 * 0.14-0.16; a line is called bold at 1.25 times the page's character-weighted median.
 */
import type { OcrPage } from './page.js';
import type { RawImage } from './raw-image.js';
import { otsuLevel } from './preprocess.js';

const RATIO = 1.25;
const MIN_LINES = 5;

type Line = OcrPage['blocks'][number]['paragraphs'][number]['lines'][number];

/**
 * Judged per line, not per word: a short word has too few strokes for a steady measure, and a stray
 * bold word inside a sentence would split it (the layout engine treats a bold lead-in as a label).
 */
export function markBold(page: OcrPage, img: RawImage, greyLevel?: number): void {
  const { width, height, channels } = img;
  const grey =
    channels === 1
      ? img.data
      : Uint8Array.from({ length: width * height }, (_, i) => img.data[i * channels + 1] ?? 255);
  // The caller may know the grey image's Otsu level already (src/workers/ocr-worker.ts computes it).
  const level = channels === 1 && greyLevel !== undefined ? greyLevel : otsuLevel(grey);
  const measured: { line: Line; ratio: number; chars: number }[] = [];
  for (const b of page.blocks) {
    for (const p of b.paragraphs) {
      for (const l of p.lines) {
        let ink = 0;
        let runs = 0;
        let chars = 0;
        for (const w of l.words) {
          if (!/[\p{L}\p{N}]/u.test(w.text)) continue;
          chars += w.text.length;
          const x0 = Math.max(0, Math.floor(w.bbox.x0));
          const x1 = Math.min(width, Math.ceil(w.bbox.x1));
          const y0 = Math.max(0, Math.floor(w.bbox.y0));
          const y1 = Math.min(height, Math.ceil(w.bbox.y1));
          for (let y = y0; y < y1; y++) {
            let inRun = false;
            const row = y * width;
            for (let x = x0; x < x1; x++) {
              if (grey[row + x]! < level) {
                ink++;
                if (!inRun) {
                  runs++;
                  inRun = true;
                }
              } else inRun = false;
            }
          }
        }
        if (runs > 0 && chars > 0) measured.push({ line: l, ratio: ink / runs / Math.max(1, l.rowHeight), chars });
      }
    }
  }
  if (measured.length < MIN_LINES) return;
  const sorted = [...measured].sort((a, b) => a.ratio - b.ratio);
  const total = sorted.reduce((n, m) => n + m.chars, 0);
  let acc = 0;
  let median = sorted[0]!.ratio;
  for (const m of sorted) {
    acc += m.chars;
    if (acc >= total / 2) {
      median = m.ratio;
      break;
    }
  }
  for (const m of measured) {
    const bold = m.ratio >= median * RATIO;
    for (const w of m.line.words) w.bold = bold;
  }
}
