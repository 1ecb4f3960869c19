/**
 * HTML and XHTML reader. Small pages convert on the calling thread (a worker hand-off would cost
 * more than the conversion); large ones on the HTML worker pool, so that the event loop stays free
 * and a timeout really stops the work.
 */
import { ParseError } from '../errors.js';
import type { Reader } from '../readers/reader.js';
import { abortReason, readerPool, workerFile } from '../runtime/worker-pool.js';
import type { HtmlTask, HtmlTaskResult } from './protocol.js';
import { convertHtml, type HtmlConvertOptions } from './convert.js';

export { baseHref, loadHtml, pageImages, pageLinks } from './convert.js';

/** Inputs from this size on are converted on the worker pool. */
export const HTML_WORKER_MIN_BYTES = 1024 * 1024;

export const HTML_WORKER_FILE = workerFile('html');

export const read: Reader = async (ctx) => {
  const options: HtmlConvertOptions = {
    onlyMainContent: ctx.options.onlyMainContent,
    includeTags: ctx.options.includeTags,
    excludeTags: ctx.options.excludeTags,
    removeBase64Images: ctx.options.removeBase64Images,
  };
  const source = { filename: ctx.filename, contentType: ctx.contentType };
  const pool =
    ctx.bytes.byteLength >= HTML_WORKER_MIN_BYTES
      ? readerPool<HtmlTask, HtmlTaskResult>(ctx.runtime, 'html')
      : undefined;
  if (!pool) return convertHtml(ctx.bytes, source, options);

  ctx.signal.throwIfAborted();
  const bytes = new Uint8Array(ctx.bytes);
  let result: HtmlTaskResult;
  try {
    result = await pool.run({ bytes, source, options }, { signal: ctx.signal, transferList: [bytes.buffer] });
  } catch (err) {
    if (ctx.signal.aborted) throw abortReason(ctx.signal);
    // The thread died (out of memory under its limit, or a crash): a clear error, not a hang.
    throw new ParseError(
      'RESOURCE_LIMIT',
      `The HTML document could not be converted within the worker's limits: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
  if (!result.ok)
    throw new ParseError(result.code, result.message, result.details ? { details: result.details } : undefined);
  return result.doc;
};
