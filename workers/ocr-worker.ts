/**
 * OCR pool thread: renders one page of a document (opened once per document and kept while its pages
 * keep coming), cleans the image up, recognises it with this thread's tesseract engine and lays the
 * words out. A failure is returned as data so one bad page never costs the document.
 */
import { fileURLToPath } from 'node:url';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { installNetworkGuard, networkAttempts } from '../src/ocr/offline.js';
import { OcrEngine } from '../src/ocr/engine.js';
import { openForRender, pageImageForOcr, type RenderOptions } from '../src/ocr/render.js';
import { PdfObjects } from '../src/pdf/pdf-objects.js';
import {
  otsuLevel,
  preprocess,
  scalePreprocessed,
  type PreprocessOptions,
  type RawImage,
} from '../src/ocr/preprocess.js';
import {
  bodyXHeight,
  erasedText,
  firstDpi,
  letterComponents,
  readingWeight,
  rereadDpi,
  scaleFor,
  xHeightOf,
} from '../src/ocr/type-scale.js';
import { BETTER_BY, bandConfidence, maybeUpsideDown, MIN_WORDS, turnImage } from '../src/ocr/orientation.js';
import { compactTesseractPage, meanConfidence, verticalShare, type OcrPage } from '../src/ocr/page.js';
import { layoutOcrPage } from '../src/ocr/layout.js';
import { markBold } from '../src/ocr/bold.js';
import { rereadGridCells } from '../src/ocr/cells.js';
import { readUnread } from '../src/ocr/unread.js';
import type { LinkArea, PageLayout } from '../src/layout/types.js';
import { linkAreas, readAnnotations } from '../src/pdf/links.js';
import type { Matrix } from '../src/pdf/matrix.js';

installNetworkGuard();

export interface OcrTask {
  /** Identifies the document across the tasks of one parse. */
  docKey: string;
  /** The PDF, usually a view over shared memory (not copied per task). */
  bytes: Uint8Array;
  pageNumber: number;
  render: RenderOptions;
  preprocess: PreprocessOptions;
  languages: string;
  langPath?: string | undefined;
  recycleAfter: number;
  /** Decode a full-page scan image natively (default) instead of rendering the page with pdf.js. */
  nativeScan?: boolean;
  /** Read pages fed upside down or sideways the right way up (default true). */
  orientation?: boolean;
}

export type OcrTaskResult =
  | {
      ok: true;
      pageNumber: number;
      page: OcrPage;
      layout: PageLayout;
      timings: { render: number; preprocess: number; recognize: number };
      readings: number;
      dpi: number;
      via: 'scan' | 'render';
      networkAttempts: number;
      engineGeneration: number;
    }
  | { ok: false; pageNumber: number; error: string; networkAttempts: number };

let engine: OcrEngine | null = null;
let engineKey = '';
let openDoc: { key: string; doc: Promise<PDFDocumentProxy>; objects: PdfObjects } | null = null;

const tesseractEntry = fileURLToPath(new URL('./ocr-tesseract.js', import.meta.url));

function engineFor(task: OcrTask): OcrEngine {
  const key = `${task.languages}\u0000${task.langPath ?? ''}\u0000${task.recycleAfter}`;
  if (!engine || key !== engineKey) {
    void engine?.recycle();
    engine = new OcrEngine({
      languages: task.languages,
      langPath: task.langPath,
      workerPath: tesseractEntry,
      recycleAfter: task.recycleAfter,
    });
    engineKey = key;
  }
  return engine;
}

async function documentFor(task: OcrTask): Promise<{ doc: PDFDocumentProxy; objects: PdfObjects }> {
  if (openDoc?.key !== task.docKey) {
    const previous = openDoc;
    openDoc = { key: task.docKey, doc: openForRender(task.bytes), objects: new PdfObjects(task.bytes) };
    if (previous) void previous.doc.then((d) => d.loadingTask.destroy()).catch(() => undefined);
  }
  return { doc: await openDoc.doc, objects: openDoc.objects };
}

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

