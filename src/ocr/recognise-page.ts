/**
 * One page of a document recognised and laid out: rendered (or its scan image decoded), cleaned up,
 * read by tesseract (at the resolution its type needs, turned the right way up), with the doubtful cells
 * of a scanned grid and the areas the reading left out read again, bold marked and the words laid out.
 * Runs in an OCR pool thread (workers/ocr-worker.ts), but needs none: given an opened document and an
 * engine, it is a plain async function.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { OcrEngine } from './engine.js';
import type { HocrBlock } from './hocr.js';
import { pageImageForOcr, type OcrImage } from './render.js';
import { otsuLevel, preprocess, scalePreprocessed } from './preprocess.js';
import type { RawImage } from './raw-image.js';
import {
  bodyXHeight,
  erasedText,
  firstDpi,
  letterComponents,
  readingWeight,
  rereadDpi,
  type Letters,
  scaleFor,
  xHeightOf,
} from './type-scale.js';
import { BETTER_BY, bandConfidence, maybeUpsideDown, MIN_WORDS, turnImage } from './orientation.js';
import { compactTesseractPage, meanConfidence, verticalShare, type OcrPage } from './page.js';
import { layoutOcrPage, layoutPlainReading } from './layout.js';
import { markBold } from './bold.js';
import { rereadGridCells } from './cells.js';
import { grainFreeLevel, letterCoverage, readUnread } from './unread.js';
import { evidenceOf, isDoubtful, PLAIN_PREPROCESS, plainReadsBetter } from './plain-reading.js';
import { mergePlainLines } from './plain-regions.js';
import { networkAttempts } from './offline.js';
import type { LinkArea } from '../layout/types.js';
import { linkAreas, readAnnotations, type Matrix, type PdfObjects } from './pdf-seam.js';
import type { OcrTask, OcrTaskResult } from './protocol.js';
import type { ModelSource } from './models.js';
import { OWN_SCRIPT_CONFIDENCE, SCRIPT_BETTER_BY, scriptCandidates } from './scripts.js';

/** A page read counts as mostly vertical text (so read sideways) when more than this share of it is. */
const VERTICAL_SHARE = 0.5;

/** An opened document: pdf.js's view for rendering and the directly read objects (scan images, links). */
export interface OpenedForOcr {
  doc: PDFDocumentProxy;
  objects: PdfObjects;
}

/** The page being recognised: its image as rendered, the task, the engine, and what the readings cost. */
interface PageRun {
  task: OcrTask;
  eng: OcrEngine;
  rendered: OcrImage;
  base: RawImage;
  preprocessMs: number;
  recognizeMs: number;
  /** Recognitions run for this page: 1, plus the orientation check's probe and re-readings. */
  readings: number;
}

type Reading = Awaited<ReturnType<typeof readTurned>>;

/** The page's URL link areas in its upright view at 72 dpi, the frame the recognised words are given in. */
async function pageLinks(doc: PDFDocumentProxy, objects: PdfObjects, pageNumber: number): Promise<LinkArea[]> {
  try {
    const page = await doc.getPage(pageNumber);
    const viewport = page.getViewport({ scale: 1 });
    return linkAreas(
      await readAnnotations(page, objects),
      viewport.transform as Matrix,
      viewport.width,
      viewport.height,
    );
  } catch {
    return [];
  }
}

/**
 * tesseract's automatic page segmentation (mode 3) can find no text at all on a page full of it: a
 * page of Hangul at 200 or 300 dpi comes back empty with the `kor` model, while the same image read as
 * one column of text (mode 4) gives every line at a mean confidence of 93 (fixtures/ocr/scripts/
 * korean.pdf). A page read as fewer words than EMPTY_WORDS, whose image shows at least EMPTY_LETTERS letters,
 * is read again in mode 4, and that reading kept where it covers the letters the image shows.
 */
