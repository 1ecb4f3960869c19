/**
 * The docmill command's parse thread: one parser for the whole run (its pools reused from file to file),
 * jobs by message. Started by src/cli/command.ts; only this thread loads the library.
 *
 * When the command's first input is a PDF (`warmPdf`), the thread starts the PDF text thread before it
 * loads the library: the two load their modules at once, on two cores, instead of one after the other.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ParseErrorCode } from '../errors.js';
import type { ParseOptions } from '../options/schema.js';
import type { ParseProgress } from '../progress.js';
import type { ParseDocument } from '../types.js';
import { ParserRuntime } from '../runtime/runtime.js';

export interface ParseJob {
  id: number;
  bytes: Uint8Array;
  options: ParseOptions;
  filename: string;
  /** No deadline: the CLI without --timeout. */
  noTimeout: boolean;
  /** Only check the options (normalizeOptions); the reply's data is null. */
  checkOnly?: boolean;
}

export type ThreadMessage =
  | { id: number; ok: true; data: ParseDocument | null }
  | { id: number; ok: false; code: ParseErrorCode; message: string }
  | { id: number; progress: ParseProgress };

/** What src/cli/command.ts starts the thread with. */
export interface ParseThreadData {
  docmillCliParse: true;
  /** Start the PDF text thread before loading the library: the first input is a PDF. */
  warmPdf?: boolean;
}

/** The parse thread: one parser for the whole run (its pools reused from file to file), jobs by message. */
async function parseThread(data: ParseThreadData): Promise<void> {
  const runtime = new ParserRuntime();
  if (data.warmPdf) (await import('../pdf/text-pool.js')).warmTextPool(runtime);
  const [{ toParseError }, { normalizeOptions }, { parserOn }] = await Promise.all([
    import('../errors.js'),
    import('../options/schema.js'),
    import('../parser.js'),
  ]);
  const parser = parserOn(runtime);
  parentPort!.on('message', (job: ParseJob | 'close') => {
    if (job === 'close') {
      void parser.close().then(() => parentPort!.close());
      return;
    }
    if (job.checkOnly) {
      try {
        normalizeOptions(job.options);
        parentPort!.postMessage({ id: job.id, ok: true, data: null } satisfies ThreadMessage);
      } catch (err) {
        const e = toParseError(err);
        parentPort!.postMessage({ id: job.id, ok: false, code: e.code, message: e.message } satisfies ThreadMessage);
      }
      return;
    }
    parser
      .parseFile(job.bytes, job.options, {
        filename: job.filename,
        noTimeout: job.noTimeout,
        onProgress: (progress) => parentPort!.postMessage({ id: job.id, progress } satisfies ThreadMessage),
      })
      .then(
        (data) => parentPort!.postMessage({ id: job.id, ok: true, data } satisfies ThreadMessage),
        (err: unknown) => {
          const e = toParseError(err);
          parentPort!.postMessage({ id: job.id, ok: false, code: e.code, message: e.message } satisfies ThreadMessage);
        },
      );
  });
}

// Messages that arrive while the modules load wait in the port until the listener is attached.
const data = workerData as ParseThreadData | null;
if (parentPort && data?.docmillCliParse) await parseThread(data);
