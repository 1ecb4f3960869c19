/**
 * The PDF text pool and the fan-out of one parse over it.
 *
 * Fairness and memory: a parse never has more than two ranges per thread queued or running at once
 * and ranges are small, so a second parse's first range waits behind at most two ranges of every
 * running parse (the queue is first in, first out), and memory holds only the ranges in flight. The
 * second range per thread waits in the pool's queue, so a thread that finishes a range starts the
 * next at once instead of idling while its result travels to this thread and the next is sent
 * (measured: 7% more pages per second on a 400-page document of light pages in a fresh process).
 *
 * Time: with `stopAt`, extraction stops there (see src/pdf/deadline.ts). Ranges still running are
 * cancelled (their threads end), ranges not started are dropped, and the pages read so far come back
 * with the numbers of those that were not: a long document cut short by its timeout keeps what was
 * read. Only when not even the first range was read does the parse fail with TIMEOUT.
 */
import { randomUUID } from 'node:crypto';
import type { Piscina } from 'piscina';
import { ParseError } from '../errors.js';
import type { ParserRuntime } from '../runtime/runtime.js';
import { abortReason, readerPool, workerFile } from '../runtime/worker-pool.js';
import { pageTimeLimit } from './deadline.js';
import type { PdfInfo } from './pdfjs.js';
import { failedPage, type TextPageResult, type TextTask, type TextTaskResult } from './protocol.js';

/** Young generation of a text thread, MB. */
const TEXT_THREAD_YOUNG_MB = 16;

export function textPool(runtime: ParserRuntime): Piscina<TextTask, TextTaskResult> {
  // A hostile page that balloons memory kills its own thread (its pages fail), not the process.
  // A text thread's garbage is short-lived (a page's operators and text runs); V8's default young
  // generation lets it pile up to about 64 MB between collections. 16 MB: a 1,235-page document's peak
  // RSS went from 684 to 506 MB (library, two threads), its CPU from 13.6 to 13.0 s.
  const pool = readerPool<TextTask, TextTaskResult>(runtime, 'pdf-text', 1536, TEXT_THREAD_YOUNG_MB);
  if (!pool)
    throw new ParseError('UNKNOWN_ERROR', `The PDF worker is missing at ${workerFile('pdf-text')}: run npm run build.`);
  return pool;
}

/**
 * Starts one text thread now, ahead of the first parse: the thread loads pdf.js (about a quarter of a
 * second of CPU) while the caller is still loading its own modules, on another core. The command does
 * this when its first input is a PDF (src/cli/parse-thread.ts). The thread is the pool's like any other:
 * it takes the parse's first range, exits when idle, and closes with the parser.
 */
export function warmTextPool(runtime: ParserRuntime): void {
  if (warming.has(runtime)) return;
  // The warm-up task of src/pdf/text-task.ts: no bytes, no pages.
  const warmUp: TextTask = { docKey: '', bytes: new Uint8Array(0), pages: [], wantInfo: false };
  // A thread that cannot start is reported by the parse that needs it.
  const started = textPool(runtime)
    .run(warmUp)
    .then(
      () => undefined,
      () => undefined,
    );
  warming.set(runtime, started);
}

/**
 * The warm-up of each runtime's pool, until its thread is ready. A range posted while the thread
 * still loads would find no idle thread and make the pool start a second one, for nothing on a short
 * document; so the first range waits for it.
 */
const warming = new WeakMap<ParserRuntime, Promise<void>>();

function shared(bytes: Uint8Array): Uint8Array {
  if (bytes.buffer instanceof SharedArrayBuffer) return bytes;
  const view = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  view.set(bytes);
  return view;
}

export interface TextExtraction {
  info: PdfInfo;
  /**
   * Results of pages 1..min(numPages, maxPages) in page order; when time ran out, of pages 1 up to
   * the last page read (pages before it that were not read come back failed).
   */
  pages: TextPageResult[];
  /** Pages up to min(numPages, maxPages) not read because `stopAt` came first, ascending. */
  unread: number[];
}

/** The error of a page the text pass did not reach before its time ran out. */
const TEXT_TIMEOUT_MESSAGE = 'the page was not read: the parse ran out of time (options.timeout)';

function chunkSize(pages: number, threads: number): number {
  return Math.max(1, Math.min(8, Math.ceil(pages / (threads * 4))));
}

export interface ExtractOptions {
  maxPages?: number | undefined;
  signal: AbortSignal;
  /** Epoch milliseconds at which to stop and return what was read. */
  stopAt?: number | undefined;
  /** The parse's timeout: sets each page's time limit, and words the TIMEOUT error when nothing could be read by `stopAt`. */
  timeoutMs?: number | undefined;
  /** Judge each page's spelling for auto mode's check of text layers (src/pdf/spelling.ts). */
  spelling?: boolean;
  /** Called as ranges of pages come back: pages read so far and pages to read. */
  onPages?: (done: number, total: number) => void;
}