export default async function run(task: OcrTask): Promise<OcrTaskResult> {
  try {
    const t0 = performance.now();
    const { doc, objects } = await documentFor(task);
    const rendered = await pageImageForOcr(
      doc,
      task.nativeScan === false ? null : objects,
      task.pageNumber,
      task.render,
    );
    const t1 = performance.now();
    const eng = engineFor(task);
    const base: RawImage = {
      data: rendered.data,
      width: rendered.width,
      height: rendered.height,
      channels: rendered.channels,
    };
    let preprocessMs = 0;
    let recognizeMs = 0;
    // Recognitions run for this page: 1, plus the orientation check's probe and re-readings.
    let readings = 0;
    /** One reading of the page turned clockwise by `turn` degrees (0 for the page as it is). */
    const readTurned = async (turn: number) => {
      const a = performance.now();
      let pre = await preprocess(await turnImage(base, turn), task.preprocess);
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
      readings++;
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
        readings++;
        if (readingWeight(second.blocks) >= readingWeight(result.blocks)) {
          result = second;
          dpi = again;
        }
      }
      recognizeMs += performance.now() - b;
      preprocessMs += b - a;
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
    };
    let best = await readTurned(0);
    if (task.orientation !== false) {
      // See src/ocr/orientation.ts for the measurements behind each step.
      if (maybeUpsideDown(best.page)) {
        // Probe the middle third turned by 180 degrees before reading the whole page again.
        const top = Math.floor(best.pixels.height / 3);
        const height = Math.floor(best.pixels.height / 3);
        const band = bandConfidence(best.page, top, top + height);
        let worth = true;
        if (band.words >= MIN_WORDS) {
          const t = performance.now();
          let pre = await preprocess(await turnImage(base, (best.turn + 180) % 360), task.preprocess);
          // At the scale the page was read at (large type scaled down).
          if (pre.width !== best.pixels.width) pre = await scalePreprocessed(pre, best.pixels.width / pre.width);
          const u = performance.now();
          // The band's rows, as an image of their own (a grey page's rows are contiguous). tesseract's
          // own rectangle option read the band as noise here.
          const px = pre.pixels;
          const ch = px.channels;
          const rows = px.data.subarray(top * px.width * ch, (top + height) * px.width * ch);
          const header = Buffer.from(`${ch === 1 ? 'P5' : 'P6'}\n${px.width} ${height}\n255\n`, 'ascii');
          const probe = compactTesseractPage(await eng.recognize(Buffer.concat([header, rows]), best.scale * 72), {
            pageNumber: task.pageNumber,
            width: 1,
            height: 1,
            rotation: 0,
            scale: 1,
            skew: pre.skew,
          });
          readings++;
          preprocessMs += u - t;
          recognizeMs += performance.now() - u;
          worth = probe.confidence > band.confidence + BETTER_BY;
        }
        if (worth) {
          const r = await readTurned((best.turn + 180) % 360);
          if (r.page.confidence > best.page.confidence + BETTER_BY) best = r;
        }
      }
      if (verticalShare(best.page) > 0.5) {
        for (const turn of [270, 90]) {
          const r = await readTurned((best.turn + turn) % 360);
          if (verticalShare(r.page) < 0.5 && r.page.confidence > best.page.confidence - BETTER_BY / 2) {
            best = r;
            break;
          }
        }
      }
    }
    const page = best.page;
    if (page.rules?.length) {
      // Doubtful cells of a scanned grid, read again one by one (src/ocr/cells.ts).
      const t = performance.now();
      readings += await rereadGridCells(
        page,
        best.pixels,
        best.paper,
        async (image) => (await eng.recognize(image, best.scale * 72, { tessedit_pageseg_mode: '7' })).blocks,
      );
      recognizeMs += performance.now() - t;
      page.confidence = meanConfidence(page);
    }
    // Text the reading left out, read again area by area as blocks of text (src/ocr/unread.ts).
    const t = performance.now();
    const areas = await readUnread(
      page,
      best.pixels,
      best.letters,
      best.level,
      async (image) => (await eng.recognize(image, best.dpi, { tessedit_pageseg_mode: '6' })).blocks,
    );
    if (areas) {
      readings += areas;
      recognizeMs += performance.now() - t;
      page.confidence = meanConfidence(page);
    }
    markBold(page, best.pixels, best.level ?? undefined);
    // Links apply to the recognised words only where those are in the page's own upright view: a
    // page read turned, or straightened by a skew, has its words in another frame.
    const links = best.turn === 0 && page.skew === 0 ? await pageLinks(doc, objects, task.pageNumber) : [];
    return {
      ok: true,
      pageNumber: task.pageNumber,
      page,
      layout: layoutOcrPage(page, links),
      timings: { render: t1 - t0, preprocess: preprocessMs, recognize: recognizeMs },
      readings,
      dpi: best.dpi,
      via: rendered.via,
      networkAttempts: networkAttempts(),
      engineGeneration: eng.generation,
    };
  } catch (err) {
    return {
      ok: false,
      pageNumber: task.pageNumber,
      error: err instanceof Error ? err.message : String(err),
      networkAttempts: networkAttempts(),
    };
  }
}