const EMPTY_WORDS = 2;
const EMPTY_LETTERS = 16;
const COLUMN_PSM = '4';
/**
 * The column reading is kept only where its words cover this share of the page's letters: read in a
 * model of another script, the same Hangul page gives six two-letter "words" at a confidence of 0.8
 * that cover few of its letters, and those must not pass for a reading of the page.
 */
const COLUMN_COVERAGE = 0.6;

function wordless(blocks: readonly HocrBlock[]): boolean {
  let words = 0;
  for (const b of blocks) for (const p of b.paragraphs) for (const l of p.lines) words += l.words.length;
  return words < EMPTY_WORDS;
}

/**
 * The page's letters without the paper's grain (src/ocr/unread.ts, grainFreeLevel): on a page of
 * little text Otsu's level falls into the grain, and the letters counted at it (55,666 on a scanned
 * page of two list items) say nothing of the text there is to read.
 */
function inkLetters(px: RawImage, level: number | null, letters: Letters | null): Letters | null {
  if (!letters || level === null || px.channels !== 1) return letters;
  const safe = grainFreeLevel(px.data, px.width, px.height, level);
  return safe < level ? letterComponents(px.data, px.width, px.height, safe) : letters;
}

const inkOfReading = new WeakMap<object, Letters | null>();

/** `inkLetters` of a reading, worked out once. */
function readingInk(r: Reading): Letters | null {
  if (!inkOfReading.has(r)) inkOfReading.set(r, inkLetters(r.pixels, r.level, r.letters));
  return inkOfReading.get(r)!;
}

/** One reading of the page turned clockwise by `turn` degrees (0 for the page as it is). */
async function readTurned(run: PageRun, turn: number) {
  const { task, eng, rendered } = run;
  const a = performance.now();
  let pre = await preprocess(await turnImage(run.base, turn), task.preprocess);
  // What the image shows of its type before any reading (src/ocr/type-scale.ts): large type is
  // scaled down to the size tesseract reads best.
  const px = pre.pixels;
  let level = px.channels === 1 ? otsuLevel(px.data) : null;
  // The page's letters: their heights tell the type's size, and after the reading, the letters no
  // word covers tell what it left out (src/ocr/unread.ts).
  let letters = level !== null ? letterComponents(px.data, px.width, px.height, level) : null;
  const guess = letters ? xHeightOf(letters) : null;
  const factor = scaleFor(guess);
  if (factor !== 1) {
    pre = await scalePreprocessed(pre, factor);
    level = pre.pixels.channels === 1 ? otsuLevel(pre.pixels.data) : null;
    letters = level !== null ? letterComponents(pre.pixels.data, pre.pixels.width, pre.pixels.height, level) : null;
  }
  const scale = rendered.scale * (pre.width / px.width);
  const b = performance.now();
  // Type small for the resolution the page declares: tesseract may erase lines of it as rules.
  // Where the image shows such type, the page is read at a resolution that keeps it; where
  // tesseract then measures type of ordinary size, or erased type that the image did not show,
  // the page is read again at the other resolution and the better reading kept.
  const told = scale * 72;
  const first = factor !== 1 ? told : firstDpi(told, guess);
  let dpi = first;
  let result = await eng.recognize(pre.image, first);
  run.readings++;
  const xHeight = bodyXHeight(result.blocks);
  const safe = rereadDpi(told, xHeight);
  const again =
    first !== told
      ? safe === null
        ? told
        : null
      : safe !== null && erasedText(result.separators, xHeight)
        ? safe
        : null;
  if (again !== null) {
    const second = await eng.recognize(pre.image, again);
    run.readings++;
    if (readingWeight(second.blocks) >= readingWeight(result.blocks)) {
      result = second;
      dpi = again;
    }
  }
  const ink = wordless(result.blocks) ? inkLetters(pre.pixels, level, letters) : null;
  if (ink && ink.count >= EMPTY_LETTERS) {
    const column = await eng.recognize(pre.image, dpi, { tessedit_pageseg_mode: COLUMN_PSM });
    run.readings++;
    const read = compactTesseractPage(column, { pageNumber: 0, width: 0, height: 0, rotation: 0, scale: 1, skew: 0 });
    if (letterCoverage(ink, read) >= COLUMN_COVERAGE) result = column;
  }
  run.recognizeMs += performance.now() - b;
  run.preprocessMs += b - a;
  const sideways = turn % 180 !== 0;
  const page = compactTesseractPage(result, {
    pageNumber: task.pageNumber,
    // A page turned on its side is laid out in its reading frame: width and height swap.
    width: sideways ? rendered.pageHeight : rendered.pageWidth,
    height: sideways ? rendered.pageWidth : rendered.pageHeight,
    rotation: rendered.rotation,
    scale,
    skew: pre.skew,
  });
  if (turn) page.turned = turn;
  if (pre.rules.length) page.rules = pre.rules;
  // The ink threshold of these pixels, for the bold test.
  return { page, pixels: pre.pixels, level, letters, turn, paper: pre.paper, dpi, scale };
}