/** Extracts and lays out pages 1..maxPages of a PDF on the text pool. */
export async function extractText(
  runtime: ParserRuntime,
  bytes: Uint8Array,
  opts: ExtractOptions,
): Promise<TextExtraction> {
  const { signal } = opts;
  if (signal.aborted) throw abortReason(signal);
  const outOfTime = (): ParseError =>
    new ParseError(
      'TIMEOUT',
      `No page of the PDF could be read within options.timeout${opts.timeoutMs !== undefined ? ` (${opts.timeoutMs} ms)` : ''}.`,
    );
  if (opts.stopAt !== undefined && opts.stopAt <= Date.now()) throw outOfTime();
  const pool = textPool(runtime);
  await warming.get(runtime);
  const data = shared(bytes);
  const docKey = randomUUID();
  const threads = Math.max(1, runtime.config.textThreads);
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  let stopped = false;
  const stopTimer =
    opts.stopAt === undefined
      ? undefined
      : setTimeout(
          () => {
            stopped = true;
            controller.abort(new Error('the text pass ran out of time'));
          },
          Math.max(0, opts.stopAt - Date.now()),
        );

  const run = async (pages: number[], wantInfo: boolean, wholeUpTo?: number): Promise<TextTaskResult> => {
    try {
      const task: TextTask = {
        docKey,
        bytes: data,
        pages,
        wantInfo,
        ...(wholeUpTo ? { wholeUpTo, ...(opts.maxPages ? { maxPages: opts.maxPages } : {}) } : {}),
        ...(opts.timeoutMs !== undefined ? { pageTimeLimitMs: pageTimeLimit(opts.timeoutMs) } : {}),
        ...(opts.spelling ? { spelling: true } : {}),
      };
      return await pool.run(task, { signal: controller.signal });
    } catch (err) {
      if (signal.aborted) throw abortReason(signal);
      // Cancelled at `stopAt`: these pages were not read.
      if (stopped) return { ok: true, pages: [] };
      if (runtime.isClosed) throw new ParseError('CLOSED', 'The parser was closed during the parse.');
      // The thread died (memory limit, crash in pdf.js): those pages fail, the rest go on.
      const msg = err instanceof Error ? err.message : String(err);
      return { ok: true, pages: pages.map((n) => failedPage(n, `page ${n} could not be read: ${msg}`)) };
    }
  };

  let settled = false;
  try {
    // The first range also reports the page count; until then nothing else can be planned. It is a
    // little longer than the others so that a short document is read by one thread, opening it (and
    // converting its fonts) once instead of on every thread.
    const firstSize = opts.maxPages ? Math.min(opts.maxPages, 8) : 8;
    // The pool's other threads start only once the first range has reported more than 12 pages: a
    // thread started before the count is known loads pdf.js (about 0.4 CPU s and 45 MB) for nothing
    // on the short documents that are most of a service's traffic.
    // Up to 12 pages the first range reads the whole document: a second thread would spend about as
    // long opening it and converting its fonts again as it would save.
    const first = await run(
      Array.from({ length: firstSize }, (_, i) => i + 1),
      true,
      12,
    );
    if (!first.ok) throw new ParseError(first.code, first.message);
    if (stopped && first.pages.length === 0) throw outOfTime();
    const info = first.info ?? { numPages: first.pages.length };
    const limit = Math.min(info.numPages, opts.maxPages ?? Infinity);
    const results = new Map<number, TextPageResult>();
    for (const p of first.pages) if (p.layout.pageNumber <= limit) results.set(p.layout.pageNumber, p);
    opts.onPages?.(results.size, limit);

    const remaining: number[] = [];
    for (let n = firstSize + 1; n <= limit; n++) if (!results.has(n)) remaining.push(n);
    const size = chunkSize(remaining.length, threads);
    const chunks: number[][] = [];
    for (let i = 0; i < remaining.length; i += size) chunks.push(remaining.slice(i, i + size));

    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < chunks.length && !stopped) {
        if (signal.aborted) throw abortReason(signal);
        const chunk = chunks[next++]!;
        const r = await run(chunk, false);
        if (!r.ok) {
          for (const n of chunk) results.set(n, failedPage(n, r.message));
          continue;
        }
        for (const p of r.pages) results.set(p.layout.pageNumber, p);
        opts.onPages?.(results.size, limit);
      }
    };
    await Promise.all(Array.from({ length: Math.min(threads * 2, chunks.length) }, worker));
    if (signal.aborted) throw abortReason(signal);
    const unread: number[] = [];
    let readUpTo = limit;
    if (stopped) {
      readUpTo = 0;
      for (let n = 1; n <= limit; n++) {
        if (results.has(n)) readUpTo = n;
        else unread.push(n);
      }
    }
    const pages: TextPageResult[] = [];
    for (let n = 1; n <= readUpTo; n++)
      pages.push(results.get(n) ?? failedPage(n, stopped ? TEXT_TIMEOUT_MESSAGE : `page ${n} could not be read`));
    settled = true;
    return { info, pages, unread };
  } finally {
    clearTimeout(stopTimer);
    signal.removeEventListener('abort', onAbort);
    // On failure, anything still queued or running for this parse is of no use now.
    if (!settled && !controller.signal.aborted) controller.abort();
  }
}
