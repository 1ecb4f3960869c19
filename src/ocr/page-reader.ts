/**
 * What an OCR pool thread keeps between its tasks: its tesseract engine (replaced when the languages or
 * the recycling period change) and the document it has open (kept while its pages keep coming). A
 * failure is returned as data so one bad page never costs the document.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { networkAttempts } from './offline.js';
import { OcrEngine } from './engine.js';
import type { ModelSource } from './models.js';
import { openForRender } from './render.js';
import { PdfObjects } from './pdf-seam.js';
import type { OcrTask, OcrTaskResult } from './protocol.js';
import { recognisePage, type OpenedForOcr } from './recognise-page.js';

/** A thread's page reader; `tesseractEntry` is the script tesseract.js starts its recognition thread with. */
export function ocrPageReader(tesseractEntry: string): (task: OcrTask) => Promise<OcrTaskResult> {
  // The engines of the configured languages and of the last script read: a thread reading a Korean
  // document keeps both, without holding a recogniser for every installed model.
  const engines = new Map<string, OcrEngine>();
  let openDoc: { key: string; doc: Promise<PDFDocumentProxy>; objects: PdfObjects } | null = null;

  function engineFor(task: OcrTask, model?: ModelSource): OcrEngine {
    const languages = model?.languages ?? task.languages;
    const langPath = model ? model.langPath : task.langPath;
    const key = `${languages}\u0000${langPath ?? ''}\u0000${task.recycleAfter}`;
    let engine = engines.get(key);
    if (engine) {
      // Most recently used last.
      engines.delete(key);
    } else {
      engine = new OcrEngine({ languages, langPath, workerPath: tesseractEntry, recycleAfter: task.recycleAfter });
      while (engines.size >= 2) {
        const [oldest, e] = engines.entries().next().value!;
        engines.delete(oldest);
        void e.recycle();
      }
    }
    engines.set(key, engine);
    return engine;
  }

  async function documentFor(task: OcrTask): Promise<OpenedForOcr> {
    if (openDoc?.key !== task.docKey) {
      const previous = openDoc;
      const objects = new PdfObjects(task.bytes);
      openDoc = { key: task.docKey, doc: openForRender(task.bytes, objects), objects };
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