/**
 * Whether the page, read as `best`, reads better turned by 180 degrees: the middle third is probed turned
 * before the whole page is read again (true when the band holds too few words to judge).
 */
async function upsideDownWorthReading(run: PageRun, best: Reading): Promise<boolean> {
  const top = Math.floor(best.pixels.height / 3);
  const height = Math.floor(best.pixels.height / 3);
  const band = bandConfidence(best.page, top, top + height);
  if (band.words < MIN_WORDS) return true;
  const t = performance.now();
  let pre = await preprocess(await turnImage(run.base, (best.turn + 180) % 360), run.task.preprocess);
  // At the scale the page was read at (large type scaled down).
  if (pre.width !== best.pixels.width) pre = await scalePreprocessed(pre, best.pixels.width / pre.width);
  const u = performance.now();
  // The band's rows, as an image of their own (a grey page's rows are contiguous). tesseract's
  // own rectangle option read the band as noise here.
  const px = pre.pixels;
  const ch = px.channels;
  const rows = px.data.subarray(top * px.width * ch, (top + height) * px.width * ch);
  const header = Buffer.from(`${ch === 1 ? 'P5' : 'P6'}\n${px.width} ${height}\n255\n`, 'ascii');
  const probe = compactTesseractPage(await run.eng.recognize(Buffer.concat([header, rows]), best.scale * 72), {
    pageNumber: run.task.pageNumber,
    width: 1,
    height: 1,
    rotation: 0,
    scale: 1,
    skew: pre.skew,
  });
  run.readings++;
  run.preprocessMs += u - t;
  run.recognizeMs += performance.now() - u;
  return probe.confidence > band.confidence + BETTER_BY;
}

/**
 * A reading's confidence weighted by the share of the page's letters its words cover. Turned upside
 * down, a page of Hangul read with an English model gives six two-letter "words" at a confidence of
 * 0.8 and leaves most of its letters unread; the right way up, it gives garbage covering every letter
 * at a lower confidence. Neither is a reading of the page, and the one that leaves the page unread
 * must not win by its confidence alone.
 */
function coveredConfidence(r: Reading): number {
  const ink = readingInk(r);
  return ink ? r.page.confidence * letterCoverage(ink, r.page) : r.page.confidence;
}

/** The reading of the page the right way up: `best` itself, or the page read again turned. */
async function rightWayUp(run: PageRun, first: Reading): Promise<Reading> {
  let best = first;
  // See src/ocr/orientation.ts for the measurements behind each step.
  if (maybeUpsideDown(best.page) && (await upsideDownWorthReading(run, best))) {
    const r = await readTurned(run, (best.turn + 180) % 360);
    if (coveredConfidence(r) > coveredConfidence(best) + BETTER_BY) best = r;
  }
  if (verticalShare(best.page) > VERTICAL_SHARE) {
    for (const turn of [270, 90]) {
      const r = await readTurned(run, (best.turn + turn) % 360);
      if (verticalShare(r.page) < VERTICAL_SHARE && r.page.confidence > best.page.confidence - BETTER_BY / 2) {
        best = r;
        break;
      }
    }
  }
  return best;
}

