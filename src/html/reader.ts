/**
 * HTML and XHTML reader. Small pages convert on the calling thread (a worker hand-off would cost
 * more than the conversion); large ones on the HTML worker pool, so that the event loop stays free
 * and a timeout really stops the work.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { ParseError } from '../errors.js';
import type { Reader } from '../readers/reader.js';
import type { ParserRuntime } from '../runtime/runtime.js';
import type { HtmlTask, HtmlTaskResult } from '../../workers/html.js';
import { convertHtml, type HtmlConvertOptions } from './convert.js';

export { baseHref, loadHtml, pageImages, pageLinks } from './convert.js';

/** Inputs from this size on are converted on the worker pool. */
export const HTML_WORKER_MIN_BYTES = 1024 * 1024;

const ROOT = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
})();

export const HTML_WORKER_FILE = path.join(ROOT, 'dist', 'workers', 'html.js');

/** The HTML pool, or undefined when the worker has not been built (then everything runs inline). */
function htmlPool(runtime: ParserRuntime): Piscina<HtmlTask, HtmlTaskResult> | undefined {
  if (!existsSync(HTML_WORKER_FILE)) return undefined;
  return runtime.resource('html-pool', () => {
    const pool = new Piscina<HtmlTask, HtmlTaskResult>({
      filename: HTML_WORKER_FILE,
      minThreads: 0,
      maxThreads: runtime.config.textThreads,
      idleTimeout: runtime.config.idleTimeoutMs,
      concurrentTasksPerWorker: 1,
      maxQueue: Infinity,
      // A page that balloons memory ends its own thread, not the process.
      resourceLimits: { maxOldGenerationSizeMb: 2048 },
    });
    return { value: pool, close: () => pool.close({ force: true }) };
  });
}

function abortReason(signal: AbortSignal): ParseError {
  const reason: unknown = signal.reason;
  return reason instanceof ParseError ? reason : new ParseError('ABORTED', 'The parse was aborted.');
}

export const read: Reader = async (ctx) => {
  const options: HtmlConvertOptions = {
    onlyMainContent: ctx.options.onlyMainContent,
    includeTags: ctx.options.includeTags,
    excludeTags: ctx.options.excludeTags,
    removeBase64Images: ctx.options.removeBase64Images,
  };
  const source = { filename: ctx.filename, contentType: ctx.contentType };
  const pool = ctx.bytes.byteLength >= HTML_WORKER_MIN_BYTES ? htmlPool(ctx.runtime) : undefined;
  if (!pool) return convertHtml(ctx.bytes, source, options);

  ctx.signal.throwIfAborted();
  const bytes = new Uint8Array(ctx.bytes);
  let result: HtmlTaskResult;
  try {
    result = await pool.run({ bytes, source, options }, { signal: ctx.signal, transferList: [bytes.buffer] });
  } catch (err) {
    if (ctx.signal.aborted) throw abortReason(ctx.signal);
    // The thread died (out of memory under its limit, or a crash): a clear error, not a hang.
    throw new ParseError('RESOURCE_LIMIT', `The HTML document could not be converted within the worker's limits: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  if (!result.ok) throw new ParseError(result.code, result.message, result.details ? { details: result.details } : undefined);
  return result.doc;
};
