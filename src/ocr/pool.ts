/**
 * The OCR pool: a piscina pool apart from the text pool, because a recogniser holds about 350 MB and
 * a page takes seconds. Its size comes from `runtime.config.ocrThreads` (by default what memory allows,
 * at most one per core); threads start on demand and leave when idle.
 */
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Piscina } from 'piscina';
import { ParseError } from '../errors.js';
import type { ParserRuntime } from '../runtime/runtime.js';
import { ignoreIdleWorkerDeaths, workerFile } from '../runtime/worker-pool.js';
import type { PageLayout } from '../layout/types.js';
import type { OcrTask, OcrTaskResult } from './protocol.js';
import { DEFAULT_RENDER, type RenderOptions } from './render.js';
import { DEFAULT_PREPROCESS, type PreprocessOptions } from './preprocess.js';
import type { OcrPage } from './page.js';
import { harmonizeFontSizes } from './sizes.js';

/** Pages a recogniser reads before it is replaced (WASM memory never shrinks). */
const DEFAULT_RECYCLE_AFTER = 50;

const OCR_WORKER_FILE = workerFile('ocr-worker');

export function ocrPool(runtime: ParserRuntime): Piscina<OcrTask, OcrTaskResult> {
  return runtime.resource('pdf.ocr-pool', () => {
    if (!existsSync(OCR_WORKER_FILE)) {
      throw new ParseError('UNKNOWN_ERROR', `OCR worker not built: ${OCR_WORKER_FILE} is missing (run npm run build)`);
    }
    const pool = new Piscina<OcrTask, OcrTaskResult>({
      filename: OCR_WORKER_FILE,
      minThreads: 0,
      maxThreads: runtime.config.ocrThreads,
      idleTimeout: runtime.config.idleTimeoutMs,
      concurrentTasksPerWorker: 1,
      // Tasks wait in the queue rather than fail; the parse's own timeout bounds the wait.
      maxQueue: Infinity,
    });
    ignoreIdleWorkerDeaths(pool);
    return { value: pool, close: () => pool.close({ force: true }) };
  });
}

export interface RecognizeOptions {
  signal: AbortSignal;
  render?: RenderOptions;
  preprocess?: PreprocessOptions;
  recycleAfter?: number;
  /** Decode full-page scan images natively (the default); false renders every page with pdf.js. */
  nativeScan?: boolean;
  /** Read pages fed upside down or sideways the right way up (default true; see orientation.ts). */
  orientation?: boolean;
  /** Read a page in another script with its installed model (default true; see src/ocr/scripts.ts). */
  scripts?: boolean;
  /**
   * Read a page's plain grey render too where the processed reading is doubtful, and keep the better
   * (src/ocr/plain-reading.ts). Off by default: on, it reads the bench's tuning scans better and its held-out
   * scans worse (bench/README.md, "OCR quality on scans like users'"; README, "OCR: never worse than the
   * plain engine").
   */
  plainCheck?: boolean;
  /**
   * Where the processed reading of a page is doubtful, read its plain grey render too and let the plain
   * lines that read clearly better replace the processed words of their area (default true;
   * src/ocr/plain-regions.ts).
   */
  plainLines?: boolean;
  /**
   * Epoch milliseconds after which pages not yet recognised are no longer waited for: their tasks are
   * cancelled (queued ones dropped, running ones' threads ended) and they come back failed with an
   * error saying so (`isOcrTimeout` tells them apart). The signal still rejects the whole call.
   */
  stopAt?: number;
  /** Called as each page finishes, in completion order. */
  onPage?: (result: OcrPageResult) => void;
}

export interface OcrPageResult {
  pageNumber: number;
  /** Laid-out blocks (source `layout_ocr`, `confidence.ocr` set); status `failed` when OCR failed. */
  layout: PageLayout;
  /** Recognised words, lines and paragraphs; absent when OCR failed. */
  page?: OcrPage;
  timings?: { render: number; preprocess: number; recognize: number };
  /** Recognitions run for the page (more than one when the orientation check probed or read it again, or small type was read again at a lower resolution). */
  readings?: number;
  /**
   * The resolution tesseract was told for the reading kept: the page image's own, or less where the
   * page's type is small for it (src/ocr/type-scale.ts).
   */
  dpi?: number;
  /** How the page's pixels were obtained: its scan image decoded natively, or a pdf.js render. */
  via?: 'scan' | 'render';
  networkAttempts: number;
  engineGeneration?: number;
}

function shared(bytes: Uint8Array): Uint8Array {
  if (bytes.buffer instanceof SharedArrayBuffer) return bytes;
  const sab = new SharedArrayBuffer(bytes.byteLength);
  const view = new Uint8Array(sab);
  view.set(bytes);
  return view;
}

function abortError(signal: AbortSignal): ParseError {
  const reason: unknown = signal.reason;
  if (reason instanceof ParseError) return reason;
  if (reason instanceof Error && reason.name === 'TimeoutError')
    return new ParseError('TIMEOUT', 'The parse timed out during OCR');
  return new ParseError('ABORTED', 'The parse was aborted during OCR');
}