/** The page's plain grey render (no processing at all) read as it is, turned as `best` was. */
async function readPlain(run: PageRun, best: Reading): Promise<Reading> {
  const a = performance.now();
  const pre = await preprocess(await turnImage(run.base, best.turn), PLAIN_PREPROCESS);
  const b = performance.now();
  const dpi = run.rendered.scale * 72;
  const result = await run.eng.recognize(pre.image, dpi);
  run.readings++;
  run.preprocessMs += b - a;
  run.recognizeMs += performance.now() - b;
  const { rendered, task } = run;
  const sideways = best.turn % 180 !== 0;
  const page = compactTesseractPage(result, {
    pageNumber: task.pageNumber,
    width: sideways ? rendered.pageHeight : rendered.pageWidth,
    height: sideways ? rendered.pageWidth : rendered.pageHeight,
    rotation: rendered.rotation,
    scale: rendered.scale,
    skew: 0,
  });
  if (best.turn) page.turned = best.turn;
  const px = pre.pixels;
  const level = otsuLevel(px.data);
  const letters = letterComponents(px.data, px.width, px.height, level);
  return { page, pixels: px, level, letters, turn: best.turn, paper: pre.paper, dpi, scale: rendered.scale };
}

/**
 * `best`, or the page's plain grey render read as it is where `best` is doubtful and the plain reading
 * has more confident dictionary words (src/ocr/plain-reading.ts). The render is the same one, at the
 * resolution `pageImageForOcr` chose (a scan under 190 dpi drawn at 300 dpi: upscaled, never thresholded).
 * Where the page is kept processed, the plain reading's lines that read clearly better than the
 * processed words in their area take those words' place (src/ocr/plain-regions.ts).
 */
async function noWorseThanPlain(run: PageRun, best: Reading): Promise<Reading> {
  const mine = evidenceOf(best.page);
  if (!isDoubtful(mine)) return best;
  // A page whose grid rules were found keeps them: its table's structure comes from the processing, and
  // the plain reading has none (bench/README.md, "OCR quality on scans like users'": three ruled table
  // scans lost 14-20 points of CER in their markdown when the plain reading was kept).
  const whole = run.task.plainCheck === true && !best.page.rules?.length;
  if (!whole && run.task.plainLines === false) return best;
  const plain = await readPlain(run, best);
  if (whole && plainReadsBetter(mine, evidenceOf(plain.page))) {
    plain.page.plain = true;
    return plain;
  }
  if (run.task.plainLines !== false) {
    const merged = mergePlainLines(best.page, plain.page, plain.pixels, best.scale / plain.scale);
    if (merged.lines) best.page.confidence = meanConfidence(best.page);
  }
  return best;
}

/** The doubtful cells of a scanned grid and the text the reading left out, read again into `best.page`. */
async function readAgainWhereDoubtful(run: PageRun, best: Reading): Promise<void> {
  const page = best.page;
  if (page.rules?.length) {
    // Doubtful cells of a scanned grid, read again one by one (src/ocr/cells.ts).
    const t = performance.now();
    run.readings += await rereadGridCells(
      page,
      best.pixels,
      best.paper,
      async (image) => (await run.eng.recognize(image, best.scale * 72, { tessedit_pageseg_mode: '7' })).blocks,
    );
    run.recognizeMs += performance.now() - t;
    page.confidence = meanConfidence(page);
  }
  // Text the reading left out, read again area by area as blocks of text (src/ocr/unread.ts).
  const t = performance.now();
  const areas = await readUnread(
    page,
    best.pixels,
    best.letters,
    best.level,
    async (image) => (await run.eng.recognize(image, best.dpi, { tessedit_pageseg_mode: '6' })).blocks,
  );
  if (areas) {
    run.readings += areas;
    run.recognizeMs += performance.now() - t;
    page.confidence = meanConfidence(page);
  }
}

