/**
 * A range of pages of one document extracted and laid out, as the text pool's threads do it. The
 * document bytes arrive as a SharedArrayBuffer (shared, not copied per task); the opened document is
 * kept for the next range of the same parse, so a thread opens each document about once per parse.
 */
import { layoutTurn } from './display-frame.js';
import { extractPage, type PdfPage } from './extract.js';
import { layoutPage } from '../layout/engine.js';
import { needsOcr } from './needs-ocr.js';
import { documentOutline, type OutlineSource } from './outline.js';
import { PdfObjects } from './pdf-objects.js';
import { documentInfo, openPdf, pageCut, pageTimeMessage, PdfOpenError, startPage, type OpenedPdf } from './pdfjs.js';
import { failedPage, type TextPageResult, type TextTask, type TextTaskResult } from './protocol.js';

interface Cached {
  key: string;
  opened: Promise<OpenedPdf>;
  timer: NodeJS.Timeout | null;
  /** The document's objects read directly (which pages may link to an address), indexed on first use. */
  objects: PdfObjects;
}
const cache: Cached[] = [];
const KEEP_MS = 3000;
const MAX_OPEN = 2;

function release(c: Cached): void {
  const i = cache.indexOf(c);
  if (i >= 0) cache.splice(i, 1);
  if (c.timer) clearTimeout(c.timer);
  c.opened.then(
    (o) => o.destroy(),
    () => undefined,
  );
}

function acquire(key: string, bytes: Uint8Array): Cached {
  let c = cache.find((x) => x.key === key);
  if (!c) {
    while (cache.length >= MAX_OPEN) release(cache[0]!);
    const objects = new PdfObjects(bytes);
    c = { key, opened: openPdf(bytes, { objects }), timer: null, objects };
    cache.push(c);
  }
  if (c.timer) clearTimeout(c.timer);
  c.timer = null;
  return c;
}

function park(c: Cached): void {
  if (!cache.includes(c)) return;
  // Unreferenced: an idle worker holding a document must not keep the process alive.
  c.timer = setTimeout(() => release(c), KEEP_MS);
  c.timer.unref();
}

/** One page extracted and laid out. */
async function readPage(opened: OpenedPdf, objects: PdfObjects, n: number, spelling: boolean): Promise<TextPageResult> {
  let page: PdfPage | null = null;
  try {
    page = (await opened.doc.getPage(n)) as PdfPage;
    let input;
    try {
      input = await extractPage(page, n, { objects });
    } catch {
      // Broken drawing operators: the text alone may still be readable.
      input = await extractPage(page, n, { textOnly: true, objects });
    }
    const cut = pageCut();
    const layout = layoutPage(input);
    if (cut) {
      layout.status = 'partial';
      layout.error = cut.message;
    }
    const turn = layoutTurn(input.rotation, page.rotate ?? 0);
    return {
      layout,
      ocr: needsOcr(input, { spelling }),
      ...(cut?.overTime ? { overTime: true as const } : {}),
      ...(turn ? { turn } : {}),
    };
  } catch (err) {
    return failedPage(n, `page ${n} could not be read: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    try {
      page?.cleanup();
    } catch {
      /* already released */
    }
  }
}

/**
 * The page, or 'stuck' when it has not come back a while after its time limit. The limit normally
 * cuts the page at the next chunk pdf.js hands over (src/pdf/pdfjs.ts), and pdf.js then returns what
 * it had; but inside deeply nested forms pdf.js swallows that error and goes on, so past a grace
 * period the caller must end pdf.js's work on the document.
 */
async function readPageWithin(
  opened: OpenedPdf,
  objects: PdfObjects,
  n: number,
  limitMs: number | undefined,
  spelling: boolean,
): Promise<TextPageResult | 'stuck'> {
  startPage(limitMs);
  const reading = readPage(opened, objects, n, spelling);
  let timer: NodeJS.Timeout | undefined;
  try {
    if (limitMs === undefined || !Number.isFinite(limitMs)) return await reading;
    const grace = new Promise<'stuck'>((resolve) => {
      timer = setTimeout(() => resolve('stuck'), limitMs + Math.min(2000, limitMs / 4));
    });
    return await Promise.race([reading, grace]);
  } finally {
    clearTimeout(timer);
    // No limit between pages (document information, the next task's opening).
    startPage();
  }
}

export async function readTextTask(task: TextTask): Promise<TextTaskResult> {
  // A warm-up task (no bytes, no pages): loading this module has started loading pdf.js.
  if (task.pages.length === 0 && task.bytes.byteLength === 0) return { ok: true, pages: [] };
  let c = acquire(task.docKey, task.bytes);
  let opened: OpenedPdf;
  try {
    opened = await c.opened;
  } catch (err) {
    release(c);
    if (err instanceof PdfOpenError) return { ok: false, code: err.code, message: err.message };
    return {
      ok: false,
      code: 'MALFORMED',
      message: `The PDF cannot be read: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  try {
    const info = task.wantInfo ? await documentInfo(opened.doc) : undefined;
    if (info) {
      const outline = await documentOutline(opened.doc as OutlineSource, opened.doc.numPages);
      if (outline.length) info.outline = outline;
    }
    const pages: TextPageResult[] = [];
    let wanted = task.pages;
    const limit = Math.min(opened.doc.numPages, task.maxPages ?? Infinity);
    if (task.wholeUpTo && limit <= task.wholeUpTo && limit > wanted.length)
      wanted = Array.from({ length: limit }, (_, i) => i + 1);
    for (let i = 0; i < wanted.length; i++) {
      const n = wanted[i]!;
      if (n < 1 || n > opened.doc.numPages) continue;
      const result = await readPageWithin(opened, c.objects, n, task.pageTimeLimitMs, task.spelling ?? false);
      if (result !== 'stuck') {
        pages.push(result);
        continue;
      }
      pages.push({ ...failedPage(n, `page ${n}: ${pageTimeMessage(task.pageTimeLimitMs!)}`), overTime: true });
      // Destroying the document ends pdf.js's work on it; the pages after this one need it reopened.
      release(c);
      c = acquire(task.docKey, task.bytes);
      try {
        opened = await c.opened;
      } catch (err) {
        const why = `the document could not be reopened after page ${n}: ${err instanceof Error ? err.message : String(err)}`;
        for (const m of wanted.slice(i + 1)) pages.push(failedPage(m, why));
        break;
      }
    }
    return { ok: true, ...(info ? { info } : {}), pages };
  } finally {
    park(c);
  }
}