/**
 * Recognises the given pages of a PDF on the OCR pool, one task per page so both threads stay busy and
 * a failure stays on its page. Pages come back in the order asked. Aborting the signal cancels queued
 * and running pages (a running page's thread is terminated) and rejects with TIMEOUT or ABORTED.
 */
export async function recognizePages(
  runtime: ParserRuntime,
  bytes: Uint8Array,
  pageNumbers: number[],
  opts: RecognizeOptions,
): Promise<OcrPageResult[]> {
  if (opts.signal.aborted) throw abortError(opts.signal);
  if (opts.stopAt !== undefined && opts.stopAt <= Date.now()) {
    return pageNumbers.map((pageNumber) => ({ pageNumber, layout: timedOutLayout(pageNumber), networkAttempts: 0 }));
  }
  const pool = ocrPool(runtime);
  const data = shared(bytes);
  const docKey = randomUUID();
  const base = {
    docKey,
    bytes: data,
    render: opts.render ?? DEFAULT_RENDER,
    preprocess: opts.preprocess ?? DEFAULT_PREPROCESS,
    languages: runtime.config.ocrLanguages,
    langPath: runtime.config.ocrLangPath,
    recycleAfter: opts.recycleAfter ?? DEFAULT_RECYCLE_AFTER,
    nativeScan: opts.nativeScan ?? true,
    orientation: opts.orientation ?? true,
    scripts: opts.scripts ?? true,
    plainCheck: opts.plainCheck ?? false,
    plainLines: opts.plainLines ?? true,
  };
  const controller = new AbortController();
  const onAbort = () => controller.abort(opts.signal.reason);
  opts.signal.addEventListener('abort', onAbort, { once: true });
  let stopped = false;
  const stopTimer =
    opts.stopAt === undefined
      ? undefined
      : setTimeout(
          () => {
            stopped = true;
            controller.abort(new Error('OCR deadline'));
          },
          Math.max(0, opts.stopAt - Date.now()),
        );
  try {
    const readPage = async (pageNumber: number): Promise<OcrPageResult> => {
      let result: OcrPageResult;
      try {
        const r = await pool.run({ ...base, pageNumber }, { signal: controller.signal });
        result = r.ok
          ? {
              pageNumber,
              layout: r.layout,
              page: r.page,
              timings: r.timings,
              readings: r.readings,
              dpi: r.dpi,
              via: r.via,
              networkAttempts: r.networkAttempts,
              engineGeneration: r.engineGeneration,
            }
          : { pageNumber, layout: failedLayout(pageNumber, r.error), networkAttempts: r.networkAttempts };
      } catch (err) {
        if (opts.signal.aborted) throw abortError(opts.signal);
        if (stopped) result = { pageNumber, layout: timedOutLayout(pageNumber), networkAttempts: 0 };
        // The thread died (out of memory, a crash in the engine): this page fails, the others go on.
        else
          result = {
            pageNumber,
            layout: failedLayout(pageNumber, err instanceof Error ? err.message : String(err)),
            networkAttempts: 0,
          };
      }
      opts.onPage?.(result);
      return result;
    };
    // Pages go to the pool in order, as many at a time as it has threads: the pool's own queue does
    // not keep submission order, and when time runs out the pages read should be the first ones.
    const results: OcrPageResult[] = new Array(pageNumbers.length);
    let next = 0;
    const lanes = Array.from(
      { length: Math.max(1, Math.min(pageNumbers.length, runtime.config.ocrThreads)) },
      async () => {
        while (next < pageNumbers.length) {
          const i = next++;
          results[i] = await readPage(pageNumbers[i]!);
        }
      },
    );
    const settled = await Promise.allSettled(lanes);
    if (opts.signal.aborted) throw abortError(opts.signal);
    const broken = settled.find((s) => s.status === 'rejected');
    if (broken) throw broken.reason;
    harmonizeFontSizes(results.filter((r) => r.layout.status !== 'failed').map((r) => r.layout));
    return results;
  } finally {
    clearTimeout(stopTimer);
    opts.signal.removeEventListener('abort', onAbort);
    // Pages still queued or running for this document are of no use to anyone now.
    if (!controller.signal.aborted) controller.abort();
  }
}

const timedOut = new WeakSet<PageLayout>();

/** A page whose recognition was given up at `stopAt`. */
function timedOutLayout(pageNumber: number): PageLayout {
  const layout: PageLayout = {
    pageNumber,
    width: 0,
    height: 0,
    status: 'failed',
    error: `OCR did not finish on page ${pageNumber} within the parse's timeout`,
    blocks: [],
    stats: { fontChars: {}, chars: 0 },
  };
  timedOut.add(layout);
  return layout;
}

/** True for the layout of a page whose OCR was given up because time ran out. */
export function isOcrTimeout(layout: PageLayout): boolean {
  return timedOut.has(layout);
}

function failedLayout(pageNumber: number, error: string): PageLayout {
  return {
    pageNumber,
    width: 0,
    height: 0,
    status: 'failed',
    error: `OCR failed on page ${pageNumber}: ${error}`,
    blocks: [],
    stats: { fontChars: {}, chars: 0 },
  };
}