/**
 * A page read in another script with the configured model is read as nonsense over all its letters
 * (English over Hangul, Arabic or Hebrew pages covers every letter at a confidence of 0.15-0.40); a page
 * whose reading left most of its letters unread (nothing read beside a ruled grid whose rules were taken
 * out) is a case for reading those areas again (src/ocr/unread.ts), not for every installed model: there
 * the trials cost seven model starts and readings for nothing. Such a page shows no marks to try.
 */
const SCRIPT_COVERAGE = 0.5;

function scriptMarks(first: Reading): number {
  const ink = readingInk(first);
  if (!ink || letterCoverage(ink, first.page) < SCRIPT_COVERAGE) return 0;
  return ink.count;
}

/**
 * The page read with the installed model of its script when the configured languages read it poorly
 * and that model reads it clearly better (src/ocr/scripts.ts); `run.eng` is left at the winner.
 */
async function inItsScript(
  run: PageRun,
  first: Reading,
  engineFor: (task: OcrTask, model?: ModelSource) => OcrEngine,
): Promise<{ reading: Reading; languages: string }> {
  let best = first;
  let winner: ModelSource | undefined;
  const marks = first.page.confidence < OWN_SCRIPT_CONFIDENCE ? scriptMarks(first) : 0;
  for (const model of run.task.scripts === false ? [] : scriptCandidates(first.page, marks, run.task.langPath)) {
    if (model.languages === run.task.languages) continue;
    run.eng = engineFor(run.task, model);
    const r = await readTurned(run, first.turn);
    if (r.page.confidence > best.page.confidence + (winner ? 0 : SCRIPT_BETTER_BY)) {
      best = r;
      winner = model;
    }
  }
  run.eng = engineFor(run.task, winner);
  return { reading: best, languages: winner?.languages ?? run.task.languages };
}

/**
 * The page `task.pageNumber` of the opened document recognised and laid out, with the engine `engineFor`
 * gives once the page's image is ready; `t0` is when the task started (its render time counts from it).
 */
export async function recognisePage(
  task: OcrTask,
  opened: OpenedForOcr,
  engineFor: (task: OcrTask, model?: ModelSource) => OcrEngine,
  t0: number,
): Promise<OcrTaskResult & { ok: true }> {
  const { doc, objects } = opened;
  const rendered = await pageImageForOcr(doc, task.nativeScan === false ? null : objects, task.pageNumber, task.render);
  const t1 = performance.now();
  const run: PageRun = {
    task,
    eng: engineFor(task),
    rendered,
    base: { data: rendered.data, width: rendered.width, height: rendered.height, channels: rendered.channels },
    preprocessMs: 0,
    recognizeMs: 0,
    readings: 0,
  };
  // The page is turned right way up first: read upside down, any page reads as no words in any script.
  let upright = await readTurned(run, 0);
  if (task.orientation !== false) upright = await rightWayUp(run, upright);
  const { reading, languages } = await inItsScript(run, upright, engineFor);
  let best = reading;
  best = await noWorseThanPlain(run, best);
  await readAgainWhereDoubtful(run, best);
  const page: OcrPage = best.page;
  markBold(page, best.pixels, best.level ?? undefined);
  // Links apply to the recognised words only where those are in the page's own upright view: a
  // page read turned, or straightened by a skew, has its words in another frame.
  const links = best.turn === 0 && page.skew === 0 ? await pageLinks(doc, objects, task.pageNumber) : [];
  return {
    ok: true,
    pageNumber: task.pageNumber,
    page,
    layout: page.plain ? layoutPlainReading(page) : layoutOcrPage(page, links),
    timings: { render: t1 - t0, preprocess: run.preprocessMs, recognize: run.recognizeMs },
    readings: run.readings,
    dpi: best.dpi,
    via: rendered.via,
    networkAttempts: networkAttempts(),
    engineGeneration: run.eng.generation,
    languages,
  };
}
