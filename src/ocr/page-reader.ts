/**
 * What an OCR pool thread keeps between its tasks: its tesseract engine (replaced when the languages or
 * the recycling period change) and the document it has open (kept while its pages keep coming). A
 * failure is returned as data so one bad page never costs the document.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { networkAttempts } from './offline.js';
import { OcrEngine } from './engine.js';
import { openForRender } from './render.js';
import { PdfObjects } from './pdf-seam.js';
import type { OcrTask, OcrTaskResult } from './protocol.js';
import { recognisePage, type OpenedForOcr } from './recognise-page.js';

/** A thread's page reader; `tesseractEntry` is the script tesseract.js starts its recognition thread with. */
export function ocrPageReader(tesseractEntry: string): (task: OcrTask) => Promise<OcrTaskResult> {
  let engine: OcrEngine | null = null;
  let engineKey = '';
  let openDoc: { key: string; doc: Promise<PDFDocumentProxy>; objects: PdfObjects } | null = null;

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

  async function documentFor(task: OcrTask): Promise<OpenedForOcr> {
    if (openDoc?.key !== task.docKey) {
      const previous = openDoc;
      openDoc = { key: task.docKey, doc: openForRender(task.bytes), objects: new PdfObjects(task.bytes) };
      if (previous) void previous.doc.then((d) => d.loadingTask.destroy()).catch(() => undefined);
    }
    return { doc: await openDoc.doc, objects: openDoc.objects };
  }

  return async (task) => {
    try {
      const t0 = performance.now();
      return await recognisePage(task, await documentFor(task), engineFor, t0);
    } catch (err) {
      return {
        ok: false,
        pageNumber: task.pageNumber,
        error: err instanceof Error ? err.message : String(err),
        networkAttempts: networkAttempts(),
      };
    }
  };
}
