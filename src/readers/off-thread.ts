/**
 * Formats whose readers do their work synchronously (HTML, CSV, Word, OpenDocument, RTF, EPUB,
 * presentations, spreadsheets) are read, and the result assembled, on the reader worker pool
 * (workers/reader.ts), not on the calling thread. On the calling thread a synchronous reader keeps the event loop until it is done, so
 * neither the parse's timeout nor the caller's AbortSignal could fire before it returned: a parse with
 * `timeout: 1` resolved after hundreds of milliseconds. On a worker, the parse settles with TIMEOUT or
 * ABORTED as soon as either fires, and aborting the task ends the thread that was reading.
 * PDF has its own pools (src/pdf/text-pool.ts). Without a built worker (tests run from the sources
 * before `npm run build`) the reader runs inline.
 */
import type { FileKind } from '../detect/detect.js';
import { ParseError } from '../errors.js';
import { assemble } from '../assemble.js';
import type { ParseDocument } from '../types.js';
import { abortReason, readerPool } from '../runtime/worker-pool.js';
import type { ReadTask, ReadTaskResult } from './protocol.js';
import type { ReaderContext } from './reader.js';
import { readerFor } from './registry.js';

/** Kinds read on the reader pool. */
export const OFF_THREAD_KINDS: ReadonlySet<FileKind> = new Set<FileKind>([
  'html',
  'csv',
  'docx',
  'docm',
  'doc',
  'odt',
  'rtf',
  'epub',
  'pptx',
  'pptm',
  'ppt',
  'odp',
  'xlsx',
  'xlsm',
  'xlsb',
  'xls',
  'ods',
]);

/** The response document (before redaction) of a document of one of the kinds above. */
export async function readOffThread(ctx: ReaderContext): Promise<ParseDocument> {
  const pool = readerPool<ReadTask, ReadTaskResult>(ctx.runtime, 'reader');
  if (!pool) return assemble(await (await readerFor(ctx.kind))(ctx), ctx.options, ctx.filename);
  ctx.signal.throwIfAborted();
  // A copy is handed over (transferred, not cloned again): the caller's bytes stay the caller's.
  const bytes = new Uint8Array(ctx.bytes);
  const task: ReadTask = {
    bytes,
    kind: ctx.kind,
    contentType: ctx.contentType,
    filename: ctx.filename,
    options: ctx.options,
    deadline: ctx.deadline,
  };
  let result: ReadTaskResult;
  try {
    result = await pool.run(task, { signal: ctx.signal, transferList: [bytes.buffer] });
  } catch (err) {
    if (ctx.signal.aborted) throw abortReason(ctx.signal);
    if (ctx.runtime.isClosed) throw new ParseError('CLOSED', 'The parser was closed during the parse.');
    // The thread died (out of memory under its limit, or a crash): a clear error, not a hang.
    throw new ParseError(
      'RESOURCE_LIMIT',
      `The document could not be read within the worker's limits: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
  if (!result.ok)
    throw new ParseError(result.code, result.message, result.details ? { details: result.details } : undefined);
  return result.doc;
}
